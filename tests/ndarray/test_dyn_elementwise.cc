// Elementwise ops on NDArray against NumPy (tests/data/dyn/cases.txt from make_oracle.py, NEP 50
// promotion): every op over broadcast operand pairs, weak scalars on either side, special
// values; each case also run on non-contiguous inputs (transposed / strided views) and into a
// non-contiguous out=. Integers and bool compare exactly; floats exactly for the exactly-rounded
// ops and within kMathUlps units in the last place for the transcendental ones (Highway's packet
// math and NumPy's own SIMD loops differ by a few ulps). Then: in-place forms, views, rank 0,
// empty arrays, large threaded / tiled arrays against a naive loop, and every error path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dyn2_oracle.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {
namespace {

constexpr double kMathUlps = 4;  // exp, log, tanh, ... in float32/float64
// float16/bfloat16 results are computed in float and rounded once: within 1 ulp of NumPy's.
constexpr double kHalfUlps = 1;

OpCode OpOf(const std::string& name) {
  for (int i = 0; i < static_cast<int>(OpCode::kNumOps); ++i) {
    if (name == OpName(static_cast<OpCode>(i))) return static_cast<OpCode>(i);
  }
  ADD_FAILURE() << "unknown op " << name;
  return OpCode::kAdd;
}

// Ops whose float results may differ from NumPy's by a few ulps: power and the costly float
// math of the registry (sqrt, floor, ceil, copysign are exact).
bool Transcendental(OpCode op) {
  const OpTraits& t = OpTraitsOf(op);
  const bool float_math =
      t.category == OpCategory::kFloatUnary || t.category == OpCategory::kFloatBinary;
  return op == OpCode::kPower || (float_math && t.cost > 4);
}

void ExpectSameValues(const NDArray& got, const NDArray& want, OpCode op, const std::string& what) {
  ASSERT_EQ(TypeFlagName(got.type_flag()), std::string(TypeFlagName(want.type_flag()))) << what;
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  const int flag = want.type_flag();
  const bool is_float = KindOf(flag) == DTypeKind::kFloat;
  for (index_t i = 0; i < want.numel(); ++i) {
    if (!is_float) {
      EXPECT_EQ(dyn2::ExactAt(got, i), dyn2::ExactAt(want, i)) << what << " element " << i;
      continue;
    }
    const double g = dyn2::At(got, i), e = dyn2::At(want, i);
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(g)) << what << " element " << i << ": got " << g << ", NumPy nan";
    } else if (std::isinf(e) || !Transcendental(op)) {
      EXPECT_EQ(g, e) << what << " element " << i;
    } else {
      const double ulps = flag == kFloat16 ? kHalfUlps : kMathUlps;
      EXPECT_LE(std::fabs(g - e), ulps * dyn2::Ulp(flag, e))
          << what << " element " << i << ": got " << g << ", NumPy " << e;
    }
  }
}

// The same values as a non-contiguous view: transposed storage for rank >= 2, every other
// element (from offset 1) of a larger array for rank 1.
NDArray NonContiguous(const NDArray& a) {
  return a.ndim() >= 2 ? dyn2::Transposed(a) : dyn2::Strided(a);
}

struct Case {
  OpCode op;
  std::vector<Expr> ins;        // contiguous operands / weak scalars
  std::vector<Expr> strided;    // the same values as non-contiguous views
  NDArray want;                 // undefined: NumPy raised
  std::string text;
};

