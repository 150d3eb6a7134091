/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the CSV reader takes from a test row: the test's identity, its
 * score's statistics and spread, whether it was cut short, its flags and
 * what the verify option found; the statistics a pass row shares. */
#include <stdint.h>
#include <string.h>

#include "dmk-csv-read-private.h"

static int read_identity(DmkCsvReader *rd, const DmkCsvCells *c, DmkTest *t)
{
    const char *const modes[] = {dmk_mode_name(DMK_MODE_READ), dmk_mode_name(DMK_MODE_WRITE),
                                 dmk_mode_name(DMK_MODE_MIX), NULL};
    const char *const patterns[] = {dmk_pattern_name(DMK_PATTERN_SEQ),
                                    dmk_pattern_name(DMK_PATTERN_RND), NULL};
    DmkJob *j = &t->jobs[0];
    int mode = 0, pattern = 0;
    t->n_jobs = 1;
    int rc = dmk_csv_get_text(rd, c, DMK_COL_TEST, t->name, sizeof t->name);
    if (rc == DMK_OK && !t->name[0])
        rc = dmk_csv_fail_cell(rd, DMK_COL_TEST, "the test has no name");
    if (rc == DMK_OK)
        rc = dmk_csv_get_choice(rd, c, DMK_COL_MODE, modes, &mode);
    if (rc == DMK_OK)
        rc = dmk_csv_get_choice(rd, c, DMK_COL_PATTERN, patterns, &pattern);
    if (rc == DMK_OK)
        rc = dmk_csv_get_u32(rd, c, DMK_COL_BLOCK_SIZE, DMK_BS_MIN, DMK_BS_MAX, &j->block_size);
    if (rc == DMK_OK)
        rc = dmk_csv_get_u32(rd, c, DMK_COL_QUEUE_DEPTH, 1, DMK_QD_MAX, &j->queue_depth);
    if (rc == DMK_OK)
        rc = dmk_csv_get_u32(rd, c, DMK_COL_THREADS, 1, DMK_THREADS_MAX, &j->threads);
    if (rc == DMK_OK)
        rc = dmk_csv_get_u32(rd, c, DMK_COL_READ_SHARE, 0, 100, &j->read_share);
    if (rc == DMK_OK && rd->file_col[DMK_COL_LABEL] >= 0)
        rc = dmk_csv_get_text(rd, c, DMK_COL_LABEL, t->label, sizeof t->label);
    /* A surface sample reads its sample in one I/O of any 4 KiB multiple
     * (10 MiB by default); every other test's block is a power of two. */
    bool sample = strcmp(rd->res->lab, "surface") == 0 && strcmp(t->label, "sample") == 0;
    if (rc == DMK_OK && (j->block_size & (j->block_size - 1)) != 0 &&
        !(sample && j->block_size % 4096 == 0))
        rc = dmk_csv_fail_cell(rd, DMK_COL_BLOCK_SIZE, "%u is not a power of two", j->block_size);
    if (rc == DMK_OK && rd->file_col[DMK_COL_RATE_IOPS] >= 0)
        rc = dmk_csv_get_uint_or_empty(rd, c, DMK_COL_RATE_IOPS, 0, DMK_RATE_MAX, &t->rate_iops);
    t->mode = (DmkMode)mode;
    j->pattern = (DmkPattern)pattern; /* patterns[] is in DmkPattern's order */
    return rc;
}

int dmk_csv_read_stats(DmkCsvReader *rd, const DmkCsvCells *c, DmkStats *s)
{
    for (size_t k = 0; k < dmk_stat_field_count; k++) {
        double v;
        int rc = dmk_csv_get_real(rd, c, dmk_csv_col_stat(k), DMK_CSV_STAT_MAX, &v);
        if (rc != DMK_OK)
            return rc;
        *(double *)((char *)s + dmk_stat_fields[k].offset) = v;
    }
    return DMK_OK;
}

/* A direction the test does not do (schema 7): its four cells empty. */
static int read_no_direction(DmkCsvReader *rd, const DmkCsvCells *c, size_t col, DmkMode mode)
{
    int rc = DMK_OK;
    for (size_t k = 0; rc == DMK_OK && k < 4; k++)
        rc = dmk_csv_need_empty(rd, c, col + k,
                                mode == DMK_MODE_READ ? "read test's" : "write test's");
    return rc;
}

/* The four per-direction columns of read and of write; from schema 7
 * only those of the directions the test does (t's mode). */
