/* Demand series: peak and average, percentiles, capacity for an unmet
 * bound, and the fixed vs elastic split (doc/model.md, sections 6 and 7). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define W(k) (w->v[IX_##k])
#define T(k) (t->v[IX_##k])
#define P(k) (p->v[IX_##k])

/* ---- checks ------------------------------------------------------------ */

/* A series that exists and is not empty; its values are checked apart. */
static int series_given(const double *x, size_t n, const char *name, tco_error *err)
{
    if (!x)
        return tco_fail(err, TCO_E_NULL, 0, "%s must not be NULL", name);
    if (n == 0)
        return tco_fail(err, TCO_E_RANGE, 0, "%s is empty: give at least one value", name);
    return TCO_OK;
}

int series_check(const double *x, size_t n, const char *name, tco_error *err)
{
    int rc = series_given(x, n, name, err);
    if (rc)
        return rc;
    /* One branch-free pass; the offender is looked for only on failure. */
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad |= !(x[i] >= 0 && x[i] <= DBL_MAX);
    if (!bad)
        return TCO_OK;
    for (size_t i = 0;; i++)
        if (!(x[i] >= 0 && x[i] <= DBL_MAX))
            return tco_fail(err, isnan(x[i]) || isinf(x[i]) ? TCO_E_NOT_FINITE : TCO_E_RANGE, 0,
                            "%s[%zu] = %g: allowed a finite value of 0 or more", name, i, x[i]);
}

int positive_check(double v, const char *name, tco_error *err)
{
    if (!isfinite(v))
        return tco_fail(err, TCO_E_NOT_FINITE, 0, "%s = %g must be a finite number above 0", name, v);
    if (!(v > 0))
        return tco_fail(err, TCO_E_RANGE, 0, "%s = %g is out of range: allowed above 0", name, v);
    return TCO_OK;
}

/* ---- compensated sums -------------------------------------------------- */

/* Neumaier's summation of non-negative terms: the larger operand goes first,
 * so no branch. Four lanes keep the adder busy. (Comparisons rather than
 * fmax and fmin: those are library calls where NaN must be honoured.) */
typedef struct {
    double s[4], c[4];
} ksum;

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static inline void ksum_add(ksum *k, int lane, double x)
{
    double s = k->s[lane], t = s + x;
    k->c[lane] += (MAX(s, x) - t) + MIN(s, x);
    k->s[lane] = t;
}

static double ksum_total(const ksum *k)
{
    /* Lanes are added with the same care, then the corrections. */
    double s = 0, c = 0;
    for (int i = 0; i < 4; i++) {
        double t = s + k->s[i];
        c += fabs(s) >= fabs(k->s[i]) ? (s - t) + k->s[i] : (k->s[i] - t) + s;
        s = t;
    }
    return s + (c + k->c[0] + k->c[1] + k->c[2] + k->c[3]);
}

double compensated_sum(const double *x, size_t n)
{
    ksum k = { { 0 }, { 0 } };
    for (size_t i = 0; i < n; i++)
        ksum_add(&k, (int)(i & 3), x[i]);
    return ksum_total(&k);
}

/* ---- peak and average -------------------------------------------------- */

