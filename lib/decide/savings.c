/* What each saving costs in return (doc/model.md, section 22): a cut the
 * library prices, weighed against the side-effect it implies. For a
 * parameter of the scenario the saving is the difference of two estimates
 * (the scenario and a private variant with the parameter cut) and the
 * side-effect the kind's model, or the estimate's own failures waste
 * where the estimate prices it; a smaller baseline is two splits of the
 * caller's demand series, a tighter idle reclaim the hours an allocation
 * is held idle. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "capacity/capacity.h"
#include "decide/decide.h"

#define SAVING_V1_SIZE V1_SIZE(tco_saving, replica_availability)
#define TRADEOFF_V1_SIZE V1_SIZE(tco_tradeoff, net)
#define KIND_MAX TCO_SAVING_IDLE_RECLAIM
#define NO_PARAM (-1) /* a kind whose value is a field of tco_saving, not a parameter */
#define CORRUPT_MAX 0.5 /* past it a kept checkpoint is mostly no checkpoint; the model's monotone bound */

static const struct kind_row {
    const char *name, *side, *unit;
    int ix;
} kinds[KIND_MAX + 1] = {
    [TCO_SAVING_METRICS_INTERVAL] = { "metrics_interval",
                                      "longer failure detection: the job's accelerators wait for the next sample",
                                      "h", IX_METRICS_INTERVAL_SECONDS },
    [TCO_SAVING_LOG_RETENTION] = { "log_retention",
                                   "longer diagnosis: failures looked into after the retention find no logs", "h",
                                   IX_LOG_RETENTION_DAYS },
    [TCO_SAVING_CHECKPOINT_RETENTION] = { "checkpoint_retention",
                                          "deeper rollback: a checkpoint that cannot be restored falls back further",
                                          "accelerator-h", IX_CHECKPOINT_RETENTION },
    [TCO_SAVING_CHECKPOINT_INTERVAL] = { "checkpoint_interval",
                                         "more work lost at each failure (priced inside the estimate)",
                                         "accelerator-h", IX_CHECKPOINT_INTERVAL_HOURS },
    [TCO_SAVING_FEWER_REPLICAS] = { "fewer_replicas",
                                    "lower availability: the job stops while every replica is down", "1",
                                    IX_DATABASE_INSTANCES },
    [TCO_SAVING_MORE_SPOT] = { "more_spot", "more interruptions: work lost and restarts (priced inside the estimate)",
                               "accelerator-h", IX_SPOT_SHARE },
    [TCO_SAVING_SMALLER_BASELINE] = { "smaller_baseline",
                                      "longer queue waits: demand above the baseline waits for elastic capacity",
                                      "accelerator-h", NO_PARAM },
    [TCO_SAVING_IDLE_RECLAIM] = { "idle_reclaim",
                                  "cold starts: work back after the timeout waits to acquire its accelerators again",
                                  "accelerator-h", NO_PARAM },
};

static const struct kind_row *kind_of(int32_t kind)
{
    return kind >= 1 && kind <= KIND_MAX ? &kinds[kind] : NULL;
}

const char *tco_saving_name(int32_t kind)
{
    const struct kind_row *k = kind_of(kind);
    return k ? k->name : NULL;
}

const char *tco_saving_side_effect(int32_t kind)
{
    const struct kind_row *k = kind_of(kind);
    return k ? k->side : NULL;
}

const char *tco_saving_side_effect_unit(int32_t kind)
{
    const struct kind_row *k = kind_of(kind);
    return k ? k->unit : NULL;
}

void tco_saving_init(tco_saving *q)
{
    if (!q)
        return;
    memset(q, 0, sizeof *q);
    q->size = sizeof *q;
    q->staff_cost_per_hour = -1;
    q->log_needed_share = 0.5;
    q->incident_age_days = 7;
    q->rediagnosis_hours = 4;
    q->checkpoint_corrupt_probability = 0.01;
    q->replica_availability = 0.99;
    q->interval_hours = 1;
    q->acquire_hours = 0.25;
    q->wait_cost_per_accelerator_hour = -1;
    q->idle_gap_hours = 1;
    q->idle_periods = -1;
}

/* ---- the request ------------------------------------------------------------ */

