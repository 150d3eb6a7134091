# SPDX-License-Identifier: GPL-3.0-or-later
"""What the spreadsheet tests share: the machine CSV read with each cell's
quoting kept (a quoted cell is text, a bare one a number), an .xlsx read
straight from its zip (sheet XML, shared strings), a LibreOffice flat ODF
file (.fods) read the same way, and the comparison of a workbook with the
CSV and the JSON of the same result, cell by cell. Plain stdlib."""

import re
import zipfile
import xml.etree.ElementTree as ET

NUMBER = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
# pandas' default missing-value words that the writer marks with a leading
# apostrophe from schema 7 (core/dmk-csv.c), as the reader takes it off.
NA_WORDS = {"1.#QNAN", "1.#IND", "#N/A N/A", "#N/A", "N/A", "n/a", "NA", "<NA>", "#NA",
            "NULL", "null", "NaN", "nan", "None"}
RECORDS = ["test", "pass", "sample", "finding"]
SHEETS = {"test": "Tests", "pass": "Passes", "sample": "Samples", "finding": "Findings"}


def parse_csv_cells(text):
    """[[(text, quoted)]]: RFC 4180 rows, each cell with whether it was quoted."""
    rows, row, cell, quoted, i, n = [], [], [], False, 0, len(text)
    in_quotes = False
    while i < n:
        ch = text[i]
        if in_quotes:
            if ch == '"' and i + 1 < n and text[i + 1] == '"':
                cell.append('"')
                i += 1
            elif ch == '"':
                in_quotes = False
            else:
                cell.append(ch)
        elif ch == '"':
            in_quotes = quoted = True
        elif ch == ",":
            row.append(("".join(cell), quoted))
            cell, quoted = [], False
        elif ch in "\r\n":
            if ch == "\r" and i + 1 < n and text[i + 1] == "\n":
                i += 1
            row.append(("".join(cell), quoted))
            rows.append(row)
            row, cell, quoted = [], [], False
        else:
            cell.append(ch)
        i += 1
    if cell or row:
        row.append(("".join(cell), quoted))
        rows.append(row)
    return rows


def unneutralise(s):
    """A text cell as the reader gives it back (schema 7)."""
    if len(s) >= 2 and s[0] == "'" and (s[1] in "=+-@\t\r'" or s[1:] in NA_WORDS):
        return s[1:]
    return s


class MachineCsv:
    """The machine CSV: its header, its rows as {column: (text, quoted)}."""

    def __init__(self, path):
        cells = parse_csv_cells(open(path, encoding="utf-8", newline="").read())
        self.header = [c for c, _ in cells[0]]
        self.rows = [dict(zip(self.header, r)) for r in cells[1:]]
        self.context = self.header[:self.header.index("complete") + 1]

    def of(self, record):
        return [r for r in self.rows if r["record"][0] == record]

    def used(self, record):
        """The columns a sheet of this kind of row has: those any row of
        the kind fills, the run's context left to the Run sheet."""
        rows = self.of(record)
        return [c for c in self.header
                if c not in self.context and any(r[c][0] != "" for r in rows)]


# ---- .xlsx -------------------------------------------------------------------

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
      "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
      "rel": "http://schemas.openxmlformats.org/package/2006/relationships"}


def col_index(ref):
    letters = re.match(r"[A-Z]+", ref).group(0)
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n - 1


