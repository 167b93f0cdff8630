// Built against an installed shade with find_package, the way a user builds: tools/check-install.sh
// builds it twice (the compiler's default flags, and -march=native) and compares what both print.
// It evaluates a static expression and a fused NDArray expression and prints an FNV-1a hash of
// each result's bytes: the two builds must agree bit for bit, because linking shade::shade gives
// the header-only static path the SIMD target the library was built for.
// With an argument ("bench"), it also times both expressions (median of 15 runs).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "shade/shade.h"
#include "shade/version.h"

namespace {

// A Parameter declared and registered in the consumer (the registration instantiates the
// library's templates in this program).
struct ConsumerParam : public shade::Parameter<ConsumerParam> {
  int rows;
  float scale;
  SHADE_DECLARE_PARAMETER(ConsumerParam) {
    SHADE_DECLARE_FIELD(rows).set_range(1, 100).set_default(2).describe("Rows of the array.");
    SHADE_DECLARE_FIELD(scale).set_default(1.0f).describe("Multiplier.");
  }
};

std::uint64_t Fnv1a(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = 1469598103934665603ULL;
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

template <typename F>
double MedianMs(F&& run) {
  std::vector<double> times;
  for (int rep = 0; rep < 15; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

SHADE_REGISTER_PARAMETER(ConsumerParam);

int main(int argc, char** argv) {
  using shade::cpu;
  using shade::index_t;
  using shade::Tensor;
  const bool bench = argc > 1 && std::strcmp(argv[1], "bench") == 0;
  const index_t n = bench ? (index_t{1} << 22) : 100003;  // odd: exercises the row tail

  const shade::TShape shape = shade::ParseTShape("(2, 3L, 4)");
  std::cout << "consumer: parsed " << shape << " with " << shape.Size() << " elements\n";

  // Static front end: c = a * b + exp(a) - a / b (the W2-style fused expression plus exp).
  shade::TensorContainer<cpu, 1, float> a(shade::Shape1(n)), b(shade::Shape1(n)),
      c(shade::Shape1(n));
  for (index_t i = 0; i < n; ++i) {
    a[i] = -4.0f + 8.0f * static_cast<float>(i) / static_cast<float>(n);
    b[i] = 0.5f + static_cast<float>(i % 97) / 31.0f;
  }
  auto run_static = [&] { c = a * b + shade::expr::F<shade::op::exp>(a) - a / b; };
  run_static();
  std::cout << "static: " << std::hex << Fnv1a(c.dptr_, sizeof(float) * n) << std::dec << "\n";

  // Dynamic front end: the same expression over NDArrays, fused into one pass.
  shade::NDArray x = shade::linspace(-4.0, 4.0, n, true, shade::kFloat32);
  shade::NDArray y = shade::linspace(0.5, 3.5, n, true, shade::kFloat32);
  shade::NDArray z = shade::empty({n}, shade::kFloat32);
  auto run_dynamic = [&] { shade::add(x * y + shade::exp(x), -(x / y), z); };
  run_dynamic();
  std::cout << "dynamic: " << std::hex << Fnv1a(z.raw_data(), z.nbytes()) << std::dec << "\n";

  // Parameter from JSON, an NDArray op, .npy I/O and an error class, through the package.
  ConsumerParam param;
  param.LoadJSON(R"({"rows": 3, "scale": 0.5})");
  const shade::NDArray m =
      shade::arange(0, param.rows * 4, 1, shade::kFloat64).reshape({param.rows, 4}) *
      static_cast<double>(param.scale);
  const std::string npy = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                          "/shade_consumer_" + std::to_string(::getpid()) + ".npy";
  shade::io::SaveNpy(npy, m);
  const shade::NDArray back = shade::io::LoadNpy(npy);
  std::remove(npy.c_str());
  std::cout << "npy round trip: " << shade::sum(back, 1) << "\n";
  bool caught = false;
  try {
    shade::matmul(m, m);
  } catch (const shade::ShapeError&) {
    caught = true;
  }
  std::cout << "version " << SHADE_VERSION_STRING << ", ShapeError caught: " << caught << "\n";

  if (bench) {
    std::cout << "static_ms: " << MedianMs(run_static) << "\n";
    std::cout << "dynamic_ms: " << MedianMs(run_dynamic) << "\n";
  }
  return shape.Size() == 24 && caught && shade::item<bool>(shade::all(back == m)) ? 0 : 1;
}
