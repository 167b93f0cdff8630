// Tensor views (every member), Stream<cpu>, host memory (AllocSpace/FreeSpace/NewTensor/Copy)
// and TensorContainer, against hand-computed layouts.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "shade/memory/alloc.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"
#include "ext_test_util.h"

namespace {

using ext_test::ErrorOf;

using shade::cpu;
using shade::index_t;
using shade::Shape1;
using shade::Shape2;
using shade::Shape3;
using shade::Shape4;
using shade::Tensor;


TEST(Tensor, ConstructorsAndMembers) {
  Tensor<cpu, 3> empty;
  EXPECT_EQ(empty.dptr_, nullptr);
  EXPECT_EQ(empty.shape_, Shape3(0, 0, 0));
  EXPECT_EQ(empty.stream_, nullptr);
  Tensor<cpu, 3> shaped(Shape3(2, 3, 4));
  EXPECT_EQ(shaped.dptr_, nullptr);
  EXPECT_EQ(shaped.stride_, 4);
  std::vector<float> data(2 * 3 * 8);
  shade::Stream<cpu> stream;
  Tensor<cpu, 3> t(data.data(), Shape3(2, 3, 4));
  EXPECT_EQ(t.stride_, 4);
  EXPECT_TRUE(t.CheckContiguous());
  Tensor<cpu, 3> ts(data.data(), Shape3(2, 3, 4), &stream);
  EXPECT_EQ(ts.stream_, &stream);
  Tensor<cpu, 3> p(data.data(), Shape3(2, 3, 4), 8, &stream);  // padded rows
  EXPECT_FALSE(p.CheckContiguous());
  EXPECT_EQ(p.MSize(), 2u * 3u * 8u);
  EXPECT_EQ(p.MemSize<1>(), 3u * 8u);
  EXPECT_EQ(p.MemSize<2>(), 8u);
  EXPECT_EQ(p.size(0), 2);
  EXPECT_EQ(p.size(1), 3);
  EXPECT_EQ(p.size(2), 4);
  p.set_stream(nullptr);
  EXPECT_EQ(p.stream_, nullptr);
  EXPECT_TRUE(stream.CheckIdle());
  stream.Wait();
  stream.CreateBlasHandle();
  static_assert(Tensor<cpu, 3>::kDevCPU && Tensor<cpu, 3>::kSubdim == 2, "");
  static_assert(std::is_same<decltype(t.dptr_), float*>::value, "default dtype is float");
}

TEST(Tensor, IndexSliceFlattenWithPitch) {
  // 2 x 3 x 4 tensor with rows padded to 6: element (i,j,k) at (i*3 + j)*6 + k.
  std::vector<int> data(2 * 3 * 6);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<int>(i);
  Tensor<cpu, 3, int> t(data.data(), Shape3(2, 3, 4), 6, nullptr);
  EXPECT_EQ(t[1][2][3], (1 * 3 + 2) * 6 + 3);
  Tensor<cpu, 2, int> sub = t[1];
  EXPECT_EQ(sub.shape_, Shape2(3, 4));
  EXPECT_EQ(sub.stride_, 6);
  EXPECT_EQ(sub[0][0], 18);
  Tensor<cpu, 3, int> sl = t.Slice(1, 2);
  EXPECT_EQ(sl.shape_, Shape3(1, 3, 4));
  EXPECT_EQ(sl[0][1][1], (3 + 1) * 6 + 1);
  Tensor<cpu, 2, int> flat = t.FlatTo2D();
  EXPECT_EQ(flat.shape_, Shape2(6, 4));
  EXPECT_EQ(flat.stride_, 6);
  EXPECT_EQ(flat[5][3], 5 * 6 + 3);
  // Padded data cannot be viewed as one row.
  std::string msg = ErrorOf([&] { t.FlatTo1D(); });
  EXPECT_NE(msg.find("(2,3,4)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("stride 6"), std::string::npos) << msg;
  // A single padded row can.
  EXPECT_EQ(t.Slice(0, 1)[0].Slice(0, 1).FlatTo1D().size(0), 4);
  Tensor<cpu, 3, int> c(data.data(), Shape3(2, 3, 4));
  EXPECT_EQ(c.FlatTo1D().shape_, Shape1(24));
  EXPECT_EQ(c.FlatTo1D()[23], 23);
  // Slice bounds are checked and named.
  msg = ErrorOf([&] { t.Slice(1, 3); });
  EXPECT_NE(msg.find("[1, 3)"), std::string::npos) << msg;
  EXPECT_THROW(t.Slice(-1, 1), shade::Error);
  EXPECT_THROW(t.Slice(2, 1), shade::Error);
  EXPECT_EQ(t.Slice(2, 2).size(0), 0);
}

TEST(Tensor, OneDimensional) {
  float v[6] = {0, 1, 2, 3, 4, 5};
  Tensor<cpu, 1> t(v, Shape1(6));
  EXPECT_EQ(t.stride_, 6);
  EXPECT_TRUE(t.CheckContiguous());
  EXPECT_EQ(t.MSize(), 6u);
  EXPECT_EQ(t.size(0), 6);
  EXPECT_EQ(t[4], 4.f);
  t[4] = 9.f;
  EXPECT_EQ(v[4], 9.f);
  const Tensor<cpu, 1> ct = t;
  EXPECT_EQ(ct[4], 9.f);
  Tensor<cpu, 1> s = t.Slice(2, 5);
  EXPECT_EQ(s.size(0), 3);
  EXPECT_EQ(s[0], 2.f);
  EXPECT_THROW(t.Slice(4, 7), shade::Error);
  EXPECT_EQ(t.FlatTo1D().dptr_, v);
  EXPECT_EQ(t.FlatTo2D().shape_, Shape2(1, 6));
  Tensor<cpu, 1> e;
  EXPECT_EQ(e.size(0), 0);
  shade::Stream<cpu> st;
  Tensor<cpu, 1> w(v, Shape1(6), &st);
  w.set_stream(nullptr);
  EXPECT_EQ(w.stream_, nullptr);
}

TEST(Memory, AllocSpacePaddedAndPacked) {
  Tensor<cpu, 2, float> t(Shape2(3, 5));
  shade::AllocSpace(&t, true);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t.dptr_) % shade::kAlignBytes, 0u);
  EXPECT_EQ(t.stride_, 16);  // 5 floats padded to 64 bytes
  for (index_t i = 0; i < 3; ++i)
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t[i].dptr_) % shade::kAlignBytes, 0u);
  t = 2.5f;
  EXPECT_EQ(t[2][4], 2.5f);
  shade::FreeSpace(&t);
  EXPECT_EQ(t.dptr_, nullptr);
  Tensor<cpu, 3, double> u(Shape3(2, 3, 5));
  shade::AllocSpace(&u, false);
  EXPECT_EQ(u.stride_, 5);
  EXPECT_TRUE(u.CheckContiguous());
  shade::FreeSpace(&u);
  Tensor<cpu, 2, float> z(Shape2(0, 7));  // empty shapes allocate fine
  shade::AllocSpace(&z);
  shade::FreeSpace(&z);
  Tensor<cpu, 2, float> bad(Shape2(-1, 3));
  EXPECT_THROW(shade::AllocSpace(&bad), shade::Error);
  Tensor<cpu, 3, float> huge(Shape3(index_t(1) << 30, index_t(1) << 30, index_t(1) << 20));
  std::string msg = ErrorOf([&] { shade::AllocSpace(&huge); });
  EXPECT_NE(msg.find("overflow"), std::string::npos) << msg;
  Tensor<cpu, 1, double> big(Shape1(index_t(1) << 61));
  EXPECT_THROW(shade::AllocSpace(&big), shade::Error);
}

