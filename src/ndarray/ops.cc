// The elementwise functions and operators: each builds an Expr node (see ops.h).
#include "shade/ndarray/ops.h"

namespace shade {

Expr add(Expr a, Expr b) { return Expr::Make(OpCode::kAdd, std::move(a), std::move(b)); }
const NDArray& add(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kAdd, std::move(a), std::move(b)).eval(out);
}

Expr subtract(Expr a, Expr b) { return Expr::Make(OpCode::kSubtract, std::move(a), std::move(b)); }
const NDArray& subtract(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kSubtract, std::move(a), std::move(b)).eval(out);
}

Expr multiply(Expr a, Expr b) { return Expr::Make(OpCode::kMultiply, std::move(a), std::move(b)); }
const NDArray& multiply(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kMultiply, std::move(a), std::move(b)).eval(out);
}

Expr divide(Expr a, Expr b) { return Expr::Make(OpCode::kTrueDivide, std::move(a), std::move(b)); }
const NDArray& divide(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kTrueDivide, std::move(a), std::move(b)).eval(out);
}

Expr true_divide(Expr a, Expr b) { return Expr::Make(OpCode::kTrueDivide, std::move(a), std::move(b)); }
const NDArray& true_divide(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kTrueDivide, std::move(a), std::move(b)).eval(out);
}

Expr floor_divide(Expr a, Expr b) { return Expr::Make(OpCode::kFloorDivide, std::move(a), std::move(b)); }
const NDArray& floor_divide(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kFloorDivide, std::move(a), std::move(b)).eval(out);
}

Expr remainder(Expr a, Expr b) { return Expr::Make(OpCode::kRemainder, std::move(a), std::move(b)); }
const NDArray& remainder(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kRemainder, std::move(a), std::move(b)).eval(out);
}

Expr power(Expr a, Expr b) { return Expr::Make(OpCode::kPower, std::move(a), std::move(b)); }
const NDArray& power(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kPower, std::move(a), std::move(b)).eval(out);
}

Expr maximum(Expr a, Expr b) { return Expr::Make(OpCode::kMaximum, std::move(a), std::move(b)); }
const NDArray& maximum(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kMaximum, std::move(a), std::move(b)).eval(out);
}

Expr minimum(Expr a, Expr b) { return Expr::Make(OpCode::kMinimum, std::move(a), std::move(b)); }
const NDArray& minimum(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kMinimum, std::move(a), std::move(b)).eval(out);
}

Expr equal(Expr a, Expr b) { return Expr::Make(OpCode::kEqual, std::move(a), std::move(b)); }
const NDArray& equal(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kEqual, std::move(a), std::move(b)).eval(out);
}

Expr not_equal(Expr a, Expr b) { return Expr::Make(OpCode::kNotEqual, std::move(a), std::move(b)); }
const NDArray& not_equal(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kNotEqual, std::move(a), std::move(b)).eval(out);
}

Expr less(Expr a, Expr b) { return Expr::Make(OpCode::kLess, std::move(a), std::move(b)); }
const NDArray& less(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kLess, std::move(a), std::move(b)).eval(out);
}

Expr less_equal(Expr a, Expr b) { return Expr::Make(OpCode::kLessEqual, std::move(a), std::move(b)); }
const NDArray& less_equal(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kLessEqual, std::move(a), std::move(b)).eval(out);
}

Expr greater(Expr a, Expr b) { return Expr::Make(OpCode::kGreater, std::move(a), std::move(b)); }
const NDArray& greater(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kGreater, std::move(a), std::move(b)).eval(out);
}

Expr greater_equal(Expr a, Expr b) { return Expr::Make(OpCode::kGreaterEqual, std::move(a), std::move(b)); }
const NDArray& greater_equal(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kGreaterEqual, std::move(a), std::move(b)).eval(out);
}

Expr logical_and(Expr a, Expr b) { return Expr::Make(OpCode::kLogicalAnd, std::move(a), std::move(b)); }
const NDArray& logical_and(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kLogicalAnd, std::move(a), std::move(b)).eval(out);
}

Expr logical_or(Expr a, Expr b) { return Expr::Make(OpCode::kLogicalOr, std::move(a), std::move(b)); }
const NDArray& logical_or(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kLogicalOr, std::move(a), std::move(b)).eval(out);
}

Expr logical_xor(Expr a, Expr b) { return Expr::Make(OpCode::kLogicalXor, std::move(a), std::move(b)); }
const NDArray& logical_xor(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kLogicalXor, std::move(a), std::move(b)).eval(out);
}

Expr bitwise_and(Expr a, Expr b) { return Expr::Make(OpCode::kBitwiseAnd, std::move(a), std::move(b)); }
const NDArray& bitwise_and(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kBitwiseAnd, std::move(a), std::move(b)).eval(out);
}

Expr bitwise_or(Expr a, Expr b) { return Expr::Make(OpCode::kBitwiseOr, std::move(a), std::move(b)); }
const NDArray& bitwise_or(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kBitwiseOr, std::move(a), std::move(b)).eval(out);
}

