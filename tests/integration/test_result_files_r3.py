#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Result files, round three (review findings 5, 7, 8, 9, 10): a directory
where a result could not be renamed into place (chattr +a or +i, an
append-only directory behind bindfs, another user's file in a sticky
directory) is refused before anything is measured; a rename that fails
after the run removes the temporary file and says so; a --json pipe whose
reader went away is an error naming it (EPIPE, not a silent SIGPIPE) and
the CSV is still written; chart --out and two outputs naming one file
(a link, a hard link, names that differ only in case) are refused; a
Latin-1 target name gives a CSV that `show` reads (U+FFFD, as JSON); a
result file on a frozen file system says it is being written, and a run
stopped there leaves no temporary file. Mounts under the build dir,
removed whatever happens; root parts skip with the reason. Prints TAP.

    test_result_files_r3.py DRIVEMARK_CLI"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import dmktest  # noqa: E402
from dmktest import Skip, check, need_root, sha  # noqa: E402
from test_real_faults import CLI, NOBODY, Mounts, run, world_dir  # noqa: E402

NULL_QUICK = ["--backend", "null", "--size", "16MiB", "--test", "SEQ1M Q1T1", "--passes", "1",
              "--measure", "0.1", "--warmup", "0", "--interval", "0", "--quiet"]
MIB = 1 << 20


class Dir(dmktest.Dir):
    prefix = "results3-"


def chattr(flag, path):
    r = subprocess.run(["chattr", flag, path], capture_output=True, text=True)
    if r.returncode != 0:
        raise Skip(f"chattr {flag}: {r.stderr.strip()}")


def a_target(d):
    t = os.path.join(d, "t")
    os.makedirs(t, exist_ok=True)
    return t


# ---- 7: a directory where the result could not be renamed into place ---------------


def test_append_only_and_immutable_refused_up_front():
    """chattr +a / +i on the result's directory: exit 1 before the run,
    the message names the directory and why; the old file is unchanged and
    nothing new is in the directory (the run never started)."""
    need_root("chattr", why="chattr +a")
    with Dir() as d:
        ad = os.path.join(d, "ad")
        os.mkdir(ad)
        old = os.path.join(ad, "F")
        open(old, "w").write("old\n")
        target = a_target(d)
        for flag, word in (("+a", "append-only (chattr +a)"), ("+i", "immutable (chattr +i)")):
            chattr(flag, ad)
            try:
                for opt in ("--json", "--csv"):
                    r = run(["run", "--target", target, opt, old] + NULL_QUICK)
                    dmktest.note(r.stderr.strip())
                    check(r.returncode == 1, f"{flag} {opt}: exit {r.returncode}: {r.stderr}")
                    check(f"its directory {os.path.realpath(ad)} is {word}" in r.stderr,
                          f"{flag} {opt}: {r.stderr!r}")
                    check(r.stdout == "", f"{flag} {opt}: the run ran: {r.stdout[:200]!r}")
                    check(sorted(os.listdir(ad)) == ["F"], f"{flag}: left {os.listdir(ad)}")
                    check(open(old).read() == "old\n", f"{flag}: the old file changed")
            finally:
                chattr("-" + flag[1], ad)


def test_append_only_behind_bindfs_refused_up_front():
    """The same directory seen through bindfs (no chattr flags to read
    there): the probe's rename fails before the run, the message says so
    and names the empty test file it could not remove (an append-only
    directory allows no removal); the old file is unchanged."""
    need_root("chattr", "bindfs", "fusermount")
    with Dir() as d:
        src, mnt = os.path.join(d, "src"), os.path.join(d, "mnt")
        os.mkdir(src)
        os.mkdir(mnt)
        open(os.path.join(src, "F"), "w").write("old\n")
        chattr("+a", src)
        mounted = False
        try:
            r = subprocess.run(["bindfs", src, mnt], capture_output=True, text=True)
            if r.returncode != 0:
                raise Skip(f"bindfs: {r.stderr.strip()}")
            mounted = True
            r = run(["run", "--target", a_target(d), "--json", os.path.join(mnt, "F")]
                    + NULL_QUICK)
            dmktest.note(r.stderr.strip())
            check(r.returncode == 1 and r.stdout == "", f"exit {r.returncode}: {r.stdout[:200]}")
            check("renaming a test file in" in r.stderr and "could not replace" in r.stderr,
                  r.stderr)
            left = [e for e in os.listdir(src) if e != "F"]
            for e in left:
                check(e in r.stderr, f"{e} left but not named: {r.stderr}")
            check(open(os.path.join(src, "F")).read() == "old\n", "the old file changed")
        finally:
            if mounted:
                subprocess.run(["fusermount", "-u", mnt], capture_output=True)
            chattr("-a", src)


