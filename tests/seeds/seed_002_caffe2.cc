// Seed note 002 (Caffe2 Tensor / TensorImpl / Storage): each method's documented behaviour and
// error message, on NDArray.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "ndarray_test_util.h"
#include "shade/compat/caffe2.h"
#include "shade/memory/alloc.h"
#include "shade/ndarray/ndarray.h"

namespace {

using shade::index_t;
using shade::NDArray;
using shade::TypeMeta;

using shade_test::ExpectErrorContaining;

// Restores the global keep-on-shrink settings after a test changes them.
struct KeepOnShrinkGuard {
  bool keep = NDArray::KeepOnShrink();
  std::int64_t max = NDArray::MaxKeepOnShrinkMemory();
  ~KeepOnShrinkGuard() {
    NDArray::SetKeepOnShrink(keep);
    NDArray::SetMaxKeepOnShrinkMemory(max);
  }
};

TEST(SeedCaffe2, TensorHandleAndUndefinedTensor) {
  NDArray undefined;
  EXPECT_FALSE(undefined);
  EXPECT_FALSE(undefined.defined());
  ExpectErrorContaining([&] { (void)undefined.ndim(); }, "NDArray is undefined");
  NDArray t({2, 3});
  EXPECT_TRUE(t);
  NDArray alias = t;  // copying a Tensor shares the TensorImpl
  EXPECT_TRUE(alias.is_same(t));
  EXPECT_EQ(t.use_count(), 2);
  alias.Resize(4, 5);
  EXPECT_EQ(t.sizes(), shade::IndexSpan({4, 5}));
}

TEST(SeedCaffe2, ConstructorIsLazy) {
  // "the actual data allocation is not going to be carried out until the first time
  // mutable_data() is called."
  const std::uint64_t before = shade::AllocationCount();
  NDArray t({2, 3});
  EXPECT_EQ(t.ndim(), 2);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.capacity_nbytes(), 0u);
  EXPECT_EQ(shade::AllocationCount(), before);
  EXPECT_FALSE(t.dtype().initialized());
  ExpectErrorContaining(
      [&] { t.data<float>(); },
      "The tensor is of non-zero shape, but its data is not allocated yet. Caffe2 "
      "uses a lazy allocation, so you will need to call mutable_data() or "
      "raw_mutable_data() to actually allocate memory.");
  ExpectErrorContaining([&] { t.raw_data(); }, "data is not allocated yet");
  float* p = t.mutable_data<float>();
  EXPECT_NE(p, nullptr);
  EXPECT_EQ(shade::AllocationCount(), before + 1);
  EXPECT_EQ(t.itemsize(), 4u);
  EXPECT_EQ(t.nbytes(), 24u);
  EXPECT_EQ(t.capacity_nbytes(), 24u);
  EXPECT_EQ(t.data<float>(), p);
  EXPECT_EQ(t.mutable_data<float>(), p);  // same type: kept
  // A scalar: Resize with no dims has one item.
  NDArray s{shade::IndexSpan()};
  EXPECT_EQ(s.numel(), 1);
  s.Resize();
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.numel(), 1);
}

TEST(SeedCaffe2, DataTypeMismatchMessage) {
  NDArray t({3});
  t.mutable_data<float>();
  ExpectErrorContaining([&] { t.data<std::int32_t>(); },
                        "Tensor type mismatch, caller expects elements to be int32 while tensor "
                        "contains float32");
  EXPECT_TRUE(t.IsType<float>());
}

TEST(SeedCaffe2, ResizeKeepsStorageWhenItFits) {
  KeepOnShrinkGuard guard;
  NDArray t({4, 6});
  float* p = t.mutable_data<float>();
  t.Resize(6, 4);  // same numel: storage kept
  EXPECT_EQ(t.mutable_data<float>(), p);
  t.Resize(2, 3);  // shrink: kept (keep_on_shrink, unbounded)
  EXPECT_EQ(t.capacity_nbytes(), 96u);
  EXPECT_EQ(t.mutable_data<float>(), p);
  EXPECT_EQ(t.nbytes(), 24u);
  t.Resize(10, 10);  // grow beyond capacity: freed now, reallocated lazily
  EXPECT_EQ(t.capacity_nbytes(), 0u);
  EXPECT_EQ(t.data_ptr(), nullptr);
  t.mutable_data<float>();
  EXPECT_EQ(t.capacity_nbytes(), 400u);
}

