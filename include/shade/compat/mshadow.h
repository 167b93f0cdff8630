/*!
 * \file mshadow.h
 * \brief mshadow source compatibility: programs written for mshadow's public CPU API compile
 *  unchanged but for including this header instead of <mshadow/tensor.h>.
 *
 * `mshadow::` and `mshadow::expr::` name shade's entities (Tensor, Shape, TensorContainer,
 * NewTensor, FreeSpace, Copy, dot, F, tcast, scalar, op::, red::, sv::, TBlob, TShape, ...);
 * this header and mshadow_base.h, mshadow_complex.h and mshadow_logging.h add the rest of
 * mshadow's public CPU names (docs/compat.md lists every name with its status).
 * Differences a port may notice: index_t is signed 64-bit, and failed checks throw
 * shade::Error instead of aborting.
 */
#ifndef SHADE_COMPAT_MSHADOW_H_
#define SHADE_COMPAT_MSHADOW_H_

#include <cmath>
#include <cstddef>
// mshadow's tensor.h brings in <iostream>; programs written for it use std::cout unqualified
// of any include of their own.
#include <algorithm>
#include <iostream>
#include <vector>

#include "shade/backend/cpu/blas.h"
#include "shade/base/device.h"
#include "shade/base/dtype.h"
#include "shade/base/half.h"
#include "shade/base/index.h"
#include "shade/compat/mshadow_base.h"
#include "shade/compat/mshadow_complex.h"
#include "shade/compat/mshadow_packet.h"
#include "shade/expr/expression.h"
#include "shade/shape/shape.h"
#include "shade/shape/tshape.h"
#include "shade/tensor/stream.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_blob.h"
#include "shade/tensor/tensor_cpu.h"
// Extensions and Random (mshadow::expr::broadcast, pool, ..., mshadow::Softmax, mshadow::Random):
// the using-directives below bring their names in.
#include "shade/expr/ext/extension.h"
// mshadow's tensor.h includes io.h: SaveBinary / LoadBinary on any stream.
#include "shade/io/binary.h"
#include "shade/memory/alloc.h"
#include "shade/random/random.h"
// mshadow's gpu API (Tensor<gpu>, NewTensor<gpu>, Copy, streams) in a CUDA build; expression
// evaluation on gpu tensors in .cu sources (tensor_gpu.cuh needs nvcc). docs/gpu.md.
#if defined(SHADE_WITH_CUDA) && SHADE_WITH_CUDA
#include "shade/tensor/tensor_gpu.h"
#if defined(__CUDACC__)
#include "shade/tensor/tensor_gpu.cuh"
#endif
/*! \brief mshadow's checked CUDA runtime call; a failure throws shade::Error naming the call. */
#define MSHADOW_CUDA_CALL(func) SHADE_CUDA_CALL(func)
#endif

