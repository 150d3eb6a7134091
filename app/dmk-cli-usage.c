/* drivemark-cli --help: the commands, the lab tests from dmk-lab.h's
 * table, and every option of dmk-cli-options.c's table under a heading
 * for the commands that take it. */
#include <stdio.h>
#include <string.h>

#include "dmk-cli-private.h"

/* "Options of run and sweep:" for a DmkCommand mask. */
static void print_heading(FILE *f, unsigned commands)
{
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {{DMK_CMD_RUN, "run"},
                 {DMK_CMD_SWEEP, "sweep"},
                 {DMK_CMD_SHOW, "show"},
                 {DMK_CMD_CHART, "chart"},
                 {DMK_CMD_LAB, "the lab tests"}};
    if (commands == 0) { /* accepted everywhere */
        fputs("\nOptions of every command:\n", f);
        return;
    }
    fputs("\nOptions of ", f);
    int n = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (commands & names[i].bit)
            fprintf(f, "%s%s", n++ ? " and " : "", names[i].name);
    fputs(":\n", f);
}

/* Words of `text` on lines of at most `width` columns, each indented by
 * `indent` but the first, which continues after `col` columns. */
static void print_wrapped(FILE *f, const char *text, size_t col, size_t indent, size_t width)
{
    while (*text) {
        size_t n = strcspn(text, " ");
        if (col > indent && col + 1 + n > width) {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", (int)n, text);
        col += n;
        text += n;
        text += strspn(text, " ");
    }
    fputc('\n', f);
}

/* The lab tests, from dmk-lab.h's table: "  sustained  Sustained write: ...". */
static void print_lab_tests(FILE *f)
{
    fputs("The review-lab tests; each samples the drive's temperature where a sensor is\n"
          "readable:\n",
          f);
    for (size_t i = 0; i < dmk_lab_test_count(); i++) {
        const DmkLabTest *t = dmk_lab_test_at(i);
        char head[128];
        snprintf(head, sizeof head, "  %-10s %s:", t->name, t->title);
        fputs(head, f);
        print_wrapped(f, t->blurb, strlen(head), 13, 79);
    }
}

/* --backend's help: "native (default: libaio), libaio (...) or null (...)". */
static const char *backend_help(char *buf, size_t len)
{
    const DmkBackend *native = dmk_backend_native();
    int used = snprintf(buf, len, "the I/O backend: native (default: %s)", native->name);
    size_t n = dmk_backend_count(), last = 0;
    for (size_t i = 0; i < n; i++)
        last = dmk_backend_at(i)->tests_only ? last : i;
    for (size_t i = 0; i < n && used > 0 && (size_t)used < len; i++) {
        const DmkBackend *be = dmk_backend_at(i);
        if (!be->tests_only)
            used += snprintf(buf + used, len - used, "%s%s (%s)", i == last ? " or " : ", ",
                             be->name, be->description);
    }
    return buf;
}

/* "--null-latency": the null backend's option "latency", helped by its
 * own line: "null backend only: each I/O completes after US microseconds". */
static const char *backend_option_help(const char *name, char *buf, size_t len)
{
    const char *dash = strchr(name + 2, '-');
    char be_name[16];
    snprintf(be_name, sizeof be_name, "%.*s", dash ? (int)(dash - name - 2) : 0, name + 2);
    const DmkBackend *be = dmk_backend_by_name(be_name);
    for (const DmkBackendOption *o = be ? be->options : NULL; o && o->key; o++)
        if (strcmp(o->key, dash + 1) == 0) {
            snprintf(buf, len, "%s backend only: %s", be->name, o->help);
            return buf;
        }
    return "";
}

static const char *help_of(const DmkOption *o, char *buf, size_t len)
{
    if (o->help)
        return o->help;
    return o->req == DMK_REQ_BACKEND + 1 ? backend_help(buf, len)
                                         : backend_option_help(o->name, buf, len);
}

static void print_option(FILE *f, const DmkOption *o)
{
    char left[40];
    snprintf(left, sizeof left, "%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
    char help[512];
    fprintf(f, "  %-22s %s\n", left, help_of(o, help, sizeof help));
}

void dmk_cli_usage(FILE *f)
{
    char labs[256];
    size_t n_options, n_lab_rows;
    const DmkOption *options = _dmk_cli_options(&n_options);
    const DmkOption *lab_rows = _dmk_cli_lab_rows(&n_lab_rows);
    fprintf(f,
            "Usage: drivemark-cli run [OPTION]...\n"
            "       drivemark-cli sweep qd|bs [OPTION]...\n"
            "       drivemark-cli %s [OPTION]...\n"
            "       drivemark-cli show [--metric NAME] [--] FILE.csv...\n"
            "       drivemark-cli chart --out FILE.png|svg|pdf [OPTION]... [--] FILE.csv...\n"
            "       drivemark-cli --help | --version\n\n"
            "run benchmarks the drive under a directory the way CrystalDiskMark does, with\n"
            "its own test file that nothing leaves behind. MB/s = 1,000,000 bytes/s.\n"
            "sweep measures one workload at a series of queue depths (qd) or block sizes\n"
            "(bs), as reviews chart them: all reads, then all writes.\n",
            dmk_lab_names_text("|", "|", labs, sizeof labs));
    print_lab_tests(f);
    fprintf(f, "show prints saved results (--csv files); several side by side, with the\n"
               "difference to the first in %%. chart draws them as a PNG, SVG or PDF file.\n");
    unsigned group = ~0u;
    for (size_t i = 0; i < n_options; i++) {
        if (options[i].commands != group) {
            print_heading(f, group = options[i].commands);
            /* The lab tests' own settings head their group. */
            for (size_t j = 0; group == DMK_CMD_LAB && j < n_lab_rows; j++)
                print_option(f, &lab_rows[j]);
        }
        print_option(f, &options[i]);
    }
    char exits[512];
    fprintf(f, "\nSizes are binary: K, M, G, T, P, E or KiB, MiB, GiB, TiB, PiB, EiB. Seconds may "
               "end in s, m or h.\n");
    fputs("Exit status:", f);
    print_wrapped(f, dmk_exit_status_text(exits, sizeof exits), 12, 0, 79);
}
