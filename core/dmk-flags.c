/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Honest numbers: the flags that say when a score is not what the drive
 * sustains, and the words for them, shared by every front end (report,
 * CLI, tiles) and the file formats. */
#include <stdio.h>
#include <string.h>

#include "dmk-result.h"
#include "dmk-size.h"

static const struct {
    uint32_t bit;
    const char *name;
} flag_names[] = {
    {DMK_FLAG_PEAK, "peak"},
    {DMK_FLAG_OVER_INTERFACE, "over_interface"},
    {DMK_FLAG_LOW_QD, "low_qd"},
    {DMK_FLAG_RAM_BACKED, "ram_backed"},
    {DMK_FLAG_STORAGE_UNKNOWN, "storage_unknown"},
    {DMK_FLAG_PAUSED, "paused"},
    {DMK_FLAG_CACHED, "cached"},
};
#define N_FLAGS (sizeof flag_names / sizeof flag_names[0])

uint32_t dmk_test_asked_qd(const DmkTest *t)
{
    uint32_t sum = 0;
    for (int j = 0; j < t->n_jobs; j++)
        sum += t->jobs[j].queue_depth * t->jobs[j].threads;
    return sum;
}

/* Each direction against the link: PCIe and USB 3 carry both at once,
 * so a mixed test's total may exceed one direction's limit honestly. */
static bool over_interface(const DmkRunResult *r, const DmkTestResult *t)
{
    double limit = (double)r->target.iface_bytes_s / 1e6;
    if (limit <= 0)
        return false; /* unknown link: no check */
    return t->score.read.mb_s > limit || t->score.write.mb_s > limit;
}

/* Short of the asked depth by 10 % and by at least one whole request:
 * between a completion and the resubmit the engine holds the request
 * itself, so a fast drive at QD1 averages ~0.8 in flight, which is the
 * engine's turnaround, not a queue that fell short. A rate-limited test
 * keeps fewer requests in flight on purpose. */
static bool low_qd(const DmkTestResult *t)
{
    uint32_t asked = dmk_test_asked_qd(&t->test);
    return t->achieved_qd > 0 && !t->test.rate_iops && asked &&
           t->achieved_qd < DMK_LOW_QD_SHARE * asked && t->achieved_qd <= asked - 1.0;
}

uint32_t dmk_test_flags(const DmkRunResult *r, const DmkTestResult *t)
{
    uint32_t f = 0;
    if (r->size > 0 && r->size < DMK_PEAK_SPAN_BYTES)
        f |= DMK_FLAG_PEAK;
    if (over_interface(r, t))
        f |= DMK_FLAG_OVER_INTERFACE;
    if (low_qd(t))
        f |= DMK_FLAG_LOW_QD;
    /* Every test of the run shares its target's storage. */
    if (r->target.storage == DMK_STORAGE_RAM)
        f |= DMK_FLAG_RAM_BACKED;
    else if (r->target.storage == DMK_STORAGE_UNKNOWN)
        f |= DMK_FLAG_STORAGE_UNKNOWN;
    if (dmk_test_paused_s(t, NULL) > 0)
        f |= DMK_FLAG_PAUSED;
    if (r->target.cache_note[0])
        f |= DMK_FLAG_CACHED;
    return f;
}

const char *dmk_flag_name(uint32_t bit)
{
    for (size_t i = 0; i < N_FLAGS; i++)
        if (flag_names[i].bit == bit)
            return flag_names[i].name;
    return NULL;
}

char *dmk_flags_format(uint32_t flags, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_FLAGS && used < len; i++) {
        if (!(flags & flag_names[i].bit))
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? " " : "", flag_names[i].name);
        used += n > 0 ? (size_t)n : 0;
    }
    return buf;
}

