#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""drivemark-cli's review-lab commands (sustained, fullspan, mixed, latency,
recovery) as a user drives them: the help, usage errors (exit 2, a message
naming the option, nothing on stdout), the null backend's simulated drive
wired to its options, and Ctrl+C during a sustained write: exit 130 with
the samples so far saved. Prints TAP.

    test_lab_cli.py DRIVEMARK_CLI"""

import json
import os
import pty
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import check, read_csv  # noqa: E402

CLI = os.environ.get("DMK_CLI") or sys.argv[1]
LABS = ["sustained", "fullspan", "mixed", "latency", "recovery", "files"]


def run(args, timeout=120):
    return dmktest.run_cli(CLI, args, timeout)


class Dir(dmktest.Dir):
    """A fresh directory on the build dir's (real) file system."""

    prefix = "labcli-"


def usage_error(args, *needles):
    dmktest.check_usage_error(run(args), args, needles, hint=True)


# ---- help and usage -------------------------------------------------------------


LAB_OPTIONS = ["--duration SECONDS", "--sample SECONDS", "--step SECONDS", "--idle SECONDS",
               "--settle SECONDS", "--margin SIZE", "--null-cache SIZE", "--null-thermal SIZE",
               "--null-slow N"]


def test_help():
    r = run(["--help"])
    check(r.returncode == 0 and r.stderr == "", f"--help: {r.returncode} {r.stderr}")
    text = r.stdout
    check("drivemark-cli sustained|fullspan|mixed|latency|recovery|surface|files" in text,
          "usage line of the lab commands")
    for lab in LABS:
        check(lab in text.split("Options of")[0], f"--help does not describe {lab}")
    check("\nOptions of the lab tests:\n" in text, "no heading for the lab options")
    section = text.split("\nOptions of the lab tests:\n")[1].split("\n\n")[0]
    for opt in LAB_OPTIONS:
        check(f"\n  {opt} " in "\n" + section, f"the lab options lack {opt}: {section}")
    # options shared with run and sweep name the lab tests where they apply
    check("Options of run and the lab tests:\n  --test NAME" in text, "--test for the lab tests")
    check("Options of sweep and the lab tests:\n  --qd LIST" in text, "--qd for mixed")
    # help texts wrap at 80 columns: phrases compared with the line breaks undone
    words = " ".join(text.split())
    check("mixed: one, per thread" in words, "--qd's meaning for mixed")
    check("default: 5m for sustained and recovery" in words, "--settle's default")
    # each lab command's --help is the same help
    for lab in LABS:
        r2 = run([lab, "--help"])
        check(r2.returncode == 0 and r2.stdout == text, f"{lab} --help: {r2.returncode}")


