#!/usr/bin/env bash
# Checks formatting of the project's own C++ with clang-format (--fix rewrites the files), and with
# --tidy also runs clang-tidy over src/ using build/compile_commands.json.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' | grep -v '^tests/fuzz/corpus')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
clang-format --dry-run -Werror "${files[@]}"
echo "lint: clang-format clean (${#files[@]} files)"
if [ "${1:-}" = "--tidy" ]; then
  [ -f build/compile_commands.json ] || scripts/build.sh
  mapfile -t srcs < <(git ls-files 'src/*.cpp')
  clang-tidy -p build --quiet "${srcs[@]}"
fi
