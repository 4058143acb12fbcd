#!/usr/bin/env bash
# How live the window stays on the heaviest presets: kinetic-studio opens each one under Xvfb, runs
# it (or is still setting it up) and quits after --seconds, as a user closing the window would. Per
# preset: the GUI thread's longest stall over the whole session (event loop timer, 5 ms ticks), how
# long the window took to close and how long the run took to end after it (issue 48: 100 ms,
# 0.5 s), and that stall's parts: the GUI thread's own CPU time in it and its wait for a core (the
# rest it was blocked on the GL driver, the X server or a lock, the virtual CPU was not running, or
# it slept waiting for events and the timer woke it late). Last, the machine's own floor, measured
# in the same run without the app (bench/timer_floor.py).
# Switching presets mid-run is timed by the GUI test GuiLiveness (tests/gui/liveness_test.cpp).
# usage: bench/gui_liveness.sh [--backend cpu|cuda] [--build DIR] [--seconds S] [--size WxH] [--json FILE]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
backend=cpu build=$src/build seconds=20 size=1366x768 json=
while (($#)); do
  case $1 in
    --backend) backend=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --json) json=$2; shift 2 ;;
    *) echo "gui_liveness.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
app=$build/app/gui/kinetic-studio
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config  # no remembered window state or preset

for name in lbm/packed-bed-fine lbm/packed-bed-coarse dvm/cavity-kn1-128 bgk/cavity-delta-10 radiation/case14-h2o-cube-3dimens \
            coagulation/one-million-particles; do
  line=$(xvfb-run -a -s "-screen 0 ${size}x24" "$app" --preset "$src/presets/$name.json" --backend "$backend" \
           --quit-after "$seconds" 2>/dev/null | grep '^kinetic-studio: event loop:' || true)
  python3 - "$name" "$line" >>"$work/rows" <<'PY'
import json, re, sys
name, line = sys.argv[1], sys.argv[2]
m = dict(re.findall(r"(\w+)=(-?[0-9.]+)", line))
keys = ("longest_gap_ms", "gap_gui_cpu_ms", "gap_runqueue_ms", "quit_ms", "runs_ended_ms")
print(json.dumps({"preset": name, **{k: float(m.get(k, "nan")) for k in keys}}))
PY
done

# The machine's own floor in the same run: a bare 5 ms sleep beside two nice-19 processes touching
# fresh memory, no app (bench/timer_floor.py).
floor=$(python3 "$src/bench/timer_floor.py" "$seconds")

cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
python3 - "$work/rows" "$json" "$cpu, $(nproc) cores, $backend, ${size}, ${seconds} s each" "$floor" <<'PY'
import json, re, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
floor = {k: float(v) for k, v in re.findall(r"(\w+)=(-?[0-9.]+)", sys.argv[4])}
print(f"{'preset':40} {'longest gap ms':>15} {'its GUI CPU':>12} {'its core wait':>14} {'quit ms':>8} {'runs ended ms':>14}")
for r in rows:
    print(f"{r['preset']:40} {r['longest_gap_ms']:15.1f} {r['gap_gui_cpu_ms']:12.1f} {r['gap_runqueue_ms']:14.1f} {r['quit_ms']:8.0f}"
          f" {r['runs_ended_ms']:14.0f}")
print(f"{'machine floor (no app; timer_floor.py)':40} {floor.get('longest_gap_ms', float('nan')):15.1f}"
      f"  (hypervisor steal {floor.get('steal_s', float('nan')):.2f} s)")
if sys.argv[2]:
    json.dump({"host": sys.argv[3], "rows": rows, "machine_floor": floor}, open(sys.argv[2], "w"), indent=1)
PY
