// The forward / backward kernel pairs of shade::nn (nn/kernels.h): forwards against naive loops,
// backwards against central differences in float64, float32 against float64, non-contiguous
// inputs, and the error cases.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "shade/autograd/autograd.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/reduce.h"
#include "shade/nn/functional.h"
#include "shade/nn/kernels.h"
#include "shade/nn/module.h"
#include "shade/optim/optimizer.h"

namespace shade {
namespace {

namespace k = nn::kernels;
using Fn = std::function<NDArray(const std::vector<NDArray>&)>;

NDArray Randn(IndexSpan shape, std::uint64_t seed, int dtype = kFloat64) {
  Generator g(seed);
  return g.randn(shape, dtype);
}

NDArray AsType(const NDArray& a, int dtype) {
  NDArray out = NDArray::Empty(a.sizes(), dtype);
  out.copy_(a);
  return out;
}

double Dot(const NDArray& a, const NDArray& w) {
  const NDArray ac = AsType(a, kFloat64), wc = AsType(w, kFloat64);
  double s = 0;
  for (index_t i = 0; i < ac.numel(); ++i) s += ac.data<double>()[i] * wc.data<double>()[i];
  return s;
}

// Central differences of L = sum(f(inputs) * w) with respect to inputs[which], float64, at
// every `step`-th element (the others are NaN: not checked).
NDArray NumericGrad(const Fn& f, std::vector<NDArray> inputs, std::size_t which, const NDArray& w,
                    index_t step = 1, double h = 1e-6) {
  inputs[which] = inputs[which].Clone();
  NDArray x = inputs[which];
  NDArray g = full(x.sizes(), std::nan(""));
  double* xp = x.data<double>();
  for (index_t i = 0; i < x.numel(); i += step) {
    const double keep = xp[i];
    xp[i] = keep + h;
    const double up = Dot(f(inputs), w);
    xp[i] = keep - h;
    const double down = Dot(f(inputs), w);
    xp[i] = keep;
    g.data<double>()[i] = (up - down) / (2 * h);
  }
  return g;
}

void ExpectAllClose(const NDArray& got, const NDArray& want, double tol, const std::string& what,
                    bool skip_nan = false) {
  ASSERT_TRUE(got.defined()) << what;
  ASSERT_EQ(got.sizes().vec(), want.sizes().vec()) << what;
  const NDArray g = AsType(got, kFloat64), e = AsType(want, kFloat64);
  for (index_t i = 0; i < g.numel(); ++i) {
    const double a = g.data<double>()[i], b = e.data<double>()[i];
    if (std::isnan(b)) {
      if (!skip_nan) {
        EXPECT_TRUE(std::isnan(a)) << what << " element " << i;
      }
      continue;
    }
    ASSERT_NEAR(a, b, tol * std::max(1.0, std::fabs(b))) << what << " element " << i;
  }
}

// Checks grads[i] against central differences of f for every i with a defined grad.
void CheckGrads(const Fn& f, const std::vector<NDArray>& inputs, const std::vector<NDArray>& grads,
                const NDArray& w, const std::string& what, double tol = 1e-6) {
  for (std::size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].defined()) continue;
    // At most about 100 elements of each input: enough to catch a wrong rule, fast in CI.
    const index_t step = std::max<index_t>(1, inputs[i].numel() / 100);
    ExpectAllClose(grads[i], NumericGrad(f, inputs, i, w, step), tol,
                   what + " d/input " + std::to_string(i), true);
  }
}

// ------------------------------------------------------------------ linear
TEST(NnKernels, Linear) {
  const NDArray x = Randn({2, 3, 4}, 1), w = Randn({5, 4}, 2), b = Randn({5}, 3);
  const NDArray y = k::LinearForward(x, w, b);
  ASSERT_EQ(y.sizes().vec(), (std::vector<index_t>{2, 3, 5}));
  for (index_t i = 0; i < 2; ++i) {
    for (index_t j = 0; j < 3; ++j) {
      for (index_t o = 0; o < 5; ++o) {
        double s = b.get({o});
        for (index_t c = 0; c < 4; ++c) s += x.get({i, j, c}) * w.get({o, c});
        EXPECT_NEAR(y.get({i, j, o}), s, 1e-12);
      }
    }
  }
  const NDArray up = Randn({2, 3, 5}, 4);
  const k::LinearGrads g = k::LinearBackward(up, x, w, true);
  CheckGrads([](const std::vector<NDArray>& in) { return k::LinearForward(in[0], in[1], in[2]); },
             {x, w, b}, {g.input, g.weight, g.bias}, up, "linear");
  // Without the input's gradient: the same weight gradient.
  const k::LinearGrads gw = k::LinearBackward(up, x, w, true, false);
  EXPECT_FALSE(gw.input.defined());
  ExpectAllClose(gw.weight, g.weight, 0, "linear weight only");
  // No bias, 1-D input, a transposed weight view.
  const NDArray wt = Randn({4, 5}, 5).transpose(0, 1);
  const NDArray x1 = Randn({4}, 6);
  const NDArray y1 = k::LinearForward(x1, wt, NDArray());
  ExpectAllClose(y1, k::LinearForward(x1, wt.contiguous(), NDArray()), 1e-14, "transposed w");
  const k::LinearGrads g1 = k::LinearBackward(Randn({5}, 7), x1, wt, false);
  EXPECT_FALSE(g1.bias.defined());
  const k::LinearGrads g1c = k::LinearBackward(Randn({5}, 7), x1, wt.contiguous(), false);
  ExpectAllClose(g1.input, g1c.input, 1e-14, "transposed w: d/dx");
  ExpectAllClose(g1.weight, g1c.weight, 1e-14, "transposed w: d/dw");
  // A weight that is neither layout (a strided slice) is read through a copy.
  const NDArray ws = Randn({5, 8}, 8).slice(1, 0, 8, 2);
  ExpectAllClose(k::LinearForward(x1, ws, NDArray()),
                 k::LinearForward(x1, ws.contiguous(), NDArray()), 1e-14, "strided w");
  // Empty batch and zero in_features.
  EXPECT_EQ(k::LinearForward(zeros({0, 4}), w, b).sizes().vec(), (std::vector<index_t>{0, 5}));
  const NDArray y0 = k::LinearForward(zeros({2, 0}), zeros({3, 0}), NDArray());
  ExpectAllClose(y0, zeros({2, 3}), 0, "in_features 0");
  // float32 agrees with float64.
  ExpectAllClose(k::LinearForward(AsType(x, kFloat32), AsType(w, kFloat32), AsType(b, kFloat32)), y,
                 1e-5, "float32");
  EXPECT_THROW(k::LinearForward(x, Randn({5, 3}, 1), b), ShapeError);
  EXPECT_THROW(k::LinearForward(x, w, Randn({4}, 1)), ShapeError);
  EXPECT_THROW(k::LinearForward(AsType(x, kFloat32), w, b), TypeError);
  EXPECT_THROW(k::LinearForward(AsType(x, kInt32), AsType(w, kInt32), NDArray()), TypeError);
  EXPECT_THROW(k::LinearForward(NDArray(), w, b), ValueError);
  EXPECT_THROW(k::LinearBackward(Randn({2, 3, 4}, 1), x, w, true), ShapeError);
}

