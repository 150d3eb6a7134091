/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmk-crc32c.h"

/* Read-back in reads of this size (or one block, when larger). */
#define VERIFY_CHUNK   (4u << 20)
#define VERIFY_REAP_NS 50000000ULL

int dmk_verify_pool_init(DmkVerifyPool *vp, const DmkPool *pool, uint64_t run_id, DmkError *err)
{
    memset(vp, 0, sizeof *vp);
    vp->pool = pool;
    vp->run_id = run_id;
    vp->n_prefix = pool->size / DMK_VERIFY_UNIT + 1;
    vp->prefix = malloc(vp->n_prefix * sizeof *vp->prefix);
    if (!vp->prefix)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the verify option's CRCs");
    vp->prefix[0] = 0;
    for (size_t k = 1; k < vp->n_prefix; k++)
        vp->prefix[k] =
            dmk_crc32c(vp->prefix[k - 1], pool->data + (k - 1) * DMK_VERIFY_UNIT, DMK_VERIFY_UNIT);
    return DMK_OK;
}

void dmk_verify_pool_free(DmkVerifyPool *vp)
{
    free(vp->prefix);
    memset(vp, 0, sizeof *vp);
}

int dmk_verify_map_init(DmkVerifyMap *m, uint64_t base, uint64_t span, uint32_t bs, uint32_t test,
                        uint32_t worker, DmkError *err)
{
    memset(m, 0, sizeof *m);
    m->base = base;
    m->bs = bs;
    m->test = test;
    m->nblocks = span / bs;
    m->seq = (uint64_t)worker << 48;
    size_t words = (size_t)((m->nblocks + 63) / 64);
    m->written = calloc(words ? words : 1, sizeof *m->written);
    m->inflight = calloc(words ? words : 1, sizeof *m->inflight);
    m->overlap = calloc(words ? words : 1, sizeof *m->overlap);
    if (!m->written || !m->inflight || !m->overlap) {
        dmk_verify_map_free(m);
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the verify option's maps");
    }
    m->shift_len = dmk_crc32c_shift(bs);
    m->shift_pay = dmk_crc32c_shift(bs - DMK_VERIFY_HEADER);
    uint32_t unit = bs < DMK_POOL_KEY_UNIT ? bs : DMK_POOL_KEY_UNIT;
    m->shift_unit = dmk_crc32c_shift(unit);
    uint32_t x64 = dmk_crc32c_shift(8), p = 1u << 31; /* x^0 */
    for (uint32_t i = 0; i < unit / 8; i++) {
        m->key_sum ^= p;
        p = dmk_crc32c_combine(p, 0, x64);
    }
    return DMK_OK;
}

void dmk_verify_map_free(DmkVerifyMap *m)
{
    free(m->written);
    free(m->inflight);
    free(m->overlap);
    memset(m, 0, sizeof *m);
}

/* a * b modulo the CRC polynomial (dmk_crc32c_combine with nothing after). */
static uint32_t gf_mul(uint32_t a, uint32_t b)
{
    return a ? dmk_crc32c_combine(b, 0, a) : 0;
}

/* The CRC32C of the key stream K alone, without its init and final
 * inversion (the part of CRC(S ^ K) that K adds, as a CRC is linear:
 * CRC(S ^ K) = CRC(S) ^ this). Unit u repeats its 8-byte key k_u, so its
 * share is crc(k_u) times the sum of x^(64 i) over its words (key_sum),
 * and the units chain as any concatenation does: a few multiplications
 * per 4 KiB, not a pass over the data. */
static uint32_t keys_crc(const DmkVerifyMap *m, uint64_t x)
{
    static const unsigned char zeros[8];
    uint32_t zero8 = dmk_crc32c(0, zeros, 8), acc = 0;
    for (uint32_t u = 0; u < dmk_pool_units(m->bs); u++, x += DMK_POOL_KEY_STEP) {
        uint64_t k = dmk_pool_key(x);
        acc = dmk_crc32c_combine(acc, dmk_crc32c(0, &k, 8) ^ zero8, m->shift_unit);
    }
    return gf_mul(m->key_sum, acc);
}

/* The block is S' = pool[a, a + len) XOR the keys (the write's data,
 * dmk_pool_fill) with its first 64 bytes X replaced by the header H; Y
 * is the payload that follows. From the precomputed prefixes, CRC(S)
 * costs one multiplication and CRC(S') = CRC(S) ^ keys_crc; CRC(H || Y)
 * = CRC(H) * x^|Y| ^ CRC(Y) and CRC(Y) = CRC(X) * x^|Y| ^ CRC(S'), so
 * only H and X (128 bytes) are hashed. The fill is the write's one pass
 * over its data, as without verify. */