TEST(Memory, NewTensorAndCopyAcrossPitches) {
  auto a = shade::NewTensor<cpu>(Shape3(2, 3, 5), 1.5f);
  EXPECT_EQ(a.stride_, 16);
  EXPECT_EQ(a[1][2][4], 1.5f);
  auto b = shade::NewTensor<cpu>(Shape3(2, 3, 5), 0.0f, false);
  EXPECT_EQ(b.stride_, 5);
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j)
      for (index_t k = 0; k < 5; ++k) a[i][j][k] = float(i * 100 + j * 10 + k);
  shade::Copy(b, a);
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j)
      for (index_t k = 0; k < 5; ++k) ASSERT_EQ(b[i][j][k], float(i * 100 + j * 10 + k));
  a = 0.f;
  shade::Copy(a, b);
  EXPECT_EQ(a[1][2][3], 123.f);
  shade::Stream<cpu>* s = shade::NewStream<cpu>();
  auto c = shade::NewTensor<cpu>(Shape3(2, 5, 3), 0.0f, true, s);
  EXPECT_EQ(c.stream_, s);
  std::string msg = ErrorOf([&] { shade::Copy(c, a); });
  EXPECT_NE(msg.find("(2,5,3)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(2,3,5)"), std::string::npos) << msg;
  shade::DeleteStream(s);
  shade::FreeSpace(&a);
  shade::FreeSpace(&b);
  shade::FreeSpace(&c);
  auto i = shade::NewTensor<cpu>(Shape1(4), std::int32_t(7));
  EXPECT_EQ(i[3], 7);
  shade::FreeSpace(&i);
}

