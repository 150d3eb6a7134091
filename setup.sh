#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Drivemark's one set-up script for Debian 12 (bookworm).
#
#   ./setup.sh run    install what is missing, build, open the window
#                     (no display: drivemark-cli run on .)
#   ./setup.sh test   install what is missing, build, run every test
#   ./setup.sh zip    the portable Windows zip (the GTK stack cross-built,
#                     cached): dist/drivemark-VERSION-windows-x86_64.zip
#
# Installing needs root (apt-get); as another user the script uses sudo.
set -euo pipefail
cd "$(dirname "$0")"

BUILD=${DMK_BUILD_DIR:-build}
WIN_BUILD=${DMK_WIN_BUILD_DIR:-build-win}
WIN_GUI_BUILD=${DMK_WIN_GUI_BUILD_DIR:-build-win-gui} # the window for Windows, on the GTK stack
ASAN_BUILD=${DMK_ASAN_BUILD_DIR:-build-asan}   # the whole suite under ASan + UBSan (clang)
FUZZ_BUILD=${DMK_FUZZ_BUILD_DIR:-build-fuzz}   # libFuzzer targets only (clang)
FUZZ_SECONDS=${DMK_FUZZ_SECONDS:-60}           # how long each fuzz target runs
PACKAGES=(
    build-essential meson ninja-build pkg-config python3   # toolchain
    libaio-dev liburing-dev libcsv-dev libcairo2-dev        # engine (libaio, io_uring), CSV, charts
    libarchive-dev                                          # the file-set test's .zip archive
    clang-format                                            # style check
    clang libclang-rt-14-dev llvm-14                        # ASan/UBSan and libFuzzer builds, symbolizer
    locales                                                 # a decimal-comma locale for tests
    gettext                                                 # msgfmt/xgettext: po/ template, merged desktop and metainfo files
    zstd                                                    # unit/data: the write data do not compress
    libxlsxwriter-dev libreoffice-calc-nogui                # the .xlsx export; its check in 3 locales
    e2fsprogs mount util-linux fdisk dosfstools             # loop-device tests, partitions (sfdisk), vfat
    bindfs fuse3                                            # FUSE targets: leftovers, RAM-backed storage
    btrfs-progs xfsprogs                                    # loop-mounted btrfs (NOCOW, compression, two devices), xfs (a log device)
    dmsetup                                                 # a device-mapper holder (raw device guard test)
    libgtk-4-dev libgtk-4-bin fonts-dejavu-core adwaita-icon-theme  # the desktop app
    xvfb dbus-daemon desktop-file-utils appstream           # its tests in a real window
    x11-utils libglib2.0-bin                                # xwininfo (the window's class), gdbus (a second instance)
    dpkg-dev debhelper lintian flatpak-builder              # the Debian packages and the Flatpak manifest (tests/pkg)
    gcc-mingw-w64-x86-64 wine wine64                        # Windows cross build, tests under Wine
    g++-mingw-w64-x86-64-win32 sassc fonts-wine xz-utils    # the GTK stack for Windows (C++, GTK's theme, Tahoma)
    man-db groff-base bash-completion zsh fish              # man pages rendered, completions loaded
)

log() { printf '==> %s\n' "$*" >&2; }

missing_packages() {
    local p
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
            printf '%s\n' "$p"
    done
}

install_deps() {
    local missing
    mapfile -t missing < <(missing_packages)
    [ "${#missing[@]}" -eq 0 ] && return 0
    log "installing: ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${missing[@]}"
}

build() {
    if [ ! -f "$BUILD/build.ninja" ]; then
        meson setup "$BUILD" --buildtype=debugoptimized
    fi
    ninja -C "$BUILD"
}

check_format() {
    local files
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        mapfile -t files < <(git ls-files '*.c' '*.h')
    else
        mapfile -t files < <(find app chart core platform ui tests -name '*.[ch]')
    fi
    log "checking the format of ${#files[@]} files against .clang-format"
    clang-format --dry-run --Werror "${files[@]}"
}

# A closing line that any CI reads: "N passed, N failed, N skipped".
# Counts the native, the ASan + UBSan (with its check of the sanitizers'
# reports), the fuzzing and the Windows (Wine) test runs together. Above
# it, each failed test by build and name with the end of its output, so a
# CI that keeps only the tail of the log still says what failed and why.
summarize() {
    python3 - "$BUILD/meson-logs/testlog.json" "$ASAN_BUILD/meson-logs/testlog.json" \
        "$ASAN_BUILD/meson-logs/sanitizer-reports.json" "$FUZZ_BUILD/meson-logs/testlog.json" \
        "$WIN_BUILD/meson-logs/testlog.json" "$WIN_GUI_BUILD/meson-logs/testlog.json" <<'PY'
import json, os, sys
counts = {"passed": 0, "failed": 0, "skipped": 0}
failures = []
for path in sys.argv[1:]:
    build = os.path.basename(os.path.dirname(os.path.dirname(path)))
    if not os.path.exists(path):
        counts["failed"] += 1  # a suite that never ran is a failure, not a pass
        failures.append((build, os.path.basename(path) + " (never written)", ""))
        continue
    for line in open(path, encoding="utf-8"):
        t = json.loads(line)
        r = t["result"]
        key = "passed" if r == "OK" else "skipped" if r == "SKIP" else "failed"
        counts[key] += 1
        if key == "failed":
            out = (t.get("stdout") or "") + (t.get("stderr") or "")
            failures.append((build, f"{t.get('name', '?')} ({r})", out))
for build, name, out in failures:
    print(f"FAILED in {build}: {name}")
    for tail in out.strip().splitlines()[-12:]:
        print(f"    {tail[:200]}")
print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
PY
}

