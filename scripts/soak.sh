#!/usr/bin/env bash
# Soak test under load: the Release bot against itself at CodinGame's time control (1000 ms for a
# bot's first turn, 100 ms later) with no grace (an answer after 100 ms loses on time), random
# 0-40-ply openings, several games at once (default 3 on a 2-core machine: the bots compete for
# the cores as on a busy server). Reports illegal moves, timeouts, bad output, crashes and the p99
# and maximum answer time of later turns (scripts/soak_report.py). About an hour for 2000 games.
#   scripts/soak.sh [--games N] [--jobs N] [--out DIR] [--seed S] [--bot COMMAND] [--keep-stderr]
# --keep-stderr keeps each bot's stderr (its line per turn) in DIR/stderr/game-<n>-<bot>.log.
# Exit status 0 when no fault was found, 1 otherwise, 2 on a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."
games=2000 jobs=3 out=soak seed=1 bot=build/bin/bot keep_stderr=0
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --bot) bot=$2; shift 2 ;;
    --keep-stderr) keep_stderr=1; shift ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
      echo "defaults: --games 2000 --jobs 3 --out soak --seed 1 --bot build/bin/bot"; exit 0 ;;
    *) echo "soak.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x build/bin/arena ] && [ -x build/bin/bot ] || ./scripts/build.sh
mkdir -p "$out"
rm -f "$out/games.jsonl"
stderr_args=()
if [ "$keep_stderr" -eq 1 ]; then mkdir -p "$out/stderr"; stderr_args=(--stderr-dir "$out/stderr"); fi
echo "soak: $games games, $jobs at once on $(nproc) cores, record $out/games.jsonl"
status=0
build/bin/arena --games "$games" --jobs "$jobs" --first-time-ms 1000 --time-ms 100 --grace 1 \
  --random-openings 0-40 --seed "$seed" --record "$out/games.jsonl" --json "$out/summary.json" \
  "${stderr_args[@]}" "$bot" "$bot" >"$out/report.txt" || status=$?
cat "$out/report.txt"
[ "$status" -eq 0 ] || { echo "soak: the arena stopped with status $status" >&2; exit 1; }
python3 scripts/soak_report.py "$out/games.jsonl" --expect-games "$games"
