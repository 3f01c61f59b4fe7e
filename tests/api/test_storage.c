/* Peak against average bandwidth, and the storage lifecycle, for the
 * built-in scenario, against hand-worked values. */
#include "support.h"

#define HOURS_PER_MONTH (8766.0 / 12)

static void defaults(scen *s)
{
    scen_defaults(s);
}

/* The built-in run: no shape given (layers 0), so 6 N D = 6 x 70e9 x 2e12
 * = 8.4e23 FLOP, at 1,024 x 989e12 x 0.4 FLOP/s 576.05 h of compute; it
 * reads 2e12 tokens x 4 B in that time; a
 * checkpoint is 70e9 x 14 B = 980 GB. */
static void test_bandwidth_hand_worked(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    SW(&s, TCO_P_CHECKPOINT_STALL_SECONDS, 30);
    SW(&s, TCO_P_COMM_WINDOW_SHARE, 0.5);
    scen_freeze(&s);
    tco_estimate e = scen_run(&s);
    tco_bandwidth b = { .size = sizeof b };
    assert_int_equal(tco_bandwidth_compute(&b, s.t, s.w, s.p, NULL), TCO_OK);
    double compute_s = 8.4e23 / (1024 * 989e12 * 0.4);
    assert_rel(b.storage_read_gbps, 8e12 / compute_s / 1e9, 1e-12); /* 3.86 GB/s */
    assert_rel(b.checkpoint_burst_gbps, 980e9 / 30 / 1e9, 1e-12);   /* 32.7 GB/s */
    assert_rel(b.storage_write_gbps, 980e9 / (e.checkpoint_interval_hours * 3600) / 1e9, 1e-12);
    assert_rel(b.storage_peak_to_average,
               (b.storage_read_gbps + b.checkpoint_burst_gbps) / (b.storage_read_gbps + b.storage_write_gbps),
               1e-15);
    assert_rel(b.checkpoint_stall_seconds, 9.8, 1e-12); /* 980 GB at 100 GB/s */
    /* 2e12 / 4,194,304 = 476,837.2 steps; dp = 1024 / (8 x 4) = 32; a shard
     * is 70e9 x 2 B / 32 = 4.375e9 B; a ring moves 2 x 31/32 of it. */
    double step = compute_s / (2e12 / 4194304);
    assert_rel(b.step_seconds, step, 1e-12);
    assert_rel(b.network_bytes_per_step, 2 * 31.0 / 32 * 4.375e9, 1e-15);
    assert_rel(b.network_average_gbps, 2 * 31.0 / 32 * 4.375e9 * 8 / step / 1e9, 1e-12);
    assert_rel(b.network_burst_gbps, 2 * b.network_average_gbps, 1e-15);
    assert_rel(b.network_capacity_gbps, 8 * 400 / 8.0, 0);
    assert_rel(b.network_burst_utilisation, b.network_burst_gbps / 400, 1e-15);
    scen_free(&s);
}

/* The dataset (2e12 tokens x 4 B = 8,000 GB) is hot for 60 days (the run
 * takes 27), warm for 305, which ends exactly at the one-year horizon. */
static void test_lifecycle_dataset(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    SW(&s, TCO_P_LIFECYCLE_HORIZON_DAYS, 365);
    SW(&s, TCO_P_DATASET_HOT_DAYS, 60);
    SW(&s, TCO_P_DATASET_WARM_DAYS, 305);
    SW(&s, TCO_P_DATASET_COLD_DAYS, 100);
    scen_freeze(&s);
    tco_lifecycle l = { .size = sizeof l };
    assert_int_equal(tco_lifecycle_compute(&l, s.t, s.w, s.p, NULL), TCO_OK);
    assert_rel(l.gb_months[TCO_DATA_DATASET][TCO_TIER_HOT], 8000 * 1440 / HOURS_PER_MONTH, 1e-14);
    assert_rel(l.gb_months[TCO_DATA_DATASET][TCO_TIER_WARM], 8000 * 7320 / HOURS_PER_MONTH, 1e-14);
    assert_true(l.gb_months[TCO_DATA_DATASET][TCO_TIER_COLD] == 0); /* past the horizon */
    assert_rel(l.cost[TCO_DATA_DATASET][TCO_TIER_HOT], 8000 * 1440 / HOURS_PER_MONTH * 0.145, 1e-14);
    scen_free(&s);
}

/* Checkpoints: one every tau hours of work; the newest 10 hot, the next 20
 * warm. Hot checkpoint-hours during the run: the tier fills linearly over
 * 10 intervals, then holds 10 (a triangle and a rectangle); after the run
 * the last ones stay until the horizon. */
