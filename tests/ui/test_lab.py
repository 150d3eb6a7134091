#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's Lab tab under Xvfb, end to end on the null backend with a
simulated drive (a write cache that slows writes 4-fold once full, a
temperature sensor), each test shortened to seconds by the command line:
the sustained write finds the cache and reads the sensor, latency under
load draws its four profiles and exports them as one grid, a Stop keeps
the samples so far, a saved lab result opens as a tab with its charts and
report, the full-span write asks before it fills a drive, and mixed load
and recovery run to their charts. No test file may remain anywhere.
Prints TAP."""

import csv
import json
import os
import re
import sys
import tempfile

import test_gui as t
from test_gui import Dir, check, check_empty, check_screenshot, field, rows

# A drive the engine's overhead does not hide: 0.5 ms per I/O, so a
# RND4K Q32T1 write runs at ~60,000 IOPS in its cache and ~15,000 after.
# The simulated clock: the simulated drive's numbers come out exact, however
# busy the machine (docs/design.md, "A suite that does not flake").
SIM = ["--backend", "null", "--null-latency", "500", "--null-clock", "simulated"]
# A 256 MiB cache that the 64 MiB test file's fill leaves room in (it
# drains in 5 s idle; no settle time then), and a sensor.
CACHE = ["--null-cache", "256MiB", "--null-thermal", "64MiB", "--lab-settle", "0"]


def lab_run(target, kind, extra, timeout=120):
    args = ["--target", target, "--lab", kind] + SIM + extra + [
        "--autorun", "--dump-tiles", "--quit-when-done"]
    return t.run_app(args, timeout=timeout)


def report(lines, key="lab-report"):
    return [f[1] for f in lines if f[0] == key and len(f) > 1]


def charts(lines, key="lab-chart"):
    """[(picker label, shown|hidden, title)] of the Lab tab's view."""
    return [tuple(f[1:4]) for f in lines if f[0] == key]


def findings(lines, key="lab-finding"):
    """{finding key: (heading, label, value)} of the findings beside the charts
    (a result tab's lines have the tab's number first)."""
    o = 1 if key.startswith("tab-") else 0
    return {f[2 + o]: (f[1 + o], f[3 + o], f[4 + o]) for f in lines
            if f[0] == key and len(f) > 4 + o}


def line_with(text, start):
    for line in text:
        if line.startswith(start):
            return line
    raise AssertionError(f"no report line starting with {start!r} in:\n" + "\n".join(text))


def words(line):
    """A report line without its numbers."""
    return re.sub(r"[0-9][0-9.,]*", "#", line)


def csv_records(path, record):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r["record"] == record]


# ---- the tests ----------------------------------------------------------------

