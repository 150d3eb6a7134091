#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Result files are never replaced in place (docs/results.md, "Result
files"): on a full loop-mounted ext4 an older CSV, JSON or chart survives
byte for byte for every command that writes one (run, sweep, a lab test,
chart); a symbolic link is written through to its target and kept; a hard
link's other names keep the old content; permissions and owner of an old
file are kept, a new one follows the umask; the same file under two
spellings is refused; /dev/stdout (and /dev/fd/1, /proc/self/fd/1) in a
pipe is stdout, with the table moved to stderr; a FIFO with no reader as
an output, or any FIFO as an input, is refused at once instead of
blocking (each run under a timeout, so a regression fails, not hangs);
/dev/null keeps working and is never removed; a block device is refused.
Mounts and loop devices live under the build dir and are removed
whatever happens; what needs root skips with its reason. Prints TAP.

    test_result_files.py DRIVEMARK_CLI"""

import csv as csv_mod
import errno
import io
import json
import os
import stat
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dmktest  # noqa: E402
from dmktest import Skip, check, read_csv, sha  # noqa: E402
from test_real_faults import CLI, Mounts, need_root, run  # noqa: E402

NULL_QUICK = ["--backend", "null", "--size", "16MiB", "--test", "SEQ1M Q1T1", "--passes", "1",
              "--measure", "0.1", "--warmup", "0", "--interval", "0", "--quiet"]
SWEEP_QUICK = ["--backend", "null", "--size", "16MiB", "--qd", "1,2", "--passes", "1",
               "--measure", "0.1", "--warmup", "0", "--interval", "0", "--quiet"]
LAB_QUICK = ["--backend", "null", "--size", "16MiB", "--duration", "1", "--sample", "0.5",
             "--settle", "0", "--quiet"]
# A run that hangs is a failure, not a stuck suite.
LIMIT = 30
MIB = 1 << 20


class Dir(dmktest.Dir):
    prefix = "results-"




def old_bytes(kind):
    """An old result's bytes: not what any run writes now."""
    return (f"old {kind} result, kept byte for byte\n" * 200).encode()


def fill(mnt):
    """Fills the file system at mnt to the last block (as root: reserved
    blocks too), so the next data write fails with ENOSPC."""
    path = os.path.join(mnt, "filler")
    with open(path, "wb", buffering=0) as f:
        for size in (MIB, 4096, 1):
            try:
                while True:
                    f.write(b"\xa5" * size)
            except OSError as e:
                check(e.errno == errno.ENOSPC, f"filling: {e}")
        os.fsync(f.fileno())
    try:
        with open(os.path.join(mnt, "probe"), "wb", buffering=0) as f:
            f.write(b"x" * 65536)
            os.fsync(f.fileno())
        raise Skip("the file system did not fill")
    except OSError:
        os.remove(os.path.join(mnt, "probe"))


class FullFs:
    """A 16 MiB ext4, loop-mounted, holding old results, then filled."""

    def __init__(self, d):
        self.d = d

    def __enter__(self):
        need_root("mkfs.ext4")
        self.m = Mounts().__enter__()
        self.mnt = self.m.ext4(os.path.join(self.d, "img"), os.path.join(self.d, "mnt"),
                               16 * MIB)
        return self

    def put(self, name, data):
        path = os.path.join(self.mnt, name)
        open(path, "wb").write(data)
        return path

    def full(self):
        fill(self.mnt)
        self.before = self.listing()

    def listing(self):
        return sorted(e for e in os.listdir(self.mnt) if e != "lost+found")

    def __exit__(self, *exc):
        self.m.__exit__(*exc)


def check_kept(r, path, digest, what):
    """r failed, naming path, ENOSPC and that the old file was kept; the
    file is byte for byte what it was."""
    dmktest.note(f"{what}: {r.stderr.strip()[:300]}")
    check(r.returncode == 1, f"{what}: exit {r.returncode}: {r.stderr}")
    check("No space left on device" in r.stderr, f"{what}: no ENOSPC: {r.stderr}")
    check(f"(the old {path} was kept)" in r.stderr, f"{what}: no 'kept': {r.stderr}")
    check(sha(path) == digest, f"{what}: {path} changed")