static void test_lifecycle_checkpoints(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    SW(&s, TCO_P_CHECKPOINT_RETENTION, 10);
    SW(&s, TCO_P_CHECKPOINT_WARM_RETENTION, 20);
    SW(&s, TCO_P_CHECKPOINT_COLD_RETENTION, 0);
    SW(&s, TCO_P_LIFECYCLE_HORIZON_DAYS, 365);
    scen_freeze(&s);
    tco_estimate e = scen_run(&s);
    tco_lifecycle l = { .size = sizeof l };
    assert_int_equal(tco_lifecycle_compute(&l, s.t, s.w, s.p, NULL), TCO_OK);
    double work = e.compute_hours + e.data_stall_hours, tau = e.checkpoint_interval_hours;
    double written = work / tau, every = e.wall_hours / written, run = e.wall_hours, after = 8760 - run;
    assert_rel(l.checkpoints_written, written, 1e-14);
    double hot = 10 * (10 * every) / 2 + 10 * (run - 10 * every) + 10 * after;
    double both = 30 * (30 * every) / 2 + 30 * (run - 30 * every) + 30 * after;
    assert_rel(l.gb_months[TCO_DATA_CHECKPOINTS][TCO_TIER_HOT], 980 * hot / HOURS_PER_MONTH, 1e-12);
    assert_rel(l.gb_months[TCO_DATA_CHECKPOINTS][TCO_TIER_WARM], 980 * (both - hot) / HOURS_PER_MONTH, 1e-12);
    assert_true(l.gb_months[TCO_DATA_CHECKPOINTS][TCO_TIER_COLD] == 0);
    /* How far back a restart can go: 10 intervals from hot, 30 in all. */
    assert_rel(l.restart_window_hot_hours, 10 * tau, 1e-15);
    assert_rel(l.restart_window_hours, 30 * tau, 1e-15);
    /* Keeping everything hot to the horizon: the dataset all year; every
     * checkpoint (the count grows to `written`, then stays); logs written
     * at g per hour over the run, each kept from t to the horizon. */
    double all = written * run / 2 + written * after;
    double g = (10e6 * 1024 + 1024 * 100 * 3600 / 15.0 * 1.37) / 1e9;
    double keep = (8000 * 8760 * 0.145 + 980 * all * 0.145 + g * (8760 * run - run * run / 2) * 0.03) /
                  HOURS_PER_MONTH;
    assert_rel(l.keep_hot_cost, keep, 1e-12);
    assert_true(l.keep_hot_cost > l.policy_cost);
    assert_rel(l.savings, l.keep_hot_cost - l.policy_cost, 1e-15);
    scen_free(&s);
}

/* Logs: 10 MB per accelerator-hour x 1,024 and 100 series every 15 s x
 * 1.37 B, written over the run; each GB searchable for 7 days then warm
 * until 30. Written at rate g over [0, R], a GB spends min(t + b, H) -
 * min(t + a, H) in a tier of ages [a, b): with H far off, (b - a) hours. */
static void test_lifecycle_logs(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    SW(&s, TCO_P_LOG_HOT_DAYS, 7);
    SW(&s, TCO_P_LOG_RETENTION_DAYS, 30);
    SW(&s, TCO_P_LIFECYCLE_HORIZON_DAYS, 3650);
    scen_freeze(&s);
    tco_estimate e = scen_run(&s);
    tco_lifecycle l = { .size = sizeof l };
    assert_int_equal(tco_lifecycle_compute(&l, s.t, s.w, s.p, NULL), TCO_OK);
    double g = (10e6 * 1024 + 1024 * 100 * 3600 / 15.0 * 1.37) / 1e9; /* GB per hour */
    assert_rel(l.gb_months[TCO_DATA_LOGS][TCO_TIER_HOT], g * e.wall_hours * 168 / HOURS_PER_MONTH, 1e-12);
    assert_rel(l.gb_months[TCO_DATA_LOGS][TCO_TIER_WARM], g * e.wall_hours * 552 / HOURS_PER_MONTH, 1e-12);
    assert_rel(l.cost[TCO_DATA_LOGS][TCO_TIER_HOT], l.gb_months[TCO_DATA_LOGS][TCO_TIER_HOT] * 0.03, 1e-15);
    scen_free(&s);
}

/* A horizon shorter than the run cuts everything at the horizon. */
static void test_lifecycle_short_horizon(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    SW(&s, TCO_P_LIFECYCLE_HORIZON_DAYS, 10);
    SW(&s, TCO_P_LOG_HOT_DAYS, 7);
    scen_freeze(&s);
    tco_lifecycle l = { .size = sizeof l };
    assert_int_equal(tco_lifecycle_compute(&l, s.t, s.w, s.p, NULL), TCO_OK);
    assert_rel(l.gb_months[TCO_DATA_DATASET][TCO_TIER_HOT], 8000 * 240 / HOURS_PER_MONTH, 1e-14);
    assert_true(l.gb_months[TCO_DATA_DATASET][TCO_TIER_WARM] == 0);
    /* logs written over the first 240 h: the first 72 h of them reach 7 days */
    double g = (10e6 * 1024 + 1024 * 100 * 3600 / 15.0 * 1.37) / 1e9;
    assert_rel(l.gb_months[TCO_DATA_LOGS][TCO_TIER_WARM], g * 72 * 72 / 2 / HOURS_PER_MONTH, 1e-12);
    scen_free(&s);
}

