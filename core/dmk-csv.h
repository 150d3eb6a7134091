/* The result file format (docs/results.md): RFC 4180 CSV with CRLF, one
 * header row, the run's context on every row, and three kinds of record
 * (a test's summary, each pass, each timeline sample). Written with
 * libcsv; built only where libcsv exists. */
#ifndef DMK_CSV_H
#define DMK_CSV_H

#include <stdio.h>

#include "dmk-result.h"

int dmk_csv_write(FILE *f, const DmkRunResult *r, const char *path, DmkError *err);

/* A text cell as written: cells starting with = + - @ tab or CR get a
 * leading apostrophe, so a spreadsheet never runs them as formulas. */
void dmk_csv_neutralise(const char *in, char *out, size_t len);

#endif
