// NDArray: construction, element access, lifecycle of non-trivial types, amortised Extend,
// caller memory, bad input (every error names its values), impl size.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "ndarray_test_util.h"
#include "shade/memory/alloc.h"
#include "shade/ndarray/bridge.h"
#include "shade/ndarray/ndarray.h"

namespace {

using shade::index_t;
using shade::IndexSpan;
using shade::NDArray;
using shade::TypeMeta;

using shade_test::ExpectErrorContaining;

// Counts constructions, copies and destructions to prove each element lives exactly once.
struct Tracked {
  static int alive;
  static int constructed;
  static int destroyed;
  int value = 7;
  Tracked() {
    ++alive;
    ++constructed;
  }
  Tracked(const Tracked& o) : value(o.value) {
    ++alive;
    ++constructed;
  }
  Tracked& operator=(const Tracked& o) = default;
  ~Tracked() {
    --alive;
    ++destroyed;
  }
  static void Reset() { alive = constructed = destroyed = 0; }
};
int Tracked::alive = 0;
int Tracked::constructed = 0;
int Tracked::destroyed = 0;

TEST(NDArray, ImplIsSmall) {
  // LibTorch's TensorImpl is 26 words with 5 dims inline; ours keeps 5 dims inline in 16
  // (15 and the autograd pointer).
  EXPECT_LE(sizeof(shade::NDArrayImpl), 16 * sizeof(void*));
  EXPECT_EQ(sizeof(NDArray), sizeof(void*));
  EXPECT_EQ(sizeof(shade::Storage), sizeof(void*));
  EXPECT_EQ(sizeof(TypeMeta), sizeof(void*));
}

TEST(NDArray, EmptyForEveryDtypeAndRank) {
  for (int flag = 0; flag < shade::kNumTypeFlags; ++flag) {
    NDArray a = NDArray::Empty({2, 3, 4, 5, 6, 7}, flag);  // rank 6: sizes and strides on the heap
    EXPECT_EQ(a.type_flag(), flag);
    EXPECT_EQ(a.itemsize(), shade::TypeFlagSize(flag));
    EXPECT_EQ(a.nbytes(), 5040 * shade::TypeFlagSize(flag));
    EXPECT_EQ(a.strides(), IndexSpan({2520, 840, 210, 42, 7, 1}));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data_ptr()) % shade::kAlignBytes, 0u);
    a.Fill(1);
    EXPECT_EQ(a.get({1, 2, 3, 4, 5, 6}), 1.0);
    a.set({1, 2, 3, 4, 5, 6}, 0);
    EXPECT_EQ(a.get({1, 2, 3, 4, 5, 6}), 0.0);
    EXPECT_EQ(a.get({1, 2, 3, 4, 5, 5}), 1.0);
    NDArray b = a.Clone();
    EXPECT_EQ(b.get({1, 2, 3, 4, 5, 6}), 0.0);
    EXPECT_EQ(b.get({0, 0, 0, 0, 0, 0}), 1.0);
    // Rank changes across the inline/heap boundary keep working.
    b.Reshape({5040});
    EXPECT_EQ(b.get({5039}), 0.0);
    b.Reshape({2, 3, 4, 5, 6, 7, 1, 1});
    EXPECT_EQ(b.get({1, 2, 3, 4, 5, 6, 0, 0}), 0.0);
  }
  NDArray z = NDArray::Empty<float>({0});
  EXPECT_EQ(z.numel(), 0);
  EXPECT_EQ(z.nbytes(), 0u);
  z.Fill(1);  // nothing to do
}

TEST(NDArray, DescribeAndPrint) {
  NDArray a = NDArray::Empty<float>({2, 3});
  EXPECT_EQ(a.Describe(), "NDArray(float32, sizes=(2,3), strides=(3,1), offset=0, cpu)");
  EXPECT_EQ(NDArray().Describe(), "NDArray(undefined)");
  EXPECT_EQ(a.narrow(1, 1, 1).Describe(), "NDArray(float32, sizes=(2,1), strides=(3,1), offset=1, cpu)");
}

