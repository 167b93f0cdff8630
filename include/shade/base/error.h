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
};

namespace detail {

/*! \brief Collects a failure message; ErrorThrower turns it into an exception. */
class ErrorMessage {
 public:
  ErrorMessage(const char* file, int line, const char* prefix) {
    os_ << file << ':' << line << ": " << prefix;
  }
  template <typename T>
  ErrorMessage& operator<<(const T& value) {
    os_ << value;
    return *this;
  }
  std::string str() const { return os_.str(); }

 private:
  std::ostringstream os_;
};

/*! \brief `ErrorThrower() & msg` throws; `&` binds looser than `<<`, so msg is complete. */
struct ErrorThrower {
  [[noreturn]] void operator&(const ErrorMessage& msg) const { throw Error(msg.str()); }
};

/*! \brief Builds "Check failed: a == b (3 vs. 4) " for the binary CHECK macros. */
template <typename A, typename B>
std::string CheckOpMessage(const char* expr, const A& a, const B& b) {
  std::ostringstream os;
  os << "Check failed: " << expr << " (" << a << " vs. " << b << ") ";
  return os.str();
}

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

#define SHADE_CHECK_OP_(a, b, op)                                                         \
  if (__builtin_expect(!!((a)op(b)), 1)) {                                                \
  } else                                                                                  \
    ::shade::detail::ErrorThrower() &                                                     \
        ::shade::detail::ErrorMessage(__FILE__, __LINE__, "")                             \
            << ::shade::detail::CheckOpMessage(#a " " #op " " #b, (a), (b))

/*! \brief Binary checks that print both values: `SHADE_CHECK_EQ(x, y) << "context"`. */
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
