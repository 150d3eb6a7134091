/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-escape.h"
#include "dmk-lab-findings.h"
#include "dmk-size.h"

void dmk_json_string(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t left = strlen(str);
    fputc('"', f);
    while (*s) {
        /* the same test as the CSV writer's (dmk_utf8_valid_copy) */
        size_t n = dmk_utf8_len(s, left);
        left -= n ? n : 1;
        if (n == 0) {
            fputs("\\ufffd", f);
            s++;
        } else if (*s == '"' || *s == '\\') {
            fprintf(f, "\\%c", *s++);
        } else if (*s < 0x20) {
            fprintf(f, "\\u%04x", *s++);
        } else {
            fwrite(s, 1, n, f);
            s += n;
        }
    }
    fputc('"', f);
}

static void kv_str(FILE *f, const char *key, const char *v, const char *sep)
{
    fprintf(f, "%s\"%s\":", sep, key);
    dmk_json_string(f, v);
}

static void kv_num(FILE *f, const char *key, double v, int decimals, const char *sep)
{
    char b[64];
    fprintf(f, "%s\"%s\":%s", sep, key, dmk_format_double(v, decimals, b, sizeof b));
}

static void kv_u64(FILE *f, const char *key, unsigned long long v, const char *sep)
{
    fprintf(f, "%s\"%s\":%llu", sep, key, v);
}

/* A drive's temperature: null when there was no sensor (NaN), and for a
 * reading no drive gives (a sensor's misread). */
static void kv_temp(FILE *f, const char *key, double c, const char *sep)
{
    if (c >= DMK_TEMP_MIN_C && c <= DMK_TEMP_MAX_C)
        kv_num(f, key, c, 1, sep);
    else
        fprintf(f, "%s\"%s\":null", sep, key);
}

static void write_stats(FILE *f, const DmkStats *s)
{
    for (size_t i = 0; i < dmk_stat_field_count; i++) {
        const DmkStatField *fd = &dmk_stat_fields[i];
        kv_num(f, fd->name, dmk_stat_get(s, fd), fd->decimals, ",");
    }
    kv_u64(f, "ios", s->ios, ",");
    kv_u64(f, "bytes", s->bytes, ",");
}

/* A mixed test's achieved read share, beside the asked one (read_share):
 * percent of the completed I/Os that read; absent for other tests and
 * for a pass that completed nothing. */
static void write_share(FILE *f, const DmkTestResult *t, const DmkPassResult *p)
{
    double pct = dmk_pass_read_pct(p);
    if (t->test.mode == DMK_MODE_MIX && pct >= 0)
        kv_num(f, "read_share_achieved", pct, DMK_SHARE_DECIMALS, ",");
}

static void write_passes(FILE *f, const DmkTestResult *t)
{
    fputs(",\"passes\":[", f);
    for (uint32_t p = 0; p < t->n_passes; p++) {
        fprintf(f, "%s{\"pass\":%u", p ? "," : "", p + 1);
        write_stats(f, &t->passes[p].total);
        /* Only where the pass had a pause (results.md, "paused"). */
        if (t->passes[p].paused_s > 0)
            kv_num(f, "paused_s", t->passes[p].paused_s, 3, ",");
        write_share(f, t, &t->passes[p]);
        fputc('}', f);
    }
    fputc(']', f);
}

static void write_timeline(FILE *f, const DmkTestResult *t)
{
    if (!t->n_samples)
        return;
    fputs(",\"timeline\":[", f);
    for (size_t i = 0; i < t->n_samples; i++) {
        const DmkSample *s = &t->samples[i];
        kv_num(f, "t_s", s->t_s, 3, i ? ",{" : "{");
        kv_num(f, "mb_s", s->mb_s, 3, ",");
        kv_num(f, "iops", s->iops, 2, ",");
        kv_num(f, "lat_mean_us", s->lat_mean_us, 3, ",");
        kv_temp(f, "temp_c", s->temp_c, ",");
        if (t->test.keep_ios) /* one I/O of a surface scan's accesses: where it went */
            kv_u64(f, "offset", (unsigned long long)s->offset, ",");
        fputc('}', f);
    }
    fputc(']', f);
}

/* Honest numbers: the achieved queue depth and the flags' names. */
static void write_test_flags(FILE *f, const DmkTestResult *t)
{
    kv_num(f, "achieved_qd", t->achieved_qd, DMK_QD_DECIMALS, ",");
    fputs(",\"flags\":[", f);
    for (uint32_t bit = 1, n = 0; bit & DMK_FLAG_ALL; bit <<= 1)
        if (t->flags & bit)
            fprintf(f, "%s\"%s\"", n++ ? "," : "", dmk_flag_name(bit));
    fputc(']', f);
}

