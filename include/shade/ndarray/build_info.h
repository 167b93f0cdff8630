/*!
 * \file build_info.h
 * \brief What this build of shade has (NumPy's show_config): version, compiler, SIMD targets
 *  compiled and the one chosen on this CPU, BLAS engines, OpenMP threads, optional components.
 */
#ifndef SHADE_NDARRAY_BUILD_INFO_H_
#define SHADE_NDARRAY_BUILD_INFO_H_

#include <string>
#include <utility>
#include <vector>

namespace shade {

/*! \brief The build's configuration, read at run time where it depends on the machine. */
struct BuildInfo {
  std::string version;                     //!< SHADE_VERSION_STRING
  std::string compiler;                    //!< compiler and version
  std::vector<std::string> simd_compiled;  //!< SIMD targets with compiled kernels, best first
  std::string simd_chosen;                 //!< the target the kernels run on here
  std::string blas;                        //!< the BLAS library linked (cblas vendor)
  std::string gemm_engine;                 //!< blas::GemmEngineName()
  bool onednn = false;                     //!< oneDNN's sgemm compiled in
  bool openmp = false;                     //!< built with OpenMP
  int threads = 1;                         //!< GetNumThreads()
};

/*! \brief This build's BuildInfo. */
BuildInfo GetBuildInfo();

/*!
 * \brief BuildInfo as "key: value" lines under section headers (show_config's text); `extra`
 *  lines (key, value) are added under "Optional components" (the Python module adds its own).
 */
std::string BuildInfoText(const std::vector<std::pair<std::string, std::string>>& extra = {});

}  // namespace shade

#endif  // SHADE_NDARRAY_BUILD_INFO_H_
