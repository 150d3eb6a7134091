/* One line of /proc/self/mountinfo, for the test file's description and
 * the drive list alike. */
#ifndef DMK_MOUNTINFO_H
#define DMK_MOUNTINFO_H

#include <stdbool.h>

typedef struct {
    unsigned id, parent;   /* this mount's id and the id of the mount it sits on */
    unsigned major, minor; /* the file system's device number */
    char root[512];        /* the directory of the file system mounted here ("/", or a
                            * bind mount's subdirectory), unescaped */
    char mnt[512];         /* mount point, unescaped */
    char opts[256];        /* per-mount options: "rw,noatime" */
    char fstype[32];
    char source[256];      /* "/dev/nvme0n1p2", unescaped */
    char super_opts[2048]; /* the file system's options: "rw,discard,errors=remount-ro"; overlay's
                            * lowerdir=,upperdir=,workdir= paths make them long */
} DmkMountLine;

/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue" */
bool dmk_mountinfo_parse(const char *line, DmkMountLine *m);

/* mountinfo writes a space as \040 (and so on, in octal): undone in place. */
void dmk_mountinfo_unescape(char *s);

#endif
