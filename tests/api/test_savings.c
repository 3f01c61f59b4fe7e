/* Black-box tests of what each saving costs in return, tco_tradeoff_compute
 * and tco_tradeoffs (tco.h only).
 *
 * How the expectations are made: each kind's side-effect is worked here
 * from doc/model.md, section 22, re-typed from the model, never read from
 * the library; the figures it needs (failures, interval, work, price of a
 * wasted accelerator-hour) come from two estimates this file prices itself
 * through the public API, on clones of the handles with the value set. */
#include <stdlib.h>

#include "support.h"

/* The built-in scenario, with a spot price (the catalogue lists none for
 * H100) and no warm checkpoints, so that a hot retention cut reaches. */
static void scen_new(scen *s)
{
    scen_defaults(s);
    SP(s, TCO_P_SPOT_PER_ACCEL_HOUR, 1.5);
    SW(s, TCO_P_CHECKPOINT_WARM_RETENTION, 0);
}

/* The estimate of s as it is (at == 0) or with key set to value. */
static tco_estimate estimate_at(const scen *s, int32_t key, double value, int at)
{
    scen c;
    assert_int_equal(tco_topology_clone(&c.t, s->t, NULL), TCO_OK);
    assert_int_equal(tco_workload_clone(&c.w, s->w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_clone(&c.p, s->p, NULL), TCO_OK);
    if (at) {
        int rc = key < 2000 ? tco_topology_set(c.t, key, value, NULL) : tco_workload_set(c.w, key, value, NULL);
        assert_int_equal(rc, TCO_OK);
    }
    scen_freeze(&c);
    tco_estimate e = { .size = sizeof e };
    assert_int_equal(tco_estimate_compute(&e, c.t, c.w, c.p, NULL), TCO_OK);
    scen_free(&c);
    return e;
}

/* The price of a wasted accelerator-hour (section 22). */
static double per_hour(const tco_estimate *e)
{
    return e->cost[TCO_CAT_WASTE] / (e->accelerator_hours - e->effective_accelerator_hours);
}

static double getw(const scen *s, int32_t key)
{
    double v;
    assert_int_equal(tco_workload_get(s->w, key, &v, NULL), TCO_OK);
    return v;
}

static tco_tradeoff weigh(const scen *s, const tco_saving *q)
{
    tco_tradeoff o = { .size = sizeof o };
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_tradeoff_compute(&o, q, s->t, s->w, s->p, &err);
    if (rc)
        print_error("tradeoff: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    assert_int_equal(o.status, TCO_OK);
    assert_true(isfinite(o.saving) && isfinite(o.side_effect_cost) && isfinite(o.net));
    assert_rel(o.net, o.saving - o.side_effect_cost, 1e-12);
    return o;
}

static tco_saving saving(int32_t kind, double value)
{
    tco_saving q;
    tco_saving_init(&q);
    q.kind = kind;
    q.value = value;
    return q;
}

static void test_defaults_and_names(void **state)
{
    (void)state;
    tco_saving q;
    tco_saving_init(&q);
    assert_int_equal(q.size, sizeof q);
    assert_int_equal(q.kind, 0);
    assert_true(q.value == 0 && q.staff_cost_per_hour == -1 && q.log_needed_share == 0.5 &&
                q.incident_age_days == 7 && q.rediagnosis_hours == 4 && q.checkpoint_corrupt_probability == 0.01 &&
                q.replica_availability == 0.99);
    assert_true(q.demand == NULL && q.n == 0 && q.interval_hours == 1 && q.baseline == 0 && q.acquire_hours == 0.25 &&
                q.wait_cost_per_accelerator_hour == -1 && q.idle_timeout_hours == 0 && q.idle_gap_hours == 1 &&
                q.idle_periods == -1);
    tco_saving_init(NULL);
    assert_string_equal(tco_saving_name(TCO_SAVING_METRICS_INTERVAL), "metrics_interval");
    assert_string_equal(tco_saving_name(TCO_SAVING_MORE_SPOT), "more_spot");
    assert_string_equal(tco_saving_side_effect_unit(TCO_SAVING_FEWER_REPLICAS), "1");
    assert_string_equal(tco_saving_side_effect_unit(TCO_SAVING_CHECKPOINT_INTERVAL), "accelerator-h");
    assert_string_equal(tco_saving_name(TCO_SAVING_SMALLER_BASELINE), "smaller_baseline");
    assert_string_equal(tco_saving_name(TCO_SAVING_IDLE_RECLAIM), "idle_reclaim");
    assert_string_equal(tco_saving_side_effect_unit(TCO_SAVING_IDLE_RECLAIM), "accelerator-h");
    for (int32_t k = 1; k <= 8; k++)
        assert_non_null(tco_saving_side_effect(k));
    assert_null(tco_saving_name(0));
    assert_null(tco_saving_name(9));
    assert_null(tco_saving_side_effect(-1));
    assert_null(tco_saving_side_effect_unit(99));
}

/* Coarser sampling: failures x (new - old) / 2 s, the job idle meanwhile. */
static void test_metrics_interval(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    scen_freeze(&s);
    tco_estimate b = estimate_at(&s, 0, 0, 0), a = estimate_at(&s, TCO_P_METRICS_INTERVAL_SECONDS, 60, 1);
    tco_saving q = saving(TCO_SAVING_METRICS_INTERVAL, 60);
    tco_tradeoff o = weigh(&s, &q);
    double runs = getw(&s, TCO_P_RUNS);
    double hours = b.expected_failures * runs * (60 - 15) / 2 / 3600;
    assert_int_equal(o.kind, TCO_SAVING_METRICS_INTERVAL);
    assert_true(o.current_value == 15 && o.new_value == 60);
    assert_true(o.total_before == b.total && o.total_after == a.total);
    assert_rel(o.saving, b.total - a.total, 1e-12);
    assert_rel(o.saving, b.cost[TCO_CAT_LOGGING] - a.cost[TCO_CAT_LOGGING], 1e-9);
    assert_rel(o.side_effect, hours, 1e-12);
    assert_rel(o.side_effect_accelerator_hours, hours * b.job_accelerators, 1e-12);
    assert_rel(o.side_effect_cost, hours * b.job_accelerators * per_hour(&b), 1e-12);
    assert_int_equal(o.in_estimate, 0);
    assert_int_equal(o.verdict, TCO_VERDICT_WORTH_IT);
    assert_int_equal(o.flagged, 0);
    scen_free(&s);
}

/* Shorter retention: failures x share x (e^-r'/m - e^-r/m) x hours at the
 * staff hour, staff_per_fte_year / staff_hours_per_fte_year by default. */
static void test_log_retention(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    scen_freeze(&s);
    tco_estimate b = estimate_at(&s, 0, 0, 0), a = estimate_at(&s, TCO_P_LOG_RETENTION_DAYS, 10, 1);
    tco_saving q = saving(TCO_SAVING_LOG_RETENTION, 10);
    tco_tradeoff o = weigh(&s, &q);
    double staff, hours_fte;
    assert_int_equal(tco_pricing_get(s.p, TCO_P_STAFF_PER_FTE_YEAR, &staff, NULL), TCO_OK);
    assert_int_equal(tco_pricing_get(s.p, TCO_P_STAFF_HOURS_PER_FTE_YEAR, &hours_fte, NULL), TCO_OK);
    double h = b.expected_failures * 0.5 * (exp(-10.0 / 7) - exp(-30.0 / 7)) * 4;
    assert_rel(o.saving, b.total - a.total, 1e-12);
    assert_rel(o.side_effect, h, 1e-12);
    assert_true(o.side_effect_accelerator_hours == 0);
    assert_rel(o.side_effect_cost, h * staff / hours_fte, 1e-12);
    /* 30 d to 10 d saves less than the diagnosis it costs: flagged */
    assert_true(o.side_effect_cost > o.saving && o.saving > 0);
    assert_int_equal(o.verdict, TCO_VERDICT_FLAGGED);
    assert_int_equal(o.flagged, 1);
    /* a cheaper staff hour of the caller's turns it */
    q.staff_cost_per_hour = 1;
    o = weigh(&s, &q);
    assert_rel(o.side_effect_cost, h * 1, 1e-12);
    assert_int_equal(o.verdict, TCO_VERDICT_WORTH_IT);
    scen_free(&s);
}

/* Fewer hot checkpoints: E(K) = tau sum_{1}^{K-1} q^j + q^K W / 2, K the
 * kept ones (hot + warm + cold, at most half those written). */
static double rollback(double K, double q, double tau, double W)
{
    double sum = 0, qj = 1;
    for (int j = 1; j <= (int)K - 1; j++) {
        qj *= q;
        sum += qj;
    }
    return tau * sum + pow(q, K) * W / 2;
}

static void test_checkpoint_retention(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    scen_freeze(&s);
    tco_estimate b = estimate_at(&s, 0, 0, 0), a = estimate_at(&s, TCO_P_CHECKPOINT_RETENTION, 2, 1);
    tco_saving q = saving(TCO_SAVING_CHECKPOINT_RETENTION, 2);
    q.checkpoint_corrupt_probability = 0.3;
    tco_tradeoff o = weigh(&s, &q);
    double tau = b.checkpoint_interval_hours, W = b.compute_hours + b.data_stall_hours;
    assert_true(W / tau / 2 > 10); /* the cap does not bind here */
    double dh = rollback(2, 0.3, tau, W) - rollback(10, 0.3, tau, W);
    double ah = b.expected_failures * b.job_accelerators * dh;
    assert_rel(o.saving, b.total - a.total, 1e-12);
    assert_rel(o.side_effect, ah, 1e-9);
    assert_rel(o.side_effect_cost, ah * per_hour(&b), 1e-9);
    assert_true(o.side_effect_cost > o.saving); /* 9% of restarts lose half the run: flagged */
    assert_int_equal(o.flagged, 1);
    /* at the default 1% the two kept hold: q^2 x W/2 is small */
    q.checkpoint_corrupt_probability = 0.01;
    o = weigh(&s, &q);
    assert_rel(o.side_effect, b.expected_failures * b.job_accelerators *
                                  (rollback(2, 0.01, tau, W) - rollback(10, 0.01, tau, W)), 1e-9);
    scen_free(&s);
}

/* Rarer checkpoints and more spot: the side-effect is the estimate's own
 * failures waste, the saving before it, the net the estimates' difference. */
static void check_in_estimate(const scen *s, int32_t kind, int32_t key, double value)
{
    tco_estimate b = estimate_at(s, 0, 0, 0), a = estimate_at(s, key, value, 1);
    tco_saving q = saving(kind, value);
    tco_tradeoff o = weigh(s, &q);
    assert_int_equal(o.in_estimate, 1);
    double cost = a.waste[TCO_WASTE_FAILURES] - b.waste[TCO_WASTE_FAILURES];
    double ah = a.job_accelerators * (a.lost_work_hours + a.restart_hours) -
                b.job_accelerators * (b.lost_work_hours + b.restart_hours);
    assert_rel(o.side_effect_cost, cost, 1e-12);
    assert_rel(o.side_effect_accelerator_hours, ah, 1e-9);
    assert_rel(o.net, b.total - a.total, 1e-9);
    assert_rel(o.saving, b.total - a.total + cost, 1e-12);
    assert_true(o.side_effect_cost > 0);
}

static void test_checkpoint_interval(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    scen_freeze(&s);
    tco_estimate b = estimate_at(&s, 0, 0, 0);
    check_in_estimate(&s, TCO_SAVING_CHECKPOINT_INTERVAL, TCO_P_CHECKPOINT_INTERVAL_HOURS,
                      4 * b.checkpoint_interval_hours);
    tco_saving q = saving(TCO_SAVING_CHECKPOINT_INTERVAL, 4 * b.checkpoint_interval_hours);
    tco_tradeoff o = weigh(&s, &q);
    assert_true(o.current_value == b.checkpoint_interval_hours); /* the interval used, not 0 */
    /* Daly's optimum is the cheapest interval: rarer costs more than it saves */
    assert_int_equal(o.verdict, TCO_VERDICT_FLAGGED);
    scen_free(&s);
}

static void test_more_spot(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    scen_freeze(&s);
    check_in_estimate(&s, TCO_SAVING_MORE_SPOT, TCO_P_SPOT_SHARE, 0.5);
    tco_saving q = saving(TCO_SAVING_MORE_SPOT, 0.5);
    tco_tradeoff o = weigh(&s, &q);
    assert_int_equal(o.verdict, TCO_VERDICT_WORTH_IT); /* 1.5 against the list price: worth it */
    scen_free(&s);
    /* owned: the spot share moves nothing, and that is no saving */
    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 1);
    scen_freeze(&s);
    o = weigh(&s, &q);
    assert_true(o.saving == 0);
    assert_int_equal(o.verdict, TCO_VERDICT_NO_SAVING);
    assert_int_equal(o.flagged, 0);
    scen_free(&s);
}

/* Fewer replicas: availability (1-a)^k' - (1-a)^k, over the run's hours,
 * the job's accelerators stopped. */
static void test_fewer_replicas(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_DATABASE_INSTANCES, 3);
    scen_freeze(&s);
    tco_estimate b = estimate_at(&s, 0, 0, 0), a = estimate_at(&s, TCO_P_DATABASE_INSTANCES, 2, 1);
    tco_saving q = saving(TCO_SAVING_FEWER_REPLICAS, 2);
    q.replica_availability = 0.9;
    tco_tradeoff o = weigh(&s, &q);
    double lost = 0.01 - 0.001;
    double ah = lost * (b.held_hours - getw(&s, TCO_P_QUEUE_WAIT_HOURS)) * b.job_accelerators;
    assert_rel(o.saving, b.total - a.total, 1e-12);
    assert_rel(o.saving, b.cost[TCO_CAT_DATABASE] - a.cost[TCO_CAT_DATABASE], 1e-9);
    assert_rel(o.side_effect, lost, 1e-12);
    assert_rel(o.side_effect_accelerator_hours, ah, 1e-12);
    assert_rel(o.side_effect_cost, ah * per_hour(&b), 1e-12);
    assert_int_equal(o.flagged, 1);
    /* a service the job survives (near-perfect replicas): not flagged */
    q.replica_availability = 1;
    o = weigh(&s, &q);
    assert_true(o.side_effect_cost == 0);
    assert_int_equal(o.verdict, TCO_VERDICT_WORTH_IT);
    scen_free(&s);
}

