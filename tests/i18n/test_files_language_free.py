#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The result files are the same in every language: drivemark-cli's CSV
and JSON are byte-identical (but for the run's date) whether its messages
are English or translated, and a file written under one language shows
the same under another. The language is a pseudo-translation of the whole
template ("[xx] " before every msgid), compiled here with msgfmt and
found through DMK_TEST_LOCALEDIR, so the test needs no real catalog and
proves the messages did change while the files did not.

Usage: test_files_language_free.py DRIVEMARK_CLI PO_TEMPLATE"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import dmktest  # noqa: E402
from check_po import po_entries  # noqa: E402
from dmktest import Dir, Skip, check  # noqa: E402

CLI = sys.argv[1]
POT = Path(sys.argv[2])
MARK = "[xx] "
DATE = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
RUN = ["run", "--backend", "null", "--null-latency", "50", "--null-clock", "simulated",
       "--size", "64MiB", "--passes", "1", "--measure", "0.2", "--warmup", "0",
       "--interval", "0", "--profile", "default"]
# A review-lab test: its findings (cache, temperature) are saved too, and
# `show` prints its lab report; on the simulated clock its numbers are the
# same in every run. 2000 us, QD32, a 64 MiB cache: a cliff is found.
LAB = ["sustained", "--backend", "null", "--null-latency", "2000", "--null-cache", "64M",
       "--size", "16M", "--settle", "0", "--duration", "2.5", "--sample", "0.1",
       "--null-clock", "simulated"]


class I18nDir(Dir):
    prefix = "dmk-i18n-"


def quote(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace(
        "\t", "\\t") + '"'


def pseudo(text):
    """MARK after any leading newlines, so a message keeps its layout."""
    stripped = text.lstrip("\n")
    return text[:len(text) - len(stripped)] + MARK + stripped


def pseudo_catalog(localedir):
    msgfmt = shutil.which("msgfmt")
    if not msgfmt:
        raise Skip("msgfmt is missing (Debian: apt-get install gettext)")
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"',
             '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', '"Language: xx\\n"', ""]
    for ctxt, msgid, plural, flags in po_entries(POT.read_text(encoding="utf-8")):
        if flags:
            lines.append(flags)
        if ctxt is not None:
            lines.append("msgctxt " + quote(ctxt))
        lines.append("msgid " + quote(msgid))
        if plural is not None:
            lines += ["msgid_plural " + quote(plural), "msgstr[0] " + quote(pseudo(msgid)),
                      "msgstr[1] " + quote(pseudo(plural))]
        else:
            lines.append("msgstr " + quote(pseudo(msgid)))
        lines.append("")
    po = os.path.join(localedir, "xx.po")
    Path(po).write_text("\n".join(lines), encoding="utf-8")
    out = os.path.join(localedir, "xx", "LC_MESSAGES")
    os.makedirs(out)
    r = subprocess.run([msgfmt, "--check-format", "-o", os.path.join(out, "drivemark.mo"), po],
                       capture_output=True, text=True)
    check(r.returncode == 0, f"msgfmt of the pseudo-translation: {r.stderr}")


def languages(localedir):
    """The environments compared: English in the C locale, and the pseudo
    language under C.UTF-8 and any decimal-comma locale installed (its
    LC_NUMERIC must not reach the files either)."""
    english = {"LC_ALL": "C", "LANGUAGE": "", "LANG": ""}
    xx = {"DMK_TEST_LOCALEDIR": localedir, "LANGUAGE": "xx", "LANG": ""}
    envs = [("C", english), ("xx, C.UTF-8", dict(xx, LC_ALL="C.UTF-8"))]
    have = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.split()
    for name in ("de_DE.utf8", "ru_RU.utf8", "cs_CZ.utf8", "fr_FR.utf8"):
        if name in have:
            envs.append((f"xx, {name}", dict(xx, LC_ALL=name)))
            break
    return envs


def run(args, env):
    return dmktest.run_cli(CLI, args, 120, env=env)


def normalised(path):
    return DATE.sub(b"DATE", Path(path).read_bytes())


def files_are_language_free(cmd):
    with I18nDir() as d:
        localedir = os.path.join(d, "locale")
        os.makedirs(localedir)
        pseudo_catalog(localedir)
        files = {}
        for name, env in languages(localedir):
            j, c = os.path.join(d, f"{len(files)}.json"), os.path.join(d, f"{len(files)}.csv")
            r = run(cmd + ["--target", d, "--json", j, "--csv", c], env)
            check(r.returncode == 0, f"{cmd[0]} under {name}: {r.returncode} {r.stderr}")
            translated = MARK in r.stderr
            check(translated == (name != "C"), f"messages under {name}: {r.stderr!r}")
            files[name] = (normalised(j), normalised(c), c)
        base = files["C"]
        for name, (j, c, _) in files.items():
            check(j == base[0], f"{cmd[0]}: JSON under {name} differs from C's")
            check(c == base[1], f"{cmd[0]}: CSV under {name} differs from C's")
        return ", ".join(files)


def test_files_are_language_free():
    return files_are_language_free(RUN)


def test_lab_files_are_language_free():
    return files_are_language_free(LAB)


def saved_file_shows_the_same(cmd):
    with I18nDir() as d:
        localedir = os.path.join(d, "locale")
        os.makedirs(localedir)
        pseudo_catalog(localedir)
        envs = languages(localedir)
        c = os.path.join(d, "r.csv")
        r = run(cmd + ["--target", d, "--csv", c, "--quiet"], envs[1][1])
        check(r.returncode == 0, f"{cmd[0]} under {envs[1][0]}: {r.stderr}")
        shown = {}
        for name, env in envs:
            r = run(["show", c], env)
            check(r.returncode == 0, f"show under {name}: {r.returncode} {r.stderr}")
            check((MARK in r.stdout) == (name != "C"), f"show under {name}: {r.stdout[:400]!r}")
            shown[name] = r.stdout
        # The numbers are the same whatever the language: each line's
        # numbers, the translated words aside.
        numbers = {n: re.findall(r"\d+(?:\.\d+)?", s.replace(MARK, "")) for n, s in shown.items()}
        for name in numbers:
            check(numbers[name] == numbers["C"], f"show's numbers under {name} differ from C's")
        return f"{len(numbers['C'])} numbers"


def test_saved_file_shows_the_same_in_any_language():
    return saved_file_shows_the_same(RUN)


def test_saved_lab_file_shows_the_same_in_any_language():
    return saved_file_shows_the_same(LAB)


def test_messages_translated_errors_included():
    with I18nDir() as d:
        localedir = os.path.join(d, "locale")
        os.makedirs(localedir)
        pseudo_catalog(localedir)
        env = languages(localedir)[1][1]
        r = run(["run", "--size", "0"], env)
        # The CLI's line and the engine's message inside it, both translated.
        check(r.returncode != 0 and r.stderr.startswith(MARK + "drivemark-cli: " + MARK),
              f"a usage error under xx: {r.stderr!r}")
        r = run(["--help"], env)
        check(r.returncode == 0 and "\n" + MARK + "Options of every command:" in r.stdout,
              f"--help under xx: {r.stdout[-400:]!r}")
        r = run(["--help"], {"LC_ALL": "C", "LANGUAGE": "xx", "DMK_TEST_LOCALEDIR": localedir})
        check(MARK not in r.stdout, "LANGUAGE applies in the C locale")


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals()), timed=True))
