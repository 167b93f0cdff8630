// Cumulative operations (ndarray/cumulative.h): the input is cast to the result dtype in an
// axis-last copy, each lane is accumulated in place (lanes over ParallelFor), then viewed back.
#include "shade/ndarray/cumulative.h"

#include <algorithm>
#include <string>
#include <vector>

#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"
#include "sortstats_internal.h"

namespace shade {
namespace {

template <bool kProd>
NDArray Accumulate(const NDArray& a, std::optional<index_t> axis, int dtype, const char* op) {
  sortstats::CheckInput(a, op);
  const int flag = dtype >= 0 ? dtype : SumResultType(a.type_flag());
  NDArray x = axis ? a : a.reshape({-1});
  if (x.ndim() == 0) x = x.reshape({1});  // NumPy 1.24 treats a rank-0 input as 1-d
  const int ax = axis ? sortstats::NormalizeAxis(a.ndim() == 0 ? 0 : *axis, x, op) : 0;
  NDArray buf = sortstats::AxisLastCopy(astype(x, flag), ax);
  const index_t n = x.size(ax);
  if (buf.numel() == 0) return sortstats::AxisBack(buf, ax);
  const index_t lanes = buf.numel() / n;
  DispatchDType(flag, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = buf.data<T>();
    ParallelFor(0, lanes, sortstats::LaneGrain(n), [&](index_t b, index_t e) {
      for (index_t l = b; l < e; ++l) {
        T* p = data + l * n;
        if constexpr (std::is_same<T, bool>::value) {
          // bool accumulates as logical or / and (NumPy's add / multiply on bool).
          for (index_t i = 1; i < n; ++i) p[i] = kProd ? (p[i - 1] && p[i]) : (p[i - 1] || p[i]);
        } else if constexpr (kIsFloat16<T>) {
          float acc = static_cast<float>(p[0]);
          for (index_t i = 1; i < n; ++i) {
            const float v = static_cast<float>(p[i]);
            p[i] = T(kProd ? acc * v : acc + v);  // rounds each step, as NumPy's half loop
            acc = static_cast<float>(p[i]);
          }
        } else if constexpr (std::is_integral<T>::value) {
          // Wrapping arithmetic through the unsigned type (no signed overflow).
          using U = std::make_unsigned_t<T>;
          for (index_t i = 1; i < n; ++i) {
            const U r = kProd ? static_cast<U>(static_cast<U>(p[i - 1]) * static_cast<U>(p[i]))
                              : static_cast<U>(static_cast<U>(p[i - 1]) + static_cast<U>(p[i]));
            p[i] = static_cast<T>(r);
          }
        } else {
          for (index_t i = 1; i < n; ++i) p[i] = kProd ? p[i - 1] * p[i] : p[i - 1] + p[i];
        }
      }
    });
  });
  return sortstats::AxisBack(buf, ax);
}

// `v` as a slab of `a` along `ax`: rank-0 broadcast to a's shape with size 1 there.
NDArray AsSlab(const NDArray& v, const NDArray& a, int ax) {
  if (v.ndim() > 0) return v;
  std::vector<index_t> shape = a.sizes().vec();
  shape[ax] = 1;
  std::vector<index_t> ones(a.ndim(), 1);
  return v.reshape(ones).expand(shape);
}

}  // namespace

NDArray cumsum(const NDArray& a, std::optional<index_t> axis, int dtype) {
  return Accumulate<false>(a, axis, dtype, "cumsum");
}

NDArray cumprod(const NDArray& a, std::optional<index_t> axis, int dtype) {
  return Accumulate<true>(a, axis, dtype, "cumprod");
}

