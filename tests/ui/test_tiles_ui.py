#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Benchmark tab's tiles as a run goes and after it ends early (issue
16, defects 1 and 4): a tile never shows a number that the run it seems to
belong to did not measure, and the test under way moves.

- After a complete run, a second one stopped (or failed) during its
  second test (first) leaves no old number: the tests it never reached
  show an em dash, the one it was in its last live figure marked partial;
  the run's tab, Copy and the JSON hold exactly what it measured, and the
  status line says it stopped (failed).
- While a test measures, its tile shows the live rate (several distinct
  values before the test ends), its progress bar and the run's grow, and
  the window's title says where the run is; the plain title comes back.

The runs are the null backend's on the simulated clock (exact, however
busy the machine), and DMK_TEST_PROGRESS_LOCKSTEP makes the run's thread
wait until the window has shown each of its progress reports, so the
window sees every one (DMK_TEST_TRACE_PROGRESS prints them as shown):
nothing here depends on timing. The failed run is the fault backend's
--fault-hang in the second run (--fault-hang-run 2) with a 1 s watchdog.
Prints TAP.

    test_tiles_ui.py DRIVEMARK"""

import json
import os
import tempfile

import test_gui as t
from test_gui import Dir, check, field, rows

SIM = ["--backend", "null", "--null-latency", "500", "--null-clock", "simulated"]
TRACE = {"DMK_TEST_TRACE_PROGRESS": "1", "DMK_TEST_PROGRESS_LOCKSTEP": "1"}
# CrystalDiskMark's default profile: 8 tiles, read then write of each test.
RUNS = ["--profile", "default", "--size", "64MiB", "--passes", "1", "--warmup", "0",
        "--interval", "0", "--autorun", "--dump-tiles", "--dump-clipboard", "--quit-when-done"]
DASH = "\u2014"
EXIT_INTERRUPTED, EXIT_FAILED = 130, 1


def tile_rows(lines):
    """{(test, mode): (text, measured|empty, state)} as the window showed them."""
    return {(f[1], f[2]): (f[3], f[4], f[5] if len(f) > 5 else "") for f in lines
            if f[0] == "tile"}


def clipboard(lines):
    return "\n".join(f[1] if len(f) > 1 else "" for f in lines if f[0] == "clipboard")


def progress(lines):
    """[(test index, stage, tile text, tile state, tile bar, run bar, title)]."""
    return [(int(f[1]), f[2], f[3], f[4], float(f[5]), float(f[6]), f[7]) for f in lines
            if f[0] == "progress"]


def check_ended_early(lines, measured, partial_at):
    """The second run measured the tiles `measured` and ended during the
    test of tile `partial_at` (None: before any): every other tile shows
    no number, and nothing of the first run looks current."""
    shown = tile_rows(lines)
    check(len(shown) == 8, f"tiles shown: {sorted(shown)}")
    for key, (text, has, state) in shown.items():
        if key in measured:
            check(has == "measured" and state == "measured", f"{key}: {text!r} {has} {state}")
        elif key == partial_at:
            check(has == "empty" and state == "partial", f"{key}: {text!r} {has} {state}")
        else:
            check(text == DASH and has == "empty" and state == "skipped",
                  f"{key} was never measured by this run but shows {text!r} ({has} {state})")
    if partial_at:
        flags = [r for r in rows(lines, "tile-flags") if tuple(r[:2]) == partial_at]
        check(flags and flags[0][2].startswith("partial"), f"partial tile's badge: {flags}")
    check(field(lines, "title") == "Drivemark", f"title after the run: {field(lines, 'title')}")
    return shown


def test_stopped_run_leaves_no_stale_value():
    """Defect 1: a complete run, then a second one stopped during its
    second test (SEQ1M Q8T1 write, at its 10th of 20 reports)."""
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=t.TMP_BASE) as out:
        js = os.path.join(out, "result.json")
        rc, lines, err, _ = t.run_app(["--target", d] + SIM + RUNS + [
            "--measure", "2", "--runs", "2", "--stop-at", "measure:30", "--json", js], env=TRACE)
        check(rc == EXIT_INTERRUPTED, f"exit {rc}, expected {EXIT_INTERRUPTED}; stderr: {err}")
        status = field(lines, "status") or ""
        check(status.startswith("Stopped after"), f"status: {status}")
        first = ("SEQ1M Q8T1", "read")
        shown = check_ended_early(lines, {first}, ("SEQ1M Q8T1", "write"))
        # What the run's tab, Copy and Save hold: its one finished test.
        tabs = rows(lines, "tab")
        check(len(tabs) == 2 and tabs[0][3] == "8" and tabs[1][3] == "1",
              f"tabs (the first run's 8 tests, the stopped one's 1): {tabs}")
        result = json.load(open(js))
        got = [(r["test"], r["mode"]) for r in result["results"]]
        check(got == [first] and not result["complete"], f"saved: {got} {result['complete']}")
        t.check_tile(first[0], first[1], shown[first][0], result["results"][0]["mb_s"])
        text = clipboard(lines)
        check("[Read]" in text and "SEQ     1MiB (Q=  8, T= 1):" in text, f"copied:\n{text}")
        check("[Write]" not in text and "Q=  1" not in text and "Q= 32" not in text,
              f"copied text holds tests this run never finished:\n{text}")
        t.check_empty(d)
        return f"{status}; {sum(v[2] == 'skipped' for v in shown.values())} tiles show {DASH}"


def test_failed_run_leaves_no_stale_value():
    """Defect 1: a complete run, then a second one whose 40th submit call
    never returns (a frozen file system): it fails, and shows nothing of
    the first."""
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d] + RUNS + [
            "--measure", "0.3", "--runs", "2", "--watchdog", "1", "--fault-hang", "40",
            "--fault-hang-run", "2"])
        check(rc == EXIT_FAILED, f"exit {rc}, expected {EXIT_FAILED}; stderr: {err}")
        status = field(lines, "status") or ""
        check(status.startswith("Failed after"), f"status: {status}")
        check((field(lines, "error") or "").startswith("The run stalled"),
              f"error: {field(lines, 'error')}")
        shown = tile_rows(lines)
        partial = [k for k, v in shown.items() if v[2] == "partial"]
        check(len(partial) <= 1, f"more than one test under way: {partial}")
        check_ended_early(lines, set(), partial[0] if partial else None)
        tabs = rows(lines, "tab")
        check(len(tabs) == 1 and tabs[0][3] == "8", f"tabs (the first run's only): {tabs}")
        # Copy takes what the tiles show: the failed run measured nothing.
        check("Q=  8" not in clipboard(lines), f"copied:\n{clipboard(lines)}")
        return f"{status}; partial: {partial}"


def test_live_value_and_progress():
    """Defect 4: a 2 s write of SEQ1M Q8T1 into a drive's 1 GiB cache that
    fills during it: the tile's live figure changes, the bars grow, the
    title follows; the end restores the plain title."""
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d] + SIM + [
            "--null-cache", "1GiB", "--profile", "demo", "--mode", "write", "--size", "64MiB",
            "--passes", "2", "--measure", "1", "--warmup", "0", "--interval", "0", "--autorun",
            "--dump-tiles", "--quit-when-done"], env=TRACE)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        seen = progress(lines)
        live = [p for p in seen if p[1] == "measure" and p[3] == "live"]
        check(len(live) >= 10, f"only {len(live)} live reports of a 2 s test: {seen}")
        values = [p[2] for p in live]
        check(len(set(values)) >= 2, f"the live figure never changed: {values}")
        check(all(float(v) > 0 for v in values), f"a live figure of 0: {values}")
        bars = [p[4] for p in live]
        runs = [p[5] for p in live]
        check(all(b >= a for a, b in zip(bars, bars[1:])) and bars[-1] > bars[0],
              f"the test's bar did not grow: {bars}")
        check(all(b >= a for a, b in zip(runs, runs[1:])) and runs[-1] > runs[0],
              f"the run's bar did not grow: {runs}")
        check(0 < runs[0] and runs[-1] <= 1, f"run bar out of range: {runs}")
        titles = [p[6] for p in live]
        check(all(s.startswith("Drivemark \u2014 1/1 SEQ1M Q8T1 Write ") and s.endswith(" %")
                  for s in titles), f"titles: {sorted(set(titles))}")
        check(len(set(titles)) >= 3, f"the title's percentage did not move: {sorted(set(titles))}")
        check(field(lines, "title") == "Drivemark", f"title after the run: {field(lines, 'title')}")
        shown = tile_rows(lines)[("SEQ1M Q8T1", "write")]
        check(shown[1:] == ("measured", "measured"), f"tile after the run: {shown}")
        return (f"{len(live)} live reports, {len(set(values))} distinct figures "
                f"({values[0]} .. {values[-1]}); run bar {runs[0]:.2f}..{runs[-1]:.2f}; "
                f"{titles[len(titles) // 2]!r}")


TESTS = [test_stopped_run_leaves_no_stale_value, test_failed_run_leaves_no_stale_value,
         test_live_value_and_progress]

if __name__ == "__main__":
    import sys
    sys.exit(t.main(TESTS))
