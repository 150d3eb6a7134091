#!/usr/bin/env bash
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
    env "${wine_env[@]}" meson test -C "$build" --print-errorlogs "$@" || rc=$?
    env "${wine_env[@]}" wineserver -k 2>/dev/null # no server left running after the tests
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
