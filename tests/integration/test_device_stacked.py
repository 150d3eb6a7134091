#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Raw-device writes that would reach a mounted file system through
stacked storage (loop devices over the same image, over a partition,
under a mounted loop; partitions of partitioned loop devices; swap
files; a backing file a program holds open; zram writeback) are refused,
naming the user and the chain that links it to the target; the writes
that touch nothing in use (a loop over an unused file, a partition
beside a mounted one) go ahead. After every refusal the checksum of
every image and backing file is unchanged and e2fsck finds the file
systems clean.

This kernel reads no partition tables, so partitions are added the way
partx does it (BLKPG, from the table sfdisk wrote). Every loop device,
partition and mount is created here, under the build dir, and removed
whatever happens. Needs root; skips with the reason otherwise. TAP.

    test_device_stacked.py DRIVEMARK_CLI"""

import contextlib
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check, sh, sha  # noqa: E402

CLI = os.environ.get("DMK_CLI") or sys.argv[1]
MIB = 1 << 20
IMG_SIZE = 64 * MIB
QUICK = ["--test", "SEQ1M Q8T1", "--passes", "1", "--measure", "0.1", "--warmup", "0",
         "--interval", "0", "--quiet"]


def must(args, what):
    r = sh(args)
    check(r.returncode == 0, f"{what}: {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout.strip()


def need(*tools):
    dmktest.need_root(*tools, why="loop devices, partitions and mounts")




def write(dev, extra=()):
    """A 16 MiB write run on dev with consent: what the guards must judge."""
    args = ["run", "--device", dev, "--yes-destroy-data=" + dev, "--size", "16M"] + QUICK
    r = dmktest.run_cli(CLI, args + list(extra), 120)
    print(f"# drivemark-cli run --device {dev}: exit {r.returncode}")
    for line in r.stderr.splitlines():
        print(f"#   {line}")
    return r


def refused(r, needles, what):
    check(r.returncode == 1, f"{what}: exit {r.returncode}, expected 1 (a refusal)")
    for n in needles:
        check(n in r.stderr, f"{what}: stderr lacks {n!r}: {r.stderr}")
    check("MB/s" not in r.stdout, f"{what}: it measured something: {r.stdout}")


class Lab(contextlib.ExitStack):
    """A directory under the build dir, and everything made in it: images,
    loop devices, partitions, mounts, torn down in reverse order."""

    def __enter__(self):
        super().__enter__()
        self.dir = self.enter_context(Dir())
        self.images = []
        return self

    def image(self, name, parts=False, size=IMG_SIZE):
        """A file of random bytes (64 MiB); with parts, a GPT with two
        partitions (p1 16 MiB from 1 MiB, p2 the rest)."""
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(os.urandom(size))
        if parts:
            need("sfdisk")
            r = subprocess.run(["sfdisk", "-q", path], input="label: gpt\n,16M\n,\n",
                               capture_output=True, text=True, timeout=60)
            check(r.returncode == 0, f"sfdisk: {r.stderr}")
        self.images.append(path)
        return path

    def loop(self, backing, parts=False):
        dev = must(["losetup", "-f", "--show"] + (["-P"] if parts else []) + [backing],
                   "losetup")
        self.callback(sh, ["losetup", "-d", dev])
        if parts and not os.path.exists(dev + "p1"):
            # No partition table parser in this kernel: add them as partx
            # does, from the table in user space (BLKPG).
            need("partx")
            must(["partx", "-a", dev], "partx -a")
            self.callback(sh, ["partx", "-d", dev])
        if parts:
            check(os.path.exists(dev + "p2"), f"{dev} has no partitions")
        return dev

    def mount(self, dev, name="mnt"):
        """ext4 on dev (no lazy init, so the image changes only when
        written to), mounted at dir/name with a file of known content."""
        need("mkfs.ext4", "e2fsck")
        mnt = os.path.join(self.dir, name)
        os.makedirs(mnt, exist_ok=True)
        must(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", dev],
             "mkfs.ext4")
        must(["mount", "-o", "noatime", dev, mnt], "mount")
        self.callback(self.fsck, dev)
        self.callback(sh, ["umount", mnt])
        with open(os.path.join(mnt, "keep.bin"), "wb") as f:
            f.write(os.urandom(2 * MIB))
        os.sync()
        return mnt

    def partitioned(self):
        """A partitioned image (see image) and a loop device over it with
        its partitions: (image path, loop device)."""
        img = self.image("part.img", parts=True)
        return img, self.loop(img, parts=True)

    def mount_made(self, dev, opts, what):
        """The file system on dev, made by the caller, mounted at dir/mnt
        with opts; unmounted on teardown."""
        mnt = os.path.join(self.dir, "mnt")
        os.makedirs(mnt)
        must(["mount", "-o", opts, dev, mnt], what)
        self.callback(sh, ["umount", mnt])
        return mnt

    def fsck(self, dev):
        r = sh(["e2fsck", "-fn", dev])
        self.fsck_clean = getattr(self, "fsck_clean", True) and r.returncode == 0
        if r.returncode != 0:
            dmktest.note(f"e2fsck -fn {dev}: exit {r.returncode}: {r.stdout.strip()}")

    def sums(self):
        os.sync()
        return {p: sha(p) for p in self.images}


class Dir(dmktest.Dir):
    prefix = "stacked-"


def intact(lab, before, what):
    after = lab.sums()
    for p in before:
        check(after[p] == before[p], f"{what}: {os.path.basename(p)} changed")


def refused_intact(lab, dev, needles, what):
    before = lab.sums()
    refused(write(dev), needles, what)
    intact(lab, before, what)


def fscks_clean(lab, what):
    lab.close()
    check(getattr(lab, "fsck_clean", True), f"{what}: e2fsck found errors")


# ---- the three cases -------------------------------------------------


def test_second_loop_on_image_of_mounted_partition():
    need("losetup")
    with Lab() as lab:
        img, a = lab.partitioned()
        mnt = lab.mount(a + "p2")
        b = lab.loop(img)
        refused_intact(lab, b, [f"refusing to write to {b}: /dev/{os.path.basename(a)}p2 is "
                                f"mounted at {mnt}", f"{b} stores its data in the file {img}",
                                f"{a} stores its data in the file {img}"],
                       "second loop on the same image")
        # The mounted partition's own disk is refused as before.
        refused_intact(lab, a, [f"its partition {a}p2 is mounted at {mnt}"], "the disk itself")
    fscks_clean(lab, "second loop")


def test_loop_over_mounted_partition():
    need("losetup")
    with Lab() as lab:
        img, a = lab.partitioned()
        mnt = lab.mount(a + "p2")
        b = lab.loop(a + "p2")
        refused_intact(lab, b, [f"{a}p2 is mounted at {mnt}", f"{b} stores its data in {a}p2"],
                       "loop over a mounted partition")
        c = lab.loop(a)  # a loop over the whole partitioned disk
        refused_intact(lab, c, [f"{a}p2 is mounted at {mnt}"], "loop over the disk")
    fscks_clean(lab, "loop over partition")


def test_partition_under_mounted_loop():
    need("losetup")
    with Lab() as lab:
        img, a = lab.partitioned()
        b = lab.loop(a + "p1")
        mnt = lab.mount(b)
        refused_intact(lab, a + "p1", [f"{b} is mounted at {mnt}",
                                       f"{b} stores its data in {a}p1"],
                       "partition under a mounted loop")
        refused_intact(lab, a, [f"{b} is mounted at {mnt}"], "its disk")
        c = lab.loop(img)
        refused_intact(lab, c, [f"{b} is mounted at {mnt}"], "another loop on the image")
    fscks_clean(lab, "partition under loop")


# ---- siblings ------------------------------------------------------------------


def test_loop_over_loop_chain():
    """Three levels: a file, a loop, a loop over that, mounted; every
    device in the chain and a second loop on the file is refused."""
    need("losetup")
    with Lab() as lab:
        img = lab.image("a.img")
        a = lab.loop(img)
        b = lab.loop(a)
        mnt = lab.mount(b)
        for dev in (a, lab.loop(img)):
            refused_intact(lab, dev, [f"{b} is mounted at {mnt}"], f"chain via {dev}")
    fscks_clean(lab, "chain")


def test_unused_loop_device_also_refused():
    """Another loop device on the same file is a user even unmounted (it
    may be mounted the next second, or open in a program)."""
    need("losetup")
    with Lab() as lab:
        img = lab.image("a.img")
        a = lab.loop(img)
        b = lab.loop(img)
        refused_intact(lab, b, [f"the file {img} is also used by {a}, a loop device"],
                       "second loop, unmounted")


def test_offset_loop_over_mounted_partition_range():
    """A loop with an offset into the image (where p2 starts) is the same
    storage as the mounted p2."""
    need("losetup")
    with Lab() as lab:
        img, a = lab.partitioned()
        mnt = lab.mount(a + "p2")
        b = must(["losetup", "-f", "--show", "-o", str(17 * MIB), img], "losetup -o")
        lab.callback(sh, ["losetup", "-d", b])
        refused_intact(lab, b, [f"is mounted at {mnt}"], "offset loop")
    fscks_clean(lab, "offset loop")


def test_swap_file_behind_loop():
    need("losetup", "mkswap", "swapon")
    with Lab() as lab:
        img = lab.image("fs.img")
        a = lab.loop(img)
        mnt = lab.mount(a, "fs")
        swap = os.path.join(mnt, "swap.img")
        with open(swap, "wb") as f:
            f.write(b"\0" * (16 * MIB))
        os.chmod(swap, 0o600)
        must(["mkswap", swap], "mkswap")
        on = sh(["swapon", swap])
        if on.returncode != 0:
            raise Skip(f"swapon of a file is not allowed here: {on.stderr.strip()}")
        lab.callback(sh, ["swapoff", swap])
        b = lab.loop(swap)
        before = sha(swap)
        refused(write(b), [f"the file {swap} is in use as swap"], "loop over a swap file")
        check(sha(swap) == before, "the swap file changed")


def test_backing_file_open_in_a_program():
    need("losetup")
    with Lab() as lab:
        img = lab.image("vm.img")
        a = lab.loop(img)
        holder = subprocess.Popen([sys.executable, "-c",
                                   "import sys,time; f=open(sys.argv[1],'rb'); "
                                   "print('open', flush=True); time.sleep(120)", img],
                                  stdout=subprocess.PIPE, text=True)
        lab.callback(holder.wait)
        lab.callback(holder.kill)
        check(holder.stdout.readline().strip() == "open", "the holder did not start")
        refused_intact(lab, a, [f"the file {img} is open in process {holder.pid}"],
                       "backing file open in a program")


def test_exclusive_claim_under_the_target():
    """What no list shows (a program's exclusive open of the device a loop
    sits on) is found by the kernel's claim on that device."""
    need("losetup")
    with Lab() as lab:
        a = lab.loop(lab.image("a.img"))
        b = lab.loop(a)
        fd = os.open(a, os.O_RDONLY | os.O_EXCL)
        lab.callback(os.close, fd)
        refused_intact(lab, b, [f"{a} is reported in use by the kernel"], "claimed backing")


