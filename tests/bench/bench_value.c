/* Benchmark: one compute-optimal search, tco_compute_optimal for a budget
 * of 1e7 (the currency of the built-in prices) on the built-in scenario
 * with Hoffmann et al.'s constants (the target is under 1 ms), against the
 * same-run baseline of one tco_estimate_compute. Prints the median of 15
 * rounds, the ratio, the estimates one search priced, and the heap
 * allocations counted during the searches (none). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>

#include <tco.h>

#include "bench.h"

#include "alloc_count.h"

#define ROUNDS 15
#define SEARCHES 200
#define ESTIMATES 20000
#define BUDGET 1e7
#define TARGET_US 1000.0

int main(void)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    tco_optimum o = { .size = sizeof o };
    static tco_estimate e;
    e.size = sizeof e;

    double search_us[ROUNDS], estimate_us[ROUNDS], sink = 0;
    size_t allocs = 0;
    for (int r = 0; r < ROUNDS; r++) {
        size_t a0 = allocations;
        double t0 = now();
        for (int i = 0; i < SEARCHES; i++) {
            if (tco_compute_optimal(&o, NULL, NULL, BUDGET, t, w, p, NULL))
                return 1;
            sink += o.params;
        }
        double t1 = now();
        allocs += allocations - a0;
        for (int i = 0; i < ESTIMATES; i++) {
            if (tco_estimate_compute(&e, t, w, p, NULL))
                return 1;
            sink += e.total;
        }
        double t2 = now();
        search_us[r] = (t1 - t0) / SEARCHES * 1e6;
        estimate_us[r] = (t2 - t1) / ESTIMATES * 1e6;
    }
    double sr = median(search_us, ROUNDS), est = median(estimate_us, ROUNDS);
    printf("compute_optimal: %.1f us per call (budget %g: N %.4g, D %.4g, %.1f tokens per parameter, loss %.4f; %d estimates priced; median of %d rounds of %d calls), target %.0f us: %.3fx of target\n",
           sr, BUDGET, o.params, o.tokens, o.tokens_per_param, o.loss, (int)o.evaluations, ROUNDS, SEARCHES,
           TARGET_US, sr / TARGET_US);
    printf("baseline: %.3f us per tco_estimate_compute (median of %d rounds of %d calls); compute_optimal / baseline = %.1f\n",
           est, ROUNDS, ESTIMATES, sr / est);
    if (alloc_counting())
        printf("heap allocations during %d searches: %zu\n", ROUNDS * SEARCHES, allocs);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return sink > 0 && sr < TARGET_US && (allocs == 0 || !alloc_counting()) ? 0 : 1;
}
