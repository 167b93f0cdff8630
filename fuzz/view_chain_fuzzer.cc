// libFuzzer target: random chains of views (transpose, permute, slice, select, unsqueeze,
// squeeze, expand, view, reshape, as_strided) over an int64 array whose elements are their own
// storage positions. After every step the library's result is checked against a reference that
// knows nothing of strides: the logical elements in row-major order, transformed by each op's
// index mapping, plus the op's validity rule (a valid op must succeed, an invalid one must throw
// shade::Error). Views must share the storage; only reshape may copy.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/ndarray/ndarray.h"

namespace {

using shade::index_t;
using Vec = std::vector<index_t>;

struct ByteReader {
  const std::uint8_t* p;
  std::size_t n;
  bool empty() const { return n == 0; }
  std::uint8_t Byte() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  index_t Small(int lo, int hi) { return lo + Byte() % (hi - lo + 1); }
};

// The reference: sizes and the elements in row-major order.
struct Ref {
  Vec sizes;
  std::vector<std::int64_t> values;
};

// The reference side (element lists, index maps, comparisons) is not what is being fuzzed:
// without coverage callbacks on its loops the target runs about twice as fast.
#define REFERENCE_CODE __attribute__((no_sanitize("coverage")))

REFERENCE_CODE index_t Numel(const Vec& s) {
  index_t n = 1;
  for (index_t v : s) n *= v;
  return n;
}

// Thrown by Gather for a view too large to check element by element: the step is skipped.
// (Repeated expands multiply the element count: 16 steps reached tens of millions of elements
// and ran the target at ~300 executions/s. Views that large are plain index maps like small
// ones; the threaded copy behind `contiguous()` has its own tests.)
struct TooLarge {};
constexpr index_t kMaxElements = index_t{1} << 12;

// Builds a reference from a function of the multi-index.
template <typename F>
REFERENCE_CODE Ref Gather(const Vec& sizes, F element) {
  Ref r{sizes, {}};
  index_t n = 1;
  for (index_t v : sizes) {
    if (v != 0 && n > kMaxElements / v) throw TooLarge{};  // before the product can overflow
    n *= v;
  }
  if (n > kMaxElements) throw TooLarge{};
  r.values.resize(static_cast<std::size_t>(n));
  Vec idx(sizes.size(), 0);
  for (index_t k = 0; k < n; ++k) {
    r.values[k] = element(idx);
    for (int d = static_cast<int>(sizes.size()) - 1; d >= 0; --d) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
  return r;
}

REFERENCE_CODE std::int64_t At(const Ref& r, const Vec& idx) {
  index_t flat = 0;
  for (std::size_t d = 0; d < r.sizes.size(); ++d) flat = flat * r.sizes[d] + idx[d];
  return r.values[flat];
}

bool WrapDim(index_t d, index_t rank, index_t* out) {
  if (d < -rank || d >= rank) return false;
  *out = d < 0 ? d + rank : d;
  return true;
}

REFERENCE_CODE void Compare(const shade::NDArray& a, const Ref& r) {
  if (a.ndim() != static_cast<int>(r.sizes.size())) __builtin_trap();
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.sizes()[d] != r.sizes[d]) __builtin_trap();
  }
  const shade::NDArray c = a.contiguous();
  if (c.numel() != static_cast<index_t>(r.values.size())) __builtin_trap();
  if (c.numel() > 0 && std::memcmp(c.raw_data(), r.values.data(), r.values.size() * 8) != 0)
    __builtin_trap();
}

