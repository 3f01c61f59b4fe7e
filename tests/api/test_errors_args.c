/* Arguments refused before anything is computed, for the entry points of
 * the capacity, storage, identity, value and lifetime rooms: a NULL
 * pointer, a size field out of range, a value out of its range. Each case
 * checks the exact status, that the message or param_name names the input
 * the header says, and that the output was left as it was. And the name
 * tables at both ends: the first and last names as tco.h lists them, NULL
 * one step outside. (tco.h only.) */
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

#define HUGE_SIZE ((size_t)1 << 40)

static void make(scen *s)
{
    scen_defaults(s);
    scen_freeze(s);
}

/* err's message contains want. */
static void says(const tco_error *err, const char *want)
{
    if (!strstr(err->message, want)) {
        print_error("message \"%s\" lacks \"%s\"\n", err->message, want);
        fail();
    }
}

/* rc is code and err names want (in the message). */
#define REFUSED(call, status, want)                                                                        \
    do {                                                                                                   \
        tco_error err_ = TCO_ERROR_INIT;                                                                   \
        tco_error *err = &err_;                                                                            \
        int rc_ = (call);                                                                                  \
        if (rc_ != (status))                                                                               \
            fail_msg("%s: %s, expected %s (%s)", #call, tco_status_name(rc_), tco_status_name(status),   \
                     err_.message);                                                                        \
        assert_int_equal(err_.code, (status));                                                             \
        says(&err_, (want));                                                                               \
        (void)err;                                                                                         \
    } while (0)

/* ---- name tables ------------------------------------------------------- */

static void test_name_tables(void **state)
{
    (void)state;
    assert_string_equal(tco_data_class_name(TCO_DATA_DATASET), "dataset");
    assert_string_equal(tco_data_class_name(TCO_DATA_LOGS), "logs");
    assert_null(tco_data_class_name(-1));
    assert_null(tco_data_class_name(TCO_DATA_LOGS + 1));
    assert_string_equal(tco_tier_name(TCO_TIER_HOT), "hot");
    assert_string_equal(tco_tier_name(TCO_TIER_COLD), "cold");
    assert_null(tco_tier_name(-1));
    assert_null(tco_tier_name(TCO_TIER_COLD + 1));
    assert_string_equal(tco_budget_status_name(TCO_BUDGET_OK), "ok");
    assert_string_equal(tco_budget_status_name(TCO_BUDGET_EXHAUSTED), "exhausted");
    assert_null(tco_budget_status_name(-1));
    assert_null(tco_budget_status_name(TCO_BUDGET_EXHAUSTED + 1));
    assert_string_equal(tco_price_class_name(TCO_CLASS_ON_DEMAND), "on_demand");
    assert_string_equal(tco_price_class_name(TCO_CLASS_OWNED), "owned");
    assert_null(tco_price_class_name(-1));
    assert_null(tco_price_class_name(TCO_CLASS_OWNED + 1));
    assert_string_equal(tco_serve_limit_name(0), "latency");
    assert_string_equal(tco_serve_limit_name(TCO_SERVE_LIMIT_MAX_BATCH), "max_batch");
    assert_null(tco_serve_limit_name(-1));
    assert_null(tco_serve_limit_name(TCO_SERVE_LIMIT_MAX_BATCH + 1));
    assert_string_equal(tco_job_state_name(TCO_JOB_RUNNING), "running");
    assert_null(tco_job_state_name(-1));
    assert_null(tco_job_state_name(TCO_JOB_RUNNING + 1));
    assert_string_equal(tco_handle_kind_name(TCO_HANDLE_TOPOLOGY), "topology");
    assert_string_equal(tco_handle_kind_name(TCO_HANDLE_PRICING), "pricing");
    assert_null(tco_handle_kind_name(TCO_HANDLE_PRICING + 1));
    /* categories and wastes: counted tables */
    int32_t nc = (int32_t)tco_category_count(), nw = (int32_t)tco_waste_count();
    assert_non_null(tco_category_description(0));
    assert_non_null(tco_category_description(nc - 1));
    assert_null(tco_category_description(-1));
    assert_null(tco_category_description(nc));
    assert_string_equal(tco_waste_name(TCO_WASTE_IDLE), "idle");
    assert_non_null(tco_waste_name(nw - 1));
    assert_null(tco_waste_name(-1));
    assert_null(tco_waste_name(nw));
    /* flags: one known flag has a description, a bit no flag uses none */
    assert_non_null(tco_estimate_flag_description(TCO_FLAG_HIDDEN_DERIVED));
    assert_null(tco_estimate_flag_description((uint64_t)1 << 63));
    assert_null(tco_estimate_flag_description(0));
}

