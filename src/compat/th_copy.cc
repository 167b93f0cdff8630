// THTensor copies between the TH real types (shade/compat/th.h's CopyOps, compiled once for
// each destination type) and TH_TENSOR_APPLY2/3's size check.
#include "shade/compat/th.h"

namespace shade {
namespace th {
namespace {

// TH's element-wise copy (each tensor in its own row-major order); one body for every pair.
template <typename D, typename S>
void CopyImpl(Tensor<D>* dst, const Tensor<S>* src) {
  SHADE_CHECK(dst != nullptr && src != nullptr) << "THTensor_copy: null tensor";
  CheckApplyNumel("destination", NElement(dst), "source", NElement(src));
  if (NElement(dst) == 0) return;
  if (TensorIsSameSizeAs(dst, src)) {
    // Same shape: NDArray's copy (the strided engine, any layouts, dtype converted), compiled
    // once in the library rather than once per pair of TH types here.
    dst->array.copy_(src->array);
    return;
  }
  // Same numel, other shape: each tensor in its own row-major order, as TH does.
  ApplyCursor<D> dc(dst);
  ApplyCursor<S> sc(src);
  D* dp = dc.data;
  S* sp = sc.data;
  index_t di = 0, si = 0;
  bool finished = false;
  while (!finished) {
    for (; di < dc.size && si < sc.size; ++di, ++si, dp += dc.stride, sp += sc.stride) {
      *dp = ConvertReal<D>(*sp);
    }
    if (di == dc.size) {
      if (dc.dim == -1) break;
      dp -= dc.size * dc.stride;
      finished = dc.NextSection(&dp);
      di = 0;
    }
    if (si == sc.size) {
      if (sc.dim == -1) break;
      sp -= sc.size * sc.stride;
      finished = sc.NextSection(&sp) || finished;
      si = 0;
    }
  }
}

}  // namespace

template <typename D>
void CopyOps<D>::Copy(Tensor<D>* dst, const Tensor<std::uint8_t>* src) {
  CopyImpl(dst, src);
}

template <typename D>
void CopyOps<D>::Copy(Tensor<D>* dst, const Tensor<std::int8_t>* src) {
  CopyImpl(dst, src);
}

template <typename D>
void CopyOps<D>::Copy(Tensor<D>* dst, const Tensor<std::int16_t>* src) {
  CopyImpl(dst, src);
}

template <typename D>
void CopyOps<D>::Copy(Tensor<D>* dst, const Tensor<std::int32_t>* src) {
  CopyImpl(dst, src);
}

template <typename D>
void CopyOps<D>::Copy(Tensor<D>* dst, const Tensor<std::int64_t>* src) {
  CopyImpl(dst, src);
}

template <typename D>
void CopyOps<D>::Copy(Tensor<D>* dst, const Tensor<float>* src) {
  CopyImpl(dst, src);
}

template <typename D>
void CopyOps<D>::Copy(Tensor<D>* dst, const Tensor<double>* src) {
  CopyImpl(dst, src);
}

template <typename D>
void CopyOps<D>::Copy(Tensor<D>* dst, const Tensor<half_t>* src) {
  CopyImpl(dst, src);
}

template struct CopyOps<std::uint8_t>;
template struct CopyOps<std::int8_t>;
template struct CopyOps<std::int16_t>;
template struct CopyOps<std::int32_t>;
template struct CopyOps<std::int64_t>;
template struct CopyOps<float>;
template struct CopyOps<double>;
template struct CopyOps<half_t>;

void CheckApplyNumel(const char* name1, index_t n1, const char* name2, index_t n2) {
  SHADE_CHECK_EQ(n1, n2) << "inconsistent tensor size, expected " << name1 << " and " << name2
                         << " to have the same number of elements, but got " << n1 << " and " << n2
                         << " elements respectively";
}

}  // namespace th
}  // namespace shade
