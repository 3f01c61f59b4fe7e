/* Benchmark of tco_attribute. Target: 1,000,000 records with 5 tag keys
 * of 1,000 values each, grouped by one key, in under 0.5 s on one core.
 *
 * The records are generated with a fixed seed: windows of 1 to 48 hours
 * over 35 days around a 30-day period (some straddle its ends, some fall
 * outside), 1 to 64 accelerators, every price class, storage and traffic,
 * and five tags each (team, user, project, partition, job_id), 40 MB of
 * tag pairs beside 104 MB of records. Timed: the attribution by team
 * (1,000 groups, with the job_id overlap check), and by (team, user), whose
 * pairs make some 600,000 groups.
 *
 * Also timed on the attribution by team: the waste finder (defaults, and a
 * 24-hour maximum runtime so that overruns are found too) and the FOCUS
 * export of its groups.
 *
 * The baseline is one pass over the same records that sums their held
 * accelerator-hours and reads their tag pairs: the memory traffic and the
 * loop alone, the bound no attribution can beat. attribute / baseline
 * says how far it runs from it.
 *
 * The process is pinned to the processor it starts on (Linux). Each figure
 * is the median of ROUNDS rounds. Exits 1 only when a call fails: speed is
 * reported, never asserted. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sched.h>
#endif

#include <tco.h>

#include "bench.h"

#define ROUNDS 7
#define COUNT 1000000
#define KEYS 5
#define VALUES 1000
#define T0 1700000000.0
#define DAY 86400.0

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t next(uint32_t below) /* xorshift64*, fixed seed */
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545f4914f6cdd1du) >> 33) % below;
}

static tco_record records[COUNT];
static uint32_t pairs[2 * KEYS * COUNT];

/* The baseline: what any attribution must at least do, read every record
 * and its tags once. */
static double baseline(uint32_t *check)
{
    double held = 0;
    uint32_t x = 0;
    for (size_t i = 0; i < COUNT; i++) {
        const tco_record *r = &records[i];
        held += r->accelerators * (r->end - r->start) / 3600;
        const uint32_t *p = pairs + 2 * (size_t)r->first_tag;
        for (uint32_t k = 0; k < r->tag_count; k++)
            x ^= p[2 * k + 1];
    }
    *check = x;
    return held;
}

static double time_attribute(const tco_attribution_request *q, const tco_tags *tags, const tco_topology *t,
                             const tco_workload *w, const tco_pricing *p, size_t *groups)
{
    tco_attribution *a;
    tco_error err = TCO_ERROR_INIT;
    double t0 = now();
    if (tco_attribute(&a, records, COUNT, pairs, (size_t)KEYS * COUNT, tags, q, t, w, p, &err)) {
        fprintf(stderr, "tco_attribute: %s\n", err.message);
        exit(1);
    }
    double t1 = now();
    *groups = tco_attribution_group_count(a);
    tco_attribution_free(a);
    return t1 - t0;
}

