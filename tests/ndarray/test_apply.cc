// The strided-iteration engine: plans (collapse, reorder, broadcast merge, tiling), N = 1..4
// operands of different dtypes and layouts against naive loops, threading, order, errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ndarray_test_util.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/apply.h"
#include "shade/ndarray/ndarray.h"

namespace {

using shade::ApplyOptions;
using shade::ApplyPlan;
using shade::index_t;
using shade::IndexSpan;
using shade::NDArray;

ApplyPlan PlanOf(std::initializer_list<NDArray> arrays, bool ordered = false) {
  std::vector<NDArray> a(arrays);
  std::vector<IndexSpan> strides;
  std::vector<index_t> items;
  for (const auto& x : a) {
    strides.push_back(x.strides());
    items.push_back(static_cast<index_t>(x.itemsize()));
  }
  ApplyOptions opt;
  opt.ordered = ordered;
  return shade::MakeApplyPlan(a[0].sizes(), strides.data(), items.data(), static_cast<int>(a.size()), opt);
}

// Restores the thread count.
struct ThreadGuard {
  int n = shade::GetNumThreads();
  ~ThreadGuard() { shade::SetNumThreads(n); }
};

TEST(ApplyPlan, CollapsesContiguousDims) {
  NDArray a = NDArray::Empty<float>({4, 5, 6});
  ApplyPlan p = PlanOf({a});
  EXPECT_EQ(p.ndim, 1);
  EXPECT_EQ(p.sizes[0], 120);
  EXPECT_TRUE(p.inner_contiguous);
  EXPECT_FALSE(p.tiled);
  // Size-1 dims are skipped, as TH does.
  ApplyPlan q = PlanOf({a.unsqueeze(1).unsqueeze(3)});
  EXPECT_EQ(q.ndim, 1);
  // A narrowed inner dim breaks the merge there only.
  ApplyPlan r = PlanOf({a.narrow(2, 1, 4)});
  EXPECT_EQ(r.ndim, 2);
  EXPECT_EQ(r.sizes, (std::vector<index_t>{20, 4}));
  EXPECT_EQ(r.strides, (std::vector<index_t>{24, 4}));
  // Rank 0 and empty.
  EXPECT_EQ(PlanOf({NDArray::Empty<float>(IndexSpan())}).numel, 1);
  EXPECT_EQ(PlanOf({NDArray::Empty<float>({3, 0})}).numel, 0);
}

TEST(ApplyPlan, ReordersByTheFirstOperandsStrides) {
  NDArray a = NDArray::Empty<double>({3, 4});
  NDArray t = a.transpose(0, 1);  // sizes (4,3), strides (1,4)
  ApplyPlan p = PlanOf({t});
  EXPECT_EQ(p.ndim, 1);  // reordered back to memory order, then merged
  EXPECT_TRUE(p.inner_contiguous);
  ApplyPlan ordered = PlanOf({t}, true);
  EXPECT_EQ(ordered.ndim, 2);
  EXPECT_FALSE(ordered.inner_contiguous);
  // Two operands disagreeing: the first (the output) decides the order.
  NDArray out = NDArray::Empty<double>({4, 3});
  ApplyPlan two = PlanOf({out, t});
  EXPECT_EQ(two.ndim, 2);
  EXPECT_EQ(two.strides[1 * 2 + 0], 8);   // output inner stride: one double
  EXPECT_EQ(two.strides[1 * 2 + 1], 32);  // input walks a column
}

TEST(ApplyPlan, MergesBroadcastDims) {
  NDArray out = NDArray::Empty<float>({4, 5, 6});
  NDArray row = NDArray::Empty<float>({6}).expand({4, 5, 6});  // strides (0,0,1)
  ApplyPlan p = PlanOf({out, row});
  EXPECT_EQ(p.ndim, 2);
  EXPECT_EQ(p.sizes, (std::vector<index_t>{20, 6}));
  EXPECT_EQ(p.strides, (std::vector<index_t>{24, 0, 4, 4}));
  NDArray col = NDArray::Empty<float>({4, 1, 1}).expand({4, 5, 6});  // strides (1,0,0)
  ApplyPlan q = PlanOf({out, col});
  EXPECT_EQ(q.ndim, 2);
  EXPECT_EQ(q.sizes, (std::vector<index_t>{4, 30}));
  EXPECT_FALSE(q.inner_contiguous);  // the input repeats one element along the run
}

TEST(ApplyPlan, TilesTransposes) {
  NDArray out = NDArray::Empty<float>({256, 128});
  NDArray in = NDArray::Empty<float>({128, 256}).transpose(0, 1);
  ApplyPlan p = PlanOf({out, in});
  EXPECT_TRUE(p.tiled);
  EXPECT_EQ(p.tile, 64);
  EXPECT_FALSE(PlanOf({out, in}, true).tiled);
  EXPECT_FALSE(PlanOf({out, NDArray::Empty<float>({256, 128})}).tiled);
}

TEST(ApplyPlan, THSectionMatchesThePlanForOneOperand) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int rank = std::uniform_int_distribution<int>(1, 4)(rng);
    std::vector<index_t> sizes(rank);
    for (auto& s : sizes) s = std::uniform_int_distribution<index_t>(1, 4)(rng);
    NDArray a = NDArray::Empty<float>(sizes);
    NDArray v = a;
    if (rank >= 2 && trial % 2) v = v.transpose(0, rank - 1);
    if (trial % 3 == 0) v = v.narrow(rank - 1, 0, std::max<index_t>(1, v.size(-1) - 1));
    index_t dim, size, stride;
    shade::THContiguousSection(v.sizes(), v.strides(), &dim, &size, &stride);
    ApplyPlan p = PlanOf({v}, true);
    if (stride == 1) {
      // Unit inner stride: TH's section is exactly the plan's contiguous inner run.
      EXPECT_EQ(size, p.sizes.back()) << v;
      EXPECT_TRUE(p.inner_contiguous);
    } else {
      EXPECT_EQ(size, 1) << v;
    }
  }
}

