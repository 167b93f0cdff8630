// NumPy's floating-point error state (ndarray/float_errors.h).
#include "shade/ndarray/float_errors.h"

#include <cstdio>
#include <utility>

namespace shade {
namespace {

thread_local FloatErrorPolicy t_policy;
// Cached "some action is not ignore", so that an evaluation's test is one thread-local read.
thread_local bool t_watched = false;
// Process-wide: set once by an embedding (the Python module), read by every thread.
FloatErrorHandler* t_handler = nullptr;

bool Watches(const FloatErrorPolicy& p) {
  return p.divide != FloatErrorAction::kIgnore || p.over != FloatErrorAction::kIgnore ||
         p.under != FloatErrorAction::kIgnore || p.invalid != FloatErrorAction::kIgnore;
}

const char* const kActionNames[] = {"ignore", "warn", "raise", "call", "print", "log"};

}  // namespace

FloatingPointError::FloatingPointError(const std::string& what) : Error(what) {}
FloatingPointError::~FloatingPointError() = default;

FloatErrorPolicy GetFloatErrorPolicy() {
  return t_policy;
}

FloatErrorPolicy SetFloatErrorPolicy(const FloatErrorPolicy& policy) {
  const FloatErrorPolicy old = t_policy;
  t_policy = policy;
  t_watched = Watches(policy);
  return old;
}

FloatErrorAction ParseFloatErrorAction(const std::string& name) {
  for (int i = 0; i < 6; ++i) {
    if (name == kActionNames[i]) return static_cast<FloatErrorAction>(i);
  }
  SHADE_THROW << "invalid floating-point error action '" << name
              << "' (ignore, warn, raise, call, print, log)";
}

const char* FloatErrorActionName(FloatErrorAction action) {
  const int i = static_cast<int>(action);
  return i >= 0 && i < 6 ? kActionNames[i] : "(invalid)";
}

FloatErrorHandler SetFloatErrorHandler(FloatErrorHandler handler) {
  FloatErrorHandler old = t_handler != nullptr ? *t_handler : FloatErrorHandler();
  delete t_handler;
  t_handler = handler ? new FloatErrorHandler(std::move(handler)) : nullptr;
  return old;
}

namespace detail {

bool FloatErrorsWatched() noexcept {
  return t_watched;
}

void ReportFloatErrors(unsigned flags, const char* op) {
  // NumPy's order: divide, over, under, invalid.
  const struct {
    unsigned bit;
    const char* kind;
    FloatErrorAction action;
  } kinds[] = {{fp::kDivide, "divide by zero", t_policy.divide},
               {fp::kOverflow, "overflow", t_policy.over},
               {fp::kUnderflow, "underflow", t_policy.under},
               {fp::kInvalid, "invalid value", t_policy.invalid}};
  for (const auto& k : kinds) {
    if ((flags & k.bit) == 0 || k.action == FloatErrorAction::kIgnore) continue;
    const std::string message = std::string(k.kind) + " encountered in " + op;
    switch (k.action) {
      case FloatErrorAction::kRaise:
        throw FloatingPointError(message);
      case FloatErrorAction::kPrint:
        std::printf("Warning: %s\n", message.c_str());
        std::fflush(stdout);
        break;
      case FloatErrorAction::kWarn:
        if (t_handler == nullptr) {
          std::fprintf(stderr, "RuntimeWarning: %s\n", message.c_str());
          break;
        }
        (*t_handler)(k.action, message, k.kind, k.bit);
        break;
      default:  // kCall, kLog
        if (t_handler != nullptr) (*t_handler)(k.action, message, k.kind, k.bit);
        break;
    }
  }
}

}  // namespace detail
}  // namespace shade
