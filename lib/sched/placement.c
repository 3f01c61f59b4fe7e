/* Placement pricing, the scheduler's hot path: what one job costs on one
 * candidate placement (doc/model.md, "5 Placement pricing"; how to call it:
 * doc/scheduling.md).
 *
 * Every figure comes out of three static inline functions: job_check (the
 * job's fields), prepare (the placement's parts, spans and every figure
 * but the interruptions) and finish (Daly's expected wall time and what
 * follows from it). tco_placement_price calls the three in turn through
 * price_one; tco_placement_price_batch calls the same three, checking a job
 * once for consecutive placements of it, with the loop over parts unrolled
 * for the batch's max_parts, and running finish over chunks of placements
 * so that the processor overlaps their exponentials; the threaded batch
 * runs the same loop over a share of the placements on each thread. The
 * same code on the same inputs: the forms agree to the last bit (tested).
 *
 * Nothing here allocates, takes a lock, calls into libm on the common path
 * or keeps state: any number of threads may price on shared frozen
 * handles. The checks of a job and of a placement are folded into one flag
 * each, without a branch per field; only when one fails does a cold
 * function look for the field, and the functions return its status and
 * say which field in a few integers; only the single form turns that into
 * a message, off the hot path (explain.c). */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "sched/sched.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The status of a double that failed its range check. */
static int out_of(double v)
{
    return isfinite(v) ? TCO_E_RANGE : TCO_E_NOT_FINITE;
}

/* Which of the job's fields is wrong, checked in the order the message
 * names them. Off the hot path: only called once a check has failed. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int job_fault(why *y, const tco_job *job, const consts *k, size_t limit)
{
    y->part = 0;
    if (job->size < JOB_V1_SIZE)
        return y->field = F_JOB_SIZE, TCO_E_SIZE;
    if (job->size > limit || !tail_is_zero(job, job->size, sizeof *job))
        return y->field = F_JOB_TAIL, TCO_E_SIZE;
    double D = job->duration_hours, c = job->comm_share, C = job->checkpoint_bytes;
    double X = job->traffic_gb_per_accel_hour, W = job->delay_cost_per_hour;
    if (job->accelerators < 1 || (uint32_t)job->accelerators > k->max_accelerators)
        return y->field = F_JOB_ACCELERATORS, TCO_E_RANGE;
    if ((uint32_t)job->interruptible > 1)
        return y->field = F_JOB_INTERRUPTIBLE, TCO_E_RANGE;
    if (!(D >= MIN_HOURS && D <= MAX_HOURS))
        return y->field = F_JOB_DURATION, out_of(D);
    if (!(c >= 0 && c <= 1))
        return y->field = F_JOB_COMM, out_of(c);
    if (!(C >= 0 && C <= k->max_checkpoint_bytes))
        return y->field = F_JOB_CHECKPOINT, out_of(C);
    if (!(X >= 0 && X <= MAX_TRAFFIC_GB))
        return y->field = F_JOB_TRAFFIC, out_of(X);
    return y->field = F_JOB_DELAY, out_of(W);
}

/* The hot path's pieces are inlined into both entry points. */
#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

/* e^v - 1 for 0 <= v <= 0.5: the series to v^14 / 14!, whose remainder is
 * below 5e-17 of the sum, evaluated in Estrin's scheme (short chains of
 * dependent operations). */
HOT double expm1_small(double v)
{
    double v2 = v * v, v4 = v2 * v2, v8 = v4 * v4;
    double q0 = 1.0 / 2 + v * (1.0 / 6), q1 = 1.0 / 24 + v * (1.0 / 120), q2 = 1.0 / 720 + v * (1.0 / 5040);
    double q3 = 1.0 / 40320 + v * (1.0 / 362880), q4 = 1.0 / 3628800 + v * (1.0 / 39916800);
    double q5 = 1.0 / 479001600 + v * (1.0 / 6227020800);
    double r0 = q0 + q1 * v2, r1 = q2 + q3 * v2, r2 = q4 + q5 * v2 + v4 * (1.0 / 87178291200);
    return v + v2 * (r0 + r1 * v4 + r2 * v8);
}

