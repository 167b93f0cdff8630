// DLPack export/import. An export owns a copy of the NDArray handle (keeping the storage alive)
// plus the shape/stride arrays DLTensor points to; its deleter frees that context.
#include "shade/io/dlpack.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "shade/base/checked.h"
#include "shade/base/device.h"
#include "shade/base/error.h"

namespace shade {
namespace io {

namespace {

constexpr int kMaxDLPackNDim = 64;

// Storage for an exported tensor: the managed struct is the first member of its context.
template <typename Managed>
struct ExportContext {
  Managed managed;
  NDArray array;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
};

// Data pointer handed out for empty arrays (consumers may dislike null).
alignas(64) unsigned char g_empty_data[64];

template <typename Managed>
void FreeExport(Managed* self) {
  if (self == nullptr) return;
  delete static_cast<ExportContext<Managed>*>(self->manager_ctx);
}

template <typename Managed>
ExportContext<Managed>* MakeExport(const NDArray& array, const char* who) {
  SHADE_CHECK(array.defined()) << who << ": undefined NDArray";
  SHADE_CHECK_EQ(array.dev_mask(), cpu::kDevMask) << who << ": only CPU arrays can be exported";
  const int flag = array.type_flag();
  SHADE_CHECK_TYPE(IsValidTypeFlag(flag))
      << who << ": element type " << array.dtype().name() << " has no DLPack dtype";
  auto* ctx = new ExportContext<Managed>();
  ctx->array = array;
  const int nd = array.ndim();
  ctx->shape.assign(array.sizes().begin(), array.sizes().end());
  ctx->strides.assign(array.strides().begin(), array.strides().end());
  DLTensor& t = ctx->managed.dl_tensor;
  void* data = array.numel() == 0 || array.data_ptr() == nullptr ? g_empty_data : array.data_ptr();
  t.data = data;
  t.device.device_type = kDLCPU;
  t.device.device_id = 0;
  t.ndim = nd;
  t.dtype = ToDLDataType(flag);
  t.shape = nd == 0 ? nullptr : ctx->shape.data();
  t.strides = nd == 0 ? nullptr : ctx->strides.data();
  t.byte_offset = 0;
  ctx->managed.manager_ctx = ctx;
  ctx->managed.deleter = &FreeExport<Managed>;
  return ctx;
}

// Validates a DLTensor and wraps it; `release` runs once when the last owner goes.
NDArray WrapDLTensor(const DLTensor& t, DataDeleter release, const char* who) {
  // Read as the integer it is: a producer may send a device type this dlpack.h does not list,
  // and loading an enum outside its values is undefined behaviour (UBSan, fuzz finding).
  std::int32_t device_type;
  static_assert(sizeof(t.device.device_type) == sizeof(device_type), "DLDeviceType is 32-bit");
  std::memcpy(&device_type, &t.device.device_type, sizeof(device_type));
  SHADE_CHECK_NOT_IMPLEMENTED(device_type == static_cast<std::int32_t>(kDLCPU))
      << who << ": only CPU tensors can be imported (device_type " << device_type << ")";
  const int flag = FromDLDataType(t.dtype);
  SHADE_CHECK_SHAPE(t.ndim >= 0 && t.ndim <= kMaxDLPackNDim)
      << who << ": ndim " << t.ndim << " outside [0, " << kMaxDLPackNDim << "]";
  SHADE_CHECK_SHAPE(t.ndim == 0 || t.shape != nullptr) << who << ": null shape for ndim " << t.ndim;
  const std::size_t itemsize = TypeFlagSize(flag);
  std::vector<index_t> sizes(static_cast<std::size_t>(t.ndim)), strides(sizes.size());
  index_t numel = 1, nonzero = 1;
  for (int i = 0; i < t.ndim; ++i) {
    SHADE_CHECK_SHAPE_GE(t.shape[i], 0) << who << ": negative extent at axis " << i;
    sizes[static_cast<std::size_t>(i)] = t.shape[i];
    numel = CheckedMul(numel, t.shape[i], "DLPack element count");
    // Strides may be derived from the non-zero extents even for an empty tensor.
    nonzero = CheckedMul(nonzero, std::max<index_t>(t.shape[i], 1), "DLPack extents");
  }
  if (t.strides != nullptr) {
    for (int i = 0; i < t.ndim; ++i) {
      SHADE_CHECK_SHAPE_GE(t.strides[i], 0)
          << who << ": negative stride " << t.strides[i] << " at axis " << i
          << " (shade arrays have non-negative strides)";
      strides[static_cast<std::size_t>(i)] = t.strides[i];
    }
  } else {
    strides = ContiguousStrides(IndexSpan(sizes));  // null strides: compact row-major
  }
  // The furthest element must be addressable: sum (size - 1) * stride, in bytes, without overflow.
  index_t span = 0;
  if (numel > 0) {
    for (int i = 0; i < t.ndim; ++i) {
      span = CheckedAdd(span,
                        CheckedMul(sizes[static_cast<std::size_t>(i)] - 1,
                                   strides[static_cast<std::size_t>(i)], "DLPack extent"),
                        "DLPack extent");
    }
    (void)CheckedMul(CheckedAdd(span, 1, "DLPack extent"), static_cast<index_t>(itemsize),
                     "DLPack byte extent");
    SHADE_CHECK(t.data != nullptr) << who << ": null data for a non-empty tensor";
  }
  unsigned char* base = static_cast<unsigned char*>(t.data);
  SHADE_CHECK(t.byte_offset <= static_cast<std::uint64_t>(INT64_MAX))
      << who << ": byte_offset too large";
  unsigned char* first = base == nullptr ? nullptr : base + t.byte_offset;
  SHADE_CHECK(reinterpret_cast<std::uintptr_t>(first) % itemsize == 0)
      << who << ": data + byte_offset is not aligned to the " << itemsize << "-byte element size";
  if (first == nullptr) {
    // An empty tensor may have null data (DLPack allows it). A storage never runs the deleter
    // of null data, so release the producer now: the array references none of its memory.
    NDArray out = NDArray::FromBlob(nullptr, IndexSpan(sizes), IndexSpan(strides),
                                    TypeMeta::FromFlag(flag), DataDeleter());
    release(nullptr);
    return out;
  }
  return NDArray::FromBlob(first, IndexSpan(sizes), IndexSpan(strides), TypeMeta::FromFlag(flag),
                           std::move(release));
}

}  // namespace

DLDataType ToDLDataType(int type_flag) {
  return DispatchDTypeWithComplex(type_flag, [](auto tag) {
    using T = typename decltype(tag)::type;
    DLDataType d;
    d.bits = static_cast<std::uint8_t>(8 * sizeof(T));
    d.lanes = 1;
    if (kIsComplex<T>) {
      d.code = kDLComplex;  // bits of the whole element: 64 / 128, as DLPack counts them
    } else if (std::is_same<T, bool>::value) {
      d.code = kDLPackBoolCode;
    } else if (std::is_same<T, bf16_t>::value) {
      d.code = kDLBfloat;
    } else if (kIsFloating<T>) {
      d.code = kDLFloat;
    } else if (std::is_signed<T>::value) {
      d.code = kDLInt;
    } else {
      d.code = kDLUInt;
    }
    return d;
  });
}

int FromDLDataType(DLDataType dtype) {
  SHADE_CHECK_TYPE_EQ(dtype.lanes, 1) << "DLPack: vector dtypes (lanes != 1) are not supported";
  for (int f = 0; f < kNumTypeFlags; ++f) {
    const DLDataType d = ToDLDataType(f);
    if (d.code == dtype.code && d.bits == dtype.bits) return f;
  }
  SHADE_THROW_TYPE << "DLPack: unsupported dtype (code " << int(dtype.code) << ", bits "
                   << int(dtype.bits)
                   << "); supported: int/uint 8-64, float 16/32/64, bfloat 16, bool 8, "
                      "complex 64/128";
}

DLManagedTensor* ToDLPack(const NDArray& array) {
  return &MakeExport<DLManagedTensor>(array, "ToDLPack")->managed;
}

DLManagedTensorVersioned* ToDLPackVersioned(const NDArray& array, bool read_only) {
  auto* ctx = MakeExport<DLManagedTensorVersioned>(array, "ToDLPackVersioned");
  ctx->managed.version.major = kDLPackMajor;
  ctx->managed.version.minor = kDLPackMinor;
  ctx->managed.flags = read_only ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  return &ctx->managed;
}

NDArray FromDLPack(DLManagedTensor* src) {
  SHADE_CHECK(src != nullptr) << "FromDLPack: null DLManagedTensor";
  return WrapDLTensor(
      src->dl_tensor,
      [src](void*) {
        if (src->deleter != nullptr) src->deleter(src);
      },
      "FromDLPack");
}

NDArray FromDLPack(DLManagedTensorVersioned* src, bool accept_read_only) {
  SHADE_CHECK(src != nullptr) << "FromDLPack: null DLManagedTensorVersioned";
  SHADE_CHECK_EQ(src->version.major, kDLPackMajor)
      << "FromDLPack: unsupported DLPack major version " << src->version.major << "."
      << src->version.minor;
  SHADE_CHECK(accept_read_only || (src->flags & DLPACK_FLAG_BITMASK_READ_ONLY) == 0)
      << "FromDLPack: the tensor is flagged read-only; pass accept_read_only=true to import it "
         "anyway";
  return WrapDLTensor(
      src->dl_tensor,
      [src](void*) {
        if (src->deleter != nullptr) src->deleter(src);
      },
      "FromDLPack");
}

}  // namespace io
}  // namespace shade
