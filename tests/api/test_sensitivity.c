/* Black-box tests of the sensitivity tornado, tco_sensitivity (tco.h only).
 *
 * How the expectations are made: most tests price a "compute-only"
 * scenario, set explicitly below, in which every category but compute is
 * zero and nothing stops the run (no failures, checkpoints, stalls, retries
 * or queue). Its total is then the rented compute alone,
 *
 *     total = rate x n x compute_h,  compute_h = 6 N D / (n x peak x mfu) / 3600
 *           = 4.0 x 8.4e23 / (989e12 x mfu x 3600)
 *           = 2,359,285.5 at mfu 0.4 (the compute line of doc/model.md's table)
 *
 * so each swing's total follows by hand: it goes as 1 / mfu, as the rate,
 * as the runs. The swing rule itself (doc/model.md, section 14) is
 * re-typed here from the contract in tco.h, never read from the library.
 */
#include <stdlib.h>

#include "support.h"

#include "alloc_count.h"

#define ROWS 512 /* more than the table holds */

/* 6 x 70e9 parameters x 2e12 tokens: the FLOPs without an attention term */
#define FLOPS 8.4e23
#define H100_PEAK 989e12 /* dense BF16, NVIDIA H100 SXM datasheet */

/* The hand-derived total of the compute-only scenario at a rate and an mfu,
 * for `runs` runs; the job's accelerators cancel out. */
static double compute_total(double rate, double mfu, double runs)
{
    return runs * rate * FLOPS / (H100_PEAK * mfu * 3600);
}

/* The compute-only scenario, unfrozen: 70B dense, 2T tokens, no layers
 * given (no attention term), on 1,024 H100 in nodes of 8, TP 8 x PP 4,
 * rented on demand at 4.0 per accelerator-hour; every other price or
 * volume that reaches the total is 0. Prices whose volume is 0
 * (egress_internet_per_gb, storage_warm_per_gb_month) stay at their
 * defaults, so that swinging them moves nothing. */
