#!/usr/bin/env python3
"""Checks the CodinGame submission file the way CodinGame will treat it.

1. Size, in UTF-16 code units as CodinGame counts it: prints the count and the headroom, fails
   above the budget (default 99,000; the hard limit is 100,000).
2. Compiles it like CodinGame: plain `g++ -std=c++17 -Wall -Wextra` and `-std=c++20`, no -O flag
   (the file's own pragmas do the optimising), linked with -lm -lpthread -ldl -lcrypt (-lcrypt is
   skipped, with a note, when this machine lacks the library); also with CodinGame's own g++
   version (g++-11, else g++-10) when it is installed. Any warning fails.
3. Plays one full game of the C++17 binary (CodinGame's g++ version when installed) against
   itself through the arena referee (build/bin/arena): fails on an illegal move, a timeout, bad
   output or a crash.

Optionally (--speed-against build/bin/bot) it compares the search speed with another build.

Usage: scripts/check_submission.py [FILE] [--budget N] [--work DIR] [--arena PATH] [--no-game]
                                   [--speed-against BOT [--speed-ms MS] [--speed-rounds N]]
Exit status 0 when every check passed; each failure is reported on stderr as `check: FAILED: ...`.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARD_LIMIT = 100_000
DEFAULT_BUDGET = 99_000
CODINGAME_LIBS = ['-lm', '-lpthread', '-ldl', '-lcrypt']
STANDARDS = ['c++17', 'c++20']
# CodinGame compiles with g++ 11 (C++20 environment) or g++ 10 (older documentation); when they are
# installed here the file is compiled with them too: their warnings differ from newer versions'.
CODINGAME_GXX = ['g++-11', 'g++-10']  # the first one installed is used
# Game endings that are part of the rules; anything else (timeout, illegal, bad_output, crash,
# aborted) is a bot failure.
NORMAL_ENDINGS = {'line4', 'line3', 'draw'}


def utf16_units(text):
    # A character outside the Basic Multilingual Plane is a surrogate pair: two units.
    return len(text.encode('utf-16-le')) // 2


def fail(message):
    print(f'check: FAILED: {message}', file=sys.stderr)
    sys.exit(1)


# (first code point, size) of each block of the book's alphabet: kBookAlphabet, src/book_format.h
BOOK_ALPHABET = ((0x4E00, 20902), (0x3400, 6582), (0xAC00, 5284))


def book_characters(text):
    """The characters of the embedded book's text (15 bits each, from the three blocks of
    kBookAlphabet in book_format.h)."""
    found = re.search(r'kEmbeddedBook\s*=', text)  # compacted or readable
    if not found:
        return 0
    start = found.start()
    return sum(1 for c in text[start:text.find(';', start)] if any(
        first <= ord(c) < first + size for first, size in BOOK_ALPHABET))


def check_size(path, budget):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    units = utf16_units(text)
    book = book_characters(text)
    print(f'check: size {units} UTF-16 units ({units - book} of code, {book} of opening book); budget {budget} '
          f'(headroom {budget - units}); CodinGame limit {HARD_LIMIT} (headroom {HARD_LIMIT - units})')
    if units > budget:
        # The packer's budget counts the same characters as book_characters: the literal's quotes
        # and line breaks are counted with the code.
        room = book - (units - budget)
        hint = (f'; re-pack a smaller book: build/bin/bookpack --budget {room}, then ./scripts/build.sh'
                if book > 0 and room > 0 else '; shrink the opening book or strip more')
        fail(f'{os.path.relpath(path)} is {units} characters, {units - budget} over the budget of {budget}'
             f'{hint} (see docs/submission.md)')
    return units


def codingame_libs(compiler):
    """The CodinGame link flags that this machine can honour, and a note for each one skipped."""
    libs, notes = [], []
    for flag in CODINGAME_LIBS:
        name = 'lib' + flag[2:]
        found = any(os.path.isabs(subprocess.run([compiler, f'-print-file-name={name}{ext}'],
                                                 capture_output=True, text=True).stdout.strip())
                    for ext in ('.so', '.a'))
        if found or flag in ('-lm', '-lpthread', '-ldl'):  # part of every glibc toolchain
            libs.append(flag)
        else:
            notes.append(f'{flag} skipped: {name} is not installed here (CodinGame links it; the bot does not use it)')
    return libs, notes


def compile_all(path, work, compilers):
    """Compiles the file with every compiler and standard, two at a time; returns the binaries
    keyed by (compiler, standard)."""
    libs, notes = codingame_libs(compilers[0])
    for note in notes:
        print(f'check: note: {note}')
    pending = []
    for compiler in compilers:
        for std in STANDARDS:
            suffix = '' if compiler == compilers[0] else '-' + os.path.basename(compiler)
            binary = os.path.join(work, 'yavalath-' + std.replace('+', 'x') + suffix)
            pending.append((compiler, std, binary, [compiler, f'-std={std}', '-Wall', '-Wextra', path, '-o', binary] + libs))
    binaries, running = {}, []

    def finish(job):
        compiler, std, binary, command, process = job
        output = process.communicate()[0].strip()
        if process.returncode != 0:
            fail(f'{compiler} -std={std} could not compile the submission:\n{output}')
        if output:
            fail(f'{compiler} -std={std} -Wall -Wextra printed warnings (CodinGame shows them; the submission '
                 f'must be warning-free):\n{output}')
        print(f'check: compiled warning-free: {compiler} -std={std}')
        binaries[(compiler, std)] = binary

    for compiler, std, binary, command in pending:
        if len(running) == 2:
            finish(running.pop(0))
        print(f'check: compiling: {shlex.join(command)}')
        running.append((compiler, std, binary, command, subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
    for job in running:
        finish(job)
    return binaries


def codingame_compilers(main_compiler):
    """The main compiler, plus CodinGame's own g++ versions when they are installed here."""
    extra = [c for c in CODINGAME_GXX if shutil.which(c) and c != main_compiler][:1]
    if not extra:
        print(f'check: note: none of {", ".join(CODINGAME_GXX)} (the versions CodinGame uses) is installed; '
              f'checked with {main_compiler} only (apt-get install g++-11 to check with CodinGame\'s compiler too)')
    return [main_compiler] + extra


