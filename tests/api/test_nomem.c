/* Failure injection: every allocating entry point, with its Nth allocation
 * failed for every N it reaches (issue: reliability, "failure injection").
 *
 * tests/support/alloc_count.h interposes on the library's malloc family
 * (glibc only, and not under a sanitizer or valgrind, whose allocators it
 * cannot see: the test is skipped there). For each entry point the first call fails
 * its first allocation, the next its second, and so on until the call
 * succeeds: each failure must be TCO_E_NOMEM (the cause, not a confusion of
 * it), leave no block allocated (the live count is back where it was), and
 * leave its output and its arguments as they were. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <tco.h>

/* The allocator that fails on request (tests/support/alloc_count.h). */
#include "alloc_count.h"

/* ---- the driver ------------------------------------------------------------ */

typedef struct ctx ctx;
typedef int (*call_fn)(ctx *c, tco_error *err); /* makes its result in c, returns the status */
typedef void (*undo_fn)(ctx *c);                /* frees what a successful call made */

/* Calls f with its Nth allocation failed, N = 1, 2, ... until it succeeds;
 * returns how many failures it saw. */
static int inject(const char *what, ctx *c, call_fn f, undo_fn undo)
{
    int failures = 0;
    for (size_t n = 1;; n++) {
        tco_error err = TCO_ERROR_INIT;
        long before = alloc_live;
        alloc_fail_in = (long)n - 1;
        int rc = f(c, &err);
        alloc_fail_in = -1;
        if (rc == TCO_OK) {
            if (undo)
                undo(c);
            return failures;
        }
        if (rc != TCO_E_NOMEM)
            fail_msg("%s, allocation %zu failed: %s (%s), not TCO_E_NOMEM", what, n, tco_status_name(rc),
                     err.message);
        if (alloc_live != before)
            fail_msg("%s, allocation %zu failed: %ld blocks left allocated", what, n, alloc_live - before);
        failures++;
        if (n > 100000)
            fail_msg("%s never succeeds", what);
    }
}

/* ---- what is called ------------------------------------------------------------ */

struct ctx {
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    uint8_t cbor[65536];
    size_t cbor_len;
    tco_topology *t2;
    tco_workload *w2;
    tco_pricing *p2;
    double demand[1000], out[8];
    tco_estimate est[4];
    tco_split split;
    tco_summary summary[512];
    double correlation[4096];
    tco_pools *pools;
    tco_tags *tags;
    tco_records *records;
    tco_attribution *attribution;
    tco_findings *findings;
    char text[65536];
    size_t text_len;
    tco_attribution_part *part, *part2, *loaded;
    tco_attribution_part *empty; /* of no records: merged into, it takes in every text */
    uint8_t part_bytes[65536];
    size_t part_len;
    tco_attribution *settled;
    tco_workload *ws; /* a served model: the defaults with a shape */
    tco_serving serving;
    double needed[1000];
};

static const char records_csv[] =
    "start,end,accelerators,utilisation,price_class,state,storage_hot_gb_hours,tag.team,tag.job_id,tag.job_name,"
    "tag.user,tag.kind,tag.fingerprint\n"
    "2026-11-01T00:00:00Z,2026-11-01T10:00:00Z,8,0.02,on_demand,completed,,a,1,n,u,,\n"
    "2026-11-01T00:00:00Z,2026-11-01T05:00:00Z,8,,on_demand,failed,,b,2,t,u,,\n"
    "2026-11-01T06:00:00Z,2026-11-01T10:00:00Z,8,,on_demand,completed,,b,3,t,u,,\n"
    "2026-11-01T00:00:00Z,2026-11-02T00:00:00Z,0,,owned,completed,2400,c,,,u,checkpoint,f\n"
    "2026-11-01T01:00:00Z,2026-11-02T00:00:00Z,0,,owned,completed,2300,c,,,u,checkpoint,f\n";

