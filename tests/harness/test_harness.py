#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The test harnesses' run by name (DMK_TEST_ONLY), on both: tests/
dmk-test.h through sample.c's program and tests/dmktest.py through
sample.py, plan last and plan first. A run by name runs that case alone
(its "# ran" line and no other), its TAP valid with a plan of 1; the name
works with and without its "test_"; a name no case has fails with a
"Bail out!" that names it and runs nothing; unset, every case runs.
Prints TAP; usage: test_harness.py SAMPLE_EXE."""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import dmktest  # noqa: E402
from dmktest import check  # noqa: E402

SAMPLE_EXE = sys.argv[1] if len(sys.argv) > 1 else None
SAMPLE_PY = os.path.join(HERE, "sample.py")
CASES = ["first", "second", "fails", "skipped"]
RESULT = re.compile(r"^(ok|not ok) (\d+) - (\S+)")


def harnesses():
    """(what, argv, plan_first) of each harness under test."""
    out = [("dmktest.py", [sys.executable, SAMPLE_PY], False),
           ("dmktest.py plan first", [sys.executable, SAMPLE_PY, "plan-first"], True)]
    if SAMPLE_EXE:
        out.insert(0, ("dmk-test.h", [SAMPLE_EXE], False))
    return out


def run(argv, only):
    """argv run with DMK_TEST_ONLY=only (unset when None): (exit, lines)."""
    env = {k: v for k, v in os.environ.items() if k != "DMK_TEST_ONLY"}
    if only is not None:
        env["DMK_TEST_ONLY"] = only
    r = subprocess.run(argv, capture_output=True, text=True, timeout=60, env=env)
    return r.returncode, r.stdout.splitlines()


def check_tap(what, lines, plan_first):
    """lines are valid TAP: one plan, first or last as the harness puts
    it, matching the results, numbered 1..n in order. [(status, name)]."""
    plans = [i for i, line in enumerate(lines) if re.fullmatch(r"1\.\.\d+", line)]
    check(len(plans) == 1, f"{what}: not one plan: {lines}")
    at = plans[0]
    check(at == (0 if plan_first else len(lines) - 1), f"{what}: plan misplaced: {lines}")
    results = [RESULT.match(line) for line in lines if RESULT.match(line)]
    check(int(lines[at][3:]) == len(results), f"{what}: plan {lines[at]}, results {len(results)}")
    check([int(m.group(2)) for m in results] == list(range(1, len(results) + 1)),
          f"{what}: misnumbered: {lines}")
    for line in lines:
        check(line == lines[at] or RESULT.match(line) or line.startswith("# "),
              f"{what}: a line TAP does not know: {line!r}")
    return [(m.group(1), m.group(3)) for m in results]


def ran(lines):
    return [line[len("# ran "):] for line in lines if line.startswith("# ran ")]


def test_every_case_without_a_name():
    for what, argv, plan_first in harnesses():
        rc, lines = run(argv, None)
        got = check_tap(what, lines, plan_first)
        check([bare(n) for _, n in got] == CASES, f"{what}: {got}")
        check(ran(lines) == CASES, f"{what}: ran {ran(lines)}")
        check(rc == 1, f"{what}: exit {rc} with a failing case")
    return f"{len(harnesses())} harnesses"


def bare(name):
    return name[5:] if name.startswith("test_") else name


def test_one_case_by_name():
    for what, argv, plan_first in harnesses():
        for name in ["second", "test_second"]:
            rc, lines = run(argv, name)
            got = check_tap(f"{what} {name}", lines, plan_first)
            check([(s, bare(n)) for s, n in got] == [("ok", "second")], f"{what} {name}: {got}")
            check(ran(lines) == ["second"], f"{what} {name}: ran {ran(lines)}")
            check(rc == 0, f"{what} {name}: exit {rc}")
    return "second alone, named with and without test_"


def test_failing_and_skipped_case_by_name():
    for what, argv, plan_first in harnesses():
        rc, lines = run(argv, "fails")
        got = check_tap(f"{what} fails", lines, plan_first)
        check([(s, bare(n)) for s, n in got] == [("not ok", "fails")], f"{what}: {got}")
        check(rc == 1, f"{what} fails: exit {rc}")
        rc, lines = run(argv, "skipped")
        check_tap(f"{what} skipped", lines, plan_first)
        check(ran(lines) == ["skipped"] and any("# SKIP on purpose" in x for x in lines),
              f"{what} skipped: {lines}")
        check(rc == 0, f"{what} skipped: exit {rc}")
    return "its verdict and exit status, as in a whole run"


def test_unknown_name_fails():
    for what, argv, _ in harnesses():
        for name in ["secnd", "first_"]:
            rc, lines = run(argv, name)
            check(rc != 0, f"{what} {name}: exit 0")
            check(ran(lines) == [], f"{what} {name}: ran {ran(lines)}")
            check(not any(RESULT.match(x) for x in lines), f"{what} {name}: results: {lines}")
            check(any(x.startswith("Bail out!") and f"{name}" in x for x in lines),
                  f"{what} {name}: no Bail out! naming it: {lines}")
    return "Bail out!, exit 1"


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals())))
