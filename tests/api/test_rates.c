/* Rates that belong to the accelerator (doc/model.md, "List prices"): a
 * rate left at -1 is the topology's accelerator's list price, so changing
 * the accelerator changes the price; a class without one is refused where
 * it is used and left out where it is only an option. The figures are the
 * catalogue's sources: AWS us-east-1, instance price over 8 GPUs (p5.48xlarge
 * 55.04 on demand, 31.464 as a Capacity Block; p5en.48xlarge 63.296, spot
 * 27.1988; p6-b200.48xlarge 113.9328), H100 bought at 27,500 (Raymond
 * James, 25,000 to 30,000). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support.h"

static void scen_default(scen *s)
{
    scen_defaults(s);
}

static double rate_of(const scen *s, int32_t key)
{
    double r = -2;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_rate(&r, key, s->t, s->p, &err);
    if (rc)
        print_error("tco_rate: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    return r;
}

static void test_list_prices(void **state)
{
    (void)state;
    scen s;
    scen_default(&s);
    double v;
    assert_int_equal(tco_pricing_get(s.p, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, &v, NULL), TCO_OK);
    assert_true(v == -1); /* the table holds the stand-in, the computation the price */
    assert_true(rate_of(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR) == 55.04 / 8);
    assert_true(rate_of(&s, TCO_P_RESERVED_PER_ACCEL_HOUR) == 31.464 / 8);
    assert_true(rate_of(&s, TCO_P_CAPEX_PER_ACCELERATOR) == 27500);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_rate(&v, TCO_P_SPOT_PER_ACCEL_HOUR, s.t, s.p, &err), TCO_E_INCONSISTENT);
    assert_int_equal(err.param, TCO_P_SPOT_PER_ACCEL_HOUR);
    assert_non_null(strstr(err.message, "H100-SXM has none"));
    assert_int_equal(tco_rate(&v, TCO_P_PUE, s.t, s.p, &err), TCO_E_RANGE);
    assert_int_equal(tco_rate(NULL, TCO_P_PUE, s.t, s.p, &err), TCO_E_NULL);

    /* The estimate charges the list price exactly as it charges the same
     * rate typed in. */
    tco_estimate listed = scen_run(&s);
    scen_free(&s);
    scen_default(&s);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 55.04 / 8);
    tco_estimate typed = scen_run(&s);
    assert_true(typed.total == listed.total);
    assert_memory_equal(typed.cost, listed.cost, sizeof typed.cost);

    /* Another accelerator, another price; a typed rate stays. */
    scen_free(&s);
    scen_default(&s);
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_ACCELERATOR_MODEL, "B200", NULL), TCO_OK);
    assert_true(rate_of(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR) == 113.9328 / 8);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 9);
    assert_true(rate_of(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR) == 9);
    scen_free(&s);
    /* Oracle Cloud's BM.GPU.MI300X.8 on demand, 6.00 a GPU-hour (as
     * reported 2026-05: the catalogue's source) */
    scen_default(&s);
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_ACCELERATOR_MODEL, "MI300X", NULL), TCO_OK);
    assert_true(rate_of(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR) == 6.00);
    scen_free(&s);
}

/* A class the mix uses must have a price; one the split only weighs is
 * left out. */