// Random non-overlapping layout of `sizes`: a permuted and/or narrowed view of a bigger array.
template <typename T>
NDArray RandomLayout(std::mt19937& rng, const std::vector<index_t>& sizes) {
  const index_t nd = static_cast<index_t>(sizes.size());
  std::vector<index_t> perm(nd);
  for (index_t i = 0; i < nd; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<index_t> base_sizes(nd), pad(nd);
  for (index_t i = 0; i < nd; ++i) {
    pad[i] = std::uniform_int_distribution<index_t>(0, 2)(rng);
    base_sizes[i] = sizes[perm[i]] + pad[i];
  }
  NDArray base = NDArray::Empty<T>(base_sizes);
  for (index_t i = 0; i < nd; ++i) base = base.narrow(i, pad[i] > 0 ? 1 : 0, sizes[perm[i]]);
  std::vector<index_t> inv(nd);
  for (index_t i = 0; i < nd; ++i) inv[perm[i]] = i;
  return base.permute(inv);
}

std::vector<index_t> Coords(IndexSpan sizes, index_t i) {
  std::vector<index_t> c(sizes.size());
  for (std::size_t d = sizes.size(); d-- > 0;) {
    c[d] = i % sizes[d];
    i /= sizes[d];
  }
  return c;
}

TEST(Apply, FourOperandsOfFourDtypesAgainstNaiveLoops) {
  ThreadGuard guard;
  std::mt19937 rng(99);
  for (int threads : {1, 4}) {
    shade::SetNumThreads(threads);
    for (int trial = 0; trial < 40; ++trial) {
      const int rank = std::uniform_int_distribution<int>(0, 4)(rng);
      std::vector<index_t> sizes(rank);
      for (auto& s : sizes) s = std::uniform_int_distribution<index_t>(1, 9)(rng);
      NDArray out = RandomLayout<float>(rng, sizes);
      NDArray a = RandomLayout<double>(rng, sizes);
      NDArray b = RandomLayout<std::int32_t>(rng, sizes);
      NDArray c = RandomLayout<std::uint8_t>(rng, sizes);
      if (rank >= 1 && trial % 4 == 0) {  // a broadcast operand
        b = RandomLayout<std::int32_t>(rng, std::vector<index_t>(sizes.begin() + 1, sizes.end())).expand(sizes);
      }
      const index_t n = out.numel();
      for (index_t i = 0; i < n; ++i) {
        const auto idx = Coords(out.sizes(), i);
        a.set(idx, static_cast<double>(i % 17) * 0.5);
        if (b.is_non_overlapping()) b.set(idx, static_cast<double>(i % 5) - 2);
        c.set(idx, static_cast<double>(i % 7));
        out.set(idx, -1);
      }
      if (!b.is_non_overlapping()) {
        NDArray src = b.select(0, 0);
        for (index_t i = 0; i < src.numel(); ++i) src.set(Coords(src.sizes(), i), static_cast<double>(i % 5) - 2);
      }
      ApplyOptions opt;
      opt.grain = 3;  // split even tiny arrays across the threads
      shade::ApplyElementwise<float, double, std::int32_t, std::uint8_t>(
          [](float& o, double& x, std::int32_t& y, std::uint8_t& z) {
            o = static_cast<float>(x + static_cast<double>(y) * z);
          },
          opt, out, a, b, c);
      for (index_t i = 0; i < n; ++i) {
        const auto idx = Coords(out.sizes(), i);
        ASSERT_EQ(out.get(idx), static_cast<float>(a.get(idx) + b.get(idx) * c.get(idx))) << "trial " << trial;
      }
    }
  }
}

TEST(Apply, EveryElementVisitedOnceInAnyLayout) {
  ThreadGuard guard;
  shade::SetNumThreads(3);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    const int rank = std::uniform_int_distribution<int>(1, 5)(rng);
    std::vector<index_t> sizes(rank);
    for (auto& s : sizes) s = std::uniform_int_distribution<index_t>(1, trial % 2 && rank <= 2 ? 80 : 6)(rng);
    NDArray x = RandomLayout<std::int32_t>(rng, sizes);
    NDArray y = RandomLayout<std::int64_t>(rng, sizes);
    x.Fill(0);
    ApplyOptions opt;
    opt.grain = 64;
    shade::ApplyNDArrays<2>(
        {x, y},
        [](const shade::StridedRun<2>& r) {
          for (index_t i = 0; i < r.n; ++i) {
            *reinterpret_cast<std::int32_t*>(r.data[0] + i * r.stride[0]) += 1;
            if (r.contiguous) {
              EXPECT_EQ(r.stride[0], 4);
              EXPECT_EQ(r.stride[1], 8);
            }
          }
        },
        opt);
    for (index_t i = 0; i < x.numel(); ++i) ASSERT_EQ(x.get(Coords(x.sizes(), i)), 1.0) << x;
  }
}

