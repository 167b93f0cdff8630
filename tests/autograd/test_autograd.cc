// Autograd (shade/autograd/autograd.h): the engine; every derivative rule against central
// differences in float64 (random shapes with broadcasting, views, rank 0); second derivatives;
// the errors; and the fusion of the elementwise backward (allocation counts).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "shade/autograd/autograd.h"
#include "shade/memory/alloc.h"
#include "shade/ndarray/construct.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/einsum.h"
#include "shade/ndarray/indexing.h"
#include "shade/ndarray/lapack.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"

namespace {

using shade::AxisSet;
using shade::Expr;
using shade::index_t;
using shade::NDArray;
namespace ag = shade::autograd;

using Fn = std::function<NDArray(const std::vector<NDArray>&)>;

// Uniform values in [lo, hi), float64, requiring grad.
NDArray Rand(shade::IndexSpan shape, double lo = -1, double hi = 1, unsigned seed = 0) {
  static unsigned counter = 1;
  std::mt19937_64 rng(seed != 0 ? seed : counter++);
  std::uniform_real_distribution<double> dist(lo, hi);
  NDArray a = NDArray::Empty(shape, shade::kFloat64);
  double* p = a.data<double>();
  for (index_t i = 0; i < a.numel(); ++i) p[i] = dist(rng);
  a.set_requires_grad(true);
  return a;
}

// Element i (row-major) of any layout, as double.
double Flat(const NDArray& a, index_t i) {
  std::vector<index_t> idx(static_cast<std::size_t>(a.ndim()));
  for (int d = a.ndim() - 1; d >= 0; --d) {
    idx[static_cast<std::size_t>(d)] = i % a.size(d);
    i /= a.size(d);
  }
  return a.get(idx);
}
void SetFlat(const NDArray& a, index_t i, double v) {
  std::vector<index_t> idx(static_cast<std::size_t>(a.ndim()));
  for (int d = a.ndim() - 1; d >= 0; --d) {
    idx[static_cast<std::size_t>(d)] = i % a.size(d);
    i /= a.size(d);
  }
  a.set(idx, v);
}

// L = sum(f(xs) * w) for a fixed random w: the scalar whose gradient is checked.
double Loss(const Fn& f, const std::vector<NDArray>& xs, const NDArray& w) {
  shade::NoGradGuard off;
  const NDArray y = f(xs);
  return shade::item<double>(shade::sum(shade::multiply(shade::astype(y, shade::kFloat64), w)));
}

// Central differences against Grad for every element of every input (float64).
void GradCheck(const std::string& what, const Fn& f, const std::vector<NDArray>& xs,
               double tol = 1e-6, double eps = 1e-6) {
  SCOPED_TRACE(what);
  const NDArray y = f(xs);
  ASSERT_TRUE(y.requires_grad());
  NDArray w = Rand(y.sizes(), -1, 1, 7);
  w.set_requires_grad(false);
  const std::vector<NDArray> g = ag::Grad({y}, xs, {w});
  ASSERT_EQ(g.size(), xs.size());
  for (std::size_t k = 0; k < xs.size(); ++k) {
    ASSERT_TRUE(g[k].defined()) << "input " << k;
    ASSERT_EQ(g[k].sizes(), xs[k].sizes()) << "input " << k;
    for (index_t i = 0; i < xs[k].numel(); ++i) {
      const double x0 = Flat(xs[k], i);
      SetFlat(xs[k], i, x0 + eps);
      const double lp = Loss(f, xs, w);
      SetFlat(xs[k], i, x0 - eps);
      const double lm = Loss(f, xs, w);
      SetFlat(xs[k], i, x0);
      const double num = (lp - lm) / (2 * eps);
      const double ana = Flat(g[k], i);
      EXPECT_NEAR(ana, num, tol * (1 + std::fabs(num))) << "input " << k << " element " << i;
    }
  }
}

// ------------------------------------------------------------------ the engine

TEST(Autograd, CustomNodeAndLeafAccumulation) {
  NDArray x = shade::full({3}, 2.0, shade::kFloat64);
  x.set_requires_grad(true);
  EXPECT_TRUE(x.is_leaf());
  NDArray y = NDArray::Empty({3}, shade::kFloat64);
  for (index_t i = 0; i < 3; ++i) y.set({i}, 3 * x.get({i}));
  auto outs = ag::RecordFunction("triple", {x}, {y}, [](const std::vector<NDArray>& g) {
    return std::vector<NDArray>{shade::multiply(g[0], 3).eval()};
  });
  ASSERT_TRUE(outs[0].requires_grad());
  EXPECT_FALSE(outs[0].is_leaf());
  EXPECT_EQ(ag::GradFnName(outs[0]), "triple");
  outs[0].backward(shade::ones({3}, shade::kFloat64), true);
  EXPECT_DOUBLE_EQ(x.grad().get({1}), 3.0);
  outs[0].backward(shade::ones({3}, shade::kFloat64));
  EXPECT_DOUBLE_EQ(x.grad().get({1}), 6.0);  // leaf gradients accumulate
  x.set_grad(NDArray());
  EXPECT_FALSE(x.grad().defined());
  // The graph was freed by the second backward.
  EXPECT_THROW(outs[0].backward(shade::ones({3}, shade::kFloat64)), shade::Error);
}

TEST(Autograd, CustomNodeWithUnusedOutputAndNoGradInput) {
  NDArray x = Rand({2}), c = Rand({2});
  c.set_requires_grad(false);
  NDArray y0 = (x * c).eval(), y1 = (x + c).eval();
  {
    shade::NoGradGuard off;  // the two outputs computed outside the graph
    y0 = (x * c).eval();
    y1 = (x + c).eval();
  }
  auto outs = ag::RecordFunction("two", {x, c}, {y0, y1}, [c](const std::vector<NDArray>& g) {
    EXPECT_TRUE(g[0].defined());
    EXPECT_FALSE(g[1].defined());  // output 1 got no gradient
    return std::vector<NDArray>{(g[0] * c).eval(), NDArray()};
  });
  shade::sum(outs[0]).backward();
  for (index_t i = 0; i < 2; ++i) EXPECT_DOUBLE_EQ(x.grad().get({i}), c.get({i}));
}

TEST(Autograd, NoGradAndEnableGrad) {
  NDArray x = Rand({3});
  EXPECT_TRUE(shade::IsGradEnabled());
  {
    shade::NoGradGuard off;
    EXPECT_FALSE(shade::IsGradEnabled());
    NDArray y = (x * 2).eval();
    EXPECT_FALSE(y.requires_grad());
    {
      shade::EnableGradGuard on;
      EXPECT_TRUE((x * 2).eval().requires_grad());
    }
    EXPECT_FALSE(shade::IsGradEnabled());
  }
  EXPECT_TRUE((x * 2).eval().requires_grad());
  // Arrays outside autograd: no state at all.
  NDArray plain = shade::ones({3});
  NDArray r = (plain + plain).eval();
  EXPECT_FALSE(r.requires_grad());
  EXPECT_EQ(r.unsafeGetImpl()->autograd_meta(), nullptr);
  EXPECT_TRUE(r.is_leaf());
  EXPECT_FALSE(r.grad().defined());
}

TEST(Autograd, DetachRetainGradIsLeaf) {
  NDArray x = Rand({4});
  NDArray y = shade::exp(x).eval();
  EXPECT_FALSE(y.is_leaf());
  EXPECT_EQ(ag::GradFnName(y), "exp");
  y.retain_grad();
  NDArray d = y.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(d.is_leaf());
  EXPECT_EQ(d.data_ptr(), y.data_ptr());  // same elements
  NDArray z = shade::sum(y * y);
  z.backward();
  for (index_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(y.grad().get({i}), 2 * y.get({i}), 1e-12);
    EXPECT_NEAR(x.grad().get({i}), 2 * y.get({i}) * y.get({i}), 1e-12);
  }
  EXPECT_THROW(y.set_requires_grad(false), shade::Error);  // not a leaf
}

TEST(Autograd, GradFunctionAndAllowUnused) {
  NDArray a = Rand({3}), b = Rand({3}), unused = Rand({3});
  NDArray y = shade::sum(a * b);
  auto g = ag::Grad({y}, {a, b}, {}, true);
  for (index_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(g[0].get({i}), b.get({i}));
    EXPECT_DOUBLE_EQ(g[1].get({i}), a.get({i}));
  }
  EXPECT_FALSE(a.grad().defined());  // Grad does not accumulate
  EXPECT_THROW(ag::Grad({y}, {a, unused}, {}, true), shade::Error);
  auto g2 = ag::Grad({y}, {a, unused}, {}, false, false, true);
  EXPECT_TRUE(g2[0].defined());
  EXPECT_FALSE(g2[1].defined());
}

TEST(Autograd, Errors) {
  NDArray i = shade::ones({2}, shade::kInt32);
  EXPECT_THROW(i.set_requires_grad(true), shade::Error);
  NDArray x = Rand({2, 2});
  NDArray y = (x * x).eval();
  EXPECT_THROW(y.backward(), shade::Error);                  // not one element: grad_output needed
  EXPECT_THROW(y.backward(shade::ones({3})), shade::Error);  // wrong shape
  NDArray plain = shade::ones({2});
  EXPECT_THROW(plain.backward(), shade::Error);  // does not require grad
  // out= / in-place with an operand that requires grad, while grad mode is on.
  NDArray out = shade::zeros({2, 2});
  EXPECT_THROW(shade::multiply(x, 2, out), shade::Error);
  EXPECT_THROW(x += 1, shade::Error);
  {
    shade::NoGradGuard off;  // an optimizer step
    x -= 0.5;
  }
}

TEST(Autograd, InPlaceWriteAfterSaveIsRefused) {
  NDArray x = Rand({3});
  NDArray c = shade::full({3}, 2.0);
  NDArray y = shade::sum(x * c);
  c.Fill(3.0);  // c was saved for x's gradient
  try {
    y.backward();
    FAIL() << "expected shade::Error";
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("modified by an in-place operation"), std::string::npos)
        << e.what();
  }
  // A write through a view moves the same (storage's) counter.
  NDArray x2 = Rand({2, 3});
  NDArray c2 = shade::full({2, 3}, 2.0);
  NDArray y2 = shade::sum(x2 * c2);
  c2.select(0, 1).Fill(1.0);
  EXPECT_THROW(y2.backward(), shade::Error);
  // Writes before the forward are fine.
  NDArray y3 = shade::sum(x2 * c2);
  y3.backward();
  EXPECT_DOUBLE_EQ(x2.grad().get({1, 1}), 1.0);
}

