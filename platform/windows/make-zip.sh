#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The portable zip for Windows, as CrystalDiskMark's: unpack and run.
#
#   platform/windows/make-zip.sh BUILD_DIR STACK_PREFIX OUT_DIR
#
# BUILD_DIR is a build of drivemark against the GTK stack (./setup.sh zip
# makes both). The zip holds drivemark.exe and drivemark-cli.exe, only the
# DLLs they import (found by following `objdump -p` from the exes through
# the stack's DLLs; Windows' own are left out), GTK's and Drivemark's
# GSettings schemas compiled into share/glib-2.0/schemas (where GLib looks
# beside the exe), the app's icon, every bundled library's licence and
# Drivemark's, a README.txt, and an empty drivemark.ini: the portable copy
# keeps its settings there instead of the registry. The translations:
# our gettext runtime as libintl-8.dll in the place of the stack's stub
# (platform/windows/intl says why), Drivemark's catalogs compiled from
# po/ for every language po/LINGUAS names, and the stack's own ones (GTK's
# gtk40, GLib's, gdk-pixbuf's) for those languages, all in
# share/locale/LANG/LC_MESSAGES beside the exes, where drivemark.exe binds
# its domain and GTK and GLib look. Prints the zip's path.
set -euo pipefail

build=$(cd "${1:?usage: make-zip.sh BUILD_DIR STACK_PREFIX OUT_DIR}" && pwd)
prefix=$(cd "${2:?usage: make-zip.sh BUILD_DIR STACK_PREFIX OUT_DIR}" && pwd)
out=${3:?usage: make-zip.sh BUILD_DIR STACK_PREFIX OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
version=$(meson introspect --projectinfo "$build" | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
name=drivemark-$version-windows-x86_64
stage=$build/zip/$name
rm -rf "$build/zip"
mkdir -p "$stage/share/glib-2.0/schemas" "$stage/share/icons/hicolor/scalable/apps" \
    "$stage/licenses"

imports() { x86_64-w64-mingw32-objdump -p "$1" | sed -n 's/^[[:space:]]*DLL Name: //p'; }

# The DLLs the exes need from the stack, transitively; a name the stack
# does not have is Windows' own (kernel32, msvcrt, ...).
declare -A seen=()
queue=("$build/app/drivemark.exe" "$build/app/drivemark-cli.exe")
while [ "${#queue[@]}" -gt 0 ]; do
    file=${queue[0]}
    queue=("${queue[@]:1}")
    while read -r dll; do
        lower=${dll,,}
        [ -n "${seen[$lower]:-}" ] && continue
        seen[$lower]=1
        found=$(find "$prefix/bin" -maxdepth 1 -iname "$dll" -print -quit)
        [ -n "$found" ] || continue
        cp "$found" "$stage/"
        queue+=("$found")
    done < <(imports "$file")
done
cp "$build/app/drivemark.exe" "$build/app/drivemark-cli.exe" "$stage/"
# The stub the loop above copied never translates; ours takes its name.
intl=$build/platform/windows/intl/libintl-8.dll
[ -f "$intl" ] || { echo "make-zip.sh: $intl is missing (build the window first)" >&2; exit 1; }
cp "$intl" "$stage/libintl-8.dll"
x86_64-w64-mingw32-strip --strip-unneeded "$stage"/*.exe "$stage"/*.dll

cp "$prefix"/share/glib-2.0/schemas/*.gschema.xml "$stage/share/glib-2.0/schemas/"
cp "$src/resources/io.github.drivemark.drivemark.gschema.xml" "$stage/share/glib-2.0/schemas/"
glib-compile-schemas "$stage/share/glib-2.0/schemas"
cp "$src/resources/icons/"*.svg "$stage/share/icons/hicolor/scalable/apps/"

cp "$src/LICENSE" "$stage/licenses/drivemark-LICENSE.txt"
for lib in "$prefix"/share/licenses/*/; do
    # Every library of the stack is in the zip: as a DLL, or built into
    # one (gvdb) or into the exes (libcsv).
    lib=$(basename "$lib")
    # ... except proxy-libintl: its stub DLL is replaced by ours (above).
    case $lib in proxy-libintl | *-intl) continue ;; esac
    for f in "$prefix/share/licenses/$lib"/*; do
        [ -f "$f" ] && cp "$f" "$stage/licenses/$lib-$(basename "$f").txt"
    done
done
while read -r lang; do
    case $lang in '' | '#'*) continue ;; esac
    dir=$stage/share/locale/$lang/LC_MESSAGES
    mkdir -p "$dir"
    msgfmt --check -o "$dir/drivemark.mo" "$src/po/$lang.po"
    for mo in "$prefix/share/locale/$lang/LC_MESSAGES"/*.mo; do
        [ -f "$mo" ] && cp "$mo" "$dir/"
    done
done <"$src/po/LINGUAS"

: >"$stage/drivemark.ini"
sed "s/@VERSION@/$version/g" "$src/platform/windows/README.txt.in" >"$stage/README.txt"

# Windows' line ends for the text a user opens in Notepad.
for f in "$stage/README.txt" "$stage"/licenses/*.txt; do
    sed -i 's/\r*$/\r/' "$f"
done

rm -f "$out/$name.zip"
(cd "$build/zip" && python3 -m zipfile -c "$out/$name.zip" "$name")
printf '%s\n' "$out/$name.zip"