TEST(Apply, TiledTransposeCopiesMatch) {
  ThreadGuard guard;
  for (int threads : {1, 3}) {
    shade::SetNumThreads(threads);
    for (index_t rows : {16, 100, 131}) {
      NDArray src = NDArray::Empty<double>({rows, 70});
      for (index_t i = 0; i < src.numel(); ++i) src.data<double>()[i] = static_cast<double>(i);
      NDArray dst = NDArray::Empty<float>({70, rows});
      dst.copy_(src.transpose(0, 1));  // tiled plan, cast double -> float
      NDArray same = NDArray::Empty<double>({70, rows});
      same.copy_(src.transpose(0, 1));  // tiled plan, raw 8-byte words
      NDArray back = NDArray::Empty<float>({rows, 70});
      back.copy_(dst.transpose(0, 1));  // tiled plan, 4-byte words: register-blocked 8x8 tiles
      NDArray part = NDArray::Empty<float>({rows - 3, 61});
      part.copy_(dst.transpose(0, 1).narrow(0, 2, rows - 3).narrow(1, 5, 61));  // ragged edges
      for (index_t i = 0; i < 70; ++i) {
        for (index_t j = 0; j < rows; ++j) {
          ASSERT_EQ(dst.at<float>(i, j), static_cast<float>(j * 70 + i));
          ASSERT_EQ(same.at<double>(i, j), static_cast<double>(j * 70 + i));
          ASSERT_EQ(back.at<float>(j, i), static_cast<float>(j * 70 + i));
          if (j >= 2 && j < rows - 1 && i >= 5 && i < 66) {
            ASSERT_EQ(part.at<float>(j - 2, i - 5), static_cast<float>(j * 70 + i));
          }
        }
      }
    }
  }
}

