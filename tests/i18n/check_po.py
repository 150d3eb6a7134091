#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""po/ is current: the committed template holds exactly the msgids that
xgettext finds today (a string marked but not in po/drivemark.pot fails,
and one left in the template after its source went), po/POTFILES.in lists
every file with a marked string (tests/i18n/i18n_files.py's rule), and
every user-visible property of the .ui templates is translatable; every
catalog po/LINGUAS names is complete for the template (no untranslated or
fuzzy entry, msgfmt --check clean: formats, plural forms, accelerators)
and has its row in View > Language's table (ui/dmk-language.c).

Usage: check_po.py SOURCE_DIR XGETTEXT_ARG...   (po/meson.build's
dmk_xgettext_args; the glib preset's keywords are added here)"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import dmktest  # noqa: E402
from dmktest import Skip, check  # noqa: E402
from i18n_files import marked_files  # noqa: E402

SRC = Path(sys.argv[1])
ARGS = sys.argv[2:]
# What meson's preset 'glib' gives xgettext that decides which strings are
# msgids (its --flag options only add "c-format" marks).
PRESET = ["--from-code=UTF-8", "--keyword=_", "--keyword=N_", "--keyword=C_:1c,2",
          "--keyword=NC_:1c,2", "--keyword=g_dcgettext:2", "--keyword=g_dngettext:2,3",
          "--keyword=g_dpgettext2:2c,3"]
# The properties a user reads, in the .ui templates and menus.
VISIBLE = re.compile(r'<(property|attribute) name="(label|tooltip-text|placeholder-text|'
                     r'tooltip-markup|text|secondary-text)"([^>]*)>')


ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
           "f": "\f", "v": "\v"}


def unquote(s):
    """A PO string's text, its C escapes undone."""
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(0)), s)


def po_entries(pot_text):
    """[(msgctxt, msgid, msgid_plural, flags)] of a .pot or .po, the header
    left out; flags is the entry's "#," line or ""."""
    out, cur, key = [], {}, None

    def close():
        if cur.get("msgid"):
            out.append((cur.get("msgctxt"), cur["msgid"], cur.get("msgid_plural"),
                        cur.get("flags", "")))

    for line in pot_text.splitlines() + [""]:
        m = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line)
        if line.startswith("#,"):
            cur["flags"] = line
        elif m:
            if m.group(1) == "msgctxt" or (m.group(1) == "msgid" and "msgid" in cur):
                close()
                cur = {"flags": cur["flags"]} if "flags" in cur and "msgid" not in cur else {}
            key = m.group(1)
            cur[key] = unquote(m.group(2))
        elif line.startswith('"') and key:
            cur[key] += unquote(line[1:-1])
        elif not line.strip():
            close()
            cur, key = {}, None
    return out


def msgids(pot_text):
    """{(msgctxt, msgid, msgid_plural)} of a .pot, the header left out."""
    return {(c, i, p) for c, i, p, _ in po_entries(pot_text)}


def test_template_is_current():
    xgettext = shutil.which("xgettext")
    if not xgettext:
        raise Skip("xgettext is missing (Debian: apt-get install gettext)")
    committed = (SRC / "po" / "drivemark.pot").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "drivemark.pot")
        r = subprocess.run([xgettext, "--package-name=drivemark", "--directory", str(SRC),
                            "--files-from", str(SRC / "po" / "POTFILES.in"), "--output", out]
                           + PRESET + ARGS, capture_output=True, text=True)
        check(r.returncode == 0, f"xgettext failed: {r.stderr}")
        fresh = Path(out).read_text(encoding="utf-8")
    have, want = msgids(committed), msgids(fresh)
    check(len(want) > 100, f"only {len(want)} strings found: is the keyword list right?")
    missing = sorted(m[1] for m in want - have)
    stale = sorted(m[1] for m in have - want)
    check(not missing and not stale,
          f"po/drivemark.pot is out of date (meson compile -C build drivemark-pot): "
          f"{len(missing)} new, e.g. {missing[:3]}; {len(stale)} gone, e.g. {stale[:3]}")
    return f"{len(want)} strings"


