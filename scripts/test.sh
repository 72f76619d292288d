#!/usr/bin/env bash
# Builds everything (warnings are errors) and runs every test through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
ensure_deps gtest
ensure_codingame_gxx
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DYAVALATH_TESTS=ON -DYAVALATH_WERROR=ON >/dev/null
cmake --build build-test -j "$jobs"
cd build-test && ctest --output-on-failure -j "$jobs" "$@"
