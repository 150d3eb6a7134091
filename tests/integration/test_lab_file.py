#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The review-lab commands on a real file system (libaio, a temp dir under
the build dir, never tmpfs), shortened to seconds: each runs to exit 0,
its CSV loads back (`show` prints the lab report again), holds what the
run did (tests, labels, samples, temperatures), and nothing is left in the
target. As root, recovery and a full-span write without --size also run
on a small loop-mounted ext4, so FITRIM touches only that file system.
Prints TAP.

    test_lab_file.py DRIVEMARK_CLI [GROUP]

GROUP is "file" (every command but latency) or "latency" (its 48 steps
take half a minute); without it, both."""

import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import NATIVE, Skip, check, read_csv  # noqa: E402

CLI = os.environ.get("DMK_CLI") or sys.argv[1]
GROUP = sys.argv[2] if len(sys.argv) > 2 else ""
MIB = 1 << 20


def run(args, timeout=180, prefix=()):
    return dmktest.run_cli(CLI, args, timeout, prefix=prefix)


class Dir(dmktest.Dir):
    """A fresh directory on the build dir's (real) file system."""

    prefix = "lab-"


def target_in(d):
    """A fresh target directory, d/t."""
    target = os.path.join(d, "t")
    os.mkdir(target)
    return target


def lab(cmd, target, args, d, prefix=(), name=None):
    """Runs a lab command on target with --csv and --json into d; returns
    (stdout, CSV rows, JSON document, CSV path)."""
    name = name or cmd
    c, j = os.path.join(d, name + ".csv"), os.path.join(d, name + ".json")
    t0 = time.monotonic()
    r = run([cmd, "--target", target, "--quiet", "--csv", c, "--json", j] + args, prefix=prefix)
    lab.took = time.monotonic() - t0
    print(f"# {cmd} {' '.join(args)}: exit {r.returncode} in {lab.took:.1f} s")
    check(r.returncode == 0, f"{cmd}: exit {r.returncode}: {r.stderr}")
    check(r.stderr == "", f"{cmd}: stderr {r.stderr!r}")
    entries = [e for e in os.listdir(target) if e != "lost+found"]
    check(entries == [], f"{cmd} left {entries} in {target}")
    return r.stdout, read_csv(c), json.load(open(j, encoding="utf-8")), c


def tests_of(rows):
    """[(test row, [pass rows], [sample rows])] in file order (the finding
    rows after them left out: check_common looks at those)."""
    out = []
    for row in rows:
        if row["record"] == "test":
            out.append((row, [], []))
        else:
            check(out, f"a {row['record']} row before any test row")
            if row["record"] != "finding":
                out[-1][1 if row["record"] == "pass" else 2].append(row)
    return out


def check_common(cmd, rows, doc, target, period):
    """What every lab CSV holds, whatever the command."""
    check(rows, f"{cmd}: an empty CSV")
    for row in rows:
        check(row["schema"] == "8", f"schema {row['schema']}")
        check(row["lab"] == cmd and row["profile"] == cmd, f"lab {row['lab']!r}")
        check(row["backend"] == NATIVE and row["target"] == target, "context")
        check(row["complete"] == "1", "complete")
    check(doc["lab"] == cmd and doc["complete"] is True, "JSON lab, complete")
    # What the analysis found, saved (schema 6) and in the JSON alike.
    found = [r for r in rows if r["record"] == "finding"]
    check(found and doc.get("findings"), f"{cmd}: no findings saved")
    sensor = doc["temp_sensor"]
    check(rows[0]["temp_sensor"] == sensor, "the same sensor in CSV and JSON")
    for test, passes, samples in tests_of(rows):
        check(test["partial"] == "0", f"{test['label']}: partial")
        check(len(passes) == 1 and passes[0]["pass"] == "1", f"{test['label']}: one pass")
        check(samples, f"{test['label']}: no samples")
        times = [float(s["t_s"]) for s in samples]
        for k, t in enumerate(times):
            # periods of `period` s; the last may end early (a test that ends by bytes)
            if k < len(times) - 1:
                check(abs(t - period * (k + 1)) < 1e-6, f"{test['label']}: t_s {times}")
            else:
                check(period * k < t <= period * (k + 1) + 1e-6, f"{test['label']}: {times}")
        for s in samples:
            check(s["label"] == test["label"] and s["test"] == test["test"], "sample identity")
            if sensor:
                check(s["temp_c"] != "" and -60 <= float(s["temp_c"]) <= 200,
                      f"temp_c {s['temp_c']!r} with a sensor")
            else:
                check(s["temp_c"] == "", f"temp_c {s['temp_c']!r} without a sensor")
    return sensor


