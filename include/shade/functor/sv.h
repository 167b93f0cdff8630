/*!
 * \file sv.h
 * \brief Savers: how an evaluated value is stored into the destination (`=`, `+=`, `-=`,
 *  `*=`, `/=`). `OPType` names the element functor; `SavePacket(d, dst, v)` is the packet form
 *  (returns the new destination packet, lanewise identical to Save) and exists only where
 *  OPType has one, so the kernels (backend/cpu/kernels.h) and the static element loop
 *  (expr/map.h) fall back to Save elsewhere. `kReadsDst` says whether the old value is
 *  read (a `=` store need not load the destination). These are THE savers of the library.
 */
#ifndef SHADE_FUNCTOR_SV_H_
#define SHADE_FUNCTOR_SV_H_

#include <type_traits>

#include "shade/base/index.h"
#include "shade/functor/op.h"

namespace shade {
namespace sv {
namespace hn = packet::hn;

SHADE_TARGET_NAMESPACE_BEGIN

namespace detail {
/*!
 * \brief A saver made from its element functor: dst = OP::Map(dst, src), the packet form
 *  OP::MapPacket where OP has one for the lane type. `reads_dst` is false only for `=`.
 */
template <typename OP, bool reads_dst>
struct OpSaver {
  /*! \brief dst = OP(dst, src); `=` never reads dst (it may be uninitialised memory, and
   *  loading an uninitialised bool is undefined behaviour). */
  template <typename DType>
  static SHADE_XINLINE void Save(DType& a, DType b) {  // NOLINT(runtime/references)
    if constexpr (reads_dst) {
      a = OP::Map(a, b);
    } else {
      a = b;
    }
  }
  /*! \brief Matching element functor. */
  using OPType = OP;
  /*! \brief Packet form (where OP has one): the new destination packet. */
  template <class D, class V, class O = OP,
            std::enable_if_t<packet::kHasPacketArity<O, hn::TFromD<D>, 2>, int> = 0>
  static HWY_INLINE V SavePacket(D d, V dst, V v) {
    return O::MapPacket(d, dst, v);
  }
  /*! \brief Whether the old destination value is read. */
  static constexpr bool kReadsDst = reads_dst;
};
}  // namespace detail

/*! \brief dst = src */
struct saveto : detail::OpSaver<op::right, false> {
  /*! \brief Multiplier for the result in a BLAS call (alpha sign). */
  static constexpr int kAlphaSign = 1;
  /*! \brief Weight of the old destination in a BLAS call (beta). */
  static constexpr int kBeta = 0;
  /*! \brief mshadow's BLAS alpha for this saver. */
  static default_real_t AlphaBLAS() { return 1.0f; }
  /*! \brief mshadow's BLAS beta for this saver. */
  static default_real_t BetaBLAS() { return 0.0f; }
};
/*! \brief dst += src */
struct plusto : detail::OpSaver<op::plus, true> {
  /*! \brief Multiplier for the result in a BLAS call (alpha sign). */
  static constexpr int kAlphaSign = 1;
  /*! \brief Weight of the old destination in a BLAS call (beta). */
  static constexpr int kBeta = 1;
  /*! \brief mshadow's BLAS alpha for this saver. */
  static default_real_t AlphaBLAS() { return 1.0f; }
  /*! \brief mshadow's BLAS beta for this saver. */
  static default_real_t BetaBLAS() { return 1.0f; }
};
/*! \brief dst -= src */
struct minusto : detail::OpSaver<op::minus, true> {
  /*! \brief Multiplier for the result in a BLAS call (alpha sign). */
  static constexpr int kAlphaSign = -1;
  /*! \brief Weight of the old destination in a BLAS call (beta). */
  static constexpr int kBeta = 1;
  /*! \brief mshadow's BLAS alpha for this saver. */
  static default_real_t AlphaBLAS() { return -1.0f; }
  /*! \brief mshadow's BLAS beta for this saver. */
  static default_real_t BetaBLAS() { return 1.0f; }
};
/*! \brief dst *= src */
struct multo : detail::OpSaver<op::mul, true> {};
/*! \brief dst /= src */
struct divto : detail::OpSaver<op::div, true> {};

SHADE_TARGET_NAMESPACE_END
}  // namespace sv
}  // namespace shade

#endif  // SHADE_FUNCTOR_SV_H_
