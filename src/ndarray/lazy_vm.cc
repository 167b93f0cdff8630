// The register program's steps (see lazy_vm.h): one function per (dtype, op, operand form,
// stack depth), each computing its node for a group of vectors and tail-calling the next.
#include "lazy_vm.h"

#include <algorithm>
#include <cstring>
#include <tuple>
#include <type_traits>

#include "ops_kernels.h"
#include "shade/base/dtype.h"
#include "shade/packet/packet.h"

namespace shade {
namespace dyn {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

using StepFn = VmStepFn;

// kG vectors of each stack entry in flight; the stack holds 8 / kG entries.
template <class T, int kG>
struct Vm {
  using D = packet::Tag<T>;
  using V = hn::Vec<D>;
  static constexpr int kRegs = 8;
  static constexpr int kMaxDepth = kRegs / kG;

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

  static HWY_INLINE V Load(const T* p, index_t i, int h) {
    const D d;
    return hn::LoadU(d, p + i + h * static_cast<index_t>(hn::Lanes(d)));
  }

  // Register k of the eight (stack entry k / kG, vector k % kG), chosen at compile time: the
  // stack must never become an array, or it would live in memory (and the frame's realignment
  // would keep the tail call from being a jump).
  template <int k>
  static HWY_INLINE V& Reg(V& r0, V& r1, V& r2, V& r3, V& r4, V& r5, V& r6, V& r7) {
    return std::get<k>(std::tie(r0, r1, r2, r3, r4, r5, r6, r7));
  }
  // f(h) for each vector h < kG of an entry, h a compile-time constant.
  template <class F>
  static HWY_INLINE void EachVector(F&& f) {
    f(std::integral_constant<int, 0>{});
    f(std::integral_constant<int, 1>{});
    if constexpr (kG == 4) {
      f(std::integral_constant<int, 2>{});
      f(std::integral_constant<int, 3>{});
    }
  }
  template <int k, int kDepth, bool kZeroDead>
  static HWY_INLINE V Live(V v) {
    if constexpr (kZeroDead && k >= kG * kDepth) {
      return hn::Zero(D());
    } else {
      return v;
    }
  }
  // Calls the next step with the stack `kDepth` deep, or, for the root (kStore), stores the
  // value and starts the program over on the next vectors (a jump as well: the loop costs
  // neither a call nor a return), returning to the driver at the end of its chunk. Registers
  // above the stack pass through untouched (no instruction), except after a costly op (a
  // transcendental, whose temporaries take most registers): there they are dead, and passing
  // zeros spares spilling them.
  template <int kDepth, bool kZeroDead, bool kStore>
  static HWY_INLINE void Next(const Op* ip, index_t i, V r0, V r1, V r2, V r3, V r4, V r5, V r6,
                              V r7) {
    const Op* next = ip + 1;
    if constexpr (kStore) {
      static_assert(kDepth == 1, "the root leaves one value");
      const D d;
      const index_t lanes = static_cast<index_t>(hn::Lanes(d));
      T* const out = ip->out + i;
      EachVector([&](auto hc) {
        constexpr int h = decltype(hc)::value;
        hn::StoreU(Reg<h>(r0, r1, r2, r3, r4, r5, r6, r7), d, out + h * lanes);
      });
      i += kG * lanes;
      if (i >= ip->end) return;
      next = ip->first;
    }
    reinterpret_cast<Step>(next->step)(
        next, i, Live<0, kDepth, kZeroDead>(r0), Live<1, kDepth, kZeroDead>(r1),
        Live<2, kDepth, kZeroDead>(r2), Live<3, kDepth, kZeroDead>(r3),
        Live<4, kDepth, kZeroDead>(r4), Live<5, kDepth, kZeroDead>(r5),
        Live<6, kDepth, kZeroDead>(r6), Live<7, kDepth, kZeroDead>(r7));
  }

#define SHADE_VM_REGS_ r0, r1, r2, r3, r4, r5, r6, r7
  template <class OP, VmForm kForm, int kDepth, bool kStore>
  static void Exec(const Op* ip, index_t i, V r0, V r1, V r2, V r3, V r4, V r5, V r6, V r7) {
    constexpr bool kCostly = kernel::detail::OpCost<OP>::value > 4;
    // The entry the result goes to (the first stack operand's, or a new one) and the depth
    // afterwards.
    constexpr int kDst = kDepth - VmPops(kForm);
    constexpr int kAfter = kDst + 1;
    const D d;
    EachVector([&](auto hc) {
      constexpr int h = decltype(hc)::value;
      V& dst = Reg<kG * kDst + h>(SHADE_VM_REGS_);
      if constexpr (kForm == VmForm::kRR) {
        dst = OP::MapPacket(d, dst, Reg<kG*(kDepth - 1) + h>(SHADE_VM_REGS_));
      } else if constexpr (kForm == VmForm::kRM) {
        dst = OP::MapPacket(d, dst, Load(ip->b, i, h));
      } else if constexpr (kForm == VmForm::kMR) {
        dst = OP::MapPacket(d, Load(ip->a, i, h), dst);
      } else if constexpr (kForm == VmForm::kMM) {
        dst = OP::MapPacket(d, Load(ip->a, i, h), Load(ip->b, i, h));
      } else if constexpr (kForm == VmForm::kR) {
        dst = OP::MapPacket(d, dst);
      } else {  // kM
        dst = OP::MapPacket(d, Load(ip->a, i, h));
      }
    });
    Next<kAfter, kCostly, kStore>(ip, i, SHADE_VM_REGS_);
  }
  template <int kDepth>
  static void Splat(const Op* ip, index_t i, V r0, V r1, V r2, V r3, V r4, V r5, V r6, V r7) {
    const V v = hn::Set(D(), *ip->a);
    EachVector([&](auto hc) {
      constexpr int h = decltype(hc)::value;
      Reg<kG * kDepth + h>(SHADE_VM_REGS_) = v;
    });
    Next<kDepth + 1, false, false>(ip, i, SHADE_VM_REGS_);
  }
#undef SHADE_VM_REGS_

