/*!
 * \file index.h
 * \brief Index and size types shared by every layer.
 */
#ifndef SHADE_BASE_INDEX_H_
#define SHADE_BASE_INDEX_H_

#include <cstddef>
#include <cstdint>

namespace shade {

/*! \brief Signed 64-bit index: mshadow's 32-bit index overflowed past 2^31 elements. */
using index_t = std::int64_t;

/*! \brief Default element type of the static front end (as in mshadow). */
using default_real_t = float;

}  // namespace shade

#if defined(__CUDACC__)
/*! \brief Inline on host and device. */
#define SHADE_XINLINE inline __attribute__((always_inline)) __device__ __host__
#else
/*! \brief Inline on host and device. */
#define SHADE_XINLINE inline __attribute__((always_inline))
#endif
/*! \brief Inline on the CPU only. */
#define SHADE_CINLINE inline __attribute__((always_inline))
/*! \brief Marks a lambda (after its parameter list) as always inlined: a lambda handed to an
 *  always-inlined loop helper is otherwise a function of its own, whose size stops the inliner
 *  from folding a small static assignment into its caller. */
#define SHADE_LAMBDA_INLINE __attribute__((always_inline))
/*! \brief Never inlined: a rarely taken large path kept out of its caller, whose size decides
 *  whether the caller itself is inlined. */
#define SHADE_NOINLINE __attribute__((noinline))

#endif  // SHADE_BASE_INDEX_H_
