/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-csv.h"

#include <csv.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-csv-private.h"
#include "dmk-escape.h"
#include "dmk-lab-findings.h"
#include "dmk-size.h"

/* ---- the columns (shared with the reader) -------------------------------- */

#define COL(n, k, d, since, title) \
    {                              \
        n, k, d, since, title      \
    }
#define COL_TEXT(n, title)    COL(n, DMK_CSV_TEXT, 0, 1, title)
#define COL_UINT(n, title)    COL(n, DMK_CSV_UINT, 0, 1, title)
#define COL_REAL(n, d, title) COL(n, DMK_CSV_REAL, d, 1, title)

static const DmkCsvColumn head_cols[DMK_COL_N_HEAD] = {
    [DMK_COL_SCHEMA] = COL_UINT("schema", "Schema"),
    [DMK_COL_VERSION] = COL_TEXT("version", "Drivemark version"),
    [DMK_COL_RECORD] = COL_TEXT("record", "Record"),
    [DMK_COL_DATE] = COL_TEXT("date", "Date (UTC)"),
    [DMK_COL_TARGET] = COL_TEXT("target", "Target"),
    [DMK_COL_FILE_SYSTEM] = COL_TEXT("file_system", "File system"),
    [DMK_COL_DEVICE] = COL_TEXT("device", "Device"),
    [DMK_COL_DEVICE_MODEL] = COL_TEXT("device_model", "Drive model"),
    [DMK_COL_TEMP_SENSOR] = COL("temp_sensor", DMK_CSV_TEXT, 0, 3, "Temperature sensor"),
    [DMK_COL_CAPACITY] = COL_UINT("capacity_bytes", "Capacity (bytes)"),
    [DMK_COL_FS_SIZE] = COL("fs_size_bytes", DMK_CSV_UINT, 0, 5, "File system size (bytes)"),
    [DMK_COL_FS_FREE] = COL_UINT("fs_free_bytes", "Free space (bytes)"),
    [DMK_COL_OS] = COL_TEXT("os", "OS"),
    [DMK_COL_BACKEND] = COL_TEXT("backend", "Backend"),
    [DMK_COL_PROFILE] = COL_TEXT("profile", "Profile"),
    [DMK_COL_SWEEP] = COL("sweep", DMK_CSV_TEXT, 0, 2, "Sweep"),
    [DMK_COL_LAB] = COL("lab", DMK_CSV_TEXT, 0, 3, "Lab test"),
    [DMK_COL_TEST_SIZE] = COL_UINT("test_size", "Test size (bytes)"),
    [DMK_COL_PASSES] = COL_UINT("passes", "Passes"),
    [DMK_COL_MEASURE] = COL_REAL("measure_s", 3, "Measure (s)"),
    [DMK_COL_WARMUP] = COL_REAL("warmup_s", 3, "Warm-up (s)"),
    [DMK_COL_INTERVAL] = COL_REAL("interval_s", 3, "Interval (s)"),
    [DMK_COL_DATA] = COL_TEXT("data", "Write data"),
    [DMK_COL_COMMENT] = COL_TEXT("comment", "Comment"),
    [DMK_COL_LAB_NOTE] = COL("lab_note", DMK_CSV_TEXT, 0, 3, "Lab note"),
    [DMK_COL_COW] = COL("cow", DMK_CSV_TEXT, 0, 4, "Copy-on-write"),
    [DMK_COL_COMPRESSION] = COL("compression", DMK_CSV_TEXT, 0, 4, "Compression"),
    [DMK_COL_INTERFACE] = COL("interface", DMK_CSV_TEXT, 0, 4, "Interface"),
    [DMK_COL_INTERFACE_MB_S] = COL("interface_mb_s", DMK_CSV_REAL, 1, 4, "Interface (MB/s)"),
    [DMK_COL_COMPLETE] = COL_UINT("complete", "Complete (1 = yes)"),
    [DMK_COL_TEST] = COL_TEXT("test", "Test"),
    [DMK_COL_LABEL] = COL("label", DMK_CSV_TEXT, 0, 3, "Label"),
    [DMK_COL_MODE] = COL_TEXT("mode", "Mode"),
    [DMK_COL_PATTERN] = COL_TEXT("pattern", "Pattern"),
    [DMK_COL_BLOCK_SIZE] = COL_UINT("block_size", "Block size (bytes)"),
    [DMK_COL_QUEUE_DEPTH] = COL_UINT("queue_depth", "Queue depth"),
    [DMK_COL_THREADS] = COL_UINT("threads", "Threads"),
    [DMK_COL_READ_SHARE] = COL_UINT("read_share", "Read share asked (%)"),
    [DMK_COL_RATE_IOPS] = COL("rate_iops", DMK_CSV_UINT, 0, 3, "Rate (IOPS)"),
    [DMK_COL_PASS] = COL_UINT("pass", "Pass"),
    [DMK_COL_T_S] = COL_REAL("t_s", 3, "Time (s)"),
    [DMK_COL_TEMP_C] = COL("temp_c", DMK_CSV_REAL, 1, 3, "Temperature (°C)"),
    [DMK_COL_OFFSET] = COL("offset", DMK_CSV_UINT, 0, 8, "Offset (bytes)"),
    [DMK_COL_FINDING] = COL("finding", DMK_CSV_TEXT, 0, 6, "Finding"),
    /* Each finding's decimals are its unit's (dmk_lab_finding_cell). */
    [DMK_COL_FINDING_VALUE] = COL("value", DMK_CSV_REAL, -1, 6, "Value"),
    [DMK_COL_FINDING_UNIT] = COL("unit", DMK_CSV_TEXT, 0, 6, "Unit"),
};

