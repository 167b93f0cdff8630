#!/usr/bin/env bash
# The README's second command: installs the Debian packages the library and its tests need, builds
# everything (library, tests, examples) and runs the whole test suite.
# With SHADE_SANITIZE=address,undefined it builds into build-asan at -O0: the sanitizers'
# instrumentation made gcc's -O1 build 2.1x slower than -O0 here (2443 against 1165 CPU s on
# 2-core Zen 3; test_expr.cc alone 258 against 110 s, src/ndarray/lazy_vm.cc 189 against 61 s),
# while the whole suite still runs in under a minute (52 against 27 s). Unoptimised code also
# keeps every access the sanitizers check.
# With SHADE_COMPILER=clang it builds with Debian's clang (and its OpenMP) into build-clang, as a
# portable build (SHADE_NATIVE=OFF: SIMD kernels chosen at run time).
# Both together (CI's second build) give one clang portable build at -O0 with the sanitizers, in
# build-clang-asan, that also builds the libFuzzer targets (SHADE_BUILD_FUZZ) so that
# tools/run-fuzz.sh can run them from it without a build of its own: one build hosts the
# sanitized suite, the per-SIMD-target runs and the fuzz smoke run (issue 43: CI time).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq cmake g++ make libgtest-dev libopenblas-dev liblapacke-dev libdnnl-dev libhwy-dev libeigen3-dev \
  nlohmann-json3-dev zlib1g-dev libzip-dev libdlpack-dev python3-numpy dataset-fashion-mnist \
  libopenmpi-dev openmpi-bin pybind11-dev python3-dev python3-pytest python3-hypothesis doxygen >/dev/null
export OPENBLAS_CORETYPE=Haswell
sanitize="${SHADE_SANITIZE:-}"
jobs="$(nproc)"
compiler_flags=()
if [ "${SHADE_COMPILER:-gcc}" = clang ]; then
  apt-get install -y -qq clang libomp-dev >/dev/null
  compiler_flags=(-DCMAKE_CXX_COMPILER=clang++)
fi
if [ -n "$sanitize" ] && [ "${SHADE_COMPILER:-gcc}" = clang ]; then
  # libclang-rt-dev holds libFuzzer and the sanitizer runtimes (clang only recommends it).
  apt-get install -y -qq libclang-rt-dev >/dev/null
  build_dir=build-clang-asan
  # libomp's per-thread buffers live until exit (tests/lsan-suppressions.txt says why).
  export LSAN_OPTIONS="suppressions=$PWD/tests/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  opt_flags=(-DCMAKE_CXX_FLAGS_RELEASE="-O0 -DNDEBUG" -DSHADE_TEST_ALL_TARGETS=OFF -DSHADE_NATIVE=OFF
    -DSHADE_BUILD_FUZZ=ON)
elif [ -n "$sanitize" ]; then
  build_dir=build-asan
  opt_flags=(-DCMAKE_CXX_FLAGS_RELEASE="-O0 -DNDEBUG" -DSHADE_TEST_ALL_TARGETS=OFF)
elif [ "${SHADE_COMPILER:-gcc}" = clang ]; then
  # The clang build is also the portable one (no -march=native): its NDArray kernels are
  # compiled per SIMD target and chosen at run time, and ctest runs the dynamic-op tests once
  # per target (docs/design/kernel-layer.md).
  build_dir=build-clang
  opt_flags=(-DSHADE_TEST_ALL_TARGETS=OFF -DSHADE_NATIVE=OFF)
else
  build_dir=build
  opt_flags=()
fi
if [ -n "${SHADE_CCACHE:-}" ]; then
  opt_flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# The CUDA backend (docs/gpu.md) is compiled in the plain gcc build only (issue 43: CI time); it
# is on there when CMake finds nvcc. The sanitizer and clang builds leave it out.
if [ -n "$sanitize" ] || [ "${SHADE_COMPILER:-gcc}" = clang ]; then
  opt_flags+=(-DSHADE_WITH_CUDA=OFF)
fi
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DSHADE_SANITIZE="$sanitize" \
  -DSHADE_BUILD_EXAMPLES=ON "${compiler_flags[@]}" "${opt_flags[@]}"
cmake --build "$build_dir" -j"$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j"$jobs"
