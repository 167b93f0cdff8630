/*!
 * \file numpy_random.h
 * \brief NumPy's random streams, bit for bit: the legacy `RandomState` (MT19937) and the
 *  `Generator` (PCG64 seeded through a `SeedSequence`), producing NDArrays.
 *
 * Given the same seed, every function here returns the same values as NumPy 1.24's function of
 * the same name, in the same order, and leaves the bit generator in the same state (so that mixed
 * sequences of calls agree too). The bit generators are plain classes with inline draws, so the
 * fills run as tight loops with no indirect call per draw.
 *
 * Not bit-identical with NumPy (and therefore not provided): the Generator's ziggurat methods
 * (standard_normal, normal, exponential, gamma, beta), whose tables NumPy ships as constants
 * that this library does not reproduce by computation to the last bit, and multivariate_normal.
 */
#ifndef SHADE_RANDOM_NUMPY_RANDOM_H_
#define SHADE_RANDOM_NUMPY_RANDOM_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "shade/base/dtype.h"
#include "shade/ndarray/ndarray.h"

namespace shade {
namespace random {

/*! \brief Signed 128-bit integer: integer bounds cover every int64 and uint64 value (and one past).
 */
__extension__ typedef __int128 Int128;
/*! \brief Unsigned 128-bit integer (PCG64's state). */
__extension__ typedef unsigned __int128 UInt128;

/*! \brief The Mersenne Twister MT19937 with NumPy's seeding and 53-bit doubles. */
class MT19937 {
 public:
  /*! \brief Number of 32-bit words of state. */
  static constexpr int kStateSize = 624;
  /*! \brief Seeded like `RandomState(seed)` with an int seed. */
  explicit MT19937(std::uint32_t seed = 5489u) { Seed(seed); }
  /*! \brief Knuth's linear seeding (NumPy's int seed; `init_genrand`). */
  void Seed(std::uint32_t seed);
  /*! \brief Array seeding (NumPy's array seed; `init_by_array`); `n` may not be 0. */
  void SeedByArray(const std::uint32_t* key, std::size_t n);
  /*! \brief Next 32-bit output. */
  std::uint32_t Next32() {
    if (pos_ >= kStateSize) Refill();
    std::uint32_t y = key_[static_cast<std::size_t>(pos_++)];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
  }
  /*! \brief Next 64-bit output: the first 32-bit draw is the high half. */
  std::uint64_t Next64() {
    const std::uint64_t hi = Next32();
    return (hi << 32) | Next32();
  }
  /*! \brief Double in [0, 1) from 27 + 26 bits of two draws. */
  double NextDouble() {
    const std::uint32_t a = Next32() >> 5;
    const std::uint32_t b = Next32() >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
  /*! \brief The 624 state words. */
  const std::array<std::uint32_t, kStateSize>& key() const noexcept { return key_; }
  /*! \brief Position of the next word in key() (624: refill first). */
  int pos() const noexcept { return pos_; }
  /*! \brief Restores a state (NumPy's set_state); pos must be in [0, 624]. */
  void SetState(const std::array<std::uint32_t, kStateSize>& key, int pos);

 private:
  void Refill();
  std::array<std::uint32_t, kStateSize> key_{};
  int pos_ = kStateSize;
};

/*!
 * \brief NumPy's SeedSequence (entropy words hashed into a pool of 4 words) without spawning.
 *  Turns any seed into well-mixed state words for a bit generator.
 */
class SeedSequence {
 public:
  /*! \brief From entropy words, least significant first (a Python int split into 32-bit words;
   *  an empty list means 0). */
  explicit SeedSequence(std::vector<std::uint32_t> entropy);
  /*! \brief From a non-negative integer seed. */
  static SeedSequence FromUint64(std::uint64_t seed);
  /*! \brief From fresh operating-system entropy (NumPy's seed=None). */
  static SeedSequence FromEntropy();
  /*! \brief `generate_state(n, np.uint32)`. */
  std::vector<std::uint32_t> GenerateState32(std::size_t n) const;
  /*! \brief `generate_state(n, np.uint64)` (pairs of 32-bit words, low word first). */
  std::vector<std::uint64_t> GenerateState64(std::size_t n) const;
  /*! \brief The entropy words. */
  const std::vector<std::uint32_t>& entropy() const noexcept { return entropy_; }
  /*! \brief The mixed pool. */
  const std::array<std::uint32_t, 4>& pool() const noexcept { return pool_; }

