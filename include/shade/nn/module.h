/*!
 * \file module.h
 * \brief `shade::nn` modules (PyTorch's torch.nn.Module and the layers the examples need):
 *  parameter and buffer registration, recursive iteration with dotted names, train()/eval(),
 *  and a `state_dict` of named arrays saved to and loaded from `.npz`.
 *
 * A parameter is an NDArray registered with requires_grad set; the optimizers take
 * `parameters()`. Loading a state_dict copies the values into the registered arrays in place,
 * so optimizers built on them keep working. Layers: Linear, Conv2d, BatchNorm2d, ReLU,
 * MaxPool2d, Flatten, Dropout, Sequential.
 */
#ifndef SHADE_NN_MODULE_H_
#define SHADE_NN_MODULE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "shade/io/npz.h"
#include "shade/ndarray/ndarray.h"
#include "shade/nn/functional.h"

namespace shade {
namespace nn {

/*! \brief Named arrays in registration order (parameters, buffers, a state_dict). */
using NamedArrays = io::NamedArrays;

/*! \brief Base of the layers: what PyTorch's Module does for parameters, buffers and children. */
class Module {
 public:
  virtual ~Module() = default;
  Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  /*! \brief The layer's computation. */
  virtual NDArray forward(const NDArray& input) = 0;
  /*! \brief forward(input). */
  NDArray operator()(const NDArray& input) { return forward(input); }

  /*! \brief Every parameter of this module and its children, depth first, without duplicates. */
  std::vector<NDArray> parameters() const;
  /*! \brief parameters() with dotted names ("0.weight", "fc.bias"). */
  NamedArrays named_parameters() const;
  /*! \brief Every buffer (running statistics, ...) with dotted names. */
  NamedArrays named_buffers() const;
  /*! \brief The direct children with their names. */
  const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& named_children() const {
    return children_;
  }
  /*! \brief Sets training mode here and in every child (dropout, batch norm read it). */
  virtual void train(bool on = true);
  /*! \brief train(false). */
  void eval() { train(false); }
  /*! \brief True in training mode (the default). */
  bool is_training() const { return training_; }
  /*! \brief Clears every parameter's gradient (set_to_none) or sets it to zeros. */
  void zero_grad(bool set_to_none = false);

  /*!
   * \brief Copies of each module's parameters then buffers, module by module (PyTorch's order),
   *  with dotted names.
   */
  NamedArrays state_dict() const;
  /*!
   * \brief Copies `state` into the registered arrays. Shapes must match (dtypes convert);
   *  with `strict`, missing and unexpected names throw. Checked before anything is written.
   */
  void load_state_dict(const std::map<std::string, NDArray>& state, bool strict = true);
  /*! \brief state_dict() into an .npz file (numpy.load reads it). */
  void save(const std::string& path) const;
  /*! \brief load_state_dict(LoadNpz(path), strict). */
  void load(const std::string& path, bool strict = true);

 protected:
  /*!
   * \brief Registers a parameter (float32 / float64; requires_grad is set) under `name`;
   *  returns it. Names are unique among a module's parameters, buffers and children.
   */
  NDArray register_parameter(const std::string& name, NDArray param);
  /*! \brief Registers a buffer (state without gradient, saved in the state_dict). */
  NDArray register_buffer(const std::string& name, NDArray buffer);
  /*! \brief Registers a child module; returns it. */
  template <typename M>
  std::shared_ptr<M> register_module(const std::string& name, std::shared_ptr<M> module) {
    AddChild(name, module);
    return module;
  }

 private:
  void CheckNewName(const std::string& name) const;
  void AddChild(const std::string& name, std::shared_ptr<Module> module);
  void Collect(const std::string& prefix, bool buffers, NamedArrays* out) const;
  void CollectState(const std::string& prefix, NamedArrays* out) const;

