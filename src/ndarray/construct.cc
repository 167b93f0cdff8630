// Construction and shape helpers (ndarray/construct.h): compositions of views, copy_/Fill, the
// joins of shape_ops.h, the lazy ops and the reductions. The only element loops written here
// are over contiguous int64 / uint8 / float64 buffers (flat indices, bits, medians).
#include "shade/ndarray/construct.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>

#include "operand_check.h"
#include "shade/base/checked.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/shape/broadcast.h"

namespace shade {
namespace {

std::string ShapeText(IndexSpan s) {
  std::ostringstream os;
  os << "(";
  for (std::size_t i = 0; i < s.size(); ++i)
    os << (i ? ", " : "") << s[i] << (s.size() == 1 ? "," : "");
  os << ")";
  return os.str();
}

NDArray ReadOnly(NDArray v) {
  v.set_writeable(false);
  return v;
}

// The diagonal view without the read-only mark (diag writes through it).
NDArray DiagonalView(const NDArray& a, index_t offset, index_t axis1, index_t axis2) {
  const index_t nd = a.ndim();
  SHADE_CHECK_SHAPE_GE(nd, 2) << "diagonal: diag requires an array of at least two dimensions";
  const index_t a1 = detail::NormalizeAxis(axis1, nd, "diagonal", "axis1");
  const index_t a2 = detail::NormalizeAxis(axis2, nd, "diagonal", "axis2");
  SHADE_CHECK(a1 != a2) << "diagonal: axis1 and axis2 cannot be the same";
  std::vector<index_t> sizes, strides;
  for (index_t d = 0; d < nd; ++d) {
    if (d == a1 || d == a2) continue;
    sizes.push_back(a.size(d));
    strides.push_back(a.stride(d));
  }
  const index_t n1 = a.size(a1), n2 = a.size(a2);
  index_t n = 0, start = a.storage_offset();
  if (offset >= 0) {
    n = std::max<index_t>(0, std::min(n1, n2 - std::min(offset, n2)));
    if (n > 0) start += offset * a.stride(a2);
  } else {
    n = std::max<index_t>(0, std::min(n1 - std::min(-offset, n1), n2));
    if (n > 0) start += -offset * a.stride(a1);
  }
  sizes.push_back(n);
  strides.push_back(a.stride(a1) + a.stride(a2));
  return a.as_strided(sizes, strides, start);
}

// A 0-d float64 array holding v (the source of a converting fill).
NDArray Scalar(double v) {
  NDArray s = NDArray::Empty({}, kFloat64);
  *static_cast<double*>(s.data_ptr()) = v;
  return s;
}

// Contiguous int64 copy of an integer array (flat-index inputs).
NDArray IntegerInput(const NDArray& a, const char* op) {
  detail::CheckOperand(a, op);
  const DTypeKind k = KindOf(a.type_flag());
  SHADE_CHECK_TYPE(k == DTypeKind::kSigned || k == DTypeKind::kUnsigned)
      << op << ": only int indices permitted, got " << TypeFlagName(a.type_flag());
  return astype(a, kInt64).contiguous();
}

}  // namespace

// ------------------------------------------------------------------ broadcasting

std::vector<index_t> broadcast_shapes(const std::vector<std::vector<index_t>>& shapes) {
  std::vector<index_t> out;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    for (index_t s : shapes[i])
      SHADE_CHECK_SHAPE_GE(s, 0) << "broadcast_shapes: negative dimensions are not allowed";
    std::vector<index_t> next(std::max(out.size(), shapes[i].size()));
    const bool ok = BroadcastShapes(out.data(), static_cast<int>(out.size()), shapes[i].data(),
                                    static_cast<int>(shapes[i].size()), next.data());
    if (!ok) {
      // Name the earlier shape that disagrees with shape i, as NumPy does.
      std::size_t j = 0;
      for (; j < i; ++j) {
        std::vector<index_t> tmp(std::max(shapes[j].size(), shapes[i].size()));
        if (!BroadcastShapes(shapes[j].data(), static_cast<int>(shapes[j].size()), shapes[i].data(),
                             static_cast<int>(shapes[i].size()), tmp.data()))
          break;
      }
      SHADE_CHECK_SHAPE(false) << "shape mismatch: objects cannot be broadcast to a single shape.  "
                                  "Mismatch is between arg "
                               << j << " with shape " << ShapeText(shapes[j < i ? j : 0])
                               << " and arg " << i << " with shape " << ShapeText(shapes[i]) << ".";
    }
    out = std::move(next);
  }
  return out;
}

NDArray broadcast_to(const NDArray& a, IndexSpan shape) {
  detail::CheckOperand(a, "broadcast_to");
  for (index_t s : shape)
    SHADE_CHECK_SHAPE_GE(s, 0)
        << "broadcast_to: all elements of broadcast shape must be non-negative";
  const index_t nd = static_cast<index_t>(shape.size()), na = a.ndim();
  bool ok = nd >= na;
  for (index_t i = 0; ok && i < na; ++i) {
    const index_t s = a.size(na - 1 - i), t = shape[static_cast<std::size_t>(nd - 1 - i)];
    ok = s == t || s == 1;
  }
  SHADE_CHECK_SHAPE(ok)
      << "operands could not be broadcast together with remapped shapes [original->remapped]: "
      << ShapeText(a.sizes()) << "  and requested shape " << ShapeText(shape);
  return ReadOnly(a.expand(shape));
}

