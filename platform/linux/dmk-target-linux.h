/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Linux test file, shared by the libaio backend. */
#ifndef DMK_TARGET_LINUX_H
#define DMK_TARGET_LINUX_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "dmk-platform.h"

typedef struct {
    int fd;
    bool named;  /* created by name and unlinked, where O_TMPFILE was missing */
    bool hidden; /* named, and its removed name lives on hidden (FUSE, NFS) while open */
    bool device; /* a raw block device: nothing was created, nothing is deleted */
    bool writable;
    uint64_t size;
    char dir[1024];
    char mount_point[512];
    int discard;
    char sensor[4096]; /* hwmon temp*_input of the drive, "" when none */
} DmkLinuxTarget;

int dmk_linux_target_open(const DmkTargetParams *p, DmkLinuxTarget **out, DmkTargetInfo *info,
                          DmkError *err);
void dmk_linux_target_close(DmkLinuxTarget *t);

/* The drive's temperature (DMK_E_NOTSUP without a sensor), and TRIM. */
int dmk_linux_target_temperature(DmkLinuxTarget *t, double *celsius);
int dmk_linux_target_trim(DmkLinuxTarget *t, DmkTrimReport *rep, DmkError *err);

/* Fills model, capacity and the temperature sensor of the disk behind
 * the device number dev (a partition's or dm device's disk). */
void dmk_linux_describe_disk(dev_t dev, DmkTargetInfo *info, char *sensor, size_t sensor_len);

/* A raw block device target (p->device), with the write guards of
 * dmk-platform.h; dmk-device-linux.c. */
int dmk_linux_device_open(const DmkTargetParams *p, DmkLinuxTarget **out, DmkTargetInfo *info,
                          DmkError *err);
/* The write guards alone (dmk-guard-linux.c): refuses (DMK_E_PERM,
 * naming what it found and how it shares storage with dev) when anything
 * that shares the device's storage is mounted, used as swap, held
 * (device-mapper, md), used by another loop or zram device, open in a
 * process (a backing file) or claimed by the kernel. Storage is followed
 * down (partition to disk, loop to its backing file or device, dm/md to
 * slaves) and up (partitions, holders, loop devices) recursively. root
 * is "" for the system; unit tests give a fake tree with sys/ and proc/
 * under it. */
int dmk_linux_device_check_unused(const char *root, const char *target, dev_t dev, DmkError *err);
/* The same once this process holds dev open with O_EXCL (the second look
 * after the open): the target's own partitions, which the kernel will
 * not let anyone claim now, are not probed. */
int dmk_linux_device_check_unused_held(const char *target, dev_t dev, DmkError *err);

/* What uses dev's storage, found by the same walk as the write guard's
 * (any path: partitions, loop devices over files on it, device-mapper),
 * in a device list's short words: "mounted at / (vda1)", "swap
 * (loop3)", "held by dm-0 (device-mapper \"vg-root\")", "in use by the
 * kernel". true with that in buf when in use, or when the walk could not
 * finish (buf says why); false with buf "" when free. Cheaper than the
 * guard: files open in processes are not looked for (the guard still
 * refuses them at Run); the target itself is probed for a claim. */
bool dmk_linux_device_usage(const char *root, const char *target, dev_t dev, char *buf, size_t len);

/* The guard's exclusive-claim probe of one block device of the graph
 * (kernel name, device number): 0 when an O_EXCL open succeeds, EBUSY
 * when the kernel reports it claimed, another errno when it cannot be
 * asked (no such node). Unit tests set their own to try the claim rules
 * on a fake tree (where the real one is skipped); NULL restores it. */
typedef int (*DmkLinuxClaimProbe)(const char *name, dev_t dev);
void dmk_linux_guard_set_claim_probe(DmkLinuxClaimProbe probe);
/* BLKDISCARD of the test region. */
int dmk_linux_device_trim(DmkLinuxTarget *t, DmkTrimReport *rep, DmkError *err);

#endif
