// shade/compat/th.h: Torch TH's THStorage / THTensor API for every real type. The generic
// checks run once per type through TH's generator mechanism; the tests below use concrete
// names and compare with naive index loops.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ndarray_test_util.h"
#include "shade/compat/th.h"

// One GenericChecks<Real>() per real type, written once with real / Real / accreal. The order
// matters (the generic file defines TH_GENERIC_FILE, the generator includes it per type).
// clang-format off
#include "compat/th_generic_checks.h"
#include "shade/compat/th_generate_all_types.h"
#include "compat/th_generic_checks.h"
#include "shade/compat/th_generate_half_type.h"
// clang-format on

namespace {

using shade_test::ExpectErrorContaining;

TEST(CompatTH, GenericChecksEveryRealType) {
  GenericChecksByte();
  GenericChecksChar();
  GenericChecksShort();
  GenericChecksInt();
  GenericChecksLong();
  GenericChecksFloat();
  GenericChecksDouble();
  GenericChecksHalf();
}

TEST(CompatTH, AccrealAndElementTypes) {
  EXPECT_TRUE((std::is_same<shade::th::AccReal<std::uint8_t>, std::int64_t>::value));
  EXPECT_TRUE((std::is_same<shade::th::AccReal<float>, double>::value));
  EXPECT_TRUE((std::is_same<shade::th::AccReal<THHalf>, float>::value));
  EXPECT_EQ(THByteStorage_elementSize(), 1u);
  EXPECT_EQ(THShortStorage_elementSize(), 2u);
  EXPECT_EQ(THHalfStorage_elementSize(), 2u);
  EXPECT_EQ(THLongStorage_elementSize(), 8u);
}

TEST(CompatTH, RefcountRetainFree) {
  THFloatTensor* a = THFloatTensor_newWithSize2d(2, 3);
  THFloatStorage* s = THFloatTensor_storage(a);
  EXPECT_EQ(s->refcount.load(), 1);
  THFloatTensor* b = THFloatTensor_newWithTensor(a);  // a second tensor on the storage
  EXPECT_EQ(THFloatTensor_storage(b), s);
  EXPECT_EQ(s->refcount.load(), 2);
  EXPECT_TRUE(THFloatTensor_isSetTo(a, b));
  THFloatTensor_retain(a);
  EXPECT_EQ(a->refcount.load(), 2);
  THFloatTensor_free(a);  // still alive: one reference left
  THFloatTensor_set2d(a, 1, 2, 5.f);
  THFloatTensor_free(a);  // gone; the storage lives on in b
  EXPECT_EQ(s->refcount.load(), 1);
  EXPECT_EQ(THFloatTensor_get2d(b, 1, 2), 5.f);
  THFloatStorage_retain(s);
  THFloatTensor_free(b);
  EXPECT_EQ(s->refcount.load(), 1);
  EXPECT_EQ(THFloatStorage_get(s, 5), 5.f);
  THFloatStorage_free(s);
  THFloatTensor_free(nullptr);  // TH: freeing NULL is a no-op
  THFloatStorage_free(nullptr);
}

TEST(CompatTH, NewWithDataAdoptsTHAllocMemory) {
  auto* mem = static_cast<double*>(THAlloc(4 * sizeof(double)));
  for (int i = 0; i < 4; ++i) mem[i] = i * 1.5;
  THDoubleStorage* s = THDoubleStorage_newWithData(mem, 4);
  EXPECT_EQ(THDoubleStorage_data(s), mem);
  EXPECT_EQ(THDoubleStorage_size(s), 4);
  THDoubleTensor* t = THDoubleTensor_newWithStorage2d(s, 0, 2, -1, 2, -1);  // -1: contiguous
  EXPECT_EQ(THDoubleTensor_stride(t, 0), 2);
  EXPECT_EQ(THDoubleTensor_get2d(t, 1, 1), 4.5);
  THDoubleStorage_free(s);
  THDoubleTensor_free(t);  // frees mem with THFree
  EXPECT_EQ(THAlloc(0), nullptr);
  THDoubleStorage* s4 = THDoubleStorage_newWithSize4(1, 2, 3, 4);
  EXPECT_EQ(THDoubleStorage_get(s4, 3), 4.0);
  THDoubleStorage* copy = THDoubleStorage_newWithSize(4);
  THDoubleStorage_copy(copy, s4);
  EXPECT_EQ(THDoubleStorage_get(copy, 2), 3.0);
  THDoubleStorage_free(copy);
  THDoubleStorage_free(s4);
}

TEST(CompatTH, EmptyAndZeroSizeTensors) {
  THIntTensor* t = THIntTensor_new();
  EXPECT_EQ(THIntTensor_nDimension(t), 0);
  EXPECT_EQ(THIntTensor_nElement(t), 0);
  EXPECT_EQ(THIntTensor_storage(t), nullptr);
  EXPECT_EQ(THIntTensor_data(t), nullptr);
  EXPECT_TRUE(THIntTensor_isContiguous(t));
  int visits = 0;
  TH_TENSOR_APPLY(int32_t, t, ++visits;);
  EXPECT_EQ(visits, 0);
  THIntTensor_fill(t, 3);         // nothing to fill
  THIntTensor_resize2d(t, 2, 3);  // the first resize creates the storage
  ASSERT_NE(THIntTensor_storage(t), nullptr);
  EXPECT_EQ(THIntStorage_size(THIntTensor_storage(t)), 6);
  THIntTensor_resize2d(t, 0, 5);  // Torch7: a 0 size ends the dimensions -> empty
  EXPECT_EQ(THIntTensor_nDimension(t), 0);
  EXPECT_EQ(THIntTensor_nElement(t), 0);
  EXPECT_EQ(THIntStorage_size(THIntTensor_storage(t)), 6);  // the storage is kept
  THIntTensor* u = THIntTensor_new();
  THIntTensor_copy(u, t);  // 0 elements each
  TH_TENSOR_APPLY2(int32_t, u, int32_t, t, ++visits;);
  EXPECT_EQ(visits, 0);
  EXPECT_TRUE(THIntTensor_isSameSizeAs(u, t));
  EXPECT_STREQ(THIntTensor_sizeDesc(t).str, "[]");
  ExpectErrorContaining([&] { THIntTensor_size(t, 0); }, "out of range of a 0D tensor");
  ExpectErrorContaining([&] { THIntTensor_get1d(t, 0); }, "must have 1 dimension");
  THLongStorage* sz = THIntTensor_newSizeOf(t);
  EXPECT_EQ(THLongStorage_size(sz), 0);
  THLongStorage_free(sz);
  THIntTensor_free(u);
  THIntTensor_free(t);
}

TEST(CompatTH, ResizeGrowsTheSharedStorage) {
  THLongTensor* a = THLongTensor_newWithSize1d(4);
  THLongTensor_fill(a, 42);
  THLongTensor* b = THLongTensor_newWithTensor(a);
  THLongTensor_resize2d(a, 3, 5);
  EXPECT_EQ(THLongStorage_size(THLongTensor_storage(a)), 15);
  EXPECT_EQ(THLongTensor_storage(b), THLongTensor_storage(a));
  EXPECT_EQ(THLongTensor_get1d(b, 3), 42);  // the first elements survive the reallocation
  EXPECT_EQ(THLongTensor_data(b), THLongTensor_data(a));
  THLongTensor* c = THLongTensor_new();
  THLongTensor_resizeAs(c, a);
  EXPECT_TRUE(THLongTensor_isSameSizeAs(c, a));
  EXPECT_FALSE(THLongTensor_isSetTo(c, a));
  THLongTensor_set(c, b);
  EXPECT_TRUE(THLongTensor_isSetTo(c, b));
  THLongTensor_resize5d(c, 1, 2, 1, 2, 1);
  EXPECT_EQ(THLongTensor_nDimension(c), 5);
  THLongTensor_squeeze(c, nullptr);
  EXPECT_EQ(THLongTensor_nDimension(c), 2);
  THLongTensor_unsqueeze1d(c, nullptr, 1);
  EXPECT_EQ(THLongTensor_size(c, 1), 1);
  THLongTensor_squeeze1d(c, nullptr, 1);
  EXPECT_EQ(THLongTensor_nDimension(c), 2);
  EXPECT_STREQ(THLongTensor_sizeDesc(c).str, "[2 x 2]");
  // Large 64-bit values stay exact through fill and copy (no detour through double).
  const int64_t big = (int64_t(1) << 62) + 1;
  THLongTensor_fill(c, big);
  THLongTensor* d = THLongTensor_newClone(c);
  EXPECT_EQ(THLongTensor_get2d(d, 1, 1), big);
  THLongStorage* st = THLongTensor_newStrideOf(c);
  EXPECT_EQ(THLongStorage_get(st, 0), 2);
  THLongTensor* e = THLongTensor_newWithSize(st, nullptr);  // sizes (2, 1)
  EXPECT_EQ(THLongTensor_size(e, 0), 2);
  EXPECT_EQ(THLongTensor_size(e, 1), 1);
  THLongStorage_free(st);
  for (THLongTensor* x : {a, b, c, d, e}) THLongTensor_free(x);
}

// Naive value of element `idx` of a view: storage[offset + sum idx[d] * stride[d]].
double NaiveGet(THDoubleTensor* t, const std::vector<long>& idx) {  // NOLINT(runtime/int)
  long off = THDoubleTensor_storageOffset(t);                       // NOLINT(runtime/int)
  for (std::size_t d = 0; d < idx.size(); ++d) off += idx[d] * THDoubleTensor_stride(t, d);
  return THDoubleStorage_data(THDoubleTensor_storage(t))[off];
}

TEST(CompatTH, ViewsMatchNaiveIndexing) {
  THDoubleTensor* t = THDoubleTensor_newWithSize3d(4, 5, 6);
  double* data = THDoubleTensor_data(t);
  for (int i = 0; i < 120; ++i) data[i] = i;
  THDoubleTensor* n = THDoubleTensor_newNarrow(t, 1, 1, 3);  // 4x3x6
  EXPECT_EQ(THDoubleTensor_storageOffset(n), 6);
  EXPECT_FALSE(THDoubleTensor_isContiguous(n));
  THDoubleTensor* s = THDoubleTensor_newSelect(n, 2, 4);  // 4x3
  EXPECT_EQ(THDoubleTensor_nDimension(s), 2);
  for (long i = 0; i < 4; ++i)    // NOLINT(runtime/int)
    for (long j = 0; j < 3; ++j)  // NOLINT(runtime/int)
      EXPECT_EQ(THDoubleTensor_get2d(s, i, j), i * 30 + (j + 1) * 6 + 4);
  THDoubleTensor* u = THDoubleTensor_newUnfold(t, 2, 4, 2);  // 4x5x2x4
  ASSERT_EQ(THDoubleTensor_nDimension(u), 4);
  EXPECT_EQ(THDoubleTensor_size(u, 2), 2);
  EXPECT_EQ(THDoubleTensor_stride(u, 2), 2);
  EXPECT_EQ(THDoubleTensor_size(u, 3), 4);
  for (long w = 0; w < 2; ++w)    // NOLINT(runtime/int)
    for (long k = 0; k < 4; ++k)  // NOLINT(runtime/int)
      EXPECT_EQ(THDoubleTensor_get4d(u, 3, 2, w, k), 3 * 30 + 2 * 6 + w * 2 + k);
  // APPLY over the unfolded (overlapping, non-contiguous) view visits row-major order.
  std::vector<double> seen, expect;
  TH_TENSOR_APPLY(double, u, seen.push_back(*u_data););
  for (long a = 0; a < 4; ++a)      // NOLINT(runtime/int)
    for (long b = 0; b < 5; ++b)    // NOLINT(runtime/int)
      for (long w = 0; w < 2; ++w)  // NOLINT(runtime/int)
        for (long k = 0; k < 4; ++k) expect.push_back(NaiveGet(u, {a, b, w, k}));  // NOLINT
  EXPECT_EQ(seen, expect);
  // In-place forms with self == src.
  THDoubleTensor* v = THDoubleTensor_newWithTensor(t);
  THDoubleTensor_transpose(v, nullptr, 0, 2);
  THDoubleTensor_narrow(v, nullptr, 0, 2, 3);
  THDoubleTensor_select(v, nullptr, 1, 4);  // 3x4, element (i, j) = t[j][4][i + 2]
  for (long i = 0; i < 3; ++i)              // NOLINT(runtime/int)
    for (long j = 0; j < 4; ++j)            // NOLINT(runtime/int)
      EXPECT_EQ(THDoubleTensor_get2d(v, i, j), j * 30 + 4 * 6 + i + 2);
  THDoubleTensor_unfold(v, nullptr, 1, 2, 1);  // 3x3x2
  EXPECT_EQ(THDoubleTensor_get3d(v, 1, 2, 1), 3 * 30 + 24 + 1 + 2);
  THDoubleTensor* w = THDoubleTensor_new();
  THDoubleTensor_setStorage3d(w, THDoubleTensor_storage(t), 7, 2, 30, 2, 6, 2, 1);
  EXPECT_EQ(THDoubleTensor_get3d(w, 1, 1, 1), 7 + 30 + 6 + 1);
  for (THDoubleTensor* x : {t, n, s, u, v, w}) THDoubleTensor_free(x);
}

TEST(CompatTH, Apply2And3OverPermutedLayouts) {
  // Three 3x4x5 tensors with different layouts; APPLY3 pairs elements by row-major position.
  THFloatTensor* base = THFloatTensor_newWithSize3d(5, 4, 3);
  for (int i = 0; i < 60; ++i) THFloatTensor_data(base)[i] = static_cast<float>(i);
  THFloatTensor* a = THFloatTensor_newTranspose(base, 0, 2);  // 3x4x5, strides 1,3,12
  THFloatTensor* b = THFloatTensor_newClone(a);               // contiguous copy
  THFloatTensor* c = THFloatTensor_newWithSize1d(60);         // other shape, same nElement
  TH_TENSOR_APPLY3(float, c, float, a, float, b, *c_data = *a_data * 100 + *b_data;);
  long k = 0;  // NOLINT(runtime/int)
  for (long i = 0; i < 3; ++i)
    for (long j = 0; j < 4; ++j)
      for (long l = 0; l < 5; ++l, ++k) {
        const float v = THFloatTensor_get3d(a, i, j, l);
        EXPECT_EQ(v, static_cast<float>(l * 12 + j * 3 + i));
        EXPECT_EQ(THFloatTensor_get1d(c, k), v * 101);
      }
  // TH's early exit (THTensor_(equal)): set TH_TENSOR_APPLY_hasFinished and break.
  int compared = 0;
  bool equal = true;
  THFloatTensor_set3d(b, 0, 1, 0, -1.f);  // position 5 in row-major order
  TH_TENSOR_APPLY2(
      float, a, float, b, ++compared; if (*a_data != *b_data) {
        equal = false;
        TH_TENSOR_APPLY_hasFinished = 1;
        break;
      });
  EXPECT_FALSE(equal);
  EXPECT_EQ(compared, 6);
  // Same nElement, other layout: allowed, each walked in its own order.
  float first_of_base = -1;
  TH_TENSOR_APPLY2(float, a, float, base, if (first_of_base < 0) first_of_base = *base_data;);
  EXPECT_EQ(first_of_base, 0.f);
  THFloatTensor* small = THFloatTensor_newWithSize1d(7);
  ExpectErrorContaining([&] { TH_TENSOR_APPLY2(float, small, float, a, (void)small_data;); },
                        "inconsistent tensor size, expected small and a to have the same number "
                        "of elements, but got 7 and 60");
  for (THFloatTensor* x : {base, a, b, c, small}) THFloatTensor_free(x);
}

TEST(CompatTH, CrossTypeCopies) {
  THHalfTensor* h = THHalfTensor_newWithSize2d(2, 2);
  THFloatTensor* f = THFloatTensor_newWithSize1d(4);
  for (int i = 0; i < 4; ++i) THFloatTensor_set1d(f, i, 0.5f + i);
  THHalfTensor_copyFloat(h, f);
  EXPECT_EQ(static_cast<float>(THHalfTensor_get2d(h, 1, 0)), 2.5f);
  THByteTensor* by = THByteTensor_newWithSize2d(2, 2);
  THByteTensor_copyHalf(by, h);  // truncation toward zero, as C's conversion
  EXPECT_EQ(THByteTensor_get2d(by, 1, 1), 3);
  THDoubleTensor* d = THDoubleTensor_newWithSize2d(2, 2);
  THHalfTensor* ht = THHalfTensor_newTranspose(h, 0, 1);
  THDoubleTensor_copyHalf(d, ht);
  EXPECT_EQ(THDoubleTensor_get2d(d, 0, 1), 2.5);
  THDoubleTensor* d2 = THDoubleTensor_newWithSize1d(4);
  THDoubleTensor_freeCopyTo(THDoubleTensor_newClone(d), d2);
  EXPECT_EQ(THDoubleTensor_get1d(d2, 1), 2.5);
  THHalfTensor_free(ht);
  THHalfTensor_free(h);
  THFloatTensor_free(f);
  THByteTensor_free(by);
  THDoubleTensor_free(d);
  THDoubleTensor_free(d2);
}

TEST(CompatTH, ErrorsBecomeShadeErrors) {
  THShortTensor* t = THShortTensor_newWithSize2d(3, 4);
  ExpectErrorContaining([&] { THShortTensor_get2d(t, 3, 0); }, "index 3 out of range for size 3");
  ExpectErrorContaining([&] { THShortTensor_set2d(t, 0, -1, 1); }, "index -1 out of range");
  ExpectErrorContaining([&] { THShortTensor_get1d(t, 0); }, "must have 1 dimension(s), it has 2");
  ExpectErrorContaining([&] { THShortTensor_size(t, 2); }, "dimension 2 out of range of a 2D");
  ExpectErrorContaining([&] { THShortTensor_free(THShortTensor_newNarrow(t, 1, 2, 3)); },
                        "THTensor_narrow: size 3 out of range");
  ExpectErrorContaining([&] { THShortTensor_free(THShortTensor_newTranspose(t, 0, 5)); },
                        "dimension 5 out of range");
  ExpectErrorContaining([&] { THShortTensor_free(THShortTensor_newUnfold(t, 1, 5, 1)); },
                        "window size 5 out of range for size 4");
  ExpectErrorContaining([&] { THShortTensor_free(THShortTensor_newUnfold(t, 1, 2, 0)); },
                        "step 0 is not positive");
  THShortTensor* row = THShortTensor_newSelect(t, 0, 1);
  ExpectErrorContaining([&] { THShortTensor_select(row, nullptr, 0, 0); },
                        "cannot select on a vector");
  THShortTensor* other = THShortTensor_newWithSize1d(5);
  ExpectErrorContaining([&] { THShortTensor_copy(other, t); },
                        "but got 5 and 12 elements respectively");
  ExpectErrorContaining([&] { THShortTensor_resize2d(other, -1, 2); }, "size -1 of dimension 0");
  ExpectErrorContaining([&] { THShortTensor_resize2d(other, int64_t(1) << 62, 8); }, "overflows");
  THShortStorage* s = THShortStorage_newWithSize(3);
  ExpectErrorContaining([&] { THShortStorage_get(s, 3); }, "index 3 out of bounds");
  ExpectErrorContaining([&] { THShortStorage_set(s, -1, 0); }, "index -1 out of bounds");
  THShortStorage* s2 = THShortStorage_newWithSize(2);
  ExpectErrorContaining([&] { THShortStorage_copy(s, s2); }, "size mismatch");
  ExpectErrorContaining([&] { THShortStorage_resize(s, -2); }, "size -2 is negative");
  ExpectErrorContaining([&] { THError("bad value %d", 7); }, "bad value 7");
  ExpectErrorContaining([&] { THArgCheck(1 == 2, 3, "expected %s", "equality"); },
                        "TH argument #3 (1 == 2)");
  THShortStorage_free(s);
  THShortStorage_free(s2);
  THShortTensor_free(other);
  THShortTensor_free(row);
  THShortTensor_free(t);
}

}  // namespace
