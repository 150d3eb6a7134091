/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dmk-csv: the CSV result file, read back with libcsv's strict parser. */
#include "dmk-test.h"
#include "dmk-test-lab.h"
#include "dmk-test-result.h"
#include "dmk-test-scratch.h"

#include <csv.h>
#include <locale.h>

#include "dmk-csv.h"
#include "dmk-platform.h"

#define MAX_ROWS   16
#define MAX_FIELDS 96

typedef struct {
    int n_rows;
    int n_fields[MAX_ROWS];
    char *field[MAX_ROWS][MAX_FIELDS];
    int overflow;
} Table;

static void on_field(void *s, size_t len, void *data)
{
    Table *t = data;
    if (t->n_rows >= MAX_ROWS || t->n_fields[t->n_rows] >= MAX_FIELDS) {
        t->overflow = 1;
        return;
    }
    char *copy = malloc(len + 1);
    memcpy(copy, s, len);
    copy[len] = '\0';
    t->field[t->n_rows][t->n_fields[t->n_rows]++] = copy;
}

static void on_row(int c, void *data)
{
    (void)c;
    Table *t = data;
    if (t->n_rows >= MAX_ROWS) {
        t->overflow = 1;
        return;
    }
    t->n_rows++;
}

static void table_free(Table *t)
{
    for (int r = 0; r < MAX_ROWS; r++)
        for (int f = 0; f < MAX_FIELDS; f++)
            free(t->field[r][f]);
    memset(t, 0, sizeof *t);
}

/* Parses text strictly; returns 0 when libcsv accepted all of it. */
static int parse(const char *text, Table *t)
{
    struct csv_parser p;
    memset(t, 0, sizeof *t);
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0)
        return -1;
    size_t len = strlen(text);
    int rc = 0;
    if (csv_parse(&p, text, len, on_field, on_row, t) != len) {
        printf("# libcsv: %s\n", csv_strerror(csv_error(&p)));
        rc = -1;
    }
    if (csv_fini(&p, on_field, on_row, t) != 0) {
        printf("# libcsv at the end: %s\n", csv_strerror(csv_error(&p)));
        rc = -1;
    }
    csv_free(&p);
    return t->overflow ? -1 : rc;
}

static int column(const Table *t, const char *name)
{
    for (int f = 0; f < t->n_fields[0]; f++)
        if (strcmp(t->field[0][f], name) == 0)
            return f;
    printf("# no column %s\n", name);
    return -1;
}

/* The cell of row `row` in column `name`, "<none>" when absent. */
static const char *cell(const Table *t, int row, const char *name)
{
    int f = column(t, name);
    if (f < 0 || row >= t->n_rows || f >= t->n_fields[row] || !t->field[row][f])
        return "<none>";
    return t->field[row][f];
}

static char *write_csv(const DmkRunResult *r)
{
    return dmk_scratch_write("test-csv.csv", dmk_csv_write, r, NULL);
}

static void test_line_endings_and_header(void)
{
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[2];
    dmk_test_build_result(&r, &t, passes, samples, "plain comment");
    char *s = write_csv(&r);
    DMK_CHECK(s != NULL);
    if (!s)
        return;
    size_t len = strlen(s);
    DMK_CHECK(len > 2 && s[len - 2] == '\r' && s[len - 1] == '\n');
    long bare_lf = 0, lines = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\n') {
            lines++;
            if (i == 0 || s[i - 1] != '\r')
                bare_lf++;
        }
    }
    DMK_CHECK_INT(bare_lf, 0);
    DMK_CHECK_INT(lines, 6); /* header, test, 2 passes, 2 samples */

    const char *prefix = "schema,version,record,date,target,";
    DMK_CHECK(strncmp(s, prefix, strlen(prefix)) == 0);
    char *eol = strstr(s, "\r\n");
    DMK_CHECK(eol != NULL);
    if (eol) {
        *eol = '\0';
        /* whole names between commas */
        static const char *cols[] = {
            "test",        "mode",      "block_size",  "queue_depth", "threads",    "mb_s",
            "mb_s_median", "iops",      "lat_mean_us", "lat_p99_us",  "read_share", "pass",
            "t_s",         "comment",   "complete",    "lab",         "lab_note",   "temp_sensor",
            "label",       "rate_iops", "partial",     "temp_c"};
        for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
            char needle[64];
            snprintf(needle, sizeof needle, ",%s,", cols[i]);
            if (!strstr(s, needle))
                printf("# header lacks %s\n", cols[i]);
            DMK_CHECK(strstr(s, needle) != NULL);
        }
        DMK_CHECK(strchr(s, '"') == NULL); /* plain names, no quoting needed */
    }
    free(s);
}

