#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Honest numbers on real file systems through drivemark-cli: on a
loop-mounted btrfs the test file is made NOCOW before it is written (read
from the live file's inode flags while the run is under way, as lsattr
would show 'C') and the result says so; with compress=zstd the result
also says compression was there and turned off with it. On the build
dir's own file system (ext4 here) nothing is flagged but peak. Needs root
and btrfs for the loop mounts, and skips with the reason otherwise.
Prints TAP.

    test_flags_fs.py DRIVEMARK_CLI"""

import fcntl
import os
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check, read_csv  # noqa: E402

CLI = os.environ.get("DMK_CLI") or sys.argv[1]
MIB = 1 << 20
FS_IOC_GETFLAGS = 0x80086601
FS_NOCOW_FL = 0x00800000
# One short read test: the fill writes 32 MiB, then ~1.5 s of reads.
RUN_ARGS = ["run", "--size", "32MiB", "--passes", "1", "--measure", "1.5", "--warmup", "0",
            "--interval", "0", "--test", "RND4K Q32T1", "--mode", "read", "--quiet"]


class Dir(dmktest.Dir):
    prefix = "flags-"


class LoopBtrfs:
    """A 256 MiB btrfs loop-mounted under d with the given options."""

    def __init__(self, d, opts):
        self.img, self.mnt, self.opts = os.path.join(d, "fs.img"), os.path.join(d, "mnt"), opts

    def __enter__(self):
        if os.geteuid() != 0:
            raise Skip("needs root to loop-mount a btrfs")
        if not shutil.which("mkfs.btrfs"):
            raise Skip("needs mkfs.btrfs (btrfs-progs)")
        os.mkdir(self.mnt)
        with open(self.img, "wb") as f:
            f.truncate(256 * MIB)
        subprocess.run(["mkfs.btrfs", "-q", "-f", self.img], check=True, capture_output=True)
        m = subprocess.run(["mount", "-o", "loop," + self.opts, self.img, self.mnt],
                           capture_output=True, text=True)
        if m.returncode != 0:
            raise Skip(f"cannot loop-mount a btrfs here (no btrfs module?): {m.stderr.strip()}")
        return self.mnt

    def __exit__(self, *exc):
        if os.path.ismount(self.mnt):
            subprocess.run(["umount", self.mnt], check=False)


def live_file_flags(pid, mnt, timeout=20):
    """The inode flags of the test file that process pid holds open under
    mnt (it has no name: O_TMPFILE), read through /proc/PID/fd."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        # drivemark-cli's child process holds it (app/dmk-cli-guard.h)
        fds = []
        for p in dmktest.family(pid):
            try:
                fds += [f"/proc/{p}/fd/{n}" for n in os.listdir(f"/proc/{p}/fd")]
            except FileNotFoundError:
                pass
        if not fds:
            break
        for n in fds:
            try:
                link = os.readlink(n)
                if not link.startswith(mnt + "/"):
                    continue
                fd = os.open(n, os.O_RDONLY)
            except OSError:
                continue
            try:
                buf = fcntl.ioctl(fd, FS_IOC_GETFLAGS, b"\0" * 8)
                return struct.unpack("<i", buf[:4])[0]
            finally:
                os.close(fd)
        time.sleep(0.02)
    raise AssertionError("the run's test file never showed up under " + mnt)


def run_on(mnt, d):
    """Runs drivemark-cli on mnt; returns (inode flags seen, stdout, CSV rows)."""
    out = os.path.join(d, "r.csv")
    p = subprocess.Popen([CLI] + RUN_ARGS + ["--target", mnt, "--csv", out],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        flags = live_file_flags(p.pid, mnt)
    finally:
        stdout, stderr = p.communicate(timeout=120)
    check(p.returncode == 0, f"exit {p.returncode}: {stderr}")
    check(os.listdir(mnt) == [], f"left behind in {mnt}: {os.listdir(mnt)}")
    return flags, stdout, read_csv(out)


def test_btrfs_nocow():
    with Dir() as d, LoopBtrfs(d, "rw") as mnt:
        flags, stdout, rows = run_on(mnt, d)
        check(flags & FS_NOCOW_FL, f"the live test file is not NOCOW (flags {flags:#x})")
        r = rows[0]
        check(r["file_system"] == "btrfs", r["file_system"])
        check(r["cow"] == "off" and r["compression"] == "none", (r["cow"], r["compression"]))
        check("   Note: btrfs copy-on-write: turned off for the test file (NOCOW)\n" in stdout,
              stdout)
        check("compression" not in stdout, stdout)
        shown = dmktest.run_cli(CLI, ["show", os.path.join(d, "r.csv")], 30)
        check("turned off for the test file (NOCOW)" in shown.stdout, shown.stdout)
        return f"live file flags {flags:#x} (NOCOW), cow={r['cow']}"


def test_btrfs_compress():
    with Dir() as d, LoopBtrfs(d, "compress=zstd") as mnt:
        flags, stdout, rows = run_on(mnt, d)
        check(flags & FS_NOCOW_FL, f"the live test file is not NOCOW (flags {flags:#x})")
        r = rows[0]
        check(r["cow"] == "off" and r["compression"] == "off", (r["cow"], r["compression"]))
        check("   Note: btrfs compression: turned off for the test file\n" in stdout, stdout)
        return f"compress=zstd: cow={r['cow']}, compression={r['compression']}"


def test_build_dir_fs():
    """The build dir's own file system: no CoW note; its link where sysfs
    knows one (a VM's virtio disk: none, so no limit check)."""
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        r = dmktest.run_cli(CLI, RUN_ARGS + ["--target", target, "--csv",
                                             os.path.join(d, "r.csv")], 60)
        check(r.returncode == 0, r.stderr)
        row = read_csv(os.path.join(d, "r.csv"))[0]
        if row["file_system"] in ("btrfs", "zfs", "bcachefs"):
            raise Skip(f"the build dir is on {row['file_system']}")
        check(row["cow"] == "none" and row["compression"] == "none", row)
        check(row["flags"].split()[0] == "peak", row["flags"])  # 32 MiB
        check(float(row["achieved_qd"]) > 0, row["achieved_qd"])
        return (f"{row['file_system']} on {row['device']}: interface '{row['interface']}' "
                f"({row['interface_mb_s']} MB/s), achieved QD {row['achieved_qd']} of 32, "
                f"flags '{row['flags']}'")


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals()), timed=True))
