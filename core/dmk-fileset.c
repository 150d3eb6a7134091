/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The file sets (dmk-fileset.h): their plans, their bytes, and writing
 * and copying them through the page cache as applications do. The size
 * distributions and where each comes from are in docs/lab.md. */
#include "dmk-fileset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-platform.h"
#include "dmk-rng.h"

const char *dmk_set_name(DmkSetKind k)
{
    static const char *const names[DMK_N_SETS] = {"ISO", "Program", "Work"};
    return (unsigned)k < DMK_N_SETS ? names[k] : "";
}

/* ---- planning ------------------------------------------------------------------- */

static double unit(DmkRng *r)
{
    return ((double)(dmk_rng_next(r) >> 11) + 0.5) / 9007199254740992.0; /* (0, 1) */
}

/* A log-normal size: median e^mu, spread sigma (of the natural log). */
static uint64_t lognormal(DmkRng *r, double median, double sigma)
{
    double z = sqrt(-2.0 * log(unit(r))) * cos(2.0 * 3.14159265358979323846 * unit(r));
    double v = median * exp(sigma * z);
    return v < 1.0 ? 1 : (uint64_t)v;
}

static uint64_t uniform(DmkRng *r, uint64_t lo, uint64_t hi)
{
    return lo + (uint64_t)(unit(r) * (double)(hi - lo));
}

static char *dup_str(const char *buf)
{
    size_t len = strlen(buf) + 1;
    char *p = malloc(len);
    if (p)
        memcpy(p, buf, len);
    return p;
}

static int nomem(DmkError *err)
{
    return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the file set's plan");
}

