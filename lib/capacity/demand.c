/* Demand series: peak and average, percentiles, time above thresholds and
 * capacity for an unmet bound (doc/model.md, section 6). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "capacity/capacity.h"

/* ---- peak and average -------------------------------------------------- */

int tco_demand_stats_compute(tco_demand_stats *out, const double *demand, size_t n,
                             double interval_hours, tco_error *err)
{
    int rc;
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < DEMAND_STATS_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_demand_stats", out->size, DEMAND_STATS_V1_SIZE);
    if ((rc = tco__positive_check(interval_hours, "interval_hours", err)) ||
        (rc = tco__series_given(demand, n, "demand", err)))
        return rc;

    /* Sum, peak and minimum in one pass, in the four lanes of ksum_add.
     * The check costs nothing more: a negative value shows in the minimum,
     * NaN or infinity in a lane's sum, which it keeps for good; a sum that
     * overflows on finite values passes the check and is refused below. */
    ksum k = { { 0 }, { 0 } };
    double hi[4] = { 0, 0, 0, 0 }, lo[4] = { DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX };
    size_t i = 0;
#if defined(__SSE2__)
    /* Two lanes a register; max_pd(a, b) is MAX(a, b) and min_pd(a, b)
     * MIN(a, b) to the bit (ties and signed zeros included), so the sums
     * are the scalar loop's exactly. */
    __m128d s01 = _mm_setzero_pd(), s23 = s01, c01 = s01, c23 = s01, hi01 = s01, hi23 = s01;
    __m128d lo01 = _mm_set1_pd(DBL_MAX), lo23 = lo01;
#define LANES(s, c, hi, lo, x)                                                                     \
    do {                                                                                           \
        __m128d t_ = _mm_add_pd(s, x);                                                             \
        c = _mm_add_pd(c, _mm_add_pd(_mm_sub_pd(_mm_max_pd(s, x), t_), _mm_min_pd(s, x)));         \
        s = t_;                                                                                    \
        hi = _mm_max_pd(hi, x);                                                                    \
        lo = _mm_min_pd(lo, x);                                                                    \
    } while (0)
    for (; i + 4 <= n; i += 4) {
        __m128d x01 = _mm_loadu_pd(demand + i), x23 = _mm_loadu_pd(demand + i + 2);
        LANES(s01, c01, hi01, lo01, x01);
        LANES(s23, c23, hi23, lo23, x23);
    }
#undef LANES
    _mm_storeu_pd(k.s, s01);
    _mm_storeu_pd(k.s + 2, s23);
    _mm_storeu_pd(k.c, c01);
    _mm_storeu_pd(k.c + 2, c23);
    _mm_storeu_pd(hi, hi01);
    _mm_storeu_pd(hi + 2, hi23);
    _mm_storeu_pd(lo, lo01);
    _mm_storeu_pd(lo + 2, lo23);
#else
    for (; i + 4 <= n; i += 4)
        for (int l = 0; l < 4; l++) {
            double x = demand[i + l];
            ksum_add(&k, l, x);
            hi[l] = MAX(hi[l], x);
            lo[l] = MIN(lo[l], x);
        }
#endif
    for (; i < n; i++) {
        double x = demand[i];
        ksum_add(&k, 0, x);
        hi[0] = MAX(hi[0], x);
        lo[0] = MIN(lo[0], x);
    }
    int bad = !(MIN(MIN(lo[0], lo[1]), MIN(lo[2], lo[3])) >= 0);
    for (int l = 0; l < 4; l++)
        bad |= !(k.s[l] >= 0 && k.s[l] <= DBL_MAX);
    if (bad && (rc = tco__series_check(demand, n, "demand", err)))
        return rc;
    tco_demand_stats s = { sizeof s, 0, 0, 0, 0, 0, 0, 0 };
    double sum = ksum_total(&k);
    s.points = (double)n;
    s.hours = (double)n * interval_hours;
    s.peak = MAX(MAX(hi[0], hi[1]), MAX(hi[2], hi[3]));
    s.minimum = MIN(MIN(lo[0], lo[1]), MIN(lo[2], lo[3]));
    s.mean = sum / (double)n;
    s.peak_to_average = s.mean > 0 ? s.peak / s.mean : 0;
    s.accelerator_hours = sum * interval_hours;
    if ((rc = tco__finite_result(&s.points, (sizeof s - offsetof(tco_demand_stats, points)) / sizeof(double),
                                 "demand", err)))
        return rc;
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
        tco__fail(err, TCO_E_NOMEM, "no memory for a copy of %zu values", n);
        return NULL;
    }
    memcpy(a, x, n * sizeof *a);
    qsort(a, n, sizeof *a, by_value);
    return a;
}

int tco_demand_percentiles(double *out, const double *percentiles, size_t count, const double *demand,
                           size_t n, tco_error *err)
{
    int rc;
    if (count && (!out || !percentiles))
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", out ? "percentiles" : "out");
    for (size_t i = 0; i < count; i++)
        if (!(percentiles[i] >= 0 && percentiles[i] <= 100))
            return tco__fail(err, isnan(percentiles[i]) ? TCO_E_NOT_FINITE : TCO_E_RANGE,
                             "percentiles[%zu] = %g: allowed 0 to 100", i, percentiles[i]);
    if ((rc = tco__series_check(demand, n, "demand", err)) || count == 0)
        return rc;
    double *a = sorted_copy(demand, n, err);
    if (!a)
        return TCO_E_NOMEM;
    for (size_t i = 0; i < count; i++) { /* numpy's "linear" method */
        size_t below, above;
        double w;
        percentile_position(percentiles[i], n, &below, &above, &w);
        out[i] = percentile_between(a[below], a[above], w);
    }
    free(a);
    return TCO_OK;
}

int tco_demand_time_above(double *hours, const double *thresholds, size_t count, const double *demand,
                          size_t n, double interval_hours, tco_error *err)
{
    int rc;
    if (count && (!hours || !thresholds))
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", hours ? "thresholds" : "hours");
    for (size_t i = 0; i < count; i++)
        if (!isfinite(thresholds[i]))
            return tco__fail(err, TCO_E_NOT_FINITE, "thresholds[%zu] = %g must be finite", i,
                             thresholds[i]);
    if ((rc = tco__positive_check(interval_hours, "interval_hours", err)) ||
        (rc = tco__series_check(demand, n, "demand", err)))
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
        return tco__fail(err, TCO_E_NULL, "capacity must not be NULL");
    if (!(max_unmet_share >= 0 && max_unmet_share <= 1))
        return tco__fail(err, isnan(max_unmet_share) ? TCO_E_NOT_FINITE : TCO_E_RANGE,
                         "max_unmet_share = %g: allowed 0 to 1", max_unmet_share);
    if ((rc = tco__positive_check(interval_hours, "interval_hours", err)) ||
        (rc = tco__series_check(demand, n, "demand", err)))
        return rc;
    double *a = sorted_copy(demand, n, err);
    if (!a)
        return TCO_E_NOMEM;
    double total = tco__compensated_sum(a, n), bound = max_unmet_share * total;
    if ((rc = tco__finite_result(&total, 1, "demand", err))) {
        free(a);
        return rc;
    }
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

