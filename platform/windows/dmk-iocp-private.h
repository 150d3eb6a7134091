/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The completion-port backend's internals, exposed to tests/windows only:
 * Wine queues every overlapped I/O to the port and does not enforce the
 * FILE_FLAG_NO_BUFFERING rules, so the inline-completion path and the
 * alignment checks are tested through these, with fake completions. */
#ifndef DMK_IOCP_PRIVATE_H
#define DMK_IOCP_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <windows.h>

#include "dmk-platform.h"

struct DmkQueue {
    HANDLE file;                      /* this queue's own handle on the test file */
    HANDLE port;                      /* the completion port bound to that handle */
    bool skip_on_success;             /* an immediate success queues nothing to the port */
    uint32_t offset_align, mem_align; /* powers of two */
    const char *dir;                  /* the target as the user named it, for messages */
    unsigned depth;
    unsigned on_port;                 /* requests whose completion will come through the port */
    unsigned ready_head, ready_count; /* ring of requests that completed at submit */
    DmkIo **ready;                    /* depth slots */
    OVERLAPPED_ENTRY *entries;        /* depth slots for GetQueuedCompletionStatusEx */
    uint64_t n_inline, n_port;        /* how requests completed, for tests */
};

/* The OVERLAPPED kept in a request's priv, and the request around one. */
OVERLAPPED *dmk_iocp_overlapped(DmkIo *io);
DmkIo *dmk_iocp_io(OVERLAPPED *ov);

/* DMK_E_INVAL with a message when the request's offset, length or buffer
 * address breaks the alignment unbuffered I/O needs. */
int dmk_iocp_check_aligned(const DmkQueue *q, const DmkIo *io, DmkError *err);

/* Sets io->res and io->os_error from the NTSTATUS and byte count in the
 * request's own OVERLAPPED. */
void dmk_iocp_complete(DmkIo *io);

/* Appends a request completed at submit to the ready list, which the next
 * reap returns first; false when the list is full. */
bool dmk_iocp_ready_push(DmkQueue *q, DmkIo *io);

#endif
