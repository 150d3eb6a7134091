#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Screenshots of the window for review and documentation, written to
OUTDIR (ninja -C build ui-shots puts them in build/ui-shots): a short real
run of the default profile (light.png, dark.png, scale2.png); two saved
runs in the compare tab (compare*.png) and one in its own tab (tab*.png),
with the compare chart exported (compare-chart.png, @2x, .svg, .pdf); and
a real queue-depth sweep's tab (sweep*.png); and the Lab tab after a
sustained write and a latency-under-load run on the null backend's
simulated drive (lab-sustained*.png, lab-latency*.png).

With --docs, only the README's set (docs/images, issue 16's list), from
real runs on a folder under the build dir: the Benchmark tab mid-test
with live numbers (docs-live.png) and after Stop (docs-stopped.png),
Compare with 8 results in a 1024 px window (docs-compare-8.png), the
Settings dialog (docs-settings.png), the dark theme with a chart
(docs-dark-chart.png) and 2x scale (docs-scale2.png)."""

import os
import subprocess
import sys
import tempfile

import test_gui as t

QUICK = ["--size", "64MiB", "--passes", "1", "--measure", "1", "--warmup", "0",
         "--interval", "0"]
RUN = ["--profile", "default"] + QUICK + ["--comment", "Drivemark screenshot", "--autorun",
                                          "--quit-when-done"]

VARIANTS = {
    "": {},
    "-dark": {"GTK_THEME": "Adwaita:dark"},
    "-scale2": {"GDK_SCALE": "2"},
}
SCREEN_2X = "2560x2048x24"
EXIT_INTERRUPTED = 130  # a run the user stopped  # the 1x screen, doubled, so windows are not clamped


def shoot(path, args, env, ok=(0,)):
    if env.get("GDK_SCALE") == "2":
        os.environ["DMK_XVFB_SCREEN"] = SCREEN_2X
    try:
        rc, _, err, _ = t.run_app(args + ["--screenshot", path, "--quit-when-done"], env=env)
    finally:
        os.environ.pop("DMK_XVFB_SCREEN", None)
    if rc not in ok:
        raise RuntimeError(f"{path}: exit {rc}\n{err}")
    w, h = t.check_screenshot(path)
    print(f"{path}: {w}x{h}")


def cli_run(target, csv, extra):
    cmd = [t.CLI] + extra + ["--target", target] + QUICK + ["--csv", csv, "--quiet"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, timeout=300)
    return csv


def benchmark_shots(outdir):
    names = {"": "light", "-dark": "dark", "-scale2": "scale2"}
    for suffix, env in VARIANTS.items():
        with tempfile.TemporaryDirectory(prefix="shots-", dir=t.TMP_BASE) as d:
            target = os.path.join(d, "Benchmark")
            os.mkdir(target)
            shoot(os.path.join(outdir, names[suffix] + ".png"), ["--target", target] + RUN, env)


def result_shots(outdir, d):
    target = os.path.join(d, "target")
    os.mkdir(target)
    a = cli_run(target, os.path.join(d, "nvme-random.csv"), ["run", "--profile", "default"])
    b = cli_run(target, os.path.join(d, "nvme-zeros.csv"),
                ["run", "--profile", "default", "--data", "zero"])
    s = cli_run(target, os.path.join(d, "qd-sweep.csv"), ["sweep", "qd"])
    for suffix, env in VARIANTS.items():
        shoot(os.path.join(outdir, f"compare{suffix}.png"),
              ["--open", a, "--open", b, "--compare"], env)
        shoot(os.path.join(outdir, f"tab{suffix}.png"), ["--open", a], env)
        shoot(os.path.join(outdir, f"sweep{suffix}.png"), ["--open", s], env)
    for name in ("compare-chart.png", "compare-chart@2x.png", "compare-chart.svg",
                 "compare-chart.pdf"):
        path = os.path.join(outdir, name)
        rc, _, err, _ = t.run_app(["--open", a, "--open", b, "--compare", "--export-chart", path,
                                   "--quit-when-done"])
        if rc != 0:
            raise RuntimeError(f"{name}: exit {rc}\n{err}")
        print(path)


# A drive with a 256 MiB write cache and a temperature sensor, whose
# writes take 0.5 ms: the null backend's simulation (no disk I/O), on its
# simulated clock, so the pictures do not depend on how busy the machine is.
LAB_SIM = ["--backend", "null", "--null-latency", "500", "--null-cache", "256MiB",
           "--null-thermal", "64MiB", "--null-clock", "simulated"]
LAB_RUNS = {
    "lab-sustained": ["--lab", "sustained", "--lab-duration", "6", "--lab-sample", "0.1",
                      "--lab-size", "64MiB", "--lab-settle", "0"],
    "lab-latency": ["--lab", "latency", "--lab-step", "0.25", "--lab-warmup", "0",
                    "--lab-size", "64MiB"],
}


def lab_shots(outdir):
    for name, args in LAB_RUNS.items():
        for suffix, env in VARIANTS.items():
            with tempfile.TemporaryDirectory(prefix="shots-", dir=t.TMP_BASE) as d:
                shoot(os.path.join(outdir, name + suffix + ".png"),
                      ["--target", d] + LAB_SIM + args + ["--autorun"], env)


# Eight saved runs that differ as a reviewer's would: the data pattern,
# the test size, the profile.
DOCS_RUNS = [
    ("default-64M", ["--profile", "default"]),
    ("default-zeros", ["--profile", "default", "--data", "zero"]),
    ("default-256M", ["--profile", "default", "--size", "256MiB"]),
    ("nvme", ["--profile", "nvme"]),
    ("peak", ["--profile", "peak"]),
    ("real-world", ["--profile", "real"]),
    ("default-128M", ["--profile", "default", "--size", "128MiB"]),
    ("demo", ["--profile", "demo"]),
]


def docs_benchmark_shots(outdir, target):
    """Mid-test (the run held at a progress report of its third test, the
    picture taken once that is drawn, then Stop, as a user would) and the
    window after that Stop."""
    live = os.path.join(outdir, "docs-live.png")
    args = (["--target", target, "--profile", "default", "--size", "64MiB", "--passes", "1",
             "--measure", "3", "--warmup", "0", "--comment", "Drivemark screenshot",
             "--autorun", "--stop-at", "measure:40"])
    os.environ["DMK_TEST_SHOT_AT_HOLD"] = live
    try:
        shoot(os.path.join(outdir, "docs-stopped.png"), args, {}, ok=(EXIT_INTERRUPTED,))
    finally:
        os.environ.pop("DMK_TEST_SHOT_AT_HOLD", None)
    w, h = t.check_screenshot(live)
    print(f"{live}: {w}x{h}")


def docs_shots(outdir, d):
    target = os.path.join(d, "target")
    os.mkdir(target)
    docs_benchmark_shots(outdir, target)
    saved = []
    for name, extra in DOCS_RUNS:
        # The run's own options last: they win over QUICK's (the size).
        csv = os.path.join(d, f"{name}.csv")
        subprocess.run([t.CLI, "run", "--target", target] + QUICK + extra
                       + ["--csv", csv, "--quiet"], check=True, stdout=subprocess.DEVNULL,
                       timeout=300)
        saved.append(csv)
    opened = [a for p in saved for a in ("--open", p)]
    os.environ["DMK_XVFB_SCREEN"] = "1024x768x24"
    try:
        shoot(os.path.join(outdir, "docs-compare-8.png"),
              opened + ["--compare", "--window-size", "1024x700"], {})
    finally:
        os.environ.pop("DMK_XVFB_SCREEN", None)
    shoot(os.path.join(outdir, "docs-settings.png"), ["--activate", "settings"], {})
    shoot(os.path.join(outdir, "docs-dark-chart.png"), opened[:8] + ["--compare"],
          VARIANTS["-dark"])
    shoot(os.path.join(outdir, "docs-scale2.png"), ["--open", saved[0]], VARIANTS["-scale2"])


def main(outdir, docs=False):
    os.makedirs(outdir, exist_ok=True)
    os.makedirs(t.TMP_BASE, exist_ok=True)
    try:
        if docs:
            with tempfile.TemporaryDirectory(prefix="shots-", dir=t.TMP_BASE) as d:
                docs_shots(outdir, d)
            return 0
        benchmark_shots(outdir)
        lab_shots(outdir)
        with tempfile.TemporaryDirectory(prefix="shots-", dir=t.TMP_BASE) as d:
            result_shots(outdir, d)
    except (RuntimeError, subprocess.CalledProcessError) as e:
        sys.stderr.write(f"{e}\n")
        return 1
    return 0


if __name__ == "__main__":
    flags = [a for a in sys.argv[1:] if a == "--docs"]
    rest = [a for a in sys.argv[1:] if a != "--docs"]
    sys.exit(main(rest[0] if rest else "ui-shots", docs=bool(flags)))