bool dmk_flags_parse(const char *s, uint32_t *flags)
{
    *flags = 0;
    while (*s) {
        const char *end = strchr(s, ' ');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        uint32_t bit = 0;
        for (size_t i = 0; i < N_FLAGS && !bit; i++)
            if (strlen(flag_names[i].name) == n && memcmp(flag_names[i].name, s, n) == 0)
                bit = flag_names[i].bit;
        if (!bit || (*flags & bit))
            return false;
        *flags |= bit;
        if (!end)
            break;
        s = end + 1;
        if (!*s)
            return false; /* a trailing space */
    }
    return true;
}

/* "SATA 6.0 Gbps" -> "SATA": the marker stays short. */
static void link_kind(const char *iface, char *buf, size_t len)
{
    size_t n = strcspn(iface, " ");
    snprintf(buf, len, "%.*s", (int)n, iface[0] ? iface : "link");
}

/* The pause's length and pass where the result knows them (a run just
 * made); a result read back from a file keeps only the flag. */
static void paused_tip(const DmkTestResult *t, char *tip, size_t tlen)
{
    uint32_t pass = 0;
    double s = dmk_test_paused_s(t, &pass);
    char a[32];
    const char *what = "For a while nothing was submitted or completed";
    char head[160];
    if (s > 0) {
        snprintf(head, sizeof head, "In pass %u, for %s s nothing was submitted or completed",
                 pass + 1, dmk_format_double(s, 1, a, sizeof a));
        what = head;
    }
    bool score_clean = t->n_passes && t->passes[t->best_pass].paused_s <= 0 && s > 0;
    snprintf(tip, tlen,
             "Paused: %s (the program was stopped, or the file system was frozen), and that time "
             "counts in the pass's numbers. %s",
             what,
             score_clean ? "The score is from a pass without a pause."
                         : "The score may be far below what the drive does: run it again.");
}

void dmk_flag_describe(const DmkRunResult *r, const DmkTestResult *t, uint32_t bit, char *marker,
                       size_t mlen, char *tip, size_t tlen)
{
    char a[32], b[32], kind[16];
    const DmkTargetInfo *ti = &r->target;
    if (bit == DMK_FLAG_PEAK) {
        snprintf(marker, mlen, "peak");
        char area[sizeof ti->path + 64];
        dmk_result_area(r, area, sizeof area);
        if (tip)
            snprintf(tip, tlen,
                     "Peak: the %s fits in a drive's cache (SLC or DRAM), so this is the drive "
                     "at its best, not what it sustains. Reviews test %s or more to get past the "
                     "cache.",
                     area, dmk_format_size(DMK_PEAK_SPAN_BYTES, b, sizeof b));
    } else if (bit == DMK_FLAG_OVER_INTERFACE) {
        link_kind(ti->iface, kind, sizeof kind);
        snprintf(marker, mlen, "over %s limit", kind);
        if (tip)
            snprintf(tip, tlen,
                     "Over the interface: %s MB/s is more than the drive's link (%s) carries, "
                     "%s MB/s per direction. A cache in front of the drive or compressed data "
                     "made this number, not the drive.",
                     dmk_format_double(t->score.read.mb_s > t->score.write.mb_s
                                           ? t->score.read.mb_s
                                           : t->score.write.mb_s,
                                       1, a, sizeof a),
                     ti->iface[0] ? ti->iface : "unknown",
                     dmk_format_double((double)ti->iface_bytes_s / 1e6, 0, b, sizeof b));
    } else if (bit == DMK_FLAG_LOW_QD) {
        snprintf(marker, mlen, "QD %s of %u", dmk_format_double(t->achieved_qd, 1, a, sizeof a),
                 dmk_test_asked_qd(&t->test));
        if (tip)
            snprintf(tip, tlen,
                     "Queue depth: on average %s requests were in flight, not the %u asked "
                     "(queue depth x threads); the OS or the drive accepted fewer, so this "
                     "number is for a lower queue depth.",
                     dmk_format_double(t->achieved_qd, 1, a, sizeof a),
                     dmk_test_asked_qd(&t->test));
    } else if (bit == DMK_FLAG_RAM_BACKED) {
        snprintf(marker, mlen, "RAM-backed");
        if (tip)
            snprintf(tip, tlen,
                     "RAM-backed: the target's storage is memory%s%.700s%s, so this is memory's "
                     "speed, not a drive's. A RAM-backed device given on purpose is run (to "
                     "measure the engine), and flagged.",
                     ti->storage_note[0] ? " (" : "", ti->storage_note,
                     ti->storage_note[0] ? ")" : "");
    } else if (bit == DMK_FLAG_STORAGE_UNKNOWN) {
        snprintf(marker, mlen, "may be RAM");
        if (tip)
            snprintf(tip, tlen,
                     "Storage unknown: Drivemark could not follow the target down to a "
                     "drive%s%.700s%s. If it is RAM-backed, this is memory's speed, not a "
                     "drive's.",
                     ti->storage_note[0] ? " (" : "", ti->storage_note,
                     ti->storage_note[0] ? ")" : "");
    } else if (bit == DMK_FLAG_CACHED) {
        snprintf(marker, mlen, "cached");
        if (tip)
            snprintf(tip, tlen,
                     "Cached: %.250s, so the numbers measure memory as much as the drive. "
                     "Attach the loop device with direct I/O (losetup --direct-io=on) for the "
                     "drive's numbers.",
                     ti->cache_note[0] ? ti->cache_note
                                       : "a loop device under the target reads and writes its "
                                         "backing file through the page cache");
    } else if (bit == DMK_FLAG_PAUSED) {
        snprintf(marker, mlen, "paused");
        if (tip)
            paused_tip(t, tip, tlen);
    } else {
        snprintf(marker, mlen, "?");
        if (tip)
            snprintf(tip, tlen, "?");
    }
}

