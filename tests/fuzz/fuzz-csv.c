/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: the result-file reader (core/dmk-csv-read.h) on any
 * bytes. A file is taken whole or refused with a message; what it takes
 * must save (core/dmk-csv.h), load back, and save again to the same bytes
 * (docs/results.md: saving a loaded result writes what was read). Anything
 * else aborts, and so does any ASan or UBSan error on the way.
 *
 * Built only with -Dfuzzing=true (clang, tests/fuzz/meson.build); run by
 * ./setup.sh test through tests/fuzz/run-fuzzer.sh, or by hand:
 * build-fuzz/tests/fuzz/fuzz-csv -max_total_time=60 CORPUS tests/fuzz/corpus-csv */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-csv-read.h"
#include "dmk-csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz-csv: %s%s%s\n", what, detail[0] ? ": " : "", detail);
    abort();
}

/* The result as dmk_csv_write writes it, in memory. */
static char *save(const DmkRunResult *r, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        fail("open_memstream failed", "");
    DmkError err = {0};
    if (dmk_csv_write(f, r, "saved.csv", &err) != DMK_OK)
        fail("saving a loaded result failed", err.msg);
    if (fclose(f) != 0)
        fail("closing the memory stream failed", "");
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    DmkRunResult *r = NULL;
    DmkError err = {0};
    if (dmk_csv_load_mem("fuzz.csv", data, size, &r, &err) != DMK_OK) {
        if (r)
            fail("a refused file left a result", err.msg);
        if (!err.msg[0])
            fail("a refused file has no message", "");
        return 0;
    }
    if (!r)
        fail("an accepted file gave no result", "");

    size_t n1 = 0, n2 = 0;
    char *first = save(r, &n1);
    DmkRunResult *again = NULL;
    if (dmk_csv_load_mem("saved.csv", first, n1, &again, &err) != DMK_OK)
        fail("a saved result does not load back", err.msg);
    char *second = save(again, &n2);
    if (n1 != n2 || memcmp(first, second, n1) != 0)
        fail("saving a loaded result and loading it back changed it", "");

    free(first);
    free(second);
    dmk_run_result_free(again);
    dmk_run_result_free(r);
    return 0;
}
