#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Cross-builds the engine, drivemark-cli.exe and the tests for 64-bit
# Windows with mingw-w64, and runs the tests under Wine.
#
#   platform/windows/run-wine-tests.sh [SOURCE_DIR [BUILD_DIR [meson test args]]]
#
# or, sourced (as setup.sh does):  windows_tests SOURCE_DIR BUILD_DIR
#
# Needs (Debian 12): meson ninja-build gcc-mingw-w64-x86-64 wine wine64.
# Wine gets a prefix of its own inside the build dir, made once; no
# window, no Mono/Gecko installer, no debug chatter.

# A full disk and a read-only one for the Windows backend's error tests:
# small ext4 images loop-mounted under the build dir (root only; without
# them those two tests skip and say why).
dmk_fault_mounts() {
    local dir="$1/fault-fs"
    DMK_FAULT_MOUNTS=()
    [ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null || return 0
    mkdir -p "$dir/small" "$dir/ro"
    local name opts
    for name in small ro; do
        # a run killed before its clean-up leaves its mount behind
        mountpoint -q "$dir/$name" && umount "$dir/$name" 2>/dev/null
        opts=loop
        [ "$name" = ro ] && opts=loop,ro
        truncate -s 48M "$dir/$name.img" && mkfs.ext4 -q -F "$dir/$name.img" &&
            mount -o "$opts" "$dir/$name.img" "$dir/$name" 2>/dev/null || continue
        DMK_FAULT_MOUNTS+=("$dir/$name")
    done
    mountpoint -q "$dir/small" && export DMK_TEST_SMALL_DIR="$dir/small"
    mountpoint -q "$dir/ro" && export DMK_TEST_RO_DIR="$dir/ro"
    return 0
}

dmk_fault_unmount() {
    local m
    for m in "${DMK_FAULT_MOUNTS[@]}"; do
        umount "$m" 2>/dev/null
    done
    unset DMK_TEST_SMALL_DIR DMK_TEST_RO_DIR
    DMK_FAULT_MOUNTS=()
}

windows_tests() {
    local src=${1:?usage: windows_tests SOURCE_DIR BUILD_DIR} build=${2:?usage: windows_tests SOURCE_DIR BUILD_DIR}
    shift 2
    src=$(cd "$src" && pwd) || return
    if [ ! -f "$build/build.ninja" ]; then
        meson setup "$build" "$src" --buildtype=debugoptimized \
            --cross-file "$src/platform/windows/mingw-w64-x86_64.ini" || return
    fi
    build=$(cd "$build" && pwd) || return
    ninja -C "$build" || return

    local prefix="$build/wine-prefix"
    local -a wine_env=(
        -u DISPLAY -u WAYLAND_DISPLAY
        WINEPREFIX="$prefix"
        WINEDEBUG=-all                  # also silences Debian's "wine32 is missing" hint
        WINEDLLOVERRIDES="mscoree,mshtml=" # no Mono or Gecko download prompt
    )
    if [ ! -f "$prefix/system.reg" ]; then
        printf '==> creating the Wine prefix %s\n' "$prefix" >&2
        env "${wine_env[@]}" wineboot -i >/dev/null 2>&1 || return
        env "${wine_env[@]}" wineserver -w # wait until wineboot has really finished
    fi
    local rc=0
    dmk_fault_mounts "$build"
    # One server for the whole run: by default it exits a moment after its
    # last client, and a test that started just then (the two before it
    # ending together) got no server and exited 1 without a word (a clean-
    # clone run). Persistent (-p), it is there for every test until -k.
    # Its system processes (services.exe and the like) live as long, so
    # they are started here, on /dev/null: started by the first test, they
    # would hold its output pipe open and meson would wait for it in vain.
    env "${wine_env[@]}" wineserver -p
    env "${wine_env[@]}" wine cmd.exe /c exit </dev/null >/dev/null 2>&1
    env "${wine_env[@]}" meson test -C "$build" --print-errorlogs "$@" || rc=$?
    dmk_fault_unmount
    env "${wine_env[@]}" wineserver -k 2>/dev/null # no server left running after the tests
    return "$rc"
}

# The window: the GTK stack built (or found in the cache) by
# platform/windows/stack/build-stack.sh, drivemark.exe and drivemark-cli.exe
# built against it in a build dir of their own (windows_gui_build, which
# sets DMK_WIN_STACK to the prefix), and their Wine tests (the suite
# windows-gui; the test makes its own Wine prefix there).
windows_gui_build() {
    local src=${1:?usage: windows_gui_build SOURCE_DIR BUILD_DIR} build=${2:?usage: windows_gui_build SOURCE_DIR BUILD_DIR}
    src=$(cd "$src" && pwd) || return
    DMK_WIN_STACK=$("$src/platform/windows/stack/build-stack.sh") || return
    # A build dir made against another prefix (an input changed) is made again.
    if [ ! -f "$build/build.ninja" ] || ! grep -qF "$DMK_WIN_STACK" "$build/meson-private/cmd_line.txt" 2>/dev/null; then
        rm -rf "$build"
        meson setup "$build" "$src" --buildtype=debugoptimized \
            --cross-file "$src/platform/windows/stack/stack-cross.ini" \
            --cross-file "$DMK_WIN_STACK/cross.ini" || return
    fi
    ninja -C "$build"
}

windows_gui_tests() {
    local src=${1:?usage: windows_gui_tests SOURCE_DIR BUILD_DIR} build=${2:?usage: windows_gui_tests SOURCE_DIR BUILD_DIR}
    shift 2
    windows_gui_build "$src" "$build" || return
    # The portable zip too, for the test that runs it unpacked.
    local zip
    zip=$("$src/platform/windows/make-zip.sh" "$build" "$DMK_WIN_STACK" "$build/dist") || return
    # The chart renderer's tests too, on the stack's Cairo: meson runs them
    # through wine, which finds the DLLs by WINEPATH, in a prefix of their
    # own with its server and services started first (as windows_tests).
    local -a wine_env=(
        -u DISPLAY -u WAYLAND_DISPLAY
        WINEPREFIX="$(cd "$build" && pwd)/wine-prefix"
        WINEDEBUG=-all
        WINEDLLOVERRIDES="mscoree,mshtml="
        WINEPATH="Z:${DMK_WIN_STACK//\//\\}\\bin"
    )
    env "${wine_env[@]}" wineserver -p
    env "${wine_env[@]}" wine cmd.exe /c exit </dev/null >/dev/null 2>&1
    local rc=0
    env "${wine_env[@]}" DMK_WIN_ZIP="$zip" meson test -C "$build" --no-rebuild --print-errorlogs \
        --suite windows-gui --suite chart "$@" || rc=$?
    env "${wine_env[@]}" wineserver -k 2>/dev/null
    return "$rc"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -uo pipefail
    here=$(cd "$(dirname "$0")" && pwd)
    src=${1:-$here/../..}
    build=${2:-$src/build-win}
    shift $(($# < 2 ? $# : 2))
    windows_tests "$src" "$build" "$@"
fi
