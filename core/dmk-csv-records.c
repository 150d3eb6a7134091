/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CSV reader's record order: a test's row, then its passes, then its
 * timeline samples, then (a lab file) its findings, each row in its
 * place, building the result as the rows come (dmk-csv-test-row.c reads
 * what a test row holds, dmk-csv-finding-row.c a finding row). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-csv-read-private.h"

int dmk_csv_grow(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return DMK_OK;
    size_t n = *cap ? *cap * 2 : 8;
    while (n < need)
        n *= 2;
    void *p = realloc(*arr, n * size);
    if (!p)
        return DMK_E_NOMEM;
    *arr = p;
    *cap = n;
    return DMK_OK;
}

/* The test before the current row has all its passes (a finished test
 * has at least one) and its best pass is one of them. */
int dmk_csv_finish_test(DmkCsvReader *rd)
{
    if (rd->res->n_tests == 0)
        return DMK_OK;
    const DmkTestResult *t = &rd->res->tests[rd->res->n_tests - 1];
    if (t->best_pass >= t->n_passes)
        return dmk_csv_fail_at(rd, rd->test_line, rd->file_col[DMK_COL_PASS],
                               "the best pass is %u, but the test has %u pass rows",
                               t->best_pass + 1, t->n_passes);
    return DMK_OK;
}

static int read_test_row(DmkCsvReader *rd, const DmkCsvCells *c)
{
    DmkRunResult *r = rd->res;
    int rc = dmk_csv_finish_test(rd);
    if (rc != DMK_OK)
        return rc;
    if (r->n_tests >= DMK_MAX_TESTS)
        return dmk_csv_fail_at(rd, rd->line, -1, "more than %d tests", DMK_MAX_TESTS);
    if (dmk_csv_grow((void **)&r->tests, &rd->cap_tests, r->n_tests + 1, sizeof *r->tests) !=
        DMK_OK)
        return dmk_csv_fail_at(rd, 0, -1, "out of memory");
    DmkTestResult *t = &r->tests[r->n_tests++];
    memset(t, 0, sizeof *t);
    rd->cap_passes = rd->cap_samples = rd->cap_findings = 0;
    rd->in_samples = rd->in_findings = false;
    rd->test_line = rd->line;
    uint32_t best = 0;
    rc = dmk_csv_read_test_cells(rd, c, t, &best);
    t->best_pass = best ? best - 1 : 0;
    if (rc == DMK_OK && dmk_csv_cells_copy(&rd->test, c) != DMK_OK)
        rc = dmk_csv_fail_at(rd, 0, -1, "out of memory");
    return rc;
}

/* A pass or sample row belongs to the test row above it. */
static int check_identity(DmkCsvReader *rd, const DmkCsvCells *c, const char *record)
{
    char q[80], q2[80];
    size_t len, len2;
    if (rd->res->n_tests == 0)
        return dmk_csv_fail_at(rd, rd->line, -1, "a %s row before any test row", record);
    for (size_t col = DMK_COL_FIRST_IDENTITY; col <= DMK_COL_LAST_IDENTITY; col++) {
        if (dmk_csv_same_cell(rd, c, &rd->test, col))
            continue;
        const char *s = dmk_csv_cell(rd, c, col, &len),
                   *s2 = dmk_csv_cell(rd, &rd->test, col, &len2);
        return dmk_csv_fail_cell(rd, col,
                                 "%s differs from %s of the test row on line %lu: a %s row must "
                                 "follow the row of its test",
                                 dmk_csv_shown(s, len, q, sizeof q),
                                 dmk_csv_shown(s2, len2, q2, sizeof q2), rd->test_line, record);
    }
    return DMK_OK;
}

static int read_pass_row(DmkCsvReader *rd, const DmkCsvCells *c)
{
    DmkTestResult *t = &rd->res->tests[rd->res->n_tests - 1];
    uint32_t pass = 0;
    if (rd->in_findings)
        return dmk_csv_fail_at(rd, rd->line, -1, "a pass row after the test's finding rows");
    if (rd->in_samples)
        return dmk_csv_fail_at(rd, rd->line, -1, "a pass row after the test's timeline samples");
    int rc = dmk_csv_get_u32(rd, c, DMK_COL_PASS, 1, DMK_PASSES_MAX, &pass);
    if (rc == DMK_OK && pass != t->n_passes + 1)
        rc = dmk_csv_fail_cell(rd, DMK_COL_PASS, "pass %u where pass %u was due", pass,
                               t->n_passes + 1);
    /* mb_s_median .. flags: what only a test row has */
    for (DmkCsvTail k = DMK_COL_MB_S_MEDIAN; rc == DMK_OK && k <= DMK_COL_FLAGS; k++)
        rc = dmk_csv_need_empty(rd, c, dmk_csv_col_tail(k), "pass");
    for (DmkCsvTail k = DMK_COL_VERIFY_BLOCKS; rc == DMK_OK && k <= DMK_COL_VERIFY_S; k++)
        rc = dmk_csv_need_empty(rd, c, dmk_csv_col_tail(k), "pass");
    if (rc == DMK_OK)
        rc = dmk_csv_need_empty(rd, c, DMK_COL_T_S, "pass");
    if (rc == DMK_OK)
        rc = dmk_csv_need_empty(rd, c, DMK_COL_TEMP_C, "pass");
    if (rc == DMK_OK && rd->file_col[DMK_COL_OFFSET] >= 0)
        rc = dmk_csv_need_empty(rd, c, DMK_COL_OFFSET, "pass");
    if (rc == DMK_OK && dmk_csv_grow((void **)&t->passes, &rd->cap_passes, t->n_passes + 1,
                                     sizeof *t->passes) != DMK_OK)
        rc = dmk_csv_fail_at(rd, 0, -1, "out of memory");
    if (rc != DMK_OK)
        return rc;
    DmkPassResult *p = &t->passes[t->n_passes];
    memset(p, 0, sizeof *p);
    rc = dmk_csv_read_stats(rd, c, &p->total);
    if (rc == DMK_OK)
        rc = dmk_csv_read_directions(rd, c, &t->test, p);
    if (rc == DMK_OK)
        rc = dmk_csv_read_share_achieved(rd, c, &t->test, p);
    if (rc == DMK_OK)
        t->n_passes++;
    return rc;
}

