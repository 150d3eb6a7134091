/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer target: drivemark-cli's grammar (app/dmk-cli.h) and the
 * parsers under it (platform/dmk-size.h, core/dmk-spec.h). The input is split
 * at newlines into argv words (argv[0] is the program), so a seed is one
 * word a line: tests/fuzz/corpus-cli. dmk_cli_parse must accept or refuse
 * with a message; each word is also parsed alone as a size and as a test
 * name ("RND4K Q32T1"), and what parses must survive a round trip through
 * its canonical form. Anything else aborts, as does any ASan or UBSan error.
 *
 * Built only with -Dfuzzing=true (clang, tests/fuzz/meson.build); run by
 * ./setup.sh test through tests/fuzz/run-fuzzer.sh. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-cli.h"
#include "dmk-size.h"
#include "dmk-spec.h"

#define MAX_WORDS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *word)
{
    fprintf(stderr, "fuzz-cli: %s: '%s'\n", what, word);
    abort();
}

/* A size that parses prints as a plain byte count that parses to itself. */
static void check_size(const char *word)
{
    uint64_t v = 0, again = 0;
    DmkError err = {0};
    if (dmk_parse_size(word, &v, &err) != DMK_OK) {
        if (!err.msg[0])
            fail("a refused size has no message", word);
        return;
    }
    char bytes[32];
    snprintf(bytes, sizeof bytes, "%" PRIu64, v);
    if (dmk_parse_size(bytes, &again, &err) != DMK_OK || again != v)
        fail("a size does not survive its byte count", word);
}

/* A test name that parses has a canonical name that parses to the same job. */
static void check_job_name(const char *word)
{
    DmkJob job, again;
    DmkError err = {0};
    if (dmk_job_parse_name(word, &job, &err) != DMK_OK) {
        if (!err.msg[0])
            fail("a refused test name has no message", word);
        return;
    }
    char name[64];
    dmk_job_format_name(&job, name, sizeof name);
    if (dmk_job_parse_name(name, &again, &err) != DMK_OK || again.pattern != job.pattern ||
        again.block_size != job.block_size || again.queue_depth != job.queue_depth ||
        again.threads != job.threads || again.read_share != job.read_share)
        fail("a test name does not survive its canonical form", word);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    char *argv[MAX_WORDS + 2];
    int argc = 0;
    argv[argc++] = "drivemark-cli";
    for (char *p = text; argc <= MAX_WORDS;) {
        argv[argc++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    argv[argc] = NULL;

    DmkCliArgs args;
    DmkError err = {0};
    if (dmk_cli_parse(argc, argv, &args, &err) != DMK_OK && !err.msg[0])
        fail("a refused command line has no message", argv[1]);
    dmk_cli_args_free(&args);

    for (int i = 1; i < argc; i++) {
        check_size(argv[i]);
        check_job_name(argv[i]);
    }
    free(text);
    return 0;
}
