#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Kinetic Studio builds with (Debian 12, Ubuntu 24.04).
#   scripts/install-deps.sh          engine, CLI, tests and benchmarks
#   scripts/install-deps.sh --gui    also Qt 6, VTK 9, Dear ImGui and Xvfb for the desktop app
set -euo pipefail
packages=(build-essential cmake nlohmann-json3-dev libgtest-dev libgmock-dev)
if [[ "${1:-}" == "--gui" ]]; then
  packages+=(qt6-base-dev libqt6opengl6-dev libvtk9-dev libimgui-dev xvfb xauth)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all packages present"
  exit 0
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
