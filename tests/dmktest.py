# SPDX-License-Identifier: GPL-3.0-or-later
"""What the Python test scripts share (tests/cli, tests/integration,
tests/ui): check() and Skip, fresh directories on the build dir's file
system, drivemark-cli's usage errors, CSV output read back, and the TAP
runner. Plain stdlib; each script puts tests/ on sys.path to import it."""

import csv
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

TMP_BASE = os.environ.get("DMK_TEST_TMPDIR", ".")

# How much slower than a plain build the programs under test run: the
# sanitizer run (tests/sanitizers/env.sh) sets 3, as ASan makes the window
# start and draw about three times slower. Only the few tests that script
# a moment ("stop 0.8 s in, while the file is filling") scale by it.
TIME_SCALE = float(os.environ.get("DMK_TEST_TIME_SCALE", "1"))

# The backend "native" is in this run: libaio, or the one meson runs the
# integration tests again with (DMK_TEST_NATIVE, tests/meson.build).
NATIVE = os.environ.get("DMK_TEST_NATIVE", "libaio")

# The tests that read the progress line off a pseudo-terminal expect the
# line redrawn in place, which drivemark-cli draws only where TERM names a
# terminal that can erase a line (an unset or "dumb" TERM gets plain lines
# instead: test_conventions.py). CI may run without TERM: give the children
# one; test_conventions sets its own for the plain-line cases.
if os.environ.get("TERM", "") in ("", "dumb"):
    os.environ["TERM"] = "xterm"


class Skip(Exception):
    pass


def check(cond, what):
    if not cond:
        raise AssertionError(what)


class Dir:
    """A fresh directory on the build dir's (real) file system; a script
    names its own with a subclass that sets prefix."""

    prefix = "dmk-"

    def __enter__(self):
        os.makedirs(TMP_BASE, exist_ok=True)
        self.path = tempfile.mkdtemp(prefix=self.prefix, dir=TMP_BASE)
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)


def family(pid):
    """pid and its descendants: drivemark-cli runs a command in a child
    process (app/dmk-cli-guard.h), which holds the test file."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return out


def note(text):
    """Prints text as TAP comments: every line gets its "# ", so a
    multi-line message is never read as a stray TAP line."""
    for line in str(text).splitlines() or [""]:
        print(f"# {line}")


def need_root(*tools, why="mounts, loop devices"):
    """Skips unless root and every tool is on PATH."""
    if os.geteuid() != 0:
        raise Skip(f"needs root ({why})")
    for t in tools:
        if not shutil.which(t):
            raise Skip(f"needs {t}")


class RandomLoop:
    """A loop device over a file of `mib` MiB of random bytes in folder d
    (the test's own), detached on exit; a Skip where it cannot be made."""

    def __init__(self, d, mib):
        self.img, self.mib, self.dev = os.path.join(d, "disk.img"), mib, None

    def __enter__(self):
        if os.geteuid() != 0:
            raise Skip("needs root to create loop devices")
        if not shutil.which("losetup"):
            raise Skip("needs losetup (util-linux)")
        with open(self.img, "wb") as f:
            f.write(os.urandom(self.mib << 20))
        r = subprocess.run(["losetup", "-f", "--show", self.img], capture_output=True, text=True)
        if r.returncode != 0:
            raise Skip(f"no loop device here: {r.stderr.strip()}")
        self.dev = r.stdout.strip()
        return self

    def __exit__(self, *exc):
        if self.dev:
            subprocess.run(["losetup", "-d", self.dev], capture_output=True)


def sh(args, timeout=120, **kw):
    """A helper command (losetup, mount, mkfs), output captured as text."""
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)


