#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's UDisks2 path against a real udisksd, on a private system
bus (tests/dmkbus.py) so the machine's own bus and any udisksd on it are
left alone, and on loop devices this script makes over files under the
build dir. udisks-open (tests/ui/udisks-open.c) asks udisksd for a
descriptor as the window does (ui/dmk-udisks.c) and hands it to a real
run on the libaio backend as the window does (DmkRunSpec.device_fd).

What it checks:
- a read (Block.OpenForBenchmark): the descriptor is the loop device
  (its st_rdev), read-only with O_DIRECT; the run reads; the backing
  file is unchanged; the run closed the descriptor;
- a write (Block.OpenDevice "rw" with O_DIRECT | O_EXCL): read-write,
  O_DIRECT, no O_SYNC; while only that descriptor is open, an O_EXCL
  open of the device fails with EBUSY (udisksd's O_EXCL claim came over
  with the descriptor: F_GETFL cannot show it); the run writes the first
  16 MiB only (the rest of the backing file is unchanged);
- the engine's guards on a descriptor from udisksd: a loop device whose
  backing file another loop device also uses is refused ("is also used
  by /dev/loopN"), though udisksd's exclusive open of it succeeded;
- a caller that is not root, with no polkit on the private bus: udisksd
  refuses (org.freedesktop.UDisks2.Error.NotAuthorized) and the message
  names the operation, the device and the D-Bus error.

udisksd enumerates the block devices udev's database holds when it
starts, so the loop devices are made first and udev is let settle. Needs
root, losetup, dbus-daemon, gdbus, udisks2 (udisksd) and a running
systemd-udevd (without one udisksd lists no device: measured on a machine
without udevd, where the loops never appeared); skips with the reason
otherwise. Prints TAP.

    test_udisks.py UDISKS_OPEN"""

import errno
import hashlib
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmkbus  # noqa: E402
import dmktest  # noqa: E402
from dmktest import Skip, check  # noqa: E402

OPEN = sys.argv[1]
MIB = 1 << 20
O_ACCMODE, O_RDONLY, O_RDWR = 0o3, 0o0, 0o2
O_DIRECT, O_DSYNC = 0o40000, 0o10000
UDISKSD = ["/usr/libexec/udisks2/udisksd", "/usr/lib/udisks2/udisksd"]


class Dir(dmktest.Dir):
    prefix = "udisksd-"


def digest(path, start, length):
    with open(path, "rb") as f:
        f.seek(start)
        return hashlib.sha256(f.read(length)).hexdigest()


class Setup:
    """Three loop devices (a over its own file; b and c over one shared
    file), a private bus and udisksd on it, until the block ends."""

    def __init__(self, d):
        self.d, self.loops, self.udisksd, self.bus = d, [], None, None

    def loop(self, img):
        r = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
        if r.returncode != 0:
            raise Skip(f"no loop device here: {r.stderr.strip()}")
        self.loops.append(r.stdout.strip())
        return self.loops[-1]

    def image(self, name):
        path = os.path.join(self.d, name)
        with open(path, "wb") as f:
            f.write(os.urandom(64 * MIB))
        return path

    def __enter__(self):
        dmktest.need_root("losetup", "gdbus", why="loop devices, udisksd")
        daemon = next((p for p in UDISKSD if os.access(p, os.X_OK)), None)
        if not daemon:
            raise Skip(f"udisks2 is not installed (no udisksd at {' or '.join(UDISKSD)})")
        if not os.path.exists("/run/udev/control"):
            # udisksd lists only the block devices udev's database holds;
            # starting a udevd for this test would probe every block device,
            # the loops other tests are using beside it included.
            raise Skip("no systemd-udevd runs here (no /run/udev/control), and udisksd "
                       "lists only the devices udev's database holds")
        try:
            self.img_a, self.img_bc = self.image("a.img"), self.image("bc.img")
            self.a = self.loop(self.img_a)
            self.b = self.loop(self.img_bc)
            self.c = self.loop(self.img_bc)
            if shutil.which("udevadm"):  # udisksd takes devices udev has seen
                subprocess.run(["udevadm", "settle", "--timeout=60"], capture_output=True)
            self.bus = dmkbus.PrivateBus(self.d)
            self.address = self.bus.__enter__()
            self.env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.address)
            self.log = os.path.join(self.d, "udisksd.log")
            with open(self.log, "w") as log:
                self.udisksd = subprocess.Popen([daemon, "--no-debug"], env=self.env,
                                                stdout=log, stderr=subprocess.STDOUT)
            self.wait_for_devices()
        except BaseException:
            self.__exit__()
            raise
        return self

    def managed(self):
        r = subprocess.run(["gdbus", "call", "--system", "--dest", "org.freedesktop.UDisks2",
                            "--object-path", "/org/freedesktop/UDisks2", "--method",
                            "org.freedesktop.DBus.ObjectManager.GetManagedObjects"],
                           env=self.env, capture_output=True, text=True, timeout=60)
        return r.stdout if r.returncode == 0 else ""

    def wait_for_devices(self):
        """Until udisksd owns its name and lists the three devices (its
        coldplug takes a while on a machine with many); 120 s at most."""
        r = subprocess.run(["gdbus", "wait", "--system", "--timeout", "120",
                            "org.freedesktop.UDisks2"], env=self.env, capture_output=True,
                           text=True)
        check(r.returncode == 0, f"udisksd did not appear on the bus: {r.stderr}{self.tail()}")
        want = [f"'DeviceNumber': <uint64 {os.stat(p).st_rdev}>" for p in (self.a, self.b,
                                                                              self.c)]
        deadline = time.monotonic() + 120
        while not all(w in (listed := self.managed()) for w in want):
            check(time.monotonic() < deadline, f"udisksd does not list {self.loops}{self.why()}")
            check(self.udisksd.poll() is None, f"udisksd ended{self.tail()}")
            time.sleep(0.5)
        return listed

    def holds(self, rdev):
        """Whether udisksd has a descriptor of the block device rdev."""
        fds = f"/proc/{self.udisksd.pid}/fd"
        for name in os.listdir(fds):
            try:
                st = os.stat(os.path.join(fds, name))
            except OSError:
                continue  # closed meanwhile
            if st.st_mode & 0o170000 == 0o060000 and st.st_rdev == rdev:
                return True
        return False

    def tail(self):
        with open(self.log) as f:
            return "; udisksd said: " + " | ".join(f.read().splitlines()[-10:])

    def why(self):
        """A likely reason udisksd left a device out: udev never saw it."""
        missing = [p for p in self.loops
                   if not os.path.exists(f"/run/udev/data/b{rdev_of(p)}")]
        return (f" (udev has no entry for {missing} in /run/udev/data: is systemd-udevd "
                "running?)") if missing else ""

    def __exit__(self, *exc):
        if self.udisksd:
            self.udisksd.terminate()
            self.udisksd.wait(timeout=60)
        if self.bus and self.bus.proc:
            self.bus.__exit__()
        for dev in self.loops:
            subprocess.run(["losetup", "-d", dev], capture_output=True)

    def ask(self, device, mode, *extra, user=None, hold=None):
        """udisks-open's lines as {kind: [fields]}; hold(lines) runs while
        only the descriptor holds the device (DMK_UDISKS_HOLD)."""
        argv = [OPEN, device, mode, *extra]
        if user:
            argv = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"] + argv
        env = dict(self.env, DMK_UDISKS_HOLD="1") if hold else self.env
        p = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        out = {}
        for line in p.stdout:
            kind, *fields = line.rstrip("\n").split("\t")
            out[kind] = fields
            if kind == "held":
                hold(out)
                p.stdin.write("\n")
                p.stdin.flush()
        p.wait(timeout=300)
        check(p.returncode == 0, f"udisks-open exited {p.returncode}: {out} {p.stderr.read()}")
        return out


S = None  # the Setup every test shares (udisksd's coldplug is slow)


def rdev_of(dev):
    st = os.stat(dev).st_rdev
    return f"{os.major(st)}:{os.minor(st)}"


def test_read_through_udisksd():
    before = digest(S.img_a, 0, 64 * MIB)
    out = S.ask(S.a, "read", "16")
    check("fd" in out, f"no descriptor: {out}")
    flags = int(out["fd"][0])
    check(out["fd"][2] == rdev_of(S.a), f"another device came: {out['fd']}")
    check(flags & O_ACCMODE == O_RDONLY and flags & O_DIRECT, f"flags {flags:#o}")
    check(out["run"] == ["0", "done"], f"the run: {out['run']}")
    check(out["closed"] == ["1"], "the run did not close the descriptor")
    check(digest(S.img_a, 0, 64 * MIB) == before, "a read-only run changed the device")
    sync = "set" if flags & O_DSYNC else "not set"
    return f"OpenForBenchmark gave flags {flags:#o} (O_SYNC {sync})"


def test_write_through_udisksd():
    tail = digest(S.img_a, 16 * MIB, 48 * MIB)
    head = digest(S.img_a, 0, 16 * MIB)
    probed = {}

    def probe(lines):
        # udisksd lets go of its copy once the reply is sent, which may be
        # a moment after the reply arrived: until then the engine's guard
        # (root reads every /proc/PID/fd) would rightly see the device
        # open in udisksd. Waited for as a state, not a time.
        rdev, deadline = os.stat(S.a).st_rdev, time.monotonic() + 60
        while S.holds(rdev):
            check(time.monotonic() < deadline, "udisksd keeps the device open")
            time.sleep(0.05)
        try:
            os.close(os.open(S.a, os.O_RDONLY | os.O_EXCL))
            probed["excl"] = "opened"
        except OSError as e:
            probed["excl"] = errno.errorcode.get(e.errno, str(e.errno))

    out = S.ask(S.a, "write", "16", S.a, hold=probe)
    check("fd" in out, f"no descriptor: {out}")
    flags = int(out["fd"][0])
    check(out["fd"][2] == rdev_of(S.a), f"another device came: {out['fd']}")
    check(flags & O_ACCMODE == O_RDWR and flags & O_DIRECT and not flags & O_DSYNC,
          f"flags {flags:#o}")
    check(probed.get("excl") == "EBUSY",
          f"an O_EXCL open beside udisksd's descriptor: {probed.get('excl')} (expected EBUSY)")
    check(out["run"] == ["0", "done"], f"the run: {out['run']}")
    check(out["closed"] == ["1"], "the run did not close the descriptor")
    check(digest(S.img_a, 16 * MIB, 48 * MIB) == tail, "bytes past the 16 MiB region changed")
    check(digest(S.img_a, 0, 16 * MIB) != head, "the test region was not written")
    return f"OpenDevice gave flags {flags:#o}; O_EXCL beside it: {probed['excl']}"


def test_guards_run_on_the_descriptor():
    before = digest(S.img_bc, 0, 64 * MIB)
    out = S.ask(S.b, "write", "16", S.b)
    check("fd" in out, f"udisksd gave nothing: {out}")
    want = f"the file {os.path.realpath(S.img_bc)} is also used by {S.c}, a loop device"
    check(out["run"][0] != "0" and out["run"][1].startswith(f"refusing to write to {S.b}: ")
          and want in out["run"][1], f"{out['run']}: expected {want}")
    check(out["closed"] == ["1"], "the run did not close the descriptor")
    check(digest(S.img_bc, 0, 64 * MIB) == before, "a refused run changed the device")
    return out["run"][1]


def test_not_root_refused():
    if not shutil.which("setpriv"):
        raise Skip("needs setpriv (util-linux) to run as nobody")
    if subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", OPEN],
                      capture_output=True).returncode != 2:
        raise Skip("user nobody cannot run the build dir's udisks-open")
    out = S.ask(S.a, "read", user=65534)
    want = (f"opening the device {S.a} for reading through UDisks2 (Block.OpenForBenchmark) "
            "failed: polkit did not authorize it (org.freedesktop.UDisks2.Error.NotAuthorized: ")
    check("error" in out and out["error"][0].startswith(want), f"{out} != {want}")
    return out["error"][0]


def all_as(tests, verdict, why):
    """Every test's line when the shared setup skipped or failed."""
    picked = dmktest.only(tests) or tests
    for i, (name, _) in enumerate(picked, 1):
        print(f"{verdict} {i} - {name}" + (f" # SKIP {why}" if verdict == "ok" else ""))
        if verdict != "ok":
            dmktest.note(why)
    print(f"1..{len(picked)}")
    return 0 if verdict == "ok" else 1


def main():
    global S
    tests = dmktest.tests_in(globals())
    with Dir() as d:
        setup = Setup(d)
        try:
            S = setup.__enter__()
        except Skip as why:
            return all_as(tests, "ok", " ".join(str(why).split()))
        except Exception as e:  # noqa: BLE001 - the setup's failure is every test's
            return all_as(tests, "not ok", f"setting up loop devices and udisksd failed: {e}")
        try:
            return dmktest.run_tap(tests)
        finally:
            setup.__exit__()


if __name__ == "__main__":
    sys.exit(main())
