#!/usr/bin/env bash
# The opening book's acceptance matches (docs/book.md): the bot with its book against the same
# binary with --no-book, CodinGame limits, from the empty board and from random 1- and 2-ply
# openings, then from random first stones with the no-book side at 40 ms and at 200 ms. Each
# match's JSON summary and both bots' stderr go to --out; the table at the end gives the score
# with its 95% interval, Elo with its bounds, and the book side's book moves per game.
# Both sides run with --no-ponder: this measures the book, and with 2 games at once on 2 cores
# there is no free core for a bot to think on while its opponent does (docs/search.md, Pondering).
set -euo pipefail
cd "$(dirname "$0")/.."

bot=build/submission/yavalath-cxx17
games=200
jobs=2
out=build/acceptance
seed=
only=
usage() {
  cat <<EOF
usage: scripts/book_acceptance.sh [--bot BIN] [--games N] [--jobs N] [--out DIR] [--seed S] [--only LIST]
  --bot BIN    the bot to judge, with its book (default $bot, the plain-g++ submission)
  --games N    games per match (default $games)
  --jobs N     games at the same time (default $jobs)
  --out DIR    JSON summaries, records and stderr logs (default $out)
  --seed S     base seed of the random openings; match k uses S + k (default fresh, printed)
  --only LIST  comma-separated subset of: empty,one,two,fast,slow (default all five) and self (the
               book against itself from random 0-2-ply openings: its book moves per game)
EOF
}
while [ $# -gt 0 ]; do
  case "$1" in
    --bot) bot=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --help|-h) usage; exit 0 ;;
    *) echo "book_acceptance: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
[ -x "$bot" ] || { echo "book_acceptance: $bot is not an executable (run ./scripts/build.sh first)" >&2; exit 2; }
[ -x build/bin/arena ] || { echo "book_acceptance: build/bin/arena is missing (run ./scripts/build.sh first)" >&2; exit 2; }
[ -n "$seed" ] || seed=$(( $(date +%s) % 100000 * 10 ))
echo "book_acceptance: $bot, $games games a match, seeds from $seed, output in $out"
mkdir -p "$out"

# name | arena flags | the no-book side's extra flags
matches=(
  "empty|--empty-board|"
  "one|--random-openings 1|"
  "two|--random-openings 2|"
  "fast|--random-openings 1|--time-ms 40"
  "slow|--random-openings 1 --time-ms 300|--time-ms 200"
  "self|--random-openings 0-2|BOOK"
)
k=0
for m in "${matches[@]}"; do
  IFS='|' read -r name flags nobook <<<"$m"
  k=$((k + 1))
  if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then continue; fi
  if [ -z "$only" ] && [ "$name" = self ]; then continue; fi  # only on request
  opponent="nobook=$bot --no-ponder --no-book $nobook"
  [ "$nobook" = BOOK ] && opponent="mirror=$bot --no-ponder"  # self-play: how deep the book reaches both sides
  rm -rf "$out/$name-logs" && mkdir -p "$out/$name-logs"
  echo "== $name: arena $flags, ${opponent%%=*} side ${nobook:-at CodinGame time}"
  # shellcheck disable=SC2086  # the flags are words
  seeded=(--seed $((seed + k)))
  [ "$name" = empty ] && seeded=()  # the empty board has no random opening to seed
  build/bin/arena --games "$games" --jobs "$jobs" "${seeded[@]}" $flags --quiet \
    --json "$out/$name.json" --record "$out/$name.jsonl" --stderr-dir "$out/$name-logs" \
    "book=$bot --no-ponder" "$opponent"
done
python3 scripts/acceptance_report.py "$out"
