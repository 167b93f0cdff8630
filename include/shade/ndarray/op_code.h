/*!
 * \file op_code.h
 * \brief `OpCode`: the elementwise operations of the dynamic front end (ops.h), by name. The
 *  enumerators are generated from the op registry (functor/op_registry.h).
 */
#ifndef SHADE_NDARRAY_OP_CODE_H_
#define SHADE_NDARRAY_OP_CODE_H_

#include "shade/functor/op_registry.h"

namespace shade {

/*! \brief The NumPy name of an op ("add", "floor_divide", ...); throws for an invalid code. */
const char* OpName(OpCode op);
/*! \brief Number of operands of an op (1, 2 or 3); throws for an invalid code. */
int OpArity(OpCode op);

}  // namespace shade

#endif  // SHADE_NDARRAY_OP_CODE_H_
