/* Placement pricing (doc/model.md, "5 Placement pricing"): the pools
 * handle, every formula against hand-worked values, the hot path against
 * lib/model/reliability.c, every error, the batch form against the single form to
 * the last bit, and no allocation on either.
 *
 * Built white-box (from the library's own objects) so that the expected
 * wall times can also be computed with reliability.c's functions, which the
 * hot path restates in a division-free form.
 *
 * Hand-worked values were computed beforehand to 30 digits from the
 * formulas as doc/model.md prints them (Daly's in his form, not the hot
 * path's); the arithmetic is in the comments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "alloc_count.h"
#include "model/model.h"
#include "sched/sched.h"
#include "support.h"

/* ---- helpers ----------------------------------------------------------- */

static tco_pool pool_of(int32_t price_class, int32_t per_node, int32_t free_accelerators, int32_t rack,
                        int32_t zone, int32_t region, double rate, double interruptions)
{
    tco_pool p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.price_class = price_class;
    p.accelerators_per_node = per_node;
    p.free_accelerators = free_accelerators;
    p.rack = rack;
    p.zone = zone;
    p.region = region;
    p.rate_per_accel_hour = rate;
    p.interruptions_per_node_hour = interruptions;
    return p;
}

static tco_job job_of(int32_t n, int32_t interruptible, double hours, double comm, double checkpoint,
                      double traffic, double delay)
{
    tco_job j;
    memset(&j, 0, sizeof j);
    j.size = sizeof j;
    j.accelerators = n;
    j.interruptible = interruptible;
    j.duration_hours = hours;
    j.comm_share = comm;
    j.checkpoint_bytes = checkpoint;
    j.traffic_gb_per_accel_hour = traffic;
    j.delay_cost_per_hour = delay;
    return j;
}

/* parts given as pool, accelerators, pool, accelerators... */
static tco_placement placement_of(int32_t parts, const int32_t *pa, double start)
{
    tco_placement p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.parts = parts;
    for (int32_t j = 0; j < parts; j++) {
        p.pool[j] = pa[2 * j];
        p.accelerators[j] = pa[2 * j + 1];
    }
    p.start_hours = start;
    return p;
}

static tco_pools *pools_from(const tco_pool *list, int n)
{
    tco_pools *s = NULL;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_pools_new(&s, &err), TCO_OK);
    for (int i = 0; i < n; i++) {
        int32_t id = -1;
        int rc = tco_pools_add(s, &list[i], &id, &err);
        if (rc)
            print_error("pool %d: %s\n", i, err.message);
        assert_int_equal(rc, TCO_OK);
        assert_int_equal(id, i);
    }
    int rc = tco_pools_freeze(s, &err);
    if (rc)
        print_error("freeze: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    return s;
}

/* A topology whose failures are negligible (MTBF 1e9 h, instant restarts):
 * the tests of the other parts see no interruption to speak of. */
static tco_topology *quiet_topology(void)
{
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_ACCELERATOR_MTBF_HOURS, 1e9, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_NODE_MTBF_HOURS, 1e9, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_RESTART_MINUTES, 0, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_STORAGE_HOT_GBPS, 100, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_RACK_SPAN_SLOWDOWN, 0.05, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_ZONE_SPAN_SLOWDOWN, 0.5, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_REGION_SPAN_SLOWDOWN, 3, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    return t;
}

static tco_pricing *egress_pricing(void)
{
    tco_pricing *p;
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_EGRESS_IN_REGION_PER_GB, 0.01, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_EGRESS_CROSS_REGION_PER_GB, 0.02, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(p, NULL), TCO_OK);
    return p;
}

static tco_price price_ok(const tco_pools *s, const tco_topology *t, const tco_pricing *p, const tco_job *job,
                          const tco_placement *pl)
{
    tco_price out;
    memset(&out, 0, sizeof out);
    out.size = sizeof out;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_placement_price(&out, s, t, p, job, pl, &err);
    if (rc)
        print_error("tco_placement_price: %s [%s]\n", err.message, err.param_name);
    assert_int_equal(rc, TCO_OK);
    assert_int_equal(out.size, sizeof out);
    return out;
}

/* The identities every price keeps: cost is the sum of its parts in the
 * documented order, completion is start + run, nothing is negative. */
static void check_price(const tco_price *r, double start)
{
    assert_true(r->cost == r->compute + r->slowdown + r->traffic + r->delay + r->interruptions + r->stranded);
    assert_true(r->completion_hours == start + r->run_hours);
    const double *v = &r->cost;
    for (int i = 0; i < 9; i++)
        assert_true(isfinite(v[i]) && v[i] >= 0);
}

static const char *msg_has(const tco_error *err, const char *text)
{
    if (!strstr(err->message, text)) {
        print_error("message \"%s\" lacks \"%s\"\n", err->message, text);
        fail();
    }
    return err->message;
}

/* ---- the pools handle -------------------------------------------------- */

static void test_pools_lifecycle(void **state)
{
    (void)state;
    tco_error err = TCO_ERROR_INIT;
    tco_pools *s;
    assert_int_equal(tco_pools_new(NULL, &err), TCO_E_NULL);
    assert_int_equal(tco_pools_new(&s, &err), TCO_OK);
    assert_int_equal(tco_pools_count(s), 0);
    assert_int_equal(tco_pools_count(NULL), 0);
    tco_pool a = pool_of(TCO_CLASS_ON_DEMAND, 8, 64, 1, 2, 3, 4.0, 0);
    tco_pool b = pool_of(TCO_CLASS_SPOT, 4, 12, 5, 6, 7, 1.5, 0.02);
    int32_t id = -1;
    assert_int_equal(tco_pools_add(s, &a, &id, &err), TCO_OK);
    assert_int_equal(id, 0);
    assert_int_equal(tco_pools_add(s, &b, NULL, &err), TCO_OK); /* the id is optional */
    assert_int_equal(tco_pools_count(s), 2);
    assert_int_equal(tco_pools_add(NULL, &a, &id, &err), TCO_E_NULL);
    assert_int_equal(tco_pools_add(s, NULL, &id, &err), TCO_E_NULL);

    /* get: the pool as added, before and after freezing */
    tco_pool got;
    memset(&got, 0xff, sizeof got);
    got.size = sizeof got;
    assert_int_equal(tco_pools_get(&got, s, 1, &err), TCO_OK);
    assert_memory_equal(&got, &b, sizeof got);
    assert_int_equal(tco_pools_get(&got, s, 2, &err), TCO_E_INDEX);
    msg_has(&err, "allowed 0 to 1 (2 pools)");
    assert_int_equal(tco_pools_get(&got, s, -1, &err), TCO_E_INDEX);
    assert_int_equal(tco_pools_get(NULL, s, 0, &err), TCO_E_NULL);
    assert_int_equal(tco_pools_get(&got, NULL, 0, &err), TCO_E_NULL);
    got.size = 8;
    assert_int_equal(tco_pools_get(&got, s, 0, &err), TCO_E_SIZE);
    /* a caller whose struct is larger gets the rest zeroed, its size kept */
    struct {
        tco_pool p;
        double later[4];
    } big;
    memset(&big, 0xff, sizeof big);
    big.p.size = sizeof big;
    assert_int_equal(tco_pools_get(&big.p, s, 0, &err), TCO_OK);
    assert_int_equal(big.p.size, sizeof big);
    assert_int_equal(big.p.free_accelerators, 64);
    for (int i = 0; i < 4; i++)
        assert_true(big.later[i] == 0);
    /* OUTPUT_MAX_SIZE itself, the largest an output may declare, is
     * filled; a word more is refused */
    static union {
        tco_pool p;
        char bytes[OUTPUT_MAX_SIZE + sizeof(double)];
    } most;
    memset(&most, 0xff, sizeof most);
    most.p.size = OUTPUT_MAX_SIZE;
    assert_int_equal(tco_pools_get(&most.p, s, 0, &err), TCO_OK);
    assert_true(most.p.free_accelerators == 64 && most.bytes[OUTPUT_MAX_SIZE - 1] == 0);
    assert_true(most.bytes[OUTPUT_MAX_SIZE] == (char)0xff);
    most.p.size = OUTPUT_MAX_SIZE + sizeof(double);
    assert_int_equal(tco_pools_get(&most.p, s, 0, &err), TCO_E_SIZE);

    /* frozen: immutable; freezing twice is fine */
    assert_int_equal(tco_pools_freeze(s, &err), TCO_OK);
    assert_int_equal(tco_pools_freeze(s, &err), TCO_OK);
    assert_int_equal(tco_pools_add(s, &a, &id, &err), TCO_E_FROZEN);
    assert_int_equal(err.code, TCO_E_FROZEN);
    assert_int_equal(tco_pools_count(s), 2);
    assert_int_equal(tco_pools_freeze(NULL, &err), TCO_E_NULL);
    tco_pools_free(s);
    tco_pools_free(NULL);

    /* an empty handle freezes */
    assert_int_equal(tco_pools_new(&s, &err), TCO_OK);
    assert_int_equal(tco_pools_freeze(s, &err), TCO_OK);
    tco_pools_free(s);

    /* many pools: the arrays grow */
    assert_int_equal(tco_pools_new(&s, &err), TCO_OK);
    for (int i = 0; i < 1000; i++) {
        tco_pool p = pool_of(i % 4, 8, i, i, i / 10, i / 100, 1 + i % 3, i % 4 == TCO_CLASS_SPOT ? 0.01 : 0);
        assert_int_equal(tco_pools_add(s, &p, &id, &err), TCO_OK);
        assert_int_equal(id, i);
    }
    assert_int_equal(tco_pools_freeze(s, &err), TCO_OK);
    assert_int_equal(tco_pools_get(&got, s, 777, &err), TCO_E_SIZE); /* got.size is still 8 */
    got.size = sizeof got;
    assert_int_equal(tco_pools_get(&got, s, 777, &err), TCO_OK);
    assert_int_equal(got.free_accelerators, 777);
    assert_int_equal(got.zone, 77);
    tco_pools_free(s);
}

