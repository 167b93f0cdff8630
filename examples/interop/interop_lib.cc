// The C side of the interop example: a shared library with two C entry points that exchange
// arrays with NumPy through DLPack (examples/interop/shade_dlpack.py calls them with ctypes).
#include <dlpack/dlpack.h>

#include "shade/shade.h"

extern "C" {

/*! \brief A new float32 array [0, 0.5, 1, ...] of n elements, exported as a DLPack tensor. The
 *  caller owns it (NumPy's from_dlpack takes it over through shade_dlpack.to_numpy). */
DLManagedTensor* shade_example_linspace(int n) {
  shade::NDArray a = shade::arange(0, n, 1, shade::kFloat32) * 0.5f;
  return shade::io::ToDLPack(a);
}

/*! \brief The sum of a DLPack tensor (any numeric dtype) as a double; takes ownership of it.
 *  Returns NaN and writes nothing else on error. */
double shade_example_sum(DLManagedTensor* t) {
  try {
    const shade::NDArray a = shade::io::FromDLPack(t);  // shares NumPy's memory, no copy
    return shade::item<double>(shade::sum(a));
  } catch (const shade::Error&) {
    return 0.0 / 0.0;
  }
}

}  // extern "C"
