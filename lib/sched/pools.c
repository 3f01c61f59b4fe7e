/* Pools of capacity for placement pricing (doc/scheduling.md): built with
 * add, checked together and made immutable by freeze. Every field of a pool
 * is checked when it is added; what pricing reads is worked out then too,
 * so that the hot path only loads it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"

#define POOL_V1_SIZE V1_SIZE(tco_pool, interruptions_per_node_hour)
#define POOLS_MAX (1 << 24) /* far beyond any cluster; keeps ids and sizes small */

static const char *const class_names[] = { "on_demand", "reserved", "spot", "owned" };

const char *tco_price_class_name(int32_t c)
{
    return c >= 0 && c < (int32_t)(sizeof class_names / sizeof class_names[0]) ? class_names[c] : NULL;
}

int tco_pools_new(tco_pools **out, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    tco_pools *s = calloc(1, sizeof *s);
    if (!s)
        return tco__fail(err, TCO_E_NOMEM, "no memory for a pools handle");
    *out = s;
    return TCO_OK;
}

void tco_pools_free(tco_pools *pools)
{
    if (!pools)
        return;
    free(pools->pool);
    free(pools->hot);
    free(pools);
}

/* A number of the pool within [lo, hi] (the whole fields are integers). */
static int pool_number(tco_error *err, const char *field, double v, double lo, double hi, const char *unit)
{
    if (!isfinite(v))
        return tco__fail_named(err, TCO_E_NOT_FINITE, field, "%s = %g must be a finite number from %.10g to %.10g%s",
                               field, v, lo, hi, unit);
    if (v < lo || v > hi)
        return tco__fail_named(err, TCO_E_RANGE, field, "%s = %g is out of range: allowed %.10g to %.10g%s",
                               field, v, lo, hi, unit);
    return TCO_OK;
}

/* The bounds of a pool's fields: those of the parameters of the same
 * meaning where the table has one, so that both say the same. */
static double row_lo(int ix) { return tco__params[ix].lo; }
static double row_hi(int ix) { return tco__params[ix].hi; }

static int pool_check(const tco_pool *p, tco_error *err)
{
    int rc;
    if (p->price_class < TCO_CLASS_ON_DEMAND || p->price_class > TCO_CLASS_OWNED) {
        return tco__fail_named(err, TCO_E_RANGE, "pool.price_class",
                               "pool.price_class = %d is not a tco_price_class: allowed 0 (on_demand), 1 (reserved), 2 (spot), 3 (owned)",
                               (int)p->price_class);
    }
    if ((rc = pool_number(err, "pool.accelerators_per_node", p->accelerators_per_node,
                          row_lo(IX_ACCELERATORS_PER_NODE), row_hi(IX_ACCELERATORS_PER_NODE), "")) ||
        (rc = pool_number(err, "pool.free_accelerators", p->free_accelerators, 0,
                          row_hi(IX_ACCELERATORS), "")) ||
        (rc = pool_number(err, "pool.rack", p->rack, 0, INT32_MAX, "")) ||
        (rc = pool_number(err, "pool.zone", p->zone, 0, INT32_MAX, "")) ||
        (rc = pool_number(err, "pool.region", p->region, 0, INT32_MAX, "")) ||
        (rc = pool_number(err, "pool.rate_per_accel_hour", p->rate_per_accel_hour,
                          row_lo(IX_ON_DEMAND_PER_ACCEL_HOUR), row_hi(IX_ON_DEMAND_PER_ACCEL_HOUR),
                          " cur per accelerator-hour")) ||
        (rc = pool_number(err, "pool.interruptions_per_node_hour", p->interruptions_per_node_hour,
                          row_lo(IX_SPOT_INTERRUPTIONS_PER_NODE_HOUR),
                          row_hi(IX_SPOT_INTERRUPTIONS_PER_NODE_HOUR), " per node-hour")))
        return rc;
    if (p->price_class != TCO_CLASS_SPOT && p->interruptions_per_node_hour != 0) {
        return tco__fail_named(err, TCO_E_INCONSISTENT, "pool.interruptions_per_node_hour",
                               "pool.interruptions_per_node_hour = %g, but the pool is %s: only spot pools are reclaimed (set it to 0 or make the pool spot)",
                               p->interruptions_per_node_hour, class_names[p->price_class]);
    }
    return TCO_OK;
}