/* x finite and in [lo, hi] (above lo when open_lo), or the error naming it. */
static int field_check(double x, const char *name, double lo, double hi, int open_lo, const char *unit, tco_error *err)
{
    if (!isfinite(x))
        return tco__fail_named(err, TCO_E_NOT_FINITE, name, "%s must be a finite number, not %g", name, x);
    if (!(open_lo ? x > lo : x >= lo) || !(x <= hi))
        return tco__fail_named(err, TCO_E_RANGE, name, "%s = %g is out of range: allowed %s%g to %g%s%s", name, x,
                               open_lo ? "above " : "", lo, hi, *unit ? " " : "", unit);
    return TCO_OK;
}

static int side_check(const tco_saving *q, tco_error *err)
{
    int rc;
    if (q->staff_cost_per_hour != -1 &&
        (rc = field_check(q->staff_cost_per_hour, "saving.staff_cost_per_hour", 0, 1e6, 0, "cur/h (or -1: the pricing's staff hour)", err)))
        return rc;
    if ((rc = field_check(q->log_needed_share, "saving.log_needed_share", 0, 1, 0, "", err)) ||
        (rc = field_check(q->incident_age_days, "saving.incident_age_days", 0, 36500, 1, "d", err)) ||
        (rc = field_check(q->rediagnosis_hours, "saving.rediagnosis_hours", 0, 1e4, 0, "h", err)) ||
        (rc = field_check(q->checkpoint_corrupt_probability, "saving.checkpoint_corrupt_probability", 0, CORRUPT_MAX,
                          0, "", err)) ||
        (rc = field_check(q->replica_availability, "saving.replica_availability", 0, 1, 1, "", err)))
        return rc;
    if (q->n > 0 && !q->demand)
        return tco__fail_named(err, TCO_E_NULL, "saving.demand", "saving.demand must not be NULL when saving.n = %zu",
                               q->n);
    if ((q->n > 0 && (rc = tco__series_check(q->demand, q->n, "saving.demand", err))) ||
        (rc = field_check(q->interval_hours, "saving.interval_hours", TCO__INTERVAL_MIN, TCO__INTERVAL_MAX, 0, "h",
                          err)) ||
        (rc = field_check(q->baseline, "saving.baseline", 0, 1e9, 0, "accelerators", err)) ||
        (rc = field_check(q->acquire_hours, "saving.acquire_hours", 0, 1e4, 0, "h", err)))
        return rc;
    if (q->wait_cost_per_accelerator_hour != -1 &&
        (rc = field_check(q->wait_cost_per_accelerator_hour, "saving.wait_cost_per_accelerator_hour", 0, 1e6, 0,
                          "cur/accelerator-h (or -1: the estimate's waste price)", err)))
        return rc;
    if ((rc = field_check(q->idle_timeout_hours, "saving.idle_timeout_hours", 0, 1e4, 0, "h", err)) ||
        (rc = field_check(q->idle_gap_hours, "saving.idle_gap_hours", 0, 1e5, 1, "h", err)))
        return rc;
    if (q->idle_periods != -1 &&
        (rc = field_check(q->idle_periods, "saving.idle_periods", 0, 1e9, 0, "(or -1: once a run)", err)))
        return rc;
    return TCO_OK;
}

/* The caller's saving, of any size from the first version's, into this
 * version's struct (fields it does not know: their defaults, which leave
 * kinds 7 and 8 nothing to cut). */
static int saving_copy(tco_saving *q, const tco_saving *given, tco_error *err)
{
    if (given->size < SAVING_V1_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, "saving.size",
                               "saving.size = %zu is below %zu: set it with tco_saving_init", given->size,
                               SAVING_V1_SIZE);
    int rc = input_size_check(given, given->size, sizeof *q, "saving", err);
    if (rc)
        return rc;
    if (given->size < sizeof *q)
        tco_saving_init(q);
    memcpy(q, given, MIN(given->size, sizeof *q));
    q->size = sizeof *q;
    return TCO_OK;
}

/* ---- the scenario as given ------------------------------------------------ */

