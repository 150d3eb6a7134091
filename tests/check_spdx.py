#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every source file the project tracks names its licence in an SPDX line
near its top, so that a packager (Debian's licensecheck, REUSE, Flathub's
review) reads the licence from the file itself, not only from LICENSE.

One table says which files are sources and how each kind writes a comment;
`--fix` adds the line where it is missing, in that kind's comment style
(after a shebang or an XML declaration, which must stay first).

Usage: check_spdx.py SOURCE_DIR [--fix]
"""
import subprocess
import sys
from pathlib import Path

LINE = "SPDX-License-Identifier: GPL-3.0-or-later"

# A file's kind by its name's ending: the comment that carries the line.
KINDS = {
    ".c": "/* {} */",
    ".h": "/* {} */",
    ".css": "/* {} */",
    ".py": "# {}",
    ".sh": "# {}",
    ".build": "# {}",  # meson.build
    ".txt": "# {}",  # meson_options.txt, tests/pkg/installed-files.txt
    ".ini": "# {}",
    ".yml": "# {}",
    ".desktop": "# {}",
    ".desktop.in": "# {}",  # the desktop file before its translations are merged
    "LINGUAS": "# {}",
    "POTFILES.in": "# {}",
    ".po": "# {}",  # the catalogs (po/LL.po): a translator comment
    ".supp": "# {}",
    ".xml": "<!-- {} -->",
    ".ui": "<!-- {} -->",
    ".svg": "<!-- {} -->",
    ".xml.in": "<!-- {} -->",
    ".1.in": '.\\" {}',
    ".manifest.in": "<!-- {} -->",  # the Windows application manifest (meson fills it in)
    ".rc.in": "// {}",  # the Windows resource script
}

# Data, not source: the licence file itself, formats with no comments or
# whose comments would change what they are (Debian's control files, test
# inputs, the fuzzers' corpora), documentation and images.
EXEMPT_PREFIXES = ("tests/data/", "tests/fuzz/corpus", "docs/", "debian/source/")
EXEMPT_NAMES = {"LICENSE", ".gitignore", ".clang-format", "README.md", "changelog",
                "control", "copyright", "not-installed"}
# The Windows build's icon, its patches of upstream sources (each opens with
# its reason) and the zip's README.txt, which a user reads.
# po/drivemark.pot is xgettext's output, committed as it writes it. The
# starter traces (data/traces/*.iolog) are fio's iolog, which has no
# comments; data/traces/make-traces.py, which writes them, carries it.
EXEMPT_ENDINGS = (".md", ".png", ".csv", ".dict", ".install", ".ico", ".patch", ".txt.in", ".pot",
                  ".iolog")

HEAD_LINES = 5  # the line must be among a file's first few


def kind_of(path: str, first: str):
    """The comment template for PATH, None for a file that is not source."""
    name = path.rsplit("/", 1)[-1]
    if path.startswith(EXEMPT_PREFIXES) or name in EXEMPT_NAMES or name.endswith(EXEMPT_ENDINGS):
        return None
    for ending in sorted(KINDS, key=len, reverse=True):
        if name.endswith(ending):
            return KINDS[ending]
    if first.startswith("#!"):  # a script without an ending (.ci/run, tests/bench/*)
        return "# {}"
    return "unknown"


def add_line(text: str, template: str) -> str:
    lines = text.splitlines(keepends=True)
    at = 1 if lines and (lines[0].startswith("#!") or lines[0].startswith("<?xml")) else 0
    lines.insert(at, template.format(LINE) + "\n")
    return "".join(lines)


def main() -> int:
    src = Path(sys.argv[1])
    fix = "--fix" in sys.argv[2:]
    tracked = subprocess.run(["git", "-C", str(src), "ls-files"], capture_output=True, text=True)
    if tracked.returncode != 0:
        print("1..0 # SKIP not a git checkout: the tracked files are unknown")
        return 0
    bad = []
    paths = [p for p in tracked.stdout.splitlines() if (src / p).is_file()]
    for p in paths:
        text = (src / p).read_text(encoding="utf-8", errors="replace")
        kind = kind_of(p, text.split("\n", 1)[0])
        if kind is None:
            continue
        if kind == "unknown":
            bad.append(f"{p}: no comment style for this kind of file in tests/check_spdx.py's table")
            continue
        if LINE in "".join(text.splitlines(keepends=True)[:HEAD_LINES]):
            continue
        if fix:
            (src / p).write_text(add_line(text, kind), encoding="utf-8")
        else:
            bad.append(f"{p}: no '{LINE}' in its first {HEAD_LINES} lines")
    print("1..1")
    if bad:
        print("not ok 1 - every source file names its licence")
        for b in bad:
            print(f"# {b}")
        return 1
    print(f"ok 1 - every source file names its licence ({len(paths)} tracked files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
