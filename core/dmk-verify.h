/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The verify option: every written block carries a 64-byte header (magic,
 * run id, offset, sequence, the payload's place in the run's data pool and
 * its first key, length, test, CRC32C of the block) and is read back and checked after
 * its test's timed part. Private to the core, except the result types in
 * dmk-result.h; docs/verify.md describes the format and what is caught. */
#ifndef DMK_VERIFY_H
#define DMK_VERIFY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "dmk-error.h"
#include "dmk-platform.h"
#include "dmk-pool.h"
#include "dmk-result.h"

#define DMK_VERIFY_MAGIC  0x31594652564b4d44ULL /* "DMKVRFY1" in memory order */
#define DMK_VERIFY_HEADER 64u
/* Granularity of the pool's precomputed CRCs: every block size is a
 * power of two of at least this (DMK_BS_MIN). */
#define DMK_VERIFY_UNIT 512u

/* Stored in native (little-endian) order at the start of each block. */
typedef struct {
    uint64_t magic;
    uint64_t run_id;
    uint64_t offset;   /* the block's byte offset in the test file */
    uint64_t seq;      /* the worker's write number; worker index in the top 16 bits */
    uint64_t pool_off; /* the payload is pool[pool_off + 64, pool_off + len) ... */
    uint32_t len;
    uint32_t test;     /* 1-based index of the test that wrote it */
    uint64_t key;      /* ... XOR the keys from this counter on (dmk_pool_fill) */
    uint32_t reserved; /* zero */
    uint32_t crc;      /* CRC32C of the whole block with this field zero */
} DmkBlockHeader;

_Static_assert(sizeof(DmkBlockHeader) == DMK_VERIFY_HEADER, "the block header is 64 bytes");

/* The run's data pool with the CRC32C of each of its prefixes at every
 * DMK_VERIFY_UNIT, so that a write's CRC costs two 64-byte CRCs and a
 * few multiplications per key instead of a pass over the block. */
typedef struct {
    const DmkPool *pool;
    uint32_t *prefix; /* prefix[k] = CRC32C(pool[0, k * UNIT)) */
    size_t n_prefix;
    uint64_t run_id;
} DmkVerifyPool;

int dmk_verify_pool_init(DmkVerifyPool *vp, const DmkPool *pool, uint64_t run_id, DmkError *err);
void dmk_verify_pool_free(DmkVerifyPool *vp);

/* One worker's record of its writes: bit sets over the blocks of its
 * slice [base, base + nblocks * bs). Only that worker's thread writes it. */
typedef struct {
    uint64_t base;
    uint32_t bs;
    uint32_t test; /* 1-based */
    uint64_t nblocks;
    uint64_t *written;             /* a write of it completed */
    uint64_t *inflight;            /* a write of it is in flight */
    uint64_t *overlap;             /* two writes of it were in flight at once: content undefined */
    uint32_t shift_len, shift_pay; /* dmk_crc32c_shift(bs), (bs - 64) */
    /* For the keys' share of the CRC (dmk_verify_stamp): the shift over
     * one key's unit, and the sum of x^(64 i) over its 8-byte words. */
    uint32_t shift_unit, key_sum;
    uint64_t seq;
} DmkVerifyMap;

int dmk_verify_map_init(DmkVerifyMap *m, uint64_t base, uint64_t span, uint32_t bs, uint32_t test,
                        uint32_t worker, DmkError *err);
void dmk_verify_map_free(DmkVerifyMap *m);

/* Fills buf (len bytes) for a write at `offset`: the write's data
 * (dmk_pool_fill of the pool's bytes at pool_off with the keys from
 * counter value `key` on) with the header stamped over the first 64. */
void dmk_verify_stamp(const DmkVerifyPool *vp, DmkVerifyMap *m, unsigned char *buf, uint64_t offset,
                      uint64_t pool_off, uint64_t key);

static inline void dmk_verify_bit_set(uint64_t *bits, uint64_t i)
{
    bits[i >> 6] |= 1ULL << (i & 63);
}

static inline bool dmk_verify_bit(const uint64_t *bits, uint64_t i)
{
    return bits[i >> 6] >> (i & 63) & 1;
}

/* A write of the block at `offset` goes out: one already in flight makes
 * the block's content undefined (the drive may keep either, or a mix). */
static inline void dmk_verify_issued(DmkVerifyMap *m, uint64_t offset)
{
    uint64_t i = (offset - m->base) / m->bs;
    if (dmk_verify_bit(m->inflight, i))
        dmk_verify_bit_set(m->overlap, i);
    dmk_verify_bit_set(m->inflight, i);
}

static inline void dmk_verify_completed(DmkVerifyMap *m, uint64_t offset)
{
    uint64_t i = (offset - m->base) / m->bs;
    m->inflight[i >> 6] &= ~(1ULL << (i & 63));
    dmk_verify_bit_set(m->written, i);
}

/* Checks one block read back from `offset`. Returns true when it is good;
 * otherwise *bad_at is the block-relative offset of its first wrong byte
 * and *why the kind of damage. */
bool dmk_verify_block(const DmkVerifyPool *vp, const unsigned char *buf, uint64_t offset,
                      uint32_t len, uint32_t test, uint32_t *bad_at, DmkVerifyBad *why);

/* How the read-back goes: fraction done, 0..1. */
typedef void (*DmkVerifyProgressFn)(double fraction, void *ctx);

typedef struct {
    const DmkBackend *be;
    DmkTarget *target;
    const DmkVerifyPool *vp;
    const char *path; /* for messages: "the test file in DIR", "the device DEV" */
    uint64_t watchdog_ns;
    atomic_int *stop;
    DmkVerifyProgressFn progress;
    void *ctx;
    /* Set (when not NULL) where a read was left in flight (no answer for
     * the watchdog time, or a stop on a hung drive): on a backend whose
     * queue_close waits (DmkBackend.close_waits) its queue and buffer are
     * then kept, never closed nor freed, and the caller must not close
     * the target either. */
    bool *inflight_left;
} DmkVerifyReader;

/* Reads back every block that the maps say was written (in file order,
 * in large reads through the backend's own queue) and records what it
 * found in *out. A stop ends it early with DMK_E_STOPPED. */
int dmk_verify_readback(const DmkVerifyReader *rd, DmkVerifyMap *const *maps, uint32_t n_maps,
                        DmkVerifyResult *out, DmkError *err);

#endif
