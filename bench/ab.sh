#!/bin/bash
# Before/after comparison of two builds of the benchmarks on one machine. This machine's
# run-to-run noise (up to +-25% on some rows between two runs of the same binary) is larger than
# a 3% criterion, so the two builds are never compared across runs: each round runs every
# bench_* binary of both builds back to back, alternating which goes first, and the verdict per
# row is the median over rounds of the per-round ratio after/before.
#   bench/ab.sh BEFORE_BIN_DIR AFTER_BIN_DIR [rounds] [filter] [out_dir]
# Defaults: 5 rounds, filter '[Ss]hade|_static' (a --benchmark_filter regex; the peers' rows are the same
# code in both builds), out_dir ab-results. Rows that exist in only one build are listed apart.
# The table (markdown) goes to stdout and to out_dir/ab.md; raw JSON stays in out_dir.
set -euo pipefail
BEFORE=${1:?before bin dir}
AFTER=${2:?after bin dir}
ROUNDS=${3:-5}
FILTER=${4:-[Ss]hade|_static}
OUT=${5:-ab-results}
mkdir -p "$OUT"
rm -f "$OUT"/*.json
ARGS=(--benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_min_time=0.1
  --benchmark_format=json "--benchmark_filter=$FILTER")
export OPENBLAS_CORETYPE=Haswell
for ((r = 1; r <= ROUNDS; r++)); do
  for exe in "$AFTER"/bench_*; do
    name=$(basename "$exe")
    [ -x "$exe" ] && [ -x "$BEFORE/$name" ] || continue
    [ "$name" = bench_dist ] && continue  # needs mpirun; compared by bench/dist/
    if ((r % 2)); then order=(before after); else order=(after before); fi
    for side in "${order[@]}"; do
      if [ "$side" = before ]; then bin="$BEFORE/$name"; else bin="$AFTER/$name"; fi
      "$bin" "${ARGS[@]}" >"$OUT/$name.$side.$r.json" 2>/dev/null || true
    done
  done
  echo "ab: round $r of $ROUNDS done" >&2
done
/usr/bin/python3 "$(dirname "$0")/ab_table.py" "$OUT" | tee "$OUT/ab.md"
