#!/usr/bin/env bash
# Installs what the Fashion-MNIST example needs (the dataset package included), builds it and
# trains; the last line printed is the final test accuracy. Extra arguments go to the example.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq cmake g++ make libopenblas-dev libhwy-dev nlohmann-json3-dev zlib1g-dev \
  dataset-fashion-mnist >/dev/null
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"
cmake -S . -B build-demo -DCMAKE_BUILD_TYPE=Release -DSHADE_BUILD_TESTS=OFF -DSHADE_BUILD_EXAMPLES=ON
cmake --build build-demo -j"$(nproc)" --target fashion_mnist
./build-demo/examples/fashion_mnist/fashion_mnist "$@"
