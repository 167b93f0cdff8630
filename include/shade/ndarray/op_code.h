/*!
 * \file op_code.h
 * \brief `OpCode`: the elementwise operations of the dynamic front end (ops.h), by name.
 */
#ifndef SHADE_NDARRAY_OP_CODE_H_
#define SHADE_NDARRAY_OP_CODE_H_

#include <cstdint>

namespace shade {

/*! \brief Every elementwise operation of the dynamic front end. */
enum class OpCode : std::uint8_t {
  // binary
  kAdd, kSubtract, kMultiply, kTrueDivide, kFloorDivide, kRemainder, kPower, kMaximum, kMinimum,
  kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual,
  kLogicalAnd, kLogicalOr, kLogicalXor, kBitwiseAnd, kBitwiseOr, kBitwiseXor,
  // unary
  kNegative, kAbs, kExp, kLog, kLog1p, kExpm1, kSqrt, kRsqrt, kSin, kCos, kTanh, kSigmoid,
  kRelu, kFloor, kCeil, kRound, kSign, kLogicalNot, kBitwiseNot,
  // ternary
  kWhere, kClamp,
  kNumOps
};

/*! \brief The NumPy-style name of an op ("add", "floor_divide", ...). */
const char* OpName(OpCode op);
/*! \brief Number of operands of an op (1, 2 or 3). */
int OpArity(OpCode op);

}  // namespace shade

#endif  // SHADE_NDARRAY_OP_CODE_H_