TEST(SeedCaffe2, KeepOnShrinkPolicyAndBound) {
  KeepOnShrinkGuard guard;
  NDArray t({1000});
  t.mutable_data<float>();
  NDArray::SetKeepOnShrink(false);
  t.Resize(500);  // !keep_on_shrink: freed
  EXPECT_EQ(t.capacity_nbytes(), 0u);
  t.mutable_data<float>();
  NDArray::SetKeepOnShrink(true);
  NDArray::SetMaxKeepOnShrinkMemory(1000);
  t.Resize(300);  // leaves 800 unused bytes <= 1000: kept
  EXPECT_EQ(t.capacity_nbytes(), 2000u);
  t.Resize(100);  // would leave 1600 > 1000: freed
  EXPECT_EQ(t.capacity_nbytes(), 0u);
  ExpectErrorContaining([] { NDArray::SetMaxKeepOnShrinkMemory(-5); }, "-5");
}

TEST(SeedCaffe2, ReshapeKeepsStorageAndNeedsEqualSize) {
  NDArray t({2, 6});
  float* p = t.mutable_data<float>();
  t.Reshape({3, 4});
  EXPECT_EQ(t.sizes(), shade::IndexSpan({3, 4}));
  EXPECT_EQ(t.data<float>(), p);
  ExpectErrorContaining(
      [&] {
        t.Reshape({5, 5});
      },
      "New size and old size are not equal. You cannot use Reshape, but should "
      "use Resize.");
  ExpectErrorContaining([&] { t.Reshape({5, 5}); }, "25 elements");
  ExpectErrorContaining([&] { t.Reshape({-3, -4}); }, "-3");
  NDArray tr = t.transpose(0, 1);
  ExpectErrorContaining([&] { tr.Reshape({12}); },
                        "Tensor must be contiguous in order to call Reshape.");
}

TEST(SeedCaffe2, ExtendGrowsAmortisedAndKeepsData) {
  NDArray t({10, 3});
  float* p = t.mutable_data<float>();
  for (int i = 0; i < 30; ++i) p[i] = static_cast<float>(i);
  t.Extend(5, 50);  // capacity rows max(15, ceil(10 * 150 / 100)) = 15
  EXPECT_EQ(t.size(0), 15);
  EXPECT_EQ(t.capacity_nbytes(), 15u * 3 * 4);
  for (int i = 0; i < 30; ++i) EXPECT_EQ(t.data<float>()[i], static_cast<float>(i));
  t.Extend(1, 50);  // 16 rows > 15: grow to max(16, ceil(15 * 1.5) = 23)
  EXPECT_EQ(t.capacity_nbytes(), 23u * 3 * 4);
  const float* q = t.data<float>();
  t.Extend(7, 50);  // 23 rows fit: no reallocation
  EXPECT_EQ(t.data<float>(), q);
  EXPECT_EQ(t.size(0), 23);
  for (int i = 0; i < 30; ++i) EXPECT_EQ(t.data<float>()[i], static_cast<float>(i));
  ExpectErrorContaining([&] { t.Extend(-1, 50); }, "`num` must be non-negative for Extend");
  NDArray scalar{shade::IndexSpan()};
  scalar.mutable_data<float>();
  ExpectErrorContaining([&] { scalar.Extend(1, 50); }, "at least 1D");
  ExpectErrorContaining([&] { t.transpose(0, 1).Extend(1, 50); },
                        "Tensor must be contiguous in order to call Extend.");
  // Extend before any allocation is a Resize.
  NDArray lazy({2, 2});
  lazy.Extend(3, 10);
  EXPECT_EQ(lazy.size(0), 5);
  EXPECT_EQ(lazy.capacity_nbytes(), 0u);
}

