#!/usr/bin/env python3
"""Builds the CodinGame submission: one self-contained C++ file from bot/main.cpp.

Every project header (`#include "x.h"`, looked up next to the including file, then in src/, the
repository root and book/) is inlined exactly once, where it is first included, so the output is
in dependency order. `#pragma once` and classic include guards are dropped, standard includes
(`#include <x>`) are hoisted to the top and de-duplicated, and the optimisation pragmas of the
sources (`#pragma GCC optimize/target`, chosen once in src/pragmas.h) come first of all, because
CodinGame compiles without any -O flag.

Comments, blank lines, indentation and every space the compiler does not need are stripped by
default to save characters for the book (CodinGame counts the source in UTF-16 code units, limit
100,000): the code lines of each file are joined into lines of about 160 characters, broken only
where a space was needed anyway, adjacent plain string literals (the book's pieces) are merged,
and the output is checked to hold exactly the sources' tokens, so merged. What the submission
never runs goes too (its prelude defines NDEBUG): assert statements, and static_assert messages.
Preprocessor lines stay whole, and each inlined file keeps a `// ---- path ----` banner. The
project's identifiers are then shortened (`--no-rename` keeps them): every name that is not a
keyword, not in a preprocessor line and not among the identifiers of the standard headers (those
of this g++ and of CodinGame's g++ 11 or 10 when installed, macros included) gets a name of one or
two characters, the most frequent first; renamed back, the output must hold the sources' tokens.
`--keep-comments` keeps the sources verbatim (the readable build, for debugging).

Usage: scripts/amalgamate.py [--entry bot/main.cpp] [--output dist/yavalath.cpp]
                             [--pragma TEXT ...] [--keep-comments] [--no-rename]
"""
import argparse
import itertools
import os
import re
import shutil
import string
import subprocess
import sys

from check_submission import utf16_units

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Release builds define NDEBUG; the submission does the same so that it behaves (and runs) like
# the build that was tested and measured.
PRELUDE = ['#ifndef NDEBUG', '#define NDEBUG', '#endif']
COMPACT_PRAGMA = '#pragma GCC diagnostic ignored "-Wmisleading-indentation"'

DIRECTIVE = re.compile(r'^\s*#\s*(\w+)\s*(.*)$')
QUOTED_INCLUDE = re.compile(r'^"([^"]+)"')
SYSTEM_INCLUDE = re.compile(r'^<([^>]+)>')
OPTIMISATION_PRAGMA = re.compile(r'^GCC\s+(optimize|target)\b')
HAS_INCLUDE = re.compile(r'__has_include\s*\(\s*"([^"]+)"\s*\)')


class AmalgamationError(Exception):
    pass


# C++ preprocessing tokens, enough to tell where two tokens may touch: literals (with an encoding
# prefix and a user-defined suffix), pp-numbers (1'000, 1.5e-3f, 0x1p+3), identifiers, and the
# punctuators longest first (digraphs included, and // and /* so that no comment can be formed).
_PUNCTUATORS = sorted(['%:%:', '...', '<<=', '>>=', '->*', '<=>', '::', '->', '.*', '++', '--', '<<', '>>',
                       '<=', '>=', '==', '!=', '&&', '||', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=',
                       '##', '<:', ':>', '<%', '%>', '%:', '//', '/*'], key=len, reverse=True)
TOKEN = re.compile(
    r'(?:u8|u|U|L)?R"(?P<delim>[^()\\ \t\n]{0,16})\(.*?\)(?P=delim)"\w*'  # raw string
    r'|(?:u8|u|U|L)?"(?:\\.|[^"\\\n])*"\w*'                                # string
    r"|(?:u8|u|U|L)?'(?:\\.|[^'\\\n])+'\w*"                                # character
    r"|\.?[0-9](?:[eEpP][+-]|['\w.])*"                                     # pp-number
    r'|[A-Za-z_]\w*'
    r'|' + '|'.join(re.escape(p) for p in _PUNCTUATORS) + r'|\S',
    re.S)