TEST(Autograd, GradOfSharedSubgraphAndSecondBackward) {
  NDArray x = Rand({3});
  NDArray t = shade::exp(x).eval();
  NDArray y = shade::sum(t * t + t);  // t used twice
  y.backward();
  for (index_t i = 0; i < 3; ++i) {
    const double e = std::exp(x.get({i}));
    EXPECT_NEAR(x.grad().get({i}), 2 * e * e + e, 1e-12);
  }
}

// ------------------------------------------------------------------ elementwise rules

TEST(AutogradRules, BinaryOpsWithBroadcasting) {
  struct Case {
    const char* name;
    std::function<Expr(Expr, Expr)> f;
    double lo_a, hi_a, lo_b, hi_b;
  };
  const std::vector<Case> cases = {
      {"add", [](Expr a, Expr b) { return a + b; }, -1, 1, -1, 1},
      {"subtract", [](Expr a, Expr b) { return a - b; }, -1, 1, -1, 1},
      {"multiply", [](Expr a, Expr b) { return a * b; }, -1, 1, -1, 1},
      {"divide", [](Expr a, Expr b) { return a / b; }, -1, 1, 0.5, 2},
      {"power", [](Expr a, Expr b) { return shade::power(a, b); }, 0.5, 2, -1.5, 1.5},
      {"maximum", [](Expr a, Expr b) { return shade::maximum(a, b); }, -1, 1, -1, 1},
      {"minimum", [](Expr a, Expr b) { return shade::minimum(a, b); }, -1, 1, -1, 1},
      {"remainder", [](Expr a, Expr b) { return shade::remainder(a, b); }, 0.1, 0.9, 1.5, 2},
      {"arctan2", [](Expr a, Expr b) { return shade::arctan2(a, b); }, -1, 1, 0.5, 2},
      {"hypot", [](Expr a, Expr b) { return shade::hypot(a, b); }, 0.2, 1, 0.2, 1},
      {"logaddexp", [](Expr a, Expr b) { return shade::logaddexp(a, b); }, -2, 2, -2, 2},
      {"copysign", [](Expr a, Expr b) { return shade::copysign(a, b); }, 0.2, 1, -1, 1},
  };
  const std::vector<std::pair<std::vector<index_t>, std::vector<index_t>>> shapes = {
      {{2, 3}, {2, 3}}, {{3, 1, 4}, {2, 4}}, {{}, {2, 3}}, {{4}, {}}};
  for (const Case& c : cases) {
    for (const auto& s : shapes) {
      NDArray a = Rand(s.first, c.lo_a, c.hi_a), b = Rand(s.second, c.lo_b, c.hi_b);
      GradCheck(c.name, [&c](const std::vector<NDArray>& x) { return c.f(x[0], x[1]).eval(); },
                {a, b});
    }
  }
}

