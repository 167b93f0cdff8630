// Bounds checks of the static Tensor: at() always, operator[] in builds with SHADE_BOUNDS_CHECK
// (the default without NDEBUG; forced on here because the test suite builds in Release).
#define SHADE_BOUNDS_CHECK 1
#include <gtest/gtest.h>

#include <string>

#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"

namespace {

using shade::cpu;
using shade::IndexError;
using shade::Tensor;

TEST(TensorBounds, AtChecksEveryRankAndReturnsTheSameElementAsIndexing) {
  float data[12];
  for (int i = 0; i < 12; ++i) data[i] = static_cast<float>(i);
  Tensor<cpu, 3, float> t(data, shade::Shape3(2, 2, 3));
  EXPECT_EQ(&t.at(1).at(1).at(2), &data[11]);
  EXPECT_EQ(&t.at(1).at(0).at(1), &t[1][0][1]);
  EXPECT_THROW(t.at(2), IndexError);
  EXPECT_THROW(t.at(-1), IndexError);
  EXPECT_THROW(t.at(0).at(2), IndexError);
  EXPECT_THROW(t.at(0).at(0).at(3), IndexError);
  try {
    t.at(0).at(0).at(3);
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("index 3 out of range for length 3"), std::string::npos)
        << e.what();
  }
}

TEST(TensorBounds, IndexingChecksWhenEnabled) {
  float data[6] = {};
  Tensor<cpu, 2, float> t(data, shade::Shape2(2, 3));
  EXPECT_THROW(t[2], IndexError);
  EXPECT_THROW(t[-1], IndexError);
  EXPECT_THROW(t[1][3], IndexError);
  EXPECT_NO_THROW(t[1][2] = 5.0f);
  EXPECT_EQ(data[5], 5.0f);
  // A pitched view: the check uses the logical extent, not the pitch.
  Tensor<cpu, 2, float> pitched(data, shade::Shape2(2, 2), 3, nullptr);
  EXPECT_THROW(pitched[0][2], IndexError);
  EXPECT_EQ(&pitched[1][1], &data[4]);
  // An empty tensor has no valid index.
  Tensor<cpu, 1, float> empty(data, shade::Shape1(0));
  EXPECT_THROW(empty[0], IndexError);
  EXPECT_THROW(empty.at(0), IndexError);
}

}  // namespace
