/*!
 * \file dlpack.h
 * \brief Zero-copy exchange with other libraries through DLPack: export an NDArray as a
 *  `DLManagedTensorVersioned` (DLPack 1.x, optionally flagged read-only) or as the legacy
 *  `DLManagedTensor`, and import either without copying (strides and byte_offset honoured; the
 *  producer's deleter runs exactly once, when the last NDArray sharing the memory dies).
 *
 * dtypes: bool <-> (kDLBool, 8), float16 <-> (kDLFloat, 16), bfloat16 <-> (kDLBfloat, 16), and
 * the ints, uints and floats by their bits; lanes must be 1. Only CPU memory is exchanged.
 *
 * Debian's libdlpack-dev is DLPack 0.6, which predates the versioned struct and kDLBool. When
 * the included dlpack.h lacks them, this header declares the DLPack 1.0 ABI additions
 * (`DLPackVersion`, `DLManagedTensorVersioned`, the flag bits) with the layout the DLPack
 * specification fixes, so the structs are binary-compatible with any 1.x producer or consumer.
 */
#ifndef SHADE_IO_DLPACK_H_
#define SHADE_IO_DLPACK_H_

#include <dlpack/dlpack.h>

#include <cstdint>

#include "shade/ndarray/ndarray.h"

#if !defined(DLPACK_MAJOR_VERSION)
extern "C" {
/*! \brief DLPack ABI version (DLPack 1.0 layout). */
typedef struct {
  uint32_t major; /*!< Major version; a change breaks the ABI. */
  uint32_t minor; /*!< Minor version; additions that keep the ABI. */
} DLPackVersion;

/*! \brief DLPack 1.x managed tensor: version and flags ahead of the tensor (DLPack 1.0 layout). */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version; /*!< The DLPack version the producer wrote this struct for. */
  void* manager_ctx;     /*!< The producer's context (owner of the memory); opaque to consumers. */
  /*! \brief Called by the consumer once it is done with the tensor, to free it (may be null). */
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;     /*!< DLPACK_FLAG_BITMASK_* bits (read-only, is-copied). */
  DLTensor dl_tensor; /*!< The tensor: data, device, ndim, dtype, shape, strides, byte offset. */
} DLManagedTensorVersioned;
}
/*! \brief Defined (as 1) when this header declared the DLPack 1.0 structs itself, because the
 *  dlpack.h found predates them. */
#define SHADE_DLPACK_DECLARES_VERSIONED 1
#endif

#ifndef DLPACK_FLAG_BITMASK_READ_ONLY
/*! \brief DLPack 1.0 flag: the consumer must not write through the tensor. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
#endif
#ifndef DLPACK_FLAG_BITMASK_IS_COPIED
/*! \brief DLPack 1.0 flag: the producer copied the data for this export. */
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)
#endif

namespace shade {
namespace io {

/*! \brief DLPack type code of bool (kDLBool = 6 since DLPack 0.8; absent from 0.6's enum). */
constexpr std::uint8_t kDLPackBoolCode = 6;
/*! \brief The DLPack major version shade's versioned exports declare. */
constexpr std::uint32_t kDLPackMajor = 1;
/*! \brief The DLPack minor version shade's versioned exports declare. */
constexpr std::uint32_t kDLPackMinor = 0;

/*! \brief The DLPack dtype of a shade dtype flag; throws for an unknown flag. */
DLDataType ToDLDataType(int type_flag);
/*! \brief The shade dtype flag of a DLPack dtype; throws shade::Error for an unsupported one. */
int FromDLDataType(DLDataType dtype);

/*!
 * \brief Exports `array` (CPU, numeric dtype, any strides) as a legacy DLManagedTensor that
 *  shares its memory; the consumer calls `deleter` once when done, which releases the array.
 */
DLManagedTensor* ToDLPack(const NDArray& array);

/*!
 * \brief Exports `array` as a DLPack 1.x DLManagedTensorVersioned sharing its memory; with
 *  `read_only` the READ_ONLY flag tells the consumer not to write.
 */
DLManagedTensorVersioned* ToDLPackVersioned(const NDArray& array, bool read_only = false);

/*!
 * \brief Imports a legacy managed tensor without copying: the NDArray views its memory and
 *  calls `src->deleter(src)` exactly once, when the last NDArray sharing it is gone. On a
 *  shade::Error (unsupported device or dtype, lanes != 1, negative or overflowing sizes or
 *  strides, misaligned data) nothing is taken: the caller still owns `src`.
 */
NDArray FromDLPack(DLManagedTensor* src);

/*!
 * \brief Imports a DLPack 1.x managed tensor without copying (as the legacy overload). A major
 *  version other than 1 is refused; a READ_ONLY tensor is refused unless `accept_read_only`
 *  (shade arrays cannot enforce read-only access: the caller promises not to write).
 */
NDArray FromDLPack(DLManagedTensorVersioned* src, bool accept_read_only = false);

}  // namespace io
}  // namespace shade

#endif  // SHADE_IO_DLPACK_H_
