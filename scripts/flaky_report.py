#!/usr/bin/env python3
"""Summarises the JUnit files of scripts/flaky.sh's rounds (ctest --output-junit): every test that
failed in any round, how often, and the text of its first failure. Exit status 1 when one did.
  flaky_report.py ROUND.xml...          the summary
  flaky_report.py --count ROUND.xml     the number of failed tests in one round"""
import sys
import xml.etree.ElementTree as ET


def failures(path):
    """(name, text) of every test that failed in the round of `path`; skipped tests are no failure."""
    out = []
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.get("status") in ("fail", "failed") or case.find("failure") is not None or case.find("error") is not None:
            node = case.find("failure") if case.find("failure") is not None else case.find("error")
            text = (node.get("message", "") if node is not None else "") or ""
            out_node = case.find("system-out")
            if out_node is not None and out_node.text:
                text = out_node.text
            out.append((case.get("name"), text))
    return out


def tests_in(path):
    return sum(1 for _ in ET.parse(path).getroot().iter("testcase"))


def main(argv):
    if len(argv) == 2 and argv[0] == "--count":
        print(len(failures(argv[1])))
        return 0
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    seen, first_text = {}, {}
    runs = 0
    for path in argv:
        runs += tests_in(path)
        for name, text in failures(path):
            seen[name] = seen.get(name, 0) + 1
            first_text.setdefault(name, text)
    print(f"flaky: {len(argv)} rounds, {runs} test runs, {sum(seen.values())} failures"
          f" in {len(seen)} tests")
    for name, count in sorted(seen.items(), key=lambda kv: -kv[1]):
        print(f"\n== {name}: failed {count} of {len(argv)} rounds; the first failure:")
        lines = [l for l in first_text[name].splitlines() if "Failure" in l or "Expected" in l or "actual" in l
                 or "Which is" in l or "FAILED" in l or "turn " in l]
        print("\n".join(("  " + l) for l in (lines or first_text[name].splitlines())[-12:]))
    return 1 if seen else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
