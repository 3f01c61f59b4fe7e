/* Fixed vs elastic: the reserved baseline that minimises cost over a
 * demand series, and what each price class then carries (doc/model.md,
 * section 7). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capacity/capacity.h"
#include "model/model.h"

#define W(k) (w->v[IX_##k])
#define T(k) (t->v[IX_##k])
#define P(k) (p->v[IX_##k])

/* ---- fixed vs elastic -------------------------------------------------- */

/* Extra run time of work placed on spot: Daly's expected wall time of the
 * workload's job with spot reclaims added to its failure rate, against the
 * same job on capacity that is not reclaimed. */
static double spot_overhead(const tco_obj *t, const tco_obj *w, const tco_obj *p)
{
    double n = job_accelerators(t, w), nodes = ceil(n / T(ACCELERATORS_PER_NODE));
    /* the checkpoint pause and interval as the estimate has them */
    double delta = tco__checkpoint_pause(t, w, nodes), restart = T(RESTART_MINUTES) / 60;
    double plain = tco__system_mtbf(n, T(ACCELERATOR_MTBF_HOURS), nodes, T(NODE_MTBF_HOURS), 0);
    double spot = tco__system_mtbf(n, T(ACCELERATOR_MTBF_HOURS), nodes, T(NODE_MTBF_HOURS),
                                   nodes * P(SPOT_INTERRUPTIONS_PER_NODE_HOUR));
    double on_spot = tco__daly_wall_time(1, tco__checkpoint_interval(t, w, delta, spot), delta, restart, spot);
    double off_spot = tco__daly_wall_time(1, tco__checkpoint_interval(t, w, delta, plain), delta, restart, plain);
    return on_spot / off_spot - 1;
}

int tco__split_rates(elastic_rates *r, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err)
{
    /* The baseline is reserved, the rest on demand; spot is an option,
     * left out where it has no price. */
    rates given;
    tco__rates(&given, t, p);
    int rc = tco__rates_need(&given, 1u << TCO_CLASS_ON_DEMAND | 1u << TCO_CLASS_RESERVED, t, p, err);
    if (rc)
        return rc;
    double od = r->on_demand = given.on_demand;
    r->reserved = given.reserved;
    r->overhead = spot_overhead(t, w, p);
    if (!isfinite(r->overhead))
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_SPOT_INTERRUPTIONS_PER_NODE_HOUR,
                               "spot_interruptions_per_node_hour = %g reclaims the workload's job before it can checkpoint",
                               P(SPOT_INTERRUPTIONS_PER_NODE_HOUR));
    r->spot_rate = given.spot * (1 + r->overhead);
    r->spot_share = r->spot_rate < od && !(given.missing >> TCO_CLASS_SPOT & 1) ? W(INTERRUPTIBLE_SHARE) : 0;
    r->elastic = (1 - r->spot_share) * od + r->spot_share * r->spot_rate;
    return TCO_OK;
}

double tco__split_target_exceedance(const elastic_rates *r)
{
    return r->elastic > 0 ? fmin(1, r->reserved / r->elastic) : 1;
}

static int split_fill(tco_split *out, double b, const double *d, size_t n, double dt, const tco_obj *t,
                      const tco_obj *w, const tco_obj *p, tco_error *err)
{
    elastic_rates r;
    int rc = tco__split_rates(&r, t, w, p, err);
    if (rc)
        return rc;

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
            /* x - min(x, b) is max(x - b, 0) to the bit, without the
             * branch a compiler makes of the latter */
            double x = d[i], m = MIN(x, b);
            bad |= !series_value_ok(x);
            u += m;
            e += x - m;
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
        return tco__series_fail(d, n, "demand", err);
    split_sums sums = { ksum_total(&used), ksum_total(&excess), ksum_total(&all), peak, above };
    tco_split s;
    if ((rc = tco__split_finish(&s, b, &sums, n, dt, &r, "demand", err)))
        return rc;
    sized_fill(out, &s, sizeof s);
    return TCO_OK;
}

int tco__split_finish(tco_split *out, double b, const split_sums *sums, size_t n, double dt,
                      const elastic_rates *r, const char *input, tco_error *err)
{
    double od = r->on_demand;
    tco_split s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    s.baseline = b;
    s.hours = (double)n * dt;
    s.exceedance = (double)sums->above / (double)n;
    s.elastic_rate = r->elastic;
    s.target_exceedance = tco__split_target_exceedance(r);
    s.demand_accelerator_hours = sums->all * dt;
    s.reserved_accelerator_hours = b * s.hours;
    s.reserved_used_hours = sums->used * dt;
    s.reserved_utilisation = b > 0 ? s.reserved_used_hours / s.reserved_accelerator_hours : 0;
    double elastic_hours = sums->excess * dt;
    s.spot_accelerator_hours = r->spot_share * elastic_hours;
    s.on_demand_accelerator_hours = elastic_hours - s.spot_accelerator_hours;
    s.spot_overhead_share = r->overhead;
    s.fixed_cost = s.reserved_accelerator_hours * r->reserved;
    s.on_demand_cost = s.on_demand_accelerator_hours * od;
    s.spot_cost = s.spot_accelerator_hours * r->spot_rate;
    s.elastic_cost = s.on_demand_cost + s.spot_cost;
    s.total_cost = s.fixed_cost + s.elastic_cost;
    s.all_on_demand_cost = s.demand_accelerator_hours * od;
    s.reserve_peak_cost = sums->peak * s.hours * r->reserved;
    s.savings_vs_on_demand = s.all_on_demand_cost - s.total_cost;
    s.savings_vs_peak = s.reserve_peak_cost - s.total_cost;
    int rc = tco__finite_result(&s.baseline, (sizeof s - offsetof(tco_split, baseline)) / sizeof(double), input, err);
    if (rc)
        return rc;
    *out = s;
    return TCO_OK;
}

static int split_args(const tco_split *out, const double *demand, size_t n, double interval_hours,
                      const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    int rc;
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < SPLIT_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_split", out->size, SPLIT_V1_SIZE);
    if ((rc = tco__frozen_inputs(t, w, p, err)) || (rc = tco__positive_check(interval_hours, "interval_hours", err)))
        return rc;
    return tco__series_given(demand, n, "demand", err); /* values: in the pass that reads them */
}

int tco_capacity_split_at(tco_split *out, double baseline, const double *demand, size_t n,
                          double interval_hours, const tco_topology *t, const tco_workload *w,
                          const tco_pricing *p, tco_error *err)
{
    int rc = split_args(out, demand, n, interval_hours, t, w, p, err);
    if (rc)
        return rc;
    if (!(baseline >= 0 && baseline <= DBL_MAX))
        return tco__fail(err, isnan(baseline) || isinf(baseline) ? TCO_E_NOT_FINITE : TCO_E_RANGE,
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
    if ((rc = tco__split_rates(&r, &t->o, &w->o, &p->o, err)))
        return rc;
    double allowed = floor(tco__split_target_exceedance(&r) * (double)n);
    double b = 0;
    if (allowed < (double)n) {
        rc = tco__select_kth_in_place(&b, demand, n, n - 1 - (size_t)allowed);
        if (rc == TCO_E_NOMEM)
            return tco__fail(err, rc, "no memory to select the baseline among %zu values", n);
        if (rc) /* TCO_E_RANGE: a value series_value_ok refuses */
            return tco__series_fail(demand, n, "demand", err);
    }
    return split_fill(out, b, demand, n, interval_hours, &t->o, &w->o, &p->o, err);
}
