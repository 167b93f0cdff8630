// The elementwise functions and operators: each builds an Expr node (see ops.h).
#include "shade/ndarray/ops.h"

namespace shade {

// The functions of ops.h, one per registry entry and alias (functor/op_registry.h).
#define SHADE_DEFINE_ELEMENTWISE_OP_1_(CODE, NAME)           \
  Expr NAME(Expr a) {                                        \
    return Expr::Make(OpCode::CODE, std::move(a));           \
  }                                                          \
  const NDArray& NAME(Expr a, const NDArray& out) {          \
    return Expr::Make(OpCode::CODE, std::move(a)).eval(out); \
  }
#define SHADE_DEFINE_ELEMENTWISE_OP_2_(CODE, NAME)                         \
  Expr NAME(Expr a, Expr b) {                                              \
    return Expr::Make(OpCode::CODE, std::move(a), std::move(b));           \
  }                                                                        \
  const NDArray& NAME(Expr a, Expr b, const NDArray& out) {                \
    return Expr::Make(OpCode::CODE, std::move(a), std::move(b)).eval(out); \
  }
#define SHADE_DEFINE_ELEMENTWISE_OP_3_(CODE, NAME)                                       \
  Expr NAME(Expr a, Expr b, Expr c) {                                                    \
    return Expr::Make(OpCode::CODE, std::move(a), std::move(b), std::move(c));           \
  }                                                                                      \
  const NDArray& NAME(Expr a, Expr b, Expr c, const NDArray& out) {                      \
    return Expr::Make(OpCode::CODE, std::move(a), std::move(b), std::move(c)).eval(out); \
  }
#define SHADE_DEFINE_REGISTRY_OP_(CODE, NAME, ARITY, ...) \
  SHADE_DEFINE_ELEMENTWISE_OP_##ARITY##_(CODE, NAME)
#define SHADE_DEFINE_ALIAS_OP_(CODE, NAME, ARITY) SHADE_DEFINE_ELEMENTWISE_OP_##ARITY##_(CODE, NAME)
SHADE_ELEMENTWISE_OPS(SHADE_DEFINE_REGISTRY_OP_)
SHADE_ELEMENTWISE_OP_ALIASES(SHADE_DEFINE_ALIAS_OP_)
#undef SHADE_DEFINE_ALIAS_OP_
#undef SHADE_DEFINE_REGISTRY_OP_
#undef SHADE_DEFINE_ELEMENTWISE_OP_3_
#undef SHADE_DEFINE_ELEMENTWISE_OP_2_
#undef SHADE_DEFINE_ELEMENTWISE_OP_1_

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