// ------------------------------------------------------------------ conv2d
NDArray NaiveConv(const NDArray& x, const NDArray& w, const NDArray& b, const k::Conv2dOptions& o) {
  const index_t n = x.size(0), c = x.size(1), h = x.size(2), wd = x.size(3);
  const index_t oc = w.size(0), kh = w.size(2), kw = w.size(3);
  const index_t oh = (h + 2 * o.padding[0] - o.dilation[0] * (kh - 1) - 1) / o.stride[0] + 1;
  const index_t ow = (wd + 2 * o.padding[1] - o.dilation[1] * (kw - 1) - 1) / o.stride[1] + 1;
  NDArray y = zeros({n, oc, oh, ow});
  for (index_t i = 0; i < n; ++i)
    for (index_t q = 0; q < oc; ++q)
      for (index_t yy = 0; yy < oh; ++yy)
        for (index_t xx = 0; xx < ow; ++xx) {
          double s = b.defined() ? b.get({q}) : 0.0;
          for (index_t ch = 0; ch < c; ++ch)
            for (index_t a = 0; a < kh; ++a)
              for (index_t e = 0; e < kw; ++e) {
                const index_t iy = yy * o.stride[0] - o.padding[0] + a * o.dilation[0];
                const index_t ix = xx * o.stride[1] - o.padding[1] + e * o.dilation[1];
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                s += x.get({i, ch, iy, ix}) * w.get({q, ch, a, e});
              }
          y.set({i, q, yy, xx}, s);
        }
  return y;
}

TEST(NnKernels, Conv2d) {
  std::vector<k::Conv2dOptions> opts(4);
  opts[1].stride = {2, 1};
  opts[1].padding = {1, 2};
  opts[2].dilation = {2, 1};
  opts[2].padding = {1, 0};
  opts[3].stride = {3, 3};  // stride above the kernel: some pixels get no gradient
  for (std::size_t t = 0; t < opts.size(); ++t) {
    const k::Conv2dOptions& o = opts[t];
    const NDArray x = Randn({2, 3, 7, 6}, 10 + t), w = Randn({4, 3, 3, 2}, 20 + t),
                  b = Randn({4}, 30 + t);
    const NDArray y = k::Conv2dForward(x, w, b, o);
    const std::string what = "conv2d options " + std::to_string(t);
    ExpectAllClose(y, NaiveConv(x, w, b, o), 1e-12, what);
    const NDArray up = Randn(y.sizes(), 40 + t);
    const k::Conv2dGrads g = k::Conv2dBackward(up, x, w, true, o);
    CheckGrads(
        [o](const std::vector<NDArray>& in) { return k::Conv2dForward(in[0], in[1], in[2], o); },
        {x, w, b}, {g.input, g.weight, g.bias}, up, what);
    const k::Conv2dGrads gw = k::Conv2dBackward(up, x, w, false, o, false);
    EXPECT_FALSE(gw.input.defined());
    EXPECT_FALSE(gw.bias.defined());
    ExpectAllClose(gw.weight, g.weight, 0, what + " weight only");
  }
  // The batch's image groups: one image per product (planes of >= 256 outputs, written in
  // place) and several groups of several images (the last one short).
  const std::vector<std::vector<index_t>> shapes = {{2, 1, 17, 17}, {9, 1, 10, 10}};
  for (std::size_t t = 0; t < shapes.size(); ++t) {
    const NDArray x = Randn(IndexSpan(shapes[t]), 60 + t), w = Randn({2, 1, 3, 3}, 61 + t),
                  b = Randn({2}, 62 + t);
    const NDArray y = k::Conv2dForward(x, w, b, opts[0]);
    ExpectAllClose(y, NaiveConv(x, w, b, opts[0]), 1e-12, "groups " + std::to_string(t));
    const NDArray up = Randn(y.sizes(), 63 + t);
    const k::Conv2dGrads g = k::Conv2dBackward(up, x, w, true, opts[0]);
    CheckGrads(
        [&opts](const std::vector<NDArray>& in) {
          return k::Conv2dForward(in[0], in[1], in[2], opts[0]);
        },
        {x, w, b}, {g.input, g.weight, g.bias}, up, "groups " + std::to_string(t));
  }
  // No bias, non-contiguous input, float32.
  const NDArray xt = Randn({2, 3, 6, 5}, 50).transpose(2, 3);  // (2, 3, 5, 6), strided
  const NDArray w = Randn({2, 3, 2, 2}, 51);
  const NDArray y = k::Conv2dForward(xt, w, NDArray(), opts[1]);
  ExpectAllClose(y, NaiveConv(xt, w, NDArray(), opts[1]), 1e-12, "strided input");
  const k::Conv2dGrads g = k::Conv2dBackward(Randn(y.sizes(), 52), xt, w, false, opts[1]);
  EXPECT_FALSE(g.bias.defined());
  EXPECT_EQ(g.input.sizes().vec(), xt.sizes().vec());
  ExpectAllClose(k::Conv2dForward(AsType(xt, kFloat32), AsType(w, kFloat32), NDArray(), opts[1]), y,
                 1e-5, "float32");
  // Empty batch.
  EXPECT_EQ(k::Conv2dForward(zeros({0, 3, 5, 5}), w, NDArray(), opts[0]).sizes().vec(),
            (std::vector<index_t>{0, 2, 4, 4}));
  // Errors.
  EXPECT_THROW(k::Conv2dForward(Randn({3, 5, 5}, 1), w, NDArray(), opts[0]), ShapeError);
  EXPECT_THROW(k::Conv2dForward(Randn({1, 2, 5, 5}, 1), w, NDArray(), opts[0]), ShapeError);
  EXPECT_THROW(k::Conv2dForward(Randn({1, 3, 1, 1}, 1), w, NDArray(), opts[0]), ShapeError);
  EXPECT_THROW(k::Conv2dForward(Randn({1, 3, 5, 5}, 1), w, Randn({3}, 1), opts[0]), ShapeError);
  k::Conv2dOptions bad;
  bad.stride = {0, 1};
  EXPECT_THROW(k::Conv2dForward(Randn({1, 3, 5, 5}, 1), w, NDArray(), bad), ValueError);
  bad = k::Conv2dOptions();
  bad.padding = {-1, 0};
  EXPECT_THROW(k::Conv2dForward(Randn({1, 3, 5, 5}, 1), w, NDArray(), bad), ValueError);
  EXPECT_THROW(k::Conv2dBackward(Randn({1, 2, 3, 3}, 1), Randn({1, 3, 5, 5}, 1), w, false, opts[0]),
               ShapeError);
}

