// The error classes as a caller meets them: each kind of bad input throws its subclass of
// shade::Error, and the message names what failed with the values, a repo-relative file:line at
// most, never the C++ condition text nor the build machine's absolute path.
#include <gtest/gtest.h>

#include <string>

#include "shade/shade.h"

namespace {

using shade::NDArray;

// The message of the exception of class E that `fn` throws ("" and a failure when none).
template <typename E, typename Fn>
std::string MessageOf(Fn&& fn) {
  try {
    fn();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception class: " << e.what();
    return "";
  }
  ADD_FAILURE() << "nothing thrown";
  return "";
}

void ExpectClean(const std::string& msg) {
  EXPECT_EQ(msg.find("Check failed"), std::string::npos) << msg;
  EXPECT_EQ(msg.find(SHADE_SOURCE_DIR), std::string::npos) << msg;
  EXPECT_EQ(msg.find("&&"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("=="), std::string::npos) << msg;
  EXPECT_FALSE(msg.empty());
  if (!msg.empty()) {
    EXPECT_NE(msg.front(), '/') << msg;
  }
}

bool Has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(ErrorClasses, ShapeMismatchIsAShapeErrorAndAValueError) {
  const NDArray a = shade::zeros({2, 3}), b = shade::zeros({4, 5});
  const std::string msg = MessageOf<shade::ShapeError>([&] { shade::matmul(a, b); });
  EXPECT_TRUE(Has(msg, "matmul")) << msg;
  EXPECT_TRUE(Has(msg, "(2, 3)") || Has(msg, "(2,3)")) << msg;
  EXPECT_TRUE(Has(msg, "src/ndarray/linalg.cc:")) << msg;
  ExpectClean(msg);
  EXPECT_THROW(shade::matmul(a, b), shade::ValueError);
}

// The static front end's shape checks throw through one out-of-line function
// (expr::detail::ThrowShapeMismatch); the message is the same text as when it was streamed inline.
TEST(ErrorClasses, StaticShapeMismatchesAreShapeErrors) {
  float a[4] = {}, b[4] = {}, c[3] = {};
  shade::Tensor<shade::cpu, 1, float> A(a, shade::Shape1(4)), B(b, shade::Shape1(4)),
      C(c, shade::Shape1(3));
  std::string msg = MessageOf<shade::ShapeError>([&] { C = A + B; });
  EXPECT_TRUE(Has(msg, "assignment: expression shape (4,) differs from destination shape (3,)"))
      << msg;
  EXPECT_TRUE(Has(msg, "shade/expr/check.h:")) << msg;
  ExpectClean(msg);
  msg = MessageOf<shade::ShapeError>([&] { A = B * C; });
  EXPECT_TRUE(Has(msg, "BinaryMapExp: shapes of operands differ: lhs (4,) vs rhs (3,)")) << msg;
  ExpectClean(msg);
  EXPECT_THROW(A += C, shade::ValueError);
}

TEST(ErrorClasses, AxisOutOfRangeIsAnIndexError) {
  const NDArray a = shade::zeros({2, 3});
  const std::string msg = MessageOf<shade::IndexError>([&] { shade::sum(a, 5); });
  EXPECT_TRUE(Has(msg, "axis 5")) << msg;
  ExpectClean(msg);
}

TEST(ErrorClasses, ForbiddenCastIsATypeError) {
  const NDArray a = shade::zeros({2}, shade::kFloat64);
  const std::string msg =
      MessageOf<shade::TypeError>([&] { shade::astype(a, shade::kInt32, shade::Casting::kSafe); });
  EXPECT_TRUE(Has(msg, "float64") && Has(msg, "int32")) << msg;
  ExpectClean(msg);
}

TEST(ErrorClasses, MissingFileIsAnIOErrorWithThePathAndTheSystemsReason) {
  const std::string path = "/nonexistent-dir-shade/x.npy";
  const std::string msg = MessageOf<shade::IOError>([&] { shade::io::LoadNpy(path); });
  EXPECT_TRUE(Has(msg, path)) << msg;
  EXPECT_TRUE(Has(msg, "No such file or directory")) << msg;
  EXPECT_TRUE(Has(msg, "src/io/stream.cc:")) << msg;
  EXPECT_EQ(msg.find(SHADE_SOURCE_DIR), std::string::npos) << msg;
}

TEST(ErrorClasses, MalformedFileContentsAreAValueErrorAsInNumPy) {
  const char junk[] = "not a npy file at all";
  const std::string msg =
      MessageOf<shade::ValueError>([&] { shade::io::LoadNpyFromMemory(junk, sizeof(junk)); });
  EXPECT_TRUE(Has(msg, "not a .npy file")) << msg;
  ExpectClean(msg);
}

// The umbrella header declares the allocation cap (shade/memory/allocator.h): a program that
// includes only shade/shade.h can set it, and an array over it is refused with the sizes.
TEST(ErrorClasses, AllocationCapThroughTheUmbrellaHeader) {
  const std::size_t before = shade::SetMaxAllocationBytes(1 << 20);
  std::string msg;
  try {
    shade::zeros({1 << 20}, shade::kFloat64);  // 8 MiB over a 1 MiB cap
  } catch (const shade::Error& e) {
    msg = e.what();
  }
  shade::SetMaxAllocationBytes(before);
  EXPECT_TRUE(Has(msg, "8388608")) << msg;
  EXPECT_TRUE(Has(msg, "1048576")) << msg;
}

TEST(ErrorClasses, ForeignDeviceIsNotImplemented) {
  float data[2] = {1, 2};
  int64_t shape[1] = {2};
  DLManagedTensor t{};
  t.dl_tensor.data = data;
  t.dl_tensor.device = {kDLCUDA, 0};
  t.dl_tensor.ndim = 1;
  t.dl_tensor.dtype = {kDLFloat, 32, 1};
  t.dl_tensor.shape = shape;
  const std::string msg = MessageOf<shade::NotImplementedError>([&] { shade::io::FromDLPack(&t); });
  EXPECT_TRUE(Has(msg, "only CPU")) << msg;
  ExpectClean(msg);
}

TEST(ErrorClasses, HierarchyRootedAtShadeError) {
  EXPECT_TRUE((std::is_base_of_v<shade::ValueError, shade::ParamError>));
  EXPECT_TRUE((std::is_base_of_v<shade::Error, shade::IOError>));
  EXPECT_TRUE((std::is_base_of_v<std::runtime_error, shade::Error>));
}

TEST(ErrorClasses, ClassesAreDistinct) {
  EXPECT_FALSE((std::is_base_of_v<shade::ValueError, shade::IndexError>));
  EXPECT_FALSE((std::is_base_of_v<shade::ValueError, shade::TypeError>));
  EXPECT_FALSE((std::is_base_of_v<shade::ValueError, shade::IOError>));
  EXPECT_FALSE((std::is_base_of_v<shade::ValueError, shade::NotImplementedError>));
}

}  // namespace
