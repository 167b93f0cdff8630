// The derivative rules, all in one place: what each differentiable dispatch point of the dynamic
// ops records (ndarray/grad_hook.h, GradOp), and the backward of each op of the elementwise
// registry (functor/op_registry.h), by OpCode (LocalGrad below). Every backward is written with
// NDArray ops, so a backward run with create_graph records itself and can be differentiated
// again.
//
// Elementwise ops are differentiated symbolically on the fused expression: a lazy Expr is one
// node, and its backward builds, for each input that requires grad, one Expr of the incoming
// gradient and the expression's leaves (intermediate values are recomputed inside the fused
// kernel, never stored), evaluated in one pass (plus a sum where the input was broadcast).
// Kinks follow PyTorch: abs'(0) = 0, relu'(0) = 0, maximum/minimum split the gradient evenly on
// ties, clip passes it where lo <= x <= hi, floor/ceil/round/sign/floor_divide have a zero
// gradient; comparisons and logical/bitwise ops have none.
#include <cmath>
#include <optional>
#include <utility>

#include "autograd_internal.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/indexing.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {
namespace autograd {
namespace internal {
namespace {

using detail::GradAttrs;
using detail::GradOp;

// ------------------------------------------------------------------ shape helpers

// Sums `g` down to `shape` (the inverse of broadcasting `shape` to g's shape).
NDArray SumTo(const NDArray& g, IndexSpan shape) {
  if (g.sizes() == shape) return g;
  const int lead = g.ndim() - static_cast<int>(shape.size());
  std::vector<index_t> axes;
  for (int d = 0; d < g.ndim(); ++d) {
    if (d < lead || (shape[static_cast<std::size_t>(d - lead)] == 1 && g.size(d) != 1)) {
      axes.push_back(d);
    }
  }
  NDArray r = axes.empty() ? g : sum(g, AxisSet(axes), true);
  return r.reshape(shape);
}

// A reduction's geometry: which axes of the input were reduced and over how many elements.
struct Reduced {
  std::vector<bool> mask;
  std::vector<index_t> keep_shape;  // the input's shape with 1 at the reduced axes
  index_t count = 1;                // elements per reduced group
};

Reduced ReducedOf(const NDArray& x, const GradAttrs& at, const char* op) {
  const AxisSet axes = at.all_axes ? AxisSet() : AxisSet(at.axes);
  Reduced r;
  r.mask = axes.Mask(x.sizes(), op);
  r.keep_shape = x.sizes().vec();
  for (int d = 0; d < x.ndim(); ++d) {
    if (r.mask[static_cast<std::size_t>(d)]) {
      r.count *= x.size(d);
      r.keep_shape[static_cast<std::size_t>(d)] = 1;
    }
  }
  return r;
}

AxisSet AxesOf(const GradAttrs& at) {
  return at.all_axes ? AxisSet() : AxisSet(at.axes);
}

// The reduction's gradient (or result) with the reduced axes back as size 1, then broadcast
// (a zero-stride view) to the input's shape.
NDArray Expand(const NDArray& g, const Reduced& r, IndexSpan in_shape) {
  return g.reshape(r.keep_shape).expand(in_shape);
}

// ------------------------------------------------------------------ views

// A strided layout relative to the storage: what a view is, whatever op made it.
struct Geometry {
  std::vector<index_t> sizes, strides;
  index_t offset = 0;
};

Geometry GeometryOf(const NDArray& a) {
  return Geometry{a.sizes().vec(), a.strides().vec(), a.storage_offset()};
}

// Storage elements a layout of non-negative strides reaches from its offset.
index_t Span(const Geometry& g) {
  index_t span = 1;
  for (std::size_t d = 0; d < g.sizes.size(); ++d) {
    if (g.sizes[d] == 0) return 0;
    span += (g.sizes[d] - 1) * g.strides[d];
  }
  return span;
}

NDArray ScatterView(const NDArray& g, const Geometry& x, const Geometry& v);

// The view `v` of an array laid out as `x`, taken from `h` (x's shape): the forward of a view,
// on a fresh buffer. Its backward is ScatterView.
NDArray GatherView(const NDArray& h, const Geometry& x, const Geometry& v) {
  NDArray out;
  {
    detail::GradModeScope off(false);
    NDArray buf = zeros({Span(x)}, h.type_flag());
    buf.as_strided(x.sizes, x.strides, 0).copy_(h);
    out = buf.as_strided(v.sizes, v.strides, v.offset - x.offset);
  }
  return Record("ViewBackwardBackward", {h}, {out}, [x, v](const std::vector<NDArray>& gg) {
    return std::vector<NDArray>{gg[0].defined() ? ScatterView(gg[0], x, v) : NDArray()};
  })[0];
}

// The gradient of the view `v` of an array laid out as `x`: `g` (v's shape) added into zeros of
// x's layout at the storage positions v reads. Zero-stride (broadcast) dimensions of v are
// summed first, so every remaining position is written once.
NDArray ScatterView(const NDArray& g_in, const Geometry& x, const Geometry& v_in) {
  for (std::size_t d = 0; d < x.sizes.size(); ++d) {
    SHADE_CHECK(x.sizes[d] <= 1 || x.strides[d] != 0)
        << "autograd: the gradient of a view of a broadcast (zero-stride) array is ambiguous; "
           "call contiguous() on the broadcast array before taking views of it";
  }
  Geometry v = v_in;
  std::vector<index_t> axes;
  for (std::size_t d = 0; d < v.sizes.size(); ++d) {
    if (v.sizes[d] > 1 && v.strides[d] == 0) {
      axes.push_back(static_cast<index_t>(d));
      v.sizes[d] = 1;
    }
  }
  const NDArray g = axes.empty() ? g_in : sum(g_in, AxisSet(axes), true);
  NDArray out;
  {
    detail::GradModeScope off(false);
    NDArray buf = zeros({Span(x)}, g.type_flag());
    if (g.numel() > 0) buf.as_strided(v.sizes, v.strides, v.offset - x.offset).copy_(g);
    out = buf.as_strided(x.sizes, x.strides, 0);
  }
  return Record("ViewBackward", {g}, {out}, [x, v](const std::vector<NDArray>& gg) {
    return std::vector<NDArray>{gg[0].defined() ? GatherView(gg[0], x, v) : NDArray()};
  })[0];
}

// ------------------------------------------------------------------ gathers

std::vector<index_t> Iota(index_t from, index_t to) {
  std::vector<index_t> v;
  for (index_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

NDArray TakeBackward(const NDArray& g, const std::vector<index_t>& shape, const NDArray& idx,
                     index_t ax);

// take(a, idx, ax)'s gradient: a scatter-add of g into zeros (repeated indices add up).
NDArray TakeBackward(const NDArray& g, const std::vector<index_t>& shape, const NDArray& idx,
                     index_t ax) {
  NDArray z;
  {
    detail::GradModeScope off(false);
    z = zeros(shape, g.type_flag());
    const index_t nd = static_cast<index_t>(shape.size()), ki = idx.ndim();
    // z with the axis first; g with the index dimensions first (what z'[idx] is shaped like).
    std::vector<index_t> zp{ax};
    for (index_t d = 0; d < nd; ++d) {
      if (d != ax) zp.push_back(d);
    }
    std::vector<index_t> gp = Iota(ax, ax + ki);
    for (index_t d : Iota(0, ax)) gp.push_back(d);
    for (index_t d : Iota(ax + ki, g.ndim())) gp.push_back(d);
    if (g.numel() > 0) index_put_(z.permute(zp), {idx}, g.permute(gp), true);
  }
  return Record("TakeBackward", {g}, {z}, [idx, ax](const std::vector<NDArray>& gg) {
    return std::vector<NDArray>{gg[0].defined() ? take(gg[0], idx, ax) : NDArray()};
  })[0];
}

// index(a, indices)'s gradient: a scatter-add (np.add.at) of g into zeros.
NDArray IndexBackward(const NDArray& g, const std::vector<index_t>& shape,
                      const std::vector<NDArray>& indices) {
  NDArray z;
  {
    detail::GradModeScope off(false);
    z = zeros(shape, g.type_flag());
    if (g.numel() > 0) index_put_(z, indices, g, true);
  }
  return Record("IndexBackward", {g}, {z}, [indices](const std::vector<NDArray>& gg) {
    return std::vector<NDArray>{gg[0].defined() ? index(gg[0], indices) : NDArray()};
  })[0];
}

// ------------------------------------------------------------------ fused elementwise

// Builds expressions within an Expr's capacity: an operand that would overflow it is evaluated
// first (recorded like any evaluation when the backward is).
int ScalarLeaves(const Expr& e) {
  int n = 0;
  for (int i = 0; i < e.num_nodes(); ++i) n += e.node(i).kind == Expr::NodeKind::kScalar;
  return n;
}

void MakeRoom(std::vector<Expr*> ops) {
  for (;;) {
    int nodes = 1, arrays = 0, scalars = 0;
    for (const Expr* e : ops) {
      nodes += e->num_nodes();
      arrays += e->num_arrays();
      scalars += ScalarLeaves(*e);
    }
    if (nodes <= Expr::kMaxNodes && arrays <= Expr::kMaxArrays && scalars <= Expr::kMaxScalars) {
      return;
    }
    Expr* big = nullptr;
    for (Expr* e : ops) {
      if (e->num_nodes() > 1 && e->num_arrays() > 0 &&
          (big == nullptr || e->num_nodes() > big->num_nodes())) {
        big = e;
      }
    }
    SHADE_CHECK(big != nullptr) << "autograd: an elementwise gradient does not fit an Expr";
    *big = Expr(big->eval());
  }
}

Expr Op(OpCode op, Expr a) {
  MakeRoom({&a});
  return Expr::Make(op, std::move(a));
}
Expr Op(OpCode op, Expr a, Expr b) {
  MakeRoom({&a, &b});
  return Expr::Make(op, std::move(a), std::move(b));
}
Expr Op(OpCode op, Expr a, Expr b, Expr c) {
  MakeRoom({&a, &b, &c});
  return Expr::Make(op, std::move(a), std::move(b), std::move(c));
}
Expr Add(Expr a, Expr b) {
  return Op(OpCode::kAdd, std::move(a), std::move(b));
}
Expr Sub(Expr a, Expr b) {
  return Op(OpCode::kSubtract, std::move(a), std::move(b));
}
Expr Mul(Expr a, Expr b) {
  return Op(OpCode::kMultiply, std::move(a), std::move(b));
}
Expr Div(Expr a, Expr b) {
  return Op(OpCode::kTrueDivide, std::move(a), std::move(b));
}
Expr Neg(Expr a) {
  return Op(OpCode::kNegative, std::move(a));
}
Expr Where(Expr c, Expr a, Expr b) {
  return Op(OpCode::kWhere, std::move(c), std::move(a), std::move(b));
}
Expr Zero() {
  return Expr(0);
}

// The subtree of `e` rooted at node n, as its own expression.
Expr SubExpr(const Expr& e, int n) {
  const Expr::Node& nd = e.node(n);
  if (nd.kind == Expr::NodeKind::kArray) return Expr(e.array(nd.index));
  if (nd.kind == Expr::NodeKind::kScalar) return Expr(e.scalar(nd.index));
  const int arity = OpArity(nd.op);
  if (arity == 1) return Op(nd.op, SubExpr(e, nd.arg[0]));
  if (arity == 2) return Op(nd.op, SubExpr(e, nd.arg[0]), SubExpr(e, nd.arg[1]));
  return Op(nd.op, SubExpr(e, nd.arg[0]), SubExpr(e, nd.arg[1]), SubExpr(e, nd.arg[2]));
}

// THE TABLE of elementwise derivatives: the gradient reaching operand k of node n (op) from
// the gradient g of n; nullopt when none flows (non-differentiable or zero).
std::optional<Expr> LocalGrad(const Expr& e, int n, int k, const Expr& g) {
  const Expr::Node& nd = e.node(n);
  auto arg = [&](int i) { return SubExpr(e, nd.arg[i]); };
  auto out = [&]() { return SubExpr(e, n); };
  const double kLn2 = std::log(2.0), kLn10 = std::log(10.0);
  switch (nd.op) {
    case OpCode::kAdd:
      return g;
    case OpCode::kSubtract:
      return k == 0 ? g : Neg(g);
    case OpCode::kMultiply:
      return Mul(g, arg(1 - k));
    case OpCode::kTrueDivide:  // d/dx = 1/y, d/dy = -x/y^2
      if (k == 0) return Div(g, arg(1));
      return Neg(Div(Mul(g, arg(0)), Mul(arg(1), arg(1))));
    case OpCode::kRemainder:  // x - floor(x/y)*y
      if (k == 0) return g;
      return Neg(Mul(g, Op(OpCode::kFloorDivide, arg(0), arg(1))));
    case OpCode::kPower:  // PyTorch's masks: no gradient from y == 0, none to y where x == 0 <= y
      if (k == 0) {
        return Where(Op(OpCode::kEqual, arg(1), Zero()), Zero(),
                     Mul(Mul(g, arg(1)), Op(OpCode::kPower, arg(0), Sub(arg(1), Expr(1)))));
      }
      return Where(Op(OpCode::kLogicalAnd, Op(OpCode::kEqual, arg(0), Zero()),
                      Op(OpCode::kGreaterEqual, arg(1), Zero())),
                   Zero(), Mul(Mul(g, out()), Op(OpCode::kLog, arg(0))));
    case OpCode::kMaximum:
    case OpCode::kMinimum: {  // ties split evenly (PyTorch)
      const OpCode wins =
          (nd.op == OpCode::kMaximum) == (k == 0) ? OpCode::kGreater : OpCode::kLess;
      return Where(Op(OpCode::kEqual, arg(0), arg(1)), Div(g, Expr(2)),
                   Where(Op(wins, arg(0), arg(1)), g, Zero()));
    }
    case OpCode::kNegative:
      return Neg(g);
    case OpCode::kAbs:  // sign(0) = 0
      return Mul(g, Op(OpCode::kSign, arg(0)));
    case OpCode::kExp:
      return Mul(g, out());
    case OpCode::kLog:
      return Div(g, arg(0));
    case OpCode::kLog1p:
      return Div(g, Add(arg(0), Expr(1)));
    case OpCode::kExpm1:
      return Mul(g, Add(out(), Expr(1)));
    case OpCode::kSqrt:
      return Div(g, Mul(Expr(2), out()));
    case OpCode::kRsqrt:  // -x^(-3/2) / 2
      return Mul(Mul(g, Expr(-0.5)), Mul(out(), Mul(out(), out())));
    case OpCode::kSin:
      return Mul(g, Op(OpCode::kCos, arg(0)));
    case OpCode::kCos:
      return Neg(Mul(g, Op(OpCode::kSin, arg(0))));
    case OpCode::kTanh:
      return Mul(g, Sub(Expr(1), Mul(out(), out())));
    case OpCode::kSigmoid:
      return Mul(g, Mul(out(), Sub(Expr(1), out())));
    case OpCode::kRelu:  // relu'(0) = 0
      return Where(Op(OpCode::kGreater, out(), Zero()), g, Zero());
    case OpCode::kWhere:
      if (k == 0) return std::nullopt;
      return k == 1 ? Where(arg(0), g, Zero()) : Where(arg(0), Zero(), g);
    case OpCode::kClamp:  // PyTorch's clamp_backward (lo > hi gives hi)
      if (k == 0) {
        return Where(Op(OpCode::kLogicalAnd, Op(OpCode::kGreaterEqual, arg(0), arg(1)),
                        Op(OpCode::kLessEqual, arg(0), arg(2))),
                     g, Zero());
      }
      if (k == 1) {
        return Where(Op(OpCode::kLogicalAnd, Op(OpCode::kLess, arg(0), arg(1)),
                        Op(OpCode::kLess, arg(1), arg(2))),
                     g, Zero());
      }
      return Where(Op(OpCode::kLogicalOr, Op(OpCode::kGreater, arg(0), arg(2)),
                      Op(OpCode::kLess, arg(2), arg(1))),
                   g, Zero());
    case OpCode::kLog2:
      return Div(g, Mul(arg(0), Expr(kLn2)));
    case OpCode::kExp2:
      return Mul(g, Mul(out(), Expr(kLn2)));
    case OpCode::kLog10:
      return Div(g, Mul(arg(0), Expr(kLn10)));
    case OpCode::kCbrt:
      return Div(g, Mul(Expr(3), Mul(out(), out())));
    case OpCode::kArctan2: {  // atan2(y, x): (x, -y) / (x^2 + y^2)
      Expr den = Add(Mul(arg(0), arg(0)), Mul(arg(1), arg(1)));
      if (k == 0) return Div(Mul(g, arg(1)), std::move(den));
      return Neg(Div(Mul(g, arg(0)), std::move(den)));
    }
    case OpCode::kHypot:
      return Div(Mul(g, arg(k)), out());
    case OpCode::kLogaddexp:  // 1 / (1 + e^(other - self))
      return Div(g, Add(Expr(1), Op(OpCode::kExp, Sub(arg(1 - k), arg(k)))));
    case OpCode::kCopysign:  // |a| with b's sign: result / a (0 where a == 0); none to b
      if (k == 1) return std::nullopt;
      return Where(Op(OpCode::kEqual, arg(0), Zero()), Zero(), Mul(g, Div(out(), arg(0))));
    default:
      // floor_divide, floor, ceil, round, sign: zero almost everywhere; comparisons, logical
      // and bitwise ops: not differentiable.
      return std::nullopt;
  }
}

// The backward of a fused expression: one gradient expression per input that requires grad.
std::vector<NDArray> ElementwiseBackward(const Expr& e, const std::vector<bool>& tracked,
                                         const NDArray& g) {
  const int nn = e.num_nodes();
  // needs[n]: the subtree of n reads an array that requires grad.
  std::vector<bool> needs(static_cast<std::size_t>(nn), false);
  for (int n = 0; n < nn; ++n) {
    const Expr::Node& nd = e.node(n);
    if (nd.kind == Expr::NodeKind::kArray) {
      needs[n] = tracked[static_cast<std::size_t>(nd.index)];
    } else if (nd.kind == Expr::NodeKind::kOp) {
      for (int k = 0; k < OpArity(nd.op); ++k) needs[n] = needs[n] || needs[nd.arg[k]];
    }
  }
  std::vector<std::optional<Expr>> adj(static_cast<std::size_t>(nn));
  adj[nn - 1] = Expr(g);
  for (int n = nn - 1; n >= 0; --n) {
    const Expr::Node& nd = e.node(n);
    if (nd.kind != Expr::NodeKind::kOp || !adj[n] || !needs[n]) continue;
    for (int k = 0; k < OpArity(nd.op); ++k) {
      const int c = nd.arg[k];
      if (!needs[c]) continue;
      std::optional<Expr> contrib = LocalGrad(e, n, k, *adj[n]);
      if (!contrib) continue;
      adj[c] = adj[c] ? Add(std::move(*adj[c]), std::move(*contrib)) : std::move(*contrib);
    }
    adj[n].reset();
  }
  std::vector<NDArray> grads(static_cast<std::size_t>(e.num_arrays()));
  for (int slot = 0; slot < e.num_arrays(); ++slot) {
    if (!tracked[static_cast<std::size_t>(slot)]) continue;
    std::optional<Expr> total;
    for (int n = 0; n < nn; ++n) {
      const Expr::Node& nd = e.node(n);
      if (nd.kind != Expr::NodeKind::kArray || nd.index != slot || !adj[n]) continue;
      total = total ? Add(std::move(*total), std::move(*adj[n])) : std::move(*adj[n]);
    }
    const NDArray& x = e.array(slot);
    if (!total) {
      grads[slot] = zeros(x.sizes(), x.type_flag());  // reached only through zero-gradient ops
      continue;
    }
    grads[slot] = SumTo(total->eval(), x.sizes());
  }
  return grads;
}

// ------------------------------------------------------------------ reductions

NDArray ReductionBackward(GradOp op, const NDArray& x, const NDArray& out, const GradAttrs& at,
                          const NDArray& g) {
  const char* name = op == GradOp::kSum ? "sum" : "reduction";
  const Reduced r = ReducedOf(x, at, name);
  const NDArray ge = Expand(g, r, x.sizes());
  switch (op) {
    case GradOp::kSum:
      return ge;
    case GradOp::kMean:
      return divide(ge, r.count).eval();
    case GradOp::kProd: {
      // The product of the other elements of each group; exact with zeros in the group.
      const NDArray is0 = equal(x, 0).eval();
      const NDArray nz = where(is0, 1, x).eval();
      const NDArray pnz = Expand(prod(nz, AxisSet(AxesOf(at)), true), r, x.sizes());
      const NDArray zeros_in = Expand(sum(is0, AxisSet(AxesOf(at)), true), r, x.sizes());
      return multiply(ge, where(equal(zeros_in, 0), pnz / nz,
                                where(logical_and(equal(zeros_in, 1), is0), pnz, 0)))
          .eval();
    }
    case GradOp::kMax:
    case GradOp::kMin: {  // shared evenly by the elements equal to the extremum (PyTorch)
      const NDArray hit = equal(x, Expand(out, r, x.sizes())).eval();
      const NDArray count = Expand(sum(hit, AxisSet(AxesOf(at)), true), r, x.sizes());
      return where(hit, ge / count, 0).eval();
    }
    case GradOp::kVar: {
      const NDArray centered = (x - Expand(mean(x, AxesOf(at), true), r, x.sizes())).eval();
      return (ge * centered * (2.0 / static_cast<double>(r.count - at.ddof))).eval();
    }
    case GradOp::kStd: {
      const NDArray centered = (x - Expand(mean(x, AxesOf(at), true), r, x.sizes())).eval();
      const NDArray s = Expand(shade::std(x, AxesOf(at), at.ddof, true), r, x.sizes());
      return (ge * centered / (s * static_cast<double>(r.count - at.ddof))).eval();
    }
    default:
      SHADE_THROW << "autograd: internal error: not a reduction";
  }
}

const char* ReductionName(GradOp op) {
  switch (op) {
    case GradOp::kSum:
      return "sum";
    case GradOp::kMean:
      return "mean";
    case GradOp::kProd:
      return "prod";
    case GradOp::kMax:
      return "max";
    case GradOp::kMin:
      return "min";
    case GradOp::kVar:
      return "var";
    default:
      return "std";
  }
}

// ------------------------------------------------------------------ matmul

std::vector<NDArray> MatmulBackward(const NDArray& a, const NDArray& b, const NDArray& g) {
  const bool a_vec = a.ndim() == 1, b_vec = b.ndim() == 1;
  const NDArray a2 = a_vec ? a.unsqueeze(0) : a;
  const NDArray b2 = b_vec ? b.unsqueeze(1) : b;
  NDArray g2 = g;
  if (a_vec && b_vec) {
    g2 = g.reshape({1, 1});
  } else if (a_vec) {
    g2 = g.unsqueeze(-2);
  } else if (b_vec) {
    g2 = g.unsqueeze(-1);
  }
  const NDArray ga = SumTo(matmul(g2, b2.transpose(-1, -2)), a2.sizes()).reshape(a.sizes());
  const NDArray gb = SumTo(matmul(a2.transpose(-1, -2), g2), b2.sizes()).reshape(b.sizes());
  return {ga, gb};
}

}  // namespace

// ------------------------------------------------------------------ the recorder

void RecordBuiltin(GradOp op, const std::vector<NDArray>& inputs,
                   const std::vector<NDArray>& outputs, GradAttrs&& attrs) {
  switch (op) {
    case GradOp::kElementwise: {
      Expr e = *attrs.expr;
      std::vector<NDArray> ins;
      std::vector<bool> tracked;
      for (int k = 0; k < e.num_arrays(); ++k) {
        ins.push_back(e.array(k));
        tracked.push_back(e.array(k).requires_grad());
      }
      const Expr::Node& root = e.node(e.num_nodes() - 1);
      const std::string name = root.kind == Expr::NodeKind::kOp ? OpName(root.op) : "copy";
      Record(name, ins, outputs, [e, tracked](const std::vector<NDArray>& g) {
        return ElementwiseBackward(e, tracked, g[0]);
      });
      return;
    }
    case GradOp::kSum:
    case GradOp::kMean:
    case GradOp::kProd:
    case GradOp::kMax:
    case GradOp::kMin:
    case GradOp::kVar:
    case GradOp::kStd: {
      const NDArray x = inputs[0];
      // The result is kept detached: a node never holds its own output (no reference cycle).
      const NDArray out =
          op == GradOp::kMax || op == GradOp::kMin ? outputs[0].detach() : NDArray();
      Record(ReductionName(op), inputs, outputs,
             [op, x, out, at = std::move(attrs)](const std::vector<NDArray>& g) {
               return std::vector<NDArray>{ReductionBackward(op, x, out, at, g[0])};
             });
      return;
    }
    case GradOp::kMatmul: {
      const NDArray a = inputs[0], b = inputs[1];
      Record("matmul", inputs, outputs,
             [a, b](const std::vector<NDArray>& g) { return MatmulBackward(a, b, g[0]); });
      return;
    }
    case GradOp::kView: {
      const Geometry x = GeometryOf(inputs[0]), v = GeometryOf(outputs[0]);
      Record("view", inputs, outputs, [x, v](const std::vector<NDArray>& g) {
        return std::vector<NDArray>{ScatterView(g[0], x, v)};
      });
      return;
    }
    case GradOp::kCopy:
    case GradOp::kAstype:  // the engine casts a gradient to its input's dtype
      Record(op == GradOp::kCopy ? "copy" : "astype", inputs, outputs,
             [](const std::vector<NDArray>& g) { return std::vector<NDArray>{g[0]}; });
      return;
    case GradOp::kConcatenate: {
      std::vector<index_t> lens;
      for (const NDArray& x : inputs) lens.push_back(x.ndim() > 0 ? x.size(attrs.axis) : 0);
      const index_t axis = attrs.axis;
      Record("concatenate", inputs, outputs, [lens, axis](const std::vector<NDArray>& g) {
        std::vector<NDArray> r;
        index_t at = 0;
        for (index_t len : lens) {
          r.push_back(g[0].narrow(axis, at, len));
          at += len;
        }
        return r;
      });
      return;
    }
    case GradOp::kTake: {
      const std::vector<index_t> shape = inputs[0].sizes().vec();
      const NDArray idx = attrs.arrays[0];
      const index_t ax = inputs[0].WrapDim(attrs.axis);
      Record("take", inputs, outputs, [shape, idx, ax](const std::vector<NDArray>& g) {
        return std::vector<NDArray>{TakeBackward(g[0], shape, idx, ax)};
      });
      return;
    }
    case GradOp::kIndex: {
      const std::vector<index_t> shape = inputs[0].sizes().vec();
      std::vector<NDArray> indices = std::move(attrs.arrays);
      Record("index", inputs, outputs, [shape, indices](const std::vector<NDArray>& g) {
        return std::vector<NDArray>{IndexBackward(g[0], shape, indices)};
      });
      return;
    }
  }
}

}  // namespace internal
}  // namespace autograd
}  // namespace shade
