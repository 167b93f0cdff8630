// NDArray reductions (ndarray/reduce.h) over the kernel layer's reductions (backend/cpu/reduce.h).
//
// Plan of every reduction: view the input in memory order (dimensions sorted by stride, size-1
// dimensions dropped) so that any dense layout - contiguous, transposed, permuted - is read in
// place; copy only layouts that are dense in no order. Adjacent dimensions that are both kept
// or both reduced merge, leaving alternating groups K R K R ...; each reduced group is one
// [outer, len, inner] call of kernel::ReduceAxis, innermost group first, each pass shrinking the
// data. The result comes out in memory order of the kept dimensions and is permuted back.
#include "shade/ndarray/reduce.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <sstream>
#include <type_traits>
#include <vector>

#include "dim_order.h"
#include "shade/ndarray/device.h"
#include "shade/ndarray/grad_hook.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/shape_ops.h"
#include "simd_table.h"

namespace shade {
namespace {

using dyn::RedOp;

const char* RedName(RedOp op) {
  switch (op) {
    case RedOp::kSum:
      return "sum";
    case RedOp::kProd:
      return "prod";
    case RedOp::kMax:
      return "max";
    default:
      return "min";
  }
}

// An input viewed in memory order: `x` is dense (its elements fill [data, data + numel)) along
// `order` (its non-size-1 dimensions, outermost first).
struct DenseView {
  NDArray x;
  std::vector<int> order;
};

DenseView MemoryOrder(const NDArray& a) {
  const IndexSpan strides = a.strides();
  const std::vector<int> order = MemoryOrderDims(a.sizes(), &strides, 1);  // the apply engine's
  index_t expected = 1;
  bool dense = true;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (a.stride(*it) != expected) {
      dense = false;
      break;
    }
    expected *= a.size(*it);
  }
  if (dense) return {a, order};
  std::vector<int> dims;  // row-major after a copy: dense in logical order
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.size(d) != 1) dims.push_back(d);
  }
  return {a.contiguous(), dims};
}

index_t ReducedLength(const NDArray& a, const std::vector<bool>& mask) {
  index_t len = 1;
  for (int d = 0; d < a.ndim(); ++d) {
    if (mask[d]) len *= a.size(d);
  }
  return len;
}

