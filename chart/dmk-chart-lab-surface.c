/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The surface scan's two charts, as GNOME Disks draws them: the read
 * rate of each sample against where it lies on the device, and each
 * random read's access time against its place as a scatter; each with
 * its average as a flat line, the headline figure in the legend. The
 * position is in GB (10^9 bytes, as MB/s is 10^6 bytes a second). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dmk-chart-lab-private.h"
#include "dmk-i18n.h"
#include "dmk-size.h"
#include "dmk-surface.h"
#include "dmk-text.h"

#define GB 1e9

/* The flat average from the device's first byte to its last. */
static int add_average(DmkLabChartJob *l, double avg, double end_gb, const char *name)
{
    DmkChartSeries *s = dmk_lab_chart_series(l->b, 2, name);
    if (!s)
        return DMK_E_NOMEM;
    dmk_lab_chart_points(s)[0] = (DmkChartPoint){0, avg};
    dmk_lab_chart_points(s)[1] = (DmkChartPoint){end_gb, avg};
    s->solid = true;
    s->look = 2; /* the second colour: apart from the measurements */
    return DMK_OK;
}

/* The read rate of each sample at its middle, joined in place order. */
static int add_rate(DmkLabChartJob *l, const DmkSurface *s)
{
    char name[128], size[32], avg[32], fig[160];
    DmkChartSeries *line = dmk_lab_chart_series(l->b, s->n_samples, DMK_("Read rate"));
    if (!line)
        return DMK_E_NOMEM;
    for (size_t i = 0; i < s->n_samples; i++)
        dmk_lab_chart_points(line)[i] =
            (DmkChartPoint){(s->samples[i].offset + s->sample_bytes / 2) / GB, s->samples[i].value};
    snprintf(name, sizeof name, DMK_("Average %s MB/s"),
             dmk_format_figure(s->rate_avg, avg, sizeof avg));
    int rc = add_average(l, s->rate_avg, s->capacity / GB, name);
    DmkChartModel *m = &l->b->model;
    snprintf(m->title, sizeof m->title,
             DMK_("Surface scan: read rate across the device, average %s MB/s"), avg);
    snprintf(m->y_title, sizeof m->y_title, "%s", DMK_("Read rate (MB/s)"));
    char lo[32], hi[32];
    /* TRANSLATORS: a chart's subtitle: the samples, each one's size ("1 GiB"),
     * the lowest and highest rate. */
    snprintf(fig, sizeof fig,
             dmk_ngettext("%zu sample of %s, %s to %s MB/s", "%zu samples of %s, %s to %s MB/s",
                          s->n_samples),
             s->n_samples, dmk_format_size((uint64_t)s->sample_bytes, size, sizeof size),
             dmk_format_figure(s->rate_min, lo, sizeof lo),
             dmk_format_figure(s->rate_max, hi, sizeof hi));
    dmk_lab_chart_subtitle(l, fig);
    return rc;
}

/* Each random read's access time at its place, as dots. */
static int add_access(DmkLabChartJob *l, const DmkSurface *s)
{
    char name[128], fig[96];
    DmkChartSeries *dots = dmk_lab_chart_series(l->b, s->n_accesses, DMK_("Access time"));
    if (!dots)
        return DMK_E_NOMEM;
    for (size_t i = 0; i < s->n_accesses; i++)
        dmk_lab_chart_points(dots)[i] =
            (DmkChartPoint){s->accesses[i].offset / GB, s->accesses[i].value};
    dots->style = DMK_SERIES_DOTS;
    snprintf(name, sizeof name, DMK_("Average %.2f ms"), s->access_avg_ms);
    int rc = add_average(l, s->access_avg_ms, s->capacity / GB, name);
    DmkChartModel *m = &l->b->model;
    snprintf(m->title, sizeof m->title, DMK_("Surface scan: access time, average %.2f ms"),
             s->access_avg_ms);
    snprintf(m->y_title, sizeof m->y_title, "%s", DMK_("Access time (ms)"));
    snprintf(fig, sizeof fig,
             dmk_ngettext("%zu random 4 KiB read, %.2f to %.2f ms",
                          "%zu random 4 KiB reads, %.2f to %.2f ms", s->n_accesses),
             s->n_accesses, s->access_min_ms, s->access_max_ms);
    dmk_lab_chart_subtitle(l, fig);
    return rc;
}

int dmk_lab_chart_build_surface(DmkLabChartJob *l)
{
    DmkSurface s;
    if (dmk_surface_of(l->res[0], &s) != DMK_OK)
        return dmk_error_set(l->err, DMK_E_NOMEM, 0, "out of memory for the surface scan");
    bool rate = l->kind == DMK_LAB_CHART_SURFACE_RATE;
    size_t n = rate ? s.n_samples : s.n_accesses;
    int rc = dmk_lab_chart_alloc(l->b, 2, 1);
    DmkChartModel *m = &l->b->model;
    /* A scan stopped before this part: the chart says so, not "No data". */
    if (rc == DMK_OK && n == 0) {
        snprintf(m->title, sizeof m->title, "%s",
                 rate ? DMK_("Surface scan: read rate across the device")
                      : DMK_("Surface scan: access time"));
        snprintf(m->no_data, sizeof m->no_data, "%s",
                 rate ? DMK_("Stopped before the samples")
                      : DMK_("Stopped before the random reads"));
        snprintf(m->y_title, sizeof m->y_title, "%s",
                 rate ? DMK_("Read rate (MB/s)") : DMK_("Access time (ms)"));
    } else if (rc == DMK_OK) {
        rc = rate ? add_rate(l, &s) : add_access(l, &s);
    }
    if (rc == DMK_OK) {
        m->kind = DMK_CHART_LINES;
        snprintf(m->x_title, sizeof m->x_title, "%s", DMK_("Position on the device (GB)"));
        m->x_min = 0;
        m->x_max = s.capacity / GB;
    }
    dmk_surface_free(&s);
    return rc;
}
