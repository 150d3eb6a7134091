#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Directory and device targets' storage, round three (the hostile
review's findings 6 and 11b), through drivemark-cli:

- bindfs over a directory with a tmpfs mounted inside it: the target
  MNT/sub is on the tmpfs at SRC/sub, not on SRC's disk, and is refused
  as RAM, at any depth below it and through a second bindfs inside the
  source; a disk file system mounted at SRC/disk runs, unflagged.
- A loop device doing buffered I/O on its backing file (loop/dio 0,
  losetup's default) measures the page cache: a --device run on one and
  a directory on a file system on one (at any depth) are flagged
  "cached", named in the report, the CSV and the JSON; with direct I/O
  (losetup --direct-io=on) they are not.

Reuses test_target_storage.py's helpers (mounts, loop devices and bindfs
servers under the build dir, undone whatever happens). Needs root; skips
with the reason otherwise. Prints TAP.

    test_target_cached.py DRIVEMARK_CLI LIST_VOLUMES"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
import test_target_storage as ts  # noqa: E402
from dmktest import Skip, check, read_csv  # noqa: E402

MIB = ts.MIB


class Dir(dmktest.Dir):
    prefix = "cached-"


def dio(dev):
    with open(f"/sys/block/{os.path.basename(dev)}/loop/dio") as f:
        return f.read().strip()


def buffered_loop(s, backing):
    """A loop device over backing as losetup makes it (dio 0)."""
    dev = s.loop(backing)
    if not os.path.exists(f"/sys/block/{os.path.basename(dev)}/loop/dio"):
        raise Skip("this kernel's loop driver has no loop/dio (before 4.4)")
    if dio(dev) != "0":
        raise Skip(f"losetup attached {dev} with direct I/O already (dio {dio(dev)})")
    return dev


def direct_io(dev):
    """Switches dev to direct I/O on its backing file; skips where the
    backing file system cannot (its block size above the loop's)."""
    ts.sh(["losetup", "--direct-io=on", dev])
    if dio(dev) != "1":
        raise Skip(f"{dev} stays buffered after losetup --direct-io=on")


def cache_words(dev, backing="file"):
    return (f"the loop device {dev} reads and writes its backing {backing} through the page "
            "cache (loop/dio 0)")


def run_rows(d, args):
    """Runs drivemark-cli with a CSV and a JSON; returns (result, test rows,
    JSON)."""
    csv, js = os.path.join(d, "r.csv"), os.path.join(d, "r.json")
    for p in (csv, js):
        if os.path.exists(p):
            os.unlink(p)
    r = ts.run(["run"] + args + ["--csv", csv, "--json", js] + ts.QUICK)
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    rows = [row for row in read_csv(csv) if row.get("record", "test") == "test" and
            row.get("flags") is not None and row.get("test")]
    check(rows, "no test rows")
    return r, rows, json.load(open(js))


def check_cached(d, args, dev, backing="file"):
    r, rows, doc = run_rows(d, args)
    for row in rows:
        check("cached" in row["flags"].split(), f"not flagged cached: {row['flags']!r}")
    note = (f"   Note: cache: {cache_words(dev, backing)}: the numbers measure memory as much as the "
            "drive\n")
    check(note in r.stdout, f"no cache note {note!r} in {r.stdout}")
    check(f"   Flag: [cached] Cached: {cache_words(dev, backing)}, so the numbers measure memory as much "
          "as the drive." in r.stdout, r.stdout)
    text = json.dumps(doc)
    check(f'"cache_note": "{cache_words(dev, backing)}"' in text, text[:2000])
    check('"cached"' in text, "no cached flag in the JSON")


def check_not_cached(d, args):
    r, rows, doc = run_rows(d, args)
    for row in rows:
        flags = row["flags"].split()
        check("cached" not in flags and "ram_backed" not in flags and
              "storage_unknown" not in flags, f"flagged {flags}")
    check("cache:" not in r.stdout and "storage:" not in r.stdout, r.stdout)
    check(json.dumps(doc).count('"cache_note": ""') == 1, "cache_note is not empty in the JSON")


