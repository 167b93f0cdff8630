#!/bin/bash
# Builds the benchmarks (SHADE_BUILD_BENCH=ON), runs every bench_* binary and the NumPy script
# with repetitions, and rewrites the main table of bench/RESULTS.md from the medians.
#   bench/run.sh [repetitions] [filter]  (default 5 and all; build dir: build-bench, or
#                                         $SHADE_BENCH_BUILD; filter: a --benchmark_filter regex)
# The main table of RESULTS.md holds issue 3's workloads W1-W7 (bench_elementwise, bench_expr,
# bench_reduce, bench_gemm and numpy_bench.py); the other bench_* binaries run too and their JSON
# stays in $BUILD/bench-results for their own sections. A full run (5 repetitions) takes about
# 25-35 minutes on an idle 2-core machine, most of it in the 2048 GEMMs and the 2^24 rows.
# bench_gemm runs twice: with OPENBLAS_CORETYPE=Haswell (what tests/CI use) and with it unset
# (OpenBLAS picks its AVX-512 kernels); the rows are labelled by the suffix @Haswell / @auto.
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-5}
FILTER=${2:-.}
BUILD=${SHADE_BENCH_BUILD:-build-bench}
OUT=$BUILD/bench-results
if [ -z "${SHADE_BENCH_NO_BUILD:-}" ]; then
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSHADE_BUILD_BENCH=ON -DSHADE_BUILD_TESTS=OFF \
    -DSHADE_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build "$BUILD" -j2 --target $(cd bench && ls bench_*.cc | sed 's/\.cc$//')
fi
mkdir -p "$OUT"
BIN=${SHADE_BENCH_BIN:-$BUILD/bench}
ARGS="--benchmark_repetitions=$REPS --benchmark_report_aggregates_only=true --benchmark_min_time=0.2 --benchmark_format=json --benchmark_filter=$FILTER"
rm -f "$OUT"/*.json "$OUT"/numpy.jsonl
for exe in "$BIN"/bench_*; do
  name=$(basename "$exe")
  [ -x "$exe" ] || continue
  if [ "$name" = bench_gemm ]; then
    OPENBLAS_CORETYPE=Haswell "$exe" $ARGS > "$OUT/$name@Haswell.json"
    env -u OPENBLAS_CORETYPE "$exe" $ARGS > "$OUT/$name@auto.json"
  else
    OPENBLAS_CORETYPE=Haswell "$exe" $ARGS > "$OUT/$name.json"
  fi
done
/usr/bin/python3 bench/numpy_bench.py "$REPS" "$FILTER" > "$OUT/numpy.jsonl"
/usr/bin/python3 bench/tabulate.py "$OUT" bench/RESULTS.md "bench/run.sh $*"
echo "bench/RESULTS.md updated from $OUT"
