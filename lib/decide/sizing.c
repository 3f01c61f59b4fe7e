/* Inverse sizing (doc/model.md, section 13): the job's accelerators, or its
 * mfu, that meet a deadline, a budget or both, priced on a private variant
 * of the scenario.
 *
 * Accelerators are searched on the grid k = 1..K of k x step, step the
 * least common multiple of accelerators_per_node and tensor x pipeline x
 * expert parallel (whole nodes the layout divides), K the limit over step.
 * What the model is makes the search a bisection:
 *
 * - What the estimate refuses is an interval's outside: below a first
 *   size lo that runs (the state does not fit, fewer data-parallel groups
 *   than sites) and above a last one (fewer than one micro-batch per
 *   group, a run that never finishes, a fabric the radix cannot build).
 *   The small-size refusals do not depend on the price class.
 * - Over the sizes that run, wall(n) is unimodal: the work falls as 1/n
 *   (down to the hot tier's bandwidth) while failures grow with n.
 * - total(n) is affine in the held time while the cluster is as given,
 *   so unimodal with it; once the cluster is raised to the job it grows
 *   with n x wall, and an owned fabric steps up where it takes a tier.
 *   The grid is cut there (find_cuts) and the total taken as unimodal
 *   within each piece.
 *
 * So a least is found by bisection on the slope (two estimates a step, or
 * two in all when it still falls at the limit), and each edge by bisection
 * on the side where the value is monotone. Nothing loops over the grid.
 * An owned fabric also steps a little with each leaf switch; the total's
 * searches may stop at such a step within a piece (about 0.1 % of the
 * total with the default prices), while every answer still meets its
 * targets. The mfu is found by
 * Brent's method in x = 1 / mfu, where the wall time is nearly linear. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "decide/decide.h"

#define T(k) (t->v[IX_##k])
#define W(k) (w->v[IX_##k])
#define P(k) (p->v[IX_##k])

/* Both structs are new in 1.1: their first version is the whole struct. */
#define TARGET_V1_SIZE V1_SIZE(tco_target, tolerance)
#define SIZING_V1_SIZE V1_SIZE(tco_sizing, closest_total)

#define DEFAULT_TOLERANCE 1e-9
#define TOLERANCE_MIN 1e-14 /* tighter than a double of x can resolve */
#define TOLERANCE_MAX 0.1
#define CACHE 64            /* recent points: the searches revisit their last few */
#define CLASSES 4           /* tco_price_class: on demand, reserved, spot, owned */
#define CUTS 24             /* the cluster as given, and MAX_TIERS of the fabric, with room */

enum { WALL, TOTAL }; /* what a search reads of a priced point */

/* One priced point: grid index k (accelerators k x step) or an mfu, under
 * a price class (-1: the shares as given). */
typedef struct point {
    int cls;
    double x;
    int rc;             /* TCO_OK, or why the estimate refused it */
    double wall, total; /* h of one run; cur, all runs */
    double mfu;         /* achieved */
} point;

typedef struct sizer {
    variant v;
    int solve;
    double N, step;  /* the cluster's accelerators as given; the grid's step */
    int dirty[3];    /* a handle whose last prepare failed: set it again */
    long lo, K;      /* the grid: sizes 1..K, the first lo that runs */
    long cut[CUTS];  /* pieces of the grid (find_cuts) */
    int cuts;        /* 0: not found yet */
    int cls;         /* the class the variant holds */
    int evals;       /* estimates priced */
    int cached, next;
    point cache[CACHE];
} sizer;

/* What one class's search found. */
typedef struct outcome {
    int runs;                /* 0: nothing within the limits runs in this class */
    int met;                 /* sol meets every target given */
    point sol;               /* the solution, or the closest achievable run */
    point fastest, cheapest; /* when not met: the shortest and the cheapest runs */
    int deadline_met;        /* both given, not met: dl is the cheapest run meeting the deadline */
    point dl;
} outcome;

/* ---- the variant ------------------------------------------------------ */

/* Sets parameter ix unless the variant holds the value already: each set
 * prepares its handle again (the topology sizes its fabric). */
static int put(sizer *s, int ix, double value, tco_error *err)
{
    int h = tco__params[ix].handle - 1;
    if (!s->dirty[h] && s->v.h[h].v[ix] == value)
        return TCO_OK;
    int rc = tco__variant_set(&s->v, ix, value, err);
    s->dirty[h] = rc != TCO_OK;
    return rc;
}

