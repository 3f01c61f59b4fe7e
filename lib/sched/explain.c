/* The messages of placements that cannot be priced: which field of the
 * job or the placement, its value and what is allowed. Only the single form
 * calls it, and only once a placement has failed: nothing here is on the
 * hot path (placement.c). */
#include <math.h>
#include <stdio.h>

#include "model/model.h"
#include "sched/sched.h"

/* A number of the job or the placement outside [lo, hi]. */
static int fail_number(tco_error *err, int code, const char *field, double v, double lo, double hi,
                       const char *unit)
{
    if (code == TCO_E_NOT_FINITE)
        return tco__fail_named(err, code, field, "%s = %g must be a finite number: allowed %g to %g%s", field, v,
                               lo, hi, unit);
    return tco__fail_named(err, code, field, "%s = %g is out of range: allowed %g to %g%s", field, v, lo, hi,
                           unit);
}

/* The distinct racks, zones and regions among the first `parts` parts
 * (all valid pools). */
static void distinct(int32_t out[3], const tco_pools *s, const tco_placement *pl, int32_t parts)
{
    out[0] = out[1] = out[2] = 0;
    for (int32_t j = 0; j < parts; j++) {
        const pool_hot *h = &s->hot[pl->pool[j]];
        int seen[3] = { 0, 0, 0 };
        for (int32_t i = 0; i < j; i++) {
            const pool_hot *g = &s->hot[pl->pool[i]];
            seen[0] |= g->rack == h->rack;
            seen[1] |= g->zone == h->zone;
            seen[2] |= g->region == h->region;
        }
        for (int x = 0; x < 3; x++)
            out[x] += !seen[x];
    }
}