def test_lab_usage_errors():
    # options that do not fit the command
    usage_error(["sustained", "--idle", "5"], "--idle does not apply to sustained")
    usage_error(["mixed", "--idle", "5"], "--idle does not apply to mixed")
    usage_error(["fullspan", "--size", "1G", "--margin", "8M"],
                "--margin does not apply to fullspan with --size")
    usage_error(["sustained", "--margin", "8M"], "--margin does not apply to sustained")
    usage_error(["mixed", "--test", "RND4K Q1T1"], "--test does not apply to mixed")
    usage_error(["latency", "--test", "RND4K Q1T1"], "--test does not apply to latency")
    usage_error(["latency", "--duration", "10"], "--duration does not apply to latency")
    usage_error(["fullspan", "--duration", "10"], "--duration does not apply to fullspan")
    usage_error(["sustained", "--step", "10"], "--step does not apply to sustained")
    usage_error(["fullspan", "--settle", "10"], "--settle does not apply to fullspan")
    usage_error(["sustained", "--qd", "4"], "--qd does not apply to sustained")
    usage_error(["mixed", "--qd", "1,2"], "mixed takes one --qd")
    usage_error(["sustained", "--test", "RND4K Q1T1", "--test", "RND4K Q2T1"],
                "sustained takes one --test")
    usage_error(["fullspan", "--test", "RND4K Q8T1"], "sequential")
    # the simulated drive needs the null backend
    usage_error(["sustained", "--null-cache", "1G"], "--null-cache", "--backend null")
    usage_error(["sustained", "--null-thermal", "1M"], "--null-thermal", "--backend null")
    # values out of range name the option and the range
    usage_error(["sustained", "--sample", "0.01"], "--sample '0.01'", "0.1")
    usage_error(["sustained", "--sample", "61"], "--sample '61'", "60")
    usage_error(["sustained", "--duration", "0"], "--duration '0'")
    usage_error(["sustained", "--duration", "-5"], "--duration '-5'")
    usage_error(["recovery", "--step", "0.05"], "--step '0.05'")
    usage_error(["recovery", "--idle", "-1"], "--idle '-1'")
    usage_error(["sustained", "--settle", "-1"], "--settle '-1'")
    usage_error(["fullspan", "--margin", "0"], "--margin '0'")
    usage_error(["sustained", "--size", "8M"], "--size '8M'")
    usage_error(["sustained", "--backend", "null", "--null-slow", "0"], "--null-slow '0'")
    usage_error(["sustained", "--null-clock", "simulated"], "--null-clock", "--backend null")
    usage_error(["sustained", "--backend", "null", "--null-clock", "simulated"],
                "--null-clock simulated needs --null-latency above 0")
    usage_error(["run", "--backend", "null", "--null-clock", "fast"], "--null-clock 'fast'")
    usage_error(["sustained", "--backend", "null", "--null-cache", "1KB"], "--null-cache '1KB'")
    # lab options are not run's, nor run's the lab's
    usage_error(["run", "--duration", "5"], "'--duration' is not an option of run")
    usage_error(["run", "--null-cache", "1G"], "'--null-cache' is not an option of run")
    usage_error(["sustained", "--profile", "peak"], "'--profile' is not an option of sustained")
    usage_error(["latency", "--passes", "2"], "'--passes' is not an option of latency")
    usage_error(["recovery", "--mode", "read"], "'--mode' is not an option of recovery")


# ---- the simulated drive through the command line --------------------------------


def test_null_sustained_cache_and_thermal():
    # 2000 us, QD32: 16,000 IOPS; a 64 MiB cache (the fill takes 16 MiB of
    # it, it drains at 64 MiB / 5 s), 4x slower past it. On the simulated
    # clock (--null-clock simulated) the numbers are the simulated drive's,
    # however busy the machine.
    r = run(["sustained", "--backend", "null", "--null-latency", "2000", "--null-cache", "64M",
             "--size", "16M", "--settle", "0", "--duration", "2.5", "--sample", "0.1",
             "--null-clock", "simulated", "--quiet", "--json", "-"])
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    doc = json.loads(r.stdout)
    check(doc["lab"] == "sustained" and doc["backend"] == "null", "context")
    x = doc["results"][0]
    check(x["label"] == "sustained" and len(x["timeline"]) == 25, f"{len(x['timeline'])} samples")
    check(all(s["temp_c"] is None for s in x["timeline"]), "a temperature without a sensor")
    fast = [s["iops"] for s in x["timeline"][1:4]]
    slow = [s["iops"] for s in x["timeline"][-5:]]
    check(all(abs(v - 16000) <= 160 for v in fast), f"fast samples {fast}, expected 16,000")
    # past the cache 4,000, and what drains meanwhile goes at full speed again
    check(all(3840 <= v <= 4200 for v in slow), f"slow samples {slow}, expected ~4,000")
    check("Cache: " in r.stderr and "written before the speed dropped" in r.stderr,
          f"report: {r.stderr}")
    check("no temperature sensor" in r.stderr, r.stderr)
    # a sensor that reaches 80 C and throttles
    r = run(["sustained", "--backend", "null", "--null-latency", "2000", "--null-thermal",
             "1536K", "--size", "16M", "--settle", "0", "--duration", "2.5", "--sample", "0.1",
             "--null-clock", "simulated", "--quiet", "--json", "-"])
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    doc = json.loads(r.stdout)
    check(doc["temp_sensor"] == "simulated sensor (null backend)", doc["temp_sensor"])
    temps = [s["temp_c"] for s in doc["results"][0]["timeline"]]
    check(all(t is not None and 40 <= t <= 80 for t in temps), f"temperatures {temps}")
    check(temps[-1] == 80 and temps[0] < 70, f"temperatures {temps}")
    check("Thermal throttling: after" in r.stderr and "maximum of 80 C" in r.stderr, r.stderr)


