/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The real-world lab test's file sets (docs/lab.md, "File sets"): three
 * trees planned from a seed and a size, every byte of them a function of
 * the seed, so two drives are measured on the same files.
 *
 *  ISO      four large incompressible files (disc images)
 *  Program  a deep tree of thousands of small and medium files, sizes
 *           log-normal as measured on an installed system
 *  Work     documents (text, compressible), photos and media (already
 *           compressed), PDFs (half and half), as an office's folder
 *
 * A set's files add up to exactly the size asked. */
#ifndef DMK_FILESET_H
#define DMK_FILESET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmk-error.h"

typedef enum { DMK_SET_ISO, DMK_SET_PROGRAM, DMK_SET_WORK, DMK_N_SETS } DmkSetKind;

/* What a file holds, which decides how well it compresses. */
typedef enum {
    DMK_CONTENT_RANDOM, /* disc images, photos, media: Deflate cannot shrink them */
    DMK_CONTENT_TEXT,   /* documents: words of a fixed list */
    DMK_CONTENT_MIXED,  /* PDFs: 64 KiB runs of text and of random bytes */
    DMK_CONTENT_BINARY, /* programs' files: random bytes with runs of zeros */
} DmkContent;

typedef struct {
    char *path; /* relative to the set's root, '/'-separated */
    uint64_t size;
    DmkContent content;
} DmkSetFile;

typedef struct {
    DmkSetKind kind;
    uint64_t seed;
    uint64_t bytes; /* the files' sizes added up: the size asked */
    size_t n_files;
    DmkSetFile *files;
    size_t n_dirs;
    char **dirs; /* relative, parents before children; "" (the root) not listed */
} DmkFileSet;

/* The seed every run uses, so that sets are the same on every drive. */
#define DMK_FILESET_SEED 20261202ULL

const char *dmk_set_name(DmkSetKind k); /* "ISO", "Program", "Work" */

/* Plans the set: its directories and files with their sizes. */
int dmk_fileset_plan(DmkFileSet *s, DmkSetKind kind, uint64_t bytes, uint64_t seed, DmkError *err);
void dmk_fileset_free(DmkFileSet *s);

/* len bytes of file i from offset off (a multiple of DMK_FILESET_CHUNK,
 * len at most one chunk): the same bytes for the same seed, always. */
#define DMK_FILESET_CHUNK (1u << 20)
void dmk_fileset_content(const DmkFileSet *s, size_t i, uint64_t off, unsigned char *buf,
                         size_t len);

/* Progress and stop of a tree operation: called after each chunk with
 * the bytes done so far; a true return stops it (DMK_E_STOPPED). */
typedef bool (*DmkTreeTick)(uint64_t done, void *ctx);

/* path joined: root + "/" + rel, into buf (DMK_E_INVAL when it does not fit). */
int dmk_tree_join(char *buf, size_t len, const char *root, const char *rel, DmkError *err);

/* Writes the set under root (which exists), each file synced to the
 * drive and dropped from the page cache. */
int dmk_fileset_write(const DmkFileSet *s, const char *root, DmkTreeTick tick, void *ctx,
                      DmkError *err);

/* Copies the set's files from src to dst (created), buffered in 1 MiB
 * reads and writes as applications copy, every file and directory synced
 * before it returns. The sources are dropped from the cache first. */
int dmk_fileset_drop_cache(const DmkFileSet *s, const char *root, DmkError *err);
int dmk_fileset_copy(const DmkFileSet *s, const char *src, const char *dst, DmkTreeTick tick,
                     void *ctx, DmkError *err);
/* The set's directories under root, created, and synced (in reverse). */
int dmk_fileset_mkdirs(const DmkFileSet *s, const char *root, DmkError *err);
int dmk_fileset_sync_dirs(const DmkFileSet *s, const char *root, DmkError *err);

/* The archive (dmk-archive.c, where libarchive is built in): the set
 * under src into one Deflate .zip at zip, synced; and back into dst,
 * every file synced. *zip_bytes: the archive's size. */
bool dmk_archive_available(void);
int dmk_archive_write(const DmkFileSet *s, const char *src, const char *zip, DmkTreeTick tick,
                      void *ctx, uint64_t *zip_bytes, DmkError *err);
int dmk_archive_extract(const DmkFileSet *s, const char *zip, const char *dst, DmkTreeTick tick,
                        void *ctx, DmkError *err);

#endif
