/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The platform layer: the only header the core includes for anything that
 * differs per operating system. Two parts:
 *  - plain OS services (clock, threads, memory, system facts), one
 *    implementation per OS, chosen at build time;
 *  - I/O backends (a const table of functions), of which a build has the
 *    OS's real one (libaio, overlapped I/O) and the in-memory null backend,
 *    so tests and overhead measurements can stand in for a real disk.
 * Nothing here includes GLib or GTK. */
#ifndef DMK_PLATFORM_H
#define DMK_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dmk-error.h"

/* ---- OS services ------------------------------------------------------ */

/* Monotonic clock in nanoseconds; cheap (vDSO / QPC), safe from any thread.
 * Simulated time once dmk_clock_simulate() was called (tests). */
uint64_t dmk_clock_ns(void);

/* Sleeps up to ns; returns early never, but callers sleep in short slices
 * so that a stop request is seen within ~100 ms. */
void dmk_sleep_ns(uint64_t ns);

/* Tests: from now on, for the rest of the process, dmk_clock_ns() is a
 * simulated clock that stands still while any thread of the run (the
 * caller and every thread dmk_thread_start starts from now on) has work,
 * and jumps to the earliest wake-up once all of them wait in dmk_sleep_ns,
 * dmk_wait_until_ns or dmk_thread_join. Runs on the in-memory backends
 * (null, fault) then measure exactly what their latencies and simulated
 * drive say, however busy the machine, and take only the CPU time they
 * need. Call it before starting any thread; a thread that waits must be
 * one of the run's, and nothing may wait on a real device (its I/O takes
 * real time, which the simulated clock does not see). The programs never
 * call it: their null backend runs on the real clock. */
void dmk_clock_simulate(void);

/* Whether dmk_clock_simulate() was called. */
bool dmk_clock_simulated(void);

/* On the simulated clock: the calling thread, one that dmk_thread_start
 * did not start (a GUI's run thread), takes part in the run from begin
 * to end (time waits for it while it works); end also lets the thread
 * that called dmk_clock_simulate() drop out (a GUI's main loop, which
 * never waits on this clock). No-ops on the real clock. */
void dmk_clock_thread_begin(void);
void dmk_clock_thread_end(void);

typedef struct DmkThread DmkThread;
typedef void (*DmkThreadFn)(void *arg);

/* Starts fn(arg) on a new thread. */
int dmk_thread_start(DmkThread **out, DmkThreadFn fn, void *arg, DmkError *err);
void dmk_thread_join(DmkThread *t);

/* Memory for direct I/O: aligned to at least `align` (a power of two);
 * NULL with errno set (ENOMEM) when there is none. */
void *dmk_aligned_alloc(size_t align, size_t size);
void dmk_aligned_free(void *p);

/* 64 bits of OS entropy for seeding the run (falls back to the clock). */
uint64_t dmk_entropy64(void);

/* "Linux 6.1.0-18-amd64 x86_64", "Windows 10.0.19045". */
void dmk_os_describe(char *buf, size_t len);

/* The current time as ISO 8601 UTC: "2026-11-30T06:35:13Z". */
void dmk_os_utc_now(char *buf, size_t len);

/* Largest number of in-flight I/Os the system allows a process in total,
 * 0 when there is no such limit (Linux: /proc/sys/fs/aio-max-nr). */
uint64_t dmk_os_max_inflight(void);

/* Calls fn(sig) from a signal handler (or console handler) on SIGINT,
 * SIGTERM and SIGHUP (Ctrl+C / close on Windows); fn must only do
 * async-signal-safe things such as storing to an atomic. */
void dmk_os_on_interrupt(void (*fn)(int sig));

/* Whether stderr is a terminal (progress lines are drawn only there). */
bool dmk_os_stderr_is_tty(void);

/* The program's arguments in UTF-8, as the rest of Drivemark takes them:
 * on Windows read again from the wide command line (CommandLineToArgvW),
 * since main()'s argv is in the ANSI code page there, which cannot say
 * every name (a Cyrillic folder under an English one); elsewhere argv
 * itself. Kept for the life of the process; argv on failure. */
