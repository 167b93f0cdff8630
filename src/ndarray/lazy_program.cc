// The fused evaluator's second job: the evaluation program of a resolved expression (per node
// its kernel, conversions and tile buffers; the register program where one applies) and the one
// pass of the apply engine that runs it tile by tile (lazy_internal.h).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <string>

#include "lazy_internal.h"
#include "lazy_vm.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/apply.h"

namespace shade {
namespace lazy {
namespace {

std::atomic<bool> g_register_program_enabled{true};
thread_local std::int64_t t_register_program_runs = 0;

// A weak scalar converted to `flag`; a Python-int value must fit an integer dtype (NEP 50's
// OverflowError), bool takes value != 0; a complex dtype takes a Python complex's two parts.
void ConvertScalar(const WeakScalar& s, int flag, void* dst) {
  DispatchDTypeWithComplex(flag, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T v;
    if constexpr (kIsComplex<T>) {
      using R = typename T::value_type;
      const double re = s.kind == WeakKind::kFloat || s.kind == WeakKind::kComplex ? s.f
                        : s.big ? static_cast<double>(s.u)
                                : static_cast<double>(s.i);
      v = T(static_cast<R>(re), static_cast<R>(s.kind == WeakKind::kComplex ? s.fi : 0.0));
    } else if constexpr (std::is_same<T, bool>::value) {
      v = s.kind == WeakKind::kFloat || s.kind == WeakKind::kComplex ? (s.f != 0 || s.fi != 0)
                                                                     : (s.big || s.i != 0);
    } else if constexpr (std::is_integral<T>::value) {
      SHADE_DCHECK(s.kind != WeakKind::kFloat && s.kind != WeakKind::kComplex);
      bool fits;
      if (s.big) {
        fits = std::is_same<T, std::uint64_t>::value;
      } else if (std::is_unsigned<T>::value) {
        fits = s.i >= 0 && static_cast<std::uint64_t>(s.i) <= std::numeric_limits<T>::max();
      } else {
        fits = s.i >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
               s.i <= static_cast<std::int64_t>(std::numeric_limits<T>::max());
      }
      SHADE_CHECK(fits) << "Python-like integer "
                        << (s.big ? std::to_string(s.u) : std::to_string(s.i))
                        << " is out of bounds for " << DataType<T>::kName
                        << " (NEP 50: an int scalar takes the array's dtype)";
      v = s.big ? static_cast<T>(s.u) : static_cast<T>(s.i);
    } else {
      const double d = s.kind == WeakKind::kFloat ? s.f
                       : s.big                    ? static_cast<double>(s.u)
                                                  : static_cast<double>(s.i);
      if constexpr (kIsFloat16<T>) {
        v = T(static_cast<float>(d));
      } else {
        v = static_cast<T>(d);
      }
    }
    std::memcpy(dst, &v, sizeof(T));
  });
}

// ------------------------------------------------------------------------------------------
// The evaluation program: everything a tile needs, set up once per evaluation.

struct NodeProg {
  Expr::NodeKind kind;
  std::int8_t arity;
  std::int8_t arg[3];
  std::int8_t operand;          // array leaf: apply operand index (1-based)
  std::int16_t itemsize;        // of the node's dtype
  std::int16_t in_itemsize[3];  // of each input's operand dtype
  dyn::OpKernel kernel;
  dyn::CastKernel cast[3];            // input conversions (null: none)
  std::int32_t buf;                   // byte offset of the node's tile buffer in scratch
  std::int32_t slot[3];               // byte offsets of the per-input slots
  alignas(16) unsigned char value[16];  // a scalar leaf's converted value (complex128 at most)
};

struct Program {
  int num_nodes;
  NodeProg node[kN];
  int out_flag;
  index_t out_itemsize;
  dyn::CastKernel out_cast;  // root dtype -> out dtype
  bool root_direct;          // the root op may write straight into a contiguous output run
  std::int32_t stage;        // byte offset of the output staging buffer
  index_t tile;
  dyn::VmProgram vm;  // the register program, when the expression has one (flag >= 0)
};

constexpr std::size_t kScratchBytes = 48 * 1024;
// What a tile's buffers may take of that: a third of a 48 KiB L1, so that the operands' streams
// stay cached beside them. Measured on the fused `a*b + exp(x) - a/x` (about 80 buffer bytes per
// element): 512-element tiles (40 KiB of buffers) ran at 1.28-1.31x the static path's time,
// 256 at 1.16x, 128 at 1.13x, 64 at 1.35x (per-tile overhead); single-op programs (about 24
// bytes per element) keep 512-element tiles, where smaller ones were 10-15% slower.
constexpr std::size_t kTileBudgetBytes = 16 * 1024;

// Copies n elements of `size` bytes between strided and contiguous memory (the gather/scatter
// of a run whose stride is not the element size).
void Gather(int size, index_t n, void* dst, const char* src, index_t stride) {
  char* d = static_cast<char*>(dst);
  for (index_t i = 0; i < n; ++i)
    std::memcpy(d + i * size, src + i * stride, static_cast<std::size_t>(size));
}
void Scatter(int size, index_t n, char* dst, index_t stride, const void* src) {
  const char* s = static_cast<const char*>(src);
  for (index_t i = 0; i < n; ++i)
    std::memcpy(dst + i * stride, s + i * size, static_cast<std::size_t>(size));
}
// Evaluates one run of n elements: data[0]/stride[0] is the output, data[k]/stride[k] array
// operand k (byte strides; 0 = broadcast).
void RunTiles(const Program& P, char* const* data, const index_t* stride, index_t n) {
  alignas(64) unsigned char scratch[kScratchBytes];
  dyn::View views[kN];
  const int root = P.num_nodes - 1;
  const index_t ostride = stride[0];
  const bool out_contig = ostride == P.out_itemsize;
  // The register program takes the whole groups of vectors of a run whose output and array
  // operands are contiguous; the tiles do the rest (the last elements, strided or broadcast
  // operands) and every run of a program without a register form.
  const index_t done = P.vm.flag >= 0 ? dyn::VmRun(P.vm, data, stride, n) : 0;
  t_register_program_runs += done > 0 ? 1 : 0;
  for (index_t off = done; off < n; off += P.tile) {
    const index_t m = std::min(P.tile, n - off);
    for (int i = 0; i < P.num_nodes; ++i) {
      const NodeProg& s = P.node[i];
      dyn::View v;
      if (s.kind == Expr::NodeKind::kArray) {
        const index_t st = stride[s.operand];
        const char* p = data[s.operand] + off * st;
        if (st == 0) {
          v = dyn::View{p, true};
        } else if (st == s.itemsize) {
          v = dyn::View{p, false};
        } else {
          Gather(s.itemsize, m, scratch + s.buf, p, st);
          v = dyn::View{scratch + s.buf, false};
        }
      } else if (s.kind == Expr::NodeKind::kScalar) {
        v = dyn::View{s.value, true};
      } else {
        dyn::View in[3];
        int scalars = 0;
        for (int k = 0; k < s.arity; ++k) {
          const dyn::View c = views[s.arg[k]];
          if (s.cast[k] != nullptr) {
            unsigned char* slot = scratch + s.slot[k];
            s.cast[k](c.scalar ? 1 : m, slot, c.p);
            in[k] = dyn::View{slot, c.scalar};
          } else {
            in[k] = c;
          }
          scalars += in[k].scalar ? 1 : 0;
        }
        // Kernels take at most one broadcast operand, and only when binary.
        if (scalars > 0 && !(s.arity == 2 && scalars == 1)) {
          for (int k = 0; k < s.arity; ++k) {
            if (!in[k].scalar || (s.arity == 2 && k == 1 && !in[0].scalar)) continue;
            alignas(8) unsigned char value[8];
            std::memcpy(value, in[k].p, static_cast<std::size_t>(s.in_itemsize[k]));
            dyn::FillElements(s.in_itemsize[k], m, scratch + s.slot[k], value);
            in[k] = dyn::View{scratch + s.slot[k], false};
          }
        }
        void* target = (i == root && P.root_direct && out_contig)
                           ? static_cast<void*>(data[0] + off * ostride)
                           : static_cast<void*>(scratch + s.buf);
        s.kernel(m, target, in);
        v = dyn::View{target, false};
      }
      views[i] = v;
    }
    // Store the root's tile unless it was computed in place.
    char* dst = data[0] + off * ostride;
    dyn::View r = views[root];
    if (r.p == dst) continue;
    const int rsize = P.node[root].itemsize;
    if (r.scalar) {
      unsigned char* stage = scratch + P.stage;
      alignas(8) unsigned char value[8];
      if (P.out_cast) {
        P.out_cast(1, value, r.p);
      } else {
        std::memcpy(value, r.p, static_cast<std::size_t>(rsize));
      }
      dyn::FillElements(static_cast<int>(P.out_itemsize), m, stage, value);
      r = dyn::View{stage, false};
    } else if (P.out_cast) {
      if (out_contig) {
        P.out_cast(m, dst, r.p);
        continue;
      }
      P.out_cast(m, scratch + P.stage, r.p);
      r = dyn::View{scratch + P.stage, false};
    }
    if (out_contig) {
      std::memcpy(dst, r.p, static_cast<std::size_t>(m * P.out_itemsize));
    } else {
      Scatter(static_cast<int>(P.out_itemsize), m, dst, ostride, r.p);
    }
  }
}

}  // namespace

dyn::OpKernel KernelFor(OpCode op, int flag) {
  const dyn::OpKernel k = dyn::GetKernel(op, flag);
  SHADE_CHECK_TYPE(k != nullptr) << Info(op).name << ": not defined for dtype "
                                 << TypeFlagName(flag);
  return k;
}

namespace {

// Compiles e into a register program (lazy_vm.h), or leaves vm->flag at -1 when the tile
// evaluator must run it: a node computing in another dtype than the output's float dtype, a
// conversion, an op without a step, or a stack deeper than VmMaxDepth(2) (four values).
class RegisterCompiler {
 public:
  RegisterCompiler(const Expr& e, const Resolved& r, int flag, const Program& P, dyn::VmProgram* vm)
      : e_(e), r_(r), flag_(flag), P_(P), vm_(vm) {}