static int add_dir(DmkFileSet *s, const char *parent, size_t n, const char *name, DmkError *err)
{
    if ((s->n_dirs & (s->n_dirs + 1)) == 0 || s->n_dirs == 0) {
        char **d = realloc(s->dirs, (s->n_dirs * 2 + 2) * sizeof *d);
        if (!d)
            return nomem(err);
        s->dirs = d;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s%s%s%03zu", parent, parent[0] ? "/" : "", name, n);
    char *p = dup_str(buf);
    if (!p)
        return nomem(err);
    s->dirs[s->n_dirs++] = p;
    return DMK_OK;
}

static int add_file(DmkFileSet *s, const char *dir, uint64_t size, DmkContent c, const char *ext,
                    DmkError *err)
{
    if ((s->n_files & (s->n_files + 1)) == 0 || s->n_files == 0) {
        DmkSetFile *f = realloc(s->files, (s->n_files * 2 + 2) * sizeof *f);
        if (!f)
            return nomem(err);
        s->files = f;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s%sf%05zu%s", dir, dir[0] ? "/" : "", s->n_files, ext);
    char *p = dup_str(buf);
    if (!p)
        return nomem(err);
    s->files[s->n_files++] = (DmkSetFile){p, size, c};
    s->bytes += size;
    return DMK_OK;
}

/* Four disc images of 0.75 to 1.25 times a quarter of the set. */
static int plan_iso(DmkFileSet *s, DmkRng *r, uint64_t bytes, DmkError *err)
{
    double w[4], sum = 0;
    for (int i = 0; i < 4; i++)
        sum += w[i] = 0.75 + 0.5 * unit(r);
    uint64_t left = bytes;
    int rc = DMK_OK;
    for (int i = 0; i < 4 && rc == DMK_OK; i++) {
        uint64_t size = i == 3 ? left : (uint64_t)((double)bytes * w[i] / sum);
        left -= size;
        rc = add_file(s, "", size, DMK_CONTENT_RANDOM, ".iso", err);
    }
    return rc;
}

/* Log-normal sizes as measured on an installed system (docs/lab.md), in
 * a tree that grows a new directory every 12 files or so, up to 8 deep,
 * the files going to one of the 8 newest directories (a program's files
 * lie together). A quarter of them are text (scripts, data, manifests). */
#define PROGRAM_MEDIAN 18848.0
#define PROGRAM_SIGMA  2.5
#define PROGRAM_MAX    (128ULL << 20)
static int plan_program(DmkFileSet *s, DmkRng *r, uint64_t bytes, DmkError *err)
{
    uint64_t cap = bytes / 8 < PROGRAM_MAX ? bytes / 8 : PROGRAM_MAX;
    size_t *depth = NULL, cap_dirs = 0;
    int rc = DMK_OK;
    while (rc == DMK_OK && s->bytes < bytes) {
        if (s->n_dirs == 0 || dmk_rng_below(r, 12) == 0) {
            size_t parent = s->n_dirs ? dmk_rng_below(r, (uint32_t)s->n_dirs + 1) : 0;
            /* parent 0 is the root, k the directory k - 1 */
            size_t d = parent ? depth[parent - 1] + 1 : 1;
            if (d <= 8) {
                if (s->n_dirs + 1 > cap_dirs) {
                    cap_dirs = cap_dirs * 2 + 16;
                    size_t *nd = realloc(depth, cap_dirs * sizeof *nd);
                    if (!nd) {
                        rc = nomem(err);
                        break;
                    }
                    depth = nd;
                }
                depth[s->n_dirs] = d;
                rc = add_dir(s, parent ? s->dirs[parent - 1] : "", s->n_dirs, "d", err);
                continue;
            }
        }
        uint32_t recent = s->n_dirs < 8 ? (uint32_t)s->n_dirs : 8;
        const char *dir = s->dirs[s->n_dirs - 1 - dmk_rng_below(r, recent)];
        uint64_t size = lognormal(r, PROGRAM_MEDIAN, PROGRAM_SIGMA);
        size = size > cap ? cap : size;
        size = size > bytes - s->bytes ? bytes - s->bytes : size;
        bool text = dmk_rng_below(r, 4) == 0;
        rc = add_file(s, dir, size, text ? DMK_CONTENT_TEXT : DMK_CONTENT_BINARY,
                      text ? ".txt" : ".bin", err);
    }
    free(depth);
    return rc;
}

/* An office's folder: by bytes 15 % documents, 20 % PDFs, 35 % photos and
 * 30 % videos (by count mostly documents), each kind in its own folders of
 * 100 files at most. Shares by bytes, not by count: a few videos would
 * otherwise hold nearly all of it and leave Deflate nothing to do. */
static const struct {
    const char *dir, *ext;
    DmkContent content;
    bool lognormal;
    double a, b; /* median and sigma, or the uniform range in bytes */
    uint64_t max;
} work_kinds[4] = {
    {"Documents", ".txt", DMK_CONTENT_TEXT, true, 48.0 * 1024, 1.3, 16ULL << 20},
    {"Photos", ".jpg", DMK_CONTENT_RANDOM, false, 2.0 * 1048576, 8.0 * 1048576, 8ULL << 20},
    {"PDFs", ".pdf", DMK_CONTENT_MIXED, true, 300.0 * 1024, 1.2, 64ULL << 20},
    {"Videos", ".mp4", DMK_CONTENT_RANDOM, false, 20.0 * 1048576, 400.0 * 1048576, 400ULL << 20},
};
static const double work_share[4] = {0.15, 0.35, 0.20, 0.30}; /* of the bytes */

static int plan_work(DmkFileSet *s, DmkRng *r, uint64_t bytes, DmkError *err)
{
    uint64_t cap = bytes / 4;
    size_t count[4] = {0}, dir_of[4] = {0};
    uint64_t have[4] = {0};
    int rc = DMK_OK;
    while (rc == DMK_OK && s->bytes < bytes) {
        /* The kind furthest below its share of what the set will hold
         * once the next file is in: the shares hold at any size. */
        int k = 0;
        double worst = -1e300;
        for (int j = 0; j < 4; j++) {
            double short_by = work_share[j] * ((double)s->bytes + 1.0) - (double)have[j];
            if (short_by > worst) {
                worst = short_by;
                k = j;
            }
        }
        if (count[k]++ % 100 == 0) {
            rc = add_dir(s, "", count[k] / 100 + 1, work_kinds[k].dir, err);
            dir_of[k] = s->n_dirs - 1;
            if (rc != DMK_OK)
                break;
        }
        uint64_t size = work_kinds[k].lognormal
                            ? lognormal(r, work_kinds[k].a, work_kinds[k].b)
                            : uniform(r, (uint64_t)work_kinds[k].a, (uint64_t)work_kinds[k].b);
        size = size > work_kinds[k].max ? work_kinds[k].max : size;
        size = size > cap ? cap : size;
        size = size > bytes - s->bytes ? bytes - s->bytes : size;
        have[k] += size;
        rc = add_file(s, s->dirs[dir_of[k]], size, work_kinds[k].content, work_kinds[k].ext, err);
    }
    return rc;
}

int dmk_fileset_plan(DmkFileSet *s, DmkSetKind kind, uint64_t bytes, uint64_t seed, DmkError *err)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->seed = seed;
    DmkRng r;
    dmk_rng_seed(&r, seed ^ ((uint64_t)kind << 56));
    int rc = kind == DMK_SET_ISO       ? plan_iso(s, &r, bytes, err)
             : kind == DMK_SET_PROGRAM ? plan_program(s, &r, bytes, err)
                                       : plan_work(s, &r, bytes, err);
    if (rc != DMK_OK)
        dmk_fileset_free(s);
    return rc;
}

void dmk_fileset_free(DmkFileSet *s)
{
    for (size_t i = 0; i < s->n_files; i++)
        free(s->files[i].path);
    for (size_t i = 0; i < s->n_dirs; i++)
        free(s->dirs[i]);
    free(s->files);
    free(s->dirs);
    memset(s, 0, sizeof *s);
}

/* ---- the bytes -------------------------------------------------------------------- */

/* Words for documents, the most frequent first: a Zipf-like pick of them
 * gives text that Deflate shrinks about as much as prose (docs/lab.md). */
static const char *const words[] = {
    "the",      "of",       "and",     "to",      "a",        "in",        "is",      "that",
    "for",      "it",       "as",      "was",     "with",     "be",        "by",      "on",
    "not",      "he",       "this",    "are",     "or",       "his",       "from",    "at",
    "which",    "but",      "have",    "an",      "had",      "they",      "you",     "were",
    "their",    "one",      "all",     "we",      "can",      "her",       "has",     "there",
    "been",     "if",       "more",    "when",    "will",     "would",     "who",     "so",
    "no",       "report",   "quarter", "budget",  "meeting",  "customer",  "project", "results",
    "drive",    "storage",  "review",  "planned", "schedule", "increase",  "revenue", "market",
    "team",     "product",  "design",  "support", "service",  "contract",  "invoice", "total",
    "monthly",  "annual",   "figure",  "table",   "summary",  "analysis",  "section", "approved",
    "draft",    "final",    "version", "change",  "request",  "delivery",  "order",   "account",
    "estimate", "forecast", "growth",  "cost",    "price",    "quality",   "risk",    "policy",
    "staff",    "office",   "travel",  "expense", "training", "equipment", "network", "security",
    "update",   "release",  "test",    "issue",   "solution", "strategy",  "goal",    "progress",
    "week",     "month",    "year",    "day",     "north",    "south",     "region",  "sales",
    "second",   "third",    "new",     "old",     "large",    "small",     "first",   "last",
};
#define N_WORDS (sizeof words / sizeof words[0])

static void fill_random(DmkRng *r, unsigned char *buf, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t v = dmk_rng_next(r);
        memcpy(buf + i, &v, 8);
    }
    uint64_t v = dmk_rng_next(r);
    for (; i < len; i++, v >>= 8)
        buf[i] = (unsigned char)v;
}

