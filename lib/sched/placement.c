/* Placement pricing, the scheduler's hot path: what one job costs on one
 * candidate placement (doc/model.md, "5 Placement pricing"; how to call it:
 * doc/scheduling.md).
 *
 * Placements are priced a chunk at a time, in lanes (struct of arrays):
 * job_check checks a job, gather checks a placement and writes what it
 * reads from the job, the pools and the placement into its lane, and
 * price_lanes works out every figure of the chunk, two lanes to an SSE2
 * register, without a branch but for the rare exponential past its
 * series. tco_placement_price is a chunk of one; tco_placement_price_batch
 * checks a job once for consecutive placements of it and unrolls the loop
 * over parts for the batch's max_parts (one body, specialised for each
 * constant); the threaded batch runs the same loop over a share of the
 * placements on each thread. The same operations on the same inputs, lane
 * by lane: the forms agree to the last bit (tested).
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

/* The hot path's pieces are inlined into both entry points where the code
 * is optimised; unoptimised (a debug or coverage build), each is one body,
 * whose branches count once. */
#if defined(__GNUC__) && defined(__OPTIMIZE__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

/* Lanes: the kernel's arithmetic on LANES placements at once, in SSE2's
 * two-double registers where there are some, else on one double. The same
 * IEEE operations lane by lane, so the same bits either way. vm is a
 * comparison's mask (all ones or zero a lane; 1 or 0 in one lane). */
#if defined(__GNUC__) && defined(__SSE2__)
#define LANES 2
typedef double vd __attribute__((vector_size(16)));
typedef long long vm __attribute__((vector_size(16)));
HOT vd vsel(vm m, vd a, vd b) /* m ? a : b, lane by lane */
{
    return (vd)(((vm)a & m) | ((vm)b & ~m));
}
/* The square root, correctly rounded as IEEE 754 requires of sqrt(): the
 * same bits as sqrt(), in one instruction where sqrt() is a call into libm
 * (it may have to set errno). */
HOT vd vroot(vd x)
{
    return (vd)_mm_sqrt_pd((__m128d)x);
}
HOT int any(vm m) /* some lane set */
{
    return _mm_movemask_pd((__m128d)m) != 0;
}
HOT vd splat(double s) /* s in every lane */
{
    vd v = { s, s };
    return v;
}
#else
#define LANES 1
typedef double vd;
typedef int vm;
HOT vd vsel(vm m, vd a, vd b)
{
    return m ? a : b;
}
HOT vd vroot(vd x)
{
    return sqrt(x);
}
HOT int any(vm m)
{
    return m;
}
HOT vd splat(double s)
{
    return s;
}
#endif

HOT vd vload(const double *p)
{
    vd v;
    memcpy(&v, p, sizeof v);
    return v;
}

HOT void vstore(double *p, vd v)
{
    memcpy(p, &v, sizeof v);
}

/* e^v - 1 for 0 <= v <= 0.5: the series to v^14 / 14!, whose remainder is
 * below 5e-17 of the sum, evaluated in Estrin's scheme (short chains of
 * dependent operations). */
