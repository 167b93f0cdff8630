#!/usr/bin/env bash
# The one fuzz runner: builds every libFuzzer target in fuzz/ (clang,
# -fsanitize=fuzzer,address,undefined, leak detection on) and runs them from their corpora.
#   tools/run-fuzz.sh smoke [seconds]         every target for `seconds` (default 30), two at a
#                                             time (CI: 10 targets x 30 s / 2 cores ~ 3 min + build)
#   tools/run-fuzz.sh run <target> <runs> [max_total_time]   one campaign, niced, in-process
#   tools/run-fuzz.sh loaders [runs]          the three loader targets (.npy header, .npy,
#                                             NDArray format), `runs` executions each (1,000,000)
#   tools/run-fuzz.sh merge <target>|all      minimizes (libFuzzer -merge=1) the committed corpus
#                                             together with what campaigns found, and stores the
#                                             result back as fuzz/corpus/<target>.tar.gz
# Corpora: fuzz/corpus/<target>.tar.gz, one minimized archive per target (issue 43: the loose
# seed files were 94% of the tracked files), unpacked into $build/corpus/<target>/ before a run,
# plus the loaders' test files for the .npy and NDArray targets. A campaign grows the unpacked
# working corpus; `merge` folds it back into the archive (docs/design/hardening.md, "Corpora").
# Build directory: $SHADE_FUZZ_BUILD (default build-fuzz). A directory that is already configured
# with SHADE_BUILD_FUZZ=ON and the sanitizers (CI's build-clang-asan, made by
# `SHADE_COMPILER=clang SHADE_SANITIZE=address,undefined tools/run-tests.sh`) is used as it is:
# its fuzz targets are already built, and it is not configured again.
# Exit status is non-zero on any crash, leak, sanitizer report or broken invariant
# (__builtin_trap in a target).
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-smoke}"
build="${SHADE_FUZZ_BUILD:-build-fuzz}"
targets=(npy_header_fuzzer npy_load_fuzzer ndarray_load_fuzzer tshape_parse_fuzzer param_init_fuzzer
  npz_load_fuzzer binary_load_fuzzer dlpack_import_fuzzer view_chain_fuzzer lazy_expr_fuzzer
  loadtxt_fuzzer)
# libclang-rt-dev holds libFuzzer and the sanitizer runtimes (clang only recommends it).
dpkg -s clang libclang-rt-dev libomp-dev >/dev/null 2>&1 ||
  apt-get install -y -qq clang libclang-rt-dev libomp-dev >/dev/null
launcher=()
if [ -n "${SHADE_CCACHE:-}" ]; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# -O1 -g with assertions on (no NDEBUG): internal invariants fire under fuzzing too. A native
# build compiles the SIMD kernels once, for this CPU (which is also what a portable build's
# dispatch would pick here); the portable build compiles them four times, and with ASan,
# UBSan and coverage that took most of CI's budget.
if grep -qs '^SHADE_BUILD_FUZZ:BOOL=ON' "$build/CMakeCache.txt" &&
  grep -qs '^SHADE_SANITIZE:STRING=address,undefined' "$build/CMakeCache.txt"; then
  echo "run-fuzz: using the fuzz targets of $build"
else
  CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g" -DSHADE_BUILD_FUZZ=ON -DSHADE_BUILD_TESTS=OFF \
    -DSHADE_BUILD_EXAMPLES=OFF -DSHADE_NATIVE=ON -DSHADE_WITH_PYTHON=OFF -DSHADE_WITH_MPI=OFF \
    -DSHADE_SANITIZE=address,undefined -DSHADE_WITH_CUDA=OFF "${launcher[@]}" >/dev/null
fi
# Before OMP_NUM_THREADS=1 below: GNU nproc honours OMP_NUM_THREADS, so counted after it the
# build ran one compile at a time (CI's fuzz stage took 633 s to build instead of ~350 s).
jobs="$(nproc)"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
export OPENBLAS_CORETYPE=Haswell OMP_NUM_THREADS=1

