#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""View > Zoom reaching the charts and Save Results on the Compare tab
(issue 16): at 200 % the Compare chart's title is drawn taller on screen,
while the exported chart stays byte for byte the one of 100 %; Save
Results on Compare writes every ticked result (and only those) into the
folder chosen, each as its own CSV that opens again. With
$DMK_UI_SHOTS set, the screenshots are kept there to look at. Prints TAP."""

import os
import sys
import tempfile

import test_charts_ui as charts
import test_gui as t
from dmktest import TMP_BASE, check


def compare_at(paths, zoom, out):
    """The Compare tab of paths at zoom %: (chart row, export bytes)."""
    args = []
    for p in paths:
        args += ["--open", p]
    png = os.path.join(out, f"export-{zoom}.png")
    shot = os.path.join(out, f"zoom-{zoom}.png")
    rc, lines, err, _ = t.run_app(args + ["--compare", "--activate", f"zoom({zoom})",
                                          "--export-chart", png, "--screenshot", shot,
                                          "--dump-tiles", "--quit-when-done"])
    check(rc == 0, f"zoom {zoom}: exit {rc}; stderr: {err}")
    t.check_screenshot(shot)
    charts.keep(shot, f"compare-zoom-{zoom}.png")
    chart = t.rows(lines, "compare-chart")[0]
    check(len(chart) >= 8, f"no title height in the chart's row: {chart}")
    with open(png, "rb") as f:
        return chart, f.read()


def test_zoom_scales_chart_text():
    """200 %: the title at least 1.3 times as tall on screen (the whole 2x
    where the chart's area leaves room: ui/dmk-plot.c's area_zoom); the
    export unchanged."""
    with charts.Saved(2) as s, tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        normal, png100 = compare_at(s.paths, 100, out)
        zoomed, png200 = compare_at(s.paths, 200, out)
    h100, h200 = float(normal[7]), float(zoomed[7])
    check(h100 > 0, f"no title drawn at 100 %: {normal}")
    check(h200 >= 1.3 * h100, f"title {h100:.1f} px tall at 100 %, {h200:.1f} px at 200 %")
    check(png100 == png200, "the exported chart changed with the zoom")
    return f"title {h100:.1f} px at 100 %, {h200:.1f} px at 200 % (chart {zoomed[0]}x{zoomed[1]})"


def test_compare_saves_ticked_results():
    """Five results opened, the first four ticked (the Compare tab's
    default): Save Results writes those four into the folder, and they
    open again."""
    with charts.Saved(5) as s, tempfile.TemporaryDirectory(prefix="save-", dir=TMP_BASE) as d:
        args = []
        for p in s.paths:
            args += ["--open", p]
        rc, lines, err, _ = t.run_app(args + ["--compare", "--activate", f"save-ticked('{d}')",
                                              "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        picks = [r for r in t.rows(lines, "compare") if len(r) > 1]
        saved = sorted(os.listdir(d))
        status = t.field(lines, "status") or ""
        check(len(saved) == 4 and all(n.endswith(".csv") for n in saved),
              f"saved {saved}; status {status!r}; picks {picks}")
        check(status.startswith("Saved 4 results to"), f"status: {status!r}")
        rc, lines, err, _ = t.run_app(sum((["--open", os.path.join(d, n)] for n in saved), []) +
                                      ["--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"reopening: exit {rc}; stderr: {err}")
        tabs = t.rows(lines, "tab")
        check(len(tabs) == 4, f"reopened tabs: {tabs}")
        return f"{status}: {', '.join(saved)}"


TESTS = [test_zoom_scales_chart_text, test_compare_saves_ticked_results]

if __name__ == "__main__":
    sys.exit(t.main(TESTS))
