/* Placement pricing on shared frozen handles from many threads: eight
 * threads price the same placements, one at a time and in batches, at the
 * same time, two of them also in a threaded batch of the placements twenty
 * times over (tco_placement_price_batch_mt on three threads of its own),
 * and each result must be exactly (memcmp) what one thread got alone. Also run under ThreadSanitizer by .ci/run. The worker threads
 * call nothing of cmocka: they count mismatches and the main thread
 * checks the counts. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <tco.h>

#define THREADS 8
#define ROUNDS 20
#define POOLS 32
#define JOBS 64
#define COUNT 2000
#define PARTS 3

static tco_pools *pools;
static tco_topology *topology;
static tco_pricing *pricing;
static tco_job jobs[JOBS];
static int32_t job_of[COUNT], pool_of[COUNT * PARTS], acc_of[COUNT * PARTS];
static double start_of[COUNT];
static tco_placement single[COUNT];
/* the placements TILES times over, for the threaded batch */
#define TILES 20
static int32_t tiled_job[TILES * COUNT], tiled_pool[TILES * COUNT * PARTS], tiled_acc[TILES * COUNT * PARTS];
static double tiled_start[TILES * COUNT];
/* what one thread got alone */
static tco_price want_price[COUNT];
static int want_rc[COUNT];
static double want_cost[COUNT], want_hours[COUNT];
static int32_t want_status[COUNT];

static uint64_t rng = 0x3c6ef372fe94f82au;
static uint32_t next(uint32_t below)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545f4914f6cdd1du) >> 33) % below;
}

static tco_placement_batch batch_of(void)
{
    tco_placement_batch b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = COUNT;
    b.max_parts = PARTS;
    b.job = job_of;
    b.pool = pool_of;
    b.accelerators = acc_of;
    b.start_hours = start_of;
    return b;
}

/* The threaded batch of the tiled placements into the outputs of thread
 * id (0 or 1): the mismatches with what one thread got alone. */
static long threaded_batch(long id)
{
    static double cost[2][TILES * COUNT], hours[2][TILES * COUNT];
    static int32_t status[2][TILES * COUNT];
    tco_placement_batch b = batch_of();
    b.count = TILES * COUNT;
    b.job = tiled_job;
    b.pool = tiled_pool;
    b.accelerators = tiled_acc;
    b.start_hours = tiled_start;
    if (tco_placement_price_batch_mt(cost[id], hours[id], status[id], pools, topology, pricing, jobs, JOBS, &b, 3,
                                     NULL) != TCO_OK)
        return 1;
    long mismatches = 0;
    for (int k = 0; k < TILES; k++)
        mismatches += memcmp(cost[id] + k * COUNT, want_cost, sizeof want_cost) != 0 ||
                      memcmp(hours[id] + k * COUNT, want_hours, sizeof want_hours) != 0 ||
                      memcmp(status[id] + k * COUNT, want_status, sizeof want_status) != 0;
    return mismatches;
}

static void *worker(void *arg)
{
    long mismatches = 0;
    long id = (long)(intptr_t)arg;
    /* each thread its own outputs; the inputs and handles are shared */
    static double cost[THREADS][COUNT], hours[THREADS][COUNT];
    static int32_t status[THREADS][COUNT];
    tco_placement_batch b = batch_of();
    for (int r = 0; r < ROUNDS; r++) {
        if (id < 2 && r % 4 == 0)
            mismatches += threaded_batch(id);
        if (tco_placement_price_batch(cost[id], hours[id], status[id], pools, topology, pricing, jobs, JOBS, &b,
                                      NULL) != TCO_OK ||
            memcmp(cost[id], want_cost, sizeof want_cost) != 0 ||
            memcmp(hours[id], want_hours, sizeof want_hours) != 0 ||
            memcmp(status[id], want_status, sizeof want_status) != 0)
            mismatches++;
        /* the single form, from a different starting point in each thread */
        for (int k = 0; k < COUNT; k++) {
            int i = (int)((k + id * 251) % COUNT);
            tco_price p;
            memset(&p, 0, sizeof p);
            p.size = sizeof p;
            tco_error err = TCO_ERROR_INIT;
            int rc = tco_placement_price(&p, pools, topology, pricing, &jobs[job_of[i]], &single[i], &err);
            if (rc != want_rc[i] || (rc == TCO_OK && memcmp(&p, &want_price[i], sizeof p) != 0))
                mismatches++;
        }
    }
    return (void *)mismatches;
}

