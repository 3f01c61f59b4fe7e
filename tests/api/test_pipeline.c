/* Black-box tests of the data pipeline, tco_data_pipeline_compute (tco.h
 * only).
 *
 * How the expectations are made: each line is worked here from
 * doc/model.md, section 23, re-typed from the model, never read from the
 * library; the estimate's figures it needs (held hours, tokens, compute
 * hours) come from tco_estimate_compute. */
#include <stdlib.h>

#include "support.h"
#include "alloc_count.h"

static tco_estimate estimate_of(const scen *s)
{
    tco_estimate e = { .size = sizeof e };
    assert_int_equal(tco_estimate_compute(&e, s->t, s->w, s->p, NULL), TCO_OK);
    return e;
}

static tco_pipeline price(const scen *s, const tco_pipeline_request *q)
{
    tco_pipeline o = { .size = sizeof o };
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_data_pipeline_compute(&o, q, s->t, s->w, s->p, &err);
    if (rc)
        print_error("pipeline: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    assert_true(isfinite(o.total) && isfinite(o.stall_share));
    assert_true(o.total == o.preprocess_cost + o.storage_cost + o.request_cost + o.ingress_cost + o.nat_cost);
    return o;
}

/* The request the hand-worked case uses. */
static tco_pipeline_request worked_request(void)
{
    tco_pipeline_request q;
    tco_pipeline_request_init(&q);
    q.preprocess_cpu_node_hours_per_tb = 2;
    q.cpu_node_hour_price = 0.5;
    q.dedup_kept_share = 0.6;
    q.compression_ratio = 0.5;
    q.cache_hit_rate = 0.25;
    q.request_price_per_1000 = 0.0004;
    q.internet_ingress_per_gb = 0.01;
    q.nat_per_gb = 0.045;
    q.storage_months = 3;
    return q;
}

static void test_defaults(void **state)
{
    (void)state;
    tco_pipeline_request q;
    memset(&q, 0x5a, sizeof q);
    tco_pipeline_request_init(&q);
    assert_int_equal(q.size, sizeof q);
    assert_true(q.raw_bytes == 0 && q.preprocess_cpu_node_hours_per_tb == 0 && q.cpu_node_hour_price == 0);
    assert_true(q.dedup_kept_share == 1 && q.compression_ratio == 1 && q.cache_hit_rate == 0);
    assert_true(q.prefetch_depth == 2 && q.object_bytes == 16777216);
    assert_true(q.request_price_per_1000 == 0 && q.internet_ingress_per_gb == 0 && q.nat_per_gb == 0);
    assert_true(q.storage_months == 0);
    tco_pipeline_request_init(NULL); /* no crash */

    /* The defaults: nothing pulled is charged, the dataset stored hot for
     * the held months, read once. */
    scen s;
    scen_defaults(&s);
    scen_freeze(&s);
    tco_estimate e = estimate_of(&s);
    tco_pipeline o = price(&s, &q);
    /* dataset = tokens x bytes_per_token = 2e12 x 4 = 8e12 B */
    assert_rel(o.raw_bytes, 8e12, 1e-15);
    assert_rel(o.prepared_bytes, 8e12, 1e-15);
    assert_rel(o.storage_months, e.held_hours / 730.5, 1e-12);
    assert_rel(o.storage_cost, 8000 * e.held_hours / 730.5 * 0.145, 1e-12);
    assert_rel(o.read_bytes, 8e12, 1e-15);
    assert_true(o.preprocess_cost == 0 && o.request_cost == 0 && o.ingress_cost == 0 && o.nat_cost == 0);
    assert_rel(o.total, o.storage_cost, 1e-15);
    assert_rel(o.data_stall_share_floor, 0.02, 1e-15);
    assert_rel(o.estimate_data_stall_share, e.data_stall_share, 1e-15);
    scen_free(&s);
}

static void test_worked_lines(void **state)
{
    (void)state;
    scen s;
    scen_defaults(&s);
    scen_freeze(&s);
    tco_estimate e = estimate_of(&s);
    tco_pipeline_request q = worked_request();
    tco_pipeline o = price(&s, &q);
    /* raw = 8e12 B (the workload's dataset); prepared = 8e12 x 0.6 x 0.5 = 2.4e12 B */
    assert_rel(o.raw_bytes, 8e12, 1e-15);
    assert_rel(o.prepared_bytes, 2.4e12, 1e-15);
    /* preprocessing: 8 TB x 2 node-h/TB = 16 node-h, x 0.5 = 8 */
    assert_rel(o.preprocess_node_hours, 16, 1e-15);
    assert_rel(o.preprocess_cost, 8, 1e-15);
    /* storage: 2,400 GB x 3 months = 7,200 GB-months, x 0.145 = 1,044 */
    assert_rel(o.storage_gb, 2400, 1e-15);
    assert_rel(o.storage_gb_months, 7200, 1e-15);
    assert_rel(o.storage_cost, 1044, 1e-14);
    /* reads: every token, compressed: 2e12 x 4 x 0.5 = 4e12 B (1 epoch, 1 run);
     * from storage x 0.75 = 3e12 B; 3e12 / 16,777,216 = 178,813.93 requests,
     * / 1000 x 0.0004 = 0.071526 */
    assert_rel(o.read_bytes, 4e12, 1e-15);
    assert_rel(o.storage_read_bytes, 3e12, 1e-15);
    assert_rel(o.read_requests, 3e12 / 16777216, 1e-15);
    assert_rel(o.request_cost, 3e12 / 16777216 / 1000 * 0.0004, 1e-14);
    /* pulled: 8,000 GB; ingress x 0.01 = 80, NAT x 0.045 = 360 */
    assert_rel(o.ingress_gb, 8000, 1e-15);
    assert_rel(o.ingress_cost, 80, 1e-14);
    assert_rel(o.nat_cost, 360, 1e-14);
    assert_rel(o.total, 8 + 1044 + 3e12 / 16777216 / 1000 * 0.0004 + 80 + 360, 1e-14);
    /* stall: steps = 2e12 / 4,194,304; batch = 4,194,304 x 4 x 0.5 = 8,388,608 B;
     * fetch = 8,388,608 x 0.75 / 100e9 s; far below the step's compute */
    double steps = e.tokens / 4194304;
    assert_rel(o.steps, steps, 1e-15);
    assert_rel(o.batch_bytes, 8388608, 1e-15);
    assert_rel(o.fetch_seconds, 8388608 * 0.75 / 100e9, 1e-14);
    assert_rel(o.compute_seconds, e.compute_hours * 3600 / steps, 1e-14);
    assert_true(o.compute_seconds > o.fetch_seconds);
    assert_true(o.stall_seconds == 0 && o.stall_share == 0);
    /* prefetch 0: the fetch adds to every step */
    q.prefetch_depth = 0;
    o = price(&s, &q);
    assert_rel(o.stall_share, o.fetch_seconds / (o.compute_seconds + o.fetch_seconds), 1e-14);
    /* raw_bytes given: it is pulled, not the dataset; epochs and runs multiply the reads */
    scen_free(&s);
    scen_defaults(&s);
    SW(&s, TCO_P_EPOCHS, 2);
    SW(&s, TCO_P_RUNS, 3);
    scen_freeze(&s);
    q = worked_request();
    q.raw_bytes = 1e13;
    o = price(&s, &q);
    /* prepared = 1e13 x 0.3 = 3e12; read 2e12 tokens x 2 epochs x 4 B x 0.5 x 3 runs = 2.4e13 */
    assert_rel(o.prepared_bytes, 3e12, 1e-15);
    assert_rel(o.read_bytes, 2.4e13, 1e-15);
    assert_rel(o.ingress_cost, 10000 * 0.01, 1e-14);
    assert_rel(o.preprocess_cost, 10 * 2 * 0.5, 1e-15);
    scen_free(&s);
}

/* A slow hot tier: the fetch is set to 4 step computes (cache 0), so that
 * the hit rate and the depth give round shares. */
static void test_stall_model(void **state)
{
    (void)state;
    scen s;
    scen_defaults(&s);
    SW(&s, TCO_P_BYTES_PER_TOKEN, 4000);
    scen_freeze(&s);
    tco_estimate e = estimate_of(&s);
    double c = e.compute_hours * 3600 / (e.tokens / 4194304); /* s per step */
    double bytes = 4194304.0 * 4000;                          /* one batch, B */
    double gbps = bytes / (4 * c) / 1e9;                      /* fetch = 4c at no hits */
    assert_true(gbps >= 0.01);
    scen_free(&s);
    scen_defaults(&s);
    SW(&s, TCO_P_BYTES_PER_TOKEN, 4000);
    ST(&s, TCO_P_STORAGE_HOT_GBPS, gbps);
    scen_freeze(&s);
    tco_pipeline_request q;
    tco_pipeline_request_init(&q);
    /* hits 0.5: fetch 2c; prefetched, stall c: share c / 2c = 1/2;
     * not prefetched, stall 2c: share 2c / 3c = 2/3 */
    q.cache_hit_rate = 0.5;
    tco_pipeline o = price(&s, &q);
    assert_rel(o.compute_seconds, c, 1e-12);
    assert_rel(o.fetch_seconds, 2 * c, 1e-12);
    assert_rel(o.stall_share, 0.5, 1e-12);
    q.prefetch_depth = 0;
    assert_rel(price(&s, &q).stall_share, 2.0 / 3, 1e-12);
    /* hits 0.75: fetch c; prefetched, hidden (0); not, c / 2c = 1/2 */
    q.cache_hit_rate = 0.75;
    assert_rel(price(&s, &q).stall_share, 0.5, 1e-12);
    q.prefetch_depth = 1;
    assert_true(price(&s, &q).stall_share == 0);
    /* every hit: nothing to fetch */
    q.cache_hit_rate = 1;
    q.prefetch_depth = 0;
    assert_true(price(&s, &q).stall_share == 0);
    scen_free(&s);
}

static void test_monotone(void **state)
{
    (void)state;
    scen s;
    scen_defaults(&s);
    SW(&s, TCO_P_BYTES_PER_TOKEN, 4000);
    ST(&s, TCO_P_STORAGE_HOT_GBPS, 1);
    scen_freeze(&s);
    tco_pipeline_request q = worked_request();
    /* more dedup (a smaller kept share) or more compression never costs more */
    double last = INFINITY;
    for (double kept = 1; kept > 0.05; kept -= 0.1) {
        q.dedup_kept_share = kept;
        double total = price(&s, &q).total;
        assert_true(total <= last);
        last = total;
    }
    q = worked_request();
    last = INFINITY;
    for (double r = 1; r > 0.05; r -= 0.1) {
        q.compression_ratio = r;
        tco_pipeline o = price(&s, &q);
        assert_true(o.total <= last);
        last = o.total;
    }
    /* more cache hits or a deeper prefetch never stall more */
    for (double d = 0; d <= 3; d++) {
        q = worked_request();
        q.prefetch_depth = d;
        last = INFINITY;
        for (double h = 0; h <= 1.0001; h += 0.05) {
            q.cache_hit_rate = fmin(h, 1);
            double share = price(&s, &q).stall_share;
            assert_true(share <= last && share >= 0 && share < 1);
            last = share;
            if (d > 0) {
                tco_pipeline_request shallower = q;
                shallower.prefetch_depth = d - 1;
                assert_true(share <= price(&s, &shallower).stall_share);
            }
        }
    }
    scen_free(&s);
}

static void check_refused(const scen *s, const tco_pipeline_request *q, int code, const char *field)
{
    tco_pipeline o;
    memset(&o, 0xab, sizeof o);
    o.size = sizeof o;
    tco_pipeline keep = o;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_data_pipeline_compute(&o, q, s->t, s->w, s->p, &err);
    if (rc != code)
        print_error("expected %s, got %s: %s\n", tco_status_name(code), tco_status_name(rc), err.message);
    assert_int_equal(rc, code);
    assert_memory_equal(&o, &keep, sizeof o);
    assert_true(err.message[0] != 0);
    if (field) {
        assert_string_equal(err.param_name, field);
        assert_non_null(strstr(err.message, field)); /* the message names it too */
    }
}

/* The same lines as workload and pricing parameters, inside the estimate
 * (doc/model.md, section 23): the worked case again, each line landing in
 * its category, and the figures tco_data_pipeline_compute gives for the
 * same values. */
static void test_in_the_estimate(void **state)
{
    (void)state;
    scen s;
    scen_defaults(&s);
    scen_freeze(&s);
    tco_estimate base = estimate_of(&s);
    /* defaults: the dataset stored as given, read once, nothing charged */
    assert_rel(base.data_stored_bytes, 8e12, 1e-15);
    assert_rel(base.data_read_requests, 8e12 / 16777216, 1e-15);
    assert_true(base.preprocess_cost == 0 && base.data_ingress_cost == 0 && base.storage_request_cost == 0);
    scen_free(&s);

    scen_defaults(&s);
    SW(&s, TCO_P_PREPROCESS_CPU_NODE_HOURS_PER_TB, 2);
    SP(&s, TCO_P_CPU_NODE_HOUR_PRICE, 0.5);
    SW(&s, TCO_P_DATA_KEPT_SHARE, 0.6);
    SW(&s, TCO_P_DATA_COMPRESSION_RATIO, 0.5);
    SW(&s, TCO_P_DATA_CACHE_HIT_RATE, 0.25);
    SP(&s, TCO_P_STORAGE_REQUEST_PER_1000, 0.0004);
    SP(&s, TCO_P_INTERNET_INGRESS_PER_GB, 0.01);
    SP(&s, TCO_P_NAT_PER_GB, 0.045);
    scen_freeze(&s);
    tco_estimate e = estimate_of(&s);
    /* stored 8e12 x 0.6 x 0.5; 8 TB x 2 node-h x 0.5 = 8; 8,000 GB x
     * (0.01 + 0.045) = 440; 3e12 B reach storage, / 16 MiB, x 0.0004 / 1000 */
    assert_rel(e.data_stored_bytes, 2.4e12, 1e-15);
    assert_rel(e.preprocess_cost, 8, 1e-15);
    assert_rel(e.data_ingress_cost, 440, 1e-14);
    assert_rel(e.data_read_requests, 3e12 / 16777216, 1e-15);
    assert_rel(e.storage_request_cost, 3e12 / 16777216 / 1000 * 0.0004, 1e-14);
    /* The run is the same (the floor sets its stalls), so each category
     * moves by its line alone; storage also keeps less of the dataset. */
    assert_true(e.wall_hours == base.wall_hours && e.data_stall_share == base.data_stall_share);
    assert_rel(e.cost[TCO_CAT_NETWORK] - base.cost[TCO_CAT_NETWORK], 440, 1e-9);
    assert_rel(e.cost[TCO_CAT_COMPUTE] - base.cost[TCO_CAT_COMPUTE], 8, 1e-8);
    assert_true(e.cost[TCO_CAT_STORAGE] < base.cost[TCO_CAT_STORAGE]);
    /* tco_data_pipeline_compute, given the same values, says the same */
    tco_pipeline_request q = worked_request();
    q.storage_months = 0;
    tco_pipeline o = price(&s, &q);
    assert_rel(o.prepared_bytes, e.data_stored_bytes, 1e-15);
    assert_rel(o.preprocess_cost, e.preprocess_cost, 1e-15);
    assert_rel(o.ingress_cost + o.nat_cost, e.data_ingress_cost, 1e-15);
    assert_rel(o.read_requests, e.data_read_requests, 1e-15);
    assert_rel(o.request_cost, e.storage_request_cost, 1e-15);
    scen_free(&s);

    /* Images on a slow hot tier: reading sets the stall. With a prefetch
     * the reads overlap the compute, work = max(compute, reading); without
     * one they add. reading = 2e12 x 4,000 B x 0.5 x 0.75 / (0.5 GB/s x
     * 3600) = 1,667 h, against about 576 h of compute. */
    for (int prefetch = 0; prefetch <= 2; prefetch += 2) {
        scen_defaults(&s);
        ST(&s, TCO_P_STORAGE_HOT_GBPS, 0.5);
        SW(&s, TCO_P_BYTES_PER_TOKEN, 4000);
        SW(&s, TCO_P_DATA_COMPRESSION_RATIO, 0.5);
        SW(&s, TCO_P_DATA_CACHE_HIT_RATE, 0.25);
        SW(&s, TCO_P_DATA_PREFETCH_DEPTH, prefetch);
        scen_freeze(&s);
        e = estimate_of(&s);
        double reading = 2e12 * 4000 * 0.5 * 0.75 / (0.5e9 * 3600);
        double work = prefetch ? reading : e.compute_hours + reading;
        assert_true(work > e.compute_hours / (1 - 0.02));
        assert_rel(e.data_stall_share, 1 - e.compute_hours / work, 1e-12);
        assert_true(e.flags & TCO_FLAG_STALL_BANDWIDTH);
        /* the request's per-step model gives the same share */
        tco_pipeline_request r;
        tco_pipeline_request_init(&r);
        r.compression_ratio = 0.5;
        r.cache_hit_rate = 0.25;
        r.prefetch_depth = prefetch;
        o = price(&s, &r);
        assert_rel(o.stall_share, e.data_stall_share, 1e-12);
        scen_free(&s);
    }

    /* A tier that serves 0.1 requests a second: 8e12 B in 16 MiB requests
     * is 476,837.16 requests, 1,324.55 h to read whatever the bandwidth,
     * against about 576 h of compute; the request's model agrees. */
    scen_defaults(&s);
    ST(&s, TCO_P_STORAGE_HOT_IOPS, 0.1);
    scen_freeze(&s);
    e = estimate_of(&s);
    double reading = 8e12 / 16777216 / (0.1 * 3600);
    assert_rel(e.data_stall_share, 1 - e.compute_hours / reading, 1e-12);
    assert_rel(e.data_stall_hours, reading - e.compute_hours, 1e-12);
    tco_pipeline_request r;
    tco_pipeline_request_init(&r);
    o = price(&s, &r);
    assert_rel(o.stall_share, e.data_stall_share, 1e-12);
    scen_free(&s);
    /* published hours too short for the requests: the hours are named */
    scen_defaults(&s);
    ST(&s, TCO_P_STORAGE_HOT_IOPS, 0.1);
    SW(&s, TCO_P_RUN_ACCELERATOR_HOURS, 1024 * 700.0);
    scen_freeze(&s);
    tco_estimate x = { .size = sizeof x };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_estimate_compute(&x, s.t, s.w, s.p, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "run_accelerator_hours");
    assert_non_null(strstr(err.message, "storage_hot_iops = 0.1"));
    scen_free(&s);
}

static void test_bad_input(void **state)
{
    (void)state;
    scen s;
    scen_defaults(&s);
    scen_freeze(&s);
    const struct {
        size_t off;
        double v;
        int code;
        const char *field;
    } bad[] = {
        { offsetof(tco_pipeline_request, dedup_kept_share), 1.2, TCO_E_RANGE, "pipeline.dedup_kept_share" },
        { offsetof(tco_pipeline_request, dedup_kept_share), 0, TCO_E_RANGE, "pipeline.dedup_kept_share" },
        { offsetof(tco_pipeline_request, dedup_kept_share), NAN, TCO_E_NOT_FINITE, "pipeline.dedup_kept_share" },
        { offsetof(tco_pipeline_request, compression_ratio), 0, TCO_E_RANGE, "pipeline.compression_ratio" },
        { offsetof(tco_pipeline_request, compression_ratio), 1.5, TCO_E_RANGE, "pipeline.compression_ratio" },
        { offsetof(tco_pipeline_request, cache_hit_rate), -0.1, TCO_E_RANGE, "pipeline.cache_hit_rate" },
        { offsetof(tco_pipeline_request, cache_hit_rate), INFINITY, TCO_E_NOT_FINITE, "pipeline.cache_hit_rate" },
        { offsetof(tco_pipeline_request, prefetch_depth), 1.5, TCO_E_RANGE, "pipeline.prefetch_depth" },
        { offsetof(tco_pipeline_request, prefetch_depth), -1, TCO_E_RANGE, "pipeline.prefetch_depth" },
        { offsetof(tco_pipeline_request, prefetch_depth), 1e5, TCO_E_RANGE, "pipeline.prefetch_depth" },
        { offsetof(tco_pipeline_request, raw_bytes), -1, TCO_E_RANGE, "pipeline.raw_bytes" },
        { offsetof(tco_pipeline_request, raw_bytes), -INFINITY, TCO_E_NOT_FINITE, "pipeline.raw_bytes" },
        { offsetof(tco_pipeline_request, preprocess_cpu_node_hours_per_tb), -2, TCO_E_RANGE,
          "pipeline.preprocess_cpu_node_hours_per_tb" },
        { offsetof(tco_pipeline_request, cpu_node_hour_price), NAN, TCO_E_NOT_FINITE, "pipeline.cpu_node_hour_price" },
        { offsetof(tco_pipeline_request, request_price_per_1000), -1, TCO_E_RANGE, "pipeline.request_price_per_1000" },
        { offsetof(tco_pipeline_request, object_bytes), 0, TCO_E_RANGE, "pipeline.object_bytes" },
        { offsetof(tco_pipeline_request, internet_ingress_per_gb), 1e4, TCO_E_RANGE,
          "pipeline.internet_ingress_per_gb" },
        { offsetof(tco_pipeline_request, nat_per_gb), -0.01, TCO_E_RANGE, "pipeline.nat_per_gb" },
        { offsetof(tco_pipeline_request, storage_months), -1, TCO_E_RANGE, "pipeline.storage_months" },
        { offsetof(tco_pipeline_request, storage_months), NAN, TCO_E_NOT_FINITE, "pipeline.storage_months" },
    };
    tco_pipeline_request q;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tco_pipeline_request_init(&q);
        memcpy((char *)&q + bad[i].off, &bad[i].v, sizeof(double));
        check_refused(&s, &q, bad[i].code, bad[i].field);
    }
    /* the dedup message gives the allowed range */
    tco_pipeline_request_init(&q);
    q.dedup_kept_share = 1.2;
    tco_pipeline o = { .size = sizeof o };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_data_pipeline_compute(&o, &q, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "above 0 to 1"));
    /* sizes */
    tco_pipeline_request_init(&q);
    q.size = 8;
    check_refused(&s, &q, TCO_E_SIZE, "pipeline.size");
    struct {
        tco_pipeline_request q;
        double newer;
    } big;
    memset(&big, 0, sizeof big);
    tco_pipeline_request_init(&big.q);
    big.q.size = sizeof big;
    big.newer = 1; /* a field this library cannot honour */
    check_refused(&s, &big.q, TCO_E_SIZE, "pipeline.size");
    big.newer = 0;
    assert_int_equal(tco_data_pipeline_compute(&o, &big.q, s.t, s.w, s.p, NULL), TCO_OK);
    tco_pipeline_request_init(&q);
    o.size = 16;
    assert_int_equal(tco_data_pipeline_compute(&o, &q, s.t, s.w, s.p, NULL), TCO_E_SIZE);
    /* a larger output (a newer caller's) gets zeros past what this version knows */
    struct {
        tco_pipeline o;
        double newer;
    } wide;
    memset(&wide, 0xab, sizeof wide);
    wide.o.size = sizeof wide;
    assert_int_equal(tco_data_pipeline_compute(&wide.o, &q, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(wide.newer == 0 && wide.o.size == sizeof wide);
    o.size = sizeof o;
    assert_int_equal(tco_data_pipeline_compute(NULL, &q, s.t, s.w, s.p, NULL), TCO_E_NULL);
    assert_int_equal(tco_data_pipeline_compute(&o, NULL, s.t, s.w, s.p, NULL), TCO_E_NULL);
    assert_int_equal(tco_data_pipeline_compute(&o, &q, NULL, s.w, s.p, NULL), TCO_E_NULL);
    assert_int_equal(tco_data_pipeline_compute(&o, &q, s.t, NULL, s.p, NULL), TCO_E_NULL);
    assert_int_equal(tco_data_pipeline_compute(&o, &q, s.t, s.w, NULL, NULL), TCO_E_NULL);
    /* wrong kinds of handle, passed through casts */
    check_refused(&(scen){ (tco_topology *)s.w, s.w, s.p }, &q, TCO_E_TYPE, NULL);
    check_refused(&(scen){ s.t, s.w, (tco_pricing *)s.t }, &q, TCO_E_TYPE, NULL);
    scen_free(&s);
    /* unfrozen */
    scen_defaults(&s);
    check_refused(&s, &q, TCO_E_NOT_FROZEN, NULL);
    scen_free(&s);
    /* a scenario the estimate refuses: its error, nothing written */
    scen_defaults(&s);
    ST(&s, TCO_P_STORAGE_HOT_TB, 1);
    scen_freeze(&s);
    check_refused(&s, &q, TCO_E_INCONSISTENT, NULL);
    scen_free(&s);
}

static void test_allocates_nothing(void **state)
{
    (void)state;
    if (!alloc_counting())
        skip();
    scen s;
    scen_defaults(&s);
    scen_freeze(&s);
    tco_pipeline_request q = worked_request();
    tco_pipeline o = { .size = sizeof o };
    tco_error err = TCO_ERROR_INIT;
    size_t before = allocations;
    for (int i = 0; i < 100; i++)
        assert_int_equal(tco_data_pipeline_compute(&o, &q, s.t, s.w, s.p, &err), TCO_OK);
    q.dedup_kept_share = 2;
    assert_int_equal(tco_data_pipeline_compute(&o, &q, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_int_equal(allocations, before);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),      cmocka_unit_test(test_worked_lines),
        cmocka_unit_test(test_stall_model),   cmocka_unit_test(test_monotone),
        cmocka_unit_test(test_bad_input),     cmocka_unit_test(test_allocates_nothing),
        cmocka_unit_test(test_in_the_estimate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
