/* drivemark-cli's grammar: one table of options for every subcommand, one
 * parser, and the help text generated from the table. Plain C, no GLib,
 * so it cross-builds for Windows. */
#ifndef DMK_CLI_H
#define DMK_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "dmk-spec.h"

typedef enum {
    DMK_CMD_NONE = 0,
    DMK_CMD_RUN = 1 << 0,
    DMK_CMD_HELP = 1 << 1,
    DMK_CMD_VERSION = 1 << 2,
} DmkCommand;

typedef struct {
    DmkCommand cmd;
    DmkRunSpec *spec; /* built for `run`; owned, freed by dmk_cli_args_free */
    const char *json_path;
    const char *csv_path;
    const char *backend;
    bool quiet;
    /* collected while parsing, turned into spec at the end */
    const char *profile;
    const char *tests[DMK_MAX_TESTS];
    size_t n_tests;
    DmkRunMode run_mode;
    uint32_t read_share;
    bool read_share_set, warmup_set;
} DmkCliArgs;

/* Parses argv (argv[0] is the program). DMK_OK, or DMK_E_INVAL with a
 * message naming the bad argument and what it accepts. */
int dmk_cli_parse(int argc, char **argv, DmkCliArgs *a, DmkError *err);
void dmk_cli_args_free(DmkCliArgs *a);

void dmk_cli_usage(FILE *f);

#endif
