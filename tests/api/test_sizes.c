/* Sizes checked both ways, and handles of the wrong kind refused (tco.h
 * only; doc/api.md, "Size-prefixed structs").
 *
 * An output struct whose size field is garbage (2^40: far past any struct)
 * must be refused with TCO_E_SIZE before anything is written: written, it
 * would run past the caller's memory, and this test would crash. Output
 * arrays' element sizes the same, and refused when not a multiple of 8. A
 * handle of one kind passed, through a cast, where another is expected is
 * TCO_E_TYPE, never priced, fingerprinted or saved. */
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

#define HUGE_SIZE ((size_t)1 << 40)

static void make(scen *s)
{
    scen_defaults(s);
    scen_freeze(s);
}

/* Every output struct: a huge size is refused, nothing written. */
static void test_output_structs(void **state)
{
    (void)state;
    scen s;
    make(&s);
    tco_error err = TCO_ERROR_INIT;
    union {
        size_t size;
        tco_estimate estimate;
        tco_param_info param;
        tco_field_info field;
        tco_accelerator accelerator;
        tco_lifecycle lifecycle;
        tco_logging logging;
        tco_bandwidth bandwidth;
        tco_split split;
        tco_budget budget;
        tco_sizing sizing;
        tco_summary summary;
        tco_lifetime lifetime;
        unsigned char bytes[16384];
    } u;
#define REFUSED(call)                                                                                      \
    do {                                                                                                   \
        memset(&u, 0x5a, sizeof u);                                                                        \
        u.size = HUGE_SIZE;                                                                                \
        assert_int_equal((call), TCO_E_SIZE);                                                              \
        assert_non_null(strstr(err.message, "from"));                                                      \
        for (size_t i = sizeof u.size; i < sizeof u; i++)                                                  \
            if (u.bytes[i] != 0x5a)                                                                        \
                fail_msg("%s wrote byte %zu", #call, i);                                                   \
    } while (0)
    REFUSED(tco_estimate_compute(&u.estimate, s.t, s.w, s.p, &err));
    REFUSED(tco_param_info_at(&u.param, 0, &err));
    REFUSED(tco_param_info_get(&u.param, TCO_P_MFU, &err));
    REFUSED(tco_estimate_field_at(&u.field, 0, &err));
    REFUSED(tco_accelerator_at(&u.accelerator, 0, &err));
    REFUSED(tco_lifecycle_compute(&u.lifecycle, s.t, s.w, s.p, &err));
    REFUSED(tco_logging_compare(&u.logging, 30, 30, s.t, s.w, s.p, &err));
    REFUSED(tco_bandwidth_compute(&u.bandwidth, s.t, s.w, s.p, &err));
    double demand[4] = { 1, 2, 3, 4 };
    REFUSED(tco_capacity_split(&u.split, demand, 4, 1, s.t, s.w, s.p, &err));
    REFUSED(tco_budget_compute(&u.budget, demand, 4, 1, NULL, 0, s.p, &err));
    tco_target target = { .size = sizeof target };
    REFUSED(tco_size(&u.sizing, &target, s.t, s.w, s.p, &err));
    REFUSED(tco_summarise(&u.summary, demand, 4, 1, &err));
    tco_lifetime_request q;
    tco_lifetime_request_init(&q);
    REFUSED(tco_lifetime_compute(&u.lifetime, NULL, 0, 0, &q, s.t, s.w, s.p, &err));
#undef REFUSED
    scen_free(&s);
}

/* 64 KiB itself, the largest size an output struct may give (doc/api.md),
 * is taken by the capacity room's outputs and a parameter's tco_param_info
 * (filled, the rest zeroed), and as the stride of a sweep's rows. */
static void test_largest_output_size(void **state)
{
    (void)state;
    scen s;
    make(&s);
    static union {
        size_t size;
        tco_lifecycle lifecycle;
        tco_logging logging;
        tco_bandwidth bandwidth;
        tco_split split;
        tco_param_info param;
        tco_estimate estimate;
        unsigned char bytes[65536];
    } u;
#define FILLED(call, type)                                                                                 \
    do {                                                                                                   \
        memset(&u, 0x5a, sizeof u);                                                                        \
        u.size = sizeof u;                                                                                 \
        assert_int_equal((call), TCO_OK);                                                                  \
        for (size_t i = sizeof(type); i < sizeof u; i++)                                                   \
            if (u.bytes[i] != 0)                                                                           \
                fail_msg("%s left byte %zu", #call, i);                                                    \
    } while (0)
    FILLED(tco_lifecycle_compute(&u.lifecycle, s.t, s.w, s.p, NULL), tco_lifecycle);
    FILLED(tco_logging_compare(&u.logging, 30, 30, s.t, s.w, s.p, NULL), tco_logging);
    FILLED(tco_bandwidth_compute(&u.bandwidth, s.t, s.w, s.p, NULL), tco_bandwidth);
    double demand[4] = { 1, 2, 3, 4 };
    FILLED(tco_capacity_split(&u.split, demand, 4, 1, s.t, s.w, s.p, NULL), tco_split);
    FILLED(tco_param_info_at(&u.param, 0, NULL), tco_param_info);
#undef FILLED
    /* and as the stride of an array: a sweep of one estimate */
    int32_t status, key = TCO_P_MFU;
    double mfu = 0.3;
    assert_int_equal(tco_estimate_sweep(&u.estimate, sizeof u, &status, 1, &key, 1, &mfu, s.t, s.w, s.p, NULL),
                     TCO_OK);
    assert_true(status == TCO_OK && u.estimate.total > 0);
    scen_free(&s);
}

/* Output arrays: element sizes huge or not a multiple of 8 are refused. */
static void test_output_arrays(void **state)
{
    (void)state;
    scen s;
    make(&s);
    tco_error err = TCO_ERROR_INIT;
    static tco_estimate out[2];
    int32_t status[2], key = TCO_P_MFU;
    double values[2] = { 0.3, 0.4 };
    const size_t bad[] = { HUGE_SIZE, sizeof(tco_estimate) + 4, 8 };
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(tco_estimate_sweep(out, bad[i], status, 2, &key, 1, values, s.t, s.w, s.p, &err),
                         TCO_E_SIZE);
        assert_string_equal(err.param_name, "out_size");
    }
    static tco_option options[2];
    const tco_topology *ts[2] = { s.t, s.t };
    const tco_workload *ws[2] = { s.w, s.w };
    const tco_pricing *ps[2] = { s.p, s.p };
    assert_int_equal(tco_compare(options, HUGE_SIZE, 2, ts, ws, ps, &err), TCO_E_SIZE);
    static tco_swing rows[4];
    size_t n;
    assert_int_equal(tco_sensitivity(rows, sizeof rows[0] + 4, 4, &n, 0.1, s.t, s.w, s.p, &err), TCO_E_SIZE);
    static tco_summary summaries[4];
    tco_uncertain in = { .size = sizeof in, .key = TCO_P_MFU, .distribution = TCO_DIST_UNIFORM, .a = 0.3, .b = 0.5 };
    static double correlation[1024];
    assert_int_equal(tco_monte_carlo(summaries, HUGE_SIZE, correlation, &in, 1, 1, 4, 1, s.t, s.w, s.p, &err),
                     TCO_E_SIZE);
    assert_string_equal(err.param_name, "summary_size");
    tco_lifetime life = { .size = sizeof life };
    tco_lifetime_year years[5];
    tco_lifetime_request q;
    tco_lifetime_request_init(&q);
    assert_int_equal(tco_lifetime_compute(&life, years, sizeof years[0] + 4, 5, &q, s.t, s.w, s.p, &err),
                     TCO_E_SIZE);
    assert_string_equal(err.param_name, "year_size");
    scen_free(&s);
}

/* A handle of the wrong kind, through a cast: TCO_E_TYPE, never priced. */
static void test_wrong_kind(void **state)
{
    (void)state;
    scen s;
    make(&s);
    tco_error err = TCO_ERROR_INIT;
    tco_estimate e = { .size = sizeof e };
    const tco_topology *workload_as_topology = (const tco_topology *)(const void *)s.w;
    assert_int_equal(tco_estimate_compute(&e, workload_as_topology, s.w, s.p, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "topology given is a workload"));
    const tco_pricing *topology_as_pricing = (const tco_pricing *)(const void *)s.t;
    assert_int_equal(tco_estimate_compute(&e, s.t, s.w, topology_as_pricing, &err), TCO_E_TYPE);
    tco_budget b = { .size = sizeof b };
    double spend[2] = { 1, 2 };
    assert_int_equal(tco_budget_compute(&b, spend, 2, 1, NULL, 0, topology_as_pricing, &err), TCO_E_TYPE);
    tco_topology *clone = NULL;
    assert_int_equal(tco_topology_clone(&clone, workload_as_topology, &err), TCO_E_TYPE);
    assert_null(clone);
    tco_workload *w;
    assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze((tco_topology *)(void *)w, &err), TCO_E_TYPE);
    assert_false(tco_workload_is_frozen(w));
    tco_workload_free(w);
    scen_free(&s);
}