TEST(NDArray, GetSetConvertAndCheckRange) {
  NDArray a = NDArray::Empty<std::uint8_t>({2});
  a.set({0}, 255);
  EXPECT_EQ(a.get({0}), 255.0);
  ExpectErrorContaining([&] { a.set({1}, 256); }, "value 256 does not fit uint8");
  ExpectErrorContaining([&] { a.set({1}, -1); }, "value -1 does not fit uint8");
  NDArray i = NDArray::Empty<std::int64_t>({1});
  ExpectErrorContaining([&] { i.Fill(1e19); }, "does not fit int64");
  i.Fill(-9.0e18);
  EXPECT_EQ(i.at<std::int64_t>(0), -9000000000000000000LL);
  NDArray h = NDArray::Empty<shade::half_t>({1});
  h.set({0}, 0.1);
  EXPECT_NEAR(h.get({0}), 0.1, 1e-4);
  NDArray b = NDArray::Empty<bool>({1});
  b.set({0}, 2);
  EXPECT_EQ(b.get({0}), 1.0);
  NDArray s = NDArray::Empty<std::string>({1});
  ExpectErrorContaining([&] { s.get({0}); }, "element type std::string is not numeric");
  ExpectErrorContaining([&] { s.Fill(0); }, "not numeric");
}

TEST(NDArray, NonTrivialElementsLiveExactlyOnce) {
  Tracked::Reset();
  {
    NDArray a({4, 5});
    Tracked* p = a.mutable_data<Tracked>();
    EXPECT_EQ(Tracked::constructed, 20);
    EXPECT_EQ(p[19].value, 7);
    p[3].value = 11;
    NDArray view = a.transpose(0, 1);
    NDArray clone = view.Clone();  // 20 more, copied through TypeMeta::copy
    EXPECT_EQ(Tracked::alive, 40);
    EXPECT_EQ(clone.at<Tracked>(3, 0).value, 11);
    clone.copy_(view);
    EXPECT_EQ(Tracked::alive, 40);
    a.Extend(2, 50);  // capacity 6 rows = 30 elements constructed, old storage still held by view
    EXPECT_EQ(Tracked::alive, 70);
    EXPECT_EQ(a.at<Tracked>(0, 3).value, 11);
    view = NDArray();  // old storage released: its 20 elements destroyed
    EXPECT_EQ(Tracked::alive, 50);
    a.mutable_data<float>();  // a type with a destructor before: reallocated, 30 destroyed
    EXPECT_EQ(Tracked::alive, 20);
  }
  EXPECT_EQ(Tracked::alive, 0);
  EXPECT_EQ(Tracked::constructed, Tracked::destroyed);
}

TEST(NDArray, StringElements) {
  NDArray a = NDArray::Empty<std::string>({3, 2});
  for (index_t i = 0; i < 3; ++i) {
    for (index_t j = 0; j < 2; ++j) a.at<std::string>(i, j) = std::string(40, static_cast<char>('a' + i * 2 + j));
  }
  NDArray t = a.transpose(0, 1).contiguous();
  EXPECT_EQ(t.at<std::string>(1, 2), std::string(40, 'f'));
  NDArray b = NDArray::Empty<std::string>({2, 3});
  b.copy_(a.transpose(0, 1));
  EXPECT_EQ(b.at<std::string>(0, 1), std::string(40, 'c'));
  ExpectErrorContaining([&] { b.copy_(NDArray::Empty<float>({2, 3})); }, "cannot convert float32 to std::string");
  b.Extend(3, 100);
  EXPECT_EQ(b.at<std::string>(1, 2), std::string(40, 'f'));
  EXPECT_TRUE(b.at<std::string>(4, 2).empty());
}

TEST(NDArray, ExtendReallocatesLogarithmically) {
  NDArray a({1, 4});
  a.mutable_data<float>()[3] = 0;
  const std::uint64_t before = shade::AllocationCount();
  for (int i = 1; i < 1000; ++i) {
    a.Extend(1, 50);
    a.at<float>(i, 3) = static_cast<float>(i);
  }
  const std::uint64_t reallocs = shade::AllocationCount() - before;
  // Growth by 1.5x from 1 row: about log_1.5(1000) ~ 17 reallocations, not 1000.
  EXPECT_LE(reallocs, 20u);
  EXPECT_GE(reallocs, 10u);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.at<float>(i, 3), static_cast<float>(i));
  // With growthPct 0 every Extend past capacity reallocates (the policy is the caller's):
  NDArray b({1});
  b.mutable_data<double>();
  const std::uint64_t b0 = shade::AllocationCount();
  for (int i = 0; i < 10; ++i) b.Extend(1, 0);
  EXPECT_EQ(shade::AllocationCount() - b0, 10u);
}