typedef struct base {
    tco_estimate e;
    double failures; /* over all runs */
    double runs, n;
    double per_hour;   /* cur per accelerator-hour held idle or lost: the estimate's waste price */
    double staff_hour; /* cur per hour of diagnosis */
    double wait_hour;  /* cur per accelerator-hour of work waiting for capacity */
    double run_hours;  /* hours the job runs: held less the queue wait */
} base;

static int base_of(base *b, const tco_saving *q, const tco_topology *t, const tco_workload *w, const tco_pricing *p,
                   tco_error *err)
{
    int rc = tco__estimate(&b->e, &t->o, &w->o, &p->o, err);
    if (rc)
        return rc;
    const tco_estimate *e = &b->e;
    b->runs = w->o.v[IX_RUNS];
    b->n = e->job_accelerators;
    b->failures = e->expected_failures * b->runs;
    /* The price the estimate puts on a wasted accelerator-hour; without
     * waste, the same average of compute, power and cooling. */
    double waste_h = e->accelerator_hours - e->effective_accelerator_hours;
    b->per_hour = waste_h > 0 && e->cost[TCO_CAT_WASTE] > 0
                      ? e->cost[TCO_CAT_WASTE] / waste_h
                      : (e->cost[TCO_CAT_COMPUTE] + e->cost[TCO_CAT_POWER] + e->cost[TCO_CAT_COOLING]) /
                            e->accelerator_hours;
    b->staff_hour = q->staff_cost_per_hour >= 0
                        ? q->staff_cost_per_hour
                        : p->o.v[IX_STAFF_PER_FTE_YEAR] / p->o.v[IX_STAFF_HOURS_PER_FTE_YEAR];
    b->wait_hour = q->wait_cost_per_accelerator_hour >= 0 ? q->wait_cost_per_accelerator_hour : b->per_hour;
    b->run_hours = e->held_hours - w->o.v[IX_QUEUE_WAIT_HOURS];
    return TCO_OK;
}

/* The kind's parameter as the scenario has it (the interval the estimate
 * used, not 0 for Daly's), or its field of the saving. */
static double current_of(int32_t kind, const base *b, const tco_saving *q, const tco_topology *t,
                         const tco_workload *w)
{
    if (kind == TCO_SAVING_SMALLER_BASELINE)
        return q->baseline;
    if (kind == TCO_SAVING_IDLE_RECLAIM)
        return q->idle_timeout_hours;
    if (kind == TCO_SAVING_CHECKPOINT_INTERVAL)
        return b->e.checkpoint_interval_hours;
    const param_row *r = &tco__params[kinds[kind].ix];
    return r->handle == TCO_HANDLE_TOPOLOGY ? t->o.v[kinds[kind].ix] : w->o.v[kinds[kind].ix];
}

/* value must be a cut of this kind from cur: up for intervals and shares,
 * down for retentions and counts (whole, at least 1). */
static int value_check(int32_t kind, double value, double cur, const tco_saving *q, tco_error *err)
{
    const char *nm = kinds[kind].name;
    if (!isfinite(value))
        return tco__fail_named(err, TCO_E_NOT_FINITE, "saving.value", "saving.value must be a finite number, not %g",
                               value);
    if (kinds[kind].ix == NO_PARAM) { /* down, to 0 at least, from a field of the saving */
        const char *field = kind == TCO_SAVING_SMALLER_BASELINE ? "saving.baseline" : "saving.idle_timeout_hours";
        if (kind == TCO_SAVING_SMALLER_BASELINE && q->n == 0)
            return tco__fail_named(err, TCO_E_INCONSISTENT, "saving.demand",
                                   "saving.n = 0: %s needs saving.demand, the accelerators needed at each interval", nm);
        if (cur == 0)
            return tco__fail_named(err, TCO_E_INCONSISTENT, field,
                                   "%s = 0 leaves %s nothing to cut: allowed above 0 to 1e%d", field, nm,
                                   kind == TCO_SAVING_SMALLER_BASELINE ? 9 : 4);
        if (!(value >= 0 && value < cur))
            return tco__fail_named(err, TCO_E_RANGE, "saving.value",
                                   "saving.value = %g is out of range for %s: allowed 0 to below the current %g (%s)",
                                   value, nm, cur, field);
        return TCO_OK;
    }
    const param_row *r = &tco__params[kinds[kind].ix];
    int up = kind == TCO_SAVING_METRICS_INTERVAL || kind == TCO_SAVING_CHECKPOINT_INTERVAL ||
             kind == TCO_SAVING_MORE_SPOT;
    if (up) {
        if (!(value > cur && value <= r->hi))
            return tco__fail_named(err, TCO_E_RANGE, "saving.value",
                                   "saving.value = %g is out of range for %s: allowed above the current %g up to %g %s",
                                   value, nm, cur, r->hi, r->unit);
        return TCO_OK;
    }
    int whole = r->type == TCO_TYPE_INT;
    double lo = whole ? 1 : 0;
    if (!(value >= lo && value < cur) || (whole && value != floor(value)))
        return tco__fail_named(err, TCO_E_RANGE, "saving.value",
                               "saving.value = %g is out of range for %s: allowed %s%g to below the current %g %s",
                               value, nm, whole ? "a whole number from " : "", lo, cur, r->unit);
    return TCO_OK;
}

