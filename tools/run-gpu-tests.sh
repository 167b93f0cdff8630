#!/usr/bin/env bash
# The GPU suite in one command (issue 42 item 6; docs/gpu.md "On a GPU machine"):
#   tools/run-gpu-tests.sh OUTDIR        on a machine with a CUDA GPU: builds the CUDA parts with
#                                        all cores (sm_90 only), runs tests/gpu and bench_gpu, and
#                                        writes summary.txt and the logs to OUTDIR (at most 6
#                                        files). Exit status 0 only if every GPU test ran and
#                                        passed.
#   tools/run-gpu-tests.sh --fetch-debs  on the development machine (Debian 12, before a lease):
#                                        downloads the Debian packages the library needs into
#                                        .gpu-debs/ (git-ignored locally), for a GPU machine that
#                                        lacks them; the lease carries that folder.
# A GPU machine without the packages: the script unpacks .gpu-debs/*.deb into a private prefix
# (never into /) and points CMake, the linker and the loader at it.
set -uo pipefail
cd "$(dirname "$0")/.."
debs=(libhwy1 libhwy-dev libopenblas0 libopenblas0-pthread libopenblas-dev libopenblas-pthread-dev
  libgfortran5 liblapacke liblapacke-dev libtmglib3 libzip4 libzip-dev libgtest-dev libdlpack-dev
  nlohmann-json3-dev zlib1g-dev)

if [ "${1:-}" = --fetch-debs ]; then
  mkdir -p .gpu-debs
  exclude="$(git rev-parse --git-path info/exclude)"
  grep -qx '/.gpu-debs/' "$exclude" 2>/dev/null || echo '/.gpu-debs/' >>"$exclude"
  (cd .gpu-debs && apt-get download "${debs[@]}") || exit 1
  du -sh .gpu-debs
  echo "run-gpu-tests: carry .gpu-debs with the lease (carry: [\".gpu-debs\"])"
  exit 0
fi

out="${1:?usage: tools/run-gpu-tests.sh OUTDIR | --fetch-debs}"
mkdir -p "$out"
summary="$out/summary.txt"
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
t0=$(date +%s)
say "shade GPU suite, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
say "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'nvidia-smi failed')"
say "nvcc: $(nvcc --version 2>/dev/null | tail -1 || echo 'not on PATH')"

cmake_extra=()
if compgen -G ".gpu-debs/*.deb" >/dev/null; then
  prefix=/tmp/shade-gpu-deps
  mkdir -p "$prefix"
  for f in .gpu-debs/*.deb; do
    if command -v dpkg-deb >/dev/null; then
      dpkg-deb -x "$f" "$prefix"
    else  # a .deb is an ar archive holding data.tar.xz
      (cd "$prefix" && ar p "$OLDPWD/$f" data.tar.xz | tar -xJ)
    fi
  done
  lib="$prefix/usr/lib/x86_64-linux-gnu"
  export CMAKE_PREFIX_PATH="$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$lib:$lib/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export LIBRARY_PATH="$lib:$lib/openblas-pthread${LIBRARY_PATH:+:$LIBRARY_PATH}"
  # cblas.h is also an alternatives link in Debian: the OpenBLAS folder holds the real one.
  export CPATH="$prefix/usr/include/x86_64-linux-gnu/openblas-pthread:$prefix/usr/include${CPATH:+:$CPATH}"
  # Debian's BLAS/LAPACK are reached through update-alternatives links, which unpacking does not
  # make: name the libraries themselves.
  cmake_extra+=(-DBLAS_LIBRARIES="$lib/openblas-pthread/libopenblas.so"
    -DSHADE_LAPACKE_LIBRARY="$lib/liblapacke.so" -DSHADE_LAPACKE_INCLUDE_DIR="$prefix/usr/include"
    -DSHADE_LIBZIP_LIBRARY="$lib/libzip.so" -DSHADE_LIBZIP_INCLUDE_DIR="$prefix/usr/include")
  say "dependencies: unpacked $(ls .gpu-debs/*.deb | wc -l) packages from .gpu-debs into $prefix"
fi
gen=(-G Ninja)
command -v ninja >/dev/null || gen=()
build=build-gpu
# sm_90 only on the lease (the H200): half the device compile time of the CI build's 80 + 90.
if ! cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DSHADE_WITH_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DSHADE_WITH_PYTHON=OFF -DSHADE_WITH_MPI=OFF -DSHADE_WITH_DNNL=OFF \
  -DSHADE_BUILD_EXAMPLES=OFF -DSHADE_TEST_ALL_TARGETS=OFF "${cmake_extra[@]}" >"$out/build.log" 2>&1; then
  say "FAILED: configure (see build.log). Missing libraries: run 'tools/run-gpu-tests.sh --fetch-debs'"
  say "on the development machine and carry .gpu-debs (packages: ${debs[*]})."
  tail -30 "$out/build.log"
  exit 2
fi
targets=(test_gpu_tensor test_gpu_nvrtc bench_gpu)
if ! cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >>"$out/build.log" 2>&1; then
  say "FAILED: build (see build.log)"
  grep -m 20 -E "error|Error" "$out/build.log"
  exit 3
fi
say "build: $(($(date +%s) - t0)) s (configure + shade + ${targets[*]}, $(nproc) cores)"

status=0
for t in test_gpu_tensor test_gpu_nvrtc; do
  timeout 300 "$build/tests/$t" >"$out/$t.txt" 2>&1
  rc=$?
  passed=$(grep -oE '^\[  PASSED  \] [0-9]+' "$out/$t.txt" | grep -oE '[0-9]+$' || echo 0)
  skipped=$(grep -oE '^\[  SKIPPED \] [0-9]+ test' "$out/$t.txt" | grep -oE '[0-9]+' || echo 0)
  failed=$(grep -oE '^ *[0-9]+ FAILED TEST' "$out/$t.txt" | grep -oE '[0-9]+' || echo 0)
  say "$t: rc $rc, passed ${passed:-0}, skipped ${skipped:-0}, failed ${failed:-0}"
  # On a GPU machine a skipped device test means the device was not seen: a failure here.
  if [ "$rc" -ne 0 ] || [ "${skipped:-0}" != 0 ]; then status=1; fi
done
say "benchmarks (median of 15 after 3 warm-ups):"
if timeout 240 "$build/tests/bench_gpu" >"$out/bench.txt" 2>&1; then
  sed 's/^/  /' "$out/bench.txt" | tee -a "$summary"
else
  say "  FAILED: bench_gpu (see bench.txt)"
  status=1
fi
say "total: $(($(date +%s) - t0)) s; status $status"
exit $status