static void fill_text(DmkRng *r, unsigned char *buf, size_t len)
{
    size_t i = 0, in_sentence = 0, sentences = 0;
    uint32_t sentence = 8 + dmk_rng_below(r, 13);
    while (i < len) {
        double u = unit(r);
        const char *w = words[(size_t)(u * u * (double)N_WORDS)];
        for (size_t k = 0; w[k] && i < len; k++)
            buf[i++] = (unsigned char)w[k];
        const char *sep = " ";
        if (++in_sentence == sentence) {
            in_sentence = 0;
            sentence = 8 + dmk_rng_below(r, 13);
            sep = ++sentences % 5 == 0 ? ".\n" : ". ";
        }
        for (size_t k = 0; sep[k] && i < len; k++)
            buf[i++] = (unsigned char)sep[k];
    }
}

#define RUN (64u << 10)

void dmk_fileset_content(const DmkFileSet *s, size_t i, uint64_t off, unsigned char *buf,
                         size_t len)
{
    DmkRng r;
    /* Each chunk has its own seed: any chunk can be made on its own. */
    uint64_t x = s->seed ^ ((uint64_t)s->kind << 56) ^ ((uint64_t)i << 24) ^ (off >> 20);
    dmk_rng_seed(&r, dmk_splitmix64(&x));
    DmkContent c = s->files[i].content;
    if (c == DMK_CONTENT_RANDOM) {
        fill_random(&r, buf, len);
        return;
    }
    if (c == DMK_CONTENT_TEXT) {
        fill_text(&r, buf, len);
        return;
    }
    /* PDFs: runs of page text and of embedded (compressed) images;
     * programs: 4 KiB pages of code (random), text and zeros. */
    size_t run = c == DMK_CONTENT_MIXED ? RUN : 4096;
    for (size_t at = 0; at < len; at += run) {
        size_t n = len - at < run ? len - at : run;
        uint32_t pick = dmk_rng_below(&r, 4);
        if (c == DMK_CONTENT_MIXED ? pick < 2 : pick == 0)
            fill_text(&r, buf + at, n);
        else if (c == DMK_CONTENT_BINARY && pick == 1)
            memset(buf + at, 0, n);
        else
            fill_random(&r, buf + at, n);
    }
}

