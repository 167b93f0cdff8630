/*!
 * \file op_registry.h
 * \brief The one registry of elementwise operations: one `SHADE_ELEMENTWISE_OPS` entry per op.
 *
 * Everything else about an op is generated from its entry: the `OpCode` enumerator, its name and
 * arity (`OpName`, `OpArity`), the dynamic front end's dtype rule and cost (`OpTraitsOf`), the
 * kernel table and the register program of the fused evaluator (src/ndarray/ops_kernels.h,
 * lazy_vm.cc), the NDArray free functions with their out= forms (ndarray/ops.h, ops.cc) and the
 * `kCost` of the static functors (the static plan's grain, the kernel layer's grain and the
 * dynamic evaluator's `heavy` flag all read that one cost). The op's math is its functor
 * (scalar `Map`, optional packet `MapPacket`), in functor/op.h or functor/numpy.h; the
 * static front end uses it as `F<op::FUNCTOR>(...)`.
 *
 * Adding an op = one entry below + its functor + tests + a row in docs/design/dynamic-ops.md.
 *
 * This header only defines macros, enums and constexpr tables; it includes nothing of shade.
 */
#ifndef SHADE_FUNCTOR_OP_REGISTRY_H_
#define SHADE_FUNCTOR_OP_REGISTRY_H_

#include <cstdint>