static void test_shared_handles(void **state)
{
    (void)state;
    assert_int_equal(tco_pools_new(&pools, NULL), TCO_OK);
    for (int i = 0; i < POOLS; i++) {
        tco_pool p;
        memset(&p, 0, sizeof p);
        p.size = sizeof p;
        p.price_class = i % 4;
        p.accelerators_per_node = i % 3 ? 8 : 4;
        p.free_accelerators = 32 + (int32_t)next(96);
        p.rack = i;
        p.zone = i / 4;
        p.region = i / 16;
        p.rate_per_accel_hour = 1 + next(300) / 100.0;
        p.interruptions_per_node_hour = p.price_class == TCO_CLASS_SPOT ? 0.005 + next(100) / 4000.0 : 0;
        assert_int_equal(tco_pools_add(pools, &p, NULL, NULL), TCO_OK);
    }
    assert_int_equal(tco_pools_freeze(pools, NULL), TCO_OK);
    assert_int_equal(tco_topology_new(&topology, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(topology, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&pricing, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(pricing, NULL), TCO_OK);
    for (int j = 0; j < JOBS; j++) {
        tco_job *jb = &jobs[j];
        memset(jb, 0, sizeof *jb);
        jb->size = sizeof *jb;
        jb->accelerators = 1 + (int32_t)next(64);
        jb->interruptible = (int32_t)next(2);
        jb->duration_hours = 1 + next(100);
        jb->comm_share = next(101) / 100.0;
        jb->checkpoint_bytes = next(5) ? 1e9 * (1 + next(500)) : 0;
        jb->traffic_gb_per_accel_hour = next(10);
        jb->delay_cost_per_hour = next(50);
    }
    /* placements of 1 to 3 parts; some fail (spot for a job that may not
     * be interrupted, more than a pool has free) */
    for (int i = 0; i < COUNT; i++) {
        int32_t j = (int32_t)next(JOBS), n = jobs[j].accelerators;
        int32_t parts = n >= 3 ? 1 + (int32_t)next(3) : 1, left = n;
        job_of[i] = j;
        for (int32_t k = 0; k < PARTS; k++) {
            pool_of[i * PARTS + k] = (int32_t)((i + k * 7) % POOLS);
            int32_t a = k < parts ? (k == parts - 1 ? left : 1 + (int32_t)next((uint32_t)(left - (parts - 1 - k)))) : 0;
            acc_of[i * PARTS + k] = a;
            left -= a;
        }
        start_of[i] = next(12);
        tco_placement *pl = &single[i];
        memset(pl, 0, sizeof *pl);
        pl->size = sizeof *pl;
        pl->parts = parts;
        for (int32_t k = 0; k < parts; k++) {
            pl->pool[k] = pool_of[i * PARTS + k];
            pl->accelerators[k] = acc_of[i * PARTS + k];
        }
        pl->start_hours = start_of[i];
    }
    int ok = 0;
    for (int i = 0; i < COUNT; i++) {
        memset(&want_price[i], 0, sizeof want_price[i]);
        want_price[i].size = sizeof want_price[i];
        want_rc[i] = tco_placement_price(&want_price[i], pools, topology, pricing, &jobs[job_of[i]], &single[i], NULL);
        ok += want_rc[i] == TCO_OK;
    }
    tco_placement_batch b = batch_of();
    assert_int_equal(tco_placement_price_batch(want_cost, want_hours, want_status, pools, topology, pricing, jobs,
                                               JOBS, &b, NULL),
                     TCO_OK);
    for (int i = 0; i < COUNT; i++) {
        assert_int_equal(want_status[i], want_rc[i]);
        if (want_rc[i] == TCO_OK)
            assert_memory_equal(&want_cost[i], &want_price[i].cost, sizeof(double));
    }
    assert_true(ok > COUNT / 2 && ok < COUNT); /* both kinds */
    for (int k = 0; k < TILES; k++) {
        memcpy(tiled_job + k * COUNT, job_of, sizeof job_of);
        memcpy(tiled_pool + k * COUNT * PARTS, pool_of, sizeof pool_of);
        memcpy(tiled_acc + k * COUNT * PARTS, acc_of, sizeof acc_of);
        memcpy(tiled_start + k * COUNT, start_of, sizeof start_of);
    }

    pthread_t threads[THREADS];
    for (long i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&threads[i], NULL, worker, (void *)(intptr_t)i), 0);
    for (int i = 0; i < THREADS; i++) {
        void *mismatches;
        assert_int_equal(pthread_join(threads[i], &mismatches), 0);
        assert_int_equal((long)mismatches, 0);
    }
    tco_pools_free(pools);
    tco_topology_free(topology);
    tco_pricing_free(pricing);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_handles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
