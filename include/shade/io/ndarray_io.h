/*!
 * \file ndarray_io.h
 * \brief shade's own NDArray binary format: versioned, little-endian, self-describing.
 *
 * Layout (all integers little-endian):
 *
 *   offset  size        field
 *   0       8           magic "SHADEND" followed by a 0 byte
 *   8       4 (uint32)  format version, currently 1
 *   12      4 (uint32)  dtype flag (shade's TypeFlag numbering: float32=0 ... uint64=12)
 *   16      4 (uint32)  rank, 0..64
 *   20      4 (uint32)  reserved, must be 0
 *   24      8 * rank    sizes (int64 each, >= 0)
 *   ...     numel * itemsize   elements in C order, little-endian (bool: one byte, 0 or 1)
 *
 * Every dtype is supported (bfloat16 included). The loader checks the stream holds the declared
 * data before allocating (reading in bounded chunks from a stream that cannot tell its size)
 * and refuses anything else with a shade::Error naming the stream and the reason.
 */
#ifndef SHADE_IO_NDARRAY_IO_H_
#define SHADE_IO_NDARRAY_IO_H_

#include <cstdint>
#include <string>

#include "shade/io/stream.h"
#include "shade/ndarray/ndarray.h"

namespace shade {
namespace io {

/*! \brief Current version of the NDArray binary format. */
constexpr std::uint32_t kNDArrayFormatVersion = 1;
/*! \brief Largest rank the loader accepts. */
constexpr std::uint32_t kNDArrayMaxNDim = 64;

/*! \brief Writes `array` (CPU, numeric dtype, any strides) to the stream. */
void SaveNDArray(Stream* strm, const NDArray& array);
/*! \brief Writes `array` to a file (created or truncated). */
void SaveNDArray(const std::string& path, const NDArray& array);
/*! \brief Reads one array from the stream's position (a contiguous, freshly allocated array). */
NDArray LoadNDArray(Stream* strm);
/*! \brief Reads a file holding exactly one array (trailing bytes are refused). */
NDArray LoadNDArray(const std::string& path);
/*! \brief Reads an array that is exactly the bytes [data, data + size). */
NDArray LoadNDArrayFromMemory(const void* data, std::size_t size);

/*!
 * \brief Throws unless every byte of a bool buffer is 0 or 1 (any other byte would be an
 *  invalid `bool` object); `source` names the stream in the message.
 */
void CheckBoolBytes(const void* data, std::uint64_t count, const std::string& source);

}  // namespace io
}  // namespace shade

#endif  // SHADE_IO_NDARRAY_IO_H_