std::vector<index_t> KeptShape(const NDArray& a, const std::vector<bool>& mask, bool keepdims) {
  std::vector<index_t> out;
  for (int d = 0; d < a.ndim(); ++d) {
    if (!mask[d]) {
      out.push_back(a.size(d));
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  return out;
}

std::string ShapeString(const NDArray& a) {
  std::ostringstream os;
  os << a.sizes();
  return os.str();
}

// Result (kept dims in logical order, size-1 ones included) from a dense result laid out in
// `kept_phys` order (the kept non-size-1 dims of the input in memory order).
NDArray ToLogical(const NDArray& phys, const std::vector<int>& kept_phys,
                  const std::vector<index_t>& shape) {
  std::vector<int> sorted = kept_phys;
  std::sort(sorted.begin(), sorted.end());
  if (sorted == kept_phys) return phys.view(shape);
  // perm[i] = position in phys of the i-th kept dim in logical order.
  std::vector<index_t> perm(kept_phys.size());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    perm[i] = std::find(kept_phys.begin(), kept_phys.end(), sorted[i]) - kept_phys.begin();
  }
  return phys.permute(perm).contiguous().view(shape);
}

// Reduces `a` (any layout, element type already the compute type) over `mask`; result has the
// kept dims (keepdims=false shape), contiguous, a's dtype.
NDArray ReduceDense(const NDArray& a, const std::vector<bool>& mask, RedOp op) {
  const int flag = a.type_flag();
  const std::vector<index_t> shape = KeptShape(a, mask, false);
  const index_t len = ReducedLength(a, mask);
  if (len == 0 && (op == RedOp::kMax || op == RedOp::kMin)) {
    SHADE_THROW_SHAPE << RedName(op) << ": zero-size reduction over an array of shape "
                      << ShapeString(a) << " (the reduced axes hold no element and " << RedName(op)
                      << " has no identity)";
  }
  NDArray out = NDArray::Empty(shape, flag);
  if (out.numel() == 0) return out;
  if (a.numel() == 0) {  // len == 0: the identity
    out.Fill(op == RedOp::kSum ? 0.0 : 1.0);
    return out;
  }
  DenseView v = MemoryOrder(a);
  // Groups in memory order: (size, reduced), adjacent equal kinds merged.
  std::vector<index_t> gsize;
  std::vector<bool> gred;
  std::vector<int> kept_phys;
  for (int d : v.order) {
    if (!mask[d]) kept_phys.push_back(d);
    if (!gsize.empty() && gred.back() == mask[d]) {
      gsize.back() *= v.x.size(d);
    } else {
      gsize.push_back(v.x.size(d));
      gred.push_back(mask[d]);
    }
  }
  const std::size_t item = a.itemsize();
  const void* src = v.x.data_ptr();
  NDArray holder;  // the current intermediate
  while (true) {
    int g = -1;
    for (int i = static_cast<int>(gsize.size()) - 1; i >= 0; --i) {
      if (gred[i]) {
        g = i;
        break;
      }
    }
    if (g < 0) break;
    index_t outer = 1, inner = 1;
    for (int i = 0; i < g; ++i) outer *= gsize[i];
    for (std::size_t i = g + 1; i < gsize.size(); ++i) inner *= gsize[i];
    NDArray next = NDArray::Empty({outer * inner}, flag);
    dyn::Simd().reduce_axis(op, flag, outer, gsize[g], inner, src, next.data_ptr());
    holder = next;
    src = holder.data_ptr();
    gsize.erase(gsize.begin() + g);
    gred.erase(gred.begin() + g);
    // The kept neighbours of the removed group are now adjacent: merge them.
    if (g > 0 && static_cast<std::size_t>(g) < gsize.size() && !gred[g - 1] && !gred[g]) {
      gsize[g - 1] *= gsize[g];
      gsize.erase(gsize.begin() + g);
      gred.erase(gred.begin() + g);
    }
  }
  std::vector<index_t> phys_shape;
  for (int d : kept_phys) phys_shape.push_back(a.size(d));
  NDArray phys;
  if (holder.defined()) {
    phys = holder.view(phys_shape);
  } else {  // nothing reduced (or only size-1 axes): the dense elements, copied
    phys = NDArray::Empty(phys_shape, flag);
    std::memcpy(phys.data_ptr(), src, static_cast<std::size_t>(phys.numel()) * item);
  }
  return ToLogical(phys, kept_phys, shape);
}

NDArray Finish(NDArray r, int result_flag, const NDArray& a, const std::vector<bool>& mask,
               bool keepdims) {
  if (r.type_flag() != result_flag) r = astype(r, result_flag);
  if (keepdims) r = r.view(KeptShape(a, mask, true));
  return r;
}

void CheckInput(const NDArray& a, const char* op) {
  SHADE_CHECK(a.defined()) << op << ": the NDArray is undefined";
  CheckDevices(op, {&a});
  SHADE_CHECK_TYPE_GE(a.type_flag(), 0)
      << op << ": element type " << a.dtype().name() << " is not numeric";
  SHADE_CHECK(a.data_ptr() != nullptr || a.numel() == 0)
      << op << ": " << a << " has no memory allocated";
}

// The dtype the kernels compute in: float16/bfloat16 in float32 (no packet path for them).
int ComputeType(int flag) {
  return flag == kFloat16 || flag == kBfloat16 ? kFloat32 : flag;
}

NDArray SumLike(const NDArray& a, const AxisSet& axes, bool keepdims, RedOp op) {
  CheckInput(a, RedName(op));
  const std::vector<bool> mask = axes.Mask(a.sizes(), RedName(op));
  const int rt = SumResultType(a.type_flag());
  NDArray r = ReduceDense(astype(a, ComputeType(rt)), mask, op);
  return Finish(r, rt, a, mask, keepdims);
}

NDArray MaxLike(const NDArray& a, const AxisSet& axes, bool keepdims, RedOp op) {
  CheckInput(a, RedName(op));
  const std::vector<bool> mask = axes.Mask(a.sizes(), RedName(op));
  NDArray r = ReduceDense(astype(a, ComputeType(a.type_flag())), mask, op);
  return Finish(r, a.type_flag(), a, mask, keepdims);
}

NDArray AllAny(const NDArray& a, const AxisSet& axes, bool keepdims, bool is_all) {
  const char* name = is_all ? "all" : "any";
  CheckInput(a, name);
  const std::vector<bool> mask = axes.Mask(a.sizes(), name);
  // Truth values as bool (NaN is true); all = min, any = max over 0/1 bytes.
  NDArray b = a.type_flag() == kBool ? a : astype(a, kBool);
  const index_t len = ReducedLength(a, mask);
  if (len == 0) {
    NDArray out = NDArray::Empty(KeptShape(a, mask, false), kBool);
    out.Fill(is_all ? 1.0 : 0.0);
    return Finish(out, kBool, a, mask, keepdims);
  }
  NDArray r = ReduceDense(b, mask, is_all ? RedOp::kMin : RedOp::kMax);
  return Finish(r, kBool, a, mask, keepdims);
}

// Sum over mask in `compute` dtype divided by the count (weak int divisor, as NumPy's rcount).
NDArray MeanCompute(const NDArray& x, const std::vector<bool>& mask, index_t divisor) {
  NDArray s = ReduceDense(x, mask, RedOp::kSum);
  return divide(s, divisor).eval();
}

NDArray VarCompute(const NDArray& a, const AxisSet& axes, index_t ddof, const char* name,
                   std::vector<bool>* mask_out) {
  CheckInput(a, name);
  SHADE_CHECK_GE(ddof, 0) << name << ": ddof " << ddof << " is negative";
  const std::vector<bool> mask = axes.Mask(a.sizes(), name);
  *mask_out = mask;
  const int compute = ComputeType(MeanResultType(a.type_flag()));
  const NDArray x = astype(a, compute);
  const index_t n = ReducedLength(a, mask);
  NDArray m = MeanCompute(x, mask, n).view(KeptShape(a, mask, true));
  // Deviations squared: one fused pass into one temporary (NumPy makes two).
  NDArray dev = ((x - m) * (x - m)).eval();
  NDArray s = ReduceDense(dev, mask, RedOp::kSum);
  return divide(s, std::max<index_t>(n - ddof, 0)).eval();
}

template <bool kMax>
NDArray ArgFull(const NDArray& a) {
  const char* name = kMax ? "argmax" : "argmin";
  CheckInput(a, name);
  SHADE_CHECK_SHAPE_GT(a.numel(), 0)
      << name << ": attempt to get " << name << " of an empty array of shape " << ShapeString(a);
  const NDArray x = astype(a, ComputeType(a.type_flag())).contiguous();
  NDArray out = NDArray::Empty({}, kInt64);
  *static_cast<std::int64_t*>(out.data_ptr()) =
      dyn::Simd().arg_reduce(kMax, x.type_flag(), x.numel(), x.data_ptr());
  return out;
}

template <bool kMax>
NDArray ArgAxis(const NDArray& a, index_t axis, bool keepdims) {
  const char* name = kMax ? "argmax" : "argmin";
  CheckInput(a, name);
  const int nd = a.ndim();
  SHADE_CHECK_INDEX(axis >= -std::max(nd, 1) && axis < std::max(nd, 1))
      << name << ": axis " << axis << " is out of bounds for an array of dimension " << nd
      << " (shape " << ShapeString(a) << ")";
  if (nd == 0) return ArgFull<kMax>(a);  // NumPy accepts axis 0/-1 of a rank-0 array
  const int ax = static_cast<int>(axis < 0 ? axis + nd : axis);
  std::vector<bool> mask(nd, false);
  mask[ax] = true;
  const index_t len = a.size(ax);
  SHADE_CHECK_GT(len, 0) << name << ": attempt to get " << name << " of an empty sequence (axis "
                         << axis << " of shape " << ShapeString(a) << ")";
  const std::vector<index_t> shape = KeptShape(a, mask, false);
  NDArray out = NDArray::Empty(shape, kInt64);
  if (out.numel() == 0) return keepdims ? out.view(KeptShape(a, mask, true)) : out;
  DenseView v = MemoryOrder(astype(a, ComputeType(a.type_flag())));
  index_t outer = 1, inner = 1;
  bool before = true;
  std::vector<int> kept_phys;
  for (int d : v.order) {
    if (d == ax) {
      before = false;
      continue;
    }
    kept_phys.push_back(d);
    (before ? outer : inner) *= v.x.size(d);
  }
  std::vector<index_t> phys_shape;
  for (int d : kept_phys) phys_shape.push_back(a.size(d));
  NDArray phys = NDArray::Empty(phys_shape, kInt64);
  std::int64_t* dst = static_cast<std::int64_t*>(phys.data_ptr());
  dyn::Simd().arg_reduce_axis(kMax, v.x.type_flag(), outer, len, inner, v.x.data_ptr(), dst);
  NDArray r = ToLogical(phys, kept_phys, shape);
  return keepdims ? r.view(KeptShape(a, mask, true)) : r;
}

}  // namespace

