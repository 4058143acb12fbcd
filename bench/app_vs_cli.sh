#!/usr/bin/env bash
# The app's run against kinetic-run's: the same preset and iterations through kinetic-studio (under
# Xvfb, the window drawing what runs) and through kinetic-run, in one run; each one's work over its
# iterations' own time (set-up and snapshots excluded), and app / kinetic-run (issue 49: within 10 %).
# On a CPU backend the window's software GL and the solver share the cores.
# Cases: teaching (three teaching presets, --steps iterations each) or paper (bench/end_to_end.sh's
# five paper cases with its settings and iterations, all of them for radiation and coagulation, for a GPU).
# --build is a build tree (app/gui/kinetic-studio) or an unpacked GUI bundle (bin/kinetic-studio,
# scripts/make-gui-bundle.sh); --display uses a running X server instead of xvfb-run.
# usage: bench/app_vs_cli.sh [--backend cpu|cuda] [--build DIR] [--cases teaching|paper] [--steps N]
#                            [--size WxH] [--display :N]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
backend=cpu build=$src/build cases=teaching steps=20 size=1366x768 display=
while (($#)); do
  case $1 in
    --backend) backend=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --display) display=$2; shift 2 ;;
    *) echo "app_vs_cli.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [[ -x $build/bin/kinetic-studio ]]; then
  app=$build/bin/kinetic-studio run=$build/bin/kinetic-run
else
  app=$build/app/gui/kinetic-studio run=$build/app/cli/kinetic-run
fi
# Each case: a preset and the arguments both programs get.
case $cases in
  teaching)
    list=("dvm/teaching-cavity --steps $steps" "lbm/teaching-packed-bed --steps $steps" "bgk/teaching-cavity --steps $steps") ;;
  paper)
    list=("lbm/packed-bed-fine --steps 5"
          "dvm/cavity-kn1-64 --steps 3"
          "radiation/case10-h2o-slab-parab1 --set nx=64 --set ny=64 --set nz=64 --set rays_per_cell=60000 --set single_precision=true --set texture=true --set sorting=true --set grid_levels=5 --steps 300"
          "coagulation/one-million-particles --steps 26"
          "bgk/cavity-delta-10 --steps 4") ;;
  *) echo "app_vs_cli.sh: --cases is teaching or paper, not $cases" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config  # no remembered window state or preset

in_window() {
  if [[ -n $display ]]; then
    DISPLAY=$display "$@"
  else
    xvfb-run -a -s "-screen 0 ${size}x24" "$@"
  fi
}

printf '%-36s %14s %14s %8s  %s\n' preset kinetic-run app app/run unit
for item in "${list[@]}"; do
  read -r -a words <<<"$item"
  name=${words[0]} args=("${words[@]:1}")
  "$run" "$src/presets/$name.json" --backend "$backend" "${args[@]}" --out "$work/run" --format none --quiet
  line=$(in_window "$app" --preset "$src/presets/$name.json" --backend "$backend" "${args[@]}" --exit 2>/dev/null |
           grep '^kinetic-studio: run:')
  python3 - "$name" "$work/run/summary.json" "$line" <<'PY'
import json, re, sys
name, summary, line = sys.argv[1:4]
s = json.load(open(summary))
app = dict(re.findall(r'(\w+)="?([^ "]+)', line))
cli_rate = s["work_done"] / s["iterations_time_s"]
app_rate = float(app["work_done"]) / float(app["iterations_time_s"])
print(f"{name:36} {cli_rate:14.4g} {app_rate:14.4g} {app_rate / cli_rate:8.2f}  {s['work_unit']}/s")
PY
  rm -rf "$work/run"
done
