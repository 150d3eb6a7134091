/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writes the test fixtures' results (tests/dmk-test-result.h) as CSV and
 * .xlsx into the directory argv[1]: plain.* (a mixed test, its passes and
 * samples, texts pandas or a spreadsheet would misread) and lab.* (a
 * sustained lab result: a write test, temperatures, finding rows), for
 * test_xlsx.py to compare cell by cell. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-csv.h"
#include "dmk-test-result.h"
#include "dmk-xlsx.h"

typedef int (*Writer)(FILE *, const DmkRunResult *, const char *, DmkError *);

static int write_one(const char *dir, const char *name, Writer w, const DmkRunResult *r)
{
    char path[4096];
    DmkError err = {0};
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return 1;
    }
    int rc = w(f, r, path, &err);
    if (fclose(f) != 0 || rc != DMK_OK) {
        fprintf(stderr, "%s: %s\n", path, err.msg);
        return 1;
    }
    return 0;
}

static int write_both(const char *dir, const char *base, const DmkRunResult *r)
{
    char csv[256], xlsx[256];
    snprintf(csv, sizeof csv, "%s.csv", base);
    snprintf(xlsx, sizeof xlsx, "%s.xlsx", base);
    return write_one(dir, csv, dmk_csv_write, r) | write_one(dir, xlsx, dmk_xlsx_write, r);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: xlsx-sample DIR\n");
        return 2;
    }
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[DMK_TEST_LAB_SAMPLES];
    dmk_test_build_result(&r, &t, passes, samples, "null");
    /* text a spreadsheet or pandas would misread, kept as text */
    snprintf(r.target.model, sizeof r.target.model, "=SUM(A1:A9)");
    snprintf(r.target.iface, sizeof r.target.iface, "NA");
    int rc = write_both(argv[1], "plain", &r);
    dmk_test_build_lab_result(&r, &t, passes, samples);
    rc |= write_both(argv[1], "lab", &r);
    return rc;
}
