#!/usr/bin/env bash
# The flake finder: runs the test suite N times and names every test that ever failed, with how
# often and the text of its first failure (docs/testing.md). Use it before adding a test that
# starts processes or threads or waits for anything: a test that fails by chance fails CI at random.
#   scripts/flaky.sh N [--build DIR] [--out DIR] [-- CTEST ARGS...]
# --build DIR  the CMake build whose tests run (default build-test, the optimised build of
#              `scripts/test.sh --release`, configured and built here when missing; build-asan is
#              the sanitizer build CI runs)
# --out DIR    where each round's JUnit file goes (default flaky/)
# CTEST ARGS   passed to every round, e.g. `-- -L quick` or `-- -R Arena` (default: every test)
# Each round is one `ctest -j <cores>` over the suite, as CI runs it. Exit status 0 when no test
# failed in any round, 1 otherwise, 2 on a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
rounds=$1; shift
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "flaky.sh: N must be a positive number, not '$rounds'" >&2; exit 2; }
build=build-test out=flaky
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "flaky.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ ! -f "$build/CTestTestfile.cmake" ]; then
  [ "$build" = build-test ] || { echo "flaky.sh: $build holds no tests (build it first)" >&2; exit 2; }
  . scripts/deps.sh
  ensure_deps gtest
  cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DYAVALATH_TESTS=ON -DYAVALATH_WERROR=ON >/dev/null
  cmake --build build-test -j "$(nproc)"
fi
build=$(cd "$build" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/round-*.xml
jobs=$(nproc 2>/dev/null || echo 2)
echo "flaky: $rounds rounds of ctest -j $jobs in $build${*:+ ($*)}"
start=$SECONDS
for ((round = 1; round <= rounds; ++round)); do
  # A failing round is what this looks for: its status is read from the JUnit file, not here.
  (cd "$build" && ctest -j "$jobs" --output-junit "$out/round-$round.xml" "$@" >/dev/null 2>&1) || true
  [ -f "$out/round-$round.xml" ] || { echo "flaky: round $round wrote no $out/round-$round.xml" >&2; exit 1; }
  elapsed=$((SECONDS - start))
  failed=$(python3 scripts/flaky_report.py --count "$out/round-$round.xml")
  echo "flaky: round $round/$rounds: $failed failed; $elapsed s, ETA $((elapsed * (rounds - round) / round)) s"
done
python3 scripts/flaky_report.py "$out"/round-*.xml
