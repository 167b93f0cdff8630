/*!
 * \file sv.h
 * \brief Savers: how an evaluated value is stored into the destination (`=`, `+=`, `-=`,
 *  `*=`, `/=`). `OPType` names the element functor; `SavePacket(d, dst, v)` is the packet form
 *  (returns the new destination packet, lanewise identical to Save) and exists only where
 *  OPType has one, so the kernels (backend/cpu/kernels.h) and the static element loop
 *  (backend/cpu/map.h) fall back to Save elsewhere. `kReadsDst` says whether the old value is
 *  read (a `=` store need not load the destination). These are THE savers of the library.
 */
#ifndef SHADE_EXPR_SV_H_
#define SHADE_EXPR_SV_H_

#include <type_traits>

#include "shade/base/index.h"
#include "shade/expr/op.h"

namespace shade {
namespace sv {
namespace hn = packet::hn;

/*! \brief dst = src */
struct saveto {
  template <typename DType>
  static SHADE_XINLINE void Save(DType& a, DType b) { a = b; }  // NOLINT(runtime/references)
  /*! \brief Matching element functor. */
  using OPType = op::right;
  /*! \brief Multiplier for the result in a BLAS call (alpha sign). */
  static constexpr int kAlphaSign = 1;
  /*! \brief Weight of the old destination in a BLAS call (beta). */
  static constexpr int kBeta = 0;
  /*! \brief Packet form: the new value. */
  template <class D, class V>
  static HWY_INLINE V SavePacket(D, V /*dst*/, V v) { return v; }
  /*! \brief The old destination value is not read. */
  static constexpr bool kReadsDst = false;
};
/*! \brief dst += src */
struct plusto {
  template <typename DType>
  static SHADE_XINLINE void Save(DType& a, DType b) { a = DType(a + b); }  // NOLINT
  /*! \brief Matching element functor. */
  using OPType = op::plus;
  /*! \brief Multiplier for the result in a BLAS call (alpha sign). */
  static constexpr int kAlphaSign = 1;
  /*! \brief Weight of the old destination in a BLAS call (beta). */
  static constexpr int kBeta = 1;
  /*! \brief Packet form (where op::plus has one). */
  template <class D, class V, class O = OPType,
            std::enable_if_t<packet::kHasPacketArity<O, hn::TFromD<D>, 2>, int> = 0>
  static HWY_INLINE V SavePacket(D d, V dst, V v) { return O::MapPacket(d, dst, v); }
  /*! \brief The old destination value is read. */
  static constexpr bool kReadsDst = true;
};
/*! \brief dst -= src */
struct minusto {
  template <typename DType>
  static SHADE_XINLINE void Save(DType& a, DType b) { a = DType(a - b); }  // NOLINT
  /*! \brief Matching element functor. */
  using OPType = op::minus;
  /*! \brief Multiplier for the result in a BLAS call (alpha sign). */
  static constexpr int kAlphaSign = -1;
  /*! \brief Weight of the old destination in a BLAS call (beta). */
  static constexpr int kBeta = 1;
  /*! \brief Packet form (where op::minus has one). */
  template <class D, class V, class O = OPType,
            std::enable_if_t<packet::kHasPacketArity<O, hn::TFromD<D>, 2>, int> = 0>
  static HWY_INLINE V SavePacket(D d, V dst, V v) { return O::MapPacket(d, dst, v); }
  /*! \brief The old destination value is read. */
  static constexpr bool kReadsDst = true;
};
/*! \brief dst *= src */
struct multo {
  template <typename DType>
  static SHADE_XINLINE void Save(DType& a, DType b) { a = DType(a * b); }  // NOLINT
  /*! \brief Matching element functor. */
  using OPType = op::mul;
  /*! \brief Packet form (where op::mul has one). */
  template <class D, class V, class O = OPType,
            std::enable_if_t<packet::kHasPacketArity<O, hn::TFromD<D>, 2>, int> = 0>
  static HWY_INLINE V SavePacket(D d, V dst, V v) { return O::MapPacket(d, dst, v); }
  /*! \brief The old destination value is read. */
  static constexpr bool kReadsDst = true;
};
/*! \brief dst /= src */
struct divto {
  template <typename DType>
  static SHADE_XINLINE void Save(DType& a, DType b) { a = DType(a / b); }  // NOLINT
  /*! \brief Matching element functor. */
  using OPType = op::div;
  /*! \brief Packet form (where op::div has one). */
  template <class D, class V, class O = OPType,
            std::enable_if_t<packet::kHasPacketArity<O, hn::TFromD<D>, 2>, int> = 0>
  static HWY_INLINE V SavePacket(D d, V dst, V v) { return O::MapPacket(d, dst, v); }
  /*! \brief The old destination value is read. */
  static constexpr bool kReadsDst = true;
};

}  // namespace sv
}  // namespace shade

#endif  // SHADE_EXPR_SV_H_
