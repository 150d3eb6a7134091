#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The real drivemark window under Xvfb: a short run fills the tiles with
the engine's numbers, the screenshot is a real picture, Stop ends a run
within a second (also while the test file is being filled), closing the
window stops the run, and errors appear in the info bar. Saved results
(made by drivemark-cli) open as tabs, from the command line or dropped on
the window; the compare tab overlays them with the right differences and
exports its chart as PNG, SVG and PDF; a bad file opens nothing and says
where it is bad; a sweep runs and opens as a tab; recent files are kept.
No test file may remain anywhere. Prints TAP."""

import csv
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import TMP_BASE, Skip, check  # noqa: E402

APP = os.environ.get("DMK_DRIVEMARK") or sys.argv[1]
CLI = os.environ.get("DMK_DRIVEMARK_CLI") or os.path.join(os.path.dirname(APP), "drivemark-cli")

# Small and short: the whole suite must stay quick.
QUICK = ["--size", "64MiB", "--passes", "1", "--measure", "1", "--warmup", "0",
         "--interval", "0"]


# ---- an X server of our own -------------------------------------------------

class Xvfb:
    """Xvfb on a display it picks itself (-displayfd), so tests can run side
    by side without xvfb-run's race for a display number."""

    def __enter__(self):
        if not shutil.which("Xvfb"):
            raise Skip("Xvfb is not installed")
        r, w = os.pipe()
        # A 200 % screenshot needs a screen twice as big (shots.py).
        screen = os.environ.get("DMK_XVFB_SCREEN", "1280x1024x24")
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", screen, "-nolisten", "tcp"],
            pass_fds=[w], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as f:
            number = f.readline().strip()
        if not number:
            self.proc.kill()
            raise Skip("Xvfb did not start")
        self.display = ":" + number
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def app_env(display, runtime_dir):
    env = dict(os.environ)
    env.update({
        "DISPLAY": display,
        "GDK_BACKEND": "x11",
        "GSETTINGS_BACKEND": "memory",
        "NO_AT_BRIDGE": "1",
        "GTK_A11Y": "none",
        "XDG_RUNTIME_DIR": runtime_dir,
        # A GTK critical or warning is a bug: make it fail the test.
        "G_DEBUG": "fatal-warnings",
        "LC_ALL": "C.UTF-8",
    })
    env.pop("WAYLAND_DISPLAY", None)
    return env


def run_app(args, timeout=120, env=None):
    """Runs drivemark on a fresh X server; returns (rc, stdout lines as
    fields, stderr, seconds)."""
    with Xvfb() as x, tempfile.TemporaryDirectory(prefix="xdg-", dir=TMP_BASE) as xdg:
        os.chmod(xdg, 0o700)
        cmd = [APP] + args
        if shutil.which("dbus-run-session"):
            cmd = ["dbus-run-session", "--"] + cmd
        e = app_env(x.display, xdg)
        e.update(env or {})
        t0 = time.monotonic()
        p = subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=timeout)
        took = time.monotonic() - t0
    lines = [line.split("\t") for line in p.stdout.splitlines() if line]
    return p.returncode, lines, p.stderr, took


def field(lines, key):
    for f in lines:
        if f[0] == key:
            return f[1] if len(f) > 1 else ""
    return None


class Dir(dmktest.Dir):
    """A fresh target directory on the build dir's (real) file system."""

    prefix = "ui-"


def check_empty(path):
    left = os.listdir(path)
    check(left == [], f"files left behind in {path}: {left}")


# ---- PNG -------------------------------------------------------------------

def png_pixels(path):
    """(width, height, rows of bytes, bytes per pixel) of an 8-bit RGB(A) PNG."""
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    width, height, depth, color = header[:4]
    check(depth == 8 and color in (2, 6), f"unexpected PNG format: depth {depth} colour {color}")
    bpp = 4 if color == 6 else 3
    return width, height, unfilter(zlib.decompress(idat), width * bpp, height, bpp), bpp


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(raw, stride, height, bpp):
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            pred = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind] if kind else 0
            line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        prev = line
    return rows