/* What the file system did to the test file, and the drive's link
 * (interface_mb_s 0: unknown, no check). */
static void write_target_flags(FILE *f, const DmkTargetInfo *ti)
{
    kv_str(f, "cow", dmk_fs_feature_name(ti->cow), ",");
    kv_str(f, "compression", dmk_fs_feature_name(ti->compression), ",");
    kv_str(f, "interface", ti->iface, ",");
    kv_num(f, "interface_mb_s", (double)ti->iface_bytes_s / 1e6, 1, ",");
    static const char *const storage[] = {"disk", "ram", "unknown"};
    kv_str(f, "storage", storage[(unsigned)ti->storage < 3 ? ti->storage : 2], ",");
    kv_str(f, "storage_note", ti->storage_note, ",");
    kv_str(f, "cache_note", ti->cache_note, ",");
}

/* What the verify option found: absent when it was off. */
static void write_verify(FILE *f, const DmkVerifyResult *v)
{
    if (!v->checked)
        return;
    kv_u64(f, "blocks", v->blocks, ",\"verify\":{");
    kv_u64(f, "bytes", v->bytes, ",");
    kv_u64(f, "bad", v->bad, ",");
    kv_u64(f, "skipped", v->skipped, ",");
    if (v->bad) {
        kv_u64(f, "first_bad_block", v->first_bad_block, ",");
        kv_u64(f, "first_bad_byte", v->first_bad_byte, ",");
        kv_str(f, "first_bad_why", dmk_verify_bad_key(v->first_bad_why), ",");
    }
    kv_num(f, "seconds", v->seconds, 3, ",");
    fputc('}', f);
}

static void write_test(FILE *f, const DmkTestResult *t)
{
    const DmkJob *j = &t->test.jobs[0];
    kv_str(f, "test", t->test.name, "{");
    kv_str(f, "label", t->test.label, ",");
    kv_str(f, "mode", dmk_mode_name(t->test.mode), ",");
    kv_str(f, "pattern", dmk_pattern_name(j->pattern), ",");
    kv_u64(f, "block_size", j->block_size, ",");
    kv_u64(f, "queue_depth", j->queue_depth, ",");
    kv_u64(f, "threads", dmk_test_threads(&t->test), ",");
    kv_u64(f, "read_share", j->read_share, ",");
    kv_u64(f, "rate_iops", t->test.rate_iops, ",");
    if (t->test.spread_count) /* a surface sample: its place */
        kv_u64(f, "offset", t->test.region_offset, ",");
    write_stats(f, &t->score.total);
    kv_num(f, "mb_s_median", t->mb_s_median, 3, ",");
    kv_num(f, "mb_s_min", t->mb_s_min, 3, ",");
    kv_num(f, "mb_s_max", t->mb_s_max, 3, ",");
    kv_u64(f, "best_pass", t->best_pass + 1, ",");
    fprintf(f, ",\"partial\":%s", t->partial ? "true" : "false");
    write_test_flags(f, t);
    write_share(f, t, &t->score);
    if (t->test.mode == DMK_MODE_MIX) {
        fputs(",\"read\":{\"direction\":\"read\"", f);
        write_stats(f, &t->score.read);
        fputs("},\"write\":{\"direction\":\"write\"", f);
        write_stats(f, &t->score.write);
        fputc('}', f);
    }
    write_passes(f, t);
    write_timeline(f, t);
    write_verify(f, &t->verify);
    fputc('}', f);
}

