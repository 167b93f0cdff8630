// SGD, Adam and AdamW with PyTorch 1.13's single-tensor update rules (optim/optimizer.h).
#include "shade/optim/optimizer.h"

#include <cmath>
#include <set>
#include <type_traits>

#include "shade/ndarray/apply.h"
#include "shade/ndarray/creation.h"

namespace shade {
namespace optim {
namespace {

// f(TypeTag<T>) for float32 / float64 parameters (checked by the constructor).
template <typename F>
void DispatchFloat(int flag, F&& f) {
  DispatchDType(flag, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value) {
      f(tag);
    } else {
      SHADE_THROW_TYPE << "optimizer: dtype " << TypeFlagName(flag) << " is not float32 or float64";
    }
  });
}

NDArray Scalar(double v) {
  return full({}, v, kFloat64);
}

const char* const kStatePrefix = "state.";
const char* const kGroupPrefix = "param_groups.0.";

}  // namespace

// ------------------------------------------------------------------ Optimizer
Optimizer::Optimizer(std::vector<NDArray> params, const char* name)
    : params_(std::move(params)), name_(name) {
  std::set<const void*> seen;
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const NDArray& p = params_[i];
    SHADE_CHECK(p.defined()) << name_ << ": parameter " << i << " is undefined";
    SHADE_CHECK_TYPE(p.type_flag() == kFloat32 || p.type_flag() == kFloat64)
        << name_ << ": parameter " << i << " has dtype " << p.dtype().name()
        << "; only float32 and float64 parameters can be optimized";
    p.CheckWriteable(name_);
    SHADE_CHECK(seen.insert(p.unsafeGetImpl()).second)
        << name_ << ": parameter " << i << " appears more than once";
  }
}

void Optimizer::set_lr(double lr) {
  SHADE_CHECK(lr >= 0) << name_ << ": invalid learning rate " << lr;
  lr_ = lr;
}

void Optimizer::step() {
  std::vector<NDArray> grads;
  grads.reserve(params_.size());
  for (const NDArray& p : params_) grads.push_back(p.grad());
  step(grads);
}

void Optimizer::zero_grad(bool set_to_none) {
  NoGradGuard no_grad;
  for (NDArray& p : params_) {
    if (set_to_none) {
      p.set_grad(NDArray());
    } else {
      const NDArray g = p.grad();
      if (g.defined()) g.Fill(0);
    }
  }
}

void Optimizer::step(const std::vector<NDArray>& grads) {
  NoGradGuard no_grad;  // the in-place updates are not part of any graph
  SHADE_CHECK_EQ(grads.size(), params_.size())
      << name_ << ": " << grads.size() << " gradients for " << params_.size() << " parameters";
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const NDArray& g = grads[i];
    if (!g.defined()) continue;
    const NDArray& p = params_[i];
    SHADE_CHECK_SHAPE(g.sizes() == p.sizes()) << name_ << ": gradient " << i << " has shape "
                                              << g.sizes() << ", its parameter " << p.sizes();
    SHADE_CHECK_TYPE(g.type_flag() == p.type_flag())
        << name_ << ": gradient " << i << " has dtype " << g.dtype().name() << ", its parameter "
        << p.dtype().name();
    Update(i, p, g);
  }
}

StateDict Optimizer::state_dict() const {
  // The virtual accessors hand out pointers to members; nothing is changed through them here.
  Optimizer* self = const_cast<Optimizer*>(this);
  StateDict out;
  for (std::size_t i = 0; i < params_.size(); ++i) {
    for (const auto& kv : self->State(i)) {
      if (kv.second->defined()) {
        out.emplace_back(kStatePrefix + std::to_string(i) + "." + kv.first, kv.second->Clone());
      }
    }
  }
  out.emplace_back(std::string(kGroupPrefix) + "lr", Scalar(lr_));
  for (const HyperRef& h : self->Hyper()) {
    out.emplace_back(kGroupPrefix + h.name, Scalar(h.number ? *h.number : (*h.flag ? 1 : 0)));
  }
  return out;
}

