/*!
 * \file ndarray_impl.h
 * \brief `NDArrayImpl`: what an NDArray handle points to (sizes, strides, storage offset, numel,
 *  Storage, lifecycle flags). The element type and device live in the Storage.
 *
 * Layout, on x86-64: refcount (1 word), Storage (1), offset (1), numel (1), sizes and strides
 * of up to 5 dimensions inline (10), the autograd pointer (1), rank and flags (1, including the
 * writeable flag) = 16 words (LibTorch's TensorImpl: 26). Higher ranks put sizes and strides on the
 * heap.
 *
 * Small arrays from NDArray::Empty live in one allocation with their StorageImpl and data (a
 * SharedBlock, see ndarray.cc's EmptySmall), the block header directly before the NDArrayImpl;
 * `intrusive_block()` names it so intrusive_ptr destroys the object in place instead of
 * deleting it.
 */
#ifndef SHADE_NDARRAY_NDARRAY_IMPL_H_
#define SHADE_NDARRAY_NDARRAY_IMPL_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "shade/base/checked.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/memory/intrusive_ptr.h"
#include "shade/memory/storage.h"

namespace shade {

/*!
 * \brief What autograd keeps per array (requires_grad, the gradient, the graph node that made
 *  it). The type is defined by the autograd layer (src/autograd); an array that never took part
 *  in autograd holds a null pointer and pays nothing else.
 */
class AutogradMetaBase {
 public:
  virtual ~AutogradMetaBase() = default;
  /*! \brief True when the array's ops are recorded (a leaf that requires grad, or a result). */
  virtual bool requires_grad() const noexcept = 0;
};

/*! \brief The shared state behind NDArray handles. */
class NDArrayImpl : public intrusive_ptr_target {
 public:
  /*! \brief Dimensions whose sizes and strides are kept inline. */
  static constexpr int kInlineDims = 5;

  /*! \brief Rank 0, one element, over `storage`. */
  explicit NDArrayImpl(Storage storage) : storage_(std::move(storage)) {}
  /*!
   * \brief Rank 0 over `storage`, constructed kBlockHeaderBytes after the start of `block`
   *  (freed with the block, never deleted).
   */
  NDArrayImpl(SharedBlock* block, Storage storage) noexcept
      : storage_(std::move(storage)), in_block_(true) {
    SHADE_DCHECK(intrusive_block() == block);
    static_cast<void>(block);
  }
  /*! \brief Offset of an in-block NDArrayImpl from its SharedBlock header (the header's size). */
  static constexpr std::size_t kBlockHeaderBytes = sizeof(SharedBlock);
  NDArrayImpl(const NDArrayImpl&) = delete;
  NDArrayImpl& operator=(const NDArrayImpl&) = delete;
  ~NDArrayImpl() {
    if (ndim_ > kInlineDims) delete[] heap_;
    if (autograd_ != nullptr) delete autograd_;
    // The usual end of a small array: it and the StorageImpl beside it in the block die
    // together. Nobody else can reach the block then, so its count is set, not decremented
    // (a locked instruction was ~5% of a 4-element add).
    if (in_block_) {
      SharedBlock* block = intrusive_block();
      if (storage_.DestroyIfUniqueIn(block)) block->live.store(1, std::memory_order_relaxed);
    }
  }

  /*! \brief The allocation this object lives in, or null when it was `new`ed (intrusive_ptr.h). */
  SharedBlock* intrusive_block() const noexcept {
    // The header position is fixed, so a flag (in the padding after the rank) stands for the
    // pointer and the object keeps its 16 words.
    if (!in_block_) return nullptr;
    return reinterpret_cast<SharedBlock*>(const_cast<char*>(reinterpret_cast<const char*>(this)) -
                                          kBlockHeaderBytes);
  }
  /*! \brief Rank. */
  int ndim() const noexcept { return ndim_; }
  /*! \brief Sizes (ndim entries). */
  const index_t* sizes() const noexcept { return ndim_ > kInlineDims ? heap_ : inline_; }
  /*! \brief Strides in elements (ndim entries). */
  const index_t* strides() const noexcept {
    return ndim_ > kInlineDims ? heap_ + ndim_ : inline_ + kInlineDims;
  }
  /*! \brief Number of elements. */
  index_t numel() const noexcept { return numel_; }
  /*! \brief Offset of element 0 in the storage, in elements. */
  index_t storage_offset() const noexcept { return storage_offset_; }
  /*! \brief The storage. */
  const Storage& storage() const noexcept { return storage_; }
  /*! \brief The storage (mutable). */
  Storage& mutable_storage() noexcept { return storage_; }
  /*! \brief True when strides are the row-major strides of sizes (size-1 dims ignored). */
  bool is_contiguous() const noexcept { return is_contiguous_; }
  /*! \brief True once Extend or ReserveSpace ran: Resize then never frees. */
  bool reserved() const noexcept { return reserved_; }
  /*! \brief Sets the reserved flag. */
  void set_reserved(bool r) noexcept { reserved_ = r; }
  /*!
   * \brief False once the array was marked read-only (NumPy's WRITEABLE flag, cleared by
   *  `setflags(write=False)`); views inherit it, every write path checks it.
   */
  bool writeable() const noexcept { return writeable_; }
  /*! \brief Sets the writeable flag. */
  void set_writeable(bool w) noexcept { writeable_ = w; }
  /*! \brief The autograd state, or null for an array outside autograd (the common case). */
  AutogradMetaBase* autograd_meta() const noexcept { return autograd_; }
  /*! \brief Installs the autograd state (owned; replaces and deletes any previous one). */
  void set_autograd_meta(AutogradMetaBase* meta) noexcept {
    if (autograd_ != nullptr && autograd_ != meta) delete autograd_;
    autograd_ = meta;
  }
  /*! \brief Sets the storage offset (elements). */
  void set_storage_offset(index_t off) noexcept { storage_offset_ = off; }

