#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Raw block device targets (--device) through drivemark-cli, on loop
devices this script creates over backing files under the build dir and
removes again whatever happens. Each guard is tried for real: a read-only
run needs no consent and writes nothing; a write needs
--yes-destroy-data naming the device (as given or resolved); a device
that is mounted, whose partition is mounted, that is swap, that
device-mapper holds, or that another program opened exclusively is
refused with the reason, its data intact (checksums of the backing file);
a missing path is never created; a regular file is refused; a 512-byte
block on a 4096-byte-sector device is refused before any I/O; --verify
finds bytes flipped behind the engine's back (exit 3). Needs root and
loop devices; skips with the reason otherwise. Prints TAP.

    test_device.py DRIVEMARK_CLI"""

import json
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check, sha  # noqa: E402

CLI = os.environ.get("DMK_CLI") or sys.argv[1]
MIB = 1 << 20
IMG_SIZE = 48 * MIB
REGION = "16M"
QUICK = ["--test", "SEQ1M Q8T1", "--passes", "1", "--measure", "0.1", "--warmup", "0",
         "--interval", "0", "--quiet"]


def sh(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=60, **kw)


def run(args):
    r = dmktest.run_cli(CLI, args, 120)
    print(f"# drivemark-cli {' '.join(args)}: exit {r.returncode}")
    for line in r.stderr.splitlines():
        print(f"#   {line}")
    return r


def device_run(dev, extra=(), size=REGION):
    return run(["run", "--device", dev, "--size", size] + QUICK + list(extra))




class Dir(dmktest.Dir):
    prefix = "device-"


class Loop:
    """A loop device over a fresh backing file of random bytes in d;
    detached (after whatever `cleanup` holds) on exit."""

    def __init__(self, d, name="a.img", sector=None, partscan=False, mbr=False):
        self.img = os.path.join(d, name)
        self.sector, self.partscan, self.mbr = sector, partscan, mbr
        self.dev = None

    def __enter__(self):
        if os.geteuid() != 0:
            raise Skip("needs root to create loop devices")
        if not shutil.which("losetup"):
            raise Skip("needs losetup (util-linux)")
        with open(self.img, "wb") as f:
            f.write(os.urandom(IMG_SIZE))
            if self.mbr:
                write_mbr(f)
        args = ["losetup", "-f", "--show"]
        if self.sector:
            args += ["--sector-size", str(self.sector)]
        if self.partscan:
            args += ["-P"]
        r = sh(args + [self.img])
        if r.returncode != 0:
            raise Skip(f"no loop device here: {r.stderr.strip()}")
        self.dev = r.stdout.strip()
        return self

    def __exit__(self, *exc):
        if self.dev:
            sh(["losetup", "-d", self.dev])

    def sha(self, start=0, length=None):
        return sha(self.img, start, length)


def write_mbr(f):
    """One Linux partition from sector 2048 (1 MiB) to the end."""
    sectors = IMG_SIZE // 512
    entry = struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", 2048, sectors - 2048)
    f.seek(446)
    f.write(entry + b"\0" * 48 + b"\x55\xaa")


class Mount:
    """mkfs.ext4 on dev, mounted at d/mnt; unmounted on exit."""

    def __init__(self, d, dev):
        self.dev, self.mnt = dev, os.path.abspath(os.path.join(d, "mnt"))

    def __enter__(self):
        if not shutil.which("mkfs.ext4"):
            raise Skip("needs mkfs.ext4 (e2fsprogs)")
        os.makedirs(self.mnt, exist_ok=True)
        check(sh(["mkfs.ext4", "-q", "-F", self.dev]).returncode == 0, "mkfs.ext4 failed")
        r = sh(["mount", self.dev, self.mnt])
        if r.returncode != 0:
            raise Skip(f"mounting a loop device is not allowed here: {r.stderr.strip()}")
        with open(os.path.join(self.mnt, "keep.bin"), "wb") as f:
            f.write(os.urandom(2 * MIB))
        os.sync()
        self.keep = sha(os.path.join(self.mnt, "keep.bin"))
        return self

    def __exit__(self, *exc):
        if os.path.ismount(self.mnt):
            sh(["umount", self.mnt])

    def check_intact(self):
        check(sha(os.path.join(self.mnt, "keep.bin")) == self.keep, "the mounted file changed")


def refused(r, needles, what):
    check(r.returncode == 1, f"{what}: exit {r.returncode}, expected 1 (a refusal)")
    for n in needles:
        check(n in r.stderr, f"{what}: stderr lacks {n!r}: {r.stderr}")
    check("MB/s" not in r.stdout, f"{what}: it measured something: {r.stdout}")


# ---- consent ---------------------------------------------------------------


def refused_unchanged(lo, needles, what, changed="the device changed"):
    """A write run on lo with consent is refused with needles on stderr,
    and not a byte of lo changes (else: changed)."""
    before = lo.sha()
    r = device_run(lo.dev, ["--yes-destroy-data=" + lo.dev])
    refused(r, needles, what)
    check(lo.sha() == before, changed)


def test_read_only_needs_no_consent():
    with Dir() as d, Loop(d) as lo:
        before = lo.sha()
        j = os.path.join(d, "r.json")
        r = device_run(lo.dev, ["--mode", "read", "--json", j])
        check(r.returncode == 0, f"read-only run: exit {r.returncode}: {r.stderr}")
        check(lo.sha() == before, "a read-only run changed the device")
        doc = json.load(open(j, encoding="utf-8"))
        check(doc["target_kind"] == "device", f"target_kind {doc['target_kind']}")
        check(doc["device"] == lo.dev and doc["test_size"] == 16 * MIB, f"{doc['device']}")
        check(doc["results"][0]["mb_s"] > 0, "no throughput")
        return f"read {doc['results'][0]['mb_s']:.0f} MB/s from {lo.dev}, nothing written"


def test_write_without_consent_refused():
    with Dir() as d, Loop(d) as lo:
        before = lo.sha()
        # The default profile writes too; so does a mixed run.
        for extra in ([], ["--mode", "mix"]):
            r = run(["run", "--device", lo.dev, "--size", REGION, "--quiet"] + extra)
            refused(r, [f"refusing to write to {lo.dev}", f"--yes-destroy-data={lo.dev}"],
                    "no consent")
        check(lo.sha() == before, "a refused run changed the device")


def test_wrong_name_refused():
    with Dir() as d, Loop(d) as lo:
        before = lo.sha()
        other = "/dev/loop999999" if lo.dev != "/dev/loop999999" else "/dev/loop999998"
        for extra in (["--yes-destroy-data=" + other], ["--yes-destroy-data=" + other, "--mode",
                                                         "read"]):
            r = device_run(lo.dev, extra)
            refused(r, [f"--yes-destroy-data={other} names another device than --device "
                        f"{lo.dev}"], "wrong name")
        check(lo.sha() == before, "a refused run changed the device")


def test_write_with_consent_stays_in_region():
    with Dir() as d, Loop(d) as lo:
        tail = lo.sha(16 * MIB)
        head = lo.sha(0, 16 * MIB)
        r = device_run(lo.dev, ["--yes-destroy-data=" + lo.dev])
        check(r.returncode == 0, f"consented write: exit {r.returncode}: {r.stderr}")
        check("[Write]" in r.stdout and "raw device" in r.stdout, r.stdout)
        check(lo.sha(0, 16 * MIB) != head, "the region was not written")
        check(lo.sha(16 * MIB) == tail, "bytes past the 16 MiB region changed")


def test_fullspan_whole_device():
    """fullspan without --size writes the whole device, and only with consent."""
    with Dir() as d, Loop(d) as lo:
        first, last = lo.sha(0, MIB), lo.sha(IMG_SIZE - MIB)
        args = ["fullspan", "--device", lo.dev, "--sample", "0.1", "--quiet"]
        refused(run(args), [f"--yes-destroy-data={lo.dev}"], "fullspan without consent")
        check(lo.sha(0, MIB) == first, "a refused fullspan wrote")
        j = os.path.join(d, "fs.json")
        r = run(args + ["--yes-destroy-data=" + lo.dev, "--json", j])
        check(r.returncode == 0, f"fullspan: exit {r.returncode}: {r.stderr}")
        doc = json.load(open(j, encoding="utf-8"))
        check(doc["test_size"] == IMG_SIZE, f"test_size {doc['test_size']}, expected {IMG_SIZE}")
        check(lo.sha(0, MIB) != first and lo.sha(IMG_SIZE - MIB) != last,
              "the first or last MiB was not written")
        r = run(["sustained", "--device", lo.dev, "--yes-destroy-data=" + lo.dev, "--quiet"])
        refused(r, [f"the device {lo.dev} holds 48 MiB, less than the 32768 MiB test region"],
                "region larger than the device")


def test_symlink_resolved():
    """A link names the device it points at: either name confirms."""
    with Dir() as d, Loop(d) as lo:
        link = os.path.join(d, "disk-link")
        os.symlink(lo.dev, link)
        for typed in (link, lo.dev):
            r = device_run(link, ["--yes-destroy-data=" + typed])
            check(r.returncode == 0, f"link confirmed as {typed}: exit {r.returncode}: {r.stderr}")
        check(os.path.islink(link) and os.readlink(link) == lo.dev, "the link was changed")
        r = device_run(lo.dev, ["--yes-destroy-data=" + link])
        check(r.returncode == 0, f"device confirmed by its link: {r.stderr}")


# ---- what is not a device --------------------------------------------------


def test_missing_path_never_created():
    with Dir() as d:
        for path in (f"/dev/drivemark-no-such-{os.getpid()}", os.path.join(d, "nothing")):
            for extra in (["--mode", "read"], ["--yes-destroy-data=" + path]):
                r = device_run(path, extra)
                refused(r, [f"the device {path} does not exist"], "missing path")
                check(not os.path.lexists(path), f"{path} was created")


def test_regular_file_refused():
    with Dir() as d:
        f = os.path.join(d, "plain.img")
        with open(f, "wb") as out:
            out.write(os.urandom(32 * MIB))
        before = sha(f)
        for extra in (["--mode", "read"], ["--yes-destroy-data=" + f]):
            r = device_run(f, extra)
            refused(r, [f"{f} is a regular file, not a block device"], "regular file")
        check(sha(f) == before, "the file changed")


def test_usage_errors():
    """Option mistakes are usage errors (exit 2), before anything is opened."""
    with Dir() as d:
        cases = [(["--device", d, "--target", d], "--device and --target exclude each other"),
                 (["--target", d, "--yes-destroy-data=/dev/sdb"],
                  "--yes-destroy-data belongs to --device"),
                 (["--device", "/dev/sdb", "--yes-destroy-data="],
                  "--yes-destroy-data needs the device's name"),
                 (["--device="], "--device '' is not a usable path")]
        for extra, needle in cases:
            args = ["run"] + extra + QUICK
            dmktest.check_usage_error(run(args), args, [needle], hint=True)


# ---- in use ----------------------------------------------------------------


def test_mounted_refused():
    with Dir() as d, Loop(d) as lo, Mount(d, lo.dev) as m:
        r = device_run(lo.dev, ["--yes-destroy-data=" + lo.dev])
        refused(r, [f"refusing to write to {lo.dev}: it is mounted at {m.mnt}"], "mounted")
        m.check_intact()
        # Reading a mounted device is allowed: it changes nothing.
        r = device_run(lo.dev, ["--mode", "read"])
        check(r.returncode == 0, f"reading a mounted device: {r.stderr}")
        m.check_intact()


def test_partition_mounted_refused():
    with Dir() as d, Loop(d, partscan=True, mbr=True) as lo:
        part = lo.dev + "p1"
        added = False
        if not os.path.exists(part) and shutil.which("partx"):
            # This kernel reads no MBR partition tables (no
            # CONFIG_MSDOS_PARTITION): add the partition as partx does,
            # from the table read in user space (BLKPG).
            added = sh(["partx", "-a", lo.dev]).returncode == 0
        if not os.path.exists(part):
            raise Skip(f"no partition {part} after losetup -P or partx -a")
        try:
            with Mount(d, part) as m:
                r = device_run(lo.dev, ["--yes-destroy-data=" + lo.dev])
                refused(r, [f"refusing to write to {lo.dev}: its partition {part} is mounted "
                            f"at {m.mnt}"], "partition mounted")
                m.check_intact()
        finally:
            if added:
                sh(["partx", "-d", lo.dev])


def test_swap_refused():
    if not shutil.which("mkswap") or not shutil.which("swapon"):
        raise Skip("needs mkswap and swapon")
    with Dir() as d, Loop(d) as lo:
        check(sh(["mkswap", lo.dev]).returncode == 0, "mkswap failed")
        on = sh(["swapon", lo.dev])
        if on.returncode != 0:
            raise Skip(f"swapon is not allowed here: {on.stderr.strip()}")
        try:
            refused_unchanged(lo, [f"refusing to write to {lo.dev}: it is in use as swap"], "swap",
                              "the swap device changed")
        finally:
            sh(["swapoff", lo.dev])


def test_device_mapper_holder_refused():
    if not shutil.which("dmsetup"):
        raise Skip("needs dmsetup")
    with Dir() as d, Loop(d) as lo:
        name = f"dmk-test-{os.getpid()}"
        table = f"0 {IMG_SIZE // 512} linear {lo.dev} 0"
        env = dict(os.environ, DM_DISABLE_UDEV="1")
        c = sh(["dmsetup", "create", name, "--noudevsync", "--table", table], env=env)
        if c.returncode != 0:
            why = (c.stderr.strip().splitlines() or ["dmsetup create failed"])[0]
            raise Skip(f"device-mapper is not available here: {why}")
        try:
            refused_unchanged(lo, [f"refusing to write to {lo.dev}: it is held by dm-",
                                   f'(device-mapper "{name}")'], "dm holder",
                              "the held device changed")
        finally:
            sh(["dmsetup", "remove", "--noudevsync", name], env=env)


def test_exclusive_opener_refused():
    """A program holding the device open (here with O_EXCL) is named."""
    with Dir() as d, Loop(d) as lo:
        fd = os.open(lo.dev, os.O_RDONLY | os.O_EXCL)
        try:
            refused_unchanged(lo, [f"refusing to write to {lo.dev}: it is open in process "
                                   f"{os.getpid()}"], "exclusive opener")
        finally:
            os.close(fd)


def test_mounted_in_another_namespace_refused():
    """What no listing here shows (a mount in another mount namespace,
    held by no process's descriptor), the kernel's exclusive claim still
    refuses."""
    if not shutil.which("unshare"):
        raise Skip("needs unshare (util-linux)")
    with Dir() as d, Loop(d) as lo:
        check(sh(["mkfs.ext4", "-q", "-F", lo.dev]).returncode == 0, "mkfs.ext4 failed")
        mnt = os.path.join(d, "ns-mnt")
        os.makedirs(mnt)
        ns = subprocess.Popen(["unshare", "-m", "--propagation", "private", "sh", "-c",
                               f"mount {lo.dev} {mnt} && echo mounted && exec sleep 120"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = ns.stdout.readline().strip()
            if line != "mounted":
                raise Skip(f"a private mount namespace is not allowed here: {ns.stderr.read()}")
            refused_unchanged(lo, [f"refusing to write to {lo.dev}: the kernel reports it in use"],
                              "mounted in another namespace")
        finally:
            ns.kill()
            ns.wait()


def test_verify_catches_corruption():
    """Silent corruption behind the engine's back, through the CLI: once
    drivemark-cli has written and is about to read back (it waits at that
    point for tests, DMK_TEST_VERIFY_HOLD), this script flips a byte of
    every 1 MiB block in the loop device's backing file (the loop driver
    reads it through the same page cache). Every block then reads back
    wrong: exit status 3, VERIFY FAILED, 16 bad of 16."""
    with Dir() as d, Loop(d) as lo:
        args = ["run", "--device", lo.dev, "--size", REGION, "--mode", "write", "--verify",
                "--yes-destroy-data=" + lo.dev] + QUICK

        def flip():
            # The backing file is opened only now: open in this script
            # while the guards ran, it would (rightly) refuse the write.
            fd = os.open(lo.img, os.O_RDWR)
            try:
                for block in range(0, 16 * MIB, MIB):
                    b = os.pread(fd, 1, block + 100)  # past the 64-byte header
                    os.pwrite(fd, bytes([b[0] ^ 0xFF]), block + 100)
            finally:
                os.close(fd)

        proc, held, out, err = dmktest.held_run(d, [CLI] + args, flip)
        print(f"# held before the read-back: {held}; exit {proc.returncode}")
        for line in err.splitlines():
            print(f"#   {line}")
        check(held, f"drivemark-cli never reached the read-back: {err}")
        check(proc.returncode == 3, f"exit {proc.returncode}, expected 3: {err}")
        check("VERIFY FAILED: 16 bad of 16 blocks" in err, err)
        check("first bad byte at offset 100 (block at 0)" in err, err)
        check("VERIFY FAILED" in out, out)
        return err.splitlines()[0] if err else ""


def test_sector_4096_rejects_512_before_io():
    with Dir() as d, Loop(d, sector=4096) as lo:
        if open(f"/sys/block/{os.path.basename(lo.dev)}/queue/logical_block_size").read().strip() \
                != "4096":
            raise Skip("losetup --sector-size 4096 had no effect here")
        before = lo.sha()
        r = run(["run", "--device", lo.dev, "--size", REGION, "--test", "RND512 Q1T1",
                 "--yes-destroy-data=" + lo.dev] + QUICK[2:])
        refused(r, ["block size 512 B is not a multiple of the 4096-byte sector", lo.dev],
                "512 on 4096")
        check(lo.sha() == before, "the device was written before the refusal")


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
