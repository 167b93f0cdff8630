// Storage: allocation, alignment, external pointers with and without a deleter, sharing.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>

#include "shade/memory/alloc.h"
#include "shade/memory/storage.h"

namespace {

using shade::Storage;
using shade::TypeMeta;

int g_freed = 0;
void CountingFree(void* p) {
  ++g_freed;
  delete[] static_cast<float*>(p);
}

TEST(Storage, UndefinedHandle) {
  Storage s;
  EXPECT_FALSE(s.defined());
  EXPECT_EQ(s.data(), nullptr);
  EXPECT_EQ(s.capacity(), 0u);
  EXPECT_EQ(s.use_count(), 0);
  EXPECT_THROW(s.reset(), shade::Error);
}

TEST(Storage, EmptyTypedStorage) {
  Storage s(shade::cpu::kDevMask, TypeMeta::Make<float>());
  EXPECT_TRUE(s.defined());
  EXPECT_EQ(s.data(), nullptr);
  EXPECT_TRUE(s.IsType<float>());
  EXPECT_EQ(s.itemsize(), 4u);
  EXPECT_EQ(s.use_count(), 1);
  EXPECT_TRUE(s.unique());
}

TEST(Storage, AllocateIsAlignedAndShared) {
  Storage s = Storage::Allocate(shade::cpu::kDevMask, TypeMeta::Make<double>(), 80);
  ASSERT_NE(s.data(), nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(s.data()) % shade::kAlignBytes, 0u);
  EXPECT_EQ(s.capacity(), 80u);
  Storage t = s;
  EXPECT_EQ(s.use_count(), 2);
  EXPECT_FALSE(s.unique());
  EXPECT_TRUE(t.is_alias_of(s));
  t = Storage();
  EXPECT_TRUE(s.unique());
  s.reset();
  EXPECT_EQ(s.data(), nullptr);
  EXPECT_EQ(s.capacity(), 0u);
}

TEST(Storage, ExternalPointerWithDeleterIsFreedOnce) {
  g_freed = 0;
  {
    float* buf = new float[4];
    Storage s(buf, shade::cpu::kDevMask, TypeMeta::Make<float>(), 16, &CountingFree);
    Storage t = s;
    EXPECT_EQ(s.data(), buf);
    EXPECT_TRUE(s.unsafeGetStorageImpl()->owns_data());
  }
  EXPECT_EQ(g_freed, 1);
}

TEST(Storage, ExternalPointerWithoutDeleterIsBorrowed) {
  // The aliasing case of note 002: a null deleter means the storage never frees.
  float buf[4] = {1, 2, 3, 4};
  {
    Storage s(buf, shade::cpu::kDevMask, TypeMeta::Make<float>(), sizeof(buf));
    EXPECT_FALSE(s.unsafeGetStorageImpl()->owns_data());
    EXPECT_EQ(static_cast<float*>(s.data())[2], 3.0f);
  }
  EXPECT_EQ(buf[3], 4.0f);
  // A std::function deleter works as well (captures state).
  int calls = 0;
  {
    Storage s(buf, shade::cpu::kDevMask, TypeMeta::Make<float>(), sizeof(buf),
              [&calls](void*) { ++calls; });
  }
  EXPECT_EQ(calls, 1);
}

TEST(Storage, ExternalPointerNeedsAnInitializedType) {
  float buf[2];
  try {
    Storage s(buf, shade::cpu::kDevMask, TypeMeta(), sizeof(buf));
    FAIL();
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("initialized data_type(TypeMeta)"), std::string::npos);
  }
}

TEST(Storage, UniqueStorageShareExternalPointer) {
  g_freed = 0;
  Storage s = Storage::Allocate(shade::cpu::kDevMask, TypeMeta::Make<float>(), 64);
  float* buf = new float[8];
  s.UniqueStorageShareExternalPointer(buf, TypeMeta::Make<float>(), 32, &CountingFree);
  EXPECT_EQ(s.data(), buf);
  EXPECT_EQ(s.capacity(), 32u);
  Storage t = s;
  float other[2];
  try {
    s.UniqueStorageShareExternalPointer(other, TypeMeta::Make<float>(), 8);
    FAIL();
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("UniqueStorageShareExternalPointer can only be called when use_count == 1"),
              std::string::npos);
    EXPECT_NE(std::string(e.what()).find("use_count is 2"), std::string::npos);
  }
  t = Storage();
  s = Storage();
  EXPECT_EQ(g_freed, 1);
}

TEST(Storage, NonTrivialElementsAreConstructedAndDestroyed) {
  Storage s = Storage::Allocate(shade::cpu::kDevMask, TypeMeta::Make<std::string>(), 4 * sizeof(std::string));
  auto* p = static_cast<std::string*>(s.data());
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(p[i].empty());
  p[3] = std::string(200, 'q');  // freed by the storage's destructor call (ASan checks)
}

TEST(Storage, BadRequestsThrowNamingTheValues) {
  try {
    Storage::Allocate(shade::cpu::kDevMask, TypeMeta::Make<float>(), std::size_t(1) << 60);
    FAIL();
  } catch (const shade::Error& e) {
    EXPECT_NE(std::string(e.what()).find("1152921504606846976"), std::string::npos);
  }
  EXPECT_THROW(Storage::Allocate(shade::gpu::kDevMask, TypeMeta::Make<float>(), 16), shade::Error);
  EXPECT_THROW(Storage::Allocate(shade::cpu::kDevMask, TypeMeta(), 16), shade::Error);
}

int g_fn_freed = 0;
TEST(Storage, PlainAndCallableDeletersReplaceEachOther) {
  // Plain function pointers are kept without a std::function; either kind runs exactly once
  // when the data is replaced or the storage dies, and both count as owning the data.
  g_freed = 0;
  g_fn_freed = 0;
  {
    Storage s(new float[4], shade::cpu::kDevMask, TypeMeta::Make<float>(), 16, &CountingFree);
    EXPECT_TRUE(s.unsafeGetStorageImpl()->owns_data());
    s.UniqueStorageShareExternalPointer(new float[2], TypeMeta::Make<float>(), 8, [](void* p) {
      ++g_fn_freed;
      delete[] static_cast<float*>(p);
    });
    EXPECT_EQ(g_freed, 1);
    EXPECT_TRUE(s.unsafeGetStorageImpl()->owns_data());
    s.UniqueStorageShareExternalPointer(new float[3], TypeMeta::Make<float>(), 12, &CountingFree);
    EXPECT_EQ(g_fn_freed, 1);
    EXPECT_EQ(g_freed, 1);
    // A std::function holding a plain pointer behaves like the pointer.
    s.UniqueStorageShareExternalPointer(new float[3], TypeMeta::Make<float>(), 12,
                                        shade::DataDeleter(&CountingFree));
    EXPECT_EQ(g_freed, 2);
  }
  EXPECT_EQ(g_freed, 3);
  EXPECT_EQ(g_fn_freed, 1);
}

TEST(Storage, AllocationCountSeesOtherThreads) {
  // Small blocks served from a thread's cache are counted per thread; the total must still
  // include them, from live threads and from threads that exited.
  const std::uint64_t before = shade::AllocationCount();
  std::thread worker([] {
    for (int i = 0; i < 100; ++i) {
      Storage s = Storage::Allocate(shade::cpu::kDevMask, TypeMeta::Make<float>(), 16);
    }
  });
  worker.join();
  EXPECT_EQ(shade::AllocationCount() - before, 100u);
}

}  // namespace