/* The square root, correctly rounded as IEEE 754 requires of sqrt(), so
 * the same bits either way; with SSE2 one instruction, where sqrt() is a
 * call into libm (it may have to set errno). Only x >= 0 comes here. */
HOT double root(double x)
{
#if defined(__SSE2__)
    __m128d v = _mm_set_sd(x);
    return _mm_cvtsd_f64(_mm_sqrt_sd(v, v));
#else
    return sqrt(x);
#endif
}

/* 1/k as division gives it, from a table for the spans most placements
 * have (a division is the slowest operation of the hot path). */
#define INV4(k) 1.0 / (k), 1.0 / ((k) + 1), 1.0 / ((k) + 2), 1.0 / ((k) + 3)
#define INV16(k) INV4(k), INV4((k) + 4), INV4((k) + 8), INV4((k) + 12)
static const double inv_small[64] = { 0, 1.0 / 1, 1.0 / 2, 1.0 / 3, INV4(4), INV4(8), INV4(12),
                                      INV16(16), INV16(32), INV16(48) };

HOT double inv(int32_t k)
{
    return k < 64 ? inv_small[k] : 1.0 / k;
}

/* A job, checked. */
typedef struct jobv {
    int32_t n, interruptible;
    double D, c, C, X, W;
} jobv;

/* Checks the job's fields (comparisons that NaN fails, combined without
 * branches) and copies them. A job may declare a size up to `limit` (in a
 * batch, the array's stride), if what this version does not know of it is
 * zero. */
HOT int job_check(jobv *restrict o, why *y, const tco_job *restrict job, const consts *restrict k, size_t limit)
{
    if (job->size != sizeof *job &&
        (job->size < JOB_V1_SIZE || job->size > limit || !tail_is_zero(job, job->size, sizeof *job))) {
        int rc = job_fault(y, job, k, limit); /* read no field the caller's struct may lack */
        return rc ? rc : TCO_E_SIZE;
    }
    int32_t n = job->accelerators, interruptible = job->interruptible;
    double D = job->duration_hours, c = job->comm_share, C = job->checkpoint_bytes;
    double X = job->traffic_gb_per_accel_hour, W = job->delay_cost_per_hour;
    int ok = ((uint32_t)n - 1u < k->max_accelerators) & ((uint32_t)interruptible <= 1) & (D >= MIN_HOURS) &
             (D <= MAX_HOURS) & (c >= 0) & (c <= 1) & (C >= 0) & (C <= k->max_checkpoint_bytes) & (X >= 0) &
             (X <= MAX_TRAFFIC_GB) & (W >= 0) & (W <= MAX_DELAY_COST);
    if (!ok) {
        int rc = job_fault(y, job, k, limit);
        return rc ? rc : TCO_E_RANGE;
    }
    o->n = n;
    o->interruptible = interruptible;
    o->D = D;
    o->c = c;
    o->C = C;
    o->X = X;
    o->W = W;
    return TCO_OK;
}

/* A placement checked, with every figure worked out but those that follow
 * from its interruptions. */
typedef struct prep {
    double compute, slowdown, traffic, delay; /* cur */
    double fixed;                             /* their sum */
    double rate, idle_rate;                   /* cur per hour */
    double run0;                              /* h, without interruptions */
    double lambda;                            /* interruptions per hour */
    double x;                                 /* checkpoint pause / (2 x MTBF) */
    double start;                             /* h */
} prep;

#define FAIL(code, f, j)    \
    do {                    \
        y->field = (f);     \
        y->part = (j);      \
        return (code);      \
    } while (0)