// Python slice clamping for step >= 1.
index_t Clamp(index_t v, index_t n) {
  if (v < 0) v += n;
  return v < 0 ? 0 : (v > n ? n : v);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteReader in{data, size};
  // The base: a 1-D int64 storage whose every element (the allocation's slack included) holds
  // its own position, so an element's value names where a view read it from.
  Vec start_sizes(static_cast<std::size_t>(in.Small(0, 4)));
  for (index_t& s : start_sizes) s = in.Small(0, 5);
  const index_t base_numel = Numel(start_sizes);
  const index_t base_sizes[] = {base_numel};
  const shade::NDArray base = shade::NDArray::Empty(shade::IndexSpan(base_sizes, 1), shade::kInt64);
  const void* base_data = base.storage().data();
  const index_t capacity = static_cast<index_t>(base.storage().capacity() / 8);
  std::vector<std::int64_t> storage_values(static_cast<std::size_t>(capacity));
  for (index_t i = 0; i < capacity; ++i) {
    storage_values[i] = i;
    static_cast<std::int64_t*>(base.storage().data())[i] = i;
  }
  shade::NDArray a = base.view(shade::IndexSpan(start_sizes.data(), start_sizes.size()));
  Ref ref = Gather(start_sizes, [&](const Vec& idx) {
    index_t flat = 0;
    for (std::size_t d = 0; d < idx.size(); ++d) flat = flat * start_sizes[d] + idx[d];
    return static_cast<std::int64_t>(flat);
  });
  Compare(a, ref);

  for (int step = 0; step < 16 && !in.empty(); ++step) {
    const index_t rank = static_cast<index_t>(ref.sizes.size());
    const int op = in.Byte() % 10;
    bool valid = true;       // the reference's verdict
    bool may_throw = false;  // the op may legitimately refuse (view with incompatible strides)
    bool may_copy = false;
    Ref next;
    shade::NDArray result;
    bool threw = false;
    try {
      switch (op) {
        case 0: {  // transpose
          const index_t x = in.Small(-5, 4), y = in.Small(-5, 4);
          index_t dx = 0, dy = 0;
          valid = WrapDim(x, rank, &dx) && WrapDim(y, rank, &dy);
          if (valid) {
            Vec s = ref.sizes;
            std::swap(s[dx], s[dy]);
            next = Gather(s, [&](Vec idx) {
              std::swap(idx[dx], idx[dy]);
              return At(ref, idx);
            });
          }
          result = a.transpose(x, y);
          break;
        }
        case 1: {  // permute: a permutation (Fisher-Yates from the bytes) or, rarely, a bad list
          Vec dims(static_cast<std::size_t>(rank));
          for (index_t i = 0; i < rank; ++i) dims[i] = i;
          for (index_t i = rank - 1; i > 0; --i) std::swap(dims[i], dims[in.Byte() % (i + 1)]);
          const std::uint8_t corrupt = in.Byte();
          if (corrupt >= 240 && rank > 0) {
            dims[corrupt % rank] = dims[(corrupt / 16) % rank] + (corrupt % 2 ? rank : 0);
            // Still a permutation only when the write changed nothing.
            Vec seen(static_cast<std::size_t>(rank), 0);
            valid = true;
            for (index_t v : dims) {
              if (v < 0 || v >= rank || seen[v]++) valid = false;
            }
          }
          if (valid) {
            Vec s(static_cast<std::size_t>(rank));
            for (index_t i = 0; i < rank; ++i) s[i] = ref.sizes[dims[i]];
            next = Gather(s, [&](const Vec& idx) {
              Vec src(static_cast<std::size_t>(rank));
              for (index_t i = 0; i < rank; ++i) src[dims[i]] = idx[i];
              return At(ref, src);
            });
          }
          result = a.permute(shade::IndexSpan(dims.data(), dims.size()));
          break;
        }
        case 2: {  // slice
          const index_t dim = in.Small(-5, 4), lo = in.Small(-8, 8), hi = in.Small(-8, 8),
                        st = in.Small(0, 3);
          index_t d = 0;
          valid = WrapDim(dim, rank, &d) && st >= 1;
          if (valid) {
            const index_t n = ref.sizes[d], b = Clamp(lo, n), e = Clamp(hi, n);
            Vec s = ref.sizes;
            s[d] = e > b ? (e - b + st - 1) / st : 0;
            next = Gather(s, [&](Vec idx) {
              idx[d] = b + idx[d] * st;
              return At(ref, idx);
            });
          }
          result = a.slice(dim, lo, hi, st);
          break;
        }
        case 3: {  // select
          const index_t dim = in.Small(-5, 4), i = in.Small(-6, 5);
          index_t d = 0;
          valid = WrapDim(dim, rank, &d) && i >= -ref.sizes[d] && i < ref.sizes[d];
          if (valid) {
            const index_t wi = i < 0 ? i + ref.sizes[d] : i;
            Vec s = ref.sizes;
            s.erase(s.begin() + d);
            next = Gather(s, [&](Vec idx) {
              idx.insert(idx.begin() + d, wi);
              return At(ref, idx);
            });
          }
          result = a.select(dim, i);
          break;
        }
        case 4: {  // unsqueeze
          const index_t dim = in.Small(-6, 5);
          index_t d = 0;
          valid = WrapDim(dim, rank + 1, &d);
          if (valid) {
            Vec s = ref.sizes;
            s.insert(s.begin() + d, 1);
            next = Ref{s, ref.values};
          }
          result = a.unsqueeze(dim);
          break;
        }
        case 5: {  // squeeze() or squeeze(dim)
          const std::uint8_t form = in.Byte();
          Vec s;
          if (form % 2 == 0) {
            for (index_t v : ref.sizes) {
              if (v != 1) s.push_back(v);
            }
            result = a.squeeze();
          } else {
            const index_t dim = in.Small(-5, 4);
            index_t d = 0;
            valid = WrapDim(dim, rank, &d);
            s = ref.sizes;
            if (valid && s[d] == 1) s.erase(s.begin() + d);
            result = a.squeeze(dim);
          }
          next = Ref{s, ref.values};
          break;
        }
        case 6: {  // expand: -1, the same size, any size for a 1, new leading dims, rarely junk
          const index_t lead = in.Small(0, 3) % 3;
          Vec target;
          for (index_t i = 0; i < lead; ++i) target.push_back(in.Small(0, 3));
          for (index_t i = 0; i < rank; ++i) {
            const std::uint8_t c = in.Byte();
            const index_t cur = ref.sizes[i];
            target.push_back(c % 3 == 0 ? -1 : (c % 3 == 1 || cur != 1) ? cur : c % 5);
            if (c >= 250) target.back() = static_cast<index_t>(c % 7) - 2;  // maybe invalid
          }
          Vec s(target.size());
          for (std::size_t i = 0; i < target.size(); ++i) {
            const bool is_new = i < static_cast<std::size_t>(lead);
            const index_t cur = is_new ? 1 : ref.sizes[i - lead];
            const index_t want = target[i];
            if (want == -1) {
              s[i] = cur;
              if (is_new) valid = false;
            } else if (want < 0 || (cur != 1 && want != cur)) {
              valid = false;
            } else {
              s[i] = want;
            }
          }
          if (valid) {
            next = Gather(s, [&](const Vec& idx) {
              Vec src(static_cast<std::size_t>(rank));
              for (index_t i = 0; i < rank; ++i) src[i] = ref.sizes[i] == 1 ? 0 : idx[i + lead];
              return At(ref, src);
            });
          }
          result = a.expand(shade::IndexSpan(target.data(), target.size()));
          break;
        }
        case 7:
        case 8: {  // view / reshape to a new shape of the same count (one -1 allowed), rarely not
          Vec s(static_cast<std::size_t>(in.Small(0, 4)));
          for (index_t& v : s) v = in.Small(0, 6);
          const std::uint8_t c = in.Byte();
          const index_t numel = static_cast<index_t>(ref.values.size());
          // Make the last extent absorb the count when it can, so valid shapes are common.
          if (!s.empty() && c < 200) {
            index_t rest = 1;
            for (std::size_t i = 0; i + 1 < s.size(); ++i) rest *= s[i];
            if (rest > 0 && numel % rest == 0) s.back() = c < 100 ? numel / rest : -1;
          }
          index_t known = 1, minus = 0;
          for (index_t v : s) {
            if (v == -1) {
              ++minus;
            } else {
              known *= v;
            }
          }
          Vec out = s;
          if (minus == 0) {
            valid = known == numel;
          } else {
            valid = minus == 1 && known > 0 && numel % known == 0;
            for (index_t& v : out) {
              if (v == -1 && valid) v = numel / known;
            }
          }
          if (valid) next = Ref{out, ref.values};
          if (op == 7) {
            may_throw = true;  // strides may forbid a view
            result = a.view(shade::IndexSpan(s.data(), s.size()));
          } else {
            may_copy = true;
            result = a.reshape(shade::IndexSpan(s.data(), s.size()));
          }
          break;
        }
        default: {  // as_strided over the base storage (only while a still views it)
          if (a.storage().data() != base_data) continue;
          Vec s(static_cast<std::size_t>(in.Small(0, 3))), st(s.size());
          for (std::size_t i = 0; i < s.size(); ++i) {
            s[i] = in.Small(0, 4);
            st[i] = in.Small(-1, 6);
          }
          const index_t off = in.Small(-1, 12);
          __int128 last = off;
          bool neg = off < 0;
          index_t n = 1;
          for (std::size_t i = 0; i < s.size(); ++i) {
            n *= s[i];
            if (st[i] < 0) neg = true;
            if (s[i] > 0) last += __int128(s[i] - 1) * st[i];
          }
          if (n == 0) {
            may_throw = true;  // an empty view's offset rule is the library's choice
            valid = !neg;
          } else {
            valid = !neg && last < capacity;
          }
          if (valid) {
            next = Gather(s, [&](const Vec& idx) {
              index_t pos = off;
              for (std::size_t i = 0; i < idx.size(); ++i) pos += idx[i] * st[i];
              return storage_values[pos];
            });
          }
          result = a.as_strided(shade::IndexSpan(s.data(), s.size()),
                                shade::IndexSpan(st.data(), st.size()), off);
          break;
        }
      }
    } catch (const shade::Error&) {
      threw = true;
    } catch (const TooLarge&) {
      continue;
    }
    if (threw) {
      if (valid && !may_throw) __builtin_trap();  // a valid op was refused
      continue;
    }
    if (!valid) __builtin_trap();  // an invalid op was accepted
    Compare(result, next);
    if (!may_copy && result.storage().data() != a.storage().data())
      __builtin_trap();  // views share
    if (result.storage().data() != base_data) {
      // A reshape copy: its storage is the logical elements, contiguous.
      storage_values = next.values;
    }
    a = result;
    ref = std::move(next);
  }
  return 0;
}