  void Compile() {
    vm_->flag = -1;
    if (flag_ != kFloat32 && flag_ != kFloat64) return;
    const int root = r_.num_nodes - 1;
    if (e_.node(root).kind != Expr::NodeKind::kOp) return;
    for (int i = 0; i <= root; ++i) {
      if (r_.dtype[i] != flag_) return;
      const Expr::Node& nd = e_.node(i);
      if (nd.kind == Expr::NodeKind::kOp) {
        if (Info(nd.op).arity > 2) return;
        for (int k = 0; k < Info(nd.op).arity; ++k) {
          if (r_.opnd[i][k] != flag_) return;
        }
      }
    }
    Measure(root);
    root_ = root;
    // Four vectors per value when two stack entries suffice, else two.
    group_ = need_[root] <= dyn::VmMaxDepth(4) ? 4 : 2;
    max_depth_ = dyn::VmMaxDepth(group_);
    if (!Emit(root) || depth_ != 1) return;
    vm_->num_ins = num_ins_;
    vm_->num_slots = num_slots_;
    vm_->group = group_;
    vm_->flag = flag_;
  }

 private:
  // An array leaf is read in place by its parent (a memory operand); the rest leave a value on
  // the stack: ops, and scalars or one-element arrays (splats).
  bool Pushes(int i) const {
    const Expr::Node& nd = e_.node(i);
    return nd.kind != Expr::NodeKind::kArray || e_.array(nd.index).numel() == 1;
  }
  // Exactly commutative in IEEE arithmetic (signed zeros included; maximum and minimum are not:
  // maximum(+0, -0) is +0 and maximum(-0, +0) is -0, as in NumPy).
  static bool Commutes(OpCode op) { return op == OpCode::kAdd || op == OpCode::kMultiply; }
  // Stack entries a subtree needs at its deepest (Sethi-Ullman), and whether it holds a costly
  // op; a commutative op evaluates its needier child first, and on a tie the costly one, so
  // that transcendentals run with few values held in registers around them.
  void Measure(int i) {
    const Expr::Node& nd = e_.node(i);
    costly_[i] = false;
    if (nd.kind != Expr::NodeKind::kOp) {
      need_[i] = Pushes(i) ? 1 : 0;
      return;
    }
    const int arity = Info(nd.op).arity;
    for (int k = 0; k < arity; ++k) Measure(nd.arg[k]);
    costly_[i] = OpIsHeavy(nd.op);
    for (int k = 0; k < arity; ++k) costly_[i] = costly_[i] || costly_[nd.arg[k]];
    swap_[i] = false;
    if (arity == 1) {
      need_[i] = std::max(need_[nd.arg[0]], 1);
      return;
    }
    auto need_in_order = [&](int p, int q) {
      return std::max({need_[p], (Pushes(p) ? 1 : 0) + need_[q], 1});
    };
    const int a = nd.arg[0], b = nd.arg[1];
    const int ab = need_in_order(a, b), ba = need_in_order(b, a);
    swap_[i] = Commutes(nd.op) && (ba < ab || (ba == ab && costly_[b] && !costly_[a]));
    need_[i] = swap_[i] ? ba : ab;
  }