static void test_pool_validation(void **state)
{
    (void)state;
    struct {
        tco_pool p;
        int code;
        const char *field, *text;
    } bad[] = {
        { pool_of(4, 8, 8, 0, 0, 0, 1, 0), TCO_E_RANGE, "pool.price_class", "allowed 0 (on_demand)" },
        { pool_of(-1, 8, 8, 0, 0, 0, 1, 0), TCO_E_RANGE, "pool.price_class", "-1 is not a tco_price_class" },
        { pool_of(0, 0, 8, 0, 0, 0, 1, 0), TCO_E_RANGE, "pool.accelerators_per_node", "allowed 1 to 72" },
        { pool_of(0, 73, 8, 0, 0, 0, 1, 0), TCO_E_RANGE, "pool.accelerators_per_node", "= 73 is out of range" },
        { pool_of(0, 8, -1, 0, 0, 0, 1, 0), TCO_E_RANGE, "pool.free_accelerators", "allowed 0 to 10000000" },
        { pool_of(0, 8, 10000001, 0, 0, 0, 1, 0), TCO_E_RANGE, "pool.free_accelerators", "out of range" },
        { pool_of(0, 8, 8, -1, 0, 0, 1, 0), TCO_E_RANGE, "pool.rack", "allowed 0 to 2147483647" },
        { pool_of(0, 8, 8, 0, -2, 0, 1, 0), TCO_E_RANGE, "pool.zone", "-2" },
        { pool_of(0, 8, 8, 0, 0, -3, 1, 0), TCO_E_RANGE, "pool.region", "-3" },
        { pool_of(0, 8, 8, 0, 0, 0, -0.5, 0), TCO_E_RANGE, "pool.rate_per_accel_hour", "allowed 0 to 100000" },
        { pool_of(0, 8, 8, 0, 0, 0, 2e5, 0), TCO_E_RANGE, "pool.rate_per_accel_hour", "cur per accelerator-hour" },
        { pool_of(0, 8, 8, 0, 0, 0, NAN, 0), TCO_E_NOT_FINITE, "pool.rate_per_accel_hour", "finite" },
        { pool_of(0, 8, 8, 0, 0, 0, INFINITY, 0), TCO_E_NOT_FINITE, "pool.rate_per_accel_hour", "finite" },
        { pool_of(2, 8, 8, 0, 0, 0, 1, -0.1), TCO_E_RANGE, "pool.interruptions_per_node_hour", "allowed 0 to 10" },
        { pool_of(2, 8, 8, 0, 0, 0, 1, 11), TCO_E_RANGE, "pool.interruptions_per_node_hour", "per node-hour" },
        { pool_of(2, 8, 8, 0, 0, 0, 1, NAN), TCO_E_NOT_FINITE, "pool.interruptions_per_node_hour", "nan" },
        { pool_of(0, 8, 8, 0, 0, 0, 1, 0.01), TCO_E_INCONSISTENT, "pool.interruptions_per_node_hour",
          "the pool is on_demand: only spot pools" },
        { pool_of(3, 8, 8, 0, 0, 0, 1, 0.01), TCO_E_INCONSISTENT, "pool.interruptions_per_node_hour", "owned" },
    };
    tco_pools *s;
    assert_int_equal(tco_pools_new(&s, NULL), TCO_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tco_error err = TCO_ERROR_INIT;
        int32_t id = 1234;
        int rc = tco_pools_add(s, &bad[i].p, &id, &err);
        if (rc != bad[i].code)
            print_error("case %zu: %s (%s)\n", i, tco_status_name(rc), err.message);
        assert_int_equal(rc, bad[i].code);
        assert_int_equal(err.code, bad[i].code);
        assert_int_equal(err.param, 0);
        assert_string_equal(err.param_name, bad[i].field);
        msg_has(&err, bad[i].field);
        msg_has(&err, bad[i].text);
        assert_int_equal(id, 1234);             /* a failed add changes nothing */
        assert_int_equal(tco_pools_count(s), 0);
    }
    /* the size field */
    tco_pool p = pool_of(0, 8, 8, 0, 0, 0, 1, 0);
    p.size = sizeof p - 8;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_pools_add(s, &p, NULL, &err), TCO_E_SIZE);
    assert_string_equal(err.param_name, "pool.size");
    msg_has(&err, "is below");
    msg_has(&err, "set it to sizeof(tco_pool)");
    /* the bounds themselves are allowed */
    tco_pool edge[] = { pool_of(0, 1, 0, 0, 0, 0, 0, 0), pool_of(2, 72, 10000000, INT32_MAX, INT32_MAX, INT32_MAX, 1e5, 10) };
    for (int i = 0; i < 2; i++)
        assert_int_equal(tco_pools_add(s, &edge[i], NULL, &err), TCO_OK);
    /* a pool struct of 1,024 bytes (the most an input struct may declare)
     * with a zero tail is read as the plain one; one of 65,536, past it, is
     * refused as an input's size */
    static union {
        tco_pool p;
        char bytes[65536];
    } most;
    memset(&most, 0, sizeof most);
    most.p = pool_of(0, 8, 8, 0, 0, 0, 1, 0);
    most.p.size = 1024;
    int32_t id = -1;
    assert_int_equal(tco_pools_add(s, &most.p, &id, &err), TCO_OK);
    assert_int_equal(id, 2);
    most.p.size = 65536;
    assert_int_equal(tco_pools_add(s, &most.p, NULL, &err), TCO_E_SIZE);
    assert_string_equal(err.param_name, "pool.size");
    msg_has(&err, "pool.size = 65536 is past 1024");
    tco_pools_free(s);
}

static void test_pools_nesting(void **state)
{
    (void)state;
    /* rack 5 in zones 1 and 2 */
    tco_pool racks[] = { pool_of(0, 8, 8, 4, 1, 0, 1, 0), pool_of(0, 8, 8, 5, 1, 0, 1, 0),
                         pool_of(0, 8, 8, 5, 2, 0, 1, 0) };
    tco_pools *s;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_pools_new(&s, NULL), TCO_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(tco_pools_add(s, &racks[i], NULL, NULL), TCO_OK);
    assert_int_equal(tco_pools_freeze(s, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "pool.rack");
    msg_has(&err, "pool 2 puts rack 5 in zone 2, but pool 1 puts it in zone 1");
    tco_pool p;
    p.size = sizeof p;
    assert_int_equal(tco_pools_get(&p, s, 0, NULL), TCO_OK); /* still usable, still unfrozen */
    assert_int_equal(tco_pools_add(s, &racks[0], NULL, NULL), TCO_OK);
    tco_pools_free(s);
    /* the same, pool 1 in another rack of zone 1 between the two: ordered
     * by zone alone the two pools of rack 5 would not be neighbours */
    tco_pool apart[] = { pool_of(0, 8, 8, 5, 1, 0, 1, 0), pool_of(0, 8, 8, 6, 1, 0, 1, 0),
                         pool_of(0, 8, 8, 5, 2, 0, 1, 0) };
    assert_int_equal(tco_pools_new(&s, NULL), TCO_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(tco_pools_add(s, &apart[i], NULL, NULL), TCO_OK);
    assert_int_equal(tco_pools_freeze(s, &err), TCO_E_INCONSISTENT);
    msg_has(&err, "pool 2 puts rack 5 in zone 2, but pool 0 puts it in zone 1");
    tco_pools_free(s);

    /* zone 1 in regions 0 and 9 (racks all different) */
    tco_pool zones[] = { pool_of(0, 8, 8, 1, 1, 0, 1, 0), pool_of(0, 8, 8, 2, 1, 9, 1, 0) };
    assert_int_equal(tco_pools_new(&s, NULL), TCO_OK);
    for (int i = 0; i < 2; i++)
        assert_int_equal(tco_pools_add(s, &zones[i], NULL, NULL), TCO_OK);
    assert_int_equal(tco_pools_freeze(s, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "pool.zone");
    msg_has(&err, "zone 1 in region");
    tco_pools_free(s);

    /* two pools in one rack (a rack split between two price classes) nest */
    tco_pool shared[] = { pool_of(0, 8, 8, 7, 3, 1, 4, 0), pool_of(2, 8, 8, 7, 3, 1, 2, 0.01) };
    s = pools_from(shared, 2);
    tco_pools_free(s);
}

/* ---- hand-worked prices ----------------------------------------------- */

/* 16 accelerators of one on-demand pool (8 per node) at 4 per hour for
 * 10 h, no checkpoints, MTBF 1e9 h for accelerators and nodes, instant
 * restarts:
 *   compute = 16 x 4 x 10 = 640; one rack, zone, region: no slowdown,
 *   no traffic; 2 whole nodes: nothing stranded; no delay.
 *   lambda = 16 / 1e9 + 2 / 1e9 = 1.8e-8 per h; with no checkpoint the run
 *   is one segment (tau = run, delta = 0), so Daly's wall time is
 *   M (e^(run/M) - 1) = expm1(1.8e-7) / 1.8e-8 = 10.0000009000000540 h;
 *   interruptions = 64 x 9.00000054e-7 = 5.76000034560e-5. */
static void test_one_pool(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_ON_DEMAND, 8, 64, 0, 0, 0, 4, 0) };
    tco_pools *s = pools_from(list, 1);
    tco_topology *t = quiet_topology();
    tco_pricing *p = egress_pricing();
    tco_job job = job_of(16, 0, 10, 0.5, 0, 0, 0);
    int32_t pa[] = { 0, 16 };
    tco_placement pl = placement_of(1, pa, 0);
    tco_price r = price_ok(s, t, p, &job, &pl);
    check_price(&r, 0);
    assert_rel(r.compute, 640, 1e-15);
    assert_true(r.slowdown == 0 && r.traffic == 0 && r.stranded == 0 && r.delay == 0);
    assert_rel(r.run_hours, 10.0000009000000540, 1e-15);
    assert_rel(r.interruptions, 5.76000034560001555e-5, 1e-8);
    assert_rel(r.cost, 640.0000576000035, 1e-15);
    assert_rel(r.completion_hours, 10.0000009000000540, 1e-15);
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* Spans and traffic. Slowdowns: rack 0.05, zone 0.5, region 3. Egress:
 * 0.01 per GB between zones, 0.02 between regions. Four pools, 8 per node:
 *   0: on demand 4/h, rack 1, zone 10, region 100
 *   1: reserved 2.5/h, rack 2, zone 10, region 100
 *   2: owned 1.5/h, rack 3, zone 11, region 100
 *   3: on demand 3/h, rack 4, zone 20, region 200
 * The job: 32 accelerators, 100 h, comm_share 0.4, 2 GB per
 * accelerator-hour, delay 5 per hour, no checkpoints; MTBF 1e9 h. */
static void test_spans_and_traffic(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_ON_DEMAND, 8, 64, 1, 10, 100, 4, 0),
                        pool_of(TCO_CLASS_RESERVED, 8, 64, 2, 10, 100, 2.5, 0),
                        pool_of(TCO_CLASS_OWNED, 8, 64, 3, 11, 100, 1.5, 0),
                        pool_of(TCO_CLASS_ON_DEMAND, 8, 64, 4, 20, 200, 3, 0) };
    tco_pools *s = pools_from(list, 4);
    tco_topology *t = quiet_topology();
    tco_pricing *p = egress_pricing();
    tco_job job = job_of(32, 0, 100, 0.4, 0, 2, 5);

    /* A: 8 + 8 + 16 on pools 0, 1, 2, starting in 2 h: 3 racks, 2 zones, 1 region.
     *   f = 0.4 x (0.05 x (1 - 1/3) + 0.5 x (1 - 1/2) + 3 x 0) = 0.11333...
     *   run (no interruptions) = 100 x 1.11333 = 111.333... h
     *   rate = 8 x 4 + 8 x 2.5 + 16 x 1.5 = 76 per h
     *   compute = 7600; slowdown = 76 x 11.333... = 861.333...
     *   traffic = 2 x 32 x 100 = 6400 GB, a share 1/1 - 1/2 = 0.5 of it
     *     between zones of the region: 6400 x 0.5 x 0.01 = 32
     *   delay = 5 x 2 = 10; nodes 1 + 1 + 2 = 4, lambda = 36e-9 per h:
     *   wall = expm1(111.333 x 3.6e-8) / 3.6e-8 = 111.333556445631411 h
     *   interruptions = 76 x 2.23112298078e-4 = 0.0169565346539227
     *   cost = 7600 + 861.333 + 32 + 10 + 0.016957 = 8503.35028986798726 */
    int32_t a[] = { 0, 8, 1, 8, 2, 16 };
    tco_placement pl = placement_of(3, a, 2);
    tco_price r = price_ok(s, t, p, &job, &pl);
    check_price(&r, 2);
    assert_rel(r.compute, 7600, 1e-15);
    assert_rel(r.slowdown, 861.333333333333333, 1e-14);
    assert_rel(r.traffic, 32, 1e-14);
    assert_rel(r.delay, 10, 1e-15);
    assert_true(r.stranded == 0);
    assert_rel(r.run_hours, 111.333556445631411, 1e-14);
    assert_rel(r.interruptions, 0.0169565346539227312, 1e-8);
    assert_rel(r.cost, 8503.35028986798726, 1e-14);
    assert_rel(r.completion_hours, 113.333556445631411, 1e-14);

    /* B: 16 + 16 on pools 0 and 3: 2 racks, 2 zones, 2 regions.
     *   f = 0.4 x (0.05 x 0.5 + 0.5 x 0.5 + 3 x 0.5) = 0.71; run 171 h
     *   rate 64 + 48 = 112; compute 11200; slowdown 112 x 71 = 7952
     *   traffic: half of 6400 GB crosses regions, none only zones:
     *     6400 x 0.5 x 0.02 = 64
     *   wall = expm1(171 x 3.6e-8) / 3.6e-8 = 171.000526339080047 h
     *   interruptions = 112 x 5.26339080047e-4 = 0.0589499769652907
     *   cost = 11200 + 7952 + 64 + 0.0589499769652907 = 19216.0589499769653 */
    int32_t b[] = { 0, 16, 3, 16 };
    pl = placement_of(2, b, 0);
    r = price_ok(s, t, p, &job, &pl);
    check_price(&r, 0);
    assert_rel(r.slowdown, 7952, 1e-14);
    assert_rel(r.traffic, 64, 1e-14);
    assert_rel(r.run_hours, 171.000526339080047, 1e-14);
    assert_rel(r.interruptions, 0.0589499769652906775, 1e-8);
    assert_rel(r.cost, 19216.0589499769653, 1e-14);

    /* C: all 32 on pool 0, but the caller knows they span 4 racks of it:
     *   f = 0.4 x 0.05 x (1 - 1/4) = 0.015; slowdown = 128 x 1.5 = 192;
     *   one zone: no traffic is priced. */
    int32_t c[] = { 0, 32 };
    pl = placement_of(1, c, 0);
    pl.racks = 4;
    r = price_ok(s, t, p, &job, &pl);
    assert_rel(r.slowdown, 192, 1e-14);
    assert_true(r.traffic == 0);
    /* the same with zones = 2 too: + 0.4 x 0.5 x 0.5 = 0.1 more, and half
     * the traffic between zones: 6400 x 0.5 x 0.01 = 32 */
    pl.zones = 2;
    r = price_ok(s, t, p, &job, &pl);
    assert_rel(r.slowdown, 128 * 100 * 0.115, 1e-14);
    assert_rel(r.traffic, 32, 1e-14);
    /* counting is the default: 0 means the pools' distinct ids */
    pl = placement_of(3, a, 2);
    pl.racks = 3;
    pl.zones = 2;
    pl.regions = 1;
    tco_price given = price_ok(s, t, p, &job, &pl);
    pl.racks = pl.zones = pl.regions = 0;
    tco_price counted = price_ok(s, t, p, &job, &pl);
    assert_memory_equal(&given, &counted, sizeof given);

    /* a job that does not communicate loses nothing by spanning */
    tco_job quiet = job_of(32, 0, 100, 0, 0, 0, 0);
    pl = placement_of(2, b, 0);
    r = price_ok(s, t, p, &quiet, &pl);
    assert_true(r.slowdown == 0 && r.traffic == 0);
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* Interruptions, with the defaults' failure rates: accelerators 80,000 h,
 * nodes 17,500 h, restart 15 min, hot tier 100 GB/s. A spot pool, 8 per
 * node, 2 per hour, reclaimed 0.01 times per node-hour. The job: 64
 * accelerators (8 nodes), 100 h, no communication, checkpoints of 980 GB.
 *   lambda = 64 / 80000 + 8 / 17500 + 8 x 0.01 = 0.0812571428571428571 per h
 *   M = 1 / lambda = 12.3066104078762307 h
 *   delta = 980e9 / (100e9 x 3600) = 0.00272222... h
 *   x = delta / 2M = 1.106e-4
 *   tau = sqrt(2 delta M) (1 + sqrt(x) / 3 + x / 9) - delta = 0.257037080004652335 h (Daly)
 *   wall = M e^(R/M) (e^((tau + delta)/M) - 1) 100 / tau = 104.229142754144273 h
 *   interruptions = 128 x 4.229142754144273 = 541.330272530467004
 *   cost = 12800 + 541.330272530467004 = 13341.3302725304670 */
static void test_interruptions(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_SPOT, 8, 1024, 0, 0, 0, 2, 0.01) };
    tco_pools *s = pools_from(list, 1);
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_ACCELERATOR_MTBF_HOURS, 80000, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_NODE_MTBF_HOURS, 17500, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_RESTART_MINUTES, 15, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_STORAGE_HOT_GBPS, 100, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    tco_pricing *p = egress_pricing();
    tco_job job = job_of(64, 1, 100, 0, 980e9, 0, 0);
    int32_t a[] = { 0, 64 };
    tco_placement pl = placement_of(1, a, 0);
    tco_price r = price_ok(s, t, p, &job, &pl);
    check_price(&r, 0);
    assert_rel(r.compute, 12800, 1e-15);
    assert_rel(r.run_hours, 104.229142754144273, 1e-13);
    assert_rel(r.interruptions, 541.330272530467004, 1e-12);
    assert_rel(r.cost, 13341.3302725304670, 1e-13);
    assert_true(r.slowdown == 0 && r.traffic == 0 && r.stranded == 0);

    /* The same job may not run there if it cannot be interrupted. */
    job.interruptible = 0;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_placement_price(&r, s, t, p, &job, &pl, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "placement.pool[0]");
    msg_has(&err, "is a spot pool, but job.interruptible = 0");

    /* Checkpoints larger than the run can stand: the job never finishes. */
    job.interruptible = 1;
    job.checkpoint_bytes = 1e17; /* 278 h per checkpoint against M = 12 h */
    assert_int_equal(tco_placement_price(&r, s, t, p, &job, &pl, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "placement");
    msg_has(&err, "never finishes");
    msg_has(&err, "interrupted every 12.3066 h");
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* Stranded capacity and delay. MTBF 1e9 h, no checkpoints.
 * One pool of 8 per node at 3 per hour; the job takes 12 accelerators for
 * 10 h, starting in 5 h, at 7 per hour of delay:
 *   nodes 2, the second with 4 idle: stranded rate 4 x 3 = 12 per h
 *   lambda = (12 + 2) / 1e9; wall = expm1(1.4e-7) / 1.4e-8 = 10.0000007000000327 h
 *   stranded = 12 x wall = 120.000008400000392
 *   delay = 7 x 5 = 35; completion = 15.0000007000000327 */
static void test_stranded_and_delay(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_RESERVED, 8, 64, 0, 0, 0, 3, 0),
                        pool_of(TCO_CLASS_OWNED, 4, 64, 1, 0, 0, 1, 0) };
    tco_pools *s = pools_from(list, 2);
    tco_topology *t = quiet_topology();
    tco_pricing *p = egress_pricing();
    tco_job job = job_of(12, 0, 10, 0, 0, 0, 7);
    int32_t a[] = { 0, 12 };
    tco_placement pl = placement_of(1, a, 5);
    tco_price r = price_ok(s, t, p, &job, &pl);
    check_price(&r, 5);
    assert_rel(r.compute, 360, 1e-15);
    assert_rel(r.run_hours, 10.0000007000000327, 1e-15);
    assert_rel(r.stranded, 120.000008400000392, 1e-15);
    assert_rel(r.delay, 35, 1e-15);
    assert_rel(r.completion_hours, 15.0000007000000327, 1e-15);

    /* Two parts: 3 on pool 0 (5 idle on its node, at 3) and 9 on pool 1
     * (4 per node: 2 nodes and 1 more, 3 idle, at 1): 5 x 3 + 3 x 1 = 18 per h.
     * Nodes 1 + 3 = 4: lambda = 16e-9; wall = expm1(1.6e-7) / 1.6e-8
     * = 10.0000008000000427 h; stranded = 18 x wall = 180.000014400000768 */
    int32_t b[] = { 0, 3, 1, 9 };
    pl = placement_of(2, b, 0);
    r = price_ok(s, t, p, &job, &pl);
    assert_rel(r.stranded, 180.000014400000768, 1e-15);
    assert_rel(r.compute, (3 * 3 + 9 * 1) * 10.0, 1e-15);
    /* whole nodes strand nothing */
    int32_t c[] = { 0, 8, 1, 4 };
    pl = placement_of(2, c, 0);
    r = price_ok(s, t, p, &job, &pl);
    assert_true(r.stranded == 0);
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* ---- the hot path against reliability.c -------------------------------- */

