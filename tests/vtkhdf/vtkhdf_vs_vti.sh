#!/usr/bin/env bash
# kinetic-run --format vtkhdf against --format vti, read back by VTK's own readers (vtkHDFReader,
# vtkXMLImageDataReader; same_as_vti.py): a 3D lattice and a 3D radiation field, every value equal;
# the grids VTKHDF 1.0 has no type for or VTK 9.1 cannot read (the cavity's 2D grids, the shock's
# line, the particles) written as .vti, .vtr and .vtp; a time series listed in a .hdf.series.
# usage: vtkhdf_vs_vti.sh KINETIC_RUN SOURCE_DIR
set -uo pipefail
run=$1 src=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python=$(bash "$here/vtk_python.sh")
if [[ -z $python ]]; then
  echo "SKIPPED: no python3 with VTK's modules (python3-vtk9) to read the files with"
  exit 77
fi
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

same_fields() {  # name, preset, args...
  local name=$1 preset=$2
  shift 2
  "$run" "$src/presets/$preset" "$@" --quiet --format vti --out "$work/$name-vti" || { fail "$name: --format vti exited $?"; return; }
  "$run" "$src/presets/$preset" "$@" --quiet --format vtkhdf --out "$work/$name-hdf" || { fail "$name: --format vtkhdf exited $?"; return; }
  "$python" "$here/same_as_vti.py" "$work/$name-vti" "$work/$name-hdf" || fail "$name: the .hdf files differ from the .vti files"
  grep -q '\.hdf"' "$work/$name-hdf/summary.json" || fail "$name: summary.json does not list the .hdf files"
}

same_fields lbm lbm/tube-simple-bounce-back.json --steps 2 --set nx=12 --set ny=10 --set nz=16 --set steps_per_iteration=5
same_fields radiation radiation/teaching-hot-cube.json --steps 2

# Grids VTKHDF 1.0 cannot hold, or VTK 9.1 cannot read (a 2D grid): as the vti format writes them.
"$run" "$src/presets/bgk/teaching-cavity.json" --steps 2 --quiet --format vti --out "$work/cavity-vti" || fail "cavity: --format vti exited $?"
"$run" "$src/presets/bgk/teaching-cavity.json" --steps 2 --quiet --format vtkhdf --out "$work/cavity-hdf" || fail "cavity: exited $?"
for f in "$work/cavity-vti"/*.vti; do
  cmp -s "$f" "$work/cavity-hdf/$(basename "$f")" || fail "cavity: the 2D $(basename "$f") of --format vtkhdf is not the one --format vti writes"
done
"$run" "$src/presets/bgk/teaching-shock.json" --steps 1 --quiet --format vtkhdf --out "$work/shock" || fail "shock: exited $?"
[[ -f $work/shock/fields.vtr ]] || fail "shock: the line's fields are not written as fields.vtr with --format vtkhdf"
[[ -e $work/shock/fields.hdf ]] && fail "shock: the line's fields were written as fields.hdf"
"$run" "$src/presets/coagulation/teaching-demo.json" --steps 1 --quiet --format vtkhdf --out "$work/particles" || fail "particles: exited $?"
ls "$work/particles"/*.vtp >/dev/null 2>&1 || fail "particles: not written as .vtp with --format vtkhdf"

# A time series: NAME_<iteration>.hdf per output, each equal to the vti series' file, listed with the
# .pvd's times in NAME.hdf.series (ParaView's file series, which ParaView 5.11 plays).
same_fields series lbm/tube-simple-bounce-back.json --steps 2 --set nx=12 --set ny=10 --set nz=16 --set steps_per_iteration=5 --output-every 1
"$python" - "$work/series-vti/fields.pvd" "$work/series-hdf/fields.hdf.series" <<'PY' || fail "series: fields.hdf.series does not list the .pvd's outputs and times"
import json, re, sys
pvd = re.findall(r'timestep="([^"]+)" part="0" file="([^"]+)\.vti"', open(sys.argv[1]).read())
series = json.load(open(sys.argv[2]))
got = [(f["time"], f["name"]) for f in series["files"]]
want = [(float(t), stem + ".hdf") for t, stem in pvd]
print(f"fields.hdf.series: {len(got)} outputs, times {[t for t, _ in got]}")
sys.exit(series["file-series-version"] != "1.0" or got != want or len(got) != 3)
PY

((failures == 0)) && echo "vtkhdf: every .hdf equals the .vti of the same run through VTK's readers; 2D grids, lines and particles as .vti, .vtr and .vtp"
exit $((failures > 0))