  /*!
   * \brief Sets sizes and row-major strides; throws on a negative size or a numel overflow
   *  before changing anything.
   */
  void SetSizesContiguous(const index_t* sizes, int ndim) {
    const index_t numel = ValidateSizes(sizes, ndim);
    // A zero extent empties the array but the other extents still set the strides: check them
    // before anything changes (sizes (0, 2^40, 2^40) must throw, not overflow).
    index_t span = 1;
    for (int d = ndim - 1; d > 0; --d)
      span = CheckedMul(span, std::max<index_t>(sizes[d], 1), "NDArray stride");
    SetSizesContiguousValidated(sizes, ndim, numel);
  }
  /*!
   * \brief SetSizesContiguous for sizes the caller already validated (ValidateSizes passed,
   *  `numel` their product, every stride representable). Skips the checks.
   */
  void SetSizesContiguousValidated(const index_t* sizes, int ndim, index_t numel) {
    SetRank(ndim);
    index_t* sz = MutableSizes();
    index_t* st = MutableStrides();
    std::copy(sizes, sizes + ndim, sz);
    index_t stride = 1;
    for (int d = ndim - 1; d >= 0; --d) {
      st[d] = stride;
      // A zero size counts as 1 here; the stride is never used to reach an element then.
      if (d > 0) stride *= std::max<index_t>(sz[d], 1);
    }
    numel_ = numel;
    is_contiguous_ = true;
  }
  /*! \brief Sets sizes and strides as given (the caller validated them against the storage). */
  void SetSizesAndStrides(const index_t* sizes, const index_t* strides, int ndim) {
    const index_t numel = ValidateSizes(sizes, ndim);
    SetRank(ndim);
    std::copy(sizes, sizes + ndim, MutableSizes());
    std::copy(strides, strides + ndim, MutableStrides());
    numel_ = numel;
    is_contiguous_ = ComputeContiguous();
  }
  /*! \brief Changes the outermost size only (Extend / ShrinkTo), keeping the strides. */
  void SetOuterSize(index_t outer) {
    SHADE_DCHECK(ndim_ >= 1);
    SHADE_CHECK_GE(outer, 0) << "NDArray: outer size " << outer << " is negative";
    const index_t inner = CheckedProduct(sizes() + 1, ndim_ - 1, "NDArray numel");
    numel_ = CheckedMul(outer, inner, "NDArray numel");
    // Row-major strides do not depend on the outermost size, so they stay valid.
    MutableSizes()[0] = outer;
    is_contiguous_ = ComputeContiguous();
  }

  /*! \brief Product of sizes with overflow and sign checks (throws shade::Error). */
  static index_t ValidateSizes(const index_t* sizes, int ndim) {
    index_t numel = 1;
    for (int d = 0; d < ndim; ++d) {
      SHADE_CHECK_SHAPE_GE(sizes[d], 0)
          << "NDArray: size " << sizes[d] << " of dimension " << d << " is negative";
      numel = CheckedMul(numel, sizes[d], "NDArray numel");
    }
    return numel;
  }

 private:
  void SetRank(int ndim) {
    if (ndim == ndim_) return;
    index_t* fresh = ndim > kInlineDims ? new index_t[2 * static_cast<std::size_t>(ndim)] : nullptr;
    if (ndim_ > kInlineDims) delete[] heap_;
    ndim_ = ndim;
    if (fresh) heap_ = fresh;
  }
  index_t* MutableSizes() noexcept { return ndim_ > kInlineDims ? heap_ : inline_; }
  index_t* MutableStrides() noexcept {
    return ndim_ > kInlineDims ? heap_ + ndim_ : inline_ + kInlineDims;
  }
  bool ComputeContiguous() const noexcept {
    if (numel_ == 0) return true;
    index_t expected = 1;
    const index_t* sz = sizes();
    const index_t* st = strides();
    for (int d = ndim_ - 1; d >= 0; --d) {
      if (sz[d] == 1) continue;
      if (st[d] != expected) return false;
      expected *= sz[d];
    }
    return true;
  }

  Storage storage_;
  index_t storage_offset_ = 0;
  index_t numel_ = 1;
  union {
    index_t inline_[2 * kInlineDims];  // sizes then strides
    index_t* heap_;                    // 2 * ndim_ entries when ndim_ > kInlineDims
  };
  AutogradMetaBase* autograd_ = nullptr;  // owned; null unless the array takes part in autograd
  std::int32_t ndim_ = 0;
  bool is_contiguous_ = true;
  bool reserved_ = false;
  bool in_block_ = false;
  bool writeable_ = true;  // in the padding after the rank
};

// The size budget: a small array's impl, its StorageImpl and its data share one allocation
// (SharedBlock); past 16 pointers the impl of a 4-element array no longer fits the block size
// that the allocation-count tests and the small-array benchmark were measured with (the
// autograd pointer took the 16th: header, impl and StorageImpl still round to 256 bytes).
static_assert(sizeof(NDArrayImpl) <= 16 * sizeof(void*),
              "NDArrayImpl grew past its size budget of 16 pointers (see the comment above)");

}  // namespace shade

#endif  // SHADE_NDARRAY_NDARRAY_IMPL_H_