HOT vd expm1_small(vd v)
{
    vd v2 = v * v, v4 = v2 * v2, v8 = v4 * v4;
    vd q0 = 1.0 / 2 + v * (1.0 / 6), q1 = 1.0 / 24 + v * (1.0 / 120), q2 = 1.0 / 720 + v * (1.0 / 5040);
    vd q3 = 1.0 / 40320 + v * (1.0 / 362880), q4 = 1.0 / 3628800 + v * (1.0 / 39916800);
    vd q5 = 1.0 / 479001600 + v * (1.0 / 6227020800);
    vd r0 = q0 + q1 * v2, r1 = q2 + q3 * v2, r2 = q4 + q5 * v2 + v4 * (1.0 / 87178291200);
    return v + v2 * (r0 + r1 * v4 + r2 * v8);
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

/* A chunk of placements, figure by figure (struct of arrays): lane c of
 * each array is placement c's. gather fills the inputs from the job, the
 * pools and the placement; price_lanes works out the rest. */
enum { CHUNK = 32 };
typedef struct lanes {
    double n[CHUNK], D[CHUNK], c[CHUNK], C[CHUNK], X[CHUNK], W[CHUNK]; /* the job's */
    double nodes[CHUNK], rate[CHUNK], idle_rate[CHUNK], spot_rate[CHUNK]; /* -, cur/h, cur/h, 1/h */
    double inv_r[CHUNK], inv_z[CHUNK], inv_g[CHUNK];                     /* 1 / racks, zones, regions */
    double start[CHUNK];                                                 /* h */
    /* out: cur, but run and completion, h */
    double compute[CHUNK], slowdown[CHUNK], traffic[CHUNK], delay[CHUNK], interruptions[CHUNK],
        stranded[CHUNK], run[CHUNK], completion[CHUNK], cost[CHUNK];
} lanes;

/* Lane c with inputs of exact zeros: a placement that failed its checks
 * is priced with the others (a NaN nobody reads), on defined values. */
HOT void blank(lanes *L, int c)
{
    L->n[c] = L->D[c] = L->c[c] = L->C[c] = L->X[c] = L->W[c] = 0;
    L->nodes[c] = L->rate[c] = L->idle_rate[c] = L->spot_rate[c] = 0;
    L->inv_r[c] = L->inv_z[c] = L->inv_g[c] = L->start[c] = 0;
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

#undef FAIL

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

/* Checks one placement of a checked job and writes what the kernel reads
 * into lane c of *L. Returns TCO_OK, or a status with *y saying why and
 * the lane blank. The checks are folded into one flag without branches;
 * only a placement that fails them goes to prepare_fault for its status.
 * `loop`, the number of parts to add, is max_parts in the batch (a
 * constant there: the compiler unrolls the loop and keeps the parts in
 * registers) and the placement's parts in the single form. */
HOT int gather(lanes *restrict L, int c, why *y, const pool_hot *restrict hot, int32_t pool_count,
               const jobv *restrict jv, int32_t loop, int32_t parts, const int32_t *restrict pool,
               const int32_t *restrict acc, int32_t racks, int32_t zones, int32_t regions, double start)
{
    if ((uint32_t)parts - 1u >= TCO_PLACEMENT_MAX_PARTS || pool_count == 0) {
        blank(L, c);
        return prepare_fault(y, hot, pool_count, jv, parts, pool, acc, racks, zones, regions, start);
    }
    int32_t n = jv->n;
    part_sums s;
    s.rate = s.idle_rate = s.spot_rate = 0;
    s.sum = s.nodes = s.nr = s.nz = s.ng = s.bad = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (int32_t j = 0; j < loop; j++)
        add_part(&s, j, parts, jv->interruptible, hot, pool_count, pool, acc);
    int32_t nr = s.nr, nz = s.nz, ng = s.ng, bad = s.bad;
    bad |= (s.sum != n) | !((start >= 0) & (start <= MAX_HOURS));
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
        blank(L, c);
        return prepare_fault(y, hot, pool_count, jv, parts, pool, acc, racks, zones, regions, start);
    }
    L->n[c] = n;
    L->D[c] = jv->D;
    L->c[c] = jv->c;
    L->C[c] = jv->C;
    L->X[c] = jv->X;
    L->W[c] = jv->W;
    L->nodes[c] = s.nodes;
    L->rate[c] = s.rate;
    L->idle_rate[c] = s.idle_rate;
    L->spot_rate[c] = s.spot_rate;
    L->inv_r[c] = inv_r;
    L->inv_z[c] = inv_z;
    L->inv_g[c] = inv_g;
    L->start[c] = start;
    return TCO_OK;
}

/* e^v - minus in the lanes whose v is beyond the series, v > 0.5: libm's,
 * one lane at a time; the other lanes keep e. Rare: Daly's v passes 0.5
 * with a checkpoint pause near an eighth of the MTBF, or a run without
 * checkpoints past half of it; r with a restart past half of it. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static vd exp_lanes(vd e, vd v, double minus)
{
    double ev[LANES], vv[LANES];
    vstore(ev, e);
    vstore(vv, v);
    for (int l = 0; l < LANES; l++)
        if (vv[l] > 0.5)
            ev[l] = exp(vv[l]) - minus;
    return vload(ev);
}

/* e^r in the lanes where r > 1/64, beyond the short series er holds: the
 * longer series to 0.5, libm's exp past it. Taken where a restart is more
 * than a 64th of the MTBF (spot pools that reclaim often, say). */
static vd exp_beyond(vd er, vd r)
{
    return exp_lanes(vsel((vm)(r <= 1.0 / 64), er, 1.0 + expm1_small(r)), r, 0);
}

/* A lane's input: the vector at p, or for the single form (`one`, a
 * constant) p's value in every lane, read as it was just written, which
 * the processor forwards from its store. */
HOT vd in(const double *p, int one)
{
    return one ? splat(*p) : vload(p);
}

/* Prices lanes [0, m) of *L (doc/model.md, 5), LANES placements at a
 * time and without a branch but for the rare exponential beyond the
 * series: the spans, traffic, delay and rate of interruptions, then Daly's
 * expected wall time at Daly's interval and what follows from it. Daly's
 * formulas are taken in units of the MTBF M = 1/lambda: with x = delta /
 * 2M, tau / M = u and (tau + delta) / M = v below are Daly's interval and
 * wall time divided through by M, which leaves no division on the way to
 * the exponentials. A lane that never finishes (a wall time beyond
 * NEVER_HOURS, or NaN) has that run. The lanes past m up to a multiple of
 * LANES are blanked; the single form (`one`: m is 1) fills them all
 * with its placement. */
HOT void price_lanes(lanes *restrict L, int m, int one, const consts *restrict k)
{
    for (int c = m; c % LANES && !one; c++)
        blank(L, c);
    for (int c = 0; c < m; c += LANES) {
        vd n = in(L->n + c, one), D = in(L->D + c, one), cs = in(L->c + c, one), C = in(L->C + c, one);
        vd X = in(L->X + c, one), W = in(L->W + c, one), nodes = in(L->nodes + c, one), rate = in(L->rate + c, one);
        vd idle_rate = in(L->idle_rate + c, one), spot_rate = in(L->spot_rate + c, one);
        vd inv_r = in(L->inv_r + c, one), inv_z = in(L->inv_z + c, one), inv_g = in(L->inv_g + c, one);
        vd start = in(L->start + c, one);
        /* Spanning: the share 1 - 1/k of evenly spread traffic that crosses
         * the boundaries of k racks, zones, regions slows the communicating
         * share. Traffic across zones within a region, and across regions. */
        vd f = cs * (k->rack_slow * (1.0 - inv_r) + k->zone_slow * (1.0 - inv_z) + k->region_slow * (1.0 - inv_g));
        vd extra = D * f; /* h the spans add */
        vd compute = rate * D, slowdown = rate * extra;
        vd traffic = X * n * D * ((inv_g - inv_z) * k->egress_zone + (1.0 - inv_g) * k->egress_region);
        vd delay = W * start;
        /* Interruptions per hour: failures of the parts, reclaims of spot nodes. */
        vd lambda = n * k->inv_accel_mtbf + nodes * k->inv_node_mtbf + spot_rate;
        vd run0 = D + extra, fixed = compute + slowdown + traffic + delay;
        vd x = 0.5 * (C * k->inv_write) * lambda; /* checkpoint pause / (2 x MTBF) */
        vd g = vroot(x) * (2.0 + (2.0 / 9) * x), seg = run0 * lambda;
        /* delta >= 2M: tau = M; no checkpoint: one segment of the whole run */
        vm at_most_m = (vm)(x >= 1.0), some = (vm)(x > 0.0);
        vd u = vsel(at_most_m, splat(1), vsel(some, g - (4.0 / 3) * x, seg));
        vd v = vsel(at_most_m, 1.0 + 2.0 * x, vsel(some, g + (2.0 / 3) * x, seg));
        /* e^r for r <= 1/64: the series to r^7/7!, remainder below 1e-19 */
        vd r = k->restart * lambda;
        vd er = 1.0 + r * (1.0 + r * (1.0 / 2 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720 + r * (1.0 / 5040)))))));
        if (any((vm)(r > 1.0 / 64)))
            er = exp_beyond(er, r);
        vd em1 = expm1_small(v);
        if (any((vm)(v > 0.5)))
            em1 = exp_lanes(em1, v, 1);
        vd wall = er * (run0 / u) * em1;
        wall = vsel((vm)(wall < run0), run0, wall); /* never below the run by a rounding */
        vd interruptions = rate * (wall - run0), stranded = idle_rate * wall;
        vstore(L->compute + c, compute);
        vstore(L->slowdown + c, slowdown);
        vstore(L->traffic + c, traffic);
        vstore(L->delay + c, delay);
        vstore(L->interruptions + c, interruptions);
        vstore(L->stranded + c, stranded);
        vstore(L->run + c, wall);
        vstore(L->completion + c, start + wall);
        /* cost = compute + slowdown + traffic + delay + interruptions +
         * stranded, added in that order: the parts known before the
         * interruptions first. */
        vstore(L->cost + c, fixed + interruptions + stranded);
    }
}

