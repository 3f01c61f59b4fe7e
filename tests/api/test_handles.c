/* Handle life cycle and every error path of the handle API: NULLs, wrong
 * handles, frozen handles, inconsistent values, sizes, status texts. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <tco.h>

static void test_version(void **state)
{
    (void)state;
    assert_int_equal(tco_version_number(), TCO_VERSION_NUMBER);
    assert_string_equal(tco_version_string(), TCO_VERSION_STRING);
    assert_int_equal(TCO_VERSION_NUMBER,
                     TCO_VERSION_MAJOR * 10000 + TCO_VERSION_MINOR * 100 + TCO_VERSION_PATCH);
}

static void test_status_texts(void **state)
{
    (void)state;
    static const int codes[] = { TCO_OK,           TCO_E_NULL,         TCO_E_RANGE,
                                 TCO_E_NOT_FINITE, TCO_E_INCONSISTENT, TCO_E_FROZEN,
                                 TCO_E_NOT_FROZEN, TCO_E_UNKNOWN_PARAM, TCO_E_WRONG_HANDLE,
                                 TCO_E_TYPE,       TCO_E_NOMEM,        TCO_E_SIZE,
                                 TCO_E_INDEX };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        assert_int_equal(codes[i], -(int)i); /* pinned values, no gaps */
        assert_string_not_equal(tco_status_name(codes[i]), "TCO_E_UNKNOWN");
        assert_string_not_equal(tco_status_message(codes[i]), "unknown status");
    }
    assert_string_equal(tco_status_name(TCO_E_RANGE), "TCO_E_RANGE");
    assert_string_equal(tco_status_name(-999), "TCO_E_UNKNOWN");
    assert_string_equal(tco_status_message(42), "unknown status");
}

static void test_categories(void **state)
{
    (void)state;
    static const char *const names[] = { "compute", "power",    "cooling",  "network",
                                         "storage", "database", "logging",  "security",
                                         "platform", "staff",   "indirect", "waste" };
    assert_int_equal(tco_category_count(), 12);
    assert_true(tco_category_count() <= TCO_CATEGORY_SLOTS);
    for (int32_t c = 0; c < 12; c++) {
        assert_string_equal(tco_category_name(c), names[c]);
        assert_non_null(tco_category_description(c));
    }
    assert_null(tco_category_name(12));
    assert_null(tco_category_name(-1));
    assert_null(tco_category_description(99));
    assert_int_equal(tco_waste_count(), 5);
    assert_true(tco_waste_count() <= TCO_WASTE_SLOTS);
    assert_string_equal(tco_waste_name(TCO_WASTE_DATA_STALLS), "data_stalls");
    assert_null(tco_waste_name(5));

    /* The other enums' names, for bindings and reports. */
    assert_string_equal(tco_price_class_name(TCO_CLASS_ON_DEMAND), "on_demand");
    assert_string_equal(tco_price_class_name(TCO_CLASS_OWNED), "owned");
    assert_null(tco_price_class_name(4));
    assert_string_equal(tco_budget_status_name(TCO_BUDGET_EXHAUSTED), "exhausted");
    assert_null(tco_budget_status_name(-1));
    assert_string_equal(tco_data_class_name(TCO_DATA_CHECKPOINTS), "checkpoints");
    assert_null(tco_data_class_name(3));
    assert_string_equal(tco_tier_name(TCO_TIER_COLD), "cold");
    assert_null(tco_tier_name(3));
}

