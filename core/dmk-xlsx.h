/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The spreadsheet export (docs/results.md, "Spreadsheets: .xlsx"): the
 * CSV's cells (dmk_csv_each_row) as an Office Open XML workbook, written
 * with libxlsxwriter, so that a double-click opens it right in any
 * locale: numbers stored as numbers, not as text a spreadsheet parses
 * by its locale's decimal point. A sheet with the run's context, then a
 * sheet per kind of row (tests, passes, samples, findings), each with a
 * heading per column that names its unit. Built only where libxlsxwriter
 * is (DMK_HAVE_XLSX); without it --xlsx and the window's .xlsx say so. */
#ifndef DMK_XLSX_H
#define DMK_XLSX_H

#include <stdio.h>

#include "dmk-result.h"

/* Writes r as a workbook to f (a dmk-outfile.h file, like the CSV and
 * JSON writers: it replaces the old file only when complete). The
 * workbook is built in a temporary file of the system's temporary
 * directory, as libxlsxwriter writes only to a file it names, then copied
 * into f and removed. */
int dmk_xlsx_write(FILE *f, const DmkRunResult *r, const char *path, DmkError *err);

#endif