// ------------------------------------------------------------------ pooling
NDArray NaivePool(const NDArray& x, const k::Pool2dOptions& o, bool is_max) {
  const index_t n = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
  const index_t sy = o.stride[0] ? o.stride[0] : o.kernel[0];
  const index_t sx = o.stride[1] ? o.stride[1] : o.kernel[1];
  const index_t oh = (h + 2 * o.padding[0] - o.kernel[0]) / sy + 1;
  const index_t ow = (w + 2 * o.padding[1] - o.kernel[1]) / sx + 1;
  NDArray y = zeros({n, c, oh, ow});
  for (index_t i = 0; i < n; ++i)
    for (index_t ch = 0; ch < c; ++ch)
      for (index_t yy = 0; yy < oh; ++yy)
        for (index_t xx = 0; xx < ow; ++xx) {
          double acc = is_max ? -std::numeric_limits<double>::infinity() : 0.0;
          for (index_t a = 0; a < o.kernel[0]; ++a)
            for (index_t e = 0; e < o.kernel[1]; ++e) {
              const index_t iy = yy * sy - o.padding[0] + a, ix = xx * sx - o.padding[1] + e;
              const bool in = iy >= 0 && iy < h && ix >= 0 && ix < w;
              if (is_max && in) acc = std::max(acc, x.get({i, ch, iy, ix}));
              if (!is_max && in) acc += x.get({i, ch, iy, ix});
            }
          y.set({i, ch, yy, xx}, is_max ? acc : acc / (o.kernel[0] * o.kernel[1]));
        }
  return y;
}

TEST(NnKernels, Pooling) {
  std::vector<k::Pool2dOptions> opts(3);
  opts[0].kernel = {2, 2};
  opts[1].kernel = {3, 2};
  opts[1].stride = {2, 1};
  opts[1].padding = {1, 1};
  opts[2].kernel = {3, 3};
  opts[2].stride = {1, 1};  // overlapping windows
  for (std::size_t t = 0; t < opts.size(); ++t) {
    const k::Pool2dOptions& o = opts[t];
    const NDArray x = Randn({2, 3, 7, 6}, 60 + t);
    const std::string what = "pool options " + std::to_string(t);
    const k::MaxPool2dResult m = k::MaxPool2dForward(x, o);
    ExpectAllClose(m.output, NaivePool(x, o, true), 0, "max " + what);
    EXPECT_EQ(m.indices.type_flag(), kInt64);
    const NDArray up = Randn(m.output.sizes(), 70 + t);
    CheckGrads([o](const std::vector<NDArray>& in) { return k::MaxPool2dForward(in[0], o).output; },
               {x}, {k::MaxPool2dBackward(up, m.indices, x)}, up, "max " + what);
    const NDArray a = k::AvgPool2dForward(x, o);
    ExpectAllClose(a, NaivePool(x, o, false), 1e-14, "avg " + what);
    CheckGrads([o](const std::vector<NDArray>& in) { return k::AvgPool2dForward(in[0], o); }, {x},
               {k::AvgPool2dBackward(up, x, o)}, up, "avg " + what);
  }
  // PyTorch's tie rule: a window's gradient goes to its first maximum only.
  const NDArray ones4 = ones({1, 1, 2, 2});
  const k::MaxPool2dResult tie = k::MaxPool2dForward(ones4, opts[0]);
  EXPECT_EQ(tie.indices.get({0, 0, 0, 0}), 0);
  const NDArray dtie = k::MaxPool2dBackward(ones({1, 1, 1, 1}), tie.indices, ones4);
  EXPECT_EQ(dtie.get({0, 0, 0, 0}), 1.0);
  EXPECT_EQ(dtie.get({0, 0, 1, 1}), 0.0);
  // NaN wins its window.
  NDArray withnan = ones({1, 2, 2});
  withnan.set({0, 1, 0}, std::nan(""));
  const k::MaxPool2dResult nanpool = k::MaxPool2dForward(withnan, opts[0]);
  EXPECT_TRUE(std::isnan(nanpool.output.get({0, 0, 0})));
  EXPECT_EQ(nanpool.indices.get({0, 0, 0}), 2);
  // Rank 3, float32, non-contiguous.
  const NDArray x3 = Randn({3, 6, 5}, 80).transpose(1, 2);
  ExpectAllClose(k::AvgPool2dForward(AsType(x3, kFloat32), opts[0]),
                 k::AvgPool2dForward(x3, opts[0]), 1e-6, "avg float32 rank 3");
  ExpectAllClose(k::MaxPool2dForward(AsType(x3, kFloat32), opts[0]).output,
                 k::MaxPool2dForward(x3, opts[0]).output, 1e-6, "max float32 rank 3");
  // Errors.
  k::Pool2dOptions bad;
  bad.kernel = {2, 2};
  bad.padding = {2, 0};
  EXPECT_THROW(k::MaxPool2dForward(x3, bad), ValueError);
  EXPECT_THROW(k::AvgPool2dForward(Randn({5, 5}, 1), opts[0]), ShapeError);
  bad = k::Pool2dOptions();
  bad.kernel = {9, 1};
  EXPECT_THROW(k::MaxPool2dForward(x3, bad), ShapeError);
  bad.kernel = {0, 1};
  EXPECT_THROW(k::AvgPool2dForward(x3, bad), ValueError);
  EXPECT_THROW(k::MaxPool2dForward(AsType(x3, kInt64), opts[0]), TypeError);
  const k::MaxPool2dResult r = k::MaxPool2dForward(x3, opts[0]);
  NDArray badidx = r.indices.Clone();
  badidx.set({0, 0, 0}, 99);
  EXPECT_THROW(k::MaxPool2dBackward(r.output, badidx, x3), IndexError);
  EXPECT_THROW(k::MaxPool2dBackward(r.output, AsType(r.indices, kFloat64), x3), TypeError);
}

