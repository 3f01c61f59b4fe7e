/* The estimate and the lifetime view allocate nothing: counted, not assumed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <tco.h>

#include "alloc_count.h"

static void test_estimate_allocates_nothing(void **state)
{
    (void)state;
    if (!alloc_counting())
        skip();
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    size_t before = allocations;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_true(allocations > before); /* the counter sees the library */
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(p, NULL), TCO_OK);
    tco_estimate e = { .size = sizeof e };
    tco_error err = TCO_ERROR_INIT;
    before = allocations;
    for (int i = 0; i < 100; i++)
        assert_int_equal(tco_estimate_compute(&e, t, w, p, &err), TCO_OK);
    /* error paths too */
    e.size = 1;
    assert_int_equal(tco_estimate_compute(&e, t, w, p, &err), TCO_E_SIZE);
    /* Ten years of the cluster, refreshed, and a refused request. */
    tco_lifetime life = { .size = sizeof life };
    tco_lifetime_year years[10];
    tco_lifetime_request q;
    tco_lifetime_request_init(&q);
    q.years = 10;
    q.refresh_year = 4;
    for (int i = 0; i < 100; i++)
        assert_int_equal(tco_lifetime_compute(&life, years, sizeof years[0], 10, &q, t, w, p, &err), TCO_OK);
    q.refresh_year = 10;
    assert_int_equal(tco_lifetime_compute(&life, years, sizeof years[0], 10, &q, t, w, p, &err), TCO_E_RANGE);
    assert_int_equal(allocations, before);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimate_allocates_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
