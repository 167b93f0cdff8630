/*!
 * \file dot.h
 * \brief The dot engine of the static front end: `dst (=|+=|-=) scale * dot(a, b)` becomes ONE
 *  BLAS call (gemm, gemv, ger, or batched gemm), with alpha and beta taken from the saver and
 *  padded operands passed with their row pitch as leading dimension (never copied).
 *
 *  | dst | lhs | rhs | form                                  | BLAS      |
 *  |-----|-----|-----|---------------------------------------|-----------|
 *  | 2-D | 2-D | 2-D | dot(a[.T()], b[.T()])                 | Gemm      |
 *  | 1-D | 2-D | 1-D | dot(m[.T()], v)                       | Gemv      |
 *  | 1-D | 1-D | 2-D | dot(v, m[.T()])   (= m^T v)           | Gemv      |
 *  | 2-D | 1-D | 1-D | dot(x.T(), y)     (outer product x y^T)| Ger       |
 *  | 3-D | 3-D | 3-D | batch_dot<lt, rt>(a, b)               | BatchGemm |
 */
#ifndef SHADE_EXPR_DOT_H_
#define SHADE_EXPR_DOT_H_

#include <sstream>
#include <string>
#include <type_traits>

#include "shade/backend/cpu/blas.h"
#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/expr/expression.h"
#include "shade/expr/tensor_fwd.h"
#include "shade/functor/sv.h"

