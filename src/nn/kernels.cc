// The graph-free forward / backward kernels of shade::nn::functional (nn/kernels.h).
#include "shade/nn/kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "shade/backend/cpu/blas.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/expr/ext/patch2col.h"
#include "shade/expr/ext/pool.h"
#include "shade/ndarray/apply.h"
#include "shade/ndarray/bridge.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/reduce.h"

namespace shade {
namespace nn {

Reduction ParseReduction(const std::string& name) {
  if (name == "none") return Reduction::kNone;
  if (name == "mean") return Reduction::kMean;
  if (name == "sum") return Reduction::kSum;
  SHADE_THROW << "reduction '" << name << "' is not one of 'none', 'mean', 'sum'";
}

namespace kernels {
namespace {

// Every kernel takes float32 or float64 arrays (the BLAS engine's types).
void CheckFloat(const NDArray& a, const char* who, const char* what) {
  SHADE_CHECK(a.defined()) << who << ": " << what << " is undefined";
  SHADE_CHECK_TYPE(a.type_flag() == kFloat32 || a.type_flag() == kFloat64)
      << who << ": " << what << " has dtype " << a.dtype().name()
      << "; only float32 and float64 are supported";
}

void CheckSameDtype(const NDArray& a, const NDArray& b, const char* who, const char* what) {
  SHADE_CHECK_TYPE(a.type_flag() == b.type_flag())
      << who << ": " << what << " has dtype " << b.dtype().name() << " but the input has "
      << a.dtype().name();
}

void CheckShape(const NDArray& a, IndexSpan want, const char* who, const char* what) {
  SHADE_CHECK_SHAPE(a.sizes() == want)
      << who << ": " << what << " has shape " << a.sizes() << ", expected " << want;
}

// f(TypeTag<T>) for T = float or double (the caller checked the flag with CheckFloat).
template <typename F>
auto DispatchFloat(int flag, F&& f) {
  using R = decltype(f(TypeTag<float>{}));
  return DispatchDType(flag, [&](auto tag) -> R {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value) {
      return f(tag);
    } else {
      SHADE_THROW_TYPE << "nn: dtype " << TypeFlagName(flag) << " is not float32 or float64";
    }
  });
}

// A product that writes zeros when a dimension is empty (the engine is not asked for k = 0).
template <typename T>
void Product(bool ta, bool tb, index_t m, index_t n, index_t k, const T* a, index_t lda, const T* b,
             index_t ldb, T* c, index_t ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (index_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, T(0));
    return;
  }
  blas::Gemm<T>(ta, tb, m, n, k, T(1), a, lda, b, ldb, T(0), c, ldc);
}

// Integer indices as a contiguous int64 copy; bool and floating dtypes are refused (PyTorch).
NDArray AsIndices(const NDArray& idx, const char* who, const char* what) {
  SHADE_CHECK(idx.defined()) << who << ": " << what << " is undefined";
  const int f = idx.type_flag();
  const bool integral = f >= 0 && DispatchDType(f, [](auto tag) {
                          using T = typename decltype(tag)::type;
                          return std::is_integral<T>::value && !std::is_same<T, bool>::value;
                        });
  SHADE_CHECK_TYPE(integral) << who << ": " << what << " must have an integer dtype, got "
                             << idx.dtype().name();
  if (f == kInt64 && idx.is_contiguous()) return idx;
  NDArray out = NDArray::Empty(idx.sizes(), kInt64);
  out.copy_(idx);
  return out;
}

std::vector<index_t> Vec(IndexSpan s) {
  return s.vec();
}

// Rows of x (..., in) seen as a matrix: the product of the leading extents.
index_t Rows(const NDArray& x) {
  index_t m = 1;
  for (int d = 0; d + 1 < x.ndim(); ++d) m *= x.size(d);
  return m;
}

// Zero-padded contiguous copy of x (N, C, H, W) (x itself, contiguous, without padding).
NDArray PadHW(const NDArray& x, Size2 pad) {
  if (pad[0] == 0 && pad[1] == 0) return x.contiguous();
  std::vector<index_t> s = Vec(x.sizes());
  const int nd = x.ndim();
  const index_t h = s[nd - 2], w = s[nd - 1];
  s[nd - 2] = CheckedAdd(h, CheckedMul(pad[0], index_t(2), "pad"), "pad");
  s[nd - 1] = CheckedAdd(w, CheckedMul(pad[1], index_t(2), "pad"), "pad");
  NDArray xp = zeros(IndexSpan(s), x.type_flag());
  xp.narrow(nd - 2, pad[0], h).narrow(nd - 1, pad[1], w).copy_(x);
  return xp;
}

// The part of a padded image that the unpadded one covers, as a contiguous array.
NDArray CropHW(const NDArray& xp, Size2 pad, index_t h, index_t w) {
  if (pad[0] == 0 && pad[1] == 0) return xp;
  const int nd = xp.ndim();
  return xp.narrow(nd - 2, pad[0], h).narrow(nd - 1, pad[1], w).contiguous();
}

// Output extent of a window sweep (PyTorch's floor rule); throws when no window fits.
index_t OutExtent(index_t in, index_t k, index_t s, index_t p, index_t d, const char* who) {
  const index_t span = CheckedAdd(CheckedMul(d, k - 1, who), index_t(1), who);
  const index_t padded = CheckedAdd(in, CheckedMul(p, index_t(2), who), who);
  SHADE_CHECK_SHAPE(padded >= span)
      << who << ": the (dilated) kernel extent " << span << " is larger than the padded input "
      << padded << " (input " << in << ", padding " << p << ")";
  return (padded - span) / s + 1;
}

void CheckSize2(Size2 v, index_t min, const char* who, const char* what) {
  SHADE_CHECK(v[0] >= min && v[1] >= min)
      << who << ": " << what << " (" << v[0] << ", " << v[1] << ") must be at least " << min;
}

// The shape {1, C, 1, ...} that broadcasts a per-channel vector over x (N, C, ...).
std::vector<index_t> ChannelShape(const NDArray& x) {
  std::vector<index_t> s(static_cast<std::size_t>(x.ndim()), 1);
  s[1] = x.size(1);
  return s;
}

// Every axis but the channel axis 1.
AxisSet NonChannelAxes(const NDArray& x) {
  std::vector<index_t> axes;
  for (index_t d = 0; d < x.ndim(); ++d) {
    if (d != 1) axes.push_back(d);
  }
  return AxisSet(axes);
}

}  // namespace

// ------------------------------------------------------------------ linear
namespace {
// W (out, in) as the products read it without a copy: row-major (`rows`: the product takes
// op(W) = W^T from rows of `in`), or the transpose of a row-major (in, out) matrix - a
// transposed view, the layout of a weight kept as x W - read as it is; other layouts are copied.
struct WeightLayout {
  NDArray data;  // the memory read
  bool rows;     // true: (out, in) row-major; false: (in, out) row-major
};
WeightLayout LayoutOf(const NDArray& w) {
  if (w.is_contiguous()) return {w, true};
  if (w.transpose(0, 1).is_contiguous()) return {w, false};
  return {w.contiguous(), true};
}
}  // namespace

NDArray LinearForward(const NDArray& x, const NDArray& w, const NDArray& b) {
  const char* who = "linear";
  CheckFloat(x, who, "input");
  CheckFloat(w, who, "weight");
  CheckSameDtype(x, w, who, "weight");
  SHADE_CHECK_SHAPE(w.ndim() == 2) << who << ": weight must be 2-D (out, in), got " << w.sizes();
  SHADE_CHECK_SHAPE(x.ndim() >= 1 && x.size(-1) == w.size(1))
      << who << ": input " << x.sizes() << " does not end with weight's in_features " << w.size(1);
  const index_t in = w.size(1), out = w.size(0);
  if (b.defined()) {
    CheckFloat(b, who, "bias");
    CheckSameDtype(x, b, who, "bias");
    CheckShape(b, {out}, who, "bias");
  }
  std::vector<index_t> ys = Vec(x.sizes());
  ys.back() = out;
  NDArray y = NDArray::Empty(IndexSpan(ys), x.type_flag());
  const index_t m = Rows(x);
  const NDArray xc = x.contiguous();
  const WeightLayout wl = LayoutOf(w);
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Product<T>(false, wl.rows, m, out, in, xc.data<T>(), in, wl.data.data<T>(),
               wl.rows ? std::max<index_t>(in, 1) : std::max<index_t>(out, 1), y.data<T>(), out);
    return 0;
  });
  if (b.defined()) y += b;
  return y;
}