TEST(NDArray, CallerMemoryWithAndWithoutOwnership) {
  std::vector<float> buf = {0, 1, 2, 3, 4, 5};
  {
    NDArray a = NDArray::FromBlob(buf.data(), {2, 3}, TypeMeta::Make<float>());
    EXPECT_EQ(a.at<float>(1, 0), 3);
    a.at<float>(0, 0) = 9;
    EXPECT_EQ(a.capacity_nbytes(), 24u);
    EXPECT_FALSE(a.storage().unsafeGetStorageImpl()->owns_data());
  }
  EXPECT_EQ(buf[0], 9);
  int freed = 0;
  {
    auto* heap = new double[6]{0, 1, 2, 3, 4, 5};
    NDArray a = NDArray::FromBlob(heap, {3, 2}, {1, 3}, TypeMeta::Make<double>(),
                                  [&freed](void* p) {
                                    ++freed;
                                    delete[] static_cast<double*>(p);
                                  });
    EXPECT_FALSE(a.is_contiguous());
    EXPECT_EQ(a.at<double>(2, 1), 5);
    NDArray keep = a.select(1, 0);
    a = NDArray();
    EXPECT_EQ(freed, 0);  // the view keeps the storage alive
    EXPECT_EQ(keep.at<double>(1), 1);
  }
  EXPECT_EQ(freed, 1);
  ExpectErrorContaining([] { NDArray::FromBlob(nullptr, {2}, TypeMeta::Make<float>()); }, "null data");
  ExpectErrorContaining([&] { NDArray::FromBlob(buf.data(), {2}, {-1}, TypeMeta::Make<float>()); },
                        "stride -1 of dimension 0 is negative");
  ExpectErrorContaining([&] { NDArray::FromBlob(buf.data(), {2}, TypeMeta()); }, "uninitialized");
}

TEST(NDArray, FromStorageValidates) {
  NDArray a = NDArray::Empty<float>({12});
  NDArray v = NDArray::FromStorage(a.storage(), {3, 2}, {4, 2}, 1);
  EXPECT_EQ(v.data<float>(), a.data<float>() + 1);
  ExpectErrorContaining([&] { NDArray::FromStorage(a.storage(), {3, 2}, {4, 2}, 4); },
                        "reach element 14, outside the storage of 12 elements");
  ExpectErrorContaining([] { NDArray::FromStorage(shade::Storage(), {1}, {1}, 0); }, "undefined Storage");
}

TEST(NDArray, BadSizesAndHugeRequests) {
  ExpectErrorContaining([] { NDArray({2, -3}); }, "size -3 of dimension 1 is negative");
  ExpectErrorContaining([] { NDArray::Empty<float>({-1}); }, "size -1 of dimension 0 is negative");
  ExpectErrorContaining([] { NDArray({index_t(1) << 32, index_t(1) << 32}); }, "overflows int64: 4294967296 * 4294967296");
  // A zero extent empties the array, but the strides of the others would still overflow.
  ExpectErrorContaining([] { NDArray({0, index_t(1) << 40, index_t(1) << 40}); }, "NDArray stride overflows");
  // numel fits int64 but bytes do not.
  ExpectErrorContaining([] { NDArray::Empty<double>({index_t(1) << 61}); }, "NDArray nbytes overflows");
  // A request larger than the machine: refused before allocating, naming the bytes.
  ExpectErrorContaining([] { NDArray::Empty<float>({index_t(1) << 50}); }, "4503599627370496 bytes");
  NDArray lazy({index_t(1) << 50});
  ExpectErrorContaining([&] { lazy.mutable_data<float>(); }, "exceeds the machine's memory");
  EXPECT_EQ(lazy.capacity_nbytes(), 0u);  // the failed request left the array usable
  lazy.Resize(4);
  EXPECT_NE(lazy.mutable_data<float>(), nullptr);
  NDArray a = NDArray::Empty<float>({2});
  ExpectErrorContaining([&] { a.Resize(-1); }, "size -1 of dimension 0 is negative");
  EXPECT_EQ(a.numel(), 2);  // a failed Resize changes nothing
  ExpectErrorContaining([&] { a.Extend(std::numeric_limits<index_t>::max(), 10); }, "Extend outer size overflows");
  ExpectErrorContaining([&] { a.Extend(1, -5); }, "growthPct -5");
  ExpectErrorContaining([] { NDArray({2}, 7); }, "unknown device mask 7");
  ExpectErrorContaining([] { NDArray::Empty({2}, 99); }, "unknown dtype flag 99");
  ExpectErrorContaining([] { NDArray::Empty({2}, TypeMeta()); }, "element type is uninitialized");
}