static int read_sample_row(DmkCsvReader *rd, const DmkCsvCells *c)
{
    DmkTestResult *t = &rd->res->tests[rd->res->n_tests - 1];
    DmkStats st = {0};
    DmkSample s = {0};
    if (rd->in_findings)
        return dmk_csv_fail_at(rd, rd->line, -1, "a sample row after the test's finding rows");
    int rc = dmk_csv_need_empty(rd, c, DMK_COL_PASS, "sample");
    if (rc == DMK_OK)
        rc = dmk_csv_get_real(rd, c, DMK_COL_T_S, DMK_SECONDS_MAX, &s.t_s);
    if (rc == DMK_OK)
        rc = dmk_csv_get_temp(rd, c, DMK_COL_TEMP_C, &s.temp_c);
    /* A kept I/O (a surface scan's access, schema 8): where it went. */
    bool kept = rd->file_col[DMK_COL_OFFSET] >= 0 && !dmk_csv_cell_empty(rd, c, DMK_COL_OFFSET);
    uint64_t off = 0;
    if (rc == DMK_OK && kept)
        rc = dmk_csv_get_uint_or_empty(rd, c, DMK_COL_OFFSET, 0, DMK_LAB_SIZE_MAX, &off);
    s.offset = (double)off;
    for (size_t k = 0; rc == DMK_OK && k < dmk_stat_field_count; k++) {
        const DmkStatField *f = &dmk_stat_fields[k];
        if (dmk_csv_sample_field(f))
            rc = dmk_csv_get_real(rd, c, dmk_csv_col_stat(k), DMK_CSV_STAT_MAX,
                                  (double *)((char *)&st + f->offset));
        else
            rc = dmk_csv_need_empty(rd, c, dmk_csv_col_stat(k), "sample");
    }
    for (int k = 0; rc == DMK_OK && k < DMK_COL_N_TAIL; k++)
        rc = dmk_csv_need_empty(rd, c, dmk_csv_col_tail((DmkCsvTail)k), "sample");
    if (rc == DMK_OK && dmk_csv_grow((void **)&t->samples, &rd->cap_samples, t->n_samples + 1,
                                     sizeof *t->samples) != DMK_OK)
        rc = dmk_csv_fail_at(rd, 0, -1, "out of memory");
    if (rc != DMK_OK)
        return rc;
    s.mb_s = st.mb_s;
    s.iops = st.iops;
    s.lat_mean_us = st.lat_mean_us;
    t->samples[t->n_samples++] = s;
    if (kept)
        t->test.keep_ios = (uint32_t)t->n_samples;
    rd->in_samples = true;
    return DMK_OK;
}

int dmk_csv_read_row(DmkCsvReader *rd, const DmkCsvCells *c)
{
    const char *const *records = dmk_csv_records;
    int rc;
    if (++rd->rows > DMK_CSV_READ_MAX_ROWS)
        return dmk_csv_fail_at(rd, rd->line, -1, "more than %d rows", DMK_CSV_READ_MAX_ROWS);
    /* The first row names the schema: a header with a column too many
     * (or too few) is the header's fault, said before any row's count. */
    int schema_col = rd->file_col[DMK_COL_SCHEMA];
    if (rd->rows == 1 && (size_t)schema_col < c->n && (rc = dmk_csv_read_schema(rd, c)) != DMK_OK)
        return rc;
    size_t n = c->n + c->over;
    if (n != rd->n_cols)
        return dmk_csv_fail_at(rd, rd->line, -1, "%zu columns, but the header (line %lu) has %zu",
                               n, rd->header_line, rd->n_cols);
    if (rd->rows == 1) {
        rd->first_line = rd->line;
        rc = dmk_csv_read_context(rd, c);
        if (rc == DMK_OK && dmk_csv_cells_copy(&rd->first, c) != DMK_OK)
            rc = dmk_csv_fail_at(rd, 0, -1, "out of memory");
    } else {
        rc = dmk_csv_check_context(rd, c);
    }
    int record = 0;
    if (rc == DMK_OK)
        rc = dmk_csv_get_choice(rd, c, DMK_COL_RECORD, records, &record);
    if (rc == DMK_OK && record != DMK_CSV_RECORD_TEST)
        rc = check_identity(rd, c, records[record]);
    if (rc == DMK_OK && record != DMK_CSV_RECORD_FINDING)
        rc = dmk_csv_need_no_finding(rd, c, records[record]);
    if (rc != DMK_OK)
        return rc;
    switch ((DmkCsvRecord)record) {
    case DMK_CSV_RECORD_TEST:
        return read_test_row(rd, c);
    case DMK_CSV_RECORD_PASS:
        return read_pass_row(rd, c);
    case DMK_CSV_RECORD_SAMPLE:
        return read_sample_row(rd, c);
    case DMK_CSV_RECORD_FINDING:
        break;
    }
    return dmk_csv_read_finding_row(rd, c);
}
