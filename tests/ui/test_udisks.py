#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's UDisks2 path (ui/dmk-udisks.c) against a mock udisksd
(tests/ui/mock-udisks.c) on a private bus (tests/dmkbus.py), with no
window: udisks-open (tests/ui/udisks-open.c) asks for a descriptor as the
window does and hands it to a run as the window does. The mock serves a
regular file standing in for the device, so what arrives can be compared
with that file (device and inode), the open flags read back, and the
engine's checks seen to work on the descriptor that came over the bus
(a regular file is not the device: refused, and the run closed it); or
it answers as polkit's refusals do, and the message must name the
operation, the device and the D-Bus error. The device named is a block
device node this script makes (root) or one of /dev's, only stat()ed:
nothing here opens a device or starts udisksd. The one write through the
window needs a disk in use by nothing (the window offers only reads on a
disk in use, issue 16 defect 5, and this machine's disks may all be):
it gets a loop device of its own over a file in its directory, detached
again, which the mock's refusal keeps from ever being opened for writing.
Prints TAP.

    test_udisks.py MOCK_UDISKS UDISKS_OPEN"""

import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmkbus  # noqa: E402
import dmktest  # noqa: E402
from dmktest import Skip, check  # noqa: E402

MOCK, OPEN = sys.argv[1], sys.argv[2]
O_ACCMODE, O_RDONLY, O_RDWR = 0o3, 0o0, 0o2
O_DIRECT, O_DSYNC, O_EXCL = 0o40000, 0o10000, 0o200
MIB = 1 << 20


class Dir(dmktest.Dir):
    prefix = "udisks-"


def block_node(d):
    """A block device node to name (stat only): one made here, as root,
    of an unused loop minor, else the first of /dev's."""
    path = os.path.join(d, "blk")
    try:
        os.mknod(path, 0o600 | 0o060000, os.makedev(7, 250))
        return path
    except OSError:
        pass
    for name in sorted(os.listdir("/sys/block")):
        p = f"/dev/{name}"
        if os.path.exists(p) and os.stat(p).st_mode & 0o170000 == 0o060000:
            return p
    raise Skip("no block device node to name (not root, and /dev has none)")


class Mock:
    """The mock udisksd on the bus, serving `serve` or refusing."""

    def __init__(self, d, address, node, *args):
        rdev = os.stat(node).st_rdev
        self.log = os.path.join(d, "calls.log")
        self.argv = [MOCK, "--number", f"{os.major(rdev)}:{os.minor(rdev)}", "--log", self.log,
                     *args]
        self.env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address)

    def __enter__(self):
        self.proc = subprocess.Popen(self.argv, env=self.env, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()  # once it owns the name
        check(line == "ready", f"the mock did not start: {line!r}")
        return self

    def calls(self):
        if not os.path.exists(self.log):
            return []  # nothing was asked
        with open(self.log) as f:
            return [line.rstrip("\n").split("\t") for line in f]

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(timeout=30)


def ask(address, node, mode, *extra):
    """udisks-open's lines as {kind: [fields]}."""
    env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address)
    r = subprocess.run([OPEN, node, mode, *extra], env=env, capture_output=True, text=True,
                       timeout=120)
    check(r.returncode == 0, f"udisks-open exited {r.returncode}: {r.stdout}{r.stderr}")
    return {line.split("\t")[0]: line.split("\t")[1:] for line in r.stdout.splitlines()}


def stand_in(d):
    path = os.path.join(d, "stand-in.img")
    with open(path, "wb") as f:
        f.write(os.urandom(16 * MIB))
    return path


def served(d, mode, *mock_args):
    """Runs udisks-open against a mock serving a stand-in file: (lines,
    the mock's calls, the file's stat)."""
    with dmkbus.PrivateBus(d) as address:
        node, img = block_node(d), stand_in(d)
        with Mock(d, address, node, "--serve", img, *mock_args) as m:
            out = ask(address, node, mode)
            return out, m.calls(), os.stat(img), node


