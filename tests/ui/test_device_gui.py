#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's raw device target ("Device (destroys data)") on a loop
device this script makes over a backing file under the build dir and
removes again: a run that writes asks for the device's name, a wrong
name starts nothing (the device's bytes unchanged), the right name runs
and fills the tiles, and a read-only run asks nothing. The question's
screenshot is kept in the build dir (device-question.png) to look at.
Needs root and loop devices; skips with the reason otherwise. Prints TAP."""

import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import sha  # noqa: E402
import test_gui as t  # noqa: E402
from test_gui import Dir, check, check_screenshot, field, tiles  # noqa: E402

MIB = 1 << 20
QUICK = ["--profile", "demo", "--size", "16MiB", "--passes", "1", "--measure", "0.2",
         "--warmup", "0", "--interval", "0"]




def Loop(d):
    """A 32 MiB loop device of random bytes; detached on exit."""
    return dmktest.RandomLoop(d, 32)


def measured(lines):
    return {k: v for k, v in tiles(lines).items() if v[1] == "measured"}


def test_wrong_name_starts_nothing():
    with Dir() as d, Loop(d) as lo:
        before = sha(lo.img)
        shot = os.path.join(dmktest.TMP_BASE, "device-question.png")
        rc, lines, err, _ = t.run_app(["--target", lo.dev] + QUICK + [
            "--autorun", "--confirm-device", lo.dev + "x", "--screenshot", shot,
            "--dump-tiles", "--quit-when-done"])
        check(rc == 1, f"exit {rc}, expected 1 (nothing started); stderr: {err}")
        dialog = [f for f in lines if f[0] == "dialog"]
        check(len(dialog) == 1 and dialog[0][1] == f"Erase the data on {lo.dev}?" and
              f"Type the device's name, {lo.dev}, to go ahead." in dialog[0][2],
              f"question: {dialog}")
        check(measured(lines) == {}, f"tiles measured without consent: {measured(lines)}")
        check(sha(lo.img) == before, "the device changed without consent")
        w, h = check_screenshot(shot)
        return f"{dialog[0][1]}; screenshot {w}x{h} at {shot}"


def test_right_name_runs():
    with Dir() as d, Loop(d) as lo:
        tail = hashlib.sha256(open(lo.img, "rb").read()[16 * MIB:]).hexdigest()
        rc, lines, err, _ = t.run_app(["--target", lo.dev] + QUICK + [
            "--autorun", "--confirm-device", lo.dev, "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(field(lines, "status").startswith("Done"), f"status: {field(lines, 'status')}")
        got = measured(lines)
        check(any(mode == "write" for _, mode in got), f"no write tile measured: {got}")
        after = open(lo.img, "rb").read()
        check(hashlib.sha256(after[16 * MIB:]).hexdigest() == tail,
              "bytes past the 16 MiB region changed")
        return f"{len(got)} tiles measured on {lo.dev}"


def test_read_only_asks_nothing():
    with Dir() as d, Loop(d) as lo:
        before = sha(lo.img)
        rc, lines, err, _ = t.run_app(["--target", lo.dev, "--mode", "read"] + QUICK + [
            "--autorun", "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(not [f for f in lines if f[0] == "dialog"], "a read-only run asked")
        check(measured(lines), "nothing measured")
        check(sha(lo.img) == before, "a read-only run changed the device")


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
