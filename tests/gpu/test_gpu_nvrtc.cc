// Generated elementwise kernels (backend/cuda/nvrtc.h), verified without a GPU: each is compiled
// by NVRTC for sm_90 (a cubin, no register spills), and the same source is compiled by the host
// compiler with tests/gpu/host_grid.h, run as a loop over its grid and compared with the cpu
// backend's static expressions (bit for bit where both compute the same IEEE operations in the
// same order; within a few ulp where the math library differs).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "shade/backend/cuda/nvrtc.h"
#include "shade/expr/expression.h"
#include "shade/functor/op.h"
#include "shade/tensor/tensor.h"
#include "shade/tensor/tensor_cpu.h"

#ifndef SHADE_HOST_CXX
#define SHADE_HOST_CXX "c++"
#endif
#ifndef SHADE_HOST_ISA_FLAGS
#define SHADE_HOST_ISA_FLAGS ""
#endif

namespace {

using shade::cpu;
using shade::index_t;
using shade::Shape1;
using shade::Tensor;
using shade::expr::F;
using shade::expr::scalar;
namespace op = shade::op;
template <typename T>
using T1 = Tensor<cpu, 1, T>;

constexpr index_t kN = 1000;  // elements per case: several grid-stride rounds of the 3 x 32 grid

// One generated kernel: its C++ expression over a, b, c and the cpu expression it must match.
template <typename T>
struct Case {
  std::string name;
  std::string ctype;
  int arity;
  std::string expr;
  std::function<void(T1<T>, T1<T>, T1<T>, T1<T>)> cpu;
  double tol;  // 0: bit for bit
};

std::vector<Case<float>> FloatCases() {
  return {
      {"add_f", "float", 2, "a + b",
       [](T1<float> o, T1<float> a, T1<float> b, T1<float>) { o = a + b; }, 0},
      {"fused_f", "float", 2, "a * b + expf(a) - a / b",
       [](T1<float> o, T1<float> a, T1<float> b, T1<float>) { o = a * b + F<op::exp>(a) - a / b; },
       4e-7},
      {"relu_f", "float", 1, "0.0f < a ? a : 0.0f",
       [](T1<float> o, T1<float> a, T1<float>, T1<float>) { o = F<op::relu>(a); }, 0},
      {"tanh_f", "float", 1, "tanhf(a)",
       [](T1<float> o, T1<float> a, T1<float>, T1<float>) { o = F<op::tanh>(a); }, 4e-7},
      {"axpy_f", "float", 3, "a * b + c",
       [](T1<float> o, T1<float> a, T1<float> b, T1<float> c) { o = a * b + c; }, 0},
      {"max_f", "float", 2, "a > b ? a : b",
       [](T1<float> o, T1<float> a, T1<float> b, T1<float>) { o = F<op::maximum>(a, b); }, 0},
  };
}
std::vector<Case<double>> DoubleCases() {
  return {
      {"fused_d", "double", 2, "a * b + exp(a) - a / b",
       [](T1<double> o, T1<double> a, T1<double> b, T1<double>) {
         o = a * b + F<op::exp>(a) - a / b;
       },
       1e-15},
      {"sqrt_d", "double", 1, "sqrt(a * a + 1.0)",
       [](T1<double> o, T1<double> a, T1<double>, T1<double>) {
         o = F<op::sqrt>(a * a + scalar(1.0));
       },
       0},
  };
}
std::vector<Case<std::int32_t>> IntCases() {
  return {
      {"muldiv_i", "int", 2, "a * b - a / b",
       [](T1<std::int32_t> o, T1<std::int32_t> a, T1<std::int32_t> b, T1<std::int32_t>) {
         o = a * b - a / b;
       },
       0},
  };
}

// Deterministic inputs in [-2, 2] (integers in [-20, 20]), never 0.
template <typename T>
std::vector<T> Input(int seed) {
  std::vector<T> v(static_cast<std::size_t>(kN));
  std::uint32_t s = 2654435761u * static_cast<std::uint32_t>(seed + 1);
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    double d = static_cast<double>(s >> 8) / static_cast<double>(1u << 24) * 4.0 - 2.0;
    if (std::fabs(d) < 0.25) d = d < 0 ? -0.5 : 0.5;
    x = static_cast<T>(
        std::is_integral<T>::value ? (std::round(d * 10) == 0 ? 3 : std::round(d * 10)) : d);
  }
  return v;
}

template <typename T>
void CompileAll(const std::vector<Case<T>>& cases) {
  for (const auto& c : cases) {
    const std::string src = shade::cuda::ElementwiseKernelSource(c.name, c.ctype, c.arity, c.expr);
    const shade::cuda::CompiledKernel k = shade::cuda::CompileToCubin(src, c.name, "sm_90");
    ASSERT_GE(k.cubin.size(), 4u) << c.name;
    EXPECT_EQ(std::string(k.cubin.data(), 4), std::string("\x7f"
                                                          "ELF"))
        << c.name;
    EXPECT_EQ(k.spill_store_bytes, 0) << c.name << ": register spills\n" << k.log;
    EXPECT_NE(k.log.find(c.name), std::string::npos) << "ptxas -v reports the kernel\n" << k.log;
  }
}

