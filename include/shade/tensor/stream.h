/*!
 * \file stream.h
 * \brief `Stream<Device>`: the queue a tensor's work is issued on. The CPU runs everything
 *  synchronously, so `Stream<cpu>` has nothing to wait for; `Stream<gpu>` is declared here and
 *  defined by the CUDA backend.
 */
#ifndef SHADE_TENSOR_STREAM_H_
#define SHADE_TENSOR_STREAM_H_

#include "shade/base/device.h"

namespace shade {

/*! \brief Computation stream of a device. */
template <typename Device>
struct Stream;

/*! \brief The CPU stream: work is synchronous, so every query answers "done". */
template <>
struct Stream<cpu> {
  /*! \brief Waits for all work on the stream (none is ever pending on the CPU). */
  void Wait() {}
  /*! \brief True when all work is done: always, on the CPU. */
  bool CheckIdle() { return true; }
  /*! \brief BLAS needs no per-stream handle on the CPU. */
  void CreateBlasHandle() {}
};

/*! \brief The CUDA stream; defined by the GPU backend. */
template <>
struct Stream<gpu>;

}  // namespace shade

#endif  // SHADE_TENSOR_STREAM_H_
