/*!
 * \file error.h
 * \brief shade::Error, its subclasses and the CHECK macros that throw them.
 *
 * Every check that a caller's input can fail goes through these macros. They throw (never
 * abort) a class that says what kind of input was wrong, with a message that says what failed,
 * the values involved and the repo-relative file:line, so a library user can recover and report.
 * The C++ condition text is not part of the message: the streamed text says what failed.
 */
#ifndef SHADE_BASE_ERROR_H_
#define SHADE_BASE_ERROR_H_

#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace shade {

/*! \brief Root of every exception shade throws for invalid input (a std::runtime_error). */
class Error : public std::runtime_error {
 public:
  /*! \brief With the complete message. */
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

/*! \brief A value outside what the operation accepts (an argument, an option, a count). */
class ValueError : public Error {
 public:
  /*! \brief With the complete message. */
  explicit ValueError(const std::string& what) : Error(what) {}
};

/*! \brief Shapes that do not fit together (broadcast, matmul, reshape, ranks). */
class ShapeError : public ValueError {
 public:
  /*! \brief With the complete message. */
  explicit ShapeError(const std::string& what) : ValueError(what) {}
};

/*! \brief An index or axis outside its range. */
class IndexError : public Error {
 public:
  /*! \brief With the complete message. */
  explicit IndexError(const std::string& what) : Error(what) {}
};

/*! \brief A dtype the operation does not accept, or a cast it does not allow. */
class TypeError : public Error {
 public:
  /*! \brief With the complete message. */
  explicit TypeError(const std::string& what) : Error(what) {}
};

/*! \brief A file or stream that cannot be opened, read or written: the message names the path
 *  and the system's reason (malformed contents are a ValueError, as in NumPy). */
class IOError : public Error {
 public:
  /*! \brief With the complete message. */
  explicit IOError(const std::string& what) : Error(what) {}
};

/*! \brief A valid request that this build does not implement (a device, a dtype kernel). */
class NotImplementedError : public Error {
 public:
  /*! \brief With the complete message. */
  explicit NotImplementedError(const std::string& what) : Error(what) {}
};

namespace detail {

/*! \brief `file` from its last `include/shade/`, `src/`, `tests/`, ... component on, else its
 *  base name, so that a message never carries the build machine's absolute path. */
inline const char* RelativeSourcePath(const char* file) {
  const char* best = nullptr;
  for (const char* dir :
       {"/include/", "/src/", "/tests/", "/examples/", "/python/", "/bench/", "/fuzz/", "/docs/"}) {
    for (const char* p = std::strstr(file, dir); p != nullptr; p = std::strstr(p + 1, dir)) {
      if (best == nullptr || p > best) best = p;
    }
  }
  if (best != nullptr) {
    // An installed header reads as shade/..., a source file as src/...
    if (std::strncmp(best, "/include/", 9) == 0) return best + 9;
    return best + 1;
  }
  const char* slash = std::strrchr(file, '/');
  return slash != nullptr ? slash + 1 : file;
}

/*! \brief Whether T has a `std::string Describe() const` (NDArray): messages show that one-line
 *  summary, never the values that the type's operator<< prints. */
template <typename T, typename = void>
struct HasDescribe : std::false_type {};
template <typename T>
struct HasDescribe<T, std::void_t<decltype(std::declval<const T&>().Describe())>> : std::true_type {
};

/*! \brief Collects a failure message; ErrorThrower turns it into an exception of class E. */
template <typename E>
class ErrorMessage {
 public:
  ErrorMessage(const char* file, int line) {
    os_ << RelativeSourcePath(file) << ':' << line << ": ";
  }
  /*! \brief With `suffix` (the compared values) appended after the streamed text. */
  ErrorMessage(const char* file, int line, std::string suffix) : ErrorMessage(file, line) {
    suffix_ = std::move(suffix);
  }
  template <typename T>
  ErrorMessage& operator<<(const T& value) {
    if constexpr (HasDescribe<T>::value) {
      os_ << value.Describe();
    } else {
      os_ << value;
    }
    return *this;
  }
  std::string str() const { return os_.str() + suffix_; }