static int call_topology_new(ctx *c, tco_error *err)
{
    return tco_topology_new(&c->t2, err);
}
static void undo_topology(ctx *c)
{
    tco_topology_free(c->t2);
    c->t2 = NULL;
}
static int call_clone(ctx *c, tco_error *err)
{
    return tco_topology_clone(&c->t2, c->t, err);
}
static int call_load(ctx *c, tco_error *err)
{
    return tco_scenario_load_cbor(&c->t2, &c->w2, &c->p2, c->cbor, c->cbor_len, err);
}
static void undo_load(ctx *c)
{
    tco_topology_free(c->t2);
    tco_workload_free(c->w2);
    tco_pricing_free(c->p2);
    c->t2 = NULL, c->w2 = NULL, c->p2 = NULL;
}
static int call_sweep(ctx *c, tco_error *err)
{
    int32_t status[4], key = TCO_P_MFU;
    double values[4] = { 0.3, 0.35, 0.4, 0.45 };
    return tco_estimate_sweep(c->est, sizeof c->est[0], status, 4, &key, 1, values, c->t, c->w, c->p, err);
}
static int call_percentiles(ctx *c, tco_error *err)
{
    double q[3] = { 50, 90, 99 };
    return tco_demand_percentiles(c->out, q, 3, c->demand, 1000, err);
}
static int call_unmet(ctx *c, tco_error *err)
{
    return tco_capacity_for_unmet(c->out, 0.05, c->demand, 1000, 1, err);
}
static int call_split(ctx *c, tco_error *err)
{
    c->split.size = sizeof c->split;
    return tco_capacity_split(&c->split, c->demand, 1000, 1, c->t, c->w, c->p, err);
}
static int call_serving(ctx *c, tco_error *err)
{
    tco_serve_request q;
    tco_serve_request_init(&q);
    q.rate = c->demand;
    q.n = 1000;
    c->serving.size = sizeof c->serving;
    c->split.size = sizeof c->split;
    return tco_serving_compute(&c->serving, &c->split, c->needed, 1000, &q, c->t, c->ws, c->p, err);
}
static int call_summarise(ctx *c, tco_error *err)
{
    c->summary[0].size = sizeof c->summary[0];
    return tco_summarise(&c->summary[0], c->demand, 1000, 1, err);
}
static int call_rank(ctx *c, tco_error *err)
{
    return tco_rank_correlation(c->out, c->demand, 1, c->demand + 1, 1, 999, err);
}
static int call_monte_carlo(ctx *c, tco_error *err)
{
    tco_uncertain in = { .size = sizeof in, .key = TCO_P_MFU, .distribution = TCO_DIST_UNIFORM, .a = 0.3, .b = 0.5 };
    for (size_t i = 0; i < sizeof c->summary / sizeof c->summary[0]; i++)
        c->summary[i].size = sizeof c->summary[i];
    return tco_monte_carlo(c->summary, sizeof c->summary[0], c->correlation, &in, 1, 7, 16, 1, c->t, c->w, c->p,
                           err);
}
static int call_pools(ctx *c, tco_error *err)
{
    int rc = tco_pools_new(&c->pools, err);
    if (rc)
        return rc;
    tco_pool pool = { .size = sizeof pool, .price_class = TCO_CLASS_ON_DEMAND, .accelerators_per_node = 8,
                      .free_accelerators = 64, .rate_per_accel_hour = 4 };
    int32_t id;
    for (int i = 0; i < 40 && rc == TCO_OK; i++) /* past the first block of pools */
        rc = tco_pools_add(c->pools, &pool, &id, err);
    if (rc) {
        tco_pools_free(c->pools);
        c->pools = NULL;
    }
    return rc;
}
static void undo_pools(ctx *c)
{
    tco_pools_free(c->pools);
    c->pools = NULL;
}
static int call_tags(ctx *c, tco_error *err)
{
    int rc = tco_tags_new(&c->tags, err);
    char text[32];
    uint32_t id;
    for (int i = 0; i < 3000 && rc == TCO_OK; i++) { /* past two growths of the table */
        int n = snprintf(text, sizeof text, "value-%d", i);
        size_t before = tco_tags_count(c->tags);
        rc = tco_tags_intern(c->tags, text, (size_t)n, &id, err);
        if (rc && tco_tags_count(c->tags) != before)
            fail_msg("a failed intern changed the table");
    }
    if (rc) {
        tco_tags_free(c->tags);
        c->tags = NULL;
    }
    return rc;
}
static void undo_tags(ctx *c)
{
    tco_tags_free(c->tags);
    c->tags = NULL;
}
static int call_read(ctx *c, tco_error *err)
{
    return tco_records_read_csv(&c->records, records_csv, sizeof records_csv - 1, 0, err);
}
static void undo_read(ctx *c)
{
    tco_records_free(c->records);
    c->records = NULL;
}
static tco_attribution_request request_of(const ctx *c)
{
    tco_attribution_request q = { .size = sizeof q, .period_start = 1793491200, .period_end = 1793491200 + 86400,
                                  .by_count = 1, .idle_rule = TCO_SPREAD_USAGE, .shared_rule = TCO_SPREAD_EVEN };
    const tco_tags *tags = tco_records_tags(c->records);
    assert_int_equal(tco_tags_find(tags, "team", 4, &q.by_key[0], NULL), TCO_OK);
    return q;
}
static int call_attribute(ctx *c, tco_error *err)
{
    tco_attribution_request q = request_of(c);
    size_t pairs;
    const uint32_t *p = tco_records_tag_pairs(c->records, &pairs);
    return tco_attribute(&c->attribution, tco_records_data(c->records), tco_records_count(c->records), p, pairs,
                         tco_records_tags(c->records), &q, c->t, c->w, c->p, err);
}
static void undo_attribute(ctx *c)
{
    tco_attribution_free(c->attribution);
    c->attribution = NULL;
}
static int call_waste(ctx *c, tco_error *err)
{
    size_t pairs;
    const uint32_t *p = tco_records_tag_pairs(c->records, &pairs);
    return tco_find_waste(&c->findings, c->attribution, tco_records_data(c->records), tco_records_count(c->records),
                          p, pairs, tco_records_tags(c->records), NULL, err);
}
static void undo_waste(ctx *c)
{
    tco_findings_free(c->findings);
    c->findings = NULL;
}
static int call_focus(ctx *c, tco_error *err)
{
    return tco_attribution_focus_csv(c->attribution, tco_records_tags(c->records), NULL, c->text, sizeof c->text,
                                     &c->text_len, err);
}

