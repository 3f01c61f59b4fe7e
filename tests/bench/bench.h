/* What every benchmark shares: a monotonic clock, the median of rounds
 * (medians, because these machines are shared and noisy), the honest
 * memory-bound baseline of a series, and the loop of the benchmarks that
 * measure a call against the plain estimate of the same scenario. */
#ifndef TCO_BENCH_H
#define TCO_BENCH_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <tco.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n), sorting v. */
static inline double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return v[n / 2];
}

/* The sum of x[0..n) in eight independent accumulators: as fast as memory
 * delivers the values, not one add's latency a value, so a baseline that
 * a loop over the same series cannot beat by reordering its adds. */
static inline double bench_sum(const double *x, size_t n)
{
    double a[8] = { 0 };
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int l = 0; l < 8; l++)
            a[l] += x[i + l];
    for (; i < n; i++)
        a[0] += x[i];
    return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}

/* The next value of a xorshift64 generator: series drawn afresh every
 * round, so that no branch predictor learns them. */
static inline uint64_t bench_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* ---- a call against the estimate ---------------------------------------
 * Each of `rounds` rounds times `calls` calls of fn(ctx) (fn returns
 * non-zero on failure), then `estimates` plain tco_estimate_compute of the
 * same scenario: the same-run baseline. `counter` is the allocation count
 * to watch (alloc_count.h's `allocations`), or NULL. */
typedef struct {
    double us;          /* median per call */
    double estimate_us; /* median per estimate of the baseline */
    size_t allocations; /* made during fn's calls, all rounds */
} bench_call;

enum { BENCH_MAX_ROUNDS = 64 };

static inline int bench_against_estimate(bench_call *out, int (*fn)(void *), void *ctx, int rounds, int calls,
                                         int estimates, const tco_topology *t, const tco_workload *w,
                                         const tco_pricing *p, const size_t *counter)
{
    static tco_estimate e;
    double call_us[BENCH_MAX_ROUNDS], estimate_us[BENCH_MAX_ROUNDS], sink = 0;
    if (rounds < 1 || rounds > BENCH_MAX_ROUNDS)
        return 1;
    e.size = sizeof e;
    out->allocations = 0;
    for (int r = 0; r < rounds; r++) {
        size_t a0 = counter ? *counter : 0;
        double t0 = now();
        for (int i = 0; i < calls; i++)
            if (fn(ctx))
                return 1;
        double t1 = now();
        out->allocations += counter ? *counter - a0 : 0;
        for (int i = 0; i < estimates; i++) {
            if (tco_estimate_compute(&e, t, w, p, NULL))
                return 1;
            sink += e.total;
        }
        double t2 = now();
        call_us[r] = (t1 - t0) / calls * 1e6;
        estimate_us[r] = (t2 - t1) / estimates * 1e6;
    }
    out->us = median(call_us, rounds);
    out->estimate_us = median(estimate_us, rounds);
    return !(sink > 0);
}

#endif