def test_read_hands_over_the_served_file():
    """A read asks OpenForBenchmark with no options, interactively; the
    descriptor that arrives is the served file itself, opened read-only
    with O_DIRECT (and udisksd's O_SYNC); the engine looks at that very
    descriptor, refuses it as not the device, and the run closes it."""
    with Dir() as d:
        out, calls, st, node = served(d, "read")
        check([c[0] for c in calls] == ["GetManagedObjects", "OpenForBenchmark"], calls)
        check(calls[1][1].endswith("/stand_in"), f"the other device was asked: {calls[1]}")
        check(calls[1][2] == "(@a{sv} {},)", f"options: {calls[1][2]}")
        check(calls[1][3] == "interactive=1", "polkit may not ask the user")
        flags, ident = int(out["fd"][0]), out["fd"][1]
        check(ident == f"{st.st_dev}:{st.st_ino}", f"another file arrived: {ident}")
        check(flags & O_ACCMODE == O_RDONLY and flags & O_DIRECT, f"flags {flags:#o}")
        check(int(out["run"][0]) != 0, out["run"])
        real = os.path.realpath(node)
        check(f"the descriptor handed over for it is a regular file, not the device {real}"
              in out["run"][1], out["run"])
        check(out["closed"] == ["1"], "the run did not close the descriptor")


def test_write_asks_open_device_without_sync():
    """A write asks OpenDevice("rw", {flags: O_DIRECT | O_EXCL}): what
    arrives is read-write with O_DIRECT and without O_SYNC, which
    OpenForBenchmark's writable open would add (every write FUA)."""
    with Dir() as d:
        out, calls, st, node = served(d, "write")
        check([c[0] for c in calls] == ["GetManagedObjects", "OpenDevice"], calls)
        check(calls[1][2] == f"('rw', {{'flags': <{O_DIRECT | O_EXCL}>}})", calls[1][2])
        check(calls[1][3] == "interactive=1", "polkit may not ask the user")
        flags = int(out["fd"][0])
        check(flags & O_ACCMODE == O_RDWR and flags & O_DIRECT and not flags & O_DSYNC,
              f"flags {flags:#o}")
        check(out["fd"][1] == f"{st.st_dev}:{st.st_ino}", "another file arrived")
        check("is a regular file, not the device" in out["run"][1], out["run"])
        check(out["closed"] == ["1"], "the run did not close the descriptor")


def test_sync_descriptor_refused_for_writes():
    """A UDisks2 that forced O_SYNC onto the descriptor: the engine reads
    it back from what came over the bus and refuses the write run."""
    with Dir() as d:
        out, _, _, node = served(d, "write", "--add-flags", str(0o4010000))
        check(int(out["fd"][0]) & O_DSYNC, "the mock's O_SYNC did not arrive")
        check(out["run"][1] == f"refusing to write to {node}: the descriptor handed over for it "
              "was opened with O_SYNC, which makes every write a write-through (FUA), so the "
              "write numbers would not compare with a plain direct open", out["run"])
        check(out["closed"] == ["1"], "the run did not close the descriptor")


def refused(name, message, mode="write"):
    with Dir() as d, dmkbus.PrivateBus(d) as address:
        node = block_node(d)
        with Mock(d, address, node, "--refuse", f"{name}:{message}"):
            out = ask(address, node, mode)
        check("fd" not in out and "run" not in out, f"something was opened: {out}")
        return out["error"][0], node


def test_dismissed_dialog():
    msg, node = refused("org.freedesktop.UDisks2.Error.NotAuthorizedDismissed",
                        "The authentication dialog was dismissed")
    want = (f"opening the device {node} for writing through UDisks2 (Block.OpenDevice) failed: "
            "the authentication dialog was dismissed (org.freedesktop.UDisks2.Error."
            "NotAuthorizedDismissed: The authentication dialog was dismissed)")
    check(msg == want, f"{msg!r}\n!= {want!r}")


