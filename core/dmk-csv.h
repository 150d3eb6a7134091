/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The result file format (docs/results.md): RFC 4180 CSV with CRLF, one
 * header row, the run's context on every row, and three kinds of record
 * (a test's summary, each pass, each timeline sample). Written with
 * libcsv; built only where libcsv exists. */
#ifndef DMK_CSV_H
#define DMK_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "dmk-result.h"

int dmk_csv_write(FILE *f, const DmkRunResult *r, const char *path, DmkError *err);

/* A text cell as written: cells starting with = + - @ tab or CR get a
 * leading apostrophe, so a spreadsheet never runs them as formulas; so
 * do (schema 7) cells starting with an apostrophe, which the reader would
 * otherwise take off, and the whole words pandas reads as a missing
 * value (dmk_csv_na_word: "null", the null backend's name, "NA", ...). */
void dmk_csv_neutralise(const char *in, char *out, size_t len);
/* Whether the text s of len bytes gets the apostrophe. */
bool dmk_csv_risky_text(const char *s, size_t len);
/* Whether s (len bytes) is one of pandas' default missing-value words. */
bool dmk_csv_na_word(const char *s, size_t len);

#endif
