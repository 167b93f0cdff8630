// NDArray factories (ndarray/creation.h).
#include "shade/ndarray/creation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/ndarray_util.h"
#include "shade/ndarray/promotion.h"

namespace shade {
namespace {

void CheckDType(int dtype, const char* who) {
  SHADE_CHECK_TYPE(IsValidTypeFlag(dtype)) << who << ": unknown dtype flag " << dtype;
}

template <typename T, typename V>
T ToElement(V v) {
  if constexpr (kIsFloat16<T>) {
    return T(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

// splitmix64 finaliser over the three coordinates of a stream.
std::uint64_t Mix(std::uint64_t seed, std::uint64_t call, std::uint64_t chunk) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull ^
                    (call + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull ^
                    (chunk + 0x94D049BB133111EBull) * 0xD6E8FEEB86659FD5ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

NDArray empty(IndexSpan shape, int dtype) {
  CheckDType(dtype, "empty");
  return NDArray::Empty(shape, dtype);
}

NDArray zeros(IndexSpan shape, int dtype) {
  return full(shape, 0.0, dtype);
}

NDArray ones(IndexSpan shape, int dtype) {
  return full(shape, 1.0, dtype);
}

NDArray full(IndexSpan shape, double value, int dtype) {
  CheckDType(dtype, "full");
  NDArray out = NDArray::Empty(shape, dtype);
  out.Fill(value);
  return out;
}

NDArray full_int(IndexSpan shape, std::int64_t value, int dtype) {
  CheckDType(dtype, "full_int");
  NDArray out = NDArray::Empty(shape, dtype);
  DispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
      bool fits;
      if constexpr (std::is_signed<T>::value) {
        fits = value >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
               value <= static_cast<std::int64_t>(std::numeric_limits<T>::max());
      } else {
        fits = value >= 0 && static_cast<std::uint64_t>(value) <= std::numeric_limits<T>::max();
      }
      SHADE_CHECK_TYPE(fits) << "full_int: value " << value << " does not fit "
                             << DataType<T>::kName;
      v = static_cast<T>(value);
    } else {
      v = ToElement<T>(static_cast<double>(value));
    }
    T* p = static_cast<T*>(out.data_ptr());
    std::fill(p, p + out.numel(), v);
  });
  return out;
}

namespace detail {

NDArray ArangeInt(std::int64_t start, std::int64_t stop, std::int64_t step, int dtype) {
  CheckDType(dtype, "arange");
  SHADE_CHECK_NE(step, 0) << "arange: step is zero (start " << start << ", stop " << stop << ")";
  // Length in 128-bit arithmetic: stop - start may not fit int64.
  const __int128 span = static_cast<__int128>(stop) - start;
  __int128 len = step > 0 ? (span + step - 1) / step : (span + step + 1) / step;
  if (len < 0) len = 0;
  SHADE_CHECK(len <= std::numeric_limits<index_t>::max()) << "arange: too many elements";
  const index_t n = static_cast<index_t>(len);
  NDArray out = NDArray::Empty({n}, dtype);
  DispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(out.data_ptr());
    for (index_t i = 0; i < n; ++i) {
      const std::int64_t v = static_cast<std::int64_t>(start + static_cast<__int128>(i) * step);
      if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
        p[i] = static_cast<T>(v);  // NumPy wraps into a narrower dtype too
      } else {
        p[i] = ToElement<T>(static_cast<double>(v));
      }
    }
  });
  return out;
}

NDArray ArangeFloat(double start, double stop, double step, int dtype) {
  CheckDType(dtype, "arange");
  SHADE_CHECK(step != 0 && std::isfinite(step) && std::isfinite(start) && std::isfinite(stop))
      << "arange: need finite start, stop and a non-zero finite step (got " << start << ", " << stop
      << ", " << step << ")";
  const double len = std::ceil((stop - start) / step);
  SHADE_CHECK(len < 9.2e18) << "arange: too many elements (" << len << ")";
  const index_t n = len > 0 ? static_cast<index_t>(len) : 0;
  NDArray out = NDArray::Empty({n}, dtype);
  DispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(out.data_ptr());
    for (index_t i = 0; i < n; ++i) {
      volatile double prod = static_cast<double>(i) * step;  // no FMA contraction: NumPy's values
      p[i] = ToElement<T>(start + prod);
    }
  });
  return out;
}

}  // namespace detail

NDArray linspace(double start, double stop, index_t num, bool endpoint, int dtype) {
  CheckDType(dtype, "linspace");
  SHADE_CHECK_GE(num, 0) << "linspace: number of samples " << num << " must be non-negative";
  const index_t div = endpoint ? num - 1 : num;
  const double delta = stop - start;
  const double step =
      div > 0 ? delta / static_cast<double>(div) : std::numeric_limits<double>::quiet_NaN();
  NDArray out = NDArray::Empty({num}, dtype);
  const bool integer = KindOf(dtype) == DTypeKind::kSigned || KindOf(dtype) == DTypeKind::kUnsigned;
  DispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(out.data_ptr());
    for (index_t i = 0; i < num; ++i) {
      double v;
      if (div > 0) {
        // The product is kept apart from the add: a fused multiply-add (GCC contracts by default
        // on FMA targets) would round once and differ from NumPy's values.
        volatile double prod = step == 0 ? static_cast<double>(i) / static_cast<double>(div) * delta
                                         : static_cast<double>(i) * step;
        v = prod + start;
      } else {
        v = static_cast<double>(i) * delta + start;  // num == 1 (or 0): NumPy gives start
      }
      if (endpoint && num > 1 && i == num - 1) v = stop;
      if (integer) {
        v = std::floor(v);
        p[i] = detail::CastScalar<T>(v, "linspace");
      } else {
        p[i] = ToElement<T>(v);
      }
    }
  });
  return out;
}