/* The queue wait is charged to the job, not to its running: a service down
 * while the job waits in the queue stops nothing. With 100 h of queue, one
 * run and no retries, the hours at risk are the wall time alone (doc/model.md,
 * section 22): (0.01 - 0.001) x wall x accelerators, the same as without
 * the queue. */
static void test_fewer_replicas_queue(void **state)
{
    (void)state;
    scen s[2];
    tco_tradeoff o[2];
    for (int k = 0; k < 2; k++) {
        scen_new(&s[k]);
        SW(&s[k], TCO_P_DATABASE_INSTANCES, 3);
        SW(&s[k], TCO_P_QUEUE_WAIT_HOURS, k ? 100 : 0);
        scen_freeze(&s[k]);
        tco_saving q = saving(TCO_SAVING_FEWER_REPLICAS, 2);
        q.replica_availability = 0.9;
        o[k] = weigh(&s[k], &q);
    }
    tco_estimate b = estimate_at(&s[1], 0, 0, 0);
    assert_rel(b.held_hours, b.wall_hours + 100, 1e-15); /* the premise: the queue is held */
    assert_rel(o[1].side_effect_accelerator_hours, (0.01 - 0.001) * b.wall_hours * b.job_accelerators, 1e-12);
    assert_rel(o[1].side_effect_accelerator_hours, o[0].side_effect_accelerator_hours, 1e-12);
    scen_free(&s[0]);
    scen_free(&s[1]);
}

