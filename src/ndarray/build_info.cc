// The build's configuration (ndarray/build_info.h). Compiled as part of libshade, so it sees the
// library's private definitions (SHADE_SIMD_HAVE_*, SHADE_HAVE_DNNL, SHADE_BLAS_*).
#include "shade/ndarray/build_info.h"

#include <hwy/targets.h>

#include <sstream>

#include "shade/backend/cpu/blas.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/ndarray/device.h"
#include "shade/version.h"

namespace shade {

BuildInfo GetBuildInfo() {
  BuildInfo b;
  b.version = SHADE_VERSION_STRING;
#if defined(__clang__)
  b.compiler = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  b.compiler = std::string("gcc ") + __VERSION__;
#else
  b.compiler = "unknown";
#endif
#ifdef SHADE_SIMD_HAVE_AVX3
  b.simd_compiled.push_back("avx3");
#endif
#ifdef SHADE_SIMD_HAVE_AVX2
  b.simd_compiled.push_back("avx2");
#endif
#ifdef SHADE_SIMD_HAVE_SSE4
  b.simd_compiled.push_back("sse4");
#endif
  b.simd_compiled.push_back(std::string("baseline (") + hwy::TargetName(HWY_TARGET) + ")");
  b.simd_chosen = SimdTargetName();
#ifdef SHADE_BLAS_OPENBLAS
  b.blas = "openblas";
#else
  b.blas = "cblas";
#endif
  b.gemm_engine = blas::GemmEngineName();
#ifdef SHADE_HAVE_DNNL
  b.onednn = true;
#endif
#ifdef _OPENMP
  b.openmp = true;
#endif
  b.threads = GetNumThreads();
  return b;
}

std::string BuildInfoText(const std::vector<std::pair<std::string, std::string>>& extra) {
  const BuildInfo b = GetBuildInfo();
  std::ostringstream os;
  os << "Build:\n  version: " << b.version << "\n  compiler: " << b.compiler << "\n";
  os << "SIMD extensions:\n  compiled:";
  for (const std::string& t : b.simd_compiled) os << " " << t;
  os << "\n  chosen at run time: " << b.simd_chosen << "\n";
  os << "BLAS:\n  library: " << b.blas << "\n  gemm engine: " << b.gemm_engine << "\n";
  os << "Threading:\n  openmp: " << (b.openmp ? "yes" : "no") << "\n  threads: " << b.threads
     << "\n";
  os << "Optional components:\n  onednn: " << (b.onednn ? "yes" : "no") << "\n";
  for (const auto& kv : extra) os << "  " << kv.first << ": " << kv.second << "\n";
  return os.str();
}

}  // namespace shade
