#!/usr/bin/env bash
# The app's run against kinetic-run's: the same preset and iterations through kinetic-studio (under
# Xvfb, the window drawing what runs) and through kinetic-run, in one run; each one's work over its
# iterations' own time (set-up and snapshots excluded), and app / kinetic-run (issue 49: within 10 %).
# On a CPU backend the window's software GL and the solver share the cores.
# usage: bench/app_vs_cli.sh [--backend cpu|cuda] [--build DIR] [--steps N] [--size WxH]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
backend=cpu build=$src/build steps=20 size=1366x768
while (($#)); do
  case $1 in
    --backend) backend=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    *) echo "app_vs_cli.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config  # no remembered window state or preset

printf '%-28s %14s %14s %8s  %s\n' preset kinetic-run app app/run unit
for name in dvm/teaching-cavity lbm/teaching-packed-bed bgk/teaching-cavity; do
  "$build/app/cli/kinetic-run" "$src/presets/$name.json" --backend "$backend" --steps "$steps" --out "$work/run" --format none --quiet
  line=$(xvfb-run -a -s "-screen 0 ${size}x24" "$build/app/gui/kinetic-studio" --preset "$src/presets/$name.json" \
           --backend "$backend" --steps "$steps" --exit 2>/dev/null | grep '^kinetic-studio: run:')
  python3 - "$name" "$work/run/summary.json" "$line" <<'PY'
import json, re, sys
name, summary, line = sys.argv[1:4]
s = json.load(open(summary))
app = dict(re.findall(r'(\w+)="?([^ "]+)', line))
cli_rate = s["work_done"] / s["iterations_time_s"]
app_rate = float(app["work_done"]) / float(app["iterations_time_s"])
print(f"{name:28} {cli_rate:14.4g} {app_rate:14.4g} {app_rate / cli_rate:8.2f}  {s['work_unit']}/s")
PY
  rm -rf "$work/run"
done
