/*!
 * \file optional.h
 * \brief shade::optional<T>: a value or nothing, written "None" in parameter text.
 *
 * A thin wrapper over std::optional that adds what dmlc::optional offered on top of it:
 * stream output ("None" when empty) and input, and implicit construction from T so that
 * `.set_default(5)` works on an optional<int> field. It converts both ways to std::optional;
 * Parameter fields may use either.
 */
#ifndef SHADE_PARAM_OPTIONAL_H_
#define SHADE_PARAM_OPTIONAL_H_

#include <functional>
#include <istream>
#include <optional>
#include <ostream>
#include <utility>

namespace shade {

/*! \brief The empty-optional tag (the same object as std::nullopt). */
using std::nullopt;
/*! \brief Type of nullopt. */
using std::nullopt_t;

/*! \brief Holds a T or nothing; printed as the value or "None". */
template <typename T>
class optional {
 public:
  /*! \brief Type of the held value. */
  using value_type = T;

  /*! \brief Empty. */
  optional() = default;
  /*! \brief Empty: `optional<int> x = nullopt;`. */
  optional(nullopt_t) noexcept {}  // NOLINT(runtime/explicit)
  /*! \brief Holding a copy of `value`. */
  optional(const T& value) : v_(value) {}  // NOLINT(runtime/explicit)
  /*! \brief Holding `value`, moved in. */
  optional(T&& value) : v_(std::move(value)) {}  // NOLINT(runtime/explicit)
  /*! \brief From a std::optional. */
  optional(const std::optional<T>& other) : v_(other) {}  // NOLINT(runtime/explicit)

  /*! \brief As a std::optional. */
  operator std::optional<T>() const { return v_; }  // NOLINT(runtime/explicit)

  /*! \brief Becomes empty. */
  optional& operator=(nullopt_t) noexcept {
    v_.reset();
    return *this;
  }
  /*! \brief Holds a copy of `value`. */
  optional& operator=(const T& value) {
    v_ = value;
    return *this;
  }

  /*! \brief Whether a value is held. */
  bool has_value() const noexcept { return v_.has_value(); }
  /*! \brief Whether a value is held. */
  explicit operator bool() const noexcept { return v_.has_value(); }
  /*! \brief The value; throws std::bad_optional_access when empty. */
  T& value() & { return v_.value(); }
  /*! \brief The value; throws std::bad_optional_access when empty. */
  const T& value() const& { return v_.value(); }
  /*! \brief The value, or `fallback` when empty. */
  template <typename U>
  T value_or(U&& fallback) const {
    return v_.value_or(std::forward<U>(fallback));
  }
  /*! \brief The value (unchecked, as std::optional). */
  T& operator*() { return *v_; }
  /*! \brief The value (unchecked, as std::optional). */
  const T& operator*() const { return *v_; }
  /*! \brief Member access to the value (unchecked, as std::optional). */
  T* operator->() { return &*v_; }
  /*! \brief Member access to the value (unchecked, as std::optional). */
  const T* operator->() const { return &*v_; }
  /*! \brief Becomes empty. */
  void reset() noexcept { v_.reset(); }
  /*! \brief Constructs a new value in place. */
  template <typename... Args>
  T& emplace(Args&&... args) {
    return v_.emplace(std::forward<Args>(args)...);
  }
  /*! \brief Exchanges contents. */
  void swap(optional& other) { v_.swap(other.v_); }

  /*! \brief Both empty, or both hold equal values. */
  friend bool operator==(const optional& a, const optional& b) { return a.v_ == b.v_; }
  /*! \brief Negation of ==. */
  friend bool operator!=(const optional& a, const optional& b) { return !(a == b); }
  /*! \brief Whether empty. */
  friend bool operator==(const optional& a, nullopt_t) { return !a.v_.has_value(); }
  /*! \brief Whether holding a value. */
  friend bool operator!=(const optional& a, nullopt_t) { return a.v_.has_value(); }

  /*! \brief Writes the value, or "None" when empty. */
  friend std::ostream& operator<<(std::ostream& os, const optional& x) {
    if (x.v_) {
      os << *x.v_;
    } else {
      os << "None";
    }
    return os;
  }
  /*!
   * \brief Reads "None" (empty) or a T. On failure sets failbit and leaves `x` unchanged.
   *  (Parameter fields do not use this: they parse through the strict field codecs.)
   */
  friend std::istream& operator>>(std::istream& is, optional& x) {
    std::istream::sentry guard(is);  // skips leading whitespace
    if (!guard) return is;
    if (is.peek() == 'N') {
      for (const char expect : {'N', 'o', 'n', 'e'}) {
        if (is.get() != expect) {
          is.setstate(std::ios::failbit);
          return is;
        }
      }
      x.v_.reset();
      return is;
    }
    T value{};
    if (is >> value) x.v_ = std::move(value);
    return is;
  }

 private:
  std::optional<T> v_;
};

}  // namespace shade

namespace std {
/*! \brief Hash of an optional: that of the value, or a fixed value when empty. */
template <typename T>
struct hash<shade::optional<T>> {
  /*! \brief The hash. */
  size_t operator()(const shade::optional<T>& x) const {
    return x.has_value() ? hash<T>()(*x) : static_cast<size_t>(0x9e3779b97f4a7c15ULL);
  }
};
}  // namespace std

#endif  // SHADE_PARAM_OPTIONAL_H_
