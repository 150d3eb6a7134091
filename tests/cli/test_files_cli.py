#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""drivemark-cli's file-set test (files) on real files under the build
dir: a small run's report and result files, nothing left after success,
SIGINT, SIGTERM and SIGHUP during the copies, the null backend refused, the free-space refusal, and what
SIGKILL leaves: named by the next run, removed by --remove-leftover.
Prints TAP.

    test_files_cli.py DRIVEMARK_CLI"""

import glob
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import check, read_csv  # noqa: E402

CLI = os.environ.get("DMK_CLI") or sys.argv[1]
STEPS = ["ISO copy", "Program copy", "Work copy", "Work archive", "Work extract"]


class Dir(dmktest.Dir):
    prefix = "filescli-"


def run(args, timeout=300):
    return dmktest.run_cli(CLI, args, timeout)


def left(d):
    return glob.glob(os.path.join(d, "drivemark-files.*"))


def test_small_run():
    with Dir() as d:
        c, j = os.path.join(d, "r.csv"), os.path.join(d, "r.json")
        r = run(["files", "--size", "16M", "--target", d, "--quiet", "--csv", c, "--json", j])
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        for step in STEPS:
            check(step in r.stdout, f"{step} not in the report: {r.stdout}")
        check("file sets of 16 MiB each" in r.stdout, r.stdout)
        tests = [x["label"] for x in read_csv(c) if x["record"] == "test"]
        check(tests == STEPS, f"tests {tests}")
        rows = {(x["label"], x["finding"]): x for x in read_csv(c) if x["record"] == "finding"}
        check(rows[("Work archive", "files.cpu")]["unit"] == "s", rows)
        doc = json.load(open(j, encoding="utf-8"))
        check(doc["lab"] == "files" and len(doc["findings"]["files"]) == 5, doc["findings"])
        check(all(x["size_bytes"] == 16 << 20 for x in doc["findings"]["files"]), doc["findings"])
        check(sorted(os.listdir(d)) == ["r.csv", "r.json"], os.listdir(d))
        s = run(["show", c])
        check(s.returncode == 0 and "Work extract" in s.stdout, s.stdout + s.stderr)


def start(d, size="256M"):
    return subprocess.Popen([CLI, "files", "--size", size, "--target", d, "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_copying(proc, d, seconds=120):
    """Until the first copy is under way: its folder exists."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if glob.glob(os.path.join(d, "drivemark-files.*", "ISO-copy")):
            return
        if proc.poll() is not None:
            raise AssertionError(f"ended early: {proc.returncode} {proc.stderr.read()}")
        time.sleep(0.02)
    raise AssertionError("the copy never started")


def signalled(sig, code):
    with Dir() as d:
        proc = start(d)
        try:
            wait_copying(proc, d)
            proc.send_signal(sig)
            out, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        check(proc.returncode == code, f"exit {proc.returncode}: {err}")
        check(left(d) == [], f"left behind: {left(d)}")
        check(os.listdir(d) == [], os.listdir(d))


def test_sigint_during_copy():
    signalled(signal.SIGINT, 130)


def test_sigterm_during_copy():
    signalled(signal.SIGTERM, 143)


def test_sighup_during_copy():
    signalled(signal.SIGHUP, 129)


def test_in_memory_backend_refused():
    """The null backend keeps nothing: the test says so and writes nothing."""
    with Dir() as d:
        r = run(["files", "--size", "16M", "--target", d, "--backend", "null", "--quiet"])
        check(r.returncode == 1, f"exit {r.returncode}: {r.stderr}")
        check("works on real files" in r.stderr and "null backend" in r.stderr, r.stderr)
        check(os.listdir(d) == [], os.listdir(d))


def test_free_space_refusal():
    with Dir() as d:
        r = run(["files", "--size", "1P", "--target", d, "--quiet"])
        check(r.returncode == 1, f"exit {r.returncode}: {r.stderr}")
        check("need 8.00 PiB free in" in r.stderr and "choose a smaller size" in r.stderr, r.stderr)
        check(os.listdir(d) == [], os.listdir(d))


def test_sigkill_leaves_named_dir():
    with Dir() as d:
        proc = start(d)
        try:
            wait_copying(proc, d)
            for pid in dmktest.family(proc.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        # the child may need a moment to go after its parent
        end = time.monotonic() + 30
        while time.monotonic() < end and any(dmktest.family(proc.pid)[1:]):
            time.sleep(0.05)
        dirs = left(d)
        check(len(dirs) == 1, f"after SIGKILL: {os.listdir(d)}")
        r = run(["files", "--size", "16M", "--target", d, "--quiet"])
        check(r.returncode == 1, f"exit {r.returncode}: {r.stderr}")
        check(f"{os.path.basename(dirs[0])} was left by an earlier file-set run" in r.stderr and
              "--remove-leftover" in r.stderr, r.stderr)
        check(left(d) == dirs, "the next run touched it")
        r = run(["files", "--size", "16M", "--target", d, "--remove-leftover"])
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        check(f"removed {dirs[0]}, which an earlier run left" in r.stderr, r.stderr)
        check(os.listdir(d) == [], os.listdir(d))


def test_usage():
    r = run(["mixed", "--remove-leftover"])
    dmktest.check_usage_error(r, ["mixed", "--remove-leftover"], ["applies to the files test only"],
                              hint=True)
    r = run(["files", "--duration", "5"])
    check(r.returncode == 2 and "--duration" in r.stderr, r.stderr)


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals()), timed=True))