Expr bitwise_xor(Expr a, Expr b) { return Expr::Make(OpCode::kBitwiseXor, std::move(a), std::move(b)); }
const NDArray& bitwise_xor(Expr a, Expr b, const NDArray& out) {
  return Expr::Make(OpCode::kBitwiseXor, std::move(a), std::move(b)).eval(out);
}

Expr negative(Expr a) { return Expr::Make(OpCode::kNegative, std::move(a)); }
const NDArray& negative(Expr a, const NDArray& out) { return Expr::Make(OpCode::kNegative, std::move(a)).eval(out); }

Expr abs(Expr a) { return Expr::Make(OpCode::kAbs, std::move(a)); }
const NDArray& abs(Expr a, const NDArray& out) { return Expr::Make(OpCode::kAbs, std::move(a)).eval(out); }

Expr absolute(Expr a) { return Expr::Make(OpCode::kAbs, std::move(a)); }
const NDArray& absolute(Expr a, const NDArray& out) { return Expr::Make(OpCode::kAbs, std::move(a)).eval(out); }

Expr exp(Expr a) { return Expr::Make(OpCode::kExp, std::move(a)); }
const NDArray& exp(Expr a, const NDArray& out) { return Expr::Make(OpCode::kExp, std::move(a)).eval(out); }

Expr log(Expr a) { return Expr::Make(OpCode::kLog, std::move(a)); }
const NDArray& log(Expr a, const NDArray& out) { return Expr::Make(OpCode::kLog, std::move(a)).eval(out); }

Expr log1p(Expr a) { return Expr::Make(OpCode::kLog1p, std::move(a)); }
const NDArray& log1p(Expr a, const NDArray& out) { return Expr::Make(OpCode::kLog1p, std::move(a)).eval(out); }

Expr expm1(Expr a) { return Expr::Make(OpCode::kExpm1, std::move(a)); }
const NDArray& expm1(Expr a, const NDArray& out) { return Expr::Make(OpCode::kExpm1, std::move(a)).eval(out); }

Expr sqrt(Expr a) { return Expr::Make(OpCode::kSqrt, std::move(a)); }
const NDArray& sqrt(Expr a, const NDArray& out) { return Expr::Make(OpCode::kSqrt, std::move(a)).eval(out); }

Expr rsqrt(Expr a) { return Expr::Make(OpCode::kRsqrt, std::move(a)); }
const NDArray& rsqrt(Expr a, const NDArray& out) { return Expr::Make(OpCode::kRsqrt, std::move(a)).eval(out); }

Expr sin(Expr a) { return Expr::Make(OpCode::kSin, std::move(a)); }
const NDArray& sin(Expr a, const NDArray& out) { return Expr::Make(OpCode::kSin, std::move(a)).eval(out); }

Expr cos(Expr a) { return Expr::Make(OpCode::kCos, std::move(a)); }
const NDArray& cos(Expr a, const NDArray& out) { return Expr::Make(OpCode::kCos, std::move(a)).eval(out); }

Expr tanh(Expr a) { return Expr::Make(OpCode::kTanh, std::move(a)); }
const NDArray& tanh(Expr a, const NDArray& out) { return Expr::Make(OpCode::kTanh, std::move(a)).eval(out); }

Expr sigmoid(Expr a) { return Expr::Make(OpCode::kSigmoid, std::move(a)); }
const NDArray& sigmoid(Expr a, const NDArray& out) { return Expr::Make(OpCode::kSigmoid, std::move(a)).eval(out); }

Expr relu(Expr a) { return Expr::Make(OpCode::kRelu, std::move(a)); }
const NDArray& relu(Expr a, const NDArray& out) { return Expr::Make(OpCode::kRelu, std::move(a)).eval(out); }

Expr floor(Expr a) { return Expr::Make(OpCode::kFloor, std::move(a)); }
const NDArray& floor(Expr a, const NDArray& out) { return Expr::Make(OpCode::kFloor, std::move(a)).eval(out); }

Expr ceil(Expr a) { return Expr::Make(OpCode::kCeil, std::move(a)); }
const NDArray& ceil(Expr a, const NDArray& out) { return Expr::Make(OpCode::kCeil, std::move(a)).eval(out); }

Expr round(Expr a) { return Expr::Make(OpCode::kRound, std::move(a)); }
const NDArray& round(Expr a, const NDArray& out) { return Expr::Make(OpCode::kRound, std::move(a)).eval(out); }

Expr sign(Expr a) { return Expr::Make(OpCode::kSign, std::move(a)); }
const NDArray& sign(Expr a, const NDArray& out) { return Expr::Make(OpCode::kSign, std::move(a)).eval(out); }

Expr logical_not(Expr a) { return Expr::Make(OpCode::kLogicalNot, std::move(a)); }
const NDArray& logical_not(Expr a, const NDArray& out) { return Expr::Make(OpCode::kLogicalNot, std::move(a)).eval(out); }