static void scen_new(scen *s)
{
    scen_defaults(s);
    assert_int_equal(tco_topology_set_text(s->t, TCO_P_ACCELERATOR_MODEL, "H100-SXM", NULL), TCO_OK);
    ST(s, TCO_P_ACCELERATORS, 1024);
    ST(s, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(s, TCO_P_ACCELERATOR_PEAK_FLOPS, 0);
    ST(s, TCO_P_OVERSUBSCRIPTION, 1);
    ST(s, TCO_P_STORAGE_HOT_TB, 0);
    ST(s, TCO_P_STORAGE_HOT_GBPS, 100);
    ST(s, TCO_P_STORAGE_WARM_TB, 0);
    ST(s, TCO_P_STORAGE_COLD_TB, 0);
    ST(s, TCO_P_SITES, 1);
    ST(s, TCO_P_OWNED_SHARE, 0);
    ST(s, TCO_P_RESERVED_SHARE, 0);
    ST(s, TCO_P_SPOT_SHARE, 0);
    SW(s, TCO_P_PARAMS_TOTAL, 70e9);
    SW(s, TCO_P_PARAMS_ACTIVE, 0);
    SW(s, TCO_P_LAYERS, 0);
    SW(s, TCO_P_TOKENS, 2e12);
    SW(s, TCO_P_EPOCHS, 1);
    SW(s, TCO_P_TOTAL_FLOPS, 0);
    assert_int_equal(tco_workload_set_text(s->w, TCO_P_PRECISION, "bf16", NULL), TCO_OK);
    SW(s, TCO_P_MFU, 0.4);
    SW(s, TCO_P_HFU, 0);
    SW(s, TCO_P_ACHIEVED_FLOPS_PER_ACCELERATOR, 0);
    SW(s, TCO_P_RUN_ACCELERATOR_HOURS, 0);
    SW(s, TCO_P_JOB_ACCELERATORS, 0);
    SW(s, TCO_P_TENSOR_PARALLEL, 8);
    SW(s, TCO_P_PIPELINE_PARALLEL, 4);
    SW(s, TCO_P_DATA_PARALLEL, 0);
    SW(s, TCO_P_BYTES_PER_TOKEN, 4);
    SW(s, TCO_P_DATA_STALL_SHARE, 0);
    SW(s, TCO_P_COUNT_FAILURES, 0);
    SW(s, TCO_P_COUNT_CHECKPOINTS, 0);
    SW(s, TCO_P_RUNS, 1);
    SW(s, TCO_P_RETRY_SHARE, 0);
    SW(s, TCO_P_QUEUE_WAIT_HOURS, 0);
    SW(s, TCO_P_LOG_BYTES_PER_ACCEL_HOUR, 0);
    SW(s, TCO_P_METRICS_PER_ACCELERATOR, 0);
    SW(s, TCO_P_DATABASE_INSTANCES, 0);
    SW(s, TCO_P_DATABASE_GB, 0);
    SW(s, TCO_P_EGRESS_INTERNET_GB, 0);
    SW(s, TCO_P_EGRESS_CROSS_REGION_GB, 0);
    SW(s, TCO_P_EGRESS_IN_REGION_GB, 0);
    SP(s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4.0);
    SP(s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(s, TCO_P_SPOT_PER_ACCEL_HOUR, 2.0);
    SP(s, TCO_P_EGRESS_INTERNET_PER_GB, 0.09);
    SP(s, TCO_P_STORAGE_HOT_PER_GB_MONTH, 0);
    SP(s, TCO_P_STORAGE_WARM_PER_GB_MONTH, 0); /* the retention policy's tiers */
    SP(s, TCO_P_STORAGE_COLD_PER_GB_MONTH, 0);
    SP(s, TCO_P_STORAGE_HOT_PER_GBPS_MONTH, 0);
    SP(s, TCO_P_SECURITY_PER_NODE_MONTH, 0);
    SP(s, TCO_P_SECURITY_FIXED_PER_MONTH, 0);
    SP(s, TCO_P_PLATFORM_PER_NODE_MONTH, 0);
    SP(s, TCO_P_STAFF_PER_FTE_YEAR, 0);
    SP(s, TCO_P_MIGRATION_COST, 0);
    SP(s, TCO_P_LEARNING_FTE_MONTHS, 0);
    SP(s, TCO_P_RISK_PREMIUM_SHARE, 0);
}

/* The tornado of a frozen (or now frozen) scenario into rows[ROWS]. */
static size_t tornado(scen *s, double share, tco_swing *rows)
{
    scen_freeze(s);
    for (size_t i = 0; i < ROWS; i++)
        rows[i].size = sizeof rows[i];
    size_t n = 0;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_sensitivity(rows, sizeof rows[0], ROWS, &n, share, s->t, s->w, s->p, &err);
    if (rc != TCO_OK)
        print_error("tornado: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    assert_true(n > 0 && n <= ROWS);
    return n;
}

static const tco_swing *row_of(const tco_swing *rows, size_t n, int32_t key)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].key == key)
            return &rows[i];
    print_error("no row for key %d\n", (int)key);
    fail();
    return NULL;
}

static size_t rank_of(const tco_swing *rows, size_t n, int32_t key)
{
    return (size_t)(row_of(rows, n, key) - rows);
}

static tco_param_info info_of(int32_t key)
{
    tco_param_info in = { .size = sizeof in };
    assert_int_equal(tco_param_info_get(&in, key, NULL), TCO_OK);
    return in;
}

/* Each key's place in the table (tco_param_info_at's order), or -1. */
static int table_index(int32_t key)
{
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        assert_int_equal(tco_param_info_at(&in, i, NULL), TCO_OK);
        if (in.key == key)
            return (int)i;
    }
    return -1;
}

static double base_total(scen *s)
{
    tco_estimate e = scen_run(s);
    return e.total;
}

/* A priced row that moved nothing: the scenario's own figures both sides. */
static void assert_no_effect(const tco_swing *r, double total)
{
    assert_int_equal(r->status, TCO_OK);
    assert_true(r->low_total == total);
    assert_true(r->high_total == total);
    assert_true(r->spread == 0);
}