def play_self_game(binary, arena, work):
    if not os.access(arena, os.X_OK):
        fail(f'the arena {arena} is missing; build it first (./scripts/build.sh builds it)')
    summary_path = os.path.join(work, 'selfplay.json')
    record_path = os.path.join(work, 'selfplay.jsonl')
    log_dir = os.path.join(work, 'selfplay-logs')
    for stale in (summary_path, record_path):
        if os.path.exists(stale):
            os.remove(stale)
    bot = shlex.quote(os.path.abspath(binary))
    command = [arena, '--games', '1', '--quiet', '--json', summary_path, '--record', record_path,
               '--stderr-dir', log_dir, bot, bot]
    print(f'check: one game against itself: {shlex.join(command)}')
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        fail(f'the arena failed (exit {result.returncode}):\n{result.stdout.strip()}')
    try:
        with open(record_path) as f:
            records = [json.loads(line) for line in f if line.strip()]
        games = [r for r in records if 'record_header' not in r]  # the first line is the set-up
        with open(summary_path) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        fail(f'cannot read the arena output ({e}); arena said:\n{result.stdout.strip()}')
    if len(games) != 1:
        fail(f'the arena recorded {len(games)} games instead of 1 in {os.path.relpath(record_path)}')
    game = games[0]
    reason = game.get('reason')
    if reason not in NORMAL_ENDINGS:
        fail(f'the self-play game ended with "{reason}": {game.get("detail", "")} after {len(game.get("moves", []))} '
             f'moves; bot stderr in {os.path.relpath(log_dir)}/, game in {os.path.relpath(record_path)}')
    # The embedded book is decoded on the first turn; a damaged one is reported on stderr (the bot
    # plays on without it), and a submission must never ship that way.
    for name in sorted(os.listdir(log_dir)) if os.path.isdir(log_dir) else []:
        with open(os.path.join(log_dir, name), errors='replace') as f:
            for line in f:
                if line.startswith('book: ') and 'without it' in line:
                    fail(f'the submission could not read its embedded data: {line.strip()} ({os.path.relpath(log_dir)}/{name})')
    times = summary.get('times', {})
    slowest = max((t.get('max_ms', 0) for t in times.values()), default=0)
    slowest_first = max((t.get('first_turn_max_ms', 0) for t in times.values()), default=0)
    slow = sum(t.get('slow', 0) for t in times.values())
    print(f'check: self-play game finished normally: {reason} ({game.get("detail", "")}) after '
          f'{len(game.get("moves", []))} moves; slowest answer {slowest_first:.0f} ms on a first turn '
          f'(limit 1000), {slowest:.0f} ms later (limit 100)')
    if slow:
        print(f'check: warning: {slow} answers were over the time limit but within the arena\'s grace; '
              'on CodinGame they would lose (a busy machine can cause this: rerun to confirm)')


