/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CSV reader's run context: the columns every row repeats (the run's
 * date, target, drive, settings, ...), read from the first row into the
 * result, and checked to be the same on every later row. */
#include <stdint.h>
#include <string.h>

#include "dmk-csv-read-private.h"
#include "dmk-lab.h"
#include "dmk-platform.h"
#include "dmk-sweep.h"

/* A link's limit in MB/s: kept in bytes/s as a uint64_t, so at most
 * 1e12 MB/s (1e18 bytes/s, under 2^64; the fastest links carry ~1e5). */
#define IFACE_MB_S_MAX 1e12

/* The lab test's name is one dmk-lab.h knows, or "" for an ordinary run. */
static int read_lab(DmkCsvReader *rd, const DmkCsvCells *c)
{
    /* "" and every test's name, the count from the tests' table. */
    const char *labs[DMK_LAB_MAX_TESTS + 2] = {""};
    size_t n = dmk_lab_test_count();
    for (size_t i = 0; i < n && i < DMK_LAB_MAX_TESTS; i++)
        labs[i + 1] = dmk_lab_test_at(i)->name;
    int k;
    return dmk_csv_get_choice(rd, c, DMK_COL_LAB, labs, &k);
}

static int read_context_text(DmkCsvReader *rd, const DmkCsvCells *c)
{
    DmkRunResult *r = rd->res;
    DmkTargetInfo *ti = &r->target;
    const struct {
        size_t col;
        char *dst;
        size_t cap;
    } texts[] = {
        {DMK_COL_VERSION, r->version, sizeof r->version},
        {DMK_COL_DATE, r->date, sizeof r->date},
        {DMK_COL_TARGET, ti->path, sizeof ti->path},
        {DMK_COL_FILE_SYSTEM, ti->fs_type, sizeof ti->fs_type},
        {DMK_COL_DEVICE, ti->device, sizeof ti->device},
        {DMK_COL_DEVICE_MODEL, ti->model, sizeof ti->model},
        {DMK_COL_TEMP_SENSOR, ti->temp_sensor, sizeof ti->temp_sensor},
        {DMK_COL_OS, r->os, sizeof r->os},
        {DMK_COL_BACKEND, r->backend, sizeof r->backend},
        {DMK_COL_PROFILE, r->profile, sizeof r->profile},
        {DMK_COL_SWEEP, r->sweep, sizeof r->sweep},
        {DMK_COL_LAB, r->lab, sizeof r->lab},
        {DMK_COL_COMMENT, r->comment, sizeof r->comment},
        {DMK_COL_LAB_NOTE, r->lab_note, sizeof r->lab_note},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (rd->file_col[texts[i].col] < 0)
            continue; /* a column of a later schema: "sweep" of a schema 1 file */
        int rc = dmk_csv_get_text(rd, c, texts[i].col, texts[i].dst, texts[i].cap);
        if (rc != DMK_OK)
            return rc;
    }
    /* The file keeps no target kind of its own: a device's file system
     * column says so (JSON has "target_kind"). */
    ti->is_device = strcmp(ti->fs_type, DMK_FS_TYPE_DEVICE) == 0;
    const char *const sweeps[] = {"", dmk_sweep_name(DMK_SWEEP_QD), dmk_sweep_name(DMK_SWEEP_BS),
                                  NULL};
    int k;
    int rc = rd->file_col[DMK_COL_SWEEP] < 0 ? DMK_OK
                                             : dmk_csv_get_choice(rd, c, DMK_COL_SWEEP, sweeps, &k);
    return rc != DMK_OK || rd->file_col[DMK_COL_LAB] < 0 ? rc : read_lab(rd, c);
}

/* Schema 4: copy-on-write, compression and the link; older files say
 * nothing of them (none, unknown link). */
static int read_honest_context(DmkCsvReader *rd, const DmkCsvCells *c)
{
    const char *const states[] = {dmk_fs_feature_name(DMK_FS_FEATURE_NONE),
                                  dmk_fs_feature_name(DMK_FS_FEATURE_OFF),
                                  dmk_fs_feature_name(DMK_FS_FEATURE_ACTIVE), NULL};
    DmkTargetInfo *ti = &rd->res->target;
    int cow = 0, z = 0;
    double mb = 0;
    if (rd->file_col[DMK_COL_COW] < 0)
        return DMK_OK;
    int rc = dmk_csv_get_choice(rd, c, DMK_COL_COW, states, &cow);
    if (rc == DMK_OK)
        rc = dmk_csv_get_choice(rd, c, DMK_COL_COMPRESSION, states, &z);
    if (rc == DMK_OK)
        rc = dmk_csv_get_text(rd, c, DMK_COL_INTERFACE, ti->iface, sizeof ti->iface);
    if (rc == DMK_OK)
        rc = rd->schema >= DMK_CSV_SCHEMA_EMPTY_NA &&
                     dmk_csv_cell_empty(rd, c, DMK_COL_INTERFACE_MB_S)
                 ? DMK_OK /* an unknown link (schema 7) */
                 : dmk_csv_get_real(rd, c, DMK_COL_INTERFACE_MB_S, IFACE_MB_S_MAX, &mb);
    ti->cow = (DmkFsFeature)cow;
    ti->compression = (DmkFsFeature)z;
    /* Only a value that passed its range check becomes bytes/s: a
     * refused one may be far past what a uint64_t holds. */
    ti->iface_bytes_s = rc == DMK_OK ? (uint64_t)(mb * 1e6 + 0.5) : 0;
    return rc;
}