/* ---- the figures of single rows ---------------------------------------- */

/* mfu 0.4 swung by 10 % to 0.36 and 0.44: the compute time, and with it
 * the total, goes as 1 / mfu:
 *   low  = 4 x 8.4e23 / (989e12 x 0.36 x 3600) = 2,621,428.3
 *   high = 4 x 8.4e23 / (989e12 x 0.44 x 3600) = 2,144,805.0
 *   spread = 476,623.3; per useful accelerator-hour it is the rate, 4.0. */
static void test_mfu_moves_compute_as_one_over_mfu(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    double total = base_total(&s);
    assert_rel(total, compute_total(4.0, 0.4, 1), 1e-12);
    assert_rel(total, 2359285.5, 1e-7);
    static tco_swing rows[ROWS];
    size_t n = tornado(&s, 0.1, rows);
    const tco_swing *r = row_of(rows, n, TCO_P_MFU);
    assert_int_equal(r->status, TCO_OK);
    assert_int_equal(r->clipped, 0);
    assert_rel(r->low_value, 0.36, 1e-15);
    assert_rel(r->high_value, 0.44, 1e-15);
    assert_rel(r->low_total, compute_total(4.0, 0.36, 1), 1e-12);
    assert_rel(r->high_total, compute_total(4.0, 0.44, 1), 1e-12);
    assert_rel(r->low_total, 2621428.3, 1e-7);
    assert_rel(r->high_total, 2144805.0, 1e-7);
    assert_rel(r->spread, r->low_total - r->high_total, 1e-15);
    assert_rel(r->spread, 476623.3, 1e-6);
    assert_rel(r->low_unit, 4.0, 1e-12);
    assert_rel(r->high_unit, 4.0, 1e-12);
    assert_true(r->low_total > total && total > r->high_total);
    scen_free(&s);
}

/* The on-demand rate 4.0 to 3.6 and 4.4: the total is linear in it, so
 * 0.9 and 1.1 of 2,359,285.5, a spread of 0.2 x that = 471,857.1, and the
 * cost per useful accelerator-hour is the rate itself. It ranks below
 * mfu, whose spread is 0.4 x (1/0.36 - 1/0.44) = 0.2020 of the total. */
static void test_on_demand_rate_spread(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    double total = base_total(&s);
    static tco_swing rows[ROWS];
    size_t n = tornado(&s, 0.1, rows);
    const tco_swing *r = row_of(rows, n, TCO_P_ON_DEMAND_PER_ACCEL_HOUR);
    assert_int_equal(r->status, TCO_OK);
    assert_rel(r->low_value, 3.6, 1e-15);
    assert_rel(r->high_value, 4.4, 1e-15);
    assert_rel(r->low_total, compute_total(3.6, 0.4, 1), 1e-12);
    assert_rel(r->high_total, compute_total(4.4, 0.4, 1), 1e-12);
    assert_rel(r->spread, 0.2 * total, 1e-12);
    assert_rel(r->spread, 471857.1, 1e-6);
    assert_rel(r->low_unit, 3.6, 1e-12);
    assert_rel(r->high_unit, 4.4, 1e-12);
    assert_true(rank_of(rows, n, TCO_P_MFU) < rank_of(rows, n, TCO_P_ON_DEMAND_PER_ACCEL_HOUR));
    scen_free(&s);
}

/* The internet egress price swung on 0 GB of egress moves nothing: spread
 * exactly 0, and it ranks in the block of such rows that ends the
 * tornado, behind every row that moves the total. */