 private:
  std::vector<std::uint32_t> entropy_;
  std::array<std::uint32_t, 4> pool_{};
};

/*! \brief PCG64 (128-bit LCG, XSL-RR output) as NumPy's `PCG64`, with its buffered 32-bit draws. */
class PCG64 {
 public:
  /*! \brief pcg's `srandom(initstate, initseq)`. */
  PCG64(UInt128 initstate, UInt128 initseq) { Seed(initstate, initseq); }
  /*! \brief NumPy's `PCG64(seed_sequence)`: four 64-bit state words become state and stream. */
  explicit PCG64(const SeedSequence& seq);
  /*! \brief Re-seeds as the constructor does; clears the buffered 32-bit half. */
  void Seed(UInt128 initstate, UInt128 initseq);
  /*! \brief Next 64-bit output (advance, then output from the new state). */
  std::uint64_t Next64() {
    state_ = state_ * Multiplier() + inc_;
    const std::uint64_t x =
        static_cast<std::uint64_t>(state_ >> 64) ^ static_cast<std::uint64_t>(state_);
    const unsigned rot = static_cast<unsigned>(state_ >> 122);
    return (x >> rot) | (x << ((64u - rot) & 63u));
  }
  /*! \brief Next 32-bit output: the low half of a 64-bit draw, then its high half. */
  std::uint32_t Next32() {
    if (has_uint32_) {
      has_uint32_ = false;
      return uinteger_;
    }
    const std::uint64_t v = Next64();
    has_uint32_ = true;
    uinteger_ = static_cast<std::uint32_t>(v >> 32);
    return static_cast<std::uint32_t>(v);
  }
  /*! \brief Double in [0, 1) from the top 53 bits of a 64-bit draw. */
  double NextDouble() { return static_cast<double>(Next64() >> 11) * (1.0 / 9007199254740992.0); }
  /*! \brief Float in [0, 1) from the top 24 bits of a 32-bit draw. */
  float NextFloat() { return static_cast<float>(Next32() >> 8) * (1.0f / 16777216.0f); }
  /*! \brief The 128-bit state. */
  UInt128 state() const noexcept { return state_; }
  /*! \brief The 128-bit increment (odd). */
  UInt128 inc() const noexcept { return inc_; }
  /*! \brief Whether a 32-bit half is buffered, and its value. */
  bool has_uint32() const noexcept { return has_uint32_; }
  /*! \brief The buffered 32-bit half. */
  std::uint32_t uinteger() const noexcept { return uinteger_; }
  /*! \brief Restores a state (NumPy's `state` setter). */
  void SetState(UInt128 state, UInt128 inc, bool has_uint32, std::uint32_t uinteger) noexcept {
    state_ = state;
    inc_ = inc;
    has_uint32_ = has_uint32;
    uinteger_ = uinteger;
  }

 private:
  static constexpr UInt128 Multiplier() {
    return (static_cast<UInt128>(2549297995355413924ull) << 64) | 4865540595714422341ull;
  }
  UInt128 state_ = 0;
  UInt128 inc_ = 0;
  bool has_uint32_ = false;
  std::uint32_t uinteger_ = 0;
};

/*!
 * \brief NumPy's legacy `RandomState`: MT19937 plus the cached second value of the polar normal
 *  method. Each method draws what NumPy's method of the same name draws; `size` is the result
 *  shape (rank 0 for NumPy's size=None, which draws one value).
 */
class RandomState {
 public:
  /*! \brief Seeded from operating-system entropy (NumPy's RandomState()). */
  RandomState();
  /*! \brief `RandomState(seed)` with an int seed in [0, 2**32). */
  explicit RandomState(std::uint32_t seed);
  /*! \brief `RandomState(seed)` with a 1-d array seed (non-empty, words in [0, 2**32)). */
  explicit RandomState(const std::vector<std::uint32_t>& seed);
  /*! \brief `seed(int)`; clears the cached normal. */
  void Seed(std::uint32_t seed);
  /*! \brief `seed(array)`; throws ValueError when empty. */
  void Seed(const std::vector<std::uint32_t>& seed);
  /*! \brief `seed(None)`: fresh operating-system entropy. */
  void SeedFromEntropy();
  /*! \brief The bit generator (get_state / set_state). */
  MT19937& bit_generator() noexcept { return mt_; }
  /*! \brief Whether a cached normal is pending, and its value (get_state's last two entries). */
  bool has_gauss() const noexcept { return has_gauss_; }
  /*! \brief The cached normal (meaningful when has_gauss()). */
  double gauss() const noexcept { return gauss_; }
  /*! \brief Restores the cached normal. */
  void SetGauss(bool has, double value) noexcept {
    has_gauss_ = has;
    gauss_ = value;
  }