namespace shade {
namespace expr {
/*!
 * \brief mshadow's transpose_indices node: maps flat indices into a tensor of shape src_shape to
 *  the flat indices of the same elements after `transpose(tensor, axes)`. Its shape is that of
 *  the index expression.
 */
template <typename SrcExp, typename DType, int dimsrc, int etype>
struct TransposeIndicesExp : public MakeTensorExp<TransposeIndicesExp<SrcExp, DType, dimsrc, etype>,
                                                  SrcExp, ExpInfo<SrcExp>::kDim, DType> {
  /*! \brief The source indices. */
  SrcExp src_indices_;
  /*! \brief Shape of the tensor the indices point into. */
  Shape<dimsrc> src_shape_;
  /*! \brief The transpose axes. */
  Shape<dimsrc> axes_;
  /*! \brief For each source axis, its stride in the transposed tensor. */
  Shape<dimsrc> src_in_dst_stride_;
  /*! \brief Checks that axes is a permutation of 0..dimsrc-1 (mshadow's message) and that
   *  src_shape has no zero extent while there are indices to map (the mapping divides by it). */
  TransposeIndicesExp(const SrcExp& src_indices, Shape<dimsrc> src_shape, Shape<dimsrc> axes)
      : src_indices_(src_indices), src_shape_(src_shape), axes_(axes) {
    this->shape_ = detail::SourceShape<ExpInfo<SrcExp>::kDim>(src_indices_, "transpose_indices");
    bool seen[dimsrc] = {};
    Shape<dimsrc> dst_shape, dst_stride;
    for (int i = 0; i < dimsrc; ++i) {
      SHADE_CHECK(axes[i] >= 0 && axes[i] < dimsrc && !seen[axes[i]])
          << "Invalid axes input! All elements of axes must be between 0 and " << dimsrc
          << ", find axes=" << axes;
      seen[axes[i]] = true;
      dst_shape[i] = src_shape[axes[i]];
    }
    for (int i = 0; i < dimsrc; ++i) {
      SHADE_CHECK(src_shape[i] > 0 || this->shape_.Size() == 0)
          << "transpose_indices: src_shape " << src_shape << " has an empty extent";
    }
    dst_stride[dimsrc - 1] = 1;
    for (int i = dimsrc - 2; i >= 0; --i) dst_stride[i] = dst_shape[i + 1] * dst_stride[i + 1];
    for (int i = 0; i < dimsrc; ++i) src_in_dst_stride_[axes[i]] = dst_stride[i];
  }
};
/*!
 * \brief mshadow's node of broadcast_multi_axes / broadcast_to: shade's broadcast node with equal
 *  source and result ranks (so the same type as broadcast_keepdim's, which mshadow keeps
 *  apart). Build it through those functions.
 */
template <typename SrcExp, typename DType, int dimsrc>
using BroadcastWithMultiAxesExp = BroadcastWithAxisExp<SrcExp, DType, dimsrc, dimsrc>;
/*! \brief mshadow's node of mirror: shade's flip of the last dimension (`MirroringExp(src)`
 *  builds it, as in mshadow). */
template <typename SrcExp, typename DType, int srcdim>
using MirroringExp = FlipExp<SrcExp, DType, srcdim>;
/*!
 * \brief mshadow's node of swapaxis<a1, a2>: shade's permutation node, whose axes are chosen at
 *  run time, so m_a1 and a2 do not tell types apart. Build it through swapaxis.
 */
template <typename SrcExp, typename DType, int dimsrc, int m_a1, int a2>
using SwapAxisExp = TransposeExExp<SrcExp, DType, dimsrc>;
/*! \brief `transpose_indices(idx, src_shape, axes)` (mshadow's extension/transpose.h). */
template <typename SrcExp, typename DType, int dimsrc, int etype>
inline TransposeIndicesExp<SrcExp, DType, dimsrc, etype> transpose_indices(
    const Exp<SrcExp, DType, etype>& src_indices, Shape<dimsrc> src_shape, Shape<dimsrc> axes) {
  static_assert(ExpInfo<SrcExp>::kDim >= 1,
                "transpose_indices: the indices must be a tensor expression");
  return TransposeIndicesExp<SrcExp, DType, dimsrc, etype>(src_indices.self(), src_shape, axes);
}
/*! \brief Evaluates one mapped index (mshadow's arithmetic, digit by digit from the last axis). */
template <typename SrcExp, typename DType, int dimsrc, int etype>
class Plan<TransposeIndicesExp<SrcExp, DType, dimsrc, etype>, DType> {
 public:
  /*! \brief Builds the index plan and copies the stride arithmetic. */
  explicit Plan(const TransposeIndicesExp<SrcExp, DType, dimsrc, etype>& e)
      : src_indices_(MakePlan(e.src_indices_)),
        src_in_dst_stride_(e.src_in_dst_stride_),
        src_shape_(e.src_shape_) {}
  /*! \brief The transposed flat index of source index (y, x). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    index_t src_idx = static_cast<index_t>(src_indices_.Eval(y, x));
    index_t dst_idx = 0;
    for (int k = dimsrc - 1; k >= 0; --k) {
      dst_idx += (src_idx % src_shape_[k]) * src_in_dst_stride_[k];
      src_idx /= src_shape_[k];
    }
    return static_cast<DType>(dst_idx);
  }

 private:
  Plan<SrcExp, DType> src_indices_;
  Shape<dimsrc> src_in_dst_stride_, src_shape_;
};
}  // namespace expr
}  // namespace shade

namespace mshadow {
using namespace shade;  // NOLINT(build/namespaces): the whole point is to alias the namespace
/*! \brief mshadow's expression namespace. */
namespace expr {
using namespace shade::expr;  // NOLINT(build/namespaces)
}  // namespace expr
/*!
 * \brief Bytes per element of one of mshadow's seven dtype flags (base.h); another flag throws
 *  shade::Error where mshadow aborts.
 */
inline std::size_t mshadow_sizeof(int type) {
  std::size_t size = 0;
  MSHADOW_TYPE_SWITCH(type, DType, size = sizeof(DType););
  return size;
}
/*!
 * \brief Gradient of take (mshadow's tensor_cpu-inl.h): `dst[j] += src[y]` for each y, with
 *  j = index[y] clipped to [0, dst rows). Throws on a shape mismatch or an empty dst.
 */
template <typename IndexType, typename DType>
inline void AddTakeGrad(Tensor<cpu, 2, DType> dst, const Tensor<cpu, 1, IndexType>& index,
                        const Tensor<cpu, 2, DType>& src) {
  const index_t rows = dst.size(0);
  SHADE_CHECK(rows > 0 || index.size(0) == 0) << "AddTakeGrad: dst has no rows";
  SHADE_CHECK_EQ(src.size(0), index.size(0)) << "AddTakeGrad: src rows vs index length";
  SHADE_CHECK_EQ(src.size(1), dst.size(1)) << "AddTakeGrad: src and dst row lengths differ";
  for (index_t y = 0; y < index.size(0); ++y) {
    index_t j = static_cast<index_t>(index[y]);
    j = j <= 0 ? 0 : (j >= rows ? rows - 1 : j);
    for (index_t k = 0; k < dst.size(1); ++k) dst[j][k] += src[y][k];
  }
}
/*! \brief `dst[sorted[y]] += src[index[y]]` for each y (indices checked, not clipped). */
template <typename IndexType, typename DType>
inline void AddTakeGradLargeBatch(Tensor<cpu, 2, DType> dst,
                                  const Tensor<cpu, 1, IndexType>& sorted,
                                  const Tensor<cpu, 1, IndexType>& index,
                                  const Tensor<cpu, 2, DType>& src) {
  SHADE_CHECK_EQ(sorted.size(0), index.size(0)) << "AddTakeGradLargeBatch: sorted vs index length";
  SHADE_CHECK_EQ(src.size(1), dst.size(1)) << "AddTakeGradLargeBatch: row lengths differ";
  for (index_t y = 0; y < sorted.size(0); ++y) {
    const index_t d = static_cast<index_t>(sorted[y]), s = static_cast<index_t>(index[y]);
    SHADE_CHECK(d >= 0 && d < dst.size(0)) << "AddTakeGradLargeBatch: sorted[" << y << "] = " << d
                                           << " outside dst's " << dst.size(0) << " rows";
    SHADE_CHECK(s >= 0 && s < src.size(0)) << "AddTakeGradLargeBatch: index[" << y << "] = " << s
                                           << " outside src's " << src.size(0) << " rows";
    for (index_t k = 0; k < dst.size(1); ++k) dst[d][k] += src[s][k];
  }
}
/*! \brief `dst[index[y]] = src[y]` for each y (indices checked). */
template <typename IndexType, typename DType>
inline void IndexFill(Tensor<cpu, 2, DType> dst, const Tensor<cpu, 1, IndexType>& index,
                      const Tensor<cpu, 2, DType>& src) {
  SHADE_CHECK_EQ(src.size(0), index.size(0)) << "IndexFill: src rows vs index length";
  SHADE_CHECK_LE(src.size(1), dst.size(1)) << "IndexFill: src rows are longer than dst's";
  for (index_t y = 0; y < index.size(0); ++y) {
    const index_t d = static_cast<index_t>(index[y]);
    SHADE_CHECK(d >= 0 && d < dst.size(0))
        << "IndexFill: index[" << y << "] = " << d << " outside dst's " << dst.size(0) << " rows";
    for (index_t j = 0; j < src.size(1); ++j) dst[d][j] = src[y][j];
  }
}
/*! \brief Stable sort of `keys` with `values` permuted alike (mshadow's SortByKey). */
template <typename KDType, typename VDType>
inline void SortByKey(Tensor<cpu, 1, KDType> keys, Tensor<cpu, 1, VDType> values,
                      bool is_ascend = true) {
  SHADE_CHECK_SHAPE_EQ(keys.size(0), values.size(0))
      << "The sizes of key/value are not equal! keys_size: " << keys.size(0)
      << "values_size: " << values.size(0);
  const std::size_t n = static_cast<std::size_t>(keys.size(0));
  std::vector<std::size_t> idx(n);
  std::vector<KDType> k(n);
  std::vector<VDType> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    idx[i] = i;
    k[i] = keys[static_cast<index_t>(i)];
    v[i] = values[static_cast<index_t>(i)];
  }
  if (is_ascend) {
    std::stable_sort(idx.begin(), idx.end(),
                     [&k](std::size_t a, std::size_t b) { return k[a] < k[b]; });
  } else {
    std::stable_sort(idx.begin(), idx.end(),
                     [&k](std::size_t a, std::size_t b) { return k[a] > k[b]; });
  }
  for (std::size_t i = 0; i < n; ++i) {
    keys[static_cast<index_t>(i)] = k[idx[i]];
    values[static_cast<index_t>(i)] = v[idx[i]];
  }
}
/*! \brief Sorts `values` within segments (mshadow: two stable SortByKey passes). */
template <typename VDType, typename SDType>
inline void VectorizedSort(Tensor<cpu, 1, VDType> values, Tensor<cpu, 1, SDType> segments) {
  SortByKey(values, segments, true);
  SortByKey(segments, values, true);
}
namespace expr {
/*!
 * \brief Number of elements of range(start, stop, step, repeat), computed as mshadow's
 *  extension/range.h does: integers `repeat * ((stop - start - 1) / step + 1)`, floating
 *  point `repeat * ceil((stop - start) / step)` in double.
 */
template <typename DType>
inline int RangeOutSize(DType start, DType stop, DType step, int repeat) {
  if constexpr (std::is_floating_point<DType>::value) {
    return repeat *
           static_cast<int>(std::ceil((static_cast<double>(stop) - static_cast<double>(start)) /
                                      static_cast<double>(step)));
  } else {
    return repeat * static_cast<int>((stop - start - 1) / step + 1);
  }
}
}  // namespace expr
/*!
 * \brief Host memory for a tensor (mshadow: pinned memory on a GPU build, aligned memory
 *  otherwise). Returns nullptr for 0 bytes; throws shade::Error when allocation fails.
 */
template <typename Device>
inline void* AllocHost_(size_t size) {
  static_assert(std::is_same<Device, cpu>::value, "AllocHost_: only cpu memory exists in shade");
  if (size == 0) return nullptr;
  return shade::AlignedAlloc(size);
}
/*! \brief Frees memory from AllocHost_. */
template <typename Device>
inline void FreeHost_(void* dptr) {
  static_assert(std::is_same<Device, cpu>::value, "FreeHost_: only cpu memory exists in shade");
  shade::AlignedFree(dptr);
}
/*!
 * \brief Allocates a contiguous (unpadded) host tensor: stride_ becomes the last extent, as in
 *  mshadow. Free it with FreeHost.
 */
template <typename Device, int dim, typename DType>
inline void AllocHost(Tensor<cpu, dim, DType>* obj) {
  obj->stride_ = obj->size(dim - 1);
  const index_t total = CheckedProduct(obj->shape_.shape_, dim, "AllocHost: tensor size");
  const index_t bytes = CheckedMul(total, static_cast<index_t>(sizeof(DType)), "AllocHost: bytes");
  obj->dptr_ = static_cast<DType*>(AllocHost_<Device>(static_cast<size_t>(bytes)));
}
/*! \brief Frees a tensor from AllocHost; a null dptr_ throws "FreeHost:: double free". */
template <typename Device, int dim, typename DType>
inline void FreeHost(Tensor<cpu, dim, DType>* obj) {
  SHADE_CHECK(obj->dptr_ != nullptr) << "FreeHost:: double free";
  FreeHost_<Device>(obj->dptr_);
  obj->dptr_ = nullptr;
}
/*!
 * \brief `dst[x] saver= scale * reduce_y exp[y][x]` with exp seen as 2-D (its shape flattened to
 *  2-D, the last dimension kept), as mshadow's MapReduceKeepLowest: each column folds from its
 *  first row (not from the reducer's initial value), so an empty reduction throws "can not
 *  reduce over empty tensor" (mshadow: the same check).
 */
template <typename Saver, typename Reducer, typename R, typename DType, typename E, int etype>
inline void MapReduceKeepLowest(TRValue<R, cpu, 1, DType>* dst,
                                const expr::Exp<E, DType, etype>& exp, DType scale = 1) {
  constexpr int kDim = expr::ExpInfo<E>::kDim;
  static_assert(kDim >= 1, "MapReduceKeepLowest: the expression must be a tensor expression");
  const Shape<2> eshape = expr::ShapeCheck<kDim, E>::Check(exp.self()).FlatTo2D();
  Tensor<cpu, 1, DType> out = dst->self();
  SHADE_CHECK_EQ(eshape[1], out.size(0)) << "MapReduceKeepLowest::reduction dimension do not match";
  SHADE_CHECK(eshape[0] != 0 || eshape[1] == 0) << "can not reduce over empty tensor";
  const expr::Plan<E, DType> plan = expr::MakePlan(exp.self());
  for (index_t x = 0; x < eshape[1]; ++x) {
    DType res = plan.Eval(0, x);
    for (index_t y = 1; y < eshape[0]; ++y) Reducer::Reduce(res, plan.Eval(y, x));
    Saver::template Save<DType>(out[x], DType(res * scale));
  }
}
/*!
 * \brief `dst[c] saver= scale * reduce over all but dimension dimkeep of exp` (mshadow's
 *  MapReduceKeepHighDim): each output starts from the reducer's initial value, so an empty
 *  reduction gives it (for maximum/minimum -FLT_MAX/FLT_MAX, as in mshadow).
 */
template <typename Saver, typename Reducer, int dimkeep, typename R, typename DType, typename E,
          int etype>
inline void MapReduceKeepHighDim(TRValue<R, cpu, 1, DType>* dst,
                                 const expr::Exp<E, DType, etype>& exp, DType scale = 1) {
  constexpr int kDim = expr::ExpInfo<E>::kDim;
  static_assert(dimkeep >= 0 && dimkeep < kDim, "MapReduceKeepHighDim: dimkeep outside the rank");
  const Shape<kDim> eshape = expr::ShapeCheck<kDim, E>::Check(exp.self());
  Tensor<cpu, 1, DType> out = dst->self();
  SHADE_CHECK_EQ(eshape[dimkeep], out.size(0))
      << "MapReduceKeepHighDim::reduction dimension do not match";
  // The expression as (outer, kept, middle, last); the plan's rows are (outer, kept, middle).
  // Keeping the last dimension (mshadow reads past its rows there) reduces the rows instead.
  constexpr bool kKeepLast = dimkeep == kDim - 1;
  const index_t outer = eshape.ProdShape(0, dimkeep), kept = eshape[dimkeep];
  const index_t middle = kKeepLast ? 1 : eshape.ProdShape(dimkeep + 1, kDim - 1);
  const index_t last = kKeepLast ? 1 : eshape[kDim - 1];
  const expr::Plan<E, DType> plan = expr::MakePlan(exp.self());
  for (index_t c = 0; c < kept; ++c) {
    DType res;
    Reducer::SetInitValue(res);
    for (index_t n = 0; n < outer; ++n) {
      DType part;
      Reducer::SetInitValue(part);
      for (index_t y = 0; y < middle; ++y) {
        for (index_t x = 0; x < last; ++x) {
          Reducer::Reduce(part,
                          kKeepLast ? plan.Eval(n, c) : plan.Eval((n * kept + c) * middle + y, x));
        }
      }
      Reducer::Reduce(res, part);
    }
    Saver::template Save<DType>(out[c], DType(res * scale));
  }
}
/*! \brief `dst[i] = src + i * stride` for i < num (dot_engine-inl.h's CPU form). */
template <typename DType>
inline void GetBatchedView(DType** dst, DType* src, int num, int stride, Stream<cpu>* /*stream*/) {
  SHADE_CHECK_GE(num, 0) << "GetBatchedView: negative count";
  for (int i = 0; i < num; i++) dst[i] = src + static_cast<std::ptrdiff_t>(i) * stride;
}
/*! \brief Runs `dst saver= exp` (mshadow's MapExp; shade's element loop). */
using shade::expr::MapExp;
namespace expr {
/*! \brief mshadow's compile-time type-check gate: only `TypeCheckPass<true>` has the members. */
template <bool kPass>
struct TypeCheckPass;
/*! \brief A failed check: no members, so the Error_ call does not compile (as in mshadow). */
template <>
struct TypeCheckPass<false> {};
/*! \brief A passed check: the Error_ functions exist and do nothing. */
template <>
struct TypeCheckPass<true> {
  /*! \brief Nothing: the operands' types agree. */
  static void Error_All_Tensor_in_Exp_Must_Have_Same_Type() {}
  /*! \brief Nothing: the reduction is well formed. */
  static void Error_TypeCheck_Not_Pass_For_Reduce_Exp() {}
  /*! \brief Nothing: the dimensions suit. */
  static void Error_Expression_Does_Not_Meet_Dimension_Req() {}
};
/*! \brief The stream of an expression: a tensor's stream_, nullptr for anything else. */
template <typename Device, typename E>
struct StreamInfo {
  /*! \brief nullptr (mshadow declares it without a definition for non-tensors). */
  static Stream<Device>* Get(const E& /*t*/) { return nullptr; }
};
/*! \brief A tensor's stream. */
template <int dim, typename Device, typename DType>
struct StreamInfo<Device, Tensor<Device, dim, DType>> {
  /*! \brief t.stream_. */
  static Stream<Device>* Get(const Tensor<Device, dim, DType>& t) { return t.stream_; }
};

/*!
 * \brief mshadow's BLAS wrapper: column-major gemm, gemv, ger, dot and batched forms, as in its
 *  CBLAS build (alpha and beta honoured), over shade's BLAS layer for float and double.
 *  Arguments are checked (BLAS would call xerbla); GetT returns the flag unchanged as in
 *  mshadow's stand-alone build. Only cpu exists.
 */
template <typename Device, typename DType = default_real_t>
struct BLASEngine {
  static_assert(std::is_same<Device, cpu>::value && shade::blas::kSupported<DType>,
                "BLASEngine: shade has cpu float and double");
  /*! \brief The transpose flag. */
  static bool GetT(bool t) { return t; }
  /*! \brief Nothing to bind on the CPU. */
  static void SetStream(Stream<Device>* /*stream*/) {}
  /*! \brief C = alpha * op(A) * op(B) + beta * C, column-major, C m x n. */
  static void gemm(Stream<Device>* /*stream*/, bool transa, bool transb, int m, int n, int k,
                   DType alpha, const DType* A, int lda, const DType* B, int ldb, DType beta,
                   DType* C, int ldc) {
    CheckGemm(transa, transb, m, n, k, lda, ldb, ldc);
    // Column-major C is row-major C^T = op(B)^T op(A)^T.
    shade::blas::Gemm<DType>(transb, transa, n, m, k, alpha, B, ldb, A, lda, beta, C, ldc);
  }
  /*! \brief batch_count gemm calls on operands m*k, k*n and m*n elements apart. */
  static void batched_gemm(Stream<Device>* stream, bool transa, bool transb, int m, int n, int k,
                           DType alpha, const DType* A, int lda, const DType* B, int ldb,
                           DType beta, DType* C, int ldc, int batch_count,
                           DType** /*workspace*/ = nullptr) {
    SHADE_CHECK_GE(batch_count, 0) << "BLASEngine::batched_gemm: negative batch_count";
    CheckGemm(transa, transb, m, n, k, lda, ldb, ldc);
    if (batch_count == 0) return;
    (void)stream;
    shade::blas::BatchGemm<DType>(transb, transa, batch_count, n, m, k, alpha, B, ldb,
                                  index_t{k} * n, A, lda, index_t{m} * k, beta, C, ldc,
                                  index_t{m} * n);
  }
  /*! \brief Y = alpha * op(A) * X + beta * Y, A m x n column-major. */
  static void gemv(Stream<Device>* /*stream*/, bool trans, int m, int n, DType alpha,
                   const DType* A, int lda, const DType* X, int incX, DType beta, DType* Y,
                   int incY) {
    SHADE_CHECK(m >= 0 && n >= 0 && lda >= std::max(1, m) && incX != 0 && incY != 0)
        << "BLASEngine::gemv: bad sizes m=" << m << " n=" << n << " lda=" << lda << " incX=" << incX
        << " incY=" << incY;
    shade::blas::Gemv<DType>(!trans, n, m, alpha, A, lda, X, incX, beta, Y, incY);
  }
  /*! \brief batch_count gemv calls (A m*n apart, X and Y by their lengths times inc). */
  static void batched_gemv(Stream<Device>* stream, bool trans, int m, int n, DType alpha,
                           const DType* A, int lda, const DType* X, int incX, DType beta, DType* Y,
                           int incY, int batch_count) {
    for (int i = 0; i < batch_count; ++i) {
      gemv(stream, trans, m, n, alpha, A + index_t{i} * m * n, lda,
           X + index_t{i} * (trans ? m : n) * incX, incX, beta,
           Y + index_t{i} * (trans ? n : m) * incY, incY);
    }
  }
  /*! \brief A += alpha * X * Y^T, A m x n column-major. */
  static void ger(Stream<Device>* /*stream*/, int m, int n, DType alpha, const DType* X, int incX,
                  const DType* Y, int incY, DType* A, int lda) {
    SHADE_CHECK(m >= 0 && n >= 0 && lda >= std::max(1, m) && incX != 0 && incY != 0)
        << "BLASEngine::ger: bad sizes m=" << m << " n=" << n << " lda=" << lda;
    shade::blas::Ger<DType>(n, m, alpha, Y, incY, X, incX, A, lda);
  }
  /*! \brief batch_count ger calls (A lda*n apart, X m*incX, Y n*incY). */
  static void batched_ger(Stream<Device>* stream, int m, int n, DType alpha, const DType* X,
                          int incX, const DType* Y, int incY, DType* A, int lda, int batch_count) {
    for (int i = 0; i < batch_count; ++i) {
      ger(stream, m, n, alpha, X + index_t{i} * m * incX, incX, Y + index_t{i} * n * incY, incY,
          A + index_t{i} * lda * n, lda);
    }
  }
  /*! \brief *ret = sum of X[i*incX] * Y[i*incY] for i < n. */
  static void dot(Stream<Device>* /*stream*/, int n, const DType* X, int incX, const DType* Y,
                  int incY, DType* ret) {
    DType sum = 0;
    for (int i = 0; i < n; ++i) sum += X[index_t{i} * incX] * Y[index_t{i} * incY];
    *ret = sum;
  }

