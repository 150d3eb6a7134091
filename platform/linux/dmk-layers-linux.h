/* A file's identity below overlay and passthrough FUSE layers
 * (dmk-layers-linux.c), for the raw-device write guard. */
#ifndef DMK_LAYERS_LINUX_H
#define DMK_LAYERS_LINUX_H

#include <stdbool.h>
#include <sys/types.h>

typedef struct {
    dev_t dev; /* the file system that really holds the file */
    ino_t ino;
    char path[4096]; /* the file's path there */
    bool layered;    /* reached through at least one layer */
    bool via_fuse;   /* one of the layers is a FUSE mount (its server holds the file) */
} DmkFileIdentity;

/* Follows path down through overlay mounts (to the top layer holding
 * the file) and FUSE mounts whose source is a directory (bindfs),
 * recursively. root is "" for the system (its mountinfo is read). False
 * when path cannot be resolved. */
bool dmk_linux_file_identity(const char *root, const char *path, DmkFileIdentity *id);

#endif
