#!/usr/bin/env bash
# On a GPU machine (no Qt/VTK): build with CUDA, logs under ${OUT:-out/device}. GoogleTest and
# CLI11 may be carried in .device/gtest and .device/cli11 (see .library/device/README.md).
# usage: scripts/device-check.sh [targets...]   (default: every test and benchmark)
#   KS_CUDA_ARCHITECTURES=90 (default) builds Hopper code into build-device-90; 80-virtual or
#   75-virtual build PTX only, which a Hopper JIT-compiles: the Ampere and Turing paths, run there.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/device}
arch=${KS_CUDA_ARCHITECTURES:-90}
build=build-device-${arch//;/_}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
extra=()
[[ -d /usr/include/gtest || ! -d .device/gtest ]] || extra+=(-DGTEST_ROOT="$PWD/.device/gtest")
[[ -d /usr/include/CLI || ! -d .device/cli11 ]] || extra+=(-DCMAKE_PREFIX_PATH="$PWD/.device/cli11")
# The Python module for the python3 that has pybind11 and NumPy there (pip's pybind11 names its CMake folder).
if python3 -c "import pybind11, numpy" 2>/dev/null; then
  extra+=(-DPython_EXECUTABLE="$(command -v python3)" -Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)")
fi
cmake -S . -B "$build" -DKS_GUI=OFF -DKS_CUDA=ON -DKS_CUDA_ARCHITECTURES="$arch" -DCMAKE_BUILD_TYPE=Release \
  "${extra[@]}" >"$out/cmake-$arch.log" 2>&1 || { tail -40 "$out/cmake-$arch.log"; exit 1; }
grep '^-- Kinetic Studio' "$out/cmake-$arch.log"
targets=("$@")
((${#targets[@]})) || targets=(all)
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >>"$out/build-$arch.log" 2>&1 ||
  { grep -E "error" "$out/build-$arch.log" | head -30; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee "$out/gpu.txt"
