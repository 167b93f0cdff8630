#!/usr/bin/env bash
# The per-target symbol check (tools/check-target-symbols.py) on an optimised portable build:
# builds only the dynamic front end's per-SIMD-target kernel objects (shade_simd_sse4/avx2/avx3;
# clang, Release, SHADE_NATIVE=OFF, as tools/run-tests.sh's portable build) into build-portable
# and checks that no two targets share a code symbol (a shared weak symbol would let the linker
# run one target's copy on every CPU).
# CI's portable test build is its -O0 sanitizer build, where every object emits std:: helpers
# out of line, so the check runs here, on code optimised as a release build is.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-portable}"
launcher=()
if [ -n "${SHADE_CCACHE:-}" ]; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release -DSHADE_NATIVE=OFF -DSHADE_BUILD_TESTS=OFF \
  -DSHADE_BUILD_EXAMPLES=OFF -DSHADE_WITH_PYTHON=OFF -DSHADE_WITH_MPI=OFF -DSHADE_WITH_CUDA=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target shade_simd_sse4 shade_simd_avx2 shade_simd_avx3
python3 tools/check-target-symbols.py "$build"
python3 tools/check-target-symbols.py --self-test "$build"