def check_report(cmd, title, out, csv_path, sensor):
    """The run's report, and `show` of its CSV printing it again."""
    first = out.splitlines()[0] if out else ""
    check(first.startswith(f"{title} on "), f"{cmd}: report begins {first!r}")
    if not sensor:
        check("no temperature sensor" in out or cmd in ("mixed", "latency"),
              f"{cmd}: report without 'no temperature sensor': {out}")
    r = run(["show", csv_path])
    check(r.returncode == 0 and r.stderr == "", f"show {cmd}: {r.returncode} {r.stderr}")
    check(r.stdout.splitlines()[:1] == [first], f"show {cmd}: {r.stdout[:300]!r}")
    # the analysis reads only the result: the file's report is the run's
    # (numbers rounded as the CSV keeps them aside)
    # The run's storage and cache notes ("Note: storage: ...", "Note:
    # cache: ...") are in the live report and JSON only: the CSV keeps
    # the flags they explain, not their text (results.md).
    lines = [ln.split(":")[0] for ln in out.splitlines()
             if not ln.startswith(("Note: storage:", "Note: cache:"))]
    shown = [ln.split(":")[0] for ln in r.stdout.splitlines()]
    check(lines == shown, f"show {cmd} printed another report:\n{r.stdout}\nvs\n{out}")
    return r.stdout


# ---- the commands on a temp dir ------------------------------------------------


def test_sustained():
    with Dir() as d:
        target = target_in(d)
        # filled first, then 1 s to settle
        out, rows, doc, c = lab("sustained", target, ["--size", "64MiB", "--duration", "3",
                                                      "--sample", "0.5", "--settle", "1"], d)
        check(lab.took >= 4.0, f"a 1 s settle and 3 s of writes took {lab.took:.1f} s")
        sensor = check_common("sustained", rows, doc, target, 0.5)
        tests = tests_of(rows)
        check(len(tests) == 1, f"{len(tests)} tests")
        test, passes, samples = tests[0]
        check(test["test"] == "RND4K Q32T1" and test["mode"] == "write", "the write")
        check(test["label"] == "sustained", f"label {test['label']!r}")
        check([s["t_s"] for s in samples] == ["0.500", "1.000", "1.500", "2.000", "2.500",
                                              "3.000"], f"samples {[s['t_s'] for s in samples]}")
        check(all(float(s["iops"]) > 0 for s in samples), "a sample without I/O")
        check(doc["test_size"] == 64 * MIB, "test size")
        res = doc["results"][0]
        check(abs(res["bytes"] / 3.0 / 1e6 - res["mb_s"]) < 0.01 * res["mb_s"] + 0.01,
              f"{res['bytes']} bytes in 3 s is not {res['mb_s']} MB/s")
        shown = check_report("sustained", "Sustained write", out, c, sensor)
        check("RND4K Q32T1 write, sustained:" in shown, shown)
        check("sampled every 0.5 s" in shown, shown)


def test_fullspan_size():
    with Dir() as d:
        target = target_in(d)
        out, rows, doc, c = lab("fullspan", target, ["--size", "128MiB", "--sample", "0.5"], d)
        sensor = check_common("fullspan", rows, doc, target, 0.5)
        tests = tests_of(rows)
        check(len(tests) == 1 and tests[0][0]["label"] == "full span", "one full-span test")
        check(tests[0][0]["test"] == "SEQ1M Q8T1", tests[0][0]["test"])
        res = doc["results"][0]
        # it ends by bytes: the whole file once
        check(res["bytes"] == 128 * MIB and res["ios"] == 128,
              f"{res['bytes']} bytes in {res['ios']} I/Os")
        check(doc["test_size"] == 128 * MIB, "test size")
        tl = res["timeline"]
        secs = res["bytes"] / (res["mb_s"] * 1e6)
        check(abs(tl[-1]["t_s"] - secs) < 0.002 + 0.001 * secs,
              f"the last sample ends at {tl[-1]['t_s']}, the write took {secs:.3f} s")
        written, prev = 0.0, 0.0
        for s in tl:
            written += s["mb_s"] * 1e6 * (s["t_s"] - prev)
            prev = s["t_s"]
        check(abs(written - res["bytes"]) < 0.01 * res["bytes"],
              f"samples add up to {written:.0f} bytes")
        check_report("fullspan", "Full-span write", out, c, sensor)