/* The topology's shares for a price class (-1: as given). The reserved
 * share comes down before the spot share goes up, so that the two never
 * pass 1 on the way. */
static int set_class(sizer *s, int cls)
{
    const tco_obj *t = s->v.given[0];
    double owned = cls < 0 ? T(OWNED_SHARE) : cls == TCO_CLASS_OWNED;
    double reserved = cls < 0 ? T(RESERVED_SHARE) : cls == TCO_CLASS_RESERVED;
    double spot = cls < 0 ? T(SPOT_SHARE) : cls == TCO_CLASS_SPOT;
    int rc = put(s, IX_RESERVED_SHARE, fmin(reserved, s->v.h[0].v[IX_RESERVED_SHARE]), NULL);
    if (rc == TCO_OK)
        rc = put(s, IX_SPOT_SHARE, spot, NULL);
    if (rc == TCO_OK)
        rc = put(s, IX_RESERVED_SHARE, reserved, NULL);
    if (rc == TCO_OK)
        rc = put(s, IX_OWNED_SHARE, owned, NULL);
    s->cls = cls;
    return rc;
}

/* The variant at x: the job of k x step accelerators on a cluster raised
 * to it when it is larger, or the mfu. */
static int load(sizer *s, double x, tco_error *err)
{
    if (s->solve == TCO_SOLVE_MFU)
        return put(s, IX_MFU, x, err);
    double n = x * s->step;
    int rc = put(s, IX_ACCELERATORS, fmax(s->N, n), err);
    return rc ? rc : put(s, IX_JOB_ACCELERATORS, n, err);
}

static void remember(sizer *s, const point *pt)
{
    s->cache[s->next] = *pt;
    s->next = (s->next + 1) % CACHE;
    if (s->cached < CACHE)
        s->cached++;
}

/* The point x under the variant's class, priced once. Refusals are
 * expected in a search: no message is formatted. */
static point price(sizer *s, double x)
{
    for (int i = 0; i < s->cached; i++)
        if (s->cache[i].x == x && s->cache[i].cls == s->cls)
            return s->cache[i];
    point pt = { s->cls, x, TCO_OK, 0, 0, 0 };
    tco_estimate e;
    pt.rc = load(s, x, NULL);
    if (pt.rc == TCO_OK)
        pt.rc = tco__variant_estimate(&e, &s->v, NULL);
    if (pt.rc == TCO_OK) {
        pt.wall = e.wall_hours;
        pt.total = e.total;
        pt.mfu = e.achieved_mfu;
    }
    s->evals++;
    remember(s, &pt);
    return pt;
}

/* Why x does not run, as the caller's error, after what. */
static int explain(sizer *s, double x, const char *what, tco_error *err)
{
    tco_error why = TCO_ERROR_INIT;
    tco_estimate e;
    int rc = load(s, x, &why);
    if (rc == TCO_OK)
        rc = tco__variant_estimate(&e, &s->v, &why);
    if (rc == TCO_OK) /* cannot happen: x was refused */
        return tco__fail(err, TCO_E_INCONSISTENT, "%s", what);
    return tco__refail(err, &why, "%s: %s", what, why.message);
}

static double value(const point *pt, int which)
{
    return which == WALL ? pt->wall : pt->total;
}

static int meets(const point *pt, int which, double limit)
{
    return pt->rc == TCO_OK && value(pt, which) <= limit;
}

/* ---- accelerators: bisection on the grid ------------------------------- */

/* The leftmost index of the least value over [a, b], where a runs and a
 * refusal is past the last size that runs: bisection on the slope. */
static long least(sizer *s, int which, long a, long b)
{
    point pb = price(s, (double)b);
    if (pb.rc == TCO_OK && b > a) {
        point before = price(s, (double)(b - 1));
        if (before.rc == TCO_OK && value(&before, which) > value(&pb, which))
            return b; /* still falling at the limit: the common case */
    }
    while (a < b) {
        long m = a + (b - a) / 2;
        point pm = price(s, (double)m);
        if (pm.rc != TCO_OK) {
            b = m - 1; /* m > a, which runs */
            continue;
        }
        point next = price(s, (double)(m + 1));
        if (next.rc != TCO_OK || !(value(&next, which) < value(&pm, which)))
            b = m;
        else
            a = m + 1;
    }
    return a;
}