# ---- finding 6: bindfs over a directory with a submount --------------------------


def test_bindfs_over_tmpfs_submount_refused():
    """bindfs SRC MNT with a tmpfs at SRC/sub: MNT/sub and MNT/sub/deep are
    refused as tmpfs; a second bindfs at SRC/inner over SRC2 with a tmpfs
    at SRC2/t makes MNT/inner/t refused through both; MNT itself (on
    SRC's disk) runs unflagged."""
    ts.need_root("bindfs")
    with Dir() as d, ts.Stack(d) as s:
        src, src2 = s.path("src"), s.path("src2")
        os.makedirs(os.path.join(src, "inner"))
        os.makedirs(src2)
        ram = s.mount(["-t", "tmpfs", "-o", "size=64m", "tmpfs"], os.path.join(src, "sub"))
        os.makedirs(os.path.join(ram, "deep"))
        s.mount(["-t", "tmpfs", "-o", "size=64m", "tmpfs"], os.path.join(src2, "t"))
        s.bindfs(src2, os.path.join(src, "inner"))
        mnt = s.path("f")
        s.bindfs(src, mnt)
        ts.check_refused_ram(f"{mnt}/sub", f"FUSE over {src}/sub, which is on tmpfs")
        ts.check_refused_ram(f"{mnt}/sub/deep", f"FUSE over {src}/sub/deep, which is on tmpfs")
        ts.check_refused_ram(f"{mnt}/inner/t", f"FUSE over {src}/inner/t, which is on FUSE over "
                                               f"{src2}/t, which is on tmpfs")
        ts.check_runs_unflagged(d, mnt)


def test_bindfs_over_disk_submount_runs():
    """bindfs SRC MNT with an ext4 (on a loop device with direct I/O over a
    file on the build dir's disk) at SRC/disk: MNT/disk runs, unflagged,
    leaving nothing; SRC's own tmpfs sibling does not taint it."""
    ts.need_root("bindfs", "mkfs.ext4", "losetup")
    with Dir() as d, ts.Stack(d) as s:
        src = s.path("src")
        os.makedirs(src)
        s.tmpfs(os.path.join("src", "ram"), size="64m")
        dev = s.loop(s.image(s.path("disk.img"), 64 * MIB))
        direct_io(dev)
        s.ext4_on(dev, os.path.join(src, "disk"))
        mnt = s.path("f")
        s.bindfs(src, mnt)
        check_not_cached(d, ["--target", f"{mnt}/disk"])
        check(ts.listing(os.path.join(src, "disk")) == [], "left in the ext4")


def top_fstype(point):
    """The file system type of the last (topmost) mount at point, "" when
    none."""
    fstype = ""
    for line in open("/proc/self/mountinfo"):
        left, right = line.split(" - ", 1)
        if left.split()[4].encode().decode("unicode_escape") == point:
            fstype = right.split()[0]
    return fstype


def bindfs_over_itself(s, point):
    """bindfs POINT POINT, waited for until the topmost mount there is
    FUSE (a tmpfs POINT is a mount point before bindfs is, so Stack's wait
    for a mount point would not wait)."""
    p = s.bindfs(point, point, wait=False)
    ts.wait_for(lambda: top_fstype(point) == "fuse" or p.poll() is not None, "bindfs to mount")
    if top_fstype(point) != "fuse":
        raise Skip(f"bindfs cannot mount here: {p.stderr.read().decode().strip()}")


def test_bindfs_over_its_own_source():
    """bindfs D D (mounted over its own source): the source seen through
    the mount is the mount again, so the walk goes to the mount it sits on
    (before: around the cycle until "too deep", flagged may be RAM). On a
    tmpfs D: refused; on the build dir's disk: runs, unflagged, but D/sub,
    where a tmpfs was mounted before the bindfs, is refused."""
    ts.need_root("bindfs")
    with Dir() as d, ts.Stack(d) as s:
        ram = s.tmpfs("ram", size="64m")
        bindfs_over_itself(s, ram)
        ts.check_refused_ram(ram, f"FUSE over {ram}, under its own mount point, which is on "
                                  "tmpfs")
        disk = s.path("disk")
        os.makedirs(disk)
        s.tmpfs(os.path.join("disk", "sub"), size="64m")
        bindfs_over_itself(s, disk)
        ts.check_runs_unflagged(d, disk)
        # A tmpfs mounted at D/sub before the bindfs is hidden under it
        # but is where D/sub's data goes.
        ts.check_refused_ram(f"{disk}/sub", f"FUSE over {disk}/sub, under its own mount point, "
                                            "which is on tmpfs")


