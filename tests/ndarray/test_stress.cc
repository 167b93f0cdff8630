// Concurrent use under stress (issue 21): many threads create, view, share, resize and destroy
// NDArrays that share storages and evaluate lazy expressions reading the same arrays, checking
// every result against the values it must have. Run by ctest with a small operation count, by
// tools/run-tsan.sh under ThreadSanitizer, and for the long run with
//   SHADE_STRESS_OPS=10000000 ./build/tests/test_stress
// (the total number of operations over all threads; SHADE_STRESS_THREADS sets the threads).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "shade/backend/cpu/parallel.h"
#include "shade/base/dtype.h"
#include "shade/base/error.h"
#include "shade/ndarray/lazy.h"
#include "shade/ndarray/ndarray.h"
#include "shade/ndarray/ops.h"
#include "shade/ndarray/reduce.h"
#include "shade/param/parameter.h"

namespace {

using shade::index_t;
using shade::IndexSpan;
using shade::NDArray;

std::int64_t EnvInt(const char* name, std::int64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoll(v, nullptr, 10) : fallback;
}

// The value of element (i, j) of shared source s: exact in float64 and float32.
double SourceValue(int s, index_t i, index_t j) {
  return s * 1000.0 + i * 16.0 + j;
}

constexpr int kSources = 4;
constexpr index_t kRows = 16, kCols = 16;

// A published array: its values are v(k) = seed + k over its row-major elements; never
// written after it is published, so any thread may read it.
struct Published {
  NDArray array;
  double seed = 0;
};

// Slots through which threads hand arrays to each other (the handle copies and releases, and
// with them the refcounts, cross threads; the elements are only read).
class Mailbox {
 public:
  explicit Mailbox(int slots) : slots_(static_cast<std::size_t>(slots)) {}
  // Puts `p` into slot i and returns what was there.
  Published Swap(int i, Published p) {
    std::lock_guard<std::mutex> lock(mu_);
    std::swap(slots_[static_cast<std::size_t>(i)], p);
    return p;
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    slots_.assign(slots_.size(), Published());
  }

 private:
  std::mutex mu_;
  std::vector<Published> slots_;
};

struct StressParam : public shade::Parameter<StressParam> {
  int units;
  float rate;
  std::string name;
  SHADE_DECLARE_PARAMETER(StressParam) {
    SHADE_DECLARE_FIELD(units).set_range(0, 1 << 30);
    SHADE_DECLARE_FIELD(rate).set_default(0.5f);
    SHADE_DECLARE_FIELD(name).set_default("n");
  }
};
SHADE_REGISTER_PARAMETER(StressParam);

// Checks a published array's row-major values (any layout).
bool CheckPublished(const Published& p) {
  if (!p.array.defined()) return true;
  const NDArray c = p.array.contiguous();
  const double* v = c.data<double>();
  for (index_t k = 0; k < c.numel(); ++k) {
    if (v[k] != p.seed + static_cast<double>(k)) return false;
  }
  return true;
}

struct Counters {
  std::atomic<std::int64_t> ops{0}, checks{0}, failures{0};
};

void Worker(int tid, std::int64_t ops, const std::vector<NDArray>& sources, Mailbox& mailbox,
            int slots, Counters& counters) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(tid) * 7919 + 1);
  auto fail = [&](const char* what) {
    if (counters.failures.fetch_add(1) < 10) std::fprintf(stderr, "thread %d: %s\n", tid, what);
  };
  auto check = [&](bool ok, const char* what) {
    counters.checks.fetch_add(1, std::memory_order_relaxed);
    if (!ok) fail(what);
  };
  NDArray own = NDArray::Empty(IndexSpan(), shade::kFloat64);  // resized below
  std::vector<NDArray> held;  // views of shared arrays this thread keeps for a while
  for (std::int64_t n = 0; n < ops; ++n) {
    const int op = static_cast<int>(rng() % 8);
    const int s = static_cast<int>(rng() % kSources);
    const index_t i = static_cast<index_t>(rng() % kRows), j = static_cast<index_t>(rng() % kCols);
    try {
      switch (op) {
        case 0: {  // a view chain of a shared source: transpose, slice, select, expand
          const NDArray v = sources[s].transpose(0, 1).slice(0, j, kCols).select(0, 0);  // column j
          check(v.at<double>(i) == SourceValue(s, i, j), "transposed column view");
          const index_t to[3] = {2, kRows, kCols};
          const NDArray e = sources[s].expand(IndexSpan(to, 3));
          check(e.at<double>(1, i, j) == SourceValue(s, i, j), "expanded view");
          if (held.size() < 8) {
            held.push_back(v);
          } else {
            held[rng() % held.size()] = e;  // destroys an older view
          }
          break;
        }
        case 1: {  // a lazy expression over shared sources (read by every thread)
          const int t = (s + 1) % kSources;
          const NDArray r = sources[s] * 2.0 + sources[t].transpose(0, 1) - 1.0;
          check(r.at<double>(i, j) == SourceValue(s, i, j) * 2 + SourceValue(t, j, i) - 1,
                "expression over shared arrays");
          break;
        }
        case 2: {  // create, fill and publish; take what another thread published
          const index_t len = 1 + static_cast<index_t>(rng() % 40);
          Published p;
          p.array = NDArray::Empty(IndexSpan(&len, 1), shade::kFloat64);
          p.seed = static_cast<double>(tid * 1000000 + n % 1000000);
          double* d = p.array.data<double>();
          for (index_t k = 0; k < len; ++k) d[k] = p.seed + static_cast<double>(k);
          if (rng() % 2) {  // publish a view: the storage is shared with the slice's base
            const index_t wide = 2 * len;
            NDArray base = NDArray::Empty(IndexSpan(&wide, 1), shade::kFloat64);
            base.slice(0, 0, len).copy_(p.array);
            p.array = base.slice(0, 0, len);
          }
          const Published got = mailbox.Swap(static_cast<int>(rng() % slots), std::move(p));
          check(CheckPublished(got), "array received from another thread");
          break;
        }
        case 3: {  // resize the thread's own array (reallocating or keeping its storage) and fill
                   // it
          const index_t r = static_cast<index_t>(rng() % 5), c = static_cast<index_t>(rng() % 7);
          own.Resize(r, c);
          double* d = own.mutable_data<double>();
          for (index_t k = 0; k < r * c; ++k) d[k] = static_cast<double>(k * tid);
          const NDArray col_sum = shade::sum(own, 0);
          bool ok = col_sum.numel() == c;
          for (index_t k = 0; ok && k < c; ++k) {
            double want = 0;
            for (index_t row = 0; row < r; ++row) want += static_cast<double>((row * c + k) * tid);
            ok = col_sum.at<double>(k) == want;
          }
          check(ok, "resized own array and its column sums");
          break;
        }
        case 4: {  // read a shared array's views through another thread's held handles
          if (!held.empty()) {
            const NDArray& h = held[rng() % held.size()];
            check(h.numel() > 0 && std::isfinite(h.contiguous().data<double>()[0]), "held view");
          }
          held.clear();
          break;
        }
        case 5: {  // a reduction over a shared source
          const NDArray total = shade::sum(sources[s]);
          double want = 0;
          for (index_t a = 0; a < kRows; ++a) {
            for (index_t b = 0; b < kCols; ++b) want += SourceValue(s, a, b);
          }
          check(total.at<double>() == want, "sum of a shared source");
          break;
        }
        case 6: {  // parameter structs through the shared registry
          StressParam p;
          p.Init(std::map<std::string, std::string>{{"units", std::to_string(n % 1000)},
                                                    {"name", "t"}});
          check(p.units == static_cast<int>(n % 1000) && p.rate == 0.5f && p.__DICT__().size() == 3,
                "parameter init");
          break;
        }
        default: {  // an error path under concurrency: a bad view throws, nothing leaks
          bool threw = false;
          try {
            (void)sources[s].select(0, kRows + i);
          } catch (const shade::Error&) {
            threw = true;
          }
          check(threw, "out-of-range select throws");
          break;
        }
      }
    } catch (const std::exception& e) {
      fail(e.what());
    }
    counters.ops.fetch_add(1, std::memory_order_relaxed);
  }
}

