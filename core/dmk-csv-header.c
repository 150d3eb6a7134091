/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CSV reader's header row: each name mapped to the column table, and
 * the whole checked against the columns of the schema the first row
 * names (dmk-csv-private.h: a column has the schema that added it). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dmk-csv-read-private.h"

static int find_column(const char *name, size_t len)
{
    size_t n = dmk_csv_column_count();
    for (size_t i = 0; i < n; i++) {
        const char *cn = dmk_csv_column(i).name;
        if (strlen(cn) == len && memcmp(cn, name, len) == 0)
            return (int)i;
    }
    return -1;
}

/* Maps the header's names to the table; which schema the columns must
 * match is known only from the first row (a newer schema's header may
 * differ, and its number is the better message). */
int dmk_csv_read_header(DmkCsvReader *rd, const DmkCsvCells *c)
{
    char q[80];
    for (size_t i = 0; i < DMK_CSV_MAX_COLUMNS; i++)
        rd->file_col[i] = rd->table_col[i] = -1;
    rd->n_cols = c->n;
    rd->header_line = rd->line;
    rd->have_header = true;
    if (dmk_csv_cells_copy(&rd->header, c) != DMK_OK)
        return dmk_csv_fail_at(rd, 0, -1, "out of memory");
    for (size_t f = 0; f < c->n; f++) {
        int t = find_column(c->buf + c->off[f], c->len[f]);
        rd->table_col[f] = t;
        if (t >= 0 && rd->file_col[t] >= 0)
            return dmk_csv_fail_at(rd, rd->line, (int)f, "column %s appears twice (also column %d)",
                                   dmk_csv_shown(c->buf + c->off[f], c->len[f], q, sizeof q),
                                   rd->file_col[t] + 1);
        if (t >= 0)
            rd->file_col[t] = (int)f;
    }
    if (rd->file_col[DMK_COL_SCHEMA] < 0)
        return dmk_csv_fail_at(rd, rd->line, -1,
                               "no 'schema' column in the header: not a Drivemark result file");
    return DMK_OK;
}

/* The header against schema's columns: none unknown, none missing. */
int dmk_csv_check_header(DmkCsvReader *rd, int schema)
{
    char q[80], missing[400] = "";
    const DmkCsvCells *h = &rd->header;
    for (size_t f = 0; f < rd->n_cols; f++) {
        int t = rd->table_col[f];
        if (t < 0 || dmk_csv_column((size_t)t).since > schema)
            return dmk_csv_fail_at(
                rd, rd->header_line, (int)f, "unknown column %s in a schema %d file",
                dmk_csv_shown(h->buf + h->off[f], h->len[f], q, sizeof q), schema);
    }
    size_t n = dmk_csv_column_count(), n_missing = 0;
    for (size_t i = 0; i < n; i++) {
        DmkCsvColumn col = dmk_csv_column(i);
        if (col.since > schema || rd->file_col[i] >= 0)
            continue;
        size_t u = strlen(missing);
        if (n_missing++ < 8)
            snprintf(missing + u, sizeof missing - u, "%s%s", u ? ", " : "", col.name);
    }
    if (n_missing > 8) {
        size_t u = strlen(missing);
        snprintf(missing + u, sizeof missing - u, " ... (%zu in all)", n_missing);
    }
    if (missing[0])
        return dmk_csv_fail_at(rd, rd->header_line, -1, "the header lacks the column(s) %s",
                               missing);
    return DMK_OK;
}

/* The schema a header without rows seems to be: the newest of its columns. */
int dmk_csv_header_schema(const DmkCsvReader *rd)
{
    int schema = 1;
    for (size_t f = 0; f < rd->n_cols; f++) {
        int t = rd->table_col[f];
        if (t >= 0 && dmk_csv_column((size_t)t).since > schema)
            schema = dmk_csv_column((size_t)t).since;
    }
    return schema;
}

int dmk_csv_read_schema(DmkCsvReader *rd, const DmkCsvCells *c)
{
    uint64_t v;
    int rc = dmk_csv_get_uint(rd, c, DMK_COL_SCHEMA, 0, UINT64_MAX, &v);
    if (rc != DMK_OK)
        return rc;
    if (v < 1 || v > DMK_CSV_SCHEMA)
        return dmk_csv_fail_cell(
            rd, DMK_COL_SCHEMA,
            "schema %llu is not supported: this Drivemark reads schemas 1 to %d "
            "(a newer Drivemark wrote the file?)",
            (unsigned long long)v, DMK_CSV_SCHEMA);
    rd->schema = (int)v;
    return dmk_csv_check_header(rd, (int)v);
}
