// Shape and dtype operations (ndarray/shape_ops.h): views where NumPy gives views, otherwise
// one copy through copy_ (the apply engine) or the row gather of indexing.cc (take).
#include "shade/ndarray/shape_ops.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "operand_check.h"
#include "shade/ndarray/grad_hook.h"
#include "shade/ndarray/indexing.h"
#include "shade/ndarray/ops.h"

namespace shade {
namespace {

int WrapAxis(index_t axis, int nd, const NDArray& a, const char* op) {
  SHADE_CHECK_INDEX(axis >= -nd && axis < nd)
      << op << ": axis " << axis << " is out of bounds for an array of dimension " << nd
      << " (shape " << a.sizes() << ")";
  return static_cast<int>(axis < 0 ? axis + nd : axis);
}

// An int64 index vector as a 1-d NDArray (borrowing nothing: copied).
NDArray IndexArray(const std::vector<index_t>& v) {
  NDArray out = NDArray::Empty({static_cast<index_t>(v.size())}, kInt64);
  if (!v.empty()) std::copy(v.begin(), v.end(), static_cast<std::int64_t*>(out.data_ptr()));
  return out;
}

}  // namespace

NDArray astype(const NDArray& a, int flag, Casting casting) {
  detail::CheckOperand(a, "astype");
  if (__builtin_expect(detail::GradTracked(a), 0) && a.type_flag() != flag) {
    return detail::RecordGrad(detail::GradOp::kAstype, {a}, {},
                              [&] { return astype(a, flag, casting); });
  }
  SHADE_CHECK_TYPE(IsValidTypeFlag(flag)) << "astype: unknown dtype flag " << flag;
  SHADE_CHECK_TYPE(CanCast(a.type_flag(), flag, casting))
      << "astype: cannot cast " << TypeFlagName(a.type_flag()) << " to " << TypeFlagName(flag)
      << " under the requested casting rule";
  if (a.type_flag() == flag) return a;
  if (flag == kBool) return not_equal(a, 0).eval();  // NaN != 0: true, as NumPy
  NDArray out = NDArray::Empty(a.sizes(), flag);
  out.copy_(a);
  return out;
}

NDArray cat(const std::vector<NDArray>& arrays, index_t axis) {
  SHADE_CHECK(!arrays.empty()) << "cat: need at least one array to concatenate";
  if (__builtin_expect(std::any_of(arrays.begin(), arrays.end(),
                                   [](const NDArray& x) { return detail::GradTracked(x); }),
                       0)) {
    detail::GradAttrs at;
    at.axis = axis;
    return detail::RecordGrad(detail::GradOp::kConcatenate, arrays, std::move(at),
                              [&] { return cat(arrays, axis); });
  }
  for (std::size_t i = 0; i < arrays.size(); ++i) detail::CheckOperand(arrays[i], "cat");
  const NDArray& first = arrays[0];
  const int nd = first.ndim();
  SHADE_CHECK_SHAPE_GE(nd, 1) << "cat: zero-dimensional arrays cannot be concatenated";
  const int ax = WrapAxis(axis, nd, first, "cat");
  int flag = first.type_flag();
  index_t total = 0;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const NDArray& x = arrays[i];
    SHADE_CHECK_SHAPE_EQ(x.ndim(), nd)
        << "cat: all the input arrays must have the same number of dimensions, but array 0 "
        << "has shape " << first.sizes() << " and array " << i << " has shape " << x.sizes();
    for (int d = 0; d < nd; ++d) {
      SHADE_CHECK_SHAPE(d == ax || x.size(d) == first.size(d))
          << "cat: all the input array dimensions except for the concatenation axis " << ax
          << " must match exactly, but along dimension " << d << ", array 0 has shape "
          << first.sizes() << " and array " << i << " has shape " << x.sizes();
    }
    if (i > 0) flag = PromoteTypes(flag, x.type_flag());
    total = CheckedAdd(total, x.size(ax), "cat size");
  }
  std::vector<index_t> shape = first.sizes().vec();
  shape[ax] = total;
  NDArray out = NDArray::Empty(shape, flag);
  index_t at = 0;
  for (const NDArray& x : arrays) {
    if (x.size(ax) > 0) out.narrow(ax, at, x.size(ax)).copy_(x);
    at += x.size(ax);
  }
  return out;
}

