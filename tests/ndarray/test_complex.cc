// complex64 / complex128 (docs/design/complex.md): dtype flags and dispatch, NEP 50 promotion
// (NumPy's promote_types values written out), conversions, the elementwise ops against naive
// std::complex loops, reductions, matmul against a naive triple loop, the part views, printing
// against NumPy 1.24's repr text, .npy / .npz and DLPack round trips, and the errors of the
// paths that do not take complex operands.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "shade/compat/mshadow_complex.h"
#include "shade/io/dlpack.h"
#include "shade/io/npy.h"
#include "shade/io/npz.h"
#include "shade/ndarray/bridge.h"
#include "shade/ndarray/complex.h"
#include "shade/ndarray/construct.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/print.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/ndarray/sort.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace {

using c64 = complex64_t;
using c128 = complex128_t;

// A complex array of `shape` with varied values (signs, magnitudes, some zero parts).
NDArray Make(std::vector<index_t> shape, int flag, int seed = 0) {
  NDArray a = NDArray::Empty(shape, kComplex128);
  c128* p = static_cast<c128*>(a.data_ptr());
  for (index_t i = 0; i < a.numel(); ++i) {
    const double k = static_cast<double>(i + seed);
    const double re = (i % 5 == 3) ? 0.0 : std::sin(1.3 * k + 0.2) * (1 + k / 4);
    const double im = (i % 7 == 2) ? 0.0 : std::cos(0.7 * k - 0.1) * (2 - k / 9);
    p[i] = c128(re, im);
  }
  return astype(a, flag);
}

// The elements of any array as complex128, in logical (row-major) order.
std::vector<c128> Values(const NDArray& a) {
  const NDArray c = astype(a, kComplex128).contiguous();
  const c128* p = static_cast<const c128*>(c.data_ptr());
  return std::vector<c128>(p, p + c.numel());
}

// a * b as (ar br - ai bi, ar bi + ai br), each product rounded on its own (the volatile stores
// keep the compiler from fusing them into FMAs, as the library's kernels are built).
c128 ExactMul(c128 a, c128 b) {
  volatile double p1 = a.real() * b.real(), p2 = a.imag() * b.imag();
  volatile double p3 = a.real() * b.imag(), p4 = a.imag() * b.real();
  return c128(p1 - p2, p3 + p4);
}

bool SameBits(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

// Element-for-element equality (NaNs equal), or within rel * magnitude when rel > 0.
void ExpectNear(const std::vector<c128>& got, const std::vector<c128>& want, double rel,
                const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const c128 g = got[i], w = want[i];
    if (rel == 0 || !std::isfinite(w.real()) || !std::isfinite(w.imag())) {
      EXPECT_TRUE(SameBits(g.real(), w.real()) && SameBits(g.imag(), w.imag()))
          << what << " element " << i << ": " << g << " vs " << w;
    } else {
      const double tol = rel * std::max(1.0, std::abs(w));
      EXPECT_NEAR(g.real(), w.real(), tol) << what << " element " << i;
      EXPECT_NEAR(g.imag(), w.imag(), tol) << what << " element " << i;
    }
  }
}

// The views each shape is also tested through: contiguous, transposed, strided (step 2).
std::vector<NDArray> Layouts(const NDArray& base) {
  std::vector<NDArray> out{base};
  if (base.ndim() >= 2) out.push_back(base.transpose(0, 1));
  if (base.ndim() >= 1 && base.size(0) > 1) out.push_back(base.slice(0, 0, base.size(0), 2));
  return out;
}

// ------------------------------------------------------------------ dtype and promotion

TEST(Complex, FlagsNamesSizesAndDispatch) {
  EXPECT_EQ(kComplex64, 13);
  EXPECT_EQ(kComplex128, 14);
  EXPECT_STREQ(TypeFlagName(kComplex64), "complex64");
  EXPECT_STREQ(TypeFlagName(kComplex128), "complex128");
  EXPECT_EQ(TypeFlagSize(kComplex64), 8u);
  EXPECT_EQ(TypeFlagSize(kComplex128), 16u);
  EXPECT_EQ(TypeMeta::FromFlag(kComplex64), TypeMeta::Make<c64>());
  EXPECT_EQ(DispatchDTypeWithComplex(kComplex128,
                                     [](auto tag) { return sizeof(typename decltype(tag)::type); }),
            16u);
  // The real-only dispatch names the complex dtype instead of instantiating for it.
  try {
    DispatchDType(kComplex128, [](auto) { return 0; });
    ADD_FAILURE() << "no throw";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("complex128 is not supported"), std::string::npos);
  }
  EXPECT_THROW(TypeFlagName(kNumTypeFlags), TypeError);
}

