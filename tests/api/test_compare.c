/* Black-box tests of tco_compare (tco.h only): options priced and set
 * against the first, with every figure re-derived here from the documented
 * definitions (doc/model.md, "12 Comparing options") and the parameters
 * each test sets. Nothing the library computes is compared with itself,
 * except where a test checks that compare and estimate agree.
 *
 * The options are kept simple enough to work by hand: no failures,
 * restarts or checkpoints, no data stalls, total_flops given, and only
 * compute, storage, staff and indirect costs priced. Key numbers are
 * written out in the comments (worked in Python).
 *
 * Sources: the capital recovery annuity and the present value of a
 * residual are those of any engineering-economics text (e.g. Newnan et al.,
 * "Engineering Economic Analysis"); the comparison on cost per unit of
 * effective output and the migration and learning costs are the seeds'
 * (doc/model.md). */
#include <stdio.h>

#include "alloc_count.h"
#include "support.h"

#define HOURS_PER_YEAR 8766.0 /* 365.25 x 24: the library's documented year */
#define HOURS_PER_MONTH (HOURS_PER_YEAR / 12)
#define FLOPS 1.8432e23   /* 100 h on 1,024 accelerators of 1e15 FLOP/s at MFU 0.5 */
#define TOKENS 1e12

/* ---- helpers ---------------------------------------------------------- */

/* Capital recovery annuity with a residual, plus maintenance (cur/y). */
static double annuity(double price, double residual_share, double i, double years, double maint)
{
    double residual_pv = price * residual_share * pow(1 + i, -years);
    double crf = i > 0 ? i / (1 - pow(1 + i, -years)) : 1 / years;
    return (price - residual_pv) * crf + maint * price;
}

/* An option every figure of which is set here: 1,024 accelerators of
 * `peak` FLOP/s and `tdp` W in 128 nodes of 8, rented on demand at `rate`,
 * four runs of FLOPS on TOKENS, nothing failing or stalling. Priced:
 * compute, storage (100 TB hot at 0.1 per GB-month) and staff (2 FTE at
 * 200,000 a year); migration, learning and risk at 0 until a test sets them. */