static void test_no_effect_ranks_last(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    double total = base_total(&s);
    static tco_swing rows[ROWS];
    size_t n = tornado(&s, 0.1, rows);
    const tco_swing *r = row_of(rows, n, TCO_P_EGRESS_INTERNET_PER_GB);
    assert_rel(r->low_value, 0.081, 1e-15);
    assert_rel(r->high_value, 0.099, 1e-15);
    assert_no_effect(r, total);
    assert_true(r->low_unit == r->high_unit);
    size_t at = rank_of(rows, n, TCO_P_EGRESS_INTERNET_PER_GB), moving = 0;
    for (size_t i = 0; i < n; i++)
        moving += rows[i].spread > 0;
    static const int32_t movers[] = { TCO_P_MFU, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, TCO_P_TOKENS, TCO_P_PARAMS_TOTAL };
    for (size_t i = 0; i < sizeof movers / sizeof movers[0]; i++)
        assert_true(rank_of(rows, n, movers[i]) < moving);
    assert_true(at >= moving);
    for (size_t i = moving; i < n; i++)
        assert_true(rows[i].spread == 0);
    /* the same with the warm tier's price over 0 TB of warm storage */
    assert_no_effect(row_of(rows, n, TCO_P_STORAGE_WARM_PER_GB_MONTH), total);
    assert_true(rank_of(rows, n, TCO_P_STORAGE_WARM_PER_GB_MONTH) >= moving);
    scen_free(&s);
}

/* A parameter at 0 has no relative swing: in the table 0 mostly means
 * "not given" (accelerator_peak_flops 0: the catalogue's figure) or "none"
 * (migration_cost), and a share of the range (1e17 FLOP/s, or a 1e31-FLOP
 * total_flops) would rank nonsense first. It stays at 0 on both sides: the
 * scenario's total, spread 0, not clipped. */
static void test_zero_does_not_swing(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    double total = base_total(&s);
    static tco_swing rows[ROWS];
    size_t n = tornado(&s, 0.5, rows);
    static const int32_t zeros[] = { TCO_P_ACCELERATOR_PEAK_FLOPS, TCO_P_TOTAL_FLOPS, TCO_P_MIGRATION_COST };
    for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i++) {
        const tco_swing *r = row_of(rows, n, zeros[i]);
        assert_int_equal(r->status, TCO_OK);
        assert_int_equal(r->clipped, 0);
        assert_true(r->low_value == 0 && r->high_value == 0);
        assert_true(r->low_total == total && r->high_total == total);
        assert_true(r->spread == 0);
    }
    scen_free(&s);
}

/* Swings past a bound stop at it. mfu 0.95 up 10 % is 1.045, past its
 * maximum of 1: it swings to 1 (total 4 x 8.4e23 / (989e12 x 3600)),
 * clipped; down to 0.855 as usual. oversubscription at its minimum 1 swings
 * down to 1 (clipped; that side is the scenario itself) and up to 1.1. */
static void test_swing_clipped_at_bound(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_MFU, 0.95);
    double total = base_total(&s);
    assert_rel(total, compute_total(4.0, 0.95, 1), 1e-12);
    static tco_swing rows[ROWS];
    size_t n = tornado(&s, 0.1, rows);
    const tco_swing *r = row_of(rows, n, TCO_P_MFU);
    assert_int_equal(r->status, TCO_OK);
    assert_int_equal(r->clipped, 1);
    assert_true(r->high_value == info_of(TCO_P_MFU).max_value);
    assert_true(r->high_value == 1);
    assert_rel(r->low_value, 0.855, 1e-15);
    assert_rel(r->high_total, compute_total(4.0, 1, 1), 1e-12);
    assert_rel(r->low_total, compute_total(4.0, 0.855, 1), 1e-12);

    r = row_of(rows, n, TCO_P_OVERSUBSCRIPTION);
    assert_int_equal(r->status, TCO_OK);
    assert_int_equal(r->clipped, 1);
    assert_true(r->low_value == 1);
    assert_rel(r->high_value, 1.1, 1e-15);
    assert_true(r->low_total == total);

    /* mfu well inside its bounds is not clipped */
    assert_int_equal(row_of(rows, n, TCO_P_ON_DEMAND_PER_ACCEL_HOUR)->clipped, 0);
    scen_free(&s);
}

/* runs, an INT: 10 runs swung by 26 % are 7.4 and 12.6, rounded to 7 and
 * 13 runs; the total goes as the runs (0.7 and 1.3 of ten runs' total).
 * 4 runs swung by 10 % are 3.6 and 4.4: both round back to 4, no effect. */