TEST(Complex, PromoteTypesAsNumPy) {
  // np.promote_types(x, complex64) for x in this order (NumPy 1.24).
  const int reals[] = {kFloat32, kFloat64, kFloat16, kUint8,  kInt32,  kInt8,
                       kInt64,   kBool,    kInt16,   kUint16, kUint32, kUint64};
  const int with_c64[] = {kComplex64,  kComplex128, kComplex64,  kComplex64,
                          kComplex128, kComplex64,  kComplex128, kComplex64,
                          kComplex64,  kComplex64,  kComplex128, kComplex128};
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(PromoteTypes(reals[i], kComplex64), with_c64[i]) << TypeFlagName(reals[i]);
    EXPECT_EQ(PromoteTypes(kComplex64, reals[i]), with_c64[i]) << TypeFlagName(reals[i]);
    EXPECT_EQ(PromoteTypes(reals[i], kComplex128), kComplex128) << TypeFlagName(reals[i]);
  }
  EXPECT_EQ(PromoteTypes(kComplex64, kComplex128), kComplex128);
  EXPECT_EQ(PromoteTypes(kBfloat16, kComplex64), kComplex64);  // shade's bf16: like float16
  EXPECT_EQ(KindOf(kComplex64), DTypeKind::kComplex);
}

TEST(Complex, WeakScalarsNep50) {
  using P = PromotionOperand;
  const P wc = P::Weak(WeakKind::kComplex);
  EXPECT_EQ(ResultType({P::Strong(kFloat32), wc}), kComplex64);
  EXPECT_EQ(ResultType({P::Strong(kFloat16), wc}), kComplex64);
  EXPECT_EQ(ResultType({P::Strong(kFloat64), wc}), kComplex128);
  EXPECT_EQ(ResultType({P::Strong(kInt8), wc}), kComplex128);
  EXPECT_EQ(ResultType({P::Strong(kBool), wc}), kComplex128);
  EXPECT_EQ(ResultType({P::Strong(kComplex64), wc}), kComplex64);
  EXPECT_EQ(ResultType({P::Strong(kComplex64), P::Weak(WeakKind::kFloat)}), kComplex64);
  EXPECT_EQ(ResultType({P::Strong(kComplex64), P::Weak(WeakKind::kInt)}), kComplex64);
  EXPECT_EQ(ResultType({wc}), kComplex128);
  // Through the elementwise ops: float32 + 1j stays single precision.
  const NDArray f = ones({3}, kFloat32);
  const NDArray r = (f + c128(0, 1)).eval();
  EXPECT_EQ(r.type_flag(), kComplex64);
  ExpectNear(Values(r), std::vector<c128>(3, c128(1, 1)), 0, "float32 + 1j");
}

TEST(Complex, CastingRules) {
  EXPECT_TRUE(CanCast(kFloat64, kComplex128, Casting::kSafe));
  EXPECT_FALSE(CanCast(kFloat64, kComplex64, Casting::kSafe));
  EXPECT_TRUE(CanCast(kFloat64, kComplex64, Casting::kSameKind));
  EXPECT_FALSE(CanCast(kComplex64, kFloat64, Casting::kSameKind));
  EXPECT_TRUE(CanCast(kComplex128, kComplex64, Casting::kSameKind));
  // float += complex is refused like int += float.
  NDArray f = zeros({2}, kFloat64);
  EXPECT_THROW(f += Make({2}, kComplex64), TypeError);
}

// ------------------------------------------------------------------ conversions and creation