TEST(AutogradRules, UnaryOps) {
  struct Case {
    const char* name;
    std::function<Expr(Expr)> f;
    double lo, hi;
  };
  const std::vector<Case> cases = {
      {"negative", [](Expr a) { return -a; }, -1, 1},
      {"abs", [](Expr a) { return shade::abs(a); }, 0.1, 1},
      {"abs_neg", [](Expr a) { return shade::abs(a); }, -1, -0.1},
      {"exp", [](Expr a) { return shade::exp(a); }, -1, 1},
      {"log", [](Expr a) { return shade::log(a); }, 0.2, 2},
      {"log1p", [](Expr a) { return shade::log1p(a); }, -0.5, 2},
      {"expm1", [](Expr a) { return shade::expm1(a); }, -1, 1},
      {"sqrt", [](Expr a) { return shade::sqrt(a); }, 0.2, 2},
      {"rsqrt", [](Expr a) { return shade::rsqrt(a); }, 0.2, 2},
      {"sin", [](Expr a) { return shade::sin(a); }, -2, 2},
      {"cos", [](Expr a) { return shade::cos(a); }, -2, 2},
      {"tanh", [](Expr a) { return shade::tanh(a); }, -2, 2},
      {"sigmoid", [](Expr a) { return shade::sigmoid(a); }, -2, 2},
      {"relu", [](Expr a) { return shade::relu(a); }, 0.1, 1},
      {"relu_neg", [](Expr a) { return shade::relu(a); }, -1, -0.1},
      {"log2", [](Expr a) { return shade::log2(a); }, 0.2, 2},
      {"exp2", [](Expr a) { return shade::exp2(a); }, -1, 1},
      {"log10", [](Expr a) { return shade::log10(a); }, 0.2, 2},
      {"cbrt", [](Expr a) { return shade::cbrt(a); }, 0.2, 2},
      {"floor", [](Expr a) { return shade::floor(a) + a; }, 0.1, 0.9},
      {"square_scalar_power", [](Expr a) { return shade::power(a, 3); }, -1, 1},
  };
  for (const Case& c : cases) {
    for (const std::vector<index_t>& s : {std::vector<index_t>{}, std::vector<index_t>{2, 3}}) {
      NDArray a = Rand(s, c.lo, c.hi);
      GradCheck(c.name, [&c](const std::vector<NDArray>& x) { return c.f(x[0]).eval(); }, {a});
    }
  }
}

