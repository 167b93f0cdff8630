// Advanced indexing (ndarray/indexing.h). Gathers copy whole rows of a contiguous [outer, len,
// inner] view (one memcpy per row, threaded); scatters write through views of the destination
// with copy_ / += (the apply engine), so any non-overlapping layout can be written.
#include "shade/ndarray/indexing.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "operand_check.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/grad_hook.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/shape/broadcast.h"

namespace shade {
namespace {

// Index values as int64 (row-major), each checked against `size` and wrapped when negative.
std::vector<index_t> ReadIndices(const NDArray& idx, index_t size, index_t axis, const char* op) {
  detail::CheckOperand(idx, op, "the index array");
  const DTypeKind kind = KindOf(idx.type_flag());
  SHADE_CHECK_TYPE(kind == DTypeKind::kSigned || kind == DTypeKind::kUnsigned)
      << op << ": index arrays must have an integer dtype, got " << TypeFlagName(idx.type_flag());
  std::vector<index_t> out(static_cast<std::size_t>(idx.numel()));
  if (out.empty()) return out;
  const NDArray c = idx.contiguous();
  DispatchDType(c.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
      const T* p = static_cast<const T*>(c.data_ptr());
      for (std::size_t i = 0; i < out.size(); ++i) {
        const T v = p[i];
        // uint64 above INT64_MAX is out of range for every size.
        const bool huge = std::is_unsigned<T>::value && sizeof(T) == 8 &&
                          static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(INT64_MAX);
        const index_t x = static_cast<index_t>(v);
        if (huge || x < -size || x >= size) {
          std::ostringstream os;
          if (std::is_unsigned<T>::value) {
            os << static_cast<unsigned long long>(v);  // NOLINT(runtime/int)
          } else {
            os << static_cast<long long>(v);  // NOLINT(runtime/int)
          }
          SHADE_THROW_INDEX << op << ": index " << os.str() << " is out of bounds for axis " << axis
                            << " with size " << size;
        }
        out[i] = x < 0 ? x + size : x;
      }
    }
  });
  return out;
}

// out[o][j][:] = src[o][rows[j]][:] for a contiguous src [outer, len, inner] of `item`-byte
// elements and a contiguous out [outer, rows.size(), inner].
void GatherRows(const char* src, index_t outer, index_t len, index_t inner, std::size_t item,
                const std::vector<index_t>& rows, char* out) {
  const index_t n = static_cast<index_t>(rows.size());
  const std::size_t row_bytes = static_cast<std::size_t>(inner) * item;
  if (row_bytes == 0 || n == 0 || outer == 0) return;
  const index_t grain = std::max<index_t>(1, kMapGrain / std::max<index_t>(inner, 1));
  ParallelFor(0, outer * n, grain, [&](index_t b, index_t e) {
    for (index_t t = b; t < e; ++t) {
      const index_t o = t / n, j = t % n;
      std::memcpy(out + static_cast<std::size_t>(t) * row_bytes,
                  src + static_cast<std::size_t>(o * len + rows[j]) * row_bytes, row_bytes);
    }
  });
}

// NumPy's broadcast of index shapes; throws naming them.
std::vector<index_t> BroadcastIndexShapes(const std::vector<NDArray>& arrays, const char* op) {
  std::vector<index_t> out;
  for (const NDArray& x : arrays) {
    const int nd = x.ndim();
    std::vector<index_t> next(std::max<std::size_t>(out.size(), static_cast<std::size_t>(nd)));
    if (!shade::BroadcastShapes(out.data(), static_cast<int>(out.size()), x.sizes().data(), nd,
                                next.data())) {
      std::ostringstream os;
      for (const NDArray& y : arrays) os << ' ' << y.sizes();
      SHADE_THROW_SHAPE
          << op << ": shape mismatch: index arrays could not be broadcast together with shapes"
          << os.str();
    }
    out.swap(next);
  }
  return out;
}

