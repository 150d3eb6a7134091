#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Terminal injection: a result file someone sent (or a target whose name
holds escape sequences) must not reach the terminal with its control or
bidi characters. `show` (one file, a comparison, a lab result), `chart`'s
messages and every error message print them as '?'. Prints TAP.

    test_injection.py DRIVEMARK_CLI"""

import csv
import io
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import check  # noqa: E402

CLI = os.path.abspath(os.environ.get("DMK_CLI") or sys.argv[1])
QUICK = ["--backend", "null", "--size", "16MiB", "--test", "SEQ1M Q1T1", "--passes", "1",
         "--measure", "0.1", "--warmup", "0", "--interval", "0", "--quiet"]
# What a hostile file carries: clear screen, an OSC window title, colours,
# an 8-bit CSI (C1), DEL, and the bidi controls that reorder a line.
HOSTILE = ("\x1b[2J\x1b]0;owned\x07\x1b[31mred\x1b[0m\u009b31m\x7f"
           "\u202eevil\u202c\u2066\u2069\u200e\u200f\u061c\u202a\u202b\u202d")
# Raw bytes that must not appear in what is printed.
FORBIDDEN = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


class Dir(dmktest.Dir):
    prefix = "inject-"


def run(args, timeout=60):
    return dmktest.run_cli(CLI, args, timeout)


def hostile_csv(d, name="hostile.csv", lab=()):
    """A real result whose target, comment and drive model cells are hostile."""
    src = os.path.join(d, "src.csv")
    target = os.path.join(d, "t")
    os.makedirs(target, exist_ok=True)
    args = list(lab) if lab else ["run"] + QUICK
    r = run(args + ["--target", target, "--csv", src])
    check(r.returncode == 0, f"the result to edit: {r.stderr}")
    rows = list(csv.reader(io.StringIO(open(src, encoding="utf-8", newline="").read())))
    head = rows[0]
    for row in rows[1:]:
        for col in ("target", "comment", "device_model"):
            row[head.index(col)] = f"{col} {HOSTILE} end"
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    path = os.path.join(d, name)
    open(path, "w", encoding="utf-8", newline="").write(out.getvalue())
    os.remove(src)
    return path


def check_clean(text, what):
    m = FORBIDDEN.search(text)
    if m:
        raise AssertionError(f"{what}: raw {m.group()!r} at {m.start()}: "
                             f"{text[max(0, m.start() - 40):][:80]!r}")


def test_show_one_file():
    """The table of one file: target, comment and model shown, escaped."""
    with Dir() as d:
        path = hostile_csv(d)
        r = run(["show", path])
        check(r.returncode == 0, f"show: {r.stderr}")
        check_clean(r.stdout, "show")
        check("comment ?" in r.stdout and "evil" in r.stdout, f"the comment is shown: {r.stdout}")
        check("device_model ?" in r.stdout, "the model is shown")
        check("target ?" in r.stdout, "the target is shown")
        return r.stdout.splitlines()[-1][:70]


def test_show_comparison():
    """Two files compared (the file list names each one's drive and target)."""
    with Dir() as d:
        a = hostile_csv(d, "a.csv")
        b = hostile_csv(d, "b.csv")
        r = run(["show", a, b])
        check(r.returncode == 0, f"show: {r.stderr}")
        check_clean(r.stdout, "show a b")
        check("device_model ?" in r.stdout and "target ?" in r.stdout, r.stdout[:400])


def test_show_lab_result():
    """A lab report (its own text) escapes the same cells."""
    with Dir() as d:
        path = hostile_csv(d, "lab.csv", ["sustained", "--backend", "null", "--size", "16MiB",
                                           "--duration", "1", "--sample", "0.5", "--settle", "0",
                                           "--quiet"])
        r = run(["show", path])
        check(r.returncode == 0, f"show: {r.stderr}")
        check_clean(r.stdout, "show lab")
        check("device_model ?" in r.stdout or "target ?" in r.stdout, r.stdout[:400])


def test_hostile_file_names():
    """A result file whose name holds escape sequences: the comparison's
    file list, chart's refusal and an error message print it escaped."""
    with Dir() as d:
        good = hostile_csv(d)
        evil = os.path.join(d, "x\x1b]0;t\x07\u202e.csv")
        os.rename(good, evil)
        r = run(["show", evil, evil])
        check(r.returncode == 0, f"show: {r.stderr}")
        check_clean(r.stdout, "file list")
        r = run(["show", os.path.join(d, "missing\x1b[2J.csv")])
        check(r.returncode == 1 and "missing?[2J.csv" in r.stderr, f"missing: {r.stderr!r}")
        check_clean(r.stderr, "error message")
        r = run(["chart", "--kind", "speed", "--out", os.path.join(d, "c.png"), evil])
        check(r.returncode == 1, f"chart: {r.returncode} {r.stderr}")
        check_clean(r.stderr, "chart's refusal")
        # a bad cell quoted in the loader's message
        bad = os.path.join(d, "bad.csv")
        text = open(evil, encoding="utf-8", newline="").read().split("\r\n")
        text[1] = text[1].replace("SEQ1M Q1T1", "\x1b[2J\u202e", 1)
        open(bad, "w", encoding="utf-8", newline="").write("\r\n".join(text))
        r = run(["show", bad])
        check(r.returncode == 1, f"bad: {r.returncode}")
        check_clean(r.stderr, "loader's message")
        return r.stderr.strip()[:120]


def test_hostile_target_name():
    """A run on a directory whose name holds escape sequences: the table it
    prints and an error naming it are escaped."""
    with Dir() as d:
        target = os.path.join(d, "t\x1b[2J\x1b]0;x\x07\u202e")
        os.mkdir(target)
        r = run(["run", "--target", target] + QUICK)
        check(r.returncode == 0, f"run: {r.stderr}")
        check_clean(r.stdout, "the run's table")
        check("t?[2J?]0;x??" in r.stdout, f"the target, escaped: {r.stdout[-700:]}")
        r = run(["run", "--target", target + "/missing"] + QUICK[2:])  # libaio: checks it
        check(r.returncode == 1, f"missing: {r.returncode}")
        check_clean(r.stderr, "the error")


def test_line_breaks_fake_no_lines():
    """A comment and a target with line breaks cannot add a line of their
    own to show's table (a fake "Drive:" line): they print as '?'."""
    with Dir() as d:
        path = hostile_csv(d)
        text = open(path, encoding="utf-8", newline="").read()
        rows = list(csv.reader(io.StringIO(text)))
        head = rows[0]
        for row in rows[1:]:
            row[head.index("comment")] = "nice\r\n  Drive: FAKE 9 PB\nend"
            row[head.index("target")] = "/t\n   Test: FAKE"
        out = io.StringIO()
        csv.writer(out, lineterminator="\r\n").writerows(rows)
        open(path, "w", encoding="utf-8", newline="").write(out.getvalue())
        r = run(["show", path])
        check(r.returncode == 0, r.stderr)
        lines = r.stdout.split("\n")
        check(not any(x.lstrip().startswith(("Drive: FAKE", "Test: FAKE")) for x in lines),
              f"a faked line: {r.stdout}")
        check("nice??  Drive: FAKE 9 PB?end" in r.stdout, r.stdout[-300:])
        check("/t?   Test: FAKE" in r.stdout, r.stdout[-500:])


# ---- round four: paths in text appended to a message after it was set ------------

# A directory and a result file whose names hold ESC, BEL and U+202E (a
# vfat label under /media/u/<label>), and how every message shows them.
EVIL_DIR = "o\x1b[2J\u202e"
EVIL_FILE = "r\x1b]0;t\x07.json"


def escaped(text):
    return FORBIDDEN.sub("?", text)


def held_write(d, outputs, act):
    """A verified write run held before its read-back while act() runs."""
    target = os.path.join(d, "t")
    os.makedirs(target, exist_ok=True)
    args = [CLI, "run", "--target", target, "--size", "16MiB", "--test", "SEQ1M Q1T1", "--mode",
            "write", "--verify", "--passes", "1", "--measure", "0.1", "--warmup", "0",
            "--interval", "0", "--quiet"] + outputs
    return dmktest.held_run(d, args, act)


def chattr(flag, path):
    import subprocess
    r = subprocess.run(["chattr", flag, path], capture_output=True, text=True)
    if r.returncode != 0:
        raise dmktest.Skip(f"chattr {flag}: {r.stderr.strip()}")


def test_rename_failure_names_kept_file_escaped():
    """The rename after the run fails (the old result became a directory):
    "(the old PATH was kept)", appended after the message was set, shows
    the hostile path escaped, and nothing but the old entry is left."""
    with Dir() as d:
        out = os.path.join(d, EVIL_DIR)
        os.mkdir(out)
        f = os.path.join(out, EVIL_FILE)
        open(f, "w").write("old\n")

        def swap():
            os.remove(f)
            os.mkdir(f)
            open(os.path.join(f, "inside"), "w").close()

        proc, held, _, err = held_write(d, ["--json", f], swap)
        check(held, f"never held: {err!r}")
        check(proc.returncode == 1, f"exit {proc.returncode}: {err!r}")
        check_clean(err, "the rename's message")
        check(f"(the old {escaped(f)} was kept); its temporary file was removed" in err, repr(err))
        check(os.listdir(out) == [EVIL_FILE], f"left: {os.listdir(out)}")
        return err.strip()[-120:]


def test_temp_file_left_named_escaped():
    """The result's directory turns append-only (chattr +a) during the run:
    the rename and the removal of the temporary file fail; the message names
    the temporary file, in the hostile directory, escaped. Root only."""
    dmktest.need_root("chattr", why="chattr +a")
    with Dir() as d:
        out = os.path.join(d, EVIL_DIR)
        os.mkdir(out)
        f = os.path.join(out, EVIL_FILE)
        open(f, "w").write("old\n")
        try:
            proc, held, _, err = held_write(d, ["--json", f], lambda: chattr("+a", out))
        finally:
            chattr("-a", out)
        check(held, f"never held: {err!r}")
        check(proc.returncode == 1, f"exit {proc.returncode}: {err!r}")
        check_clean(err, "the message")
        left = [n for n in os.listdir(out) if n != EVIL_FILE]
        check(len(left) == 1 and left[0].startswith(".drivemark-result-"), f"left: {left}")
        tmp = os.path.join(out, left[0])
        check(f"the temporary file {escaped(tmp)} could not be removed: remove it by hand" in err,
              repr(err))
        check(open(f).read() == "old\n", "the old file is kept")
        return err.strip()[-120:]


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