std::vector<Case> ReadCases() {
  std::ifstream in(std::string(SHADE_TEST_DATA_DIR) + "/dyn/cases.txt");
  EXPECT_TRUE(in.good()) << "missing cases.txt (run tests/data/dyn/make_oracle.py)";
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> w = dyn2::Words(line);
    if (w.empty()) continue;
    if (w[0] == "case") {
      cases.push_back(Case{OpOf(w[1]), {}, {}, NDArray(), line});
    } else if (w[0] == "in") {
      Case& c = cases.back();
      c.text += " | " + line.substr(0, 60);
      if (w[1] == "int") {
        c.ins.emplace_back(static_cast<std::int64_t>(std::stoll(w[2])));
        c.strided.emplace_back(static_cast<std::int64_t>(std::stoll(w[2])));
      } else if (w[1] == "float") {
        c.ins.emplace_back(std::strtod(w[2].c_str(), nullptr));
        c.strided.emplace_back(std::strtod(w[2].c_str(), nullptr));
      } else {
        NDArray a = dyn2::ParseArray(w);
        c.ins.emplace_back(a);
        c.strided.emplace_back(NonContiguous(a));
      }
    } else if (w[0] == "out") {
      if (w[1] != "error") cases.back().want = dyn2::ParseArray(w);
    }
  }
  return cases;
}

Expr Build(OpCode op, const std::vector<Expr>& in) {
  switch (in.size()) {
    case 1: return Expr::Make(op, in[0]);
    case 2: return Expr::Make(op, in[0], in[1]);
    default: return Expr::Make(op, in[0], in[1], in[2]);
  }
}

TEST(DynElementwise, NumPyOracleEveryOpContiguousStridedAndOut) {
  const std::vector<Case> cases = ReadCases();
  ASSERT_GT(cases.size(), 1000u);
  std::set<int> ops_seen;
  int errors = 0;
  for (const Case& c : cases) {
    ops_seen.insert(static_cast<int>(c.op));
    if (!c.want.defined()) {
      EXPECT_THROW(Build(c.op, c.ins).eval(), Error) << c.text;
      ++errors;
      continue;
    }
    NDArray got;
    ASSERT_NO_THROW(got = Build(c.op, c.ins).eval()) << c.text;
    ExpectSameValues(got, c.want, c.op, "contiguous: " + c.text);
    ExpectSameValues(Build(c.op, c.strided).eval(), c.want, c.op, "strided: " + c.text);
    // out= into a non-contiguous array of the result dtype.
    NDArray out = NonContiguous(NDArray::Empty(c.want.sizes(), c.want.type_flag()));
    Build(c.op, c.strided).eval(out);
    ExpectSameValues(out, c.want, c.op, "out=: " + c.text);
  }
  EXPECT_EQ(ops_seen.size(), static_cast<std::size_t>(OpCode::kNumOps));  // every op
  EXPECT_GT(errors, 20);
}

// NaN != x is true in every lane (x86's packet Ne is the ordered compare, false for NaN);
// the naive loop compares in double.
TEST(DynElementwise, NotEqualIsTrueForNaNInEveryLane) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int flag : {kFloat16, kBfloat16, kFloat32, kFloat64}) {
    NDArray a = NDArray::Empty({37}, flag), b = NDArray::Empty({37}, flag);
    for (index_t i = 0; i < 37; ++i) {
      a.set({i}, i % 3 == 0 ? nan : static_cast<double>(i % 5));
      b.set({i}, i % 4 == 0 ? nan : static_cast<double>(i % 7));
    }
    const NDArray ne = not_equal(a, b), ne0 = not_equal(a, 0), eq = equal(a, b);
    for (index_t i = 0; i < 37; ++i) {
      EXPECT_EQ(ne.at<bool>(i), a.get({i}) != b.get({i})) << TypeFlagName(flag) << " element " << i;
      EXPECT_EQ(ne0.at<bool>(i), a.get({i}) != 0.0) << TypeFlagName(flag) << " element " << i;
      EXPECT_EQ(eq.at<bool>(i), a.get({i}) == b.get({i})) << TypeFlagName(flag) << " element " << i;
    }
  }
}