static const DmkCsvColumn tail_cols[DMK_COL_N_TAIL] = {
    [DMK_COL_MB_S_MEDIAN] = COL_REAL("mb_s_median", 3, "Median pass (MB/s)"),
    [DMK_COL_MB_S_MIN] = COL_REAL("mb_s_min", 3, "Slowest pass (MB/s)"),
    [DMK_COL_MB_S_MAX] = COL_REAL("mb_s_max", 3, "Fastest pass (MB/s)"),
    [DMK_COL_PARTIAL] = COL("partial", DMK_CSV_UINT, 0, 3, "Partial (1 = stopped)"),
    [DMK_COL_ACHIEVED_QD] =
        COL("achieved_qd", DMK_CSV_REAL, DMK_QD_DECIMALS, 4, "Achieved queue depth"),
    [DMK_COL_FLAGS] = COL("flags", DMK_CSV_TEXT, 0, 4, "Flags"),
    [DMK_COL_READ_MB_S] = COL_REAL("read_mb_s", 3, "Read (MB/s)"),
    [DMK_COL_READ_IOPS] = COL_REAL("read_iops", 2, "Read IOPS"),
    [DMK_COL_READ_LAT_MEAN] = COL_REAL("read_lat_mean_us", 3, "Read mean latency (µs)"),
    [DMK_COL_READ_LAT_P99] = COL_REAL("read_lat_p99_us", 3, "Read p99 latency (µs)"),
    [DMK_COL_WRITE_MB_S] = COL_REAL("write_mb_s", 3, "Write (MB/s)"),
    [DMK_COL_WRITE_IOPS] = COL_REAL("write_iops", 2, "Write IOPS"),
    [DMK_COL_WRITE_LAT_MEAN] = COL_REAL("write_lat_mean_us", 3, "Write mean latency (µs)"),
    [DMK_COL_WRITE_LAT_P99] = COL_REAL("write_lat_p99_us", 3, "Write p99 latency (µs)"),
    [DMK_COL_READ_SHARE_ACHIEVED] =
        COL("read_share_achieved", DMK_CSV_REAL, DMK_SHARE_DECIMALS, 6, "Read share achieved (%)"),
    [DMK_COL_VERIFY_BLOCKS] = COL("verify_blocks", DMK_CSV_UINT, 0, 4, "Verified blocks"),
    [DMK_COL_VERIFY_BAD] = COL("verify_bad", DMK_CSV_UINT, 0, 4, "Bad blocks"),
    [DMK_COL_VERIFY_SKIPPED] = COL("verify_skipped", DMK_CSV_UINT, 0, 4, "Skipped blocks"),
    [DMK_COL_VERIFY_FIRST_BAD_BLOCK] =
        COL("verify_first_bad_block", DMK_CSV_UINT, 0, 4, "First bad block"),
    [DMK_COL_VERIFY_FIRST_BAD_BYTE] =
        COL("verify_first_bad_byte", DMK_CSV_UINT, 0, 4, "First bad byte (offset)"),
    [DMK_COL_VERIFY_WHY] = COL("verify_first_bad_why", DMK_CSV_TEXT, 0, 4, "Why it is bad"),
    [DMK_COL_VERIFY_S] = COL("verify_s", DMK_CSV_REAL, 3, 4, "Verify time (s)"),
};

