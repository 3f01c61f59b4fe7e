/* Benchmark of tco_lifetime_compute. Target: a ten-year lifetime view
 * under 20 us (issue: a cluster over its life), allocation-free.
 *
 * The baseline, measured in the same run, is one tco_estimate_compute on
 * the same handles: a lifetime derives the run once (for its goodput) and
 * prices ten years of the cluster, so the ratio says what the years add.
 * The cluster is the built-in one, half owned with a facility of its own,
 * the rest reserved, refreshed after four years. Each figure is the median
 * of ROUNDS rounds of CALLS calls. Exits 1 only when a call fails. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <string.h>

#include <tco.h>
#include "bench.h"

#define ROUNDS 9
#define CALLS 20000

int main(void)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_set(t, TCO_P_OWNED_SHARE, 0.5, NULL) ||
        tco_topology_set(t, TCO_P_RESERVED_SHARE, 1, NULL) || tco_topology_freeze(t, NULL) ||
        tco_workload_new(&w, NULL) || tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) ||
        tco_pricing_set(p, TCO_P_FACILITY_CAPEX_PER_KW, 7000, NULL) ||
        tco_pricing_set(p, TCO_P_FACILITY_LIFE_YEARS, 15, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    tco_lifetime_request q;
    tco_lifetime_request_init(&q);
    q.years = 10;
    q.refresh_year = 4;
    tco_lifetime life = { .size = sizeof life };
    tco_lifetime_year years[10];
    tco_estimate e = { .size = sizeof e };
    double base[ROUNDS], ten[ROUNDS], sink = 0;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        for (int i = 0; i < CALLS; i++) {
            if (tco_estimate_compute(&e, t, w, p, NULL))
                return 1;
            sink += e.total;
        }
        base[r] = (now() - t0) / CALLS;
        t0 = now();
        for (int i = 0; i < CALLS; i++) {
            if (tco_lifetime_compute(&life, years, sizeof years[0], 10, &q, t, w, p, NULL))
                return 1;
            sink += life.npv;
        }
        ten[r] = (now() - t0) / CALLS;
    }
    double b = median(base, ROUNDS), l = median(ten, ROUNDS);
    printf("lifetime view, median of %d rounds of %d calls (checksum %.6g)\n", ROUNDS, CALLS, sink);
    printf("  baseline tco_estimate_compute     %8.3f us\n", b * 1e6);
    printf("  tco_lifetime_compute, 10 years    %8.3f us   %5.1f x baseline   target < 20 us\n", l * 1e6, l / b);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return 0;
}
