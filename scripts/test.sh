#!/usr/bin/env bash
# One command: install what the tests need, build, run every test. GPU tests skip, saying so, without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --gui
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
