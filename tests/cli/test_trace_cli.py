#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""drivemark-cli's trace replay (trace) on a small test file under the
build dir: the scores in the report and both result files, the idle-gap
cut (a 2 s gap replayed as 5 ms, by the replay's own figures, not the
wall time), nothing left after success and SIGINT, the starter traces
parse, and a missing or malformed trace refused naming its path.
Prints TAP.

    test_trace_cli.py DRIVEMARK_CLI"""

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
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIRS = ["", "read_", "write_"]
STATS = ["service", "service_p50", "service_p99", "service_p999"]


class Dir(dmktest.Dir):
    prefix = "tracecli-"


def run(args, timeout=120):
    return dmktest.run_cli(CLI, args, timeout)


def open_test_file(pid, d):
    """The test file, as the run (or its child) holds it open: it has no
    name in d (O_TMPFILE, or a name removed at once), so nothing can be
    left there, and it is gone when the last descriptor closes."""
    for p in dmktest.family(pid):
        try:
            fds = os.listdir(f"/proc/{p}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{p}/fd/{fd}")
            except OSError:
                continue
            if target.startswith(d + "/") and not target.endswith((".iolog", ".csv")):
                return target
    return None


def iolog(path, lines):
    with open(path, "w", encoding="ascii") as f:
        f.write("fio version 3 iolog\n0 f add\n0 f open\n" + "".join(x + "\n" for x in lines))


def gap_trace(path):
    """20 reads and 10 writes, then a 2 s idle gap, then as many again."""
    lines, t = [], 100
    for half in range(2):
        for i in range(30):
            op = "write" if i % 3 == 2 else "read"
            lines.append(f"{t} f {op} {(i * 37 % 512) * 4096} {4096 << (i % 4)}")
            t += 50
        t += 2_000_000 if half == 0 else 0
    iolog(path, lines)


def test_scores_and_gap_cut():
    with Dir() as d:
        tr, c, j = (os.path.join(d, n) for n in ("t.iolog", "r.csv", "r.json"))
        gap_trace(tr)
        r = run(["trace", "--trace", tr, "--size", "16M", "--target", d, "--quiet",
                 "--csv", c, "--json", j])
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        for word in ("Read", "Write", "All", "p99.9 ms", "idle gaps cut to 5 ms"):
            check(word in r.stdout, f"{word!r} not in the report: {r.stdout}")
        rows = {x["finding"]: x for x in read_csv(c) if x["record"] == "finding"}
        for k in DIRS:
            for s in STATS:
                check(rows[f"trace.{k}{s}"]["unit"] == "ms", rows.get(f"trace.{k}{s}"))
            check(float(rows[f"trace.{k}speed"]["value"]) > 0, rows[f"trace.{k}speed"])
        doc = json.load(open(j, encoding="utf-8"))
        check(doc["lab"] == "trace", doc["lab"])
        f = doc["findings"]["trace"][0]
        check(f["ios"] == 60 and f["read_ios"] == 40 and f["write_ios"] == 20, f)
        check(all(f[f"{k}{s}_ms"] > 0 for k in DIRS for s in STATS), f)
        # The 2 s gap is cut to 5 ms: the trace's own time holds it, the
        # replay's schedule does not, and the busy time is within that.
        check(f["gaps_cut"] == 1 and f["idle_max_ms"] == 5.0, f)
        check(2.0 <= f["trace_s"] < 2.1, f"trace_s {f['trace_s']}")
        check(f["replayed_s"] < 0.05, f"replayed_s {f['replayed_s']}")
        check(0 < f["busy_s"] <= f["wall_s"], f)
        dmktest.note(f"busy {f['busy_s']} s, replay {f['wall_s']} s, trace {f['trace_s']} s")
        check(sorted(os.listdir(d)) == ["r.csv", "r.json", "t.iolog"], os.listdir(d))
        s = run(["show", c])
        check(s.returncode == 0 and "idle gaps cut to 5 ms" in s.stdout, s.stdout + s.stderr)


def test_threshold_option():
    with Dir() as d:
        tr, j = os.path.join(d, "t.iolog"), os.path.join(d, "r.json")
        iolog(tr, ["0 f read 0 4096", "300000 f read 4096 4096"])
        r = run(["trace", "--trace", tr, "--trace-idle-max", "0.001", "--size", "16M",
                 "--target", d, "--quiet", "--json", j])
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        f = json.load(open(j, encoding="utf-8"))["findings"]["trace"][0]
        check(f["idle_max_ms"] == 1.0 and f["gaps_cut"] == 1, f)
        check(abs(f["replayed_s"] - 0.001) < 1e-6, f)


def test_v2_wait_cut():
    """Version 2 has no times: its wait (2 s after the start) is the idle
    time, cut the same way."""
    with Dir() as d:
        tr, j = os.path.join(d, "v2.iolog"), os.path.join(d, "r.json")
        with open(tr, "w", encoding="ascii") as f:
            f.write("fio version 2 iolog\nf add\nf open\nf read 0 4096\nf write 8192 4096\n"
                    "f wait 2000 0\nf read 4096 4096\nf close\n")
        r = run(["trace", "--trace", tr, "--size", "16M", "--target", d, "--quiet", "--json", j])
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        f = json.load(open(j, encoding="utf-8"))["findings"]["trace"][0]
        check(f["ios"] == 3 and f["read_ios"] == 2 and f["write_ios"] == 1, f)
        check(f["gaps_cut"] == 1 and abs(f["trace_s"] - 2.0) < 1e-6, f)
        check(abs(f["replayed_s"] - 0.005) < 1e-6, f)


def null_replay(d, lines, *extra):
    tr, j = os.path.join(d, "k.iolog"), os.path.join(d, "k.json")
    iolog(tr, lines)
    r = run(["trace", "--trace", tr, "--backend", "null", "--null-clock", "simulated",
             "--null-latency", "100", *extra, "--size", "16M", "--target", d, "--quiet",
             "--json", j])
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    return json.load(open(j, encoding="utf-8"))["findings"]["trace"][0]


def test_known_answers_null():
    """The null backend's simulated clock: 100 reads of 64 KiB issued at
    once, served one at a time 100 us apart, keep the drive busy 10 ms:
    655.36 MB/s exactly; ten reads 1 s apart replay in 9 x 5 ms, busy 1 ms,
    each served in 100 us."""
    with Dir() as d:
        f = null_replay(d, [f"0 f read {i * 65536} 65536" for i in range(100)],
                        "--null-serve", "100")
        check(f["speed_mb_s"] == 655.36 and f["busy_s"] == 0.01, f)
        check(f["write_ios"] == 0 and f["write_service_ms"] is None, f)
        f = null_replay(d, [f"{i * 1000000} f read {i * 65536} 65536" for i in range(10)])
        check(f["speed_mb_s"] == 655.36 and f["busy_s"] == 0.001, f)
        check(f["gaps_cut"] == 9 and f["trace_s"] == 9.0 and f["replayed_s"] == 0.045, f)
        check(f["service_ms"] == 0.1 and f["service_p999_ms"] == 0.1, f)


def test_starter_traces():
    for name in ("office.iolog", "copy.iolog"):
        path = os.path.join(SRC, "data", "traces", name)
        with Dir() as d:
            j = os.path.join(d, "r.json")
            r = run(["trace", "--trace", path, "--backend", "null", "--size", "1G",
                     "--target", d, "--quiet", "--json", j])
            check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr}")
            f = json.load(open(j, encoding="utf-8"))["findings"]["trace"][0]
            check(f["read_ios"] > 0 and f["write_ios"] > 0, f"{name}: {f}")


def test_sigint_removes_the_test_file():
    with Dir() as d:
        tr, c = os.path.join(d, "slow.iolog"), os.path.join(d, "r.csv")
        iolog(tr, [f"{i * 200000} f read {i * 4096} 4096" for i in range(300)])
        proc = subprocess.Popen([CLI, "trace", "--trace", tr, "--trace-idle-max", "60",
                                 "--size", "16M", "--target", d, "--quiet", "--csv", c],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            end = time.monotonic() + 60
            held = None
            while time.monotonic() < end and not held:
                check(proc.poll() is None, f"ended early: {proc.returncode}")
                held = open_test_file(proc.pid, d)
                time.sleep(0.02)
            check(held, "the run never opened its test file")
            dmktest.note(f"test file held: {held}")
            time.sleep(1.5)  # the fill is done, the replay (a minute) under way
            check(proc.poll() is None, f"ended early: {proc.returncode}")
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=45)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        check(proc.returncode == 130, f"exit {proc.returncode} after SIGINT: {err}")
        check("Stopped before the end" in out, out)
        left = sorted(set(os.listdir(d)) - {"slow.iolog", "r.csv"})
        check(left == [], f"left after SIGINT: {left}; {err}")
        # No process of the run (its child included) holds the file still.
        pids = [int(x) for x in os.listdir("/proc") if x.isdigit()]
        still = [p for p in pids if open_test_file(p, d) and p != os.getpid()]
        check(still == [], f"the test file is still held by {still}")


def test_bad_traces_named():
    with Dir() as d:
        missing = os.path.join(d, "nothing.iolog")
        r = run(["trace", "--trace", missing, "--size", "16M", "--target", d, "--quiet"])
        check(r.returncode != 0 and missing in r.stderr, f"{r.returncode}: {r.stderr}")
        bad = os.path.join(d, "bad.iolog")
        with open(bad, "w", encoding="ascii") as f:
            f.write("fio version 3 iolog\n5 f read 0 512\nnot a line\n")
        r = run(["trace", "--trace", bad, "--size", "16M", "--target", d, "--quiet"])
        check(r.returncode != 0 and f"{bad} line 3" in r.stderr, f"{r.returncode}: {r.stderr}")
        r = run(["trace", "--size", "16M", "--target", d, "--quiet"])
        check(r.returncode != 0 and "--trace" in r.stderr, f"{r.returncode}: {r.stderr}")
        check(sorted(os.listdir(d)) == ["bad.iolog"], os.listdir(d))
        r = run(["sustained", "--trace", bad, "--target", d])
        check(r.returncode != 0 and "--trace does not apply to sustained" in r.stderr, r.stderr)


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals()), timed=True))
