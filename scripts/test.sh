#!/usr/bin/env bash
# One command: install what the tests need, build, run every test. GPU tests skip, saying so, without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --gui
scripts/build.sh
# The GUI's packages were installed above: a build without it would drop the GUI tests silently.
if ! grep -q '^KS_GUI:BOOL=ON' build/CMakeCache.txt; then
  echo "test.sh: the desktop app was not configured (KS_GUI is OFF although its packages are installed): see the cmake output" >&2
  exit 1
fi
# Likewise the Python module (pybind11-dev, python3-dev were installed above).
if ! grep -q '^KS_PYTHON:BOOL=ON' build/CMakeCache.txt; then
  echo "test.sh: the Python module was not configured (KS_PYTHON is OFF although pybind11 is installed): see the cmake output" >&2
  exit 1
fi
ctest --test-dir build --output-on-failure -j"$(nproc)"