// ------------------------------------------------------------------ activations
TEST(NnKernels, Activations) {
  const NDArray x = Randn({3, 4}, 90);
  const NDArray up = Randn({3, 4}, 91);
  const NDArray r = k::ReluForward(x), s = k::SigmoidForward(x), t = k::TanhForward(x);
  const NDArray ge = k::GeluForward(x), gt = k::GeluForward(x, "tanh");
  for (index_t i = 0; i < x.numel(); ++i) {
    const index_t a = i / 4, b = i % 4;
    const double v = x.get({a, b});
    EXPECT_EQ(r.get({a, b}), std::max(v, 0.0));
    EXPECT_NEAR(s.get({a, b}), 1 / (1 + std::exp(-v)), 1e-15);
    EXPECT_NEAR(t.get({a, b}), std::tanh(v), 1e-15);
    EXPECT_NEAR(ge.get({a, b}), 0.5 * v * std::erfc(-v / std::sqrt(2.0)), 1e-15);
    const double inner = std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v);
    EXPECT_NEAR(gt.get({a, b}), 0.5 * v * (1 + std::tanh(inner)), 1e-15);
  }
  CheckGrads([](const std::vector<NDArray>& in) { return k::GeluForward(in[0]); }, {x},
             {k::GeluBackward(up, x)}, up, "gelu");
  CheckGrads([](const std::vector<NDArray>& in) { return k::GeluForward(in[0], "tanh"); }, {x},
             {k::GeluBackward(up, x, "tanh")}, up, "gelu tanh");
  // relu's kink through autograd (the registry op's rule): gradient 0 at 0 (PyTorch).
  NDArray z = zeros({1});
  z.set_requires_grad(true);
  nn::functional::relu(z).backward(ones({1}));
  EXPECT_EQ(z.grad().get({0}), 0.0);
  // Rank 0, float32, strided.
  EXPECT_NEAR(k::SigmoidForward(full({}, 0.0)).get({}), 0.5, 0);
  const NDArray xs = x.transpose(0, 1);
  ExpectAllClose(k::GeluForward(AsType(xs, kFloat32)), k::GeluForward(xs), 1e-6, "gelu f32");
  EXPECT_THROW(k::GeluForward(x, "erf"), ValueError);
  EXPECT_THROW(k::ReluForward(AsType(x, kInt32)), TypeError);
}

TEST(NnKernels, SoftmaxAndLogSoftmax) {
  const NDArray x = Randn({3, 4, 2}, 100);
  for (index_t dim : {0, 1, 2, -1}) {
    const std::string what = "dim " + std::to_string(dim);
    const NDArray s = k::SoftmaxForward(x, dim), l = k::LogSoftmaxForward(x, dim);
    // Naive oracle along the (wrapped) dimension.
    const index_t d = dim < 0 ? dim + 3 : dim;
    for (index_t i = 0; i < x.numel(); ++i) {
      std::vector<index_t> at = {i / 8, (i / 2) % 4, i % 2};
      double total = 0;
      std::vector<index_t> it = at;
      for (index_t j = 0; j < x.size(d); ++j) {
        it[d] = j;
        total += std::exp(x.get(IndexSpan(it)));
      }
      EXPECT_NEAR(s.get(IndexSpan(at)), std::exp(x.get(IndexSpan(at))) / total, 1e-15) << what;
      EXPECT_NEAR(l.get(IndexSpan(at)), x.get(IndexSpan(at)) - std::log(total), 1e-14) << what;
    }
    const NDArray up = Randn(x.sizes(), 101);
    CheckGrads([dim](const std::vector<NDArray>& in) { return k::SoftmaxForward(in[0], dim); }, {x},
               {k::SoftmaxBackward(up, s, dim)}, up, "softmax " + what);
    CheckGrads([dim](const std::vector<NDArray>& in) { return k::LogSoftmaxForward(in[0], dim); },
               {x}, {k::LogSoftmaxBackward(up, l, dim)}, up, "log_softmax " + what);
  }
  // Large logits do not overflow; rank 0 is a 1-element softmax; empty stays empty.
  NDArray big = full({2}, 1000.0);
  ExpectAllClose(k::SoftmaxForward(big, 0), full({2}, 0.5), 1e-15, "large logits");
  EXPECT_EQ(k::SoftmaxForward(full({}, 3.0), 0).get({}), 1.0);
  EXPECT_EQ(k::LogSoftmaxForward(full({}, 3.0), -1).get({}), 0.0);
  EXPECT_EQ(k::SoftmaxForward(zeros({0, 3}), 1).numel(), 0);
  ExpectAllClose(k::SoftmaxForward(AsType(x, kFloat32), 1), k::SoftmaxForward(x, 1), 1e-6, "f32");
  EXPECT_THROW(k::SoftmaxForward(x, 3), IndexError);
  EXPECT_THROW(k::SoftmaxForward(full({}, 1.0), 1), IndexError);
  EXPECT_THROW(k::LogSoftmaxForward(AsType(x, kInt64), 0), TypeError);
}