/* ---- capacity: the series functions ------------------------------------ */

static void test_series_arguments(void **state)
{
    (void)state;
    const double d[] = { 1, 2, 3, 4 }, pc[] = { 50 };
    double out[1] = { -7 };
    tco_demand_stats st = { .size = sizeof st };
    REFUSED(tco_demand_stats_compute(NULL, d, 4, 1, err), TCO_E_NULL, "out");
    st.size = 8;
    REFUSED(tco_demand_stats_compute(&st, d, 4, 1, err), TCO_E_SIZE, "tco_demand_stats");
    st.size = HUGE_SIZE;
    REFUSED(tco_demand_stats_compute(&st, d, 4, 1, err), TCO_E_SIZE, "tco_demand_stats");
    assert_true(st.size == HUGE_SIZE);

    REFUSED(tco_demand_percentiles(NULL, pc, 1, d, 4, err), TCO_E_NULL, "out");
    REFUSED(tco_demand_percentiles(out, NULL, 1, d, 4, err), TCO_E_NULL, "percentiles");
    REFUSED(tco_demand_time_above(NULL, pc, 1, d, 4, 1, err), TCO_E_NULL, "hours");
    REFUSED(tco_demand_time_above(out, NULL, 1, d, 4, 1, err), TCO_E_NULL, "thresholds");
    REFUSED(tco_demand_time_above(out, pc, 1, d, 4, 0, err), TCO_E_RANGE, "interval_hours");
    REFUSED(tco_demand_time_above(out, pc, 1, d, 4, NAN, err), TCO_E_NOT_FINITE, "interval_hours");
    assert_true(out[0] == -7);
    /* nothing asked: nothing read, nothing written, success */
    assert_int_equal(tco_demand_percentiles(NULL, NULL, 0, d, 4, NULL), TCO_OK);
    assert_int_equal(tco_demand_time_above(NULL, NULL, 0, d, 4, 1, NULL), TCO_OK);

    double c = -7;
    REFUSED(tco_capacity_for_unmet(NULL, 0.1, d, 4, 1, err), TCO_E_NULL, "capacity");
    REFUSED(tco_capacity_for_unmet(&c, NAN, d, 4, 1, err), TCO_E_NOT_FINITE, "max_unmet_share");
    REFUSED(tco_capacity_for_unmet(&c, 1.5, d, 4, 1, err), TCO_E_RANGE, "max_unmet_share");
    REFUSED(tco_capacity_for_unmet(&c, -0.1, d, 4, 1, err), TCO_E_RANGE, "max_unmet_share");
    REFUSED(tco_capacity_for_unmet(&c, 0.1, d, 4, 0, err), TCO_E_RANGE, "interval_hours");
    assert_true(c == -7);
    /* the bounds themselves are allowed: 0 unmet is the peak, 1 is nothing */
    assert_int_equal(tco_capacity_for_unmet(&c, 0, d, 4, 1, NULL), TCO_OK);
    assert_true(c == 4);
    assert_int_equal(tco_capacity_for_unmet(&c, 1, d, 4, 1, NULL), TCO_OK);
    assert_true(c == 0);
}

/* The mean and the extremes of a series longer than one block of four
 * lanes, its largest and smallest values in each lane in turn: what the
 * four-lane pass must combine. Nine values, all 5 but a 9 and a 1: mean
 * 45 / 9 = 5, 90 accelerator-hours at 2 h each. */
