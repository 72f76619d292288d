#!/usr/bin/env bash
# Starts the board server (build/bin/board), drives its page in headless Chromium (Debian's
# `chromium`, installed when missing) with scripts/browser_check.py: one game against the bot to
# its end, a refused move, a set-up position with the book's heat map and the bot's thinking, two
# bots watched, an arena record stepped through. Writes the screenshots (default docs/img/), then
# stops the server with Ctrl-C (SIGINT) and checks that it exits cleanly.
#   scripts/browser_check.sh [--out DIR] [--port N] [--record FILE.jsonl] [--bin DIR]
# --bin: the folder of board, bot and arena (default build/bin, built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
out=docs/img port=18086 record="" bin=build/bin server=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --record) record=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "browser_check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
command -v chromium >/dev/null 2>&1 || install_packages chromium
if [ "$bin" = build/bin ] && { [ ! -x build/bin/board ] || [ ! -x build/bin/bot ] || [ ! -x build/bin/arena ]; }; then
  ensure_deps
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DYAVALATH_TESTS=OFF >/dev/null
  cmake --build build -j 2 --target board bot arena
fi
work=$(mktemp -d) failing=""
# (Under set -e a failing kill, of a server already stopped, would end the trap with status 1.)
trap 'for p in $server $failing; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
if [ -z "$record" ]; then  # a short record of two games to step through
  record=$work/games.jsonl
  "$bin/arena" --games 2 --seed 1 --record "$record" "$bin/bot --no-ponder --time-ms 20" \
    "$bin/bot --no-ponder --time-ms 20 --no-book" > "$work/arena.log" 2>&1
fi
"$bin/board" --port "$port" --bot "$bin/bot" > "$work/server.log" 2>&1 &
server=$!
# A second board whose bot fails at once (it exits): the page must show the failure once.
"$bin/board" --port "$((port + 1))" --no-book --bot false > "$work/failing.log" 2>&1 &
failing=$!
for log in server failing; do
  for _ in $(seq 1 100); do grep -q "open http" "$work/$log.log" && break; sleep 0.1; done
  grep -q "open http" "$work/$log.log" || { cat "$work/$log.log"; echo "browser_check: the server did not start" >&2; exit 1; }
done
python3 scripts/browser_check.py --url "http://127.0.0.1:$port/" --failing-url "http://127.0.0.1:$((port + 1))/" \
  --out "$out" --record "$record" || { cat "$work/server.log"; exit 1; }
kill -INT $failing
kill -INT $server
for _ in $(seq 1 100); do kill -0 $server 2>/dev/null || break; sleep 0.1; done
if kill -0 $server 2>/dev/null; then echo "browser_check: the server did not stop on Ctrl-C" >&2; exit 1; fi
wait $server && status=0 || status=$?
tail -1 "$work/server.log"
[ "$status" = 0 ] || { echo "browser_check: the server exited with status $status on Ctrl-C" >&2; exit 1; }
echo "browser_check: the server stopped cleanly on Ctrl-C"