static void test_null_arguments(void **state)
{
    (void)state;
    tco_error err = TCO_ERROR_INIT;
    double v;
    const char *s;
    assert_int_equal(tco_topology_new(NULL, &err), TCO_E_NULL);
    assert_int_equal(err.code, TCO_E_NULL);
    assert_int_equal(tco_workload_new(NULL, NULL), TCO_E_NULL);
    assert_int_equal(tco_pricing_new(NULL, NULL), TCO_E_NULL);
    assert_int_equal(tco_topology_set(NULL, TCO_P_ACCELERATORS, 8, NULL), TCO_E_NULL);
    assert_int_equal(tco_workload_set_text(NULL, TCO_P_PRECISION, "bf16", NULL), TCO_E_NULL);
    assert_int_equal(tco_pricing_get(NULL, TCO_P_MIN_FTE, &v, NULL), TCO_E_NULL);
    assert_int_equal(tco_pricing_get_text(NULL, TCO_P_CURRENCY, &s, NULL), TCO_E_NULL);
    assert_int_equal(tco_topology_freeze(NULL, NULL), TCO_E_NULL);
    assert_int_equal(tco_topology_is_frozen(NULL), 0);
    tco_topology *t;
    assert_int_equal(tco_topology_clone(&t, NULL, NULL), TCO_E_NULL);
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_clone(NULL, t, NULL), TCO_E_NULL);
    assert_int_equal(tco_topology_get(t, TCO_P_ACCELERATORS, NULL, NULL), TCO_E_NULL);
    assert_int_equal(tco_topology_get_text(t, TCO_P_COOLING, NULL, NULL), TCO_E_NULL);
    assert_int_equal(tco_topology_set_text(t, TCO_P_COOLING, NULL, NULL), TCO_E_NULL);
    tco_topology_free(t);
    tco_topology_free(NULL);
    tco_workload_free(NULL);
    tco_pricing_free(NULL);
}

static void test_wrong_handle_and_unknown_key(void **state)
{
    (void)state;
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_topology_set(t, TCO_P_MFU, 0.5, &err), TCO_E_WRONG_HANDLE);
    assert_int_equal(err.param, TCO_P_MFU);
    assert_non_null(strstr(err.message, "workload"));
    err = (tco_error)TCO_ERROR_INIT;
    assert_int_equal(tco_topology_set(t, 1999, 1, &err), TCO_E_UNKNOWN_PARAM);
    assert_non_null(strstr(err.message, "1999"));
    tco_topology_free(t);
}

static void test_error_detail_optional_and_sized(void **state)
{
    (void)state;
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    /* No detail: the code alone. */
    assert_int_equal(tco_topology_set(t, TCO_P_PUE, 0.5, NULL), TCO_E_RANGE);
    /* A detail too small for version 1 is left alone, never overrun. */
    tco_error small;
    memset(&small, 0x5a, sizeof small);
    small.size = sizeof(size_t);
    tco_error copy = small;
    assert_int_equal(tco_topology_set(t, TCO_P_PUE, 0.5, &small), TCO_E_RANGE);
    assert_memory_equal(&small, &copy, sizeof small);
    /* Success leaves the detail alone. */
    tco_error err = TCO_ERROR_INIT;
    err.code = 77;
    assert_int_equal(tco_topology_set(t, TCO_P_PUE, 1.5, &err), TCO_OK);
    assert_int_equal(err.code, 77);
    /* The message names the input and its range. */
    err = (tco_error)TCO_ERROR_INIT;
    assert_int_equal(tco_topology_set(t, TCO_P_PUE, 3.5, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "pue = 3.5"));
    assert_non_null(strstr(err.message, "1 to 3"));
    tco_topology_free(t);
}

static void test_freeze_and_clone(void **state)
{
    (void)state;
    tco_topology *t, *c;
    double v;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_ACCELERATORS, 64, NULL), TCO_OK);
    assert_int_equal(tco_topology_is_frozen(t), 0);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK); /* twice is fine */
    assert_int_equal(tco_topology_is_frozen(t), 1);

    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_topology_set(t, TCO_P_ACCELERATORS, 128, &err), TCO_E_FROZEN);
    assert_string_equal(err.param_name, "accelerators");
    assert_int_equal(tco_topology_set_text(t, TCO_P_COOLING, "liquid", NULL), TCO_E_FROZEN);
    assert_int_equal(tco_topology_get(t, TCO_P_ACCELERATORS, &v, NULL), TCO_OK);
    assert_true(v == 64);

    /* A clone is an unfrozen copy; the original does not change with it. */
    assert_int_equal(tco_topology_clone(&c, t, NULL), TCO_OK);
    assert_int_equal(tco_topology_is_frozen(c), 0);
    assert_int_equal(tco_topology_get(c, TCO_P_ACCELERATORS, &v, NULL), TCO_OK);
    assert_true(v == 64);
    assert_int_equal(tco_topology_set(c, TCO_P_ACCELERATORS, 128, NULL), TCO_OK);
    assert_int_equal(tco_topology_get(t, TCO_P_ACCELERATORS, &v, NULL), TCO_OK);
    assert_true(v == 64);
    /* Free in any order. */
    tco_topology_free(t);
    assert_int_equal(tco_topology_get(c, TCO_P_ACCELERATORS, &v, NULL), TCO_OK);
    assert_true(v == 128);
    tco_topology_free(c);
}

