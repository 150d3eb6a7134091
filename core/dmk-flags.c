/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Honest numbers: the flags that say when a score is not what the drive
 * sustains, and the words for them, shared by every front end (report,
 * CLI, tiles) and the file formats. */
#include <stdio.h>
#include <string.h>

#include "dmk-i18n.h"
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
 * made); a result read back from a file keeps only the flag. Two whole
 * sentences, each translated on its own. */
static void paused_tip(const DmkTestResult *t, char *tip, size_t tlen)
{
    uint32_t pass = 0;
    double s = dmk_test_paused_s(t, &pass);
    char a[32], head[400];
    if (s > 0)
        /* TRANSLATORS: %1$u is the pass's number, %2$s its pause in seconds ("1.5"). */
        snprintf(head, sizeof head,
                 DMK_("Paused: In pass %u, for %s s nothing was submitted or completed (the "
                      "program was stopped, or the file system was frozen), and that time counts "
                      "in the pass's numbers."),
                 pass + 1, dmk_format_double(s, 1, a, sizeof a));
    else
        snprintf(head, sizeof head, "%s",
                 DMK_("Paused: For a while nothing was submitted or completed (the program was "
                      "stopped, or the file system was frozen), and that time counts in the "
                      "pass's numbers."));
    bool score_clean = t->n_passes && t->passes[t->best_pass].paused_s <= 0 && s > 0;
    snprintf(tip, tlen, "%s %s", head,
             score_clean ? DMK_("The score is from a pass without a pause.")
                         : DMK_("The score may be far below what the drive does: run it again."));
}

/* The RAM-backed and storage-unknown tips, with the storage's note where
 * the platform gave one (a path or a driver's words: kept as saved). */
static void storage_tip(const DmkTargetInfo *ti, bool ram, char *tip, size_t tlen)
{
    if (ram && ti->storage_note[0])
        /* TRANSLATORS: %s is what the storage is ("/dev/zram0 (zram: compressed RAM)"). */
        snprintf(tip, tlen,
                 DMK_("RAM-backed: the target's storage is memory (%.700s), so this is memory's "
                      "speed, not a drive's. A RAM-backed device given on purpose is run (to "
                      "measure the engine), and flagged."),
                 ti->storage_note);
    else if (ram)
        snprintf(tip, tlen, "%s",
                 DMK_("RAM-backed: the target's storage is memory, so this is memory's speed, "
                      "not a drive's. A RAM-backed device given on purpose is run (to measure "
                      "the engine), and flagged."));
    else if (ti->storage_note[0])
        /* TRANSLATORS: %s is where the walk down to the drive stopped. */
        snprintf(tip, tlen,
                 DMK_("Storage unknown: Drivemark could not follow the target down to a drive "
                      "(%.700s). If it is RAM-backed, this is memory's speed, not a drive's."),
                 ti->storage_note);
    else
        snprintf(tip, tlen, "%s",
                 DMK_("Storage unknown: Drivemark could not follow the target down to a drive. "
                      "If it is RAM-backed, this is memory's speed, not a drive's."));
}

static void cached_tip(const DmkTargetInfo *ti, char *tip, size_t tlen)
{
    if (ti->cache_note[0])
        /* TRANSLATORS: %s says which loop device caches ("the loop device /dev/loop4 reads
           and writes its backing file through the page cache"). */
        snprintf(tip, tlen,
                 DMK_("Cached: %.250s, so the numbers measure memory as much as the drive. "
                      "Attach the loop device with direct I/O (losetup --direct-io=on) for the "
                      "drive's numbers."),
                 ti->cache_note);
    else
        snprintf(tip, tlen, "%s",
                 DMK_("Cached: a loop device under the target reads and writes its backing file "
                      "through the page cache, so the numbers measure memory as much as the "
                      "drive. Attach the loop device with direct I/O (losetup --direct-io=on) "
                      "for the drive's numbers."));
}

static void peak_tip(const DmkRunResult *r, char *tip, size_t tlen)
{
    char area[sizeof r->target.path + 64], b[32];
    dmk_result_area(r, area, sizeof area);
    /* TRANSLATORS: %1$s is what was tested ("1 GiB test file"), %2$s a size ("32 GiB"). */
    snprintf(tip, tlen,
             DMK_("Peak: the %s fits in a drive's cache (SLC or DRAM), so this is the drive at "
                  "its best, not what it sustains. Reviews test %s or more to get past the "
                  "cache."),
             area, dmk_format_size(DMK_PEAK_SPAN_BYTES, b, sizeof b));
}

static void over_interface_tip(const DmkTargetInfo *ti, const DmkTestResult *t, char *tip,
                               size_t tlen)
{
    char a[32], b[32];
    double top =
        t->score.read.mb_s > t->score.write.mb_s ? t->score.read.mb_s : t->score.write.mb_s;
    /* TRANSLATORS: %1$s and %3$s are speeds in MB/s, %2$s the link ("SATA 6.0 Gbps"). */
    snprintf(tip, tlen,
             DMK_("Over the interface: %s MB/s is more than the drive's link (%s) carries, "
                  "%s MB/s per direction. A cache in front of the drive or compressed data "
                  "made this number, not the drive."),
             dmk_format_double(top, 1, a, sizeof a),
             /* TRANSLATORS: the drive's link, when the platform could not name it. */
             ti->iface[0] ? ti->iface : DMK_("unknown"),
             dmk_format_double((double)ti->iface_bytes_s / 1e6, 0, b, sizeof b));
}

