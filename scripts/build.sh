#!/usr/bin/env bash
# Configures and builds into build/ (CUDA paths when nvcc is found, the GUI when Qt 6 + VTK are).
set -euo pipefail
cd "$(dirname "$0")/.."
# The configuration's own lines: what is built (KS_CUDA, KS_GUI, CUDA architectures, checks).
# $KS_CUDA_ARCHITECTURES narrows the CUDA architectures (CI builds one; users get the full list).
arch=()
[[ -z "${KS_CUDA_ARCHITECTURES:-}" ]] || arch=(-DKS_CUDA_ARCHITECTURES="$KS_CUDA_ARCHITECTURES")
configure_log=$(cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${arch[@]}" "$@")
grep '^-- Kinetic Studio' <<<"$configure_log" || true
cmake --build build -j"$(nproc)"