static void test_stats_every_lane(void **state)
{
    (void)state;
    for (int lane = 0; lane < 4; lane++) {
        double d[9];
        for (int i = 0; i < 9; i++)
            d[i] = 5;
        d[lane] = 9;           /* the peak in lane `lane` */
        d[(lane + 1) % 4] = 1; /* the least in the next lane */
        tco_demand_stats st = { .size = sizeof st };
        assert_int_equal(tco_demand_stats_compute(&st, d, 9, 2, NULL), TCO_OK);
        assert_true(st.peak == 9 && st.minimum == 1);
        assert_rel(st.mean, 45.0 / 9, 1e-15);
        assert_rel(st.accelerator_hours, 90, 1e-15);
    }
}

/* ---- capacity: budget, lifecycle, logging ------------------------------ */

static void test_budget_arguments(void **state)
{
    (void)state;
    const double spend[] = { 10, 10 };
    tco_pricing *open;
    assert_int_equal(tco_pricing_new(&open, NULL), TCO_OK);
    tco_budget b = { .size = sizeof b };
    b.spent = -7;
    REFUSED(tco_budget_compute(NULL, spend, 2, 1, NULL, 0, open, err), TCO_E_NULL, "out");
    b.size = 8;
    REFUSED(tco_budget_compute(&b, spend, 2, 1, NULL, 0, open, err), TCO_E_SIZE, "tco_budget");
    b.size = sizeof b;
    REFUSED(tco_budget_compute(&b, spend, 2, 1, NULL, 0, open, err), TCO_E_NOT_FROZEN, "frozen");
    assert_true(b.spent == -7);
    tco_pricing_free(open);
}

static void test_storage_arguments(void **state)
{
    (void)state;
    scen s;
    scen_defaults(&s);
    tco_logging l = { .size = sizeof l };
    l.savings_share = -7;
    REFUSED(tco_logging_compare(&l, 30, 30, s.t, s.w, s.p, err), TCO_E_NOT_FROZEN, "frozen");
    scen_freeze(&s);
    REFUSED(tco_logging_compare(NULL, 30, 30, s.t, s.w, s.p, err), TCO_E_NULL, "out");
    l.size = 8;
    REFUSED(tco_logging_compare(&l, 30, 30, s.t, s.w, s.p, err), TCO_E_SIZE, "tco_logging");
    REFUSED(tco_lifecycle_compute(NULL, s.t, s.w, s.p, err), TCO_E_NULL, "out");
    assert_true(l.savings_share == -7);
    scen_free(&s);
}

/* ---- identity: fingerprints and saving --------------------------------- */

static void test_identity_arguments(void **state)
{
    (void)state;
    scen s;
    make(&s);
    uint64_t f = 7;
    REFUSED(tco_topology_fingerprint(NULL, s.t, err), TCO_E_NULL, "out");
    REFUSED(tco_topology_fingerprint(&f, NULL, err), TCO_E_NULL, "topology");
    REFUSED(tco_workload_fingerprint(&f, NULL, err), TCO_E_NULL, "workload");
    REFUSED(tco_pricing_fingerprint(&f, NULL, err), TCO_E_NULL, "pricing");
    /* a handle of another kind is no topology */
    REFUSED(tco_topology_fingerprint(&f, (const tco_topology *)(const void *)s.w, err), TCO_E_TYPE, "workload");
    REFUSED(tco_scenario_fingerprint(NULL, s.t, s.w, s.p, err), TCO_E_NULL, "out");
    REFUSED(tco_scenario_fingerprint(&f, NULL, s.w, s.p, err), TCO_E_NULL, "topology");
    REFUSED(tco_scenario_fingerprint(&f, s.t, NULL, s.p, err), TCO_E_NULL, "workload");
    REFUSED(tco_scenario_fingerprint(&f, s.t, s.w, NULL, err), TCO_E_NULL, "pricing");
    assert_true(f == 7);

    size_t len = 7;
    uint8_t buf[16] = { 0 };
    REFUSED(tco_scenario_save_cbor(buf, sizeof buf, &len, NULL, s.w, s.p, err), TCO_E_NULL, "topology");
    REFUSED(tco_scenario_save_cbor(buf, sizeof buf, &len, s.t, NULL, s.p, err), TCO_E_NULL, "workload");
    REFUSED(tco_scenario_save_cbor(buf, sizeof buf, &len, s.t, s.w, NULL, err), TCO_E_NULL, "pricing");
    REFUSED(tco_workload_save_cbor(buf, sizeof buf, &len, NULL, err), TCO_E_NULL, "must not be NULL");
    REFUSED(tco_pricing_save_cbor(buf, sizeof buf, &len, NULL, err), TCO_E_NULL, "must not be NULL");
    tco_estimate e = { .size = sizeof e };
    REFUSED(tco_estimate_save_cbor(buf, sizeof buf, NULL, &e, err), TCO_E_NULL, "len");
    REFUSED(tco_estimate_save_cbor(buf, sizeof buf, &len, NULL, err), TCO_E_NULL, "estimate");
    e.size = 8;
    REFUSED(tco_estimate_save_cbor(buf, sizeof buf, &len, &e, err), TCO_E_SIZE, "tco_estimate");
    assert_true(len == 7 && buf[0] == 0);

    tco_topology *t = NULL;
    tco_workload *w = NULL;
    tco_pricing *p = NULL;
    REFUSED(tco_scenario_load_cbor(&t, &w, NULL, buf, 1, err), TCO_E_NULL, "p");
    REFUSED(tco_scenario_load_cbor(&t, NULL, &p, buf, 1, err), TCO_E_NULL, "w");
    assert_true(t == NULL && w == NULL && p == NULL);
    scen_free(&s);
}

