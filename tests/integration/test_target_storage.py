#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Directory targets' storage and test files (issue 13, classes 3 and 6),
through drivemark-cli and the drive list:

- RAM under a file system that does not say so is refused, naming the
  chain: ext4 on a loop device over a file on tmpfs, the same through a
  partition, loop over loop, a loop device over another loop device,
  ext4 on zram under a loop, overlay with its upper layer on tmpfs,
  bindfs over tmpfs. The drive list marks the same mounts RAM-backed.
  ext4 on a loop over a file on the build dir's disk and overlay with a
  disk upper layer run, unflagged.
- An explicit --device that is RAM-backed (a loop over a tmpfs file, a
  zram device) is run, and its result is flagged ram_backed.
- The named test-file fallback (DMK_TEST_NO_TMPFILE=1 forces it; FUSE
  has no O_TMPFILE anyway) refuses an append-only directory before
  creating anything, refuses through bindfs a directory where the name
  cannot be removed (naming the empty probe file it could not remove),
  runs on bindfs over a disk directory leaving nothing, and when the
  bindfs server is killed during the run says which .fuse_hidden file
  was left.

The tmpfs mounts are the test's own, under the build dir; every mount,
loop device, zram device and attribute is undone whatever happens.
Needs root; skips with the reason otherwise. Prints TAP.

    test_target_storage.py DRIVEMARK_CLI LIST_VOLUMES"""

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check, read_csv  # noqa: E402


def need_root(*tools):
    dmktest.need_root(*tools, why="mounts, loop devices")

CLI = os.path.abspath(os.environ.get("DMK_CLI") or sys.argv[1])
LIST_VOLUMES = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
MIB = 1 << 20
QUICK = ["--size", "16MiB", "--test", "SEQ1M Q1T1", "--mode", "read", "--passes", "1",
         "--measure", "0.1", "--warmup", "0", "--interval", "0", "--quiet"]
RAM_TAIL = "so the numbers would measure memory, not a drive"


class Dir(dmktest.Dir):
    prefix = "storage-"




def sh(args, skip=True):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        if skip:
            raise Skip(f"{' '.join(args)} is not possible here: {r.stderr.strip()}")
        raise AssertionError(f"{' '.join(args)} failed: {r.stderr.strip()}")
    return r.stdout.strip()


def run(args, env=None, timeout=120):
    return dmktest.run_cli(CLI, args, timeout, env=env)


def say(text):
    """Shows text in the TAP log, each line a comment."""
    for line in text.strip().splitlines():
        print(f"# {line}")


def listing(d):
    return sorted(e for e in os.listdir(d) if e != "lost+found")


def wait_for(cond, what, timeout=30):
    """Waits for a state (never a fixed time): polls cond until it holds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Stack:
    """What a test sets up, undone in reverse order whatever happens."""

    def __init__(self, base):
        self.base, self.undo = base, []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for f in reversed(self.undo):
            try:
                f()
            except Exception as e:  # noqa: BLE001 - clean up the rest too
                print(f"# cleanup: {e}")

    def path(self, name):
        return os.path.join(self.base, name)

    def _umount(self, point):
        if subprocess.run(["umount", point], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", point], capture_output=True)

    def mount(self, args, point):
        os.makedirs(point, exist_ok=True)
        sh(["mount"] + args + [point])
        self.undo.append(lambda: self._umount(point))
        return point

    def tmpfs(self, name, size="160m"):
        return self.mount(["-t", "tmpfs", "-o", f"size={size}", "tmpfs"], self.path(name))

    def loop(self, backing):
        dev = sh(["losetup", "-f", "--show", backing])
        self.undo.append(lambda: subprocess.run(["losetup", "-d", dev], capture_output=True))
        return dev

    def image(self, path, size):
        with open(path, "wb") as f:
            f.truncate(size)
        return path

    def ext4_on(self, dev, point):
        sh(["mkfs.ext4", "-q", "-F", dev])
        return self.mount([dev], point)

    def ext4_loop(self, img, size, point):
        """A fresh ext4 in img (sparse) on its own loop device, mounted at
        point. Returns the loop device."""
        self.image(img, size)
        dev = self.loop(img)
        self.ext4_on(dev, point)
        return dev

    def bindfs(self, src, point, wait=True):
        """bindfs src point in the foreground, as this test's child (its pid
        is known, so it can be killed alone). Returns the Popen."""
        os.makedirs(point, exist_ok=True)
        p = subprocess.Popen(["bindfs", "-f", src, point], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)

        def stop():
            self._umount(point)
            if p.poll() is None:
                p.terminate()
            p.wait(timeout=30)
        self.undo.append(stop)
        if wait:
            wait_for(lambda: os.path.ismount(point) or p.poll() is not None, "bindfs to mount")
            if not os.path.ismount(point):
                raise Skip(f"bindfs cannot mount here: {p.stderr.read().decode().strip()}")
        return p

    def zram(self, size):
        """A new zram device of size bytes; removed afterwards."""
        ctl = "/sys/class/zram-control/hot_add"
        if not os.path.exists(ctl):
            raise Skip("no zram-control (zram module not loaded)")
        n = open(ctl).read().strip()
        self.undo.append(lambda: open("/sys/class/zram-control/hot_remove", "w").write(n))
        with open(f"/sys/block/zram{n}/disksize", "w") as f:
            f.write(str(size))
        self.undo.append(lambda: open(f"/sys/block/zram{n}/reset", "w").write("1"))
        return f"/dev/zram{n}"

    def chattr(self, flag, path):
        sh(["chattr", "+" + flag, path])
        self.undo.append(lambda: subprocess.run(["chattr", "-" + flag, path],
                                                capture_output=True))


def check_refused_ram(target, chain):
    """A run on target is refused (exit 1) with the chain, and nothing is
    left in it."""
    before = listing(target)
    r = run(["run", "--target", target] + QUICK)
    say(r.stderr)
    check(r.returncode == 1, f"exit {r.returncode}, expected a refusal: {r.stderr}")
    want = f"drivemark-cli: refusing {target}: it is on {chain}, {RAM_TAIL}\n"
    check(r.stderr == want, f"stderr {r.stderr!r}, expected {want!r}")
    check(listing(target) == before, f"left in {target}: {listing(target)}")


def check_runs_unflagged(d, target):
    """A run on target works, leaves nothing, and no test is flagged for
    its storage."""
    before = listing(target)
    csv = os.path.join(d, "r.csv")
    r = run(["run", "--target", target, "--csv", csv] + QUICK)
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    check(listing(target) == before, f"left in {target}: {listing(target)}")
    for row in read_csv(csv):
        flags = row.get("flags", "").split()
        check("ram_backed" not in flags and "storage_unknown" not in flags,
              f"flagged {flags} on {target}")
    check("storage:" not in r.stdout, f"a storage note on {target}: {r.stdout}")


# ---- class 6: RAM under the file system ---------------------------------------


def test_ext4_on_loop_over_tmpfs_refused():
    need_root("mkfs.ext4", "losetup")
    with Dir() as d, Stack(d) as s:
        ram = s.tmpfs("ram")
        img = os.path.join(ram, "a.img")
        dev = s.ext4_loop(img, 64 * MIB, s.path("m"))
        check_refused_ram(s.path("m"), f"ext4 on {dev}, whose backing file {img} is on tmpfs")


def test_ext4_on_loop_over_disk_runs():
    need_root("mkfs.ext4", "losetup")
    with Dir() as d, Stack(d) as s:
        s.ext4_loop(s.path("disk.img"), 64 * MIB, s.path("m"))
        check_runs_unflagged(d, s.path("m"))


def test_loop_over_loop_over_tmpfs_refused():
    """ext4 in a file on an ext4 that is itself on a loop over tmpfs; and a
    loop device whose backing is another loop device (not a file)."""
    need_root("mkfs.ext4", "losetup")
    with Dir() as d, Stack(d) as s:
        ram = s.tmpfs("ram")
        outer_img = os.path.join(ram, "outer.img")
        outer = s.ext4_loop(outer_img, 96 * MIB, s.path("m1"))
        inner_img = os.path.join(s.path("m1"), "inner.img")
        inner = s.ext4_loop(inner_img, 40 * MIB, s.path("m2"))
        check_refused_ram(s.path("m2"), f"ext4 on {inner}, whose backing file {inner_img} is on "
                                         f"ext4 on {outer}, whose backing file {outer_img} is on "
                                         "tmpfs")
        raw = s.loop(s.image(os.path.join(ram, "raw.img"), 40 * MIB))
        over = s.loop(raw)
        s.ext4_on(over, s.path("m3"))
        check_refused_ram(s.path("m3"), f"ext4 on {over}, whose backing device is {raw}, whose "
                                         f"backing file {ram}/raw.img is on tmpfs")


def test_deleted_backing_file_on_tmpfs_refused():
    """The backing file removed after losetup: sysfs says "(deleted)", the
    loop driver still knows the file's file system (LOOP_GET_STATUS64)."""
    need_root("mkfs.ext4", "losetup")
    with Dir() as d, Stack(d) as s:
        ram = s.tmpfs("ram")
        img = s.image(os.path.join(ram, "gone.img"), 64 * MIB)
        dev = s.loop(img)
        os.unlink(img)
        s.ext4_on(dev, s.path("m"))
        check_refused_ram(s.path("m"), f"ext4 on {dev}, whose backing file {img} (deleted) is on "
                                        "tmpfs")


def test_storage_out_of_sight_runs_flagged():
    """A loop device whose backing file's file system was lazily unmounted:
    its storage cannot be followed, so the run works and every test is
    flagged storage_unknown ("may be RAM"), with a note saying why."""
    need_root("mkfs.ext4", "losetup")
    with Dir() as d, Stack(d) as s:
        s.ext4_loop(s.path("outer.img"), 96 * MIB, s.path("m0"))
        inner = s.loop(s.image(os.path.join(s.path("m0"), "inner.img"), 48 * MIB))
        sh(["umount", "-l", s.path("m0")])
        s.ext4_on(inner, s.path("m"))
        csv = os.path.join(d, "r.csv")
        r = run(["run", "--target", s.path("m"), "--csv", csv] + QUICK)
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        check(listing(s.path("m")) == [], f"left: {listing(s.path('m'))}")
        rows = [row for row in read_csv(csv) if row.get("flags")]
        check(rows and all("storage_unknown" in row["flags"].split() for row in rows),
              f"flags: {[row.get('flags') for row in read_csv(csv)]}")
        # What the kernel now calls the file (the path below the lost mount).
        name = os.path.basename(inner)
        backing = open(f"/sys/block/{name}/loop/backing_file").read().strip()
        note = (f"   Note: storage: {s.path('m')} is on ext4 on {inner}, whose backing file "
                f"{backing} is on a file system that is not in this process's mount table: "
                "unknown, it may be RAM-backed\n")
        check(note in r.stdout, f"no note {note!r}: {r.stdout}")
        check("[storage_unknown] Storage unknown:" in r.stdout, r.stdout)
        # The tile's markers: "[peak, may be RAM]", and ", cached]" after
        # it where the loop device is buffered (losetup's default).
        check("may be RAM]" in r.stdout or "may be RAM, cached]" in r.stdout, r.stdout)


def test_partition_of_loop_over_tmpfs_refused():
    need_root("mkfs.ext4", "losetup", "sfdisk", "partx")
    with Dir() as d, Stack(d) as s:
        ram = s.tmpfs("ram")
        img = s.image(os.path.join(ram, "part.img"), 64 * MIB)
        subprocess.run(["sfdisk", "-q", img], input="2048,,L\n", text=True, check=True,
                       capture_output=True)
        dev = s.loop(img)
        sh(["partx", "-a", dev])
        s.undo.append(lambda: subprocess.run(["partx", "-d", dev], capture_output=True))
        part = dev + "p1"
        wait_for(lambda: os.path.exists(part), f"{part} to appear", timeout=10)
        s.ext4_on(part, s.path("m"))
        check_refused_ram(s.path("m"), f"ext4 on {part}, a partition of {dev}, whose backing "
                                        f"file {img} is on tmpfs")


def test_zram_under_a_loop_refused():
    need_root("mkfs.ext4", "losetup")
    with Dir() as d, Stack(d) as s:
        z = s.zram(96 * MIB)
        s.ext4_on(z, s.path("z"))
        img = os.path.join(s.path("z"), "a.img")
        dev = s.ext4_loop(img, 40 * MIB, s.path("m"))
        check_refused_ram(s.path("m"), f"ext4 on {dev}, whose backing file {img} is on ext4 on "
                                        f"{z} (zram: compressed RAM)")


def test_overlay_upper_on_tmpfs_refused():
    need_root()
    with Dir() as d, Stack(d) as s:
        ram = s.tmpfs("ram")
        lower, upper, work = s.path("lower"), os.path.join(ram, "u"), os.path.join(ram, "w")
        for p in (lower, upper, work):
            os.makedirs(p)
        s.mount(["-t", "overlay", "overlay", "-o",
                 f"lowerdir={lower},upperdir={upper},workdir={work}"], s.path("o"))
        check_refused_ram(s.path("o"), f"overlay, whose upper layer {upper} is on tmpfs")
        check(listing(upper) == [], f"left in the upper layer: {listing(upper)}")


def test_overlay_upper_on_disk_runs():
    need_root()
    with Dir() as d, Stack(d) as s:
        lower, upper, work = s.path("lower"), s.path("u"), s.path("w")
        for p in (lower, upper, work):
            os.makedirs(p)
        s.mount(["-t", "overlay", "overlay", "-o",
                 f"lowerdir={lower},upperdir={upper},workdir={work}"], s.path("o"))
        check_runs_unflagged(d, s.path("o"))
        check(listing(upper) == [], f"left in the upper layer: {listing(upper)}")


def test_bindfs_over_tmpfs_refused():
    need_root("bindfs")
    with Dir() as d, Stack(d) as s:
        src = os.path.join(s.tmpfs("ram"), "src")
        os.makedirs(src)
        s.bindfs(src, s.path("f"))
        check_refused_ram(s.path("f"), f"FUSE over {src}, which is on tmpfs")
        check(listing(src) == [], f"left in {src}: {listing(src)}")


def test_drive_list_marks_the_same():
    """The window's list (dmk_os_list_volumes) marks what the target
    refuses RAM-backed, with the chain, and leaves a disk loop usable."""
    need_root("mkfs.ext4", "losetup", "bindfs")
    if not LIST_VOLUMES:
        raise Skip("no list-volumes program given")
    with Dir() as d, Stack(d) as s:
        ram = s.tmpfs("ram")
        img = os.path.join(ram, "a.img")
        dev = s.ext4_loop(img, 64 * MIB, s.path("m"))
        s.ext4_loop(s.path("disk.img"), 64 * MIB, s.path("disk"))
        upper, work = os.path.join(ram, "u"), os.path.join(ram, "w")
        os.makedirs(s.path("lower"))
        os.makedirs(upper)
        os.makedirs(work)
        s.mount(["-t", "overlay", "overlay", "-o",
                 f"lowerdir={s.path('lower')},upperdir={upper},workdir={work}"], s.path("o"))
        src = os.path.join(ram, "src")
        os.makedirs(src)
        s.bindfs(src, s.path("f"))
        out = subprocess.run([LIST_VOLUMES], capture_output=True, text=True, check=True,
                             timeout=60).stdout
        vols = {}
        for line in out.splitlines():
            path, usable, reason = line.split("\t")
            vols[path] = (usable, reason)
        for path, chain in [
                (s.path("m"), f"ext4 on {dev}, whose backing file {img} is on tmpfs"),
                (s.path("o"), f"overlay, whose upper layer {upper} is on tmpfs"),
                (s.path("f"), f"FUSE over {src}, which is on tmpfs")]:
            check(path in vols, f"{path} is not in the list: {out}")
            want = ("unusable", f"RAM-backed ({chain}): would measure memory, not a drive")
            check(vols[path] == want, f"{path}: {vols[path]}, expected {want}")
        disk = vols.get(s.path("disk"), ("", ""))
        check(disk[0] == "usable", f"disk loop: {disk}")


def check_device_flagged(d, dev, chain):
    csv = os.path.join(d, "dev.csv")
    r = run(["run", "--device", dev, "--csv", csv] + QUICK)
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    rows = [row for row in read_csv(csv) if row.get("flags") is not None and row.get("test")]
    check(rows, "no test rows")
    for row in rows:
        if row.get("record", "test") == "test":
            check("ram_backed" in row["flags"].split(), f"not flagged: {row['flags']!r}")
    note = f"   Note: storage: {chain}: RAM-backed, the numbers measure memory\n"
    check(note in r.stdout, f"no storage note {note!r} in {r.stdout}")
    check("[ram_backed] RAM-backed: the target's storage is memory" in r.stdout, r.stdout)


def test_ram_backed_device_runs_flagged():
    """--device on a loop over a tmpfs file (what the performance bench
    does) and on a zram device: run, and every test says RAM-backed."""
    need_root("losetup")
    with Dir() as d, Stack(d) as s:
        ram = s.tmpfs("ram")
        img = s.image(os.path.join(ram, "dev.img"), 64 * MIB)
        dev = s.loop(img)
        check_device_flagged(d, dev, f"{dev}, whose backing file {img} is on tmpfs")
        z = s.zram(64 * MIB)
        check_device_flagged(d, z, f"{z} (zram: compressed RAM)")


# ---- class 3: test files left behind --------------------------------------------


def test_append_only_dir_refused_up_front():
    """chattr +a with the named fallback forced: refused before anything is
    created (a name there could never be removed)."""
    need_root("chattr")
    with Dir() as d, Stack(d) as s:
        t = s.path("a")
        os.makedirs(t)
        s.chattr("a", t)
        r = run(["run", "--target", t] + QUICK, env={"DMK_TEST_NO_TMPFILE": "1"})
        say(r.stderr)
        check(r.returncode == 1, f"exit {r.returncode}: {r.stderr}")
        check(f"refusing {t}: the directory is append-only (chattr +a)" in r.stderr, r.stderr)
        check("nothing was created" in r.stderr, r.stderr)
        check(listing(t) == [], f"left in {t}: {listing(t)}")
        # O_TMPFILE needs no name: the same directory runs without the fallback.
        r = run(["run", "--target", t] + QUICK)
        check(r.returncode == 0, f"with O_TMPFILE: exit {r.returncode}: {r.stderr}")
        check(listing(t) == [], f"left in {t}: {listing(t)}")


def test_unremovable_name_through_bindfs_refused():
    """bindfs over an append-only directory: the attribute cannot be seen
    through FUSE, so the probe finds it: its unlink fails, the run is
    refused before the real file exists, and the message names the empty
    probe file that stays (the one thing the OS leaves)."""
    need_root("bindfs", "chattr")
    with Dir() as d, Stack(d) as s:
        src = s.path("src")
        os.makedirs(src)
        s.chattr("a", src)
        s.bindfs(src, s.path("f"))
        r = run(["run", "--target", s.path("f")] + QUICK)
        say(r.stderr)
        check(r.returncode == 1, f"exit {r.returncode}: {r.stderr}")
        left = listing(src)
        check(len(left) == 1 and left[0].endswith(".probe") and left[0].startswith(".drivemark-"),
              f"left in {src}: {left}")
        check(os.path.getsize(os.path.join(src, left[0])) == 0, "the probe file is not empty")
        probe = os.path.join(s.path("f"), left[0])
        check(f"refusing {s.path('f')}: removing the probe file {probe} failed "
              "(Operation not permitted)" in r.stderr, r.stderr)
        check("remove it by hand" in r.stderr, r.stderr)
        subprocess.run(["chattr", "-a", src], check=True)
        os.unlink(os.path.join(src, left[0]))


def test_bindfs_over_disk_runs_and_leaves_nothing():
    """FUSE has no O_TMPFILE: the named fallback runs, the report says
    which hidden name the open file has, and nothing is left after."""
    need_root("bindfs")
    with Dir() as d, Stack(d) as s:
        src = s.path("src")
        os.makedirs(src)
        open(os.path.join(src, "keep.txt"), "w").write("mine\n")
        s.bindfs(src, s.path("f"))
        before = listing(src)
        r = run(["run", "--target", s.path("f")] + QUICK)
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        check(f"   Note: leftover: the FUSE file system keeps the open test file under the hidden "
              f"name {s.path('f')}/.fuse_hidden" in r.stdout, r.stdout)
        wait_for(lambda: listing(src) == before, f"{src} to be as before (it is {listing(src)})")
        check(listing(s.path("f")) == before, f"left in the mount: {listing(s.path('f'))}")


def hidden_of_size(src, size):
    """The .fuse_hidden names in src of files of the given size."""
    found = []
    for e in os.listdir(src):
        try:
            if e.startswith(".fuse_hidden") and os.stat(os.path.join(src, e)).st_size == size:
                found.append(e)
        except FileNotFoundError:
            pass
    return found


def bindfs_wrote(pid):
    """Bytes the bindfs server wrote (/proc/PID/io): the fill's 32 MiB to
    its backing file, then each read's reply to /dev/fuse; past 36 MiB the
    measured (read) test is under way."""
    for line in open(f"/proc/{pid}/io"):
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


def test_killed_bindfs_says_what_is_left():
    """The bindfs server killed during a run, once as soon as the test file
    has its size (in the allocation or the fill) and once in the measured
    test (bindfs_wrote): the run
    fails (exit 1) and says which .fuse_hidden file was left and to remove
    it. That file is what the OS cannot remove (docs/faults.md); the test
    removes it."""
    killed_bindfs(in_test=False)
    killed_bindfs(in_test=True)


def killed_bindfs(in_test):
    need_root("bindfs")
    with Dir() as d, Stack(d) as s:
        src = s.path("src")
        os.makedirs(src)
        fuse = s.bindfs(src, s.path("f"))
        args = ["run", "--target", s.path("f"), "--size", "32MiB", "--test", "RND4K Q1T1",
                "--mode", "read", "--passes", "1", "--measure", "60", "--warmup", "0",
                "--quiet"]
        p = subprocess.Popen([CLI] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        try:
            # The probe before it is hidden too, but empty: the test file
            # is the one with the run's size.
            hidden = wait_for(lambda: hidden_of_size(src, 32 * MIB),
                              "the test file's hidden name in the backing directory")
            if in_test:
                wait_for(lambda: bindfs_wrote(fuse.pid) >= 36 * MIB,
                         "the read test through bindfs", timeout=120)
            fuse.kill()
            fuse.wait(timeout=30)
            out, err = p.communicate(timeout=120)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        say(err)
        check(p.returncode == 1, f"exit {p.returncode}: {err}")
        name = f"{s.path('f')}/{hidden[0]}"
        # The dead mount's path is no help: the message names the file
        # in bindfs's source directory, where it is.
        check(f"leftover: the FUSE file system keeps the open test file under the "
              f"hidden name {name} until the run closes it; if the FUSE server dies during the "
              "run, that file is left in the FUSE file system's source directory as "
              f"{src}/{hidden[0]}: remove it by hand" in err, err)
        check(os.path.exists(os.path.join(src, hidden[0])), "the hidden file is gone after all")
        os.unlink(os.path.join(src, hidden[0]))


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(dict(globals())), timed=True))
