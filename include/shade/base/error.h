/*!
 * \file error.h
 * \brief shade::Error and the CHECK macros that throw it.
 *
 * Every check that a caller's input can fail goes through these macros. They throw (never
 * abort) with the failed condition, the values involved and file:line, so a library user can
 * recover and report.
 */
#ifndef SHADE_BASE_ERROR_H_
#define SHADE_BASE_ERROR_H_

#include <sstream>
#include <stdexcept>
#include <string>

namespace shade {

/*! \brief The one exception type thrown for invalid input anywhere in shade. */
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  // Out of line (src/base/error.cc) on purpose: the destructor is the key function, so the
  // vtable, typeinfo and destructor exist once, in the library, instead of as weak copies in
  // every object that throws (the per-target kernel objects among them, see packet.h).
  ~Error() override;
};

namespace detail {

// The message machinery below keeps its non-trivial parts out of line (src/base/error.cc) and
// the rest always inlined, for the same reason: no weak copy compiled for a SIMD target.

/*! \brief Collects a failure message; ErrorThrower turns it into an exception. */
class ErrorMessage {
 public:
  ErrorMessage(const char* file, int line, const char* prefix);
  ~ErrorMessage();
  ErrorMessage(const ErrorMessage&) = delete;
  ErrorMessage& operator=(const ErrorMessage&) = delete;
  /*! \brief Appends a value as `std::ostream <<` prints it. */
  template <typename T>
  __attribute__((always_inline)) inline ErrorMessage& operator<<(const T& value) {
    os_ << value;
    return *this;
  }
  /*! \brief The message so far. */
  std::string str() const;

 private:
  std::ostringstream os_;
};

/*! \brief `ErrorThrower() & message` throws Error(message) (the & binds after every <<). */
struct ErrorThrower {
  [[noreturn]] void operator&(const ErrorMessage& msg) const;
};

}  // namespace detail
}  // namespace shade

/*! \brief Throws shade::Error with file:line and the streamed message. */
#define SHADE_THROW                 \
  ::shade::detail::ErrorThrower() & \
      ::shade::detail::ErrorMessage(__FILE__, __LINE__, "")

/*! \brief Throws shade::Error naming the condition unless `cond` holds; stream more after it. */
#define SHADE_CHECK(cond)                 \
  if (__builtin_expect(!!(cond), 1)) {    \
  } else                                  \
    ::shade::detail::ErrorThrower() &     \
        ::shade::detail::ErrorMessage(__FILE__, __LINE__, "Check failed: " #cond " ")

#define SHADE_CHECK_OP_(a, b, op)                                                            \
  if (__builtin_expect(!!((a)op(b)), 1)) {                                                   \
  } else                                                                                     \
    ::shade::detail::ErrorThrower() & ::shade::detail::ErrorMessage(__FILE__, __LINE__, "") \
                                          << "Check failed: " #a " " #op " " #b " ("        \
                                          << (a) << " vs. " << (b) << ") "

#define SHADE_CHECK_EQ(a, b) SHADE_CHECK_OP_(a, b, ==)
#define SHADE_CHECK_NE(a, b) SHADE_CHECK_OP_(a, b, !=)
#define SHADE_CHECK_LT(a, b) SHADE_CHECK_OP_(a, b, <)
#define SHADE_CHECK_LE(a, b) SHADE_CHECK_OP_(a, b, <=)
#define SHADE_CHECK_GT(a, b) SHADE_CHECK_OP_(a, b, >)
#define SHADE_CHECK_GE(a, b) SHADE_CHECK_OP_(a, b, >=)

/*! \brief Internal invariants only (never caller input): checked in debug builds. */
#ifdef NDEBUG
#define SHADE_DCHECK(cond) \
  while (false) SHADE_CHECK(cond)
#else
#define SHADE_DCHECK(cond) SHADE_CHECK(cond)
#endif

#endif  // SHADE_BASE_ERROR_H_
