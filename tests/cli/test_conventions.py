#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""drivemark-cli's command-line conventions: -h, -V and -q beside --help,
--version and --quiet in every command that takes them, every line of
every --help within 80 columns, no escape sequence on stderr where it is
no terminal or TERM is unset or dumb (plain progress lines instead), and
--comment into the table, the lab report, the JSON and the CSV. The null
backend only: no disk, no loop device. Prints TAP."""

import json
import os
import pty
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import check, read_csv  # noqa: E402

CLI = os.environ.get("DMK_CLI") or sys.argv[1]

# A short run on the null backend: two passes, so the progress has steps
# to print, on the simulated clock, so each pass has its progress reports
# (every 0.1 s of its time) however busy the machine is.
QUICK = ["run", "--backend", "null", "--null-latency", "1000", "--null-clock", "simulated",
         "--size", "16MiB", "--test", "SEQ1M Q1T1", "--mode", "read", "--passes", "2",
         "--measure", "0.3", "--warmup", "0", "--interval", "0"]
LAB = ["sustained", "--backend", "null", "--null-latency", "2000", "--size", "16M", "--settle",
       "0", "--duration", "1", "--sample", "0.1", "--null-clock", "simulated"]


def run(args, env=None, timeout=120):
    return dmktest.run_cli(CLI, args, timeout, env=env)


class Dir(dmktest.Dir):
    prefix = "conv-"


def commands():
    """Every command word, from the CLI's own message for a bad one."""
    r = run(["bogus"])
    m = re.search(r"expected (.*)$", r.stderr, re.M)
    check(m, f"no list of commands: {r.stderr}")
    return [w for w in re.split(r", | or ", m.group(1)) if w]


def on_pty(args, term, cwd=None):
    """args run with stderr on a pseudo-terminal and TERM set to term (None:
    unset): (exit status, the bytes the terminal got, stdout)."""
    env = dict(os.environ)
    env.pop("TERM", None)
    if term is not None:
        env["TERM"] = term
    master, slave = pty.openpty()
    proc = subprocess.Popen([CLI] + args, stdout=subprocess.PIPE, stderr=slave, env=env,
                            cwd=cwd)
    os.close(slave)
    got = b""
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO once the child has closed the terminal
            break
        if not data:
            break
        got += data
    os.close(master)
    out = proc.stdout.read().decode("utf-8", "replace")
    proc.stdout.close()
    proc.wait(timeout=120)
    return proc.returncode, got, out


# ---- -h, -V, -q --------------------------------------------------------------


def test_short_options():
    full = run(["--help"])
    check(full.returncode == 0 and full.stdout, f"--help: {full.returncode}")
    # (help and version are done at once: "version -h" is the version)
    for words in [["-h"]] + [[c, "-h"] for c in commands() if c not in ("help", "version")]:
        r = run(words)
        check(r.returncode == 0 and r.stdout == full.stdout and r.stderr == "",
              f"{words}: exit {r.returncode}, not --help's text: {r.stderr}")
        check("-h, --help" in r.stdout and "-V, --version" in r.stdout, "-h and -V in the help")
    v = run(["--version"])
    for words in [["-V"], ["run", "-V"], ["show", "-V"], ["sustained", "-V"]]:
        r = run(words)
        check(r.returncode == 0 and r.stdout == v.stdout, f"{words}: {r.stdout!r} {r.stderr!r}")
    check("-q, --quiet" in full.stdout, "-q in the help")
    # -q is --quiet: where --quiet is not an option, neither is -q
    for words, says in [(["-q"], "belongs after a command"),
                        (["show", "-q", "x.csv"], "not an option of show"),
                        (["run", "-x"], "unexpected argument '-x'")]:
        dmktest.check_usage_error(run(words), words, [says])


def test_help_width():
    """Every line of every command's --help fits 80 columns."""
    for words in [["--help"]] + [[c, "--help"] for c in commands()]:
        r = run(words)
        check(r.returncode == 0, f"{words}: exit {r.returncode}")
        wide = [line for line in r.stdout.splitlines() if len(line) > 80]
        check(not wide, f"{words}: {len(wide)} lines over 80 columns: {wide[:3]}")
        check("\t" not in r.stdout, f"{words}: a tab in the help")


# ---- progress: escapes only where a terminal can take them ----------------------


def test_no_escapes_where_term_is_dumb():
    with Dir() as d:
        for term in ["dumb", None, ""]:
            rc, got, out = on_pty(QUICK + ["--target", d], term)
            check(rc == 0, f"TERM={term!r}: exit {rc}: {got[-300:]!r}")
            check(b"\x1b" not in got, f"TERM={term!r}: an escape byte on the terminal: {got!r}")
            check(b"\r" not in got.replace(b"\r\n", b""), f"TERM={term!r}: a bare CR: {got!r}")
            text = got.decode("utf-8", "replace")
            # one line per step: each pass, said once, its line complete
            for needle in ["pass 1/2", "pass 2/2"]:
                lines = [x for x in text.splitlines() if needle in x]
                check(len(lines) == 1 and "MB/s" in lines[0],
                      f"TERM={term!r}: {needle!r} lines: {lines}; all: {text!r}")
            check("[Read]" in out, f"TERM={term!r}: no table on stdout")
        # a terminal that can erase a line still gets the redrawn one
        rc, got, _ = on_pty(QUICK + ["--target", d], "xterm")
        check(rc == 0 and b"\r\x1b[K" in got, f"TERM=xterm: not redrawn: {got[-200:]!r}")


