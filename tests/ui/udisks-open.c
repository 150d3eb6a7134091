/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the window does with a device it may not open, without the
 * window (tests/ui/test_udisks.py, tests/integration/test_udisks.py):
 * asks UDisks2 for a descriptor (ui/dmk-udisks.c), then hands it to a
 * run as the window does (DmkRunSpec.device_fd) and runs it on the native
 * backend. Prints, a line each, tab-separated:
 *
 *   error  MESSAGE                       UDisks2 gave nothing
 *   fd     F_GETFL  ST_DEV:ST_INO  RDEV  what arrived (numbers in decimal)
 *   run    RC  MESSAGE                   the run's status and message
 *   closed 0|1                           whether the run closed the descriptor
 *
 * With DMK_UDISKS_HOLD set it prints "held" after the fd line and waits
 * for a line on stdin before the run, so a test can look at the device
 * while only the descriptor UDisks2 gave holds it.
 *
 *   udisks-open DEVICE read|write [SIZE_MIB [TYPED_NAME]]
 *
 * A write run is one SEQ1M Q1T1 write and read of SIZE_MIB (default 16);
 * a read run its read. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dmk-platform.h"
#include "dmk-runner.h"
#include "dmk-spec.h"
#include "dmk-udisks.h"

typedef struct {
    GMainLoop *loop;
    int fd;
    GError *error;
} Got;

static void on_open(GObject *source, GAsyncResult *res, gpointer data)
{
    (void)source;
    Got *g = data;
    g->fd = dmk_udisks_open_finish(res, &g->error);
    g_main_loop_quit(g->loop);
}

static int add(DmkRunSpec *s, DmkMode mode)
{
    DmkJob j;
    DmkError err = {0};
    int rc = dmk_job_parse_name("SEQ1M Q1T1", &j, &err);
    return rc == DMK_OK ? dmk_run_spec_add(s, &j, mode, 0, &err) : rc;
}

/* The window's hand-over: the descriptor goes into the spec, the run
 * owns it from then on. */
static void run_with(const char *device, gboolean write, int fd, uint64_t mib, const char *typed)
{
    DmkRunSpec *s = g_new0(DmkRunSpec, 1);
    dmk_run_spec_init(s);
    g_strlcpy(s->dir, device, sizeof s->dir);
    g_strlcpy(s->profile, "custom", sizeof s->profile);
    g_strlcpy(s->device_confirm, typed ? typed : device, sizeof s->device_confirm);
    s->device = true;
    s->has_device_fd = true;
    s->device_fd = fd;
    s->size = mib << 20;
    s->passes = 1;
    s->measure_s = 0.5;
    s->warmup_s = 0;
    s->interval_s = 0;
    if (write)
        add(s, DMK_MODE_WRITE);
    add(s, DMK_MODE_READ);
    DmkRunner *r = dmk_runner_new(s, dmk_backend_native());
    DmkError err = {0};
    DmkRunResult *res = NULL;
    int rc = dmk_runner_run(r, NULL, &res, &err);
    printf("run\t%d\t%s\n", rc, rc == DMK_OK ? "done" : err.msg);
    printf("closed\t%d\n", fcntl(fd, F_GETFD) == -1 && errno == EBADF);
    dmk_run_result_free(res);
    dmk_runner_free(r);
    g_free(s);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: udisks-open DEVICE read|write [SIZE_MIB [TYPED_NAME]]\n");
        return 2;
    }
    gboolean write = strcmp(argv[2], "write") == 0;
    Got g = {g_main_loop_new(NULL, FALSE), -1, NULL};
    dmk_udisks_open_async(argv[1], write, NULL, on_open, &g);
    g_main_loop_run(g.loop);
    g_main_loop_unref(g.loop); /* LeakSanitizer checks this program too */
    if (g.fd < 0) {
        printf("error\t%s\n", g.error->message);
        g_error_free(g.error);
        return 0;
    }
    struct stat st;
    int fl = fcntl(g.fd, F_GETFL);
    if (fstat(g.fd, &st) != 0)
        return 1;
    printf("fd\t%d\t%llu:%llu\t%u:%u\n", fl, (unsigned long long)st.st_dev,
           (unsigned long long)st.st_ino, major(st.st_rdev), minor(st.st_rdev));
    fflush(stdout);
    if (getenv("DMK_UDISKS_HOLD")) {
        char line[8];
        printf("held\n");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin))
            return 1;
    }
    run_with(argv[1], write, g.fd, argc > 3 ? strtoull(argv[3], NULL, 10) : 16,
             argc > 4 ? argv[4] : NULL);
    return 0;
}
