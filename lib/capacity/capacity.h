/* Capacity: demand series, the fixed/elastic split, bandwidth, storage
 * lifecycle, logging and budgets. What the rooms above may call: the
 * checks of a series, its compensated sums, selection and percentiles.
 * Not installed. */
#ifndef TCO_CAPACITY_H
#define TCO_CAPACITY_H

#include <float.h>
#include <math.h>

#include "core/core.h"

/* A series that exists and is not empty (its values are checked apart);
 * a series of finite values of 0 or more; a positive finite scalar. Each
 * names the argument. */
int tco__series_given(const double *x, size_t n, const char *name, tco_error *err);
int tco__series_check(const double *x, size_t n, const char *name, tco_error *err);
/* The error for a series of n > 0 values that a pass found not all
 * series_value_ok: the first that is not named. Never TCO_OK. */
int tco__series_fail(const double *x, size_t n, const char *name, tco_error *err);
int tco__positive_check(double v, const char *name, tco_error *err);
/* Intervals (hours or days) the series functions take. */
#define TCO__INTERVAL_MIN 1e-6
#define TCO__INTERVAL_MAX 1e6
/* TCO_OK when the n results v[] are all finite; else TCO_E_RANGE naming
 * the input whose size made them overflow (no result is reported then). */
int tco__finite_result(const double *v, size_t n, const char *input, tco_error *err);

/* Neumaier's compensated sum of n values of 0 or more. */
double tco__compensated_sum(const double *x, size_t n);

/* Neumaier's summation of non-negative terms: the larger operand goes first,
 * so no branch. Four lanes keep the adder busy. (Comparisons rather than
 * fmax and fmin: those are library calls where NaN must be honoured.) */
typedef struct {
    double s[4], c[4];
} ksum;

/* The rule for a series value, finite and 0 or more: the one source of
 * every pass that checks one (& rather than &&, so no branch). */
static inline int series_value_ok(double x)
{
    return (x >= 0) & (x <= DBL_MAX);
}

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static inline void ksum_add(ksum *k, int lane, double x)
{
    double s = k->s[lane], t = s + x;
    k->c[lane] += (MAX(s, x) - t) + MIN(s, x);
    k->s[lane] = t;
}

/* The same for terms of either sign (a mean of any values): the term of
 * the larger magnitude goes first, as Neumaier has it. */
static inline void ksum_add_signed(ksum *k, int lane, double x)
{
    double s = k->s[lane], t = s + x;
    k->c[lane] += fabs(s) >= fabs(x) ? (s - t) + x : (x - t) + s;
    k->s[lane] = t;
}

static inline double ksum_total(const ksum *k)
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

/* ---- the fixed/elastic split (split.c), for a room that makes its own
 * demand series (serving: accelerators from a token rate) ---- */

/* What an accelerator-hour above the baseline costs: the interruptible
 * share on spot (with its overhead) where that beats on demand. */
typedef struct {
    double on_demand, reserved; /* the pricing table's, list prices resolved */
    double overhead, spot_rate, spot_share, elastic;
} elastic_rates;
/* The rates the split charges, or a failure naming the rate missing. */
int tco__split_rates(elastic_rates *r, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err);
/* Share of time demand may exceed the baseline at the optimum. */
double tco__split_target_exceedance(const elastic_rates *r);
/* A series summed against baseline b: sum of min(x, b), of x - min(x, b),
 * of x, the peak, and how many x lie above b. */
typedef struct {
    double used, excess, all, peak;
    size_t above;
} split_sums;
/* The split (this version's struct, whole) of n points of dt hours from
 * their sums: TCO_OK, or TCO_E_RANGE naming input when a figure
 * overflows. out is written only on success. */
int tco__split_finish(tco_split *out, double b, const split_sums *sums, size_t n, double dt,
                      const elastic_rates *r, const char *input, tco_error *err);

/* Puts the k-th smallest of a[left..right] at a[k], smaller before it and
 * larger after (Floyd and Rivest's SELECT; series.c). */
void tco__select_kth(double *a, ptrdiff_t left, ptrdiff_t right, ptrdiff_t k);
/* The k-th smallest (0-based) of v[0 .. n), read in place (series.c):
 * TCO_OK, TCO_E_NOMEM, or TCO_E_RANGE when a value is not series_value_ok
 * (tco__series_fail says which). Sets no error text. */
int tco__select_kth_in_place(double *out, const double *v, size_t n, size_t k);

/* numpy's default ("linear") percentile p, 0 to 100, of n sorted values:
 * it lies between the order statistics *below and *above (0-based), *w of
 * the way; percentile_between gives the value. One formula for
 * tco_demand_percentiles and the Monte Carlo summaries. */
static inline void percentile_position(double p, size_t n, size_t *below, size_t *above, double *w)
{
    double pos = p / 100 * (double)(n - 1);
    *below = (size_t)floor(pos);
    *above = *below + 1 < n ? *below + 1 : *below;
    *w = pos - (double)*below;
}

static inline double percentile_between(double lo, double hi, double w)
{
    double span = hi - lo;
    if (span <= DBL_MAX)
        return lo + span * w;
    /* lo < 0 < hi and a span past DBL_MAX: the same formula in halves,
     * which are exact, so the result stays finite (it lies in [lo, hi]) */
    return 2 * (lo / 2 + (hi / 2 - lo / 2) * w);
}

#endif