NDArray diff(const NDArray& a, index_t n, index_t axis, const NDArray& prepend,
             const NDArray& append) {
  sortstats::CheckInput(a, "diff");
  SHADE_CHECK(n >= 0) << "order must be non-negative but got " << n;
  SHADE_CHECK(a.ndim() >= 1) << "diff requires input that is at least one dimensional";
  const int ax = sortstats::NormalizeAxis(axis, a, "diff");
  if (n == 0) return a;
  NDArray x = a;
  if (prepend.defined() || append.defined()) {
    std::vector<NDArray> parts;
    if (prepend.defined()) parts.push_back(AsSlab(prepend, a, ax));
    parts.push_back(a);
    if (append.defined()) parts.push_back(AsSlab(append, a, ax));
    x = cat(parts, ax);
  }
  for (index_t k = 0; k < n; ++k) {
    const index_t len = x.size(ax);
    if (len == 0) break;
    const NDArray hi = x.slice(ax, 1, len), lo = x.slice(ax, 0, len - 1);
    x = x.type_flag() == kBool ? not_equal(hi, lo).eval() : subtract(hi, lo).eval();
  }
  return x;
}

NDArray ediff1d(const NDArray& ary, const NDArray& to_end, const NDArray& to_begin) {
  sortstats::CheckInput(ary, "ediff1d");
  const NDArray flat = ary.reshape({-1});
  SHADE_CHECK_TYPE(ary.type_flag() != kBool)
      << "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
         "`^` operator, or the logical_xor function instead.";
  const index_t len = flat.size(0);
  std::vector<NDArray> parts;
  const int flag = ary.type_flag();
  if (to_begin.defined()) {
    SHADE_CHECK_TYPE(CanCast(to_begin.type_flag(), flag, Casting::kSameKind))
        << "dtype of `to_begin` must be compatible with input `ary` under the `same_kind` rule.";
    parts.push_back(astype(to_begin.reshape({-1}), flag));
  }
  parts.push_back(len > 0 ? subtract(flat.slice(0, 1, len), flat.slice(0, 0, len - 1)).eval()
                          : NDArray::Empty({0}, ary.dtype()));
  if (to_end.defined()) {
    SHADE_CHECK_TYPE(CanCast(to_end.type_flag(), flag, Casting::kSameKind))
        << "dtype of `to_end` must be compatible with input `ary` under the `same_kind` rule.";
    parts.push_back(astype(to_end.reshape({-1}), flag));
  }
  return parts.size() == 1 ? parts[0] : cat(parts, 0);
}

NDArray trapz(const NDArray& y, const NDArray& x, double dx, index_t axis) {
  sortstats::CheckInput(y, "trapz");
  const int ax = sortstats::NormalizeAxis(axis, y, "trapz");
  const index_t n = y.size(ax);
  const NDArray hi = y.slice(ax, n > 0 ? 1 : 0, n), lo = y.slice(ax, 0, n > 0 ? n - 1 : 0);
  Expr d(dx);
  if (x.defined()) {
    sortstats::CheckInput(x, "trapz");
    NDArray dxa;
    if (x.ndim() == 1) {
      dxa = diff(x);
      std::vector<index_t> shape(y.ndim(), 1);
      shape[ax] = dxa.numel();
      dxa = dxa.reshape(shape);
    } else {
      dxa = diff(x, 1, ax);
    }
    d = Expr(dxa);
  }
  // NumPy's order of operations: d * (y[1:] + y[:-1]) / 2.0, then a sum.
  return sum(true_divide(multiply(d, add(hi, lo)), 2.0).eval(), ax);
}