/* ---- the side-effects ----------------------------------------------------- */

/* Expected work lost beyond the last checkpoint at a restart when the K
 * newest are kept, each unrestorable with probability q: j more intervals
 * back with probability q^j (1 - q), the run's start (on average half its
 * work, W / 2) when all K fail. Only the differences matter:
 *   E(K) = tau x sum_{j=1}^{K-1} q^j + q^K x W / 2                        [h] */
static double rollback_hours(double K, double q, double tau, double W)
{
    double sum; /* sum_{j=1}^{K-1} q^j */
    if (q == 0)
        sum = 0;
    else if (q == 1)
        sum = K - 1;
    else
        sum = q * (1 - pow(q, K - 1)) / (1 - q);
    return tau * sum + pow(q, K) * W / 2;
}

/* The side-effect of kind at value, into o, from the two estimates. */
static void side_effect(tco_tradeoff *o, int32_t kind, double value, const tco_saving *q, const base *b,
                        const tco_estimate *after, const tco_workload *w)
{
    const tco_estimate *e = &b->e;
    double cur = o->current_value;
    o->saving = e->total - after->total;
    switch (kind) {
    case TCO_SAVING_METRICS_INTERVAL: /* half the added interval per failure, the job idle meanwhile */
        o->side_effect = b->failures * (value - cur) / 2 / 3600;
        o->side_effect_accelerator_hours = o->side_effect * b->n;
        o->side_effect_cost = o->side_effect_accelerator_hours * b->per_hour;
        break;
    case TCO_SAVING_LOG_RETENTION: { /* looked up at an exponential age: gone past the retention */
        double m = q->incident_age_days;
        double lost = exp(-value / m) - exp(-cur / m);
        o->side_effect = b->failures * q->log_needed_share * lost * q->rediagnosis_hours;
        o->side_effect_cost = o->side_effect * b->staff_hour;
        break;
    }
    case TCO_SAVING_CHECKPOINT_RETENTION: {
        double more = w->o.v[IX_CHECKPOINT_WARM_RETENTION] + w->o.v[IX_CHECKPOINT_COLD_RETENTION];
        double tau = e->checkpoint_interval_hours, W = e->compute_hours + e->data_stall_hours;
        /* A failure falls halfway through on average, when half the
         * checkpoints are written: no more can be kept then. */
        double half = fmax(1, floor(W / tau / 2));
        double k0 = fmin(cur + more, half), k1 = fmin(value + more, half);
        double pq = q->checkpoint_corrupt_probability;
        double dh = rollback_hours(k1, pq, tau, W) - rollback_hours(k0, pq, tau, W);
        o->side_effect_accelerator_hours = b->failures * b->n * fmax(0, dh);
        o->side_effect = o->side_effect_accelerator_hours;
        o->side_effect_cost = o->side_effect_accelerator_hours * b->per_hour;
        break;
    }
    case TCO_SAVING_FEWER_REPLICAS: { /* parallel redundancy: 1 - (1 - a)^k */
        double down = 1 - q->replica_availability;
        o->side_effect = pow(down, value) - pow(down, cur);
        o->side_effect_accelerator_hours = o->side_effect * b->run_hours * b->n;
        o->side_effect_cost = o->side_effect_accelerator_hours * b->per_hour;
        break;
    }
    default: /* checkpoint interval, more spot: the estimate's failures waste */
        o->in_estimate = 1;
        o->side_effect_accelerator_hours =
            b->runs * (after->job_accelerators * (after->lost_work_hours + after->restart_hours) -
                       b->n * (e->lost_work_hours + e->restart_hours));
        o->side_effect = o->side_effect_accelerator_hours;
        o->side_effect_cost = after->waste[TCO_WASTE_FAILURES] - e->waste[TCO_WASTE_FAILURES];
        o->saving += o->side_effect_cost; /* before the side-effect: net is the estimates' difference */
        break;
    }
}

