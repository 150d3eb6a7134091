#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's files (Save Results and --json, Export Chart and
--export-chart, --screenshot share their writers): on a full loop-mounted
ext4 each old file survives byte for byte and the message says it was
kept; two of them naming one file are refused; --open of a FIFO is refused at once instead of blocking (under a
timeout, so a regression fails, not hangs); a file name with Pango markup
(<b>, &) shows literally in the info bar. Prints TAP.

    test_result_files_ui.py DRIVEMARK"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
sys.path.insert(0, HERE)
import dmktest  # noqa: E402
from dmktest import Skip, check, sha  # noqa: E402
from test_gui import CLI, Results, field, rows, run_app  # noqa: E402

os.environ.setdefault("DMK_CLI", CLI)  # for the integration tests' helpers
from test_result_files import FullFs  # noqa: E402

MIB = 1 << 20




def full_ext4(d):
    """A 16 MiB ext4 loop-mounted under d with old files, then filled;
    (Mounts, mount point)."""
    if os.geteuid() != 0:
        raise Skip("needs root (a loop-mounted ext4)")
    return FullFs(d)


def test_full_fs_keeps_old_files():
    """--json, --export-chart and --screenshot over old files on a full
    file system: exit 1, each message names the file, ENOSPC, and that the
    old file was kept; the old files are unchanged."""
    with Results() as r:
        with full_ext4(r.dir) as fs:
            old = {name: fs.put(name, (f"old {name}\n" * 300).encode())
                   for name in ("old.json", "old.csv", "old.svg", "old.png")}
            fs.full()
            digests = {n: sha(p) for n, p in old.items()}
            rc, _, err, _ = run_app(["--open", r.a, "--json", old["old.json"], "--export-chart",
                                     old["old.svg"], "--screenshot", old["old.png"],
                                     "--quit-when-done"])
            print("# " + err.strip().replace("\n", "\n# "))
            check(rc == 1, f"exit {rc}: {err}")
            for name in ("old.json", "old.svg", "old.png"):
                check(old[name] in err and f"(the old {old[name]} was kept)" in err,
                      f"{name}: {err}")
            check(err.count("No space left on device") >= 3, err)
            rc, _, err, _ = run_app(["--open", r.a, "--json", old["old.csv"], "--quit-when-done"])
            check(rc == 1 and f"(the old {old['old.csv']} was kept)" in err, f"csv: {err}")
            for n, p in old.items():
                check(sha(p) == digests[n], f"{n} changed")
            check(fs.listing() == fs.before, f"left: {fs.listing()}")


def test_open_fifo_refused():
    """--open of a FIFO nobody writes: an error at once, no tab, no hang."""
    with Results() as r:
        fifo = r.path("fifo.csv")
        os.mkfifo(fifo)
        rc, lines, err, took = run_app(["--open", fifo, "--dump-tiles", "--quit-when-done"],
                                       timeout=60)
        check(rc == 1, f"exit {rc}: {err}")
        msg = field(lines, "error")
        check(msg and fifo in msg and "is a FIFO, not a regular file" in msg, f"info bar: {msg!r}")
        check(rows(lines, "tab") == [], "a tab was opened")
        return msg


def test_markup_shows_literally():
    """A bad file whose name holds Pango markup and an ampersand: the
    info bar shows the name as it is, not bold, not cut at the '&'."""
    with Results() as r:
        name = "x<b>bold<\\b> & <i>y&amp;.csv"  # no "/" in a name
        bad = r.path(name)
        open(bad, "w").write("name,size\nfoo,1\n")
        rc, lines, err, _ = run_app(["--open", bad, "--dump-tiles", "--quit-when-done"])
        check(rc == 1, f"exit {rc}: {err}")
        msg = field(lines, "error")
        check(msg and name in msg, f"the name is not shown literally: {msg!r}")
        return msg


def test_same_file_twice():
    """--json, --screenshot and --export-chart naming one file under two
    spellings: a usage error (exit 2) before anything runs or is written."""
    with Results() as r:
        f = r.path("out.png")
        for a, b in ((["--json", f], ["--screenshot", os.path.join(r.dir, ".", "out.png")]),
                     (["--export-chart", f], ["--screenshot", f])):
            rc, _, err, _ = run_app(["--open", r.a] + a + b + ["--quit-when-done"], timeout=60)
            check(rc == 2 and "are the same file" in err, f"{a} {b}: exit {rc}: {err}")
            check(not os.path.exists(f), "a file was written")
        return err.strip().splitlines()[-2] if err.count("\n") > 1 else err.strip()


def test_open_file_is_an_output():
    """--json or --export-chart naming a file --open opens (itself, a
    symbolic link to it, a hard link): a usage error (exit 2) before
    anything is written; the opened result unchanged."""
    with Results() as r:
        digest = sha(r.a)
        link, hard = r.path("link.svg"), r.path("hard.json")
        os.symlink(r.a, link)
        os.link(r.a, hard)
        for a in (["--json", r.a], ["--export-chart", link], ["--json", hard]):
            rc, _, err, _ = run_app(["--open", r.a] + a + ["--quit-when-done"], timeout=60)
            check(rc == 2 and "is the file --open" in err, f"{a}: exit {rc}: {err}")
        check(sha(r.a) == digest and os.path.islink(link), "the opened result changed")
        return err.strip().splitlines()[-1]


def test_append_only_output_refused_before_the_window():
    """--json into a chattr +a directory: exit 1 before the window opens,
    the message says append-only; the old file unchanged, nothing added."""
    if os.geteuid() != 0:
        raise Skip("needs root (chattr +a)")
    import subprocess
    with Results() as r:
        ad = r.path("ad")
        os.mkdir(ad)
        old = os.path.join(ad, "old.json")
        open(old, "w").write("old\n")
        if subprocess.run(["chattr", "+a", ad], capture_output=True).returncode != 0:
            raise Skip("chattr +a is not supported here")
        try:
            rc, _, err, _ = run_app(["--open", r.a, "--json", old, "--quit-when-done"],
                                    timeout=60)
        finally:
            subprocess.run(["chattr", "-a", ad], capture_output=True)
        check(rc == 1 and "append-only (chattr +a)" in err, f"exit {rc}: {err}")
        check(open(old).read() == "old\n" and os.listdir(ad) == ["old.json"], "changed")
        return err.strip().splitlines()[-1]


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
