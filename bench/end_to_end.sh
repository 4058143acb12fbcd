#!/usr/bin/env bash
# Speed as users get it: a method's paper case through kinetic-run against its kernel benchmark, in
# one run on one GPU. kinetic-run's rate is summary.json's work_done over iterations_time_s (set-up,
# snapshots and outputs excluded); the benchmark's, the same work unit from its JSON. The rows:
#   lbm.binary          packed-bed-fine (128^2 x 256, 12753 spheres, fp32)   vs bench_lbm --sizes 128
#   kinetic.dvm         cavity-kn1-64 (64^3 cells x 64^3 velocities)        vs bench_dvm's 64 x 64 row
#   radiation.rmc       case 10's profile at 64^3 x 6e4 rays, multigrid fp32, the presets' 200 rays a
#                       batch                                               vs bench_rmc's same case
#   aerosol.coagulation one-million-particles (stepped)                      vs bench_coagulation 1e6
#   kinetic.bgk         cavity-delta-10 (160^2 cells x 20^3 velocities)      vs bench_bgk's cavity N_r 320 (fused)
# Each preset also runs through the Python module (the same parameters and iterations, its summary's
# rates) where the build has it: the column python / kinetic-run.
# usage: bench/end_to_end.sh [--build DIR] [--json FILE] [--only METHOD]   (a CUDA build: scripts/device-check.sh)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build-device-90 json= only=
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "end_to_end.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
run=$build/app/cli/kinetic-run
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rows=$work/rows

# A value from a JSON file: jq-like, by a Python expression over `d`.
json_value() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# The work a second of preset $1 with the arguments after it (--steps, --set) through kinetic-run and
# through the Python module ("-" without it): two columns.
user_rates() {
  local preset=$1
  shift
  "$run" "$src/presets/$preset" --backend cuda --out "$work/run" "$@" >"$work/run.log" 2>&1 || { tail -5 "$work/run.log" >&2; exit 1; }
  printf '%s\t%s' "$(json_value "$work/run/summary.json" 'd["work_done"] / d["iterations_time_s"]')" \
    "$(python_rate "$src/presets/$preset" "$@")"
  rm -rf "$work/run"
}

# python_rate PRESET_FILE [--steps N] [--set key=value]...
python_rate() {
  PYTHONPATH=$build/python python3 - "$@" <<'PY' 2>"$work/python.log" || echo -
import sys
import kinetic_studio as ks

def typed(text):  # as kinetic-run's --set reads it
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text, text)

preset, args = sys.argv[1], sys.argv[2:]
steps, overrides = None, {}
for flag, value in zip(args[::2], args[1::2]):
    if flag == "--steps":
        steps = int(value)
    else:
        key, text = value.split("=", 1)
        overrides[key] = typed(text)
sim = ks.Simulation.from_preset(preset, backend="cuda", **overrides)
sim.step(steps) if steps else sim.run(progress=False)
s = sim.summary()
sim.close()
print(s["work_done"] / s["iterations_time_s"])
PY
}

# row METHOD CASE UNIT BENCH_RATE "KINETIC_RUN_RATE<tab>PYTHON_RATE"
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$rows"; }
# Whether METHOD's row is wanted (--only).
wanted() { [[ -z $only || $only == "$1" ]]; }

if wanted lbm.binary; then
  "$build/bench/bench_lbm" --sizes 128 --box-sizes 8 --cpu-max-nodes 1 --seconds 1 --out "$work/lbm.json" >/dev/null
  row lbm.binary packed-bed-fine "lattice updates/s" \
    "$(json_value "$work/lbm.json" 'next(r["gpu_mlups"] for r in d["rows"] if r["n"] == 128 and r["precision"] == "fp32") * 1e6')" \
    "$(user_rates lbm/packed-bed-fine.json --steps 5)"
fi

if wanted kinetic.dvm; then
  "$build/bench/bench_dvm" --max-cells 64 --max-velocities 64 --cpu-max-points 1 --out "$work/dvm.json" >/dev/null
  row kinetic.dvm cavity-kn1-64 "phase-space point updates/s" \
    "$(json_value "$work/dvm.json" '1e9 / next(r["gpu_ns_per_point"] for r in d["rows"] if r["cells"] == 64 and r["velocities"] == 64)')" \
    "$(user_rates dvm/cavity-kn1-64.json --steps 3)"
fi

if wanted radiation.rmc; then
  "$build/bench/bench_rmc" --grids 64 --rays 60000 --variants multigrid_fp32 --budget 3 --ray-sweep 60000 --sweep-grid 64 \
    --out "$work/rmc.json" >/dev/null
  row radiation.rmc "case 10 at 64^3" "rays/s" \
    "$(json_value "$work/rmc.json" 'next(r["rays_per_second"] for r in d["grid_sweep"] if r["grid"] == 64)')" \
    "$(user_rates radiation/case10-h2o-slab-parab1.json --set nx=64 --set ny=64 --set nz=64 --set rays_per_cell=60000 \
         --set single_precision=true --set texture=true --set sorting=true --set grid_levels=5)"
fi

if wanted aerosol.coagulation; then
  "$build/bench/bench_coagulation" --sizes 1000000 --selection stepped --no-ensemble --cpu-max-n 1 --out "$work/coag.json" >/dev/null
  row aerosol.coagulation one-million-particles "events/s" \
    "$(json_value "$work/coag.json" 'd["sizes"][0]["gpu_events_per_s"]')" \
    "$(user_rates coagulation/one-million-particles.json)"
fi

if wanted kinetic.bgk; then
  "$build/bench/bench_bgk" --shock-nx 16 --cavity-n 160 --cpu-max-phase-cells 1 --seconds 1 --out "$work/bgk.json" >/dev/null
  row kinetic.bgk cavity-delta-10 "phase-space cell updates/s" \
    "$(json_value "$work/bgk.json" '1e9 / next(r["gpu_fused_ns"] for r in d["rows"] if r["case"] == "cavity")')" \
    "$(user_rates bgk/cavity-delta-10.json --steps 4)"
fi

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
python3 - "$rows" "$json" "$gpu" <<'PY'
import json, sys
rows = []
for line in open(sys.argv[1]):
    method, case, unit, bench, user, python = line.rstrip("\n").split("\t")
    r = {"method": method, "case": case, "unit": unit, "bench": float(bench), "kinetic_run": float(user),
         "ratio": float(user) / float(bench)}
    if python != "-":
        r["python"] = float(python)
        r["python_vs_kinetic_run"] = float(python) / float(user)
    rows.append(r)
print(f"{sys.argv[3]}: kinetic-run against the kernel benchmark, and the Python module against kinetic-run, one run")
print(f"{'method':20} {'case':22} {'bench':>10} {'kinetic-run':>12} {'ratio':>6} {'python':>10} {'py/run':>7}  unit")
for r in rows:
    py = f"{r['python']:10.3e} {r['python_vs_kinetic_run']:7.2f}" if "python" in r else f"{'-':>10} {'-':>7}"
    print(f"{r['method']:20} {r['case']:22} {r['bench']:10.3e} {r['kinetic_run']:12.3e} {r['ratio']:6.2f} {py}  {r['unit']}")
if sys.argv[2]:
    json.dump({"gpu": sys.argv[3], "rows": rows}, open(sys.argv[2], "w"), indent=1)
PY
