#!/usr/bin/env bash
# Main command: builds every program in Release into build/bin/ and writes the CodinGame
# submission dist/yavalath.cpp.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
ensure_deps
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DYAVALATH_TESTS=OFF ${YAVALATH_CMAKE_ARGS:-} >/dev/null
cmake --build build -j "$jobs"
echo "== built: $(ls build/bin | tr '\n' ' ')"
