#!/usr/bin/env python3
"""Runs a validator (desktop-file-validate, appstreamcli, ...) and fails on
what it reports; exits 77 (skipped) when the tool is not installed.
With --svg FILE, checks that FILE is a well-formed, scalable SVG icon."""

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

SKIP = 77


def check_svg(path):
    root = ET.parse(path).getroot()
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        print(f"{path}: the root element is {root.tag}, not svg")
        return 1
    box = root.get("viewBox", "").split()
    if len(box) != 4 or box[2] != box[3]:
        print(f"{path}: needs a square viewBox to scale, has {box}")
        return 1
    return 0


def main(args):
    if args[0] == "--svg":
        return check_svg(args[1])
    if not shutil.which(args[0]):
        print(f"{args[0]} is not installed")
        return SKIP
    r = subprocess.run(args, capture_output=True, text=True)
    sys.stdout.write(r.stdout + r.stderr)
    # desktop-file-validate exits 0 even with warnings on some versions:
    # whatever it prints is a finding.
    if args[0] == "desktop-file-validate" and (r.stdout + r.stderr).strip():
        return 1
    return r.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