static void test_rows(void)
{
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[2];
    dmk_test_build_result(&r, &t, passes, samples, "=1+2");
    char *s = write_csv(&r);
    if (!s)
        return;
    Table tb;
    DMK_CHECK_INT(parse(s, &tb), 0);
    DMK_CHECK_INT(tb.n_rows, 6);
    int header = tb.n_fields[0];
    /* head, statistics, tail; schema 3 added 6 head columns and 1 tail, schema 4 the
     * honest-number columns (4 head, 2 tail) and the verify tail (7), schema 5
     * fs_size_bytes (1 head), schema 6 the finding rows' finding, value and unit (3 head)
     * and read_share_achieved (1 tail), schema 8 offset (1 head) */
    DMK_CHECK_INT(header, 46 + 11 + 22);
    for (int row = 1; row < tb.n_rows; row++) {
        if (tb.n_fields[row] != header)
            printf("# row %d has %d fields, the header %d\n", row, tb.n_fields[row], header);
        DMK_CHECK_INT(tb.n_fields[row], header);
    }
    if (tb.n_rows != 6) {
        table_free(&tb);
        free(s);
        return;
    }
    static const char *records[] = {"record", "test", "pass", "pass", "sample", "sample"};
    for (int row = 0; row < 6; row++) {
        DMK_CHECK_STR(cell(&tb, row, "record"), records[row]);
        if (row == 0)
            continue;
        /* the context on every row */
        DMK_CHECK_STR(cell(&tb, row, "schema"), "8");
        DMK_CHECK_STR(cell(&tb, row, "sweep"), "");
        /* an ordinary run: the lab's columns say nothing */
        DMK_CHECK_STR(cell(&tb, row, "lab"), "");
        DMK_CHECK_STR(cell(&tb, row, "lab_note"), "");
        DMK_CHECK_STR(cell(&tb, row, "temp_sensor"), "");
        DMK_CHECK_STR(cell(&tb, row, "label"), "");
        DMK_CHECK_STR(cell(&tb, row, "rate_iops"), ""); /* no rate asked: empty, not 0 */
        DMK_CHECK_STR(cell(&tb, row, "temp_c"), "");    /* no sensor: NaN is empty, not 0 */
        DMK_CHECK_STR(cell(&tb, row, "partial"), row == 1 ? "0" : "");
        DMK_CHECK_STR(cell(&tb, row, "version"), "0.1.0");
        DMK_CHECK_STR(cell(&tb, row, "date"), "2026-11-30T06:35:13Z");
        DMK_CHECK_STR(cell(&tb, row, "target"), "/mnt/data, with a comma");
        DMK_CHECK_STR(cell(&tb, row, "file_system"), "ext4");
        DMK_CHECK_STR(cell(&tb, row, "device"), "");
        DMK_CHECK_STR(cell(&tb, row, "device_model"), "Samsung SSD 970 EVO Plus 1TB");
        DMK_CHECK_STR(cell(&tb, row, "capacity_bytes"), "1000204886016");
        DMK_CHECK_STR(cell(&tb, row, "fs_free_bytes"), "123456789");
        DMK_CHECK_STR(cell(&tb, row, "os"), "Linux 6.1.0 x86_64");
        /* pandas reads a bare null as missing (its na_values) */
        DMK_CHECK_STR(cell(&tb, row, "backend"), "'null");
        DMK_CHECK_STR(cell(&tb, row, "profile"), "default");
        DMK_CHECK_STR(cell(&tb, row, "test_size"), "1073741824");
        DMK_CHECK_STR(cell(&tb, row, "passes"), "2");
        DMK_CHECK_STR(cell(&tb, row, "measure_s"), "5.000");
        DMK_CHECK_STR(cell(&tb, row, "warmup_s"), "2.500");
        DMK_CHECK_STR(cell(&tb, row, "interval_s"), "0.000");
        DMK_CHECK_STR(cell(&tb, row, "data"), "zero");
        DMK_CHECK_STR(cell(&tb, row, "comment"), "'=1+2"); /* neutralised */
        DMK_CHECK_STR(cell(&tb, row, "complete"), "1");
        DMK_CHECK_STR(cell(&tb, row, "test"), "RND4K Q32T1");
        DMK_CHECK_STR(cell(&tb, row, "mode"), "mix");
        DMK_CHECK_STR(cell(&tb, row, "pattern"), "rnd");
        DMK_CHECK_STR(cell(&tb, row, "block_size"), "4096");
        DMK_CHECK_STR(cell(&tb, row, "queue_depth"), "32");
        DMK_CHECK_STR(cell(&tb, row, "threads"), "1");
        DMK_CHECK_STR(cell(&tb, row, "read_share"), "70");
        /* the achieved share on the test row and the pass rows (schema 6) */
        DMK_CHECK_STR(cell(&tb, row, "read_share_achieved"), row <= 3 ? "70.000" : "");
    }
    /* the test's summary: the score (pass 2) and the spread */
    DMK_CHECK_STR(cell(&tb, 1, "pass"), "2");
    DMK_CHECK_STR(cell(&tb, 1, "t_s"), "");
    DMK_CHECK_STR(cell(&tb, 1, "mb_s"), "163.840");
    DMK_CHECK_STR(cell(&tb, 1, "iops"), "40000.00");
    DMK_CHECK_STR(cell(&tb, 1, "lat_mean_us"), "799.750");
    DMK_CHECK_STR(cell(&tb, 1, "lat_p99_us"), "1234.568");
    DMK_CHECK_STR(cell(&tb, 1, "mb_s_median"), "122.880");
    DMK_CHECK_STR(cell(&tb, 1, "mb_s_min"), "81.920");
    DMK_CHECK_STR(cell(&tb, 1, "mb_s_max"), "163.840");
    DMK_CHECK_STR(cell(&tb, 1, "read_mb_s"), "114.688");
    DMK_CHECK_STR(cell(&tb, 1, "read_iops"), "28000.00");
    DMK_CHECK_STR(cell(&tb, 1, "read_lat_mean_us"), "800.500");
    DMK_CHECK_STR(cell(&tb, 1, "read_lat_p99_us"), "1300.000");
    DMK_CHECK_STR(cell(&tb, 1, "write_mb_s"), "49.152");
    DMK_CHECK_STR(cell(&tb, 1, "write_iops"), "12000.00");
    DMK_CHECK_STR(cell(&tb, 1, "write_lat_mean_us"), "797.250");
    DMK_CHECK_STR(cell(&tb, 1, "write_lat_p99_us"), "1100.000");
    /* each pass */
    DMK_CHECK_STR(cell(&tb, 2, "pass"), "1");
    DMK_CHECK_STR(cell(&tb, 2, "mb_s"), "81.920");
    DMK_CHECK_STR(cell(&tb, 2, "lat_p99_us"), "3000.250");
    DMK_CHECK_STR(cell(&tb, 2, "mb_s_median"), "");
    DMK_CHECK_STR(cell(&tb, 2, "read_mb_s"), "57.344");
    DMK_CHECK_STR(cell(&tb, 2, "write_lat_p99_us"), "2900.000");
    DMK_CHECK_STR(cell(&tb, 3, "pass"), "2");
    DMK_CHECK_STR(cell(&tb, 3, "mb_s"), "163.840");
    DMK_CHECK_STR(cell(&tb, 3, "iops"), "40000.00");
    DMK_CHECK_STR(cell(&tb, 3, "t_s"), "");
    /* each timeline sample */
    DMK_CHECK_STR(cell(&tb, 4, "pass"), "");
    DMK_CHECK_STR(cell(&tb, 4, "t_s"), "0.500");
    DMK_CHECK_STR(cell(&tb, 4, "mb_s"), "100.000");
    DMK_CHECK_STR(cell(&tb, 4, "iops"), "24414.06");
    DMK_CHECK_STR(cell(&tb, 4, "lat_mean_us"), "5.500");
    DMK_CHECK_STR(cell(&tb, 4, "lat_p99_us"), "");
    DMK_CHECK_STR(cell(&tb, 4, "mb_s_median"), "");
    DMK_CHECK_STR(cell(&tb, 4, "read_mb_s"), "");
    DMK_CHECK_STR(cell(&tb, 5, "t_s"), "1.000");
    DMK_CHECK_STR(cell(&tb, 5, "mb_s"), "200.000");
    DMK_CHECK_STR(cell(&tb, 5, "iops"), "48828.13");
    DMK_CHECK_STR(cell(&tb, 5, "lat_mean_us"), "2.250");
    /* the raw text carries the neutralised comment quoted */
    DMK_CHECK(strstr(s, "\"'=1+2\"") != NULL);
    DMK_CHECK(strstr(s, ",=1+2") == NULL && strstr(s, "\"=1+2") == NULL);
    table_free(&tb);
    free(s);
}

