#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The io_uring backend's own cases through drivemark-cli, on a directory
under the build dir (the shared cases run on it through DMK_TEST_NATIVE,
tests/meson.build): a run with --verify, its SQPOLL option, the
refusals of its options, and a ring that cannot be set up (ENOSYS, EPERM,
simulated with DMK_TEST_URING_FAIL): the message names the operation,
the OS error and the way out, and nothing is left in the target. Prints
TAP.

    test_uring.py DRIVEMARK_CLI"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import check, check_usage_error  # noqa: E402

CLI = os.path.abspath(os.environ.get("DMK_CLI") or sys.argv[1])
QUICK = ["--size", "16MiB", "--test", "RND4K Q32T1", "--passes", "1", "--measure", "0.2",
         "--warmup", "0", "--interval", "0", "--quiet"]


class Dir(dmktest.Dir):
    prefix = "uring-"


def run(args, env=None, timeout=120):
    return dmktest.run_cli(CLI, args, timeout, env=env)


def run_json(d, extra):
    r = run(["run", "--target", d, "--backend", "io_uring", "--json", "-"] + QUICK + extra)
    check(r.returncode == 0, f"{extra}: exit {r.returncode}: {r.stderr}")
    doc = json.loads(r.stdout)
    check(doc["backend"] == "io_uring", f"backend {doc['backend']}")
    check(all(t["iops"] > 0 for t in doc["results"]), "no I/O measured")
    check(os.listdir(d) == [], f"left in the target: {os.listdir(d)}")
    return doc


def test_verify():
    """Writes read back through registered buffers match what was written."""
    with Dir() as d:
        doc = run_json(d, ["--verify"])
        return f"{len(doc['results'])} results, verified"


def test_sqpoll():
    with Dir() as d:
        run_json(d, ["--io-uring-sqpoll", "50"])


def test_option_refusals():
    args = ["run", "--target", ".", "--io-uring-sqpoll", "10"]
    check_usage_error(run(args), args, ["add --backend io_uring"])
    args = ["run", "--target", ".", "--backend", "io_uring", "--io-uring-hipri", "maybe"]
    check_usage_error(run(args), args, ["--io-uring-hipri 'maybe': expected on or off"])
    args = ["run", "--target", ".", "--backend", "io_uring", "--io-uring-sqpoll", "70000"]
    check_usage_error(run(args), args, ["--io-uring-sqpoll"])


def setup_failure(kind, needles):
    with Dir() as d:
        r = run(["run", "--target", d, "--backend", "io_uring"] + QUICK,
                env={"DMK_TEST_URING_FAIL": kind})
        check(r.returncode != 0, f"{kind}: exit 0")
        for n in ["io_uring_queue_init for a queue of", "--backend libaio"] + needles:
            check(n in r.stderr, f"{kind}: stderr lacks {n!r}: {r.stderr}")
        check(os.listdir(d) == [], f"left in the target: {os.listdir(d)}")
        return r.stderr.strip().splitlines()[-1]


def test_no_io_uring():
    return setup_failure("ENOSYS", ["has no io_uring", "Function not implemented"])


def test_io_uring_disabled():
    return setup_failure("EPERM", ["kernel.io_uring_disabled", "Operation not permitted"])


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
