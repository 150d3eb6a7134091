#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Stalls and pauses through drivemark-cli, for real (on the native
backend: libaio, or io_uring where meson runs it with DMK_TEST_NATIVE,
whose requests wait in flight where libaio's io_submit blocks):

- fsfreeze of a loop-mounted ext4 that the test makes under the build
  dir (never anything else): SIGINT while a worker is blocked in
  io_submit ends the command within a bound with status 130 (SIGTERM:
  143), although the blocked thread cannot be ended before the thaw,
  with the O_TMPFILE file and with the named-file fallback, whose name is
  gone while it runs; a freeze longer than a short watchdog (--watchdog
  2) ends it with status 1 and a stall message, never 0; a shorter one (4
  s) flags the pass "paused". After the thaw nothing is
  left on the file system and e2fsck finds it clean.
- SIGSTOP of the whole command for 3 s inside a 6 s pass: the pass and
  the test are flagged "paused" in the JSON and the table.

Each waits for states, never for luck: for "pass 1/1" on the progress line
(stderr on a pseudo-terminal), for a thread of the command blocked on the
frozen file system (state D in /proc), for the process to be gone. The
file system is thawed in a finally block and, as a second safety, by a
timer thread after THAW_AFTER_S even if the test itself hangs. Needs
root; skips with the reason otherwise. Prints TAP.

    test_stall.py DRIVEMARK_CLI"""

import contextlib
import json
import os
import pty
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check  # noqa: E402


def need_root(*tools):
    dmktest.need_root(*tools, why="a loop mount and fsfreeze")

CLI = os.path.abspath(os.environ.get("DMK_CLI") or sys.argv[1])
MIB = 1 << 20
# The timer's thaw: longer than any freeze a test means to hold.
THAW_AFTER_S = 90
# A test that goes past these has hung: bounds, not timings.
WAIT_S = 60
# The guard's bound after a signal (app/dmk-cli-guard.h: 10 s) plus room.
EXIT_BOUND_S = 20
# How the native backend meets a frozen file system: libaio's io_submit
# blocks in it (a stuck call, which the runner describes, and a pause);
# io_uring hands the write to a kernel worker and the request stays in
# flight (the worker's own watchdog, and the freeze in the latency).
SUBMIT_BLOCKS = dmktest.NATIVE == "libaio"
WRITE_RUN = ["run", "--size", "64MiB", "--test", "SEQ1M Q8T1", "--mode", "write",
             "--passes", "1", "--measure", "120", "--warmup", "0", "--interval", "0"]




class Dir(dmktest.Dir):
    prefix = "stall-"


class FrozenFs:
    """An ext4 image under the build dir, loop-mounted; freeze() and
    thaw() act on that mount only, and it is thawed, unmounted and its
    image checked whatever happens."""

    def __init__(self, d, direct_io=False):
        self.direct_io = direct_io
        self.img = os.path.join(d, "fs.img")
        self.mnt = os.path.join(d, "mnt")
        self.frozen = False
        self.lock = threading.Lock()
        self.timer = None

    def __enter__(self):
        with open(self.img, "wb") as f:
            f.truncate(256 * MIB)
        r = subprocess.run(["mkfs.ext4", "-q", "-F", self.img], capture_output=True, text=True)
        if r.returncode != 0:
            raise Skip(f"mkfs.ext4: {r.stderr.strip()}")
        os.makedirs(self.mnt)
        r = subprocess.run(["mount", "-o", "loop", self.img, self.mnt], capture_output=True,
                           text=True)
        if r.returncode != 0:
            raise Skip(f"a loop mount is not allowed here: {r.stderr.strip()}")
        if self.direct_io:
            self.set_direct_io()
        return self

    def set_direct_io(self):
        """The mount's loop device reads and writes its image with direct
        I/O: the latency the run sees is then the disk's, not the page
        cache's, whose dirty throttling on a busy machine makes some writes
        take hundreds of ms (and with them the pause rule's 50 x p99)."""
        src = subprocess.run(["findmnt", "-no", "SOURCE", self.mnt], capture_output=True,
                             text=True).stdout.strip()
        r = subprocess.run(["losetup", "--direct-io=on", src], capture_output=True, text=True)
        if r.returncode != 0:
            raise Skip(f"losetup --direct-io=on {src}: {r.stderr.strip()}")

    def freeze(self):
        with self.lock:
            subprocess.run(["fsfreeze", "--freeze", self.mnt], check=True)
            self.frozen = True
        # The second safety: thaws even if the test hangs before its finally.
        self.timer = threading.Timer(THAW_AFTER_S, self.thaw)
        self.timer.daemon = True
        self.timer.start()

    def thaw(self):
        with self.lock:
            if self.frozen:
                r = subprocess.run(["fsfreeze", "--unfreeze", self.mnt], capture_output=True,
                                   text=True)
                check(r.returncode == 0, f"fsfreeze --unfreeze: {r.stderr.strip()}")
                self.frozen = False

    def __exit__(self, *exc):
        try:
            self.thaw()
        finally:
            if self.timer:
                self.timer.cancel()
            if os.path.ismount(self.mnt):
                # The command's stuck child ends at the thaw; its files go then.
                for _ in range(WAIT_S * 10):
                    if subprocess.run(["umount", self.mnt], capture_output=True).returncode == 0:
                        break
                    time.sleep(0.1)

    @contextlib.contextmanager
    def command(self, args, env=None):
        """A Command for a test on this file system: however the body ends,
        the file system is thawed and the command closed."""
        cmd = Command(args, env)
        try:
            yield cmd
        finally:
            self.thaw()
            cmd.close()

    def check_clean(self):
        """Nothing left, the file system writable again, e2fsck clean."""
        check(os.listdir(self.mnt) == ["lost+found"], f"left behind: {os.listdir(self.mnt)}")
        probe = os.path.join(self.mnt, "after-thaw")
        with open(probe, "w") as f:
            f.write("x")
            f.flush()
            os.fsync(f.fileno())
        os.unlink(probe)
        # An io_uring ring is torn down by the kernel after the process
        # is gone (its exit work), holding the test file until then: the
        # file system is busy for that moment, so umount is tried again.
        end = time.monotonic() + 10
        while True:
            r = subprocess.run(["umount", self.mnt], capture_output=True, text=True)
            if r.returncode == 0 or "busy" not in r.stderr or time.monotonic() > end:
                break
            time.sleep(0.1)
        check(r.returncode == 0, f"umount after the run: {r.stderr.strip()}")
        r = subprocess.run(["e2fsck", "-fn", self.img], capture_output=True, text=True)
        check(r.returncode == 0, f"e2fsck: {r.stdout}{r.stderr}")


class Command:
    """drivemark-cli with stderr on a pseudo-terminal (so it draws its
    progress line) in its own process group; a thread drains the terminal
    so the command never blocks on it."""

    def __init__(self, args, env=None):
        e = dict(os.environ)
        e.update(env or {})
        master, slave = pty.openpty()
        self.proc = subprocess.Popen([CLI] + args, stdout=subprocess.PIPE, stderr=slave,
                                     text=True, env=e, start_new_session=True)
        os.close(slave)
        self.master = master
        self.buf = b""
        self.cond = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError:  # EIO once no process holds the terminal
                data = b""
            with self.cond:
                if not data:
                    self.closed = True
                    self.cond.notify_all()
                    return
                self.buf += data
                self.cond.notify_all()

    def text(self):
        with self.cond:
            return self.buf.decode("utf-8", "replace")

    def wait_for(self, needle, timeout=WAIT_S):
        end = time.monotonic() + timeout
        with self.cond:
            while needle.encode() not in self.buf:
                check(self.proc.poll() is None or not getattr(self, "closed", False),
                      f"ended before {needle!r}: {self.text()!r}")
                left = end - time.monotonic()
                check(left > 0, f"never saw {needle!r}: {self.buf[-500:]!r}")
                self.cond.wait(min(left, 0.2))

    def worker_pid(self):
        """The child that runs the command (app/dmk-cli-guard.h)."""
        fam = dmktest.family(self.proc.pid)
        return fam[1] if len(fam) > 1 else self.proc.pid

    def wait_blocked(self, pid, timeout=WAIT_S):
        """Until a thread of pid sleeps uninterruptibly (state D): a call
        blocked on the frozen file system."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                for task in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{task}/stat") as f:
                        state = f.read().rsplit(")", 1)[1].split()[0]
                    if state == "D":
                        return
            except OSError:
                pass
            check(self.proc.poll() is None, f"ended early: {self.text()!r}")
            time.sleep(0.05)
        raise AssertionError("no thread ever blocked on the frozen file system")

    def finish(self, timeout):
        try:
            self.proc.wait(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        out = self.proc.stdout.read()
        self.proc.stdout.close()
        # All it wrote: the child let go of the terminal before it reported
        # its end, so the reader sees the end of it.
        self.reader.join(timeout=WAIT_S)
        return out

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.reader.join(timeout=WAIT_S)
        os.close(self.master)


def alive_tasks(pid):
    """The threads of pid that have not ended: the leader of a process
    whose other thread is stuck in the kernel is a zombie already."""
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X"):
                        out.append(task)
            except OSError:
                pass
    except OSError:
        pass
    return out


def gone(pid, timeout=WAIT_S):
    """Until every thread of process pid has ended (the stuck child, after
    the thaw): then its files, the test file among them, are closed."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not alive_tasks(pid):
            return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} still there after the thaw")


