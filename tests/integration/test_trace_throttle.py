#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The trace replay (core/dmk-trace.h) against a known truth: a loop
device over a file in /dev/shm, its reads held by the block layer's
throttle (cgroup v1 blkio.throttle or v2 io.max) to 50 MB/s, replayed by
tests/integration/trace-replay (the native backend, the device read-only)
from a fio iolog v3 of two bursts of 64 KiB reads, each 10 s at the
throttle's rate (blk-throttle grants a slice's budget at each burst's
start, which over 10 s is well under the 2 % allowed), 3 s apart in the
trace. The bandwidth over the busy time must be the throttle's within
2 %, the 3 s gap cut to the idle maximum (25 ms). Needs root and a cgroup
io controller; skips with the reason otherwise. The loop device is any
free one (losetup -f) and is detached, the cgroup and the image removed,
whatever happens. Prints TAP.

    test_trace_throttle.py TRACE_REPLAY"""

import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check  # noqa: E402

HELPER = sys.argv[1]
RATE = 50_000_000  # bytes a second, the throttle's read limit
BLOCK = 65536
PER_BURST = 10 * RATE // BLOCK  # 10 s of reads at the limit
GAP_US = 3_000_000


class Throttle:
    """A cgroup of our own whose members' reads of one device are limited."""

    V1 = "/sys/fs/cgroup/blkio"
    V2_ROOTS = ("/sys/fs/cgroup/unified", "/sys/fs/cgroup")

    def __init__(self, dev):
        st = os.stat(dev)
        self.majmin = f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"
        name = f"drivemark-trace-{os.getpid()}"
        self.path = None
        if os.path.exists(os.path.join(self.V1, "blkio.throttle.read_bps_device")):
            self.v2 = False
            self.path = os.path.join(self.V1, name)
        else:
            self.v2 = True
            for root in self.V2_ROOTS:
                try:
                    with open(os.path.join(root, "cgroup.controllers")) as f:
                        if "io" in f.read().split():
                            try:
                                with open(os.path.join(root, "cgroup.subtree_control"), "w") as s:
                                    s.write("+io")
                            except OSError:
                                pass
                            self.path = os.path.join(root, name)
                            break
                except OSError:
                    continue
        if not self.path:
            raise Skip("no cgroup v1 blkio and no cgroup v2 with the io controller")
        os.mkdir(self.path)

    def limit_reads(self, bps):
        if self.v2:
            text, name = f"{self.majmin} rbps={int(bps) if bps else 'max'}", "io.max"
        else:
            text, name = f"{self.majmin} {int(bps)}", "blkio.throttle.read_bps_device"
        with open(os.path.join(self.path, name), "w") as f:
            f.write(text)

    def join(self):
        procs = os.path.join(self.path, "cgroup.procs")

        def join():
            with open(procs, "w") as f:
                f.write(str(os.getpid()))
        return join

    def remove(self):
        try:
            self.limit_reads(0)
        except OSError:
            pass
        for _ in range(50):
            try:
                os.rmdir(self.path)
                return
            except OSError:
                time.sleep(0.1)
        dmktest.note(f"could not remove the cgroup {self.path}")


def write_trace(path):
    with open(path, "w") as f:
        f.write("fio version 3 iolog\n0 /dev/loopX add\n0 /dev/loopX open\n")
        for burst in range(2):
            t = burst * GAP_US
            for i in range(PER_BURST):
                f.write(f"{t} /dev/loopX read {(burst * PER_BURST + i) * BLOCK} {BLOCK}\n")
        f.write(f"{GAP_US} /dev/loopX close\n")


def test_throttled_rate():
    dmktest.need_root("losetup", why="loop devices, cgroups")
    if not os.path.isdir("/dev/shm"):
        raise Skip("no /dev/shm for the loop device's backing file")
    with tempfile.TemporaryDirectory(dir="/dev/shm", prefix="drivemark-trace-") as d, \
            tempfile.TemporaryDirectory(prefix="drivemark-trace-") as work:
        img = os.path.join(d, "disk.img")
        with open(img, "wb") as f:
            f.truncate(256 << 20)
        r = dmktest.sh(["losetup", "-f", "--show", img])
        if r.returncode != 0:
            raise Skip(f"no free loop device: {r.stderr.strip()}")
        dev = r.stdout.strip()
        throttle = None
        try:
            throttle = Throttle(dev)
            throttle.limit_reads(RATE)
            trace = os.path.join(work, "bursts.iolog")
            write_trace(trace)
            p = subprocess.run([HELPER, dev, trace, "25"], capture_output=True, text=True,
                               timeout=120, preexec_fn=throttle.join())
            check(p.returncode == 0, f"trace-replay failed: {p.stderr.strip()}")
            st = json.loads(p.stdout)
        finally:
            if throttle:
                throttle.remove()
            dmktest.sh(["losetup", "-d", dev])
        dmktest.note(f"{dev} read-throttled to {RATE / 1e6:.1f} MB/s: {st['mb_s']:.2f} MB/s over "
                     f"{st['busy_s']:.3f} s busy of {st['wall_s']:.3f} s, QD {st['qd']:.2f}, "
                     f"mean {st['lat_mean_us']:.0f} us, p99 {st['lat_p99_us']:.0f} us; "
                     f"trace {st['trace_s']:.3f} s cut to {st['cut_s']:.3f} s")
        check(st["ios"] == 2 * PER_BURST, f"{st['ios']} of {2 * PER_BURST} requests")
        err = st["mb_s"] / (RATE / 1e6) - 1
        check(abs(err) <= 0.02, f"{st['mb_s']:.2f} MB/s against {RATE / 1e6} ({err:+.2%})")
        check(st["gaps_cut"] == 1 and abs(st["trace_s"] - 3.0) < 1e-9
              and abs(st["cut_s"] - 0.025) < 1e-9, f"the gap: {st}")
        check(st["busy_s"] <= st["wall_s"] and st["busy_s"] > 19.0, f"busy: {st}")


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
