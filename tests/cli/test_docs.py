#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The man pages and shell completions that app/dmk-gen-docs and
app/dmk-gen-gui-docs write from the option tables: each page renders
without a warning, every option drivemark-cli (and the window) accepts is
in the page and in each completion, the bash completion completes each
command's options and the choices of an option's value as the CLI's own
messages list them, zsh and fish load theirs, and `meson install
--destdir` installs them where the shells and man look. Prints TAP.

Paths come from tests/cli/meson.build: DMK_MAN_CLI, DMK_MAN_GUI (may be
empty: a build without GTK), DMK_BASH, DMK_ZSH, DMK_FISH, DMK_GUI (the
window's binary, or empty), DMK_BUILD_ROOT and DMK_MESON (for the
install)."""

import functools
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check  # noqa: E402

CLI = os.environ.get("DMK_CLI") or sys.argv[1]
MAN_CLI = os.environ["DMK_MAN_CLI"]
MAN_GUI = os.environ.get("DMK_MAN_GUI", "")
BASH, ZSH, FISH = os.environ["DMK_BASH"], os.environ["DMK_ZSH"], os.environ["DMK_FISH"]
GUI = os.environ.get("DMK_GUI", "")


def run(args):
    return dmktest.run_cli(CLI, args, 60)


def sh(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=60, **kw)


# ---- what drivemark-cli itself says it accepts (not the generated files) ----


@functools.lru_cache(maxsize=None)
def help_options_cached():
    return frozenset(help_options_uncached())


def help_options():
    return set(help_options_cached())


def help_options_uncached():
    """Every option --help lists, as "--name" (and "-q" for a short one)."""
    r = run(["--help"])
    check(r.returncode == 0, "--help")
    names = set()
    for line in r.stdout.splitlines():
        m = re.match(r"  (?:(-\w), )?(--[a-z0-9-]+)", line)
        if m:
            names.update(x for x in m.groups() if x)
    check(len(names) > 40, f"only {len(names)} options in --help")
    return names


def commands():
    r = run(["bogus"])
    m = re.search(r"expected (.*)$", r.stderr, re.M)
    check(m, f"no list of commands: {r.stderr}")
    return [w for w in re.split(r", | or ", m.group(1)) if w]


@functools.lru_cache(maxsize=None)
def accepted(command):
    """The long options the parser takes after command: each one tried,
    those it calls "not an option of" it left out. (The parser says that
    before it reads the value, and a usage error measures nothing.)"""
    took = set()
    for name in sorted(o for o in help_options() if o.startswith("--")):
        # never a run: a flag refuses "=", and whatever a value option
        # makes of "" the unknown option after it ends the parse
        r = run([command, name + "=", "--no-such-option"])
        check(r.returncode in (0, 2), f"{command} {name}=: exit {r.returncode}: {r.stderr}")
        if "is not an option of" not in r.stderr:
            took.add(name)
    return took


def expected_words(args, after="expected "):
    """The words a usage error lists: "expected native, libaio or null"."""
    r = run(args)
    check(r.returncode == 2, f"{args}: exit {r.returncode}")
    m = re.search(re.escape(after) + r"(.*)$", r.stderr, re.M)
    check(m, f"{args}: no list in {r.stderr!r}")
    return [w for w in re.split(r", | or ", m.group(1).rstrip(".")) if w]


# ---- the man pages --------------------------------------------------------------


def rendered(page):
    """page through man -l and groff -ww: the text; any warning fails."""
    g = sh(["groff", "-man", "-Tutf8", "-ww", "-z", page])
    check(g.returncode == 0 and g.stderr == "", f"groff -ww {page}: {g.stderr}")
    env = dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="", LC_ALL="C.UTF-8")
    m = sh(["man", "--warnings", "-l", page], env=env)
    check(m.returncode == 0 and m.stderr == "", f"man -l {page}: {m.returncode} {m.stderr}")
    text = re.sub(r".\x08", "", m.stdout)  # overstrikes, where man keeps them
    return text.replace("\u2010", "-").replace("\u2212", "-")


def test_man_pages_render():
    if not shutil.which("man") or not shutil.which("groff"):
        raise Skip("needs man-db and groff")
    for page in [MAN_CLI] + ([MAN_GUI] if MAN_GUI else []):
        text = rendered(page)
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "FILES",
                        "SAFETY", "EXAMPLES", "SEE ALSO"]:
            check(re.search(rf"^{section}$", text, re.M), f"{page}: no {section}")
        wide = [x for x in text.splitlines() if len(x) > 80]
        check(not wide, f"{page}: lines over 80 columns at MANWIDTH=80: {wide[:2]}")


def test_man_page_has_every_option():
    if not shutil.which("man"):
        raise Skip("needs man-db")
    text = rendered(MAN_CLI)
    words = set(re.findall(r"(?<![\w-])(--?[A-Za-z0-9][a-z0-9-]*)", text))
    missing = sorted(help_options() - words)
    check(not missing, f"drivemark-cli(1) lacks {missing}")
    for c in commands():
        check(re.search(rf"^       {re.escape(c)}\b", text, re.M), f"no command {c} in the page")
    # the exit statuses, as --help says them
    for status in re.findall(r"(\d+) [a-z]", run(["--help"]).stdout.split("Exit status:")[1]):
        check(re.search(rf"^       {status}\b", text, re.M), f"no exit status {status}")


def test_gui_man_page_has_every_option():
    if not MAN_GUI or not GUI:
        raise Skip("a build without the window")
    if not shutil.which("man"):
        raise Skip("needs man-db")
    r = sh([GUI, "--help"], env={k: v for k, v in os.environ.items()
                                 if k not in ("DISPLAY", "WAYLAND_DISPLAY")})
    check(r.returncode == 0, f"drivemark --help: {r.returncode} {r.stderr}")
    shown = set(re.findall(r"^\s+(?:-\w, )?(--[a-z0-9-]+)", r.stdout, re.M))
    shown -= {"--help-all", "--help-gapplication", "--help-gtk", "--gapplication-service",
              "--display"}  # GLib's and GTK's own
    check(len(shown) > 20, f"only {shown} in drivemark --help")
    text = rendered(MAN_GUI)
    words = set(re.findall(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*)", text))
    missing = sorted(shown - words)
    check(not missing, f"drivemark(1) lacks {missing}")


# ---- bash ------------------------------------------------------------------------


def bash_complete(*words):
    """What the completion offers for the command line words (the last one
    the word being completed), as the shell would insert each."""
    script = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); '
              '_drivemark_cli; printf "%s\\n" "${COMPREPLY[@]}"')
    r = sh(["bash", "-c", script, "bash", BASH, "drivemark-cli"] + list(words))
    check(r.returncode == 0 and r.stderr == "", f"bash {words}: {r.returncode} {r.stderr}")
    return [x for x in r.stdout.splitlines() if x]


def test_bash_completion_loads():
    r = sh(["bash", "-c", 'source "$1" && complete -p drivemark-cli', "bash", BASH])
    check(r.returncode == 0 and r.stdout.strip() == "complete -F _drivemark_cli drivemark-cli",
          f"complete -p: {r.returncode} {r.stdout!r} {r.stderr!r}")


def test_bash_completes_each_commands_options():
    check(sorted(bash_complete("")) == sorted(commands()), f"commands: {bash_complete('')}")
    for c in commands():
        offered = set(x for x in bash_complete(c, "--"))
        took = accepted(c) if c not in ("help", "version") else set()
        if c in ("help", "version"):  # done at once: only what every command takes
            check(offered == {"--help", "--version"}, f"{c}: {sorted(offered)}")
        elif c in ("sustained", "fullspan", "mixed", "latency", "recovery", "surface", "files",
                   "trace"):
            # the lab tests' own settings: only those of that test
            check(offered <= took, f"{c}: offers {sorted(offered - took)} it refuses")
            check({"--target", "--json", "--help"} <= offered, f"{c}: {sorted(offered)}")
        else:
            check(offered == took, f"{c}: offers {sorted(offered ^ took)} unlike the parser")
    check(bash_complete("run", "--ba") == ["--backend"], "run --ba")
    check(set(bash_complete("run", "-")) >= {"-q", "-h", "-V"}, "short options")
    check("--idle" in bash_complete("recovery", "--") and
          "--idle" not in bash_complete("sustained", "--"), "--idle is recovery's only")


def test_bash_completes_value_choices():
    backends = expected_words(["run", "--backend", "bogus"])
    check(bash_complete("run", "--backend", "") == backends, f"backends {backends}")
    check(bash_complete("run", "--backend", "=", "n") == [b for b in backends if b[0] == "n"],
          "--backend=n")
    check(bash_complete("run", "--profile", "") ==
          expected_words(["run", "--profile", "bogus"]), "profiles")
    check(bash_complete("sweep", "--pattern", "") == ["rnd", "seq"] or
          sorted(bash_complete("sweep", "--pattern", "")) == ["rnd", "seq"], "patterns")
    check(bash_complete("sweep", "") == ["qd", "bs"], "sweep's kinds")
    check(bash_complete("sweep", "qd", "") == [], "one kind only")
    labs = expected_words(["chart", "--kind", "bogus"], "for lab results ")
    kinds = bash_complete("chart", "--out", "x.png", "--kind", "")
    check(kinds[:3] == ["qd", "bs", "tiles"] and kinds[3:] == labs, f"chart kinds {kinds}")
    check(bash_complete("show", "--metric", "") == expected_words(["show", "--metric", "x"]),
          "metrics")
    # a test's name holds a space: inserted escaped, each one the parser takes
    tests = bash_complete("run", "--test", "RND4K")
    check("RND4K\\ Q32T1" in tests, f"tests {tests}")
    for t in tests:
        r = run(["run", "--backend", "null", "--test", t.replace("\\ ", " "), "--size", "bogus"])
        check("--size 'bogus'" in r.stderr, f"--test {t}: {r.stderr}")
    sizes = bash_complete("run", "--size", "")
    check(sizes[0] == "16MiB" and sizes[-1] == "64GiB", f"sizes {sizes}")
    check(bash_complete("run", "--passes", "") == [str(n) for n in range(1, 10)], "passes")
    check(bash_complete("run", "--measure", "") == [], "a number: nothing to offer")


def test_bash_completes_paths():
    with dmktest.Dir() as d:
        os.mkdir(os.path.join(d, "sub"))
        for name in ["a.csv", "b.txt"]:
            open(os.path.join(d, name), "w").close()
        cur = d + "/"
        check(sorted(bash_complete("run", "--target", cur)) == [cur + "sub"], "--target: dirs")
        check(sorted(bash_complete("run", "--json", cur)) ==
              sorted(cur + x for x in ["a.csv", "b.txt", "sub"]), "--json: files")
        check(sorted(bash_complete("show", cur)) == [cur + "a.csv", cur + "sub"],
              f"show: CSV files and folders: {bash_complete('show', cur)}")


# ---- zsh and fish ----------------------------------------------------------------


def test_zsh_completion_loads():
    if not shutil.which("zsh"):
        raise Skip("needs zsh")
    r = sh(["zsh", "-f", "-c", 'autoload -Uz compinit; compinit -u -d "$2"; source "$1" && '
            'print -r -- $_comps[drivemark-cli]', "zsh", ZSH,
            os.path.join(dmktest.TMP_BASE, "zcompdump")])
    check(r.returncode == 0 and r.stderr == "" and r.stdout.strip() == "_drivemark-cli",
          f"zsh: {r.returncode} {r.stdout!r} {r.stderr!r}")
    text = open(ZSH, encoding="utf-8").read()
    missing = sorted(o for o in help_options() if o not in text)
    check(not missing, f"the zsh completion lacks {missing}")


def fish_complete(line):
    r = sh(["fish", "--no-config", "-c", 'source $argv[1]; complete -C $argv[2]', FISH, line])
    check(r.returncode == 0 and r.stderr == "", f"fish {line!r}: {r.stderr}")
    return [x.split("\t")[0] for x in r.stdout.splitlines()]


def test_fish_completion():
    if not shutil.which("fish"):
        raise Skip("needs fish")
    backends = expected_words(["run", "--backend", "bogus"])
    check(sorted(fish_complete("drivemark-cli run --backend ")) == sorted(backends),
          f"fish --backend: {fish_complete('drivemark-cli run --backend ')}")
    check(sorted(fish_complete("drivemark-cli ")) == sorted(commands()), "fish: commands")
    check("RND4K Q32T1" in fish_complete("drivemark-cli run --test "), "fish: a test's name")
    for c in ["run", "sweep", "show", "chart"]:
        offered = set(x for x in fish_complete(f"drivemark-cli {c} --") if x.startswith("--"))
        took = accepted(c)
        check(offered == took, f"fish {c}: {sorted(offered ^ took)} unlike the parser")
    text = open(FISH, encoding="utf-8").read()
    missing = sorted(o for o in help_options()
                     if f"-l {o[2:]} " not in text and f"-s {o[1:]} " not in text)
    check(not missing, f"the fish completion lacks {missing}")


# ---- the install ---------------------------------------------------------------------


def test_install_lists_them():
    meson, root = os.environ.get("DMK_MESON", ""), os.environ.get("DMK_BUILD_ROOT", "")
    if not meson or not root:
        raise Skip("no meson to install with")
    with dmktest.Dir() as d:
        r = subprocess.run([meson, "install", "-C", root, "--destdir", d, "--no-rebuild"],
                           capture_output=True, text=True, timeout=300)
        check(r.returncode == 0, f"meson install: {r.stdout[-500:]} {r.stderr[-500:]}")
        got = set()
        for top, _, files in os.walk(d):
            got.update(os.path.relpath(os.path.join(top, f), d) for f in files)
        wanted = [r"share/man/man1/drivemark-cli\.1$",
                  r"share/bash-completion/completions/drivemark-cli$",
                  r"share/zsh/site-functions/_drivemark-cli$",
                  r"share/fish/vendor_completions\.d/drivemark-cli\.fish$"]
        if MAN_GUI:
            wanted.append(r"share/man/man1/drivemark\.1$")
        for w in wanted:
            check(any(re.search(w, f) for f in got), f"not installed: {w}; got {sorted(got)}")
        for w in wanted:
            m = [f for f in got if re.search(w, f)]
            check(m and (f"Installing {os.path.basename(m[0])} " in r.stdout or
                         os.path.basename(m[0]) in r.stdout), f"meson's list lacks {m}")
        return "\n".join(sorted(f for f in got if re.search("|".join(wanted), f)))


if __name__ == "__main__":
    sys.exit(dmktest.run_tap(dmktest.tests_in(globals()), timed=True))