TEST(SeedCaffe2, ExtendIsNeverFreedByResize) {
  KeepOnShrinkGuard guard;
  NDArray::SetKeepOnShrink(false);
  NDArray t({4, 2});
  t.mutable_data<double>();
  t.Extend(4, 100);  // reserved from now on
  const std::size_t cap = t.capacity_nbytes();
  t.Resize(1, 2);  // keep_on_shrink is off, but a reserved tensor keeps its memory
  EXPECT_EQ(t.capacity_nbytes(), cap);
}

TEST(SeedCaffe2, ShrinkToKeepsMemoryAndRefusesSharedStorage) {
  NDArray t({8, 2});
  float* p = t.mutable_data<float>();
  t.ShrinkTo(3);
  EXPECT_EQ(t.size(0), 3);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.data<float>(), p);
  EXPECT_EQ(t.capacity_nbytes(), 64u);  // no reallocation
  ExpectErrorContaining([&] { t.ShrinkTo(4); },
                        "New outer dimension must be smaller than current.");
  NDArray other({6});
  other.ShareData(t);
  ExpectErrorContaining([&] { t.ShrinkTo(1); },
                        "Can't call ShrinkTo on shared storage, please call Resize instead.");
  NDArray v = t.transpose(0, 1);
  ExpectErrorContaining([&] { v.ShrinkTo(1); },
                        "Tensor must be contiguous in order to call ShrinkTo.");
  NDArray scalar{shade::IndexSpan()};
  ExpectErrorContaining([&] { scalar.ShrinkTo(0); }, "Tensor must be at least 1D");
}

TEST(SeedCaffe2, ReserveSpace) {
  NDArray t({2, 4});
  t.mutable_data<float>();
  t.ReserveSpace(10);
  EXPECT_EQ(t.capacity_nbytes(), 160u);
  EXPECT_EQ(t.size(0), 2);  // sizes unchanged
  const float* p = t.data<float>();
  t.Extend(8, 0);  // fits the reserve: no reallocation
  EXPECT_EQ(t.data<float>(), p);
  NDArray shared = t.transpose(0, 1);
  ExpectErrorContaining([&] { t.ReserveSpace(20); }, "Can't call ReserveSpace on shared storage.");
  ExpectErrorContaining([&] { shared.ReserveSpace(20); },
                        "Right now ReserveSpace is only supported for contiguous Tensor.");
}

TEST(SeedCaffe2, ShareDataNeedsEqualNumelAndContent) {
  NDArray src({2, 6});
  NDArray dst({12});
  ExpectErrorContaining([&] { dst.ShareData(src); },
                        "Source tensor has no content and has size > 0");
  float* p = src.mutable_data<float>();
  NDArray wrong({5});
  ExpectErrorContaining([&] { wrong.ShareData(src); },
                        "Size mismatch - did you call reshape before sharing the data?");
  ExpectErrorContaining([&] { wrong.ShareData(src); }, "12 vs. 5)");
  dst.ShareData(src);  // a flattened version sharing the same storage
  EXPECT_EQ(dst.data<float>(), p);
  EXPECT_EQ(src.storage().use_count(), 2);
  dst.data<float>()[7] = 42;
  EXPECT_EQ(src.at<float>(1, 1), 42);
}

