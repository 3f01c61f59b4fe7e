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

#include <tco.h>

#include "bench.h"

#include "alloc_count.h"

#define ROUNDS 15
#define CALLS 200 /* tornadoes per round */
#define ROWS 512  /* more than the table holds */

typedef struct {
    tco_swing rows[ROWS];
    size_t n;
    const tco_topology *t;
    const tco_workload *w;
    const tco_pricing *p;
} tornado;

static int one(void *ctx)
{
    tornado *x = ctx;
    return tco_sensitivity(x->rows, sizeof x->rows[0], ROWS, &x->n, 0.1, x->t, x->w, x->p, NULL) ||
           !(x->rows[0].spread > 0);
}

int main(void)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    static tornado x;
    x.t = t, x.w = w, x.p = p;
    tco_error err = TCO_ERROR_INIT;
    if (tco_sensitivity(x.rows, sizeof x.rows[0], ROWS, &x.n, 0.1, t, w, p, &err)) {
        fprintf(stderr, "tornado: %s\n", err.message);
        return 1;
    }
    if (x.n == 0 || x.n > ROWS)
        return 1;
    int swings = (int)(2 * x.n);
    bench_call b;
    if (bench_against_estimate(&b, one, &x, ROUNDS, CALLS, CALLS * swings, t, w, p, &allocations))
        return 1;
    double base = b.estimate_us * swings;
    printf("tornado: %.1f us per call, %zu parameters, %d swings (median of %d rounds of %d calls), "
           "target 200 us: %.2fx of target\n",
           b.us, x.n, swings, ROUNDS, CALLS, b.us / 200);
    printf("baseline: %.1f us for %d tco_estimate_compute calls; tornado / baseline = %.2f\n", base, swings,
           b.us / base);
    if (alloc_counting())
        printf("heap allocations during %d tornadoes: %zu\n", ROUNDS * CALLS, b.allocations);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return b.allocations == 0 || !alloc_counting() ? 0 : 1;
}
