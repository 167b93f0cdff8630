// Internal to the dynamic ops: the kernel templates behind the table of ops_kernel_table.h,
// over backend/cpu/kernels.h (contiguous SIMD map and cast) and the op::numpy functors.
// Only the per-target sources include it (everything here is in the target's namespace, see
// simd_table.h), to keep the SIMD instantiations in few objects.
#ifndef SHADE_SRC_NDARRAY_OPS_KERNELS_H_
#define SHADE_SRC_NDARRAY_OPS_KERNELS_H_

#include <cstring>
#include <type_traits>

#include "ops_kernel_table.h"
#include "shade/backend/cpu/kernels.h"
#include "shade/base/dtype.h"
#include "shade/base/half.h"
#include "shade/base/index.h"
#include "shade/functor/numpy.h"
#include "shade/functor/op_registry.h"
#include "simd_table.h"

namespace shade {
namespace dyn {
namespace HWY_NAMESPACE {

template <class OP, class T>
void UnaryKernel(index_t n, void* out, const View* in) {
  kernel::MapRun<kernel::sv::saveto, OP>(n, static_cast<T*>(out), static_cast<const T*>(in[0].p));
}

template <class OP, class T>
void BinaryKernel(index_t n, void* out, const View* in) {
  T* o = static_cast<T*>(out);
  const T* a = static_cast<const T*>(in[0].p);
  const T* b = static_cast<const T*>(in[1].p);
  if (in[0].scalar) {
    kernel::MapRun<kernel::sv::saveto, OP>(n, o, kernel::Scalar<T>{*a}, b);
  } else if (in[1].scalar) {
    kernel::MapRun<kernel::sv::saveto, OP>(n, o, a, kernel::Scalar<T>{*b});
  } else {
    kernel::MapRun<kernel::sv::saveto, OP>(n, o, a, b);
  }
}

// Comparisons compute 1/0 in T (so the SIMD compare runs in T's lanes), then narrow to bool.
template <class OP, class T>
void CompareKernel(index_t n, void* out, const View* in) {
  alignas(64) T tmp[kMaxTile];
  BinaryKernel<OP, T>(n, tmp, in);
  kernel::CastRun<bool, T>(n, static_cast<bool*>(out), tmp);
}

template <class OP, class T>
void TernaryKernel(index_t n, void* out, const View* in) {
  kernel::MapRun<kernel::sv::saveto, OP>(n, static_cast<T*>(out), static_cast<const T*>(in[0].p),
                                   static_cast<const T*>(in[1].p), static_cast<const T*>(in[2].p));
}

// where(cond, x, y): cond arrives as bool, x and y in T; a select the compiler vectorises.
template <class T>
void WhereKernel(index_t n, void* out, const View* in) {
  T* __restrict o = static_cast<T*>(out);
  const bool* __restrict c = static_cast<const bool*>(in[0].p);
  const T* __restrict x = static_cast<const T*>(in[1].p);
  const T* __restrict y = static_cast<const T*>(in[2].p);
  for (index_t i = 0; i < n; ++i) o[i] = c[i] ? x[i] : y[i];
}

/*! True when compute dtype T is in an op's kernel domain (functor/op_registry.h). */
template <OpDomain kDomain, class T>
constexpr bool kInDomain = kDomain == OpDomain::kAny ||
                           (kDomain == OpDomain::kNoBool && !std::is_same<T, bool>::value) ||
                           (kDomain == OpDomain::kFloat && kIsFloating<T>) ||
                           (kDomain == OpDomain::kBool && std::is_same<T, bool>::value) ||
                           (kDomain == OpDomain::kInteger && std::is_integral<T>::value);

/*! The tile kernel of a registry entry computing in T (null outside its domain): the compare,
 *  where or plain map kernel of its arity. */
template <OpCategory kCategory, OpDomain kDomain, int kArity, class OP, class T>
OpKernel KernelOf() {
  if constexpr (!kInDomain<kDomain, T>) {
    return nullptr;
  } else if constexpr (kCategory == OpCategory::kCompare) {
    return &CompareKernel<OP, T>;
  } else if constexpr (kCategory == OpCategory::kWhere) {
    return &WhereKernel<T>;
  } else if constexpr (kArity == 1) {
    return &UnaryKernel<OP, T>;
  } else if constexpr (kArity == 2) {
    return &BinaryKernel<OP, T>;
  } else {
    return &TernaryKernel<OP, T>;
  }
}

/*! GetGroupKernel for the ops of kGroup, generated from the registry; each ops_kernels_*.cc
 *  instantiates one group, so every (op, dtype) kernel is compiled in exactly one object. */
template <KernelGroup kGroup>
OpKernel GetGroupKernel(OpCode op, int flag) {
  return DispatchDType(flag, [op](auto tag) -> OpKernel {
    using T = typename decltype(tag)::type;
    switch (op) {
#define SHADE_KERNEL_CASE_(CODE, NAME, ARITY, CATEGORY, DOMAIN, COST, FUNCTOR)                   \
  case OpCode::CODE:                                                                             \
    if constexpr (KernelGroupOf(OpCategory::CATEGORY, ARITY) == kGroup) {                        \
      return KernelOf<OpCategory::CATEGORY, OpDomain::DOMAIN, ARITY, ::shade::op::FUNCTOR, T>(); \
    } else {                                                                                     \
      return nullptr;                                                                            \
    }
      SHADE_ELEMENTWISE_OPS(SHADE_KERNEL_CASE_)
#undef SHADE_KERNEL_CASE_
      default:
        return nullptr;
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace dyn
}  // namespace shade

#endif  // SHADE_SRC_NDARRAY_OPS_KERNELS_H_