/* Fingerprints and files of a handle of the wrong kind: refused too, never
 * a fingerprint or a file of the wrong kind (nor a scenario of swapped
 * parts); nothing written. */
static void test_wrong_kind_identity(void **state)
{
    (void)state;
    scen s;
    make(&s);
    tco_error err = TCO_ERROR_INIT;
    const tco_topology *w_as_t = (const tco_topology *)(const void *)s.w;
    const tco_workload *p_as_w = (const tco_workload *)(const void *)s.p;
    const tco_pricing *t_as_p = (const tco_pricing *)(const void *)s.t;
    uint64_t f = 7;
    assert_int_equal(tco_topology_fingerprint(&f, w_as_t, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "topology given is a workload"));
    assert_int_equal(tco_workload_fingerprint(&f, p_as_w, &err), TCO_E_TYPE);
    assert_int_equal(tco_pricing_fingerprint(&f, t_as_p, &err), TCO_E_TYPE);
    assert_int_equal(tco_scenario_fingerprint(&f, w_as_t, p_as_w, t_as_p, &err), TCO_E_TYPE);
    assert_int_equal(tco_scenario_fingerprint(&f, s.t, p_as_w, s.p, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "workload given is a pricing"));
    assert_int_equal(tco_scenario_fingerprint(&f, s.t, s.w, t_as_p, &err), TCO_E_TYPE);
    assert_true(f == 7);
    uint8_t buf[8192];
    memset(buf, 0x5a, sizeof buf);
    size_t len = 7;
    assert_int_equal(tco_topology_save_cbor(buf, sizeof buf, &len, w_as_t, &err), TCO_E_TYPE);
    assert_int_equal(tco_workload_save_cbor(buf, sizeof buf, &len, p_as_w, &err), TCO_E_TYPE);
    assert_int_equal(tco_pricing_save_cbor(NULL, 0, &len, t_as_p, &err), TCO_E_TYPE);
    assert_int_equal(tco_scenario_save_cbor(buf, sizeof buf, &len, s.t, s.w, t_as_p, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "pricing given is a topology"));
    assert_int_equal(tco_scenario_save_cbor(buf, sizeof buf, &len, w_as_t, s.w, s.p, &err), TCO_E_TYPE);
    assert_true(len == 7);
    for (size_t i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], 0x5a);
    /* the right kinds still fingerprint and save */
    assert_int_equal(tco_scenario_fingerprint(&f, s.t, s.w, s.p, NULL), TCO_OK);
    assert_int_equal(tco_scenario_save_cbor(buf, sizeof buf, &len, s.t, s.w, s.p, NULL), TCO_OK);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_output_structs),
        cmocka_unit_test(test_output_arrays),
        cmocka_unit_test(test_largest_output_size),
        cmocka_unit_test(test_wrong_kind),
        cmocka_unit_test(test_wrong_kind_identity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