TEST(Stress, ThreadsShareViewResizeAndEvaluate) {
  const std::int64_t total_ops = EnvInt("SHADE_STRESS_OPS", 40000);
  const int threads = static_cast<int>(EnvInt("SHADE_STRESS_THREADS", 8));
  ASSERT_GE(threads, 1);
  std::vector<NDArray> sources;
  for (int s = 0; s < kSources; ++s) {
    const index_t dims[2] = {kRows, kCols};
    NDArray a = NDArray::Empty(IndexSpan(dims, 2), shade::kFloat64);
    for (index_t i = 0; i < kRows; ++i) {
      for (index_t j = 0; j < kCols; ++j) a.at<double>(i, j) = SourceValue(s, i, j);
    }
    sources.push_back(a);
  }
  const int slots = 2 * threads;
  Mailbox mailbox(slots);
  Counters counters;
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    const std::int64_t share = total_ops / threads + (t < total_ops % threads ? 1 : 0);
    pool.emplace_back(Worker, t, share, std::cref(sources), std::ref(mailbox), slots,
                      std::ref(counters));
  }
  for (std::thread& t : pool) t.join();
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  mailbox.Clear();
  std::printf(
      "stress: %d threads, %lld operations, %lld checks, %lld failures, %.2f s (%.0f ops/s)\n",
      threads, static_cast<long long>(counters.ops.load()),
      static_cast<long long>(counters.checks.load()),
      static_cast<long long>(counters.failures.load()), secs, counters.ops.load() / secs);
  EXPECT_EQ(counters.ops.load(), total_ops);
  EXPECT_EQ(counters.failures.load(), 0);
  EXPECT_GE(counters.checks.load(), total_ops);
  // Every handle the threads took is gone: the sources' storages are held by `sources` alone.
  for (const NDArray& a : sources) EXPECT_EQ(a.storage().use_count(), 1);
}

// Large arrays evaluated from several threads at once: each evaluation runs the OpenMP kernels
// (parallel regions started from different std::threads), all reading one shared input.
TEST(Stress, ConcurrentThreadedKernelsOnSharedInput) {
  const index_t n = index_t{1} << 17;  // above the threading grain
  NDArray x = NDArray::Empty(IndexSpan(&n, 1), shade::kFloat32);
  float* d = x.data<float>();
  for (index_t k = 0; k < n; ++k) d[k] = static_cast<float>(k % 8);  // sums stay exact in float32
  const int threads = 4, rounds = static_cast<int>(EnvInt("SHADE_STRESS_ROUNDS", 3));
  std::atomic<int> bad{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int r = 0; r < rounds; ++r) {
        const NDArray y = x * static_cast<float>(t + 1) + 1.0f;
        const float* v = y.data<float>();
        for (index_t k = 0; k < n; k += 997) {
          if (v[k] != static_cast<float>(k % 8) * static_cast<float>(t + 1) + 1.0f)
            bad.fetch_add(1);
        }
        const NDArray total = shade::sum(x);
        if (total.at<float>() != static_cast<float>(n / 8) * 28.0f) bad.fetch_add(1);
      }
    });
  }
  for (std::thread& t : pool) t.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(x.storage().use_count(), 1);
}

}  // namespace