int tco_demand_stats_compute(tco_demand_stats *out, const double *demand, size_t n,
                             double interval_hours, tco_error *err)
{
    int rc;
    if (!out)
        return tco_fail(err, TCO_E_NULL, 0, "out must not be NULL");
    if (out->size < DEMAND_STATS_V1_SIZE)
        return tco_fail(err, TCO_E_SIZE, 0, "tco_demand_stats.size = %zu is below %zu", out->size,
                        DEMAND_STATS_V1_SIZE);
    if ((rc = positive_check(interval_hours, "interval_hours", err)) ||
        (rc = series_given(demand, n, "demand", err)))
        return rc;

    /* Sum, peak, minimum and the check in one pass over the series. */
    ksum k = { { 0 }, { 0 } };
    double hi[4] = { 0, 0, 0, 0 }, lo[4] = { DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX };
    int bad = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        for (int l = 0; l < 4; l++) {
            double x = demand[i + l];
            bad |= !(x >= 0 && x <= DBL_MAX);
            ksum_add(&k, l, x);
            hi[l] = MAX(hi[l], x);
            lo[l] = MIN(lo[l], x);
        }
    for (; i < n; i++) {
        double x = demand[i];
        bad |= !(x >= 0 && x <= DBL_MAX);
        ksum_add(&k, 0, x);
        hi[0] = MAX(hi[0], x);
        lo[0] = MIN(lo[0], x);
    }
    if (bad)
        return series_check(demand, n, "demand", err);
    tco_demand_stats s = { sizeof s, 0, 0, 0, 0, 0, 0, 0 };
    double sum = ksum_total(&k);
    s.points = (double)n;
    s.hours = (double)n * interval_hours;
    s.peak = MAX(MAX(hi[0], hi[1]), MAX(hi[2], hi[3]));
    s.minimum = MIN(MIN(lo[0], lo[1]), MIN(lo[2], lo[3]));
    s.mean = sum / (double)n;
    s.peak_to_average = s.mean > 0 ? s.peak / s.mean : 0;
    s.accelerator_hours = sum * interval_hours;
    sized_fill(out, &s, sizeof s);
    return TCO_OK;
}

/* ---- order statistics -------------------------------------------------- */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A sorted copy of a checked series, or NULL with err filled. */
static double *sorted_copy(const double *x, size_t n, tco_error *err)
{
    double *a = malloc(n * sizeof *a);
    if (!a) {
        tco_fail(err, TCO_E_NOMEM, 0, "no memory for a copy of %zu values", n);
        return NULL;
    }
    memcpy(a, x, n * sizeof *a);
    qsort(a, n, sizeof *a, by_value);
    return a;
}

/* Puts the k-th smallest of a[left..right] at a[k], smaller before it and
 * larger after: Floyd and Rivest's SELECT (CACM 18(3), 1975), which
 * partitions around pivots chosen from a recursive sample so that about
 * n + min(k, n - k) comparisons suffice on average. */
static void select_kth(double *a, ptrdiff_t left, ptrdiff_t right, ptrdiff_t k)
{
#define SWAP(x, y)                                                                                 \
    do {                                                                                           \
        double t_ = a[x];                                                                          \
        a[x] = a[y];                                                                               \
        a[y] = t_;                                                                                 \
    } while (0)
    while (right > left) {
        if (right - left > 600) { /* narrow [left, right] around k by sampling */
            double n = (double)(right - left + 1), i = (double)(k - left + 1);
            double z = log(n), s = 0.5 * exp(2 * z / 3);
            double sd = 0.5 * sqrt(z * s * (n - s) / n) * (i < n / 2 ? -1 : 1);
            ptrdiff_t lo = (ptrdiff_t)((double)k - i * s / n + sd);
            ptrdiff_t hi = (ptrdiff_t)((double)k + (n - i) * s / n + sd);
            select_kth(a, lo > left ? lo : left, hi < right ? hi : right, k);
        }
        double t = a[k];
        ptrdiff_t i = left, j = right;
        SWAP(left, k);
        if (a[right] > t)
            SWAP(right, left);
        while (i < j) {
            SWAP(i, j);
            i++;
            j--;
            while (a[i] < t)
                i++;
            while (a[j] > t)
                j--;
        }
        if (a[left] == t) {
            SWAP(left, j);
        } else {
            j++;
            SWAP(j, right);
        }
        if (j <= k)
            left = j + 1;
        if (k <= j)
            right = j - 1;
    }
#undef SWAP
}