def test_mixed():
    with Dir() as d:
        target = target_in(d)
        out, rows, doc, c = lab("mixed", target, ["--size", "64MiB", "--step", "0.5", "--sample",
                                                  "0.5", "--warmup", "0"], d)
        check_common("mixed", rows, doc, target, 0.5)
        tests = tests_of(rows)
        shares = [0, 20, 40, 60, 80, 100]
        check([t["test"] for t, _, _ in tests] == ["SEQ128K Q1T2"] * 6 + ["RND4K Q1T4"] * 6,
              f"tests {[t['test'] for t, _, _ in tests]}")
        check([t["label"] for t, _, _ in tests] == [f"{s} % read" for s in shares] * 2,
              "labels")
        check([int(t["read_share"]) for t, _, _ in tests] == shares * 2, "read shares")
        check(all(t["mode"] == "mix" for t, _, _ in tests), "mixed mode")
        check(all(len(s) == 1 and s[0]["t_s"] == "0.500" for _, _, s in tests),
              "one sample per step")
        for x in doc["results"]:
            ios = x["read"]["ios"] + x["write"]["ios"]
            check(ios > 0, f"{x['label']}: no I/O")
            share = 100.0 * x["read"]["ios"] / ios
            tol = 0 if x["read_share"] in (0, 100) else 12
            check(abs(share - x["read_share"]) <= tol,
                  f"{x['test']} {x['label']}: {share:.1f} % reads in {ios} I/Os")
        shown = check_report("mixed", "Mixed load", out, c, "")
        check("Read share" in shown and "Average" in shown, shown)


def test_recovery_unprivileged():
    """TRIM where FITRIM is refused: as another user when root, else as is."""
    with Dir() as d:
        prefix = ()
        if os.geteuid() == 0:
            if not shutil.which("setpriv"):
                raise Skip("root, and no setpriv to run as another user")
            # nobody may write only these two
            os.chmod(d, 0o755)
            prefix = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--")
        target, out_dir = os.path.join(d, "t"), os.path.join(d, "out")
        for p in (target, out_dir):
            os.mkdir(p)
            os.chmod(p, 0o777)
        out, rows, doc, c = lab("recovery", target,
                                ["--size", "64MiB", "--duration", "2", "--step", "0.5", "--idle",
                                 "1", "--sample", "0.5", "--settle", "0"], out_dir, prefix=prefix)
        sensor = check_common("recovery", rows, doc, target, 0.5)
        tests = tests_of(rows)
        check([t["label"] for t, _, _ in tests] ==
              ["fresh", "degradation", "degraded", "after idle", "after TRIM"],
              f"steps {[t['label'] for t, _, _ in tests]}")
        check([len(s) for _, _, s in tests] == [1, 4, 1, 1, 1],
              f"samples per step {[len(s) for _, _, s in tests]}")
        note = doc["lab_note"]
        check(rows[0]["lab_note"] == note, "the note in CSV and JSON")
        check(note.startswith("TRIM: punched 64 MiB out of the test file."), note)
        check("FITRIM on " in note and "was not permitted" in note and "CAP_SYS_ADMIN" in note,
              f"note {note!r}")
        shown = check_report("recovery", "Recovery", out, c, sensor)
        for label in ("fresh", "degraded", "after idle", "after TRIM"):
            check(f"\n{label:<12} " in "\n" + shown and "not measured" not in shown, shown)
        check(note in shown, "the note in the report")


# ---- on a loop-mounted ext4 (root) -----------------------------------------------


class LoopFs:
    """A 96 MiB ext4 loop-mounted under d; unmounted whatever happens."""

    def __init__(self, d):
        self.img, self.mnt = os.path.join(d, "fs.img"), os.path.join(d, "mnt")

    def __enter__(self):
        if os.geteuid() != 0 or not shutil.which("mkfs.ext4"):
            raise Skip("needs root and mkfs.ext4 for a loop-mounted file system")
        os.mkdir(self.mnt)
        with open(self.img, "wb") as f:
            f.truncate(96 * MIB)
        subprocess.run(["mkfs.ext4", "-q", "-F", self.img], check=True)
        m = subprocess.run(["mount", "-o", "loop", self.img, self.mnt], capture_output=True,
                           text=True)
        if m.returncode != 0:
            raise Skip(f"loop mount not allowed here: {m.stderr.strip()}")
        return self.mnt

    def __exit__(self, *exc):
        if os.path.ismount(self.mnt):
            subprocess.run(["umount", self.mnt], check=False)


def free_bytes(path):
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