static void test_missing_prices(void **state)
{
    (void)state;
    scen s;
    scen_default(&s);
    ST(&s, TCO_P_SPOT_SHARE, 0.25);
    tco_error err = scen_refused(&s, TCO_E_INCONSISTENT, TCO_P_SPOT_PER_ACCEL_HOUR);
    assert_non_null(strstr(err.message, "-1 asks for the accelerator's list price"));
    scen_free(&s);

    scen_default(&s); /* H200 has a spot list price */
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_ACCELERATOR_MODEL, "H200-SXM", NULL), TCO_OK);
    ST(&s, TCO_P_SPOT_SHARE, 0.25);
    tco_estimate e = scen_run(&s);
    assert_true(e.total > 0);
    assert_true(rate_of(&s, TCO_P_SPOT_PER_ACCEL_HOUR) == 27.1988 / 8);
    scen_free(&s);

    scen_default(&s); /* custom: no list price at all */
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_ACCELERATOR_MODEL, "custom", NULL), TCO_OK);
    ST(&s, TCO_P_ACCELERATOR_PEAK_FLOPS, 1e15);
    ST(&s, TCO_P_ACCELERATOR_TDP_WATTS, 700);
    ST(&s, TCO_P_ACCELERATOR_MEMORY_BYTES, 80e9);
    err = scen_refused(&s, TCO_E_INCONSISTENT, TCO_P_ON_DEMAND_PER_ACCEL_HOUR);
    assert_non_null(strstr(err.message, "accelerator_model = custom has none"));
    scen_free(&s);

    scen_default(&s); /* the list is in USD */
    assert_int_equal(tco_pricing_set_text(s.p, TCO_P_CURRENCY, "EUR", NULL), TCO_OK);
    err = scen_refused(&s, TCO_E_INCONSISTENT, TCO_P_ON_DEMAND_PER_ACCEL_HOUR);
    assert_non_null(strstr(err.message, "in USD, but currency = EUR"));
    scen_free(&s);

    /* In another currency a class with no list price at all is refused as
     * having none, not as listed in USD only (H100 has no spot price). */
    scen_default(&s);
    assert_int_equal(tco_pricing_set_text(s.p, TCO_P_CURRENCY, "EUR", NULL), TCO_OK);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 6);
    ST(&s, TCO_P_SPOT_SHARE, 0.25);
    err = scen_refused(&s, TCO_E_INCONSISTENT, TCO_P_SPOT_PER_ACCEL_HOUR);
    assert_non_null(strstr(err.message, "H100-SXM has none"));
    scen_free(&s);

    /* A list price above a typed on-demand rate is refused only where the
     * class is used. */
    scen_default(&s);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 3);
    tco_estimate cheap = scen_run(&s);
    assert_true(cheap.total > 0);
    scen_free(&s);
    scen_default(&s);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 3);
    ST(&s, TCO_P_RESERVED_SHARE, 0.5);
    err = scen_refused(&s, TCO_E_INCONSISTENT, TCO_P_RESERVED_PER_ACCEL_HOUR);
    assert_non_null(strstr(err.message, "above on_demand_per_accel_hour = 3"));
    scen_free(&s);

    /* The split prices its baseline reserved and offers spot only where
     * there is a spot price (H100 has none: tests/api/test_capacity.c). */
    scen_default(&s);
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_ACCELERATOR_MODEL, "MI300X", NULL), TCO_OK);
    scen_freeze(&s);
    const double d[] = { 0, 10, 0, 10 };
    tco_split x = { .size = sizeof x };
    assert_int_equal(tco_capacity_split(&x, d, 4, 1, s.t, s.w, s.p, &err), TCO_E_INCONSISTENT);
    assert_int_equal(err.param, TCO_P_RESERVED_PER_ACCEL_HOUR);
    assert_non_null(strstr(err.message, "MI300X has none"));
    scen_free(&s);
}

/* The tornado swings a rate about the list price it stands for. */
static void test_sensitivity_about_the_list(void **state)
{
    (void)state;
    scen s;
    scen_default(&s);
    scen_freeze(&s);
    tco_swing rows[256];
    size_t n;
    assert_int_equal(tco_sensitivity(rows, sizeof rows[0], 256, &n, 0.1, s.t, s.w, s.p, NULL), TCO_OK);
    int found = 0;
    for (size_t i = 0; i < n && i < 256; i++)
        if (rows[i].key == TCO_P_ON_DEMAND_PER_ACCEL_HOUR) {
            found = 1;
            assert_int_equal(rows[i].status, TCO_OK);
            assert_true(rows[i].low_value == 55.04 / 8 * 0.9 && rows[i].high_value == 55.04 / 8 * 1.1);
            assert_true(rows[i].low_total < rows[i].high_total);
        }
    assert_true(found);
    scen_free(&s);
}

/* The catalogue carries the prices; a caller of the first version's
 * struct gets what it knows. */
static void test_catalogue_prices(void **state)
{
    (void)state;
    for (size_t i = 1; i < tco_accelerator_count(); i++) {
        tco_accelerator a = { .size = sizeof a };
        assert_int_equal(tco_accelerator_at(&a, i, NULL), TCO_OK);
        assert_true(a.on_demand_per_accel_hour > 0 && a.reserved_per_accel_hour <= a.on_demand_per_accel_hour);
        assert_true(a.spot_per_accel_hour < a.on_demand_per_accel_hour && a.capex_per_accelerator >= 0);
        assert_true(strlen(a.price_source) > 20);
    }
    tco_accelerator old;
    memset(&old, 0xA5, sizeof old);
    old.size = offsetof(tco_accelerator, source) + sizeof old.source;
    assert_int_equal(tco_accelerator_at(&old, 2, NULL), TCO_OK);
    assert_true(old.size == offsetof(tco_accelerator, source) + sizeof old.source);
    unsigned char *tail = (unsigned char *)&old.on_demand_per_accel_hour;
    for (size_t i = 0; i < sizeof old - old.size; i++) /* untouched past its size */
        assert_int_equal(tail[i], 0xA5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_prices),
        cmocka_unit_test(test_missing_prices),
        cmocka_unit_test(test_sensitivity_about_the_list),
        cmocka_unit_test(test_catalogue_prices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