static void test_int_swings_round(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_RUNS, 10);
    double total = base_total(&s);
    assert_rel(total, compute_total(4.0, 0.4, 10), 1e-12);
    static tco_swing rows[ROWS];
    size_t n = tornado(&s, 0.26, rows);
    const tco_swing *r = row_of(rows, n, TCO_P_RUNS);
    assert_int_equal(r->status, TCO_OK);
    assert_int_equal(r->clipped, 0);
    assert_true(r->low_value == 7);
    assert_true(r->high_value == 13);
    assert_rel(r->low_total, compute_total(4.0, 0.4, 7), 1e-12);
    assert_rel(r->high_total, compute_total(4.0, 0.4, 13), 1e-12);
    assert_rel(r->spread, 0.6 * total, 1e-12);
    scen_free(&s);

    scen_new(&s);
    SW(&s, TCO_P_RUNS, 4);
    total = base_total(&s);
    n = tornado(&s, 0.1, rows);
    r = row_of(rows, n, TCO_P_RUNS);
    assert_true(r->low_value == 4);
    assert_true(r->high_value == 4);
    assert_int_equal(r->clipped, 0);
    assert_no_effect(r, total);
    scen_free(&s);
}

/* accelerators 1,024 swung by 10 % are 921.6 and 1,126.4, rounded to 922
 * and 1,126: neither is whole nodes of 8, so the topology refuses both.
 * The row carries the code and zeros; every other row is still priced. */
static void test_refused_swing_has_status(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    static tco_swing rows[ROWS];
    size_t n = tornado(&s, 0.1, rows);
    const tco_swing *r = row_of(rows, n, TCO_P_ACCELERATORS);
    assert_int_equal(r->status, TCO_E_INCONSISTENT);
    assert_true(r->size == sizeof *r);
    assert_int_equal(r->clipped, 0);
    assert_true(r->low_value == 0 && r->high_value == 0);
    assert_true(r->low_total == 0 && r->high_total == 0);
    assert_true(r->low_unit == 0 && r->high_unit == 0);
    assert_true(r->spread == 0);
    r = row_of(rows, n, TCO_P_MFU);
    assert_int_equal(r->status, TCO_OK);
    assert_true(r->spread > 0);
    scen_free(&s);

    /* One side refused is the row refused. With the reserved rate at the
     * on-demand rate, 4.0, the reserved rate's high side (4.4) and the
     * on-demand rate's low side (3.6) break "reserved at most on demand";
     * their other sides alone would price. */
    scen_new(&s);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 4.0);
    n = tornado(&s, 0.1, rows);
    r = row_of(rows, n, TCO_P_RESERVED_PER_ACCEL_HOUR);
    assert_int_equal(r->status, TCO_E_INCONSISTENT);
    assert_true(r->low_total == 0 && r->high_total == 0 && r->spread == 0);
    r = row_of(rows, n, TCO_P_ON_DEMAND_PER_ACCEL_HOUR);
    assert_int_equal(r->status, TCO_E_INCONSISTENT);
    assert_true(r->low_total == 0 && r->high_total == 0 && r->spread == 0);
    assert_int_equal(row_of(rows, n, TCO_P_SPOT_PER_ACCEL_HOUR)->status, TCO_OK);
    /* the call succeeded: err is left alone, the statuses tell */
    tco_error err = TCO_ERROR_INIT;
    err.code = 123;
    assert_int_equal(tco_sensitivity(rows, sizeof rows[0], ROWS, &n, 0.1, s.t, s.w, s.p, &err), TCO_OK);
    assert_int_equal(err.code, 123);
    assert_string_equal(err.message, "");

    /* With 1,000 accelerators in nodes of 4 and TP 4, 900 and 1,100 are
     * whole nodes and whole tensor groups: the same parameter is priced.
     * The job is the cluster, so n cancels out of n x compute_h and the
     * total stays 2,359,285.5 both sides. */
    scen_free(&s);
    scen_new(&s);
    ST(&s, TCO_P_ACCELERATORS_PER_NODE, 4);
    ST(&s, TCO_P_ACCELERATORS, 1000);
    SW(&s, TCO_P_TENSOR_PARALLEL, 4);
    SW(&s, TCO_P_PIPELINE_PARALLEL, 1);
    n = tornado(&s, 0.1, rows);
    r = row_of(rows, n, TCO_P_ACCELERATORS);
    assert_int_equal(r->status, TCO_OK);
    assert_true(r->low_value == 900 && r->high_value == 1100);
    assert_rel(r->low_total, compute_total(4.0, 0.4, 1), 1e-12);
    assert_rel(r->high_total, compute_total(4.0, 0.4, 1), 1e-12);
    scen_free(&s);
}

