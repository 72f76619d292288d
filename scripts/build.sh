#!/usr/bin/env bash
# Main command: builds every program in Release into build/bin/ and writes the CodinGame
# submission dist/yavalath.cpp, checked the way CodinGame builds it (docs/submission.md).
# YAVALATH_BUILD_DIR picks another build directory (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
ensure_deps
jobs=$(nproc 2>/dev/null || echo 2)
build=${YAVALATH_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DYAVALATH_TESTS=OFF ${YAVALATH_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$jobs"
echo "== built: $(ls "$build"/bin | tr '\n' ' ')"

# The submission: one file, then its size, plain-g++ C++17/C++20 compiles and a self-play game.
python3 scripts/amalgamate.py --output dist/yavalath.cpp
python3 scripts/check_submission.py dist/yavalath.cpp --work "$build"/submission --arena "$build"/bin/arena
echo "== submission: dist/yavalath.cpp (paste it into the CodinGame IDE; see docs/submission.md)"