int tco_demand_percentiles(double *out, const double *percentiles, size_t count, const double *demand,
                           size_t n, tco_error *err)
{
    int rc;
    if (count && (!out || !percentiles))
        return tco_fail(err, TCO_E_NULL, 0, "%s must not be NULL", out ? "percentiles" : "out");
    for (size_t i = 0; i < count; i++)
        if (!(percentiles[i] >= 0 && percentiles[i] <= 100))
            return tco_fail(err, isnan(percentiles[i]) ? TCO_E_NOT_FINITE : TCO_E_RANGE, 0,
                            "percentiles[%zu] = %g: allowed 0 to 100", i, percentiles[i]);
    if ((rc = series_check(demand, n, "demand", err)) || count == 0)
        return rc;
    double *a = sorted_copy(demand, n, err);
    if (!a)
        return TCO_E_NOMEM;
    for (size_t i = 0; i < count; i++) { /* numpy's "linear" method */
        double pos = percentiles[i] / 100 * (double)(n - 1);
        size_t below = (size_t)floor(pos), above = below + 1 < n ? below + 1 : below;
        out[i] = a[below] + (a[above] - a[below]) * (pos - (double)below);
    }
    free(a);
    return TCO_OK;
}

int tco_demand_time_above(double *hours, const double *thresholds, size_t count, const double *demand,
                          size_t n, double interval_hours, tco_error *err)
{
    int rc;
    if (count && (!hours || !thresholds))
        return tco_fail(err, TCO_E_NULL, 0, "%s must not be NULL", hours ? "thresholds" : "hours");
    for (size_t i = 0; i < count; i++)
        if (!isfinite(thresholds[i]))
            return tco_fail(err, TCO_E_NOT_FINITE, 0, "thresholds[%zu] = %g must be finite", i,
                            thresholds[i]);
    if ((rc = positive_check(interval_hours, "interval_hours", err)) ||
        (rc = series_check(demand, n, "demand", err)))
        return rc;
    for (size_t i = 0; i < count; i++) {
        size_t above = 0;
        for (size_t j = 0; j < n; j++)
            above += demand[j] > thresholds[i];
        hours[i] = (double)above * interval_hours;
    }
    return TCO_OK;
}

int tco_capacity_for_unmet(double *capacity, double max_unmet_share, const double *demand, size_t n,
                           double interval_hours, tco_error *err)
{
    int rc;
    if (!capacity)
        return tco_fail(err, TCO_E_NULL, 0, "capacity must not be NULL");
    if (!(max_unmet_share >= 0 && max_unmet_share <= 1))
        return tco_fail(err, isnan(max_unmet_share) ? TCO_E_NOT_FINITE : TCO_E_RANGE, 0,
                        "max_unmet_share = %g: allowed 0 to 1", max_unmet_share);
    if ((rc = positive_check(interval_hours, "interval_hours", err)) ||
        (rc = series_check(demand, n, "demand", err)))
        return rc;
    double *a = sorted_copy(demand, n, err);
    if (!a)
        return TCO_E_NOMEM;
    double bound = max_unmet_share * compensated_sum(a, n);
    /* Unmet(c) = sum of (a_i - c) over a_i > c: linear between sorted
     * values. Walk down from the peak until it passes the bound. */
    double top = 0, c = 0;
    size_t i = n;
    for (;;) {
        double below = i > 0 ? a[i - 1] : 0;
        size_t m = n - i; /* values above `below` */
        if (m > 0 && top - (double)m * below > bound) {
            c = (top - bound) / (double)m;
            break;
        }
        if (i == 0)
            break; /* even no capacity leaves the bound unmet */
        top += a[--i];
    }
    free(a);
    *capacity = c;
    return TCO_OK;
}

/* ---- fixed vs elastic -------------------------------------------------- */

/* Extra run time of work placed on spot: Daly's expected wall time of the
 * workload's job with spot reclaims added to its failure rate, against the
 * same job on capacity that is not reclaimed. */
