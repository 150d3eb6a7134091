# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by setup.sh (and by hand) before running the ASan + UBSan build's
# tests, then check the reports:
#   source tests/sanitizers/env.sh REPORT_DIR
#   meson test -C build-asan
#   tests/sanitizers/check-reports.py REPORT_DIR RESULT.json
#
# Every sanitizer report goes to a file under REPORT_DIR (log_path, one file
# per process, named after the program), so one made by a child process
# that a test does not check (drivemark-cli started by a Python test, the
# window under Xvfb) is still seen. ASan and UBSan errors are fatal: the
# process aborts (the build has -fno-sanitize-recover=undefined), so its
# test fails as well. Leaks are checked at every exit but leave the exit
# status alone (exitcode=0): check-reports.py fails the run on each leak
# that is ours, and can tell a library's leak by the shape of its whole
# stack where LSan's suppressions (lsan.supp) cannot name a frame.
# shellcheck shell=bash

_dmk_san_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
_dmk_san_reports=${1:?usage: source tests/sanitizers/env.sh REPORT_DIR}
mkdir -p "$_dmk_san_reports"
_dmk_san_reports=$(cd "$_dmk_san_reports" && pwd)

# fast_unwind_on_malloc=0: full allocation stacks through the system
# libraries (built without frame pointers), which the LSan suppressions
# need to tell a GTK or fontconfig leak from one of ours.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:exitcode=0:strict_string_checks=1:detect_stack_use_after_return=1:fast_unwind_on_malloc=0:log_path=$_dmk_san_reports/san:log_exe_name=1"
export LSAN_OPTIONS="suppressions=$_dmk_san_dir/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$_dmk_san_reports/san:log_exe_name=1"
# Function names in the reports (and in the suppressions' matching) need
# llvm-symbolizer (package llvm-14).
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && [ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]; then
    export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
fi
# GLib's slice allocator hides blocks from LSan; plain malloc does not.
export G_SLICE=always-malloc
# GTK draws with Cairo, not GL: Mesa's llvmpipe registers its JIT code's
# unwind tables with libgcc while holding libgcc's lock and then allocates,
# and ASan's full-stack unwinding of that allocation needs the same lock:
# the window deadlocks at its first frame. The non-ASan run keeps GTK's
# default (GL) renderer.
export GSK_RENDERER=cairo
export GDK_DEBUG=gl-disable
# The tests that script a moment ("stop 0.8 s in") scale it by this
# (tests/dmktest.py): the window starts and draws ~3x slower under ASan.
export DMK_TEST_TIME_SCALE=3
unset _dmk_san_dir _dmk_san_reports