TEST(SeedCaffe2, ShareExternalPointer) {
  float buf[6] = {1, 2, 3, 4, 5, 6};
  NDArray t({2, 3});
  t.ShareExternalPointer(buf, TypeMeta::Make<float>());  // no deleter: borrowed
  EXPECT_EQ(t.data<float>(), buf);
  EXPECT_EQ(t.capacity_nbytes(), sizeof(buf));
  EXPECT_EQ(t.at<float>(1, 2), 6);
  ExpectErrorContaining([&] { t.ShareExternalPointer(buf, TypeMeta()); },
                        "To share with a raw external pointer you need to pass in an initialized "
                        "data_type(TypeMeta).");
  ExpectErrorContaining([&] { t.ShareExternalPointer(buf, TypeMeta::Make<float>(), 8); },
                        "capacity of 8 bytes");
  int freed = 0;
  {
    NDArray owner({4});
    NDArray keep = owner.transpose(0, 0);  // storage shared: a new storage is made
    auto* heap = new double[4]{1, 2, 3, 4};
    owner.ShareExternalPointer(heap, TypeMeta::Make<double>(), 0, [&freed](void* q) {
      ++freed;
      delete[] static_cast<double*>(q);
    });
    EXPECT_FALSE(owner.storage().is_alias_of(keep.storage()));
    EXPECT_EQ(owner.at<double>(3), 4);
  }
  EXPECT_EQ(freed, 1);
}

TEST(SeedCaffe2, RawMutableDataChangesTheType) {
  NDArray t({4});
  float* f = t.mutable_data<float>();
  shade::StorageImpl* impl = t.storage().unsafeGetStorageImpl();
  // Unique storage: re-typed in place; int32 fits the same 16 bytes and is reused.
  std::int32_t* i = t.mutable_data<std::int32_t>();
  EXPECT_EQ(static_cast<void*>(i), static_cast<void*>(f));
  EXPECT_EQ(t.storage().unsafeGetStorageImpl(), impl);
  EXPECT_TRUE(t.IsType<std::int32_t>());
  // double needs 32 bytes: reallocated.
  t.mutable_data<double>();
  EXPECT_EQ(t.capacity_nbytes(), 32u);
  // Shared storage: a new storage is created, the other holder keeps its type and data.
  NDArray other({4});
  other.ShareData(t);
  t.mutable_data<float>();
  EXPECT_FALSE(t.storage().is_alias_of(other.storage()));
  EXPECT_TRUE(other.IsType<double>());
  EXPECT_TRUE(t.IsType<float>());
  void* raw = t.raw_mutable_data(TypeMeta::Make<std::uint8_t>());
  EXPECT_EQ(raw, t.data_ptr());
  EXPECT_EQ(t.itemsize(), 1u);
  NDArray transposed = NDArray::Empty<float>({2, 3}).transpose(0, 1);
  ExpectErrorContaining([&] { transposed.raw_mutable_data(TypeMeta::Make<float>()); },
                        "Tensor must be contiguous in order to call raw_mutable_data()");
  NDArray untyped({2});
  ExpectErrorContaining([&] { untyped.raw_mutable_data(); }, "element type is not set yet");
}

TEST(SeedCaffe2, StringTensorsUsePlacementNew) {
  NDArray t({3});
  std::string* s = t.mutable_data<std::string>();
  EXPECT_TRUE(s[0].empty());
  s[1] = std::string(64, 'a');
  NDArray c = t.Clone();
  EXPECT_EQ(c.data<std::string>()[1], std::string(64, 'a'));
  EXPECT_NE(c.data<std::string>(), s);
  // Switching to a raw type after a type with a destructor always reallocates.
  t.mutable_data<double>();
  EXPECT_TRUE(t.IsType<double>());
}

TEST(SeedCaffe2, CloneAndCopyFrom) {
  NDArray a({2, 3});
  float* p = a.mutable_data<float>();
  for (int i = 0; i < 6; ++i) p[i] = static_cast<float>(i);
  NDArray b = a.Clone();
  EXPECT_FALSE(b.storage().is_alias_of(a.storage()));
  p[0] = 100;
  EXPECT_EQ(b.at<float>(0, 0), 0);
  NDArray c({7});
  c.CopyFrom(a.transpose(0, 1));  // Resize to src's sizes, then copy
  EXPECT_EQ(c.sizes(), shade::IndexSpan({3, 2}));
  EXPECT_EQ(c.at<float>(2, 1), 5);
  EXPECT_TRUE(c.is_contiguous());
  NDArray lazy({4});
  NDArray lazy_clone = lazy.Clone();
  EXPECT_EQ(lazy_clone.capacity_nbytes(), 0u);
  EXPECT_EQ(lazy_clone.numel(), 4);
}

