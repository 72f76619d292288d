#!/usr/bin/env bash
# Builds everything (warnings are errors) and runs every test through ctest; then builds everything
# again with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/: the tests, and the
# programs they start, are instrumented) and runs every test there too (about 45 s); before that, the
# search and pondering tests under ThreadSanitizer (build-tsan/).
# YAVALATH_NO_SANITIZERS=1 skips the second build.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
ensure_deps gtest
ensure_codingame_gxx
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DYAVALATH_TESTS=ON -DYAVALATH_WERROR=ON >/dev/null
cmake --build build-test -j "$jobs"
(cd build-test && ctest --output-on-failure -j "$jobs" "$@")

[ "${YAVALATH_NO_SANITIZERS:-0}" = 1 ] && exit 0
echo "== the search and pondering tests under -fsanitize=thread (build-tsan/: tests_core and the bot only)"
# Pondering runs a second thread on the search (ponder.h); ThreadSanitizer reports any data race.
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DYAVALATH_TESTS=ON -DYAVALATH_WERROR=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -O1 -g1 -Wno-maybe-uninitialized" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-DNDEBUG" >/dev/null
cmake --build build-tsan --target tests_core -j "$jobs"
TSAN_OPTIONS=halt_on_error=1:abort_on_error=1 build-tsan/bin/tests_core \
  --gtest_filter='Ponder.*:Search.*:SearchForcing.*:SearchSignature.*:Bot.PondersWhileTheOpponentThinks:Bot.LaterTurns*'
echo "== the tests again under -fsanitize=address,undefined (build-asan/)"
# -O1: the sanitizers' usual level, several times faster than -O0. Every finding is fatal.
# -fno-sanitize=alignment,null: those two checks make the compile about a fifth slower; on x86 an
# unaligned access is no fault, and a null dereference still stops the test (ASan reports the SEGV).
# -Wno-maybe-uninitialized: with the sanitizers' instrumentation GCC 12 warns inside libstdc++'s
# std::regex (std::function members), a known false positive that -Werror would turn into an error.
flags="-fsanitize=address,undefined -fno-sanitize=alignment,null -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g1 -Wno-maybe-uninitialized"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DYAVALATH_TESTS=ON -DYAVALATH_WERROR=ON \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-DNDEBUG" >/dev/null
cmake --build build-asan -j "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j "$jobs" "$@")
