/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The drive's link from sysfs (Linux): the parsers on the strings sysfs
 * writes, and the walk from a disk to its link on a fake sysfs tree
 * under the build directory (NVMe on PCIe, SATA, USB, virtio, loop). */
#define _GNU_SOURCE
#include "dmk-test.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linux/dmk-iface-linux.h"

static void test_pcie(void)
{
    char d[64];
    /* 8 GT/s, 128b/130b: 984.6 MB/s a lane */
    DMK_CHECK(dmk_iface_pcie_bytes_s("8.0 GT/s PCIe", "4", d, sizeof d) == 3938461538ULL);
    DMK_CHECK_STR(d, "PCIe 8.0 GT/s x4");
    /* 2.5 and 5 GT/s, 8b/10b: 250 and 500 MB/s a lane */
    DMK_CHECK(dmk_iface_pcie_bytes_s("2.5 GT/s PCIe", "1", d, sizeof d) == 250000000ULL);
    DMK_CHECK(dmk_iface_pcie_bytes_s("5.0 GT/s PCIe", "2", d, sizeof d) == 1000000000ULL);
    DMK_CHECK(dmk_iface_pcie_bytes_s("16.0 GT/s PCIe", "4", d, sizeof d) == 7876923076ULL);
    DMK_CHECK_STR(d, "PCIe 16.0 GT/s x4");
    DMK_CHECK(dmk_iface_pcie_bytes_s("32.0 GT/s PCIe", "4", d, sizeof d) == 15753846153ULL);
    /* 64 GT/s: PAM4 in FLIT mode, no line code */
    DMK_CHECK(dmk_iface_pcie_bytes_s("64.0 GT/s PCIe", "4", d, sizeof d) == 32000000000ULL);
    /* what a link that trained to nothing, or a VM, says */
    DMK_CHECK(dmk_iface_pcie_bytes_s("Unknown", "4", d, sizeof d) == 0);
    DMK_CHECK(dmk_iface_pcie_bytes_s("Unknown speed", "0", d, sizeof d) == 0);
    DMK_CHECK(dmk_iface_pcie_bytes_s("8.0 GT/s PCIe", "", d, sizeof d) == 0);
    DMK_CHECK(dmk_iface_pcie_bytes_s("128 GT/s", "1", d, sizeof d) == 0);
}

static void test_sata_usb(void)
{
    char d[64];
    DMK_CHECK(dmk_iface_sata_bytes_s("6.0 Gbps", d, sizeof d) == 600000000ULL);
    DMK_CHECK_STR(d, "SATA 6.0 Gbps");
    DMK_CHECK(dmk_iface_sata_bytes_s("3.0 Gbps", d, sizeof d) == 300000000ULL);
    DMK_CHECK(dmk_iface_sata_bytes_s("1.5 Gbps", d, sizeof d) == 150000000ULL);
    DMK_CHECK(dmk_iface_sata_bytes_s("<unknown>", d, sizeof d) == 0);
    DMK_CHECK(dmk_iface_usb_bytes_s("5000", d, sizeof d) == 500000000ULL);
    DMK_CHECK_STR(d, "USB 5000 Mbps");
    DMK_CHECK(dmk_iface_usb_bytes_s("480", d, sizeof d) == 60000000ULL);
    DMK_CHECK(dmk_iface_usb_bytes_s("10000", d, sizeof d) == 1212121212ULL);
    DMK_CHECK(dmk_iface_usb_bytes_s("20000", d, sizeof d) == 2424242424ULL);
    DMK_CHECK(dmk_iface_usb_bytes_s("", d, sizeof d) == 0);
}

/* ---- a fake sysfs ------------------------------------------------------------- */

static char root[1024];

static void mkdirs(const char *rel)
{
    char p[2048];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    for (char *s = p + strlen(root) + 1; *s; s++) {
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
    }
    mkdir(p, 0755);
}

static void put(const char *rel, const char *text)
{
    char p[2048];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    DMK_CHECK(f != NULL);
    if (f) {
        fprintf(f, "%s\n", text);
        fclose(f);
    }
}

static uint64_t walk(const char *disk, char *desc, size_t len)
{
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/%s", root, disk);
    return dmk_iface_of_disk(root, dir, desc, len);
}