std::vector<NDArray> broadcast_arrays(const std::vector<NDArray>& arrays) {
  std::vector<std::vector<index_t>> shapes;
  for (const NDArray& a : arrays) {
    detail::CheckOperand(a, "broadcast_arrays");
    shapes.push_back(a.sizes().vec());
  }
  const std::vector<index_t> shape = broadcast_shapes(shapes);
  std::vector<NDArray> out;
  for (const NDArray& a : arrays)
    out.push_back(a.sizes() == IndexSpan(shape) ? a : a.expand(shape));
  return out;
}

// ------------------------------------------------------------------ grids

std::vector<NDArray> meshgrid(const std::vector<NDArray>& xs, bool xy, bool sparse, bool copy) {
  const index_t nd = static_cast<index_t>(xs.size());
  std::vector<NDArray> out;
  for (index_t i = 0; i < nd; ++i) {
    detail::CheckOperand(xs[i], "meshgrid");
    std::vector<index_t> shape(nd, 1);
    index_t pos = i;
    if (xy && nd > 1 && i < 2) pos = 1 - i;  // Cartesian: x varies along columns
    shape[pos] = -1;
    out.push_back(xs[i].reshape(shape));
  }
  if (!sparse && nd > 0) out = broadcast_arrays(out);
  if (copy) {
    for (NDArray& o : out) o = o.Clone();
  }
  return out;
}

std::vector<NDArray> indices_sparse(IndexSpan dims, int dtype) {
  SHADE_CHECK_TYPE(IsValidTypeFlag(dtype)) << "indices: unknown dtype flag " << dtype;
  const index_t nd = static_cast<index_t>(dims.size());
  std::vector<NDArray> out;
  for (index_t i = 0; i < nd; ++i) {
    SHADE_CHECK_SHAPE_GE(dims[i], 0) << "indices: negative dimensions are not allowed";
    std::vector<index_t> shape(nd, 1);
    shape[i] = dims[i];
    NDArray r = NDArray::Empty(shape, dtype);
    r.copy_(detail::ArangeInt(0, dims[i], 1, kInt64).reshape(shape));
    out.push_back(r);
  }
  return out;
}

NDArray indices(IndexSpan dims, int dtype) {
  std::vector<index_t> shape{static_cast<index_t>(dims.size())};
  shape.insert(shape.end(), dims.begin(), dims.end());
  const std::vector<NDArray> parts = indices_sparse(dims, dtype);
  NDArray out = NDArray::Empty(shape, dtype);
  for (std::size_t i = 0; i < parts.size(); ++i)
    out.select(0, static_cast<index_t>(i)).copy_(parts[i]);
  return out;
}

// ------------------------------------------------------------------ axes and ranks

NDArray moveaxis(const NDArray& a, const std::vector<index_t>& source,
                 const std::vector<index_t>& destination) {
  detail::CheckOperand(a, "moveaxis");
  const index_t nd = a.ndim();
  std::vector<index_t> src, dst;
  for (index_t s : source) src.push_back(detail::NormalizeAxis(s, nd, "moveaxis", "source: axis"));
  for (index_t d : destination)
    dst.push_back(detail::NormalizeAxis(d, nd, "moveaxis", "destination: axis"));
  auto unique = [](std::vector<index_t> v) {
    std::sort(v.begin(), v.end());
    return std::adjacent_find(v.begin(), v.end()) == v.end();
  };
  SHADE_CHECK(unique(src)) << "moveaxis: repeated axis in `source` argument";
  SHADE_CHECK(unique(dst)) << "moveaxis: repeated axis in `destination` argument";
  SHADE_CHECK(src.size() == dst.size())
      << "moveaxis: `source` and `destination` arguments must have the same number of elements";
  std::vector<index_t> order;
  for (index_t d = 0; d < nd; ++d) {
    if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(d);
  }
  std::vector<std::pair<index_t, index_t>> moves;
  for (std::size_t i = 0; i < src.size(); ++i) moves.emplace_back(dst[i], src[i]);
  std::sort(moves.begin(), moves.end());
  for (const auto& m : moves) order.insert(order.begin() + m.first, m.second);
  return a.permute(order);
}

NDArray rollaxis(const NDArray& a, index_t axis, index_t start) {
  detail::CheckOperand(a, "rollaxis");
  const index_t n = a.ndim();
  const index_t ax = detail::NormalizeAxis(axis, n, "rollaxis");
  const index_t given = start;
  if (start < 0) start += n;
  SHADE_CHECK_INDEX(start >= 0 && start < n + 1)
      << "rollaxis: 'start' arg requires " << -n << " <= start < " << n + 1 << ", but " << given
      << " was passed in";
  if (ax < start) --start;
  std::vector<index_t> order;
  for (index_t d = 0; d < n; ++d) {
    if (d != ax) order.push_back(d);
  }
  order.insert(order.begin() + start, ax);
  return a.permute(order);
}

NDArray atleast_1d(const NDArray& a) {
  detail::CheckOperand(a, "atleast_1d");
  return a.ndim() == 0 ? a.reshape({1}) : a;
}

NDArray atleast_2d(const NDArray& a) {
  detail::CheckOperand(a, "atleast_2d");
  if (a.ndim() == 0) return a.reshape({1, 1});
  return a.ndim() == 1 ? a.unsqueeze(0) : a;
}

