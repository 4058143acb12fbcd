#!/usr/bin/env bash
# The install, as a user gets it: cmake --install into a fresh prefix, then the installed binaries
# run from another folder with no KS_* variables, so that they can only find the installed presets
# and resources; then the .deb (cpack -G DEB) with its Debian dependencies and files.
# usage: scripts/install-check.sh [build-dir]      (ctest: InstallToAPrefixAndRunFromThere)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
fail() { echo "install-check: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }
data=$prefix/share/kinetic-studio
for f in bin/kinetic-run share/kinetic-studio/presets/coagulation/teaching-demo.json \
         share/kinetic-studio/resources/radiation/nbck_h2o.json; do
  [[ -f "$prefix/$f" ]] || fail "$f is not installed"
done
gui=$(grep -c '^KS_GUI:BOOL=ON' "$build/CMakeCache.txt" || true)
if ((gui)); then
  for f in bin/kinetic-studio share/applications/kinetic-studio.desktop share/icons/hicolor/scalable/apps/kinetic-studio.svg; do
    [[ -f "$prefix/$f" ]] || fail "$f is not installed"
  done
  if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$prefix/share/applications/kinetic-studio.desktop"; fi
fi

cd "$work"
clean_env=(env -u KS_DATA_DIR -u KS_PRESET_DIR -u KS_RESOURCE_DIR)
# The installed binary names the installed data folder ...
"${clean_env[@]}" "$prefix/bin/kinetic-run" --version >version.txt
grep -qF "data: $data (install)" version.txt || { cat version.txt; fail "kinetic-run does not read $data"; }
# ... runs an installed preset from another folder ...
"${clean_env[@]}" "$prefix/bin/kinetic-run" "$data/presets/coagulation/teaching-demo.json" --steps 2 --out run-coag --quiet ||
  fail "the installed kinetic-run could not run the installed teaching demo"
[[ -s run-coag/summary.json ]] || fail "run-coag/summary.json was not written"
# ... reads the installed spectral tables (radiation's H2O case, on a small grid) ...
"${clean_env[@]}" "$prefix/bin/kinetic-run" "$data/presets/radiation/case05-h2o-slab-isothermal-0.1m.json" \
  --set nx=8 --set rays_per_cell=20 --set rays_per_batch=20 --steps 1 --out run-rmc --quiet ||
  fail "the installed kinetic-run could not run radiation case 5 (spectral tables)"
# ... and says where it looked when its data is gone.
set +e
KS_DATA_DIR="$work/absent" "$prefix/bin/kinetic-run" "$data/presets/radiation/case05-h2o-slab-isothermal-0.1m.json" \
  --steps 1 --out run-missing --quiet 2>missing.txt
rc=$?
set -e
[[ $rc -eq 2 ]] && grep -q "KS_DATA_DIR" missing.txt || { cat missing.txt; fail "a missing data folder gave exit $rc"; }
# The Python module, from the installed package with the installed data (its prefix found from its file).
python=$(sed -n 's/^Python_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
if grep -q '^KS_PYTHON:BOOL=ON' "$build/CMakeCache.txt"; then
  site=$(cd "$prefix" && ls -d lib/python3*/*-packages/kinetic_studio 2>/dev/null | head -1)
  [[ -n "$site" ]] || fail "the Python package is not installed under $prefix/lib/python3*"
  "${clean_env[@]}" PYTHONPATH="$prefix/$(dirname "$site")" "$python" -c "
import kinetic_studio as ks
assert ks._core.preset_dir() == '$data/presets', ks._core.preset_dir()
sim = ks.Simulation.from_preset('radiation/case05-h2o-slab-isothermal-0.1m', nx=8, rays_per_cell=20, rays_per_batch=20).step(1)
assert sim.field('Q_R').shape == (8, 8, 8)  # the slab case on a cube of cells
" || fail "the installed Python module could not run an installed preset"
  # --prefix ~/.local: into the user site, which python3 reads without PYTHONPATH.
  user=$work/userbase
  mkdir -p "$user"
  PYTHONUSERBASE=$user cmake --install "$build" --prefix "$user" >"$work/install-user.log" || { cat "$work/install-user.log"; fail "cmake --install into the user base failed"; }
  (cd "$work" && "${clean_env[@]}" -u PYTHONPATH PYTHONUSERBASE="$user" "$python" -c "
import kinetic_studio, site
assert kinetic_studio.__file__.startswith(site.getusersitepackages()), (kinetic_studio.__file__, site.getusersitepackages())
") || fail "installed with --prefix at the user base, the Python module is not in the user site ($(cd "$user" && ls -d lib/python3*/*-packages 2>/dev/null))"
  # pip install . into a venv (the README's way; this build folder is reused, so nothing is compiled
  # again): the package, its data and kinetic-run under the venv, found without PYTHONPATH; then
  # pip uninstall removes them all.
  "$python" -m venv --system-site-packages "$work/venv" || fail "python3 -m venv failed (Debian: apt-get install python3-venv)"
  "${clean_env[@]}" -u PYTHONPATH "$work/venv/bin/pip" install --no-index --config-settings "build-dir=$build" "$src" \
    >"$work/pip.log" 2>&1 || { cat "$work/pip.log"; fail "pip install $src failed"; }
  (cd "$work" && "${clean_env[@]}" -u PYTHONPATH "$work/venv/bin/python" -c "
import kinetic_studio as ks
assert ks.__file__.startswith('$work/venv/lib/'), ks.__file__
assert ks._core.preset_dir() == '$work/venv/share/kinetic-studio/presets', ks._core.preset_dir()
sim = ks.Simulation.from_preset('coagulation/teaching-demo').step(2)
assert sim.diagnostics['events'] > 0, sim.diagnostics  # particles coagulated
") || fail "the module pip installed could not run a preset from the venv's data"
  "$work/venv/bin/kinetic-run" --version | grep -qF "data: $work/venv/share/kinetic-studio (install)" ||
    fail "the kinetic-run pip installed does not read the venv's data"
  "$work/venv/bin/pip" uninstall -y kinetic-studio >"$work/pip-uninstall.log" 2>&1 || { cat "$work/pip-uninstall.log"; fail "pip uninstall failed"; }
  left=$(cd "$work/venv" && find . -path "*kinetic*" -type f | head -5)  # (pip leaves empty data folders)
  [[ -z "$left" ]] || fail "pip uninstall left: $left"
fi
if ((gui)); then
  QT_QPA_PLATFORM=offscreen "${clean_env[@]}" "$prefix/bin/kinetic-studio" --version | grep -q "kinetic-studio" ||
    fail "the installed kinetic-studio --version failed"
fi

# The .deb: its dependencies are Debian package names, its files the install's under /usr.
(cd "$build" && cpack -G DEB -B "$work/deb" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack -G DEB failed"; }
deb=$(ls "$work"/deb/*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
echo "install-check: $(basename "$deb"): Depends: $depends"
grep -q "libc6" <<<"$depends" || fail "the .deb names no library packages: '$depends'"
files=$(dpkg-deb -c "$deb")
for f in ./usr/bin/kinetic-run ./usr/share/kinetic-studio/presets/coagulation/teaching-demo.json; do
  grep -qF "$f" <<<"$files" || fail "$f is not in the .deb"
done
if grep -q '^KS_PYTHON:BOOL=ON' "$build/CMakeCache.txt"; then
  grep -qF ./usr/lib/python3/dist-packages/kinetic_studio/__init__.py <<<"$files" || fail "the Python module is not in the .deb's lib/python3/dist-packages"
  grep -q "python3-numpy" <<<"$depends" && grep -q "python3 (<<" <<<"$depends" ||
    fail "the .deb with the Python module does not depend on python3 (its ABI's version) and python3-numpy: '$depends'"
fi
if ((gui)); then
  grep -qF ./usr/share/applications/kinetic-studio.desktop <<<"$files" || fail "the .desktop file is not in the .deb"
  grep -q "libqt6widgets6" <<<"$depends" || fail "the .deb does not depend on Qt 6 Widgets: '$depends'"
fi
echo "install-check: installed, ran from $work with the installed data, packaged"
