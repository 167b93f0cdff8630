// The dynamic front end's device seam (ndarray/device.h): every op that runs a kernel refuses an
// array whose memory is not on a device with kernels in this build, and refuses arrays of
// different devices, naming both. A gpu-tagged array over host memory stands in for device
// memory: nothing may read or write it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "error_test_util.h"
#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/device.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/reduce.h"

namespace {

using shade::NDArray;

// Runs f, expects a shade::Error whose message contains every one of `parts`.
template <typename F>
void ExpectErrorWith(F&& f, const std::vector<std::string>& parts) {
  const std::string what = shade_test::ErrorOf(f);
  for (const std::string& p : parts)
    EXPECT_TRUE(shade_test::Contains(what, p)) << p << " in: " << what;
}

class DynDevice : public ::testing::Test {
 protected:
  // 2x3 float32 "device" array: host memory poisoned with NaN, tagged gpu.
  std::vector<float> device_memory = std::vector<float>(6, 1e30f);
  NDArray on_gpu = NDArray::FromBlob(device_memory.data(), {2, 3}, shade::TypeMeta::Make<float>(),
                                     shade::DataDeleter(), shade::gpu::kDevMask);
  NDArray on_cpu = shade::ones({2, 3}, shade::kFloat32);
};

TEST_F(DynDevice, BackendsOfThisBuild) {
  EXPECT_TRUE(shade::HasKernelBackend(shade::cpu::kDevMask));
  EXPECT_FALSE(shade::HasKernelBackend(shade::gpu::kDevMask));
  EXPECT_EQ(on_gpu.dev_mask(), shade::gpu::kDevMask);
}

TEST_F(DynDevice, MixedDevicesNameBoth) {
  ExpectErrorWith([&] { NDArray r = on_cpu + on_gpu; }, {"add", "gpu", "cpu", "different devices"});
  ExpectErrorWith([&] { NDArray r = on_gpu * on_cpu + 1.0; }, {"gpu", "cpu", "different devices"});
  ExpectErrorWith([&] { shade::matmul(on_cpu, on_gpu.transpose(0, 1)); },
                  {"matmul", "gpu", "cpu", "different devices"});
  ExpectErrorWith([&] { shade::add(on_cpu, on_cpu, on_gpu); },
                  {"add", "gpu", "cpu", "different devices"});
}

TEST_F(DynDevice, DeviceWithoutKernelsIsNamed) {
  ExpectErrorWith([&] { NDArray r = on_gpu + on_gpu; }, {"add", "no kernels for device gpu"});
  ExpectErrorWith([&] { NDArray r = shade::exp(on_gpu); }, {"exp", "no kernels for device gpu"});
  ExpectErrorWith([&] { NDArray r = on_gpu + 1.0f; }, {"no kernels for device gpu"});
  ExpectErrorWith([&] { shade::sum(on_gpu); }, {"sum", "no kernels for device gpu"});
  // A copy needs gpu memory first: the allocator registry refuses it.
  ExpectErrorWith([&] { on_gpu.Clone(); }, {"no allocator for device gpu"});
  ExpectErrorWith([&] { on_gpu.copy_(on_cpu); }, {"gpu", "cpu", "different devices"});
  // Nothing wrote into the "device" memory.
  for (float v : device_memory) EXPECT_EQ(v, 1e30f);
}

TEST_F(DynDevice, CpuOpsAreUnaffected) {
  NDArray r = on_cpu + on_cpu;
  EXPECT_EQ(r.data<float>()[5], 2.0f);
  EXPECT_EQ(shade::sum(r).data<float>()[0], 12.0f);
}

}  // namespace
