/* Benchmark: one inverse sizing, tco_size for the accelerators meeting a
 * 40-day deadline on the built-in scenario (640 of the 1,024; the target
 * is under 50 microseconds), against the same-run baseline of one
 * tco_estimate_compute. Prints the median of 15 rounds, the ratio, and
 * the heap allocations counted during the sizings (none). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>

#include <tco.h>

#include "bench.h"

#include "alloc_count.h"

#define ROUNDS 15
#define SIZINGS 2000
#define ESTIMATES 20000
#define TARGET_US 50.0

int main(void)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    tco_target g;
    memset(&g, 0, sizeof g);
    g.size = sizeof g;
    g.solve = TCO_SOLVE_ACCELERATORS;
    g.deadline_days = 40;
    tco_sizing s = { .size = sizeof s };
    static tco_estimate e;
    e.size = sizeof e;

    double size_us[ROUNDS], estimate_us[ROUNDS], sink = 0;
    size_t allocs = 0;
    for (int r = 0; r < ROUNDS; r++) {
        size_t a0 = allocations;
        double t0 = now();
        for (int i = 0; i < SIZINGS; i++) {
            if (tco_size(&s, &g, t, w, p, NULL))
                return 1;
            sink += s.accelerators;
        }
        double t1 = now();
        allocs += allocations - a0;
        for (int i = 0; i < ESTIMATES; i++) {
            if (tco_estimate_compute(&e, t, w, p, NULL))
                return 1;
            sink += e.total;
        }
        double t2 = now();
        size_us[r] = (t1 - t0) / SIZINGS * 1e6;
        estimate_us[r] = (t2 - t1) / ESTIMATES * 1e6;
    }
    double sz = median(size_us, ROUNDS), est = median(estimate_us, ROUNDS);
    printf("size: %.2f us per call (deadline 40 days, solve accelerators: %g accelerators, %d estimates priced; median of %d rounds of %d calls), target %.0f us: %.2fx of target\n",
           sz, s.accelerators, (int)s.iterations, ROUNDS, SIZINGS, TARGET_US, sz / TARGET_US);
    printf("baseline: %.3f us per tco_estimate_compute (median of %d rounds of %d calls); size / baseline = %.1f\n", est,
           ROUNDS, ESTIMATES, sz / est);
    if (alloc_counting())
        printf("heap allocations during %d sizings: %zu\n", ROUNDS * SIZINGS, allocs);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return sink > 0 && s.accelerators == 640 && (allocs == 0 || !alloc_counting()) ? 0 : 1;
}
