#!/usr/bin/env bash
# On a GPU machine of several cards (the device tool's nvidia-h200-x2 / -x4): build kinetic-run with
# CUDA and MPI, check that CUDA ranks write what one process writes (tests/mpi/rank_equality.sh, the
# cases whose names start with a match of KS_EQUALITY, a regex; empty: none), then run
# bench/scaling.sh --backend cuda --suite gpus on 1, 2, ... ranks, a card each.
# Logs and the JSON go to ${OUT:-out/device}: scaling.json, scaling.log, equality.log, build.log.
# usage: scripts/device-scaling.sh [--ranks 1,2,4] [--only CASE,...] [--base REV-TARBALL]
#   --base FILE: also build the tree in FILE (a `git archive` tarball of the code before a change, carried
#   with the call) and run the same cases with it first, so that before and after are one call.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/device}
ranks= only= base=
while (($#)); do
  case $1 in
    --ranks) ranks=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --base) base=$2; shift 2 ;;
    *) echo "device-scaling.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
gpus=$(nvidia-smi --list-gpus | wc -l)
[[ -n $ranks ]] || ranks=$(seq -s, 1 "$gpus" | awk -F, '{ s = "1"; for (n = 2; n <= NF; n *= 2) s = s "," n; print s }')
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
cfg=(-DKS_GUI=OFF -DKS_CUDA=ON -DKS_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DKS_PYTHON=OFF -DKS_TESTS=OFF -DKS_BENCH=OFF)
jobs=$(nproc)
build() {  # source dir, build dir
  cmake -S "$1" -B "$2" "${cfg[@]}" >>"$out/build.log" 2>&1 && cmake --build "$2" -j"$3" --target kinetic-run >>"$out/build.log" 2>&1
}
pids=()
if [[ -n $base ]]; then
  mkdir -p /tmp/ks-base && tar -xf "$base" -C /tmp/ks-base || exit 1
  build /tmp/ks-base /tmp/ks-base-build $((jobs / 2)) & pids+=($!)
  jobs=$((jobs / 2))
fi
build . build-scaling "$jobs" & pids+=($!)
for p in "${pids[@]}"; do wait "$p" || { grep -E "error" "$out/build.log" | head -20; exit 1; }; done
grep '^-- Kinetic Studio' "$out/build.log" | tail -1

if [[ -n ${KS_EQUALITY:-} ]]; then
  KS_EQUALITY_ONLY=$KS_EQUALITY timeout 600 bash tests/mpi/rank_equality.sh "$PWD/build-scaling/app/cli/kinetic-run" "$(command -v mpirun)" "$PWD" cuda 2>&1 | tee "$out/equality.log"
fi

args=(--backend cuda --suite gpus --ranks "$ranks")
[[ -n $only ]] && args+=(--only "$only")
if [[ -n $base ]]; then
  echo "== before (the tree in $base)" | tee -a "$out/scaling.log"
  bash bench/scaling.sh "${args[@]}" --build /tmp/ks-base-build --json "$out/scaling-before.json" 2>&1 | tee -a "$out/scaling.log"
  echo "== after" | tee -a "$out/scaling.log"
fi
bash bench/scaling.sh "${args[@]}" --build build-scaling --json "$out/scaling.json" 2>&1 | tee -a "$out/scaling.log"
