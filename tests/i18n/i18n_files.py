# SPDX-License-Identifier: GPL-3.0-or-later
"""Which source files carry translatable strings: the rule po/POTFILES.in
follows and tests/i18n/check_po.py checks. A C file does when it calls one
of the gettext macros or one of the error functions whose formats are
msgids (platform/dmk-error.h); the .ui templates, the desktop file and the
metainfo always do. The doc generators (app/dmk-gen-*.c) write the man
pages in English and are left out.

Usage: i18n_files.py SOURCE_DIR   prints what POTFILES.in should list"""
import re
import subprocess
import sys
from pathlib import Path

# A call of a marker: DMK_( DMK_N_( dmk_ngettext( _( N_( C_( NC_( and the
# error functions, Windows' dmk_win_error and the result files' reader's
# dmk_csv_fail_at and dmk_csv_fail_cell too (not their definitions' "int
# dmk_error_set(DmkError", "(DmkCsvReader").
MARKER = re.compile(r"(?<![\w.>])(?:DMK_|DMK_N_|dmk_ngettext|_|N_|C_|NC_|g_dngettext)\s*\(\s*\"|"
                    r"(?<![\w])dmk_(?:error_(?:set|os|errno|append)|win_error|csv_fail_(?:at|cell))"
                    r"\s*\((?!\s*(?:DmkError|DmkCsvReader))")
LAYERS = ("app/", "core/", "platform/", "ui/", "chart/")
EXCLUDED = re.compile(r"^app/dmk-gen-|^platform/dmk-error\.[ch]$|^platform/dmk-i18n\.h$")
DATA = ("resources/io.github.drivemark.drivemark.desktop.in",
        "resources/io.github.drivemark.drivemark.metainfo.xml.in")


def tracked(src: Path):
    out = subprocess.run(["git", "-C", str(src), "ls-files", "--cached", "--others",
                          "--exclude-standard"], capture_output=True, text=True)
    if out.returncode == 0 and out.stdout.strip():
        return sorted(set(out.stdout.split()))
    return sorted(str(p.relative_to(src)) for p in src.rglob("*") if p.is_file())


def marked_files(src: Path):
    files = []
    for rel in tracked(src):
        if rel.startswith(LAYERS) and rel.endswith((".c", ".h")) and not EXCLUDED.search(rel):
            if MARKER.search((src / rel).read_text(encoding="utf-8", errors="replace")):
                files.append(rel)
        elif rel.startswith("resources/") and rel.endswith(".ui"):
            files.append(rel)
    return sorted(files + [d for d in DATA if (src / d).exists()])


if __name__ == "__main__":
    print("\n".join(marked_files(Path(sys.argv[1]))))
