/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-outfile.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

int dmk_outfile_check(DmkOutFile *o, const char *path, DmkError *err)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    if (!path)
        return DMK_OK;
    if (strcmp(path, "-") == 0) {
        o->kind = DMK_OUT_STDOUT;
        return DMK_OK;
    }
    int rc = dmk_os_output_info(path, &o->info, err);
    if (rc != DMK_OK)
        return rc;
    if (o->info.is_stdout) {
        o->kind = DMK_OUT_STDOUT; /* like "-": one stream, nothing mixed in */
        return DMK_OK;
    }
    if (o->info.kind == DMK_FILE_REGULAR || o->info.kind == DMK_FILE_MISSING) {
        o->kind = DMK_OUT_REPLACE;
        return DMK_OK;
    }
    o->kind = DMK_OUT_DIRECT;
    return dmk_os_open_special(path, &o->f, err);
}

/* ASCII case-blind equality of two paths. */
static bool fold_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x != y && !(x < 0x80 && y < 0x80 && tolower(x) == tolower(y)))
            return false;
    }
    return *a == *b;
}

bool dmk_outfile_same(const DmkOutFile *a, const DmkOutFile *b)
{
    if (a->kind == DMK_OUT_NONE || b->kind == DMK_OUT_NONE)
        return false;
    if (a->kind == DMK_OUT_STDOUT || b->kind == DMK_OUT_STDOUT)
        return a->kind == b->kind;
    /* /dev/null twice is no loss: nothing is kept either way. */
    if (a->kind == DMK_OUT_DIRECT && b->kind == DMK_OUT_DIRECT && a->info.kind == DMK_FILE_CHAR)
        return false;
    if (a->info.exists && b->info.exists && a->info.ino && b->info.ino)
        return a->info.dev == b->info.dev && a->info.ino == b->info.ino;
    /* Neither there yet: on a file system that ignores case (vfat, NTFS,
     * exFAT) "R.json" and "r.json" would be one file, and nothing tells
     * before one exists; refused too, as the safe side. One there and one
     * not: on such a file system both would be there, so they differ. */
    if (!a->info.exists && !b->info.exists)
        return fold_equal(a->info.real, b->info.real);
    return dmk_os_same_path(a->info.real, b->info.real);
}

bool dmk_outfile_is_input(const DmkOutFile *o, const char *input)
{
    DmkFileInfo in;
    if (o->kind != DMK_OUT_REPLACE || !dmk_os_input_info(input, &in))
        return false;
    /* The input exists; an output that does not is another file. */
    if (!o->info.exists)
        return false;
    if (o->info.ino && in.ino)
        return o->info.dev == in.dev && o->info.ino == in.ino;
    return dmk_os_same_path(o->info.real, in.real);
}

/* Removes the temporary file; when it cannot be (an append-only
 * directory), err (if any) says where it was left and how to remove it. */
static void drop_tmp_saying(DmkOutFile *o, DmkError *err)
{
    if (!o->tmp[0])
        return;
    bool gone = dmk_os_remove_file(o->tmp);
    if (gone)
        dmk_error_append(err, "; its temporary file was removed");
    else
        dmk_error_append(err, "; the temporary file %s could not be removed: remove it by hand",
                         o->tmp);
    o->tmp[0] = '\0';
}

/* A test file made, renamed and removed (dmk_os_rename_probe), then the
 * temporary file, before anything is written: a directory that lets a
 * file be created but not renamed fails now, not after a whole
 * benchmark. The temporary file stays open, so writing the result later
 * needs no new name in that directory. */
static int begin_replace(DmkOutFile *o, DmkError *err)
{
    int rc = dmk_os_rename_probe(o->info.real, err);
    if (rc == DMK_OK)
        rc = dmk_os_temp_beside(o->info.real, &o->info, o->tmp, sizeof o->tmp, &o->f, err);
    return rc;
}

int dmk_outfile_begin(DmkOutFile *o, DmkError *err)
{
    switch (o->kind) {
    case DMK_OUT_STDOUT:
        o->f = stdout;
        return DMK_OK;
    case DMK_OUT_DIRECT:
        return o->f ? DMK_OK : dmk_os_open_special(o->path, &o->f, err);
    case DMK_OUT_REPLACE:
        return o->f ? DMK_OK : begin_replace(o, err);
    default:
        return dmk_error_set(err, DMK_E_INVAL, 0, "no file to write");
    }
}

/* " (the old PATH was kept)" or " (PATH was not created)" after err. */
static void say_kept(const DmkOutFile *o, DmkError *err)
{
    if (o->info.exists)
        dmk_error_append(err, " (the old %s was kept)", o->path);
    else
        dmk_error_append(err, " (%s was not created)", o->path);
}

int dmk_outfile_commit(DmkOutFile *o, DmkError *err)
{
    int rc = DMK_OK;
    if (!o->f)
        return dmk_error_set(err, DMK_E_INVAL, 0, "writing %s failed: not open", o->path);
    if (o->kind == DMK_OUT_STDOUT) {
        o->f = NULL;
        if (fflush(stdout) != 0 || ferror(stdout))
            return dmk_error_errno(err, errno, "writing %s failed", o->path);
        return DMK_OK;
    }
    rc = dmk_os_file_sync(o->f, o->path, err);
    /* A nameless temporary file gets its name only now, complete and on
     * disk, for the instant until the rename. */
    if (rc == DMK_OK && o->kind == DMK_OUT_REPLACE && !o->tmp[0])
        rc = dmk_os_temp_name(o->f, o->info.real, o->tmp, sizeof o->tmp, err);
    /* fclose after a failed sync still frees the stream; its error is
     * the same failure, said once. */
    if (fclose(o->f) != 0 && rc == DMK_OK)
        rc = dmk_error_errno(err, errno, "writing %s failed", o->path);
    o->f = NULL;
    if (o->kind == DMK_OUT_DIRECT)
        return rc;
    if (rc == DMK_OK)
        rc = dmk_os_replace_file(o->tmp, o->info.real, err);
    if (rc == DMK_OK) {
        o->tmp[0] = '\0'; /* it is the file now */
        return DMK_OK;
    }
    say_kept(o, err);
    drop_tmp_saying(o, err);
    return rc;
}

void dmk_outfile_abort(DmkOutFile *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    else if (o->f)
        fflush(stdout);
    o->f = NULL;
    drop_tmp_saying(o, NULL);
}

void dmk_outfile_fail(DmkOutFile *o, DmkError *err)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    else if (o->f)
        fflush(stdout);
    o->f = NULL;
    if (o->kind == DMK_OUT_REPLACE)
        say_kept(o, err);
    drop_tmp_saying(o, err);
}

int dmk_outfile_write(const char *path, int (*write)(FILE *f, void *ctx, DmkError *err), void *ctx,
                      DmkError *err)
{
    DmkOutFile o;
    int rc = dmk_outfile_check(&o, path, err);
    if (rc == DMK_OK)
        rc = dmk_outfile_begin(&o, err);
    if (rc != DMK_OK) {
        dmk_outfile_abort(&o);
        return rc;
    }
    rc = write(o.f, ctx, err);
    if (rc != DMK_OK) {
        dmk_outfile_fail(&o, err);
        return rc;
    }
    return dmk_outfile_commit(&o, err);
}
