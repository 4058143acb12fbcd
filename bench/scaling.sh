#!/usr/bin/env bash
# Strong and weak scaling of kinetic-run across MPI ranks for the methods that split their work:
# time per iteration (the set-up, snapshots and output excluded: summary.json's iterations_time_s over
# its iterations), parallel efficiency against one rank, rank 0's share of time inside collectives
# (waiting included) and its bytes sent through MPI per iteration (halos and sums that go device to
# device over CUDA IPC are not counted: MPI then carries only their one-byte signals).
# usage: bench/scaling.sh [--backend cpu|cuda] [--ranks 1,2,4] [--threads-total N] [--build DIR]
#                         [--suite small|gpus] [--only NAME,...] [--json FILE]
#   cpu: each rank gets threads-total / ranks OpenMP threads (default: all cores); cuda: rank r uses
#   the node's GPU (local rank % count), so ranks <= GPUs gives a card each.
#   small (default): cases of seconds, for ranks sharing a machine or one card.
#   gpus: the multi-GPU cases (one card per rank, --backend cuda): weak scaling of the lbm packed bed
#   (256^2 x 512 and 12753 spheres per GPU), the bgk cavity (160^2 cells x 20^3 velocities per GPU)
#   and the dvm cavity (64^3 cells, 64^3 velocities per GPU: nv^3 ~ GPUs); strong scaling of radiation
#   case 10 at 128^3 cells, the dvm cavity 128^3 x 64^3 and coagulation Table 1 with 1000 runs; weak
#   scaling of cases that fill each card (coagulation: 1056 Table 1 runs, one 1e6-particle stepped
#   run; radiation case 10 at 128^3, 500 rays a cell a batch per GPU).
#   --json FILE: the rows and the machine (GPUs, their links, the MPI library, CUDA-aware or not).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
backend=cpu ranks=1,2,4 threads=$(nproc) build=$src/build only= suite=small json=
while (($#)); do
  case $1 in
    --backend) backend=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --threads-total) threads=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --suite) suite=$2; shift 2 ;;
    --only) only=,$2,; shift 2 ;;
    --json) json=$2; shift 2 ;;
    *) echo "scaling.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $suite == small || $suite == gpus ]] || { echo "scaling.sh: --suite $suite: allowed small or gpus" >&2; exit 2; }
run=$build/app/cli/kinetic-run
work=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 PMIX_MCA_preg=native
IFS=, read -ra counts <<<"$ranks"

rows=$(mktemp)
trap 'rm -rf "$work" "$rows"' EXIT

# name, modes (strong, weak or both), steps ("" = until the end condition), preset, args for one
# rank, the keys weak scaling changes with the ranks (comma-separated; KEY, KEY^3 or KEY=EXPR, see
# below). Field files are not written (--format none); the lbm keeps its slabs on their ranks
# (--pieces) instead of gathering.
one_rank_value() { sed -E "s/.*--set $1=([0-9]+).*/\1/" <<<"$2"; }  # KEY's value in args

