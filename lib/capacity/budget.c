/* Spending against a budget: burn rate, projection, status and growth
 * (doc/model.md, section 11). */
#include <math.h>

#include "capacity/capacity.h"

#define P(k) (p->o.v[IX_##k])

#define BURN_WINDOW_DAYS 7.0
/* A caller whose struct reaches the flags (1.1's) gets 0 where a figure
 * has no value; an older one the INFINITY that 1.0 promised. */
#define BUDGET_FLAGS_SIZE V1_SIZE(tco_budget, growth_defined)

static const char *const status_names[] = { "ok", "warning", "critical", "exhausted" };

const char *tco_budget_status_name(int32_t s)
{
    return s >= 0 && s < (int32_t)(sizeof status_names / sizeof status_names[0]) ? status_names[s] : NULL;
}

static int32_t status_of(double share, const tco_pricing *p)
{
    return share >= 1                           ? TCO_BUDGET_EXHAUSTED
           : share >= P(BUDGET_CRITICAL_SHARE) ? TCO_BUDGET_CRITICAL
           : share >= P(BUDGET_WARNING_SHARE)  ? TCO_BUDGET_WARNING
                                               : TCO_BUDGET_OK;
}

int tco_budget_compute(tco_budget *out, const double *spend, size_t n, double interval_days,
                       const double *previous, size_t n_previous, const tco_pricing *p, tco_error *err)
{
    int rc;
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < BUDGET_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_budget", out->size, BUDGET_V1_SIZE);
    if (!p)
        return tco__fail(err, TCO_E_NULL, "pricing must not be NULL");
    if ((rc = tco__kind_check(&p->o, TCO_HANDLE_PRICING, err)))
        return rc;
    if (!p->o.frozen)
        return tco__fail(err, TCO_E_NOT_FROZEN, "the pricing must be frozen first");
    if ((rc = tco__positive_check(interval_days, "interval_days", err)) ||
        (rc = tco__series_check(spend, n, "spend", err)) ||
        (previous && (rc = tco__series_check(previous, n_previous, "previous", err))))
        return rc;
    double period = P(BUDGET_PERIOD_DAYS), budget = P(BUDGET_AMOUNT);
    if ((double)n * interval_days > period * (1 + 1e-9))
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_BUDGET_PERIOD_DAYS,
                               "spend covers %g days, longer than budget_period_days = %g", (double)n * interval_days,
                               period);

    tco_budget b = { .size = sizeof b };
    b.spent = tco__compensated_sum(spend, n);
    b.elapsed_days = (double)n * interval_days;
    size_t window = (size_t)ceil(BURN_WINDOW_DAYS / interval_days);
    if (window > n)
        window = n;
    b.burn_rate_per_day = tco__compensated_sum(spend + (n - window), window) / ((double)window * interval_days);
    b.projected_spend = b.spent + b.burn_rate_per_day * (period - b.elapsed_days);
    b.days_to_exhaustion = b.spent >= budget           ? 0
                           : b.burn_rate_per_day > 0 ? (budget - b.spent) / b.burn_rate_per_day
                                                     : INFINITY;
    b.exhaustion_defined = isfinite(b.days_to_exhaustion); /* a burn too small to divide by is none */
    if (previous) { /* to the same day of the period */
        size_t same = n < n_previous ? n : n_previous;
        double now = tco__compensated_sum(spend, same), before = tco__compensated_sum(previous, same);
        b.growth = before > 0 ? now / before - 1 : now > 0 ? INFINITY : 0;
        b.growth_defined = before > 0 && isfinite(b.growth);
        b.abnormal_growth = b.growth > P(BUDGET_GROWTH_ALERT_SHARE);
    }
    if (out->size >= BUDGET_FLAGS_SIZE) {
        if (!b.exhaustion_defined)
            b.days_to_exhaustion = 0;
        if (!b.growth_defined)
            b.growth = 0;
    }
    /* A spend too large to add up must not read as "ok". */
    const double sums[4] = { b.spent, b.elapsed_days, b.burn_rate_per_day, b.projected_spend };
    if ((rc = tco__finite_result(sums, 4, "spend", err)))
        return rc;
    b.status = status_of(b.spent / budget, p);
    b.projected_status = status_of(b.projected_spend / budget, p);
    sized_fill(out, &b, sizeof b);
    return TCO_OK;
}
