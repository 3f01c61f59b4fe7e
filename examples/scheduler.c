/* scheduler: how a scheduling loop uses libtco's placement pricing.
 *
 * A cluster of 24 pools (2 regions x 3 zones x 4 rack groups; owned,
 * reserved, on-demand and spot capacity), 3,000 pending jobs and 100
 * candidate placements for each, drawn from a fixed-seed generator so that
 * every run prints the same. All 300,000 candidates are priced in one
 * tco_placement_price_batch call; then each job, in turn, takes its
 * cheapest candidate that still fits the capacity left, and the total is
 * compared with first fit (each job takes its first candidate that fits).
 * An example of use, not a scheduler: doc/scheduling.md says how to build
 * one around these calls. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tco.h>

#define POOLS 24
#define JOBS 3000
#define CANDIDATES 100
#define PARTS 3 /* a candidate takes accelerators from 1 to 3 pools */

static uint64_t seed = 20250601;
static uint32_t draw(uint32_t below) /* xorshift64*: small, fixed, the same everywhere */
{
    seed ^= seed >> 12;
    seed ^= seed << 25;
    seed ^= seed >> 27;
    return (uint32_t)((seed * 0x2545f4914f6cdd1du) >> 33) % below;
}

static void check(int rc, const tco_error *err, const char *what)
{
    if (rc != TCO_OK) {
        fprintf(stderr, "scheduler: %s: %s (%s)\n", what, err->message, tco_status_name(rc));
        exit(1);
    }
}

/* The placement arrays (struct of arrays, as the batch call takes them). */
static tco_job jobs[JOBS];
static int32_t job_of[JOBS * CANDIDATES], pool_of[JOBS * CANDIDATES * PARTS], acc_of[JOBS * CANDIDATES * PARTS];
static double cost[JOBS * CANDIDATES], hours[JOBS * CANDIDATES];
static int32_t status[JOBS * CANDIDATES];

/* Does candidate c fit in what is left? If so, take it. */
static int take(int c, int32_t *left)
{
    for (int k = 0; k < PARTS && acc_of[c * PARTS + k]; k++)
        if (acc_of[c * PARTS + k] > left[pool_of[c * PARTS + k]])
            return 0;
    for (int k = 0; k < PARTS && acc_of[c * PARTS + k]; k++)
        left[pool_of[c * PARTS + k]] -= acc_of[c * PARTS + k];
    return 1;
}

/* Gives every job, in turn, its cheapest candidate that fits (cheapest) or
 * its first one that fits, and returns the total expected cost. */
static double schedule(const int32_t *free0, int cheapest, int *placed)
{
    int32_t left[POOLS];
    memcpy(left, free0, sizeof left);
    double total = 0;
    *placed = 0;
    for (int j = 0; j < JOBS; j++) {
        int best = -1;
        for (int c = j * CANDIDATES; c < (j + 1) * CANDIDATES; c++) {
            if (status[c] != TCO_OK) /* e.g. spot for a job that may not be interrupted */
                continue;
            if (!cheapest) {
                if (take(c, left)) {
                    best = c;
                    break;
                }
            } else if (best < 0 || cost[c] < cost[best]) {
                int32_t probe[POOLS];
                memcpy(probe, left, sizeof probe);
                if (take(c, probe))
                    best = c;
            }
        }
        if (best >= 0) {
            if (cheapest)
                take(best, left);
            total += cost[best];
            ++*placed;
        }
    }
    return total;
}