static double spot_overhead(const tco_obj *t, const tco_obj *w, const tco_obj *p)
{
    double n = job_accelerators(t, w), nodes = ceil(n / T(ACCELERATORS_PER_NODE));
    double delta = checkpoint_write_hours(t, w), restart = T(RESTART_MINUTES) / 60;
    double plain = system_mtbf(n, T(ACCELERATOR_MTBF_HOURS), nodes, T(NODE_MTBF_HOURS), 0);
    double spot = system_mtbf(n, T(ACCELERATOR_MTBF_HOURS), nodes, T(NODE_MTBF_HOURS),
                              nodes * P(SPOT_INTERRUPTIONS_PER_NODE_HOUR));
    double on_spot = daly_wall_time(1, daly_interval(delta, spot), delta, restart, spot);
    double off_spot = daly_wall_time(1, daly_interval(delta, plain), delta, restart, plain);
    return on_spot / off_spot - 1;
}

/* The split for baseline b over a checked series. */
/* What an accelerator-hour above the baseline costs: the interruptible
 * share on spot (with its overhead) where that beats on demand. */
typedef struct {
    double overhead, spot_rate, spot_share, elastic;
} elastic_rates;

static int rates_get(elastic_rates *r, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err)
{
    double od = P(ON_DEMAND_PER_ACCEL_HOUR);
    r->overhead = spot_overhead(t, w, p);
    if (!isfinite(r->overhead))
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR,
                        "spot_interruptions_per_node_hour = %g reclaims the workload's job before it can checkpoint",
                        P(SPOT_INTERRUPTIONS_PER_NODE_HOUR));
    r->spot_rate = P(SPOT_PER_ACCEL_HOUR) * (1 + r->overhead);
    r->spot_share = r->spot_rate < od ? W(INTERRUPTIBLE_SHARE) : 0;
    r->elastic = (1 - r->spot_share) * od + r->spot_share * r->spot_rate;
    return TCO_OK;
}

/* Share of time demand may exceed the baseline at the optimum. */
static double target_exceedance(const elastic_rates *r, const tco_obj *p)
{
    return r->elastic > 0 ? fmin(1, P(RESERVED_PER_ACCEL_HOUR) / r->elastic) : 1;
}

static int split_fill(tco_split *out, double b, const double *d, size_t n, double dt, const tco_obj *t,
                      const tco_obj *w, const tco_obj *p, tco_error *err)
{
    elastic_rates r;
    int rc = rates_get(&r, t, w, p, err);
    if (rc)
        return rc;
    double od = P(ON_DEMAND_PER_ACCEL_HOUR);

    /* One pass: the three sums, the count above, the peak, and the check.
     * Blocks of BLOCK points are summed plainly (error about BLOCK x eps),
     * and the block sums compensated: fast, and within 1e-13 overall. */
    enum { BLOCK = 256 };
    ksum used = { { 0 }, { 0 } }, excess = { { 0 }, { 0 } }, all = { { 0 }, { 0 } };
    size_t above = 0;
    double peak = 0;
    int bad = 0;
    for (size_t start = 0; start < n; start += BLOCK) {
        size_t end = n - start < BLOCK ? n : start + BLOCK;
        double u = 0, e = 0, s = 0;
        for (size_t i = start; i < end; i++) {
            double x = d[i], over = x - b;
            bad |= !(x >= 0 && x <= DBL_MAX);
            u += MIN(x, b);
            e += MAX(over, 0);
            s += x;
            above += x > b;
            peak = MAX(peak, x);
        }
        int lane = (int)((start / BLOCK) & 3);
        ksum_add(&used, lane, u);
        ksum_add(&excess, lane, e);
        ksum_add(&all, lane, s);
    }
    if (bad)
        return series_check(d, n, "demand", err);
    tco_split s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    s.baseline = b;
    s.hours = (double)n * dt;
    s.exceedance = (double)above / (double)n;
    s.elastic_rate = r.elastic;
    s.target_exceedance = target_exceedance(&r, p);
    s.demand_accelerator_hours = ksum_total(&all) * dt;
    s.reserved_accelerator_hours = b * s.hours;
    s.reserved_used_hours = ksum_total(&used) * dt;
    s.reserved_utilisation = b > 0 ? s.reserved_used_hours / s.reserved_accelerator_hours : 0;
    double elastic_hours = ksum_total(&excess) * dt;
    s.spot_accelerator_hours = r.spot_share * elastic_hours;
    s.on_demand_accelerator_hours = elastic_hours - s.spot_accelerator_hours;
    s.spot_overhead_share = r.overhead;
    s.fixed_cost = s.reserved_accelerator_hours * P(RESERVED_PER_ACCEL_HOUR);
    s.on_demand_cost = s.on_demand_accelerator_hours * od;
    s.spot_cost = s.spot_accelerator_hours * r.spot_rate;
    s.elastic_cost = s.on_demand_cost + s.spot_cost;
    s.total_cost = s.fixed_cost + s.elastic_cost;
    s.all_on_demand_cost = s.demand_accelerator_hours * od;
    s.reserve_peak_cost = peak * s.hours * P(RESERVED_PER_ACCEL_HOUR);
    s.savings_vs_on_demand = s.all_on_demand_cost - s.total_cost;
    s.savings_vs_peak = s.reserve_peak_cost - s.total_cost;
    sized_fill(out, &s, sizeof s);
    return TCO_OK;
}

