/*!
 * \file ndarray.h
 * \brief `NDArray`: the dynamic, refcounted, any-rank, any-dtype, any-stride array.
 *
 * Storage is the physical table, an NDArray is a view on it (TH): sizes, strides and an offset
 * over a refcounted Storage that also carries the element TypeMeta and the device. On top of
 * that sits Caffe2's lifecycle: `Resize` is lazy (memory appears at the first `mutable_data`),
 * `Extend` grows in amortised O(1), `ShrinkTo` never reallocates, `ShareData` aliases storages.
 *
 * Handle semantics: copying an NDArray shares the impl (a second name for the same array);
 * views (transpose, narrow, ...) get their own impl over the same Storage; `Clone()` copies
 * the elements. A default-constructed NDArray is undefined; every call that needs an impl
 * throws shade::Error on it.
 *
 * Deliberate difference from Caffe2: `data<T>()` returns storage data + offset for any layout
 * (TH's THTensor_(data)), since strided kernels need it; the calls that may (re)allocate or
 * that assume row-major order (`raw_mutable_data`, `Reshape`, `Extend`, `ShrinkTo`,
 * `ReserveSpace`) keep Caffe2's contiguity checks and messages.
 */
#ifndef SHADE_NDARRAY_NDARRAY_H_
#define SHADE_NDARRAY_NDARRAY_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "shade/base/checked.h"
#include "shade/base/device.h"
#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/base/type_meta.h"
#include "shade/memory/intrusive_ptr.h"
#include "shade/memory/storage.h"
#include "shade/ndarray/ndarray_impl.h"
#include "shade/shape/tshape.h"

namespace shade {

/*!
 * \brief Non-owning list of index_t (sizes, strides, dims), like c10::IntArrayRef. Built from
 *  a braced list, a vector, a TShape or a pointer + length; valid while its source lives.
 */
class IndexSpan {
 public:
  /*! \brief Empty list. */
  constexpr IndexSpan() noexcept = default;
  /*! \brief From a braced list (valid for the full expression, like IntArrayRef's). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  IndexSpan(std::initializer_list<index_t> l) noexcept  // NOLINT(runtime/explicit)
      : data_(l.begin()), size_(l.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  /*! \brief From a vector. */
  IndexSpan(const std::vector<index_t>& v) noexcept  // NOLINT(runtime/explicit)
      : data_(v.data()), size_(v.size()) {}
  /*! \brief From a TShape. */
  IndexSpan(const TShape& s) noexcept  // NOLINT(runtime/explicit)
      : data_(s.data()), size_(static_cast<std::size_t>(s.ndim())) {}
  /*! \brief From a pointer and a length. */
  IndexSpan(const index_t* data, std::size_t size) noexcept : data_(data), size_(size) {}
  /*! \brief Element i (unchecked). */
  index_t operator[](std::size_t i) const noexcept {
    return data_[i];
  }
  /*! \brief Number of entries. */
  std::size_t size() const noexcept {
    return size_;
  }
  /*! \brief True when empty. */
  bool empty() const noexcept {
    return size_ == 0;
  }
  /*! \brief First entry. */
  const index_t* data() const noexcept {
    return data_;
  }
  /*! \brief Iteration. */
  const index_t* begin() const noexcept {
    return data_;
  }
  /*! \brief Iteration. */
  const index_t* end() const noexcept {
    return data_ + size_;
  }
  /*! \brief Owning copy. */
  std::vector<index_t> vec() const {
    return std::vector<index_t>(begin(), end());
  }
  /*! \brief Element-wise equality. */
  friend bool operator==(IndexSpan a, IndexSpan b) noexcept {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (a.data_[i] != b.data_[i]) return false;
    }
    return true;
  }
  /*! \brief Element-wise inequality. */
  friend bool operator!=(IndexSpan a, IndexSpan b) noexcept {
    return !(a == b);
  }

 private:
  const index_t* data_ = nullptr;
  std::size_t size_ = 0;
};

