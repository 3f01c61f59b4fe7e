/* Log and metrics governance, and budgets, against hand-worked values. */
#include "support.h"

#define HOURS_PER_MONTH (8766.0 / 12)
#define DAYS_PER_MONTH (365.25 / 12)

/* The seeds' example in one call: 5 s sampling to 30 s, 30-day retention.
 * 1,024 accelerators x 100 series; logs 10 MB per accelerator-hour; samples
 * 1.37 B; prices 0.50/GB ingested, 0.09 per million samples, 0.03 per
 * GB-month kept. Per month of 730.5 h:
 *   logs      10e6 x 1,024 x 730.5 / 1e9 = 7,480.32 GB
 *   samples   1,024 x 100 x 730.5 x 3,600 / 5 = 5.38675e10 (at 30 s: a sixth)
 *   kept      (logs + samples x 1.37 / 1e9) x 30 / 30.4375 GB */
static double month_cost(double interval, double retention)
{
    double logs = 10e6 * 1024 * HOURS_PER_MONTH / 1e9;
    double samples = 1024 * 100 * HOURS_PER_MONTH * 3600 / interval;
    double kept = (logs + samples * 1.37 / 1e9) * retention / DAYS_PER_MONTH;
    return logs * 0.5 + samples / 1e6 * 0.09 + kept * 0.03;
}

static void test_seeds_example(void **state)
{
    (void)state;
    scen s;
    assert_int_equal(tco_topology_new(&s.t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&s.w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&s.p, NULL), TCO_OK);
    SW(&s, TCO_P_METRICS_INTERVAL_SECONDS, 5);
    SW(&s, TCO_P_LOG_RETENTION_DAYS, 90);
    scen_freeze(&s);
    tco_logging l = { .size = sizeof l };
    assert_int_equal(tco_logging_compare(&l, 30, 30, s.t, s.w, s.p, NULL), TCO_OK);
    assert_rel(l.samples_per_month, 1024 * 100 * HOURS_PER_MONTH * 3600 / 5, 1e-15);
    assert_rel(l.proposed_samples_per_month, l.samples_per_month / 6, 1e-15);
    assert_rel(l.cost_per_month, month_cost(5, 90), 1e-14);
    assert_rel(l.proposed_cost_per_month, month_cost(30, 30), 1e-14);
    assert_rel(l.savings_per_month, month_cost(5, 90) - month_cost(30, 30), 1e-12);
    assert_rel(l.savings_share, l.savings_per_month / l.cost_per_month, 1e-15);
    assert_rel(l.proposed_stored_gb,
               (10e6 * 1024 * HOURS_PER_MONTH / 1e9 + l.proposed_samples_per_month * 1.37 / 1e9) * 30 /
                   DAYS_PER_MONTH,
               1e-14);

    /* The proposal obeys the parameter table's bounds. */
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_logging_compare(&l, 0, 30, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "metrics_interval_seconds");
    assert_int_equal(tco_logging_compare(&l, 30, -1, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "log_retention_days");
    assert_int_equal(tco_logging_compare(&l, NAN, 30, s.t, s.w, s.p, &err), TCO_E_NOT_FINITE);
    scen_free(&s);
}

static tco_pricing *budget_pricing(void)
{
    tco_pricing *p;
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_BUDGET_AMOUNT, 3e6, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_BUDGET_PERIOD_DAYS, 30, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_BUDGET_WARNING_SHARE, 0.8, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_BUDGET_CRITICAL_SHARE, 0.95, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_BUDGET_GROWTH_ALERT_SHARE, 0.3, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(p, NULL), TCO_OK);
    return p;
}

/* Ten days of a 30-day period: 3 days at 50k, then 7 at 100k. Spent 850k;
 * the burn rate is the last 7 days' 100k a day; projected 850k + 20 x 100k
 * = 2.85M = 95% of 3M: critical; 2.15M left lasts 21.5 days. The previous
 * period spent 70k a day: growth 850 / 700 - 1 = 21.4%, under 30%. */
