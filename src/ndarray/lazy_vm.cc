// The register program's steps (see lazy_vm.h): one function per (dtype, op, operand form,
// stack depth), each computing its node for two vectors of elements and tail-calling the next.
#include "lazy_vm.h"

#include <algorithm>
#include <cstring>

#include "ops_kernels.h"
#include "shade/base/dtype.h"
#include "shade/packet/packet.h"

namespace shade {
namespace dyn {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

using StepFn = VmStepFn;

template <class T>
struct Vm {
  using D = packet::Tag<T>;
  using V = hn::Vec<D>;
  static constexpr int kRegs = 2 * kVmMaxDepth;  // two vectors per stack entry

  // An instruction as one run executes it: VmIns's slots resolved to the run's pointers (a
  // memory operand's elements, a splat's value), so that a step reads one pointer per operand.
  struct Op {
    StepFn step;
    const T* a;
    const T* b;
    T* out;           // the root's output (the step that stores)
    const Op* first;  // the root goes on with the next elements here ...
    index_t end;      // ... until this element index
  };
  // The element index travels in a general register and the stack in eight vector arguments:
  // the SysV convention passes all of them in registers, so nothing goes through memory from
  // step to step.
  using Step = void (*)(const Op*, index_t, V, V, V, V, V, V, V, V);

  static HWY_INLINE V Load(const T* p, index_t i, int half) {
    const D d;
    return hn::LoadU(d, p + i + half * static_cast<index_t>(hn::Lanes(d)));
  }

  // Register k of the eight (stack entry k / 2, vector k % 2), chosen at compile time: the
  // stack must never become an array, or it would live in memory (and the frame's realignment
  // would keep the tail call from being a jump).
  template <int k>
  static HWY_INLINE V& Reg(V& r0, V& r1, V& r2, V& r3, V& r4, V& r5, V& r6, V& r7) {
    static_assert(k >= 0 && k < kRegs, "register index");
    if constexpr (k == 0)
      return r0;
    else if constexpr (k == 1)
      return r1;
    else if constexpr (k == 2)
      return r2;
    else if constexpr (k == 3)
      return r3;
    else if constexpr (k == 4)
      return r4;
    else if constexpr (k == 5)
      return r5;
    else if constexpr (k == 6)
      return r6;
    else
      return r7;
  }
  template <int k, int kDepth, bool kZeroDead>
  static HWY_INLINE V Live(V v) {
    if constexpr (kZeroDead && k >= 2 * kDepth) {
      return hn::Zero(D());
    } else {
      return v;
    }
  }
  // Calls the next step with the stack `kDepth` deep, or, for the root (kStore), stores the
  // value and starts the program over on the next two vectors (a jump as well: the loop costs
  // neither a call nor a return), returning to the driver at the end of its chunk. Registers
  // above the stack pass through untouched (no instruction), except after a costly op (a
  // transcendental, whose temporaries take most registers): there they are dead, and passing
  // zeros spares spilling them.
  template <int kDepth, bool kZeroDead, bool kStore>
  static HWY_INLINE void Next(const Op* ip, index_t i, V r0, V r1, V r2, V r3, V r4, V r5, V r6,
                              V r7) {
    if constexpr (kStore) {
      static_assert(kDepth == 1, "the root leaves one value");
      const D d;
      const index_t lanes = static_cast<index_t>(hn::Lanes(d));
      T* const out = ip->out + i;
      hn::StoreU(r0, d, out);
      hn::StoreU(r1, d, out + lanes);
      i += 2 * lanes;
      if (i < ip->end) {
        reinterpret_cast<Step>(ip->first->step)(ip->first, i, r0, r1, r2, r3, r4, r5, r6, r7);
      }
    } else {
      reinterpret_cast<Step>(ip[1].step)(
          ip + 1, i, Live<0, kDepth, kZeroDead>(r0), Live<1, kDepth, kZeroDead>(r1),
          Live<2, kDepth, kZeroDead>(r2), Live<3, kDepth, kZeroDead>(r3),
          Live<4, kDepth, kZeroDead>(r4), Live<5, kDepth, kZeroDead>(r5),
          Live<6, kDepth, kZeroDead>(r6), Live<7, kDepth, kZeroDead>(r7));
    }
  }

#define SHADE_VM_REGS_ r0, r1, r2, r3, r4, r5, r6, r7
  template <class OP, VmForm kForm, int kDepth, bool kStore>
  static void Exec(const Op* ip, index_t i, V r0, V r1, V r2, V r3, V r4, V r5, V r6, V r7) {
    constexpr bool kCostly = kernel::detail::OpCost<OP>::value > 4;
    const D d;
    if constexpr (kForm == VmForm::kRR) {
      constexpr int x = kDepth - 2, y = kDepth - 1;
      V& x0 = Reg<2 * x>(SHADE_VM_REGS_);
      V& x1 = Reg<2 * x + 1>(SHADE_VM_REGS_);
      const V y0 = Reg<2 * y>(SHADE_VM_REGS_), y1 = Reg<2 * y + 1>(SHADE_VM_REGS_);
      x0 = OP::MapPacket(d, x0, y0);
      x1 = OP::MapPacket(d, x1, y1);
      if constexpr (kStore) {
        Next<1, kCostly, true>(ip, i, SHADE_VM_REGS_);  // the value is in r0, r1
      } else {
        Next<kDepth - 1, kCostly, false>(ip, i, SHADE_VM_REGS_);
      }
    } else if constexpr (kForm == VmForm::kRM || kForm == VmForm::kMR || kForm == VmForm::kR) {
      constexpr int x = kDepth - 1;
      V& x0 = Reg<2 * x>(SHADE_VM_REGS_);
      V& x1 = Reg<2 * x + 1>(SHADE_VM_REGS_);
      if constexpr (kForm == VmForm::kRM) {
        x0 = OP::MapPacket(d, x0, Load(ip->b, i, 0));
        x1 = OP::MapPacket(d, x1, Load(ip->b, i, 1));
      } else if constexpr (kForm == VmForm::kMR) {
        x0 = OP::MapPacket(d, Load(ip->a, i, 0), x0);
        x1 = OP::MapPacket(d, Load(ip->a, i, 1), x1);
      } else {
        x0 = OP::MapPacket(d, x0);
        x1 = OP::MapPacket(d, x1);
      }
      if constexpr (kStore) {
        Next<1, kCostly, true>(ip, i, SHADE_VM_REGS_);  // the value is in r0, r1
      } else {
        Next<kDepth, kCostly, false>(ip, i, SHADE_VM_REGS_);
      }
    } else {  // kMM, kM: push
      V& z0 = Reg<2 * kDepth>(SHADE_VM_REGS_);
      V& z1 = Reg<2 * kDepth + 1>(SHADE_VM_REGS_);
      if constexpr (kForm == VmForm::kMM) {
        z0 = OP::MapPacket(d, Load(ip->a, i, 0), Load(ip->b, i, 0));
        z1 = OP::MapPacket(d, Load(ip->a, i, 1), Load(ip->b, i, 1));
      } else {
        z0 = OP::MapPacket(d, Load(ip->a, i, 0));
        z1 = OP::MapPacket(d, Load(ip->a, i, 1));
      }
      if constexpr (kStore) {
        Next<1, kCostly, true>(ip, i, SHADE_VM_REGS_);  // the value is in r0, r1
      } else {
        Next<kDepth + 1, kCostly, false>(ip, i, SHADE_VM_REGS_);
      }
    }
  }
  template <int kDepth>
  static void Splat(const Op* ip, index_t i, V r0, V r1, V r2, V r3, V r4, V r5, V r6, V r7) {
    V& z0 = Reg<2 * kDepth>(SHADE_VM_REGS_);
    V& z1 = Reg<2 * kDepth + 1>(SHADE_VM_REGS_);
    z0 = z1 = hn::Set(D(), *ip->a);
    Next<kDepth + 1, false, false>(ip, i, SHADE_VM_REGS_);
  }
#undef SHADE_VM_REGS_

