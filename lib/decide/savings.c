/* What each saving costs in return (doc/model.md, section 22): a cut the
 * estimate prices, weighed against the side-effect it implies. The saving
 * is the difference of two estimates (the scenario and a private variant
 * with the kind's parameter cut); the side-effect is the kind's model, or
 * the estimate's own failures waste where the estimate prices it. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "decide/decide.h"

#define SAVING_V1_SIZE V1_SIZE(tco_saving, replica_availability)
#define TRADEOFF_V1_SIZE V1_SIZE(tco_tradeoff, net)
#define KIND_MAX TCO_SAVING_MORE_SPOT
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
    return TCO_OK;
}

static int saving_size_check(const tco_saving *q, tco_error *err)
{
    if (q->size < SAVING_V1_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, "saving.size",
                               "saving.size = %zu is below %zu: set it with tco_saving_init", q->size, SAVING_V1_SIZE);
    return input_size_check(q, q->size, sizeof *q, "saving", err);
}

/* ---- the scenario as given ------------------------------------------------ */

typedef struct base {
    tco_estimate e;
    double failures; /* over all runs */
    double runs, n;
    double per_hour;   /* cur per accelerator-hour held idle or lost: the estimate's waste price */
    double staff_hour; /* cur per hour of diagnosis */
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
    b->run_hours = e->held_hours - w->o.v[IX_QUEUE_WAIT_HOURS];
    return TCO_OK;
}

/* The kind's parameter as the scenario has it (the interval the estimate
 * used, not 0 for Daly's). */
static double current_of(int32_t kind, const base *b, const tco_topology *t, const tco_workload *w)
{
    if (kind == TCO_SAVING_CHECKPOINT_INTERVAL)
        return b->e.checkpoint_interval_hours;
    const param_row *r = &tco__params[kinds[kind].ix];
    return r->handle == TCO_HANDLE_TOPOLOGY ? t->o.v[kinds[kind].ix] : w->o.v[kinds[kind].ix];
}

/* value must be a cut of this kind from cur: up for intervals and shares,
 * down for retentions and counts (whole, at least 1). */
static int value_check(int32_t kind, double value, double cur, tco_error *err)
{
    const param_row *r = &tco__params[kinds[kind].ix];
    const char *nm = kinds[kind].name;
    if (!isfinite(value))
        return tco__fail_named(err, TCO_E_NOT_FINITE, "saving.value", "saving.value must be a finite number, not %g",
                               value);
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
    o->net = o->saving - o->side_effect_cost;
    o->verdict = !(o->saving > 0)                    ? TCO_VERDICT_NO_SAVING
                 : o->side_effect_cost > o->saving ? TCO_VERDICT_FLAGGED
                                                     : TCO_VERDICT_WORTH_IT;
    o->flagged = o->verdict == TCO_VERDICT_FLAGGED;
}

/* One tradeoff into o (this version's struct), the value checked. */
static int weigh(tco_tradeoff *o, variant *v, int32_t kind, double value, const tco_saving *q, const base *b,
                 const tco_topology *t, const tco_workload *w, tco_error *err)
{
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->kind = kind;
    o->current_value = current_of(kind, b, t, w);
    o->new_value = value;
    int ix = kinds[kind].ix;
    tco_estimate after;
    int rc = tco__variant_set(v, ix, value, err);
    if (rc == TCO_OK)
        rc = tco__variant_estimate(&after, v, err);
    tco__variant_reset(v, ix);
    if (rc)
        return rc;
    o->total_before = b->e.total;
    o->total_after = after.total;
    side_effect(o, kind, value, q, b, &after, w);
    /* Every figure is a product of finite ones, but a guard is cheap. */
    const double f[] = { o->saving, o->side_effect, o->side_effect_accelerator_hours, o->side_effect_cost, o->net };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!isfinite(f[i]))
            return tco__fail_named(err, TCO_E_INCONSISTENT, "saving.value",
                                   "saving.value = %g for %s gives a side-effect that is not finite", value,
                                   kinds[kind].name);
    return TCO_OK;
}

int tco_tradeoff_compute(tco_tradeoff *out, const tco_saving *q, const tco_topology *t, const tco_workload *w,
                         const tco_pricing *p, tco_error *err)
{
    if (!out || !q)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "saving");
    if (out->size < TRADEOFF_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_tradeoff", out->size, TRADEOFF_V1_SIZE);
    int rc;
    if ((rc = saving_size_check(q, err)))
        return rc;
    if (!kind_of(q->kind))
        return tco__fail_named(err, TCO_E_RANGE, "saving.kind",
                               "saving.kind = %d names no saving: allowed 1 (metrics_interval) to %d (more_spot)",
                               (int)q->kind, KIND_MAX);
    if ((rc = side_check(q, err)) || (rc = tco__frozen_inputs(t, w, p, err)))
        return rc;
    base b;
    if ((rc = base_of(&b, q, t, w, p, err)))
        return rc;
    if ((rc = value_check(q->kind, q->value, current_of(q->kind, &b, t, w), err)))
        return rc;
    variant v;
    tco__variant_init(&v, t, w, p);
    tco_tradeoff o;
    if ((rc = weigh(&o, &v, q->kind, q->value, q, &b, t, w, err)))
        return rc;
    sized_fill(out, &o, sizeof o);
    return TCO_OK;
}

/* The suggested cut of kind, or 0 when the scenario has nothing to cut. */
static int suggest(int32_t kind, const base *b, const tco_topology *t, const tco_workload *w, double *value)
{
    double cur = current_of(kind, b, t, w);
    const param_row *r = &tco__params[kinds[kind].ix];
    switch (kind) {
    case TCO_SAVING_METRICS_INTERVAL:
    case TCO_SAVING_CHECKPOINT_INTERVAL:
        *value = fmin(2 * cur, r->hi);
        return *value > cur;
    case TCO_SAVING_LOG_RETENTION:
        *value = cur / 2;
        return cur > 0;
    case TCO_SAVING_CHECKPOINT_RETENTION:
    case TCO_SAVING_FEWER_REPLICAS:
        *value = kind == TCO_SAVING_FEWER_REPLICAS ? cur - 1 : floor(cur / 2);
        return cur >= 2;
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
    tco_saving defaults;
    const tco_saving *q = side;
    if (!q) {
        tco_saving_init(&defaults);
        q = &defaults;
    }
    if ((rc = saving_size_check(q, err)))
        return rc;
    if (q->kind != 0 || q->value != 0)
        return tco__fail_named(err, TCO_E_RANGE, q->kind != 0 ? "saving.kind" : "saving.value",
                               "saving.%s = %g: allowed only 0 here (tco_tradeoffs suggests every kind's value)",
                               q->kind != 0 ? "kind" : "value", q->kind != 0 ? (double)q->kind : q->value);
    if ((rc = side_check(q, err)) || (rc = tco__frozen_inputs(t, w, p, err)))
        return rc;
    base b;
    if ((rc = base_of(&b, q, t, w, p, err)))
        return rc;
    variant v;
    tco__variant_init(&v, t, w, p);
    size_t m = 0;
    for (int32_t kind = 1; kind <= KIND_MAX; kind++) {
        double value;
        if (!suggest(kind, &b, t, w, &value))
            continue;
        if (m < cap) {
            tco_tradeoff o;
            int st = weigh(&o, &v, kind, value, q, &b, t, w, NULL);
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
