#!/usr/bin/env bash
# Installs the Debian packages the library and its tests need, builds everything and runs the
# whole test suite. With SHADE_SANITIZE=address,undefined it builds into build-asan instead.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq cmake g++ make libgtest-dev libopenblas-dev libhwy-dev nlohmann-json3-dev \
  zlib1g-dev libzip-dev libdlpack-dev python3-numpy dataset-fashion-mnist >/dev/null
export OPENBLAS_CORETYPE=Haswell
sanitize="${SHADE_SANITIZE:-}"
build_dir=build${sanitize:+-asan}
jobs="$(nproc)"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DSHADE_SANITIZE="$sanitize" \
  -DSHADE_BUILD_EXAMPLES=ON
cmake --build "$build_dir" -j"$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j"$jobs"