TEST(Memory, TensorContainer) {
  shade::InitTensorEngine<cpu>();
  shade::TensorContainer<cpu, 2> m(Shape2(3, 4), 2.f);
  EXPECT_EQ(m.shape_, Shape2(3, 4));
  EXPECT_EQ(m.stride_, 16);
  EXPECT_EQ(m[2][3], 2.f);
  float* before = m.dptr_;
  m.Resize(Shape2(2, 4));  // smaller: memory kept
  EXPECT_EQ(m.dptr_, before);
  EXPECT_EQ(m.shape_, Shape2(2, 4));
  m.Resize(Shape2(30, 40), 1.f);  // larger: reallocated
  EXPECT_EQ(m.shape_, Shape2(30, 40));
  EXPECT_EQ(m.stride_, 48);
  EXPECT_EQ(m[29][39], 1.f);
  shade::TensorContainer<cpu, 2> n(m);  // deep copy
  EXPECT_NE(n.dptr_, m.dptr_);
  n[0][0] = 5.f;
  EXPECT_EQ(m[0][0], 1.f);
  m = n * 2.f + 1.f;  // expressions assign into the elements
  EXPECT_EQ(m[0][0], 11.f);
  EXPECT_EQ(m[1][1], 3.f);
  shade::TensorContainer<cpu, 2> moved(std::move(n));
  EXPECT_EQ(moved[0][0], 5.f);
  EXPECT_EQ(n.dptr_, nullptr);
  EXPECT_EQ(n.shape_, Shape2(0, 0));
  shade::TensorContainer<cpu, 2> packed(false);
  packed.Resize(Shape2(3, 5));
  EXPECT_EQ(packed.stride_, 5);
  packed = 4.f;
  EXPECT_THROW(packed = moved * 1.f, shade::Error);  // shapes differ
  packed = packed * 0.f + 1.f;
  EXPECT_EQ(packed[2][4], 1.f);
  moved = packed;  // copy assignment resizes and copies
  EXPECT_EQ(moved.shape_, Shape2(3, 5));
  EXPECT_EQ(moved[2][4], 1.f);
  moved.Release();
  EXPECT_EQ(moved.dptr_, nullptr);
  shade::TensorContainer<cpu, 3, double> e;
  e.Resize(Shape3(0, 2, 2));
  e = 1.0;
  EXPECT_THROW(e.Resize(Shape3(-2, 2, 2)), shade::Error);
  shade::ShutdownTensorEngine<cpu>();
}

}  // namespace