char **dmk_os_utf8_argv(int argc, char **argv);

/* ---- volumes ------------------------------------------------------------ */

/* A mounted file system (Linux) or drive (Windows) that a front end offers
 * as a target. Unusable ones are listed too, with the reason, so a user
 * sees why a drive cannot be chosen instead of wondering where it went. */
typedef struct {
    char path[512];      /* mount point or drive root ("/home", "C:\\") */
    char fs_type[32];    /* "ext4", "NTFS" */
    char device[256];    /* "/dev/nvme0n1p2", "\\\\.\\C:" */
    char label[128];     /* volume label, "" when none */
    uint64_t size_bytes; /* of the file system */
    uint64_t free_bytes; /* available to this user */
    bool usable;         /* false: read-only, RAM-backed, not writable... */
    char reason[384];    /* why not usable, for people: "read-only" */
} DmkVolume;

/* Fills out[0..max) with the mounted file systems, pseudo file systems
 * (proc, sysfs, cgroup...) left out, in the OS's order; returns how many
 * were stored, or a negative DmkErrCode when the list cannot be read. */
int dmk_os_list_volumes(DmkVolume *out, size_t max);

/* ---- raw block devices ------------------------------------------------- */

/* A whole disk a front end offers as a raw target ("Device (destroys
 * data)"): never a partition, never a RAM or compressed-RAM disk. */
typedef struct {
    char path[256];      /* "/dev/sdb", "\\\\.\\PhysicalDrive1" */
    char model[128];     /* "" when unknown */
    uint64_t size_bytes; /* 0 when unknown */
    bool in_use;         /* something uses its storage: only reading is offered */
    char usage[384];     /* what uses it (dmk_os_device_usage), "" when free */
} DmkDevice;

/* Fills out[0..max) with the whole block devices (Linux: /sys/block),
 * each with what uses it; returns how many, or a negative DmkErrCode. */
int dmk_os_list_devices(DmkDevice *out, size_t max);

/* What uses the device's storage, by any path, in a device list's short
 * words: "mounted at / (vda1)", "swap (loop3)", "held by dm-0
 * (device-mapper \"vg-root\")", "in use by the kernel". The one place
 * a front end gets this text: it comes from the raw-device write guard's
 * own walk (Linux: dmk-guard-linux.c), less its scan of files open in
 * processes, which the guard still does before a write. 1 when in use
 * (or when that cannot be checked, buf saying why), 0 when free (buf
 * ""), a negative DmkErrCode when path is no block device now (gone
 * since it was listed: buf says so). Windows: 0 (its open refuses a
 * disk with mounted volumes). */
int dmk_os_device_usage(const char *path, char *buf, size_t len);

/* The device path with symbolic links resolved ("/dev/disk/by-id/x" ->
 * "/dev/sdb"); a copy of path where nothing resolves (Windows, a path
 * that does not exist). */
void dmk_os_resolve_device(const char *path, char *buf, size_t len);

/* DmkTargetInfo.fs_type of a raw device target: result files keep it,
 * and a reopened result is a device's by it (is_device). */
#define DMK_FS_TYPE_DEVICE "raw device"

/* Whether `path` is a block device with no storage at all (an unattached
 * loop device, a card reader without a card), told from a read-only open
 * that claims and writes nothing, so a command can say so before it asks
 * for consent to write. False when it holds storage or cannot be told
 * (then the run's own open says why). Windows: always false (the open
 * reports an empty drive). */
bool dmk_os_device_empty(const char *path);

/* Closes a device descriptor a front end handed to a run
 * (DmkRunSpec.device_fd, DmkTargetParams.device_fd): the runner does,
 * once, when the run is over (a target keeps its own duplicate). Windows
 * is handed none (its target_open refuses one), so it does nothing. */
void dmk_os_device_fd_close(int fd);

