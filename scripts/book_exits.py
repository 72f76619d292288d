#!/usr/bin/env python3
"""Writes the positions where arena games left the opening book, as an openings file.

    scripts/book_exits.py [--min-plies N] --out FILE RECORD.jsonl [RECORD.jsonl ...]

Reads arena records (arena --record) of matches between bots with a book, finds in each game the
first move that was not a book move (its viewer message is not "book"), and writes the moves
before it, each move list once, for `arena --openings FILE`. Games that left the book
before ply N (default 6) are skipped: those positions are the random openings' own.

Why: the bot with its book meets these positions, balanced mid-game positions chosen by deep
searches, rather than the wild ones random openings lead to. An engine change can gain from random
openings and lose from these (docs/experiments/2026-11-search-screens.md, "Playouts that take a
win in two").
"""
import argparse
import os
import sys

import arena_records


def exits(path, min_plies):
    out = []
    for game in arena_records.games(path, "book_exits", ("moves", "messages")):
        moves, messages = game["moves"], game["messages"]
        first = next((k for k in range(1, len(moves)) if messages[k] != "book"), None)
        if first is not None and first >= min_plies:
            out.append("; ".join(moves[:first]))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="arena records (JSON lines)")
    parser.add_argument("--out", required=True, help="openings file to write")
    parser.add_argument("--min-plies", type=int, default=6, help="shortest book line kept (default 6)")
    args = parser.parse_args()
    lines = {}  # the move lists in order of first appearance, each once
    for path in args.records:
        try:
            lines.update(dict.fromkeys(exits(path, args.min_plies)))
        except OSError as e:
            sys.exit(f"book_exits: cannot read {path}: {e.strerror}")
    if not lines:
        sys.exit("book_exits: no game left the book at or after ply %d" % args.min_plies)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("# positions where arena games left the opening book (scripts/book_exits.py, from %s)\n"
                % ", ".join(os.path.basename(p) for p in args.records))
        f.write("\n".join(lines) + "\n")
    print(f"book_exits: {len(lines)} positions written to {args.out}")


if __name__ == "__main__":
    main()