NDArray convolve(const NDArray& a0, const NDArray& v0, const std::string& mode) {
  sortstats::CheckInput(a0, "convolve");
  sortstats::CheckInput(v0, "convolve");
  SHADE_CHECK(mode == "full" || mode == "same" || mode == "valid")
      << "mode must be one of 'valid', 'same', or 'full' (got '" << mode << "')";
  NDArray a = a0.reshape({-1}), v = v0.reshape({-1});
  if (v.numel() > a.numel()) std::swap(a, v);
  SHADE_CHECK(a.numel() > 0) << "a cannot be empty";
  SHADE_CHECK(v.numel() > 0) << "v cannot be empty";
  const int flag = PromoteTypes(a.type_flag(), v.type_flag());
  const NDArray ac = astype(a, flag).contiguous(), vc = astype(v, flag).contiguous();
  const index_t n = ac.numel(), m = vc.numel();
  index_t begin = 0, len = n + m - 1;
  if (mode == "same") {
    begin = (m - 1) / 2;
    len = n;
  } else if (mode == "valid") {
    begin = m - 1;
    len = n - m + 1;
  }
  NDArray out = NDArray::Empty({len}, flag);
  DispatchDType(flag, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pa = ac.data<T>();
    const T* pv = vc.data<T>();
    T* o = out.data<T>();
    ParallelFor(0, len, std::max<index_t>(1, kMapGrain / m), [&](index_t b, index_t e) {
      for (index_t j = b; j < e; ++j) {
        const index_t k = j + begin;  // out[k] = sum_i a[i] v[k - i]
        const index_t i0 = std::max<index_t>(0, k - m + 1), i1 = std::min<index_t>(n - 1, k);
        if constexpr (std::is_same<T, bool>::value) {
          bool acc = false;
          for (index_t i = i0; i <= i1; ++i) acc = acc || (pa[i] && pv[k - i]);
          o[j] = acc;
        } else if constexpr (kIsFloat16<T>) {
          float acc = 0;
          for (index_t i = i0; i <= i1; ++i)
            acc += static_cast<float>(pa[i]) * static_cast<float>(pv[k - i]);
          o[j] = T(acc);
        } else if constexpr (std::is_integral<T>::value) {
          using U = std::make_unsigned_t<T>;  // wraps as NumPy's integer loops do
          U acc = 0;
          for (index_t i = i0; i <= i1; ++i)
            acc = static_cast<U>(acc +
                                 static_cast<U>(static_cast<U>(pa[i]) * static_cast<U>(pv[k - i])));
          o[j] = static_cast<T>(acc);
        } else {
          T acc = 0;
          for (index_t i = i0; i <= i1; ++i) acc += pa[i] * pv[k - i];
          o[j] = acc;
        }
      }
    });
  });
  return out;
}

NDArray correlate(const NDArray& a, const NDArray& v, const std::string& mode) {
  sortstats::CheckInput(v, "correlate");
  // For real inputs, correlation is the convolution with v reversed (NumPy's result).
  return convolve(a, flip(v.reshape({-1})), mode);
}

NDArray interp(const NDArray& x, const NDArray& xp, const NDArray& fp, std::optional<double> left,
               std::optional<double> right) {
  sortstats::CheckInput(x, "interp");
  sortstats::CheckInput(xp, "interp");
  sortstats::CheckInput(fp, "interp");
  SHADE_CHECK(xp.ndim() == 1 && fp.ndim() == 1) << "object too deep for desired array";
  SHADE_CHECK(fp.numel() == xp.numel()) << "fp and xp are not of the same length.";
  SHADE_CHECK(xp.numel() > 0) << "array of sample points is empty";
  SHADE_CHECK_TYPE(!IsComplexTypeFlag(x.type_flag()) && !IsComplexTypeFlag(xp.type_flag()) &&
                   !IsComplexTypeFlag(fp.type_flag()))
      << "interp: complex arrays are not supported yet";  // the loop below is real
  const NDArray xs = astype(xp, kFloat64).contiguous(), fs = astype(fp, kFloat64).contiguous();
  const NDArray xv = astype(x, kFloat64).contiguous();
  const double* px = xs.data<double>();
  const double* pf = fs.data<double>();
  const index_t n = xs.numel();
  const double lval = left ? *left : pf[0], rval = right ? *right : pf[n - 1];
  NDArray out = NDArray::Empty(x.sizes(), kFloat64);
  const double* in = xv.data<double>();
  double* o = out.data<double>();
  // A binary search per element: the grain of a math-function map.
  ParallelFor(0, xv.numel(), kMathGrain, [&](index_t b, index_t e) {
    for (index_t i = b; i < e; ++i) {
      const double v = in[i];
      if (v != v) {
        o[i] = v;
      } else if (v > px[n - 1]) {
        o[i] = rval;
      } else if (v < px[0]) {
        o[i] = lval;
      } else if (v == px[n - 1]) {
        o[i] = pf[n - 1];
      } else {
        // The last j with xp[j] <= v; slope form as NumPy's, with its NaN fallbacks.
        const index_t j = std::upper_bound(px, px + n, v) - px - 1;
        if (px[j] == v) {
          o[i] = pf[j];
          continue;
        }
        const double slope = (pf[j + 1] - pf[j]) / (px[j + 1] - px[j]);
        // The products are kept apart from the adds: a contracted multiply-add rounds once
        // and would differ from NumPy's values.
        volatile double prod = slope * (v - px[j]);
        double r = prod + pf[j];
        if (r != r) {
          prod = slope * (v - px[j + 1]);
          r = prod + pf[j + 1];
          if (r != r && pf[j] == pf[j + 1]) r = pf[j];
        }
        o[i] = r;
      }
    }
  });
  return out;
}