def a_result(d, name="in.csv"):
    """A complete CSV of a null-backend run, to chart."""
    target = os.path.join(d, "t")
    os.makedirs(target, exist_ok=True)
    path = os.path.join(d, name)
    r = run(["run", "--target", target, "--csv", path] + NULL_QUICK)
    check(r.returncode == 0, f"the result: {r.stderr}")
    return path


# ---- a full file system ------------------------------------------------------


def test_full_fs_keeps_old_results():
    """run, sweep and a lab test with --csv and --json over old results on
    a full ext4: exit 1, 'No space left on device', the old files kept."""
    with Dir() as d, FullFs(d) as fs:
        target = os.path.join(d, "t")
        os.mkdir(target)
        csv = fs.put("old.csv", old_bytes("csv"))
        js = fs.put("old.json", old_bytes("json"))
        fs.full()
        digests = (sha(csv), sha(js))
        for cmd in (["run"] + NULL_QUICK, ["sweep", "qd"] + SWEEP_QUICK,
                    ["sustained"] + LAB_QUICK):
            r = run(cmd + ["--target", target, "--csv", csv, "--json", js], timeout=LIMIT)
            check_kept(r, js, digests[1], f"{cmd[0]} --json")
            check_kept(r, csv, digests[0], f"{cmd[0]} --csv")
            check(fs.listing() == fs.before, f"{cmd[0]}: left {fs.listing()}")
            check(os.listdir(target) == [], f"{cmd[0]}: left in the target")


def test_full_fs_keeps_old_chart():
    """chart --out over an old chart on a full file system: the old one kept."""
    with Dir() as d, FullFs(d) as fs:
        src = a_result(d)
        charts = {ext: fs.put("old." + ext, old_bytes(ext)) for ext in ("svg", "png", "pdf")}
        fs.full()
        for ext, path in charts.items():
            digest = sha(path)
            r = run(["chart", "--out", path, src], timeout=LIMIT)
            check_kept(r, path, digest, f"chart {ext}")
        check(fs.listing() == fs.before, f"left {fs.listing()}")


