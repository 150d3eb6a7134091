#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The verdict on an ASan + UBSan test run: reads every report the
sanitizers wrote (tests/sanitizers/env.sh sends them to files, one per
process), prints those that fail the run and says how many.

usage: check-reports.py REPORT_DIR RESULT_JSON

An ASan or UBSan error fails the run (the process also aborted, so its test
failed too). A leak fails it unless it is one of the library leaks below:
LSan has already dropped those that tests/sanitizers/lsan.supp names; the
rules here are for the few whose allocation stack has no frame with a
function name to suppress by (system libraries carry no symbols for their
internal functions), matched on the whole stack's shape instead. Leaks do
not change a program's exit status (exitcode=0 in env.sh), so a leak in a
child process that its test never checks is still seen here.

RESULT_JSON gets one line in meson's testlog.json format, so that
setup.sh's summary counts this check like a test."""

import collections
import json
import os
import re
import sys

GLIB = r"(?:libglib-2\.0|libgobject-2\.0|libgio-2\.0)\.so\.0"

# (name, why it is not our leak, regex over the stack's signature: the
# frames below the allocator as "function@module", joined by " < ", "?" for
# a function without a name, "ours" for our source files).
LIBRARY_LEAKS = [
    ("GIO worker thread",
     "made on a thread of GIO's pool (GTask's threads: GTK's file chooser enumerates "
     "folders there and drops GFileInfos it loaded when it closes mid-load, "
     "as a ten-line GTK program with a GtkFileChooserNative shows too); no code "
     "of ours runs on those threads, ours start in our own functions",
     re.compile(rf"^(?:\S+@{GLIB} < )*\?@libgio-2\.0\.so\.0 < (?:\S+@{GLIB} < )*"
                r"start_thread@libc(?: < clone3?@libc)?$")),
    ("GTK's list in a GIO callback",
     "a GList that GTK's own code (an unnamed function of libgtk) builds in a "
     "GIO completion callback run by the main loop, with no code of ours on "
     "the stack; seen only with the file chooser open, and in the same "
     "ten-line GTK program",
     re.compile(r"^g_malloc@libglib-2\.0\.so\.0 < g_slice_alloc@libglib-2\.0\.so\.0 < "
                r"g_list_prepend@libglib-2\.0\.so\.0 < \?@libgtk-4\.so\.1 < "
                r"\?@libgio-2\.0\.so\.0 < \?@libgio-2\.0\.so\.0 < "
                r"g_main_context_dispatch@libglib-2\.0\.so\.0 < ")),
]

ALLOCATORS = re.compile(
    r"^(?:__interceptor_|___interceptor_)?(?:malloc|calloc|realloc|reallocarray|free|"
    r"strdup|strndup|__strdup|posix_memalign|memalign|aligned_alloc|valloc|pvalloc|"
    r"operator new.*|operator delete.*)$")
FRAME = re.compile(r"^\s+#(\d+) 0x[0-9a-f]+(?: in (.+?))?\s+(?:\(([^)+]+)\+0x[0-9a-f]+\)|(\S+))")
OURS = re.compile(r"(?:^|/)(?:\.\./)?(?:app|core|ui|platform|tests)/[^ ]+\.[ch](?::\d+)*$")


def frame_of(line, root):
    m = FRAME.match(line)
    if not m:
        return None
    func = m.group(2) or "?"
    module, source = m.group(3), m.group(4)
    if module:
        where = os.path.basename(module)
    elif source and (OURS.search(source) or source.startswith(root)):
        where = "ours"
    elif source and re.match(r"^(?:\.\./)?(?:nptl|sysdeps|csu|libio|stdlib|string|misc)/", source):
        where = "libc"
    else:
        where = "src"
    return func, where


def signature(block, root):
    frames = [f for f in (frame_of(line, root) for line in block.splitlines()[1:]) if f]
    while frames and ALLOCATORS.match(frames[0][0]):
        frames.pop(0)
    return " < ".join(f"{func}@{where}" for func, where in frames)


def split_report(text):
    """(errors, leak blocks): error reports other than leaks, and each
    'Direct/Indirect leak of ...' block with its stack."""
    errors, leaks = [], []
    for part in re.split(r"\n(?==+\n|==[^=\n]+==\d+==ERROR|\S+:\d+:\d+: runtime error)", text):
        if "ERROR: LeakSanitizer" in part:
            for block in re.split(r"\n\s*\n", part):
                if re.match(r"\s*(?:Direct|Indirect) leak of", block):
                    leaks.append(block.strip("\n"))
        elif re.search(r"ERROR: \w+Sanitizer|runtime error:|Sanitizer CHECK failed", part):
            errors.append(part.strip("\n"))
    return errors, leaks


def normalise(block):
    return re.sub(r"0x[0-9a-f]+|\(BuildId: [0-9a-f]+\)", "", block)


def main():
    report_dir, result_json = sys.argv[1], sys.argv[2]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    files = sorted(os.listdir(report_dir)) if os.path.isdir(report_dir) else []
    failing_errors = []                       # (file, report)
    failing_leaks = collections.OrderedDict()  # normalised block -> (block, [files])
    accepted = collections.Counter()
    for name in files:
        path = os.path.join(report_dir, name)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        errors, leaks = split_report(text)
        if not errors and not leaks and text.strip():
            errors = [text.strip()]  # a report of a kind this script does not know
        failing_errors += [(path, e) for e in errors]
        for block in leaks:
            sig = signature(block, root)
            rule = next((r for r in LIBRARY_LEAKS if r[2].search(sig)), None)
            if rule:
                accepted[rule[0]] += 1
                continue
            key = normalise(block)
            paths = failing_leaks.setdefault(key, (block, []))[1]
            if path not in paths:
                paths.append(path)

    for path, report in failing_errors:
        print(f"==> sanitizer error in {path}:")
        print(report)
    for block, paths in failing_leaks.values():
        more = f" (and {len(paths) - 1} more programs)" if len(paths) > 1 else ""
        print(f"==> leak in {paths[0]}{more}:")
        print(block)
    for name, n in accepted.items():
        print(f"==> not counted: {n} library leak(s) of the kind '{name}' "
              f"(tests/sanitizers/check-reports.py says why)")

    ok = not failing_errors and not failing_leaks
    print(f"==> sanitizer reports: {len(files)} file(s) in {report_dir}; "
          f"{len(failing_errors)} error(s), {len(failing_leaks)} distinct leak(s) of ours"
          + ("" if ok else " - FAILED"))
    with open(result_json, "w", encoding="utf-8") as f:
        json.dump({"name": "sanitizer reports (ASan, UBSan, LSan)",
                   "result": "OK" if ok else "FAIL"}, f)
        f.write("\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