/* Which check of a placement failed, in the order the message names them:
 * off the hot path, only called once prepare's combined check has failed.
 * Returns the status, with *y saying why. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int prepare_fault(why *y, const pool_hot *hot, int32_t pool_count, const jobv *jv, int32_t parts,
                         const int32_t *pool, const int32_t *acc, int32_t racks, int32_t zones, int32_t regions,
                         double start)
{
    if (parts < 1 || parts > TCO_PLACEMENT_MAX_PARTS)
        FAIL(TCO_E_RANGE, F_PARTS, 0);
    int32_t n = jv->n, sum = 0, nr = 0, nz = 0, ng = 0;
    for (int32_t j = 0; j < parts; j++) {
        int32_t id = pool[j], a = acc[j];
        if ((uint32_t)id >= (uint32_t)pool_count)
            FAIL(TCO_E_INDEX, F_POOL, j);
        const pool_hot *h = &hot[id];
        if (a < 1)
            FAIL(TCO_E_RANGE, F_ACCELERATORS, j);
        if (a > h->free || h->spot > jv->interruptible)
            FAIL(TCO_E_INCONSISTENT, a > h->free ? F_FREE : F_SPOT, j);
        int new_rack = 1, new_zone = 1, new_region = 1;
        for (int32_t i = 0; i < j; i++) {
            if (pool[i] == id) {
                y->other = i;
                FAIL(TCO_E_INCONSISTENT, F_REPEAT, j);
            }
            new_rack &= hot[pool[i]].rack != h->rack;
            new_zone &= hot[pool[i]].zone != h->zone;
            new_region &= hot[pool[i]].region != h->region;
        }
        nr += new_rack;
        nz += new_zone;
        ng += new_region;
        sum += a;
    }
    if (sum != n)
        FAIL(TCO_E_INCONSISTENT, F_SUM, 0);
    int32_t R = racks ? racks : nr, Z = zones ? zones : nz, G = regions ? regions : ng;
    if (racks < 0 || R < nr || R > n)
        FAIL(racks < 0 ? TCO_E_RANGE : TCO_E_INCONSISTENT, F_RACKS, 0);
    if (zones < 0 || Z < nz || Z > R)
        FAIL(zones < 0 ? TCO_E_RANGE : TCO_E_INCONSISTENT, F_ZONES, 0);
    if (regions < 0 || G < ng || G > Z)
        FAIL(regions < 0 ? TCO_E_RANGE : TCO_E_INCONSISTENT, F_REGIONS, 0);
    FAIL(out_of(start), F_START, 0); /* the one check left */
}

/* The sums over a placement's parts, part by part. */
typedef struct part_sums {
    double rate, idle_rate, spot_rate; /* cur/h, cur/h, 1/h */
    int32_t sum, nodes, nr, nz, ng;    /* accelerators, nodes, distinct racks, zones, regions */
    int32_t bad;                       /* 1 once a check has failed */
    int32_t ids[TCO_PLACEMENT_MAX_PARTS], rk[TCO_PLACEMENT_MAX_PARTS], zn[TCO_PLACEMENT_MAX_PARTS],
        rg[TCO_PLACEMENT_MAX_PARTS];
} part_sums;

/* Adds part j to *s: the placement's if j < parts, else exact zeros (the
 * batch form runs its loop to max_parts whatever the count, so that its
 * length does not depend on the data). An id that is not a pool reads
 * pool 0 and fails. */