LinearGrads LinearBackward(const NDArray& grad, const NDArray& x, const NDArray& w, bool has_bias,
                           bool input_grad) {
  const char* who = "linear backward";
  CheckFloat(grad, who, "grad");
  CheckFloat(x, who, "input");
  CheckSameDtype(x, grad, who, "grad");
  CheckSameDtype(x, w, who, "weight");
  const index_t in = w.size(1), out = w.size(0);
  std::vector<index_t> ys = Vec(x.sizes());
  ys.back() = out;
  CheckShape(grad, IndexSpan(ys), who, "grad");
  const index_t m = Rows(x);
  const NDArray g = grad.contiguous(), xc = x.contiguous();
  const WeightLayout wl = LayoutOf(w);
  LinearGrads r;
  if (input_grad) r.input = NDArray::Empty(x.sizes(), x.type_flag());
  // The weight gradient comes in the weight's own layout (a transposed view for a weight kept
  // as x W), so that its accumulation needs no transpose.
  NDArray dw =
      wl.rows ? NDArray::Empty({out, in}, x.type_flag()) : NDArray::Empty({in, out}, x.type_flag());
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (input_grad) {
      Product<T>(false, !wl.rows, m, in, out, g.data<T>(), out, wl.data.data<T>(),
                 wl.rows ? std::max<index_t>(in, 1) : std::max<index_t>(out, 1), r.input.data<T>(),
                 in);
    }
    if (wl.rows) {
      Product<T>(true, false, out, in, m, g.data<T>(), out, xc.data<T>(), in, dw.data<T>(), in);
    } else {
      Product<T>(true, false, in, out, m, xc.data<T>(), in, g.data<T>(), out, dw.data<T>(), out);
    }
    return 0;
  });
  r.weight = wl.rows ? dw : dw.transpose(0, 1);
  if (has_bias) r.bias = sum(g.reshape({m, out}), AxisSet(0));
  return r;
}

