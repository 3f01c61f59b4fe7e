/* Benchmark: the tornado of the built-in scenario, every REAL and INT
 * parameter swung down and up (the target is under 0.2 ms on one core,
 * with no heap allocation). The same-run baseline is as many plain
 * tco_estimate_compute calls as the tornado has swings, so the ratio says
 * what the variant, the per-row checks and the ranking add to pricing. It
 * can be below 1: swings that clip or round back to the value are not
 * priced, and refused ones stop before the estimate. Prints the medians of
 * 15 rounds. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tco.h>

#include "bench.h"

#include "alloc_count.h"

#define ROUNDS 15
#define CALLS 200 /* tornadoes per round */
#define ROWS 512  /* more than the table holds */

int main(void)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    static tco_swing rows[ROWS];
    size_t n = 0;
    tco_error err = TCO_ERROR_INIT;
    if (tco_sensitivity(rows, sizeof rows[0], ROWS, &n, 0.1, t, w, p, &err)) {
        fprintf(stderr, "tornado: %s\n", err.message);
        return 1;
    }
    if (n == 0 || n > ROWS)
        return 1;
    int swings = (int)(2 * n);

    static tco_estimate e;
    e.size = sizeof e;
    double tornado_us[ROUNDS], baseline_us[ROUNDS], sink = 0;
    size_t allocs = 0;
    for (int r = 0; r < ROUNDS; r++) {
        size_t a0 = allocations;
        double t0 = now();
        for (int i = 0; i < CALLS; i++) {
            if (tco_sensitivity(rows, sizeof rows[0], ROWS, &n, 0.1, t, w, p, NULL))
                return 1;
            sink += rows[0].spread;
        }
        double t1 = now();
        allocs += allocations - a0;
        for (int i = 0; i < CALLS; i++)
            for (int j = 0; j < swings; j++) {
                if (tco_estimate_compute(&e, t, w, p, NULL))
                    return 1;
                sink += e.total;
            }
        double t2 = now();
        tornado_us[r] = (t1 - t0) / CALLS * 1e6;
        baseline_us[r] = (t2 - t1) / CALLS * 1e6;
    }
    double tor = median(tornado_us, ROUNDS), base = median(baseline_us, ROUNDS);
    printf("tornado: %.1f us per call, %zu parameters, %d swings (median of %d rounds of %d calls), "
           "target 200 us: %.2fx of target\n",
           tor, n, swings, ROUNDS, CALLS, tor / 200);
    printf("baseline: %.1f us for %d tco_estimate_compute calls; tornado / baseline = %.2f\n", base, swings,
           tor / base);
    if (alloc_counting())
        printf("heap allocations during %d tornadoes: %zu\n", ROUNDS * CALLS, allocs);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return sink > 0 && (allocs == 0 || !alloc_counting()) ? 0 : 1;
}