/* The message of a placement that failed: off the hot path. */
int tco__placement_explain(tco_error *err, int rc, const why *y, const tco_pools *s, const tco_topology *t,
                           const tco_pricing *p, const tco_job *job, const tco_placement *pl)
{
    char field[TCO_ERROR_PARAM_NAME_MAX];
    int j = y->part;
    consts k;
    consts_of(&k, &t->o, &p->o);
    switch (y->field) {
    case F_JOB_SIZE:
        return tco__fail_named(err, rc, "job.size", "job.size = %zu is below %zu: set it to sizeof(tco_job)",
                               job->size, (size_t)JOB_V1_SIZE);
    case F_JOB_TAIL:
        return input_size_check(job, job->size, sizeof *job, "job", err);
    case F_JOB_ACCELERATORS:
        return tco__fail_named(err, rc, "job.accelerators", "job.accelerators = %d is out of range: allowed 1 to %d",
                               (int)job->accelerators, (int)k.max_accelerators);
    case F_JOB_INTERRUPTIBLE:
        return tco__fail_named(err, rc, "job.interruptible", "job.interruptible = %d must be 0 or 1 (1: may run on spot pools)",
                               (int)job->interruptible);
    case F_JOB_DURATION:
        return fail_number(err, rc, "job.duration_hours", job->duration_hours, MIN_HOURS, MAX_HOURS, " h");
    case F_JOB_COMM:
        return fail_number(err, rc, "job.comm_share", job->comm_share, 0, 1, "");
    case F_JOB_CHECKPOINT:
        return fail_number(err, rc, "job.checkpoint_bytes", job->checkpoint_bytes, 0, k.max_checkpoint_bytes, " B");
    case F_JOB_TRAFFIC:
        return fail_number(err, rc, "job.traffic_gb_per_accel_hour", job->traffic_gb_per_accel_hour, 0,
                           MAX_TRAFFIC_GB, " GB per accelerator-hour");
    case F_JOB_DELAY:
        return fail_number(err, rc, "job.delay_cost_per_hour", job->delay_cost_per_hour, 0, MAX_DELAY_COST, " cur per hour");
    case F_PARTS:
        return tco__fail_named(err, rc, "placement.parts", "placement.parts = %d is out of range: allowed 1 to %d",
                               (int)pl->parts, TCO_PLACEMENT_MAX_PARTS);
    case F_POOL:
        snprintf(field, sizeof field, "placement.pool[%d]", j);
        if (s->count == 0)
            return tco__fail_named(err, rc, field, "%s = %d is not a pool: the pools are empty", field, (int)pl->pool[j]);
        return tco__fail_named(err, rc, field, "%s = %d is not a pool: allowed 0 to %d (%d pools)", field,
                               (int)pl->pool[j], (int)s->count - 1, (int)s->count);
    case F_ACCELERATORS:
        snprintf(field, sizeof field, "placement.accelerators[%d]", j);
        return tco__fail_named(err, rc, field, "%s = %d must be at least 1", field, (int)pl->accelerators[j]);
    case F_FREE:
        snprintf(field, sizeof field, "placement.accelerators[%d]", j);
        return tco__fail_named(err, rc, field, "%s = %d exceeds pool %d's %d free accelerators", field,
                               (int)pl->accelerators[j], (int)pl->pool[j], (int)s->hot[pl->pool[j]].free);
    case F_SPOT:
        snprintf(field, sizeof field, "placement.pool[%d]", j);
        return tco__fail_named(err, rc, field, "%s = %d is a spot pool, but job.interruptible = 0: the job may not be interrupted",
                               field, (int)pl->pool[j]);
    case F_REPEAT:
        snprintf(field, sizeof field, "placement.pool[%d]", j);
        return tco__fail_named(err, rc, field, "%s = %d repeats placement.pool[%d]: name each pool once, with all its accelerators",
                               field, (int)pl->pool[j], y->other);
    case F_SUM: {
        int32_t sum = 0;
        for (int32_t i = 0; i < pl->parts; i++)
            sum += pl->accelerators[i];
        return tco__fail_named(err, rc, "placement.accelerators", "placement.accelerators add up to %d, but job.accelerators = %d",
                               (int)sum, (int)job->accelerators);
    }
    case F_RACKS:
    case F_ZONES:
    case F_REGIONS: {
        static const char *const names[] = { "racks", "zones", "regions" };
        int x = y->field - F_RACKS;
        int32_t given[3] = { pl->racks, pl->zones, pl->regions }, count[3], span[3];
        distinct(count, s, pl, pl->parts);
        for (int i = 0; i < 3; i++)
            span[i] = given[i] ? given[i] : count[i];
        snprintf(field, sizeof field, "placement.%s", names[x]);
        if (given[x] < 0)
            return tco__fail_named(err, rc, field, "%s = %d is out of range: allowed 0 (counted from the pools) or more",
                                   field, (int)given[x]);
        /* given[x] is not 0: a span counted from the pools is theirs, and
         * they nest, so only one given can be wrong */
        if (given[x] < count[x])
            return tco__fail_named(err, rc, field, "%s = %d is fewer than the %d distinct %s of its pools", field,
                                   (int)given[x], (int)count[x], names[x]);
        if (x == 0)
            return tco__fail_named(err, rc, field, "%s = %d exceeds job.accelerators = %d: each rack spanned holds at least one",
                                   field, (int)span[0], (int)job->accelerators);
        return tco__fail_named(err, rc, field, "%s = %d exceeds the %d %s the placement spans: %s are made of %s", field,
                               (int)span[x], (int)span[x - 1], names[x - 1], names[x], names[x - 1]);
    }
    case F_START:
        return fail_number(err, rc, "placement.start_hours", pl->start_hours, 0, MAX_HOURS, " h");
    default: { /* F_NEVER, the one field left */
        double nodes = 0, spot = 0;
        for (int32_t i = 0; i < pl->parts; i++) {
            const pool_hot *h = &s->hot[pl->pool[i]];
            double used = ceil((double)pl->accelerators[i] / h->per_node);
            nodes += used;
            spot += used * h->spot_rate;
        }
        double mtbf = tco__system_mtbf(job->accelerators, k.accel_mtbf, nodes, k.node_mtbf, spot);
        return tco__fail_named(err, rc, "placement",
                               "the job never finishes on this placement: it is interrupted every %g h on average, against %g h to checkpoint and %g h to restart",
                               mtbf, job->checkpoint_bytes / k.write_bytes_per_hour, k.restart);
    }
    }
}