TEST(AutogradRules, WhereClipAndChains) {
  NDArray a = Rand({3, 4}), b = Rand({4}), lo = Rand({3, 1}, -0.5, 0), hi = Rand({4}, 0, 0.5);
  GradCheck("where",
            [](const std::vector<NDArray>& x) {
              return shade::where(x[0] > 0, x[0] * x[1], shade::exp(x[1])).eval();
            },
            {a, b});
  GradCheck("clip",
            [](const std::vector<NDArray>& x) { return shade::clip(x[0], x[1], x[2]).eval(); },
            {a, lo, hi});
  NDArray c = Rand({3, 4}, 0.5, 2);
  GradCheck("chain",
            [](const std::vector<NDArray>& x) {
              return (x[0] * x[1] + shade::exp(x[2]) - x[0] / x[2]).eval();
            },
            {a, b, c});
  // A long expression (its gradient expressions overflow one Expr and are split).
  GradCheck(
      "long",
      [](const std::vector<NDArray>& x) {
        return (shade::tanh(x[0] * x[1] + x[2]) * shade::sigmoid(x[0] - x[2]) / (x[2] * x[2] + 1) +
                shade::sin(x[0] * x[2]))
            .eval();
      },
      {a, b, c});
  // Non-contiguous (transposed) operands.
  NDArray t = Rand({4, 3});
  GradCheck("transposed",
            [](const std::vector<NDArray>& x) { return (x[0].transpose(0, 1) * x[1]).eval(); },
            {t, a});
}