TEST(Complex, ConversionsAsNumPy) {
  const NDArray z = Make({3, 4}, kComplex128);
  for (const NDArray& v : Layouts(z)) {
    const std::vector<c128> vv = Values(v);
    // complex -> real keeps the real part; -> bool is "either part nonzero".
    const NDArray d = astype(v, kFloat64), b = astype(v, kBool), i = astype(v, kInt32);
    const NDArray s = astype(v, kComplex64);
    ASSERT_EQ(d.numel(), static_cast<index_t>(vv.size()));
    const NDArray dc = d.contiguous(), bc = b.contiguous(), ic = i.contiguous();
    for (std::size_t k = 0; k < vv.size(); ++k) {
      EXPECT_EQ(static_cast<const double*>(dc.data_ptr())[k], vv[k].real());
      EXPECT_EQ(static_cast<const bool*>(bc.data_ptr())[k], vv[k] != c128(0, 0));
      EXPECT_EQ(static_cast<const std::int32_t*>(ic.data_ptr())[k],
                static_cast<std::int32_t>(vv[k].real()));
      const c64 want(static_cast<float>(vv[k].real()), static_cast<float>(vv[k].imag()));
      EXPECT_EQ(static_cast<const c64*>(s.contiguous().data_ptr())[k], want);
    }
    // real -> complex: zero imaginary part; strided destination through copy_.
    if (v.ndim() == 2) {
      NDArray dst = zeros({v.size(1), v.size(0)}, kComplex64).transpose(0, 1);
      dst.copy_(d);
      const std::vector<c128> got = Values(dst);
      for (std::size_t k = 0; k < vv.size(); ++k) {
        EXPECT_EQ(got[k], c128(static_cast<float>(vv[k].real()), 0));
      }
    }
  }
  // Creation fills value + 0j; eye sets the diagonal.
  ExpectNear(Values(full({2, 2}, 2.5, kComplex64)), std::vector<c128>(4, c128(2.5, 0)), 0, "full");
  ExpectNear(Values(zeros({0}, kComplex128)), {}, 0, "empty zeros");
  NDArray part = zeros({4, 3}, kComplex128).slice(0, 0, 4, 2);
  part.Fill(-1.0);
  ExpectNear(Values(part), std::vector<c128>(6, c128(-1, 0)), 0, "strided fill");
  EXPECT_EQ(complex_item(Make({}, kComplex64)), c128(Values(Make({}, kComplex64))[0]));
  EXPECT_EQ(complex_item(full({}, 3.0, kInt8)), c128(3, 0));
  EXPECT_THROW(complex_item(Make({2}, kComplex64)), ShapeError);
}

// ------------------------------------------------------------------ elementwise ops

struct BinaryCase {
  const char* name;
  std::function<Expr(Expr, Expr)> op;
  std::function<c128(c128, c128)> oracle;
  double rel;  // 0: bit for bit
};

TEST(Complex, BinaryOpsAgainstStdComplex) {
  // add, subtract, multiply are the textbook formulas (exact); divide is Smith's method and
  // power the C library's cpow or repeated products, against std::complex's own algorithms:
  // a few ulps apart.
  const std::vector<BinaryCase> cases = {
      {"add", [](Expr a, Expr b) { return a + b; }, [](c128 a, c128 b) { return a + b; }, 0},
      {"subtract", [](Expr a, Expr b) { return a - b; }, [](c128 a, c128 b) { return a - b; }, 0},
      {"multiply", [](Expr a, Expr b) { return a * b; }, ExactMul, 0},
      {"divide", [](Expr a, Expr b) { return a / b; }, [](c128 a, c128 b) { return a / b; }, 1e-15},
      {"power", [](Expr a, Expr b) { return power(a, b); },
       [](c128 a, c128 b) { return std::pow(a, b); }, 1e-13},
  };
  for (const auto& c : cases) {
    for (index_t n : {0, 1, 7}) {
      std::vector<index_t> shape = n == 1 ? std::vector<index_t>{} : std::vector<index_t>{n, 3};
      const NDArray a = Make(shape, kComplex128, 1), b = Make(shape, kComplex128, 5);
      const std::vector<NDArray> la = Layouts(a), lb = Layouts(b);
      for (std::size_t l = 0; l < la.size(); ++l) {
        const NDArray &av = la[l], &bv = lb[l];
        const NDArray r = c.op(av, bv).eval();
        EXPECT_EQ(r.type_flag(), kComplex128) << c.name;
        const std::vector<c128> x = Values(av), y = Values(bv);
        std::vector<c128> want;
        for (std::size_t k = 0; k < x.size(); ++k) want.push_back(c.oracle(x[k], y[k]));
        ExpectNear(Values(r), want, c.rel, std::string(c.name) + " " + av.Describe());
      }
    }
  }
  // complex64 computes in single precision; mixing with float64 gives complex128.
  const NDArray a = Make({5}, kComplex64), d = astype(Make({5}, kFloat64, 2), kFloat64);
  const NDArray r = (a * d).eval();
  EXPECT_EQ(r.type_flag(), kComplex128);
  const std::vector<c128> av = Values(a), dv = Values(d);
  std::vector<c128> want;
  for (std::size_t k = 0; k < av.size(); ++k) {
    want.push_back(ExactMul(av[k], c128(dv[k].real(), 0)));
  }
  ExpectNear(Values(r), want, 0, "complex64 * float64");
  // Broadcasting a row against a column, and a weak complex scalar on either side.
  const NDArray row = Make({1, 4}, kComplex64), col = Make({3, 1}, kComplex64, 9);
  EXPECT_EQ((row + col).eval().sizes(), (std::vector<index_t>{3, 4}));
  const NDArray s = (c128(2, -1) - Make({4}, kComplex64)).eval();
  EXPECT_EQ(s.type_flag(), kComplex64);
  std::vector<c128> ws;
  for (c128 v : Values(Make({4}, kComplex64))) {
    ws.push_back(c128(static_cast<float>(2 - static_cast<float>(v.real())),
                      static_cast<float>(-1 - static_cast<float>(v.imag()))));
  }
  ExpectNear(Values(s), ws, 0, "weak complex - complex64");
}