NDArray concatenate(const std::vector<NDArray>& arrays, index_t axis) {
  return cat(arrays, axis);
}

NDArray stack(const std::vector<NDArray>& arrays, index_t axis) {
  SHADE_CHECK(!arrays.empty()) << "stack: need at least one array to stack";
  for (const NDArray& x : arrays) detail::CheckOperand(x, "stack");
  const int nd = arrays[0].ndim();
  const int ax = WrapAxis(axis, nd + 1, arrays[0], "stack");
  std::vector<NDArray> parts;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    SHADE_CHECK_SHAPE(arrays[i].sizes() == arrays[0].sizes())
        << "stack: all input arrays must have the same shape, but array 0 has shape "
        << arrays[0].sizes() << " and array " << i << " has shape " << arrays[i].sizes();
    parts.push_back(arrays[i].unsqueeze(ax));
  }
  return cat(parts, ax);
}

std::vector<NDArray> split(const NDArray& a, const std::vector<index_t>& indices, index_t axis) {
  detail::CheckOperand(a, "split");
  const int ax = WrapAxis(axis, a.ndim(), a, "split");
  const index_t n = a.size(ax);
  std::vector<NDArray> out;
  index_t prev = 0;
  for (std::size_t i = 0; i <= indices.size(); ++i) {
    index_t end = n;
    if (i < indices.size()) {
      end = indices[i] < 0 ? indices[i] + n : indices[i];
      end = std::min(std::max<index_t>(end, 0), n);
    }
    const index_t start = std::min(prev, n);
    out.push_back(a.narrow(ax, start, std::max<index_t>(end - start, 0)));
    prev = std::max(prev, end);
  }
  return out;
}

std::vector<NDArray> array_split(const NDArray& a, index_t sections, index_t axis) {
  detail::CheckOperand(a, "array_split");
  SHADE_CHECK_GT(sections, 0) << "array_split: number sections must be larger than 0, got "
                              << sections;
  const int ax = WrapAxis(axis, a.ndim(), a, "array_split");
  const index_t n = a.size(ax), each = n / sections, extra = n % sections;
  std::vector<index_t> idx;
  index_t at = 0;
  for (index_t s = 0; s + 1 < sections; ++s) {
    at += each + (s < extra ? 1 : 0);
    idx.push_back(at);
  }
  return split(a, idx, ax);
}

std::vector<NDArray> split(const NDArray& a, index_t sections, index_t axis) {
  detail::CheckOperand(a, "split");
  SHADE_CHECK_GT(sections, 0) << "split: number sections must be larger than 0, got " << sections;
  const int ax = WrapAxis(axis, a.ndim(), a, "split");
  SHADE_CHECK_SHAPE_EQ(a.size(ax) % sections, 0)
      << "split: array split does not result in an equal division: axis " << ax << " of shape "
      << a.sizes() << " into " << sections << " sections";
  return array_split(a, sections, ax);
}

NDArray flip(const NDArray& a, const std::vector<index_t>& axes) {
  detail::CheckOperand(a, "flip");
  std::vector<bool> seen(a.ndim(), false);
  NDArray out = a;
  for (index_t axis : axes) {
    const int ax = WrapAxis(axis, a.ndim(), a, "flip");
    SHADE_CHECK(!seen[ax]) << "flip: axis " << axis << " is repeated (shape " << a.sizes() << ")";
    seen[ax] = true;
    std::vector<index_t> idx(static_cast<std::size_t>(a.size(ax)));
    for (index_t i = 0; i < a.size(ax); ++i) idx[i] = a.size(ax) - 1 - i;
    out = take(out, IndexArray(idx), ax);
  }
  return out.is_same(a) ? a.Clone() : out;
}