TEST(AutogradRules, KinksFollowPyTorch) {
  NDArray x = NDArray::Empty({3}, shade::kFloat64);
  x.set({0}, 0.0);
  x.set({1}, 1.0);
  x.set({2}, -1.0);
  x.set_requires_grad(true);
  auto g = ag::Grad({shade::sum(shade::abs(x))}, {x});
  EXPECT_EQ(g[0].get({0}), 0.0);  // abs'(0) = 0
  g = ag::Grad({shade::sum(shade::relu(x))}, {x});
  EXPECT_EQ(g[0].get({0}), 0.0);  // relu'(0) = 0
  EXPECT_EQ(g[0].get({1}), 1.0);
  NDArray y = shade::zeros({3});
  y.set_requires_grad(true);
  g = ag::Grad({shade::sum(shade::maximum(x, y))}, {x, y});
  EXPECT_EQ(g[0].get({0}), 0.5);  // a tie splits the gradient
  EXPECT_EQ(g[1].get({0}), 0.5);
  EXPECT_EQ(g[0].get({1}), 1.0);
  EXPECT_EQ(g[1].get({2}), 1.0);
  g = ag::Grad({shade::sum(shade::clip(x, -1.0, 0.5))}, {x});
  EXPECT_EQ(g[0].get({0}), 1.0);
  EXPECT_EQ(g[0].get({1}), 0.0);
  EXPECT_EQ(g[0].get({2}), 1.0);  // at the bound: passes (lo <= x <= hi)
  // max reduction: ties share evenly.
  NDArray m = shade::full({4}, 2.0);
  m.set({1}, 1.0);
  m.set_requires_grad(true);
  g = ag::Grad({shade::max(m)}, {m});
  EXPECT_NEAR(g[0].get({0}), 1.0 / 3, 1e-15);
  EXPECT_EQ(g[0].get({1}), 0.0);
}

// ------------------------------------------------------------------ reductions

TEST(AutogradRules, Reductions) {
  using R = std::function<NDArray(const NDArray&, const AxisSet&, bool)>;
  const std::vector<std::pair<const char*, R>> ops = {
      {"sum", [](const NDArray& a, const AxisSet& ax, bool k) { return shade::sum(a, ax, k); }},
      {"mean", [](const NDArray& a, const AxisSet& ax, bool k) { return shade::mean(a, ax, k); }},
      {"prod", [](const NDArray& a, const AxisSet& ax, bool k) { return shade::prod(a, ax, k); }},
      {"max", [](const NDArray& a, const AxisSet& ax, bool k) { return shade::max(a, ax, k); }},
      {"min", [](const NDArray& a, const AxisSet& ax, bool k) { return shade::min(a, ax, k); }},
      {"var", [](const NDArray& a, const AxisSet& ax, bool k) { return shade::var(a, ax, 0, k); }},
      {"var1", [](const NDArray& a, const AxisSet& ax, bool k) { return shade::var(a, ax, 1, k); }},
      {"std", [](const NDArray& a, const AxisSet& ax, bool k) { return shade::std(a, ax, 0, k); }},
      {"std1", [](const NDArray& a, const AxisSet& ax, bool k) { return shade::std(a, ax, 1, k); }},
  };
  const std::vector<AxisSet> axes = {AxisSet(), AxisSet(1), AxisSet({0, 2}), AxisSet(-1)};
  for (const auto& op : ops) {
    for (const AxisSet& ax : axes) {
      for (bool keep : {false, true}) {
        NDArray a = Rand({2, 3, 4}, 0.5, 1.5);
        GradCheck(std::string(op.first) + (keep ? " keepdims" : ""),
                  [&](const std::vector<NDArray>& x) { return op.second(x[0], ax, keep); }, {a});
      }
    }
  }
  // prod with zeros in a group (one and two zeros).
  NDArray z = Rand({2, 3}, 0.5, 1.5);
  {
    shade::NoGradGuard off;
    z.set({0, 1}, 0.0);
    z.set({1, 0}, 0.0);
    z.set({1, 2}, 0.0);
  }
  auto g = ag::Grad({shade::sum(shade::prod(z, 1))}, {z});
  EXPECT_DOUBLE_EQ(g[0].get({0, 1}), z.get({0, 0}) * z.get({0, 2}));
  EXPECT_DOUBLE_EQ(g[0].get({0, 0}), 0.0);
  EXPECT_DOUBLE_EQ(g[0].get({1, 1}), 0.0);
  // Rank 0 input; norm (2-norm and Frobenius) through its ops.
  NDArray s = Rand({});
  GradCheck("sum rank 0", [](const std::vector<NDArray>& x) { return shade::sum(x[0]); }, {s});
  NDArray m = Rand({3, 4});
  GradCheck("norm", [](const std::vector<NDArray>& x) { return shade::linalg::norm(x[0]); }, {m});
  GradCheck("norm axis",
            [](const std::vector<NDArray>& x) {
              return shade::linalg::norm(x[0], shade::linalg::NormOrder(), {1});
            },
            {m});
}

