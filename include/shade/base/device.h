/*!
 * \file device.h
 * \brief Device tags `cpu` and `gpu` (mshadow's names and masks).
 */
#ifndef SHADE_BASE_DEVICE_H_
#define SHADE_BASE_DEVICE_H_

namespace shade {

/*! \brief Host device tag. */
struct cpu {
  /*! \brief true: memory is host memory. */
  static constexpr bool kDevCPU = true;
  /*! \brief Bit identifying the device in a TBlob's dev_mask. */
  static constexpr int kDevMask = 1 << 0;
};

/*! \brief CUDA device tag. */
struct gpu {
  /*! \brief false: memory lives on a GPU. */
  static constexpr bool kDevCPU = false;
  /*! \brief Bit identifying the device in a TBlob's dev_mask. */
  static constexpr int kDevMask = 1 << 1;
};

/*! \brief The device tag of a dev_mask: `DeviceOf<cpu::kDevMask>::type` is cpu. */
template <int dev_mask>
struct DeviceOf;
/*! \brief cpu. */
template <>
struct DeviceOf<cpu::kDevMask> {
  /*! \brief The tag. */
  using type = cpu;
};
/*! \brief gpu. */
template <>
struct DeviceOf<gpu::kDevMask> {
  /*! \brief The tag. */
  using type = gpu;
};

/*! \brief Readable device name, used in error messages. */
inline const char* DevMaskName(int dev_mask) {
  return dev_mask == cpu::kDevMask ? "cpu" : dev_mask == gpu::kDevMask ? "gpu" : "unknown";
}

}  // namespace shade

#endif  // SHADE_BASE_DEVICE_H_
