#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window asks before work is lost or a long write begins (issue 16,
defects 3 and 6), under Xvfb:

- Ctrl+Q during a run: "Stop the test and quit?"; Cancel keeps the run
  and the window, "Stop and Quit" stops it, removes the test file, quits.
- Ctrl+Q with a result never saved: "Quit without saving 1 result?"
  naming its tab; Cancel keeps the window, Discard quits, Save writes it
  as CSV into the folder chosen and quits.
- Ctrl+W closes a result tab (asking when it was never saved) and never
  the window: on the Benchmark tab it says what it does instead.
- A lab test or benchmark that writes more than a few GiB or lasts more
  than a few minutes asks first, with the runner's own plan; a small run
  does not.
- A comment typed after a run reaches that run's tab and its saved CSV.
- `drivemark FILE.csv` opens it as a tab, a bad file says why (exit 1, no
  crash), and a second `drivemark FILE.csv` hands it to the running
  window; the desktop file says %F, text/csv and the window's class.

The questions are answered with --answer (the hook prints each one it
answers: "asked", question, detail, answer); the keys are the window's
own actions (--when-started / --when-done app.quit, win.close-tab), so
every step waits for a state, never for a time. Prints TAP.

    test_ask_ui.py DRIVEMARK"""

import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time

import test_gui as t
from test_gui import TMP_BASE, Dir, Skip, check, check_empty, field, rows

QUICK = ["--profile", "demo"] + t.QUICK
# A run that cannot end by itself before the question is answered: a 30 s pass.
LONG = ["--profile", "demo", "--size", "64MiB", "--passes", "1", "--measure", "30",
        "--warmup", "0", "--interval", "0"]
# The desktop file's source: the build merges its translations into the
# installed one, and adds no key.
DESKTOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources",
                       "io.github.drivemark.drivemark.desktop.in")


def asked(lines):
    """[(question, detail, answer)] of the questions the hook answered."""
    return [tuple(f[1:4]) for f in lines if f[0] == "asked" and len(f) >= 4]


def one_question(lines, starts):
    q = asked(lines)
    check(len(q) == 1 and q[0][0].startswith(starts), f"questions asked: {q}")
    return q[0]


def out_dir():
    return tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE)


# ---- quitting during a run ---------------------------------------------------

def test_quit_during_run_stops_and_quits():
    """Ctrl+Q while a 30 s pass runs asks; "Stop and Quit" ends the run
    (the test file removed) and the program."""
    with Dir() as d:
        rc, lines, err, took = t.run_app(["--target", d] + LONG + [
            "--autorun", "--when-started", "app.quit", "--answer", "stop"])
        q = one_question(lines, "Stop the test and quit?")
        check(q[2] == "stop" and "removes its test file" in q[1], f"question: {q}")
        check(rc in (0, 130), f"exit {rc}; stderr: {err}")
        check(took < 30, f"the app ran {took:.1f} s: quitting did not stop the 30 s pass")
        check_empty(d)
        return f"{q[0]} -> stopped, quit {took:.1f} s after start"


def test_quit_during_run_cancel_keeps_it():
    """Cancel: the run goes on to its end, the window stays."""
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d] + QUICK + [
            "--autorun", "--when-started", "app.quit", "--answer", "cancel",
            "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        one_question(lines, "Stop the test and quit?")
        status = field(lines, "status")
        check(status is not None and status.startswith("Done"), f"status: {status}")
        check(len(rows(lines, "tab")) == 1, f"tabs: {rows(lines, 'tab')}")
        check_empty(d)
        return f"cancelled; the run went on: {status}"


def test_run_ends_while_asked():
    """Unanswered, "Stop the test and quit?" outlives its run: it becomes
    the question that is true then, about the result never saved."""
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d] + QUICK + [
            "--autorun", "--when-started", "app.quit", "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        q = [f[1:] for f in lines if f[0] == "dialog"]
        check(len(q) == 1 and q[0][0] == "Quit without saving 1 result?", f"asked: {q}")
        check(field(lines, "status").startswith("Done"), f"status: {field(lines, 'status')}")
        check_empty(d)
        return q[0][0]


# ---- quitting with results never saved ----------------------------------------

def test_quit_unsaved_cancel():
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d] + QUICK + [
            "--autorun", "--when-done", "app.quit", "--answer", "cancel",
            "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        q = one_question(lines, "Quit without saving 1 result?")
        tab = rows(lines, "tab")
        check(len(tab) == 1 and tab[0][1] in q[1], f"the question names no tab: {q} / {tab}")
        check(rows(lines, "tab-unsaved") == [["1"]], f"unsaved: {rows(lines, 'tab-unsaved')}")
        check(field(lines, "status") is not None, "the window was gone")
        check_empty(d)
        return f"{q[0]} {q[1][:40]}... -> cancelled, window kept"


def test_quit_unsaved_discard():
    """Discard quits: the program ends with no --quit-when-done."""
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d] + QUICK + [
            "--autorun", "--when-done", "app.quit", "--answer", "discard"], timeout=120)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        q = one_question(lines, "Quit without saving 1 result?")
        check(q[2] == "discard", f"question: {q}")
        check_empty(d)
        return "discarded, quit"


def test_quit_unsaved_save_with_comment():
    """Save writes the never-saved run as CSV in the folder, then quits; a
    comment typed after the run is in it."""
    with Dir() as d, out_dir() as out:
        rc, lines, err, _ = t.run_app(["--target", d] + QUICK + [
            "--comment", "typed before", "--autorun", "--type-comment", "typed after the run",
            "--when-done", "app.quit", "--answer", f"save:{out}"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        one_question(lines, "Quit without saving 1 result?")
        saved = os.listdir(out)
        check(len(saved) == 1 and saved[0].startswith("drivemark-") and
              saved[0].endswith(".csv"), f"saved: {saved}")
        text = open(os.path.join(out, saved[0]), encoding="utf-8").read()
        cells = [c for row in csv.reader(text.splitlines()) for c in row]
        check("typed after the run" in cells and "typed before" not in cells,
              "the CSV lacks the comment typed after the run")
        check_empty(d)
        return f"saved {saved[0]} with the comment, quit"


def test_comment_after_run_in_tab():
    """The run's tab shows the comment typed after the run."""
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d] + QUICK + [
            "--comment", "typed before", "--autorun", "--type-comment", "typed after the run",
            "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        comments = rows(lines, "tab-comment")
        check(comments == [["1", "typed after the run"]], f"the tab's comment: {comments}")
        check_empty(d)
        return "the tab shows the comment typed after the run"


# ---- Ctrl+W -------------------------------------------------------------------

def test_ctrl_w_on_benchmark_tab_keeps_window():
    """Ctrl+W on the Benchmark tab closes nothing and says what it does."""
    rc, lines, err, _ = t.run_app(["--activate", "close-tab", "--dump-tiles", "--quit-when-done"])
    check(rc == 0, f"exit {rc}; stderr: {err}")
    status = field(lines, "status")
    check(status == "Ctrl+W closes a result tab; Ctrl+Q quits", f"status: {status}")
    check(field(lines, "page") == "Benchmark", f"page: {field(lines, 'page')}")
    return f"window kept: {status}"


def test_ctrl_w_closes_saved_tab():
    """A result opened from its file closes without a question."""
    with Dir() as d, out_dir() as out:
        path = t.make_result(d, os.path.join(out, "a.csv"))
        rc, lines, err, _ = t.run_app(["--open", path, "--activate", "close-tab", "--dump-tiles",
                                       "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(asked(lines) == [], f"asked: {asked(lines)}")
        check(rows(lines, "tab") == [], f"tabs left: {rows(lines, 'tab')}")
        return "closed at once"


SWEEP = ["--sweep", "qd", "--backend", "null", "--size", "64MiB", "--passes", "1",
         "--measure", "0.2", "--warmup", "0", "--interval", "0", "--autorun",
         "--when-done", "close-tab"]


def test_ctrl_w_unsaved_tab_asks():
    """A sweep's tab (shown at once, never saved): Cancel keeps it, Discard
    closes it, Save writes it and closes it."""
    found = []
    with Dir() as d, out_dir() as out:
        for answer, left in (("cancel", 1), ("discard", 0), (f"save:{out}", 0)):
            rc, lines, err, _ = t.run_app(["--target", d] + SWEEP + [
                "--answer", answer, "--dump-tiles", "--quit-when-done"])
            check(rc == 0, f"{answer}: exit {rc}; stderr: {err}")
            q = one_question(lines, "Close QD sweep ")
            check(q[0].endswith(" without saving?"), f"question: {q}")
            check(len(rows(lines, "tab")) == left, f"{answer}: tabs {rows(lines, 'tab')}")
            found.append(f"{answer.split(':')[0]}: {left} tab")
        saved = os.listdir(out)
        check(len(saved) == 1 and saved[0].startswith("drivemark-qd-"), f"saved: {saved}")
        check_empty(d)
    return ", ".join(found)


def test_save_dialogs_open():
    """Save without a folder given: the quit question's folder dialog and a
    tab's Save dialog open (no GTK warning: fatal here), and nothing closes
    until one is chosen."""
    with Dir() as d:
        for args, what in ((QUICK + ["--autorun", "--when-done", "app.quit"], "Quit without"),
                           (SWEEP, "Close QD sweep ")):
            rc, lines, err, _ = t.run_app(["--target", d] + args + [
                "--answer", "save", "--dump-tiles", "--quit-when-done"])
            check(rc == 0, f"exit {rc}; stderr: {err}")
            one_question(lines, what)
            check(len(rows(lines, "tab")) == 1, f"{what}: tabs {rows(lines, 'tab')}")
            mine = [line for line in err.splitlines() if line.startswith("drivemark:")]
            check(not mine, f"refused: {mine}")
        check_empty(d)
    return "the folder and the Save dialogs opened"


# ---- the big write's question ---------------------------------------------------

def dialog(lines):
    return [f[1:] for f in lines if f[0] == "dialog"]


def lab_length(lines):
    """The length the Lab tab's form says: "2 h 5 min" of "Takes about 2 h 5 min, ..."."""
    summary = [f for f in lines if f[0] == "lab-summary"]
    check(summary and summary[0][2].startswith("Takes about "), f"the Lab tab says {summary}")
    return summary[0][2][len("Takes about "):].split(",")[0].rstrip(".")


def test_lab_sustained_asks():
    """Lab > Start on the sustained write (32 GiB, about 2 h) asks, with
    the Lab tab's own length (the runner's plan); Cancel starts nothing."""
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d, "--lab", "sustained", "--activate",
                                       "run-lab", "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        q = dialog(lines)
        length = lab_length(lines)
        check(length.startswith("2 h"), f"the sustained write takes {length}")
        check(len(q) == 1 and q[0][0] == f"Write 32 GiB and run for about {length}?" and
              "first fills its 32 GiB test file" in q[0][1] and f"about {length} " in q[0][1],
              f"question: {q}")
        check_empty(d)
        rc, lines, err, _ = t.run_app(["--target", d, "--lab", "sustained", "--activate",
                                       "run-lab", "--answer", "cancel", "--dump-tiles",
                                       "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        one_question(lines, "Write 32 GiB and run for about")
        check(field(lines, "status") == "Ready", f"a run began: {field(lines, 'status')}")
        check_empty(d)
        return q[0][0]


def test_big_benchmark_asks():
    """A benchmark with an 8 GiB test file asks; nothing is written."""
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d, "--size", "8GiB", "--activate", "run-all",
                                       "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        q = dialog(lines)
        check(len(q) == 1 and q[0][0] == "Write 8 GiB?" and
              q[0][1].startswith("The benchmark first fills its 8 GiB test file in"), f"question: {q}")
        check_empty(d)
        return q[0][0]


def test_long_lab_start_runs():
    """A lab test over the time alone (the null backend writes nothing):
    "Run for about 20 min?" (15 min and its idle time); Start starts it."""
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d, "--lab", "sustained", "--lab-duration",
                                       "15m", "--lab-size", "1GiB", "--backend", "null",
                                       "--activate", "run-lab", "--answer", "start",
                                       "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        length = lab_length(lines)
        q = one_question(lines, f"Run for about {length}?")
        check("only pretends" in q[1], f"question: {q}")
        check(dialog(lines) == [], f"still asked: {dialog(lines)}")
        check(field(lines, "status") != "Ready", "Start did not start it")
        return f"{q[0]} -> started: {field(lines, 'status')}"


def test_small_run_does_not_ask():
    with Dir() as d:
        rc, lines, err, _ = t.run_app(["--target", d] + QUICK + [
            "--activate", "run-all", "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(dialog(lines) == [], f"asked: {dialog(lines)}")
        check(field(lines, "status") != "Ready", "the run did not start")
        check_empty(d)
        return f"started at once: {field(lines, 'status')}"


# ---- files from the command line and the file manager ------------------------------

def test_file_argument_opens_tab():
    with Dir() as d, out_dir() as out:
        path = t.make_result(d, os.path.join(out, "a.csv"))
        rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done", path])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(field(lines, "page") == "a.csv", f"page: {field(lines, 'page')}")
        check(len(rows(lines, "tab")) == 1, f"tabs: {rows(lines, 'tab')}")
        bad = os.path.join(out, "bad.csv")
        with open(bad, "w") as f:
            f.write("not,a,result\n1,2\n")
        for p in (bad, os.path.join(out, "missing.csv")):
            rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done", p])
            check(rc == 1, f"{p}: exit {rc} (a crash is negative); stderr: {err}")
            e = field(lines, "error") or ""
            check(e.startswith("The result file could not be opened") and
                  os.path.basename(p) in e, f"{p}: error {e!r}")
            check(rows(lines, "tab") == [], f"tabs: {rows(lines, 'tab')}")
        return "a.csv opened; bad and missing files said why"


def wait_for(what, fn, deadline):
    while time.monotonic() < deadline:
        v = fn()
        if v:
            return v
        time.sleep(0.2)
    raise AssertionError(f"gave up waiting for {what}")


def window_class(display):
    """The WM_CLASS of the window titled Drivemark, or None while there is none."""
    p = subprocess.run(["xwininfo", "-root", "-tree", "-display", display],
                       capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if '"Drivemark": (' in line:
            return line.split('"Drivemark": (')[1].split(")")[0].replace('"', "").split()
    return None


def desktop_entry():
    keys = {}
    for line in open(DESKTOP, encoding="utf-8"):
        if "=" in line and not line.startswith("#"):
            k, v = line.rstrip("\n").split("=", 1)
            keys[k] = v
    return keys


def test_second_instance_opens_in_first():
    """`drivemark b.csv` while one runs: the tab opens in the running
    window, the second process ends. The desktop file's StartupWMClass is
    that window's class."""
    for tool in ("xwininfo", "gdbus", "dbus-daemon"):
        if not shutil.which(tool):
            raise Skip(f"needs {tool}")
    entry = desktop_entry()
    check(entry.get("Exec") == "drivemark %F", f"Exec={entry.get('Exec')}")
    check("text/csv" in entry.get("MimeType", "").split(";"), f"MimeType={entry.get('MimeType')}")
    with Dir() as d, out_dir() as out, t.Xvfb() as x, \
            tempfile.TemporaryDirectory(prefix="xdg-", dir=TMP_BASE) as xdg:
        os.chmod(xdg, 0o700)
        path = t.make_result(d, os.path.join(out, "b.csv"))
        dump = os.path.join(out, "dump.txt")
        env = t.app_env(x.display, xdg)
        first = None
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                               stdout=subprocess.PIPE, text=True)
        try:
            env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().strip()
            first = subprocess.Popen([t.APP], env=dict(env, DMK_TEST_DUMP_AT_QUIT=dump),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            deadline = time.monotonic() + 60
            wm = wait_for("the first window", lambda: window_class(x.display), deadline)
            check(entry.get("StartupWMClass") in wm, f"StartupWMClass "
                  f"{entry.get('StartupWMClass')} is not the window's class {wm}")
            second = subprocess.run([t.APP, path], env=env, capture_output=True, text=True,
                                    timeout=60)
            check(second.returncode == 0, f"second: exit {second.returncode}: {second.stderr}")
            subprocess.run(["gdbus", "call", "--session", "--dest",
                            "io.github.drivemark.drivemark", "--object-path",
                            "/io/github/drivemark/drivemark", "--method",
                            "org.gtk.Actions.Activate", "quit", "[]", "{}"],
                           env=env, capture_output=True, timeout=30, check=True)
            _, ferr = first.communicate(timeout=60)
            check(first.returncode == 0, f"first: exit {first.returncode}: {ferr}")
        finally:
            if first and first.poll() is None:
                first.kill()
            bus.terminate()
            bus.wait(timeout=10)
        lines = [line.split("\t") for line in open(dump, encoding="utf-8").read().splitlines()]
        tabs = rows(lines, "tab")
        check(len(tabs) == 1 and tabs[0][1] == "b.csv", f"the first window's tabs: {tabs}")
        return f"b.csv opened in the running window (class {wm})"


TESTS = [test_quit_during_run_stops_and_quits, test_quit_during_run_cancel_keeps_it,
         test_run_ends_while_asked,
         test_quit_unsaved_cancel, test_quit_unsaved_discard,
         test_quit_unsaved_save_with_comment, test_comment_after_run_in_tab,
         test_ctrl_w_on_benchmark_tab_keeps_window, test_ctrl_w_closes_saved_tab,
         test_ctrl_w_unsaved_tab_asks, test_save_dialogs_open, test_lab_sustained_asks, test_big_benchmark_asks,
         test_long_lab_start_runs, test_small_run_does_not_ask, test_file_argument_opens_tab,
         test_second_instance_opens_in_first]

if __name__ == "__main__":
    sys.exit(t.main(TESTS))