 private:
  static void CheckGemm(bool transa, bool transb, int m, int n, int k, int lda, int ldb, int ldc) {
    SHADE_CHECK(m >= 0 && n >= 0 && k >= 0)
        << "BLASEngine::gemm: negative size m=" << m << " n=" << n << " k=" << k;
    SHADE_CHECK(lda >= std::max(1, transa ? k : m) && ldb >= std::max(1, transb ? n : k) &&
                ldc >= std::max(1, m))
        << "BLASEngine::gemm: leading dimensions too small: lda=" << lda << " ldb=" << ldb
        << " ldc=" << ldc << " for m=" << m << " n=" << n << " k=" << k;
  }
};
}  // namespace expr
/*! \brief mshadow's stream interface (io.h): any stream class with Read and Write. */
namespace utils {
/*! \brief Abstract stream with mshadow's two virtual members. */
class IStream {
 public:
  /*! \brief Reads up to size bytes into ptr; returns the count read. */
  virtual size_t Read(void* ptr, size_t size) = 0;
  /*! \brief Writes size bytes from ptr. */
  virtual void Write(const void* ptr, size_t size) = 0;
  /*! \brief Virtual destructor. */
  virtual ~IStream() {}
};
}  // namespace utils
}  // namespace mshadow

/*! \brief Inline on host and device (mshadow's name). */
#define MSHADOW_XINLINE SHADE_XINLINE
/*! \brief Inline on the CPU (mshadow's name). */
#define MSHADOW_CINLINE SHADE_CINLINE
/*! \brief Default element type of Tensor (mshadow's name). */
#define MSHADOW_DEFAULT_DTYPE ::shade::default_real_t

// Last, so that no shade header sees the CHECK / LOG macros.
#include "shade/compat/mshadow_logging.h"

#endif  // SHADE_COMPAT_MSHADOW_H_
