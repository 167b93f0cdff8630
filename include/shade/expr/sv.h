/*!
 * \file sv.h
 * \brief Savers: how an evaluated value is stored into the destination (`=`, `+=`, `-=`,
 *  `*=`, `/=`). `OPType` names the element functor, so a packet path can reuse it.
 */
#ifndef SHADE_EXPR_SV_H_
#define SHADE_EXPR_SV_H_

#include "shade/base/index.h"
#include "shade/expr/op.h"

namespace shade {
namespace sv {

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
};
/*! \brief dst *= src */
struct multo {
  template <typename DType>
  static SHADE_XINLINE void Save(DType& a, DType b) { a = DType(a * b); }  // NOLINT
  /*! \brief Matching element functor. */
  using OPType = op::mul;
};
/*! \brief dst /= src */
struct divto {
  template <typename DType>
  static SHADE_XINLINE void Save(DType& a, DType b) { a = DType(a / b); }  // NOLINT
  /*! \brief Matching element functor. */
  using OPType = op::div;
};

}  // namespace sv
}  // namespace shade

#endif  // SHADE_EXPR_SV_H_