/* The first index of [a, b] meeting limit, where b meets it and the
 * points go from missing to meeting. */
static long first_meeting(sizer *s, int which, double limit, long a, long b)
{
    while (a < b) {
        long m = a + (b - a) / 2;
        point pm = price(s, (double)m);
        if (meets(&pm, which, limit))
            b = m;
        else
            a = m + 1;
    }
    return a;
}

/* The last index of [a, b] meeting limit, where a meets it and the points
 * go from meeting to missing. */
static long last_meeting(sizer *s, int which, double limit, long a, long b)
{
    while (a < b) {
        long m = b - (b - a) / 2;
        point pm = price(s, (double)m);
        if (meets(&pm, which, limit))
            a = m;
        else
            b = m - 1;
    }
    return a;
}

/* The total steps where the cluster is raised past the topology's and
 * where the raised cluster's fabric takes another tier (an owned fabric
 * is priced): between those cuts it is taken as unimodal. cut[0] = 1, the
 * pieces are [cut[i], cut[i + 1] - 1], the last cut K + 1. The tiers come
 * from the fabric the variant's topology sizes, by bisection: they only
 * grow with the cluster. Found once, when a search of the total first
 * needs them (a deadline alone never does). */
static double tiers_at(sizer *s, long k)
{
    return put(s, IX_ACCELERATORS, fmax(s->N, (double)k * s->step), NULL) ? HUGE_VAL
                                                                           : s->v.h[0].d.fabric.tiers;
}

static void find_cuts(sizer *s)
{
    long given = (long)floor(s->N / s->step); /* the last size on the cluster as given */
    s->cuts = 0;
    s->cut[s->cuts++] = 1;
    if (given < s->K) {
        long a = given + 1;
        if (given >= 1)
            s->cut[s->cuts++] = a;
        double ta = tiers_at(s, a), last = tiers_at(s, s->K);
        while (ta < last && s->cuts < CUTS - 1) {
            long l = a + 1, h = s->K;
            while (l < h) {
                long m = l + (h - l) / 2;
                if (tiers_at(s, m) > ta)
                    h = m;
                else
                    l = m + 1;
            }
            s->cut[s->cuts++] = a = l;
            ta = tiers_at(s, a);
        }
    }
    s->cut[s->cuts] = s->K + 1;
}

/* Piece i of [a, b] (the cuts found): 0 when it is empty. */
static int piece(const sizer *s, int i, long a, long b, long *pa, long *pb)
{
    *pa = s->cut[i] > a ? s->cut[i] : a;
    *pb = s->cut[i + 1] - 1 < b ? s->cut[i + 1] - 1 : b;
    return *pa <= *pb;
}

/* The cheapest size of [a, b] (a runs): the least of each piece's least.
 * A piece whose first size is refused is past the last size that runs. */
static long least_total(sizer *s, long a, long b)
{
    long best = a, pa, pb;
    if (s->cuts == 0)
        find_cuts(s);
    for (int i = 0; i < s->cuts; i++) {
        if (!piece(s, i, a, b, &pa, &pb))
            continue;
        if (price(s, (double)pa).rc != TCO_OK)
            break;
        long m = least(s, TOTAL, pa, pb);
        if (price(s, (double)m).total < price(s, (double)best).total)
            best = m;
    }
    return best;
}

/* The first size of [a, b] within the budget B, or 0: piece by piece, the
 * first within it up to the piece's cheapest size, where the total falls. */
static long first_within(sizer *s, double B, long a, long b)
{
    long pa, pb;
    if (s->cuts == 0)
        find_cuts(s);
    for (int i = 0; i < s->cuts; i++) {
        if (!piece(s, i, a, b, &pa, &pb))
            continue;
        point first = price(s, (double)pa);
        if (first.rc != TCO_OK)
            break;
        if (meets(&first, TOTAL, B))
            return pa;
        long m = least(s, TOTAL, pa, pb);
        point pm = price(s, (double)m);
        if (meets(&pm, TOTAL, B))
            return first_meeting(s, TOTAL, B, pa, m);
    }
    return 0;
}

/* The last size of [a, b] within the budget B, or 0: piece by piece from
 * the right, the last within it past the piece's cheapest size. */