/* ---- the ranking and the table --------------------------------------- */

/* Spreads never grow down the ranking, and rows of equal spread (the many
 * of 0, and any exact ties) keep table order. On the library's own
 * defaults and on the compute-only scenario. */
static void check_ranking(const tco_swing *rows, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        assert_true(rows[i].spread >= rows[i + 1].spread);
        if (rows[i].spread == rows[i + 1].spread)
            assert_true(table_index(rows[i].key) < table_index(rows[i + 1].key));
    }
}

static void test_ranking_sorted_and_stable(void **state)
{
    (void)state;
    static tco_swing rows[ROWS], again[ROWS];
    scen s;
    assert_int_equal(tco_topology_new(&s.t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&s.w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&s.p, NULL), TCO_OK);
    size_t n = tornado(&s, 0.1, rows);
    check_ranking(rows, n);
    assert_true(rows[0].spread > rows[n - 1].spread);
    /* deterministic, and share 0 is 0.1 */
    assert_int_equal(tornado(&s, 0.1, again), n);
    assert_memory_equal(rows, again, n * sizeof rows[0]);
    assert_int_equal(tornado(&s, 0, again), n);
    assert_memory_equal(rows, again, n * sizeof rows[0]);
    /* another share, another tornado */
    assert_int_equal(tornado(&s, 0.2, again), n);
    check_ranking(again, n);
    assert_true(row_of(again, n, TCO_P_MFU)->spread > row_of(rows, n, TCO_P_MFU)->spread);
    scen_free(&s);

    scen_new(&s);
    n = tornado(&s, 0.1, rows);
    check_ranking(rows, n);
    scen_free(&s);
}

/* Every REAL and INT parameter of the table, as tco_param_info_at lists
 * it, has exactly one row, and nothing else has one: a parameter added to
 * the table is swung without the tornado being told. */
static void test_every_numeric_parameter_once(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    static tco_swing rows[ROWS];
    size_t n = tornado(&s, 0.1, rows), numeric = 0;
    int *seen = calloc(n, sizeof *seen);
    assert_non_null(seen);
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        assert_int_equal(tco_param_info_at(&in, i, NULL), TCO_OK);
        size_t found = 0;
        for (size_t j = 0; j < n; j++)
            if (rows[j].key == in.key) {
                found++;
                seen[j]++;
            }
        if (in.type == TCO_TYPE_REAL || in.type == TCO_TYPE_INT) {
            numeric++;
            if (found != 1)
                print_error("%s has %zu rows\n", in.name, found);
            assert_int_equal(found, 1);
        } else {
            assert_int_equal(found, 0);
        }
    }
    assert_int_equal(n, numeric);
    for (size_t j = 0; j < n; j++)
        assert_int_equal(seen[j], 1); /* no row of a key the table lacks */
    free(seen);
    scen_free(&s);
}

/* ---- rows, sizes and arguments ---------------------------------------- */

/* cap below the count fills the first cap rows of the full ranking and
 * not one byte more; cap 0 (out NULL) only counts. A larger out_size (a
 * newer caller's struct) gets the same rows at its stride, its size kept
 * and its tail zeroed. */
