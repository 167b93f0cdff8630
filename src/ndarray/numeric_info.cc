// Constants and dtype limits (ndarray/numeric_info.h).
#include "shade/ndarray/numeric_info.h"

#include <cmath>

#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/ndarray/promotion.h"

namespace shade {
namespace {

// Every field follows from the IEEE-style layout: mantissa and exponent bits.
FloatInfo FromLayout(int bits, int nmant, int nexp) {
  FloatInfo f;
  f.bits = bits;
  f.nmant = nmant;
  f.nexp = nexp;
  f.machep = -nmant;
  f.negep = -nmant - 1;
  f.maxexp = 1 << (nexp - 1);
  f.minexp = 2 - f.maxexp;
  f.precision = static_cast<int>(std::floor(nmant * std::log10(2.0)));
  f.eps = std::ldexp(1.0, f.machep);
  f.epsneg = std::ldexp(1.0, f.negep);
  f.max = (2.0 - f.eps) * std::ldexp(1.0, f.maxexp - 1);
  f.min = -f.max;
  f.tiny = std::ldexp(1.0, f.minexp);
  f.smallest_subnormal = std::ldexp(1.0, f.minexp - nmant);
  f.resolution = std::pow(10.0, -f.precision);
  return f;
}

}  // namespace

FloatInfo FInfo(int flag) {
  switch (flag) {
    case kFloat16:
      return FromLayout(16, 10, 5);
    case kBfloat16:
      return FromLayout(16, 7, 8);
    case kFloat32:
      return FromLayout(32, 23, 8);
    case kFloat64:
      return FromLayout(64, 52, 11);
    default:
      SHADE_THROW_TYPE << "finfo: data type " << TypeFlagName(flag) << " not inexact";
  }
}

IntInfo IInfo(int flag) {
  const DTypeKind kind = KindOf(flag);
  SHADE_CHECK_TYPE(kind == DTypeKind::kSigned || kind == DTypeKind::kUnsigned)
      << "iinfo: invalid integer data type " << TypeFlagName(flag);
  IntInfo r;
  r.bits = 0;
  DispatchDType(flag, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral<T>::value) {
      r.bits = static_cast<int>(sizeof(T) * 8);
      r.min = static_cast<std::int64_t>(std::numeric_limits<T>::min());
      r.max = static_cast<std::uint64_t>(std::numeric_limits<T>::max());
      r.is_signed = std::is_signed<T>::value;
    }
  });
  return r;
}

}  // namespace shade
