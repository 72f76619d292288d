#!/usr/bin/env bash
# Builds everything with warnings as errors and runs every test once through ctest, under
# AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/), and the tests that run two threads
# on one search (pondering: the search and bot tests) under ThreadSanitizer (build-tsan/).
#   --release  also builds the tests optimised (build-test/) and runs them there first
#              (then `cd build-test && ctest -L quick` is the edit-test loop).
# Other arguments go to ctest. YAVALATH_NO_SANITIZERS=1 skips the two sanitizer builds.
# The tests that hold a time to a bound (label `clock`, CMakeLists.txt) are RUN_SERIAL: each ctest
# run below starts them with no other test beside them, whatever its -j.
#
# The big tools the tests start (bookgen, bookpack, tactics, arena, bench, viewer, search_match, board)
# are built once, optimised, in build-test/, and the sanitizer build links them
# (YAVALATH_PREBUILT_TOOLS): the code they share with the tests is instrumented in the test
# programs, and instrumenting the tools too took as long as running every test. The bot, the proof
# checker and the test programs are instrumented.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
ensure_deps gtest
ensure_codingame_gxx
# GNU parallel and rsync, for the test of scripts/prove_shards.sh (it skips without them).
ensure_shard_deps || echo "note: GNU parallel or rsync is missing; the test of prove_shards.sh skips" >&2
release=0
if [ "${1:-}" = --release ]; then release=1; shift; fi
sanitizers=1
[ "${YAVALATH_NO_SANITIZERS:-0}" = 1 ] && sanitizers=0
jobs=$(nproc 2>/dev/null || echo 2)
tools="bookgen;bookpack;tactics;arena;bench;viewer;search_match;board"

if [ "$release" = 1 ] || [ "$sanitizers" = 0 ]; then
  echo "== [${SECONDS} s] every test, optimised (build-test/)"
  cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DYAVALATH_TESTS=ON -DYAVALATH_WERROR=ON >/dev/null
  cmake --build build-test -j "$jobs"
  (cd build-test && ctest --output-on-failure -j "$jobs" "$@")
  [ "$sanitizers" = 0 ] && exit 0
fi

# The optimised tools and the ThreadSanitizer build compile side by side: together they keep
# every core busy, where one at a time each ends on a single long compile.
echo "== [${SECONDS} s] building the tools, optimised (build-test/), and the thread tests under -fsanitize=thread (build-tsan/)"
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DYAVALATH_TESTS="$release" -DYAVALATH_WERROR=ON >/dev/null
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DYAVALATH_TESTS=ON -DYAVALATH_WERROR=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -O1 -g1 -Wno-maybe-uninitialized" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-DNDEBUG" >/dev/null
cmake --build build-test -j "$jobs" --target tools > build-test/tools-build.log 2>&1 &
tools_build=$!
cmake --build build-tsan -j "$jobs" --target tests_threads > build-tsan/build.log 2>&1 &
tsan_build=$!
wait $tools_build || { cat build-test/tools-build.log; echo "error: the tools did not build" >&2; exit 1; }
wait $tsan_build || { cat build-tsan/build.log; echo "error: the ThreadSanitizer build failed" >&2; exit 1; }

echo "== [${SECONDS} s] building every test under -fsanitize=address,undefined (build-asan/)"
# -O1: the sanitizers' usual level, several times faster than -O0. Every finding is fatal.
# -fno-sanitize=alignment,null: those two checks make the compile about a fifth slower; on x86 an
# unaligned access is no fault, and a null dereference still stops the test (ASan reports the SEGV).
# -Wno-maybe-uninitialized: with the sanitizers' instrumentation GCC 12 warns inside libstdc++'s
# std::regex (std::function members), a known false positive that -Werror would turn into an error.
flags="-fsanitize=address,undefined -fno-sanitize=alignment,null -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g1 -Wno-maybe-uninitialized"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DYAVALATH_TESTS=ON -DYAVALATH_WERROR=ON \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-DNDEBUG" -DYAVALATH_PREBUILT_TOOLS="$tools" \
  -DYAVALATH_PREBUILT_DIR="$PWD/build-test/bin" >/dev/null
cmake --build build-asan -j "$jobs"

echo "== [${SECONDS} s] the tests that run two threads on one search, under -fsanitize=thread"
# ThreadSanitizer finds races between threads: the single-threaded search tests gain nothing here.
TSAN_OPTIONS=halt_on_error=1:abort_on_error=1 build-tsan/bin/tests_threads \
  --gtest_filter='Ponder.*:Bot.PondersWhileTheOpponentThinks:Bot.LaterTurns*'

echo "== [${SECONDS} s] every test under -fsanitize=address,undefined"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j "$jobs" "$@")
echo "== [${SECONDS} s] every test passed"
