#include "dmk-lab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const uint32_t dmk_lab_ramp_pct[DMK_LAB_RAMP_STEPS] = {10, 20, 30, 40,  50, 60,
                                                       70, 80, 90, 100, 120};
const uint32_t dmk_lab_mix_share[DMK_LAB_MIX_STEPS] = {0, 20, 40, 60, 80, 100};

static const struct {
    const char *name, *title;
} lab_names[] = {
    [DMK_LAB_NONE] = {"", ""},
    [DMK_LAB_SUSTAINED] = {"sustained", "Sustained write"},
    [DMK_LAB_FULLSPAN] = {"fullspan", "Full-span write"},
    [DMK_LAB_MIXED] = {"mixed", "Mixed load"},
    [DMK_LAB_LATENCY] = {"latency", "Latency under load"},
    [DMK_LAB_RECOVERY] = {"recovery", "Recovery"},
};

const char *dmk_lab_name(DmkLabKind k)
{
    return k > DMK_LAB_NONE && k <= DMK_LAB_RECOVERY ? lab_names[k].name : "";
}

const char *dmk_lab_title(DmkLabKind k)
{
    return k > DMK_LAB_NONE && k <= DMK_LAB_RECOVERY ? lab_names[k].title : "";
}

DmkLabKind dmk_lab_from_name(const char *name)
{
    for (int k = DMK_LAB_SUSTAINED; name && k <= DMK_LAB_RECOVERY; k++)
        if (strcmp(name, lab_names[k].name) == 0)
            return (DmkLabKind)k;
    return DMK_LAB_NONE;
}

/* ---- building the runs ------------------------------------------------------ */

void dmk_lab_params_init(DmkLabParams *p, DmkLabKind kind)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->sample_s = 1.0;
    p->span = 32ULL << 30; /* the reviews' test area: past any SLC cache of the day */
    p->step_s = 20.0;
    p->mixed_qd = 1;
    switch (kind) {
    case DMK_LAB_SUSTAINED:
        p->job = (DmkJob){DMK_PATTERN_RND, 4096, 32, 1, 0};
        p->duration_s = 7200.0;
        p->settle_s = 300.0;
        break;
    case DMK_LAB_FULLSPAN:
        p->job = (DmkJob){DMK_PATTERN_SEQ, 1u << 20, 8, 1, 0};
        p->span = 0;
        p->margin = 2ULL << 30;
        break;
    case DMK_LAB_RECOVERY:
        p->job = (DmkJob){DMK_PATTERN_RND, 4096, 32, 1, 0};
        p->duration_s = 1800.0;
        p->step_s = 60.0;
        p->idle_s = 900.0;
        p->settle_s = 300.0;
        break;
    default:
        p->warmup_s = 2.0;
        break;
    }
}

static DmkTest *add_test(DmkRunSpec *spec, const DmkJob *job, DmkMode mode, const char *label)
{
    DmkError ignored; /* a lab run has at most 48 of the spec's 256 tests */
    dmk_run_spec_add(spec, job, mode, job->read_share, &ignored);
    DmkTest *t = &spec->tests[spec->n_tests - 1];
    snprintf(t->label, sizeof t->label, "%s", label);
    return t;
}

static void build_sustained(const DmkLabParams *p, DmkRunSpec *spec)
{
    DmkTest *t = add_test(spec, &p->job, DMK_MODE_WRITE, "sustained");
    t->measure_s = p->duration_s;
}

/* One sequential pass over the file: it ends by bytes, not time. */
static void build_fullspan(const DmkLabParams *p, DmkRunSpec *spec)
{
    DmkJob job = p->job;
    job.threads = 1;
    DmkTest *t = add_test(spec, &job, DMK_MODE_WRITE, "full span");
    t->limit_bytes = p->span ? p->span : DMK_LAB_SIZE_MAX;
    spec->free_margin = p->span ? 0 : p->margin;
}

static void build_mixed(const DmkLabParams *p, DmkRunSpec *spec)
{
    /* The reviews' Iometer set: independent workers, each its own slice. */
    const DmkJob jobs[2] = {{DMK_PATTERN_SEQ, 128u << 10, p->mixed_qd, 2, 0},
                            {DMK_PATTERN_RND, 4096, p->mixed_qd, 4, 0}};
    for (int j = 0; j < 2; j++) {
        for (int k = 0; k < DMK_LAB_MIX_STEPS; k++) {
            DmkJob job = jobs[j];
            job.read_share = dmk_lab_mix_share[k];
            char label[32];
            snprintf(label, sizeof label, "%u %% read", dmk_lab_mix_share[k]);
            add_test(spec, &job, DMK_MODE_MIX, label)->measure_s = p->step_s;
        }
    }
}