int main(void)
{
    tco_error err = TCO_ERROR_INIT;
    tco_topology *cluster;
    tco_pricing *prices;
    tco_pools *pools;
    /* The topology gives failure rates, restart time, checkpoint bandwidth
     * and the span slowdowns; the pricing table the data transfer prices. */
    check(tco_topology_new(&cluster, &err), &err, "topology");
    check(tco_topology_freeze(cluster, &err), &err, "topology");
    check(tco_pricing_new(&prices, &err), &err, "pricing");
    check(tco_pricing_freeze(prices, &err), &err, "pricing");

    /* Pools: per zone, an owned rack group, a reserved one, on-demand and spot. */
    static const double rate[] = { 1.4, 2.5, 4.0, 1.8 }; /* owned, reserved, on demand, spot */
    static const int32_t cls[] = { TCO_CLASS_OWNED, TCO_CLASS_RESERVED, TCO_CLASS_ON_DEMAND, TCO_CLASS_SPOT };
    int32_t free0[POOLS];
    check(tco_pools_new(&pools, &err), &err, "pools");
    for (int i = 0; i < POOLS; i++) {
        tco_pool p = { sizeof p, cls[i % 4], 8, 1024 + 256 * (int32_t)draw(16), i, i / 4, i / 12, rate[i % 4],
                       cls[i % 4] == TCO_CLASS_SPOT ? 0.02 : 0 };
        free0[i] = p.free_accelerators;
        check(tco_pools_add(pools, &p, NULL, &err), &err, "adding a pool");
    }
    check(tco_pools_freeze(pools, &err), &err, "pools");

    /* Jobs and their candidates. */
    static const int32_t sizes[] = { 1, 2, 4, 8, 8, 16, 16, 32, 64 };
    for (int j = 0; j < JOBS; j++) {
        /* one draw per statement: the order of draws in one expression is unspecified */
        tco_job *job = &jobs[j];
        job->size = sizeof *job;
        int32_t n = job->accelerators = sizes[draw(9)];
        job->interruptible = draw(10) < 4;               /* 40% may run on spot */
        job->duration_hours = 2 + draw(46);              /* 2 to 47 h at full locality */
        job->comm_share = draw(90) / 100.0;              /* 0 to 0.89 */
        job->checkpoint_bytes = n * 2e10;                /* 20 GB of state per accelerator */
        job->traffic_gb_per_accel_hour = 1 + draw(20);   /* 1 to 20 GB */
        job->delay_cost_per_hour = 0;                    /* every candidate starts now */
        for (int c = j * CANDIDATES; c < (j + 1) * CANDIDATES; c++) {
            int32_t parts = n >= 4 ? 1 + (int32_t)draw(PARTS) : 1, left = n, first = (int32_t)draw(POOLS);
            job_of[c] = j;
            for (int32_t k = 0; k < PARTS; k++) {
                int32_t a = k >= parts ? 0 : k == parts - 1 ? left : left / 2;
                int32_t step = k == 0 ? 0 : k == 1 ? 1 + (int32_t)draw(11) : 12 + (int32_t)draw(12);
                pool_of[c * PARTS + k] = (first + step) % POOLS; /* three different pools */
                acc_of[c * PARTS + k] = a;
                left -= a;
            }
        }
    }

    /* Every candidate priced in one call: no allocation, no lock. */
    tco_placement_batch batch = { sizeof batch, (size_t)JOBS * CANDIDATES, PARTS, job_of, pool_of, acc_of,
                                  NULL, NULL, NULL, NULL }; /* spans counted from the pools; all start now */
    check(tco_placement_price_batch(cost, hours, status, pools, cluster, prices, jobs, JOBS, &batch, &err), &err,
          "pricing the candidates");
    int refused = 0;
    for (int c = 0; c < JOBS * CANDIDATES; c++)
        refused += status[c] != TCO_OK;

    int placed_ff, placed_cheap;
    double first_fit = schedule(free0, 0, &placed_ff), cheapest = schedule(free0, 1, &placed_cheap);
    const char *currency;
    tco_pricing_get_text(prices, TCO_P_CURRENCY, &currency, NULL);
    printf("%d jobs, %d candidates priced; %d refused (here: spot capacity for a job that may not be interrupted)\n",
           JOBS, JOBS * CANDIDATES, refused);
    printf("first fit: %5d jobs placed, expected cost %12.0f %s (%.0f per job)\n", placed_ff, first_fit, currency,
           first_fit / placed_ff);
    printf("cheapest:  %5d jobs placed, expected cost %12.0f %s (%.0f per job)\n", placed_cheap, cheapest, currency,
           cheapest / placed_cheap);
    printf("per job placed, the cheapest fitting candidate costs %.1f%% less than the first\n",
           100 * (1 - (cheapest / placed_cheap) / (first_fit / placed_ff)));
    tco_pools_free(pools);
    tco_topology_free(cluster);
    tco_pricing_free(prices);
    return 0;
}