HOT void add_part(part_sums *restrict s, int32_t j, int32_t parts, int32_t spot_ok, const pool_hot *restrict hot,
                  int32_t pool_count, const int32_t *restrict pool, const int32_t *restrict acc)
{
    int32_t active = j < parts;
    int32_t id = active ? pool[j] : 0, a = active ? acc[j] : 0;
    int32_t known = (uint32_t)id < (uint32_t)pool_count;
    const pool_hot *h = &hot[known ? id : 0];
    int32_t rack = h->rack, zone = h->zone, region = h->region, per_node = h->per_node;
    s->bad |= (known ^ 1) | (active & (a < 1)) | (a > h->free) | (active & (h->spot > spot_ok));
    int32_t new_rack = active, new_zone = active, new_region = active;
    for (int32_t i = 0; i < j; i++) {
        s->bad |= active & (s->ids[i] == id);
        new_rack &= s->rk[i] != rack;
        new_zone &= s->zn[i] != zone;
        new_region &= s->rg[i] != region;
    }
    s->ids[j] = id;
    s->rk[j] = rack;
    s->zn[j] = zone;
    s->rg[j] = region;
    s->nr += new_rack;
    s->nz += new_zone;
    s->ng += new_region;
    /* q = floor(a / per_node) without an integer division: (a + 0.5) /
     * per_node lies at least 0.5 / per_node >= 1/144 from any integer, and
     * the product with the rounded reciprocal is off by at most 3e-16 x
     * 1e7, so truncating it gives q exactly. */
    int32_t q = (int32_t)((a + 0.5) * h->inv_per_node);
    int32_t r = a - q * per_node;            /* a mod per_node */
    int32_t partial = r > 0;
    int32_t used = q + partial;              /* nodes the part occupies */
    int32_t left = (per_node - r) * partial; /* idle on its last node */
    s->sum += a;
    s->nodes += used;
    s->rate += a * h->rate;
    s->idle_rate += left * h->rate;
    s->spot_rate += used * h->spot_rate;
}

/* Checks one placement of a checked job and works out all but its
 * interruptions into *o. Returns TCO_OK, or a status with *y saying why.
 * The checks are folded into one flag without branches; only a placement
 * that fails them goes to prepare_fault for its status. `unrolled` (a
 * constant): loop, the number of parts to add, is a constant too, and the
 * compiler unrolls the loop and keeps the parts in registers. */
HOT int prepare(prep *restrict o, why *y, const pool_hot *restrict hot, int32_t pool_count,
                const consts *restrict k, const jobv *restrict jv, int unrolled, int32_t loop, int32_t parts,
                const int32_t *restrict pool, const int32_t *restrict acc, int32_t racks, int32_t zones,
                int32_t regions, double start)
{
    int rc;
    if ((uint32_t)parts - 1u >= TCO_PLACEMENT_MAX_PARTS || pool_count == 0) {
        rc = prepare_fault(y, hot, pool_count, jv, parts, pool, acc, racks, zones, regions, start);
        return rc ? rc : TCO_E_RANGE;
    }
    int32_t n = jv->n;
    part_sums s;
    s.rate = s.idle_rate = s.spot_rate = 0;
    s.sum = s.nodes = s.nr = s.nz = s.ng = s.bad = 0;
    if (unrolled) {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
        for (int32_t j = 0; j < loop; j++)
            add_part(&s, j, parts, jv->interruptible, hot, pool_count, pool, acc);
    } else {
        for (int32_t j = 0; j < loop; j++)
            add_part(&s, j, parts, jv->interruptible, hot, pool_count, pool, acc);
    }
    double rate = s.rate, idle_rate = s.idle_rate, spot_rate = s.spot_rate;
    int32_t sum = s.sum, nodes = s.nodes, nr = s.nr, nz = s.nz, ng = s.ng, bad = s.bad;
    bad |= (sum != n) | !((start >= 0) & (start <= MAX_HOURS));
    /* Spans counted from the pools nest by construction (a rack id lies in
     * one zone, a zone id in one region: tco_pools_freeze checks it); spans
     * given must hold the pools' and nest too. Spans counted from the pools
     * (at most 8 each) come from the table; spans given are checked, then
     * divided when the table stops. */
    double inv_r = inv_small[nr], inv_z = inv_small[nz], inv_g = inv_small[ng];
    if (racks | zones | regions) {
        int32_t R = racks ? racks : nr, Z = zones ? zones : nz, G = regions ? regions : ng;
        bad |= (racks < 0) | (R < nr) | (R > n) | (zones < 0) | (Z < nz) | (Z > R) | (regions < 0) | (G < ng) |
               (G > Z);
        if (!bad) {
            inv_r = inv(R);
            inv_z = inv(Z);
            inv_g = inv(G);
        }
    }
    if (bad) {
        rc = prepare_fault(y, hot, pool_count, jv, parts, pool, acc, racks, zones, regions, start);
        return rc ? rc : TCO_E_RANGE;
    }

    /* Spanning: the share 1 - 1/k of evenly spread traffic that crosses the
     * boundaries of k racks, zones, regions slows the communicating share. */
    double D = jv->D;
    double f = jv->c * (k->rack_slow * (1 - inv_r) + k->zone_slow * (1 - inv_z) + k->region_slow * (1 - inv_g));
    double extra = D * f; /* h the spans add */
    double compute = rate * D, slowdown = rate * extra;
    /* Traffic across zones within a region, and across regions. */
    double traffic = jv->X * n * D * ((inv_g - inv_z) * k->egress_zone + (1 - inv_g) * k->egress_region);
    double delay = jv->W * start;
    /* Interruptions per hour: failures of the parts, reclaims of spot nodes. */
    double lambda = n * k->inv_accel_mtbf + nodes * k->inv_node_mtbf + spot_rate;
    o->run0 = D + extra;
    o->compute = compute;
    o->slowdown = slowdown;
    o->traffic = traffic;
    o->delay = delay;
    o->fixed = compute + slowdown + traffic + delay;
    o->rate = rate;
    o->idle_rate = idle_rate;
    o->lambda = lambda;
    o->x = 0.5 * (jv->C * k->inv_write) * lambda;
    o->start = start;
    return TCO_OK;
}

