#!/usr/bin/env bash
# On a GPU machine without Qt, VTK or an X server (Ubuntu 24.04, NVIDIA driver, CUDA): runs the
# CUDA+GUI kinetic-studio of the bundle made by scripts/make-gui-bundle.sh under the bundle's
# Xvfb, the app's OpenGL on NVIDIA's GLX driver, and checks the zero-copy field view: the
# coagulation teaching demo with the CUDA backend must draw its particles with 0 host uploads.
# A 3D field (radiation teaching cube, Q_R) runs too; its image count is reported,
# not checked. Screenshots and logs go to ${OUT:-out/device-gui}.
# Each failure names its step. The glvnd GL libraries must be installed first (device notes:
# unpack .gl/*.deb into /). Xvfb runs /usr/bin/xkbcomp and loads Mesa's swrast_dri.so from
# /usr/lib/x86_64-linux-gnu/dri: both linked to the bundle's when missing.
# Settings (environment): KS_BACKEND (cuda), KS_GLX_VENDOR (nvidia; mesa where NVIDIA's GLX finds
# no framebuffer configuration on Xvfb, as on the H100 machine in 2026-11: the app's GL is then
# Mesa's softpipe, the bundle's LLVM being a stub, its views upload host snapshots, and the zero-copy
# check is left out), KS_DISPLAY (99), KS_APP_VS_CLI ("paper", "teaching" or both: then bench/app_vs_cli.sh runs
# those cases with the bundle's app and kinetic-run on this Xvfb, its table in app_vs_cli.txt).
# usage: scripts/device-gui-check.sh [BUNDLE.tar.xz]   (default .guibundle/ksgui.tar.xz)
# Status: passes on the H200 machine (2026-11-30) with NVIDIA's GLX; see docs/DEVELOPING.md.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
PATH=$PATH:/sbin:/usr/sbin  # ldconfig
repo=$PWD
bundle=${1:-.guibundle/ksgui.tar.xz}
out=${OUT:-out/device-gui}
backend=${KS_BACKEND:-cuda}
vendor=${KS_GLX_VENDOR:-nvidia}
display=:${KS_DISPLAY:-99}
B=/tmp/ksgui  # the bundle's top folder is ksgui/

fail() { echo "device-gui-check: FAILED at $1: $2" >&2; exit 1; }
mkdir -p "$out" || fail "setup" "cannot create $out"
out=$(cd "$out" && pwd)

# 1. The bundle, unpacked where every path below expects it.
[[ -f $bundle ]] || fail "unpack" "$bundle is missing (make it with scripts/make-gui-bundle.sh, carry .guibundle)"
rm -rf "$B"
if command -v xz >/dev/null; then
  tar -C /tmp -xJf "$bundle"
else  # tar needs the xz program; Python's tarfile has its own
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall("/tmp", filter="tar")' "$bundle"
fi || fail "unpack" "extracting $bundle into /tmp failed"

export LD_LIBRARY_PATH=$B/lib QT_PLUGIN_PATH=$B/plugins QT_QPA_PLATFORM=xcb
export FONTCONFIG_FILE=$B/fonts.conf XDG_RUNTIME_DIR=$B/runtime XDG_CONFIG_HOME=$B/config
export KS_PRESET_DIR=$repo/presets KS_RESOURCE_DIR=$repo/resources
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" && chmod 700 "$XDG_RUNTIME_DIR"
printf '<?xml version="1.0"?>\n<fontconfig><dir>%s/fonts</dir><cachedir>%s/fontcache</cachedir></fontconfig>\n' \
  "$B" "$B" >"$FONTCONFIG_FILE"

