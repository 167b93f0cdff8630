#!/bin/bash
# `pip install .` into a fresh virtual environment (offline, Debian's setuptools, pybind11 and
# NumPy through --system-site-packages), then import the installed module from outside the
# source tree and run a smoke check. Prints the install time. Not a ctest: a cold install
# builds the whole library (minutes on 2 cores); with a warm ccache it is much shorter.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
start=$(date +%s)
SHADE_BUILD_JOBS="${SHADE_BUILD_JOBS:-2}" "$tmp/venv/bin/pip" install --no-build-isolation \
  --no-index --no-deps -q "$root"
echo "check-pip-install: pip install took $(( $(date +%s) - start )) s"
cd "$tmp"
OPENBLAS_CORETYPE=Haswell "$tmp/venv/bin/python" - <<'PY'
import os
import numpy as np
import shade
assert "site-packages" in shade.__file__, shade.__file__
a = shade.arange(6.0).reshape(2, 3)
np.testing.assert_array_equal(np.asarray(a * 2), np.arange(6.0).reshape(2, 3) * 2)
print("check-pip-install: imported", shade.__file__, "version", shade.__version__)
PY