TEST(SeedCaffe2, SizeQueries) {
  NDArray t({3, 5});
  t.mutable_data<std::int64_t>();
  EXPECT_EQ(t.ndim(), 2);
  EXPECT_EQ(t.numel(), 15);
  EXPECT_EQ(t.itemsize(), 8u);
  EXPECT_EQ(t.nbytes(), 120u);
  EXPECT_EQ(t.capacity_nbytes(), 120u);
  EXPECT_EQ(t.dev_mask(), shade::cpu::kDevMask);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The note's Tensor code through shade/compat/caffe2.h (caffe2::Tensor, TIndex, CPUContext).
namespace {

using caffe2::CPU;
using caffe2::CPUContext;
using caffe2::TIndex;

// Restores the caffe2 keep-on-shrink flags.
struct Caffe2FlagGuard {
  bool keep = NDArray::KeepOnShrink();
  std::int64_t max = NDArray::MaxKeepOnShrinkMemory();
  ~Caffe2FlagGuard() {
    caffe2::SetKeepOnShrink(keep);
    caffe2::SetMaxKeepOnShrinkMemory(max);
  }
};

TEST(SeedCaffe2Api, ConstructorHandleAndSizeQueries) {
  caffe2::Tensor undefined;
  EXPECT_FALSE(undefined);
  // "the actual data allocation is not going to be carried out until the first time
  // mutable_data() is called."
  caffe2::Tensor t(std::vector<TIndex>{2, 3}, CPU);
  EXPECT_TRUE(t);
  EXPECT_EQ(t.ndim(), 2);
  EXPECT_EQ(t.size(), 6);
  EXPECT_EQ(t.capacity_nbytes(), 0u);
  ExpectErrorContaining([&] { t.data<float>(); }, "Caffe2 uses a lazy allocation");
  float* d = t.mutable_data<float>();
  EXPECT_EQ(t.itemsize(), sizeof(float));
  EXPECT_EQ(t.nbytes(), 6 * sizeof(float));
  EXPECT_EQ(t.capacity_nbytes(), 6 * sizeof(float));
  EXPECT_TRUE(t.IsType<float>());
  EXPECT_EQ(t.meta(), caffe2::TypeMeta::Make<float>());
  ExpectErrorContaining([&] { t.data<double>(); },
                        "Tensor type mismatch, caller expects elements to be float64 while tensor "
                        "contains float32");  // shade's type names
  // Copying of Tensor results in sharing the same underlying implementation object.
  caffe2::Tensor alias = t;
  alias.Resize(3, 2);
  EXPECT_EQ(t.dims(), (std::vector<TIndex>{3, 2}));
  EXPECT_EQ(t.data<float>(), d);  // same numel: storage kept
  CPUContext context;
  caffe2::Tensor scalar(3.5, &context);
  EXPECT_EQ(scalar.ndim(), 0);
  EXPECT_EQ(*scalar.data<double>(), 3.5);
}

TEST(SeedCaffe2Api, ExtendGrowsByGrowthPctWithAContext) {
  caffe2::Tensor t(std::vector<TIndex>{4, 2}, CPU);
  int* d = t.mutable_data<int>();
  for (int i = 0; i < 8; ++i) d[i] = i;
  // No room left: the context is required (the note's CAFFE_ENFORCE).
  ExpectErrorContaining([&] { t.Extend(1, 50, nullptr); },
                        "Context must be provided to Extend the tensor");
  CPUContext context;
  t.Extend(1, 50, &context);  // capacity max(5, ceil(4 * 150 / 100)) = 6 rows
  EXPECT_EQ(t.dims(), (std::vector<TIndex>{5, 2}));
  EXPECT_EQ(t.capacity_nbytes(), 6 * 2 * sizeof(int));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(t.data<int>()[i], i);
  t.Extend(1, 50, nullptr);  // fits in the capacity: no context needed
  EXPECT_EQ(t.size(), 12);
  ExpectErrorContaining([&] { t.Extend(-1, 50, &context); },
                        "`num` must be non-negative for Extend");
  // ShrinkTo keeps the memory; a larger outer size is refused.
  const void* before = t.raw_data();
  t.ShrinkTo(2);
  EXPECT_EQ(t.size(), 4);
  EXPECT_EQ(t.raw_data(), before);
  ExpectErrorContaining([&] { t.ShrinkTo(3); }, "New outer dimension must be smaller than current");
  caffe2::Tensor sharer(std::vector<TIndex>{2, 2}, CPU);
  sharer.ShareData(t);
  ExpectErrorContaining([&] { t.ShrinkTo(1); },
                        "Can't call ShrinkTo on shared storage, please call Resize instead");
}

TEST(SeedCaffe2Api, ResizeKeepOnShrinkAndReshape) {
  Caffe2FlagGuard guard;
  caffe2::Tensor t(std::vector<TIndex>{10}, CPU);
  const float* d = t.mutable_data<float>();
  caffe2::SetKeepOnShrink(true);
  t.Resize(5);  // shrink: the memory is kept
  EXPECT_EQ(t.mutable_data<float>(), d);
  caffe2::SetMaxKeepOnShrinkMemory(4);  // 5 floats unused > 4 bytes: freed
  t.Resize(std::vector<TIndex>{});
  EXPECT_EQ(t.capacity_nbytes(), 0u);
  caffe2::SetKeepOnShrink(false);
  t.Resize(8);
  t.mutable_data<float>();
  t.Resize(4);
  EXPECT_EQ(t.capacity_nbytes(), 0u);  // no keep-on-shrink: freed at once
  t.mutable_data<float>();
  t.Reshape(std::vector<int>{2, 2});
  EXPECT_EQ(t.dims(), (std::vector<TIndex>{2, 2}));
  ExpectErrorContaining([&] { t.Reshape(std::vector<TIndex>{3}); },
                        "New size and old size are not equal. You cannot use Reshape, but should "
                        "use Resize.");
}

TEST(SeedCaffe2Api, ShareDataAndExternalPointer) {
  caffe2::Tensor src(std::vector<TIndex>{2, 3}, CPU);
  caffe2::Tensor dst(std::vector<TIndex>{6}, CPU);
  ExpectErrorContaining([&] { dst.ShareData(src); }, "Source tensor has no content");
  src.mutable_data<double>()[4] = 7;
  dst.ShareData(src);  // different dims, same numel
  EXPECT_EQ(dst.data<double>()[4], 7);
  caffe2::Tensor other(std::vector<TIndex>{5}, CPU);
  ExpectErrorContaining([&] { other.ShareData(src); },
                        "Size mismatch - did you call reshape before sharing the data?");
  float external[4] = {1, 2, 3, 4};
  caffe2::Tensor ext(std::vector<TIndex>{4}, CPU);
  ext.ShareExternalPointer(external);  // borrowed: never freed
  EXPECT_EQ(ext.data<float>(), external);
  ext.FreeMemory();
  EXPECT_EQ(ext.capacity_nbytes(), 0u);
  // raw_mutable_data(meta) with another type re-types the (unshared) storage.
  caffe2::Tensor r(std::vector<TIndex>{3}, CPU);
  r.mutable_data<float>();
  void* p = r.raw_mutable_data(caffe2::TypeMeta::Make<std::int32_t>());
  EXPECT_TRUE(r.IsType<std::int32_t>());
  EXPECT_NE(p, nullptr);
  // CopyFrom resizes and copies.
  caffe2::Tensor copy(CPU);
  copy.CopyFrom(src);
  EXPECT_EQ(copy.dims(), src.dims());
  EXPECT_EQ(copy.data<double>()[4], 7);
  EXPECT_NE(copy.data<double>(), src.data<double>());
  EXPECT_EQ(copy.DebugString(), "A Tensor of item size 8 and type float64 and dimension (2,3,).");
}

}  // namespace
