// Set routines (ndarray/sets.h). Everything reduces to sorting order keys (sortstats_internal.h:
// NaN last, -0.0 == +0.0) and scanning neighbours; NaN keys never compare equal except where
// unique's equal_nan asks for it.
#include "shade/ndarray/sets.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "shade/ndarray/indexing.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/searching.h"
#include "shade/ndarray/shape_ops.h"
#include "shade/ndarray/sort.h"
#include "sortstats_internal.h"

namespace shade {
namespace {

using sortstats::KeyType;
using sortstats::ToKey;

NDArray IndexArray(const std::vector<std::int64_t>& v) {
  NDArray out = NDArray::Empty({static_cast<index_t>(v.size())}, kInt64);
  std::copy(v.begin(), v.end(), out.data<std::int64_t>());
  return out;
}

// Group starts of n sorted rows: same(i) tells whether row i equals row i-1.
template <typename Same>
std::vector<index_t> GroupStarts(index_t n, Same same) {
  std::vector<index_t> starts;
  for (index_t i = 0; i < n; ++i) {
    if (i == 0 || !same(i)) starts.push_back(i);
  }
  return starts;
}

// Fills the optional outputs of unique from the sorting permutation and the group starts.
void FillUnique(UniqueResult* r, const std::vector<std::int64_t>& perm,
                const std::vector<index_t>& starts, index_t n, bool ri, bool rinv, bool rc) {
  const index_t g = static_cast<index_t>(starts.size());
  if (ri) {
    std::vector<std::int64_t> idx(g);
    for (index_t j = 0; j < g; ++j) idx[j] = perm[starts[j]];
    r->index = IndexArray(idx);
  }
  if (rinv) {
    std::vector<std::int64_t> inv(n);
    for (index_t j = 0; j < g; ++j) {
      const index_t end = j + 1 < g ? starts[j + 1] : n;
      for (index_t i = starts[j]; i < end; ++i) inv[perm[i]] = j;
    }
    r->inverse = IndexArray(inv);
  }
  if (rc) {
    std::vector<std::int64_t> cnt(g);
    for (index_t j = 0; j < g; ++j) cnt[j] = (j + 1 < g ? starts[j + 1] : n) - starts[j];
    r->counts = IndexArray(cnt);
  }
}

UniqueResult UniqueFlat(const NDArray& a, bool ri, bool rinv, bool rc, bool equal_nan) {
  UniqueResult r;
  const NDArray flat = sortstats::Flat(a, false).contiguous();
  const index_t n = flat.numel();
  std::vector<std::int64_t> perm(n);
  NDArray sorted;
  if (ri || rinv) {
    const NDArray p = argsort(flat, 0, "stable");
    std::copy(p.data<std::int64_t>(), p.data<std::int64_t>() + n, perm.begin());
    sorted = take(flat, p);
  } else {
    sorted = sort(flat, 0).contiguous();
  }
  std::vector<index_t> starts;
  DispatchDType(flat.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* s = sorted.data<T>();
    starts = GroupStarts(n, [&](index_t i) {
      if (sortstats::IsNan(s[i])) return equal_nan && sortstats::IsNan(s[i - 1]);
      return ToKey(s[i], true) == ToKey(s[i - 1], true);
    });
  });
  r.values = take(sorted, IndexArray(std::vector<std::int64_t>(starts.begin(), starts.end())));
  FillUnique(&r, perm, starts, n, ri, rinv, rc);
  return r;
}

UniqueResult UniqueAxis(const NDArray& a, int ax, bool ri, bool rinv, bool rc) {
  UniqueResult r;
  std::vector<index_t> perm_dims{ax};
  for (int d = 0; d < a.ndim(); ++d) {
    if (d != ax) perm_dims.push_back(d);
  }
  const NDArray front = a.permute(perm_dims).contiguous();
  const index_t n = a.size(ax);
  const index_t m = n > 0 ? front.numel() / n : 0;
  std::vector<std::int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), std::int64_t(0));
  std::vector<index_t> starts;
  DispatchDType(a.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using U = KeyType<T>;
    const T* x = front.data<T>();
    std::vector<U> k(front.numel());
    for (index_t i = 0; i < front.numel(); ++i) k[i] = ToKey(x[i], true);
    auto row_less = [&](std::int64_t p, std::int64_t q) {
      return std::lexicographical_compare(k.begin() + p * m, k.begin() + (p + 1) * m,
                                          k.begin() + q * m, k.begin() + (q + 1) * m);
    };
    std::stable_sort(perm.begin(), perm.end(), row_less);
    starts = GroupStarts(n, [&](index_t i) {
      return std::equal(k.begin() + perm[i] * m, k.begin() + (perm[i] + 1) * m,
                        k.begin() + perm[i - 1] * m);
    });
  });
  std::vector<std::int64_t> rows;
  for (index_t s : starts) rows.push_back(perm[s]);
  const NDArray picked = take(front, IndexArray(rows), 0);
  // Undo the permutation: dimension 0 of `picked` goes back to `ax`.
  std::vector<index_t> back(a.ndim());
  for (int i = 0; i < a.ndim(); ++i) back[perm_dims[i]] = i;
  r.values = picked.permute(back);
  FillUnique(&r, perm, starts, n, ri, rinv, rc);
  return r;
}