/*! \brief Prints "(2,3,4)". */
std::ostream& operator<<(std::ostream& os, IndexSpan s);

/*!
 * \brief Fast unchecked typed access to an N-d NDArray (LibTorch's TensorAccessor):
 *  `acc[i][j]` is `data[i*stride0 + j*stride1]` with no checks. Valid while the array lives.
 */
template <typename T, int N>
class NDAccessor {
 public:
  /*! \brief Over raw pointers (sizes and strides point into the NDArray's impl). */
  NDAccessor(T* data, const index_t* sizes, const index_t* strides) noexcept
      : data_(data), sizes_(sizes), strides_(strides) {}
  /*! \brief The (N-1)-d slice at i. */
  SHADE_XINLINE NDAccessor<T, N - 1> operator[](index_t i) const noexcept {
    return NDAccessor<T, N - 1>(data_ + i * strides_[0], sizes_ + 1, strides_ + 1);
  }
  /*! \brief Size of dimension d. */
  index_t size(int d) const noexcept { return sizes_[d]; }
  /*! \brief Stride of dimension d (elements). */
  index_t stride(int d) const noexcept { return strides_[d]; }
  /*! \brief Pointer to element 0. */
  T* data() const noexcept { return data_; }

 private:
  T* data_;
  const index_t* sizes_;
  const index_t* strides_;
};

/*! \brief 1-d accessor: `acc[i]` is the element. */
template <typename T>
class NDAccessor<T, 1> {
 public:
  /*! \brief Over raw pointers. */
  NDAccessor(T* data, const index_t* sizes, const index_t* strides) noexcept
      : data_(data), sizes_(sizes), strides_(strides) {}
  /*! \brief Element i. */
  SHADE_XINLINE T& operator[](index_t i) const noexcept { return data_[i * strides_[0]]; }
  /*! \brief Size of dimension d. */
  index_t size(int d) const noexcept { return sizes_[d]; }
  /*! \brief Stride of dimension d (elements). */
  index_t stride(int d) const noexcept { return strides_[d]; }
  /*! \brief Pointer to element 0. */
  T* data() const noexcept { return data_; }

 private:
  T* data_;
  const index_t* sizes_;
  const index_t* strides_;
};

/*! \brief The dynamic array handle (see the file comment). */
class NDArray {
 public:
  // ---------------------------------------------------------------- construction and state
  /*! \brief Undefined NDArray (no impl): `defined()` is false. */
  NDArray() noexcept = default;
  /*!
   * \brief Caffe2's `Tensor(dims, device)`: sizes set, element type unset, no memory yet;
   *  memory appears at the first `mutable_data<T>()` / `raw_mutable_data(meta)`.
   */
  explicit NDArray(IndexSpan dims, int dev_mask = cpu::kDevMask);
  /*! \brief Wraps an impl (shares it). */
  explicit NDArray(intrusive_ptr<NDArrayImpl> impl) noexcept : impl_(std::move(impl)) {}

  /*! \brief Allocated, uninitialized, contiguous array (non-trivial types default-constructed). */
  static NDArray Empty(IndexSpan sizes, TypeMeta dtype, int dev_mask = cpu::kDevMask);
  /*! \brief Allocated, uninitialized, contiguous array of a numeric dtype flag. */
  static NDArray Empty(IndexSpan sizes, int type_flag, int dev_mask = cpu::kDevMask);
  /*! \brief `Empty` of element type T. */
  template <typename T>
  static NDArray Empty(IndexSpan sizes, int dev_mask = cpu::kDevMask) {
    return Empty(sizes, TypeMeta::Make<T>(), dev_mask);
  }
  /*!
   * \brief NDArray over caller memory, contiguous. With an empty `deleter` the memory is
   *  borrowed (the caller keeps it alive); otherwise the last owner calls `deleter(data)`.
   */
  static NDArray FromBlob(void* data, IndexSpan sizes, TypeMeta dtype,
                          DataDeleter deleter = DataDeleter(), int dev_mask = cpu::kDevMask);
  /*!
   * \brief NDArray over caller memory with explicit strides (elements, >= 0); the memory is
   *  assumed to span exactly the reachable elements.
   */
  static NDArray FromBlob(void* data, IndexSpan sizes, IndexSpan strides, TypeMeta dtype,
                          DataDeleter deleter = DataDeleter(), int dev_mask = cpu::kDevMask);
  /*! \brief View of an existing Storage, validated like `as_strided`. */
  static NDArray FromStorage(Storage storage, IndexSpan sizes, IndexSpan strides,
                             index_t storage_offset);

