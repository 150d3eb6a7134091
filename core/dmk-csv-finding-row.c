/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CSV reader's finding rows (schema 6): one figure of what the lab
 * analysis found ("cliff.cache", its value, its unit), kept after the
 * rows of the test its set is anchored at (dmk-lab-findings.h). The key,
 * the unit and the kind of the value come from the findings' tables; a
 * row the tables do not describe is refused with its line. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-csv-read-private.h"
#include "dmk-lab-findings.h"

/* Above anything the analysis can give from cells the reader takes
 * (bytes: at most 10^21 bytes/s for DMK_SECONDS_MAX, ~10^27), and short
 * enough a cell for the reader's numbers (dmk-csv-cells.c: under 80
 * characters): what is saved always loads again. */
#define FINDING_MAX 1e40
/* A count of samples or shares: no file has more rows than this. */
#define COUNT_MAX DMK_CSV_READ_MAX_ROWS

int dmk_csv_need_no_finding(DmkCsvReader *rd, const DmkCsvCells *c, const char *record)
{
    int rc = DMK_OK;
    for (size_t col = DMK_COL_FINDING; rc == DMK_OK && col <= DMK_COL_FINDING_UNIT; col++)
        rc = dmk_csv_need_empty(rd, c, col, record);
    return rc;
}

/* A finding row has its context, identity and finding: nothing else. */
static int need_only_finding(DmkCsvReader *rd, const DmkCsvCells *c)
{
    const size_t cols[] = {DMK_COL_PASS, DMK_COL_T_S, DMK_COL_TEMP_C};
    int rc = DMK_OK;
    for (size_t i = 0; rc == DMK_OK && i < sizeof cols / sizeof cols[0]; i++)
        rc = dmk_csv_need_empty(rd, c, cols[i], "finding");
    for (size_t k = 0; rc == DMK_OK && k < dmk_stat_field_count; k++)
        rc = dmk_csv_need_empty(rd, c, dmk_csv_col_stat(k), "finding");
    for (int k = 0; rc == DMK_OK && k < DMK_COL_N_TAIL; k++)
        rc = dmk_csv_need_empty(rd, c, dmk_csv_col_tail((DmkCsvTail)k), "finding");
    return rc;
}

/* The finding's key: one the tables know, not yet given for this test. */
static int read_key(DmkCsvReader *rd, const DmkCsvCells *c, const DmkTestResult *t,
                    DmkLabSetId *set, size_t *field)
{
    char key[96], q[80];
    int rc = dmk_csv_get_text(rd, c, DMK_COL_FINDING, key, sizeof key);
    if (rc != DMK_OK)
        return rc;
    if (!dmk_lab_finding_key(key, strlen(key), set, field))
        return dmk_csv_fail_cell(rd, DMK_COL_FINDING,
                                 "%s is not a finding this Drivemark knows (docs/results.md, "
                                 "\"Findings\", lists them)",
                                 dmk_csv_shown(key, strlen(key), q, sizeof q));
    for (size_t j = 0; j < t->n_findings; j++) {
        if (t->findings[j].set != *set || t->findings[j].field != *field)
            continue;
        unsigned long earlier = rd->finding_lines[rd->n_finding_lines - t->n_findings + j];
        return dmk_csv_fail_cell(rd, DMK_COL_FINDING,
                                 "%s appears twice for this test (also line %lu)",
                                 dmk_csv_shown(key, strlen(key), q, sizeof q), earlier);
    }
    return DMK_OK;
}

/* The unit cell says what the table (and the test's metric) says. */
static int read_unit(DmkCsvReader *rd, const DmkCsvCells *c, DmkLabUnit want)
{
    char unit[32], q[80];
    int rc = dmk_csv_get_text(rd, c, DMK_COL_FINDING_UNIT, unit, sizeof unit);
    if (rc != DMK_OK || strcmp(unit, dmk_lab_unit_name(want)) == 0)
        return rc;
    return dmk_csv_fail_cell(rd, DMK_COL_FINDING_UNIT, "%s where this finding is in '%s'",
                             dmk_csv_shown(unit, strlen(unit), q, sizeof q),
                             dmk_lab_unit_name(want));
}

/* The value as the field's kind: 0 or 1, a count, a figure or nothing
 * (not measured), a temperature that may be below 0. */
