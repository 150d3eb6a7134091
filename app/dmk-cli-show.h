/* `drivemark-cli show` and `chart`'s shared part: saved results (CSV),
 * loaded whole with the core's reader. Built only where libcsv is. */
#ifndef DMK_CLI_SHOW_H
#define DMK_CLI_SHOW_H

#include <stdio.h>

#include "dmk-cli.h"
#include "dmk-result.h"

/* Loads a->files into out[0..n_files); on a bad file prints the reader's
 * message, frees what was loaded and returns it. */
int dmk_cli_load_all(const DmkCliArgs *a, DmkRunResult **out);
void dmk_cli_free_all(DmkRunResult **r, size_t n);

/* Prints the files: one as CrystalDiskMark's table (unless --metric asks
 * for one number), several side by side with the difference in % to the
 * first. Returns the exit status. */
int dmk_cli_show(const DmkCliArgs *a, FILE *f);

#endif
