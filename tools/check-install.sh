#!/usr/bin/env bash
# Installs shade into a temporary prefix and builds tests/consumer against it with find_package.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix" build-consumer' EXIT
cmake --install build --prefix "$prefix" >/dev/null
cmake -S tests/consumer -B build-consumer -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build build-consumer -j"$(nproc)" >/dev/null
OPENBLAS_CORETYPE=Haswell ./build-consumer/consumer