#undef COL
#undef COL_TEXT
#undef COL_UINT
#undef COL_REAL

size_t dmk_csv_column_count(void)
{
    return DMK_COL_N_HEAD + dmk_stat_field_count + DMK_COL_N_TAIL;
}

DmkCsvColumn dmk_csv_column(size_t i)
{
    if (i < DMK_COL_N_HEAD)
        return head_cols[i];
    i -= DMK_COL_N_HEAD;
    if (i < dmk_stat_field_count)
        return (DmkCsvColumn){dmk_stat_fields[i].name, DMK_CSV_REAL, dmk_stat_fields[i].decimals, 1,
                              dmk_stat_fields[i].title};
    return tail_cols[i - dmk_stat_field_count];
}

bool dmk_csv_direction_applies(DmkMode mode, int write)
{
    return mode == DMK_MODE_MIX || (write ? mode == DMK_MODE_WRITE : mode == DMK_MODE_READ);
}

bool dmk_csv_sample_field(const DmkStatField *f)
{
    return f->offset == offsetof(DmkStats, mb_s) || f->offset == offsetof(DmkStats, iops) ||
           f->offset == offsetof(DmkStats, lat_mean_us);
}

/* The texts pandas' read_csv takes for a missing value by default (its
 * na_values, less "" and those that begin with '-', which the formula
 * rule already marks): the null backend's name among them. */
static const char *const na_words[] = {"1.#QNAN", "1.#IND", "#N/A N/A", "#N/A", "N/A",
                                       "n/a",     "NA",     "<NA>",     "#NA",  "NULL",
                                       "null",    "NaN",    "nan",      "None"};

bool dmk_csv_na_word(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof na_words / sizeof na_words[0]; i++)
        if (strlen(na_words[i]) == len && memcmp(na_words[i], s, len) == 0)
            return true;
    return false;
}

bool dmk_csv_risky_text(const char *s, size_t len)
{
    return (len > 0 && strchr("=+-@\t\r'", s[0]) != NULL && s[0] != '\0') ||
           (len > 0 && dmk_csv_na_word(s, len));
}

void dmk_csv_neutralise(const char *in, char *out, size_t len)
{
    snprintf(out, len, "%s%s", dmk_csv_risky_text(in, strlen(in)) ? "'" : "", in);
}

/* ---- a row: cells set by column index, written in the table's order ------ */

typedef DmkCsvCell Cell;

typedef struct {
    DmkCsvRowFn emit;
    void *ctx;
    DmkCsvRecord record;
    Cell cells[DMK_CSV_MAX_COLUMNS];
} Row;

static void put_text(Row *r, size_t col, const char *s)
{
    r->cells[col] = (Cell){.set = true, .text = s};
}

static void put_u64(Row *r, size_t col, unsigned long long v)
{
    r->cells[col] = (Cell){.set = true, .u = v};
}

static void put_num(Row *r, size_t col, double v)
{
    r->cells[col] = (Cell){.set = true, .d = v};
}

static void write_cell(FILE *f, const DmkCsvColumn *c, const Cell *v)
{
    /* A path of 4096 bytes, each one perhaps invalid UTF-8 (3 bytes as
     * U+FFFD), and the quote dmk_csv_neutralise may add. */
    char b[4100], u[3 * sizeof b];
    if (!v->set)
        return; /* an empty cell: not measured for this kind of row */
    if (c->kind == DMK_CSV_TEXT) {
        /* Valid UTF-8 only (a Latin-1 folder name): `show` refuses a
         * file that is not, and the program reads what it writes. */
        dmk_csv_neutralise(v->text, b, sizeof b);
        dmk_utf8_valid_copy(b, u, sizeof u);
        csv_fwrite(f, u, strlen(u));
    } else if (c->decimals < 0) {
        fputs(v->text, f); /* formatted by its row's rule */
    } else if (c->kind == DMK_CSV_UINT) {
        fprintf(f, "%llu", v->u);
    } else {
        fputs(dmk_format_double(v->d, c->decimals, b, sizeof b), f);
    }
}

