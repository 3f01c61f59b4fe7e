/* Benchmark: one full estimate from frozen handles (the target is under
 * 1 microsecond on one core, with no heap allocation), and a sweep of
 * 100,000 variations in one call. Prints the median of 15 rounds, and the
 * same-run baseline of copying one tco_estimate. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tco.h>

#include "bench.h"

#include "alloc_count.h"

#define ROUNDS 15
#define CALLS 20000

int main(void)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    static tco_estimate e, copy;
    e.size = sizeof e;
    double estimate_ns[ROUNDS], copy_ns[ROUNDS], sink = 0;
    size_t allocs = 0;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        size_t a0 = allocations;
        for (int i = 0; i < CALLS; i++) {
            if (tco_estimate_compute(&e, t, w, p, NULL))
                return 1;
            sink += e.total;
        }
        allocs += allocations - a0;
        double t1 = now();
        for (int i = 0; i < CALLS; i++) {
            memcpy(&copy, &e, sizeof e);
            e.total += copy.cost[i % 12] * 1e-30; /* keep the copy alive */
            sink += copy.total;
        }
        double t2 = now();
        estimate_ns[r] = (t1 - t0) / CALLS * 1e9;
        copy_ns[r] = (t2 - t1) / CALLS * 1e9;
    }
    /* A sweep of MFU over 100,000 values. */
    enum { SWEEP = 100000 };
    tco_estimate *out = malloc(SWEEP * sizeof *out);
    int32_t *status = malloc(SWEEP * sizeof *status);
    double *mfu = malloc(SWEEP * sizeof *mfu), sweep_ms[ROUNDS];
    const int32_t key = TCO_P_MFU;
    if (!out || !status || !mfu)
        return 1;
    for (int i = 0; i < SWEEP; i++)
        mfu[i] = 0.2 + 0.5 * i / SWEEP;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        if (tco_estimate_sweep(out, sizeof *out, status, SWEEP, &key, 1, mfu, t, w, p, NULL))
            return 1;
        sweep_ms[r] = (now() - t0) * 1e3;
        sink += out[SWEEP - 1].total;
    }
    free(out);
    free(status);
    free(mfu);
    printf("sweep: %.1f ms for %d variations in one call (median of %d rounds)\n", median(sweep_ms, ROUNDS),
           SWEEP, ROUNDS);

    double est = median(estimate_ns, ROUNDS), cp = median(copy_ns, ROUNDS);
    printf("estimate: %.0f ns per call (median of %d rounds of %d calls), target 1000 ns: %.2fx of target\n",
           est, ROUNDS, CALLS, est / 1000);
    printf("baseline: %.1f ns to copy one tco_estimate; estimate / baseline = %.0f\n", cp, est / cp);
    if (alloc_counting())
        printf("heap allocations during %d estimates: %zu\n", ROUNDS * CALLS, allocs);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return sink > 0 && (allocs == 0 || !alloc_counting()) ? 0 : 1;
}
