// Generated elementwise kernels and their NVRTC compilation (include/shade/backend/cuda/nvrtc.h).
#include "shade/backend/cuda/nvrtc.h"

#include <nvrtc.h>

#include <cctype>
#include <cstdlib>
#include <sstream>

#include "shade/base/error.h"

namespace shade {
namespace cuda {
namespace {
bool IsIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char ch : s) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') return false;
  }
  return true;
}

void CheckNvrtc(nvrtcResult st, const char* what) {
  if (st == NVRTC_SUCCESS) return;
  SHADE_THROW_AS(::shade::Error) << "NVRTC error in " << what << ": " << nvrtcGetErrorString(st);
}

// Sum of "N bytes spill stores" over ptxas's per-function reports.
long SpillStoreBytes(const std::string& log) {
  long total = 0;
  const std::string key = " bytes spill stores";
  for (std::size_t at = log.find(key); at != std::string::npos; at = log.find(key, at + 1)) {
    std::size_t b = at;
    while (b > 0 && std::isdigit(static_cast<unsigned char>(log[b - 1]))) --b;
    if (b < at) total += std::strtol(log.c_str() + b, nullptr, 10);
  }
  return total;
}
}  // namespace

std::string ElementwiseKernelSource(const std::string& name, const std::string& ctype, int arity,
                                    const std::string& expr) {
  SHADE_CHECK(1 <= arity && arity <= 3)
      << "ElementwiseKernelSource: arity " << arity << " outside 1..3 (kernel " << name << ")";
  SHADE_CHECK(IsIdentifier(name)) << "ElementwiseKernelSource: '" << name
                                  << "' is not a C identifier";
  SHADE_CHECK(IsIdentifier(ctype) || ctype == "long long" || ctype == "unsigned int")
      << "ElementwiseKernelSource: '" << ctype << "' is not a type name";
  std::ostringstream os;
  os << "extern \"C\" __global__ void " << name << "(long long n, " << ctype << "* out";
  for (int k = 0; k < arity; ++k) os << ", const " << ctype << "* in" << k;
  os << ") {\n"
     << "  const long long step = (long long)gridDim.x * blockDim.x;\n"
     << "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) "
        "{\n";
  const char* names[] = {"a", "b", "c"};
  for (int k = 0; k < arity; ++k) {
    os << "    const " << ctype << " " << names[k] << " = in" << k << "[i];\n";
  }
  os << "    out[i] = (" << ctype << ")(" << expr << ");\n  }\n}\n";
  return os.str();
}

CompiledKernel CompileToCubin(const std::string& source, const std::string& name,
                              const std::string& arch) {
  nvrtcProgram prog = nullptr;
  CheckNvrtc(nvrtcCreateProgram(&prog, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr),
             "nvrtcCreateProgram");
  struct Guard {
    nvrtcProgram* p;
    ~Guard() { (void)nvrtcDestroyProgram(p); }
  } guard{&prog};
  const std::string arch_opt = "--gpu-architecture=" + arch;
  const char* opts[] = {arch_opt.c_str(), "--std=c++17", "--ptxas-options=-v"};
  const nvrtcResult st = nvrtcCompileProgram(prog, 3, opts);
  CompiledKernel out;
  std::size_t log_size = 0;
  CheckNvrtc(nvrtcGetProgramLogSize(prog, &log_size), "nvrtcGetProgramLogSize");
  out.log.assign(log_size, '\0');
  if (log_size > 0) CheckNvrtc(nvrtcGetProgramLog(prog, &out.log[0]), "nvrtcGetProgramLog");
  while (!out.log.empty() && out.log.back() == '\0') out.log.pop_back();
  if (st != NVRTC_SUCCESS) {
    SHADE_THROW_AS(::shade::Error) << "CompileToCubin: NVRTC failed to compile " << name << " for "
                                   << arch << " (" << nvrtcGetErrorString(st) << "):\n"
                                   << out.log;
  }
  std::size_t size = 0;
  CheckNvrtc(nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
  out.cubin.resize(size);
  if (size > 0) CheckNvrtc(nvrtcGetCUBIN(prog, out.cubin.data()), "nvrtcGetCUBIN");
  out.spill_store_bytes = SpillStoreBytes(out.log);
  return out;
}

}  // namespace cuda
}  // namespace shade
