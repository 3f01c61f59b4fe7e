/* Demand series: statistics, percentiles, time above, capacity for an
 * unmet bound, and the fixed vs elastic split, against hand-worked values
 * and brute force. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

/* ---- peak and average ---------------------------------------------------- */

static void test_stats_hand_worked(void **state)
{
    (void)state;
    /* 1, 2, 3, 4 at half-hour intervals: peak 4, mean 2.5, 2 h, 5 accelerator-hours.
     * Five points exercise the tail after the four-wide loop. */
    const double d[] = { 1, 2, 3, 4, 10 };
    tco_demand_stats s = { .size = sizeof s };
    assert_int_equal(tco_demand_stats_compute(&s, d, 4, 0.5, NULL), TCO_OK);
    assert_true(s.points == 4 && s.hours == 2 && s.peak == 4 && s.minimum == 1);
    assert_true(s.mean == 2.5 && s.peak_to_average == 1.6 && s.accelerator_hours == 5);
    assert_int_equal(tco_demand_stats_compute(&s, d, 5, 1, NULL), TCO_OK);
    assert_true(s.peak == 10 && s.mean == 4 && s.accelerator_hours == 20);
    /* All zero: the ratio is 0, not NaN. */
    const double z[] = { 0, 0, 0 };
    assert_int_equal(tco_demand_stats_compute(&s, z, 3, 1, NULL), TCO_OK);
    assert_true(s.peak_to_average == 0 && s.mean == 0);
}

/* The sum over 10 million points stays within 1e-12 of an exact reference.
 * The series mixes 1e9 spikes with 1e-3 values: a plain running sum drops
 * the small ones' low bits (about n eps = 1e-9 relative error); the
 * reference is accumulated in __float128 (113-bit significand), exact to
 * far below 1e-12 for these 10^7 terms. */
static void test_compensated_sum_ten_million(void **state)
{
    (void)state;
    size_t n = 10 * 1000 * 1000;
    double *d = malloc(n * sizeof *d);
    assert_non_null(d);
    __float128 exact = 0;
    double naive = 0;
    for (size_t i = 0; i < n; i++) {
        d[i] = i % 1000 == 0 ? 1e9 + (double)(i % 7) : 1e-3 * (1 + (double)(i % 13) / 10);
        exact += d[i];
        naive += d[i];
    }
    tco_demand_stats s = { .size = sizeof s };
    assert_int_equal(tco_demand_stats_compute(&s, d, n, 1, NULL), TCO_OK);
    double want = (double)exact;
    assert_rel(s.accelerator_hours, want, 1e-12);
    /* The test means something: the plain sum misses by far more. */
    assert_true(fabs(naive - want) / want > 1e-12);
    free(d);
}

/* Eight values whose exact sum, 2^66 + 3 x 2^21 + 2^13 + 3 x 2^-40, lies
 * just above the midpoint of two doubles (2^13 is half the spacing of
 * doubles near 2^66, 2^14): correctly rounded, 2^66 + 3 x 2^21 + 2^14 =
 * 0x1.0000000000181p+66. The compensated lanes keep the three 2^-40
 * that break the tie; a sum that lost them would round to even, 2^14 below. */
static void test_stats_sum_correctly_rounded(void **state)
{
    (void)state;
    const double d[] = { 0x1p21, 0x1p-40, 0x1p66, 0x1p-40, 0x1p13, 0x1p21, 0x1p21, 0x1p-40 };
    tco_demand_stats s = { .size = sizeof s };
    assert_int_equal(tco_demand_stats_compute(&s, d, 8, 1, NULL), TCO_OK);
    assert_true(s.accelerator_hours == 0x1.0000000000181p+66);
    assert_true(s.mean == 0x1.0000000000181p+63);
}

/* ---- order statistics ---------------------------------------------------- */

static void test_percentiles_like_numpy(void **state)
{
    (void)state;
    /* numpy.percentile([4, 1, 3, 2], [0, 50, 90, 100]) = [1, 2.5, 3.7, 4] */
    const double d[] = { 4, 1, 3, 2 }, pct[] = { 0, 50, 90, 100 };
    double q[4];
    assert_int_equal(tco_demand_percentiles(q, pct, 4, d, 4, NULL), TCO_OK);
    assert_true(q[0] == 1 && q[1] == 2.5 && q[3] == 4);
    assert_rel(q[2], 3.7, 1e-15);
    /* the series itself is not reordered */
    assert_true(d[0] == 4 && d[1] == 1);
    const double one[] = { 7 };
    assert_int_equal(tco_demand_percentiles(q, pct, 4, one, 1, NULL), TCO_OK);
    assert_true(q[0] == 7 && q[3] == 7);
}