void dmk_verify_stamp(const DmkVerifyPool *vp, DmkVerifyMap *m, unsigned char *buf, uint64_t offset,
                      uint64_t pool_off, uint64_t key)
{
    uint32_t len = m->bs;
    dmk_pool_fill(vp->pool, buf, pool_off, len, key);
    DmkBlockHeader h = {.magic = DMK_VERIFY_MAGIC,
                        .run_id = vp->run_id,
                        .offset = offset,
                        .seq = m->seq++,
                        .pool_off = pool_off,
                        .len = len,
                        .test = m->test,
                        .key = key};
    uint32_t crc_s =
        dmk_crc32c_combine(vp->prefix[pool_off / DMK_VERIFY_UNIT],
                           vp->prefix[(pool_off + len) / DMK_VERIFY_UNIT], m->shift_len);
    if (vp->pool->keyed)
        crc_s ^= keys_crc(m, key);
    uint32_t crc_x = dmk_crc32c(0, buf, DMK_VERIFY_HEADER);
    uint32_t crc_h = dmk_crc32c(0, &h, sizeof h);
    h.crc = dmk_crc32c_combine(crc_h ^ crc_x, crc_s, m->shift_pay);
    memcpy(buf, &h, sizeof h);
}

/* ---- checking ------------------------------------------------------------ */

static uint32_t header_crc(const DmkBlockHeader *h)
{
    DmkBlockHeader z = *h;
    z.crc = 0;
    return dmk_crc32c(0, &z, sizeof z);
}

/* The header fields whose right value the reader knows, in byte order. */
typedef struct {
    uint32_t from, to;
} DmkSpan;

static const DmkSpan known_fields[] = {
    {offsetof(DmkBlockHeader, magic), offsetof(DmkBlockHeader, offset)}, /* magic, run id */
    {offsetof(DmkBlockHeader, offset), offsetof(DmkBlockHeader, seq)},
    {offsetof(DmkBlockHeader, len), offsetof(DmkBlockHeader, key)}, /* len, test */
};

/* The first byte of a known field that differs from want; -1 when none. */
static int first_known_diff(const unsigned char *got, const DmkBlockHeader *want)
{
    const unsigned char *w = (const unsigned char *)want;
    for (size_t f = 0; f < sizeof known_fields / sizeof known_fields[0]; f++)
        for (uint32_t i = known_fields[f].from; i < known_fields[f].to; i++)
            if (got[i] != w[i])
                return (int)i;
    return -1;
}

static bool pool_off_valid(const DmkPool *p, uint64_t off, uint32_t len)
{
    return off % p->align == 0 && off <= p->size && len <= p->size - off;
}

/* The first byte of the payload that differs from what the write put
 * there, the pool at pool_off XOR the keys from counter value `key` on
 * (dmk_pool_fill), as an offset in the block; len when none does. Made
 * a word at a time and left at the first difference: the searches below
 * try thousands of wrong places, each rejected by its first word. */
static uint32_t payload_diff(const DmkPool *p, const unsigned char *buf, uint64_t pool_off,
                             uint64_t key, uint32_t len)
{
    const unsigned char *src = p->data + pool_off;
    uint32_t unit = len < DMK_POOL_KEY_UNIT ? len : DMK_POOL_KEY_UNIT;
    uint64_t k = 0;
    for (uint32_t at = DMK_VERIFY_HEADER; at < len; at += 8) {
        if (p->keyed && (at == DMK_VERIFY_HEADER || at % unit == 0))
            k = dmk_pool_key(key + (uint64_t)(at / unit) * DMK_POOL_KEY_STEP);
        uint64_t want, got;
        memcpy(&want, src + at, 8);
        memcpy(&got, buf + at, 8);
        want ^= k;
        for (uint32_t i = 0; want != got && i < 8; i++, want >>= 8, got >>= 8)
            if ((want & 0xff) != (got & 0xff))
                return at + i; /* little-endian: byte i of the word */
    }
    return len;
}

/* The payload matches the pool but the CRC does not: a byte of a header
 * field the reader cannot know (sequence, pool offset, key, reserved, the CRC
 * itself) changed. One changed byte is found by trying each value in
 * each place (~7000 64-byte CRCs, on this rare path only). */