int dmk_csv_read_context(DmkCsvReader *rd, const DmkCsvCells *c)
{
    const char *const datas[] = {dmk_data_name(DMK_DATA_RANDOM), dmk_data_name(DMK_DATA_ZERO),
                                 NULL};
    DmkRunResult *r = rd->res;
    uint64_t complete = 0;
    int data = 0;
    int rc = dmk_csv_read_schema(rd, c);
    if (rc == DMK_OK)
        rc = read_context_text(rd, c);
    if (rc == DMK_OK)
        rc = dmk_csv_get_uint_or_empty(rd, c, DMK_COL_CAPACITY, 0, UINT64_MAX,
                                       &r->target.capacity_bytes);
    /* Schema 5; an older file does not know the size (0: not shown). */
    if (rc == DMK_OK && rd->file_col[DMK_COL_FS_SIZE] >= 0)
        rc = dmk_csv_get_uint_or_empty(rd, c, DMK_COL_FS_SIZE, 0, UINT64_MAX,
                                       &r->target.fs_size_bytes);
    if (rc == DMK_OK)
        rc = dmk_csv_get_uint_or_empty(rd, c, DMK_COL_FS_FREE, 0, UINT64_MAX,
                                       &r->target.fs_free_bytes);
    /* A lab run may span a whole drive; read_context_text read `lab`. */
    if (rc == DMK_OK)
        rc = dmk_csv_get_uint(rd, c, DMK_COL_TEST_SIZE, 1,
                              r->lab[0] ? DMK_LAB_SIZE_MAX : DMK_SIZE_MAX, &r->size);
    if (rc == DMK_OK)
        rc = dmk_csv_get_u32(rd, c, DMK_COL_PASSES, 1, DMK_PASSES_MAX, &r->passes);
    if (rc == DMK_OK)
        rc = dmk_csv_get_real(rd, c, DMK_COL_MEASURE, DMK_SECONDS_MAX, &r->measure_s);
    if (rc == DMK_OK)
        rc = dmk_csv_get_real(rd, c, DMK_COL_WARMUP, DMK_SECONDS_MAX, &r->warmup_s);
    if (rc == DMK_OK)
        rc = dmk_csv_get_real(rd, c, DMK_COL_INTERVAL, DMK_SECONDS_MAX, &r->interval_s);
    if (rc == DMK_OK)
        rc = dmk_csv_get_choice(rd, c, DMK_COL_DATA, datas, &data);
    if (rc == DMK_OK)
        rc = dmk_csv_get_uint(rd, c, DMK_COL_COMPLETE, 0, 1, &complete);
    r->data = (DmkDataKind)data; /* datas[] is in DmkDataKind's order */
    r->complete = complete == 1;
    r->target.discard = -1; /* the file does not say */
    if (rc == DMK_OK)
        rc = read_honest_context(rd, c);
    return rc;
}

/* Every row repeats the first row's context: a file holds one run. */
int dmk_csv_check_context(DmkCsvReader *rd, const DmkCsvCells *c)
{
    char q[80], q2[80];
    size_t len, len2;
    for (size_t col = 0; col <= DMK_COL_LAST_CONTEXT; col++) {
        if (col == DMK_COL_RECORD || rd->file_col[col] < 0 ||
            dmk_csv_same_cell(rd, c, &rd->first, col))
            continue;
        const char *s = dmk_csv_cell(rd, c, col, &len),
                   *s2 = dmk_csv_cell(rd, &rd->first, col, &len2);
        return dmk_csv_fail_cell(rd, col, "%s differs from %s on line %lu: a file holds one run",
                                 dmk_csv_shown(s, len, q, sizeof q),
                                 dmk_csv_shown(s2, len2, q2, sizeof q2), rd->first_line);
    }
    return DMK_OK;
}
