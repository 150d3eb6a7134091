#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 13's smaller faults, through drivemark-cli: show says what the
file system's size is (schema 5) and leaves it out for an older file
instead of "free of 0 B"; the lab commands' refusal to write a raw device
suggests what they accept; an unattached (0-byte) loop device is said to
have no storage; the data pool's allocation failure under a real
`ulimit -v` carries the OS's reason. Prints TAP.

    test_small_fixes.py DRIVEMARK_CLI"""

import fcntl
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check, read_csv  # noqa: E402

CLI = os.path.abspath(os.environ.get("DMK_CLI") or sys.argv[1])
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
QUICK = ["--backend", "null", "--test", "SEQ1M Q1T1", "--passes", "1", "--measure", "0.1",
         "--warmup", "0", "--interval", "0", "--quiet"]


class Dir(dmktest.Dir):
    prefix = "small-"


def run(args, timeout=60, prefix=()):
    return dmktest.run_cli(CLI, args, timeout, prefix=prefix)


def test_show_fs_size():
    """A file of schema 5 or later keeps fs_size_bytes and show says "free of" it; a
    schema 4 file loads and says only what was free."""
    with Dir() as d:
        csv = os.path.join(d, "r.csv")
        r = run(["run", "--target", d, "--size", "16MiB", "--csv", csv] + QUICK)
        check(r.returncode == 0, r.stderr)
        row = read_csv(csv)[0]
        check(row["schema"] == "8" and int(row["fs_size_bytes"]) == 16 << 20, f"row {row}")
        s = run(["show", csv])
        check(s.returncode == 0 and "16 MiB free of 16 MiB]" in s.stdout, s.stdout)
        old = os.path.join(DATA, "bad-csv", "ok-schema4-verify.csv")
        s = run(["show", old])
        check(s.returncode == 0, s.stderr)
        check("free of" not in s.stdout and " free]" in s.stdout, s.stdout)
        return [x for x in s.stdout.splitlines() if "Test:" in x][0].strip()


class UnattachedLoop:
    """A loop device of our own with nothing attached: LOOP_CTL_ADD of a
    high number (losetup -f in other tests takes the lowest free one),
    removed again afterwards."""

    LOOP_CTL_ADD, LOOP_CTL_REMOVE = 0x4C80, 0x4C81

    def __enter__(self):
        if os.geteuid() != 0:
            raise Skip("needs root (a loop device)")
        try:
            self.ctl = os.open("/dev/loop-control", os.O_RDWR)
        except OSError as e:
            raise Skip(f"no /dev/loop-control: {e}")
        for n in range(200 + os.getpid() % 40, 1000):
            try:
                self.n = fcntl.ioctl(self.ctl, self.LOOP_CTL_ADD, n)
                break
            except OSError:
                continue
        else:
            os.close(self.ctl)
            raise Skip("no loop device number free")
        self.dev = f"/dev/loop{self.n}"
        for _ in range(100):  # udev (or devtmpfs) makes the node
            if os.path.exists(self.dev):
                break
            time.sleep(0.05)
        if not os.path.exists(self.dev):
            self.__exit__()
            raise Skip(f"{self.dev} did not appear")
        return self.dev

    def __exit__(self, *exc):
        try:
            fcntl.ioctl(self.ctl, self.LOOP_CTL_REMOVE, self.n)
        except OSError:
            pass
        os.close(self.ctl)


class AttachedLoop(UnattachedLoop):
    """The same loop device of our own, over a small image file under the
    build dir, detached again afterwards: a device with storage, which the
    refusals without consent are about (an empty one is told that first)."""

    def __enter__(self):
        if not shutil.which("losetup"):
            raise Skip("needs losetup (util-linux)")
        dev = super().__enter__()
        self.dir = Dir()
        img = os.path.join(self.dir.__enter__(), "loop.img")
        with open(img, "wb") as f:
            f.truncate(32 << 20)
        r = subprocess.run(["losetup", dev, img], capture_output=True, text=True)
        if r.returncode != 0:
            self.__exit__()
            raise Skip(f"losetup {dev}: {r.stderr.strip()}")
        return dev

    def __exit__(self, *exc):
        subprocess.run(["losetup", "-d", self.dev], capture_output=True)
        for _ in range(100):  # the detach is asynchronous (the loop's work queue)
            if open(f"/sys/block/loop{self.n}/size").read().strip() == "0":
                break
            time.sleep(0.05)
        super().__exit__(*exc)
        self.dir.__exit__(*exc)


def test_lab_refusal_suggests_what_works():
    """A lab test on a raw device without consent: refused with a way out
    the lab commands take (not --mode read, which they reject)."""
    with AttachedLoop() as dev:
        return lab_refusal(dev)


def lab_refusal(dev):
    for lab in ("sustained", "fullspan", "mixed", "latency", "recovery"):
        r = run([lab, "--device", dev])
        check(r.returncode == 1, f"{lab}: exit {r.returncode}: {r.stderr}")
        check(f"--yes-destroy-data={dev}" in r.stderr, f"{lab}: {r.stderr}")
        check("(or read only: --mode read)" not in r.stderr, f"{lab}: {r.stderr}")
        check(f"drivemark-cli run --device {dev} --mode read" in r.stderr, f"{lab}: {r.stderr}")
        # what it suggests is accepted: the same words, as a command
        w = run([lab, "--device", dev, "--mode", "read"])
        check(w.returncode == 2, f"{lab} rejects --mode: {w.returncode}")
    # run still suggests --mode read, which it takes
    r = run(["run", "--device", dev, "--size", "16MiB"])
    check(r.returncode == 1 and "--mode read" in r.stderr, r.stderr)
    return r.stderr.strip()


def test_unattached_loop_has_no_storage():
    """An unattached loop device is 0 bytes: no storage, not "choose a
    smaller test size"."""
    with UnattachedLoop() as dev:
        r = run(["run", "--device", dev, "--mode", "read", "--size", "16MiB", "--test",
                 "SEQ1M Q1T1", "--passes", "1", "--measure", "0.1", "--warmup", "0",
                 "--interval", "0", "--quiet"])
    check(r.returncode == 1, f"exit {r.returncode}: {r.stderr}")
    check(f"the device {dev} has no storage (0 bytes): an unattached loop device" in r.stderr,
          r.stderr)
    check("smaller test size" not in r.stderr, r.stderr)
    return r.stderr.strip()