// ------------------------------------------------------------------ losses
TEST(NnKernels, NllLoss) {
  const NDArray x = k::LogSoftmaxForward(Randn({4, 3}, 110), 1);
  NDArray t = NDArray::Empty({4}, kInt64);
  const std::int64_t tv[] = {2, 0, -100, 1};
  for (index_t i = 0; i < 4; ++i) t.set({i}, static_cast<double>(tv[i]));
  const NDArray none = k::NllLossForward(x, t, nn::Reduction::kNone);
  double total = 0;
  for (index_t i = 0; i < 4; ++i) {
    const double want = tv[i] == -100 ? 0.0 : -x.get({i, tv[i]});
    EXPECT_EQ(none.get({i}), want);
    total += want;
  }
  EXPECT_NEAR(k::NllLossForward(x, t, nn::Reduction::kSum).get({}), total, 1e-15);
  EXPECT_NEAR(k::NllLossForward(x, t, nn::Reduction::kMean).get({}), total / 3, 1e-15);
  for (nn::Reduction red : {nn::Reduction::kNone, nn::Reduction::kMean, nn::Reduction::kSum}) {
    const NDArray up = red == nn::Reduction::kNone ? Randn({4}, 111) : full({}, 0.7);
    CheckGrads(
        [&t, red](const std::vector<NDArray>& in) { return k::NllLossForward(in[0], t, red); }, {x},
        {k::NllLossBackward(up, x, t, red)}, up, "nll_loss");
  }
  // 1-D input with a 0-d target; int32 targets; a custom ignore_index.
  NDArray t0 = full_int({}, 1, kInt32);
  EXPECT_EQ(k::NllLossForward(x.select(0, 0), t0, nn::Reduction::kMean).get({}), -x.get({0, 1}));
  NDArray t2 = NDArray::Empty({4}, kInt32);
  const std::int32_t t2v[] = {2, 0, 1, 1};
  for (index_t i = 0; i < 4; ++i) t2.set({i}, t2v[i]);
  EXPECT_NEAR(k::NllLossForward(x, t2, nn::Reduction::kMean, 2).get({}),
              -(x.get({1, 0}) + x.get({2, 1}) + x.get({3, 1})) / 3, 1e-15);
  // With ignore_index 2, -100 is an ordinary (out of range) target.
  EXPECT_THROW(k::NllLossForward(x, t, nn::Reduction::kSum, 2), IndexError);
  // Every target ignored: the mean is NaN, as in PyTorch.
  const NDArray all_ignored = full_int({4}, -100, kInt64);
  EXPECT_TRUE(std::isnan(k::NllLossForward(x, all_ignored, nn::Reduction::kMean).get({})));
  EXPECT_THROW(k::NllLossForward(x, full_int({4}, 3, kInt64), nn::Reduction::kMean), IndexError);
  EXPECT_THROW(k::NllLossForward(x, full_int({4}, -1, kInt64), nn::Reduction::kMean), IndexError);
  EXPECT_THROW(k::NllLossForward(x, full_int({3}, 0, kInt64), nn::Reduction::kMean), ShapeError);
  EXPECT_THROW(k::NllLossForward(x, zeros({4}), nn::Reduction::kMean), TypeError);
  EXPECT_THROW(k::NllLossForward(Randn({2, 3, 4}, 1), t, nn::Reduction::kMean), ShapeError);
  EXPECT_THROW(k::NllLossBackward(Randn({4}, 1), x, t, nn::Reduction::kMean), ShapeError);
  EXPECT_THROW(nn::ParseReduction("avg"), ValueError);
  EXPECT_EQ(nn::ParseReduction("sum"), nn::Reduction::kSum);
}

TEST(NnKernels, MseLoss) {
  const NDArray x = Randn({3, 4}, 120), y = Randn({3, 4}, 121);
  double total = 0;
  for (index_t i = 0; i < 12; ++i) {
    const double d = x.get({i / 4, i % 4}) - y.get({i / 4, i % 4});
    total += d * d;
  }
  EXPECT_NEAR(k::MseLossForward(x, y, nn::Reduction::kSum).get({}), total, 1e-13);
  EXPECT_NEAR(k::MseLossForward(x, y, nn::Reduction::kMean).get({}), total / 12, 1e-14);
  for (nn::Reduction red : {nn::Reduction::kNone, nn::Reduction::kMean, nn::Reduction::kSum}) {
    const NDArray up = red == nn::Reduction::kNone ? Randn({3, 4}, 122) : full({}, -1.3);
    const NDArray gx = k::MseLossBackward(up, x, y, red);
    const NDArray gy = Expr(gx) * -1;
    CheckGrads(
        [red](const std::vector<NDArray>& in) { return k::MseLossForward(in[0], in[1], red); },
        {x, y}, {gx, gy}, up, "mse_loss");
  }
  EXPECT_EQ(
      k::MseLossForward(AsType(x, kFloat32), AsType(y, kFloat32), nn::Reduction::kMean).type_flag(),
      kFloat32);
  EXPECT_THROW(k::MseLossForward(x, Randn({4, 3}, 1), nn::Reduction::kMean), ShapeError);
  EXPECT_THROW(k::MseLossForward(x, AsType(y, kFloat32), nn::Reduction::kMean), TypeError);
}

// ------------------------------------------------------------------ dropout
TEST(NnKernels, Dropout) {
  const NDArray x = Randn({100, 100}, 130, kFloat32);
  Generator gen(7);
  const k::DropoutResult r = k::DropoutForward(x, 0.3, &gen);
  index_t dropped = 0;
  const float keep = 1.0f / 0.7f;
  for (index_t i = 0; i < x.numel(); ++i) {
    const float m = r.mask.data<float>()[i];
    ASSERT_TRUE(m == 0.0f || m == keep) << m;
    if (m == 0.0f) ++dropped;
    ASSERT_EQ(r.output.data<float>()[i], x.data<float>()[i] * m);
  }
  EXPECT_NEAR(static_cast<double>(dropped) / 10000.0, 0.3, 0.03);
  const NDArray up = Randn({100, 100}, 131, kFloat32);
  ExpectAllClose(k::DropoutBackward(up, r.mask), Expr(up) * r.mask, 0, "dropout backward");
  // The same seed gives the same mask.
  Generator again(7);
  ExpectAllClose(k::DropoutForward(x, 0.3, &again).mask, r.mask, 0, "reproducible");
  ExpectAllClose(k::DropoutForward(x, 0.0, &gen).output, x, 0, "p = 0");
  ExpectAllClose(k::DropoutForward(x, 1.0, &gen).output, zeros({100, 100}), 0, "p = 1");
  EXPECT_THROW(k::DropoutForward(x, 1.5, &gen), ValueError);
  EXPECT_THROW(k::DropoutForward(x, 0.5, nullptr), ValueError);
  EXPECT_THROW(k::DropoutBackward(up, r.mask.reshape({10000})), ShapeError);
}