static long last_within(sizer *s, double B, long a, long b)
{
    long pa, pb;
    if (s->cuts == 0)
        find_cuts(s);
    for (int i = s->cuts - 1; i >= 0; i--) {
        if (!piece(s, i, a, b, &pa, &pb) || price(s, (double)pa).rc != TCO_OK)
            continue;
        long m = least(s, TOTAL, pa, pb);
        point pm = price(s, (double)m);
        if (meets(&pm, TOTAL, B))
            return last_meeting(s, TOTAL, B, m, pb);
    }
    return 0;
}

/* The fewest accelerators meeting the deadline D (h) and the budget B
 * (cur; INFINITY: none) in the variant's class. The sizes meeting the
 * deadline are one run of the grid, [nd, nd2], around the fastest. */
static void grid_by_deadline(outcome *o, sizer *s, double D, double B)
{
    long fast = least(s, WALL, s->lo, s->K);
    point pf = price(s, (double)fast);
    o->fastest = pf;
    if (!meets(&pf, WALL, D)) {
        o->sol = pf;
        o->cheapest = price(s, (double)least_total(s, s->lo, s->K));
        return;
    }
    /* Up to the fastest size the wall time falls: the first meeting it. */
    long nd = first_meeting(s, WALL, D, s->lo, fast);
    point pd = price(s, (double)nd);
    if (meets(&pd, TOTAL, B)) {
        o->met = 1;
        o->sol = pd;
        return;
    }
    long nd2 = last_meeting(s, WALL, D, fast, s->K);
    long u = first_within(s, B, nd, nd2);
    if (u > 0) {
        o->met = 1;
        o->sol = price(s, (double)u);
        return;
    }
    /* Nothing meets both: the cheapest run that meets the deadline. */
    o->deadline_met = 1;
    o->sol = o->dl = price(s, (double)least_total(s, nd, nd2));
    o->cheapest = price(s, (double)least_total(s, s->lo, s->K));
}

/* The fastest run within the budget B (cur): the most accelerators up to
 * the fastest size within it, or the fewest past it, whichever is faster
 * (fewer accelerators on a tie). */
static void grid_by_budget(outcome *o, sizer *s, double B)
{
    long fast = least(s, WALL, s->lo, s->K);
    point pf = price(s, (double)fast);
    if (meets(&pf, TOTAL, B)) {
        o->met = 1;
        o->sol = pf;
        return;
    }
    long l = fast > s->lo ? last_within(s, B, s->lo, fast - 1) : 0;
    long r = fast < s->K ? first_within(s, B, fast + 1, s->K) : 0;
    if (l == 0 && r == 0) {
        o->fastest = pf;
        o->sol = o->cheapest = price(s, (double)least_total(s, s->lo, s->K));
        return;
    }
    o->met = 1;
    point pl = price(s, (double)l), pr = price(s, (double)r);
    o->sol = l == 0 ? pr : r == 0 || pl.wall <= pr.wall ? pl : pr;
}

/* ---- mfu: Brent's zeroin in x = 1 / mfu ------------------------------- */

/* What root's search prices: g(x) = value(1 / x) - limit, which rises
 * with x, and the points of zeroin's three slots. */
typedef struct excess {
    sizer *s;
    int which;
    double limit;
    point at[3];
} excess;

static double excess_of(const excess *q, const point *p)
{
    return p->rc == TCO_OK ? value(p, q->which) - q->limit : HUGE_VAL;
}

/* g at x, which moves to the 1 / mfu of the mfu priced. */
static double excess_at(void *ctx, double *x, int slot)
{
    excess *q = ctx;
    q->at[slot] = price(q->s, 1 / *x);
    *x = 1 / q->at[slot].x;
    return excess_of(q, &q->at[slot]);
}

/* The least mfu meeting limit, between meet (which meets it) and miss
 * (which does not), within rel: zeroin in x = 1 / mfu, where the wall time
 * is nearly linear. Returns the end of the last bracket that meets. */
static point root(sizer *s, int which, double limit, const point *meet, const point *miss, double rel)
{
    excess q = { s, which, limit, { *meet, *miss } };
    int slot = tco__zeroin(excess_at, &q, 1 / meet->x, excess_of(&q, meet), 1 / miss->x, excess_of(&q, miss), rel);
    return q.at[slot];
}

/* The least mfu meeting the deadline D (h) and the budget B (cur;
 * INFINITY: none) on the job as given, up to hi. */