/* ---- the kinds beyond the estimate ------------------------------------ */

/* The split of the demand at baseline bl (section 7, its sums as
 * split.c takes them) and the accelerators acquired above it: the rises
 * of (d_i - bl)+, from none before the first point. */
static int baseline_split(tco_split *sp, double *acquired, double bl, const tco_saving *q, const elastic_rates *er,
                          tco_error *err)
{
    enum { BLOCK = 256 };
    ksum used = { { 0 }, { 0 } }, excess = { { 0 }, { 0 } }, all = { { 0 }, { 0 } }, rises = { { 0 }, { 0 } };
    size_t above = 0;
    double peak = 0, prev = 0;
    const double *d = q->demand;
    for (size_t start = 0; start < q->n; start += BLOCK) {
        size_t end = q->n - start < BLOCK ? q->n : start + BLOCK;
        double u = 0, e = 0, s = 0, r = 0;
        for (size_t i = start; i < end; i++) {
            double x = d[i], m = MIN(x, bl), up = x - m;
            u += m;
            e += up;
            s += x;
            r += MAX(up - prev, 0);
            prev = up;
            above += x > bl;
            peak = MAX(peak, x);
        }
        int lane = (int)((start / BLOCK) & 3);
        ksum_add(&used, lane, u);
        ksum_add(&excess, lane, e);
        ksum_add(&all, lane, s);
        ksum_add(&rises, lane, r);
    }
    split_sums sums = { ksum_total(&used), ksum_total(&excess), ksum_total(&all), peak, above };
    *acquired = ksum_total(&rises);
    return tco__split_finish(sp, bl, &sums, q->n, q->interval_hours, er, "saving.demand", err);
}

/* A smaller baseline: the two splits' totals; each accelerator acquired
 * above the baseline waits acquire_hours for it. */
static int baseline_weigh(tco_tradeoff *o, double value, const tco_saving *q, const base *b, const tco_topology *t,
                          const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    elastic_rates er;
    tco_split before, after;
    double up_before, up_after;
    int rc = tco__split_rates(&er, &t->o, &w->o, &p->o, err);
    if (rc || (rc = baseline_split(&before, &up_before, o->current_value, q, &er, err)) ||
        (rc = baseline_split(&after, &up_after, value, q, &er, err)))
        return rc;
    o->total_before = before.total_cost;
    o->total_after = after.total_cost;
    o->saving = before.total_cost - after.total_cost;
    /* more rises below a lower baseline, never fewer: only rounding can differ */
    o->side_effect = q->acquire_hours * fmax(0, up_after - up_before);
    o->side_effect_accelerator_hours = o->side_effect;
    o->side_effect_cost = o->side_effect * b->wait_hour;
    return TCO_OK;
}

/* A tighter idle reclaim: an idle allocation of the job's accelerators is
 * used again after an exponential gap G of mean g; held idle for
 * min(G, tau), E = g (1 - e^(-tau/g)); released when G > tau, with
 * probability e^(-tau/g), and then acquired again, acquire_hours later. */
