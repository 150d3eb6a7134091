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

/* "Samsung SSD 970 EVO Plus 1TB, 2026-11-30 06:45": the drive's model (or
 * the target when the model is unknown) and when the run started. */
void dmk_cli_result_label(const DmkRunResult *r, char *buf, size_t len);

/* Prints the files: one as CrystalDiskMark's table (unless --metric asks
 * for one number), several side by side with the difference in % to the
 * first. Returns the exit status. */
int dmk_cli_show(const DmkCliArgs *a, FILE *f);

#endif
