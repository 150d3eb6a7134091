#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""drivemark.exe and drivemark-cli.exe, cross-built against the Windows
GTK stack (platform/windows/stack), under Wine in Xvfb: the window runs
the null backend and a real folder with --autorun, its tiles say what its
JSON says and its screenshot is a picture; a result saved as CSV opens
again with the same numbers; the opened result's chart exports as PNG,
SVG and PDF; the Lab and Compare tabs draw; drivemark-cli.exe has show,
chart and --csv. A Wine prefix of its own in the build dir, with Tahoma
registered (GTK asks Windows for the system font, and Pango's DirectWrite
sees only registered fonts). Prints TAP.

The zip's window in Russian (LANGUAGE) and in Czech chosen from View >
Language, through our libintl-8.dll (platform/windows/intl).

  test_gui_wine.py DRIVEMARK_EXE DRIVEMARK_CLI_EXE SCHEMA_DIR STACK_DLL_DIR INTL_DLL_DIR"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ui"))
os.environ.setdefault("DMK_DRIVEMARK", sys.argv[1])
import dmktest  # noqa: E402
from dmktest import TMP_BASE, Skip, check  # noqa: E402
import test_gui as ui  # noqa: E402  (the PNG, tile and CSV checks of the Linux window's tests)

APP, CLI, SCHEMAS, DLLS, INTL = (os.path.abspath(a) for a in sys.argv[1:6])
BUILD = os.path.dirname(os.path.dirname(APP))
PREFIX = os.path.join(BUILD, "wine-gui-prefix")
# Where the screenshots a person looks at are kept (Benchmark, Lab, Compare).
SHOTS = os.path.join(BUILD, "wine-shots")
QUICK = ui.QUICK
TAHOMA = "/usr/share/wine/fonts/tahoma.ttf"
FONTS_KEY = r"HKLM\Software\Microsoft\Windows NT\CurrentVersion\Fonts"


def win(path):
    """A Linux path as the Windows program sees it (Wine's Z: is /)."""
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def wine_env(display=None):
    env = dict(os.environ)
    for k in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(k, None)
    env.update({
        "WINEPREFIX": PREFIX,
        "WINEDEBUG": "-all",
        "WINEDLLOVERRIDES": "mscoree,mshtml=",  # no Mono or Gecko prompt
        # OpenGL fails under Wine in Xvfb; GTK would fall back to Cairo on
        # its own, after a try that costs time and warnings.
        "GSK_RENDERER": "cairo",
        "GSETTINGS_SCHEMA_DIR": win(SCHEMAS),
        # Our libintl-8.dll before the stack's stub of that name.
        "WINEPATH": win(INTL) + ";" + win(DLLS),
        "GSETTINGS_BACKEND": "memory",
        "LC_ALL": "C.UTF-8",
    })
    if display:
        env["DISPLAY"] = display
    return env


def need_wine():
    for tool in ("wine", "wineboot", "wineserver"):
        if not shutil.which(tool):
            raise Skip(f"{tool} is not installed")
    if not shutil.which("Xvfb"):
        raise Skip("Xvfb is not installed")
    if not os.path.exists(TAHOMA):
        raise Skip(f"{TAHOMA} is missing (Debian package fonts-wine)")


def make_prefix():
    """The test's Wine prefix, made once: wineboot, then Tahoma copied into
    C:\\windows\\Fonts and registered."""
    stamp = os.path.join(PREFIX, ".dmk-fonts")
    if os.path.exists(stamp):
        return
    env = wine_env()
    subprocess.run(["wineboot", "-i"], env=env, capture_output=True, timeout=300, check=True)
    subprocess.run(["wineserver", "-w"], env=env, timeout=300, check=True)
    fonts = os.path.join(PREFIX, "drive_c", "windows", "Fonts")
    os.makedirs(fonts, exist_ok=True)
    shutil.copy(TAHOMA, fonts)
    subprocess.run(["wine", "reg", "add", FONTS_KEY, "/v", "Tahoma (TrueType)", "/t", "REG_SZ",
                    "/d", "tahoma.ttf", "/f"], env=env, capture_output=True, timeout=120,
                   check=True)
    subprocess.run(["wineserver", "-w"], env=env, timeout=300, check=True)
    open(stamp, "w").close()


_session = []


