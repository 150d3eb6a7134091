#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# drivemark-cli.exe under Wine (cross builds on Linux only): a short demo
# run completes with numbers and leaves no file behind, and so does a run
# killed mid-way, with SIGKILL to its process or with `wineserver -k`:
# the test file is opened with FILE_FLAG_DELETE_ON_CLOSE, and wineserver
# closes a dead process's handles. (Killing wineserver itself with SIGKILL
# does leave the file: nothing is left to close it. Windows has no such
# case; its kernel closes the handles.)
#
#   test-cli-kill.sh PATH/TO/drivemark-cli.exe     (TAP on stdout)
set -u
cli=$1
wine=${MESON_EXE_WRAPPER:-wine}
target=${DMK_TEST_TMPDIR:-.}/cli-kill-$$
mkdir -p "$target"
n=0
failed=0

check() { # check STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
}

entries() { find "$target" -mindepth 1 | wc -l; }

# Waits (up to 30 s) for the test file to appear, then a little longer.
wait_for_file() {
    for _ in $(seq 300); do
        if compgen -G "$target/.drivemark-*" >/dev/null; then
            sleep "$1"
            return 0
        fi
        sleep 0.1
    done
    return 1
}

# Waits (up to 30 s) until the target is empty: Wine removes a
# delete-on-close file when the killed process's handles are closed,
# which a busy machine may take a while to get to. Wait for that state
# rather than a fixed second.
wait_gone() {
    for _ in $(seq 300); do
        [ "$(entries)" -eq 0 ] && return 0
        sleep 0.1
    done
    return 1
}

# Starts a long run in the background; its PID is the Windows process's
# (the wine launcher execs into it).
start_long_run() {
    "$wine" "$cli" run --target "$target" --profile demo --size 64MiB --passes 1 \
        --measure 10 --json - >/dev/null 2>&1 &
    pid=$!
}

# 1: the documented command completes with sane numbers.
out=$("$wine" "$cli" run --target "$target" --profile demo --size 64MiB --passes 1 --measure 1 \
    --json - 2>/dev/null)
rc=$?
check "$rc" "demo run exits 0"
python3 - "$out" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
assert r["complete"] and r["backend"] == "iocp", r
assert r["os"].startswith("Windows"), r["os"]
for t in r["results"]:
    assert t["mb_s"] > 0 and t["iops"] > 0 and t["ios"] > 0, t
    assert 0 < t["lat_min_us"] <= t["lat_p50_us"] <= t["lat_max_us"], t
    print(f'# {t["test"]} {t["mode"]}: {t["mb_s"]:.1f} MB/s, {t["iops"]:.0f} IOPS, '
          f'mean {t["lat_mean_us"]:.0f} us')
PY
check $? "the JSON result is complete, with sane numbers"
check "$(entries)" "no file left after the run"

# 2: SIGKILL to the process mid-run.
start_long_run
wait_for_file 2
check $? "the test file exists during the run"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
wait_gone
check "$(entries)" "no file left after SIGKILL mid-run"

# 3: wineserver -k mid-run (kills every process of the prefix).
start_long_run
wait_for_file 2
check $? "the test file exists during the run"
wineserver -k
wait "$pid" 2>/dev/null
wait_gone
check "$(entries)" "no file left after wineserver -k mid-run"

find "$target" -mindepth 1 | sed "s/^/# left: /"
rm -rf "$target"
echo "1..$n"
exit "$failed"
