// NEP 50 type promotion and NumPy's casting rules over dtype flags.
#include "shade/ndarray/promotion.h"

#include <algorithm>
#include <type_traits>

#include "shade/base/dtype.h"
#include "shade/base/error.h"

namespace shade {
namespace {

// What promotion needs to know about a dtype, read off its C++ type (DispatchDType is the one
// flag -> type mapping).
struct Info {
  DTypeKind kind;
  int bits;
  bool bf16;
};

Info ComputeInfo(int flag) {
  return DispatchDTypeWithComplex(flag, [](auto tag) {
    using T = typename decltype(tag)::type;
    DTypeKind k;
    if constexpr (kIsComplex<T>) {
      k = DTypeKind::kComplex;
    } else if constexpr (std::is_same<T, bool>::value) {
      k = DTypeKind::kBool;
    } else if constexpr (kIsFloating<T>) {
      k = DTypeKind::kFloat;
    } else if constexpr (std::is_unsigned<T>::value) {
      k = DTypeKind::kUnsigned;
    } else {
      k = DTypeKind::kSigned;
    }
    return Info{k, static_cast<int>(sizeof(T) * 8), std::is_same<T, bf16_t>::value};
  });
}

// Read once per dtype: promotion runs on every elementwise op, including 4-element ones.
struct InfoTable {
  Info info[kNumTypeFlags];
  InfoTable() {
    for (int f = 0; f < kNumTypeFlags; ++f) info[f] = ComputeInfo(f);
  }
};

Info InfoOf(int flag) {
  static const InfoTable table;
  if (!IsValidTypeFlag(flag)) return ComputeInfo(flag);  // throws naming the flag
  return table.info[flag];
}

int SignedFlag(int bits) {
  return bits <= 8 ? kInt8 : bits <= 16 ? kInt16 : bits <= 32 ? kInt32 : kInt64;
}
int UnsignedFlag(int bits) {
  return bits <= 8 ? kUint8 : bits <= 16 ? kUint16 : bits <= 32 ? kUint32 : kUint64;
}
int FloatFlag(int bits) {
  return bits <= 16 ? kFloat16 : bits <= 32 ? kFloat32 : kFloat64;
}

// Bits of float needed to hold every value of an integer type exactly (NumPy's safe casts).
int FloatBitsFor(const Info& i) {
  return i.bits <= 8 ? 16 : i.bits <= 16 ? 32 : 64;
}

// Bits of each part of the smallest complex type that holds every value of a dtype (there is
// no complex with 16-bit parts, so 32 at least).
int PartBitsFor(const Info& i) {
  if (i.kind == DTypeKind::kComplex) return i.bits / 2;
  if (i.kind == DTypeKind::kFloat) return std::max(32, i.bits);
  if (i.kind == DTypeKind::kBool) return 32;
  return std::max(32, FloatBitsFor(i));
}

}  // namespace

DTypeKind KindOf(int flag) {
  return InfoOf(flag).kind;
}

int ComplexTypeFor(int flag) {
  return PartBitsFor(InfoOf(flag)) <= 32 ? kComplex64 : kComplex128;
}

int RealTypeOf(int flag) {
  return flag == kComplex64 ? kFloat32 : flag == kComplex128 ? kFloat64 : flag;
}

int PromoteTypes(int a, int b) {
  const Info x = InfoOf(a), y = InfoOf(b);
  if (a == b) return a;
  if (x.kind == DTypeKind::kBool) return b;
  if (y.kind == DTypeKind::kBool) return a;
  // Complex with anything: the complex type whose parts hold both (NumPy: int16 with complex64
  // is complex64, int32 or float64 with complex64 is complex128).
  if (x.kind == DTypeKind::kComplex || y.kind == DTypeKind::kComplex) {
    return std::max(PartBitsFor(x), PartBitsFor(y)) <= 32 ? kComplex64 : kComplex128;
  }
  if (x.kind == DTypeKind::kFloat && y.kind == DTypeKind::kFloat) {
    if (x.bits == 16 && y.bits == 16) return kFloat32;  // float16 with bfloat16
    return x.bits >= y.bits ? a : b;
  }
  if (x.kind == DTypeKind::kFloat || y.kind == DTypeKind::kFloat) {
    const Info& f = x.kind == DTypeKind::kFloat ? x : y;
    const Info& i = x.kind == DTypeKind::kFloat ? y : x;
    const int need = FloatBitsFor(i);
    if (need <= f.bits) return x.kind == DTypeKind::kFloat ? a : b;
    return FloatFlag(need);
  }
  if (x.kind == y.kind) {
    const int bits = std::max(x.bits, y.bits);
    return x.kind == DTypeKind::kSigned ? SignedFlag(bits) : UnsignedFlag(bits);
  }
  // One signed, one unsigned: a signed type wider than the unsigned one, else twice its width;
  // uint64 with any signed type has no integer home and goes to float64, as in NumPy.
  const Info& u = x.kind == DTypeKind::kUnsigned ? x : y;
  const Info& s = x.kind == DTypeKind::kUnsigned ? y : x;
  if (s.bits > u.bits) return SignedFlag(s.bits);
  if (u.bits == 64) return kFloat64;
  return SignedFlag(std::max(s.bits, 2 * u.bits));
}

int ResultType(const PromotionOperand* operands, int n) {
  SHADE_CHECK_GE(n, 1) << "ResultType: no operands";
  int strong = -1;
  bool weak_int = false, weak_float = false, weak_complex = false;
  for (int k = 0; k < n; ++k) {
    const PromotionOperand& o = operands[k];
    if (o.weak == WeakKind::kNone) {
      SHADE_CHECK_TYPE(IsValidTypeFlag(o.flag))
          << "ResultType: operand " << k << " has dtype flag " << o.flag;
      strong = strong < 0 ? o.flag : PromoteTypes(strong, o.flag);
    } else if (o.weak == WeakKind::kInt) {
      weak_int = true;
    } else if (o.weak == WeakKind::kComplex) {
      weak_complex = true;
    } else {
      weak_float = true;
    }
  }
  if (strong < 0) return weak_complex ? kComplex128 : weak_float ? kFloat64 : kInt64;
  const DTypeKind k = KindOf(strong);
  // A Python complex keeps a complex dtype and the precision of a float one (float32 + 1j is
  // complex64); with bool or an integer it gives complex128 (NEP 50).
  if (weak_complex && k < DTypeKind::kComplex) {
    return k == DTypeKind::kFloat ? ComplexTypeFor(strong) : kComplex128;
  }
  if (weak_float && k < DTypeKind::kFloat) return kFloat64;
  if (weak_int && k == DTypeKind::kBool) return kInt64;
  return strong;
}

int ResultType(std::initializer_list<PromotionOperand> operands) {
  return ResultType(operands.begin(), static_cast<int>(operands.size()));
}

bool CanCast(int from, int to, Casting casting) {
  SHADE_CHECK_TYPE(IsValidTypeFlag(from)) << "CanCast: unknown dtype flag " << from;
  SHADE_CHECK_TYPE(IsValidTypeFlag(to)) << "CanCast: unknown dtype flag " << to;
  switch (casting) {
    case Casting::kNo:
    case Casting::kEquiv:
      return from == to;
    case Casting::kSafe:
      return PromoteTypes(from, to) == to;
    case Casting::kSameKind:
      return PromoteTypes(from, to) == to || KindOf(from) <= KindOf(to);
    case Casting::kUnsafe:
      return true;
  }
  return false;
}

int FloatTypeFor(int flag) {
  const Info i = InfoOf(flag);
  if (i.kind == DTypeKind::kFloat || i.kind == DTypeKind::kComplex) return flag;
  return FloatFlag(FloatBitsFor(i));
}

}  // namespace shade
