/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "dmk-iface-linux.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmk-drive-linux.h"

/* ---- parsers ---------------------------------------------------------------- */

/* A leading decimal ("8.0 GT/s PCIe" -> 8.0); false when there is none. */
static bool lead_number(const char *s, double *v)
{
    char *end;
    if (!s)
        return false;
    *v = strtod(s, &end);
    return end != s && *v > 0;
}

uint64_t dmk_iface_pcie_bytes_s(const char *speed, const char *width, char *desc, size_t len)
{
    double gt, lanes;
    if (!lead_number(speed, &gt) || !lead_number(width, &lanes) || lanes > 64)
        return 0;
    double code;
    if (gt < 2.4 || gt > 64.5)
        return 0; /* "Unknown speed", or a generation this table does not know */
    else if (gt < 7.5)
        code = 8.0 / 10.0; /* 2.5 and 5 GT/s */
    else if (gt < 60)
        code = 128.0 / 130.0; /* 8, 16, 32 GT/s */
    else
        code = 1.0; /* 64 GT/s: PAM4, FLIT mode, no line code */
    if (desc)
        snprintf(desc, len, "PCIe %.1f GT/s x%.0f", gt, lanes);
    return (uint64_t)(gt * 1e9 * code / 8.0 * lanes);
}

uint64_t dmk_iface_sata_bytes_s(const char *spd, char *desc, size_t len)
{
    double gbps;
    if (!lead_number(spd, &gbps))
        return 0;
    uint64_t mb = gbps > 5.5 && gbps < 6.5   ? 600
                  : gbps > 2.5 && gbps < 3.5 ? 300
                  : gbps > 1.2 && gbps < 1.8 ? 150
                                             : 0;
    if (mb && desc)
        snprintf(desc, len, "SATA %.1f Gbps", gbps);
    return mb * 1000000ULL;
}

uint64_t dmk_iface_usb_bytes_s(const char *mbps, char *desc, size_t len)
{
    double m;
    if (!lead_number(mbps, &m) || m > 100000)
        return 0;
    double code = m >= 9000 ? 128.0 / 132.0 : m >= 4000 ? 8.0 / 10.0 : 1.0;
    if (desc)
        snprintf(desc, len, "USB %g Mbps", m);
    return (uint64_t)(m * 1e6 * code / 8.0);
}

/* ---- the walk from a disk to its link ----------------------------------------- */

static bool read_attr(const char *dir, const char *name, char *buf, size_t len)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return dmk_linux_read_line(path, buf, len) && buf[0];
}

/* "ata3" -> its link's sata_spd under sys_root/class/ata_link. */
static uint64_t ata_link(const char *sys_root, const char *port, char *desc, size_t len)
{
    char dir[PATH_MAX], spd[64];
    snprintf(dir, sizeof dir, "%s/class/ata_link/link%s", sys_root, port + 3);
    return read_attr(dir, "sata_spd", spd, sizeof spd) ? dmk_iface_sata_bytes_s(spd, desc, len) : 0;
}

/* What one directory on the way up says; *stop when the walk must end
 * here (a virtual device, or a link found). */
static uint64_t probe_dir(const char *sys_root, const char *dir, char *desc, size_t len, bool *stop)
{
    const char *base = strrchr(dir, '/');
    char a[64], b[64];
    base = base ? base + 1 : dir;
    *stop = true;
    if (strncmp(base, "virtio", 6) == 0 || strcmp(base, "virtual") == 0)
        return 0; /* a VM's disk: no physical link to check against */
    if (strncmp(base, "ata", 3) == 0 && base[3] >= '0' && base[3] <= '9')
        return ata_link(sys_root, base, desc, len);
    /* A USB device (not an interface: those have no speed). */
    if (read_attr(dir, "speed", a, sizeof a) && read_attr(dir, "idVendor", b, sizeof b))
        return dmk_iface_usb_bytes_s(a, desc, len);
    if (read_attr(dir, "current_link_speed", a, sizeof a) &&
        read_attr(dir, "current_link_width", b, sizeof b))
        return dmk_iface_pcie_bytes_s(a, b, desc, len);
    *stop = false;
    return 0;
}

/* A multipath NVMe namespace lives under a virtual subsystem; its
 * controllers (nvme0, ...) are links to the PCIe functions' children. */
static void nvme_controller(const char *disk_dir, char *dir, size_t len)
{
    char sub[PATH_MAX], link[PATH_MAX + 16], real[PATH_MAX];
    snprintf(sub, sizeof sub, "%s", disk_dir);
    char *slash = strrchr(sub, '/');
    if (!strstr(disk_dir, "/nvme-subsystem/") || !slash)
        return;
    *slash = '\0';
    for (int i = 0; i < 64; i++) {
        snprintf(link, sizeof link, "%s/nvme%d", sub, i);
        if (realpath(link, real)) {
            snprintf(dir, len, "%s", real);
            return;
        }
    }
}

uint64_t dmk_iface_of_disk(const char *sys_root, const char *disk_dir, char *desc, size_t len)
{
    char dir[PATH_MAX], devices[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", disk_dir);
    nvme_controller(disk_dir, dir, sizeof dir);
    snprintf(devices, sizeof devices, "%s/devices", sys_root);
    if (desc && len)
        desc[0] = '\0';
    /* Bounded: sysfs paths are a dozen levels deep at most. */
    for (int depth = 0; depth < 24 && strncmp(dir, devices, strlen(devices)) == 0; depth++) {
        bool stop;
        uint64_t v = probe_dir(sys_root, dir, desc, len, &stop);
        if (stop) {
            if (!v && desc && len)
                desc[0] = '\0';
            return v;
        }
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            break;
        *slash = '\0';
    }
    return 0;
}
