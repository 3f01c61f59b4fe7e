/* What the black-box tests share: a relative-tolerance assertion and a
 * scenario of three handles with the checks every estimate must pass. */
#ifndef TCO_TEST_SUPPORT_H
#define TCO_TEST_SUPPORT_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <tco.h>

#define assert_rel(got, want, tol) check_rel(#got, (got), (want), (tol), __FILE__, __LINE__)

static inline void check_rel(const char *expr, double got, double want, double tol, const char *file, int line)
{
    double err = want == 0 ? fabs(got) : fabs(got - want) / fabs(want);
    if (!isfinite(got) || !(err <= tol)) {
        print_error("%s = %.17g, expected %.17g (relative error %.3g, allowed %.3g)\n", expr, got,
                    want, err, tol);
        _fail(file, line);
    }
}

typedef struct scen {
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
} scen;

#define ST(s, k, v) set_ok(tco_topology_set((s)->t, (k), (v), NULL), #k, __FILE__, __LINE__)
#define SW(s, k, v) set_ok(tco_workload_set((s)->w, (k), (v), NULL), #k, __FILE__, __LINE__)
#define SP(s, k, v) set_ok(tco_pricing_set((s)->p, (k), (v), NULL), #k, __FILE__, __LINE__)

static inline void set_ok(int rc, const char *what, const char *file, int line)
{
    if (rc != TCO_OK) {
        print_error("setting %s failed: %s\n", what, tco_status_name(rc));
        _fail(file, line);
    }
}

/* No shared service costs anything (database, logs and metrics, platform,
 * security, staff): what a test needs whose figures are the hardware's. */
static inline void scen_no_shared_services(scen *s)
{
    SW(s, TCO_P_DATABASE_INSTANCES, 0);
    SW(s, TCO_P_DATABASE_GB, 0);
    SW(s, TCO_P_LOG_BYTES_PER_ACCEL_HOUR, 0);
    SW(s, TCO_P_METRICS_PER_ACCELERATOR, 0);
    SP(s, TCO_P_PLATFORM_PER_NODE_MONTH, 0);
    SP(s, TCO_P_SECURITY_PER_NODE_MONTH, 0);
    SP(s, TCO_P_SECURITY_FIXED_PER_MONTH, 0);
    SP(s, TCO_P_STAFF_PER_FTE_YEAR, 0);
    SP(s, TCO_P_MIN_FTE, 0);
}

/* Three handles as the library makes them: every parameter at its default. */
static inline void scen_defaults(scen *s)
{
    assert_int_equal(tco_topology_new(&s->t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&s->w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&s->p, NULL), TCO_OK);
}

static inline void scen_free(scen *s)
{
    tco_topology_free(s->t);
    tco_workload_free(s->w);
    tco_pricing_free(s->p);
}

static inline void scen_freeze(scen *s)
{
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_topology_freeze(s->t, &err);
    if (rc == TCO_OK)
        rc = tco_workload_freeze(s->w, &err);
    if (rc == TCO_OK)
        rc = tco_pricing_freeze(s->p, &err);
    if (rc != TCO_OK)
        print_error("freeze: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
}

/* The invariants every estimate keeps: the total and the fixed total are
 * exactly (==) the sums of the categories in order, waste[] adds up to
 * cost[WASTE], nothing is negative, NaN or infinite. */
static inline void check_invariants(const tco_estimate *e)
{
    double sum = 0, fixed = 0;
    for (size_t c = 0; c < tco_category_count(); c++) {
        assert_true(isfinite(e->cost[c]));
        assert_true(e->cost[c] >= 0);
        sum += e->cost[c];
        fixed += e->fixed[c];
    }
    assert_true(e->total == sum);
    assert_true(e->fixed_total == fixed);
    for (size_t c = tco_category_count(); c < TCO_CATEGORY_SLOTS; c++)
        assert_true(e->cost[c] == 0 && e->fixed[c] == 0);
    double wsum = 0;
    for (size_t k = 0; k < tco_waste_count(); k++) {
        assert_true(e->waste[k] >= 0);
        wsum += e->waste[k];
    }
    assert_rel(wsum, e->cost[TCO_CAT_WASTE], 1e-9);
    const double *v = (const double *)((const char *)e + offsetof(tco_estimate, total));
    /* The doubles only: scenario_fingerprint, a uint64_t, ends the struct. */
    size_t count = (offsetof(tco_estimate, scenario_fingerprint) - offsetof(tco_estimate, total)) / sizeof(double);
    for (size_t i = 0; i < count; i++)
        if (!isfinite(v[i])) {
            print_error("field %zu of tco_estimate is %g\n", i, v[i]);
            fail();
        }
    /* and those of 1.1, from model_flops_per_token to flags (a uint64_t) */
    v = &e->model_flops_per_token;
    count = (offsetof(tco_estimate, flags) - offsetof(tco_estimate, model_flops_per_token)) / sizeof(double);
    for (size_t i = 0; i < count; i++)
        if (!isfinite(v[i]) || v[i] < 0) {
            print_error("field %zu of tco_estimate's 1.1 block is %g\n", i, v[i]);
            fail();
        }
}

static inline tco_estimate scen_run(scen *s)
{
    scen_freeze(s);
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_estimate_compute(&e, s->t, s->w, s->p, &err);
    if (rc != TCO_OK)
        print_error("estimate: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    check_invariants(&e);
    return e;
}

/* Freezes the scenario and checks that its estimate fails with code,
 * naming the parameter key; returns the error for more checks. */
static inline tco_error scen_refused(scen *s, int code, int32_t key)
{
    scen_freeze(s);
    tco_estimate e = { .size = sizeof e };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_estimate_compute(&e, s->t, s->w, s->p, &err), code);
    assert_int_equal(err.param, key);
    return err;
}

#endif
