/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `drivemark-cli chart` on review-lab results (app/dmk-cli-chart.c): lab
 * results saved as CSV and charted by --kind (the DmkChartChoice the
 * parser gives), the first chart of the lab without one, and the messages
 * when a kind does not fit the file. */
#include "dmk-test.h"

#include <sys/stat.h>
#include <unistd.h>

#include "dmk-cli-chart.h"
#include "dmk-csv.h"
#include "lab-fixtures.h"

static char dir[1024];

static const char *path_of(const char *name)
{
    static char paths[8][1100];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

static void save(DmkRunResult *r, const char *name)
{
    DmkError err = {0};
    FILE *f = fopen(path_of(name), "wb");
    DMK_CHECK(f != NULL);
    if (!f)
        return;
    int rc = dmk_csv_write(f, r, path_of(name), &err);
    if (rc != DMK_OK)
        printf("# %s: %s\n", name, err.msg);
    DMK_CHECK_INT(rc, DMK_OK);
    fclose(f);
    dmk_run_result_free(r);
}

/* A CrystalDiskMark run: one tile, no lab. */
static DmkRunResult *tiles_result(void)
{
    DmkRunResult *r = new_result("", 1);
    snprintf(r->profile, sizeof r->profile, "demo");
    r->size = 1ULL << 30;
    add_test(r, "SEQ1M Q8T1", DMK_MODE_READ, "", (DmkStats){.mb_s = 3500, .iops = 3500});
    return r;
}

static void write_files(void)
{
    snprintf(dir, sizeof dir, "%s/chart-cli", dmk_test_tmpdir());
    dmk_test_mkdir(dir);
    save(step_sustained(true), "sustained.csv");
    save(step_sustained(false), "sustained-2.csv");
    save(hand_latency(200000, 80), "latency.csv");
    save(hand_latency(90000, 150), "latency-2.csv");
    save(hand_mixed(1), "mixed.csv");
    save(hand_recovery(true), "recovery.csv");
    save(tiles_result(), "tiles.csv");
}

/* Runs the chart command with --kind `kind` (NULL: none); its stderr goes to *msg. */
static int chart(const char *kind, const char *metric, const char *out, const char *const *files,
                 char *msg, size_t len)
{
    DmkCliArgs a;
    memset(&a, 0, sizeof a);
    a.cmd = DMK_CMD_CHART;
    a.chart_out = path_of(out);
    a.chart_kind = !kind                        ? DMK_CLI_CHART_FROM_FILE
                   : strcmp(kind, "tiles") == 0 ? DMK_CLI_CHART_TILES
                                                : DMK_CLI_CHART_LAB;
    a.lab_chart = a.chart_kind == DMK_CLI_CHART_LAB ? kind : NULL;
    a.width = 640;
    a.height = 400;
    a.scale = 1;
    a.metric = metric ? metric : "mb_s";
    a.metric_set = metric != NULL;
    for (; files[a.n_files]; a.n_files++)
        a.files[a.n_files] = path_of(files[a.n_files]);
    remove(a.chart_out);
    fflush(stderr);
    int saved = dup(2);
    FILE *f = freopen(path_of("stderr.txt"), "w", stderr);
    int rc = dmk_cli_chart(&a);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    (void)f;
    FILE *m = fopen(path_of("stderr.txt"), "r");
    size_t n = m ? fread(msg, 1, len - 1, m) : 0;
    msg[n] = '\0';
    if (m)
        fclose(m);
    if (n)
        printf("# %s", msg);
    return rc;
}

/* The PNG's width and height. */
static void png_size(const char *name, unsigned *w, unsigned *h)
{
    unsigned char b[24] = {0};
    FILE *f = fopen(path_of(name), "rb");
    *w = *h = 0;
    if (!f)
        return;
    if (fread(b, 1, sizeof b, f) == sizeof b) {
        *w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
        *h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
    }
    fclose(f);
}

static bool exists(const char *name)
{
    FILE *f = fopen(path_of(name), "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

static void test_first_chart(void)
{
    char msg[2048];
    unsigned w, h;
    /* No --kind: the lab's first chart; latency: its four profiles, 2 x 2. */
    DMK_CHECK_INT(
        chart(NULL, NULL, "s.png", (const char *[]){"sustained.csv", NULL}, msg, sizeof msg), 0);
    png_size("s.png", &w, &h);
    DMK_CHECK(w == 640 && h == 400);
    DMK_CHECK_INT(
        chart(NULL, NULL, "l.png", (const char *[]){"latency.csv", NULL}, msg, sizeof msg), 0);
    png_size("l.png", &w, &h);
    DMK_CHECK(w == 1280 && h == 800);
    DMK_CHECK_INT(
        chart(NULL, NULL, "r.svg", (const char *[]){"recovery.csv", NULL}, msg, sizeof msg), 0);
    DMK_CHECK(exists("r.svg"));
    DMK_CHECK_INT(chart(NULL, NULL, "m.pdf", (const char *[]){"mixed.csv", NULL}, msg, sizeof msg),
                  0);
    DMK_CHECK(exists("m.pdf"));
    /* CrystalDiskMark results chart as before. */
    DMK_CHECK_INT(chart(NULL, NULL, "t.png", (const char *[]){"tiles.csv", NULL}, msg, sizeof msg),
                  0);
}

static void test_kinds(void)
{
    static const struct {
        const char *kind;
        const char *file;
    } ok[] = {
        {"speed", "sustained.csv"},
        {"zoom", "sustained.csv"},
        {"temperature", "sustained.csv"},
        {"temperature", "sustained-2.csv"}, /* no sensor: says so */
        {"mixed", "mixed.csv"},
        {"mixed-average", "mixed.csv"},
        {"latency", "latency.csv"},
        {"recovery", "recovery.csv"},
        {"speed", "recovery.csv"}, /* its degradation */
    };
    char msg[2048];
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        DMK_CHECK_INT(
            chart(ok[i].kind, NULL, "k.png", (const char *[]){ok[i].file, NULL}, msg, sizeof msg),
            0);
        DMK_CHECK(exists("k.png"));
        DMK_CHECK_STR(msg, "");
    }
    DMK_CHECK_INT(
        chart("speed", "mb_s", "k.png", (const char *[]){"sustained.csv", NULL}, msg, sizeof msg),
        0);
}

static void test_compare(void)
{
    char msg[2048];
    unsigned w, h;
    DMK_CHECK_INT(chart(NULL, NULL, "s2.png",
                        (const char *[]){"sustained.csv", "sustained-2.csv", NULL}, msg,
                        sizeof msg),
                  0);
    DMK_CHECK_STR(msg, "");
    DMK_CHECK_INT(chart("latency", NULL, "l2.png",
                        (const char *[]){"latency.csv", "latency-2.csv", NULL}, msg, sizeof msg),
                  0);
    png_size("l2.png", &w, &h);
    DMK_CHECK(w == 1280 && h == 800);
    /* The temperature chart has room for one drive: the first, said so. */
    DMK_CHECK_INT(chart("temperature", NULL, "t2.png",
                        (const char *[]){"sustained.csv", "sustained-2.csv", NULL}, msg,
                        sizeof msg),
                  0);
    DMK_CHECK(strstr(msg, "shows one result") && strstr(msg, "sustained.csv\" only"));
    DMK_CHECK(exists("t2.png"));
}

static void check_refused(int rc, const char *msg, const char *file, const char *fits)
{
    DMK_CHECK_INT(rc, 1);
    DMK_CHECK(strstr(msg, file) != NULL);
    DMK_CHECK(strstr(msg, fits) != NULL);
    DMK_CHECK(!exists("bad.png")); /* no wrong chart left behind */
}

static void test_refusals(void)
{
    char msg[2048];
    int rc =
        chart("latency", NULL, "bad.png", (const char *[]){"sustained.csv", NULL}, msg, sizeof msg);
    check_refused(rc, msg, "sustained.csv", "--kind speed, zoom or temperature fit it");
    DMK_CHECK(strstr(msg, "no latency chart") != NULL);
    rc = chart("tiles", NULL, "bad.png", (const char *[]){"mixed.csv", NULL}, msg, sizeof msg);
    check_refused(rc, msg, "mixed.csv", "--kind mixed or mixed-average fit it");
    rc = chart("speed", NULL, "bad.png", (const char *[]){"tiles.csv", NULL}, msg, sizeof msg);
    check_refused(rc, msg, "tiles.csv", "--kind qd, bs or tiles fit it");
    rc = chart(NULL, NULL, "bad.png", (const char *[]){"tiles.csv", "recovery.csv", NULL}, msg,
               sizeof msg);
    check_refused(rc, msg, "recovery.csv", "--kind recovery, speed, zoom or temperature fit it");
    rc = chart("speed", NULL, "bad.png", (const char *[]){"sustained.csv", "mixed.csv", NULL}, msg,
               sizeof msg);
    check_refused(rc, msg, "mixed.csv", "no speed chart");
    rc = chart("recovery", NULL, "bad.png", (const char *[]){"recovery.csv", "tiles.csv", NULL},
               msg, sizeof msg);
    check_refused(rc, msg, "tiles.csv", "not a review-lab result");
    rc = chart("speed", "lat_p99_us", "bad.png", (const char *[]){"sustained.csv", NULL}, msg,
               sizeof msg);
    check_refused(rc, msg, "", "iops or mb_s, not lat_p99_us");
    rc =
        chart("latency", "iops", "bad.png", (const char *[]){"latency.csv", NULL}, msg, sizeof msg);
    check_refused(rc, msg, "", "own unit");
}

int main(void)
{
    write_files();
    DMK_TEST(test_first_chart);
    DMK_TEST(test_kinds);
    DMK_TEST(test_compare);
    DMK_TEST(test_refusals);
    return dmk_test_done();
}