static int call_part(ctx *c, tco_error *err)
{
    tco_attribution_request q = request_of(c);
    size_t pairs;
    const uint32_t *p = tco_records_tag_pairs(c->records, &pairs);
    return tco_attribute_part(&c->part, tco_records_data(c->records), tco_records_count(c->records), p, pairs,
                              tco_records_tags(c->records), &q, c->t, c->w, c->p, err);
}
static void undo_part(ctx *c)
{
    tco_attribution_part_free(c->part);
    c->part = NULL;
}
static int call_part_load(ctx *c, tco_error *err)
{
    return tco_attribution_part_load(&c->loaded, c->part_bytes, c->part_len, err);
}
static void undo_part_load(ctx *c)
{
    tco_attribution_part_free(c->loaded);
    c->loaded = NULL;
}
/* A failed merge leaves into as it was: its bytes are the same. */
static int call_part_merge(ctx *c, tco_error *err)
{
    size_t len;
    static uint8_t before[sizeof c->part_bytes]; /* not malloc: the failing allocator is everyone's */
    memcpy(before, c->part_bytes, c->part_len);
    int rc = tco_attribution_part_merge(c->part, c->part2, err);
    if (rc) {
        assert_int_equal(tco_attribution_part_save(c->part_bytes, sizeof c->part_bytes, &len, c->part, NULL), TCO_OK);
        assert_true(len == c->part_len && memcmp(before, c->part_bytes, len) == 0);
    }
    return rc;
}
/* Into a part of no records: every group's texts are interned anew and
 * every group filed, each of which can fail; into stays as it was. */
static int call_part_merge_new(ctx *c, tco_error *err)
{
    uint8_t before[256], after[256];
    size_t len, again;
    assert_int_equal(tco_attribution_part_save(before, sizeof before, &len, c->empty, NULL), TCO_OK);
    int rc = tco_attribution_part_merge(c->empty, c->part2, err);
    if (rc) {
        assert_int_equal(tco_attribution_part_save(after, sizeof after, &again, c->empty, NULL), TCO_OK);
        assert_true(again == len && memcmp(before, after, len) == 0);
    }
    return rc;
}
static void undo_part_merge_new(ctx *c)
{
    tco_attribution_part_free(c->empty);
    c->empty = NULL;
}
static int call_settle(ctx *c, tco_error *err)
{
    return tco_attribute_parts(&c->settled, c->part, c->t, c->w, c->p, err);
}
static void undo_settle(ctx *c)
{
    tco_attribution_free(c->settled);
    c->settled = NULL;
}
static int call_waste_part(ctx *c, tco_error *err)
{
    size_t pairs;
    const uint32_t *p = tco_records_tag_pairs(c->records, &pairs);
    return tco_find_waste_part(&c->findings, c->settled, tco_records_data(c->records), tco_records_count(c->records),
                               p, pairs, tco_records_tags(c->records), NULL, c->t, c->w, c->p, err);
}

