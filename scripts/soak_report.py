#!/usr/bin/env python3
"""Summarises an arena record (--record FILE) for the soak test (scripts/soak.sh): games, faults
(illegal moves, timeouts, bad output, crashes), and the answer times of later turns (every answer
but a bot's own first turn of the game): p99 and p99.9 (nearest rank) and maximum, with the slowest turns.
Exit status 1 when a fault was found or the record holds fewer games than expected."""
import argparse
import json
import math
import sys

FAULTS = ("illegal", "timeout", "bad_output", "crash")


def later_turn_times(game):
    """(ms, ply) of every later-turn answer: per seat, every answer after its first one."""
    times = game.get("times_ms", [])
    seen_first = [False, False]
    out = []
    for ply in range(game.get("opening_plies", 0), len(times)):
        seat = ply % 2
        if times[ply] is None or times[ply] < 0:
            continue
        if seen_first[seat]:
            out.append((times[ply], ply))
        seen_first[seat] = True
    # The answer that lost on time (or was bad) placed no stone: it has its own field, and none
    # when no answer came before the limit (a time past every other, shown as "no answer").
    final_ms = game.get("final_ms")
    if final_ms is None and game.get("reason") == "timeout":
        final_ms = math.inf
    if final_ms is not None and seen_first[len(times) % 2]:
        out.append((final_ms, len(times)))
    return out


def shown(ms):
    return "no answer" if math.isinf(ms) else f"{ms:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", help="the arena's --record file")
    parser.add_argument("--expect-games", type=int, default=0, help="fail when fewer games were played (default 0: no check)")
    args = parser.parse_args()
    games, faults, times = 0, {f: 0 for f in FAULTS}, []
    fault_lines = []
    with open(args.record, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('{"record_header"'):
                continue
            try:
                game = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"{args.record}:{number}: not JSON: {e}")
            if game.get("reason") == "aborted":
                continue
            games += 1
            if game.get("reason") in faults:
                faults[game["reason"]] += 1
                fault_lines.append(f"  game {game['game']}: {game['reason']}: {game.get('detail', '')}")
            times += [(ms, game["game"], ply) for ms, ply in later_turn_times(game)]
    times.sort()
    print(f"soak: {games} games, {len(times)} later-turn answers")
    print("faults: " + ", ".join(f"{name} {count}" for name, count in faults.items()))
    print("\n".join(fault_lines[:20]))
    if times:
        def percentile(p):
            return times[max(0, math.ceil(p / 100 * len(times)) - 1)][0]
        print(f"later turns: p99 {shown(percentile(99))}, p99.9 {shown(percentile(99.9))}, max {shown(times[-1][0])}, "
              f"over 90 ms: {sum(1 for t in times if t[0] > 90)}, over 100 ms: {sum(1 for t in times if t[0] > 100)} "
              f"(no answer: {sum(1 for t in times if math.isinf(t[0]))})")
        print("slowest: " + ", ".join(f"{shown(ms)} (game {g}, ply {p + 1})" for ms, g, p in reversed(times[-5:])))
    bad = sum(faults.values()) > 0 or games < args.expect_games
    print("soak: " + ("FAILED" if bad else "passed"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
