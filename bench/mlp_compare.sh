#!/usr/bin/env bash
# Times one training epoch of the Fashion-MNIST networks of examples/fashion_mnist in shade and
# in their LibTorch twins (bench/mlp_torch.cc, --model mlp|cnn), in the same run, at 1 and 2
# threads, and prints the median epoch time of each configuration as a Markdown table with
# the ratio shade / LibTorch. MLP: 784-256-128-10, ReLU; CNN: conv 5x5 1->32, ReLU, max pool 2,
# conv 5x5 32->64, ReLU, max pool 2, linear 1024->10; both softmax cross-entropy, SGD momentum
# 0.9, lr 0.1 decayed by 0.8 per epoch, batch 128. The programs of one (model, threads) cell
# run alternately (shade, torch-default, torch-best, ..., then the next run), so that the
# noise of a shared machine falls on all of them alike.
#
# LibTorch is run two ways:
#   torch-default : what a user gets: torch::set_num_threads(N), nothing else (OpenBLAS keeps
#                   its own thread pool, denormals are not flushed)
#   torch-best    : torch::set_num_threads(N), denormals flushed
#                   (at::globalContext().setFlushDenormal), OpenBLAS's threads set to N
#   torch-blas1   : (N > 1 only) as torch-best but OpenBLAS at 1 thread, so LibTorch's N
#                   OpenMP threads and OpenBLAS's pool do not oversubscribe the cores
#                   (the fastest 2-thread setting on the 2-core machine; see bench/RESULTS.md)
#
# Environment: MODELS (default "mlp cnn"), EPOCHS (default 10), RUNS (default 1),
#              THREADS (default "1 2"), BUILD (default build-bench-mlp); OURS / TORCH: prebuilt
#              binaries to use instead of building; BEFORE: a second shade binary (e.g. built
#              from an older commit), timed alongside as "shade-before". Needs libtorch-dev and
#              dataset-fashion-mnist. The medians are over every epoch of every run.
set -euo pipefail
cd "$(dirname "$0")/.."
models="${MODELS:-mlp cnn}"
epochs="${EPOCHS:-10}"
runs="${RUNS:-1}"
threads_list="${THREADS:-1 2}"
build="${BUILD:-build-bench-mlp}"
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"
unset OMP_NUM_THREADS OPENBLAS_NUM_THREADS

ours="${OURS:-}"
torch="${TORCH:-}"
if [ -z "$ours" ]; then
  cmake -S . -B "$build/shade" -DCMAKE_BUILD_TYPE=Release -DSHADE_BUILD_TESTS=OFF \
    -DSHADE_BUILD_EXAMPLES=ON >/dev/null
  cmake --build "$build/shade" -j2 --target fashion_mnist >/dev/null
  ours="$build/shade/examples/fashion_mnist/fashion_mnist"
fi
if [ -z "$torch" ]; then
  cmake -S bench/mlp_torch -B "$build/torch" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build/torch" -j2 >/dev/null
  torch="$build/torch/mlp_torch"
fi
mkdir -p "$build"

log="$build/mlp_compare.log"
: >"$log"
# Prints the median of the per-epoch values "$1 X s" ($1 = time: wall, cpu: process CPU)
# found on stdin.
median() { grep -o "$1 [0-9.]* s" | awk '{print $2}' | sort -g |
  awk '{a[NR]=$1} END {if (NR==0) {print "nan"; exit} if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
# $1 / $2 to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "nan"}'; }
# Last test accuracy printed by a run.
accuracy() { grep -o 'test accuracy [0-9.]*' | tail -1 | awk '{print $3}'; }

echo "| model | threads | program | epoch (s) | cpu (s) | shade / this (time) | shade / this (cpu) | accuracy |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
for model in $models; do
  for t in $threads_list; do
    progs="shade"
    [ -n "${BEFORE:-}" ] && progs+=" shade-before"
    progs+=" torch-default torch-best"
    [ "$t" -gt 1 ] && progs+=" torch-blas1"
    declare -A outs=()
    for ((r = 0; r < runs; r++)); do
      for prog in $progs; do
        case $prog in
          shade) o=$("$ours" --model="$model" --epochs="$epochs" --threads="$t" --seed="$r") ;;
          shade-before) o=$("$BEFORE" --model="$model" --epochs="$epochs" --threads="$t" \
            --seed="$r") ;;
          torch-default) o=$("$torch" --model "$model" --epochs "$epochs" --threads "$t" \
            --seed "$r") ;;
          torch-best) o=$("$torch" --model "$model" --epochs "$epochs" --threads "$t" \
            --seed "$r" --best --blas_threads "$t") ;;
          torch-blas1) o=$("$torch" --model "$model" --epochs "$epochs" --threads "$t" \
            --seed "$r" --best --blas_threads 1) ;;
        esac
        printf '== %s %s threads=%s run=%s\n%s\n' "$model" "$prog" "$t" "$r" "$o" >>"$log"
        outs[$prog]+="$o"$'\n'
      done
    done
    ours_time=$(median time <<<"${outs[shade]}")
    ours_cpu=$(median cpu <<<"${outs[shade]}")
    for prog in $progs; do
      tm=$(median time <<<"${outs[$prog]}")
      cpu=$(median cpu <<<"${outs[$prog]}")
      printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$model" "$t" "$prog" "$tm" "$cpu" \
        "$(ratio "$ours_time" "$tm")" "$(ratio "$ours_cpu" "$cpu")" \
        "$(accuracy <<<"${outs[$prog]}")"
    done
    unset outs
  done
done
echo "(per-epoch lines in $log)"
