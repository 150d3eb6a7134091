#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's charts under Xvfb (issue 16, defects 2 and 8): twelve
opened results leave the window's width as it was (the compare table
scrolls sideways, four results ticked) and the chart its width; eight
fit a 1,024 px screen; the dark theme draws dark charts; results whose
numbers span decades get a log value axis. With $DMK_UI_SHOTS set, the
screenshots are kept there to look at. Prints TAP."""

import os
import shutil
import subprocess
import sys
import tempfile

import test_gui as t
from dmktest import TMP_BASE, check

QUICK = ["--backend", "null", "--size", "64MiB", "--passes", "1", "--measure", "0.2",
         "--warmup", "0", "--interval", "0"]
WIDE = 1024  # the narrowest screen the window must fit


class Saved:
    """n results saved by drivemark-cli on the null backend, R1.csv ... Rn.csv:
    four real runs (their speeds differ with the simulated latency), copied
    to make the rest, as a reviewer's folder of many runs."""

    def __init__(self, n):
        self.n = n

    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix="charts-", dir=TMP_BASE)
        target = os.path.join(self.dir, "target")
        os.mkdir(target)
        self.paths = []
        for i in range(1, self.n + 1):
            path = os.path.join(self.dir, f"R{i}.csv")
            if i <= 4:
                subprocess.run([t.CLI, "run", "--target", target, "--null-latency", str(20 * i),
                                "--csv", path, "--quiet"] + QUICK,
                               check=True, stdout=subprocess.DEVNULL, timeout=300)
            else:
                shutil.copyfile(self.paths[(i - 1) % 4], path)
            self.paths.append(path)
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)


def keep(shot, name):
    where = os.environ.get("DMK_UI_SHOTS")
    if where:
        os.makedirs(where, exist_ok=True)
        shutil.copyfile(shot, os.path.join(where, name))


def compare(paths, env=None, screen=None, name=None):
    """Opens paths on the Compare tab; returns (layout, chart, picks, lines)
    from the dump: layout [opened, ticked, window min, window natural,
    window width, table min, table natural], chart [width, height, theme,
    axis, background, x, y]."""
    args = []
    for p in paths:
        args += ["--open", p]
    with tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        shot = os.path.join(out, "shot.png")
        if screen:
            os.environ["DMK_XVFB_SCREEN"] = screen
        try:
            rc, lines, err, _ = t.run_app(args + ["--compare", "--screenshot", shot,
                                                  "--dump-tiles", "--quit-when-done"], env=env)
        finally:
            os.environ.pop("DMK_XVFB_SCREEN", None)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        t.check_screenshot(shot)
        if name:
            keep(shot, name)
        layout = [int(v) for v in t.rows(lines, "compare-layout")[0]]
        chart = t.rows(lines, "compare-chart")[0]
        chart = [int(chart[0]), int(chart[1])] + chart[2:5] + [int(chart[5]), int(chart[6])]
        pixels = t.png_pixels(shot)
        return layout, chart, t.rows(lines, "compare"), lines, pixels


def pixel(pixels, x, y):
    _, _, rows, bpp = pixels
    return tuple(rows[y][x * bpp:x * bpp + 3])


def luminance(rgb):
    return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255


def test_twelve_results_keep_the_width():
    with Saved(12) as s:
        few = compare(s.paths[:4])
        many = compare(s.paths, name="compare-12.png")
    (l4, c4, _, _, _), (l12, c12, picks, _, _) = few, many
    # The defect: each opened result added about 145 px to the minimum.
    check(l12[0] == 12 and l12[1] == 4, f"opened/ticked: {l12[:2]}")
    check([p[1] for p in picks] == ["R1.csv", "R2.csv", "R3.csv", "R4.csv"], f"ticked: {picks}")
    check(l12[2] < WIDE and l12[3] < WIDE,
          f"window min/natural width {l12[2]}/{l12[3]} px with 12 results")
    # Not growing with the results: the notebook's tab strip (its arrows
    # with 12 tabs) may make it a pixel or two smaller.
    check(l12[2] <= l4[2], f"window minimum {l4[2]} px with 4 results, {l12[2]} with 12")
    check(c12[0] >= 400 and c12[0] == c4[0],
          f"chart {c4[0]} px wide with 4 results, {c12[0]} with 12")
    check(c12[0] * 2 >= l12[4] * 0.9, f"chart {c12[0]} px of a {l12[4]} px window")
    return f"window min {l12[2]} px, natural {l12[3]} px; chart {c12[0]} px of {l12[4]}"


def test_eight_results_fit_1024():
    with Saved(8) as s:
        layout, chart, _, _, _ = compare(s.paths, screen=f"{WIDE}x768x24",
                                         name="compare-8-1024.png")
    check(layout[4] <= WIDE, f"window {layout[4]} px wide on a {WIDE} px screen")
    check(chart[0] >= 400, f"chart only {chart[0]} px wide")
    return f"window {layout[4]} px, chart {chart[0]}x{chart[1]}"


def test_dark_theme_dark_chart():
    with Saved(2) as s:
        light = compare(s.paths)
        dark = compare(s.paths, env={"GTK_THEME": "Adwaita:dark"}, name="dark.png")
    for what, (_, chart, _, _, pixels), theme in (("light", light, "light"),
                                                   ("dark", dark, "dark")):
        check(chart[2] == theme, f"{what} theme drew a {chart[2]} chart")
        # Inside the chart's corner, clear of its frame: the paper.
        paper = pixel(pixels, chart[5] + 4, chart[6] + 4)
        lum = luminance(paper)
        check(lum < 0.25 if theme == "dark" else lum > 0.95,
              f"{what} chart background {paper} (luminance {lum:.2f})")
    return f"dark chart paper {dark[1][4]}, light {light[1][4]}"


def test_log_axis_where_values_span_decades():
    with Saved(2) as s:
        _, chart, _, lines, _ = compare(s.paths, name="log.png")
    # The null backend's SEQ1M Q8T1 is thousands of times its RND4K Q1T1.
    check(chart[3] == "log", f"compare chart axis: {chart[3]}")
    tabs = [r for r in lines if r[0].endswith("-chart") and r[0].startswith("tab-")]
    check(len(tabs) == 2 and all(r[4] == "log" for r in tabs), f"tab charts: {tabs}")
    return "log value axis on the compare chart and both tabs"


TESTS = [test_twelve_results_keep_the_width, test_eight_results_fit_1024,
         test_dark_theme_dark_chart, test_log_axis_where_values_span_decades]


if __name__ == "__main__":
    sys.exit(t.main(TESTS))