TEST(Complex, PowerSpecialCases) {
  const NDArray z = Make({6}, kComplex128, 3);
  const std::vector<c128> zv = Values(z);
  // Integer exponents are repeated products (NumPy's loop), exact for 2.
  const std::vector<c128> sq = Values(power(z, 2).eval());
  for (std::size_t k = 0; k < zv.size(); ++k) {
    EXPECT_EQ(sq[k], ExactMul(zv[k], zv[k]));
  }
  ExpectNear(Values(power(z, 0).eval()), std::vector<c128>(6, c128(1, 0)), 0, "z ** 0");
  ExpectNear(
      Values(power(z, -3).eval()),
      [&] {
        std::vector<c128> w;
        for (c128 a : zv) w.push_back(std::pow(a, -3.0));
        return w;
      }(),
      1e-13, "z ** -3");
  const NDArray zero = zeros({2}, kComplex128);
  ExpectNear(Values(power(zero, 2.5).eval()), std::vector<c128>(2, c128(0, 0)), 0, "0 ** 2.5");
  const std::vector<c128> nz = Values(power(zero, c128(-1, 0)).eval());
  EXPECT_TRUE(std::isnan(nz[0].real()) && std::isnan(nz[0].imag()));
}

TEST(Complex, UnaryOpsAgainstStdComplex) {
  const NDArray z = Make({4, 5}, kComplex128, 2);
  for (const NDArray& v : Layouts(z)) {
    const std::vector<c128> x = Values(v);
    std::vector<c128> neg, ex, lg, sq, ab;
    for (c128 a : x) {
      neg.push_back(c128(-a.real(), -a.imag()));
      ex.push_back(std::exp(a));
      lg.push_back(std::log(a));
      sq.push_back(std::sqrt(a));
      ab.push_back(c128(std::hypot(a.real(), a.imag()), 0));
    }
    ExpectNear(Values(negative(v).eval()), neg, 0, "negative");
    // The same C library functions (cexp, clog, csqrt, hypot) as the oracle: bit for bit.
    ExpectNear(Values(exp(v).eval()), ex, 0, "exp");
    ExpectNear(Values(log(v).eval()), lg, 0, "log");
    ExpectNear(Values(sqrt(v).eval()), sq, 0, "sqrt");
    const NDArray a = absolute(v).eval();
    EXPECT_EQ(a.type_flag(), kFloat64);  // |z| is real
    ExpectNear(Values(a), ab, 0, "absolute");
  }
  EXPECT_EQ(absolute(Make({2}, kComplex64)).eval().type_flag(), kFloat32);
  EXPECT_EQ(exp(Make({2}, kComplex64)).eval().type_flag(), kComplex64);
  // Rank 0 and empty.
  EXPECT_EQ(exp(Make({}, kComplex64)).eval().ndim(), 0);
  EXPECT_EQ(sqrt(Make({0, 3}, kComplex128)).eval().numel(), 0);
}