NDArray eye(index_t n, index_t m, index_t k, int dtype) {
  CheckDType(dtype, "eye");
  if (m < 0) m = n;
  SHADE_CHECK_SHAPE_GE(n, 0) << "eye: negative dimensions are not allowed (N=" << n << ")";
  NDArray out = zeros({n, m}, dtype);
  // Only the rows the diagonal crosses: a loop over all n rows hung for eye(2**62, 0).
  // Written so that no i + k is formed out of range (k may be any int64).
  for (index_t i = k < 0 ? (k < -n ? n : -k) : 0; i < n; ++i) {
    if (k >= m - i) break;  // column i + k would be past the last
    out.set({i, i + k}, 1.0);
  }
  return out;
}

template <typename Draw>
NDArray Generator::Generate(IndexSpan shape, int dtype, const char* who, Draw draw) {
  CheckDType(dtype, who);
  NDArray out = NDArray::Empty(shape, dtype);
  const std::uint64_t call = calls_++;
  const index_t n = out.numel();
  if (n == 0) return out;
  const std::uint64_t seed = seed_;
  DispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* base = static_cast<T*>(out.data_ptr());
    const index_t chunks = (n + kChunk - 1) / kChunk;
    // A draw costs about a math function per element: kMathGrain elements per task.
    ParallelFor(0, chunks, std::max<index_t>(1, kMathGrain / kChunk), [&](index_t cb, index_t ce) {
      for (index_t c = cb; c < ce; ++c) {
        std::mt19937_64 g(Mix(seed, call, static_cast<std::uint64_t>(c)));
        const index_t end = std::min(n, (c + 1) * kChunk);
        for (index_t i = c * kChunk; i < end; ++i) base[i] = draw(g, TypeTag<T>());
      }
    });
  });
  return out;
}

namespace {
void CheckFloating(int dtype, const char* who) {
  CheckDType(dtype, who);
  SHADE_CHECK_TYPE(KindOf(dtype) == DTypeKind::kFloat)
      << who << ": needs a floating dtype, got " << TypeFlagName(dtype);
}
}  // namespace

NDArray Generator::uniform(double low, double high, IndexSpan shape, int dtype) {
  CheckFloating(dtype, "uniform");
  SHADE_CHECK(std::isfinite(low) && std::isfinite(high) && low < high)
      << "uniform: need finite low < high, got low=" << low << " high=" << high;
  return Generate(shape, dtype, "uniform", [low, high](std::mt19937_64& g, auto tag) {
    using T = typename decltype(tag)::type;
    std::uniform_real_distribution<double> u(low, high);
    const double v = u(g);
    T t = ToElement<T>(v);
    // Rounding to T may reach `high`: step back below it (growing steps: few iterations even
    // for float16, whose ulp is far above double's).
    double below = v, gap = (high - low) * 1e-6;
    while (!(detail::ToDouble(t) < high)) {
      below -= gap;
      gap *= 2;
      t = ToElement<T>(below);
    }
    return t;
  });
}

NDArray Generator::rand(IndexSpan shape, int dtype) {
  return uniform(0.0, 1.0, shape, dtype);
}

NDArray Generator::normal(double mean, double stddev, IndexSpan shape, int dtype) {
  CheckFloating(dtype, "normal");
  SHADE_CHECK(std::isfinite(mean) && std::isfinite(stddev) && stddev >= 0)
      << "normal: need finite mean and stddev >= 0, got mean=" << mean << " stddev=" << stddev;
  return Generate(shape, dtype, "normal", [mean, stddev](std::mt19937_64& g, auto tag) {
    using T = typename decltype(tag)::type;
    if (stddev == 0) return ToElement<T>(mean);
    std::normal_distribution<double> d(mean, stddev);
    return ToElement<T>(d(g));
  });
}

NDArray Generator::randn(IndexSpan shape, int dtype) {
  return normal(0.0, 1.0, shape, dtype);
}

NDArray Generator::randint(std::int64_t low, std::int64_t high, IndexSpan shape, int dtype) {
  CheckDType(dtype, "randint");
  const DTypeKind kind = KindOf(dtype);
  SHADE_CHECK_TYPE(kind == DTypeKind::kSigned || kind == DTypeKind::kUnsigned)
      << "randint: needs an integer dtype, got " << TypeFlagName(dtype);
  SHADE_CHECK_LT(low, high) << "randint: low >= high";
  DispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
      const bool lo_ok = std::is_signed<T>::value
                             ? low >= static_cast<std::int64_t>(std::numeric_limits<T>::min())
                             : low >= 0;
      const bool hi_ok = static_cast<std::uint64_t>(high - 1) <=
                         static_cast<std::uint64_t>(std::numeric_limits<T>::max());
      SHADE_CHECK_TYPE(lo_ok && hi_ok)
          << "randint: [" << low << ", " << high << ") is out of bounds for " << DataType<T>::kName;
    }
  });
  return Generate(shape, dtype, "randint", [low, high](std::mt19937_64& g, auto tag) {
    using T = typename decltype(tag)::type;
    std::uniform_int_distribution<std::int64_t> d(low, high - 1);
    return ToElement<T>(d(g));
  });
}

}  // namespace shade