static int split_args(const tco_split *out, const double *demand, size_t n, double interval_hours,
                      const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    int rc;
    if (!out)
        return tco_fail(err, TCO_E_NULL, 0, "out must not be NULL");
    if (out->size < SPLIT_V1_SIZE)
        return tco_fail(err, TCO_E_SIZE, 0, "tco_split.size = %zu is below %zu", out->size, SPLIT_V1_SIZE);
    if ((rc = frozen_inputs(t, w, p, err)) || (rc = positive_check(interval_hours, "interval_hours", err)))
        return rc;
    return series_given(demand, n, "demand", err); /* values: in the pass that reads them */
}

int tco_capacity_split_at(tco_split *out, double baseline, const double *demand, size_t n,
                          double interval_hours, const tco_topology *t, const tco_workload *w,
                          const tco_pricing *p, tco_error *err)
{
    int rc = split_args(out, demand, n, interval_hours, t, w, p, err);
    if (rc)
        return rc;
    if (!(baseline >= 0 && baseline <= DBL_MAX))
        return tco_fail(err, isnan(baseline) || isinf(baseline) ? TCO_E_NOT_FINITE : TCO_E_RANGE, 0,
                        "baseline = %g: allowed a finite number of accelerators, 0 or more", baseline);
    return split_fill(out, baseline, demand, n, interval_hours, &t->o, &w->o, &p->o, err);
}

int tco_capacity_split(tco_split *out, const double *demand, size_t n, double interval_hours,
                       const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    int rc = split_args(out, demand, n, interval_hours, t, w, p, err);
    if (rc)
        return rc;
    /* cost(b) = r_res b H + e dt sum (d - b)+ falls while more than a share
     * r_res / e of the points lie above b: the optimum is the order
     * statistic with floor(n r_res / e) points above it. */
    elastic_rates r;
    if ((rc = rates_get(&r, &t->o, &w->o, &p->o, err)))
        return rc;
    double allowed = floor(target_exceedance(&r, &p->o) * (double)n);
    double b = 0;
    if (allowed < (double)n) {
        double *a = malloc(n * sizeof *a);
        if (!a)
            return tco_fail(err, TCO_E_NOMEM, 0, "no memory for a copy of %zu values", n);
        int bad = 0; /* check while copying: selection must not see NaN */
        for (size_t i = 0; i < n; i++) {
            a[i] = demand[i];
            bad |= !(a[i] >= 0 && a[i] <= DBL_MAX);
        }
        if (!bad) {
            ptrdiff_t k = (ptrdiff_t)(n - 1 - (size_t)allowed);
            select_kth(a, 0, (ptrdiff_t)n - 1, k);
            b = a[k];
        }
        free(a);
        if (bad)
            return series_check(demand, n, "demand", err);
    }
    return split_fill(out, b, demand, n, interval_hours, &t->o, &w->o, &p->o, err);
}
