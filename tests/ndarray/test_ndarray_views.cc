// NDArray views: random chains of views checked element by element against an explicit index
// map (the naive oracle), contiguous() and copy_ of every view, many dtypes, view errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ndarray_test_util.h"
#include "shade/ndarray/ndarray.h"

namespace {

using shade::index_t;
using shade::IndexSpan;
using shade::NDArray;

// The oracle: logical sizes plus, for every logical index in row-major order, the storage index
// of its element, computed by enumerating coordinates (no strides involved).
struct Ref {
  std::vector<index_t> sizes;
  std::vector<index_t> map;
};

index_t Numel(const std::vector<index_t>& s) {
  index_t n = 1;
  for (index_t v : s) n *= v;
  return n;
}

// Coordinates of row-major linear index i.
std::vector<index_t> Coords(const std::vector<index_t>& sizes, index_t i) {
  std::vector<index_t> c(sizes.size());
  for (std::size_t d = sizes.size(); d-- > 0;) {
    c[d] = i % sizes[d];
    i /= sizes[d];
  }
  return c;
}

index_t Linear(const std::vector<index_t>& sizes, const std::vector<index_t>& c) {
  index_t i = 0;
  for (std::size_t d = 0; d < sizes.size(); ++d) i = i * sizes[d] + c[d];
  return i;
}

Ref Transform(const Ref& r, std::vector<index_t> new_sizes,
              const std::function<std::vector<index_t>(const std::vector<index_t>&)>& old_coord) {
  Ref out;
  out.sizes = std::move(new_sizes);
  const index_t n = Numel(out.sizes);
  out.map.resize(n);
  for (index_t i = 0; i < n; ++i) out.map[i] = r.map[Linear(r.sizes, old_coord(Coords(out.sizes, i)))];
  return out;
}

template <typename T>
T ValueOf(index_t storage_index) {
  if constexpr (std::is_same<T, bool>::value) {
    return storage_index % 3 == 1;
  } else {
    return static_cast<T>(static_cast<float>(storage_index % 251));
  }
}

template <typename T>
double AsDouble(T v) {
  return static_cast<double>(static_cast<float>(v));
}

// One random view step applied to both the NDArray and the oracle.
void RandomStep(std::mt19937& rng, NDArray& a, Ref& r, std::string& trace) {
  const index_t nd = static_cast<index_t>(r.sizes.size());
  auto pick = [&rng](index_t lo, index_t hi) { return std::uniform_int_distribution<index_t>(lo, hi)(rng); };
  const int op = static_cast<int>(pick(0, 7));
  if (op == 0 && nd >= 1) {  // transpose (negative dims too)
    const index_t x = pick(0, nd - 1), y = pick(0, nd - 1);
    a = a.transpose(x - (pick(0, 1) ? nd : 0), y);
    std::vector<index_t> s = r.sizes;
    std::swap(s[x], s[y]);
    r = Transform(r, s, [x, y](std::vector<index_t> c) {
      std::swap(c[x], c[y]);
      return c;
    });
    trace += "transpose(" + std::to_string(x) + "," + std::to_string(y) + ") ";
  } else if (op == 1 && nd >= 1) {  // narrow
    const index_t d = pick(0, nd - 1);
    const index_t start = pick(0, r.sizes[d]);
    const index_t len = pick(0, r.sizes[d] - start);
    a = a.narrow(d, start, len);
    std::vector<index_t> s = r.sizes;
    s[d] = len;
    r = Transform(r, s, [d, start](std::vector<index_t> c) {
      c[d] += start;
      return c;
    });
    trace += "narrow(" + std::to_string(d) + "," + std::to_string(start) + "," + std::to_string(len) + ") ";
  } else if (op == 2 && nd >= 1) {  // select
    const index_t d = pick(0, nd - 1);
    if (r.sizes[d] == 0) return;
    const index_t i = pick(0, r.sizes[d] - 1);
    a = a.select(d, i - (pick(0, 1) ? r.sizes[d] : 0));
    std::vector<index_t> s = r.sizes;
    s.erase(s.begin() + d);
    r = Transform(r, s, [d, i](std::vector<index_t> c) {
      c.insert(c.begin() + d, i);
      return c;
    });
    trace += "select(" + std::to_string(d) + "," + std::to_string(i) + ") ";
  } else if (op == 3) {  // expand: size-1 dims grow, maybe a new leading dim
    std::vector<index_t> target = r.sizes;
    for (auto& t : target) {
      if (t == 1) t = pick(1, 3);
    }
    const bool lead = nd < 5 && pick(0, 1);
    if (lead) target.insert(target.begin(), pick(1, 3));
    a = a.expand(target);
    const std::vector<index_t> old = r.sizes;
    r = Transform(r, target, [old, lead](std::vector<index_t> c) {
      if (lead) c.erase(c.begin());
      for (std::size_t d = 0; d < c.size(); ++d) {
        if (old[d] == 1) c[d] = 0;
      }
      return c;
    });
    trace += "expand ";
  } else if (op == 4 && nd >= 1) {  // permute
    std::vector<index_t> p(nd);
    for (index_t i = 0; i < nd; ++i) p[i] = i;
    std::shuffle(p.begin(), p.end(), rng);
    a = a.permute(p);
    std::vector<index_t> s(nd);
    for (index_t i = 0; i < nd; ++i) s[i] = r.sizes[p[i]];
    r = Transform(r, s, [p](const std::vector<index_t>& c) {
      std::vector<index_t> o(c.size());
      for (std::size_t i = 0; i < c.size(); ++i) o[p[i]] = c[i];
      return o;
    });
    trace += "permute ";
  } else if (op == 5) {  // squeeze (all or one dim)
    if (nd >= 1 && pick(0, 1)) {
      const index_t d = pick(0, nd - 1);
      a = a.squeeze(d);
      if (r.sizes[d] != 1) return;
      std::vector<index_t> s = r.sizes;
      s.erase(s.begin() + d);
      r = Transform(r, s, [d](std::vector<index_t> c) {
        c.insert(c.begin() + d, 0);
        return c;
      });
    } else {
      a = a.squeeze();
      std::vector<index_t> s;
      for (index_t v : r.sizes) {
        if (v != 1) s.push_back(v);
      }
      const std::vector<index_t> old = r.sizes;
      r = Transform(r, s, [old](const std::vector<index_t>& c) {
        std::vector<index_t> o;
        std::size_t k = 0;
        for (index_t v : old) o.push_back(v == 1 ? 0 : c[k++]);
        return o;
      });
    }
    trace += "squeeze ";
  } else if (op == 6 && nd < 6) {  // unsqueeze
    const index_t d = pick(0, nd);
    a = a.unsqueeze(d);
    std::vector<index_t> s = r.sizes;
    s.insert(s.begin() + d, 1);
    r = Transform(r, s, [d](std::vector<index_t> c) {
      c.erase(c.begin() + d);
      return c;
    });
    trace += "unsqueeze(" + std::to_string(d) + ") ";
  } else if (op == 7 && nd >= 1) {  // slice with a step
    const index_t d = pick(0, nd - 1);
    const index_t n = r.sizes[d];
    const index_t start = pick(0, n), step = pick(1, 3);
    const index_t end = pick(start, n);
    a = a.slice(d, start, end, step);
    std::vector<index_t> s = r.sizes;
    s[d] = (end - start + step - 1) / step;
    r = Transform(r, s, [d, start, step](std::vector<index_t> c) {
      c[d] = start + c[d] * step;
      return c;
    });
    trace += "slice ";
  }
}

template <typename T>
class ViewChains : public ::testing::Test {};
using ViewTypes = ::testing::Types<float, double, std::int32_t, std::int64_t, std::uint8_t, bool, shade::half_t>;
TYPED_TEST_SUITE(ViewChains, ViewTypes);

TYPED_TEST(ViewChains, RandomChainsMatchTheIndexMap) {
  using T = TypeParam;
  std::mt19937 rng(1234 + shade::DataType<T>::kFlag);
  for (int trial = 0; trial < 80; ++trial) {
    const index_t rank = std::uniform_int_distribution<index_t>(0, 4)(rng);
    std::vector<index_t> sizes(rank);
    for (auto& s : sizes) s = std::uniform_int_distribution<index_t>(trial % 10 == 0 ? 0 : 1, 5)(rng);
    NDArray base = NDArray::Empty<T>(sizes);
    for (index_t i = 0; i < base.numel(); ++i) base.data<T>()[i] = ValueOf<T>(i);
    Ref r{sizes, {}};
    r.map.resize(Numel(sizes));
    for (index_t i = 0; i < Numel(sizes); ++i) r.map[i] = i;
    NDArray v = base;
    std::string trace;
    const int steps = std::uniform_int_distribution<int>(0, 6)(rng);
    for (int s = 0; s < steps; ++s) RandomStep(rng, v, r, trace);
    SCOPED_TRACE(trace);
    ASSERT_EQ(v.sizes().vec(), r.sizes);
    ASSERT_EQ(v.numel(), Numel(r.sizes));
    ASSERT_TRUE(v.storage().is_alias_of(base.storage()));
    // Element by element: the strided offset equals the oracle's storage index.
    for (index_t i = 0; i < v.numel(); ++i) {
      const std::vector<index_t> c = Coords(r.sizes, i);
      const T* p = &v.at<T>(IndexSpan(c));
      ASSERT_EQ(p - base.data<T>(), r.map[i]) << "element " << i;
      ASSERT_EQ(v.get(c), AsDouble(ValueOf<T>(r.map[i])));
    }
    // contiguous() of every view: row-major copy of the oracle's elements.
    NDArray c = v.contiguous();
    ASSERT_TRUE(c.is_contiguous());
    if (v.is_contiguous()) {
      ASSERT_TRUE(c.is_same(v));
    }
    const T* cd = c.data<T>();
    for (index_t i = 0; i < c.numel(); ++i) ASSERT_EQ(AsDouble(cd[i]), AsDouble(ValueOf<T>(r.map[i])));
    // copy_ into a permuted double destination (another layout, another dtype).
    std::vector<index_t> perm(r.sizes.size());
    for (std::size_t k = 0; k < perm.size(); ++k) perm[k] = static_cast<index_t>(perm.size() - 1 - k);
    std::vector<index_t> psizes(r.sizes.rbegin(), r.sizes.rend());
    NDArray dst = NDArray::Empty<double>(psizes).permute(perm);
    ASSERT_EQ(dst.sizes().vec(), r.sizes);
    dst.copy_(v);
    for (index_t i = 0; i < v.numel(); ++i) {
      ASSERT_EQ(dst.get(Coords(r.sizes, i)), AsDouble(ValueOf<T>(r.map[i])));
    }
    // ... and back into a T array of yet another layout (a narrowed column block).
    std::vector<index_t> wider = r.sizes;
    if (!wider.empty()) wider.back() += 2;
    NDArray holder = NDArray::Empty<T>(wider);
    NDArray back = wider.empty() ? holder : holder.narrow(-1, 1, r.sizes.back());
    back.copy_(dst);
    for (index_t i = 0; i < v.numel(); ++i) {
      ASSERT_EQ(back.get(Coords(r.sizes, i)), AsDouble(ValueOf<T>(r.map[i])));
    }
  }
}

TEST(Views, IsContiguousAndStrides) {
  NDArray a = NDArray::Empty<float>({2, 3, 4});
  EXPECT_EQ(a.strides(), IndexSpan({12, 4, 1}));
  EXPECT_TRUE(a.is_contiguous());
  EXPECT_FALSE(a.transpose(0, 2).is_contiguous());
  EXPECT_TRUE(a.narrow(0, 1, 1).is_contiguous());
  EXPECT_FALSE(a.narrow(2, 1, 2).is_contiguous());
  EXPECT_TRUE(a.select(0, 1).is_contiguous());
  EXPECT_EQ(a.select(0, 1).storage_offset(), 12);
  EXPECT_TRUE(a.unsqueeze(1).is_contiguous());
  EXPECT_EQ(a.unsqueeze(-1).sizes(), IndexSpan({2, 3, 4, 1}));
  EXPECT_EQ(a.size(-1), 4);
  EXPECT_EQ(a.stride(-3), 12);
  NDArray e = a.select(2, 0).unsqueeze(2).expand({2, 3, 5});
  EXPECT_EQ(e.strides(), IndexSpan({12, 4, 0}));
  EXPECT_FALSE(e.is_non_overlapping());
  EXPECT_TRUE(a.is_non_overlapping());
  EXPECT_TRUE(a.permute({2, 0, 1}).is_non_overlapping());
  // Rank 0 and 0-size.
  NDArray s = NDArray::Empty<double>(IndexSpan());
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.numel(), 1);
  s.at<double>() = 2.5;
  EXPECT_EQ(s.get({}), 2.5);
  NDArray z = NDArray::Empty<float>({3, 0, 2});
  EXPECT_EQ(z.numel(), 0);
  EXPECT_TRUE(z.is_contiguous());
  EXPECT_EQ(z.transpose(0, 2).contiguous().numel(), 0);
}

