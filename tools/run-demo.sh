#!/usr/bin/env bash
# The first command of the README: installs what the Fashion-MNIST example needs (the
# dataset package included) when it is missing, builds the example and trains it. The last
# line printed is the final test accuracy. Extra arguments go to the example
# (e.g. --model=cnn --epochs=5; --help lists them all).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(cmake g++ make libopenblas-dev liblapacke-dev libdnnl-dev libhwy-dev libeigen3-dev nlohmann-json3-dev
  zlib1g-dev libzip-dev libdlpack-dev dataset-fashion-mnist)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "run-demo: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"
cmake -S . -B build-demo -DCMAKE_BUILD_TYPE=Release -DSHADE_BUILD_TESTS=OFF \
  -DSHADE_BUILD_EXAMPLES=ON -DSHADE_WITH_CUDA=OFF >/dev/null
cmake --build build-demo -j"$(nproc)" --target fashion_mnist
exec ./build-demo/examples/fashion_mnist/fashion_mnist "$@"
