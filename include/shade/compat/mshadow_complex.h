/*!
 * \file mshadow_complex.h
 * \brief mshadow's extension/complex.h: element-wise complex arithmetic on tensors whose last
 *  dimension interleaves (real, imaginary) pairs. complex_mul_cc(a, b) multiplies two such
 *  tensors, _cr / _rc take one real operand (half the last extent), conj / complex_exchange
 *  keep the shape, complex_pad_imag doubles the last extent, complex_toreal /
 *  complex_abs_square / complex_sum_real_imag halve it. Shape rules and messages are mshadow's;
 *  a violation throws shade::Error. Included by shade/compat/mshadow.h.
 */
#ifndef SHADE_COMPAT_MSHADOW_COMPLEX_H_
#define SHADE_COMPAT_MSHADOW_COMPLEX_H_

#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/expr/ext/ext_base.h"
#include "shade/shape/shape.h"

namespace shade {
namespace op {
/*! \brief mshadow's complex operators (op::complex::mul, ...). */
namespace complex {
/*! \brief Operand kinds of a binary complex expression: complex-complex, complex-real,
 * real-complex. */
enum BinaryCalculationType { kBinaryCC, kBinaryCR, kBinaryRC };
/*! \brief Unary kinds: complex to real, complex to complex, real to complex. */
enum UnitaryCalculationType { kUnitaryC2R, kUnitaryC2C, kUnitaryR2C };
/*! \brief Complex product. */
struct mul {
  /*! \brief Real part of a * b. */
  template <typename DType>
  static SHADE_XINLINE DType RealMap(DType a_real, DType a_imag, DType b_real, DType b_imag) {
    return a_real * b_real - a_imag * b_imag;
  }
  /*! \brief Imaginary part of a * b. */
  template <typename DType>
  static SHADE_XINLINE DType ImagMap(DType a_real, DType a_imag, DType b_real, DType b_imag) {
    return a_real * b_imag + b_real * a_imag;
  }
};
/*! \brief Complex quotient (mshadow's formula, no scaling). */
struct div {
  /*! \brief Real part of a / b. */
  template <typename DType>
  static SHADE_XINLINE DType RealMap(DType a_real, DType a_imag, DType b_real, DType b_imag) {
    return (a_real * b_real + a_imag * b_imag) / (b_real * b_real + b_imag * b_imag);
  }
  /*! \brief Imaginary part of a / b. */
  template <typename DType>
  static SHADE_XINLINE DType ImagMap(DType a_real, DType a_imag, DType b_real, DType b_imag) {
    return (b_real * a_imag - a_real * b_imag) / (b_real * b_real + b_imag * b_imag);
  }
};
/*! \brief Complex conjugate. */
struct conjugate {
  /*! \brief The real part. */
  template <typename TA, typename DType>
  static SHADE_XINLINE DType RealMap(const expr::Plan<TA, DType>& src, index_t real_i,
                                     index_t real_j, index_t /*imag_i*/, index_t /*imag_j*/) {
    return src.Eval(real_i, real_j);
  }
  /*! \brief Minus the imaginary part. */
  template <typename TA, typename DType>
  static SHADE_XINLINE DType ImagMap(const expr::Plan<TA, DType>& src, index_t /*real_i*/,
                                     index_t /*real_j*/, index_t imag_i, index_t imag_j) {
    return -src.Eval(imag_i, imag_j);
  }
};
/*! \brief Swaps the real and imaginary parts. */
struct exchange {
  /*! \brief The imaginary part. */
  template <typename TA, typename DType>
  static SHADE_XINLINE DType RealMap(const expr::Plan<TA, DType>& src, index_t /*real_i*/,
                                     index_t /*real_j*/, index_t imag_i, index_t imag_j) {
    return src.Eval(imag_i, imag_j);
  }
  /*! \brief The real part. */
  template <typename TA, typename DType>
  static SHADE_XINLINE DType ImagMap(const expr::Plan<TA, DType>& src, index_t real_i,
                                     index_t real_j, index_t /*imag_i*/, index_t /*imag_j*/) {
    return src.Eval(real_i, real_j);
  }
};
/*! \brief Real to complex with a zero imaginary part. */
struct pad_imag {
  /*! \brief The real value. */
  template <typename TA, typename DType>
  static SHADE_XINLINE DType RealMap(const expr::Plan<TA, DType>& src, index_t real_i,
                                     index_t real_j) {
    return src.Eval(real_i, real_j);
  }
  /*! \brief Zero. */
  template <typename TA, typename DType>
  static SHADE_XINLINE DType ImagMap(const expr::Plan<TA, DType>& /*src*/, index_t /*real_i*/,
                                     index_t /*real_j*/) {
    return DType(0);
  }
};
/*! \brief The real part. */
struct toreal {
  /*! \brief The real part. */
  template <typename TA, typename DType>
  static SHADE_XINLINE DType RealMap(const expr::Plan<TA, DType>& src, index_t real_i,
                                     index_t real_j, index_t /*imag_i*/, index_t /*imag_j*/) {
    return src.Eval(real_i, real_j);
  }
};
/*! \brief re^2 + im^2. */
struct abs_square {
  /*! \brief re^2 + im^2. */
  template <typename TA, typename DType>
  static SHADE_XINLINE DType RealMap(const expr::Plan<TA, DType>& src, index_t real_i,
                                     index_t real_j, index_t imag_i, index_t imag_j) {
    const DType re = src.Eval(real_i, real_j), im = src.Eval(imag_i, imag_j);
    return re * re + im * im;
  }
};
/*! \brief re + im. */
struct sum_real_imag {
  /*! \brief re + im. */
  template <typename TA, typename DType>
  static SHADE_XINLINE DType RealMap(const expr::Plan<TA, DType>& src, index_t real_i,
                                     index_t real_j, index_t imag_i, index_t imag_j) {
    return src.Eval(real_i, real_j) + src.Eval(imag_i, imag_j);
  }
};
}  // namespace complex
}  // namespace op

namespace expr {

/*! \brief A binary complex expression: OP over (lhs, rhs) of operand kinds calctype. */
template <int calctype, typename OP, typename TA, typename TB, typename DType, int etype>
struct ComplexBinaryMapExp
    : public MakeTensorExp<ComplexBinaryMapExp<calctype, OP, TA, TB, DType, etype>, TA,
                           ExpInfo<TA>::kDim, DType> {
  /*! \brief Rank of the operands and the result. */
  static constexpr int kDim = ExpInfo<TA>::kDim;
  /*! \brief Left operand. */
  TA lhs_;
  /*! \brief Right operand. */
  TB rhs_;
  /*! \brief Checks the operands' shapes as mshadow's ShapeCheck does. */
  ComplexBinaryMapExp(const TA& lhs, const TB& rhs) : lhs_(lhs), rhs_(rhs) {
    static_assert(ExpInfo<TB>::kDim == kDim, "complex binary: the operands' ranks differ");
    const Shape<kDim> s1 = detail::SourceShape<kDim>(lhs_, "ComplexBinaryMapExp");
    const Shape<kDim> s2 = detail::SourceShape<kDim>(rhs_, "ComplexBinaryMapExp");
    if (s1[0] == 0) {
      this->shape_ = s2;
    } else if (s2[0] == 0) {
      this->shape_ = s1;
    } else if (calctype == op::complex::kBinaryCC) {
      SHADE_CHECK(s1 == s2) << "ComplexBinaryMapExp (CC): Shapes of operands are not the same.";
      SHADE_CHECK_EQ(s1[kDim - 1] % 2, 0)
          << "ComplexBinaryMapExp (CC): Shape of the last dimension is not even. "
             "We must have real part + imaginary part.";
      this->shape_ = s1;
    } else {
      const bool cr = calctype == op::complex::kBinaryCR;
      const Shape<kDim>& complex_shape = cr ? s1 : s2;
      const Shape<kDim>& real_shape = cr ? s2 : s1;
      for (int i = 0; i < kDim - 1; ++i) {
        SHADE_CHECK_EQ(s1[i], s2[i]) << "ComplexBinaryMapExp (" << (cr ? "CR" : "RC")
                                     << "): Shapes of operands are not the same.";
      }
      SHADE_CHECK_EQ(complex_shape[kDim - 1], real_shape[kDim - 1] * 2)
          << "ComplexBinaryMapExp (" << (cr ? "CR" : "RC") << "): Shapes of operands do not match.";
      this->shape_ = complex_shape;
    }
  }
};

/*! \brief A unary complex expression: OP over src of kind calctype. */
template <int calctype, typename OP, typename TA, typename DType, int etype>
struct ComplexUnitaryExp : public MakeTensorExp<ComplexUnitaryExp<calctype, OP, TA, DType, etype>,
                                                TA, ExpInfo<TA>::kDim, DType> {
  /*! \brief Rank. */
  static constexpr int kDim = ExpInfo<TA>::kDim;
  /*! \brief The operand. */
  TA src_;
  /*! \brief mshadow's rule: the source's last extent must be even (for every kind, R2C
   *  included); C2R halves it, R2C doubles it. */
  explicit ComplexUnitaryExp(const TA& src) : src_(src) {
    Shape<kDim> s = detail::SourceShape<kDim>(src_, "ComplexUnitaryExp");
    SHADE_CHECK_EQ(s[kDim - 1] % 2, 0)
        << "ComplexUnitaryExp: Shape of the last dimension is not even. "
           "We must have real + imaginary.";
    if (calctype == op::complex::kUnitaryC2R) s[kDim - 1] /= 2;
    if (calctype == op::complex::kUnitaryR2C) {
      s[kDim - 1] = CheckedMul(s[kDim - 1], index_t{2}, "ComplexUnitaryExp: last extent");
    }
    this->shape_ = s;
  }
};

/*! \brief `ComplexF<calctype, OP>(lhs, rhs)`: the generic binary builder. */
template <int calctype, typename OP, typename TA, typename TB, typename DType, int ta, int tb>
inline ComplexBinaryMapExp<calctype, OP, TA, TB, DType, (ta | tb | type::kMapper)> ComplexF(
    const Exp<TA, DType, ta>& lhs, const Exp<TB, DType, tb>& rhs) {
  return ComplexBinaryMapExp<calctype, OP, TA, TB, DType, (ta | tb | type::kMapper)>(lhs.self(),
                                                                                     rhs.self());
}
/*! \brief `ComplexF<calctype, OP>(src)`: the generic unary builder. */
template <int calctype, typename OP, typename SrcExp, typename DType, int e1>
inline ComplexUnitaryExp<calctype, OP, SrcExp, DType, (e1 | type::kMapper)> ComplexF(
    const Exp<SrcExp, DType, e1>& src) {
  return ComplexUnitaryExp<calctype, OP, SrcExp, DType, (e1 | type::kMapper)>(src.self());
}

/*! \brief Defines complex_<name>: the complex binary expression of kind `kind` with functor OP. */
#define SHADE_COMPLEX_BINARY_(name, kind, OP)                                   \
  template <typename TA, typename TB, typename DType, int ta, int tb>           \
  inline ComplexBinaryMapExp<op::complex::kind, op::complex::OP, TA, TB, DType, \
                             (ta | tb | type::kMapper)>                         \
  name(const Exp<TA, DType, ta>& lhs, const Exp<TB, DType, tb>& rhs) {          \
    return ComplexF<op::complex::kind, op::complex::OP>(lhs, rhs);              \
  }
/*! \brief complex * complex. */
SHADE_COMPLEX_BINARY_(complex_mul_cc, kBinaryCC, mul)
/*! \brief complex * real. */
SHADE_COMPLEX_BINARY_(complex_mul_cr, kBinaryCR, mul)
/*! \brief real * complex. */
SHADE_COMPLEX_BINARY_(complex_mul_rc, kBinaryRC, mul)
/*! \brief complex / complex. */
SHADE_COMPLEX_BINARY_(complex_div_cc, kBinaryCC, div)
/*! \brief complex / real. */
SHADE_COMPLEX_BINARY_(complex_div_cr, kBinaryCR, div)
/*! \brief real / complex. */
SHADE_COMPLEX_BINARY_(complex_div_rc, kBinaryRC, div)
#undef SHADE_COMPLEX_BINARY_

#define SHADE_COMPLEX_UNARY_(name, kind, OP)                                  \
  template <typename SrcExp, typename DType, int e1>                          \
  inline ComplexUnitaryExp<op::complex::kind, op::complex::OP, SrcExp, DType, \
                           (e1 | type::kMapper)>                              \
  name(const Exp<SrcExp, DType, e1>& src) {                                   \
    return ComplexF<op::complex::kind, op::complex::OP>(src);                 \
  }
/*! \brief Complex conjugate. */
SHADE_COMPLEX_UNARY_(conj, kUnitaryC2C, conjugate)
/*! \brief (re, im) -> (im, re). */
SHADE_COMPLEX_UNARY_(complex_exchange, kUnitaryC2C, exchange)
/*! \brief Real -> complex with zero imaginary parts. */
SHADE_COMPLEX_UNARY_(complex_pad_imag, kUnitaryR2C, pad_imag)
/*! \brief Complex -> its real parts. */
SHADE_COMPLEX_UNARY_(complex_toreal, kUnitaryC2R, toreal)
/*! \brief Complex -> re^2 + im^2. */
SHADE_COMPLEX_UNARY_(complex_abs_square, kUnitaryC2R, abs_square)
/*! \brief Complex -> re + im. */
SHADE_COMPLEX_UNARY_(complex_sum_real_imag, kUnitaryC2R, sum_real_imag)
#undef SHADE_COMPLEX_UNARY_

/*! \brief Binary plan: element x of a row is the real (even x) or imaginary (odd x) part. */
template <int calctype, typename OP, typename TA, typename TB, typename DType, int etype>
class Plan<ComplexBinaryMapExp<calctype, OP, TA, TB, DType, etype>, DType> {
 public:
  /*! \brief Plans of both operands. */
  explicit Plan(const ComplexBinaryMapExp<calctype, OP, TA, TB, DType, etype>& e)
      : lhs_(MakePlan(e.lhs_)), rhs_(MakePlan(e.rhs_)) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    const index_t base = x / 2 * 2;
    DType a_re, a_im, b_re, b_im;
    if (calctype == op::complex::kBinaryCC) {
      a_re = lhs_.Eval(y, base), a_im = lhs_.Eval(y, base + 1);
      b_re = rhs_.Eval(y, base), b_im = rhs_.Eval(y, base + 1);
    } else if (calctype == op::complex::kBinaryCR) {
      a_re = lhs_.Eval(y, base), a_im = lhs_.Eval(y, base + 1);
      b_re = rhs_.Eval(y, base / 2), b_im = DType(0);
    } else {
      a_re = lhs_.Eval(y, base / 2), a_im = DType(0);
      b_re = rhs_.Eval(y, base), b_im = rhs_.Eval(y, base + 1);
    }
    return x % 2 == 0 ? OP::RealMap(a_re, a_im, b_re, b_im) : OP::ImagMap(a_re, a_im, b_re, b_im);
  }

 private:
  Plan<TA, DType> lhs_;
  Plan<TB, DType> rhs_;
};

/*! \brief Unary plan: C2C and R2C write pairs, C2R reads pairs. */
template <int calctype, typename OP, typename TA, typename DType, int etype>
class Plan<ComplexUnitaryExp<calctype, OP, TA, DType, etype>, DType> {
 public:
  /*! \brief The operand's plan. */
  explicit Plan(const ComplexUnitaryExp<calctype, OP, TA, DType, etype>& e)
      : src_(MakePlan(e.src_)) {}
  /*! \brief Element (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    if constexpr (calctype == op::complex::kUnitaryC2R) {
      return OP::RealMap(src_, y, x * 2, y, x * 2 + 1);
    } else if constexpr (calctype == op::complex::kUnitaryR2C) {
      return x % 2 == 0 ? OP::RealMap(src_, y, x / 2) : OP::ImagMap(src_, y, x / 2);
    } else {
      const index_t base = x / 2 * 2;
      return x % 2 == 0 ? OP::RealMap(src_, y, base, y, base + 1)
                        : OP::ImagMap(src_, y, base, y, base + 1);
    }
  }

 private:
  Plan<TA, DType> src_;
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_COMPAT_MSHADOW_COMPLEX_H_
