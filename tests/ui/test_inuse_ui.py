#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Devices in use in the window's target list (issue 16, defect 5), on
loop devices this script makes over files under the build dir: a free
loop device keeps "Device (destroys data)" and every test; one with an
ext4 mounted is listed "in use, mounted at DIR", its write and mixed
tiles say "read only: ...", a sweep reads only, the Lab refuses to start, saying why, and a run reads
(without the "type its name" question) and writes nothing (the backing
file's checksum is unchanged); a loop device whose partition is mounted
is in use through it; one used as swap says so (skipped where swapon is
refused); and the disk holding / is shown in use (only looked at, never
run on). Every loop device and mount is removed on exit, failures
included. With $DMK_UI_SHOTS set, the list's screenshot is kept there.
Needs root, losetup, mkfs.ext4; skips with the reason otherwise. Prints
TAP."""

import atexit
import json
import os
import shutil
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import sh, sha  # noqa: E402
import test_gui as t  # noqa: E402
from test_gui import Dir, check, check_screenshot, field, rows  # noqa: E402

MIB = 1 << 20
QUICK = ["--profile", "demo", "--size", "16MiB", "--passes", "1", "--measure", "0.2",
         "--warmup", "0", "--interval", "0"]

# What this script set up, undone in reverse at exit whatever happens
# (a failed check, an exception, SIGTERM from the test runner's timeout).
UNDO = []


def undo_all():
    while UNDO:
        args = UNDO.pop()
        sh(args)


atexit.register(undo_all)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))


def need_loops():
    dmktest.need_root("losetup", "mkfs.ext4", "mount", why="loop devices and mounts")


def loop_over(d, name, mib=32, partscan=False):
    """A loop device over a new file of random bytes under d."""
    img = os.path.join(d, name)
    with open(img, "wb") as f:
        f.write(os.urandom(mib * MIB))
    r = sh(["losetup", "-f", "--show"] + (["-P"] if partscan else []) + [img])
    if r.returncode != 0:
        raise dmktest.Skip(f"no loop device here: {r.stderr.strip()}")
    dev = r.stdout.strip()
    UNDO.append(["losetup", "-d", dev])
    return img, dev


def release(dev):
    """Detaches dev now (the UNDO entry then finds nothing to do)."""
    sh(["losetup", "-d", dev])


def mount_ro(dev, d):
    """Mounts dev's ext4 read-only (noload: not even the journal is
    replayed), so the kernel writes nothing to it and a checksum of the
    backing file shows exactly what the benchmark wrote."""
    where = os.path.join(d, "mnt-" + os.path.basename(dev))
    os.mkdir(where)
    r = sh(["mount", "-o", "ro,noload", "-t", "ext4", dev, where])
    check(r.returncode == 0, f"mount {dev}: {r.stderr.strip()}")
    UNDO.append(["umount", "-l", where])
    return where


def mkfs(dev):
    r = sh(["mkfs.ext4", "-q", "-F", dev])
    check(r.returncode == 0, f"mkfs.ext4 {dev}: {r.stderr.strip()}")


def listed(lines, dev):
    """The list's two lines for dev ("device PATH TITLE DETAIL" in the
    dump), as "TITLE | DETAIL"."""
    got = [f"{f[2]} | {f[3]}" for f in lines if f[0] == "device" and f[1] == dev]
    check(len(got) == 1, f"{dev} listed {len(got)} times: {rows(lines, 'device')}")
    return got[0]


def check_in_use(lines, dev, usage):
    entry = listed(lines, dev)
    check(entry.startswith(f"Device (in use, read only): {dev} | ") and
          entry.endswith(f"\u2014 {usage}: read tests only"), f"listed as {entry!r}")
    return entry


def tile_states(lines):
    """(row, mode) -> (text, state) of the shown tiles."""
    return {(f[1], f[2]): (f[3], f[5]) for f in lines if f[0] == "tile"}


def tile_flags(lines):
    return {(f[1], f[2]): f[3] for f in lines if f[0] == "tile-flags"}


def look(dev, extra=()):
    """The window with dev chosen, nothing run: its dump."""
    rc, lines, err, _ = t.run_app(["--target", dev, "--dump-tiles", "--quit-when-done"]
                                  + QUICK + list(extra))
    check(rc == 0, f"exit {rc}; stderr: {err}")
    return lines


def check_read_only(lines, dev, usage):
    check(field(lines, "target-usage") == usage,
          f"target-usage {field(lines, 'target-usage')!r}, expected {usage!r}")
    states, flags = tile_states(lines), tile_flags(lines)
    writes = [k for k in states if k[1] != "read"]
    check(writes, f"no write tile shown: {states}")
    for k in writes:
        check(states[k][1] == "blocked" and states[k][0] == "\u2014",
              f"{k} on a device in use: {states[k]}")
        check(flags.get(k) == f"read only: {usage}", f"{k} says {flags.get(k)!r}")
    check(any(k[1] == "read" and v[1] != "blocked" for k, v in states.items()),
          f"no read test offered: {states}")


def test_free_loop_warns():
    need_loops()
    with Dir() as d:
        img, dev = loop_over(d, "free.img")
        lines = look(dev)
        title = listed(lines, dev)
        check(title.startswith(f"Device (destroys data): {dev} | ") and
              title.endswith("\u2014 raw disk: write tests erase it"), f"listed as {title!r}")
        check(field(lines, "target-usage") == "", f"usage {field(lines, 'target-usage')!r}")
        states = tile_states(lines)
        check(states and not [k for k, v in states.items() if v[1] == "blocked"],
              f"tests held back on a free device: {states}")
        check(any(k[1] == "write" for k in states), f"no write test offered: {states}")
        release(dev)
        return title


def test_mounted_loop_reads_only():
    need_loops()
    with Dir() as d:
        img, dev = loop_over(d, "mounted.img")
        mkfs(dev)
        where = mount_ro(dev, d)
        usage = f"mounted at {where}"
        shot = os.path.join(d, "list.png")
        lines = look(dev, ["--activate", "show-targets", "--screenshot", shot])
        title = check_in_use(lines, dev, usage)
        check_read_only(lines, dev, usage)
        w, h = check_screenshot(shot)
        keep = os.environ.get("DMK_UI_SHOTS")
        if keep:
            os.makedirs(keep, exist_ok=True)
            shutil.copy(shot, os.path.join(keep, "target-list-in-use.png"))
        # A run reads, asks nothing and writes nothing.
        before = sha(img)
        rc, lines, err, _ = t.run_app(["--target", dev] + QUICK + [
            "--autorun", "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(field(lines, "status").startswith("Done"), f"status: {field(lines, 'status')}")
        check(not [f for f in lines if f[0] == "dialog"], "a read-only run asked")
        states = tile_states(lines)
        measured = [k for k, v in states.items() if v[1] == "measured"]
        check(measured and all(k[1] == "read" for k in measured), f"measured: {measured}")
        check_read_only(lines, dev, usage)
        check(sha(img) == before, "the run changed the mounted device's data")
        # The sweep reads only, whatever its Directions said.
        out = os.path.join(d, "sweep.json")
        rc, lines, err, _ = t.run_app(["--target", dev, "--sweep", "qd", "--autorun", "--json",
                                       out, "--dump-tiles", "--quit-when-done"] + QUICK[2:])
        check(rc == 0, f"sweep exit {rc}; stderr: {err}")
        modes = {test.get("mode") for test in json.load(open(out)).get("results", [])}
        check(modes == {"read"}, f"the sweep ran {modes}")
        check(sha(img) == before, "the sweep changed the mounted device's data")
        # A lab test that writes: Start (and its shortcut) is off, saying why.
        rc, lines, err, _ = t.run_app(["--target", dev, "--lab", "sustained"] + QUICK + [
            "--activate", "run-lab", "--dump-tiles", "--quit-when-done"])
        said = field(lines, "error") or ""
        check("lab test writes" in said and usage in said, f"lab refused with {said!r}")
        check(not [f for f in lines if f[0] == "dialog"], "the lab asked a question")
        check(sha(img) == before, "the lab changed the mounted device's data")
        # The surface scan only reads: it runs on the device in use.
        rc, lines, err, _ = t.run_app(["--target", dev, "--lab", "surface", "--lab-samples", "4",
                                       "--lab-sample-size", "1MiB", "--lab-accesses", "20",
                                       "--autorun", "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"surface scan exit {rc}; stderr: {err}")
        check(field(lines, "lab-state") == "result", f"lab state: {field(lines, 'lab-state')}")
        check(field(lines, "error") is None, f"error: {field(lines, 'error')}")
        check(sha(img) == before, "the surface scan changed the mounted device's data")
        return f"{title}; list shot {w}x{h}"


def test_partition_mounted():
    need_loops()
    if not shutil.which("sfdisk"):
        raise dmktest.Skip("needs sfdisk")
    with Dir() as d:
        img, dev = loop_over(d, "parted.img", mib=40)
        r = sh(["sfdisk", "-q", dev], input="label: gpt\nstart=2048, size=61440\n")
        check(r.returncode == 0, f"sfdisk: {r.stderr.strip()}")
        sh(["partx", "-u", dev]) if shutil.which("partx") else None
        part = dev + "p1"
        if not os.path.exists(part):
            raise dmktest.Skip(f"the kernel made no {part} (no partition scan for loop)")
        mkfs(part)
        where = mount_ro(part, d)
        usage = f"mounted at {where} ({os.path.basename(part)})"
        lines = look(dev)
        title = check_in_use(lines, dev, usage)
        check_read_only(lines, dev, usage)
        return title


def test_swap_loop():
    need_loops()
    if not shutil.which("mkswap") or not shutil.which("swapon"):
        raise dmktest.Skip("needs mkswap and swapon")
    with Dir() as d:
        img, dev = loop_over(d, "swap.img")
        r = sh(["mkswap", dev])
        check(r.returncode == 0, f"mkswap: {r.stderr.strip()}")
        r = sh(["swapon", dev])
        if r.returncode != 0:
            raise dmktest.Skip(f"swapon refused here: {r.stderr.strip()}")
        UNDO.append(["swapoff", dev])
        lines = look(dev)
        title = check_in_use(lines, dev, "swap")
        check_read_only(lines, dev, "swap")
        return title


def root_disk():
    """The whole disk holding / (its partition's disk), as /dev/NAME."""
    st = os.stat("/")
    for line in open("/proc/self/mountinfo"):
        f = line.split()
        if f[4] == "/":
            major, minor = f[2].split(":")
    sys_dir = os.path.realpath(f"/sys/dev/block/{major}:{minor}")
    if not os.path.isdir(sys_dir):
        raise dmktest.Skip(f"/ is on no block device ({major}:{minor}, device {st.st_dev})")
    if os.path.exists(os.path.join(sys_dir, "partition")):
        sys_dir = os.path.dirname(sys_dir)
    name = os.path.basename(sys_dir)
    if not os.path.exists(f"/sys/block/{name}"):
        raise dmktest.Skip(f"/ is on {name}, which is no whole disk the list offers (dm, md?)")
    return f"/dev/{name}"


def test_system_disk_in_use():
    """Only looked at: the window lists it, nothing runs on it."""
    disk = root_disk()
    rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done"] + QUICK)
    check(rc == 0, f"exit {rc}; stderr: {err}")
    title = listed(lines, disk)
    check(title.startswith(f"Device (in use, read only): {disk} | ") and
          "\u2014 mounted at /" in title and title.endswith(": read tests only"),
          f"the system disk is listed as {title!r}")
    return title


def main():
    try:
        return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)
    finally:
        undo_all()


if __name__ == "__main__":
    sys.exit(main())