/// The registry: calls X(CODE, NAME, ARITY, CATEGORY, DOMAIN, COST, FUNCTOR) once per op.
/// \verbatim
/// X(CODE, NAME, ARITY, CATEGORY, DOMAIN, COST, FUNCTOR)
///   CODE      the OpCode enumerator
///   NAME      NumPy's name: OpName and the NDArray free function shade::NAME
///   ARITY     1, 2 or 3 operands
///   CATEGORY  the dtype rule (OpCategory: how operand and result dtypes are resolved)
///   DOMAIN    the compute dtypes that have a kernel (OpDomain); others throw naming op and dtype
///   COST      packet work per element relative to an add (OpCostOf; heavy at >= kHeavyOpCost)
///   FUNCTOR   the functor inside namespace shade::op with the scalar and packet math
/// \endverbatim
/// Order is the enumerators' order; new ops go at the end (the enumerator values stay stable).
// clang-format off
#define SHADE_ELEMENTWISE_OPS(X)                                                       \
  X(kAdd,          add,           2, kArith,       kAny,     1, numpy::plus)          \
  X(kSubtract,     subtract,      2, kSubtract,    kNoBool,  1, numpy::minus)         \
  X(kMultiply,     multiply,      2, kArith,       kAny,     1, numpy::mul)           \
  X(kTrueDivide,   true_divide,   2, kTrueDivide,  kFloat,   1, numpy::true_divide)   \
  X(kFloorDivide,  floor_divide,  2, kIntDefault,  kNoBool, 20, numpy::floor_divide)  \
  X(kRemainder,    remainder,     2, kIntDefault,  kNoBool, 20, numpy::remainder)     \
  X(kPower,        power,         2, kIntDefault,  kNoBool, 20, numpy::power)         \
  X(kMaximum,      maximum,       2, kArith,       kAny,     1, numpy::maximum)       \
  X(kMinimum,      minimum,       2, kArith,       kAny,     1, numpy::minimum)       \
  X(kEqual,        equal,         2, kCompare,     kAny,     1, numpy::equal)         \
  X(kNotEqual,     not_equal,     2, kCompare,     kAny,     1, numpy::not_equal)     \
  X(kLess,         less,          2, kCompare,     kAny,     1, numpy::less)          \
  X(kLessEqual,    less_equal,    2, kCompare,     kAny,     1, numpy::less_equal)    \
  X(kGreater,      greater,       2, kCompare,     kAny,     1, numpy::greater)       \
  X(kGreaterEqual, greater_equal, 2, kCompare,     kAny,     1, numpy::greater_equal) \
  X(kLogicalAnd,   logical_and,   2, kLogical,     kBool,    1, numpy::logical_and)   \
  X(kLogicalOr,    logical_or,    2, kLogical,     kBool,    1, numpy::logical_or)    \
  X(kLogicalXor,   logical_xor,   2, kLogical,     kBool,    1, numpy::logical_xor)   \
  X(kBitwiseAnd,   bitwise_and,   2, kBitwise,     kInteger, 1, numpy::bitwise_and)   \
  X(kBitwiseOr,    bitwise_or,    2, kBitwise,     kInteger, 1, numpy::bitwise_or)    \
  X(kBitwiseXor,   bitwise_xor,   2, kBitwise,     kInteger, 1, numpy::bitwise_xor)   \
  X(kNegative,     negative,      1, kNoBoolUnary, kNoBool,  1, numpy::negative)      \
  X(kAbs,          absolute,      1, kSameUnary,   kAny,     1, numpy::abs)           \
  X(kExp,          exp,           1, kFloatUnary,  kFloat,  20, numpy::exp)           \
  X(kLog,          log,           1, kFloatUnary,  kFloat,  20, numpy::log)           \
  X(kLog1p,        log1p,         1, kFloatUnary,  kFloat,  20, numpy::log1p)         \
  X(kExpm1,        expm1,         1, kFloatUnary,  kFloat,  20, numpy::expm1)         \
  X(kSqrt,         sqrt,          1, kFloatUnary,  kFloat,   4, numpy::sqrt)          \
  X(kRsqrt,        rsqrt,         1, kFloatUnary,  kFloat,   6, numpy::rsqrt)         \
  X(kSin,          sin,           1, kFloatUnary,  kFloat,  20, numpy::sin)           \
  X(kCos,          cos,           1, kFloatUnary,  kFloat,  20, numpy::cos)           \
  X(kTanh,         tanh,          1, kFloatUnary,  kFloat,  20, numpy::tanh)          \
  X(kSigmoid,      sigmoid,       1, kFloatUnary,  kFloat,  20, numpy::sigmoid)       \
  X(kRelu,         relu,          1, kSameUnary,   kAny,     1, numpy::relu)          \
  X(kFloor,        floor,         1, kFloatUnary,  kFloat,   1, numpy::floor)         \
  X(kCeil,         ceil,          1, kFloatUnary,  kFloat,   1, numpy::ceil)          \
  X(kRound,        round,         1, kRound,       kAny,     1, numpy::round)         \
  X(kSign,         sign,          1, kNoBoolUnary, kNoBool,  1, numpy::sign)          \
  X(kLogicalNot,   logical_not,   1, kLogicalNot,  kBool,    1, numpy::logical_not)   \
  X(kBitwiseNot,   invert,        1, kBitwiseNot,  kInteger, 1, numpy::bitwise_not)   \
  X(kWhere,        where,         3, kWhere,       kAny,     1, numpy::where)         \
  X(kClamp,        clip,          3, kClamp,       kAny,     1, numpy::clamp)         \
  X(kLog2,         log2,          1, kFloatUnary,  kFloat,  20, log2)                 \
  X(kExp2,         exp2,          1, kFloatUnary,  kFloat,  20, exp2)                 \
  X(kLog10,        log10,         1, kFloatUnary,  kFloat,  20, log10)                \
  X(kCbrt,         cbrt,          1, kFloatUnary,  kFloat,  20, cbrt)                 \
  X(kArctan2,      arctan2,       2, kFloatBinary, kFloat,  20, arctan2)              \
  X(kHypot,        hypot,         2, kFloatBinary, kFloat,  20, hypot)                \
  X(kLogaddexp,    logaddexp,     2, kFloatBinary, kFloat,  20, logaddexp)            \
  X(kCopysign,     copysign,      2, kFloatBinary, kFloat,   1, copysign)             \
  X(kHeaviside,    heaviside,     2, kFloatBinary, kFloat,   2, heaviside)            \
  X(kDeg2rad,      deg2rad,       1, kFloatUnary,  kFloat,   2, deg2rad)              \
  X(kRad2deg,      rad2deg,       1, kFloatUnary,  kFloat,   2, rad2deg)              \
  X(kSinc,         sinc,          1, kTrueDivide,  kFloat,  20, sinc)

/// Other names of registered ops, each also an NDArray free function: X(CODE, NAME, ARITY).
#define SHADE_ELEMENTWISE_OP_ALIASES(X) \
  X(kTrueDivide, divide,      2)        \
  X(kAbs,        abs,         1)        \
  X(kBitwiseNot, bitwise_not, 1)        \
  X(kClamp,      clamp,       3)        \
  X(kDeg2rad,    radians,     1)        \
  X(kRad2deg,    degrees,     1)
// clang-format on