static int read_value(DmkCsvReader *rd, const DmkCsvCells *c, const DmkLabFindingField *fd,
                      double *out)
{
    uint64_t u = 0;
    size_t len;
    int rc;
    switch (fd->kind) {
    case DMK_LAB_FIELD_BOOL:
        rc = dmk_csv_get_uint(rd, c, DMK_COL_FINDING_VALUE, 0, 1, &u);
        *out = (double)u;
        return rc;
    case DMK_LAB_FIELD_COUNT:
        rc = dmk_csv_get_uint(rd, c, DMK_COL_FINDING_VALUE, 0, COUNT_MAX, &u);
        *out = (double)u;
        return rc;
    case DMK_LAB_FIELD_DOUBLE:
        break;
    }
    *out = NAN;
    dmk_csv_cell(rd, c, DMK_COL_FINDING_VALUE, &len);
    if (fd->unit == DMK_LAB_UNIT_C)
        return dmk_csv_get_temp(rd, c, DMK_COL_FINDING_VALUE, out);
    return len == 0 ? DMK_OK : dmk_csv_get_real(rd, c, DMK_COL_FINDING_VALUE, FINDING_MAX, out);
}

int dmk_csv_read_finding_row(DmkCsvReader *rd, const DmkCsvCells *c)
{
    DmkRunResult *r = rd->res;
    DmkTestResult *t = &r->tests[r->n_tests - 1];
    if (rd->file_col[DMK_COL_FINDING] < 0)
        return dmk_csv_fail_at(rd, rd->line, -1,
                               "a finding row in a file of an older schema (finding rows came "
                               "with schema 6)");
    if (!r->lab[0])
        return dmk_csv_fail_at(rd, rd->line, rd->file_col[DMK_COL_RECORD],
                               "a finding row in a file of no review-lab test (its lab column is "
                               "empty)");
    DmkLabSetId set;
    size_t field;
    double v = 0;
    int rc = need_only_finding(rd, c);
    if (rc == DMK_OK)
        rc = read_key(rd, c, t, &set, &field);
    if (rc != DMK_OK)
        return rc;
    const DmkLabFindingField *fd = &dmk_lab_set(set)->fields[field];
    rc = read_unit(rd, c, dmk_lab_unit_resolve(fd->unit, dmk_lab_metric(&t->test)));
    if (rc == DMK_OK)
        rc = read_value(rd, c, fd, &v);
    if (rc == DMK_OK &&
        (dmk_csv_grow((void **)&t->findings, &rd->cap_findings, t->n_findings + 1,
                      sizeof *t->findings) != DMK_OK ||
         dmk_csv_grow((void **)&rd->finding_lines, &rd->cap_finding_lines, rd->n_finding_lines + 1,
                      sizeof *rd->finding_lines) != DMK_OK))
        rc = dmk_csv_fail_at(rd, 0, -1, "out of memory");
    if (rc != DMK_OK)
        return rc;
    t->findings[t->n_findings++] = (DmkSavedFinding){(uint16_t)set, (uint16_t)field, v};
    rd->finding_lines[rd->n_finding_lines++] = rd->line;
    rd->in_findings = true;
    return DMK_OK;
}

/* Each row's set is one the lab's analysis anchors at that test: the
 * cache of a sustained write after its one test, a latency profile's
 * after its first step, and so on (dmk-lab-findings.h). */
int dmk_csv_check_findings(DmkCsvReader *rd)
{
    const DmkRunResult *r = rd->res;
    if (rd->n_finding_lines == 0)
        return DMK_OK;
    DmkLabFindings *found = malloc(sizeof *found);
    if (!found)
        return dmk_csv_fail_at(rd, 0, -1, "out of memory");
    dmk_lab_findings_computed(r, found);
    int rc = DMK_OK;
    for (size_t i = 0, k = 0; rc == DMK_OK && i < r->n_tests; i++) {
        const DmkTestResult *t = &r->tests[i];
        for (size_t j = 0; rc == DMK_OK && j < t->n_findings; j++, k++) {
            const DmkLabSetDesc *set = dmk_lab_set((DmkLabSetId)t->findings[j].set);
            if (dmk_lab_findings_at(found, set->id, i))
                continue;
            char name[80], label[80];
            rc = dmk_csv_fail_at(
                rd, rd->finding_lines[k], rd->file_col[DMK_COL_FINDING],
                "'%s.%s' follows test %zu (%s %s, label %s), but a %s result has no %s "
                "finding for that test",
                set->name, set->fields[t->findings[j].field].key, i + 1,
                dmk_csv_shown(t->test.name, strlen(t->test.name), name, sizeof name),
                dmk_mode_name(t->test.mode),
                dmk_csv_shown(t->test.label, strlen(t->test.label), label, sizeof label), r->lab,
                set->name);
        }
    }
    free(found);
    return rc;
}
