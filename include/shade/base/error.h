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
  explicit Error(const std::string& what);
  // Constructors and the destructor (the key function) are out of line (src/base/error.cc) on
  // purpose: the vtable, typeinfo and code of every error class exist once, in the library,
  // instead of as weak copies in every object that throws, the per-target kernel objects among
  // them (compiled for AVX-512, say: see packet.h and tools/check-target-symbols.py).
  ~Error() override;
};

/*! \brief A value outside what the operation accepts (an argument, an option, a count). */
class ValueError : public Error {
 public:
  /*! \brief With the complete message. */
  explicit ValueError(const std::string& what);
  ~ValueError() override;
};

/*! \brief Shapes that do not fit together (broadcast, matmul, reshape, ranks). */
class ShapeError : public ValueError {
 public:
  /*! \brief With the complete message. */
  explicit ShapeError(const std::string& what);
  ~ShapeError() override;
};

/*! \brief An index or axis outside its range. */
class IndexError : public Error {
 public:
  /*! \brief With the complete message. */
  explicit IndexError(const std::string& what);
  ~IndexError() override;
};

/*! \brief A dtype the operation does not accept, or a cast it does not allow. */
class TypeError : public Error {
 public:
  /*! \brief With the complete message. */
  explicit TypeError(const std::string& what);
  ~TypeError() override;
};

/*! \brief A file or stream that cannot be opened, read or written: the message names the path
 *  and the system's reason (malformed contents are a ValueError, as in NumPy). */
class IOError : public Error {
 public:
  /*! \brief With the complete message. */
  explicit IOError(const std::string& what);
  ~IOError() override;
};

/*! \brief A valid request that this build does not implement (a device, a dtype kernel). */
class NotImplementedError : public Error {
 public:
  /*! \brief With the complete message. */
  explicit NotImplementedError(const std::string& what);
  ~NotImplementedError() override;
};

/*!
 * \brief A matrix that a linear-algebra routine cannot handle: singular, not positive definite,
 *  no convergence, or of the wrong rank or shape for the routine (NumPy's LinAlgError, which in
 *  NumPy 1.24 derives from Exception, not ValueError: so this derives from Error directly).
 */
class LinAlgError : public Error {
 public:
  /*! \brief With the complete message. */
  explicit LinAlgError(const std::string& what);
  ~LinAlgError() override;
};

namespace detail {

// The message machinery keeps its non-trivial parts out of line (src/base/error.cc) and the
// rest always inlined, for the same reason as the classes: no weak copy compiled for a SIMD
// target.

/*! \brief `file` from its last `include/shade/`, `src/`, `tests/`, ... component on, else its
 *  base name, so that a message never carries the build machine's absolute path. */
const char* RelativeSourcePath(const char* file);

/*! \brief Whether T has a `std::string Describe() const` (NDArray): messages show that one-line
 *  summary, never the values that the type's operator<< prints. */
template <typename T, typename = void>
struct HasDescribe : std::false_type {};
template <typename T>
struct HasDescribe<T, std::void_t<decltype(std::declval<const T&>().Describe())>> : std::true_type {
};

/*! \brief Collects a failure message ("file:line: " + streamed text + compared values);
 *  ErrorThrower turns it into an exception. */
class ErrorMessage {
 public:
  ErrorMessage(const char* file, int line);
  ~ErrorMessage();
  ErrorMessage(const ErrorMessage&) = delete;
  ErrorMessage& operator=(const ErrorMessage&) = delete;
  /*! \brief Appends a value as `std::ostream <<` prints it (an NDArray as its Describe()). */
  template <typename T>
  __attribute__((always_inline)) inline ErrorMessage& operator<<(const T& value) {
    Put(os_, value);
    return *this;
  }
  /*! \brief Appends " (got a vs. b)" after whatever text is streamed (binary checks). */
  template <typename A, typename B>
  __attribute__((always_inline)) inline ErrorMessage& WithValues(const A& a, const B& b) {
    values_ << " (got ";
    Put(values_, a);
    values_ << " vs. ";
    Put(values_, b);
    values_ << ")";
    return *this;
  }
  /*! \brief The complete message. */
  std::string str() const;

 private:
  template <typename T>
  __attribute__((always_inline)) static inline void Put(std::ostringstream& os, const T& value) {
    if constexpr (HasDescribe<T>::value) {
      os << value.Describe();
    } else {
      os << value;
    }
  }
  std::ostringstream os_;
  std::ostringstream values_;
};

/*! \brief `ErrorThrower<E>() & msg` throws E; `&` binds looser than `<<`, so msg is complete. */
template <typename E>
struct ErrorThrower {
  [[noreturn]] __attribute__((always_inline)) inline void operator&(const ErrorMessage& msg) const {
    throw E(msg.str());
  }
};

}  // namespace detail
}  // namespace shade

/*! \brief Throws `cls` (a shade::Error subclass) with file:line and the streamed message. */
#define SHADE_THROW_AS(cls) \
  ::shade::detail::ErrorThrower<cls>() & ::shade::detail::ErrorMessage(__FILE__, __LINE__)

/*! \brief Throws `cls` with the streamed message unless `cond` holds. */
#define SHADE_CHECK_AS(cls, cond)      \
  if (__builtin_expect(!!(cond), 1)) { \
  } else                               \
    SHADE_THROW_AS(cls)

#define SHADE_CHECK_OP_AS_(cls, a, b, op)  \
  if (__builtin_expect(!!((a)op(b)), 1)) { \
  } else                                   \
    ::shade::detail::ErrorThrower<cls>() & \
        ::shade::detail::ErrorMessage(__FILE__, __LINE__).WithValues((a), (b))

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
/*! \brief Throws shade::LinAlgError with the streamed message. */
#define SHADE_THROW_LINALG SHADE_THROW_AS(::shade::LinAlgError)

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
/*! \brief Throws shade::LinAlgError unless `cond` holds. */
#define SHADE_CHECK_LINALG(cond) SHADE_CHECK_AS(::shade::LinAlgError, cond)

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
