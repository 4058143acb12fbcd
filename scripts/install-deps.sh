#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Kinetic Studio builds with (Debian 12, Ubuntu 24.04).
#   scripts/install-deps.sh          engine, CLI, Python module, tests and benchmarks
#   scripts/install-deps.sh --gui    also Qt 6, VTK 9, Dear ImGui, the DejaVu fonts and Xvfb for the desktop app
#   scripts/install-deps.sh --format also clang-format 14, which scripts/format-check.sh runs
set -euo pipefail
packages=(build-essential cmake pkg-config nlohmann-json3-dev zlib1g-dev libcli11-dev libgtest-dev libgmock-dev libopenmpi-dev openmpi-bin
          libhdf5-dev libhdf5-openmpi-dev
          pybind11-dev python3-dev python3-numpy python3-pip python3-venv python3-pytest python3-matplotlib python3-nbclient python3-nbformat python3-ipykernel)
for option in "$@"; do
  case $option in
    --gui) packages+=(qt6-base-dev libqt6opengl6-dev libvtk9-dev libimgui-dev fonts-dejavu-core xvfb xauth) ;;
    --format) packages+=(clang-format-14) ;;
    *) echo "install-deps: unknown option $option (allowed: --gui, --format)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all packages present"
  exit 0
fi
# As root directly; otherwise through sudo, with DEBIAN_FRONTEND passed on (sudo drops the environment).
as_root=(env DEBIAN_FRONTEND=noninteractive)
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null; then
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: this is not root and sudo is not installed: install them as root, then run this again" >&2
    exit 1
  fi
  as_root=(sudo env DEBIAN_FRONTEND=noninteractive)
fi
# Debian 12's python3-paraview (pvpython; `apt install paraview` recommends it) conflicts with
# python3-vtk9, which libvtk9-dev needs: apt would refuse with a bare "generated breaks".
if [[ " ${missing[*]} " == *" libvtk9-dev "* ]] && dpkg-query -W -f='${Status}' python3-paraview 2>/dev/null | grep -q "install ok installed"; then
  echo "install-deps: python3-paraview is installed, and it conflicts with python3-vtk9, which libvtk9-dev (the app's VTK) needs." >&2
  echo "install-deps: remove it and keep ParaView without it: apt-get remove python3-paraview && apt-get install --no-install-recommends paraview" >&2
  echo "install-deps: (ParaView then opens this project's files as before; only pvpython goes)" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