/* Quotes, commas and line breaks in text survive a round trip. */
static void test_text_round_trip(void)
{
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[2];
    const char *comment = "say \"hi\", then\r\nleave; caf\xc3\xa9";
    dmk_test_build_result(&r, &t, passes, samples, comment);
    t.n_samples = 0;
    t.test.mode = DMK_MODE_READ;
    char *s = write_csv(&r);
    if (!s)
        return;
    Table tb;
    DMK_CHECK_INT(parse(s, &tb), 0);
    DMK_CHECK_INT(tb.n_rows, 4); /* header, test, 2 passes */
    for (int row = 1; row < tb.n_rows; row++) {
        DMK_CHECK_INT(tb.n_fields[row], tb.n_fields[0]);
        DMK_CHECK_STR(cell(&tb, row, "comment"), comment);
        DMK_CHECK_STR(cell(&tb, row, "mode"), "read");
        /* schema 7: a read test's write columns are empty, not 0.000 */
        DMK_CHECK_STR(cell(&tb, row, "read_mb_s"), row == 1   ? "114.688"
                                                   : row == 2 ? "57.344"
                                                              : "114.688");
        DMK_CHECK_STR(cell(&tb, row, "write_mb_s"), "");
        DMK_CHECK_STR(cell(&tb, row, "write_iops"), "");
        DMK_CHECK_STR(cell(&tb, row, "write_lat_mean_us"), "");
        DMK_CHECK_STR(cell(&tb, row, "write_lat_p99_us"), "");
    }
    table_free(&tb);
    free(s);

    /* and a write test's read columns; a raw device has no file system,
     * an unknown capacity and link are no 0 either */
    t.test.mode = DMK_MODE_WRITE;
    r.target.is_device = true;
    r.target.capacity_bytes = 0;
    s = write_csv(&r);
    if (s && parse(s, &tb) == 0) {
        for (int row = 1; row < tb.n_rows; row++) {
            DMK_CHECK_STR(cell(&tb, row, "read_mb_s"), "");
            DMK_CHECK_STR(cell(&tb, row, "read_iops"), "");
            DMK_CHECK_STR(cell(&tb, row, "read_lat_mean_us"), "");
            DMK_CHECK_STR(cell(&tb, row, "read_lat_p99_us"), "");
            DMK_CHECK(cell(&tb, row, "write_mb_s")[0] != '\0');
            DMK_CHECK_STR(cell(&tb, row, "fs_size_bytes"), "");
            DMK_CHECK_STR(cell(&tb, row, "fs_free_bytes"), "");
            DMK_CHECK_STR(cell(&tb, row, "capacity_bytes"), "");
            DMK_CHECK_STR(cell(&tb, row, "interface_mb_s"), "");
        }
        table_free(&tb);
    }
    free(s);
    r.target.is_device = false;
    t.test.mode = DMK_MODE_READ;

    /* no test: the header alone */
    r.n_tests = 0;
    s = write_csv(&r);
    if (s) {
        DMK_CHECK(parse(s, &tb) == 0);
        DMK_CHECK_INT(tb.n_rows, 1);
        table_free(&tb);
    }
    free(s);
}