static void idle_weigh(tco_tradeoff *o, double value, const tco_saving *q, const base *b)
{
    double g = q->idle_gap_hours, cur = o->current_value;
    double per = (q->idle_periods >= 0 ? q->idle_periods : b->runs) * b->n; /* accelerators falling idle, each time */
    double held_before = per * g * -expm1(-cur / g), held_after = per * g * -expm1(-value / g);
    o->total_before = b->e.total + held_before * b->per_hour;
    o->total_after = b->e.total + held_after * b->per_hour;
    o->saving = (held_before - held_after) * b->per_hour;
    o->side_effect = per * (exp(-value / g) - exp(-cur / g)) * q->acquire_hours;
    o->side_effect_accelerator_hours = o->side_effect;
    o->side_effect_cost = o->side_effect * b->wait_hour;
}

/* One tradeoff into o (this version's struct), the value checked. */
static int weigh(tco_tradeoff *o, variant *v, int32_t kind, double value, const tco_saving *q, const base *b,
                 const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->kind = kind;
    o->current_value = current_of(kind, b, q, t, w);
    o->new_value = value;
    int ix = kinds[kind].ix, rc = TCO_OK;
    if (kind == TCO_SAVING_SMALLER_BASELINE)
        rc = baseline_weigh(o, value, q, b, t, w, p, err);
    else if (kind == TCO_SAVING_IDLE_RECLAIM)
        idle_weigh(o, value, q, b);
    else {
        tco_estimate after;
        rc = tco__variant_set(v, ix, value, err);
        if (rc == TCO_OK)
            rc = tco__variant_estimate(&after, v, err);
        tco__variant_reset(v, ix);
        if (rc == TCO_OK) {
            o->total_before = b->e.total;
            o->total_after = after.total;
            side_effect(o, kind, value, q, b, &after, w);
        }
    }
    if (rc)
        return rc;
    o->net = o->saving - o->side_effect_cost;
    o->verdict = !(o->saving > 0)                    ? TCO_VERDICT_NO_SAVING
                 : o->side_effect_cost > o->saving ? TCO_VERDICT_FLAGGED
                                                     : TCO_VERDICT_WORTH_IT;
    o->flagged = o->verdict == TCO_VERDICT_FLAGGED;
    /* Every figure is a product of finite ones, but a guard is cheap. */
    const double f[] = { o->saving, o->side_effect, o->side_effect_accelerator_hours, o->side_effect_cost, o->net };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!isfinite(f[i]))
            return tco__fail_named(err, TCO_E_INCONSISTENT, "saving.value",
                                   "saving.value = %g for %s gives a side-effect that is not finite", value,
                                   kinds[kind].name);
    return TCO_OK;
}

int tco_tradeoff_compute(tco_tradeoff *out, const tco_saving *given, const tco_topology *t, const tco_workload *w,
                         const tco_pricing *p, tco_error *err)
{
    if (!out || !given)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "saving");
    if (out->size < TRADEOFF_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_tradeoff", out->size, TRADEOFF_V1_SIZE);
    tco_saving q;
    int rc;
    if ((rc = saving_copy(&q, given, err)))
        return rc;
    if (!kind_of(q.kind))
        return tco__fail_named(err, TCO_E_RANGE, "saving.kind",
                               "saving.kind = %d names no saving: allowed 1 (metrics_interval) to %d (idle_reclaim)",
                               (int)q.kind, KIND_MAX);
    if ((rc = side_check(&q, err)) || (rc = tco__frozen_inputs(t, w, p, err)))
        return rc;
    base b;
    if ((rc = base_of(&b, &q, t, w, p, err)))
        return rc;
    if ((rc = value_check(q.kind, q.value, current_of(q.kind, &b, &q, t, w), &q, err)))
        return rc;
    variant v;
    tco__variant_init(&v, t, w, p);
    tco_tradeoff o;
    if ((rc = weigh(&o, &v, q.kind, q.value, &q, &b, t, w, p, err)))
        return rc;
    sized_fill(out, &o, sizeof o);
    return TCO_OK;
}

/* The baseline that minimises the split's cost of the demand (section 7,
 * as tco_capacity_split selects it). */
static int baseline_optimum(double *bl, const tco_saving *q, const tco_topology *t, const tco_workload *w,
                            const tco_pricing *p, tco_error *err)
{
    elastic_rates er;
    int rc = tco__split_rates(&er, &t->o, &w->o, &p->o, err);
    if (rc)
        return rc;
    double allowed = floor(tco__split_target_exceedance(&er) * (double)q->n);
    *bl = 0;
    if (allowed < (double)q->n &&
        tco__select_kth_in_place(bl, q->demand, q->n, q->n - 1 - (size_t)allowed) == TCO_E_NOMEM)
        return tco__fail(err, TCO_E_NOMEM, "no memory to select the baseline among %zu values", q->n);
    return TCO_OK;
}

