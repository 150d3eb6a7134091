#include "dmk-csv.h"

#include <csv.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "dmk-size.h"

/* Columns before the statistics: the run's context, then the record. */
static const char *const head_cols[] = {
    "schema",     "version",      "record",         "date",          "target",   "file_system",
    "device",     "device_model", "capacity_bytes", "fs_free_bytes", "os",       "backend",
    "profile",    "test_size",    "passes",         "measure_s",     "warmup_s", "interval_s",
    "data",       "comment",      "complete",       "test",          "mode",     "pattern",
    "block_size", "queue_depth",  "threads",        "read_share",    "pass",     "t_s",
};
/* After the statistics: the score's spread, then per direction. */
static const char *const tail_cols[] = {
    "mb_s_median", "mb_s_min",          "mb_s_max",         "read_mb_s",
    "read_iops",   "read_lat_mean_us",  "read_lat_p99_us",  "write_mb_s",
    "write_iops",  "write_lat_mean_us", "write_lat_p99_us",
};
#define N_HEAD (sizeof head_cols / sizeof head_cols[0])
#define N_TAIL (sizeof tail_cols / sizeof tail_cols[0])

void dmk_csv_neutralise(const char *in, char *out, size_t len)
{
    bool risky = strchr("=+-@\t\r", in[0]) != NULL && in[0] != '\0';
    snprintf(out, len, "%s%s", risky ? "'" : "", in);
}

typedef struct {
    FILE *f;
    int col;
} Row;

static void cell_sep(Row *r)
{
    if (r->col++)
        fputc(',', r->f);
}

static void cell_text(Row *r, const char *s)
{
    char safe[1100];
    dmk_csv_neutralise(s, safe, sizeof safe);
    cell_sep(r);
    csv_fwrite(r->f, safe, strlen(safe));
}

static void cell_u64(Row *r, unsigned long long v)
{
    cell_sep(r);
    fprintf(r->f, "%llu", v);
}

static void cell_num(Row *r, double v, int decimals)
{
    char b[64];
    cell_sep(r);
    fputs(dmk_format_double(v, decimals, b, sizeof b), r->f);
}

static void cell_empty(Row *r, int n)
{
    for (int i = 0; i < n; i++)
        cell_sep(r);
}

static void end_row(Row *r)
{
    fputs("\r\n", r->f);
    r->col = 0;
}

static void write_header(FILE *f)
{
    Row r = {f, 0};
    for (size_t i = 0; i < N_HEAD; i++) {
        cell_sep(&r);
        fputs(head_cols[i], f);
    }
    for (size_t i = 0; i < dmk_stat_field_count; i++) {
        cell_sep(&r);
        fputs(dmk_stat_fields[i].name, f);
    }
    for (size_t i = 0; i < N_TAIL; i++) {
        cell_sep(&r);
        fputs(tail_cols[i], f);
    }
    end_row(&r);
}

/* schema .. comment, complete, and the test's identity. */
static void write_context(Row *r, const DmkRunResult *res, const char *record,
                          const DmkTestResult *t)
{
    const DmkTargetInfo *ti = &res->target;
    const DmkJob *j = &t->test.jobs[0];
    cell_u64(r, DMK_CSV_SCHEMA);
    cell_text(r, res->version);
    cell_text(r, record);
    cell_text(r, res->date);
    cell_text(r, ti->path);
    cell_text(r, ti->fs_type);
    cell_text(r, ti->device);
    cell_text(r, ti->model);
    cell_u64(r, ti->capacity_bytes);
    cell_u64(r, ti->fs_free_bytes);
    cell_text(r, res->os);
    cell_text(r, res->backend);
    cell_text(r, res->profile);
    cell_u64(r, res->size);
    cell_u64(r, res->passes);
    cell_num(r, res->measure_s, 3);
    cell_num(r, res->warmup_s, 3);
    cell_num(r, res->interval_s, 3);
    cell_text(r, dmk_data_name(res->data));
    cell_text(r, res->comment);
    cell_u64(r, res->complete ? 1 : 0);
    cell_text(r, t->test.name);
    cell_text(r, dmk_mode_name(t->test.mode));
    cell_text(r, dmk_pattern_name(j->pattern));
    cell_u64(r, j->block_size);
    cell_u64(r, j->queue_depth);
    cell_u64(r, dmk_test_threads(&t->test));
    cell_u64(r, j->read_share);
}

static void write_stats(Row *r, const DmkStats *s)
{
    for (size_t i = 0; i < dmk_stat_field_count; i++)
        cell_num(r, dmk_stat_get(s, &dmk_stat_fields[i]), dmk_stat_fields[i].decimals);
}

static void write_directions(Row *r, const DmkPassResult *p)
{
    const DmkStats *d[2] = {&p->read, &p->write};
    for (int i = 0; i < 2; i++) {
        cell_num(r, d[i]->mb_s, 3);
        cell_num(r, d[i]->iops, 2);
        cell_num(r, d[i]->lat_mean_us, 3);
        cell_num(r, d[i]->lat_p99_us, 3);
    }
}

static void write_test_rows(FILE *f, const DmkRunResult *res, const DmkTestResult *t)
{
    Row r = {f, 0};
    write_context(&r, res, "test", t);
    cell_u64(&r, t->best_pass + 1);
    cell_empty(&r, 1);
    write_stats(&r, &t->score.total);
    cell_num(&r, t->mb_s_median, 3);
    cell_num(&r, t->mb_s_min, 3);
    cell_num(&r, t->mb_s_max, 3);
    write_directions(&r, &t->score);
    end_row(&r);
    for (uint32_t p = 0; p < t->n_passes; p++) {
        write_context(&r, res, "pass", t);
        cell_u64(&r, p + 1);
        cell_empty(&r, 1);
        write_stats(&r, &t->passes[p].total);
        cell_empty(&r, 3);
        write_directions(&r, &t->passes[p]);
        end_row(&r);
    }
    for (size_t i = 0; i < t->n_samples; i++) {
        const DmkSample *s = &t->samples[i];
        DmkStats st = {.mb_s = s->mb_s, .iops = s->iops, .lat_mean_us = s->lat_mean_us};
        write_context(&r, res, "sample", t);
        cell_empty(&r, 1);
        cell_num(&r, s->t_s, 3);
        /* A sample has throughput and mean latency only; the rest stays empty. */
        for (size_t k = 0; k < dmk_stat_field_count; k++) {
            const DmkStatField *fd = &dmk_stat_fields[k];
            if (fd->offset == offsetof(DmkStats, mb_s) || fd->offset == offsetof(DmkStats, iops) ||
                fd->offset == offsetof(DmkStats, lat_mean_us))
                cell_num(&r, dmk_stat_get(&st, fd), fd->decimals);
            else
                cell_empty(&r, 1);
        }
        cell_empty(&r, (int)N_TAIL);
        end_row(&r);
    }
}

int dmk_csv_write(FILE *f, const DmkRunResult *r, const char *path, DmkError *err)
{
    write_header(f);
    for (size_t i = 0; i < r->n_tests; i++)
        write_test_rows(f, r, &r->tests[i]);
    if (fflush(f) != 0 || ferror(f))
        return dmk_error_errno(err, errno, "writing %s failed", path);
    return DMK_OK;
}
