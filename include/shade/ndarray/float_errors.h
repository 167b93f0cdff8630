/*!
 * \file float_errors.h
 * \brief NumPy's floating-point error handling (np.seterr / np.errstate) for the dynamic
 *  evaluator: what happens when an evaluation divides by zero, overflows, underflows or makes
 *  an invalid value (NaN from non-NaN).
 *
 * The evaluator clears the CPU's flags (backend/cpu/fp_flags.h) before each evaluation and reads
 * them once after it (threads' flags included), not per element; nothing is done while every
 * action is kIgnore. The policy is per thread, as NumPy's errstate is per thread/context.
 *
 * Default: every action kIgnore, unlike NumPy (divide, over, invalid warn). The SIMD kernels
 * compute a row's last partial vector with its unused lanes zero (packet::LoadFirst), so a
 * division of a row whose length is no multiple of the vector width raises "invalid" (0/0) and
 * log raises "divide by zero" from lanes that are not elements. Until the elementwise tails pad
 * with a neutral value, NumPy's defaults (FloatErrorPolicy::NumPyDefaults()) would warn on
 * ordinary arrays; opt in with SetFloatErrorPolicy knowing that such spurious reports occur. The
 * message names the evaluation's outermost op: "divide by zero encountered in divide" (NumPy's
 * text; in a fused expression the op that raised may be an inner one).
 */
#ifndef SHADE_NDARRAY_FLOAT_ERRORS_H_
#define SHADE_NDARRAY_FLOAT_ERRORS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "shade/backend/cpu/fp_flags.h"
#include "shade/base/error.h"

namespace shade {

/*! \brief NumPy's FloatingPointError: thrown for a flag whose action is kRaise. */
class FloatingPointError : public Error {
 public:
  /*! \brief With the message (NumPy's text). */
  explicit FloatingPointError(const std::string& what);
  ~FloatingPointError() override;  // out of line, as base/error.h's classes
};

/*! \brief What to do about one kind of floating-point error (NumPy's seterr values). */
enum class FloatErrorAction : std::uint8_t {
  kIgnore,  ///< nothing
  kWarn,    ///< a warning (the warn handler; stderr without one)
  kRaise,   ///< throw FloatingPointError
  kCall,    ///< the call handler (np.seterrcall's function)
  kPrint,   ///< "Warning: <message>" on stdout
  kLog,     ///< the call handler, as NumPy's log (its `write` method)
};

/*! \brief The action for each kind (default: all ignored; see the file comment). */
struct FloatErrorPolicy {
  FloatErrorAction divide = FloatErrorAction::kIgnore;   //!< division by zero
  FloatErrorAction over = FloatErrorAction::kIgnore;     //!< overflow
  FloatErrorAction under = FloatErrorAction::kIgnore;    //!< underflow
  FloatErrorAction invalid = FloatErrorAction::kIgnore;  //!< invalid operation
  /*! \brief NumPy's defaults: divide, over and invalid warn, under ignored. */
  static FloatErrorPolicy NumPyDefaults() {
    FloatErrorPolicy p;
    p.divide = p.over = p.invalid = FloatErrorAction::kWarn;
    return p;
  }
};

/*! \brief The calling thread's policy (np.geterr). */
FloatErrorPolicy GetFloatErrorPolicy();
/*! \brief Sets the calling thread's policy (np.seterr); returns the previous one. */
FloatErrorPolicy SetFloatErrorPolicy(const FloatErrorPolicy& policy);
/*! \brief FloatErrorAction by NumPy's name ("ignore", "warn", ...); ValueError for others. */
FloatErrorAction ParseFloatErrorAction(const std::string& name);
/*! \brief NumPy's name of an action. */
const char* FloatErrorActionName(FloatErrorAction action);

/*!
 * \brief Receives kWarn, kCall and kLog reports: the action, the message ("divide by zero
 *  encountered in divide"), the kind ("divide by zero", "overflow", "underflow", "invalid
 *  value") and its fp::k* bit. May throw (the evaluation's caller gets the exception).
 */
using FloatErrorHandler = std::function<void(FloatErrorAction action, const std::string& message,
                                             const char* kind, unsigned flag)>;
/*! \brief Sets the process-wide handler (empty: warnings go to stderr; call and log do
 *  nothing); returns the previous one. Set it before threads evaluate (it is not locked). */
FloatErrorHandler SetFloatErrorHandler(FloatErrorHandler handler);

/*! \brief Scoped policy (np.errstate): sets it, restores the previous one on destruction. */
class FloatErrorScope {
 public:
  /*! \brief Sets `policy` for the calling thread. */
  explicit FloatErrorScope(const FloatErrorPolicy& policy) : saved_(SetFloatErrorPolicy(policy)) {}
  ~FloatErrorScope() { SetFloatErrorPolicy(saved_); }
  FloatErrorScope(const FloatErrorScope&) = delete;
  FloatErrorScope& operator=(const FloatErrorScope&) = delete;

 private:
  FloatErrorPolicy saved_;
};

namespace detail {
/*! \brief True when some action of the calling thread's policy is not kIgnore. */
bool FloatErrorsWatched() noexcept;
/*! \brief Acts on raised `flags` (fp::k* bits) after an evaluation of `op`, per the policy. */
void ReportFloatErrors(unsigned flags, const char* op);
}  // namespace detail

/*!
 * \brief Brackets one evaluation: clears the flags when constructed (if any action watches),
 *  and Done() reads them once and reports. Done() is not called on an exception path.
 */
class FloatErrorCheck {
 public:
  /*! \brief Starts watching an evaluation of `op` (its NumPy name). */
  explicit FloatErrorCheck(const char* op) : op_(detail::FloatErrorsWatched() ? op : nullptr) {
    if (op_ != nullptr) fp::Clear();
  }
  /*! \brief Reads the flags and acts on them (may throw FloatingPointError). */
  void Done() const {
    if (op_ == nullptr) return;
    const unsigned f = fp::Read();
    if (f != 0) detail::ReportFloatErrors(f, op_);
  }

 private:
  const char* op_;
};

}  // namespace shade

#endif  // SHADE_NDARRAY_FLOAT_ERRORS_H_
