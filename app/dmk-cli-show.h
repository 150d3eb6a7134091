/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `drivemark-cli show` and `chart`'s shared part: saved results (CSV),
 * loaded whole with the core's reader. Built only where libcsv is. */
#ifndef DMK_CLI_SHOW_H
#define DMK_CLI_SHOW_H

#include <stdio.h>

#include "dmk-cli.h"
#include "dmk-result.h"

/* Loads a->files into out[0..n_files); on a bad file prints the reader's
 * message, frees what was loaded and returns it. A file of several runs
 * (result files joined with cat) gives a result each: a->files and
 * a->n_files then list the results, a->file_run numbers them. */
int dmk_cli_load_all(DmkCliArgs *a, DmkRunResult **out);
/* The i-th result's name for the user: its file, escaped, and "(run 2)"
 * for one of several runs in a file. */
const char *dmk_cli_input_name(const DmkCliArgs *a, size_t i, char *buf, size_t len);
void dmk_cli_free_all(DmkRunResult **r, size_t n);

/* Prints the files: one as CrystalDiskMark's table (unless --metric asks
 * for one number), several side by side with the difference in % to the
 * first. Returns the exit status. */
int dmk_cli_show(const DmkCliArgs *a, FILE *f);

#endif