def test_potfiles_lists_every_marked_file():
    listed = [l.strip() for l in (SRC / "po" / "POTFILES.in").read_text().splitlines()
              if l.strip() and not l.startswith("#")]
    want = marked_files(SRC)
    missing = sorted(set(want) - set(listed))
    extra = sorted(set(listed) - set(want))
    check(not missing, f"po/POTFILES.in lacks files with marked strings: {missing}")
    check(not extra, f"po/POTFILES.in lists files without marked strings (or gone): {extra}")
    check(listed == sorted(listed), "po/POTFILES.in is not sorted")
    return f"{len(listed)} files"


def test_ui_properties_translatable():
    bad = []
    for ui in sorted((SRC / "resources").rglob("*.ui")):
        for n, line in enumerate(ui.read_text(encoding="utf-8").splitlines(), 1):
            m = VISIBLE.search(line)
            if m and 'translatable="yes"' not in m.group(3):
                bad.append(f"{ui.relative_to(SRC)}:{n}")
    check(not bad, f"user-visible properties without translatable=\"yes\": {bad}")


def linguas():
    return [l.strip() for l in (SRC / "po" / "LINGUAS").read_text().splitlines()
            if l.strip() and not l.startswith("#")]


def test_catalogs_complete():
    msgfmt = shutil.which("msgfmt")
    if not msgfmt:
        raise Skip("msgfmt is missing (Debian: apt-get install gettext)")
    langs = linguas()
    check(langs, "po/LINGUAS names no catalog")
    template = msgids((SRC / "po" / "drivemark.pot").read_text(encoding="utf-8"))
    report = []
    for lang in langs:
        po = SRC / "po" / f"{lang}.po"
        check(po.exists(), f"po/LINGUAS names {lang}, but po/{lang}.po is missing")
        r = subprocess.run([msgfmt, "--check", "--check-accelerators=_", "--statistics",
                            "-o", os.devnull, str(po)], capture_output=True, text=True,
                           env=dict(os.environ, LC_ALL="C"))
        check(r.returncode == 0, f"msgfmt --check po/{lang}.po: {r.stderr.strip()}")
        stats = r.stderr.strip()
        check("untranslated" not in stats and "fuzzy" not in stats,
              f"po/{lang}.po is incomplete: {stats} (meson compile -C build drivemark-update-po, "
              "then translate what is new)")
        entries = po_entries(po.read_text(encoding="utf-8"))
        have = {(c, i, p) for c, i, p, flags in entries if "fuzzy" not in flags}
        missing = sorted(m[1] for m in template - have)
        check(not missing, f"po/{lang}.po lacks {len(missing)} strings of the template, "
              f"e.g. {missing[:3]}")
        report.append(f"{lang}: {stats}")
    return "; ".join(report)


def test_language_menu_has_every_catalog():
    table = (SRC / "ui" / "dmk-language.c").read_text(encoding="utf-8")
    codes = re.findall(r'^\s*\{"([a-zA-Z_]+)", ', table, re.M)
    missing = [l for l in linguas() if l not in codes]
    check(not missing, f"ui/dmk-language.c's table has no row for {missing}")
    return f"table: {codes}"


# The layers that run on Windows with msvcrt's printf, which knows no
# positional arguments: their msgids use none (a translation may: glibc
# prints it on Linux, and on Windows these layers speak English).
NO_POSITIONAL = re.compile(r"^(core|chart|app|platform/(?!linux/))")


def test_no_positional_msgids_in_portable_layers():
    pot = (SRC / "po" / "drivemark.pot").read_text(encoding="utf-8")
    bad = []
    for block in pot.split("\n\n"):
        refs = re.findall(r"^#: (.*)$", block, re.M)
        files = [r.rsplit(":", 1)[0] for line in refs for r in line.split()]
        ids = "".join(re.findall(r'^(?:msgid|msgid_plural)? ?"(.*)"$', block, re.M))
        if any(NO_POSITIONAL.match(f) for f in files) and re.search(r"%\d+\$", ids):
            bad.append(f"{files[0]}: {ids[:60]}")
    check(not bad, f"positional arguments in msgids of layers that run on Windows: {bad[:5]}")


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals())))
