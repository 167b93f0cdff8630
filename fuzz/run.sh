#!/usr/bin/env bash
# Builds shade's libFuzzer targets with clang and -fsanitize=fuzzer,address,undefined and runs
# each for a fixed number of executions (default 1,000,000) from the seed corpus of hand-made
# and NumPy-written files. Usage: fuzz/run.sh [runs] [build-dir]
# Exit status is non-zero if any target crashes, leaks or trips a sanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1000000}"
build="${2:-build-fuzz}"
[ -x /usr/bin/clang++ ] || { echo "fuzz/run.sh needs clang++ (Debian clang + libclang-rt-dev)" >&2; exit 2; }
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSHADE_BUILD_FUZZ=ON -DSHADE_BUILD_TESTS=OFF -DSHADE_BUILD_EXAMPLES=OFF -DSHADE_NATIVE=OFF \
  -DSHADE_SANITIZE=address,undefined >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target npy_header_fuzzer npy_load_fuzzer ndarray_load_fuzzer
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
for target in npy_header_fuzzer npy_load_fuzzer ndarray_load_fuzzer; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  case "$target" in
    npy_header_fuzzer)  # the dict text of every seed file
      for f in tests/data/io/npy/*.npy tests/data/io/bad/*.npy; do
        /usr/bin/python3 - "$f" "$corpus/$(basename "$f").dict" <<'PY' || true
import struct, sys
b = open(sys.argv[1], "rb").read()
if len(b) >= 10 and b[:6] == b"\x93NUMPY":
    n, off = (struct.unpack("<H", b[8:10])[0], 10) if b[6] == 1 else (struct.unpack("<I", b[8:12])[0], 12)
    open(sys.argv[2], "wb").write(b[off:off + n])
PY
      done ;;
    npy_load_fuzzer) cp tests/data/io/npy/*.npy tests/data/io/bad/*.npy "$corpus/" ;;
    ndarray_load_fuzzer) cp tests/data/io/nd/*.nd "$corpus/" 2>/dev/null || true ;;
  esac
  start=$(date +%s.%N)
  "$build/fuzz/$target" -runs="$runs" -max_len=4096 -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$build/" \
    -print_final_stats=1 "$corpus" 2>&1 | tail -n 12 | tee "$build/$target.log"
  end=$(date +%s.%N)
  echo "$target: $runs runs in $(echo "$end - $start" | bc) s: OK"
done
