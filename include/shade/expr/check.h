/*!
 * \file check.h
 * \brief Checks on expressions: `ExpInfo` (rank and device, at compile time), `TypeCheck`
 *  (does an expression fit a destination), `ShapeCheck` (run-time shape of an expression,
 *  throwing shade::Error naming both shapes on a mismatch).
 *
 * Scalars fit every shape: ShapeCheck reports them with the wildcard extent kShapeWildcard,
 * for unary, binary and ternary maps alike (mshadow used extent 0 as the marker, which made a
 * genuinely empty tensor match any shape).
 */
#ifndef SHADE_EXPR_CHECK_H_
#define SHADE_EXPR_CHECK_H_

#include <initializer_list>
#include <type_traits>
#include <utility>

#include "shade/base/error.h"
#include "shade/expr/expression.h"
#include "shade/expr/tensor_fwd.h"

namespace shade {
namespace expr {

/*! \brief Extent ShapeCheck reports for scalars (they match any shape). */
constexpr index_t kShapeWildcard = -1;

/*! \brief True when `s` is the shape of a scalar-only expression. */
template <int dim>
inline bool IsWildcardShape(const Shape<dim>& s) {
  return s[0] == kShapeWildcard;
}

namespace detail {
/*! \brief One extent list for a mismatch message (kShapeWildcard first = a scalar). */
struct ShapeRef {
  /*! \brief The extents (not owned). */
  const index_t* dims;
  /*! \brief Their count. */
  int ndim;
};
/*! \brief A Shape's extents as a ShapeRef. */
template <int dim>
inline ShapeRef RefOf(const Shape<dim>& s) {
  return ShapeRef{s.shape_, dim};
}
/*!
 * \brief Throws shade::ShapeError "file:line: " + texts[0] + shapes[0] + texts[1] + ... (a
 *  tuple, or "scalar"); texts has one more entry than shapes. Out of line (src/expr/check.cc)
 *  and cold on purpose: the message code inlined at every shape check made the static
 *  element loop too big for GCC to inline MapExp, which cost a 4-float `A = B + C` 0.3 -> 4 ns.
 */
[[noreturn]] __attribute__((cold)) void ThrowShapeMismatch(const char* file, int line,
                                                           std::initializer_list<const char*> texts,
                                                           std::initializer_list<ShapeRef> shapes);
/*! \brief Rank of a map of operands of ranks a and b: 0 is a scalar, -1 a mismatch. */
constexpr int CombineDim(int a, int b) {
  return (a < 0 || b < 0) ? -1 : a == 0 ? b : (b == 0 || a == b) ? a : -1;
}
/*! \brief Detects extensions (types deriving from MakeTensorExp). */
template <typename E, typename = void>
struct IsMakeTensorExp : std::false_type {};
template <typename E>
struct IsMakeTensorExp<E, std::void_t<typename E::MakeTensorSrcExp>> : std::true_type {};
}  // namespace detail

/*!
 * \brief Static facts of an expression: kDim (rank; 0 for scalars, -1 when operands disagree)
 *  and kDevMask (devices all operands live on; scalars live everywhere).
 */
template <typename E, typename Enable = void>
struct ExpInfo {
  /*! \brief Rank of the expression; -1 for a type that is not an expression. */
  static constexpr int kDim = -1;
  /*! \brief Bit mask of the devices the operands live on; 0 for none. */
  static constexpr int kDevMask = 0;
};
/*! \brief A tensor: its own rank and device. */
template <typename Device, int dim, typename DType>
struct ExpInfo<Tensor<Device, dim, DType>> {
  /*! \brief The tensor's rank. */
  static constexpr int kDim = dim;
  /*! \brief The tensor's device bit. */
  static constexpr int kDevMask = Device::kDevMask;
};
/*! \brief A scalar: rank 0, valid on every device. */
template <typename DType>
struct ExpInfo<ScalarExp<DType>> {
  /*! \brief 0: a scalar fits any destination rank. */
  static constexpr int kDim = 0;
  /*! \brief Every device bit set. */
  static constexpr int kDevMask = 0xffff;
};
template <typename DstDType, typename SrcDType, typename EType, int etype>
/*! \brief A type cast: the facts of the cast expression. */
struct ExpInfo<TypecastExp<DstDType, SrcDType, EType, etype>> {
  /*! \brief Rank of the cast expression. */
  static constexpr int kDim = ExpInfo<EType>::kDim;
  /*! \brief Devices of the cast expression. */
  static constexpr int kDevMask = ExpInfo<EType>::kDevMask;
};
template <typename E, typename DType>
/*! \brief A transpose: the facts of the transposed expression. */
struct ExpInfo<TransposeExp<E, DType>> {
  /*! \brief Rank of the transposed expression. */
  static constexpr int kDim = ExpInfo<E>::kDim;
  /*! \brief Devices of the transposed expression. */
  static constexpr int kDevMask = ExpInfo<E>::kDevMask;
};
template <typename OP, typename TA, typename DType, int etype>
/*! \brief A unary map: the facts of its operand. */
struct ExpInfo<UnaryMapExp<OP, TA, DType, etype>> {
  /*! \brief Rank of the operand. */
  static constexpr int kDim = ExpInfo<TA>::kDim;
  /*! \brief Devices of the operand. */
  static constexpr int kDevMask = ExpInfo<TA>::kDevMask;
};
template <typename OP, typename TA, typename TB, typename DType, int etype>
/*! \brief A binary map: the common rank and the devices both operands share. */
struct ExpInfo<BinaryMapExp<OP, TA, TB, DType, etype>> {
  /*! \brief The operands' common rank (a scalar adopts the other's); -1 when they differ. */
  static constexpr int kDim = detail::CombineDim(ExpInfo<TA>::kDim, ExpInfo<TB>::kDim);
  /*! \brief Devices both operands live on. */
  static constexpr int kDevMask = ExpInfo<TA>::kDevMask & ExpInfo<TB>::kDevMask;
};
template <typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
/*! \brief A ternary map: the common rank and the devices all three operands share. */
struct ExpInfo<TernaryMapExp<OP, TA, TB, TC, DType, etype>> {
  /*! \brief The operands' common rank (scalars adopt the others'); -1 when they differ. */
  static constexpr int kDim = detail::CombineDim(
      detail::CombineDim(ExpInfo<TA>::kDim, ExpInfo<TB>::kDim), ExpInfo<TC>::kDim);
  /*! \brief Devices all three operands live on. */
  static constexpr int kDevMask =
      ExpInfo<TA>::kDevMask & ExpInfo<TB>::kDevMask & ExpInfo<TC>::kDevMask;
};
/*! \brief Extensions: rank `dim` when the source is well formed; the source's devices. */
template <typename E>
struct ExpInfo<E, std::enable_if_t<detail::IsMakeTensorExp<E>::value>> {
  static constexpr int kDim =
      ExpInfo<typename E::MakeTensorSrcExp>::kDim >= 0 ? E::kMakeTensorDim : -1;
  static constexpr int kDevMask = ExpInfo<typename E::MakeTensorSrcExp>::kDevMask;
};

/*!
 * \brief Whether expression E can be evaluated into a rank-`dim` destination of `Device`:
 *  kMapPass for element-wise assignment, kRedPass for a reduction to a lower rank.
 */
template <typename Device, int dim, typename DType, typename E>
struct TypeCheck {
  /*! \brief Rank of the expression. */
  static constexpr int kExpDim = ExpInfo<E>::kDim;
  /*! \brief All operands live on Device. */
  static constexpr bool kDevPass = (ExpInfo<E>::kDevMask & Device::kDevMask) != 0;
  /*! \brief Rank matches (or is a scalar) and device matches. */
  static constexpr bool kMapPass = (kExpDim == 0 || kExpDim == dim) && kDevPass;
  /*! \brief Rank is higher than dim (a reduction) and device matches. */
  static constexpr bool kRedPass = (kExpDim > dim) && kDevPass;
};

/*!
 * \brief Compile-time check that E fits a rank-`dim` destination of `Device`, each failure
 *  with its own readable message. Use as `static_assert(CheckMapTypes<...>(), "")`.
 */
template <typename Device, int dim, typename E>
constexpr bool CheckMapTypes() {
  static_assert(ExpInfo<E>::kDim >= 0,
                "shade: operands of this expression have different ranks (tensors of one "
                "expression must all have the same number of dimensions)");
  static_assert(ExpInfo<E>::kDim == 0 || ExpInfo<E>::kDim == dim,
                "shade: the rank of the expression differs from the rank of the destination");
  static_assert((ExpInfo<E>::kDevMask & Device::kDevMask) != 0,
                "shade: the expression mixes devices: every tensor must live on the "
                "destination's device (cpu vs gpu)");
  return true;
}

/*!
 * \brief Run-time shape of expression E seen as rank `dim`; throws shade::Error when operand
 *  shapes differ. Scalars give the wildcard shape.
 */
template <int dim, typename E, typename Enable = void>
struct ShapeCheck;

/*! \brief A tensor's shape. */
template <int dim, typename Device, typename DType>
struct ShapeCheck<dim, Tensor<Device, dim, DType>> {
  /*! \brief Returns the tensor's shape. */
  static Shape<dim> Check(const Tensor<Device, dim, DType>& t) { return t.shape_; }
};
/*! \brief A scalar: the wildcard shape, compatible with any. */
template <int dim, typename DType>
struct ShapeCheck<dim, ScalarExp<DType>> {
  /*! \brief Returns a shape of kShapeWildcard in every dimension. */
  static Shape<dim> Check(const ScalarExp<DType>& /*exp*/) {
    Shape<dim> shape;
    for (int i = 0; i < dim; ++i) shape[i] = kShapeWildcard;
    return shape;
  }
};
/*! \brief A type cast: the shape of the cast expression. */
template <int dim, typename DstDType, typename SrcDType, typename EType, int etype>
struct ShapeCheck<dim, TypecastExp<DstDType, SrcDType, EType, etype>> {
  /*! \brief Returns the cast expression's shape (throws as its check does). */
  static Shape<dim> Check(const TypecastExp<DstDType, SrcDType, EType, etype>& exp) {
    return ShapeCheck<dim, EType>::Check(exp.exp);
  }
};
/*! \brief A 2-D transpose: the source shape with both extents swapped. */
template <int dim, typename E, typename DType>
struct ShapeCheck<dim, TransposeExp<E, DType>> {
  /*! \brief Returns the source's shape with its two extents swapped. */
  static Shape<dim> Check(const TransposeExp<E, DType>& e) {
    static_assert(dim == 2, "shade: .T() transposes 2-D expressions only");
    Shape<dim> s = ShapeCheck<dim, E>::Check(e.exp);
    std::swap(s[0], s[1]);
    return s;
  }
};
/*! \brief A unary map: the shape of its operand. */
template <int dim, typename OP, typename TA, typename DType, int etype>
struct ShapeCheck<dim, UnaryMapExp<OP, TA, DType, etype>> {
  /*! \brief Returns the operand's shape. */
  static Shape<dim> Check(const UnaryMapExp<OP, TA, DType, etype>& t) {
    return ShapeCheck<dim, TA>::Check(t.src_);
  }
};
/*! \brief A binary map: the operands' common shape. */
template <int dim, typename OP, typename TA, typename TB, typename DType, int etype>
struct ShapeCheck<dim, BinaryMapExp<OP, TA, TB, DType, etype>> {
  /*! \brief Returns the common shape; throws shade::ShapeError when the operands' shapes differ. */
  static Shape<dim> Check(const BinaryMapExp<OP, TA, TB, DType, etype>& t) {
    const Shape<dim> shape1 = ShapeCheck<dim, TA>::Check(t.lhs_);
    const Shape<dim> shape2 = ShapeCheck<dim, TB>::Check(t.rhs_);
    if (IsWildcardShape(shape1)) return shape2;
    if (IsWildcardShape(shape2)) return shape1;
    if (__builtin_expect(!(shape1 == shape2), 0)) {
      detail::ThrowShapeMismatch(__FILE__, __LINE__,
                                 {"BinaryMapExp: shapes of operands differ: lhs ", " vs rhs ", ""},
                                 {detail::RefOf(shape1), detail::RefOf(shape2)});
    }
    return shape1;
  }
};
/*! \brief A ternary map: the operands' common shape. */
template <int dim, typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
struct ShapeCheck<dim, TernaryMapExp<OP, TA, TB, TC, DType, etype>> {
  /*! \brief Returns the common shape; throws shade::ShapeError when operand shapes differ. */
  static Shape<dim> Check(const TernaryMapExp<OP, TA, TB, TC, DType, etype>& t) {
    const Shape<dim> shapes[3] = {ShapeCheck<dim, TA>::Check(t.item1_),
                                  ShapeCheck<dim, TB>::Check(t.item2_),
                                  ShapeCheck<dim, TC>::Check(t.item3_)};
    const Shape<dim>* known = nullptr;
    for (const Shape<dim>& s : shapes) {
      if (IsWildcardShape(s)) continue;
      if (known == nullptr) {
        known = &s;
      } else {
        if (__builtin_expect(!(*known == s), 0)) {
          detail::ThrowShapeMismatch(
              __FILE__, __LINE__, {"TernaryMapExp: shapes of operands differ: ", ", ", ", ", ""},
              {detail::RefOf(shapes[0]), detail::RefOf(shapes[1]), detail::RefOf(shapes[2])});
        }
      }
    }
    return known != nullptr ? *known : shapes[0];
  }
};
/*! \brief Extensions report the shape they computed when built. */
template <int dim, typename E>
struct ShapeCheck<dim, E, std::enable_if_t<detail::IsMakeTensorExp<E>::value>> {
  static Shape<dim> Check(const E& e) {
    static_assert(E::kMakeTensorDim == dim, "shade: extension rank differs from the destination");
    return e.shape_;
  }
};

/*!
 * \brief Shape of the assignment `dst = exp` (rank dim): throws shade::Error naming both
 *  shapes unless exp's shape equals dst's or exp is scalar-only.
 */
template <int dim, typename Dst, typename E>
SHADE_CINLINE Shape<dim> CheckAssignShape(const Dst& dst, const E& exp) {
  const Shape<dim> dshape = ShapeCheck<dim, Dst>::Check(dst);
  const Shape<dim> eshape = ShapeCheck<dim, E>::Check(exp);
  if (__builtin_expect(!(IsWildcardShape(eshape) || eshape == dshape), 0)) {
    detail::ThrowShapeMismatch(
        __FILE__, __LINE__,
        {"assignment: expression shape ", " differs from destination shape ", ""},
        {detail::RefOf(eshape), detail::RefOf(dshape)});
  }
  return dshape;
}

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_CHECK_H_