/* Hands the row's cells on (dmk_csv_each_row) and clears it. */
static void end_row(Row *r)
{
    r->emit(r->record, r->cells, r->ctx);
    memset(r->cells, 0, sizeof r->cells);
}

/* The CSV's row: every column of the current schema, in the table's order. */
static void write_row(DmkCsvRecord rec, const DmkCsvCell *cells, void *ctx)
{
    FILE *f = ctx;
    size_t n = dmk_csv_column_count();
    (void)rec;
    for (size_t i = 0; i < n; i++) {
        DmkCsvColumn c = dmk_csv_column(i);
        if (i)
            fputc(',', f);
        write_cell(f, &c, &cells[i]);
    }
    fputs("\r\n", f);
}

static void write_header(FILE *f)
{
    size_t n = dmk_csv_column_count();
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        fputs(dmk_csv_column(i).name, f);
    }
    fputs("\r\n", f);
}

/* ---- the records --------------------------------------------------------- */

/* Schema 4: copy-on-write, compression and the drive's link. */
static void put_honest_context(Row *r, const DmkRunResult *res)
{
    const DmkTargetInfo *ti = &res->target;
    put_text(r, DMK_COL_COW, dmk_fs_feature_name(ti->cow));
    put_text(r, DMK_COL_COMPRESSION, dmk_fs_feature_name(ti->compression));
    put_text(r, DMK_COL_INTERFACE, ti->iface);
    if (ti->iface_bytes_s) /* an unknown link: empty (schema 7) */
        put_num(r, DMK_COL_INTERFACE_MB_S, (double)ti->iface_bytes_s / 1e6);
}

/* Schema 4: a test row's achieved queue depth and flags; the flags'
 * text lives in the row until end_row writes it. */
static void put_honest_test(Row *r, const DmkTestResult *t, char *flags, size_t len)
{
    put_num(r, dmk_csv_col_tail(DMK_COL_ACHIEVED_QD), t->achieved_qd);
    put_text(r, dmk_csv_col_tail(DMK_COL_FLAGS), dmk_flags_format(t->flags, flags, len));
}

/* schema .. complete, the record, and the test's identity. */
const char *const dmk_csv_records[] = {"test", "pass", "sample", "finding", NULL};

static void put_context(Row *r, const DmkRunResult *res, DmkCsvRecord record,
                        const DmkTestResult *t)
{
    const DmkTargetInfo *ti = &res->target;
    const DmkJob *j = &t->test.jobs[0];
    r->record = record;
    put_u64(r, DMK_COL_SCHEMA, DMK_CSV_SCHEMA);
    put_text(r, DMK_COL_VERSION, res->version);
    put_text(r, DMK_COL_RECORD, dmk_csv_records[record]);
    put_text(r, DMK_COL_DATE, res->date);
    put_text(r, DMK_COL_TARGET, ti->path);
    put_text(r, DMK_COL_FILE_SYSTEM, ti->fs_type);
    put_text(r, DMK_COL_DEVICE, ti->device);
    put_text(r, DMK_COL_DEVICE_MODEL, ti->model);
    put_text(r, DMK_COL_TEMP_SENSOR, ti->temp_sensor);
    /* Schema 7: what is unknown or does not apply is an empty cell, not
     * a 0 that a spreadsheet would average: a capacity the OS did not
     * give, the file system of a raw device. */
    if (ti->capacity_bytes)
        put_u64(r, DMK_COL_CAPACITY, ti->capacity_bytes);
    if (!ti->is_device) {
        put_u64(r, DMK_COL_FS_SIZE, ti->fs_size_bytes);
        put_u64(r, DMK_COL_FS_FREE, ti->fs_free_bytes);
    }
    put_text(r, DMK_COL_OS, res->os);
    put_text(r, DMK_COL_BACKEND, res->backend);
    put_text(r, DMK_COL_PROFILE, res->profile);
    put_text(r, DMK_COL_SWEEP, res->sweep);
    put_text(r, DMK_COL_LAB, res->lab);
    put_u64(r, DMK_COL_TEST_SIZE, res->size);
    put_u64(r, DMK_COL_PASSES, res->passes);
    put_num(r, DMK_COL_MEASURE, res->measure_s);
    put_num(r, DMK_COL_WARMUP, res->warmup_s);
    put_num(r, DMK_COL_INTERVAL, res->interval_s);
    put_text(r, DMK_COL_DATA, dmk_data_name(res->data));
    put_text(r, DMK_COL_COMMENT, res->comment);
    put_text(r, DMK_COL_LAB_NOTE, res->lab_note);
    put_honest_context(r, res);
    put_u64(r, DMK_COL_COMPLETE, res->complete ? 1 : 0);
    put_text(r, DMK_COL_TEST, t->test.name);
    put_text(r, DMK_COL_LABEL, t->test.label);
    put_text(r, DMK_COL_MODE, dmk_mode_name(t->test.mode));
    put_text(r, DMK_COL_PATTERN, dmk_pattern_name(j->pattern));
    put_u64(r, DMK_COL_BLOCK_SIZE, j->block_size);
    put_u64(r, DMK_COL_QUEUE_DEPTH, j->queue_depth);
    put_u64(r, DMK_COL_THREADS, dmk_test_threads(&t->test));
    put_u64(r, DMK_COL_READ_SHARE, j->read_share);
    if (t->test.rate_iops) /* 0: no rate asked, empty (schema 7) */
        put_u64(r, DMK_COL_RATE_IOPS, t->test.rate_iops);
}

