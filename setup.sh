#!/usr/bin/env bash
# Drivemark's one set-up script for Debian 12 (bookworm).
#
#   ./setup.sh run    install what is missing, build, open the window
#                     (no display: drivemark-cli run on .)
#   ./setup.sh test   install what is missing, build, run every test
#
# Installing needs root (apt-get); as another user the script uses sudo.
set -euo pipefail
cd "$(dirname "$0")"

BUILD=${DMK_BUILD_DIR:-build}
WIN_BUILD=${DMK_WIN_BUILD_DIR:-build-win}
PACKAGES=(
    build-essential meson ninja-build pkg-config python3   # toolchain
    libaio-dev libcsv-dev libcairo2-dev                     # engine, CSV, charts
    clang-format                                            # style check
    locales                                                 # a decimal-comma locale for tests
    e2fsprogs mount util-linux                              # loop-device tests
    dmsetup                                                 # a device-mapper holder (raw device guard test)
    libgtk-4-dev libgtk-4-bin fonts-dejavu-core adwaita-icon-theme  # the desktop app
    xvfb dbus-daemon desktop-file-utils appstream           # its tests in a real window
    gcc-mingw-w64-x86-64 wine wine64                        # Windows cross build, tests under Wine
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
        mapfile -t files < <(find app core platform ui tests -name '*.[ch]')
    fi
    log "checking the format of ${#files[@]} files against .clang-format"
    clang-format --dry-run --Werror "${files[@]}"
}

# A closing line that any CI reads: "N passed, N failed, N skipped".
# Counts the native and the Windows (Wine) test runs together.
summarize() {
    python3 - "$BUILD/meson-logs/testlog.json" "$WIN_BUILD/meson-logs/testlog.json" <<'PY'
import json, os, sys
counts = {"passed": 0, "failed": 0, "skipped": 0}
for path in sys.argv[1:]:
    if not os.path.exists(path):
        counts["failed"] += 1  # a suite that never ran is a failure, not a pass
        continue
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)["result"]
        key = "passed" if r == "OK" else "skipped" if r == "SKIP" else "failed"
        counts[key] += 1
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

run_tests() {
    check_format
    make_test_locale
    local rc=0
    rm -f "$BUILD/meson-logs/testlog.json" "$WIN_BUILD/meson-logs/testlog.json"
    meson test -C "$BUILD" --print-errorlogs --num-processes 2 || rc=$?
    log "the Windows build (mingw-w64) and its tests under Wine"
    # shellcheck source=platform/windows/run-wine-tests.sh
    source platform/windows/run-wine-tests.sh
    windows_tests . "$WIN_BUILD" --num-processes 2 || rc=$?
    summarize
    return "$rc"
}

case "${1:-}" in
run)
    install_deps
    build
    shift
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
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
*)
    echo "usage: $0 run [drivemark-cli run options] | test" >&2
    exit 2
    ;;
esac