TEST(NDArray, CopyAndFillErrors) {
  NDArray a = NDArray::Empty<float>({2, 3});
  ExpectErrorContaining([&] { a.copy_(NDArray::Empty<float>({3, 2})); }, "expanded size 3 must match the existing size 2 at non-singleton dimension 1");
  ExpectErrorContaining([&] { a.copy_(NDArray()); }, "the source NDArray is undefined");
  ExpectErrorContaining([&] { NDArray().copy_(a); }, "destination NDArray is undefined");
  ExpectErrorContaining([&] { a.copy_(NDArray({2, 3})); }, "has no element type");
  NDArray lazy({2, 3});
  lazy.Resize(2, 3);
  NDArray lazy_typed({2, 3});
  lazy_typed.mutable_data<float>();
  lazy_typed.FreeMemory();
  ExpectErrorContaining([&] { lazy_typed.copy_(a); }, "has no memory allocated");
  ExpectErrorContaining([&] { a.expand({4, 2, 3}).Fill(0); }, "cannot write into");
  ExpectErrorContaining([&] { a.select(1, 0).unsqueeze(1).expand({2, 3}).copy_(a); }, "overlap");
  // Broadcast source: a row copied into every row.
  NDArray row = NDArray::Empty<std::int32_t>({3});
  for (int i = 0; i < 3; ++i) row.at<std::int32_t>(i) = i + 1;
  a.copy_(row);
  EXPECT_EQ(a.at<float>(1, 2), 3.0f);
  // Overlapping copy within one storage reads a private copy first.
  NDArray s = NDArray::Empty<float>({5});
  for (int i = 0; i < 5; ++i) s.at<float>(i) = static_cast<float>(i);
  s.narrow(0, 1, 4).copy_(s.narrow(0, 0, 4));
  EXPECT_EQ(s.at<float>(4), 3.0f);
  EXPECT_EQ(s.at<float>(1), 0.0f);
  NDArray m = NDArray::Empty<double>({3, 3});
  for (int i = 0; i < 9; ++i) m.data<double>()[i] = i;
  m.copy_(m.transpose(0, 1));  // in-place transpose through a temporary
  EXPECT_EQ(m.at<double>(0, 1), 3);
  EXPECT_EQ(m.at<double>(1, 0), 1);
}

TEST(NDArray, HandlesShareTheImpl) {
  NDArray a = NDArray::Empty<float>({2});
  EXPECT_EQ(a.use_count(), 1);
  {
    NDArray b = a;
    EXPECT_EQ(a.use_count(), 2);
    b.Resize(5);
    EXPECT_EQ(a.numel(), 5);
  }
  EXPECT_EQ(a.use_count(), 1);
  EXPECT_EQ(a.storage().use_count(), 1);
  NDArray v = a.view({5, 1});
  EXPECT_EQ(a.storage().use_count(), 2);
  EXPECT_FALSE(a.storage().unique());
  v = NDArray();
  EXPECT_TRUE(a.storage().unique());
}

TEST(Bridge, NDArrayToTBlobAndTensor) {
  NDArray a = NDArray::Empty<float>({3, 4, 6});
  for (index_t i = 0; i < a.numel(); ++i) a.data<float>()[i] = static_cast<float>(i);
  shade::TBlob blob = shade::ToTBlob(a);
  EXPECT_EQ(blob.dptr_, a.data_ptr());
  EXPECT_EQ(blob.stride_, 6);
  EXPECT_EQ(blob.type_flag_, shade::kFloat32);
  auto t2 = blob.FlatTo2D<shade::cpu, float>();
  EXPECT_EQ(t2[5][2], a.at<float>(1, 1, 2));
  // A column block is row-pitched: pitch 6, rows of 4.
  NDArray block = a.narrow(2, 1, 4);
  EXPECT_EQ(shade::RowPitch(block), 6);
  auto t3 = shade::ToTensor<shade::cpu, 3, float>(block);
  EXPECT_EQ(t3.stride_, 6);
  EXPECT_EQ(t3[2][3][1], a.at<float>(2, 3, 2));
  t3[0][0][0] = -5;
  EXPECT_EQ(a.at<float>(0, 0, 1), -5);
  // Not row-pitched: a clear error, and contiguous() fixes it.
  ExpectErrorContaining([&] { shade::ToTBlob(a.transpose(0, 2)); }, "is not row-pitched; call contiguous() first");
  ExpectErrorContaining([&] { shade::ToTensor<shade::cpu, 3, float>(a.narrow(1, 0, 2)); }, "strides (24,6,1)");
  EXPECT_EQ(shade::ToTBlob(a.transpose(0, 2).contiguous()).stride_, 3);
  ExpectErrorContaining([&] { shade::ToTensor<shade::cpu, 2, float>(a); }, "has rank 3, not 2");
  ExpectErrorContaining([&] { shade::ToTensor<shade::cpu, 3, double>(a); }, "caller expects elements to be float64");
  ExpectErrorContaining([&] { shade::ToTBlob(NDArray::Empty<std::string>({2})); }, "has no dtype flag");
  EXPECT_EQ(shade::ToTBlob(NDArray::Empty<double>(IndexSpan())).ndim(), 0);
}