/* ---- result files ------------------------------------------------------ */

/* What a path names, symbolic links followed (a dangling link: what its
 * final target would be, DMK_FILE_MISSING). */
typedef enum {
    DMK_FILE_MISSING = 0,
    DMK_FILE_REGULAR,
    DMK_FILE_DIR,
    DMK_FILE_FIFO,
    DMK_FILE_CHAR,
    DMK_FILE_BLOCK,
    DMK_FILE_SOCKET,
    DMK_FILE_OTHER,
} DmkFileKind;

typedef struct {
    DmkFileKind kind;
    bool is_stdout;    /* the very file this process's stdout is */
    bool exists;       /* kind != DMK_FILE_MISSING */
    uint64_t dev, ino; /* identity of an existing file, 0 when unknown */
    uint32_t nlink;    /* names of an existing file */
    uint32_t mode;     /* permission bits of an existing file */
    /* The file a write replaces, as a canonical absolute path: the final
     * target of a symbolic link, or for a new file its directory's real
     * path and the name. Two spellings of one file give the same. */
    char real[4096];
} DmkFileInfo;

/* "it is a FIFO, not a regular file": why a path of that kind is no
 * result file, a whole sentence in the user's language. */
const char *dmk_file_kind_clause(DmkFileKind kind);

/* Fills *info for an output path without creating, opening or changing
 * anything. Errors (with "opening PATH for writing failed: <OS text>")
 * when its directory is missing, not a directory or not writable, or an
 * existing file is not writable; and when the old file could not be
 * replaced by a rename: an append-only or immutable directory or file,
 * another user's file in a sticky directory (saying which). */
int dmk_os_output_info(const char *path, DmkFileInfo *info, DmkError *err);

/* Fills *info for an existing file that is read (a chart's input, an
 * opened result): kind, identity (dev and ino: st_dev/st_ino; Windows:
 * the volume serial number and file index) and real (its canonical
 * path). false when it cannot be looked at. */
bool dmk_os_input_info(const char *path, DmkFileInfo *info);

/* Whether two canonical paths (DmkFileInfo.real) name one file: equal
 * bytes on Linux; on Windows equal ignoring case, as NTFS and FAT see
 * names. */
bool dmk_os_same_path(const char *a, const char *b);

/* Opens an existing file that is not a regular file for writing as it is
 * (a device such as /dev/null, a pipe with a reader), never blocking: a
 * FIFO with no reader, a socket or a block device is refused, naming
 * what it is. */
int dmk_os_open_special(const char *path, FILE **out, DmkError *err);

/* Opens path for reading when it is a regular file; anything else (a
 * FIFO, which would block, a device, a directory) is refused with a
 * message naming what it is. Never blocks on a FIFO. */
int dmk_os_open_input(const char *path, FILE **out, DmkError *err);

/* Creates a new empty file in the directory of `real`, permissions as a
 * new file gets them (umask), or like `like` (mode, and owner where
 * allowed) when it is not NULL. Where the file system can (Linux
 * O_TMPFILE) the file has no name yet and tmp is "": a process killed
 * before the result is complete leaves nothing; dmk_os_temp_name names
 * it then. Otherwise its name (O_EXCL, a unique name that fits any file
 * system's name limit) is in tmp. */
int dmk_os_temp_beside(const char *real, const DmkFileInfo *like, char *tmp, size_t len, FILE **out,
                       DmkError *err);

/* Gives the nameless file f (dmk_os_temp_beside's tmp "") a unique name
 * beside `real`, in tmp, so that it can be renamed over the old file. */
int dmk_os_temp_name(FILE *f, const char *real, char *tmp, size_t len, DmkError *err);

/* fflush, then makes the file's data durable (fsync, _commit): the
 * rename that follows must not publish a file whose blocks are lost. */
int dmk_os_file_sync(FILE *f, const char *path, DmkError *err);