std::vector<bool> AxisSet::Mask(IndexSpan shape, const char* op) const {
  const index_t nd = static_cast<index_t>(shape.size());
  std::vector<bool> mask(shape.size(), all_);
  if (all_) return mask;
  for (index_t ax : axes_) {
    SHADE_CHECK_INDEX(ax >= -nd && ax < nd)
        << op << ": axis " << ax << " is out of bounds for an array of dimension " << nd
        << " (shape " << shape << ")";
    const index_t d = ax < 0 ? ax + nd : ax;
    SHADE_CHECK(!mask[d]) << op << ": axis " << ax << " is repeated in the axis list (shape "
                          << shape << ")";
    mask[d] = true;
  }
  return mask;
}

int SumResultType(int flag) {
  switch (KindOf(flag)) {
    case DTypeKind::kBool:
      return kInt64;
    case DTypeKind::kSigned:
      return kInt64;
    case DTypeKind::kUnsigned:
      return kUint64;
    default:
      return flag;
  }
}

int MeanResultType(int flag) {
  return KindOf(flag) == DTypeKind::kFloat ? flag : kFloat64;
}

// Autograd's attributes of a reduction (ndarray/grad_hook.h).
detail::GradAttrs ReduceAttrs(const AxisSet& axes, bool keepdims, index_t ddof = 0) {
  detail::GradAttrs at;
  at.all_axes = axes.all();
  at.axes = axes.axes();
  at.keepdims = keepdims;
  at.ddof = ddof;
  return at;
}

