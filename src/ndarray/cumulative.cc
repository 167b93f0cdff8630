// Cumulative operations (ndarray/cumulative.h): the input is cast to the result dtype in an
// axis-last copy, each lane is accumulated in place (lanes over ParallelFor), then viewed back.
#include "shade/ndarray/cumulative.h"

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

}  // namespace shade
