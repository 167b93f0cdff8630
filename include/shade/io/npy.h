/*!
 * \file npy.h
 * \brief NumPy `.npy` files (format versions 1.0, 2.0, 3.0): a strict header parser, a reader
 *  that checks the stream really holds the declared bytes before anything is allocated, and a
 *  writer whose header is padded so the data starts 64-byte aligned.
 *
 * Layout: "\x93NUMPY", major, minor, header length (uint16 little-endian for 1.0, uint32 for 2.0
 * and 3.0), then a Python dict literal `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3),
 * }` padded with spaces and ended by '\n', then the raw elements.
 *
 * The parser accepts exactly the keys descr, fortran_order and shape (each once), a descr of
 * byte order `<` `>` `|` + kind `b i u f` + item size that maps to a shade dtype, and a tuple of
 * non-negative integers. Object and structured dtypes, and everything else, are refused with a
 * shade::Error naming the file (or "<memory>") and the reason. bfloat16 has no NumPy dtype:
 * writing it is refused.
 */
#ifndef SHADE_IO_NPY_H_
#define SHADE_IO_NPY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "shade/base/dtype.h"
#include "shade/io/stream.h"
#include "shade/ndarray/ndarray.h"
#include "shade/shape/tshape.h"

namespace shade {
namespace io {

/*! \brief Largest header (dict text) the reader accepts, in bytes. */
constexpr std::size_t kNpyMaxHeaderLen = std::size_t(1) << 16;
/*! \brief Largest rank the reader accepts (NumPy's NPY_MAXDIMS). */
constexpr index_t kNpyMaxNDim = 32;
/*! \brief Alignment of the data offset in files shade writes. */
constexpr std::size_t kNpyDataAlign = 64;

/*! \brief What a `.npy` header declares. */
struct NpyHeader {
  /*! \brief Format version (1, 2 or 3) and minor (0). */
  int major_version = 1;
  /*! \brief Minor version (always 0). */
  int minor_version = 0;
  /*! \brief shade dtype flag of the elements. */
  int type_flag = kFloat32;
  /*! \brief Byte order as stored: '<', '>' or '|' (one-byte types). */
  char byte_order = '<';
  /*! \brief True when the elements are stored column-major. */
  bool fortran_order = false;
  /*! \brief Array shape (rank 0 for a scalar). */
  TShape shape;
  /*! \brief Bytes before the data: magic, version, length field and dict. */
  std::uint64_t data_offset = 0;

  /*! \brief Number of elements (checked for overflow). */
  std::uint64_t NumElements() const;
  /*! \brief Number of data bytes (checked for overflow). */
  std::uint64_t DataBytes() const;
};

/*!
 * \brief Parses the dict text of a header (the `len` bytes after the length field); `name`
 *  names the source in errors. Leaves version and data_offset at their defaults.
 */
NpyHeader ParseNpyHeaderDict(const char* text, std::size_t len, const std::string& name);
/*!
 * \brief ParseNpyHeaderDict for a file of format `major_version`: versions 1 and 2 also accept
 *  Python 2's long suffix (`(2L, 1L)`), as NumPy does; version 3 does not.
 */
NpyHeader ParseNpyHeaderDict(const char* text, std::size_t len, const std::string& name,
                             int major_version);

/*! \brief Reads and validates magic, version, length and dict from `strm`. */
NpyHeader ReadNpyHeader(Stream* strm);

/*!
 * \brief Throws unless `strm` still holds the header's data bytes (when it can tell);
 *  with `exact`, also refuses trailing bytes after the data.
 */
void CheckNpyDataAvailable(Stream* strm, const NpyHeader& header, bool exact);

/*!
 * \brief Reads the data of `header` into `dst` (DataBytes() bytes, in the file's element order),
 *  converting big-endian elements to the host's order.
 */
void ReadNpyData(Stream* strm, const NpyHeader& header, void* dst);

/*! \brief The `.npy` descr string of a dtype ("<f4", "|b1", ...); throws for bfloat16. */
std::string NpyDescr(int type_flag, char byte_order = '<');

/*! \brief Options of the writer. */
struct NpyWriteOptions {
  /*! \brief Format version 1, 2 or 3; 0 picks 1.0, or 2.0 when the header needs it. */
  int version = 0;
  /*! \brief Byte order of multi-byte elements in the file: '<' or '>'. */
  char byte_order = '<';
  /*!
   * \brief SaveNpy only: store column-major (`fortran_order: True`). SaveNpy also picks it by
   *  itself, without a copy, for an array that is Fortran- but not C-contiguous.
   */
  bool fortran_order = false;
};

/*!
 * \brief The whole preamble (magic to '\n') for an array, its length a multiple of 64.
 *  Throws for bfloat16, a bad version or byte order, or a header too long for version 1.0.
 */
std::string MakeNpyHeader(int type_flag, const TShape& shape, bool fortran_order,
                          const NpyWriteOptions& opts = NpyWriteOptions());

/*!
 * \brief Writes a `.npy` image of `data` (NumElements of `shape` elements of `type_flag`, in the
 *  host's byte order, C order unless `fortran_order`) to `strm`.
 */
void WriteNpy(Stream* strm, int type_flag, const TShape& shape, const void* data,
              bool fortran_order = false, const NpyWriteOptions& opts = NpyWriteOptions());

/*! \brief Reverses the bytes of each `itemsize`-byte element of a buffer in place. */
void ByteSwapInPlace(void* data, std::size_t itemsize, std::uint64_t count);

/*!
 * \brief Loads a whole `.npy` file. A Fortran-order file comes back as the strided view
 *  (strides reversed) over the file's element order; use `.contiguous()` for C order.
 *  Throws shade::Error naming the file and the reason for anything malformed or truncated,
 *  and for bytes after the data.
 */
NDArray LoadNpy(const std::string& path);
/*! \brief Loads one `.npy` image from the stream's position (bytes after it are left unread). */
NDArray LoadNpy(Stream* strm);
/*! \brief Loads a `.npy` image that is exactly the bytes [data, data + size) (named "<memory>"). */
NDArray LoadNpyFromMemory(const void* data, std::size_t size);

/*!
 * \brief Saves a CPU array of a NumPy dtype (any strides: non-contiguous arrays are written in
 *  C order, or in Fortran order without a copy when they are Fortran-contiguous).
 */
void SaveNpy(const std::string& path, const NDArray& array,
             const NpyWriteOptions& opts = NpyWriteOptions());
/*! \brief Writes a `.npy` image of `array` to the stream. */
void SaveNpy(Stream* strm, const NDArray& array, const NpyWriteOptions& opts = NpyWriteOptions());

/*!
 * \brief Reads exactly `size` bytes into a new buffer that never grows beyond what the stream
 *  has delivered (for streams that cannot tell their size); throws naming the stream and `what`.
 */
std::vector<unsigned char> ReadBounded(Stream* strm, std::uint64_t size, const char* what);

}  // namespace io
}  // namespace shade

#endif  // SHADE_IO_NPY_H_
