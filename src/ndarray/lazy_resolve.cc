// The fused evaluator's first job: per node, the dtypes by NEP 50 (the registry's promotion
// rule of each op) and the broadcast shape (lazy_internal.h).
#include <sstream>
#include <string>

#include "lazy_internal.h"
#include "shade/ndarray/device.h"
#include "shade/shape/broadcast.h"

namespace shade {
namespace lazy {
namespace {

std::string ShapeString(const index_t* s, int nd) {
  std::ostringstream os;
  os << IndexSpan(s, static_cast<std::size_t>(nd));
  return os.str();
}

}  // namespace

// Resolves an op node's dtypes from its inputs (strong dtype flags or weak scalar kinds).
void ResolveOp(OpCode op, const PromotionOperand* in, int arity, int* opnd, int* result) {
  const OpTraits& info = Info(op);
  auto names = [&]() {
    std::ostringstream os;
    for (int k = 0; k < arity; ++k) {
      os << (k ? ", " : "");
      if (in[k].weak == WeakKind::kNone) {
        os << TypeFlagName(in[k].flag);
      } else {
        os << (in[k].weak == WeakKind::kInt     ? "int scalar"
               : in[k].weak == WeakKind::kFloat ? "float scalar"
                                                : "complex scalar");
      }
    }
    return os.str();
  };
  const int c = info.category == Cat::kWhere ? ResultType(in + 1, 2) : ResultType(in, arity);
  const DTypeKind kind = KindOf(c);
  int compute = c;
  switch (info.category) {
    case Cat::kArith:
    case Cat::kSameUnary:
    case Cat::kClamp:
      break;
    case Cat::kSubtract:
      SHADE_CHECK_TYPE(kind != DTypeKind::kBool)
          << "subtract: not supported for bool operands (" << names()
          << "); NumPy refuses boolean subtract too: use logical_xor";
      break;
    case Cat::kNoBoolUnary:
      SHADE_CHECK_TYPE(kind != DTypeKind::kBool)
          << info.name << ": not supported for a bool operand (as in NumPy; use logical_not)";
      break;
    case Cat::kTrueDivide:
      if (kind < DTypeKind::kFloat) compute = kFloat64;
      break;
    case Cat::kIntDefault:
      if (kind == DTypeKind::kBool) compute = kInt8;
      break;
    case Cat::kCompare:
      for (int k = 0; k < arity; ++k) opnd[k] = c;
      *result = kBool;
      return;
    case Cat::kLogical:
    case Cat::kLogicalNot:
      for (int k = 0; k < arity; ++k) opnd[k] = kBool;
      *result = kBool;
      return;
    case Cat::kBitwise:
    case Cat::kBitwiseNot:
      SHADE_CHECK_TYPE(kind < DTypeKind::kFloat)
          << info.name << ": not supported for " << names() << " (integer or bool operands only)";
      break;
    case Cat::kFloatUnary:
      compute = FloatTypeFor(c);
      break;
    case Cat::kFloatBinary: {
      // NumPy's first e/f/d loop every operand casts to safely: the widest of the operands' own
      // float types (uint8 with int8 is float16, not float16 of their promoted int16). A weak
      // scalar takes the promoted dtype c first (bool with a Python int is int64: float64).
      PromotionOperand floats[3];
      for (int k = 0; k < arity; ++k) {
        floats[k] =
            PromotionOperand::Strong(FloatTypeFor(in[k].weak == WeakKind::kNone ? in[k].flag : c));
      }
      compute = ResultType(floats, arity);
      break;
    }
    case Cat::kRound:
      if (kind == DTypeKind::kBool) compute = FloatTypeFor(c);
      break;
    case Cat::kWhere:
      opnd[0] = kBool;
      opnd[1] = opnd[2] = c;
      *result = c;
      return;
  }
  for (int k = 0; k < arity; ++k) opnd[k] = compute;
  // absolute of a complex value is its real magnitude (complex64 -> float32, as NumPy).
  *result = op == OpCode::kAbs ? RealTypeOf(compute) : compute;
}

// Broadcasts shape b into (a, na) in place, NumPy's rule; throws naming both shapes.
namespace {
void BroadcastInto(index_t* a, int* na, const index_t* b, int nb, const char* what) {
  const int nd = std::max(*na, nb);
  SHADE_CHECK_SHAPE_LE(nd, kMaxDims) << what << ": rank " << nd << " exceeds the " << kMaxDims
                                     << " dimensions elementwise ops support";
  index_t out[kMaxDims];
  SHADE_CHECK_SHAPE(BroadcastShapes(a, *na, b, nb, out))
      << what << ": operands could not be broadcast together with shapes " << ShapeString(a, *na)
      << " and " << ShapeString(b, nb);
  std::copy(out, out + nd, a);
  *na = nd;
}
}  // namespace

void Resolve(const Expr& e, Resolved* r) {
  const int n = e.num_nodes();
  SHADE_CHECK_GE(n, 1) << "Expr: empty expression";
  r->num_nodes = n;
  {
    const NDArray* arrays[Expr::kMaxArrays];
    for (int k = 0; k < e.num_arrays(); ++k) arrays[k] = &e.array(k);
    const Expr::Node& root = e.node(n - 1);
    CheckDevices(root.kind == Expr::NodeKind::kOp ? Info(root.op).name : "assign", arrays,
                 e.num_arrays());
  }
  for (int i = 0; i < n; ++i) {
    const Expr::Node& nd = e.node(i);
    r->dtype[i] = -1;
    if (nd.kind == Expr::NodeKind::kArray) {
      const NDArray& a = e.array(nd.index);
      SHADE_CHECK_TYPE_GE(a.type_flag(), 0)
          << "elementwise op: operand " << a << " has a non-numeric or unset element type";
      r->dtype[i] = a.type_flag();
      SHADE_CHECK_SHAPE_LE(a.ndim(), kMaxDims)
          << "elementwise op: rank " << a.ndim() << " of " << a << " exceeds " << kMaxDims;
      r->ndim[i] = a.ndim();
      std::copy(a.sizes().begin(), a.sizes().end(), r->shape[i]);
    } else if (nd.kind == Expr::NodeKind::kScalar) {
      r->ndim[i] = 0;
      const WeakScalar& s = e.scalar(nd.index);
      if (s.kind == WeakKind::kNone) r->dtype[i] = kBool;  // a bool scalar is a strong bool
    } else {
      const OpTraits& info = Info(nd.op);
      PromotionOperand in[3];
      r->ndim[i] = 0;
      for (int k = 0; k < info.arity; ++k) {
        const int c = nd.arg[k];
        const Expr::Node& child = e.node(c);
        if (child.kind == Expr::NodeKind::kScalar &&
            e.scalar(child.index).kind != WeakKind::kNone) {
          in[k] = PromotionOperand::Weak(e.scalar(child.index).kind);
        } else {
          in[k] = PromotionOperand::Strong(r->dtype[c]);
        }
        BroadcastInto(r->shape[i], &r->ndim[i], r->shape[c], r->ndim[c], info.name);
      }
      ResolveOp(nd.op, in, info.arity, r->opnd[i], &r->dtype[i]);
      // A scalar child takes the dtype its parent reads it in.
      for (int k = 0; k < info.arity; ++k) {
        if (e.node(nd.arg[k]).kind == Expr::NodeKind::kScalar) r->dtype[nd.arg[k]] = r->opnd[i][k];
      }
    }
  }
  const int root = n - 1;
  if (r->dtype[root] < 0) {  // a lone scalar
    const PromotionOperand w = PromotionOperand::Weak(e.scalar(e.node(root).index).kind);
    r->dtype[root] = ResultType(&w, 1);
  }
}

}  // namespace lazy

const char* OpName(OpCode op) {
  return lazy::Info(op).name;
}
int OpArity(OpCode op) {
  return lazy::Info(op).arity;
}

}  // namespace shade