/* Daly's expected wall time at Daly's interval and the figures that follow
 * from it (doc/model.md, 5), in units of the MTBF M = 1/lambda: with
 * x = delta / 2M, tau / M = u and (tau + delta) / M = v below are Daly's
 * interval and wall time divided through by M, which leaves no division on
 * the way to the exponentials. */
HOT int finish(tco_price *restrict o, why *y, const prep *restrict p, const consts *restrict k)
{
    double x = p->x, sx = root(x), g = sx * (2 + (2.0 / 9) * x);
    double u, v;
    if (x >= 1) { /* delta >= 2M: tau = M */
        u = 1;
        v = 1 + 2 * x;
    } else if (x > 0) {
        u = g - (4.0 / 3) * x;
        v = g + (2.0 / 3) * x;
    } else { /* no checkpoint: one segment of the whole run */
        u = v = p->run0 * p->lambda;
    }
    double r = k->restart * p->lambda;
    double er = r <= 1.0 / 64 ? 1 + r * (1 + r * (1.0 / 2 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720 + r * (1.0 / 5040)))))))
                : r <= 0.5 ? 1 + expm1_small(r) : exp(r); /* series to r^7/7!: remainder below 1e-19 */
    double em1 = v <= 0.5 ? expm1_small(v) : exp(v) - 1;
    double wall = er * (p->run0 / u) * em1;
    if (!(wall <= NEVER_HOURS))
        FAIL(TCO_E_INCONSISTENT, F_NEVER, 0);
    wall = wall < p->run0 ? p->run0 : wall; /* never below the run by a rounding */
    o->interruptions = p->rate * (wall - p->run0);
    o->stranded = p->idle_rate * wall;
    o->compute = p->compute;
    o->slowdown = p->slowdown;
    o->traffic = p->traffic;
    o->delay = p->delay;
    o->run_hours = wall;
    o->completion_hours = p->start + wall;
    /* cost = compute + slowdown + traffic + delay + interruptions + stranded,
     * added in that order: the parts known before the interruptions first. */
    o->cost = p->fixed + o->interruptions + o->stranded;
    return TCO_OK;
}

#undef FAIL

/* Checks and prices one placement into *o (size aside). Returns TCO_OK, or
 * a status with *y saying why and *o untouched. */
HOT int price_one(tco_price *o, why *y, const pool_hot *hot, int32_t pool_count, const consts *k,
                  const tco_job *job, int32_t parts, const int32_t *pool, const int32_t *acc, int32_t racks,
                  int32_t zones, int32_t regions, double start)
{
    jobv jv;
    prep p;
    int rc = job_check(&jv, y, job, k, INPUT_MAX_SIZE);
    if (rc == TCO_OK)
        rc = prepare(&p, y, hot, pool_count, k, &jv, 0, parts, parts, pool, acc, racks, zones, regions, start);
    if (rc == TCO_OK)
        rc = finish(o, y, &p, k);
    return rc;
}