 private:
  std::ostringstream os_;
  std::string suffix_;
};

/*! \brief `ErrorThrower() & msg` throws; `&` binds looser than `<<`, so msg is complete. */
struct ErrorThrower {
  template <typename E>
  [[noreturn]] void operator&(const ErrorMessage<E>& msg) const {
    throw E(msg.str());
  }
};

/*! \brief " (got 3 vs. 4)": the two compared values, appended to a binary check's message. */
template <typename A, typename B>
std::string CheckOpValues(const A& a, const B& b) {
  std::ostringstream os;
  os << " (got " << a << " vs. " << b << ")";
  return os.str();
}

}  // namespace detail
}  // namespace shade

/*! \brief Throws `cls` (a shade::Error subclass) with file:line and the streamed message. */
#define SHADE_THROW_AS(cls) \
  ::shade::detail::ErrorThrower() & ::shade::detail::ErrorMessage<cls>(__FILE__, __LINE__)

/*! \brief Throws `cls` with the streamed message unless `cond` holds. */
#define SHADE_CHECK_AS(cls, cond)      \
  if (__builtin_expect(!!(cond), 1)) { \
  } else                               \
    SHADE_THROW_AS(cls)

#define SHADE_CHECK_OP_AS_(cls, a, b, op)                      \
  if (__builtin_expect(!!((a)op(b)), 1)) {                     \
  } else                                                       \
    ::shade::detail::ErrorThrower() &                          \
        ::shade::detail::ErrorMessage<cls>(__FILE__, __LINE__, \
                                           ::shade::detail::CheckOpValues((a), (b)))

/*! \brief Throws shade::ValueError (bad values) with file:line and the streamed message. */
#define SHADE_THROW SHADE_THROW_AS(::shade::ValueError)
/*! \brief Throws shade::ShapeError with the streamed message. */
#define SHADE_THROW_SHAPE SHADE_THROW_AS(::shade::ShapeError)
/*! \brief Throws shade::IndexError with the streamed message. */
#define SHADE_THROW_INDEX SHADE_THROW_AS(::shade::IndexError)
/*! \brief Throws shade::TypeError with the streamed message. */
#define SHADE_THROW_TYPE SHADE_THROW_AS(::shade::TypeError)
/*! \brief Throws shade::IOError with the streamed message. */
#define SHADE_THROW_IO SHADE_THROW_AS(::shade::IOError)
/*! \brief Throws shade::NotImplementedError with the streamed message. */
#define SHADE_THROW_NOT_IMPLEMENTED SHADE_THROW_AS(::shade::NotImplementedError)

/*! \brief Throws shade::ValueError unless `cond` holds; stream what failed after it. */
#define SHADE_CHECK(cond) SHADE_CHECK_AS(::shade::ValueError, cond)
/*! \brief Throws shade::ShapeError unless `cond` holds. */
#define SHADE_CHECK_SHAPE(cond) SHADE_CHECK_AS(::shade::ShapeError, cond)
/*! \brief Throws shade::IndexError unless `cond` holds. */
#define SHADE_CHECK_INDEX(cond) SHADE_CHECK_AS(::shade::IndexError, cond)
/*! \brief Throws shade::TypeError unless `cond` holds. */
#define SHADE_CHECK_TYPE(cond) SHADE_CHECK_AS(::shade::TypeError, cond)
/*! \brief Throws shade::IOError unless `cond` holds. */
#define SHADE_CHECK_IO(cond) SHADE_CHECK_AS(::shade::IOError, cond)
/*! \brief Throws shade::NotImplementedError unless `cond` holds. */
#define SHADE_CHECK_NOT_IMPLEMENTED(cond) SHADE_CHECK_AS(::shade::NotImplementedError, cond)

/*! \brief Binary checks (shade::ValueError) that append both values: `SHADE_CHECK_EQ(x, y) <<
 *  "what failed"` reads "file:line: what failed (got 3 vs. 4)". */
