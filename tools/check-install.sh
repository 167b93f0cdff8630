#!/usr/bin/env bash
# Installs shade into a temporary prefix and builds tests/consumer against it with find_package,
# twice: with the compiler's default flags and with -march=native. Linking shade::shade must give
# the default build the SIMD target the library was built for, so both print the same hashes of
# a static and a fused NDArray expression (bit-identical results).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build}"
prefix="$(mktemp -d)"
shared_prefix="$(mktemp -d)"
trap 'rm -rf "$prefix" "$shared_prefix" build-consumer build-consumer-native build-consumer-shared build-shared' EXIT
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

# The shared library (BUILD_SHARED_LIBS=ON, library only): the same consumer against libshade.so
# must print what the static one printed, resolve shade from the .so, and see none of the
# library's out-of-line internals (detail namespaces) exported. Then pkg-config: the consumer
# built with `pkg-config --cflags --libs shade` alone.
# CUDA as in the static build, so that every library source compiles with the same command as
# there (ccache then supplies them all; .ci/run).
cuda="$(sed -n 's/^SHADE_WITH_CUDA:BOOL=//p' "$build_dir/CMakeCache.txt")"
cuda="${cuda:-OFF}"
cmake -S . -B build-shared -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DSHADE_BUILD_TESTS=OFF -DSHADE_BUILD_EXAMPLES=OFF -DSHADE_WITH_PYTHON=OFF -DSHADE_WITH_MPI=OFF \
  -DSHADE_WITH_CUDA="$cuda" ${SHADE_CCACHE:+-DCMAKE_CXX_COMPILER_LAUNCHER=ccache} >/dev/null
cmake --build build-shared -j"$(nproc)" --target shade | grep -E "export-map|error" || true
cmake --install build-shared --prefix "$shared_prefix" >/dev/null
cmake -S tests/consumer -B build-consumer-shared -DCMAKE_PREFIX_PATH="$shared_prefix" >/dev/null
cmake --build build-consumer-shared -j"$(nproc)" >/dev/null
shared_out="$(./build-consumer-shared/consumer)"
if [ "$shared_out" != "$default_out" ]; then
  echo "check-install: the consumer of libshade.so differs from the static one:"
  diff <(echo "$default_out") <(echo "$shared_out") || true
  exit 1
fi
# (Listings are captured before grep -q reads them: with pipefail, grep -q leaving early would
# fail the pipeline through the writer's SIGPIPE.)
libs="$(ldd ./build-consumer-shared/consumer)"
grep -q "libshade.so" <<<"$libs" || { echo "check-install: consumer does not load libshade.so"; exit 1; }
so="$(ls "$shared_prefix"/lib*/libshade.so.* | head -1)"
# An internal of src/ (not named by any header) must not be exported: ContiguousStrides is
# public, the per-file helpers of src/ndarray are not.
exported=$(nm -D --defined-only "$so" | wc -l)
hidden=$(nm -C --defined-only "$so" | grep -cE " [tT] shade::" || true)
echo "check-install: libshade.so exports $exported symbols; $hidden shade functions are local"
dynamic_symbols="$(nm -DC --defined-only "$so")"
grep -q " shade::ContiguousStrides(" <<<"$dynamic_symbols" || { echo "check-install: public API not exported"; exit 1; }
echo "check-install: shared consumer agrees with the static one"
pc_out="$(cd tests/consumer && PKG_CONFIG_PATH="$shared_prefix/lib/pkgconfig:$(ls -d "$shared_prefix"/lib/*/pkgconfig 2>/dev/null | head -1)" \
  sh -c 'c++ -O2 main.cc -o "$0" $(pkg-config --cflags --libs shade) -Wl,-rpath,"$1"' "$prefix/consumer-pc" "$(dirname "$so")" && "$prefix/consumer-pc")"
# The static expression's hash is left out: pkg-config's -std=c++17 (ISO) switches off the FMA
# contraction that CMake's default gnu++17 allows, so its last bits may differ.
if [ "$(echo "$pc_out" | grep -v '^static:')" != "$(echo "$default_out" | grep -v '^static:')" ]; then
  echo "check-install: the pkg-config consumer differs:"
  diff <(echo "$default_out") <(echo "$pc_out") || true
  exit 1
fi
echo "check-install: pkg-config consumer agrees"
