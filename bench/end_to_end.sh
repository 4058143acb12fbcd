#!/usr/bin/env bash
# Speed as users get it: a method's paper case through kinetic-run against its kernel benchmark, in
# one run on one GPU. kinetic-run's rate is summary.json's work_done over iterations_time_s (set-up,
# snapshots and outputs excluded); the benchmark's, the same work unit from its JSON. Rows so far:
#   lbm.binary  packed-bed-fine (128^2 x 256, 12753 spheres, fp32, fused step) vs bench_lbm --sizes 128
#   kinetic.dvm cavity-kn1-64 (64^3 cells x 64^3 velocities)                  vs bench_dvm's 64 x 64 row
# usage: bench/end_to_end.sh [--build DIR] [--json FILE]   (a CUDA build: scripts/device-check.sh)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build-device-90 json=
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    *) echo "end_to_end.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
run=$build/app/cli/kinetic-run
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# kinetic-run's work a second on `preset` for `steps` iterations: prints "work_done/iterations_time_s".
user_rate() {
  "$run" "$src/presets/$1" --backend cuda --steps "$2" --out "$work/run" >"$work/run.log" 2>&1 ||
    { tail -5 "$work/run.log" >&2; exit 1; }
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["work_done"] / d["iterations_time_s"])' "$work/run/summary.json"
  rm -rf "$work/run"
}

"$build/bench/bench_lbm" --sizes 128 --box-sizes 8 --cpu-max-nodes 1 --seconds 1 --out "$work/lbm.json" >/dev/null
lbm_bench=$(python3 -c 'import json,sys; print(next(r["gpu_mlups"] for r in json.load(open(sys.argv[1]))["rows"] if r["n"] == 128 and r["precision"] == "fp32") * 1e6)' "$work/lbm.json")
lbm_user=$(user_rate lbm/packed-bed-fine.json 5)

"$build/bench/bench_dvm" --max-cells 64 --max-velocities 64 --cpu-max-points 1 --out "$work/dvm.json" >/dev/null
dvm_bench=$(python3 -c 'import json,sys; print(1e9 / next(r["gpu_ns_per_point"] for r in json.load(open(sys.argv[1]))["rows"] if r["cells"] == 64 and r["velocities"] == 64))' "$work/dvm.json")
dvm_user=$(user_rate dvm/cavity-kn1-64.json 3)

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
python3 - "$json" "$gpu" "$lbm_bench" "$lbm_user" "$dvm_bench" "$dvm_user" <<'PY'
import json, sys
out, gpu = sys.argv[1], sys.argv[2]
rows = [{"method": "lbm.binary", "case": "packed-bed-fine", "unit": "lattice updates/s", "bench": float(sys.argv[3]), "kinetic_run": float(sys.argv[4])},
        {"method": "kinetic.dvm", "case": "cavity-kn1-64", "unit": "phase-space point updates/s", "bench": float(sys.argv[5]), "kinetic_run": float(sys.argv[6])}]
print(f"{gpu}: kinetic-run against the kernel benchmark, one run")
print(f"{'method':12} {'case':18} {'bench':>10} {'kinetic-run':>12} {'ratio':>6}  unit")
for r in rows:
    r["ratio"] = r["kinetic_run"] / r["bench"]
    print(f"{r['method']:12} {r['case']:18} {r['bench']:10.3e} {r['kinetic_run']:12.3e} {r['ratio']:6.2f}  {r['unit']}")
if out:
    json.dump({"gpu": gpu, "rows": rows}, open(out, "w"), indent=1)
PY
