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

typedef struct {
    tco_target g;
    tco_sizing s;
    const tco_topology *t;
    const tco_workload *w;
    const tco_pricing *p;
} sizing;

static int one(void *ctx)
{
    sizing *x = ctx;
    return tco_size(&x->s, &x->g, x->t, x->w, x->p, NULL) || x->s.accelerators != 640;
}

int main(void)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    sizing x = { .s = { .size = sizeof x.s }, .t = t, .w = w, .p = p };
    memset(&x.g, 0, sizeof x.g);
    x.g.size = sizeof x.g;
    x.g.solve = TCO_SOLVE_ACCELERATORS;
    x.g.deadline_days = 40;
    bench_call b;
    if (bench_against_estimate(&b, one, &x, ROUNDS, SIZINGS, ESTIMATES, t, w, p, &allocations))
        return 1;
    printf("size: %.2f us per call (deadline 40 days, solve accelerators: %g accelerators, %d estimates priced; median of %d rounds of %d calls), target %.0f us: %.2fx of target\n",
           b.us, x.s.accelerators, (int)x.s.iterations, ROUNDS, SIZINGS, TARGET_US, b.us / TARGET_US);
    printf("baseline: %.3f us per tco_estimate_compute (median of %d rounds of %d calls); size / baseline = %.1f\n",
           b.estimate_us, ROUNDS, ESTIMATES, b.us / b.estimate_us);
    if (alloc_counting())
        printf("heap allocations during %d sizings: %zu\n", ROUNDS * SIZINGS, b.allocations);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return b.allocations == 0 || !alloc_counting() ? 0 : 1;
}