# ---- Ctrl+C -------------------------------------------------------------------------


# What a Ctrl+C in a 60 s run may take: a moment on a quiet machine, at
# most 6 s of the engine's own clock (DMK_STOP_LIMIT_NS); past this the
# signal was not seen (the run would go on to its end). A bound for a
# missed signal, not a timing check: a loaded machine cannot fail it.
STOP_BOUND_S = 30


def interrupted(target, extra, d, measure_s):
    """A sustained write interrupted measure_s seconds into its measurement;
    returns (exit status, stdout, seconds it took to stop, CSV rows)."""
    c = os.path.join(d, "partial.csv")
    master, slave = pty.openpty()
    proc = subprocess.Popen([CLI, "sustained", "--target", target, "--settle", "0", "--duration",
                             "60", "--sample", "0.25", "--csv", c] + extra,
                            stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    try:
        dmktest.read_pty_until(master, proc, b" elapsed ", 60)  # the measurement is under way
        time.sleep(measure_s)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        dmktest.drain_pty(master)
        out = proc.communicate(timeout=45)[0]
        took = time.monotonic() - t0
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    check(os.path.exists(c), "no CSV after Ctrl+C")
    return proc.returncode, out, took, read_csv(c)


def check_partial_csv(rows, measure_s):
    tests = [x for x in rows if x["record"] == "test"]
    samples = [x for x in rows if x["record"] == "sample"]
    check(len(tests) == 1, f"{len(tests)} test rows")
    check(all(x["complete"] == "0" for x in rows), "the result says complete")
    check(tests[0]["partial"] == "1", "the test is not marked partial")
    check(tests[0]["label"] == "sustained", tests[0]["label"])
    t = [float(x["t_s"]) for x in samples]
    print(f"# {len(samples)} samples: {t}")
    # 0.25 s samples up to the stop, the last maybe shorter
    check(len(t) >= int(measure_s / 0.25), f"{len(t)} samples for {measure_s} s")
    check(all(abs(v - 0.25 * (k + 1)) < 1e-6 for k, v in enumerate(t[:-1])), f"t_s {t}")
    check(0.25 * (len(t) - 1) < t[-1] <= 0.25 * len(t) + 1e-6, f"t_s {t}")
    return samples


def test_sigint_sustained_disk():
    with Dir() as d:
        target = os.path.join(d, "t")
        os.mkdir(target)
        rc, out, took, rows = interrupted(target, ["--size", "64MiB"], d, 1.5)
        check(rc == 130, f"exit {rc}, expected 130")
        check(took < STOP_BOUND_S, f"took {took:.1f} s to stop")
        check("Stopped before the end" in out and "(stopped early)" in out, out)
        check_partial_csv(rows, 1.5)
        check(os.listdir(target) == [], f"left behind: {os.listdir(target)}")


def test_sigint_sustained_null():
    """The same on the null backend, whose speed is known: the last,
    partial sample and the test's numbers cover the time until the stop,
    not the moments after it. These are rates on the real clock, which a
    loaded machine lowers unevenly, so only a gross error fails here (half
    the speed); test-lab's stop tests check the same runner exactly, on
    the simulated clock."""
    with Dir() as d:
        rc, out, took, rows = interrupted(".", ["--backend", "null", "--null-latency", "1000",
                                                "--size", "16M"], d, 1.2)
        check(rc == 130, f"exit {rc}, expected 130")
        check(took < STOP_BOUND_S, f"took {took:.1f} s to stop")
        samples = check_partial_csv(rows, 1.2)
        iops = [float(x["iops"]) for x in samples]
        whole = statistics.median(iops[:-1])
        last_len = float(samples[-1]["t_s"]) - float(samples[-2]["t_s"])
        test = [x for x in rows if x["record"] == "test"][0]
        print(f"# median sample {whole:.0f} IOPS, the last ({last_len:.3f} s) {iops[-1]:.0f}, "
              f"the test {float(test['iops']):.0f}")
        if last_len >= 0.05:
            check(iops[-1] >= 0.5 * whole,
                  f"the last sample ({last_len:.3f} s) ran at {iops[-1]:.0f} IOPS against "
                  f"{whole:.0f}: it counts time after the stop")
        check(float(test["iops"]) >= 0.5 * whole,
              f"the test's {test['iops']} IOPS against samples of {whole:.0f}: its seconds run "
              f"past the stop")


def test_sigterm_lab():
    """SIGTERM during the recovery test's idle keeps the probes before it:
    the signal goes once the progress line shows the idle (the 60 s idle
    before "after idle"), whatever the machine's speed."""
    with Dir() as d:
        c = os.path.join(d, "r.csv")
        master, slave = pty.openpty()
        proc = subprocess.Popen([CLI, "recovery", "--backend", "null", "--size", "16M",
                                 "--settle", "0", "--step", "0.3", "--duration", "1", "--idle",
                                 "60", "--sample", "0.1", "--csv", c],
                                stdout=subprocess.PIPE, stderr=slave, text=True)
        os.close(slave)
        try:
            dmktest.read_pty_until(master, proc, b"  Interval before ", 60)
            proc.send_signal(signal.SIGTERM)
            dmktest.drain_pty(master)
            out = proc.communicate(timeout=45)[0]
        finally:
            os.close(master)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        check(proc.returncode == 143, f"exit {proc.returncode}")
        rows = read_csv(c)
        tests = [x["label"] for x in rows if x["record"] == "test"]
        check(tests == ["fresh", "degradation", "degraded"], f"tests {tests}")
        check(all(x["partial"] == "0" for x in rows if x["record"] == "test"), "partial")
        check("after idle   not measured" in out, out)


# ---- the findings saved -------------------------------------------------------------

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "lab-findings")


