#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An empty device is told before consent is asked for (issue 13, class
8): every command that takes --device (run, sweep qd and bs, the five lab
tests) on an unattached (0-byte) loop device of the test's own says that
the device has no storage, with or without --yes-destroy-data, and never
asks for consent it could not use. Root (a loop device); skips with its
reason otherwise. Prints TAP.

    test_empty_device.py DRIVEMARK_CLI"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import check  # noqa: E402
from test_small_fixes import UnattachedLoop, run  # noqa: E402

COMMANDS = [["run"], ["sweep", "qd"], ["sweep", "bs"], ["sustained"], ["fullspan"], ["mixed"],
            ["latency"], ["recovery"]]


def check_said_empty(cmd, dev, r):
    what = " ".join(cmd)
    check(r.returncode == 1, f"{what}: exit {r.returncode}: {r.stderr}")
    check(f"the device {dev} has no storage (0 bytes)" in r.stderr, f"{what}: {r.stderr}")
    check("refusing" not in r.stderr and "--yes-destroy-data" not in r.stderr,
          f"{what} asked for consent first: {r.stderr}")


def test_every_command_says_empty_first():
    """Without consent: the empty device, not the consent refusal."""
    with UnattachedLoop() as dev:
        for cmd in COMMANDS:
            check_said_empty(cmd, dev, run(cmd + ["--device", dev]))
        return f"{len(COMMANDS)} commands on {dev}"


def test_empty_with_consent_and_read_only():
    """With consent, and read only (run and sweep take --mode read): the
    same message, and nothing else."""
    with UnattachedLoop() as dev:
        for cmd in COMMANDS:
            check_said_empty(cmd, dev, run(cmd + ["--device", dev, f"--yes-destroy-data={dev}"]))
        for cmd in COMMANDS[:3]:
            check_said_empty(cmd, dev, run(cmd + ["--device", dev, "--mode", "read"]))
        return f"{len(COMMANDS) + 3} invocations"


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals()), timed=True))
