#!/usr/bin/env python3
"""Iterations a second of the two bots of a match, in the turns they searched.

    scripts/turn_rates.py RECORD STDERR_DIR [--min-ms MS] [--mid FIRST-LAST]

RECORD is the match's record (arena --record) and STDERR_DIR the bots' lines (arena --stderr-dir):
each bot's line per turn, 'turn N: move X Y | K it, ..., proof P, ..., T ms', gives K / T. Book
turns, turns already proven and turns under --min-ms are left out. Printed, for each bot and their
ratio (the first bot over the second):
- the first mover's first turn, which is the same position in both games of a pair (the same
  opening, colours swapped): the median of the pairs' ratios;
- later turns by turn number (the last row pools the turn --mid ends at and later), medians;
- the turns of --mid pooled, with a bootstrap 95% interval of the ratio of medians.
The bots' positions differ after their first move, so the later rows compare like with like only
over many games."""
import argparse
import os
import random
import re
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arena_records  # noqa: E402

TURN = re.compile(r"^turn (\d+): move .*?\| (\d+) it, .*?proof (\w+), .*?([\d.]+) ms$")


def searched_turns(path):
    """{turn: (iterations, proof, ms)} of a bot's searched turns; {} when the file is missing."""
    turns = {}
    if not os.path.exists(path):
        return turns
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TURN.match(line.strip())
            if m:
                turns[int(m.group(1))] = (int(m.group(2)), m.group(3), float(m.group(4)))
    return turns


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record")
    parser.add_argument("stderr_dir")
    parser.add_argument("--min-ms", type=float, default=50, help="shortest turn counted (default 50)")
    parser.add_argument("--mid", default="3-11", help="the turns pooled as the mid-game (default 3-11)")
    args = parser.parse_args()
    try:
        mid_first, mid_last = (int(x) for x in args.mid.split("-"))
    except ValueError:
        sys.exit(f"turn_rates: --mid '{args.mid}' is not FIRST-LAST")

    names = None
    first_turn = defaultdict(dict)  # pair -> {bot: it/ms}
    later = defaultdict(lambda: defaultdict(list))  # bot -> turn (capped at mid_last + 1) -> it/ms
    for game in arena_records.games(args.record, "turn_rates", ("game", "pair", "bots", "seats", "opening_plies")):
        names = names or game["bots"]
        mover = game["bots"]["AB".index(game["seats"][game["opening_plies"] % 2])]
        for bot in game["bots"]:
            turns = searched_turns(os.path.join(args.stderr_dir, f"game-{game['game']}-{bot}.log"))
            for turn, (iterations, proof, ms) in turns.items():
                if proof != "unknown" or ms < args.min_ms:
                    continue
                if turn == 1:
                    if bot == mover:
                        first_turn[game["pair"]][bot] = iterations / ms
                else:
                    later[bot][min(turn, mid_last + 1)].append(iterations / ms)
    if not names:
        sys.exit(f"turn_rates: {args.record}: no games")
    a, b = names
    if not later[a] or not later[b]:
        sys.exit(f"turn_rates: no searched later turns of both bots in {args.stderr_dir} (arena --stderr-dir)")

    median = statistics.median
    pairs = [p[a] / p[b] for p in first_turn.values() if a in p and b in p]
    print(f"iterations a millisecond, {a} / {b}")
    if pairs:
        print(f"first turn, same position ({len(pairs)} pairs): median of the pairs' ratios {median(pairs):.3f}")
    print(f"{'turn':>6} {a:>12} {'n':>5} {b:>12} {'n':>5} {'ratio':>7}")
    for turn in sorted(set(later[a]) & set(later[b])):
        label = f"{turn}+" if turn > mid_last else str(turn)
        ra, rb = later[a][turn], later[b][turn]
        print(f"{label:>6} {median(ra):12.1f} {len(ra):5d} {median(rb):12.1f} {len(rb):5d} {median(ra) / median(rb):7.3f}")

    pooled = {x: [r for t in range(mid_first, mid_last + 1) for r in later[x].get(t, [])] for x in (a, b)}
    if pooled[a] and pooled[b]:
        rng = random.Random(1)  # a fixed seed: the same interval for the same files
        ratios = sorted(
            median(rng.choices(pooled[a], k=len(pooled[a]))) / median(rng.choices(pooled[b], k=len(pooled[b])))
            for _ in range(2000))
        ratio = median(pooled[a]) / median(pooled[b])
        print(f"turns {mid_first}-{mid_last} pooled: {a} {median(pooled[a]):.1f} ({len(pooled[a])} turns), "
              f"{b} {median(pooled[b]):.1f} ({len(pooled[b])}): ratio {ratio:.3f}, "
              f"bootstrap 95% [{ratios[50]:.3f}, {ratios[1949]:.3f}]")


if __name__ == "__main__":
    main()