  /*! \brief True when the handle has an impl. */
  bool defined() const noexcept { return impl_.defined(); }
  /*! \brief True when the handle has an impl. */
  explicit operator bool() const noexcept { return impl_.defined(); }
  /*! \brief The impl (null when undefined). */
  NDArrayImpl* unsafeGetImpl() const noexcept { return impl_.get(); }
  /*! \brief Handles sharing this impl. */
  long use_count() const noexcept { return static_cast<long>(impl_.use_count()); }  // NOLINT
  /*! \brief True when both handles name the same impl. */
  bool is_same(const NDArray& o) const noexcept { return impl_ == o.impl_; }

  // ---------------------------------------------------------------- metadata
  /*! \brief Rank. */
  int ndim() const { return Impl()->ndim(); }
  /*! \brief Rank (LibTorch's name). */
  int dim() const { return ndim(); }
  /*! \brief Sizes. */
  IndexSpan sizes() const { return IndexSpan(Impl()->sizes(), static_cast<std::size_t>(ndim())); }
  /*! \brief Strides in elements. */
  IndexSpan strides() const {
    return IndexSpan(Impl()->strides(), static_cast<std::size_t>(ndim()));
  }
  /*! \brief Sizes as a TShape. */
  TShape shape() const { return TShape(Impl()->sizes(), Impl()->sizes() + ndim()); }
  /*! \brief Size of dimension d (negative d counts from the end); throws when out of range. */
  index_t size(index_t d) const { return Impl()->sizes()[WrapDim(d)]; }
  /*! \brief Stride of dimension d in elements (negative d counts from the end). */
  index_t stride(index_t d) const { return Impl()->strides()[WrapDim(d)]; }
  /*! \brief Number of elements. */
  index_t numel() const { return Impl()->numel(); }
  /*! \brief Offset of element 0 in the storage, in elements. */
  index_t storage_offset() const { return Impl()->storage_offset(); }
  /*! \brief Element type (uninitialized before the first typed allocation of a lazy array). */
  TypeMeta dtype() const { return Impl()->storage().dtype(); }
  /*! \brief dtype.h flag of the element type, or -1 when non-numeric or unset. */
  int type_flag() const { return dtype().flag(); }
  /*! \brief Bytes per element. */
  std::size_t itemsize() const { return dtype().itemsize(); }
  /*! \brief numel * itemsize (overflow-checked). */
  std::size_t nbytes() const;
  /*! \brief Bytes held by the storage (Caffe2's capacity_nbytes). */
  std::size_t capacity_nbytes() const { return Impl()->storage().capacity(); }
  /*! \brief Device mask (cpu::kDevMask, ...). */
  int dev_mask() const { return Impl()->storage().dev_mask(); }
  /*! \brief The storage. */
  const Storage& storage() const { return Impl()->storage(); }
  /*! \brief True when the strides are row-major for the sizes (size-1 dims ignored). */
  bool is_contiguous() const { return Impl()->is_contiguous(); }
  /*!
   * \brief NumPy's WRITEABLE flag: false after `set_writeable(false)` and for views made from a
   *  read-only array. Every write path (copy_, Fill, index_put_, Expr::eval(out), the in-place
   *  ops) calls CheckWriteable; reading is unaffected.
   */
  bool writeable() const { return Impl()->writeable(); }
  /*!
   * \brief Sets the WRITEABLE flag of this array (not of other views of its storage). Shade does
   *  not track view bases, so a read-only view may be made writeable again (NumPy refuses when
   *  the base is read-only).
   */
  void set_writeable(bool w) const { Impl()->set_writeable(w); }
  /*!
   * \brief Throws shade::ValueError "assignment destination is read-only" (NumPy's message,
   *  then `who` and the array) unless the array is writeable.
   */
  void CheckWriteable(const char* who) const;
  /*! \brief True when no two indices reach the same element (so the array can be written). */
  bool is_non_overlapping() const;
  /*! \brief True when the element type is T. */
  template <typename T>
  bool IsType() const {
    return dtype().Match<T>();
  }

