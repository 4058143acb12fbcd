#!/usr/bin/env bash
# How long each teaching preset (presets/*/teaching-*.json) takes to show its phenomenon: the wall
# time of kinetic-run to the preset's end condition (its t_end, tolerance or step count, chosen so
# that the phenomenon has formed by then), set-up included, with its iterations and why it stopped.
# The issue's targets: 30 s on a 2-core CPU, 2 s on a GPU.
# usage: bench/teaching.sh [--backend cpu|cuda] [--build DIR] [--max-seconds S] [--json FILE]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
backend=cpu build=$src/build limit=300 json=
while (($#)); do
  case $1 in
    --backend) backend=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --max-seconds) limit=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    *) echo "teaching.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
run=$build/app/cli/kinetic-run
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for preset in "$src"/presets/*/teaching-*.json; do
  name=$(basename "$(dirname "$preset")")/$(basename "$preset" .json)
  out=$work/${name//\//-}
  start=$(date +%s.%N)
  "$run" "$preset" --backend "$backend" --format none --max-seconds "$limit" --out "$out" -q
  end=$(date +%s.%N)
  python3 - "$name" "$out/summary.json" "$start" "$end" >>"$work/rows" <<'PY'
import json, sys
name, summary, start, end = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
s = json.load(open(summary))
print(json.dumps({"preset": name, "device": s["backend"]["device"], "wall_s": round(end - start, 2),
                  "iterations": s["iterations"], "sim_time": s["sim_time"], "time_unit": s["time_unit"],
                  "state": s["state"], "stop_reason": s["stop_reason"]}))
PY
done

cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
python3 - "$work/rows" "$json" "$cpu, $(nproc) cores" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(f"{'preset':34} {'wall s':>7} {'iterations':>10}  state     device")
for r in rows:
    print(f"{r['preset']:34} {r['wall_s']:7.1f} {r['iterations']:10d}  {r['state']:9} {r['device']}")
if sys.argv[2]:
    json.dump({"host": sys.argv[3], "rows": rows}, open(sys.argv[2], "w"), indent=1)
PY
