# SPDX-License-Identifier: GPL-3.0-or-later
"""The .xlsx writer (core/dmk-xlsx.c) on the test fixtures: xlsx-sample
writes each result as CSV and .xlsx, and the workbook is read straight
from its zip: its sheets (Run, then one per kind of row), headings that
name their units, every number a number cell equal to the CSV's, every
text a text cell, empty where the CSV is (a write test's read columns)."""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dmktest  # noqa: E402
import sheetcheck  # noqa: E402
from dmktest import check  # noqa: E402

SAMPLE = sys.argv[1]
DIR = None


def setup():
    global DIR
    os.makedirs(dmktest.TMP_BASE, exist_ok=True)
    DIR = tempfile.mkdtemp(prefix="dmk-xlsx-", dir=dmktest.TMP_BASE)
    r = subprocess.run([SAMPLE, DIR], capture_output=True, text=True)
    check(r.returncode == 0, r.stderr)


def load(base):
    csv = sheetcheck.MachineCsv(os.path.join(DIR, base + ".csv"))
    return csv, sheetcheck.read_xlsx(os.path.join(DIR, base + ".xlsx"))


def test_plain_cells():
    csv, book = load("plain")
    n, _ = sheetcheck.check_workbook(book, csv)
    check(list(book) == ["Run", "Tests", "Passes", "Samples"], f"sheets {list(book)}")
    check(n > 60, f"only {n} numbers")
    return f"plain: {n} numbers equal to the CSV's, sheets {list(book)}"


def test_headings_name_units():
    _, book = load("plain")
    h = sheetcheck.headings(book, "Tests")
    for want in ["Test", "Mode", "Block size (bytes)", "Speed (MB/s)", "IOPS",
                 "Mean latency (µs)", "p99.99 latency (µs)", "Best pass", "Read (MB/s)",
                 "Write (MB/s)", "Read share achieved (%)", "Read share asked (%)"]:
        check(want in h, f"{want!r} not in {h}")
    check("Pass" in sheetcheck.headings(book, "Passes"), "pass heading")
    check(sheetcheck.headings(book, "Samples") ==
          ["Test", "Mode", "Pattern", "Block size (bytes)", "Queue depth", "Threads",
           "Read share asked (%)", "Time (s)", "Speed (MB/s)", "IOPS", "Mean latency (µs)"],
          f"samples {sheetcheck.headings(book, 'Samples')}")
    run = {r[0][1]: r[1] if len(r) > 1 else None for r in book["Run"][1:]}
    check(run["Capacity (bytes)"] == ("n", 1000204886016.0), f"capacity {run}")
    check(run["Measure (s)"] == ("n", 5.0) and run["Warm-up (s)"] == ("n", 2.5), "times")


def test_text_stays_text():
    """What the CSV marks for pandas and spreadsheets ("'null", "'=SUM")
    is plain text in a workbook: a string cell, never run as a formula."""
    _, book = load("plain")
    run = {r[0][1]: r[1] if len(r) > 1 else None for r in book["Run"][1:]}
    check(run["Backend"] == ("s", "null"), f"backend {run['Backend']}")
    check(run["Comment"] == ("s", "null"), f"comment {run['Comment']}")
    check(run["Drive model"] == ("s", "=SUM(A1:A9)"), f"model {run['Drive model']}")
    check(run["Interface"] == ("s", "NA"), f"interface {run['Interface']}")


def test_lab_cells():
    csv, book = load("lab")
    n, _ = sheetcheck.check_workbook(book, csv)
    check(list(book) == ["Run", "Tests", "Passes", "Samples", "Findings"], f"{list(book)}")
    h = sheetcheck.headings(book, "Tests")
    # a write test: no read columns at all
    check("Write (MB/s)" in h and "Read (MB/s)" not in h, f"tests {h}")
    check("Temperature (°C)" in sheetcheck.headings(book, "Samples"), "temperature")
    f = sheetcheck.headings(book, "Findings")
    check(f[-3:] == ["Finding", "Value", "Unit"], f"findings {f}")
    temps = [r[sheetcheck.headings(book, "Samples").index("Temperature (°C)")]
             for r in book["Samples"][1:]]
    check(("n", -12.5) in temps and None in temps, "a negative and a missing temperature")
    return f"lab: {n} numbers equal to the CSV's, sheets {list(book)}"


if __name__ == "__main__":
    setup()
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals())))
