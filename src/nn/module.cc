// shade::nn modules: registration, iteration, modes, state_dict (nn/module.h).
#include "shade/nn/module.h"

#include <cmath>
#include <set>

#include "shade/autograd/autograd.h"
#include "shade/ndarray/creation.h"

namespace shade {
namespace nn {

// ------------------------------------------------------------------ Module
void Module::CheckNewName(const std::string& name) const {
  SHADE_CHECK(!name.empty() && name.find('.') == std::string::npos)
      << "Module: name '" << name << "' must be non-empty and contain no '.'";
  for (const auto& p : params_) SHADE_CHECK(p.first != name) << "Module: '" << name << "' exists";
  for (const auto& b : buffers_) SHADE_CHECK(b.first != name) << "Module: '" << name << "' exists";
  for (const auto& c : children_) {
    SHADE_CHECK(c.first != name) << "Module: '" << name << "' exists";
  }
}

NDArray Module::register_parameter(const std::string& name, NDArray param) {
  CheckNewName(name);
  SHADE_CHECK(param.defined()) << "Module: parameter '" << name << "' is undefined";
  SHADE_CHECK_TYPE(param.type_flag() == kFloat32 || param.type_flag() == kFloat64)
      << "Module: parameter '" << name << "' has dtype " << param.dtype().name()
      << "; parameters are float32 or float64";
  param.set_requires_grad(true);
  params_.emplace_back(name, param);
  return param;
}

NDArray Module::register_buffer(const std::string& name, NDArray buffer) {
  CheckNewName(name);
  SHADE_CHECK(buffer.defined()) << "Module: buffer '" << name << "' is undefined";
  buffers_.emplace_back(name, buffer);
  return buffer;
}

void Module::AddChild(const std::string& name, std::shared_ptr<Module> module) {
  CheckNewName(name);
  SHADE_CHECK(module != nullptr) << "Module: child '" << name << "' is null";
  children_.emplace_back(name, std::move(module));
}

void Module::Collect(const std::string& prefix, bool buffers, NamedArrays* out) const {
  for (const auto& p : buffers ? buffers_ : params_) out->emplace_back(prefix + p.first, p.second);
  for (const auto& c : children_) c.second->Collect(prefix + c.first + ".", buffers, out);
}

NamedArrays Module::named_parameters() const {
  NamedArrays all, unique;
  Collect("", false, &all);
  std::set<const void*> seen;  // a module shared by two parents lists its parameters once
  for (auto& p : all) {
    if (seen.insert(p.second.unsafeGetImpl()).second) unique.push_back(std::move(p));
  }
  return unique;
}

std::vector<NDArray> Module::parameters() const {
  std::vector<NDArray> out;
  for (auto& p : named_parameters()) out.push_back(p.second);
  return out;
}

NamedArrays Module::named_buffers() const {
  NamedArrays out;
  Collect("", true, &out);
  return out;
}

void Module::train(bool on) {
  training_ = on;
  for (auto& c : children_) c.second->train(on);
}

void Module::zero_grad(bool set_to_none) {
  for (NDArray& p : parameters()) {
    if (set_to_none) {
      p.set_grad(NDArray());
    } else if (p.grad().defined()) {
      NoGradGuard no_grad;
      p.grad().Fill(0);
    }
  }
}

void Module::CollectState(const std::string& prefix, NamedArrays* out) const {
  for (const auto& p : params_) out->emplace_back(prefix + p.first, p.second.Clone());
  for (const auto& b : buffers_) out->emplace_back(prefix + b.first, b.second.Clone());
  for (const auto& c : children_) c.second->CollectState(prefix + c.first + ".", out);
}

NamedArrays Module::state_dict() const {
  NoGradGuard no_grad;
  NamedArrays out;
  CollectState("", &out);
  return out;
}

void Module::load_state_dict(const std::map<std::string, NDArray>& state, bool strict) {
  NamedArrays mine = named_parameters();
  for (auto& b : named_buffers()) mine.push_back(b);
  std::set<std::string> known;
  std::vector<std::pair<NDArray, NDArray>> writes;
  for (const auto& m : mine) {
    known.insert(m.first);
    auto it = state.find(m.first);
    if (it == state.end()) {
      SHADE_CHECK(!strict) << "load_state_dict: missing key '" << m.first << "'";
      continue;
    }
    SHADE_CHECK(it->second.defined()) << "load_state_dict: '" << m.first << "' is undefined";
    SHADE_CHECK_SHAPE(it->second.sizes() == m.second.sizes())
        << "load_state_dict: '" << m.first << "' has shape " << it->second.sizes()
        << " in the state, " << m.second.sizes() << " in the module";
    writes.emplace_back(m.second, it->second);
  }
  if (strict) {
    for (const auto& kv : state) {
      SHADE_CHECK(known.count(kv.first) != 0)
          << "load_state_dict: unexpected key '" << kv.first << "'";
    }
  }
  NoGradGuard no_grad;  // parameters are written in place, outside the graph
  for (auto& w : writes) w.first.copy_(w.second);
}

void Module::save(const std::string& path) const {
  io::SaveNpz(path, state_dict());
}

void Module::load(const std::string& path, bool strict) {
  load_state_dict(io::LoadNpz(path), strict);
}

// ------------------------------------------------------------------ layers
namespace {
NDArray Uniform(IndexSpan shape, double bound, int dtype, Generator* gen) {
  Generator& g = gen ? *gen : DefaultGenerator();
  if (bound <= 0) return zeros(shape, dtype);  // fan_in 0: PyTorch leaves the values at 0 too
  return g.uniform(-bound, bound, shape, dtype);
}
}  // namespace

Linear::Linear(index_t in_features, index_t out_features, bool bias, int dtype, Generator* gen) {
  SHADE_CHECK(in_features >= 0 && out_features >= 0)
      << "Linear: negative features (" << in_features << ", " << out_features << ")";
  const double bound = in_features > 0 ? 1.0 / std::sqrt(static_cast<double>(in_features)) : 0;
  weight = register_parameter("weight", Uniform({out_features, in_features}, bound, dtype, gen));
  if (bias) this->bias = register_parameter("bias", Uniform({out_features}, bound, dtype, gen));
}

NDArray Linear::forward(const NDArray& input) {
  return functional::linear(input, weight, bias);
}

Conv2d::Conv2d(index_t in_channels, index_t out_channels, Size2 kernel_size, Size2 stride,
               Size2 padding, Size2 dilation, bool bias, int dtype, Generator* gen)
    : opt_{stride, padding, dilation} {
  SHADE_CHECK(in_channels >= 1 && out_channels >= 1)
      << "Conv2d: channels (" << in_channels << ", " << out_channels << ") must be positive";
  SHADE_CHECK(kernel_size[0] >= 1 && kernel_size[1] >= 1)
      << "Conv2d: kernel_size (" << kernel_size[0] << ", " << kernel_size[1]
      << ") must be positive";
  const double fan_in = static_cast<double>(in_channels * kernel_size[0] * kernel_size[1]);
  const double bound = 1.0 / std::sqrt(fan_in);
  weight = register_parameter(
      "weight",
      Uniform({out_channels, in_channels, kernel_size[0], kernel_size[1]}, bound, dtype, gen));
  if (bias) this->bias = register_parameter("bias", Uniform({out_channels}, bound, dtype, gen));
}

NDArray Conv2d::forward(const NDArray& input) {
  return functional::conv2d(input, weight, bias, opt_.stride, opt_.padding, opt_.dilation);
}

BatchNorm2d::BatchNorm2d(index_t num_features, double eps, double momentum, bool affine,
                         bool track_running_stats, int dtype)
    : eps_(eps), momentum_(momentum) {
  SHADE_CHECK(num_features >= 1) << "BatchNorm2d: num_features " << num_features
                                 << " must be positive";
  if (affine) {
    weight = register_parameter("weight", ones({num_features}, dtype));
    bias = register_parameter("bias", zeros({num_features}, dtype));
  }
  if (track_running_stats) {
    running_mean = register_buffer("running_mean", zeros({num_features}, dtype));
    running_var = register_buffer("running_var", ones({num_features}, dtype));
    num_batches_tracked = register_buffer("num_batches_tracked", zeros({}, kInt64));
  }
}

NDArray BatchNorm2d::forward(const NDArray& input) {
  SHADE_CHECK_SHAPE(input.defined() && input.ndim() == 4)
      << "BatchNorm2d: expected a 4-D input (N, C, H, W), got "
      << (input.defined() ? input.Describe() : std::string("an undefined array"));
  // PyTorch: batch statistics in training mode, or whenever no running ones are kept; the
  // running ones are updated (in place) only in training mode.
  const bool use_batch = is_training() || !running_mean.defined();
  if (is_training() && num_batches_tracked.defined()) {
    num_batches_tracked.set({}, num_batches_tracked.get({}) + 1);
  }
  return functional::batch_norm(input, running_mean, running_var, weight, bias, use_batch,
                                momentum_, eps_);
}

NDArray ReLU::forward(const NDArray& input) {
  return functional::relu(input);
}

NDArray MaxPool2d::forward(const NDArray& input) {
  return functional::max_pool2d(input, kernel_, stride_, padding_);
}

NDArray Flatten::forward(const NDArray& input) {
  SHADE_CHECK_SHAPE(input.defined() && input.ndim() >= 1)
      << "Flatten: expected an input of rank >= 1";
  return input.reshape({input.size(0), -1});
}

Dropout::Dropout(double p, Generator* gen) : p_(p), gen_(gen) {
  SHADE_CHECK(p >= 0.0 && p <= 1.0)
      << "Dropout: probability has to be between 0 and 1, but got " << p;
}

NDArray Dropout::forward(const NDArray& input) {
  return functional::dropout(input, p_, is_training(), gen_);
}

Sequential::Sequential(std::vector<std::shared_ptr<Module>> modules) {
  for (auto& m : modules) push_back(std::move(m));
}

void Sequential::push_back(std::shared_ptr<Module> module) {
  register_module(std::to_string(size()), std::move(module));
}

std::shared_ptr<Module> Sequential::operator[](std::size_t i) const {
  SHADE_CHECK_INDEX(i < size()) << "Sequential: index " << i << " out of range for " << size()
                                << " modules";
  return named_children()[i].second;
}

NDArray Sequential::forward(const NDArray& input) {
  NDArray x = input;
  for (const auto& c : named_children()) x = c.second->forward(x);
  return x;
}

}  // namespace nn
}  // namespace shade
