// intrusive_ptr: counts, sharing, moves, deletion exactly once, thread safety.
#include <gtest/gtest.h>

#include <new>
#include <thread>
#include <vector>

#include "shade/memory/intrusive_ptr.h"

namespace {

struct Counted : shade::intrusive_ptr_target {
  explicit Counted(int* deaths, int v = 0) : deaths_(deaths), value(v) {}
  ~Counted() { ++*deaths_; }
  int* deaths_;
  int value;
};

TEST(IntrusivePtr, NullHandle) {
  shade::intrusive_ptr<Counted> p;
  EXPECT_FALSE(p.defined());
  EXPECT_FALSE(static_cast<bool>(p));
  EXPECT_EQ(p.use_count(), 0);
  EXPECT_FALSE(p.unique());
  EXPECT_EQ(p.get(), nullptr);
}

TEST(IntrusivePtr, SharingCountsAndDeletesOnce) {
  int deaths = 0;
  {
    auto a = shade::make_intrusive<Counted>(&deaths, 7);
    EXPECT_EQ(a.use_count(), 1);
    EXPECT_TRUE(a.unique());
    EXPECT_EQ(a->value, 7);
    {
      shade::intrusive_ptr<Counted> b = a;
      EXPECT_EQ(a.use_count(), 2);
      EXPECT_FALSE(a.unique());
      EXPECT_TRUE(a == b);
      shade::intrusive_ptr<Counted> c = std::move(b);
      EXPECT_FALSE(b.defined());
      EXPECT_EQ(c.use_count(), 2);
    }
    EXPECT_EQ(a.use_count(), 1);
    EXPECT_EQ(deaths, 0);
  }
  EXPECT_EQ(deaths, 1);
}

TEST(IntrusivePtr, AssignmentReleasesTheOldTarget) {
  int deaths = 0;
  auto a = shade::make_intrusive<Counted>(&deaths, 1);
  auto b = shade::make_intrusive<Counted>(&deaths, 2);
  a = b;
  EXPECT_EQ(deaths, 1);
  EXPECT_EQ(a->value, 2);
  EXPECT_EQ(b.use_count(), 2);
  const auto& alias = a;  // through a reference: clang's -Wself-assign-overloaded rejects `a = a`
  a = alias;              // self-assignment keeps the target alive
  EXPECT_EQ(b.use_count(), 2);
  a.reset();
  EXPECT_EQ(b.use_count(), 1);
  b = shade::intrusive_ptr<Counted>();
  EXPECT_EQ(deaths, 2);
}

TEST(IntrusivePtr, ConcurrentCopiesKeepTheCountExact) {
  int deaths = 0;
  auto p = shade::make_intrusive<Counted>(&deaths);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([p] {
      for (int i = 0; i < 20000; ++i) {
        shade::intrusive_ptr<Counted> q = p;
        shade::intrusive_ptr<Counted> r = std::move(q);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(p.use_count(), 1);
  EXPECT_EQ(deaths, 0);
  p.reset();
  EXPECT_EQ(deaths, 1);
}

// Two targets in one allocation (what NDArray::Empty does for small arrays): each is destroyed
// when its own count reaches zero, the allocation once, after the last of them, in either order.
struct InBlock : shade::intrusive_ptr_target {
  InBlock(shade::SharedBlock* b, int* deaths) : block_(b), deaths_(deaths) {}
  ~InBlock() { ++*deaths_; }
  shade::SharedBlock* intrusive_block() const noexcept { return block_; }
  shade::SharedBlock* block_;
  int* deaths_;
};
int g_block_frees = 0;
void FreeBlock(void* p) {
  ++g_block_frees;
  ::operator delete(p);
}

TEST(IntrusivePtr, SharedBlockIsFreedOnceAfterItsLastTarget) {
  for (int first = 0; first < 2; ++first) {
    g_block_frees = 0;
    int deaths = 0;
    char* mem =
        static_cast<char*>(::operator new(sizeof(shade::SharedBlock) + 2 * sizeof(InBlock)));
    auto* block = new (mem) shade::SharedBlock(2, &FreeBlock);
    auto x = shade::intrusive_ptr<InBlock>::AdoptFresh(new (mem + sizeof(shade::SharedBlock))
                                                           InBlock(block, &deaths));
    auto y = shade::intrusive_ptr<InBlock>::AdoptFresh(
        new (mem + sizeof(shade::SharedBlock) + sizeof(InBlock)) InBlock(block, &deaths));
    EXPECT_EQ(x.use_count(), 1);
    auto x2 = x;  // a second handle: x's target outlives the first reset
    EXPECT_EQ(x.use_count(), 2);
    (first ? x : y).reset();
    EXPECT_EQ(deaths, first ? 0 : 1);
    EXPECT_EQ(g_block_frees, 0);
    (first ? y : x2).reset();
    EXPECT_EQ(deaths, 1);
    EXPECT_EQ(g_block_frees, 0);
    (first ? x2 : x).reset();
    EXPECT_EQ(deaths, 2);
    EXPECT_EQ(g_block_frees, 1);
  }
}

TEST(IntrusivePtr, SharedBlockTargetsDyingOnDifferentThreads) {
  // The last of two concurrent releases frees the block, exactly once.
  for (int round = 0; round < 200; ++round) {
    g_block_frees = 0;
    int deaths_a = 0, deaths_b = 0;
    char* mem =
        static_cast<char*>(::operator new(sizeof(shade::SharedBlock) + 2 * sizeof(InBlock)));
    auto* block = new (mem) shade::SharedBlock(2, &FreeBlock);
    auto x = shade::intrusive_ptr<InBlock>::AdoptFresh(new (mem + sizeof(shade::SharedBlock))
                                                           InBlock(block, &deaths_a));
    auto y = shade::intrusive_ptr<InBlock>::AdoptFresh(
        new (mem + sizeof(shade::SharedBlock) + sizeof(InBlock)) InBlock(block, &deaths_b));
    std::thread t([&] { x.reset(); });
    y.reset();
    t.join();
    EXPECT_EQ(deaths_a + deaths_b, 2);
    EXPECT_EQ(g_block_frees, 1);
  }
}

}  // namespace