static inline int frozen_handles(const tco_pools *s, const tco_topology *t, const tco_pricing *p, tco_error *err)
{
    if ((s->frozen & t->o.frozen & p->o.frozen) && t->o.kind == TCO_HANDLE_TOPOLOGY && p->o.kind == TCO_HANDLE_PRICING)
        return TCO_OK;
    int rc = tco__kind_check(&t->o, TCO_HANDLE_TOPOLOGY, err);
    if (rc || (rc = tco__kind_check(&p->o, TCO_HANDLE_PRICING, err)))
        return rc;
    if (!s->frozen)
        return tco__fail(err, TCO_E_NOT_FROZEN, "the pools must be frozen before pricing placements");
    if (!t->o.frozen)
        return tco__fail(err, TCO_E_NOT_FROZEN, "the topology must be frozen before pricing placements");
    if (!p->o.frozen)
        return tco__fail(err, TCO_E_NOT_FROZEN, "the pricing must be frozen before pricing placements");
    return TCO_OK;
}

int tco_placement_price(tco_price *out, const tco_pools *pools, const tco_topology *t, const tco_pricing *p,
                        const tco_job *job, const tco_placement *placement, tco_error *err)
{
    if (!out || !pools || !t || !p || !job || !placement)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL",
                         !out ? "out" : !pools ? "pools" : !t ? "topology" : !p ? "pricing" : !job ? "job" : "placement");
    if (out->size < PRICE_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_price", out->size, PRICE_V1_SIZE);
    if (placement->size < PLACEMENT_V1_SIZE || placement->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_placement", placement->size, PLACEMENT_V1_SIZE);
    int rc = input_size_check(placement, placement->size, sizeof *placement, "placement", err);
    if (rc || (rc = frozen_handles(pools, t, p, err)))
        return rc;
    consts k;
    consts_of(&k, &t->o, &p->o);
    /* Priced straight into the caller's struct when it is this version's
     * (nothing is written on failure), else through a copy. */
    tco_price r, *dst = out->size == sizeof r ? out : &r;
    why y;
    rc = price_one(dst, &y, pools->hot, pools->count, &k, job, placement->parts, placement->pool,
                   placement->accelerators, placement->racks, placement->zones, placement->regions,
                   placement->start_hours);
    if (rc)
        return tco__placement_explain(err, rc, &y, pools, t, p, job, placement);
    if (dst == &r) {
        r.size = sizeof r;
        sized_fill(out, &r, sizeof r);
    }
    return TCO_OK;
}

/* ---- the batch form --------------------------------------------------- */

/* A batch call, checked: what pricing any range of its placements reads. */
typedef struct batch_run {
    double *cost, *completion_hours;
    int32_t *status;
    const pool_hot *hot;
    int32_t pool_count;
    consts k;
    const char *jobs;
    size_t job_count, stride;
    const tco_placement_batch *b;
} batch_run;

/* Checks the arguments of a batch call into *r; r->b->count may be 0. */
static int batch_args(batch_run *r, double *cost, double *completion_hours, int32_t *status,
                      const tco_pools *pools, const tco_topology *t, const tco_pricing *p, const tco_job *jobs,
                      size_t job_count, const tco_placement_batch *batch, tco_error *err)
{
    if (!cost || !completion_hours || !status || !pools || !t || !p || !batch)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL",
                         !cost ? "cost" : !completion_hours ? "completion_hours" : !status ? "status"
                         : !pools ? "pools" : !t ? "topology" : !p ? "pricing" : "batch");
    if (batch->size < BATCH_V1_SIZE)
        return tco__fail(err, TCO_E_SIZE,
                         "tco_placement_batch.size = %zu is below %zu: set it to sizeof(tco_placement_batch)",
                         batch->size, (size_t)BATCH_V1_SIZE);
    int rc = input_size_check(batch, batch->size, sizeof *batch, "batch", err);
    if (rc || (rc = frozen_handles(pools, t, p, err)))
        return rc;
    size_t mp = batch->max_parts, count = batch->count;
    if (mp < 1 || mp > TCO_PLACEMENT_MAX_PARTS)
        return tco__fail_named(err, TCO_E_RANGE, "batch.max_parts", "batch.max_parts = %zu is out of range: allowed 1 to %d",
                               mp, TCO_PLACEMENT_MAX_PARTS);
    r->b = batch;
    if (count == 0)
        return TCO_OK;
    if (count > SIZE_MAX / sizeof(double) / mp)
        return tco__fail_named(err, TCO_E_RANGE, "batch.count", "batch.count = %zu placements of %zu parts cannot be addressed",
                               count, mp);
    if (!batch->job || !batch->pool || !batch->accelerators)
        return tco__fail(err, TCO_E_NULL, "batch.%s must not be NULL",
                         !batch->job ? "job" : !batch->pool ? "pool" : "accelerators");
    if (job_count && !jobs)
        return tco__fail(err, TCO_E_NULL, "jobs must not be NULL when job_count = %zu", job_count);
    /* jobs[] is stepped through by the size the caller's header gives a
     * tco_job, so that the array stays readable when the struct grows. */
    size_t stride = job_count ? jobs[0].size : sizeof(tco_job);
    if (stride < JOB_V1_SIZE || stride > INPUT_MAX_SIZE || stride % sizeof(double) != 0)
        return tco__fail_named(err, TCO_E_SIZE, "job.size",
                               "jobs[0].size = %zu must be sizeof(tco_job): %zu to %d, a multiple of %zu", stride,
                               (size_t)JOB_V1_SIZE, INPUT_MAX_SIZE, sizeof(double));
    r->cost = cost;
    r->completion_hours = completion_hours;
    r->status = status;
    r->hot = pools->hot;
    r->pool_count = pools->count;
    consts_of(&r->k, &t->o, &p->o);
    r->jobs = (const char *)jobs;
    r->job_count = job_count;
    r->stride = stride;
    return TCO_OK;
}

