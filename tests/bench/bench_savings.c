/* Benchmark: the table of every saving a scenario allows, tco_tradeoffs on
 * the built-in scenario with a spot price (six tradeoffs, each two
 * estimates and its side-effect), against the same-run baseline of one
 * tco_estimate_compute. Prints the median of 15 rounds, the ratio, and the
 * heap allocations counted during the tables (none). */
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
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return b.allocations == 0 || !alloc_counting() ? 0 : 1;
}
