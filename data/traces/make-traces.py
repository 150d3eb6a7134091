#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the starter traces of data/traces (docs/lab.md, "Trace replay"):
small synthetic fio iologs (version 3) for `drivemark-cli trace --trace
FILE`, made deterministically from a fixed seed, so running this again
gives the same bytes. They are not recordings of a real workload (issue
21 asks for those too); they are shapes to try the test with:

  office.iolog  3,000 requests over a 256 MiB working set: mostly 4-64 KiB
                random reads, 30 % writes, bursts of a few to a few dozen
                requests, each burst after an idle gap of 10 ms to 2 s
                (an office application: open, save, autosave)
  copy.iolog    a 256 MiB file copied in 1 MiB requests: each read is
                followed 0.5 ms later by its write 256 MiB further on, a
                pair each millisecond (1 GB/s asked; a slower drive queues
                up to the replay's 32), no idle time

    make-traces.py [OUTDIR]     (default: the folder of this script)"""

import os
import random
import sys

MIB = 1 << 20
HEADER = "fio version 3 iolog\n"
NAME = "trace.dat"


def write(path, lines):
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write(HEADER)
        f.write(f"0 {NAME} add\n0 {NAME} open\n")
        for line in lines:
            f.write(line + "\n")
        end = int(lines[-1].split()[0]) + 1 if lines else 1
        f.write(f"{end} {NAME} close\n")


def office(rng):
    lines, t = [], 0
    sizes = [4096, 4096, 4096, 8192, 16384, 32768, 65536]
    span = 256 * MIB
    while len(lines) < 3000:
        t += rng.choice([10_000, 50_000, 200_000, 2_000_000])  # idle gap, us
        base = rng.randrange(0, span // 4096) * 4096
        for _ in range(rng.randint(3, 40)):
            size = rng.choice(sizes)
            op = "write" if rng.random() < 0.3 else "read"
            # Mostly near the burst's file, sometimes anywhere.
            off = base + rng.randrange(0, 64) * 4096 if rng.random() < 0.7 else \
                rng.randrange(0, span // 4096) * 4096
            lines.append(f"{t} {NAME} {op} {off % span} {size}")
            t += rng.randint(20, 400)  # issued while the burst runs
    return lines


def copy():
    lines, t = [], 0
    size = 256 * MIB
    for off in range(0, size, MIB):
        lines.append(f"{t} {NAME} read {off} {MIB}")
        lines.append(f"{t + 500} {NAME} write {size + off} {MIB}")
        t += 1000
    return lines


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(out, "office.iolog"), office(random.Random(21)))
    write(os.path.join(out, "copy.iolog"), copy())


if __name__ == "__main__":
    main()