  std::vector<std::pair<std::string, NDArray>> params_;
  std::vector<std::pair<std::string, NDArray>> buffers_;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
  bool training_ = true;
};

/*! \brief y = x W^T + b; W and b uniform in +-1/sqrt(in_features) (PyTorch's init). */
class Linear : public Module {
 public:
  /*! \brief Weights drawn from `gen` (null: DefaultGenerator()) in `dtype`. */
  Linear(index_t in_features, index_t out_features, bool bias = true, int dtype = kFloat32,
         Generator* gen = nullptr);
  NDArray forward(const NDArray& input) override;
  /*! \brief (out_features, in_features). */
  NDArray weight;
  /*! \brief (out_features), or undefined without bias. */
  NDArray bias;
};

/*! \brief 2-D convolution; W and b uniform in +-1/sqrt(in_channels kh kw) (PyTorch's init). */
class Conv2d : public Module {
 public:
  /*! \brief Weights drawn from `gen` (null: DefaultGenerator()) in `dtype`. */
  Conv2d(index_t in_channels, index_t out_channels, Size2 kernel_size, Size2 stride = {1, 1},
         Size2 padding = {0, 0}, Size2 dilation = {1, 1}, bool bias = true, int dtype = kFloat32,
         Generator* gen = nullptr);
  NDArray forward(const NDArray& input) override;
  /*! \brief (out_channels, in_channels, kh, kw). */
  NDArray weight;
  /*! \brief (out_channels), or undefined without bias. */
  NDArray bias;

 private:
  kernels::Conv2dOptions opt_;
};

/*!
 * \brief Batch normalization of (N, C, H, W): weight 1 and bias 0 (affine), buffers
 *  running_mean 0, running_var 1 and num_batches_tracked (int64) when tracking.
 */
class BatchNorm2d : public Module {
 public:
  /*! \brief PyTorch's arguments. */
  explicit BatchNorm2d(index_t num_features, double eps = 1e-5, double momentum = 0.1,
                       bool affine = true, bool track_running_stats = true, int dtype = kFloat32);
  NDArray forward(const NDArray& input) override;
  NDArray weight;               //!< (C), or undefined without affine
  NDArray bias;                 //!< (C), or undefined without affine
  NDArray running_mean;         //!< (C), or undefined without tracking
  NDArray running_var;          //!< (C), or undefined without tracking
  NDArray num_batches_tracked;  //!< 0-d int64, or undefined without tracking

 private:
  double eps_, momentum_;
};

/*! \brief functional::relu. */
class ReLU : public Module {
 public:
  NDArray forward(const NDArray& input) override;
};

/*! \brief functional::max_pool2d with fixed windows. */
class MaxPool2d : public Module {
 public:
  /*! \brief stride {0, 0}: kernel_size. */
  explicit MaxPool2d(Size2 kernel_size, Size2 stride = {0, 0}, Size2 padding = {0, 0})
      : kernel_(kernel_size), stride_(stride), padding_(padding) {}
  NDArray forward(const NDArray& input) override;

 private:
  Size2 kernel_, stride_, padding_;
};

/*! \brief Keeps dimension 0 and flattens the rest (PyTorch's Flatten with its defaults). */
class Flatten : public Module {
 public:
  NDArray forward(const NDArray& input) override;
};

/*! \brief functional::dropout in training mode, the identity in eval mode. */
class Dropout : public Module {
 public:
  /*! \brief Drop probability p in [0, 1]; `gen` null: DefaultGenerator(). */
  explicit Dropout(double p = 0.5, Generator* gen = nullptr);
  NDArray forward(const NDArray& input) override;

 private:
  double p_;
  Generator* gen_;
};

/*! \brief Runs its children in order; they are named "0", "1", ... */
class Sequential : public Module {
 public:
  Sequential() = default;
  /*! \brief The given modules, in order. */
  explicit Sequential(std::vector<std::shared_ptr<Module>> modules);
  /*! \brief Appends a module. */
  void push_back(std::shared_ptr<Module> module);
  /*! \brief Number of modules. */
  std::size_t size() const { return named_children().size(); }
  /*! \brief Module i (throws shade::IndexError when out of range). */
  std::shared_ptr<Module> operator[](std::size_t i) const;
  NDArray forward(const NDArray& input) override;
};

}  // namespace nn
}  // namespace shade

#endif  // SHADE_NN_MODULE_H_
