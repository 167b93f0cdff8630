/*!
 * \file expression.h
 * \brief The expression templates of the static front end (mshadow's design): `Exp`, scalars,
 *  `tcast`, `.T()`, element-wise maps through `F<OP>` and `+ - * /`, `RValueExp` (the
 *  assignable base of Tensor), `dot` / `batch_dot`, and `MakeTensorExp` (base of extensions).
 *
 * Nodes hold their operands BY VALUE (mshadow held references, which dangle as soon as an
 * expression is stored in a variable: `auto e = a + b * c;`). Operands are views and small
 * nodes, so the copies cost nothing after inlining. Building an expression computes nothing;
 * assigning it to a destination evaluates it in one pass (see engine.h and expr/map.h).
 */
#ifndef SHADE_EXPR_EXPRESSION_H_
#define SHADE_EXPR_EXPRESSION_H_

#include <type_traits>

#include "shade/base/index.h"
#include "shade/functor/op.h"
#include "shade/functor/sv.h"
#include "shade/shape/shape.h"

namespace shade {
namespace expr {

/*! \brief Expression kinds as bit masks: kRValue < kMapper < kChainer < kComplex. */
namespace type {
/*! \brief A destination-capable value (a Tensor). */
constexpr int kRValue = 0;
/*! \brief Element-wise: element (y, x) depends only on element (y, x) of its operands. */
constexpr int kMapper = 1;
/*! \brief Any (y, x) -> value function (transpose, extensions): still one-pass evaluable. */
constexpr int kChainer = 3;
/*! \brief Needs its own engine (dot): cannot be nested in other expressions. */
constexpr int kComplex = 7;
}  // namespace type

/*!
 * \brief Base of every expression. `SubType` is the concrete node (CRTP), `DType` its element
 *  type, `exp_type` one of type::k*.
 */
template <typename SubType, typename DType, int exp_type>
struct Exp {
  /*! \brief Kind of this expression. */
  static constexpr int kExpType = exp_type;
  /*! \brief The concrete expression. */
  SHADE_XINLINE const SubType& self() const { return *static_cast<const SubType*>(this); }
  /*! \brief Pointer to the concrete expression. */
  SHADE_XINLINE SubType* ptrself() { return static_cast<SubType*>(this); }
};

namespace detail {
/*! \brief Blocks deduction: a scalar argument converts to the expression's DType. */
template <typename T>
struct Identity {
  using type = T;
};
/*! \brief false, but only once T is known (for static_assert in a template that must not match). */
template <typename... T>
constexpr bool kAlwaysFalse = false;
}  // namespace detail

/*! \brief A scalar broadcast to every element. Implicit on purpose: `a + 1.0f` converts. */
template <typename DType>
struct ScalarExp : public Exp<ScalarExp<DType>, DType, type::kMapper> {
  /*! \brief The value. */
  DType scalar_;
  /*! \brief Wraps a value (implicit, as in mshadow). */
  ScalarExp(DType scalar) : scalar_(scalar) {}  // NOLINT(runtime/explicit)
};

/*! \brief Makes a scalar expression of an explicit type: `scalar<float>(2)`. */
template <typename DType>
inline ScalarExp<DType> scalar(DType s) {
  return ScalarExp<DType>(s);
}

/*! \brief Converts each element of `exp` from SrcDType to DstDType. */
template <typename DstDType, typename SrcDType, typename EType, int etype>
struct TypecastExp : public Exp<TypecastExp<DstDType, SrcDType, EType, etype>, DstDType, etype> {
  /*! \brief The converted expression. */
  EType exp;
  /*! \brief Wraps `e`. */
  explicit TypecastExp(const EType& e) : exp(e) {}
};

/*! \brief Element type conversion: `int_mat = tcast<int>(float_mat);`. */
template <typename DstDType, typename SrcDType, typename EType, int etype>
inline TypecastExp<DstDType, SrcDType, EType, (etype | type::kMapper)> tcast(
    const Exp<EType, SrcDType, etype>& exp) {
  static_assert(etype != type::kComplex,
                "shade: tcast(dot(...)) is not supported: assign the dot to a tensor first");
  return TypecastExp<DstDType, SrcDType, EType, (etype | type::kMapper)>(exp.self());
}

/*! \brief Transpose of a 2-D expression (element (y, x) reads (x, y)); made by `.T()`. */
template <typename EType, typename DType>
struct TransposeExp : public Exp<TransposeExp<EType, DType>, DType, type::kChainer> {
  /*! \brief The transposed expression. */
  EType exp;
  /*! \brief Wraps `e`. */
  explicit TransposeExp(const EType& e) : exp(e) {}
  /*! \brief Transposing again gives the original back. */
  SHADE_XINLINE const EType& T() const { return exp; }
};

/*! \brief Evaluates an expression into a destination with a saver; defined in engine.h. */
template <typename Saver, typename RValue, typename DType>
struct ExpEngine;

/*!
 * \brief Whole-tensor evaluator of an extension E, which ExpEngine (engine.h) tries before the
 *  element loop when the destination is a cpu Tensor. The primary template has none. An
 *  extension with one specialises it with `static constexpr bool kAvailable = true;` and
 *  `template <typename Saver, int dim, typename DType> static bool Run(Tensor<cpu, dim, DType>*
 *  dst, const E& e)`, which performs `*dst Saver= e` (shapes already checked) with the same
 *  values as the element loop, or returns false before writing anything when its operands are
 *  not laid out in memory the way it reads them (the element loop then runs).
 */
template <typename E>
struct TensorEvaluator {
  /*! \brief No whole-tensor form: the element loop evaluates E. */
  static constexpr bool kAvailable = false;
};

/*!
 * \brief `+=`, `-=`, `*=`, `/=` with an expression, shared by tensors (RValueExp) and assignable
 *  extensions (MakeTensorExp): each evaluates through ExpEngine into the Container.
 */
template <typename Container, typename DType>
struct AssignOps {
  /*! \brief this += exp, element-wise. */
  template <typename E, typename EDType, int etype>
  Container& operator+=(const Exp<E, EDType, etype>& exp) {
    return Apply<sv::plusto>(exp);
  }
  /*! \brief this -= exp, element-wise. */
  template <typename E, typename EDType, int etype>
  Container& operator-=(const Exp<E, EDType, etype>& exp) {
    return Apply<sv::minusto>(exp);
  }
  /*! \brief this *= exp, element-wise. */
  template <typename E, typename EDType, int etype>
  Container& operator*=(const Exp<E, EDType, etype>& exp) {
    return Apply<sv::multo>(exp);
  }
  /*! \brief this /= exp, element-wise. */
  template <typename E, typename EDType, int etype>
  Container& operator/=(const Exp<E, EDType, etype>& exp) {
    return Apply<sv::divto>(exp);
  }

