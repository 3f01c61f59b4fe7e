/* Benchmarks of the demand-series functions: the optimal split of a year
 * at one-minute resolution (target 2.5 ms) and the peak/average statistics
 * of 10 million points (target: within 2x of the baseline), each against
 * the same-run baseline of a sum of the same array in eight independent
 * accumulators, as fast as memory delivers it. Every round draws a new
 * series, so that no branch predictor learns it. Medians of ROUNDS rounds.
 *
 * With --scaling, the same two from 10^3 to 10^7 points, in nanoseconds a
 * point and against the baseline at each size: the cost a point should
 * stay flat (the split selects, it does not sort). */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tco.h>

#include "bench.h"

#define ROUNDS 11

/* A day's swing and noise, drawn afresh from seed. */
static void fill(double *d, size_t n, uint64_t seed)
{
    uint64_t s = 0x9e3779b97f4a7c15u ^ seed;
    for (size_t i = 0; i < n; i++)
        d[i] = (double)(bench_next(&s) % 1024) + (i % 1440 < 480 ? 512 : 0);
}

typedef struct {
    double split, stats, sum; /* medians, seconds */
} timing;

static int measure(timing *out, double *d, size_t n, int rounds, int split, const tco_topology *t,
                   const tco_workload *w, const tco_pricing *p)
{
    double split_s[ROUNDS], stats_s[ROUNDS], sum_s[ROUNDS], sink = 0;
    for (int r = 0; r < rounds; r++) {
        fill(d, n, (uint64_t)r + 1);
        tco_split x = { .size = sizeof x };
        tco_demand_stats st = { .size = sizeof st };
        double t0 = now();
        if (split && tco_capacity_split(&x, d, n, 1.0 / 60, t, w, p, NULL))
            return 1;
        double t1 = now();
        if (tco_demand_stats_compute(&st, d, n, 1.0 / 60, NULL))
            return 1;
        double t2 = now();
        double s = bench_sum(d, n);
        double t3 = now();
        split_s[r] = t1 - t0;
        stats_s[r] = t2 - t1;
        sum_s[r] = t3 - t2;
        sink += x.baseline + st.mean + s;
    }
    out->split = median(split_s, rounds);
    out->stats = median(stats_s, rounds);
    out->sum = median(sum_s, rounds);
    return !(sink > 0);
}

int main(int argc, char **argv)
{
    const size_t year = 525600, big = 10 * 1000 * 1000;
    int scaling = argc > 1 && strcmp(argv[1], "--scaling") == 0;
    double *d = malloc(big * sizeof *d);
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    if (!d || tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    timing a, b;
    int rc = 0;
    if (scaling) {
        printf("scaling, median of %d rounds; ns a point, and the ratio to the baseline (eight-accumulator sum)\n",
               ROUNDS);
        printf("%10s %12s %8s %12s %8s %12s\n", "points", "split", "ratio", "statistics", "ratio", "baseline");
        for (size_t n = 1000; n <= big && !rc; n *= 10) {
            rc = measure(&a, d, n, ROUNDS, 1, t, w, p);
            printf("%10zu %12.3f %8.1f %12.3f %8.2f %12.3f\n", n, a.split / n * 1e9, a.split / a.sum,
                   a.stats / n * 1e9, a.stats / a.sum, a.sum / n * 1e9);
        }
    } else if (!(rc = measure(&a, d, year, ROUNDS, 1, t, w, p)) && !(rc = measure(&b, d, big, ROUNDS, 0, t, w, p))) {
        printf("split of %zu points: %.2f ms (target 2.5 ms); baseline sum over them %.3f ms: ratio %.1f\n", year,
               a.split * 1e3, a.sum * 1e3, a.split / a.sum);
        printf("statistics over %zu points: %.2f ms, %.0f million points/s; baseline sum %.2f ms, %.0f million/s: "
               "ratio %.2f (target 2)\n",
               big, b.stats * 1e3, big / b.stats / 1e6, b.sum * 1e3, big / b.sum / 1e6, b.stats / b.sum);
    }
    free(d);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return rc;
}