  std::int8_t AddSlot(int leaf, bool splat) {
    const Expr::Node& nd = e_.node(leaf);
    vm_->slot_operand[num_slots_] = nd.kind == Expr::NodeKind::kArray ? P_.node[leaf].operand : 0;
    vm_->slot_splat[num_slots_] = splat;
    if (nd.kind == Expr::NodeKind::kScalar) {  // converted to the dtype by BuildProgram
      std::memcpy(vm_->slot_value[num_slots_], P_.node[leaf].value, sizeof(P_.node[leaf].value));
    }
    return static_cast<std::int8_t>(num_slots_++);
  }
  bool Add(dyn::VmStepFn step, std::int8_t a, std::int8_t b) {
    if (step == nullptr || num_ins_ == dyn::kVmMaxIns) return false;
    vm_->ins[num_ins_++] = dyn::VmIns{step, a, b};
    return true;
  }

  // Emits the steps leaving node i's value on top of the stack.
  bool Emit(int i) {
    const Expr::Node& nd = e_.node(i);
    if (num_slots_ + 2 > dyn::kVmMaxSlots) return false;
    if (nd.kind != Expr::NodeKind::kOp) {  // a splat (array leaves never get here)
      if (depth_ == max_depth_) return false;
      if (!Add(dyn::VmSplatStep(flag_, group_, depth_), AddSlot(i, true), -1)) return false;
      ++depth_;
      return true;
    }
    const int arity = Info(nd.op).arity;
    int arg[2] = {nd.arg[0], arity == 2 ? nd.arg[1] : -1};
    if (arity == 2 && swap_[i]) std::swap(arg[0], arg[1]);
    bool reg[2] = {false, false};
    std::int8_t slot[2] = {-1, -1};
    int pops = 0;
    for (int k = 0; k < arity; ++k) {
      reg[k] = Pushes(arg[k]);
      if (reg[k]) {
        if (!Emit(arg[k])) return false;
        ++pops;
      } else {
        slot[k] = AddSlot(arg[k], false);
      }
    }
    dyn::VmForm form;
    if (arity == 1) {
      form = reg[0] ? dyn::VmForm::kR : dyn::VmForm::kM;
    } else if (reg[0]) {
      form = reg[1] ? dyn::VmForm::kRR : dyn::VmForm::kRM;
    } else {
      form = reg[1] ? dyn::VmForm::kMR : dyn::VmForm::kMM;
    }
    if (!Add(dyn::VmStep(flag_, group_, nd.op, form, depth_, i == root_), slot[0], slot[1])) {
      return false;
    }
    depth_ -= pops;
    if (depth_ == max_depth_) return false;
    ++depth_;
    return true;
  }

