#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs a GTK test program (TAP) under an X server and a runtime folder
of its own, as the window tests run the app; passes its output and exit
status through, or says why it skips.

    run_in_x.py PROGRAM [ARG]..."""

import os
import subprocess
import sys
import tempfile

import test_gui as t
from dmktest import TMP_BASE, Skip


def main():
    os.makedirs(TMP_BASE, exist_ok=True)
    try:
        with t.Xvfb() as x, tempfile.TemporaryDirectory(prefix="xdg-", dir=TMP_BASE) as xdg:
            os.chmod(xdg, 0o700)
            p = subprocess.run(sys.argv[1:], env=t.app_env(x.display, xdg), timeout=120)
            return p.returncode
    except Skip as why:
        print(f"1..0 # SKIP {why}")
        return 0


if __name__ == "__main__":
    sys.exit(main())