/* The corruption probability at its edges (doc/model.md, section 22):
 * checkpoints that never fail (q = 0) make the newest enough, so keeping
 * fewer costs nothing; q = 0.5, the most allowed, prices as the formula
 * says; above it is refused naming the field. */
static void test_checkpoint_retention_edges(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    scen_freeze(&s);
    tco_saving q = saving(TCO_SAVING_CHECKPOINT_RETENTION, 2);
    q.checkpoint_corrupt_probability = 0;
    tco_tradeoff o = weigh(&s, &q);
    assert_true(o.side_effect == 0 && o.side_effect_accelerator_hours == 0 && o.side_effect_cost == 0);
    assert_true(o.saving > 0 && o.net == o.saving);
    tco_estimate b = estimate_at(&s, 0, 0, 0);
    double tau = b.checkpoint_interval_hours, W = b.compute_hours + b.data_stall_hours;
    q.checkpoint_corrupt_probability = 0.5;
    o = weigh(&s, &q);
    assert_rel(o.side_effect,
               b.expected_failures * b.job_accelerators * (rollback(2, 0.5, tau, W) - rollback(10, 0.5, tau, W)), 1e-9);
    q.checkpoint_corrupt_probability = 0.5000001;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_tradeoff_compute(&o, &q, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "saving.checkpoint_corrupt_probability");
    /* the batch form takes no kind nor value of its own: each is named */
    tco_tradeoff rows[8];
    size_t n = 99;
    tco_saving side;
    tco_saving_init(&side);
    side.kind = TCO_SAVING_CHECKPOINT_RETENTION;
    assert_int_equal(tco_tradeoffs(rows, sizeof rows[0], 8, &n, &side, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "saving.kind");
    assert_string_equal(err.message, "saving.kind = 3: allowed only 0 here (tco_tradeoffs suggests every kind's value)");
    tco_saving_init(&side);
    side.value = 3;
    assert_int_equal(tco_tradeoffs(rows, sizeof rows[0], 8, &n, &side, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "saving.value");
    assert_string_equal(err.message, "saving.value = 3: allowed only 0 here (tco_tradeoffs suggests every kind's value)");
    assert_true(n == 99);
    scen_free(&s);
}

/* A deeper cut never gives a smaller side-effect. */
static void test_monotone(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_DATABASE_INSTANCES, 6);
    scen_freeze(&s);
    tco_estimate b = estimate_at(&s, 0, 0, 0);
    /* each kind's values, from a shallow cut to a deep one */
    const double ti = b.checkpoint_interval_hours;
    const struct {
        int32_t kind;
        double v[6];
    } cuts[] = {
        { TCO_SAVING_METRICS_INTERVAL, { 20, 30, 60, 300, 3600, 86400 } },
        { TCO_SAVING_LOG_RETENTION, { 29, 20, 10, 3, 0.5, 0 } },
        { TCO_SAVING_CHECKPOINT_RETENTION, { 9, 7, 5, 3, 2, 1 } },
        { TCO_SAVING_CHECKPOINT_INTERVAL, { 1.1 * ti, 1.5 * ti, 2 * ti, 5 * ti, 10 * ti, 50 * ti } },
        { TCO_SAVING_FEWER_REPLICAS, { 5, 4, 3, 2, 1, 1 } },
        { TCO_SAVING_MORE_SPOT, { 0.05, 0.1, 0.3, 0.5, 0.8, 1 } },
    };
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        double prev = 0, prev_side = 0;
        for (int i = 0; i < 6; i++) {
            tco_saving q = saving(cuts[c].kind, cuts[c].v[i]);
            q.checkpoint_corrupt_probability = 0.4;
            tco_tradeoff o = weigh(&s, &q);
            /* In cur too, but for more spot: its lost hours grow, and are
             * priced at the estimate's waste price, which spot lowers. */
            if (cuts[c].kind != TCO_SAVING_MORE_SPOT)
                assert_true(o.side_effect_cost >= prev * (1 - 1e-12));
            assert_true(o.side_effect >= prev_side * (1 - 1e-12));
            assert_true(o.side_effect_cost > 0);
            prev = o.side_effect_cost;
            prev_side = o.side_effect;
        }
    }
    scen_free(&s);
}