static void option_new(scen *s, double peak, double tdp, double rate)
{
    scen_defaults(s);
    ST(s, TCO_P_ACCELERATORS, 1024);
    ST(s, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(s, TCO_P_ACCELERATOR_PEAK_FLOPS, peak);
    ST(s, TCO_P_ACCELERATOR_TDP_WATTS, tdp);
    ST(s, TCO_P_NODE_OVERHEAD_WATTS, 3000);
    ST(s, TCO_P_NICS_PER_NODE, 8);
    ST(s, TCO_P_NIC_GBPS, 400);
    ST(s, TCO_P_SWITCH_RADIX, 64);
    ST(s, TCO_P_OVERSUBSCRIPTION, 1);
    ST(s, TCO_P_STORAGE_HOT_TB, 100);
    ST(s, TCO_P_STORAGE_HOT_GBPS, 100);
    ST(s, TCO_P_STORAGE_WARM_TB, 0);
    ST(s, TCO_P_STORAGE_COLD_TB, 0);
    ST(s, TCO_P_PUE, 1.2);
    assert_int_equal(tco_topology_set_text(s->t, TCO_P_COOLING, "air", NULL), TCO_OK);
    ST(s, TCO_P_SITES, 1);
    ST(s, TCO_P_OWNED_SHARE, 0);
    ST(s, TCO_P_RESERVED_SHARE, 0);
    ST(s, TCO_P_SPOT_SHARE, 0);
    SW(s, TCO_P_PARAMS_TOTAL, 1e9);
    SW(s, TCO_P_PARAMS_ACTIVE, 0);
    SW(s, TCO_P_LAYERS, 0);
    SW(s, TCO_P_TOKENS, TOKENS);
    SW(s, TCO_P_EPOCHS, 1);
    SW(s, TCO_P_TOTAL_FLOPS, FLOPS);
    SW(s, TCO_P_MFU, 0.5);
    SW(s, TCO_P_JOB_ACCELERATORS, 0);
    SW(s, TCO_P_TENSOR_PARALLEL, 1);
    SW(s, TCO_P_PIPELINE_PARALLEL, 1);
    SW(s, TCO_P_DATA_PARALLEL, 0);
    SW(s, TCO_P_DATASET_BYTES, 0);
    SW(s, TCO_P_BYTES_PER_TOKEN, 4);
    SW(s, TCO_P_DATA_STALL_SHARE, 0);
    SW(s, TCO_P_CHECKPOINT_RETENTION, 1);
    SW(s, TCO_P_CHECKPOINT_INTERVAL_HOURS, 0);
    SW(s, TCO_P_CHECKPOINT_ASYNC, 0);
    SW(s, TCO_P_COUNT_FAILURES, 0);
    SW(s, TCO_P_COUNT_RESTARTS, 0);
    SW(s, TCO_P_COUNT_CHECKPOINTS, 0);
    SW(s, TCO_P_POWER_DRAW_SHARE, 0.8);
    SW(s, TCO_P_LOG_BYTES_PER_ACCEL_HOUR, 0);
    SW(s, TCO_P_METRICS_PER_ACCELERATOR, 0);
    SW(s, TCO_P_RUNS, 4);
    SW(s, TCO_P_RETRY_SHARE, 0);
    SW(s, TCO_P_QUEUE_WAIT_HOURS, 0);
    SW(s, TCO_P_DATABASE_INSTANCES, 0);
    SW(s, TCO_P_DATABASE_GB, 0);
    SW(s, TCO_P_EGRESS_INTERNET_GB, 0);
    SW(s, TCO_P_EGRESS_CROSS_REGION_GB, 0);
    SW(s, TCO_P_EGRESS_IN_REGION_GB, 0);
    SP(s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, rate);
    SP(s, TCO_P_RESERVED_PER_ACCEL_HOUR, 0);
    SP(s, TCO_P_SPOT_PER_ACCEL_HOUR, 0);
    SP(s, TCO_P_CAPEX_PER_ACCELERATOR, 25000);
    SP(s, TCO_P_CAPEX_PER_SERVER, 100000);
    SP(s, TCO_P_DEPRECIATION_YEARS, 4);
    SP(s, TCO_P_RESIDUAL_SHARE, 0.1);
    SP(s, TCO_P_COST_OF_CAPITAL, 0.08);
    SP(s, TCO_P_MAINTENANCE_SHARE_PER_YEAR, 0.03);
    SP(s, TCO_P_ELECTRICITY_PER_KWH, 0.10);
    SP(s, TCO_P_COOLING_AIR_CAPEX_PER_KW, 1500);
    SP(s, TCO_P_COOLING_LIQUID_CAPEX_PER_KW, 3000);
    SP(s, TCO_P_SWITCH_PRICE, 30000);
    SP(s, TCO_P_OPTIC_PRICE, 800);
    SP(s, TCO_P_CABLE_PRICE, 100);
    SP(s, TCO_P_STORAGE_HOT_PER_GB_MONTH, 0.1);
    SP(s, TCO_P_STORAGE_HOT_PER_GBPS_MONTH, 0);
    SP(s, TCO_P_STORAGE_WARM_PER_GB_MONTH, 0);
    SP(s, TCO_P_STORAGE_COLD_PER_GB_MONTH, 0);
    SP(s, TCO_P_LOG_INGEST_PER_GB, 0);
    SP(s, TCO_P_LOG_RETAINED_PER_GB_MONTH, 0);
    SP(s, TCO_P_METRICS_PER_MILLION_SAMPLES, 0);
    SP(s, TCO_P_SECURITY_PER_NODE_MONTH, 0);
    SP(s, TCO_P_SECURITY_FIXED_PER_MONTH, 0);
    SP(s, TCO_P_PLATFORM_PER_NODE_MONTH, 0);
    SP(s, TCO_P_STAFF_PER_FTE_YEAR, 200000);
    SP(s, TCO_P_NODES_PER_FTE, 100);
    SP(s, TCO_P_MIN_FTE, 2);
    SP(s, TCO_P_MIGRATION_COST, 0);
    SP(s, TCO_P_LEARNING_FTE_MONTHS, 0);
    SP(s, TCO_P_RISK_PREMIUM_SHARE, 0);
}

/* The H100-like baseline: 1e15 FLOP/s, 700 W, 4.0 an hour on demand. */
static void option_a(scen *s) { option_new(s, 1e15, 700, 4.0); }

/* The B200-like option: twice the speed, 1,000 W, 6.0 an hour, and
 * 100,000 of migration plus 6 FTE-months of learning to move to it. */
static void option_b(scen *s)
{
    option_new(s, 2e15, 1000, 6.0);
    SP(s, TCO_P_MIGRATION_COST, 100000);
    SP(s, TCO_P_LEARNING_FTE_MONTHS, 6);
}

/* What one option costs, by the formulas of doc/model.md sections 1 to 4
 * for these options: hours of compute from the FLOPs, then each category. */
typedef struct hand {
    double compute_h, held, compute, storage, staff, indirect, total, one_off, recurring;
} hand;

static hand by_hand(double peak, double rate, double runs, double migration, double learning, double risk)
{
    hand h;
    h.compute_h = FLOPS / (1024 * peak * 0.5) / 3600; /* no stalls, failures or checkpoints: wall */
    h.held = runs * h.compute_h;
    h.compute = 1024 * h.held * rate;
    h.storage = h.held / HOURS_PER_MONTH * 100 * 1000 * 0.1;
    h.staff = 2 * 200000 * h.held / HOURS_PER_YEAR; /* max(2, 128 / 100) FTE */
    double rest = h.compute + h.storage + h.staff;
    h.one_off = migration + learning * 200000 / 12;
    h.indirect = h.one_off + risk * rest;
    h.total = rest + h.indirect;
    h.recurring = (h.total - h.one_off) / runs;
    return h;
}

static void freeze_all(scen *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        scen_freeze(&s[i]);
}

/* Compares n frozen options into out (n structs of out_size bytes). */
static int compare(void *out, size_t out_size, scen *s, size_t n, tco_error *err)
{
    const tco_topology *t[4];
    const tco_workload *w[4];
    const tco_pricing *p[4];
    assert_true(n <= 4);
    for (size_t i = 0; i < n; i++) {
        t[i] = s[i].t;
        w[i] = s[i].w;
        p[i] = s[i].p;
    }
    return tco_compare(out, out_size, n, t, w, p, err);
}

static void compare_ok(tco_option *out, scen *s, size_t n)
{
    freeze_all(s, n);
    memset(out, 0, n * sizeof *out);
    tco_error err = TCO_ERROR_INIT;
    int rc = compare(out, sizeof *out, s, n, &err);
    if (rc != TCO_OK)
        print_error("tco_compare: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
}

/* A failing comparison: the code, the key, a message containing `needle`,
 * and out byte for byte as it was (filled with a sentinel first). */
static tco_error compare_refused(scen *s, size_t n, int code, int32_t key, const char *needle)
{
    tco_option out[4], before[4];
    memset(out, 0x5A, sizeof out);
    memcpy(before, out, sizeof out);
    tco_error err = TCO_ERROR_INIT;
    int rc = compare(out, sizeof out[0], s, n, &err);
    if (rc != code)
        print_error("expected %s, got %s (%s)\n", tco_status_name(code), tco_status_name(rc), err.message);
    assert_int_equal(rc, code);
    assert_int_equal(err.code, code);
    assert_int_equal(err.param, key);
    if (!strstr(err.message, needle))
        print_error("message \"%s\" lacks \"%s\"\n", err.message, needle);
    assert_non_null(strstr(err.message, needle));
    assert_memory_equal(out, before, sizeof out);
    return err;
}

/* ---- the comparison --------------------------------------------------- */

/* H100-like on demand against B200-like with a migration: every field.
 *
 *   A: 100 h a run, held 400 h: compute 1,024 x 400 x 4 = 1,638,400;
 *      storage 400 / 730.5 x 10,000 = 5,475.70; staff 2 x 200,000 x 400 /
 *      8,766 = 18,252.34; total 1,662,128.04; recurring 415,532.01 a run.
 *   B: 50 h a run, held 200 h: compute 1,228,800; storage 2,737.85; staff
 *      9,126.17; one-off 100,000 + 6 x 200,000 / 12 = 200,000; total
 *      1,440,664.02; recurring 310,166.01 a run.
 *   saving 105,366.01 a run; 4 runs in 200 h = 14.61 runs a month, so
 *   1,539,397.33 a month; payback 200,000 / 105,366.01 = 1.898 runs,
 *   200,000 / 1,539,397.33 = 0.1299 months. Per million tokens: 0.41553
 *   against 0.36017, so B is cheaper. */
static void test_two_options(void **state)
{
    (void)state;
    scen s[2];
    option_a(&s[0]);
    option_b(&s[1]);
    tco_option o[2];
    compare_ok(o, s, 2);
    hand a = by_hand(1e15, 4.0, 4, 0, 0, 0), b = by_hand(2e15, 6.0, 4, 100000, 6, 0);
    assert_rel(a.total, 1662128.0401551449, 1e-12); /* the hand sums, checked once */
    assert_rel(b.total, 1440664.0200775724, 1e-12);

    assert_int_equal(o[0].size, sizeof o[0]);
    assert_int_equal(o[1].size, sizeof o[1]);
    assert_rel(o[0].total, a.total, 1e-12);
    assert_rel(o[1].total, b.total, 1e-12);
    assert_rel(o[0].cost[TCO_CAT_COMPUTE], 1638400, 1e-12);
    assert_rel(o[1].cost[TCO_CAT_COMPUTE], 1228800, 1e-12);
    assert_rel(o[1].cost[TCO_CAT_STORAGE], b.storage, 1e-12);
    assert_rel(o[1].cost[TCO_CAT_STAFF], b.staff, 1e-12);
    assert_rel(o[1].cost[TCO_CAT_INDIRECT], 200000, 1e-12);
    assert_true(o[1].cost[TCO_CAT_POWER] == 0 && o[1].cost[TCO_CAT_WASTE] == 0);

    /* differences against the baseline, by category and in total */
    assert_rel(o[1].difference[TCO_CAT_COMPUTE], 1228800 - 1638400, 1e-12);
    assert_rel(o[1].difference[TCO_CAT_STORAGE], b.storage - a.storage, 1e-12);
    assert_rel(o[1].difference[TCO_CAT_STAFF], b.staff - a.staff, 1e-12);
    assert_rel(o[1].difference[TCO_CAT_INDIRECT], 200000, 1e-12);
    assert_true(o[1].difference[TCO_CAT_POWER] == 0);
    for (size_t c = tco_category_count(); c < TCO_CATEGORY_SLOTS; c++)
        assert_true(o[1].difference[c] == 0 && o[1].cost[c] == 0);
    assert_rel(o[1].total_difference, b.total - a.total, 1e-12);
    assert_rel(o[1].total_difference, -221464.0200775725, 1e-9);

    /* per unit of output */
    assert_rel(o[0].cost_per_run, a.total / 4, 1e-12);
    assert_rel(o[1].cost_per_run, b.total / 4, 1e-12);
    assert_rel(o[0].cost_per_million_tokens, a.total / (4 * TOKENS / 1e6), 1e-12);
    assert_rel(o[1].cost_per_million_tokens, 0.3601660050193931, 1e-12);
    assert_rel(o[1].cost_per_effective_accelerator_hour, b.total / (1024 * 50.0 * 4), 1e-12);
    assert_rel(o[1].cost_per_pflop_day, b.total / (4 * FLOPS / (1e15 * 86400)), 1e-12);

    /* once against each run */
    assert_true(o[0].one_off == 0);
    assert_rel(o[1].one_off, 200000, 1e-12);
    assert_rel(o[0].recurring_per_run, a.recurring, 1e-12);
    assert_rel(o[1].recurring_per_run, 310166.0050193931, 1e-12);
    double saving = a.recurring - b.recurring;
    assert_rel(o[1].saving_per_run, saving, 1e-9);
    assert_rel(o[1].saving_per_month, saving * 4 / (200 / HOURS_PER_MONTH), 1e-9);
    assert_rel(o[1].saving_per_month, 1539397.3333333335, 1e-9);
    assert_int_equal(o[1].pays_back, 1);
    assert_rel(o[1].payback_runs, 200000 / saving, 1e-9);
    assert_rel(o[1].payback_runs, 1.8981454214116693, 1e-9);
    assert_rel(o[1].payback_months, 0.1299209734025783, 1e-9);
    assert_int_equal(o[1].cheaper, 1);

    /* the baseline against itself */
    for (size_t c = 0; c < TCO_CATEGORY_SLOTS; c++)
        assert_true(o[0].difference[c] == 0);
    assert_true(o[0].total_difference == 0 && o[0].saving_per_run == 0 && o[0].saving_per_month == 0);
    assert_int_equal(o[0].pays_back, 0);
    assert_int_equal(o[0].cheaper, 0);
    assert_true(o[0].payback_runs == 0 && o[0].payback_months == 0);
    for (int i = 0; i < 2; i++)
        scen_free(&s[i]);
}

/* Each option priced exactly as tco_estimate_compute prices it alone,
 * fingerprint included; and the order of the options only changes the
 * baseline. */
static void test_agrees_with_estimate(void **state)
{
    (void)state;
    scen s[3];
    option_a(&s[0]);
    option_b(&s[1]);
    option_new(&s[2], 1e15, 700, 3.0);
    ST(&s[2], TCO_P_OWNED_SHARE, 0.5); /* owned: power, cooling, fabric and waste too */
    SW(&s[2], TCO_P_RETRY_SHARE, 0.1);
    tco_option o[3];
    compare_ok(o, s, 3);
    for (int i = 0; i < 3; i++) {
        tco_estimate e = scen_run(&s[i]);
        assert_true(o[i].total == e.total);
        assert_memory_equal(o[i].cost, e.cost, sizeof e.cost);
        assert_true(o[i].cost_per_run == e.cost_per_run);
        assert_true(o[i].cost_per_million_tokens == e.cost_per_million_tokens);
        assert_true(o[i].cost_per_effective_accelerator_hour == e.cost_per_effective_accelerator_hour);
        assert_true(o[i].cost_per_pflop_day == e.cost_per_pflop_day);
        assert_true(o[i].scenario_fingerprint == e.scenario_fingerprint);
        assert_true(o[i].scenario_fingerprint != 0);
    }
    assert_true(o[2].cost[TCO_CAT_POWER] > 0 && o[2].cost[TCO_CAT_WASTE] > 0);
    assert_rel(o[2].difference[TCO_CAT_WASTE], o[2].cost[TCO_CAT_WASTE], 1e-12); /* the baseline has none */

    /* B first: B is the baseline and A is compared with it. */
    scen swapped[2] = { s[1], s[0] };
    tco_option r[2];
    compare_ok(r, swapped, 2);
    assert_rel(r[1].total_difference, -o[1].total_difference, 1e-12);
    assert_rel(r[1].saving_per_run, -o[1].saving_per_run, 1e-12);
    assert_int_equal(r[1].pays_back, 0); /* A costs more per run: it never repays anything */
    assert_int_equal(r[1].cheaper, 0);
    for (int i = 0; i < 3; i++)
        scen_free(&s[i]);
}

/* One option alone: the baseline, compared with nothing but itself. */
static void test_one_option(void **state)
{
    (void)state;
    scen s[1];
    option_b(&s[0]);
    tco_option o[1];
    compare_ok(o, s, 1);
    hand b = by_hand(2e15, 6.0, 4, 100000, 6, 0);
    assert_rel(o[0].total, b.total, 1e-12);
    assert_rel(o[0].one_off, 200000, 1e-12);
    assert_rel(o[0].recurring_per_run, b.recurring, 1e-12);
    assert_true(o[0].total_difference == 0 && o[0].saving_per_run == 0);
    assert_int_equal(o[0].pays_back, 0);
    assert_int_equal(o[0].cheaper, 0);
    assert_true(o[0].payback_runs == 0 && o[0].payback_months == 0);
    assert_true(o[0].breakeven_utilisation > 0 && o[0].breakeven_rate > 0);
    scen_free(&s[0]);
}

/* The risk premium is a share of what recurs: it stays out of the one-off.
 * B with risk 0.1: indirect 200,000 + 0.1 x 1,240,664.02; one-off 200,000;
 * recurring (1,240,664.02 x 1.1) / 4 = 341,182.61 a run. */
static void test_risk_premium_recurs(void **state)
{
    (void)state;
    scen s[2];
    option_a(&s[0]);
    option_b(&s[1]);
    SP(&s[1], TCO_P_RISK_PREMIUM_SHARE, 0.1);
    tco_option o[2];
    compare_ok(o, s, 2);
    hand a = by_hand(1e15, 4.0, 4, 0, 0, 0), b = by_hand(2e15, 6.0, 4, 100000, 6, 0.1);
    assert_rel(o[1].cost[TCO_CAT_INDIRECT], b.indirect, 1e-12);
    assert_rel(o[1].one_off, 200000, 1e-12);
    assert_rel(o[1].recurring_per_run, 341182.6055213324, 1e-12);
    assert_rel(o[1].recurring_per_run, b.recurring, 1e-12);
    assert_rel(o[1].saving_per_run, a.recurring - b.recurring, 1e-9);
    assert_rel(o[1].payback_runs, 200000 / (a.recurring - b.recurring), 1e-9);
    for (int i = 0; i < 2; i++)
        scen_free(&s[i]);
}

/* What never pays back: B at 9.0 an hour costs 463,766 a run against A's
 * 415,532 and still asks for 200,000 up front. No NaN, no infinity. */
static void test_never_pays_back(void **state)
{
    (void)state;
    scen s[2];
    option_a(&s[0]);
    option_b(&s[1]);
    SP(&s[1], TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 9.0);
    tco_option o[2];
    compare_ok(o, s, 2);
    hand a = by_hand(1e15, 4.0, 4, 0, 0, 0), b = by_hand(2e15, 9.0, 4, 100000, 6, 0);
    assert_rel(o[1].saving_per_run, a.recurring - b.recurring, 1e-9);
    assert_true(o[1].saving_per_run < 0);
    assert_int_equal(o[1].pays_back, 0);
    assert_true(o[1].payback_runs == 0 && o[1].payback_months == 0);
    assert_int_equal(o[1].cheaper, 0);
    assert_true(isfinite(o[1].saving_per_month) && o[1].saving_per_month < 0);
    for (int i = 0; i < 2; i++)
        scen_free(&s[i]);
}

/* Nothing extra to repay: the baseline carries the migration, the option
 * none and saves, so it pays back at once (0 runs, 0 months). An option
 * that costs the same per run and nothing more saves nothing: no payback. */
static void test_nothing_to_repay(void **state)
{
    (void)state;
    scen s[3];
    option_b(&s[0]);                   /* 200,000 one-off */
    option_new(&s[1], 2e15, 1000, 5.0); /* none, and cheaper per run */
    option_new(&s[2], 2e15, 1000, 6.0); /* none, the same per run */
    tco_option o[3];
    compare_ok(o, s, 3);
    hand b = by_hand(2e15, 6.0, 4, 100000, 6, 0), c = by_hand(2e15, 5.0, 4, 0, 0, 0);
    assert_rel(o[1].saving_per_run, b.recurring - c.recurring, 1e-9);
    assert_rel(o[1].saving_per_run, 1024 * 50.0, 1e-9); /* 1.0 an hour less on 51,200 h a run */
    assert_int_equal(o[1].pays_back, 1);
    assert_true(o[1].payback_runs == 0 && o[1].payback_months == 0);
    assert_int_equal(o[1].cheaper, 1);
    assert_rel(o[2].total_difference, -200000, 1e-9);
    assert_true(o[2].saving_per_run == 0); /* exactly: not a rounding either way */
    assert_int_equal(o[2].pays_back, 0); /* nothing saved: nothing repaid */
    assert_true(o[2].payback_runs == 0 && o[2].payback_months == 0);
    assert_int_equal(o[2].cheaper, 1); /* it is cheaper per million tokens: the one-off */
    for (int i = 0; i < 3; i++)
        scen_free(&s[i]);
}

/* cheaper reads cost per million tokens, not the total: twice the tokens
 * for the same FLOPs at 4.1 an hour costs more in all (the hot tier is
 * 100 TB either way) yet less per token; and 3 runs instead of 4 cost less
 * in all but the same per token. */
static void test_cheaper_per_million_tokens(void **state)
{
    (void)state;
    scen s[3];
    option_a(&s[0]);
    option_new(&s[1], 1e15, 700, 4.1);
    SW(&s[1], TCO_P_TOKENS, 2 * TOKENS);
    option_a(&s[2]);
    SW(&s[2], TCO_P_RUNS, 3);
    tco_option o[3];
    compare_ok(o, s, 3);
    hand a = by_hand(1e15, 4.0, 4, 0, 0, 0), more = by_hand(1e15, 4.1, 4, 0, 0, 0);
    assert_rel(o[1].total, more.total, 1e-12);
    assert_true(o[1].total_difference > 0);
    assert_rel(o[1].cost_per_million_tokens, more.total / (4 * 2 * TOKENS / 1e6), 1e-12);
    assert_rel(o[0].cost_per_million_tokens, a.total / (4 * TOKENS / 1e6), 1e-12);
    assert_int_equal(o[1].cheaper, 1);
    assert_true(o[1].saving_per_run < 0); /* more per run all the same */
    assert_true(o[2].total_difference < 0);
    assert_rel(o[2].cost_per_million_tokens, o[0].cost_per_million_tokens, 1e-12);
    assert_int_equal(o[2].cheaper, 0);
    for (int i = 0; i < 3; i++)
        scen_free(&s[i]);
}

/* payback_months counts runs per held month of the option: with 10 h of
 * queue wait B holds 210 h for its 4 runs, 13.91 runs a month; the queue's
 * 10,240 accelerator-hours are paid (idle waste) and recur with the runs. */
static void test_payback_months_held(void **state)
{
    (void)state;
    scen s[2];
    option_a(&s[0]);
    option_b(&s[1]);
    SW(&s[1], TCO_P_QUEUE_WAIT_HOURS, 10);
    tco_option o[2];
    compare_ok(o, s, 2);
    double held = 4 * 50.0 + 10;
    double idle = 1024 * 10 * 6.0;
    hand a = by_hand(1e15, 4.0, 4, 0, 0, 0);
    double b_rest = 1024 * held * 6.0 + held / HOURS_PER_MONTH * 10000 + 2 * 200000 * held / HOURS_PER_YEAR;
    assert_rel(o[1].cost[TCO_CAT_WASTE], idle, 1e-12);
    double b_recurring = b_rest / 4;
    assert_rel(o[1].recurring_per_run, b_recurring, 1e-12);
    double saving = a.recurring - b_recurring;
    assert_rel(saving, 89857.70476842346, 1e-9);
    assert_rel(o[1].saving_per_run, saving, 1e-9);
    assert_rel(o[1].saving_per_month, saving * 4 / (held / HOURS_PER_MONTH), 1e-9);
    assert_rel(o[1].payback_runs, 200000 / saving, 1e-9);
    assert_rel(o[1].payback_months, 200000 / (saving * 4 / (held / HOURS_PER_MONTH)), 1e-9);
    for (int i = 0; i < 2; i++)
        scen_free(&s[i]);
}

/* ---- break-even ------------------------------------------------------- */

/* Owning one of A's accelerators for a year: the annuity of 25,000 +
 * 100,000 / 8 = 37,500 with 10% residual, maintenance included
 * (11,614.83), plus its share of the air-cooled plant, (1,024 x 700 + 128 x
 * 3,000) / 1,000 = 1,100.8 kW at 1,500 per kW, annuity 548,067.63 over
 * 1,024 = 535.22: fixed 12,150.05 a year. Energy of an hour used: (1,024 x
 * 700 x 0.8 + 128 x 3,000) / 1,000 / 1,024 = 0.935 kW x 1.2 x 0.10 =
 * 0.1122. u = 12,150.05 / (8,766 x (4 - 0.1122)) = 0.3565. */
static void test_breakeven_utilisation(void **state)
{
    (void)state;
    scen s[2];
    option_a(&s[0]);
    option_a(&s[1]);
    /* a blended rate: half reserved at 2.5, a quarter spot at 2, a quarter
     * on demand at 4: 2.75 */
    ST(&s[1], TCO_P_RESERVED_SHARE, 0.5);
    ST(&s[1], TCO_P_SPOT_SHARE, 0.25);
    SP(&s[1], TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(&s[1], TCO_P_SPOT_PER_ACCEL_HOUR, 2.0);
    tco_option o[2];
    compare_ok(o, s, 2);
    /* the accelerator with its server share, and its shares of the cooling
     * plant and of the fabric (48 switches, 4,096 optics, 2,048 cables) */
    double fabric = annuity(48 * 30000 + 4096 * 800 + 2048 * 100, 0, 0.08, 4, 0.03);
    double fixed = annuity(37500, 0.1, 0.08, 4, 0.03) + (annuity(1100.8 * 1500, 0, 0.08, 4, 0.03) + fabric) / 1024;
    double energy = (1024 * 700 * 0.8 + 128 * 3000) / 1000.0 / 1024 * 1.2 * 0.10;
    assert_rel(energy, 0.1122, 1e-12);
    assert_rel(o[0].breakeven_utilisation, fixed / (HOURS_PER_YEAR * (4.0 - energy)), 1e-12);
    double blended = 0.5 * 2.5 + 0.25 * 2.0 + 0.25 * 4.0;
    assert_rel(o[1].breakeven_utilisation, fixed / (HOURS_PER_YEAR * (blended - energy)), 1e-12);
    /* Owning what is rented at that share of the year costs the same. */
    double u = o[1].breakeven_utilisation;
    assert_rel(fixed + u * HOURS_PER_YEAR * energy, u * HOURS_PER_YEAR * blended, 1e-12);
    for (int i = 0; i < 2; i++)
        scen_free(&s[i]);
}

/* Renting never costs more when the rate is at most the energy of an hour
 * (0.1122 here): reported as 0. Above 1, owning loses even at full use. */
static void test_breakeven_utilisation_limits(void **state)
{
    (void)state;
    scen s[2];
    option_new(&s[0], 1e15, 700, 0.1);
    option_new(&s[1], 1e15, 700, 1.2);
    tco_option o[2];
    compare_ok(o, s, 2);
    assert_true(o[0].breakeven_utilisation == 0);
    double fabric = annuity(48 * 30000 + 4096 * 800 + 2048 * 100, 0, 0.08, 4, 0.03);
    double fixed = annuity(37500, 0.1, 0.08, 4, 0.03) + (annuity(1100.8 * 1500, 0, 0.08, 4, 0.03) + fabric) / 1024;
    assert_rel(o[1].breakeven_utilisation, fixed / (HOURS_PER_YEAR * (1.2 - 0.1122)), 1e-12);
    assert_true(o[1].breakeven_utilisation > 1); /* owning never pays at 1.2 an hour */
    for (int i = 0; i < 2; i++)
        scen_free(&s[i]);
}

/* The rate at which renting A's held hours costs what owning them does:
 * per held accelerator-hour, the accelerator's annuity 11,614.83 / 8,766
 * = 1.32499, plus the plant's 548,067.63 and the fabric's (48 switches,
 * 4,096 optics, 2,048 cables: 4,921,600; annuity 1,633,581.43) over 1,024
 * accelerators and 8,766 h = 0.24304, plus the energy 0.1122: 1.68023.
 * Then priced rented at that rate and owned, A costs the same. */
static void test_breakeven_rate(void **state)
{
    (void)state;
    scen s[1];
    option_a(&s[0]);
    tco_option o[1];
    compare_ok(o, s, 1);
    double owned = annuity(37500, 0.1, 0.08, 4, 0.03);
    double plant = annuity(1100.8 * 1500, 0, 0.08, 4, 0.03);
    double fabric = annuity(48 * 30000 + 4096 * 800 + 2048 * 100, 0, 0.08, 4, 0.03);
    double energy = (1024 * 700 * 0.8 + 128 * 3000) / 1000.0 / 1024 * 1.2 * 0.10;
    double rate = (owned + (plant + fabric) / 1024) / HOURS_PER_YEAR + energy;
    assert_rel(rate, 1.6802291825134825, 1e-12);
    assert_rel(o[0].breakeven_rate, rate, 1e-12);

    /* with a retry share and a queue, so that waste is in both */
    scen r[2];
    for (int i = 0; i < 2; i++) {
        option_a(&r[i]);
        SP(&r[i], TCO_P_ON_DEMAND_PER_ACCEL_HOUR, o[0].breakeven_rate);
        SW(&r[i], TCO_P_RETRY_SHARE, 0.05);
        SW(&r[i], TCO_P_QUEUE_WAIT_HOURS, 24);
        SP(&r[i], TCO_P_RISK_PREMIUM_SHARE, 0.05);
    }
    ST(&r[1], TCO_P_OWNED_SHARE, 1);
    tco_estimate rented = scen_run(&r[0]), bought = scen_run(&r[1]);
    assert_rel(bought.total, rented.total, 1e-12);
    assert_true(bought.cost[TCO_CAT_POWER] > 0 && rented.cost[TCO_CAT_POWER] == 0);
    scen_free(&s[0]);
    for (int i = 0; i < 2; i++)
        scen_free(&r[i]);
}

/* ---- the struct and its size ------------------------------------------ */

/* A larger out_size from a newer caller: the stride; the size field is
 * out_size and the bytes past what this version knows are zero. */
static void test_stride(void **state)
{
    (void)state;
    scen s[2];
    option_a(&s[0]);
    option_b(&s[1]);
    freeze_all(s, 2);
    enum { EXTRA = 40 };
    size_t stride = sizeof(tco_option) + EXTRA;
    unsigned char buf[2 * (sizeof(tco_option) + EXTRA)];
    memset(buf, 0x5A, sizeof buf);
    assert_int_equal(compare(buf, stride, s, 2, NULL), TCO_OK);
    tco_option plain[2];
    compare_ok(plain, s, 2);
    for (int i = 0; i < 2; i++) {
        tco_option got;
        memcpy(&got, buf + i * stride, sizeof got);
        assert_int_equal(got.size, stride);
        got.size = sizeof got;
        assert_memory_equal(&got, &plain[i], sizeof got);
        for (size_t k = 0; k < EXTRA; k++)
            assert_int_equal(buf[i * stride + sizeof got + k], 0);
    }
    for (int i = 0; i < 2; i++)
        scen_free(&s[i]);
}

/* ---- errors: nothing written ------------------------------------------ */

static void test_currency_mismatch(void **state)
{
    (void)state;
    scen s[3];
    option_a(&s[0]);
    option_b(&s[1]);
    option_b(&s[2]);
    assert_int_equal(tco_pricing_set_text(s[2].p, TCO_P_CURRENCY, "EUR", NULL), TCO_OK);
    freeze_all(s, 3);
    tco_error err = compare_refused(s, 3, TCO_E_INCONSISTENT, TCO_P_CURRENCY, "EUR");
    assert_non_null(strstr(err.message, "USD"));
    assert_non_null(strstr(err.message, "option 2"));
    assert_string_equal(err.param_name, "currency");
    for (int i = 0; i < 3; i++)
        scen_free(&s[i]);
}

static void test_unfrozen(void **state)
{
    (void)state;
    scen s[3];
    option_a(&s[0]);
    option_b(&s[1]);
    option_b(&s[2]);
    freeze_all(s, 1);
    assert_int_equal(tco_topology_freeze(s[1].t, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(s[1].p, NULL), TCO_OK);
    /* option 1's workload is not frozen (and option 2 is not at all) */
    tco_error err = compare_refused(s, 3, TCO_E_NOT_FROZEN, 0, "option 1");
    assert_non_null(strstr(err.message, "workload"));
    assert_int_equal(tco_workload_freeze(s[1].w, NULL), TCO_OK);
    compare_refused(s, 3, TCO_E_NOT_FROZEN, 0, "option 2");
    for (int i = 0; i < 3; i++)
        scen_free(&s[i]);
}

/* An option that cannot be priced: its estimate's error, its index first. */
static void test_estimate_error(void **state)
{
    (void)state;
    scen s[2];
    option_a(&s[0]);
    option_b(&s[1]);
    SW(&s[1], TCO_P_TENSOR_PARALLEL, 3);
    freeze_all(s, 2);
    tco_estimate e = { .size = sizeof e };
    tco_error alone = TCO_ERROR_INIT;
    assert_int_equal(tco_estimate_compute(&e, s[1].t, s[1].w, s[1].p, &alone), TCO_E_INCONSISTENT);
    tco_error err = compare_refused(s, 2, TCO_E_INCONSISTENT, TCO_P_TENSOR_PARALLEL, "option 1: ");
    assert_string_equal(err.param_name, "tensor_parallel");
    assert_non_null(strstr(err.message, alone.message));
    for (int i = 0; i < 2; i++)
        scen_free(&s[i]);
}

static void test_arguments(void **state)
{
    (void)state;
    scen s[1];
    option_a(&s[0]);
    freeze_all(s, 1);
    const tco_topology *t[1] = { s[0].t };
    const tco_workload *w[1] = { s[0].w };
    const tco_pricing *p[1] = { s[0].p };
    tco_option out[1], before[1];
    memset(out, 0x5A, sizeof out);
    memcpy(before, out, sizeof out);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_compare(NULL, sizeof out[0], 1, t, w, p, &err), TCO_E_NULL);
    assert_int_equal(tco_compare(out, sizeof out[0], 1, NULL, w, p, &err), TCO_E_NULL);
    assert_non_null(strstr(err.message, "topologies"));
    assert_int_equal(tco_compare(out, sizeof out[0], 1, t, NULL, p, &err), TCO_E_NULL);
    assert_int_equal(tco_compare(out, sizeof out[0], 1, t, w, NULL, &err), TCO_E_NULL);
    assert_non_null(strstr(err.message, "pricings"));
    assert_int_equal(tco_compare(out, sizeof out[0], 0, t, w, p, &err), TCO_E_RANGE);
    assert_int_equal(tco_compare(out, sizeof out[0] - 1, 1, t, w, p, &err), TCO_E_SIZE);
    assert_int_equal(tco_compare(out, 0, 1, t, w, p, NULL), TCO_E_SIZE);
    const tco_workload *none[1] = { NULL };
    assert_int_equal(tco_compare(out, sizeof out[0], 1, t, none, p, &err), TCO_E_NULL);
    assert_non_null(strstr(err.message, "option 0"));
    assert_memory_equal(out, before, sizeof out);
    /* and it then works */
    assert_int_equal(tco_compare(out, sizeof out[0], 1, t, w, p, &err), TCO_OK);
    scen_free(&s[0]);
}

/* Counted, not assumed: nothing allocated, on success or failure. */
static void test_allocates_nothing(void **state)
{
    (void)state;
    if (!alloc_counting())
        skip();
    scen s[3];
    size_t before = allocations;
    option_a(&s[0]);
    assert_true(allocations > before); /* the counter sees the library */
    option_b(&s[1]);
    option_b(&s[2]);
    SW(&s[2], TCO_P_TENSOR_PARALLEL, 3);
    freeze_all(s, 3);
    tco_option o[3];
    tco_error err = TCO_ERROR_INIT;
    before = allocations;
    for (int i = 0; i < 10; i++)
        assert_int_equal(compare(o, sizeof o[0], s, 2, &err), TCO_OK);
    assert_int_equal(compare(o, sizeof o[0], s, 3, &err), TCO_E_INCONSISTENT);
    assert_int_equal(compare(o, 1, s, 2, &err), TCO_E_SIZE);
    assert_int_equal(allocations, before);
    for (int i = 0; i < 3; i++)
        scen_free(&s[i]);
}

/* A facility of its own (1,000 per kW of A's 1,100.8 kW plant: 1,100,800
 * over its ten years at 8%, 3% maintenance) adds its annuity per
 * accelerator and hour to the breakeven rate; the cooling plant, now
 * written off over the facility's ten years instead of four, takes its
 * smaller annuity (doc/model.md, "The facility apart from the IT"). */
static void test_breakeven_rate_with_facility(void **state)
{
    (void)state;
    scen s[2];
    option_a(&s[0]);
    option_a(&s[1]);
    SP(&s[1], TCO_P_FACILITY_CAPEX_PER_KW, 1000);
    SP(&s[1], TCO_P_FACILITY_LIFE_YEARS, 10);
    tco_option o[2];
    compare_ok(o, s, 2);
    double facility = annuity(1100.8 * 1000, 0, 0.08, 10, 0.03);
    assert_rel(facility, 1100800 * (0.08 / (1 - pow(1.08, -10)) + 0.03), 1e-15);
    double plant4 = annuity(1100.8 * 1500, 0, 0.08, 4, 0.03), plant10 = annuity(1100.8 * 1500, 0, 0.08, 10, 0.03);
    assert_rel(o[1].breakeven_rate - o[0].breakeven_rate, (facility + plant10 - plant4) / 1024 / HOURS_PER_YEAR, 1e-9);
    for (int i = 0; i < 2; i++)
        scen_free(&s[i]);
}

/* At a rental rate equal to the energy of an owned hour, owning never
 * breaks even: 0, not a division by zero. 1,000 W accelerators drawing
 * all of it, no node overhead, a PUE of 1: 1 kW each, at 0.5 a kWh: 0.5
 * an hour, the rate. */
static void test_breakeven_rate_equal_to_energy(void **state)
{
    (void)state;
    scen s[1];
    option_new(&s[0], 1e15, 1000, 0.5);
    ST(&s[0], TCO_P_NODE_OVERHEAD_WATTS, 0);
    ST(&s[0], TCO_P_PUE, 1);
    SW(&s[0], TCO_P_POWER_DRAW_SHARE, 1);
    SP(&s[0], TCO_P_ELECTRICITY_PER_KWH, 0.5);
    tco_option o[1];
    compare_ok(o, s, 1);
    assert_true(o[0].breakeven_utilisation == 0);
    assert_true(isfinite(o[0].breakeven_rate) && o[0].breakeven_rate > 0.5);
    scen_free(&s[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_options),
        cmocka_unit_test(test_agrees_with_estimate),
        cmocka_unit_test(test_one_option),
        cmocka_unit_test(test_risk_premium_recurs),
        cmocka_unit_test(test_never_pays_back),
        cmocka_unit_test(test_nothing_to_repay),
        cmocka_unit_test(test_cheaper_per_million_tokens),
        cmocka_unit_test(test_payback_months_held),
        cmocka_unit_test(test_breakeven_utilisation),
        cmocka_unit_test(test_breakeven_utilisation_limits),
        cmocka_unit_test(test_breakeven_rate),
        cmocka_unit_test(test_breakeven_rate_with_facility),
        cmocka_unit_test(test_breakeven_rate_equal_to_energy),
        cmocka_unit_test(test_stride),
        cmocka_unit_test(test_currency_mismatch),
        cmocka_unit_test(test_unfrozen),
        cmocka_unit_test(test_estimate_error),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_allocates_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