static void test_time_above(void **state)
{
    (void)state;
    const double d[] = { 1, 5, 3, 5, 2 }, th[] = { 2, 5, 0 };
    double h[3];
    assert_int_equal(tco_demand_time_above(h, th, 3, d, 5, 0.25, NULL), TCO_OK);
    assert_true(h[0] == 0.75 && h[1] == 0 && h[2] == 1.25); /* strictly above */
}

static void test_capacity_for_unmet(void **state)
{
    (void)state;
    /* 0, 0, 10, 10: 20 accelerator-intervals. Unmet(c) = 2 (10 - c) for c
     * in [0, 10]. A bound of 10% (2) gives c = 9; 50% (10) gives 5; 0
     * gives the peak; 100% gives 0. */
    const double d[] = { 10, 0, 10, 0 };
    double c;
    assert_int_equal(tco_capacity_for_unmet(&c, 0.1, d, 4, 1, NULL), TCO_OK);
    assert_rel(c, 9, 1e-15);
    assert_int_equal(tco_capacity_for_unmet(&c, 0.5, d, 4, 1, NULL), TCO_OK);
    assert_rel(c, 5, 1e-15);
    assert_int_equal(tco_capacity_for_unmet(&c, 0, d, 4, 1, NULL), TCO_OK);
    assert_true(c == 10);
    assert_int_equal(tco_capacity_for_unmet(&c, 1, d, 4, 1, NULL), TCO_OK);
    assert_true(c == 0);
    /* 1..5: total 15. On [3, 4], Unmet(c) = (4 - c) + (5 - c) = 9 - 2c, and
     * at c = 4 only 1 is unmet. A bound of 20% (3) gives c = 3; 10% (1.5),
     * more than the 1 left at c = 4, gives 9 - 2c = 1.5, c = 3.75. */
    const double e[] = { 3, 1, 5, 2, 4 };
    assert_int_equal(tco_capacity_for_unmet(&c, 0.2, e, 5, 1, NULL), TCO_OK);
    assert_rel(c, 3, 1e-15);
    assert_int_equal(tco_capacity_for_unmet(&c, 0.1, e, 5, 1, NULL), TCO_OK);
    assert_rel(c, 3.75, 1e-15);
}

/* ---- fixed vs elastic ---------------------------------------------------- */

/* Handles with reserved 2.5, on demand 4 and no interruptible demand
 * unless a test sets it. */