int main(void)
{
#if defined(__linux__)
    cpu_set_t here;
    CPU_ZERO(&here);
    int cpu = sched_getcpu();
    if (cpu >= 0) {
        CPU_SET(cpu, &here);
        sched_setaffinity(0, sizeof here, &here);
    }
#endif
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    tco_tags *tags;
    if (tco_topology_new(&t, NULL) || tco_topology_set(t, TCO_P_ACCELERATORS, 65536, NULL) ||
        tco_topology_set(t, TCO_P_SWITCH_RADIX, 128, NULL) || tco_topology_set(t, TCO_P_RESERVED_SHARE, 0.5, NULL) ||
        tco_topology_set(t, TCO_P_OWNED_SHARE, 0.25, NULL) || tco_topology_freeze(t, NULL) ||
        tco_workload_new(&w, NULL) || tco_workload_freeze(w, NULL) || tco_pricing_new(&p, NULL) ||
        /* the records include spot hours, which the H100's list prices lack */
        tco_pricing_set(p, TCO_P_SPOT_PER_ACCEL_HOUR, 2, NULL) || tco_pricing_freeze(p, NULL) ||
        tco_tags_new(&tags, NULL))
        return 1;

    const char *names[KEYS] = { "team", "user", "project", "partition", "job_id" };
    uint32_t key[KEYS], value[KEYS][VALUES];
    char text[32];
    for (int k = 0; k < KEYS; k++) {
        if (tco_tags_intern(tags, names[k], strlen(names[k]), &key[k], NULL))
            return 1;
        for (int v = 0; v < VALUES; v++) {
            int len = snprintf(text, sizeof text, "%s-%d", names[k], v);
            if (tco_tags_intern(tags, text, (size_t)len, &value[k][v], NULL))
                return 1;
        }
    }
    for (size_t i = 0; i < COUNT; i++) {
        tco_record *r = &records[i];
        memset(r, 0, sizeof *r);
        r->size = sizeof *r;
        r->start = T0 - 2 * DAY + next(35 * 24 * 60) * 60.0;
        r->end = r->start + (1 + next(48 * 60)) * 60.0;
        r->accelerators = 1 + next(64);
        r->utilisation = next(4) ? next(1001) / 1000.0 : -1;
        r->price_class = (int32_t)next(4);
        r->state = (int32_t)next(4);
        r->storage_gb_hours[next(3)] = next(100000);
        r->traffic_gb[next(3)] = next(1000);
        r->first_tag = (uint32_t)(KEYS * i);
        r->tag_count = KEYS;
        for (int k = 0; k < KEYS; k++) {
            pairs[2 * (KEYS * i + k)] = key[k];
            pairs[2 * (KEYS * i + k) + 1] = value[k][next(VALUES)];
        }
    }

    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = T0;
    q.period_end = T0 + 30 * DAY;
    q.by_key[0] = key[0];
    q.by_count = 1;
    q.idle_rule = TCO_SPREAD_USAGE;
    q.shared_rule = TCO_SPREAD_EVEN;

    double base[ROUNDS], one[ROUNDS], two[ROUNDS];
    uint32_t check = 0;
    double held = 0;
    size_t groups_one = 0, groups_two = 0;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        held += baseline(&check);
        base[r] = now() - t0;
        one[r] = time_attribute(&q, tags, t, w, p, &groups_one);
    }
    q.by_count = 2;
    q.by_key[1] = key[1];
    for (int r = 0; r < ROUNDS; r++)
        two[r] = time_attribute(&q, tags, t, w, p, &groups_two);

    /* The waste finder and the FOCUS rows, on the attribution by team. */
    q.by_count = 1;
    tco_attribution *a;
    if (tco_attribute(&a, records, COUNT, pairs, (size_t)KEYS * COUNT, tags, &q, t, w, p, NULL))
        return 1;
    tco_waste_request wq;
    tco_waste_request_init(&wq);
    wq.max_runtime_hours = 24;
    double waste[ROUNDS], focus[ROUNDS];
    size_t findings = 0, bytes = 0;
    for (int r = 0; r < ROUNDS; r++) {
        tco_findings *f;
        double t0 = now();
        if (tco_find_waste(&f, a, records, COUNT, pairs, (size_t)KEYS * COUNT, tags, &wq, NULL))
            return 1;
        waste[r] = now() - t0;
        findings = tco_findings_count(f);
        tco_findings_free(f);
        t0 = now();
        if (tco_attribution_focus_csv(a, tags, NULL, NULL, 0, &bytes, NULL))
            return 1;
        focus[r] = now() - t0;
    }
    tco_attribution_free(a);

    double b = median(base, ROUNDS), a1 = median(one, ROUNDS), a2 = median(two, ROUNDS);
    double wm = median(waste, ROUNDS), fm = median(focus, ROUNDS);
    printf("attribution of %d records, %d tag keys of %d values, one core, median of %d rounds\n", COUNT, KEYS,
           VALUES, ROUNDS);
    printf("  baseline (sum held hours, read tags) %8.1f ms   (checksum %.6g, %u)\n", b * 1e3, held / ROUNDS,
           (unsigned)check);
    printf("  tco_attribute by team (%zu groups)   %8.1f ms   %5.1f x baseline   target < 500 ms\n", groups_one,
           a1 * 1e3, a1 / b);
    printf("  tco_attribute by (team, user) (%zu groups) %8.1f ms   %5.1f x baseline\n", groups_two, a2 * 1e3, a2 / b);
    printf("  tco_find_waste (%zu findings)     %8.1f ms   %5.1f x baseline\n", findings, wm * 1e3, wm / b);
    printf("  tco_attribution_focus_csv (%zu bytes) %8.1f ms\n", bytes, fm * 1e3);
    tco_tags_free(tags);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return 0;
}