// Ties between 0.0 and -0.0 and NaNs in either operand, in the packet body and the tail.
// Oracle: NumPy 1.24 (/usr/bin/python3 on Debian 12) gives the second operand on a tie:
// np.signbit(np.maximum(0.0, -0.0)) is True, np.signbit(np.maximum(-0.0, 0.0)) is False, and the
// same for np.minimum and for float32 arrays; a NaN on either side is the result.
TEST(DynElementwise, MaximumAndMinimumTiesAndNaNsAreNumPys) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int flag : {kFloat16, kBfloat16, kFloat32, kFloat64}) {
    NDArray a = NDArray::Empty({37}, flag), b = NDArray::Empty({37}, flag);
    for (index_t i = 0; i < 37; ++i) {
      const int k = static_cast<int>(i % 6);  // 0/-0, -0/0, NaN/1, 1/NaN, 2/3, 3/2
      const double x[6] = {0.0, -0.0, nan, 1.0, 2.0, 3.0};
      const double y[6] = {-0.0, 0.0, 1.0, nan, 3.0, 2.0};
      a.set({i}, x[k]);
      b.set({i}, y[k]);
    }
    for (bool is_max : {true, false}) {
      const NDArray got = is_max ? maximum(a, b) : minimum(a, b);
      for (index_t i = 0; i < 37; ++i) {
        const double x = a.get({i}), y = b.get({i}), r = got.get({i});
        const std::string what = std::string(is_max ? "maximum(" : "minimum(") + std::to_string(x) +
                                 ", " + std::to_string(y) + ") " + TypeFlagName(flag) +
                                 " element " + std::to_string(i);
        if (std::isnan(x) || std::isnan(y)) {
          EXPECT_TRUE(std::isnan(r)) << what;
        } else if (x == y) {
          EXPECT_EQ(std::signbit(r), std::signbit(y)) << what << ": a tie gives the second operand";
        } else {
          EXPECT_EQ(r, is_max ? std::max(x, y) : std::min(x, y)) << what;
        }
      }
    }
  }
}

// Reference for the large tests: a naive loop in double.
template <typename F>
std::vector<double> Naive(index_t n, F f) {
  std::vector<double> r(n);
  for (index_t i = 0; i < n; ++i) r[i] = f(i);
  return r;
}

NDArray Iota(std::vector<index_t> shape, int flag, double scale, double offset) {
  NDArray a = NDArray::Empty(shape, flag);
  DispatchDType(flag, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(a.data_ptr());
    for (index_t i = 0; i < a.numel(); ++i) p[i] = T(std::fmod(i * scale, 7.0) + offset);
  });
  return a;
}

TEST(DynElementwise, LargeThreadedFusedAndBroadcast) {
  const index_t n = index_t(1) << 18;  // above the parallel grain
  NDArray a = Iota({n}, kFloat32, 0.37, -3), b = Iota({n}, kFloat32, 0.11, 0.5), d = Iota({n}, kFloat32, 0.05, -2);
  NDArray c = a * b + exp(d);
  ASSERT_EQ(c.type_flag(), kFloat32);
  const float* pa = a.data<float>();
  const float* pb = b.data<float>();
  const float* pd = d.data<float>();
  const float* pc = c.data<float>();
  for (index_t i = 0; i < n; i += 97) {
    const float ab = pa[i] * pb[i], ed = std::exp(pd[i]), want = ab + ed;
    // exp within 4 ulp, then one rounding of the sum.
    EXPECT_NEAR(pc[i], want, std::numeric_limits<float>::epsilon() * (4 * ed + std::fabs(want))) << i;
  }
  // (N,1) + (1,N) broadcast, int16 + float32 -> float32, and a transposed operand (tiled path).
  const index_t m = 300;
  NDArray col = Iota({m, 1}, kInt16, 1, -100), row = Iota({1, m}, kFloat32, 0.25, 0);
  NDArray sq = Iota({m, m}, kFloat64, 0.5, 0).transpose(0, 1);
  NDArray r = col + row * 2 - sq;
  ASSERT_EQ(r.type_flag(), kFloat64);
  ASSERT_EQ(r.shape(), TShape({m, m}));
  for (index_t i = 0; i < m; i += 7) {
    for (index_t j = 0; j < m; j += 11) {
      const double want = col.at<std::int16_t>(i, 0) + double(row.at<float>(0, j) * 2.0f) - sq.at<double>(i, j);
      EXPECT_EQ(r.at<double>(i, j), want) << i << "," << j;
    }
  }
  // Into a transposed out= (the output walks the tiled path).
  NDArray o = NDArray::Empty({m, m}, kFloat64).transpose(0, 1);
  (col + row * 2 - sq).eval(o);
  for (index_t i = 0; i < m; i += 13) {
    for (index_t j = 0; j < m; j += 5) EXPECT_EQ(o.at<double>(i, j), r.at<double>(i, j));
  }
}

