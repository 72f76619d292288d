"""Reads the games of arena records (arena --record: JSON lines, docs/arena.md "Records"), for the
scripts that study them (book_exits.py, book_coverage.py)."""
import json
import sys


def games(path, tool, fields):
    """Each game record of the file as a dict; exits with `tool: path:line:` when a game line lacks
    one of `fields` or is not JSON. The header and other lines are skipped."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.startswith('{"game"'):
                continue
            try:
                game = json.loads(line)
                for field in fields:
                    game[field]
            except (ValueError, KeyError) as e:
                sys.exit(f"{tool}: {path}:{number}: not an arena game record ({e})")
            yield game
