// Helpers shared by the extension tests (test_ext_*.cc, test_reduce_expr.cc): pitched test
// tensors of any rank with multi-index access, deterministic fills, and comparison helpers.
#ifndef SHADE_TESTS_EXT_TEST_UTIL_H_
#define SHADE_TESTS_EXT_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "shade/base/error.h"
#include "shade/tensor/tensor.h"

namespace ext_test {

using shade::cpu;
using shade::index_t;
using shade::Shape;
using shade::Shape1;
using shade::Shape2;
using shade::Shape3;
using shade::Shape4;
using shade::Tensor;

/*! The element types every typed extension test runs with. */
using ExtTypes = ::testing::Types<float, double, int32_t>;
/*! Fixture of the typed extension tests (each suite names it through an alias). */
template <typename DType>
class ExtTest : public ::testing::Test {};

/*! Owns storage for a rank-dim tensor whose rows are padded by `pad` elements (filled with a
 *  sentinel that evaluations must never overwrite). */
template <typename DType, int dim>
struct Buf {
  std::vector<DType> data;
  Tensor<cpu, dim, DType> t;
  static constexpr double kSentinel = -77;
  /*! The sentinel as a DType: -77, or 179 for unsigned types (-77 converted to an unsigned type
   *  is undefined behaviour, which clang's UBSan reports as float-cast-overflow). */
  static DType Sentinel() { return std::is_unsigned<DType>::value ? DType(179) : DType(kSentinel); }
  explicit Buf(Shape<dim> s, index_t pad = 3) {
    const index_t rows = s.ProdShape(0, dim - 1);
    const index_t stride = s[dim - 1] + pad;
    data.assign(static_cast<size_t>(rows * stride + 1), Sentinel());
    t = Tensor<cpu, dim, DType>(data.data(), s, stride, nullptr);
  }
  /*! Element at a multi-index. */
  DType& at(const std::array<index_t, dim>& i) {
    index_t row = 0;
    for (int d = 0; d + 1 < dim; ++d) row = row * t.shape_[d] + i[d];
    return t.dptr_[row * t.stride_ + i[dim - 1]];
  }
  /*! Element at flat (row-major, unpadded) index. */
  DType& flat(index_t k) {
    const index_t last = t.shape_[dim - 1];
    return t.dptr_[(k / last) * t.stride_ + k % last];
  }
  index_t size() const { return static_cast<index_t>(t.shape_.Size()); }
  /*! Fills with small distinct-ish values (exact in every dtype). */
  void FillSeq(int mod = 97, int offset = -40) {
    for (index_t k = 0; k < size(); ++k) flat(k) = DType((k * 37 + 11) % mod + offset);
  }
  /*! Fills with uniform reals in [lo, hi) (integers for integral DType). */
  void FillRandom(unsigned seed, double lo = -2, double hi = 2) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    for (index_t k = 0; k < size(); ++k) {
      const double v = u(g);
      flat(k) = std::is_integral<DType>::value ? DType(std::floor(v)) : DType(v);
    }
  }
  bool PaddingIntact() const {
    const index_t rows = t.shape_.ProdShape(0, dim - 1);
    for (index_t r = 0; r < rows; ++r)
      for (index_t j = t.shape_[dim - 1]; j < t.stride_; ++j)
        if (data[static_cast<size_t>(r * t.stride_ + j)] != Sentinel()) return false;
    return true;
  }
};

/*! Row-major multi-index of flat index k in shape s. */
template <int dim>
std::array<index_t, dim> Unflat(index_t k, const Shape<dim>& s) {
  std::array<index_t, dim> i{};
  for (int d = dim - 1; d >= 0; --d) {
    i[d] = s[d] == 0 ? 0 : k % s[d];
    k = s[d] == 0 ? 0 : k / s[d];
  }
  return i;
}

/*! Relative/absolute closeness for the dtype. */
template <typename DType>
bool Near(DType got, double want, double tol_f = 1e-5, double tol_d = 1e-12) {
  if (std::is_integral<DType>::value) return static_cast<double>(got) == want;
  const double tol = std::is_same<DType, float>::value ? tol_f : tol_d;
  return std::fabs(static_cast<double>(got) - want) <= tol * std::fmax(1.0, std::fabs(want));
}

/*! Runs `fn` and returns the shade::Error message (fails the test when nothing is thrown). */
template <typename F>
std::string ErrorOf(F&& fn) {
  try {
    fn();
  } catch (const shade::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected shade::Error";
  return std::string();
}

}  // namespace ext_test

#endif  // SHADE_TESTS_EXT_TEST_UTIL_H_
