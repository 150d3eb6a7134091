/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The archive and extract steps (dmk-fileset.h) through libarchive: a
 * real Deflate .zip, as 7-Zip's "zip, Deflate" makes, written into and
 * read from descriptors of ours, so the archive is synced like any file.
 * Built only where libarchive is (not the Windows cross build): the
 * fallbacks say so. */
#include "dmk-fileset.h"

#include <stdlib.h>
#include <string.h>

#include "dmk-platform.h"

#ifdef DMK_HAVE_ARCHIVE
#include <archive.h>
#include <archive_entry.h>

bool dmk_archive_available(void)
{
    return true;
}

static int archive_error(DmkError *err, struct archive *a, const char *what, const char *path)
{
    const char *msg = archive_error_string(a);
    int e = archive_errno(a);
    return dmk_error_set(err, e == 28 ? DMK_E_NOSPC : DMK_E_IO, e, "cannot %s %s: %s", what, path,
                         msg ? msg : "libarchive failed");
}

static int add_entry(struct archive *a, const DmkSetFile *f, const char *path, unsigned char *buf,
                     uint64_t *done, DmkTreeTick tick, void *ctx, const char *zip, DmkError *err)
{
    struct archive_entry *e = archive_entry_new();
    if (!e)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the archive's entries");
    archive_entry_set_pathname(e, f->path);
    archive_entry_set_size(e, (la_int64_t)f->size);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    int rc =
        archive_write_header(a, e) == ARCHIVE_OK ? DMK_OK : archive_error(err, a, "write", zip);
    archive_entry_free(e);
    int fd = -1;
    if (rc == DMK_OK)
        rc = dmk_tree_open(path, false, &fd, err);
    while (rc == DMK_OK) {
        int64_t n = dmk_tree_read(fd, buf, DMK_FILESET_CHUNK, path, err);
        if (n <= 0) {
            rc = (int)(n < 0 ? n : DMK_OK);
            break;
        }
        if (archive_write_data(a, buf, (size_t)n) != (la_ssize_t)n)
            rc = archive_error(err, a, "write", zip);
        *done += (uint64_t)n;
        if (rc == DMK_OK && tick && tick(*done, ctx))
            rc = dmk_error_set(err, DMK_E_STOPPED, 0, "stopped by the user");
    }
    dmk_tree_close(fd);
    return rc;
}

int dmk_archive_write(const DmkFileSet *s, const char *src, const char *zip, DmkTreeTick tick,
                      void *ctx, uint64_t *zip_bytes, DmkError *err)
{
    unsigned char *buf = malloc(DMK_FILESET_CHUNK);
    struct archive *a = archive_write_new();
    int fd = -1;
    int rc = buf && a ? DMK_OK : dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for an archive");
    if (rc == DMK_OK)
        rc = dmk_tree_open(zip, true, &fd, err);
    /* Written in 1 MiB blocks, not libarchive's 10 KiB default: an
     * archiver writes large buffers. */
    if (rc == DMK_OK && (archive_write_set_format_zip(a) != ARCHIVE_OK ||
                         archive_write_set_bytes_per_block(a, DMK_FILESET_CHUNK) != ARCHIVE_OK ||
                         archive_write_zip_set_compression_deflate(a) != ARCHIVE_OK ||
                         archive_write_open_fd(a, fd) != ARCHIVE_OK))
        rc = archive_error(err, a, "create", zip);
    uint64_t done = 0;
    char p[2048];
    for (size_t i = 0; rc == DMK_OK && i < s->n_files; i++) {
        rc = dmk_tree_join(p, sizeof p, src, s->files[i].path, err);
        if (rc == DMK_OK)
            rc = add_entry(a, &s->files[i], p, buf, &done, tick, ctx, zip, err);
    }
    if (a) {
        /* The central directory is written on close; libarchive counts
         * what it wrote, the archive's size. */
        if (archive_write_close(a) != ARCHIVE_OK && rc == DMK_OK)
            rc = archive_error(err, a, "finish", zip);
        *zip_bytes = (uint64_t)archive_filter_bytes(a, -1);
        archive_write_free(a);
    }
    if (fd >= 0) {
        if (rc == DMK_OK)
            rc = dmk_tree_sync(fd, zip, err);
        dmk_tree_close(fd);
    }
    free(buf);
    return rc;
}

/* An entry's name is one of the set's own (the test wrote the archive),
 * checked all the same: never a path out of dst. */
