/* Frozen handles are shared by threads: eight threads price the same
 * scenarios at once and must get exactly what one thread gets. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <tco.h>

#define THREADS 8
#define ROUNDS 200

static tco_topology *topologies[2];
static tco_workload *workload;
static tco_pricing *pricing;
static tco_estimate expected[2];

static void *worker(void *arg)
{
    long mismatches = 0;
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        tco_estimate e = { .size = sizeof e };
        int which = r % 2;
        if (tco_estimate_compute(&e, topologies[which], workload, pricing, NULL) != TCO_OK ||
            memcmp(&e, &expected[which], sizeof e) != 0)
            mismatches++;
    }
    return (void *)mismatches;
}

static void test_shared_frozen_handles(void **state)
{
    (void)state;
    assert_int_equal(tco_topology_new(&topologies[0], NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(topologies[0], NULL), TCO_OK);
    assert_int_equal(tco_topology_clone(&topologies[1], topologies[0], NULL), TCO_OK);
    assert_int_equal(tco_topology_set(topologies[1], TCO_P_OWNED_SHARE, 0.5, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(topologies[1], NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&workload, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(workload, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&pricing, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(pricing, NULL), TCO_OK);
    for (int i = 0; i < 2; i++) {
        memset(&expected[i], 0, sizeof expected[i]);
        expected[i].size = sizeof expected[i];
        assert_int_equal(tco_estimate_compute(&expected[i], topologies[i], workload, pricing, NULL), TCO_OK);
    }
    assert_true(expected[0].total != expected[1].total);

    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&threads[i], NULL, worker, NULL), 0);
    for (int i = 0; i < THREADS; i++) {
        void *mismatches;
        assert_int_equal(pthread_join(threads[i], &mismatches), 0);
        assert_int_equal((long)mismatches, 0);
    }
    tco_topology_free(topologies[0]);
    tco_topology_free(topologies[1]);
    tco_workload_free(workload);
    tco_pricing_free(pricing);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_frozen_handles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