static void test_budget_hand_worked(void **state)
{
    (void)state;
    tco_pricing *p = budget_pricing();
    double spend[10], previous[30];
    for (int i = 0; i < 10; i++)
        spend[i] = i < 3 ? 50e3 : 100e3;
    for (int i = 0; i < 30; i++)
        previous[i] = 70e3;
    tco_budget b = { .size = sizeof b };
    assert_int_equal(tco_budget_compute(&b, spend, 10, 1, previous, 30, p, NULL), TCO_OK);
    assert_true(b.spent == 850e3 && b.elapsed_days == 10);
    assert_true(b.burn_rate_per_day == 100e3);
    assert_true(b.projected_spend == 2.85e6);
    assert_rel(b.days_to_exhaustion, 21.5, 1e-15);
    assert_int_equal(b.status, TCO_BUDGET_OK);
    assert_int_equal(b.projected_status, TCO_BUDGET_CRITICAL);
    assert_rel(b.growth, 850.0 / 700 - 1, 1e-15);
    assert_int_equal(b.abnormal_growth, 0);
    assert_true(b.exhaustion_defined == 1 && b.growth_defined == 1);

    /* Against a thriftier previous period (60k a day): 850 / 600 - 1 = 41.7%. */
    for (int i = 0; i < 30; i++)
        previous[i] = 60e3;
    assert_int_equal(tco_budget_compute(&b, spend, 10, 1, previous, 30, p, NULL), TCO_OK);
    assert_int_equal(b.abnormal_growth, 1);

    /* Half days: the 7-day window is the last 14 intervals. */
    double halves[20];
    for (int i = 0; i < 20; i++)
        halves[i] = i < 6 ? 25e3 : 50e3;
    assert_int_equal(tco_budget_compute(&b, halves, 20, 0.5, NULL, 0, p, NULL), TCO_OK);
    assert_true(b.burn_rate_per_day == 100e3 && b.spent == 850e3 && b.growth == 0 && b.elapsed_days == 10);
    /* The window holds 7 days of half days: 10 at 25k and 4 at 50k, 450k
     * in 7 days, not the last 4 intervals' 100k a day. */
    for (int i = 0; i < 20; i++)
        halves[i] = i < 16 ? 25e3 : 50e3;
    assert_int_equal(tco_budget_compute(&b, halves, 20, 0.5, NULL, 0, p, NULL), TCO_OK);
    assert_rel(b.burn_rate_per_day, 450e3 / 7, 1e-15);

    /* Statuses by what is spent: 2.4M is 80% (warning), 2.85M critical,
     * 3M exhausted with no days left. */
    double big[1] = { 2.4e6 };
    assert_int_equal(tco_budget_compute(&b, big, 1, 1, NULL, 0, p, NULL), TCO_OK);
    assert_int_equal(b.status, TCO_BUDGET_WARNING);
    big[0] = 2.85e6;
    assert_int_equal(tco_budget_compute(&b, big, 1, 1, NULL, 0, p, NULL), TCO_OK);
    assert_int_equal(b.status, TCO_BUDGET_CRITICAL);
    big[0] = 3e6;
    assert_int_equal(tco_budget_compute(&b, big, 1, 1, NULL, 0, p, NULL), TCO_OK);
    assert_int_equal(b.status, TCO_BUDGET_EXHAUSTED);
    assert_true(b.days_to_exhaustion == 0 && b.exhaustion_defined == 1);
    tco_pricing_free(p);
}

/* Figures without a value: 0 and the flag 0 for a caller whose size
 * reaches the flags (this sizeof, or the 76 bytes to growth_defined),
 * 1.0's INFINITY for one whose size ends before them (the 68 bytes to
 * abnormal_growth, or 1.0's sizeof with its padding). */