/* ---- rates and the sweep ------------------------------------------------- */

static void test_rate_and_sweep_arguments(void **state)
{
    (void)state;
    scen s;
    make(&s);
    double r = -7;
    REFUSED(tco_rate(NULL, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, s.t, s.p, err), TCO_E_NULL, "out");
    REFUSED(tco_rate(&r, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, NULL, s.p, err), TCO_E_NULL, "topology");
    REFUSED(tco_rate(&r, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, s.t, NULL, err), TCO_E_NULL, "pricing");
    REFUSED(tco_rate(&r, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, s.t, (const tco_pricing *)(const void *)s.w, err),
            TCO_E_TYPE, "workload");
    char want[32];
    snprintf(want, sizeof want, "key %d is not a rate", (int)TCO_P_MFU);
    REFUSED(tco_rate(&r, TCO_P_MFU, s.t, s.p, err), TCO_E_RANGE, want);
    REFUSED(tco_rate(&r, 987654, s.t, s.p, err), TCO_E_RANGE, "key 987654 is not a rate");
    assert_true(r == -7);

    tco_estimate e[2];
    int32_t status[2] = { 99, 99 };
    int32_t keys[1] = { TCO_P_MFU };
    double values[2] = { 0.3, 0.4 };
    REFUSED(tco_estimate_sweep(e, sizeof e[0], status, 2, NULL, 1, values, s.t, s.w, s.p, err), TCO_E_NULL,
            "keys");
    REFUSED(tco_estimate_sweep(e, sizeof e[0], status, 2, keys, 1, NULL, s.t, s.w, s.p, err), TCO_E_NULL,
            "values");
    REFUSED(tco_estimate_sweep(e, sizeof e[0], NULL, 2, keys, 1, values, s.t, s.w, s.p, err), TCO_E_NULL,
            "status");
    assert_true(status[0] == 99 && status[1] == 99);
    scen_free(&s);
}

/* ---- value: the loss ------------------------------------------------------ */