def test_sticky_other_users_file_refused():
    """User nobody writing --csv over root's world-writable file in a 1777
    directory (as /tmp): rename could never replace it, so it is refused
    up front naming the owner and the sticky directory; unchanged."""
    need_root("setpriv", why="another user")
    with Dir() as base:
        # The build's test dir is closed to other users: a directory on
        # the same kind of disk that user nobody can reach, removed after.
        d = base
        try:
            world_dir(d)
        except Skip:
            d = tempfile.mkdtemp(prefix="drivemark-r3-", dir="/var/tmp")
        try:
            sticky_case(d)
        finally:
            if d != base:
                shutil.rmtree(d, ignore_errors=True)


def sticky_case(d):
    """test_sticky_other_users_file_refused in d, which nobody can reach."""
    world_dir(d)
    sticky = os.path.join(d, "sticky")
    os.mkdir(sticky)
    os.chmod(sticky, 0o1777)
    old = os.path.join(sticky, "F.csv")
    open(old, "w").write("old\n")
    os.chmod(old, 0o666)
    target = os.path.join(d, "nt")
    os.mkdir(target)
    os.chmod(target, 0o777)
    r = run(["run", "--target", target, "--csv", old] + NULL_QUICK, prefix=NOBODY)
    dmktest.note(r.stderr.strip())
    check(r.returncode == 1, f"exit {r.returncode}: {r.stderr}")
    check("belongs to another user (uid 0) in the sticky directory" in r.stderr, r.stderr)
    check(open(old).read() == "old\n" and os.listdir(sticky) == ["F.csv"], "changed")
    # A new name in the same directory is fine.
    new = os.path.join(sticky, "mine.csv")
    r = run(["run", "--target", target, "--csv", new] + NULL_QUICK, prefix=NOBODY)
    check(r.returncode == 0 and os.path.exists(new), f"a new name: {r.stderr}")


def held_run(d, outputs, act, quiet=True):
    """A verified write run on a directory under d, held before its read
    back while act() runs; (proc, held, stdout, stderr)."""
    args = [CLI, "run", "--target", a_target(d), "--size", "16MiB", "--test", "SEQ1M Q1T1",
            "--mode", "write", "--verify", "--passes", "1", "--measure", "0.1", "--warmup", "0",
            "--interval", "0"] + (["--quiet"] if quiet else []) + outputs
    return dmktest.held_run(d, args, act)


def test_rename_failure_after_run_removes_temp():
    """The rename after the run fails (the old file became a directory
    while the run was held): exit 1, the message names the rename and says
    the temporary file was removed; nothing but what was there is left."""
    with Dir() as d:
        out = os.path.join(d, "out")
        os.mkdir(out)
        f = os.path.join(out, "r.json")
        open(f, "w").write("old\n")

        def swap():
            os.remove(f)
            os.mkdir(f)
            open(os.path.join(f, "inside"), "w").close()  # rename(2) cannot replace it

        proc, held, _, err = held_run(d, ["--json", f], swap)
        dmktest.note(err.strip())
        check(held, f"never held: {err}")
        check(proc.returncode == 1, f"exit {proc.returncode}: {err}")
        check("renaming" in err and "its temporary file was removed" in err, err)
        check(sorted(os.listdir(out)) == ["r.json"], f"left: {os.listdir(out)}")


# ---- 8: a pipe whose reader went away ----------------------------------------------


