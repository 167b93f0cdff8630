// Searching and counting (ndarray/searching.h): the positions of non-zero elements are found
// on a bool copy in one ordered pass (row-major order is the result's order).
#include "shade/ndarray/searching.h"

#include <cstring>
#include <vector>

#include "shade/ndarray/indexing.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/shape_ops.h"
#include "sortstats_internal.h"

namespace shade {
namespace {

// a as a contiguous bool array (x != 0; NaN is true).
NDArray AsBool(const NDArray& a) {
  return astype(a, kBool).contiguous();
}

// The flat indices of the true elements of a contiguous bool array.
std::vector<std::int64_t> TrueFlat(const NDArray& b) {
  std::vector<std::int64_t> idx;
  const bool* p = b.data<bool>();
  for (index_t i = 0; i < b.numel(); ++i) {
    if (p[i]) idx.push_back(i);
  }
  return idx;
}

NDArray FromVector(const std::vector<std::int64_t>& v) {
  NDArray out = NDArray::Empty({static_cast<index_t>(v.size())}, kInt64);
  std::copy(v.begin(), v.end(), out.data<std::int64_t>());
  return out;
}

}  // namespace

std::vector<NDArray> where(const NDArray& condition) {
  return nonzero(condition);
}

NDArray argwhere(const NDArray& a) {
  sortstats::CheckInput(a, "argwhere");
  const std::vector<std::int64_t> flat = TrueFlat(AsBool(a));
  const int nd = a.ndim();
  const index_t n = static_cast<index_t>(flat.size());
  NDArray out = NDArray::Empty({n, static_cast<index_t>(nd)}, kInt64);
  std::int64_t* o = out.data<std::int64_t>();
  for (index_t i = 0; i < n; ++i) {
    std::int64_t r = flat[i];
    for (int d = nd - 1; d >= 0; --d) {
      o[i * nd + d] = r % a.size(d);
      r /= a.size(d);
    }
  }
  return out;
}

NDArray flatnonzero(const NDArray& a) {
  sortstats::CheckInput(a, "flatnonzero");
  return FromVector(TrueFlat(AsBool(a)));
}

NDArray count_nonzero(const NDArray& a, const AxisSet& axes, bool keepdims) {
  sortstats::CheckInput(a, "count_nonzero");
  return sum(astype(a, kBool), axes, keepdims);
}

NDArray extract(const NDArray& condition, const NDArray& arr) {
  sortstats::CheckInput(condition, "extract");
  sortstats::CheckInput(arr, "extract");
  const std::vector<std::int64_t> flat = TrueFlat(AsBool(condition));
  const NDArray src = arr.contiguous();
  NDArray out = NDArray::Empty({static_cast<index_t>(flat.size())}, arr.dtype());
  const std::size_t w = arr.itemsize();
  for (std::size_t i = 0; i < flat.size(); ++i) {
    SHADE_CHECK_INDEX(flat[i] < arr.numel())
        << "index " << flat[i] << " is out of bounds for axis 0 with size " << arr.numel();
    std::memcpy(static_cast<char*>(out.data_ptr()) + i * w,
                static_cast<const char*>(src.data_ptr()) + flat[i] * w, w);
  }
  return out;
}

NDArray select(const std::vector<NDArray>& condlist, const std::vector<NDArray>& choicelist,
               const NDArray& default_value) {
  SHADE_CHECK(condlist.size() == choicelist.size())
      << "list of cases must be same length as list of conditions: " << condlist.size()
      << " conditions, " << choicelist.size() << " choices";
  SHADE_CHECK(!condlist.empty()) << "select with an empty condition list is not possible";
  sortstats::CheckInput(default_value, "select");
  int flag = default_value.type_flag();
  for (std::size_t i = 0; i < condlist.size(); ++i) {
    sortstats::CheckInput(condlist[i], "select");
    sortstats::CheckInput(choicelist[i], "select");
    SHADE_CHECK_TYPE(condlist[i].type_flag() == kBool)
        << "invalid entry " << i << " in condlist: should be boolean ndarray";
    flag = PromoteTypes(flag, choicelist[i].type_flag());
  }
  // The first true condition wins: apply them from the last to the first.
  NDArray r = astype(default_value, flag);
  for (std::size_t i = condlist.size(); i-- > 0;) {
    r = where(condlist[i], astype(choicelist[i], flag), r).eval();
  }
  return r;
}

}  // namespace shade
