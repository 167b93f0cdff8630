/*!
 * \file nvrtc.h
 * \brief Run-time compilation of generated kernels (a SHADE_WITH_CUDA build only): the source of
 *  an elementwise kernel, and its compilation by NVRTC to a cubin for one architecture. NVRTC
 *  and ptxas need no GPU, so every generated kernel can be compiled (and checked for register
 *  spills) on any machine; the dynamic front end's fused kernels are to be generated through
 *  here (issue 42, item 4).
 */
#ifndef SHADE_BACKEND_CUDA_NVRTC_H_
#define SHADE_BACKEND_CUDA_NVRTC_H_

#include <string>
#include <vector>

namespace shade {
namespace cuda {

/*!
 * \brief CUDA C++ source of `extern "C" __global__ void name(long long n, T* out, const T* in0,
 *  ..., const T* in{arity-1})` that sets `out[i] = expr` for every i < n (grid-stride), where
 *  `expr` is C++ over the element values `a`, `b`, `c` (the first three inputs) of type `ctype`.
 *  The source uses no header (NVRTC's built-in math functions only), so the host compiler can
 *  compile it too, with a header that runs the grid as a loop. Throws shade::ValueError on an
 *  arity outside 1..3 or a name that is not a C identifier.
 */
std::string ElementwiseKernelSource(const std::string& name, const std::string& ctype, int arity,
                                    const std::string& expr);

/*! \brief What CompileToCubin produced. */
struct CompiledKernel {
  /*! \brief The cubin (machine code for the requested architecture). */
  std::vector<char> cubin;
  /*! \brief NVRTC's log, ptxas's resource report included. */
  std::string log;
  /*! \brief Bytes of register spill stores ptxas reported (0: none). */
  long spill_store_bytes = 0;
};

/*!
 * \brief Compiles `source` with NVRTC for `arch` (e.g. "sm_90", C++17, ptxas verbose) and
 *  returns its cubin and log. Throws shade::Error with the source name and NVRTC's log when the
 *  compilation fails.
 */
CompiledKernel CompileToCubin(const std::string& source, const std::string& name,
                              const std::string& arch);

}  // namespace cuda
}  // namespace shade

#endif  // SHADE_BACKEND_CUDA_NVRTC_H_