def read_xlsx(path):
    """{sheet: [[(kind, value) or None]]}, kind 'n' (a number cell) or 's'
    (text), in the workbook's sheet order (the dict keeps it)."""
    z = zipfile.ZipFile(path)
    wb = ET.fromstring(z.read("xl/workbook.xml"))
    rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    target = {r.get("Id"): r.get("Target") for r in rels.findall("rel:Relationship", NS)}
    shared = []
    if "xl/sharedStrings.xml" in z.namelist():
        for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", NS):
            shared.append("".join(t.text or "" for t in si.iter(f"{{{NS['m']}}}t")))
    out = {}
    for sh in wb.find("m:sheets", NS).findall("m:sheet", NS):
        rid = sh.get(f"{{{NS['r']}}}id")
        xml = ET.fromstring(z.read("xl/" + target[rid]))
        rows = []
        for row in xml.find("m:sheetData", NS).findall("m:row", NS):
            r = int(row.get("r")) - 1
            while len(rows) <= r:
                rows.append([])
            for c in row.findall("m:c", NS):
                k, t, v = col_index(c.get("r")), c.get("t"), c.find("m:v", NS)
                if v is None and t != "inlineStr":
                    continue
                while len(rows[r]) <= k:
                    rows[r].append(None)
                if t == "s":
                    rows[r][k] = ("s", shared[int(v.text)])
                elif t in ("str", "inlineStr"):
                    rows[r][k] = ("s", v.text if v is not None else "")
                else:
                    rows[r][k] = ("n", float(v.text))
        out[sh.get("name")] = rows
    return out


# ---- LibreOffice's flat ODF spreadsheet ---------------------------------------

ODF = {"office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
       "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
       "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
       "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
       "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"}


def q(ns, name):
    return f"{{{ODF[ns]}}}{name}"


def read_fods(path):
    """(sheets, language): the cells as read_xlsx gives them, as
    LibreOffice holds them after opening the file (its type: float or
    string, and its value), and the document's default language-COUNTRY,
    which is the locale LibreOffice ran in."""
    root = ET.parse(path).getroot()
    lang = ""
    for ds in root.iter(q("style", "default-style")):
        tp = ds.find(q("style", "text-properties"))
        if tp is not None and tp.get(q("fo", "language")):
            lang = f"{tp.get(q('fo', 'language'))}-{tp.get(q('fo', 'country'))}"
            break
    sheets = {}
    for tab in root.iter(q("table", "table")):
        rows = []
        for row in tab.iter(q("table", "table-row")):
            cells = []
            for c in row:
                if c.tag not in (q("table", "table-cell"), q("table", "covered-table-cell")):
                    continue
                rep = int(c.get(q("table", "number-columns-repeated"), "1"))
                vt = c.get(q("office", "value-type"))
                if vt in ("float", "percentage", "currency"):
                    cell = ("n", float(c.get(q("office", "value"))))
                elif vt == "boolean":
                    cell = ("n", 1.0 if c.get(q("office", "boolean-value")) == "true" else 0.0)
                elif vt is not None:
                    cell = ("s", "\n".join("".join(p.itertext())
                                           for p in c.findall(q("text", "p"))))
                else:
                    cell = None
                cells += [cell] * min(rep, 1024)
            while cells and cells[-1] is None:
                cells.pop()
            rep = int(row.get(q("table", "number-rows-repeated"), "1"))
            rows += [cells] * (min(rep, 1) if not cells else rep)
        while rows and not rows[-1]:
            rows.pop()
        sheets[tab.get(q("table", "name"))] = rows
    return sheets, lang


# ---- the comparison ------------------------------------------------------------

def cell_at(rows, r, c):
    return rows[r][c] if r < len(rows) and c < len(rows[r]) else None


def same_cell(got, text, quoted, where):
    """A workbook cell against the CSV's: a bare number is a number cell of
    the same value, text the same text, an empty cell empty. Returns 1
    for a number compared."""
    if text == "" and not quoted:
        assert got is None, f"{where}: {got} where the CSV has an empty cell"
        return 0
    if not quoted:
        assert NUMBER.match(text), f"{where}: the CSV's bare cell {text!r} is no number"
        assert got is not None and got[0] == "n", f"{where}: {got} is not the number {text}"
        assert got[1] == float(text), f"{where}: {got[1]!r} != {text}"
        return 1
    want = unneutralise(text)
    if want == "":
        assert got is None or got == ("s", ""), f"{where}: {got} for an empty text"
        return 0
    assert got == ("s", want), f"{where}: {got} != text {want!r}"
    return 0


