/*!
 * \file random.h
 * \brief `Random<cpu, DType>`: seeded random number generation for tensors (mshadow's API):
 *  SampleUniform, SampleGaussian, SampleGamma, SampleExponential, SamplePoisson filling a
 *  tensor (padded rows included), and the `uniform(shape)` / `gaussian(shape)` expressions.
 *
 * Reproducibility: every Sample* call draws a fresh stream number; the destination's elements,
 * in row-major order, are cut into fixed chunks of kRandomChunk, and chunk c of call k uses its
 * own std::mt19937_64 seeded from (seed, k, c). So the values depend only on the seed, the
 * sequence of calls and the shapes: never on the thread count, the row padding or the machine's
 * scheduling. The distributions are the standard library's (`<random>`), evaluated in double and
 * rounded to DType; a float uniform that rounds up to b is moved below b, keeping [a, b).
 */
#ifndef SHADE_RANDOM_RANDOM_H_
#define SHADE_RANDOM_RANDOM_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>

#include "shade/backend/cpu/parallel.h"
#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/expr/ext/reshape.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"

namespace shade {

/*! \brief Elements drawn from one generator stream (fixed: it defines the sequence). */
constexpr index_t kRandomChunk = 4096;

/*! \brief Random number generator of a device. */
template <typename Device, typename DType = default_real_t>
class Random;

/*! \brief The CPU generator; see the file comment for the reproducibility contract. */
template <typename DType>
class Random<cpu, DType> {
 public:
  /*! \brief A generator seeded with `seed`. */
  explicit Random(int seed) { Seed(seed); }
  /*! \brief Restarts the sequence of calls from `seed`. */
  void Seed(int seed) {
    seed_ = static_cast<std::uint64_t>(static_cast<std::uint32_t>(seed));
    calls_ = 0;
    engine_.seed(Mix(seed_, ~std::uint64_t(0), 0));
  }
  /*! \brief Streams are meaningless on the CPU; kept for mshadow compatibility. */
  void set_stream(Stream<cpu>* stream) { (void)stream; }
  /*! \brief A sequential engine for callers that draw their own values (seeded by Seed). */
  std::mt19937_64& GetRndEngine() { return engine_; }
  /*! \brief One random 32-bit unsigned integer from the sequential engine. */
  unsigned GetRandInt() { return static_cast<unsigned>(engine_() >> 32); }
  /*! \brief Fills dst with random 32-bit unsigned integers (reproducible like Sample*). */
  void GetRandInt(const Tensor<cpu, 1, unsigned>& dst) {
    Fill(dst, [](std::mt19937_64& g) { return static_cast<unsigned>(g() >> 32); });
  }