static void test_loss_arguments(void **state)
{
    (void)state;
    scen s;
    make(&s);
    tco_loss l;
    memset(&l, 0x5a, sizeof l);
    l.size = sizeof l;
    REFUSED(tco_loss_predict(NULL, NULL, s.w, err), TCO_E_NULL, "out");
    REFUSED(tco_loss_predict(&l, NULL, NULL, err), TCO_E_NULL, "workload");
    l.size = 8;
    REFUSED(tco_loss_predict(&l, NULL, s.w, err), TCO_E_SIZE, "tco_loss");
    l.size = HUGE_SIZE;
    REFUSED(tco_loss_predict(&l, NULL, s.w, err), TCO_E_SIZE, "tco_loss");
    tco_scaling_law law;
    assert_int_equal(tco_scaling_law_init(&law, TCO_FIT_HOFFMANN_2022, NULL), TCO_OK);
    law.fit = TCO_FIT_BESIROGLU_2024 + 1;
    l.size = sizeof l;
    REFUSED(tco_loss_predict(&l, &law, s.w, err), TCO_E_RANGE, "fit");
    law.fit = -1;
    REFUSED(tco_loss_at(&l, &law, 1e9, 1e10, err), TCO_E_RANGE, "fit");

    tco_loss_gain g;
    memset(&g, 0x5a, sizeof g);
    g.size = 8;
    REFUSED(tco_loss_per_cost(&g, NULL, s.t, s.w, s.p, s.t, s.w, s.p, err), TCO_E_SIZE, "tco_loss_gain");
    g.size = HUGE_SIZE;
    REFUSED(tco_loss_per_cost(&g, NULL, s.t, s.w, s.p, s.t, s.w, s.p, err), TCO_E_SIZE, "tco_loss_gain");
    const unsigned char *bytes = (const unsigned char *)&g;
    for (size_t i = sizeof g.size; i < sizeof g; i++)
        assert_int_equal(bytes[i], 0x5a);
    scen_free(&s);
}

/* ---- lifetime: the request ------------------------------------------------- */

static void test_lifetime_request(void **state)
{
    (void)state;
    scen s;
    make(&s);
    tco_lifetime life;
    memset(&life, 0x5a, sizeof life);
    life.size = sizeof life;
    tco_lifetime_request q;
    tco_lifetime_request_init(&q);
    REFUSED(tco_lifetime_compute(NULL, NULL, 0, 0, &q, s.t, s.w, s.p, err), TCO_E_NULL, "out");
    REFUSED(tco_lifetime_compute(&life, NULL, 0, 0, NULL, s.t, s.w, s.p, err), TCO_E_NULL, "request");
    q.size = 8;
    REFUSED(tco_lifetime_compute(&life, NULL, 0, 0, &q, s.t, s.w, s.p, err), TCO_E_SIZE, "request.size");
    tco_lifetime_request_init(&q);
    q.years = 0;
    REFUSED(tco_lifetime_compute(&life, NULL, 0, 0, &q, s.t, s.w, s.p, err), TCO_E_RANGE, "request.years");
    q.years = 51;
    REFUSED(tco_lifetime_compute(&life, NULL, 0, 0, &q, s.t, s.w, s.p, err), TCO_E_RANGE, "request.years");
    tco_lifetime_request_init(&q);
    q.discount_rate = -1; /* above -1 only */
    REFUSED(tco_lifetime_compute(&life, NULL, 0, 0, &q, s.t, s.w, s.p, err), TCO_E_RANGE, "request.discount_rate");
    q.discount_rate = NAN;
    REFUSED(tco_lifetime_compute(&life, NULL, 0, 0, &q, s.t, s.w, s.p, err), TCO_E_NOT_FINITE,
            "request.discount_rate");
    tco_lifetime_request_init(&q);
    q.utilisation = NAN;
    REFUSED(tco_lifetime_compute(&life, NULL, 0, 0, &q, s.t, s.w, s.p, err), TCO_E_NOT_FINITE,
            "request.utilisation");
    q.utilisation = 1.5;
    REFUSED(tco_lifetime_compute(&life, NULL, 0, 0, &q, s.t, s.w, s.p, err), TCO_E_RANGE, "request.utilisation");
    q.utilisation = -0.5;
    REFUSED(tco_lifetime_compute(&life, NULL, 0, 0, &q, s.t, s.w, s.p, err), TCO_E_RANGE, "request.utilisation");
    const unsigned char *bytes = (const unsigned char *)&life;
    for (size_t i = sizeof life.size; i < sizeof life; i++)
        assert_int_equal(bytes[i], 0x5a);
    /* the years are optional: without them the life is the same, bit for bit */
    tco_lifetime_request_init(&q);
    q.years = 3;
    tco_lifetime with = { .size = sizeof with }, without = { .size = sizeof without };
    tco_lifetime_year y[3];
    assert_int_equal(tco_lifetime_compute(&with, y, sizeof y[0], 3, &q, s.t, s.w, s.p, NULL), TCO_OK);
    assert_int_equal(tco_lifetime_compute(&without, NULL, 0, 0, &q, s.t, s.w, s.p, NULL), TCO_OK);
    assert_memory_equal(&with, &without, sizeof with);
    assert_rel(with.total, y[0].total + y[1].total + y[2].total, 1e-12);
    tco_lifetime_request_init(NULL); /* no request: nothing to do, no crash */
    scen_free(&s);
}

