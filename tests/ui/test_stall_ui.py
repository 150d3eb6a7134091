#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window and a stalled run (issue 13, class 4), on the fault backend:
its --fault-hang N makes the Nth submit call never return, as io_submit on
a frozen file system, and DMK_TEST_STUCK_AFTER_STALL makes the run's own
thread stick for good right after the engine said the stall (its teardown
stuck in the kernel). The stall must reach the window at once as a
failure naming how long nothing moved and what is left behind, the run is
never shown as complete, and the end of the run, Stop and closing the
window are bounded by the window itself, not by that thread.

Each case waits for states: the hang is by construction (the Nth call),
the watchdog is 1 s, --stop-at/--close-at stall act when the window shows
the stall. The only clock bound is run_app's timeout, far above the
window's own 10 s. Prints TAP.

    test_stall_ui.py DRIVEMARK"""

import test_gui as t
from test_gui import Dir, check, field

# A fault run: 30 s passes that the hang cuts short; a 1 s watchdog.
STALL = ["--profile", "demo", "--size", "64MiB", "--passes", "1", "--measure", "30",
         "--warmup", "0", "--interval", "0", "--watchdog", "1", "--fault-hang", "40",
         "--autorun"]
STUCK = {"DMK_TEST_STUCK_AFTER_STALL": "1"}
EXIT_FAILED = 1


def check_stall_line(lines):
    stall = field(lines, "stall")
    check(stall is not None, "the window never heard of the stall")
    stall = stall or ""
    check("did not complete any request for" in stall, f"no length of the stall: {stall}")
    check("The run is not complete" in stall, f"not said to be incomplete: {stall}")
    check("Its test file has no name and is freed when that call returns" in stall,
          f"what is left behind is not said: {stall}")
    return stall


def test_stall_ends_run_with_thread_stuck():
    """The run's thread never returns after the stall: the window ends the
    run itself, a failure, and quits."""
    with Dir() as d:
        rc, lines, err, took = t.run_app(["--target", d] + STALL +
                                         ["--dump-tiles", "--quit-when-done"], env=STUCK)
        check(rc == EXIT_FAILED, f"exit {rc}, expected {EXIT_FAILED}; stderr: {err}")
        check_stall_line(lines)
        status = field(lines, "status") or ""
        check(status.startswith("Failed after") and "stalled" in status, f"status: {status}")
        error = field(lines, "error") or ""
        check(error.startswith("The run stalled:"), f"error: {error}")
        check("did not end within 10 s of the stall" in error, f"error: {error}")
        check(not [f for f in lines if f[0] == "tab"], f"a stalled run kept as a result: {lines}")
        t.check_empty(d)
        return f"failed and quit {took:.1f} s after start; {status}"


def test_stall_returning_thread_is_failure():
    """The usual case: the engine leaves its stuck worker behind and
    returns; the stall was shown first, the end is a failure, never Done."""
    with Dir() as d:
        rc, lines, err, took = t.run_app(["--target", d] + STALL +
                                         ["--dump-tiles", "--quit-when-done"])
        check(rc == EXIT_FAILED, f"exit {rc}, expected {EXIT_FAILED}; stderr: {err}")
        check_stall_line(lines)
        status = field(lines, "status") or ""
        check(status.startswith("Failed after"), f"status: {status}")
        error = field(lines, "error") or ""
        check(error.startswith("The run stalled:") and "left behind" in error, f"error: {error}")
        t.check_empty(d)
        return f"{status} ({took:.1f} s)"


def test_stop_after_stall_bounded():
    """Stop pressed once the stall is shown, the thread stuck: the run
    still ends, as the stall's failure, not as a stop."""
    with Dir() as d:
        rc, lines, err, took = t.run_app(["--target", d] + STALL +
                                         ["--stop-at", "stall", "--dump-tiles",
                                          "--quit-when-done"], env=STUCK)
        check(rc == EXIT_FAILED, f"exit {rc}, expected {EXIT_FAILED} (failed); stderr: {err}")
        check_stall_line(lines)
        status = field(lines, "status") or ""
        check("stalled" in status and not status.startswith("Stopped"), f"status: {status}")
        return f"{status} ({took:.1f} s)"


def test_close_after_stall_bounded():
    """The window closed once the stall is shown, the thread stuck: the
    window goes and the program ends without that thread."""
    with Dir() as d:
        rc, lines, err, took = t.run_app(["--target", d] + STALL + ["--close-at", "stall"],
                                         env=STUCK)
        check(rc in (0, EXIT_FAILED), f"exit {rc}; stderr: {err}")
        check("CRITICAL" not in err and "WARNING" not in err, f"stderr: {err}")
        return f"exit {rc} {took:.1f} s after start"


def test_stalled_lab_run_ends_on_lab_tab():
    """A Lab tab test that stalls (in its fill: the hang is the 40th
    submit), its thread stuck: the run ends on the tab that started it,
    which says it failed, as the status line does; nothing is kept, and
    the Benchmark tab's tiles are not touched."""
    with Dir() as d:
        rc, lines, err, took = t.run_app(["--target", d, "--lab", "sustained", "--watchdog", "1",
                                          "--fault-hang", "40", "--autorun", "--dump-tiles",
                                          "--quit-when-done"], env=STUCK)
        check(rc == EXIT_FAILED, f"exit {rc}, expected {EXIT_FAILED}; stderr: {err}")
        check_stall_line(lines)
        status = field(lines, "status") or ""
        check(status.startswith("Failed after") and "stalled" in status, f"status: {status}")
        check(field(lines, "page") == "Lab", f"page shown: {field(lines, 'page')}")
        check(field(lines, "lab-progress") == status,
              f"the Lab tab says {field(lines, 'lab-progress')!r}, the status line {status!r}")
        check(not [f for f in lines if f[0] == "tab"], f"a stalled run kept as a result: {lines}")
        check(all(v[1] == "empty" for v in t.tiles(lines).values()), "the lab run filled tiles")
        t.check_empty(d)
        return f"{status} on the Lab tab ({took:.1f} s)"


TESTS = [test_stall_ends_run_with_thread_stuck, test_stall_returning_thread_is_failure,
         test_stop_after_stall_bounded, test_close_after_stall_bounded,
         test_stalled_lab_run_ends_on_lab_tab]

if __name__ == "__main__":
    import sys
    sys.exit(t.main(TESTS))
