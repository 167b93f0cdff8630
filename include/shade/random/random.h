/*!
 * \file random.h
 * \brief `Random<cpu, DType>`: seeded random number generation for tensors (mshadow's API and
 *  mshadow's numbers): SampleUniform, SampleGaussian, SampleGamma, SampleExponential,
 *  SamplePoisson, the negative binomials, GetRandInt, and the `uniform(shape)` /
 *  `gaussian(shape)` expressions.
 *
 * The numbers are mshadow's for the same seed: one std::mt19937 seeded with the seed, each
 * Sample* call drawing from a fresh standard distribution (`<random>`) over the destination's
 * elements in row-major order (padding skipped), with mshadow's distribution types (DType for a
 * floating DType, double for half_t, uniform_int_distribution for an integer DType). So values
 * depend only on the seed and the sequence of calls, not on the thread count or the padding.
 * Differences from mshadow: parameters outside a distribution's domain (a > b, a non-finite
 * bound, alpha, beta or lambda <= 0, ...), which `<random>` leaves undefined, throw shade::Error.
 * NDArray's random functions (ndarray/creation.h) have their own threaded generator.
 */
#ifndef SHADE_RANDOM_RANDOM_H_
#define SHADE_RANDOM_RANDOM_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>

#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/expr/ext/reshape.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"

namespace shade {

/*! \brief Random number generator of a device. */
template <typename Device, typename DType = default_real_t>
class Random;

/*! \brief The CPU generator; see the file comment for the sequence it draws. */
template <typename DType>
class Random<cpu, DType> {
  // mshadow's distribution types: DType when it is a C++ floating type, else double (half_t).
  using RealT = std::conditional_t<std::is_floating_point<DType>::value, DType, double>;
  // Poisson and the binomials count in DType when it is an integer, else in int.
  using CountT = std::conditional_t<std::is_integral<DType>::value, DType, int>;

 public:
  /*! \brief A generator seeded with `seed`. */
  explicit Random(int seed) { Seed(seed); }
  /*! \brief Restarts the sequence from `seed` (std::mt19937::seed(seed), as mshadow). */
  void Seed(int seed) {
    engine_.seed(static_cast<std::mt19937::result_type>(seed));
    seed_ = static_cast<unsigned>(seed);
  }
  /*! \brief The seed given to the constructor or Seed, as unsigned (mshadow's GetSeed). */
  unsigned GetSeed() const { return seed_; }
  /*! \brief Streams are meaningless on the CPU; kept for mshadow compatibility. */
  void set_stream(Stream<cpu>* stream) { (void)stream; }
  /*! \brief The engine itself, for callers that draw their own values. */
  std::mt19937& GetRndEngine() { return engine_; }
  /*! \brief The engine's next 32-bit value. */
  unsigned GetRandInt() { return static_cast<unsigned>(engine_()); }
  /*! \brief Fills dst with the engine's next values. */
  void GetRandInt(const Tensor<cpu, 1, unsigned>& dst) {
    for (index_t i = 0; i < dst.size(0); ++i) dst.dptr_[i] = static_cast<unsigned>(engine_());
  }