static uint32_t find_header_byte(DmkBlockHeader h, uint32_t crc_pay, uint32_t shift_pay)
{
    uint32_t want = h.crc;
    unsigned char *b = (unsigned char *)&h;
    uint32_t crc_at = offsetof(DmkBlockHeader, crc);
    uint32_t diff = dmk_crc32c_combine(header_crc(&h), crc_pay, shift_pay) ^ want;
    for (uint32_t k = 0; k < 4; k++)
        if ((diff & ~(0xffu << (8 * k))) == 0) /* only byte k of the CRC differs */
            return crc_at + k;
    for (uint32_t i = offsetof(DmkBlockHeader, seq); i < crc_at; i++) {
        if (i >= offsetof(DmkBlockHeader, len) && i < offsetof(DmkBlockHeader, key))
            continue; /* known, and found right */
        unsigned char orig = b[i];
        for (unsigned v = 0; v < 256; v++) {
            b[i] = (unsigned char)v;
            if (v != orig && dmk_crc32c_combine(header_crc(&h), crc_pay, shift_pay) == want)
                return i;
        }
        b[i] = orig;
    }
    return offsetof(DmkBlockHeader, seq);
}

/* Whether the header with pool_off and key set so makes the payload the
 * write's and the CRC hold (the CRC rules out a chance match, as in a
 * pool of zeros). */
static bool header_explains(const DmkPool *p, const unsigned char *buf, const DmkBlockHeader *got,
                            uint64_t pool_off, uint64_t key, uint32_t len)
{
    if (!pool_off_valid(p, pool_off, len) || payload_diff(p, buf, pool_off, key, len) < len)
        return false;
    DmkBlockHeader h = *got;
    h.pool_off = pool_off;
    h.key = key;
    return dmk_crc32c(header_crc(&h), buf + DMK_VERIFY_HEADER, len - DMK_VERIFY_HEADER) == got->crc;
}

/* The payload differs from the write's from its first word on: maybe the
 * pool offset or (random data) the key in the header is what changed.
 * Returns the header byte that, set right, makes the whole payload match
 * and the CRC hold; 0 when none does. */
static uint32_t find_source_byte(const DmkPool *p, const unsigned char *buf,
                                 const DmkBlockHeader *got, uint32_t len)
{
    uint64_t off = got->pool_off, key = got->key;
    for (uint32_t i = 0; i < 8; i++) {
        uint64_t mask = ~(0xffULL << (8 * i));
        for (uint64_t v = 0; v < 256; v++) {
            uint64_t cand = (off & mask) | v << (8 * i);
            if (cand != off && header_explains(p, buf, got, cand, key, len))
                return offsetof(DmkBlockHeader, pool_off) + i;
        }
    }
    for (uint32_t i = 0; p->keyed && i < 8; i++) {
        uint64_t mask = ~(0xffULL << (8 * i));
        for (uint64_t v = 0; v < 256; v++) {
            uint64_t cand = (key & mask) | v << (8 * i);
            if (cand != key && header_explains(p, buf, got, off, cand, len))
                return offsetof(DmkBlockHeader, key) + i;
        }
    }
    return 0;
}

/* Known fields right, CRC wrong: where the first wrong byte is. */
static uint32_t locate_corruption(const DmkVerifyPool *vp, const unsigned char *buf,
                                  const DmkBlockHeader *got, uint32_t len)
{
    const DmkPool *p = vp->pool;
    const unsigned char *pay = buf + DMK_VERIFY_HEADER;
    uint32_t pay_len = len - DMK_VERIFY_HEADER;
    if (!pool_off_valid(p, got->pool_off, len)) {
        uint32_t at = find_source_byte(p, buf, got, len);
        return at ? at : offsetof(DmkBlockHeader, pool_off);
    }
    uint32_t d = payload_diff(p, buf, got->pool_off, got->key, len);
    if (d < DMK_VERIFY_HEADER + 8) {
        uint32_t at = find_source_byte(p, buf, got, len);
        if (at)
            return at;
    }
    if (d < len)
        return d;
    return find_header_byte(*got, dmk_crc32c(0, pay, pay_len), dmk_crc32c_shift(pay_len));
}