# The locale tests need one locale whose decimal point is a comma; build it
# into the build dir rather than touching the system's locales.
make_test_locale() {
    local dir="$PWD/$BUILD/locale"
    if [ ! -d "$dir/de_DE.UTF-8" ]; then
        mkdir -p "$dir"
        localedef -i de_DE -f UTF-8 "$dir/de_DE.UTF-8" 2>/dev/null ||
            log "could not build the de_DE.UTF-8 test locale; locale tests will skip"
    fi
    export LOCPATH="$dir"
}

# The same build and tests with AddressSanitizer (leaks included) and
# UndefinedBehaviorSanitizer, clang-built: every sanitizer report goes to a
# file (tests/sanitizers/env.sh), then check-reports.py fails the run on any
# error or leak of ours and prints them. The tests that start drivemark-cli
# or drivemark get the sanitized ones (the same build dir). Three times the
# usual time limits: ASan runs the suite about 1.6x slower, the window 3x.
sanitized_tests() {
    local reports="$ASAN_BUILD/sanitizer-reports"
    if [ ! -f "$ASAN_BUILD/build.ninja" ]; then
        CC=clang meson setup "$ASAN_BUILD" --buildtype=debugoptimized \
            -Db_sanitize=address,undefined -Db_lundef=false \
            -Dc_args=-fno-sanitize-recover=undefined || return 1
    fi
    ninja -C "$ASAN_BUILD" || return 1
    rm -rf "$reports"
    local rc=0
    (
        # shellcheck source=tests/sanitizers/env.sh
        source tests/sanitizers/env.sh "$reports"
        meson test -C "$ASAN_BUILD" --no-rebuild --print-errorlogs --num-processes 2 \
            --timeout-multiplier 3
    ) || rc=$?
    python3 tests/sanitizers/check-reports.py "$reports" \
        "$ASAN_BUILD/meson-logs/sanitizer-reports.json" || rc=$?
    return "$rc"
}

# The libFuzzer targets (tests/fuzz): the CSV reader, the command-line
# parser and the trace parser, FUZZ_SECONDS each, side by side. Only they and the libraries they
# link are built in FUZZ_BUILD. A crash fails the run; the input that caused
# it stays in $FUZZ_BUILD/tests/fuzz/*-out/crashes and its path is printed.
fuzz_tests() {
    if [ ! -f "$FUZZ_BUILD/build.ninja" ]; then
        CC=clang meson setup "$FUZZ_BUILD" --buildtype=debugoptimized -Dfuzzing=true \
            -Db_sanitize=address,undefined -Db_lundef=false \
            -Dc_args=-fno-sanitize-recover=undefined || return 1
    fi
    meson configure "$FUZZ_BUILD" -Dfuzz_seconds="$FUZZ_SECONDS" || return 1
    ninja -C "$FUZZ_BUILD" tests/fuzz/fuzz-csv tests/fuzz/fuzz-cli tests/fuzz/fuzz-trace || return 1
    meson test -C "$FUZZ_BUILD" --no-rebuild --print-errorlogs --num-processes 2 --suite fuzz
}

run_tests() {
    check_format
    make_test_locale
    local rc=0
    rm -f "$BUILD/meson-logs/testlog.json" "$WIN_BUILD/meson-logs/testlog.json" \
        "$WIN_GUI_BUILD/meson-logs/testlog.json" \
        "$ASAN_BUILD/meson-logs/testlog.json" "$ASAN_BUILD/meson-logs/sanitizer-reports.json" \
        "$FUZZ_BUILD/meson-logs/testlog.json"
    meson test -C "$BUILD" --print-errorlogs --num-processes 2 || rc=$?
    log "the ASan + UBSan build ($ASAN_BUILD) and its tests"
    sanitized_tests || rc=$?
    log "fuzzing the CSV reader and the command line ($FUZZ_BUILD, ${FUZZ_SECONDS} s each)"
    fuzz_tests || rc=$?
    log "the Windows build (mingw-w64) and its tests under Wine"
    # shellcheck source=platform/windows/run-wine-tests.sh
    source platform/windows/run-wine-tests.sh
    windows_tests . "$WIN_BUILD" --num-processes 2 || rc=$?
    log "the window for Windows: the GTK stack (cached), $WIN_GUI_BUILD and its tests under Wine"
    windows_gui_tests . "$WIN_GUI_BUILD" --num-processes 2 || rc=$?
    summarize
    return "$rc"
}

case "${1:-}" in
run)
    install_deps
    build
    shift
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        # The uninstalled window's settings schema, compiled in the build
        # dir (the program carries no build path of its own).
        GSETTINGS_SCHEMA_DIR="$PWD/$BUILD/resources" \
            exec "$BUILD/app/drivemark" --target "${DMK_TARGET:-$PWD}" "$@"
    fi
    log "no display: running drivemark-cli instead of the window"
    exec "$BUILD/app/drivemark-cli" run --target "${DMK_TARGET:-.}" "$@"
    ;;
test)
    install_deps
    build
    run_tests
    ;;
zip)
    install_deps
    # shellcheck source=platform/windows/run-wine-tests.sh
    source platform/windows/run-wine-tests.sh
    windows_gui_build . "$WIN_GUI_BUILD"
    platform/windows/make-zip.sh "$WIN_GUI_BUILD" "$DMK_WIN_STACK" dist
    ;;
*)
    echo "usage: $0 run [drivemark-cli run options] | test | zip" >&2
    exit 2
    ;;
esac