static void put_stats(Row *r, const DmkStats *s)
{
    for (size_t i = 0; i < dmk_stat_field_count; i++)
        put_num(r, dmk_csv_col_stat(i), dmk_stat_get(s, &dmk_stat_fields[i]));
}

/* The directions the test does: a write test's read columns are empty
 * (schema 7), not 0.0 MB/s that an average over the column would count. */
static void put_directions(Row *r, const DmkTestResult *t, const DmkPassResult *p)
{
    const DmkStats *d[2] = {&p->read, &p->write};
    for (int i = 0; i < 2; i++) {
        size_t c = dmk_csv_col_direction(i);
        if (!dmk_csv_direction_applies(t->test.mode, i))
            continue;
        put_num(r, c, d[i]->mb_s);
        put_num(r, c + 1, d[i]->iops);
        put_num(r, c + 2, d[i]->lat_mean_us);
        put_num(r, c + 3, d[i]->lat_p99_us);
    }
}

/* Schema 6: a mixed test's achieved read share, beside the asked one
 * (read_share), on its test and pass rows; none for a pass that
 * completed nothing. */
static void put_share(Row *r, const DmkTestResult *t, const DmkPassResult *p)
{
    double pct = dmk_pass_read_pct(p);
    if (t->test.mode == DMK_MODE_MIX && pct >= 0)
        put_num(r, dmk_csv_col_tail(DMK_COL_READ_SHARE_ACHIEVED), pct);
}

static void write_sample(Row *r, const DmkRunResult *res, const DmkTestResult *t,
                         const DmkSample *s)
{
    DmkStats st = {.mb_s = s->mb_s, .iops = s->iops, .lat_mean_us = s->lat_mean_us};
    put_context(r, res, DMK_CSV_RECORD_SAMPLE, t);
    put_num(r, DMK_COL_T_S, s->t_s);
    /* No sensor, or a reading no drive gives: an empty cell. */
    if (s->temp_c >= DMK_CSV_TEMP_MIN && s->temp_c <= DMK_CSV_TEMP_MAX)
        put_num(r, DMK_COL_TEMP_C, s->temp_c);
    if (t->test.keep_ios) /* one I/O: where it went */
        put_u64(r, DMK_COL_OFFSET, (unsigned long long)s->offset);
    /* A sample has throughput and mean latency only; the rest stays empty. */
    for (size_t k = 0; k < dmk_stat_field_count; k++)
        if (dmk_csv_sample_field(&dmk_stat_fields[k]))
            put_num(r, dmk_csv_col_stat(k), dmk_stat_get(&st, &dmk_stat_fields[k]));
    end_row(r);
}

/* What the verify option found, on the test's row. */
static void put_verify(Row *r, const DmkVerifyResult *v)
{
    if (!v->checked)
        return;
    put_u64(r, dmk_csv_col_tail(DMK_COL_VERIFY_BLOCKS), v->blocks);
    put_u64(r, dmk_csv_col_tail(DMK_COL_VERIFY_BAD), v->bad);
    put_u64(r, dmk_csv_col_tail(DMK_COL_VERIFY_SKIPPED), v->skipped);
    if (v->bad) {
        put_u64(r, dmk_csv_col_tail(DMK_COL_VERIFY_FIRST_BAD_BLOCK), v->first_bad_block);
        put_u64(r, dmk_csv_col_tail(DMK_COL_VERIFY_FIRST_BAD_BYTE), v->first_bad_byte);
        put_text(r, dmk_csv_col_tail(DMK_COL_VERIFY_WHY), dmk_verify_bad_key(v->first_bad_why));
    }
    put_num(r, dmk_csv_col_tail(DMK_COL_VERIFY_S), v->seconds);
}