def test_json_pipe_reader_gone_csv_still_written():
    """--json into a pipe whose reader closes during the run (its buffer
    full, so the write waits for it), --csv into a file: no silent death by
    SIGPIPE (exit 141), but exit 1 with the pipe named and 'Broken pipe',
    and the CSV is complete."""
    with Dir() as d:
        rfd, wfd = os.pipe()
        os.set_blocking(wfd, False)
        try:
            while True:
                os.write(wfd, b"x" * 65536)
        except BlockingIOError:
            pass
        os.set_blocking(wfd, True)
        csv = os.path.join(d, "r.csv")
        path = f"/dev/fd/{wfd}"
        args = [CLI, "run", "--target", a_target(d), "--json", path, "--csv", csv] + [
            a for a in NULL_QUICK if a != "--quiet"]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, pass_fds=(wfd,))
        os.close(wfd)
        try:
            # Said just before the JSON is written (the pipe is open since
            # before the run): the reader goes away now.
            seen = []
            for line in proc.stderr:
                seen.append(line)
                if f"writing the result file {path}" in line:
                    break
            os.close(rfd)
            rfd = -1
            err = "".join(seen) + proc.stderr.read()
            proc.wait(timeout=60)
        finally:
            if rfd >= 0:
                os.close(rfd)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        dmktest.note(err.strip())
        check(proc.returncode == 1, f"exit {proc.returncode}: {err}")
        check(f"writing {path} failed: Broken pipe" in err, err)
        rows = dmktest.read_csv(csv)
        check(rows and rows[0]["complete"] == "1", "the CSV was not written whole")


# ---- 9: one file under two names --------------------------------------------------


def test_chart_out_is_an_input():
    """chart --out naming its input (a symbolic link to it, a hard link,
    ./ and ../ spellings): exit 2, the input unchanged, no chart."""
    with Dir() as d:
        src = os.path.join(d, "in.csv")
        r = run(["run", "--target", a_target(d), "--csv", src] + NULL_QUICK)
        check(r.returncode == 0, r.stderr)
        digest = sha(src)
        os.symlink("in.csv", os.path.join(d, "link.svg"))
        os.link(src, os.path.join(d, "hard.png"))
        os.mkdir(os.path.join(d, "sub"))
        for out, inp in ((os.path.join(d, "link.svg"), src),
                         (os.path.join(d, "hard.png"), src),
                         (os.path.join(d, "link.svg"), os.path.join(d, "sub", "..", "in.csv")),
                         (os.path.join(d, "hard.png"), os.path.join(d, ".", "hard.png"))):
            r = run(["chart", "--out", out, inp])
            check(r.returncode == 2 and "the chart would replace it" in r.stderr,
                  f"{out} {inp}: exit {r.returncode}: {r.stderr}")
        dmktest.note(r.stderr.strip())
        check(sha(src) == digest and os.path.islink(os.path.join(d, "link.svg")), "changed")
        r = run(["chart", "--out", os.path.join(d, "c.svg"), src])
        check(r.returncode == 0 and os.path.getsize(os.path.join(d, "c.svg")) > 0, r.stderr)


def test_names_differing_in_case():
    """Two new outputs whose names differ only in case: refused (on a
    file system that ignores case they would be one file); on a vfat loop
    mount an existing R.JSON is caught by identity as r.json's file."""
    with Dir() as d:
        t = a_target(d)
        r = run(["run", "--target", t, "--json", os.path.join(d, "R.json"), "--csv",
                 os.path.join(d, "r.JSON")] + NULL_QUICK)
        check(r.returncode == 2 and "are the same file" in r.stderr, r.stderr)
        if os.geteuid() != 0 or not shutil.which("mkfs.vfat"):
            dmktest.note("vfat part skipped: needs root and mkfs.vfat (dosfstools)")
            return
        with Mounts() as m:
            img, mnt = os.path.join(d, "vfat.img"), os.path.join(d, "vfat")
            with open(img, "wb") as f:
                f.truncate(32 * MIB)
            if subprocess.run(["mkfs.vfat", img], capture_output=True).returncode != 0:
                raise Skip("mkfs.vfat failed")
            m.mount(["-o", "loop", img], mnt)
            old = os.path.join(mnt, "R.JSON")
            open(old, "w").write("old\n")
            r = run(["run", "--target", t, "--json", old, "--csv", os.path.join(mnt, "r.json")]
                    + NULL_QUICK)
            check(r.returncode == 2 and "are the same file" in r.stderr, r.stderr)
            check(open(old).read() == "old\n", "changed")