namespace shade {

/*! \brief Every elementwise operation (one per registry entry, in registry order). */
// clang-format off
enum class OpCode : std::uint8_t {
/// The enumerator of one registry entry (internal; undefined after use).
#define SHADE_OP_ENUMERATOR_(CODE, ...) CODE,
  SHADE_ELEMENTWISE_OPS(SHADE_OP_ENUMERATOR_)
#undef SHADE_OP_ENUMERATOR_
  kNumOps  ///< the number of ops (not an op)
};
// clang-format on

/*! \brief How an op resolves its dtypes (NEP 50 promotion of the operands, then the rule). */
enum class OpCategory : std::uint8_t {
  kArith,        ///< the promoted dtype
  kSubtract,     ///< the promoted dtype; bool refused (NumPy: use logical_xor)
  kTrueDivide,   ///< the promoted dtype if float, else float64
  kIntDefault,   ///< the promoted dtype; bool computes in int8
  kCompare,      ///< operands in the promoted dtype, bool result
  kLogical,      ///< operands as bool, bool result
  kBitwise,      ///< the promoted dtype; floats refused
  kFloatUnary,   ///< the smallest float dtype the operand casts to safely (bool, int8 -> float16)
  kFloatBinary,  ///< the smallest float dtype every operand casts to safely (NumPy's e/f/d loops)
  kNoBoolUnary,  ///< the operand's dtype; bool refused
  kSameUnary,    ///< the operand's dtype
  kRound,        ///< the operand's dtype; bool computes in float16
  kLogicalNot,   ///< operand as bool, bool result
  kBitwiseNot,   ///< the operand's dtype; floats refused
  kWhere,        ///< cond as bool, x and y in their promoted dtype
  kClamp,        ///< the promoted dtype of the three operands
};

/*! \brief The compute dtypes an op has kernels for. */
enum class OpDomain : std::uint8_t {
  kAny,      ///< every dtype
  kNoBool,   ///< every dtype but bool
  kFloat,    ///< float16, bfloat16, float32, float64
  kBool,     ///< bool only
  kInteger,  ///< integers and bool
};

/*! \brief One registry entry as data. */
struct OpTraits {
  OpCode code;          ///< its enumerator
  const char* name;     ///< NumPy's name
  int arity;            ///< number of operands
  OpCategory category;  ///< dtype rule
  OpDomain domain;      ///< compute dtypes with a kernel
  int cost;             ///< packet work per element relative to an add
};

/*! \brief Cost from which an op is heavy (transcendental: parallelised at a smaller size). */
constexpr int kHeavyOpCost = 8;

namespace detail {
/// The OpTraits row of one registry entry (internal; undefined after use).
#define SHADE_OP_TRAITS_ROW_(CODE, NAME, ARITY, CATEGORY, DOMAIN, COST, FUNCTOR) \
  {OpCode::CODE, #NAME, ARITY, OpCategory::CATEGORY, OpDomain::DOMAIN, COST},
// Generated from the same list as OpCode, so row i is the entry of enumerator i.
inline constexpr OpTraits kOpTraits[] = {SHADE_ELEMENTWISE_OPS(SHADE_OP_TRAITS_ROW_)};
#undef SHADE_OP_TRAITS_ROW_
constexpr bool RowsMatchCodes() {
  for (int i = 0; i < static_cast<int>(OpCode::kNumOps); ++i) {
    if (static_cast<int>(kOpTraits[i].code) != i) return false;
  }
  return sizeof(kOpTraits) / sizeof(kOpTraits[0]) == static_cast<unsigned>(OpCode::kNumOps);
}
static_assert(RowsMatchCodes(), "one OpTraits row per OpCode, in enumerator order");
// What OpTraitsOf answers for a code that is no op (kNumOps or beyond): arity 0, no name.
inline constexpr OpTraits kNoOpTraits = {OpCode::kNumOps,    "(invalid op)", 0,
                                         OpCategory::kArith, OpDomain::kAny, 1};
}  // namespace detail

/*! \brief The registry entry of op; for a code that is no op, an entry of arity 0 named
 *  "(invalid op)" (OpName and OpArity throw instead). */
constexpr const OpTraits& OpTraitsOf(OpCode op) {
  return static_cast<int>(op) < static_cast<int>(OpCode::kNumOps)
             ? detail::kOpTraits[static_cast<int>(op)]
             : detail::kNoOpTraits;
}
/*! \brief The registry cost of op (the `kCost` of its functors). */
constexpr int OpCostOf(OpCode op) {
  return OpTraitsOf(op).cost;
}
/*! \brief True for ops costly enough that the dynamic evaluator parallelises smaller arrays. */
constexpr bool OpIsHeavy(OpCode op) {
  return OpCostOf(op) >= kHeavyOpCost;
}

}  // namespace shade

#endif  // SHADE_FUNCTOR_OP_REGISTRY_H_
