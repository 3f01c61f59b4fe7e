/* Benchmark of placement pricing, the scheduler's hot path. Targets
 * (issue 17): one placement in 25 ns per tco_placement_price call, and 90
 * million placements per second per core (11 ns each), within 6x of the
 * copy loop, through tco_placement_price_batch, with no heap allocation.
 *
 * 64 pools (2 regions, 8 zones, 64 racks, the four price classes), 4,096
 * jobs of 1 to 128 accelerators, and 2^20 candidate placements of one or
 * two parts (max_parts 2): 48 MB of input and output arrays, more than the
 * caches hold. The batch is timed twice: with each job's candidates next
 * to each other, as a scheduler lists them (the job is checked once for
 * its candidates), and in random job order (the job checked every time).
 * The single calls go through 32,768 placements in random order, too
 * many for a branch predictor to learn. tco_placement_price_batch_mt is
 * timed on 1, 2, 4... threads up to the cores present, on the batch by
 * job, against the single-threaded batch of the same round.
 *
 * The baseline is a plain loop over the same arrays that reads every input
 * a placement has and writes every output it gets, without pricing: the
 * memory traffic alone, the bound no batch can beat. batch / copy says how
 * far the batch runs from it.
 *
 * The process is pinned to the processor it starts on (Linux), so that
 * rounds are not split between cores; the threaded batch is timed with
 * the pinning lifted. Each figure is the median of ROUNDS rounds. Exits 1
 * only when a call fails or the single-threaded forms allocate: speed is
 * reported, never asserted. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sched.h>
#endif

#include <tco.h>

#include "bench.h"

#include "alloc_count.h"

#ifndef ROUNDS /* -DROUNDS=1 for one round under callgrind */
#define ROUNDS 11
#endif
#define COUNT (1 << 20)
#define PARTS 2
#define JOBS 4096
#define POOLS 64
#define SINGLE_SET (1 << 15)
#define MAX_THREADS 64
#define SINGLE_CALLS (1 << 20)

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t next(uint32_t below) /* xorshift64*, fixed seed */
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545f4914f6cdd1du) >> 33) % below;
}

/* Two layouts of the same placements (struct of arrays), and the outputs. */
typedef struct layout {
    int32_t job[COUNT], pool[COUNT * PARTS], acc[COUNT * PARTS];
    double start[COUNT];
} layout;
static layout grouped, shuffled;
static double cost[COUNT], completion[COUNT], copy_cost[COUNT], copy_completion[COUNT];
static int32_t status[COUNT], copy_status[COUNT];
static tco_job jobs[JOBS];
static tco_placement single[SINGLE_SET];

static tco_placement_batch batch_of(const layout *l)
{
    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = COUNT;
    b.max_parts = PARTS;
    b.job = l->job;
    b.pool = l->pool;
    b.accelerators = l->acc;
    b.start_hours = l->start;
    return b;
}

/* Times one batch, through tco_placement_price_batch when threads is 0,
 * else through tco_placement_price_batch_mt; counts the placements that
 * failed. */
static double time_batch(const tco_pools *pools, const tco_topology *t, const tco_pricing *p,
                         const tco_placement_batch *b, int32_t threads, size_t *failed)
{
    double t0 = now();
    int rc = threads ? tco_placement_price_batch_mt(cost, completion, status, pools, t, p, jobs, JOBS, b, threads, NULL)
                     : tco_placement_price_batch(cost, completion, status, pools, t, p, jobs, JOBS, b, NULL);
    double t1 = now();
    if (rc != TCO_OK)
        exit(1);
    for (int i = 0; i < COUNT; i++)
        *failed += status[i] != TCO_OK;
    return (t1 - t0) / COUNT * 1e9;
}