def test_replaced_when_room():
    """With room, the same old files are replaced by complete new ones and
    no temporary file is left."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        csv, js = os.path.join(d, "r.csv"), os.path.join(d, "r.json")
        open(csv, "wb").write(old_bytes("csv"))
        open(js, "wb").write(old_bytes("json"))
        r = run(["run", "--target", target, "--csv", csv, "--json", js] + NULL_QUICK)
        check(r.returncode == 0, r.stderr)
        check(read_csv(csv)[0]["complete"] == "1", "the new CSV")
        check(json.load(open(js))["complete"] is True, "the new JSON")
        check(sorted(os.listdir(d)) == ["r.csv", "r.json", "t"], f"left: {os.listdir(d)}")


# ---- links, permissions --------------------------------------------------------


def test_symlink_written_through():
    """An output that is a symbolic link: its final target (through a chain
    of links, relative or absolute) gets the new file, the links stay; a
    dangling link creates its target; on a full file system the target is
    kept."""
    with Dir() as d:
        target = os.path.join(d, "t")
        a, b = os.path.join(d, "a"), os.path.join(d, "b")
        for p in (target, a, b):
            os.mkdir(p)
        real = os.path.join(b, "real.csv")
        open(real, "wb").write(old_bytes("csv"))
        os.symlink("../b/real.csv", os.path.join(a, "hop.csv"))
        link = os.path.join(a, "link.csv")
        os.symlink(os.path.join(a, "hop.csv"), link)
        dangling = os.path.join(a, "new.json")
        os.symlink("../b/made.json", dangling)
        r = run(["run", "--target", target, "--csv", link, "--json", dangling] + NULL_QUICK)
        check(r.returncode == 0, r.stderr)
        check(os.path.islink(link) and os.readlink(link) == os.path.join(a, "hop.csv"),
              "the link was replaced")
        check(os.path.islink(os.path.join(a, "hop.csv")), "the middle link was replaced")
        check(read_csv(real)[0]["complete"] == "1", "the target has the new result")
        check(os.path.islink(dangling), "the dangling link was replaced")
        check(json.load(open(os.path.join(b, "made.json")))["complete"] is True, "made.json")
        check(sorted(os.listdir(b)) == ["made.json", "real.csv"], f"left in b: {os.listdir(b)}")
        check(sorted(os.listdir(a)) == ["hop.csv", "link.csv", "new.json"], f"a: {os.listdir(a)}")
        # a link to a directory is a directory
        os.symlink(b, os.path.join(a, "dir.csv"))
        r = run(["run", "--target", target, "--csv", os.path.join(a, "dir.csv")] + NULL_QUICK)
        check(r.returncode == 1 and "Is a directory" in r.stderr, r.stderr)
    if os.geteuid() != 0:
        return "the full file system part needs root"
    with Dir() as d, FullFs(d) as fs:
        real = fs.put("real.csv", old_bytes("csv"))
        link = os.path.join(d, "link.csv")
        os.symlink(real, link)
        fs.full()
        digest = sha(real)
        target = os.path.join(d, "t")
        os.mkdir(target)
        r = run(["run", "--target", target, "--csv", link] + NULL_QUICK, timeout=LIMIT)
        check_kept(r, link, digest, "symlink on a full fs")
        check(sha(real) == digest and os.path.islink(link), "the link or its target changed")
        check(fs.listing() == fs.before, f"left {fs.listing()}")


def test_hard_link_split():
    """An output with another hard link: the name given gets the new file
    (a new inode), the other name keeps the old result whole, as
    docs/results.md says."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        one, other = os.path.join(d, "one.csv"), os.path.join(d, "other.csv")
        open(one, "wb").write(old_bytes("csv"))
        os.link(one, other)
        digest = sha(other)
        r = run(["run", "--target", target, "--csv", one] + NULL_QUICK)
        check(r.returncode == 0, r.stderr)
        check(read_csv(one)[0]["complete"] == "1", "the new result")
        check(sha(other) == digest, "the other name's old result changed")
        check(os.stat(one).st_nlink == 1 and os.stat(other).st_nlink == 1, "still linked")


def test_mode_and_owner():
    """A replaced file keeps its permissions (and, as root, its owner); a
    new file gets what the umask gives a new file."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        old = os.path.join(d, "old.csv")
        open(old, "wb").write(old_bytes("csv"))
        os.chmod(old, 0o604)
        root = os.geteuid() == 0
        if root:
            os.chown(old, 65534, 65534)
        new = os.path.join(d, "new.csv")

        def umask():
            os.umask(0o027)
        r = run(["run", "--target", target, "--csv", old, "--json", new] + NULL_QUICK,
                preexec_fn=umask)
        check(r.returncode == 0, r.stderr)
        st = os.stat(old)
        check(stat.S_IMODE(st.st_mode) == 0o604, f"mode {oct(st.st_mode)}")
        if root:
            check((st.st_uid, st.st_gid) == (65534, 65534), f"owner {st.st_uid}:{st.st_gid}")
        check(stat.S_IMODE(os.stat(new).st_mode) == 0o640, f"new {oct(os.stat(new).st_mode)}")


# ---- one file twice ---------------------------------------------------------------


def test_same_file_twice():
    """--json and --csv naming one file under two spellings: exit 2 and a
    message, nothing created or changed, before the run."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        sub = os.path.join(d, "sub")
        os.mkdir(sub)
        f = os.path.join(d, "F.csv")
        open(f, "wb").write(old_bytes("csv"))
        os.symlink(f, os.path.join(d, "L.csv"))
        os.link(f, os.path.join(d, "H.csv"))
        new = os.path.join(d, "N.csv")
        pairs = [(f, os.path.join(d, ".", "F.csv")), (f, os.path.join(sub, "..", "F.csv")),
                 (f, os.path.join(d, "L.csv")), (os.path.join(d, "H.csv"), f),
                 (new, os.path.join(sub, "..", "N.csv")), ("-", "/dev/stdout")]
        digest = sha(f)
        for js, csv in pairs:
            r = run(["run", "--target", target, "--json", js, "--csv", csv] + NULL_QUICK)
            check(r.returncode == 2, f"{js} {csv}: exit {r.returncode}: {r.stderr}")
            check("are the same file" in r.stderr, f"{js} {csv}: {r.stderr}")
            check(r.stdout == "", f"{js} {csv}: printed {r.stdout[:100]!r}")
        dmktest.note(r.stderr.strip())
        check(sha(f) == digest and not os.path.exists(new), "a file was written")
        check(os.listdir(target) == [], "the run ran")