/* ---- on the drive ------------------------------------------------------------------ */

int dmk_tree_join(char *buf, size_t len, const char *root, const char *rel, DmkError *err)
{
    int n = snprintf(buf, len, "%s%s%s", root, rel[0] ? "/" : "", rel);
    if (n < 0 || (size_t)n >= len)
        return dmk_error_set(err, DMK_E_INVAL, 0, "the path %s/%s is too long", root, rel);
    return DMK_OK;
}

int dmk_fileset_mkdirs(const DmkFileSet *s, const char *root, DmkError *err)
{
    char p[2048];
    int rc = dmk_tree_mkdir(root, err);
    for (size_t i = 0; rc == DMK_OK && i < s->n_dirs; i++) {
        rc = dmk_tree_join(p, sizeof p, root, s->dirs[i], err);
        if (rc == DMK_OK)
            rc = dmk_tree_mkdir(p, err);
    }
    return rc;
}

int dmk_fileset_sync_dirs(const DmkFileSet *s, const char *root, DmkError *err)
{
    char p[2048];
    int rc = DMK_OK;
    for (size_t i = s->n_dirs; rc == DMK_OK && i > 0; i--) {
        rc = dmk_tree_join(p, sizeof p, root, s->dirs[i - 1], err);
        if (rc == DMK_OK)
            rc = dmk_tree_sync_dir(p, err);
    }
    return rc == DMK_OK ? dmk_tree_sync_dir(root, err) : rc;
}

/* The end of a file's writing: durable, and out of the page cache. */
static int finish_file(int fd, const char *path, bool drop, DmkError *err)
{
    int rc = dmk_tree_sync(fd, path, err);
    if (rc == DMK_OK && drop)
        dmk_tree_drop_cache(fd, path);
    dmk_tree_close(fd);
    return rc;
}

static int stopped(DmkError *err)
{
    return dmk_error_set(err, DMK_E_STOPPED, 0, "stopped by the user");
}

