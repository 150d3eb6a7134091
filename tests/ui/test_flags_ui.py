#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Honest numbers in the window: after a run every flagged tile shows its
badge under the number (here the null backend with no latency: a 64 MiB
file is "peak", and the engine cannot keep 32 requests in flight on a
drive that completes at once, so the QD32 tiles also say "QD n of 32");
the same flags show on the result reopened from its CSV as a tab; and a
result whose file system had copy-on-write shows the run's note above
its tiles; a mixed test whose reads were off the asked share says what
they were. Prints TAP.

    test_flags_ui.py DRIVEMARK"""

import csv
import os
import re
import sys

import test_gui as t
from test_gui import Dir, check, check_screenshot, rows

QUICK = ["--size", "64MiB", "--passes", "1", "--measure", "0.5", "--warmup", "0",
         "--interval", "0"]


def test_tiles_show_flags():
    with Dir() as d:
        shot = os.path.join(d, "flags.png")
        rc, lines, err, _ = t.run_app(["--target", d, "--backend", "null", "--autorun",
                                       "--quit-when-done", "--dump-tiles", "--screenshot",
                                       shot] + QUICK)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        measured = [r for r in rows(lines, "tile") if r[3] == "measured"]
        flags = {(r[0], r[1]): r[2] for r in rows(lines, "tile-flags")}
        check(len(measured) == 8, f"tiles: {measured}")
        for name, mode, *_ in measured:
            check(flags.get((name, mode), "").startswith("peak"), f"{name} {mode}: {flags}")
        q32 = flags.get(("RND4K Q32T1", "read"), "")
        # "paused" joins when the machine stalled the run (a busy CI host):
        # the flag says so honestly, and it is not what this test is about.
        check(re.fullmatch(r"peak · QD \d+\.\d of 32( · paused)?", q32),
              f"RND4K Q32T1 read: {q32!r}")
        check(rows(lines, "flags-note") == [], "a CoW note on the null backend")
        check_screenshot(shot)
        return f"RND4K Q32T1 read: {q32}"


def cow_result(path):
    """A saved result of a run on btrfs with copy-on-write left on and an
    achieved queue depth of 8.5 for the asked 32: made from a real CSV
    of the null backend, its schema-4 cells changed."""
    rc = t.subprocess.run([t.CLI, "run", "--backend", "null", "--null-latency", "200",
                           "--test", "RND4K Q32T1", "--mode", "read", "--target",
                           os.path.dirname(path), "--csv", path, "--quiet"] + QUICK,
                          capture_output=True, text=True, timeout=60)
    check(rc.returncode == 0, rc.stderr)
    text = open(path, encoding="utf-8", newline="").read()
    check(text.count(',"none","none","",') >= 2, "no cow/compression cells")
    text = text.replace(',"none","none","",', ',"active","none","",')
    # the null target's file system, "null", is marked for pandas (schema 7)
    text = text.replace(',"\'null","","Null backend', ',"btrfs","","Null backend')
    text = re.sub(r',[0-9.]+,"peak[a-z_ ]*"', ',8.50,"peak low_qd"', text)  # whatever the load gave
    check('"peak low_qd"' in text, "the CSV has no flags cell to change")
    open(path, "w", encoding="utf-8", newline="").write(text)


def test_reopened_result_shows_flags():
    with Dir() as d:
        csv_path = os.path.join(d, "cow.csv")
        cow_result(csv_path)
        shot = os.path.join(d, "tab.png")
        rc, lines, err, _ = t.run_app(["--open", csv_path, "--quit-when-done", "--dump-tiles",
                                       "--screenshot", shot])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        flags = rows(lines, "tab-tile-flags")
        check(flags == [["1", "RND4K Q32T1", "read", "peak · QD 8.5 of 32"]], f"{flags}")
        note = rows(lines, "tab-flags-note")
        check(note and note[0][1].startswith("btrfs copy-on-write: active, the numbers include"),
              f"{note}")
        check_screenshot(shot)
        return flags[0][3]


def set_flags(text, flags):
    """A null-backend run's CSV with its one flags cell set to `flags`.
    The run leaves "peak" (a small file), and on a busy machine perhaps
    "low_qd" too (the null backend's requests may complete before the
    next is queued): replaced whole, so the tile's words do not depend on
    the load."""
    cells = re.findall(r',"peak[a-z_ ]*"', text)
    check(len(cells) == 1, f"the CSV's flags cells: {cells}")
    return text.replace(cells[0], f',"{flags}"')


def test_reopened_storage_flags():
    """A result flagged ram_backed (a RAM-backed --device) and one flagged
    storage_unknown: the reopened tab's tile says "RAM-backed" and "may be
    RAM" (issue 13, made from a real null-backend CSV, its flags changed);
    one flagged cached (a buffered loop device) says "cached"."""
    with Dir() as d:
        for flag, marker in [("ram_backed", "RAM-backed"), ("storage_unknown", "may be RAM"),
                             ("cached", "cached")]:
            path = os.path.join(d, f"{flag}.csv")
            rc = t.subprocess.run([t.CLI, "run", "--backend", "null", "--test", "SEQ1M Q1T1",
                                   "--mode", "read", "--target", d, "--csv", path, "--quiet"] +
                                  QUICK, capture_output=True, text=True, timeout=60)
            check(rc.returncode == 0, rc.stderr)
            text = open(path, encoding="utf-8", newline="").read()
            text = set_flags(text, f"peak {flag}")
            open(path, "w", encoding="utf-8", newline="").write(text)
            rc, lines, err, _ = t.run_app(["--open", path, "--quit-when-done", "--dump-tiles"])
            check(rc == 0, f"exit {rc}; stderr: {err}")
            flags = rows(lines, "tab-tile-flags")
            check(flags == [["1", "SEQ1M Q1T1", "read", f"peak · {marker}"]], f"{flags}")


def set_cell(line, index, value):
    """The CSV line with its cell `index` (0-based) replaced; quoted
    cells, commas and "" inside, are skipped whole."""
    field, quoted, start = 0, False, 0
    for i, ch in enumerate(line + ","):
        if ch == '"':
            quoted = not quoted
        elif ch == "," and not quoted:
            if field == index:
                return line[:start] + value + line[i:]
            field, start = field + 1, i + 1
    raise AssertionError(f"no cell {index}")


def test_reopened_mixed_share():
    """A mixed test whose reads were 72.1 % where 70 % was asked (issue 18:
    the file keeps the achieved share, here changed in a real null-backend
    CSV): the reopened tab's Mix tile says so; at 70.000 it says nothing."""
    with Dir() as d:
        path = os.path.join(d, "mix.csv")
        rc = t.subprocess.run([t.CLI, "run", "--backend", "null", "--test", "SEQ1M Q1T1",
                               "--mode", "mix", "--target", d, "--csv", path, "--quiet"] +
                              QUICK, capture_output=True, text=True, timeout=60)
        check(rc.returncode == 0, rc.stderr)
        text = open(path, encoding="utf-8", newline="").read()
        text = set_flags(text, "peak")
        lines = text.split("\r\n")
        col = lines[0].split(",").index("read_share_achieved")
        shares = [next(csv.reader([x]))[col] for x in lines[1:] if x]
        # held within an I/O or two of the asked share, however many ran
        check(shares and all(abs(float(x) - 70) < 1 for x in shares), f"achieved {shares}")
        lines = lines[:1] + [set_cell(x, col, "70.000") if x else x for x in lines[1:]]
        open(path, "w", encoding="utf-8", newline="").write("\r\n".join(lines))
        rc, out, err, _ = t.run_app(["--open", path, "--quit-when-done", "--dump-tiles"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        flags = rows(out, "tab-tile-flags")
        check(flags == [["1", "SEQ1M Q1T1", "mix", "peak"]], f"{flags}")
        lines = lines[:1] + [set_cell(x, col, "72.100") if x else x for x in lines[1:]]
        open(path, "w", encoding="utf-8", newline="").write("\r\n".join(lines))
        rc, out, err, _ = t.run_app(["--open", path, "--quit-when-done", "--dump-tiles"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        flags = rows(out, "tab-tile-flags")
        check(flags == [["1", "SEQ1M Q1T1", "mix", "peak · read 72.1 % measured"]], f"{flags}")
        return flags[0][3]


TESTS = [test_tiles_show_flags, test_reopened_result_shows_flags, test_reopened_storage_flags,
         test_reopened_mixed_share]

if __name__ == "__main__":
    sys.exit(t.main(TESTS))