/* Each inconsistency is caught at freeze, names its parameter, and leaves
 * the handle unfrozen so it can be mended. */
typedef struct {
    int32_t kind;
    int32_t key_a;
    double a;
    int32_t key_b;
    double b;
    int32_t named;
} bad_combo;

static void test_freeze_rejects_inconsistent_values(void **state)
{
    (void)state;
    static const bad_combo combos[] = {
        /* a node cannot hold a fraction of its accelerators */
        { TCO_HANDLE_TOPOLOGY, TCO_P_ACCELERATORS, 1020, TCO_P_ACCELERATORS_PER_NODE, 8, TCO_P_ACCELERATORS },
        { TCO_HANDLE_TOPOLOGY, TCO_P_ACCELERATORS, 4, TCO_P_ACCELERATORS_PER_NODE, 8, TCO_P_ACCELERATORS },
        /* a custom accelerator needs its own figures */
        { TCO_HANDLE_TOPOLOGY, TCO_P_ACCELERATOR_MODEL, TCO_ACCEL_CUSTOM, TCO_P_ACCELERATOR_TDP_WATTS, 700,
          TCO_P_ACCELERATOR_PEAK_FLOPS },
        { TCO_HANDLE_TOPOLOGY, TCO_P_ACCELERATOR_MODEL, TCO_ACCEL_CUSTOM, TCO_P_ACCELERATOR_PEAK_FLOPS, 1e15,
          TCO_P_ACCELERATOR_TDP_WATTS },
        { TCO_HANDLE_TOPOLOGY, TCO_P_SWITCH_RADIX, 63, TCO_P_PUE, 1.2, TCO_P_SWITCH_RADIX },
        { TCO_HANDLE_TOPOLOGY, TCO_P_RESERVED_SHARE, 0.7, TCO_P_SPOT_SHARE, 0.4, TCO_P_SPOT_SHARE },
        /* more endpoints than 16 tiers of 4-port switches reach */
        { TCO_HANDLE_TOPOLOGY, TCO_P_SWITCH_RADIX, 4, TCO_P_ACCELERATORS, 1e7, TCO_P_SWITCH_RADIX },
        { TCO_HANDLE_WORKLOAD, TCO_P_PARAMS_TOTAL, 1e9, TCO_P_PARAMS_ACTIVE, 2e9, TCO_P_PARAMS_ACTIVE },
        { TCO_HANDLE_WORKLOAD, TCO_P_JOB_ACCELERATORS, 100, TCO_P_TENSOR_PARALLEL, 8, TCO_P_JOB_ACCELERATORS },
        { TCO_HANDLE_WORKLOAD, TCO_P_JOB_ACCELERATORS, 64, TCO_P_DATA_PARALLEL, 4, TCO_P_DATA_PARALLEL },
        { TCO_HANDLE_PRICING, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 2, TCO_P_RESERVED_PER_ACCEL_HOUR, 3,
          TCO_P_RESERVED_PER_ACCEL_HOUR },
        { TCO_HANDLE_PRICING, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 3, TCO_P_SPOT_PER_ACCEL_HOUR, 3.5,
          TCO_P_SPOT_PER_ACCEL_HOUR },
    };
    for (size_t i = 0; i < sizeof combos / sizeof combos[0]; i++) {
        const bad_combo *b = &combos[i];
        tco_error err = TCO_ERROR_INIT;
        int rc, frozen;
        if (b->kind == TCO_HANDLE_TOPOLOGY) {
            tco_topology *t;
            assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
            if (b->key_a == TCO_P_ACCELERATORS && b->a == 1e7) /* keep whole nodes */
                assert_int_equal(tco_topology_set(t, TCO_P_ACCELERATORS_PER_NODE, 1, NULL), TCO_OK);
            assert_int_equal(tco_topology_set(t, b->key_a, b->a, NULL), TCO_OK);
            assert_int_equal(tco_topology_set(t, b->key_b, b->b, NULL), TCO_OK);
            rc = tco_topology_freeze(t, &err);
            frozen = tco_topology_is_frozen(t);
            tco_topology_free(t);
        } else if (b->kind == TCO_HANDLE_WORKLOAD) {
            tco_workload *w;
            assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
            assert_int_equal(tco_workload_set(w, b->key_a, b->a, NULL), TCO_OK);
            assert_int_equal(tco_workload_set(w, b->key_b, b->b, NULL), TCO_OK);
            rc = tco_workload_freeze(w, &err);
            frozen = tco_workload_is_frozen(w);
            tco_workload_free(w);
        } else {
            tco_pricing *p;
            assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
            assert_int_equal(tco_pricing_set(p, b->key_a, b->a, NULL), TCO_OK);
            assert_int_equal(tco_pricing_set(p, b->key_b, b->b, NULL), TCO_OK);
            rc = tco_pricing_freeze(p, &err);
            frozen = tco_pricing_is_frozen(p);
            tco_pricing_free(p);
        }
        if (rc == TCO_OK)
            fail_msg("combination %zu was accepted", i);
        assert_true(rc == TCO_E_INCONSISTENT || rc == TCO_E_RANGE);
        assert_int_equal(err.param, b->named);
        assert_non_null(strstr(err.message, err.param_name));
        assert_int_equal(frozen, 0);
    }
}

