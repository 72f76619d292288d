#!/usr/bin/env python3
"""Summarises the book's acceptance matches written by scripts/book_acceptance.sh.

For each match in DIR (empty, one, two, fast, slow, self: NAME.json from the arena, NAME-logs/ the
bots' stderr): games, the book side's score with a 95% interval (normal approximation over the
games), Elo with the arena's asymmetric bounds, the book side's book moves per game (its stderr
marks a book move with `| book`) with the games in which it played none, and its score by seat
from the match's records (NAME.jsonl): as the first player (CodinGame id 1, who places the odd
stones, random ones included) and as the second. Last, the games the opening had already decided
against the book side when it first moved (one side's message says so: its own 'solved: loss' on
that move, or the opponent's 'solved: win' on the move before), which no book can save, and the
book side's score in the other games.

Usage: scripts/acceptance_report.py DIR
"""
import glob
import json
import math
import os
import sys

MATCHES = [
    ('empty', 'empty board'),
    ('one', 'random 1 ply'),
    ('two', 'random 2 plies'),
    ('fast', 'random 1 ply, no-book side at 40 ms'),
    ('slow', 'random 1 ply, no-book side at 200 ms'),
    ('self', 'self-play, random 0-2 plies'),
]


def score_interval(summary):
    n = summary['games'] - summary.get('aborted', 0)
    if n <= 0:
        return None, None, None
    w, d = summary['wins'], summary['draws']
    mean = (w + 0.5 * d) / n
    second = (w + 0.25 * d) / n
    sd = math.sqrt(max(second - mean * mean, 0.0))
    half = 1.96 * sd / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def book_moves(log_dir):
    per_game = []
    for path in glob.glob(os.path.join(log_dir, 'game-*-book.log')):
        with open(path, encoding='utf-8', errors='replace') as f:
            per_game.append(sum(1 for line in f if line.startswith('turn ') and '| book' in line))
    return per_game


def book_side_games(record_path):
    """Each finished game of a match record with the book side's seat (0: CodinGame id 1; the
    book side is the pairing's A) and its points: (game, seat, points). None without a record."""
    if not os.path.exists(record_path):
        return None
    out = []
    with open(record_path, encoding='utf-8') as f:
        for line in f:
            game = json.loads(line)
            if 'game' not in game or game.get('result') == 'aborted':
                continue
            seat = 0 if game['seats'][0] == 'A' else 1
            winner = game.get('winner_seat', 0) - 1
            out.append((game, seat, 0.5 if winner < 0 else 1.0 if winner == seat else 0.0))
    return out


def seat_scores(games_played):
    """The book side's score as seat 1 and as seat 2, with the games of each."""
    points, games = [0.0, 0.0], [0, 0]
    for _, seat, p in games_played:
        games[seat] += 1
        points[seat] += p
    return [f'{points[s] / games[s]:.3f} ({games[s]})' if games[s] else 'n/a' for s in (0, 1)]


def decided_at_start(games_played):
    """Games whose opening was proven lost for the book side when it first moved, and its score in
    the others: ('N (of M)', 'score (games)')."""
    lost, games, points = 0, 0, 0.0
    for game, seat, p in games_played:
        opening = game.get('opening_plies', 0)
        first = opening + (opening % 2 != seat)  # the book side's first ply (0-based: seat 1 plays the even ones)
        messages = game.get('messages', [])
        said = lambda ply: messages[ply] if 0 <= ply < len(messages) else ''
        if said(first) == 'solved: loss' or (first > opening and said(first - 1) == 'solved: win'):
            lost += 1
        else:
            games += 1
            points += p
    return f'{lost} (of {lost + games})', f'{points / games:.3f} ({games})' if games else 'n/a'


def fmt_elo(summary):
    elo, low, high = summary.get('elo'), summary.get('elo_low'), summary.get('elo_high')
    if elo is None:
        return 'n/a'
    def num(v):
        return 'inf' if v is None else f'{v:+.0f}'
    return f'{elo:+.0f} [{num(low)}, {num(high)}]'


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    folder = sys.argv[1]
    rows = []
    for name, label in MATCHES:
        path = os.path.join(folder, name + '.json')
        if not os.path.exists(path):
            continue
        with open(path, encoding='utf-8') as f:
            summary = json.load(f)
        mean, low, high = score_interval(summary)
        moves = book_moves(os.path.join(folder, name + '-logs'))
        per_game = f'{sum(moves) / len(moves):.1f}' if moves else 'n/a'
        none = sum(1 for m in moves if m == 0)
        score = 'n/a' if mean is None else f'{mean:.3f} [{low:.3f}, {high:.3f}]'
        played = book_side_games(os.path.join(folder, name + '.jsonl'))
        seats = seat_scores(played) if played is not None else ['n/a', 'n/a']
        decided = decided_at_start(played) if played is not None else ('n/a', 'n/a')
        rows.append((label, str(summary['games']), score, fmt_elo(summary), per_game, f'{none}', *seats, *decided))
    if not rows:
        print(f'acceptance_report: no match summaries in {folder}', file=sys.stderr)
        return 1
    head = ('start', 'games', 'book score [95%]', 'Elo [95%]', 'book moves/game', 'games without',
            'as seat 1 (games)', 'as seat 2 (games)', 'lost at its first move', 'score in the others')
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        print('  '.join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    return 0


if __name__ == '__main__':
    sys.exit(main())
