#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A stop while a slow drive drains a deep queue, through drivemark-cli
(issue 13, round four). The null backend's --null-serve makes each
queue's drive answer one request at a time, here 500 ms apart, so
RND4K Q32T16 (512 requests in flight, 32 a queue) needs 16 s to drain,
past the guard's 10 s (DMK_GUARD_EXIT_S), after which the parent kills
the child. SIGINT comes once the first test (SEQ1M) has finished: the
progress line shows "[2/2] RND4K Q32T16". The command must end with the
stop's status 130, the JSON and CSV must hold the finished SEQ1M test,
and the guard must not have killed it ("did not end within": the parent
gave up, the child wrote nothing).

Waits for states (the progress line, the process's end); the only clock
bound is WAIT_S, far above the guard's own bound. Prints TAP.

    test_drain.py DRIVEMARK_CLI"""

import csv
import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import check  # noqa: E402
from test_stall import Command, WAIT_S  # noqa: E402


class Dir(dmktest.Dir):
    prefix = "drain-"


def stop_slow_drain(sig, status):
    with Dir() as d:
        out_json = os.path.join(d, "r.json")
        out_csv = os.path.join(d, "r.csv")
        cmd = Command(["run", "--target", d, "--backend", "null", "--null-latency", "100",
                       "--null-serve", "500000", "--size", "16MiB", "--test", "SEQ1M Q1T1",
                       "--test", "RND4K Q32T16", "--mode", "write", "--passes", "1",
                       "--measure", "8", "--warmup", "0", "--interval", "0",
                       "--json", out_json, "--csv", out_csv])
        try:
            cmd.wait_for("[2/2] RND4K Q32T16")
            cmd.proc.send_signal(sig)
            cmd.finish(WAIT_S)
        finally:
            cmd.close()
        err = cmd.text()
        rc = cmd.proc.returncode
        check(rc == status, f"exit {rc}, expected {status}: {err[-800:]!r}")
        check("did not end within" not in err, f"the guard killed the run: {err[-800:]!r}")
        check("stuck" not in err, f"said to be stuck: {err[-800:]!r}")
        check(os.path.exists(out_json), f"no JSON written: {err[-800:]!r}")
        with open(out_json) as f:
            res = json.load(f)
        names = json.dumps(res)
        check("SEQ1M" in names, f"the finished test is not in the JSON: {names[:800]}")
        check(os.path.exists(out_csv), "no CSV written")
        with open(out_csv, newline="") as f:
            rows = list(csv.reader(f))
        check(any("SEQ1M" in ",".join(r) for r in rows), f"not in the CSV: {rows[:5]}")
        return f"exit {rc}; " + (err.strip().splitlines() or [""])[-1][-200:]


def test_sigint_during_slow_drain():
    return stop_slow_drain(signal.SIGINT, 130)


def test_sigterm_during_slow_drain():
    return stop_slow_drain(signal.SIGTERM, 143)


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