  // ---------------------------------------------------------------- data
  /*! \brief Storage data + offset (TH's THTensor_(data)); null before allocation. */
  void* data_ptr() const;
  /*!
   * \brief Typed pointer to element 0 (any layout). Throws when memory is not allocated yet
   *  and numel > 0, or when T is not the element type (Caffe2's messages).
   */
  template <typename T>
  T* data() const {
    CheckTypedData(TypeMeta::Make<T>());
    return static_cast<T*>(data_ptr());
  }
  /*! \brief Untyped `data<T>()` (memory must be allocated unless numel is 0). */
  const void* raw_data() const;
  /*!
   * \brief Pointer to writable memory of type `meta`, allocating (or re-typing) as Caffe2
   *  does: kept when the type matches and memory exists; a shared storage of another type is
   *  replaced by a new one; raw types reuse a large enough buffer; non-trivial types are
   *  constructed (and later destroyed) element by element.
   */
  void* raw_mutable_data(TypeMeta meta);
  /*! \brief `raw_mutable_data` with the current element type (which must be set). */
  void* raw_mutable_data();
  /*! \brief Typed `raw_mutable_data`. */
  template <typename T>
  T* mutable_data() {
    return static_cast<T*>(raw_mutable_data(TypeMeta::Make<T>()));
  }

  // ---------------------------------------------------------------- Caffe2 lifecycle
  /*!
   * \brief Sets new sizes (row-major strides). When numel changes the memory is freed unless
   *  it still fits and the keep-on-shrink policy allows keeping it (or the array is reserved);
   *  the next `mutable_data` then allocates. Throws on negative sizes or numel overflow.
   */
  void Resize(IndexSpan dims);
  /*! \brief `Resize(d0, d1, ...)`; `Resize()` makes a scalar. */
  template <typename... Ts, typename = std::enable_if_t<(std::is_integral<Ts>::value && ...)>>
  void Resize(Ts... dims) {
    const index_t d[] = {static_cast<index_t>(dims)..., 0};
    Resize(IndexSpan(d, sizeof...(Ts)));
  }
  /*! \brief New sizes with the same numel, storage untouched; contiguous arrays only. */
  void Reshape(IndexSpan dims);
  /*!
   * \brief Grows the outermost dimension by `num`, keeping the data; when capacity runs out
   *  the new capacity is max(new, old * (100 + growthPct) / 100) rows: amortised O(1).
   */
  void Extend(index_t num, float growthPct);
  /*! \brief Shrinks the outermost dimension to `outer_dim` without reallocating. */
  void ShrinkTo(index_t outer_dim);
  /*! \brief Ensures capacity for `outer_dim` rows (discarding the data if it reallocates). */
  void ReserveSpace(index_t outer_dim);
  /*! \brief Shares `src`'s storage (and offset); numel must be equal already. */
  void ShareData(const NDArray& src);
  /*!
   * \brief Uses external memory as this array's data; `capacity` 0 means numel * itemsize;
   *  a null deleter borrows the memory.
   */
  template <typename Deleter = MemoryDeleter>
  void ShareExternalPointer(void* src, TypeMeta meta, std::size_t capacity = 0,
                            Deleter d = nullptr) {
    ShareExternalPointerImpl(src, meta, capacity, detail::MakeDeleter(std::move(d)));
  }
  /*! \brief Releases the memory (a new empty storage of the same type and device). */
  void FreeMemory();
  /*! \brief Deep copy: a new contiguous array with the same sizes, type and elements. */
  NDArray Clone() const;
  /*!
   * \brief Caffe2's CopyFrom: resizes this array to src's sizes and type, then copies the
   *  elements (src may be any layout).
   */
  void CopyFrom(const NDArray& src);

