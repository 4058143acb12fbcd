#!/usr/bin/env bash
# One command: install, build and run Kinetic Studio on its default preset.
# The desktop app is not built yet: this runs the default preset headless with
# kinetic-run and says where the output went. Extra arguments go to kinetic-run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
preset=presets/coagulation/teaching-demo.json
out=out/teaching-demo
build/app/cli/kinetic-run "$preset" --out "$out" "$@"
echo "Done. Series and fields (CSV) and summary.json are in $out/; open the CSVs in any plotting tool."
