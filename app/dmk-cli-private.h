/* drivemark-cli's grammar in three files: the option table and its
 * handlers (dmk-cli-options.c), the help text printed from it
 * (dmk-cli-usage.c), and the command line's parser with the checks that
 * build a run's spec (dmk-cli.c). What they share but nothing outside
 * app/'s CLI may call is named _dmk_cli_*, as the window names its
 * private functions _dmk_window_*; the public dmk_cli_* functions are
 * dmk-cli.h's. */
#ifndef DMK_CLI_PRIVATE_H
#define DMK_CLI_PRIVATE_H

#include <stddef.h>

#include "dmk-cli.h"

typedef int (*DmkOptFn)(DmkCliArgs *a, const char *value, DmkError *err);

typedef struct {
    const char *name;  /* "--size" */
    const char *value; /* "SIZE", or NULL for a flag */
    unsigned commands; /* DmkCommand bits where it is accepted, 0 = everywhere */
    DmkOptFn fn;
    const char *help;
    const DmkLabParam *lab; /* a lab test's setting (fn NULL): parsed by opt_lab */
    int req;                /* > 0: the run request's option req - 1 (opt_request) */
} DmkOption;

/* The table's rows, grouped by the commands that take them (the help
 * prints a heading wherever that changes): *n of them. */
const DmkOption *_dmk_cli_options(size_t *n);
/* The lab tests' own settings (dmk-lab.h's table) as rows of the lab
 * commands: *n of them. */
const DmkOption *_dmk_cli_lab_rows(size_t *n);
/* The row named name[0..len) ("--size"), or NULL. */
const DmkOption *_dmk_cli_find_option(const char *name, size_t len);
/* Option o with its value (NULL for a flag), into a. */
int _dmk_cli_option_apply(DmkCliArgs *a, const DmkOption *o, const char *value, DmkError *err);

#endif