def json_value(doc, record, i, j, col, mode):
    """The JSON's number for a cell (None when the JSON has none): the
    context at the top, a test in results[i], its passes and its timeline
    by j, per-direction statistics in the test's read/write objects (a
    single-direction test's are its totals)."""
    if record is None:
        v = doc.get(col)
    else:
        t = doc["results"][i]
        obj = {"test": t, "pass": t["passes"][j] if record == "pass" else None,
               "sample": t["timeline"][j] if record == "sample" else None}.get(record)
        direction = col.split("_", 1)
        if obj is None:
            v = None
        elif record == "test" and col == "pass":
            v = t.get("best_pass")
        elif col in obj:
            v = obj[col]
        elif record != "test" and col in t and col not in ("mb_s", "iops", "lat_mean_us"):
            v = t[col]  # the test's identity, repeated on its rows
        elif direction[0] in ("read", "write") and col != "read_share_achieved":
            # a mixed test's score has read and write objects; a read or
            # write test's direction is its total
            d, k = direction
            v = obj[d].get(k) if isinstance(obj.get(d), dict) else (
                obj.get(k) if mode == d else None)
        else:
            v = None
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    return float(v) if isinstance(v, (int, float)) else None


def check_workbook(sheets, csv, doc=None):
    """Every cell of the workbook against the CSV (and the JSON doc, where
    it has the number): sheet names and order, the Run sheet's context,
    each kind's sheet row by row. Returns (numbers compared with the CSV,
    with the JSON)."""
    kinds = [k for k in RECORDS if k == "test" or csv.of(k)]
    want = ["Run"] + [SHEETS[k] for k in kinds]
    assert list(sheets) == want, f"sheets {list(sheets)}, expected {want}"
    n_csv = n_json = 0
    first = csv.rows[0]
    run = sheets["Run"]
    assert run[0] == [("s", "Field"), ("s", "Value")], f"Run heading {run[0]}"
    ctx = [c for c in csv.context if c not in ("schema", "record")]
    assert len(run) - 1 == len(ctx), f"Run has {len(run) - 1} rows for {len(ctx)} fields"
    for r, col in enumerate(ctx, start=1):
        got = cell_at(run, r, 1)
        n_csv += same_cell(got, *first[col], f"Run!{col}")
        jv = json_value(doc, None, 0, 0, col, None) if doc else None
        if got and got[0] == "n" and jv is not None:
            assert got[1] == jv, f"Run!{col}: {got[1]} != JSON {jv}"
            n_json += 1
    for k in kinds:
        rows, cols, name = sheets[SHEETS[k]], csv.used(k), SHEETS[k]
        assert len(rows[0]) == len(cols), f"{name}: {len(rows[0])} headings for {cols}"
        assert all(h and h[0] == "s" for h in rows[0]), f"{name} headings {rows[0]}"
        assert len(rows) - 1 == len(csv.of(k)), f"{name}: {len(rows) - 1} rows"
    # The rows in file order, each with its test's index and its own.
    at = {k: 0 for k in RECORDS}
    i, mine = -1, {}
    for row in csv.rows:
        rec = row["record"][0]
        if rec == "test":
            i, mine = i + 1, {k: -1 for k in RECORDS}
        at[rec] += 1
        mine[rec] += 1
        j = mine[rec]
        rows, cols = sheets[SHEETS[rec]], csv.used(rec)
        for c, col in enumerate(cols):
            where = f"{SHEETS[rec]}!row {at[rec] + 1} ({col})"
            got = cell_at(rows, at[rec], c)
            n_csv += same_cell(got, *row[col], where)
            jv = json_value(doc, rec, i, j, col, row["mode"][0]) if doc else None
            if got and got[0] == "n" and jv is not None:
                assert got[1] == jv, f"{where}: {got[1]} != JSON {jv}"
                n_json += 1
    return n_csv, n_json


def headings(sheets, name):
    return [h[1] for h in sheets[name][0]]