int dmk_csv_read_directions(DmkCsvReader *rd, const DmkCsvCells *c, const DmkTest *t,
                            DmkPassResult *p)
{
    DmkStats *d[2] = {&p->read, &p->write};
    for (int i = 0; i < 2; i++) {
        size_t col = dmk_csv_col_direction(i);
        if (rd->schema >= DMK_CSV_SCHEMA_EMPTY_NA && !dmk_csv_direction_applies(t->mode, i)) {
            int rc = read_no_direction(rd, c, col, t->mode);
            if (rc != DMK_OK)
                return rc;
            continue;
        }
        int rc = dmk_csv_get_real(rd, c, col, DMK_CSV_STAT_MAX, &d[i]->mb_s);
        if (rc == DMK_OK)
            rc = dmk_csv_get_real(rd, c, col + 1, DMK_CSV_STAT_MAX, &d[i]->iops);
        if (rc == DMK_OK)
            rc = dmk_csv_get_real(rd, c, col + 2, DMK_CSV_STAT_MAX, &d[i]->lat_mean_us);
        if (rc == DMK_OK)
            rc = dmk_csv_get_real(rd, c, col + 3, DMK_CSV_STAT_MAX, &d[i]->lat_p99_us);
        if (rc != DMK_OK)
            return rc;
    }
    return DMK_OK;
}

/* A mixed test's achieved read share (schema 6), on its test and pass
 * rows: a percentage, or empty for a pass that completed nothing; empty
 * for any other test. An older file has no such column: there
 * dmk_pass_read_pct takes the share from the read and write IOPS. */
int dmk_csv_read_share_achieved(DmkCsvReader *rd, const DmkCsvCells *c, const DmkTest *t,
                                DmkPassResult *p)
{
    size_t col = dmk_csv_col_tail(DMK_COL_READ_SHARE_ACHIEVED), len;
    dmk_csv_cell(rd, c, col, &len);
    if (t->mode != DMK_MODE_MIX)
        return dmk_csv_need_empty(rd, c, col, "read or write test's");
    return len ? dmk_csv_get_real(rd, c, col, 100.0, &p->read_pct_saved) : DMK_OK;
}

/* Whether the run was stopped during the test (schema 3). */
static int read_partial(DmkCsvReader *rd, const DmkCsvCells *c, DmkTestResult *t)
{
    size_t col = dmk_csv_col_tail(DMK_COL_PARTIAL);
    uint64_t v = 0;
    int rc = rd->file_col[col] < 0 ? DMK_OK : dmk_csv_get_uint(rd, c, col, 0, 1, &v);
    t->partial = v == 1;
    return rc;
}

/* Schema 4: the achieved queue depth and the flags as written; an older
 * file's flags follow from what it holds (its size: peak). */
static int read_honest_test(DmkCsvReader *rd, const DmkCsvCells *c, DmkTestResult *t)
{
    size_t qd_col = dmk_csv_col_tail(DMK_COL_ACHIEVED_QD), fl_col = dmk_csv_col_tail(DMK_COL_FLAGS);
    char text[160], q[80];
    if (rd->file_col[qd_col] < 0) {
        t->flags = dmk_test_flags(rd->res, t);
        return DMK_OK;
    }
    int rc = dmk_csv_get_real(rd, c, qd_col, (double)DMK_QD_MAX * DMK_THREADS_MAX * DMK_MAX_JOBS,
                              &t->achieved_qd);
    if (rc == DMK_OK)
        rc = dmk_csv_get_text(rd, c, fl_col, text, sizeof text);
    if (rc == DMK_OK && !dmk_flags_parse(text, &t->flags))
        rc = dmk_csv_fail_cell(
            rd, fl_col,
            "%s is not a list of flags (peak, over_interface, low_qd, ram_backed, "
            "storage_unknown, paused, cached)",
            dmk_csv_shown(text, strlen(text), q, sizeof q));
    return rc;
}

static int read_spread(DmkCsvReader *rd, const DmkCsvCells *c, DmkTestResult *t)
{
    int rc = dmk_csv_get_real(rd, c, dmk_csv_col_tail(DMK_COL_MB_S_MEDIAN), DMK_CSV_STAT_MAX,
                              &t->mb_s_median);
    if (rc == DMK_OK)
        rc = dmk_csv_get_real(rd, c, dmk_csv_col_tail(DMK_COL_MB_S_MIN), DMK_CSV_STAT_MAX,
                              &t->mb_s_min);
    if (rc == DMK_OK)
        rc = dmk_csv_get_real(rd, c, dmk_csv_col_tail(DMK_COL_MB_S_MAX), DMK_CSV_STAT_MAX,
                              &t->mb_s_max);
    return rc;
}

