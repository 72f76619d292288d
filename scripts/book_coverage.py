#!/usr/bin/env python3
"""Prints how far each bot of arena games played from its opening book.

    scripts/book_coverage.py [--turns N] RECORD.jsonl [RECORD.jsonl ...]

For each bot, each opening length (the random plies the arena played before the bots moved) and
each side (the bot moved first or second after the opening), the share of its first N turns
(default 5) answered from its book (the viewer message "book", as this project's bot writes it),
and the bot's score in those games. A book is judged from every start (docs/book.md): a bot
whose book never reaches its second turn in some start plays there on its search alone.

Why a side is worth a row of its own: after two random stones the side that moves second is
often in a position the book has proven lost, where the book holds no move (docs/book.md).
"""
import argparse
import collections
import sys

import arena_records


def coverage(paths, turns):
    """{(bot, opening plies, side): [games, points, [book turns per turn], [turns played per turn]]}"""
    table = collections.defaultdict(lambda: [0, 0.0, [0] * turns, [0] * turns])
    fields = ("bots", "seats", "opening_plies", "messages", "result")
    for path in paths:
        for game in arena_records.games(path, "book_coverage", fields):
            bots, seats, opening, messages, result = (game[f] for f in fields)
            # bots[0] plays as A, bots[1] as B; seats[0] names the one that made ply 0.
            for bot, label in zip(bots, ("A", "B")):
                seat_index = seats.index(label)  # 0: it made the even plies
                side = "first" if opening % 2 == seat_index else "second"
                row = table[(bot, opening, side)]
                row[0] += 1
                row[1] += 1.0 if result == label else 0.5 if result == "draw" else 0.0
                own = [k for k in range(opening, len(messages)) if k % 2 == seat_index]
                for turn, ply in enumerate(own[:turns]):
                    row[2][turn] += messages[ply] == "book"
                    row[3][turn] += 1
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="arena records (JSON lines)")
    parser.add_argument("--turns", type=int, default=5, help="the bots' turns shown (default 5)")
    args = parser.parse_args()
    if args.turns < 1:
        sys.exit("book_coverage: --turns must be at least 1")
    try:
        table = coverage(args.records, args.turns)
    except OSError as e:
        sys.exit(f"book_coverage: cannot read {e.filename}: {e.strerror}")
    if not table:
        sys.exit("book_coverage: no game records in " + ", ".join(args.records))
    width = max(len("bot"), *(len(bot) for bot, _, _ in table))
    print(f"{'bot':<{width}}  opening  side    games  score  " + "  ".join(f"{'turn' + str(t + 1):>6}" for t in range(args.turns)))
    for (bot, opening, side), (games, points, book, played) in sorted(table.items()):
        shares = "  ".join(f"{b / p:6.2f}" if p else f"{'-':>6}" for b, p in zip(book, played))
        print(f"{bot:<{width}}  {opening:7d}  {side:<6}  {games:5d}  {points / games:5.3f}  {shares}")
    print("(opening: random plies before the bots moved; side: the bot moved first or second after them; "
          "turnN: share of the bot's N-th turns answered from its book)")


if __name__ == "__main__":
    main()