def test_show_reads_saved_findings():
    # show prints a lab file's findings as its finding rows say them (an
    # edited cache size too); a schema 5 file, without them, as its
    # samples give them; the run's own report and the JSON say the same.
    with Dir() as d:
        edited = os.path.join(d, "edited.csv")
        with open(os.path.join(DATA, "cache-schema6.csv"), newline="") as f:
            text = f.read()
        with open(edited, "w", newline="") as f:
            f.write(text.replace('"cliff.cache",65230321,', '"cliff.cache",2147483648,'))
        said = {}
        for name in ("cache-schema6.csv", "cache-schema5.csv", edited):
            r = run(["show", os.path.join(DATA, name)])
            check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr}")
            said[name] = [x for x in r.stdout.splitlines() if x.startswith("Cache: ")]
        check(said["cache-schema6.csv"] == said["cache-schema5.csv"] and
              said["cache-schema6.csv"][0].startswith("Cache: about 62 MiB +-1 MiB written before"), said)
        check(said[edited][0].startswith("Cache: about 2.0 GiB (2,048 +-1 MiB) written before"), said)
        # a fresh run: its report, its CSV's finding rows and its JSON agree
        c, j = os.path.join(d, "r.csv"), os.path.join(d, "r.json")
        r = run(["sustained", "--backend", "null", "--null-latency", "2000", "--null-cache",
                 "64M", "--size", "16M", "--settle", "0", "--duration", "2.5", "--sample", "0.1",
                 "--null-clock", "simulated", "--quiet", "--csv", c, "--json", j])
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        rows = {x["finding"]: x for x in read_csv(c) if x["record"] == "finding"}
        doc = json.load(open(j, encoding="utf-8"))["findings"]["cliff"][0]
        check(rows["cliff.cache"]["unit"] == "bytes" and
              int(rows["cliff.cache"]["value"]) == doc["cache_bytes"], f"{rows} / {doc}")
        check(float(rows["cliff.after"]["value"]) == doc["after_iops"], f"{rows} / {doc}")
        s = run(["show", c])
        mine = [x for x in (r.stdout + r.stderr).splitlines() if x.startswith("Cache: ")]
        check(mine and mine == [x for x in s.stdout.splitlines() if x.startswith("Cache: ")],
              f"run: {mine}; show: {s.stdout}")
        return mine[0]


# ---- TAP runner ------------------------------------------------------------


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals()), timed=True))