static uint64_t rng_state = 0x243f6a8885a308d3u;
static uint32_t rnd(uint32_t below)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1du) >> 33) % below;
}

static double rnd_unit(void)
{
    return rnd(1u << 30) / (double)(1u << 30);
}

/* Random pools in 2 regions, 6 zones, 24 racks; the four classes in turn. */
static tco_pools *random_pools(tco_pool *list, int n)
{
    for (int i = 0; i < n; i++) {
        static const int32_t per_node[] = { 1, 4, 8, 8, 8, 72 };
        int32_t cls = i % 4;
        list[i] = pool_of(cls, per_node[rnd(6)], 16 + (int32_t)rnd(200), i, i / 4, i / 12, 0.5 + 4 * rnd_unit(),
                          cls == TCO_CLASS_SPOT ? 0.001 + 0.05 * rnd_unit() : 0);
    }
    return pools_from(list, n);
}

static void test_against_reliability(void **state)
{
    (void)state;
    enum { POOLS = 24 };
    tco_pool list[POOLS];
    tco_pools *s = random_pools(list, POOLS);
    double A = 50000, N = 20000, restart_min = 20, gbps = 40, sr = 0.07, sz = 0.6, sg = 2.5;
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_ACCELERATOR_MTBF_HOURS, A, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_NODE_MTBF_HOURS, N, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_RESTART_MINUTES, restart_min, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_STORAGE_HOT_GBPS, gbps, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_RACK_SPAN_SLOWDOWN, sr, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_ZONE_SPAN_SLOWDOWN, sz, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_REGION_SPAN_SLOWDOWN, sg, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    tco_pricing *p = egress_pricing();
    int priced = 0, big_x = 0, no_ckpt = 0;
    for (int k = 0; k < 4000; k++) {
        int32_t parts = 1 + (int32_t)rnd(3), used[3] = { -1, -1, -1 }, pa[6], n = 0;
        for (int32_t j = 0; j < parts; j++) {
            int32_t id;
            do
                id = (int32_t)rnd(POOLS);
            while (id == used[0] || id == used[1]);
            used[j] = id;
            pa[2 * j] = id;
            pa[2 * j + 1] = 1 + (int32_t)rnd((uint32_t)list[id].free_accelerators);
            n += pa[2 * j + 1];
        }
        /* checkpoints from none to far too large (x >= 1, Daly's tau = M) */
        double ckpt = k % 10 == 0 ? 0 : k % 10 == 1 ? 1e16 * (1 + 9 * rnd_unit()) : 1e9 * (1 + 1e4 * rnd_unit());
        tco_job job = job_of(n, 1, 0.5 + 300 * rnd_unit(), rnd_unit(), ckpt, 10 * rnd_unit(), 0);
        tco_placement pl = placement_of(parts, pa, 0);
        tco_price r;
        r.size = sizeof r;
        int rc = tco_placement_price(&r, s, t, p, &job, &pl, NULL);

        /* the formulas as doc/model.md writes them, with reliability.c */
        int32_t racks = 0, zones = 0, regions = 0;
        double rate = 0, nodes = 0, spot = 0;
        for (int32_t j = 0; j < parts; j++) {
            const tco_pool *q = &list[pa[2 * j]];
            int new_r = 1, new_z = 1, new_g = 1;
            for (int32_t i = 0; i < j; i++) {
                new_r &= list[pa[2 * i]].rack != q->rack;
                new_z &= list[pa[2 * i]].zone != q->zone;
                new_g &= list[pa[2 * i]].region != q->region;
            }
            racks += new_r;
            zones += new_z;
            regions += new_g;
            double u = ceil((double)pa[2 * j + 1] / q->accelerators_per_node);
            nodes += u;
            spot += u * q->interruptions_per_node_hour;
            rate += pa[2 * j + 1] * q->rate_per_accel_hour;
        }
        double f = job.comm_share * (sr * (1 - 1.0 / racks) + sz * (1 - 1.0 / zones) + sg * (1 - 1.0 / regions));
        double run0 = job.duration_hours * (1 + f);
        double M = tco__system_mtbf(n, A, nodes, N, spot);
        double delta = ckpt / (gbps * 1e9) / 3600;
        double tau = delta > 0 ? tco__daly_interval(delta, M) : run0;
        double wall = tco__daly_wall_time(run0, tau, delta, restart_min / 60, M);
        if (!(wall <= 1e12)) {
            assert_int_equal(rc, TCO_E_INCONSISTENT);
            continue;
        }
        assert_int_equal(rc, TCO_OK);
        priced++;
        big_x += delta >= 2 * M;
        no_ckpt += delta == 0;
        assert_rel(r.run_hours, wall, 1e-13);
        assert_rel(r.compute, rate * job.duration_hours, 1e-14);
        assert_rel(r.compute + r.slowdown, rate * run0, 1e-14);
        /* the interruptions part to a few ulps of the whole */
        assert_true(fabs(r.interruptions - rate * (wall - run0)) <= 1e-13 * rate * wall);
        check_price(&r, 0);
    }
    assert_true(priced > 3000);
    assert_true(big_x > 100 && no_ckpt > 100); /* both of Daly's cases, and none */
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* ---- errors of the single form ---------------------------------------- */

static void test_errors(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_ON_DEMAND, 8, 16, 0, 0, 0, 4, 0),
                        pool_of(TCO_CLASS_ON_DEMAND, 8, 16, 1, 1, 0, 4, 0),
                        pool_of(TCO_CLASS_ON_DEMAND, 8, 16, 2, 2, 1, 4, 0),
                        pool_of(TCO_CLASS_SPOT, 8, 16, 3, 2, 1, 2, 0.01),
                        pool_of(TCO_CLASS_ON_DEMAND, 8, 8, 4, 2, 1, 4, 0) };
    tco_pools *s = pools_from(list, 5);
    tco_topology *t = quiet_topology();
    tco_pricing *p = egress_pricing();
    const tco_job good = job_of(16, 0, 10, 0.5, 1e9, 1, 1);
    int32_t two[] = { 0, 8, 1, 8 };
    /* junk past the parts (pool 4, 5 accelerators), which nothing may
     * read: every message below counts the two parts alone */
    tco_placement junk = placement_of(2, two, 1);
    for (int k = 2; k < TCO_PLACEMENT_MAX_PARTS; k++) {
        junk.pool[k] = 4;
        junk.accelerators[k] = 5;
    }
    const tco_placement base = junk;
    tco_price before;
    memset(&before, 0x5a, sizeof before);
    before.size = sizeof before;

    struct {
        tco_job job;
        tco_placement pl;
        int code;
        const char *field, *text;
    } cases[32];
    int n = 0;
