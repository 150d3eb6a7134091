/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CRC32C (Castagnoli, the iSCSI / ext4 / NVMe polynomial 0x1EDC6F41,
 * reflected), as used by the verify option to check written blocks.
 * SSE4.2's crc32 instruction where the CPU has it, slice-by-8 tables
 * elsewhere; both give the same values. Plain C, no GLib. */
#ifndef DMK_CRC32C_H
#define DMK_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The CRC32C of buf[0..len) continued from `crc`, the CRC32C of what came
 * before (0 to start), like zlib's crc32(): dmk_crc32c(0, "123456789", 9)
 * == 0xE3069283. Safe from any thread. */
uint32_t dmk_crc32c(uint32_t crc, const void *buf, size_t len);

/* The operator that shifts a CRC over `len` more bytes (x^(8 len) mod P),
 * for dmk_crc32c_combine(); costs ~log2(len) small multiplications, so
 * callers compute it once per length. */
uint32_t dmk_crc32c_shift(uint64_t len);

/* With shift = dmk_crc32c_shift(len_b):
 *   CRC(A || B) = dmk_crc32c_combine(CRC(A), CRC(B), shift)
 *   CRC(B)      = dmk_crc32c_combine(CRC(A), CRC(A || B), shift)
 * so a block's CRC follows from precomputed ones without reading it. */
uint32_t dmk_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint32_t shift);

/* The table version whatever the CPU, so tests compare the two. */
uint32_t dmk_crc32c_sw(uint32_t crc, const void *buf, size_t len);

/* Whether dmk_crc32c() uses the CPU's crc32 instruction. */
bool dmk_crc32c_hw(void);

#endif