// Both flattened, cast to their promoted dtype.
std::pair<NDArray, NDArray> Common(const NDArray& a, const NDArray& b, const char* op) {
  sortstats::CheckInput(a, op);
  sortstats::CheckInput(b, op);
  const int flag = PromoteTypes(a.type_flag(), b.type_flag());
  return {astype(a.reshape({-1}), flag).contiguous(), astype(b.reshape({-1}), flag).contiguous()};
}

}  // namespace

UniqueResult unique(const NDArray& a, bool return_index, bool return_inverse, bool return_counts,
                    std::optional<index_t> axis, bool equal_nan) {
  sortstats::CheckInput(a, "unique");
  if (!axis) return UniqueFlat(a, return_index, return_inverse, return_counts, equal_nan);
  const int ax = sortstats::NormalizeAxis(*axis, a, "unique");
  return UniqueAxis(a, ax, return_index, return_inverse, return_counts);
}

NDArray in1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique, bool invert) {
  (void)assume_unique;  // the result is the same; sorting the test values serves both
  const auto ab = Common(ar1, ar2, "in1d");
  NDArray out = NDArray::Empty({ab.first.numel()}, kBool);
  DispatchDType(ab.first.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using U = KeyType<T>;
    const T* t = ab.second.data<T>();
    std::vector<U> keys;
    for (index_t i = 0; i < ab.second.numel(); ++i) {
      if (!sortstats::IsNan(t[i])) keys.push_back(ToKey(t[i], true));
    }
    std::sort(keys.begin(), keys.end());
    const T* e = ab.first.data<T>();
    bool* o = out.data<bool>();
    for (index_t i = 0; i < ab.first.numel(); ++i) {
      const bool found = !sortstats::IsNan(e[i]) &&
                         std::binary_search(keys.begin(), keys.end(), ToKey(e[i], true));
      o[i] = found != invert;
    }
  });
  return out;
}

NDArray isin(const NDArray& element, const NDArray& test_elements, bool assume_unique,
             bool invert) {
  return in1d(element, test_elements, assume_unique, invert).reshape(element.sizes());
}

IntersectResult intersect1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique,
                            bool return_indices) {
  const auto ab = Common(ar1, ar2, "intersect1d");
  NDArray v[2], idx[2];
  for (int s = 0; s < 2; ++s) {
    const NDArray& x = s == 0 ? ab.first : ab.second;
    if (assume_unique) {
      idx[s] = argsort(x, 0, "stable");
      v[s] = take(x, idx[s]);
    } else {
      UniqueResult u = unique(x, true);
      v[s] = u.values.contiguous();
      idx[s] = u.index;
    }
  }
  std::vector<std::int64_t> p1, p2;
  DispatchDType(v[0].type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = v[0].data<T>();
    const T* y = v[1].data<T>();
    index_t i = 0, j = 0;
    while (i < v[0].numel() && j < v[1].numel()) {
      if (sortstats::IsNan(x[i]) || sortstats::IsNan(y[j])) break;  // NaN sorts last
      const auto kx = ToKey(x[i], true), ky = ToKey(y[j], true);
      if (kx < ky) {
        ++i;
      } else if (ky < kx) {
        ++j;
      } else {
        p1.push_back(i++);
        p2.push_back(j++);
      }
    }
  });
  IntersectResult r;
  r.values = take(v[0], IndexArray(p1));
  if (return_indices) {
    r.indices1 = take(idx[0], IndexArray(p1));
    r.indices2 = take(idx[1], IndexArray(p2));
  }
  return r;
}

NDArray union1d(const NDArray& ar1, const NDArray& ar2) {
  const auto ab = Common(ar1, ar2, "union1d");
  return unique(cat({ab.first, ab.second}, 0)).values;
}

NDArray setdiff1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique) {
  sortstats::CheckInput(ar1, "setdiff1d");
  const NDArray u = assume_unique ? ar1.reshape({-1}) : unique(ar1).values;
  return extract(in1d(u, ar2, true, true), u);
}

NDArray setxor1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique) {
  const auto ab = Common(ar1, ar2, "setxor1d");
  const NDArray u1 = assume_unique ? ab.first : unique(ab.first).values;
  const NDArray u2 = assume_unique ? ab.second : unique(ab.second).values;
  const NDArray aux = sort(cat({u1, u2}, 0), 0).contiguous();
  const index_t n = aux.numel();
  std::vector<std::int64_t> keep;
  DispatchDType(aux.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* s = aux.data<T>();
    // Neighbours equal under ==: NaN never equals anything.
    auto eq = [&](index_t i, index_t j) {
      return !sortstats::IsNan(s[i]) && !sortstats::IsNan(s[j]) &&
             ToKey(s[i], true) == ToKey(s[j], true);
    };
    for (index_t i = 0; i < n; ++i) {
      if ((i == 0 || !eq(i, i - 1)) && (i + 1 == n || !eq(i, i + 1))) keep.push_back(i);
    }
  });
  return take(aux, IndexArray(keep));
}

}  // namespace shade
