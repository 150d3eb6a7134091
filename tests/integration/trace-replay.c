/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The trace replay (core/dmk-trace.h) on a raw block device, read-only,
 * for test_trace_throttle.py: replays TRACE against DEVICE through the
 * native backend and prints what it measured as one line of JSON.
 *
 *     trace-replay DEVICE TRACE IDLE_MAX_MS
 *
 * The trace must only read (the device is opened read-only: nothing is
 * written). Exit 0, or 1 with the message on stderr. */
#include <stdio.h>
#include <stdlib.h>

#include "dmk-platform.h"
#include "dmk-pool.h"
#include "dmk-trace.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: trace-replay DEVICE TRACE IDLE_MAX_MS\n");
        return 2;
    }
    DmkError err = {0};
    DmkTrace tr;
    if (dmk_trace_load(argv[2], &tr, &err) != DMK_OK) {
        fprintf(stderr, "trace-replay: %s\n", err.msg);
        return 1;
    }
    if (tr.writes) {
        fprintf(stderr, "trace-replay: %s writes: this helper only reads a device\n", argv[2]);
        return 1;
    }
    const DmkBackend *be = dmk_backend_native();
    DmkTargetParams tp = {.dir = argv[1], .device = true};
    DmkTarget *target = NULL;
    DmkTargetInfo info;
    DmkQueue *q = NULL;
    if (be->target_open(&tp, &target, &info, &err) != DMK_OK ||
        be->queue_open(target, DMK_TRACE_QD_MAX, &q, &err) != DMK_OK) {
        fprintf(stderr, "trace-replay: %s\n", err.msg);
        return 1;
    }
    DmkReplayParams p = {.be = be,
                         .q = q,
                         .region_size = info.test_size,
                         .align = info.offset_align,
                         .mem_align = info.mem_align,
                         .qd = DMK_TRACE_QD_MAX,
                         .idle_max_ns = (uint64_t)(strtod(argv[3], NULL) * 1e6),
                         .seed = 1};
    DmkReplayStats st;
    int rc = dmk_trace_replay(&tr, &p, &st, &err);
    be->queue_close(q);
    be->target_close(target);
    dmk_trace_free(&tr);
    if (rc != DMK_OK) {
        fprintf(stderr, "trace-replay: %s\n", err.msg);
        return 1;
    }
    printf(
        "{\"ios\": %llu, \"bytes\": %llu, \"busy_s\": %.9f, \"wall_s\": %.9f, \"trace_s\": %.6f, "
        "\"cut_s\": %.6f, \"gaps_cut\": %zu, \"mb_s\": %.6f, \"qd\": %.4f, \"lat_mean_us\": %.3f, "
        "\"lat_p50_us\": %.3f, \"lat_p99_us\": %.3f}\n",
        (unsigned long long)st.ios, (unsigned long long)(st.read_bytes + st.write_bytes),
        (double)st.busy_ns / 1e9, (double)st.wall_ns / 1e9, (double)st.trace_ns / 1e9,
        (double)st.cut_ns / 1e9, st.gaps_cut, st.mb_s, st.qd, st.lat_mean_us, st.lat_p50_us,
        st.lat_p99_us);
    return 0;
}
