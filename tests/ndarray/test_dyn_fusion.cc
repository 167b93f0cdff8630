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
#include <functional>
#include <random>

#include "shade/backend/cpu/parallel.h"
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

TEST(DynFusion, RightOperandReadingOneArrayTwice) {
  // Regression: appending an operand whose tree reads one array from two nodes (b * b) moved
  // the array over for the first node and left the second reading the moved-from handle.
  NDArray a = Pattern({50}, kFloat32, 0.3, -1), b = Pattern({50}, kFloat32, 0.7, 0.5);
  NDArray c = a + (b * b);
  NDArray d = a + (a * b + exp(b) - b);
  for (index_t i = 0; i < 50; ++i) {
    const float av = a.at<float>(i), bv = b.at<float>(i);
    EXPECT_FLOAT_EQ(c.at<float>(i), av + bv * bv);  // the compiler may fuse this into an fma
    EXPECT_NEAR(d.at<float>(i), av + (av * bv + std::exp(bv) - bv), 1e-5f * (1 + std::fabs(d.at<float>(i))));
  }
  EXPECT_TRUE(b.defined());
  EXPECT_EQ(b.use_count(), 1);  // the Exprs are gone and released their handles
}

// ------------------------------------------------------------------ the register program
// lazy.h: float expressions without conversions run in registers, two vectors at a time; the
// tile evaluator (the oracle here, forced by SetRegisterProgramEnabled(false)) must give the same
// values: the same packet functions compute both, so they agree bit for bit, NaNs aside (a
// commutative op may take its operands in the other order, and x86 keeps the first NaN's bits).

bool SameValues(const NDArray& x, const NDArray& y) {
  if (x.type_flag() != y.type_flag() || x.sizes() != y.sizes()) return false;
  NDArray cx = x.contiguous(), cy = y.contiguous();
  bool same = true;
  DispatchDType(x.type_flag(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point<T>::value) {
      const T* p = static_cast<const T*>(cx.data_ptr());
      const T* q = static_cast<const T*>(cy.data_ptr());
      for (index_t i = 0; i < cx.numel() && same; ++i) {
        same = (std::isnan(p[i]) && std::isnan(q[i])) || std::memcmp(p + i, q + i, sizeof(T)) == 0;
        if (!same) ADD_FAILURE() << "element " << i << " of " << cx.numel() << ": " << p[i] << " vs " << q[i];
      }
    } else {
      same = std::memcmp(cx.data_ptr(), cy.data_ptr(), cx.nbytes()) == 0;
    }
  });
  return same;
}

// Evaluates e with and without the register program (one thread, so that the calling
// thread's run count tells whether the register program ran) and returns whether it ran.
bool CheckAgainstTiles(const Expr& e, const char* what) {
  const int threads = GetNumThreads();
  SetNumThreads(1);
  detail::SetRegisterProgramEnabled(false);
  NDArray tiles = e.eval();
  detail::SetRegisterProgramEnabled(true);
  const std::int64_t runs = detail::RegisterProgramRuns();
  NDArray regs = e.eval();
  const bool ran = detail::RegisterProgramRuns() > runs;
  // Into an existing array (out=), and into a strided view, which takes the tiles.
  NDArray out = NDArray::Empty(regs.sizes(), regs.type_flag());
  e.eval(out);
  SetNumThreads(threads);
  EXPECT_TRUE(SameValues(regs, tiles)) << what;
  EXPECT_TRUE(SameValues(out, tiles)) << what;
  return ran;
}

TEST(DynFusion, RegisterProgramRunsTheFiveOpExpression) {
  for (int flag : {kFloat32, kFloat64}) {
    for (index_t n : {0, 1, 7, 16, 17, 33, 64, 1000, 4099}) {
      NDArray a = Pattern({n}, flag, 0.37, -2), b = Pattern({n}, flag, 0.11, -1),
              x = Pattern({n}, flag, 0.23, 0.5);
      const bool ran = CheckAgainstTiles(a * b + exp(x) - a / x, "a*b + exp(x) - a/x");
      // Runs shorter than two vectors (at most 16 floats with AVX-512) are all tail.
      if (n >= 64) {
        EXPECT_TRUE(ran) << "n " << n;
      }
      if (n == 0) {
        EXPECT_FALSE(ran);
      }
    }
  }
}

TEST(DynFusion, RegisterProgramFallsBackWhereItMust) {
  const index_t n = 1000;
  NDArray a = Pattern({n}, kFloat32, 0.37, -2), b = Pattern({n}, kFloat32, 0.11, -1);
  NDArray i16 = Pattern({n}, kInt16, 3, -2), a64 = Pattern({n}, kFloat64, 0.3, 1);
  // Conversions, comparisons, integer and ternary ops: the tiles.
  EXPECT_FALSE(CheckAgainstTiles(a * i16 + 1, "int16 -> float32"));
  EXPECT_FALSE(CheckAgainstTiles(a + a64, "float32 + float64"));
  EXPECT_FALSE(CheckAgainstTiles(where(a > b, a, b) * 2, "where"));
  EXPECT_FALSE(CheckAgainstTiles(clip(a, -0.5, 0.5) + b, "clip"));
  EXPECT_FALSE(CheckAgainstTiles(i16 * i16 + 3, "int16"));
  EXPECT_FALSE(CheckAgainstTiles(power(a, b), "power has no packet form"));
  // Five values alive at once (subtract keeps its operand order): deeper than the stack.
  Expr deep = exp(a) - (exp(b) - (exp(a) - (exp(b) - exp(a) / exp(b))));
  EXPECT_FALSE(CheckAgainstTiles(deep, "depth 5"));
  // Four are fine.
  Expr four = exp(a) - (exp(b) - (exp(a) - b / a));
  EXPECT_TRUE(CheckAgainstTiles(four, "depth 4"));
  // With commutative ops the needier side goes first, and the same shape needs two entries.
  Expr reordered = exp(a) + (exp(b) + (exp(a) + (exp(b) + exp(a) * exp(b))));
  EXPECT_TRUE(CheckAgainstTiles(reordered, "commutative depth 5"));
  // A transposed operand: its runs are strided, the tiles gather them.
  NDArray m = Pattern({40, 50}, kFloat32, 0.3, -1), mt = Pattern({50, 40}, kFloat32, 0.7, 0).transpose(0, 1);
  EXPECT_FALSE(CheckAgainstTiles(m * mt + exp(m), "transposed"));
  // Broadcast along the run: (N,1) * (1,N) has a zero stride in every run, whatever the order.
  NDArray col = Pattern({64, 1}, kFloat32, 0.3, -1), row = Pattern({1, 64}, kFloat32, 0.7, 0);
  EXPECT_FALSE(CheckAgainstTiles(col * row + 1, "broadcast"));
  // A row broadcast over rows: the runs are contiguous rows of both.
  NDArray big = Pattern({8, 256}, kFloat32, 0.3, -1), brow = Pattern({256}, kFloat32, 0.7, 0);
  EXPECT_TRUE(CheckAgainstTiles(big * brow - exp(big), "row broadcast"));
}