void Optimizer::load_state_dict(const std::map<std::string, NDArray>& state) {
  // Everything is checked before anything changes.
  std::vector<std::pair<NDArray*, NDArray>> states;
  std::vector<std::pair<HyperRef, double>> hypers;
  double lr = lr_;
  std::vector<HyperRef> refs = Hyper();
  for (const auto& kv : state) {
    const std::string& key = kv.first;
    const NDArray& v = kv.second;
    SHADE_CHECK(v.defined()) << name_ << ": state entry '" << key << "' is undefined";
    if (key.rfind(kGroupPrefix, 0) == 0) {
      const std::string h = key.substr(std::string(kGroupPrefix).size());
      SHADE_CHECK_SHAPE(v.ndim() == 0 && v.type_flag() >= 0)
          << name_ << ": hyperparameter '" << key << "' must be a 0-d number, got " << v.Describe();
      const double value = v.get({});
      if (h == "lr") {
        lr = value;
        continue;
      }
      bool found = false;
      for (const HyperRef& r : refs) {
        if (r.name == h) {
          hypers.emplace_back(r, value);
          found = true;
        }
      }
      SHADE_CHECK(found) << name_ << ": unknown hyperparameter '" << key << "'";
    } else if (key.rfind(kStatePrefix, 0) == 0) {
      const std::string rest = key.substr(std::string(kStatePrefix).size());
      const std::size_t dot = rest.find('.');
      SHADE_CHECK(dot != std::string::npos && dot > 0 &&
                  rest.find_first_not_of("0123456789") == dot)
          << name_ << ": malformed state entry '" << key << "'";
      const std::size_t i = std::stoul(rest.substr(0, dot));
      SHADE_CHECK_INDEX(i < params_.size())
          << name_ << ": state entry '" << key << "' names parameter " << i << " of "
          << params_.size();
      const std::string field = rest.substr(dot + 1);
      NDArray* slot = nullptr;
      for (const auto& s : State(i)) {
        if (s.first == field) slot = s.second;
      }
      SHADE_CHECK(slot != nullptr) << name_ << ": unknown state entry '" << key << "'";
      const bool is_step = field == "step";
      const IndexSpan want = is_step ? IndexSpan() : params_[i].sizes();
      SHADE_CHECK_SHAPE(v.sizes() == want) << name_ << ": state entry '" << key << "' has shape "
                                           << v.sizes() << ", expected " << want;
      NDArray copy = NDArray::Empty(v.sizes(), is_step ? kFloat64 : params_[i].type_flag());
      copy.copy_(v);
      states.emplace_back(slot, copy);
    } else {
      SHADE_THROW << name_ << ": unknown state entry '" << key << "'";
    }
  }
  SHADE_CHECK(lr >= 0) << name_ << ": invalid learning rate " << lr;
  lr_ = lr;
  for (auto& h : hypers) {
    if (h.first.number) {
      *h.first.number = h.second;
    } else {
      *h.first.flag = h.second != 0;
    }
  }
  for (auto& s : states) *s.first = s.second;
}

void Optimizer::save(const std::string& path) const {
  io::SaveNpz(path, state_dict());
}

void Optimizer::load(const std::string& path) {
  load_state_dict(io::LoadNpz(path));
}

// ------------------------------------------------------------------ SGD
SGD::SGD(std::vector<NDArray> params, const SGDOptions& opt)
    : Optimizer(std::move(params), "SGD"), opt_(opt) {
  SHADE_CHECK(opt.lr >= 0) << "SGD: invalid learning rate " << opt.lr;
  SHADE_CHECK(opt.momentum >= 0) << "SGD: invalid momentum value " << opt.momentum;
  SHADE_CHECK(opt.weight_decay >= 0) << "SGD: invalid weight_decay value " << opt.weight_decay;
  SHADE_CHECK(!opt.nesterov || (opt.momentum > 0 && opt.dampening == 0))
      << "SGD: nesterov momentum requires a momentum and zero dampening (momentum " << opt.momentum
      << ", dampening " << opt.dampening << ")";
  lr_ = opt.lr;
  momentum_buffer_.resize(this->params().size());
}

void SGD::Update(std::size_t i, const NDArray& p, const NDArray& g) {
  const bool use_momentum = opt_.momentum != 0;
  const bool first = use_momentum && !momentum_buffer_[i].defined();
  if (first) momentum_buffer_[i] = NDArray::Empty(p.sizes(), p.type_flag());
  // Without momentum the buffer operand is the gradient again (read, never written).
  const NDArray& buf = use_momentum ? momentum_buffer_[i] : g;
  DispatchFloat(p.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T wd = T(opt_.weight_decay), mom = T(opt_.momentum), damp = T(1 - opt_.dampening);
    const T neg_lr = T(-lr_);
    const bool decay = opt_.weight_decay != 0, nesterov = opt_.nesterov, maximize = opt_.maximize;
    ApplyElementwise<T, T, T>(
        [&](T& pv, T& gv, T& bv) {
          T d = maximize ? T(-gv) : gv;
          if (decay) d = d + wd * pv;
          if (use_momentum) {
            bv = first ? d : T(bv * mom) + damp * d;
            d = nesterov ? T(d + mom * bv) : bv;
          }
          pv = pv + neg_lr * d;
        },
        ApplyOptions(), p, g, buf);
  });
}

std::vector<Optimizer::HyperRef> SGD::Hyper() {
  return {{"momentum", &opt_.momentum, nullptr},
          {"dampening", &opt_.dampening, nullptr},
          {"weight_decay", &opt_.weight_decay, nullptr},
          {"nesterov", nullptr, &opt_.nesterov},
          {"maximize", nullptr, &opt_.maximize}};
}