def list_volumes():
    """The window's list (dmk_os_list_volumes): {path: (usable, reason)}."""
    if not ts.LIST_VOLUMES:
        raise Skip("no list-volumes program given")
    out = ts.subprocess.run([ts.LIST_VOLUMES], capture_output=True, text=True, check=True,
                            timeout=60).stdout
    vols = {}
    for line in out.splitlines():
        path, usable, reason = line.split("\t")
        vols[path] = (usable, reason)
    return vols


def test_drive_list_follows_fuse_at_its_root():
    """The window's list: a bindfs mount over its own tmpfs source is
    RAM-backed (the mount under it), one over its own disk directory and
    one over a disk directory holding a tmpfs (the list entry is the mount
    point: its own source) are usable."""
    ts.need_root("bindfs")
    with Dir() as d, ts.Stack(d) as s:
        ram = s.tmpfs("ram", size="64m")
        bindfs_over_itself(s, ram)
        disk = s.path("disk")
        os.makedirs(disk)
        bindfs_over_itself(s, disk)
        src = s.path("src")
        os.makedirs(src)
        s.tmpfs(os.path.join("src", "sub"), size="64m")
        s.bindfs(src, s.path("f"))
        vols = list_volumes()
        want = ("unusable", f"RAM-backed (FUSE over {ram}, under its own mount point, which is on "
                            "tmpfs): would measure memory, not a drive")
        check(vols.get(ram) == want, f"{ram}: {vols.get(ram)}, expected {want}")
        for path in (disk, s.path("f")):
            check(vols.get(path, ("", ""))[0] == "usable", f"{path}: {vols.get(path)}")


# ---- finding 11b: buffered loop devices -----------------------------------------


def test_buffered_loop_device_flagged_cached():
    """--device on a loop over a build-dir file as losetup makes it (dio 0):
    run, every test flagged cached with the loop device named; after
    losetup --direct-io=on, not flagged. A buffered loop over that loop
    device (its backing a block device, cached the same way) is flagged
    too, naming its backing device."""
    ts.need_root("losetup")
    with Dir() as d, ts.Stack(d) as s:
        dev = buffered_loop(s, s.image(s.path("dev.img"), 64 * MIB))
        check_cached(d, ["--device", dev], dev)
        direct_io(dev)
        check_not_cached(d, ["--device", dev])
        over = buffered_loop(s, dev)
        check_cached(d, ["--device", over], over, backing="device")


def test_folder_on_buffered_loop_flagged_cached():
    """A directory on ext4 on a buffered loop: run (not refused: the
    integration tests' own loop-mounted images are such targets) and
    flagged cached; the same loop with direct I/O is not. One level down,
    ext4 on a direct-I/O loop over a file on that buffered ext4 names the
    buffered loop below it."""
    ts.need_root("mkfs.ext4", "losetup")
    with Dir() as d, ts.Stack(d) as s:
        outer = buffered_loop(s, s.image(s.path("outer.img"), 128 * MIB))
        m1 = s.ext4_on(outer, s.path("m1"))
        check_cached(d, ["--target", m1], outer)
        inner = s.loop(s.image(os.path.join(m1, "inner.img"), 48 * MIB))
        direct_io(inner)
        m2 = s.ext4_on(inner, s.path("m2"))
        check_cached(d, ["--target", m2], outer)
        direct_io(outer)
        check_not_cached(d, ["--target", m2])
        check_not_cached(d, ["--target", m1])


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(dict(globals())), timed=True))
