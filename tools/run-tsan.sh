#!/usr/bin/env bash
# ThreadSanitizer stage (issue 21): builds shade and ONLY the tests that exercise threads with
# clang -fsanitize=thread into build-tsan and runs them; any data race, lock-order inversion or
# thread leak fails the stage (halt_on_error).
#
# OpenMP: the kernels keep their OpenMP parallel regions in this build (clang + LLVM's libomp),
# and LLVM's Archer tool (libarcher.so, shipped by libomp-dev and loaded through
# OMP_TOOL_LIBRARIES) tells TSan about OpenMP's fork/join, barriers and locks through the OMPT
# interface. That checks the threading code exactly as it ships, without a TSan-instrumented
# build of the OpenMP runtime (Debian has none) and without a second, std::thread-based backend
# that would only exist for this build. OMP_NUM_THREADS=4 makes every threaded kernel really
# fork, even on a 2-core machine. OpenBLAS is an uninstrumented system library with its own
# threads: it runs single-threaded here and TSan ignores uninstrumented modules.
#
# Tests: ParallelFor and the threading grain (test_parallel), refcounts across threads
# (test_intrusive_ptr, test_storage, test_ndarray), the Parameter registry (test_parameter),
# the lazy evaluator and its per-thread memos (test_dyn_elementwise; test_stress evaluates
# expressions from 8 threads at once), the threaded reductions
# (test_dyn_reduce), the per-thread small-block cache (test_allocator), autograd's per-thread
# grad mode and its recorder pointer installed from any thread (test_autograd) and the stress program
# (test_stress, 40,000 operations on 8 threads here). Not test_dyn_fusion: it replaces the global
# operator new/delete to count allocations, which TSan's static runtime also defines (a duplicate
# symbol), and the shared runtime (-shared-libsan) crashes at start-up in libquadmath's
# constructor (OpenBLAS -> libgfortran) before TSan is initialised.
# CI cost on the 2-core machine: about 5 minutes (library and 9 tests built at -O1, then run).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-tsan}"
archer=/usr/lib/llvm-14/lib/libarcher.so
# libclang-rt-dev holds the TSan runtime: clang only recommends it (so a machine that installs
# no recommends lacks it), hence it is named here.
dpkg -s clang libclang-rt-dev libomp-dev >/dev/null 2>&1 ||
  apt-get install -y -qq clang libclang-rt-dev libomp-dev >/dev/null
tests=(test_parallel test_intrusive_ptr test_storage test_ndarray test_parameter test_dyn_elementwise
  test_dyn_reduce test_allocator test_stress test_autograd)
# -gline-tables-only: a race report names file:line in every frame, which is all TSan prints,
# for less compile time and object size than full -g (issue 43: CI time).
launcher=()
if [ -n "${SHADE_CCACHE:-}" ]; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only -DNDEBUG" -DSHADE_SANITIZE=thread \
  -DSHADE_TEST_ALL_TARGETS=OFF -DSHADE_WITH_CUDA=OFF \
  -DSHADE_BUILD_EXAMPLES=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${tests[@]}"
export OPENBLAS_CORETYPE=Haswell OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=4
export OMP_TOOL_LIBRARIES="$archer"
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1 ${TSAN_OPTIONS:-}"
for t in "${tests[@]}"; do
  start=$(date +%s)
  "$build/tests/$t" --gtest_brief=1 >"$build/$t.log" 2>&1 || {
    tail -n 60 "$build/$t.log"
    echo "run-tsan: $t FAILED under ThreadSanitizer" >&2
    exit 1
  }
  echo "run-tsan: $t clean ($(( $(date +%s) - start )) s)"
done
