// put / place / putmask / take_along_axis / put_along_axis / copyto (ndarray/put_take.h): built on
// indexing.h's gather (`index`) and scatter (`index_put_`).
#include "shade/ndarray/put_take.h"

#include <cstdint>
#include <string>
#include <vector>

#include "operand_check.h"
#include "shade/ndarray/creation.h"
#include "shade/ndarray/indexing.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/reduce.h"
#include "shade/ndarray/shape_ops.h"

namespace shade {
namespace {

bool IsInteger(int flag) {
  const DTypeKind k = KindOf(flag);
  return k == DTypeKind::kSigned || k == DTypeKind::kUnsigned;
}

// Runs f on a flat (1-D) view of a's elements: a itself when contiguous, else a contiguous
// copy that is written back afterwards.
template <typename F>
void WithFlat(const NDArray& a, const char* op, F&& f) {
  a.CheckWriteable(op);
  if (a.is_contiguous()) {
    f(a.reshape({-1}));
    return;
  }
  NDArray work = a.contiguous();
  f(work.reshape({-1}));
  a.copy_(work);
}

// The first n elements of v's flat elements repeated cyclically (np.resize of a 1-D array).
NDArray Cycled(const NDArray& v, index_t n) {
  const NDArray flat = v.reshape({-1});
  const index_t m = flat.numel();
  if (m >= n) return flat.narrow(0, 0, n);
  return tile(flat, {(n + m - 1) / m}).narrow(0, 0, n);
}

// The fancy index of take/put_along_axis: aranges on every axis but `axis`, indices there.
std::vector<NDArray> AlongAxisIndex(const NDArray& arr, const NDArray& indices, index_t axis,
                                    const char* op) {
  detail::CheckOperand(indices, op, "indices");
  SHADE_CHECK_INDEX(IsInteger(indices.type_flag())) << "`indices` must be an integer array";
  SHADE_CHECK_SHAPE_EQ(indices.ndim(), arr.ndim())
      << "`indices` and `arr` must have the same number of dimensions";
  const index_t nd = arr.ndim();
  const index_t ax = arr.WrapDim(axis);
  std::vector<NDArray> fancy;
  for (index_t d = 0; d < nd; ++d) {
    if (d == ax) {
      fancy.push_back(indices);
      continue;
    }
    std::vector<index_t> shape(nd, 1);
    shape[d] = arr.size(d);
    fancy.push_back(arange(arr.size(d)).reshape(shape));
  }
  return fancy;
}

void CheckFlatIndices(const NDArray& indices, const char* op) {
  detail::CheckOperand(indices, op, "indices");
  SHADE_CHECK_INDEX(IsInteger(indices.type_flag())) << "`indices` must be an integer array";
  SHADE_CHECK_SHAPE_EQ(indices.ndim(), 1)
      << "when axis=None, `indices` must have a single dimension.";
}

}  // namespace

const NDArray& put(const NDArray& a, const NDArray& ind, const NDArray& v, IndexMode mode) {
  detail::CheckOperand(a, "put", "the array");
  detail::CheckOperand(ind, "put", "the indices");
  detail::CheckOperand(v, "put", "the values");
  SHADE_CHECK_TYPE(IsInteger(ind.type_flag()) || ind.numel() == 0)
      << "put: indices must be integers, got " << TypeFlagName(ind.type_flag());
  a.CheckWriteable("put");
  const index_t m = ind.numel();
  if (m == 0 || v.numel() == 0) return a;
  NDArray idx = astype(ind, kInt64).reshape({-1}).contiguous();
  const index_t n = a.numel();
  if (mode != IndexMode::kRaise) {
    SHADE_CHECK_INDEX(n > 0) << "put: cannot do a non-empty put into an empty array";
    idx = idx.Clone();
    auto* p = static_cast<std::int64_t*>(idx.data_ptr());
    for (index_t i = 0; i < m; ++i) {
      if (mode == IndexMode::kWrap) {
        p[i] = ((p[i] % n) + n) % n;
      } else {
        p[i] = p[i] < 0 ? 0 : (p[i] >= n ? n - 1 : p[i]);
      }
    }
  }
  const NDArray values = Cycled(v, m);
  WithFlat(a, "put", [&](const NDArray& flat) { index_put_(flat, {idx}, values); });
  return a;
}

const NDArray& place(const NDArray& arr, const NDArray& mask, const NDArray& vals) {
  detail::CheckOperand(arr, "place", "the array");
  detail::CheckOperand(mask, "place", "the mask");
  detail::CheckOperand(vals, "place", "the values");
  SHADE_CHECK_SHAPE_EQ(mask.numel(), arr.numel()) << "place: mask and data must be the same size";
  arr.CheckWriteable("place");
  const NDArray m = astype(mask, kBool).reshape({-1});
  const index_t count = item<std::int64_t>(sum(m));
  if (count == 0) return arr;
  SHADE_CHECK(vals.numel() > 0) << "Cannot insert from an empty array!";
  const NDArray values = Cycled(vals, count);
  WithFlat(arr, "place", [&](const NDArray& flat) { index_put_(flat, {m}, values); });
  return arr;
}

const NDArray& putmask(const NDArray& a, const NDArray& mask, const NDArray& values) {
  detail::CheckOperand(a, "putmask", "the array");
  detail::CheckOperand(mask, "putmask", "the mask");
  detail::CheckOperand(values, "putmask", "the values");
  SHADE_CHECK_SHAPE_EQ(mask.numel(), a.numel()) << "putmask: mask and data must be the same size";
  a.CheckWriteable("putmask");
  if (values.numel() == 0 || a.numel() == 0) return a;
  const NDArray m = astype(mask, kBool).reshape({-1});
  const NDArray picked = index(Cycled(values, a.numel()), {m});
  WithFlat(a, "putmask", [&](const NDArray& flat) { index_put_(flat, {m}, picked); });
  return a;
}

NDArray take_along_axis(const NDArray& arr, const NDArray& indices, index_t axis) {
  detail::CheckOperand(arr, "take_along_axis", "arr");
  return index(arr, AlongAxisIndex(arr, indices, axis, "take_along_axis"));
}

NDArray take_along_axis(const NDArray& arr, const NDArray& indices) {
  detail::CheckOperand(arr, "take_along_axis", "arr");
  CheckFlatIndices(indices, "take_along_axis");
  return index(arr.reshape({-1}), {indices});
}

const NDArray& put_along_axis(const NDArray& arr, const NDArray& indices, const NDArray& values,
                              index_t axis) {
  detail::CheckOperand(arr, "put_along_axis", "arr");
  detail::CheckOperand(values, "put_along_axis", "values");
  index_put_(arr, AlongAxisIndex(arr, indices, axis, "put_along_axis"), values);
  return arr;
}

const NDArray& put_along_axis(const NDArray& arr, const NDArray& indices, const NDArray& values) {
  detail::CheckOperand(arr, "put_along_axis", "arr");
  detail::CheckOperand(values, "put_along_axis", "values");
  CheckFlatIndices(indices, "put_along_axis");
  WithFlat(arr, "put_along_axis",
           [&](const NDArray& flat) { index_put_(flat, {indices}, values); });
  return arr;
}

namespace {
std::string DTypeText(int flag) {
  return std::string("dtype('") + TypeFlagName(flag) + "')";
}
const char* CastingName(Casting c) {
  switch (c) {
    case Casting::kNo:
      return "no";
    case Casting::kEquiv:
      return "equiv";
    case Casting::kSafe:
      return "safe";
    case Casting::kSameKind:
      return "same_kind";
    default:
      return "unsafe";
  }
}
}  // namespace

const NDArray& copyto(const NDArray& dst, const NDArray& src, Casting casting,
                      const NDArray& where) {
  detail::CheckOperand(dst, "copyto", "dst");
  detail::CheckOperand(src, "copyto", "src");
  SHADE_CHECK_TYPE(CanCast(src.type_flag(), dst.type_flag(), casting))
      << "Cannot cast array data from " << DTypeText(src.type_flag()) << " to "
      << DTypeText(dst.type_flag()) << " according to the rule '" << CastingName(casting) << "'";
  dst.CheckWriteable("copyto");
  if (!where.defined()) {
    dst.copy_(src);
    return dst;
  }
  detail::CheckOperand(where, "copyto", "where");
  SHADE_CHECK_TYPE(where.type_flag() == kBool)
      << "Cannot cast array data from " << DTypeText(where.type_flag())
      << " to dtype('bool') according to the rule 'safe'";
  const NDArray s = astype(src, dst.type_flag());
  dst.copy_(shade::where(where, s, dst).eval());
  return dst;
}

}  // namespace shade