  /*! \brief Uniform in [a, b); throws unless a < b (both finite). */
  template <int dim>
  void SampleUniform(Tensor<cpu, dim, DType>* dst, DType a = 0, DType b = 1) {
    static_assert(std::is_floating_point<DType>::value,
                  "SampleUniform: DType must be float or double");
    SHADE_CHECK(std::isfinite(a) && std::isfinite(b) && a < b)
        << "SampleUniform: need finite a < b, got a=" << a << " b=" << b;
    const double lo = a, hi = b;
    Fill(*dst, [lo, hi, a, b](std::mt19937_64& g) {
      std::uniform_real_distribution<double> u(lo, hi);
      DType v = static_cast<DType>(u(g));
      if (!(v < b)) v = std::nextafter(b, a);  // rounding to DType reached b
      return v;
    });
  }
  /*! \brief Normal with mean mu and standard deviation sigma >= 0. */
  template <int dim>
  void SampleGaussian(Tensor<cpu, dim, DType>* dst, DType mu = 0, DType sigma = 1) {
    static_assert(std::is_floating_point<DType>::value,
                  "SampleGaussian: DType must be float or double");
    SHADE_CHECK(std::isfinite(mu) && std::isfinite(sigma) && sigma >= 0)
        << "SampleGaussian: need finite mu and sigma >= 0, got mu=" << mu << " sigma=" << sigma;
    const double m = mu, s = sigma;
    Fill(*dst, [m, s](std::mt19937_64& g) {
      if (s == 0) return static_cast<DType>(m);
      std::normal_distribution<double> n(m, s);
      return static_cast<DType>(n(g));
    });
  }
  /*! \brief Gamma with shape alpha > 0 and scale beta > 0 (mean alpha * beta). */
  template <int dim>
  void SampleGamma(Tensor<cpu, dim, DType>* dst, DType alpha, DType beta) {
    static_assert(std::is_floating_point<DType>::value,
                  "SampleGamma: DType must be float or double");
    SHADE_CHECK(std::isfinite(alpha) && std::isfinite(beta) && alpha > 0 && beta > 0)
        << "SampleGamma: need alpha > 0 and beta > 0, got alpha=" << alpha << " beta=" << beta;
    const double al = alpha, be = beta;
    Fill(*dst, [al, be](std::mt19937_64& g) {
      std::gamma_distribution<double> d(al, be);
      return static_cast<DType>(d(g));
    });
  }
  /*! \brief Exponential with rate lambda > 0 (mean 1 / lambda). */
  template <int dim>
  void SampleExponential(Tensor<cpu, dim, DType>* dst, DType lambda) {
    static_assert(std::is_floating_point<DType>::value,
                  "SampleExponential: DType must be float or double");
    SHADE_CHECK(std::isfinite(lambda) && lambda > 0)
        << "SampleExponential: need lambda > 0, got lambda=" << lambda;
    const double l = lambda;
    Fill(*dst, [l](std::mt19937_64& g) {
      std::exponential_distribution<double> d(l);
      return static_cast<DType>(d(g));
    });
  }
  /*! \brief Poisson with mean lambda >= 0 (integer DType allowed). */
  template <int dim>
  void SamplePoisson(Tensor<cpu, dim, DType>* dst, DType lambda) {
    const double l = static_cast<double>(lambda);
    SHADE_CHECK(std::isfinite(l) && l >= 0 && l <= 1e15)
        << "SamplePoisson: need 0 <= lambda <= 1e15, got lambda=" << l;
    Fill(*dst, [l](std::mt19937_64& g) {
      if (l == 0) return DType(0);
      std::poisson_distribution<long long> d(l);
      return static_cast<DType>(d(g));
    });
  }

  /*!
   * \brief Negative binomial(k, p) counts: failures before the k-th success (mshadow's
   *  SampleNegativeBinomial). Needs k > 0 and 0 < p <= 1.
   */
  template <int dim, typename PType1, typename PType2>
  void SampleNegativeBinomial(Tensor<cpu, dim, DType>* dst, PType1 k, PType2 p) {
    const double kd = static_cast<double>(k), pd = static_cast<double>(p);
    SHADE_CHECK(kd > 0 && kd <= 1e9 && pd > 0 && pd <= 1)
        << "SampleNegativeBinomial: need 0 < k <= 1e9 and 0 < p <= 1, got k=" << kd << " p=" << pd;
    const long long kk = static_cast<long long>(k);
    SHADE_CHECK(kk > 0) << "SampleNegativeBinomial: k=" << kd << " truncates to 0";
    Fill(*dst, [kk, pd](std::mt19937_64& g) {
      std::negative_binomial_distribution<long long> d(kk, pd);
      return static_cast<DType>(d(g));
    });
  }
  /*!
   * \brief Generalized negative binomial counts with mean mu and over-dispersion alpha: a
   *  Poisson whose rate is gamma(1/alpha, alpha*mu); alpha = 0 gives Poisson(mu), as in mshadow.
   */
  template <int dim, typename PType>
  void SampleGeneralizedNegativeBinomial(Tensor<cpu, dim, DType>* dst, PType mu, PType alpha) {
    const double m = static_cast<double>(mu), a = static_cast<double>(alpha);
    SHADE_CHECK(std::isfinite(m) && m >= 0 && m <= 1e15 && std::isfinite(a) && a >= 0)
        << "SampleGeneralizedNegativeBinomial: need 0 <= mu <= 1e15 and alpha >= 0, got mu=" << m
        << " alpha=" << a;
    Fill(*dst, [m, a](std::mt19937_64& g) {
      double rate = m;
      if (a != 0 && m != 0) rate = std::gamma_distribution<double>(1.0 / a, a * m)(g);
      if (!(rate > 0)) return DType(0);
      std::poisson_distribution<long long> d(std::min(rate, 1e15));
      return static_cast<DType>(d(g));
    });
  }
  /*! \brief The seed given to the constructor or Seed, as unsigned (mshadow's GetSeed). */
  unsigned GetSeed() const { return static_cast<unsigned>(seed_); }
  /*!
   * \brief Fills dst in row-major order with `sampler()` (a callable with no arguments, called
   *  once per element on this thread, as in mshadow's SampleDistribution).
   */
  template <int dim, class Sampler>
  void SampleDistribution(Tensor<cpu, dim, DType>* dst, Sampler sampler) {
    const Tensor<cpu, 2, DType> mat = dst->FlatTo2D();
    for (index_t i = 0; i < mat.size(0); ++i) {
      for (index_t j = 0; j < mat.size(1); ++j) mat[i][j] = static_cast<DType>(sampler());
    }
  }

