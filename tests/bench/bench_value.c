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

typedef struct {
    tco_optimum o;
    const tco_topology *t;
    const tco_workload *w;
    const tco_pricing *p;
} search;

static int one(void *ctx)
{
    search *s = ctx;
    return tco_compute_optimal(&s->o, NULL, NULL, BUDGET, s->t, s->w, s->p, NULL) || !(s->o.params > 0);
}

int main(void)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    search s = { .o = { .size = sizeof s.o }, .t = t, .w = w, .p = p };
    bench_call b;
    if (bench_against_estimate(&b, one, &s, ROUNDS, SEARCHES, ESTIMATES, t, w, p, &allocations))
        return 1;
    const tco_optimum *o = &s.o;
    printf("compute_optimal: %.1f us per call (budget %g: N %.4g, D %.4g, %.1f tokens per parameter, loss %.4f; %d estimates priced; median of %d rounds of %d calls), target %.0f us: %.3fx of target\n",
           b.us, BUDGET, o->params, o->tokens, o->tokens_per_param, o->loss, (int)o->evaluations, ROUNDS, SEARCHES,
           TARGET_US, b.us / TARGET_US);
    printf("baseline: %.3f us per tco_estimate_compute (median of %d rounds of %d calls); compute_optimal / baseline = %.1f\n",
           b.estimate_us, ROUNDS, ESTIMATES, b.us / b.estimate_us);
    if (alloc_counting())
        printf("heap allocations during %d searches: %zu\n", ROUNDS * SEARCHES, b.allocations);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return b.us < TARGET_US && (b.allocations == 0 || !alloc_counting()) ? 0 : 1;
}