/* A review-lab result: its context, the step's label and rate, a stopped
 * test, and temperatures where the sensor had them. */
static void test_lab_rows(void)
{
    DmkTestLab lab;
    dmk_test_lab_init(&lab);
    lab.samples[1].temp_c = 250.0; /* a misread: no drive is that hot */
    lab.samples[3].temp_c = INFINITY;
    char *s = write_csv(&lab.r);
    if (!s)
        return;
    Table tb;
    /* the first rows only: the table holds MAX_ROWS */
    char *cut = s;
    for (int i = 0; i < MAX_ROWS - 1 && cut; i++)
        cut = strstr(cut + 1, "\r\n");
    if (cut)
        cut[2] = '\0';
    DMK_CHECK_INT(parse(s, &tb), 0);
    DMK_CHECK_INT(tb.n_rows, MAX_ROWS - 1);
    static const char *records[] = {"record", "test", "pass", "sample"};
    for (int row = 1; row < tb.n_rows; row++) {
        DMK_CHECK_INT(tb.n_fields[row], tb.n_fields[0]);
        DMK_CHECK_STR(cell(&tb, row, "record"), records[row < 3 ? row : 3]);
        DMK_CHECK_STR(cell(&tb, row, "lab"), "sustained");
        DMK_CHECK_STR(cell(&tb, row, "lab_note"),
                      "TRIM: 2.00 GiB punched, \"fstrim\" not permitted, as a user");
        DMK_CHECK_STR(cell(&tb, row, "temp_sensor"), "nvme0 Composite (hwmon2)");
        DMK_CHECK_STR(cell(&tb, row, "test_size"), "2000398934016");
        DMK_CHECK_STR(cell(&tb, row, "complete"), "0");
        DMK_CHECK_STR(cell(&tb, row, "label"), "after TRIM");
        DMK_CHECK_STR(cell(&tb, row, "rate_iops"), "12345");
        DMK_CHECK_STR(cell(&tb, row, "mode"), "write");
        DMK_CHECK_STR(cell(&tb, row, "partial"), row == 1 ? "1" : "");
        if (row < 3)
            DMK_CHECK_STR(cell(&tb, row, "temp_c"), "");
    }
    /* samples 0, 1, 2, 3, ...: 41.0, a misread, none, inf, 43.8 */
    static const char *temps[] = {"41.0", "", "", "", "43.8", "44.5", "", "45.9", "46.6", "-12.5"};
    for (int i = 0; i < 10; i++)
        DMK_CHECK_STR(cell(&tb, 3 + i, "temp_c"), temps[i]);
    DMK_CHECK_STR(cell(&tb, 3, "t_s"), "0.500");
    DMK_CHECK_STR(cell(&tb, 3, "mb_s"), "80.000");
    /* the quote is doubled inside the quoted cell */
    DMK_CHECK(strstr(s, "\"TRIM: 2.00 GiB punched, \"\"fstrim\"\" not permitted, as a user\"") !=
              NULL);
    table_free(&tb);
    free(s);
}