static void split_scen(scen *s, double interruptible)
{
    scen_defaults(s);
    SW(s, TCO_P_INTERRUPTIBLE_SHARE, interruptible);
    SP(s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SP(s, TCO_P_SPOT_PER_ACCEL_HOUR, 2);
    scen_freeze(s);
}

static void test_split_hand_worked(void **state)
{
    (void)state;
    scen s;
    split_scen(&s, 0);
    /* Demand 1..8 for an hour each. Target exceedance 2.5 / 4 = 0.625, so
     * floor(0.625 x 8) = 5 points may lie above: the baseline is the 3rd
     * smallest, 3. Fixed 3 x 8 h x 2.5 = 60; above it 1+2+3+4+5 = 15
     * accelerator-hours on demand at 4 = 60; total 120. All on demand:
     * 36 x 4 = 144; reserving the peak: 8 x 8 x 2.5 = 160. */
    const double d[] = { 5, 1, 8, 3, 7, 2, 6, 4 };
    tco_split x = { .size = sizeof x };
    assert_int_equal(tco_capacity_split(&x, d, 8, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(x.baseline == 3);
    assert_true(x.target_exceedance == 0.625 && x.exceedance == 0.625);
    assert_true(x.fixed_cost == 60 && x.on_demand_cost == 60 && x.elastic_cost == 60);
    assert_true(x.total_cost == 120 && x.all_on_demand_cost == 144 && x.reserve_peak_cost == 160);
    assert_true(x.savings_vs_on_demand == 24 && x.savings_vs_peak == 40);
    assert_true(x.reserved_accelerator_hours == 24 && x.reserved_used_hours == 3 + 3 + 3 + 3 + 3 + 1 + 2 + 3);
    assert_rel(x.reserved_utilisation, 21.0 / 24, 1e-15);
    assert_true(x.spot_accelerator_hours == 0 && x.on_demand_accelerator_hours == 15);
    assert_true(d[0] == 5 && d[7] == 4); /* the series is left as it was */
    scen_free(&s);
}

/* The chosen baseline costs no more than any other (brute force over every
 * whole baseline), with and without spot. */
static void test_split_is_optimal(void **state)
{
    (void)state;
    for (int with_spot = 0; with_spot < 2; with_spot++) {
        scen s;
        split_scen(&s, with_spot ? 0.5 : 0);
        double d[500];
        uint64_t seed = 7;
        for (int i = 0; i < 500; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            d[i] = (double)((seed >> 33) % 100) + ((seed >> 20) % 5 == 0 ? 150 : 0);
        }
        tco_split best = { .size = sizeof best };
        assert_int_equal(tco_capacity_split(&best, d, 500, 0.5, s.t, s.w, s.p, NULL), TCO_OK);
        for (int b = 0; b <= 260; b++) {
            tco_split x = { .size = sizeof x };
            assert_int_equal(tco_capacity_split_at(&x, b, d, 500, 0.5, s.t, s.w, s.p, NULL), TCO_OK);
            assert_true(best.total_cost <= x.total_cost * (1 + 1e-12));
        }
        assert_true(best.exceedance <= best.target_exceedance);
        scen_free(&s);
    }
}

/* Spot without interruptions has no overhead: the elastic rate is the blend
 * 0.5 x 4 + 0.5 x 2 = 3, the target exceedance 2.5 / 3. With reclaims so
 * frequent that spot costs more than on demand, nothing goes to spot. */
static void test_split_spot(void **state)
{
    (void)state;
    scen s;
    assert_int_equal(tco_topology_new(&s.t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&s.w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&s.p, NULL), TCO_OK);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(&s, TCO_P_SPOT_PER_ACCEL_HOUR, 2);
    SW(&s, TCO_P_INTERRUPTIBLE_SHARE, 0.5);
    SP(&s, TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR, 0);
    scen_freeze(&s);
    const double d[] = { 0, 10, 0, 10 };
    tco_split x = { .size = sizeof x };
    assert_int_equal(tco_capacity_split_at(&x, 0, d, 4, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(x.spot_overhead_share == 0 && x.elastic_rate == 3);
    assert_rel(x.target_exceedance, 2.5 / 3, 1e-15);
    assert_true(x.spot_accelerator_hours == 10 && x.on_demand_accelerator_hours == 10);
    assert_true(x.spot_cost == 20 && x.on_demand_cost == 40 && x.total_cost == 60);
    scen_free(&s);

    assert_int_equal(tco_topology_new(&s.t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&s.w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&s.p, NULL), TCO_OK);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SP(&s, TCO_P_SPOT_PER_ACCEL_HOUR, 2);
    SW(&s, TCO_P_INTERRUPTIBLE_SHARE, 0.5);
    SP(&s, TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR, 0.5);
    scen_freeze(&s);
    assert_int_equal(tco_capacity_split_at(&x, 0, d, 4, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(x.spot_overhead_share > 1); /* 2 x (1 + overhead) > 4 */
    assert_true(x.spot_accelerator_hours == 0 && x.elastic_rate == 4);
    scen_free(&s);

    /* At list prices H100 has no spot rate: spot is not offered, and the
     * split prices its baseline and the rest at the list's reserved and
     * on-demand rates (AWS p5.48xlarge over 8: 31.464 / 8, 55.04 / 8). */
    assert_int_equal(tco_topology_new(&s.t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&s.w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&s.p, NULL), TCO_OK);
    SW(&s, TCO_P_INTERRUPTIBLE_SHARE, 0.5);
    scen_freeze(&s);
    assert_int_equal(tco_capacity_split_at(&x, 5, d, 4, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(x.spot_accelerator_hours == 0 && x.elastic_rate == 55.04 / 8);
    assert_rel(x.target_exceedance, 31.464 / 55.04, 1e-15);
    assert_rel(x.total_cost, 5 * 4 * 31.464 / 8 + 10 * 55.04 / 8, 1e-15);
    scen_free(&s);
}

/* Floor, not ceil, on data without ties: demand 1..7, target exceedance
 * 2.5 / 4 = 0.625, 0.625 x 7 = 4.375, so floor gives 4 points above the
 * baseline: the 3rd smallest, 3 (ceil would give 5 above: 2). By hand,
 * cost(b) = 2.5 x 7 b + 4 x sum (d - b)+: cost(2) = 35 + 4 x 15 = 95,
 * cost(3) = 52.5 + 4 x 10 = 92.5, cost(4) = 70 + 4 x 6 = 94. */
static void test_split_floor_without_ties(void **state)
{
    (void)state;
    scen s;
    split_scen(&s, 0);
    const double d[] = { 4, 7, 1, 6, 3, 5, 2 };
    tco_split x = { .size = sizeof x };
    assert_int_equal(tco_capacity_split(&x, d, 7, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(x.baseline == 3);
    assert_rel(x.exceedance, 4.0 / 7, 1e-15);
    assert_rel(x.total_cost, 92.5, 1e-15);
    const double cost_at[] = { 95, 92.5, 94 };
    for (int b = 2; b <= 4; b++) {
        assert_int_equal(tco_capacity_split_at(&x, b, d, 7, 1, s.t, s.w, s.p, NULL), TCO_OK);
        assert_rel(x.total_cost, cost_at[b - 2], 1e-15);
    }
    scen_free(&s);
}

/* Demand 1..8 as in test_split_hand_worked, at half-hour intervals: the
 * baseline 3 is used min(d, 3) = 1 + 2 + 3 x 6 = 21 intervals, 10.5 of its
 * 3 x 4 h = 12 accelerator-hours, 87.5%; the 15 intervals above it are
 * 7.5 h. With half of it interruptible and spot at the on-demand rate (4,
 * no reclaims: no overhead), spot is no cheaper, so none goes to it. */
static void test_split_half_hours_and_spot_at_par(void **state)
{
    (void)state;
    scen s;
    scen_defaults(&s);
    SW(&s, TCO_P_INTERRUPTIBLE_SHARE, 0.5);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SP(&s, TCO_P_SPOT_PER_ACCEL_HOUR, 4);
    SP(&s, TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR, 0);
    scen_freeze(&s);
    const double d[] = { 5, 1, 8, 3, 7, 2, 6, 4 };
    tco_split x = { .size = sizeof x };
    assert_int_equal(tco_capacity_split_at(&x, 3, d, 8, 0.5, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(x.reserved_used_hours == 10.5 && x.reserved_accelerator_hours == 12);
    assert_true(x.reserved_utilisation == 0.875);
    assert_true(x.spot_accelerator_hours == 0 && x.on_demand_accelerator_hours == 7.5);
    scen_free(&s);
}

/* Selection near either end of a series longer than 600 points, where
 * Floyd and Rivest's SELECT first narrows the range by sampling: demand
 * 1 to 1,000 (shuffled) for an hour each, on demand 4. Reserved at 0.01,
 * the target exceedance is 0.01 / 4 = 0.0025 and floor(2.5) = 2 points
 * may lie above: the baseline is the 3rd largest, 998. Reserved at 3.99,
 * 0.9975 and floor(997.5) = 997 above: the 3rd smallest, 3. */
static void test_split_selects_near_either_end(void **state)
{
    (void)state;
    double d[1000];
    for (int i = 0; i < 1000; i++)
        d[i] = (double)(i * 7919 % 1000 + 1); /* 7919 is prime to 1000: a permutation */
    const double reserved[] = { 0.01, 3.99 }, want[] = { 998, 3 };
    for (int c = 0; c < 2; c++) {
        scen s;
        scen_defaults(&s);
        SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, reserved[c]);
        SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
        scen_freeze(&s);
        tco_split x = { .size = sizeof x };
        assert_int_equal(tco_capacity_split(&x, d, 1000, 1, s.t, s.w, s.p, NULL), TCO_OK);
        assert_true(x.baseline == want[c]);
        scen_free(&s);
    }
    /* Past 65,536 points the k-th is bounded by a sample first: 1 to
     * 100,000 shuffled, reserved 4 (1 - 2^-14) = 3.999755859375 (exact in
     * binary), so floor(0.99993896484375 x 100,000) = 99,993 points may lie
     * above: the baseline is the 7th smallest, 7, near the sample's low end. */
    static double e[100000];
    for (int i = 0; i < 100000; i++)
        e[i] = (double)(i * 7919 % 100000 + 1);
    scen s;
    scen_defaults(&s);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 3.999755859375);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    scen_freeze(&s);
    tco_split x = { .size = sizeof x };
    assert_int_equal(tco_capacity_split(&x, e, 100000, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(x.baseline == 7);
    scen_free(&s);
    /* Both bounds equal and the baseline above them: the sample (every
     * 100,000 / 8,192 = 12th point) is all 5s, the 8,192 points it reads,
     * and the others are 6, 7, ... 91,813. Reserved 4 x 58,982 / 65,536 =
     * 3.5999755859375 lets floor(89,999.39) = 89,999 lie above: the baseline
     * is the 10,001st smallest, the 1,809th past the 5s, 6 + 1,808 = 1,814. */
    double next = 6;
    for (int i = 0; i < 100000; i++)
        e[i] = i % 12 == 0 && i / 12 < 8192 ? 5 : next++;
    scen_defaults(&s);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 3.5999755859375);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    scen_freeze(&s);
    assert_int_equal(tco_capacity_split(&x, e, 100000, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(x.baseline == 1814);
    scen_free(&s);
}

/* A zero baseline reserves nothing: its utilisation is 0 (not 0/0), the
 * fixed cost 0 and everything on demand. Reserved at the on-demand rate
 * (4, the most allowed), the target exceedance is min(1, 4 / 4) = 1 and
 * the optimum 0: demand 1, 2, 3 for an hour each, 6 accelerator-hours x 4
 * = 24; reserving the peak, 3 x 3 h x 4 = 36. */
static void test_split_zero_baseline(void **state)
{
    (void)state;
    scen s;
    scen_defaults(&s);
    SW(&s, TCO_P_INTERRUPTIBLE_SHARE, 0);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 4);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    scen_freeze(&s);
    const double d[] = { 2, 3, 1 };
    tco_split x = { .size = sizeof x };
    assert_int_equal(tco_capacity_split(&x, d, 3, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(x.baseline == 0 && x.target_exceedance == 1 && x.exceedance == 1);
    assert_true(x.reserved_accelerator_hours == 0 && x.reserved_used_hours == 0);
    assert_true(x.reserved_utilisation == 0);
    assert_true(x.fixed_cost == 0 && x.on_demand_cost == 24 && x.total_cost == 24);
    assert_true(x.all_on_demand_cost == 24 && x.savings_vs_on_demand == 0);
    assert_true(x.reserve_peak_cost == 36 && x.savings_vs_peak == 12);
    scen_free(&s);
}

/* A year at one-minute resolution: the selection agrees with a full sort. */
static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_split_year_matches_sort(void **state)
{
    (void)state;
    size_t n = 525600;
    double *d = malloc(n * sizeof *d), *sorted = malloc(n * sizeof *d);
    assert_non_null(d);
    assert_non_null(sorted);
    uint64_t seed = 11;
    for (size_t i = 0; i < n; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        d[i] = (double)(seed % 1000) + (i % 1440 < 480 ? 500 : 0);
    }
    memcpy(sorted, d, n * sizeof *d);
    qsort(sorted, n, sizeof *d, by_value);
    scen s;
    split_scen(&s, 0);
    tco_split x = { .size = sizeof x };
    assert_int_equal(tco_capacity_split(&x, d, n, 1.0 / 60, s.t, s.w, s.p, NULL), TCO_OK);
    size_t above = (size_t)floor(0.625 * (double)n);
    assert_true(x.baseline == sorted[n - 1 - above]);
    assert_rel(x.hours, 8760, 1e-15);

    /* The selection reads the series in place, narrowing by a sample of
     * evenly spaced points: where those points lie (every 64th value, here
     * all high) the sample misleads it, and it must still find the order
     * statistic; so too with every value the same, and with half of them
     * tied at the answer. */
    for (int shape = 0; shape < 3; shape++) {
        for (size_t i = 0; i < n; i++)
            d[i] = shape == 0 ? (i % 64 == 0 ? 5000.0 : (double)(i % 997))
                   : shape == 1 ? 42.0
                                : (i % 2 ? 300.0 : (double)(i % 1000));
        memcpy(sorted, d, n * sizeof *d);
        qsort(sorted, n, sizeof *d, by_value);
        assert_int_equal(tco_capacity_split(&x, d, n, 1.0 / 60, s.t, s.w, s.p, NULL), TCO_OK);
        assert_true(x.baseline == sorted[n - 1 - above]);
    }
    scen_free(&s);
    free(d);
    free(sorted);
}

/* Past a million points the selection gathers into a sixteenth of the
 * series rather than a fixed 65,536 values; it still finds what a full
 * sort does (three million points, six years of minutes). */
static void test_split_long_matches_sort(void **state)
{
    (void)state;
    size_t n = 3000000;
    double *d = malloc(n * sizeof *d), *sorted = malloc(n * sizeof *d);
    assert_non_null(d);
    assert_non_null(sorted);
    uint64_t seed = 5;
    for (size_t i = 0; i < n; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        d[i] = (double)(seed % 100000) / 8 + (i % 1440 < 480 ? 5000 : 0);
    }
    memcpy(sorted, d, n * sizeof *d);
    qsort(sorted, n, sizeof *d, by_value);
    scen s;
    split_scen(&s, 0);
    tco_split x = { .size = sizeof x };
    assert_int_equal(tco_capacity_split(&x, d, n, 1.0 / 60, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(x.baseline == sorted[n - 1 - (size_t)floor(0.625 * (double)n)]);
    scen_free(&s);
    free(d);
    free(sorted);
}

/* A long series (past the 1 Mi points held whole) whose baseline lies in
 * a tie at the upper bound of the gather: 2^21 points, the first 765,460
 * (36.5 %) of 0 and the rest of 1. The baseline is the point with
 * floor(0.625 n) = 1,310,720 above it, index 786,431 of the sorted
 * series (37.5 %): a 1, past every 0. A bad value anywhere in such a
 * series is named, as in a short one. */
static void test_split_long_ties_and_refusals(void **state)
{
    (void)state;
    size_t n = (size_t)1 << 21, zeros = (size_t)floor(0.365 * (double)n);
    assert_int_equal(zeros, 765460);
    double *d = malloc(n * sizeof *d);
    assert_non_null(d);
    for (size_t i = 0; i < n; i++)
        d[i] = i < zeros ? 0 : 1;
    scen s;
    split_scen(&s, 0);
    tco_split x = { .size = sizeof x };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_capacity_split(&x, d, n, 1, s.t, s.w, s.p, &err), TCO_OK);
    assert_true(x.baseline == 1);
    /* bounds from a sample that misses: every 256th point (the ones the
     * sample of 8,192 reads) is 10, the others 1 up to half the series, 10
     * to 80 % and 20 past it. The sample puts both bounds at 10, but the
     * baseline's rank (37.5 %) lies among the 1s below them: the series is
     * copied and selected, and the baseline is 1. */
    for (size_t i = 0; i < n; i++)
        d[i] = i % 256 == 0 ? 10 : i < n / 2 ? 1 : i < n / 10 * 8 ? 10 : 20;
    assert_int_equal(tco_capacity_split(&x, d, n, 1, s.t, s.w, s.p, &err), TCO_OK);
    assert_true(x.baseline == 1);
    d[1234567] = -1;
    assert_int_equal(tco_capacity_split(&x, d, n, 1, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "demand[1234567] = -1"));
    d[1234567] = NAN;
    assert_int_equal(tco_capacity_split(&x, d, n, 1, s.t, s.w, s.p, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "demand[1234567]"));
    /* DBL_MAX is a value of the series like any other (the gather keeps
     * it), but the elastic hours above the baseline then overflow: the
     * split refuses, naming the demand, and never succeeds without
     * writing its result. */
    d[1234567] = DBL_MAX;
    assert_int_equal(tco_capacity_split(&x, d, n, 1, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "demand: its values are too large for the result to be finite"));
    scen_free(&s);
    free(d);
}

/* ---- bad input ----------------------------------------------------------- */

static void test_bad_series(void **state)
{
    (void)state;
    scen s;
    split_scen(&s, 0);
    const double nan_in[] = { 1, NAN, 3 }, neg[] = { 1, -2, 3 }, inf[] = { INFINITY }, ok[] = { 1, 2 };
    tco_split x, before;
    memset(&x, 0x5a, sizeof x);
    x.size = sizeof x;
    before = x;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_capacity_split(&x, nan_in, 3, 1, s.t, s.w, s.p, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "demand[1]"));
    assert_int_equal(tco_capacity_split(&x, neg, 3, 1, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "demand[1] = -2"));
    assert_int_equal(tco_capacity_split(&x, inf, 1, 1, s.t, s.w, s.p, &err), TCO_E_NOT_FINITE);
    assert_int_equal(tco_capacity_split(&x, ok, 0, 1, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "empty"));
    assert_int_equal(tco_capacity_split(&x, NULL, 2, 1, s.t, s.w, s.p, &err), TCO_E_NULL);
    assert_int_equal(tco_capacity_split(&x, ok, 2, 0, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "interval_hours"));
    assert_int_equal(tco_capacity_split(&x, ok, 2, NAN, s.t, s.w, s.p, &err), TCO_E_NOT_FINITE);
    assert_int_equal(tco_capacity_split_at(&x, -1, ok, 2, 1, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_int_equal(tco_capacity_split_at(&x, NAN, ok, 2, 1, s.t, s.w, s.p, &err), TCO_E_NOT_FINITE);
    assert_int_equal(tco_capacity_split_at(&x, INFINITY, ok, 2, 1, s.t, s.w, s.p, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "baseline = inf"));
    assert_int_equal(tco_capacity_split_at(&x, 1, ok, 2, 0, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "interval_hours"));
    assert_int_equal(tco_capacity_split_at(&x, 1, nan_in, 3, 1, s.t, s.w, s.p, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "demand[1]"));
    assert_int_equal(tco_capacity_split_at(NULL, 1, ok, 2, 1, s.t, s.w, s.p, &err), TCO_E_NULL);
    assert_string_equal(err.message, "out must not be NULL");
    assert_int_equal(tco_capacity_split(&x, ok, 2, 1, s.t, NULL, s.p, &err), TCO_E_NULL);
    assert_memory_equal(&x, &before, sizeof x); /* nothing half-written */
    x.size = 16;
    assert_int_equal(tco_capacity_split(&x, ok, 2, 1, s.t, s.w, s.p, &err), TCO_E_SIZE);

    double q[1], pct[1] = { 101 };
    assert_int_equal(tco_demand_percentiles(q, pct, 1, ok, 2, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "percentiles[0] = 101"));
    pct[0] = -1;
    assert_int_equal(tco_demand_percentiles(q, pct, 1, ok, 2, &err), TCO_E_RANGE);
    pct[0] = NAN;
    assert_int_equal(tco_demand_percentiles(q, pct, 1, ok, 2, &err), TCO_E_NOT_FINITE);
    double c;
    assert_int_equal(tco_capacity_for_unmet(&c, 1.5, ok, 2, 1, &err), TCO_E_RANGE);
    assert_int_equal(tco_capacity_for_unmet(&c, 0.1, neg, 3, 1, &err), TCO_E_RANGE);
    double th[1] = { NAN }, h[1];
    assert_int_equal(tco_demand_time_above(h, th, 1, ok, 2, 1, &err), TCO_E_NOT_FINITE);
    /* Nothing asked, nothing needed: empty lists may be NULL. */
    assert_int_equal(tco_demand_time_above(NULL, NULL, 0, ok, 2, 1, &err), TCO_OK);
    assert_int_equal(tco_demand_percentiles(NULL, NULL, 0, ok, 2, &err), TCO_OK);
    assert_int_equal(tco_demand_percentiles(NULL, NULL, 0, neg, 3, &err), TCO_E_RANGE);
    tco_demand_stats st = { .size = sizeof st };
    assert_int_equal(tco_demand_stats_compute(&st, neg, 3, 1, &err), TCO_E_RANGE);
    assert_int_equal(tco_demand_stats_compute(&st, ok, 0, 1, &err), TCO_E_RANGE);
    assert_int_equal(tco_demand_stats_compute(&st, ok, 2, -1, &err), TCO_E_RANGE);

    /* Unfrozen handles are refused. */
    tco_workload *w;
    assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
    x.size = sizeof x;
    assert_int_equal(tco_capacity_split(&x, ok, 2, 1, s.t, w, s.p, &err), TCO_E_NOT_FROZEN);
    tco_workload_free(w);
    scen_free(&s);
}

/* One rule for a value (finite, 0 or more) in every pass that checks it,
 * at both its ends: 0 and DBL_MAX are values, and the value named is the
 * first past them. Demand 0, 0, 4 for an hour each (split_scen's rates):
 * floor(0.625 x 3) = 1 point may lie above, so the baseline is the 2nd
 * smallest, 0, and the 4 accelerator-hours above it cost 4 x 4 = 16 on
 * demand, the same as all on demand. Demand 0, DBL_MAX, NaN: demand[2],
 * the NaN, is named, not DBL_MAX before it. */
static void test_series_value_rule(void **state)
{
    (void)state;
    scen s;
    split_scen(&s, 0);
    const double zeros[] = { 0, 0, 4 };
    tco_split x = { .size = sizeof x };
    assert_int_equal(tco_capacity_split(&x, zeros, 3, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(x.baseline == 0 && x.fixed_cost == 0 && x.on_demand_cost == 16 && x.all_on_demand_cost == 16);
    const double top[] = { 0, DBL_MAX, NAN };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_capacity_split(&x, top, 3, 1, s.t, s.w, s.p, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "demand[2] = nan"));
    assert_int_equal(tco_capacity_split_at(&x, 1, top, 3, 1, s.t, s.w, s.p, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "demand[2] = nan"));
    double q[1], pct[1] = { 50 };
    assert_int_equal(tco_demand_percentiles(q, pct, 1, top, 3, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "demand[2] = nan"));
    scen_free(&s);
}

/* What the split cannot price is refused, naming why: spot reclaims of
 * 10 an hour on each of 1,024 nodes (8,192 accelerators: 10,240 an hour,
 * one every 0.35 s) stop the job before its checkpoint is written (Daly's
 * wall time overflows: e^(delta / M) with M = 1 / 10,240 h), and a custom
 * accelerator with no rates has neither the reserved nor the on-demand
 * price the split needs. */
static void test_split_refusals(void **state)
{
    (void)state;
    scen s;
    scen_defaults(&s);
    SW(&s, TCO_P_INTERRUPTIBLE_SHARE, 0.5);
    SP(&s, TCO_P_SPOT_PER_ACCEL_HOUR, 2);
    SP(&s, TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR, 10);
    ST(&s, TCO_P_ACCELERATORS, 8192);
    scen_freeze(&s);
    const double d[] = { 0, 10 };
    tco_split x = { .size = sizeof x };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_capacity_split_at(&x, 1, d, 2, 1, s.t, s.w, s.p, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "spot_interruptions_per_node_hour");
    assert_non_null(strstr(err.message, "spot_interruptions_per_node_hour = 10 reclaims"));
    scen_free(&s);

    scen_defaults(&s);
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_ACCELERATOR_MODEL, "custom", NULL), TCO_OK);
    ST(&s, TCO_P_ACCELERATOR_PEAK_FLOPS, 1e15);
    ST(&s, TCO_P_ACCELERATOR_MEMORY_BYTES, 100e9);
    ST(&s, TCO_P_ACCELERATOR_TDP_WATTS, 700);
    scen_freeze(&s);
    assert_int_equal(tco_capacity_split_at(&x, 1, d, 2, 1, s.t, s.w, s.p, &err), TCO_E_INCONSISTENT);
    assert_non_null(strstr(err.message, "per_accel_hour"));
    scen_free(&s);
}

/* The statistics check their series in the summing pass itself (a
 * negative value shows in the minimum, NaN or infinity in a lane's sum):
 * every bad kind at every place of the four lanes and of the tail is
 * refused naming its index, and so is a negative value a later NaN in the
 * same lane would hide from the minimum; the output is left as it was. */
static void test_stats_check_every_lane(void **state)
{
    (void)state;
    const double bad[] = { -1, -INFINITY, INFINITY, NAN };
    for (size_t b = 0; b < 4; b++)
        for (size_t at = 0; at < 11; at++) {
            double d[11] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
            d[at] = bad[b];
            tco_demand_stats st = { .size = sizeof st };
            tco_error err = { .size = sizeof err };
            char want[32];
            snprintf(want, sizeof want, "demand[%zu] = ", at);
            assert_int_not_equal(tco_demand_stats_compute(&st, d, 11, 1, &err), TCO_OK);
            assert_non_null(strstr(err.message, want));
            assert_true(st.points == 0 && st.mean == 0);
        }
    double d[9] = { 1, -1, 3, 4, 5, NAN, 7, 8, 9 }; /* lane 1: -1, then NaN */
    tco_error err = { .size = sizeof err };
    tco_demand_stats st = { .size = sizeof st };
    assert_int_equal(tco_demand_stats_compute(&st, d, 9, 1, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "demand[1] = -1"));
}

/* No silent wrong number: values whose sums overflow, and intervals so
 * small or large that the sums underflow or overflow, are refused naming
 * the input; before, the statistics came back NaN, the split infinite and
 * a budget of NaN spend "ok", all with TCO_OK. */
static void test_overflow_refused(void **state)
{
    (void)state;
    double big[4] = { 1e308, 1e308, 1e308, 1e308 }, small[4] = { 1, 2, 3, 4 };
    tco_error err = TCO_ERROR_INIT;
    tco_demand_stats d = { .size = sizeof d };
    assert_int_equal(tco_demand_stats_compute(&d, big, 4, 1, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "demand");
    assert_int_equal(tco_demand_stats_compute(&d, small, 4, 1e-300, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "interval_hours");
    assert_int_equal(tco_demand_stats_compute(&d, small, 4, 1e7, &err), TCO_E_RANGE);
    assert_int_equal(tco_demand_stats_compute(&d, small, 4, 1e-6, &err), TCO_OK); /* the bounds are allowed */
    assert_int_equal(tco_demand_stats_compute(&d, small, 4, 1e6, &err), TCO_OK);
    double capacity;
    assert_int_equal(tco_capacity_for_unmet(&capacity, 0.1, big, 4, 1, &err), TCO_E_RANGE);

    scen s;
    assert_int_equal(tco_topology_new(&s.t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&s.w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&s.p, NULL), TCO_OK);
    SP(&s, TCO_P_BUDGET_AMOUNT, 1000);
    scen_freeze(&s);
    tco_split sp = { .size = sizeof sp };
    assert_int_equal(tco_capacity_split(&sp, big, 4, 1, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "demand");
    tco_budget b = { .size = sizeof b };
    assert_int_equal(tco_budget_compute(&b, big, 4, 1, NULL, 0, s.p, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "spend");
    assert_int_equal(tco_budget_compute(&b, small, 4, 1e-300, NULL, 0, s.p, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "interval_days");
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_overflow_refused),
        cmocka_unit_test(test_stats_hand_worked),
        cmocka_unit_test(test_compensated_sum_ten_million),
        cmocka_unit_test(test_stats_sum_correctly_rounded),
        cmocka_unit_test(test_percentiles_like_numpy),
        cmocka_unit_test(test_time_above),
        cmocka_unit_test(test_capacity_for_unmet),
        cmocka_unit_test(test_split_hand_worked),
        cmocka_unit_test(test_split_is_optimal),
        cmocka_unit_test(test_split_spot),
        cmocka_unit_test(test_split_year_matches_sort),
        cmocka_unit_test(test_split_long_matches_sort),
        cmocka_unit_test(test_bad_series),
        cmocka_unit_test(test_split_refusals),
        cmocka_unit_test(test_split_long_ties_and_refusals),
        cmocka_unit_test(test_split_floor_without_ties),
        cmocka_unit_test(test_split_zero_baseline),
        cmocka_unit_test(test_stats_check_every_lane),
        cmocka_unit_test(test_series_value_rule),
        cmocka_unit_test(test_split_selects_near_either_end),
        cmocka_unit_test(test_split_half_hours_and_spot_at_par),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
