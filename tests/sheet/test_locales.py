# SPDX-License-Identifier: GPL-3.0-or-later
"""A run's spreadsheet (--xlsx) and its CSV opened by LibreOffice, headless,
in three locales whose decimal point is a comma (de_DE, ru_RU, cs_CZ),
and in en_US as the control:
each file converted by LibreOffice to its flat ODF format (.fods), which
says how it read each cell (a number and its value, or text). Every
number of the .xlsx must come back a number equal to the JSON of the
same run (and to the CSV's cell); the CSV's cells are counted and
reported as LibreOffice read them when opened plainly (the issue: de_DE
reads "1166.017" as 1166017, ru_RU and cs_CZ keep decimals as text), not
asserted: the machine CSV is for programs, the .xlsx for spreadsheets.
Opened as docs/results.md tells a LibreOffice user to, with the import's
Language English (USA), every number of the CSV must come back a number
equal to the CSV's cell and to the JSON's, in every locale.

LibreOffice takes its locale from LC_ALL/LANG itself (it read de-DE even
where glibc had no such locale); the locales are still built under the
build dir (LOCPATH, as setup.sh does for de_DE) so the process's C library
agrees, and each document's default language is checked to be the
locale's, so a LibreOffice that ignored the locale fails the test rather
than passing it for the wrong reason. One soffice start per locale, with
its own profile (-env:UserInstallation) in the test's directory."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dmktest  # noqa: E402
import sheetcheck  # noqa: E402
from dmktest import Skip, check  # noqa: E402

CLI = sys.argv[1]
LOCPATH = os.environ.get("DMK_TEST_LOCPATH", os.path.join(dmktest.TMP_BASE, "locale"))
DIR = None
FILES = {}
# LibreOffice's CSV import: comma, double quote, UTF-8 (76), from line 1,
# no column formats, language English (USA) (1033).
CSV_FILTER = "Text - txt - csv (StarCalc):44,34,76,1,,1033"


def setup():
    """One run on the null backend, read and write tests with passes and
    a timeline, written as JSON, CSV and .xlsx."""
    global DIR
    os.makedirs(dmktest.TMP_BASE, exist_ok=True)
    DIR = tempfile.mkdtemp(prefix="dmk-sheet-", dir=dmktest.TMP_BASE)
    for k, name in [("json", "run.json"), ("csv", "machine.csv"), ("xlsx", "book.xlsx")]:
        FILES[k] = os.path.join(DIR, name)
    r = subprocess.run([CLI, "run", "--target", DIR, "--backend", "null", "--size", "16MiB",
                        "--test", "SEQ1M Q8T1", "--test", "RND4K Q32T1", "--passes", "2",
                        "--measure", "0.3", "--warmup", "0", "--timeline", "0.1", "--quiet",
                        "--json", FILES["json"], "--csv", FILES["csv"], "--xlsx", FILES["xlsx"]],
                       capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, r.stderr)


def expected():
    return sheetcheck.MachineCsv(FILES["csv"]), json.load(open(FILES["json"]))


def test_xlsx_against_json():
    """The workbook as written, read from its zip."""
    csv, doc = expected()
    n_csv, n_json = sheetcheck.check_workbook(sheetcheck.read_xlsx(FILES["xlsx"]), csv, doc)
    check(n_json == n_csv and n_json > 100, f"{n_json} of {n_csv} numbers in the JSON")
    return f"{n_csv} numbers equal to the CSV's, {n_json} of them to the JSON's"


def make_locale(name):
    if os.path.isdir(os.path.join(LOCPATH, name + ".UTF-8")):
        return
    os.makedirs(LOCPATH, exist_ok=True)
    r = subprocess.run(["localedef", "-i", name, "-f", "UTF-8",
                        os.path.join(LOCPATH, name + ".UTF-8")], capture_output=True, text=True)
    if r.returncode not in (0, 1) or not os.path.isdir(os.path.join(LOCPATH, name + ".UTF-8")):
        raise Skip(f"could not build the {name}.UTF-8 locale: {r.stderr.strip()[:200]}")


def libreoffice(name):
    """Both files opened by LibreOffice in locale name and saved as .fods."""
    soffice = shutil.which("soffice")
    if not soffice:
        raise Skip("LibreOffice (soffice) is not installed (Debian: libreoffice-calc-nogui)")
    make_locale(name)
    out = os.path.join(DIR, "lo-" + name)
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, LC_ALL=name + ".UTF-8", LANG=name + ".UTF-8", LOCPATH=LOCPATH,
               HOME=out)
    r = subprocess.run([soffice, f"-env:UserInstallation=file://{out}/profile", "--headless",
                        "--norestore", "--convert-to", "fods", "--outdir", out,
                        FILES["xlsx"], FILES["csv"]],
                       capture_output=True, text=True, timeout=240, env=env)
    books = [os.path.join(out, b) for b in ("book.fods", "machine.fods")]
    check(r.returncode == 0 and all(os.path.exists(b) for b in books),
          f"soffice: exit {r.returncode}: {r.stdout[-300:]} {r.stderr[-300:]}")
    # The CSV again, as docs/results.md tells a LibreOffice user to open
    # it: the Text Import's Language set to English (USA), which the
    # filter's sixth option (1033) is, whatever the locale.
    as_en = os.path.join(out, "machine-en.csv")
    shutil.copyfile(FILES["csv"], as_en)
    r = subprocess.run([soffice, f"-env:UserInstallation=file://{out}/profile", "--headless",
                        "--norestore", f"--infilter={CSV_FILTER}", "--convert-to", "fods",
                        "--outdir", out, as_en],
                       capture_output=True, text=True, timeout=240, env=env)
    books.append(os.path.join(out, "machine-en.fods"))
    check(r.returncode == 0 and os.path.exists(books[-1]),
          f"soffice (CSV as English): exit {r.returncode}: {r.stdout[-300:]} {r.stderr[-300:]}")
    return [sheetcheck.read_fods(b) for b in books]


def csv_against_json(sheet, csv, doc):
    """The CSV read with its language given: every bare number of the CSV
    a number cell of the same value, and equal to the JSON's where the
    JSON has it. Returns (numbers compared with the CSV, with the JSON)."""
    n_csv = n_json = 0
    i, mine = -1, {}
    for r, row in enumerate(csv.rows, start=1):
        rec = row["record"][0]
        if rec == "test":
            i, mine = i + 1, {}
        mine[rec] = j = mine.get(rec, -1) + 1
        for c, col in enumerate(csv.header):
            text, quoted = row[col]
            if quoted or not sheetcheck.NUMBER.match(text):
                continue
            got = sheetcheck.cell_at(sheet, r, c)
            where = f"row {r + 1} ({col} {text})"
            check(got is not None and got[0] == "n" and got[1] == float(text),
                  f"{where}: LibreOffice read {got}")
            n_csv += 1
            ctx = col in csv.context
            jv = sheetcheck.json_value(doc, None if ctx else rec, i, j, col, row["mode"][0])
            if jv is not None:
                check(got[1] == jv, f"{where}: {got[1]} != JSON {jv}")
                n_json += 1
    return n_csv, n_json


def csv_as_read(sheet, csv):
    """How LibreOffice read the CSV's numbers: right, another number, text."""
    right = wrong = text = 0
    example = ""
    for r, row in enumerate(csv.rows, start=1):
        for c, col in enumerate(csv.header):
            cell, quoted = row[col]
            if quoted or cell == "":
                continue
            got = sheetcheck.cell_at(sheet, r, c)
            if got and got[0] == "n" and got[1] == float(cell):
                right += 1
            elif got and got[0] == "n":
                wrong += 1
                example = example or f"{col} {cell} read as {got[1]:g}"
            else:
                text += 1
    return right, wrong, text, example