static void test_budget_no_value(void **state)
{
    (void)state;
    tco_pricing *p = budget_pricing();
    const size_t v1 = offsetof(tco_budget, abnormal_growth) + sizeof(int32_t);
    const size_t v1_sizeof = (v1 + 7) / 8 * 8;
    const size_t v2 = offsetof(tco_budget, growth_defined) + sizeof(int32_t);
    const size_t sizes[4] = { sizeof(tco_budget), v2, v1, v1_sizeof };
    /* Nothing spent: never exhausted at this rate. 10 a day against a
     * previous period that spent nothing: growth from nothing, abnormal.
     * 1e-310 a day (subnormal): 3e6 / 1e-310 days is past a double. */
    double none[2] = { 0, 0 }, ten[2] = { 10, 10 }, tiny[1] = { 1e-310 };
    for (int i = 0; i < 4; i++) {
        tco_budget b;
        memset(&b, 0x5a, sizeof b);
        b.size = sizes[i];
        int flags = sizes[i] >= v2;
        assert_int_equal(tco_budget_compute(&b, none, 2, 1, NULL, 0, p, NULL), TCO_OK);
        assert_true(b.status == TCO_BUDGET_OK && b.growth == 0 && b.abnormal_growth == 0);
        assert_true(flags ? b.days_to_exhaustion == 0 : isinf(b.days_to_exhaustion));
        assert_int_equal(tco_budget_compute(&b, ten, 2, 1, none, 2, p, NULL), TCO_OK);
        assert_true(b.days_to_exhaustion == (3e6 - 20) / 10 && b.abnormal_growth == 1);
        assert_true(flags ? b.growth == 0 : isinf(b.growth));
        assert_int_equal(tco_budget_compute(&b, tiny, 1, 1, NULL, 0, p, NULL), TCO_OK);
        assert_true(b.burn_rate_per_day == 1e-310);
        assert_true(flags ? b.days_to_exhaustion == 0 : isinf(b.days_to_exhaustion));
        assert_int_equal(tco_budget_compute(&b, ten, 2, 1, tiny, 1, p, NULL), TCO_OK);
        assert_true(b.abnormal_growth == 1 && (flags ? b.growth == 0 : isinf(b.growth)));
        if (flags)
            assert_true(b.exhaustion_defined == 1 && b.growth_defined == 0);
        assert_int_equal(b.size, sizes[i]);
    }
    /* Flags with values: a previous period spending 5 a day, growth 1; no
     * previous period, no growth. */
    tco_budget b = { .size = sizeof b };
    double five[2] = { 5, 5 };
    assert_int_equal(tco_budget_compute(&b, ten, 2, 1, five, 2, p, NULL), TCO_OK);
    assert_true(b.growth == 1 && b.growth_defined == 1 && b.exhaustion_defined == 1);
    assert_int_equal(tco_budget_compute(&b, ten, 2, 1, NULL, 0, p, NULL), TCO_OK);
    assert_true(b.growth == 0 && b.growth_defined == 0 && b.abnormal_growth == 0);
    assert_int_equal(tco_budget_compute(&b, none, 2, 1, NULL, 0, p, NULL), TCO_OK);
    assert_int_equal(b.exhaustion_defined, 0);
    tco_pricing_free(p);
}

/* The budget's edges. 1,000 spent on day 1 of 8 against a budget of
 * 1,000: nothing burnt in the last 7 days, yet exhausted, 0 days left.
 * Nothing spent against a previous period of nothing: growth 0, not
 * abnormal, and no ratio. Growth exactly at the alert share (3 against 2
 * is 0.5, the share set) is not above it. The shorter period sets the
 * day compared: 2 days against 3 compares 2, 3 days against 2 compares 2. */
