/*!
 * \file numpy_random.cc
 * \brief NumPy's bit generators, seeding and distributions (see numpy_random.h). The
 *  distributions are templates over the bit generator, so the legacy and the new stream share
 *  one implementation of each algorithm and every draw inlines.
 */
#include "shade/random/numpy_random.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <unordered_set>
#include <utility>

#include "shade/base/error.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/indexing.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/shape/broadcast.h"

// LAPACK's SVD (in the BLAS library shade links, OpenBLAS; gfortran ABI with the hidden length of
// the character argument).
extern "C" void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda,
                        double* s, double* u, const int* ldu, double* vt, const int* ldvt,
                        double* work, const int* lwork, int* iwork, int* info,
                        std::size_t jobz_len);

// NumPy's distributions are compiled without contracting a * b + c into one fused multiply-add;
// contraction (GCC's default with -mfma) changes the last bit of normals, uniforms, gammas, ...
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

namespace shade {
namespace random {

// ------------------------------------------------------------------ MT19937

void MT19937::Seed(std::uint32_t seed) {
  for (int i = 0; i < kStateSize; ++i) {
    key_[static_cast<std::size_t>(i)] = seed;
    seed = 1812433253u * (seed ^ (seed >> 30)) + static_cast<std::uint32_t>(i) + 1u;
  }
  pos_ = kStateSize;
}

void MT19937::SeedByArray(const std::uint32_t* key, std::size_t n) {
  SHADE_CHECK(n > 0) << "MT19937: the seed array must be non-empty";
  Seed(19650218u);
  constexpr std::size_t N = kStateSize;
  std::size_t i = 1, j = 0;
  for (std::size_t k = std::max(N, n); k > 0; --k) {
    const std::uint32_t prev = key_[i - 1];
    key_[i] =
        (key_[i] ^ ((prev ^ (prev >> 30)) * 1664525u)) + key[j] + static_cast<std::uint32_t>(j);
    ++i;
    ++j;
    if (i >= N) {
      key_[0] = key_[N - 1];
      i = 1;
    }
    if (j >= n) j = 0;
  }
  for (std::size_t k = N - 1; k > 0; --k) {
    const std::uint32_t prev = key_[i - 1];
    key_[i] = (key_[i] ^ ((prev ^ (prev >> 30)) * 1566083941u)) - static_cast<std::uint32_t>(i);
    ++i;
    if (i >= N) {
      key_[0] = key_[N - 1];
      i = 1;
    }
  }
  key_[0] = 0x80000000u;
  pos_ = kStateSize;
}

void MT19937::SetState(const std::array<std::uint32_t, kStateSize>& key, int pos) {
  SHADE_CHECK(pos >= 0 && pos <= kStateSize)
      << "MT19937: state position " << pos << " is not in [0, 624]";
  key_ = key;
  pos_ = pos;
}

void MT19937::Refill() {
  constexpr int N = kStateSize, M = 397;
  constexpr std::uint32_t kUpper = 0x80000000u, kLower = 0x7fffffffu, kMatrix = 0x9908b0dfu;
  auto twist = [&](int k, int k1, int km) {
    const std::uint32_t y = (key_[static_cast<std::size_t>(k)] & kUpper) |
                            (key_[static_cast<std::size_t>(k1)] & kLower);
    key_[static_cast<std::size_t>(k)] =
        key_[static_cast<std::size_t>(km)] ^ (y >> 1) ^ ((0u - (y & 1u)) & kMatrix);
  };
  int k = 0;
  for (; k < N - M; ++k) twist(k, k + 1, k + M);
  for (; k < N - 1; ++k) twist(k, k + 1, k + M - N);
  twist(N - 1, 0, M - 1);
  pos_ = 0;
}

// ------------------------------------------------------------------ SeedSequence

namespace {
constexpr std::uint32_t kInitA = 0x43b0d7e5u, kMultA = 0x931e8875u;
constexpr std::uint32_t kInitB = 0x8b51f9ddu, kMultB = 0x58f38dedu;
constexpr std::uint32_t kMixMultL = 0xca01f9ddu, kMixMultR = 0x4973f715u;
constexpr unsigned kXShift = 16;

// The hash of one word; `hash_const` advances on every call (shared across a whole mixing).
std::uint32_t HashMix(std::uint32_t value, std::uint32_t& hash_const) {
  value ^= hash_const;
  hash_const *= kMultA;
  value *= hash_const;
  return value ^ (value >> kXShift);
}

std::uint32_t Mix(std::uint32_t x, std::uint32_t y) {
  std::uint32_t r = kMixMultL * x - kMixMultR * y;
  return r ^ (r >> kXShift);
}

std::vector<std::uint32_t> OsEntropy(std::size_t words) {
  std::random_device rd;
  std::vector<std::uint32_t> e(words);
  for (auto& w : e) w = static_cast<std::uint32_t>(rd());
  return e;
}
}  // namespace

SeedSequence::SeedSequence(std::vector<std::uint32_t> entropy) : entropy_(std::move(entropy)) {
  if (entropy_.empty()) entropy_.push_back(0u);
  std::uint32_t hc = kInitA;
  constexpr std::size_t kPool = 4;
  for (std::size_t i = 0; i < kPool; ++i)
    pool_[i] = HashMix(i < entropy_.size() ? entropy_[i] : 0u, hc);
  for (std::size_t src = 0; src < kPool; ++src)
    for (std::size_t dst = 0; dst < kPool; ++dst)
      if (src != dst) pool_[dst] = Mix(pool_[dst], HashMix(pool_[src], hc));
  for (std::size_t src = kPool; src < entropy_.size(); ++src)
    for (std::size_t dst = 0; dst < kPool; ++dst)
      pool_[dst] = Mix(pool_[dst], HashMix(entropy_[src], hc));
}

SeedSequence SeedSequence::FromUint64(std::uint64_t seed) {
  std::vector<std::uint32_t> words{static_cast<std::uint32_t>(seed)};
  if (seed >> 32) words.push_back(static_cast<std::uint32_t>(seed >> 32));
  return SeedSequence(std::move(words));
}

SeedSequence SeedSequence::FromEntropy() {
  return SeedSequence(OsEntropy(4));
}

std::vector<std::uint32_t> SeedSequence::GenerateState32(std::size_t n) const {
  std::vector<std::uint32_t> out(n);
  std::uint32_t hc = kInitB;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t v = pool_[i % pool_.size()] ^ hc;
    hc *= kMultB;
    v *= hc;
    out[i] = v ^ (v >> kXShift);
  }
  return out;
}

std::vector<std::uint64_t> SeedSequence::GenerateState64(std::size_t n) const {
  const std::vector<std::uint32_t> w = GenerateState32(2 * n);
  std::vector<std::uint64_t> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] =
        static_cast<std::uint64_t>(w[2 * i]) | (static_cast<std::uint64_t>(w[2 * i + 1]) << 32);
  return out;
}

// ------------------------------------------------------------------ PCG64

PCG64::PCG64(const SeedSequence& seq) {
  const std::vector<std::uint64_t> v = seq.GenerateState64(4);
  Seed((static_cast<UInt128>(v[0]) << 64) | v[1], (static_cast<UInt128>(v[2]) << 64) | v[3]);
}

void PCG64::Seed(UInt128 initstate, UInt128 initseq) {
  state_ = 0;
  inc_ = (initseq << 1) | 1u;
  state_ = state_ * Multiplier() + inc_;
  state_ += initstate;
  state_ = state_ * Multiplier() + inc_;
  has_uint32_ = false;
  uinteger_ = 0;
}

// ------------------------------------------------------------------ shared algorithms