// ------------------------------------------------------------------ conv2d
namespace {
struct ConvShape {
  index_t n, c, h, w, o, kh, kw, oh, ow;
};

ConvShape CheckConv(const NDArray& x, const NDArray& w, const Conv2dOptions& opt, const char* who) {
  CheckFloat(x, who, "input");
  CheckFloat(w, who, "weight");
  CheckSameDtype(x, w, who, "weight");
  SHADE_CHECK_SHAPE(x.ndim() == 4) << who << ": input must be 4-D (N, C, H, W), got " << x.sizes();
  SHADE_CHECK_SHAPE(w.ndim() == 4)
      << who << ": weight must be 4-D (O, C, kh, kw), got " << w.sizes();
  SHADE_CHECK_SHAPE(w.size(1) == x.size(1))
      << who << ": weight " << w.sizes() << " expects " << w.size(1) << " input channels, input "
      << x.sizes() << " has " << x.size(1);
  CheckSize2(opt.stride, 1, who, "stride");
  CheckSize2(opt.padding, 0, who, "padding");
  CheckSize2(opt.dilation, 1, who, "dilation");
  SHADE_CHECK(w.size(2) >= 1 && w.size(3) >= 1)
      << who << ": kernel " << w.size(2) << "x" << w.size(3) << " is empty";
  ConvShape s{x.size(0), x.size(1), x.size(2), x.size(3), w.size(0), w.size(2), w.size(3), 0, 0};
  s.oh = OutExtent(s.h, s.kh, opt.stride[0], opt.padding[0], opt.dilation[0], who);
  s.ow = OutExtent(s.w, s.kw, opt.stride[1], opt.padding[1], opt.dilation[1], who);
  return s;
}

// The batch runs in groups of images: each group's patches are unpacked into a buffer of its
// thread (small enough to stay in cache) and multiplied in one product with at least
// kGroupColumns columns, so that the packing of W inside the product is amortised. Contiguous
// ranges of groups go to the threads; inside a range the products run on that thread. The
// grouping depends on the shapes only, and the weight gradient's partial sums on the thread
// count, so a result is reproducible for a given thread count.
constexpr index_t kGroupColumns = 256;

struct ConvGroups {
  index_t plane, rows, group, groups, ranges, slot;
  ConvGroups(const ConvShape& s) {  // NOLINT(runtime/explicit)
    plane = s.oh * s.ow;
    rows = s.c * s.kh * s.kw;
    group = std::max<index_t>(1, (kGroupColumns + plane - 1) / std::max<index_t>(plane, 1));
    groups = (s.n + group - 1) / group;
    ranges = std::max<index_t>(1, std::min<index_t>(groups, static_cast<index_t>(GetNumThreads())));
    slot = CheckedMul(CheckedMul(rows, group, "conv2d"), plane, "conv2d");
  }
  // fn(n0, n1, range) for every group, ranges in parallel.
  template <typename F>
  void ForEach(index_t n, F fn) const {
    ParallelFor(0, ranges, 1, [&](index_t begin, index_t end) {
      for (index_t r = begin; r < end; ++r) {
        for (index_t g = r * groups / ranges; g < (r + 1) * groups / ranges; ++g) {
          fn(g * group, std::min(n, (g + 1) * group), r);
        }
      }
    });
  }
};

// The patches of images [n0, n1) of the padded input into col (rows x (n1 - n0) plane).
template <typename T>
void UnpackGroup(const NDArray& xp, index_t n0, index_t n1, const ConvGroups& cg,
                 const ConvShape& s, const Conv2dOptions& opt, T* col) {
  using namespace shade::expr;  // NOLINT(build/namespaces)
  Tensor<cpu, 4, T> img = ToTensor<cpu, 4, T>(xp).Slice(n0, n1);
  Tensor<cpu, 2, T> ct(col, Shape2(cg.rows, (n1 - n0) * cg.plane));
  ct = unpack_patch2col(img, s.kh, s.kw, opt.stride[0], opt.stride[1], opt.dilation[0],
                        opt.dilation[1]);
}
}  // namespace

NDArray Conv2dForward(const NDArray& x, const NDArray& w, const NDArray& b,
                      const Conv2dOptions& opt) {
  const char* who = "conv2d";
  const ConvShape s = CheckConv(x, w, opt, who);
  if (b.defined()) {
    CheckFloat(b, who, "bias");
    CheckSameDtype(x, b, who, "bias");
    CheckShape(b, {s.o}, who, "bias");
  }
  NDArray y = NDArray::Empty({s.n, s.o, s.oh, s.ow}, x.type_flag());
  if (y.numel() == 0) return y;
  const ConvGroups cg(s);
  const NDArray wc = w.contiguous(), xp = PadHW(x, opt.padding);
  const NDArray bc = b.defined() ? b.contiguous() : NDArray();
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<T> patches(static_cast<std::size_t>(CheckedMul(cg.ranges, cg.slot, who)));
    std::vector<T> prods(
        cg.group > 1 ? static_cast<std::size_t>(cg.ranges * s.o * cg.group * cg.plane) : 0);
    const T* wp = wc.data<T>();
    const T* bp = b.defined() ? bc.data<T>() : nullptr;
    T* yp = y.data<T>();
    cg.ForEach(s.n, [&](index_t n0, index_t n1, index_t range) {
      const index_t cols = (n1 - n0) * cg.plane;
      T* col = patches.data() + range * cg.slot;
      UnpackGroup<T>(xp, n0, n1, cg, s, opt, col);
      // One image: the product is its NCHW planes already; several: a channel-major block.
      const bool direct = n1 - n0 == 1;
      T* prod =
          direct ? yp + n0 * s.o * cg.plane : prods.data() + range * s.o * cg.group * cg.plane;
      Product<T>(false, false, s.o, cols, cg.rows, wp, cg.rows, col, cols, prod, cols);
      for (index_t n = n0; n < n1; ++n) {
        for (index_t q = 0; q < s.o; ++q) {
          const T* from = prod + q * cols + (n - n0) * cg.plane;
          T* to = yp + (n * s.o + q) * cg.plane;
          const T bias = bp ? bp[q] : T(0);
          for (index_t i = 0; i < cg.plane; ++i) to[i] = from[i] + bias;
        }
      }
    });
    return 0;
  });
  return y;
}