  /*!
   * \brief Uniform in [a, b) for floating DType, in [a, b] for an integer DType (mshadow's
   *  uniform_real / uniform_int distributions). Throws unless a <= b, both finite.
   */
  template <int dim, typename PType = DType>
  void SampleUniform(Tensor<cpu, dim, DType>* dst, PType a = PType(0), PType b = PType(1)) {
    const double lo = static_cast<double>(a), hi = static_cast<double>(b);
    SHADE_CHECK(std::isfinite(lo) && std::isfinite(hi) && lo <= hi)
        << "SampleUniform: need finite a <= b, got a=" << lo << " b=" << hi;
    if constexpr (std::is_integral<DType>::value) {
      std::uniform_int_distribution<DType> dist(static_cast<DType>(a), static_cast<DType>(b));
      SampleDistribution(dst, [&] { return dist(engine_); });
    } else {
      std::uniform_real_distribution<RealT> dist(static_cast<RealT>(a), static_cast<RealT>(b));
      SampleDistribution(dst, [&] { return dist(engine_); });
    }
  }
  /*! \brief Normal with mean mu and standard deviation sigma; sigma <= 0 fills mu (mshadow). */
  template <int dim, typename PType = DType>
  void SampleGaussian(Tensor<cpu, dim, DType>* dst, PType mu = PType(0), PType sigma = PType(1)) {
    if (sigma <= 0) {
      *dst = DType(mu);
      return;
    }
    SHADE_CHECK(std::isfinite(static_cast<double>(sigma)))
        << "SampleGaussian: need a finite sigma, got sigma=" << static_cast<double>(sigma);
    std::normal_distribution<RealT> dist(static_cast<RealT>(mu), static_cast<RealT>(sigma));
    SampleDistribution(dst, [&] { return dist(engine_); });
  }
  /*! \brief Gamma with shape alpha > 0 and scale beta > 0 (mean alpha * beta). */
  template <int dim, typename PType = DType>
  void SampleGamma(Tensor<cpu, dim, DType>* dst, PType alpha, PType beta) {
    const double al = static_cast<double>(alpha), be = static_cast<double>(beta);
    SHADE_CHECK(std::isfinite(al) && std::isfinite(be) && al > 0 && be > 0)
        << "SampleGamma: need alpha > 0 and beta > 0, got alpha=" << al << " beta=" << be;
    std::gamma_distribution<RealT> dist(static_cast<RealT>(alpha), static_cast<RealT>(beta));
    SampleDistribution(dst, [&] { return dist(engine_); });
  }
  /*! \brief Exponential with rate lambda > 0 (mean 1 / lambda). */
  template <int dim, typename PType = DType>
  void SampleExponential(Tensor<cpu, dim, DType>* dst, PType lambda) {
    const double l = static_cast<double>(lambda);
    SHADE_CHECK(std::isfinite(l) && l > 0)
        << "SampleExponential: need lambda > 0, got lambda=" << l;
    std::exponential_distribution<RealT> dist(static_cast<RealT>(lambda));
    SampleDistribution(dst, [&] { return dist(engine_); });
  }
  /*! \brief Poisson with mean lambda >= 0, counted in DType (integer) or int (mshadow). */
  template <int dim, typename PType = DType>
  void SamplePoisson(Tensor<cpu, dim, DType>* dst, PType lambda) {
    const double l = static_cast<double>(lambda);
    SHADE_CHECK(std::isfinite(l) && l >= 0 && l <= 1e9)
        << "SamplePoisson: need 0 <= lambda <= 1e9, got lambda=" << l;
    if (l == 0) {  // outside <random>'s domain; libstdc++ draws once per element and gives 0
      SampleDistribution(dst, [&] { return engine_.discard(1), DType(0); });
      return;
    }
    std::poisson_distribution<CountT> dist(l);
    SampleDistribution(dst, [&] { return static_cast<DType>(dist(engine_)); });
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
    const CountT kk = static_cast<CountT>(k);
    SHADE_CHECK(kk > 0) << "SampleNegativeBinomial: k=" << kd << " truncates to 0";
    std::negative_binomial_distribution<CountT> dist(kk, pd);
    SampleDistribution(dst, [&] { return static_cast<DType>(dist(engine_)); });
  }
  /*!
   * \brief Generalized negative binomial counts with mean mu and over-dispersion alpha: per
   *  element a Poisson whose rate is drawn from gamma(1/alpha, alpha*mu); alpha = 0 gives
   *  SamplePoisson(mu), as in mshadow.
   */
  template <int dim, typename PType>
  void SampleGeneralizedNegativeBinomial(Tensor<cpu, dim, DType>* dst, PType mu, PType alpha) {
    const double m = static_cast<double>(mu), a = static_cast<double>(alpha);
    SHADE_CHECK(std::isfinite(m) && m >= 0 && m <= 1e9 && std::isfinite(a) && a >= 0)
        << "SampleGeneralizedNegativeBinomial: need 0 <= mu <= 1e9 and alpha >= 0, got mu=" << m
        << " alpha=" << a;
    if (alpha == PType(0) || m == 0) {  // mu = 0: gamma's scale would be 0, outside its domain
      SamplePoisson(dst, mu);
      return;
    }
    const PType r(PType(1) / alpha), beta = mu * alpha;
    std::gamma_distribution<> rate(r, beta);
    SampleDistribution(dst, [&] {
      // A rate that underflows to 0 is outside poisson_distribution's domain: it gives 0.
      const double drawn = std::min(rate(engine_), 1e9);
      if (!(drawn > 0)) return DType(0);
      std::poisson_distribution<CountT> count(drawn);
      return static_cast<DType>(count(engine_));
    });
  }
  /*!
   * \brief Fills dst in row-major order (padding skipped) with `sampler()`, a callable with no
   *  arguments, as mshadow's SampleDistribution.
   */
  template <int dim, class Sampler>
  void SampleDistribution(Tensor<cpu, dim, DType>* dst, Sampler sampler) {
    const Tensor<cpu, 2, DType> mat = dst->FlatTo2D();
    for (index_t i = 0; i < mat.size(0); ++i) {
      DType* row = mat.dptr_ + i * mat.stride_;
      for (index_t j = 0; j < mat.size(1); ++j) row[j] = static_cast<DType>(sampler());
    }
  }

  /*!
   * \brief An expression of `shape` holding fresh normal(0, 1) values (mshadow's
   *  `rnd.gaussian(shape)`); valid until the next uniform/gaussian call of this generator.
   */
  template <int dim>
  expr::ReshapeExp<Tensor<cpu, 1, DType>, DType, dim, 1> gaussian(Shape<dim> shape) {
    Tensor<cpu, 1, DType> buf = Buffer(shape, "gaussian");
    SampleGaussian(&buf, 0.0f, 1.0f);
    return expr::reshape(buf, shape);
  }
  /*! \brief An expression of `shape` holding fresh uniform [0, 1) values. */
  template <int dim>
  expr::ReshapeExp<Tensor<cpu, 1, DType>, DType, dim, 1> uniform(Shape<dim> shape) {
    Tensor<cpu, 1, DType> buf = Buffer(shape, "uniform");
    SampleUniform(&buf, 0.0f, 1.0f);
    return expr::reshape(buf, shape);
  }

 private:
  template <int dim>
  Tensor<cpu, 1, DType> Buffer(const Shape<dim>& shape, const char* who) {
    for (int i = 0; i < dim; ++i) {
      SHADE_CHECK_SHAPE_GE(shape[i], 0) << "Random::" << who << ": negative extent in " << shape;
    }
    const index_t n = CheckedProduct(shape.shape_, dim, "Random buffer");
    buffer_.Resize(Shape1(n));
    return buffer_;
  }

  unsigned seed_ = 0;
  std::mt19937 engine_;
  TensorContainer<cpu, 1, DType> buffer_{false};
};

}  // namespace shade

#endif  // SHADE_RANDOM_RANDOM_H_