static void build_latency(const DmkLabParams *p, DmkRunSpec *spec)
{
    /* StorageReview's VDBench profiles: outstanding I/O, one worker. */
    static const struct {
        DmkJob job;
        DmkMode mode;
    } profiles[DMK_LAB_LAT_PROFILES] = {
        {{DMK_PATTERN_RND, 4096, 128, 1, 100}, DMK_MODE_READ},
        {{DMK_PATTERN_RND, 4096, 64, 1, 0}, DMK_MODE_WRITE},
        {{DMK_PATTERN_SEQ, 64u << 10, 16, 1, 100}, DMK_MODE_READ},
        {{DMK_PATTERN_SEQ, 64u << 10, 8, 1, 0}, DMK_MODE_WRITE},
    };
    for (int i = 0; i < DMK_LAB_LAT_PROFILES; i++) {
        uint32_t max_index = (uint32_t)spec->n_tests + 1; /* 1-based */
        add_test(spec, &profiles[i].job, profiles[i].mode, "max")->measure_s = p->step_s;
        for (int k = 0; k < DMK_LAB_RAMP_STEPS; k++) {
            char label[32];
            snprintf(label, sizeof label, "%u %%", dmk_lab_ramp_pct[k]);
            DmkTest *t = add_test(spec, &profiles[i].job, profiles[i].mode, label);
            t->measure_s = p->step_s;
            t->rate_ref = max_index;
            t->rate_pct = dmk_lab_ramp_pct[k];
        }
    }
}

static void build_recovery(const DmkLabParams *p, DmkRunSpec *spec)
{
    add_test(spec, &p->job, DMK_MODE_WRITE, "fresh")->measure_s = p->step_s;
    add_test(spec, &p->job, DMK_MODE_WRITE, "degradation")->measure_s = p->duration_s;
    add_test(spec, &p->job, DMK_MODE_WRITE, "degraded")->measure_s = p->step_s;
    DmkTest *idle = add_test(spec, &p->job, DMK_MODE_WRITE, "after idle");
    idle->measure_s = p->step_s;
    idle->idle_before_s = p->idle_s;
    DmkTest *trim = add_test(spec, &p->job, DMK_MODE_WRITE, "after TRIM");
    trim->measure_s = p->step_s;
    trim->trim_before = true;
}

static int check_params(const DmkLabParams *p, DmkError *err)
{
    if (p->kind <= DMK_LAB_NONE || p->kind > DMK_LAB_RECOVERY)
        return dmk_error_set(err, DMK_E_INVAL, 0, "unknown review-lab test %d", (int)p->kind);
    if (!(p->sample_s >= DMK_LAB_SAMPLE_MIN && p->sample_s <= DMK_LAB_SAMPLE_MAX))
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "sample interval %g s is out of range (%g to %g s)", p->sample_s,
                             DMK_LAB_SAMPLE_MIN, DMK_LAB_SAMPLE_MAX);
    if (p->kind == DMK_LAB_FULLSPAN && p->job.pattern != DMK_PATTERN_SEQ)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "the full-span write is sequential (SEQ...), not random");
    bool timed = p->kind == DMK_LAB_SUSTAINED || p->kind == DMK_LAB_RECOVERY;
    bool stepped =
        p->kind == DMK_LAB_MIXED || p->kind == DMK_LAB_LATENCY || p->kind == DMK_LAB_RECOVERY;
    if (timed && !(p->duration_s >= 0.1 && p->duration_s <= DMK_SECONDS_MAX))
        return dmk_error_set(err, DMK_E_INVAL, 0, "duration %g s is out of range (0.1 to %g s)",
                             p->duration_s, DMK_SECONDS_MAX);
    if (stepped && !(p->step_s >= 0.1 && p->step_s <= DMK_SECONDS_MAX))
        return dmk_error_set(err, DMK_E_INVAL, 0, "step time %g s is out of range (0.1 to %g s)",
                             p->step_s, DMK_SECONDS_MAX);
    if (!(p->settle_s >= 0 && p->settle_s <= DMK_SECONDS_MAX))
        return dmk_error_set(err, DMK_E_INVAL, 0, "settle time %g s is out of range (0 to %g s)",
                             p->settle_s, DMK_SECONDS_MAX);
    if (p->kind == DMK_LAB_FULLSPAN && p->span == 0 && p->margin == 0)
        return dmk_error_set(err, DMK_E_INVAL, 0,
                             "a full-span write over the free space needs a safety margin");
    return DMK_OK;
}