namespace shade {
namespace expr {
namespace detail {

/*! \brief alpha and beta of the BLAS call for a saver; *= and /= are compile errors. */
template <typename SV, typename DType>
struct DotSaver {
  static_assert(std::is_same<SV, sv::saveto>::value || std::is_same<SV, sv::plusto>::value ||
                    std::is_same<SV, sv::minusto>::value,
                "shade: a product dot(...) can be assigned with =, += or -= only; *= and /= "
                "with dot are not defined (assign the product to a tensor first)");
  static DType Alpha(DType scale) { return DType(scale * DType(SV::kAlphaSign)); }
  static constexpr DType kBeta = DType(SV::kBeta);
};

}  // namespace detail

/*!
 * \brief The BLAS of one device, the dot engine's device seam: DotEngine checks shapes and
 *  overlaps, then calls `DotBackend<Device>::Gemm/Gemv/Ger/BatchGemm` (row-major, the
 *  conventions of backend/cpu/blas.h) with the destination's stream. The cpu one is below; the
 *  gpu one (cuBLAS) is in tensor/tensor_gpu.h. Without one, kAvailable is false and every dot
 *  form stops compilation with a message naming the device.
 */
template <typename Device>
struct DotBackend {
  /*! \brief No products on this device in this build. */
  static constexpr bool kAvailable = false;
};

/*! \brief The cpu products: backend/cpu/blas.h (the stream is unused: the cpu is synchronous). */
template <>
struct DotBackend<cpu> {
  /*! \brief Products exist. */
  static constexpr bool kAvailable = true;
  /*! \brief blas::Gemm. */
  template <typename T>
  static void Gemm(Stream<cpu>*, bool ta, bool tb, index_t m, index_t n, index_t k, T alpha,
                   const T* a, index_t lda, const T* b, index_t ldb, T beta, T* c, index_t ldc) {
    blas::Gemm<T>(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
  /*! \brief blas::Gemv. */
  template <typename T>
  static void Gemv(Stream<cpu>*, bool ta, index_t rows, index_t cols, T alpha, const T* a,
                   index_t lda, const T* x, index_t incx, T beta, T* y, index_t incy) {
    blas::Gemv<T>(ta, rows, cols, alpha, a, lda, x, incx, beta, y, incy);
  }
  /*! \brief blas::Ger. */
  template <typename T>
  static void Ger(Stream<cpu>*, index_t rows, index_t cols, T alpha, const T* x, index_t incx,
                  const T* y, index_t incy, T* a, index_t lda) {
    blas::Ger<T>(rows, cols, alpha, x, incx, y, incy, a, lda);
  }
  /*! \brief blas::BatchGemm. */
  template <typename T>
  static void BatchGemm(Stream<cpu>*, bool ta, bool tb, index_t batch, index_t m, index_t n,
                        index_t k, T alpha, const T* a, index_t lda, index_t sa, const T* b,
                        index_t ldb, index_t sb, T beta, T* c, index_t ldc, index_t sc) {
    blas::BatchGemm<T>(ta, tb, batch, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc);
  }
};

namespace detail {
/*! \brief Shared compile-time requirements of every dot form. */
template <typename Device, typename DType>
constexpr bool CheckDotTypes() {
  static_assert(DotBackend<Device>::kAvailable,
                "shade: this build evaluates dot on the cpu only (gpu products need a "
                "SHADE_WITH_CUDA build and shade/tensor/tensor_gpu.h)");
  static_assert(blas::kSupported<DType>,
                "shade: dot/batch_dot support float and double only (they call BLAS)");
  return true;
}

/*! \brief Throws when the memory of `dst` overlaps `src` (BLAS must not write its input). */
template <typename T>
inline index_t SpanElements(const T& t) {  // first to one past the last element, pitch included
  const auto flat = t.FlatTo2D();
  if (flat.size(0) == 0 || flat.size(1) == 0) return 0;
  return (flat.size(0) - 1) * flat.stride_ + flat.size(1);
}
template <typename TD, typename TS>
inline void CheckNoOverlap(const TD& dst, const TS& src, const char* name) {
  const index_t dn = SpanElements(dst), sn = SpanElements(src);
  const auto* d0 = dst.dptr_;
  const auto* s0 = src.dptr_;
  SHADE_CHECK_SHAPE(dn == 0 || sn == 0 || d0 + dn <= s0 || s0 + sn <= d0)
      << "dot: the destination (shape " << dst.shape_ << ") overlaps the " << name
      << " operand (shape " << src.shape_ << "); write the product to another tensor";
}

}  // namespace detail

/*!
 * \brief Evaluates `*dst SV= scale * dot(op(lhs), op(rhs))`; specialised per rank combination
 *  (see the table in the file comment). The primary template rejects the others.
 */
template <typename SV, typename Device, int dim, int ldim, int rdim, bool ltrans, bool rtrans,
          typename DType>
struct DotEngine {
  static_assert(detail::kAlwaysFalse<SV, Device, DType>,
                "shade: unsupported dot form; use 2-D = dot(2-D, 2-D), 1-D = dot(2-D, 1-D), "
                "1-D = dot(1-D, 2-D), 2-D = dot(1-D.T(), 1-D) or 3-D = batch_dot(3-D, 3-D)");
  /*! \brief Never instantiated: the static_assert above rejects the form at compile time. */
  static void Eval(Tensor<Device, dim, DType>*, const Tensor<Device, ldim, DType>&,
                   const Tensor<Device, rdim, DType>&, DType) {}
};

/*! \brief Matrix = op(matrix) * op(matrix): one Gemm. */
template <typename SV, typename Device, bool ltrans, bool rtrans, typename DType>
struct DotEngine<SV, Device, 2, 2, 2, ltrans, rtrans, DType> {
  /*!
   * \brief *p_dst SV= scale * op(lhs) * op(rhs); throws shade::ShapeError when the extents do not
   *  match or dst overlaps an operand.
   */
  static void Eval(Tensor<Device, 2, DType>* p_dst, const Tensor<Device, 2, DType>& lhs,
                   const Tensor<Device, 2, DType>& rhs, DType scale) {
    static_assert(detail::CheckDotTypes<Device, DType>(), "");
    Tensor<Device, 2, DType>& dst = *p_dst;
    const index_t m = ltrans ? lhs.size(1) : lhs.size(0);
    const index_t k = ltrans ? lhs.size(0) : lhs.size(1);
    const index_t k2 = rtrans ? rhs.size(1) : rhs.size(0);
    const index_t n = rtrans ? rhs.size(0) : rhs.size(1);
    SHADE_CHECK_SHAPE(k == k2) << "dot: inner dimensions differ: lhs" << (ltrans ? ".T()" : "")
                               << " of shape " << lhs.shape_ << " and rhs" << (rtrans ? ".T()" : "")
                               << " of shape " << rhs.shape_ << " (" << k << " vs " << k2 << ")";
    SHADE_CHECK_SHAPE(dst.shape_ == Shape2(m, n))
        << "dot: destination shape " << dst.shape_ << " differs from the product shape "
        << Shape2(m, n) << " of lhs " << lhs.shape_ << " and rhs " << rhs.shape_;
    detail::CheckNoOverlap(dst, lhs, "lhs");
    detail::CheckNoOverlap(dst, rhs, "rhs");
    DotBackend<Device>::template Gemm<DType>(
        dst.stream_, ltrans, rtrans, m, n, k, detail::DotSaver<SV, DType>::Alpha(scale), lhs.dptr_,
        lhs.stride_, rhs.dptr_, rhs.stride_, detail::DotSaver<SV, DType>::kBeta, dst.dptr_,
        dst.stride_);
  }
};

namespace detail {
/*! \brief "matrix.T() of shape (2,3)": an operand as the dot messages name it. */
template <int dim>
inline std::string OperandText(const char* what, bool trans, const Shape<dim>& shape) {
  std::ostringstream os;
  os << what << (trans ? ".T()" : "") << " of shape " << shape;
  return os.str();
}

/*!
 * \brief *dst SV= scale * op(mat) * vec, op transposing when `trans`: one Gemv. THE
 *  matrix-vector form of dot; `vec_first` says the user wrote dot(vec, op'(mat)) (that is
 *  op'(mat)^T * vec, `user_trans` being op'), which orders the operands in the messages.
 */
template <typename SV, typename Device, typename DType>
inline void MatVec(Tensor<Device, 1, DType>* dst, const Tensor<Device, 2, DType>& mat, bool trans,
                   const Tensor<Device, 1, DType>& vec, DType scale, bool vec_first,
                   bool user_trans) {
  const index_t rows = mat.size(0), cols = mat.size(1);
  const index_t k = trans ? rows : cols;
  const index_t n = trans ? cols : rows;
  SHADE_CHECK_SHAPE(k == vec.size(0)) << "dot: "
                                      << (vec_first ? OperandText("vector", false, vec.shape_)
                                                    : OperandText("matrix", user_trans, mat.shape_))
                                      << " does not match "
                                      << (vec_first ? OperandText("matrix", user_trans, mat.shape_)
                                                    : OperandText("vector", false, vec.shape_));
  SHADE_CHECK_SHAPE(dst->size(0) == n) << "dot: destination shape " << dst->shape_
                                       << " differs from the product shape " << Shape1(n);
  CheckNoOverlap(*dst, mat, vec_first ? "rhs" : "lhs");
  CheckNoOverlap(*dst, vec, vec_first ? "lhs" : "rhs");
  DotBackend<Device>::template Gemv<DType>(
      dst->stream_, trans, rows, cols, DotSaver<SV, DType>::Alpha(scale), mat.dptr_, mat.stride_,
      vec.dptr_, 1, DotSaver<SV, DType>::kBeta, dst->dptr_, 1);
}
}  // namespace detail

/*! \brief Vector = op(matrix) * vector: one Gemv. */
template <typename SV, typename Device, bool ltrans, bool rtrans, typename DType>
struct DotEngine<SV, Device, 1, 2, 1, ltrans, rtrans, DType> {
  /*!
   * \brief *p_dst SV= scale * op(lhs) * rhs; throws shade::ShapeError when the extents do not
   *  match or dst overlaps an operand.
   */
  static void Eval(Tensor<Device, 1, DType>* p_dst, const Tensor<Device, 2, DType>& lhs,
                   const Tensor<Device, 1, DType>& rhs, DType scale) {
    static_assert(detail::CheckDotTypes<Device, DType>(), "");
    static_assert(!rtrans,
                  "shade: dot(matrix, vector.T()) has no meaning; use dot(matrix, vector)");
    detail::MatVec<SV>(p_dst, lhs, ltrans, rhs, scale, false, ltrans);
  }
};

/*! \brief Vector = vector * op(matrix) (that is op(matrix)^T * vector): one Gemv. */
template <typename SV, typename Device, bool ltrans, bool rtrans, typename DType>
struct DotEngine<SV, Device, 1, 1, 2, ltrans, rtrans, DType> {
  /*!
   * \brief *p_dst SV= scale * op(rhs)^T * lhs; throws shade::ShapeError when the extents do not
   *  match or dst overlaps an operand.
   */
  static void Eval(Tensor<Device, 1, DType>* p_dst, const Tensor<Device, 1, DType>& lhs,
                   const Tensor<Device, 2, DType>& rhs, DType scale) {
    static_assert(detail::CheckDotTypes<Device, DType>(), "");
    static_assert(!ltrans,
                  "shade: dot(vector.T(), matrix) has no meaning; use dot(vector, matrix)");
    detail::MatVec<SV>(p_dst, rhs, !rtrans, lhs, scale, true, rtrans);
  }
};

/*! \brief Matrix = column.T() * row, the outer product x y^T: one Ger (after a clear for =). */
template <typename SV, typename Device, bool ltrans, bool rtrans, typename DType>
struct DotEngine<SV, Device, 2, 1, 1, ltrans, rtrans, DType> {
  /*!
   * \brief *p_dst SV= scale * lhs rhs^T (the outer product); throws shade::ShapeError when the
   *  extents do not match or dst overlaps an operand.
   */
  static void Eval(Tensor<Device, 2, DType>* p_dst, const Tensor<Device, 1, DType>& lhs,
                   const Tensor<Device, 1, DType>& rhs, DType scale) {
    static_assert(detail::CheckDotTypes<Device, DType>(), "");
    static_assert(ltrans && !rtrans,
                  "shade: the outer product of two vectors is written dot(x.T(), y)");
    Tensor<Device, 2, DType>& dst = *p_dst;
    const index_t m = lhs.size(0), n = rhs.size(0);
    SHADE_CHECK_SHAPE(dst.shape_ == Shape2(m, n))
        << "dot: destination shape " << dst.shape_ << " differs from the outer product shape "
        << Shape2(m, n) << " of vectors " << lhs.shape_ << " and " << rhs.shape_;
    detail::CheckNoOverlap(dst, lhs, "lhs");
    detail::CheckNoOverlap(dst, rhs, "rhs");
    // Ger only accumulates; `=` clears first (so NaNs in the old values do not survive).
    if constexpr (std::is_same<SV, sv::saveto>::value) {
      if constexpr (std::is_same<Device, cpu>::value) {
        dst = DType(0);
      } else {
        DotBackend<Device>::Zero(dst);
      }
    }
    DotBackend<Device>::template Ger<DType>(dst.stream_, m, n,
                                            detail::DotSaver<SV, DType>::Alpha(scale), lhs.dptr_, 1,
                                            rhs.dptr_, 1, dst.dptr_, dst.stride_);
  }
};

/*! \brief Batch of matrices = batch of op(matrix) * op(matrix): one BatchGemm. */
template <typename SV, typename Device, bool ltrans, bool rtrans, typename DType>
struct DotEngine<SV, Device, 3, 3, 3, ltrans, rtrans, DType> {
  /*!
   * \brief Each batch item of *p_dst SV= scale * op(lhs[i]) * op(rhs[i]); throws shade::ShapeError
   *  when the extents do not match or dst overlaps an operand.
   */
  static void Eval(Tensor<Device, 3, DType>* p_dst, const Tensor<Device, 3, DType>& lhs,
                   const Tensor<Device, 3, DType>& rhs, DType scale) {
    static_assert(detail::CheckDotTypes<Device, DType>(), "");
    Tensor<Device, 3, DType>& dst = *p_dst;
    const index_t batch = lhs.size(0);
    const index_t m = ltrans ? lhs.size(2) : lhs.size(1);
    const index_t k = ltrans ? lhs.size(1) : lhs.size(2);
    const index_t k2 = rtrans ? rhs.size(2) : rhs.size(1);
    const index_t n = rtrans ? rhs.size(1) : rhs.size(2);
    SHADE_CHECK_SHAPE(rhs.size(0) == batch && k == k2)
        << "batch_dot: operands do not match: lhs" << (ltrans ? "^T" : "") << " of shape "
        << lhs.shape_ << " and rhs" << (rtrans ? "^T" : "") << " of shape " << rhs.shape_;
    SHADE_CHECK_SHAPE(dst.shape_ == Shape3(batch, m, n))
        << "batch_dot: destination shape " << dst.shape_ << " differs from the product shape "
        << Shape3(batch, m, n) << " of lhs " << lhs.shape_ << " and rhs " << rhs.shape_;
    detail::CheckNoOverlap(dst, lhs, "lhs");
    detail::CheckNoOverlap(dst, rhs, "rhs");
    DotBackend<Device>::template BatchGemm<DType>(
        dst.stream_, ltrans, rtrans, batch, m, n, k, detail::DotSaver<SV, DType>::Alpha(scale),
        lhs.dptr_, lhs.stride_, static_cast<index_t>(lhs.template MemSize<1>()), rhs.dptr_,
        rhs.stride_, static_cast<index_t>(rhs.template MemSize<1>()),
        detail::DotSaver<SV, DType>::kBeta, dst.dptr_, dst.stride_,
        static_cast<index_t>(dst.template MemSize<1>()));
  }
};

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_DOT_H_
