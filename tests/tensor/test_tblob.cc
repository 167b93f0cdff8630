// TBlob: construction from pointers and tensors, every conversion back to Tensor, and every
// error path (device, dtype, rank, padded reshape, size), with the values in the message.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "shade/tensor/tensor_blob.h"
#include "ext_test_util.h"

namespace {

using ext_test::ErrorOf;

using shade::cpu;
using shade::gpu;
using shade::index_t;
using shade::Shape2;
using shade::Shape3;
using shade::Shape4;
using shade::TBlob;
using shade::Tensor;
using shade::TShape;

void ExpectHas(const std::string& msg, const std::string& part) {
  EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg;
}

TEST(TBlob, DefaultAndRankZero) {
  TBlob blob;
  EXPECT_EQ(blob.dptr_, nullptr);
  EXPECT_EQ(blob.dev_mask_, cpu::kDevMask);
  EXPECT_EQ(blob.type_flag_, shade::kFloat32);
  EXPECT_EQ(blob.ndim(), 0);
  EXPECT_EQ(blob.Size(), 1);
  EXPECT_TRUE(blob.CheckContiguous());
  float x = 4.f;
  TBlob scalar(&x, TShape(), cpu::kDevMask);  // rank 0: no shape[-1] read
  EXPECT_EQ(scalar.stride_, 1);
  EXPECT_EQ((scalar.FlatTo2D<cpu, float>()[0][0]), 4.f);
  EXPECT_EQ((scalar.get_with_shape<cpu, 1, float>(shade::Shape1(1))[0]), 4.f);
  TBlob untyped(&x, TShape(), cpu::kDevMask, shade::kFloat32);
  EXPECT_EQ(untyped.Size(), 1);
  ExpectHas(ErrorOf([&] { scalar.FlatTo3D<cpu, float>(0); }), "rank 0");
  ExpectHas(ErrorOf([&] { scalar.get<cpu, 1, float>(); }), "rank 0");
}

TEST(TBlob, FromPointerAndShape) {
  std::vector<double> d(24);
  for (size_t i = 0; i < d.size(); ++i) d[i] = double(i);
  TBlob blob(d.data(), TShape{2, 3, 4}, cpu::kDevMask);
  EXPECT_EQ(blob.type_flag_, shade::kFloat64);
  EXPECT_EQ(blob.ndim(), 3);
  EXPECT_EQ(blob.size(1), 3);
  EXPECT_EQ(blob.Size(), 24);
  EXPECT_EQ(blob.stride_, 4);
  EXPECT_TRUE(blob.CheckContiguous());
  auto t3 = blob.get<cpu, 3, double>();
  EXPECT_EQ(t3.shape_, Shape3(2, 3, 4));
  EXPECT_EQ(t3[1][2][3], 23.0);
  auto t2 = blob.FlatTo2D<cpu, double>();
  EXPECT_EQ(t2.shape_, Shape2(6, 4));
  EXPECT_EQ(t2[5][1], 21.0);
  auto f1 = blob.FlatTo3D<cpu, double>(1);
  EXPECT_EQ(f1.shape_, Shape3(2, 3, 4));
  auto f2 = blob.FlatTo3D<cpu, double>(1, 2);
  EXPECT_EQ(f2.shape_, Shape3(2, 12, 1));
  auto f0 = blob.FlatTo3D<cpu, double>(0, 1);
  EXPECT_EQ(f0.shape_, Shape3(1, 6, 4));
  auto r = blob.get_with_shape<cpu, 2, double>(Shape2(3, 8));
  EXPECT_EQ(r.stride_, 8);
  EXPECT_EQ(r[2][7], 23.0);
  TBlob untyped(static_cast<void*>(d.data()), TShape{4, 6}, cpu::kDevMask, shade::kFloat64);
  EXPECT_EQ((untyped.get<cpu, 2, double>()[3][5]), 23.0);
  shade::Stream<cpu> s;
  EXPECT_EQ((blob.get<cpu, 3, double>(&s).stream_), &s);
  EXPECT_EQ((blob.FlatTo2D<cpu, double>(&s).stream_), &s);
}

TEST(TBlob, FromTensorKeepsPitchAndType) {
  std::vector<std::int32_t> d(3 * 8);
  Tensor<cpu, 2, std::int32_t> t(d.data(), Shape2(3, 5), 8, nullptr);
  TBlob blob(t);
  EXPECT_EQ(blob.type_flag_, shade::kInt32);
  EXPECT_EQ(blob.dev_mask_, cpu::kDevMask);
  EXPECT_EQ(blob.stride_, 8);
  EXPECT_FALSE(blob.CheckContiguous());
  EXPECT_EQ(blob.shape_, TShape({3, 5}));
  auto back = blob.get<cpu, 2, std::int32_t>();
  EXPECT_EQ(back.stride_, 8);
  back[2][4] = 42;
  EXPECT_EQ(d[2 * 8 + 4], 42);
  EXPECT_EQ((blob.FlatTo2D<cpu, std::int32_t>().stride_), 8);
  // A padded blob cannot be reshaped.
  std::string msg = ErrorOf([&] { blob.get_with_shape<cpu, 1, std::int32_t>(shade::Shape1(15)); });
  ExpectHas(msg, "padded");
  ExpectHas(msg, "stride 8");
  ExpectHas(msg, "(15,)");
  ExpectHas(ErrorOf([&] { blob.FlatTo3D<cpu, std::int32_t>(0); }), "padded");
  // Assignment from a tensor of another type and device.
  std::vector<float> f(6);
  blob = Tensor<cpu, 1, float>(f.data(), shade::Shape1(6));
  EXPECT_EQ(blob.type_flag_, shade::kFloat32);
  EXPECT_EQ(blob.ndim(), 1);
  Tensor<gpu, 2, float> g(f.data(), Shape2(2, 3));
  TBlob gb(g);
  EXPECT_EQ(gb.dev_mask_, gpu::kDevMask);
}

TEST(TBlob, ErrorsNameTheValues) {
  std::vector<float> d(24);
  TBlob blob(d.data(), TShape{2, 3, 4}, cpu::kDevMask);
  std::string msg = ErrorOf([&] { blob.get<gpu, 3, float>(); });
  ExpectHas(msg, "device");
  ExpectHas(msg, "blob is on cpu");
  ExpectHas(msg, "on gpu");
  msg = ErrorOf([&] { blob.get<cpu, 3, double>(); });
  ExpectHas(msg, "float32");
  ExpectHas(msg, "float64");
  msg = ErrorOf([&] { blob.get<cpu, 2, float>(); });
  ExpectHas(msg, "(2,3,4)");
  ExpectHas(msg, "rank 3, not 2");
  msg = ErrorOf([&] { blob.get_with_shape<cpu, 2, float>(Shape2(5, 5)); });
  ExpectHas(msg, "(5,5)");
  ExpectHas(msg, "(2,3,4)");
  ExpectHas(msg, "24 vs. 25");
  EXPECT_THROW((blob.get_with_shape<cpu, 2, float>(Shape2(-4, -6))), shade::Error);
  EXPECT_THROW((blob.FlatTo2D<gpu, float>()), shade::Error);
  EXPECT_THROW((blob.FlatTo2D<cpu, std::int32_t>()), shade::Error);
  EXPECT_THROW((blob.FlatTo3D<cpu, float>(3)), shade::Error);
  ExpectHas(ErrorOf([&] { blob.FlatTo3D<cpu, float>(2, 1); }), "[2, 1]");
  EXPECT_THROW((blob.FlatTo3D<cpu, float>(-1, 1)), shade::Error);
  EXPECT_THROW(blob.size(3), shade::Error);
  ExpectHas(ErrorOf([&] { TBlob bad(d.data(), TShape{2}, 3); }), "device mask 3");
  ExpectHas(ErrorOf([&] { TBlob bad(static_cast<void*>(d.data()), TShape{2}, cpu::kDevMask, 99); }),
            "dtype flag 99");
  TBlob weird(d.data(), TShape{2}, cpu::kDevMask);
  weird.type_flag_ = 77;  // a corrupted flag is reported, not looked up blindly
  ExpectHas(ErrorOf([&] { weird.get<cpu, 1, float>(); }), "unknown flag 77");
  TBlob huge(d.data(), TShape{index_t(1) << 40, index_t(1) << 40}, cpu::kDevMask);
  EXPECT_THROW(huge.Size(), shade::Error);
}

}  // namespace