  /*! \brief `random_sample(size)` (also `random`, `rand`): float64 in [0, 1). */
  NDArray RandomSample(IndexSpan size);
  /*! \brief `randint(low, high, size, dtype)`: integers in [low, high) of dtype (bool, any int
   *  type); throws ValueError when low >= high or a bound is out of the dtype's range. */
  NDArray RandInt(Int128 low, Int128 high, IndexSpan size, int dtype = kInt64);
  /*! \brief `standard_normal(size)` (also `randn`): the polar method with its cached value. */
  NDArray StandardNormal(IndexSpan size);
  /*! \brief `normal(loc, scale, size)`; scale >= 0. */
  NDArray Normal(double loc, double scale, IndexSpan size);
  /*! \brief `uniform(low, high, size)`: low + (high - low) * random_sample. */
  NDArray Uniform(double low, double high, IndexSpan size);
  /*! \brief `standard_exponential(size)`: -log(1 - U). */
  NDArray StandardExponential(IndexSpan size);
  /*! \brief `exponential(scale, size)`; scale >= 0. */
  NDArray Exponential(double scale, IndexSpan size);
  /*! \brief `standard_gamma(shape, size)`; shape >= 0. */
  NDArray StandardGamma(double shape, IndexSpan size);
  /*! \brief `gamma(shape, scale, size)`; shape, scale >= 0. */
  NDArray Gamma(double shape, double scale, IndexSpan size);
  /*! \brief `beta(a, b, size)`; a, b > 0. */
  NDArray Beta(double a, double b, IndexSpan size);
  /*! \brief `poisson(lam, size)` (int64); 0 <= lam <= NumPy's maximum. */
  NDArray Poisson(double lam, IndexSpan size);
  /*! \brief `binomial(n, p, size)` (int64); n >= 0, 0 <= p <= 1. */
  NDArray Binomial(std::int64_t n, double p, IndexSpan size);
  /*! \brief `permutation(n)`: a shuffled arange(n) (int64). */
  NDArray Permutation(std::int64_t n);
  /*! \brief `permutation(x)`: a copy of x with its first axis shuffled; rank >= 1. */
  NDArray Permutation(const NDArray& x);
  /*! \brief `shuffle(x)`: shuffles x's first axis in place; rank >= 1. */
  void Shuffle(const NDArray& x);
  /*!
   * \brief `choice(pop_size, size, replace, p)` as indices (int64) into a population of
   *  pop_size; `p` null or a 1-d float64 array of pop_size probabilities summing to 1.
   */
  NDArray Choice(std::int64_t pop_size, IndexSpan size, bool replace, const NDArray* p);

  /*!
   * \name Array parameters
   * NumPy's broadcasting forms: each parameter an array (any real dtype; binomial's n cast to
   * int64), drawn element by element in C order of the result shape, which is the parameters'
   * broadcast shape or `*size` when given (the parameters must broadcast to it). Every
   * parameter is checked before the first draw.
   */
  ///@{
  /*! \brief `randint(low, high, size, dtype)` with array bounds (one draw per element). */
  NDArray RandInt(const NDArray& low, const NDArray& high, const std::vector<index_t>* size,
                  int dtype = kInt64);
  /*! \brief `normal(loc, scale, size)`. */
  NDArray Normal(const NDArray& loc, const NDArray& scale, const std::vector<index_t>* size);
  /*! \brief `uniform(low, high, size)`. */
  NDArray Uniform(const NDArray& low, const NDArray& high, const std::vector<index_t>* size);
  /*! \brief `exponential(scale, size)`. */
  NDArray Exponential(const NDArray& scale, const std::vector<index_t>* size);
  /*! \brief `gamma(shape, scale, size)`. */
  NDArray Gamma(const NDArray& shape, const NDArray& scale, const std::vector<index_t>* size);
  /*! \brief `beta(a, b, size)`. */
  NDArray Beta(const NDArray& a, const NDArray& b, const std::vector<index_t>* size);
  /*! \brief `poisson(lam, size)`. */
  NDArray Poisson(const NDArray& lam, const std::vector<index_t>* size);
  /*! \brief `binomial(n, p, size)`. */
  NDArray Binomial(const NDArray& n, const NDArray& p, const std::vector<index_t>* size);
  ///@}