static const DmkSetFile *planned(const DmkFileSet *s, const char *name, size_t *hint)
{
    for (size_t k = 0; k < s->n_files; k++) {
        size_t i = (*hint + k) % s->n_files;
        if (strcmp(s->files[i].path, name) == 0) {
            *hint = i + 1;
            return &s->files[i];
        }
    }
    return NULL;
}

static int extract_entry(struct archive *a, const char *path, unsigned char *buf, uint64_t *done,
                         DmkTreeTick tick, void *ctx, const char *zip, DmkError *err)
{
    int fd = -1;
    int rc = dmk_tree_open(path, true, &fd, err);
    while (rc == DMK_OK) {
        la_ssize_t n = archive_read_data(a, buf, DMK_FILESET_CHUNK);
        if (n < 0)
            rc = archive_error(err, a, "read", zip);
        if (n <= 0)
            break;
        rc = dmk_tree_write(fd, buf, (size_t)n, path, err);
        *done += (uint64_t)n;
        if (rc == DMK_OK && tick && tick(*done, ctx))
            rc = dmk_error_set(err, DMK_E_STOPPED, 0, "stopped by the user");
    }
    if (fd >= 0) {
        int rc2 = dmk_tree_sync(fd, path, err);
        rc = rc == DMK_OK ? rc2 : rc;
        dmk_tree_close(fd);
    }
    return rc;
}

int dmk_archive_extract(const DmkFileSet *s, const char *zip, const char *dst, DmkTreeTick tick,
                        void *ctx, DmkError *err)
{
    unsigned char *buf = malloc(DMK_FILESET_CHUNK);
    struct archive *a = archive_read_new();
    int fd = -1;
    int rc = buf && a ? DMK_OK : dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for an archive");
    if (rc == DMK_OK)
        rc = dmk_fileset_mkdirs(s, dst, err);
    if (rc == DMK_OK)
        rc = dmk_tree_open(zip, false, &fd, err);
    if (rc == DMK_OK && (archive_read_support_format_zip(a) != ARCHIVE_OK ||
                         archive_read_open_fd(a, fd, DMK_FILESET_CHUNK) != ARCHIVE_OK))
        rc = archive_error(err, a, "open", zip);
    uint64_t done = 0;
    size_t hint = 0, n = 0;
    char p[2048];
    struct archive_entry *e;
    while (rc == DMK_OK) {
        int r = archive_read_next_header(a, &e);
        if (r == ARCHIVE_EOF)
            break;
        if (r != ARCHIVE_OK) {
            rc = archive_error(err, a, "read", zip);
            break;
        }
        const DmkSetFile *f = planned(s, archive_entry_pathname(e), &hint);
        if (!f) {
            rc = dmk_error_set(err, DMK_E_IO, 0, "%s holds %s, which the test did not write", zip,
                               archive_entry_pathname(e));
            break;
        }
        rc = dmk_tree_join(p, sizeof p, dst, f->path, err);
        if (rc == DMK_OK)
            rc = extract_entry(a, p, buf, &done, tick, ctx, zip, err);
        n++;
    }
    if (rc == DMK_OK && n != s->n_files)
        rc = dmk_error_set(err, DMK_E_IO, 0, "%s holds %zu files of the %zu written", zip, n,
                           s->n_files);
    if (a)
        archive_read_free(a);
    dmk_tree_close(fd);
    if (rc == DMK_OK)
        rc = dmk_fileset_sync_dirs(s, dst, err);
    free(buf);
    return rc;
}

#else

bool dmk_archive_available(void)
{
    return false;
}

static int unavailable(DmkError *err)
{
    return dmk_error_set(err, DMK_E_NOTSUP, 0,
                         "this build has no libarchive: the archive and extract steps are not "
                         "available");
}

int dmk_archive_write(const DmkFileSet *s, const char *src, const char *zip, DmkTreeTick tick,
                      void *ctx, uint64_t *zip_bytes, DmkError *err)
{
    (void)s, (void)src, (void)zip, (void)tick, (void)ctx, (void)zip_bytes;
    return unavailable(err);
}

int dmk_archive_extract(const DmkFileSet *s, const char *zip, const char *dst, DmkTreeTick tick,
                        void *ctx, DmkError *err)
{
    (void)s, (void)zip, (void)dst, (void)tick, (void)ctx;
    return unavailable(err);
}
#endif