#define CASE(j, pl_, c, f, txt)                                                    \
    do {                                                                           \
        cases[n].job = (j);                                                        \
        cases[n].pl = (pl_);                                                       \
        cases[n].code = (c);                                                       \
        cases[n].field = (f);                                                      \
        cases[n].text = (txt);                                                     \
        n++;                                                                       \
    } while (0)
    tco_job j;
    tco_placement pl;
    j = good; j.size = 8; CASE(j, base, TCO_E_SIZE, "job.size", "sizeof(tco_job)");
    j = good; j.accelerators = 0; CASE(j, base, TCO_E_RANGE, "job.accelerators", "allowed 1 to 10000000");
    j = good; j.interruptible = 2; CASE(j, base, TCO_E_RANGE, "job.interruptible", "must be 0 or 1");
    j = good; j.duration_hours = 0; CASE(j, base, TCO_E_RANGE, "job.duration_hours", "= 0 is out of range");
    j = good; j.duration_hours = -3; CASE(j, base, TCO_E_RANGE, "job.duration_hours", "allowed 1e-06 to 1e+06 h");
    j = good; j.duration_hours = NAN; CASE(j, base, TCO_E_NOT_FINITE, "job.duration_hours", "finite");
    j = good; j.comm_share = 1.5; CASE(j, base, TCO_E_RANGE, "job.comm_share", "allowed 0 to 1");
    j = good; j.comm_share = NAN; CASE(j, base, TCO_E_NOT_FINITE, "job.comm_share", "nan");
    j = good; j.checkpoint_bytes = -1; CASE(j, base, TCO_E_RANGE, "job.checkpoint_bytes", "0 to 1e+17 B");
    j = good; j.checkpoint_bytes = INFINITY; CASE(j, base, TCO_E_NOT_FINITE, "job.checkpoint_bytes", "finite");
    j = good; j.traffic_gb_per_accel_hour = NAN; CASE(j, base, TCO_E_NOT_FINITE, "job.traffic_gb_per_accel_hour", "finite");
    j = good; j.delay_cost_per_hour = -1; CASE(j, base, TCO_E_RANGE, "job.delay_cost_per_hour", "cur per hour");
    pl = base; pl.parts = 0; CASE(good, pl, TCO_E_RANGE, "placement.parts", "allowed 1 to 8");
    pl = base; pl.parts = 9; CASE(good, pl, TCO_E_RANGE, "placement.parts", "= 9");
    pl = base; pl.pool[1] = 5; CASE(good, pl, TCO_E_INDEX, "placement.pool[1]", "= 5 is not a pool: allowed 0 to 4 (5 pools)");
    pl = base; pl.pool[0] = -1; CASE(good, pl, TCO_E_INDEX, "placement.pool[0]", "= -1 is not a pool");
    pl = base; pl.accelerators[1] = 0; CASE(good, pl, TCO_E_RANGE, "placement.accelerators[1]", "must be at least 1");
    pl = base; pl.accelerators[0] = -8; CASE(good, pl, TCO_E_RANGE, "placement.accelerators[0]", "= -8");
    pl = base; pl.pool[1] = 4; pl.accelerators[0] = 7; pl.accelerators[1] = 9;
    CASE(good, pl, TCO_E_INCONSISTENT, "placement.accelerators[1]", "placement.accelerators[1] = 9 exceeds pool 4's 8 free accelerators");
    pl = base; pl.pool[1] = 3; CASE(good, pl, TCO_E_INCONSISTENT, "placement.pool[1]", "= 3 is a spot pool, but job.interruptible = 0");
    pl = base; pl.pool[1] = 0; CASE(good, pl, TCO_E_INCONSISTENT, "placement.pool[1]", "= 0 repeats placement.pool[0]");
    pl = base; pl.accelerators[1] = 7; CASE(good, pl, TCO_E_INCONSISTENT, "placement.accelerators", "add up to 15, but job.accelerators = 16");
    pl = base; pl.racks = -1; CASE(good, pl, TCO_E_RANGE, "placement.racks", "= -1 is out of range");
    pl = base; pl.zones = 1; CASE(good, pl, TCO_E_INCONSISTENT, "placement.zones", "placement.zones = 1 is fewer than the 2 distinct zones of its pools");
    pl = base; pl.racks = 1; CASE(good, pl, TCO_E_INCONSISTENT, "placement.racks", "= 1 is fewer than the 2 distinct racks");
    pl = base; pl.racks = 17; CASE(good, pl, TCO_E_INCONSISTENT, "placement.racks", "= 17 exceeds job.accelerators = 16");
    pl = base; pl.zones = 3; CASE(good, pl, TCO_E_INCONSISTENT, "placement.zones", "= 3 exceeds the 2 racks the placement spans");
    pl = base; pl.regions = 3; CASE(good, pl, TCO_E_INCONSISTENT, "placement.regions", "= 3 exceeds the 2 zones the placement spans: regions are made of zones");
    pl = base; pl.regions = -4; CASE(good, pl, TCO_E_RANGE, "placement.regions", "-4");
    pl = base; pl.start_hours = -1; CASE(good, pl, TCO_E_RANGE, "placement.start_hours", "allowed 0 to 1e+06 h");
    pl = base; pl.start_hours = NAN; CASE(good, pl, TCO_E_NOT_FINITE, "placement.start_hours", "finite");
#undef CASE
    assert_true(n <= 32);
    for (int i = 0; i < n; i++) {
        tco_error err = TCO_ERROR_INIT;
        tco_price out = before;
        int rc = tco_placement_price(&out, s, t, p, &cases[i].job, &cases[i].pl, &err);
        if (rc != cases[i].code || strcmp(err.param_name, cases[i].field) != 0)
            print_error("case %d: %s [%s] %s\n", i, tco_status_name(rc), err.param_name, err.message);
        assert_int_equal(rc, cases[i].code);
        assert_int_equal(err.code, cases[i].code);
        assert_int_equal(err.param, 0);
        assert_string_equal(err.param_name, cases[i].field);
        msg_has(&err, cases[i].text);
        assert_memory_equal(&out, &before, sizeof out); /* untouched */
    }
    /* the placement itself is fine */
    tco_price ok = price_ok(s, t, p, &good, &base);
    assert_true(ok.cost > 0);

    /* arguments */
    tco_error err = TCO_ERROR_INIT;
    tco_price out = before;
    assert_int_equal(tco_placement_price(NULL, s, t, p, &good, &base, &err), TCO_E_NULL);
    assert_int_equal(tco_placement_price(&out, NULL, t, p, &good, &base, &err), TCO_E_NULL);
    msg_has(&err, "pools");
    assert_int_equal(tco_placement_price(&out, s, NULL, p, &good, &base, &err), TCO_E_NULL);
    assert_int_equal(tco_placement_price(&out, s, t, NULL, &good, &base, &err), TCO_E_NULL);
    assert_int_equal(tco_placement_price(&out, s, t, p, NULL, &base, &err), TCO_E_NULL);
    assert_int_equal(tco_placement_price(&out, s, t, p, &good, NULL, &err), TCO_E_NULL);
    msg_has(&err, "placement");
    pl = base;
    pl.size = 16;
    assert_int_equal(tco_placement_price(&out, s, t, p, &good, &pl, &err), TCO_E_SIZE);
    msg_has(&err, "tco_placement.size = 16");
    out.size = 8;
    assert_int_equal(tco_placement_price(&out, s, t, p, &good, &base, &err), TCO_E_SIZE);
    msg_has(&err, "tco_price.size = 8");
    /* errors without a detail struct, or with one too small to fill */
    out = before;
    tco_job bad = good;
    bad.duration_hours = -1;
    assert_int_equal(tco_placement_price(&out, s, t, p, &bad, &base, NULL), TCO_E_RANGE);
    tco_error small = TCO_ERROR_INIT;
    small.size = 4;
    assert_int_equal(tco_placement_price(&out, s, t, p, &bad, &base, &small), TCO_E_RANGE);
    assert_int_equal(small.code, 0);
    assert_memory_equal(&out, &before, sizeof out);

    /* handles that are not frozen */
    tco_pools *open;
    tco_topology *open_t;
    tco_pricing *open_p;
    assert_int_equal(tco_pools_new(&open, NULL), TCO_OK);
    assert_int_equal(tco_pools_add(open, &list[0], NULL, NULL), TCO_OK);
    assert_int_equal(tco_topology_new(&open_t, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&open_p, NULL), TCO_OK);
    out.size = sizeof out;
    assert_int_equal(tco_placement_price(&out, open, t, p, &good, &base, &err), TCO_E_NOT_FROZEN);
    msg_has(&err, "pools must be frozen");
    assert_int_equal(tco_placement_price(&out, s, open_t, p, &good, &base, &err), TCO_E_NOT_FROZEN);
    msg_has(&err, "topology");
    assert_int_equal(tco_placement_price(&out, s, t, open_p, &good, &base, &err), TCO_E_NOT_FROZEN);
    msg_has(&err, "pricing");
    tco_pools_free(open);
    tco_topology_free(open_t);
    tco_pricing_free(open_p);
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* Output structs of other sizes: an older caller's (smaller, from V1 up)
 * gets what it knows, a newer caller's (larger) gets the rest zeroed. */