NDArray flip(const NDArray& a) {
  detail::CheckOperand(a, "flip");
  std::vector<index_t> axes;
  for (int d = 0; d < a.ndim(); ++d) axes.push_back(d);
  return flip(a, axes);
}

NDArray roll(const NDArray& a, const std::vector<index_t>& shifts,
             const std::vector<index_t>& axes) {
  detail::CheckOperand(a, "roll");
  SHADE_CHECK_EQ(shifts.size(), axes.size()) << "roll: shift and axis must have the same length";
  std::vector<index_t> total(a.ndim(), 0);
  for (std::size_t k = 0; k < axes.size(); ++k)
    total[WrapAxis(axes[k], a.ndim(), a, "roll")] += shifts[k];
  NDArray out = a;
  for (int d = 0; d < a.ndim(); ++d) {
    const index_t n = a.size(d);
    if (n == 0) continue;
    const index_t s = ((total[d] % n) + n) % n;
    if (s == 0) continue;
    std::vector<index_t> idx(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) idx[i] = (i - s + n) % n;  // out[i] = a[i - s]
    out = take(out, IndexArray(idx), d);
  }
  return out.is_same(a) ? a.Clone() : out;
}

NDArray roll(const NDArray& a, index_t shift, index_t axis) {
  return roll(a, std::vector<index_t>{shift}, std::vector<index_t>{axis});
}

NDArray roll(const NDArray& a, index_t shift) {
  detail::CheckOperand(a, "roll");
  const NDArray flat = a.reshape({a.numel()});
  return roll(flat, shift, 0).view(a.sizes());
}

NDArray tile(const NDArray& a, const std::vector<index_t>& reps) {
  detail::CheckOperand(a, "tile");
  for (index_t r : reps) SHADE_CHECK_GE(r, 0) << "tile: negative repetition " << r;
  const int nd = std::max<int>(a.ndim(), static_cast<int>(reps.size()));
  std::vector<index_t> r(nd - reps.size(), 1), s(nd - a.ndim(), 1);
  r.insert(r.end(), reps.begin(), reps.end());
  for (int d = 0; d < a.ndim(); ++d) s.push_back(a.size(d));
  // View a as (1, s0, 1, s1, ...), broadcast to (r0, s0, r1, s1, ...), then copy and merge.
  std::vector<index_t> inter, expanded, shape;
  for (int d = 0; d < nd; ++d) {
    inter.push_back(1);
    inter.push_back(s[d]);
    expanded.push_back(r[d]);
    expanded.push_back(s[d]);
    shape.push_back(CheckedMul(r[d], s[d], "tile size"));
  }
  NDArray out = NDArray::Empty(expanded, a.dtype());
  if (out.numel() > 0) out.copy_(a.reshape(inter).expand(expanded));
  return out.view(shape);
}

NDArray repeat(const NDArray& a, const std::vector<index_t>& repeats, index_t axis) {
  detail::CheckOperand(a, "repeat");
  const int ax = WrapAxis(axis, a.ndim(), a, "repeat");
  const index_t n = a.size(ax);
  SHADE_CHECK_SHAPE(static_cast<index_t>(repeats.size()) == n || repeats.size() == 1)
      << "repeat: " << repeats.size() << " repeat counts for axis " << ax << " of size " << n
      << " (shape " << a.sizes() << ")";
  std::vector<index_t> idx;
  index_t total = 0;
  for (index_t i = 0; i < n; ++i) {
    const index_t r = repeats.size() == 1 ? repeats[0] : repeats[i];
    SHADE_CHECK_GE(r, 0) << "repeat: negative repeat count " << r << " for index " << i;
    total = CheckedAdd(total, r, "repeat size");
    idx.insert(idx.end(), static_cast<std::size_t>(r), i);
  }
  return take(a, IndexArray(idx), ax);
}

NDArray repeat(const NDArray& a, index_t repeats, index_t axis) {
  return repeat(a, std::vector<index_t>{repeats}, axis);
}

NDArray repeat(const NDArray& a, index_t repeats) {
  detail::CheckOperand(a, "repeat");
  return repeat(a.reshape({a.numel()}), repeats, 0);
}

}  // namespace shade