static void test_budget_edges(void **state)
{
    (void)state;
    tco_pricing *p;
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_BUDGET_AMOUNT, 1000, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_BUDGET_GROWTH_ALERT_SHARE, 0.5, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(p, NULL), TCO_OK);
    const size_t v1 = offsetof(tco_budget, abnormal_growth) + sizeof(int32_t);
    double early[8] = { 1000, 0, 0, 0, 0, 0, 0, 0 }, none[2] = { 0, 0 }, three[2] = { 1.5, 1.5 },
           two[3] = { 1, 1, 100 };
    for (int old = 0; old < 2; old++) {
        tco_budget b = { .size = old ? v1 : sizeof b };
        assert_int_equal(tco_budget_compute(&b, early, 8, 1, NULL, 0, p, NULL), TCO_OK);
        assert_true(b.burn_rate_per_day == 0 && b.days_to_exhaustion == 0 && b.status == TCO_BUDGET_EXHAUSTED);
        assert_int_equal(tco_budget_compute(&b, none, 2, 1, none, 2, p, NULL), TCO_OK);
        assert_true(b.growth == 0 && b.abnormal_growth == 0);
        assert_int_equal(tco_budget_compute(&b, three, 2, 1, two, 3, p, NULL), TCO_OK);
        assert_true(b.growth == 0.5 && b.abnormal_growth == 0);
        assert_int_equal(tco_budget_compute(&b, two, 3, 1, three, 2, p, NULL), TCO_OK);
        assert_true(b.growth == 2.0 / 3 - 1);
        /* The spend may cover the 30-day period (1e-9 of it more, for the
         * rounding of intervals that add up to it), never more. */
        double day[30], at = 30 * (1 + 1e-9), past = 30 * (1 + 1.05e-9);
        for (int i = 0; i < 30; i++)
            day[i] = 1;
        assert_int_equal(tco_budget_compute(&b, day, 30, 1, NULL, 0, p, NULL), TCO_OK);
        assert_int_equal(tco_budget_compute(&b, day, 1, at, NULL, 0, p, NULL), TCO_OK);
        tco_error err = TCO_ERROR_INIT;
        assert_int_equal(tco_budget_compute(&b, day, 1, past, NULL, 0, p, &err), TCO_E_INCONSISTENT);
        assert_int_equal(tco_budget_compute(&b, day, 30, 1.5, NULL, 0, p, &err), TCO_E_INCONSISTENT);
        assert_non_null(strstr(err.message, "spend covers 45 days"));
        if (!old) {
            assert_int_equal(tco_budget_compute(&b, early, 8, 1, NULL, 0, p, NULL), TCO_OK);
            assert_int_equal(b.exhaustion_defined, 1);
            assert_int_equal(tco_budget_compute(&b, none, 2, 1, none, 2, p, NULL), TCO_OK);
            assert_int_equal(b.growth_defined, 0);
        }
    }
    /* The largest size an output may declare (doc/api.md: 65,536 bytes):
     * filled, and zeros past this version's struct. */
    static union {
        tco_budget b;
        unsigned char bytes[65536];
    } big;
    memset(&big, 0x5a, sizeof big);
    big.b.size = sizeof big;
    assert_int_equal(tco_budget_compute(&big.b, early, 8, 1, NULL, 0, p, NULL), TCO_OK);
    assert_true(big.b.size == 65536 && big.b.spent == 1000 && big.bytes[sizeof big - 1] == 0);
    tco_pricing_free(p);
}

static void test_budget_bad_input(void **state)
{
    (void)state;
    tco_pricing *p = budget_pricing();
    tco_budget b, before;
    memset(&b, 0x5a, sizeof b);
    b.size = sizeof b;
    before = b;
    tco_error err = TCO_ERROR_INIT;
    double month[31], neg[2] = { 1, -1 };
    for (int i = 0; i < 31; i++)
        month[i] = 1;
    assert_int_equal(tco_budget_compute(&b, month, 31, 1, NULL, 0, p, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "budget_period_days");
    assert_int_equal(tco_budget_compute(&b, neg, 2, 1, NULL, 0, p, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "spend[1]"));
    assert_int_equal(tco_budget_compute(&b, month, 2, 1, neg, 2, p, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "previous[1]"));
    assert_int_equal(tco_budget_compute(&b, month, 0, 1, NULL, 0, p, &err), TCO_E_RANGE);
    assert_int_equal(tco_budget_compute(&b, month, 2, 0, NULL, 0, p, &err), TCO_E_RANGE);
    assert_int_equal(tco_budget_compute(&b, month, 2, 1, NULL, 0, NULL, &err), TCO_E_NULL);
    assert_memory_equal(&b, &before, sizeof b);
    tco_pricing_free(p);

    /* The critical line below the warning line is refused at freeze. */
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_BUDGET_CRITICAL_SHARE, 0.5, NULL), TCO_OK);
    err = (tco_error)TCO_ERROR_INIT;
    assert_int_equal(tco_pricing_freeze(p, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "budget_critical_share");
    tco_pricing_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seeds_example),
        cmocka_unit_test(test_budget_hand_worked),
        cmocka_unit_test(test_budget_no_value),
        cmocka_unit_test(test_budget_edges),
        cmocka_unit_test(test_budget_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