/* The rates of the smaller-baseline tests: reserved 2.5, on demand 4, no
 * interruptible demand (the elastic rate is on demand's). */
static void baseline_scen(scen *s)
{
    scen_new(s);
    SP(s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SW(s, TCO_P_INTERRUPTIBLE_SHARE, 0);
    scen_freeze(s);
}

static const double hourly[] = { 2, 6, 3, 8, 1 };

static tco_saving baseline_cut(double from, double to)
{
    tco_saving q = saving(TCO_SAVING_SMALLER_BASELINE, to);
    q.demand = hourly;
    q.n = 5;
    q.baseline = from;
    return q;
}

/* A smaller baseline, by hand (doc/model.md, sections 7 and 22): demand
 * 2, 6, 3, 8, 1 accelerators over five hours. At 6 reserved: 6 x 5 x 2.5
 * = 75, above it 2 accelerator-hours at 4 = 8: 83. At 2: 25 + (4 + 1 + 6)
 * x 4 = 69; the saving is 14. Above 6 the excess 0, 0, 0, 2, 0 rises by
 * 2 accelerators; above 2 the excess 0, 4, 1, 6, 0 rises by 4 + 5 = 9:
 * 7 more acquired, each waiting 0.25 h: 1.75 accelerator-hours. At 10 an
 * accelerator-hour of waiting that is 17.5, more than the saving
 * (flagged); at 4 it is 7 (worth it). */
static void test_smaller_baseline(void **state)
{
    (void)state;
    scen s;
    baseline_scen(&s);
    tco_saving q = baseline_cut(6, 2);
    q.wait_cost_per_accelerator_hour = 10;
    tco_tradeoff o = weigh(&s, &q);
    assert_int_equal(o.kind, TCO_SAVING_SMALLER_BASELINE);
    assert_true(o.current_value == 6 && o.new_value == 2 && o.in_estimate == 0);
    assert_rel(o.total_before, 83, 1e-15);
    assert_rel(o.total_after, 69, 1e-15);
    assert_rel(o.saving, 14, 1e-14);
    assert_rel(o.side_effect, 1.75, 1e-15);
    assert_rel(o.side_effect_accelerator_hours, 1.75, 1e-15);
    assert_rel(o.side_effect_cost, 17.5, 1e-15);
    assert_int_equal(o.verdict, TCO_VERDICT_FLAGGED);
    assert_int_equal(o.flagged, 1);
    /* the totals are the split's at each baseline */
    tco_split sp = { .size = sizeof sp };
    assert_int_equal(tco_capacity_split_at(&sp, 2, hourly, 5, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(o.total_after == sp.total_cost);
    q.wait_cost_per_accelerator_hour = 4;
    o = weigh(&s, &q);
    assert_rel(o.side_effect_cost, 7, 1e-15);
    assert_int_equal(o.verdict, TCO_VERDICT_WORTH_IT);
    /* below the split's optimum (2) the bill rises: no saving; at 0 every
     * rise of the demand, 2 + 4 + 5 = 11 against 2, waits */
    q = baseline_cut(2, 0);
    o = weigh(&s, &q);
    assert_rel(o.total_after, 80, 1e-15); /* 20 accelerator-hours at 4 */
    assert_int_equal(o.verdict, TCO_VERDICT_NO_SAVING);
    assert_rel(o.side_effect, 0.25 * (11 - 9), 1e-15);

    /* the five hours repeated 60 times, 300 points (past one block of
     * 256): the same optimum (the 113th smallest of 60 each of 1, 2, 3,
     * 6, 8 is 2) and every figure 60 times the five hours': 4,980 before,
     * 4,140 after, a saving of 840; 60 x 7 more acquired, 105
     * accelerator-hours of waiting, 1,050 at 10 (flagged) */
    double *long_run = malloc(300 * sizeof *long_run);
    assert_non_null(long_run);
    for (int i = 0; i < 300; i++)
        long_run[i] = hourly[i % 5];
    q = baseline_cut(6, 2);
    q.demand = long_run;
    q.n = 300;
    q.wait_cost_per_accelerator_hour = 10;
    o = weigh(&s, &q);
    assert_rel(o.total_before, 4980, 1e-14);
    assert_rel(o.total_after, 4140, 1e-14);
    assert_rel(o.saving, 840, 1e-13);
    assert_rel(o.side_effect, 105, 1e-14);
    assert_rel(o.side_effect_cost, 1050, 1e-14);
    assert_int_equal(o.verdict, TCO_VERDICT_FLAGGED);
    free(long_run);
    scen_free(&s);
}

/* A tighter idle reclaim, by hand: idle gaps of mean 1 h, exponential;
 * the timeout cut from 1 h to 0.5 h. Held idle per period and
 * accelerator: 1 - e^-1 = 0.63212056 h before, 1 - e^-0.5 = 0.39346934 h
 * after; released e^-1 = 0.36787944 and e^-0.5 = 0.60653066 of the
 * times: 0.23865122 more, each waiting 0.25 h. Over 10 periods of the
 * job's n accelerators the saving is 10 n 0.23865122 h at the waste
 * price, the side-effect 10 n 0.23865122 x 0.25 accelerator-hours: a
 * quarter of it at the same price (worth it), 1.25 times it at five times
 * that price (flagged), whatever the timeout (the gaps are memoryless). */
static void test_idle_reclaim(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    scen_freeze(&s);
    tco_estimate b = estimate_at(&s, 0, 0, 0);
    tco_saving q = saving(TCO_SAVING_IDLE_RECLAIM, 0.5);
    q.idle_timeout_hours = 1;
    q.idle_periods = 10;
    tco_tradeoff o = weigh(&s, &q);
    double n = b.job_accelerators, more = exp(-0.5) - exp(-1), price = per_hour(&b);
    assert_rel(more, 0.23865122, 1e-7);
    assert_true(o.current_value == 1 && o.new_value == 0.5 && o.in_estimate == 0);
    assert_rel(o.saving, 10 * n * more * price, 1e-12);
    assert_rel(o.total_before, b.total + 10 * n * (1 - exp(-1)) * price, 1e-12);
    assert_rel(o.total_after, b.total + 10 * n * (1 - exp(-0.5)) * price, 1e-12);
    assert_rel(o.side_effect, 10 * n * more * 0.25, 1e-12);
    assert_rel(o.side_effect_cost, 10 * n * more * 0.25 * price, 1e-12);
    assert_int_equal(o.verdict, TCO_VERDICT_WORTH_IT);
    q.wait_cost_per_accelerator_hour = 5 * price;
    q.value = 0;
    o = weigh(&s, &q);
    assert_rel(o.side_effect_cost / o.saving, 1.25, 1e-12);
    assert_int_equal(o.verdict, TCO_VERDICT_FLAGGED);
    /* by default the allocation falls idle once a run */
    q = saving(TCO_SAVING_IDLE_RECLAIM, 0.5);
    q.idle_timeout_hours = 1;
    o = weigh(&s, &q);
    assert_rel(o.side_effect, getw(&s, TCO_P_RUNS) * n * more * 0.25, 1e-12);
    scen_free(&s);
}

/* Every bad input: its code and field, and nothing written. */
static void check_refused(const scen *s, const tco_saving *q, int code, const char *field)
{
    tco_tradeoff o;
    memset(&o, 0xab, sizeof o);
    o.size = sizeof o;
    tco_tradeoff keep = o;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_tradeoff_compute(&o, q, s->t, s->w, s->p, &err);
    if (rc != code)
        print_error("expected %s, got %s: %s\n", tco_status_name(code), tco_status_name(rc), err.message);
    assert_int_equal(rc, code);
    assert_memory_equal(&o, &keep, sizeof o);
    assert_true(err.message[0] != 0);
    if (field)
        assert_string_equal(err.param_name, field);
}

static void test_bad_input(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    scen_freeze(&s);
    tco_estimate b = estimate_at(&s, 0, 0, 0);
    tco_saving q;
#define BAD(kind, value, code, field)                                                                           \
    do {                                                                                                        \
        q = saving((kind), (value));                                                                            \
        check_refused(&s, &q, (code), (field));                                                                 \
    } while (0)
    BAD(0, 30, TCO_E_RANGE, "saving.kind");
    BAD(9, 30, TCO_E_RANGE, "saving.kind");
    BAD(-1, 30, TCO_E_RANGE, "saving.kind");
    BAD(TCO_SAVING_METRICS_INTERVAL, NAN, TCO_E_NOT_FINITE, "saving.value");
    BAD(TCO_SAVING_METRICS_INTERVAL, INFINITY, TCO_E_NOT_FINITE, "saving.value");
    BAD(TCO_SAVING_METRICS_INTERVAL, 15, TCO_E_RANGE, "saving.value");     /* not coarser */
    BAD(TCO_SAVING_METRICS_INTERVAL, 5, TCO_E_RANGE, "saving.value");      /* finer */
    BAD(TCO_SAVING_METRICS_INTERVAL, 86401, TCO_E_RANGE, "saving.value");  /* past the parameter's bound */
    BAD(TCO_SAVING_LOG_RETENTION, -1, TCO_E_RANGE, "saving.value");
    BAD(TCO_SAVING_LOG_RETENTION, 30, TCO_E_RANGE, "saving.value");
    BAD(TCO_SAVING_CHECKPOINT_RETENTION, 0, TCO_E_RANGE, "saving.value");
    BAD(TCO_SAVING_CHECKPOINT_RETENTION, 2.5, TCO_E_RANGE, "saving.value"); /* not whole */
    BAD(TCO_SAVING_CHECKPOINT_RETENTION, 11, TCO_E_RANGE, "saving.value");
    BAD(TCO_SAVING_CHECKPOINT_INTERVAL, b.checkpoint_interval_hours, TCO_E_RANGE, "saving.value");
    BAD(TCO_SAVING_FEWER_REPLICAS, 0, TCO_E_RANGE, "saving.value");
    BAD(TCO_SAVING_FEWER_REPLICAS, 2, TCO_E_RANGE, "saving.value");
    BAD(TCO_SAVING_MORE_SPOT, 0, TCO_E_RANGE, "saving.value");
    BAD(TCO_SAVING_MORE_SPOT, 1.1, TCO_E_RANGE, "saving.value");
    BAD(TCO_SAVING_MORE_SPOT, -0.1, TCO_E_RANGE, "saving.value");
    /* the side inputs */
    struct {
        size_t off;
        double v;
        int code;
        const char *field;
    } side[] = {
        { offsetof(tco_saving, staff_cost_per_hour), -2, TCO_E_RANGE, "saving.staff_cost_per_hour" },
        { offsetof(tco_saving, staff_cost_per_hour), NAN, TCO_E_NOT_FINITE, "saving.staff_cost_per_hour" },
        { offsetof(tco_saving, log_needed_share), 1.5, TCO_E_RANGE, "saving.log_needed_share" },
        { offsetof(tco_saving, log_needed_share), -INFINITY, TCO_E_NOT_FINITE, "saving.log_needed_share" },
        { offsetof(tco_saving, incident_age_days), 0, TCO_E_RANGE, "saving.incident_age_days" },
        { offsetof(tco_saving, rediagnosis_hours), -1, TCO_E_RANGE, "saving.rediagnosis_hours" },
        { offsetof(tco_saving, checkpoint_corrupt_probability), 0.6, TCO_E_RANGE,
          "saving.checkpoint_corrupt_probability" },
        { offsetof(tco_saving, replica_availability), 0, TCO_E_RANGE, "saving.replica_availability" },
        { offsetof(tco_saving, replica_availability), NAN, TCO_E_NOT_FINITE, "saving.replica_availability" },
    };
    for (size_t i = 0; i < sizeof side / sizeof side[0]; i++) {
        q = saving(TCO_SAVING_METRICS_INTERVAL, 30);
        memcpy((char *)&q + side[i].off, &side[i].v, sizeof(double));
        check_refused(&s, &q, side[i].code, side[i].field);
    }
    /* the inputs of kinds 7 and 8, refused whatever the kind */
    struct {
        size_t off;
        double v;
        int code;
        const char *field;
    } more[] = {
        { offsetof(tco_saving, interval_hours), 0, TCO_E_RANGE, "saving.interval_hours" },
        { offsetof(tco_saving, interval_hours), NAN, TCO_E_NOT_FINITE, "saving.interval_hours" },
        { offsetof(tco_saving, baseline), -1, TCO_E_RANGE, "saving.baseline" },
        { offsetof(tco_saving, acquire_hours), -0.1, TCO_E_RANGE, "saving.acquire_hours" },
        { offsetof(tco_saving, acquire_hours), INFINITY, TCO_E_NOT_FINITE, "saving.acquire_hours" },
        { offsetof(tco_saving, wait_cost_per_accelerator_hour), -2, TCO_E_RANGE,
          "saving.wait_cost_per_accelerator_hour" },
        { offsetof(tco_saving, idle_timeout_hours), -1, TCO_E_RANGE, "saving.idle_timeout_hours" },
        { offsetof(tco_saving, idle_gap_hours), 0, TCO_E_RANGE, "saving.idle_gap_hours" },
        { offsetof(tco_saving, idle_periods), -0.5, TCO_E_RANGE, "saving.idle_periods" },
        { offsetof(tco_saving, idle_periods), NAN, TCO_E_NOT_FINITE, "saving.idle_periods" },
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        q = saving(TCO_SAVING_METRICS_INTERVAL, 30);
        memcpy((char *)&q + more[i].off, &more[i].v, sizeof(double));
        check_refused(&s, &q, more[i].code, more[i].field);
    }
    const double bad_series[] = { 1, NAN }, neg_series[] = { 1, -1 };
    q = saving(TCO_SAVING_METRICS_INTERVAL, 30);
    q.n = 2;
    check_refused(&s, &q, TCO_E_NULL, "saving.demand");
    q.demand = bad_series;
    check_refused(&s, &q, TCO_E_NOT_FINITE, NULL);
    q.demand = neg_series;
    check_refused(&s, &q, TCO_E_RANGE, NULL);
    q = saving(TCO_SAVING_SMALLER_BASELINE, 2); /* no series */
    q.baseline = 6;
    check_refused(&s, &q, TCO_E_INCONSISTENT, "saving.demand");
    q = baseline_cut(0, 0);
    check_refused(&s, &q, TCO_E_INCONSISTENT, "saving.baseline");
    q = baseline_cut(6, 6);
    check_refused(&s, &q, TCO_E_RANGE, "saving.value");
    q = baseline_cut(6, -1);
    check_refused(&s, &q, TCO_E_RANGE, "saving.value");
    q = saving(TCO_SAVING_IDLE_RECLAIM, 0);
    check_refused(&s, &q, TCO_E_INCONSISTENT, "saving.idle_timeout_hours");
    q.idle_timeout_hours = 1;
    q.value = 1;
    check_refused(&s, &q, TCO_E_RANGE, "saving.value");
    /* sizes */
    q = saving(TCO_SAVING_METRICS_INTERVAL, 30);
    q.size = 8;
    check_refused(&s, &q, TCO_E_SIZE, "saving.size");
    struct {
        tco_saving q;
        double newer;
    } big;
    memset(&big, 0, sizeof big);
    big.q = saving(TCO_SAVING_METRICS_INTERVAL, 30);
    big.q.size = sizeof big;
    big.newer = 1; /* a field this library cannot honour */
    check_refused(&s, &big.q, TCO_E_SIZE, "saving.size");
    big.newer = 0;
    tco_tradeoff o = { .size = sizeof o };
    assert_int_equal(tco_tradeoff_compute(&o, &big.q, s.t, s.w, s.p, NULL), TCO_OK);
    /* the first 1.1 saving, without the fields of kinds 7 and 8: what lies
     * past it is not read, and it weighs as the full one at their defaults */
    tco_tradeoff first = { .size = sizeof first };
    q = saving(TCO_SAVING_METRICS_INTERVAL, 30);
    memset((char *)&q + offsetof(tco_saving, demand), 0x5a, sizeof q - offsetof(tco_saving, demand));
    q.size = offsetof(tco_saving, demand);
    assert_int_equal(tco_tradeoff_compute(&first, &q, s.t, s.w, s.p, NULL), TCO_OK);
    assert_memory_equal(&first, &o, sizeof o);
    q = saving(TCO_SAVING_METRICS_INTERVAL, 30);
    o.size = 16;
    assert_int_equal(tco_tradeoff_compute(&o, &q, s.t, s.w, s.p, NULL), TCO_E_SIZE);
    o.size = sizeof o;
    assert_int_equal(tco_tradeoff_compute(NULL, &q, s.t, s.w, s.p, NULL), TCO_E_NULL);
    assert_int_equal(tco_tradeoff_compute(&o, NULL, s.t, s.w, s.p, NULL), TCO_E_NULL);
    assert_int_equal(tco_tradeoff_compute(&o, &q, NULL, s.w, s.p, NULL), TCO_E_NULL);
    /* wrong kinds of handle, passed through casts */
    check_refused(&(scen){ (tco_topology *)s.w, s.w, s.p }, &q, TCO_E_TYPE, NULL);
    scen_free(&s);
    /* unfrozen */
    scen_new(&s);
    check_refused(&s, &q, TCO_E_NOT_FROZEN, NULL);
    /* refused at the new value: the freeze's check of the shares, named */
    ST(&s, TCO_P_RESERVED_SHARE, 0.9);
    scen_freeze(&s);
    q = saving(TCO_SAVING_MORE_SPOT, 0.5);
    check_refused(&s, &q, TCO_E_INCONSISTENT, NULL);
    scen_free(&s);
#undef BAD
}

/* The table: the suggested values, each row what tco_tradeoff_compute gives. */
static void test_batch(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    scen_freeze(&s);
    tco_estimate b = estimate_at(&s, 0, 0, 0);
    tco_tradeoff rows[8];
    size_t n = 99;
    assert_int_equal(tco_tradeoffs(NULL, 0, 0, &n, NULL, s.t, s.w, s.p, NULL), TCO_OK);
    assert_int_equal(n, 6);
    assert_int_equal(tco_tradeoffs(rows, sizeof rows[0], 8, &n, NULL, s.t, s.w, s.p, NULL), TCO_OK);
    assert_int_equal(n, 6);
    const double want[6] = { 30, 15, 5, 2 * b.checkpoint_interval_hours, 1, 0.2 };
    int flagged = 0, worth = 0;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(rows[i].kind, (int32_t)i + 1);
        assert_int_equal(rows[i].status, TCO_OK);
        assert_rel(rows[i].new_value, want[i], 1e-12);
        tco_saving q = saving(rows[i].kind, rows[i].new_value);
        tco_tradeoff one = weigh(&s, &q);
        assert_memory_equal(&one, &rows[i], sizeof one);
        flagged += rows[i].flagged;
        worth += rows[i].verdict == TCO_VERDICT_WORTH_IT;
    }
    assert_true(flagged > 0 && worth > 0);
    /* with a demand series above its optimum and an idle timeout, kinds 7
     * and 8 join: the split's optimum (2, test_smaller_baseline) and the
     * timeout halved */
    scen_free(&s);
    baseline_scen(&s);
    tco_saving side7 = baseline_cut(6, 0);
    side7.kind = 0;
    side7.value = 0;
    side7.idle_timeout_hours = 2;
    assert_int_equal(tco_tradeoffs(rows, sizeof rows[0], 8, &n, &side7, s.t, s.w, s.p, NULL), TCO_OK);
    assert_int_equal(n, 8);
    assert_true(rows[6].kind == TCO_SAVING_SMALLER_BASELINE && rows[6].new_value == 2 && rows[6].status == TCO_OK);
    assert_true(rows[7].kind == TCO_SAVING_IDLE_RECLAIM && rows[7].new_value == 1 && rows[7].status == TCO_OK);
    for (int i = 6; i < 8; i++) {
        tco_saving q = side7;
        q.kind = rows[i].kind;
        q.value = rows[i].new_value;
        tco_tradeoff one = weigh(&s, &q);
        assert_memory_equal(&one, &rows[i], sizeof one);
    }
    /* at or below the optimum there is nothing to cut */
    side7.baseline = 2;
    assert_int_equal(tco_tradeoffs(rows, sizeof rows[0], 8, &n, &side7, s.t, s.w, s.p, NULL), TCO_OK);
    assert_int_equal(n, 7);
    assert_int_equal(rows[6].kind, TCO_SAVING_IDLE_RECLAIM);
    /* cap 2: two rows, n all of them, the rest untouched */
    tco_tradeoff few[3];
    memset(few, 0x5a, sizeof few);
    tco_tradeoff keep = few[2];
    assert_int_equal(tco_tradeoffs(few, sizeof few[0], 2, &n, NULL, s.t, s.w, s.p, NULL), TCO_OK);
    assert_int_equal(n, 6);
    assert_memory_equal(&few[0], &rows[0], sizeof rows[0]);
    assert_memory_equal(&few[2], &keep, sizeof keep);
    /* refusals write nothing */
    tco_saving side;
    tco_saving_init(&side);
    side.kind = 1;
    memset(few, 0x5a, sizeof few);
    n = 77;
    assert_int_equal(tco_tradeoffs(few, sizeof few[0], 3, &n, &side, s.t, s.w, s.p, NULL), TCO_E_RANGE);
    side.kind = 0;
    side.log_needed_share = NAN;
    assert_int_equal(tco_tradeoffs(few, sizeof few[0], 3, &n, &side, s.t, s.w, s.p, NULL), TCO_E_NOT_FINITE);
    assert_int_equal(tco_tradeoffs(few, 12, 3, &n, NULL, s.t, s.w, s.p, NULL), TCO_E_SIZE);
    assert_int_equal(tco_tradeoffs(NULL, sizeof few[0], 3, &n, NULL, s.t, s.w, s.p, NULL), TCO_E_NULL);
    assert_int_equal(tco_tradeoffs(few, sizeof few[0], 3, NULL, NULL, s.t, s.w, s.p, NULL), TCO_E_NULL);
    assert_int_equal(n, 77);
    assert_memory_equal(&few[0], &keep, sizeof keep);
    scen_free(&s);
    /* nothing to cut: one checkpoint, one instance, no retention, owned */
    scen_new(&s);
    SW(&s, TCO_P_CHECKPOINT_RETENTION, 1);
    SW(&s, TCO_P_DATABASE_INSTANCES, 1);
    SW(&s, TCO_P_LOG_RETENTION_DAYS, 0);
    ST(&s, TCO_P_OWNED_SHARE, 1);
    scen_freeze(&s);
    assert_int_equal(tco_tradeoffs(rows, sizeof rows[0], 8, &n, NULL, s.t, s.w, s.p, NULL), TCO_OK);
    assert_int_equal(n, 2);
    assert_int_equal(rows[0].kind, TCO_SAVING_METRICS_INTERVAL);
    assert_int_equal(rows[1].kind, TCO_SAVING_CHECKPOINT_INTERVAL);
    scen_free(&s);
}

/* What the base estimate or the split refuses passes through, named as
 * they name it; a suggestion the split cannot price is a row with its
 * code and zeros. */
static void test_refusals_passed_on(void **state)
{
    (void)state;
    /* 1e14 parameters: their state does not fit the default cluster */
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_PARAMS_TOTAL, 1e14);
    scen_freeze(&s);
    tco_estimate e = { .size = sizeof e };
    tco_error want = TCO_ERROR_INIT, err = TCO_ERROR_INIT;
    int code = tco_estimate_compute(&e, s.t, s.w, s.p, &want);
    assert_int_equal(code, TCO_E_INCONSISTENT);
    tco_saving q = saving(TCO_SAVING_METRICS_INTERVAL, 30);
    check_refused(&s, &q, code, want.param_name);
    tco_tradeoff rows[8];
    size_t n = 77;
    assert_int_equal(tco_tradeoffs(rows, sizeof rows[0], 8, &n, NULL, s.t, s.w, s.p, &err), code);
    assert_string_equal(err.param_name, want.param_name);
    assert_string_equal(err.message, want.message);
    assert_int_equal(n, 77);
    scen_free(&s);

    /* A custom accelerator priced on demand only: the estimate runs, the
     * split has no reserved rate for the baseline, so the suggested
     * baseline is a row with the split's code. */
    baseline_scen(&s);
    scen c;
    scen_defaults(&c);
    assert_int_equal(tco_topology_set_text(c.t, TCO_P_ACCELERATOR_MODEL, "custom", NULL), TCO_OK);
    ST(&c, TCO_P_ACCELERATOR_PEAK_FLOPS, 1e15);
    ST(&c, TCO_P_ACCELERATOR_MEMORY_BYTES, 100e9);
    ST(&c, TCO_P_ACCELERATOR_TDP_WATTS, 700);
    SP(&c, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SW(&c, TCO_P_INTERRUPTIBLE_SHARE, 0);
    scen_freeze(&c);
    assert_int_equal(tco_estimate_compute(&e, c.t, c.w, c.p, NULL), TCO_OK);
    tco_split sp = { .size = sizeof sp };
    code = tco_capacity_split(&sp, hourly, 5, 1, c.t, c.w, c.p, &want);
    assert_int_equal(code, TCO_E_INCONSISTENT);
    tco_saving side = baseline_cut(6, 0);
    side.kind = 0;
    side.value = 0;
    assert_int_equal(tco_tradeoffs(rows, sizeof rows[0], 8, &n, &side, c.t, c.w, c.p, NULL), TCO_OK);
    size_t k = 0;
    while (k < n && rows[k].kind != TCO_SAVING_SMALLER_BASELINE)
        k++;
    assert_true(k < n);
    assert_int_equal(rows[k].status, code);
    assert_true(rows[k].new_value == 0 && rows[k].saving == 0 && rows[k].net == 0);
    q = baseline_cut(6, 2);
    tco_tradeoff o;
    memset(&o, 0xab, sizeof o);
    o.size = sizeof o;
    assert_int_equal(tco_tradeoff_compute(&o, &q, c.t, c.w, c.p, &err), code);
    assert_string_equal(err.message, want.message);
    scen_free(&c);
    scen_free(&s);

    /* Reserved at the on-demand rate (4 and 4): the split reserves
     * nothing (target exceedance 4 / 4 = 1, every point may be above), so
     * the suggested baseline is 0; and with every rented accelerator
     * reserved no spot is suggested (1 - reserved_share = 0). */
    scen_new(&s);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 4);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SW(&s, TCO_P_INTERRUPTIBLE_SHARE, 0);
    ST(&s, TCO_P_RESERVED_SHARE, 1);
    scen_freeze(&s);
    assert_int_equal(tco_tradeoffs(rows, sizeof rows[0], 8, &n, &side, s.t, s.w, s.p, NULL), TCO_OK);
    int baseline_row = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(rows[i].kind != TCO_SAVING_MORE_SPOT);
        if (rows[i].kind == TCO_SAVING_SMALLER_BASELINE) {
            baseline_row = 1;
            assert_int_equal(rows[i].status, TCO_OK);
            assert_true(rows[i].new_value == 0);
        }
    }
    assert_true(baseline_row);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_names),
        cmocka_unit_test(test_metrics_interval),
        cmocka_unit_test(test_log_retention),
        cmocka_unit_test(test_checkpoint_retention),
        cmocka_unit_test(test_checkpoint_interval),
        cmocka_unit_test(test_more_spot),
        cmocka_unit_test(test_fewer_replicas),
        cmocka_unit_test(test_smaller_baseline),
        cmocka_unit_test(test_idle_reclaim),
        cmocka_unit_test(test_monotone),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_fewer_replicas_queue),
        cmocka_unit_test(test_checkpoint_retention_edges),
        cmocka_unit_test(test_refusals_passed_on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