/* Prices placements [from, to) of a checked batch. In chunks: first every
 * placement of the chunk is checked and prepared, then the exponentials of
 * all of them are worked out, in a short loop whose iterations the
 * processor overlaps. Consecutive placements of one job check the job
 * once. Each placement's figures depend on its inputs alone, so any split
 * into ranges gives the same bits. */
HOT void price_parts(const batch_run *r, size_t from, size_t to, size_t mp)
{
    const tco_placement_batch *b = r->b;
    const consts *k = &r->k;
    const int32_t *racks = b->racks, *zones = b->zones, *regions = b->regions;
    const double *starts = b->start_hours;
    enum { CHUNK = 32 };
    prep pp[CHUNK];
    jobv jv;
    int job_rc = TCO_E_INDEX;
    uint32_t last = UINT32_MAX;
    why y;
    for (size_t base = from; base < to; base += CHUNK) {
        size_t m = to - base < CHUNK ? to - base : CHUNK;
        for (size_t c = 0; c < m; c++) {
            size_t i = base + c;
            const int32_t *pool = b->pool + i * mp, *acc = b->accelerators + i * mp;
            int32_t parts = 0, more = 1;
            for (size_t j = 0; j < mp; j++) /* up to the first part of 0 */
                parts += more &= acc[j] != 0;
            uint32_t j = (uint32_t)b->job[i];
#if defined(__GNUC__)
            if (i + 8 < to) { /* the job of a later placement on its way to the cache, for jobs in random order */
                uint32_t ahead = (uint32_t)b->job[i + 8];
                __builtin_prefetch(r->jobs + (ahead < r->job_count ? ahead : 0) * r->stride);
            }
#endif
            if (j != last) {
                last = j;
                job_rc = j < r->job_count
                             ? job_check(&jv, &y, (const tco_job *)(r->jobs + j * r->stride), k, r->stride)
                             : TCO_E_INDEX;
            }
            r->status[i] = job_rc ? job_rc
                                  : prepare(&pp[c], &y, r->hot, r->pool_count, k, &jv, 1, (int32_t)mp, parts, pool,
                                            acc, racks ? racks[i] : 0, zones ? zones[i] : 0,
                                            regions ? regions[i] : 0, starts ? starts[i] : 0);
        }
        for (size_t c = 0; c < m; c++) {
            size_t i = base + c;
            tco_price o;
            int st = r->status[i];
            if (st == TCO_OK)
                st = r->status[i] = finish(&o, &y, &pp[c], k);
            r->cost[i] = st ? NAN : o.cost;
            r->completion_hours[i] = st ? NAN : o.completion_hours;
        }
    }
}