TEST(Apply, OneTwoThreeOperands) {
  NDArray a = NDArray::Empty<std::int64_t>({3, 4});
  NDArray b = NDArray::Empty<std::int64_t>({4, 3}).transpose(0, 1);
  NDArray c = NDArray::Empty<shade::half_t>({3, 4});
  index_t k = 0;
  ApplyOptions ordered;
  ordered.ordered = true;
  shade::ApplyElementwise<std::int64_t>([&k](std::int64_t& v) { v = k++; }, ordered, a);
  shade::ApplyElementwise<std::int64_t, std::int64_t>([](std::int64_t& o, std::int64_t& i) { o = 2 * i; },
                                                      ApplyOptions(), b, a);
  shade::ApplyElementwise<shade::half_t, std::int64_t, std::int64_t>(
      [](shade::half_t& o, std::int64_t& x, std::int64_t& y) { o = shade::half_t(x + y); }, ApplyOptions(), c, a, b);
  for (index_t i = 0; i < 3; ++i) {
    for (index_t j = 0; j < 4; ++j) {
      EXPECT_EQ(a.at<std::int64_t>(i, j), i * 4 + j);
      EXPECT_EQ(b.at<std::int64_t>(i, j), 2 * (i * 4 + j));
      EXPECT_EQ(c.get({i, j}), 3.0 * static_cast<double>(i * 4 + j));
    }
  }
}

TEST(Apply, OrderedVisitsRowMajorOrder) {
  NDArray a = NDArray::Empty<std::int32_t>({2, 3, 4}).permute({2, 0, 1});
  std::vector<index_t> seen;
  ApplyOptions ordered;
  ordered.ordered = true;
  index_t k = 0;
  shade::ApplyElementwise<std::int32_t>([&](std::int32_t& v) { v = static_cast<std::int32_t>(k++); }, ordered, a);
  for (index_t i = 0; i < 24; ++i) EXPECT_EQ(a.get(Coords(a.sizes(), i)), static_cast<double>(i));
}

TEST(Apply, ErrorsNameTheOperand) {
  NDArray a = NDArray::Empty<float>({2, 3});
  auto noop = [](const shade::StridedRun<2>&) {};
  shade_test::ExpectErrorContaining(
      [&] {
        shade::ApplyNDArrays<2>({a, NDArray::Empty<float>({3, 2})}, noop);
      },
      "operand 1 has sizes (3,2), operand 0 has (2,3)");
  shade_test::ExpectErrorContaining(
      [&] {
        shade::ApplyNDArrays<2>({a, NDArray()}, noop);
      },
      "operand 1 is an undefined NDArray");
  NDArray lazy({2, 3});
  lazy.mutable_data<float>();
  lazy.FreeMemory();
  shade_test::ExpectErrorContaining(
      [&] {
        shade::ApplyNDArrays<2>({a, lazy}, noop);
      },
      "has no memory allocated");
  shade_test::ExpectErrorContaining(
      [&] { shade::ApplyElementwise<double>([](double&) {}, ApplyOptions(), a); },
      "operand 0 holds float32");
  // A kernel's exception reaches the caller, from worker threads too.
  ThreadGuard guard;
  shade::SetNumThreads(4);
  NDArray big = NDArray::Empty<float>({64, 64});
  ApplyOptions opt;
  opt.grain = 16;
  shade_test::ExpectErrorContaining(
      [&] {
        shade::ApplyElementwise<float>([](float&) { SHADE_THROW << "kernel failed"; }, opt, big);
      },
      "kernel failed");
}

}  // namespace
