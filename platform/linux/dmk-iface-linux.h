/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The most the drive's link can carry, from sysfs: the PCIe link of an
 * NVMe drive, the SATA link's speed, a USB device's speed. A result
 * beyond it cannot have come from the drive (a cache, compression or a
 * bug made it), so the core flags it. Every parser takes sysfs's strings
 * and every walk a sysfs root, so tests feed them fake ones. */
#ifndef DMK_IFACE_LINUX_H
#define DMK_IFACE_LINUX_H

#include <stddef.h>
#include <stdint.h>

/* PCIe: current_link_speed ("8.0 GT/s PCIe", "16 GT/s") and
 * current_link_width ("4") -> bytes/s per direction after the line code
 * (8b/10b at 2.5 and 5 GT/s, 128b/130b at 8 to 32 GT/s; 64 GT/s is PAM4
 * in FLIT mode with no line code, its FLIT overhead left in so the bound
 * stays an upper one). desc: "PCIe 8.0 GT/s x4". 0: not understood. */
uint64_t dmk_iface_pcie_bytes_s(const char *speed, const char *width, char *desc, size_t len);

/* SATA: an ata_link's sata_spd ("6.0 Gbps", "3.0 Gbps", "1.5 Gbps") ->
 * 600, 300, 150 MB/s (8b/10b). desc: "SATA 6.0 Gbps". 0: "<unknown>". */
uint64_t dmk_iface_sata_bytes_s(const char *spd, char *desc, size_t len);

/* USB: a usb device's speed in Mbit/s ("480", "5000", "10000") -> the
 * signalling rate after the line code (8b/10b at 5000, 128b/132b at
 * 10000 and 20000; none below: USB 2 has no line code to subtract, so the
 * bound stays an upper one). desc: "USB 5000 Mbps". 0: not understood. */
uint64_t dmk_iface_usb_bytes_s(const char *mbps, char *desc, size_t len);

/* The link of the disk whose sysfs directory is disk_dir (a resolved
 * path under sys_root, normally "/sys"): walks up from the disk to the
 * nearest USB device, ata port or PCIe function. Virtual devices (virtio,
 * loop, device-mapper without a disk under it, NVMe-oF) are unknown: 0. */
uint64_t dmk_iface_of_disk(const char *sys_root, const char *disk_dir, char *desc, size_t len);

#endif
