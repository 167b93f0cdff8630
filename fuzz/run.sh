#!/usr/bin/env bash
# The three loader targets (.npy header, .npy, NDArray format) for a fixed number of executions
# each (default 1,000,000), through tools/run-fuzz.sh (its build: clang, ASan + UBSan + LSan;
# its corpora: fuzz/corpus/<target> plus the loaders' test files). Usage: fuzz/run.sh [runs]
# [build-dir]. Exit status is non-zero if any target crashes, leaks or trips a sanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1000000}"
export SHADE_FUZZ_BUILD="${2:-build-fuzz}"
for target in npy_header_fuzzer npy_load_fuzzer ndarray_load_fuzzer; do
  bash tools/run-fuzz.sh run "$target" "$runs"
done