TEST(Views, ViewAndReshapeCopyOnlyWhenRequired) {
  NDArray a = NDArray::Empty<float>({4, 6});
  for (index_t i = 0; i < 24; ++i) a.data<float>()[i] = static_cast<float>(i);
  NDArray v = a.view({2, -1, 3});
  EXPECT_EQ(v.sizes(), IndexSpan({2, 4, 3}));
  EXPECT_TRUE(v.storage().is_alias_of(a.storage()));
  // A column block is viewable when the merged dims stay contiguous with each other.
  NDArray cols = a.narrow(1, 0, 3);  // (4,3) strides (6,1)
  NDArray cv = cols.view({4, 3, 1});
  EXPECT_TRUE(cv.storage().is_alias_of(a.storage()));
  try {
    cols.view({12});
    FAIL();
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("use reshape() instead"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("(12,)"), std::string::npos);
  }
  NDArray r = cols.reshape({12});  // needs a copy
  EXPECT_FALSE(r.storage().is_alias_of(a.storage()));
  for (index_t i = 0; i < 12; ++i) EXPECT_EQ(r.at<float>(i), static_cast<float>((i / 3) * 6 + i % 3));
  NDArray r1 = a.transpose(0, 1).reshape({6, 2, 2});  // splitting a dim: still a view
  EXPECT_TRUE(r1.storage().is_alias_of(a.storage()));
  EXPECT_EQ(r1.strides(), IndexSpan({1, 12, 6}));
  EXPECT_EQ(r1.at<float>(1, 0, 1), a.at<float>(1, 1));
  NDArray r2 = a.transpose(0, 1).reshape({24});  // merging across strides: copy
  EXPECT_FALSE(r2.storage().is_alias_of(a.storage()));
  for (index_t i = 0; i < 24; ++i) EXPECT_EQ(r2.at<float>(i), a.at<float>(i % 4, i / 4));
  NDArray r3 = a.reshape({24});  // viewable: alias
  EXPECT_TRUE(r3.storage().is_alias_of(a.storage()));
  // A transposed tensor can still be viewed by splitting a dim.
  NDArray t = a.transpose(0, 1).view({3, 2, 4});
  EXPECT_TRUE(t.storage().is_alias_of(a.storage()));
  EXPECT_EQ(t.at<float>(2, 1, 3), a.at<float>(3, 5));
  EXPECT_THROW(a.view({5, -1}), shade::Error);
  EXPECT_THROW(a.view({-1, -1}), shade::Error);
  EXPECT_THROW(a.view({5, 5}), shade::Error);
}

