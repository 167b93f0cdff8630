/*!
 * \file optimizer.h
 * \brief Optimizers over NDArray parameters with PyTorch 1.13's update rules, operation for
 *  operation (`torch.optim.SGD`, `Adam`, `AdamW`, single-tensor path): `SGD` (momentum,
 *  dampening, nesterov, weight_decay), `Adam` (amsgrad), `AdamW` (decoupled weight decay).
 *
 * A step reads each parameter's gradient (`p.grad()`, or an explicit list) and updates the
 * parameter in place; parameters without a gradient are skipped. The state (momentum buffers,
 * moments, step counts) and the hyperparameters form a flat `state_dict` of named arrays that
 * saves to and loads from `.npz` ("state.<i>.<name>" per parameter i, "param_groups.0.<name>"
 * for the hyperparameters, each a 0-d float64 array).
 */
#ifndef SHADE_OPTIM_OPTIMIZER_H_
#define SHADE_OPTIM_OPTIMIZER_H_

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "shade/autograd/autograd.h"
#include "shade/io/npz.h"
#include "shade/ndarray/ndarray.h"

namespace shade {
namespace optim {

/*! \brief A state_dict: named arrays in a fixed order (what SaveNpz writes). */
using StateDict = io::NamedArrays;

/*! \brief Base of the optimizers: the parameter list, the step loop and the state_dict. */
class Optimizer {
 public:
  /*!
   * \brief Optimizes `params` (float32 or float64, writeable, distinct arrays); throws
   *  shade::TypeError or shade::ValueError otherwise.
   */
  explicit Optimizer(std::vector<NDArray> params, const char* name);
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  /*! \brief The parameters, in the order of the state_dict's indices. */
  const std::vector<NDArray>& params() const { return params_; }
  /*!
   * \brief One update from every parameter's grad() (parameters without one are skipped), run
   *  with grad mode off (PyTorch's step under no_grad).
   */
  void step();
  /*!
   * \brief Clears the parameters' gradients: set_to_none drops them, else they are set to zeros
   *  (PyTorch 1.13's default).
   */
  void zero_grad(bool set_to_none = false);
  /*!
   * \brief One update from explicit gradients, one per parameter (undefined: the parameter is
   *  skipped); each must have its parameter's shape and dtype.
   */
  void step(const std::vector<NDArray>& grads);
  /*! \brief Learning rate. */
  double lr() const { return lr_; }
  /*! \brief Sets the learning rate (a scheduler's job); must be >= 0. */
  void set_lr(double lr);
  /*! \brief The state and hyperparameters as named arrays (see the file comment). */
  StateDict state_dict() const;
  /*!
   * \brief Restores what state_dict returned: the per-parameter state (shapes and dtypes must
   *  match the parameters) and the hyperparameters present; unknown names throw.
   */
  void load_state_dict(const std::map<std::string, NDArray>& state);
  /*! \brief state_dict() into an .npz file. */
  void save(const std::string& path) const;
  /*! \brief load_state_dict from an .npz file. */
  void load(const std::string& path);

 protected:
  /*! \brief Updates parameter i from its gradient (same shape and dtype, checked). */
  virtual void Update(std::size_t i, const NDArray& p, const NDArray& g) = 0;
  /*! \brief A hyperparameter of the state_dict: a number or a flag (saved as 0 or 1). */
  struct HyperRef {
    std::string name;  //!< name after "param_groups.0."
    double* number;    //!< the value, or null for a flag
    bool* flag;        //!< the flag, or null for a number
  };
  /*! \brief The hyperparameters besides lr (for the state_dict). */
  virtual std::vector<HyperRef> Hyper() = 0;
  /*! \brief Named state of parameter i (undefined arrays are not saved). */
  virtual std::vector<std::pair<std::string, NDArray*>> State(std::size_t i) = 0;
  /*! \brief The optimizer's name in error messages. */
  const char* name() const { return name_; }

