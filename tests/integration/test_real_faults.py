#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Real faults under directory targets, through drivemark-cli: a full file
system before the test file is allocated and during the run, root-reserved
blocks, a read-only bind mount, a directory the user may not write, ramfs
(no direct I/O), a file-size limit, results saved to /dev/full or to a
path that cannot be a file, odd names, and two runs on one directory.
Each checks the exit status, that the message names the operation, the
path and the OS error, that nothing is left in the target, and that no
result file claims a run that did not complete (an old one is kept).
Loop devices, mounts and images live under the build dir and are removed
whatever happens; what needs root or a tool that is missing skips with
its reason. Prints TAP.

    test_real_faults.py DRIVEMARK_CLI"""

import json
import os
import pty
import resource
import signal
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check, read_csv  # noqa: E402


def need_root(*tools):
    dmktest.need_root(*tools, why="mounts, loop devices, another user")

CLI = os.path.abspath(os.environ.get("DMK_CLI") or sys.argv[1])
MIB = 1 << 20
NOBODY = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--")
# One short read test: the fill of 16 MiB, then 0.1 s.
QUICK = ["--size", "16MiB", "--test", "SEQ1M Q1T1", "--mode", "read", "--passes", "1",
         "--measure", "0.1", "--warmup", "0", "--interval", "0", "--quiet"]


def run(args, timeout=60, env=None, prefix=(), preexec_fn=None):
    if preexec_fn is None:
        return dmktest.run_cli(CLI, args, timeout, env=env, prefix=prefix)
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(list(prefix) + [CLI] + args, capture_output=True, text=True,
                          timeout=timeout, env=e, preexec_fn=preexec_fn)


class Dir(dmktest.Dir):
    """A fresh directory on the build dir's (real) file system."""

    prefix = "faults-"