bool dmk_verify_block(const DmkVerifyPool *vp, const unsigned char *buf, uint64_t offset,
                      uint32_t len, uint32_t test, uint32_t *bad_at, DmkVerifyBad *why)
{
    DmkBlockHeader got, want = {.magic = DMK_VERIFY_MAGIC,
                                .run_id = vp->run_id,
                                .offset = offset,
                                .len = len,
                                .test = test};
    memcpy(&got, buf, sizeof got);
    uint32_t crc = dmk_crc32c(header_crc(&got), buf + DMK_VERIFY_HEADER, len - DMK_VERIFY_HEADER);
    int d = first_known_diff(buf, &want);
    *why = DMK_VERIFY_OK;
    *bad_at = 0;
    if (d < 0 && crc == got.crc)
        return true;
    if (d >= 0) {
        /* With the known fields set right, does the CRC hold? Then only
         * they changed: corruption, not a block from elsewhere. */
        DmkBlockHeader fixed = got;
        fixed.magic = want.magic;
        fixed.run_id = want.run_id;
        fixed.offset = want.offset;
        fixed.len = want.len;
        fixed.test = want.test;
        uint32_t fixed_crc =
            dmk_crc32c(header_crc(&fixed), buf + DMK_VERIFY_HEADER, len - DMK_VERIFY_HEADER);
        *bad_at = (uint32_t)d;
        if (fixed_crc == got.crc)
            *why = DMK_VERIFY_CORRUPT;
        else if (d < (int)offsetof(DmkBlockHeader, offset))
            *why = DMK_VERIFY_NO_HEADER;
        else if (got.test != 0 && got.test < test)
            *why = DMK_VERIFY_STALE; /* perhaps of another size: its CRC is not checkable here */
        else if (crc != got.crc)
            *why = DMK_VERIFY_CORRUPT;
        else if (d < (int)offsetof(DmkBlockHeader, seq))
            *why = DMK_VERIFY_WRONG_OFFSET;
        else
            *why = DMK_VERIFY_STALE;
        return false;
    }
    *why = DMK_VERIFY_CORRUPT;
    *bad_at = locate_corruption(vp, buf, &got, len);
    return false;
}

/* After a stop, how long a read still gets before it is left to the OS. */
#define DMK_VERIFY_STOP_NS 3000000000ULL

/* ---- reading back -------------------------------------------------------- */

/* One read of len bytes at off into buf, waited for (the read-back runs
 * at QD1 in large reads: plenty for a check that is not timed). */
static int read_at(const DmkVerifyReader *rd, DmkQueue *q, DmkIo *io, void *buf, uint64_t off,
                   uint32_t len, DmkError *err)
{
    memset(io, 0, sizeof *io);
    io->offset = off;
    io->buf = buf;
    io->len = len;
    io->op = DMK_OP_READ;
    uint64_t t0 = dmk_clock_ns();
    int rc;
    while ((rc = rd->be->submit(q, &io, 1, err)) == 0 || rc == DMK_E_AGAIN) {
        if (dmk_clock_ns() - t0 > rd->watchdog_ns)
            return dmk_error_set(err, DMK_E_TIMEOUT, 0, "the drive kept refusing the read");
        dmk_sleep_ns(100000);
    }
    if (rc < 0)
        return rc;
    DmkIo *done = NULL;
    for (;;) {
        int n = rd->be->reap(q, 1, 1, VERIFY_REAP_NS, &done, err);
        if (n < 0)
            return n;
        if (n == 1)
            break;
        uint64_t waited = dmk_clock_ns() - t0;
        bool stopped = atomic_load(rd->stop) && waited > DMK_VERIFY_STOP_NS;
        if (waited > rd->watchdog_ns || stopped) {
            if (rd->inflight_left)
                *rd->inflight_left = true; /* the read is still the drive's */
            if (stopped)
                return dmk_error_set(err, DMK_E_STOPPED, 0,
                                     "stopped by the user (the read was left to the OS)");
            return dmk_error_set(err, DMK_E_TIMEOUT, 0,
                                 "no answer for %.0f s; the drive stopped responding",
                                 (double)rd->watchdog_ns / 1e9);
        }
    }
    if (io->res == (int64_t)len)
        return DMK_OK;
    if (io->res >= 0)
        return dmk_error_set(err, DMK_E_SHORT, 0, "only %lld bytes came back (short transfer)",
                             (long long)io->res);
    if (io->os_error)
        return dmk_error_os(err, (int)io->res, io->os_error, "the read failed");
    return dmk_error_set(err, (int)io->res, 0, "the read failed (error %lld)", (long long)io->res);
}

static bool any_written(const DmkVerifyMap *m, uint64_t from, uint64_t n)
{
    for (uint64_t i = from; i < from + n; i++) {
        if ((i & 63) == 0 && i + 64 <= from + n && m->written[i >> 6] == 0) {
            i += 63;
            continue;
        }
        if (dmk_verify_bit(m->written, i))
            return true;
    }
    return false;
}

