#!/usr/bin/env bash
# Packs the CUDA+GUI kinetic-studio for a GPU machine without Qt, VTK or an X server
# (Ubuntu 24.04 with the NVIDIA driver) into .guibundle/ksgui.tar.xz; scripts/device-gui-check.sh
# runs it there. Holds the app and kinetic-run (for bench/app_vs_cli.sh), Xvfb, xkbcomp and glxinfo, every shared library they load from
# this Debian machine (found with ldd), Qt's xcb platform plugin with its GLX integration, Mesa's
# DRI driver (Xvfb needs it to offer GLX at all; the app renders with NVIDIA's GLX, or with Mesa's
# client GLX, also bundled, where NVIDIA's finds no framebuffer configuration), the xkb data and one font. Left out, the target's own: glibc, libstdc++/libgcc_s (newer there),
# libcuda and the glvnd GL libraries (unpacked from .gl there).
# Mesa's libLLVM (and its z3) would double the size: a stub with the same symbols, each doing
# nothing, stands in for it, so Mesa runs only without LLVM (GALLIUM_DRIVER=softpipe
# DRAW_USE_LLVM=0, as device-gui-check.sh starts Xvfb).
# Needs Debian's xvfb, x11-xkb-utils, xkb-data, libgl1-mesa-dri and fonts-dejavu-core installed,
# and apt-get download (for mesa-utils-bin).
# KS_XZ_LEVEL (9) trades the bundle's size for packing time: 6 packs in a third of the time, 3 MiB larger.
# usage: scripts/make-gui-bundle.sh [BUILD_DIR]   (default build-cg: -DKS_CUDA=ON -DKS_GUI=ON)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-cg}
app=$build/app/gui/kinetic-studio
cli=$build/app/cli/kinetic-run
qt_plugins=/usr/lib/x86_64-linux-gnu/qt6/plugins
dri=/usr/lib/x86_64-linux-gnu/dri
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
fail() { echo "make-gui-bundle: $*" >&2; exit 1; }

[[ -x $app && -x $cli ]] || fail "$app or $cli is missing: configure $build with -DKS_CUDA=ON -DKS_GUI=ON and make kinetic-studio kinetic-run"
mesa_glx=/usr/lib/x86_64-linux-gnu/libGLX_mesa.so.0
for f in "$mesa_glx" /usr/bin/Xvfb /usr/bin/xkbcomp /usr/share/X11/xkb/rules/evdev "$dri/swrast_dri.so" "$font" \
         "$qt_plugins/platforms/libqxcb.so" "$qt_plugins/xcbglintegrations/libqxcb-glx-integration.so"; do
  [[ -e $f ]] || fail "$f is missing: apt-get install xvfb x11-xkb-utils xkb-data libgl1-mesa-dri fonts-dejavu-core qt6-base-dev"
done

# Libraries the target machine has (or must be its own): never bundled.
keep_out='^(linux-vdso|ld-linux-x86-64|libc|libm|libdl|libpthread|librt|libresolv|libutil|libstdc\+\+|libgcc_s|libcuda|libGL|libGLX|libGLdispatch|libEGL|libOpenGL|libGLESv2)\.so'

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/ksgui
mkdir -p "$root"/{bin,lib/dri,plugins/platforms,plugins/xcbglintegrations,share,fonts} "$stage/llvm"
cp "$app" "$cli" /usr/bin/Xvfb /usr/bin/xkbcomp "$root/bin/"
cp "$qt_plugins/platforms/libqxcb.so" "$root/plugins/platforms/"
cp "$qt_plugins/xcbglintegrations/libqxcb-glx-integration.so" "$root/plugins/xcbglintegrations/"
cp "$dri/swrast_dri.so" "$root/lib/dri/"
cp -L "$mesa_glx" "$root/lib/"  # glvnd opens it by name for __GLX_VENDOR_LIBRARY_NAME=mesa
cp -r /usr/share/X11/xkb "$root/share/xkb"
cp "$font" "$root/fonts/"
# glxinfo (Debian's mesa-utils-bin, downloaded): which GL the device's GLX gives, before the app runs.
(cd "$stage" && apt-get download mesa-utils-bin >/dev/null 2>&1) || fail "apt-get download mesa-utils-bin (glxinfo) failed"
dpkg -x "$stage"/mesa-utils-bin_*.deb "$stage/mesa-utils"
cp "$stage/mesa-utils/usr/bin/glxinfo.x86_64-linux-gnu" "$root/bin/glxinfo"

# The LLVM stub: every LLVM symbol the DRI driver names, all one function that returns 0.
llvm=$(objdump -p "$dri/swrast_dri.so" | awk '$1 == "NEEDED" && $2 ~ /^libLLVM/ { print $2 }')
llvm_version=$(objdump -T "$dri/swrast_dri.so" | grep -o "LLVM_[0-9]*" | sort -u)
[[ -n $llvm && $(wc -w <<<"$llvm_version") == 1 ]] || fail "cannot tell which libLLVM $dri/swrast_dri.so needs"
{
  echo 'long ks_llvm_stub(void) { return 0; }'
  nm -D --undefined-only "$dri/swrast_dri.so" | awk -v v="@$llvm_version" '$2 ~ v "$" {
    sub(v, "", $2); printf "long s%d(void) __asm__(\"%s\") __attribute__((alias(\"ks_llvm_stub\")));\n", NR, $2 }'
} >"$stage/llvm/stub.c"
echo "$llvm_version { global: *; };" >"$stage/llvm/stub.map"
gcc -shared -fPIC -O2 -Wl,-soname,"$llvm" -Wl,--version-script,"$stage/llvm/stub.map" \
    -o "$stage/llvm/$llvm" "$stage/llvm/stub.c"

# Every library the binaries, plugins and the DRI driver load (ldd gives the whole closure;
# the DRI driver's goes through the stub).
for f in "$root"/bin/* "$root"/plugins/*/*.so "$root"/lib/dri/*.so "$root"/lib/libGLX_mesa.so.0; do
  path=
  [[ $f == */dri/* ]] && path=$stage/llvm
  deps=$(LD_LIBRARY_PATH=$path ldd "$f")
  if grep -q "not found" <<<"$deps"; then fail "$f needs libraries this machine lacks: $(grep 'not found' <<<"$deps")"; fi
  awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' <<<"$deps"
done | sort -u | while read -r name path; do
  [[ $name =~ $keep_out ]] || cp -L "$path" "$root/lib/$name"
done

mkdir -p .guibundle
rm -f .guibundle/ksgui.tar.xz
tar -C "$stage" -cf - ksgui | nice -n 15 xz -T2 -${KS_XZ_LEVEL:-9} >.guibundle/ksgui.tar.xz
echo "make-gui-bundle: .guibundle/ksgui.tar.xz $(du -m .guibundle/ksgui.tar.xz | cut -f1) MiB" \
     "($(find "$root/lib" -maxdepth 1 -type f | wc -l) libraries, $(du -sm "$root" | cut -f1) MiB unpacked)"