TEST(Complex, ComparisonsAreNumPysLexicographicOrder) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<c128> xs = {{1, 2},  {1, 2},   {1, 3},   {0, 5},
                                {2, -1}, {nan, 0}, {1, nan}, {1, 0}};
  const std::vector<c128> ys = {{1, 2}, {1, 3}, {1, 2}, {1, -5}, {1, 9}, {0, 0}, {2, 0}, {1, nan}};
  NDArray a = NDArray::Empty({8}, kComplex128), b = NDArray::Empty({8}, kComplex128);
  for (index_t k = 0; k < 8; ++k) {
    static_cast<c128*>(a.data_ptr())[k] = xs[k];
    static_cast<c128*>(b.data_ptr())[k] = ys[k];
  }
  // NumPy 1.24: a < b is (ar < br and neither imag is NaN) or (ar == br and ai < bi).
  auto lt = [](c128 x, c128 y) {
    return (x.real() < y.real() && !std::isnan(x.imag()) && !std::isnan(y.imag())) ||
           (x.real() == y.real() && x.imag() < y.imag());
  };
  auto le = [](c128 x, c128 y) {
    return (x.real() < y.real() && !std::isnan(x.imag()) && !std::isnan(y.imag())) ||
           (x.real() == y.real() && x.imag() <= y.imag());
  };
  const NDArray r_lt = (a < b).eval(), r_le = (a <= b).eval(), r_gt = (a > b).eval(),
                r_ge = (a >= b).eval(), r_eq = (a == b).eval(), r_ne = (a != b).eval();
  for (index_t k = 0; k < 8; ++k) {
    const c128 x = xs[k], y = ys[k];
    EXPECT_EQ(r_lt.at<bool>({k}), lt(x, y)) << k;
    EXPECT_EQ(r_le.at<bool>({k}), le(x, y)) << k;
    EXPECT_EQ(r_gt.at<bool>({k}), lt(y, x)) << k;
    EXPECT_EQ(r_ge.at<bool>({k}), le(y, x)) << k;
    EXPECT_EQ(r_eq.at<bool>({k}), x == y) << k;
    EXPECT_EQ(r_ne.at<bool>({k}), x != y) << k;
  }
  // maximum/minimum: the first NaN-holding operand, else the lexicographic extreme.
  const std::vector<c128> mx = Values(maximum(a, b).eval()), mn = Values(minimum(a, b).eval());
  for (int k = 0; k < 8; ++k) {
    const c128 x = xs[k], y = ys[k];
    const bool xn = std::isnan(x.real()) || std::isnan(x.imag());
    const bool yn = std::isnan(y.real()) || std::isnan(y.imag());
    const c128 wmax = xn ? x : yn ? y : (le(y, x) ? x : y);
    const c128 wmin = xn ? x : yn ? y : (le(x, y) ? x : y);
    ExpectNear({mx[k]}, {wmax}, 0, "maximum " + std::to_string(k));
    ExpectNear({mn[k]}, {wmin}, 0, "minimum " + std::to_string(k));
  }
  // Mixed with a real operand: compared as complex with a zero imaginary part.
  const NDArray r = (Make({3}, kComplex64) == astype(Make({3}, kComplex64), kFloat32)).eval();
  for (index_t k = 0; k < 3; ++k) {
    EXPECT_EQ(r.at<bool>({k}), Values(Make({3}, kComplex64))[k].imag() == 0) << k;
  }
  // where and the logical ops read complex as bool.
  const NDArray w = where(Make({4}, kBool), Make({4}, kComplex64), c128(9, 9)).eval();
  EXPECT_EQ(w.type_flag(), kComplex64);
  EXPECT_EQ(logical_not(zeros({2}, kComplex128)).eval().at<bool>({0}), true);
}

TEST(Complex, OpsWithoutComplexLoopsThrowTypeError) {
  const NDArray z = Make({3}, kComplex128);
  for (auto f : std::vector<std::function<NDArray()>>{
           [&] { return floor_divide(z, z).eval(); }, [&] { return remainder(z, z).eval(); },
           [&] { return bitwise_and(z, z).eval(); }, [&] { return arctan2(z, z).eval(); },
           [&] { return floor(z).eval(); }, [&] { return sign(z).eval(); }, [&] { return max(z); },
           [&] { return var(z); }, [&] { return argmax(z); }, [&] { return sort(z); },
           [&] { return clip(z, 0, 1).eval(); }}) {
    EXPECT_THROW(f(), TypeError);
  }
  try {
    sort(z);
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("complex128"), std::string::npos) << e.what();
  }
}

// ------------------------------------------------------------------ reductions

TEST(Complex, SumProdMean) {
  const NDArray z = Make({4, 6}, kComplex128, 1);
  for (const NDArray& v : Layouts(z)) {
    const index_t r = v.size(0), c = v.size(1);
    const std::vector<c128> x = Values(v);
    std::vector<c128> s0(c), p0(c, c128(1, 0)), s1(r), m1(r);
    c128 all(0, 0);
    for (index_t i = 0; i < r; ++i) {
      for (index_t j = 0; j < c; ++j) {
        const c128 e = x[i * c + j];
        s0[j] += e;
        p0[j] *= e;
        s1[i] += e;
        all += e;
      }
    }
    for (index_t i = 0; i < r; ++i) m1[i] = s1[i] / static_cast<double>(c);
    // Different summation orders than the naive loop: within a few ulps of the sum's terms.
    ExpectNear(Values(sum(v, 0)), s0, 1e-14, "sum axis 0");
    ExpectNear(Values(sum(v, 1)), s1, 1e-14, "sum axis 1");
    ExpectNear(Values(sum(v)), {all}, 1e-14, "sum all");
    ExpectNear(Values(prod(v, 0)), p0, 1e-14, "prod axis 0");
    ExpectNear(Values(mean(v, 1)), m1, 1e-14, "mean axis 1");
    EXPECT_EQ(sum(v, 1, true).sizes(), (std::vector<index_t>{r, 1}));
  }
  EXPECT_EQ(sum(Make({3}, kComplex64)).type_flag(), kComplex64);
  EXPECT_EQ(mean(Make({3}, kComplex64)).type_flag(), kComplex64);
  // Empty reductions: the identities; mean of nothing is nan+nanj.
  ExpectNear(Values(sum(zeros({0, 2}, kComplex64), 0)), {c128(0, 0), c128(0, 0)}, 0, "empty sum");
  ExpectNear(Values(prod(zeros({0}, kComplex128))), {c128(1, 0)}, 0, "empty prod");
  const c128 m = Values(mean(zeros({0}, kComplex128)))[0];
  EXPECT_TRUE(std::isnan(m.real()) && std::isnan(m.imag()));
  // any / all: nonzero means either part.
  EXPECT_TRUE(item<bool>(any(Make({3}, kComplex64))));
  EXPECT_FALSE(item<bool>(all(zeros({2}, kComplex64))));
}