Conv2dGrads Conv2dBackward(const NDArray& grad, const NDArray& x, const NDArray& w, bool has_bias,
                           const Conv2dOptions& opt, bool input_grad) {
  const char* who = "conv2d backward";
  const ConvShape s = CheckConv(x, w, opt, who);
  CheckFloat(grad, who, "grad");
  CheckSameDtype(x, grad, who, "grad");
  CheckShape(grad, {s.n, s.o, s.oh, s.ow}, who, "grad");
  Conv2dGrads r;
  r.weight = zeros(w.sizes(), x.type_flag());
  const NDArray xp = PadHW(x, opt.padding);
  NDArray dxp = input_grad ? zeros(xp.sizes(), x.type_flag()) : NDArray();
  if (has_bias) r.bias = sum(grad, AxisSet({0, 2, 3}));
  if (grad.numel() == 0) {
    if (input_grad) r.input = CropHW(dxp, opt.padding, s.h, s.w);
    return r;
  }
  const ConvGroups cg(s);
  const NDArray g = grad.contiguous(), wc = w.contiguous();
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using namespace shade::expr;         // NOLINT(build/namespaces)
    const index_t part = s.o * cg.rows;  // one range's share of the weight gradient
    const index_t block = s.o * cg.group * cg.plane;
    std::vector<T> patches(static_cast<std::size_t>(CheckedMul(cg.ranges, cg.slot, who)));
    std::vector<T> patch_grads(input_grad ? patches.size() : 0);
    std::vector<T> partials(static_cast<std::size_t>((cg.ranges - 1) * part), T(0));
    std::vector<T> blocks(cg.group > 1 ? static_cast<std::size_t>(cg.ranges * block) : 0);
    const T* gp = g.data<T>();
    const T* wp = wc.data<T>();
    T* dw = r.weight.data<T>();
    cg.ForEach(s.n, [&](index_t n0, index_t n1, index_t range) {
      const index_t cols = (n1 - n0) * cg.plane;
      T* col = patches.data() + range * cg.slot;
      UnpackGroup<T>(xp, n0, n1, cg, s, opt, col);
      // The output gradient as an O x cols block: one image's planes as they are, else a
      // channel-major copy.
      const T* gblock = gp + n0 * s.o * cg.plane;
      if (n1 - n0 > 1) {
        T* bl = blocks.data() + range * block;
        for (index_t n = n0; n < n1; ++n) {
          for (index_t q = 0; q < s.o; ++q) {
            std::copy(gp + (n * s.o + q) * cg.plane, gp + (n * s.o + q + 1) * cg.plane,
                      bl + q * cols + (n - n0) * cg.plane);
          }
        }
        gblock = bl;
      }
      T* dwr = range == 0 ? dw : partials.data() + (range - 1) * part;
      blas::Gemm<T>(false, true, s.o, cg.rows, cols, T(1), gblock, cols, col, cols, T(1), dwr,
                    cg.rows);
      if (!input_grad) return;
      T* dcol = patch_grads.data() + range * cg.slot;
      Product<T>(true, false, cg.rows, cols, s.o, wp, cg.rows, gblock, cols, dcol, cols);
      Tensor<cpu, 4, T> dimg = ToTensor<cpu, 4, T>(dxp).Slice(n0, n1);
      dimg = pack_col2patch(Tensor<cpu, 2, T>(dcol, Shape2(cg.rows, cols)), dimg.shape_, s.kh, s.kw,
                            opt.stride[0], opt.stride[1], opt.dilation[0], opt.dilation[1]);
    });
    for (index_t rr = 1; rr < cg.ranges; ++rr) {
      const T* from = partials.data() + (rr - 1) * part;
      for (index_t i = 0; i < part; ++i) dw[i] += from[i];
    }
    return 0;
  });
  if (input_grad) r.input = CropHW(dxp, opt.padding, s.h, s.w);
  return r;
}

// ------------------------------------------------------------------ pooling
namespace {
struct PoolShape {
  index_t planes, h, w, oh, ow;
  Size2 k, s, p;
};

PoolShape CheckPool(const NDArray& x, const Pool2dOptions& opt, const char* who) {
  CheckFloat(x, who, "input");
  SHADE_CHECK_SHAPE(x.ndim() == 3 || x.ndim() == 4)
      << who << ": input must be 3-D or 4-D (.., H, W), got " << x.sizes();
  CheckSize2(opt.kernel, 1, who, "kernel_size");
  PoolShape p;
  p.k = opt.kernel;
  p.s = opt.stride[0] == 0 && opt.stride[1] == 0 ? opt.kernel : opt.stride;
  p.p = opt.padding;
  CheckSize2(p.s, 1, who, "stride");
  CheckSize2(p.p, 0, who, "padding");
  SHADE_CHECK(p.p[0] <= p.k[0] / 2 && p.p[1] <= p.k[1] / 2)
      << who << ": padding (" << p.p[0] << ", " << p.p[1]
      << ") must be at most half of the kernel size (" << p.k[0] << ", " << p.k[1] << ")";
  p.h = x.size(-2);
  p.w = x.size(-1);
  p.planes = x.numel() / std::max<index_t>(p.h * p.w, 1);
  if (p.h * p.w == 0) p.planes = x.size(0) * (x.ndim() == 4 ? x.size(1) : 1);
  p.oh = OutExtent(p.h, p.k[0], p.s[0], p.p[0], 1, who);
  p.ow = OutExtent(p.w, p.k[1], p.s[1], p.p[1], 1, who);
  return p;
}

std::vector<index_t> PooledShape(const NDArray& x, const PoolShape& p) {
  std::vector<index_t> s = Vec(x.sizes());
  s[s.size() - 2] = p.oh;
  s[s.size() - 1] = p.ow;
  return s;
}
}  // namespace

MaxPool2dResult MaxPool2dForward(const NDArray& x, const Pool2dOptions& opt) {
  const PoolShape p = CheckPool(x, opt, "max_pool2d");
  const std::vector<index_t> os = PooledShape(x, p);
  MaxPool2dResult r;
  r.output = NDArray::Empty(IndexSpan(os), x.type_flag());
  r.indices = NDArray::Empty(IndexSpan(os), kInt64);
  const NDArray xc = x.contiguous();
  // A loop of its own rather than pool<red::maximum>: PyTorch routes a window's gradient to one
  // element (its first maximum), unpool to every element equal to the maximum.
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = xc.data<T>();
    T* out = r.output.data<T>();
    std::int64_t* idx = r.indices.data<std::int64_t>();
    ParallelFor(0, p.planes, 1, [&](index_t begin, index_t end) {
      for (index_t pl = begin; pl < end; ++pl) {
        const T* src = in + pl * p.h * p.w;
        for (index_t oy = 0; oy < p.oh; ++oy) {
          const index_t y0 = oy * p.s[0] - p.p[0];
          const index_t ys = std::max<index_t>(y0, 0), ye = std::min(y0 + p.k[0], p.h);
          for (index_t ox = 0; ox < p.ow; ++ox) {
            const index_t x0 = ox * p.s[1] - p.p[1];
            const index_t xs = std::max<index_t>(x0, 0), xe = std::min(x0 + p.k[1], p.w);
            T best = -std::numeric_limits<T>::infinity();
            index_t at = ys * p.w + xs;
            for (index_t y = ys; y < ye; ++y) {
              for (index_t xx = xs; xx < xe; ++xx) {
                const T v = src[y * p.w + xx];
                if (v > best || std::isnan(v)) {
                  best = v;
                  at = y * p.w + xx;
                }
              }
            }
            const index_t o = (pl * p.oh + oy) * p.ow + ox;
            out[o] = best;
            idx[o] = at;
          }
        }
      }
    });
    return 0;
  });
  return r;
}