static void write_context(FILE *f, const DmkRunResult *r)
{
    const DmkTargetInfo *ti = &r->target;
    /* 2: a lab result's "findings" */
    fputs("{\"schema\":\"drivemark-result\",\"schema_version\":2", f);
    kv_str(f, "version", r->version, ",");
    fprintf(f, ",\"complete\":%s", r->complete ? "true" : "false");
    kv_str(f, "date", r->date, ",");
    kv_str(f, "os", r->os, ",");
    kv_str(f, "backend", r->backend, ",");
    kv_str(f, "profile", r->profile, ",");
    kv_str(f, "sweep", r->sweep, ",");
    kv_str(f, "lab", r->lab, ",");
    kv_str(f, "comment", r->comment, ",");
    kv_str(f, "lab_note", r->lab_note, ",");
    kv_str(f, "target", ti->path, ",");
    kv_str(f, "target_kind", ti->is_device ? "device" : "directory", ",");
    kv_str(f, "file_system", ti->fs_type, ",");
    kv_str(f, "mount_point", ti->mount_point, ",");
    kv_str(f, "device", ti->device, ",");
    kv_str(f, "device_model", ti->model, ",");
    kv_str(f, "temp_sensor", ti->temp_sensor, ",");
    /* Online discard: 1 or 0, null when the platform could not tell. */
    if (ti->discard == 0 || ti->discard == 1)
        kv_u64(f, "discard", (unsigned long long)ti->discard, ",");
    else
        fputs(",\"discard\":null", f);
    write_target_flags(f, ti);
    kv_u64(f, "capacity_bytes", ti->capacity_bytes, ",");
    kv_u64(f, "fs_size_bytes", ti->fs_size_bytes, ",");
    kv_u64(f, "fs_free_bytes", ti->fs_free_bytes, ",");
    kv_u64(f, "test_size", r->size, ",");
    kv_u64(f, "passes", r->passes, ",");
    kv_num(f, "measure_s", r->measure_s, 3, ",");
    kv_num(f, "warmup_s", r->warmup_s, 3, ",");
    kv_num(f, "interval_s", r->interval_s, 3, ",");
    kv_str(f, "data", dmk_data_name(r->data), ",");
    DmkVerifyResult sum;
    dmk_run_result_verify(r, &sum);
    write_verify(f, &sum);
}

/* One set of lab findings: its test (1-based, in "results"), then each
 * field of its table, the unit in the key ("cache_bytes", "after_iops"). */
static void write_finding(FILE *f, const DmkLabFinding *fd, const char *sep)
{
    const DmkLabSetDesc *set = dmk_lab_set(fd->set);
    kv_u64(f, "test", fd->test + 1, sep);
    for (size_t i = 0; i < set->n_fields; i++) {
        const DmkLabFindingField *field = &set->fields[i];
        const char *unit = dmk_lab_unit_name(dmk_lab_finding_unit(fd, i));
        char key[96], cell[400];
        snprintf(key, sizeof key, "%s%s%s", field->key, unit[0] ? "_" : "", unit);
        double v = dmk_lab_finding_get(fd, i);
        if (field->kind == DMK_LAB_FIELD_BOOL)
            fprintf(f, ",\"%s\":%s", key, v != 0 ? "true" : "false");
        else if (!isfinite(v))
            fprintf(f, ",\"%s\":null", key);
        else
            fprintf(f, ",\"%s\":%s", key, dmk_lab_finding_cell(fd, i, cell, sizeof cell));
    }
    fputc('}', f);
}

/* A lab result's findings, as its CSV keeps them: per kind of set (the
 * findings' tables: "cliff", "latency" ...) the list of its sets. */
static int write_findings(FILE *f, const DmkRunResult *r)
{
    if (!r->lab[0])
        return DMK_OK;
    DmkLabFindings *found = malloc(sizeof *found);
    if (!found)
        return DMK_E_NOMEM;
    dmk_lab_findings(r, found);
    fputs(",\"findings\":{", f);
    for (size_t s = 0, groups = 0; s < DMK_LAB_N_SETS; s++) {
        size_t n = 0;
        for (size_t k = 0; k < found->n; k++) {
            if (found->f[k].set != (DmkLabSetId)s)
                continue;
            if (n == 0)
                fprintf(f, "%s\"%s\":[", groups++ ? "," : "", dmk_lab_set((DmkLabSetId)s)->name);
            write_finding(f, &found->f[k], n++ ? ",{" : "{");
        }
        if (n)
            fputc(']', f);
    }
    fputc('}', f);
    free(found);
    return DMK_OK;
}

int dmk_json_write(FILE *f, const DmkRunResult *r, const char *path, DmkError *err)
{
    write_context(f, r);
    fputs(",\"results\":[", f);
    for (size_t i = 0; i < r->n_tests; i++) {
        if (i)
            fputc(',', f);
        write_test(f, &r->tests[i]);
    }
    fputc(']', f);
    if (write_findings(f, r) != DMK_OK)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "writing %s: out of memory", path);
    fputs("}\n", f);
    if (fflush(f) != 0 || ferror(f))
        return dmk_error_errno(err, errno, "writing %s failed", path);
    return DMK_OK;
}