/* Renames tmp over dst in one step (rename(2) and a sync of the
 * directory; MoveFileExW with MOVEFILE_REPLACE_EXISTING |
 * MOVEFILE_WRITE_THROUGH): a reader sees the old file or the new one. */
int dmk_os_replace_file(const char *tmp, const char *dst, DmkError *err);

/* Removes a file by name (a temporary file that is no use); false when
 * it could not be removed (it is still there). */
bool dmk_os_remove_file(const char *path);

/* Creates an empty file beside `real`, renames it to a second new name
 * and removes it: the proof, before any benchmark, that this directory
 * lets a result be renamed into place (an append-only directory, a FUSE
 * or network file system that refuses renames or removals fail here, not
 * after the run). The message names a test file that could not be
 * removed. */
int dmk_os_rename_probe(const char *real, DmkError *err);

/* ---- file trees (the real-world lab tests, core/dmk-fileset.h) ---------- */

/* Plain file I/O through the page cache, as applications copy: the
 * descriptor is the OS's (O_BINARY on Windows). Every call that fails
 * names the operation, the path and the OS error. */
int dmk_tree_mkdir(const char *path, DmkError *err);
/* create: a new file (O_EXCL), for writing; else an existing one, for reading. */
int dmk_tree_open(const char *path, bool create, int *fd, DmkError *err);
/* read(2)/write(2): bytes moved (write: all of len or an error), or a negative DmkErrCode. */
int64_t dmk_tree_read(int fd, void *buf, size_t len, const char *path, DmkError *err);
int dmk_tree_write(int fd, const void *buf, size_t len, const char *path, DmkError *err);
void dmk_tree_close(int fd);
/* The file's data durable (fsync, _commit). */
int dmk_tree_sync(int fd, const char *path, DmkError *err);
/* After dmk_tree_sync: the file's cached pages dropped, so the next read
 * comes from the drive (POSIX_FADV_DONTNEED; on Windows, opening the
 * file once without buffering, which makes the cache manager purge it). */
void dmk_tree_drop_cache(int fd, const char *path);
/* A directory's entries durable (fsync of the directory on Linux; NTFS
 * journals names itself, so nothing on Windows). */
int dmk_tree_sync_dir(const char *path, DmkError *err);
/* Bytes this user may still write under dir (f_bavail). */
int dmk_tree_free(const char *dir, uint64_t *free_bytes, DmkError *err);
/* Removes path and everything under it; a path that is not there is no error. */
int dmk_tree_remove(const char *path, DmkError *err);
/* The first entry of dir whose name starts with prefix, into name (""
 * when none): a directory left by a run that was killed. */
void dmk_tree_find(const char *dir, const char *prefix, char *name, size_t len);
/* The calling thread's CPU time, user and system, in seconds. */
double dmk_thread_cpu_s(void);

/* ---- targets and I/O -------------------------------------------------- */

typedef enum { DMK_OP_READ = 0, DMK_OP_WRITE = 1 } DmkOp;

/* Space a backend may use inside each DmkIo for its own control block
 * (a libaio iocb is 64 bytes, a Win32 OVERLAPPED 32). */
#define DMK_IO_PRIV_SIZE 80

/* One request, owned by the core and reused: the backend fills res/os_error
 * on completion and never allocates per request. */
typedef struct DmkIo {
    uint64_t offset;    /* byte offset in the target */
    void *buf;          /* aligned to the target's mem_align */
    uint32_t len;       /* bytes, a multiple of the target's offset_align */
    uint8_t op;         /* DmkOp */
    int64_t res;        /* on completion: bytes moved, or a negative DmkErrCode */
    int os_error;       /* on completion: raw errno / Win32 code when res < 0 */
    uint64_t submit_ns; /* set by the core before submit */
    void *user;         /* the core's per-request pointer */
    _Alignas(16) unsigned char priv[DMK_IO_PRIV_SIZE];
} DmkIo;

typedef enum { DMK_DATA_RANDOM = 0, DMK_DATA_ZERO = 1 } DmkDataKind;