  /*! \brief What multivariate_normal does with a covariance that is not positive-semidefinite. */
  enum class CheckValid { kWarn, kRaise, kIgnore };
  /*!
   * \brief `multivariate_normal(mean, cov, size, check_valid, tol)`: standard normals of shape
   *  size + (d,) times sqrt(s) V from the SVD of cov (LAPACK dgesdd, as NumPy's linalg.svd),
   *  plus mean. `mean` is 1-d of length d, `cov` d x d. With kRaise a covariance failing the
   *  positive-semidefinite test (V^T S V close to cov within tol) throws ValueError; with kWarn
   *  `*not_psd` (if given) reports it.
   */
  NDArray MultivariateNormal(const NDArray& mean, const NDArray& cov, IndexSpan size,
                             CheckValid check = CheckValid::kWarn, double tol = 1e-8,
                             bool* not_psd = nullptr);

 private:
  double Gauss();
  double BetaDraw(double a, double b);
  MT19937 mt_;
  bool has_gauss_ = false;
  double gauss_ = 0.0;
};

/*!
 * \brief NumPy's `Generator` over PCG64 (`default_rng(seed)`). Same conventions as RandomState.
 */
class Generator {
 public:
  /*! \brief `Generator(PCG64(seq))`. */
  explicit Generator(const SeedSequence& seq) : pcg_(seq) {}
  /*! \brief The bit generator. */
  PCG64& bit_generator() noexcept { return pcg_; }
  /*! \brief `random(size, dtype)`: float64 or float32 in [0, 1). */
  NDArray Random(IndexSpan size, int dtype = kFloat64);
  /*! \brief `integers(low, high, size, dtype, endpoint)`: Lemire's bounded integers. */
  NDArray Integers(Int128 low, Int128 high, IndexSpan size, int dtype = kInt64,
                   bool endpoint = false);
  /*! \brief `uniform(low, high, size)`. */
  NDArray Uniform(double low, double high, IndexSpan size);
  /*! \brief `poisson(lam, size)` (int64). */
  NDArray Poisson(double lam, IndexSpan size);
  /*! \brief `binomial(n, p, size)` (int64). */
  NDArray Binomial(std::int64_t n, double p, IndexSpan size);
  /*! \brief `permutation(n)` (int64). */
  NDArray Permutation(std::int64_t n);
  /*! \brief `permutation(x)` along the first axis; rank >= 1. */
  NDArray Permutation(const NDArray& x);
  /*! \brief `shuffle(x)` along the first axis, in place; rank >= 1. */
  void Shuffle(const NDArray& x);
  /*! \brief `choice(pop_size, size, replace, p, shuffle=shuffle)` as int64 indices. */
  NDArray Choice(std::int64_t pop_size, IndexSpan size, bool replace, const NDArray* p,
                 bool shuffle = true);
  /*! \brief `integers(low, high, size, dtype, endpoint)` with array bounds (as RandomState's
   *  randint). */
  NDArray Integers(const NDArray& low, const NDArray& high, const std::vector<index_t>* size,
                   int dtype = kInt64, bool endpoint = false);
  /*! \brief `uniform(low, high, size)` with array parameters (as RandomState's). */
  NDArray Uniform(const NDArray& low, const NDArray& high, const std::vector<index_t>* size);
  /*! \brief `poisson(lam, size)` with array parameters. */
  NDArray Poisson(const NDArray& lam, const std::vector<index_t>* size);
  /*! \brief `binomial(n, p, size)` with array parameters. */
  NDArray Binomial(const NDArray& n, const NDArray& p, const std::vector<index_t>* size);

 private:
  PCG64 pcg_;
};

/*! \brief `numpy.random.default_rng(seed)` for an integer seed. */
Generator default_rng(std::uint64_t seed);
/*! \brief `numpy.random.default_rng()`: seeded from operating-system entropy. */
Generator default_rng();

}  // namespace random
}  // namespace shade

#endif  // SHADE_RANDOM_NUMPY_RANDOM_H_