  /*!
   * \brief An expression of `shape` holding fresh normal(0, 1) values (mshadow's
   *  `rnd.gaussian(shape)`); valid until the next uniform/gaussian call of this generator.
   */
  template <int dim>
  expr::ReshapeExp<Tensor<cpu, 1, DType>, DType, dim, 1> gaussian(Shape<dim> shape) {
    Tensor<cpu, 1, DType> buf = Buffer(shape, "gaussian");
    SampleGaussian(&buf, DType(0), DType(1));
    return expr::reshape(buf, shape);
  }
  /*! \brief An expression of `shape` holding fresh uniform [0, 1) values. */
  template <int dim>
  expr::ReshapeExp<Tensor<cpu, 1, DType>, DType, dim, 1> uniform(Shape<dim> shape) {
    Tensor<cpu, 1, DType> buf = Buffer(shape, "uniform");
    SampleUniform(&buf, DType(0), DType(1));
    return expr::reshape(buf, shape);
  }

 private:
  // splitmix64 finaliser over the three coordinates of a stream.
  static std::uint64_t Mix(std::uint64_t seed, std::uint64_t call, std::uint64_t chunk) {
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ull ^
                      (call + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull ^
                      (chunk + 0x94D049BB133111EBull) * 0xD6E8FEEB86659FD5ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  template <int dim>
  Tensor<cpu, 1, DType> Buffer(const Shape<dim>& shape, const char* who) {
    for (int i = 0; i < dim; ++i) {
      SHADE_CHECK_SHAPE_GE(shape[i], 0) << "Random::" << who << ": negative extent in " << shape;
    }
    const index_t n = CheckedProduct(shape.shape_, dim, "Random buffer");
    buffer_.Resize(Shape1(n));
    return buffer_;
  }
  // Fills every element of dst (row-major order, padding skipped) with draw(engine).
  template <int dim, typename T, typename Draw>
  void Fill(const Tensor<cpu, dim, T>& dst, Draw draw) {
    const index_t cols = dst.shape_[dim - 1];
    const index_t n = CheckedProduct(dst.shape_.shape_, dim, "Random: tensor size");
    const std::uint64_t call = calls_++;
    if (n == 0) return;
    const index_t chunks = (n + kRandomChunk - 1) / kRandomChunk;
    const std::uint64_t seed = seed_;
    T* base = dst.dptr_;
    const index_t stride = dim == 1 ? cols : dst.stride_;
    ParallelFor(0, chunks, 4, [&](index_t cb, index_t ce) {
      for (index_t c = cb; c < ce; ++c) {
        std::mt19937_64 g(Mix(seed, call, static_cast<std::uint64_t>(c)));
        const index_t end = std::min(n, (c + 1) * kRandomChunk);
        for (index_t k = c * kRandomChunk; k < end; ++k)
          base[(k / cols) * stride + k % cols] = draw(g);
      }
    });
  }

  std::uint64_t seed_ = 0;
  std::uint64_t calls_ = 0;
  std::mt19937_64 engine_;
  TensorContainer<cpu, 1, DType> buffer_{false};
};

}  // namespace shade

#endif  // SHADE_RANDOM_RANDOM_H_
