// Seed note 004 (mshadow notes): the examples about Shape, Tensor and the expression templates,
// with the outputs the note states.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "shade/expr/check.h"
#include "shade/tensor/tensor.h"

using namespace shade;        // NOLINT(build/namespaces): the note's programs use bare names
using namespace shade::expr;  // NOLINT(build/namespaces)

namespace {

template <typename T>
std::string Str(const T& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

TEST(SeedMshadowShape, Examples) {
  // "(5,3,6) -> 90", "(5,3,6) -> (90)", FlatTo2D keeps the last dimension.
  EXPECT_EQ(Shape3(5, 3, 6).Size(), 90u);
  EXPECT_EQ(Str(Shape3(5, 3, 6).FlatTo1D()), "(90,)");
  EXPECT_EQ(Str(Shape3(5, 3, 6).FlatTo2D()), "(15,6)");
  EXPECT_EQ(Shape4(3, 2, 6, 4).ProdShape(1, 3), 12);
  // "e.g. (3,2,6,4) -> (2,6,4)"
  EXPECT_EQ(Str(Shape4(3, 2, 6, 4).SubShape()), "(2,6,4)");
  // Shape<5> ss = Shape5(3,4,5,6,7); Shape<3> sss = ss.Slice<2,5>(); cout << sss; // (5,6,7)
  Shape<5> ss = Shape5(3, 4, 5, 6, 7);
  Shape<3> sss = ss.Slice<2, 5>();
  EXPECT_EQ(Str(sss), "(5,6,7)");
  EXPECT_TRUE(Shape2(1, 2) == Shape2(1, 2));
  EXPECT_TRUE(Shape2(1, 2) != Shape2(2, 1));
  // ConvertLayout: NCHW <-> NHWC, NCDHW <-> NDHWC.
  EXPECT_EQ(ConvertLayout(Shape4(2, 3, 5, 7), kNCHW, kNHWC), Shape4(2, 5, 7, 3));
  EXPECT_EQ(ConvertLayout(Shape4(2, 5, 7, 3), kNHWC, kNCHW), Shape4(2, 3, 5, 7));
  EXPECT_EQ(ConvertLayout(Shape5(2, 3, 4, 5, 6), kNCDHW, kNDHWC), Shape5(2, 4, 5, 6, 3));
  EXPECT_EQ(ConvertLayout(Shape5(2, 4, 5, 6, 3), kNDHWC, kNCDHW), Shape5(2, 3, 4, 5, 6));
  EXPECT_THROW(ConvertLayout(Shape4(1, 2, 3, 4), kNCDHW, kNCHW), Error);  // the note aborted
}

TEST(SeedMshadowTensor, Examples) {
  // Tensor<cpu, 3> ts(data, Shape3(2,5,2));   (the default dtype is float)
  float data[20];
  for (int i = 0; i < 20; ++i) data[i] = float(i);
  Tensor<cpu, 3> ts(data, Shape3(2, 5, 2));
  EXPECT_EQ(ts.stride_, 2);  // stride_ defaults to the lowest dimension
  EXPECT_TRUE(ts.CheckContiguous());
  EXPECT_EQ(ts.MSize(), 20u);
  EXPECT_EQ(ts.MemSize<1>(), 10u);
  EXPECT_EQ(ts.size(1), 5);
  EXPECT_EQ(ts[1][3][1], 17.f);
  EXPECT_EQ(Str(ts.FlatTo2D().shape_), "(10,2)");
  EXPECT_EQ(Str(ts.FlatTo1D().shape_), "(20,)");
  Stream<cpu> stream;
  ts.set_stream(&stream);
  EXPECT_EQ(ts.stream_, &stream);
  // "(128,3,224,224) -> (64,3,224,224)" and "(128,3,224,224)[5] -> 5-th (3,224,224)", at a
  // smaller image size so the buffer stays small.
  std::vector<float> big(128 * 3 * 4 * 4);
  Tensor<cpu, 4> batch(big.data(), Shape4(128, 3, 4, 4));
  EXPECT_EQ(Str(batch.Slice(0, 64).shape_), "(64,3,4,4)");
  EXPECT_EQ(batch.Slice(64, 128).dptr_, big.data() + 64 * 3 * 4 * 4);
  EXPECT_EQ(Str(batch[5].shape_), "(3,4,4)");
  EXPECT_EQ(batch[5].dptr_, big.data() + 5 * 3 * 4 * 4);
}

TEST(SeedMshadowExpr, TcastPrintsTheNotesMatrices) {
  // The note's program, verbatim but for the includes; its printf output is compared.
  float data[10];
  int data1[10];
  Tensor<cpu, 2> mat(data, Shape2(5, 2));
  Tensor<cpu, 2, int> mat1(data1, Shape2(5, 2));
  testing::internal::CaptureStdout();
  mat = 3.2f;
  mat1 = tcast<int>(mat);
  for (index_t i = 0; i < mat.size(0); ++i) {
    for (index_t j = 0; j < mat.size(1); ++j) {
      printf("%.2f ", mat[i][j]);
    }
    printf("\n");
  }
  for (index_t i = 0; i < mat1.size(0); ++i) {
    for (index_t j = 0; j < mat1.size(1); ++j) {
      printf("%d ", mat1[i][j]);
    }
    printf("\n");
  }
  fflush(stdout);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out,
            "3.20 3.20 \n3.20 3.20 \n3.20 3.20 \n3.20 3.20 \n3.20 3.20 \n"
            "3 3 \n3 3 \n3 3 \n3 3 \n3 3 \n");
}

TEST(SeedMshadowExpr, ExpressionExamples) {
  // scalar<float>(10.0f); a + 3.0f; F<op>(...); dot with the four transpose forms.
  float a_[6] = {1, 2, 3, 4, 5, 6}, b_[6] = {6, 5, 4, 3, 2, 1}, c_[6], m_[4];
  Tensor<cpu, 2> a(a_, Shape2(2, 3)), b(b_, Shape2(2, 3)), c(c_, Shape2(2, 3)), m(m_, Shape2(2, 2));
  c = a + scalar<float>(10.0f);
  EXPECT_EQ(c_[5], 16.f);
  c = a + 3.0f;
  EXPECT_EQ(c_[0], 4.f);
  c = F<op::maximum>(a, b);
  EXPECT_EQ(Str(std::vector<float>(c_, c_ + 6)[2]), "4");
  c += a;  // "dst += src"
  c -= a;
  c *= b;
  c /= b;
  EXPECT_EQ(c_[0], 6.f);
  m = dot(a, b.T());  // (2,3) x (3,2)
  EXPECT_EQ(m_[0], 1.f * 6 + 2 * 5 + 3 * 4);
  float n_[9];
  Tensor<cpu, 2> n(n_, Shape2(3, 3));
  n = dot(a.T(), b);  // (3,2) x (2,3)
  EXPECT_EQ(n_[0], 1.f * 6 + 4 * 3);
  // Type checking: "TypeCheck<cpu, dim, DType, E>::kMapPass" and the scalar's wildcard mask.
  static_assert(TypeCheck<cpu, 2, float, decltype(a + b)>::kMapPass, "");
  static_assert(ExpInfo<ScalarExp<float>>::kDevMask == 0xffff, "");
  static_assert(ExpInfo<Tensor<gpu, 2, float>>::kDevMask == 2, "kDevMask = 2 for gpu (10)");
  // ShapeCheck: mismatched operands are reported with both shapes (the note's CHECK aborted).
  EXPECT_THROW(m = a + m, Error);
}

}  // namespace
