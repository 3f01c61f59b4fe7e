/* Sweeps: one call for many variations gives exactly what one estimate per
 * variation gives, prices the good ones when some are bad, and leaves the
 * scenario it was given as it was. */
#include "support.h"

static void defaults(scen *s)
{
    scen_defaults(s);
    scen_freeze(s);
}

/* The estimate of the defaults with `key` set to `v`, the slow way. */
static tco_estimate one(int32_t key, double v, int32_t key2, double v2)
{
    scen s;
    assert_int_equal(tco_topology_new(&s.t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&s.w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&s.p, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(s.w, key, v, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(s.t, key2, v2, NULL), TCO_OK);
    tco_estimate e = scen_run(&s);
    scen_free(&s);
    e.scenario_fingerprint = 0;
    return e;
}

static void test_sweep_matches_single_estimates(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    /* MFU (workload) and the owned share (topology) together. */
    const int32_t keys[2] = { TCO_P_MFU, TCO_P_OWNED_SHARE };
    const double values[3 * 2] = { 0.3, 0, 0.45, 0.5, 0.6, 1 };
    tco_estimate out[3];
    int32_t status[3];
    assert_int_equal(tco_estimate_sweep(out, sizeof out[0], status, 3, keys, 2, values, s.t, s.w, s.p, NULL),
                     TCO_OK);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(status[i], TCO_OK);
        tco_estimate want = one(TCO_P_MFU, values[2 * i], TCO_P_OWNED_SHARE, values[2 * i + 1]);
        assert_memory_equal(&out[i], &want, sizeof want);
        check_invariants(&out[i]);
    }
    assert_true(out[0].total > out[1].total && out[1].total > out[2].total);
    scen_free(&s);
}

/* A key of each handle whose freeze derives figures from it (the nodes
 * from the accelerators, the FLOPs per token from the parameters, the
 * price classes from the on-demand rate): the sweep derives them again
 * for the handle the key belongs to, and gives what a handle set and
 * frozen the slow way gives, to the bit. */
static void test_sweep_derives_each_handle(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    const int32_t keys[3] = { TCO_P_ACCELERATORS, TCO_P_PARAMS_TOTAL, TCO_P_ON_DEMAND_PER_ACCEL_HOUR };
    const double values[3][2] = { { 512, 2048 }, { 7e9, 405e9 }, { 2.5, 6 } };
    for (int k = 0; k < 3; k++) {
        tco_estimate out[2];
        int32_t status[2];
        int rc = tco_estimate_sweep(out, sizeof out[0], status, 2, &keys[k], 1, values[k], s.t, s.w, s.p, NULL);
        assert_int_equal(rc, TCO_OK);
        for (int i = 0; i < 2; i++) {
            assert_int_equal(status[i], TCO_OK);
            scen slow;
            scen_defaults(&slow);
            if (k == 0)
                ST(&slow, keys[k], values[k][i]);
            else if (k == 1)
                SW(&slow, keys[k], values[k][i]);
            else
                SP(&slow, keys[k], values[k][i]);
            tco_estimate want = scen_run(&slow);
            want.scenario_fingerprint = 0;
            scen_free(&slow);
            assert_memory_equal(&out[i], &want, sizeof want);
        }
        assert_true(out[0].total != out[1].total);
    }
    scen_free(&s);
}

static void test_sweep_bad_variations(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    /* MFU 1.5 is out of range; 1,020 accelerators are not whole nodes; the
     * rest are priced, and the one after a failure is right (restored). */
    const int32_t keys[2] = { TCO_P_MFU, TCO_P_ACCELERATORS };
    const double values[4 * 2] = { 0.4, 1024, 1.5, 1024, 0.4, 1020, 0.5, 1024 };
    tco_estimate out[4];
    int32_t status[4];
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_estimate_sweep(out, sizeof out[0], status, 4, keys, 2, values, s.t, s.w, s.p, &err),
                     TCO_OK);
    assert_int_equal(status[0], TCO_OK);
    assert_int_equal(status[1], TCO_E_RANGE);
    assert_int_equal(status[2], TCO_E_INCONSISTENT);
    assert_int_equal(status[3], TCO_OK);
    assert_true(out[1].total == 0 && out[1].size == sizeof out[1]);
    assert_string_equal(err.param_name, "mfu"); /* the first failure */
    assert_non_null(strstr(err.message, "mfu = 1.5"));
    tco_estimate want = one(TCO_P_MFU, 0.5, TCO_P_ACCELERATORS, 1024);
    assert_memory_equal(&out[3], &want, sizeof want);
    /* The handles given are untouched. */
    double v;
    assert_int_equal(tco_workload_get(s.w, TCO_P_MFU, &v, NULL), TCO_OK);
    assert_true(v == 0.4);
    scen_free(&s);
}

static void test_sweep_arguments(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    const int32_t bad_key[1] = { 4242 }, text_key[1] = { TCO_P_CURRENCY }, key[1] = { TCO_P_MFU };
    const double values[1] = { 0.5 };
    tco_estimate out[1];
    int32_t status[1];
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_estimate_sweep(out, sizeof out[0], status, 1, bad_key, 1, values, s.t, s.w, s.p, &err),
                     TCO_E_UNKNOWN_PARAM);
    assert_int_equal(tco_estimate_sweep(out, sizeof out[0], status, 1, text_key, 1, values, s.t, s.w, s.p, &err),
                     TCO_E_TYPE);
    assert_int_equal(tco_estimate_sweep(out, 16, status, 1, key, 1, values, s.t, s.w, s.p, &err), TCO_E_SIZE);
    assert_int_equal(tco_estimate_sweep(NULL, sizeof out[0], status, 1, key, 1, values, s.t, s.w, s.p, &err),
                     TCO_E_NULL);
    assert_int_equal(tco_estimate_sweep(out, sizeof out[0], status, 1, key, 1, NULL, s.t, s.w, s.p, &err),
                     TCO_E_NULL);
    assert_int_equal(tco_estimate_sweep(out, sizeof out[0], status, 1, key, 1, values, s.t, NULL, s.p, &err),
                     TCO_E_NULL);
    /* No keys: n copies of the scenario itself. */
    assert_int_equal(tco_estimate_sweep(out, sizeof out[0], status, 1, NULL, 0, NULL, s.t, s.w, s.p, &err),
                     TCO_OK);
    assert_int_equal(status[0], TCO_OK);
    assert_true(out[0].total > 0);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_matches_single_estimates),
        cmocka_unit_test(test_sweep_derives_each_handle),
        cmocka_unit_test(test_sweep_bad_variations),
        cmocka_unit_test(test_sweep_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
