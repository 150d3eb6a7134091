#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""drivemark-cli as a user drives it: exit codes, messages, JSON and CSV
output that agree, signals, and no test file left behind. Prints TAP."""

import json
import os
import pty
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check, parse_csv  # noqa: E402

CLI = os.environ.get("DMK_CLI") or sys.argv[1]
VERSION = os.environ.get("DMK_VERSION", "")

# Small and short, as the whole suite must be.
QUICK = ["--size", "64MiB", "--passes", "1", "--measure", "1", "--warmup", "0",
         "--interval", "0", "--quiet"]


def run(args, timeout=120, env=None):
    return dmktest.run_cli(CLI, args, timeout, env=env)


class Dir(dmktest.Dir):
    """A fresh directory on the build dir's (real) file system."""

    prefix = "cli-"


def usage_error(args, *needles):
    dmktest.check_usage_error(run(args), args, needles)


# ---- tests ---------------------------------------------------------------


def test_help_and_version():
    r = run(["--help"])
    check(r.returncode == 0, "--help exit")
    for opt in ["--target", "--profile", "--test", "--size", "--json", "--csv", "MB/s", "sweep qd|bs",
                "--qd", "--bs-list", "show", "chart", "--metric", "--out"]:
        check(opt in r.stdout, f"--help lacks {opt}")
    r = run(["--version"])
    check(r.returncode == 0 and r.stdout.strip() == f"drivemark-cli {VERSION}",
          f"--version printed {r.stdout!r}")


def test_usage_errors():
    usage_error([], "no command")
    usage_error(["bogus"], "unknown command 'bogus'")
    usage_error(["run", "--bogus"], "unknown option '--bogus'")
    usage_error(["run", "--size"], "needs a value")
    for bad in ["0", "-1", "4KB", "1MB", "18446744073709551616", "16E", "12x", "8MiB",
                "65GiB", ""]:
        usage_error(["run", "--size", bad], f"--size '{bad}'", "16 MiB to 64 GiB")
    usage_error(["run", "--passes", "0"], "--passes '0'", "1 to 9")
    usage_error(["run", "--passes", "10"], "--passes '10'")
    usage_error(["run", "--measure", "0"], "--measure '0'")
    usage_error(["run", "--measure", "abc"], "--measure 'abc'")
    usage_error(["run", "--warmup", "-1"], "--warmup '-1'")
    usage_error(["run", "--test", "RND4K Q0T1"], "queue depth out of range")
    usage_error(["run", "--test", "RND4K Q100000T1"], "RND4K Q100000T1")
    usage_error(["run", "--test", "RND4K Q1T0"], "thread count out of range")
    usage_error(["run", "--test", "SEQ3K Q1T1"], "power of two")
    usage_error(["run", "--test", "FOO"], "SEQ or RND")
    usage_error(["run", "--profile", "fast"], "--profile 'fast'", "default, peak, real")
    usage_error(["run", "--mode", "both"], "--mode 'both'")
    usage_error(["run", "--data", "ones"], "--data 'ones'")
    usage_error(["run", "--read-share", "101", "--mode", "mix"], "0 to 100")
    usage_error(["run", "--read-share", "50"], "--read-share needs --mode mix")
    usage_error(["run", "--backend", "spdk"], "--backend 'spdk'")
    usage_error(["run", "--size", "16MiB", "--test", "SEQ64M Q1T1"], "larger than")
    usage_error(["--size", "1G", "run"], "belongs after a command")
    usage_error(["run", "--quiet=1"], "takes no value")


