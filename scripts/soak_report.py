#!/usr/bin/env python3
"""Summarises an arena record (--record FILE) for the soak test (scripts/soak.sh): games, faults
(illegal moves, timeouts, bad output, crashes), and the answer times of first turns (a bot's own
first turn of the game) and of later turns (every other answer): p50, p99 and p99.9 (nearest
rank) and maximum, with the slowest later turns.
Exit status 1 when a fault was found or the record holds fewer games than expected."""
import argparse
import json
import math
import sys

FAULTS = ("illegal", "timeout", "bad_output", "crash")


def turn_times(game):
    """(first, later): (ms, ply) of every first-turn answer, and of every later-turn answer (per
    seat, every answer after its first one)."""
    times = game.get("times_ms", [])
    seen_first = [False, False]
    first, out = [], []
    for ply in range(game.get("opening_plies", 0), len(times)):
        seat = ply % 2
        if times[ply] is None or times[ply] < 0:
            continue
        (out if seen_first[seat] else first).append((times[ply], ply))
        seen_first[seat] = True
    # The answer that lost on time (or was bad) placed no stone: it has its own field, and none
    # when no answer came before the limit (a time past every other, shown as "no answer").
    final_ms = game.get("final_ms")
    if final_ms is None and game.get("reason") == "timeout":
        final_ms = math.inf
    if final_ms is not None:
        (out if seen_first[len(times) % 2] else first).append((final_ms, len(times)))
    return first, out


def shown(ms):
    return "no answer" if math.isinf(ms) else f"{ms:.1f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", help="the arena's --record file")
    parser.add_argument("--expect-games", type=int, default=0, help="fail when fewer games were played (default 0: no check)")
    args = parser.parse_args()
    games, faults, times, first_times = 0, {f: 0 for f in FAULTS}, [], []
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
            first, later = turn_times(game)
            first_times += [(ms, game["game"], ply) for ms, ply in first]
            times += [(ms, game["game"], ply) for ms, ply in later]
    times.sort()
    first_times.sort()
    print(f"soak: {games} games, {len(times)} later-turn answers")
    print("faults: " + ", ".join(f"{name} {count}" for name, count in faults.items()))
    print("\n".join(fault_lines[:20]))
    def distribution(sample):
        def percentile(p):
            return sample[max(0, math.ceil(p / 100 * len(sample)) - 1)][0]
        return (f"p50 {shown(percentile(50))}, p99 {shown(percentile(99))}, p99.9 {shown(percentile(99.9))}, "
                f"max {shown(sample[-1][0])}")
    if first_times:
        print(f"first turns ({len(first_times)}): {distribution(first_times)}, "
              f"over 900 ms: {sum(1 for t in first_times if t[0] > 900)}, over 1000 ms: {sum(1 for t in first_times if t[0] > 1000)}")
    if times:
        print(f"later turns ({len(times)}): {distribution(times)}, "
              f"over 90 ms: {sum(1 for t in times if t[0] > 90)}, over 100 ms: {sum(1 for t in times if t[0] > 100)} "
              f"(no answer: {sum(1 for t in times if math.isinf(t[0]))})")
        print("slowest: " + ", ".join(f"{shown(ms)} (game {g}, ply {p + 1})" for ms, g, p in reversed(times[-5:])))
    bad = sum(faults.values()) > 0 or games < args.expect_games
    print("soak: " + ("FAILED" if bad else "passed"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