/* ---- tags and pools -------------------------------------------------------- */

static void test_tags_and_pools_arguments(void **state)
{
    (void)state;
    tco_tags *tags;
    assert_int_equal(tco_tags_new(&tags, NULL), TCO_OK);
    uint32_t id = 7;
    REFUSED(tco_tags_intern(NULL, "a", 1, &id, err), TCO_E_NULL, "tags");
    REFUSED(tco_tags_intern(tags, NULL, 1, &id, err), TCO_E_NULL, "text");
    REFUSED(tco_tags_intern(tags, "a", 1, NULL, err), TCO_E_NULL, "id");
    assert_true(id == 7 && tco_tags_count(tags) == 0);
    tco_tags_free(tags);

    tco_pools *pools;
    assert_int_equal(tco_pools_new(&pools, NULL), TCO_OK);
    tco_pool pool;
    memset(&pool, 0, sizeof pool);
    pool.size = sizeof pool;
    pool.accelerators_per_node = 8;
    pool.free_accelerators = 8;
    pool.rate_per_accel_hour = 2;
    int32_t pid = -1;
    assert_int_equal(tco_pools_add(pools, &pool, &pid, NULL), TCO_OK);
    assert_int_equal(tco_pools_freeze(pools, NULL), TCO_OK);
    tco_pool out;
    memset(&out, 0x5a, sizeof out);
    out.size = 8;
    REFUSED(tco_pools_get(&out, pools, pid, err), TCO_E_SIZE, "tco_pool");
    out.size = HUGE_SIZE;
    REFUSED(tco_pools_get(&out, pools, pid, err), TCO_E_SIZE, "tco_pool");
    assert_true(out.size == HUGE_SIZE && out.rate_per_accel_hour != 2);
    out.size = sizeof out;
    assert_int_equal(tco_pools_get(&out, pools, pid, NULL), TCO_OK);
    assert_true(out.rate_per_accel_hour == 2 && out.accelerators_per_node == 8);
    tco_pools_free(pools);
}

/* ---- handles: NULLs of every kind, texts with control bytes ------------ */

