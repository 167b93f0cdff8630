#!/bin/bash
# Native vs portable build of the dynamic front end's kernels (bench/bench_dispatch.cc):
# builds bench_dispatch in a native build (-march=native) and a portable one (kernels per SIMD
# target, chosen at run time), runs them alternately, the portable one also capped to each lower
# target, and prints the medians and the portable/native ratios as a Markdown table.
#   bench/dispatch_compare.sh [repetitions]     (default 5; build dirs build-bench-{native,port})
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-5}
export OPENBLAS_CORETYPE=Haswell
for kind in native port; do
  native=ON
  [ "$kind" = port ] && native=OFF
  cmake -S . -B "build-bench-$kind" -DCMAKE_BUILD_TYPE=Release -DSHADE_BUILD_BENCH=ON \
    -DSHADE_BUILD_TESTS=OFF -DSHADE_BUILD_EXAMPLES=OFF -DSHADE_NATIVE=$native \
    ${SHADE_BENCH_CMAKE_ARGS:-} >/dev/null
  cmake --build "build-bench-$kind" -j2 --target bench_dispatch >/dev/null
done
out=$(mktemp -d)
args="--benchmark_repetitions=1 --benchmark_min_time=0.2 --benchmark_format=json"
for ((r = 0; r < REPS; ++r)); do  # interleaved, so that load changes hit every variant alike
  build-bench-native/bench/bench_dispatch $args > "$out/native.$r.json"
  for t in best avx2 sse4 baseline; do
    SHADE_SIMD_TARGET=$t build-bench-port/bench/bench_dispatch $args > "$out/port-$t.$r.json"
  done
done
/usr/bin/python3 - "$out" "$REPS" <<'PY'
import json, statistics, sys
out, reps = sys.argv[1], int(sys.argv[2])
variants = ["native", "port-best", "port-avx2", "port-sse4", "port-baseline"]
times, labels = {}, {}
for v in variants:
    for r in range(reps):
        for b in json.load(open(f"{out}/{v}.{r}.json"))["benchmarks"]:
            times.setdefault((b["name"], v), []).append(b["real_time"])
            labels[(b["name"], v)] = b.get("label", "")
names = sorted({k[0] for k in times}, key=lambda n: list(k[0] for k in times).index(n))
med = {k: statistics.median(t) for k, t in times.items()}
print("| benchmark (us, median of %d) | native (%s) | portable best (%s) | best / native | avx2 | sse4 | baseline (%s) |"
      % (reps, labels[(names[0], "native")], labels[(names[0], "port-best")], labels[(names[0], "port-baseline")]))
print("|---|---|---|---|---|---|---|")
for n in names:
    row = [med[(n, v)] for v in variants]
    print("| %s | %.1f | %.1f | %.3f | %.1f | %.1f | %.1f |" % (n, row[0], row[1], row[1] / row[0], row[2], row[3], row[4]))
PY
rm -rf "$out"
