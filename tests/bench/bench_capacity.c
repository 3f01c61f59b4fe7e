/* Benchmarks of the demand-series functions: the optimal split of a year at
 * one-minute resolution (target under 10 ms) and peak/average statistics
 * (target 200 million points a second), each against a plain loop over the
 * same array measured in the same run. Medians of several rounds. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <tco.h>

#include "bench.h"

#define ROUNDS 11

static void fill(double *d, size_t n)
{
    uint64_t s = 42;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        d[i] = (double)(s % 1024) + (i % 1440 < 480 ? 512 : 0);
    }
}

int main(void)
{
    const size_t year = 525600, big = 10 * 1000 * 1000;
    double *d = malloc(big * sizeof *d);
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    if (!d || tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    fill(d, big);

    double split_ms[ROUNDS], sum_ms[ROUNDS], stats_s[ROUNDS], plain_s[ROUNDS], sink = 0;
    for (int r = 0; r < ROUNDS; r++) {
        tco_split x = { .size = sizeof x };
        double t0 = now();
        if (tco_capacity_split(&x, d, year, 1.0 / 60, t, w, p, NULL))
            return 1;
        double t1 = now();
        double s = 0;
        for (size_t i = 0; i < year; i++)
            s += d[i];
        double t2 = now();
        tco_demand_stats st = { .size = sizeof st };
        if (tco_demand_stats_compute(&st, d, big, 1, NULL))
            return 1;
        double t3 = now();
        double s2 = 0;
        for (size_t i = 0; i < big; i++)
            s2 += d[i];
        double t4 = now();
        split_ms[r] = (t1 - t0) * 1e3;
        sum_ms[r] = (t2 - t1) * 1e3;
        stats_s[r] = t3 - t2;
        plain_s[r] = t4 - t3;
        sink += x.baseline + s + st.mean + s2;
    }
    double split = median(split_ms, ROUNDS), sum = median(sum_ms, ROUNDS), stats = median(stats_s, ROUNDS),
           plain = median(plain_s, ROUNDS);
    printf("split of %zu points: %.2f ms (target 2.5 ms); a plain sum over them %.3f ms: ratio %.1f\n", year,
           split, sum, split / sum);
    printf("statistics over %zu points: %.0f million points/s (target 200); plain sum %.0f million/s: ratio %.2f\n",
           big, big / stats / 1e6, big / plain / 1e6, stats / plain);
    free(d);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return sink > 0 ? 0 : 1;
}