HOT int finishes(const lanes *L, int c)
{
    return L->run[c] <= NEVER_HOURS;
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
    /* The batch's kernel on a chunk of one placement. */
    jobv jv;
    lanes L;
    why y;
    rc = job_check(&jv, &y, job, &k, INPUT_MAX_SIZE);
    if (rc == TCO_OK)
        rc = gather(&L, 0, &y, pools->hot, pools->count, &jv, placement->parts, placement->parts, placement->pool,
                    placement->accelerators, placement->racks, placement->zones, placement->regions,
                    placement->start_hours);
    if (rc == TCO_OK) {
        price_lanes(&L, 1, 1, &k);
        if (!finishes(&L, 0)) {
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
    dst->cost = L.cost[0];
    dst->completion_hours = L.completion[0];
    dst->run_hours = L.run[0];
    dst->compute = L.compute[0];
    dst->slowdown = L.slowdown[0];
    dst->traffic = L.traffic[0];
    dst->interruptions = L.interruptions[0];
    dst->stranded = L.stranded[0];
    dst->delay = L.delay[0];
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

/* Prices placements [from, to) of a checked batch, a chunk at a time:
 * first every placement of the chunk is checked and gathered into its
 * lane, then the chunk is priced in one pass over its lanes. Consecutive
 * placements of one job check the job once. Each placement's figures
 * depend on its inputs alone, so any split into ranges gives the same
 * bits. */
HOT void price_parts(const batch_run *r, size_t from, size_t to, int32_t mp)
{
    const tco_placement_batch *b = r->b;
    const consts *k = &r->k;
    const int32_t *racks = b->racks, *zones = b->zones, *regions = b->regions;
    const double *starts = b->start_hours;
    lanes L;
    jobv jv;
    int job_rc = TCO_E_INDEX;
    uint32_t last = UINT32_MAX;
    why y;
    for (size_t base = from; base < to; base += CHUNK) {
        int m = to - base < CHUNK ? (int)(to - base) : CHUNK;
        for (int c = 0; c < m; c++) {
            size_t i = base + (size_t)c;
            const int32_t *pool = b->pool + i * (size_t)mp, *acc = b->accelerators + i * (size_t)mp;
            int32_t parts = 0, more = 1;
            for (int32_t j = 0; j < mp; j++) /* up to the first part of 0 */
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
            if (job_rc)
                blank(&L, c);
            r->status[i] = job_rc ? job_rc
                                  : gather(&L, c, &y, r->hot, r->pool_count, &jv, mp, parts, pool, acc,
                                           racks ? racks[i] : 0, zones ? zones[i] : 0, regions ? regions[i] : 0,
                                           starts ? starts[i] : 0);
        }
        price_lanes(&L, m, 0, k);
        for (int c = 0; c < m; c++) {
            size_t i = base + (size_t)c;
            int32_t st = r->status[i];
            st = st ? st : finishes(&L, c) ? TCO_OK : TCO_E_INCONSISTENT;
            r->status[i] = st;
            r->cost[i] = st ? NAN : L.cost[c];
            r->completion_hours[i] = st ? NAN : L.completion[c];
        }
    }
}

/* One copy of the loop per max_parts, each with its parts unrolled: one
 * body, specialised by the compiler for each constant. */
static void price_range(const batch_run *r, size_t from, size_t to)
{
    switch (r->b->max_parts) {
#define MAX_PARTS(n)                 \
    case n:                          \
        price_parts(r, from, to, n); \
        break
        MAX_PARTS(1); MAX_PARTS(2); MAX_PARTS(3); MAX_PARTS(4); MAX_PARTS(5); MAX_PARTS(6); MAX_PARTS(7);
#undef MAX_PARTS
    default: /* TCO_PLACEMENT_MAX_PARTS: batch_args allows no more */
        price_parts(r, from, to, TCO_PLACEMENT_MAX_PARTS);
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