#define SHADE_CHECK_EQ(a, b) SHADE_CHECK_OP_AS_(::shade::ValueError, a, b, ==)
#define SHADE_CHECK_NE(a, b) SHADE_CHECK_OP_AS_(::shade::ValueError, a, b, !=)
#define SHADE_CHECK_LT(a, b) SHADE_CHECK_OP_AS_(::shade::ValueError, a, b, <)
#define SHADE_CHECK_LE(a, b) SHADE_CHECK_OP_AS_(::shade::ValueError, a, b, <=)
#define SHADE_CHECK_GT(a, b) SHADE_CHECK_OP_AS_(::shade::ValueError, a, b, >)
#define SHADE_CHECK_GE(a, b) SHADE_CHECK_OP_AS_(::shade::ValueError, a, b, >=)
/*! \brief Binary checks of shapes and extents (shade::ShapeError). */
#define SHADE_CHECK_SHAPE_EQ(a, b) SHADE_CHECK_OP_AS_(::shade::ShapeError, a, b, ==)
#define SHADE_CHECK_SHAPE_NE(a, b) SHADE_CHECK_OP_AS_(::shade::ShapeError, a, b, !=)
#define SHADE_CHECK_SHAPE_LT(a, b) SHADE_CHECK_OP_AS_(::shade::ShapeError, a, b, <)
#define SHADE_CHECK_SHAPE_LE(a, b) SHADE_CHECK_OP_AS_(::shade::ShapeError, a, b, <=)
#define SHADE_CHECK_SHAPE_GT(a, b) SHADE_CHECK_OP_AS_(::shade::ShapeError, a, b, >)
#define SHADE_CHECK_SHAPE_GE(a, b) SHADE_CHECK_OP_AS_(::shade::ShapeError, a, b, >=)
/*! \brief Binary checks of indices against their bounds (shade::IndexError). */
#define SHADE_CHECK_INDEX_EQ(a, b) SHADE_CHECK_OP_AS_(::shade::IndexError, a, b, ==)
#define SHADE_CHECK_INDEX_NE(a, b) SHADE_CHECK_OP_AS_(::shade::IndexError, a, b, !=)
#define SHADE_CHECK_INDEX_LT(a, b) SHADE_CHECK_OP_AS_(::shade::IndexError, a, b, <)
#define SHADE_CHECK_INDEX_LE(a, b) SHADE_CHECK_OP_AS_(::shade::IndexError, a, b, <=)
#define SHADE_CHECK_INDEX_GT(a, b) SHADE_CHECK_OP_AS_(::shade::IndexError, a, b, >)
#define SHADE_CHECK_INDEX_GE(a, b) SHADE_CHECK_OP_AS_(::shade::IndexError, a, b, >=)
/*! \brief Binary checks of dtypes and element sizes (shade::TypeError). */
#define SHADE_CHECK_TYPE_EQ(a, b) SHADE_CHECK_OP_AS_(::shade::TypeError, a, b, ==)
#define SHADE_CHECK_TYPE_NE(a, b) SHADE_CHECK_OP_AS_(::shade::TypeError, a, b, !=)
#define SHADE_CHECK_TYPE_LT(a, b) SHADE_CHECK_OP_AS_(::shade::TypeError, a, b, <)
#define SHADE_CHECK_TYPE_LE(a, b) SHADE_CHECK_OP_AS_(::shade::TypeError, a, b, <=)
#define SHADE_CHECK_TYPE_GT(a, b) SHADE_CHECK_OP_AS_(::shade::TypeError, a, b, >)
#define SHADE_CHECK_TYPE_GE(a, b) SHADE_CHECK_OP_AS_(::shade::TypeError, a, b, >=)
/*! \brief Binary checks of stream and file contents (shade::IOError). */
#define SHADE_CHECK_IO_EQ(a, b) SHADE_CHECK_OP_AS_(::shade::IOError, a, b, ==)
#define SHADE_CHECK_IO_NE(a, b) SHADE_CHECK_OP_AS_(::shade::IOError, a, b, !=)
#define SHADE_CHECK_IO_LT(a, b) SHADE_CHECK_OP_AS_(::shade::IOError, a, b, <)
#define SHADE_CHECK_IO_LE(a, b) SHADE_CHECK_OP_AS_(::shade::IOError, a, b, <=)
#define SHADE_CHECK_IO_GT(a, b) SHADE_CHECK_OP_AS_(::shade::IOError, a, b, >)
#define SHADE_CHECK_IO_GE(a, b) SHADE_CHECK_OP_AS_(::shade::IOError, a, b, >=)

/*! \brief Internal invariants only (never caller input): checked in debug builds. */
#ifdef NDEBUG
#define SHADE_DCHECK(cond) \
  while (false) SHADE_CHECK_AS(::shade::Error, cond)
#else
#define SHADE_DCHECK(cond)                                                                    \
  SHADE_CHECK_AS(::shade::Error, cond) << "internal invariant violated (a shade bug, please " \
                                          "report)"
#endif

#endif  // SHADE_BASE_ERROR_H_
