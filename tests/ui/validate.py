#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs a validator (desktop-file-validate, appstreamcli, ...) and fails on
what it reports; exits 77 (skipped) when the tool is not installed.
With --svg FILE, checks that FILE is a well-formed, scalable SVG icon;
with --symbolic FILE, that FILE is a 16x16 symbolic icon that GTK's own
symbolic loader renders."""

import re
import os
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


SVG_NS = "{http://www.w3.org/2000/svg}"


def check_symbolic(path):
    """A symbolic icon is drawn on a 16 px grid in one colour, which the
    theme replaces with the text colour: no gradients, images or text
    (GTK would not recolour them), no second colour."""
    if check_svg(path):
        return 1
    root = ET.parse(path).getroot()
    if root.get("viewBox", "").split() != ["0", "0", "16", "16"]:
        print(f"{path}: a symbolic icon's viewBox is 0 0 16 16, not {root.get('viewBox')}")
        return 1
    colours = set()
    for el in root.iter():
        tag = el.tag.replace(SVG_NS, "")
        if tag in ("linearGradient", "radialGradient", "image", "text", "pattern"):
            print(f"{path}: a symbolic icon has no <{tag}> (the theme cannot recolour it)")
            return 1
        for attr in ("fill", "stroke"):
            v = el.get(attr)
            if v and v != "none":
                colours.add(v.lower())
        if "style" in el.attrib and re.search(r"(fill|stroke)\s*:", el.get("style")):
            print(f"{path}: colours in style=, which the check cannot see; use fill=")
            return 1
    if len(colours) != 1:
        print(f"{path}: a symbolic icon has one colour, this one {sorted(colours) or 'none'}")
        return 1
    # GTK's own loader for symbolic icons (what the shell and GTK apps use)
    # must render it.
    tool = shutil.which("gtk4-encode-symbolic-svg")
    if tool:
        out = os.environ.get("DMK_TEST_TMPDIR", ".")
        os.makedirs(out, exist_ok=True)
        r = subprocess.run([tool, "-o", out, path, "16x16"], capture_output=True, text=True)
        if r.returncode or r.stderr.strip():
            print(f"{path}: gtk4-encode-symbolic-svg: {r.stdout}{r.stderr}")
            return 1
    return 0


def main(args):
    if args[0] == "--svg":
        return check_svg(args[1])
    if args[0] == "--symbolic":
        return check_symbolic(args[1])
    if not shutil.which(args[0]):
        print(f"{args[0]} is not installed")
        return SKIP
    r = subprocess.run(args, capture_output=True, text=True)
    sys.stdout.write(r.stdout + r.stderr)
    # desktop-file-validate exits 0 even with warnings on some versions:
    # whatever it prints is a finding.
    if args[0] == "desktop-file-validate" and (r.stdout + r.stderr).strip():
        return 1
    # appstreamcli passes a file with pedantic, info and even warning
    # findings ("Validation was successful: pedantic: 1"): each is one.
    if args[0] == "appstreamcli" and re.search(r"^[EWIP]: ", r.stdout + r.stderr, re.M):
        return 1
    return r.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
