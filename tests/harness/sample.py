#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A sample script for tests/dmktest.py's own test (test_harness.py):
the four cases of sample.c, each saying on a TAP comment line that it
ran; one fails on purpose and one skips. No test of the suite itself.
Usage: sample.py [plan-first]."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check  # noqa: E402


def test_first():
    print("# ran first")


def test_second():
    print("# ran second")
    check("two" == "two", "two")


def test_fails():
    print("# ran fails")
    check(1 + 1 == 3, "1 + 1 is not 3")


def test_skipped():
    print("# ran skipped")
    raise Skip("on purpose")


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals()), plan_first="plan-first" in sys.argv))