static void check_neutralise(const char *in, const char *expected)
{
    char out[64];
    memset(out, 'x', sizeof out);
    dmk_csv_neutralise(in, out, sizeof out);
    DMK_CHECK_STR(out, expected);
}

static void test_neutralise(void)
{
    check_neutralise("=1+2", "'=1+2");
    check_neutralise("-x", "'-x");
    check_neutralise("+a", "'+a");
    check_neutralise("@a", "'@a");
    check_neutralise("\tX", "'\tX");
    check_neutralise("\rX", "'\rX");
    check_neutralise("=", "'=");
    check_neutralise("abc", "abc");
    check_neutralise("a=b", "a=b");
    check_neutralise("", "");
    /* schema 7: a leading apostrophe is doubled, so the reader's taking
     * off one gives the text back */
    check_neutralise("'quoted", "''quoted");
    check_neutralise("'", "''");
    /* pandas' default missing-value words, whole cells only */
    check_neutralise("null", "'null");
    check_neutralise("NA", "'NA");
    check_neutralise("None", "'None");
    check_neutralise("#N/A", "'#N/A");
    check_neutralise("nullable", "nullable");
    check_neutralise("NAS", "NAS");
    check_neutralise("none", "none"); /* cow, compression: pandas keeps it */
    /* truncated to the buffer, still terminated */
    char small[4];
    dmk_csv_neutralise("=abcdef", small, sizeof small);
    DMK_CHECK_STR(small, "'=a");
}

