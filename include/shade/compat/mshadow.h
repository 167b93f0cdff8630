/*!
 * \file mshadow.h
 * \brief mshadow source compatibility: programs written for mshadow's public CPU API compile
 *  unchanged but for including this header instead of <mshadow/tensor.h>.
 *
 * `mshadow::` and `mshadow::expr::` name shade's entities (Tensor, Shape, TensorContainer,
 * NewTensor, FreeSpace, Copy, dot, F, tcast, scalar, op::, red::, sv::, TBlob, TShape, ...).
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

#include "shade/base/device.h"
#include "shade/base/dtype.h"
#include "shade/base/half.h"
#include "shade/base/index.h"
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
#include "shade/random/random.h"

namespace mshadow {
using namespace shade;  // NOLINT(build/namespaces): the whole point is to alias the namespace
/*! \brief mshadow's expression namespace. */
namespace expr {
using namespace shade::expr;  // NOLINT(build/namespaces)
}  // namespace expr
/*!
 * \brief Bytes per element of a runtime dtype flag (mshadow's base.h); an unknown flag throws
 *  shade::Error where mshadow aborts.
 */
inline std::size_t mshadow_sizeof(int type) {
  return shade::TypeFlagSize(type);
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
/*! \brief mshadow's 16-bit float namespace. */
namespace half {
using shade::half_t;
}  // namespace half
}  // namespace mshadow

/*! \brief Inline on host and device (mshadow's name). */
#define MSHADOW_XINLINE SHADE_XINLINE
/*! \brief Inline on the CPU (mshadow's name). */
#define MSHADOW_CINLINE SHADE_CINLINE
/*! \brief Default element type of Tensor (mshadow's name). */
#define MSHADOW_DEFAULT_DTYPE ::shade::default_real_t
/*! \brief Runs the body with DType bound to the C++ type of a runtime dtype flag. */
#define MSHADOW_TYPE_SWITCH(type, DType, ...) SHADE_TYPE_SWITCH(type, DType, __VA_ARGS__)

#endif  // SHADE_COMPAT_MSHADOW_H_
