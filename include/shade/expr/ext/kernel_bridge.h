/*!
 * \file kernel_bridge.h
 * \brief Access for the extensions to the kernel layer (backend/cpu/kernels.h, reduce.h) as
 *  `shade::expr::kern::`.
 *
 * TEMPORARY: the kernel layer currently declares `namespace shade::cpu`, which collides with
 * the device tag `struct shade::cpu` (base/device.h) that every Tensor uses, so no translation
 * unit can name both. Until the kernel layer's namespace is renamed, this header includes it
 * with the token `cpu` mapped to `kernel_cpu_` (push/pop_macro restores everything after), so
 * its functions live in `shade::kernel_cpu_`. When the rename lands, only the alias below
 * changes. This header must be included after the device tag (ext_base.h guarantees that).
 */
#ifndef SHADE_EXPR_EXT_KERNEL_BRIDGE_H_
#define SHADE_EXPR_EXT_KERNEL_BRIDGE_H_

#include "shade/base/device.h"

#ifndef SHADE_BACKEND_CPU_KERNELS_H_
// NOLINTNEXTLINE
#pragma push_macro("cpu")
#undef cpu
#define cpu kernel_cpu_
#include "shade/backend/cpu/kernels.h"
#include "shade/backend/cpu/reduce.h"
#pragma pop_macro("cpu")
#endif

namespace shade {
namespace expr {
/*! \brief The kernel layer (see the file comment). */
namespace kern = ::shade::kernel_cpu_;
}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_EXT_KERNEL_BRIDGE_H_