def check_screenshot(path):
    check(os.path.exists(path), "no screenshot was written")
    width, height, rows, bpp = png_pixels(path)
    check(width >= 300 and height >= 200, f"screenshot is only {width}x{height}")
    colours = set()
    for row in rows[::4]:
        for x in range(0, width * bpp, bpp * 4):
            colours.add(row[x:x + 3])
    # A blank or single-colour picture has a handful; a window has many.
    check(len(colours) >= 16, f"screenshot has only {len(colours)} colours: blank?")
    return width, height


def check_chart_png(path, width, height):
    """An exported chart: a valid PNG of that size with a chart on it, not
    a blank page (bars or lines and text cover part of the white)."""
    w, h = check_screenshot(path)
    check((w, h) == (width, height), f"chart is {w}x{h}, expected {width}x{height}")
    _, _, rows, bpp = png_pixels(path)
    samples = ink = 0
    for row in rows[::3]:
        for x in range(0, w * bpp, bpp * 3):
            samples += 1
            ink += min(row[x:x + 3]) < 200
    check(ink > samples * 0.03, f"chart is almost blank: {ink} of {samples} samples drawn")
    return ink / samples


# ---- what the tiles must say ------------------------------------------------

def cdm_decimals(v):
    """ui/dmk-units.c's rule for MB/s: fewer decimals for big numbers."""
    return 0 if abs(v) >= 1e6 else 1 if abs(v) >= 1e5 else 2


def check_tile(name, mode, text, mb_s):
    d = cdm_decimals(mb_s)
    decimals = len(text.split(".")[1]) if "." in text else 0
    check(decimals == d, f"{name} {mode}: tile {text!r} has {decimals} decimals, expected {d}")
    # The JSON keeps 3 decimals, the tile 2: allow both roundings.
    tol = 0.5 * 10 ** -d + 0.0005 + 1e-9
    check(abs(float(text) - mb_s) <= tol, f"{name} {mode}: tile {text} vs JSON mb_s {mb_s}")


def check_clipboard(lines, result):
    """Ctrl+C's text: CrystalDiskMark's layout with the run's numbers."""
    text = "\n".join(f[1] if len(f) > 1 else "" for f in lines if f[0] == "clipboard")
    for needle in ["Drivemark " + result["version"], "[Read]", "[Write]",
                   "SEQ     1MiB (Q=  8, T= 1):", "Comment: UI test", "Profile: demo",
                   "Drive: "]:
        check(needle in text, f"copied text lacks {needle!r}:\n{text}")
    for t in result["results"]:
        check(f"{t['mb_s']:.3f} MB/s" in text, f"copied text lacks {t['mb_s']:.3f} MB/s")


def tiles(lines):
    return {(f[1], f[2]): (f[3], f[4]) for f in lines if f[0] == "tile"}


def rows(lines, key):
    return [f[1:] for f in lines if f[0] == key]


# ---- saved results ------------------------------------------------------------

def make_result(target, path, extra=()):
    """A real run of the demo profile (libaio on the build dir's file
    system), saved as CSV by drivemark-cli."""
    cmd = [CLI, "run", "--target", target, "--profile", "demo", "--size", "64MiB",
           "--passes", "1", "--measure", "0.3", "--warmup", "0", "--interval", "0",
           "--csv", path, "--quiet"] + list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"drivemark-cli failed ({p.returncode}): {p.stderr}")
    return path


def csv_scores(path):
    """{(test, mode): mb_s} of a result file's test records."""
    with open(path, newline="") as f:
        return {(r["test"], r["mode"]): float(r["mb_s"])
                for r in csv.DictReader(f) if r["record"] == "test"}


class Results:
    """Two saved results of real runs, A and B, in a fresh folder."""

    def __enter__(self):
        self.dir = tempfile.mkdtemp(prefix="results-", dir=TMP_BASE)
        target = os.path.join(self.dir, "target")
        os.mkdir(target)
        self.a = make_result(target, os.path.join(self.dir, "A.csv"))
        self.b = make_result(target, os.path.join(self.dir, "B.csv"), ["--data", "zero"])
        check_empty(target)
        return self

    def path(self, name):
        return os.path.join(self.dir, name)

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)