def test_run_json_and_csv_agree():
    with Dir() as d:
        j, c = os.path.join(d, "r.json"), os.path.join(d, "r.csv")
        target = os.path.join(d, "t")
        os.mkdir(target)
        r = run(["run", "--target", target, "--profile", "demo", "--json", j, "--csv", c] + QUICK)
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        check("[Read]" in r.stdout and "[Write]" in r.stdout and "MB/s" in r.stdout,
              f"table: {r.stdout}")
        doc = json.load(open(j, encoding="utf-8"))
        check(doc["complete"] is True and doc["version"] == VERSION, "json context")
        check(doc["test_size"] == 64 << 20 and doc["passes"] == 1, "json sizes")
        check(doc["backend"] == "libaio" and doc["file_system"] != "", "json target")
        res = doc["results"]
        check([(x["test"], x["mode"]) for x in res] == [("SEQ1M Q8T1", "read"),
                                                         ("SEQ1M Q8T1", "write")],
              f"json tests {res}")
        for x in res:
            check(x["mb_s"] > 0 and x["iops"] > 0 and x["lat_mean_us"] > 0, "json numbers")
            check(x["block_size"] == 1 << 20 and x["queue_depth"] == 8 and x["threads"] == 1,
                  "json params")
            check(len(x["passes"]) == 1 and x["passes"][0]["mb_s"] == x["mb_s"], "json passes")
            # MB/s is decimal and consistent with IOPS x block size
            check(abs(x["mb_s"] - x["iops"] * x["block_size"] / 1e6) < 0.01 * x["mb_s"] + 0.01,
                  f"mb_s {x['mb_s']} vs iops {x['iops']}")
        rows = parse_csv(open(c, encoding="utf-8", newline="").read())
        tests = [r for r in rows if r["record"] == "test"]
        check(len(tests) == 2, f"csv test rows {len(tests)}")
        for row, x in zip(tests, res):
            check(row["schema"] == "8" and row["test"] == x["test"] and row["mode"] == x["mode"],
                  "csv identity")
            for k in ["mb_s", "mb_s_median", "iops", "lat_mean_us", "lat_p99_us"]:
                check(float(row[k]) == x[k], f"csv {k} {row[k]} != json {x[k]}")
            check(row["target"] == target and row["version"] == VERSION, "csv context")
            # honest numbers: the same in both, a 64 MiB file is peak
            check(float(row["achieved_qd"]) == x["achieved_qd"] and x["achieved_qd"] > 0,
                  f"achieved_qd {row['achieved_qd']} vs {x['achieved_qd']}")
            check(row["flags"].split() == x["flags"] and x["flags"][0] == "peak",
                  f"flags {row['flags']!r} vs {x['flags']}")
            check((row["cow"], row["compression"], row["interface"]) ==
                  (doc["cow"], doc["compression"], doc["interface"]), "csv cow/link")
        check(os.listdir(target) == [], f"left behind: {os.listdir(target)}")


def test_json_to_stdout_moves_table_to_stderr():
    with Dir() as d:
        r = run(["run", "--target", d, "--test", "RND4K Q32T1", "--mode", "read", "--json", "-"]
                + QUICK)
        check(r.returncode == 0, r.stderr)
        doc = json.loads(r.stdout)
        check(doc["results"][0]["test"] == "RND4K Q32T1", "json on stdout")
        check("[Read]" in r.stderr, "table on stderr")
        check(os.listdir(d) == [], "no file left")


def test_mix_mode():
    with Dir() as d:
        r = run(["run", "--target", d, "--test", "RND4K Q8T1", "--mode", "mix", "--read-share",
                 "60", "--json", "-"] + QUICK)
        check(r.returncode == 0, r.stderr)
        x = json.loads(r.stdout)["results"][0]
        check(x["mode"] == "mix" and x["read_share"] == 60, "mix params")
        share = x["read"]["ios"] / (x["read"]["ios"] + x["write"]["ios"])
        check(0.5 < share < 0.7, f"read share {share}")
        check(abs(x["read"]["mb_s"] + x["write"]["mb_s"] - x["mb_s"]) < 0.01, "sum of directions")


def test_timeline():
    with Dir() as d:
        r = run(["run", "--target", d, "--test", "SEQ1M Q4T1", "--mode", "write", "--timeline",
                 "0.25", "--json", "-"] + QUICK)
        check(r.returncode == 0, r.stderr)
        tl = json.loads(r.stdout)["results"][0]["timeline"]
        check([s["t_s"] for s in tl] == [0.25, 0.5, 0.75, 1.0], f"timeline {tl}")


def test_missing_target():
    with Dir() as d:
        missing = os.path.join(d, "nope")
        j = os.path.join(d, "out.json")
        r = run(["run", "--target", missing, "--json", j] + QUICK)
        check(r.returncode == 1, f"exit {r.returncode}")
        check(missing in r.stderr and "No such file or directory" in r.stderr, r.stderr)
        check(not os.path.exists(missing), "created the missing directory")
        check(not os.path.exists(j), "left an empty result file")


