// ParallelFor: disjoint contiguous chunks covering the range, the grain keeps small ranges on the
// calling thread, nested calls run inline, worker exceptions reach the caller; SetNumThreads.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "shade/backend/cpu/parallel.h"

namespace shade {
namespace {

struct ScopedThreads {
  int saved = GetNumThreads();
  explicit ScopedThreads(int n) { SetNumThreads(n); }
  ~ScopedThreads() { SetNumThreads(saved); }
};

std::vector<std::pair<index_t, index_t>> Chunks(index_t b, index_t e, index_t grain) {
  std::mutex mu;
  std::vector<std::pair<index_t, index_t>> chunks;
  ParallelFor(b, e, grain, [&](index_t cb, index_t ce) {
    std::lock_guard<std::mutex> lock(mu);
    chunks.emplace_back(cb, ce);
  });
  std::sort(chunks.begin(), chunks.end());
  return chunks;
}

TEST(Parallel, CoversRangeWithDisjointChunks) {
  ScopedThreads t(2);
  for (index_t n : {1, 2, 7, 1000, 100001}) {
    auto chunks = Chunks(5, 5 + n, 1);
    index_t next = 5;
    for (auto c : chunks) {
      EXPECT_EQ(c.first, next);
      EXPECT_LT(c.first, c.second);
      next = c.second;
    }
    EXPECT_EQ(next, 5 + n);
  }
  EXPECT_TRUE(Chunks(3, 3, 1).empty());
  EXPECT_TRUE(Chunks(3, 1, 1).empty());
}

TEST(Parallel, GrainKeepsSmallRangesOnCaller) {
  ScopedThreads t(2);
  const auto caller = std::this_thread::get_id();
  std::atomic<int> calls{0};
  bool same_thread = true;
  ParallelFor(0, 199, 100, [&](index_t b, index_t e) {
    ++calls;
    same_thread = std::this_thread::get_id() == caller && b == 0 && e == 199;
  });
  EXPECT_EQ(calls.load(), 1);
  EXPECT_TRUE(same_thread);
  // At least two grains and two threads: split in two (when OpenMP is enabled).
#ifdef _OPENMP
  EXPECT_EQ(Chunks(0, 200, 100).size(), 2u);
#endif
  SetNumThreads(1);
  EXPECT_EQ(Chunks(0, 1 << 20, 1).size(), 1u);
}

TEST(Parallel, NestedRunsInline) {
  ScopedThreads t(2);
  std::atomic<int> inner_calls{0};
  ParallelFor(0, 2, 1, [&](index_t, index_t) {
    ParallelFor(0, 1000, 1, [&](index_t b, index_t e) {
      ++inner_calls;
      EXPECT_EQ(e - b, 1000);
    });
  });
  EXPECT_GE(inner_calls.load(), 1);
  EXPECT_LE(inner_calls.load(), 2);
}

TEST(Parallel, ExceptionsReachCaller) {
  ScopedThreads t(2);
  EXPECT_THROW(ParallelFor(0, 1000, 1, [&](index_t b, index_t) {
                 SHADE_CHECK_NE(b, 0) << "chunk starting at zero";
               }),
               Error);
}

TEST(Parallel, SetNumThreadsValidates) {
  ScopedThreads t(3);
  EXPECT_EQ(GetNumThreads(), 3);
  try {
    SetNumThreads(0);
    ADD_FAILURE() << "no throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("0"), std::string::npos) << e.what();
  }
  EXPECT_EQ(GetNumThreads(), 3);
}

}  // namespace
}  // namespace shade
