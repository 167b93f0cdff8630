// Fusion of lazy NDArray expressions: `c = a * b + exp(d)` allocates nothing but c's storage
// (shade::AllocationCount counts every array buffer; a replaced global operator new shows that
// no other large block is taken either), the fused result equals NumPy's op-by-op evaluation
// bit for bit (each node keeps its own NEP 50 dtype), and an Expr kept in `auto` keeps its
// operands alive by refcount.
// GCC sees the replaced operator new call malloc and the standard delete call free, and warns
// about a mismatch that the replacements below make correct.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>

#include "shade/memory/alloc.h"
#include "shade/ndarray/ops.h"

namespace {
std::atomic<std::size_t> g_new_count{0};
std::atomic<std::size_t> g_new_max{0};
}  // namespace

// Counting replacements of the global allocation functions (every operator new of the test
// program goes through here).
void* operator new(std::size_t n) {
  g_new_count.fetch_add(1, std::memory_order_relaxed);
  std::size_t m = g_new_max.load(std::memory_order_relaxed);
  while (n > m && !g_new_max.compare_exchange_weak(m, n)) {
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace shade {
namespace {

NDArray Pattern(std::vector<index_t> shape, int flag, double scale, double offset) {
  NDArray a = NDArray::Empty(shape, flag);
  DispatchDType(flag, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(a.data_ptr());
    for (index_t i = 0; i < a.numel(); ++i) p[i] = T(std::fmod(i * scale, 5.0) + offset);
  });
  return a;
}

struct Counts {
  std::uint64_t arrays;  // AlignedAlloc calls (array storage)
  std::size_t news;      // operator new calls
  std::size_t max_new;   // largest operator new request
};

template <typename F>
Counts Count(F&& f) {
  const std::uint64_t a0 = AllocationCount();
  g_new_max.store(0);
  const std::size_t n0 = g_new_count.load();
  f();
  return Counts{AllocationCount() - a0, g_new_count.load() - n0, g_new_max.load()};
}

bool SameBits(const NDArray& x, const NDArray& y) {
  if (x.type_flag() != y.type_flag() || x.sizes() != y.sizes()) return false;
  NDArray cx = x.contiguous(), cy = y.contiguous();
  return std::memcmp(cx.data_ptr(), cy.data_ptr(), cx.nbytes()) == 0;
}

TEST(DynFusion, FusedExpressionAllocatesOnlyTheResult) {
  const index_t n = index_t(1) << 18;  // large enough to run threaded
  NDArray a = Pattern({n}, kFloat32, 0.3, -1), b = Pattern({n}, kFloat32, 0.7, 0.5),
          d = Pattern({n}, kFloat32, 0.1, -2);
  NDArray c;
  const Counts k = Count([&] { c = a * b + exp(d); });
  EXPECT_EQ(k.arrays, 1u);              // c's storage, nothing else
  EXPECT_LT(k.max_new, std::size_t(1024));  // the impl/storage headers only, no hidden temporary
  EXPECT_LE(k.news, 4u);
  ASSERT_EQ(c.numel(), n);
  // Op by op (each step a separate pass with its own temporary) gives the same bits.
  NDArray t1 = a * b, t2 = exp(d);
  NDArray ref = t1 + t2;
  EXPECT_TRUE(SameBits(c, ref));
  // Into an existing array: nothing at all is allocated.
  const Counts k2 = Count([&] { (a * b + exp(d)).eval(c); });
  EXPECT_EQ(k2.arrays, 0u);
  EXPECT_LT(k2.max_new, std::size_t(1024));
  EXPECT_TRUE(SameBits(c, ref));
  const Counts k3 = Count([&] { c += a * b; });
  EXPECT_EQ(k3.arrays, 0u);
}

TEST(DynFusion, SmallResultIsOneAllocationAndNoNew) {
  // A small result (NDArray::Empty's single-allocation path: impl, storage and data in one
  // block) is one counted allocation and takes nothing from operator new.
  NDArray a = Pattern({4}, kFloat32, 0.3, -1), b = Pattern({4}, kFloat32, 0.7, 0.5);
  NDArray c;
  const Counts k = Count([&] { c = a + b; });
  EXPECT_EQ(k.arrays, 1u);
  EXPECT_EQ(k.news, 0u);
  for (index_t i = 0; i < 4; ++i) EXPECT_EQ(c.at<float>(i), a.at<float>(i) + b.at<float>(i));
  // The Expr of two arrays still holds both by refcount until it is evaluated.
  auto e = a + b;
  static_assert(std::is_same<decltype(e), Expr>::value, "a + b on two NDArrays is an Expr");
  a = NDArray();
  NDArray later = e;
  EXPECT_TRUE(SameBits(later, c));
}

TEST(DynFusion, BroadcastStridedOperandsStillOnePass) {
  const index_t m = 384;
  NDArray col = Pattern({m, 1}, kFloat32, 0.3, -1), row = Pattern({1, m}, kFloat32, 0.7, 0);
  NDArray t = Pattern({m, m}, kFloat32, 0.01, -1).transpose(0, 1);  // non-contiguous
  NDArray c;
  const Counts k = Count([&] { c = col * row + exp(t) - 0.5; });
  EXPECT_EQ(k.arrays, 1u);
  EXPECT_LT(k.max_new, std::size_t(4096));  // plus the apply plan's small vectors
  NDArray ref = (col * row).eval() + exp(t).eval();
  ref = ref - 0.5;
  EXPECT_TRUE(SameBits(c, ref));
}

TEST(DynFusion, MixedDTypesKeepPerNodeNumPyDTypes) {
  // int16 * float32 -> float32; exp(int8) -> float16 (NumPy's float rule); float32 + float16 ->
  // float32: the fused pass rounds the exp to float16 exactly where NumPy would.
  NDArray a = Pattern({1000}, kInt16, 3, -2), b = Pattern({1000}, kFloat32, 0.37, 0.1),
          d = Pattern({1000}, kInt8, 1, -2);
  NDArray fused = a * b + exp(d);
  ASSERT_EQ(fused.type_flag(), kFloat32);
  NDArray e = exp(d);
  ASSERT_EQ(e.type_flag(), kFloat16);
  NDArray ab = a * b;
  NDArray ref = ab + e;
  EXPECT_TRUE(SameBits(fused, ref));
  // where/compare inside a fused expression.
  NDArray w = where(a > 0, b * 2, -b) + 1;
  for (index_t i = 0; i < 1000; i += 37) {
    const float bv = b.at<float>(i);
    EXPECT_EQ(w.at<float>(i), (a.at<std::int16_t>(i) > 0 ? bv * 2 : -bv) + 1.0f);
  }
}

TEST(DynFusion, ExprInAutoKeepsOperandsAlive) {
  NDArray a = Pattern({64}, kFloat64, 1, 0), b = Pattern({64}, kFloat64, 0.5, 1);
  const long before = a.use_count();  // NOLINT
  auto e = a * b + 1;                  // an Expr, nothing computed
  static_assert(std::is_same<decltype(e), Expr>::value, "operators build Expr");
  EXPECT_EQ(a.use_count(), before + 1);  // held by refcount
  NDArray ref = e;
  a = NDArray();  // the only names are gone
  b = NDArray();
  NDArray later = e.eval();
  EXPECT_TRUE(SameBits(later, ref));
  // Evaluated when used (like a view): changes to the operands show.
  NDArray x = Pattern({4}, kInt32, 1, 0);
  auto twice = x * 2;
  x.Fill(5);
  NDArray r = twice;
  for (index_t i = 0; i < 4; ++i) EXPECT_EQ(r.at<std::int32_t>(i), 10);
  // Copies of an Expr share the operands.
  Expr copy = twice;
  EXPECT_TRUE(SameBits(copy.eval(), r));
}

}  // namespace
}  // namespace shade