static void build_tree(void)
{
    snprintf(root, sizeof root, "%s/iface-sys-%ld", dmk_test_tmpdir(), (long)getpid());
    mkdir(root, 0755);
    /* NVMe: the namespace under the controller under the PCIe function,
     * under a root port whose own (wider) link must not be taken */
    mkdirs("devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1");
    put("devices/pci0000:00/0000:00:01.1/current_link_speed", "16.0 GT/s PCIe");
    put("devices/pci0000:00/0000:00:01.1/current_link_width", "16");
    put("devices/pci0000:00/0000:00:01.1/0000:01:00.0/current_link_speed", "8.0 GT/s PCIe");
    put("devices/pci0000:00/0000:00:01.1/0000:01:00.0/current_link_width", "4");
    /* SATA: the disk under ata3, whose link says 3.0 Gbps; the AHCI
     * function above has a PCIe link that must not be taken */
    mkdirs("devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0/block/sda");
    put("devices/pci0000:00/0000:00:17.0/current_link_speed", "2.5 GT/s PCIe");
    put("devices/pci0000:00/0000:00:17.0/current_link_width", "1");
    mkdirs("class/ata_link/link3");
    put("class/ata_link/link3/sata_spd", "3.0 Gbps");
    /* USB: a UAS disk under a 5 Gbps device under the xHCI function */
    mkdirs("devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host4/target4:0:0/4:0:0:0/block/sdb");
    put("devices/pci0000:00/0000:00:14.0/usb2/2-1/speed", "5000");
    put("devices/pci0000:00/0000:00:14.0/usb2/2-1/idVendor", "0bda");
    put("devices/pci0000:00/0000:00:14.0/current_link_speed", "8.0 GT/s PCIe");
    put("devices/pci0000:00/0000:00:14.0/current_link_width", "1");
    /* virtio (this machine's /work disk), whose PCI function claims a link */
    mkdirs("devices/pci0000:00/0000:00:02.0/virtio1/block/vda");
    put("devices/pci0000:00/0000:00:02.0/current_link_speed", "2.5 GT/s PCIe");
    put("devices/pci0000:00/0000:00:02.0/current_link_width", "1");
    /* loop */
    mkdirs("devices/virtual/block/loop0");
    /* multipath NVMe: the namespace under a virtual subsystem whose nvme0
     * links to the controller under the PCIe function */
    mkdirs("devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1");
    char link[2048], to[2048];
    snprintf(link, sizeof link, "%s/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0", root);
    snprintf(to, sizeof to, "%s/devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0", root);
    DMK_CHECK_INT(symlink(to, link), 0);
}

static void test_walk(void)
{
    char d[64];
    build_tree();
    DMK_CHECK(walk("devices/pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1", d,
                   sizeof d) == 3938461538ULL);
    DMK_CHECK_STR(d, "PCIe 8.0 GT/s x4");
    DMK_CHECK(walk("devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0/block/sda", d,
                   sizeof d) == 300000000ULL);
    DMK_CHECK_STR(d, "SATA 3.0 Gbps");
    DMK_CHECK(walk("devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host4/target4:0:0/4:0:0:0/"
                   "block/sdb",
                   d, sizeof d) == 500000000ULL);
    DMK_CHECK_STR(d, "USB 5000 Mbps");
    DMK_CHECK(walk("devices/pci0000:00/0000:00:02.0/virtio1/block/vda", d, sizeof d) == 0);
    DMK_CHECK_STR(d, "");
    DMK_CHECK(walk("devices/virtual/block/loop0", d, sizeof d) == 0);
    DMK_CHECK_STR(d, "");
    DMK_CHECK(walk("devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1", d, sizeof d) ==
              3938461538ULL);
    DMK_CHECK_STR(d, "PCIe 8.0 GT/s x4");
    /* an ata port whose link says nothing: unknown, not the PCIe above */
    put("class/ata_link/link3/sata_spd", "<unknown>");
    DMK_CHECK(walk("devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0/block/sda", d,
                   sizeof d) == 0);
    /* outside the root's devices: nothing is read */
    DMK_CHECK(dmk_iface_of_disk(root, "/nonexistent/devices/x", d, sizeof d) == 0);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    DMK_CHECK_INT(system(cmd), 0);
}

int main(void)
{
    DMK_TEST(test_pcie);
    DMK_TEST(test_sata_usb);
    DMK_TEST(test_walk);
    return dmk_test_done();
}