/* A backend's own options (its latencies, its simulated drive), filled
 * by its parse_option and read by its target_open; the layout is the
 * backend's, named by `backend`, so one backend never reads another's.
 * Plain bytes: a spec holding it is copied with `=`. All zero: every
 * backend's defaults. */
#define DMK_BACKEND_OPTS_SIZE 96
typedef struct {
    char backend[16]; /* whose layout `data` has, "" for none */
    _Alignas(8) unsigned char data[DMK_BACKEND_OPTS_SIZE];
} DmkBackendOpts;

/* What the core asks of a target. */
typedef struct {
    const char *dir;         /* directory that receives the benchmark's own test file */
    uint64_t size;           /* test file size in bytes; 0: the free space but free_margin */
    const _Atomic int *stop; /* may be NULL; when set, slow steps (allocation) give up */
    uint64_t free_margin;    /* size == 0: bytes left free on the file system */
    /* A raw block device instead of a directory: dir then names the
     * device, and the test region is its first `size` bytes (0: all of it).
     * Nothing is created or deleted. Opened read-only unless device_write;
     * for writing, the device must be confirmed by device_confirm (see
     * dmk_device_confirmed) and be in use by nothing (not mounted, no swap,
     * no holder, no exclusive opener), or target_open refuses. */
    bool device;
    bool device_write;
    const char *device_confirm;
    /* The device is already open: device_fd is a descriptor of it that
     * the front end obtained where this user may not open the node (the
     * window, through UDisks2). target_open never opens dir then: it
     * checks that the descriptor is the block device dir names (its
     * st_rdev), opened with O_DIRECT (for writing: read-write and without
     * O_SYNC/O_DSYNC), runs the same write guards on that device, and
     * uses a duplicate of it. The descriptor stays the caller's (the
     * runner closes it, dmk_os_device_fd_close). Linux only. */
    bool has_device_fd;
    int device_fd;
    const DmkBackendOpts *opts; /* the backend's own options; NULL: its defaults */
} DmkTargetParams;

/* What TRIM of a test file did (recovery test). */
typedef struct {
    uint64_t punched_bytes; /* of the test file, given back to the drive */
    bool fs_trimmed;        /* the whole file system's free space was trimmed (FITRIM) */
    uint64_t fs_trimmed_bytes;
    char note[512]; /* for people: what was done, what was not and why */
} DmkTrimReport;

/* A file system feature that changes what a benchmark measures:
 * copy-on-write (btrfs, zfs, ReFS integrity streams) and compression
 * (btrfs compress=, zfs, NTFS). Zero: not there, or not known to be. */
typedef enum {
    DMK_FS_FEATURE_NONE = 0,
    DMK_FS_FEATURE_OFF = 1,    /* the file system has it, turned off for the test file */
    DMK_FS_FEATURE_ACTIVE = 2, /* on for the test file: the numbers include it */
} DmkFsFeature;

/* What holds a target's data, followed down through loop devices,
 * partitions, overlay and the like (Linux: dmk-storage-linux.h). Zero: a
 * drive, or not examined. */
typedef enum {
    DMK_STORAGE_DISK = 0,
    DMK_STORAGE_RAM = 1,     /* tmpfs, ramfs, zram, a RAM disk, or a loop device over them */
    DMK_STORAGE_UNKNOWN = 2, /* could not be followed (FUSE, network): may be RAM */
} DmkStorage;