def tokens(text):
    """The preprocessing tokens of code without comments (whitespace only separates them)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        m = TOKEN.match(text, i)
        out.append(m.group())
        i = m.end()
    return out


PLAIN_STRING = re.compile(r'"[^"\\\n]*"$')              # no prefix, suffix or escape
ORDINARY_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"$')  # no prefix or suffix


def merge_literals(token_list):
    """Adjacent plain string literals ("ab" "cd", as the book's header splits its text) as one:
    the compiler concatenates them anyway, and without a backslash in the first no escape
    sequence can run across the seam."""
    out = []
    for token in token_list:
        if out and PLAIN_STRING.match(out[-1]) and ORDINARY_STRING.match(token):
            out[-1] = out[-1][:-1] + token[1:]
        else:
            out.append(token)
    return out


STATEMENT_START = {';', '{', '}'}


def _arguments(token_list, i):
    """For the '(' at token_list[i]: the index of its ')' and those of the commas at its own depth."""
    depth, commas = 0, []
    for j in range(i, len(token_list)):
        depth += token_list[j] in ('(', '[', '{')
        depth -= token_list[j] in (')', ']', '}')
        if depth == 0:
            return j, commas
        if depth == 1 and token_list[j] == ',':
            commas.append(j)
    raise AmalgamationError('unbalanced brackets after ' + ' '.join(token_list[max(0, i - 3):i + 1]))


def strip_checks(token_list):
    """The tokens without what the submission never runs (its prelude defines NDEBUG): each
    `assert(...);` that is a whole statement (after ; { or }, so never the body of an if, else or
    loop) is dropped, and each static_assert loses its message (the condition stays checked)."""
    out, i = [], 0
    while i < len(token_list):
        token = token_list[i]
        if token in ('assert', 'static_assert') and i + 1 < len(token_list) and token_list[i + 1] == '(':
            close, commas = _arguments(token_list, i + 1)
            if (token == 'assert' and out and out[-1] in STATEMENT_START and close + 1 < len(token_list)
                    and token_list[close + 1] == ';'):
                i = close + 2
                continue
            # The message: string literals after the last comma.
            if (token == 'static_assert' and commas and commas[-1] + 1 < close
                    and all(ORDINARY_STRING.match(t) for t in token_list[commas[-1] + 1:close])):
                out += token_list[i:commas[-1]] + [')']
                i = close + 1
                continue
        out.append(token)
        i += 1
    return out


def compact(code_tokens, names, width=160):
    """The tokens of code lines (no comments, no preprocessor lines) joined into lines with the
    fewest characters: adjacent plain string literals merged, identifiers renamed by `names` (see
    short_names), a space only where two tokens would otherwise read as other tokens (int x,
    a - -b, > >), and a line break instead of such a space once a line is `width` long, so
    breaking costs nothing."""
    out, line, previous = [], '', None
    for token in merge_literals(code_tokens):
        token = names.get(token, token)
        if previous is not None and tokens(previous + token) != [previous, token]:
            if len(line) >= width:
                out.append(line)
                line = ''
            else:
                line += ' '
        line += token
        previous = token
    if line:
        out.append(line)
    return out


def strip_comments(text):
    """Returns text with // and /* */ comments removed, keeping every newline (so line numbers
    stay aligned) and leaving string, character and raw-string literals untouched."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '/' and i + 1 < n and text[i + 1] == '/':
            j = i
            # A line comment ends at a newline that is not escaped by a trailing backslash.
            while j < n and not (text[j] == '\n' and text[j - 1] != '\\'):
                j += 1
            i = j
        elif c == '/' and i + 1 < n and text[i + 1] == '*':
            j = text.find('*/', i + 2)
            if j < 0:
                raise AmalgamationError('unterminated /* comment')
            out.append(' ' + '\n' * text.count('\n', i, j))
            i = j + 2
        elif c == 'R' and text.startswith('"', i + 1) and not _identifier_char_before(text, i):
            m = re.match(r'R"([^()\\ \t\n]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(')' + m.group(1) + '"', i + m.end())
            if end < 0:
                raise AmalgamationError('unterminated raw string literal')
            end += len(m.group(1)) + 2
            out.append(text[i:end])
            i = end
        elif c == '"' or (c == "'" and not _is_digit_separator(text, i)):
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == '\\':
                    j += 1
                elif text[j] == '\n':
                    raise AmalgamationError('unterminated literal')
                j += 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def _identifier_char_before(text, i):
    # `R"` starts a raw string only as a whole token or after an encoding prefix (u8R, LR, ...).
    if i == 0:
        return False
    prev = text[i - 1]
    if not (prev.isalnum() or prev == '_'):
        return False
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] == '_'):
        j -= 1
    return text[j:i] not in ('u8', 'u', 'U', 'L')


def _is_digit_separator(text, i):
    # 1'000'000: the quote follows a token that starts with a digit.
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "_'."):
        j -= 1
    return j < i and text[j].isdigit()


