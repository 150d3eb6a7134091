#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Bad input to every drivemark-cli command, table-driven: each number,
size and duration option of run, sweep, the lab commands and chart gets
zero, negative, overflowing, unit-less, wrong-unit, non-finite and absurd
values, each a usage error (exit 2) whose message names the option, the
value and the accepted range; a block larger than the file; test names
with impossible queue depths and thread counts; and malformed result
files (truncated, binary garbage, a huge field, a foreign schema, empty)
for show and chart: exit 1, the file named, no crash. The single cases
of tests/cli/test_cli.py and test_lab_cli.py stay; this covers every
command systematically. Prints TAP.

    test_bad_input.py DRIVEMARK_CLI"""

import concurrent.futures
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import check  # noqa: E402

CLI = os.environ.get("DMK_CLI") or sys.argv[1]
LABS = ["sustained", "fullspan", "mixed", "latency", "recovery"]

# What each command needs besides the option under test to get that far.
PREFIX = {
    "run": ["run"], "sweep qd": ["sweep", "qd"], "sweep bs": ["sweep", "bs"],
    "chart": ["chart", "--out", "x.png", "a.csv"],
    **{lab: [lab] for lab in LABS},
    "sustained null": ["sustained", "--backend", "null"],
}

# Values that are wrong for any option of the kind.
SIZE_BAD = ["0", "-1", "18446744073709551616", "16E", "4KB", "", "1.5M", "1e30", "0x10"]
COUNT_BAD = ["-1", "18446744073709551616", "1.5", "", "4KB", "nan", "0x10"]
SECONDS_BAD = ["-1", "1e30", "99999999h", "nan", "inf", "", "5x", "18446744073709551616"]

# (commands, option, kind, range in the message, extra bad values: below
# the minimum and above the maximum)
SEC = "(suffix s, m or h allowed)"
OPTIONS = [
    (["run", "sweep qd"], "--size", "size", "expected 16 MiB to 64 GiB", ["8M", "65G"]),
    (LABS[:1] + LABS[2:], "--size", "size", "expected 16 MiB to 1 PiB", ["8M", "1025T"]),
    (["sweep qd"], "--bs", "size", "expected 512 B to 64 MiB", ["256", "128M"]),
    (["fullspan"], "--margin", "size", "expected 1 MiB to 1 PiB", ["512K", "1025T"]),
    (["sustained null"], "--null-cache", "size", "expected 1 MiB to 1 PiB", ["4K"]),
    (["sustained null"], "--null-thermal", "size", "expected 4 KiB to 1 TiB", ["1K", "2T"]),
    (["run", "sweep qd"], "--passes", "count", "expected an integer from 1 to 9", ["0", "10"]),
    (["sweep qd"], "--threads", "count", "expected an integer from 1 to 64", ["0", "65"]),
    (["sweep qd", "sweep bs", "mixed"], "--qd", "count", "expected an integer from 1 to 256",
     ["0", "100000"]),
    (["run"], "--null-latency", "count", "expected an integer from 0 to 10000000",
     ["10000001"]),
    (["run"], "--null-serve", "count", "expected an integer from 0 to 10000000", ["10000001"]),
    (["sustained null"], "--null-slow", "count", "expected an integer from 1 to 1000",
     ["0", "1001"]),
    (["chart"], "--width", "count", "expected an integer from 100 to 10000", ["0", "99", "10001"]),
    (["chart"], "--height", "count", "expected an integer from 100 to 10000", ["0", "10001"]),
    (["chart"], "--scale", "count", "expected an integer from 1 to 2", ["0", "3"]),
    (["run", "sweep qd"], "--measure", "seconds", "expected seconds from 0.1 to 604800 " + SEC,
     ["0", "0.05", "604801"]),
    (["run", "sweep qd"] + LABS, "--warmup", "seconds",
     "expected seconds from 0 to 604800 " + SEC, ["169h"]),
    (["run", "sweep qd"], "--interval", "seconds", "expected seconds from 0 to 604800 " + SEC,
     ["8d"]),
    (["run", "sweep qd"], "--timeline", "seconds", "expected seconds from 0.01 to 3600 " + SEC,
     ["0", "0.001", "2h"]),
    (["sustained", "recovery"], "--duration", "seconds",
     "expected seconds from 1 to 604800 " + SEC, ["0", "0.5", "168.1h"]),
    (LABS, "--sample", "seconds", "expected seconds from 0.1 to 60 " + SEC, ["0", "61"]),
    (["mixed", "latency", "recovery"], "--step", "seconds",
     "expected seconds from 0.1 to 604800 " + SEC, ["0", "0.01"]),
    (["recovery"], "--idle", "seconds", "expected seconds from 0 to 604800 " + SEC, ["605000"]),
    (["sustained", "mixed", "latency", "recovery"], "--settle", "seconds",
     "expected seconds from 0 to 604800 " + SEC, ["1000000"]),
]
BAD = {"size": SIZE_BAD, "count": COUNT_BAD, "seconds": SECONDS_BAD}


def usage_error(args, *needles):
    dmktest.check_usage_error(dmktest.run_cli(CLI, args, 20), args, needles, hint=True)


def test_every_number_option():
    cases = []
    for commands, opt, kind, rng, extra in OPTIONS:
        for k, cmd in enumerate(commands):
            # every bad value once per option; the other commands that
            # share its parser get the range's ends and two of the rest
            values = BAD[kind] + extra if k == 0 else BAD[kind][:2] + extra
            for i, v in enumerate(values):
                if opt == "--qd":  # a list: the message quotes the list, then the item
                    needles = (f"--qd '{v}': queue depth '{v}' is invalid: {rng}",)
                else:
                    needles = (f"{opt} '{v}' is invalid", rng)
                cases.append((PREFIX[cmd] + [opt, v], needles))
                if i == 0:  # --opt=value the same
                    cases.append((PREFIX[cmd] + [f"{opt}={v}"], needles))
    # a few at a time: each is a process start, the whole table ~700 of them
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        runs = pool.map(lambda c: dmktest.run_cli(CLI, c[0], 20), cases)
        for (args, needles), r in zip(cases, runs):
            dmktest.check_usage_error(r, args, needles, hint=True)
    return f"{len(cases)} bad values"


def test_lists():
    """sweep's lists: each item checked, the item named."""
    for v in ["0", "-1", "4KB", "16E", "3K", "128M", "18446744073709551616"]:
        usage_error(["sweep", "bs", "--bs-list", "4K," + v], f"--bs-list '4K,{v}': block size '{v}'",
                    "512 B", "64 MiB")
    for v in ["0", "-1", "257", "100000", "1.5", ""]:
        usage_error(["sweep", "qd", "--qd", "1," + v], f"--qd '1,{v}'", "1 to 256")
    usage_error(["sweep", "qd", "--qd", ",".join(str(i) for i in range(1, 200))],
                "has more than")