/* The suggested cut of kind, or 0 when there is nothing to cut; *status:
 * why the suggestion itself could not be worked out. */
static int suggest(int32_t kind, const base *b, const tco_saving *q, const tco_topology *t, const tco_workload *w,
                   const tco_pricing *p, double *value, int *status)
{
    double cur = current_of(kind, b, q, t, w);
    const param_row *r = kinds[kind].ix == NO_PARAM ? NULL : &tco__params[kinds[kind].ix];
    *status = TCO_OK;
    switch (kind) {
    case TCO_SAVING_METRICS_INTERVAL:
    case TCO_SAVING_CHECKPOINT_INTERVAL:
        *value = fmin(2 * cur, r->hi);
        return *value > cur;
    case TCO_SAVING_LOG_RETENTION:
    case TCO_SAVING_IDLE_RECLAIM:
        *value = cur / 2;
        return cur > 0;
    case TCO_SAVING_CHECKPOINT_RETENTION:
    case TCO_SAVING_FEWER_REPLICAS:
        *value = kind == TCO_SAVING_FEWER_REPLICAS ? cur - 1 : floor(cur / 2);
        return cur >= 2;
    case TCO_SAVING_SMALLER_BASELINE: /* down to the split's optimum, where one is below */
        if (q->n == 0 || cur == 0)
            return 0;
        *status = baseline_optimum(value, q, t, w, p, NULL);
        return *status != TCO_OK || *value < cur;
    default: /* more spot, up to what the reserved share leaves of the rented */
        *value = fmin(cur + 0.2, 1 - t->o.v[IX_RESERVED_SHARE]);
        return t->o.v[IX_OWNED_SHARE] < 1 && *value > cur;
    }
}

int tco_tradeoffs(tco_tradeoff *out, size_t out_size, size_t cap, size_t *n, const tco_saving *side,
                  const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    if (!n || (cap > 0 && !out))
        return tco__fail(err, TCO_E_NULL, !n ? "n must not be NULL" : "out must not be NULL when cap = %zu", cap);
    int rc;
    if (cap > 0 && (rc = tco__stride_check(out_size, TRADEOFF_V1_SIZE, "out_size", "tco_tradeoff", err)))
        return rc;
    tco_saving q;
    if (!side)
        tco_saving_init(&q);
    else if ((rc = saving_copy(&q, side, err)))
        return rc;
    if (q.kind != 0 || q.value != 0)
        return tco__fail_named(err, TCO_E_RANGE, q.kind != 0 ? "saving.kind" : "saving.value",
                               "saving.%s = %g: allowed only 0 here (tco_tradeoffs suggests every kind's value)",
                               q.kind != 0 ? "kind" : "value", q.kind != 0 ? (double)q.kind : q.value);
    if ((rc = side_check(&q, err)) || (rc = tco__frozen_inputs(t, w, p, err)))
        return rc;
    base b;
    if ((rc = base_of(&b, &q, t, w, p, err)))
        return rc;
    variant v;
    tco__variant_init(&v, t, w, p);
    size_t m = 0;
    for (int32_t kind = 1; kind <= KIND_MAX; kind++) {
        double value;
        int st;
        if (!suggest(kind, &b, &q, t, w, p, &value, &st))
            continue;
        if (m < cap) {
            tco_tradeoff o;
            if (st == TCO_OK)
                st = weigh(&o, &v, kind, value, &q, &b, t, w, p, NULL);
            if (st != TCO_OK) { /* the code and zeros, as the tornado's rows */
                memset(&o, 0, sizeof o);
                o.size = sizeof o;
                o.kind = kind;
                o.status = st;
            }
            char *row = (char *)out + m * out_size;
            memcpy(row, &out_size, sizeof out_size);
            sized_fill(row, &o, sizeof o);
        }
        m++;
    }
    *n = m;
    return TCO_OK;
}
