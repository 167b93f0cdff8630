// Seed notes 000/003 (tensor_blob.h): the TBlob examples: default blob, construction from a
// pointer + shape, from a Tensor, and the conversions get / FlatTo2D / FlatTo3D /
// get_with_shape, with the checks the note performs (as exceptions instead of aborts).
#include <gtest/gtest.h>

#include <vector>

#include "shade/tensor/tensor_blob.h"

using namespace shade;  // NOLINT(build/namespaces)

namespace {

TEST(SeedTBlob, DefaultBlobIsNullFloatOnCpu) {
  TBlob blob;  // "dptr_ NULL, dev_mask_ the mask of cpu, type_flag_ of default_real_t"
  EXPECT_EQ(blob.dptr_, nullptr);
  EXPECT_EQ(blob.dev_mask_, cpu::kDevMask);
  EXPECT_EQ(blob.type_flag_, DataType<default_real_t>::kFlag);
  EXPECT_EQ(blob.type_flag_, kFloat32);
}

TEST(SeedTBlob, ConstructorsSetStrideToLastExtent) {
  std::vector<float> d(2 * 3 * 4);
  TBlob typed(d.data(), TShape{2, 3, 4}, cpu::kDevMask);
  EXPECT_EQ(typed.stride_, 4);
  EXPECT_EQ(typed.type_flag_, kFloat32);
  TBlob flagged(static_cast<void*>(d.data()), TShape{6, 4}, cpu::kDevMask, kFloat32);
  EXPECT_EQ(flagged.stride_, 4);
  EXPECT_TRUE(flagged.CheckContiguous());
  EXPECT_EQ(flagged.ndim(), 2);
  EXPECT_EQ(flagged.size(0), 6);
  EXPECT_EQ(flagged.Size(), 24);
}

TEST(SeedTBlob, FromTensorAndBack) {
  std::vector<double> d(2 * 3 * 4);
  for (size_t i = 0; i < d.size(); ++i) d[i] = double(i);
  Tensor<cpu, 3, double> t(d.data(), Shape3(2, 3, 4));
  TBlob blob(t);  // operator= from Tensor: pointer, shape, stride, mask, flag
  EXPECT_EQ(blob.dptr_, d.data());
  EXPECT_EQ(blob.shape_, TShape({2, 3, 4}));
  EXPECT_EQ(blob.dev_mask_, cpu::kDevMask);
  EXPECT_EQ(blob.type_flag_, kFloat64);
  Tensor<cpu, 3, double> back = blob.get<cpu, 3, double>();
  EXPECT_EQ(back.shape_, t.shape_);
  EXPECT_EQ(back[1][2][3], 23.0);
  Tensor<cpu, 2, double> flat = blob.FlatTo2D<cpu, double>();  // (6,4)
  EXPECT_EQ(flat.shape_, Shape2(6, 4));
  // FlatTo3D(axis) folds the axes before and after `axis`; (begin, end) folds [begin, end].
  EXPECT_EQ((blob.FlatTo3D<cpu, double>(1).shape_), Shape3(2, 3, 4));
  EXPECT_EQ((blob.FlatTo3D<cpu, double>(0, 1).shape_), Shape3(1, 6, 4));
  EXPECT_EQ((blob.FlatTo3D<cpu, double>(1, 2).shape_), Shape3(2, 12, 1));
  Tensor<cpu, 2, double> reshaped = blob.get_with_shape<cpu, 2, double>(Shape2(4, 6));
  EXPECT_EQ(reshaped[3][5], 23.0);
  // The note's CHECKs, as exceptions.
  EXPECT_THROW((blob.get<gpu, 3, double>()), Error);                       // device
  EXPECT_THROW((blob.get<cpu, 3, float>()), Error);                        // data type
  EXPECT_THROW((blob.get<cpu, 2, double>()), Error);                       // dimension
  EXPECT_THROW((blob.get_with_shape<cpu, 2, double>(Shape2(5, 5))), Error);  // total elements
  Tensor<cpu, 2, double> padded(d.data(), Shape2(3, 5), 8, nullptr);
  TBlob pb(padded);
  EXPECT_FALSE(pb.CheckContiguous());
  EXPECT_THROW((pb.get_with_shape<cpu, 1, double>(Shape1(15))), Error);  // must be contiguous
}

}  // namespace