// ------------------------------------------------------------------ matmul

std::vector<c128> NaiveMatmul(const std::vector<c128>& a, const std::vector<c128>& b, index_t m,
                              index_t k, index_t n) {
  std::vector<c128> c(static_cast<std::size_t>(m * n));
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j)
      for (index_t l = 0; l < k; ++l) c[i * n + j] += a[i * k + l] * b[l * n + j];
  return c;
}

TEST(Complex, MatmulOnTheBlas) {
  for (int flag : {kComplex64, kComplex128}) {
    const double rel = flag == kComplex64 ? 2e-6 : 1e-14;
    const NDArray a = Make({3, 5}, flag, 1), b = Make({5, 4}, flag, 2);
    const NDArray c = matmul(a, b);
    EXPECT_EQ(c.type_flag(), flag);
    ExpectNear(Values(c), NaiveMatmul(Values(a), Values(b), 3, 5, 4), rel, "matmul");
    // A transposed operand (read in place by the BLAS) and a strided one (copied).
    const NDArray at = Make({5, 3}, flag, 1).transpose(0, 1);
    ExpectNear(Values(matmul(at, b)), NaiveMatmul(Values(at), Values(b), 3, 5, 4), rel, "a.T @ b");
    const NDArray bs = Make({10, 4}, flag, 2).slice(0, 0, 10, 2);
    ExpectNear(Values(matmul(a, bs)), NaiveMatmul(Values(a), Values(bs), 3, 5, 4), rel, "strided");
    // Matrix @ vector, vector @ vector, and broadcast batches.
    const NDArray v = Make({5}, flag, 4);
    ExpectNear(Values(matmul(a, v)), NaiveMatmul(Values(a), Values(v), 3, 5, 1), rel, "mat @ vec");
    ExpectNear(Values(dot(v, v)), NaiveMatmul(Values(v), Values(v), 1, 5, 1), rel, "vdot");
    const NDArray batch = Make({2, 3, 5}, flag, 6);
    const NDArray cb = matmul(batch, b);
    EXPECT_EQ(cb.sizes(), (std::vector<index_t>{2, 3, 4}));
    const std::vector<c128> bv = Values(batch), cv = Values(cb);
    for (index_t i = 0; i < 2; ++i) {
      const std::vector<c128> ai(bv.begin() + i * 15, bv.begin() + (i + 1) * 15);
      const std::vector<c128> ci(cv.begin() + i * 12, cv.begin() + (i + 1) * 12);
      ExpectNear(ci, NaiveMatmul(ai, Values(b), 3, 5, 4), rel, "batch");
    }
  }
  // Mixed dtypes promote (complex64 @ float64 -> complex128); empty products give zeros.
  EXPECT_EQ(matmul(Make({2, 2}, kComplex64), ones({2, 2}, kFloat64)).type_flag(), kComplex128);
  ExpectNear(Values(matmul(zeros({2, 0}, kComplex64), zeros({0, 3}, kComplex64))),
             std::vector<c128>(6), 0, "k = 0");
}

// ------------------------------------------------------------------ parts and views

