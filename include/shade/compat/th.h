/*!
 * \file th.h
 * \brief Torch TH source compatibility: the THStorage / THTensor C API of Torch7's TH for the
 *  real types Byte, Char, Short, Int, Long, Float, Double and Half, over shade's Storage and
 *  NDArray, with TH's generic-type machinery and the TH_TENSOR_APPLY family.
 *
 * A TH program builds with `#include "shade/compat/th.h"` in place of `TH/TH.h`:
 *  - concrete names: `THFloatTensor_newWithSize2d(3, 4)`, `THDoubleStorage_data(s)`, ...;
 *  - generic names: with `Real` (Byte, ..., Half) and `real` defined, `THTensor` and
 *    `THTensor_(NAME)` / `THStorage` and `THStorage_(NAME)` name the concrete ones, as in TH;
 *  - TH_GENERIC_FILE re-inclusion: shade/compat/th_generate_all_types.h (Byte..Double, like
 *    THGenerateAllTypes.h) and th_generate_half_type.h define `real`, `Real`, `accreal` and
 *    `TH_REAL_IS_<TYPE>` around each inclusion of TH_GENERIC_FILE.
 *
 * Semantics follow Torch7: a tensor with nDimension 0 is empty (nElement 0); a size of 0 in a
 * resize ends the dimension list there; a resize that needs more elements than its storage has
 * grows the storage (which every tensor on it sees); THTensor_(storage) and THTensor_(data)
 * return NULL for a tensor that has no storage yet. Objects are refcounted (`retain`/`free`).
 *
 * Deliberate difference: where TH calls THError / THArgCheck (and aborts or longjmps), these
 * functions throw shade::Error with what failed and the values. THError and THArgCheck
 * themselves are provided and throw too.
 *
 * The bodies are compiled once in the library (src/compat/th_storage.cc, th_tensor.cc,
 * th_copy.cc, th.cc) for the eight real types; what stays here is inline by necessity: the
 * macros, the templates over a caller's code (TH_TENSOR_APPLY's ApplyCursor, TensorNewView
 * with a view function) and the concrete TH names, which are global functions and so are
 * forwarders (libshade.so exports only shade's namespaces, cmake/export-map.py).
 */
#ifndef SHADE_COMPAT_TH_H_
#define SHADE_COMPAT_TH_H_

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "shade/base/checked.h"
#include "shade/base/error.h"
#include "shade/base/half.h"
#include "shade/base/index.h"
#include "shade/base/type_meta.h"
#include "shade/memory/alloc.h"
#include "shade/memory/storage.h"
#include "shade/ndarray/apply.h"
#include "shade/ndarray/ndarray.h"

/*! \brief TH's half-precision real (IEEE binary16). */
using THHalf = shade::half_t;

/*! \brief TH's size description buffer (THTensor_(sizeDesc)). */
struct THDescBuff {
  /*! \brief "[2 x 3]"-style text, NUL-terminated (truncated with "..." when long). */
  char str[64];
};

