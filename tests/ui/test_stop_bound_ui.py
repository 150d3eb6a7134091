#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's Close and Quit once a stop's own bound has passed (issue
13, round four): the user pressed Stop, the run's thread did not end (a
call on a frozen file system), the window said "Not stopped" after its
10 s; closing the window or Ctrl+Q must then end the program rather than
wait for that thread for ever. The same once the test file's removal has
begun (a close() on a frozen ext4 blocks too).

Hooks: DMK_TEST_STUCK_AFTER_STOP makes the run's thread stick for good
once the stop was asked (=1) or once the removal began (=cleanup);
DMK_TEST_CLOSE_AFTER_STOP_BOUND closes the window (=close) or quits
(=quit) when the stop's bound has fired, printing "closed-at" and the
status it met. Each case waits for states (--stop-at measure, the
window's own bound); the only clock bound is run_app's timeout, far above
the window's 10 s. Prints TAP.

    test_stop_bound_ui.py DRIVEMARK"""

import test_gui as t
from test_gui import Dir, check, field

RUN = ["--profile", "demo", "--size", "64MiB", "--passes", "1", "--measure", "30",
       "--warmup", "0", "--interval", "0", "--autorun"]


def closes(env, extra, want_status=None):
    with Dir() as d:
        rc, lines, err, took = t.run_app(["--target", d] + RUN + extra, env=env)
        check(rc in (0, 1), f"exit {rc}; stderr: {err}")
        check("CRITICAL" not in err and "WARNING" not in err, f"stderr: {err}")
        status = field(lines, "closed-at")
        if want_status is not None:
            check(status is not None and status.startswith(want_status),
                  f"closed at {status!r}, expected {want_status!r}; stdout: {lines}")
        return f"exit {rc} {took:.1f} s after start, closed at {status!r}"


def test_close_after_not_stopped():
    """Stop, "Not stopped" shown, then the window is closed: it goes."""
    return closes({"DMK_TEST_STUCK_AFTER_STOP": "1", "DMK_TEST_CLOSE_AFTER_STOP_BOUND": "close"},
                  ["--stop-at", "measure"], "Not stopped")


def test_quit_after_not_stopped():
    """The same with Ctrl+Q (the app's quit action)."""
    return closes({"DMK_TEST_STUCK_AFTER_STOP": "1", "DMK_TEST_CLOSE_AFTER_STOP_BOUND": "quit"},
                  ["--stop-at", "measure"], "Not stopped")


def test_close_after_stuck_cleanup():
    """Stop, the test file's removal begins and sticks; the stop's bound
    passes; then the window is closed: it goes."""
    return closes({"DMK_TEST_STUCK_AFTER_STOP": "cleanup",
                   "DMK_TEST_CLOSE_AFTER_STOP_BOUND": "close"}, ["--stop-at", "measure"], "")


def test_closing_window_with_stuck_cleanup():
    """The window closed during the run: the stop's removal sticks, and
    the closing window still goes at its bound."""
    return closes({"DMK_TEST_STUCK_AFTER_STOP": "cleanup"}, ["--close-at", "measure"])


TESTS = [test_close_after_not_stopped, test_quit_after_not_stopped,
         test_close_after_stuck_cleanup, test_closing_window_with_stuck_cleanup]

if __name__ == "__main__":
    import sys
    sys.exit(t.main(TESTS))