TEST(Complex, RealImagConjAngle) {
  const NDArray z = Make({3, 4}, kComplex64, 2);
  for (const NDArray& v : Layouts(z)) {
    const std::vector<c128> x = Values(v);
    const NDArray re = real(v), im = imag(v);
    EXPECT_EQ(re.type_flag(), kFloat32);
    EXPECT_EQ(re.sizes(), v.sizes());
    std::vector<c128> wr, wi, wc, wa;
    for (c128 e : x) {
      wr.push_back(c128(e.real(), 0));
      wi.push_back(c128(e.imag(), 0));
      wc.push_back(c128(e.real(), -e.imag()));
      wa.push_back(c128(std::atan2(static_cast<float>(e.imag()), static_cast<float>(e.real())), 0));
    }
    ExpectNear(Values(re), wr, 0, "real");
    ExpectNear(Values(im), wi, 0, "imag");
    ExpectNear(Values(conj(v)), wc, 0, "conj");
    const NDArray ang = angle(v);
    EXPECT_EQ(ang.type_flag(), kFloat32);
    ExpectNear(Values(ang), wa, 0, "angle");
  }
  // The parts are views: writing through them changes the array.
  NDArray w = Make({2, 3}, kComplex128).Clone();
  imag(w).Fill(7.0);
  real(w.transpose(0, 1)).Fill(-2.0);
  ExpectNear(Values(w), std::vector<c128>(6, c128(-2, 7)), 0, "written through the views");
  EXPECT_EQ(view_as_real(w).sizes(), (std::vector<index_t>{2, 3, 2}));
  EXPECT_EQ(view_as_real(w).at<double>({1, 2, 1}), 7.0);
  EXPECT_THROW(view_as_real(ones({2})), TypeError);
  // Real arrays: real is the array itself, imag read-only zeros, conj a copy, angle 0 or pi.
  const NDArray d = astype(Make({4}, kComplex128, 1), kFloat64);
  EXPECT_TRUE(real(d).is_same(d));
  EXPECT_FALSE(imag(d).writeable());
  ExpectNear(Values(imag(d)), std::vector<c128>(4), 0, "imag of real");
  std::vector<c128> da;
  for (c128 e : Values(d)) da.push_back(c128(std::atan2(0.0, e.real()), 0));
  ExpectNear(Values(angle(d)), da, 0, "angle of real");
  const std::vector<c128> deg = Values(angle(Make({3}, kComplex128), true));
  const std::vector<c128> rad = Values(angle(Make({3}, kComplex128)));
  for (int k = 0; k < 3; ++k) EXPECT_EQ(deg[k].real(), rad[k].real() * (180.0 / 3.141592653589793));
  // iscomplex / isreal / iscomplexobj.
  const NDArray ic = iscomplex(Make({8}, kComplex64));
  const std::vector<c128> mv = Values(Make({8}, kComplex64));
  for (index_t k = 0; k < 8; ++k) {
    EXPECT_EQ(ic.at<bool>({k}), mv[k].imag() != 0);
    EXPECT_EQ(isreal(Make({8}, kComplex64)).at<bool>({k}), mv[k].imag() == 0);
  }
  EXPECT_TRUE(iscomplexobj(z));
  EXPECT_FALSE(iscomplexobj(d));
  EXPECT_TRUE(isrealobj(d));
  EXPECT_FALSE(item<bool>(any(iscomplex(d))));
  EXPECT_TRUE(item<bool>(all(isreal(d))));
  // Rank 0 and empty.
  EXPECT_EQ(real(Make({}, kComplex64)).ndim(), 0);
  EXPECT_EQ(conj(Make({0}, kComplex64)).numel(), 0);
}

// ------------------------------------------------------------------ printing

NDArray FromValues(std::vector<index_t> shape, const std::vector<c128>& v, int flag) {
  NDArray a = NDArray::Empty(shape, kComplex128);
  for (std::size_t k = 0; k < v.size(); ++k) static_cast<c128*>(a.data_ptr())[k] = v[k];
  return astype(a, flag);
}

TEST(Complex, PrintsAsNumPy) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // Expected texts: repr() of the same arrays in NumPy 1.24.
  EXPECT_EQ(NumPyRepr(FromValues({2}, {{1, 2}, {-0.0, -1}}, kComplex128)),
            "array([ 1.+2.j, -0.-1.j])");
  EXPECT_EQ(NumPyRepr(FromValues({2}, {{1, 2}, {-0.0, -1}}, kComplex64)),
            "array([ 1.+2.j, -0.-1.j], dtype=complex64)");
  EXPECT_EQ(
      NumPyRepr(FromValues({2, 2}, {{1.5, 2}, {3, -0.25}, {nan, 1}, {nan, -inf}}, kComplex128)),
      "array([[1.5+2.j  , 3. -0.25j],\n       [nan+1.j  , nan -infj]])");
  EXPECT_EQ(NumPyRepr(FromValues({}, {{1, 2}}, kComplex128)), "array(1.+2.j)");
  EXPECT_EQ(NumPyRepr(zeros({0}, kComplex64)), "array([], dtype=complex64)");
  EXPECT_EQ(NumPyRepr(FromValues({2}, {{1e-5, 1e5}, {2, 3}}, kComplex128)),
            "array([1.e-05+1.e+05j, 2.e+00+3.e+00j])");
  EXPECT_EQ(NumPyRepr(FromValues({2}, {{0.1, 0.2}, {1.0 / 3, 0}}, kComplex64)),
            "array([0.1       +0.2j, 0.33333334+0.j ], dtype=complex64)");
  // str of a complex scalar: Python's complex repr ("(1+2j)", "2j").
  EXPECT_EQ(NumPyStr(FromValues({}, {{1, 2}}, kComplex128)), "(1+2j)");
  EXPECT_EQ(NumPyStr(FromValues({}, {{0, 2}}, kComplex128)), "2j");
  EXPECT_EQ(NumPyStr(FromValues({}, {{1e20, 1}}, kComplex64)), "(1e+20+1j)");
}

