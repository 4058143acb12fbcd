#!/usr/bin/env bash
# One command: install, build and launch Kinetic Studio on its default preset (the teaching demo).
# Extra arguments go to kinetic-studio (e.g. --preset FILE, --backend cpu).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --gui
scripts/build.sh
exec build/app/gui/kinetic-studio --preset presets/coagulation/teaching-demo.json "$@"
