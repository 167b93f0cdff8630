// Compile-time benchmark: one translation unit evaluating a single expression of 10
// operations with the static front end (see measure.sh).
#include <cstdio>

#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"

int main() {
  using namespace shade;        // NOLINT(build/namespaces)
  using namespace shade::expr;  // NOLINT(build/namespaces)
  TensorContainer<cpu, 2> a(Shape2(64, 64), 1.0f), b(Shape2(64, 64), 2.0f),
      c(Shape2(64, 64), 3.0f), out(Shape2(64, 64), 0.0f);
  // 10 operations: *, +, F<exp>, -, /, F<maximum>, scalar *, F<tanh>, +, F<sigmoid>.
  out = F<op::tanh>(a * b + F<op::exp>(c) - a / c + F<op::maximum>(b, c) * 0.5f) +
        F<op::sigmoid>(a);
  std::printf("%f\n", static_cast<double>(out[3][5]));
  return 0;
}