NDArray MaxPool2dBackward(const NDArray& grad, const NDArray& indices, const NDArray& x) {
  const char* who = "max_pool2d backward";
  CheckFloat(grad, who, "grad");
  CheckFloat(x, who, "input");
  CheckSameDtype(x, grad, who, "grad");
  SHADE_CHECK_SHAPE(x.ndim() == 3 || x.ndim() == 4)
      << who << ": input must be 3-D or 4-D, got " << x.sizes();
  SHADE_CHECK_SHAPE(grad.ndim() == x.ndim() && indices.sizes() == grad.sizes())
      << who << ": grad " << grad.sizes() << " and indices " << indices.sizes()
      << " must have one shape of the input's rank " << x.ndim();
  for (int d = 0; d + 2 < x.ndim(); ++d) {
    SHADE_CHECK_SHAPE(grad.size(d) == x.size(d))
        << who << ": grad " << grad.sizes() << " does not match input " << x.sizes();
  }
  const NDArray idx = AsIndices(indices, who, "indices");
  const NDArray g = grad.contiguous();
  NDArray dx = zeros(x.sizes(), x.type_flag());
  const index_t hw = x.size(-2) * x.size(-1);
  const index_t ohw = grad.size(-2) * grad.size(-1);
  const index_t planes = ohw == 0 ? 0 : grad.numel() / ohw;
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* gp = g.data<T>();
    const std::int64_t* ip = idx.data<std::int64_t>();
    T* out = dx.data<T>();
    // Checked before the threads start: a worker must not throw.
    for (index_t o = 0; o < planes * ohw; ++o) {
      SHADE_CHECK_INDEX(ip[o] >= 0 && ip[o] < hw)
          << who << ": index " << ip[o] << " is outside the " << hw << "-element plane";
    }
    ParallelFor(0, planes, 1, [&](index_t begin, index_t end) {
      for (index_t pl = begin; pl < end; ++pl) {
        for (index_t o = pl * ohw; o < (pl + 1) * ohw; ++o) {
          out[pl * hw + ip[o]] += gp[o];
        }
      }
    });
    return 0;
  });
  return dx;
}

NDArray AvgPool2dForward(const NDArray& x, const Pool2dOptions& opt) {
  const PoolShape p = CheckPool(x, opt, "avg_pool2d");
  NDArray y = NDArray::Empty(IndexSpan(PooledShape(x, p)), x.type_flag());
  if (y.numel() == 0) return y;
  const NDArray xp = PadHW(x, p.p);
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using namespace shade::expr;  // NOLINT(build/namespaces)
    const index_t hp = xp.size(-2), wp = xp.size(-1);
    Tensor<cpu, 3, T> src(xp.data<T>(), Shape3(p.planes, hp, wp));
    Tensor<cpu, 3, T> dst(y.data<T>(), Shape3(p.planes, p.oh, p.ow));
    // Inside the padded image every window is whole: red::avg divides by kh kw, which is
    // PyTorch's count_include_pad=True.
    dst = pool<red::avg>(src, p.k[0], p.k[1], p.s[0], p.s[1]);
    return 0;
  });
  return y;
}

NDArray AvgPool2dBackward(const NDArray& grad, const NDArray& x, const Pool2dOptions& opt) {
  const char* who = "avg_pool2d backward";
  const PoolShape p = CheckPool(x, opt, who);
  CheckFloat(grad, who, "grad");
  CheckSameDtype(x, grad, who, "grad");
  CheckShape(grad, IndexSpan(PooledShape(x, p)), who, "grad");
  if (grad.numel() == 0 || x.numel() == 0) return zeros(x.sizes(), x.type_flag());
  const NDArray xp = PadHW(x, p.p);
  const NDArray g = grad.contiguous();
  NDArray dxp = NDArray::Empty(xp.sizes(), x.type_flag());
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using namespace shade::expr;  // NOLINT(build/namespaces)
    const index_t hp = xp.size(-2), wp = xp.size(-1);
    Tensor<cpu, 3, T> src(xp.data<T>(), Shape3(p.planes, hp, wp));
    Tensor<cpu, 3, T> gt(g.data<T>(), Shape3(p.planes, p.oh, p.ow));
    Tensor<cpu, 3, T> dst(dxp.data<T>(), Shape3(p.planes, hp, wp));
    // red::avg's partial gradient reads neither the source nor the pooled values, so the
    // gradient stands in for the pooled data.
    dst = unpool<red::avg>(src, gt, gt, p.k[0], p.k[1], p.s[0], p.s[1]);
    return 0;
  });
  return CropHW(dxp, p.p, p.h, p.w);
}

// ------------------------------------------------------------------ activations
NDArray ReluForward(const NDArray& x) {
  CheckFloat(x, "relu", "input");
  return relu(x);
}

NDArray SigmoidForward(const NDArray& x) {
  CheckFloat(x, "sigmoid", "input");
  return sigmoid(x);
}

NDArray TanhForward(const NDArray& x) {
  CheckFloat(x, "tanh", "input");
  return shade::tanh(x);
}

namespace {
bool GeluTanh(const std::string& approximate, const char* who) {
  SHADE_CHECK(approximate == "none" || approximate == "tanh")
      << who << ": approximate '" << approximate << "' is not 'none' or 'tanh'";
  return approximate == "tanh";
}
}  // namespace

NDArray GeluForward(const NDArray& x, const std::string& approximate) {
  CheckFloat(x, "gelu", "input");
  const bool tanh_form = GeluTanh(approximate, "gelu");
  NDArray y = NDArray::Empty(x.sizes(), x.type_flag());
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T k0 = T(M_SQRT1_2), k1 = T(M_2_SQRTPI * M_SQRT1_2), c = T(0.044715);
    ApplyElementwise<T, T>(
        [&](T& out, T& v) {
          if (tanh_form) {
            out = T(0.5) * v * (T(1) + std::tanh(k1 * (v + c * v * v * v)));
          } else {
            out = T(0.5) * v * (T(1) + std::erf(v * k0));
          }
        },
        ApplyOptions(), y, x);
    return 0;
  });
  return y;
}