  static StepFn SplatFor(int depth) {
    switch (depth) {
      case 0:
        return reinterpret_cast<StepFn>(&Splat<0>);
      case 1:
        return reinterpret_cast<StepFn>(&Splat<1>);
      case 2:
        return reinterpret_cast<StepFn>(&Splat<2>);
      case 3:
        return reinterpret_cast<StepFn>(&Splat<3>);
      default:
        return nullptr;
    }
  }

  // Stack depths a form can start at: it reads what is there and leaves at most kVmMaxDepth
  // values, or exactly one when it stores (the root).
  static constexpr int DepthAfter(VmForm form, int depth) {
    switch (form) {
      case VmForm::kRR:
        return depth - 1;
      case VmForm::kMM:
      case VmForm::kM:
        return depth + 1;
      default:
        return depth;
    }
  }
  static constexpr bool ValidDepth(VmForm form, int depth, bool store) {
    const int in = form == VmForm::kRR ? 2 : (form == VmForm::kMM || form == VmForm::kM) ? 0 : 1;
    const int after = DepthAfter(form, depth);
    return depth >= in && depth <= kVmMaxDepth && after <= kVmMaxDepth && (!store || after == 1);
  }

  template <class OP, VmForm kForm>
  static StepFn ForDepth(int depth, bool store) {
    StepFn s = nullptr;
    auto one = [&](auto dc, auto sc) {
      constexpr int kDepth = decltype(dc)::value;
      constexpr bool kStore = decltype(sc)::value;
      if constexpr (ValidDepth(kForm, kDepth, kStore)) {
        if (depth == kDepth && store == kStore) {
          s = reinterpret_cast<StepFn>(&Exec<OP, kForm, kDepth, kStore>);
        }
      }
    };
    auto both = [&](auto dc) {
      one(dc, std::false_type{});
      one(dc, std::true_type{});
    };
    both(std::integral_constant<int, 0>{});
    both(std::integral_constant<int, 1>{});
    both(std::integral_constant<int, 2>{});
    both(std::integral_constant<int, 3>{});
    both(std::integral_constant<int, 4>{});
    static_assert(kVmMaxDepth == 4, "ForDepth enumerates depths 0..4");
    return s;
  }

