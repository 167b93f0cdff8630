// The device checks of the dynamic front end (ndarray/device.h).
#include "shade/ndarray/device.h"

#include "shade/base/device.h"
#include "shade/base/error.h"

namespace shade {

bool HasKernelBackend(int dev_mask) noexcept {
  return dev_mask == cpu::kDevMask;
}

void CheckDevices(const char* op, const NDArray* const* arrays, int n) {
  int first = -1;
  for (int k = 0; k < n; ++k) {
    if (arrays[k] == nullptr || !arrays[k]->defined()) continue;
    const int dev = arrays[k]->dev_mask();
    if (first < 0) {
      first = k;
    } else {
      const int dev0 = arrays[first]->dev_mask();
      SHADE_CHECK(dev == dev0) << op << ": operand " << k << " is on " << DevMaskName(dev)
                               << " but operand " << first << " is on " << DevMaskName(dev0)
                               << ": arrays on different devices";
    }
  }
  if (first >= 0) {
    const int dev = arrays[first]->dev_mask();
    SHADE_CHECK(HasKernelBackend(dev))
        << op << ": no kernels for device " << DevMaskName(dev) << " in this build (CPU only)";
  }
}

}  // namespace shade