static void test_price_sizes(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_ON_DEMAND, 8, 64, 0, 0, 0, 4, 0) };
    tco_pools *s = pools_from(list, 1);
    tco_topology *t = quiet_topology();
    tco_pricing *p = egress_pricing();
    tco_job job = job_of(16, 0, 10, 0.5, 0, 0, 0);
    int32_t pa[] = { 0, 16 };
    tco_placement pl = placement_of(1, pa, 0);
    tco_price want = price_ok(s, t, p, &job, &pl);
    struct {
        tco_price p;
        double later[3];
    } big;
    memset(&big, 0xff, sizeof big);
    big.p.size = sizeof big;
    assert_int_equal(tco_placement_price(&big.p, s, t, p, &job, &pl, NULL), TCO_OK);
    assert_int_equal(big.p.size, sizeof big);
    assert_memory_equal((char *)&big.p + sizeof(size_t), (char *)&want + sizeof(size_t),
                        sizeof want - sizeof(size_t));
    for (int i = 0; i < 3; i++)
        assert_true(big.later[i] == 0);
    /* the largest size allowed, OUTPUT_MAX_SIZE, is filled the same way;
     * a word more is refused */
    static union {
        tco_price p;
        char bytes[OUTPUT_MAX_SIZE + sizeof(double)];
    } most;
    memset(&most, 0xff, sizeof most);
    most.p.size = OUTPUT_MAX_SIZE;
    assert_int_equal(tco_placement_price(&most.p, s, t, p, &job, &pl, NULL), TCO_OK);
    assert_true(most.p.cost == want.cost);
    assert_true(most.bytes[OUTPUT_MAX_SIZE - 1] == 0 && most.bytes[OUTPUT_MAX_SIZE] == (char)0xff);
    most.p.size = OUTPUT_MAX_SIZE + sizeof(double);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_placement_price(&most.p, s, t, p, &job, &pl, &err), TCO_E_SIZE);
    msg_has(&err, "tco_price.size");
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* Input structs from a newer header: read as far as this version knows
 * when the rest is zero, refused with TCO_E_SIZE naming the struct when a
 * field this version cannot honour is set (doc/api.md, "Structs that
 * grow"), and refused past INPUT_MAX_SIZE. Nothing is written when refused. */
static void test_newer_inputs(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_ON_DEMAND, 8, 64, 0, 0, 0, 4, 0) };
    tco_pools *s = pools_from(list, 1);
    tco_topology *t = quiet_topology();
    tco_pricing *p = egress_pricing();
    tco_job job = job_of(16, 0, 10, 0.5, 0, 0, 0);
    int32_t pa[] = { 0, 16 };
    tco_placement pl = placement_of(1, pa, 0);
    tco_price want = price_ok(s, t, p, &job, &pl), r;
    tco_error err = TCO_ERROR_INIT;

    struct {
        tco_placement pl;
        double later;
    } newer_pl;
    memset(&newer_pl, 0, sizeof newer_pl);
    newer_pl.pl = pl;
    newer_pl.pl.size = sizeof newer_pl;
    r = price_ok(s, t, p, &job, &newer_pl.pl);
    assert_memory_equal(&r, &want, sizeof r);
    newer_pl.later = 42;
    memset(&r, 0x5a, sizeof r);
    r.size = sizeof r;
    assert_int_equal(tco_placement_price(&r, s, t, p, &job, &newer_pl.pl, &err), TCO_E_SIZE);
    assert_string_equal(err.param_name, "placement.size");
    msg_has(&err, "bytes past the");
    assert_true(r.cost != want.cost); /* untouched */

    struct {
        tco_job job;
        double later;
    } newer_job;
    memset(&newer_job, 0, sizeof newer_job);
    newer_job.job = job;
    newer_job.job.size = sizeof newer_job;
    r = price_ok(s, t, p, &newer_job.job, &pl);
    assert_memory_equal(&r, &want, sizeof r);
    newer_job.later = 1;
    assert_int_equal(tco_placement_price(&r, s, t, p, &newer_job.job, &pl, &err), TCO_E_SIZE);
    assert_string_equal(err.param_name, "job.size");
    newer_job.later = 0;
    newer_job.job.size = 1025; /* past INPUT_MAX_SIZE: garbage, not a newer version */
    assert_int_equal(tco_placement_price(&r, s, t, p, &newer_job.job, &pl, &err), TCO_E_SIZE);
    msg_has(&err, "1025");

    /* in a batch: a job's unknown tail fails its placements, not the batch */
    tco_job jobs[2];
    jobs[0] = job;
    jobs[1] = job;
    newer_job.job.size = sizeof newer_job;
    newer_job.later = 1;
    int32_t jx[2] = { 0, 0 }, pool[2] = { 0, 0 }, acc[2] = { 16, 16 }, status[2];
    double cost[2], hours[2];
    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = 2;
    b.max_parts = 1;
    b.job = jx;
    b.pool = pool;
    b.accelerators = acc;
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, &newer_job.job, 1, &b, &err), TCO_OK);
    assert_int_equal(status[0], TCO_E_SIZE);
    assert_true(isnan(cost[1]));
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, jobs, 2, &b, &err), TCO_OK);
    assert_int_equal(status[0], TCO_OK);
    assert_true(cost[0] == want.cost);

    struct {
        tco_placement_batch b;
        double later;
    } newer_b;
    memset(&newer_b, 0, sizeof newer_b);
    newer_b.b = b;
    newer_b.b.size = sizeof newer_b;
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, jobs, 2, &newer_b.b, &err), TCO_OK);
    newer_b.later = 1;
    cost[0] = -1;
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, jobs, 2, &newer_b.b, &err),
                     TCO_E_SIZE);
    assert_string_equal(err.param_name, "batch.size");
    assert_true(cost[0] == -1);

    struct {
        tco_pool pool;
        double later;
    } newer_pool;
    memset(&newer_pool, 0, sizeof newer_pool);
    newer_pool.pool = list[0];
    newer_pool.pool.size = sizeof newer_pool;
    tco_pools *q;
    assert_int_equal(tco_pools_new(&q, NULL), TCO_OK);
    assert_int_equal(tco_pools_add(q, &newer_pool.pool, NULL, &err), TCO_OK);
    newer_pool.later = 1;
    assert_int_equal(tco_pools_add(q, &newer_pool.pool, NULL, &err), TCO_E_SIZE);
    assert_string_equal(err.param_name, "pool.size");
    assert_int_equal(tco_pools_count(q), 1);
    tco_pools_free(q);
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* ---- the batch form ---------------------------------------------------- */

enum { MP = 4, JOBS = 40, COUNT = 6000, POOLS_B = 24 };

typedef struct batch_case {
    tco_job jobs[JOBS];
    int32_t job[COUNT], pool[COUNT * MP], acc[COUNT * MP], racks[COUNT], zones[COUNT], regions[COUNT];
    double start[COUNT];
    double cost[COUNT], completion[COUNT];
    int32_t status[COUNT];
} batch_case;

static batch_case bc;

/* Random jobs (some invalid) and placements (some invalid: unknown pools,
 * too many accelerators, sums that do not match, spans that do not fit,
 * NaN starts, jobs that do not exist). */
static void fill_batch(const tco_pool *list)
{
    for (int j = 0; j < JOBS; j++) {
        bc.jobs[j] = job_of(1 + (int32_t)rnd(60), rnd(4) != 0, 0.1 + 200 * rnd_unit(), rnd_unit(),
                            rnd(4) ? 1e9 * (1 + 1000 * rnd_unit()) : 0, 5 * rnd_unit(), 20 * rnd_unit());
        switch (j % 13) {
        case 3: bc.jobs[j].duration_hours = NAN; break;
        case 7: bc.jobs[j].comm_share = 1.25; break;
        case 11: bc.jobs[j].interruptible = 5; break;
        default: break;
        }
    }
    for (int i = 0; i < COUNT; i++) {
        int32_t j = (int32_t)rnd(JOBS), n = bc.jobs[j].accelerators;
        bc.job[i] = rnd(200) ? j : rnd(2) ? JOBS + (int32_t)rnd(5) : -1;
        int32_t parts = 1 + (int32_t)rnd(MP), left = n;
        for (int32_t k = 0; k < MP; k++) {
            int32_t *pool = &bc.pool[i * MP + k], *acc = &bc.acc[i * MP + k];
            *pool = (int32_t)rnd(POOLS_B);
            if (k >= parts) {
                *acc = rnd(3) ? 0 : (int32_t)rnd(8); /* past the list: 0, or ignored after a 0 */
                continue;
            }
            *acc = k == parts - 1 ? left : 1 + (int32_t)rnd((uint32_t)(left > 1 ? left : 1));
            if (*acc > left)
                *acc = left;
            left -= *acc;
            if (*acc <= 0)
                *acc = 1;
            if (rnd(100) == 0)
                *pool = rnd(2) ? POOLS_B + 3 : -7;
            if (rnd(100) == 0)
                *acc = -(*acc);
        }
        if (parts < MP && bc.acc[i * MP + parts] != 0)
            bc.acc[i * MP + parts] = 0; /* the list ends before max_parts */
        if (rnd(50) == 0)
            bc.acc[i * MP] = 0; /* no parts at all */
        bc.racks[i] = rnd(10) ? 0 : (int32_t)rnd(6) - 1;
        bc.zones[i] = rnd(10) ? 0 : (int32_t)rnd(4) - 1;
        bc.regions[i] = rnd(10) ? 0 : (int32_t)rnd(3) - 1;
        bc.start[i] = rnd(100) ? 24 * rnd_unit() : rnd(2) ? NAN : -1;
        (void)list;
    }
}

/* The single form of batch placement i. */
static tco_placement single_of(int i, int use_spans)
{
    tco_placement pl;
    memset(&pl, 0, sizeof pl);
    pl.size = sizeof pl;
    int32_t parts = 0;
    while (parts < MP && bc.acc[i * MP + parts] != 0)
        parts++;
    pl.parts = parts;
    for (int32_t k = 0; k < parts; k++) {
        pl.pool[k] = bc.pool[i * MP + k];
        pl.accelerators[k] = bc.acc[i * MP + k];
    }
    if (use_spans) {
        pl.racks = bc.racks[i];
        pl.zones = bc.zones[i];
        pl.regions = bc.regions[i];
        pl.start_hours = bc.start[i];
    }
    return pl;
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void compare_with_single(const tco_pools *s, const tco_topology *t, const tco_pricing *p, size_t first,
                                size_t count, int use_spans, int *ok, int *failed)
{
    for (size_t i = first; i < first + count; i++) {
        int32_t j = bc.job[i];
        if (j < 0 || j >= JOBS) {
            assert_int_equal(bc.status[i], TCO_E_INDEX);
            assert_true(isnan(bc.cost[i]) && isnan(bc.completion[i]));
            (*failed)++;
            continue;
        }
        tco_placement pl = single_of((int)i, use_spans);
        tco_price r;
        memset(&r, 0, sizeof r);
        r.size = sizeof r;
        int rc = tco_placement_price(&r, s, t, p, &bc.jobs[j], &pl, NULL);
        if (rc != bc.status[i])
            print_error("placement %zu: single %s, batch %s\n", i, tco_status_name(rc), tco_status_name(bc.status[i]));
        assert_int_equal(rc, bc.status[i]);
        if (rc == TCO_OK) {
            if (!same_bits(r.cost, bc.cost[i]) || !same_bits(r.completion_hours, bc.completion[i]))
                print_error("placement %zu: single %.17g %.17g, batch %.17g %.17g\n", i, r.cost, r.completion_hours,
                            bc.cost[i], bc.completion[i]);
            assert_true(same_bits(r.cost, bc.cost[i]));
            assert_true(same_bits(r.completion_hours, bc.completion[i]));
            (*ok)++;
        } else {
            assert_true(isnan(bc.cost[i]) && isnan(bc.completion[i]));
            (*failed)++;
        }
    }
}

/* The batch keeps one copy of its loop per max_parts, each unrolled, at
 * each width: every copy, 1 to TCO_PLACEMENT_MAX_PARTS, prices as the
 * single form does, to the bit, and refuses what it refuses (a bad pool or count now and then;
 * the parts' sum off for a few). */
static void test_batch_every_max_parts(void **state)
{
    (void)state;
    enum { N = 1500, M = TCO_PLACEMENT_MAX_PARTS };
    tco_pool list[POOLS_B];
    tco_pools *s = random_pools(list, POOLS_B);
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    tco_pricing *p = egress_pricing();
    fill_batch(list);
    static int32_t job[N], pool[N * M], acc[N * M], racks[N];
    static double start[N], cost[N], hours[N];
    static int32_t status[N];
    for (size_t w = 0; w < 2 * M; w++) { /* every max_parts on the widest lanes, then on two */
        size_t m = 1 + w % M;
        tco__placement_two_lanes(w >= M);
        for (size_t i = 0; i < N; i++) {
            int32_t j = (int32_t)rnd(JOBS), left = bc.jobs[j].accelerators, parts = 1 + (int32_t)rnd((uint32_t)m);
            job[i] = j;
            for (int32_t k = 0; k < (int32_t)m; k++) {
                int32_t a = k >= parts || left == 0 ? 0 : k == parts - 1 ? left : 1 + (int32_t)rnd((uint32_t)left);
                left -= a;
                pool[i * m + (size_t)k] = rnd(60) ? (int32_t)rnd(POOLS_B) : POOLS_B + 1;
                acc[i * m + (size_t)k] = rnd(60) ? a : -1;
            }
            if (rnd(20) == 0)
                acc[i * m] += 1; /* the parts no longer add up to the job */
            racks[i] = rnd(4) ? 0 : 2;
            start[i] = 24 * rnd_unit();
        }
        tco_placement_batch b;
        memset(&b, 0, sizeof b);
        b.size = sizeof b;
        b.count = N;
        b.max_parts = m;
        b.job = job;
        b.pool = pool;
        b.accelerators = acc;
        b.racks = racks;
        b.start_hours = start;
        assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, bc.jobs, JOBS, &b, NULL), TCO_OK);
        int priced = 0;
        for (size_t i = 0; i < N; i++) {
            tco_placement pl;
            memset(&pl, 0, sizeof pl);
            pl.size = sizeof pl;
            while ((size_t)pl.parts < m && acc[i * m + (size_t)pl.parts] != 0) {
                pl.pool[pl.parts] = pool[i * m + (size_t)pl.parts];
                pl.accelerators[pl.parts] = acc[i * m + (size_t)pl.parts];
                pl.parts++;
            }
            pl.racks = racks[i];
            pl.start_hours = start[i];
            tco_price r = { .size = sizeof r };
            int rc = tco_placement_price(&r, s, t, p, &bc.jobs[job[i]], &pl, NULL);
            assert_int_equal(rc, status[i]);
            if (rc == TCO_OK) {
                assert_true(same_bits(r.cost, cost[i]) && same_bits(r.completion_hours, hours[i]));
                priced++;
            } else {
                assert_true(isnan(cost[i]) && isnan(hours[i]));
            }
        }
        assert_true(priced > N / 4 && priced < N); /* both kinds, at every max_parts */
    }
    tco__placement_two_lanes(0);
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

