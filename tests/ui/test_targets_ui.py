#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Targets that cannot work, error bars and the window's layout under Xvfb
(issue 16, defects 7 and 8): a missing folder or a file given as the
target is shown as unusable with the OS's reason and Run is off, saying
why; an error bar goes when its cause is fixed (a usable folder chosen);
a bad result file's message is not shown selected; the tiles and their
numbers grow in a 1920x1080 window; opening a result keeps the window's
size; no label is cut at 1024x700 on the Benchmark and Lab tabs. With
$DMK_UI_SHOTS set, the screenshots are kept there to look at. Prints TAP."""

import os
import shutil
import subprocess
import sys
import tempfile

import test_gui as t
from dmktest import TMP_BASE, check
from test_gui import Dir, field, rows

NULL = ["--backend", "null", "--size", "64MiB", "--passes", "1", "--measure", "0.2",
        "--warmup", "0", "--interval", "0"]


def keep(shot, name):
    """Copies a screenshot to $DMK_UI_SHOTS, when set, to be looked at."""
    where = os.environ.get("DMK_UI_SHOTS")
    if where and os.path.exists(shot):
        os.makedirs(where, exist_ok=True)
        shutil.copy(shot, os.path.join(where, name))


def check_refused(lines, path, reason):
    target = rows(lines, "target")
    check(target and target[0][0] == path, f"target shown: {target}")
    problem = target[0][1]
    check(problem != "ok" and path in problem and reason in problem,
          f"{path} is not said to be unusable ({reason!r}): {problem!r}")
    button = rows(lines, "run-button")
    check(button and button[0][0] == "off", f"Run is on for {path}: {button}")
    check(reason in button[0][1] and path in button[0][1],
          f"Run's tooltip does not say why: {button[0][1]!r}")
    return problem


def test_missing_folder_refused():
    """Defect 7: a folder that does not exist, given as the target."""
    with Dir() as d, tempfile.TemporaryDirectory(prefix="shot-", dir=TMP_BASE) as out:
        missing = os.path.join(d, "no-such-folder")
        shot = os.path.join(out, "missing.png")
        rc, lines, err, _ = t.run_app(["--target", missing, "--activate", "run-all",
                                       "--screenshot", shot, "--dump-tiles",
                                       "--quit-when-done"] + NULL)
        keep(shot, "bad-target.png")
        check(rc == 0, f"exit {rc}; stderr: {err}")
        problem = check_refused(lines, missing, "No such file or directory")
        # Ctrl+R (run-all) is off too: nothing started, no tab.
        check(rows(lines, "tab") == [], "a run started on a missing folder")
        check(not (field(lines, "status") or "").startswith("Done"),
              f"status: {field(lines, 'status')}")
        t.check_empty(d)
        return problem


def test_file_as_target_refused():
    """Defect 7: a path typed that is a file, not a folder."""
    with Dir() as d:
        path = os.path.join(d, "a-file")
        open(path, "w").close()
        rc, lines, err, _ = t.run_app(["--target", path, "--dump-tiles", "--quit-when-done"]
                                      + NULL)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        problem = check_refused(lines, path, "not a folder")
        os.unlink(path)
        return problem


def test_usable_folder_runs():
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d, "--dump-tiles", "--quit-when-done"] + NULL)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(rows(lines, "target") == [[d, "ok"]], f"target: {rows(lines, 'target')}")
        button = rows(lines, "run-button")
        check(button and button[0][0] == "on", f"Run is off on {d}: {button}")
        return "Run on"


def test_target_error_cleared_when_fixed():
    """Defect 7: the run fails on a folder gone since it was checked (the
    engine's word), then a usable folder is chosen: the bar goes."""
    with Dir() as d:
        missing = os.path.join(d, "no-such-folder")
        rc, lines, err, _ = t.run_app(["--target", missing, "--profile", "demo", "--autorun",
                                       "--when-done", f"target('{d}')", "--dump-tiles",
                                       "--quit-when-done"] + t.QUICK)
        check(rc == 1, f"exit {rc}, expected 1; stderr: {err}")
        check(rows(lines, "target") == [[d, "ok"]], f"target: {rows(lines, 'target')}")
        check(field(lines, "error") is None,
              f"the error bar stayed after a usable folder was chosen: {field(lines, 'error')}")
        return "error bar gone"


def test_lab_field_error_cleared_when_fixed():
    """Defect 7: a Lab duration typed wrong and Start pressed shows the
    form's error, naming the field; typing a valid one takes it away
    (the bar used to stay up after its cause was fixed)."""
    base = ["--lab", "sustained", "--lab-size", "64MiB", "--lab-settle", "0"] + SIM
    with Dir() as d:
        bad = ["--activate", "lab-field(('Duration', 'ten minutes'))", "--activate", "run-lab"]
        rc, lines, err, _ = t.run_app(["--target", d] + base + bad
                                      + ["--dump-tiles", "--quit-when-done"])
        shown = field(lines, "error") or ""
        check("Duration" in shown and "ten minutes" in shown,
              f"the error bar after Start with a bad duration: {shown!r}; stderr: {err}")
        check(field(lines, "lab-state") != "running", "the test started with a bad duration")
        fixed = bad + ["--activate", "lab-field(('Duration', '4 s'))"]
        rc, lines, err, _ = t.run_app(["--target", d] + base + fixed
                                      + ["--dump-tiles", "--quit-when-done"])
        check(field(lines, "error") is None,
              f"the error bar stayed after a valid duration was typed: {field(lines, 'error')}")
        fields = {f[1]: f[2] for f in lines if f[0] == "lab-field"}
        check(fields.get("Duration") == "4 s", f"form: {fields}")
        check("no Lab" not in err and "has no field" not in err, f"stderr: {err}")
        return f"shown: {shown[:60]}…; gone once fixed"


def test_bad_csv_message_not_selected():
    """Defect 7: the message of a bad result file, opened at start."""
    with tempfile.TemporaryDirectory(prefix="bad-", dir=TMP_BASE) as out:
        bad = os.path.join(out, "bad.csv")
        with open(bad, "w") as f:
            f.write("this,is,not\na,result,file\n")
        rc, lines, err, _ = t.run_app([bad, "--dump-tiles", "--quit-when-done"])
        msg = field(lines, "error")
        check(msg and bad in msg, f"error: {msg!r}; stderr: {err}")
        check(field(lines, "error-selected") == "no", "the bad file's message is shown selected")
        return msg


SIM = ["--backend", "null", "--null-latency", "500", "--null-clock", "simulated"]


def tile_number(lines):
    """(scale, drawn font px, tile height) of the first tile."""
    r = rows(lines, "tile-number")
    check(r, "no tile-number line in the dump")
    return float(r[0][0]), float(r[0][1]), int(r[0][2])


def window_size(lines):
    """(width, height) of the window as the dump found it."""
    r = rows(lines, "window-size")
    check(r, "no window-size line in the dump")
    return int(r[0][0]), int(r[0][1])


def check_nothing_clipped(lines, where):
    cut = rows(lines, "clipped")
    check(cut == [], f"labels cut on {where}: {cut}")


def shot_run(args, name, screen):
    """Runs the window on a screen of its own with a screenshot kept."""
    with tempfile.TemporaryDirectory(prefix="shot-", dir=TMP_BASE) as out:
        shot = os.path.join(out, name)
        os.environ["DMK_XVFB_SCREEN"] = screen
        try:
            rc, lines, err, _ = t.run_app(args + ["--screenshot", shot, "--dump-tiles",
                                                  "--quit-when-done"], timeout=300)
        finally:
            os.environ.pop("DMK_XVFB_SCREEN", None)
        keep(shot, name)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        return lines


def test_tiles_grow_in_a_large_window():
    """Defect 8: a 1920x1080 window (as maximised) gives the tiles the
    height, and their numbers a bigger drawn size, not empty space."""
    with Dir() as d:
        run = ["--target", d, "--autorun"] + NULL
        small = shot_run(run, "benchmark-default.png", "1920x1080x24")
        large = shot_run(run + ["--window-size", "1920x1080"], "benchmark-1920x1080.png",
                         "1920x1080x24")
    s_scale, s_px, s_h = tile_number(small)
    l_scale, l_px, l_h = tile_number(large)
    check(window_size(large) == (1920, 1080), f"window {window_size(large)}")
    check(l_h >= 3 * s_h, f"tile {l_h} px high at 1920x1080, {s_h} px at the default size")
    check(l_px >= 2 * s_px, f"number {l_px:.1f} px at 1920x1080, {s_px:.1f} px by default")
    check_nothing_clipped(large, "the Benchmark tab at 1920x1080")
    return f"tile {s_h} -> {l_h} px, number {s_px:.1f} -> {l_px:.1f} px"


def test_window_keeps_size_when_result_opens():
    """Defect 8: a sweep's result opens as a tab, shown at once, in the
    window as it is (it used to jump from 754x420 to 1000x620)."""
    with Dir() as d:
        _, plain, _, _ = t.run_app(["--dump-tiles", "--quit-when-done"])
        rc, swept, err, _ = t.run_app(["--target", d, "--sweep", "qd", "--autorun",
                                       "--dump-tiles", "--quit-when-done"] + NULL)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check((field(swept, "page") or "").startswith("QD sweep"),
              f"page shown: {field(swept, 'page')}")
        check(window_size(swept) == window_size(plain),
              f"window {window_size(plain)} became {window_size(swept)} as a result opened")
        return f"window {window_size(swept)}"


def test_nothing_cut_at_1024x700():
    """Defect 8: the tiles' flags, with the mixed column's narrow tiles."""
    with Dir() as d:
        lines = shot_run(["--target", d, "--mix", "--autorun", "--window-size", "1024x700"]
                         + NULL, "benchmark-mix-1024x700.png", "1024x768x24")
    check(window_size(lines)[0] <= 1024, f"window {window_size(lines)}")
    flags = rows(lines, "tile-flags")
    check(flags, "no flags to show")
    check_nothing_clipped(lines, "the Benchmark tab at 1024x700")
    return f"{len(flags)} tiles with flags, none cut"


def test_lab_fits_1024x700():
    """Defect 8: the Lab tab's "All" grid of the latency test and its
    report, at 1024x700: the window stays 1,024 px wide, nothing is cut."""
    with Dir() as d:
        lines = shot_run(["--target", d, "--lab", "latency", "--lab-step", "0.25",
                          "--lab-warmup", "0", "--lab-size", "64MiB", "--autorun",
                          "--window-size", "1024x700"] + SIM, "lab-latency-1024x700.png",
                         "1024x768x24")
    check(field(lines, "page") == "Lab", f"page: {field(lines, 'page')}")
    shown = [r for r in rows(lines, "lab-chart") if r[1] == "shown"]
    check(len(shown) == 4, f"the All grid: {shown}")
    check(window_size(lines)[0] <= 1024, f"the Lab tab widened the window: {window_size(lines)}")
    check_nothing_clipped(lines, "the Lab tab at 1024x700")
    return f"window {window_size(lines)}, 4 charts"


TESTS = [test_missing_folder_refused, test_file_as_target_refused, test_usable_folder_runs,
         test_target_error_cleared_when_fixed, test_lab_field_error_cleared_when_fixed,
         test_bad_csv_message_not_selected,
         test_tiles_grow_in_a_large_window, test_window_keeps_size_when_result_opens,
         test_nothing_cut_at_1024x700, test_lab_fits_1024x700]


if __name__ == "__main__":
    sys.exit(t.main(TESTS))
