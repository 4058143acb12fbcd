#!/usr/bin/env bash
# On a GPU machine (no Qt/VTK): build with CUDA, run the given test binaries' GPU tests and
# the benchmarks, logs under ${OUT:-out/device}. GoogleTest may be carried in .device/gtest.
# usage: scripts/device-check.sh [targets...]   (default: every test and benchmark)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/device}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
gtest=()
[[ -d /usr/include/gtest || ! -d .device/gtest ]] || gtest=(-DGTEST_ROOT="$PWD/.device/gtest")
cmake -S . -B build-device -DKS_GUI=OFF -DKS_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  "${gtest[@]}" >"$out/cmake.log" 2>&1 || { tail -40 "$out/cmake.log"; exit 1; }
targets=("$@")
((${#targets[@]})) || targets=(all)
for t in "${targets[@]}"; do
  cmake --build build-device -j"$(nproc)" --target "$t" >>"$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -30; exit 1; }
done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee "$out/gpu.txt"