# ---- 10: a CSV the program can read back --------------------------------------------


def test_latin1_target_name_csv_readable():
    """A target directory named 'M\\xfcller' (Latin-1, not UTF-8): the CSV's
    text cells are valid UTF-8 with U+FFFD for the byte, as the JSON's;
    `show` reads the CSV."""
    with Dir() as d:
        t = os.path.join(os.fsencode(d), b"M\xfcller")
        os.mkdir(t)
        csv, js = os.path.join(d, "r.csv"), os.path.join(d, "r.json")
        r = subprocess.run([os.fsencode(CLI), b"run", b"--target", t, b"--csv", csv.encode(),
                            b"--json", js.encode()] + [a.encode() for a in NULL_QUICK],
                           capture_output=True, timeout=60)
        check(r.returncode == 0, r.stderr.decode("utf-8", "replace"))
        raw = open(csv, "rb").read()
        text = raw.decode("utf-8")  # raises if not valid UTF-8
        check("M\ufffdller" in text, "no U+FFFD in the CSV")
        doc = json.dumps(json.load(open(js)), ensure_ascii=False)
        check("M\ufffdller" in doc, "no U+FFFD in the JSON")
        s = run(["show", csv])
        check(s.returncode == 0, f"show: {s.stderr}")


# ---- 5: a result file on a frozen file system -------------------------------------


def test_frozen_result_fs_says_so_and_leaves_nothing():
    """The result's ext4 frozen while the run is held: the run says it is
    writing the result file; SIGINT ends it; after the thaw the old file
    is intact and no temporary file is in the directory."""
    need_root("mkfs.ext4", "fsfreeze")
    with Dir() as d, Mounts() as m:
        mnt = m.ext4(os.path.join(d, "img"), os.path.join(d, "m"), 32 * MIB)
        old = os.path.join(mnt, "r.csv")
        open(old, "w").write("old\n")
        frozen = []

        def freeze():
            if subprocess.run(["fsfreeze", "--freeze", mnt]).returncode == 0:
                frozen.append(mnt)

        fifo = os.path.join(d, "hold")
        os.mkfifo(fifo)
        args = [CLI, "run", "--target", a_target(d), "--size", "16MiB", "--test", "SEQ1M Q1T1",
                "--mode", "write", "--verify", "--passes", "1", "--measure", "0.1", "--warmup",
                "0", "--interval", "0", "--csv", old]
        env = dict(os.environ, DMK_TEST_VERIFY_HOLD=fifo)
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, env=env)
        try:
            held = dmktest.hold_then(proc, fifo, freeze)
            check(held and frozen, "never held or not frozen")
            seen = ""
            for line in proc.stderr:
                seen += line
                if "writing the result file" in line:
                    break
            check(f"writing the result file {old}" in seen, f"no notice: {seen!r}")
            proc.send_signal(signal.SIGINT)
            rc = proc.wait(timeout=120)
            dmktest.note(f"exit {rc} after SIGINT; {seen.strip()}")
            check(rc != 0, "a stopped run reported success")
        finally:
            for p in frozen:
                subprocess.run(["fsfreeze", "--unfreeze", p])
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        # The child stuck in the kernel goes once thawed; wait for it.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(
                e.startswith(".drivemark-result-") for e in os.listdir(mnt)):
            time.sleep(0.1)
        left = sorted(e for e in os.listdir(mnt) if e != "lost+found")
        check(left == ["r.csv"], f"left: {left}")
        body = open(old).read()
        check(body == "old\n" or body.startswith("schema") or "drivemark" in body,
              "the result is cut")


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
