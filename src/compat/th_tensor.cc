// THTensor: the out-of-line bodies of shade/compat/th.h's tensor functions (views, refcount,
// element access, fill, sizeDesc), compiled once for the eight TH real types.
#include <cstring>
#include <string>
#include <vector>

#include "shade/compat/th.h"

namespace shade {
namespace th {

// Inside TensorOps a member hides the function template of the same name, so the calls that
// spell <T> name the template as th::X<T>.

template <typename T>
int TensorOps<T>::NDimension(const Tensor<T>* t) {
  SHADE_CHECK(t != nullptr) << "THTensor: null tensor";
  return t->array.numel() == 0 ? 0 : t->array.ndim();
}

template <typename T>
index_t TensorOps<T>::NElement(const Tensor<T>* t) {
  SHADE_CHECK(t != nullptr) << "THTensor: null tensor";
  return t->array.numel();
}

template <typename T>
void TensorOps<T>::CheckDim(const Tensor<T>* t, int dim, const char* fn) {
  const int nd = NDimension(t);
  SHADE_CHECK_INDEX(dim >= 0 && dim < nd)
      << fn << ": dimension " << dim << " out of range of a " << nd << "D tensor";
}

template <typename T>
void TensorOps<T>::SetView(Tensor<T>* self, Storage<T>* storage, index_t offset, int ndim,
                           const index_t* sizes, const index_t* strides) {
  SHADE_CHECK(self != nullptr) << "THTensor: null tensor";
  SHADE_CHECK_GE(offset, 0) << "THTensor: storage offset " << offset << " is negative";
  SHADE_CHECK_SHAPE_GE(ndim, 0) << "THTensor: " << ndim << " dimensions";
  int nd = 0;
  for (; nd < ndim; ++nd) {
    SHADE_CHECK_SHAPE_GE(sizes[nd], 0)
        << "THTensor: size " << sizes[nd] << " of dimension " << nd << " is negative";
    if (sizes[nd] == 0) break;
  }
  std::vector<index_t> sz(sizes, sizes + nd), st(static_cast<std::size_t>(nd));
  index_t span = nd > 0 ? 1 : 0;  // elements from element 0 to the last reachable one, + 1
  for (int d = nd - 1; d >= 0; --d) {
    if (strides && strides[d] >= 0) {
      st[d] = strides[d];
    } else {
      st[d] = d == nd - 1 ? 1 : CheckedMul(sz[d + 1], st[d + 1], "THTensor stride");
    }
    span = CheckedAdd(span, CheckedMul(sz[d] - 1, st[d], "THTensor extent"), "THTensor extent");
  }
  // Retain the new storage before releasing the old one: they may be the same object.
  if (storage != self->storage) {
    StorageRetain(storage);
    StorageFree(self->storage);
    self->storage = storage;
  }
  if (nd > 0) {
    const index_t needed = CheckedAdd(offset, span, "THTensor extent");
    if (!self->storage) self->storage = StorageNew<T>();
    if (needed > StorageSize(self->storage)) StorageResize(self->storage, needed);
  }
  self->storage_offset = offset;
  if (nd == 0) {
    const index_t zero = 0, one = 1;
    shade::Storage backing =
        self->storage ? self->storage->storage : shade::Storage(cpu::kDevMask, TypeMeta::Make<T>());
    self->array = NDArray::FromStorage(backing, IndexSpan(&zero, 1), IndexSpan(&one, 1), 0);
  } else {
    self->array = NDArray::FromStorage(self->storage->storage, sz, st, offset);
  }
}

template <typename T>
void TensorOps<T>::SetViewFrom(Tensor<T>* self, Storage<T>* storage, const NDArray& view) {
  SetView(self, storage, view.storage_offset(), view.ndim(), view.sizes().data(),
          view.strides().data());
}

template <typename T>
void TensorOps<T>::TensorRetain(Tensor<T>* t) {
  if (t) t->refcount.fetch_add(1, std::memory_order_relaxed);
}

template <typename T>
void TensorOps<T>::TensorFree(Tensor<T>* t) {
  if (!t) return;
  if (t->refcount.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    StorageFree(t->storage);
    delete t;
  }
}

template <typename T>
Tensor<T>* TensorOps<T>::TensorNew() {
  auto* t = new Tensor<T>();
  th::SetView<T>(t, nullptr, 0, 0, nullptr, nullptr);
  return t;
}

template <typename T>
Tensor<T>* TensorOps<T>::TensorNewView(Storage<T>* storage, index_t offset, int ndim,
                                       const index_t* sizes, const index_t* strides) {
  Tensor<T>* t = th::TensorNew<T>();
  try {
    SetView(t, storage, offset, ndim, sizes, strides);
  } catch (...) {
    TensorFree(t);
    throw;
  }
  return t;
}

template <typename T>
T* TensorOps<T>::TensorData(const Tensor<T>* t) {
  SHADE_CHECK(t != nullptr) << "THTensor_data: null tensor";
  if (!t->storage || !t->storage->storage.data()) return nullptr;
  return StorageData(t->storage) + t->storage_offset;
}

template <typename T>
void TensorOps<T>::TensorResizeNd(Tensor<T>* t, int ndim, const index_t* sizes,
                                  const index_t* strides) {
  SetView(t, t->storage, t->storage_offset, ndim, sizes, strides);
}

template <typename T>
Tensor<T>* TensorOps<T>::TensorNewWithSize(int ndim, const index_t* sizes, const index_t* strides) {
  return th::TensorNewView<T>(nullptr, 0, ndim, sizes, strides);
}

template <typename T>
Tensor<T>* TensorOps<T>::TensorNewWithTensor(const Tensor<T>* src) {
  SHADE_CHECK(src != nullptr) << "THTensor_newWithTensor: null tensor";
  Tensor<T>* t = th::TensorNew<T>();
  if (NDimension(src) == 0) {
    SetView(t, src->storage, src->storage_offset, 0, nullptr, nullptr);
  } else {
    SetViewFrom(t, src->storage, src->array);
  }
  return t;
}

template <typename T>
Tensor<T>* TensorOps<T>::TensorNewClone(const Tensor<T>* src) {
  SHADE_CHECK(src != nullptr) << "THTensor_newClone: null tensor";
  const int nd = NDimension(src);
  Tensor<T>* t = th::TensorNewWithSize<T>(nd, src->array.sizes().data());
  try {
    TensorCopy(t, src);
  } catch (...) {
    TensorFree(t);
    throw;
  }
  return t;
}

template <typename T>
Tensor<T>* TensorOps<T>::TensorNewContiguous(const Tensor<T>* src) {
  SHADE_CHECK(src != nullptr) << "THTensor_newContiguous: null tensor";
  return src->array.is_contiguous() ? TensorNewWithTensor(src) : TensorNewClone(src);
}

template <typename T>
void TensorOps<T>::TensorSelect(Tensor<T>* self, const Tensor<T>* src, int dim, index_t idx) {
  SHADE_CHECK_SHAPE(NDimension(src) > 1)
      << "THTensor_select: cannot select on a vector (a " << NDimension(src) << "D tensor)";
  CheckDim(src, dim, "THTensor_select");
  const index_t n = src->array.size(dim);
  SHADE_CHECK_INDEX(idx >= 0 && idx < n)
      << "THTensor_select: index " << idx << " out of range for size " << n << " of dimension "
      << dim;
  SetViewFrom(self, src->storage, src->array.select(dim, idx));
}

template <typename T>
void TensorOps<T>::TensorNarrow(Tensor<T>* self, const Tensor<T>* src, int dim, index_t first,
                                index_t size) {
  CheckDim(src, dim, "THTensor_narrow");
  const index_t n = src->array.size(dim);
  SHADE_CHECK_INDEX(first >= 0 && first < n)
      << "THTensor_narrow: first index " << first << " out of range for size " << n
      << " of dimension " << dim;
  SHADE_CHECK_INDEX(size > 0 && first <= n - size)
      << "THTensor_narrow: size " << size << " out of range (first " << first << ", dimension "
      << dim << " of size " << n << ")";
  SetViewFrom(self, src->storage, src->array.narrow(dim, first, size));
}

template <typename T>
void TensorOps<T>::TensorTranspose(Tensor<T>* self, const Tensor<T>* src, int d1, int d2) {
  CheckDim(src, d1, "THTensor_transpose");
  CheckDim(src, d2, "THTensor_transpose");
  SetViewFrom(self, src->storage, src->array.transpose(d1, d2));
}

template <typename T>
void TensorOps<T>::TensorUnfold(Tensor<T>* self, const Tensor<T>* src, int dim, index_t size,
                                index_t step) {
  SHADE_CHECK_SHAPE(NDimension(src) > 0) << "THTensor_unfold: cannot unfold an empty tensor";
  CheckDim(src, dim, "THTensor_unfold");
  const index_t n = src->array.size(dim);
  SHADE_CHECK_INDEX(size >= 1 && size <= n)
      << "THTensor_unfold: window size " << size << " out of range for size " << n
      << " of dimension " << dim;
  SHADE_CHECK_GT(step, 0) << "THTensor_unfold: step " << step << " is not positive";
  std::vector<index_t> sz = src->array.sizes().vec(), st = src->array.strides().vec();
  sz.push_back(size);
  st.push_back(st[dim]);
  sz[dim] = (n - size) / step + 1;
  st[dim] = CheckedMul(step, st[dim], "THTensor_unfold stride");
  SetView(self, src->storage, src->storage_offset, static_cast<int>(sz.size()), sz.data(),
          st.data());
}

template <typename T>
void TensorOps<T>::TensorSqueeze(Tensor<T>* self, const Tensor<T>* src) {
  if (NDimension(src) == 0)
    return SetView(self, src->storage, src->storage_offset, 0, nullptr, nullptr);
  NDArray v = src->array.squeeze();
  if (v.ndim() == 0) v = v.unsqueeze(0);
  SetViewFrom(self, src->storage, v);
}

template <typename T>
void TensorOps<T>::TensorSqueeze1d(Tensor<T>* self, const Tensor<T>* src, int dim) {
  CheckDim(src, dim, "THTensor_squeeze1d");
  if (src->array.size(dim) == 1 && NDimension(src) > 1) {
    SetViewFrom(self, src->storage, src->array.squeeze(dim));
  } else {
    SetViewFrom(self, src->storage, src->array);
  }
}

template <typename T>
void TensorOps<T>::TensorUnsqueeze1d(Tensor<T>* self, const Tensor<T>* src, int dim) {
  const int nd = NDimension(src);
  SHADE_CHECK(nd > 0) << "THTensor_unsqueeze1d: cannot unsqueeze an empty tensor";
  SHADE_CHECK_INDEX(dim >= 0 && dim <= nd)
      << "THTensor_unsqueeze1d: dimension " << dim << " out of range of a " << nd << "D tensor";
  SetViewFrom(self, src->storage, src->array.unsqueeze(dim));
}

template <typename T>
void TensorOps<T>::TensorSet(Tensor<T>* self, const Tensor<T>* src) {
  if (self == src) return;
  if (NDimension(src) == 0)
    return SetView(self, src->storage, src->storage_offset, 0, nullptr, nullptr);
  SetViewFrom(self, src->storage, src->array);
}

template <typename T>
bool TensorOps<T>::TensorIsSetTo(const Tensor<T>* a, const Tensor<T>* b) {
  if (!a->storage || a->storage != b->storage || NDimension(a) != NDimension(b)) return false;
  if (a->storage_offset != b->storage_offset || NDimension(a) == 0) return false;
  return a->array.sizes() == b->array.sizes() && a->array.strides() == b->array.strides();
}

template <typename T>
T& TensorOps<T>::TensorElement(const Tensor<T>* t, std::initializer_list<index_t> idx,
                               const char* fn) {
  const int nd = NDimension(t);
  SHADE_CHECK_SHAPE_EQ(nd, static_cast<int>(idx.size()))
      << fn << ": tensor must have " << idx.size() << " dimension(s), it has " << nd;
  index_t off = t->storage_offset;
  int d = 0;
  for (index_t i : idx) {
    const index_t n = t->array.size(d);
    SHADE_CHECK_INDEX(i >= 0 && i < n)
        << fn << ": index " << i << " out of range for size " << n << " of dimension " << d;
    off += i * t->array.stride(d);
    ++d;
  }
  return StorageData(t->storage)[off];
}

template <typename T>
void TensorOps<T>::TensorFill(Tensor<T>* t, T value) {
  if (NElement(t) == 0) return;
  ApplyElementwise<T>([value](T& x) { x = value; }, ApplyOptions(), t->array);
}

template <typename T>
THDescBuff TensorOps<T>::SizeDesc(const Tensor<T>* t) {
  std::string s = "[";
  for (int d = 0; d < NDimension(t); ++d) {
    if (d > 0) s += " x ";
    s += std::to_string(t->array.size(d));
  }
  s += "]";
  THDescBuff buf;
  if (s.size() >= sizeof(buf.str)) s = s.substr(0, sizeof(buf.str) - 4) + "...";
  std::memcpy(buf.str, s.c_str(), s.size() + 1);
  return buf;
}

template struct TensorOps<std::uint8_t>;
template struct TensorOps<std::int8_t>;
template struct TensorOps<std::int16_t>;
template struct TensorOps<std::int32_t>;
template struct TensorOps<std::int64_t>;
template struct TensorOps<float>;
template struct TensorOps<double>;
template struct TensorOps<half_t>;

}  // namespace th
}  // namespace shade
