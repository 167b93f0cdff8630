// Must NOT compile in a build without a gpu backend: assigning an expression to a gpu tensor
// stops at MapBackend<gpu> (expr/map.h) with "no backend evaluates expressions on this device".
// tests/CMakeLists.txt builds it as a test that expects that message.
#include "shade/tensor/tensor.h"

int main() {
  shade::Tensor<shade::gpu, 2, float> a, b;
  a = b * 2.0f + b;
  return 0;
}
