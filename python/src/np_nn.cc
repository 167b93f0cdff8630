// `shade._shade._nn`: torch.nn.functional's names over shade::nn::functional, the modules of
// shade/nn/module.h, and `_optim` with SGD / Adam / AdamW (shade/optim/optimizer.h). Thin
// bindings; python/shade/nn.py and optim.py expose them as shade.nn, shade.nn.functional and
// shade.optim.
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "shade/nn/functional.h"
#include "shade/nn/module.h"
#include "shade/optim/optimizer.h"
#include "shade_py.h"

namespace shade {
namespace python {
namespace {

namespace F = nn::functional;
using nn::Size2;

// None (undefined) or an array.
NDArray Optional(py::handle h) {
  return h.is_none() ? NDArray() : AsNDArray(h);
}

// An int or a pair of ints (PyTorch's _pair).
Size2 Pair(py::handle h, const char* what) {
  if (PyIndex_Check(h.ptr())) {
    const index_t v = ParseIndex(h, what);
    return {v, v};
  }
  const std::vector<index_t> v = ParseShape(h);
  if (v.size() != 2) {
    throw py::value_error(std::string(what) + " must be an int or a pair of ints");
  }
  return {v[0], v[1]};
}

void Require(bool ok, const std::string& what) {
  if (!ok) SHADE_THROW_NOT_IMPLEMENTED << what << " is not supported by shade.nn";
}

nn::Reduction Reduction(const std::string& r) {
  return nn::ParseReduction(r);
}

py::object Out(NDArray r) {
  return Wrap(std::move(r));
}

py::dict ToDict(const io::NamedArrays& named) {
  py::dict d;
  for (const auto& kv : named) d[py::str(kv.first)] = Wrap(kv.second);
  return d;
}

std::map<std::string, NDArray> FromDict(const py::dict& d) {
  std::map<std::string, NDArray> out;
  for (auto item : d) out[item.first.cast<std::string>()] = AsNDArray(item.second);
  return out;
}

std::vector<NDArray> Params(py::handle params) {
  std::vector<NDArray> out;
  for (py::handle p : params) out.push_back(AsNDArray(p));
  return out;
}

void BindFunctional(py::module_& f) {
  f.def(
      "linear",
      [](py::handle x, py::handle w, py::handle b) {
        return Out(F::linear(AsNDArray(x), AsNDArray(w), Optional(b)));
      },
      py::arg("input"), py::arg("weight"), py::arg("bias") = py::none(),
      "input @ weight.T + bias (torch.nn.functional.linear).");
  f.def(
      "conv2d",
      [](py::handle x, py::handle w, py::handle b, py::handle stride, py::handle padding,
         py::handle dilation, index_t groups) {
        Require(groups == 1, "groups != 1");
        return Out(F::conv2d(AsNDArray(x), AsNDArray(w), Optional(b), Pair(stride, "stride"),
                             Pair(padding, "padding"), Pair(dilation, "dilation")));
      },
      py::arg("input"), py::arg("weight"), py::arg("bias") = py::none(), py::arg("stride") = 1,
      py::arg("padding") = 0, py::arg("dilation") = 1, py::arg("groups") = 1,
      "2-D cross-correlation of (N, C, H, W) with (O, C, kh, kw) (groups=1).");
  f.def(
      "max_pool2d",
      [](py::handle x, py::handle k, py::handle stride, py::handle padding, py::handle dilation,
         bool ceil_mode, bool return_indices) {
        Require(Pair(dilation, "dilation") == Size2{1, 1}, "dilation != 1");
        Require(!ceil_mode, "ceil_mode=True");
        Require(!return_indices, "return_indices=True");
        const Size2 s = stride.is_none() ? Size2{0, 0} : Pair(stride, "stride");
        return Out(
            F::max_pool2d(AsNDArray(x), Pair(k, "kernel_size"), s, Pair(padding, "padding")));
      },
      py::arg("input"), py::arg("kernel_size"), py::arg("stride") = py::none(),
      py::arg("padding") = 0, py::arg("dilation") = 1, py::arg("ceil_mode") = false,
      py::arg("return_indices") = false, "Max pooling over the last two dimensions.");
  f.def(
      "avg_pool2d",
      [](py::handle x, py::handle k, py::handle stride, py::handle padding, bool ceil_mode,
         bool count_include_pad) {
        Require(!ceil_mode, "ceil_mode=True");
        Require(count_include_pad, "count_include_pad=False");
        const Size2 s = stride.is_none() ? Size2{0, 0} : Pair(stride, "stride");
        return Out(
            F::avg_pool2d(AsNDArray(x), Pair(k, "kernel_size"), s, Pair(padding, "padding")));
      },
      py::arg("input"), py::arg("kernel_size"), py::arg("stride") = py::none(),
      py::arg("padding") = 0, py::arg("ceil_mode") = false, py::arg("count_include_pad") = true,
      "Average pooling over the last two dimensions (count_include_pad=True).");
  f.def(
      "relu",
      [](py::handle x, bool inplace) {
        Require(!inplace, "inplace=True");
        return Out(F::relu(AsNDArray(x)));
      },
      py::arg("input"), py::arg("inplace") = false, "max(x, 0).");
  f.def(
      "gelu",
      [](py::handle x, const std::string& approximate) {
        return Out(F::gelu(AsNDArray(x), approximate));
      },
      py::arg("input"), py::arg("approximate") = "none", "GELU (exact or 'tanh').");
  f.def(
      "sigmoid", [](py::handle x) { return Out(F::sigmoid(AsNDArray(x))); }, py::arg("input"),
      "Logistic sigmoid.");
  f.def(
      "tanh", [](py::handle x) { return Out(F::tanh(AsNDArray(x))); }, py::arg("input"),
      "Hyperbolic tangent.");
  f.def(
      "softmax", [](py::handle x, index_t dim) { return Out(F::softmax(AsNDArray(x), dim)); },
      py::arg("input"), py::arg("dim"), "Softmax along dim.");
  f.def(
      "log_softmax",
      [](py::handle x, index_t dim) { return Out(F::log_softmax(AsNDArray(x), dim)); },
      py::arg("input"), py::arg("dim"), "Log-softmax along dim.");
  f.def(
      "nll_loss",
      [](py::handle x, py::handle t, py::handle weight, std::int64_t ignore_index,
         const std::string& reduction) {
        Require(weight.is_none(), "weight=");
        return Out(F::nll_loss(AsNDArray(x), AsNDArray(t), Reduction(reduction), ignore_index));
      },
      py::arg("input"), py::arg("target"), py::arg("weight") = py::none(),
      py::arg("ignore_index") = -100, py::arg("reduction") = "mean",
      "Negative log likelihood of (N, C) log-probabilities at integer targets.");
  f.def(
      "cross_entropy",
      [](py::handle x, py::handle t, py::handle weight, std::int64_t ignore_index,
         const std::string& reduction, double label_smoothing) {
        Require(weight.is_none(), "weight=");
        Require(label_smoothing == 0.0, "label_smoothing");
        return Out(
            F::cross_entropy(AsNDArray(x), AsNDArray(t), Reduction(reduction), ignore_index));
      },
      py::arg("input"), py::arg("target"), py::arg("weight") = py::none(),
      py::arg("ignore_index") = -100, py::arg("reduction") = "mean",
      py::arg("label_smoothing") = 0.0, "nll_loss(log_softmax(input)) of (N, C) logits.");
  f.def(
      "mse_loss",
      [](py::handle x, py::handle t, const std::string& reduction) {
        return Out(F::mse_loss(AsNDArray(x), AsNDArray(t), Reduction(reduction)));
      },
      py::arg("input"), py::arg("target"), py::arg("reduction") = "mean", "Squared error.");
  f.def(
      "dropout",
      [](py::handle x, double p, bool training, bool inplace) {
        Require(!inplace, "inplace=True");
        return Out(F::dropout(AsNDArray(x), p, training));
      },
      py::arg("input"), py::arg("p") = 0.5, py::arg("training") = true, py::arg("inplace") = false,
      "Zeroes elements with probability p (shade.nn.manual_seed).");
  f.def(
      "batch_norm",
      [](py::handle x, py::handle rm, py::handle rv, py::handle w, py::handle b, bool training,
         double momentum, double eps) {
        return Out(F::batch_norm(AsNDArray(x), Optional(rm), Optional(rv), Optional(w), Optional(b),
                                 training, momentum, eps));
      },
      py::arg("input"), py::arg("running_mean"), py::arg("running_var"),
      py::arg("weight") = py::none(), py::arg("bias") = py::none(), py::arg("training") = false,
      py::arg("momentum") = 0.1, py::arg("eps") = 1e-5, "Batch normalization over dim 1.");
  f.def(
      "embedding",
      [](py::handle idx, py::handle w, py::handle padding_idx) {
        const NDArray weight = AsNDArray(w);
        index_t pad = -1;
        if (!padding_idx.is_none()) {
          pad = ParseIndex(padding_idx, "padding_idx");
          const index_t rows = weight.ndim() == 2 ? weight.size(0) : 0;
          if (pad < -rows || pad >= rows)
            throw py::value_error("padding_idx must be within num_embeddings");
          if (pad < 0) pad += rows;  // PyTorch counts a negative padding_idx from the end
        }
        return Out(F::embedding(AsNDArray(idx), weight, pad));
      },
      py::arg("input"), py::arg("weight"), py::arg("padding_idx") = py::none(),
      "Rows of weight at integer indices.");
}

void BindModules(py::module_& m) {
  using nn::Module;
  py::class_<Module, std::shared_ptr<Module>>(m, "Module", "Base of shade.nn's layers.")
      .def("forward", [](Module& self, py::handle x) { return Out(self.forward(AsNDArray(x))); })
      .def("__call__", [](Module& self, py::handle x) { return Out(self.forward(AsNDArray(x))); })
      .def("parameters",
           [](const Module& self) {
             py::list out;
             for (const NDArray& p : self.parameters()) out.append(Wrap(p));
             return out;
           })
      .def("named_parameters",
           [](const Module& self) {
             py::list out;
             for (const auto& p : self.named_parameters())
               out.append(py::make_tuple(p.first, Wrap(p.second)));
             return out;
           })
      .def("named_buffers",
           [](const Module& self) {
             py::list out;
             for (const auto& p : self.named_buffers())
               out.append(py::make_tuple(p.first, Wrap(p.second)));
             return out;
           })
      .def(
          "train",
          [](Module& self, bool mode) -> Module& {
            self.train(mode);
            return self;
          },
          py::arg("mode") = true, py::return_value_policy::reference_internal)
      .def(
          "eval",
          [](Module& self) -> Module& {
            self.eval();
            return self;
          },
          py::return_value_policy::reference_internal)
      .def_property_readonly("training", &Module::is_training)
      .def("zero_grad", &Module::zero_grad, py::arg("set_to_none") = false)
      .def("state_dict", [](const Module& self) { return ToDict(self.state_dict()); })
      .def(
          "load_state_dict",
          [](Module& self, const py::dict& d, bool strict) {
            self.load_state_dict(FromDict(d), strict);
          },
          py::arg("state_dict"), py::arg("strict") = true)
      .def("save", &Module::save, py::arg("path"), "state_dict() into an .npz file.")
      .def("load", &Module::load, py::arg("path"), py::arg("strict") = true);

  auto param = [](NDArray nn::Linear::*field) {
    return [field](const nn::Linear& self) -> py::object {
      const NDArray& a = self.*field;
      return a.defined() ? Wrap(a) : py::none();
    };
  };
  py::class_<nn::Linear, Module, std::shared_ptr<nn::Linear>>(m, "Linear")
      .def(py::init([](index_t in, index_t out, bool bias, py::handle dtype) {
             return std::make_shared<nn::Linear>(in, out, bias,
                                                 dtype.is_none() ? kFloat32 : ParseDType(dtype));
           }),
           py::arg("in_features"), py::arg("out_features"), py::arg("bias") = true,
           py::arg("dtype") = py::none())
      .def_property_readonly("weight", param(&nn::Linear::weight))
      .def_property_readonly("bias", param(&nn::Linear::bias));
  py::class_<nn::Conv2d, Module, std::shared_ptr<nn::Conv2d>>(m, "Conv2d")
      .def(py::init([](index_t in, index_t out, py::handle k, py::handle stride, py::handle padding,
                       py::handle dilation, index_t groups, bool bias, py::handle dtype) {
             Require(groups == 1, "groups != 1");
             return std::make_shared<nn::Conv2d>(
                 in, out, Pair(k, "kernel_size"), Pair(stride, "stride"), Pair(padding, "padding"),
                 Pair(dilation, "dilation"), bias, dtype.is_none() ? kFloat32 : ParseDType(dtype));
           }),
           py::arg("in_channels"), py::arg("out_channels"), py::arg("kernel_size"),
           py::arg("stride") = 1, py::arg("padding") = 0, py::arg("dilation") = 1,
           py::arg("groups") = 1, py::arg("bias") = true, py::arg("dtype") = py::none())
      .def_property_readonly("weight", [](const nn::Conv2d& s) { return Wrap(s.weight); })
      .def_property_readonly("bias", [](const nn::Conv2d& s) -> py::object {
        return s.bias.defined() ? Wrap(s.bias) : py::none();
      });
  auto maybe = [](const NDArray& a) -> py::object { return a.defined() ? Wrap(a) : py::none(); };
  py::class_<nn::BatchNorm2d, Module, std::shared_ptr<nn::BatchNorm2d>>(m, "BatchNorm2d")
      .def(py::init([](index_t c, double eps, double momentum, bool affine, bool track,
                       py::handle dtype) {
             return std::make_shared<nn::BatchNorm2d>(
                 c, eps, momentum, affine, track, dtype.is_none() ? kFloat32 : ParseDType(dtype));
           }),
           py::arg("num_features"), py::arg("eps") = 1e-5, py::arg("momentum") = 0.1,
           py::arg("affine") = true, py::arg("track_running_stats") = true,
           py::arg("dtype") = py::none())
      .def_property_readonly("weight",
                             [maybe](const nn::BatchNorm2d& s) { return maybe(s.weight); })
      .def_property_readonly("bias", [maybe](const nn::BatchNorm2d& s) { return maybe(s.bias); })
      .def_property_readonly("running_mean",
                             [maybe](const nn::BatchNorm2d& s) { return maybe(s.running_mean); })
      .def_property_readonly("running_var",
                             [maybe](const nn::BatchNorm2d& s) { return maybe(s.running_var); });
  py::class_<nn::ReLU, Module, std::shared_ptr<nn::ReLU>>(m, "ReLU").def(py::init<>());
  py::class_<nn::Flatten, Module, std::shared_ptr<nn::Flatten>>(m, "Flatten").def(py::init<>());
  py::class_<nn::MaxPool2d, Module, std::shared_ptr<nn::MaxPool2d>>(m, "MaxPool2d")
      .def(py::init([](py::handle k, py::handle stride, py::handle padding) {
             const Size2 s = stride.is_none() ? Size2{0, 0} : Pair(stride, "stride");
             return std::make_shared<nn::MaxPool2d>(Pair(k, "kernel_size"), s,
                                                    Pair(padding, "padding"));
           }),
           py::arg("kernel_size"), py::arg("stride") = py::none(), py::arg("padding") = 0);
  py::class_<nn::Dropout, Module, std::shared_ptr<nn::Dropout>>(m, "Dropout")
      .def(py::init([](double p) { return std::make_shared<nn::Dropout>(p); }), py::arg("p") = 0.5);
  py::class_<nn::Sequential, Module, std::shared_ptr<nn::Sequential>>(m, "Sequential")
      .def(py::init([](py::args mods) {
        std::vector<std::shared_ptr<Module>> v;
        for (py::handle h : mods) v.push_back(h.cast<std::shared_ptr<Module>>());
        return std::make_shared<nn::Sequential>(std::move(v));
      }))
      .def("append", &nn::Sequential::push_back, py::arg("module"))
      .def("__len__", &nn::Sequential::size)
      .def("__getitem__", [](const nn::Sequential& s, std::size_t i) { return s[i]; });
  m.def("manual_seed", &nn::manual_seed, py::arg("seed"),
        "Reseeds the generator of dropout and of the layers' initial weights.");
}

void BindOptim(py::module_& o) {
  using optim::Optimizer;
  py::class_<Optimizer>(o, "Optimizer", "Base of shade.optim's optimizers.")
      .def("step", py::overload_cast<>(&Optimizer::step),
           "One update from every parameter's .grad (parameters without one are skipped).")
      .def("zero_grad", &Optimizer::zero_grad, py::arg("set_to_none") = false)
      .def_property("lr", &Optimizer::lr, &Optimizer::set_lr)
      .def("state_dict", [](const Optimizer& self) { return ToDict(self.state_dict()); })
      .def("load_state_dict",
           [](Optimizer& self, const py::dict& d) { self.load_state_dict(FromDict(d)); })
      .def("save", &Optimizer::save, py::arg("path"))
      .def("load", &Optimizer::load, py::arg("path"));
  py::class_<optim::SGD, Optimizer>(o, "SGD").def(
      py::init([](py::handle params, double lr, double momentum, double dampening,
                  double weight_decay, bool nesterov, bool maximize) {
        optim::SGDOptions opt;
        opt.lr = lr;
        opt.momentum = momentum;
        opt.dampening = dampening;
        opt.weight_decay = weight_decay;
        opt.nesterov = nesterov;
        opt.maximize = maximize;
        return new optim::SGD(Params(params), opt);
      }),
      py::arg("params"), py::arg("lr") = 1e-3, py::arg("momentum") = 0.0,
      py::arg("dampening") = 0.0, py::arg("weight_decay") = 0.0, py::arg("nesterov") = false,
      py::kw_only(), py::arg("maximize") = false);
  auto adam_options = [](double lr, std::pair<double, double> betas, double eps, double wd,
                         bool amsgrad, bool maximize) {
    optim::AdamOptions opt;
    opt.lr = lr;
    opt.beta1 = betas.first;
    opt.beta2 = betas.second;
    opt.eps = eps;
    opt.weight_decay = wd;
    opt.amsgrad = amsgrad;
    opt.maximize = maximize;
    return opt;
  };
  py::class_<optim::Adam, Optimizer>(o, "Adam").def(
      py::init([adam_options](py::handle params, double lr, std::pair<double, double> betas,
                              double eps, double wd, bool amsgrad, bool maximize) {
        return new optim::Adam(Params(params), adam_options(lr, betas, eps, wd, amsgrad, maximize));
      }),
      py::arg("params"), py::arg("lr") = 1e-3, py::arg("betas") = std::make_pair(0.9, 0.999),
      py::arg("eps") = 1e-8, py::arg("weight_decay") = 0.0, py::arg("amsgrad") = false,
      py::kw_only(), py::arg("maximize") = false);
  py::class_<optim::AdamW, optim::Adam>(o, "AdamW")
      .def(py::init([adam_options](py::handle params, double lr, std::pair<double, double> betas,
                                   double eps, double wd, bool amsgrad, bool maximize) {
             return new optim::AdamW(Params(params),
                                     adam_options(lr, betas, eps, wd, amsgrad, maximize));
           }),
           py::arg("params"), py::arg("lr") = 1e-3, py::arg("betas") = std::make_pair(0.9, 0.999),
           py::arg("eps") = 1e-8, py::arg("weight_decay") = 1e-2, py::arg("amsgrad") = false,
           py::kw_only(), py::arg("maximize") = false);
}

}  // namespace

void BindNN(py::module_& m) {
  py::module_ nn_mod = m.def_submodule("_nn", "shade.nn (shade/nn/module.h).");
  py::module_ f =
      nn_mod.def_submodule("functional", "shade.nn.functional (shade/nn/functional.h).");
  BindFunctional(f);
  BindModules(nn_mod);
  py::module_ o = m.def_submodule("_optim", "shade.optim (shade/optim/optimizer.h).");
  BindOptim(o);
}

}  // namespace python
}  // namespace shade