NDArray GeluBackward(const NDArray& grad, const NDArray& x, const std::string& approximate) {
  const char* who = "gelu backward";
  CheckFloat(grad, who, "grad");
  CheckSameDtype(x, grad, who, "grad");
  CheckShape(grad, x.sizes(), who, "grad");
  const bool tanh_form = GeluTanh(approximate, who);
  NDArray dx = NDArray::Empty(x.sizes(), x.type_flag());
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T k0 = T(M_SQRT1_2), k1 = T(M_2_SQRTPI * M_SQRT1_2), c = T(0.044715);
    const T inv_sqrt_2pi = T(M_2_SQRTPI * M_SQRT1_2 * 0.5);
    ApplyElementwise<T, T, T>(
        [&](T& out, T& g, T& v) {
          if (tanh_form) {
            const T inner = k1 * (v + c * v * v * v);
            const T t = std::tanh(inner);
            const T dinner = k1 * (T(1) + T(3) * c * v * v);
            out = g * (T(0.5) * (T(1) + t) + T(0.5) * v * (T(1) - t * t) * dinner);
          } else {
            const T cdf = T(0.5) * (T(1) + std::erf(v * k0));
            const T pdf = inv_sqrt_2pi * std::exp(T(-0.5) * v * v);
            out = g * (cdf + v * pdf);
          }
        },
        ApplyOptions(), dx, grad, x);
    return 0;
  });
  return dx;
}

namespace {
// Rank 0 is treated as one element along dim 0 or -1 (PyTorch).
NDArray AsVectorIfScalar(const NDArray& a, index_t dim, const char* who) {
  if (a.ndim() != 0) {
    a.WrapDim(dim);
    return a;
  }
  SHADE_CHECK_INDEX(dim == 0 || dim == -1)
      << who << ": dim " << dim << " is out of range for a 0-d array (expected -1 or 0)";
  return a.reshape({1});
}
NDArray Restore(const NDArray& r, const NDArray& like) {
  return like.ndim() == 0 ? r.reshape({}) : r;
}
}  // namespace

NDArray SoftmaxForward(const NDArray& x, index_t dim) {
  CheckFloat(x, "softmax", "input");
  const NDArray v = AsVectorIfScalar(x, dim, "softmax");
  if (v.numel() == 0) return x.Clone();
  const NDArray e = exp(Expr(v) - max(v, AxisSet(dim), true));
  return Restore(Expr(e) / sum(e, AxisSet(dim), true), x);
}

NDArray SoftmaxBackward(const NDArray& grad, const NDArray& output, index_t dim) {
  CheckFloat(grad, "softmax backward", "grad");
  CheckSameDtype(output, grad, "softmax backward", "grad");
  CheckShape(grad, output.sizes(), "softmax backward", "grad");
  const NDArray y = AsVectorIfScalar(output, dim, "softmax backward");
  const NDArray g = AsVectorIfScalar(grad, dim, "softmax backward");
  if (y.numel() == 0) return grad.Clone();
  const NDArray gy = Expr(g) * y;
  return Restore(Expr(y) * (Expr(g) - sum(gy, AxisSet(dim), true)), output);
}

NDArray LogSoftmaxForward(const NDArray& x, index_t dim) {
  CheckFloat(x, "log_softmax", "input");
  const NDArray v = AsVectorIfScalar(x, dim, "log_softmax");
  if (v.numel() == 0) return x.Clone();
  const NDArray shifted = Expr(v) - max(v, AxisSet(dim), true);
  const NDArray e = exp(shifted);
  return Restore(Expr(shifted) - log(sum(e, AxisSet(dim), true)), x);
}

NDArray LogSoftmaxBackward(const NDArray& grad, const NDArray& output, index_t dim) {
  CheckFloat(grad, "log_softmax backward", "grad");
  CheckSameDtype(output, grad, "log_softmax backward", "grad");
  CheckShape(grad, output.sizes(), "log_softmax backward", "grad");
  const NDArray y = AsVectorIfScalar(output, dim, "log_softmax backward");
  const NDArray g = AsVectorIfScalar(grad, dim, "log_softmax backward");
  if (y.numel() == 0) return grad.Clone();
  return Restore(Expr(g) - exp(y) * sum(g, AxisSet(dim), true), output);
}

// ------------------------------------------------------------------ losses
namespace {
struct NllShape {
  index_t n, c;
  bool batched;
};

NllShape CheckNll(const NDArray& x, const NDArray& target, const char* who) {
  CheckFloat(x, who, "input");
  SHADE_CHECK_SHAPE(x.ndim() == 1 || x.ndim() == 2)
      << who << ": input must be (N, C) or (C), got " << x.sizes();
  SHADE_CHECK(target.defined()) << who << ": target is undefined";
  NllShape s{x.ndim() == 2 ? x.size(0) : 1, x.size(-1), x.ndim() == 2};
  if (s.batched) {
    CheckShape(target, {s.n}, who, "target");
  } else {
    CheckShape(target, {}, who, "target");
  }
  return s;
}

std::int64_t CheckTarget(std::int64_t t, index_t c, std::int64_t ignore, const char* who) {
  SHADE_CHECK_INDEX(t == ignore || (t >= 0 && t < c))
      << who << ": target " << t << " is out of bounds for " << c << " classes";
  return t;
}
}  // namespace

NDArray NllLossForward(const NDArray& x, const NDArray& target, Reduction reduction,
                       std::int64_t ignore_index) {
  const char* who = "nll_loss";
  const NllShape s = CheckNll(x, target, who);
  const NDArray t = AsIndices(target, who, "target");
  const NDArray xc = x.contiguous();
  NDArray per = NDArray::Empty(t.sizes(), x.type_flag());
  double count = 0;
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* xp = xc.data<T>();
    const std::int64_t* tp = t.data<std::int64_t>();
    T* out = per.data<T>();
    for (index_t i = 0; i < s.n; ++i) {
      const std::int64_t ti = CheckTarget(tp[i], s.c, ignore_index, who);
      if (ti == ignore_index) {
        out[i] = T(0);
      } else {
        out[i] = -xp[i * s.c + ti];
        count += 1;
      }
    }
    return 0;
  });
  if (reduction == Reduction::kNone) return per;
  NDArray total = sum(per);
  if (reduction == Reduction::kSum) return total;
  return Expr(total) / NDArray(full({}, count, x.type_flag()));
}