def test_loop_recovery_fitrim():
    with Dir() as d, LoopFs(d) as mnt:
        out, rows, doc, c = lab("recovery", mnt,
                                ["--size", "32MiB", "--duration", "2", "--step", "0.5", "--idle",
                                 "1", "--sample", "0.5", "--settle", "0"], d)
        sensor = check_common("recovery", rows, doc, mnt, 0.5)
        note = doc["lab_note"]
        check(note.startswith("TRIM: punched 32 MiB out of the test file."), note)
        check(f"FITRIM on {mnt} trimmed " in note and "MiB of free space." in note,
              f"note {note!r}")
        check("not permitted" not in note, note)
        check_report("recovery", "Recovery", out, c, sensor)
        check(os.listdir(mnt) == ["lost+found"], f"left: {os.listdir(mnt)}")


def test_loop_fullspan_free_space():
    with Dir() as d, LoopFs(d) as mnt:
        free = free_bytes(mnt)
        margin = 8 * MIB
        out, rows, doc, c = lab("fullspan", mnt, ["--margin", "8M", "--sample", "0.5"], d)
        sensor = check_common("fullspan", rows, doc, mnt, 0.5)
        size = doc["test_size"]
        print(f"# {free / MIB:.1f} MiB free: a {size / MIB:.0f} MiB file")
        # the free space but the margin and room for the file's metadata
        # (1/64 of it and 4 MiB), in whole MiB
        check(size % MIB == 0, f"test size {size}")
        check(size <= free - margin, f"{size} bytes leave less than the margin of {free}")
        check(size >= (free - margin - 4 * MIB) * 64 / 65 - MIB, f"{size} of {free} bytes")
        res = doc["results"][0]
        check(res["bytes"] == size and res["ios"] == size // MIB,
              f"wrote {res['bytes']} bytes of {size}")
        check(os.listdir(mnt) == ["lost+found"], f"left: {os.listdir(mnt)}")
        check(abs(free_bytes(mnt) - free) <= MIB, "the space came back")
        check_report("fullspan", "Full-span write", out, c, sensor)


# ---- the latency ramp -------------------------------------------------------------


def test_latency():
    with Dir() as d:
        target = target_in(d)
        out, rows, doc, c = lab("latency", target, ["--size", "64MiB", "--step", "0.5",
                                                    "--sample", "0.5", "--warmup", "0"], d)
        sensor = check_common("latency", rows, doc, target, 0.5)
        tests = tests_of(rows)
        check(len(tests) == 48, f"{len(tests)} steps")
        profiles = [("RND4K Q128T1", "read"), ("RND4K Q64T1", "write"),
                    ("SEQ64K Q16T1", "read"), ("SEQ64K Q8T1", "write")]
        pcts = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 120]
        results = doc["results"]
        for i, (name, mode) in enumerate(profiles):
            steps = tests[i * 12:(i + 1) * 12]
            check(all(t["test"] == name and t["mode"] == mode for t, _, _ in steps),
                  f"profile {i}: {[(t['test'], t['mode']) for t, _, _ in steps]}")
            check([t["label"] for t, _, _ in steps] == ["max"] + [f"{p} %" for p in pcts],
                  "labels")
            check(steps[0][0]["rate_iops"] == "", "max runs at full speed (no rate: empty)")
            top = results[i * 12]["iops"]
            for (t, _, s), p in zip(steps[1:], pcts):
                want = top * p / 100
                check(abs(int(t["rate_iops"]) - want) <= 1,
                      f"{name} {t['label']}: rate {t['rate_iops']} of max {top}")
                check(len(s) == 1, f"{name} {t['label']}: {len(s)} samples")
            # a rate-limited step never runs faster than its rate (allowing
            # 4 ms of catching up)
            for x in results[i * 12 + 1:(i + 1) * 12]:
                check(x["iops"] <= x["rate_iops"] * 1.03 + 10,
                      f"{name} {x['label']}: {x['iops']} IOPS for a rate of {x['rate_iops']}")
        shown = check_report("latency", "Latency under load", out, c, sensor)
        check("4KiB random read (RND4K Q128T1, 128 outstanding): peak" in shown, shown)
        check("64KiB sequential write (SEQ64K Q8T1, 8 outstanding): peak" in shown, shown)


# ---- TAP runner ------------------------------------------------------------


def main():
    tests = dmktest.tests_in(globals())
    if GROUP == "latency":
        tests = [(n, f) for n, f in tests if n == "test_latency"]
    elif GROUP == "file":
        tests = [(n, f) for n, f in tests if n != "test_latency"]
    return dmktest.run_tap(tests, timed=True)


if __name__ == "__main__":
    sys.exit(main())