def test_zram_writeback_device():
    need("losetup")
    ctl = "/sys/class/zram-control"
    if not os.path.exists(ctl):
        raise Skip("no zram here (/sys/class/zram-control)")

    def put(path, text):
        with open(path, "w") as f:
            f.write(text)

    with Lab() as lab:
        a = lab.loop(lab.image("wb.img"))
        with open(f"{ctl}/hot_add") as f:
            z = "zram" + f.read().strip()
        lab.callback(put, f"{ctl}/hot_remove", z[4:])
        if not os.path.exists(f"/sys/block/{z}/backing_dev"):
            raise Skip("zram writeback (CONFIG_ZRAM_WRITEBACK) is not built into this kernel")
        put(f"/sys/block/{z}/backing_dev", a)
        put(f"/sys/block/{z}/disksize", str(16 * MIB))
        lab.callback(put, f"/sys/block/{z}/reset", "1")
        refused_intact(lab, a, [f"is also used by /dev/{z}, a zram device"], "zram writeback")


def test_btrfs_second_device():
    """A two-device btrfs names one device in mountinfo; the other is
    found through /sys/fs/btrfs, and so is a loop on its image."""
    need("losetup", "mkfs.btrfs")
    with Lab() as lab:
        a = lab.loop(lab.image("b1.img", size=200 * MIB))
        img_b = lab.image("b2.img", size=200 * MIB)
        b = lab.loop(img_b)
        must(["mkfs.btrfs", "-q", "-f", "-d", "raid1", "-m", "raid1", a, b], "mkfs.btrfs")
        mnt = lab.mount_made(a, "noatime", "mount btrfs")
        with open(os.path.join(mnt, "keep.bin"), "wb") as f:
            f.write(os.urandom(MIB))
        refused_intact(lab, b, [f"it is a device of the btrfs file system mounted at {mnt} "
                                f"(from {a})"], "btrfs second device")
        c = lab.loop(img_b)
        refused_intact(lab, c, [f"{b} is a device of the btrfs file system mounted at {mnt}"],
                       "loop on the second device's image")
        must(["umount", mnt], "umount")
        r = sh(["btrfs", "check", "--readonly", a])
        check(r.returncode == 0, f"btrfs check: {r.stderr}")