int dmk_fileset_write(const DmkFileSet *s, const char *root, DmkTreeTick tick, void *ctx,
                      DmkError *err)
{
    unsigned char *buf = malloc(DMK_FILESET_CHUNK);
    if (!buf)
        return nomem(err);
    int rc = dmk_fileset_mkdirs(s, root, err);
    uint64_t done = 0;
    char p[2048];
    for (size_t i = 0; rc == DMK_OK && i < s->n_files; i++) {
        int fd = -1;
        rc = dmk_tree_join(p, sizeof p, root, s->files[i].path, err);
        if (rc == DMK_OK)
            rc = dmk_tree_open(p, true, &fd, err);
        for (uint64_t off = 0; rc == DMK_OK && off < s->files[i].size; off += DMK_FILESET_CHUNK) {
            uint64_t left = s->files[i].size - off;
            size_t n = left < DMK_FILESET_CHUNK ? (size_t)left : DMK_FILESET_CHUNK;
            dmk_fileset_content(s, i, off, buf, n);
            rc = dmk_tree_write(fd, buf, n, p, err);
            done += n;
            if (rc == DMK_OK && tick && tick(done, ctx))
                rc = stopped(err);
        }
        if (fd >= 0) {
            int rc2 = finish_file(fd, p, true, err);
            rc = rc == DMK_OK ? rc2 : rc;
        }
    }
    if (rc == DMK_OK)
        rc = dmk_fileset_sync_dirs(s, root, err);
    free(buf);
    return rc;
}

int dmk_fileset_drop_cache(const DmkFileSet *s, const char *root, DmkError *err)
{
    char p[2048];
    int rc = DMK_OK;
    for (size_t i = 0; rc == DMK_OK && i < s->n_files; i++) {
        int fd = -1;
        rc = dmk_tree_join(p, sizeof p, root, s->files[i].path, err);
        if (rc == DMK_OK)
            rc = dmk_tree_open(p, false, &fd, err);
        if (rc == DMK_OK)
            rc = finish_file(fd, p, true, err);
    }
    return rc;
}

static int copy_file(const char *from, const char *to, unsigned char *buf, uint64_t *done,
                     DmkTreeTick tick, void *ctx, DmkError *err)
{
    int in = -1, out = -1;
    int rc = dmk_tree_open(from, false, &in, err);
    if (rc == DMK_OK)
        rc = dmk_tree_open(to, true, &out, err);
    while (rc == DMK_OK) {
        int64_t n = dmk_tree_read(in, buf, DMK_FILESET_CHUNK, from, err);
        if (n <= 0) {
            rc = (int)(n < 0 ? n : DMK_OK);
            break;
        }
        rc = dmk_tree_write(out, buf, (size_t)n, to, err);
        *done += (uint64_t)n;
        if (rc == DMK_OK && tick && tick(*done, ctx))
            rc = stopped(err);
    }
    dmk_tree_close(in);
    if (out >= 0) {
        /* A copy is done when it is on the drive, as Robocopy's is when
         * the handles close and the cache is flushed. */
        int rc2 = finish_file(out, to, false, err);
        rc = rc == DMK_OK ? rc2 : rc;
    }
    return rc;
}

int dmk_fileset_copy(const DmkFileSet *s, const char *src, const char *dst, DmkTreeTick tick,
                     void *ctx, DmkError *err)
{
    unsigned char *buf = malloc(DMK_FILESET_CHUNK);
    if (!buf)
        return nomem(err);
    int rc = dmk_fileset_mkdirs(s, dst, err);
    uint64_t done = 0;
    char from[2048], to[2048];
    for (size_t i = 0; rc == DMK_OK && i < s->n_files; i++) {
        rc = dmk_tree_join(from, sizeof from, src, s->files[i].path, err);
        if (rc == DMK_OK)
            rc = dmk_tree_join(to, sizeof to, dst, s->files[i].path, err);
        if (rc == DMK_OK)
            rc = copy_file(from, to, buf, &done, tick, ctx, err);
    }
    if (rc == DMK_OK)
        rc = dmk_fileset_sync_dirs(s, dst, err);
    free(buf);
    return rc;
}