static void test_handle_arguments(void **state)
{
    (void)state;
    double v = 7;
    const char *text = "unchanged";
    /* a NULL handle names the handle, and the parameter when the key is one */
    tco_error e = TCO_ERROR_INIT;
    assert_int_equal(tco_topology_set(NULL, TCO_P_ACCELERATORS, 1, &e), TCO_E_NULL);
    assert_int_equal(e.param, TCO_P_ACCELERATORS);
    says(&e, "topology");
    assert_int_equal(tco_workload_set(NULL, 987654, 1, &e), TCO_E_NULL);
    assert_int_equal(e.param, 987654);
    says(&e, "workload");
    REFUSED(tco_pricing_set(NULL, TCO_P_CURRENCY, 1, err), TCO_E_NULL, "pricing");
    REFUSED(tco_topology_set_text(NULL, TCO_P_ACCELERATOR_MODEL, "B200", err), TCO_E_NULL, "topology");
    REFUSED(tco_workload_set_text(NULL, TCO_P_MFU, "x", err), TCO_E_NULL, "workload");
    REFUSED(tco_pricing_set_text(NULL, TCO_P_CURRENCY, "EUR", err), TCO_E_NULL, "pricing");
    REFUSED(tco_topology_get(NULL, TCO_P_ACCELERATORS, &v, err), TCO_E_NULL, "topology");
    REFUSED(tco_workload_get(NULL, TCO_P_MFU, &v, err), TCO_E_NULL, "workload");
    REFUSED(tco_pricing_get(NULL, TCO_P_SPOT_PER_ACCEL_HOUR, &v, err), TCO_E_NULL, "pricing");
    REFUSED(tco_topology_get_text(NULL, TCO_P_ACCELERATOR_MODEL, &text, err), TCO_E_NULL, "topology");
    REFUSED(tco_workload_get_text(NULL, TCO_P_MFU, &text, err), TCO_E_NULL, "workload");
    REFUSED(tco_pricing_get_text(NULL, TCO_P_CURRENCY, &text, err), TCO_E_NULL, "pricing");
    REFUSED(tco_workload_freeze(NULL, err), TCO_E_NULL, "workload");
    REFUSED(tco_pricing_freeze(NULL, err), TCO_E_NULL, "pricing");
    assert_true(v == 7 && strcmp(text, "unchanged") == 0);
    assert_int_equal(tco_workload_is_frozen(NULL), 0);
    assert_int_equal(tco_pricing_is_frozen(NULL), 0);

    /* clones: NULL out or source; a source of the wrong kind */
    tco_workload *w;
    tco_pricing *p;
    assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    tco_workload *wc = NULL;
    tco_pricing *pc = NULL;
    REFUSED(tco_workload_clone(&wc, NULL, err), TCO_E_NULL, "src");
    REFUSED(tco_pricing_clone(NULL, p, err), TCO_E_NULL, "out");
    REFUSED(tco_workload_clone(&wc, (const tco_workload *)(const void *)p, err), TCO_E_TYPE, "pricing");
    REFUSED(tco_pricing_clone(&pc, (const tco_pricing *)(const void *)w, err), TCO_E_TYPE, "workload");
    assert_null(wc);
    assert_null(pc);
    REFUSED(tco_pricing_freeze((tco_pricing *)(void *)w, err), TCO_E_TYPE, "workload");
    REFUSED(tco_workload_freeze((tco_workload *)(void *)p, err), TCO_E_TYPE, "pricing");

    /* a text: a NULL text names the parameter; DEL and other control bytes
     * are refused, the old text kept */
    REFUSED(tco_pricing_set_text(p, TCO_P_CURRENCY, NULL, err), TCO_E_NULL, "text");
    REFUSED(tco_pricing_set_text(p, TCO_P_CURRENCY, "US\x7f", err), TCO_E_RANGE, "control character (byte 2)");
    REFUSED(tco_pricing_set_text(p, TCO_P_CURRENCY, "U\tS", err), TCO_E_RANGE, "control character (byte 1)");
    REFUSED(tco_pricing_get_text(p, TCO_P_CURRENCY, NULL, err), TCO_E_NULL, "text");
    REFUSED(tco_pricing_get(p, TCO_P_CURRENCY, NULL, err), TCO_E_NULL, "value");
    assert_int_equal(tco_pricing_get_text(p, TCO_P_CURRENCY, &text, NULL), TCO_OK);
    assert_string_equal(text, "USD");
    tco_workload_free(w);
    tco_pricing_free(p);
}

/* ---- parameters by name ----------------------------------------------------- */

static void test_param_find_arguments(void **state)
{
    (void)state;
    int32_t key = 7;
    REFUSED(tco_param_find(NULL, "mfu", err), TCO_E_NULL, "key");
    REFUSED(tco_param_find(&key, NULL, err), TCO_E_NULL, "name");
    REFUSED(tco_param_find(&key, "no_such_parameter", err), TCO_E_UNKNOWN_PARAM, "no_such_parameter");
    assert_true(key == 7);
    assert_int_equal(tco_param_find(&key, "mfu", NULL), TCO_OK);
    assert_int_equal(key, TCO_P_MFU);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_name_tables),
        cmocka_unit_test(test_series_arguments),
        cmocka_unit_test(test_stats_every_lane),
        cmocka_unit_test(test_budget_arguments),
        cmocka_unit_test(test_storage_arguments),
        cmocka_unit_test(test_identity_arguments),
        cmocka_unit_test(test_rate_and_sweep_arguments),
        cmocka_unit_test(test_loss_arguments),
        cmocka_unit_test(test_lifetime_request),
        cmocka_unit_test(test_tags_and_pools_arguments),
        cmocka_unit_test(test_param_find_arguments),
        cmocka_unit_test(test_handle_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