  /*! \brief Keep memory when a Resize shrinks (Caffe2's caffe2_keep_on_shrink; default true). */
  static void SetKeepOnShrink(bool keep);
  /*! \brief The keep-on-shrink setting. */
  static bool KeepOnShrink();
  /*!
   * \brief Largest number of bytes a shrinking Resize may leave unused before freeing
   *  (caffe2_max_keep_on_shrink_memory; default: no bound). Throws for a negative value.
   */
  static void SetMaxKeepOnShrinkMemory(std::int64_t bytes);
  /*! \brief The max-keep-on-shrink bound. */
  static std::int64_t MaxKeepOnShrinkMemory();

  // ---------------------------------------------------------------- element access (TH)
  /*! \brief Element at `idx` (bounds-checked, typed): `a.at<float>(1, 2) = 3`. */
  template <typename T, typename... I,
            typename = std::enable_if_t<(std::is_integral<I>::value && ...)>>
  T& at(I... idx) const {
    const index_t i[] = {static_cast<index_t>(idx)..., 0};
    return *static_cast<T*>(ElementPtr(IndexSpan(i, sizeof...(I)), TypeMeta::Make<T>()));
  }
  /*! \brief Element at an index list (bounds-checked, typed). */
  template <typename T>
  T& at(IndexSpan idx) const {
    return *static_cast<T*>(ElementPtr(idx, TypeMeta::Make<T>()));
  }
  /*! \brief Element at `idx` of any numeric dtype, as double (TH's get). */
  double get(IndexSpan idx) const;
  /*! \brief Sets element `idx` of any numeric dtype from a double (TH's set). */
  void set(IndexSpan idx, double value) const;
  /*! \brief Unchecked typed accessor; throws unless the dtype is T and the rank is N. */
  template <typename T, int N>
  NDAccessor<T, N> accessor() const {
    static_assert(N >= 1, "accessor<T, N>: N >= 1 (use at<T>() for a scalar)");
    CheckTypedData(TypeMeta::Make<T>());
    SHADE_CHECK_SHAPE_EQ(ndim(), N)
        << "accessor: the NDArray has rank " << ndim() << ", the accessor rank " << N;
    return NDAccessor<T, N>(static_cast<T*>(data_ptr()), Impl()->sizes(), Impl()->strides());
  }

  // ---------------------------------------------------------------- views (share storage)
  /*! \brief Swaps dimensions a and b. */
  NDArray transpose(index_t a, index_t b) const;
  /*! \brief Reorders dimensions: result dim i is input dim dims[i]. */
  NDArray permute(IndexSpan dims) const;
  /*! \brief Elements [start, start + length) of dimension dim. */
  NDArray narrow(index_t dim, index_t start, index_t length) const;
  /*!
   * \brief Elements start, start+step, ... < end of dimension dim (start/end clamped,
   *  negative ones count from the end as in Python); step >= 1.
   */
  NDArray slice(index_t dim, index_t start, index_t end, index_t step = 1) const;
  /*! \brief Index i of dimension dim, which is removed (negative i counts from the end). */
  NDArray select(index_t dim, index_t i) const;
  /*! \brief New size-1 dimension at position dim (in [-ndim-1, ndim]). */
  NDArray unsqueeze(index_t dim) const;
  /*! \brief Drops every size-1 dimension. */
  NDArray squeeze() const;
  /*! \brief Drops dimension dim if its size is 1 (else returns the same layout). */
  NDArray squeeze(index_t dim) const;
  /*!
   * \brief Broadcasts to `sizes` with zero strides (NumPy rules; -1 keeps a size; new
   *  leading dimensions allowed). The result must not be written.
   */
  NDArray expand(IndexSpan sizes) const;
  /*! \brief Same elements, new sizes (one may be -1); no copy, throws if the strides forbid. */
  NDArray view(IndexSpan sizes) const;
  /*! \brief `view` when the strides allow it, else a contiguous copy. */
  NDArray reshape(IndexSpan sizes) const;
  /*!
   * \brief Arbitrary view over the same storage; throws unless every reachable element lies
   *  inside the storage (strides >= 0).
   */
  NDArray as_strided(IndexSpan sizes, IndexSpan strides) const;
  /*! \brief `as_strided` with an explicit storage offset. */
  NDArray as_strided(IndexSpan sizes, IndexSpan strides, index_t storage_offset) const;
  /*! \brief This array when contiguous, else a contiguous copy. */
  NDArray contiguous() const;