def test_sustained_finds_cache():
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=t.TMP_BASE) as out:
        shot, saved = os.path.join(out, "sustained.png"), os.path.join(out, "sustained.csv")
        rc, lines, err, _ = lab_run(d, "sustained", CACHE + [
            "--lab-duration", "4", "--lab-sample", "0.1", "--lab-size", "64MiB",
            "--screenshot", shot, "--json", saved, "--dump-clipboard"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(field(lines, "status").startswith("Done"), f"status: {field(lines, 'status')}")
        # Ctrl+C on the Lab tab copies the findings, not a table of tiles.
        copied = [f[1] for f in lines if f[0] == "clipboard" and len(f) > 1]
        check(copied[:len(report(lines))] == report(lines), f"copied: {copied}")
        check(field(lines, "page") == "Lab", f"page shown: {field(lines, 'page')}")
        check(field(lines, "lab-state") == "result", f"lab state: {field(lines, 'lab-state')}")
        # The form shows what ran, units and all.
        fields = {f[1]: f[2] for f in lines if f[0] == "lab-field"}
        check(fields == {"Write test": "RND4K Q32T1", "Duration": "4 s", "Test file": "64 MiB",
                         "Settle time": "0 s", "Sample every": "0.1 s"}, f"form: {fields}")
        text = report(lines)
        cache = line_with(text, "Cache: ")
        check("written before the speed dropped" in cache, f"no cache found: {cache}")
        # "Cache: about 1.0 GiB (1,025 +-3 MiB) written ...", "about 250 MiB +-1 MiB"
        words = cache.split()
        check(words[1] == "about" and "+-" in cache, f"no resolution stated: {cache}")
        amount, unit = float(words[2].replace(",", "")), words[3]
        mib = amount * (1024 if unit == "GiB" else 1)
        check(unit in ("MiB", "GiB") and 100 <= mib <= 1024,
              f"cache of {amount} {unit}, simulated 256 MiB (+ what drains)")
        temp = line_with(text, "Temperature: ")
        check("simulated sensor" in temp, f"the simulated sensor was not read: {temp}")
        # The findings beside the charts say what the report says, to the digit.
        found = findings(lines)
        said = cache[len("Cache: "):cache.index(" written")]
        check(found.get("cliff.cache") == ("Cache and steady state", "SLC cache", said),
              f"findings: {found}")
        check(found.get("thermal.sensor", ("", "", ""))[2] == "yes", f"findings: {found}")
        labels = [c[0] for c in charts(lines)]
        check(labels == ["Speed", "Cache zoom", "Temperature"], f"charts: {charts(lines)}")
        check(charts(lines)[0][1] == "shown", f"speed chart not shown: {charts(lines)}")
        # Kept as a tab as well, behind the Lab tab, known by the file saved.
        tabs = rows(lines, "tab")
        check(len(tabs) == 1 and tabs[0][1] == "sustained.csv" and
              tabs[0][2] == "sustained" and tabs[0][4] == "complete", f"tabs: {tabs}")
        samples = csv_records(saved, "sample")
        check(len(samples) >= 30, f"{len(samples)} samples saved, expected about 40")
        check(all(r["lab"] == "sustained" for r in samples), "samples lack lab=sustained")
        saved_cache = [r for r in csv_records(saved, "finding") if r["finding"] == "cliff.cache"]
        check(len(saved_cache) == 1 and saved_cache[0]["unit"] == "bytes",
              f"the cache's finding row: {saved_cache}")
        w, h = check_screenshot(shot)
        check_empty(d)
        return f"{cache}; {len(samples)} samples; screenshot {w}x{h}"


def test_latency_four_profiles():
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=t.TMP_BASE) as out:
        shot, grid = os.path.join(out, "latency.png"), os.path.join(out, "latency-grid.png")
        # Steps of 0.25 s: a starved 0.1 s full-speed step may measure nothing
        # on a busy machine, and the ramp after it has no rate to follow.
        rc, lines, err, _ = lab_run(d, "latency", [
            "--lab-step", "0.25", "--lab-warmup", "0", "--lab-size", "64MiB",
            "--screenshot", shot, "--export-chart", grid])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        tabs = rows(lines, "tab")
        check(len(tabs) == 1 and tabs[0][2] == "latency" and tabs[0][3] == "48" and
              tabs[0][4] == "complete", f"tabs: {tabs}")
        shown = charts(lines)
        check([c[0] for c in shown] == ["RND4K read", "RND4K write", "SEQ64K read",
                                        "SEQ64K write"], f"charts: {shown}")
        check(all(c[1] == "shown" for c in shown), f"not all four shown at once: {shown}")
        text = report(lines)
        subms = [line for line in text if "sub-millisecond up to" in line]
        check(len(subms) == 4, "expected 'sub-millisecond up to N IOPS' for each profile:\n" +
              "\n".join(text))
        # All four profiles exported as one 2 x 2 grid of 800 x 500 charts.
        ink = t.check_chart_png(grid, 1600, 1000)
        check_screenshot(shot)
        check_empty(d)
        return f"{subms[0]}; grid {ink:.0%} ink"


def test_stop_keeps_samples():
    # --stop-at measure:10: the run waits at its 10th progress report of the
    # measurement (at least 0.9 s of 0.1 s samples behind it) until Stop
    # was pressed: the stop lands in the measurement by construction.
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=t.TMP_BASE) as out:
        js, shot = os.path.join(out, "stopped.json"), os.path.join(out, "stopped.png")
        rc, lines, err, took = lab_run(d, "sustained", CACHE + [
            "--lab-duration", "60", "--lab-sample", "0.1", "--lab-size", "64MiB",
            "--stop-at", "measure:10", "--json", js, "--screenshot", shot])
        check(rc == 130, f"exit {rc}, expected 130 (stopped); stderr: {err}")
        ms = int(field(lines, "stop-took-ms"))
        check(ms < t.STOP_MS_MAX, f"stopping took {ms} ms")
        # The live chart: the held report was shown before the stop. (On the
        # simulated clock a whole run may end before any report reaches the
        # window, which takes them at most 10 times a second of real time.)
        check(int(field(lines, "lab-live-points")) >= 1, "the live chart drew no points")
        check(field(lines, "lab-state") == "result", "the stopped run's samples are not shown")
        check(field(lines, "lab-progress").startswith("Stopped"),
              f"progress: {field(lines, 'lab-progress')}")
        text = report(lines)
        line_with(text, "Stopped before the end")
        tabs = rows(lines, "tab")
        check(len(tabs) == 1 and tabs[0][4] == "incomplete", f"tabs: {tabs}")
        result = json.load(open(js))
        check(result["complete"] is False, "a stopped run says it is complete")
        test = result["results"][0]
        check(test["partial"] is True, "the test under way is not marked partial")
        n = len(test["timeline"])
        check(n >= 9, f"only {n} samples kept of at least 9")
        check_screenshot(shot)
        check_empty(d)
        return f"stopped in {ms} ms; {n} samples kept (the app ran {took:.1f} s)"