def test_unwritable_output():
    with Dir() as d:
        bad = os.path.join(d, "no-such-dir", "r.json")
        # a benchmark of ten minutes: run first, it would meet run()'s
        # timeout; refused first, it takes a moment however busy the
        # machine, far under the bound (a bound for the benchmark, not a
        # timing check)
        slow = ["--size", "64MiB", "--passes", "1", "--measure", "600", "--warmup", "0",
                "--interval", "0", "--quiet"]
        t0 = time.monotonic()
        r = run(["run", "--target", d, "--json", bad] + slow)
        check(r.returncode == 1 and bad in r.stderr, f"{r.returncode}: {r.stderr}")
        check(time.monotonic() - t0 < 60, "failed only after running the benchmark")


def test_tmpfs_refused():
    if os.statvfs("/dev/shm") is None or subprocess.run(
            ["stat", "-f", "-c", "%T", "/dev/shm"], capture_output=True,
            text=True).stdout.strip() != "tmpfs":
        raise Skip("/dev/shm is not a tmpfs here")
    r = run(["run", "--target", "/dev/shm"] + QUICK)
    check(r.returncode == 1 and "RAM-backed" in r.stderr, r.stderr)


def test_small_filesystem_refused():
    if os.geteuid() != 0 or not shutil.which("mkfs.ext4"):
        raise Skip("needs root and mkfs.ext4 for a loop-mounted file system")
    with Dir() as d:
        img, mnt = os.path.join(d, "fs.img"), os.path.join(d, "mnt")
        os.mkdir(mnt)
        with open(img, "wb") as f:
            f.truncate(48 << 20)
        subprocess.run(["mkfs.ext4", "-q", "-F", img], check=True)
        m = subprocess.run(["mount", "-o", "loop", img, mnt], capture_output=True, text=True)
        if m.returncode != 0:
            raise Skip(f"loop mount not allowed here: {m.stderr.strip()}")
        try:
            r = run(["run", "--target", mnt] + QUICK)
            check(r.returncode == 1, f"exit {r.returncode}")
            check("not enough free space" in r.stderr and mnt in r.stderr, r.stderr)
            check(os.listdir(mnt) == ["lost+found"], f"left: {os.listdir(mnt)}")
        finally:
            subprocess.run(["umount", mnt])


def signalled(sig, expected, env=None):
    with Dir() as d:
        e = dict(os.environ)
        e.update(env or {})
        master, slave = pty.openpty()
        proc = subprocess.Popen([CLI, "run", "--target", d, "--size", "256MiB", "--passes", "3",
                                 "--measure", "20"], stdout=subprocess.PIPE, stderr=slave,
                                text=True, env=e)
        os.close(slave)
        try:
            # the timed part reached (the fill done): the progress line
            # shows the first test's warm-up
            dmktest.read_pty_until(master, proc, b" - warm-up ", 60,
                                   "the measurement never began")
            check(os.listdir(d) == [], f"visible while running: {os.listdir(d)}")
            t0 = time.monotonic()
            proc.send_signal(sig)
            dmktest.drain_pty(master)
            proc.communicate(timeout=45)
            took = time.monotonic() - t0
        finally:
            os.close(master)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if expected is not None:
            check(proc.returncode == expected, f"exit {proc.returncode}, expected {expected}")
            # within a second when the machine is quiet, and the engine's
            # stop waits its workers at most 6 s (DMK_STOP_LIMIT_NS) on its
            # clock; past 30 s the signal was not seen (the run would go on
            # for a minute): a bound for a missed signal, not a timing
            # check, so a loaded machine cannot fail it
            check(took < 30.0, f"took {took:.1f} s to stop")
        check(os.listdir(d) == [], f"left behind: {os.listdir(d)}")


def test_sigint():
    signalled(signal.SIGINT, 130)


def test_sigterm():
    signalled(signal.SIGTERM, 143)


def test_sigkill_leaves_nothing():
    signalled(signal.SIGKILL, None)


def test_sigkill_named_fallback():
    signalled(signal.SIGKILL, None, {"DMK_TEST_NO_TMPFILE": "1"})