static void test_batch_equals_single(void **state)
{
    (void)state;
    tco_pool list[POOLS_B];
    tco_pools *s = random_pools(list, POOLS_B);
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK); /* the defaults: real failure rates */
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    tco_pricing *p = egress_pricing();
    fill_batch(list);

    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = COUNT;
    b.max_parts = MP;
    b.job = bc.job;
    b.pool = bc.pool;
    b.accelerators = bc.acc;
    b.racks = bc.racks;
    b.zones = bc.zones;
    b.regions = bc.regions;
    b.start_hours = bc.start;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_placement_price_batch(bc.cost, bc.completion, bc.status, s, t, p, bc.jobs, JOBS, &b, &err),
                     TCO_OK);
    int ok = 0, failed = 0;
    compare_with_single(s, t, p, 0, COUNT, 1, &ok, &failed);
    /* both kinds in numbers, and every status seen */
    int seen[16] = { 0 };
    for (int i = 0; i < COUNT; i++)
        seen[-bc.status[i] & 15]++;
    print_message("batch: %d priced; refused: %d range, %d not finite, %d inconsistent, %d index, %d size\n",
                  seen[0], seen[-TCO_E_RANGE], seen[-TCO_E_NOT_FINITE], seen[-TCO_E_INCONSISTENT],
                  seen[-TCO_E_INDEX], seen[-TCO_E_SIZE]);
    assert_true(ok > 2000 && failed > 500);
    assert_true(seen[0] && seen[-TCO_E_RANGE] && seen[-TCO_E_NOT_FINITE] && seen[-TCO_E_INCONSISTENT] &&
                seen[-TCO_E_INDEX]);

    /* The same placements in batches of other lengths, from other offsets:
     * the chunking inside the batch changes nothing. */
    static const size_t lengths[] = { 1, 2, 31, 32, 33, 97, 1000 };
    size_t first = 0;
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        tco_placement_batch sub = b;
        sub.count = lengths[k];
        sub.job = bc.job + first;
        sub.pool = bc.pool + first * MP;
        sub.accelerators = bc.acc + first * MP;
        sub.racks = bc.racks + first;
        sub.zones = bc.zones + first;
        sub.regions = bc.regions + first;
        sub.start_hours = bc.start + first;
        double c2[1000], h2[1000];
        int32_t s2[1000];
        assert_int_equal(tco_placement_price_batch(c2, h2, s2, s, t, p, bc.jobs, JOBS, &sub, NULL), TCO_OK);
        for (size_t i = 0; i < lengths[k]; i++) {
            assert_int_equal(s2[i], bc.status[first + i]);
            assert_true(same_bits(c2[i], bc.cost[first + i]));
            assert_true(same_bits(h2[i], bc.completion[first + i]));
        }
        first += lengths[k];
    }

    /* Without the optional arrays: spans counted, starting now. */
    b.racks = b.zones = b.regions = NULL;
    b.start_hours = NULL;
    assert_int_equal(tco_placement_price_batch(bc.cost, bc.completion, bc.status, s, t, p, bc.jobs, JOBS, &b, NULL),
                     TCO_OK);
    ok = failed = 0;
    compare_with_single(s, t, p, 0, COUNT, 0, &ok, &failed);
    assert_true(ok > 2000);
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* The batch's kernel at its widths (lib/sched/kernel.c): four lanes
 * where the processor has AVX2, two on any x86-64, one in the single form.
 * The same random batch (every kind of refusal among its placements) is
 * priced on the widest and on two lanes, whole and at lengths that leave
 * the last group part-filled (the lanes past the end are priced on a copy
 * nobody reads): the same statuses and the same bits, where the single
 * form agrees with the widest too (test_batch_equals_single). On a
 * processor without AVX2 both runs take two lanes. */
static void test_widths_agree(void **state)
{
    (void)state;
    tco_pool list[POOLS_B];
    tco_pools *s = random_pools(list, POOLS_B);
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    tco_pricing *p = egress_pricing();
    fill_batch(list);
#if defined(__x86_64__) && defined(__GNUC__)
    if (!__builtin_cpu_supports("avx2"))
        print_message("no AVX2 here: both runs price on two lanes\n");
#endif
    static double cost[COUNT], hours[COUNT];
    static int32_t status[COUNT];
    static const size_t lengths[] = { COUNT, COUNT - 1, COUNT - 2, COUNT - 3, 5, 1 };
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        tco_placement_batch b;
        memset(&b, 0, sizeof b);
        b.size = sizeof b;
        b.count = lengths[k];
        b.max_parts = MP;
        b.job = bc.job;
        b.pool = bc.pool;
        b.accelerators = bc.acc;
        b.racks = bc.racks;
        b.zones = bc.zones;
        b.regions = bc.regions;
        b.start_hours = bc.start;
        assert_int_equal(tco_placement_price_batch(bc.cost, bc.completion, bc.status, s, t, p, bc.jobs, JOBS, &b, NULL),
                         TCO_OK);
        tco__placement_two_lanes(1);
        int rc = tco_placement_price_batch(cost, hours, status, s, t, p, bc.jobs, JOBS, &b, NULL);
        tco__placement_two_lanes(0);
        assert_int_equal(rc, TCO_OK);
        assert_memory_equal(status, bc.status, lengths[k] * sizeof status[0]);
        assert_memory_equal(cost, bc.cost, lengths[k] * sizeof cost[0]);
        assert_memory_equal(hours, bc.completion, lengths[k] * sizeof hours[0]);
    }
    int priced = 0;
    for (int i = 0; i < COUNT; i++)
        priced += bc.status[i] == TCO_OK;
    assert_true(priced > 2000 && priced < COUNT - 500); /* both kinds */
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* The batch on threads: bc's placements ten times over (60,000: four
 * shares of at most 16,384), priced on 1, 2, 3, 4, one per core and 300
 * (as many as the shares) threads, each time into outputs first filled
 * with a pattern no pricing writes: every cost, completion and status must
 * be the single-threaded batch's, bit for bit, so that a share priced
 * twice, skipped or cut at the wrong place fails. A bad thread count is
 * refused and changes nothing. */
enum { TILES = 10, BIG = TILES * COUNT };
static struct {
    int32_t job[BIG], pool[BIG * MP], acc[BIG * MP], racks[BIG], zones[BIG], regions[BIG];
    double start[BIG], cost[2][BIG], completion[2][BIG];
    int32_t status[2][BIG];
} big;

static void test_batch_threads(void **state)
{
    (void)state;
    tco_pool list[POOLS_B];
    tco_pools *s = random_pools(list, POOLS_B);
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    tco_pricing *p = egress_pricing();
    fill_batch(list);
    for (int k = 0; k < TILES; k++) {
        memcpy(big.job + k * COUNT, bc.job, sizeof bc.job);
        memcpy(big.pool + k * COUNT * MP, bc.pool, sizeof bc.pool);
        memcpy(big.acc + k * COUNT * MP, bc.acc, sizeof bc.acc);
        memcpy(big.racks + k * COUNT, bc.racks, sizeof bc.racks);
        memcpy(big.zones + k * COUNT, bc.zones, sizeof bc.zones);
        memcpy(big.regions + k * COUNT, bc.regions, sizeof bc.regions);
        memcpy(big.start + k * COUNT, bc.start, sizeof bc.start);
    }
    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = BIG;
    b.max_parts = MP;
    b.job = big.job;
    b.pool = big.pool;
    b.accelerators = big.acc;
    b.racks = big.racks;
    b.zones = big.zones;
    b.regions = big.regions;
    b.start_hours = big.start;
    assert_int_equal(tco_placement_price_batch(big.cost[0], big.completion[0], big.status[0], s, t, p, bc.jobs, JOBS,
                                               &b, NULL),
                     TCO_OK);
    size_t priced = 0;
    for (size_t i = 0; i < BIG; i++)
        priced += big.status[0][i] == TCO_OK;
    assert_true(priced > BIG / 3 && priced < BIG); /* both kinds */
    static const int32_t threads[] = { 1, 2, 3, 4, 0, 300 };
    for (size_t k = 0; k < sizeof threads / sizeof threads[0]; k++) {
        memset(big.cost[1], 0x5a, sizeof big.cost[1]);
        memset(big.completion[1], 0x5a, sizeof big.completion[1]);
        memset(big.status[1], 0x5a, sizeof big.status[1]);
        tco_error err = TCO_ERROR_INIT;
        assert_int_equal(tco_placement_price_batch_mt(big.cost[1], big.completion[1], big.status[1], s, t, p, bc.jobs,
                                                      JOBS, &b, threads[k], &err),
                         TCO_OK);
        assert_memory_equal(big.status[1], big.status[0], sizeof big.status[0]);
        assert_memory_equal(big.cost[1], big.cost[0], sizeof big.cost[0]);
        assert_memory_equal(big.completion[1], big.completion[0], sizeof big.completion[0]);
    }
    /* refused: nothing written */
    memset(big.cost[1], 0x5a, sizeof big.cost[1]);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_placement_price_batch_mt(big.cost[1], big.completion[1], big.status[1], s, t, p, bc.jobs, JOBS,
                                                  &b, -1, &err),
                     TCO_E_RANGE);
    assert_string_equal(err.param_name, "threads");
    assert_non_null(strstr(err.message, "threads = -1"));
    assert_int_equal(tco_placement_price_batch_mt(NULL, big.completion[1], big.status[1], s, t, p, bc.jobs, JOBS, &b,
                                                  2, &err),
                     TCO_E_NULL);
    for (size_t i = 0; i < BIG; i++)
        assert_int_equal(((const unsigned char *)big.cost[1])[i], 0x5a);
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