IDENTIFIER = re.compile(r'[A-Za-z_]\w*$')
# Keywords, alternative tokens, identifiers with a special meaning, attribute names (standard ones,
# and the gnu:: ones the sources use) and main: never renamed, and never given as a new name.
KEYWORDS = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
    char32_t class compl concept const consteval constexpr constinit const_cast continue co_await co_return
    co_yield decltype default delete do double dynamic_cast else enum explicit export extern false float for
    friend goto if import inline int long module mutable namespace new noexcept not not_eq nullptr operator or
    or_eq override final private protected public register reinterpret_cast requires return short signed
    sizeof static static_assert static_cast struct switch template this thread_local throw true try typedef
    typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq main nodiscard
    maybe_unused fallthrough likely unlikely noreturn deprecated carries_dependency no_unique_address gnu always_inline noinline
    defined""".split())
# Kept by name: scripts/check_submission.py finds the book's literal by it.
KEPT_NAMES = {'kEmbeddedBook'}


def standard_identifiers(system_includes, compilers):
    """Every identifier the standard headers declare, use or define as a macro, with each
    compiler as C++17 and C++20 (`g++ -E -dD`): a name among them is never renamed (our `move`
    or `size` may meet std's through overloading or a member call), nor given as a new name.
    None when no compiler runs."""
    source = ''.join(f'#include <{name}>\n' for name in system_includes)
    found, ran = set(), False
    for compiler in compilers:
        for std in ('c++17', 'c++20'):
            try:
                result = subprocess.run([compiler, f'-std={std}', '-E', '-dD', '-x', 'c++', '-'], input=source,
                                        capture_output=True, text=True)
            except OSError:
                continue
            if result.returncode == 0:
                ran = True
                found.update(re.findall(r'[A-Za-z_]\w*', result.stdout))
    return found if ran else None


def short_names(token_runs, reserved):
    """A new name for each of the project's identifiers (not reserved, no leading underscore),
    shortest names to the identifiers whose renaming saves the most characters; ties by name, so
    the output is reproducible. New names avoid every identifier of the code and `reserved`."""
    counts = {}
    for run in token_runs:
        for t in run:
            if IDENTIFIER.match(t):
                counts[t] = counts.get(t, 0) + 1
    ours = [name for name in counts if name not in reserved and name not in KEYWORDS and not name.startswith('_')]
    ours.sort(key=lambda name: (-counts[name] * len(name), name))
    # An encoding prefix as a new name could join a literal that follows it (L'a', R"x").
    taken = reserved | KEYWORDS | set(counts) | {'R', 'u', 'U', 'L', 'u8', 'LR', 'uR', 'UR', 'u8R'}
    first = string.ascii_letters
    rest = string.ascii_letters + string.digits

    def candidates():
        for length in itertools.count(1):
            for t in itertools.product(first, *([rest] * (length - 1))):
                yield ''.join(t)

    fresh = (n for n in candidates() if n not in taken)
    names, pending = {}, None
    for name in ours:
        pending = pending or next(fresh)
        if len(pending) < len(name):  # otherwise no saving: the name stays as it is
            names[name], pending = pending, None
    return names


class Amalgamator:
    def __init__(self, root, include_dirs, keep_comments, rename=True, compilers=()):
        self.root = root
        self.include_dirs = include_dirs
        self.keep_comments = keep_comments
        self.rename = rename          # shorten the project's identifiers (compacted output only)
        self.compilers = list(compilers)  # whose standard headers' identifiers are never renamed
        self.renamed = {}
        self.inlined = []          # project files in the order they were inlined
        self.seen = set()
        self.system_includes = []  # hoisted, first-seen order
        self.body = []
        self.banner_file = None
        self.bannered = set()
        self.warnings = []
        self.notes = []
        self.pragmas = []          # the sources' optimisation pragmas, first-seen order

    def rel(self, path):
        return os.path.relpath(path, self.root)

    def resolve(self, name, including_file):
        for d in [os.path.dirname(including_file)] + self.include_dirs:
            candidate = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(candidate):
                return candidate
        return None

    def add_file(self, path, stack=()):
        path = os.path.realpath(path)
        if path in self.seen:
            return
        if path in stack:
            raise AmalgamationError('include cycle: ' + ' -> '.join(self.rel(p) for p in stack + (path,)))
        self.seen.add(path)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        try:
            code = strip_comments(text)
        except AmalgamationError as e:
            raise AmalgamationError(f'{self.rel(path)}: {e}')
        original_lines = text.split('\n')
        code_lines = code.split('\n')
        assert len(original_lines) == len(code_lines)
        guard = find_include_guard(code_lines)

        depth = 0          # preprocessor conditional depth, the include guard not counted
        continued = False  # the previous line ended with a backslash
        for number, (line, code_line) in enumerate(zip(original_lines, code_lines), start=1):
            where = f'{self.rel(path)}:{number}'
            is_continuation = continued
            continued = code_line.rstrip().endswith('\\')
            if number - 1 in guard:
                continue
            # Indentation goes too (7,000 characters of the budget, which the book needs more);
            # the sources have no raw or multi-line string literals, where it would matter.
            out_line = line.rstrip() if self.keep_comments else code_line.strip()
            m = None if is_continuation else DIRECTIVE.match(code_line)
            if m:
                name, rest = m.group(1), m.group(2).strip()
                if name == 'pragma' and rest == 'once':
                    continue
                if name == 'pragma' and OPTIMISATION_PRAGMA.match(rest) and depth == 0:
                    # Hoisted: they must precede all code (src/pragmas.h is the one source).
                    if code_line.strip() not in self.pragmas:
                        self.pragmas.append(code_line.strip())
                    continue
                if name in ('if', 'ifdef', 'ifndef'):
                    depth += 1
                elif name == 'endif':
                    depth -= 1
                if name in ('if', 'elif'):
                    out_line = HAS_INCLUDE.sub(
                        lambda h: '1' if self.resolve(h.group(1), path) else '0', out_line)
                if name == 'include':
                    system = SYSTEM_INCLUDE.match(rest)
                    quoted = QUOTED_INCLUDE.match(rest)
                    if system and depth == 0:
                        if system.group(1) not in self.system_includes:
                            self.system_includes.append(system.group(1))
                        continue
                    if quoted:
                        target = self.resolve(quoted.group(1), path)
                        if target is None:
                            if depth == 0:
                                raise AmalgamationError(
                                    f'{where}: cannot find "{quoted.group(1)}" next to the file or in '
                                    + ', '.join(self.rel(d) + '/' for d in self.include_dirs))
                            self.warnings.append(f'{where}: "{quoted.group(1)}" not found; kept as is '
                                                 '(inside a preprocessor conditional)')
                        else:
                            if depth > 0:
                                self.warnings.append(f'{where}: "{quoted.group(1)}" inlined inside a '
                                                     'preprocessor conditional')
                            self.add_file(target, stack + (path,))
                            continue
            if out_line.strip() or self.keep_comments:
                self.emit(path, out_line, directive=bool(m) or is_continuation)
        if depth != 0:
            raise AmalgamationError(f'{self.rel(path)}: unbalanced #if/#endif')
        self.inlined.append(path)

    def emit(self, path, line, directive):
        # Each stretch of output lines says which file it comes from.
        if self.banner_file != path:
            again = ' (continued)' if path in self.bannered else ''
            self.body.append((f'// ---- {self.rel(path)}{again} ----', True))
            self.bannered.add(path)
            self.banner_file = path
        self.body.append((line, directive))

    def body_lines(self, header_lines):
        """The output's body: verbatim with --keep-comments; otherwise each run of code lines
        between banners and preprocessor lines compacted, with the project's identifiers renamed
        (unless rename is off), and checked: renamed back, it holds exactly the sources' tokens."""
        if self.keep_comments:
            return [line for line, _ in self.body]
        # The body as whole lines (banners, preprocessor lines) and the tokens of each run of code
        # lines between them.
        parts, run = [], []
        for line, whole in self.body + [('', True)]:
            if not whole:
                run.append(line)
                continue
            if run:
                parts.append(strip_checks(tokens('\n'.join(run))))
                run = []
            if line:
                parts.append(line)
        runs = [part for part in parts if isinstance(part, list)]
        names = {}
        if self.rename:
            standard = standard_identifiers(self.system_includes, self.compilers)
            if standard is None:
                self.warnings.append('no compiler ran (' + ', '.join(self.compilers) + '): identifiers not renamed')
            else:
                # Names in preprocessor lines (NDEBUG, GCC) are left alone too.
                directives = [part for part in parts + header_lines if isinstance(part, str) and part.startswith('#')]
                reserved = standard | set(re.findall(r'[A-Za-z_]\w*', '\n'.join(directives)))
                names = short_names(runs, reserved | KEPT_NAMES)
        self.renamed = names
        back = {new: old for old, new in names.items()}
        out = []
        for part in parts:
            if isinstance(part, str):
                out.append(part)
                continue
            joined = compact(part, names)
            if [back.get(t, t) for t in tokens('\n'.join(joined))] != merge_literals(part):
                raise AmalgamationError('compacting changed the code\'s tokens (a bug in amalgamate.py)')
            out += joined
        return out

    def output(self, pragmas, header_note):
        lines = list(pragmas) + [header_note] + PRELUDE
        if not self.keep_comments:
            # A compacted line holds a loop's body and the next statement, which -Wall reads as
            # misleading indentation; the file has no indentation to mislead anyone.
            lines.append(COMPACT_PRAGMA)
        lines += [f'#include <{name}>' for name in self.system_includes]
        return '\n'.join(lines + self.body_lines(lines)) + '\n'


def find_include_guard(code_lines):
    """Line indices of a classic include guard (#ifndef X / #define X ... #endif), or empty."""
    significant = [(k, line.strip()) for k, line in enumerate(code_lines) if line.strip()]
    if len(significant) < 3:
        return set()
    (k0, first), (k1, second), (k2, last) = significant[0], significant[1], significant[-1]
    m = re.match(r'#\s*ifndef\s+(\w+)$', first)
    if not m or not re.match(r'#\s*define\s+' + re.escape(m.group(1)) + r'$', second):
        return set()
    if not re.match(r'#\s*endif$', last):
        return set()
    # The #endif must close the #ifndef: the depth may not return to zero before it.
    depth = 0
    for k, line in significant[:-1]:
        d = DIRECTIVE.match(line)
        if d and d.group(1) in ('if', 'ifdef', 'ifndef'):
            depth += 1
        elif d and d.group(1) == 'endif':
            depth -= 1
            if depth == 0:
                return set()
    return {k0, k1, k2}


def git_revision(root):
    try:
        rev = subprocess.run(['git', '-C', root, 'rev-parse', '--short', 'HEAD'], capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(['git', '-C', root, 'status', '--porcelain', '--', 'src', 'bot', 'book'],
                               capture_output=True, text=True, check=True).stdout.strip()
        return rev + (' + local changes' if dirty else '')
    except (OSError, subprocess.CalledProcessError):
        return 'unknown revision'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--root', default=ROOT, help='repository root (default: this checkout)')
    parser.add_argument('--entry', default='bot/main.cpp', help='entry file, relative to the root')
    parser.add_argument('--output', default='dist/yavalath.cpp', help='output file, relative to the root')
    parser.add_argument('--include-dir', action='append', default=None,
                        help='project include directories in lookup order (default: src . book)')
    parser.add_argument('--pragma', action='append', default=None,
                        help='a line to put first instead of the sources\' optimisation pragmas '
                             '(repeatable; default: those of the sources, i.e. src/pragmas.h)')
    parser.add_argument('--keep-comments', action='store_true', help='keep comments and blank lines')
    parser.add_argument('--no-rename', action='store_true',
                        help='keep the project\'s identifiers (they are shortened by default)')
    args = parser.parse_args()

    root = os.path.abspath(args.root)
    include_dirs = [os.path.join(root, d) for d in (args.include_dir or ['src', '.', 'book'])]
    entry = os.path.join(root, args.entry)
    if not os.path.isfile(entry):
        sys.exit(f'amalgamate: error: entry file {entry} not found')
    # The standard headers of this g++ and of CodinGame's (g++ 11 or 10, when installed) name what
    # must not be renamed.
    compilers = ['g++'] + [c for c in ('g++-11', 'g++-10') if shutil.which(c)][:1]
    amalgamator = Amalgamator(root, include_dirs, args.keep_comments, not args.no_rename, compilers)
    try:
        amalgamator.add_file(entry)
    except (AmalgamationError, UnicodeDecodeError) as e:
        sys.exit(f'amalgamate: error: {e}')
    for n in amalgamator.notes:
        print(f'amalgamate: note: {n}')
    for w in amalgamator.warnings:
        print(f'amalgamate: warning: {w}', file=sys.stderr)

    note = (f'// Yavalath bot for CodinGame: generated by scripts/amalgamate.py from {args.entry} '
            f'({git_revision(root)}); edit the sources, not this file.')
    if args.pragma:
        for p in amalgamator.pragmas:
            print(f'amalgamate: note: replaced "{p}" by --pragma')
    text = amalgamator.output(args.pragma or amalgamator.pragmas, note)
    output = os.path.join(root, args.output)
    os.makedirs(os.path.dirname(output), exist_ok=True)
    with open(output, 'w', encoding='utf-8', newline='\n') as f:
        f.write(text)
    print(f'amalgamate: wrote {os.path.relpath(output)} from {len(amalgamator.inlined)} project files '
          f'({", ".join(amalgamator.rel(p) for p in amalgamator.inlined)}), {utf16_units(text)} characters'
          + (f', {len(amalgamator.renamed)} identifiers shortened' if amalgamator.renamed else ''))


if __name__ == '__main__':
    main()