static uint64_t count_written(const DmkVerifyMap *m)
{
    uint64_t n = 0;
    for (uint64_t w = 0; w < (m->nblocks + 63) / 64; w++)
        for (uint64_t x = m->written[w]; x; x &= x - 1)
            n++;
    return n;
}

static void check_chunk(const DmkVerifyReader *rd, const DmkVerifyMap *m, const unsigned char *buf,
                        uint64_t first, uint64_t n, DmkVerifyResult *out)
{
    for (uint64_t k = 0; k < n; k++) {
        uint64_t i = first + k;
        if (!dmk_verify_bit(m->written, i))
            continue;
        if (dmk_verify_bit(m->overlap, i)) {
            out->skipped++;
            continue;
        }
        uint64_t off = m->base + i * m->bs;
        uint32_t at;
        DmkVerifyBad why;
        out->blocks++;
        out->bytes += m->bs;
        if (dmk_verify_block(rd->vp, buf + k * m->bs, off, m->bs, m->test, &at, &why))
            continue;
        if (!out->bad || off < out->first_bad_block) {
            out->first_bad_block = off;
            out->first_bad_byte = off + at;
            out->first_bad_why = why;
        }
        out->bad++;
    }
}

static int readback_map(const DmkVerifyReader *rd, DmkQueue *q, unsigned char *buf, uint32_t cap,
                        const DmkVerifyMap *m, uint64_t *done, uint64_t total, DmkVerifyResult *out,
                        DmkError *err)
{
    uint64_t per = cap / m->bs;
    for (uint64_t b = 0; b < m->nblocks; b += per) {
        uint64_t n = m->nblocks - b < per ? m->nblocks - b : per;
        if (!any_written(m, b, n))
            continue;
        if (atomic_load(rd->stop))
            return dmk_error_set(err, DMK_E_STOPPED, 0, "stopped by the user");
        uint64_t off = m->base + b * m->bs;
        DmkIo io;
        int rc = read_at(rd, q, &io, buf, off, (uint32_t)(n * m->bs), err);
        if (rc != DMK_OK) {
            char why[sizeof err->msg];
            snprintf(why, sizeof why, "%s", err->msg);
            return dmk_error_set(err, rc, err->os_error,
                                 "verifying: reading %llu bytes at offset %llu of %s failed: "
                                 "%.600s",
                                 (unsigned long long)(n * m->bs), (unsigned long long)off, rd->path,
                                 why);
        }
        uint64_t before = out->blocks + out->skipped;
        check_chunk(rd, m, buf, b, n, out);
        *done += out->blocks + out->skipped - before;
        if (rd->progress)
            rd->progress(total ? (double)*done / (double)total : 1.0, rd->ctx);
    }
    return DMK_OK;
}

int dmk_verify_readback(const DmkVerifyReader *rd, DmkVerifyMap *const *maps, uint32_t n_maps,
                        DmkVerifyResult *out, DmkError *err)
{
    uint64_t t0 = dmk_clock_ns(), total = 0, done = 0;
    uint32_t cap = VERIFY_CHUNK;
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < n_maps; i++) {
        total += count_written(maps[i]);
        cap = maps[i]->bs > cap ? maps[i]->bs : cap;
    }
    DmkQueue *q = NULL;
    uint32_t align = rd->vp->pool->align;
    unsigned char *buf = dmk_aligned_alloc(align < 4096 ? 4096 : align, cap);
    if (!buf)
        return dmk_error_set(err, DMK_E_NOMEM, 0, "out of memory for the verify option's reads");
    int rc = rd->be->queue_open(rd->target, 1, &q, err);
    if (rc == DMK_OK && rd->be->queue_memory)
        rd->be->queue_memory(q, buf, cap);
    for (uint32_t i = 0; rc == DMK_OK && i < n_maps; i++)
        rc = readback_map(rd, q, buf, cap, maps[i], &done, total, out, err);
    /* A read left in flight may still land in buf, and closing its queue
     * would wait for the drive: both kept for the life of the process. */
    bool keep = rd->inflight_left && *rd->inflight_left && rd->be->close_waits;
    if (q && !keep)
        rd->be->queue_close(q);
    if (!keep)
        dmk_aligned_free(buf);
    out->checked = rc == DMK_OK;
    out->seconds = (double)(dmk_clock_ns() - t0) / 1e9;
    return rc;
}