TEST(DynElementwise, InPlaceAndViews) {
  NDArray a = Iota({4, 5}, kFloat32, 1, 0);
  NDArray before = a.Clone();
  NDArray same = a;
  a += 2.5;
  EXPECT_TRUE(a.is_same(same));  // written into a's storage
  for (index_t i = 0; i < 4; ++i) {
    for (index_t j = 0; j < 5; ++j) EXPECT_EQ(a.at<float>(i, j), before.at<float>(i, j) + 2.5f);
  }
  // Through a view: every other column of rows 1..2 gets multiplied.
  NDArray v = a.slice(0, 1, 3).slice(1, 0, 5, 2);
  v *= Iota({3}, kInt8, 1, 1);  // (2,3) *= (3,): int8 -> float32 is same_kind
  for (index_t i = 0; i < 4; ++i) {
    for (index_t j = 0; j < 5; ++j) {
      const float base = before.at<float>(i, j) + 2.5f;
      const bool hit = i >= 1 && i <= 2 && j % 2 == 0;
      EXPECT_EQ(a.at<float>(i, j), hit ? base * float(j / 2 + 1) : base) << i << "," << j;
    }
  }
  // Integer in-place ops; /= on integers cannot store a float (same_kind), like NumPy.
  NDArray k = Iota({6}, kInt32, 3, -9);
  NDArray k0 = k.Clone();
  k -= 4;
  k %= 3;
  for (index_t i = 0; i < 6; ++i) {
    const int x = k0.at<std::int32_t>(i) - 4;
    EXPECT_EQ(k.at<std::int32_t>(i), ((x % 3) + 3) % 3);
  }
  EXPECT_THROW(k /= 2, Error);
  EXPECT_THROW(k += 0.5, Error);
  NDArray bits = Iota({4}, kUint8, 5, 1);
  NDArray bits0 = bits.Clone();
  bits &= 6;
  bits |= 1;
  bits ^= 0xff;
  for (index_t i = 0; i < 4; ++i) {
    EXPECT_EQ(bits.at<std::uint8_t>(i), static_cast<std::uint8_t>(((bits0.at<std::uint8_t>(i) & 6) | 1) ^ 0xff));
  }
  // The operand overlaps the destination other than element for element: read from a copy
  // (NumPy's rule), so a += a.T gives a + a.T of the old values.
  NDArray s = Iota({3, 3}, kFloat64, 1, 0);
  NDArray s0 = s.Clone();
  s += s.transpose(0, 1);
  for (index_t i = 0; i < 3; ++i) {
    for (index_t j = 0; j < 3; ++j) EXPECT_EQ(s.at<double>(i, j), s0.at<double>(i, j) + s0.at<double>(j, i));
  }
  // A shifted view of the same row.
  NDArray row = Iota({6}, kInt64, 1, 0);
  row.narrow(0, 1, 5) += row.narrow(0, 0, 5);
  const std::int64_t expect[] = {0, 1, 3, 5, 7, 9};
  for (index_t i = 0; i < 6; ++i) EXPECT_EQ(row.at<std::int64_t>(i), expect[i]);
}

