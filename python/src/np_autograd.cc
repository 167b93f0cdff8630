// Autograd in Python (docs/autograd.md): the ndarray attributes and methods of
// shade/autograd/autograd.h under PyTorch's names, the grad mode, and autograd.grad. The context
// managers (shade.no_grad, shade.enable_grad) and requires_grad= of the creation functions are
// in python/shade/__init__.py.
#include <pybind11/stl.h>

#include <utility>
#include <vector>

#include "shade/autograd/autograd.h"
#include "shade_py.h"

namespace shade {
namespace python {
namespace {

py::object GradOrNone(const NDArray& g) {
  return g.defined() ? Wrap(g) : py::none();
}

// A sequence (or one array) of shade arrays; None entries become undefined arrays.
std::vector<NDArray> ArrayList(py::handle h, bool allow_none) {
  std::vector<NDArray> out;
  if (h.is_none()) return out;
  auto one = [&](py::handle x) {
    if (x.is_none() && allow_none) {
      out.emplace_back();
      return;
    }
    PyArray* p = AsPyArray(x);
    out.push_back(p != nullptr ? p->Get() : AsNDArray(x));
  };
  if (AsPyArray(h) != nullptr) {
    one(h);
  } else {
    for (py::handle x : h) one(x);
  }
  return out;
}

}  // namespace

void BindAutograd(py::module_& m, py::class_<PyArray>& cls) {
  cls.def_property(
      "requires_grad", [](PyArray& self) { return self.Get().requires_grad(); },
      [](PyArray& self, bool r) {
        NDArray a = self.Get();
        a.set_requires_grad(r);
      },
      "True when ops on this array are recorded for backward().");
  cls.def(
      "requires_grad_",
      [](py::handle self, bool r) {
        NDArray a = AsPyArray(self)->Get();
        a.set_requires_grad(r);
        return py::reinterpret_borrow<py::object>(self);
      },
      py::arg("requires_grad") = true,
      "Marks this leaf as requiring gradients (floating dtypes only); returns self.");
  cls.def_property(
      "grad", [](PyArray& self) { return GradOrNone(self.Get().grad()); },
      [](PyArray& self, py::handle g) {
        NDArray a = self.Get();
        a.set_grad(g.is_none() ? NDArray() : AsNDArray(g));
      },
      "The accumulated gradient, or None.");
  cls.def_property_readonly(
      "is_leaf", [](PyArray& self) { return self.Get().is_leaf(); },
      "True unless the array was computed by a recorded op.");
  cls.def_property_readonly(
      "grad_fn",
      [](PyArray& self) -> py::object {
        const std::string name = autograd::GradFnName(self.Get());
        if (name.empty()) return py::none();
        return py::str(name);
      },
      "The name of the op that computed this array (None for a leaf).");
  cls.def(
      "backward",
      [](PyArray& self, py::handle gradient, py::handle retain_graph, bool create_graph) {
        const NDArray y = self.Get();
        const NDArray g = gradient.is_none() ? NDArray() : AsNDArray(gradient);
        const bool retain = retain_graph.is_none() ? create_graph : retain_graph.cast<bool>();
        py::gil_scoped_release release;
        y.backward(g, retain, create_graph);
      },
      py::arg("gradient") = py::none(), py::arg("retain_graph") = py::none(),
      py::arg("create_graph") = false,
      "Backpropagates from this array into the leaves' .grad (PyTorch's Tensor.backward).");
  cls.def(
      "detach", [](PyArray& self) { return Wrap(self.Get().detach()); },
      "The same elements outside the graph (requires_grad False).");
  cls.def(
      "retain_grad", [](PyArray& self) { self.Get().retain_grad(); },
      "Keeps this non-leaf array's gradient in .grad at the next backward().");

  m.def(
      "is_grad_enabled", []() { return IsGradEnabled(); }, "True unless inside shade.no_grad().");
  m.def(
      "_set_grad_enabled",
      [](bool enabled) {
        const bool was = IsGradEnabled();
        // Pending expressions run in the mode they were built in.
        EvaluateAllPending();
        detail::GradModeFlag() = enabled;
        return was;
      },
      py::arg("enabled"));
  m.def(
      "_autograd_grad",
      [](py::handle outputs, py::handle inputs, py::handle grad_outputs, py::handle retain_graph,
         bool create_graph, bool allow_unused) {
        const std::vector<NDArray> out = ArrayList(outputs, false);
        const std::vector<NDArray> in = ArrayList(inputs, false);
        const std::vector<NDArray> gout = ArrayList(grad_outputs, true);
        const bool retain = retain_graph.is_none() ? create_graph : retain_graph.cast<bool>();
        std::vector<NDArray> g;
        {
          py::gil_scoped_release release;
          g = autograd::Grad(out, in, gout, retain, create_graph, allow_unused);
        }
        py::tuple t(g.size());
        for (std::size_t i = 0; i < g.size(); ++i) t[i] = GradOrNone(g[i]);
        return t;
      },
      py::arg("outputs"), py::arg("inputs"), py::arg("grad_outputs") = py::none(),
      py::arg("retain_graph") = py::none(), py::arg("create_graph") = false,
      py::arg("allow_unused") = false);
  m.def(
      "_autograd_backward",
      [](py::handle tensors, py::handle grad_tensors, py::handle retain_graph, bool create_graph) {
        const std::vector<NDArray> out = ArrayList(tensors, false);
        const std::vector<NDArray> gout = ArrayList(grad_tensors, true);
        const bool retain = retain_graph.is_none() ? create_graph : retain_graph.cast<bool>();
        py::gil_scoped_release release;
        autograd::Backward(out, gout, retain, create_graph);
      },
      py::arg("tensors"), py::arg("grad_tensors") = py::none(),
      py::arg("retain_graph") = py::none(), py::arg("create_graph") = false);
}

}  // namespace python
}  // namespace shade