TEST(Bridge, TBlobToNDArrayView) {
  std::vector<double> buf(3 * 8, 0);
  for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<double>(i);
  shade::TBlob blob(buf.data(), shade::TShape{3, 5}, shade::cpu::kDevMask);
  blob.stride_ = 8;  // padded rows
  NDArray v = shade::FromTBlob(blob);
  EXPECT_EQ(v.strides(), IndexSpan({8, 1}));
  EXPECT_EQ(v.at<double>(2, 4), 20);
  EXPECT_FALSE(v.storage().unsafeGetStorageImpl()->owns_data());
  v.at<double>(1, 1) = -1;
  EXPECT_EQ(buf[9], -1);
  NDArray round = shade::FromTBlob(shade::ToTBlob(v));
  EXPECT_EQ(round.data_ptr(), v.data_ptr());
  EXPECT_EQ(round.strides(), v.strides());
  blob.stride_ = 4;
  ExpectErrorContaining([&] { shade::FromTBlob(blob); }, "row pitch 4 is smaller than the row length 5");
}

// Small arrays from NDArray::Empty: NDArrayImpl, StorageImpl and data in one allocation that is
// freed after both objects are gone; every Caffe2-style lifecycle operation keeps working.
NDArray SmallIota(std::vector<index_t> shape, float start = 0) {
  NDArray a = NDArray::Empty(shape, TypeMeta::Make<float>());
  float* p = a.mutable_data<float>();
  for (index_t i = 0; i < a.numel(); ++i) p[i] = start + static_cast<float>(i);
  return a;
}

TEST(NDArray, SmallArrayIsOneAlignedAllocation) {
  const std::uint64_t before = shade::AllocationCount();
  NDArray a = NDArray::Empty({4}, TypeMeta::Make<float>());
  EXPECT_EQ(shade::AllocationCount() - before, 1u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data_ptr()) % shade::kAlignBytes, 0u);
  EXPECT_EQ(a.capacity_nbytes(), 16u);
  EXPECT_TRUE(a.storage().unsafeGetStorageImpl()->owns_data());
  EXPECT_EQ(a.use_count(), 1);
  EXPECT_EQ(a.storage().use_count(), 1);
  // Around the inline limit (256 bytes of data) and past it: every size reads back.
  for (index_t n : {1, 63, 64, 65, 100}) {
    NDArray b = SmallIota({n}, 1);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data_ptr()) % shade::kAlignBytes, 0u);
    for (index_t i = 0; i < n; ++i) ASSERT_EQ(b.at<float>(i), 1 + static_cast<float>(i));
  }
}

TEST(NDArray, SmallArrayViewsAndStorageOutliveTheOwner) {
  NDArray v;
  shade::Storage s;
  {
    NDArray a = SmallIota({2, 3});
    v = a.transpose(0, 1);
    s = a.storage();
  }
  EXPECT_EQ(s.use_count(), 2);  // v's impl and s
  for (index_t i = 0; i < 3; ++i) {
    for (index_t j = 0; j < 2; ++j) EXPECT_EQ(v.at<float>(i, j), static_cast<float>(j * 3 + i));
  }
  v = NDArray();
  EXPECT_EQ(s.use_count(), 1);
  EXPECT_EQ(static_cast<const float*>(s.data())[5], 5.0f);
}