NDArray NllLossBackward(const NDArray& grad, const NDArray& x, const NDArray& target,
                        Reduction reduction, std::int64_t ignore_index) {
  const char* who = "nll_loss backward";
  const NllShape s = CheckNll(x, target, who);
  CheckFloat(grad, who, "grad");
  CheckSameDtype(x, grad, who, "grad");
  if (reduction == Reduction::kNone) {
    CheckShape(grad, target.sizes(), who, "grad");
  } else {
    CheckShape(grad, {}, who, "grad");
  }
  const NDArray t = AsIndices(target, who, "target");
  const NDArray g = grad.contiguous();
  NDArray dx = zeros(x.sizes(), x.type_flag());
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const std::int64_t* tp = t.data<std::int64_t>();
    const T* gp = g.data<T>();
    T* out = dx.data<T>();
    index_t count = 0;
    for (index_t i = 0; i < s.n; ++i) {
      if (CheckTarget(tp[i], s.c, ignore_index, who) != ignore_index) ++count;
    }
    for (index_t i = 0; i < s.n; ++i) {
      if (tp[i] == ignore_index) continue;
      T gi = reduction == Reduction::kNone ? gp[i] : gp[0];
      if (reduction == Reduction::kMean) gi = gi / T(count);
      out[i * s.c + tp[i]] = -gi;
    }
    return 0;
  });
  return dx;
}

namespace {
void CheckMse(const NDArray& x, const NDArray& y, const char* who) {
  CheckFloat(x, who, "input");
  CheckFloat(y, who, "target");
  CheckSameDtype(x, y, who, "target");
  CheckShape(y, x.sizes(), who, "target");
}
}  // namespace

NDArray MseLossForward(const NDArray& x, const NDArray& y, Reduction reduction) {
  CheckMse(x, y, "mse_loss");
  const Expr d = Expr(x) - y;
  const NDArray sq = d * d;
  if (reduction == Reduction::kNone) return sq;
  if (reduction == Reduction::kSum) return sum(sq);
  return mean(sq);
}

NDArray MseLossBackward(const NDArray& grad, const NDArray& x, const NDArray& y,
                        Reduction reduction) {
  const char* who = "mse_loss backward";
  CheckMse(x, y, who);
  CheckFloat(grad, who, "grad");
  CheckSameDtype(x, grad, who, "grad");
  if (reduction == Reduction::kNone) {
    CheckShape(grad, x.sizes(), who, "grad");
  } else {
    CheckShape(grad, {}, who, "grad");
  }
  const double scale = reduction == Reduction::kMean
                           ? 2.0 / static_cast<double>(std::max<index_t>(x.numel(), 1))
                           : 2.0;
  NDArray s = full({}, scale, x.type_flag());
  return Expr(s) * (Expr(x) - y) * grad;
}

// ------------------------------------------------------------------ dropout
DropoutResult DropoutForward(const NDArray& x, double p, Generator* gen) {
  CheckFloat(x, "dropout", "input");
  SHADE_CHECK(p >= 0.0 && p <= 1.0) << "dropout: probability " << p << " is not in [0, 1]";
  SHADE_CHECK(gen != nullptr) << "dropout: no generator";
  DropoutResult r;
  r.mask = gen->rand(x.sizes(), x.type_flag());
  DispatchFloat(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T keep = p < 1.0 ? T(1.0 / (1.0 - p)) : T(0);
    const T threshold = T(p);
    ApplyElementwise<T>([&](T& u) { u = u >= threshold && p < 1.0 ? keep : T(0); }, ApplyOptions(),
                        r.mask);
    return 0;
  });
  r.output = Expr(x) * r.mask;
  return r;
}

NDArray DropoutBackward(const NDArray& grad, const NDArray& mask) {
  CheckFloat(grad, "dropout backward", "grad");
  CheckSameDtype(mask, grad, "dropout backward", "grad");
  CheckShape(grad, mask.sizes(), "dropout backward", "grad");
  return Expr(grad) * mask;
}

// ------------------------------------------------------------------ batch norm
namespace {
void CheckChannelVector(const NDArray& v, const NDArray& x, const char* who, const char* what) {
  if (!v.defined()) return;
  CheckFloat(v, who, what);
  CheckSameDtype(x, v, who, what);
  CheckShape(v, {x.size(1)}, who, what);
}
}  // namespace

BatchNormResult BatchNormForward(const NDArray& x, const NDArray& running_mean,
                                 const NDArray& running_var, const NDArray& weight,
                                 const NDArray& bias, bool training, double momentum, double eps) {
  const char* who = "batch_norm";
  CheckFloat(x, who, "input");
  SHADE_CHECK_SHAPE(x.ndim() >= 2) << who << ": input must be (N, C, ...), got " << x.sizes();
  CheckChannelVector(running_mean, x, who, "running_mean");
  CheckChannelVector(running_var, x, who, "running_var");
  CheckChannelVector(weight, x, who, "weight");
  CheckChannelVector(bias, x, who, "bias");
  SHADE_CHECK(running_mean.defined() == running_var.defined())
      << who << ": running_mean and running_var must both be given or both be undefined";
  SHADE_CHECK(eps >= 0) << who << ": eps " << eps << " is negative";
  const index_t c = x.size(1);
  const index_t n = c == 0 ? 0 : x.numel() / c;
  const std::vector<index_t> cs = ChannelShape(x);
  BatchNormResult r;
  if (training) {
    SHADE_CHECK(n > 1) << who << ": expected more than 1 value per channel when training, got "
                       << x.sizes();
    const AxisSet axes = NonChannelAxes(x);
    r.save_mean = mean(x, axes);
    const NDArray batch_var = var(x, axes);
    r.save_invstd = 1 / sqrt(Expr(batch_var) + eps);
    if (running_mean.defined()) {
      running_mean.CheckWriteable(who);
      running_var.CheckWriteable(who);
      const double unbias = static_cast<double>(n) / static_cast<double>(n - 1);
      (Expr(running_mean) * (1 - momentum) + Expr(r.save_mean) * momentum).eval(running_mean);
      (Expr(running_var) * (1 - momentum) + Expr(batch_var) * (momentum * unbias))
          .eval(running_var);
    }
  } else {
    SHADE_CHECK(running_mean.defined())
        << who << ": evaluation mode needs running_mean and running_var";
    r.save_mean = running_mean.Clone();
    r.save_invstd = 1 / sqrt(Expr(running_var) + eps);
  }
  NDArray scale = weight.defined() ? NDArray(Expr(r.save_invstd) * weight) : r.save_invstd;
  Expr y = (Expr(x) - r.save_mean.reshape(IndexSpan(cs))) * scale.reshape(IndexSpan(cs));
  r.output = bias.defined() ? NDArray(y + bias.reshape(IndexSpan(cs))) : NDArray(y);
  return r;
}