std::vector<std::pair<std::string, NDArray*>> SGD::State(std::size_t i) {
  return {{"momentum_buffer", &momentum_buffer_[i]}};
}

// ------------------------------------------------------------------ Adam / AdamW
Adam::Adam(std::vector<NDArray> params, const AdamOptions& opt)
    : Adam(std::move(params), opt, false, "Adam") {}

Adam::Adam(std::vector<NDArray> params, const AdamOptions& opt, bool decoupled, const char* name)
    : Optimizer(std::move(params), name), opt_(opt), decoupled_(decoupled) {
  SHADE_CHECK(opt.lr >= 0) << name << ": invalid learning rate " << opt.lr;
  SHADE_CHECK(opt.eps >= 0) << name << ": invalid epsilon value " << opt.eps;
  SHADE_CHECK(opt.beta1 >= 0 && opt.beta1 < 1)
      << name << ": invalid beta parameter at index 0: " << opt.beta1;
  SHADE_CHECK(opt.beta2 >= 0 && opt.beta2 < 1)
      << name << ": invalid beta parameter at index 1: " << opt.beta2;
  SHADE_CHECK(opt.weight_decay >= 0) << name << ": invalid weight_decay value " << opt.weight_decay;
  lr_ = opt.lr;
  const std::size_t n = this->params().size();
  step_.resize(n);
  exp_avg_.resize(n);
  exp_avg_sq_.resize(n);
  max_exp_avg_sq_.resize(n);
}

void Adam::Update(std::size_t i, const NDArray& p, const NDArray& g) {
  if (!step_[i].defined()) {  // PyTorch creates the state at the first step
    step_[i] = Scalar(0);
    exp_avg_[i] = zeros(p.sizes(), p.type_flag());
    exp_avg_sq_[i] = zeros(p.sizes(), p.type_flag());
    if (opt_.amsgrad) max_exp_avg_sq_[i] = zeros(p.sizes(), p.type_flag());
  }
  if (opt_.amsgrad && !max_exp_avg_sq_[i].defined()) {
    max_exp_avg_sq_[i] = zeros(p.sizes(), p.type_flag());
  }
  const double step = step_[i].get({}) + 1;
  step_[i].set({}, step);
  const double bias_correction1 = 1 - std::pow(opt_.beta1, step);
  const double bias_correction2 = 1 - std::pow(opt_.beta2, step);
  const double step_size = lr_ / bias_correction1;
  const double bias_correction2_sqrt = std::sqrt(bias_correction2);
  const bool amsgrad = opt_.amsgrad;
  // Without amsgrad the maximum operand is the second moment again (not written).
  const NDArray& vmax = amsgrad ? max_exp_avg_sq_[i] : exp_avg_sq_[i];
  DispatchFloat(p.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T b1 = T(opt_.beta1), one_b1 = T(1 - opt_.beta1);
    const T b2 = T(opt_.beta2), one_b2 = T(1 - opt_.beta2);
    const T wd = T(opt_.weight_decay), shrink = T(1 - lr_ * opt_.weight_decay);
    const T bc2s = T(bias_correction2_sqrt), eps = T(opt_.eps), neg_step = T(-step_size);
    const bool decay = opt_.weight_decay != 0, decoupled = decoupled_, maximize = opt_.maximize;
    ApplyElementwise<T, T, T, T, T>(
        [&](T& pv, T& gv, T& m, T& v, T& vm) {
          T grad = maximize ? T(-gv) : gv;
          if (decoupled) {
            pv = pv * shrink;
          } else if (decay) {
            grad = grad + wd * pv;
          }
          m = T(m * b1) + one_b1 * grad;
          v = v * b2 + T(one_b2 * grad) * grad;
          T second = v;
          if (amsgrad) {
            vm = std::max(vm, v);
            second = vm;
          }
          const T denom = T(std::sqrt(second) / bc2s) + eps;
          pv = pv + neg_step * T(m / denom);
        },
        ApplyOptions(), p, g, exp_avg_[i], exp_avg_sq_[i], vmax);
  });
}

std::vector<Optimizer::HyperRef> Adam::Hyper() {
  return {{"beta1", &opt_.beta1, nullptr},     {"beta2", &opt_.beta2, nullptr},
          {"eps", &opt_.eps, nullptr},         {"weight_decay", &opt_.weight_decay, nullptr},
          {"amsgrad", nullptr, &opt_.amsgrad}, {"maximize", nullptr, &opt_.maximize}};
}

std::vector<std::pair<std::string, NDArray*>> Adam::State(std::size_t i) {
  return {{"step", &step_[i]},
          {"exp_avg", &exp_avg_[i]},
          {"exp_avg_sq", &exp_avg_sq_[i]},
          {"max_exp_avg_sq", &max_exp_avg_sq_[i]}};
}

AdamW::AdamW(std::vector<NDArray> params, const AdamOptions& opt)
    : Adam(std::move(params), opt, true, "AdamW") {}

}  // namespace optim
}  // namespace shade