namespace {

// Smallest all-ones mask covering `max`.
template <typename U>
U GenMask(U max) {
  U mask = max;
  for (unsigned s = 1; s < sizeof(U) * 8; s <<= 1) mask |= static_cast<U>(mask >> s);
  return mask;
}

template <typename BG>
std::uint32_t Lemire32(BG& bg, std::uint32_t rng) {
  const std::uint32_t excl = rng + 1u;
  std::uint64_t m = static_cast<std::uint64_t>(bg.Next32()) * excl;
  std::uint32_t left = static_cast<std::uint32_t>(m);
  if (left < excl) {
    const std::uint32_t threshold = (0xFFFFFFFFu - rng) % excl;
    while (left < threshold) {
      m = static_cast<std::uint64_t>(bg.Next32()) * excl;
      left = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<std::uint32_t>(m >> 32);
}

template <typename BG>
std::uint64_t Lemire64(BG& bg, std::uint64_t rng) {
  const std::uint64_t excl = rng + 1u;
  UInt128 m = static_cast<UInt128>(bg.Next64()) * excl;
  std::uint64_t left = static_cast<std::uint64_t>(m);
  if (left < excl) {
    const std::uint64_t threshold = (~std::uint64_t{0} - rng) % excl;
    while (left < threshold) {
      m = static_cast<UInt128>(bg.Next64()) * excl;
      left = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

// One bounded 64-bit value in [0, rng] (NumPy's random_bounded_uint64 with off = 0).
template <typename BG>
std::uint64_t Bounded64(BG& bg, std::uint64_t rng, bool masked) {
  if (rng == 0) return 0;
  if (rng <= 0xFFFFFFFFu) {
    const auto r32 = static_cast<std::uint32_t>(rng);
    if (r32 == 0xFFFFFFFFu) return bg.Next32();
    if (!masked) return Lemire32(bg, r32);
    const std::uint32_t mask = GenMask(r32);
    std::uint32_t v;
    while ((v = bg.Next32() & mask) > r32) {
    }
    return v;
  }
  if (rng == ~std::uint64_t{0}) return bg.Next64();
  if (!masked) return Lemire64(bg, rng);
  const std::uint64_t mask = GenMask(rng);
  std::uint64_t v;
  while ((v = bg.Next64() & mask) > rng) {
  }
  return v;
}

// Fills n values off + [0, rng] of the unsigned type U (same width as the output type), drawing
// as NumPy's random_bounded_*_fill does: 64- and 32-bit types draw whole words, 16- and 8-bit
// types and bool take pieces of a buffered 32-bit word (the buffer lives for one fill).
template <typename U, typename BG>
void FillBounded(BG& bg, U off, U rng, bool masked, U* out, index_t n) {
  if (rng == 0) {
    std::fill(out, out + n, off);
    return;
  }
  if constexpr (sizeof(U) == 8) {
    // Bounded64 per value, with its branches on rng hoisted out of the loop.
    if (rng <= 0xFFFFFFFFu && rng != 0xFFFFFFFFu && !masked) {
      const auto r32 = static_cast<std::uint32_t>(rng);
      for (index_t i = 0; i < n; ++i) out[i] = static_cast<U>(off + Lemire32(bg, r32));
    } else if (rng < 0xFFFFFFFFu && masked) {
      const auto r32 = static_cast<std::uint32_t>(rng);
      const std::uint32_t mask = GenMask(r32);
      for (index_t i = 0; i < n; ++i) {
        std::uint32_t v;
        while ((v = bg.Next32() & mask) > r32) {
        }
        out[i] = static_cast<U>(off + v);
      }
    } else if (rng > 0xFFFFFFFFu && rng != ~std::uint64_t{0} && !masked) {
      for (index_t i = 0; i < n; ++i) out[i] = static_cast<U>(off + Lemire64(bg, rng));
    } else {
      for (index_t i = 0; i < n; ++i) out[i] = static_cast<U>(off + Bounded64(bg, rng, masked));
    }
  } else if constexpr (sizeof(U) == 4) {
    if (rng == 0xFFFFFFFFu) {
      for (index_t i = 0; i < n; ++i) out[i] = static_cast<U>(off + bg.Next32());
    } else if (masked) {
      const U mask = GenMask(rng);
      for (index_t i = 0; i < n; ++i) {
        U v;
        while ((v = static_cast<U>(bg.Next32() & mask)) > rng) {
        }
        out[i] = static_cast<U>(off + v);
      }
    } else {
      for (index_t i = 0; i < n; ++i) out[i] = static_cast<U>(off + Lemire32(bg, rng));
    }
  } else {
    // Buffered pieces: 16-bit halves or 8-bit quarters of one 32-bit draw, low piece first.
    constexpr unsigned kBits = sizeof(U) * 8;
    constexpr int kPieces = static_cast<int>(32 / kBits);
    constexpr U kMax = static_cast<U>(~U{0});
    int left = 0;
    std::uint32_t buf = 0;
    auto piece = [&]() -> U {
      if (left == 0) {
        buf = bg.Next32();
        left = kPieces - 1;
      } else {
        buf >>= kBits;
        --left;
      }
      return static_cast<U>(buf);
    };
    if (rng == kMax) {
      for (index_t i = 0; i < n; ++i) out[i] = static_cast<U>(off + piece());
    } else if (masked) {
      const U mask = GenMask(rng);
      for (index_t i = 0; i < n; ++i) {
        U v;
        while ((v = static_cast<U>(piece() & mask)) > rng) {
        }
        out[i] = static_cast<U>(off + v);
      }
    } else {
      const std::uint32_t excl = static_cast<std::uint32_t>(rng) + 1u;
      const std::uint32_t threshold = (static_cast<std::uint32_t>(kMax) - rng) % excl;
      constexpr std::uint32_t kLow = (1u << kBits) - 1u;
      for (index_t i = 0; i < n; ++i) {
        std::uint32_t m = static_cast<std::uint32_t>(piece()) * excl;
        if ((m & kLow) < excl) {
          while ((m & kLow) < threshold) m = static_cast<std::uint32_t>(piece()) * excl;
        }
        out[i] = static_cast<U>(off + (m >> kBits));
      }
    }
  }
}

// bool: one bit of a buffered 32-bit word per value (low bit first).
template <typename BG>
void FillBool(BG& bg, bool off, bool rng, bool* out, index_t n) {
  if (!rng) {
    std::fill(out, out + n, off);
    return;
  }
  int left = 0;
  std::uint32_t buf = 0;
  for (index_t i = 0; i < n; ++i) {
    if (left == 0) {
      buf = bg.Next32();
      left = 31;
    } else {
      buf >>= 1;
      --left;
    }
    out[i] = (buf & 1u) != 0;
  }
}

const char* DTypeName(int dtype) {
  return DispatchDType(dtype,
                       [](auto tag) { return DataType<typename decltype(tag)::type>::kName; });
}

// NumPy's randint/integers: bounds checks, then the fill of the output type.
template <typename BG>
NDArray BoundedIntegers(BG& bg, Int128 low, Int128 high, IndexSpan size, int dtype, bool endpoint,
                        bool masked, const char* fn) {
  SHADE_CHECK_TYPE(dtype >= 0 && dtype < kNumTypeFlags) << fn << ": unknown dtype flag " << dtype;
  NDArray out = NDArray::Empty(size, dtype);
  DispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, bool>::value) {
      const Int128 hi = endpoint ? high : high - 1;
      SHADE_CHECK(low >= 0) << "low is out of bounds for bool";
      SHADE_CHECK(hi <= 1) << "high is out of bounds for bool";
      SHADE_CHECK(low <= hi) << (endpoint ? "low > high" : "low >= high");
      FillBool(bg, low != 0, (hi - low) != 0, out.mutable_data<bool>(), out.numel());
    } else if constexpr (std::is_integral<T>::value) {
      using U = std::make_unsigned_t<T>;
      const Int128 lo_bound = static_cast<Int128>(std::numeric_limits<T>::min());
      const Int128 hi_bound = static_cast<Int128>(std::numeric_limits<T>::max());
      const Int128 hi = endpoint ? high : high - 1;
      SHADE_CHECK(low >= lo_bound) << "low is out of bounds for " << DataType<T>::kName;
      SHADE_CHECK(hi <= hi_bound) << "high is out of bounds for " << DataType<T>::kName;
      SHADE_CHECK(low <= hi) << (endpoint ? "low > high" : "low >= high");
      FillBounded<U>(bg, static_cast<U>(low), static_cast<U>(hi - low), masked,
                     reinterpret_cast<U*>(out.mutable_data<T>()), out.numel());
    } else {
      SHADE_THROW_TYPE << fn << ": dtype " << DTypeName(dtype) << " is not an integer type";
    }
  });
  return out;
}

template <typename T, typename F>
NDArray FillNew(IndexSpan size, F&& draw) {
  NDArray out = NDArray::Empty(size, DataType<T>::kFlag);
  T* p = out.mutable_data<T>();
  const index_t n = out.numel();
  for (index_t i = 0; i < n; ++i) p[i] = draw();
  return out;
}

// NumPy's random_interval: a masked draw in [0, max] (32-bit draws when max fits).
template <typename BG>
std::uint64_t Interval(BG& bg, std::uint64_t max) {
  if (max == 0) return 0;
  const std::uint64_t mask = GenMask(max);
  std::uint64_t v;
  if (max <= 0xFFFFFFFFu) {
    while ((v = (bg.Next32() & mask)) > max) {
    }
  } else {
    while ((v = (bg.Next64() & mask)) > max) {
    }
  }
  return v;
}

// Fisher-Yates from the back, as NumPy's shuffle.
template <typename BG>
void ShuffleIndex(BG& bg, std::int64_t* data, std::int64_t n) {
  for (std::int64_t i = n - 1; i >= 1; --i) {
    const auto j = static_cast<std::int64_t>(Interval(bg, static_cast<std::uint64_t>(i)));
    std::swap(data[i], data[j]);
  }
}

template <typename BG>
NDArray PermutationN(BG& bg, std::int64_t n) {
  SHADE_CHECK(n >= 0) << "permutation: negative dimensions are not allowed (got " << n << ")";
  NDArray idx = arange(std::int64_t{0}, n);
  ShuffleIndex(bg, idx.mutable_data<std::int64_t>(), n);
  return idx;
}

template <typename BG>
NDArray PermutationOf(BG& bg, const NDArray& x, const char* fn) {
  SHADE_CHECK_INDEX(x.ndim() >= 1) << fn << ": x must be an integer or at least 1-dimensional";
  NDArray idx = PermutationN(bg, x.size(0));
  return take(x, idx, 0);
}

// Legacy polar normal.
template <typename BG>
double PolarPair(BG& bg, double* second) {
  double x1, x2, r2;
  do {
    x1 = 2.0 * bg.NextDouble() - 1.0;
    x2 = 2.0 * bg.NextDouble() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  *second = f * x1;
  return f * x2;
}

// Stirling series of log Gamma(x) for x >= 7, shifted down by recursion below (NumPy's loggam).
double LogGamma(double x) {
  // B_{2k} / (2k (2k - 1)) for k = 1..10, as 15-16 significant digits.
  static const double kCoef[10] = {
      8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04, -5.952380952380952e-04,
      8.417508417508418e-04, -1.917526917526918e-03, 6.410256410256410e-03, -2.955065359477124e-02,
      1.796443723688307e-01, -1.39243221690590e+00};
  if (x == 1.0 || x == 2.0) return 0.0;
  const std::int64_t n = x < 7.0 ? static_cast<std::int64_t>(7 - x) : 0;
  double x0 = x + static_cast<double>(n);
  const double x2 = 1.0 / x0 / x0;
  double g = kCoef[9];
  for (int k = 8; k >= 0; --k) {
    g *= x2;
    g += kCoef[k];
  }
  double gl = g / x0 + 0.5 * std::log(2 * M_PI) + (x0 - 0.5) * std::log(x0) - x0;
  if (x < 7.0) {
    for (std::int64_t k = 1; k <= n; ++k) {
      gl -= std::log(x0 - 1.0);
      x0 -= 1.0;
    }
  }
  return gl;
}

// Poisson: multiplication of uniforms below 10, PTRS (Hormann's transformed rejection) above.
template <typename BG>
std::int64_t PoissonDraw(BG& bg, double lam) {
  if (lam >= 10) {
    const double slam = std::sqrt(lam), loglam = std::log(lam);
    const double b = 0.931 + 2.53 * slam;
    const double a = -0.059 + 0.02483 * b;
    const double invalpha = 1.1239 + 1.1328 / (b - 3.4);
    const double vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      const double U = bg.NextDouble() - 0.5;
      const double V = bg.NextDouble();
      const double us = 0.5 - std::fabs(U);
      const auto k = static_cast<std::int64_t>(std::floor((2 * a / us + b) * U + lam + 0.43));
      if (us >= 0.07 && V <= vr) return k;
      if (k < 0 || (us < 0.013 && V > us)) continue;
      if (std::log(V) + std::log(invalpha) - std::log(a / (us * us) + b) <=
          -lam + static_cast<double>(k) * loglam - LogGamma(static_cast<double>(k + 1)))
        return k;
    }
  }
  if (lam == 0) return 0;
  const double enlam = std::exp(-lam);
  std::int64_t x = 0;
  double prod = 1.0;
  for (;;) {
    prod *= bg.NextDouble();
    if (prod > enlam)
      ++x;
    else
      return x;
  }
}

// Binomial by inversion (n p <= 30) for p <= 1/2.
template <typename BG>
std::int64_t BinomialInversion(BG& bg, std::int64_t n, double p) {
  const double q = 1.0 - p;
  const double qn = std::exp(static_cast<double>(n) * std::log(q));
  const double np = static_cast<double>(n) * p;
  const auto bound = static_cast<std::int64_t>(
      std::min(static_cast<double>(n), np + 10.0 * std::sqrt(np * q + 1)));
  std::int64_t X = 0;
  double px = qn;
  double U = bg.NextDouble();
  while (U > px) {
    ++X;
    if (X > bound) {
      X = 0;
      px = qn;
      U = bg.NextDouble();
    } else {
      U -= px;
      px = (static_cast<double>(n - X + 1) * p * px) / (static_cast<double>(X) * q);
    }
  }
  return X;
}

// Binomial by BTPE (Kachitvichyanukul and Schmeiser) for p <= 1/2 and n p > 30.
template <typename BG>
std::int64_t BinomialBTPE(BG& bg, std::int64_t n, double p) {
  const double dn = static_cast<double>(n);
  const double r = std::min(p, 1.0 - p);
  const double q = 1.0 - r;
  const double fm = dn * r + r;
  const auto m = static_cast<std::int64_t>(std::floor(fm));
  const double dm = static_cast<double>(m);
  const double p1 = std::floor(2.195 * std::sqrt(dn * r * q) - 4.6 * q) + 0.5;
  const double xm = dm + 0.5, xl = xm - p1, xr = xm + p1;
  const double c = 0.134 + 20.5 / (15.3 + dm);
  double a = (fm - xl) / (fm - xl * r);
  const double laml = a * (1.0 + a / 2.0);
  a = (xr - fm) / (xr * q);
  const double lamr = a * (1.0 + a / 2.0);
  const double p2 = p1 * (1.0 + 2.0 * c), p3 = p2 + c / laml, p4 = p3 + c / lamr;
  const double nrq = dn * r * q;
  for (;;) {
    const double u = bg.NextDouble() * p4;
    double v = bg.NextDouble();
    std::int64_t y;
    if (u <= p1) {
      return static_cast<std::int64_t>(std::floor(xm - p1 * v + u));
    } else if (u <= p2) {
      const double x = xl + (u - p1) / c;
      v = v * c + 1.0 - std::fabs(dm - x + 0.5) / p1;
      if (v > 1.0) continue;
      y = static_cast<std::int64_t>(std::floor(x));
    } else if (u <= p3) {
      y = static_cast<std::int64_t>(std::floor(xl + std::log(v) / laml));
      if (y < 0 || v == 0.0) continue;
      v = v * (u - p2) * laml;
    } else {
      y = static_cast<std::int64_t>(std::floor(xr - std::log(v) / lamr));
      if (y > n || v == 0.0) continue;
      v = v * (u - p3) * lamr;
    }
    const std::int64_t k = y > m ? y - m : m - y;
    const double dk = static_cast<double>(k);
    if (k <= 20 || dk >= nrq / 2.0 - 1) {
      // Explicit evaluation of f(y) / f(m).
      const double s = r / q, aa = s * (dn + 1);
      double F = 1.0;
      if (m < y) {
        for (std::int64_t i = m + 1; i <= y; ++i) F *= (aa / static_cast<double>(i) - s);
      } else if (m > y) {
        for (std::int64_t i = y + 1; i <= m; ++i) F /= (aa / static_cast<double>(i) - s);
      }
      if (v > F) continue;
      return y;
    }
    // Squeeze on log f(y) / f(m), then the Stirling-corrected bound.
    const double rho = (dk / nrq) * ((dk * (dk / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    const double t = static_cast<double>(-k * k) / (2 * nrq);
    const double A = std::log(v);
    if (A < t - rho) return y;
    if (A > t + rho) continue;
    const double x1 = static_cast<double>(y + 1), f1 = dm + 1.0, z = dn + 1.0 - dm,
                 w = dn - static_cast<double>(y) + 1.0;
    const double x2 = x1 * x1, f2 = f1 * f1, z2 = z * z, w2 = w * w;
    auto corr = [](double sq, double base) {
      return (13680. - (462. - (132. - (99. - 140. / sq) / sq) / sq) / sq) / base / 166320.;
    };
    const double bound = xm * std::log(f1 / x1) + (dn - dm + 0.5) * std::log(z / w) +
                         static_cast<double>(y - m) * std::log(w * r / (x1 * q)) + corr(f2, f1) +
                         corr(z2, z) + corr(x2, x1) + corr(w2, w);
    if (A > bound) continue;
    return y;
  }
}

// The legacy stream has no shortcut for n == 0 or p == 0: inversion still draws one uniform.
template <typename BG>
std::int64_t BinomialDraw(BG& bg, std::int64_t n, double p, bool legacy) {
  if (!legacy && (n == 0 || p == 0.0)) return 0;
  if (p <= 0.5) {
    return static_cast<double>(n) * p <= 30.0 ? BinomialInversion(bg, n, p)
                                              : BinomialBTPE(bg, n, p);
  }
  const double q = 1.0 - p;
  return n - (q * static_cast<double>(n) <= 30.0 ? BinomialInversion(bg, n, q)
                                                 : BinomialBTPE(bg, n, q));
}

double PoissonLamMax() {
  const double imax = static_cast<double>(std::numeric_limits<std::int64_t>::max());
  return imax - std::sqrt(imax) * 10;
}

void CheckPoisson(double lam) {
  SHADE_CHECK(!(lam < 0)) << "lam < 0";
  SHADE_CHECK(!std::isnan(lam)) << "lam value is NaN";
  SHADE_CHECK(!(lam > PoissonLamMax())) << "lam value too large";
}

void CheckBinomial(std::int64_t n, double p) {
  SHADE_CHECK(n >= 0) << "n < 0";
  SHADE_CHECK(p >= 0 && p <= 1) << "p < 0, p > 1 or p is NaN";
}

// Probabilities of choice: 1-d float64 of pop_size non-negative entries summing to 1.
std::vector<double> CheckedProbabilities(const NDArray& p, std::int64_t pop_size) {
  SHADE_CHECK(p.ndim() == 1) << "p must be 1-dimensional";
  SHADE_CHECK(p.size(0) == pop_size) << "a and p must have same size";
  NDArray pd = p.type_flag() == kFloat64 ? p.contiguous() : astype(p, kFloat64);
  const double* d = pd.data<double>();
  std::vector<double> v(d, d + pop_size);
  double sum = 0, comp = 0;  // Kahan's sum, as NumPy checks it
  for (double x : v) {
    SHADE_CHECK(!std::isnan(x)) << "probabilities contain NaN";
    SHADE_CHECK(x >= 0) << "probabilities are not non-negative";
    const double y = x - comp;
    const double t = sum + y;
    comp = (t - sum) - y;
    sum = t;
  }
  SHADE_CHECK(std::fabs(sum - 1.0) <= std::sqrt(std::numeric_limits<double>::epsilon()))
      << "probabilities do not sum to 1";
  return v;
}

// searchsorted(cdf, u, side='right') of each u over the normalised cumulative sum of p.
std::vector<double> NormalisedCdf(const std::vector<double>& p) {
  std::vector<double> cdf(p.size());
  double acc = 0;
  for (std::size_t i = 0; i < p.size(); ++i) cdf[i] = acc += p[i];
  const double last = cdf.back();
  for (double& c : cdf) c /= last;
  return cdf;
}

std::int64_t SearchRight(const std::vector<double>& cdf, double u) {
  return std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin();
}

// choice with p: with replacement, one uniform per sample; without, rounds of uniforms over the
// still-unchosen entries, keeping each round's first occurrences in order.
template <typename BG>
NDArray ChoiceWithP(BG& bg, std::int64_t pop_size, IndexSpan size, bool replace, const NDArray& p) {
  std::vector<double> pv = CheckedProbabilities(p, pop_size);
  NDArray out = NDArray::Empty(size, kInt64);
  std::int64_t* o = out.mutable_data<std::int64_t>();
  const index_t n = out.numel();
  if (replace) {
    const std::vector<double> cdf = NormalisedCdf(pv);
    std::vector<double> u(static_cast<std::size_t>(n));
    for (auto& x : u) x = bg.NextDouble();
    for (index_t i = 0; i < n; ++i) o[i] = SearchRight(cdf, u[static_cast<std::size_t>(i)]);
    return out;
  }
  SHADE_CHECK(n <= pop_size) << "Cannot take a larger sample than population when 'replace=False'";
  const auto nonzero = std::count_if(pv.begin(), pv.end(), [](double x) { return x > 0; });
  SHADE_CHECK(nonzero >= n) << "Fewer non-zero entries in p than size";
  index_t found = 0;
  while (found < n) {
    std::vector<double> u(static_cast<std::size_t>(n - found));
    for (auto& x : u) x = bg.NextDouble();
    for (index_t i = 0; i < found; ++i) pv[static_cast<std::size_t>(o[i])] = 0;
    const std::vector<double> cdf = NormalisedCdf(pv);
    std::unordered_set<std::int64_t> seen;
    for (double x : u) {
      const std::int64_t k = SearchRight(cdf, x);
      if (seen.insert(k).second) o[found++] = k;
    }
  }
  return out;
}

void CheckChoiceSize(std::int64_t pop_size, index_t n) {
  SHADE_CHECK(pop_size >= 0) << "a must be a positive integer unless no samples are taken (got "
                             << pop_size << ")";
  SHADE_CHECK(pop_size > 0 || n == 0) << "a cannot be empty unless no samples are taken";
}

// Array parameters: the result shape (broadcast of the parameters, or *size, to which they must
// broadcast) and each parameter as float64 values expanded to it, in C order.
struct Broadcast {
  std::vector<index_t> shape;
  std::vector<std::vector<double>> values;
};

Broadcast BroadcastParams(std::initializer_list<const NDArray*> params,
                          const std::vector<index_t>* size) {
  std::vector<index_t> shape;
  for (const NDArray* a : params) {
    std::vector<index_t> out(
        std::max<std::size_t>(shape.size(), static_cast<std::size_t>(a->ndim())));
    const IndexSpan s = a->sizes();
    SHADE_CHECK_SHAPE(BroadcastShapes(shape.data(), static_cast<int>(shape.size()), s.data(),
                                      static_cast<int>(s.size()), out.data()))
        << "shape mismatch: objects cannot be broadcast to a single shape";
    shape = std::move(out);
  }
  if (size != nullptr) {
    std::vector<index_t> out(std::max(shape.size(), size->size()));
    const bool ok = BroadcastShapes(shape.data(), static_cast<int>(shape.size()), size->data(),
                                    static_cast<int>(size->size()), out.data());
    SHADE_CHECK_SHAPE(ok && out == *size)
        << "shape mismatch: the parameters cannot be broadcast to size";
    shape = *size;
  }
  Broadcast b;
  b.shape = shape;
  for (const NDArray* a : params) {
    NDArray d = astype(*a, kFloat64).expand(shape).contiguous();
    const double* p = d.data<double>();
    b.values.emplace_back(p, p + d.numel());
  }
  return b;
}

template <typename T, typename F>
NDArray FillBroadcast(const Broadcast& b, F&& draw) {
  NDArray out = NDArray::Empty(b.shape, DataType<T>::kFlag);
  T* p = out.mutable_data<T>();
  const index_t n = out.numel();
  for (index_t i = 0; i < n; ++i) p[i] = draw(static_cast<std::size_t>(i));
  return out;
}

template <typename Check>
void CheckAll(const std::vector<double>& v, Check&& check) {
  for (double x : v) check(x);
}

// binomial's n: cast to int64 as NumPy does (its array form takes n as C long).
std::vector<std::int64_t> AsInt64(const NDArray& n, const std::vector<index_t>& shape) {
  NDArray d = astype(n, kInt64).expand(shape).contiguous();
  const std::int64_t* p = d.data<std::int64_t>();
  return std::vector<std::int64_t>(p, p + d.numel());
}

void CheckUniformRange(const Broadcast& b) {
  for (std::size_t i = 0; i < b.values[0].size(); ++i)
    SHADE_CHECK(std::isfinite(b.values[1][i] - b.values[0][i])) << "Range exceeds valid bounds";
}

// One bounded value in [0, rng] for the array-bounds form, where rng changes per element: the
// same draws as FillBounded, with the 8/16-bit (and bool) buffer carried across elements.
struct Pieces {
  int left = 0;
  std::uint32_t buf = 0;
};

template <unsigned kBits, typename BG>
std::uint32_t NextPiece(BG& bg, Pieces& pc) {
  if (pc.left == 0) {
    pc.buf = bg.Next32();
    pc.left = static_cast<int>(32 / kBits) - 1;
  } else {
    pc.buf >>= kBits;
    --pc.left;
  }
  return kBits == 32 ? pc.buf : (pc.buf & ((1u << (kBits % 32)) - 1u));
}

template <typename U, typename BG>
U BoundedOne(BG& bg, U rng, bool masked, Pieces& pc) {
  if (rng == 0) return 0;
  if constexpr (sizeof(U) == 8) {
    return Bounded64(bg, rng, masked);
  } else if constexpr (sizeof(U) == 4) {
    if (rng == 0xFFFFFFFFu) return bg.Next32();
    if (!masked) return Lemire32(bg, rng);
    const U mask = GenMask(rng);
    U v;
    while ((v = static_cast<U>(bg.Next32() & mask)) > rng) {
    }
    return v;
  } else {
    constexpr unsigned kBits = sizeof(U) * 8;
    constexpr U kMax = static_cast<U>(~U{0});
    if (rng == kMax) return static_cast<U>(NextPiece<kBits>(bg, pc));
    if (masked) {
      const U mask = GenMask(rng);
      U v;
      while ((v = static_cast<U>(NextPiece<kBits>(bg, pc) & mask)) > rng) {
      }
      return v;
    }
    const std::uint32_t excl = static_cast<std::uint32_t>(rng) + 1u;
    constexpr std::uint32_t kLow = (1u << kBits) - 1u;
    std::uint32_t m = NextPiece<kBits>(bg, pc) * excl;
    if ((m & kLow) < excl) {
      const std::uint32_t threshold = (static_cast<std::uint32_t>(kMax) - rng) % excl;
      while ((m & kLow) < threshold) m = NextPiece<kBits>(bg, pc) * excl;
    }
    return static_cast<U>(m >> kBits);
  }
}

template <typename T>
struct UnsignedOf {
  using type = std::make_unsigned_t<T>;
};
template <>
struct UnsignedOf<bool> {
  using type = bool;
};

// Integer bounds expanded to `shape`, exactly (uint64 arrays as unsigned, others through int64).
std::vector<Int128> BoundValues(const NDArray& a, const std::vector<index_t>& shape) {
  std::vector<Int128> v;
  if (a.type_flag() == kUint64) {
    NDArray d = a.expand(shape).contiguous();
    const std::uint64_t* p = d.data<std::uint64_t>();
    v.assign(p, p + d.numel());
  } else {
    NDArray d = astype(a, kInt64).expand(shape).contiguous();
    const std::int64_t* p = d.data<std::int64_t>();
    v.assign(p, p + d.numel());
  }
  return v;
}

// randint/integers with array bounds: every pair checked first, then one draw per element.
template <typename BG>
NDArray BoundedIntegersArray(BG& bg, const NDArray& low, const NDArray& high,
                             const std::vector<index_t>* size, int dtype, bool endpoint,
                             bool masked, const char* fn) {
  SHADE_CHECK_TYPE(dtype >= 0 && dtype < kNumTypeFlags) << fn << ": unknown dtype flag " << dtype;
  const Broadcast b = BroadcastParams({&low, &high}, size);
  const std::vector<Int128> lo = BoundValues(low, b.shape), hi_in = BoundValues(high, b.shape);
  NDArray out = NDArray::Empty(b.shape, dtype);
  DispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral<T>::value) {
      using U = typename UnsignedOf<T>::type;
      const Int128 lo_bound =
          std::is_same<T, bool>::value ? 0 : static_cast<Int128>(std::numeric_limits<T>::min());
      const Int128 hi_bound =
          std::is_same<T, bool>::value ? 1 : static_cast<Int128>(std::numeric_limits<T>::max());
      const char* name = DataType<T>::kName;
      for (std::size_t i = 0; i < lo.size(); ++i) {
        const Int128 hi = endpoint ? hi_in[i] : hi_in[i] - 1;
        SHADE_CHECK(lo[i] >= lo_bound) << "low is out of bounds for " << name;
        SHADE_CHECK(hi <= hi_bound) << "high is out of bounds for " << name;
        SHADE_CHECK(lo[i] <= hi) << (endpoint ? "low > high" : "low >= high");
      }
      T* o = out.mutable_data<T>();
      Pieces pc;
      for (std::size_t i = 0; i < lo.size(); ++i) {
        const Int128 hi = endpoint ? hi_in[i] : hi_in[i] - 1;
        if constexpr (std::is_same<T, bool>::value) {
          o[i] = hi == lo[i] ? lo[i] != 0 : (NextPiece<1>(bg, pc) & 1u) != 0;
        } else {
          const U v = BoundedOne<U>(bg, static_cast<U>(hi - lo[i]), masked, pc);
          o[i] = static_cast<T>(static_cast<U>(static_cast<U>(lo[i]) + v));
        }
      }
    } else {
      SHADE_THROW_TYPE << fn << ": dtype " << DTypeName(dtype) << " is not an integer type";
    }
  });
  return out;
}

index_t NumelOf(IndexSpan size) {
  index_t n = 1;
  for (std::size_t i = 0; i < size.size(); ++i) {
    SHADE_CHECK(size[i] >= 0) << "negative dimensions are not allowed (got " << size[i] << ")";
    n = CheckedMul(n, size[i]);
  }
  return n;
}

}  // namespace

// ------------------------------------------------------------------ RandomState

RandomState::RandomState() {
  SeedFromEntropy();
}
RandomState::RandomState(std::uint32_t seed) {
  Seed(seed);
}
RandomState::RandomState(const std::vector<std::uint32_t>& seed) {
  Seed(seed);
}

void RandomState::Seed(std::uint32_t seed) {
  mt_.Seed(seed);
  SetGauss(false, 0.0);
}

void RandomState::Seed(const std::vector<std::uint32_t>& seed) {
  SHADE_CHECK(!seed.empty()) << "Seed must be non-empty";
  mt_.SeedByArray(seed.data(), seed.size());
  SetGauss(false, 0.0);
}

void RandomState::SeedFromEntropy() {
  Seed(OsEntropy(MT19937::kStateSize));
}

double RandomState::Gauss() {
  if (has_gauss_) {
    has_gauss_ = false;
    const double g = gauss_;
    gauss_ = 0.0;
    return g;
  }
  const double v = PolarPair(mt_, &gauss_);
  has_gauss_ = true;
  return v;
}

NDArray RandomState::RandomSample(IndexSpan size) {
  return FillNew<double>(size, [&] { return mt_.NextDouble(); });
}

NDArray RandomState::RandInt(Int128 low, Int128 high, IndexSpan size, int dtype) {
  return BoundedIntegers(mt_, low, high, size, dtype, false, true, "randint");
}

NDArray RandomState::StandardNormal(IndexSpan size) {
  // Same draws as Gauss() per element, without its cache round trip inside the loop: the
  // pending value first, then whole pairs, then a last pair whose second value is cached.
  NDArray out = NDArray::Empty(size, kFloat64);
  double* p = out.mutable_data<double>();
  const index_t n = out.numel();
  index_t i = 0;
  if (n > 0 && has_gauss_) p[i++] = Gauss();
  for (; i + 1 < n; i += 2) p[i] = PolarPair(mt_, &p[i + 1]);
  if (i < n) p[i] = Gauss();
  return out;
}

NDArray RandomState::Normal(double loc, double scale, IndexSpan size) {
  SHADE_CHECK(!(scale < 0)) << "scale < 0";
  return FillNew<double>(size, [&] { return loc + scale * Gauss(); });
}

NDArray RandomState::Uniform(double low, double high, IndexSpan size) {
  const double range = high - low;
  SHADE_CHECK(std::isfinite(range)) << "Range exceeds valid bounds";
  return FillNew<double>(size, [&] { return low + range * mt_.NextDouble(); });
}

NDArray RandomState::StandardExponential(IndexSpan size) {
  return FillNew<double>(size, [&] { return -std::log(1.0 - mt_.NextDouble()); });
}

NDArray RandomState::Exponential(double scale, IndexSpan size) {
  SHADE_CHECK(!(scale < 0)) << "scale < 0";
  return FillNew<double>(size, [&] { return scale * -std::log(1.0 - mt_.NextDouble()); });
}

namespace {
// Legacy gamma: Marsaglia-Tsang above 1 (polar normals), Johnk-style rejection below.
double LegacyStandardGamma(MT19937& mt, double shape, const std::function<double()>& gauss) {
  if (shape == 1.0) return -std::log(1.0 - mt.NextDouble());
  if (shape == 0.0) return 0.0;
  if (shape < 1.0) {
    for (;;) {
      const double U = mt.NextDouble();
      const double V = -std::log(1.0 - mt.NextDouble());
      if (U <= 1.0 - shape) {
        const double X = std::pow(U, 1. / shape);
        if (X <= V) return X;
      } else {
        const double Y = -std::log((1 - U) / shape);
        const double X = std::pow(1.0 - shape + shape * Y, 1. / shape);
        if (X <= V + Y) return X;
      }
    }
  }
  const double b = shape - 1. / 3.;
  const double c = 1. / std::sqrt(9 * b);
  for (;;) {
    double X, V;
    do {
      X = gauss();
      V = 1.0 + c * X;
    } while (V <= 0.0);
    V = V * V * V;
    const double U = mt.NextDouble();
    if (U < 1.0 - 0.0331 * (X * X) * (X * X)) return b * V;
    if (std::log(U) < 0.5 * X * X + b * (1. - V + std::log(V))) return b * V;
  }
}
}  // namespace

NDArray RandomState::StandardGamma(double shape, IndexSpan size) {
  SHADE_CHECK(!(shape < 0)) << "shape < 0";
  const std::function<double()> g = [this] { return Gauss(); };
  return FillNew<double>(size, [&] { return LegacyStandardGamma(mt_, shape, g); });
}

NDArray RandomState::Gamma(double shape, double scale, IndexSpan size) {
  SHADE_CHECK(!(shape < 0)) << "shape < 0";
  SHADE_CHECK(!(scale < 0)) << "scale < 0";
  const std::function<double()> g = [this] { return Gauss(); };
  return FillNew<double>(size, [&] { return scale * LegacyStandardGamma(mt_, shape, g); });
}

double RandomState::BetaDraw(double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    // Johnk's algorithm; the log form guards X + Y underflowing to 0.
    for (;;) {
      const double U = mt_.NextDouble(), V = mt_.NextDouble();
      const double X = std::pow(U, 1.0 / a), Y = std::pow(V, 1.0 / b);
      if (X + Y <= 1.0) {
        if (X + Y > 0) return X / (X + Y);
        double logX = std::log(U) / a, logY = std::log(V) / b;
        const double logM = std::max(logX, logY);
        logX -= logM;
        logY -= logM;
        return std::exp(logX - std::log(std::exp(logX) + std::exp(logY)));
      }
    }
  }
  const std::function<double()> g = [this] { return Gauss(); };
  const double Ga = LegacyStandardGamma(mt_, a, g);
  const double Gb = LegacyStandardGamma(mt_, b, g);
  return Ga / (Ga + Gb);
}

NDArray RandomState::Beta(double a, double b, IndexSpan size) {
  SHADE_CHECK(a > 0) << "a <= 0";
  SHADE_CHECK(b > 0) << "b <= 0";
  return FillNew<double>(size, [&] { return BetaDraw(a, b); });
}

NDArray RandomState::Poisson(double lam, IndexSpan size) {
  CheckPoisson(lam);
  return FillNew<std::int64_t>(size, [&] { return PoissonDraw(mt_, lam); });
}

NDArray RandomState::Binomial(std::int64_t n, double p, IndexSpan size) {
  CheckBinomial(n, p);
  return FillNew<std::int64_t>(size, [&] { return BinomialDraw(mt_, n, p, true); });
}

NDArray RandomState::Permutation(std::int64_t n) {
  return PermutationN(mt_, n);
}
NDArray RandomState::Permutation(const NDArray& x) {
  return PermutationOf(mt_, x, "permutation");
}
void RandomState::Shuffle(const NDArray& x) {
  SHADE_CHECK_INDEX(x.ndim() >= 1) << "shuffle: x must be at least 1-dimensional";
  x.copy_(PermutationOf(mt_, x, "shuffle"));
}

NDArray RandomState::Choice(std::int64_t pop_size, IndexSpan size, bool replace, const NDArray* p) {
  const index_t n = NumelOf(size);
  CheckChoiceSize(pop_size, n);
  if (p != nullptr) return ChoiceWithP(mt_, pop_size, size, replace, *p);
  if (replace) return RandInt(0, pop_size, size, kInt64);
  SHADE_CHECK(n <= pop_size) << "Cannot take a larger sample than population when 'replace=False'";
  NDArray perm = PermutationN(mt_, pop_size);
  NDArray out = NDArray::Empty(size, kInt64);
  std::copy_n(perm.data<std::int64_t>(), n, out.mutable_data<std::int64_t>());
  return out;
}

// ------------------------------------------------------------------ Generator

NDArray Generator::Random(IndexSpan size, int dtype) {
  if (dtype == kFloat32) return FillNew<float>(size, [&] { return pcg_.NextFloat(); });
  SHADE_CHECK_TYPE(dtype == kFloat64)
      << "random: Unsupported dtype " << DTypeName(dtype) << " for random (float64 or float32)";
  return FillNew<double>(size, [&] { return pcg_.NextDouble(); });
}

NDArray Generator::Integers(Int128 low, Int128 high, IndexSpan size, int dtype, bool endpoint) {
  return BoundedIntegers(pcg_, low, high, size, dtype, endpoint, false, "integers");
}

NDArray Generator::Uniform(double low, double high, IndexSpan size) {
  const double range = high - low;
  SHADE_CHECK(std::isfinite(range)) << "high - low range exceeds valid bounds";
  return FillNew<double>(size, [&] { return low + range * pcg_.NextDouble(); });
}

NDArray Generator::Poisson(double lam, IndexSpan size) {
  CheckPoisson(lam);
  return FillNew<std::int64_t>(size, [&] { return PoissonDraw(pcg_, lam); });
}

NDArray Generator::Binomial(std::int64_t n, double p, IndexSpan size) {
  CheckBinomial(n, p);
  return FillNew<std::int64_t>(size, [&] { return BinomialDraw(pcg_, n, p, false); });
}

NDArray Generator::Permutation(std::int64_t n) {
  return PermutationN(pcg_, n);
}
NDArray Generator::Permutation(const NDArray& x) {
  return PermutationOf(pcg_, x, "permutation");
}
void Generator::Shuffle(const NDArray& x) {
  SHADE_CHECK_INDEX(x.ndim() >= 1) << "shuffle: x must be at least 1-dimensional";
  x.copy_(PermutationOf(pcg_, x, "shuffle"));
}

NDArray Generator::Choice(std::int64_t pop_size, IndexSpan size, bool replace, const NDArray* p,
                          bool shuffle) {
  const index_t n = NumelOf(size);
  CheckChoiceSize(pop_size, n);
  if (p != nullptr) return ChoiceWithP(pcg_, pop_size, size, replace, *p);
  if (replace) return Integers(0, pop_size, size, kInt64, false);
  SHADE_CHECK(n <= pop_size) << "Cannot take a larger sample than population when replace is False";
  NDArray out = NDArray::Empty(size, kInt64);
  std::int64_t* o = out.mutable_data<std::int64_t>();
  const std::int64_t cutoff = shuffle ? 50 : 20;
  if (pop_size > 10000 && n > pop_size / cutoff) {
    // Tail shuffle: the last n entries of a partially shuffled arange.
    std::vector<std::int64_t> idx(static_cast<std::size_t>(pop_size));
    for (std::int64_t i = 0; i < pop_size; ++i) idx[static_cast<std::size_t>(i)] = i;
    const std::int64_t first = std::max<std::int64_t>(pop_size - n, 1);
    for (std::int64_t i = pop_size - 1; i >= first; --i) {
      const auto j =
          static_cast<std::int64_t>(Bounded64(pcg_, static_cast<std::uint64_t>(i), false));
      std::swap(idx[static_cast<std::size_t>(i)], idx[static_cast<std::size_t>(j)]);
    }
    std::copy(idx.end() - n, idx.end(), o);
    return out;
  }
  // Floyd's sampling: for j in the last n positions, take a draw in [0, j] unless already taken,
  // else j itself.
  std::unordered_set<std::int64_t> taken;
  taken.reserve(static_cast<std::size_t>(n) * 2);
  for (std::int64_t j = pop_size - n; j < pop_size; ++j) {
    const auto val =
        static_cast<std::int64_t>(Bounded64(pcg_, static_cast<std::uint64_t>(j), false));
    const std::int64_t pick = taken.insert(val).second ? val : j;
    if (pick == j && val != j) taken.insert(j);
    o[j - pop_size + n] = pick;
  }
  if (shuffle) {
    for (std::int64_t i = n - 1; i >= 1; --i) {
      const auto j =
          static_cast<std::int64_t>(Bounded64(pcg_, static_cast<std::uint64_t>(i), false));
      std::swap(o[i], o[j]);
    }
  }
  return out;
}

// ------------------------------------------------------------------ array parameters

NDArray RandomState::Normal(const NDArray& loc, const NDArray& scale,
                            const std::vector<index_t>* size) {
  const Broadcast b = BroadcastParams({&loc, &scale}, size);
  CheckAll(b.values[1], [](double x) { SHADE_CHECK(!(x < 0)) << "scale < 0"; });
  return FillBroadcast<double>(
      b, [&](std::size_t i) { return b.values[0][i] + b.values[1][i] * Gauss(); });
}

NDArray RandomState::Uniform(const NDArray& low, const NDArray& high,
                             const std::vector<index_t>* size) {
  const Broadcast b = BroadcastParams({&low, &high}, size);
  CheckUniformRange(b);
  return FillBroadcast<double>(b, [&](std::size_t i) {
    return b.values[0][i] + (b.values[1][i] - b.values[0][i]) * mt_.NextDouble();
  });
}

NDArray RandomState::Exponential(const NDArray& scale, const std::vector<index_t>* size) {
  const Broadcast b = BroadcastParams({&scale}, size);
  CheckAll(b.values[0], [](double x) { SHADE_CHECK(!(x < 0)) << "scale < 0"; });
  return FillBroadcast<double>(
      b, [&](std::size_t i) { return b.values[0][i] * -std::log(1.0 - mt_.NextDouble()); });
}

NDArray RandomState::Gamma(const NDArray& shape, const NDArray& scale,
                           const std::vector<index_t>* size) {
  const Broadcast b = BroadcastParams({&shape, &scale}, size);
  CheckAll(b.values[0], [](double x) { SHADE_CHECK(!(x < 0)) << "shape < 0"; });
  CheckAll(b.values[1], [](double x) { SHADE_CHECK(!(x < 0)) << "scale < 0"; });
  const std::function<double()> g = [this] { return Gauss(); };
  return FillBroadcast<double>(b, [&](std::size_t i) {
    return b.values[1][i] * LegacyStandardGamma(mt_, b.values[0][i], g);
  });
}

NDArray RandomState::Beta(const NDArray& a, const NDArray& bb, const std::vector<index_t>* size) {
  const Broadcast b = BroadcastParams({&a, &bb}, size);
  CheckAll(b.values[0], [](double x) { SHADE_CHECK(x > 0) << "a <= 0"; });
  CheckAll(b.values[1], [](double x) { SHADE_CHECK(x > 0) << "b <= 0"; });
  return FillBroadcast<double>(
      b, [&](std::size_t i) { return BetaDraw(b.values[0][i], b.values[1][i]); });
}

NDArray RandomState::Poisson(const NDArray& lam, const std::vector<index_t>* size) {
  const Broadcast b = BroadcastParams({&lam}, size);
  CheckAll(b.values[0], CheckPoisson);
  return FillBroadcast<std::int64_t>(
      b, [&](std::size_t i) { return PoissonDraw(mt_, b.values[0][i]); });
}

NDArray RandomState::Binomial(const NDArray& n, const NDArray& p,
                              const std::vector<index_t>* size) {
  const Broadcast b = BroadcastParams({&n, &p}, size);
  const std::vector<std::int64_t> nn = AsInt64(n, b.shape);
  for (std::size_t i = 0; i < nn.size(); ++i) CheckBinomial(nn[i], b.values[1][i]);
  return FillBroadcast<std::int64_t>(
      b, [&](std::size_t i) { return BinomialDraw(mt_, nn[i], b.values[1][i], true); });
}

NDArray Generator::Uniform(const NDArray& low, const NDArray& high,
                           const std::vector<index_t>* size) {
  const Broadcast b = BroadcastParams({&low, &high}, size);
  CheckUniformRange(b);
  return FillBroadcast<double>(b, [&](std::size_t i) {
    return b.values[0][i] + (b.values[1][i] - b.values[0][i]) * pcg_.NextDouble();
  });
}

NDArray Generator::Poisson(const NDArray& lam, const std::vector<index_t>* size) {
  const Broadcast b = BroadcastParams({&lam}, size);
  CheckAll(b.values[0], CheckPoisson);
  return FillBroadcast<std::int64_t>(
      b, [&](std::size_t i) { return PoissonDraw(pcg_, b.values[0][i]); });
}

NDArray Generator::Binomial(const NDArray& n, const NDArray& p, const std::vector<index_t>* size) {
  const Broadcast b = BroadcastParams({&n, &p}, size);
  const std::vector<std::int64_t> nn = AsInt64(n, b.shape);
  for (std::size_t i = 0; i < nn.size(); ++i) CheckBinomial(nn[i], b.values[1][i]);
  return FillBroadcast<std::int64_t>(
      b, [&](std::size_t i) { return BinomialDraw(pcg_, nn[i], b.values[1][i], false); });
}

NDArray RandomState::RandInt(const NDArray& low, const NDArray& high,
                             const std::vector<index_t>* size, int dtype) {
  return BoundedIntegersArray(mt_, low, high, size, dtype, false, true, "randint");
}

NDArray Generator::Integers(const NDArray& low, const NDArray& high,
                            const std::vector<index_t>* size, int dtype, bool endpoint) {
  return BoundedIntegersArray(pcg_, low, high, size, dtype, endpoint, false, "integers");
}

// ------------------------------------------------------------------ multivariate normal

NDArray RandomState::MultivariateNormal(const NDArray& mean, const NDArray& cov, IndexSpan size,
                                        CheckValid check, double tol, bool* not_psd) {
  SHADE_CHECK(mean.ndim() == 1) << "mean must be 1 dimensional";
  SHADE_CHECK(cov.ndim() == 2 && cov.size(0) == cov.size(1))
      << "cov must be 2 dimensional and square";
  const index_t d = mean.size(0);
  SHADE_CHECK(cov.size(0) == d) << "mean and cov must have same length";
  SHADE_CHECK(d <= std::numeric_limits<int>::max())
      << "multivariate_normal: dimension " << d << " too large";
  std::vector<index_t> shape(size.data(), size.data() + size.size());
  shape.push_back(d);
  NDArray x = StandardNormal(shape);  // drawn first, as NumPy does
  const index_t rows = d == 0 ? 0 : x.numel() / d;
  NDArray m64 = astype(mean, kFloat64).contiguous(), c64 = astype(cov, kFloat64).contiguous();
  const double* mu = m64.data<double>();
  const double* c = c64.data<double>();
  // SVD of cov in column-major order (numpy.linalg.svd's layout), full U and V^T.
  const int n = static_cast<int>(d), ld = std::max(n, 1);
  std::vector<double> a(static_cast<std::size_t>(d * d)), sv(static_cast<std::size_t>(d)),
      u(static_cast<std::size_t>(d * d)), vt(static_cast<std::size_t>(d * d));
  for (index_t i = 0; i < d; ++i)
    for (index_t j = 0; j < d; ++j) a[static_cast<std::size_t>(i + j * d)] = c[i * d + j];
  std::vector<int> iwork(static_cast<std::size_t>(8 * std::max(n, 1)));
  int info = 0, lwork = -1;
  double query = 0;
  if (n > 0) {
    dgesdd_("A", &n, &n, a.data(), &ld, sv.data(), u.data(), &ld, vt.data(), &ld, &query, &lwork,
            iwork.data(), &info, 1);
    SHADE_CHECK(info == 0) << "multivariate_normal: dgesdd workspace query failed (info " << info
                           << ")";
    lwork = static_cast<int>(query);
    std::vector<double> work(static_cast<std::size_t>(std::max(lwork, 1)));
    dgesdd_("A", &n, &n, a.data(), &ld, sv.data(), u.data(), &ld, vt.data(), &ld, work.data(),
            &lwork, iwork.data(), &info, 1);
    SHADE_CHECK(info == 0) << "SVD did not converge";
  }
  // v (row-major V^T), the positive-semidefinite test, and sqrt(s)[:, None] * v.
  std::vector<double> v(static_cast<std::size_t>(d * d)), msq(static_cast<std::size_t>(d * d));
  for (index_t i = 0; i < d; ++i)
    for (index_t j = 0; j < d; ++j)
      v[static_cast<std::size_t>(i * d + j)] = vt[static_cast<std::size_t>(i + j * d)];
  if (check != CheckValid::kIgnore) {
    bool psd = true;
    for (index_t i = 0; i < d && psd; ++i)
      for (index_t j = 0; j < d; ++j) {
        double acc = 0;
        for (index_t k = 0; k < d; ++k)
          acc += v[static_cast<std::size_t>(k * d + i)] * sv[static_cast<std::size_t>(k)] *
                 v[static_cast<std::size_t>(k * d + j)];
        const double ref = c[i * d + j];
        if (!(std::fabs(acc - ref) <= tol + tol * std::fabs(ref))) {
          psd = false;
          break;
        }
      }
    SHADE_CHECK(psd || check != CheckValid::kRaise)
        << "covariance is not symmetric positive-semidefinite.";
    if (not_psd != nullptr) *not_psd = !psd;
  }
  for (index_t i = 0; i < d; ++i) {
    const double r = std::sqrt(sv[static_cast<std::size_t>(i)]);
    for (index_t j = 0; j < d; ++j)
      msq[static_cast<std::size_t>(i * d + j)] = r * v[static_cast<std::size_t>(i * d + j)];
  }
  // x @ msq through the same BLAS calls as numpy.dot (gemv for one row, else gemm), then + mean.
  NDArray out = NDArray::Empty(shape, kFloat64);
  double* o = out.mutable_data<double>();
  const double* xs = x.data<double>();
  if (rows == 1) {
    cblas_dgemv(CblasRowMajor, CblasTrans, n, n, 1.0, msq.data(), ld, xs, 1, 0.0, o, 1);
  } else if (rows > 1 && n > 0) {
    SHADE_CHECK(rows <= std::numeric_limits<int>::max())
        << "multivariate_normal: " << rows << " rows too many";
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(rows), n, n, 1.0, xs,
                ld, msq.data(), ld, 0.0, o, ld);
  }
  for (index_t r = 0; r < rows; ++r)
    for (index_t j = 0; j < d; ++j) o[r * d + j] += mu[j];
  return out;
}

Generator default_rng(std::uint64_t seed) {
  return Generator(SeedSequence::FromUint64(seed));
}
Generator default_rng() {
  return Generator(SeedSequence::FromEntropy());
}

}  // namespace random
}  // namespace shade