def sha(path, start=0, length=None):
    """SHA-256 of a file, or of length bytes from start, read 4 MiB at a time."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        f.seek(start)
        left = os.path.getsize(path) - start if length is None else length
        while left > 0:
            b = f.read(min(left, 4 << 20))
            if not b:
                break
            h.update(b)
            left -= len(b)
    return h.hexdigest()


def run_cli(cli, args, timeout, env=None, prefix=()):
    """Runs drivemark-cli (after prefix, a command that runs it) with args,
    stdout and stderr captured as text; env adds to os.environ."""
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run(list(prefix) + [cli] + args, capture_output=True, text=True,
                          timeout=timeout, env=e)


def check_usage_error(r, args, needles, hint=False):
    """r, the run of args, is a usage error: exit 2, each of needles (and
    with hint, the pointer to --help) on stderr, nothing on stdout."""
    check(r.returncode == 2, f"{args}: exit {r.returncode}, expected 2; stderr: {r.stderr}")
    for n in needles:
        check(n in r.stderr, f"{args}: stderr lacks {n!r}: {r.stderr}")
    if hint:
        check("Try 'drivemark-cli --help'." in r.stderr, f"{args}: no hint: {r.stderr}")
    check(r.stdout == "", f"{args}: printed on stdout: {r.stdout}")


def hold_then(proc, fifo, act):
    """Waits for drivemark-cli's DMK_TEST_VERIFY_HOLD signal on fifo (it is
    about to read back what it wrote), runs act(), then lets it go on.
    Opens without blocking, so a run that ends first cannot hang the test.
    True when it held; False when the run ended without the signal."""
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    got = b""
    try:
        while proc.poll() is None and not got.endswith(b"\n"):
            try:
                got += os.read(fd, 64)
            except BlockingIOError:
                pass
            time.sleep(0.001)
    finally:
        os.close(fd)
    if not got.startswith(b"verify"):
        return False
    act()
    while proc.poll() is None:
        try:
            w = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: its reading end is not open yet
            time.sleep(0.001)
            continue
        os.write(w, b"go\n")
        os.close(w)
        break
    return True


def read_pty_until(fd, proc, needle, seconds, what=None):
    """Reads the progress a child draws on the pty fd until needle shows;
    what it read. Fails (with what, if given, as the reason) when proc
    ends first or seconds pass."""
    buf, deadline = b"", time.monotonic() + seconds
    while time.monotonic() < deadline:
        check(proc.poll() is None, f"the run ended early: {buf[-300:]!r}")
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        buf += data
        if needle in buf:
            return buf
    what = what or f"no {needle!r} in the progress within {seconds} s"
    raise AssertionError(f"{what}: {buf[-300:]!r}")


def drain_pty(fd):
    """Reads the pty fd to its end, so the child never blocks on it."""
    while True:
        try:
            if not os.read(fd, 4096):
                return
        except OSError:
            return

def held_run(d, argv, act, timeout=120):
    """Runs argv (a verified write run of drivemark-cli) held before its
    read-back on a fifo in d while act() runs (hold_then); the process is
    killed if it outlives timeout. (proc, held, stdout, stderr)."""
    fifo = os.path.join(d, "hold")
    os.mkfifo(fifo)
    env = dict(os.environ, DMK_TEST_VERIFY_HOLD=fifo)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        held = hold_then(proc, fifo, act)
        out, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc, held, out, err


def parse_csv(text):
    check("\r\n" in text, "CSV rows end in CRLF")
    return list(csv.DictReader(io.StringIO(text, newline="")))


def read_csv(path):
    return parse_csv(open(path, encoding="utf-8", newline="").read())


def tests_in(namespace):
    """[(name, function)] of a module's test_ functions, in file order."""
    return [(n, f) for n, f in namespace.items() if n.startswith("test_") and callable(f)]


def bare_name(name):
    """name without a leading "test_"."""
    return name[5:] if name.startswith("test_") else name


def only(tests):
    """The tests $DMK_TEST_ONLY names (one case, by the name TAP prints,
    the "test_" optional; tests/dmk-test.h reads the same variable), all of
    them when it is unset; None when it names no case."""
    name = os.environ.get("DMK_TEST_ONLY", "")
    if not name:
        return tests
    picked = [t for t in tests if bare_name(t[0]) == bare_name(name)]
    return picked or None


def run_tap(tests, plan_first=False, timed=False):
    """Runs [(name, function)] and prints TAP: the plan first or last, each
    test's seconds after its name when timed, and a "# " line with what a
    test returns. Returns the exit status. With DMK_TEST_ONLY (only()), the
    one case it names; a name no case has is a "Bail out!" and exit 1."""
    picked = only(tests)
    if picked is None:
        print(f'Bail out! no test case named "{os.environ["DMK_TEST_ONLY"]}" (DMK_TEST_ONLY)')
        return 1
    tests = picked
    if plan_first:
        print(f"1..{len(tests)}")
    failed = 0
    for i, (name, fn) in enumerate(tests, 1):
        t0 = time.monotonic()
        try:
            note = fn()
            took = f" ({time.monotonic() - t0:.1f} s)" if timed else ""
            print(f"ok {i} - {name}{took}")
            for line in str(note or "").splitlines():
                print(f"# {line}")
        except Skip as s:
            # One line: a reason quoting a tool's message (mount's second
            # line) would otherwise be a line TAP does not know.
            print(f"ok {i} - {name} # SKIP {' '.join(str(s).split())}")
        except Exception:  # noqa: BLE001 - every failure is reported
            failed += 1
            print(f"not ok {i} - {name}")
            for line in traceback.format_exc().splitlines():
                print(f"# {line}")
        sys.stdout.flush()
    if not plan_first:
        print(f"1..{len(tests)}")
    return 1 if failed else 0