int dmk_lab_build(const DmkLabParams *p, DmkRunSpec *spec, DmkError *err)
{
    int rc = check_params(p, err);
    if (rc != DMK_OK)
        return rc;
    snprintf(spec->lab, sizeof spec->lab, "%s", dmk_lab_name(p->kind));
    snprintf(spec->profile, sizeof spec->profile, "%s", dmk_lab_name(p->kind));
    spec->sweep[0] = '\0';
    spec->size = p->span;
    spec->free_margin = 0;
    spec->passes = 1;
    spec->measure_s = p->step_s > 0 ? p->step_s : 1.0;
    spec->warmup_s = p->warmup_s;
    spec->interval_s = 0;
    spec->timeline_s = p->sample_s;
    spec->keep_partial = true;
    /* The full span writes every block once, sequentially: no fill. The
     * others fill first and settle (dmk-lab.h says why). */
    spec->no_fill = p->kind == DMK_LAB_FULLSPAN;
    spec->n_tests = 0;
    switch (p->kind) {
    case DMK_LAB_SUSTAINED:
        build_sustained(p, spec);
        break;
    case DMK_LAB_FULLSPAN:
        build_fullspan(p, spec);
        break;
    case DMK_LAB_MIXED:
        build_mixed(p, spec);
        break;
    case DMK_LAB_LATENCY:
        build_latency(p, spec);
        break;
    default:
        build_recovery(p, spec);
        break;
    }
    if (!spec->no_fill)
        spec->tests[0].idle_before_s += p->settle_s;
    return dmk_run_spec_validate(spec, 0, err);
}

/* ---- analysis: samples ------------------------------------------------------ */

const char *dmk_lab_metric(const DmkTest *t)
{
    return t->n_jobs > 0 && t->jobs[0].pattern == DMK_PATTERN_RND ? "iops" : "mb_s";
}

static double speed_of(const DmkSample *s, bool iops)
{
    return iops ? s->iops : s->mb_s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n), which it sorts. */