def test_progress_only_on_a_terminal():
    import pty
    with Dir() as d:
        args = [CLI, "run", "--target", d, "--test", "SEQ1M Q4T1", "--mode", "read", "--size",
                "64MiB", "--passes", "2", "--measure", "0.5", "--warmup", "0", "--interval", "0"]
        # stderr on a pseudo-terminal: the progress line is drawn there
        master, slave = pty.openpty()
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave, text=True)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO once the child has closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        os.close(master)
        proc.wait(timeout=60)
        tty = b"".join(chunks).decode("utf-8", "replace")
        check(proc.returncode == 0, f"exit {proc.returncode}")
        check("Preparing test file" in tty, f"no fill progress on the terminal: {tty!r}")
        check("pass 2/2" in tty and "MB/s" in tty, f"no pass progress: {tty!r}")
        check("\r\033[K" in tty, "progress is not redrawn in place")
        check("[Read]" in proc.stdout.read(), "no table on stdout")
        # stderr a pipe: nothing but what an error would say
        r = run(args[1:])
        check(r.returncode == 0 and r.stderr == "", f"progress on a pipe: {r.stderr!r}")
        # --quiet silences it on a terminal too
        master, slave = pty.openpty()
        proc = subprocess.Popen(args + ["--quiet"], stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        quiet = b""
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                break
            if not data:
                break
            quiet += data
        os.close(master)
        proc.wait(timeout=60)
        check(proc.returncode == 0 and quiet == b"", f"--quiet drew {quiet!r}")


def test_null_backend():
    r = run(["run", "--target", ".", "--backend", "null", "--test", "RND4K Q32T1", "--mode",
             "read", "--json", "-"] + QUICK)
    check(r.returncode == 0, r.stderr)
    doc = json.loads(r.stdout)
    check(doc["backend"] == "null" and doc["results"][0]["iops"] > 100000,
          f"null backend iops {doc['results'][0]['iops']}")


# ---- the verify option ----------------------------------------------------


def test_verify():
    """--verify on a real file: a verify line per write test and for the
    run, the same counts in JSON and CSV, exit 0, no test file left."""
    with Dir() as d:
        j, c = os.path.join(d, "r.json"), os.path.join(d, "r.csv")
        target = os.path.join(d, "t")
        os.mkdir(target)
        r = run(["run", "--target", target, "--test", "SEQ1M Q8T1", "--test", "RND4K Q32T1",
                 "--mode", "rw", "--verify", "--json", j, "--csv", c] + QUICK)
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        lines = [x.strip() for x in r.stdout.splitlines() if "Verified" in x]
        check(len(lines) == 3, f"verify lines: {lines}\n{r.stdout}")
        # A block that two requests in flight wrote at once (the 1 MiB
        # sequential writer at QD8 wraps around the small file; how often
        # depends on timing) is counted apart, never as bad.
        check(all(re.search(r", 0 bad(; \d+ written twice at once, not checked)? \(read back "
                            r"in [0-9.]+ s, not timed\)", x) for x in lines), lines)
        check(lines[-1].startswith("Verify: Verified "), f"run line: {lines[-1]}")
        doc = json.load(open(j, encoding="utf-8"))
        writes = [x for x in doc["results"] if x["mode"] == "write"]
        reads = [x for x in doc["results"] if x["mode"] == "read"]
        check(all("verify" not in x for x in reads), "reads are not verified")
        for x in writes:
            v = x["verify"]
            check(v["bad"] == 0 and v["blocks"] > 0 and v["bytes"] == v["blocks"] * x["block_size"],
                  f"json verify {v}")
            check(v["blocks"] <= (64 << 20) // x["block_size"], f"more blocks than the file {v}")
            check(f"Verified {v['blocks']} blocks" in r.stdout, f"{v['blocks']} not in the table")
        check(doc["verify"]["blocks"] == sum(x["verify"]["blocks"] for x in writes), "run sum")
        rows = [x for x in parse_csv(open(c, encoding="utf-8", newline="").read())
                if x["record"] == "test"]
        for row in rows:
            if row["mode"] == "read":
                check(row["verify_blocks"] == "" and row["verify_s"] == "", f"csv read {row}")
                continue
            v = next(x["verify"] for x in writes if x["test"] == row["test"])
            check(int(row["verify_blocks"]) == v["blocks"] and row["verify_bad"] == "0",
                  f"csv verify {row['verify_blocks']} vs {v}")
            check(row["verify_first_bad_byte"] == "", "no first bad byte when none is bad")
        check(os.listdir(target) == [], f"left behind: {os.listdir(target)}")
        # show reads the file back with its verify lines
        r = run(["show", c])
        check(r.returncode == 0 and "0 bad" in r.stdout, f"show: {r.returncode} {r.stdout}")


def test_verify_refused():
    r = run(["run", "--target", ".", "--backend", "null", "--verify", "--test", "RND4K Q1T1"]
            + QUICK)
    check(r.returncode == 1, f"exit {r.returncode}")
    check("the verify option needs a real target: the null backend keeps no data to read back"
          in r.stderr, r.stderr)
    usage_error(["run", "--target", ".", "--mode", "read", "--verify"],
                "the verify option checks written data, but no test writes")
    usage_error(["sustained", "--verify"], "'--verify' is not an option of sustained")


# ---- sweeps, show and chart -------------------------------------------------

# A sweep on the null backend: no disk, a fraction of a second per point.
NULL_QUICK = ["--backend", "null", "--size", "64MiB", "--passes", "1", "--measure", "0.2",
              "--warmup", "0", "--interval", "0", "--quiet"]


def sweep(args):
    r = run(["sweep"] + args + NULL_QUICK + ["--json", "-"])
    check(r.returncode == 0, f"sweep {args}: exit {r.returncode}: {r.stderr}")
    check("[Read]" in r.stderr or "[Write]" in r.stderr, "the table goes to stderr")
    return json.loads(r.stdout)


def test_sweep_qd():
    doc = sweep(["qd", "--qd", "1,2,4"])
    check(doc["sweep"] == "qd" and doc["profile"] == "custom", f"context {doc['sweep']}")
    res = doc["results"]
    for mode, part in (("read", res[:3]), ("write", res[3:])):
        check([x["mode"] for x in part] == [mode] * 3, f"{mode}: {[x['mode'] for x in part]}")
        check([x["queue_depth"] for x in part] == [1, 2, 4], f"{mode} QDs")
        check([x["test"] for x in part] == ["RND4K Q1T1", "RND4K Q2T1", "RND4K Q4T1"], "names")
        check(all(x["block_size"] == 4096 and x["pattern"] == "rnd" for x in part), "4K random")
    check(len(res) == 6, f"{len(res)} results")
    doc = sweep(["qd", "--pattern", "seq", "--qd", "2,8", "--mode", "write", "--threads", "2"])
    check([(x["test"], x["mode"], x["block_size"]) for x in doc["results"]] ==
          [("SEQ128K Q2T2", "write", 131072), ("SEQ128K Q8T2", "write", 131072)],
          f"seq write sweep {doc['results']}")


def test_sweep_bs():
    doc = sweep(["bs", "--bs-list", "512,4K,64K", "--mode", "read"])
    res = doc["results"]
    check(doc["sweep"] == "bs", "sweep bs")
    check([x["block_size"] for x in res] == [512, 4096, 65536], f"block sizes {res}")
    check(all(x["queue_depth"] == 4 and x["mode"] == "read" for x in res), "QD4 reads")
    check([x["test"] for x in res] == ["RND512 Q4T1", "RND4K Q4T1", "RND64K Q4T1"], "names")
    doc = sweep(["bs", "--pattern", "seq", "--bs-list", "1M,64M", "--qd", "2"])
    check([(x["test"], x["mode"]) for x in doc["results"]] ==
          [("SEQ1M Q2T1", "read"), ("SEQ64M Q2T1", "read"), ("SEQ1M Q2T1", "write"),
           ("SEQ64M Q2T1", "write")], f"ATTO-style {doc['results']}")


def test_sweep_csv():
    with Dir() as d:
        c = os.path.join(d, "s.csv")
        r = run(["sweep", "qd", "--qd", "1,2", "--mode", "read", "--csv", c] + NULL_QUICK)
        check(r.returncode == 0 and "[Read]" in r.stdout, r.stderr)
        rows = parse_csv(open(c, encoding="utf-8", newline="").read())
        check(all(x["schema"] == "8" and x["sweep"] == "qd" for x in rows), "schema 8, sweep qd")
        check([x["queue_depth"] for x in rows if x["record"] == "test"] == ["1", "2"], "QDs")


def test_sweep_usage_errors():
    usage_error(["sweep", "qd", "--qd", "0"], "--qd '0'", "1 to 256")
    usage_error(["sweep", "qd", "--qd", "1,x"], "--qd '1,x'", "'x'", "1 to 256")
    usage_error(["sweep", "qd", "--qd", "512"], "--qd '512'", "1 to 256")
    usage_error(["sweep", "qd", "--qd", "1,,2"], "--qd '1,,2'")
    usage_error(["sweep", "qd", "--qd", "4,2,4"], "lists 4 twice")
    usage_error(["sweep", "bs", "--bs-list", "3K"], "--bs-list '3K'", "power of two", "64 MiB")
    usage_error(["sweep", "bs", "--bs-list", "128M"], "--bs-list '128M'", "512 B to 64 MiB")
    usage_error(["sweep", "qd", "--bs", "256"], "--bs '256'", "512 B to 64 MiB")
    usage_error(["sweep", "bs", "--qd", "1,2"], "one queue depth")
    usage_error(["sweep", "qd", "--bs-list", "4K"], "--bs-list belongs to sweep bs")
    usage_error(["sweep", "qd", "--mode", "mix"], "--mode 'mix'")
    usage_error(["sweep", "qd", "--threads", "65"], "--threads '65'", "1 to 64")
    usage_error(["sweep", "qd", "--pattern", "zigzag"], "--pattern 'zigzag'")
    usage_error(["sweep"], "sweep needs a kind")
    usage_error(["sweep", "latency"], "unknown sweep 'latency'")
    usage_error(["run", "--qd", "1"], "'--qd' is not an option of run")
    usage_error(["show"], "show needs at least one result file")
    usage_error(["show", "--metric", "speed", "a.csv"], "--metric 'speed'", "lat_p99_us")


def save_run(d, name, profile, latency):
    """A run on the null backend's simulated clock saved as CSV (exact and
    never 0 MB/s, however busy the machine: a real-clock run once saved a
    0 that a difference in % divided by); returns the path and its test
    rows."""
    path = os.path.join(d, name)
    r = run(["run", "--profile", profile, "--null-clock", "simulated", "--null-latency",
             str(latency), "--csv", path] + NULL_QUICK)
    check(r.returncode == 0, r.stderr)
    rows = parse_csv(open(path, encoding="utf-8", newline="").read())
    return path, [x for x in rows if x["record"] == "test"]


def show_rows(text):
    """The comparison table's rows: {(test, mode): [cells after the mode]}."""
    out, started = {}, False
    for line in text.splitlines():
        if line.startswith("Test "):
            started = True
            continue
        parts = line.split()
        if started and len(parts) >= 4:
            out[(" ".join(parts[:2]), parts[2].lower())] = parts[3:]
    return out


def test_show():
    with Dir() as d:
        a, rows_a = save_run(d, "a.csv", "real", 20)
        b, rows_b = save_run(d, "b.csv", "default", 40)
        r = run(["show", a])
        check(r.returncode == 0 and r.stderr == "", f"show: {r.returncode} {r.stderr}")
        check("[Read]" in r.stdout and "[Write]" in r.stdout, r.stdout)
        for x in rows_a:
            check(f" {x['mb_s']} MB/s" in r.stdout, f"{x['mb_s']} not in {r.stdout}")
        r = run(["show", a, b])
        check(r.returncode == 0, r.stderr)
        check("diff %" in r.stdout and a in r.stdout and b in r.stdout, r.stdout)
        table = show_rows(r.stdout)
        by_b = {(x["test"], x["mode"]): x for x in rows_b}
        for x in rows_a:
            cells = table[(x["test"], x["mode"])]
            y = by_b[(x["test"], x["mode"])]
            check(cells[0] == x["mb_s"] and cells[1] == y["mb_s"], f"{cells} vs {x['mb_s']}")
            diff = (float(y["mb_s"]) - float(x["mb_s"])) / float(x["mb_s"]) * 100
            check(abs(float(cells[2]) - diff) <= 0.051, f"diff {cells[2]} vs {diff:.2f}")
        # a test only the second file has: no value, no difference
        check(table[("SEQ1M Q8T1", "read")][0] == "-", "missing value shown as -")
        r = run(["show", "--metric", "iops", a, b])
        table = show_rows(r.stdout)
        check(r.returncode == 0 and "IOPS" in r.stdout, r.stdout)
        for x in rows_a:
            check(table[(x["test"], x["mode"])][0] == x["iops"], f"iops of {x['test']}")


def test_show_bad_file():
    with Dir() as d:
        good, _ = save_run(d, "good.csv", "demo", 10)
        lines = open(good, encoding="utf-8", newline="").read().split("\r\n")
        cells = lines[2].split(",")
        header = lines[0].split(",")
        col = header.index("mb_s")
        cells[col] = "abc"
        lines[2] = ",".join(cells)
        bad = os.path.join(d, "bad.csv")
        open(bad, "w", encoding="utf-8", newline="").write("\r\n".join(lines))
        r = run(["show", good, bad])
        check(r.returncode == 1 and r.stdout == "", f"exit {r.returncode}: {r.stdout}")
        want = f"{bad}: line 3, column {col + 1} (mb_s): 'abc' is not a number"
        check(want in r.stderr, f"stderr {r.stderr!r} lacks {want!r}")
        r = run(["show", os.path.join(d, "missing.csv")])
        check(r.returncode == 1 and "No such file" in r.stderr, r.stderr)


def chart_built():
    r = run(["chart", "--out", "x.png", "none.csv"])
    if r.returncode == 2 and "no 'chart' command" in r.stderr:
        raise Skip("built without Cairo or libcsv")


def test_chart():
    chart_built()
    with Dir() as d:
        files = []
        for i, lat in enumerate((10, 30)):
            path = os.path.join(d, f"q{i}.csv")
            r = run(["sweep", "qd", "--qd", "1,2,4", "--null-latency", str(lat), "--csv", path]
                    + NULL_QUICK)
            check(r.returncode == 0, r.stderr)
            files.append(path)
        signatures = {"png": b"\x89PNG\r\n\x1a\n", "svg": b"<svg", "pdf": b"%PDF-"}
        for ext, sig in signatures.items():
            out = os.path.join(d, f"chart.{ext}")
            r = run(["chart", "--out", out] + files)
            check(r.returncode == 0, f"chart {ext}: {r.returncode} {r.stderr}")
            data = open(out, "rb").read()
            check(data.startswith(sig) if ext != "svg" else sig in data[:400],
                  f"{ext}: {data[:40]!r}")
        out = os.path.join(d, "tiles.png")
        r = run(["chart", "--out", out, "--kind", "tiles", "--metric", "iops", "--width", "640",
                 "--height", "400", "--scale", "2"] + files)
        check(r.returncode == 0, r.stderr)
        data = open(out, "rb").read()
        check(data[:8] == signatures["png"], "tiles PNG")
        w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        check((w, h) == (1280, 800), f"2x PNG is {w}x{h}")
        r = run(["chart", "--out", os.path.join(d, "bs.svg"), "--kind", "bs", files[0]])
        check(r.returncode == 0, r.stderr)


def test_chart_errors():
    chart_built()
    usage_error(["chart", "--out", "x.gif", "a.csv"], "--out 'x.gif'", ".png, .svg or .pdf")
    usage_error(["chart", "--out", "chart", "a.csv"], "--out 'chart'")
    usage_error(["chart", "a.csv"], "chart needs --out")
    usage_error(["chart", "--out", "x.png"], "chart needs at least one result file")
    usage_error(["chart", "--out", "x.png", "--kind", "pie", "a.csv"], "--kind 'pie'")
    usage_error(["chart", "--out", "x.png", "--scale", "3", "a.csv"], "--scale '3'", "1 to 2")
    usage_error(["chart", "--out", "x.png", "--width", "10", "a.csv"], "--width '10'")
    with Dir() as d:
        out = os.path.join(d, "x.png")
        r = run(["chart", "--out", out, os.path.join(d, "missing.csv")])
        check(r.returncode == 1 and "missing.csv" in r.stderr, r.stderr)
        check(not os.path.exists(out), "a chart of nothing was written")
    usage_error(["chart", "--out", "x.png", "--y-scale", "Log", "a.csv"], "--y-scale 'Log'",
                "auto", "linear or log")


def test_chart_y_scale():
    """--y-scale picks the value axis: log and linear draw different
    charts of one run, auto one of the two."""
    chart_built()
    with Dir() as d:
        csv = os.path.join(d, "run.csv")
        r = run(["run", "--csv", csv] + NULL_QUICK)
        check(r.returncode == 0, r.stderr)
        pngs = {}
        for scale in ("log", "linear", "auto"):
            out = os.path.join(d, f"{scale}.png")
            r = run(["chart", "--out", out, "--kind", "tiles", "--y-scale", scale, csv])
            check(r.returncode == 0, f"--y-scale {scale}: {r.stderr}")
            pngs[scale] = open(out, "rb").read()
            check(pngs[scale][:8] == b"\x89PNG\r\n\x1a\n", f"{scale}: not a PNG")
        check(pngs["log"] != pngs["linear"], "log and linear drew the same chart")
        check(pngs["auto"] in (pngs["log"], pngs["linear"]), "auto drew a third chart")
    return "log, linear and auto charted"


# ---- TAP runner ------------------------------------------------------------


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals())))