/* Schema 6: every figure of each set of what the lab analysis found that
 * is anchored at test i, a row each, after the test's samples. */
static void write_findings(Row *r, const DmkRunResult *res, const DmkLabFindings *found, size_t i)
{
    for (size_t k = 0; k < found->n; k++) {
        const DmkLabFinding *f = &found->f[k];
        const DmkLabSetDesc *set = dmk_lab_set(f->set);
        if (f->test != i)
            continue;
        for (size_t j = 0; j < set->n_fields; j++) {
            char key[96], value[400];
            snprintf(key, sizeof key, "%s.%s", set->name, set->fields[j].key);
            put_context(r, res, DMK_CSV_RECORD_FINDING, &res->tests[i]);
            put_text(r, DMK_COL_FINDING, key);
            dmk_lab_finding_cell(f, j, value, sizeof value);
            if (value[0]) /* NaN, not measured: empty */
                put_text(r, DMK_COL_FINDING_VALUE, value);
            put_text(r, DMK_COL_FINDING_UNIT, dmk_lab_unit_name(dmk_lab_finding_unit(f, j)));
            end_row(r);
        }
    }
}

static void write_test_rows(Row *r, const DmkRunResult *res, const DmkTestResult *t)
{
    put_context(r, res, DMK_CSV_RECORD_TEST, t);
    put_u64(r, DMK_COL_PASS, t->best_pass + 1);
    if (t->test.spread_count) /* a surface sample: its place */
        put_u64(r, DMK_COL_OFFSET, t->test.region_offset);
    put_stats(r, &t->score.total);
    put_num(r, dmk_csv_col_tail(DMK_COL_MB_S_MEDIAN), t->mb_s_median);
    put_num(r, dmk_csv_col_tail(DMK_COL_MB_S_MIN), t->mb_s_min);
    put_num(r, dmk_csv_col_tail(DMK_COL_MB_S_MAX), t->mb_s_max);
    put_u64(r, dmk_csv_col_tail(DMK_COL_PARTIAL), t->partial ? 1 : 0);
    char flags[160];
    put_honest_test(r, t, flags, sizeof flags);
    put_directions(r, t, &t->score);
    put_share(r, t, &t->score);
    put_verify(r, &t->verify);
    end_row(r);
    for (uint32_t p = 0; p < t->n_passes; p++) {
        put_context(r, res, DMK_CSV_RECORD_PASS, t);
        put_u64(r, DMK_COL_PASS, p + 1);
        put_stats(r, &t->passes[p].total);
        put_directions(r, t, &t->passes[p]);
        put_share(r, t, &t->passes[p]);
        end_row(r);
    }
    for (size_t i = 0; i < t->n_samples; i++)
        write_sample(r, res, t, &t->samples[i]);
}

int dmk_csv_each_row(const DmkRunResult *r, DmkCsvRowFn emit, void *ctx, const char *path,
                     DmkError *err)
{
    Row *row = calloc(1, sizeof *row);
    /* A loaded result's findings are its file's: saving it again writes
     * the same bytes. */
    DmkLabFindings *found = malloc(sizeof *found);
    if (!found || !row) {
        free(row);
        free(found);
        return dmk_error_set(err, DMK_E_NOMEM, 0, "writing %s: out of memory", path);
    }
    row->emit = emit;
    row->ctx = ctx;
    dmk_lab_findings(r, found);
    for (size_t i = 0; i < r->n_tests; i++) {
        write_test_rows(row, r, &r->tests[i]);
        write_findings(row, r, found, i);
    }
    free(found);
    free(row);
    return DMK_OK;
}

int dmk_csv_write(FILE *f, const DmkRunResult *r, const char *path, DmkError *err)
{
    write_header(f);
    int rc = dmk_csv_each_row(r, write_row, f, path, err);
    if (rc != DMK_OK)
        return rc;
    if (fflush(f) != 0 || ferror(f))
        return dmk_error_errno(err, errno, "writing %s failed", path);
    return DMK_OK;
}
