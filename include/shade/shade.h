/*!
 * \file shade.h
 * \brief Umbrella header: everything in shade.
 */
#ifndef SHADE_SHADE_H_
#define SHADE_SHADE_H_

#include "shade/backend/cpu/parallel.h"
#include "shade/base/checked.h"
#include "shade/base/device.h"
#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/base/half.h"
#include "shade/base/index.h"
#include "shade/base/type_meta.h"
#include "shade/expr/engine.h"
#include "shade/expr/expression.h"
#include "shade/expr/ext/extension.h"
#include "shade/io/binary.h"
#include "shade/io/dlpack.h"
#include "shade/io/ndarray_io.h"
#include "shade/io/npy.h"
#include "shade/io/npz.h"
#include "shade/io/stream.h"
#include "shade/memory/alloc.h"
#include "shade/memory/intrusive_ptr.h"
#include "shade/memory/storage.h"
#include "shade/ndarray/apply.h"
#include "shade/ndarray/bridge.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/indexing.h"
#include "shade/ndarray/linalg.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/print.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/param/json.h"
#include "shade/param/optional.h"
#include "shade/param/parameter.h"
#include "shade/random/random.h"
#include "shade/shape/shape.h"
#include "shade/shape/tshape.h"
#include "shade/tensor/stream.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_blob.h"
#include "shade/tensor/tensor_cpu.h"

#endif  // SHADE_SHADE_H_