# ---- stdout ------------------------------------------------------------------------


def test_dev_stdout_in_a_pipe():
    """/dev/stdout, /dev/fd/1 and /proc/self/fd/1 in a pipe are stdout: it
    carries only the CSV or JSON, the table goes to stderr."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        for path in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"):
            if not os.path.exists(path):
                continue
            r = run(["run", "--target", target, "--csv", path] + NULL_QUICK)
            check(r.returncode == 0, f"{path}: {r.stderr}")
            rows = list(csv_mod.DictReader(io.StringIO(r.stdout)))
            check(rows and rows[0]["complete"] == "1", f"{path}: stdout is not the CSV")
            check("[Read]" in r.stderr and "Drivemark" not in r.stdout, f"{path}: mixed")
            r = run(["run", "--target", target, "--json", path] + NULL_QUICK)
            check(r.returncode == 0 and json.loads(r.stdout)["complete"] is True, path)
            check("[Read]" in r.stderr, f"{path}: the table is not on stderr")


def test_dev_null():
    """/dev/null as every output: exit 0, still the device afterwards."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        for opt in ("--csv", "--json"):
            r = run(["run", "--target", target, opt, "/dev/null"] + NULL_QUICK)
            check(r.returncode == 0 and "[Read]" in r.stdout, r.stderr)
        r = run(["chart", "--out", os.path.join(d, "null.png"), a_result(d)])
        check(r.returncode == 0, r.stderr)
        os.symlink("/dev/null", os.path.join(d, "n.svg"))
        r = run(["chart", "--out", os.path.join(d, "n.svg"), os.path.join(d, "in.csv")])
        check(r.returncode == 0, r.stderr)
        check(stat.S_ISCHR(os.stat("/dev/null").st_mode), "/dev/null is no device now")
        check(os.path.islink(os.path.join(d, "n.svg")), "the link to /dev/null was replaced")


# ---- FIFOs and devices ----------------------------------------------------------------


def test_fifo_without_reader_refused():
    """A FIFO with no reader as --json, --csv or chart --out: refused at once
    naming it, no run, the FIFO still there."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        fifo = os.path.join(d, "f.png")
        os.mkfifo(fifo)
        src = a_result(d)
        for args in (["run", "--target", target, "--json", fifo] + NULL_QUICK,
                     ["run", "--target", target, "--csv", fifo] + NULL_QUICK,
                     ["sweep", "qd", "--target", target, "--csv", fifo] + SWEEP_QUICK,
                     ["chart", "--out", fifo, src]):
            r = run(args, timeout=LIMIT)
            check(r.returncode == 1, f"{args[0]}: exit {r.returncode}: {r.stderr}")
            check(f"{fifo} for writing failed: it is a FIFO with no reader, not a regular file"
                  in r.stderr, f"{args[0]}: {r.stderr}")
            check(stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO was replaced")
            check(os.listdir(target) == [], "the run ran")
        dmktest.note(r.stderr.strip())


def test_fifo_with_reader_written():
    """A FIFO with a reader (a pipe such as >(jq .)) is written as it is."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        fifo = os.path.join(d, "f.json")
        os.mkfifo(fifo)
        # The test holds the read end (O_RDWR: the FIFO never reports the
        # end, so the result, smaller than the pipe's buffer, waits in it).
        rfd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        try:
            r = run(["run", "--target", target, "--json", fifo] + NULL_QUICK, timeout=LIMIT)
            got = os.read(rfd, 1 << 20)
        finally:
            os.close(rfd)
        check(r.returncode == 0, r.stderr)
        check(json.loads(got)["complete"] is True, f"read {got[:100]!r}")


