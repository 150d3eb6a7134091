#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""drivemark-cli speaks the real catalogs the build compiled (po/*.po,
found through DMK_TEST_LOCALEDIR): `LANGUAGE=cs drivemark-cli --help` is
Czech, `LANGUAGE=ru drivemark-cli run ...` prints its report in Russian
with every number as the English run prints it (the null backend on its
simulated clock, so both runs measure the same), and every language of
po/LINGUAS translates --help's lines. Prints TAP.

Usage: test_catalogs_cli.py DRIVEMARK_CLI BUILD_PO_DIR SOURCE_PO_DIR"""
import gettext
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import dmktest  # noqa: E402
from dmktest import Dir, Skip, check  # noqa: E402

CLI, LOCALEDIR, PO = sys.argv[1], sys.argv[2], Path(sys.argv[3])
RUN = ["run", "--backend", "null", "--null-latency", "50", "--null-clock", "simulated",
       "--size", "64MiB", "--passes", "1", "--measure", "0.2", "--warmup", "0",
       "--interval", "0", "--profile", "default"]
DATE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
NUMBER = re.compile(r"\d+(?:\.\d+)?")


class CatalogDir(Dir):
    prefix = "dmk-catalogs-"


def linguas():
    return [l.strip() for l in (PO / "LINGUAS").read_text().splitlines()
            if l.strip() and not l.startswith("#")]


def catalog(lang):
    mo = Path(LOCALEDIR) / lang / "LC_MESSAGES" / "drivemark.mo"
    if not mo.exists():
        raise Skip(f"{mo} was not built")
    with open(mo, "rb") as f:
        return gettext.GNUTranslations(f)


def env_for(lang):
    return {"LC_ALL": "C.UTF-8", "LANGUAGE": lang, "LANG": "", "DMK_TEST_LOCALEDIR": LOCALEDIR}


def run(args, env):
    return dmktest.run_cli(CLI, args, 120, env=env)


def test_help_in_czech():
    cs = catalog("cs")
    r = run(["--help"], env_for("cs"))
    check(r.returncode == 0, f"--help: {r.returncode} {r.stderr}")
    for msgid in ("Usage:", "\nOptions of every command:\n"):
        want = cs.gettext(msgid)
        check(want != msgid, f"cs.po does not translate {msgid!r}")
        check(want.strip() in r.stdout,
              f"--help under LANGUAGE=cs lacks {want!r}:\n{r.stdout[:600]}")
    check("Options of every command:" not in r.stdout, "--help under cs is still English")
    return f"{len(r.stdout.splitlines())} lines"


def test_every_catalog_translates_help():
    english = run(["--help"], {"LC_ALL": "C", "LANGUAGE": "", "LANG": ""}).stdout.splitlines()
    done = []
    for lang in linguas():
        lines = run(["--help"], env_for(lang)).stdout.splitlines()
        same = [l for l in lines if l.strip() and l in english and re.search(r"[a-z]{4} [a-z]{4}", l)
                and not l.lstrip().startswith("-")]
        check(len(same) < len(lines) // 10,
              f"--help under {lang}: {len(same)} of {len(lines)} lines still English, e.g. {same[:3]}")
        done.append(f"{lang} {len(same)}/{len(lines)} English")
    return ", ".join(done)


def report(d, env):
    r = run(RUN + ["--target", d], env)
    check(r.returncode == 0, f"run under {env.get('LANGUAGE')}: {r.returncode} {r.stderr}")
    return DATE.sub("DATE", r.stdout)


def numbers_of(line):
    """A line's numbers, a language's digit grouping ("1,000,000" or
    "1 000 000") undone."""
    return NUMBER.findall(re.sub(r"(?<=\d)[,\u00a0\u202f ](?=\d{3}\b)", "", line))


def test_run_report_in_russian():
    ru = catalog("ru")
    with CatalogDir() as d:
        english = report(d, {"LC_ALL": "C", "LANGUAGE": "", "LANG": ""})
        russian = report(d, env_for("ru"))
    for msgid in ("Read", "Write"):
        check(f"[{ru.gettext(msgid)}]" in russian, f"the report's [{msgid}] is not Russian")
    check(re.search("[а-яА-Я]{4}", russian), f"no Russian in the report:\n{russian}")
    # Every line's numbers as in the English report, the words aside.
    numbers = [numbers_of(line) for line in english.splitlines()]
    got = [numbers_of(line) for line in russian.splitlines()]
    check(got == numbers, f"the numbers differ:\n{english}\n---\n{russian}")
    return f"{sum(map(len, numbers))} numbers the same"


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals())))