  const Expr& e_;
  const Resolved& r_;
  const int flag_;
  const Program& P_;
  dyn::VmProgram* vm_;
  int need_[kN];
  bool costly_[kN];
  bool swap_[kN];
  int root_ = -1, group_ = 2, max_depth_ = 4, depth_ = 0, num_ins_ = 0, num_slots_ = 0;
};

// Builds the program for evaluating e (resolved as r) into an output of dtype out_flag.
bool BuildProgram(const Expr& e, const Resolved& r, int out_flag, Program* P) {
  const int n = r.num_nodes;
  P->num_nodes = n;
  P->out_flag = out_flag;
  P->out_itemsize = static_cast<index_t>(TypeFlagSize(out_flag));
  const int root = n - 1;
  P->out_cast = dyn::GetCastKernel(out_flag, r.dtype[root]);
  P->root_direct = e.node(root).kind == Expr::NodeKind::kOp && r.dtype[root] == out_flag;
  bool heavy = false;
  // Bytes per tile element of every buffer, to size the tile.
  std::int32_t per_elem = 0;
  int nbuf = 0;
  auto add_buf = [&](int size) {
    const std::int32_t at = per_elem;
    per_elem += size;
    ++nbuf;
    return at;  // scaled by the tile below
  };
  for (int i = 0; i < n; ++i) {
    const Expr::Node& nd = e.node(i);
    NodeProg& s = P->node[i];
    s.kind = nd.kind;
    s.itemsize = static_cast<std::int16_t>(TypeFlagSize(r.dtype[i]));
    s.kernel = nullptr;
    s.buf = -1;
    s.arity = 0;
    if (nd.kind == Expr::NodeKind::kArray) {
      s.operand = static_cast<std::int8_t>(nd.index + 1);
      s.buf = add_buf(s.itemsize);
    } else if (nd.kind == Expr::NodeKind::kScalar) {
      ConvertScalar(e.scalar(nd.index), r.dtype[i], s.value);
    } else {
      const OpTraits& info = Info(nd.op);
      heavy = heavy || OpIsHeavy(nd.op);
      s.arity = static_cast<std::int8_t>(info.arity);
      // Logical ops read bool, where's condition too: the table is indexed by the data dtype.
      const int kflag = info.category == Cat::kWhere ? r.opnd[i][1] : r.opnd[i][0];
      s.kernel = KernelFor(nd.op, kflag);
      for (int k = 0; k < info.arity; ++k) {
        s.arg[k] = nd.arg[k];
        s.cast[k] = dyn::GetCastKernel(r.opnd[i][k], r.dtype[nd.arg[k]]);
        s.in_itemsize[k] = static_cast<std::int16_t>(TypeFlagSize(r.opnd[i][k]));
        s.slot[k] = add_buf(s.in_itemsize[k]);
      }
      s.buf = add_buf(s.itemsize);
    }
  }
  P->stage = add_buf(static_cast<int>(P->out_itemsize));
  // Tile: the largest multiple of 64 elements (at most kMaxTile) whose buffers fit the tile
  // budget (each buffer padded to 64 bytes); at least 64, which always fits the scratch.
  index_t tile = dyn::kMaxTile;
  while (tile > 64 &&
         static_cast<std::size_t>(per_elem) * tile + static_cast<std::size_t>(nbuf) * 64 >
             kTileBudgetBytes) {
    tile -= 64;
  }
  // Real dtypes always fit (8-byte elements at most); a large complex128 expression may not.
  SHADE_CHECK(static_cast<std::size_t>(per_elem) * tile + static_cast<std::size_t>(nbuf) * 64 <=
              kScratchBytes)
      << "elementwise op: the expression of " << n
      << " nodes needs more tile buffer than the evaluator has (" << kScratchBytes
      << " bytes); evaluate part of it first (eval())";
  P->tile = tile;
  // Turn per-element offsets into byte offsets: buffer j starts at (sum of earlier sizes) *
  // tile, rounded up to 64 bytes per earlier buffer.
  auto place = [&](std::int32_t at) -> std::int32_t {
    return static_cast<std::int32_t>(at * tile);  // tile is a multiple of 64
  };
  for (int i = 0; i < n; ++i) {
    NodeProg& s = P->node[i];
    if (s.buf >= 0) s.buf = place(s.buf);
    for (int k = 0; k < s.arity; ++k) s.slot[k] = place(s.slot[k]);
  }
  P->stage = place(P->stage);
  if (g_register_program_enabled.load(std::memory_order_relaxed)) {
    RegisterCompiler(e, r, out_flag, *P, &P->vm).Compile();
  } else {
    P->vm.flag = -1;
  }
  return heavy;
}

}  // namespace

// True when `a` (read as an operand broadcast to `shape`) and `out` share memory in a way
// other than element for element.
bool HarmfulOverlap(const NDArray& a, const NDArray& out) {
  if (!a.storage().is_alias_of(out.storage()) || a.numel() == 0 || out.numel() == 0) return false;
  if (a.data_ptr() == out.data_ptr() && a.sizes() == out.sizes() && a.strides() == out.strides()) {
    return false;
  }
  auto range = [](const NDArray& x) {
    const char* lo = static_cast<const char*>(x.data_ptr());
    index_t reach = 0;
    for (index_t d = 0; d < x.ndim(); ++d) reach += (x.size(d) - 1) * x.stride(d);
    return std::make_pair(lo, lo + (reach + 1) * static_cast<index_t>(x.itemsize()));
  };
  const auto x = range(a), y = range(out);
  return x.first < y.second && y.first < x.second;
}

namespace {

template <std::size_t... I>
void ExecuteN(int nops, const ApplyPlan& plan, char* const* base, const Program& P,
              const ApplyOptions& opt, std::index_sequence<I...>) {
  // One instantiation of the engine per operand count; the run body is RunTiles for all.
  bool done = false;
  auto one = [&](auto nc) {
    constexpr int N = decltype(nc)::value;
    if (done || nops != N) return;
    done = true;
    std::array<char*, N> b;
    for (int k = 0; k < N; ++k) b[k] = base[k];
    ExecuteApplyPlan<N>(
        plan, b, [&P](const StridedRun<N>& r) { RunTiles(P, r.data.data(), r.stride.data(), r.n); },
        opt);
  };
  (one(std::integral_constant<int, static_cast<int>(I) + 1>{}), ...);
  SHADE_CHECK(done) << "elementwise op: " << nops << " operands";
}

}  // namespace

// Evaluates e into out (allocated, shape == the broadcast shape, checks done by the caller).
void Run(const Expr& e, const Resolved& r, const NDArray& out, const NDArray* arrays) {
  Program P;
  const bool heavy = BuildProgram(e, r, out.type_flag(), &P);
  const index_t numel = out.numel();
  if (numel == 0) return;
  const int na = e.num_arrays();
  const int nops = na + 1;
  ApplyOptions opt;
  opt.grain = dyn::MapGrain(heavy);
  // The engine's one-dimensional case without building a plan: every operand is contiguous
  // with the output's shape, or a single element.
  bool flat = out.is_contiguous();
  for (int k = 0; k < na && flat; ++k) {
    const NDArray& a = arrays[k];
    flat = a.numel() == 1 || (a.is_contiguous() && a.sizes() == out.sizes());
  }
  char* base[Expr::kMaxArrays + 1];
  index_t itemsize[Expr::kMaxArrays + 1];
  base[0] = static_cast<char*>(out.data_ptr());
  itemsize[0] = static_cast<index_t>(out.itemsize());
  for (int k = 0; k < na; ++k) {
    base[k + 1] = static_cast<char*>(arrays[k].data_ptr());
    itemsize[k + 1] = static_cast<index_t>(arrays[k].itemsize());
    SHADE_CHECK(base[k + 1] != nullptr || arrays[k].numel() == 0)
        << "elementwise op: operand " << arrays[k] << " has no memory allocated";
  }
  if (flat) {
    index_t bstride[Expr::kMaxArrays + 1];
    bstride[0] = itemsize[0];
    for (int k = 0; k < na; ++k)
      bstride[k + 1] = arrays[k].numel() == 1 && numel != 1 ? 0 : itemsize[k + 1];
    ParallelFor(0, numel, opt.grain, [&](index_t b, index_t en) {
      char* d[Expr::kMaxArrays + 1];
      for (int k = 0; k < nops; ++k) d[k] = base[k] + b * bstride[k];
      RunTiles(P, d, bstride, en - b);
    });
    return;
  }
  // General case: every array leaf broadcast to the output shape (zero strides), then the
  // apply engine collapses, reorders, tiles and threads.
  const int nd = out.ndim();
  index_t st[Expr::kMaxArrays + 1][kMaxDims];
  IndexSpan spans[Expr::kMaxArrays + 1];
  for (int d = 0; d < nd; ++d) st[0][d] = out.stride(d);
  spans[0] = IndexSpan(st[0], static_cast<std::size_t>(nd));
  for (int k = 0; k < na; ++k) {
    const NDArray& a = arrays[k];
    const int an = a.ndim();
    for (int d = 0; d < nd; ++d) {
      const int ad = d - (nd - an);
      st[k + 1][d] = (ad < 0 || a.size(ad) == 1) ? 0 : a.stride(ad);
    }
    spans[k + 1] = IndexSpan(st[k + 1], static_cast<std::size_t>(nd));
  }
  const ApplyPlan plan = MakeApplyPlan(out.sizes(), spans, itemsize, nops, opt);
  ExecuteN(nops, plan, base, P, opt, std::make_index_sequence<Expr::kMaxArrays + 1>{});
}

void Evaluate(const Expr& e, const Resolved& r, const NDArray& out) {
  const int na = e.num_arrays();
  bool overlap = false;
  for (int k = 0; k < na && !overlap; ++k) overlap = HarmfulOverlap(e.array(k), out);
  if (!overlap) {
    Run(e, r, out, na > 0 ? &e.array(0) : nullptr);
    return;
  }
  // NumPy reads an input that overlaps the output other than element for element from a
  // copy, so the result never depends on the order elements are written.
  NDArray arrays[Expr::kMaxArrays];
  for (int k = 0; k < na; ++k) {
    arrays[k] = HarmfulOverlap(e.array(k), out) ? e.array(k).Clone() : e.array(k);
  }
  Run(e, r, out, arrays);
}

}  // namespace lazy

namespace detail {
void SetRegisterProgramEnabled(bool enabled) {
  lazy::g_register_program_enabled.store(enabled, std::memory_order_relaxed);
}
std::int64_t RegisterProgramRuns() {
  return lazy::t_register_program_runs;
}
}  // namespace detail

}  // namespace shade