def test_polkit_refusal():
    msg, node = refused("org.freedesktop.UDisks2.Error.NotAuthorized",
                        "Not authorized to perform operation", mode="read")
    want = (f"opening the device {node} for reading through UDisks2 (Block.OpenForBenchmark) "
            "failed: polkit did not authorize it (org.freedesktop.UDisks2.Error.NotAuthorized: "
            "Not authorized to perform operation)")
    check(msg == want, f"{msg!r}\n!= {want!r}")


def test_other_udisks_error_shown_as_it_came():
    msg, node = refused("org.freedesktop.UDisks2.Error.Failed",
                        "Error opening device /dev/x: Device or resource busy")
    want = (f"opening the device {node} for writing through UDisks2 (Block.OpenDevice) failed: "
            "org.freedesktop.UDisks2.Error.Failed: Error opening device /dev/x: Device or "
            "resource busy")
    check(msg == want, f"{msg!r}\n!= {want!r}")


def test_no_udisks_on_the_bus():
    with Dir() as d, dmkbus.PrivateBus(d) as address:
        node = block_node(d)
        msg = ask(address, node, "read")["error"][0]
    check(msg.startswith(f"opening the device {node} for reading through UDisks2 "
                         "(Block.OpenForBenchmark) failed: UDisks2 is not on the system bus (raw "
                         "devices otherwise need root or the disk group) (org.freedesktop.DBus."
                         "Error.ServiceUnknown: "), msg)


def test_no_system_bus():
    with Dir() as d:
        node = block_node(d)
        msg = ask(f"unix:path={d}/no-bus", node, "write")["error"][0]
    check(msg.startswith(f"opening the device {node} for writing through UDisks2 "
                         "(Block.OpenDevice) failed: the system bus cannot be reached ("), msg)


def test_device_udisks_does_not_list():
    """The mock lists 259:77 and the node's number; a node of another
    number is not found, and nothing is opened."""
    with Dir() as d, dmkbus.PrivateBus(d) as address:
        node = block_node(d)
        other = os.path.join(d, "other")
        try:
            os.mknod(other, 0o600 | 0o060000, os.makedev(7, 251))
        except OSError:
            raise Skip("needs root to make a second device node")
        with Mock(d, address, node, "--serve", stand_in(d)) as m:
            msg = ask(address, other, "read")["error"][0]
            calls = m.calls()
    check(msg == f"opening the device {other} for reading through UDisks2 "
          "(Block.OpenForBenchmark) failed: UDisks2 does not know the device (UDisks2 lists no "
          "block device 7:251)", msg)
    check([c[0] for c in calls] == ["GetManagedObjects"], calls)


# ---- the window (Xvfb), as a user who may not open the device sees it ----

WINDOW = ["--size", "16MiB", "--passes", "1", "--measure", "0.2", "--warmup", "0",
          "--interval", "0", "--udisks-always", "--autorun", "--dump-tiles",
          "--quit-when-done"]


def listed_disk():
    """A disk the window lists (it offers /sys/block's, no other node):
    named, stat()ed and looked up in the mock, never opened: the mock
    serves a regular file or refuses, and the engine refuses the file
    before any guard or I/O. Loop, zram and RAM disks are left alone
    (another test series may be using loop devices)."""
    for name in sorted(os.listdir("/sys/block")):
        p = f"/dev/{name}"
        if (not name.startswith(("loop", "zram", "ram")) and os.path.exists(p)
                and os.stat(p).st_mode & 0o170000 == 0o060000):
            return p
    raise Skip("no disk in /sys/block with a node in /dev for the window to list")


