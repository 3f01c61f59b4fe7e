/* Benchmark: a Monte Carlo run of 1,000,000 samples of the full estimate,
 * four uncertain inputs, every series summarised and ranked, on two
 * threads (the target is under 1 s) and on one; against the same-run
 * baseline of 1,000,000 plain estimates in a loop on one core. Medians of
 * ROUNDS rounds, printed with their ratios. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tco.h>

#include "bench.h"

#define ROUNDS 5
#define SAMPLES 1000000

static tco_uncertain U(int32_t key, int32_t dist, double a, double b, double c, double lo, double hi)
{
    tco_uncertain u;
    memset(&u, 0, sizeof u);
    u.size = sizeof u;
    u.key = key;
    u.distribution = dist;
    u.a = a;
    u.b = b;
    u.c = c;
    u.lo = lo;
    u.hi = hi;
    return u;
}

int main(void)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    tco_error err = TCO_ERROR_INIT;
    if (tco_topology_new(&t, NULL) || tco_topology_set(t, TCO_P_OWNED_SHARE, 0.5, NULL) ||
        tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) || tco_workload_freeze(w, NULL) ||
        tco_pricing_new(&p, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    const tco_uncertain in[4] = {
        U(TCO_P_MFU, TCO_DIST_TRIANGULAR, 0.3, 0.4, 0.55, 0, 0),
        U(TCO_P_ELECTRICITY_PER_KWH, TCO_DIST_LOGNORMAL, 0.1, 0.3, 0, 0, 0.5),
        U(TCO_P_ON_DEMAND_PER_ACCEL_HOUR, TCO_DIST_NORMAL, 4, 0.5, 0, 3, 5),
        U(TCO_P_ACCELERATOR_MTBF_HOURS, TCO_DIST_LOGNORMAL, 80000, 0.5, 0, 0, 0),
    };
    size_t S = tco_monte_carlo_series();
    tco_summary *sum = calloc(S, sizeof *sum);
    if (!sum)
        return 1;
    double corr[4], two[ROUNDS], one[ROUNDS], plain[ROUNDS], sink = 0;
    static tco_estimate e;
    e.size = sizeof e;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        if (tco_monte_carlo(sum, sizeof *sum, corr, in, 4, 2024, SAMPLES, 2, t, w, p, &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        double t1 = now();
        sink += sum[0].p50;
        if (tco_monte_carlo(sum, sizeof *sum, corr, in, 4, 2024, SAMPLES, 1, t, w, p, &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        double t2 = now();
        sink += sum[0].p50;
        for (int i = 0; i < SAMPLES; i++) {
            if (tco_estimate_compute(&e, t, w, p, NULL))
                return 1;
            sink += e.total;
        }
        double t3 = now();
        two[r] = t1 - t0;
        one[r] = t2 - t1;
        plain[r] = t3 - t2;
    }
    double m2 = median(two, ROUNDS), m1 = median(one, ROUNDS), base = median(plain, ROUNDS);
    printf("monte carlo: %d samples, %zu series, 4 inputs (median of %d rounds)\n", SAMPLES, S, ROUNDS);
    printf("  2 threads: %.3f s, target 1 s: %.2fx of target\n", m2, m2 / 1.0);
    printf("  1 thread:  %.3f s; 1 thread / 2 threads = %.2f\n", m1, m1 / m2);
    printf("baseline: %.3f s for %d plain estimates on one core (%.0f ns each)\n", base, SAMPLES, base / SAMPLES * 1e9);
    printf("  2 threads / baseline = %.2f, 1 thread / baseline = %.2f\n", m2 / base, m1 / base);
    printf("total: mean %.0f, p5 %.0f, p50 %.0f, p95 %.0f; rank correlation with mfu %.3f\n", sum[0].mean, sum[0].p5,
           sum[0].p50, sum[0].p95, corr[0]);
    free(sum);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return sink > 0 ? 0 : 1;
}
