# SPDX-License-Identifier: GPL-3.0-or-later
"""The window and spreadsheets: Save Results (and --json) to a name
ending in .xlsx writes the workbook, every cell equal to the CSV of the
same result; a CSV of result files joined with cat opens a tab per run.
The window under its own Xvfb (tests/ui/test_gui.py's run_app).

    test_window.py DRIVEMARK"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "ui"))
sys.path.insert(0, HERE)
import dmktest  # noqa: E402
import sheetcheck  # noqa: E402
from dmktest import check  # noqa: E402
from test_gui import CLI, rows, run_app  # noqa: E402


class Dir(dmktest.Dir):
    prefix = "ui-sheet-"


def null_run(d, name):
    path = os.path.join(d, name)
    r = subprocess.run([CLI, "run", "--target", d, "--backend", "null", "--size", "16MiB",
                        "--test", "SEQ1M Q8T1", "--passes", "2", "--measure", "0.2",
                        "--warmup", "0", "--timeline", "0.1", "--quiet", "--csv", path],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, r.stderr)
    return path


def test_save_xlsx():
    with Dir() as d:
        csv = null_run(d, "r.csv")
        book = os.path.join(d, "r.xlsx")
        rc, _, err, _ = run_app(["--open", csv, "--json", book, "--quit-when-done"])
        check(rc == 0 and os.path.exists(book), f"exit {rc}: {err}")
        n, _ = sheetcheck.check_workbook(sheetcheck.read_xlsx(book),
                                         sheetcheck.MachineCsv(csv))
        return f"{n} numbers of the saved .xlsx equal to the CSV's"


def test_joined_files_open_a_tab_each():
    with Dir() as d:
        a, b = null_run(d, "a.csv"), null_run(d, "b.csv")
        joined = os.path.join(d, "joined.csv")
        with open(joined, "wb") as f:
            f.write(open(a, "rb").read() + open(b, "rb").read())
        rc, lines, err, _ = run_app(["--open", joined, "--dump-tiles", "--quit-when-done"])
        tabs = [t[1] for t in rows(lines, "tab")]
        check(rc == 0 and tabs == ["joined.csv (run 1)", "joined.csv (run 2)"],
              f"exit {rc}, tabs {tabs}: {err}")


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals())))