Expr bitwise_not(Expr a) { return Expr::Make(OpCode::kBitwiseNot, std::move(a)); }
const NDArray& bitwise_not(Expr a, const NDArray& out) { return Expr::Make(OpCode::kBitwiseNot, std::move(a)).eval(out); }

Expr invert(Expr a) { return Expr::Make(OpCode::kBitwiseNot, std::move(a)); }
const NDArray& invert(Expr a, const NDArray& out) { return Expr::Make(OpCode::kBitwiseNot, std::move(a)).eval(out); }

Expr where(Expr cond, Expr x, Expr y) { return Expr::Make(OpCode::kWhere, std::move(cond), std::move(x), std::move(y)); }
const NDArray& where(Expr cond, Expr x, Expr y, const NDArray& out) {
  return Expr::Make(OpCode::kWhere, std::move(cond), std::move(x), std::move(y)).eval(out);
}

Expr clamp(Expr a, Expr lo, Expr hi) { return Expr::Make(OpCode::kClamp, std::move(a), std::move(lo), std::move(hi)); }
const NDArray& clamp(Expr a, Expr lo, Expr hi, const NDArray& out) {
  return Expr::Make(OpCode::kClamp, std::move(a), std::move(lo), std::move(hi)).eval(out);
}

Expr clip(Expr a, Expr lo, Expr hi) { return Expr::Make(OpCode::kClamp, std::move(a), std::move(lo), std::move(hi)); }
const NDArray& clip(Expr a, Expr lo, Expr hi, const NDArray& out) {
  return Expr::Make(OpCode::kClamp, std::move(a), std::move(lo), std::move(hi)).eval(out);
}

Expr operator+(Expr a, Expr b) { return Expr::Make(OpCode::kAdd, std::move(a), std::move(b)); }

Expr operator-(Expr a, Expr b) { return Expr::Make(OpCode::kSubtract, std::move(a), std::move(b)); }

Expr operator*(Expr a, Expr b) { return Expr::Make(OpCode::kMultiply, std::move(a), std::move(b)); }

Expr operator/(Expr a, Expr b) { return Expr::Make(OpCode::kTrueDivide, std::move(a), std::move(b)); }

Expr operator%(Expr a, Expr b) { return Expr::Make(OpCode::kRemainder, std::move(a), std::move(b)); }

Expr operator==(Expr a, Expr b) { return Expr::Make(OpCode::kEqual, std::move(a), std::move(b)); }

Expr operator!=(Expr a, Expr b) { return Expr::Make(OpCode::kNotEqual, std::move(a), std::move(b)); }

Expr operator<(Expr a, Expr b) { return Expr::Make(OpCode::kLess, std::move(a), std::move(b)); }

Expr operator<=(Expr a, Expr b) { return Expr::Make(OpCode::kLessEqual, std::move(a), std::move(b)); }

Expr operator>(Expr a, Expr b) { return Expr::Make(OpCode::kGreater, std::move(a), std::move(b)); }

Expr operator>=(Expr a, Expr b) { return Expr::Make(OpCode::kGreaterEqual, std::move(a), std::move(b)); }

Expr operator&(Expr a, Expr b) { return Expr::Make(OpCode::kBitwiseAnd, std::move(a), std::move(b)); }

Expr operator|(Expr a, Expr b) { return Expr::Make(OpCode::kBitwiseOr, std::move(a), std::move(b)); }

Expr operator^(Expr a, Expr b) { return Expr::Make(OpCode::kBitwiseXor, std::move(a), std::move(b)); }

Expr operator-(Expr a) { return Expr::Make(OpCode::kNegative, std::move(a)); }
Expr operator~(Expr a) { return Expr::Make(OpCode::kBitwiseNot, std::move(a)); }
Expr operator!(Expr a) { return Expr::Make(OpCode::kLogicalNot, std::move(a)); }

const NDArray& operator+=(const NDArray& a, Expr b) { return Expr::Make(OpCode::kAdd, Expr(a), std::move(b)).eval(a); }

const NDArray& operator-=(const NDArray& a, Expr b) { return Expr::Make(OpCode::kSubtract, Expr(a), std::move(b)).eval(a); }

const NDArray& operator*=(const NDArray& a, Expr b) { return Expr::Make(OpCode::kMultiply, Expr(a), std::move(b)).eval(a); }

const NDArray& operator/=(const NDArray& a, Expr b) { return Expr::Make(OpCode::kTrueDivide, Expr(a), std::move(b)).eval(a); }

const NDArray& operator%=(const NDArray& a, Expr b) { return Expr::Make(OpCode::kRemainder, Expr(a), std::move(b)).eval(a); }

const NDArray& operator&=(const NDArray& a, Expr b) { return Expr::Make(OpCode::kBitwiseAnd, Expr(a), std::move(b)).eval(a); }

const NDArray& operator|=(const NDArray& a, Expr b) { return Expr::Make(OpCode::kBitwiseOr, Expr(a), std::move(b)).eval(a); }

const NDArray& operator^=(const NDArray& a, Expr b) { return Expr::Make(OpCode::kBitwiseXor, Expr(a), std::move(b)).eval(a); }


}  // namespace shade
