#!/usr/bin/env bash
# The answer-time benchmark: the bot against itself at CodinGame's time control (1000 ms for a
# bot's first turn, 100 ms later) with no grace (an answer after the limit loses on time), from
# random 0-40-ply openings. Reports faults (illegal moves, timeouts, bad output, crashes) and the
# distribution of answer times as the referee saw them, first and later turns apart: p50, p99,
# p99.9, max (scripts/soak_report.py). No test asserts these times: they depend on the machine.
#   scripts/soak.sh [--games N] [--jobs N] [--busy] [--out DIR] [--seed S] [--bot COMMAND] [--keep-stderr]
# --bot      the bot (default build/submission/yavalath-cxx17: the submission built as CodinGame
#            builds it, plain g++ and no -O flag; ./scripts/build.sh makes it)
# --jobs N   games at once (default 1: each bot has a core to ponder on, as on CodinGame)
# --busy     one spinning process per core beside the games, as on a shared judge machine
# --keep-stderr keeps each bot's stderr (its line per turn) in DIR/stderr/game-<n>-<bot>.log.
# Exit status 0 when no fault was found, 1 otherwise, 2 on a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."
games=200 jobs=1 busy=0 out=soak seed=1 bot=build/submission/yavalath-cxx17 keep_stderr=0
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --busy) busy=1; shift ;;
    --out) out=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --bot) bot=$2; shift 2 ;;
    --keep-stderr) keep_stderr=1; shift ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
      echo "defaults: --games 200 --jobs 1 --out soak --seed 1 --bot build/submission/yavalath-cxx17"; exit 0 ;;
    *) echo "soak.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
# The arena, and the default bot, come from the main build (a --bot of its own is the caller's).
default_bot=build/submission/yavalath-cxx17
if [ ! -x build/bin/arena ] || { [ "$bot" = "$default_bot" ] && [ ! -x "$default_bot" ]; }; then ./scripts/build.sh; fi
mkdir -p "$out"
rm -f "$out/games.jsonl"
stderr_args=()
if [ "$keep_stderr" -eq 1 ]; then mkdir -p "$out/stderr"; stderr_args=(--stderr-dir "$out/stderr"); fi
burners=()
stop_burners() { [ ${#burners[@]} -eq 0 ] || kill "${burners[@]}" 2>/dev/null || true; }
trap stop_burners EXIT
if [ "$busy" -eq 1 ]; then
  for ((i = 0; i < $(nproc); ++i)); do
    bash -c 'while :; do :; done' &
    burners+=($!)
  done
fi
load=$([ "$busy" -eq 1 ] && echo "busy: $(nproc) spinning processes beside" || echo "idle")
echo "soak: $games games of $bot, $jobs at once on $(nproc) cores, $load; record $out/games.jsonl"
status=0
build/bin/arena --games "$games" --jobs "$jobs" --first-time-ms 1000 --time-ms 100 --grace 1 \
  --random-openings 0-40 --seed "$seed" --record "$out/games.jsonl" --json "$out/summary.json" \
  "${stderr_args[@]}" "$bot" "$bot" >"$out/report.txt" || status=$?
stop_burners
cat "$out/report.txt"
[ "$status" -eq 0 ] || { echo "soak: the arena stopped with status $status" >&2; exit 1; }
python3 scripts/soak_report.py "$out/games.jsonl" --expect-games "$games"
