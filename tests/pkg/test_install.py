#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`meson install --destdir` of the build dir, checked as a packager would:
exactly the files of installed-files.txt (and docs/) are installed, none
of them holds the build or source dir's absolute path (a reproducible
build: the installed program must not depend on where it was built), and
the installed drivemark-cli starts. Prints TAP.

    test_install.py SOURCE_ROOT BUILD_ROOT

Binaries are installed stripped (--strip): their debug info names the
build dir as every -g build's does (DW_AT_comp_dir), which distributions
map away (dpkg-buildflags' -ffile-prefix-map; test-deb.sh checks the
package, debug symbols included)."""

import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import check, note  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
BUILD = os.path.abspath(sys.argv[2])
DEST = os.path.join(BUILD, "tests", "pkg", "destdir")
LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "installed-files.txt")


def prefix():
    r = subprocess.run(["meson", "introspect", "--buildoptions", BUILD],
                       capture_output=True, text=True, check=True)
    opts = {o["name"]: o["value"] for o in json.loads(r.stdout)}
    return opts["prefix"]


def expected():
    paths = set()
    for line in open(LIST, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            paths.add(line)
    docs = os.path.join(SRC, "docs")
    for d, _, files in os.walk(docs):
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), SRC)
            paths.add("share/doc/drivemark/" + rel)
    return paths


def installed(root):
    out = set()
    for d, _, files in os.walk(root):
        for f in files:
            out.add(os.path.relpath(os.path.join(d, f), root))
    return out


ROOT = None


def install_once():
    global ROOT
    if ROOT:
        return ROOT
    shutil.rmtree(DEST, ignore_errors=True)
    r = subprocess.run(["meson", "install", "-C", BUILD, "--no-rebuild", "--quiet", "--strip",
                        "--destdir", DEST], capture_output=True, text=True)
    check(r.returncode == 0, f"meson install failed:\n{r.stdout}{r.stderr}")
    ROOT = os.path.join(DEST, prefix().lstrip("/"))
    return ROOT


def test_file_list():
    root = install_once()
    got, want = installed(root), expected()
    for p in sorted(got):
        note(p)
    missing, extra = sorted(want - got), sorted(got - want)
    check(not missing and not extra,
          f"installed files differ from tests/pkg/installed-files.txt: missing {missing}, "
          f"not in the list {extra}")
    outside = installed(DEST) - {os.path.relpath(os.path.join(root, p), DEST) for p in got}
    check(not outside, f"files installed outside the prefix: {sorted(outside)}")


def test_no_build_path():
    root = install_once()
    needles = {p.encode() for p in (BUILD, SRC, os.path.realpath(BUILD), os.path.realpath(SRC))}
    found = []
    for p in sorted(installed(root)):
        data = open(os.path.join(root, p), "rb").read()
        found += [f"{p}: {n.decode()}" for n in needles if n in data]
    check(not found, "installed files hold a build machine's path:\n" + "\n".join(found))


def test_installed_cli_starts():
    root = install_once()
    r = subprocess.run([os.path.join(root, "bin", "drivemark-cli"), "--version"],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0 and r.stdout.startswith("drivemark-cli "),
          f"the installed drivemark-cli --version: exit {r.returncode}, {r.stdout!r} {r.stderr!r}")


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()))


if __name__ == "__main__":
    sys.exit(main())