def in_locale(name, language, csv_right=False):
    (book, lang_b), (machine, lang_m), (as_en, lang_e) = libreoffice(name)
    check(lang_b == language and lang_m == language and lang_e == language,
          f"LibreOffice ran in {lang_b}/{lang_m}/{lang_e}, not {language}: the locale was "
          "not taken")
    csv, doc = expected()
    n_csv, n_json = sheetcheck.check_workbook(book, csv, doc)
    check(n_json == n_csv and n_json > 100, f"{n_json} of {n_csv} numbers in the JSON")
    e_csv, e_json = csv_against_json(as_en["machine-en"], csv, doc)
    check(e_json > 100, f"the CSV as English: only {e_json} numbers in the JSON")
    right, wrong, text, example = csv_as_read(machine["machine"], csv)
    if csv_right:  # the control: where the decimal point is '.', the CSV reads right too
        check(wrong == 0 and text == 0, f"{language}: the CSV: {wrong} misread, {text} as text")
    return (f"{language}: .xlsx: {n_json} of {n_json} numbers equal to the JSON's; the CSV "
            f"with Language English (USA): all {e_csv} numbers right, {e_json} of them equal "
            f"to the JSON's; the CSV opened plainly: {right} numbers right, {wrong} read as "
            f"other numbers{' (' + example + ')' if example else ''}, {text} as text")


def test_libreoffice_de_DE():
    return in_locale("de_DE", "de-DE")


def test_libreoffice_ru_RU():
    return in_locale("ru_RU", "ru-RU")


def test_libreoffice_cs_CZ():
    return in_locale("cs_CZ", "cs-CZ")


def test_libreoffice_en_US():
    """The control: in a locale whose decimal point is '.', LibreOffice
    reads every number of the CSV right, as the comparison must show."""
    return in_locale("en_US", "en-US", csv_right=True)


def main():
    setup()
    try:
        return dmktest.run_tap(dmktest.tests_in(globals()), timed=True)
    finally:
        shutil.rmtree(DIR, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