static const char *const feature_names[] = {"none", "off", "active"};

const char *dmk_fs_feature_name(DmkFsFeature f)
{
    return (unsigned)f < 3 ? feature_names[f] : "none";
}

int dmk_fs_feature_parse(const char *s)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(s, feature_names[i]) == 0)
            return i;
    return -1;
}

static void append(char *buf, size_t len, const char *line)
{
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, "%s\n", line);
}

void dmk_run_fs_notes(const DmkRunResult *r, char *buf, size_t len)
{
    const DmkTargetInfo *ti = &r->target;
    const char *fs = ti->fs_type[0] ? ti->fs_type : "the file system";
    char line[1024];
    buf[0] = '\0';
    if (ti->cow == DMK_FS_FEATURE_OFF) {
        snprintf(line, sizeof line, "%s copy-on-write: turned off for the test file (NOCOW)", fs);
        append(buf, len, line);
    } else if (ti->cow == DMK_FS_FEATURE_ACTIVE) {
        snprintf(line, sizeof line,
                 "%s copy-on-write: active, the numbers include it (it could not be turned off "
                 "for the test file)",
                 fs);
        append(buf, len, line);
    }
    if (ti->storage_note[0]) {
        snprintf(line, sizeof line, "storage: %.900s%s", ti->storage_note,
                 ti->storage == DMK_STORAGE_RAM ? ": RAM-backed, the numbers measure memory"
                                                : ": unknown, it may be RAM-backed");
        append(buf, len, line);
    }
    if (ti->cache_note[0]) {
        snprintf(line, sizeof line,
                 "cache: %.250s: the numbers measure memory as much as the drive", ti->cache_note);
        append(buf, len, line);
    }
    if (ti->leftover_note[0]) {
        snprintf(line, sizeof line, "%.900s", ti->leftover_note);
        append(buf, len, line);
    }
    if (ti->compression == DMK_FS_FEATURE_OFF) {
        snprintf(line, sizeof line, "%s compression: turned off for the test file", fs);
        append(buf, len, line);
    } else if (ti->compression == DMK_FS_FEATURE_ACTIVE) {
        snprintf(line, sizeof line, "%s compression: active, the numbers include it (%s data)", fs,
                 r->data == DMK_DATA_ZERO ? "all-zero data compresses away"
                                          : "random data does not compress, but costs CPU");
        append(buf, len, line);
    }
}