def test_xfs_external_log_device():
    """An xfs with its log on another device: mountinfo names the log
    device only in the options."""
    need("losetup", "mkfs.xfs")
    with Lab() as lab:
        a = lab.loop(lab.image("x1.img", size=320 * MIB))
        b = lab.loop(lab.image("x2.img"))
        must(["mkfs.xfs", "-q", "-f", "-l", f"logdev={b}", a], "mkfs.xfs")
        mnt = lab.mount_made(a, f"noatime,logdev={b}", "mount xfs")
        refused_intact(lab, b, [f"it is the external log device of the xfs file system mounted "
                                f"at {mnt}"], "xfs log device")
        must(["umount", mnt], "umount")
        r = sh(["xfs_repair", "-n", "-l", b, a])
        check(r.returncode == 0, f"xfs_repair -n: {r.stdout} {r.stderr}")


def test_same_image_through_bindfs():
    """The image a mounted loop sits on, seen through bindfs (another
    device number, the same file): a loop over the bindfs view shares its
    storage. The reverse, too."""
    need("losetup", "bindfs", "fusermount")
    with Lab() as lab:
        src = os.path.join(lab.dir, "src")
        view = os.path.join(lab.dir, "view")
        os.makedirs(src)
        os.makedirs(view)
        img = os.path.join(src, "img")
        with open(img, "wb") as f:
            f.write(os.urandom(IMG_SIZE))
        lab.images.append(img)
        must(["bindfs", src, view], "bindfs")
        lab.callback(sh, ["fusermount", "-u", "-z", view])
        b = lab.loop(img)
        mnt = lab.mount(b)
        a = lab.loop(os.path.join(view, "img"))
        refused_intact(lab, a, [f"{b} is mounted at {mnt}", f"{a} stores its data in the file "],
                       "bindfs view")
        refused_intact(lab, lab.loop(os.path.join(view, "img")), [f"{b} is mounted at {mnt}"],
                       "a second loop on the bindfs view")
    fscks_clean(lab, "bindfs view")


