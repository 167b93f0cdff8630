// The complex dtypes' tile kernels, conversions and product reduction: scalar loops over the
// functor/complex.h math (no SIMD), compiled once (not per SIMD target). simd_dispatch.cc's
// GetKernel / GetCastKernel hand out these for complex flags, so the fused evaluator runs
// complex expressions like any other (docs/design/complex.md).
#include <cmath>
#include <complex>
#include <cstring>

#include "ops_kernel_table.h"
#include "shade/backend/cpu/kernels.h"
#include "shade/base/dtype.h"
#include "shade/functor/complex.h"
#include "shade/functor/op_registry.h"

namespace shade {
namespace dyn {
namespace {

// ------------------------------------------------------------------------------------------
// Element functions, one struct per op: Map(a[, b]) -> the result element.

struct CAdd {
  template <class C>
  static C Map(C a, C b) {
    return C(a.real() + b.real(), a.imag() + b.imag());
  }
};
struct CSub {
  template <class C>
  static C Map(C a, C b) {
    return C(a.real() - b.real(), a.imag() - b.imag());
  }
};
struct CMul {
  template <class C>
  static C Map(C a, C b) {
    return cmath::Mul(a, b);
  }
};
struct CDiv {
  template <class C>
  static C Map(C a, C b) {
    return cmath::Div(a, b);
  }
};
struct CPow {
  template <class C>
  static C Map(C a, C b) {
    return cmath::Pow(a, b);
  }
};
struct CMax {
  template <class C>
  static C Map(C a, C b) {
    return cmath::Maximum(a, b);
  }
};
struct CMin {
  template <class C>
  static C Map(C a, C b) {
    return cmath::Minimum(a, b);
  }
};
struct CEq {
  template <class C>
  static bool Map(C a, C b) {
    return a.real() == b.real() && a.imag() == b.imag();
  }
};
struct CNe {
  template <class C>
  static bool Map(C a, C b) {
    return a.real() != b.real() || a.imag() != b.imag();
  }
};
struct CLt {
  template <class C>
  static bool Map(C a, C b) {
    return cmath::Less(a, b);
  }
};
struct CLe {
  template <class C>
  static bool Map(C a, C b) {
    return cmath::LessEqual(a, b);
  }
};
struct CGt {
  template <class C>
  static bool Map(C a, C b) {
    return cmath::Less(b, a);
  }
};
struct CGe {
  template <class C>
  static bool Map(C a, C b) {
    return cmath::LessEqual(b, a);
  }
};
struct CNeg {
  template <class C>
  static C Map(C a) {
    return C(-a.real(), -a.imag());
  }
};
struct CAbs {
  template <class C>
  static typename C::value_type Map(C a) {
    return cmath::Abs(a);
  }
};
// The C library's cexp / clog / csqrt / csin / ccos / ctanh (std:: forwards to them), as
// NumPy's loops call them.
struct CExp {
  template <class C>
  static C Map(C a) {
    return std::exp(a);
  }
};
struct CLog {
  template <class C>
  static C Map(C a) {
    return std::log(a);
  }
};
struct CSqrt {
  template <class C>
  static C Map(C a) {
    return std::sqrt(a);
  }
};
struct CSin {
  template <class C>
  static C Map(C a) {
    return std::sin(a);
  }
};
struct CCos {
  template <class C>
  static C Map(C a) {
    return std::cos(a);
  }
};
struct CTanh {
  template <class C>
  static C Map(C a) {
    return std::tanh(a);
  }
};

// ------------------------------------------------------------------------------------------
// Tile kernels (the OpKernel protocol of ops_kernel_table.h).

template <class OP, class C>
void Unary(index_t n, void* out, const View* in) {
  using Out = decltype(OP::Map(C()));
  Out* o = static_cast<Out*>(out);
  const C* a = static_cast<const C*>(in[0].p);
  for (index_t i = 0; i < n; ++i) o[i] = OP::Map(a[i]);
}

template <class OP, class C>
void Binary(index_t n, void* out, const View* in) {
  using Out = decltype(OP::Map(C(), C()));
  Out* o = static_cast<Out*>(out);
  const C* a = static_cast<const C*>(in[0].p);
  const C* b = static_cast<const C*>(in[1].p);
  const index_t sa = in[0].scalar ? 0 : 1, sb = in[1].scalar ? 0 : 1;
  for (index_t i = 0; i < n; ++i) o[i] = OP::Map(a[i * sa], b[i * sb]);
}

template <class C>
void Where(index_t n, void* out, const View* in) {
  C* o = static_cast<C*>(out);
  const bool* c = static_cast<const bool*>(in[0].p);
  const C* x = static_cast<const C*>(in[1].p);
  const C* y = static_cast<const C*>(in[2].p);
  for (index_t i = 0; i < n; ++i) o[i] = c[i] ? x[i] : y[i];
}

template <class C>
OpKernel KernelOf(OpCode op) {
  switch (op) {
    case OpCode::kAdd:
      return &Binary<CAdd, C>;
    case OpCode::kSubtract:
      return &Binary<CSub, C>;
    case OpCode::kMultiply:
      return &Binary<CMul, C>;
    case OpCode::kTrueDivide:
      return &Binary<CDiv, C>;
    case OpCode::kPower:
      return &Binary<CPow, C>;
    case OpCode::kMaximum:
      return &Binary<CMax, C>;
    case OpCode::kMinimum:
      return &Binary<CMin, C>;
    case OpCode::kEqual:
      return &Binary<CEq, C>;
    case OpCode::kNotEqual:
      return &Binary<CNe, C>;
    case OpCode::kLess:
      return &Binary<CLt, C>;
    case OpCode::kLessEqual:
      return &Binary<CLe, C>;
    case OpCode::kGreater:
      return &Binary<CGt, C>;
    case OpCode::kGreaterEqual:
      return &Binary<CGe, C>;
    case OpCode::kNegative:
      return &Unary<CNeg, C>;
    case OpCode::kAbs:
      return &Unary<CAbs, C>;
    case OpCode::kExp:
      return &Unary<CExp, C>;
    case OpCode::kLog:
      return &Unary<CLog, C>;
    case OpCode::kSqrt:
      return &Unary<CSqrt, C>;
    case OpCode::kSin:
      return &Unary<CSin, C>;
    case OpCode::kCos:
      return &Unary<CCos, C>;
    case OpCode::kTanh:
      return &Unary<CTanh, C>;
    case OpCode::kWhere:
      return &Where<C>;
    default:
      return nullptr;  // the caller's error names the op and the dtype
  }
}

// ------------------------------------------------------------------------------------------
// Conversions. Complex -> real takes the real part (NumPy's cast; Python warns), complex ->
// bool is "either part nonzero", real -> complex has a zero imaginary part.

template <class D, class S>
D ConvertOne(S v) {
  if constexpr (kIsComplex<D> && kIsComplex<S>) {
    using R = typename D::value_type;
    return D(static_cast<R>(v.real()), static_cast<R>(v.imag()));
  } else if constexpr (kIsComplex<D>) {
    using R = typename D::value_type;
    return D(kernel::ConvertScalar<R>(v), R(0));
  } else if constexpr (std::is_same<D, bool>::value) {
    return v.real() != 0 || v.imag() != 0;
  } else {
    return kernel::ConvertScalar<D>(v.real());
  }
}

template <class D, class S>
void CastRun(index_t n, void* out, const void* in) {
  D* o = static_cast<D*>(out);
  const S* s = static_cast<const S*>(in);
  for (index_t i = 0; i < n; ++i) o[i] = ConvertOne<D, S>(s[i]);
}

template <class C>
CastKernel CastFromComplex(int to) {
  return DispatchDTypeWithComplex(to, [](auto tag) -> CastKernel {
    using D = typename decltype(tag)::type;
    if constexpr (std::is_same<D, C>::value) {
      return nullptr;
    } else {
      return &CastRun<D, C>;
    }
  });
}

template <class C>
CastKernel CastToComplex(int from) {
  return DispatchDType(from, [](auto tag) -> CastKernel {
    using S = typename decltype(tag)::type;
    return &CastRun<C, S>;
  });
}

template <class C>
void ProdAxis(index_t outer, index_t len, index_t inner, const C* src, C* dst) {
  for (index_t o = 0; o < outer; ++o) {
    for (index_t i = 0; i < inner; ++i) {
      // Left to right from the first element (len >= 1 here), as NumPy's multiply.reduce.
      const C* p = src + o * len * inner + i;
      C acc = p[0];
      for (index_t l = 1; l < len; ++l) acc = cmath::Mul(acc, p[l * inner]);
      dst[o * inner + i] = acc;
    }
  }
}

}  // namespace

OpKernel ComplexKernel(OpCode op, int flag) {
  if (flag == kComplex64) return KernelOf<complex64_t>(op);
  if (flag == kComplex128) return KernelOf<complex128_t>(op);
  return nullptr;
}

CastKernel ComplexCastKernel(int to, int from) {
  if (from == kComplex64) return CastFromComplex<complex64_t>(to);
  if (from == kComplex128) return CastFromComplex<complex128_t>(to);
  if (to == kComplex64) return CastToComplex<complex64_t>(from);
  return CastToComplex<complex128_t>(from);
}

void ComplexProdAxis(int flag, index_t outer, index_t len, index_t inner, const void* src,
                     void* dst) {
  if (flag == kComplex64) {
    ProdAxis(outer, len, inner, static_cast<const complex64_t*>(src),
             static_cast<complex64_t*>(dst));
  } else {
    ProdAxis(outer, len, inner, static_cast<const complex128_t*>(src),
             static_cast<complex128_t*>(dst));
  }
}

}  // namespace dyn
}  // namespace shade
