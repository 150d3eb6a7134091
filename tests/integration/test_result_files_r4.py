#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Result files, round four: without /proc (a chroot or a minimal
container) a non-root user could not name an O_TMPFILE file at the end
(linkat of /proc/self/fd/N; AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH
before Linux 6.10), so the result would be lost after the whole run.
DMK_TEST_PROC_FD points the program's /proc/self/fd at a missing
directory, DMK_TEST_NO_FLINK makes AT_EMPTY_PATH fail as an older kernel
does: a non-root run (user nobody via setpriv when the test is root, else
the test's own user) then writes to a named temporary file from the
start, seen while the run is held, and ends with complete results and
nothing else in the directory; on this kernel as it is the same holds
whichever way it names the file, also with /proc really unmounted in a
private mount namespace (unshare -m). Root keeps the nameless file.
Prints TAP.

    test_result_files_r4.py DRIVEMARK_CLI"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import dmktest  # noqa: E402
from dmktest import check, need_root  # noqa: E402
from test_real_faults import CLI, NOBODY, world_dir  # noqa: E402

NOBODY_ID = 65534


class Dir(dmktest.Dir):
    prefix = "results4-"


def held_run(d, out, prefix, act, env=None):
    """A verified write run on d/t, its results in out, run under prefix
    with /proc/self/fd taken away, held before its read-back while act()
    runs. (proc, held, stdout, stderr)."""
    target = os.path.join(d, "t")
    os.mkdir(target)
    fifo = os.path.join(d, "hold")
    os.mkfifo(fifo)
    if prefix:
        for p in (target, out):
            os.chown(p, NOBODY_ID, NOBODY_ID)
        os.chmod(fifo, 0o666)
    argv = list(prefix) + [
        CLI, "run", "--target", target, "--size", "16MiB", "--test", "SEQ1M Q1T1", "--mode",
        "write", "--verify", "--passes", "1", "--measure", "0.1", "--warmup", "0", "--interval",
        "0", "--quiet", "--json", os.path.join(out, "r.json"), "--csv",
        os.path.join(out, "r.csv")]
    env = dict(os.environ, DMK_TEST_VERIFY_HOLD=fifo,
               DMK_TEST_PROC_FD=os.path.join(d, "no-proc", "self", "fd"), **(env or {}))
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        held = dmktest.hold_then(proc, fifo, act)
        o, e = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc, held, o, e


def temps(out):
    return sorted(n for n in os.listdir(out) if n.startswith(".drivemark-result-"))


def check_results(proc, held, err, out):
    check(held, f"never held: {err}")
    check(proc.returncode == 0, f"exit {proc.returncode}: {err}")
    check(sorted(os.listdir(out)) == ["r.csv", "r.json"], f"left: {os.listdir(out)}")
    res = json.load(open(os.path.join(out, "r.json")))
    check(res.get("complete") is True, f"complete: {res.get('complete')}")
    rows = dmktest.read_csv(os.path.join(out, "r.csv"))
    check(len(rows) >= 1 and rows[0]["test"] == "SEQ1M Q1T1", f"csv: {rows[:1]}")


def non_root_run(env):
    """A non-root run without /proc, an old result of the user's replaced:
    the temporary files seen while it was held."""
    prefix = ()
    if os.geteuid() == 0:
        need_root("setpriv")
        prefix = NOBODY
    with Dir() as d:
        if prefix:
            world_dir(d)
        out = os.path.join(d, "out")
        os.mkdir(out)
        old = os.path.join(out, "r.json")
        open(old, "w").write("old\n")
        if prefix:
            os.chown(old, NOBODY_ID, NOBODY_ID)
        seen = []
        proc, held, _, err = held_run(d, out, prefix, lambda: seen.extend(temps(out)), env)
        dmktest.note(err.strip())
        check_results(proc, held, err, out)
        return seen


def test_no_proc_non_root_without_flink():
    """Non-root without /proc, where AT_EMPTY_PATH needs a capability
    (before Linux 6.10; DMK_TEST_NO_FLINK): the named temporary files
    exist while the run is held (nameless ones could not have been named
    at the end), and the results are complete, nothing else left."""
    seen = non_root_run({"DMK_TEST_NO_FLINK": "1"})
    check(len(seen) == 2, f"named temporary files while held: {seen}")
    return f"while held: {seen}"


def test_no_proc_non_root_this_kernel():
    """The same on this kernel as it is: whichever way it names the file,
    the results are complete and nothing else is left."""
    seen = non_root_run({})
    return f"while held: {seen or 'no name (AT_EMPTY_PATH allowed)'}"


def test_no_proc_root_keeps_nameless_temp():
    """Root without /proc: AT_EMPTY_PATH names the file at the end, so
    it keeps no name during the run (a kill leaves nothing)."""
    need_root(why="CAP_DAC_READ_SEARCH")
    with Dir() as d:
        out = os.path.join(d, "out")
        os.mkdir(out)
        seen = []
        proc, held, _, err = held_run(d, out, (), lambda: seen.extend(temps(out)))
        check(seen == [], f"named temporary files while held: {seen}")
        check_results(proc, held, err, out)


def test_real_no_proc_in_a_mount_namespace():
    """For real: /proc unmounted in a private mount namespace (unshare -m,
    nothing outside it changes), the run as user nobody: the results are
    complete and nothing else is left, whichever way this kernel lets the
    file be named. Root only."""
    need_root("unshare", "setpriv", why="a mount namespace")
    if "ASAN_OPTIONS" in os.environ:
        # The sanitized run (tests/sanitizers/env.sh): the sanitizers'
        # runtime reads its options from /proc/self/environ and stops the
        # threads for its leak check through /proc/PID/task, so with no
        # /proc it ends the program with a fatal error of its own. The
        # native suite runs this case.
        raise dmktest.Skip("a sanitized program cannot run without /proc (the runtime reads "
                           "its options and threads there); the native suite runs this case")
    with Dir() as d:
        world_dir(d)
        target, out = os.path.join(d, "t"), os.path.join(d, "out")
        for p in (target, out):
            os.mkdir(p)
            os.chown(p, NOBODY_ID, NOBODY_ID)
        argv = [CLI, "run", "--target", target, "--size", "16MiB", "--test", "SEQ1M Q1T1",
                "--mode", "write", "--passes", "1", "--measure", "0.1", "--warmup", "0",
                "--interval", "0", "--quiet", "--json", os.path.join(out, "r.json"), "--csv",
                os.path.join(out, "r.csv")]
        script = 'umount -l /proc && test ! -e /proc/self/fd && exec "$@"'
        r = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script,
                            "sh"] + list(NOBODY) + argv, capture_output=True, text=True,
                           timeout=120)
        if r.returncode != 0 and "umount" in r.stderr:
            raise dmktest.Skip(f"cannot unmount /proc in a mount namespace: {r.stderr.strip()}")
        check_results(r, True, r.stderr, out)


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
