#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs one libFuzzer target for a bounded time (tests/fuzz/meson.build):
#   run-fuzzer.sh FUZZER NAME SECONDS DICT SEED_DIR...
# New inputs go to a corpus beside the fuzzer in the build dir (kept between
# runs; the seed dirs are only read). A crash, leak, timeout or out-of-memory
# exits non-zero; the input that caused it stays in NAME-out/crashes and its
# path is printed with the command that replays it.
set -u
fuzzer=$1 name=$2 seconds=$3 dict=$4
shift 4

out=$(dirname "$fuzzer")/$name-out
mkdir -p "$out/corpus" "$out/crashes"
stamp=$out/.started
: >"$stamp"

# libFuzzer's own reports; the same sanitizer settings as the ASan run, but
# libFuzzer catches the error itself to save the input, so no abort here.
export ASAN_OPTIONS=${DMK_FUZZ_ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && [ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]; then
    export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
fi

echo "# $name: $fuzzer for ${seconds} s, seeds: $*"
rc=0
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -dict="$dict" -artifact_prefix="$out/crashes/" "$out/corpus" "$@" 2>&1 || rc=$?

if [ "$rc" -ne 0 ]; then
    found=0
    while IFS= read -r -d '' f; do
        found=1
        echo "# $name: the input that failed: $f"
        echo "# replay it: $fuzzer $f"
    done < <(find "$out/crashes" -type f -newer "$stamp" -print0)
    [ "$found" -eq 1 ] || echo "# $name: the fuzzer failed (exit $rc) without saving an input"
fi
exit "$rc"