/* One copy of the loop per max_parts, each with its parts unrolled. */
static void price_range(const batch_run *r, size_t from, size_t to)
{
    switch (r->b->max_parts) {
#define MAX_PARTS(n)                     \
    case n:                              \
        price_parts(r, from, to, n); \
        break
        MAX_PARTS(1); MAX_PARTS(2); MAX_PARTS(3); MAX_PARTS(4); MAX_PARTS(5); MAX_PARTS(6); MAX_PARTS(7);
        MAX_PARTS(8);
#undef MAX_PARTS
    }
}

int tco_placement_price_batch(double *cost, double *completion_hours, int32_t *status, const tco_pools *pools,
                              const tco_topology *t, const tco_pricing *p, const tco_job *jobs, size_t job_count,
                              const tco_placement_batch *batch, tco_error *err)
{
    batch_run r;
    int rc = batch_args(&r, cost, completion_hours, status, pools, t, p, jobs, job_count, batch, err);
    if (rc == TCO_OK && batch->count)
        price_range(&r, 0, batch->count);
    return rc;
}

/* ---- the batch form on threads --------------------------------------- */

#define MAX_THREADS 256
#define SHARE_MIN 16384 /* placements worth a thread: some 0.3 ms, against tens of us to start one */

typedef struct share {
    const batch_run *r;
    size_t from, to;
} share;

static void *price_share(void *arg)
{
    const share *s = arg;
    price_range(s->r, s->from, s->to);
    return NULL;
}

int tco_placement_price_batch_mt(double *cost, double *completion_hours, int32_t *status, const tco_pools *pools,
                                 const tco_topology *t, const tco_pricing *p, const tco_job *jobs,
                                 size_t job_count, const tco_placement_batch *batch, int32_t threads,
                                 tco_error *err)
{
    if (threads < 0)
        return tco__fail_named(err, TCO_E_RANGE, "threads", "threads = %d is out of range: allowed 0 (one per core) or more",
                               (int)threads);
    batch_run r;
    int rc = batch_args(&r, cost, completion_hours, status, pools, t, p, jobs, job_count, batch, err);
    size_t count = rc ? 0 : batch->count;
    if (count == 0)
        return rc;
    size_t T = (size_t)threads;
    if (T == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        T = cores > 0 ? (size_t)cores : 1;
    }
    size_t most = (count + SHARE_MIN - 1) / SHARE_MIN;
    T = T < MAX_THREADS ? T : MAX_THREADS;
    T = T < most ? T : most;
    /* Shares of a multiple of 8 placements (a cache line of costs), the
     * first in the calling thread; a share whose thread cannot start runs
     * here afterwards. */
    size_t per = ((count + T - 1) / T + 7) / 8 * 8;
    share s[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    int started[MAX_THREADS];
    for (size_t i = 0; i < T; i++) {
        s[i].r = &r;
        s[i].from = i * per < count ? i * per : count;
        s[i].to = (i + 1) * per < count ? (i + 1) * per : count;
    }
    for (size_t i = 1; i < T; i++)
        started[i] = pthread_create(&tid[i], NULL, price_share, &s[i]) == 0;
    price_share(&s[0]);
    for (size_t i = 1; i < T; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        else
            price_share(&s[i]);
    }
    return TCO_OK;
}