// Expands bool index arrays into their nonzero() arrays; checks they fit the indexed dims.
std::vector<NDArray> ExpandMasks(const NDArray& a, const std::vector<NDArray>& indices,
                                 const char* op) {
  std::vector<NDArray> out;
  index_t dim = 0;
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const NDArray& x = indices[k];
    detail::CheckOperand(x, op, "an index array");
    if (x.type_flag() == kBool) {
      SHADE_CHECK_INDEX_LE(dim + x.ndim(), a.ndim())
          << op << ": too many indices for an array of shape " << a.sizes()
          << " (boolean index of shape " << x.sizes() << ")";
      for (int d = 0; d < x.ndim(); ++d) {
        SHADE_CHECK_INDEX_EQ(x.size(d), a.size(dim + d))
            << op << ": boolean index did not match indexed array along dimension " << dim + d
            << "; dimension is " << a.size(dim + d) << " but corresponding boolean dimension is "
            << x.size(d) << " (array shape " << a.sizes() << ", mask shape " << x.sizes() << ")";
      }
      for (NDArray& nz : nonzero(x)) out.push_back(nz);
      dim += x.ndim() == 0 ? 0 : x.ndim();
      if (x.ndim() == 0) {
        SHADE_THROW_SHAPE << op << ": a rank-0 boolean index is not supported (array shape "
                          << a.sizes() << ")";
      }
    } else {
      out.push_back(x);
      ++dim;
    }
  }
  SHADE_CHECK_INDEX_LE(static_cast<index_t>(out.size()), a.ndim())
      << op << ": too many indices for an array of shape " << a.sizes() << ": " << out.size()
      << " index arrays for " << a.ndim() << " dimensions";
  return out;
}

// Flat row numbers over a's first k = idx.size() dims for the broadcast index arrays; `bshape`
// receives the broadcast shape.
std::vector<index_t> FlatRows(const NDArray& a, const std::vector<NDArray>& idx, const char* op,
                              std::vector<index_t>* bshape) {
  *bshape = BroadcastIndexShapes(idx, op);
  index_t n = 1;
  for (index_t s : *bshape) n = CheckedMul(n, s, "index result size");
  std::vector<index_t> rows(static_cast<std::size_t>(n), 0);
  for (std::size_t k = 0; k < idx.size(); ++k) {
    const NDArray e = idx[k].expand(*bshape);
    const std::vector<index_t> v =
        ReadIndices(e, a.size(static_cast<index_t>(k)), static_cast<index_t>(k), op);
    for (std::size_t i = 0; i < rows.size(); ++i)
      rows[i] = rows[i] * a.size(static_cast<index_t>(k)) + v[i];
  }
  return rows;
}

}  // namespace

NDArray take(const NDArray& a, const NDArray& indices, index_t axis) {
  detail::CheckOperand(a, "take", "the array");
  if (__builtin_expect(detail::GradTracked(a), 0)) {
    detail::GradAttrs at;
    at.axis = axis;
    at.arrays = {indices};
    return detail::RecordGrad(detail::GradOp::kTake, {a}, std::move(at),
                              [&] { return take(a, indices, axis); });
  }
  const int nd = a.ndim();
  SHADE_CHECK_INDEX(axis >= -nd && axis < nd)
      << "take: axis " << axis << " is out of bounds for an array of dimension " << nd << " (shape "
      << a.sizes() << ")";
  const int ax = static_cast<int>(axis < 0 ? axis + nd : axis);
  const std::vector<index_t> rows = ReadIndices(indices, a.size(ax), ax, "take");
  std::vector<index_t> shape;
  index_t outer = 1, inner = 1;
  for (int d = 0; d < ax; ++d) {
    shape.push_back(a.size(d));
    outer *= a.size(d);
  }
  for (int d = 0; d < indices.ndim(); ++d) shape.push_back(indices.size(d));
  for (int d = ax + 1; d < nd; ++d) {
    shape.push_back(a.size(d));
    inner *= a.size(d);
  }
  NDArray out = NDArray::Empty(shape, a.dtype());
  if (out.numel() == 0) return out;
  const NDArray c = a.contiguous();
  GatherRows(static_cast<const char*>(c.data_ptr()), outer, a.size(ax), inner, a.itemsize(), rows,
             static_cast<char*>(out.data_ptr()));
  return out;
}

NDArray take(const NDArray& a, const NDArray& indices) {
  detail::CheckOperand(a, "take", "the array");
  return take(a.reshape({a.numel()}), indices, 0);
}

std::vector<NDArray> nonzero(const NDArray& a) {
  detail::CheckOperand(a, "nonzero", "the array");
  SHADE_CHECK_SHAPE_GE(a.ndim(), 1)
      << "nonzero: calling nonzero on a rank-0 array is not allowed (NumPy refuses it too)";
  const NDArray b = astype(a, kBool).contiguous();
  const bool* p = static_cast<const bool*>(b.data_ptr());
  index_t count = 0;
  for (index_t i = 0; i < b.numel(); ++i) count += p[i] ? 1 : 0;
  std::vector<NDArray> out;
  std::vector<std::int64_t*> dst;
  for (int d = 0; d < a.ndim(); ++d) {
    out.push_back(NDArray::Empty({count}, kInt64));
    dst.push_back(static_cast<std::int64_t*>(out.back().data_ptr()));
  }
  index_t k = 0;
  for (index_t i = 0; i < b.numel(); ++i) {
    if (!p[i]) continue;
    index_t r = i;
    for (int d = a.ndim() - 1; d >= 0; --d) {
      dst[d][k] = r % a.size(d);
      r /= a.size(d);
    }
    ++k;
  }
  return out;
}