 protected:
  /*! \brief *this Saver= exp. */
  template <typename Saver, typename E, typename EDType, int etype>
  Container& Apply(const Exp<E, EDType, etype>& exp) {
    static_assert(std::is_same<EDType, DType>::value,
                  "shade: the expression's element type differs from the destination's; "
                  "convert it with tcast<T>(...)");
    Container* self = static_cast<Container*>(this);
    ExpEngine<Saver, Container, DType>::Eval(self, exp.self());
    return *self;
  }
};

/*!
 * \brief Base of every assignable expression (Tensor, TensorContainer): `=`, `+=`, `-=`,
 *  `*=`, `/=` with scalars and expressions trigger the evaluation.
 */
template <typename Container, typename DType>
class RValueExp : public Exp<Container, DType, type::kRValue>, public AssignOps<Container, DType> {
  using Ops = AssignOps<Container, DType>;

 public:
  using Ops::operator+=;
  using Ops::operator-=;
  using Ops::operator*=;
  using Ops::operator/=;
  /*! \brief Lazy transpose of this 2-D value (also used by dot to select transposed GEMM). */
  SHADE_CINLINE TransposeExp<Container, DType> T() const {
    return TransposeExp<Container, DType>(this->self());
  }
  /*! \brief Adds a scalar to every element. */
  Container& operator+=(DType s) { return this->template Apply<sv::plusto>(scalar<DType>(s)); }
  /*! \brief Subtracts a scalar from every element. */
  Container& operator-=(DType s) { return this->template Apply<sv::minusto>(scalar<DType>(s)); }
  /*! \brief Multiplies every element by a scalar. */
  Container& operator*=(DType s) { return this->template Apply<sv::multo>(scalar<DType>(s)); }
  /*! \brief Divides every element by a scalar. */
  Container& operator/=(DType s) { return this->template Apply<sv::divto>(scalar<DType>(s)); }
  /*! \brief Sets every element to a scalar. */
  Container& Assign(DType s) { return this->template Apply<sv::saveto>(scalar<DType>(s)); }
  /*! \brief Evaluates `exp` into this value. */
  template <typename E, typename EDType, int etype>
  Container& Assign(const Exp<E, EDType, etype>& exp) {
    return this->template Apply<sv::saveto>(exp);
  }
};

/*!
 * \brief scale * op(lhs) * op(rhs), a matrix product evaluated by one BLAS call. For 3-D
 *  operands (batch_dot) each leading index is an independent product.
 */
template <typename TA, typename TB, bool ltrans, bool rtrans, typename DType>
struct DotExp : public Exp<DotExp<TA, TB, ltrans, rtrans, DType>, DType, type::kComplex> {
  /*! \brief Left operand (untransposed storage). */
  TA lhs_;
  /*! \brief Right operand (untransposed storage). */
  TB rhs_;
  /*! \brief Factor applied to the product (alpha). */
  DType scale_;
  /*! \brief Builds the node. */
  DotExp(const TA& lhs, const TB& rhs, DType scale) : lhs_(lhs), rhs_(rhs), scale_(scale) {}
};

/*! \brief Matrix product lhs * rhs (also matrix*vector and vector*matrix for 1-D operands). */
template <typename TA, typename TB, typename DType>
inline DotExp<TA, TB, false, false, DType> dot(const RValueExp<TA, DType>& lhs,
                                               const RValueExp<TB, DType>& rhs) {
  return DotExp<TA, TB, false, false, DType>(lhs.self(), rhs.self(), DType(1));
}
/*! \brief lhs^T * rhs; for two vectors, `dot(x.T(), y)` is the outer product x y^T. */
template <typename TA, typename TB, typename DType>
inline DotExp<TA, TB, true, false, DType> dot(const TransposeExp<TA, DType>& lhs,
                                              const RValueExp<TB, DType>& rhs) {
  return DotExp<TA, TB, true, false, DType>(lhs.exp, rhs.self(), DType(1));
}
/*! \brief lhs * rhs^T. */
template <typename TA, typename TB, typename DType>
inline DotExp<TA, TB, false, true, DType> dot(const RValueExp<TA, DType>& lhs,
                                              const TransposeExp<TB, DType>& rhs) {
  return DotExp<TA, TB, false, true, DType>(lhs.self(), rhs.exp, DType(1));
}
/*! \brief lhs^T * rhs^T. */
template <typename TA, typename TB, typename DType>
inline DotExp<TA, TB, true, true, DType> dot(const TransposeExp<TA, DType>& lhs,
                                             const TransposeExp<TB, DType>& rhs) {
  return DotExp<TA, TB, true, true, DType>(lhs.exp, rhs.exp, DType(1));
}
/*!
 * \brief Batched product of 3-D tensors: out[i] = op(lhs[i]) * op(rhs[i]), where op
 *  transposes when the flag is set: `c = batch_dot<false, true>(a, b);`.
 */
template <bool transpose_left = false, bool transpose_right = false, typename TA, typename TB,
          typename DType>
inline DotExp<TA, TB, transpose_left, transpose_right, DType> batch_dot(
    const RValueExp<TA, DType>& lhs, const RValueExp<TB, DType>& rhs) {
  return DotExp<TA, TB, transpose_left, transpose_right, DType>(lhs.self(), rhs.self(), DType(1));
}
/*! \brief Scales a product: `c = 0.5f * dot(a, b)` (alpha of the GEMM). */
template <typename TA, typename TB, bool ltrans, bool rtrans, typename DType>
inline DotExp<TA, TB, ltrans, rtrans, DType> operator*(
    typename detail::Identity<DType>::type scale, const DotExp<TA, TB, ltrans, rtrans, DType>& d) {
  return DotExp<TA, TB, ltrans, rtrans, DType>(d.lhs_, d.rhs_, DType(d.scale_ * scale));
}
/*! \brief Scales a product: `c = dot(a, b) * 0.5f`. */
template <typename TA, typename TB, bool ltrans, bool rtrans, typename DType>
inline DotExp<TA, TB, ltrans, rtrans, DType> operator*(
    const DotExp<TA, TB, ltrans, rtrans, DType>& d, typename detail::Identity<DType>::type scale) {
  return DotExp<TA, TB, ltrans, rtrans, DType>(d.lhs_, d.rhs_, DType(d.scale_ * scale));
}

/*! \brief OP::Map(a) for each element of `src_`. */
template <typename OP, typename TA, typename DType, int etype>
struct UnaryMapExp : public Exp<UnaryMapExp<OP, TA, DType, etype>, DType, etype> {
  /*! \brief Operand. */
  TA src_;
  /*! \brief Builds the node. */
  explicit UnaryMapExp(const TA& src) : src_(src) {}
};

/*! \brief OP::Map(a, b) for each pair of elements. */
template <typename OP, typename TA, typename TB, typename DType, int etype>
struct BinaryMapExp : public Exp<BinaryMapExp<OP, TA, TB, DType, etype>, DType, etype> {
  /*! \brief Left operand. */
  TA lhs_;
  /*! \brief Right operand. */
  TB rhs_;
  /*! \brief Builds the node. */
  BinaryMapExp(const TA& lhs, const TB& rhs) : lhs_(lhs), rhs_(rhs) {}
};

/*! \brief OP::Map(a, b, c) for each triple of elements. */
template <typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
struct TernaryMapExp : public Exp<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType, etype> {
  /*! \brief First operand. */
  TA item1_;
  /*! \brief Second operand. */
  TB item2_;
  /*! \brief Third operand. */
  TC item3_;
  /*! \brief Builds the node. */
  TernaryMapExp(const TA& item1, const TB& item2, const TC& item3)
      : item1_(item1), item2_(item2), item3_(item3) {}
};

namespace detail {
/*! \brief Compile-time checks shared by every map builder, with readable messages. */
template <typename DA, typename DB, int ta, int tb>
constexpr bool CheckMapOperands() {
  static_assert(std::is_same<DA, DB>::value,
                "shade: operands of an element-wise expression have different element types; "
                "convert one with tcast<T>(...)");
  static_assert(ta != type::kComplex && tb != type::kComplex,
                "shade: dot(...) cannot be nested in a larger expression; assign it to a "
                "tensor first (only scale * dot(...) is allowed)");
  return true;
}
}  // namespace detail

/*! \brief Builds OP applied to one expression. */
template <typename OP, typename TA, typename DType, int ta>
inline UnaryMapExp<OP, TA, DType, (ta | type::kMapper)> MakeExp(const Exp<TA, DType, ta>& src) {
  static_assert(detail::CheckMapOperands<DType, DType, ta, ta>(), "");
  return UnaryMapExp<OP, TA, DType, (ta | type::kMapper)>(src.self());
}
/*! \brief Builds OP applied to two expressions. */
template <typename OP, typename TA, typename DA, int ta, typename TB, typename DB, int tb>
inline BinaryMapExp<OP, TA, TB, DA, (ta | tb | type::kMapper)> MakeExp(const Exp<TA, DA, ta>& lhs,
                                                                       const Exp<TB, DB, tb>& rhs) {
  static_assert(detail::CheckMapOperands<DA, DB, ta, tb>(), "");
  return BinaryMapExp<OP, TA, TB, DA, (ta | tb | type::kMapper)>(lhs.self(), rhs.self());
}
/*! \brief Builds OP applied to three expressions. */
template <typename OP, typename TA, typename DA, int ta, typename TB, typename DB, int tb,
          typename TC, typename DC, int tc>
inline TernaryMapExp<OP, TA, TB, TC, DA, (ta | tb | tc | type::kMapper)> MakeExp(
    const Exp<TA, DA, ta>& item1, const Exp<TB, DB, tb>& item2, const Exp<TC, DC, tc>& item3) {
  static_assert(detail::CheckMapOperands<DA, DB, ta, tb>(), "");
  static_assert(detail::CheckMapOperands<DA, DC, ta, tc>(), "");
  return TernaryMapExp<OP, TA, TB, TC, DA, (ta | tb | tc | type::kMapper)>(
      item1.self(), item2.self(), item3.self());
}

/*! \brief `F<op::exp>(a)`: applies a functor with a static Map(a) to each element. */
template <typename OP, typename TA, typename DType, int ta>
inline UnaryMapExp<OP, TA, DType, (ta | type::kMapper)> F(const Exp<TA, DType, ta>& src) {
  return MakeExp<OP>(src);
}
/*! \brief `F<op::maximum>(a, b)`: applies a functor with a static Map(a, b). */
template <typename OP, typename TA, typename DA, int ta, typename TB, typename DB, int tb>
inline BinaryMapExp<OP, TA, TB, DA, (ta | tb | type::kMapper)> F(const Exp<TA, DA, ta>& lhs,
                                                                 const Exp<TB, DB, tb>& rhs) {
  return MakeExp<OP>(lhs, rhs);
}
/*! \brief `F<my_clip>(a, lo, hi)`: applies a functor with a static Map(a, b, c). */
template <typename OP, typename TA, typename DA, int ta, typename TB, typename DB, int tb,
          typename TC, typename DC, int tc>
inline TernaryMapExp<OP, TA, TB, TC, DA, (ta | tb | tc | type::kMapper)> F(
    const Exp<TA, DA, ta>& item1, const Exp<TB, DB, tb>& item2, const Exp<TC, DC, tc>& item3) {
  return MakeExp<OP>(item1, item2, item3);
}

/// Defines (internal) operator SYMBOL as the functor OP between two expressions, and with a
/// scalar on either side (the scalar converts to the expression's element type).
#define SHADE_EXPR_BINARY_OPERATOR_(SYMBOL, OP)                                               \
  template <typename TA, typename DA, int ta, typename TB, typename DB, int tb>               \
  inline BinaryMapExp<OP, TA, TB, DA, (ta | tb | type::kMapper)> operator SYMBOL(             \
      const Exp<TA, DA, ta>& lhs, const Exp<TB, DB, tb>& rhs) {                               \
    return MakeExp<OP>(lhs, rhs);                                                             \
  }                                                                                           \
  template <typename TA, typename DType, int ta>                                              \
  inline BinaryMapExp<OP, TA, ScalarExp<DType>, DType, (ta | type::kMapper)> operator SYMBOL( \
      const Exp<TA, DType, ta>& lhs, typename detail::Identity<DType>::type rhs) {            \
    return MakeExp<OP>(lhs, ScalarExp<DType>(rhs));                                           \
  }                                                                                           \
  template <typename TB, typename DType, int tb>                                              \
  inline BinaryMapExp<OP, ScalarExp<DType>, TB, DType, (tb | type::kMapper)> operator SYMBOL( \
      typename detail::Identity<DType>::type lhs, const Exp<TB, DType, tb>& rhs) {            \
    return MakeExp<OP>(ScalarExp<DType>(lhs), rhs);                                           \
  }
/*! \brief a + b, a + s, s + a */
SHADE_EXPR_BINARY_OPERATOR_(+, op::plus)
/*! \brief a - b, a - s, s - a */
SHADE_EXPR_BINARY_OPERATOR_(-, op::minus)
/*! \brief a * b, a * s, s * a (element-wise; use dot for matrix products) */
SHADE_EXPR_BINARY_OPERATOR_(*, op::mul)
/*! \brief a / b, a / s, s / a */
SHADE_EXPR_BINARY_OPERATOR_(/, op::div)
#undef SHADE_EXPR_BINARY_OPERATOR_

/*! \brief -a, element-wise. */
template <typename TA, typename DType, int ta>
inline UnaryMapExp<op::negation, TA, DType, (ta | type::kMapper)> operator-(
    const Exp<TA, DType, ta>& src) {
  return MakeExp<op::negation>(src);
}

/*!
 * \brief Base of the extensions (broadcast, reshape, slice, concat, patch2col, pool, ...): an
 *  expression of rank `dim` computed from `SrcExp`.
 *
 * An extension `Ext` derives from `MakeTensorExp<Ext, SrcExp, dim, DType>`, sets `shape_`
 * (its result shape, checked against the destination), and specialises
 * `Plan<Ext, DType>` with a constructor from `const Ext&` and
 * `DType Eval(index_t y, index_t x) const` over the FlatTo2D index space of `shape_`
 * (y runs over the product of the leading extents, x over the last). Rank, device and shape
 * checks then work without further code. An extension that can also be written to adds
 * `DType& REval(index_t y, index_t x)` to its plan and `using MakeTensorExp::operator=;`,
 * and then supports `=`, `+=`, `-=`, `*=`, `/=` like a tensor. Unlike mshadow, the Exp base
 * names the extension itself, so the extension is stored by value in larger expressions.
 */
template <typename SubType, typename SrcExp, int dim, typename DType>
struct MakeTensorExp : public Exp<SubType, DType, type::kChainer>,
                       public AssignOps<SubType, DType> {
  /*! \brief Rank of the result (read by ExpInfo/ShapeCheck). */
  static constexpr int kMakeTensorDim = dim;
  /*! \brief Source expression type (its device mask is the extension's). */
  using MakeTensorSrcExp = SrcExp;
  /*! \brief Shape of the result. */
  Shape<dim> shape_;
  /*! \brief The extension itself. */
  SHADE_XINLINE const SubType& real_self() const { return *static_cast<const SubType*>(this); }

  /*! \brief Writes `exp` into the extension's elements (needs REval in its plan). */
  template <typename E, typename EDType, int etype>
  SubType& operator=(const Exp<E, EDType, etype>& exp) {
    return this->template Apply<sv::saveto>(exp);
  }
  /*! \brief Writes a scalar into the extension's elements. */
  SubType& operator=(DType s) { return this->template Apply<sv::saveto>(ScalarExp<DType>(s)); }
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXPRESSION_H_
