/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A file's identity below overlay and passthrough FUSE layers
 * (dmk-layers-linux.c), for the raw-device write guard. */
#ifndef DMK_LAYERS_LINUX_H
#define DMK_LAYERS_LINUX_H

#include <stdbool.h>
#include <sys/types.h>

typedef struct {
    dev_t dev; /* the file system that really holds the file */
    ino_t ino;
    char path[4096];     /* the file's path there */
    bool layered;        /* reached through at least one layer */
    bool via_fuse;       /* one of the layers is a FUSE mount (its server holds the file) */
    char fuse_mnt[4096]; /* the mount point of the passthrough FUSE mount the walk went
                          * through (the top one): its server, only, holds the file by design */
    bool unknown;        /* a layer could not be followed down (an overlay's relative or
                          * missing layer paths, a FUSE source that does not have the file):
                          * dev and ino are the view's, not the file's; treat as unknown */
    char why[1536];      /* when unknown: which mount and why, for the refusal */
} DmkFileIdentity;

/* Follows path down through overlay mounts (to the top layer holding
 * the file) and FUSE mounts whose source is a directory (bindfs),
 * recursively. root is "" for the system (its mountinfo is read). False
 * when path cannot be resolved. True with id->unknown when a layer on
 * the way cannot be followed: the caller must then refuse (fail closed),
 * as the file may be any file of the layers below. */
bool dmk_linux_file_identity(const char *root, const char *path, DmkFileIdentity *id);

#endif
