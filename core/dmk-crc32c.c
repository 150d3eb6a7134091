/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "dmk-crc32c.h"

#include <stdatomic.h>
#include <string.h>

#if defined(__GNUC__) && defined(__x86_64__)
#include <nmmintrin.h>
#define DMK_CRC_X86 1
#endif

#define POLY 0x82f63b78u /* 0x1EDC6F41 reflected */

static uint32_t table[8][256];
static uint32_t x2n[32]; /* x^(2^k) mod P */
static bool use_hw;
static atomic_int state; /* 0: not built, 1: being built, 2: ready */

/* a * b mod P, both reflected (zlib's multmodp). */
static uint32_t mul(uint32_t a, uint32_t b)
{
    uint32_t m = 1u << 31, p = 0;
    for (;;) {
        if (a & m) {
            p ^= b;
            if ((a & (m - 1)) == 0)
                break;
        }
        m >>= 1;
        b = b & 1 ? (b >> 1) ^ POLY : b >> 1;
    }
    return p;
}

static void build(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ POLY : c >> 1;
        table[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++)
        for (int k = 1; k < 8; k++)
            table[k][n] = (table[k - 1][n] >> 8) ^ table[0][table[k - 1][n] & 0xff];
    uint32_t p = 1u << 30; /* x^1 */
    x2n[0] = p;
    for (int k = 1; k < 32; k++)
        x2n[k] = p = mul(p, p);
#ifdef DMK_CRC_X86
    use_hw = __builtin_cpu_supports("sse4.2");
#endif
}

/* Builds the tables once; threads that race here wait for the first. */
static void init(void)
{
    if (atomic_load_explicit(&state, memory_order_acquire) == 2)
        return;
    int expect = 0;
    if (atomic_compare_exchange_strong(&state, &expect, 1)) {
        build();
        atomic_store_explicit(&state, 2, memory_order_release);
        return;
    }
    while (atomic_load_explicit(&state, memory_order_acquire) != 2)
        ;
}

static uint32_t crc_sw(uint32_t c, const unsigned char *p, size_t len)
{
    while (len && ((uintptr_t)p & 7)) {
        c = (c >> 8) ^ table[0][(c ^ *p++) & 0xff];
        len--;
    }
    for (; len >= 8; len -= 8, p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        w ^= c; /* little-endian: the x86-64 and Windows targets */
        c = table[7][w & 0xff] ^ table[6][(w >> 8) & 0xff] ^ table[5][(w >> 16) & 0xff] ^
            table[4][(w >> 24) & 0xff] ^ table[3][(w >> 32) & 0xff] ^ table[2][(w >> 40) & 0xff] ^
            table[1][(w >> 48) & 0xff] ^ table[0][w >> 56];
    }
    while (len--)
        c = (c >> 8) ^ table[0][(c ^ *p++) & 0xff];
    return c;
}

#ifdef DMK_CRC_X86
__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t c, const unsigned char *p,
                                                         size_t len)
{
    uint64_t c64 = c;
    for (; len >= 8; len -= 8, p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        c64 = _mm_crc32_u64(c64, w);
    }
    c = (uint32_t)c64;
    while (len--)
        c = _mm_crc32_u8(c, *p++);
    return c;
}
#endif

uint32_t dmk_crc32c(uint32_t crc, const void *buf, size_t len)
{
    init();
    uint32_t c = ~crc;
#ifdef DMK_CRC_X86
    if (use_hw)
        return ~crc_hw(c, buf, len);
#endif
    return ~crc_sw(c, buf, len);
}

uint32_t dmk_crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
    init();
    return ~crc_sw(~crc, buf, len);
}

uint32_t dmk_crc32c_shift(uint64_t len)
{
    init();
    uint32_t p = 1u << 31; /* x^0 */
    unsigned k = 3;        /* 8 bits a byte: x^(8 len) */
    for (; len; len >>= 1, k++)
        if (len & 1)
            p = mul(x2n[k & 31], p);
    return p;
}

uint32_t dmk_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint32_t shift)
{
    return mul(shift, crc_a) ^ crc_b;
}

bool dmk_crc32c_hw(void)
{
    init();
    return use_hw;
}