def test_saved_lab_result_opens_as_lab_tab():
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=t.TMP_BASE) as out:
        saved, shot = os.path.join(out, "recovery.csv"), os.path.join(out, "opened.png")
        rc, lines, err, _ = lab_run(d, "recovery", CACHE + [
            "--lab-duration", "3", "--lab-step", "0.5", "--lab-idle", "1", "--lab-sample", "0.1",
            "--lab-size", "64MiB", "--json", saved])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        fresh = report(lines)
        check_empty(d)
        rc, lines, err, _ = t.run_app(["--open", saved, "--screenshot", shot, "--dump-tiles",
                                       "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(field(lines, "page") == "recovery.csv", f"page shown: {field(lines, 'page')}")
        check(rows(lines, "tab-tile") == [], "a lab result opened as tiles")
        check(field(lines, "compare") is None, "a lab result was put in the compare tab")
        opened = [f[2] for f in lines if f[0] == "tab-lab-report"]
        # The same findings; a number may print with another decimal after
        # the CSV's rounding (9.9996 % is "10.00 %", 10.0004 % "10.0 %").
        check([words(x) for x in opened] == [words(x) for x in fresh] and
              opened[0] == fresh[0], "the opened file's report differs from the run's:\n" +
              "\n".join(opened) + "\n---\n" + "\n".join(fresh))
        labels = [f[2] for f in lines if f[0] == "tab-lab-chart"]
        check(labels[0] == "Recovery" and "Speed" in labels, f"charts: {labels}")
        line_with(opened, "after TRIM")
        check_screenshot(shot)
        # Its Save, Export Chart and Copy act on it, dialogs and all.
        actions = ["save", "export-chart", "copy"]
        rc, _, err, _ = t.run_app(["--open", saved, "--dump-tiles", "--quit-when-done"] +
                                  [a for name in actions for a in ("--activate", name)])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        refused = [line for line in err.splitlines() if line.startswith("drivemark:")]
        check(not refused, f"an action was refused: {refused}")
        return f"{len(opened)} report lines, charts {labels}"


DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "lab-findings")


def test_saved_findings_shown():
    """A saved lab file's findings beside its charts: the file's figures,
    also where someone edited them (docs/results.md, "Findings"); an older
    file (schema 5) shows what its samples give."""
    with tempfile.TemporaryDirectory(prefix="out-", dir=t.TMP_BASE) as out:
        edited = os.path.join(out, "edited.csv")
        with open(os.path.join(DATA, "cache-schema6.csv"), newline="") as f:
            text = f.read()
        check('"cliff.cache",65230321,' in text, "the data file changed")
        with open(edited, "w", newline="") as f:
            f.write(text.replace('"cliff.cache",65230321,', '"cliff.cache",2147483648,'))
        shown = {}
        for name in ("cache-schema6.csv", "cache-schema5.csv", edited):
            rc, lines, err, _ = t.run_app(["--open", os.path.join(DATA, name), "--dump-tiles",
                                           "--quit-when-done"])
            check(rc == 0, f"{name}: exit {rc}; stderr: {err}")
            found = findings(lines, "tab-lab-finding")
            shown[name] = found
            check(found.get("cliff.after") == ("Cache and steady state", "After the cache",
                                               "3,989 IOPS (16.3 MB/s)"), f"{name}: {found}")
            check(found.get("cliff.steady") == ("Cache and steady state", "Steady state", "yes"),
                  f"{name}: {found}")
            cache = line_with([f[2] for f in lines if f[0] == "tab-lab-report"], "Cache: ")
            check(cache.startswith(f"Cache: {found['cliff.cache'][2]} written"),
                  f"{name}: the report says {cache!r}, the findings {found['cliff.cache']}")
        check(shown["cache-schema6.csv"]["cliff.cache"][2] == "about 62 MiB +-1 MiB" and
              shown[edited]["cliff.cache"][2] == "about 2.0 GiB (2,048 +-1 MiB)", f"cache: {shown}")
        check(shown["cache-schema5.csv"] == shown["cache-schema6.csv"],
              "schema 5 and 6 of the same run differ")
        return f"{len(shown['cache-schema6.csv'])} findings shown"


def test_fullspan_asks_first():
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d, "--lab", "fullspan"] + SIM + [
            "--activate", "run-lab", "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        dialog = [f for f in lines if f[0] == "dialog"]
        check(len(dialog) == 1 and dialog[0][1].startswith("Fill ") and
              "the file is removed afterwards" in dialog[0][2], f"question: {dialog}")
        check(field(lines, "lab-state") == "empty", "the write began without an answer")
        check_empty(d)
        # Asked on the command line (--autorun): it runs, here over 1 GiB.
        rc, lines, err, _ = lab_run(d, "fullspan", ["--lab-size", "1GiB", "--lab-sample", "0.1"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        written = line_with(report(lines), "SEQ1M Q8T1 write, full span: ")
        check(written.startswith("SEQ1M Q8T1 write, full span: 1.0 GiB written"), written)
        check_empty(d)
        return f"{dialog[0][1]} / {written}"


def test_mixed_runs():
    with Dir() as d:
        rc, lines, err, _ = lab_run(d, "mixed", ["--lab-step", "0.2", "--lab-warmup", "0",
                                                 "--lab-size", "64MiB"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check([c[0] for c in charts(lines)] == ["By read share", "Average"],
              f"charts: {charts(lines)}")
        average = line_with(report(lines), "Average")
        check(average.count("MB/s") == 2, f"average line: {average}")
        check_empty(d)
        return average


def test_files_runs():
    """The file-set test on real files (the native backend): its table's
    steps in the report, its bar chart, nothing left in the target."""
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=t.TMP_BASE) as out:
        shot = os.path.join(out, "files.png")
        rc, lines, err, _ = t.run_app(["--target", d, "--lab", "files", "--lab-size", "16MiB",
                                       "--autorun", "--dump-tiles", "--quit-when-done",
                                       "--screenshot", shot], timeout=180)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(field(lines, "status").startswith("Done"), f"status: {field(lines, 'status')}")
        text = report(lines)
        for step in ("ISO copy", "Program copy", "Work copy", "Work archive", "Work extract"):
            check(any(x.startswith(step) for x in text), f"{step} not in the report: {text}")
        check([c[:2] for c in charts(lines)] == [("File sets", "shown")],
              f"charts: {charts(lines)}")
        fields = {f[1]: f[2] for f in lines if f[0] == "lab-field"}
        check(fields == {"Set size": "16 MiB"}, f"form: {fields}")
        check_screenshot(shot)
        if os.environ.get("DMK_SHOTS_DIR"):
            import shutil
            shutil.copy(shot, os.environ["DMK_SHOTS_DIR"])
        check_empty(d)
        return line_with(text, "Work archive")


def test_trace_runs():
    """The trace replay from the command line (--lab-trace, the starter
    office trace): the form shows the file, the report its scores, its
    bar chart, nothing left in the target."""
    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    trace = os.path.join(src, "data", "traces", "office.iolog")
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d, "--lab", "trace", "--lab-trace", trace,
                                       "--lab-size", "16MiB", "--autorun", "--dump-tiles",
                                       "--quit-when-done"], timeout=180)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(field(lines, "status").startswith("Done"), f"status: {field(lines, 'status')}")
        text = report(lines)
        for row in ("Read", "Write", "All"):
            check(any(x.startswith(row + " ") for x in text), f"{row} not in the report: {text}")
        check([c[:2] for c in charts(lines)] == [("Trace replay", "shown")],
              f"charts: {charts(lines)}")
        fields = {f[1]: f[2] for f in lines if f[0] == "lab-field"}
        check(fields.get("Trace file") == trace and fields.get("Test file") == "16 MiB",
              f"form: {fields}")
        check_empty(d)
        return line_with(text, "All")


def test_files_stop_removes_all():
    """Stop during the file-set test's copies (--stop-at: the run waits at
    its second report of a copy until Stop was pressed): the window says
    stopped and nothing of the sets is left in the target."""
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d, "--lab", "files", "--lab-size", "64MiB",
                                       "--stop-at", "measure:2", "--autorun", "--dump-tiles",
                                       "--quit-when-done"], timeout=180)
        check(rc == 130, f"exit {rc}, expected 130 (stopped); stderr: {err}")
        check(field(lines, "lab-progress").startswith("Stopped"),
              f"progress: {field(lines, 'lab-progress')}")
        check_empty(d)
        return field(lines, "lab-progress")


