/*!
 * \file npz.h
 * \brief NumPy `.npz` archives (zip files of `.npy` members, stored or deflated) for named
 *  collections of arrays, through libzip.
 *
 * Each member "<name>.npy" holds one array; a member with another name, a duplicate name, a
 * member whose declared size is impossible for its compressed size, or a malformed `.npy`
 * member is refused with a shade::Error naming the archive, the member and the reason.
 */
#ifndef SHADE_IO_NPZ_H_
#define SHADE_IO_NPZ_H_

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "shade/io/npy.h"
#include "shade/ndarray/ndarray.h"

namespace shade {
namespace io {

/*! \brief Named arrays, in the order they are written (NumPy's `savez(**arrays)`). */
using NamedArrays = std::vector<std::pair<std::string, NDArray>>;

/*!
 * \brief Writes `arrays` as `<name>.npy` members; `compress` picks deflate (NumPy's
 *  `savez_compressed`) over stored (`savez`). Throws on an empty or duplicate name.
 */
void SaveNpz(const std::string& path, const NamedArrays& arrays, bool compress = false);

/*! \brief Reads every member of an archive, keyed by name without ".npy". */
std::map<std::string, NDArray> LoadNpz(const std::string& path);

/*! \brief Reads an archive held in memory (named "<memory>" in errors). */
std::map<std::string, NDArray> LoadNpzFromMemory(const void* data, std::size_t size);

}  // namespace io
}  // namespace shade

#endif  // SHADE_IO_NPZ_H_
