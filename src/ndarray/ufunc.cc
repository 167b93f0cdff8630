// NumPy's ufunc methods over the op registry (ndarray/ufunc.h).
#include "shade/ndarray/ufunc.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "operand_check.h"
#include "shade/base/checked.h"
#include "shade/functor/op_registry.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/lazy.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/shape/broadcast.h"

namespace shade {
namespace {

// NumPy's identities of the binary ops (ufunc.identity); ops not listed have none.
constexpr UfuncIdentity IdentityOf(OpCode op) {
  switch (op) {
    case OpCode::kAdd:
    case OpCode::kBitwiseOr:
    case OpCode::kBitwiseXor:
    case OpCode::kHypot:
      return UfuncIdentity::kZero;
    case OpCode::kMultiply:
      return UfuncIdentity::kOne;
    case OpCode::kBitwiseAnd:
      return UfuncIdentity::kMinusOne;
    case OpCode::kLogicalAnd:
      return UfuncIdentity::kTrue;
    case OpCode::kLogicalOr:
    case OpCode::kLogicalXor:
      return UfuncIdentity::kFalse;
    case OpCode::kLogaddexp:
      return UfuncIdentity::kMinusInf;
    default:
      return UfuncIdentity::kNone;
  }
}

// NumPy reorders the reduction of ops with an identity, and of maximum/minimum.
constexpr bool ReorderableOf(OpCode op) {
  return IdentityOf(op) != UfuncIdentity::kNone || op == OpCode::kMaximum || op == OpCode::kMinimum;
}

// One UfuncInfo per registry entry, in registry order.
#define SHADE_UFUNC_ROW_(CODE, NAME, ARITY, ...) \
  UfuncInfo{OpCode::CODE, #NAME, ARITY, 1, IdentityOf(OpCode::CODE), ReorderableOf(OpCode::CODE)},

const std::vector<UfuncInfo>& Table() {
  static const std::vector<UfuncInfo> table = {SHADE_ELEMENTWISE_OPS(SHADE_UFUNC_ROW_)};
  return table;
}
#undef SHADE_UFUNC_ROW_

const UfuncInfo& BinaryInfo(OpCode op, const char* method) {
  const UfuncInfo& info = UfuncInfoOf(op);
  SHADE_CHECK(info.nin == 2) << method << " only supported for binary functions (ufunc "
                             << info.name << " takes " << info.nin << " inputs)";
  return info;
}

// The dtype the reduction loop reads: `dtype` when given, else the input's, with add and
// multiply of bool and narrow integers widened to int64 / uint64 (NumPy's rule).
int LoopInput(OpCode op, int flag, int dtype) {
  if (dtype >= 0) return dtype;
  if (op != OpCode::kAdd && op != OpCode::kMultiply) return flag;
  const DTypeKind kind = KindOf(flag);
  if (kind == DTypeKind::kBool || kind == DTypeKind::kSigned) return kInt64;
  if (kind == DTypeKind::kUnsigned) return kUint64;
  return flag;
}

// The result dtype of op(T, T): the loop's output. A reduction feeds it back as the first
// input, so the loop must read that dtype: comparisons only have one such loop (bool).
int LoopOutput(OpCode op, int in, const char* method) {
  const UfuncInfo& info = UfuncInfoOf(op);
  if (OpTraitsOf(op).category == OpCategory::kCompare) {
    SHADE_CHECK_AS(TypeError, in == kBool)
        << "No loop matching the specified signature and casting was found for ufunc " << info.name
        << " (" << method << " of " << TypeFlagName(in) << ")";
  }
  const NDArray probe = NDArray::Empty({0}, in);
  return Expr::Make(op, Expr(probe), Expr(probe)).dtype();
}

// LoopOutput for a stated or implied dtype: a stated dtype must be the loop's output too.
int LoopOutput(OpCode op, int in, int dtype, const char* method) {
  const int out = LoopOutput(op, in, method);
  SHADE_CHECK_AS(TypeError, dtype < 0 || out == dtype)
      << "No loop matching the specified signature and casting was found for ufunc "
      << UfuncInfoOf(op).name << " (" << method << " with dtype " << TypeFlagName(dtype)
      << " computes " << TypeFlagName(out) << ")";
  return out;
}

// A new array of `dtype` holding `v` (broadcast to `shape`).
NDArray Filled(IndexSpan shape, int dtype, const NDArray& v) {
  NDArray r = NDArray::Empty(shape, dtype);
  r.copy_(v);
  return r;
}

NDArray IdentityArray(IndexSpan shape, int dtype, UfuncIdentity id) {
  const DTypeKind kind = KindOf(dtype);
  if (kind == DTypeKind::kFloat) return full(shape, UfuncIdentityValue(id), dtype);
  if (kind == DTypeKind::kBool) {
    return full_int(shape, id == UfuncIdentity::kZero || id == UfuncIdentity::kFalse ? 0 : 1,
                    dtype);
  }
  SHADE_CHECK(id != UfuncIdentity::kMinusInf)
      << "the identity -inf has no value in " << TypeFlagName(dtype);
  // -1 converted (unsafe) to an unsigned dtype is its all-ones value, as NumPy's identity.
  return astype(full_int(shape, static_cast<std::int64_t>(UfuncIdentityValue(id)), kInt64), dtype);
}

// The fast reductions of reduce.h for the ops that have one.
bool FastReduce(OpCode op, const NDArray& x, const AxisSet& axes, bool keepdims, NDArray* r) {
  switch (op) {
    case OpCode::kAdd:
      *r = sum(x, axes, keepdims);
      return true;
    case OpCode::kMultiply:
      *r = prod(x, axes, keepdims);
      return true;
    case OpCode::kMaximum:
      *r = max(x, axes, keepdims);
      return true;
    case OpCode::kMinimum:
      *r = min(x, axes, keepdims);
      return true;
    case OpCode::kLogicalAnd:
      *r = all(x, axes, keepdims);
      return true;
    case OpCode::kLogicalOr:
      *r = any(x, axes, keepdims);
      return true;
    default:
      return false;
  }
}

std::vector<index_t> Vec(IndexSpan s) {
  return std::vector<index_t>(s.begin(), s.end());
}

}  // namespace

const std::vector<UfuncInfo>& AllUfuncs() {
  return Table();
}

const UfuncInfo& UfuncInfoOf(OpCode op) {
  const int i = static_cast<int>(op);
  SHADE_CHECK(i >= 0 && i < static_cast<int>(OpCode::kNumOps))
      << "UfuncInfoOf: op code " << i << " is no registry op";
  return Table()[static_cast<std::size_t>(i)];
}

double UfuncIdentityValue(UfuncIdentity id) {
  switch (id) {
    case UfuncIdentity::kZero:
    case UfuncIdentity::kFalse:
      return 0;
    case UfuncIdentity::kOne:
    case UfuncIdentity::kTrue:
      return 1;
    case UfuncIdentity::kMinusOne:
      return -1;
    case UfuncIdentity::kMinusInf:
      return -std::numeric_limits<double>::infinity();
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

NDArray Reduce(OpCode op, const NDArray& a, const UfuncReduceOptions& opt) {
  const UfuncInfo& info = BinaryInfo(op, "reduce");
  SHADE_CHECK(a.defined()) << info.name << ".reduce: the array is undefined";
  const int in = LoopInput(op, a.type_flag(), opt.dtype);
  const int out = LoopOutput(op, in, opt.dtype, "reduce");
  const std::vector<bool> mask = opt.axes.Mask(a.sizes(), info.name);
  std::vector<index_t> reduced, kept, kept_shape, keep_shape;
  index_t n = 1;
  for (int d = 0; d < a.ndim(); ++d) {
    if (mask[static_cast<std::size_t>(d)]) {
      reduced.push_back(d);
      n *= a.size(d);
      keep_shape.push_back(1);
    } else {
      kept.push_back(d);
      kept_shape.push_back(a.size(d));
      keep_shape.push_back(a.size(d));
    }
  }
  SHADE_CHECK(reduced.size() <= 1 || info.reorderable)
      << "reduction operation '" << info.name
      << "' is not reorderable, so at most one axis may be specified";
  const bool has_identity = info.identity != UfuncIdentity::kNone;
  SHADE_CHECK(!opt.where.defined() || has_identity || opt.initial.defined())
      << "reduction operation '" << info.name
      << "' does not have an identity, so to use a where mask one has to specify 'initial'";
  SHADE_CHECK(n > 0 || has_identity || opt.initial.defined())
      << "zero-size array to reduction operation " << info.name << " which has no identity";
  const NDArray x = in == a.type_flag() ? a : astype(a, in);
  NDArray r;
  if (!opt.where.defined() && (n > 0 || has_identity) &&
      FastReduce(op, x, opt.axes, opt.keepdims, &r)) {
    if (r.type_flag() != out) r = astype(r, out);
    if (opt.initial.defined()) {
      const NDArray init = Filled({}, out, opt.initial);
      Expr::Make(op, Expr(init), Expr(r)).eval(r);
    }
    return r;
  }
  // The fold: reduced axes first, merged into one of n steps; each step runs the op's kernel
  // over every kept element.
  std::vector<index_t> perm = reduced;
  perm.insert(perm.end(), kept.begin(), kept.end());
  std::vector<index_t> steps_shape = {n};
  steps_shape.insert(steps_shape.end(), kept_shape.begin(), kept_shape.end());
  const NDArray xs = x.permute(perm).reshape(steps_shape);
  NDArray ws;
  if (opt.where.defined()) {
    ws = astype(opt.where, kBool).expand(a.sizes()).permute(perm).reshape(steps_shape);
  }
  NDArray acc;
  index_t first = 0;
  if (opt.initial.defined()) {
    acc = Filled(kept_shape, out, opt.initial);
  } else if (ws.defined() || n == 0) {
    acc = IdentityArray(kept_shape, out, info.identity);
  } else {
    acc = Filled(kept_shape, out, xs.select(0, 0));
    first = 1;
  }
  for (index_t i = first; i < n; ++i) {
    Expr step = Expr::Make(op, Expr(acc), Expr(xs.select(0, i)));
    if (ws.defined()) step = Expr::Make(OpCode::kWhere, Expr(ws.select(0, i)), step, Expr(acc));
    step.eval(acc);
  }
  return opt.keepdims ? acc.reshape(keep_shape) : acc;
}

NDArray Accumulate(OpCode op, const NDArray& a, index_t axis, int dtype) {
  const UfuncInfo& info = BinaryInfo(op, "accumulate");
  SHADE_CHECK(a.defined()) << info.name << ".accumulate: the array is undefined";
  SHADE_CHECK_AS(TypeError, a.ndim() > 0) << "cannot accumulate on a scalar";
  axis = detail::NormalizeAxis(axis, a.ndim(), "accumulate");
  const int in = LoopInput(op, a.type_flag(), dtype);
  const int out = LoopOutput(op, in, dtype, "accumulate");
  const NDArray x = in == a.type_flag() ? a : astype(a, in);
  NDArray r = NDArray::Empty(a.sizes(), out);
  const index_t n = a.size(axis);
  if (n == 0 || r.numel() == 0) return r;
  r.select(axis, 0).copy_(x.select(axis, 0));
  for (index_t i = 1; i < n; ++i) {
    Expr::Make(op, Expr(r.select(axis, i - 1)), Expr(x.select(axis, i))).eval(r.select(axis, i));
  }
  return r;
}

NDArray ReduceAt(OpCode op, const NDArray& a, const std::vector<index_t>& indices, index_t axis,
                 int dtype) {
  const UfuncInfo& info = BinaryInfo(op, "reduceat");
  SHADE_CHECK(a.defined()) << info.name << ".reduceat: the array is undefined";
  SHADE_CHECK_AS(TypeError, a.ndim() > 0) << "cannot reduceat on a scalar";
  axis = detail::NormalizeAxis(axis, a.ndim(), "reduceat");
  const index_t n = a.size(axis);
  for (index_t i : indices) {
    SHADE_CHECK_INDEX(i >= 0 && i < n)
        << "index " << i << " out-of-bounds in " << info.name << ".reduceat [0, " << n << ")";
  }
  const int in = LoopInput(op, a.type_flag(), dtype);
  const int out = LoopOutput(op, in, dtype, "reduceat");
  std::vector<index_t> shape = Vec(a.sizes());
  shape[static_cast<std::size_t>(axis)] = static_cast<index_t>(indices.size());
  NDArray r = NDArray::Empty(shape, out);
  UfuncReduceOptions opt;
  opt.axes = AxisSet(axis);
  opt.dtype = dtype;
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const index_t start = indices[k];
    const index_t end = k + 1 < indices.size() ? indices[k + 1] : n;
    const NDArray slot = r.select(axis, static_cast<index_t>(k));
    if (start < end) {
      slot.copy_(Reduce(op, a.narrow(axis, start, end - start), opt));
    } else {
      slot.copy_(a.select(axis, start));
    }
  }
  return r;
}

NDArray Outer(OpCode op, const NDArray& a, const NDArray& b, int dtype) {
  BinaryInfo(op, "outer");
  SHADE_CHECK(a.defined() && b.defined()) << UfuncInfoOf(op).name << ".outer: undefined operand";
  std::vector<index_t> shape = Vec(a.sizes());
  shape.insert(shape.end(), static_cast<std::size_t>(b.ndim()), 1);
  const NDArray x = dtype >= 0 ? astype(a, dtype) : a;
  const NDArray y = dtype >= 0 ? astype(b, dtype) : b;
  return Expr::Make(op, Expr(x.reshape(shape)), Expr(y)).eval();
}

void At(OpCode op, const NDArray& a, const std::vector<NDArray>& indices, const NDArray& b) {
  const UfuncInfo& info = UfuncInfoOf(op);
  SHADE_CHECK(info.nin <= 2) << "at only supported for unary and binary ufuncs (" << info.name
                             << " takes " << info.nin << ")";
  SHADE_CHECK(a.defined()) << info.name << ".at: the array is undefined";
  SHADE_CHECK_AS(TypeError, info.nin == 1 || b.defined())
      << "second operand needed for ufunc " << info.name;
  SHADE_CHECK(info.nin == 2 || !b.defined())
      << "second operand provided when ufunc " << info.name << " is unary";
  const int k = static_cast<int>(indices.size());
  SHADE_CHECK_INDEX(k <= a.ndim()) << "too many indices for array: array is " << a.ndim()
                                   << "-dimensional, but " << k << " were indexed";
  // The index arrays broadcast together, flattened to int64.
  std::vector<index_t> ishape;
  for (const NDArray& idx : indices) {
    SHADE_CHECK_INDEX(idx.defined() && (KindOf(idx.type_flag()) == DTypeKind::kSigned ||
                                        KindOf(idx.type_flag()) == DTypeKind::kUnsigned))
        << "arrays used as indices must be of integer type (" << info.name << ".at)";
    std::vector<index_t> s(static_cast<std::size_t>(
        std::max<index_t>(static_cast<index_t>(ishape.size()), idx.ndim())));
    SHADE_CHECK_SHAPE(BroadcastShapes(ishape.data(), static_cast<int>(ishape.size()),
                                      idx.sizes().data(), idx.ndim(), s.data()))
        << "shape mismatch: indexing arrays could not be broadcast together (" << info.name
        << ".at)";
    ishape = s;
  }
  index_t m = 1;
  for (index_t s : ishape) m *= s;
  std::vector<NDArray> flat;
  for (const NDArray& idx : indices)
    flat.push_back(astype(idx, kInt64).expand(ishape).Clone().reshape({m}));
  // b broadcast to the indexed shape: the index shape then a's trailing axes.
  std::vector<index_t> vshape = ishape;
  for (int d = k; d < a.ndim(); ++d) vshape.push_back(a.size(d));
  std::vector<index_t> steps = {m};
  for (int d = k; d < a.ndim(); ++d) steps.push_back(a.size(d));
  NDArray values;
  if (b.defined()) values = b.expand(vshape).reshape(steps);
  for (index_t j = 0; j < m; ++j) {
    NDArray target = a;
    for (int d = 0; d < k; ++d) {
      index_t i = static_cast<const std::int64_t*>(flat[static_cast<std::size_t>(d)].data_ptr())[j];
      const index_t size = target.size(0);
      SHADE_CHECK_INDEX(i >= -size && i < size)
          << "index " << i << " is out of bounds for axis " << d << " with size " << size;
      target = target.select(0, i < 0 ? i + size : i);
    }
    if (values.defined()) {
      Expr::Make(op, Expr(target), Expr(values.select(0, j))).eval(target);
    } else {
      Expr::Make(op, Expr(target)).eval(target);
    }
  }
}

}  // namespace shade