def sh(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise Skip(f"{' '.join(args)} is not allowed here: {r.stderr.strip()}")


class Mounts:
    """Mounts made by a test, undone in reverse order whatever happens."""

    def __init__(self):
        self.points = []

    def __enter__(self):
        return self

    def mount(self, args, point):
        os.makedirs(point, exist_ok=True)
        sh(["mount"] + args + [point])
        self.points.append(point)
        return point

    def ext4(self, img, point, size, mkfs=()):
        """A fresh ext4 of size bytes in img (sparse), loop-mounted at point."""
        with open(img, "wb") as f:
            f.truncate(size)
        sh(["mkfs.ext4", "-q", "-F"] + list(mkfs) + [img])
        return self.mount(["-o", "loop", img], point)

    def __exit__(self, *exc):
        for p in reversed(self.points):
            if subprocess.run(["umount", p], capture_output=True).returncode != 0:
                subprocess.run(["umount", "-l", p], capture_output=True)


def left_in(target):
    return sorted(e for e in os.listdir(target) if e != "lost+found")


def check_failed(r, needles, target, outputs=()):
    """r failed with exit 1 and one line naming each of needles; nothing is
    left in target and none of outputs exists."""
    dmktest.note(r.stderr.strip())
    check(r.returncode == 1, f"exit {r.returncode}, expected 1: {r.stderr}")
    lines = r.stderr.splitlines()
    check(len(lines) == 1 and lines[0].startswith("drivemark-cli: "), f"stderr {r.stderr!r}")
    for n in needles:
        check(n in r.stderr, f"stderr lacks {n!r}: {r.stderr}")
    check(left_in(target) == [], f"left in {target}: {left_in(target)}")
    for o in outputs:
        check(not os.path.exists(o), f"{o} was written for a run that failed")


def outputs_in(d):
    return os.path.join(d, "r.csv"), os.path.join(d, "r.json")


def nobody_can_reach(path):
    """Whether user nobody can enter every directory down to path."""
    r = subprocess.run(list(NOBODY) + ["test", "-x", path], capture_output=True)
    return r.returncode == 0


def world_dir(d):
    """Opens d (and the build dir above it) to user nobody, or skips."""
    os.chmod(d, 0o755)
    if not nobody_can_reach(d):
        raise Skip(f"user nobody cannot reach {d} (a parent directory is closed)")


# ---- a full file system ---------------------------------------------------------


def test_enospc_before_allocation():
    """The test file is larger than the free space: refused before anything
    is created; an old result file under the --csv name is kept."""
    need_root("mkfs.ext4")
    with Dir() as d, Mounts() as m:
        mnt = m.ext4(os.path.join(d, "fs.img"), os.path.join(d, "mnt"), 32 * MIB)
        csv, js = outputs_in(d)
        with open(csv, "w") as f:
            f.write("an old result\n")
        r = run(["run", "--target", mnt, "--csv", csv, "--json", js, "--size", "64MiB",
                 "--passes", "1", "--measure", "0.1", "--quiet"])
        check_failed(r, [f"not enough free space in {mnt} for the 64 MiB test file: ",
                         " MiB available, ", " MiB needed"], mnt, [js])
        check(open(csv).read() == "an old result\n", "the old result file was touched")


def overcommitted(d, m):
    """An ext4 on a loop device whose backing file is sparse (128 MiB) on a
    smaller file system (32 MiB): the inner one reports 110 MiB free and
    the test file is allocated (unwritten extents cost the outer file
    system almost nothing); the writes then fill the outer file system and
    the loop device fails them with ENOSPC. Returns the inner mount."""
    outer = m.ext4(os.path.join(d, "outer.img"), os.path.join(d, "outer"), 32 * MIB)
    return m.ext4(os.path.join(outer, "inner.img"), os.path.join(d, "inner"), 128 * MIB,
                  ["-E", "nodiscard,lazy_itable_init=1,lazy_journal_init=1"])


def check_nospc(r, target, outputs, prefix=""):
    # Linux 6.x passes the loop device's ENOSPC on (BLK_STS_NOSPC); an
    # older kernel may say EIO.
    os_text = "No space left on device" if "No space" in r.stderr else "Input/output error"
    check_failed(r, [prefix + "writing 1048576 bytes at offset ",
                     f"of the test file in {target} failed: " + os_text], target, outputs)
    return f"the loop device reported: {os_text}"


def test_enospc_in_the_fill():
    """run: the free-space check passes, the fill's writes fail."""
    need_root("mkfs.ext4")
    with Dir() as d, Mounts() as m:
        inner = overcommitted(d, m)
        csv, js = outputs_in(d)
        r = run(["run", "--target", inner, "--size", "64MiB", "--passes", "1", "--measure",
                 "0.1", "--quiet", "--csv", csv, "--json", js])
        return check_nospc(r, inner, [csv, js], "preparing the test file failed: ")


def test_enospc_in_the_measured_test():
    """fullspan writes the file once without a fill: the error comes in the
    measured test; the failed test is not kept, so nothing is saved."""
    need_root("mkfs.ext4")
    with Dir() as d, Mounts() as m:
        inner = overcommitted(d, m)
        csv, js = outputs_in(d)
        r = run(["fullspan", "--target", inner, "--size", "64MiB", "--sample", "0.5",
                 "--quiet", "--csv", csv, "--json", js])
        check("preparing" not in r.stderr, f"failed in the fill: {r.stderr}")
        return check_nospc(r, inner, [csv, js])


def test_reserved_blocks_as_nobody():
    """ext4 -m 50: half the blocks are root's. f_bfree would hold the file,
    f_bavail does not: refused, and the message says why df shows more."""
    need_root("mkfs.ext4", "setpriv")
    with Dir() as d, Mounts() as m:
        world_dir(d)
        mnt = m.ext4(os.path.join(d, "fs.img"), os.path.join(d, "mnt"), 64 * MIB, ["-m", "50"])
        os.chmod(mnt, 0o777)
        st = os.statvfs(mnt)
        free, avail = st.f_bfree * st.f_frsize, st.f_bavail * st.f_frsize
        size = 32 * MIB
        check(free > size + 4 * MIB > avail, f"f_bfree {free}, f_bavail {avail}")
        r = run(["run", "--target", mnt, "--size", "32MiB", "--passes", "1", "--measure", "0.1",
                 "--quiet"], prefix=NOBODY)
        check_failed(r, [f"not enough free space in {mnt} for the 32 MiB test file: "
                         f"{avail >> 20} MiB available", "MiB are reserved for root"], mnt)


# ---- refused by the file system or the OS ------------------------------------------


def test_read_only_bind_mount():
    need_root()
    with Dir() as d, Mounts() as m:
        src = os.path.join(d, "src")
        os.mkdir(src)
        ro = m.mount(["--bind", src], os.path.join(d, "ro"))
        sh(["mount", "-o", "remount,bind,ro", ro])
        csv, js = outputs_in(d)
        r = run(["run", "--target", ro, "--csv", csv, "--json", js] + QUICK)
        check_failed(r, [f"creating the test file in {ro} failed: Read-only file system"], ro,
                     [csv, js])
        check(os.listdir(src) == [], f"left: {os.listdir(src)}")


def test_unwritable_directory():
    """0555 as user nobody when root (root ignores permission bits: as root
    it proves nothing), else as the user running the tests."""
    prefix = ()
    if os.geteuid() == 0:
        need_root("setpriv")
        prefix = NOBODY
    with Dir() as d:
        if prefix:
            world_dir(d)
        target = os.path.join(d, "ro")
        os.mkdir(target, 0o555)
        os.chmod(target, 0o555)
        r = run(["run", "--target", target] + QUICK, prefix=prefix)
        check_failed(r, [f"creating the test file in {target} failed: Permission denied"],
                     target)


def test_ramfs_refused():
    need_root()
    with Dir() as d, Mounts() as m:
        mnt = m.mount(["-t", "ramfs", "ramfs"], os.path.join(d, "ram"))
        r = run(["run", "--target", mnt] + QUICK)
        check_failed(r, [f"refusing {mnt}: it is on a RAM-backed file system (ramfs)"], mnt)


def test_no_direct_io():
    """ramfs refuses O_DIRECT (EINVAL from open), after O_CREAT has made the
    name: the named fallback must remove it. DMK_TEST_ALLOW_RAM_FS skips
    the RAM-backed refusal to get there."""
    need_root()
    with Dir() as d, Mounts() as m:
        mnt = m.mount(["-t", "ramfs", "ramfs"], os.path.join(d, "ram"))
        r = run(["run", "--target", mnt] + QUICK, env={"DMK_TEST_ALLOW_RAM_FS": "1"})
        check_failed(r, [f"refusing {mnt}: its file system does not support direct I/O "
                         "(O_DIRECT)"], mnt)


def fsize_limit(limit):
    """A preexec_fn: RLIMIT_FSIZE of limit bytes, SIGXFSZ ignored (so the
    write fails with EFBIG instead of killing the process)."""
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return pre


def test_file_size_limit():
    """ulimit -f below the test file's size: EFBIG when it is allocated."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        csv, js = outputs_in(d)
        r = run(["run", "--target", target, "--csv", csv, "--json", js] + QUICK,
                preexec_fn=fsize_limit(8 * MIB))
        check_failed(r, [f"allocating 16 MiB for the test file in {target} failed: "
                         "File too large"], target, [csv, js])


# ---- saving the results ------------------------------------------------------------

NULL_QUICK = ["--backend", "null", "--size", "16MiB", "--test", "SEQ1M Q1T1", "--passes", "1",
              "--measure", "0.1", "--warmup", "0", "--interval", "0", "--quiet"]


def test_results_to_dev_full():
    """/dev/full as either result file: ENOSPC with its path, exit 1; the
    other file is still written whole; /dev/full is not removed."""
    if not os.path.exists("/dev/full"):
        raise Skip("no /dev/full")
    with Dir() as d:
        csv, js = outputs_in(d)
        for args, good in ((["--csv", "/dev/full", "--json", js], js),
                           (["--json", "/dev/full", "--csv", csv], csv)):
            r = run(["run", "--target", d] + NULL_QUICK + args)
            check(r.returncode == 1, f"{args}: exit {r.returncode}")
            check(r.stderr == "drivemark-cli: writing /dev/full failed: No space left on "
                  "device\n", f"{args}: {r.stderr!r}")
            check(os.path.exists("/dev/full"), "/dev/full was removed")
            if good == js:
                check(json.load(open(js))["complete"] is True, "the JSON beside it")
            else:
                check(read_csv(csv)[0]["complete"] == "1", "the CSV beside it")
                s = run(["show", csv])
                check(s.returncode == 0, f"show: {s.stderr}")
        dmktest.note(r.stderr.strip())
        # charts: a name that ends in .png/.svg/.pdf and is /dev/full
        for ext in ("png", "svg", "pdf"):
            link = os.path.join(d, "full." + ext)
            os.symlink("/dev/full", link)
            r = run(["chart", "--out", link, csv])
            check(r.returncode == 1, f"chart {ext}: exit {r.returncode}")
            check(f'"{link}": No space left on device' in r.stderr, f"chart: {r.stderr!r}")
        dmktest.note(r.stderr.strip())
        if os.geteuid() == 0:
            # a device node under a chart's name is written to, not removed
            node = os.path.join(d, "node.png")
            os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
            r = run(["chart", "--out", node, csv])
            check(r.returncode == 1 and "No space left on device" in r.stderr, r.stderr)
            check(os.path.exists(node), "chart removed the device node")


def test_results_path_not_a_file():
    """A results path in a missing directory, under a file, or that is a
    directory: refused in a second, before the benchmark runs."""
    with Dir() as d:
        plain = os.path.join(d, "plain")
        open(plain, "w").close()
        cases = [(os.path.join(d, "nodir", "r.csv"), "No such file or directory"),
                 (os.path.join(plain, "r.csv"), "Not a directory"),
                 (d, "Is a directory")]
        for path, why in cases:
            for opt in ("--csv", "--json"):
                t0 = time.monotonic()
                r = run(["run", "--target", d] + QUICK + [opt, path])
                check(r.returncode == 1, f"{opt} {path}: exit {r.returncode}")
                check(r.stderr == f"drivemark-cli: opening {path} for writing failed: {why}\n",
                      f"{opt} {path}: {r.stderr!r}")
                check(time.monotonic() - t0 < 5, "failed only after the benchmark")
        check(sorted(os.listdir(d)) == ["plain"], f"left: {os.listdir(d)}")
        r = run(["chart", "--out", os.path.join(d, "nodir", "c.png"), plain])
        check(r.returncode == 1, "chart into a missing directory")


def test_results_write_fails():
    """A result file or chart that cannot be written whole (a file-size
    limit of 2 KiB) is not created: its temporary file is removed, nothing
    cut short is left (an old file is kept: test_result_files.py)."""
    with Dir() as d:
        csv, js = outputs_in(d)
        r = run(["run", "--target", d, "--csv", csv] + NULL_QUICK,
                preexec_fn=fsize_limit(2048))
        dmktest.note(r.stderr.strip())
        check(r.returncode == 1, f"exit {r.returncode}")
        check(f"writing {csv} failed: File too large ({csv} was not created)"
              in r.stderr, r.stderr)
        check(not os.path.exists(csv), "a cut CSV was left")
        r = run(["run", "--target", d, "--csv", csv] + NULL_QUICK)
        check(r.returncode == 0, f"the CSV to chart: {r.stderr}")
        for ext in ("png", "svg", "pdf"):
            out = os.path.join(d, "c." + ext)
            r = run(["chart", "--out", out, csv], preexec_fn=fsize_limit(2048))
            check(r.returncode == 1 and "File too large" in r.stderr and out in r.stderr
                  and f"({out} was not created)" in r.stderr, f"chart {ext}: {r.stderr!r}")
            check(not os.path.exists(out), f"a cut {ext} chart was left")
            check(sorted(os.listdir(d)) == ["r.csv"], f"left: {os.listdir(d)}")


def test_failed_run_keeps_old_results():
    """A run that fails before measuring leaves result files as they were:
    an old one is not truncated or removed, a new one is not created."""
    with Dir() as d:
        csv, js = outputs_in(d)
        with open(csv, "w") as f:
            f.write("old\n")
        r = run(["run", "--target", os.path.join(d, "missing"), "--csv", csv, "--json", js]
                + QUICK)
        check(r.returncode == 1, f"exit {r.returncode}")
        check(open(csv).read() == "old\n", "the old CSV changed")
        check(not os.path.exists(js), "an empty JSON was created")


def test_failed_run_keeps_a_device():
    """A failed run with --csv naming a device only closes it: the old CLI
    removed the path when nothing was measured, which as root deleted a
    device node such as /dev/full."""
    need_root()
    with Dir() as d:
        node = os.path.join(d, "full")
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # /dev/full's numbers
        r = run(["run", "--target", os.path.join(d, "missing"), "--csv", node] + QUICK)
        check(r.returncode == 1, f"exit {r.returncode}")
        check(os.path.exists(node) and stat.S_ISCHR(os.stat(node).st_mode), "the node was removed")


def test_sigkill_leaves_no_results():
    """SIGKILL in the measured part: no test file, and no result file
    (empty or cut) under the --csv and --json names."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        csv, js = outputs_in(d)
        # the progress line on a pty says when the timed part has begun
        master, slave = pty.openpty()
        proc = subprocess.Popen([CLI, "run", "--target", target, "--size", "32MiB", "--test",
                                 "RND4K Q1T1", "--passes", "3", "--measure", "10", "--warmup",
                                 "0", "--interval", "0", "--csv", csv, "--json", js],
                                stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        try:
            buf, deadline = b"", time.monotonic() + 60
            while time.monotonic() < deadline and b" - pass 1/3" not in buf:
                check(proc.poll() is None, f"the run ended early: {proc.returncode}")
                try:
                    buf += os.read(master, 4096)
                except OSError:
                    break
            check(b" - pass 1/3" in buf, f"the timed part never began: {buf[-300:]!r}")
            check(holds_test_file(proc.pid, target), "no test file open in the timed part")
            proc.kill()
            proc.wait(timeout=10)
        finally:
            os.close(master)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        check(os.listdir(target) == [], f"left in the target: {os.listdir(target)}")
        check(sorted(os.listdir(d)) == ["t"], f"left beside it: {os.listdir(d)}")


def holds_test_file(pid, target):
    """Whether process pid (or its child: app/dmk-cli-guard.h) holds a
    32 MiB file under target open."""
    return any(holds_own(p, target) for p in dmktest.family(pid))


def holds_own(pid, target):
    target = os.path.realpath(target)
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
            if link.startswith(target + "/") and os.stat(
                    f"/proc/{pid}/fd/{fd}").st_size == 32 * MIB:
                return True
        except OSError:
            continue
    return False


# ---- names ------------------------------------------------------------------------


def odd_names():
    return ["with spaces", "-dir", "emoji \U0001F600\u00e9", "x" * 255,
            "\u00e9" * 127 + "x",  # 255 bytes of UTF-8 too
            'a "quote", a comma,\na newline\tand a tab']  # CSV's and JSON's escapes


def test_odd_names():
    """Targets and result files with spaces, a leading '-', emoji and
    255-byte names: the run works, its CSV opens again, nothing is left."""
    with Dir() as d:
        for name in odd_names():
            check(len(name.encode()) <= 255, "a name over 255 bytes")
            target = os.path.join(d, name)
            os.mkdir(target)
            stem = name if len(name.encode()) <= 251 else name[:-4]
            csv = os.path.join(d, stem + ".csv")
            # --target -dir and --target=-dir must both take it as a value
            form = ["--target=" + target] if name == "-dir" else ["--target", target]
            r = run(["run"] + form + ["--csv", csv] + QUICK)
            check(r.returncode == 0, f"{name!r}: exit {r.returncode}: {r.stderr}")
            check(os.listdir(target) == [], f"{name!r}: left {os.listdir(target)}")
            rows = read_csv(csv)
            check(rows[0]["target"] == target and rows[0]["complete"] == "1",
                  f"{name!r}: target {rows[0]['target']!r}")
            s = run(["show", csv])
            # control characters print as '?' (docs/results.md, dmk-escape)
            shown = "".join("?" if ord(c) < 0x20 or ord(c) == 0x7f else c for c in target)
            check(s.returncode == 0 and shown in s.stdout, f"show {name!r}: {s.stderr}")
        # relative, with a leading '-': as --target -dir, and show -- -dir.csv;
        # the named fallback's file under it
        r = subprocess.run([CLI, "run", "--target", "-dir", "--csv", "-dir.csv"] + QUICK,
                           cwd=d, capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, DMK_TEST_NO_TMPFILE="1"))
        check(r.returncode == 0, f"--target -dir: {r.stderr}")
        s = subprocess.run([CLI, "show", "--", "-dir.csv"], cwd=d, capture_output=True,
                           text=True, timeout=60)
        check(s.returncode == 0 and "-dir" in s.stdout, f"show -- -dir.csv: {s.stderr}")
        s = subprocess.run([CLI, "show", "-dir.csv"], cwd=d, capture_output=True, text=True,
                           timeout=60)
        check(s.returncode == 2 and "goes after --, or as ./-dir.csv" in s.stderr, s.stderr)
        check(os.listdir(os.path.join(d, "-dir")) == [], "left in -dir")


# ---- two runs, one directory -------------------------------------------------------


def test_two_runs_one_directory():
    """Two instances on one directory at the same time, each on its own
    file: both complete, both results hold, nothing is left."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        args = ["run", "--target", target, "--size", "32MiB", "--test", "RND4K Q4T1",
                "--passes", "1", "--measure", "1", "--warmup", "0", "--interval", "0", "--quiet"]
        procs = [subprocess.Popen([CLI] + args + ["--json", os.path.join(d, f"{i}.json")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                 for i in range(2)]
        # Both hold a test file at once: two open, unlinked files.
        both = False
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not both and procs[0].poll() is None:
            both = all(holds_test_file(p.pid, target) for p in procs)
            time.sleep(0.05)
        errs = [p.communicate(timeout=60)[1] for p in procs]
        for i, p in enumerate(procs):
            check(p.returncode == 0, f"run {i}: exit {p.returncode}: {errs[i]}")
            doc = json.load(open(os.path.join(d, f"{i}.json")))
            check(doc["complete"] is True and doc["results"], f"run {i}: result")
        check(both, "the two runs never held their test files at the same time")
        check(os.listdir(target) == [], f"left: {os.listdir(target)}")


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