static void mfu_by_deadline(outcome *o, sizer *s, double D, double B, const point *ph, double lo, double rel)
{
    o->fastest = o->cheapest = *ph; /* both fall as the mfu rises */
    if (!meets(ph, WALL, D)) {
        o->sol = *ph;
        return;
    }
    point pl = price(s, lo);
    point pd = meets(&pl, WALL, D) ? pl : root(s, WALL, D, ph, &pl, rel);
    if (meets(&pd, TOTAL, B)) {
        o->met = 1;
        o->sol = pd;
    } else if (meets(ph, TOTAL, B)) {
        o->met = 1;
        o->sol = root(s, TOTAL, B, ph, &pd, rel);
    } else {
        o->deadline_met = 1;
        o->sol = o->dl = *ph;
    }
}

static void mfu_by_budget(outcome *o, sizer *s, double B, const point *ph, double lo, double rel)
{
    o->fastest = o->cheapest = *ph;
    if (!meets(ph, TOTAL, B)) {
        o->sol = *ph;
        return;
    }
    point pl = price(s, lo);
    o->met = 1;
    o->sol = meets(&pl, TOTAL, B) ? pl : root(s, TOTAL, B, ph, &pl, rel);
}

/* ---- the call --------------------------------------------------------- */

static int check_amount(double v, const char *name, double hi, tco_error *err)
{
    if (!isfinite(v))
        return tco__fail_named(err, TCO_E_NOT_FINITE, name, "%s must be a finite number, not %g", name, v);
    if (v < 0 || v > hi)
        return tco__fail_named(err, TCO_E_RANGE, name, "%s = %g is out of range: allowed 0 (none) to %g", name, v,
                               hi);
    return TCO_OK;
}

static int check_target(const tco_target *g, tco_error *err)
{
    int rc = input_size_check(g, g->size, sizeof *g, "target", err);
    if (rc)
        return rc;
    if (g->solve != TCO_SOLVE_ACCELERATORS && g->solve != TCO_SOLVE_MFU)
        return tco__fail_named(err, TCO_E_RANGE, "target.solve",
                               "target.solve = %d is no tco_solve: allowed %d (accelerators) or %d (mfu)",
                               (int)g->solve, TCO_SOLVE_ACCELERATORS, TCO_SOLVE_MFU);
    if ((rc = check_amount(g->deadline_days, "target.deadline_days", HUGE_VAL, err)) ||
        (rc = check_amount(g->budget, "target.budget", HUGE_VAL, err)) ||
        (rc = check_amount(g->max_accelerators, "target.max_accelerators", tco__params[IX_ACCELERATORS].hi, err)))
        return rc;
    if (g->deadline_days == 0 && g->budget == 0)
        return tco__fail_named(err, TCO_E_INCONSISTENT, "target.deadline_days",
                               "neither target.deadline_days nor target.budget is given: give one or both");
    if (!isfinite(g->tolerance))
        return tco__fail_named(err, TCO_E_NOT_FINITE, "target.tolerance",
                               "target.tolerance must be a finite number, not %g", g->tolerance);
    if (g->tolerance != 0 && !(g->tolerance >= TOLERANCE_MIN && g->tolerance <= TOLERANCE_MAX))
        return tco__fail_named(err, TCO_E_RANGE, "target.tolerance",
                               "target.tolerance = %g is out of range: allowed %g to %g, or 0 (%g)", g->tolerance,
                               TOLERANCE_MIN, TOLERANCE_MAX, DEFAULT_TOLERANCE);
    return TCO_OK;
}

/* Whole numbers below 2^53, as doubles. */
static double lcm(double a, double b)
{
    double x = a, y = b;
    while (y > 0) {
        double r = fmod(x, y);
        x = y;
        y = r;
    }
    return a / x * b;
}

/* The classes the pricing table prices: on demand always, reserved and
 * spot when they have a rate no dearer (a class without a list price has
 * 0: not offered), owned when the hardware has a price. */
static int classes_of(int *cls, const tco_obj *t, const tco_obj *p)
{
    rates r;
    tco__rates(&r, t, p);
    int n = 0;
    cls[n++] = TCO_CLASS_ON_DEMAND;
    if (r.reserved > 0 && r.reserved <= r.on_demand)
        cls[n++] = TCO_CLASS_RESERVED;
    if (r.spot > 0 && r.spot <= r.on_demand)
        cls[n++] = TCO_CLASS_SPOT;
    if (!(r.missing >> TCO_CLASS_OWNED & 1) && r.capex + P(CAPEX_PER_SERVER) > 0)
        cls[n++] = TCO_CLASS_OWNED;
    return n;
}

