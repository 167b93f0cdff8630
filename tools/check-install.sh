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
# The Python package, when it was built: importable from the prefix in Debian's layout.
if [ -d "$prefix/lib/python3/dist-packages/shade" ]; then
  (cd / && PYTHONPATH="$prefix/lib/python3/dist-packages" OPENBLAS_CORETYPE=Haswell /usr/bin/python3 -c \
    "import shade; assert (shade.arange(3) * 2).tolist() == [0, 2, 4]; print('installed shade module: ok')")
fi