// ------------------------------------------------------------------ products

TEST(AutogradRules, Matmul) {
  const std::vector<std::pair<std::vector<index_t>, std::vector<index_t>>> shapes = {
      {{3, 4}, {4, 5}}, {{2, 1, 3, 4}, {5, 4, 2}}, {{4}, {4, 5}}, {{3, 4}, {4}},
      {{4}, {4}},       {{2, 3, 4}, {4}}};
  for (const auto& s : shapes) {
    NDArray a = Rand(s.first), b = Rand(s.second);
    GradCheck("matmul", [](const std::vector<NDArray>& x) { return shade::matmul(x[0], x[1]); },
              {a, b});
  }
  NDArray a = Rand({2, 3, 4}), b = Rand({4, 3, 2});
  GradCheck("dot", [](const std::vector<NDArray>& x) { return shade::dot(x[0], x[1]); },
            {Rand({2, 3, 4}), Rand({5, 4, 2})});
  GradCheck("tensordot",
            [](const std::vector<NDArray>& x) {
              return shade::tensordot(x[0], x[1], {1, 2}, {1, 0});
            },
            {a, b});
  // einsum: diagonal views, sums and batched matmuls, all recorded.
  const std::vector<std::pair<std::string, std::vector<std::vector<index_t>>>> sums = {
      {"ij,jk->ik", {{3, 4}, {4, 2}}},
      {"ii->i", {{3, 3}}},
      {"ij->", {{2, 3}}},
      {"bij,bjk->bik", {{2, 3, 4}, {2, 4, 2}}},
      {"i,i->", {{4}, {4}}},
      {"iij,jk->ik", {{2, 2, 3}, {3, 2}}}};
  for (const auto& e : sums) {
    std::vector<NDArray> xs;
    for (const auto& sh : e.second) xs.push_back(Rand(sh));
    GradCheck(
        "einsum " + e.first,
        [&e](const std::vector<NDArray>& x) { return shade::einsum(e.first, x); }, xs);
  }
  // float32 operands: the gradients keep their dtypes.
  NDArray f = shade::ones({2, 2}, shade::kFloat32);
  f.set_requires_grad(true);
  NDArray d = Rand({2, 2});
  auto g = ag::Grad({shade::sum(shade::matmul(f, d))}, {f, d});
  EXPECT_EQ(g[0].type_flag(), shade::kFloat32);
  EXPECT_EQ(g[1].type_flag(), shade::kFloat64);
}

// ------------------------------------------------------------------ views and shape ops

TEST(AutogradRules, ViewsAndShapeOps) {
  NDArray a = Rand({3, 4, 2});
  const std::vector<std::pair<const char*, Fn>> ops = {
      {"transpose", [](const std::vector<NDArray>& x) { return x[0].transpose(0, 2); }},
      {"permute",
       [](const std::vector<NDArray>& x) {
         return x[0].permute({1, 2, 0});
       }},
      {"slice", [](const std::vector<NDArray>& x) { return x[0].slice(1, 0, 4, 2); }},
      {"select", [](const std::vector<NDArray>& x) { return x[0].select(0, -1); }},
      {"narrow", [](const std::vector<NDArray>& x) { return x[0].narrow(1, 1, 2); }},
      {"unsqueeze", [](const std::vector<NDArray>& x) { return x[0].unsqueeze(1); }},
      {"squeeze", [](const std::vector<NDArray>& x) { return x[0].slice(0, 0, 1).squeeze(); }},
      {"expand",
       [](const std::vector<NDArray>& x) {
         return x[0].slice(1, 0, 1).expand({2, 3, 5, 2});
       }},
      {"reshape",
       [](const std::vector<NDArray>& x) {
         return x[0].reshape({4, 6});
       }},
      {"reshape_copy",
       [](const std::vector<NDArray>& x) { return x[0].transpose(0, 1).reshape({24}); }},
      {"view_of_view",
       [](const std::vector<NDArray>& x) {
         return x[0].slice(0, 1, 3).transpose(0, 1).select(2, 1);
       }},
      {"broadcast_to",
       [](const std::vector<NDArray>& x) {
         return shade::broadcast_to(x[0], {2, 3, 4, 2});
       }},
      {"contiguous",
       [](const std::vector<NDArray>& x) { return x[0].transpose(0, 1).contiguous(); }},
      {"clone", [](const std::vector<NDArray>& x) { return x[0].Clone(); }},
      {"flip_view_chain",
       [](const std::vector<NDArray>& x) {
         return (x[0].slice(2, 1, 2) * x[0].slice(2, 0, 1)).eval();
       }},
      {"concatenate",
       [](const std::vector<NDArray>& x) {
         return shade::concatenate({x[0], (x[0] * 2).eval()}, 1);
       }},
      {"stack",
       [](const std::vector<NDArray>& x) {
         return shade::stack({x[0], shade::exp(x[0]).eval()}, -1);
       }},
      {"split",
       [](const std::vector<NDArray>& x) {
         auto parts = shade::split(x[0], 2, 1);
         return (parts[0] * parts[1]).eval();
       }},
  };
  for (const auto& op : ops) GradCheck(op.first, op.second, {a}, 1e-5);
  // astype: the gradient converts back to the input's dtype.
  NDArray w = Rand({3, 4, 2}, -1, 1, 5);
  auto g = ag::Grad({shade::astype(a, shade::kFloat32)}, {a}, {w});
  ASSERT_EQ(g[0].type_flag(), shade::kFloat64);
  for (index_t i = 0; i < a.numel(); ++i) {
    EXPECT_EQ(Flat(g[0], i), static_cast<double>(static_cast<float>(Flat(w, i))));
  }
}

