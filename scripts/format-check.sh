#!/usr/bin/env bash
# The C++ and CUDA sources in the house style (.clang-format, applied by clang-format 14: another
# version formats some lines differently). Lists the files that differ and the command that mends them.
#   scripts/format-check.sh          every tracked source file (what CI runs)
#   scripts/format-check.sh BASE     the files changed since commit BASE and new ones (before a commit: HEAD)
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format-14 || true)
if [[ -z $fmt ]]; then
  echo "format-check: clang-format-14 is not installed: scripts/install-deps.sh --format" >&2
  exit 2
fi
patterns=('*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h')
if (($#)); then
  mapfile -t files < <(git diff --name-only --diff-filter=d "$1" -- "${patterns[@]}"; git ls-files --others --exclude-standard -- "${patterns[@]}")
else
  mapfile -t files < <(git ls-files -- "${patterns[@]}")
fi
bad=()
for f in "${files[@]}"; do
  "$fmt" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
  echo "format-check: ${#bad[@]} of ${#files[@]} files are not in the house style (.clang-format):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "format-check: mend them with: clang-format-14 -i ${bad[*]}" >&2
  exit 1
fi
echo "format-check: ${#files[@]} files in the house style"