// ------------------------------------------------------------------ batch norm
TEST(NnKernels, BatchNorm) {
  const NDArray x = Randn({4, 3, 2, 2}, 140);
  const NDArray w = Randn({3}, 141), b = Randn({3}, 142);
  NDArray rm = zeros({3}), rv = ones({3});
  const k::BatchNormResult r = k::BatchNormForward(x, rm, rv, w, b, true, 0.1, 1e-5);
  for (index_t c = 0; c < 3; ++c) {
    double s = 0, s2 = 0;
    for (index_t n = 0; n < 4; ++n)
      for (index_t i = 0; i < 4; ++i) s += x.get({n, c, i / 2, i % 2});
    const double mu = s / 16;
    for (index_t n = 0; n < 4; ++n)
      for (index_t i = 0; i < 4; ++i) s2 += std::pow(x.get({n, c, i / 2, i % 2}) - mu, 2);
    const double var = s2 / 16;
    EXPECT_NEAR(rm.get({c}), 0.1 * mu, 1e-15);
    EXPECT_NEAR(rv.get({c}), 0.9 + 0.1 * s2 / 15, 1e-15);
    for (index_t n = 0; n < 4; ++n)
      for (index_t i = 0; i < 4; ++i) {
        const double want =
            (x.get({n, c, i / 2, i % 2}) - mu) / std::sqrt(var + 1e-5) * w.get({c}) + b.get({c});
        EXPECT_NEAR(r.output.get({n, c, i / 2, i % 2}), want, 1e-13);
      }
  }
  const NDArray up = Randn(x.sizes(), 143);
  const k::BatchNormGrads g = k::BatchNormBackward(up, x, w, r.save_mean, r.save_invstd, true);
  CheckGrads(
      [](const std::vector<NDArray>& in) {
        return k::BatchNormForward(in[0], NDArray(), NDArray(), in[1], in[2], true, 0.1, 1e-5)
            .output;
      },
      {x, w, b}, {g.input, g.weight, g.bias}, up, "batch_norm training");
  // Eval uses the running statistics.
  const k::BatchNormResult e = k::BatchNormForward(x, rm, rv, w, b, false, 0.1, 1e-5);
  for (index_t c = 0; c < 3; ++c) {
    const double want =
        (x.get({1, c, 0, 1}) - rm.get({c})) / std::sqrt(rv.get({c}) + 1e-5) * w.get({c}) +
        b.get({c});
    EXPECT_NEAR(e.output.get({1, c, 0, 1}), want, 1e-13);
  }
  const k::BatchNormGrads ge = k::BatchNormBackward(up, x, w, e.save_mean, e.save_invstd, false);
  CheckGrads(
      [&rm, &rv](const std::vector<NDArray>& in) {
        return k::BatchNormForward(in[0], rm, rv, in[1], in[2], false, 0.1, 1e-5).output;
      },
      {x, w, b}, {ge.input, ge.weight, ge.bias}, up, "batch_norm eval");
  // No affine parameters; 2-D input; float32.
  const NDArray x2 = Randn({5, 3}, 144);
  const k::BatchNormResult r2 =
      k::BatchNormForward(x2, NDArray(), NDArray(), NDArray(), NDArray(), true, 0.1, 1e-5);
  ExpectAllClose(mean(r2.output, AxisSet(0)), zeros({3}), 1e-12, "normalized mean");
  const NDArray up2 = Randn({5, 3}, 145);
  CheckGrads(
      [](const std::vector<NDArray>& in) {
        return k::BatchNormForward(in[0], NDArray(), NDArray(), NDArray(), NDArray(), true, 0.1,
                                   1e-5)
            .output;
      },
      {x2}, {k::BatchNormBackward(up2, x2, NDArray(), r2.save_mean, r2.save_invstd, true).input},
      up2, "batch_norm 2-D");
  NDArray rm32 = zeros({3}, kFloat32), rv32 = ones({3}, kFloat32);
  ExpectAllClose(k::BatchNormForward(AsType(x, kFloat32), rm32, rv32, AsType(w, kFloat32),
                                     AsType(b, kFloat32), true, 0.1, 1e-5)
                     .output,
                 r.output, 1e-5, "float32");
  // Errors.
  EXPECT_THROW(k::BatchNormForward(Randn({1, 3}, 1), NDArray(), NDArray(), NDArray(), NDArray(),
                                   true, 0.1, 1e-5),
               ValueError);  // one value per channel
  EXPECT_THROW(k::BatchNormForward(x, NDArray(), NDArray(), NDArray(), NDArray(), false, 0.1, 1e-5),
               ValueError);
  EXPECT_THROW(k::BatchNormForward(x, zeros({4}), ones({4}), NDArray(), NDArray(), true, 0.1, 1e-5),
               ShapeError);
  EXPECT_THROW(k::BatchNormForward(x, rm, NDArray(), NDArray(), NDArray(), true, 0.1, 1e-5),
               ValueError);
  EXPECT_THROW(k::BatchNormForward(Randn({4}, 1), NDArray(), NDArray(), NDArray(), NDArray(), true,
                                   0.1, 1e-5),
               ShapeError);
}

// ------------------------------------------------------------------ embedding
TEST(NnKernels, Embedding) {
  const NDArray w = Randn({5, 3}, 150);
  NDArray idx = NDArray::Empty({2, 3}, kInt64);
  const std::int64_t iv[] = {4, 0, 4, 1, 1, 4};
  for (index_t i = 0; i < 6; ++i) idx.set({i / 3, i % 3}, static_cast<double>(iv[i]));
  const NDArray y = k::EmbeddingForward(w, idx);
  ASSERT_EQ(y.sizes().vec(), (std::vector<index_t>{2, 3, 3}));
  for (index_t i = 0; i < 6; ++i)
    for (index_t d = 0; d < 3; ++d) EXPECT_EQ(y.get({i / 3, i % 3, d}), w.get({iv[i], d}));
  const NDArray up = Randn({2, 3, 3}, 151);
  const NDArray dw = k::EmbeddingBackward(up, idx, 5);
  CheckGrads([&idx](const std::vector<NDArray>& in) { return k::EmbeddingForward(in[0], idx); },
             {w}, {dw}, up, "embedding");
  // padding_idx rows get nothing; 0-d indices; int32 indices; a strided weight.
  const NDArray dp = k::EmbeddingBackward(up, idx, 5, 4);
  for (index_t d = 0; d < 3; ++d) EXPECT_EQ(dp.get({4, d}), 0.0);
  EXPECT_EQ(k::EmbeddingForward(w, full_int({}, 2, kInt64)).sizes().vec(),
            (std::vector<index_t>{3}));
  ExpectAllClose(k::EmbeddingForward(w, AsType(idx, kInt32)), y, 0, "int32 indices");
  const NDArray wt = Randn({3, 5}, 152).transpose(0, 1);
  ExpectAllClose(k::EmbeddingForward(wt, idx), k::EmbeddingForward(wt.contiguous(), idx), 0,
                 "strided weight");
  EXPECT_THROW(k::EmbeddingForward(w, full_int({2}, 5, kInt64)), IndexError);
  EXPECT_THROW(k::EmbeddingForward(w, full_int({2}, -1, kInt64)), IndexError);
  EXPECT_THROW(k::EmbeddingForward(w, zeros({2})), TypeError);
  EXPECT_THROW(k::EmbeddingForward(Randn({5}, 1), idx), ShapeError);
  EXPECT_THROW(k::EmbeddingBackward(up, idx, 4), IndexError);
  EXPECT_THROW(k::EmbeddingBackward(Randn({2, 3}, 1), idx, 5), ShapeError);
}

// ------------------------------------------------------------------ functional (autograd)
namespace F = nn::functional;