static void test_batch_errors(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_ON_DEMAND, 8, 64, 0, 0, 0, 4, 0) };
    tco_pools *s = pools_from(list, 1);
    tco_topology *t = quiet_topology();
    tco_pricing *p = egress_pricing();
    tco_job jobs[2] = { job_of(8, 0, 10, 0, 0, 0, 0), job_of(16, 0, 10, 0, 0, 0, 0) };
    int32_t job[3] = { 1, 0, 2 }, pool[3] = { 0, 0, 0 }, acc[3] = { 16, 8, 8 };
    double cost[3] = { -1, -1, -1 }, hours[3] = { -1, -1, -1 };
    int32_t status[3] = { 99, 99, 99 };
    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = 3;
    b.max_parts = 1;
    b.job = job;
    b.pool = pool;
    b.accelerators = acc;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, jobs, 2, &b, &err), TCO_OK);
    assert_int_equal(status[0], TCO_OK);
    assert_int_equal(status[1], TCO_OK);
    assert_int_equal(status[2], TCO_E_INDEX); /* job 2 of 2 */
    assert_rel(cost[0], 640 * (1 + 9e-8), 1e-12);
    assert_rel(cost[1], 320 * (1 + 4.5e-8), 1e-12);
    assert_true(isnan(cost[2]) && isnan(hours[2]));

    /* whole-batch errors change nothing */
    double c0 = cost[0];
    assert_int_equal(tco_placement_price_batch(NULL, hours, status, s, t, p, jobs, 2, &b, &err), TCO_E_NULL);
    msg_has(&err, "cost");
    assert_int_equal(tco_placement_price_batch(cost, NULL, status, s, t, p, jobs, 2, &b, &err), TCO_E_NULL);
    assert_int_equal(tco_placement_price_batch(cost, hours, NULL, s, t, p, jobs, 2, &b, &err), TCO_E_NULL);
    assert_int_equal(tco_placement_price_batch(cost, hours, status, NULL, t, p, jobs, 2, &b, &err), TCO_E_NULL);
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, NULL, p, jobs, 2, &b, &err), TCO_E_NULL);
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, NULL, jobs, 2, &b, &err), TCO_E_NULL);
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, jobs, 2, NULL, &err), TCO_E_NULL);
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, NULL, 2, &b, &err), TCO_E_NULL);
    msg_has(&err, "jobs");
    tco_placement_batch bad = b;
    bad.pool = NULL;
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, jobs, 2, &bad, &err), TCO_E_NULL);
    msg_has(&err, "batch.pool");
    bad = b;
    bad.size = 8;
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, jobs, 2, &bad, &err), TCO_E_SIZE);
    bad = b;
    bad.max_parts = 0;
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, jobs, 2, &bad, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "batch.max_parts");
    bad.max_parts = TCO_PLACEMENT_MAX_PARTS + 1;
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, jobs, 2, &bad, &err), TCO_E_RANGE);
    tco_job odd[2];
    memcpy(odd, jobs, sizeof odd);
    odd[0].size = 12; /* neither a tco_job nor a multiple of 8 */
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, odd, 2, &b, &err), TCO_E_SIZE);
    msg_has(&err, "jobs[0].size = 12");
    assert_true(cost[0] == c0 && status[2] == TCO_E_INDEX);
    /* one bad job spoils only its own placements */
    odd[0].size = sizeof(tco_job);
    odd[1].size = 4;
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, odd, 2, &b, &err), TCO_OK);
    assert_int_equal(status[0], TCO_E_SIZE);
    assert_int_equal(status[1], TCO_OK);

    /* nothing to do */
    bad = b;
    bad.count = 0;
    bad.job = NULL;
    status[0] = 99;
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, NULL, 0, &bad, &err), TCO_OK);
    assert_int_equal(status[0], 99);
    /* no jobs at all: every placement names a job that does not exist */
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, NULL, 0, &b, &err), TCO_OK);
    assert_int_equal(status[0], TCO_E_INDEX);

    /* handles that are not frozen */
    tco_pools *open;
    assert_int_equal(tco_pools_new(&open, NULL), TCO_OK);
    assert_int_equal(tco_placement_price_batch(cost, hours, status, open, t, p, jobs, 2, &b, &err), TCO_E_NOT_FROZEN);
    tco_pools_free(open);

    /* jobs stepped through by their size: a newer, larger tco_job */
    struct newer_job {
        tco_job j;
        double later[2];
    } newer[2];
    memset(newer, 0, sizeof newer);
    for (int i = 0; i < 2; i++) {
        newer[i].j = jobs[i];
        newer[i].j.size = sizeof newer[i];
    }
    double c2[3], h2[3];
    int32_t s2[3];
    assert_int_equal(tco_placement_price_batch(c2, h2, s2, s, t, p, &newer[0].j, 2, &b, &err), TCO_OK);
    assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, jobs, 2, &b, &err), TCO_OK);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(s2[i], TCO_OK);
        assert_true(same_bits(c2[i], cost[i]));
    }
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* The upper bounds of a job's fields and of the sizes, each refused on its
 * own naming the field, the output untouched; spans given past the table
 * of reciprocals (64 and more) divide as the formula says. */
static void test_errors_above(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_ON_DEMAND, 8, 128, 0, 0, 0, 4, 0) };
    tco_pools *s = pools_from(list, 1);
    tco_topology *t = quiet_topology();
    tco_pricing *p = egress_pricing();
    const tco_job good = job_of(8, 0, 10, 0.5, 1e9, 1, 1);
    int32_t one[] = { 0, 8 };
    const tco_placement base = placement_of(1, one, 0);
    tco_price before;
    memset(&before, 0x5a, sizeof before);
    before.size = sizeof before;
    typedef struct {
        tco_job job;
        int code;
        const char *field;
    } bound_case;
    bound_case cases[7];
    int n = 0;
    tco_job j;
    j = good; j.accelerators = 10000001; cases[n++] = (bound_case){ j, TCO_E_RANGE, "job.accelerators" };
    j = good; j.duration_hours = 2e6; cases[n++] = (bound_case){ j, TCO_E_RANGE, "job.duration_hours" };
    j = good; j.checkpoint_bytes = 2e17; cases[n++] = (bound_case){ j, TCO_E_RANGE, "job.checkpoint_bytes" };
    j = good; j.traffic_gb_per_accel_hour = 2e6; cases[n++] = (bound_case){ j, TCO_E_RANGE, "job.traffic_gb_per_accel_hour" };
    j = good; j.traffic_gb_per_accel_hour = -1; cases[n++] = (bound_case){ j, TCO_E_RANGE, "job.traffic_gb_per_accel_hour" };
    j = good; j.delay_cost_per_hour = 2e9; cases[n++] = (bound_case){ j, TCO_E_RANGE, "job.delay_cost_per_hour" };
    j = good; j.delay_cost_per_hour = NAN; cases[n++] = (bound_case){ j, TCO_E_NOT_FINITE, "job.delay_cost_per_hour" };
    for (int i = 0; i < n; i++) {
        tco_error err = TCO_ERROR_INIT;
        tco_price out = before;
        int rc = tco_placement_price(&out, s, t, p, &cases[i].job, &base, &err);
        if (rc != cases[i].code || strcmp(err.param_name, cases[i].field) != 0)
            print_error("case %d: %s [%s] %s\n", i, tco_status_name(rc), err.param_name, err.message);
        assert_int_equal(rc, cases[i].code);
        assert_string_equal(err.param_name, cases[i].field);
        assert_memory_equal(&out, &before, sizeof out);
    }
    tco_error err = TCO_ERROR_INIT;
    tco_price out = before;
    tco_placement pl = base;
    pl.start_hours = 2e6;
    assert_int_equal(tco_placement_price(&out, s, t, p, &good, &pl, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "placement.start_hours");
    pl = base;
    pl.size = 65537;
    assert_int_equal(tco_placement_price(&out, s, t, p, &good, &pl, &err), TCO_E_SIZE);
    msg_has(&err, "tco_placement.size = 65537");
    out.size = 65537;
    assert_int_equal(tco_placement_price(&out, s, t, p, &good, &base, &err), TCO_E_SIZE);
    msg_has(&err, "tco_price.size = 65537");
    out.size = before.size;
    assert_memory_equal(&out, &before, sizeof out);
    /* a pricing table of the wrong kind, and one not frozen */
    assert_int_equal(tco_placement_price(&out, s, t, (const tco_pricing *)(const void *)t, &good, &base, &err),
                     TCO_E_TYPE);
    tco_pricing *open_p;
    assert_int_equal(tco_pricing_new(&open_p, NULL), TCO_OK);
    assert_int_equal(tco_placement_price(&out, s, t, open_p, &good, &base, &err), TCO_E_NOT_FROZEN);
    msg_has(&err, "the pricing must be frozen");
    tco_pricing_free(open_p);

    /* 128 accelerators over 100 racks given (no zones or regions): the
     * communicating half slows by 0.05 x (1 - 1/100), so the span adds
     * 10 h x 0.5 x 0.0495 = 0.2475 h at 128 x 4 per hour: 126.72 */
    tco_job wide = job_of(128, 0, 10, 0.5, 0, 0, 0);
    int32_t all[] = { 0, 128 };
    pl = placement_of(1, all, 0);
    pl.racks = 100;
    tco_price r = price_ok(s, t, p, &wide, &pl);
    assert_rel(r.compute, 5120, 1e-15);
    assert_rel(r.slowdown, 126.72, 1e-14);

    /* the batch: a count that cannot be addressed, a NULL array, wrong kinds */
    int32_t job = 0, pool = 0, acc = 8, status = 99;
    double cost = -1, hours = -1;
    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = 1;
    b.max_parts = 1;
    b.job = &job;
    b.pool = &pool;
    b.accelerators = &acc;
    tco_placement_batch bad = b;
    bad.count = SIZE_MAX / 8;
    bad.max_parts = 2;
    assert_int_equal(tco_placement_price_batch(&cost, &hours, &status, s, t, p, &good, 1, &bad, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "batch.count");
    bad = b;
    bad.accelerators = NULL;
    assert_int_equal(tco_placement_price_batch(&cost, &hours, &status, s, t, p, &good, 1, &bad, &err), TCO_E_NULL);
    msg_has(&err, "batch.accelerators");
    bad = b;
    bad.job = NULL;
    assert_int_equal(tco_placement_price_batch(&cost, &hours, &status, s, t, p, &good, 1, &bad, &err), TCO_E_NULL);
    msg_has(&err, "batch.job");
    assert_int_equal(tco_placement_price_batch(&cost, &hours, &status, s, (const tco_topology *)(const void *)p, p,
                                               &good, 1, &b, &err),
                     TCO_E_TYPE);
    assert_true(status == 99 && cost == -1 && hours == -1);
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* Daly's boundary, delta = 2M exactly, where his interval becomes M
 * (doc/model.md, 5). One accelerator on a node of one, both failing once an
 * hour: lambda = 2 per hour, M = 0.5 h. storage_hot_gbps = 2^42 / 3.6e12
 * writes 2^42 B an hour to the bit, so a checkpoint of 2^42 B takes
 * delta = 1 h = 2M and x = delta / 2M = 1. No restart time. With tau = M,
 * Daly's wall time is M (e^((tau + delta)/M) - 1) work / tau = (e^3 - 1)
 * work: 19.0855369231876677 h for an hour of work. (The formula for
 * delta < 2M would give 9/8 (e^(26/9) - 1) = 19.0949941554694 h.) */
static void test_daly_at_two_mtbf(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_ON_DEMAND, 1, 1, 0, 0, 0, 2, 0) };
    tco_pools *s = pools_from(list, 1);
    double gbps = 0x1p42 / 3.6e12;
    assert_true(gbps * 1e9 * 3600 == 0x1p42); /* the premise: an exact rate */
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_ACCELERATOR_MTBF_HOURS, 1, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_NODE_MTBF_HOURS, 1, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_RESTART_MINUTES, 0, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_STORAGE_HOT_GBPS, gbps, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    tco_pricing *p = egress_pricing();
    tco_job job = job_of(1, 0, 1, 0, 0x1p42, 0, 0);
    int32_t a[] = { 0, 1 };
    tco_placement pl = placement_of(1, a, 0);
    tco_price r = price_ok(s, t, p, &job, &pl);
    check_price(&r, 0);
    assert_rel(r.run_hours, 19.0855369231876677, 1e-14);
    assert_rel(r.interruptions, 2 * (19.0855369231876677 - 1), 1e-14);
    assert_rel(r.cost, 2 + 2 * 18.0855369231876677, 1e-14);
    /* the batch form takes the same branch */
    int32_t jx = 0, pool = 0, acc = 1, status = 99;
    double cost = 0, hours = 0;
    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = 1;
    b.max_parts = 1;
    b.job = &jx;
    b.pool = &pool;
    b.accelerators = &acc;
    assert_int_equal(tco_placement_price_batch(&cost, &hours, &status, s, t, p, &job, 1, &b, NULL), TCO_OK);
    assert_int_equal(status, TCO_OK);
    assert_true(same_bits(cost, r.cost) && same_bits(hours, r.completion_hours));
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* The jobs array's stride is jobs[0].size: at least version 1's tco_job,
 * at most INPUT_MAX_SIZE (1,024 B) and a multiple of 8, so that every
 * job's doubles stay aligned. Each rule refused on its own, TCO_E_SIZE
 * naming job.size and the size given, nothing written; a stride of a
 * newer, larger tco_job (its tail zero) prices as this version's. */
static void test_batch_stride_rule(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_ON_DEMAND, 8, 64, 0, 0, 0, 4, 0) };
    tco_pools *s = pools_from(list, 1);
    tco_topology *t = quiet_topology();
    tco_pricing *p = egress_pricing();
    /* room for two jobs of the largest stride tried */
    static union {
        tco_job job;
        unsigned char bytes[2 * 1032];
    } u;
    int32_t job[2] = { 0, 1 }, pool[2] = { 0, 0 }, acc[2] = { 8, 8 }, status[2];
    double cost[2], hours[2];
    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = 2;
    b.max_parts = 1;
    b.job = job;
    b.pool = pool;
    b.accelerators = acc;
    tco_job one = job_of(8, 0, 10, 0, 0, 0, 0);
    size_t v1 = offsetof(tco_job, delay_cost_per_hour) + sizeof(double);
    const size_t bad[] = { sizeof(tco_job) + 4, v1 - 8, 1032, 0 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&u, 0, sizeof u);
        memcpy(u.bytes, &one, sizeof one);
        u.job.size = bad[i];
        status[0] = status[1] = 99;
        cost[0] = cost[1] = -1;
        tco_error err = TCO_ERROR_INIT;
        assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, &u.job, 2, &b, &err), TCO_E_SIZE);
        assert_string_equal(err.param_name, "job.size");
        char want[48];
        snprintf(want, sizeof want, "jobs[0].size = %zu", bad[i]);
        msg_has(&err, want);
        assert_true(status[0] == 99 && status[1] == 99 && cost[0] == -1 && cost[1] == -1);
    }
    /* strides of 8 more than this version's and of exactly 1,024 B price */
    const size_t good[] = { sizeof(tco_job) + 8, 1024 };
    for (size_t i = 0; i < 2; i++) {
        memset(&u, 0, sizeof u);
        for (int k = 0; k < 2; k++) {
            memcpy(u.bytes + k * good[i], &one, sizeof one);
            ((tco_job *)(void *)(u.bytes + k * good[i]))->size = good[i];
        }
        assert_int_equal(tco_placement_price_batch(cost, hours, status, s, t, p, &u.job, 2, &b, NULL), TCO_OK);
        assert_true(status[0] == TCO_OK && status[1] == TCO_OK);
        assert_rel(cost[0], 320 * (1 + 4.5e-8), 1e-12); /* 8 x 4 x 10 h, as in test_batch_errors */
        assert_true(same_bits(cost[0], cost[1]));
    }
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* ---- no allocation ------------------------------------------------------ */