static double median_sorted(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static double median_of(const DmkSample *s, size_t from, size_t to, bool iops)
{
    size_t n = to - from;
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v || n == 0) {
        free(v);
        return NAN;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = speed_of(&s[from + i], iops);
    double m = median_sorted(v, n);
    free(v);
    return m;
}

/* The one split of the samples into two flat segments that explains
 * them best (least squares), each segment long enough to mean something:
 * the drop of a cache cliff or of throttling is the biggest step in the
 * series. Returns the index of the first sample after the split. */
static size_t best_split(const DmkSample *s, size_t n, bool iops, size_t min_before,
                         size_t min_after)
{
    double total = 0, total2 = 0;
    for (size_t i = 0; i < n; i++) {
        double v = speed_of(&s[i], iops);
        total += v;
        total2 += v * v;
    }
    double sum = 0, best = INFINITY;
    size_t best_k = 0;
    for (size_t k = 1; k < n; k++) {
        sum += speed_of(&s[k - 1], iops);
        if (k < min_before || n - k < min_after)
            continue;
        double a = sum, b = total - sum;
        /* SSE = sum(v^2) - a^2/k - b^2/(n-k): minimise by maximising the rest. */
        double sse = total2 - a * a / (double)k - b * b / (double)(n - k);
        if (sse < best) {
            best = sse;
            best_k = k;
        }
    }
    return best_k;
}

/* A drop is sustained when the two sides barely overlap: nearly every
 * sample after it lies below the midpoint of the two medians, and most
 * before it above, and the speed fell by at least 30 %. Noise on a
 * virtual disk, which swings both ways, fails this. */
static bool sustained_drop(const DmkSample *s, size_t n, size_t k, bool iops, double before,
                           double after)
{
    if (!(before > 0) || !(after >= 0) || after > before * 0.7)
        return false;
    double mid = (before + after) / 2.0;
    size_t above_after = 0, below_before = 0;
    for (size_t i = 0; i < k; i++)
        below_before += speed_of(&s[i], iops) < mid;
    for (size_t i = k; i < n; i++)
        above_after += speed_of(&s[i], iops) > mid;
    return below_before <= k / 4 && above_after <= (n - k) / 10;
}

/* The split and whether it is a sustained drop; before/after get the medians. */
static bool find_drop(const DmkSample *s, size_t n, bool iops, size_t *k, double *before,
                      double *after)
{
    size_t min_after = n / 10 > 5 ? n / 10 : 5;
    *k = n >= 10 ? best_split(s, n, iops, 3, min_after) : 0;
    if (*k == 0)
        return false;
    *before = median_of(s, 0, *k, iops);
    *after = median_of(s, *k, n, iops);
    return sustained_drop(s, n, *k, iops, *before, *after);
}

static double sample_bytes(const DmkSample *s, size_t i)
{
    double t0 = i ? s[i - 1].t_s : 0.0;
    double dt = s[i].t_s - t0;
    return dt > 0 && s[i].mb_s > 0 ? s[i].mb_s * 1e6 * dt : 0.0;
}

static void steady_state(const DmkSample *s, size_t n, bool iops, DmkLabCliff *out)
{
    size_t from = n - (n / 5 > 5 ? n / 5 : (n < 5 ? n : 5));
    double sum = 0;
    for (size_t i = from; i < n; i++)
        sum += speed_of(&s[i], iops);
    double mean = sum / (double)(n - from), worst = 0;
    size_t within = 0;
    for (size_t i = from; i < n; i++) {
        double dev = fabs(speed_of(&s[i], iops) - mean);
        worst = fmax(worst, dev);
        within += dev <= 0.2 * mean;
    }
    out->steady_mean = mean;
    out->steady_excursion_pct = mean > 0 ? worst / mean * 100.0 : 0.0;
    out->steady_within_pct = 100.0 * (double)within / (double)(n - from);
    out->steady = mean > 0 && out->steady_within_pct >= 90.0;
}

void dmk_lab_cliff(const DmkSample *s, size_t n, const char *metric, DmkLabCliff *out)
{
    memset(out, 0, sizeof *out);
    bool iops = metric && strcmp(metric, "iops") == 0;
    out->n = n;
    for (size_t i = 0; i < n; i++)
        out->total_bytes += sample_bytes(s, i);
    out->before = out->after = NAN;
    if (n < 10)
        return;
    size_t k;
    out->cliff = find_drop(s, n, iops, &k, &out->before, &out->after);
    if (out->cliff) {
        for (size_t i = 0; i < k; i++)
            out->cache_bytes += sample_bytes(s, i);
        out->cliff_t_s = s[k - 1].t_s;
    }
    steady_state(s, n, iops, out);
}

/* ---- analysis: temperature -------------------------------------------------- */

/* Throttling, as opposed to a cache cliff that happens on a warm drive:
 * the drive heated up by 10 C or more to its maximum, the drop came within
 * 30 s (or a tenth of the time before it) of reaching that maximum, and
 * the temperature stayed there afterwards. */
static bool is_throttle(const DmkSample *s, size_t n, size_t k, double max_c)
{
    double first = NAN, reached_t = NAN;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(s[i].temp_c))
            continue;
        if (isnan(first))
            first = s[i].temp_c;
        if (isnan(reached_t) && s[i].temp_c >= max_c - 2.0)
            reached_t = s[i].t_s;
    }
    double drop_t = s[k - 1].t_s;
    /* Sensors lag: the maximum may show a second after the drop. */
    double period = n > 1 ? s[1].t_s - s[0].t_s : 1.0;
    if (!(max_c - first >= 10.0) || isnan(reached_t) || reached_t > drop_t + fmax(1.0, 2 * period))
        return false;
    if (reached_t < drop_t && drop_t - reached_t > fmax(30.0, drop_t / 10.0))
        return false;
    size_t hot = 0, known = 0;
    for (size_t i = k; i < n; i++) {
        if (isfinite(s[i].temp_c)) {
            known++;
            hot += s[i].temp_c >= max_c - 3.0;
        }
    }
    return known > 0 && hot * 10 >= known * 8;
}