def freeze_on(cmd, fs):
    """Once cmd's pass runs: freezes fs and waits until a thread of the
    command's worker is blocked on it. The worker's pid."""
    cmd.wait_for("pass 1/1")
    child = cmd.worker_pid()
    fs.freeze()
    cmd.wait_blocked(child)
    return child


def check_paused_pass(cmd, out_json, at_least):
    """cmd ended well, and its JSON's one pass is flagged "paused" for at
    least at_least s. The test's result."""
    check(cmd.proc.returncode == 0, f"exit {cmd.proc.returncode}: {cmd.text()[-600:]!r}")
    t = json.load(open(out_json))["results"][0]
    paused = t["passes"][0].get("paused_s", 0)
    print(f"# paused_s {paused}, flags {t['flags']}, p99 {t.get('lat_p99_us')} us")
    check("paused" in t["flags"], f"flags {t['flags']}")
    check(paused >= at_least, f"paused_s {paused}")
    return t


def signal_during_freeze(env=None, sig=signal.SIGINT, status=130):
    need_root("fsfreeze", "mkfs.ext4", "e2fsck")
    with Dir() as d, FrozenFs(d) as fs:
        with fs.command(WRITE_RUN + ["--target", fs.mnt], env) as cmd:
            cmd.wait_for("pass 1/1")
            child = cmd.worker_pid()
            check(os.listdir(fs.mnt) == ["lost+found"],
                  f"the test file has a name while it runs: {os.listdir(fs.mnt)}")
            fs.freeze()
            cmd.wait_blocked(child)
            t0 = time.monotonic()
            cmd.proc.send_signal(sig)
            cmd.finish(EXIT_BOUND_S)
            took = time.monotonic() - t0
            check(cmd.proc.returncode == status, f"exit {cmd.proc.returncode}: {cmd.text()!r}")
            check(took < EXIT_BOUND_S, f"took {took:.1f} s to exit")
            print(f"# exit {status} after {took:.1f} s while frozen")
            err = cmd.text()
            if SUBMIT_BLOCKS:
                needles = ["stopped by the user (writing 1048576 bytes at offset ",
                           "so its thread was left behind; the test file is freed when the "
                           "program ends"]
            else:
                needles = ["stopped by the user (8 requests still in flight on the test file in ",
                           "were left to the OS, which ends them when the drive answers; the "
                           "test file is freed when the program ends"]
            for n in needles:
                check(n in err, f"message: {err[-600:]!r}")
            fs.thaw()
            gone(child)
        fs.check_clean()