// ------------------------------------------------------------------ .npy / .npz / DLPack

TEST(Complex, NpyNpzRoundTrip) {
  const std::string dir = ::testing::TempDir();
  for (int flag : {kComplex64, kComplex128}) {
    const NDArray z = Make({3, 4}, flag, 3);
    EXPECT_EQ(io::NpyDescr(flag), flag == kComplex64 ? "<c8" : "<c16");
    EXPECT_EQ(io::NpyDescr(flag, '>'), flag == kComplex64 ? ">c8" : ">c16");
    for (char order : {'<', '>'}) {
      const std::string path = dir + "/complex_" + std::to_string(flag) + order + ".npy";
      io::NpyWriteOptions opts;
      opts.byte_order = order;
      io::SaveNpy(path, z.transpose(0, 1), opts);
      const NDArray back = io::LoadNpy(path);
      EXPECT_EQ(back.type_flag(), flag);
      ExpectNear(Values(back), Values(z.transpose(0, 1)), 0, std::string("npy ") + order);
      std::remove(path.c_str());
    }
    const std::string npz = dir + "/complex.npz";
    io::SaveNpz(npz, {{"z", z}, {"e", zeros({0}, flag)}}, true);
    auto loaded = io::LoadNpz(npz);
    ExpectNear(Values(loaded.at("z")), Values(z), 0, "npz");
    EXPECT_EQ(loaded.at("e").type_flag(), flag);
    std::remove(npz.c_str());
  }
}

TEST(Complex, DLPackRoundTrip) {
  for (int flag : {kComplex64, kComplex128}) {
    const DLDataType t = io::ToDLDataType(flag);
    EXPECT_EQ(t.code, kDLComplex);
    EXPECT_EQ(t.bits, flag == kComplex64 ? 64 : 128);
    EXPECT_EQ(io::FromDLDataType(t), flag);
    const NDArray z = Make({2, 5}, flag).slice(1, 0, 5, 2);
    const NDArray back = io::FromDLPack(io::ToDLPack(z));
    EXPECT_EQ(back.data_ptr(), z.data_ptr());  // shared, not copied
    ExpectNear(Values(back), Values(z), 0, "dlpack");
  }
}

// ------------------------------------------------------------------ static front end

TEST(Complex, StaticFrontEndSharesTheLayout) {
  // A complex NDArray is a typed static tensor of complex128_t without a copy...
  const NDArray a = Make({3, 4}, kComplex128, 1), b = Make({3, 4}, kComplex128, 2);
  const Tensor<cpu, 2, complex128_t> ta = ToTensor<cpu, 2, complex128_t>(a);
  EXPECT_EQ(ta.dptr_, a.data_ptr());
  EXPECT_EQ(ta[1][2], Values(a)[6]);
  // ...and its view_as_real is the interleaved (re, im) float layout the static front end's
  // complex extension (mshadow's complex_mul_cc, ...) computes on: both give a * b.
  NDArray out = zeros({3, 8}, kFloat64);
  Tensor<cpu, 2, double> to = ToTensor<cpu, 2, double>(out);
  to = expr::complex_mul_cc(ToTensor<cpu, 2, double>(view_as_real(a).view({3, 8})),
                            ToTensor<cpu, 2, double>(view_as_real(b).view({3, 8})));
  const NDArray as_complex = view_dtype(out, kComplex128);
  EXPECT_EQ(as_complex.sizes(), (std::vector<index_t>{3, 4}));
  // The static path may fuse the products into FMAs: within an ulp of the dynamic result.
  ExpectNear(Values(as_complex), Values((a * b).eval()), 1e-15, "complex_mul_cc");
}

}  // namespace
}  // namespace shade
