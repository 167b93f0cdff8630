// NDArray: construction, metadata, element access and Caffe2's lifecycle (Resize, Extend, ...).
#include "shade/ndarray/ndarray.h"

#include <atomic>
#include <cmath>
#include <limits>
#include <new>
#include <ostream>
#include <sstream>

#include "shade/memory/alloc.h"
#include "shade/ndarray/grad_hook.h"
#include "shade/ndarray/ndarray_util.h"

namespace shade {

namespace {
// Caffe2's FLAGS_caffe2_keep_on_shrink / FLAGS_caffe2_max_keep_on_shrink_memory, settable at run
// time.
std::atomic<bool> g_keep_on_shrink{true};
std::atomic<std::int64_t> g_max_keep_on_shrink_memory{std::numeric_limits<std::int64_t>::max()};

std::size_t ToSize(index_t v) {
  return static_cast<std::size_t>(v);
}

std::size_t BytesFor(index_t numel, std::size_t itemsize) {
  return ToSize(CheckedMul(numel, static_cast<index_t>(itemsize), "NDArray nbytes"));
}
}  // namespace

std::ostream& operator<<(std::ostream& os, IndexSpan s) {
  os << '(';
  for (std::size_t i = 0; i < s.size(); ++i) os << (i ? "," : "") << s[i];
  if (s.size() == 1) os << ',';
  return os << ')';
}

std::vector<index_t> ContiguousStrides(IndexSpan sizes) {
  std::vector<index_t> st(sizes.size());
  index_t stride = 1;
  for (std::size_t d = sizes.size(); d-- > 0;) {
    st[d] = stride;
    stride = CheckedMul(stride, std::max<index_t>(sizes[d], 1), "NDArray stride");
  }
  return st;
}

// ------------------------------------------------------------------ construction

void NDArray::ThrowUndefined() {
  SHADE_THROW << "NDArray is undefined (default-constructed): create it with sizes, Empty() or "
                 "FromBlob() before use";
}

NDArray::NDArray(IndexSpan dims, int dev_mask) {
  SHADE_CHECK(dev_mask == cpu::kDevMask || dev_mask == gpu::kDevMask)
      << "NDArray: unknown device mask " << dev_mask;
  auto impl = make_intrusive<NDArrayImpl>(Storage(dev_mask));
  impl->SetSizesContiguous(dims.data(), static_cast<int>(dims.size()));
  impl_ = std::move(impl);
}

namespace {
// Small arrays in one allocation: [SharedBlock][NDArrayImpl][StorageImpl][pad][data], the data
// 64-byte aligned like every other buffer. One SmallAlignedAlloc (a per-thread cache hit)
// replaces three allocations (two `new`s and the data block) and their frees; the block goes
// back after both the NDArrayImpl and the StorageImpl are destroyed (views and ShareData keep
// the StorageImpl, and so the data, alive on their own; a Resize past the inline bytes gives
// the StorageImpl a separate buffer and the inline bytes stay unused).
constexpr std::size_t RoundUp(std::size_t n, std::size_t a) {
  return (n + a - 1) / a * a;
}
constexpr std::size_t kBlockImplOff = NDArrayImpl::kBlockHeaderBytes;
static_assert(kBlockImplOff % alignof(NDArrayImpl) == 0, "the NDArrayImpl follows the header");
constexpr std::size_t kBlockStorageOff =
    RoundUp(kBlockImplOff + sizeof(NDArrayImpl), alignof(StorageImpl));
constexpr std::size_t kBlockDataOff = RoundUp(kBlockStorageOff + sizeof(StorageImpl), kAlignBytes);
// Largest data kept inline: whatever fits the allocator's largest cached block.
constexpr std::size_t kInlineDataBytes = kSmallAllocBytes - kBlockDataOff;
static_assert(kBlockDataOff <= kSmallAllocBytes / 2, "the block header leaves room for data");
static_assert(alignof(NDArrayImpl) <= kAlignBytes && alignof(StorageImpl) <= kAlignBytes,
              "the block start's alignment covers its objects");

NDArray EmptySmall(IndexSpan sizes, TypeMeta dtype, int dev_mask, index_t numel,
                   std::size_t nbytes) {
  void (*free_fn)(void*) = nullptr;
  char* mem = static_cast<char*>(SmallAlignedAlloc(kBlockDataOff + nbytes, &free_fn));
  // Nothing below throws before `impl` owns the block (then its release frees it).
  auto* block = new (mem) SharedBlock(2, free_fn);
  auto* st =
      new (mem + kBlockStorageOff) StorageImpl(block, dev_mask, dtype, mem + kBlockDataOff, nbytes);
  auto* im = new (mem + kBlockImplOff)
      NDArrayImpl(block, Storage(intrusive_ptr<StorageImpl>::AdoptFresh(st)));
  auto impl = intrusive_ptr<NDArrayImpl>::AdoptFresh(im);
  // Empty validated the sizes: numel > 0, so all are positive.
  impl->SetSizesContiguousValidated(sizes.data(), static_cast<int>(sizes.size()), numel);
  return NDArray(std::move(impl));
}
}  // namespace

NDArray NDArray::Empty(IndexSpan sizes, TypeMeta dtype, int dev_mask) {
  SHADE_CHECK_TYPE(dtype.initialized()) << "NDArray::Empty: the element type is uninitialized";
  const index_t numel = NDArrayImpl::ValidateSizes(sizes.data(), static_cast<int>(sizes.size()));
  // numel <= kInlineDataBytes first, so the product cannot overflow.
  if (dev_mask == cpu::kDevMask && dtype.ctor() == nullptr && numel > 0 &&
      numel <= static_cast<index_t>(kInlineDataBytes) &&
      static_cast<std::size_t>(numel) * dtype.itemsize() <= kInlineDataBytes) {
    return EmptySmall(sizes, dtype, dev_mask, numel,
                      static_cast<std::size_t>(numel) * dtype.itemsize());
  }
  Storage storage = Storage::Allocate(dev_mask, dtype, BytesFor(numel, dtype.itemsize()));
  auto impl = make_intrusive<NDArrayImpl>(std::move(storage));
  impl->SetSizesContiguous(sizes.data(), static_cast<int>(sizes.size()));
  return NDArray(std::move(impl));
}

NDArray NDArray::Empty(IndexSpan sizes, int type_flag, int dev_mask) {
  return Empty(sizes, TypeMeta::FromFlag(type_flag), dev_mask);
}

NDArray NDArray::FromBlob(void* data, IndexSpan sizes, TypeMeta dtype, DataDeleter deleter,
                          int dev_mask) {
  const std::vector<index_t> strides = ContiguousStrides(sizes);
  return FromBlob(data, sizes, IndexSpan(strides), dtype, std::move(deleter), dev_mask);
}

NDArray NDArray::FromBlob(void* data, IndexSpan sizes, IndexSpan strides, TypeMeta dtype,
                          DataDeleter deleter, int dev_mask) {
  SHADE_CHECK_TYPE(dtype.initialized()) << "NDArray::FromBlob: the element type is uninitialized";
  const index_t span = detail::CheckStridedLayout(sizes, strides, "NDArray::FromBlob");
  SHADE_CHECK_SHAPE(data != nullptr || span == 0)
      << "NDArray::FromBlob: null data for " << sizes << " elements";
  const std::size_t capacity = BytesFor(span, dtype.itemsize());
  Storage storage(data, dev_mask, dtype, capacity, std::move(deleter));
  return FromStorage(std::move(storage), sizes, strides, 0);
}

NDArray NDArray::FromStorage(Storage storage, IndexSpan sizes, IndexSpan strides,
                             index_t storage_offset) {
  SHADE_CHECK(storage.defined()) << "NDArray::FromStorage: undefined Storage";
  detail::CheckInsideStorage(storage, sizes, strides, storage_offset, "NDArray::FromStorage");
  auto impl = make_intrusive<NDArrayImpl>(std::move(storage));
  impl->SetSizesAndStrides(sizes.data(), strides.data(), static_cast<int>(sizes.size()));
  impl->set_storage_offset(storage_offset);
  return NDArray(std::move(impl));
}

// ------------------------------------------------------------------ metadata

index_t NDArray::WrapDim(index_t d) const {
  const index_t nd = ndim();
  SHADE_CHECK_INDEX(d >= -nd && d < nd)
      << "dimension " << d << " is out of range for a rank-" << nd << " NDArray (expected in ["
      << -nd << ", " << nd - 1 << "])";
  return d < 0 ? d + nd : d;
}

std::size_t NDArray::nbytes() const {
  return BytesFor(numel(), itemsize());
}

void NDArray::CheckWriteable(const char* who) const {
  // Every write path calls this first: it is where the storage's version counter moves
  // (autograd's check of saved arrays, ndarray/grad_hook.h).
  if (__builtin_expect(Impl()->writeable(), 1)) {
    Impl()->storage().unsafeGetStorageImpl()->bump_version();
    return;
  }
  throw ValueError(std::string("assignment destination is read-only (") + who + ": " + Describe() +
                   ")");
}

bool NDArray::is_non_overlapping() const {
  const NDArrayImpl* im = Impl();
  if (im->numel() <= 1) return true;
  std::vector<std::pair<index_t, index_t>> dims;  // (stride, size) of the dims that move
  for (int d = 0; d < im->ndim(); ++d) {
    if (im->sizes()[d] == 1) continue;
    if (im->strides()[d] == 0) return false;
    dims.emplace_back(im->strides()[d], im->sizes()[d]);
  }
  std::sort(dims.begin(), dims.end());
  // Each stride must step past everything the inner dims can reach: then indices map 1:1.
  index_t reach = 0;
  for (const auto& sd : dims) {
    if (sd.first <= reach) return false;
    index_t span = 0;
    if (__builtin_mul_overflow(sd.first, sd.second - 1, &span) ||
        __builtin_add_overflow(reach, span, &reach)) {
      return false;
    }
  }
  return true;
}

std::string NDArray::Describe() const {
  std::ostringstream os;
  if (!defined()) return "NDArray(undefined)";
  os << "NDArray(" << dtype().name() << ", sizes=" << sizes() << ", strides=" << strides()
     << ", offset=" << storage_offset() << ", " << DevMaskName(dev_mask()) << ")";
  return os.str();
}

// ------------------------------------------------------------------ data

void* NDArray::data_ptr() const {
  const NDArrayImpl* im = Impl();
  char* base = static_cast<char*>(im->storage().data());
  if (base == nullptr) return nullptr;
  return base + im->storage_offset() * static_cast<index_t>(im->storage().itemsize());
}

void NDArray::CheckTypedData(TypeMeta meta) const {
  const NDArrayImpl* im = Impl();
  SHADE_CHECK_SHAPE(im->storage().data() || im->numel() == 0)
      << "The tensor is of non-zero shape, but its data is not allocated yet. Caffe2 uses a lazy "
         "allocation, so you will need to call mutable_data() or raw_mutable_data() to actually "
         "allocate memory.";
  SHADE_CHECK_TYPE(im->storage().dtype() == meta)
      << "Tensor type mismatch, caller expects elements to be " << meta.name()
      << " while tensor contains " << im->storage().dtype().name();
}

const void* NDArray::raw_data() const {
  const NDArrayImpl* im = Impl();
  SHADE_CHECK_SHAPE(im->storage().data() || im->numel() == 0)
      << "The tensor is of non-zero shape, but its data is not allocated yet. Caffe2 uses a lazy "
         "allocation, so you will need to call mutable_data() or raw_mutable_data() to actually "
         "allocate memory.";
  return data_ptr();
}

void* NDArray::raw_mutable_data(TypeMeta meta) {
  NDArrayImpl* im = Impl();
  SHADE_CHECK(im->is_contiguous())
      << "Tensor must be contiguous in order to call raw_mutable_data()";
  SHADE_CHECK_TYPE(meta.initialized())
      << "raw_mutable_data: the requested element type is uninitialized";
  Storage& storage = im->mutable_storage();
  // For 0-size arrays any pointer (null included) will do.
  if (storage.dtype() == meta && (storage.data() || im->numel() == 0)) return data_ptr();
  const bool had_special_dtor = storage.dtype().dtor() != nullptr;
  if (storage.dtype() != meta) {
    // The offset counted elements of the old type: the re-typed data starts at the storage start.
    im->set_storage_offset(0);
    if (storage.unique()) {
      storage.set_dtype(meta);
    } else {
      storage = Storage(storage.dev_mask(), meta);
    }
  }
  const std::size_t needed =
      BytesFor(CheckedAdd(im->storage_offset(), im->numel(), "NDArray numel"), meta.itemsize());
  // Raw types can reuse a buffer large enough, unless it held objects that must be destroyed.
  if (im->numel() == 0 || (meta.ctor() == nullptr && !had_special_dtor &&
                           storage.capacity() >= needed && storage.data() != nullptr)) {
    return data_ptr();
  }
  im->set_storage_offset(0);
  storage.unsafeGetStorageImpl()->AllocateData(meta, BytesFor(im->numel(), meta.itemsize()));
  return data_ptr();
}

void* NDArray::raw_mutable_data() {
  SHADE_CHECK_TYPE(dtype().initialized())
      << "raw_mutable_data(): the element type is not set yet; call raw_mutable_data(meta) or "
         "mutable_data<T>()";
  return raw_mutable_data(dtype());
}

void* NDArray::ElementPtr(IndexSpan idx, TypeMeta meta) const {
  const NDArrayImpl* im = Impl();
  SHADE_CHECK_SHAPE_EQ(static_cast<index_t>(idx.size()), im->ndim())
      << "index " << idx << " has " << idx.size() << " entries for a rank-" << im->ndim()
      << " NDArray";
  index_t off = 0;
  for (int d = 0; d < im->ndim(); ++d) {
    SHADE_CHECK_INDEX(idx[d] >= 0 && idx[d] < im->sizes()[d])
        << "index " << idx[d] << " is out of range for dimension " << d << " of size "
        << im->sizes()[d] << " (sizes " << sizes() << ")";
    off += idx[d] * im->strides()[d];
  }
  if (meta.initialized()) {
    CheckTypedData(meta);
  } else {
    SHADE_CHECK_SHAPE(im->storage().data() != nullptr)
        << "The tensor is of non-zero shape, but its data is not allocated yet. Caffe2 uses a lazy "
           "allocation, so you will need to call mutable_data() or raw_mutable_data() to actually "
           "allocate memory.";
  }
  return static_cast<char*>(data_ptr()) + off * static_cast<index_t>(itemsize());
}

double NDArray::get(IndexSpan idx) const {
  SHADE_CHECK_TYPE_GE(type_flag(), 0)
      << "get: element type " << dtype().name() << " is not numeric";
  const void* p = ElementPtr(idx, TypeMeta());
  return DispatchDType(type_flag(), [p](auto tag) {
    using T = typename decltype(tag)::type;
    return detail::ToDouble(*static_cast<const T*>(p));
  });
}

void NDArray::set(IndexSpan idx, double value) const {
  SHADE_CHECK_TYPE_GE(type_flag(), 0)
      << "set: element type " << dtype().name() << " is not numeric";
  void* p = ElementPtr(idx, TypeMeta());
  DispatchDType(type_flag(), [p, value](auto tag) {
    using T = typename decltype(tag)::type;
    *static_cast<T*>(p) = detail::CastScalar<T>(value, "set");
  });
}

// ------------------------------------------------------------------ Caffe2 lifecycle

void NDArray::SetKeepOnShrink(bool keep) {
  g_keep_on_shrink.store(keep);
}
bool NDArray::KeepOnShrink() {
  return g_keep_on_shrink.load();
}
void NDArray::SetMaxKeepOnShrinkMemory(std::int64_t bytes) {
  SHADE_CHECK_GE(bytes, 0) << "SetMaxKeepOnShrinkMemory: the bound must be >= 0 bytes";
  g_max_keep_on_shrink_memory.store(bytes);
}
std::int64_t NDArray::MaxKeepOnShrinkMemory() {
  return g_max_keep_on_shrink_memory.load();
}

void NDArray::FreeMemory() {
  NDArrayImpl* im = Impl();
  Storage& storage = im->mutable_storage();
  storage = Storage(storage.dev_mask(), storage.dtype());
  im->set_storage_offset(0);
}

void NDArray::Resize(IndexSpan dims) {
  NDArrayImpl* im = Impl();
  const index_t new_numel = NDArrayImpl::ValidateSizes(dims.data(), static_cast<int>(dims.size()));
  const bool was_contiguous = im->is_contiguous();
  const bool size_changed = new_numel != im->numel();
  const std::size_t itemsize = im->storage().itemsize();
  const std::size_t needed =
      BytesFor(CheckedAdd(im->storage_offset(), new_numel, "NDArray numel"), itemsize);
  im->SetSizesContiguous(dims.data(), static_cast<int>(dims.size()));
  // A strided view re-read as row-major would scramble its elements: start afresh.
  if (size_changed || !was_contiguous) {
    const std::size_t capacity = im->storage().capacity();
    bool reset;
    if (!was_contiguous) {
      reset = true;
    } else if (im->reserved()) {
      // Reserved arrays (Extend/ReserveSpace) keep their memory unless it is too small.
      reset = capacity < needed;
    } else {
      reset = capacity < needed || !g_keep_on_shrink.load() ||
              capacity - needed > static_cast<std::size_t>(g_max_keep_on_shrink_memory.load());
    }
    if (reset) FreeMemory();
  }
}

void NDArray::Reshape(IndexSpan dims) {
  NDArrayImpl* im = Impl();
  SHADE_CHECK_SHAPE(im->is_contiguous()) << "Tensor must be contiguous in order to call Reshape.";
  index_t new_size = 1;
  for (index_t d : dims) {
    SHADE_CHECK_SHAPE_GE(d, 0) << "Reshape: size in " << dims << " is negative";
    new_size = CheckedMul(new_size, d, "Reshape numel");
  }
  SHADE_CHECK_SHAPE(new_size == im->numel())
      << "New size and old size are not equal. You cannot use Reshape, but should use Resize. "
         "The old caffe2 mixes Reshape and Resize but this behavior has been changed. If you "
         "find this error, most likely you will need to change corresponding code from Reshape "
         "to Resize. (new sizes "
      << dims << " = " << new_size << " elements, old sizes " << sizes() << " = " << im->numel()
      << " elements)";
  im->SetSizesContiguous(dims.data(), static_cast<int>(dims.size()));
}

void NDArray::Extend(index_t num, float growthPct) {
  NDArrayImpl* im = Impl();
  SHADE_CHECK(im->is_contiguous()) << "Tensor must be contiguous in order to call Extend.";
  SHADE_CHECK_SHAPE_GE(im->ndim(), 1) << "Extend: the tensor must be at least 1D";
  SHADE_CHECK_GE(num, 0) << "`num` must be non-negative for Extend";
  SHADE_CHECK(std::isfinite(growthPct) && growthPct >= 0)
      << "Extend: growthPct " << growthPct << " must be a finite non-negative percentage";
  const index_t old_outer = im->sizes()[0];
  const index_t new_outer = CheckedAdd(old_outer, num, "Extend outer size");
  if (im->storage().data() == nullptr) {
    std::vector<index_t> dims = sizes().vec();
    dims[0] = new_outer;
    Resize(IndexSpan(dims));
    return;
  }
  const index_t inner = CheckedProduct(im->sizes() + 1, im->ndim() - 1, "Extend numel");
  const TypeMeta meta = im->storage().dtype();
  const index_t new_numel = CheckedMul(new_outer, inner, "Extend numel");
  const std::size_t needed =
      BytesFor(CheckedAdd(im->storage_offset(), new_numel, "Extend numel"), meta.itemsize());
  if (needed <= im->storage().capacity()) {
    im->SetOuterSize(new_outer);
    return;
  }
  // Grow by growthPct at least, so n Extends cost O(n) copies in total.
  const double grown = std::ceil(static_cast<double>(old_outer) * (growthPct + 100.0) / 100.0);
  SHADE_CHECK(grown < 9.2e18) << "Extend: capacity of " << grown << " rows overflows";
  const index_t cap_outer = std::max<index_t>(new_outer, static_cast<index_t>(grown));
  const index_t cap_numel = CheckedMul(cap_outer, inner, "Extend capacity");
  Storage fresh =
      Storage::Allocate(im->storage().dev_mask(), meta, BytesFor(cap_numel, meta.itemsize()));
  meta.CopyItems(data_ptr(), fresh.data(), ToSize(im->numel()));
  im->mutable_storage() = std::move(fresh);
  im->set_storage_offset(0);
  im->set_reserved(true);
  im->SetOuterSize(new_outer);
}

void NDArray::ShrinkTo(index_t outer_dim) {
  NDArrayImpl* im = Impl();
  SHADE_CHECK(im->is_contiguous()) << "Tensor must be contiguous in order to call ShrinkTo.";
  SHADE_CHECK_SHAPE(im->ndim() >= 1) << "Tensor must be at least 1D";
  SHADE_CHECK_SHAPE(outer_dim <= im->sizes()[0])
      << "New outer dimension must be smaller than current. (new " << outer_dim << ", current "
      << im->sizes()[0] << ")";
  SHADE_CHECK_SHAPE_GE(outer_dim, 0) << "ShrinkTo: the new outer dimension is negative";
  SHADE_CHECK(im->storage().unique())
      << "Can't call ShrinkTo on shared storage, please call Resize instead. (use_count "
      << im->storage().use_count() << ")";
  im->SetOuterSize(outer_dim);
}

void NDArray::ReserveSpace(index_t outer_dim) {
  NDArrayImpl* im = Impl();
  SHADE_CHECK(im->is_contiguous())
      << "Right now ReserveSpace is only supported for contiguous Tensor.";
  SHADE_CHECK(im->storage().unique()) << "Can't call ReserveSpace on shared storage.";
  SHADE_CHECK_SHAPE_GE(im->ndim(), 1) << "ReserveSpace: the tensor must be at least 1D";
  SHADE_CHECK_SHAPE_GE(outer_dim, 0) << "ReserveSpace: outer dimension is negative";
  const TypeMeta meta = im->storage().dtype();
  SHADE_CHECK_TYPE(meta.initialized())
      << "ReserveSpace: the element type is not set yet; call mutable_data<T>() first";
  const index_t inner = CheckedProduct(im->sizes() + 1, im->ndim() - 1, "ReserveSpace numel");
  const index_t new_numel = CheckedMul(outer_dim, inner, "ReserveSpace numel");
  const std::size_t nbytes = BytesFor(new_numel, meta.itemsize());
  if (nbytes <= im->storage().capacity()) return;
  // As in Caffe2 the old contents are discarded: reserving is for arrays about to be filled.
  im->mutable_storage().unsafeGetStorageImpl()->AllocateData(meta, nbytes);
  im->set_storage_offset(0);
  im->set_reserved(true);
}

void NDArray::ShareData(const NDArray& src) {
  NDArrayImpl* im = Impl();
  SHADE_CHECK(src.defined()) << "ShareData: the source NDArray is undefined";
  const NDArrayImpl* sim = src.Impl();
  SHADE_CHECK_SHAPE_EQ(sim->numel(), im->numel())
      << "Size mismatch - did you call reshape before sharing the data?";
  SHADE_CHECK(sim->storage().data() || sim->numel() == 0)
      << "Source tensor has no content and has size > 0";
  SHADE_CHECK(sim->is_contiguous()) << "ShareData: the source " << src << " must be contiguous";
  if (im == sim) return;
  im->mutable_storage() = sim->storage();
  im->set_storage_offset(sim->storage_offset());
  im->SetSizesContiguous(im->sizes(), im->ndim());
}

void NDArray::ShareExternalPointerImpl(void* src, TypeMeta meta, std::size_t capacity,
                                       DataDeleter deleter) {
  NDArrayImpl* im = Impl();
  SHADE_CHECK(meta.initialized())
      << "To share with a raw external pointer you need to pass in an initialized "
         "data_type(TypeMeta).";
  const std::size_t needed = BytesFor(im->numel(), meta.itemsize());
  if (capacity == 0) capacity = needed;
  SHADE_CHECK_GE(capacity, needed) << "ShareExternalPointer: capacity of " << capacity
                                   << " bytes is smaller than numel * itemsize of " << sizes();
  SHADE_CHECK(src != nullptr || capacity == 0) << "ShareExternalPointer: null pointer";
  Storage& storage = im->mutable_storage();
  if (storage.unique()) {
    storage.UniqueStorageShareExternalPointer(src, meta, capacity, std::move(deleter));
  } else {
    storage = Storage(src, storage.dev_mask(), meta, capacity, std::move(deleter));
  }
  im->set_storage_offset(0);
  im->SetSizesContiguous(im->sizes(), im->ndim());
}

NDArray NDArray::Clone() const {
  if (__builtin_expect(detail::GradTracked(*this), 0)) {
    return detail::RecordGrad(detail::GradOp::kCopy, {*this}, {}, [&] { return Clone(); });
  }
  const NDArrayImpl* im = Impl();
  if (im->storage().data() == nullptr && im->numel() > 0) {
    // Nothing allocated yet: the clone is lazy too, with the same type.
    NDArray out(sizes(), dev_mask());
    out.Impl()->mutable_storage().set_dtype(dtype());
    return out;
  }
  SHADE_CHECK_TYPE(dtype().initialized()) << "Clone: " << *this << " has no element type";
  NDArray out = Empty(sizes(), dtype(), dev_mask());
  out.copy_(*this);
  return out;
}

void NDArray::CopyFrom(const NDArray& src) {
  SHADE_CHECK(src.defined()) << "CopyFrom: the source NDArray is undefined";
  if (is_same(src)) return;
  SHADE_CHECK_TYPE(src.dtype().initialized())
      << "CopyFrom: the source " << src << " has no element type";
  SHADE_CHECK(src.storage().data() || src.numel() == 0)
      << "CopyFrom: the source " << src << " has no memory allocated";
  // Keep src alive and unchanged even if it aliases this array's storage.
  const NDArray source = src.storage().is_alias_of(storage()) ? src.Clone() : src;
  Resize(source.sizes());
  raw_mutable_data(source.dtype());
  copy_(source);
}

}  // namespace shade