/* What the platform learned about a target. Strings are "" when unknown. */
typedef struct {
    char path[1024];  /* the directory (or device) as the user named it */
    char fs_type[32]; /* "ext4", "xfs", "NTFS" */
    char mount_point[512];
    char device[256];        /* "/dev/nvme0n1p2", "\\\\.\\PhysicalDrive0" */
    char model[128];         /* "Samsung SSD 970 EVO Plus 1TB" */
    uint64_t capacity_bytes; /* the whole drive's size, 0 if unknown */
    uint64_t fs_size_bytes;
    uint64_t fs_free_bytes; /* available to this user (f_bavail) */
    uint32_t mem_align;     /* buffer alignment for direct I/O */
    uint32_t offset_align;  /* offset and length alignment for direct I/O */
    uint64_t test_size;     /* the test file's size as opened */
    char temp_sensor[128];  /* the drive's temperature sensor, "" when none is readable */
    int discard;            /* mounted with online discard: 1, 0, or -1 unknown */
    /* Honest numbers (results.md): what the file system does to the test
     * file, and the most the drive's link carries, so a result beyond it
     * is flagged. iface_bytes_s is per direction; 0: unknown, no check. */
    DmkFsFeature cow;
    DmkFsFeature compression;
    char iface[48]; /* "PCIe 8.0 GT/s x4", "SATA 6.0 Gbps", "USB 5000 Mbps", "" */
    uint64_t iface_bytes_s;
    bool is_device; /* a raw block device, not a test file in a directory */
    /* What holds the data (a RAM-backed device given on purpose is run,
     * and flagged; so is storage that could not be followed) and the
     * chain that says why: "/dev/loop3, whose backing file /dev/shm/a.img
     * is on tmpfs". "" for a drive. */
    DmkStorage storage;
    char storage_note[1040];
    /* What the run may leave behind where the OS cannot help (a FUSE
     * server's .fuse_hidden file, NFS's .nfsXXXX) and how to remove it;
     * "" when nothing can be left. */
    char leftover_note[1200];
    /* Set when a cache in front of the drive takes the I/O (a loop device
     * doing buffered I/O on its backing file, loop/dio 0): "the loop
     * device /dev/loop3 reads and writes its backing file through the
     * page cache (loop/dio 0)"; the run is flagged "cached". "" when none. */
    char cache_note[256];
} DmkTargetInfo;

typedef struct DmkTarget DmkTarget;
typedef struct DmkQueue DmkQueue;

/* One of a backend's own options, as a front end offers it: the null
 * backend's "latency" is drivemark-cli's --null-latency. */
typedef struct {
    const char *key;  /* "latency" */
    const char *arg;  /* what the value is, for help: "US", "SIZE" */
    const char *help; /* one line: "each I/O completes after US microseconds" */
} DmkBackendOption;

/* A backend: one const descriptor per backend, in its own file, named
 * dmk_backend_<name>_desc and registered by platform/meson.build (the build's
 * registry, dmk_backend_at). The function pointers are the I/O path; the
 * rest describes it to the front ends (docs/design.md, "Backends"). */
