/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the fio iolog parser (core/dmk-trace.h) on any bytes.
 * A trace is taken whole or refused with a message that names the file;
 * what it takes must be consistent (counts and bytes add up, every
 * request within the limits, v3 times never going back), and must map
 * into a small region inside it. Anything else aborts, and so does any
 * ASan or UBSan error on the way.
 *
 * Built only with -Dfuzzing=true (clang, tests/fuzz/meson.build); by hand:
 * build-fuzz/tests/fuzz/fuzz-trace -max_total_time=60 CORPUS tests/fuzz/corpus-trace */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
    fprintf(stderr, "fuzz-trace: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    DmkTrace t;
    DmkError err = {0};
    int rc = dmk_trace_parse((const char *)data, size, "fuzz.iolog", &t, &err);
    if (rc != DMK_OK) {
        if (strncmp(err.msg, "fuzz.iolog", 10) != 0)
            fail("a refusal that does not name the file");
        if (t.ios || t.n)
            fail("a refused trace kept its requests");
        return 0;
    }
    if (t.version != 2 && t.version != 3)
        fail("a version other than 2 or 3");
    if (t.reads + t.writes + t.waits != t.n || t.reads + t.writes == 0)
        fail("the counts do not add up");
    uint64_t rb = 0, wb = 0, last = 0;
    for (size_t i = 0; i < t.n; i++) {
        const DmkTraceIo *io = &t.ios[i];
        if (io->op == DMK_TRACE_WAIT) {
            if (t.version != 2 || io->len)
                fail("a wait where none may be");
            continue;
        }
        if (!io->len || io->len > DMK_TRACE_LEN_MAX || io->len > t.max_len ||
            io->offset + io->len > DMK_TRACE_OFFSET_MAX)
            fail("a request outside the limits");
        if (t.version == 3 && io->t_us < last)
            fail("a v3 time went back");
        last = io->t_us;
        *(io->op == DMK_TRACE_WRITE ? &wb : &rb) += io->len;
        uint64_t region = 128ULL << 20;
        uint64_t off = dmk_trace_map(io->offset, io->len, region, 512);
        if (off % 512 || off + io->len > region)
            fail("a mapped request outside the region");
    }
    if (rb != t.read_bytes || wb != t.write_bytes)
        fail("the bytes do not add up");
    dmk_trace_free(&t);
    return 0;
}