def test_engine_error_in_info_bar():
    with Dir() as d:
        missing = os.path.join(d, "no-such-folder")
        rc, lines, err, _ = t.run_app(["--target", missing, "--lab", "sustained",
                                       "--lab-duration", "2", "--lab-settle", "0", "--autorun",
                                       "--dump-tiles", "--quit-when-done"])
        check(rc == 1, f"exit {rc}, expected 1; stderr: {err}")
        msg = field(lines, "error")
        check(msg and msg.startswith("The target does not exist") and missing in msg,
              f"info bar: {msg!r}")
        check(field(lines, "lab-progress").startswith("Failed"),
              f"progress: {field(lines, 'lab-progress')}")
        check(rows(lines, "tab") == [], "a failed run left a tab")
        return msg


def test_bad_lab_options():
    for args, needle in ((["--lab", "endurance"], "--lab 'endurance' is unknown"),
                         (["--lab", "sustained", "--lab-sample", "90"], "--lab-sample")):
        rc, _, err, _ = t.run_app(args + ["--quit-when-done"])
        check(rc == 2 and needle in err, f"{args}: exit {rc}; stderr: {err}")
    return "refused with a message"


TESTS = [test_sustained_finds_cache, test_latency_four_profiles, test_stop_keeps_samples,
         test_saved_lab_result_opens_as_lab_tab, test_saved_findings_shown,
         test_fullspan_asks_first, test_mixed_runs, test_files_runs,
         test_files_stop_removes_all, test_trace_runs,
         test_engine_error_in_info_bar,
         test_bad_lab_options]


if __name__ == "__main__":
    sys.exit(t.main(TESTS))