void dmk_lab_thermal(const DmkSample *s, size_t n, const char *metric, DmkLabThermal *out)
{
    memset(out, 0, sizeof *out);
    out->min_c = out->max_c = out->throttle_c = NAN;
    out->before = out->after = NAN;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(s[i].temp_c))
            continue;
        out->sensor = true;
        out->min_c = isnan(out->min_c) ? s[i].temp_c : fmin(out->min_c, s[i].temp_c);
        out->max_c = isnan(out->max_c) ? s[i].temp_c : fmax(out->max_c, s[i].temp_c);
    }
    bool iops = metric && strcmp(metric, "iops") == 0;
    size_t k;
    double before, after;
    if (!out->sensor || !find_drop(s, n, iops, &k, &before, &after))
        return;
    if (!is_throttle(s, n, k, out->max_c))
        return;
    out->throttled = true;
    out->throttle_t_s = s[k - 1].t_s;
    out->throttle_c = out->max_c; /* the sensor lags the drop; its maximum is the limit */
    out->before = before;
    out->after = after;
}

/* ---- analysis: results ------------------------------------------------------ */

static bool same_profile(const DmkTest *a, const DmkTest *b)
{
    return strcmp(a->name, b->name) == 0 && a->mode == b->mode;
}

size_t dmk_lab_latency(const DmkRunResult *r, DmkLabLatency *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_tests && n < max;) {
        DmkLabLatency *l = &out[n++];
        memset(l, 0, sizeof *l);
        snprintf(l->name, sizeof l->name, "%s", r->tests[i].test.name);
        l->mode = r->tests[i].test.mode;
        l->first = i;
        l->max_iops = r->tests[i].score.total.iops;
        for (; i < r->n_tests && same_profile(&r->tests[i].test, &r->tests[l->first].test); i++) {
            const DmkStats *st = &r->tests[i].score.total;
            l->count++;
            if (r->tests[i].n_passes == 0)
                continue;
            if (st->iops > l->peak_iops) {
                l->peak_iops = st->iops;
                l->peak_lat_ms = st->lat_mean_us / 1000.0;
            }
            if (st->lat_mean_us < 1000.0 && st->iops > l->sub_ms_iops) {
                l->sub_ms = true;
                l->sub_ms_iops = st->iops;
            }
        }
    }
    return n;
}

size_t dmk_lab_mixed(const DmkRunResult *r, DmkLabMixed *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_tests && n < max;) {
        DmkLabMixed *m = &out[n++];
        memset(m, 0, sizeof *m);
        snprintf(m->name, sizeof m->name, "%s", r->tests[i].test.name);
        size_t first = i;
        double sum = 0;
        for (; i < r->n_tests && strcmp(r->tests[i].test.name, r->tests[first].test.name) == 0;
             i++) {
            if (m->n == DMK_LAB_MIX_STEPS)
                continue;
            m->share[m->n] = r->tests[i].test.jobs[0].read_share;
            m->mb_s[m->n] = r->tests[i].score.total.mb_s;
            sum += m->mb_s[m->n++];
        }
        m->mean_mb_s = m->n ? sum / (double)m->n : NAN;
    }
    return n;
}

static const char *const recovery_labels[4] = {"fresh", "degraded", "after idle", "after TRIM"};

void dmk_lab_recovery(const DmkRunResult *r, DmkLabRecovery *out)
{
    out->metric = "iops";
    for (int k = 0; k < 4; k++) {
        out->label[k] = recovery_labels[k];
        out->value[k] = NAN;
    }
    for (size_t i = 0; i < r->n_tests; i++) {
        const DmkTestResult *t = &r->tests[i];
        out->metric = dmk_lab_metric(&t->test);
        bool iops = strcmp(out->metric, "iops") == 0;
        for (int k = 0; k < 4; k++)
            if (strcmp(t->test.label, recovery_labels[k]) == 0 && t->n_passes)
                out->value[k] = iops ? t->score.total.iops : t->score.total.mb_s;
    }
}

const DmkTestResult *dmk_lab_timeline_test(const DmkRunResult *r)
{
    const DmkTestResult *best = NULL;
    for (size_t i = 0; i < r->n_tests; i++) {
        if (strcmp(r->tests[i].test.label, "degradation") == 0)
            return &r->tests[i];
        if (!best || r->tests[i].n_samples > best->n_samples)
            best = &r->tests[i];
    }
    return best && best->n_samples ? best : NULL;
}
