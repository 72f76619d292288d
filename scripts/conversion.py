#!/usr/bin/env python3
"""Conversion of won positions: for each bot of an arena record (build/bin/arena --record FILE),
the games in which it was the player to move right after the opening, and how many of those it won.
With openings the book proves won for the player to move (bookgen proven), that is the share of
proven wins the bot converts. The games it did not convert are listed with their openings.

usage: scripts/conversion.py RECORD.jsonl
"""
import json
import sys


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    tally, missed = {}, []
    with open(argv[1], encoding="utf-8") as record:
        for number, line in enumerate(record, 1):
            try:
                game = json.loads(line)
            except json.JSONDecodeError as e:
                print(f"{argv[1]}:{number}: not JSON: {e}", file=sys.stderr)
                return 1
            if "game" not in game:
                continue  # the header
            plies = game["opening_plies"]
            mover_seat = "A" if plies % 2 == 0 else "B"  # seat A places the first stone
            for bot, seat in zip(game["bots"], game["seats"]):
                if seat != mover_seat:
                    continue
                won = game.get("winner_seat") == (1 if seat == "A" else 2)
                games, wins = tally.get(bot, (0, 0))
                tally[bot] = (games + 1, wins + won)
                if not won:
                    missed.append((bot, game["game"], "; ".join(game["moves"][:plies]), game["reason"]))
    for bot, (games, wins) in sorted(tally.items()):
        print(f"{bot}: converted {wins} of {games} ({100.0 * wins / games:.1f}%)")
    for bot, number, opening, reason in missed:
        print(f"  not converted by {bot}: game {number}, opening '{opening}', {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
