/* SPDX-License-Identifier: GPL-3.0-or-later */
/* drivemark-cli's grammar in three files: the option table and its
 * handlers (dmk-cli-options.c), the help text printed from it
 * (dmk-cli-usage.c), and the command line's parser with the checks that
 * build a run's spec (dmk-cli.c). What they share but nothing outside
 * app/'s CLI may call is named _dmk_cli_*, as the window names its
 * private functions _dmk_window_*; the public dmk_cli_* functions are
 * dmk-cli.h's. */
#ifndef DMK_CLI_PRIVATE_H
#define DMK_CLI_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "dmk-cli.h"

typedef int (*DmkOptFn)(DmkCliArgs *a, const char *value, DmkError *err);
/* The words a value may be, up to max into words; how many there are. */
typedef size_t (*DmkChoicesFn)(const char **words, size_t max);

typedef struct {
    const char *name;  /* "--size" */
    const char *value; /* "SIZE", or NULL for a flag */
    unsigned commands; /* DmkCommand bits where it is accepted, 0 = everywhere */
    DmkOptFn fn;
    const char *help;
    const DmkLabParam *lab; /* a lab test's setting (fn NULL): parsed by opt_lab */
    int req;                /* > 0: the run request's option req - 1 (opt_request) */
    char short_name;        /* 'q' for -q, or 0 */
    DmkChoicesFn choices;   /* the value's words (the parser's own list), or NULL */
} DmkOption;

/* A command word: run, sweep, show, chart, help, version (the lab tests
 * are dmk-lab.h's table's, each DMK_CMD_LAB). */
typedef struct {
    const char *name;
    DmkCommand cmd;
    bool built;          /* false: this build lacks it (no libcsv, no Cairo) */
    const char *usage;   /* what follows the name in the synopsis */
    const char *summary; /* "run benchmarks ...": --help's and the man page's; NULL: none */
} DmkCliCommand;

const DmkCliCommand *_dmk_cli_commands(size_t *n);

/* The table's rows, grouped by the commands that take them (the help
 * prints a heading wherever that changes): *n of them. */
const DmkOption *_dmk_cli_options(size_t *n);
/* The lab tests' own settings (dmk-lab.h's table) as rows of the lab
 * commands: *n of them. */
const DmkOption *_dmk_cli_lab_rows(size_t *n);
/* The row named name[0..len) ("--size"), or NULL. */
const DmkOption *_dmk_cli_find_option(const char *name, size_t len);
/* The row whose short name is c ('q'), or NULL. */
const DmkOption *_dmk_cli_find_short(char c);
/* The words o's value may be (the request's table's, or the row's own);
 * 0 when any value goes (a path, a number). */
size_t _dmk_cli_option_choices(const DmkOption *o, const char **words, size_t max);
/* Whether o is an option of command cmd (lab: the lab test, for
 * DMK_CMD_LAB: its own settings only). */
bool _dmk_cli_option_applies(const DmkOption *o, DmkCommand cmd, DmkLabKind lab);
/* o's help line (the table's, or written from the backend registry). */
const char *_dmk_cli_option_help(const DmkOption *o, char *buf, size_t len);
/* --help's text of a help built from other tables (--qd's, --kind's),
 * translated, into buf; NULL for another option. */
const char *_dmk_cli_built_help(const DmkOption *o, char *buf, size_t len);
/* "run and sweep" for a DmkCommand mask, "every command" for 0: the
 * headings of --help's and the man page's option groups. */
const char *_dmk_cli_heading(unsigned commands, char *buf, size_t len);
/* The words after sweep: qd, bs. */
size_t _dmk_cli_sweep_kinds(const char **words, size_t max);

/* Option o with its value (NULL for a flag), into a. */
int _dmk_cli_option_apply(DmkCliArgs *a, const DmkOption *o, const char *value, DmkError *err);

#endif
