#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The surface scan in the window under Xvfb (issue 16): on a loop
device this script makes over a file of random bytes under the build dir
(detached again), the Lab tab's Surface scan runs through the window's
run owner, shows its two charts (read rate, access time) with their
headline figures in the titles and the report, asks nothing (it only
reads), leaves the backing file's bytes as they were, and saves a result
that opens again as a tab with both charts. A folder target is refused
with the reason. Screenshots of the view are kept in the build dir.
Root for the loop device; skips otherwise. Prints TAP."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import sha  # noqa: E402
import test_gui as t  # noqa: E402
from test_gui import Dir, check, check_screenshot  # noqa: E402

MIB = 1 << 20
FAST = ["--lab", "surface", "--lab-samples", "20", "--lab-accesses", "200"]


def Loop(d):
    """A 64 MiB loop device of random bytes; detached on exit."""
    return dmktest.RandomLoop(d, 64)


def charts(lines, key="lab-chart"):
    """[(picker label, shown|hidden, title)] of the Lab tab's view."""
    return [tuple(f[1:4]) for f in lines if f[0] == key]


def report(lines, key="lab-report"):
    return [f[1] for f in lines if f[0] == key and len(f) > 1]


def check_charts(ch, where):
    labels = [c[0] for c in ch]
    check(labels == ["Read rate", "Access time"], f"{where}: charts {ch}")
    rate = [c for c in ch if c[0] == "Read rate"][0][2]
    acc = [c for c in ch if c[0] == "Access time"][0][2]
    check(re.search(r"read rate across the device, average [0-9,.]+ MB/s", rate), rate)
    check(re.search(r"access time, average [0-9.]+ ms", acc), acc)
    return rate, acc


def test_scan_on_a_loop_device():
    with Dir() as d, Loop(d) as lo:
        before = sha(lo.img)
        shot = os.path.join(dmktest.TMP_BASE, "surface-view.png")
        saved = os.path.join(d, "surface.csv")
        rc, lines, err, _ = t.run_app(["--target", lo.dev] + FAST + [
            "--autorun", "--json", saved, "--screenshot", shot, "--dump-tiles",
            "--quit-when-done"], timeout=240)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(not [f for f in lines if f[0] == "dialog"], "a read-only scan asked something")
        check(sha(lo.img) == before, "the backing file changed")
        rate, acc = check_charts(charts(lines), "the Lab tab")
        text = report(lines)
        check(any(re.match(r"Read rate +[0-9,.]+ MB/s on average .* over 20 samples of 10 MiB", x)
                  for x in text), f"report {text}")
        check(any(re.match(r"Access time +[0-9.]+ ms on average .* over 200 random reads", x)
                  for x in text), f"report {text}")
        w, h = check_screenshot(shot)
        return f"{rate} | {acc}; {w}x{h} at {shot}"


def test_saved_scan_opens_as_tab():
    """The saved scan opens again as a tab with both charts and the report."""
    with Dir() as d, Loop(d) as lo:
        saved = os.path.join(d, "surface.csv")
        rc, lines, err, _ = t.run_app(["--target", lo.dev] + FAST + [
            "--autorun", "--json", saved, "--dump-tiles", "--quit-when-done"], timeout=240)
        check(rc == 0 and os.path.exists(saved), f"exit {rc}; stderr: {err}")
        fresh = charts(lines)
        shot = os.path.join(dmktest.TMP_BASE, "surface-opened.png")
        rc, lines, err, _ = t.run_app(["--open", saved, "--screenshot", shot, "--dump-tiles",
                                       "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(t.field(lines, "page") == "surface.csv", f"page: {t.field(lines, 'page')}")
        opened = [tuple(f[2:5]) for f in lines if f[0] == "tab-lab-chart"]
        check_charts(opened, "the opened tab")
        check([c[2] for c in opened] == [c[2] for c in fresh], f"{opened} != {fresh}")
        text = [f[2] for f in lines if f[0] == "tab-lab-report"]
        check(any("over 200 random reads" in x for x in text), f"report {text}")
        check_screenshot(shot)
        # The dark theme on screen: the same tab, its charts dark too.
        dark = os.path.join(dmktest.TMP_BASE, "surface-dark.png")
        rc, lines, err, _ = t.run_app(["--open", saved, "--screenshot", dark, "--dump-tiles",
                                       "--quit-when-done"], env={"GTK_THEME": "Adwaita:dark"})
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check_screenshot(dark)
        return f"{len(opened)} charts; {shot}, {dark}"


def test_stop_keeps_the_samples_so_far():
    """Stop during the scan (the progress line moving): the samples read so
    far are charted, the accesses not yet, and nothing was written."""
    with Dir() as d, Loop(d) as lo:
        before = sha(lo.img)
        shot = os.path.join(dmktest.TMP_BASE, "surface-stopped.png")
        rc, lines, err, _ = t.run_app(["--target", lo.dev, "--lab", "surface", "--lab-samples",
                                       "100", "--autorun", "--stop-at", "measure:10",
                                       "--screenshot", shot, "--dump-tiles",
                                       "--quit-when-done"], timeout=240)
        check(rc == 130, f"exit {rc}, expected 130 (stopped); stderr: {err}")
        check(sha(lo.img) == before, "the backing file changed")
        ch = charts(lines)
        rate = [c for c in ch if c[0] == "Read rate"]
        check(rate and "average" in rate[0][2], f"charts after Stop: {ch}")
        text = report(lines)
        check(any("Stopped before the end" in x for x in text), f"report {text}")
        n = [int(m.group(1)) for x in text for m in [re.search(r"over (\d+) samples", x)] if m]
        check(n and 1 <= n[0] < 100, f"samples after Stop: {n} in {text}")
        check(any("Access time  not measured" in x for x in text), f"report {text}")
        # the live chart drew each sample as it ended, at its place
        live = int(t.field(lines, "lab-live-points") or 0)
        check(n[0] - 1 <= live <= n[0], f"{live} live points for {n[0]} samples")
        check((t.field(lines, "lab-progress") or "").startswith("Stopped"),
              f"progress: {t.field(lines, 'lab-progress')}")
        check_screenshot(shot)
        return f"{n[0]} samples before Stop, {live} drawn live; {shot}"


def test_folder_refused():
    """A folder target: the reason, and no run."""
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d, "--backend", "null"] + FAST + [
            "--autorun", "--dump-tiles", "--quit-when-done"])
        said = " ".join("\t".join(f) for f in lines) + err
        check(rc != 0, f"exit {rc}")
        check(f"Surface scan reads a whole device, and '{d}' is a folder" in said, said)
        check(os.listdir(d) == [], f"left {os.listdir(d)}")
        return "refused"


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals()), timed=True))