int tco_pools_add(tco_pools *pools, const tco_pool *pool, int32_t *id, tco_error *err)
{
    if (!pools || !pool)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", pools ? "pool" : "pools");
    if (pools->frozen)
        return tco__fail(err, TCO_E_FROZEN,
                         "the pools are frozen: no pool can be added (build a new pools handle)");
    if (pool->size < POOL_V1_SIZE) /* an input: the bound above is INPUT_MAX_SIZE, checked next */
        return tco__fail_named(err, TCO_E_SIZE, "pool.size", "pool.size = %zu is below %zu: set it to sizeof(tco_pool)",
                               pool->size, POOL_V1_SIZE);
    int rc = input_size_check(pool, pool->size, sizeof *pool, "pool", err);
    if (rc || (rc = pool_check(pool, err)))
        return rc;
    if (pools->count >= POOLS_MAX)
        return tco__fail(err, TCO_E_RANGE, "the pools hold %d pools already: allowed at most %d",
                         (int)pools->count, POOLS_MAX);
    if (pools->count == pools->cap) {
        int32_t cap = pools->cap ? pools->cap * 2 : 16;
        tco_pool *p = realloc(pools->pool, (size_t)cap * sizeof *p);
        if (!p)
            return tco__fail(err, TCO_E_NOMEM, "no memory for %d pools", (int)cap);
        pools->pool = p;
        pool_hot *h = realloc(pools->hot, (size_t)cap * sizeof *h);
        if (!h)
            return tco__fail(err, TCO_E_NOMEM, "no memory for %d pools", (int)cap);
        pools->hot = h;
        pools->cap = cap;
    }
    tco_pool *p = &pools->pool[pools->count];
    memset(p, 0, sizeof *p);
    memcpy(p, pool, POOL_V1_SIZE); /* the caller's struct may be older or newer */
    p->size = sizeof *p;
    pool_hot *h = &pools->hot[pools->count];
    memset(h, 0, sizeof *h);
    h->rate = p->rate_per_accel_hour;
    h->spot_rate = p->interruptions_per_node_hour;
    h->inv_per_node = 1.0 / p->accelerators_per_node;
    h->per_node = p->accelerators_per_node;
    h->free = p->free_accelerators;
    h->rack = p->rack;
    h->zone = p->zone;
    h->region = p->region;
    h->spot = p->price_class == TCO_CLASS_SPOT;
    if (id)
        *id = pools->count;
    pools->count++;
    return TCO_OK;
}

/* (a, b) pairs sorted to find an `a` given two different `b`s. */
typedef struct pair {
    int32_t a, b, pool;
} pair;

static int by_pair(const void *x, const void *y)
{
    const pair *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return (p->pool > q->pool) - (p->pool < q->pool);
}

/* Every rack id in one zone, every zone id in one region: the spans of a
 * placement are then counted from ids alone. */
static int nesting_check(const tco_pools *s, pair *v, int racks, tco_error *err)
{
    for (int32_t i = 0; i < s->count; i++) {
        v[i].a = racks ? s->pool[i].rack : s->pool[i].zone;
        v[i].b = racks ? s->pool[i].zone : s->pool[i].region;
        v[i].pool = i;
    }
    qsort(v, (size_t)s->count, sizeof *v, by_pair);
    for (int32_t i = 1; i < s->count; i++)
        if (v[i].a == v[i - 1].a && v[i].b != v[i - 1].b) {
            const char *inner = racks ? "rack" : "zone", *outer = racks ? "zone" : "region";
            return tco__fail_named(err, TCO_E_INCONSISTENT, racks ? "pool.rack" : "pool.zone",
                                   "pool %d puts %s %d in %s %d, but pool %d puts it in %s %d: a %s id names one %s in one %s",
                                   (int)v[i].pool, inner, (int)v[i].a, outer, (int)v[i].b, (int)v[i - 1].pool, outer,
                                   (int)v[i - 1].b, inner, inner, outer);
        }
    return TCO_OK;
}

int tco_pools_freeze(tco_pools *pools, tco_error *err)
{
    if (!pools)
        return tco__fail(err, TCO_E_NULL, "pools must not be NULL");
    if (pools->frozen)
        return TCO_OK;
    if (pools->count > 1) {
        pair *v = malloc((size_t)pools->count * sizeof *v);
        if (!v)
            return tco__fail(err, TCO_E_NOMEM, "no memory to check %d pools", (int)pools->count);
        int rc = nesting_check(pools, v, 1, err);
        if (rc == TCO_OK)
            rc = nesting_check(pools, v, 0, err);
        free(v);
        if (rc)
            return rc;
    }
    pools->frozen = 1;
    return TCO_OK;
}

size_t tco_pools_count(const tco_pools *pools)
{
    return pools ? (size_t)pools->count : 0;
}

int tco_pools_get(tco_pool *out, const tco_pools *pools, int32_t id, tco_error *err)
{
    if (!out || !pools)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", out ? "pools" : "out");
    if (out->size < POOL_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_pool", out->size, POOL_V1_SIZE);
    if (id < 0 || id >= pools->count)
        return tco__fail(err, TCO_E_INDEX, "pool id %d is not a pool: allowed 0 to %d (%d pools)", (int)id,
                         (int)pools->count - 1, (int)pools->count);
    sized_fill(out, &pools->pool[id], sizeof pools->pool[id]);
    return TCO_OK;
}