def test_test_names():
    """--test of run, sustained, fullspan and recovery: impossible depths,
    thread counts and block sizes, with the accepted form in the message."""
    form = "Q1 to Q1024, T1 to T64"
    bad = {"RND4K Q0T1": "queue depth out of range", "RND4K Q100000T1": "queue depth out of range",
           "RND4K Q1T0": "thread count out of range", "RND4K Q1T65": "thread count out of range",
           "RND0 Q1T1": "block size", "RND3K Q1T1": "power of two", "RND128M Q1T1": "block size",
           "RND4K Q18446744073709551616T1": "", "RND-1 Q1T1": "block size",
           "": "", "Q1T1": ""}
    for cmd in ["run", "sustained", "fullspan", "recovery"]:
        for name, why in bad.items():
            usage_error([cmd, "--test", name], f"test '{name}' is invalid", why, form)


def test_block_larger_than_file():
    big = "the block size 67108864 is larger than each thread's share of the test file"
    usage_error(["run", "--size", "16MiB", "--test", "SEQ64M Q1T1"], big, "use a larger --size")
    usage_error(["sweep", "qd", "--size", "16MiB", "--bs", "64M"], big)
    usage_error(["sweep", "bs", "--size", "16MiB", "--bs-list", "4K,64M"], big)
    usage_error(["sustained", "--size", "32MiB", "--test", "SEQ64M Q1T1"], big)
    usage_error(["fullspan", "--size", "32MiB", "--test", "SEQ64M Q8T1"], big)
    usage_error(["recovery", "--size", "32MiB", "--test", "RND64M Q1T1"], big)
    # threads share the file: 64 threads of 1 MiB blocks need 64 MiB
    usage_error(["sweep", "qd", "--size", "32MiB", "--bs", "1M", "--threads", "64"],
                "larger than each thread's share", "32 MiB / 64 threads")


