/* Placement pricing, the scheduler's hot path: what one job costs on one
 * candidate placement (doc/model.md, "5 Placement pricing"; how to call it:
 * doc/scheduling.md).
 *
 * Placements are priced in groups of lanes by one kernel (kernel.c),
 * compiled here for three widths: one lane for tco_placement_price, two
 * (SSE2) and four (AVX2, chosen at run time where the processor has it)
 * for the batch. job_check checks a job; the batch copies a chunk of
 * placements into lanes (struct of arrays), checking each job once for
 * consecutive placements of it, then group() checks each group of lanes,
 * loading its pools' rows (four lanes: whole, and transposed), and prices
 * it, without a branch but for the rare exponential past its series. The batch's loop over
 * parts is unrolled for its max_parts (one body, specialised for each
 * constant); the threaded batch runs the same loop over a share of the
 * placements on each thread. The same operations on the same inputs, lane
 * by lane, at every width: the forms agree to the last bit (tested). The
 * kernel is compiled with no contraction into fused multiply-adds (C99's
 * default in gcc; the AVX2 width is not allowed FMA), which would change
 * the last bits by the width.
 *
 * Nothing here allocates, takes a lock, calls into libm on the common path
 * or keeps state (but the tests' switch of width): any number of threads
 * may price on shared frozen handles. The checks of a job and of a placement are folded into one flag
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
#include <immintrin.h>
#endif

#if defined(__GNUC__)
#define COLD __attribute__((noinline, cold))
#else
#define COLD
#endif

/* The status of a double that failed its range check. */
static int out_of(double v)
{
    return isfinite(v) ? TCO_E_RANGE : TCO_E_NOT_FINITE;
}

/* Which of the job's fields is wrong, checked in the order the message
 * names them. Off the hot path: only called once a check has failed. */
COLD static int job_fault(why *y, const tco_job *job, const consts *k, size_t limit)
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

/* The hot path's pieces are inlined into both entry points where the code
 * is optimised; unoptimised (a debug or coverage build), each is one body,
 * whose branches count once. */
#if defined(__GNUC__) && defined(__OPTIMIZE__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

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
        return job_fault(y, job, k, limit); /* read no field the caller's struct may lack */
    }
    int32_t n = job->accelerators, interruptible = job->interruptible;
    double D = job->duration_hours, c = job->comm_share, C = job->checkpoint_bytes;
    double X = job->traffic_gb_per_accel_hour, W = job->delay_cost_per_hour;
    int ok = ((uint32_t)n - 1u < k->max_accelerators) & ((uint32_t)interruptible <= 1) & (D >= MIN_HOURS) &
             (D <= MAX_HOURS) & (c >= 0) & (c <= 1) & (C >= 0) & (C <= k->max_checkpoint_bytes) & (X >= 0) &
             (X <= MAX_TRAFFIC_GB) & (W >= 0) & (W <= MAX_DELAY_COST);
    if (!ok)
        return job_fault(y, job, k, limit);
    o->n = n;
    o->interruptible = interruptible;
    o->D = D;
    o->c = c;
    o->C = C;
    o->X = X;
    o->W = W;
    return TCO_OK;
}

#define FAIL(code, f, j)    \
    do {                    \
        y->field = (f);     \
        y->part = (j);      \
        return (code);      \
    } while (0)

/* Which check of a placement failed, in the order the message names them:
 * off the hot path, only called once gather's combined check has failed.
 * Returns the status, with *y saying why. */