def start_wine():
    """One X server and one persistent Wine server for the whole script,
    and Wine's own services (explorer.exe holds the desktop window) started
    on /dev/null with that display: started by the first captured run,
    they would hold its pipes open and the run would never seem to end;
    started without a display, no later window could be made."""
    need_wine()
    if _session:
        return _session[0].display
    make_prefix()
    x = ui.Xvfb().__enter__()
    _session.append(x)
    env = wine_env(x.display)
    subprocess.run(["wineserver", "-p"], env=env, timeout=60, check=True)
    subprocess.run(["wine", "cmd.exe", "/c", "exit"], env=env, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    return x.display


def stop_wine():
    if _session:
        subprocess.run(["wineserver", "-k"], env=wine_env(), timeout=60)
        _session[0].__exit__(None, None, None)


def run_gui(args, timeout=240):
    """drivemark.exe ARGS on a fresh X server: (rc, stdout as fields, stderr)."""
    display = start_wine()
    p = subprocess.run(["wine", APP] + args, env=wine_env(display), capture_output=True,
                       text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    lines = [line.rstrip("\r").split("\t") for line in p.stdout.splitlines() if line.strip()]
    return p.returncode, lines, p.stderr


def run_cli(args, timeout=180):
    display = start_wine()
    return subprocess.run(["wine", CLI] + args, env=wine_env(display), capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def keep_shot(path, name):
    os.makedirs(SHOTS, exist_ok=True)
    shutil.copy(path, os.path.join(SHOTS, name))


def check_tiles_match(lines, result):
    shown = ui.tiles(lines)
    measured = {k: v for k, v in shown.items() if v[1] == "measured"}
    expected = {(t["test"], t["mode"]): t["mb_s"] for t in result["results"]}
    check(expected and set(measured) == set(expected),
          f"measured tiles {sorted(measured)} vs results {sorted(expected)}")
    for (name, mode), mb_s in expected.items():
        ui.check_tile(name, mode, measured[(name, mode)][0], mb_s)
    return len(expected)


def test_null_backend_run():
    """The null backend's run, saved by the window as CSV (the format the
    name says), then opened again: its tab's tiles say what the file says."""
    with ui.Dir() as d, tempfile.TemporaryDirectory(prefix="wine-out-", dir=TMP_BASE) as out:
        saved = os.path.join(out, "null.csv")
        rc, lines, err = run_gui(["--target", win(d), "--backend", "null", "--profile", "demo"] + QUICK + [
            "--autorun", "--json", win(saved), "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err[-2000:]}")
        scores = ui.csv_scores(saved)
        measured = {k: v for k, v in ui.tiles(lines).items() if v[1] == "measured"}
        check(scores and set(measured) == set(scores),
              f"measured tiles {sorted(measured)} vs saved {sorted(scores)}")
        rc, lines, err = run_gui(["--open", win(saved), "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"opening the CSV: exit {rc}; stderr: {err[-2000:]}")
        opened = {(t[1], t[2]): t[3] for t in ui.rows(lines, "tab-tile")}
        check(set(opened) == set(scores), f"reopened tiles {sorted(opened)} vs {sorted(scores)}")
        for (name, mode), mb_s in scores.items():
            ui.check_tile(name, mode, measured[(name, mode)][0], mb_s)
            check(opened[(name, mode)] == measured[(name, mode)][0],
                  f"{name} {mode}: reopened {opened[(name, mode)]!r}, "
                  f"run showed {measured[(name, mode)][0]!r}")
        return f"{len(scores)} results saved as CSV and reopened with the same tiles"


def test_real_folder_run():
    """A run on a folder of the build dir's disk, through IOCP."""
    with ui.Dir() as d, tempfile.TemporaryDirectory(prefix="wine-out-", dir=TMP_BASE) as out:
        shot, js = os.path.join(out, "run.png"), os.path.join(out, "run.json")
        rc, lines, err = run_gui(["--target", win(d), "--profile", "demo"] + QUICK + [
            "--autorun", "--json", win(js), "--screenshot", win(shot), "--dump-tiles",
            "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err[-2000:]}")
        result = json.load(open(js))
        check(result["complete"], "the run is not complete")
        n = check_tiles_match(lines, result)
        w, h = ui.check_screenshot(shot)
        keep_shot(shot, "benchmark.png")
        ui.check_empty(d)
        return f"{n} tiles match the JSON; screenshot {w}x{h}"


def make_csv(out, name, extra=()):
    path = os.path.join(out, name)
    r = run_cli(["run", "--target", win(out), "--backend", "null", "--profile", "demo"] + QUICK +
                ["--csv", win(path), "--quiet"] + list(extra))
    check(r.returncode == 0, f"drivemark-cli.exe run --csv: exit {r.returncode}: {r.stderr}")
    return path


def test_chart_export_formats():
    with tempfile.TemporaryDirectory(prefix="wine-out-", dir=TMP_BASE) as out:
        a = make_csv(out, "A.csv")
        marks = {"svg": (b"<?xml", b"<svg"), "pdf": (b"%PDF-", b"%%EOF")}
        for ext in ("png", "svg", "pdf"):
            path = os.path.join(out, f"chart.{ext}")
            rc, _, err = run_gui(["--open", win(a), "--export-chart", win(path),
                                  "--quit-when-done"])
            check(rc == 0, f"{ext}: exit {rc}; stderr: {err[-2000:]}")
            if ext == "png":
                ui.check_chart_png(path, 800, 500)
            else:
                data = open(path, "rb").read()
                head, mark = marks[ext]
                check(data.startswith(head) and mark in data and len(data) > 2000,
                      f"{ext}: not a chart ({len(data)} bytes): {data[:40]!r}")
        return "PNG, SVG and PDF exported from an opened result"


def test_compare_tab():
    with tempfile.TemporaryDirectory(prefix="wine-out-", dir=TMP_BASE) as out:
        a = make_csv(out, "A.csv")
        b = make_csv(out, "B.csv", ["--null-latency", "200"])
        shot = os.path.join(out, "compare.png")
        rc, lines, err = run_gui(["--open", win(a), "--open", win(b), "--compare",
                                  "--screenshot", win(shot), "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err[-2000:]}")
        n = ui.check_compare_rows(lines, a, b)
        w, h = ui.check_screenshot(shot)
        keep_shot(shot, "compare.png")
        return f"{n} compare rows; screenshot {w}x{h}"


def test_lab_tab():
    with ui.Dir() as d, tempfile.TemporaryDirectory(prefix="wine-out-", dir=TMP_BASE) as out:
        shot = os.path.join(out, "lab.png")
        rc, _, err = run_gui(["--target", win(d), "--backend", "null", "--null-latency", "500",
                              "--lab", "latency", "--lab-step", "0.25",
                              "--lab-warmup", "0", "--lab-size", "64MiB", "--autorun",
                              "--screenshot", win(shot), "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err[-2000:]}")
        w, h = ui.check_screenshot(shot)
        keep_shot(shot, "lab.png")
        return f"latency lab on the null backend; screenshot {w}x{h}"


def test_cli_show_chart_csv():
    with tempfile.TemporaryDirectory(prefix="wine-out-", dir=TMP_BASE) as out:
        a = make_csv(out, "A.csv")
        scores = ui.csv_scores(a)
        check(scores, "the CSV holds no test records")
        r = run_cli(["show", win(a)])
        check(r.returncode == 0, f"show: exit {r.returncode}: {r.stderr}")
        for (name, mode), mb_s in scores.items():
            check(f"{mb_s:.3f} MB/s" in r.stdout,
                  f"show does not say {name} {mode}'s {mb_s:.3f} MB/s: {r.stdout[:800]}")
        made = []
        for ext in ("png", "svg", "pdf"):
            path = os.path.join(out, f"cli.{ext}")
            r = run_cli(["chart", "--out", win(path), win(a)])
            check(r.returncode == 0, f"chart {ext}: exit {r.returncode}: {r.stderr}")
            check(os.path.getsize(path) > 2000, f"chart {ext}: only {os.path.getsize(path)} bytes")
            made.append(ext)
        ui.check_chart_png(os.path.join(out, "cli.png"), *ui.png_pixels(
            os.path.join(out, "cli.png"))[:2])
        return f"run --csv, show ({len(scores)} results), chart as {', '.join(made)}"


def code_page_env(lang):
    """Wine under LANG (its ANSI code page follows the locale: 1251 for
    ru_RU, 1252 for en_US), the locale built into the build dir as
    setup.sh builds its de_DE one. None when localedef cannot."""
    loc = os.path.join(BUILD, "locale")
    if not os.path.isdir(os.path.join(loc, lang)):
        os.makedirs(loc, exist_ok=True)
        base, charset = lang.split(".")
        r = subprocess.run(["localedef", "-i", base, "-f", charset, os.path.join(loc, lang)],
                           capture_output=True, text=True)
        if r.returncode not in (0, 1) or not os.path.isdir(os.path.join(loc, lang)):
            return None
    return {"LOCPATH": loc, "LANG": lang, "LC_ALL": lang}


def acp(env):
    r = subprocess.run(["wine", "reg", "query", r"HKLM\System\CurrentControlSet\Control\Nls\CodePage",
                        "/v", "ACP"], env=env, capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL)
    return r.stdout.split()[-1] if "ACP" in r.stdout else "?"


def test_cyrillic_target():
    """A folder named Тест as the target and the place of the outputs,
    under a Russian and an English ANSI code page: the CLI reads its
    arguments from the wide command line and opens files through the wide
    APIs; the window (GApplication does the same) runs there too."""
    display = start_wine()
    done = []
    with tempfile.TemporaryDirectory(prefix="wine-out-", dir=TMP_BASE) as out:
        d = os.path.join(out, "Тест")
        os.mkdir(d)
        for lang, page in (("ru_RU.UTF-8", "1251"), ("en_US.UTF-8", "1252")):
            extra = code_page_env(lang)
            if extra is None:
                continue
            env = dict(wine_env(display), **extra)
            check(acp(env) == page, f"{lang}: Wine's ANSI code page is {acp(env)}, not {page}")
            js = os.path.join(d, f"{lang}.json")
            r = subprocess.run(["wine", CLI, "run", "--target", win(d), "--profile", "demo"] +
                               QUICK + ["--json", win(js), "--quiet"], env=env,
                               capture_output=True, text=True, timeout=180,
                               stdin=subprocess.DEVNULL)
            check(r.returncode == 0, f"{lang}: exit {r.returncode}: {r.stderr}")
            check(json.load(open(js))["complete"], f"{lang}: the run is not complete")
            os.unlink(js)
            done.append(f"CLI under code page {page}")
            if page == "1251":
                p = subprocess.run(["wine", APP, "--target", win(d), "--profile", "demo"] +
                                   QUICK + ["--autorun", "--json", win(js), "--quit-when-done"],
                                   env=env, capture_output=True, text=True, timeout=240,
                                   stdin=subprocess.DEVNULL)
                check(p.returncode == 0, f"window, {lang}: exit {p.returncode}: {p.stderr[-2000:]}")
                check(json.load(open(js))["complete"], f"window, {lang}: run not complete")
                os.unlink(js)
                done.append(f"window under code page {page}")
            ui.check_empty(d)
    if not done:
        raise Skip("localedef could build neither ru_RU.UTF-8 nor en_US.UTF-8")
    return "; ".join(done)


def row_names(lines):
    return [f[1] for f in lines if f[0] == "tile" and f[2] == "read"]


def test_portable_zip():
    """The zip (DMK_WIN_ZIP: ./setup.sh test makes it) unpacked and run as
    a user would: no WINEPATH, no schema dir, no settings backend given, so
    the DLLs and schemas it carries must be enough. With its drivemark.ini
    the Settings dialog's tests are kept there and outlive a restart;
    without it, in the registry."""
    path = os.environ.get("DMK_WIN_ZIP")
    if not path:
        raise Skip("DMK_WIN_ZIP names no zip (platform/windows/make-zip.sh makes one)")
    display = start_wine()
    env = wine_env(display)
    for k in ("WINEPATH", "GSETTINGS_SCHEMA_DIR", "GSETTINGS_BACKEND"):
        env.pop(k)
    want = "SEQ128K Q32T1"
    with tempfile.TemporaryDirectory(prefix="wine-zip-", dir=TMP_BASE) as out:
        shutil.unpack_archive(path, out)
        (top,) = os.listdir(out)
        exe = os.path.join(out, top, "drivemark.exe")
        ini = os.path.join(out, top, "drivemark.ini")

        def app(args):
            p = subprocess.run(["wine", exe] + args + ["--dump-tiles", "--quit-when-done"],
                               env=env, capture_output=True, text=True, timeout=240,
                               stdin=subprocess.DEVNULL)
            check(p.returncode == 0, f"exit {p.returncode}; stderr: {p.stderr[-2000:]}")
            return [line.rstrip("\r").split("\t") for line in p.stdout.splitlines() if line]

        check(os.path.getsize(ini) == 0, "the zip's drivemark.ini is not empty")
        app(["--set-test", f"1={want}"])
        check(want in open(ini, encoding="utf-8").read(),
              f"the dialog's test was not kept in drivemark.ini: {open(ini).read()!r}")
        rows = row_names(app([]))
        check(rows and rows[0] == want, f"after a restart the rows are {rows}")
        os.unlink(ini)
        app(["--set-test", "1=SEQ1M Q1T1"])
        check(not os.path.exists(ini), "drivemark.ini came back without being in the folder")
        r = subprocess.run(["wine", "reg", "query",
                            r"HKCU\Software\GSettings\io\github\drivemark\drivemark"],
                           env=env, capture_output=True, text=True, timeout=120,
                           stdin=subprocess.DEVNULL)
        check("SEQ1M Q1T1" in r.stdout, f"not in the registry: {r.stdout[-800:]}")
        subprocess.run(["wine", "reg", "delete",
                        r"HKCU\Software\GSettings\io\github\drivemark", "/f"],
                       env=env, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    return "runs from the unpacked zip alone; settings in drivemark.ini, else the registry"


def unpacked_zip(out):
    """The zip (DMK_WIN_ZIP) unpacked into out: its drivemark.exe and the
    environment of a user's run (nothing given but the display)."""
    path = os.environ.get("DMK_WIN_ZIP")
    if not path:
        raise Skip("DMK_WIN_ZIP names no zip (platform/windows/make-zip.sh makes one)")
    env = wine_env(start_wine())
    for k in ("WINEPATH", "GSETTINGS_SCHEMA_DIR", "GSETTINGS_BACKEND"):
        env.pop(k)
    shutil.unpack_archive(path, out)
    (top,) = os.listdir(out)
    return os.path.join(out, top), env


def dump_rows(lines, kind):
    return [f[1:] for f in lines if f and f[0] == kind]


def test_zip_languages():
    """The zip's window under LANGUAGE=ru has Russian column headers (our
    libintl-8.dll reading the zip's share/locale); View > Language's Čeština
    is saved in drivemark.ini and the next start is in Czech."""
    with tempfile.TemporaryDirectory(prefix="wine-zip-", dir=TMP_BASE) as out:
        top, env = unpacked_zip(out)
        exe = os.path.join(top, "drivemark.exe")
        for lang in ("ru", "cs", "de"):
            mo = os.path.join(top, "share", "locale", lang, "LC_MESSAGES", "drivemark.mo")
            check(os.path.getsize(mo) > 1000, f"{mo} is missing or empty")

        def app(args, **extra):
            p = subprocess.run(["wine", exe] + args + ["--dump-tiles", "--quit-when-done"],
                               env=dict(env, **extra), capture_output=True, text=True,
                               timeout=240, stdin=subprocess.DEVNULL)
            check(p.returncode == 0, f"exit {p.returncode}; stderr: {p.stderr[-2000:]}")
            return [line.rstrip("\r").split("\t") for line in p.stdout.splitlines() if line]

        shot = os.path.join(out, "russian.png")
        lines = app(["--screenshot", win(shot)], LANGUAGE="ru")
        columns = [r[0] for r in dump_rows(lines, "column")]
        check(columns[:2] == ["Чтение [MB/s]", "Запись [MB/s]"], f"columns under ru: {columns}")
        choices = [r[:2] for r in dump_rows(lines, "language-choice")]
        check(["system", "Системный"] in choices and ["cs", "Čeština"] in choices,
              f"View > Language under ru: {choices}")
        ui.check_screenshot(shot)
        keep_shot(shot, "russian.png")
        lines = app(["--activate", "language('cs')"])
        check(dump_rows(lines, "language") == [["cs", "system"]],
              f"after choosing Čeština: {dump_rows(lines, 'language')}")
        ini = open(os.path.join(top, "drivemark.ini"), encoding="utf-8").read()
        check("language='cs'" in ini, f"not saved in drivemark.ini: {ini!r}")
        lines = app([])
        columns = [r[0] for r in dump_rows(lines, "column")]
        check(dump_rows(lines, "language") == [["cs", "cs"]] and columns[0] == "Čtení [MB/s]",
              f"restart: language {dump_rows(lines, 'language')}, columns {columns}")
        return f"Russian columns under LANGUAGE=ru; after Čeština and a restart {columns[0]!r}"


TESTS = [test_null_backend_run, test_real_folder_run, test_chart_export_formats,
         test_compare_tab, test_lab_tab, test_cli_show_chart_csv, test_cyrillic_target,
         test_portable_zip, test_zip_languages]

if __name__ == "__main__":
    try:
        rc = dmktest.run_tap([(t.__name__[5:], t) for t in TESTS], plan_first=True)
    finally:
        stop_wine()
    sys.exit(rc)