/* Numbers keep '.' whatever LC_NUMERIC says. */
/* pandas' read_csv default na_values (pandas 2.x, io/parsers, STR_NA_VALUES):
 * kept here as the outside reference the writer is checked against. */
static const char *const pandas_na[] = {
    "-1.#IND", "1.#QNAN", "1.#IND", "-1.#QNAN", "#N/A N/A", "#N/A", "N/A", "n/a",  "NA",
    "<NA>",    "#NA",     "NULL",   "null",     "NaN",      "-NaN", "nan", "-nan", "None"};

static bool pandas_reads_missing(const char *cell)
{
    for (size_t i = 0; i < sizeof pandas_na / sizeof pandas_na[0]; i++)
        if (strcmp(cell, pandas_na[i]) == 0)
            return true;
    return cell[0] == '\0';
}

/* No text cell the writer writes is one pandas takes for missing data:
 * every backend's name in the registry (the null backend's "null"), every
 * word of the program's own tables, and any such word as free text. */
static void test_pandas_na_words(void)
{
    char out[64];
    for (size_t i = 0; i < dmk_backend_count(); i++) {
        dmk_csv_neutralise(dmk_backend_at(i)->name, out, sizeof out);
        DMK_CHECK(!pandas_reads_missing(out));
    }
    const char *words[] = {dmk_mode_name(DMK_MODE_READ),
                           dmk_mode_name(DMK_MODE_WRITE),
                           dmk_mode_name(DMK_MODE_MIX),
                           dmk_pattern_name(DMK_PATTERN_SEQ),
                           dmk_pattern_name(DMK_PATTERN_RND),
                           dmk_data_name(DMK_DATA_RANDOM),
                           dmk_data_name(DMK_DATA_ZERO),
                           dmk_fs_feature_name(DMK_FS_FEATURE_NONE),
                           dmk_fs_feature_name(DMK_FS_FEATURE_OFF),
                           dmk_fs_feature_name(DMK_FS_FEATURE_ACTIVE),
                           dmk_verify_bad_key(DMK_VERIFY_CORRUPT)};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        dmk_csv_neutralise(words[i], out, sizeof out);
        DMK_CHECK(!pandas_reads_missing(out));
    }
    for (size_t i = 0; i < sizeof pandas_na / sizeof pandas_na[0]; i++) {
        dmk_csv_neutralise(pandas_na[i], out, sizeof out);
        DMK_CHECK(!pandas_reads_missing(out));
        DMK_CHECK(out[0] == '\'' && strcmp(out + 1, pandas_na[i]) == 0);
    }
}

static void test_locale(void)
{
    DmkRunResult r;
    DmkTestResult t;
    DmkPassResult passes[2];
    DmkSample samples[2];
    dmk_test_build_result(&r, &t, passes, samples, "locale");
    const char *skip = NULL;
    char *s = dmk_scratch_write_decimal_comma("test-csv.csv", dmk_csv_write, &r, &skip);
    if (skip)
        DMK_SKIP(skip);
    if (!s)
        return;
    Table tb;
    DMK_CHECK_INT(parse(s, &tb), 0);
    DMK_CHECK_STR(cell(&tb, 1, "mb_s"), "163.840");
    DMK_CHECK_STR(cell(&tb, 1, "measure_s"), "5.000");
    DMK_CHECK_STR(cell(&tb, 4, "t_s"), "0.500");
    for (int row = 1; row < tb.n_rows; row++)
        DMK_CHECK_INT(tb.n_fields[row], tb.n_fields[0]);
    table_free(&tb);
    free(s);
}

int main(void)
{
    DMK_TEST(test_line_endings_and_header);
    DMK_TEST(test_rows);
    DMK_TEST(test_lab_rows);
    DMK_TEST(test_text_round_trip);
    DMK_TEST(test_neutralise);
    DMK_TEST(test_pandas_na_words);
    DMK_TEST(test_locale);
    return dmk_test_done();
}