NDArray atleast_3d(const NDArray& a) {
  detail::CheckOperand(a, "atleast_3d");
  if (a.ndim() == 0) return a.reshape({1, 1, 1});
  if (a.ndim() == 1) return a.unsqueeze(0).unsqueeze(2);
  return a.ndim() == 2 ? a.unsqueeze(2) : a;
}

// ------------------------------------------------------------------ stacking and splitting

namespace {
std::vector<NDArray> Map(const std::vector<NDArray>& arrays, NDArray (*f)(const NDArray&)) {
  std::vector<NDArray> out;
  for (const NDArray& a : arrays) out.push_back(f(a));
  return out;
}
}  // namespace

NDArray hstack(const std::vector<NDArray>& arrays) {
  const std::vector<NDArray> xs = Map(arrays, &atleast_1d);
  SHADE_CHECK(!xs.empty()) << "hstack: need at least one array to concatenate";
  return concatenate(xs, xs[0].ndim() == 1 ? 0 : 1);
}

NDArray vstack(const std::vector<NDArray>& arrays) {
  return concatenate(Map(arrays, &atleast_2d), 0);
}

NDArray dstack(const std::vector<NDArray>& arrays) {
  return concatenate(Map(arrays, &atleast_3d), 2);
}

NDArray column_stack(const std::vector<NDArray>& arrays) {
  std::vector<NDArray> xs;
  for (const NDArray& a : arrays) {
    detail::CheckOperand(a, "column_stack");
    xs.push_back(a.ndim() < 2 ? atleast_2d(a).transpose(0, 1) : a);
  }
  return concatenate(xs, 1);
}

namespace {
void CheckSplitRank(const NDArray& a, index_t min_rank, const char* op) {
  detail::CheckOperand(a, op);
  SHADE_CHECK_SHAPE_GE(a.ndim(), min_rank)
      << op << " only works on arrays of " << min_rank << " or more dimensions";
}
index_t HAxis(const NDArray& a) {
  CheckSplitRank(a, 1, "hsplit");
  return a.ndim() > 1 ? 1 : 0;
}
}  // namespace

std::vector<NDArray> hsplit(const NDArray& a, index_t sections) {
  return split(a, sections, HAxis(a));
}
std::vector<NDArray> hsplit(const NDArray& a, const std::vector<index_t>& indices) {
  return split(a, indices, HAxis(a));
}
std::vector<NDArray> vsplit(const NDArray& a, index_t sections) {
  CheckSplitRank(a, 2, "vsplit");
  return split(a, sections, 0);
}
std::vector<NDArray> vsplit(const NDArray& a, const std::vector<index_t>& indices) {
  CheckSplitRank(a, 2, "vsplit");
  return split(a, indices, 0);
}
std::vector<NDArray> dsplit(const NDArray& a, index_t sections) {
  CheckSplitRank(a, 3, "dsplit");
  return split(a, sections, 2);
}
std::vector<NDArray> dsplit(const NDArray& a, const std::vector<index_t>& indices) {
  CheckSplitRank(a, 3, "dsplit");
  return split(a, indices, 2);
}

// ------------------------------------------------------------------ diagonals and triangles

NDArray diagonal(const NDArray& a, index_t offset, index_t axis1, index_t axis2) {
  detail::CheckOperand(a, "diagonal");
  return ReadOnly(DiagonalView(a, offset, axis1, axis2));
}

NDArray diag(const NDArray& v, index_t k) {
  detail::CheckOperand(v, "diag");
  if (v.ndim() == 2) return diagonal(v, k, 0, 1);
  SHADE_CHECK_SHAPE(v.ndim() == 1) << "diag: Input must be 1- or 2-d.";
  const index_t n = CheckedAdd(v.size(0), k < 0 ? -k : k, "diag size");
  NDArray out = zeros({n, n}, v.type_flag());
  DiagonalView(out, k, 0, 1).copy_(v);
  return out;
}

NDArray diagflat(const NDArray& v, index_t k) {
  detail::CheckOperand(v, "diagflat");
  return diag(v.reshape({-1}), k);
}

NDArray trace(const NDArray& a, index_t offset, index_t axis1, index_t axis2, int dtype) {
  detail::CheckOperand(a, "trace");
  NDArray d = DiagonalView(a, offset, axis1, axis2);
  if (dtype >= 0) d = astype(d, dtype);
  return sum(d, AxisSet(index_t{-1}));
}

NDArray tri(index_t n, index_t m, index_t k, int dtype) {
  if (m < 0) m = n;
  SHADE_CHECK_SHAPE_GE(n, 0) << "tri: negative dimensions are not allowed";
  // Element (i, j) is j - i <= k: i against the column numbers shifted by k.
  const NDArray rows = detail::ArangeInt(0, n, 1, kInt64).reshape({n, 1});
  const NDArray cols = detail::ArangeInt(-k, m - k, 1, kInt64);
  const NDArray mask = greater_equal(rows, cols).eval();
  return astype(mask, dtype);
}