TEST(AutogradRules, Gathers) {
  NDArray a = Rand({4, 3});
  NDArray idx = NDArray::Empty({5}, shade::kInt64);
  const std::int64_t v[] = {0, 2, 2, -1, 0};  // repeated indices add up
  for (index_t i = 0; i < 5; ++i) idx.set({i}, static_cast<double>(v[i]));
  GradCheck("take axis 0", [&](const std::vector<NDArray>& x) { return shade::take(x[0], idx, 0); },
            {a});
  NDArray idx2 = idx.slice(0, 0, 4).reshape({2, 2});
  GradCheck(
      "take axis 1",
      [&](const std::vector<NDArray>& x) { return shade::take(x[0], idx2.slice(1, 0, 2), 1); },
      {a});
  GradCheck("take flat", [&](const std::vector<NDArray>& x) { return shade::take(x[0], idx); },
            {a});
  NDArray rows = NDArray::Empty({3}, shade::kInt64), cols = NDArray::Empty({3}, shade::kInt64);
  for (index_t i = 0; i < 3; ++i) {
    rows.set({i}, static_cast<double>(i % 2));
    cols.set({i}, 1.0);
  }
  GradCheck("index",
            [&](const std::vector<NDArray>& x) {
              return shade::index(x[0], {rows, cols});
            },
            {a});
  NDArray mask = shade::ones({4, 3}, shade::kBool);
  mask.set({1, 1}, 0.0);
  GradCheck("index mask", [&](const std::vector<NDArray>& x) { return shade::index(x[0], {mask}); },
            {a});
}

// ------------------------------------------------------------------ second derivatives

// Hessian-vector products: d/dx (grad(f)(x) . v) against central differences of grad(f).
void HessCheck(const std::string& what, const Fn& f, NDArray x, double tol = 1e-6) {
  SCOPED_TRACE(what);
  NDArray v = Rand(x.sizes(), -1, 1, 11);
  v.set_requires_grad(false);
  auto gx = ag::Grad({f({x})}, {x}, {}, false, true);
  ASSERT_TRUE(gx[0].requires_grad());
  auto hv = ag::Grad({shade::sum(gx[0] * v)}, {x});
  const double eps = 1e-6;
  for (index_t i = 0; i < x.numel(); ++i) {
    const double x0 = Flat(x, i);
    auto gdot = [&](double xi) {
      SetFlat(x, i, xi);
      const NDArray g = ag::Grad({f({x})}, {x})[0];
      shade::NoGradGuard off;
      return shade::item<double>(shade::sum(g * v));
    };
    const double num = (gdot(x0 + eps) - gdot(x0 - eps)) / (2 * eps);
    SetFlat(x, i, x0);
    EXPECT_NEAR(Flat(hv[0], i), num, tol * (1 + std::fabs(num))) << "element " << i;
  }
}

