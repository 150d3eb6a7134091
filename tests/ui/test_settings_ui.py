#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What CrystalDiskMark's and KDiskMark's users look for in the window:
the Settings dialog edits a tile's test (type, block size, queues,
threads), the mix ratio and the times; the tile's label and the run use
it (null backend), it is saved across a restart and Reset to Default
puts the default back; Settings > Measure Time shows the value in force
(--measure 1); the size list reaches 64 GiB; File > Save Text writes what
Copy gives; Save Image is a PNG of the tiles and their context; the dark
theme darkens the window; 200 % zoom makes the text bigger; the Keyboard
Shortcuts window lists the accelerators the application has; Help
points at the installed README. Prints TAP.

    test_settings_ui.py DRIVEMARK"""

import os
import tempfile

import test_gui as t
from test_gui import TMP_BASE, Dir, check, check_screenshot, field, png_pixels, rows

NULL_QUICK = ["--backend", "null", "--size", "64MiB", "--passes", "1", "--measure", "0.2",
              "--warmup", "0", "--interval", "0"]
DEFAULT_TESTS = ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"]


def row_names(lines):
    """The tiles' rows in order, as their labels (and the run buttons) say."""
    names = []
    for r in rows(lines, "tile"):
        if r[0] not in names:
            names.append(r[0])
    return names


class Config:
    """A private GSettings keyfile, as a user's ~/.config would hold it."""

    def __enter__(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="cfg-", dir=TMP_BASE)
        folder = os.path.join(self.tmp.name, "glib-2.0", "settings")
        os.makedirs(folder)
        self.keyfile = os.path.join(folder, "keyfile")
        self.env = {"GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": self.tmp.name}
        return self

    def text(self):
        return open(self.keyfile).read() if os.path.exists(self.keyfile) else ""

    def __exit__(self, *exc):
        self.tmp.cleanup()


