#!/usr/bin/env bash
# kinetic.bgk against the paper's Table 1 (driven cavity drag D and vortex flow rate G) at
# delta = 0.1, 1, 10, on the given physical and velocity grids with the presets' unsplit streaming
# (each run's dt is set by `courant` 0.9: max|v_x| dt/dx + max|v_y| dt/dy = 0.9).
# usage: scripts/bgk-table1.sh [--backend cpu|cuda] [--run path/to/kinetic-run] [N:nv ...]   (default 160:20)
set -euo pipefail
cd "$(dirname "$0")/.."
backend=auto
run=build/app/cli/kinetic-run
grids=()
while (($#)); do
  case $1 in
    --backend) backend=$2; shift 2 ;;
    --run) run=$2; shift 2 ;;
    *) grids+=("$1"); shift ;;
  esac
done
((${#grids[@]})) || grids=(160:20)
out=$(mktemp -d)
printf "%6s %5s %4s %9s %9s %8s %8s %9s %8s\n" delta N nv D G "D err" "G err" "t" "wall s"
for grid in "${grids[@]}"; do
  N=${grid%:*}
  nv=${grid#*:}
  for delta in 0.1 1 10; do
    "$run" "presets/bgk/cavity-delta-$delta.json" --backend "$backend" --quiet --out "$out/r" \
      --set nx="$N" --set ny="$N" --set nv="$nv" --set courant=0.9 >/dev/null
    python3 - "$out/r/summary.json" "$delta" "$N" "$nv" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); d = s["diagnostics"]
print("%6s %5s %4s %9.4f %9.4f %7.2f%% %7.2f%% %9.2f %8.1f" % (sys.argv[2], sys.argv[3], sys.argv[4], d["D"], d["G"],
      100 * d["D_relative_error"], 100 * d["G_relative_error"], s["sim_time"], s["wall_time_s"]))
PY
  done
done
rm -rf "$out"