TEST(AutogradRules, SecondDerivatives) {
  HessCheck(
      "cube", [](const std::vector<NDArray>& x) { return shade::sum(x[0] * x[0] * x[0]); },
      Rand({3}));
  HessCheck(
      "elementwise",
      [](const std::vector<NDArray>& x) {
        return shade::sum(shade::exp(x[0]) * shade::sin(x[0]) / (x[0] * x[0] + 1) +
                          shade::tanh(x[0]));
      },
      Rand({2, 3}));
  HessCheck(
      "mean var std",
      [](const std::vector<NDArray>& x) {
        return (shade::sum(shade::var(x[0], 1)) + shade::sum(shade::mean(x[0] * x[0], 0)) +
                shade::sum(shade::std(x[0], 0)))
            .eval();
      },
      Rand({3, 4}, 0.5, 1.5));
  HessCheck(
      "prod", [](const std::vector<NDArray>& x) { return shade::sum(shade::prod(x[0], 1)); },
      Rand({2, 3}, 0.5, 1.5));
  NDArray w = Rand({4, 3});
  w.set_requires_grad(false);
  HessCheck(
      "matmul",
      [&](const std::vector<NDArray>& x) {
        const NDArray h = shade::matmul(x[0], w);
        return shade::sum(h * h * h);
      },
      Rand({2, 4}));
  HessCheck(
      "broadcast and views",
      [](const std::vector<NDArray>& x) {
        return shade::sum(shade::matmul(x[0].transpose(0, 1), x[0]) * x[0].slice(0, 0, 1));
      },
      Rand({3, 3}));
  // Third order of x^4 at 1 (24 x): create_graph twice.
  NDArray x = shade::full({}, 1.0);
  x.set_requires_grad(true);
  auto g1 = ag::Grad({x * x * x * x}, {x}, {}, false, true);
  auto g2 = ag::Grad({g1[0]}, {x}, {}, false, true);
  auto g3 = ag::Grad({g2[0]}, {x});
  EXPECT_NEAR(shade::item<double>(g3[0]), 24.0, 1e-12);
}

// ------------------------------------------------------------------ dtypes

TEST(AutogradRules, Float32AndHalfDtypes) {
  for (int flag : {shade::kFloat32, shade::kFloat16, shade::kBfloat16}) {
    NDArray a = shade::astype(Rand({4}, 0.5, 1.5), flag).detach();
    a.set_requires_grad(true);
    NDArray y = shade::sum(a * a + shade::exp(a));
    y.backward();
    ASSERT_EQ(a.grad().type_flag(), flag);
    const double tol = flag == shade::kFloat32 ? 1e-6 : 3e-2;
    for (index_t i = 0; i < 4; ++i) {
      const double x = a.get({i});
      EXPECT_NEAR(a.grad().get({i}), 2 * x + std::exp(x), tol * (1 + 2 * x + std::exp(x)));
    }
  }
}

// ------------------------------------------------------------------ fusion

TEST(AutogradFusion, ElementwiseChainBackwardIsOnePassPerInput) {
  // y = a*b + exp(c) - a/c over 2^16 floats: the forward is one fused node, its backward one
  // fused gradient expression per input: three evaluations, three arrays, nothing else.
  const index_t n = index_t(1) << 16;
  NDArray a = shade::astype(Rand({n}, 0.5, 1.5), shade::kFloat32).detach();
  NDArray b = shade::astype(Rand({n}, 0.5, 1.5), shade::kFloat32).detach();
  NDArray c = shade::astype(Rand({n}, 0.5, 1.5), shade::kFloat32).detach();
  for (NDArray* x : {&a, &b, &c}) x->set_requires_grad(true);
  const std::uint64_t f0 = shade::AllocationCount();
  NDArray y = a * b + shade::exp(c) - a / c;
  EXPECT_EQ(shade::AllocationCount() - f0, 1u);  // the forward: y only
  NDArray g = shade::ones({n}, shade::kFloat32);
  const std::uint64_t b0 = shade::AllocationCount();
  y.backward(g);
  EXPECT_EQ(shade::AllocationCount() - b0, 3u);  // a.grad, b.grad, c.grad: one pass each
  for (index_t i = 0; i < n; i += 997) {
    const double av = a.get({i}), bv = b.get({i}), cv = c.get({i});
    EXPECT_NEAR(a.grad().get({i}), bv - 1 / cv, 1e-5);
    EXPECT_NEAR(b.grad().get({i}), av, 1e-6);
    EXPECT_NEAR(c.grad().get({i}), std::exp(cv) + av / (cv * cv), 1e-4);
  }
}

}  // namespace