def test_dialog_edits_tile_and_run():
    """Row 3 set to RND4K Q32T16 and the mix ratio to 50 % in the dialog:
    the row's label says so, the Mix column says its ratio, and the run
    measures that test (16 threads of 32 requests) at that share."""
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        js = os.path.join(out, "r.json")
        rc, lines, err, _ = t.run_app(["--target", d, "--mix", "--set-test", "3=RND4K Q32T16",
                                       "--set-test", "mix=50"] + NULL_QUICK + [
            "--autorun", "--json", js, "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        names = row_names(lines)
        want = ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T16", "RND4K Q1T1"]
        check(names == want, f"tile rows {names}, expected {want}")
        check("Mix R50%/W50% [MB/s]" in [r[0] for r in rows(lines, "column")],
              f"columns: {rows(lines, 'column')}")
        result = t.json.load(open(js))
        check(result["profile"] == "custom", f"profile {result['profile']!r}")
        ran = {(x["test"], x["mode"]): x for x in result["results"]}
        check(set(ran) == {(n, m) for n in want for m in ("read", "write", "mix")},
              f"tests run: {sorted(ran)}")
        q32t16 = ran[("RND4K Q32T16", "read")]
        check((q32t16["block_size"], q32t16["queue_depth"], q32t16["threads"]) == (4096, 32, 16),
              f"RND4K Q32T16 ran as {q32t16}")
        check(all(x["read_share"] == 50 for k, x in ran.items() if k[1] == "mix"),
              f"mix shares: {[x['read_share'] for k, x in ran.items() if k[1] == 'mix']}")
        measured = {(r[0], r[1]) for r in rows(lines, "tile") if r[3] == "measured"}
        check(measured == set(ran), f"measured tiles {sorted(measured)}")
        t.check_empty(d)
        return f"rows {names}; {len(ran)} tests run, mix at 50 %"


def test_dialog_saved_and_reset():
    """The dialog's tests outlive a restart (the keyfile holds them);
    Reset to Default brings back the default profile."""
    with Config() as cfg:
        rc, lines, err, _ = t.run_app(["--set-test", "1=SEQ128K Q32T1", "--set-test",
                                       "4=RND8K Q4T2", "--dump-tiles", "--quit-when-done"],
                                      env=cfg.env)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        saved = cfg.text()
        check("profile='custom'" in saved and
              "custom-tests=['SEQ128K Q32T1', 'SEQ1M Q1T1', 'RND4K Q32T1', 'RND8K Q4T2']" in saved,
              f"the dialog's tests were not saved:\n{saved}")
        rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done"], env=cfg.env)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        after = row_names(lines)
        check(after == ["SEQ128K Q32T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND8K Q4T2"],
              f"after a restart the rows are {after}")
        rc, lines, err, _ = t.run_app(["--settings-reset", "--dump-tiles", "--quit-when-done"],
                                      env=cfg.env)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(row_names(lines) == DEFAULT_TESTS, f"after Reset: {row_names(lines)}")
        check("profile='default'" in cfg.text(), f"Reset did not save:\n{cfg.text()}")
        return f"saved {after}; reset to {DEFAULT_TESTS}"


def test_dialog_screenshot():
    """The dialog opens (no GTK warning: they are fatal here) and draws."""
    with tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        shot = os.path.join(out, "settings.png")
        rc, lines, err, _ = t.run_app(["--activate", "settings", "--screenshot", shot,
                                       "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(field(lines, "dialog-open") == "settings", "the Settings dialog is not open")
        w, h = check_screenshot(shot)
        return f"dialog {w}x{h}"


def ticked(lines, menu):
    return [r[1] for r in rows(lines, "menu") if r[0] == menu and r[2] == "ticked"]


def test_measure_menu_shows_value_in_force():
    """--measure 1 is in force for the session: the menu ticks "1 s", not
    the setting's 5 s; picking 10 s in the menu makes it the setting's."""
    rc, lines, err, _ = t.run_app(["--measure", "1", "--dump-tiles", "--quit-when-done"])
    check(rc == 0, f"exit {rc}; stderr: {err}")
    check(ticked(lines, "measure-time") == ["1 s (command line)"],
          f"--measure 1: ticked {ticked(lines, 'measure-time')}")
    rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done"])
    check(ticked(lines, "measure-time") == ["5 s"], f"default: {ticked(lines, 'measure-time')}")
    check(ticked(lines, "interval-time") == ["5 s"], f"interval: {ticked(lines, 'interval-time')}")
    rc, lines, err, _ = t.run_app(["--measure", "1", "--activate", "measure-time(10.0)",
                                   "--dump-tiles", "--quit-when-done"])
    check(rc == 0, f"exit {rc}; stderr: {err}")
    check(ticked(lines, "measure-time") == ["10 s"], f"picked 10 s: {ticked(lines, 'measure-time')}")
    items = [r[1] for r in rows(lines, "menu") if r[0] == "measure-time"]
    check("1 s (command line)" not in items, f"the override stayed: {items}")
    return "1 s (command line) ticked, then 10 s"


def test_size_list_reaches_64gib():
    """CrystalDiskMark's sizes, 16 MiB to 64 GiB, as the CLI takes them."""
    rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done"])
    check(rc == 0, f"exit {rc}; stderr: {err}")
    sizes = [r[0] for r in rows(lines, "size-choice")]
    want = [f"{m}MiB" for m in (16, 32, 64, 128, 256, 512)] + \
        [f"{g}GiB" for g in (1, 2, 4, 8, 16, 32, 64)]
    check(sizes == want, f"sizes {sizes}")
    cli = t.subprocess.run([t.CLI, "--help"], capture_output=True, text=True, timeout=30)
    check("16MiB-64GiB" in cli.stdout, f"the CLI's --help does not say 64GiB: {cli.stdout}")
    return f"{len(sizes)} sizes, {sizes[0]} to {sizes[-1]}"


def test_save_text_equals_copy():
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        txt = os.path.join(out, "result.txt")
        rc, lines, err, _ = t.run_app(["--target", d, "--profile", "demo", "--comment", "saved"] +
                                      NULL_QUICK + ["--autorun", "--save-text", txt,
                                                    "--dump-clipboard", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        copied = "\n".join(f[1] if len(f) > 1 else "" for f in lines if f[0] == "clipboard")
        saved = open(txt).read()
        check(saved == copied, f"Save Text differs from Copy:\n{saved}\n---\n{copied}")
        check("[Read]" in saved and "Comment: saved" in saved, f"not the text result:\n{saved}")
        check(os.listdir(out) == ["result.txt"], f"left in the folder: {os.listdir(out)}")
        t.check_empty(d)
        return f"{len(saved)} bytes, the same as the clipboard"


def test_save_image_png():
    """A PNG as wide as the Benchmark tab, taller by the context line, with
    the tiles drawn (many colours, and ink in the tiles' band)."""
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        png = os.path.join(out, "tiles.png")
        rc, lines, err, _ = t.run_app(["--target", d, "--profile", "demo"] + NULL_QUICK + [
            "--autorun", "--save-image", png, "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        page = [int(v) for v in rows(lines, "benchmark-page")[0]]
        w, h = check_screenshot(png)
        check(w == page[0] and page[1] + 10 < h < page[1] + 200,
              f"image {w}x{h} for a {page[0]}x{page[1]} tab")
        _, _, pixels, bpp = png_pixels(png)
        band = pixels[page[1] // 4: page[1] // 2]
        dark = sum(1 for row in band for x in range(0, w * bpp, bpp) if max(row[x:x + 3]) < 80)
        check(dark > 200, f"no text in the tiles' band ({dark} dark pixels)")
        context = pixels[page[1] + 2:]
        ink = sum(1 for row in context for x in range(0, w * bpp, bpp) if max(row[x:x + 3]) < 120)
        check(ink > 100, f"no context line under the tiles ({ink} dark pixels)")
        t.check_empty(d)
        return f"{w}x{h} PNG; {dark} dark pixels in the tiles, {ink} in the context line"


def background(path):
    """The mean grey of the PNG's bottom-left corner (the status line)."""
    w, h, pixels, bpp = png_pixels(path)
    vals = [sum(pixels[y][x * bpp:x * bpp + 3]) / 3 for y in range(h - 6, h - 2)
            for x in range(2, 40)]
    return sum(vals) / len(vals)


def test_theme_dark():
    with Config() as cfg, tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        light, dark = os.path.join(out, "light.png"), os.path.join(out, "dark.png")
        rc, lines, err, _ = t.run_app(["--screenshot", light, "--dump-tiles", "--quit-when-done"],
                                      env=cfg.env)
        check(rc == 0 and rows(lines, "theme") == [["system", "light"]],
              f"exit {rc}, theme {rows(lines, 'theme')}; stderr: {err}")
        rc, lines, err, _ = t.run_app(["--activate", "theme('dark')", "--screenshot", dark,
                                       "--dump-tiles", "--quit-when-done"], env=cfg.env)
        check(rc == 0 and rows(lines, "theme") == [["dark", "dark"]],
              f"exit {rc}, theme {rows(lines, 'theme')}; stderr: {err}")
        check("theme='dark'" in cfg.text(), f"the theme was not saved:\n{cfg.text()}")
        lo, hi = background(dark), background(light)
        check(lo < 100 < hi, f"background grey {lo:.0f} dark, {hi:.0f} light")
        # Saved: the next start is dark from its first frame.
        rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done"], env=cfg.env)
        check(rows(lines, "theme") == [["dark", "dark"]], f"restart: {rows(lines, 'theme')}")
        return f"background grey {hi:.0f} light, {lo:.0f} dark"


def test_zoom_200():
    """200 %: a column header (one line of text) and a tile at least 1.6
    times as tall; saved, so the next start is zoomed."""
    with Config() as cfg:
        rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done"], env=cfg.env)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        z100 = [int(v) for v in rows(lines, "zoom")[0]]
        rc, lines, err, _ = t.run_app(["--activate", "zoom(200)", "--dump-tiles",
                                       "--quit-when-done"], env=cfg.env)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        z200 = [int(v) for v in rows(lines, "zoom")[0]]
        check(z100[0] == 100 and z200[0] == 200, f"zoom {z100} then {z200}")
        check(z200[1] >= 1.6 * z100[1] and z200[2] >= 1.4 * z100[2],
              f"header {z100[1]} -> {z200[1]} px, tile {z100[2]} -> {z200[2]} px")
        check("zoom=200" in cfg.text(), f"the zoom was not saved:\n{cfg.text()}")
        rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done"], env=cfg.env)
        again = [int(v) for v in rows(lines, "zoom")[0]]
        check(again[0] == 200 and again[1] >= 1.6 * z100[1], f"restart: {again}")
        return f"header {z100[1]} -> {z200[1]} px, tile {z100[2]} -> {z200[2]} px"


def test_shortcuts_window():
    """The window lists exactly the accelerators the application has set
    (one table sets both), and opens without a GTK warning."""
    rc, lines, err, _ = t.run_app(["--activate", "shortcuts", "--dump-tiles", "--quit-when-done"])
    check(rc == 0, f"exit {rc}; stderr: {err}")
    accels = {r[1] for r in rows(lines, "accel")}
    listed = {r[0] for r in rows(lines, "shortcut")}
    check(len(accels) >= 20 and listed == accels,
          f"shortcuts window {sorted(listed)} vs accelerators {sorted(accels)}")
    by_action = {r[0]: r[1] for r in rows(lines, "accel")}
    for action, key in (("win.settings", "<Control>comma"), ("win.save-text", "<Shift><Control>s"),
                        ("win.shortcuts", "<Control>question"), ("app.help", "F1")):
        check(by_action.get(action) == key, f"{action}: {by_action.get(action)}")
    return f"{len(listed)} shortcuts listed, as the application's accelerators"


def test_help_opens_installed_readme():
    rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done"])
    check(rc == 0, f"exit {rc}; stderr: {err}")
    uri = field(lines, "help-uri")
    check(uri and uri.startswith("file:///") and uri.endswith("/share/doc/drivemark/README.md"),
          f"Help opens {uri}")
    meson = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                              "meson.build")).read()
    check("install_data('README.md', install_dir: docdir)" in meson and
          "docdir = get_option('datadir') / 'doc' / meson.project_name()" in meson,
          "meson.build no longer installs README.md where Help looks")
    return uri


def test_compare_copy_and_save_text():
    """On the Compare tab Copy and Save Text give its table, tab-separated:
    both results and each test's row with the difference."""
    with t.Results() as r, tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        txt = os.path.join(out, "compare.txt")
        rc, lines, err, _ = t.run_app(["--open", r.a, "--open", r.b, "--compare", "--save-text",
                                       txt, "--dump-tiles", "--dump-clipboard",
                                       "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(field(lines, "page") == "Compare", f"page shown: {field(lines, 'page')}")
        # The dump's lines are split at tabs: the table's cells join again.
        copied = "\n".join("\t".join(f[1:]) for f in lines if f[0] == "clipboard")
        saved = open(txt).read()
        check(saved == copied, f"Save Text differs from Copy:\n{saved}\n---\n{copied}")
        text = saved.splitlines()
        check(text[0] == "Drivemark comparison: MB/s" and text[1].startswith("[1]\tA.csv\t") and
              text[2].startswith("[2]\tB.csv\t") and
              text[3] == "Test\tMode\t[1]\t[2]\t[2] vs [1]", f"heading:\n{saved}")
        table = rows(lines, "compare-row")
        check(text[4:] == ["\t".join(row) for row in table], f"rows:\n{saved}\nvs {table}")
        return f"{len(table)} rows copied and saved"


def test_save_dialogs_open():
    """Save Text and Save Image build their file dialogs without a warning."""
    with t.Results() as r:
        rc, lines, err, _ = t.run_app(["--open", r.a, "--activate", "save-text", "--activate",
                                       "save-image", "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        mine = [line for line in err.splitlines() if line.startswith("drivemark:")]
        check(not mine, f"an action was refused: {mine}")
        return "2 dialogs opened"


def test_language_menu():
    """View > Language offers System, English and each built catalog in its
    own name; choosing Русский saves it and says it applies on the next
    start, which is in Russian (the column headers, the menu's System);
    English back gives English texts under the same locale."""
    catalogs = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(t.APP))), "po")
    with Config() as cfg:
        env = dict(cfg.env, DMK_TEST_LOCALEDIR=catalogs)
        rc, lines, err, _ = t.run_app(["--activate", "language('ru')", "--dump-tiles",
                                       "--quit-when-done"], env=env)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        choices = [r[:2] for r in rows(lines, "language-choice")]
        want = [["system", "System"], ["en", "English"], ["cs", "Čeština"], ["de", "Deutsch"],
                ["ru", "Русский"]]
        check(choices == want, f"Language menu {choices}, expected {want}")
        check(rows(lines, "language") == [["ru", "system"]], f"language {rows(lines, 'language')}")
        status = field(lines, "status") or ""
        check("Русский" in status and "starts again" in status, f"status line: {status!r}")
        check("language='ru'" in cfg.text(), f"the language was not saved:\n{cfg.text()}")
        rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done"], env=env)
        columns = [r[0] for r in rows(lines, "column")]
        check(rc == 0 and rows(lines, "language") == [["ru", "ru"]],
              f"restart: exit {rc}, language {rows(lines, 'language')}; stderr: {err}")
        check(columns[:2] == ["Чтение [MB/s]", "Запись [MB/s]"], f"columns in Russian: {columns}")
        check(["system", "Системный"] in [r[:2] for r in rows(lines, "language-choice")],
              f"menu: {rows(lines, 'language-choice')}")
        rc, lines, err, _ = t.run_app(["--activate", "language('en')", "--dump-tiles",
                                       "--quit-when-done"], env=env)
        rc, lines, err, _ = t.run_app(["--dump-tiles", "--quit-when-done"], env=env)
        columns = [r[0] for r in rows(lines, "column")]
        check(rows(lines, "language") == [["en", "en"]] and columns[0] == "Read [MB/s]",
              f"English again: language {rows(lines, 'language')}, columns {columns}")
        return f"columns in Russian, then {columns[0]!r}"


TESTS = [test_dialog_edits_tile_and_run, test_dialog_saved_and_reset, test_dialog_screenshot,
         test_measure_menu_shows_value_in_force, test_size_list_reaches_64gib,
         test_save_text_equals_copy, test_save_image_png, test_theme_dark, test_language_menu,
         test_zoom_200,
         test_shortcuts_window, test_help_opens_installed_readme, test_compare_copy_and_save_text,
         test_save_dialogs_open]


if __name__ == "__main__":
    raise SystemExit(t.main(TESTS))