TEST(DynElementwise, RankZeroEmptyAndScalars) {
  NDArray z = NDArray::Empty({}, kFloat64);
  z.Fill(2);
  NDArray r = z * 3 + 1;
  EXPECT_EQ(r.ndim(), 0);
  EXPECT_EQ(r.at<double>(), 7.0);
  // A rank-0 array is strong (unlike a scalar): float64 0-d with float32 -> float64.
  NDArray f = Iota({3}, kFloat32, 1, 0);
  EXPECT_EQ((f + z).eval().type_flag(), kFloat64);
  EXPECT_EQ((f + 2.0).eval().type_flag(), kFloat32);
  EXPECT_EQ((f + 2).eval().type_flag(), kFloat32);
  EXPECT_EQ((Iota({3}, kInt8, 1, 0) + 2.0).eval().type_flag(), kFloat64);
  EXPECT_EQ((Iota({3}, kBool, 1, 0) + 2).eval().type_flag(), kInt64);
  EXPECT_EQ(Expr(2).eval().type_flag(), kInt64);
  EXPECT_EQ(exp(Expr(0)).eval().at<double>(), 1.0);
  EXPECT_EQ(Expr(true).eval().type_flag(), kBool);
  EXPECT_EQ((Iota({2}, kUint64, 1, 0) + (std::uint64_t(1) << 63)).eval().type_flag(), kUint64);
  // Empty arrays broadcast to empty results; (0,3) with (1,3).
  NDArray e = NDArray::Empty({0, 3}, kInt32);
  NDArray er = e + Iota({1, 3}, kInt32, 1, 0);
  EXPECT_EQ(er.shape(), TShape({0, 3}));
  EXPECT_EQ(er.type_flag(), kInt32);
  NDArray eo = NDArray::Empty({0, 3}, kFloat32);
  EXPECT_NO_THROW(sqrt(e, eo));
  // Lazy metadata without computing.
  Expr x = Iota({2, 1}, kInt16, 1, 0) * Iota({3}, kFloat16, 1, 0);
  EXPECT_EQ(x.dtype(), kFloat32);
  EXPECT_EQ(x.shape(), TShape({2, 3}));
  // Functions, operators and out= forms agree.
  NDArray p = Iota({5}, kFloat32, 0.7, -2), q = Iota({5}, kFloat32, 0.3, 0.5);
  NDArray o = NDArray::Empty({5}, kFloat64);  // float32 result stored as float64 (safe)
  add(p, q, o);
  for (index_t i = 0; i < 5; ++i) EXPECT_EQ(o.at<double>(i), double(p.at<float>(i) + q.at<float>(i)));
  NDArray w = where(p > 0, p, -q);
  NDArray cl = clamp(p, -1, 1);
  NDArray nt = !(p > 0);
  NDArray mx = maximum(p, 0.5);
  for (index_t i = 0; i < 5; ++i) {
    const float pv = p.at<float>(i), qv = q.at<float>(i);
    EXPECT_EQ(w.at<float>(i), pv > 0 ? pv : -qv);
    EXPECT_EQ(cl.at<float>(i), std::min(std::max(pv, -1.0f), 1.0f));
    EXPECT_EQ(nt.at<bool>(i), !(pv > 0));
    EXPECT_EQ(mx.at<float>(i), std::max(pv, 0.5f));
  }
  NDArray inv = ~Iota({3}, kInt8, 1, 0);
  EXPECT_EQ(inv.at<std::int8_t>(1), static_cast<std::int8_t>(~1));
}

TEST(DynElementwise, IntegerEdgeCases) {
  // Division by zero gives 0 (NumPy's result; NumPy also warns), MIN // -1 wraps to MIN,
  // MIN % -1 is 0, negative exponents throw, overflow wraps.
  NDArray a = NDArray::Empty({4}, kInt32), b = NDArray::Empty({4}, kInt32);
  const std::int32_t av[] = {7, -7, std::numeric_limits<std::int32_t>::min(), 5};
  const std::int32_t bv[] = {0, 2, -1, -3};
  for (int i = 0; i < 4; ++i) {
    a.at<std::int32_t>(i) = av[i];
    b.at<std::int32_t>(i) = bv[i];
  }
  NDArray q = floor_divide(a, b), r = remainder(a, b);
  const std::int32_t wq[] = {0, -4, std::numeric_limits<std::int32_t>::min(), -2};
  const std::int32_t wr[] = {0, 1, 0, -1};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(q.at<std::int32_t>(i), wq[i]) << i;
    EXPECT_EQ(r.at<std::int32_t>(i), wr[i]) << i;
  }
  NDArray big = a * 1000000;  // wraps like NumPy's int32
  EXPECT_EQ(big.at<std::int32_t>(0), 7000000);
  EXPECT_EQ(big.at<std::int32_t>(2), 0);
  EXPECT_EQ((-a).eval().at<std::int32_t>(2), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(abs(a).eval().at<std::int32_t>(2), std::numeric_limits<std::int32_t>::min());
  NDArray p = power(a, 2);
  EXPECT_EQ(p.at<std::int32_t>(1), 49);
  try {
    power(a, b).eval();
    ADD_FAILURE() << "no throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("negative integer powers"), std::string::npos) << e.what();
  }
}

