#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Flatpak manifest (flatpak/io.github.drivemark.drivemark.yml), checked
as far as it can be without the GNOME runtime, which cannot be downloaded
here: flatpak-builder reads it with no warning (an unknown or misspelt
property is one); its id is the metainfo's and the desktop file's; the
runtime has GTK 4.8 or newer; every downloaded source is pinned by a
sha256; each library the build finds outside the runtime has a module; and
`flatpak build-finish` accepts the finish-args and exports the desktop
file and both icons from the real install set. Building the modules and
running the app in the sandbox are not done here. Prints TAP.

    check_flatpak.py SOURCE_ROOT BUILD_ROOT"""

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import dmktest  # noqa: E402
from dmktest import Skip, check, note  # noqa: E402

SRC = os.path.abspath(sys.argv[1])
BUILD = os.path.abspath(sys.argv[2])
APP_ID = "io.github.drivemark.drivemark"
MANIFEST = os.path.join(SRC, "flatpak", APP_ID + ".yml")
WORK = os.path.join(BUILD, "tests", "pkg", "flatpak")
# The libraries meson.build looks for that org.gnome.Platform lacks.
NEEDED_MODULES = {"libaio", "libcsv", "libxlsxwriter"}
# The first GNOME runtime with GTK 4.8.
MIN_GNOME = 43

_manifest = None


def manifest():
    global _manifest
    if _manifest is None:
        if not shutil.which("flatpak-builder"):
            raise Skip("needs flatpak-builder (setup.sh installs it)")
        # In WORK: flatpak-builder makes its state dir (.flatpak-builder)
        # in the current directory.
        os.makedirs(WORK, exist_ok=True)
        r = subprocess.run(["flatpak-builder", "--show-manifest", MANIFEST],
                           capture_output=True, text=True, cwd=WORK)
        check(r.returncode == 0 and not r.stderr.strip(),
              f"flatpak-builder --show-manifest: exit {r.returncode}\n{r.stderr}")
        _manifest = json.loads(r.stdout)
    return _manifest


def test_reads_without_warnings():
    m = manifest()
    return f"{m['id']}: {len(m['modules'])} modules, {len(m['finish-args'])} finish-args"


def test_id_is_the_apps():
    m = manifest()
    metainfo = os.path.join(SRC, "resources", APP_ID + ".metainfo.xml.in")
    mid = ET.parse(metainfo).getroot().findtext("id")
    desktop = os.path.join(SRC, "resources", APP_ID + ".desktop.in")
    check(m["id"] == APP_ID == mid and os.path.exists(desktop),
          f"manifest id {m['id']}, metainfo id {mid}, desktop file {desktop}")
    check(m["command"] == "drivemark", f"command {m['command']}")


def test_runtime_has_gtk_4_8():
    m = manifest()
    check(m["runtime"] == "org.gnome.Platform" and m["sdk"] == "org.gnome.Sdk",
          f"runtime {m['runtime']}, sdk {m['sdk']}")
    check(re.fullmatch(r"\d+", m["runtime-version"]) and int(m["runtime-version"]) >= MIN_GNOME,
          f"runtime-version {m['runtime-version']}: GNOME {MIN_GNOME} has GTK 4.8")


def test_sources_pinned():
    mods = manifest()["modules"]
    for i, mod in enumerate(mods):
        for s in mod.get("sources", []):
            t = s.get("type")
            if t in ("archive", "file"):
                check(s.get("url", "").startswith("https://"), f"{mod['name']}: {s.get('url')}")
                check(re.fullmatch(r"[0-9a-f]{64}", s.get("sha256", "")),
                      f"{mod['name']}: {s.get('url')} has no sha256")
            elif t == "git":
                check(s.get("commit") or s.get("tag"), f"{mod['name']}: a git source unpinned")
            elif t == "dir":
                check(i == len(mods) - 1 and mod["name"] == "drivemark",
                      f"{mod['name']}: a dir source other than the app's own")
            else:
                check(False, f"{mod['name']}: a source of type {t}")


def test_libraries_have_modules():
    names = {mod["name"] for mod in manifest()["modules"]}
    check(NEEDED_MODULES <= names, f"modules {sorted(names)} lack {sorted(NEEDED_MODULES - names)}")


def test_build_finish_exports():
    """The real install set as an app's files/ (prefix /app), finished with
    the manifest's finish-args: flatpak checks each and exports what the
    desktop sees (the desktop file and icons named after the app id)."""
    m = manifest()
    if not shutil.which("flatpak"):
        raise Skip("needs flatpak")
    dest = os.path.join(WORK, "destdir")
    app = os.path.join(WORK, "app")
    shutil.rmtree(dest, ignore_errors=True)
    shutil.rmtree(app, ignore_errors=True)
    r = subprocess.run(["meson", "install", "-C", BUILD, "--no-rebuild", "--quiet",
                        "--destdir", dest], capture_output=True, text=True)
    check(r.returncode == 0, f"meson install: {r.stdout}{r.stderr}")
    opts = json.loads(subprocess.run(["meson", "introspect", "--buildoptions", BUILD],
                                     capture_output=True, text=True, check=True).stdout)
    prefix = next(o["value"] for o in opts if o["name"] == "prefix")
    shutil.copytree(os.path.join(dest, prefix.lstrip("/")), os.path.join(app, "files"))
    with open(os.path.join(app, "metadata"), "w") as f:
        f.write(f"[Application]\nname={APP_ID}\n"
                f"runtime={m['runtime']}/x86_64/{m['runtime-version']}\n"
                f"sdk={m['sdk']}/x86_64/{m['runtime-version']}\n")
    r = subprocess.run(["flatpak", "build-finish", app, "--command=" + m["command"]]
                       + m["finish-args"], capture_output=True, text=True)
    note(r.stdout + r.stderr)
    # It warns ("F: ...") of an argument it ignores, and exits 0.
    check(r.returncode == 0 and not re.search(r"^(F:|error)", r.stderr, re.M | re.I),
          f"flatpak build-finish: exit {r.returncode}")
    export = os.path.join(app, "export", "share")
    for rel in ("applications/" + APP_ID + ".desktop",
                "icons/hicolor/scalable/apps/" + APP_ID + ".svg",
                "icons/hicolor/symbolic/apps/" + APP_ID + "-symbolic.svg"):
        check(os.path.exists(os.path.join(export, rel)), f"flatpak did not export {rel}")
    meta = open(os.path.join(app, "metadata")).read()
    note(meta)
    check("org.freedesktop.UDisks2=talk" in meta, "metadata lacks the UDisks2 system bus name")


def main():
    return dmktest.run_tap(dmktest.tests_in(globals()))


if __name__ == "__main__":
    sys.exit(main())