/* The first bad block of a verified test that had one: where, and why. */
static int read_first_bad(DmkCsvReader *rd, const DmkCsvCells *c, DmkVerifyResult *v)
{
    const char *const whys[] = {
        dmk_verify_bad_key(DMK_VERIFY_OK),           dmk_verify_bad_key(DMK_VERIFY_NO_HEADER),
        dmk_verify_bad_key(DMK_VERIFY_WRONG_OFFSET), dmk_verify_bad_key(DMK_VERIFY_STALE),
        dmk_verify_bad_key(DMK_VERIFY_CORRUPT),      NULL};
    int why = 0;
    int rc = dmk_csv_get_uint(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_FIRST_BAD_BLOCK), 0,
                              UINT64_MAX, &v->first_bad_block);
    if (rc == DMK_OK)
        rc = dmk_csv_get_uint(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_FIRST_BAD_BYTE),
                              v->first_bad_block, UINT64_MAX, &v->first_bad_byte);
    if (rc == DMK_OK)
        rc = dmk_csv_get_choice(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_WHY), whys, &why);
    if (rc == DMK_OK && why == 0)
        rc = dmk_csv_fail_cell(
            rd, dmk_csv_col_tail(DMK_COL_VERIFY_WHY),
            "a bad block needs its reason (no_header, wrong_offset, stale, corrupt)");
    v->first_bad_why = (DmkVerifyBad)why;
    return rc;
}

/* What the verify option found (schema 4): all cells empty when the test
 * was not verified; the first bad block's cells filled exactly when a
 * block was bad. */
static int read_verify(DmkCsvReader *rd, const DmkCsvCells *c, DmkVerifyResult *v)
{
    size_t col = dmk_csv_col_tail(DMK_COL_VERIFY_BLOCKS), len;
    dmk_csv_cell(rd, c, col, &len);
    memset(v, 0, sizeof *v);
    if (len == 0) {
        int rc = DMK_OK;
        for (int k = DMK_COL_VERIFY_BAD; rc == DMK_OK && k <= DMK_COL_VERIFY_S; k++)
            rc = dmk_csv_need_empty(rd, c, dmk_csv_col_tail((DmkCsvTail)k),
                                    "test without verify_blocks");
        return rc;
    }
    v->checked = true;
    int rc = dmk_csv_get_uint(rd, c, col, 0, UINT64_MAX, &v->blocks);
    if (rc == DMK_OK)
        rc = dmk_csv_get_uint(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_BAD), 0, v->blocks, &v->bad);
    if (rc == DMK_OK)
        rc = dmk_csv_get_uint(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_SKIPPED), 0, UINT64_MAX,
                              &v->skipped);
    if (rc == DMK_OK)
        rc = dmk_csv_get_real(rd, c, dmk_csv_col_tail(DMK_COL_VERIFY_S), DMK_SECONDS_MAX,
                              &v->seconds);
    if (rc == DMK_OK && v->bad > 0)
        rc = read_first_bad(rd, c, v);
    else
        for (int k = DMK_COL_VERIFY_FIRST_BAD_BLOCK; rc == DMK_OK && k <= DMK_COL_VERIFY_WHY; k++)
            rc = dmk_csv_need_empty(rd, c, dmk_csv_col_tail((DmkCsvTail)k),
                                    "test with no bad block");
    v->bytes = v->blocks * (uint64_t)rd->res->tests[rd->res->n_tests - 1].test.jobs[0].block_size;
    return rc;
}

/* A surface sample's place (schema 8): its region_offset; the index it
 * had among the samples is not kept, a count of 1 marks it placed. */
static int read_place(DmkCsvReader *rd, const DmkCsvCells *c, DmkTest *t)
{
    if (rd->file_col[DMK_COL_OFFSET] < 0 || dmk_csv_cell_empty(rd, c, DMK_COL_OFFSET))
        return DMK_OK;
    int rc =
        dmk_csv_get_uint_or_empty(rd, c, DMK_COL_OFFSET, 0, DMK_LAB_SIZE_MAX, &t->region_offset);
    if (rc == DMK_OK)
        t->spread_count = 1;
    return rc;
}

/* In the order the checks always ran: the first bad cell is the one the
 * message names. */
int dmk_csv_read_test_cells(DmkCsvReader *rd, const DmkCsvCells *c, DmkTestResult *t,
                            uint32_t *best)
{
    int rc = read_identity(rd, c, &t->test);
    if (rc == DMK_OK)
        rc = dmk_csv_get_u32(rd, c, DMK_COL_PASS, 1, DMK_PASSES_MAX, best);
    if (rc == DMK_OK)
        rc = dmk_csv_need_empty(rd, c, DMK_COL_T_S, "test");
    if (rc == DMK_OK)
        rc = dmk_csv_need_empty(rd, c, DMK_COL_TEMP_C, "test");
    if (rc == DMK_OK)
        rc = read_place(rd, c, &t->test);
    if (rc == DMK_OK)
        rc = dmk_csv_read_stats(rd, c, &t->score.total);
    if (rc == DMK_OK)
        rc = read_spread(rd, c, t);
    if (rc == DMK_OK)
        rc = read_partial(rd, c, t);
    if (rc == DMK_OK)
        rc = dmk_csv_read_directions(rd, c, &t->test, &t->score);
    if (rc == DMK_OK)
        rc = dmk_csv_read_share_achieved(rd, c, &t->test, &t->score);
    if (rc == DMK_OK)
        rc = read_honest_test(rd, c, t);
    if (rc == DMK_OK)
        rc = read_verify(rd, c, &t->verify);
    return rc;
}