// d sum(f(inputs) * up) / d inputs through autograd, for the inputs marked in `wrt`.
std::vector<NDArray> AutogradGrads(const Fn& f, const std::vector<NDArray>& inputs,
                                   const std::vector<bool>& wrt, const NDArray& up) {
  std::vector<NDArray> leaves, marked;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    NDArray leaf = inputs[i].Clone();
    if (wrt[i]) {
      leaf.set_requires_grad(true);
      marked.push_back(leaf);
    }
    leaves.push_back(leaf);
  }
  const NDArray y = f(leaves);
  EXPECT_TRUE(y.requires_grad());
  const std::vector<NDArray> g = autograd::Grad({y}, marked, {up});
  std::vector<NDArray> out;
  std::size_t j = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) out.push_back(wrt[i] ? g[j++] : NDArray());
  return out;
}

void CheckAutograd(const Fn& f, const std::vector<NDArray>& inputs, const std::vector<bool>& wrt,
                   const std::string& what) {
  const NDArray up = Randn(f(inputs).sizes(), 999);
  CheckGrads(f, inputs, AutogradGrads(f, inputs, wrt, up), up, what);
}

TEST(NnFunctional, GradientsThroughAutograd) {
  const NDArray x2 = Randn({4, 5}, 200), w2 = Randn({3, 5}, 201), b2 = Randn({3}, 202);
  CheckAutograd([](const std::vector<NDArray>& in) { return F::linear(in[0], in[1], in[2]); },
                {x2, w2, b2}, {true, true, true}, "linear");
  CheckAutograd([](const std::vector<NDArray>& in) { return F::linear(in[0], in[1], in[2]); },
                {x2, w2, b2}, {false, true, false}, "linear weight only");
  const NDArray x4 = Randn({2, 2, 6, 5}, 203), w4 = Randn({3, 2, 3, 2}, 204), b4 = Randn({3}, 205);
  CheckAutograd(
      [](const std::vector<NDArray>& in) {
        return F::conv2d(in[0], in[1], in[2], {2, 1}, {1, 1}, {1, 2});
      },
      {x4, w4, b4}, {true, true, true}, "conv2d");
  CheckAutograd(
      [](const std::vector<NDArray>& in) {
        return F::max_pool2d(in[0], {2, 2});
      },
      {x4}, {true}, "max_pool2d");
  CheckAutograd(
      [](const std::vector<NDArray>& in) {
        return F::avg_pool2d(in[0], {3, 3}, {2, 2}, {1, 1});
      },
      {x4}, {true}, "avg_pool2d");
  CheckAutograd([](const std::vector<NDArray>& in) { return F::relu(in[0]); }, {x2}, {true},
                "relu");
  CheckAutograd([](const std::vector<NDArray>& in) { return F::gelu(in[0], "tanh"); }, {x2}, {true},
                "gelu");
  CheckAutograd([](const std::vector<NDArray>& in) { return F::sigmoid(in[0]); }, {x2}, {true},
                "sigmoid");
  CheckAutograd([](const std::vector<NDArray>& in) { return F::tanh(in[0]); }, {x2}, {true},
                "tanh");
  CheckAutograd([](const std::vector<NDArray>& in) { return F::softmax(in[0], 0); }, {x2}, {true},
                "softmax");
  CheckAutograd([](const std::vector<NDArray>& in) { return F::log_softmax(in[0], 1); }, {x2},
                {true}, "log_softmax");
  NDArray t = NDArray::Empty({4}, kInt64);
  for (index_t i = 0; i < 4; ++i) t.set({i}, static_cast<double>((i * 2) % 5));
  CheckAutograd(
      [&t](const std::vector<NDArray>& in) {
        return F::cross_entropy(in[0], t, nn::Reduction::kMean);
      },
      {x2}, {true}, "cross_entropy");
  CheckAutograd(
      [&t](const std::vector<NDArray>& in) {
        return F::nll_loss(in[0], t, nn::Reduction::kNone, 4);
      },
      {x2}, {true}, "nll_loss");
  const NDArray y2 = Randn({4, 5}, 206);
  CheckAutograd(
      [](const std::vector<NDArray>& in) { return F::mse_loss(in[0], in[1], nn::Reduction::kSum); },
      {x2, y2}, {true, true}, "mse_loss");
  CheckAutograd(
      [](const std::vector<NDArray>& in) {
        return F::mse_loss(in[0], in[1], nn::Reduction::kMean);
      },
      {x2, y2}, {false, true}, "mse_loss target");
  const NDArray wb = Randn({2}, 207), bb = Randn({2}, 208);
  CheckAutograd(
      [](const std::vector<NDArray>& in) {
        return F::batch_norm(in[0], NDArray(), NDArray(), in[1], in[2], true);
      },
      {x4, wb, bb}, {true, true, true}, "batch_norm");
  NDArray idx = NDArray::Empty({3}, kInt64);
  for (index_t i = 0; i < 3; ++i) idx.set({i}, static_cast<double>(i % 2));
  CheckAutograd([&idx](const std::vector<NDArray>& in) { return F::embedding(idx, in[0]); }, {w2},
                {true}, "embedding");
  // A chain: linear -> relu -> linear -> cross_entropy, all inputs at once.
  const NDArray w3 = Randn({5, 3}, 209);
  CheckAutograd(
      [&t](const std::vector<NDArray>& in) {
        const NDArray h = F::relu(F::linear(in[0], in[1], in[2]));
        return F::cross_entropy(F::linear(h, in[3]), t);
      },
      {x2, w2, b2, w3}, {true, true, true, true}, "mlp chain");
}

TEST(NnFunctional, RecordsOnlyWhenNeeded) {
  const NDArray x = Randn({3, 4}, 210);
  const NDArray y = F::relu(x);
  EXPECT_FALSE(y.requires_grad());
  EXPECT_EQ(autograd::GradFnName(y), "");
  NDArray leaf = x.Clone();
  leaf.set_requires_grad(true);
  EXPECT_EQ(autograd::GradFnName(F::relu(leaf)), "relu");
  EXPECT_EQ(autograd::GradFnName(F::cross_entropy(leaf, full_int({3}, 1, kInt64))), "nll_loss");
  {
    NoGradGuard no_grad;
    EXPECT_FALSE(F::sigmoid(leaf).requires_grad());
  }
  // Eval-mode dropout is the identity; backward through a training dropout uses its mask.
  EXPECT_TRUE(F::dropout(leaf, 0.5, false).is_same(leaf));
  Generator gen(5);
  const NDArray d = F::dropout(leaf, 0.5, true, &gen);
  d.backward(ones({3, 4}));
  for (index_t i = 0; i < 12; ++i) {
    EXPECT_EQ(leaf.grad().get({i / 4, i % 4}) == 0.0, d.get({i / 4, i % 4}) == 0.0);
  }
}