/* The time must come from mfu for mfu to be solved. */
static int mfu_sets_time(const tco_estimate *base, const tco_obj *w, tco_error *err)
{
    int ix = base->flags & TCO_FLAG_TIME_FROM_RUN_ACCELERATOR_HOURS ? IX_RUN_ACCELERATOR_HOURS
             : base->flags & TCO_FLAG_TIME_FROM_ACHIEVED_FLOPS     ? IX_ACHIEVED_FLOPS_PER_ACCELERATOR
             : base->flags & TCO_FLAG_TIME_FROM_HFU                ? IX_HFU
                                                                   : -1;
    if (ix < 0)
        return TCO_OK;
    return tco__fail_param(err, TCO_E_INCONSISTENT, ix,
                           "target.solve = mfu, but %s = %g sets the compute time, not mfu: set it to 0 to solve for mfu",
                           tco__params[ix].name, w->v[ix]);
}

/* The accelerators search's setup: the grid, and the first size that runs
 * (found with the shares as given, where the workload's own job runs). */
static int grid_setup(sizer *s, const tco_target *g, const tco_estimate *base, tco_error *err)
{
    const tco_obj *t = s->v.given[0], *w = s->v.given[1];
    double split = W(TENSOR_PARALLEL) * W(PIPELINE_PARALLEL) * W(EXPERT_PARALLEL);
    s->step = lcm(T(ACCELERATORS_PER_NODE), split);
    double limit = g->max_accelerators > 0 ? g->max_accelerators : s->N;
    if (s->step > limit) {
        if (g->max_accelerators > 0)
            return tco__fail_named(err, TCO_E_RANGE, "target.max_accelerators",
                                   "target.max_accelerators = %g is below the grid's step of %g accelerators (whole nodes of %g that tensor x pipeline x expert parallel = %g divides)",
                                   g->max_accelerators, s->step, T(ACCELERATORS_PER_NODE), split);
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_ACCELERATORS,
                               "accelerators = %g is below the grid's step of %g accelerators (whole nodes of %g that tensor x pipeline x expert parallel = %g divides): allow more with target.max_accelerators",
                               s->N, s->step, T(ACCELERATORS_PER_NODE), split);
    }
    s->K = (long)floor(limit / s->step);
    /* The size is the unknown: data_parallel follows from it. */
    int rc = put(s, IX_DATA_PARALLEL, 0, err);
    if (rc)
        return rc;

    /* A size that runs, next to the workload's own job (which ran). */
    double n0 = base->job_accelerators;
    long down = (long)floor(n0 / s->step), up = (long)ceil(n0 / s->step);
    down = down < 1 ? 1 : down > s->K ? s->K : down;
    up = up > s->K ? s->K : up; /* at least 1: n0 > 0 */
    if ((double)down * s->step == n0) { /* the base estimate is that point */
        point pt = { -1, (double)down, TCO_OK, base->wall_hours, base->total, base->achieved_mfu };
        remember(s, &pt);
    }
    long anchor = down;
    if (price(s, (double)down).rc != TCO_OK) {
        anchor = up;
        if (up == down || price(s, (double)up).rc != TCO_OK)
            return explain(s, (double)up, "no job of whole nodes near the workload's runs within the limits", err);
    }
    /* Refusals below the anchor are all of small sizes: bisection. */
    long a = 1, b = anchor;
    while (a < b) {
        long m = a + (b - a) / 2;
        if (price(s, (double)m).rc == TCO_OK)
            b = m;
        else
            a = m + 1;
    }
    s->lo = a;
    return TCO_OK;
}