def test_no_escapes_off_a_terminal():
    with Dir() as d:
        for term in ["xterm", "dumb"]:
            r = run(QUICK + ["--target", d], env={"TERM": term})
            check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
            check("\x1b" not in r.stderr + r.stdout, f"TERM={term}: an escape byte in the output")
            check(r.stderr == "", f"TERM={term}: progress on a pipe: {r.stderr!r}")
        # a lab test's progress (elapsed time, temperature) too
        rc, got, out = on_pty(LAB + ["--target", d], "dumb")
        check(rc == 0 and b"\x1b" not in got, f"lab on TERM=dumb: exit {rc}, {got[-300:]!r}")
        check(b" elapsed " in got, f"lab on TERM=dumb: no progress line: {got[-300:]!r}")


def test_quiet():
    """-q: no progress, no notice; the results and errors stay."""
    with Dir() as d:
        csv = os.path.join(d, "r.csv")
        for flag in ["-q", "--quiet"]:
            rc, got, out = on_pty(QUICK + ["--target", d, "--csv", csv, flag], "xterm")
            check(rc == 0, f"{flag}: exit {rc}: {got!r}")
            check(got == b"", f"{flag}: the terminal got {got!r}")
            check("[Read]" in out and os.path.getsize(csv) > 0, f"{flag}: no results")
        # without it, the notice that names the file being written
        rc, got, _ = on_pty(QUICK + ["--target", d, "--csv", csv], "xterm")
        check(b"writing the result file" in got, f"no notice without -q: {got[-300:]!r}")
        # an error still says itself
        bad = os.path.join(d, "nope", "r.json")
        r = run(QUICK + ["--target", d, "--json", bad, "-q"])
        check(r.returncode == 1 and bad in r.stderr, f"-q hid the error: {r.stderr!r}")


# ---- --comment -----------------------------------------------------------------


COMMENT = '=USB stick, "port 2"; caf\u00e9'


def test_comment_in_every_result():
    with Dir() as d:
        js, cs = os.path.join(d, "r.json"), os.path.join(d, "r.csv")
        r = run(QUICK + ["--target", d, "--comment", COMMENT, "--json", js, "--csv", cs, "-q"])
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        check(f"Comment: {COMMENT}\n" in r.stdout, f"not in the table: {r.stdout}")
        with open(js, encoding="utf-8") as f:
            check(json.load(f)["comment"] == COMMENT, "JSON's comment")
        rows = read_csv(cs)
        # the CSV neutralises a leading '=' as every text cell ('=...)
        check(rows and all(row["comment"] == "'" + COMMENT for row in rows),
              f"CSV's comment: {[row['comment'] for row in rows][:2]}")
        s = run(["show", cs])
        check(s.returncode == 0 and f"Comment: {COMMENT}\n" in s.stdout, f"show: {s.stdout}")
        # a lab test's report ends with it too, and its files keep it
        r = run(LAB + ["--target", d, "--comment", COMMENT, "--json", js, "-q"])
        check(r.returncode == 0 and r.stdout.endswith(f"Comment: {COMMENT}\n"),
              f"lab: exit {r.returncode}: {r.stdout[-200:]} {r.stderr}")
        with open(js, encoding="utf-8") as f:
            check(json.load(f)["comment"] == COMMENT, "the lab JSON's comment")
        # a line break or an escape in it cannot add a line or reach the terminal
        r = run(QUICK + ["--target", d, "--comment", "a\n  Drive: FAKE\x1b[2J", "-q"])
        check(r.returncode == 0 and "\x1b" not in r.stdout and "\n  Drive: FAKE" not in r.stdout,
              f"escaped: {r.stdout}")


def test_comment_refused():
    for value, says in [("x" * 512, "at most 511"), (b"caf\xe9".decode("latin-1"), None)]:
        args = QUICK + ["--comment", value]
        if says is None:  # not UTF-8: passed as bytes
            r = subprocess.run([os.fsencode(CLI)] + [os.fsencode(a) for a in QUICK] +
                               [b"--comment", b"caf\xe9"], capture_output=True)
            check(r.returncode == 2 and b"not valid UTF-8" in r.stderr, f"{r.stderr!r}")
            continue
        dmktest.check_usage_error(run(args), ["--comment", "..."], ["--comment", says])
    with Dir() as d:
        r = run(QUICK + ["--target", d, "--comment", "x" * 511, "--json", "-", "-q"])
        check(r.returncode == 0 and json.loads(r.stdout)["comment"] == "x" * 511, "511 bytes kept")


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals()), timed=True))