std::string Message(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no exception)";
}

void ExpectMessage(const std::function<void()>& f, std::initializer_list<const char*> parts) {
  const std::string m = Message(f);
  for (const char* p : parts) EXPECT_NE(m.find(p), std::string::npos) << "'" << p << "' not in: " << m;
}

// The registry's ufuncs through their generated free functions: broadcasting, weak scalars,
// out= (also non-contiguous), and the same values as the op-code path the oracle test runs.
TEST(DynElementwise, RegistryUfuncsFreeFunctionsAndOut) {
  NDArray a = Iota({2, 1, 3}, kFloat32, 0.7, 0.25), b = Iota({4, 1}, kInt8, 1, -3);
  struct Binary {
    OpCode op;
    Expr (*lazy)(Expr, Expr);
    const NDArray& (*into)(Expr, Expr, const NDArray&);
  };
  const Binary binary[] = {{OpCode::kArctan2, arctan2, arctan2},
                           {OpCode::kHypot, hypot, hypot},
                           {OpCode::kLogaddexp, logaddexp, logaddexp},
                           {OpCode::kCopysign, copysign, copysign}};
  for (const Binary& f : binary) {
    const NDArray want = Expr::Make(f.op, a, b).eval();
    ASSERT_EQ(want.type_flag(), kFloat32) << OpName(f.op);  // float32 with int8 (float16)
    ASSERT_EQ(want.ndim(), 3);
    ASSERT_EQ(want.numel(), 24) << OpName(f.op);
    ExpectSameValues(f.lazy(a, b).eval(), want, f.op, OpName(f.op));
    NDArray out = NonContiguous(NDArray::Empty({2, 4, 3}, kFloat64));
    f.into(a, b, out);  // float32 -> float64 out: same_kind
    ExpectSameValues(astype(out, kFloat32), want, f.op, std::string(OpName(f.op)) + " out=");
    EXPECT_EQ(f.lazy(b, 2).eval().type_flag(), kFloat16) << OpName(f.op);    // weak int
    EXPECT_EQ(f.lazy(b, 2.5).eval().type_flag(), kFloat64) << OpName(f.op);  // weak float
  }
  struct Unary {
    OpCode op;
    Expr (*lazy)(Expr);
    const NDArray& (*into)(Expr, const NDArray&);
  };
  const Unary unary[] = {{OpCode::kLog2, log2, log2},
                         {OpCode::kExp2, exp2, exp2},
                         {OpCode::kLog10, log10, log10},
                         {OpCode::kCbrt, cbrt, cbrt}};
  for (const Unary& f : unary) {
    const NDArray want = Expr::Make(f.op, a).eval();
    ExpectSameValues(f.lazy(a).eval(), want, f.op, OpName(f.op));
    NDArray out = NDArray::Empty({2, 1, 3}, kFloat32);
    EXPECT_EQ(&f.into(a, out), &out);
    ExpectSameValues(out, want, f.op, std::string(OpName(f.op)) + " out=");
    EXPECT_EQ(f.lazy(b).eval().type_flag(), kFloat16) << OpName(f.op);  // int8 -> float16
    // NumPy refuses the float result into an integer out (same_kind): named op and dtypes.
    NDArray iout = NDArray::Empty({4, 1}, kInt8);
    ExpectMessage([&] { f.into(b, iout); }, {OpName(f.op), "float16", "int8", "same_kind"});
  }
  // Fused with other ops (the register program takes log2, log10 and copysign; the others run
  // through the tile kernels) on an array above the parallel grain.
  const index_t n = index_t(1) << 17;
  NDArray x = Iota({n}, kFloat32, 0.37, 0.5), y = Iota({n}, kFloat32, 0.11, -3);
  const NDArray fused = copysign(log2(x) * 2 + hypot(x, y), y);
  const float* px = x.data<float>();
  const float* py = y.data<float>();
  const float* pf = fused.data<float>();
  for (index_t i = 0; i < n; i += 101) {
    const float want = std::copysign(std::log2(px[i]) * 2 + std::hypot(px[i], py[i]), py[i]);
    EXPECT_NEAR(pf[i], want, 1e-5f * (std::fabs(want) + 4)) << i;
  }
}

