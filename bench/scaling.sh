#!/usr/bin/env bash
# Strong and weak scaling of kinetic-run across MPI ranks for the methods that split their work:
# time per iteration (the set-up excluded), parallel efficiency against one rank, rank 0's share of
# time inside collectives (waiting included) and its bytes sent per iteration, from summary.json.
# usage: bench/scaling.sh [--backend cpu|cuda] [--ranks 1,2,4] [--threads-total N] [--build DIR] [--only NAME,...]
#   cpu: each rank gets threads-total / ranks OpenMP threads (default: all cores); cuda: the ranks
#   share the node's GPUs (local rank % count).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
backend=cpu ranks=1,2,4 threads=$(nproc) build=$src/build only=
while (($#)); do
  case $1 in
    --backend) backend=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --threads-total) threads=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --only) only=,$2,; shift 2 ;;
    *) echo "scaling.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
run=$build/app/cli/kinetic-run
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 PMIX_MCA_preg=native
IFS=, read -ra counts <<<"$ranks"

# name, steps, preset, args for one rank (weak scaling multiplies the key $5 by the ranks), key
measure() {
  local name=$1 steps=$2 preset=$3 args=$4 weak_key=${5:-}
  [[ -z $only || $only == *,$name,* ]] || return 0
  for mode in strong weak; do
    [[ $mode == weak && -z $weak_key ]] && continue
    local t1=""
    for n in "${counts[@]}"; do
      local extra=()
      if [[ $mode == weak ]]; then
        local base; base=$(sed -E "s/.*--set $weak_key=([0-9]+).*/\1/" <<<"$args")
        extra=(--set "$weak_key=$((base * n))")
      fi
      # shellcheck disable=SC2086
      OMP_NUM_THREADS=$((threads / n > 0 ? threads / n : 1)) mpirun -np "$n" --bind-to none "$run" "$src/presets/$preset" $args "${extra[@]}" \
        --steps "$steps" --backend "$backend" --quiet --out "$work/$name-$mode-$n"
      python3 - "$work/$name-$mode-$n/summary.json" "$name" "$mode" "$n" "$steps" "${t1:-0}" <<'PY'
import json, sys
path, name, mode, n, steps, t1 = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
j = json.load(open(path))
t = j["iterations_time_s"] / steps
r = j["ranks"]
coll = r.get("rank0_iterations_collective_seconds", 0.0) / max(j["iterations_time_s"], 1e-30)
sent = r.get("rank0_iterations_bytes_sent", 0) / steps
eff = 1.0 if t1 == 0 else (t1 / t if mode == "weak" else t1 / (n * t))
print(f"{name:12s} {mode:6s} {n:5d} {t * 1e3:12.2f} {eff * 100:9.0f}% {coll * 100:11.1f}% {sent / 1e6:12.3f}")
open(path + ".t", "w").write(str(t))
PY
      [[ -n $t1 ]] || t1=$(cat "$work/$name-$mode-$n/summary.json.t")
    done
  done
}

echo "kinetic-run across ranks on $backend ($(nproc) cores here$([[ $backend == cuda ]] && nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/^/, /'))"
echo "method       mode   ranks  ms/iteration  efficiency  collectives  MB sent/it"
if [[ $backend == cuda ]]; then
  measure coagulation 12 coagulation/table1-free-molecular.json "--set n_runs=64 --set n_s=2000" n_runs
  measure radiation 5 radiation/case03-grey-cube-sin.json "--set nx=64 --set rays_per_batch=2000" nx
  measure dvm 5 dvm/teaching-cavity.json "--set nx=32 --set ny=32 --set nz=32 --set nv=32"
  measure lbm 5 lbm/packed-bed-fine.json "--set steps_per_iteration=100"
  measure lbm-tube 5 lbm/tube-interpolated-bounce-back.json "--set nz=128 --set steps_per_iteration=100" nz
  measure bgk-cavity 5 bgk/cavity-delta-1.json "--set ny=160 --set courant=0.5 --set steps_per_iteration=20" ny
else
  measure coagulation 8 coagulation/table1-free-molecular.json "--set n_runs=16 --set n_s=1000" n_runs
  measure radiation 3 radiation/case03-grey-cube-sin.json "--set nx=16 --set rays_per_batch=200" nx
  measure dvm 3 dvm/teaching-cavity.json "--set nx=16 --set ny=16 --set nz=16 --set nv=16"
  measure lbm 3 lbm/tube-interpolated-bounce-back.json "--set nx=32 --set ny=32 --set nz=64 --set steps_per_iteration=10" nz
  measure bgk-cavity 3 bgk/teaching-cavity.json "--set ny=48 --set courant=0.5 --set steps_per_iteration=5" ny
fi