def test_sigint_during_freeze():
    signal_during_freeze()


def test_sigterm_during_freeze():
    signal_during_freeze(sig=signal.SIGTERM, status=143)


def test_sigint_during_freeze_named_file():
    # The fallback's name is unlinked right after open: none while it runs
    # (checked inside), none after.
    signal_during_freeze({"DMK_TEST_NO_TMPFILE": "1"})


def test_freeze_longer_than_watchdog():
    need_root("fsfreeze", "mkfs.ext4", "e2fsck")
    with Dir() as d, FrozenFs(d) as fs:
        out_json = os.path.join(d, "r.json")
        with fs.command(WRITE_RUN + ["--target", fs.mnt, "--watchdog", "2", "--json",
                                     out_json]) as cmd:
            child = freeze_on(cmd, fs)
            cmd.finish(WAIT_S)
            err = cmd.text()
            check(cmd.proc.returncode == 1, f"exit {cmd.proc.returncode}: {err[-600:]!r}")
            needles = (["the drive did not complete any request for ",
                        "(SEQ1M Q8T1 write: writing 1048576 bytes at offset "] if SUBMIT_BLOCKS
                       else ["no I/O completed for 2 s on the test file in ",
                             "has not completed (8 requests in flight)"])
            # The supervisor's words for a stuck call; io_uring's worker
            # came back and said it itself.
            for n in needles + (["The run is not complete"] if SUBMIT_BLOCKS else []):
                check(n in err, f"message: {err[-600:]!r}")
            if os.path.exists(out_json):
                doc = json.load(open(out_json))
                check(doc["complete"] is False, "a stalled run's JSON says complete")
            fs.thaw()
            gone(child)
        fs.check_clean()


