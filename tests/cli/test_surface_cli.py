#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The surface scan through drivemark-cli: its settings in the help, its
bounds, its refusal of a folder, and a scan of a loop device of our own
over a file of random bytes under the build dir, which reads the samples
spread over the whole device and the random accesses, saves both to CSV
and JSON, charts both, and leaves the file's bytes as they were (it
only reads). Root for the loop device; those tests skip otherwise.
Prints TAP.

    test_surface_cli.py DRIVEMARK_CLI"""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check, read_csv, sha  # noqa: E402
from test_small_fixes import UnattachedLoop  # noqa: E402

CLI = os.path.abspath(os.environ.get("DMK_CLI") or sys.argv[1])
MIB = 1 << 20
SIZE = 40 * MIB + 12288  # no multiple of the 10 MiB sample: the last one still fits


class Dir(dmktest.Dir):
    prefix = "surface-"


def run(args, timeout=120):
    return dmktest.run_cli(CLI, args, timeout)


class RandomLoop(UnattachedLoop):
    """A loop device of our own over SIZE random bytes in a build-dir file
    (self.img), detached again afterwards (and its number removed); the
    with statement gives the object, its device in self.dev."""

    def __enter__(self):
        dev = super().__enter__()
        self.dir = Dir()
        self.img = os.path.join(self.dir.__enter__(), "disk.img")
        with open(self.img, "wb") as f:
            f.write(os.urandom(SIZE))
        r = subprocess.run(["losetup", dev, self.img], capture_output=True, text=True)
        if r.returncode != 0:
            self.__exit__()
            raise Skip(f"losetup {dev}: {r.stderr.strip()}")
        return self

    def __exit__(self, *exc):
        subprocess.run(["losetup", "-d", self.dev], capture_output=True)
        for _ in range(100):  # the detach is asynchronous
            try:
                if open(f"/sys/block/loop{self.n}/size").read().strip() == "0":
                    break
            except OSError:
                break
            time.sleep(0.05)
        super().__exit__(*exc)
        self.dir.__exit__(*exc)


def test_help_names_the_settings():
    """The command and its three settings come from the lab table."""
    r = run(["--help"])
    check(r.returncode == 0, r.stderr)
    for word in ("surface    Surface scan", "--samples N", "--sample-size SIZE", "--accesses N"):
        check(word in r.stdout, f"{word!r} not in --help")
    return "surface, --samples, --sample-size, --accesses"


def test_bounds_and_other_tests():
    """Out of range values and the settings on another lab test: usage errors."""
    cases = [(["surface", "--samples", "1"], "--samples '1' is invalid: expected an integer "
              "from 2 to 200"),
             (["surface", "--accesses", "0"], "--accesses '0' is invalid"),
             (["surface", "--sample-size", "128MiB"], "--sample-size"),
             (["sustained", "--samples", "5"], "--samples does not apply to sustained"),
             (["surface", "--size", "1GiB"], "--size does not apply to surface")]
    for args, needle in cases:
        r = run(args)
        check(r.returncode == 2, f"{args}: exit {r.returncode}: {r.stderr}")
        check(needle in r.stderr, f"{args}: {r.stderr!r} lacks {needle!r}")
    return f"{len(cases)} refused"


def test_folder_refused():
    """A folder: refused, saying to name a device; nothing written there."""
    with Dir() as d:
        r = run(["surface", "--target", d, "--backend", "null"])
        check(r.returncode == 2, f"exit {r.returncode}: {r.stderr}")
        check(f"Surface scan reads a whole device, and '{d}' is a folder: name a block device"
              in r.stderr, r.stderr)
        check(os.listdir(d) == [], f"left {os.listdir(d)}")
        return r.stderr.splitlines()[0]


def scan(loop, d):
    dev = loop.dev
    before = sha(loop.img)
    csv, js = os.path.join(d, "s.csv"), os.path.join(d, "s.json")
    r = run(["surface", "--device", dev, "--samples", "8", "--sample-size", "10MiB",
             "--accesses", "300", "--csv", csv, "--json", js])
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    return before, csv, js, r


def check_csv(csv, dev):
    rows = read_csv(csv)
    check(all(row["schema"] == "8" for row in rows), "not schema 8")
    tests = [row for row in rows if row["record"] == "test"]
    samples = [row for row in tests if row["label"] == "sample"]
    check(len(samples) == 8, f"{len(samples)} sample tests")
    offsets = [int(row["offset"]) for row in samples]
    check(offsets[0] == 0, f"first at {offsets[0]}")
    # aligned to the device's logical block (a loop device: 512 B)
    check(all(o % 512 == 0 for o in offsets), f"unaligned: {offsets}")
    check(offsets == sorted(offsets) and len(set(offsets)) == 8, f"not spread: {offsets}")
    check(offsets[-1] + 10 * MIB <= SIZE, f"the last ends past the end: {offsets[-1]}")
    check(SIZE - (offsets[-1] + 10 * MIB) < 8192, f"the last ends far from the end: {offsets}")
    check(all(row["mode"] == "read" for row in tests), "a test that is not a read")
    check(all(float(row["mb_s"]) > 0 for row in samples), "a sample with no rate")
    acc = [row for row in rows if row["record"] == "sample" and row["label"] == "access"]
    check(len(acc) == 300, f"{len(acc)} accesses")
    places = [int(row["offset"]) for row in acc]
    check(all(p % 4096 == 0 and p + 4096 <= SIZE for p in places), "an access outside")
    check(len(set(places)) == 300, "an access read twice")  # random without repeats
    check(max(places) > SIZE // 2 and min(places) < SIZE // 2, "not spread over the device")
    check(all(float(row["lat_mean_us"]) > 0 for row in acc), "an access of no time")
    return offsets


def test_loop_device_scan_reads_only():
    """A loop device of our own: the scan's places, its files and charts,
    and the backing file's bytes unchanged (SHA-256 before and after)."""
    with RandomLoop() as loop, Dir() as d:
        dev = loop.dev
        before, csv, js, r = scan(loop, d)
        check(sha(loop.img) == before, "the backing file changed")
        check("Read rate    " in r.stdout and "MB/s on average" in r.stdout, r.stdout)
        check("over 8 samples of 10 MiB" in r.stdout, r.stdout)
        check("Access time  " in r.stdout and "over 300 random reads" in r.stdout, r.stdout)
        offsets = check_csv(csv, dev)
        doc = json.load(open(js))
        res = doc["results"]
        check([t["offset"] for t in res if t["label"] == "sample"] == offsets, "JSON offsets")
        acc = [t for t in res if t["label"] == "access"][0]
        check(len(acc["timeline"]) == 300 and all("offset" in s for s in acc["timeline"]),
              "JSON accesses")
        show = run(["show", csv])
        check(show.returncode == 0 and "over 300 random reads" in show.stdout, show.stdout)
        for kind in ("surface-rate", "surface-access"):
            for ext in ("png", "svg", "pdf"):
                out = os.path.join(d, f"{kind}.{ext}")
                c = run(["chart", "--out", out, "--kind", kind, csv])
                check(c.returncode == 0, f"{kind}.{ext}: {c.stderr}")
                check(os.path.getsize(out) > 1000, f"{kind}.{ext} is {os.path.getsize(out)} B")
            svg = open(os.path.join(d, f"{kind}.svg")).read()
            check(os.path.getsize(os.path.join(d, f"{kind}.svg")) > 1000 and "<svg" in svg, kind)
        check(sha(loop.img) == before, "the backing file changed")
        return f"{dev}: {r.stdout.strip().splitlines()[-2]}"


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals()), timed=True))