// The registry's ops reach the register program through the same generated lookup: those with a
// packet form (log2, log10, copysign) run in registers, those without (exp2, cbrt, arctan2,
// hypot, logaddexp) take the tiles, both giving the tile evaluator's values.
TEST(DynFusion, RegistryUfuncsInTheRegisterProgram) {
  for (int flag : {kFloat32, kFloat64}) {
    const index_t n = 1000;
    NDArray a = Pattern({n}, flag, 0.37, 0.25), b = Pattern({n}, flag, 0.11, -1);
    EXPECT_TRUE(CheckAgainstTiles(copysign(log2(a) * b + log10(a), b), "log2 log10 copysign"));
    EXPECT_FALSE(CheckAgainstTiles(exp2(a) + cbrt(b), "exp2 cbrt"));
    EXPECT_FALSE(CheckAgainstTiles(arctan2(a, b) * hypot(a, b), "arctan2 hypot"));
    EXPECT_FALSE(CheckAgainstTiles(logaddexp(a, b) - a, "logaddexp"));
  }
}

TEST(DynFusion, RegisterProgramMatchesTilesOnRandomExpressions) {
  // Random trees over float32 and float64: binary and unary ops, array leaves, weak scalars on
  // either side, one-element arrays (splats), commutative ops with the costly side on the
  // right (evaluated first), depths past the register stack.
  std::mt19937 rng(20261124);
  int ran = 0, total = 0;
  for (int flag : {kFloat32, kFloat64}) {
    for (int round = 0; round < 250; ++round) {
      const index_t n = std::uniform_int_distribution<index_t>(0, 300)(rng);
      NDArray leaves[4] = {Pattern({n}, flag, 0.37, -2), Pattern({n}, flag, 0.11, -1),
                           Pattern({n}, flag, 0.23, 0.5), Pattern({1}, flag, 1, 0.75)};
      std::function<Expr(int)> make = [&](int level) -> Expr {
        const int pick = std::uniform_int_distribution<int>(0, 9)(rng);
        if (level == 0 || pick < 2) {
          const int leaf = std::uniform_int_distribution<int>(0, 5)(rng);
          if (leaf < 4) return Expr(leaves[leaf]);
          return leaf == 4 ? Expr(0.5) : Expr(3);
        }
        switch (std::uniform_int_distribution<int>(0, 11)(rng)) {
          case 0: return make(level - 1) + make(level - 1);
          case 1: return make(level - 1) - make(level - 1);
          case 2: return make(level - 1) * make(level - 1);
          case 3: return make(level - 1) / make(level - 1);
          case 4: return maximum(make(level - 1), make(level - 1));
          case 5: return minimum(make(level - 1), make(level - 1));
          case 6: return exp(make(level - 1));
          case 7: return tanh(make(level - 1));
          case 8: return sqrt(abs(make(level - 1)));
          case 9: return -make(level - 1);
          case 10: return sigmoid(make(level - 1)) + relu(make(level - 1));
          default: return log1p(abs(make(level - 1))) * floor(make(level - 1) * 3);
        }
      };
      Expr e(0);
      try {
        e = make(std::uniform_int_distribution<int>(1, 5)(rng));
      } catch (const Error&) {  // more than Expr::kMaxNodes nodes: draw another
        continue;
      }
      if (e.dtype() != flag) continue;  // a tree of scalars only
      ++total;
      ran += CheckAgainstTiles(e, "random tree") ? 1 : 0;
    }
  }
  EXPECT_GT(total, 300);
  EXPECT_GT(ran, total / 3);  // most trees fit the register stack
}

TEST(DynFusion, RegisterProgramInPlaceAndThreaded) {
  // a += expr writes into a while reading it: each pair of vectors is read before it is
  // written. Threaded: each thread's chunk runs the program on its own range.
  const index_t n = index_t(1) << 17;
  NDArray a = Pattern({n}, kFloat32, 0.37, -2), b = Pattern({n}, kFloat32, 0.11, -1);
  NDArray ref = a + (a * b + exp(b));
  a += a * b + exp(b);
  EXPECT_TRUE(SameValues(a, ref));
  detail::SetRegisterProgramEnabled(false);
  NDArray tiles = a * b - tanh(a) / (b + 3);
  detail::SetRegisterProgramEnabled(true);
  NDArray regs = a * b - tanh(a) / (b + 3);
  EXPECT_TRUE(SameValues(regs, tiles));
}

}  // namespace
}  // namespace shade