static void test_cap_and_out_size(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    static tco_swing full[ROWS], part[ROWS];
    size_t n = tornado(&s, 0.1, full), got = 0;
    memset(part, 0x5A, sizeof part);
    assert_int_equal(tco_sensitivity(part, sizeof part[0], 7, &got, 0.1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_int_equal(got, n);
    assert_memory_equal(part, full, 7 * sizeof full[0]);
    const unsigned char *past = (const unsigned char *)&part[7];
    for (size_t i = 0; i < (ROWS - 7) * sizeof part[0]; i++)
        assert_int_equal(past[i], 0x5A);

    got = 0;
    assert_int_equal(tco_sensitivity(NULL, 0, 0, &got, 0.1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_int_equal(got, n);

    enum { EXTRA = 24 };
    size_t stride = sizeof(tco_swing) + EXTRA;
    unsigned char *big = malloc(n * stride);
    assert_non_null(big);
    memset(big, 0x5A, n * stride);
    got = 0;
    assert_int_equal(tco_sensitivity((tco_swing *)(void *)big, stride, n, &got, 0.1, s.t, s.w, s.p, NULL),
                     TCO_OK);
    assert_int_equal(got, n);
    for (size_t i = 0; i < n; i++) {
        tco_swing row;
        memcpy(&row, big + i * stride, sizeof row);
        assert_true(row.size == stride);
        row.size = sizeof row;
        assert_memory_equal(&row, &full[i], sizeof row);
        for (size_t b = sizeof row; b < stride; b++)
            assert_int_equal(big[i * stride + b], 0);
    }
    free(big);
    scen_free(&s);
}

/* Each refusal returns its code, names what is wrong, and writes nothing:
 * neither a row nor *n. */
static void expect_refused(int code, tco_swing *out, size_t out_size, size_t cap, size_t *n, double share,
                           const scen *s)
{
    static tco_swing before[8];
    memcpy(before, out, sizeof before);
    size_t n_before = n ? *n : 0;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_sensitivity(out, out_size, cap, n, share, s->t, s->w, s->p, &err);
    if (rc != code)
        print_error("expected %s, got %s (%s)\n", tco_status_name(code), tco_status_name(rc), err.message);
    assert_int_equal(rc, code);
    assert_int_equal(err.code, code);
    assert_true(strlen(err.message) > 0);
    assert_memory_equal(out, before, sizeof before);
    if (n)
        assert_int_equal(*n, n_before);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    static tco_swing out[8];
    memset(out, 0x5A, sizeof out);
    size_t n = 12345;

    /* unfrozen handles first: nothing is priced */
    expect_refused(TCO_E_NOT_FROZEN, out, sizeof out[0], 8, &n, 0.1, &s);
    scen_freeze(&s);
    scen null_t = { NULL, s.w, s.p };
    expect_refused(TCO_E_NULL, out, sizeof out[0], 8, &n, 0.1, &null_t);

    expect_refused(TCO_E_NULL, out, sizeof out[0], 8, NULL, 0.1, &s);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_sensitivity(NULL, sizeof out[0], 1, &n, 0.1, s.t, s.w, s.p, &err), TCO_E_NULL);
    assert_int_equal(n, 12345);
    expect_refused(TCO_E_SIZE, out, sizeof out[0] - 1, 8, &n, 0.1, &s);
    expect_refused(TCO_E_SIZE, out, 0, 8, &n, 0.1, &s);
    expect_refused(TCO_E_RANGE, out, sizeof out[0], 8, &n, -0.1, &s);
    expect_refused(TCO_E_RANGE, out, sizeof out[0], 8, &n, 1.0000001, &s);
    expect_refused(TCO_E_NOT_FINITE, out, sizeof out[0], 8, &n, NAN, &s);
    expect_refused(TCO_E_NOT_FINITE, out, sizeof out[0], 8, &n, INFINITY, &s);
    /* share 1 is allowed: mfu 0.4 swings to 0.001 (its minimum) and 0.8 */
    assert_int_equal(tco_sensitivity(out, sizeof out[0], 8, &n, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(n > 8);
    scen_free(&s);

    /* a scenario that does not price as given: the estimate's own refusal,
     * with the same parameter named */
    scen_new(&s);
    SW(&s, TCO_P_JOB_ACCELERATORS, 2048); /* more than the cluster's 1,024 */
    scen_freeze(&s);
    tco_estimate e = { .size = sizeof e };
    tco_error want = TCO_ERROR_INIT;
    int code = tco_estimate_compute(&e, s.t, s.w, s.p, &want);
    assert_int_not_equal(code, TCO_OK);
    memset(out, 0x5A, sizeof out);
    n = 12345;
    expect_refused(code, out, sizeof out[0], 8, &n, 0.1, &s);
    err = (tco_error)TCO_ERROR_INIT;
    assert_int_equal(tco_sensitivity(out, sizeof out[0], 8, &n, 0.1, s.t, s.w, s.p, &err), code);
    assert_int_equal(err.param, want.param);
    assert_string_equal(err.message, want.message);
    scen_free(&s);
}

/* Nothing allocates: not the variant, not the ranking, not a refused
 * swing (the compute-only scenario has some), not an error. */
static void test_allocates_nothing(void **state)
{
    (void)state;
    if (!alloc_counting())
        skip();
    scen s;
    size_t before = allocations;
    scen_new(&s);
    assert_true(allocations > before); /* the counter sees the library */
    scen_freeze(&s);
    static tco_swing rows[ROWS];
    size_t n = 0;
    tco_error err = TCO_ERROR_INIT;
    before = allocations;
    for (int i = 0; i < 10; i++)
        assert_int_equal(tco_sensitivity(rows, sizeof rows[0], ROWS, &n, 0.1, s.t, s.w, s.p, &err), TCO_OK);
    assert_int_equal(row_of(rows, n, TCO_P_ACCELERATORS)->status, TCO_E_INCONSISTENT);
    assert_int_equal(tco_sensitivity(rows, 1, ROWS, &n, 0.1, s.t, s.w, s.p, &err), TCO_E_SIZE);
    assert_int_equal(allocations, before);
    scen_free(&s);
}

/* share 1: mfu 0.4 swings down to 0 and is clipped at its minimum, 0.001:
 * 400 times the compute time; up to 0.8, half of it. */
static void test_full_share(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    static tco_swing rows[ROWS];
    size_t n = tornado(&s, 1, rows);
    const tco_swing *r = row_of(rows, n, TCO_P_MFU);
    assert_int_equal(r->status, TCO_OK);
    assert_int_equal(r->clipped, 1);
    assert_true(r->low_value == info_of(TCO_P_MFU).min_value);
    assert_rel(r->high_value, 0.8, 1e-15);
    assert_rel(r->low_total, compute_total(4.0, 0.001, 1), 1e-12);
    assert_rel(r->high_total, compute_total(4.0, 0.8, 1), 1e-12);
    check_ranking(rows, n);
    scen_free(&s);
}

/* A swing that lands exactly on a bound is not clipped: owned_share 0.5
 * swung by 100% goes to 0 and to 1, its minimum and maximum, no further. */
static void test_swing_onto_bound_not_clipped(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 0.5);
    static tco_swing rows[ROWS];
    size_t n = tornado(&s, 1, rows);
    const tco_swing *r = row_of(rows, n, TCO_P_OWNED_SHARE);
    assert_int_equal(r->status, TCO_OK);
    assert_true(r->low_value == 0 && r->high_value == 1);
    assert_int_equal(r->clipped, 0);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mfu_moves_compute_as_one_over_mfu),
        cmocka_unit_test(test_on_demand_rate_spread),
        cmocka_unit_test(test_no_effect_ranks_last),
        cmocka_unit_test(test_zero_does_not_swing),
        cmocka_unit_test(test_swing_clipped_at_bound),
        cmocka_unit_test(test_swing_onto_bound_not_clipped),
        cmocka_unit_test(test_int_swings_round),
        cmocka_unit_test(test_refused_swing_has_status),
        cmocka_unit_test(test_ranking_sorted_and_stable),
        cmocka_unit_test(test_every_numeric_parameter_once),
        cmocka_unit_test(test_cap_and_out_size),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_full_share),
        cmocka_unit_test(test_allocates_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
