/* The sensitivity tornado (doc/model.md, section 14): every numeric
 * parameter of the table swung down and up on a private variant of the
 * scenario, one at a time, and ranked by how far the total moves. The
 * table is walked, not listed, so a parameter added to params.def is swung
 * without a line here. */
#include <math.h>
#include <string.h>

#include "decide/decide.h"

#define SWING_V1_SIZE V1_SIZE(tco_swing, spread)
#define DEFAULT_SHARE 0.1

static int is_numeric(const param_row *r)
{
    return r->type == TCO_TYPE_REAL || r->type == TCO_TYPE_INT;
}

/* Where parameter r, at v, swings to, clipped to its bounds (*clipped set)
 * and then rounded when whole numbers are asked for. A 0 has no relative
 * swing: it stays (in the table, 0 mostly means "not given" or "none", and
 * a share of the range, 1e31 FLOPs, would rank nonsense first). */
static double swing_to(const param_row *r, double v, double share, int up, int32_t *clipped)
{
    double x = v * (up ? 1 + share : 1 - share);
    if (x < r->lo) {
        x = r->lo;
        *clipped = 1;
    } else if (x > r->hi) {
        x = r->hi;
        *clipped = 1;
    }
    return r->type == TCO_TYPE_INT ? round(x) : x;
}

/* One side of a swing priced on the variant, which keeps the value (the
 * caller resets it). Refusals are per row, so no message is formatted. */
static int price_at(variant *v, int ix, double x, double *total, double *unit)
{
    tco_estimate e;
    int rc = tco__variant_set(v, ix, x, NULL);
    if (rc == TCO_OK)
        rc = tco__variant_estimate(&e, v, NULL);
    if (rc == TCO_OK) {
        *total = e.total;
        *unit = e.cost_per_effective_accelerator_hour;
    }
    return rc;
}

/* The row of parameter ix: both sides, each priced only when it moved. */
static void swing_row(tco_swing *s, variant *v, int ix, double share, const tco_estimate *base, const rates *listed)
{
    const param_row *r = &tco__params[ix];
    /* A rate left to the accelerator swings about the list price it stands for. */
    double given = tco__rate_value(listed, ix, v->given[r->handle - 1]->v[ix]);
    memset(s, 0, sizeof *s);
    s->size = sizeof *s;
    s->key = r->key;
    s->low_value = swing_to(r, given, share, 0, &s->clipped);
    s->high_value = swing_to(r, given, share, 1, &s->clipped);
    s->low_total = s->high_total = base->total;
    s->low_unit = s->high_unit = base->cost_per_effective_accelerator_hour;
    int rc = TCO_OK, changed = 0;
    if (s->low_value != given) {
        changed = 1;
        rc = price_at(v, ix, s->low_value, &s->low_total, &s->low_unit);
    }
    if (rc == TCO_OK && s->high_value != given) {
        changed = 1;
        rc = price_at(v, ix, s->high_value, &s->high_total, &s->high_unit);
    }
    if (changed)
        tco__variant_reset(v, ix);
    if (rc != TCO_OK) { /* tco.h: the code and zeros, whichever side it was */
        memset(s, 0, sizeof *s);
        s->size = sizeof *s;
        s->key = r->key;
        s->status = rc;
        return;
    }
    s->spread = fabs(s->high_total - s->low_total);
}

int tco_sensitivity(tco_swing *out, size_t out_size, size_t cap, size_t *n, double share, const tco_topology *t,
                    const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    int rc;
    if (!n || (cap > 0 && !out))
        return tco__fail(err, TCO_E_NULL, !n ? "n must not be NULL" : "out must not be NULL when cap = %zu", cap);
    int bad;
    if (cap > 0 && (bad = tco__stride_check(out_size, SWING_V1_SIZE, "out_size", "tco_swing", err)))
        return bad;
    if (!isfinite(share))
        return tco__fail_named(err, TCO_E_NOT_FINITE, "share", "share must be a finite number, not %g", share);
    if (share < 0 || share > 1)
        return tco__fail_named(err, TCO_E_RANGE, "share", "share = %g is out of range: allowed 0 to 1 (0 stands for %g)",
                               share, DEFAULT_SHARE);
    if ((rc = tco__frozen_inputs(t, w, p, err)))
        return rc;
    if (share == 0)
        share = DEFAULT_SHARE;

    /* The scenario as given must price: every swing is measured against it,
     * and a refusal here is the caller's to see, with its message. */
    tco_estimate base;
    rates listed;
    if ((rc = tco__estimate(&base, &t->o, &w->o, &p->o, err)))
        return rc;
    tco__rates(&listed, &t->o, &p->o);
    size_t count = 0;
    for (int ix = 0; ix < IX_COUNT; ix++)
        count += (size_t)is_numeric(&tco__params[ix]);
    size_t rows = cap < count ? cap : count; /* x out_size (65,536 at most): far from overflowing */
    if (rows == 0) {
        *n = count;
        return TCO_OK;
    }

    /* Every row is needed to rank the first: all are kept here, on the
     * stack, and the ranking sorts their indexes. */
    variant v;
    tco__variant_init(&v, t, w, p);
    tco_swing swing[IX_COUNT];
    int order[IX_COUNT];
    size_t m = 0;
    for (int ix = 0; ix < IX_COUNT; ix++)
        if (is_numeric(&tco__params[ix])) {
            swing_row(&swing[m], &v, ix, share, &base, &listed);
            order[m] = (int)m;
            m++;
        }
    /* Insertion sort, largest spread first: stable, so equal spreads keep
     * table order, and about n^2 / 4 moves of an int for ~130 rows. */
    for (size_t i = 1; i < m; i++) {
        int k = order[i];
        size_t j = i;
        for (; j > 0 && swing[order[j - 1]].spread < swing[k].spread; j--)
            order[j] = order[j - 1];
        order[j] = k;
    }
    /* Row by row through char pointers and memcpy: out_size need not keep
     * the caller's rows aligned for a tco_swing. */
    for (size_t i = 0; i < rows; i++) {
        char *row = (char *)out + i * out_size;
        memcpy(row, &out_size, sizeof out_size);
        sized_fill(row, &swing[order[i]], sizeof swing[0]);
    }
    *n = count;
    return TCO_OK;
}
