#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the GTK 4 stack for the Windows window (mingw-w64, shared DLLs,
# msvcrt) from the sources named in stack.txt, into a prefix cached outside
# the clone. The prefix is keyed by a hash of every input (the table, the
# WrapDB overlays, the patches, this script, the cross file, the toolchain
# and meson versions), so a second run reuses it and a changed input
# rebuilds it. Prints the prefix on stdout; the log goes to stderr.
#
#   platform/windows/stack/build-stack.sh [--print-prefix]
#
# DMK_THIRD_PARTY: the sources (default ../shared/third-party beside the
#   clone; src/*.tar.xz and wrapdb/).
# DMK_CACHE_DIR:   where prefixes are kept (default ~/.cache/drivemark).
# DMK_STACK_JOBS:  ninja -j (default: the number of CPUs).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
third=${DMK_THIRD_PARTY:-$root/../shared/third-party}
cache=${DMK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/drivemark}
jobs=${DMK_STACK_JOBS:-$(nproc)}
table=$here/stack.txt
cross=$here/stack-cross.ini

log() { printf '==> win-stack: %s\n' "$*" >&2; }
die() {
    printf 'win-stack: %s\n' "$*" >&2
    exit 1
}

# The table's rows, comments and blank lines dropped.
rows() { grep -v '^[[:space:]]*\(#\|$\)' "$table"; }

# Every input that changes the result, hashed in a fixed order.
input_hash() {
    {
        cat "$table" "$cross" "$0"
        (cd "$third/wrapdb" && find . -type f | LC_ALL=C sort | xargs sha256sum)
        (cd "$here/patches" && find . -type f | LC_ALL=C sort | xargs sha256sum)
        x86_64-w64-mingw32-gcc-win32 --version | head -1
        x86_64-w64-mingw32-g++-win32 --version | head -1
        x86_64-w64-mingw32-ld --version | head -1
        meson --version
        ninja --version
    } | sha256sum | cut -c1-16
}

check_sources() {
    local name file sum _
    [ -d "$third/src" ] || die "no sources at $third/src (set DMK_THIRD_PARTY)"
    while read -r name file sum _; do
        printf '%s  %s\n' "$sum" "$third/src/$file"
    done < <(rows) | sha256sum --quiet -c - >&2 || die "a source tarball's checksum does not match stack.txt"
}

# Extracts a tarball (top folder NAME-VERSION/) into DEST.
extract() {
    local file=$1 dest=$2
    mkdir -p "$dest"
    tar -xJf "$third/src/$file" -C "$dest" --strip-components=1
}

apply_patches() {
    local name=$1 dir=$2 p
    [ -d "$here/patches/$name" ] || return 0
    for p in "$here/patches/$name"/*.patch; do
        log "$name: patch $(basename "$p")"
        patch -d "$dir" -p1 -s <"$p"
    done
}

build_one() {
    local name=$1 dir=$2 prefix=$3
    shift 3
    local bdir=$work/build-$name
    log "$name: configure"
    meson setup "$bdir" "$dir" --cross-file "$cross" --cross-file "$work/prefix.ini" \
        --prefix "$prefix" --libdir lib --buildtype release --default-library shared \
        --wrap-mode nodownload "$@" >"$work/log-$name.txt" 2>&1 ||
        { tail -40 "$work/log-$name.txt" >&2; die "$name: meson setup failed (log: $work/log-$name.txt)"; }
    log "$name: build"
    ninja -C "$bdir" -j "$jobs" install >>"$work/log-$name.txt" 2>&1 ||
        { tail -40 "$work/log-$name.txt" >&2; die "$name: build failed (log: $work/log-$name.txt)"; }
}

build_stack() {
    local prefix=$1 name file sum ref how opts
    work=$prefix.work
    rm -rf "$prefix" "$work"
    mkdir -p "$work/src" "$prefix"
    # pkg-config looks only into the prefix: nothing of the build machine's
    # libraries can leak into the Windows DLLs.
    cat >"$work/prefix.ini" <<EOF
[binaries]
pkgconfig = 'pkg-config'

[properties]
pkg_config_libdir = ['$prefix/lib/pkgconfig', '$prefix/share/pkgconfig']
EOF
    # First every source in place (into: rows fill other sources' folders).
    while read -r name file sum ref how opts; do
        case $how in
        into:*)
            local target=${how#into:}
            extract "$file" "$work/src/$target"
            ;;
        *)
            extract "$file" "$work/src/$name"
            if [ "${how#wrap:}" != "$how" ]; then
                cp -R "$third/wrapdb/${how#wrap:}/." "$work/src/$name/"
                chmod -R u+w "$work/src/$name"
            fi
            apply_patches "$name" "$work/src/$name"
            ;;
        esac
    done < <(rows)
    while read -r name file sum ref how opts; do
        case $how in
        build | wrap:*)
            # shellcheck disable=SC2086 # the options are words
            build_one "$name" "$work/src/$name" "$prefix" $opts
            ;;
        esac
    done < <(rows)
    # libcsv is one C file and no build system worth running: a static
    # library and a .pc file of its own, so drivemark finds it as on Linux.
    local csv=$work/src/libcsv
    x86_64-w64-mingw32-gcc-win32 -O2 -c "$csv/libcsv.c" -o "$work/libcsv.o"
    x86_64-w64-mingw32-ar rcs "$prefix/lib/libcsv.a" "$work/libcsv.o"
    install -m 644 "$csv/csv.h" "$prefix/include/csv.h"
    cat >"$prefix/lib/pkgconfig/libcsv.pc" <<EOF
prefix=$prefix
Name: libcsv
Description: CSV parser and writer (rgamble/libcsv, static)
Version: 3.0.3
Libs: -L\${prefix}/lib -lcsv
Cflags: -I\${prefix}/include
EOF
    # Every library's licence, for the bundle.
    while read -r name file sum ref how opts; do
        case $how in into:*) continue ;; esac
        mkdir -p "$prefix/share/licenses/$name"
        find "$work/src/$name" -maxdepth 1 -type f \
            \( -iname 'COPYING*' -o -iname 'LICENSE*' -o -iname 'LICENCE*' -o -iname 'README.ijg' \) \
            -exec cp {} "$prefix/share/licenses/$name/" \;
    done < <(rows)
    cp "$work/prefix.ini" "$prefix/cross.ini"
    rm -rf "$work"
    date -u +%FT%TZ >"$prefix/.complete"
}

main() {
    check_sources
    local hash prefix start
    hash=$(input_hash)
    prefix=$cache/win-stack-$hash
    if [ -f "$prefix/.complete" ]; then
        log "reusing $prefix"
    else
        log "building into $prefix (inputs changed or cache empty)"
        start=$(date +%s)
        build_stack "$prefix"
        log "built in $(($(date +%s) - start)) s"
    fi
    printf '%s\n' "$prefix"
}

main "$@"