namespace {
// m where mask (the last two axes' tri), else zero; 1-D m broadcasts to a square (NumPy).
NDArray Triangle(const NDArray& m, index_t k, bool lower, const char* op) {
  detail::CheckOperand(m, op);
  SHADE_CHECK_SHAPE_GE(m.ndim(), 1) << op << ": the input must have at least one dimension";
  const index_t rows = m.ndim() >= 2 ? m.size(-2) : m.size(-1);
  const index_t cols = m.size(-1);
  const NDArray mask = tri(rows, cols, lower ? k : k - 1, kBool);
  const NDArray zero = zeros({}, m.type_flag());
  return lower ? where(mask, m, zero).eval() : where(mask, zero, m).eval();
}
}  // namespace

NDArray tril(const NDArray& m, index_t k) {
  return Triangle(m, k, true, "tril");
}
NDArray triu(const NDArray& m, index_t k) {
  return Triangle(m, k, false, "triu");
}
NDArray identity(index_t n, int dtype) {
  return eye(n, n, 0, dtype);
}

// ------------------------------------------------------------------ pad

PadMode ParsePadMode(const std::string& name) {
  static const std::pair<const char*, PadMode> kModes[] = {{"constant", PadMode::kConstant},
                                                           {"edge", PadMode::kEdge},
                                                           {"linear_ramp", PadMode::kLinearRamp},
                                                           {"maximum", PadMode::kMaximum},
                                                           {"mean", PadMode::kMean},
                                                           {"median", PadMode::kMedian},
                                                           {"minimum", PadMode::kMinimum},
                                                           {"reflect", PadMode::kReflect},
                                                           {"symmetric", PadMode::kSymmetric},
                                                           {"wrap", PadMode::kWrap},
                                                           {"empty", PadMode::kEmpty}};
  for (const auto& m : kModes) {
    if (name == m.first) return m.second;
  }
  SHADE_CHECK(false) << "pad: mode '" << name << "' is not supported";
  return PadMode::kConstant;
}