static void test_no_allocation(void **state)
{
    (void)state;
    if (!alloc_counting())
        skip();
    tco_pool list[POOLS_B];
    size_t before = allocations;
    tco_pools *s = random_pools(list, POOLS_B);
    assert_true(allocations > before); /* the counter sees the library */
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    tco_pricing *p = egress_pricing();
    fill_batch(list);
    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = COUNT;
    b.max_parts = MP;
    b.job = bc.job;
    b.pool = bc.pool;
    b.accelerators = bc.acc;
    b.racks = bc.racks;
    b.start_hours = bc.start;
    tco_error err = TCO_ERROR_INIT;
    before = allocations;
    assert_int_equal(tco_placement_price_batch(bc.cost, bc.completion, bc.status, s, t, p, bc.jobs, JOBS, &b, &err),
                     TCO_OK);
    int ok = 0, failed = 0;
    for (int i = 0; i < COUNT; i++) {
        int32_t j = bc.job[i];
        if (j < 0 || j >= JOBS)
            continue;
        tco_placement pl = single_of(i, 1);
        tco_price r;
        r.size = sizeof r;
        if (tco_placement_price(&r, s, t, p, &bc.jobs[j], &pl, &err) == TCO_OK) /* with messages on failure */
            ok++;
        else
            failed++;
    }
    /* whole-batch errors too */
    b.max_parts = 0;
    assert_int_equal(tco_placement_price_batch(bc.cost, bc.completion, bc.status, s, t, p, bc.jobs, JOBS, &b, &err),
                     TCO_E_RANGE);
    assert_int_equal(allocations, before);
    assert_true(ok > 1000 && failed > 100);
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* The pools' edges. A size no header gives (above OUTPUT_MAX_SIZE: garbage)
 * is refused as one below version 1's is. Pools listed out of order sort
 * by (rack, zone, pool): (7, 0) of pools 2 and 3, (7, 1) of pool 0, (9, 2)
 * of pool 1; the entries of rack 7 meet, and the conflict found is pool
 * 0's zone 1 against the last of rack 7 in zone 0, pool 3 (a sort that
 * left rack 9 between them would find none).
 * A freeze with no memory for its check fails and leaves the pools as
 * they were: unfrozen (a pool can still be added), then frozen by the next
 * freeze. */
static void test_pools_edges(void **state)
{
    (void)state;
    tco_pools *s;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_pools_new(&s, NULL), TCO_OK);
    tco_pool p = pool_of(0, 8, 8, 0, 0, 0, 1, 0);
    p.size = (size_t)OUTPUT_MAX_SIZE + sizeof(double); /* an input's bound is 1,024, not an output's */
    assert_int_equal(tco_pools_add(s, &p, NULL, &err), TCO_E_SIZE);
    msg_has(&err, "pool.size = 65544 is past 1024");
    assert_int_equal(tco_pools_count(s), 0);
    tco_pool mixed[] = { pool_of(0, 8, 8, 7, 1, 0, 1, 0), pool_of(0, 8, 8, 9, 2, 0, 1, 0),
                         pool_of(0, 8, 8, 7, 0, 0, 1, 0), pool_of(0, 8, 8, 7, 0, 0, 1, 0) };
    for (int i = 0; i < 4; i++)
        assert_int_equal(tco_pools_add(s, &mixed[i], NULL, NULL), TCO_OK);
    assert_int_equal(tco_pools_freeze(s, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "pool.rack");
    msg_has(&err, "pool 0 puts rack 7 in zone 1, but pool 3 puts it in zone 0");
    tco_pools_free(s);

    if (!alloc_counting())
        return;
    assert_int_equal(tco_pools_new(&s, NULL), TCO_OK);
    for (int i = 0; i < 2; i++)
        assert_int_equal(tco_pools_add(s, &mixed[i], NULL, NULL), TCO_OK);
    alloc_fail_in = 0;
    assert_int_equal(tco_pools_freeze(s, &err), TCO_E_NOMEM);
    alloc_fail_in = -1;
    msg_has(&err, "no memory to check 2 pools");
    assert_int_equal(tco_pools_add(s, &mixed[0], NULL, &err), TCO_OK); /* not frozen */
    assert_int_equal(tco_pools_freeze(s, &err), TCO_OK);
    assert_int_equal(tco_pools_add(s, &mixed[0], NULL, &err), TCO_E_FROZEN);
    tco_pools_free(s);
}

/* Pricing on frozen pools without a pool: no id is a pool, and the message
 * says the pools are empty; a rejected call writes nothing. The batch marks
 * the placement TCO_E_INDEX, with NaN for its figures. */
static void test_empty_pools(void **state)
{
    (void)state;
    tco_pools *s;
    assert_int_equal(tco_pools_new(&s, NULL), TCO_OK);
    assert_int_equal(tco_pools_freeze(s, NULL), TCO_OK);
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    tco_pricing *p = egress_pricing();
    tco_job job = job_of(8, 0, 10, 0, 0, 0, 0);
    int32_t a[] = { 0, 8 };
    tco_placement pl = placement_of(1, a, 0);
    tco_price r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    r.cost = -1;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_placement_price(&r, s, t, p, &job, &pl, &err), TCO_E_INDEX);
    assert_string_equal(err.param_name, "placement.pool[0]");
    msg_has(&err, "placement.pool[0] = 0 is not a pool: the pools are empty");
    assert_true(r.cost == -1);
    int32_t jx = 0, pool = 0, acc = 8, status = 99;
    double cost = 0, hours = 0;
    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = 1;
    b.max_parts = 1;
    b.job = &jx;
    b.pool = &pool;
    b.accelerators = &acc;
    assert_int_equal(tco_placement_price_batch(&cost, &hours, &status, s, t, p, &job, 1, &b, NULL), TCO_OK);
    assert_int_equal(status, TCO_E_INDEX);
    assert_true(isnan(cost) && isnan(hours));
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* The edges of the table of 1/k for spans given: 63 is its last entry, 64
 * the first span divided. 128 accelerators of one pool at 2 per hour for
 * 10 h, comm_share 1, racks given, zones and regions counted (1 each):
 * slowdown = 128 x 2 x 10 x 0.05 x (1 - 1/R) = 128 (1 - 1/R), so
 *   R = 63: 128 x 62/63 = 125.968253968253968...
 *   R = 64: 128 x 63/64 = 126
 *   R = 65: 128 x 64/65 = 126.030769230769230... */
static void test_span_table_edges(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_ON_DEMAND, 8, 128, 0, 0, 0, 2, 0) };
    tco_pools *s = pools_from(list, 1);
    tco_topology *t = quiet_topology();
    tco_pricing *p = egress_pricing();
    tco_job job = job_of(128, 0, 10, 1, 0, 0, 0);
    int32_t a[] = { 0, 128 };
    tco_placement pl = placement_of(1, a, 0);
    const struct {
        int32_t racks;
        double slowdown;
    } edge[] = { { 63, 125.968253968253968 }, { 64, 126 }, { 65, 126.030769230769231 } };
    for (int i = 0; i < 3; i++) {
        pl.racks = edge[i].racks;
        tco_price r = price_ok(s, t, p, &job, &pl);
        check_price(&r, 0);
        assert_rel(r.compute, 2560, 1e-15);
        assert_rel(r.slowdown, edge[i].slowdown, 1e-15);
    }
    tco_pools_free(s);
    tco_topology_free(t);
    tco_pricing_free(p);
}

/* The series' upper edges, where they must still hold to the last bit or
 * so (their remainders are below 5e-17 and 1e-19 of the sums). One
 * accelerator on a node of one, both failing once in 2 h: lambda = 1 per
 * hour, M = 1 h. No checkpoint, half an hour of work: one segment, T / M =
 * 0.5, the edge of e^v - 1's series. Daly's wall time for one segment is
 * M e^(R/M) (e^(T/M) - 1) (doc/model.md, 5):
 *   R = 0: e^0.5 - 1 = 0.648721270700128146848650787814 h
 *   R = 0.9375 min = 1/64 h, the edge of e^r's short series (0.9375 x
 *   1/60 is 1/64 to the bit): e^(1/64) (e^0.5 - 1) = 1.01574770858668574746
 *   x 0.64872127070012814685 = 0.658937144225098244060759810066 h */
static void test_series_edges(void **state)
{
    (void)state;
    tco_pool list[] = { pool_of(TCO_CLASS_ON_DEMAND, 1, 1, 0, 0, 0, 2, 0) };
    tco_pools *s = pools_from(list, 1);
    tco_pricing *p = egress_pricing();
    tco_job job = job_of(1, 0, 0.5, 0, 0, 0, 0);
    int32_t a[] = { 0, 1 };
    tco_placement pl = placement_of(1, a, 0);
    const struct {
        double restart_minutes, wall;
    } edge[] = { { 0, 0.648721270700128146848650787814 }, { 0.9375, 0.658937144225098244060759810066 } };
    for (int i = 0; i < 2; i++) {
        tco_topology *t;
        assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
        assert_int_equal(tco_topology_set(t, TCO_P_ACCELERATOR_MTBF_HOURS, 2, NULL), TCO_OK);
        assert_int_equal(tco_topology_set(t, TCO_P_NODE_MTBF_HOURS, 2, NULL), TCO_OK);
        assert_int_equal(tco_topology_set(t, TCO_P_RESTART_MINUTES, edge[i].restart_minutes, NULL), TCO_OK);
        assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
        tco_price r = price_ok(s, t, p, &job, &pl);
        check_price(&r, 0);
        assert_rel(r.run_hours, edge[i].wall, 3e-16); /* about an ulp */
        assert_rel(r.interruptions, 2 * (edge[i].wall - 0.5), 1e-15);
        tco_topology_free(t);
    }
    tco_pools_free(s);
    tco_pricing_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pools_lifecycle),
        cmocka_unit_test(test_pool_validation),
        cmocka_unit_test(test_pools_nesting),
        cmocka_unit_test(test_one_pool),
        cmocka_unit_test(test_spans_and_traffic),
        cmocka_unit_test(test_interruptions),
        cmocka_unit_test(test_stranded_and_delay),
        cmocka_unit_test(test_against_reliability),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_price_sizes),
        cmocka_unit_test(test_newer_inputs),
        cmocka_unit_test(test_batch_equals_single),
        cmocka_unit_test(test_batch_every_max_parts),
        cmocka_unit_test(test_widths_agree),
        cmocka_unit_test(test_batch_errors),
        cmocka_unit_test(test_batch_threads),
        cmocka_unit_test(test_no_allocation),
        cmocka_unit_test(test_daly_at_two_mtbf),
        cmocka_unit_test(test_batch_stride_rule),
        cmocka_unit_test(test_errors_above),
        cmocka_unit_test(test_pools_edges),
        cmocka_unit_test(test_empty_pools),
        cmocka_unit_test(test_span_table_edges),
        cmocka_unit_test(test_series_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
