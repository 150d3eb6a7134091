#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian packages, built from a copy of the tree as a distribution
# would (dpkg-buildpackage -us -uc: the native source package and the two
# binary packages), then checked: lintian at its default level reports
# nothing (no E: and no W: line), drivemark-cli's package needs no GTK, each
# package holds what it should, and no file of the packages (the debug
# symbols' included) names the directory they were built in. Prints TAP.
#
#   test-deb.sh SOURCE_ROOT BUILD_ROOT
#
# The copy is BUILD_ROOT/deb-src/drivemark-VERSION (dpkg-buildpackage
# writes its results into the parent directory). The project's own tests
# do not run in the package build (debian/rules says why), so this is one
# more build of the program and no more.
set -uo pipefail

SRC=$(cd "$1" && pwd)
BUILD=$(cd "$2" && pwd)

for tool in dpkg-buildpackage dh lintian dpkg-deb dpkg-parsechangelog; do
    if ! command -v "$tool" >/dev/null; then
        echo "1..0 # SKIP needs $tool (setup.sh installs it)"
        exit 0
    fi
done

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
note() { sed 's/^/# /'; }

version=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version)
meson_version=$(meson introspect --projectinfo "$BUILD" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
if [ "$version" = "$meson_version" ]; then
    ok "debian/changelog's version is the project's ($version)"
else
    not_ok "debian/changelog says $version, meson.build $meson_version"
fi

# A fresh machine gets the build's dependencies from setup.sh only.
missing=$(python3 - "$SRC/debian/control" "$SRC/setup.sh" <<'PY'
import re, sys
control, setup = (open(p, encoding="utf-8").read() for p in sys.argv[1:])
control = re.sub(r"^#.*\n", "", control, flags=re.M)
deps = re.search(r"^Build-Depends:(.*?)^\S", control, re.M | re.S).group(1)
names = {re.match(r"\s*([a-z0-9.+-]+)", d).group(1) for d in deps.split(",") if d.strip()}
names.discard("debhelper-compat")  # debhelper provides it
packages = re.search(r"^PACKAGES=\((.*?)^\)", setup, re.M | re.S).group(1)
listed = {w for line in packages.splitlines() for w in line.split("#")[0].split()}
print(" ".join(sorted(names - listed)))
PY
)
if [ -z "$missing" ]; then
    ok "setup.sh installs every Build-Depends of debian/control"
else
    not_ok "setup.sh's PACKAGES lack the Build-Depends $missing"
fi

work=$BUILD/deb-src
tree=$work/drivemark-$version
rm -rf "$work"
mkdir -p "$tree"
# The tree as git knows it (tracked and new files, not what .gitignore
# leaves out: no build dirs); a tree without git is copied less build*/.
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
        tar -cf - --null -T -) | tar -xf - -C "$tree"
else
    (cd "$SRC" && tar -cf - --exclude='./build*' --exclude=./.git .) | tar -xf - -C "$tree"
fi

# The package build as on a builder, not in the test run's environment
# (setup.sh's LOCPATH with only the test locale, meson test's
# MALLOC_PERTURB_).
unset LOCPATH MALLOC_PERTURB_
export LC_ALL=C.UTF-8

start=$(date +%s)
if (cd "$tree" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
    dpkg-buildpackage -us -uc >"$work/build.log" 2>&1); then
    ok "dpkg-buildpackage -us -uc built the packages in $(($(date +%s) - start)) s"
else
    not_ok "dpkg-buildpackage failed (its log: $work/build.log)"
    tail -40 "$work/build.log" | note
    echo "1..$n"
    exit 1
fi

arch=$(dpkg-architecture -qDEB_HOST_ARCH)
changes=$work/drivemark_${version}_${arch}.changes
# With its I: lines shown too, for an override that no longer applies
# (unused-override, an I:): an override must not outlive its reason.
lintian_out=$(lintian --display-info "$changes" 2>&1)
echo "$lintian_out" | note
if echo "$lintian_out" | grep -Eq '^[EW]: '; then
    not_ok "lintian reports errors or warnings on $(basename "$changes")"
else
    ok "lintian at its default level reports nothing on $(basename "$changes")"
fi
if echo "$lintian_out" | grep -q 'unused-override'; then
    not_ok "debian/*.lintian-overrides has an override lintian no longer needs"
else
    ok "every lintian override is still needed"
fi

cli_deb=$work/drivemark-cli_${version}_${arch}.deb
gui_deb=$work/drivemark_${version}_${arch}.deb
for deb in "$cli_deb" "$gui_deb"; do
    echo "$(basename "$deb"): Depends: $(dpkg-deb -f "$deb" Depends)" | note
    dpkg-deb -c "$deb" | awk '{print $NF}' | note
done

depends=$(dpkg-deb -f "$cli_deb" Depends)
if echo "$depends" | grep -Eq 'libgtk|libadwaita|libglib'; then
    not_ok "drivemark-cli depends on GTK or GLib: $depends"
else
    ok "drivemark-cli needs no GTK: $depends"
fi

# What each package must hold (a few of each; the whole install set is
# test_install.py's).
check_holds() {
    local deb=$1
    shift
    local listing missing=()
    listing=$(dpkg-deb -c "$deb" | awk '{print $NF}')
    for f in "$@"; do
        echo "$listing" | grep -qx "\./$f" || missing+=("$f")
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        ok "$(basename "$deb") holds its files"
    else
        not_ok "$(basename "$deb") lacks ${missing[*]}"
    fi
}
check_holds "$cli_deb" usr/bin/drivemark-cli usr/share/doc/drivemark-cli/copyright \
    usr/share/locale/ru/LC_MESSAGES/drivemark.mo
check_holds "$gui_deb" usr/bin/drivemark \
    usr/share/applications/io.github.drivemark.drivemark.desktop \
    usr/share/metainfo/io.github.drivemark.drivemark.metainfo.xml \
    usr/share/icons/hicolor/scalable/apps/io.github.drivemark.drivemark.svg \
    usr/share/icons/hicolor/symbolic/apps/io.github.drivemark.drivemark-symbolic.svg \
    usr/share/glib-2.0/schemas/io.github.drivemark.drivemark.gschema.xml \
    usr/share/doc/drivemark/README.md usr/share/doc/drivemark/docs/results.md \
    usr/share/doc/drivemark/docs/images/window.png usr/share/doc/drivemark/copyright

# Reproducible: nothing names the build tree, debug symbols included.
unpacked=$work/unpacked
found=""
for deb in "$work"/*.deb "$work"/*.ddeb; do
    [ -e "$deb" ] || continue
    rm -rf "$unpacked"
    mkdir -p "$unpacked"
    dpkg-deb -x "$deb" "$unpacked"
    hits=$(grep -rlF -e "$tree" -e "$work" "$unpacked" | sed "s|^$unpacked/||")
    [ -n "$hits" ] && found+="$(basename "$deb"): $hits"$'\n'
done
if [ -z "$found" ]; then
    ok "no packaged file names the build tree $tree"
else
    not_ok "packaged files name the build tree:"
    printf '%s' "$found" | note
fi

echo "1..$n"
exit "$failed"