int main(void)
{
#if defined(__linux__)
    cpu_set_t all, here;
    CPU_ZERO(&here);
    sched_getaffinity(0, sizeof all, &all);
    int cpu = sched_getcpu();
    if (cpu >= 0) {
        CPU_SET(cpu, &here);
        sched_setaffinity(0, sizeof here, &here);
    }
#endif
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int32_t most = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (int32_t)cores;
    tco_topology *t;
    tco_pricing *p;
    tco_pools *pools;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_pricing_new(&p, NULL) ||
        tco_pricing_freeze(p, NULL) || tco_pools_new(&pools, NULL))
        return 1;
    for (int i = 0; i < POOLS; i++) {
        tco_pool pl;
        memset(&pl, 0, sizeof pl);
        pl.size = sizeof pl;
        pl.price_class = i % 4;
        pl.accelerators_per_node = 8;
        pl.free_accelerators = 512;
        pl.rack = i;
        pl.zone = i / 8;
        pl.region = i / 32;
        pl.rate_per_accel_hour = 1.5 + 0.1 * (i % 7);
        pl.interruptions_per_node_hour = pl.price_class == TCO_CLASS_SPOT ? 0.01 : 0;
        if (tco_pools_add(pools, &pl, NULL, NULL))
            return 1;
    }
    if (tco_pools_freeze(pools, NULL))
        return 1;
    for (int j = 0; j < JOBS; j++) {
        tco_job *jb = &jobs[j];
        memset(jb, 0, sizeof *jb);
        jb->size = sizeof *jb;
        jb->accelerators = 1 << next(8); /* 1 to 128 */
        jb->interruptible = 1;
        jb->duration_hours = 1 + next(200);
        jb->comm_share = next(100) / 100.0;
        jb->checkpoint_bytes = 1e9 * (1 + next(1000));
        jb->traffic_gb_per_accel_hour = next(50);
        jb->delay_cost_per_hour = next(100);
    }
    /* 256 candidates per job, one or two parts each; then the same
     * placements in random order */
    for (int i = 0; i < COUNT; i++) {
        int32_t j = i / (COUNT / JOBS), n = jobs[j].accelerators;
        int32_t a = n > 1 && next(2) ? n / 2 : n;
        int32_t first = (int32_t)next(POOLS);
        grouped.job[i] = j;
        grouped.pool[i * PARTS] = first;
        grouped.acc[i * PARTS] = a;
        grouped.pool[i * PARTS + 1] = (first + 1 + (int32_t)next(POOLS - 1)) % POOLS;
        grouped.acc[i * PARTS + 1] = n - a;
        grouped.start[i] = next(4);
    }
    static int32_t order[COUNT];
    for (int i = 0; i < COUNT; i++)
        order[i] = i;
    for (int i = COUNT - 1; i > 0; i--) {
        int k = (int)next((uint32_t)i + 1), x = order[i];
        order[i] = order[k];
        order[k] = x;
    }
    for (int i = 0; i < COUNT; i++) {
        int s = order[i];
        shuffled.job[i] = grouped.job[s];
        shuffled.start[i] = grouped.start[s];
        for (int k = 0; k < PARTS; k++) {
            shuffled.pool[i * PARTS + k] = grouped.pool[s * PARTS + k];
            shuffled.acc[i * PARTS + k] = grouped.acc[s * PARTS + k];
        }
    }
    for (int i = 0; i < SINGLE_SET; i++) {
        tco_placement *pl = &single[i];
        memset(pl, 0, sizeof *pl);
        pl->size = sizeof *pl;
        pl->parts = shuffled.acc[i * PARTS + 1] ? 2 : 1;
        for (int k = 0; k < pl->parts; k++) {
            pl->pool[k] = shuffled.pool[i * PARTS + k];
            pl->accelerators[k] = shuffled.acc[i * PARTS + k];
        }
        pl->start_hours = shuffled.start[i];
    }
    tco_placement_batch by_job = batch_of(&grouped), any_order = batch_of(&shuffled);

    double single_ns[ROUNDS], grouped_ns[ROUNDS], shuffled_ns[ROUNDS], copy_ns[ROUNDS], sink = 0;
    static double mt_ns[MAX_THREADS + 1][ROUNDS], mt_speedup[MAX_THREADS + 1][ROUNDS];
    size_t allocs = 0, mt_allocs = 0, failed = 0;
    for (int r = 0; r < ROUNDS; r++) {
        size_t a0 = allocations;
        tco_price price;
        memset(&price, 0, sizeof price);
        price.size = sizeof price;
        double t0 = now();
        for (int i = 0; i < SINGLE_CALLS; i++) {
            int k = i % SINGLE_SET;
            if (tco_placement_price(&price, pools, t, p, &jobs[shuffled.job[k]], &single[k], NULL))
                failed++;
            sink += price.cost;
        }
        single_ns[r] = (now() - t0) / SINGLE_CALLS * 1e9;
        grouped_ns[r] = time_batch(pools, t, p, &by_job, 0, &failed);
        sink += cost[r];
        shuffled_ns[r] = time_batch(pools, t, p, &any_order, 0, &failed);
        sink += cost[r];
        allocs += allocations - a0;
#if defined(__linux__)
        sched_setaffinity(0, sizeof all, &all);
#endif
        size_t a1 = allocations;
        for (int32_t n = 1; n <= most; n *= 2) {
            mt_ns[n][r] = time_batch(pools, t, p, &by_job, n, &failed);
            mt_speedup[n][r] = grouped_ns[r] / mt_ns[n][r];
            if (n < most && n * 2 > most)
                n = most / 2; /* end on the cores present */
        }
        mt_allocs += allocations - a1;
#if defined(__linux__)
        sched_setaffinity(0, sizeof here, &here);
#endif
        /* the copy loop: every input of a placement read, every output written */
        double t2 = now();
        for (int i = 0; i < COUNT; i++) {
            double v = grouped.start[i] + grouped.job[i];
            for (int k = 0; k < PARTS; k++)
                v += grouped.pool[i * PARTS + k] + grouped.acc[i * PARTS + k];
            copy_cost[i] = v;
            copy_completion[i] = v;
            copy_status[i] = (int32_t)i;
        }
        copy_ns[r] = (now() - t2) / COUNT * 1e9;
        sink += copy_cost[r] + copy_completion[r] + copy_status[r];
    }

    double one = median(single_ns, ROUNDS), byjob = median(grouped_ns, ROUNDS);
    double anyorder = median(shuffled_ns, ROUNDS), cp = median(copy_ns, ROUNDS);
    printf("medians of %d rounds; %d placements of 1 or 2 parts per batch, %d single calls per round\n", ROUNDS,
           COUNT, SINGLE_CALLS);
    printf("single:              %6.1f ns per call                   target 25 ns: %.2fx of target\n", one,
           one / 25);
    printf("batch, by job:       %6.1f ns per placement, %5.1f M/s   target 90 M/s: %.2fx of target\n", byjob,
           1e3 / byjob, 1e3 / byjob / 90);
    printf("batch, random order: %6.1f ns per placement, %5.1f M/s   target 90 M/s: %.2fx of target\n", anyorder,
           1e3 / anyorder, 1e3 / anyorder / 90);
    printf("copy loop:           %6.2f ns per placement, %5.1f M/s   (the same arrays read and written, no pricing)\n",
           cp, 1e3 / cp);
    printf("batch / copy: %.1f by job, %.1f in random order (target 6); single / batch by job: %.2f\n", byjob / cp,
           anyorder / cp, one / byjob);
    for (int32_t n = 1; n <= most; n *= 2) {
        double ns = median(mt_ns[n], ROUNDS);
        printf("batch on %2d thread%s: %6.1f ns per placement, %5.1f M/s   %.2fx the single-threaded batch (%ld cores)\n",
               (int)n, n == 1 ? " " : "s", ns, 1e3 / ns, median(mt_speedup[n], ROUNDS), cores);
        if (n < most && n * 2 > most)
            n = most / 2;
    }
    if (alloc_counting())
        printf("heap allocations during %d single calls and %d batches: %zu; by the threaded batches: %zu (the C "
               "library's, for the threads it starts)\n",
               ROUNDS * SINGLE_CALLS, 2 * ROUNDS, allocs, mt_allocs);
    else
        printf("heap allocations: not counted in this build (sanitizer or valgrind)\n");
    printf("placements that could not be priced: %zu\n", failed);
    tco_pools_free(pools);
    tco_topology_free(t);
    tco_pricing_free(p);
    return isfinite(sink) && failed == 0 && (allocs == 0 || !alloc_counting()) ? 0 : 1;
}