TEST(NDArray, SmallArrayShareDataBothWays) {
  // From a small array: the sharer keeps its data alive.
  NDArray b({4});
  b.mutable_data<float>();
  {
    NDArray a = SmallIota({4}, 7);
    b.ShareData(a);
  }
  for (index_t i = 0; i < 4; ++i) EXPECT_EQ(b.at<float>(i), 7 + static_cast<float>(i));
  // Into a small array: its own storage goes, its impl keeps working on the shared data.
  NDArray d({4});
  float* dp = d.mutable_data<float>();
  NDArray c = SmallIota({4});
  c.ShareData(d);
  dp[2] = 42;
  EXPECT_EQ(c.at<float>(2), 42.0f);
  d = NDArray();
  c.at<float>(3) = 5;
  EXPECT_EQ(c.at<float>(3), 5.0f);
}

TEST(NDArray, SmallArrayGrowsIntoASeparateBuffer) {
  NDArray a = SmallIota({4, 2});
  const void* inline_data = a.data_ptr();
  a.Extend(100, 50);  // past the inline bytes: a separate buffer, old rows copied
  EXPECT_NE(a.data_ptr(), inline_data);
  for (index_t i = 0; i < 8; ++i) EXPECT_EQ(a.data<float>()[i], static_cast<float>(i));
  a.Resize(1000);
  float* p = a.mutable_data<float>();
  for (index_t i = 0; i < 1000; ++i) p[i] = static_cast<float>(i);
  EXPECT_EQ(a.at<float>(999), 999.0f);
  // ShrinkTo and Reshape stay in the inline bytes.
  NDArray b = SmallIota({4, 2});
  const void* bd = b.data_ptr();
  b.ShrinkTo(2);
  b.Reshape({4});
  EXPECT_EQ(b.data_ptr(), bd);
  EXPECT_EQ(b.at<float>(3), 3.0f);
  // ReserveSpace past the inline bytes reallocates (Caffe2 discards the contents).
  NDArray r = SmallIota({2, 2});
  r.ReserveSpace(100);
  EXPECT_GE(r.capacity_nbytes(), 800u);
  EXPECT_NE(r.data_ptr(), nullptr);
  // FreeMemory then a new allocation.
  NDArray f = SmallIota({3});
  f.FreeMemory();
  EXPECT_EQ(f.capacity_nbytes(), 0u);
  f.mutable_data<float>()[0] = 1;
  EXPECT_EQ(f.at<float>(0), 1.0f);
}

int g_small_external_freed = 0;
TEST(NDArray, SmallArrayTakesExternalPointers) {
  g_small_external_freed = 0;
  {
    NDArray a = SmallIota({4});
    a.ShareExternalPointer(new float[4]{9, 8, 7, 6}, TypeMeta::Make<float>(), 16, [](void* p) {
      ++g_small_external_freed;
      delete[] static_cast<float*>(p);
    });
    EXPECT_EQ(a.at<float>(1), 8.0f);
    EXPECT_TRUE(a.storage().unsafeGetStorageImpl()->owns_data());
  }
  EXPECT_EQ(g_small_external_freed, 1);
  // Borrowed memory is never freed.
  float buf[4] = {1, 2, 3, 4};
  {
    NDArray a = SmallIota({4});
    a.ShareExternalPointer(buf, TypeMeta::Make<float>());
    EXPECT_EQ(a.at<float>(3), 4.0f);
  }
  EXPECT_EQ(buf[0], 1.0f);
}

TEST(NDArray, SmallArraysDieOnAnotherThread) {
  // Blocks made on one thread and released on another (arrays and their storage separately).
  std::vector<NDArray> arrays;
  std::vector<shade::Storage> storages;
  std::thread maker([&] {
    for (int i = 0; i < 500; ++i) {
      arrays.push_back(SmallIota({3}, static_cast<float>(i)));
      storages.push_back(arrays.back().storage());
    }
  });
  maker.join();
  std::thread arrays_killer([&] { arrays.clear(); });
  for (std::size_t i = 0; i < storages.size(); ++i) {
    EXPECT_EQ(static_cast<const float*>(storages[i].data())[2], static_cast<float>(i) + 2);
  }
  arrays_killer.join();
  storages.clear();
  NDArray again = SmallIota({3}, 1);
  EXPECT_EQ(again.at<float>(2), 3.0f);
}

}  // namespace