def test_pool_failure_names_the_os_error():
    """Under a real `ulimit -v`, lowered step by step until the 64 MiB data
    pool cannot be had: that failure says why (the OS's ENOMEM text); no
    limit crashes the program. The pool is 256 KiB plus the largest block
    (core/dmk-pool.h), so 64 MiB blocks make it the large allocation that
    the 8 MiB steps cannot pass over."""
    if not shutil.which("prlimit"):
        raise Skip("needs prlimit")
    if b"__asan_init" in open(CLI, "rb").read():
        raise Skip("an ASan build reserves terabytes of address space: a ulimit -v stops "
                   "ASan itself, not the pool")
    big = ["SEQ64M Q1T1" if a == "SEQ1M Q1T1" else a for a in QUICK]
    with Dir() as d:
        seen = None
        for mib in range(320, 8, -8):
            r = run(["run", "--target", d, "--size", "1GiB"] + big, timeout=120,
                    prefix=("prlimit", f"--as={mib << 20}", "--"))
            check(r.returncode in (0, 1), f"{mib} MiB: exit {r.returncode}: {r.stderr[-300:]}")
            if "data pool failed" in r.stderr:
                seen = r.stderr.strip()
                break
        check(seen is not None, "the pool never failed")
        check(seen.endswith("data pool failed: Cannot allocate memory"), seen)
        check(os.listdir(d) == [], f"left: {os.listdir(d)}")
        return f"at {mib} MiB: {seen}"


def test_run_and_show_agree():
    """What a run prints of its tests is what `show` prints of its saved
    file, digit for digit: both show the values as the file keeps them (a
    latency of 0.0349 us once printed 0.03 live and 0.04 from the file).
    The null backend's tiny latencies and odd IOPS cross a rounding edge in
    most runs; three runs of three tests, read and write, then mixed."""
    tests = ["SEQ1M Q8T1", "RND4K Q32T1", "RND4K Q1T1"]
    with Dir() as d:
        for k, mode in enumerate(["rw", "rw", "mix"]):
            csv = os.path.join(d, f"r{k}.csv")
            args = ["run", "--target", d, "--backend", "null", "--size", "16MiB", "--passes",
                    "1", "--measure", "0.2", "--warmup", "0", "--interval", "0", "--mode", mode,
                    "--csv", csv]
            for t in tests:
                args += ["--test", t]
            r = run(args)
            check(r.returncode == 0, r.stderr)
            s = run(["show", csv])
            check(s.returncode == 0, s.stderr)
            live, saved = per_test_lines(r.stdout), per_test_lines(s.stdout)
            check(len(live) == 6 and live == saved, f"run:\n{r.stdout}\nshow:\n{s.stdout}")


def per_test_lines(report):
    """The report's per-test lines: the numbers, and a mix's two sides."""
    return [x.strip() for x in report.splitlines() if " MB/s [" in x or " %: " in x]


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