def overlay(lab):
    """An overlay mount of lab.dir/lower (holding a 64 MiB ext4 image
    "img") with an upper layer on disk; (lower image path, overlay dir)."""
    lower, upper, work, ov = (os.path.join(lab.dir, n) for n in ("lower", "upper", "work", "ov"))
    for p in (lower, upper, work, ov):
        os.makedirs(p)
    img = lab.image(os.path.join("lower", "img"))
    must(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", img], "mkfs")
    r = sh(["mount", "-t", "overlay", "overlay", "-o",
            f"lowerdir={lower},upperdir={upper},workdir={work}", ov])
    if r.returncode != 0:
        raise Skip(f"overlay mounts are not allowed here: {r.stderr.strip()}")
    lab.callback(sh, ["umount", ov])
    return img, ov


def ro_loop(lab, path):
    dev = must(["losetup", "-f", "--show", "-r", path], "losetup -r")
    lab.callback(sh, ["losetup", "-d", dev])
    return dev


def test_overlay_view_of_mounted_lower_image():
    """A loop (read-only, so no copy-up) over the overlay's view of the
    lower image that another loop has mounted shares its storage."""
    need("losetup", "mkfs.ext4")
    with Lab() as lab:
        img, ov = overlay(lab)
        b = lab.loop(img)
        mnt = lab.mount(b)
        view = ro_loop(lab, os.path.join(ov, "img"))
        refused_intact(lab, view, [f"{b} is mounted at {mnt}"], "overlay view of a mounted image")
    fscks_clean(lab, "overlay view")


def test_lower_image_under_mounted_overlay_view():
    """The reviewer's case: the overlay's view mounted (read-only loop, no
    copy-up), then a write to a loop over the lower image itself."""
    need("losetup", "mkfs.ext4")
    with Lab() as lab:
        img, ov = overlay(lab)
        a = ro_loop(lab, os.path.join(ov, "img"))
        mnt = lab.mount_made(a, "ro,noload", "mount the overlay view")
        refused_intact(lab, lab.loop(img), [f"{a} is mounted at {mnt}"], "lower image")


def test_device_open_in_a_program():
    """A program holding the device (or the device under a loop target)
    open for writing without O_EXCL, as a virtual machine or dd does."""
    need("losetup")
    with Lab() as lab:
        a = lab.loop(lab.image("a.img"))
        holder = subprocess.Popen([sys.executable, "-c",
                                   "import os,sys,time; fd=os.open(sys.argv[1], os.O_RDWR); "
                                   "print('open', flush=True); time.sleep(120)", a],
                                  stdout=subprocess.PIPE, text=True)
        lab.callback(holder.wait)
        lab.callback(holder.kill)
        check(holder.stdout.readline().strip() == "open", "the holder did not start")
        refused_intact(lab, a, [f"it is open in process {holder.pid}"], "device open")
        b = lab.loop(a)
        refused_intact(lab, b, [f"{a} is open in process {holder.pid}"], "device under a loop")


# ---- what stays allowed ----------------------------------------------------


def test_loop_over_unused_file_is_written():
    need("losetup")
    with Lab() as lab:
        img = lab.image("free.img")
        a = lab.loop(img)
        before = sha(img)
        r = write(a)
        check(r.returncode == 0, f"a loop over an unused file was refused: {r.stderr}")
        check(sha(img) != before, "the write run wrote nothing")


def test_loop_over_bindfs_file_is_written():
    """bindfs holds the files it passes through open; a loop over a file
    seen through it that nothing else uses is still writable."""
    need("losetup", "bindfs", "fusermount")
    with Lab() as lab:
        src = os.path.join(lab.dir, "src")
        view = os.path.join(lab.dir, "view")
        os.makedirs(src)
        os.makedirs(view)
        with open(os.path.join(src, "img"), "wb") as f:
            f.write(os.urandom(IMG_SIZE))
        must(["bindfs", src, view], "bindfs")
        lab.callback(sh, ["fusermount", "-u", "-z", view])
        a = lab.loop(os.path.join(view, "img"))
        r = write(a)
        check(r.returncode == 0, f"a loop over an unused bindfs file was refused: {r.stderr}")


def test_partition_beside_mounted_one_is_written():
    """p1 does not overlap the mounted p2: writing it is allowed, and p2's
    file system and the bytes outside p1 are untouched."""
    need("losetup")
    with Lab() as lab:
        img, a = lab.partitioned()
        lab.mount(a + "p2")
        os.sync()
        with open(img, "rb") as f:
            f.seek(17 * MIB)
            tail = hashlib.sha256(f.read()).hexdigest()
        r = write(a + "p1")
        check(r.returncode == 0, f"writing p1 beside a mounted p2 was refused: {r.stderr}")
        os.sync()
        with open(img, "rb") as f:
            f.seek(17 * MIB)
            check(hashlib.sha256(f.read()).hexdigest() == tail, "bytes outside p1 changed")
    fscks_clean(lab, "p1 beside p2")


# ---- round four: layers that cannot be followed, and FUSE servers -------------


def mount_overlay_from(lab, base, opts, what):
    """mount(2) of an overlay at base/merged with opts as given (relative
    layer paths stay relative, as Docker's do: the kernel records them as
    passed), run from inside base; unmounted on teardown."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    merged = os.path.join(base, "merged")
    old = os.getcwd()
    os.chdir(base)
    try:
        rc = libc.mount(b"overlay", b"merged", b"overlay", 0, opts.encode())
        e = ctypes.get_errno()
    finally:
        os.chdir(old)
    if rc != 0:
        raise Skip(f"{what}: overlay mounts are not allowed here: {os.strerror(e)}")
    lab.callback(sh, ["umount", merged])
    return merged


def test_overlay_with_relative_layer_paths():
    """The reviewer's case: a loop over the overlay's view of an image
    (relative layer paths, mounted from inside the overlay's directory)
    is mounted; a write to a loop over the upper layer's image itself
    must be refused: the view's layers cannot be followed from here, so
    what the mounted loop stores its data in is unknown."""
    need("losetup", "mkfs.ext4")
    with Lab() as lab:
        base = os.path.join(os.path.abspath(lab.dir), "ov")
        for n in ("lower", "upper", "work", "merged"):
            os.makedirs(os.path.join(base, n))
        img = lab.image(os.path.join("ov", "upper", "disk.img"))
        merged = mount_overlay_from(lab, base, "lowerdir=lower,upperdir=upper,workdir=work",
                                    "relative layers")
        with open("/proc/self/mountinfo") as f:
            line = next(x for x in f if f" {merged} " in x)
        print(f"# {line.strip()}")
        check("upperdir=upper," in line, "the kernel did not keep the relative upperdir")
        a = lab.loop(os.path.join(merged, "disk.img"))
        lab.mount(a)
        refused_intact(lab, lab.loop(img),
                       [f"{a[5:]} stores its data in", "cannot be identified",
                        f"overlay at {merged}", '"upper" is relative'],
                       "upper image under a relative overlay")
    fscks_clean(lab, "relative overlay")


def test_overlay_with_many_lower_layers():
    """The image in the twelfth lower layer of an overlay; the overlay's
    view of it is mounted (read-only loop, no copy-up): a write to a loop
    over the image itself is refused, every layer followed."""
    need("losetup", "mkfs.ext4")
    with Lab() as lab:
        base = os.path.join(os.path.abspath(lab.dir), "many")
        lowers = [os.path.join(base, f"l{i:02d}") for i in range(12)]
        for p in lowers + [os.path.join(base, n) for n in ("upper", "work", "merged")]:
            os.makedirs(p)
        img = lab.image(os.path.join("many", "l11", "img"))
        must(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", img],
             "mkfs")
        merged = mount_overlay_from(
            lab, base, f"lowerdir={':'.join(lowers)},upperdir={base}/upper,workdir={base}/work",
            "twelve lower layers")
        a = ro_loop(lab, os.path.join(merged, "img"))
        mnt = lab.mount_made(a, "ro,noload", "mount the overlay view")
        refused_intact(lab, lab.loop(img), [f"{a} is mounted at {mnt}"],
                       "image in the twelfth lower layer")


def fuse_server_of(mnt):
    """The pid of the process whose command line names mnt (bindfs's)."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if mnt.encode() in args:
            return int(pid)
    return None


def test_other_fuse_server_holding_the_file():
    """Two bindfs mounts of one source: the target is a loop over the
    file seen through the first; the second's server holds the file open
    (a program has it mapped through the second view). Only the first's
    server is exempt from the open-files check: the write is refused,
    naming the second server."""
    need("losetup", "bindfs", "fusermount")
    with Lab() as lab:
        d = os.path.abspath(lab.dir)
        src, view1, view2 = (os.path.join(d, n) for n in ("src", "view1", "view2"))
        for p in (src, view1, view2):
            os.makedirs(p)
        img = os.path.join(src, "img")
        with open(img, "wb") as f:
            f.write(os.urandom(IMG_SIZE))
        lab.images.append(img)
        for v in (view1, view2):
            must(["bindfs", src, v], "bindfs")
            lab.callback(sh, ["fusermount", "-u", "-z", v])
        # Mapped, then the descriptor closed: the holder itself has no
        # descriptor, and the second server keeps the file open for it.
        holder = subprocess.Popen([sys.executable, "-c",
                                   "import mmap,os,sys,time; fd=os.open(sys.argv[1], os.O_RDWR); "
                                   "m=mmap.mmap(fd, 4096); os.close(fd); print('mapped', "
                                   "flush=True); time.sleep(120)", os.path.join(view2, "img")],
                                  stdout=subprocess.PIPE, text=True)
        lab.callback(holder.wait)
        lab.callback(holder.kill)
        check(holder.stdout.readline().strip() == "mapped", "the holder did not start")
        server2 = fuse_server_of(view2)
        check(server2 is not None, f"no process names {view2}")
        a = lab.loop(os.path.join(view1, "img"))
        refused_intact(lab, a, [f"is open in process {server2} (bindfs)"],
                       "file held by another FUSE server")


# ---- round four: a backing path longer than a page ----------------------------

LOOP_SET_FD, LOOP_CLR_FD, LOOP_CTL_GET_FREE = 0x4C00, 0x4C01, 0x4C82


def deep_image(lab, size=IMG_SIZE):
    """A file of random bytes whose absolute path is longer than a page
    (17 directories of 250 characters): sysfs's loop/backing_file read
    fails with ENAMETOOLONG for a loop device over it. Opened by
    descriptor, as no path call takes it; (fd, sha256)."""
    fd = os.open(lab.dir, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(17):
        os.mkdir("d" * 250, dir_fd=fd)
        nxt = os.open("d" * 250, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nxt
    img = os.open("deep.img", os.O_RDWR | os.O_CREAT, 0o600, dir_fd=fd)
    os.close(fd)
    lab.callback(os.close, img)
    os.write(img, os.urandom(size))
    os.fsync(img)
    return img


def fd_sum(fd):
    os.sync()
    h = hashlib.sha256()
    off = 0
    while True:
        b = os.pread(fd, MIB, off)
        if not b:
            return h.hexdigest()
        h.update(b)
        off += len(b)


def attach_fd(lab, fd):
    """A loop device over the open file fd (LOOP_SET_FD: losetup needs a
    path); detached on teardown. Another agent may take the free one
    first: then ask again."""
    import fcntl
    ctl = os.open("/dev/loop-control", os.O_RDWR)
    try:
        for _ in range(20):
            n = fcntl.ioctl(ctl, LOOP_CTL_GET_FREE)
            dev = f"/dev/loop{n}"
            lfd = os.open(dev, os.O_RDWR)
            try:
                fcntl.ioctl(lfd, LOOP_SET_FD, fd)
            except OSError:
                os.close(lfd)
                continue
            lab.callback(os.close, lfd)
            lab.callback(fcntl.ioctl, lfd, LOOP_CLR_FD)
            return dev
    finally:
        os.close(ctl)
    raise Skip("no free loop device could be attached")


def test_loop_backing_path_longer_than_a_page():
    need("losetup")
    with Lab() as lab:
        img = deep_image(lab)
        a = attach_fd(lab, img)
        name = os.path.basename(a)
        r = sh(["cat", f"/sys/block/{name}/loop/backing_file"])
        dmktest.note(f"cat backing_file of {a}: exit {r.returncode}: {r.stderr.strip()}")
        check(r.returncode != 0, "sysfs named the long backing path: nothing here is tested")
        mnt = lab.mount(a)
        b = attach_fd(lab, img)
        before = fd_sum(img)
        # Before round four the guard took a (and b itself) as detached
        # and let this write through the mounted file system's image.
        refused(write(b), [f"refusing to write to {b}: {a} is mounted at {mnt}",
                           "(its name is unreadable)"], "second loop on a long-path image")
        check(fd_sum(img) == before, "the long-path image changed")
    fscks_clean(lab, "long backing path")


def detach_if_ours(dev, img):
    """losetup -d dev only while dev still sits on img: once autoclear has
    detached it, the number may be another agent's loop device."""
    name = os.path.basename(dev)
    try:
        with open(f"/sys/block/{name}/loop/backing_file") as f:
            ours = f.read().strip() == img
    except OSError:
        return
    if ours:
        sh(["losetup", "-d", dev])


def test_loop_cannot_be_reattached_while_the_run_holds_it():
    """drivemark-cli runs the guard again once the device is open, which
    is only sound if what it checked then cannot change under the run: a
    loop device detached and attached to another file. While the run
    holds it (held before its read-back, DMK_TEST_VERIFY_HOLD), losetup
    -d only marks it for autoclear and a new attach fails with EBUSY; the
    run then finishes on its own file, and the other file is untouched."""
    need("losetup")
    with Lab() as lab:
        img = lab.image("a.img")
        other = lab.image("other.img")
        a = must(["losetup", "-f", "--show", img], "losetup")
        lab.callback(detach_if_ours, a, img)
        name = os.path.basename(a)
        seen = {}

        def swap():
            seen["detach"] = sh(["losetup", "-d", a]).returncode
            seen["attach"] = sh(["losetup", a, other])
            with open(f"/sys/block/{name}/loop/backing_file") as f:
                seen["backing"] = f.read().strip()

        before = sha(other)
        args = ["run", "--device", a, "--size", "16M", "--mode", "write", "--verify",
                "--yes-destroy-data=" + a] + QUICK
        proc, held, out, err = dmktest.held_run(lab.dir, [CLI] + args, swap)
        print(f"# held: {held}; exit {proc.returncode}; {seen}")
        check(held, f"drivemark-cli never reached the read-back: {err}")
        check(proc.returncode == 0, f"the run failed: exit {proc.returncode}: {err}")
        check(seen["detach"] == 0, "losetup -d of the held loop device failed")
        check(seen["attach"].returncode != 0,
              f"{a} was attached to another file while the run held it")
        check(seen["backing"] == img, f"{a} now sits on {seen['backing']}")
        check(sha(other) == before, "the other file changed")


def test_unused_partitioned_disk_is_written():
    """A partitioned loop device with nothing mounted is written: the
    guard's second look, once the run holds the disk with O_EXCL, must not
    take the partitions' failing O_EXCL probe (the kernel refuses to claim
    a partition of a claimed disk) for another user."""
    need("losetup")
    with Lab() as lab:
        img, a = lab.partitioned()
        r = write(a)
        check(r.returncode == 0, f"the unused partitioned disk was refused: {r.stderr}")


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
