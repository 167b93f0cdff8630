#!/usr/bin/env bash
# The data-parallel epoch of the Fashion-MNIST example at mpirun -np 2 (one thread per process)
# against one process with 2 threads and with 1 thread, on the same machine; prints each run's
# "epoch ... time" line and the medians. usage: bench/dist/epoch.sh BUILD_DIR [RUNS] [ARGS...]
# (ARGS go to every run, e.g. --model=cnn --train_limit=6400).
set -euo pipefail
build="${1:-build}"
runs="${2:-3}"
shift 2 || true
bin="$build/examples/fashion_mnist/fashion_mnist"
export OPENBLAS_CORETYPE=Haswell OMPI_MCA_btl_vader_single_copy_mechanism=none
# Waiting ranks yield the core instead of spinning: on a shared, oversubscribed machine a
# spinning rank steals the core of the rank it waits for (measured 2.5 s instead of 6-12 s).
export OMPI_MCA_mpi_yield_when_idle=1
common=(--epochs=1 --test_limit=1000 "$@")
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
epoch_time() { grep -o 'time [0-9.]* s' | awk '{print $2}'; }
declare -A results
for ((r = 1; r <= runs; ++r)); do
  results[one_1]+="$("$bin" "${common[@]}" --threads=1 | epoch_time) "
  results[one_2]+="$("$bin" "${common[@]}" --threads=2 | epoch_time) "
  results[np2]+="$(mpirun --allow-run-as-root -np 2 "$bin" "${common[@]}" --threads=1 --dist | epoch_time) "
  results[np2_det]+="$(mpirun --allow-run-as-root -np 2 "$bin" "${common[@]}" --threads=1 --dist --shards=2 | epoch_time) "
done
for k in one_1 one_2 np2 np2_det; do
  echo "$k: ${results[$k]}-> median $(echo "${results[$k]}" | tr ' ' '\n' | grep . | median) s"
done