COLD static int prepare_fault(why *y, const pool_hot *hot, int32_t pool_count, const jobv *jv, int32_t parts,
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

#undef FAIL

/* A chunk of the batch's placements, lane by lane (struct of arrays):
 * lane c of each array is placement c's, part j of it at j * CHUNK + c. */
enum { CHUNK = 32 };
typedef struct chunk {
    int32_t n[CHUNK], spot_ok[CHUNK], job_rc[CHUNK]; /* the job's, and its status */
    int32_t racks[CHUNK], zones[CHUNK], regions[CHUNK];
    int32_t pool[TCO_PLACEMENT_MAX_PARTS * CHUNK], acc[TCO_PLACEMENT_MAX_PARTS * CHUNK];
    double D[CHUNK], c[CHUNK], C[CHUNK], X[CHUNK], W[CHUNK], start[CHUNK]; /* the job's, but start (h) */
} chunk;

/* Where a group's inputs are (kernel.c): lane l's at index l of each
 * array, its part j's pool and accelerators j * part_step further on. */
typedef struct src {
    const int32_t *n, *spot_ok, *pool, *acc, *racks, *zones, *regions;
    const double *D, *c, *C, *X, *W, *start;
    ptrdiff_t part_step;
} src;

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

/* Placement i of the batch, with its checked job (zeros if the job failed,
 * job_rc), into lane c: all but its spans and start time. */
HOT void fill_lane(chunk *restrict L, int c, const tco_placement_batch *restrict b, size_t i, int32_t mp,
                   const jobv *restrict jv, int job_rc)
{
    L->n[c] = jv->n;
    L->spot_ok[c] = jv->interruptible;
    L->job_rc[c] = job_rc;
    L->D[c] = jv->D;
    L->c[c] = jv->c;
    L->C[c] = jv->C;
    L->X[c] = jv->X;
    L->W[c] = jv->W;
    for (int32_t j = 0; j < mp; j++) {
        L->pool[j * CHUNK + c] = b->pool[i * (size_t)mp + (size_t)j];
        L->acc[j * CHUNK + c] = b->accelerators[i * (size_t)mp + (size_t)j];
    }
}

/* The spans and start times of placements [i, i + m) into lanes [0, m):
 * what the batch gives, else zeros, which stay from the first chunk. */
HOT void fill_spans(chunk *restrict L, const tco_placement_batch *restrict b, size_t i, int m, int first)
{
    const int32_t *given[3] = { b->racks, b->zones, b->regions };
    int32_t *lanes[3] = { L->racks, L->zones, L->regions };
    for (int x = 0; x < 3; x++)
        if (given[x])
            memcpy(lanes[x], given[x] + i, (size_t)m * sizeof(int32_t));
        else if (first)
            memset(lanes[x], 0, sizeof L->racks);
    if (b->start_hours)
        memcpy(L->start, b->start_hours + i, (size_t)m * sizeof(double));
    else if (first)
        memset(L->start, 0, sizeof L->start);
}

/* Lane `from` copied into lane c: the lanes past a chunk's last placement,
 * up to a whole group, are priced on its values, which nobody reads. */
static void copy_lane(chunk *L, int c, int from, int32_t mp)
{
    L->n[c] = L->n[from];
    L->spot_ok[c] = L->spot_ok[from];
    L->job_rc[c] = L->job_rc[from];
    L->D[c] = L->D[from];
    L->c[c] = L->c[from];
    L->C[c] = L->C[from];
    L->X[c] = L->X[from];
    L->W[c] = L->W[from];
    for (int32_t j = 0; j < mp; j++) {
        L->pool[j * CHUNK + c] = L->pool[j * CHUNK + from];
        L->acc[j * CHUNK + c] = L->acc[j * CHUNK + from];
    }
    L->racks[c] = L->racks[from];
    L->zones[c] = L->zones[from];
    L->regions[c] = L->regions[from];
    L->start[c] = L->start[from];
}

/* The status of placement i of the batch (lane c), which failed group()'s
 * checks: off the hot path. Its parts run up to the first of 0
 * accelerators. */
COLD static int batch_fault(const batch_run *r, size_t i, int32_t mp, const chunk *L, int c)
{
    const int32_t *pool = r->b->pool + i * (size_t)mp, *acc = r->b->accelerators + i * (size_t)mp;
    int32_t parts = 0;
    while (parts < mp && acc[parts] != 0)
        parts++;
    jobv jv;
    memset(&jv, 0, sizeof jv);
    jv.n = L->n[c];
    jv.interruptible = L->spot_ok[c];
    why y;
    return prepare_fault(&y, r->hot, r->pool_count, &jv, parts, pool, acc, L->racks[c], L->zones[c], L->regions[c],
                         L->start[c]);
}

/* Pools without a pool: every id fails, on a row of zeros. */
static const pool_hot no_pool;

HOT const pool_hot *rows_of(const tco_pools *s)
{
    return s->count ? s->hot : &no_pool;
}

/* The kernel at each width: one lane (the single form), two (the batch on
 * any processor), four (the batch where AVX2 is, chosen at run time). */
#define LANES 1
#define W(name) name##_1
#include "sched/kernel.c"
#undef LANES
#undef W
#define LANES 2
#define W(name) name##_2
#include "sched/kernel.c"
#undef LANES
#undef W
#if defined(__x86_64__) && defined(__GNUC__)
#define KERNEL_AVX2 1
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#define LANES 4
#define W(name) name##_4
#include "sched/kernel.c"
#undef LANES
#undef W
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

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
    return tco__fail(err, TCO_E_NOT_FROZEN, "the pricing must be frozen before pricing placements"); /* the one left */
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
    /* The kernel on a group of one lane, whose parts are checked first. */
    jobv jv;
    why y;
    figures_1 f;
    rc = job_check(&jv, &y, job, &k, INPUT_MAX_SIZE);
    if (rc == TCO_OK) {
        int32_t parts = placement->parts;
        const pool_hot *hot = rows_of(pools);
        src in = { &jv.n, &jv.interruptible, placement->pool, placement->accelerators, &placement->racks,
                   &placement->zones, &placement->regions, &jv.D, &jv.c, &jv.C, &jv.X, &jv.W,
                   &placement->start_hours, 1 };
        if ((uint32_t)parts - 1u >= TCO_PLACEMENT_MAX_PARTS || group_1(&f, &in, parts, hot, pools->count, &k))
            rc = prepare_fault(&y, hot, pools->count, &jv, parts, placement->pool, placement->accelerators,
                               placement->racks, placement->zones, placement->regions, placement->start_hours);
        else if (!(f.run <= NEVER_HOURS)) {
            y.field = F_NEVER;
            y.part = 0;
            rc = TCO_E_INCONSISTENT;
        }
    }
    if (rc)
        return tco__placement_explain(err, rc, &y, pools, t, p, job, placement);
    /* Straight into the caller's struct when it is this version's, else
     * through a copy; nothing is written on failure. */
    tco_price r, *dst = out->size == sizeof r ? out : &r;
    dst->cost = f.cost;
    dst->completion_hours = f.completion;
    dst->run_hours = f.run;
    dst->compute = f.compute;
    dst->slowdown = f.slowdown;
    dst->traffic = f.traffic;
    dst->interruptions = f.interruptions;
    dst->stranded = f.stranded;
    dst->delay = f.delay;
    if (dst == &r) {
        r.size = sizeof r;
        sized_fill(out, &r, sizeof r);
    }
    return TCO_OK;
}

/* ---- the batch form --------------------------------------------------- */

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
    r->hot = rows_of(pools);
    r->pool_count = pools->count;
    consts_of(&r->k, &t->o, &p->o);
    r->jobs = (const char *)jobs;
    r->job_count = job_count;
    r->stride = stride;
    return TCO_OK;
}

/* Set by the tests, to compare the widths: the batch on two lanes only. */
static int two_lanes_only;

void tco__placement_two_lanes(int on)
{
    two_lanes_only = on;
}

/* Prices placements [from, to) of a checked batch at the widest width
 * the processor runs (the same bits at any). */
static void price_range(const batch_run *r, size_t from, size_t to)
{
#if defined(KERNEL_AVX2)
    if (!two_lanes_only && __builtin_cpu_supports("avx2")) {
        price_range_4(r, from, to);
        return;
    }
#endif
    price_range_2(r, from, to);
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
