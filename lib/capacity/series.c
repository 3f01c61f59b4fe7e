/* Series as the capacity functions take them: the checks of their values
 * and sums that keep full precision over a year of minutes. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capacity/capacity.h"

/* ---- checks ------------------------------------------------------------ */

int tco__series_given(const double *x, size_t n, const char *name, tco_error *err)
{
    if (!x)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", name);
    if (n == 0)
        return tco__fail(err, TCO_E_RANGE, "%s is empty: give at least one value", name);
    return TCO_OK;
}

int tco__series_check(const double *x, size_t n, const char *name, tco_error *err)
{
    int rc = tco__series_given(x, n, name, err);
    if (rc)
        return rc;
    /* One branch-free pass; the offender is looked for only on failure. */
    int ok = 1;
    for (size_t i = 0; i < n; i++)
        ok &= series_value_ok(x[i]);
    return ok ? TCO_OK : tco__series_fail(x, n, name, err);
}

int tco__series_fail(const double *x, size_t n, const char *name, tco_error *err)
{
    size_t i = 0;
    while (i < n - 1 && series_value_ok(x[i]))
        i++;
    return tco__fail(err, isnan(x[i]) || isinf(x[i]) ? TCO_E_NOT_FINITE : TCO_E_RANGE,
                     "%s[%zu] = %g: allowed a finite value of 0 or more", name, i, x[i]);
}

int tco__positive_check(double v, const char *name, tco_error *err)
{
    if (!isfinite(v))
        return tco__fail_named(err, TCO_E_NOT_FINITE, name, "%s = %g must be a finite number above 0", name, v);
    /* A microsecond-scale interval or a million of them: anything outside
     * is a unit mistake, and would underflow or overflow the sums. */
    if (!(v >= TCO__INTERVAL_MIN && v <= TCO__INTERVAL_MAX))
        return tco__fail_named(err, TCO_E_RANGE, name, "%s = %.17g is out of range: allowed %g to %g", name, v,
                               TCO__INTERVAL_MIN, TCO__INTERVAL_MAX);
    return TCO_OK;
}

int tco__finite_result(const double *v, size_t n, const char *input, tco_error *err)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad |= !isfinite(v[i]);
    if (!bad)
        return TCO_OK;
    return tco__fail_named(err, TCO_E_RANGE, input,
                           "%s: its values are too large for the result to be finite (a sum or a cost overflows); "
                           "allowed values whose totals stay below %g",
                           input, DBL_MAX);
}

/* ---- compensated sums -------------------------------------------------- */

double tco__compensated_sum(const double *x, size_t n)
{
    ksum k = { { 0 }, { 0 } };
    for (size_t i = 0; i < n; i++)
        ksum_add(&k, (int)(i & 3), x[i]);
    return ksum_total(&k);
}

/* ---- order statistics -------------------------------------------------- */

/* Puts the k-th smallest of a[left..right] at a[k], smaller before it and
 * larger after: Floyd and Rivest's SELECT (CACM 18(3), 1975), which
 * partitions around pivots chosen from a recursive sample so that about
 * n + min(k, n - k) comparisons suffice on average. */
void tco__select_kth(double *a, ptrdiff_t left, ptrdiff_t right, ptrdiff_t k)
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
            tco__select_kth(a, lo > left ? lo : left, hi < right ? hi : right, k);
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

/* The k-th smallest (0-based) of n values read in place, as Floyd and
 * Rivest narrow it: the order statistics of an evenly spread sample bound
 * it with high probability, and one pass counts the values below, at and
 * above the bounds and gathers those strictly between, among which it is
 * selected. Ties at a bound are counted, never gathered, so many equal
 * values cost nothing. The first pass checks the values; if the bounds
 * miss (rare), the values are copied and selected among. The bounds hold
 * about 3% of the values between them (six deviations of a sample of
 * SAMPLE), so the gather takes a sixteenth of the series, at least
 * GATHER: the copy stays rare however long the series. */
enum { SAMPLE = 8192, GATHER = 1 << 16 };

int tco__select_kth_in_place(double *out, const double *v, size_t n, size_t k)
{
    const size_t cap = n / 16 > GATHER ? n / 16 : GATHER;
    double *buf = malloc((n < cap ? n : cap) * sizeof *buf);
    if (!buf)
        return TCO_E_NOMEM;
    int rc = TCO_OK, bad = 0;
    if (n <= cap) { /* small: a copy is the working memory anyway */
        for (size_t i = 0; i < n; i++) {
            buf[i] = v[i];
            bad |= !series_value_ok(v[i]);
        }
        if (!bad) {
            tco__select_kth(buf, 0, (ptrdiff_t)n - 1, (ptrdiff_t)k);
            *out = buf[k];
        }
        free(buf);
        return bad ? TCO_E_RANGE : TCO_OK;
    }
    /* the bounds: ranks of the sample around k's, a few deviations apart */
    size_t m = SAMPLE, step = n / m;
    for (size_t i = 0; i < m; i++)
        buf[i] = v[i * step];
    double q = (double)k / (double)n, spread = 3 * sqrt(q * (1 - q) * (double)m) + 2;
    ptrdiff_t lo_rank = (ptrdiff_t)fmax(0, q * (double)m - spread), hi_rank = (ptrdiff_t)fmin((double)m - 1, q * (double)m + spread);
    tco__select_kth(buf, 0, (ptrdiff_t)m - 1, lo_rank);
    double lo = buf[lo_rank];
    tco__select_kth(buf, lo_rank, (ptrdiff_t)m - 1, hi_rank);
    double hi = buf[hi_rank];
    /* one pass: below lo, at lo, strictly between (gathered), at hi */
    size_t below = 0, at_lo = 0, at_hi = 0, between = 0;
    /* Branch-free: every value is stored at the gather's end, which moves
     * on only for one between the bounds (a branch on that would be a coin
     * toss for half the values); past cap the last slot is reused and
     * the overflow seen from the count. */
    int two = hi != lo;
    for (size_t i = 0; i < n; i++) {
        double x = v[i];
        bad |= !series_value_ok(x);
        below += x < lo;
        at_lo += x == lo;
        at_hi += (x == hi) & two;
        buf[between < cap ? between : cap - 1] = x;
        between += (x > lo) & (x < hi);
    }
    int overflow = between >= cap; /* at cap the last slot may have been written over */
    if (bad) {
        rc = TCO_E_RANGE;
    } else if (k >= below && k < below + at_lo) {
        *out = lo;
    } else if (k >= below + at_lo && k < below + at_lo + between && !overflow) {
        tco__select_kth(buf, 0, (ptrdiff_t)between - 1, (ptrdiff_t)(k - below - at_lo));
        *out = buf[k - below - at_lo];
    } else if (k >= below + at_lo + between && k < below + at_lo + between + at_hi) {
        *out = hi;
    } else { /* the bounds missed, or too many lie between: copy and select */
        double *a = malloc(n * sizeof *a);
        if (!a) {
            rc = TCO_E_NOMEM;
        } else {
            memcpy(a, v, n * sizeof *a);
            tco__select_kth(a, 0, (ptrdiff_t)n - 1, (ptrdiff_t)k);
            *out = a[k];
            free(a);
        }
    }
    free(buf);
    return rc;
}
