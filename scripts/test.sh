#!/usr/bin/env bash
# Builds everything with warnings as errors and runs every test once through ctest, under
# AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/), and the tests that run two threads
# on one search (pondering: the search and bot tests) under ThreadSanitizer (build-tsan/).
#   --release  also builds the tests optimised (build-test/) and runs them there first
#              (then `cd build-test && ctest -L quick` is the edit-test loop).
# Other arguments go to ctest. YAVALATH_NO_SANITIZERS=1 skips the two sanitizer builds.
# No test holds a time measured on this machine to a bound: the time control is tested on a fake
# clock, and answer times are measured by scripts/soak.sh (docs/testing.md). scripts/flaky.sh N
# runs the suite N times and names every test that ever failed.
#
# It first checks the C++ sources' format (scripts/format.sh --check, clang-format).
#
# The tools the tests start (bookgen, bookpack, tactics, arena, bench, viewer, search_match, board,
# proof_bench, ...) are built once, at -O1, in build-tools/, and the sanitizer build links them
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
echo "== [${SECONDS} s] the C++ sources' format (scripts/format.sh --check)"
./scripts/format.sh --check
release=0
if [ "${1:-}" = --release ]; then release=1; shift; fi
sanitizers=1
[ "${YAVALATH_NO_SANITIZERS:-0}" = 1 ] && sanitizers=0
jobs=$(nproc 2>/dev/null || echo 2)
# Every tool but the independent proof checker comes from build-tools/ (see the header).
tools="bookgen;bookpack;tactics;arena;bench;viewer;search_match;board;train;proof_bench;sprt_sim;two_ply_openings"

if [ "$release" = 1 ] || [ "$sanitizers" = 0 ]; then
  echo "== [${SECONDS} s] every test, optimised (build-test/)"
  cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DYAVALATH_TESTS=ON -DYAVALATH_WERROR=ON >/dev/null
  cmake --build build-test -j "$jobs"
  (cd build-test && ctest --output-on-failure -j "$jobs" "$@")
  [ "$sanitizers" = 0 ] && exit 0
fi

# Three builds share the cores: the tools at -O1 (build-tools/) and the thread tests under TSan
# (build-tsan/) side by side, then every test under ASan/UBSan (build-asan/), which links the
# tools, while the TSan build ends. One after another, each ended on one long compile with a core
# idle; all three at once (6 compiles on 2 cores) took longer: 291 s in all against 271-280 s.
echo "== [${SECONDS} s] building the tools at -O1 (build-tools/), and the thread tests under -fsanitize=thread (build-tsan/)"
# -O1: the tests start the tools on small inputs, where -O3's extra speed is worth less than the
# 35% of their compile time it costs (docs/testing.md, Figures).
cmake -S . -B build-tools -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DYAVALATH_TESTS=OFF \
  -DYAVALATH_WERROR=ON >/dev/null
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DYAVALATH_TESTS=ON -DYAVALATH_WERROR=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -O1 -g1 -Wno-maybe-uninitialized" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-DNDEBUG" >/dev/null
cmake --build build-tools -j "$jobs" --target tools > build-tools/build.log 2>&1 &
tools_build=$!
cmake --build build-tsan -j "$jobs" --target tests_threads > build-tsan/build.log 2>&1 &
tsan_build=$!
wait $tools_build || { cat build-tools/build.log; echo "error: the tools did not build" >&2; exit 1; }

echo "== [${SECONDS} s] building every test under -fsanitize=address,undefined (build-asan/)"
# -O1: the sanitizers' usual level, several times faster than -O0. Every finding is fatal.
# -fno-sanitize=alignment,null: those two checks make the compile about a fifth slower; on x86 an
# unaligned access is no fault, and a null dereference still stops the test (ASan reports the SEGV).
# -fno-sanitize=vptr: UBSan's check of dynamic types costs 13% of the compile; the code has almost
# no virtual functions, and ASan still catches a use of a freed or overrun object.
# -fno-sanitize-address-use-after-scope: that check (a stack variable used after its block ends)
# cost about 40% of each compile; -Wall's dangling-pointer warnings cover its commonest case.
# -Wno-maybe-uninitialized: with the sanitizers' instrumentation GCC 12 warns inside libstdc++'s
# std::regex (std::function members), a known false positive that -Werror would turn into an error.
flags="-fsanitize=address,undefined -fno-sanitize=alignment,null,vptr -fno-sanitize-address-use-after-scope -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g1 -Wno-maybe-uninitialized"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DYAVALATH_TESTS=ON -DYAVALATH_WERROR=ON \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-DNDEBUG" -DYAVALATH_PREBUILT_TOOLS="$tools" \
  -DYAVALATH_PREBUILT_DIR="$PWD/build-tools/bin" -DYAVALATH_TEST_SHARDS=6 >/dev/null
cmake --build build-asan -j "$jobs"
wait $tsan_build || { cat build-tsan/build.log; echo "error: the ThreadSanitizer build failed" >&2; exit 1; }

echo "== [${SECONDS} s] the tests that run two threads on one search, under -fsanitize=thread"
# ThreadSanitizer finds races between threads: the single-threaded search tests gain nothing here.
TSAN_OPTIONS=halt_on_error=1:abort_on_error=1 build-tsan/bin/tests_threads \
  --gtest_filter='Ponder.*:Bot.PondersWhileTheOpponentThinks:Bot.DefaultClockAnswersEveryTurn'

echo "== [${SECONDS} s] every test under -fsanitize=address,undefined"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j "$jobs" "$@")
echo "== [${SECONDS} s] every test passed"
