/* Series as the capacity functions take them: the checks of their values
 * and sums that keep full precision over a year of minutes. */
#include <float.h>
#include <math.h>

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
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad |= !(x[i] >= 0 && x[i] <= DBL_MAX);
    if (!bad)
        return TCO_OK;
    for (size_t i = 0;; i++)
        if (!(x[i] >= 0 && x[i] <= DBL_MAX))
            return tco__fail(err, isnan(x[i]) || isinf(x[i]) ? TCO_E_NOT_FINITE : TCO_E_RANGE,
                             "%s[%zu] = %g: allowed a finite value of 0 or more", name, i, x[i]);
}

int tco__positive_check(double v, const char *name, tco_error *err)
{
    if (!isfinite(v))
        return tco__fail(err, TCO_E_NOT_FINITE, "%s = %g must be a finite number above 0", name, v);
    if (!(v > 0))
        return tco__fail(err, TCO_E_RANGE, "%s = %g is out of range: allowed above 0", name, v);
    return TCO_OK;
}

/* ---- compensated sums -------------------------------------------------- */

double tco__compensated_sum(const double *x, size_t n)
{
    ksum k = { { 0 }, { 0 } };
    for (size_t i = 0; i < n; i++)
        ksum_add(&k, (int)(i & 3), x[i]);
    return ksum_total(&k);
}