  // ---------------------------------------------------------------- whole-array writes
  /*!
   * \brief Copies `src` (broadcast to this shape, any layout, any numeric dtype converted)
   *  into this array's elements. Throws when this array overlaps itself (expanded).
   */
  void copy_(const NDArray& src) const;
  /*! \brief Sets every element to `value` converted to the element type. */
  void Fill(double value) const;

  // ---------------------------------------------------------------- autograd
  // Defined by the autograd layer (shade/autograd/autograd.h, docs/autograd.md).
  /*! \brief True when ops on this array are recorded for backward (a leaf marked so, or a
   *  result computed from one while grad mode was on). */
  bool requires_grad() const;
  /*!
   * \brief Marks a leaf as requiring grad (floating dtypes only) or unmarks it; throws for a
   *  non-leaf result (use detach()). Returns this array.
   */
  NDArray& set_requires_grad(bool requires_grad = true);
  /*! \brief The accumulated gradient (undefined when none yet, or for a non-leaf that did not
   *  call retain_grad). */
  NDArray grad() const;
  /*! \brief Replaces the gradient; an undefined array clears it (optimizers' zero_grad). */
  void set_grad(const NDArray& grad);
  /*!
   * \brief Backpropagates from this array: gradients accumulate into the leaves' grad().
   *  `grad_output` may be omitted for a one-element array (then 1). The graph is freed unless
   *  `retain_graph`; `create_graph` records the backward itself (second derivatives).
   */
  void backward(const NDArray& grad_output = NDArray(), bool retain_graph = false,
                bool create_graph = false) const;
  /*! \brief The same elements (shared storage) outside the graph: requires_grad is false. */
  NDArray detach() const;
  /*! \brief True for arrays not computed by a recorded op (every array outside autograd). */
  bool is_leaf() const;
  /*! \brief Keeps the gradient of this non-leaf array in grad() at the next backward. */
  void retain_grad() const;

  /*! \brief Dimension index in [0, ndim) from d in [-ndim, ndim); throws otherwise. */
  index_t WrapDim(index_t d) const;
  /*! \brief One-line summary without the values (what error messages show):
   *  "NDArray(float32, sizes=(2,3), strides=(3,1), offset=0, cpu)". `os << a` prints values. */
  std::string Describe() const;

 private:
  NDArrayImpl* Impl() const {
    if (__builtin_expect(!impl_.defined(), 0)) ThrowUndefined();
    return impl_.get();
  }
  [[noreturn]] static void ThrowUndefined();
  void CheckTypedData(TypeMeta meta) const;
  void* ElementPtr(IndexSpan idx, TypeMeta meta) const;
  void ShareExternalPointerImpl(void* src, TypeMeta meta, std::size_t capacity,
                                DataDeleter deleter);
  NDArray MakeView(IndexSpan sizes, IndexSpan strides, index_t offset) const;

  intrusive_ptr<NDArrayImpl> impl_;
};

/*! \brief Prints the values in NumPy's repr format (ToString in ndarray/print.h); an undefined
 *  or unallocated array prints its Describe() summary. */
std::ostream& operator<<(std::ostream& os, const NDArray& a);

/*! \brief Row-major strides (elements) of `sizes`. */
std::vector<index_t> ContiguousStrides(IndexSpan sizes);

}  // namespace shade

#endif  // SHADE_NDARRAY_NDARRAY_H_