BatchNormGrads BatchNormBackward(const NDArray& grad, const NDArray& x, const NDArray& weight,
                                 const NDArray& save_mean, const NDArray& save_invstd,
                                 bool training) {
  const char* who = "batch_norm backward";
  CheckFloat(x, who, "input");
  CheckFloat(grad, who, "grad");
  CheckSameDtype(x, grad, who, "grad");
  SHADE_CHECK_SHAPE(x.ndim() >= 2) << who << ": input must be (N, C, ...), got " << x.sizes();
  CheckShape(grad, x.sizes(), who, "grad");
  CheckChannelVector(weight, x, who, "weight");
  SHADE_CHECK(save_mean.defined() && save_invstd.defined())
      << who << ": save_mean and save_invstd are needed";
  CheckChannelVector(save_mean, x, who, "save_mean");
  CheckChannelVector(save_invstd, x, who, "save_invstd");
  const std::vector<index_t> cs = ChannelShape(x);
  const IndexSpan csp(cs);
  const AxisSet axes = NonChannelAxes(x);
  const index_t c = x.size(1);
  const double n = c == 0 ? 0.0 : static_cast<double>(x.numel() / c);
  const NDArray xhat = (Expr(x) - save_mean.reshape(csp)) * save_invstd.reshape(csp);
  BatchNormGrads r;
  r.bias = sum(grad, axes);
  r.weight = sum(Expr(grad) * xhat, axes);
  const NDArray scale =
      weight.defined() ? NDArray(Expr(save_invstd) * weight) : save_invstd.Clone();
  if (training) {
    // dx = scale / n * (n g - sum(g) - xhat sum(g xhat)), the batch statistics' share included.
    const NDArray k = Expr(scale) / n;
    r.input = Expr(k.reshape(csp)) *
              (Expr(grad) * n - r.bias.reshape(csp) - Expr(xhat) * r.weight.reshape(csp));
  } else {
    r.input = Expr(grad) * scale.reshape(csp);
  }
  return r;
}

// ------------------------------------------------------------------ embedding
NDArray EmbeddingForward(const NDArray& weight, const NDArray& indices) {
  const char* who = "embedding";
  CheckFloat(weight, who, "weight");
  SHADE_CHECK_SHAPE(weight.ndim() == 2)
      << who << ": weight must be 2-D (V, D), got " << weight.sizes();
  const NDArray idx = AsIndices(indices, who, "indices");
  const index_t v = weight.size(0), d = weight.size(1);
  std::vector<index_t> os = Vec(idx.sizes());
  os.push_back(d);
  NDArray out = NDArray::Empty(IndexSpan(os), weight.type_flag());
  const NDArray wc = weight.contiguous();
  const std::int64_t* ip = idx.data<std::int64_t>();
  const std::size_t row = static_cast<std::size_t>(d) * wc.itemsize();
  const char* src = static_cast<const char*>(wc.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  for (index_t i = 0; i < idx.numel(); ++i) {
    SHADE_CHECK_INDEX(ip[i] >= 0 && ip[i] < v)
        << who << ": index " << ip[i] << " is out of range for " << v << " embeddings";
    if (row > 0) std::memcpy(dst + i * row, src + ip[i] * row, row);
  }
  return out;
}

NDArray EmbeddingBackward(const NDArray& grad, const NDArray& indices, index_t num_weights,
                          index_t padding_idx) {
  const char* who = "embedding backward";
  CheckFloat(grad, who, "grad");
  const NDArray idx = AsIndices(indices, who, "indices");
  SHADE_CHECK_SHAPE(grad.ndim() == idx.ndim() + 1)
      << who << ": grad " << grad.sizes() << " must be indices' shape " << idx.sizes()
      << " plus the embedding dimension";
  for (int k = 0; k < idx.ndim(); ++k) {
    SHADE_CHECK_SHAPE(grad.size(k) == idx.size(k))
        << who << ": grad " << grad.sizes() << " does not match indices " << idx.sizes();
  }
  SHADE_CHECK(num_weights >= 0) << who << ": num_weights " << num_weights << " is negative";
  const index_t d = grad.size(-1);
  NDArray dw = zeros({num_weights, d}, grad.type_flag());
  const NDArray g = grad.contiguous();
  DispatchFloat(grad.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const std::int64_t* ip = idx.data<std::int64_t>();
    const T* gp = g.data<T>();
    T* out = dw.data<T>();
    for (index_t i = 0; i < idx.numel(); ++i) {
      SHADE_CHECK_INDEX(ip[i] >= 0 && ip[i] < num_weights)
          << who << ": index " << ip[i] << " is out of range for " << num_weights << " embeddings";
      if (ip[i] == padding_idx) continue;
      for (index_t j = 0; j < d; ++j) out[ip[i] * d + j] += gp[i * d + j];
    }
    return 0;
  });
  return dw;
}

}  // namespace kernels
}  // namespace nn
}  // namespace shade