class FreeLoop:
    """A loop device over a new 16 MiB file in d, in use by nothing, so
    the window offers writes on it; detached on exit. Skips without root
    or losetup."""

    def __init__(self, d):
        self.img, self.dev = os.path.join(d, "free.img"), None

    def __enter__(self):
        if os.geteuid() != 0 or not shutil.which("losetup"):
            raise Skip("the write path needs a free disk: a loop device of its own (root, "
                       "losetup)")
        with open(self.img, "wb") as f:
            f.truncate(16 * MIB)
        r = subprocess.run(["losetup", "-f", "--show", self.img], capture_output=True, text=True)
        if r.returncode != 0:
            raise Skip(f"no loop device here: {r.stderr.strip()}")
        self.dev = r.stdout.strip()
        return self.dev

    def __exit__(self, *exc):
        if self.dev:
            subprocess.run(["losetup", "-d", self.dev], capture_output=True)


def run_window(address, args):
    import test_gui  # Xvfb and the window's dump; only these tests need it
    rc, lines, err, _ = test_gui.run_app(args, env={"DBUS_SYSTEM_BUS_ADDRESS": address})
    return rc, lines, err, test_gui.field


def test_window_hands_the_descriptor_to_the_run():
    """Read-only: UDisks2 is asked (OpenForBenchmark), the descriptor
    reaches the engine, which refuses the stand-in file: the info bar
    says so, as for any refusal of the engine's."""
    with Dir() as d, dmkbus.PrivateBus(d) as address:
        node = listed_disk()
        with Mock(d, address, node, "--serve", stand_in(d)) as m:
            rc, lines, err, field = run_window(address, ["--target", node, "--mode", "read"] +
                                               WINDOW)
            calls = m.calls()
        check(rc == 1, f"exit {rc}, expected 1; stderr: {err}")
        check([c[0] for c in calls] == ["GetManagedObjects", "OpenForBenchmark"],
              f"{calls}: {lines}")
        msg = field(lines, "error") or ""
        check("the descriptor handed over for it is a regular file, not the device" in msg, msg)
        return msg


def test_surface_scan_asks_to_read_only():
    """The surface scan (a lab test that only reads) takes the same path:
    UDisks2's OpenForBenchmark, never OpenDevice, and the descriptor
    reaches the engine, which checks it as for any run."""
    with Dir() as d, dmkbus.PrivateBus(d) as address:
        node = listed_disk()
        with Mock(d, address, node, "--serve", stand_in(d)) as m:
            rc, lines, err, field = run_window(address, [
                "--target", node, "--lab", "surface", "--lab-samples", "2", "--lab-accesses",
                "1", "--udisks-always", "--autorun", "--dump-tiles", "--quit-when-done"])
            calls = m.calls()
        check(rc == 1, f"exit {rc}, expected 1; stderr: {err}")
        check([c[0] for c in calls] == ["GetManagedObjects", "OpenForBenchmark"],
              f"{calls}: {lines}")
        msg = field(lines, "error") or ""
        check("the descriptor handed over for it is a regular file, not the device" in msg, msg)
        return msg


def test_window_says_the_dialog_was_dismissed():
    """A write: the typed name first, then UDisks2's OpenDevice, refused
    as a dismissed polkit dialog: the info bar names the operation, the
    device and the D-Bus error; nothing ran."""
    with Dir() as d, dmkbus.PrivateBus(d) as address, FreeLoop(d) as node:
        refusal = ("org.freedesktop.UDisks2.Error.NotAuthorizedDismissed:"
                   "The authentication dialog was dismissed")
        with Mock(d, address, node, "--refuse", refusal) as m:
            rc, lines, err, field = run_window(address, ["--target", node, "--confirm-device",
                                                         node] + WINDOW)
            calls = m.calls()
        check(rc == 1, f"exit {rc}, expected 1; stderr: {err}")
        check([c[0] for c in calls] == ["GetManagedObjects", "OpenDevice"], calls)
        msg = field(lines, "error") or ""
        check(msg == "The device cannot be opened: "
              f"Opening the device {node} for writing through UDisks2 (Block.OpenDevice) "
              "failed: the authentication dialog was dismissed (org.freedesktop.UDisks2.Error."
              "NotAuthorizedDismissed: The authentication dialog was dismissed)", msg)
        check(field(lines, "status") == "Failed: the device cannot be opened",
              field(lines, "status"))
        return msg


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals())))