def test_options_without_values_and_strays():
    for cmd, opt in [("run", "--size"), ("sweep", "--qd"), ("sustained", "--duration"),
                     ("show", "--metric"), ("chart", "--width")]:
        usage_error([cmd, opt], f"option '{opt}' needs a value")
        usage_error([cmd, "--bogus"], "unknown option '--bogus'")
        usage_error([cmd, "-x"], "unexpected argument '-x'")
    usage_error(["run", "stray"], "unexpected argument 'stray'")
    usage_error(["sweep", "qd", "stray"], "unexpected argument 'stray'")
    usage_error(["show", "-r.csv"], "goes after --, or as ./-r.csv")
    usage_error(["frobnicate"], "unknown command 'frobnicate'")
    usage_error([], "no command given")


def test_one_file_for_both_formats():
    for cmd in (["run"], ["sweep", "qd"], ["sustained"]):
        for path in ("-", "r.out"):
            usage_error(cmd + ["--json", path, "--csv", path],
                        f"--json and --csv both name '{path}': give each its own file")
    check(not os.path.exists("r.out"), "created r.out")


# ---- malformed result files ------------------------------------------------------


def good_csv(d):
    path = os.path.join(d, "good.csv")
    r = dmktest.run_cli(CLI, ["run", "--backend", "null", "--size", "16MiB", "--test",
                              "SEQ1M Q1T1", "--passes", "1", "--measure", "0.1", "--warmup", "0",
                              "--interval", "0", "--timeline", "0.05", "--quiet", "--csv", path],
                        30)
    check(r.returncode == 0, f"the good CSV: {r.stderr}")
    return open(path, "rb").read()


class Dir(dmktest.Dir):
    prefix = "badin-"


def test_malformed_result_files():
    with Dir() as d:
        good = good_csv(d)
        lines = good.split(b"\r\n")
        files = {
            "truncated.csv": (good[:len(good) // 2], "line "),
            "truncated-header.csv": (good[:40], "line 1"),
            "garbage.csv": (bytes((i * 151 + 7) % 256 for i in range(4096)), ""),
            "huge-field.csv": (lines[0] + b"\r\n" + b"x" * (16 << 20) + b"\r\n",
                               "line 2, column 1 (schema): a cell longer than 1024 KiB"),
            "huge-number.csv": (lines[0] + b"\r\n" + lines[1].replace(
                b",", b"," + b"9" * 100000 + b",", 1) + b"\r\n", "line 2"),
            "long-line.csv": (b"schema," * 200000 + b"\r\n", "line 1"),
            "foreign.csv": (b"name,price\r\napple,3\r\n", "not a Drivemark result file"),
            "empty.csv": (b"", "the file is empty"),
            "nul.csv": (b"\0" * 1000, ""),
        }
        for name, (data, needle) in files.items():
            path = os.path.join(d, name)
            with open(path, "wb") as f:
                f.write(data)
            for cmd in (["show"], ["chart", "--out", os.path.join(d, "c.png")]):
                r = dmktest.run_cli(CLI, cmd + [path], 60)
                check(r.returncode == 1, f"{cmd[0]} {name}: exit {r.returncode}: {r.stderr}")
                first = r.stderr.splitlines()[0] if r.stderr else ""
                check(first.startswith(f"drivemark-cli: {path}: ") and needle in first,
                      f"{cmd[0]} {name}: {r.stderr[:300]!r}")
                check(len(r.stderr) < 2000, f"{cmd[0]} {name}: {len(r.stderr)} bytes of message")
                check(r.stdout == "", f"{cmd[0]} {name}: printed {r.stdout[:200]!r}")
                check(not os.path.exists(os.path.join(d, "c.png")), "a chart of a bad file")
        # a directory, a missing file, a device
        for path, why in ((d, "Is a directory"), (os.path.join(d, "none.csv"),
                                                  "No such file or directory")):
            r = dmktest.run_cli(CLI, ["show", path], 20)
            check(r.returncode == 1 and path in r.stderr and why in r.stderr,
                  f"show {path}: {r.returncode} {r.stderr!r}")
        # devices are no result files: refused as what they are, before
        # any read (a FIFO would block: tests/integration/test_result_files.py)
        for dev in ("/dev/null", "/dev/zero", "/dev/urandom"):
            if not os.path.exists(dev):
                continue
            r = dmktest.run_cli(CLI, ["show", dev], 20)
            check(r.returncode == 1 and r.stderr == f"drivemark-cli: opening {dev} failed: it is "
                  "a character device, not a regular file\n", f"show {dev}: {r.stderr!r}")


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