SEARCH_LINE = re.compile(r'\|\s*(\d+) it,.*?([\d.]+) ms\s*$')


def measure_speed(binaries, positions, ms, rounds):
    """Iterations per second of each binary's search on the first turn of every recorded position,
    the binaries taking turns so that machine noise hits them alike."""
    files = sorted(os.path.join(positions, f) for f in os.listdir(positions) if f.endswith('.txt'))
    if not files:
        fail(f'no recorded positions (*.txt) in {positions}')
    totals = {label: [0, 0.0] for label in binaries}
    for r in range(rounds):
        for path in files:
            for label, binary in binaries.items():
                with open(path) as stdin:
                    run = subprocess.run([binary, '--no-book', '--first-time-ms', str(ms)], stdin=stdin,
                                         capture_output=True, text=True)
                m = SEARCH_LINE.search(run.stderr.strip().split('\n')[-1]) if run.stderr.strip() else None
                if run.returncode != 0 or not m:
                    fail(f'{label} ({binary}) did not report its search on {path}:\n{run.stderr.strip()}')
                totals[label][0] += int(m.group(1))
                totals[label][1] += float(m.group(2)) / 1000
        print(f'check: speed round {r + 1}/{rounds}: ' + ', '.join(
            f'{label} {it / max(sec, 1e-9):,.0f} it/s' for label, (it, sec) in totals.items()))
    return {label: it / max(sec, 1e-9) for label, (it, sec) in totals.items()}


def main():
    sys.stdout.reconfigure(line_buffering=True)  # keep stdout and stderr in order when piped
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('file', nargs='?', default=os.path.join(ROOT, 'dist', 'yavalath.cpp'))
    parser.add_argument('--budget', type=int,
                        default=int(os.environ.get('YAVALATH_SIZE_BUDGET', DEFAULT_BUDGET)),
                        help='maximum size in UTF-16 units (default 99000, or $YAVALATH_SIZE_BUDGET)')
    parser.add_argument('--work', default=os.path.join(ROOT, 'build', 'submission'),
                        help='directory for the binaries and the game report')
    parser.add_argument('--arena', default=os.path.join(ROOT, 'build', 'bin', 'arena'))
    parser.add_argument('--compiler', default=os.environ.get('CODINGAME_CXX', 'g++'))
    parser.add_argument('--size-only', action='store_true', help='only check the size')
    parser.add_argument('--no-game', action='store_true', help='skip the self-play game')
    parser.add_argument('--speed-against', metavar='BOT',
                        help='also compare search speed (iterations/s) with this binary, e.g. the '
                             'Release build/bin/bot (target: the submission reaches 90%%)')
    parser.add_argument('--speed-ms', type=int, default=300, help='search time per position (default 300)')
    parser.add_argument('--speed-rounds', type=int, default=3, help='passes over the positions (default 3)')
    args = parser.parse_args()

    if not os.path.isfile(args.file):
        fail(f'{args.file} does not exist; run scripts/amalgamate.py first')
    if args.budget > HARD_LIMIT:
        print(f'check: note: budget {args.budget} is above the CodinGame limit {HARD_LIMIT}')
    check_size(args.file, args.budget)
    if args.size_only:
        return
    if shutil.which(args.compiler) is None:
        fail(f'compiler {args.compiler} not found')
    os.makedirs(args.work, exist_ok=True)
    compilers = codingame_compilers(args.compiler)
    binaries = compile_all(os.path.abspath(args.file), args.work, compilers)
    # The game and the speed use CodinGame's own g++ version when it is here.
    main_binary = binaries[(compilers[-1] if len(compilers) > 1 else compilers[0], 'c++17')]
    if not args.no_game:
        play_self_game(main_binary, args.arena, args.work)
    if args.speed_against:
        speeds = measure_speed({'submission': main_binary, 'reference': args.speed_against},
                               os.path.join(ROOT, 'tests', 'data', 'positions'), args.speed_ms, args.speed_rounds)
        ratio = speeds['submission'] / speeds['reference']
        print(f'check: speed: submission {speeds["submission"]:,.0f} it/s, {args.speed_against} '
              f'{speeds["reference"]:,.0f} it/s: {100 * ratio:.1f}% (target 90%)')
        if ratio < 0.9:
            print('check: warning: the submission is below 90% of the reference speed (timings are noisy on a '
                  'busy machine: rerun to confirm)')
    print('check: the submission passed every check')


if __name__ == '__main__':
    main()