/// The autograd seam of one reduction (internal; undefined after use): records it when `a`
/// requires grad, running the reduction itself with grad mode off.
#define SHADE_REDUCE_GRAD_(OP, CALL, ...)                                              \
  if (__builtin_expect(detail::GradTracked(a), 0)) {                                   \
    return detail::RecordGrad(detail::GradOp::OP, {a}, ReduceAttrs(axes, __VA_ARGS__), \
                              [&] { return CALL; });                                   \
  }

NDArray sum(const NDArray& a, const AxisSet& axes, bool keepdims) {
  SHADE_REDUCE_GRAD_(kSum, sum(a, axes, keepdims), keepdims)
  return SumLike(a, axes, keepdims, RedOp::kSum);
}
NDArray prod(const NDArray& a, const AxisSet& axes, bool keepdims) {
  SHADE_REDUCE_GRAD_(kProd, prod(a, axes, keepdims), keepdims)
  return SumLike(a, axes, keepdims, RedOp::kProd);
}
NDArray max(const NDArray& a, const AxisSet& axes, bool keepdims) {
  SHADE_REDUCE_GRAD_(kMax, max(a, axes, keepdims), keepdims)
  return MaxLike(a, axes, keepdims, RedOp::kMax);
}
NDArray min(const NDArray& a, const AxisSet& axes, bool keepdims) {
  SHADE_REDUCE_GRAD_(kMin, min(a, axes, keepdims), keepdims)
  return MaxLike(a, axes, keepdims, RedOp::kMin);
}
NDArray amax(const NDArray& a, const AxisSet& axes, bool keepdims) {
  return max(a, axes, keepdims);
}
NDArray amin(const NDArray& a, const AxisSet& axes, bool keepdims) {
  return min(a, axes, keepdims);
}
NDArray all(const NDArray& a, const AxisSet& axes, bool keepdims) {
  return AllAny(a, axes, keepdims, true);
}
NDArray any(const NDArray& a, const AxisSet& axes, bool keepdims) {
  return AllAny(a, axes, keepdims, false);
}

NDArray mean(const NDArray& a, const AxisSet& axes, bool keepdims) {
  SHADE_REDUCE_GRAD_(kMean, mean(a, axes, keepdims), keepdims)
  CheckInput(a, "mean");
  const std::vector<bool> mask = axes.Mask(a.sizes(), "mean");
  const int rt = MeanResultType(a.type_flag());
  NDArray r = MeanCompute(astype(a, ComputeType(rt)), mask, ReducedLength(a, mask));
  return Finish(r, rt, a, mask, keepdims);
}

NDArray var(const NDArray& a, const AxisSet& axes, index_t ddof, bool keepdims) {
  SHADE_REDUCE_GRAD_(kVar, var(a, axes, ddof, keepdims), keepdims, ddof)
  std::vector<bool> mask;
  NDArray r = VarCompute(a, axes, ddof, "var", &mask);
  return Finish(r, MeanResultType(a.type_flag()), a, mask, keepdims);
}

NDArray std(const NDArray& a, const AxisSet& axes, index_t ddof, bool keepdims) {
  SHADE_REDUCE_GRAD_(kStd, std(a, axes, ddof, keepdims), keepdims, ddof)
  std::vector<bool> mask;
  NDArray r = sqrt(VarCompute(a, axes, ddof, "std", &mask)).eval();
  return Finish(r, MeanResultType(a.type_flag()), a, mask, keepdims);
}
#undef SHADE_REDUCE_GRAD_

NDArray argmax(const NDArray& a) {
  return ArgFull<true>(a);
}
NDArray argmin(const NDArray& a) {
  return ArgFull<false>(a);
}
NDArray argmax(const NDArray& a, index_t axis, bool keepdims) {
  return ArgAxis<true>(a, axis, keepdims);
}
NDArray argmin(const NDArray& a, index_t axis, bool keepdims) {
  return ArgAxis<false>(a, axis, keepdims);
}

}  // namespace shade