// ------------------------------------------------------------------ modules
TEST(NnModules, RegistrationNamesAndModes) {
  Generator gen(1);
  auto seq = std::make_shared<nn::Sequential>();
  seq->push_back(std::make_shared<nn::Conv2d>(1, 2, nn::Size2{3, 3}, nn::Size2{1, 1},
                                              nn::Size2{1, 1}, nn::Size2{1, 1}, true, kFloat64,
                                              &gen));
  seq->push_back(std::make_shared<nn::BatchNorm2d>(2, 1e-5, 0.1, true, true, kFloat64));
  seq->push_back(std::make_shared<nn::ReLU>());
  seq->push_back(std::make_shared<nn::MaxPool2d>(nn::Size2{2, 2}));
  seq->push_back(std::make_shared<nn::Flatten>());
  seq->push_back(std::make_shared<nn::Dropout>(0.0));
  seq->push_back(std::make_shared<nn::Linear>(8, 3, true, kFloat64, &gen));
  std::vector<std::string> names;
  for (const auto& p : seq->named_parameters()) {
    names.push_back(p.first);
    EXPECT_TRUE(p.second.requires_grad()) << p.first;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"0.weight", "0.bias", "1.weight", "1.bias", "6.weight",
                                             "6.bias"}));
  names.clear();
  for (const auto& b : seq->named_buffers()) names.push_back(b.first);
  EXPECT_EQ(names,
            (std::vector<std::string>{"1.running_mean", "1.running_var", "1.num_batches_tracked"}));
  EXPECT_EQ(seq->state_dict().size(), 9u);
  // Linear's init: uniform in +-1/sqrt(in_features).
  const NDArray w = (*seq)[6]->named_parameters()[0].second;
  EXPECT_LE(amax(w).get({}), 1 / std::sqrt(8.0));
  EXPECT_GE(amin(w).get({}), -1 / std::sqrt(8.0));
  // A forward and backward reach every parameter; eval() reaches every child.
  const NDArray x = Randn({2, 1, 4, 4}, 211);
  const NDArray loss = F::cross_entropy((*seq)(x), full_int({2}, 2, kInt64));
  loss.backward();
  for (const auto& p : seq->named_parameters()) EXPECT_TRUE(p.second.grad().defined()) << p.first;
  auto bn = std::dynamic_pointer_cast<nn::BatchNorm2d>((*seq)[1]);
  EXPECT_EQ(bn->num_batches_tracked.get({}), 1.0);
  EXPECT_NE(bn->running_mean.get({0}), 0.0);
  seq->eval();
  EXPECT_FALSE(bn->is_training());
  const NDArray rm = bn->running_mean.Clone();
  (*seq)(x);
  EXPECT_EQ(bn->running_mean.get({0}), rm.get({0}));
  EXPECT_EQ(bn->num_batches_tracked.get({}), 1.0);
  seq->zero_grad();
  EXPECT_EQ(amax(abs(seq->parameters()[0].grad())).get({}), 0.0);
  seq->zero_grad(true);
  EXPECT_FALSE(seq->parameters()[0].grad().defined());
  EXPECT_THROW((*seq)[7], IndexError);
  EXPECT_THROW(nn::Linear(-1, 2), ValueError);
  EXPECT_THROW(nn::Dropout(2.0), ValueError);
  EXPECT_THROW((*bn)(Randn({2, 2, 3}, 1)), ShapeError);
}

TEST(NnModules, StateDictSaveLoad) {
  const std::string path = ::testing::TempDir() + "shade_nn_state.npz";
  nn::manual_seed(3);
  auto make = [] {
    auto s = std::make_shared<nn::Sequential>();
    s->push_back(std::make_shared<nn::Linear>(4, 3));
    s->push_back(std::make_shared<nn::BatchNorm2d>(3));
    return s;
  };
  auto a = make(), b = make();
  std::dynamic_pointer_cast<nn::BatchNorm2d>((*a)[1])->running_var.Fill(2.5);
  a->save(path);
  const NDArray bw = b->parameters()[0];
  b->load(path);
  EXPECT_TRUE(b->parameters()[0].is_same(bw));  // loaded in place
  const auto sa = a->state_dict(), sb = b->state_dict();
  ASSERT_EQ(sa.size(), sb.size());
  for (std::size_t i = 0; i < sa.size(); ++i) {
    EXPECT_EQ(sa[i].first, sb[i].first);
    ExpectAllClose(sb[i].second, sa[i].second, 0, sa[i].first);
  }
  std::map<std::string, NDArray> state = io::LoadNpz(path);
  state.erase("0.bias");
  EXPECT_THROW(b->load_state_dict(state), ValueError);
  b->load_state_dict(state, false);
  state["0.bias"] = zeros({4}, kFloat32);
  EXPECT_THROW(b->load_state_dict(state), ShapeError);
  state["0.bias"] = zeros({3}, kFloat32);
  state["extra"] = zeros({3}, kFloat32);
  EXPECT_THROW(b->load_state_dict(state), ValueError);
  b->load_state_dict(state, false);
  std::remove(path.c_str());
}

TEST(NnModules, TrainsWithAnOptimizer) {
  // Two Gaussian blobs; an MLP trained by Adam separates them.
  nn::manual_seed(11);
  Generator gen(12);
  NDArray x = gen.randn({64, 2}, kFloat32);
  NDArray t = NDArray::Empty({64}, kInt64);
  for (index_t i = 0; i < 64; ++i) {
    const bool c = i % 2 == 1;
    t.set({i}, c ? 1 : 0);
    x.set({i, 0}, x.get({i, 0}) + (c ? 2.0 : -2.0));
  }
  nn::Sequential model({std::make_shared<nn::Linear>(2, 16), std::make_shared<nn::ReLU>(),
                        std::make_shared<nn::Linear>(16, 2)});
  optim::AdamOptions o;
  o.lr = 0.05;
  optim::Adam opt(model.parameters(), o);
  double first = 0, last = 0;
  for (int step = 0; step < 50; ++step) {
    opt.zero_grad();
    const NDArray loss = F::cross_entropy(model(x), t);
    loss.backward();
    opt.step();
    if (step == 0) first = loss.get({});
    last = loss.get({});
  }
  EXPECT_LT(last, 0.1 * first);
  EXPECT_LT(last, 0.05);
  opt.zero_grad(true);
  EXPECT_FALSE(model.parameters()[0].grad().defined());
}

}  // namespace
}  // namespace shade