NDArray index(const NDArray& a, const std::vector<NDArray>& indices) {
  detail::CheckOperand(a, "index", "the array");
  if (__builtin_expect(detail::GradTracked(a), 0)) {
    detail::GradAttrs at;
    at.arrays = indices;
    return detail::RecordGrad(detail::GradOp::kIndex, {a}, std::move(at),
                              [&] { return index(a, indices); });
  }
  const std::vector<NDArray> idx = ExpandMasks(a, indices, "index");
  if (idx.empty()) return a.Clone();
  std::vector<index_t> shape;
  const std::vector<index_t> rows = FlatRows(a, idx, "index", &shape);
  index_t lead = 1, inner = 1;
  for (std::size_t d = 0; d < idx.size(); ++d) lead *= a.size(static_cast<index_t>(d));
  for (int d = static_cast<int>(idx.size()); d < a.ndim(); ++d) {
    shape.push_back(a.size(d));
    inner *= a.size(d);
  }
  NDArray out = NDArray::Empty(shape, a.dtype());
  if (out.numel() == 0) return out;
  const NDArray c = a.contiguous();
  GatherRows(static_cast<const char*>(c.data_ptr()), 1, lead, inner, a.itemsize(), rows,
             static_cast<char*>(out.data_ptr()));
  return out;
}

const NDArray& index_put_(const NDArray& a, const std::vector<NDArray>& indices,
                          const NDArray& values, bool accumulate) {
  detail::CheckOperand(a, "index_put_", "the destination");
  detail::CheckOperand(values, "index_put_", "the values");
  a.CheckWriteable("index_put_");
  SHADE_CHECK(a.is_non_overlapping())
      << "index_put_: cannot write into " << a << ": its elements overlap (an expanded view)";
  const std::vector<NDArray> idx = ExpandMasks(a, indices, "index_put_");
  std::vector<index_t> shape;
  std::vector<index_t> rows;
  if (idx.empty()) {
    rows.push_back(0);
  } else {
    rows = FlatRows(a, idx, "index_put_", &shape);
  }
  const std::size_t k = idx.size();
  std::vector<index_t> rest_sizes, rest_strides;
  index_t inner = 1;
  for (int d = static_cast<int>(k); d < a.ndim(); ++d) {
    shape.push_back(a.size(d));
    rest_sizes.push_back(a.size(d));
    rest_strides.push_back(a.stride(d));
    inner *= a.size(d);
  }
  // Values broadcast to the indexed shape (NumPy's rule; the error names both shapes).
  std::vector<index_t> vshape = shape;
  bool fits = values.ndim() <= static_cast<int>(vshape.size());
  for (int d = 0; fits && d < values.ndim(); ++d) {
    const index_t want = vshape[vshape.size() - values.ndim() + d];
    fits = values.size(d) == want || values.size(d) == 1;
  }
  SHADE_CHECK_SHAPE(fits) << "index_put_: shape mismatch: value array of shape " << values.sizes()
                          << " could not be broadcast to indexing result of shape "
                          << IndexSpan(shape);
  const index_t n = static_cast<index_t>(rows.size());
  if (n == 0 || inner == 0) return a;
  NDArray v = values.expand(vshape).reshape({n, inner});
  // The right-hand side is read as it was before the assignment (NumPy evaluates it first).
  if (v.storage().is_alias_of(a.storage())) v = v.Clone();
  if (!accumulate) v = astype(v, a.type_flag());
  std::vector<index_t> lead_strides;
  for (std::size_t d = 0; d < k; ++d) lead_strides.push_back(a.stride(static_cast<index_t>(d)));
  for (index_t i = 0; i < n; ++i) {
    index_t r = rows[i], off = a.storage_offset();
    for (int d = static_cast<int>(k) - 1; d >= 0; --d) {
      off += (r % a.size(d)) * lead_strides[d];
      r /= a.size(d);
    }
    const NDArray dst = a.as_strided(rest_sizes, rest_strides, off);
    const NDArray src = v.select(0, i).view(rest_sizes);
    if (accumulate) {
      dst += src;
    } else {
      dst.copy_(src);
    }
  }
  return a;
}

const NDArray& masked_fill_(const NDArray& a, const NDArray& mask, double value) {
  detail::CheckOperand(mask, "masked_fill_", "the mask");
  SHADE_CHECK_TYPE_EQ(mask.type_flag(), static_cast<int>(kBool))
      << "masked_fill_: the mask must be bool, got " << TypeFlagName(mask.type_flag());
  NDArray v = NDArray::Empty({}, kFloat64);
  v.Fill(value);
  return index_put_(a, {mask}, v, false);
}

}  // namespace shade