measure() {
  local name=$1 modes=$2 steps=$3 preset=$4 args=$5 weak_keys=${6:-}
  [[ -z $only || $only == *,$name,* ]] || return 0
  for mode in $modes; do
    local t1=""
    for n in "${counts[@]}"; do
      local extra=() work_ratio=1
      if [[ $mode == weak ]]; then
        IFS=, read -ra keys <<<"$weak_keys"
        for key in "${keys[@]}"; do
          # KEY: times n. KEY^3: a count per axis of a cube, scaled by the cube root of n (even); the
          # efficiency is corrected by the work's actual ratio. KEY=EXPR: EXPR's value at n.
          local k value base
          case $key in
            *=*) k=${key%%=*} value=$(python3 -c "n = $n; print(${key#*=})") ;;
            *^3)
              k=${key%^3} base=$(one_rank_value "${key%^3}" "$args")
              value=$(python3 -c "print(2 * round($base * $n ** (1 / 3) / 2))")
              work_ratio=$(python3 -c "print($work_ratio * ($value / $base) ** 3 / $n)") ;;
            *) k=$key base=$(one_rank_value "$key" "$args") value=$((base * n)) ;;
          esac
          extra+=(--set "$k=$value")
        done
      fi
      [[ -n $steps ]] && extra+=(--steps "$steps")
      [[ $preset == lbm/* ]] && extra+=(--pieces)
      local rc=0
      # shellcheck disable=SC2086
      OMP_NUM_THREADS=$((threads / n > 0 ? threads / n : 1)) mpirun -np "$n" --bind-to none "$run" "$src/presets/$preset" $args \
        "${extra[@]}" --backend "$backend" --quiet --format none --out "$work/$name-$mode-$n" || rc=$?
      if ((rc)); then printf '%-12s %-6s %5d  failed (exit %d)\n' "$name" "$mode" "$n" "$rc"; break; fi
      python3 - "$work/$name-$mode-$n/summary.json" "$name" "$mode" "$n" "${t1:-0}" "$rows" "$args ${extra[*]}" "$work_ratio" <<'PY'
import json, sys
path, name, mode, n, t1, rows, args, work_ratio = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), sys.argv[6], sys.argv[7], float(sys.argv[8])
j = json.load(open(path))
t = j["iterations_time_s"] / j["iterations"]
r = j["ranks"]
coll = r.get("rank0_iterations_collective_seconds", 0.0) / max(j["iterations_time_s"], 1e-30)
sent = r.get("rank0_iterations_bytes_sent", 0) / j["iterations"]
eff = 1.0 if t1 == 0 else (t1 * work_ratio / t if mode == "weak" else t1 / (n * t))
print(f"{name:12s} {mode:6s} {n:5d} {t * 1e3:12.2f} {eff * 100:9.0f}% {coll * 100:11.1f}% {sent / 1e6:12.3f}")
open(path + ".t", "w").write(str(t))
with open(rows, "a") as f:
    f.write(json.dumps({"case": name, "mode": mode, "ranks": n, "iterations": j["iterations"], "ms_per_iteration": t * 1e3,
                        "efficiency": eff, "rank0_collective_share": coll, "rank0_mb_sent_per_iteration": sent / 1e6,
                        "preset": j["preset"], "args": args, "decomposition": r.get("decomposition", "")}) + "\n")
PY
      [[ -n $t1 ]] || t1=$(cat "$work/$name-$mode-$n/summary.json.t")
    done
  done
}

echo "kinetic-run across ranks on $backend ($(nproc) cores here$([[ $backend == cuda ]] && nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/^/, /'))"
echo "method       mode   ranks  ms/iteration  efficiency  collectives  MB sent/it"
if [[ $suite == gpus ]]; then
  measure bgk-cavity weak 5 bgk/cavity-delta-1.json "--set nx=160 --set ny=160 --set courant=0.5 --set steps_per_iteration=20" ny
  measure dvm-cavity weak 3 dvm/cavity-kn1-64.json "--set nx=64 --set ny=64 --set nz=64 --set nv=64" "nv^3"
  measure rmc-case10 strong 3 radiation/case10-h2o-slab-parab1.json "--set nx=128 --set ny=128 --set nz=128 \
--set rays_per_cell=60000 --set rays_per_batch=2000"
  measure dvm-cavity strong 2 dvm/cavity-kn1-64.json "--set nx=128 --set ny=128 --set nz=128 --set nv=64"
  measure coagulation strong "" coagulation/table1-free-molecular.json "--set n_runs=1000"
  # Cases that fill a card per rank: 1056 runs of Table 1 per GPU (8 blocks on each of an H200's 132
  # SMs), one stepped run of 1e6 particles per GPU (both whole runs: their first iterations take tens
  # of milliseconds), and radiation case 10 at 128^3 with a batch of 500 rays a cell per GPU (the
  # ranks split the cells, so each traces 500 rays a cell of its share times the ranks).
  measure coagulation-full weak "" coagulation/table1-free-molecular.json "--set n_runs=1056" n_runs
  measure coagulation-stepped weak "" coagulation/one-million-particles.json "--set n_runs=1" n_runs
  measure rmc-case10 weak 3 radiation/case10-h2o-slab-parab1.json "--set nx=128 --set ny=128 --set nz=128 \
--set rays_per_cell=60000 --set rays_per_batch=500" rays_per_batch
  # the paper's bed at twice its resolution per GPU; the open ends stay 64 planes long and the bed
  # grows, its spheres with it (the same size distribution and porosity). Every rank and the one GPU
  # step with the fused kernel (the fastest), and with the paper's three for comparison.
  bed="--set nx=256 --set ny=256 --set nz=512 --set d_min=8 --set d_max=16 --set sphere_count=12753 --set open_length=64 \
--set steps_per_iteration=50"
  measure lbm-bed-fused weak 3 lbm/packed-bed-fine.json "$bed --set gpu_step=fused" "nz,sphere_count=round(12753 * (512 * n - 128) / 384)"
  measure lbm-bed weak 3 lbm/packed-bed-fine.json "$bed --set gpu_step=paper" "nz,sphere_count=round(12753 * (512 * n - 128) / 384)"
elif [[ $backend == cuda ]]; then
  measure coagulation "strong weak" 12 coagulation/table1-free-molecular.json "--set n_runs=64 --set n_s=2000" n_runs
  measure radiation "strong weak" 5 radiation/case03-grey-cube-sin.json "--set nx=64 --set rays_per_batch=2000" nx
  measure dvm strong 5 dvm/teaching-cavity.json "--set nx=32 --set ny=32 --set nz=32 --set nv=32"
  measure lbm strong 5 lbm/packed-bed-fine.json "--set steps_per_iteration=100 --set gpu_step=paper"
  measure lbm-tube "strong weak" 5 lbm/tube-interpolated-bounce-back.json "--set nz=128 --set steps_per_iteration=100 --set gpu_step=paper" nz
  measure bgk-cavity "strong weak" 5 bgk/cavity-delta-1.json "--set ny=160 --set courant=0.5 --set steps_per_iteration=20" ny
else
  measure coagulation "strong weak" 8 coagulation/table1-free-molecular.json "--set n_runs=16 --set n_s=1000" n_runs
  measure radiation "strong weak" 3 radiation/case03-grey-cube-sin.json "--set nx=16 --set rays_per_batch=200" nx
  measure dvm "strong weak" 3 dvm/teaching-cavity.json "--set nx=16 --set ny=16 --set nz=16 --set nv=16" "nv^3"
  measure lbm "strong weak" 3 lbm/tube-interpolated-bounce-back.json "--set nx=32 --set ny=32 --set nz=64 --set steps_per_iteration=10" nz
  measure bgk-cavity "strong weak" 3 bgk/teaching-cavity.json "--set ny=48 --set courant=0.5 --set steps_per_iteration=5" ny
fi
[[ -z $json ]] || python3 - "$rows" "$json" "$backend" "$suite" <<'PY'
import json, subprocess, sys
rows, out, backend, suite = sys.argv[1:5]
def sh(cmd):
    try: return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout.strip()
    except Exception as e: return f"({e})"
machine = {"cores": int(sh("nproc") or 0), "mpi": sh("mpirun --version | head -1"),
           "mpi_cuda_aware": sh("ompi_info --parsable --all 2>/dev/null | grep mpi_built_with_cuda_support:value | cut -d: -f7") or "unknown"}
if backend == "cuda":
    machine["gpus"] = sh("nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader").splitlines()
    machine["gpu_links"] = sh("nvidia-smi topo -m").splitlines()
json.dump({"suite": suite, "backend": backend, "machine": machine,
           "rows": [json.loads(l) for l in open(rows) if l.strip()]}, open(out, "w"), indent=1)
PY
