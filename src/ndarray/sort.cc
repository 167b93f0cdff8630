// Sorting and searching (ndarray/sort.h). Every sort works on lanes: the sorted axis moved
// innermost in a contiguous copy (sortstats_internal.h), lanes spread over ParallelFor. Values
// become order-preserving unsigned keys (NaN last), so one sorter serves every dtype.
#include "shade/ndarray/sort.h"

#include <hwy/contrib/sort/vqsort.h>

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/promotion.h"
#include "shade/ndarray/shape_ops.h"
#include "sortstats_internal.h"

namespace shade {
namespace sortstats {

void CheckInput(const NDArray& a, const char* op) {
  SHADE_CHECK(a.defined()) << op << ": the NDArray is undefined";
  SHADE_CHECK_TYPE(a.dtype().initialized() && a.type_flag() >= 0)
      << op << ": element type " << (a.dtype().initialized() ? a.dtype().name() : "(none)")
      << " is not numeric";
  SHADE_CHECK(a.data_ptr() != nullptr || a.numel() == 0)
      << op << ": " << a << " has no memory allocated";
}

int NormalizeAxis(index_t axis, const NDArray& a, const char* op) {
  const std::vector<bool> mask = AxisSet(axis).Mask(a.sizes(), op);
  for (std::size_t d = 0; d < mask.size(); ++d) {
    if (mask[d]) return static_cast<int>(d);
  }
  SHADE_CHECK_INDEX(false) << op << ": axis " << axis
                           << " is out of bounds for an array of dimension " << a.ndim();
  return 0;
}

NDArray AxisLastCopy(const NDArray& a, int axis) {
  std::vector<index_t> perm;
  for (int d = 0; d < a.ndim(); ++d) {
    if (d != axis) perm.push_back(d);
  }
  perm.push_back(axis);
  const NDArray x = a.permute(perm);
  NDArray out = NDArray::Empty(x.sizes(), a.dtype());
  out.copy_(x);
  return out;
}

NDArray AxisBack(const NDArray& r, int axis) {
  const int nd = r.ndim();
  std::vector<index_t> perm;
  // r's dims are (the others in order..., axis): put the last one back at `axis`.
  for (int d = 0, src = 0; d < nd; ++d) perm.push_back(d == axis ? nd - 1 : src++);
  return r.permute(perm);
}

NDArray Flat(const NDArray& a, bool copy) {
  if (!copy) return a.reshape({-1});
  NDArray out = NDArray::Empty({a.numel()}, a.dtype());
  out.copy_(a.reshape({-1}));
  return out;
}

Lanes MakeLanes(const NDArray& a, const AxisSet& axes, const char* op) {
  CheckInput(a, op);
  const std::vector<bool> mask = axes.Mask(a.sizes(), op);
  Lanes l;
  std::vector<index_t> perm;
  l.n = 1;
  for (int d = 0; d < a.ndim(); ++d) {
    if (!mask[d]) {
      perm.push_back(d);
      l.kept.push_back(a.size(d));
      l.keep1.push_back(a.size(d));
    } else {
      l.keep1.push_back(1);
    }
  }
  for (int d = 0; d < a.ndim(); ++d) {
    if (mask[d]) {
      perm.push_back(d);
      l.n *= a.size(d);
    }
  }
  const NDArray x = a.permute(perm);
  if (x.is_contiguous()) {
    l.data = x;  // read only: no copy needed
  } else {
    l.data = NDArray::Empty(x.sizes(), a.dtype());
    l.data.copy_(x);
  }
  l.lanes = 1;
  for (index_t k : l.kept) l.lanes *= k;
  return l;
}

index_t LaneGrain(index_t n) {
  return std::max<index_t>(1, kMapGrain / std::max<index_t>(n, 1));
}

}  // namespace sortstats

namespace {

using sortstats::FromKey;
using sortstats::KeyType;
using sortstats::ToKey;

void CheckKind(const std::string& kind) {
  SHADE_CHECK(kind == "quicksort" || kind == "mergesort" || kind == "heapsort" || kind == "stable")
      << "sort kind must be one of 'quick', 'heap', or 'stable' (got '" << kind << "')";
}

// Sorts n values in place: keys, then vqsort (2-, 4-, 8-byte keys) or a counting sort (1 byte).
template <typename T>
void SortLane(T* x, index_t n, const hwy::Sorter& sorter) {
  using U = KeyType<T>;
  if constexpr (sizeof(T) == 1) {
    index_t count[256] = {};
    for (index_t i = 0; i < n; ++i) ++count[ToKey(x[i], false)];
    index_t pos = 0;
    for (int k = 0; k < 256; ++k) {
      const T v = FromKey<T>(static_cast<U>(k));
      for (index_t c = 0; c < count[k]; ++c) x[pos++] = v;
    }
  } else {
    U* keys = reinterpret_cast<U*>(x);
    for (index_t i = 0; i < n; ++i) {
      T v;
      std::memcpy(&v, x + i, sizeof(T));
      const U k = ToKey(v, false);
      std::memcpy(keys + i, &k, sizeof(U));
    }
    sorter(keys, static_cast<std::size_t>(n), hwy::SortAscending());
    for (index_t i = 0; i < n; ++i) {
      U k;
      std::memcpy(&k, keys + i, sizeof(U));
      const T v = FromKey<T>(k);
      std::memcpy(static_cast<void*>(x + i), &v, sizeof(T));
    }
  }
}

// Stable LSD radix sort of indices by unsigned keys: out[j] is the index of the j-th smallest
// key, ties in index order. Digits every key shares are skipped.
template <typename U>
void RadixArgsort(const U* key, index_t n, std::int64_t* out) {
  if (n < 128) {
    std::iota(out, out + n, std::int64_t(0));
    std::stable_sort(out, out + n,
                     [key](std::int64_t a, std::int64_t b) { return key[a] < key[b]; });
    return;
  }
  constexpr int kDigits = static_cast<int>(sizeof(U));
  std::vector<index_t> hist(static_cast<std::size_t>(kDigits) * 256, 0);
  for (index_t i = 0; i < n; ++i) {
    const U k = key[i];
    for (int d = 0; d < kDigits; ++d) ++hist[d * 256 + ((k >> (8 * d)) & 255)];
  }
  std::vector<U> kbuf[2] = {std::vector<U>(n), std::vector<U>(n)};
  std::vector<std::int64_t> ibuf[2] = {std::vector<std::int64_t>(n), std::vector<std::int64_t>(n)};
  const U* ks = key;
  const std::int64_t* is = nullptr;  // null: the identity permutation
  int cur = 0;
  for (int d = 0; d < kDigits; ++d) {
    index_t* h = &hist[d * 256];
    bool trivial = false;
    for (int b = 0; b < 256; ++b) {
      if (h[b] == n) trivial = true;
    }
    if (trivial) continue;
    index_t sum = 0;
    for (int b = 0; b < 256; ++b) {
      const index_t c = h[b];
      h[b] = sum;
      sum += c;
    }
    U* kd = kbuf[cur].data();
    std::int64_t* id = ibuf[cur].data();
    const int shift = 8 * d;
    for (index_t i = 0; i < n; ++i) {
      const U k = ks[i];
      const index_t p = h[(k >> shift) & 255]++;
      kd[p] = k;
      id[p] = is ? is[i] : i;
    }
    ks = kd;
    is = id;
    cur ^= 1;
  }
  if (is == nullptr) {
    std::iota(out, out + n, std::int64_t(0));
  } else {
    std::copy(is, is + n, out);
  }
}

// The keys (merged zeros, NaN last) of one contiguous lane.
template <typename T>
void LaneKeys(const T* x, index_t n, KeyType<T>* k) {
  for (index_t i = 0; i < n; ++i) k[i] = ToKey(x[i], true);
}

// Resolves axis=None (flatten) or an axis: the array to sort and the axis in it.
std::pair<NDArray, int> ResolveAxis(const NDArray& a, std::optional<index_t> axis, const char* op) {
  sortstats::CheckInput(a, op);
  if (!axis) return {a.reshape({-1}), 0};
  return {a, sortstats::NormalizeAxis(*axis, a, op)};
}

// Calls f(lane index, lane length) for every lane of an axis-last array of `lanes` rows of n.
template <typename F>
void ForLanes(index_t lanes, index_t n, F&& f) {
  ParallelFor(0, lanes, sortstats::LaneGrain(n), [&](index_t b, index_t e) {
    for (index_t l = b; l < e; ++l) f(l);
  });
}

// Sorted kth positions of a lane of n (negative count from the end); ValueError out of range.
std::vector<index_t> NormalizeKth(const std::vector<index_t>& kth, index_t n) {
  std::vector<index_t> out;
  for (index_t k : kth) {
    SHADE_CHECK(k >= -n && k < n) << "kth(=" << k << ") out of bounds (" << n << ")";
    out.push_back(k < 0 ? k + n : k);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

NDArray sort(const NDArray& a, std::optional<index_t> axis, const std::string& kind) {
  CheckKind(kind);
  const auto xa = ResolveAxis(a, axis, "sort");
  const NDArray x = xa.first;
  const int ax = xa.second;
  NDArray buf = sortstats::AxisLastCopy(x, ax);
  const index_t n = x.ndim() ? x.size(ax) : 1;
  if (buf.numel() == 0 || n <= 1) return sortstats::AxisBack(buf, ax);
  const index_t lanes = buf.numel() / n;
  DispatchDType(buf.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = buf.data<T>();
    ParallelFor(0, lanes, sortstats::LaneGrain(n), [&](index_t b, index_t e) {
      hwy::Sorter sorter;  // one scratch buffer per chunk
      for (index_t l = b; l < e; ++l) SortLane(data + l * n, n, sorter);
    });
  });
  return sortstats::AxisBack(buf, ax);
}

NDArray argsort(const NDArray& a, std::optional<index_t> axis, const std::string& kind) {
  CheckKind(kind);
  sortstats::CheckInput(a, "argsort");
  // NumPy 1.24 gives [0] for a rank-0 array (it sorts the array seen as 1-d).
  const NDArray src = a.ndim() == 0 ? a.reshape({1}) : a;
  const auto xa = ResolveAxis(
      src, axis ? std::optional<index_t>(a.ndim() == 0 ? 0 : *axis) : std::nullopt, "argsort");
  const NDArray x = xa.first;
  const int ax = xa.second;
  const NDArray buf = sortstats::AxisLastCopy(x, ax);
  NDArray out = NDArray::Empty(buf.sizes(), kInt64);
  const index_t n = x.size(ax);
  if (buf.numel() == 0) return sortstats::AxisBack(out, ax);
  const index_t lanes = buf.numel() / n;
  DispatchDType(buf.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* data = buf.data<T>();
    std::int64_t* o = out.data<std::int64_t>();
    ForLanes(lanes, n, [&](index_t l) {
      std::vector<KeyType<T>> keys(n);
      LaneKeys(data + l * n, n, keys.data());
      RadixArgsort(keys.data(), n, o + l * n);
    });
  });
  return sortstats::AxisBack(out, ax);
}

NDArray lexsort(const std::vector<NDArray>& keys, index_t axis) {
  SHADE_CHECK_TYPE(!keys.empty()) << "need sequence of keys with len > 0 in lexsort";
  for (std::size_t i = 0; i < keys.size(); ++i) {
    sortstats::CheckInput(keys[i], "lexsort");
    SHADE_CHECK(keys[i].sizes() == keys[0].sizes())
        << "all keys need to be the same shape: key " << i << " has shape " << keys[i].sizes()
        << ", key 0 " << keys[0].sizes();
  }
  if (keys[0].ndim() == 0) {
    NDArray out = NDArray::Empty({}, kInt64);
    *out.data<std::int64_t>() = 0;
    return out;
  }
  const int ax = sortstats::NormalizeAxis(axis, keys[0], "lexsort");
  std::vector<NDArray> bufs;
  for (const NDArray& k : keys) bufs.push_back(sortstats::AxisLastCopy(k, ax));
  NDArray out = NDArray::Empty(bufs[0].sizes(), kInt64);
  const index_t n = keys[0].size(ax);
  if (out.numel() == 0) return sortstats::AxisBack(out, ax);
  const index_t lanes = out.numel() / n;
  std::int64_t* o = out.data<std::int64_t>();
  ForLanes(lanes, n, [&](index_t l) {
    // LSD over the keys: each stable pass sorts the current order by the next more
    // significant key, so the last key decides first and earlier ones break its ties.
    std::vector<std::int64_t> perm(n), order(n), next(n);
    std::iota(perm.begin(), perm.end(), std::int64_t(0));
    for (const NDArray& b : bufs) {
      DispatchDType(b.type_flag(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* data = b.data<T>() + l * n;
        std::vector<KeyType<T>> k(n);
        for (index_t i = 0; i < n; ++i) k[i] = ToKey(data[perm[i]], true);
        RadixArgsort(k.data(), n, order.data());
      });
      for (index_t i = 0; i < n; ++i) next[i] = perm[order[i]];
      perm.swap(next);
    }
    std::copy(perm.begin(), perm.end(), o + l * n);
  });
  return sortstats::AxisBack(out, ax);
}

namespace {

template <bool kIndices>
NDArray PartitionImpl(const NDArray& a, const std::vector<index_t>& kth,
                      std::optional<index_t> axis, const char* op) {
  const auto xa = ResolveAxis(a, axis, op);
  const NDArray x = xa.first;
  const int ax = xa.second;
  const NDArray buf = sortstats::AxisLastCopy(x, ax);
  const index_t n = x.size(ax);
  const std::vector<index_t> ks = NormalizeKth(kth, n);
  NDArray out = kIndices ? NDArray::Empty(buf.sizes(), kInt64) : buf;
  if (buf.numel() == 0) return sortstats::AxisBack(out, ax);
  const index_t lanes = buf.numel() / n;
  DispatchDType(buf.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = buf.data<T>();
    ForLanes(lanes, n, [&](index_t l) {
      T* v = data + l * n;
      std::vector<KeyType<T>> keys(n);
      LaneKeys(v, n, keys.data());
      std::vector<std::int64_t> idx(n);
      std::iota(idx.begin(), idx.end(), std::int64_t(0));
      auto less = [&](std::int64_t p, std::int64_t q) { return keys[p] < keys[q]; };
      index_t lo = 0;
      for (index_t k : ks) {
        std::nth_element(idx.begin() + lo, idx.begin() + k, idx.end(), less);
        lo = k + 1;
      }
      if constexpr (kIndices) {
        std::copy(idx.begin(), idx.end(), out.data<std::int64_t>() + l * n);
      } else {
        std::vector<T> tmp(v, v + n);
        for (index_t i = 0; i < n; ++i) v[i] = tmp[idx[i]];
      }
    });
  });
  return sortstats::AxisBack(out, ax);
}

}  // namespace

NDArray partition(const NDArray& a, const std::vector<index_t>& kth, std::optional<index_t> axis) {
  return PartitionImpl<false>(a, kth, axis, "partition");
}

NDArray argpartition(const NDArray& a, const std::vector<index_t>& kth,
                     std::optional<index_t> axis) {
  return PartitionImpl<true>(a, kth, axis, "argpartition");
}

NDArray searchsorted(const NDArray& a, const NDArray& v, const std::string& side,
                     const NDArray& sorter) {
  sortstats::CheckInput(a, "searchsorted");
  sortstats::CheckInput(v, "searchsorted");
  SHADE_CHECK(side == "left" || side == "right")
      << "search side must be 'left' or 'right' (got '" << side << "')";
  SHADE_CHECK(a.ndim() >= 1) << "object of too small depth for desired array";
  SHADE_CHECK(a.ndim() <= 1) << "object too deep for desired array";
  NDArray base = a;
  if (sorter.defined()) {
    sortstats::CheckInput(sorter, "searchsorted");
    SHADE_CHECK_TYPE(KindOf(sorter.type_flag()) == DTypeKind::kSigned ||
                     KindOf(sorter.type_flag()) == DTypeKind::kUnsigned)
        << "sorter must only contain integers";
    SHADE_CHECK(sorter.ndim() == 1 && sorter.numel() == a.numel())
        << "sorter.size must equal a.size: sorter has shape " << sorter.sizes() << ", a "
        << a.sizes();
    const NDArray s = astype(sorter, kInt64).contiguous();
    const std::int64_t* sp = s.data<std::int64_t>();
    for (index_t i = 0; i < s.numel(); ++i) {
      SHADE_CHECK(sp[i] >= 0 && sp[i] < a.numel())
          << "Sorter index out of range: sorter[" << i << "] = " << sp[i] << " for a of size "
          << a.numel();
    }
    NDArray g = NDArray::Empty(a.sizes(), a.dtype());
    DispatchDType(a.type_flag(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const NDArray ac = a.contiguous();
      for (index_t i = 0; i < a.numel(); ++i) g.data<T>()[i] = ac.data<T>()[sp[i]];
    });
    base = g;
  }
  const int flag = PromoteTypes(a.type_flag(), v.type_flag());
  const NDArray ab = astype(base, flag).contiguous();
  const NDArray vb = astype(v, flag).contiguous();
  NDArray out = NDArray::Empty(v.sizes(), kInt64);
  const bool left = side == "left";
  DispatchDType(flag, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using U = KeyType<T>;
    const index_t n = ab.numel();
    std::vector<U> keys(n);
    LaneKeys(ab.data<T>(), n, keys.data());
    const T* vp = vb.data<T>();
    std::int64_t* o = out.data<std::int64_t>();
    // A binary search per element: the grain of a math-function map.
    ParallelFor(0, vb.numel(), kMathGrain, [&](index_t b, index_t e) {
      for (index_t i = b; i < e; ++i) {
        const U k = ToKey(vp[i], true);
        const auto it = left ? std::lower_bound(keys.begin(), keys.end(), k)
                             : std::upper_bound(keys.begin(), keys.end(), k);
        o[i] = it - keys.begin();
      }
    });
  });
  return out;
}

}  // namespace shade
