/* Benchmark of the serving fleet: a year of minutes (525,600 points) of
 * request rates turned into accelerators, split fixed vs elastic and
 * priced (target under 10 ms), against the same run's tco_capacity_split
 * of the accelerators it gave and a sum over the rates in eight
 * independent accumulators; and the same with the opt-in queue (p99 of the
 * time to first token, 256 slots) and all-reduces. Medians of several
 * rounds. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <tco.h>

#include "bench.h"

#define ROUNDS 11

int main(void)
{
    const size_t year = 525600;
    double *rate = malloc(year * sizeof *rate), *needed = malloc(year * sizeof *needed);
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    /* the built-in 70B model on H100, its shape given */
    if (!rate || !needed || tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_set(w, TCO_P_LAYERS, 80, NULL) || tco_workload_set(w, TCO_P_HIDDEN_SIZE, 8192, NULL) ||
        tco_workload_set(w, TCO_P_KV_HEADS, 8, NULL) || tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) ||
        tco_pricing_freeze(p, NULL))
        return 1;
    uint64_t s = 42;
    for (size_t i = 0; i < year; i++) { /* a day's swing and noise, requests per second */
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        rate[i] = (double)(s % 1000) / 10 + (i % 1440 < 480 ? 20 : 150);
    }
    tco_serve_request q;
    tco_serve_request_init(&q);
    q.rate = rate;
    q.n = year;
    q.tensor_parallel = 8;
    tco_serve_request opt = q;
    opt.queue_percentile = 0.99;
    opt.time_to_first_token = 2;
    opt.tensor_parallel_allreduce = 1;
    double serve_ms[ROUNDS], split_ms[ROUNDS], sum_ms[ROUNDS], opt_ms[ROUNDS], sink = 0;
    for (int r = 0; r < ROUNDS; r++) {
        tco_serving x = { .size = sizeof x };
        tco_split sp = { .size = sizeof sp };
        double t0 = now();
        if (tco_serving_compute(&x, &sp, needed, year, &q, t, w, p, NULL))
            return 1;
        double t1 = now();
        tco_split direct = { .size = sizeof direct };
        if (tco_capacity_split(&direct, needed, year, 1.0 / 60, t, w, p, NULL))
            return 1;
        double t2 = now();
        double sum = bench_sum(rate, year);
        double t3 = now();
        if (tco_serving_compute(&x, &sp, needed, year, &opt, t, w, p, NULL))
            return 1;
        opt_ms[r] = (now() - t3) * 1e3;
        serve_ms[r] = (t1 - t0) * 1e3;
        split_ms[r] = (t2 - t1) * 1e3;
        sum_ms[r] = (t3 - t2) * 1e3;
        sink += x.total_cost + direct.total_cost + sum;
    }
    double serve = median(serve_ms, ROUNDS), split = median(split_ms, ROUNDS), sum = median(sum_ms, ROUNDS);
    printf("serving fleet of %zu points: %.2f ms (target 10 ms); the split of its accelerators %.2f ms: ratio %.2f; "
           "baseline sum over the rates (eight accumulators) %.3f ms: ratio %.1f\n",
           year, serve, split, serve / split, sum, serve / sum);
    double with = median(opt_ms, ROUNDS);
    printf("with the queue and the all-reduces: %.2f ms: ratio %.2f to the plain fleet\n", with, with / serve);
    free(rate);
    free(needed);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return sink > 0 ? 0 : 1;
}
