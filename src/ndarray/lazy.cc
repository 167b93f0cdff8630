// The fused evaluator's third job, the public side of Expr (ndarray/lazy.h): building
// expression trees, their dtype and shape, eval with or without out=, and the direct path of the
// small common case. Resolution and evaluation live in lazy_resolve.cc and lazy_program.cc.
#include <cstring>
#include <utility>

#include "lazy_internal.h"
#include "shade/ndarray/device.h"
#include "shade/ndarray/float_errors.h"
#include "shade/ndarray/grad_hook.h"

namespace shade {

namespace detail {
GradRecorder g_grad_recorder = nullptr;
}  // namespace detail

using lazy::HarmfulOverlap;
using lazy::Info;
using lazy::Resolve;
using lazy::Resolved;

namespace {

// The small common case `a op b` (two contiguous arrays of one shape, at most one tile, dtypes
// needing no conversion): resolved from the root op alone (no per-node Resolve, no broadcast,
// no program, no tiles, no thread dispatch) and run as one kernel call on the arrays' memory,
// exactly what the general path would compute. A 4-element add must cost tens of nanoseconds.
struct DirectBinary {
  const NDArray* a;
  const NDArray* b;
  dyn::OpKernel kernel;
  int dtype;  // the result's
  void Run(void* out) const {
    const index_t n = a->numel();
    if (n == 0) return;
    const dyn::View in[2] = {dyn::View{a->data_ptr(), false}, dyn::View{b->data_ptr(), false}};
    SHADE_CHECK(in[0].p != nullptr && in[1].p != nullptr)
        << "elementwise op: an operand has no memory allocated";
    kernel(n, out, in);
  }
};

// One remembered resolution of a direct binary op: (op, fa, fb) -> result dtype and kernel.
struct DirectMemo {
  unsigned key_plus_1;  // 0: empty (zero-initialised thread_local)
  bool direct;          // the operands need no conversion
  int dtype;
  dyn::OpKernel kernel;
};
constexpr unsigned kDirectMemoSize = 64;
thread_local DirectMemo t_direct_memo[kDirectMemoSize];

bool MatchDirectBinary(const Expr& e, DirectBinary* d) {
  if (e.num_nodes() != 3) return false;
  const Expr::Node& root = e.node(2);
  const Expr::Node& l0 = e.node(0);
  const Expr::Node& l1 = e.node(1);
  if (root.kind != Expr::NodeKind::kOp || l0.kind != Expr::NodeKind::kArray ||
      l1.kind != Expr::NodeKind::kArray || Info(root.op).arity != 2) {
    return false;
  }
  const NDArray& a = e.array(l0.index);
  const NDArray& b = e.array(l1.index);
  const NDArrayImpl* ai = a.unsafeGetImpl();
  const NDArrayImpl* bi = b.unsafeGetImpl();
  if (ai == nullptr || bi == nullptr || !ai->is_contiguous() || !bi->is_contiguous() ||
      ai->numel() > dyn::kMaxTile || a.sizes() != b.sizes() ||
      ai->storage().dev_mask() != cpu::kDevMask || bi->storage().dev_mask() != cpu::kDevMask) {
    return false;
  }
  const int fa = a.type_flag(), fb = b.type_flag();
  if (fa < 0 || fb < 0) return false;  // the general path names the bad operand
  // Resolving the root op (NEP 50 promotion, the kernel table) was ~13% of a 4-element add and
  // depends on (op, fa, fb) alone: each thread keeps the recent answers, direct-mapped.
  const unsigned key =
      (static_cast<unsigned>(root.op) * kNumTypeFlags + static_cast<unsigned>(fa)) * kNumTypeFlags +
      static_cast<unsigned>(fb);
  DirectMemo& m = t_direct_memo[key % kDirectMemoSize];
  if (m.key_plus_1 != key + 1) {
    const PromotionOperand in[2] = {PromotionOperand::Strong(fa), PromotionOperand::Strong(fb)};
    int opnd[3];
    int dtype = -1;
    lazy::ResolveOp(root.op, in, 2, opnd, &dtype);
    m.direct = opnd[0] == fa && opnd[1] == fb;
    m.dtype = dtype;
    m.kernel = m.direct ? lazy::KernelFor(root.op, fa) : nullptr;
    m.key_plus_1 = key + 1;
  }
  if (!m.direct) return false;
  d->a = &a;
  d->b = &b;
  d->dtype = m.dtype;
  d->kernel = m.kernel;
  return true;
}

}  // namespace

// ------------------------------------------------------------------------------------------
// Expr

Expr::Expr(const NDArray& a) {
  SHADE_CHECK(a.defined()) << "elementwise op: an operand is an undefined NDArray";
  nodes_[0] = Node{NodeKind::kArray, OpCode::kAdd, {-1, -1, -1}, 0};
  new (arrays()) NDArray(a);
  num_nodes_ = 1;
  num_arrays_ = 1;
}

Expr::Expr(const WeakScalar& s) {
  nodes_[0] = Node{NodeKind::kScalar, OpCode::kAdd, {-1, -1, -1}, 0};
  new (scalars()) WeakScalar(s);
  num_nodes_ = 1;
  num_scalars_ = 1;
}

void Expr::CopyNodesAndScalars(const Expr& o) noexcept {
  // The node array is small (a fixed-size copy is a few vector moves, no library call);
  // scalars are copied only when there are any.
  std::memcpy(nodes_, o.nodes_, sizeof(nodes_));
  if (o.num_scalars_ > 0) {
    std::memcpy(static_cast<void*>(scalars()), o.scalars(),
                sizeof(WeakScalar) * static_cast<std::size_t>(o.num_scalars_));
  }
  num_nodes_ = o.num_nodes_;
  num_scalars_ = o.num_scalars_;
}

void Expr::CopyFrom(const Expr& o) {
  CopyNodesAndScalars(o);
  for (int k = 0; k < o.num_arrays_; ++k) new (arrays() + k) NDArray(o.arrays()[k]);
  num_arrays_ = o.num_arrays_;
}

void Expr::MoveFrom(Expr&& o) noexcept {
  CopyNodesAndScalars(o);
  for (int k = 0; k < o.num_arrays_; ++k) {
    new (arrays() + k) NDArray(std::move(o.arrays()[k]));
    o.arrays()[k].~NDArray();
  }
  num_arrays_ = o.num_arrays_;
  // The source is left empty: its destructor has nothing to release.
  o.num_nodes_ = o.num_arrays_ = o.num_scalars_ = 0;
}

void Expr::CheckNotEmpty(const Expr& o) {
  SHADE_CHECK_GE(int{o.num_nodes_}, 1) << "Expr: an operand is an empty expression (moved from)";
}

void Expr::Clear() noexcept {
  for (int k = 0; k < num_arrays_; ++k) arrays()[k].~NDArray();
  num_nodes_ = num_arrays_ = num_scalars_ = 0;
}

int Expr::Append(Expr&& o) {
  CheckNotEmpty(o);
  SHADE_CHECK_LE(int{num_nodes_} + o.num_nodes_, kMaxNodes - 1)
      << "Expr: more than " << kMaxNodes << " nodes in one expression; evaluate a part first";
  const int base = num_nodes_;
  // o's array slots map to slots here once each: o may read one array from several nodes, and
  // after the first of them has moved it over, o's slot is empty.
  std::int8_t slot_of[kMaxArrays];
  for (int j = 0; j < o.num_arrays_; ++j) {
    int slot = -1;
    for (int k = 0; k < num_arrays_; ++k) {
      if (arrays()[k].is_same(o.arrays()[j])) slot = k;
    }
    if (slot < 0) {
      SHADE_CHECK_LT(int{num_arrays_}, kMaxArrays)
          << "Expr: more than " << kMaxArrays << " arrays in one expression; evaluate a part first";
      slot = num_arrays_;
      new (arrays() + slot) NDArray(std::move(o.arrays()[j]));
      ++num_arrays_;
    }
    slot_of[j] = static_cast<std::int8_t>(slot);
  }
  for (int i = 0; i < o.num_nodes_; ++i) {
    Node nd = o.nodes_[i];
    if (nd.kind == NodeKind::kArray) {
      nd.index = slot_of[nd.index];
    } else if (nd.kind == NodeKind::kScalar) {
      SHADE_CHECK_LT(int{num_scalars_}, kMaxScalars)
          << "Expr: more than " << kMaxScalars << " scalars in one expression";
      new (scalars() + num_scalars_) WeakScalar(o.scalars()[nd.index]);
      nd.index = num_scalars_++;
    } else {
      for (int k = 0; k < 3; ++k) {
        if (nd.arg[k] >= 0) nd.arg[k] = static_cast<std::int8_t>(nd.arg[k] + base);
      }
    }
    nodes_[num_nodes_++] = nd;
  }
  return num_nodes_ - 1;
}

Expr Expr::Make(OpCode op, Expr a) {
  CheckNotEmpty(a);
  SHADE_CHECK_EQ(Info(op).arity, 1) << "Expr::Make: " << Info(op).name << " is not unary";
  SHADE_CHECK_LE(int{a.num_nodes_}, kMaxNodes - 1)
      << "Expr: more than " << kMaxNodes << " nodes in one expression; evaluate a part first";
  const int r = a.num_nodes_ - 1;
  a.nodes_[a.num_nodes_++] = Node{NodeKind::kOp, op, {static_cast<std::int8_t>(r), -1, -1}, 0};
  return a;
}

Expr Expr::Make(OpCode op, Expr a, Expr b) {
  CheckNotEmpty(a);
  SHADE_CHECK_EQ(Info(op).arity, 2) << "Expr::Make: " << Info(op).name << " is not binary";
  const int ra = a.num_nodes_ - 1;
  const int rb = a.Append(std::move(b));
  a.nodes_[a.num_nodes_++] =
      Node{NodeKind::kOp, op, {static_cast<std::int8_t>(ra), static_cast<std::int8_t>(rb), -1}, 0};
  return a;
}

Expr Expr::MakeArrays(OpCode op, const NDArray& a, const NDArray& b) {
  SHADE_CHECK(a.defined() && b.defined()) << "elementwise op: an operand is an undefined NDArray";
  SHADE_CHECK_EQ(Info(op).arity, 2) << "Expr::MakeArrays: " << Info(op).name << " is not binary";
  Expr e;
  // One slot when both operands are the same array, as Append's de-duplication gives.
  const bool same = a.is_same(b);
  new (e.arrays()) NDArray(a);
  if (!same) new (e.arrays() + 1) NDArray(b);
  e.num_arrays_ = same ? 1 : 2;
  e.nodes_[0] = Node{NodeKind::kArray, OpCode::kAdd, {-1, -1, -1}, 0};
  e.nodes_[1] =
      Node{NodeKind::kArray, OpCode::kAdd, {-1, -1, -1}, static_cast<std::int8_t>(same ? 0 : 1)};
  e.nodes_[2] = Node{NodeKind::kOp, op, {0, 1, -1}, 0};
  e.num_nodes_ = 3;
  return e;
}

Expr Expr::Make(OpCode op, Expr a, Expr b, Expr c) {
  CheckNotEmpty(a);
  SHADE_CHECK_EQ(Info(op).arity, 3) << "Expr::Make: " << Info(op).name << " is not ternary";
  const int ra = a.num_nodes_ - 1;
  const int rb = a.Append(std::move(b));
  const int rc = a.Append(std::move(c));
  a.nodes_[a.num_nodes_++] = Node{
      NodeKind::kOp,
      op,
      {static_cast<std::int8_t>(ra), static_cast<std::int8_t>(rb), static_cast<std::int8_t>(rc)},
      0};
  return a;
}

int Expr::dtype() const {
  Resolved r;
  Resolve(*this, &r);
  return r.dtype[r.num_nodes - 1];
}

TShape Expr::shape() const {
  Resolved r;
  Resolve(*this, &r);
  const int root = r.num_nodes - 1;
  return TShape(r.shape[root], r.shape[root] + r.ndim[root]);
}

namespace {
// The NumPy name of the evaluation's outermost op (float_errors.h's messages).
const char* RootName(const Expr& e) {
  const Expr::Node& n = e.node(e.num_nodes() - 1);
  return n.kind == Expr::NodeKind::kOp ? OpTraitsOf(n.op).name : "assign";
}
}  // namespace

bool Expr::GradTrackedLeaf() const noexcept {
  for (int k = 0; k < num_arrays_; ++k) {
    if (arrays()[k].unsafeGetImpl()->autograd_meta() != nullptr &&
        detail::GradTracked(arrays()[k])) {
      return true;
    }
  }
  return false;
}

NDArray Expr::eval() const {
  // One node for the whole fused expression: its backward is fused too (src/autograd).
  if (__builtin_expect(GradTrackedLeaf(), 0)) {
    detail::GradAttrs attrs;
    attrs.expr = this;
    return detail::RecordGrad(detail::GradOp::kElementwise, {}, std::move(attrs),
                              [&] { return eval(); });
  }
  const FloatErrorCheck fe(RootName(*this));
  DirectBinary d;
  if (MatchDirectBinary(*this, &d)) {
    NDArray out = NDArray::Empty(d.a->sizes(), d.dtype);
    d.Run(out.data_ptr());
    fe.Done();
    return out;
  }
  Resolved r;
  Resolve(*this, &r);
  const int root = r.num_nodes - 1;
  NDArray out = NDArray::Empty(IndexSpan(r.shape[root], static_cast<std::size_t>(r.ndim[root])),
                               r.dtype[root]);
  // A fresh output shares memory with no input.
  lazy::Run(*this, r, out, arrays());
  fe.Done();
  return out;
}

const NDArray& Expr::eval(const NDArray& out) const {
  // Writing into an array cannot be recorded (no in-place autograd): refused while grad mode
  // is on and an operand or out takes part in autograd, as PyTorch refuses in-place writes
  // into leaves that require grad. Under NoGradGuard (optimizer steps) it is a plain write.
  if (__builtin_expect(GradTrackedLeaf() || (out.defined() && detail::GradTracked(out)), 0)) {
    throw Error(std::string("autograd: ") + RootName(*this) +
                " with out= (or an in-place operator) cannot be differentiated: an operand or "
                "out " +
                (out.defined() ? out.Describe() : std::string("(undefined)")) +
                " requires grad; use the allocating form, or write under shade::NoGradGuard");
  }
  // Anything unusual about out (shape, dtype, layout, overlap) takes the general path, which
  // checks it and names the problem.
  const FloatErrorCheck fe(RootName(*this));
  DirectBinary d;
  if (out.defined() && out.writeable() && out.dev_mask() == cpu::kDevMask &&
      MatchDirectBinary(*this, &d) && out.type_flag() == d.dtype && out.is_contiguous() &&
      out.sizes() == d.a->sizes() && (out.numel() == 0 || out.data_ptr() != nullptr) &&
      !HarmfulOverlap(*d.a, out) && !HarmfulOverlap(*d.b, out)) {
    out.storage().unsafeGetStorageImpl()->bump_version();  // what CheckWriteable does below
    d.Run(out.data_ptr());
    fe.Done();
    return out;
  }
  Resolved r;
  Resolve(*this, &r);
  const int root = r.num_nodes - 1;
  const char* name = nodes_[root].kind == NodeKind::kOp ? Info(nodes_[root].op).name : "assign";
  SHADE_CHECK(out.defined()) << name << ": out is an undefined NDArray";
  out.CheckWriteable(name);
  CheckDevices(name, {num_arrays() > 0 ? &arrays()[0] : nullptr, &out});
  SHADE_CHECK_TYPE_GE(out.type_flag(), 0)
      << name << ": out " << out << " has a non-numeric or unset element type";
  const IndexSpan shape(r.shape[root], static_cast<std::size_t>(r.ndim[root]));
  SHADE_CHECK_SHAPE(out.sizes() == shape) << name << ": out has shape " << out.sizes()
                                          << " but the broadcast result has shape " << shape;
  SHADE_CHECK_TYPE(CanCast(r.dtype[root], out.type_flag(), Casting::kSameKind))
      << name << ": cannot cast the result from " << TypeFlagName(r.dtype[root])
      << " to out's dtype " << TypeFlagName(out.type_flag()) << " with casting rule 'same_kind'";
  SHADE_CHECK(out.numel() == 0 || out.data_ptr() != nullptr)
      << name << ": out " << out << " has no memory allocated";
  // (A contiguous array cannot overlap itself; the general test sorts the strides.)
  SHADE_CHECK(out.is_contiguous() || out.is_non_overlapping())
      << name << ": cannot write into " << out
      << ": its elements overlap (an expanded view with zero strides, or as_strided)";
  lazy::Evaluate(*this, r, out);
  fe.Done();
  return out;
}

}  // namespace shade