 private:
  std::vector<NDArray> params_;
  const char* name_;

 protected:
  /*! \brief The learning rate. */
  double lr_ = 1e-3;
};

/*! \brief torch.optim.SGD's arguments. */
struct SGDOptions {
  double lr = 1e-3;         //!< learning rate (>= 0)
  double momentum = 0;      //!< (>= 0)
  double dampening = 0;     //!< applied from the second step on
  double weight_decay = 0;  //!< L2 term added to the gradient (>= 0)
  bool nesterov = false;    //!< needs momentum > 0 and dampening 0
  bool maximize = false;    //!< ascend instead of descend
};

/*!
 * \brief Stochastic gradient descent: d = g + wd p; with momentum, b = d at the first step,
 *  then b = momentum b + (1 - dampening) d, and d = b (or d + momentum b with nesterov);
 *  p -= lr d.
 */
class SGD : public Optimizer {
 public:
  /*! \brief Checks the options as PyTorch does. */
  SGD(std::vector<NDArray> params, const SGDOptions& opt);
  /*! \brief The options (lr is lr()). */
  const SGDOptions& options() const { return opt_; }

 protected:
  void Update(std::size_t i, const NDArray& p, const NDArray& g) override;
  std::vector<HyperRef> Hyper() override;
  std::vector<std::pair<std::string, NDArray*>> State(std::size_t i) override;

 private:
  SGDOptions opt_;
  std::vector<NDArray> momentum_buffer_;
};

/*! \brief torch.optim.Adam's / AdamW's arguments. */
struct AdamOptions {
  double lr = 1e-3;         //!< learning rate (>= 0)
  double beta1 = 0.9;       //!< in [0, 1)
  double beta2 = 0.999;     //!< in [0, 1)
  double eps = 1e-8;        //!< (>= 0)
  double weight_decay = 0;  //!< Adam: L2 in the gradient; AdamW: decoupled (default 1e-2)
  bool amsgrad = false;     //!< keep the maximum of the second moment
  bool maximize = false;    //!< ascend instead of descend
};

/*!
 * \brief Adam: g += wd p (Adam) or p *= 1 - lr wd (AdamW); m = b1 m + (1 - b1) g;
 *  v = b2 v + (1 - b2) g^2; p -= lr / (1 - b1^t) m / (sqrt(v) / sqrt(1 - b2^t) + eps), with
 *  v replaced by its running maximum under amsgrad.
 */
class Adam : public Optimizer {
 public:
  /*! \brief Checks the options as PyTorch does. */
  Adam(std::vector<NDArray> params, const AdamOptions& opt);
  /*! \brief The options (lr is lr()). */
  const AdamOptions& options() const { return opt_; }

 protected:
  /*! \brief Adam or AdamW (decoupled weight decay). */
  Adam(std::vector<NDArray> params, const AdamOptions& opt, bool decoupled, const char* name);
  void Update(std::size_t i, const NDArray& p, const NDArray& g) override;
  std::vector<HyperRef> Hyper() override;
  std::vector<std::pair<std::string, NDArray*>> State(std::size_t i) override;

 private:
  AdamOptions opt_;
  bool decoupled_;
  std::vector<NDArray> step_, exp_avg_, exp_avg_sq_, max_exp_avg_sq_;
};

/*! \brief AdamW: Adam with decoupled weight decay (weight_decay defaults to 1e-2). */
class AdamW : public Adam {
 public:
  /*! \brief AdamW's default options (weight_decay 1e-2). */
  static AdamOptions Defaults() {
    AdamOptions o;
    o.weight_decay = 1e-2;
    return o;
  }
  /*! \brief Checks the options as PyTorch does. */
  AdamW(std::vector<NDArray> params, const AdamOptions& opt = Defaults());
};

}  // namespace optim
}  // namespace shade

#endif  // SHADE_OPTIM_OPTIMIZER_H_