def test_short_freeze_flags_the_pass():
    """A freeze shorter than the watchdog: no failure, but the pass that
    counted it is flagged paused, with the freeze's length."""
    need_root("fsfreeze", "mkfs.ext4", "e2fsck", "findmnt", "losetup")
    with Dir() as d, FrozenFs(d, direct_io=True) as fs:
        out_json = os.path.join(d, "r.json")
        # The freeze is long against the rule's max(0.5 s, 50 x p99): a
        # p99 over 160 ms would hide it, far from a direct-I/O disk's.
        with fs.command(["run", "--target", fs.mnt, "--size", "32MiB", "--test", "RND4K Q1T1",
                         "--mode", "write", "--passes", "1", "--measure", "14", "--warmup", "0",
                         "--interval", "0", "--watchdog", "60", "--json", out_json]) as cmd:
            child = freeze_on(cmd, fs)
            time.sleep(8.0)  # the freeze's length, not a wait for a state
            fs.thaw()
            cmd.finish(WAIT_S)
        if SUBMIT_BLOCKS:
            check_paused_pass(cmd, out_json, 8.0)
        else:
            # The write waited in flight: its latency, not a pause.
            check(cmd.proc.returncode == 0, f"exit {cmd.proc.returncode}: {cmd.text()[-600:]!r}")
            t = json.load(open(out_json))["results"][0]
            print(f"# flags {t['flags']}, max latency {t['lat_max_us'] / 1e6:.1f} s")
            check(t["lat_max_us"] >= 7.5e6, f"max latency {t['lat_max_us']} us")
        fs.check_clean()


def test_sigstop_flags_the_pass():
    with Dir() as d:
        out_json = os.path.join(d, "r.json")
        target = os.path.join(d, "t")
        os.mkdir(target)
        cmd = Command(["run", "--target", target, "--size", "16MiB", "--test", "RND4K Q1T1",
                       "--mode", "read", "--passes", "1", "--measure", "6", "--warmup", "0",
                       "--interval", "0", "--json", out_json])
        try:
            cmd.wait_for("pass 1/1")
            os.killpg(cmd.proc.pid, signal.SIGSTOP)
            time.sleep(3.0)  # the pause itself, not a wait for a state
            os.killpg(cmd.proc.pid, signal.SIGCONT)
            out = cmd.finish(WAIT_S)
        finally:
            cmd.close()
        check_paused_pass(cmd, out_json, 3.0)
        check("paused" in out, f"the table does not show it: {out!r}")
        check(os.listdir(target) == [], f"left behind: {os.listdir(target)}")