  template <class F>
  static HWY_INLINE void EachDepth(F&& f) {
    f(std::integral_constant<int, 0>{});
    f(std::integral_constant<int, 1>{});
    f(std::integral_constant<int, 2>{});
    f(std::integral_constant<int, 3>{});
    f(std::integral_constant<int, 4>{});
    static_assert(kMaxDepth <= 4, "EachDepth enumerates depths 0..4");
  }

  static StepFn SplatFor(int depth) {
    StepFn s = nullptr;
    EachDepth([&](auto dc) {
      constexpr int kDepth = decltype(dc)::value;
      if constexpr (kDepth < kMaxDepth) {
        if (depth == kDepth) s = reinterpret_cast<StepFn>(&Splat<kDepth>);
      }
    });
    return s;
  }

  // Stack depths a form can start at: it reads what is there and leaves at most kMaxDepth
  // values, or exactly one when it stores (the root).
  static constexpr bool ValidDepth(VmForm form, int depth, bool store) {
    const int after = depth - VmPops(form) + 1;
    return depth >= VmPops(form) && depth <= kMaxDepth && after <= kMaxDepth &&
           (!store || after == 1);
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
    EachDepth([&](auto dc) {
      one(dc, std::false_type{});
      one(dc, std::true_type{});
    });
    return s;
  }

  template <class OP>
  static StepFn For(VmForm form, int depth, bool store) {
    if (VmIsBinary(form)) {
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
    // Generated from the registry like the tile kernels (ops_kernels.h): the plain maps of one
    // or two operands whose domain holds T; For yields null where OP has no packet form.
#define SHADE_VM_CASE_(CODE, NAME, ARITY, CATEGORY, DOMAIN, COST, FUNCTOR)      \
  case OpCode::CODE:                                                            \
    if constexpr (ARITY <= 2 && OpCategory::CATEGORY != OpCategory::kCompare && \
                  kInDomain<OpDomain::DOMAIN, T>) {                             \
      s = For<::shade::op::FUNCTOR>(form, depth, store);                        \
    }                                                                           \
    break;
    switch (op) {
      SHADE_ELEMENTWISE_OPS(SHADE_VM_CASE_)
      default:
        break;
    }
#undef SHADE_VM_CASE_
    return s;
  }

  static index_t Run(const VmProgram& p, char* const* data, const index_t* stride, index_t n) {
    const D d;
    const index_t group = kG * static_cast<index_t>(hn::Lanes(d));
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

// f(Vm<T, group>{}) for a float32 / float64 flag (the register program's dtypes), else
// `otherwise`.
template <class R, class F>
R WithVm(int flag, int group, R otherwise, F&& f) {
  return DispatchDType(flag, [&](auto tag) -> R {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value) {
      return group == 4 ? f(Vm<T, 4>{}) : f(Vm<T, 2>{});
    } else {
      return otherwise;
    }
  });
}

}  // namespace

VmStepFn VmStepOf(int flag, int group, OpCode op, VmForm form, int depth, bool store) {
  return WithVm<VmStepFn>(flag, group, nullptr,
                          [&](auto vm) { return decltype(vm)::Lookup(op, form, depth, store); });
}

VmStepFn VmSplatStepOf(int flag, int group, int depth) {
  return WithVm<VmStepFn>(flag, group, nullptr,
                          [&](auto vm) { return decltype(vm)::SplatFor(depth); });
}

index_t VmRunOf(const VmProgram& p, char* const* data, const index_t* stride, index_t n) {
  return WithVm<index_t>(p.flag, p.group, 0,
                         [&](auto vm) { return decltype(vm)::Run(p, data, stride, n); });
}

}  // namespace HWY_NAMESPACE
}  // namespace dyn
}  // namespace shade