TEST(GpuNvrtc, GeneratedKernelsCompileForSm90WithoutSpills) {
  CompileAll(FloatCases());
  CompileAll(DoubleCases());
  CompileAll(IntCases());
}

TEST(GpuNvrtc, CompileErrorThrowsWithLog) {
  const std::string src =
      shade::cuda::ElementwiseKernelSource("broken", "float", 1, "a + undefined_name");
  try {
    shade::cuda::CompileToCubin(src, "broken", "sm_90");
    FAIL() << "an undefined identifier compiled";
  } catch (const shade::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("undefined_name"), std::string::npos) << what;
    EXPECT_NE(what.find("broken"), std::string::npos) << what;
  }
  EXPECT_THROW(shade::cuda::CompileToCubin(src, "x", "sm_bogus"), shade::Error);
  EXPECT_THROW(shade::cuda::ElementwiseKernelSource("k", "float", 4, "a"), shade::ValueError);
  EXPECT_THROW(shade::cuda::ElementwiseKernelSource("k;", "float", 1, "a"), shade::ValueError);
  EXPECT_THROW(shade::cuda::ElementwiseKernelSource("k", "float*", 1, "a"), shade::ValueError);
}

// ---- host emulation ------------------------------------------------------------------------

// Appends the kernels of `cases` and one launcher each: host_<name>(n, out, in) runs the kernel
// on a 3 x 32 grid.
template <typename T>
void AppendKernels(std::string* src, const std::vector<Case<T>>& cases) {
  for (const auto& c : cases) {
    *src += shade::cuda::ElementwiseKernelSource(c.name, c.ctype, c.arity, c.expr);
    *src += "extern \"C\" void host_" + c.name + "(long long n, void* out, void* const* in) {\n";
    *src += "  ShadeHostLaunch(" + c.name + ", 3u, 32u, n, (" + c.ctype + "*)out";
    for (int k = 0; k < c.arity; ++k) {
      *src += ", (const " + c.ctype + "*)in[" + std::to_string(k) + "]";
    }
    *src += ");\n}\n";
  }
}

using HostLaunch = void (*)(long long, void*, void* const*);

template <typename T>
void RunEmulated(void* lib, const std::vector<Case<T>>& cases) {
  std::vector<T> a = Input<T>(1), b = Input<T>(2), c = Input<T>(3);
  for (const auto& cs : cases) {
    auto fn = reinterpret_cast<HostLaunch>(dlsym(lib, ("host_" + cs.name).c_str()));
    ASSERT_NE(fn, nullptr) << cs.name;
    std::vector<T> got(static_cast<std::size_t>(kN), T(-99)), want(static_cast<std::size_t>(kN));
    void* in[3] = {a.data(), b.data(), c.data()};
    fn(kN, got.data(), in);
    cs.cpu(T1<T>(want.data(), Shape1(kN)), T1<T>(a.data(), Shape1(kN)), T1<T>(b.data(), Shape1(kN)),
           T1<T>(c.data(), Shape1(kN)));
    for (index_t i = 0; i < kN; ++i) {
      if (cs.tol == 0) {
        ASSERT_EQ(got[i], want[i]) << cs.name << " element " << i;
      } else {
        ASSERT_NEAR(static_cast<double>(got[i]), static_cast<double>(want[i]),
                    cs.tol * std::fmax(1.0, std::fabs(static_cast<double>(want[i]))) * 8)
            << cs.name << " element " << i;
      }
    }
  }
}

TEST(GpuNvrtc, HostEmulationMatchesCpuBackend) {
  char dir_template[] = "/tmp/shade_host_grid_XXXXXX";
  const char* dir = mkdtemp(dir_template);
  ASSERT_NE(dir, nullptr);
  const std::string base = dir;
  std::string src = "#include \"host_grid.h\"\n";
  AppendKernels(&src, FloatCases());
  AppendKernels(&src, DoubleCases());
  AppendKernels(&src, IntCases());
  { std::ofstream(base + "/kernels.cc") << src; }
  // The device contracts a * b + c into one FMA (NVRTC's default --fmad=true), as the cpu
  // backend's packet path does for the ISA it was built for: the emulation contracts too, with
  // the library's ISA flags (none in a portable build: no FMA on either side).
  const std::string cmd = std::string(SHADE_HOST_CXX) +
                          " " SHADE_HOST_ISA_FLAGS
                          " -std=c++17 -O2 -ffp-contract=fast -shared -fPIC -I" SHADE_SOURCE_DIR
                          "/tests/gpu -o " +
                          base + "/kernels.so " + base + "/kernels.cc 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << src;
  void* lib = dlopen((base + "/kernels.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  RunEmulated(lib, FloatCases());
  RunEmulated(lib, DoubleCases());
  RunEmulated(lib, IntCases());
  dlclose(lib);
  std::remove((base + "/kernels.so").c_str());
  std::remove((base + "/kernels.cc").c_str());
  std::remove(base.c_str());
}

}  // namespace