# 2. Every library resolves: inside the bundle, or the machine's glibc, libstdc++ and GL.
for f in "$B"/bin/* "$B"/plugins/*/*.so "$B"/lib/dri/*.so; do
  missing=$(ldd "$f" 2>&1 | awk '/not found/ { printf "%s ", $1 }')
  [[ -z $missing ]] || fail "libraries" "$f needs ${missing}(GL libraries: unpack .gl/*.deb into / first)"
done
echo "device-gui-check: from the machine: $(ldd "$B/bin/kinetic-studio" | awk -v b="$B" '$3 ~ /^\// && index($3, b) != 1 { print $1 }' | sort | tr '\n' ' ')"
if [[ $vendor == nvidia ]]; then
  [[ $(ldconfig -p) == *libGLX_nvidia.so.0* ]] || fail "libraries" "libGLX_nvidia.so.0 (NVIDIA's GLX driver) is not installed"
else
  export GALLIUM_DRIVER=softpipe DRAW_USE_LLVM=0 LIBGL_DRIVERS_PATH=$B/lib/dri  # the bundle's libLLVM is a stub
fi

# 3. Xvfb with GLX (Mesa's DRI driver without LLVM), its keymaps from the bundle, built-in fonts.
if [[ ! -x /usr/bin/xkbcomp ]]; then
  ln -s "$B/bin/xkbcomp" /usr/bin/xkbcomp || fail "xvfb" "Xvfb runs /usr/bin/xkbcomp, which is missing and cannot be linked"
  echo "device-gui-check: linked /usr/bin/xkbcomp to the bundle's"
fi
# Xvfb's GLX loads Mesa's driver from its compiled-in path only (LIBGL_DRIVERS_PATH is ignored).
dri=/usr/lib/x86_64-linux-gnu/dri
if [[ ! -e $dri/swrast_dri.so ]]; then
  mkdir -p "$dri" && ln -s "$B/lib/dri/swrast_dri.so" "$dri/swrast_dri.so" ||
    fail "xvfb" "Xvfb loads $dri/swrast_dri.so, which is missing and cannot be linked"
  echo "device-gui-check: linked $dri/swrast_dri.so to the bundle's"
fi
socket=/tmp/.X11-unix/X${display#:}
[[ ! -e $socket ]] || fail "xvfb" "display $display is taken ($socket exists; KS_DISPLAY picks another)"
LIBGL_DRIVERS_PATH=$B/lib/dri GALLIUM_DRIVER=softpipe DRAW_USE_LLVM=0 \
  "$B/bin/Xvfb" "$display" -screen 0 1600x1000x24 +extension GLX -nolisten tcp -fp built-ins -xkbdir "$B/share/xkb" \
  >"$out/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; wait $xvfb 2>/dev/null' EXIT
for _ in $(seq 50); do
  [[ -S $socket ]] && break
  kill -0 $xvfb 2>/dev/null || fail "xvfb" "Xvfb exited: $(tail -5 "$out/xvfb.log")"
  sleep 0.2
done
[[ -S $socket ]] || fail "xvfb" "no X socket for $display after 10 s: $(tail -5 "$out/xvfb.log")"
export DISPLAY=$display __GLX_VENDOR_LIBRARY_NAME=$vendor

# 4. What GLX gives there (Xvfb's GLX extension, the vendor's driver).
"$B/bin/glxinfo" -B >"$out/glxinfo.txt" 2>&1 || fail "glx" "glxinfo -B failed: $(tail -5 "$out/glxinfo.txt")"
echo "device-gui-check: GLX: $(grep -E "direct rendering|OpenGL renderer" "$out/glxinfo.txt" | tr -s ' ' | tr '\n' ';')"

# 5. The app, scripted: N iterations, a field-view screenshot, the field view's summary line.
summary=
run_app() {  # name, preset, steps
  local log=$out/$1.log
  timeout 240 "$B/bin/kinetic-studio" --preset "$repo/presets/$2" --backend "$backend" --steps "$3" \
    --view field --screenshot "$out/$1.png" --exit >"$log" 2>&1
  local rc=$?
  summary=$(grep "^kinetic-studio: field view:" "$log")
  echo "device-gui-check: $1 ($2): exit $rc; ${summary#kinetic-studio: }"
  ((rc == 0)) || fail "$1" "kinetic-studio exited with $rc: $(tail -5 "$log")"
  [[ -s $out/$1.png ]] || fail "$1" "no screenshot $out/$1.png"
  [[ -n $summary ]] || fail "$1" "no 'field view:' line in $log"
  [[ $summary == *"backend=$backend "* ]] || fail "$1" "ran on another backend than $backend (no usable CUDA device?)"
  [[ $vendor != nvidia || $summary == *'renderer="NVIDIA'* ]] || fail "$1" "OpenGL does not run on the NVIDIA GPU"
}
value() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$summary"; }

run_app gui-"$backend" coagulation/teaching-demo.json 20
if [[ $backend == cuda && $vendor == nvidia ]]; then
  [[ $(value host_uploads) == 0 ]] ||
    fail "zero-copy" "$(value host_uploads) host uploads with the CUDA backend (must be 0) $(grep -m1 'zero-copy view' "$out/gui-cuda.log")"
  (($(value device_copies) > 0)) || fail "zero-copy" "no device-to-device copy into the view's buffer"
fi
run_app gui-"$backend"-3d radiation/teaching-hot-cube.json 20
for cases in ${KS_APP_VS_CLI:-}; do
  bench/app_vs_cli.sh --backend "$backend" --build "$B" --display "$display" --cases "$cases" \
    2>&1 | tee -a "$out/app_vs_cli.txt" || fail "app_vs_cli" "bench/app_vs_cli.sh failed: $(tail -5 "$out/app_vs_cli.txt")"
done
echo "device-gui-check: passed; screenshots and logs in $out"