  template <class OP>
  static StepFn For(VmForm form, int depth, bool store) {
    const bool binary =
        form == VmForm::kRR || form == VmForm::kRM || form == VmForm::kMR || form == VmForm::kMM;
    if (binary) {
      if constexpr (packet::kHasPacketArity<OP, T, 2>) {
        switch (form) {
          case VmForm::kRR:
            return ForDepth<OP, VmForm::kRR>(depth, store);
          case VmForm::kRM:
            return ForDepth<OP, VmForm::kRM>(depth, store);
          case VmForm::kMR:
            return ForDepth<OP, VmForm::kMR>(depth, store);
          default:
            return ForDepth<OP, VmForm::kMM>(depth, store);
        }
      }
    } else {
      if constexpr (packet::kHasPacketArity<OP, T, 1>) {
        return form == VmForm::kR ? ForDepth<OP, VmForm::kR>(depth, store)
                                  : ForDepth<OP, VmForm::kM>(depth, store);
      }
    }
    return nullptr;
  }

  static StepFn Lookup(OpCode op, VmForm form, int depth, bool store) {
    StepFn s = nullptr;
    // The same op -> functor pairs as the tile kernels' tables (ops_kernels.h).
#define SHADE_VM_CASE_(CODE, FUNCTOR)                \
  case OpCode::CODE:                                 \
    s = For<op::numpy::FUNCTOR>(form, depth, store); \
    break;
    switch (op) {
      SHADE_DYN_ARITH_ANY_OPS(SHADE_VM_CASE_)
      SHADE_DYN_ARITH_NOBOOL_OPS(SHADE_VM_CASE_)
      SHADE_DYN_ARITH_FLOAT_OPS(SHADE_VM_CASE_)
      SHADE_DYN_UNARY_NOBOOL_OPS(SHADE_VM_CASE_)
      SHADE_DYN_UNARY_ANY_OPS(SHADE_VM_CASE_)
      SHADE_DYN_UNARY_FLOAT_OPS(SHADE_VM_CASE_)
      default:
        break;
    }
#undef SHADE_VM_CASE_
    return s;
  }

  static index_t Run(const VmProgram& p, char* const* data, const index_t* stride, index_t n) {
    const D d;
    const index_t group = 2 * static_cast<index_t>(hn::Lanes(d));
    const index_t whole = n - n % group;
    if (whole == 0 || stride[0] != static_cast<index_t>(sizeof(T))) return 0;
    T splat[kVmMaxSlots];
    const T* at[kVmMaxSlots];
    for (int s = 0; s < p.num_slots; ++s) {
      const int k = p.slot_operand[s];
      if (p.slot_splat[s]) {
        std::memcpy(&splat[s], k > 0 ? static_cast<const void*>(data[k]) : p.slot_value[s],
                    sizeof(T));
        at[s] = &splat[s];
        continue;
      }
      if (stride[k] != static_cast<index_t>(sizeof(T))) return 0;
      at[s] = reinterpret_cast<const T*>(data[k]);
    }
    Op ops[kVmMaxIns];
    for (int j = 0; j < p.num_ins; ++j) {
      const VmIns& in = p.ins[j];
      ops[j] = Op{in.step,
                  in.a >= 0 ? at[in.a] : nullptr,
                  in.b >= 0 ? at[in.b] : nullptr,
                  reinterpret_cast<T*>(data[0]),
                  ops,
                  0};
    }
    // The root loops back by tail calls; chunks bound the recursion where the compiler does not
    // turn those into jumps (unoptimised and sanitizer builds): at most kChunkGroups * num_ins
    // frames deep.
    constexpr index_t kChunkGroups = 16;
    Op& root = ops[p.num_ins - 1];
    const Step first = reinterpret_cast<Step>(ops[0].step);
    const V z = hn::Zero(d);
    for (index_t i = 0; i < whole; i += kChunkGroups * group) {
      root.end = std::min(whole, i + kChunkGroups * group);
      first(ops, i, z, z, z, z, z, z, z, z);
    }
    return whole;
  }
};

}  // namespace

VmStepFn VmStep(int flag, OpCode op, VmForm form, int depth, bool store) {
  if (flag == kFloat32) return Vm<float>::Lookup(op, form, depth, store);
  if (flag == kFloat64) return Vm<double>::Lookup(op, form, depth, store);
  return nullptr;
}

VmStepFn VmSplatStep(int flag, int depth) {
  if (flag == kFloat32) return Vm<float>::SplatFor(depth);
  if (flag == kFloat64) return Vm<double>::SplatFor(depth);
  return nullptr;
}

index_t VmRun(const VmProgram& p, char* const* data, const index_t* stride, index_t n) {
  if (p.flag == kFloat32) return Vm<float>::Run(p, data, stride, n);
  if (p.flag == kFloat64) return Vm<double>::Run(p, data, stride, n);
  return 0;
}

}  // namespace dyn
}  // namespace shade