TEST(DynElementwise, BadInput) {
  NDArray a = Iota({2, 3}, kFloat32, 1, 0), b = Iota({4}, kFloat32, 1, 0);
  ExpectMessage([&] { (a + b).eval(); }, {"add", "could not be broadcast", "(2,3)", "(4,)"});
  ExpectMessage([&] { exp(a * b).eval(); }, {"multiply", "(2,3)", "(4,)"});
  ExpectMessage([&] { (a < b).dtype(); }, {"less", "(2,3)", "(4,)"});
  NDArray i = Iota({3}, kInt32, 1, 0);
  ExpectMessage([&] { bitwise_and(a, i).eval(); }, {"bitwise_and", "float32", "int32"});
  ExpectMessage([&] { (~a).eval(); }, {"invert", "float32"});
  NDArray t = Iota({3}, kBool, 1, 0);
  ExpectMessage([&] { (t - t).eval(); }, {"subtract", "bool"});
  ExpectMessage([&] { (-t).eval(); }, {"negative", "bool"});
  ExpectMessage([&] { sign(t).eval(); }, {"sign", "bool"});
  NDArray u8 = Iota({3}, kUint8, 1, 0);
  ExpectMessage([&] { (u8 + 300).eval(); }, {"300", "out of bounds", "uint8"});
  ExpectMessage([&] { (u8 + -1).eval(); }, {"-1", "uint8"});
  // out=: wrong shape, unsafe dtype, overlapping (expanded) view, undefined.
  NDArray wrong = NDArray::Empty({3, 2}, kFloat32);
  ExpectMessage([&] { add(a, 1, wrong); }, {"add", "out has shape (3,2)", "(2,3)"});
  NDArray iout = NDArray::Empty({2, 3}, kInt32);
  ExpectMessage([&] { add(a, 1, iout); }, {"add", "float32", "int32", "same_kind"});
  ExpectMessage([&] { true_divide(i, i, NDArray::Empty({3}, kInt32)); }, {"true_divide", "float64", "int32"});
  NDArray ex = Iota({1, 3}, kFloat32, 1, 0).expand({2, 3});
  ExpectMessage([&] { ex += 1; }, {"overlap", "expand"});
  ExpectMessage([&] { add(a, 1, NDArray()); }, {"undefined"});
  ExpectMessage([&] { Expr e = NDArray(); }, {"undefined"});
  NDArray lazy(IndexSpan{2, 3});  // sizes but no element type yet
  ExpectMessage([&] { (lazy + 1).eval(); }, {"element type"});
  ExpectMessage([&] { a += 1.5 + Iota({5}, kFloat32, 1, 0); }, {"(2,3)", "(5,)"});
  // A code that is no op (the registry's table is not read past its end).
  const OpCode bogus = static_cast<OpCode>(200);
  ExpectMessage([&] { OpName(bogus); }, {"unknown op code", "200"});
  ExpectMessage([&] { OpArity(OpCode::kNumOps); }, {"unknown op code"});
  EXPECT_EQ(OpTraitsOf(bogus).arity, 0);
  // Capacity of one expression.
  ExpectMessage(
      [&] {
        Expr e = a;
        for (int k = 0; k < 30; ++k) e = e + a;
      },
      {"nodes"});
}

}  // namespace
}  // namespace shade
