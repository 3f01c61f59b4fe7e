/* Benchmark: one full estimate from frozen handles (the target is 120 ns
 * on one core, with no heap allocation), on the same handles and on
 * workloads drawn afresh in each round, so that the branch predictor cannot
 * learn one scenario; and a sweep of 100,000 variations in one call.
 * Prints the median of its rounds, the same-run baseline of copying one
 * tco_estimate, and the ratio. Many short rounds, so that the median of a
 * shared machine is of rounds that no other process interrupted. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tco.h>

#include "bench.h"

#include "alloc_count.h"

#define ROUNDS 101
#define CALLS 2000
#define SWEEP_ROUNDS 15
#define TARGET_NS 120.0
#define WORKLOADS 64 /* differing in MFU, tokens, the job's size and recomputation */

static uint64_t next(uint64_t *s) /* xorshift64 */
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static double uniform(uint64_t *s)
{
    return (double)(next(s) >> 11) * 0x1.0p-53;
}

int main(void)
{
    tco_topology *t;
    tco_workload *w, *ws[WORKLOADS];
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_workload_new(&w, NULL) ||
        tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) || tco_pricing_freeze(p, NULL))
        return 1;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    static const double jobs[] = { 128, 256, 512, 1024 };
    for (int k = 0; k < WORKLOADS; k++)
        if (tco_workload_clone(&ws[k], w, NULL) || tco_workload_set(ws[k], TCO_P_MFU, 0.2 + 0.5 * uniform(&seed), NULL) ||
            tco_workload_set(ws[k], TCO_P_TOKENS, 1e12 * (0.5 + uniform(&seed)), NULL) ||
            tco_workload_set(ws[k], TCO_P_JOB_ACCELERATORS, jobs[next(&seed) % 4], NULL) ||
            tco_workload_set(ws[k], TCO_P_RECOMPUTE, (double)(next(&seed) % 3), NULL) ||
            tco_workload_freeze(ws[k], NULL))
            return 1;
    static tco_estimate e, copy;
    static int order[CALLS];
    e.size = sizeof e;
    double estimate_ns[ROUNDS], fresh_ns[ROUNDS], copy_ns[ROUNDS], sink = 0;
    size_t allocs = 0;
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < CALLS; i++) /* a new order each round */
            order[i] = (int)(next(&seed) % WORKLOADS);
        double t0 = now();
        size_t a0 = allocations;
        for (int i = 0; i < CALLS; i++) {
            if (tco_estimate_compute(&e, t, w, p, NULL))
                return 1;
            sink += e.total;
        }
        double t1 = now();
        for (int i = 0; i < CALLS; i++) {
            if (tco_estimate_compute(&e, t, ws[order[i]], p, NULL))
                return 1;
            sink += e.total;
        }
        allocs += allocations - a0;
        double t2 = now();
        for (int i = 0; i < CALLS; i++) {
            memcpy(&copy, &e, sizeof e);
            e.total += copy.cost[i % 12] * 1e-30; /* keep the copy alive */
            sink += copy.total;
        }
        double t3 = now();
        estimate_ns[r] = (t1 - t0) / CALLS * 1e9;
        fresh_ns[r] = (t2 - t1) / CALLS * 1e9;
        copy_ns[r] = (t3 - t2) / CALLS * 1e9;
    }
    /* A sweep of MFU over 100,000 values. */
    enum { SWEEP = 100000 };
    tco_estimate *out = malloc(SWEEP * sizeof *out);
    int32_t *status = malloc(SWEEP * sizeof *status);
    double *mfu = malloc(SWEEP * sizeof *mfu), sweep_ms[SWEEP_ROUNDS];
    const int32_t key = TCO_P_MFU;
    if (!out || !status || !mfu)
        return 1;
    for (int i = 0; i < SWEEP; i++)
        mfu[i] = 0.2 + 0.5 * i / SWEEP;
    for (int r = 0; r < SWEEP_ROUNDS; r++) {
        double t0 = now();
        if (tco_estimate_sweep(out, sizeof *out, status, SWEEP, &key, 1, mfu, t, w, p, NULL))
            return 1;
        sweep_ms[r] = (now() - t0) * 1e3;
        sink += out[SWEEP - 1].total;
    }
    free(out);
    free(status);
    free(mfu);

    double est = median(estimate_ns, ROUNDS), fresh = median(fresh_ns, ROUNDS), cp = median(copy_ns, ROUNDS);
    double sweep = median(sweep_ms, SWEEP_ROUNDS), per_variation = sweep * 1e6 / SWEEP;
    printf("estimate: %.0f ns per call (median of %d rounds of %d calls), target %.0f ns: %.2fx of target\n", est,
           ROUNDS, CALLS, TARGET_NS, est / TARGET_NS);
    printf("estimate, %d workloads in a fresh order each round: %.0f ns per call: %.2fx of target\n", WORKLOADS,
           fresh, fresh / TARGET_NS);
    printf("sweep: %.1f ms for %d variations in one call: %.0f ns per variation (median of %d rounds)\n", sweep,
           SWEEP, per_variation, SWEEP_ROUNDS);
    printf("baseline: %.1f ns to copy one tco_estimate; estimate / baseline = %.1f, fresh = %.1f, sweep = %.1f\n",
           cp, est / cp, fresh / cp, per_variation / cp);
    if (alloc_counting())
        printf("heap allocations during %d estimates: %zu\n", 2 * ROUNDS * CALLS, allocs);
    for (int k = 0; k < WORKLOADS; k++)
        tco_workload_free(ws[k]);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return sink > 0 && (allocs == 0 || !alloc_counting()) ? 0 : 1;
}