def check_compare_rows(lines, a, b):
    """The compare tab's table: A's and B's numbers as the tiles write
    them, and B's difference to A in %."""
    sa, sb = csv_scores(a), csv_scores(b)
    table = {(r[0], r[1]): r[2:] for r in rows(lines, "compare-row")}
    check(set(table) == set(sa), f"compare rows {sorted(table)} vs tests {sorted(sa)}")
    for key, (va, vb, diff) in table.items():
        check_tile(key[0], key[1], va, sa[key])
        check_tile(key[0], key[1], vb, sb[key])
        want = (sb[key] - sa[key]) / sa[key] * 100
        check(diff.endswith(" %") and abs(float(diff[:-2]) - want) <= 0.051,
              f"{key}: difference {diff!r}, expected {want:+.1f} %")
    return len(table)


# ---- the tests --------------------------------------------------------------

def test_run_fills_tiles():
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        shot, js = os.path.join(out, "shot.png"), os.path.join(out, "result.json")
        rc, lines, err, _ = run_app(["--target", d, "--profile", "demo"] + QUICK + [
            "--comment", "UI test", "--autorun", "--screenshot", shot, "--json", js,
            "--dump-tiles", "--dump-clipboard", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        result = json.load(open(js))
        check_clipboard(lines, result)
        check(result["complete"], "the run is not complete")
        check(result["comment"] == "UI test", f"comment {result['comment']!r} not saved")
        shown = tiles(lines)
        measured = {k: v for k, v in shown.items() if v[1] == "measured"}
        expected = {(t["test"], t["mode"]): t["mb_s"] for t in result["results"]}
        check(set(measured) == set(expected),
              f"measured tiles {sorted(measured)} vs results {sorted(expected)}")
        for (name, mode), mb_s in expected.items():
            check_tile(name, mode, measured[(name, mode)][0], mb_s)
        check(field(lines, "status").startswith("Done"), f"status: {field(lines, 'status')}")
        check(field(lines, "error") is None, f"error shown: {field(lines, 'error')}")
        # The finished run is kept as a tab, behind the Benchmark tab.
        check(field(lines, "page") == "Benchmark", f"page shown: {field(lines, 'page')}")
        tabs = rows(lines, "tab")
        check(len(tabs) == 1 and tabs[0][1].startswith("Run ") and tabs[0][2] == "demo" and
              tabs[0][3] == str(len(expected)), f"tabs after the run: {tabs}")
        w, h = check_screenshot(shot)
        check_empty(d)
        return f"{len(expected)} tiles match the JSON; screenshot {w}x{h}"


# A working Stop ends a run within a second (README); a loaded machine may
# add to that, but an ignored one would go on for the rest of a 30 s pass
# or a fill: the tests fail only past this, and print what they saw.
STOP_MS_MAX = 5000 * dmktest.TIME_SCALE


def test_stop_while_measuring():
    # --stop-at: the run waits at its 5th progress report of the
    # measurement (0.5 s in) until Stop was pressed, so the stop lands in
    # the measurement whatever the machine's speed.
    with Dir() as d:
        rc, lines, err, took = run_app(["--target", d, "--profile", "demo", "--size", "64MiB",
                                        "--passes", "1", "--measure", "30", "--warmup", "0",
                                        "--interval", "0", "--autorun", "--stop-at", "measure:5",
                                        "--dump-tiles", "--quit-when-done"])
        check(rc == 130, f"exit {rc}, expected 130 (stopped); stderr: {err}")
        at = field(lines, "status-at-stop")
        check(at and not at.startswith("Preparing"), f"the stop did not come while measuring: {at}")
        ms = int(field(lines, "stop-took-ms"))
        check(ms < STOP_MS_MAX, f"stopping took {ms} ms")
        check(field(lines, "status").startswith("Stopped"), f"status: {field(lines, 'status')}")
        check_empty(d)
        return f"stopped in {ms} ms during: {at} (the app ran {took:.1f} s)"


def test_stop_while_filling():
    with Dir() as d:
        st = os.statvfs(d)
        if st.f_bavail * st.f_frsize < (4 << 30):
            raise Skip("needs 4 GiB free for a test file that takes a while to fill")
        # --stop-at prepare: the run waits at its first progress report from
        # inside the fill (bytes written, 0.1 s in) until Stop was pressed,
        # so the stop lands in the fill by construction. 2 GiB: a fill that
        # is still writing then (it would need 20 GB/s to be done), small
        # enough that sizing the file (not interruptible) is quick.
        rc, lines, err, _ = run_app(["--target", d, "--profile", "demo", "--size", "2GiB",
                                     "--passes", "1", "--measure", "1", "--warmup", "0",
                                     "--interval", "0", "--autorun", "--stop-at", "prepare",
                                     "--dump-tiles", "--quit-when-done"])
        check(rc == 130, f"exit {rc}, expected 130 (stopped); stderr: {err}")
        at = field(lines, "status-at-stop")
        check(at and at.startswith("Preparing"), f"the stop did not come during the fill: {at}")
        check(all(f[4] == "empty" for f in lines if f[0] == "tile"),
              f"a test ran after the stop: {[f for f in lines if f[0] == 'tile']}")
        ms = int(field(lines, "stop-took-ms"))
        check(ms < STOP_MS_MAX, f"stopping the fill took {ms} ms")
        check_empty(d)
        return f"stopped in {ms} ms during: {at}"


def test_close_during_run():
    # --close-at measure:3: the window is closed at the run's 3rd progress
    # report of its first test's 30 s pass, the run waiting there for it.
    with Dir() as d:
        rc, lines, err, took = run_app(["--target", d, "--profile", "demo", "--size", "64MiB",
                                        "--passes", "1", "--measure", "30", "--warmup", "0",
                                        "--interval", "0", "--autorun", "--close-at", "measure:3"])
        check(rc in (0, 130), f"exit {rc}; stderr: {err}")
        # Under the measure time means closing stopped the run.
        check(took < 30, f"the app ran {took:.1f} s: closing did not stop the 30 s pass")
        check_empty(d)
        return f"exited {took:.1f} s after start, window closed in the measurement"


def test_verify_run():
    """--verify ticks the Benchmark tab's box; the run's written blocks are
    read back and the status line says how many, with none bad."""
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        shot, js = os.path.join(out, "verify.png"), os.path.join(out, "result.json")
        rc, lines, err, _ = run_app(["--target", d, "--profile", "demo", "--mode", "write",
                                     "--verify"] + QUICK + [
            "--autorun", "--screenshot", shot, "--json", js, "--dump-tiles",
            "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        result = json.load(open(js))
        v = result.get("verify")
        check(v and v["bad"] == 0 and v["blocks"] > 0, f"verify in the JSON: {v}")
        status = field(lines, "status")
        check(status.startswith("Done") and f"Verified {v['blocks']} blocks" in status and
              ", 0 bad" in status, f"status: {status}")
        check(field(lines, "error") is None, f"error shown: {field(lines, 'error')}")
        check_screenshot(shot)
        check_empty(d)
        return status


def test_verify_verdict_in_tab():
    """A saved result whose verify found bad blocks opens with the verdict
    under its context, in the error style."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "bad-csv",
                        "ok-schema4-verify.csv")
    rc, lines, err, _ = run_app(["--open", path, "--dump-tiles", "--quit-when-done"])
    check(rc == 0, f"exit {rc}; stderr: {err}")
    verdict = [f for f in lines if f[0] == "tab-verify"]
    check(len(verdict) == 1 and verdict[0][2] == "bad", f"verify line: {verdict}")
    check(verdict[0][3].startswith("VERIFY FAILED: 2 bad of 4096 blocks; first bad byte at "
                                   "offset 9437202 (block at 9437184)"), verdict[0][3])
    return verdict[0][3]


def test_error_ram_backed():
    shm = "/dev/shm"
    mounts = open("/proc/self/mounts").read().split("\n")
    if not any(m.split()[1:3] == [shm, "tmpfs"] for m in mounts if m):
        raise Skip("/dev/shm is not a tmpfs here")
    rc, lines, err, _ = run_app(["--target", shm, "--profile", "demo"] + QUICK + [
        "--autorun", "--dump-tiles", "--quit-when-done"])
    check(rc == 1, f"exit {rc}, expected 1; stderr: {err}")
    msg = field(lines, "error")
    check(msg and "RAM-backed" in msg, f"info bar: {msg!r}")
    check(all(v[1] == "empty" for v in tiles(lines).values()), "tiles show values after an error")
    check(field(lines, "status").startswith("Failed"), f"status: {field(lines, 'status')}")
    return msg


def test_error_missing_folder():
    with Dir() as d:
        missing = os.path.join(d, "no-such-folder")
        rc, lines, err, _ = run_app(["--target", missing, "--profile", "demo"] + QUICK + [
            "--autorun", "--dump-tiles", "--quit-when-done"])
        check(rc == 1, f"exit {rc}, expected 1; stderr: {err}")
        msg = field(lines, "error")
        check(msg and missing in msg, f"info bar does not name the folder: {msg!r}")
        return msg


def test_bad_option():
    rc, lines, err, _ = run_app(["--size", "3MB", "--quit-when-done"], timeout=30)
    check(rc == 2, f"exit {rc}, expected 2 for a bad --size")
    mine = [line for line in err.splitlines() if line.startswith("drivemark:")]
    check(mine and "--size" in mine[0], f"stderr does not name the option: {err}")
    return mine[0]


def test_options_as_the_cli():
    """The window and drivemark-cli read the run request's options from one
    table (core/dmk-request.c): the same bad value gets the same message,
    and exit status 2, from both."""
    said = []
    for opt, bad in (("--passes", "10"), ("--passes", "0"), ("--size", "8MiB"),
                     ("--measure", "0"), ("--warmup", "-1"), ("--interval", "x"),
                     ("--mode", "sideways"), ("--profile", "fast"), ("--backend", "floppy")):
        rc, _, err, _ = run_app([opt, bad, "--quit-when-done"], timeout=30)
        cli = subprocess.run([CLI, "run", opt, bad], capture_output=True, text=True, timeout=30)
        mine = [line.split(": ", 1)[1] for line in err.splitlines()
                if line.startswith("drivemark: ")]
        theirs = [line.split(": ", 1)[1] for line in cli.stderr.splitlines()
                  if line.startswith("drivemark-cli: ")]
        check(rc == 2 and cli.returncode == 2,
              f"{opt} {bad}: exit {rc} (window), {cli.returncode} (cli)")
        check(mine and theirs and mine[0] == theirs[0],
              f"{opt} {bad}: the window says {mine}, drivemark-cli {theirs}")
        said.append(mine[0])
    # Both helps print the table's line for --passes (the window's as a
    # sentence) and its exit statuses.
    rc, lines, err, _ = run_app(["--help"], timeout=30)
    window_help = "\n".join("\t".join(f) for f in lines)
    cli_help = subprocess.run([CLI, "--help"], capture_output=True, text=True, timeout=30).stdout
    for text, where in ((window_help, "the window's"), (cli_help, "drivemark-cli's")):
        check("asses per test, 1-9; the best one counts" in text, f"{where} --help: {text}")
        check("130 interrupted" in " ".join(text.split()), f"{where} --help: {text}")
    return said[0]


def test_settings_read_options_not_saved():
    with tempfile.TemporaryDirectory(prefix="cfg-", dir=TMP_BASE) as cfg:
        folder = os.path.join(cfg, "glib-2.0", "settings")
        os.makedirs(folder)
        keyfile = os.path.join(folder, "keyfile")
        saved = ("[io/github/drivemark/drivemark]\nprofile='nvme'\nmix=true\nmode='read'\n"
                 "unit='iops'\n")
        open(keyfile, "w").write(saved)
        env = {"GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": cfg}
        rc, lines, err, _ = run_app(["--dump-tiles", "--quit-when-done"], env=env)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        shown = tiles(lines)
        want = {(n, m) for n in ["SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1"]
                for m in ["read", "mix"]}
        check(set(shown) == want, f"saved profile not shown: {sorted(shown)}")
        check(all(v[0] == "0.0" for v in shown.values()), f"not in IOPS: {shown}")
        # Options apply to this session only: the saved settings stay.
        rc, lines, err, _ = run_app(["--profile", "demo", "--mode", "rw", "--dump-tiles",
                                     "--quit-when-done"], env=env)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        shown = tiles(lines)
        # --profile without --mix is the profile alone.
        check(set(shown) == {("SEQ1M Q8T1", m) for m in ["read", "write"]},
              f"--profile demo not shown: {sorted(shown)}")
        after = open(keyfile).read()
        check("profile='nvme'" in after and "mode='read'" in after,
              f"command-line options were saved:\n{after}")
        return "saved profile, mode and unit shown; options not saved"


def test_compare_two_results():
    with Results() as r, tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        chart, shot = os.path.join(out, "chart.png"), os.path.join(out, "shot.png")
        rc, lines, err, _ = run_app(["--open", r.a, "--open", r.b, "--compare",
                                     "--export-chart", chart, "--screenshot", shot,
                                     "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check(field(lines, "error") is None, f"error shown: {field(lines, 'error')}")
        check(field(lines, "page") == "Compare", f"page shown: {field(lines, 'page')}")
        tabs = rows(lines, "tab")
        check([t[1] for t in tabs] == ["A.csv", "B.csv"], f"tabs: {tabs}")
        picked = rows(lines, "compare")
        check(picked == [["1", "A.csv"], ["2", "B.csv"]], f"compare picks: {picked}")
        # Each tab's tiles show its own file's numbers.
        for n, path in (("1", r.a), ("2", r.b)):
            shown = {(t[1], t[2]): t[3] for t in rows(lines, "tab-tile") if t[0] == n}
            scores = csv_scores(path)
            check(set(shown) == set(scores), f"tab {n} tiles {sorted(shown)}")
            for (name, mode), mb_s in scores.items():
                check_tile(name, mode, shown[(name, mode)], mb_s)
        n_rows = check_compare_rows(lines, r.a, r.b)
        ink = check_chart_png(chart, 800, 500)
        w, h = check_screenshot(shot)
        # The window made room for the charts.
        check(w >= 900 and h >= 550, f"compare window is only {w}x{h}")
        return f"{n_rows} rows compared; chart 800x500 ({ink:.0%} drawn); window {w}x{h}"


def test_export_formats():
    """A tab's chart as SVG, PDF and a 2x PNG (NAME@2x.png), and its result
    saved back as CSV: byte for byte what was opened."""
    with Results() as r:
        outputs = {"svg": (b"<?xml", b"<svg"), "pdf": (b"%PDF-", b"%%EOF")}
        for ext, (head, mark) in outputs.items():
            path = r.path(f"chart.{ext}")
            rc, _, err, _ = run_app(["--open", r.a, "--export-chart", path, "--quit-when-done"])
            check(rc == 0, f"{ext}: exit {rc}; stderr: {err}")
            data = open(path, "rb").read()
            check(data.startswith(head) and mark in data and len(data) > 2000,
                  f"{ext}: not a chart ({len(data)} bytes): {data[:40]!r}")
        png2x, saved = r.path("chart@2x.png"), r.path("saved.csv")
        rc, _, err, _ = run_app(["--open", r.b, "--export-chart", png2x, "--json", saved,
                                 "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check_chart_png(png2x, 1600, 1000)
        check(open(saved, "rb").read() == open(r.b, "rb").read(),
              "saving an opened result did not write the same bytes")
        return "SVG, PDF and 1600x1000 PNG exported; CSV saved back unchanged"


def test_bad_file_opens_nothing():
    with Results() as r:
        bad = r.path("bad.csv")
        text = open(r.a, newline="").read().split("\r\n")
        cells = text[1].split(",")
        col = text[0].split(",").index("mb_s")
        cells[col] = "abc"  # mb_s of the first record
        text[1] = ",".join(cells)
        open(bad, "w", newline="").write("\r\n".join(text))
        alien = r.path("alien.csv")
        open(alien, "w").write("name,size\nfoo,1\n")
        rc, lines, err, _ = run_app(["--open", bad, "--dump-tiles", "--quit-when-done"])
        check(rc == 1, f"exit {rc}, expected 1; stderr: {err}")
        msg = field(lines, "error")
        check(msg and "bad.csv" in msg and f"line 2, column {col + 1}" in msg and "abc" in msg,
              f"info bar does not say where the file is bad: {msg!r}")
        check(rows(lines, "tab") == [], f"a tab was opened: {rows(lines, 'tab')}")
        check(field(lines, "page") == "Benchmark", f"page shown: {field(lines, 'page')}")
        # One good, one bad: the good one opens, the bad one is reported.
        rc, lines, err, _ = run_app(["--open", alien, "--open", r.b, "--dump-tiles",
                                     "--quit-when-done"])
        check(rc == 1, f"exit {rc}, expected 1; stderr: {err}")
        msg2 = field(lines, "error")
        check(msg2 and "alien.csv" in msg2 and "line 1" in msg2, f"info bar: {msg2!r}")
        check([t[1] for t in rows(lines, "tab")] == ["B.csv"], f"tabs: {rows(lines, 'tab')}")
        return msg


def test_drop_opens_tab():
    """The window's drop handler, given a GdkFileList as a file manager's
    drag brings it: a tab per file, and a bad file only its error."""
    with Results() as r:
        bad = r.path("empty.csv")
        open(bad, "w").close()
        rc, lines, err, _ = run_app(["--drop", r.a, "--drop", bad, "--dump-tiles",
                                     "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check([t[1] for t in rows(lines, "tab")] == ["A.csv"], f"tabs: {rows(lines, 'tab')}")
        check(field(lines, "page") == "A.csv", f"page shown: {field(lines, 'page')}")
        msg = field(lines, "error")
        check(msg and "empty.csv" in msg, f"info bar: {msg!r}")
        check(field(lines, "recent") == os.path.abspath(r.a), f"recent: {rows(lines, 'recent')}")
        return f"dropped A.csv opened; {msg}"


def test_sweep_opens_tab():
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        shot = os.path.join(out, "sweep.png")
        rc, lines, err, _ = run_app(["--target", d, "--sweep", "qd", "--backend", "null",
                                     "--size", "64MiB", "--passes", "1", "--measure", "0.2",
                                     "--warmup", "0", "--interval", "0", "--autorun",
                                     "--screenshot", shot, "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        tabs = rows(lines, "tab")
        # Random 4 KiB at QD 1, 2, 4, 8, 16, 32, read then write.
        check(len(tabs) == 1 and tabs[0][2] == "qd" and tabs[0][3] == "12" and
              tabs[0][4] == "complete", f"tabs: {tabs}")
        check(field(lines, "page") == tabs[0][1], f"page shown: {field(lines, 'page')}")
        # Export Chart is on for the new tab, whose chart is made after
        # the run's end, not in it.
        check(field(lines, "page-export-chart") == "on", "Export Chart is off on the sweep's tab")
        names = [t[1] for t in rows(lines, "tab-tile") if t[2] == "read"]
        check(names == [f"RND4K Q{q}T1" for q in (1, 2, 4, 8, 16, 32)], f"points: {names}")
        # The Benchmark tab's tiles are not the sweep's, though names match.
        check(all(v[1] == "empty" for v in tiles(lines).values()), "sweep filled the tiles")
        check_screenshot(shot)
        check_empty(d)
        return f"{tabs[0][1]}: 12 points"


def test_recent_results_kept():
    with Results() as r, tempfile.TemporaryDirectory(prefix="cfg-", dir=TMP_BASE) as cfg:
        folder = os.path.join(cfg, "glib-2.0", "settings")
        os.makedirs(folder)
        keyfile = os.path.join(folder, "keyfile")
        open(keyfile, "w").write(f"[io/github/drivemark/drivemark]\nrecent-results=['{r.a}']\n")
        env = {"GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": cfg}
        rc, lines, err, _ = run_app(["--dump-tiles", "--quit-when-done"], env=env)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        check([f[0] for f in rows(lines, "recent")] == [r.a], f"recent: {rows(lines, 'recent')}")
        # Opened (with options that are not saved): first in the list, kept.
        rc, lines, err, _ = run_app(["--profile", "demo", "--open", r.b, "--dump-tiles",
                                     "--quit-when-done"], env=env)
        check(rc == 0, f"exit {rc}; stderr: {err}")
        after = open(keyfile).read()
        check(f"recent-results=['{r.b}', '{r.a}']" in after, f"recent files not saved:\n{after}")
        check("profile" not in after, f"command-line options were saved:\n{after}")
        return "recent list shown, updated and saved"


def test_dialogs_open():
    """Open, Save, Export CSV and Export Chart (with its PNG size choice)
    build their file dialogs without a GTK warning (fatal here)."""
    with Results() as r:
        actions = ["open", "save", "export-csv", "export-chart", "choose-target"]
        args = ["--open", r.a]
        for a in actions:
            args += ["--activate", a]
        rc, lines, err, _ = run_app(args + ["--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc}; stderr: {err}")
        mine = [line for line in err.splitlines() if line.startswith("drivemark:")]
        check(not mine, f"an action was refused: {mine}")
        return f"{len(actions)} dialogs opened"


def test_tiles_by_test_index():
    """Each test's numbers and flags land in its own row's tile, in its
    direction's column, by the runner's test index: the default profile's
    four rows with the Mix column (12 tests: each row read, then write,
    then all mixed), and the same in the Write direction only (8). A tile
    the run did not measure stays empty and unflagged."""
    with Dir() as d, tempfile.TemporaryDirectory(prefix="out-", dir=TMP_BASE) as out:
        seen = []
        for mode, n in (("rw", 12), ("write", 8)):
            js = os.path.join(out, f"{mode}.json")
            rc, lines, err, _ = run_app(["--target", d, "--backend", "null", "--profile",
                                         "default", "--mix", "--mode", mode, "--size", "64MiB",
                                         "--passes", "1", "--measure", "0.2", "--warmup", "0",
                                         "--interval", "0", "--autorun", "--json", js,
                                         "--dump-tiles", "--quit-when-done"])
            check(rc == 0, f"{mode}: exit {rc}; stderr: {err}")
            result = json.load(open(js))
            expected = {(r["test"], r["mode"]): r["mb_s"] for r in result["results"]}
            check(len(expected) == n, f"{mode}: {len(expected)} tests, expected {n}")
            measured = {k: v[0] for k, v in tiles(lines).items() if v[1] == "measured"}
            check(set(measured) == set(expected),
                  f"{mode}: measured tiles {sorted(measured)} vs results {sorted(expected)}")
            for (name, m), mb_s in expected.items():
                check_tile(name, m, measured[(name, m)], mb_s)
            # A 64 MiB file is under the peak span: every measured tile says so.
            flags = {(f[1], f[2]): f[3] for f in lines if f[0] == "tile-flags"}
            check(set(flags) == set(expected) and all(v.startswith("peak") for v in flags.values()),
                  f"{mode}: tile flags {flags}")
            seen.append(f"{mode} {len(measured)}")
        check_empty(d)
        return "tiles filled: " + ", ".join(seen)


def test_exit_status_is_the_runs():
    """The scripted exit status is the verdict of the run that ended, not
    of the tab shown: a clean run beside an opened result whose verify
    found bad blocks (that tab stays current) exits 0, and the opened tab
    still shows its own verdict."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "bad-csv",
                        "ok-schema4-verify.csv")
    with Dir() as d:
        rc, lines, err, _ = run_app(["--open", path, "--target", d, "--backend", "null",
                                     "--profile", "demo"] + QUICK + [
            "--autorun", "--dump-tiles", "--quit-when-done"])
        check(rc == 0, f"exit {rc} for a clean run beside a bad file; stderr: {err}")
        check(field(lines, "status").startswith("Done"), f"status: {field(lines, 'status')}")
        verdict = [f for f in lines if f[0] == "tab-verify"]
        check(any(v[2] == "bad" for v in verdict), f"the opened tab's verdict: {verdict}")
        check_empty(d)
        return f"exit {rc}, status {field(lines, 'status')}"


TESTS = [test_run_fills_tiles, test_stop_while_measuring, test_stop_while_filling,
         test_close_during_run, test_verify_run, test_verify_verdict_in_tab,
         test_error_ram_backed, test_error_missing_folder, test_settings_read_options_not_saved,
         test_bad_option, test_options_as_the_cli, test_compare_two_results, test_export_formats,
         test_bad_file_opens_nothing, test_drop_opens_tab, test_sweep_opens_tab,
         test_recent_results_kept, test_dialogs_open, test_tiles_by_test_index,
         test_exit_status_is_the_runs]


def main(tests=TESTS):
    """TAP for tests, each named without its test_, the plan first."""
    return dmktest.run_tap([(t.__name__[5:], t) for t in tests], plan_first=True)


if __name__ == "__main__":
    sys.exit(main())