# Round three (review findings 4 and 11a).

# How long a stalled or stopped run on a device over a frozen file system
# may take to end: the watchdog (3 s) or the stop's wait for what is in
# flight (3 s), plus room for a loaded machine; far under THAW_AFTER_S, so
# an end before the thaw is no luck of the timer.
DEVICE_BOUND_S = 40


def device_over_frozen_fs(extra, act):
    """A loop device with --direct-io=on over a file on the test's frozen
    ext4: requests are truly in flight (the loop's own writes block on the
    freeze, not drivemark's calls). act(cmd, fs, dev) freezes and acts."""
    need_root("fsfreeze", "mkfs.ext4", "e2fsck", "losetup")
    with Dir() as d, FrozenFs(d) as fs:
        img = os.path.join(fs.mnt, "dev.img")
        with open(img, "wb") as f:
            f.truncate(64 * MIB)
        r = subprocess.run(["losetup", "-f", "--show", "--direct-io=on", img],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise Skip(f"losetup --direct-io=on: {r.stderr.strip()}")
        dev = r.stdout.strip()
        cmd = None
        try:
            cmd = Command(["run", "--device", dev, f"--yes-destroy-data={dev}", "--size", "32MiB",
                           "--test", "SEQ1M Q8T1", "--mode", "write", "--passes", "1", "--measure",
                           "120", "--warmup", "0", "--interval", "0"] + extra)
            cmd.wait_for("pass 1/1")
            child = cmd.worker_pid()
            act(cmd, fs, dev)
            fs.thaw()
            gone(child)
        finally:
            fs.thaw()
            if cmd:
                cmd.close()
            subprocess.run(["losetup", "-d", dev], capture_output=True)
        # The loop device lets go of its file only once it is really
        # detached: after the requests left to the OS have ended and the
        # last opener (the command's stuck child, slower under ASan) has
        # gone. Wait for that state, then the file system can be unmounted.
        backing = f"/sys/block/{os.path.basename(dev)}/loop/backing_file"
        for _ in range(WAIT_S * 10):
            if not os.path.exists(backing):
                break
            time.sleep(0.1)
        check(not os.path.exists(backing), f"{dev} still holds {img} {WAIT_S} s after the run")
        os.unlink(img)
        fs.check_clean()


def ends_while_frozen(cmd, fs, status, t0):
    """Waits (DEVICE_BOUND_S at most) for cmd to end, with status, while fs
    is still frozen; (seconds since t0, its stderr)."""
    cmd.finish(DEVICE_BOUND_S)
    took = time.monotonic() - t0
    check(fs.frozen, "thawed before the end")
    err = cmd.text()
    check(cmd.proc.returncode == status, f"exit {cmd.proc.returncode}: {err[-800:]!r}")
    return took, err


def test_device_stall_ends_before_the_thaw():
    """Finding 4: the watchdog's stall on a device whose requests the
    drive holds ends the run with exit 1 and the message while the file
    system is still frozen, not at the thaw: the queues are left to the OS
    (io_destroy would wait), and the message says so, naming the device."""
    def act(cmd, fs, dev):
        fs.freeze()
        took, err = ends_while_frozen(cmd, fs, 1, time.monotonic())
        print(f"# exit 1 after {took:.1f} s of a freeze that was still on")
        dmktest.note(err.strip().splitlines()[-1])
        check(f"no I/O completed for 3 s on the device {dev}: writing 1048576 bytes at offset "
              in err, f"message: {err[-800:]!r}")
        check(f"still in flight on the device {dev} were left to the OS, which ends them when "
              "the drive answers; the device has no test file: nothing is left on it)" in err,
              f"message: {err[-800:]!r}")
        check("test file has no name" not in err, f"message: {err[-800:]!r}")
    device_over_frozen_fs(["--watchdog", "3"], act)


def test_device_sigint_during_freeze():
    """SIGINT on the same: exit 130 within the bound, and a message that
    speaks of the device, not of a test file."""
    def act(cmd, fs, dev):
        fs.freeze()
        time.sleep(1.0)  # requests held by the freeze, not a wait for a state
        t0 = time.monotonic()
        cmd.proc.send_signal(signal.SIGINT)
        took, err = ends_while_frozen(cmd, fs, 130, t0)
        print(f"# exit 130 after {took:.1f} s while frozen")
        dmktest.note(err.strip().splitlines()[-1])
        check(f"on the device {dev}" in err, f"message: {err[-800:]!r}")
        check("test file has no name" not in err and "test file is freed" not in err,
              f"message: {err[-800:]!r}")
    device_over_frozen_fs([], act)


def test_stuck_after_stall_parent_bounds_it():
    """The child told the stall, then got stuck (DMK_TEST_STUCK_AFTER_STALL
    holds it there, as a teardown blocked in the kernel would): the guard's
    parent prints the stall's message itself and exits 1 within its own
    bound (10 s, app/dmk-cli-guard.h), the file system still frozen."""
    need_root("fsfreeze", "mkfs.ext4", "e2fsck")
    with Dir() as d, FrozenFs(d) as fs:
        with fs.command(WRITE_RUN + ["--target", fs.mnt, "--watchdog", "2"],
                        {"DMK_TEST_STUCK_AFTER_STALL": "1"}) as cmd:
            child = freeze_on(cmd, fs)
            # the parent, not finish(): the killed child holds the terminal
            # until the thaw, so the reader sees no end before it
            cmd.proc.wait(timeout=DEVICE_BOUND_S)
            check(fs.frozen, "thawed before the end")
            cmd.wait_for("that call returns.")
            err = cmd.text()
            dmktest.note("\n".join(err.strip().splitlines()[-2:]))
            check(cmd.proc.returncode == 1, f"exit {cmd.proc.returncode}: {err[-800:]!r}")
            check(("drivemark-cli: the drive did not complete any request for " if SUBMIT_BLOCKS
                   else "drivemark-cli: no I/O completed for 2 s on the test file in ") in err,
                  f"message: {err[-800:]!r}")
            check("the run stalled and did not end within 10 s of it: a call to the OS is stuck"
                  in err, f"message: {err[-800:]!r}")
            check("Its test file has no name and is freed when that call returns." in err,
                  f"message: {err[-800:]!r}")
            fs.thaw()
            gone(child)
        fs.check_clean()


def test_sigstop_bursts_flag_the_pass():
    """Finding 11a: eight stops of 0.45 s each (under the 0.5 s floor of
    one pause) in one pass add up to far more than 5 % of it: flagged
    "paused", paused_s their sum. The null backend: its latency is ~0, so
    the 50 x p99 rule cannot hide them on a loaded machine."""
    with Dir() as d:
        out_json = os.path.join(d, "r.json")
        cmd = Command(["run", "--target", d, "--backend", "null", "--size", "16MiB", "--test",
                       "RND4K Q1T1", "--mode", "read", "--passes", "1", "--measure", "10",
                       "--warmup", "0", "--interval", "0", "--json", out_json])
        try:
            cmd.wait_for("pass 1/1")
            for _ in range(8):
                os.killpg(cmd.proc.pid, signal.SIGSTOP)
                time.sleep(0.45)  # the pause itself
                os.killpg(cmd.proc.pid, signal.SIGCONT)
                time.sleep(0.2)
            cmd.finish(WAIT_S)
        finally:
            cmd.close()
        # each stop is seen whole or nearly; 8 x 0.45 = 3.6 s, 5 % of 10 s = 0.5 s
        check_paused_pass(cmd, out_json, 2.0)


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)


if __name__ == "__main__":
    sys.exit(main())
