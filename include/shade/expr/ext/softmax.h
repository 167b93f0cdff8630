/*!
 * \file softmax.h
 * \brief Softmax and its cross-entropy gradient (mshadow's functions, not expressions; they
 *  write through the kernel layer): `Softmax(dst, energy)` over the last dimension of a matrix
 *  or over dimension 1 of an (n, k, x) tensor, `SoftmaxGrad(dst, src, label[, ignore_label])`
 *  (dst = src - one_hot(label)), and `SmoothSoftmaxGrad(dst, src, label, alpha)` (label
 *  smoothing). Labels are checked (integers in range) before anything is written.
 *
 * Softmax subtracts the maximum first (no overflow for large energies); the maximum, the
 * exponentials and the sum are vectorised kernels (kernel::ReduceAllRun / MapRun), threaded over
 * rows. dst may be the energy tensor itself.
 */
#ifndef SHADE_EXPR_EXT_SOFTMAX_H_
#define SHADE_EXPR_EXT_SOFTMAX_H_

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>
#include <vector>

#include "shade/backend/cpu/kernels.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/backend/cpu/reduce.h"
#include "shade/expr/ext/ext_base.h"
#include "shade/functor/op.h"
#include "shade/tensor/tensor.h"

namespace shade {
namespace expr {
namespace detail {

/*! \brief Softmax of one contiguous run of n elements (dst may equal src). */
template <typename DType>
inline void SoftmaxRun(index_t n, DType* dst, const DType* src) {
  if (n == 0) return;
  const DType mx = kernel::ReduceAllRun<kernel::red::maximum>(n, src);
  kernel::MapRun<kernel::sv::saveto, op::minus>(n, dst, src, kernel::MakeScalar(mx));
  kernel::MapRun<kernel::sv::saveto, op::exp>(n, dst, static_cast<const DType*>(dst));
  const DType sum = kernel::ReduceAllRun<kernel::red::sum>(n, static_cast<const DType*>(dst));
  kernel::MapRun<kernel::sv::saveto, op::mul>(n, dst, static_cast<const DType*>(dst),
                                              kernel::MakeScalar(DType(DType(1) / sum)));
}

/*! \brief Rows per ParallelFor chunk for rows of `cols` elements of softmax-like work. */
inline index_t SoftmaxGrain(index_t cols) {
  return std::max<index_t>(1, kernel::kMathGrain / std::max<index_t>(cols, 1));
}

/*!
 * \brief Reads label tensor `label` (any element type) as class indices, checking each is an
 *  integer in [0, nclass) unless it equals `ignore` (when `use_ignore`); ignored ones become -1.
 */
template <int dim, typename LType>
inline std::vector<index_t> CheckLabels(const Tensor<cpu, dim, LType>& label, index_t nclass,
                                        bool use_ignore, double ignore, const char* who) {
  const index_t cols = label.shape_[dim - 1];
  const index_t n = static_cast<index_t>(label.shape_.Size());
  const index_t ld = dim == 1 ? cols : label.stride_;
  std::vector<index_t> out(static_cast<size_t>(n));
  for (index_t k = 0; k < n; ++k) {
    const double v = static_cast<double>(label.dptr_[(k / cols) * ld + k % cols]);
    if (use_ignore && v == ignore) {
      out[static_cast<size_t>(k)] = -1;
      continue;
    }
    SHADE_CHECK(v >= 0 && v < static_cast<double>(nclass) && std::floor(v) == v)
        << who << ": label " << v << " at position " << k << " is not a class index in [0, "
        << nclass << ")";
    out[static_cast<size_t>(k)] = static_cast<index_t>(v);
  }
  return out;
}

/*!
 * \brief dst[r][c] = src[r][c] - target(c == label[r]) for a (rows, cols) view; on_value /
 *  off_value are the one-hot target's entries; rows with label -1 become 0.
 */
template <typename DType>
inline void OneHotGradRows(index_t rows, index_t cols, DType* dst, index_t ldd, const DType* src,
                           index_t lds, const std::vector<index_t>& label, DType on_value,
                           DType off_value) {
  ParallelFor(0, rows, std::max<index_t>(1, kernel::kMapGrain / std::max<index_t>(cols, 1)),
              [&](index_t b, index_t e) {
                for (index_t r = b; r < e; ++r) {
                  DType* d = dst + r * ldd;
                  const DType* s = src + r * lds;
                  const index_t l = label[static_cast<size_t>(r)];
                  if (l < 0) {
                    kernel::FillRun(cols, d, DType(0));
                    continue;
                  }
                  const DType at_label = s[l];  // read before an in-place (dst == src) write
                  kernel::MapRun<kernel::sv::saveto, op::minus>(cols, d, s,
                                                                kernel::MakeScalar(off_value));
                  d[l] = DType(at_label - on_value);
                }
              });
}

template <typename DType>
inline void CheckSameShape2(const Tensor<cpu, 2, DType>& a, const Tensor<cpu, 2, DType>& b,
                            const char* who) {
  SHADE_CHECK_SHAPE(a.shape_ == b.shape_)
      << who << ": destination " << a.shape_ << " and source " << b.shape_ << " differ in shape";
}
template <typename DType>
inline void CheckSameShape3(const Tensor<cpu, 3, DType>& a, const Tensor<cpu, 3, DType>& b,
                            const char* who) {
  SHADE_CHECK_SHAPE(a.shape_ == b.shape_)
      << who << ": destination " << a.shape_ << " and source " << b.shape_ << " differ in shape";
}

/*! \brief 3-D gradient: dst[n][k][x] = src[n][k][x] - target(k == label[n][x]). */
template <typename DType>
inline void OneHotGrad3(const Tensor<cpu, 3, DType>& dst, const Tensor<cpu, 3, DType>& src,
                        const std::vector<index_t>& label, DType on_value, DType off_value) {
  const index_t N = src.size(0), K = src.size(1), X = src.size(2);
  ParallelFor(0, N * K, std::max<index_t>(1, kernel::kMapGrain / std::max<index_t>(X, 1)),
              [&](index_t b, index_t e) {
                for (index_t r = b; r < e; ++r) {
                  const index_t n = r / K, k = r % K;
                  DType* d = dst.dptr_ + r * dst.stride_;
                  const DType* s = src.dptr_ + r * src.stride_;
                  const index_t* l = label.data() + n * X;
                  for (index_t x = 0; x < X; ++x) {
                    d[x] = l[x] < 0 ? DType(0) : DType(s[x] - (l[x] == k ? on_value : off_value));
                  }
                }
              });
}
}  // namespace detail
}  // namespace expr

// mshadow declares these in its top namespace; so does shade (the compat header then finds them).

/*! \brief Row-wise softmax of a matrix: dst[y] = exp(e[y] - max) / sum. */
template <typename DType>
inline void Softmax(Tensor<cpu, 2, DType> dst, const Tensor<cpu, 2, DType>& energy) {
  static_assert(std::is_floating_point<DType>::value, "Softmax: DType must be float or double");
  expr::detail::CheckSameShape2(dst, energy, "Softmax");
  const index_t rows = energy.size(0), cols = energy.size(1);
  ParallelFor(0, rows, expr::detail::SoftmaxGrain(cols), [&](index_t b, index_t e) {
    for (index_t y = b; y < e; ++y) {
      expr::detail::SoftmaxRun(cols, dst.dptr_ + y * dst.stride_,
                               energy.dptr_ + y * energy.stride_);
    }
  });
}

/*! \brief Softmax over dimension 1 of an (n, k, x) tensor (per sample n and position x). */
template <typename DType>
inline void Softmax(Tensor<cpu, 3, DType> dst, const Tensor<cpu, 3, DType>& energy) {
  static_assert(std::is_floating_point<DType>::value, "Softmax: DType must be float or double");
  expr::detail::CheckSameShape3(dst, energy, "Softmax");
  const index_t N = energy.size(0), K = energy.size(1), X = energy.size(2);
  if (X == 0 || K == 0) return;
  ParallelFor(
      0, N, std::max<index_t>(1, kernel::kMathGrain / std::max<index_t>(K * X, 1)),
      [&](index_t b, index_t e) {
        std::vector<DType> mx(static_cast<size_t>(X)), sum(static_cast<size_t>(X));
        for (index_t n = b; n < e; ++n) {
          const DType* s = energy.dptr_ + n * K * energy.stride_;
          DType* d = dst.dptr_ + n * K * dst.stride_;
          kernel::ReduceRows<kernel::red::maximum>(K, X, s, energy.stride_, mx.data());
          for (index_t k = 0; k < K; ++k) {
            DType* dr = d + k * dst.stride_;
            kernel::MapRun<kernel::sv::saveto, op::minus>(X, dr, s + k * energy.stride_,
                                                          static_cast<const DType*>(mx.data()));
            kernel::MapRun<kernel::sv::saveto, op::exp>(X, dr, static_cast<const DType*>(dr));
          }
          kernel::ReduceRows<kernel::red::sum>(K, X, static_cast<const DType*>(d), dst.stride_,
                                               sum.data());
          for (index_t k = 0; k < K; ++k) {
            DType* dr = d + k * dst.stride_;
            kernel::MapRun<kernel::sv::saveto, op::div>(X, dr, static_cast<const DType*>(dr),
                                                        static_cast<const DType*>(sum.data()));
          }
        }
      });
}

/*! \brief Cross-entropy gradient of a row-wise softmax: dst = src - one_hot(label). */
template <typename DType, typename LType>
inline void SoftmaxGrad(Tensor<cpu, 2, DType> dst, const Tensor<cpu, 2, DType>& src,
                        const Tensor<cpu, 1, LType>& label) {
  expr::detail::CheckSameShape2(dst, src, "SoftmaxGrad");
  SHADE_CHECK_SHAPE_EQ(label.size(0), src.size(0))
      << "SoftmaxGrad: one label per row of " << src.shape_;
  const auto l = expr::detail::CheckLabels(label, src.size(1), false, 0.0, "SoftmaxGrad");
  expr::detail::OneHotGradRows(src.size(0), src.size(1), dst.dptr_, dst.stride_, src.dptr_,
                               src.stride_, l, DType(1), DType(0));
}
/*! \brief As SoftmaxGrad; rows whose label equals ignore_label get a zero gradient. */
template <typename DType, typename LType>
inline void SoftmaxGrad(Tensor<cpu, 2, DType> dst, const Tensor<cpu, 2, DType>& src,
                        const Tensor<cpu, 1, LType>& label, const LType& ignore_label) {
  expr::detail::CheckSameShape2(dst, src, "SoftmaxGrad");
  SHADE_CHECK_SHAPE_EQ(label.size(0), src.size(0))
      << "SoftmaxGrad: one label per row of " << src.shape_;
  const auto l = expr::detail::CheckLabels(label, src.size(1), true,
                                           static_cast<double>(ignore_label), "SoftmaxGrad");
  expr::detail::OneHotGradRows(src.size(0), src.size(1), dst.dptr_, dst.stride_, src.dptr_,
                               src.stride_, l, DType(1), DType(0));
}
/*! \brief Gradient of the 3-D softmax: dst[n][k][x] = src[n][k][x] - (k == label[n][x]). */
template <typename DType, typename LType>
inline void SoftmaxGrad(Tensor<cpu, 3, DType> dst, const Tensor<cpu, 3, DType>& src,
                        const Tensor<cpu, 2, LType>& label) {
  expr::detail::CheckSameShape3(dst, src, "SoftmaxGrad");
  SHADE_CHECK_SHAPE(label.size(0) == src.size(0) && label.size(1) == src.size(2))
      << "SoftmaxGrad: label shape " << label.shape_ << " does not match (n, x) of " << src.shape_;
  const auto l = expr::detail::CheckLabels(label, src.size(1), false, 0.0, "SoftmaxGrad");
  expr::detail::OneHotGrad3(dst, src, l, DType(1), DType(0));
}
/*! \brief As the 3-D SoftmaxGrad; positions labelled ignore_label get a zero gradient. */
template <typename DType, typename LType>
inline void SoftmaxGrad(Tensor<cpu, 3, DType> dst, const Tensor<cpu, 3, DType>& src,
                        const Tensor<cpu, 2, LType>& label, const LType& ignore_label) {
  expr::detail::CheckSameShape3(dst, src, "SoftmaxGrad");
  SHADE_CHECK_SHAPE(label.size(0) == src.size(0) && label.size(1) == src.size(2))
      << "SoftmaxGrad: label shape " << label.shape_ << " does not match (n, x) of " << src.shape_;
  const auto l = expr::detail::CheckLabels(label, src.size(1), true,
                                           static_cast<double>(ignore_label), "SoftmaxGrad");
  expr::detail::OneHotGrad3(dst, src, l, DType(1), DType(0));
}

/*!
 * \brief Label-smoothed gradient: the target is 1 - alpha at the label and alpha / (k - 1)
 *  elsewhere (k classes; alpha in [0, 1]).
 */
template <typename DType, typename LType>
inline void SmoothSoftmaxGrad(Tensor<cpu, 2, DType> dst, const Tensor<cpu, 2, DType>& src,
                              const Tensor<cpu, 1, LType>& label, const float alpha) {
  expr::detail::CheckSameShape2(dst, src, "SmoothSoftmaxGrad");
  SHADE_CHECK_SHAPE_EQ(label.size(0), src.size(0))
      << "SmoothSoftmaxGrad: one label per row of " << src.shape_;
  SHADE_CHECK(alpha >= 0 && alpha <= 1)
      << "SmoothSoftmaxGrad: alpha " << alpha << " outside [0, 1]";
  const index_t k = src.size(1);
  SHADE_CHECK(k >= 2 || alpha == 0) << "SmoothSoftmaxGrad: smoothing needs at least 2 classes";
  const auto l = expr::detail::CheckLabels(label, k, false, 0.0, "SmoothSoftmaxGrad");
  const DType off = k >= 2 ? DType(alpha / float(k - 1)) : DType(0);
  expr::detail::OneHotGradRows(src.size(0), k, dst.dptr_, dst.stride_, src.dptr_, src.stride_, l,
                               DType(1.0f - alpha), off);
}

}  // namespace shade

#endif  // SHADE_EXPR_EXT_SOFTMAX_H_