void dmk_flag_describe(const DmkRunResult *r, const DmkTestResult *t, uint32_t bit, char *marker,
                       size_t mlen, char *tip, size_t tlen)
{
    char a[32], kind[16];
    const DmkTargetInfo *ti = &r->target;
    /* The markers are short words after a test's line ("[peak, QD 12.4 of 32]"). */
    if (bit == DMK_FLAG_PEAK) {
        /* TRANSLATORS: a marker: the number is the drive at its best (in its cache). */
        snprintf(marker, mlen, "%s", DMK_("peak"));
        if (tip)
            peak_tip(r, tip, tlen);
    } else if (bit == DMK_FLAG_OVER_INTERFACE) {
        link_kind(ti->iface, kind, sizeof kind);
        /* TRANSLATORS: a marker; %s is the kind of link ("SATA", "USB"). */
        snprintf(marker, mlen, DMK_("over %s limit"), kind);
        if (tip)
            over_interface_tip(ti, t, tip, tlen);
    } else if (bit == DMK_FLAG_LOW_QD) {
        /* TRANSLATORS: a marker: the queue depth achieved ("12.4") of the one asked (32). */
        snprintf(marker, mlen, DMK_("QD %s of %u"),
                 dmk_format_double(t->achieved_qd, 1, a, sizeof a), dmk_test_asked_qd(&t->test));
        if (tip)
            /* TRANSLATORS: %1$s is a queue depth achieved ("12.4"), %2$u the one asked. */
            snprintf(tip, tlen,
                     DMK_("Queue depth: on average %s requests were in flight, not the %u "
                          "asked (queue depth x threads); the OS or the drive accepted fewer, so "
                          "this number is for a lower queue depth."),
                     dmk_format_double(t->achieved_qd, 1, a, sizeof a),
                     dmk_test_asked_qd(&t->test));
    } else if (bit == DMK_FLAG_RAM_BACKED || bit == DMK_FLAG_STORAGE_UNKNOWN) {
        bool ram = bit == DMK_FLAG_RAM_BACKED;
        /* TRANSLATORS: markers: the target's storage is memory, or may be. */
        snprintf(marker, mlen, "%s", ram ? DMK_("RAM-backed") : DMK_("may be RAM"));
        if (tip)
            storage_tip(ti, ram, tip, tlen);
    } else if (bit == DMK_FLAG_CACHED) {
        /* TRANSLATORS: a marker: the page cache was between the test and the drive. */
        snprintf(marker, mlen, "%s", DMK_("cached"));
        if (tip)
            cached_tip(ti, tip, tlen);
    } else if (bit == DMK_FLAG_PAUSED) {
        /* TRANSLATORS: a marker: nothing was submitted or completed for a while. */
        snprintf(marker, mlen, "%s", DMK_("paused"));
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

/* The notes' lines, each a whole sentence, shown (never saved: the files
 * keep cow, compression, storage_note and cache_note themselves). */
void dmk_run_fs_notes(const DmkRunResult *r, char *buf, size_t len)
{
    const DmkTargetInfo *ti = &r->target;
    /* TRANSLATORS: stands for a file system's name ("btrfs") at the start of a note
       ("btrfs copy-on-write: ..."), when the platform could not name it. */
    const char *fs = ti->fs_type[0] ? ti->fs_type : DMK_("the file system");
    char line[1024];
    buf[0] = '\0';
    if (ti->cow == DMK_FS_FEATURE_OFF) {
        /* TRANSLATORS: %s is a file system ("btrfs"); NOCOW is its attribute's name. */
        snprintf(line, sizeof line, DMK_("%s copy-on-write: turned off for the test file (NOCOW)"),
                 fs);
        append(buf, len, line);
    } else if (ti->cow == DMK_FS_FEATURE_ACTIVE) {
        snprintf(line, sizeof line,
                 DMK_("%s copy-on-write: active, the numbers include it (it could not be turned "
                      "off for the test file)"),
                 fs);
        append(buf, len, line);
    }
    if (ti->storage_note[0]) {
        /* TRANSLATORS: %s is what the storage is ("/dev/zram0 (zram: compressed RAM)"). */
        snprintf(line, sizeof line,
                 ti->storage == DMK_STORAGE_RAM
                     ? DMK_("storage: %.900s: RAM-backed, the numbers measure memory")
                     : DMK_("storage: %.900s: unknown, it may be RAM-backed"),
                 ti->storage_note);
        append(buf, len, line);
    }
    if (ti->cache_note[0]) {
        snprintf(line, sizeof line,
                 DMK_("cache: %.250s: the numbers measure memory as much as the drive"),
                 ti->cache_note);
        append(buf, len, line);
    }
    if (ti->leftover_note[0]) {
        snprintf(line, sizeof line, "%.900s", ti->leftover_note);
        append(buf, len, line);
    }
    if (ti->compression == DMK_FS_FEATURE_OFF) {
        snprintf(line, sizeof line, DMK_("%s compression: turned off for the test file"), fs);
        append(buf, len, line);
    } else if (ti->compression == DMK_FS_FEATURE_ACTIVE) {
        snprintf(line, sizeof line,
                 r->data == DMK_DATA_ZERO
                     ? DMK_("%s compression: active, the numbers include it (all-zero data "
                            "compresses away)")
                     : DMK_("%s compression: active, the numbers include it (random data does "
                            "not compress, but costs CPU)"),
                 fs);
        append(buf, len, line);
    }
}
