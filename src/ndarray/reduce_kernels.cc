// The SIMD part of NDArray's reductions (reduce.cc plans them): the axis passes and the arg
// reductions over backend/cpu/reduce.h, compiled once per SIMD target (simd_table.h).
#include <cstdint>
#include <type_traits>

#include "shade/backend/cpu/reduce.h"
#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/functor/numpy.h"
#include "simd_table.h"

namespace shade {
namespace dyn {
namespace HWY_NAMESPACE {
namespace {

namespace kern = ::shade::kernel;
namespace hn = ::shade::packet::hn;

// ------------------------------------------------------------------ reducers (reduce.h protocol)
// max with NumPy's NaN propagation: once a NaN is folded in it stays (Lt is false for NaN).
struct NanMaximum {
  template <class T>
  SHADE_XINLINE static void SetInitValue(T& v) {
    kern::red::maximum_from_inf::SetInitValue(v);
  }
  template <class T>
  SHADE_XINLINE static void Reduce(T& dst, T src) {
    if (dst < src || op::numpy::IsNaN(src)) dst = src;
  }
  template <class D, class V>
  HWY_INLINE static V ReducePacket(D, V dst, V src) {
    if constexpr (packet::kIsFloat<hn::TFromD<D>>) {
      return hn::IfThenElse(hn::Or(hn::Lt(dst, src), hn::IsNaN(src)), src, dst);
    } else {
      return hn::IfThenElse(hn::Lt(dst, src), src, dst);
    }
  }
};
struct NanMinimum {
  template <class T>
  SHADE_XINLINE static void SetInitValue(T& v) {
    kern::red::minimum_from_inf::SetInitValue(v);
  }
  template <class T>
  SHADE_XINLINE static void Reduce(T& dst, T src) {
    if (src < dst || op::numpy::IsNaN(src)) dst = src;
  }
  template <class D, class V>
  HWY_INLINE static V ReducePacket(D, V dst, V src) {
    if constexpr (packet::kIsFloat<hn::TFromD<D>>) {
      return hn::IfThenElse(hn::Or(hn::Lt(src, dst), hn::IsNaN(src)), src, dst);
    } else {
      return hn::IfThenElse(hn::Lt(src, dst), src, dst);
    }
  }
};
// Product from 1 (integers reach it as unsigned: wrapping, no undefined behaviour).
struct Product {
  template <class T>
  SHADE_XINLINE static void SetInitValue(T& v) {
    v = T(1);
  }
  template <class T>
  SHADE_XINLINE static void Reduce(T& dst, T src) {
    dst = static_cast<T>(dst * src);
  }
  template <class D, class V, SHADE_PACKET_IF(packet::kHasMul<hn::TFromD<D>>)>
  HWY_INLINE static V ReducePacket(D, V dst, V src) {
    return hn::Mul(dst, src);
  }
};

// The type the kernels run in for element type T: bool as uint8 (same bytes), and for sums and
// products signed integers as their unsigned twin (same bits, wrapping arithmetic).
template <class T, bool kWrap>
struct KernelTypeOf {
  using type = T;
};
template <bool kWrap>
struct KernelTypeOf<bool, kWrap> {
  using type = std::uint8_t;
};
template <>
struct KernelTypeOf<std::int8_t, true> {
  using type = std::uint8_t;
};
template <>
struct KernelTypeOf<std::int16_t, true> {
  using type = std::uint16_t;
};
template <>
struct KernelTypeOf<std::int32_t, true> {
  using type = std::uint32_t;
};
template <>
struct KernelTypeOf<std::int64_t, true> {
  using type = std::uint64_t;
};
template <class T, bool kWrap>
using KernelType = typename KernelTypeOf<T, kWrap>::type;

template <class Red, class K>
void RunAxis(index_t outer, index_t len, index_t inner, const void* src, void* dst) {
  kern::ReduceAxis<Red>(outer, len, inner, static_cast<const K*>(src), static_cast<K*>(dst));
}

// f(K{}) for the kernel type of the compute dtype `flag` (the 16-bit floats never get here:
// reduce.cc computes them in float32).
template <bool kWrap, class F>
void WithKernelType(int flag, const char* what, F&& f) {
  DispatchDType(flag, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat16<T>) {
      SHADE_THROW << what << ": internal error, " << DataType<T>::kName << " reaches the kernels";
    } else {
      f(KernelType<T, kWrap>{});
    }
  });
}

}  // namespace

void ReduceAxisOf(RedOp op, int flag, index_t outer, index_t len, index_t inner, const void* src,
                  void* dst) {
  const bool wrap = op == RedOp::kSum || op == RedOp::kProd;
  const auto run = [&](auto k) {
    using K = decltype(k);
    switch (op) {
      case RedOp::kSum:
        return RunAxis<kern::red::sum, K>(outer, len, inner, src, dst);
      case RedOp::kProd:
        return RunAxis<Product, K>(outer, len, inner, src, dst);
      case RedOp::kMax:
        return RunAxis<NanMaximum, K>(outer, len, inner, src, dst);
      case RedOp::kMin:
        return RunAxis<NanMinimum, K>(outer, len, inner, src, dst);
    }
  };
  if (wrap) {
    WithKernelType<true>(flag, "reduce", run);
  } else {
    WithKernelType<false>(flag, "reduce", run);
  }
}

index_t ArgReduceOf(bool max, int flag, index_t n, const void* src) {
  index_t at = 0;
  WithKernelType<false>(flag, max ? "argmax" : "argmin", [&](auto k) {
    using K = decltype(k);
    const K* p = static_cast<const K*>(src);
    at = max ? kern::ArgMax<K>(n, p) : kern::ArgMin<K>(n, p);
  });
  return at;
}

void ArgReduceAxisOf(bool max, int flag, index_t outer, index_t len, index_t inner, const void* src,
                     std::int64_t* dst) {
  WithKernelType<false>(flag, max ? "argmax" : "argmin", [&](auto k) {
    using K = decltype(k);
    const K* p = static_cast<const K*>(src);
    if (max) {
      kern::ArgReduceAxis<true>(outer, len, inner, p, dst);
    } else {
      kern::ArgReduceAxis<false>(outer, len, inner, p, dst);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace dyn
}  // namespace shade