namespace {

// Median along `axis` with keepdims, in float64 (NaN when a lane holds NaN, as np.median).
NDArray MedianAlong(const NDArray& chunk, index_t axis) {
  const index_t nd = chunk.ndim();
  std::vector<index_t> order;
  for (index_t d = 0; d < nd; ++d) {
    if (d != axis) order.push_back(d);
  }
  order.push_back(axis);
  const NDArray lanes = astype(chunk.permute(order), kFloat64).contiguous();
  const index_t len = chunk.size(axis);
  std::vector<index_t> out_shape = chunk.sizes().vec();
  out_shape[axis] = 1;
  NDArray out = NDArray::Empty(out_shape, kFloat64);  // contiguous; lane order = other dims' order
  const double* src = static_cast<const double*>(lanes.data_ptr());
  double* dst = static_cast<double*>(out.data_ptr());
  std::vector<double> buf(static_cast<std::size_t>(len));
  const index_t count = len > 0 ? lanes.numel() / len : out.numel();
  for (index_t l = 0; l < count; ++l) {
    if (len == 0) {
      dst[l] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    std::copy(src + l * len, src + (l + 1) * len, buf.begin());
    if (std::any_of(buf.begin(), buf.end(), [](double x) { return std::isnan(x); })) {
      dst[l] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    const std::size_t h = static_cast<std::size_t>(len / 2);
    std::nth_element(buf.begin(), buf.begin() + h, buf.end());
    double v = buf[h];
    if (len % 2 == 0) v = (v + *std::max_element(buf.begin(), buf.begin() + h)) / 2;
    dst[l] = v;
  }
  return out;
}

class Padder {
 public:
  Padder(const NDArray& a, const PadPairs& pw, PadMode mode, const PadOptions& opt)
      : a_(a), pw_(pw), mode_(mode), opt_(opt) {}

  NDArray Run() {
    const index_t nd = a_.ndim();
    std::vector<index_t> shape;
    for (index_t d = 0; d < nd; ++d) {
      const auto& p = pw_[static_cast<std::size_t>(d)];
      shape.push_back(
          CheckedAdd(CheckedAdd(a_.size(d), p.first, "pad size"), p.second, "pad size"));
    }
    out_ = NDArray::Empty(shape, a_.type_flag());
    Center().copy_(a_);
    if (mode_ == PadMode::kEmpty) return out_;
    if (mode_ == PadMode::kConstant) {
      for (index_t d = 0; d < nd; ++d) {
        const auto v = Pair(opt_.constant_values, d);
        Before(out_, d).copy_(Scalar(v.first));
        After(out_, d).copy_(Scalar(v.second));
      }
      return out_;
    }
    if (a_.numel() == 0) {
      for (index_t d = 0; d < nd; ++d) {
        const auto& p = pw_[static_cast<std::size_t>(d)];
        SHADE_CHECK_SHAPE(a_.size(d) != 0 || (p.first == 0 && p.second == 0))
            << "can't extend empty axis " << d << " using modes other than 'constant' or 'empty'";
      }
      return out_;
    }
    for (index_t d = 0; d < nd; ++d) PadAxis(d);
    return out_;
  }

 private:
  std::pair<double, double> Pair(const PadValues& v, index_t d) const {
    return v.empty() ? std::pair<double, double>(0, 0) : v[static_cast<std::size_t>(d)];
  }
  index_t L(index_t d) const { return pw_[static_cast<std::size_t>(d)].first; }
  index_t R(index_t d) const { return pw_[static_cast<std::size_t>(d)].second; }
  NDArray Center() const {
    NDArray c = out_;
    for (index_t d = 0; d < a_.ndim(); ++d) c = c.narrow(d, L(d), a_.size(d));
    return c;
  }
  NDArray Before(const NDArray& v, index_t d) const { return v.narrow(d, 0, L(d)); }
  NDArray After(const NDArray& v, index_t d) const { return v.narrow(d, L(d) + a_.size(d), R(d)); }
  // Axes after d restricted to the original area (their pads are written later), as NumPy.
  NDArray Roi(index_t d) const {
    NDArray r = out_;
    for (index_t e = d + 1; e < a_.ndim(); ++e) r = r.narrow(e, L(e), a_.size(e));
    return r;
  }
  // Values of an integer array are rounded (half to even) before the assignment casts them.
  NDArray Rounded(const NDArray& stat) const {
    const DTypeKind k = KindOf(a_.type_flag());
    if (k == DTypeKind::kSigned || k == DTypeKind::kUnsigned) return round(stat).eval();
    return stat;
  }

  void PadAxis(index_t d) {
    const index_t left = L(d), right = R(d), n = a_.size(d);
    if (left == 0 && right == 0) return;
    NDArray roi = Roi(d);
    switch (mode_) {
      case PadMode::kEdge:
        Before(roi, d).copy_(roi.narrow(d, left, 1));
        After(roi, d).copy_(roi.narrow(d, left + n - 1, 1));
        return;
      case PadMode::kLinearRamp:
        LinearRamp(roi, d);
        return;
      case PadMode::kMaximum:
      case PadMode::kMinimum:
      case PadMode::kMean:
      case PadMode::kMedian:
        Stat(roi, d);
        return;
      case PadMode::kReflect:
      case PadMode::kSymmetric:
        if (n == 1) {  // NumPy's legacy behaviour: a singleton axis extends as 'edge'
          Before(roi, d).copy_(roi.narrow(d, left, 1));
          After(roi, d).copy_(roi.narrow(d, left, 1));
          return;
        }
        Reflect(roi, d, mode_ == PadMode::kSymmetric);
        return;
      case PadMode::kWrap:
        Wrap(roi, d);
        return;
      default:
        return;
    }
  }

  void LinearRamp(const NDArray& roi, index_t d) {
    const index_t left = L(d), right = R(d), n = a_.size(d);
    const auto ends = Pair(opt_.end_values, d);
    const DTypeKind kind = KindOf(a_.type_flag());
    const bool integral = kind == DTypeKind::kSigned || kind == DTypeKind::kUnsigned;
    // NumPy's linspace (float64: its end value is a float64 0-d array, strong under NEP 50):
    // i * step + e with step = (x - e) / w, but (i / w) * (x - e) + e for every lane once any
    // lane's step is zero; integer dtypes take the floor.
    const NDArray edge_l = astype(roi.narrow(d, left, 1), kFloat64);
    const NDArray edge_r = astype(roi.narrow(d, left + n - 1, 1), kFloat64);
    auto ramp = [integral](const NDArray& edge, double end, index_t w, auto&& place) {
      if (w == 0) return;
      const NDArray delta = (edge - end).eval();
      const NDArray step = (delta / static_cast<double>(w)).eval();
      const bool any_zero = item<bool>(any(equal(step, 0).eval()));
      for (index_t i = 0; i < w; ++i) {
        Expr v = any_zero ? delta * (static_cast<double>(i) / static_cast<double>(w)) + end
                          : step * static_cast<double>(i) + end;
        place(i, integral ? floor(v).eval() : v.eval());
      }
    };
    ramp(edge_l, ends.first, left,
         [&](index_t i, const NDArray& v) { roi.narrow(d, i, 1).copy_(v); });
    ramp(edge_r, ends.second, right,
         [&](index_t i, const NDArray& v) { roi.narrow(d, left + n + right - 1 - i, 1).copy_(v); });
  }

  NDArray StatOf(const NDArray& chunk, index_t d) const {
    switch (mode_) {
      case PadMode::kMaximum:
        return max(chunk, AxisSet(d), true);
      case PadMode::kMinimum:
        return min(chunk, AxisSet(d), true);
      case PadMode::kMean:
        return Rounded(mean(chunk, AxisSet(d), true));
      default:
        return Rounded(MedianAlong(chunk, d));
    }
  }

  void Stat(const NDArray& roi, index_t d) {
    const index_t left = L(d), n = a_.size(d);
    index_t len_l = n, len_r = n;
    if (!opt_.stat_length.empty()) {
      len_l = std::min(n, opt_.stat_length[static_cast<std::size_t>(d)].first);
      len_r = std::min(n, opt_.stat_length[static_cast<std::size_t>(d)].second);
    }
    const bool extreme = mode_ == PadMode::kMaximum || mode_ == PadMode::kMinimum;
    SHADE_CHECK(!extreme || (len_l > 0 && len_r > 0))
        << "stat_length of 0 yields no value for padding";
    const NDArray stat_l = StatOf(roi.narrow(d, left, len_l), d);
    const NDArray stat_r =
        len_l == n && len_r == n ? stat_l : StatOf(roi.narrow(d, left + n - len_r, len_r), d);
    Before(roi, d).copy_(stat_l);
    After(roi, d).copy_(stat_r);
  }

  // NumPy's iterative reflection: chunks of at most the current valid length (minus the edge
  // for 'reflect'), each mirrored from the region filled so far.
  void Reflect(const NDArray& roi, index_t d, bool include_edge) {
    index_t left = L(d), right = R(d);
    const index_t total = roi.size(d);
    const index_t edge_offset = include_edge ? 1 : 0;
    while (left > 0 || right > 0) {
      const index_t old_length = total - left - right - (include_edge ? 0 : 1);
      if (left > 0) {
        const index_t chunk = std::min(old_length, left);
        // padded[left - edge_offset + chunk : left - edge_offset : -1] -> [left - chunk, left)
        const index_t lo = left - edge_offset + 1;
        NDArray src = flip(roi.narrow(d, lo, chunk), {d});
        if (opt_.reflect_odd) src = (roi.narrow(d, left, 1) * 2 - src).eval();
        roi.narrow(d, left - chunk, chunk).copy_(src);
        left -= chunk;
      }
      if (right > 0) {
        const index_t chunk = std::min(old_length, right);
        // padded[-right + edge_offset - 2 : ... - chunk : -1] -> [total - right, +chunk)
        const index_t hi = total - right + edge_offset - 2;  // first element read (highest)
        NDArray src = flip(roi.narrow(d, hi - chunk + 1, chunk), {d});
        if (opt_.reflect_odd) src = (roi.narrow(d, total - right - 1, 1) * 2 - src).eval();
        roi.narrow(d, total - right, chunk).copy_(src);
        right -= chunk;
      }
    }
  }

  // NumPy's iterative wrap (not purely periodic when the pads exceed the axis; matched exactly).
  void Wrap(const NDArray& roi, index_t d) {
    index_t left = L(d), right = R(d);
    const index_t total = roi.size(d);
    while (left > 0 || right > 0) {
      const index_t period = total - right - left;
      index_t new_left = 0, new_right = 0;
      if (left > 0) {
        const index_t take = std::min(period, left);
        const NDArray src = roi.narrow(d, total - right - take, take);
        if (left > period) {
          roi.narrow(d, left - period, period).copy_(src);
          new_left = left - period;
        } else {
          roi.narrow(d, 0, left).copy_(src);
        }
      }
      if (right > 0) {
        const index_t take = std::min(period, right);
        const NDArray src = roi.narrow(d, left, take);
        if (right > period) {
          roi.narrow(d, total - right, period).copy_(src);
          new_right = right - period;
        } else {
          roi.narrow(d, total - right, right).copy_(src);
        }
      }
      left = new_left;
      right = new_right;
    }
  }

  const NDArray& a_;
  const PadPairs& pw_;
  PadMode mode_;
  const PadOptions& opt_;
  NDArray out_;
};

}  // namespace

NDArray pad(const NDArray& a, const PadPairs& pad_width, PadMode mode, const PadOptions& options) {
  detail::CheckOperand(a, "pad");
  const std::size_t nd = static_cast<std::size_t>(a.ndim());
  SHADE_CHECK_SHAPE_EQ(pad_width.size(), nd)
      << "pad: pad_width needs one (before, after) pair per axis";
  for (const auto& p : pad_width) {
    SHADE_CHECK(p.first >= 0 && p.second >= 0) << "pad: index can't contain negative values";
  }
  for (const auto& p : options.stat_length) {
    SHADE_CHECK(p.first >= 0 && p.second >= 0) << "pad: index can't contain negative values";
  }
  SHADE_CHECK_SHAPE(options.constant_values.empty() || options.constant_values.size() == nd)
      << "pad: constant_values needs one pair per axis";
  SHADE_CHECK_SHAPE(options.end_values.empty() || options.end_values.size() == nd)
      << "pad: end_values needs one pair per axis";
  SHADE_CHECK_SHAPE(options.stat_length.empty() || options.stat_length.size() == nd)
      << "pad: stat_length needs one pair per axis";
  return Padder(a, pad_width, mode, options).Run();
}

// ------------------------------------------------------------------ flat indices

IndexMode ParseIndexMode(const std::string& name) {
  if (name == "raise") return IndexMode::kRaise;
  if (name == "wrap") return IndexMode::kWrap;
  if (name == "clip") return IndexMode::kClip;
  SHADE_CHECK_TYPE(false) << "clipmode must be one of 'clip', 'raise', or 'wrap' (got '" << name
                          << "')";
  return IndexMode::kRaise;
}

NDArray ravel_multi_index(const std::vector<NDArray>& multi_index, IndexSpan dims,
                          const std::vector<IndexMode>& modes, bool fortran) {
  const std::size_t nd = dims.size();
  SHADE_CHECK_SHAPE_EQ(multi_index.size(), nd)
      << "parameter multi_index must be a sequence of length " << nd;
  SHADE_CHECK(modes.size() == 1 || modes.size() == nd)
      << "ravel_multi_index: mode needs one entry or one per dimension, got " << modes.size();
  // Row-major (or column-major) place values, overflow-checked.
  std::vector<index_t> place(nd, 1);
  index_t total = 1;
  for (std::size_t k = 0; k < nd; ++k) {
    const std::size_t d = fortran ? k : nd - 1 - k;
    SHADE_CHECK_GE(dims[d], 0) << "dimensions must be non-negative";
    place[d] = total;
    total = CheckedMul(total, dims[d],
                       "ravel_multi_index: invalid dims: array size defined by dims is larger than "
                       "the maximum possible size.");
  }
  std::vector<NDArray> coords;
  std::vector<std::vector<index_t>> shapes;
  for (const NDArray& c : multi_index) {
    coords.push_back(IntegerInput(c, "ravel_multi_index"));
    shapes.push_back(c.sizes().vec());
  }
  const std::vector<index_t> shape = broadcast_shapes(shapes);
  NDArray out = NDArray::Empty(shape, kInt64);
  auto* o = static_cast<std::int64_t*>(out.data_ptr());
  std::fill(o, o + out.numel(), 0);
  for (std::size_t d = 0; d < nd; ++d) {
    const NDArray c = coords[d].expand(shape).contiguous();
    const auto* v = static_cast<const std::int64_t*>(c.data_ptr());
    const IndexMode mode = modes.size() == 1 ? modes[0] : modes[d];
    const index_t n = dims[d];
    for (index_t i = 0; i < out.numel(); ++i) {
      index_t x = v[i];
      if (x < 0 || x >= n) {
        SHADE_CHECK(mode != IndexMode::kRaise && n > 0) << "invalid entry in coordinates array";
        x = mode == IndexMode::kWrap ? ((x % n) + n) % n : std::min(std::max<index_t>(x, 0), n - 1);
      }
      o[i] += x * place[d];
    }
  }
  return out;
}

std::vector<NDArray> unravel_index(const NDArray& indices, IndexSpan dims, bool fortran) {
  const NDArray idx = IntegerInput(indices, "unravel_index");
  const std::size_t nd = dims.size();
  index_t total = 1;
  for (index_t s : dims) {
    SHADE_CHECK_GE(s, 0) << "dimensions must be non-negative";
    total = CheckedMul(total, s, "unravel_index: dimensions are too large");
  }
  std::vector<NDArray> out;
  std::vector<std::int64_t*> dst;
  for (std::size_t d = 0; d < nd; ++d) {
    out.push_back(NDArray::Empty(indices.sizes(), kInt64));
    dst.push_back(static_cast<std::int64_t*>(out.back().data_ptr()));
  }
  const auto* v = static_cast<const std::int64_t*>(idx.data_ptr());
  for (index_t i = 0; i < idx.numel(); ++i) {
    index_t x = v[i];
    SHADE_CHECK_SHAPE(x >= 0 && x < total)
        << "index " << x << " is out of bounds for array with size " << total;
    for (std::size_t k = 0; k < nd; ++k) {
      const std::size_t d = fortran ? k : nd - 1 - k;
      dst[d][i] = x % dims[d];
      x /= dims[d];
    }
  }
  return out;
}

// ------------------------------------------------------------------ bits

namespace {
// a with `axis` moved last, as a contiguous array of dtype flag (for the bit loops).
NDArray AxisLast(const NDArray& a, index_t axis, int flag) {
  std::vector<index_t> order;
  for (index_t d = 0; d < a.ndim(); ++d) {
    if (d != axis) order.push_back(d);
  }
  order.push_back(axis);
  return astype(a.permute(order), flag).contiguous();
}
NDArray AxisBack(const NDArray& r, index_t axis) {
  return moveaxis(r, {r.ndim() - 1}, {axis});
}
}  // namespace

NDArray packbits(const NDArray& a, bool flatten, index_t axis, bool little) {
  detail::CheckOperand(a, "packbits");
  const DTypeKind k = KindOf(a.type_flag());
  SHADE_CHECK_TYPE(k != DTypeKind::kFloat)
      << "Expected an input array of integer or boolean data type (packbits got "
      << TypeFlagName(a.type_flag()) << ")";
  const NDArray src0 = flatten ? a.reshape({-1}) : a;
  SHADE_CHECK_INDEX(src0.ndim() >= 1)
      << "packbits: axis " << axis << " is out of bounds for array of dimension 0";
  const index_t ax = flatten ? 0 : detail::NormalizeAxis(axis, src0.ndim(), "packbits");
  const NDArray bits = AxisLast(src0, ax, kBool);  // 0 / 1 bytes
  const index_t len = src0.size(ax), packed = (len + 7) / 8;
  std::vector<index_t> shape = bits.sizes().vec();
  shape.back() = packed;
  NDArray out = NDArray::Empty(shape, kUint8);
  const auto* b = static_cast<const std::uint8_t*>(bits.data_ptr());
  auto* o = static_cast<std::uint8_t*>(out.data_ptr());
  const index_t lanes = packed > 0 ? out.numel() / packed : 0;
  // Bit t of a byte (big: the first element is the most significant bit).
  const auto pack8 = [little](const std::uint8_t* p, index_t count) {
    unsigned byte = 0;
    for (index_t t = 0; t < count; ++t)
      byte |= static_cast<unsigned>(p[t] != 0) << (little ? t : 7 - t);
    return static_cast<std::uint8_t>(byte);
  };
  for (index_t l = 0; l < lanes; ++l) {
    const std::uint8_t* row = b + l * len;
    std::uint8_t* dst = o + l * packed;
    const index_t full = len / 8;
    for (index_t j = 0; j < full; ++j) dst[j] = pack8(row + j * 8, 8);  // fixed count: unrolled
    if (full < packed) dst[full] = pack8(row + full * 8, len - full * 8);
  }
  return AxisBack(out, ax).contiguous();
}

NDArray unpackbits(const NDArray& a, bool flatten, index_t axis, bool has_count, index_t count,
                   bool little) {
  detail::CheckOperand(a, "unpackbits");
  SHADE_CHECK_TYPE(a.type_flag() == kUint8)
      << "Expected an input array of unsigned byte data type (unpackbits got "
      << TypeFlagName(a.type_flag()) << ")";
  const NDArray src0 = flatten ? a.reshape({-1}) : a;
  SHADE_CHECK_INDEX(src0.ndim() >= 1)
      << "unpackbits: axis " << axis << " is out of bounds for array of dimension 0";
  const index_t ax = flatten ? 0 : detail::NormalizeAxis(axis, src0.ndim(), "unpackbits");
  const NDArray bytes = AxisLast(src0, ax, kUint8);
  const index_t len = src0.size(ax);
  const index_t avail = CheckedMul(len, index_t{8}, "unpackbits size");
  index_t n = avail;
  if (has_count) {
    n = count >= 0 ? count : avail + count;
    SHADE_CHECK(n >= 0) << "-count larger than number of elements";
  }
  std::vector<index_t> shape = bytes.sizes().vec();
  shape.back() = n;
  NDArray out = NDArray::Empty(shape, kUint8);
  const auto* b = static_cast<const std::uint8_t*>(bytes.data_ptr());
  auto* o = static_cast<std::uint8_t*>(out.data_ptr());
  const index_t lanes = len > 0 ? bytes.numel() / len : (n > 0 ? out.numel() / n : 0);
  const index_t kept = std::min(n, avail);
  for (index_t l = 0; l < lanes; ++l) {
    const std::uint8_t* row = b + l * len;
    std::uint8_t* dst = o + l * n;
    for (index_t j = 0; j < kept; ++j) {
      const index_t t = j % 8;
      dst[j] = static_cast<std::uint8_t>((row[j / 8] >> (little ? t : 7 - t)) & 1u);
    }
    std::fill(dst + kept, dst + n, std::uint8_t{0});  // count beyond the bits: zeros
  }
  return AxisBack(out, ax).contiguous();
}

// ------------------------------------------------------------------ dtype views

NDArray view_dtype(const NDArray& a, int flag) {
  detail::CheckOperand(a, "view");
  SHADE_CHECK_TYPE(IsValidTypeFlag(flag)) << "view: unknown dtype flag " << flag;
  const TypeMeta meta = TypeMeta::FromFlag(flag);
  const index_t old_size = static_cast<index_t>(a.itemsize());
  const index_t new_size = static_cast<index_t>(meta.itemsize());
  std::vector<index_t> sizes = a.sizes().vec(), bytes;
  for (index_t s : a.strides()) bytes.push_back(s * old_size);
  if (old_size != new_size) {
    SHADE_CHECK(a.ndim() > 0)
        << "Changing the dtype of a 0d array is only supported if the itemsize is unchanged";
    SHADE_CHECK(a.size(-1) <= 1 || a.stride(-1) == 1)
        << "To change to a dtype of a different size, the last axis must be contiguous";
    const index_t last = a.size(-1) * old_size;
    SHADE_CHECK(last % new_size == 0)
        << "When changing to a " << (new_size > old_size ? "larger" : "smaller")
        << " dtype, its size must be a divisor of the total size in bytes of the last axis of the "
           "array.";
    sizes.back() = last / new_size;
    bytes.back() = new_size;
  }
  std::vector<index_t> strides;
  for (index_t b : bytes) {
    SHADE_CHECK(b % new_size == 0)
        << "view: stride of " << b << " bytes is not a multiple of the new itemsize " << new_size;
    strides.push_back(b / new_size);
  }
  char* data = static_cast<char*>(a.data_ptr());
  SHADE_CHECK(a.numel() == 0 ||
              reinterpret_cast<std::uintptr_t>(data) % static_cast<std::uintptr_t>(new_size) == 0 ||
              new_size > 16)
      << "view: the data is not aligned for " << TypeFlagName(flag);
  // The new array borrows a's memory; its deleter holds a's storage so the memory lives on.
  Storage keep = a.storage();
  NDArray out = NDArray::FromBlob(
      data, sizes, strides, meta, [keep](void*) {}, a.dev_mask());
  out.set_writeable(a.writeable());
  return out;
}

NDArray frombuffer(const NDArray& bytes, int flag, index_t count, index_t offset) {
  detail::CheckOperand(bytes, "frombuffer");
  SHADE_CHECK_TYPE(bytes.type_flag() == kUint8 && bytes.ndim() == 1)
      << "frombuffer: expects a 1-D uint8 byte array";
  SHADE_CHECK_TYPE(IsValidTypeFlag(flag)) << "frombuffer: unknown dtype flag " << flag;
  const index_t len = bytes.size(0);
  SHADE_CHECK(offset >= 0 && offset <= len)
      << "offset must be non-negative and no greater than buffer length (" << len << ")";
  const index_t item = static_cast<index_t>(TypeMeta::FromFlag(flag).itemsize());
  index_t avail = len - offset;
  if (count < 0) {
    SHADE_CHECK(avail % item == 0) << "buffer size must be a multiple of element size";
    count = avail / item;
  } else {
    SHADE_CHECK(CheckedMul(count, item, "frombuffer size") <= avail)
        << "buffer is smaller than requested size";
  }
  const NDArray part = bytes.narrow(0, offset, count * item);
  if (count == 0) {
    NDArray e = NDArray::Empty({0}, flag);
    e.set_writeable(bytes.writeable());
    return e;
  }
  return view_dtype(part, flag);
}

}  // namespace shade