static void test_every_allocation_fails_cleanly(void **state)
{
    (void)state;
    if (!alloc_counting())
        skip();
    static ctx c;
    memset(&c, 0, sizeof c);
    assert_int_equal(tco_topology_new(&c.t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&c.w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&c.p, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(c.t, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(c.w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(c.p, NULL), TCO_OK);
    assert_int_equal(tco_scenario_save_cbor(c.cbor, sizeof c.cbor, &c.cbor_len, c.t, c.w, c.p, NULL), TCO_OK);
    for (int i = 0; i < 1000; i++)
        c.demand[i] = 500 + (i * 37 % 101);

    /* Each entry point that allocates must fail at least once. */
    assert_true(inject("tco_topology_new", &c, call_topology_new, undo_topology) >= 1);
    assert_true(inject("tco_topology_clone", &c, call_clone, undo_topology) >= 1);
    assert_true(inject("tco_scenario_load_cbor", &c, call_load, undo_load) >= 1);
    assert_true(inject("tco_estimate_sweep", &c, call_sweep, NULL) >= 1);
    assert_true(inject("tco_demand_percentiles", &c, call_percentiles, NULL) >= 1);
    assert_true(inject("tco_capacity_for_unmet", &c, call_unmet, NULL) >= 1);
    assert_true(inject("tco_capacity_split", &c, call_split, NULL) >= 1);
    assert_int_equal(tco_workload_new(&c.ws, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(c.ws, TCO_P_LAYERS, 80, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(c.ws, NULL), TCO_OK);
    assert_true(inject("tco_serving_compute", &c, call_serving, NULL) >= 1);
    tco_workload_free(c.ws);
    assert_true(inject("tco_summarise", &c, call_summarise, NULL) >= 1);
    assert_true(inject("tco_rank_correlation", &c, call_rank, NULL) >= 1);
    assert_true(inject("tco_monte_carlo", &c, call_monte_carlo, NULL) >= 1);
    assert_true(inject("tco_pools_new and _add", &c, call_pools, undo_pools) >= 2);
    assert_true(inject("tco_tags_new and _intern", &c, call_tags, undo_tags) >= 3);
    assert_true(inject("tco_records_read_csv", &c, call_read, undo_read) >= 3);
    assert_int_equal(call_read(&c, NULL), TCO_OK);
    assert_true(inject("tco_attribute", &c, call_attribute, undo_attribute) >= 3);
    assert_int_equal(call_attribute(&c, NULL), TCO_OK);
    assert_true(inject("tco_find_waste", &c, call_waste, undo_waste) >= 3);
    assert_true(inject("tco_attribution_focus_csv", &c, call_focus, NULL) >= 1);
    undo_attribute(&c);

    /* in parts: made, shipped, merged (into unchanged), settled, searched */
    assert_true(inject("tco_attribute_part", &c, call_part, undo_part) >= 3);
    assert_int_equal(call_part(&c, NULL), TCO_OK);
    assert_int_equal(tco_attribution_part_save(c.part_bytes, sizeof c.part_bytes, &c.part_len, c.part, NULL), TCO_OK);
    assert_true(inject("tco_attribution_part_load", &c, call_part_load, undo_part_load) >= 3);
    assert_int_equal(tco_attribution_part_load(&c.part2, c.part_bytes, c.part_len, NULL), TCO_OK);
    assert_true(inject("tco_attribution_part_merge", &c, call_part_merge, NULL) >= 3);
    tco_attribution_request q = request_of(&c);
    size_t pairs;
    const uint32_t *p = tco_records_tag_pairs(c.records, &pairs);
    assert_int_equal(tco_attribute_part(&c.empty, tco_records_data(c.records), 0, p, pairs,
                                        tco_records_tags(c.records), &q, c.t, c.w, c.p, NULL),
                     TCO_OK);
    assert_true(inject("tco_attribution_part_merge into an empty part", &c, call_part_merge_new,
                       undo_part_merge_new) >= 3);
    tco_attribution_part_free(c.part2);
    assert_true(inject("tco_attribute_parts", &c, call_settle, undo_settle) >= 3);
    assert_int_equal(call_settle(&c, NULL), TCO_OK);
    assert_true(inject("tco_find_waste_part", &c, call_waste_part, undo_waste) >= 3);
    undo_settle(&c);
    undo_part(&c);
    undo_read(&c);

    tco_topology_free(c.t);
    tco_workload_free(c.w);
    tco_pricing_free(c.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation_fails_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
