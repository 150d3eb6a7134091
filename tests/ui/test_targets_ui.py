#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Targets that cannot work, error bars and the window's layout under Xvfb
(issue 16, defects 7 and 8): a missing folder or a file given as the
target is shown as unusable with the OS's reason and Run is off, saying
why; an error bar goes when its cause is fixed (a usable folder chosen);
a bad result file's message is not shown selected. With $DMK_UI_SHOTS
set, the screenshots are kept there to look at. Prints TAP."""

import os
import shutil
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


TESTS = [test_missing_folder_refused, test_file_as_target_refused, test_usable_folder_runs,
         test_target_error_cleared_when_fixed, test_bad_csv_message_not_selected]


if __name__ == "__main__":
    sys.exit(t.main(TESTS))