/* A layout whose counts agree freezes: data 4 x tensor 8 x pipeline 2 =
 * 64 accelerators a job (4 alone is refused above, with the default
 * tensor x pipeline); 4 layers in 4 pipeline stages. */
static void test_freeze_takes_consistent_layout(void **state)
{
    (void)state;
    tco_workload *w;
    assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(w, TCO_P_JOB_ACCELERATORS, 64, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(w, TCO_P_TENSOR_PARALLEL, 8, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(w, TCO_P_PIPELINE_PARALLEL, 2, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(w, TCO_P_DATA_PARALLEL, 4, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(w, NULL), TCO_OK);
    tco_workload_free(w);
    /* as many pipeline stages as layers: one layer a stage */
    assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(w, TCO_P_LAYERS, 4, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(w, TCO_P_PIPELINE_PARALLEL, 4, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(w, NULL), TCO_OK);
    tco_workload_free(w);
}

static void test_estimate_arguments(void **state)
{
    (void)state;
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    tco_estimate e = { .size = sizeof e };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_estimate_compute(&e, t, w, p, &err), TCO_E_NOT_FROZEN);
    assert_non_null(strstr(err.message, "topology"));
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(w, NULL), TCO_OK);
    err = (tco_error)TCO_ERROR_INIT;
    assert_int_equal(tco_estimate_compute(&e, t, w, p, &err), TCO_E_NOT_FROZEN);
    assert_non_null(strstr(err.message, "pricing"));
    assert_int_equal(tco_pricing_freeze(p, NULL), TCO_OK);

    assert_int_equal(tco_estimate_compute(NULL, t, w, p, NULL), TCO_E_NULL);
    /* The handle missing is named. */
    assert_int_equal(tco_estimate_compute(&e, NULL, w, p, &err), TCO_E_NULL);
    assert_string_equal(err.message, "topology must not be NULL");
    assert_int_equal(tco_estimate_compute(&e, t, NULL, p, &err), TCO_E_NULL);
    assert_string_equal(err.message, "workload must not be NULL");
    assert_int_equal(tco_estimate_compute(&e, t, w, NULL, &err), TCO_E_NULL);
    assert_string_equal(err.message, "pricing must not be NULL");
    e.size = offsetof(tco_estimate, scenario_fingerprint); /* short of 1.0's struct */
    assert_int_equal(tco_estimate_compute(&e, t, w, p, NULL), TCO_E_SIZE);

    /* A caller built against a larger, later struct gets the known part and
     * zeros after it. */
    struct {
        tco_estimate known;
        double later[4];
    } big;
    memset(&big, 0xff, sizeof big);
    big.known.size = sizeof big;
    assert_int_equal(tco_estimate_compute(&big.known, t, w, p, NULL), TCO_OK);
    assert_int_equal(big.known.size, sizeof big);
    assert_true(big.known.total > 0);
    for (int i = 0; i < 4; i++)
        assert_true(big.later[i] == 0);

    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_status_texts),
        cmocka_unit_test(test_categories),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_wrong_handle_and_unknown_key),
        cmocka_unit_test(test_error_detail_optional_and_sized),
        cmocka_unit_test(test_freeze_and_clone),
        cmocka_unit_test(test_freeze_rejects_inconsistent_values),
        cmocka_unit_test(test_freeze_takes_consistent_layout),
        cmocka_unit_test(test_estimate_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
