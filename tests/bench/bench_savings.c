/* Benchmark: the table of every saving a scenario allows, tco_tradeoffs on
 * the built-in scenario with a spot price (six tradeoffs, each two
 * estimates and its side-effect), against the same-run baseline of one
 * tco_estimate_compute. Prints the median of 15 rounds, the ratio, and the
 * heap allocations counted during the tables (none). Then the two kinds
 * beyond the estimate: a smaller baseline over a year of minutes of
 * demand against tco_capacity_split of the same series, and an idle
 * reclaim against the estimate. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>

#include <tco.h>

#include "bench.h"

#include "alloc_count.h"

#define ROUNDS 15
#define TABLES 500
#define ESTIMATES 20000

typedef struct {
    tco_tradeoff rows[16];
    size_t n;
    const tco_topology *t;
    const tco_workload *w;
    const tco_pricing *p;
} table;

static int one(void *ctx)
{
    table *x = ctx;
    return tco_tradeoffs(x->rows, sizeof x->rows[0], 16, &x->n, NULL, x->t, x->w, x->p, NULL) || x->rows[0].net == 0;
}

int main(void)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) ||
        tco_pricing_set(p, TCO_P_SPOT_PER_ACCEL_HOUR, 2, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    static table x;
    x.t = t, x.w = w, x.p = p;
    bench_call b;
    if (bench_against_estimate(&b, one, &x, ROUNDS, TABLES, ESTIMATES, t, w, p, &allocations))
        return 1;
    printf("tradeoffs: %.2f us per table of %zu savings (median of %d rounds of %d tables)\n", b.us, x.n, ROUNDS,
           TABLES);
    printf("baseline: %.3f us per tco_estimate_compute (median of %d rounds of %d calls); tradeoffs / baseline = %.1f\n",
           b.estimate_us, ROUNDS, ESTIMATES, b.us / b.estimate_us);
    if (alloc_counting())
        printf("heap allocations during %d tables: %zu\n", ROUNDS * TABLES, b.allocations);

    enum { YEAR = 525600, IDLE = 20000 };
    static double demand[YEAR];
    for (size_t i = 0; i < YEAR; i++) /* a day's swing, accelerators */
        demand[i] = (double)(i % 1440 < 480 ? 200 : 900) + (double)(i % 97);
    tco_saving base;
    tco_saving_init(&base);
    base.kind = TCO_SAVING_SMALLER_BASELINE;
    base.demand = demand;
    base.n = YEAR;
    base.interval_hours = 1.0 / 60;
    base.baseline = 1000;
    base.value = 500;
    tco_saving idle;
    tco_saving_init(&idle);
    idle.kind = TCO_SAVING_IDLE_RECLAIM;
    idle.idle_timeout_hours = 1;
    idle.value = 0.5;
    double base_ms[ROUNDS], split_ms[ROUNDS], idle_us[ROUNDS];
    volatile double sink = 0; /* the results are used */
    for (int r = 0; r < ROUNDS; r++) {
        tco_tradeoff o = { .size = sizeof o };
        tco_split sp = { .size = sizeof sp };
        double t0 = now();
        if (tco_tradeoff_compute(&o, &base, t, w, p, NULL))
            return 1;
        double t1 = now();
        if (tco_capacity_split(&sp, demand, YEAR, 1.0 / 60, t, w, p, NULL))
            return 1;
        double t2 = now();
        for (int i = 0; i < IDLE; i++) {
            if (tco_tradeoff_compute(&o, &idle, t, w, p, NULL))
                return 1;
            sink += o.net;
        }
        double t3 = now();
        base_ms[r] = (t1 - t0) * 1e3;
        split_ms[r] = (t2 - t1) * 1e3;
        idle_us[r] = (t3 - t2) / IDLE * 1e6;
        sink += sp.total_cost;
    }
    double bl = median(base_ms, ROUNDS), sp = median(split_ms, ROUNDS), il = median(idle_us, ROUNDS);
    printf("smaller_baseline over %d points: %.2f ms; tco_capacity_split of them %.2f ms: ratio %.2f\n", YEAR, bl, sp,
           bl / sp);
    printf("idle_reclaim: %.3f us a tradeoff; / baseline = %.1f\n", il, il / b.estimate_us);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return b.allocations == 0 || !alloc_counting() ? 0 : 1;
}
