/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "dmk-drive-linux.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <locale.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* ---- small sysfs readers and the temperature ------------------------------ */

const char *dmk_linux_errno_text_c(int e, char *buf, size_t len)
{
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    snprintf(buf, len, "%s", c ? strerror_l(e, c) : strerror(e));
    if (c)
        freelocale(c);
    return buf;
}

bool dmk_linux_read_line(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    bool ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (!ok) {
        buf[0] = '\0';
        return false;
    }
    size_t n = strlen(buf);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        buf[--n] = '\0';
    return true;
}

int dmk_linux_read_temp(const char *input, double *celsius)
{
    char line[32];
    if (!dmk_linux_read_line(input, line, sizeof line) || !line[0])
        return DMK_E_NOTSUP;
    char *end;
    long milli = strtol(line, &end, 10);
    /* A sensor that answers nonsense (-273 C, 0 C from a sleeping disk's
     * dummy) is no sensor. */
    if (end == line || milli <= -40000 || milli == 0 || milli > 200000)
        return DMK_E_NOTSUP;
    *celsius = (double)milli / 1000.0;
    return DMK_OK;
}

/* NVMe controllers carry hwmonN directly (the namespace's device link
 * points at the controller); SATA disks with drivetemp under hwmon/. */
static const char *const sensor_globs[] = {"/device/hwmon*/temp1_input",
                                           "/device/hwmon/hwmon*/temp1_input"};

static void describe_sensor(const char *input, char *desc, size_t len)
{
    char dir[PATH_MAX], name[64] = "", label[64] = "", path[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s", input);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    snprintf(path, sizeof path, "%s/name", dir);
    dmk_linux_read_line(path, name, sizeof name);
    snprintf(path, sizeof path, "%s/temp1_label", dir);
    dmk_linux_read_line(path, label, sizeof label);
    const char *hw = strrchr(dir, '/');
    snprintf(desc, len, "%s%s%s (%s)", name[0] ? name : "hwmon", label[0] ? " " : "", label,
             hw ? hw + 1 : dir);
}

bool dmk_linux_find_sensor(const char *disk_dir, char *input, size_t input_len, char *desc,
                           size_t desc_len)
{
    for (size_t i = 0; i < sizeof sensor_globs / sizeof sensor_globs[0]; i++) {
        char pattern[PATH_MAX + 64];
        glob_t g;
        snprintf(pattern, sizeof pattern, "%s%s", disk_dir, sensor_globs[i]);
        if (glob(pattern, 0, NULL, &g) != 0)
            continue;
        for (size_t k = 0; k < g.gl_pathc; k++) {
            double c;
            if (dmk_linux_read_temp(g.gl_pathv[k], &c) != DMK_OK)
                continue;
            snprintf(input, input_len, "%s", g.gl_pathv[k]);
            describe_sensor(input, desc, desc_len);
            globfree(&g);
            return true;
        }
        globfree(&g);
    }
    return false;
}

bool dmk_linux_opts_discard(const char *opts)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", opts);
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (strcmp(tok, "discard") == 0 || strncmp(tok, "discard=", 8) == 0)
            return true;
    return false;
}

/* ---- TRIM ---------------------------------------------------------------- */

/* Gives every block of the file back to the file system, which passes
 * the discard to the drive when mounted with discard; the blocks are
 * allocated again so the probe after TRIM writes into an allocated file,
 * as the probes before it did. */
static int punch_file(int fd, uint64_t size, const char *dir, DmkError *err)
{
    if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)size) != 0)
        return dmk_error_os(err, dmk_error_from_errno(errno), errno,
                            "punching holes into the test file in %s (fallocate PUNCH_HOLE) failed",
                            dir);
    int e = posix_fallocate(fd, 0, (off_t)size);
    if (e != 0)
        return dmk_error_os(err, dmk_error_from_errno(e), e,
                            "allocating the test file in %s again after TRIM failed", dir);
    return DMK_OK;
}

/* FITRIM discards the file system's free space, the punched blocks
 * included; it needs CAP_SYS_ADMIN. */
static void fitrim(const char *mount_point, DmkTrimReport *rep, char *say, size_t len)
{
    int fd = open(mount_point, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct fstrim_range range = {0, UINT64_MAX, 0};
    int e = fd < 0 ? errno : ioctl(fd, FITRIM, &range) == 0 ? 0 : errno;
    char why[128];
    if (fd >= 0)
        close(fd);
    if (e == 0) {
        rep->fs_trimmed = true;
        rep->fs_trimmed_bytes = range.len;
        snprintf(say, len, "FITRIM on %s trimmed %llu MiB of free space.", mount_point,
                 (unsigned long long)(range.len >> 20));
    } else if (e == EPERM || e == EACCES) {
        snprintf(say, len,
                 "FITRIM on %s was not permitted (%s): it needs root (CAP_SYS_ADMIN), so only "
                 "the file's blocks were released.",
                 mount_point, dmk_linux_errno_text_c(e, why, sizeof why));
    } else {
        snprintf(say, len, "FITRIM on %s is not possible (%s).", mount_point,
                 dmk_linux_errno_text_c(e, why, sizeof why));
    }
}

int dmk_linux_trim(int fd, uint64_t size, const char *dir, const char *mount_point, int discard,
                   DmkTrimReport *rep, DmkError *err)
{
    memset(rep, 0, sizeof *rep);
    int rc = punch_file(fd, size, dir, err);
    if (rc != DMK_OK)
        return rc;
    rep->punched_bytes = size;
    char trim[300];
    fitrim(mount_point[0] ? mount_point : dir, rep, trim, sizeof trim);
    snprintf(rep->note, sizeof rep->note, "TRIM: punched %llu MiB out of the test file. %s%s",
             (unsigned long long)(size >> 20), trim,
             discard == 1   ? " The file system is mounted with discard: it trims on its own."
             : discard == 0 ? " The file system is mounted without discard."
                            : "");
    return DMK_OK;
}
