// A custom kernel on the static front end: user functors in an expression. The whole right-hand
// side of each assignment is one loop over the elements (no temporaries): expression templates
// build the loop at compile time from the functors below.
#include <cmath>
#include <iostream>

#include "shade/shade.h"

// A user functor is a struct with a static Map: one argument for a unary map, two for binary.
struct softplus {  // log(1 + exp(x)), computed without overflow for large x
  template <typename DType>
  static DType Map(DType x) {
    return x > DType(20) ? x : DType(std::log1p(std::exp(x)));
  }
};
struct huber {  // the Huber loss of the residual r = prediction - target, delta = 1
  template <typename DType>
  static DType Map(DType prediction, DType target) {
    const DType r = std::abs(prediction - target);
    return r <= DType(1) ? DType(0.5) * r * r : r - DType(0.5);
  }
};

int main() {
  using shade::cpu;
  using shade::index_t;
  using shade::expr::F;
  constexpr index_t kRows = 3, kCols = 4;
  // TensorContainer owns its memory; Tensor is a view. Shape2(rows, cols) gives the extents.
  shade::TensorContainer<cpu, 2, float> x(shade::Shape2(kRows, kCols));
  shade::TensorContainer<cpu, 2, float> target(shade::Shape2(kRows, kCols));
  shade::TensorContainer<cpu, 2, float> out(shade::Shape2(kRows, kCols));
  for (index_t i = 0; i < kRows; ++i) {
    for (index_t j = 0; j < kCols; ++j) {
      x[i][j] = static_cast<float>(i * kCols + j) - 5.0f;
      target[i][j] = 0.5f * static_cast<float>(j);
    }
  }
  // Unary functor, mixed with built-in arithmetic and a scalar.
  out = F<softplus>(x) * 2.0f - 1.0f;
  std::cout << "2 * softplus(x) - 1 =\n" << out << "\n";
  // Binary functor of two tensors.
  out = F<huber>(x, target);
  std::cout << "huber(x, target) =\n" << out << "\n";
  // Check one element against the scalar formula.
  const float r = std::abs(x[2][3] - target[2][3]);
  const float want = r <= 1.0f ? 0.5f * r * r : r - 0.5f;
  std::cout << "out[2][3] = " << out[2][3] << " (expected " << want << ")\n";
  return out[2][3] == want ? 0 : 1;
}