typedef struct DmkBackend {
    const char *name;        /* "libaio", "iocp", "null" */
    const char *description; /* one line for help texts: "no disk I/O: measures the engine" */
    bool native;             /* the OS's real backend, what "native" names */
    bool tests_only;         /* offered to no user (--backend refuses it): test scripts only */
    bool in_memory;          /* touches no disk: what it "writes" goes nowhere (null, fault) */
    /* Its own options, ended by a {NULL} entry (NULL: none); parse_option
     * stores one in opts, after checking the value (a message naming
     * `what`, the option as the user spelled it, e.g. "--null-latency"). */
    const DmkBackendOption *options;
    int (*parse_option)(DmkBackendOpts *opts, const char *key, const char *value, const char *what,
                        DmkError *err);

    /* Creates and opens the test file in p->dir for direct I/O, sized but
     * not yet filled; fills *info. Refuses unsuitable file systems. */
    int (*target_open)(const DmkTargetParams *p, DmkTarget **out, DmkTargetInfo *info,
                       DmkError *err);
    /* Closes the target; the test file is gone afterwards. */
    void (*target_close)(DmkTarget *t);
    /* Makes what was written durable (fdatasync, FlushFileBuffers), so that
     * a test after the fill does not measure the fill's write-back. */
    int (*target_sync)(DmkTarget *t, DmkError *err);

    /* A queue of up to `depth` in-flight requests, used by one thread. */
    int (*queue_open)(DmkTarget *t, unsigned depth, DmkQueue **out, DmkError *err);
    /* Waits for in-flight requests (bounded), then frees the queue. */
    void (*queue_close)(DmkQueue *q);
    /* Optional (NULL: none): the memory [base, base + len) that q's
     * requests will point into (a worker's buffers, the data pool), told
     * after queue_open and before the first submit, so a backend may
     * register it with the OS once (io_uring's fixed buffers) instead of
     * pinning pages per request. Requests may still point elsewhere. */
    void (*queue_memory)(DmkQueue *q, void *base, size_t len);

    /* Submits up to n requests; returns how many were accepted (>= 0; fewer
     * than n when the OS pushes back, 0 meaning "reap first, then retry")
     * or a negative DmkErrCode with err filled. */
    int (*submit)(DmkQueue *q, DmkIo **ios, int n, DmkError *err);

    /* Waits up to timeout_ns for at least min completions; returns how many
     * (0..max) were stored in done[], or a negative DmkErrCode. Each DmkIo
     * carries its own res/os_error. */
    int (*reap)(DmkQueue *q, int min, int max, uint64_t timeout_ns, DmkIo **done, DmkError *err);

    /* The drive's temperature now, in degrees Celsius; DMK_OK, or a
     * negative DmkErrCode when there is no readable sensor
     * (DmkTargetInfo.temp_sensor is "" then). Cheap enough to call once a
     * second; never blocks for long. */
    int (*target_temperature)(DmkTarget *t, double *celsius);

    /* Gives the test file's blocks back to the drive (hole punching, then
     * re-allocating them so later writes find the file as before) and
     * trims the file system's free space where privileges allow; *rep says
     * what was done. Errors only when the file itself cannot be trimmed. */
    int (*target_trim)(DmkTarget *t, DmkTrimReport *rep, DmkError *err);

    /* What is written can be read back (a real file or device): the
     * verify option needs it. The in-memory backends keep nothing. */
    bool keeps_data;

    /* queue_close waits for the requests still in flight (io_destroy):
     * the runner never closes a queue whose requests the drive still
     * holds (a stall, a stop on a hung drive), nor the target, so that the
     * report comes before anything that waits for the drive. */
    bool close_waits;
} DmkBackend;

/* Waits until dmk_clock_ns() reaches `until`, sleeping while it is far
 * and spinning the last ~100 us: the in-memory backends' simulated
 * latencies are shorter than the OS's sleep granularity. On the simulated
 * clock, a wait like dmk_sleep_ns's. */
void dmk_wait_until_ns(uint64_t until);

/* ---- the registry ---------------------------------------------------- */

/* The backends this build has (platform/meson.build lists them per OS),
 * in the order help texts name them; dmk_backend_at(i) for i below
 * dmk_backend_count(), NULL past it. */
size_t dmk_backend_count(void);
const DmkBackend *dmk_backend_at(size_t i);

/* The OS's real backend (libaio on Linux, completion ports on Windows). */
const DmkBackend *dmk_backend_native(void);

/* Looks a registered backend up by name, "native" for the OS's own;
 * NULL when there is none. Test-only backends are found too. */
const DmkBackend *dmk_backend_by_name(const char *name);

/* The names a user may give, for help and errors: "native, libaio or
 * null" (test-only backends left out). Returns buf. */
char *dmk_backend_choices(char *buf, size_t len);

/* A backend a user named with option `what` ("--backend"): one that is
 * offered, or DMK_E_INVAL with "--backend 'x' is unknown: expected
 * native, libaio or null". */
int dmk_backend_choose(const char *what, const char *name, const DmkBackend **out, DmkError *err);

/* Sets option `key` of backend be in opts from the text `value`; an
 * option be does not have is refused naming those it has. `what` is the
 * option as the user spelled it, for messages (NULL: key). */
int dmk_backend_set_option(const DmkBackend *be, DmkBackendOpts *opts, const char *key,
                           const char *value, const char *what, DmkError *err);

#endif