namespace shade {
namespace th {

/*! \brief TH's accumulation type for a real type (`accreal`): int64 for integers, double for
 *  float and double, float for half. */
template <typename T>
using AccReal =
    std::conditional_t<std::is_integral<T>::value, std::int64_t,
                       std::conditional_t<std::is_same<T, half_t>::value, float, double>>;

/*! \brief A THStorage: a refcounted handle on a shade::Storage of element type T. */
template <typename T>
struct Storage {
  /*! \brief The storage (element type T, size = capacity / sizeof(T)). */
  shade::Storage storage;
  /*! \brief TH's refcount (`retain` / `free`). */
  std::atomic<int> refcount{1};
};

/*!
 * \brief A THTensor: a refcounted view (sizes, strides, offset) on a THStorage. `array` is the
 *  same view as an NDArray whose impl no other object shares.
 */
template <typename T>
struct Tensor {
  /*! \brief The view; rank >= 1 and numel > 0 unless the tensor is empty (nDimension 0). */
  shade::NDArray array;
  /*! \brief The storage, or null before the tensor's first allocation. */
  Storage<T>* storage = nullptr;
  /*! \brief Offset of element 0 in the storage (kept while the tensor is empty, as in TH). */
  index_t storage_offset = 0;
  /*! \brief TH's refcount (`retain` / `free`). */
  std::atomic<int> refcount{1};
};

// ------------------------------------------------------------------------------ errors
/*! \brief Throws shade::Error with a printf-formatted message (TH's THError). */
[[noreturn]] void ThrowFormatted(const char* file, int line, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*! \brief THArgCheck's failure: names the argument and the condition, then the message. */
[[noreturn]] void ThrowArgCheck(const char* file, int line, int arg, const char* cond,
                                const char* fmt, ...) __attribute__((format(printf, 5, 6)));

// ------------------------------------------------------------------------------ out-of-line bodies
/*!
 * \brief The THStorage functions of real type T, compiled once in src/compat/th_storage.cc for
 *  the eight TH types. Static members rather than function templates so that libshade.so
 *  exports them by name (cmake/export-map.py); the function templates below forward here.
 */
template <typename T>
struct StorageOps {
  /*! \brief StorageSize<T>'s body (see StorageSize below). */
  static index_t StorageSize(const Storage<T>* s);
  /*! \brief StorageNew<T>'s body (see StorageNew below). */
  static Storage<T>* StorageNew();
  /*! \brief StorageResize<T>'s body (see StorageResize below). */
  static void StorageResize(Storage<T>* s, index_t size);
  /*! \brief StorageNewWithSize<T>'s body (see StorageNewWithSize below). */
  static Storage<T>* StorageNewWithSize(index_t size);
  /*! \brief StorageNewWithData<T>'s body (see StorageNewWithData below). */
  static Storage<T>* StorageNewWithData(T* data, index_t size);
  /*! \brief StorageRetain<T>'s body (see StorageRetain below). */
  static void StorageRetain(Storage<T>* s);
  /*! \brief StorageFree<T>'s body (see StorageFree below). */
  static void StorageFree(Storage<T>* s);
  /*! \brief StorageData<T>'s body (see StorageData below). */
  static T* StorageData(const Storage<T>* s);
  /*! \brief CheckStorageIndex<T>'s body (see CheckStorageIndex below). */
  static void CheckStorageIndex(const Storage<T>* s, index_t idx, const char* fn);
  /*! \brief StorageFill<T>'s body (see StorageFill below). */
  static void StorageFill(Storage<T>* s, T value);
  /*! \brief StorageCopy<T>'s body (see StorageCopy below). */
  static void StorageCopy(Storage<T>* dst, const Storage<T>* src);
};

/*!
 * \brief The THTensor functions of real type T (views, refcount, element access, fill,
 *  sizeDesc), compiled once in src/compat/th_tensor.cc for the eight TH types; the function
 *  templates below forward here.
 */
template <typename T>
struct TensorOps {
  /*! \brief NDimension<T>'s body (see NDimension below). */
  static int NDimension(const Tensor<T>* t);
  /*! \brief NElement<T>'s body (see NElement below). */
  static index_t NElement(const Tensor<T>* t);
  /*! \brief CheckDim<T>'s body (see CheckDim below). */
  static void CheckDim(const Tensor<T>* t, int dim, const char* fn);
  /*! \brief SetView<T>'s body (see SetView below). */
  static void SetView(Tensor<T>* self, Storage<T>* storage, index_t offset, int ndim,
                      const index_t* sizes, const index_t* strides);
  /*! \brief SetViewFrom<T>'s body (see SetViewFrom below). */
  static void SetViewFrom(Tensor<T>* self, Storage<T>* storage, const NDArray& view);
  /*! \brief TensorRetain<T>'s body (see TensorRetain below). */
  static void TensorRetain(Tensor<T>* t);
  /*! \brief TensorFree<T>'s body (see TensorFree below). */
  static void TensorFree(Tensor<T>* t);
  /*! \brief TensorNew<T>'s body (see TensorNew below). */
  static Tensor<T>* TensorNew();
  /*! \brief TensorNewView<T>'s body (see TensorNewView below). */
  static Tensor<T>* TensorNewView(Storage<T>* storage, index_t offset, int ndim,
                                  const index_t* sizes, const index_t* strides);
  /*! \brief TensorData<T>'s body (see TensorData below). */
  static T* TensorData(const Tensor<T>* t);
  /*! \brief TensorResizeNd<T>'s body (see TensorResizeNd below). */
  static void TensorResizeNd(Tensor<T>* t, int ndim, const index_t* sizes, const index_t* strides);
  /*! \brief TensorNewWithSize<T>'s body (see TensorNewWithSize below). */
  static Tensor<T>* TensorNewWithSize(int ndim, const index_t* sizes, const index_t* strides);
  /*! \brief TensorNewWithTensor<T>'s body (see TensorNewWithTensor below). */
  static Tensor<T>* TensorNewWithTensor(const Tensor<T>* src);
  /*! \brief TensorNewClone<T>'s body (see TensorNewClone below). */
  static Tensor<T>* TensorNewClone(const Tensor<T>* src);
  /*! \brief TensorNewContiguous<T>'s body (see TensorNewContiguous below). */
  static Tensor<T>* TensorNewContiguous(const Tensor<T>* src);
  /*! \brief TensorSelect<T>'s body (see TensorSelect below). */
  static void TensorSelect(Tensor<T>* self, const Tensor<T>* src, int dim, index_t idx);
  /*! \brief TensorNarrow<T>'s body (see TensorNarrow below). */
  static void TensorNarrow(Tensor<T>* self, const Tensor<T>* src, int dim, index_t first,
                           index_t size);
  /*! \brief TensorTranspose<T>'s body (see TensorTranspose below). */
  static void TensorTranspose(Tensor<T>* self, const Tensor<T>* src, int d1, int d2);
  /*! \brief TensorUnfold<T>'s body (see TensorUnfold below). */
  static void TensorUnfold(Tensor<T>* self, const Tensor<T>* src, int dim, index_t size,
                           index_t step);
  /*! \brief TensorSqueeze<T>'s body (see TensorSqueeze below). */
  static void TensorSqueeze(Tensor<T>* self, const Tensor<T>* src);
  /*! \brief TensorSqueeze1d<T>'s body (see TensorSqueeze1d below). */
  static void TensorSqueeze1d(Tensor<T>* self, const Tensor<T>* src, int dim);
  /*! \brief TensorUnsqueeze1d<T>'s body (see TensorUnsqueeze1d below). */
  static void TensorUnsqueeze1d(Tensor<T>* self, const Tensor<T>* src, int dim);
  /*! \brief TensorSet<T>'s body (see TensorSet below). */
  static void TensorSet(Tensor<T>* self, const Tensor<T>* src);
  /*! \brief TensorIsSetTo<T>'s body (see TensorIsSetTo below). */
  static bool TensorIsSetTo(const Tensor<T>* a, const Tensor<T>* b);
  /*! \brief TensorElement<T>'s body (see TensorElement below). */
  static T& TensorElement(const Tensor<T>* t, std::initializer_list<index_t> idx, const char* fn);
  /*! \brief TensorFill<T>'s body (see TensorFill below). */
  static void TensorFill(Tensor<T>* t, T value);
  /*! \brief SizeDesc<T>'s body (see SizeDesc below). */
  static THDescBuff SizeDesc(const Tensor<T>* t);
};

/*!
 * \brief THTensor copies into a tensor of real type D from each TH real type, compiled once
 *  in src/compat/th_copy.cc (TensorCopy<D, S> forwards here).
 */
template <typename D>
struct CopyOps {
  /*! \brief Copies `src` (std::uint8_t) into `dst` element by element. */
  static void Copy(Tensor<D>* dst, const Tensor<std::uint8_t>* src);
  /*! \brief Copies `src` (std::int8_t) into `dst` element by element. */
  static void Copy(Tensor<D>* dst, const Tensor<std::int8_t>* src);
  /*! \brief Copies `src` (std::int16_t) into `dst` element by element. */
  static void Copy(Tensor<D>* dst, const Tensor<std::int16_t>* src);
  /*! \brief Copies `src` (std::int32_t) into `dst` element by element. */
  static void Copy(Tensor<D>* dst, const Tensor<std::int32_t>* src);
  /*! \brief Copies `src` (std::int64_t) into `dst` element by element. */
  static void Copy(Tensor<D>* dst, const Tensor<std::int64_t>* src);
  /*! \brief Copies `src` (float) into `dst` element by element. */
  static void Copy(Tensor<D>* dst, const Tensor<float>* src);
  /*! \brief Copies `src` (double) into `dst` element by element. */
  static void Copy(Tensor<D>* dst, const Tensor<double>* src);
  /*! \brief Copies `src` (half_t) into `dst` element by element. */
  static void Copy(Tensor<D>* dst, const Tensor<half_t>* src);
};

// ------------------------------------------------------------------------------ storage

/*! \brief Elements a storage holds. */
template <typename T>
index_t StorageSize(const Storage<T>* s) {
  return StorageOps<T>::StorageSize(s);
}

/*! \brief THStorage_(new): size 0, no data. */
template <typename T>
Storage<T>* StorageNew() {
  return StorageOps<T>::StorageNew();
}

/*!
 * \brief THStorage_(resize): `size` elements, the first min(old, new) kept, the rest
 *  uninitialized. The data moves in place, so every tensor on the storage sees it.
 */
template <typename T>
void StorageResize(Storage<T>* s, index_t size) {
  StorageOps<T>::StorageResize(s, size);
}

/*! \brief THStorage_(newWithSize). */
template <typename T>
Storage<T>* StorageNewWithSize(index_t size) {
  return StorageOps<T>::StorageNewWithSize(size);
}

/*! \brief THStorage_(newWithData): adopts `data` (from THAlloc; freed with THFree). */
template <typename T>
Storage<T>* StorageNewWithData(T* data, index_t size) {
  return StorageOps<T>::StorageNewWithData(data, size);
}

/*! \brief THStorage_(retain). */
template <typename T>
void StorageRetain(Storage<T>* s) {
  StorageOps<T>::StorageRetain(s);
}

/*! \brief THStorage_(free): drops a reference; the last one deletes the storage. */
template <typename T>
void StorageFree(Storage<T>* s) {
  StorageOps<T>::StorageFree(s);
}

/*! \brief THStorage_(data) (null when the storage has no elements). */
template <typename T>
T* StorageData(const Storage<T>* s) {
  return StorageOps<T>::StorageData(s);
}

/*! \brief Checks a storage index (TH: "out of bounds"). */
template <typename T>
void CheckStorageIndex(const Storage<T>* s, index_t idx, const char* fn) {
  StorageOps<T>::CheckStorageIndex(s, idx, fn);
}

/*! \brief THStorage_(fill). */
template <typename T>
void StorageFill(Storage<T>* s, T value) {
  StorageOps<T>::StorageFill(s, value);
}

/*! \brief THStorage_(copy): sizes must match (TH: "size mismatch"). */
template <typename T>
void StorageCopy(Storage<T>* dst, const Storage<T>* src) {
  StorageOps<T>::StorageCopy(dst, src);
}

// ------------------------------------------------------------------------------ tensor views

/*! \brief TH's nDimension: 0 for an empty tensor. */
template <typename T>
int NDimension(const Tensor<T>* t) {
  return TensorOps<T>::NDimension(t);
}

/*! \brief TH's nElement. */
template <typename T>
index_t NElement(const Tensor<T>* t) {
  return TensorOps<T>::NElement(t);
}

/*! \brief Checks `dim` against TH's nDimension (TH: "dimension out of range"). */
template <typename T>
void CheckDim(const Tensor<T>* t, int dim, const char* fn) {
  TensorOps<T>::CheckDim(t, dim, fn);
}

/*!
 * \brief TH's setStorageNd + resizeNd: makes `self` the view (sizes, strides, offset) on
 *  `storage`. Sizes end at the first 0 (Torch7); a negative stride asks for the contiguous
 *  one; a storage too small for the view is grown, a null one created when elements are
 *  needed.
 */
template <typename T>
void SetView(Tensor<T>* self, Storage<T>* storage, index_t offset, int ndim, const index_t* sizes,
             const index_t* strides) {
  TensorOps<T>::SetView(self, storage, offset, ndim, sizes, strides);
}

/*! \brief SetView with `view`'s layout (a view NDArray over self's or src's storage). */
template <typename T>
void SetViewFrom(Tensor<T>* self, Storage<T>* storage, const NDArray& view) {
  TensorOps<T>::SetViewFrom(self, storage, view);
}

/*! \brief THTensor_(retain). */
template <typename T>
void TensorRetain(Tensor<T>* t) {
  TensorOps<T>::TensorRetain(t);
}

/*! \brief THTensor_(free): drops a reference; the last one frees the storage reference too. */
template <typename T>
void TensorFree(Tensor<T>* t) {
  TensorOps<T>::TensorFree(t);
}

/*! \brief A new tensor object with no storage and nDimension 0. */
template <typename T>
Tensor<T>* TensorNew() {
  return TensorOps<T>::TensorNew();
}

/*! \brief A new tensor that is the view (sizes, strides, offset) on `storage` (retained). */
template <typename T>
Tensor<T>* TensorNewView(Storage<T>* storage, index_t offset, int ndim, const index_t* sizes,
                         const index_t* strides) {
  return TensorOps<T>::TensorNewView(storage, offset, ndim, sizes, strides);
}

/*! \brief THTensor_(data): storage data + offset, or null without storage. */
template <typename T>
T* TensorData(const Tensor<T>* t) {
  return TensorOps<T>::TensorData(t);
}

/*! \brief THTensor_(resizeNd): contiguous strides where `strides` is null or negative. */
template <typename T>
void TensorResizeNd(Tensor<T>* t, int ndim, const index_t* sizes, const index_t* strides) {
  TensorOps<T>::TensorResizeNd(t, ndim, sizes, strides);
}

/*! \brief A new tensor with its own contiguous storage (THTensor_(newWithSizeNd)). */
template <typename T>
Tensor<T>* TensorNewWithSize(int ndim, const index_t* sizes, const index_t* strides = nullptr) {
  return TensorOps<T>::TensorNewWithSize(ndim, sizes, strides);
}

/*! \brief THTensor_(newWithTensor): a new tensor object with the same view and storage. */
template <typename T>
Tensor<T>* TensorNewWithTensor(const Tensor<T>* src) {
  return TensorOps<T>::TensorNewWithTensor(src);
}

/*! \brief THTensor_(newClone): a contiguous copy. */
template <typename T>
Tensor<T>* TensorNewClone(const Tensor<T>* src) {
  return TensorOps<T>::TensorNewClone(src);
}

/*! \brief THTensor_(newContiguous): the same view when contiguous, else a clone. */
template <typename T>
Tensor<T>* TensorNewContiguous(const Tensor<T>* src) {
  return TensorOps<T>::TensorNewContiguous(src);
}

/*! \brief THTensor_(select): `self` becomes `src` at index `idx` of dimension `dim`. */
template <typename T>
void TensorSelect(Tensor<T>* self, const Tensor<T>* src, int dim, index_t idx) {
  TensorOps<T>::TensorSelect(self, src, dim, idx);
}

/*! \brief THTensor_(narrow): elements [first, first + size) of dimension `dim`. */
template <typename T>
void TensorNarrow(Tensor<T>* self, const Tensor<T>* src, int dim, index_t first, index_t size) {
  TensorOps<T>::TensorNarrow(self, src, dim, first, size);
}

/*! \brief THTensor_(transpose): swaps dimensions d1 and d2. */
template <typename T>
void TensorTranspose(Tensor<T>* self, const Tensor<T>* src, int d1, int d2) {
  TensorOps<T>::TensorTranspose(self, src, d1, d2);
}

/*!
 * \brief THTensor_(unfold): dimension `dim` becomes (size_d - size) / step + 1 windows, and a
 *  new last dimension of `size` walks each window.
 */
template <typename T>
void TensorUnfold(Tensor<T>* self, const Tensor<T>* src, int dim, index_t size, index_t step) {
  TensorOps<T>::TensorUnfold(self, src, dim, size, step);
}

/*! \brief TH's newSelect/newNarrow/newTranspose/newUnfold: a new tensor over src's storage that
 *  `view(r)` then re-views; freed again if the view throws (a bad dim or range). */
template <typename T, typename View>
Tensor<T>* TensorNewView(Tensor<T>* src, View&& view) {
  Tensor<T>* r = TensorNewWithTensor(src);
  try {
    view(r);
  } catch (...) {
    TensorFree(r);
    throw;
  }
  return r;
}

/*! \brief THTensor_(squeeze): drops size-1 dimensions (one stays when all are size 1). */
template <typename T>
void TensorSqueeze(Tensor<T>* self, const Tensor<T>* src) {
  TensorOps<T>::TensorSqueeze(self, src);
}

/*! \brief THTensor_(squeeze1d): drops dimension `dim` if it has size 1 and is not the only one. */
template <typename T>
void TensorSqueeze1d(Tensor<T>* self, const Tensor<T>* src, int dim) {
  TensorOps<T>::TensorSqueeze1d(self, src, dim);
}

/*! \brief THTensor_(unsqueeze1d): a new size-1 dimension at `dim` (in [0, nDimension]). */
template <typename T>
void TensorUnsqueeze1d(Tensor<T>* self, const Tensor<T>* src, int dim) {
  TensorOps<T>::TensorUnsqueeze1d(self, src, dim);
}

/*! \brief THTensor_(set): `self` becomes the same view on the same storage as `src`. */
template <typename T>
void TensorSet(Tensor<T>* self, const Tensor<T>* src) {
  TensorOps<T>::TensorSet(self, src);
}

/*! \brief THTensor_(isSameSizeAs). */
template <typename T, typename U>
bool TensorIsSameSizeAs(const Tensor<T>* a, const Tensor<U>* b) {
  if (NDimension(a) != NDimension(b)) return false;
  return NDimension(a) == 0 || a->array.sizes() == b->array.sizes();
}

/*! \brief THTensor_(isSetTo): same storage, offset, sizes and strides (and not empty). */
template <typename T>
bool TensorIsSetTo(const Tensor<T>* a, const Tensor<T>* b) {
  return TensorOps<T>::TensorIsSetTo(a, b);
}

/*! \brief The element at `idx` (TH's get/set Nd checks: rank, then each index). */
template <typename T>
T& TensorElement(const Tensor<T>* t, std::initializer_list<index_t> idx, const char* fn) {
  return TensorOps<T>::TensorElement(t, idx, fn);
}

/*! \brief Converts one element between real types (through float for half). */
template <typename D, typename S>
D ConvertReal(S v) {
  if constexpr (std::is_same<D, S>::value) {
    return v;
  } else if constexpr (std::is_same<S, half_t>::value) {
    return static_cast<D>(static_cast<float>(v));
  } else {
    return static_cast<D>(v);
  }
}

/*! \brief THTensor_(fill) over the strided-iteration engine. */
template <typename T>
void TensorFill(Tensor<T>* t, T value) {
  TensorOps<T>::TensorFill(t, value);
}

// ------------------------------------------------------------------------------ TH_TENSOR_APPLY
/*!
 * \brief The one walker behind TH_TENSOR_APPLY, APPLY2 and APPLY3, per tensor: TH's largest
 *  contiguous section at the inner end (apply.h's THContiguousSection), walked by the macro's
 *  flat loop, and a counter over the remaining dimensions that moves the data pointer to the
 *  next section (as in seed note 001).
 */
template <typename T>
class ApplyCursor {
 public:
  /*! \brief Sets up the walk over `t` (any layout). */
  explicit ApplyCursor(const Tensor<T>* t) {
    SHADE_CHECK(t != nullptr) << "TH_TENSOR_APPLY: null tensor";
    numel = NElement(t);
    if (numel == 0) return;
    data = TensorData(t);
    sizes_ = t->array.sizes().vec();
    strides_ = t->array.strides().vec();
    THContiguousSection(sizes_, strides_, &dim, &size, &stride);
    counter_.assign(static_cast<std::size_t>(dim + 1), 0);
  }
  /*!
   * \brief Moves `*p`, the start of the section just walked, to the next section; returns
   *  true when there is none (the walk is over).
   */
  bool NextSection(T** p) {
    for (index_t i = dim; i >= 0; --i) {
      ++counter_[i];
      *p += strides_[i];
      if (counter_[i] != sizes_[i]) return false;
      if (i == 0) return true;
      *p -= counter_[i] * strides_[i];
      counter_[i] = 0;
    }
    return true;
  }

  /*! \brief Elements of the tensor. */
  index_t numel = 0;
  /*! \brief First element (null when empty). */
  T* data = nullptr;
  /*! \brief Length of one section. */
  index_t size = 0;
  /*! \brief Stride within a section. */
  index_t stride = 0;
  /*! \brief Last dimension the counter walks (-1: one section covers the tensor). */
  index_t dim = -1;

 private:
  std::vector<index_t> sizes_, strides_, counter_;
};
/*! \brief TH_TENSOR_APPLY2/3's check: every tensor has the same number of elements. */
void CheckApplyNumel(const char* name1, index_t n1, const char* name2, index_t n2);

/*! \brief "[d0 x d1 x ...]" (TH's sizeDesc), truncated to fit THDescBuff. */
template <typename T>
THDescBuff SizeDesc(const Tensor<T>* t) {
  return TensorOps<T>::SizeDesc(t);
}

/*! \brief Shared by the per-type copyX functions: TH's element-wise copy between tensors
 *  of equal nElement, each walked in its own row-major order. */
template <typename D, typename S>
void TensorCopy(Tensor<D>* dst, const Tensor<S>* src) {
  CopyOps<D>::Copy(dst, src);
}

}  // namespace th
}  // namespace shade

/*! \brief TH's allocator: 64-byte aligned; THAlloc(0) is NULL. */
inline void* THAlloc(std::ptrdiff_t size) {
  SHADE_CHECK_GE(size, 0) << "THAlloc: " << size << " bytes";
  return size == 0 ? nullptr : shade::AlignedAlloc(static_cast<std::size_t>(size));
}
/*! \brief Frees THAlloc's memory. */
inline void THFree(void* ptr) {
  shade::AlignedFree(ptr);
}

/*! \brief TH's THError: throws shade::Error with the formatted message. */
#define THError(...) ::shade::th::ThrowFormatted(__FILE__, __LINE__, __VA_ARGS__)
/*! \brief TH's THArgCheck: throws shade::Error naming the argument when `cond` fails. */
#define THArgCheck(cond, argN, ...)                                                          \
  do {                                                                                       \
    if (!(cond)) ::shade::th::ThrowArgCheck(__FILE__, __LINE__, (argN), #cond, __VA_ARGS__); \
  } while (0)

/// Per-tensor part of the APPLY macros (internal): declares TENSOR's cursor and TH's local
/// names TENSOR_data, TENSOR_size, TENSOR_stride and TENSOR_i.
#define SHADE_TH_APPLY_DECLARE_(TYPE, TENSOR)                  \
  ::shade::th::ApplyCursor<TYPE> TENSOR##_cursor(TENSOR);      \
  TYPE* TENSOR##_data = TENSOR##_cursor.data;                  \
  const std::int64_t TENSOR##_size = TENSOR##_cursor.size;     \
  const std::int64_t TENSOR##_stride = TENSOR##_cursor.stride; \
  std::int64_t TENSOR##_i = 0;                                 \
  static_cast<void>(TENSOR##_size);                            \
  static_cast<void>(TENSOR##_stride)

/// APPLY2/3 (internal): once TENSOR's section is walked, moves it to its next one.
#define SHADE_TH_APPLY_ADVANCE_(TENSOR)                                               \
  if (TENSOR##_i == TENSOR##_size) {                                                  \
    if (TENSOR##_cursor.dim == -1) break;                                             \
    TENSOR##_data -= TENSOR##_size * TENSOR##_stride;                                 \
    if (TENSOR##_cursor.NextSection(&TENSOR##_data)) TH_TENSOR_APPLY_hasFinished = 1; \
    TENSOR##_i = 0;                                                                   \
  }

/*!
 * \brief TH_TENSOR_APPLY(TYPE, TENSOR, CODE): runs CODE once per element of TENSOR in row-major
 *  order, with `TENSOR##_data` pointing at the element. As in TH, CODE may `break` out of the
 *  current contiguous section, and setting `TH_TENSOR_APPLY_hasFinished = 1` before the break
 *  ends the walk.
 */
#define TH_TENSOR_APPLY(TYPE, TENSOR, CODE)                                             \
  {                                                                                     \
    SHADE_TH_APPLY_DECLARE_(TYPE, TENSOR);                                              \
    int TH_TENSOR_APPLY_hasFinished = TENSOR##_cursor.numel == 0;                       \
    while (!TH_TENSOR_APPLY_hasFinished) {                                              \
      for (TENSOR##_i = 0; TENSOR##_i < TENSOR##_size;                                  \
           TENSOR##_i++, TENSOR##_data += TENSOR##_stride) {                            \
        CODE                                                                            \
      }                                                                                 \
      if (TENSOR##_cursor.dim == -1) break;                                             \
      TENSOR##_data -= TENSOR##_i * TENSOR##_stride;                                    \
      if (TENSOR##_cursor.NextSection(&TENSOR##_data)) TH_TENSOR_APPLY_hasFinished = 1; \
    }                                                                                   \
  }

/*!
 * \brief TH_TENSOR_APPLY2(TYPE1, TENSOR1, TYPE2, TENSOR2, CODE): CODE per element pair; the two
 *  tensors need the same number of elements (not the same shape) and are each walked in their
 *  own row-major order. Throws shade::Error ("inconsistent tensor size") otherwise.
 */
#define TH_TENSOR_APPLY2(TYPE1, TENSOR1, TYPE2, TENSOR2, CODE)               \
  {                                                                          \
    SHADE_TH_APPLY_DECLARE_(TYPE1, TENSOR1);                                 \
    SHADE_TH_APPLY_DECLARE_(TYPE2, TENSOR2);                                 \
    ::shade::th::CheckApplyNumel(#TENSOR1, TENSOR1##_cursor.numel, #TENSOR2, \
                                 TENSOR2##_cursor.numel);                    \
    int TH_TENSOR_APPLY_hasFinished = TENSOR1##_cursor.numel == 0;           \
    while (!TH_TENSOR_APPLY_hasFinished) {                                   \
      for (; TENSOR1##_i < TENSOR1##_size && TENSOR2##_i < TENSOR2##_size;   \
           TENSOR1##_i++, TENSOR2##_i++, TENSOR1##_data += TENSOR1##_stride, \
           TENSOR2##_data += TENSOR2##_stride) {                             \
        CODE                                                                 \
      }                                                                      \
      SHADE_TH_APPLY_ADVANCE_(TENSOR1)                                       \
      SHADE_TH_APPLY_ADVANCE_(TENSOR2)                                       \
    }                                                                        \
  }

/*! \brief TH_TENSOR_APPLY3: APPLY2 for three tensors of the same number of elements. */
#define TH_TENSOR_APPLY3(TYPE1, TENSOR1, TYPE2, TENSOR2, TYPE3, TENSOR3, CODE)              \
  {                                                                                         \
    SHADE_TH_APPLY_DECLARE_(TYPE1, TENSOR1);                                                \
    SHADE_TH_APPLY_DECLARE_(TYPE2, TENSOR2);                                                \
    SHADE_TH_APPLY_DECLARE_(TYPE3, TENSOR3);                                                \
    ::shade::th::CheckApplyNumel(#TENSOR1, TENSOR1##_cursor.numel, #TENSOR2,                \
                                 TENSOR2##_cursor.numel);                                   \
    ::shade::th::CheckApplyNumel(#TENSOR1, TENSOR1##_cursor.numel, #TENSOR3,                \
                                 TENSOR3##_cursor.numel);                                   \
    int TH_TENSOR_APPLY_hasFinished = TENSOR1##_cursor.numel == 0;                          \
    while (!TH_TENSOR_APPLY_hasFinished) {                                                  \
      for (; TENSOR1##_i < TENSOR1##_size && TENSOR2##_i < TENSOR2##_size &&                \
             TENSOR3##_i < TENSOR3##_size;                                                  \
           TENSOR1##_i++, TENSOR2##_i++, TENSOR3##_i++, TENSOR1##_data += TENSOR1##_stride, \
           TENSOR2##_data += TENSOR2##_stride, TENSOR3##_data += TENSOR3##_stride) {        \
        CODE                                                                                \
      }                                                                                     \
      SHADE_TH_APPLY_ADVANCE_(TENSOR1)                                                      \
      SHADE_TH_APPLY_ADVANCE_(TENSOR2)                                                      \
      SHADE_TH_APPLY_ADVANCE_(TENSOR3)                                                      \
    }                                                                                       \
  }

// ------------------------------------------------------------------------------ concrete names
/// Defines (internal) the concrete THStorage / THTensor functions for real type R (C++ type T);
/// every TH type gets them below. The bodies forward to shade::th, which checks every argument.
#define SHADE_TH_DEFINE_REAL_(R, T)                                                                \
  typedef ::shade::th::Storage<T> TH##R##Storage;                                                  \
  typedef ::shade::th::Tensor<T> TH##R##Tensor;                                                    \
  /* ---- THStorage */                                                                             \
  inline TH##R##Storage* TH##R##Storage_new(void) {                                                \
    return ::shade::th::StorageNew<T>();                                                           \
  }                                                                                                \
  inline TH##R##Storage* TH##R##Storage_newWithSize(std::ptrdiff_t size) {                         \
    return ::shade::th::StorageNewWithSize<T>(size);                                               \
  }                                                                                                \
  inline TH##R##Storage* TH##R##Storage_newWithSize1(T a) {                                        \
    TH##R##Storage* s = ::shade::th::StorageNewWithSize<T>(1);                                     \
    ::shade::th::StorageData(s)[0] = a;                                                            \
    return s;                                                                                      \
  }                                                                                                \
  inline TH##R##Storage* TH##R##Storage_newWithSize2(T a, T b) {                                   \
    TH##R##Storage* s = ::shade::th::StorageNewWithSize<T>(2);                                     \
    T* d = ::shade::th::StorageData(s);                                                            \
    d[0] = a;                                                                                      \
    d[1] = b;                                                                                      \
    return s;                                                                                      \
  }                                                                                                \
  inline TH##R##Storage* TH##R##Storage_newWithSize3(T a, T b, T c) {                              \
    TH##R##Storage* s = ::shade::th::StorageNewWithSize<T>(3);                                     \
    T* d = ::shade::th::StorageData(s);                                                            \
    d[0] = a;                                                                                      \
    d[1] = b;                                                                                      \
    d[2] = c;                                                                                      \
    return s;                                                                                      \
  }                                                                                                \
  inline TH##R##Storage* TH##R##Storage_newWithSize4(T a, T b, T c, T e) {                         \
    TH##R##Storage* s = ::shade::th::StorageNewWithSize<T>(4);                                     \
    T* d = ::shade::th::StorageData(s);                                                            \
    d[0] = a;                                                                                      \
    d[1] = b;                                                                                      \
    d[2] = c;                                                                                      \
    d[3] = e;                                                                                      \
    return s;                                                                                      \
  }                                                                                                \
  inline TH##R##Storage* TH##R##Storage_newWithData(T* data, std::ptrdiff_t size) {                \
    return ::shade::th::StorageNewWithData<T>(data, size);                                         \
  }                                                                                                \
  inline T* TH##R##Storage_data(const TH##R##Storage* s) {                                         \
    return ::shade::th::StorageData(s);                                                            \
  }                                                                                                \
  inline std::ptrdiff_t TH##R##Storage_size(const TH##R##Storage* s) {                             \
    return ::shade::th::StorageSize(s);                                                            \
  }                                                                                                \
  inline std::size_t TH##R##Storage_elementSize(void) {                                            \
    return sizeof(T);                                                                              \
  }                                                                                                \
  inline void TH##R##Storage_set(TH##R##Storage* s, std::ptrdiff_t idx, T value) {                 \
    ::shade::th::CheckStorageIndex(s, idx, "TH" #R "Storage_set");                                 \
    ::shade::th::StorageData(s)[idx] = value;                                                      \
  }                                                                                                \
  inline T TH##R##Storage_get(const TH##R##Storage* s, std::ptrdiff_t idx) {                       \
    ::shade::th::CheckStorageIndex(s, idx, "TH" #R "Storage_get");                                 \
    return ::shade::th::StorageData(s)[idx];                                                       \
  }                                                                                                \
  inline void TH##R##Storage_retain(TH##R##Storage* s) {                                           \
    ::shade::th::StorageRetain(s);                                                                 \
  }                                                                                                \
  inline void TH##R##Storage_free(TH##R##Storage* s) {                                             \
    ::shade::th::StorageFree(s);                                                                   \
  }                                                                                                \
  inline void TH##R##Storage_resize(TH##R##Storage* s, std::ptrdiff_t size) {                      \
    ::shade::th::StorageResize(s, size);                                                           \
  }                                                                                                \
  inline void TH##R##Storage_fill(TH##R##Storage* s, T value) {                                    \
    ::shade::th::StorageFill(s, value);                                                            \
  }                                                                                                \
  inline void TH##R##Storage_copy(TH##R##Storage* s, TH##R##Storage* src) {                        \
    ::shade::th::StorageCopy(s, src);                                                              \
  }                                                                                                \
  /* ---- THTensor: attributes */                                                                  \
  inline TH##R##Storage* TH##R##Tensor_storage(const TH##R##Tensor* t) {                           \
    SHADE_CHECK(t != nullptr) << "TH" #R "Tensor_storage: null tensor";                            \
    return t->storage;                                                                             \
  }                                                                                                \
  inline std::ptrdiff_t TH##R##Tensor_storageOffset(const TH##R##Tensor* t) {                      \
    SHADE_CHECK(t != nullptr) << "TH" #R "Tensor_storageOffset: null tensor";                      \
    return t->storage_offset;                                                                      \
  }                                                                                                \
  inline int TH##R##Tensor_nDimension(const TH##R##Tensor* t) {                                    \
    return ::shade::th::NDimension(t);                                                             \
  }                                                                                                \
  inline long TH##R##Tensor_size(const TH##R##Tensor* t, int dim) { /* NOLINT(runtime/int) */      \
    ::shade::th::CheckDim(t, dim, "TH" #R "Tensor_size");                                          \
    return t->array.size(dim);                                                                     \
  }                                                                                                \
  inline long TH##R##Tensor_stride(const TH##R##Tensor* t, int dim) { /* NOLINT(runtime/int) */    \
    ::shade::th::CheckDim(t, dim, "TH" #R "Tensor_stride");                                        \
    return t->array.stride(dim);                                                                   \
  }                                                                                                \
  inline T* TH##R##Tensor_data(const TH##R##Tensor* t) {                                           \
    return ::shade::th::TensorData(t);                                                             \
  }                                                                                                \
  inline std::ptrdiff_t TH##R##Tensor_nElement(const TH##R##Tensor* t) {                           \
    return ::shade::th::NElement(t);                                                               \
  }                                                                                                \
  inline int TH##R##Tensor_isContiguous(const TH##R##Tensor* t) {                                  \
    return ::shade::th::NDimension(t) == 0 || t->array.is_contiguous();                            \
  }                                                                                                \
  inline int TH##R##Tensor_isSameSizeAs(const TH##R##Tensor* a, const TH##R##Tensor* b) {          \
    return ::shade::th::TensorIsSameSizeAs(a, b);                                                  \
  }                                                                                                \
  inline int TH##R##Tensor_isSetTo(const TH##R##Tensor* a, const TH##R##Tensor* b) {               \
    return ::shade::th::TensorIsSetTo(a, b);                                                       \
  }                                                                                                \
  inline THDescBuff TH##R##Tensor_sizeDesc(const TH##R##Tensor* t) {                               \
    return ::shade::th::SizeDesc(t);                                                               \
  }                                                                                                \
  /* ---- THTensor: construction */                                                                \
  inline TH##R##Tensor* TH##R##Tensor_new(void) {                                                  \
    return ::shade::th::TensorNew<T>();                                                            \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newWithTensor(TH##R##Tensor* src) {                          \
    return ::shade::th::TensorNewWithTensor(src);                                                  \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newWithSize1d(long s0) { /* NOLINT(runtime/int) */           \
    const ::shade::index_t s[] = {s0};                                                             \
    return ::shade::th::TensorNewWithSize<T>(1, s);                                                \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newWithSize2d(long s0, long s1) { /* NOLINT */               \
    const ::shade::index_t s[] = {s0, s1};                                                         \
    return ::shade::th::TensorNewWithSize<T>(2, s);                                                \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newWithSize3d(long s0, long s1, long s2) { /* NOLINT */      \
    const ::shade::index_t s[] = {s0, s1, s2};                                                     \
    return ::shade::th::TensorNewWithSize<T>(3, s);                                                \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newWithSize4d(long s0, long s1, long s2,                     \
                                                    long s3) { /* NOLINT */                        \
    const ::shade::index_t s[] = {s0, s1, s2, s3};                                                 \
    return ::shade::th::TensorNewWithSize<T>(4, s);                                                \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newWithStorage1d(TH##R##Storage* st, std::ptrdiff_t off,     \
                                                       long s0, long t0) { /* NOLINT */            \
    const ::shade::index_t s[] = {s0}, str[] = {t0};                                               \
    return ::shade::th::TensorNewView<T>(st, off, 1, s, str);                                      \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newWithStorage2d(                                            \
      TH##R##Storage* st, std::ptrdiff_t off, long s0, long t0, long s1, long t1) { /* NOLINT */   \
    const ::shade::index_t s[] = {s0, s1}, str[] = {t0, t1};                                       \
    return ::shade::th::TensorNewView<T>(st, off, 2, s, str);                                      \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newWithStorage3d(TH##R##Storage* st, std::ptrdiff_t off,     \
                                                       long s0, long t0, long s1, long t1,         \
                                                       long s2, long t2) { /* NOLINT */            \
    const ::shade::index_t s[] = {s0, s1, s2}, str[] = {t0, t1, t2};                               \
    return ::shade::th::TensorNewView<T>(st, off, 3, s, str);                                      \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newWithStorage4d(                                            \
      TH##R##Storage* st, std::ptrdiff_t off, long s0, long t0, long s1, long t1, long s2,         \
      long t2, long s3, long t3) { /* NOLINT */                                                    \
    const ::shade::index_t s[] = {s0, s1, s2, s3}, str[] = {t0, t1, t2, t3};                       \
    return ::shade::th::TensorNewView<T>(st, off, 4, s, str);                                      \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newClone(TH##R##Tensor* t) {                                 \
    return ::shade::th::TensorNewClone(t);                                                         \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newContiguous(TH##R##Tensor* t) {                            \
    return ::shade::th::TensorNewContiguous(t);                                                    \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newSelect(TH##R##Tensor* t, int dim,                         \
                                                long idx) { /* NOLINT */                           \
    return ::shade::th::TensorNewView(                                                             \
        t, [&](TH##R##Tensor* r) { ::shade::th::TensorSelect(r, t, dim, idx); });                  \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newNarrow(TH##R##Tensor* t, int dim, long first,             \
                                                long size) { /* NOLINT */                          \
    return ::shade::th::TensorNewView(                                                             \
        t, [&](TH##R##Tensor* r) { ::shade::th::TensorNarrow(r, t, dim, first, size); });          \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newTranspose(TH##R##Tensor* t, int d1, int d2) {             \
    return ::shade::th::TensorNewView(                                                             \
        t, [&](TH##R##Tensor* r) { ::shade::th::TensorTranspose(r, t, d1, d2); });                 \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newUnfold(TH##R##Tensor* t, int dim, long size,              \
                                                long step) { /* NOLINT */                          \
    return ::shade::th::TensorNewView(                                                             \
        t, [&](TH##R##Tensor* r) { ::shade::th::TensorUnfold(r, t, dim, size, step); });           \
  }                                                                                                \
  /* ---- THTensor: resizing and re-viewing */                                                     \
  inline void TH##R##Tensor_resizeNd(TH##R##Tensor* t, int nd, long* size,                         \
                                     long* stride) {                                /* NOLINT */   \
    static_assert(sizeof(long) == sizeof(::shade::index_t), "TH's long is 64-bit"); /* NOLINT */   \
    ::shade::th::TensorResizeNd(t, nd, reinterpret_cast<const ::shade::index_t*>(size),            \
                                reinterpret_cast<const ::shade::index_t*>(stride));                \
  }                                                                                                \
  inline void TH##R##Tensor_resize1d(TH##R##Tensor* t, long s0) { /* NOLINT */                     \
    const ::shade::index_t s[] = {s0};                                                             \
    ::shade::th::TensorResizeNd(t, 1, s, nullptr);                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_resize2d(TH##R##Tensor* t, long s0, long s1) { /* NOLINT */            \
    const ::shade::index_t s[] = {s0, s1};                                                         \
    ::shade::th::TensorResizeNd(t, 2, s, nullptr);                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_resize3d(TH##R##Tensor* t, long s0, long s1, long s2) { /* NOLINT */   \
    const ::shade::index_t s[] = {s0, s1, s2};                                                     \
    ::shade::th::TensorResizeNd(t, 3, s, nullptr);                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_resize4d(TH##R##Tensor* t, long s0, long s1, long s2,                  \
                                     long s3) { /* NOLINT */                                       \
    const ::shade::index_t s[] = {s0, s1, s2, s3};                                                 \
    ::shade::th::TensorResizeNd(t, 4, s, nullptr);                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_resize5d(TH##R##Tensor* t, long s0, long s1, long s2, long s3,         \
                                     long s4) { /* NOLINT */                                       \
    const ::shade::index_t s[] = {s0, s1, s2, s3, s4};                                             \
    ::shade::th::TensorResizeNd(t, 5, s, nullptr);                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_resizeAs(TH##R##Tensor* t, const TH##R##Tensor* src) {                 \
    ::shade::th::TensorResizeNd(t, ::shade::th::NDimension(src), src->array.sizes().data(),        \
                                nullptr);                                                          \
  }                                                                                                \
  inline void TH##R##Tensor_set(TH##R##Tensor* self, TH##R##Tensor* src) {                         \
    ::shade::th::TensorSet(self, src);                                                             \
  }                                                                                                \
  inline void TH##R##Tensor_setStorage1d(TH##R##Tensor* t, TH##R##Storage* st, std::ptrdiff_t off, \
                                         long s0, long t0) { /* NOLINT */                          \
    const ::shade::index_t s[] = {s0}, str[] = {t0};                                               \
    ::shade::th::SetView(t, st, off, 1, s, str);                                                   \
  }                                                                                                \
  inline void TH##R##Tensor_setStorage2d(TH##R##Tensor* t, TH##R##Storage* st, std::ptrdiff_t off, \
                                         long s0, long t0, long s1, long t1) { /* NOLINT */        \
    const ::shade::index_t s[] = {s0, s1}, str[] = {t0, t1};                                       \
    ::shade::th::SetView(t, st, off, 2, s, str);                                                   \
  }                                                                                                \
  inline void TH##R##Tensor_setStorage3d(TH##R##Tensor* t, TH##R##Storage* st, std::ptrdiff_t off, \
                                         long s0, long t0, long s1, long t1, long s2,              \
                                         long t2) { /* NOLINT */                                   \
    const ::shade::index_t s[] = {s0, s1, s2}, str[] = {t0, t1, t2};                               \
    ::shade::th::SetView(t, st, off, 3, s, str);                                                   \
  }                                                                                                \
  inline void TH##R##Tensor_setStorage4d(TH##R##Tensor* t, TH##R##Storage* st, std::ptrdiff_t off, \
                                         long s0, long t0, long s1, long t1, long s2, long t2,     \
                                         long s3, long t3) { /* NOLINT */                          \
    const ::shade::index_t s[] = {s0, s1, s2, s3}, str[] = {t0, t1, t2, t3};                       \
    ::shade::th::SetView(t, st, off, 4, s, str);                                                   \
  }                                                                                                \
  inline void TH##R##Tensor_setStorageNd(TH##R##Tensor* t, TH##R##Storage* st, std::ptrdiff_t off, \
                                         int nd, long* size, long* stride) { /* NOLINT */          \
    ::shade::th::SetView(t, st, off, nd, reinterpret_cast<const ::shade::index_t*>(size),          \
                         reinterpret_cast<const ::shade::index_t*>(stride));                       \
  }                                                                                                \
  inline void TH##R##Tensor_narrow(TH##R##Tensor* self, TH##R##Tensor* src, int dim, long first,   \
                                   long size) { /* NOLINT */                                       \
    ::shade::th::TensorNarrow(self, src ? src : self, dim, first, size);                           \
  }                                                                                                \
  inline void TH##R##Tensor_select(TH##R##Tensor* self, TH##R##Tensor* src, int dim,               \
                                   long idx) { /* NOLINT */                                        \
    ::shade::th::TensorSelect(self, src ? src : self, dim, idx);                                   \
  }                                                                                                \
  inline void TH##R##Tensor_transpose(TH##R##Tensor* self, TH##R##Tensor* src, int d1, int d2) {   \
    ::shade::th::TensorTranspose(self, src ? src : self, d1, d2);                                  \
  }                                                                                                \
  inline void TH##R##Tensor_unfold(TH##R##Tensor* self, TH##R##Tensor* src, int dim, long size,    \
                                   long step) { /* NOLINT */                                       \
    ::shade::th::TensorUnfold(self, src ? src : self, dim, size, step);                            \
  }                                                                                                \
  inline void TH##R##Tensor_squeeze(TH##R##Tensor* self, TH##R##Tensor* src) {                     \
    ::shade::th::TensorSqueeze(self, src ? src : self);                                            \
  }                                                                                                \
  inline void TH##R##Tensor_squeeze1d(TH##R##Tensor* self, TH##R##Tensor* src, int dim) {          \
    ::shade::th::TensorSqueeze1d(self, src ? src : self, dim);                                     \
  }                                                                                                \
  inline void TH##R##Tensor_unsqueeze1d(TH##R##Tensor* self, TH##R##Tensor* src, int dim) {        \
    ::shade::th::TensorUnsqueeze1d(self, src ? src : self, dim);                                   \
  }                                                                                                \
  /* ---- THTensor: refcount */                                                                    \
  inline void TH##R##Tensor_retain(TH##R##Tensor* t) {                                             \
    ::shade::th::TensorRetain(t);                                                                  \
  }                                                                                                \
  inline void TH##R##Tensor_free(TH##R##Tensor* t) {                                               \
    ::shade::th::TensorFree(t);                                                                    \
  }                                                                                                \
  /* ---- THTensor: element access (checked) */                                                    \
  inline void TH##R##Tensor_set1d(TH##R##Tensor* t, long x0, T v) { /* NOLINT */                   \
    ::shade::th::TensorElement(t, {x0}, "TH" #R "Tensor_set1d") = v;                               \
  }                                                                                                \
  inline void TH##R##Tensor_set2d(TH##R##Tensor* t, long x0, long x1, T v) { /* NOLINT */          \
    ::shade::th::TensorElement(t, {x0, x1}, "TH" #R "Tensor_set2d") = v;                           \
  }                                                                                                \
  inline void TH##R##Tensor_set3d(TH##R##Tensor* t, long x0, long x1, long x2, T v) { /* NOLINT */ \
    ::shade::th::TensorElement(t, {x0, x1, x2}, "TH" #R "Tensor_set3d") = v;                       \
  }                                                                                                \
  inline void TH##R##Tensor_set4d(TH##R##Tensor* t, long x0, long x1, long x2, long x3,            \
                                  T v) { /* NOLINT */                                              \
    ::shade::th::TensorElement(t, {x0, x1, x2, x3}, "TH" #R "Tensor_set4d") = v;                   \
  }                                                                                                \
  inline T TH##R##Tensor_get1d(const TH##R##Tensor* t, long x0) { /* NOLINT */                     \
    return ::shade::th::TensorElement(t, {x0}, "TH" #R "Tensor_get1d");                            \
  }                                                                                                \
  inline T TH##R##Tensor_get2d(const TH##R##Tensor* t, long x0, long x1) { /* NOLINT */            \
    return ::shade::th::TensorElement(t, {x0, x1}, "TH" #R "Tensor_get2d");                        \
  }                                                                                                \
  inline T TH##R##Tensor_get3d(const TH##R##Tensor* t, long x0, long x1, long x2) { /* NOLINT */   \
    return ::shade::th::TensorElement(t, {x0, x1, x2}, "TH" #R "Tensor_get3d");                    \
  }                                                                                                \
  inline T TH##R##Tensor_get4d(const TH##R##Tensor* t, long x0, long x1, long x2,                  \
                               long x3) { /* NOLINT */                                             \
    return ::shade::th::TensorElement(t, {x0, x1, x2, x3}, "TH" #R "Tensor_get4d");                \
  }                                                                                                \
  /* ---- THTensor: whole-tensor writes */                                                         \
  inline void TH##R##Tensor_copy(TH##R##Tensor* t, TH##R##Tensor* src) {                           \
    ::shade::th::TensorCopy(t, src);                                                               \
  }                                                                                                \
  inline void TH##R##Tensor_fill(TH##R##Tensor* t, T value) {                                      \
    ::shade::th::TensorFill(t, value);                                                             \
  }                                                                                                \
  inline void TH##R##Tensor_zero(TH##R##Tensor* t) {                                               \
    ::shade::th::TensorFill(t, ::shade::th::ConvertReal<T>(0));                                    \
  }                                                                                                \
  inline void TH##R##Tensor_freeCopyTo(TH##R##Tensor* self, TH##R##Tensor* dst) {                  \
    if (self != dst) ::shade::th::TensorCopy(dst, self);                                           \
    ::shade::th::TensorFree(self);                                                                 \
  }

SHADE_TH_DEFINE_REAL_(Byte, std::uint8_t)
SHADE_TH_DEFINE_REAL_(Char, std::int8_t)
SHADE_TH_DEFINE_REAL_(Short, std::int16_t)
SHADE_TH_DEFINE_REAL_(Int, std::int32_t)
SHADE_TH_DEFINE_REAL_(Long, std::int64_t)
SHADE_TH_DEFINE_REAL_(Float, float)
SHADE_TH_DEFINE_REAL_(Double, double)
SHADE_TH_DEFINE_REAL_(Half, THHalf)

/// Defines (internal) R's size/stride storages and cross-type copies, which need every type
/// defined first.
#define SHADE_TH_DEFINE_REAL_2_(R, T)                                                              \
  inline THLongStorage* TH##R##Tensor_newSizeOf(TH##R##Tensor* t) {                                \
    const int nd = ::shade::th::NDimension(t);                                                     \
    THLongStorage* s = ::shade::th::StorageNewWithSize<std::int64_t>(nd);                          \
    for (int d = 0; d < nd; ++d) ::shade::th::StorageData(s)[d] = t->array.size(d);                \
    return s;                                                                                      \
  }                                                                                                \
  inline THLongStorage* TH##R##Tensor_newStrideOf(TH##R##Tensor* t) {                              \
    const int nd = ::shade::th::NDimension(t);                                                     \
    THLongStorage* s = ::shade::th::StorageNewWithSize<std::int64_t>(nd);                          \
    for (int d = 0; d < nd; ++d) ::shade::th::StorageData(s)[d] = t->array.stride(d);              \
    return s;                                                                                      \
  }                                                                                                \
  inline TH##R##Tensor* TH##R##Tensor_newWithSize(THLongStorage* size, THLongStorage* stride) {    \
    SHADE_CHECK(size != nullptr) << "TH" #R "Tensor_newWithSize: null size";                       \
    SHADE_CHECK_SHAPE(!stride ||                                                                   \
                      ::shade::th::StorageSize(stride) == ::shade::th::StorageSize(size))          \
        << "TH" #R "Tensor_newWithSize: invalid stride (" << ::shade::th::StorageSize(stride)      \
        << " entries for " << ::shade::th::StorageSize(size) << " sizes)";                         \
    return ::shade::th::TensorNewWithSize<T>(static_cast<int>(::shade::th::StorageSize(size)),     \
                                             ::shade::th::StorageData(size),                       \
                                             stride ? ::shade::th::StorageData(stride) : nullptr); \
  }                                                                                                \
  inline void TH##R##Tensor_resize(TH##R##Tensor* t, THLongStorage* size, THLongStorage* stride) { \
    SHADE_CHECK(size != nullptr) << "TH" #R "Tensor_resize: null size";                            \
    SHADE_CHECK_SHAPE(!stride ||                                                                   \
                      ::shade::th::StorageSize(stride) == ::shade::th::StorageSize(size))          \
        << "TH" #R "Tensor_resize: invalid stride (" << ::shade::th::StorageSize(stride)           \
        << " entries for " << ::shade::th::StorageSize(size) << " sizes)";                         \
    ::shade::th::TensorResizeNd(t, static_cast<int>(::shade::th::StorageSize(size)),               \
                                ::shade::th::StorageData(size),                                    \
                                stride ? ::shade::th::StorageData(stride) : nullptr);              \
  }                                                                                                \
  inline void TH##R##Tensor_copyByte(TH##R##Tensor* t, THByteTensor* s) {                          \
    ::shade::th::TensorCopy(t, s);                                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_copyChar(TH##R##Tensor* t, THCharTensor* s) {                          \
    ::shade::th::TensorCopy(t, s);                                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_copyShort(TH##R##Tensor* t, THShortTensor* s) {                        \
    ::shade::th::TensorCopy(t, s);                                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_copyInt(TH##R##Tensor* t, THIntTensor* s) {                            \
    ::shade::th::TensorCopy(t, s);                                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_copyLong(TH##R##Tensor* t, THLongTensor* s) {                          \
    ::shade::th::TensorCopy(t, s);                                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_copyFloat(TH##R##Tensor* t, THFloatTensor* s) {                        \
    ::shade::th::TensorCopy(t, s);                                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_copyDouble(TH##R##Tensor* t, THDoubleTensor* s) {                      \
    ::shade::th::TensorCopy(t, s);                                                                 \
  }                                                                                                \
  inline void TH##R##Tensor_copyHalf(TH##R##Tensor* t, THHalfTensor* s) {                          \
    ::shade::th::TensorCopy(t, s);                                                                 \
  }

SHADE_TH_DEFINE_REAL_2_(Byte, std::uint8_t)
SHADE_TH_DEFINE_REAL_2_(Char, std::int8_t)
SHADE_TH_DEFINE_REAL_2_(Short, std::int16_t)
SHADE_TH_DEFINE_REAL_2_(Int, std::int32_t)
SHADE_TH_DEFINE_REAL_2_(Long, std::int64_t)
SHADE_TH_DEFINE_REAL_2_(Float, float)
SHADE_TH_DEFINE_REAL_2_(Double, double)
SHADE_TH_DEFINE_REAL_2_(Half, THHalf)

// ------------------------------------------------------------------------------ generic names
/*! \brief The string literal "xy" of x and y after their expansion (TH's). */
#define TH_CONCAT_STRING_2(x, y) TH_CONCAT_STRING_2_EXPAND(x, y)
/*! \brief The string literal "xy" of x and y as written (no expansion). */
#define TH_CONCAT_STRING_2_EXPAND(x, y) #x #y
/*! \brief The token xy of x and y after their expansion (TH's). */
#define TH_CONCAT_2(x, y) TH_CONCAT_2_EXPAND(x, y)
/*! \brief The token xy of x and y as written (no expansion). */
#define TH_CONCAT_2_EXPAND(x, y) x##y
/*! \brief The token xyz after expansion (TH's). */
#define TH_CONCAT_3(x, y, z) TH_CONCAT_3_EXPAND(x, y, z)
/*! \brief The token xyz as written (no expansion). */
#define TH_CONCAT_3_EXPAND(x, y, z) x##y##z
/*! \brief The token xyzw after expansion (TH's). */
#define TH_CONCAT_4(x, y, z, w) TH_CONCAT_4_EXPAND(x, y, z, w)
/*! \brief The token xyzw as written (no expansion). */
#define TH_CONCAT_4_EXPAND(x, y, z, w) x##y##z##w

/*! \brief THTensor of the current `Real` (THFloatTensor when Real is Float). */
#define THTensor TH_CONCAT_3(TH, Real, Tensor)
/*! \brief THTensor_(NAME): the function NAME of the current `Real`'s tensor. */
#define THTensor_(NAME) TH_CONCAT_4(TH, Real, Tensor_, NAME)
/*! \brief THStorage of the current `Real`. */
#define THStorage TH_CONCAT_3(TH, Real, Storage)
/*! \brief THStorage_(NAME): the function NAME of the current `Real`'s storage. */
#define THStorage_(NAME) TH_CONCAT_4(TH, Real, Storage_, NAME)

#endif  // SHADE_COMPAT_TH_H_