std::vector<NDArray> gradient(const NDArray& f0, const std::vector<double>& spacing,
                              const AxisSet& axes, int edge_order) {
  sortstats::CheckInput(f0, "gradient");
  SHADE_CHECK(edge_order == 1 || edge_order == 2)
      << "'edge_order' greater than 2 not supported (got " << edge_order << ")";
  const std::vector<bool> mask = axes.Mask(f0.sizes(), "gradient");
  std::vector<int> dims;
  for (int d = 0; d < f0.ndim(); ++d) {
    if (mask[d]) dims.push_back(d);
  }
  SHADE_CHECK_TYPE(spacing.empty() || spacing.size() == 1 || spacing.size() == dims.size())
      << "invalid number of arguments: " << spacing.size() << " spacings for " << dims.size()
      << " axes";
  SHADE_CHECK_TYPE(f0.type_flag() != kBool) << "gradient: bool input is not supported";
  // Integers compute in float64 (NumPy converts them first); complex keeps its dtype.
  const NDArray f = KindOf(f0.type_flag()) >= DTypeKind::kFloat ? f0 : astype(f0, kFloat64);
  std::vector<NDArray> out;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const int ax = dims[i];
    const double h = spacing.empty() ? 1.0 : spacing.size() == 1 ? spacing[0] : spacing[i];
    const index_t n = f.size(ax);
    SHADE_CHECK(n >= edge_order + 1)
        << "Shape of array too small to calculate a numerical gradient, at least (edge_order + "
           "1) elements are required.";
    auto at = [&](index_t b, index_t e) { return f.slice(ax, b, e); };
    // NumPy's operations in its order, so the roundings agree.
    const NDArray mid = true_divide(subtract(at(2, n), at(0, n - 2)), 2.0 * h).eval();
    NDArray first, last;
    if (edge_order == 1) {
      first = true_divide(subtract(at(1, 2), at(0, 1)), h).eval();
      last = true_divide(subtract(at(n - 1, n), at(n - 2, n - 1)), h).eval();
    } else {
      first = add(add(multiply(-1.5 / h, at(0, 1)), multiply(2.0 / h, at(1, 2))),
                  multiply(-0.5 / h, at(2, 3)))
                  .eval();
      last = add(add(multiply(0.5 / h, at(n - 3, n - 2)), multiply(-2.0 / h, at(n - 2, n - 1))),
                 multiply(1.5 / h, at(n - 1, n)))
                 .eval();
    }
    out.push_back(cat({first, mid, last}, ax));
  }
  return out;
}

}  // namespace shade