/* Cold retention, and a hot window shorter than the run. The dataset is
 * hot while the run reads it however short dataset_hot_days (1 day against
 * a run of about 27), then warm 30 days, then cold 100 days, inside the
 * one-year horizon: 8,000 GB x (run, 720 h, 2,400 h). Checkpoints: the
 * newest 10 hot, the next 20 warm, the next 30 cold: the cold tier holds
 * what a tier of 60 holds less what one of 30 does (a triangle and a
 * rectangle each, as above), and a restart can go back 60 intervals. */
static void test_lifecycle_cold_and_short_hot(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    SW(&s, TCO_P_LIFECYCLE_HORIZON_DAYS, 365);
    SW(&s, TCO_P_DATASET_HOT_DAYS, 1);
    SW(&s, TCO_P_DATASET_WARM_DAYS, 30);
    SW(&s, TCO_P_DATASET_COLD_DAYS, 100);
    SW(&s, TCO_P_CHECKPOINT_RETENTION, 10);
    SW(&s, TCO_P_CHECKPOINT_WARM_RETENTION, 20);
    SW(&s, TCO_P_CHECKPOINT_COLD_RETENTION, 30);
    scen_freeze(&s);
    tco_estimate e = scen_run(&s);
    tco_lifecycle l = { .size = sizeof l };
    assert_int_equal(tco_lifecycle_compute(&l, s.t, s.w, s.p, NULL), TCO_OK);
    double run = e.wall_hours, after = 8760 - run, tau = e.checkpoint_interval_hours;
    double written = (e.compute_hours + e.data_stall_hours) / tau, every = run / written;
    assert_true(run > 24 && run + 720 + 2400 < 8760 && written > 60); /* the case this test is about */
    assert_rel(l.gb_months[TCO_DATA_DATASET][TCO_TIER_HOT], 8000 * run / HOURS_PER_MONTH, 1e-14);
    assert_rel(l.gb_months[TCO_DATA_DATASET][TCO_TIER_WARM], 8000 * 720 / HOURS_PER_MONTH, 1e-12);
    assert_rel(l.gb_months[TCO_DATA_DATASET][TCO_TIER_COLD], 8000 * 2400 / HOURS_PER_MONTH, 1e-12);
    assert_rel(l.cost[TCO_DATA_DATASET][TCO_TIER_COLD],
               l.gb_months[TCO_DATA_DATASET][TCO_TIER_COLD] * 0.00099, 1e-15); /* the default cold price */
    double up_to_30 = 30 * (30 * every) / 2 + 30 * (run - 30 * every) + 30 * after;
    double up_to_60 = 60 * (60 * every) / 2 + 60 * (run - 60 * every) + 60 * after;
    assert_rel(l.gb_months[TCO_DATA_CHECKPOINTS][TCO_TIER_COLD], 980 * (up_to_60 - up_to_30) / HOURS_PER_MONTH,
               1e-12);
    assert_rel(l.restart_window_hot_hours, 10 * tau, 1e-15);
    assert_rel(l.restart_window_hours, 60 * tau, 1e-15);
    scen_free(&s);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    tco_bandwidth b = { .size = sizeof b };
    tco_lifecycle l = { .size = sizeof l };
    assert_int_equal(tco_bandwidth_compute(&b, s.t, s.w, s.p, NULL), TCO_E_NOT_FROZEN);
    scen_freeze(&s);
    assert_int_equal(tco_bandwidth_compute(NULL, s.t, s.w, s.p, NULL), TCO_E_NULL);
    assert_int_equal(tco_lifecycle_compute(&l, s.t, NULL, s.p, NULL), TCO_E_NULL);
    l.size = 8;
    assert_int_equal(tco_lifecycle_compute(&l, s.t, s.w, s.p, NULL), TCO_E_SIZE);
    b.size = 8;
    assert_int_equal(tco_bandwidth_compute(&b, s.t, s.w, s.p, NULL), TCO_E_SIZE);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bandwidth_hand_worked),
        cmocka_unit_test(test_lifecycle_dataset),
        cmocka_unit_test(test_lifecycle_checkpoints),
        cmocka_unit_test(test_lifecycle_logs),
        cmocka_unit_test(test_lifecycle_short_horizon),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_lifecycle_cold_and_short_hot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
