#!/usr/bin/env bash
# Configures and builds into build/ (CUDA paths when nvcc is found, the GUI when Qt 6 + VTK are).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(nproc)"
