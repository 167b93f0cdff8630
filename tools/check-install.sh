#!/usr/bin/env bash
# Installs shade into a temporary prefix and builds tests/consumer against it with find_package,
# twice: with the compiler's default flags and with -march=native. Linking shade::shade must give
# the default build the SIMD target the library was built for, so both print the same hashes of
# a static and a fused NDArray expression (bit-identical results).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build}"
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix" build-consumer build-consumer-native' EXIT
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
cmake -S tests/consumer -B build-consumer -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake -S tests/consumer -B build-consumer-native -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_FLAGS=-march=native >/dev/null
cmake --build build-consumer -j"$(nproc)" >/dev/null
cmake --build build-consumer-native -j"$(nproc)" >/dev/null
export OPENBLAS_CORETYPE=Haswell
default_out="$(./build-consumer/consumer)"
native_out="$(./build-consumer-native/consumer)"
echo "$default_out"
if [ "$default_out" != "$native_out" ]; then
  echo "check-install: default-flags and -march=native consumers differ:"
  diff <(echo "$default_out") <(echo "$native_out") || true
  exit 1
fi
echo "check-install: default-flags and -march=native consumers agree bit for bit"
# The Python package, when it was built: importable from the prefix in Debian's layout.
if [ -d "$prefix/lib/python3/dist-packages/shade" ]; then
  (cd / && PYTHONPATH="$prefix/lib/python3/dist-packages" OPENBLAS_CORETYPE=Haswell /usr/bin/python3 -c \
    "import shade; assert (shade.arange(3) * 2).tolist() == [0, 2, 4]; print('installed shade module: ok')")
fi