def test_fifo_as_input_refused():
    """show, chart and their inputs: a FIFO (which no one writes) refused
    at once as what it is."""
    with Dir() as d:
        fifo = os.path.join(d, "in.csv")
        os.mkfifo(fifo)
        for args in (["show", fifo], ["chart", "--out", os.path.join(d, "c.png"), fifo]):
            r = run(args, timeout=LIMIT)
            check(r.returncode == 1, f"{args[0]}: exit {r.returncode}")
            check(r.stderr == f"drivemark-cli: opening {fifo} failed: it is a FIFO, not a "
                  "regular file\n", f"{args[0]}: {r.stderr!r}")
        check(not os.path.exists(os.path.join(d, "c.png")), "a chart of nothing")


def test_block_device_refused():
    """A block device as --csv is refused (a result written over it would
    destroy what it holds); the device's contents are unchanged."""
    need_root("losetup")
    with Dir() as d:
        img = os.path.join(d, "img")
        open(img, "wb").write(b"\x5a" * (4 * MIB))
        r = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
        if r.returncode != 0:
            raise Skip(f"losetup: {r.stderr.strip()}")
        loop = r.stdout.strip()
        try:
            digest = sha(img)
            target = os.path.join(d, "t")
            os.mkdir(target)
            r = run(["run", "--target", target, "--csv", loop] + NULL_QUICK, timeout=LIMIT)
            check(r.returncode == 1 and "it is a block device, not a regular file" in r.stderr,
                  r.stderr)
        finally:
            subprocess.run(["losetup", "-d", loop], capture_output=True)
        check(sha(img) == digest, "the device was written")


def close_write_events(path):
    """An inotify descriptor watching path for a close after a write-open
    (IN_CLOSE_WRITE, what makes udev rescan a disk), and a function that
    says how many came."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
    check(fd >= 0, f"inotify_init1: errno {ctypes.get_errno()}")
    check(libc.inotify_add_watch(fd, path.encode(), 0x8) >= 0, f"inotify_add_watch {path}")

    def count():
        try:
            return len(os.read(fd, 4096)) // 16  # events carry no name for a watched file
        except BlockingIOError:
            return 0
        finally:
            os.close(fd)
    return count


def test_block_device_never_opened_for_writing():
    """--csv and --json naming a block device are refused before any
    write-open: no close-after-write reaches the device (udev would
    rescan it), and its contents are unchanged."""
    need_root("losetup")
    with Dir() as d:
        img = os.path.join(d, "img")
        open(img, "wb").write(b"\x5a" * (4 * MIB))
        r = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
        if r.returncode != 0:
            raise Skip(f"losetup: {r.stderr.strip()}")
        loop = r.stdout.strip()
        try:
            digest = sha(img)
            target = os.path.join(d, "t")
            os.mkdir(target)
            for opt in ("--csv", "--json"):
                events = close_write_events(loop)
                r = run(["run", "--target", target, opt, loop] + NULL_QUICK, timeout=LIMIT)
                n = events()
                print(f"# {opt} {loop}: exit {r.returncode}, {n} close-after-write events")
                check(r.returncode == 1 and "it is a block device, not a regular file" in r.stderr,
                      r.stderr)
                check(n == 0, f"{opt}: {loop} was opened for writing ({n} IN_CLOSE_WRITE)")
        finally:
            subprocess.run(["losetup", "-d", loop], capture_output=True)
        check(sha(img) == digest, "the device was written")


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