int tco_size(tco_sizing *out, const tco_target *target, const tco_topology *t, const tco_workload *w,
             const tco_pricing *p, tco_error *err)
{
    int rc;
    if (!out || !target)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "target");
    if (out->size < SIZING_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_sizing", out->size, SIZING_V1_SIZE);
    if (target->size < TARGET_V1_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, "target.size",
                               "target.size = %zu is below %zu: set it to sizeof(tco_target)", target->size,
                               (size_t)TARGET_V1_SIZE);
    if ((rc = check_target(target, err)) || (rc = tco__frozen_inputs(t, w, p, err)))
        return rc;

    /* The scenario as given must price: its refusal is the caller's. */
    tco_estimate base;
    if ((rc = tco__estimate(&base, &t->o, &w->o, &p->o, err)))
        return rc;
    int by_mfu = target->solve == TCO_SOLVE_MFU;
    if (by_mfu && (rc = mfu_sets_time(&base, &w->o, err)))
        return rc;

    sizer s;
    tco__variant_init(&s.v, t, w, p);
    s.solve = target->solve;
    s.N = t->o.v[IX_ACCELERATORS];
    s.step = 1;
    s.dirty[0] = s.dirty[1] = s.dirty[2] = 0;
    s.cls = -1;
    s.evals = s.cached = s.next = 0;

    double D = target->deadline_days > 0 ? target->deadline_days * 24 : INFINITY;
    double B = target->budget > 0 ? target->budget : INFINITY;
    double rel = target->tolerance > 0 ? target->tolerance : DEFAULT_TOLERANCE;
    int both = target->deadline_days > 0 && target->budget > 0;
    int cls[CLASSES] = { -1 }, n_cls = both ? classes_of(cls, &t->o, &p->o) : 1;

    s.lo = s.K = 1;
    s.cuts = 0;
    double mfu_lo = tco__params[IX_MFU].lo, mfu_hi = tco__params[IX_MFU].hi;
    if (!by_mfu && (rc = grid_setup(&s, target, &base, err)))
        return rc;
    if (by_mfu) /* hfu = mfu x hardware / model FLOPs may not pass 1 */
        mfu_hi = fmin(mfu_hi, base.model_flops_per_token / base.hardware_flops_per_token);

    outcome o[CLASSES];
    int refused = -1; /* a class in which nothing runs, to explain */
    for (int i = 0; i < n_cls; i++) {
        memset(&o[i], 0, sizeof o[i]);
        if ((rc = set_class(&s, cls[i])))
            return rc; /* shares of 0 and 1 pass the checks: cannot happen */
        point first = price(&s, by_mfu ? mfu_hi : (double)s.lo);
        if (by_mfu && first.rc != TCO_OK) { /* hfu past 1 in the last bit */
            mfu_hi *= 1 - 8 * DBL_EPSILON;
            first = price(&s, mfu_hi);
        }
        if (first.rc != TCO_OK) {
            refused = i;
            continue;
        }
        o[i].runs = 1;
        if (by_mfu && target->deadline_days > 0)
            mfu_by_deadline(&o[i], &s, D, B, &first, mfu_lo, rel);
        else if (by_mfu)
            mfu_by_budget(&o[i], &s, B, &first, mfu_lo, rel);
        else if (target->deadline_days > 0)
            grid_by_deadline(&o[i], &s, D, B);
        else
            grid_by_budget(&o[i], &s, B);
    }

    /* The cheapest class meeting both; else the cheapest run meeting the
     * deadline; else the fastest run. */
    int pick = -1, kind = 0;
    for (int i = 0; i < n_cls; i++) {
        if (!o[i].runs)
            continue;
        int k = o[i].met ? 3 : o[i].deadline_met ? 2 : 1;
        int by = k == 1 ? WALL : TOTAL;
        if (k > kind || (k == kind && value(&o[i].sol, by) < value(&o[pick].sol, by))) {
            pick = i;
            kind = k;
        }
    }
    if (pick < 0) {
        (void)set_class(&s, cls[refused]);
        return explain(&s, by_mfu ? mfu_hi : (double)s.lo, "no run within the limits can be priced", err);
    }

    tco_sizing r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    const point *sol = &o[pick].sol;
    r.feasible = o[pick].met;
    r.price_class = both ? cls[pick] : -1;
    r.iterations = s.evals;
    r.accelerators = by_mfu ? base.job_accelerators : sol->x * s.step;
    /* the workload's mfu when it sets the time, else what the run achieves */
    r.mfu = by_mfu ? sol->x : base.flags & TCO_FLAG_TIME_FROM_MFU ? w->o.v[IX_MFU] : sol->mfu;
    r.wall_days = sol->wall / 24;
    r.total = sol->total;
    if (!r.feasible) {
        r.closest_wall_days = r.closest_total = INFINITY;
        for (int i = 0; i < n_cls; i++)
            if (o[i].runs) {
                r.closest_wall_days = fmin(r.closest_wall_days, o[i].fastest.wall / 24);
                r.closest_total = fmin(r.closest_total, o[i].cheapest.total);
            }
    }
    sized_fill(out, &r, sizeof r);
    return TCO_OK;
}