corpus_of() {  # a working corpus: the committed archive plus the loaders' test files
  local t="$1" dir="$build/corpus/$1"
  mkdir -p "$dir"
  # Files a campaign already holds under the same name (a content hash) are skipped.
  if [ -f "fuzz/corpus/$t.tar.gz" ]; then tar --skip-old-files -xzf "fuzz/corpus/$t.tar.gz" -C "$dir"; fi
  case "$t" in
    npy_load_fuzzer) cp -n tests/data/io/npy/*.npy tests/data/io/bad/*.npy "$dir/" 2>/dev/null || true ;;
    ndarray_load_fuzzer) cp -n tests/data/io/nd/*.nd "$dir/" 2>/dev/null || true ;;
  esac
  echo "$dir"
}

merge_one() {  # target: minimize the working corpus (archive + findings) into a fresh archive
  local t="$1" dir merged
  dir="$(corpus_of "$t")"
  merged="$build/corpus-merged/$t"
  rm -rf "$merged" && mkdir -p "$merged"
  "$build/fuzz/$t" -merge=1 -max_len=4096 -rss_limit_mb=2048 -timeout=30 "$merged" "$dir" \
    >"$build/$t.merge.log" 2>&1 || { tail -n 40 "$build/$t.merge.log"; echo "run-fuzz: merge of $t FAILED" >&2; return 1; }
  # Deterministic archive (sorted names, fixed owner and times, gzip -n): re-packing an unchanged
  # corpus rewrites the same bytes, so git sees no change.
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$merged" -cf - . |
    gzip -9n >"fuzz/corpus/$t.tar.gz"
  echo "run-fuzz: $t: $(find "$dir" -type f | wc -l) inputs minimized to $(find "$merged" -type f | wc -l)" \
    "($(stat -c %s "fuzz/corpus/$t.tar.gz") bytes compressed)"
}

run_one() {  # target runs seconds
  local t="$1" runs="$2" secs="$3" dir
  dir="$(corpus_of "$t")"
  mkdir -p "$build/artifacts"
  nice -n 19 "$build/fuzz/$t" -runs="$runs" -max_total_time="$secs" -max_len=4096 -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" "$dir" \
    >"$build/$t.log" 2>&1 || { tail -n 40 "$build/$t.log"; echo "run-fuzz: $t FAILED" >&2; return 1; }
  echo "run-fuzz: $t: $(grep -E 'stat::number_of_executed_units' "$build/$t.log" | awk '{print $2}') executions," \
    "$(grep -E 'stat::average_exec_per_sec' "$build/$t.log" | awk '{print $2}') exec/s, clean"
}

case "$mode" in
  smoke)
    secs="${2:-30}"
    cmake --build "$build" -j"$jobs" --target "${targets[@]}"
    export -f run_one corpus_of
    export build
    printf '%s\n' "${targets[@]}" | xargs -P 2 -I{} bash -c "run_one {} -1 $secs"
    ;;
  run)
    t="$2"
    cmake --build "$build" -j"${JOBS:-$jobs}" --target "$t"
    run_one "$t" "$3" "${4:-0}"
    ;;
  loaders)
    for t in npy_header_fuzzer npy_load_fuzzer ndarray_load_fuzzer; do
      cmake --build "$build" -j"${JOBS:-$jobs}" --target "$t"
      run_one "$t" "${2:-1000000}" 0
    done
    ;;
  merge)
    if [ "${2:-}" = all ]; then sel=("${targets[@]}"); else sel=("${2:?usage: merge <target>|all}"); fi
    cmake --build "$build" -j"${JOBS:-$jobs}" --target "${sel[@]}"
    for t in "${sel[@]}"; do merge_one "$t"; done
    ;;
  *) echo "usage: tools/run-fuzz.sh smoke [seconds] | run <target> <runs> [max_total_time] |" \
    "loaders [runs] | merge <target>|all" >&2; exit 2 ;;
esac