TEST(Views, AsStridedIsValidatedAgainstTheStorage) {
  NDArray a = NDArray::Empty<std::int32_t>({10});
  for (int i = 0; i < 10; ++i) a.data<std::int32_t>()[i] = i;
  NDArray w = a.as_strided({4, 3}, {2, 1});  // sliding windows
  EXPECT_EQ(w.at<std::int32_t>(3, 2), 8);
  EXPECT_FALSE(w.is_non_overlapping());
  NDArray o = a.as_strided({2}, {3}, 4);
  EXPECT_EQ(o.at<std::int32_t>(1), 7);
  try {
    a.as_strided({4, 3}, {3, 1});  // reaches element 11 of 10
    FAIL();
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("reach element 11, outside the storage of 10 elements"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(a.as_strided({2}, {1}, 9), shade::Error);
  EXPECT_THROW(a.as_strided({2}, {-1}, 5), shade::Error);
  EXPECT_THROW(a.as_strided({2}, {1}, -1), shade::Error);
  EXPECT_THROW(a.as_strided({2, 2}, {1}), shade::Error);
  EXPECT_THROW(a.as_strided({-2}, {1}), shade::Error);
  EXPECT_THROW(a.as_strided({index_t(1) << 62, 4}, {index_t(1) << 62, 1}), shade::Error);
  EXPECT_EQ(a.as_strided({0, 5}, {100, 100}, 10).numel(), 0);  // empty: reaches nothing
  // Writing into an overlapping view throws.
  try {
    w.Fill(1);
    FAIL();
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("overlap"), std::string::npos);
  }
}

TEST(Views, BadDimsAndIndicesNameTheValues) {
  NDArray a = NDArray::Empty<float>({2, 3});
  shade_test::ExpectErrorContaining(
      [&] { a.transpose(0, 2); },
      "dimension 2 is out of range for a rank-2 NDArray (expected in [-2, 1])");
  shade_test::ExpectErrorContaining([&] { a.size(-3); }, "dimension -3");
  shade_test::ExpectErrorContaining([&] { a.select(1, 3); },
                                    "index 3 is out of range for dimension 1 of size 3");
  shade_test::ExpectErrorContaining([&] { a.narrow(1, 2, 2); },
                                    "start 2 + length 2 exceeds size 3");
  shade_test::ExpectErrorContaining([&] { a.permute({0, 0}); }, "dimension 0 repeated");
  shade_test::ExpectErrorContaining([&] { a.permute({0}); }, "names 1 dimensions of a rank-2");
  shade_test::ExpectErrorContaining(
      [&] {
        a.expand({4, 3, 5});
      },
      "expanded size 5 must match the existing size 3");
  shade_test::ExpectErrorContaining([&] { a.expand({3}); }, "at least the rank 2");
  shade_test::ExpectErrorContaining([&] { a.unsqueeze(4); }, "unsqueeze: dimension 4");
  shade_test::ExpectErrorContaining([&] { a.slice(0, 0, 2, 0); }, "step must be positive");
  shade_test::ExpectErrorContaining([&] { a.at<float>(1, 3); },
                                    "index 3 is out of range for dimension 1 of size 3");
  shade_test::ExpectErrorContaining([&] { a.at<float>(1); }, "has 1 entries for a rank-2");
  shade_test::ExpectErrorContaining(
      [&] { a.at<double>(0, 0); },
      "caller expects elements to be float64 while tensor contains float32");
  shade_test::ExpectErrorContaining([&] { a.accessor<float, 3>(); }, "rank 2, the accessor rank 3");
  NDArray s = NDArray::Empty<float>(IndexSpan());
  shade_test::ExpectErrorContaining([&] { s.select(0, 0); }, "rank-0");
  // slice clamps like Python and counts negatives from the end.
  EXPECT_EQ(a.slice(1, -2, 100).sizes(), IndexSpan({2, 2}));
  EXPECT_EQ(a.slice(1, 2, 1).size(1), 0);
  EXPECT_EQ(a.select(-1, -1).storage_offset(), 2);
}

TEST(Views, AccessorIsUncheckedAndFast) {
  NDArray a = NDArray::Empty<double>({3, 4, 5});
  for (index_t i = 0; i < a.numel(); ++i) a.data<double>()[i] = static_cast<double>(i);
  NDArray t = a.permute({2, 0, 1});
  auto acc = t.accessor<double, 3>();
  for (index_t i = 0; i < 5; ++i) {
    for (index_t j = 0; j < 3; ++j) {
      for (index_t k = 0; k < 4; ++k) {
        ASSERT_EQ(acc[i][j][k], static_cast<double>(j * 20 + k * 5 + i));
      }
    }
  }
  acc[1][2][3] = -1;
  EXPECT_EQ(a.at<double>(2, 3, 1), -1);
  EXPECT_EQ(acc.size(0), 5);
  EXPECT_EQ(acc.stride(0), 1);
}

}  // namespace
