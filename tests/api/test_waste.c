/* Black-box tests of tco_find_waste (tco.h only): the waste in priced
 * records (doc/model.md, section 17).
 *
 * One hand-worked month: a rented cluster at an on-demand rate of 2 cur
 * per accelerator-hour and hot storage at 0.7305 cur per GB-month (0.001
 * per GB-hour, the library's month being 730.5 hours), no shared services;
 * a record for every kind of finding and one just beside each threshold
 * that must not be found. Every figure is worked out in the comments from
 * the definitions, never read back from the library. */
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

#define T0 1767225600.0 /* 2026-01-01T00:00:00Z */
#define H 3600.0
#define RATE 2.0        /* cur per accelerator-hour, on demand */
#define GBH 0.001       /* cur per GB-hour, hot */

static void scen_make(scen *s)
{
    scen_defaults(s);
    ST(s, TCO_P_ACCELERATORS, 16);
    ST(s, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(s, TCO_P_OWNED_SHARE, 0);
    ST(s, TCO_P_RESERVED_SHARE, 0);
    ST(s, TCO_P_SPOT_SHARE, 0);
    SW(s, TCO_P_JOB_ACCELERATORS, 0);
    scen_no_shared_services(s);
    SP(s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, RATE);
    SP(s, TCO_P_RESERVED_PER_ACCEL_HOUR, 1.5);
    SP(s, TCO_P_SPOT_PER_ACCEL_HOUR, 1);
    SP(s, TCO_P_STORAGE_HOT_PER_GB_MONTH, GBH * 730.5);
    SP(s, TCO_P_STORAGE_WARM_PER_GB_MONTH, GBH * 730.5); /* every tier alike: a record's size is */
    SP(s, TCO_P_STORAGE_COLD_PER_GB_MONTH, GBH * 730.5); /* its GB in all three */
    scen_freeze(s);
}

/* Records and their tags, built as a reader would. */
typedef struct set {
    tco_tags *tags;
    tco_record r[32];
    uint32_t pair[2 * 256];
    size_t n, pairs;
} set;

static uint32_t id_of(set *s, const char *text)
{
    uint32_t id;
    assert_int_equal(tco_tags_intern(s->tags, text, strlen(text), &id, NULL), TCO_OK);
    return id;
}

/* A record from from_h to to_h hours after T0; tags as "key=value" texts
 * separated by spaces. */
static size_t add(set *s, double from_h, double to_h, double acc, double util, int32_t state, double gb,
                  const char *tags)
{
    tco_record *r = &s->r[s->n];
    memset(r, 0, sizeof *r);
    r->size = sizeof *r;
    r->start = T0 + from_h * H;
    r->end = T0 + to_h * H;
    r->accelerators = acc;
    r->utilisation = util;
    r->price_class = TCO_CLASS_ON_DEMAND;
    r->state = state;
    r->storage_gb_hours[TCO_TIER_HOT] = gb * (to_h - from_h);
    r->first_tag = (uint32_t)s->pairs;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", tags);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        *eq = 0;
        s->pair[2 * s->pairs] = id_of(s, tok);
        s->pair[2 * s->pairs + 1] = id_of(s, eq + 1);
        s->pairs++;
        r->tag_count++;
    }
    return s->n++;
}

/* The month of the header comment (240 hours: ten days). */
static void month(set *s)
{
    memset(s, 0, sizeof *s);
    assert_int_equal(tco_tags_new(&s->tags, NULL), TCO_OK);
    id_of(s, "team"); /* key 0: the attribution's grouping */
    add(s, 0, 10, 8, 0.02, TCO_JOB_COMPLETED, 0, "team=a job_name=idle user=ana");       /* 0 */
    add(s, 10, 20, 8, 0.25, TCO_JOB_COMPLETED, 0, "team=a job_name=big user=ana");       /* 1 */
    add(s, 20, 20.5, 8, 0.01, TCO_JOB_COMPLETED, 0, "team=a job_name=short user=ana");   /* 2 */
    add(s, 30, 40, 8, -1, TCO_JOB_FAILED, 0, "team=b job_name=train user=ana");          /* 3 */
    add(s, 41, 51, 8, -1, TCO_JOB_COMPLETED, 0, "team=b job_name=train user=ana");       /* 4 */
    add(s, 60, 61, 1, -1, TCO_JOB_FAILED, 0, "team=b job_name=eval user=ana");           /* 5 */
    add(s, 100, 101, 1, -1, TCO_JOB_COMPLETED, 0, "team=b job_name=eval user=ana");      /* 6 */
    add(s, 0, 2, 2, -1, TCO_JOB_FAILED, 0, "team=c job_name=sweep user=bo");             /* 7 */
    add(s, 1, 3, 2, -1, TCO_JOB_COMPLETED, 0, "team=c job_name=sweep user=bo");          /* 8 */
    add(s, 120, 130, 4, -1, TCO_JOB_COMPLETED, 0, "team=c deadline=2026-01-06T05:00:00Z"); /* 9 */
    add(s, 0, 240, 0, -1, TCO_JOB_COMPLETED, 100, "team=c project=p1 kind=checkpoint fingerprint=f1"); /* 10 */
    add(s, 48, 240, 0, -1, TCO_JOB_COMPLETED, 100, "team=c project=p1 kind=checkpoint fingerprint=f1"); /* 11 */
    add(s, 0, 240, 0, -1, TCO_JOB_COMPLETED, 50, "team=d project=p2 kind=dataset name=web");  /* 12 */
    add(s, 0, 24, 1, -1, TCO_JOB_COMPLETED, 0, "team=d project=p2");                      /* 13 */
}

static void set_free(set *s)
{
    tco_tags_free(s->tags);
}

static tco_attribution *attribute(const set *s, const scen *sc)
{
    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = T0;
    q.period_end = T0 + 240 * H;
    q.by_key[0] = 0;
    q.by_count = 1;
    q.idle_rule = TCO_SPREAD_USAGE;
    q.shared_rule = TCO_SPREAD_USAGE;
    tco_attribution *a = NULL;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_attribute(&a, s->r, s->n, s->pair, s->pairs, s->tags, &q, sc->t, sc->w, sc->p, &err);
    if (rc)
        fail_msg("%s", err.message);
    return a;
}

static tco_finding at(const tco_findings *f, size_t i)
{
    tco_finding x;
    memset(&x, 0, sizeof x);
    x.size = sizeof x;
    assert_int_equal(tco_findings_at(&x, f, i, NULL), TCO_OK);
    return x;
}

static void near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.17g, want %.17g (tolerance %g)", got, want, tol);
}

/* The hand-worked month, finding by finding, largest first. */
static void test_month(void **state)
{
    (void)state;
    scen sc;
    set s;
    scen_make(&sc);
    month(&s);
    tco_attribution *a = attribute(&s, &sc);
    tco_waste_request q;
    tco_waste_request_init(&q);
    q.retention_days = 5;
    q.orphan_days = 2;
    tco_findings *f = NULL;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, &err);
    if (rc)
        fail_msg("%s", err.message);

    /* Held: 80 + 80 + 4 + 80 + 80 + 1 + 1 + 4 + 4 + 40 + 24 = 398
     * accelerator-hours of the 16 x 240 = 3840: 3442 idle at the on-demand
     * rate, 6884 cur (the bill's idle line, to the cent). */
    tco_bill b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    assert_int_equal(tco_attribution_bill(&b, a, NULL), TCO_OK);
    near(b.held_accelerator_hours, 398, 1e-9);
    struct {
        int32_t kind;
        uint32_t record, other;
        double cost, since_h, until_h, accel_h, gb;
    } want[] = {
        /* the cluster's idle capacity: 3442 h x 2 */
        { TCO_FINDING_IDLE_CAPACITY, UINT32_MAX, UINT32_MAX, 6884, 0, 240, 3442, 0 },
        /* 3: failed, run again an hour after: its 80 h x 2 */
        { TCO_FINDING_RERUN, 3, 4, 160, 30, 40, 80, 0 },
        /* 0: 2% used for 10 h: 160 x 0.98 */
        { TCO_FINDING_IDLE_HELD, 0, UINT32_MAX, 156.8, 0, 10, 78.4, 0 },
        /* 1: 25% used, half the 50% threshold: 160 x (1 - 0.25 / 0.5) */
        { TCO_FINDING_OVERSIZED, 1, UINT32_MAX, 80, 10, 20, 40, 0 },
        /* 9: deadline 05:00 on the 6th, 125 h in: 5 h x 4 x 2 */
        { TCO_FINDING_OVERRUN, 9, UINT32_MAX, 40, 125, 130, 20, 0 },
        /* 11: a copy of 10 (fingerprint f1) for its whole 192 h: 100 GB x
         * 192 h x 0.001 (its retention finding, 72 h past 5 days: 7.2, is
         * the smaller) */
        { TCO_FINDING_DUPLICATE, 11, 10, 19.2, 48, 240, 0, 100 },
        /* 10: kept 120 h past 5 days: 100 GB x 120 h x 0.001 */
        { TCO_FINDING_RETAINED, 10, UINT32_MAX, 12, 120, 240, 0, 100 },
        /* 12: p2's jobs ended at 24 h; 2 days later its dataset is orphaned
         * for 168 h: 50 x 168 x 0.001 (past retention, 120 h: 6) */
        { TCO_FINDING_ORPHANED, 12, UINT32_MAX, 8.4, 72, 240, 0, 50 },
        /* 2: 1% used but for half an hour, below idle_hours: over-sized,
         * 8 h x 2 x (1 - 0.01 / 0.5) */
        { TCO_FINDING_OVERSIZED, 2, UINT32_MAX, 15.68 * 0.5, 20, 20.5, 3.92, 0 },
    };
    size_t n = sizeof want / sizeof want[0];
    /* Not found: 5 (run again 39 h later, past 24), 7 (its namesake 8
     * started before it ended: an array's task, not a rerun), 13 and 4, 6, 8
     * (nothing wasted). */
    assert_int_equal(tco_findings_count(f), n);
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        tco_finding x = at(f, i);
        if (x.kind != want[i].kind || x.record != want[i].record)
            fail_msg("finding %zu: %s of record %u, want %s of %u", i, tco_finding_kind_name(x.kind),
                     (unsigned)x.record, tco_finding_kind_name(want[i].kind), (unsigned)want[i].record);
        assert_int_equal(x.other, want[i].other);
        near(x.cost, want[i].cost, 1e-9 * want[i].cost);
        near(x.since, T0 + want[i].since_h * H, 1e-6);
        near(x.until, T0 + want[i].until_h * H, 1e-6);
        near(x.accelerator_hours, want[i].accel_h, 1e-9);
        near(x.gb, want[i].gb, 1e-9);
        near(x.per_day, x.cost * 24 / (want[i].until_h - want[i].since_h), 1e-9 * x.cost);
        total += x.cost;
    }
    near(tco_findings_total(f), total, 1e-9 * total);
    near(at(f, 0).cost, (double)b.idle / 100, 0.006);
    /* The group of a finding is its record's, in the bill's order. */
    tco_finding x = at(f, 1);
    tco_group g;
    memset(&g, 0, sizeof g);
    g.size = sizeof g;
    assert_int_equal(tco_attribution_group_at(&g, a, x.group, NULL), TCO_OK);
    uint32_t team_b;
    assert_int_equal(tco_tags_find(s.tags, "b", 1, &team_b, NULL), TCO_OK);
    assert_int_equal(g.value[0], team_b);

    tco_findings_free(f);
    tco_attribution_free(a);
    set_free(&s);
    scen_free(&sc);
}

/* Thresholds at 0 turn findings off; a maximum runtime finds overruns. */
static void test_thresholds(void **state)
{
    (void)state;
    scen sc;
    set s;
    scen_make(&sc);
    month(&s);
    tco_attribution *a = attribute(&s, &sc);
    tco_waste_request q;
    tco_waste_request_init(&q);
    q.rerun_hours = 0;
    q.retention_days = 0;
    q.orphan_days = 0;
    q.max_runtime_hours = 9; /* 0, 1, 3, 4 run 10 h; 9 too, its deadline is earlier */
    tco_findings *f = NULL;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, NULL), TCO_OK);
    int seen[16] = { 0 };
    for (size_t i = 0; i < tco_findings_count(f); i++) {
        tco_finding x = at(f, i);
        assert_true(x.kind != TCO_FINDING_RERUN && x.kind != TCO_FINDING_RETAINED && x.kind != TCO_FINDING_ORPHANED);
        if (x.record != UINT32_MAX)
            seen[x.record] = x.kind;
    }
    /* 0: idle 156.8 beats its last hour, 16; 1: over-sized 80 beats 16;
     * 3, 4: the hour past 9 h, 8 x 2 = 16; 9: its deadline, 40; 11: still
     * a copy. */
    assert_int_equal(seen[0], TCO_FINDING_IDLE_HELD);
    assert_int_equal(seen[1], TCO_FINDING_OVERSIZED);
    assert_int_equal(seen[3], TCO_FINDING_OVERRUN);
    assert_int_equal(seen[4], TCO_FINDING_OVERRUN);
    assert_int_equal(seen[9], TCO_FINDING_OVERRUN);
    assert_int_equal(seen[11], TCO_FINDING_DUPLICATE);
    assert_int_equal(seen[10], 0);
    for (size_t i = 0; i < tco_findings_count(f); i++) {
        tco_finding x = at(f, i);
        if (x.record == 3)
            near(x.cost, 16, 1e-9);
        if (x.record == 9)
            near(x.cost, 40, 1e-9);
    }
    tco_findings_free(f);
    tco_attribution_free(a);
    set_free(&s);
    scen_free(&sc);
}

/* Bad input: an error that names it, and nothing made. */
static void test_errors(void **state)
{
    (void)state;
    scen sc;
    set s;
    scen_make(&sc);
    month(&s);
    tco_attribution *a = attribute(&s, &sc);
    tco_findings *f = (tco_findings *)&s; /* must stay untouched */
    tco_error err = TCO_ERROR_INIT;
    tco_waste_request q;

    tco_waste_request_init(&q);
    q.idle_hours = -1;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "request.idle_hours");
    tco_waste_request_init(&q);
    q.oversized_utilisation = 0.01; /* below idle_utilisation */
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "request.oversized_utilisation");
    tco_waste_request_init(&q);
    q.retention_days = NAN;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, &err), TCO_E_NOT_FINITE);
    tco_waste_request_init(&q);
    q.size = 8;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, &err), TCO_E_SIZE);
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n - 1, s.pair, s.pairs, s.tags, NULL, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "n");
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, 3, s.tags, NULL, &err), TCO_E_INDEX);
    assert_int_equal(tco_find_waste(NULL, a, s.r, s.n, s.pair, s.pairs, s.tags, NULL, &err), TCO_E_NULL);
    assert_int_equal(tco_find_waste(&f, NULL, s.r, s.n, s.pair, s.pairs, s.tags, NULL, &err), TCO_E_NULL);
    assert_int_equal(tco_find_waste(&f, a, NULL, s.n, s.pair, s.pairs, s.tags, NULL, &err), TCO_E_NULL);
    s.r[3].end = s.r[3].start - 1;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, NULL, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "records[3].end");
    assert_ptr_equal(f, (tco_findings *)&s);

    /* The defaults (request NULL) work; reading past the end fails. */
    s.r[3].end = s.r[3].start + 10 * H;
    f = NULL;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, NULL, &err), TCO_OK);
    tco_finding x;
    memset(&x, 0, sizeof x);
    x.size = sizeof x;
    assert_int_equal(tco_findings_at(&x, f, tco_findings_count(f), &err), TCO_E_INDEX);
    x.size = 4;
    assert_int_equal(tco_findings_at(&x, f, 0, &err), TCO_E_SIZE);
    tco_findings_free(f);
    tco_attribution_free(a);
    set_free(&s);
    scen_free(&sc);
}

/* More refusals, each naming what it refuses, *out untouched: every
 * threshold above its range, NULL tags or pairs, records of a stride this
 * library cannot step, outside the years allowed, or naming a tag past
 * the table; the findings' own accessors. */
static void test_errors_more(void **state)
{
    (void)state;
    scen sc;
    set s;
    scen_make(&sc);
    month(&s);
    tco_attribution *a = attribute(&s, &sc);
    tco_findings *f = (tco_findings *)&s; /* must stay untouched */
    tco_error err = TCO_ERROR_INIT;
    tco_waste_request q;
    const struct {
        size_t offset;
        double value;
        const char *name;
    } above[] = {
        { offsetof(tco_waste_request, idle_utilisation), 1.5, "request.idle_utilisation" },
        { offsetof(tco_waste_request, idle_hours), 2e6, "request.idle_hours" },
        { offsetof(tco_waste_request, oversized_utilisation), 1.5, "request.oversized_utilisation" },
        { offsetof(tco_waste_request, max_runtime_hours), 2e6, "request.max_runtime_hours" },
        { offsetof(tco_waste_request, rerun_hours), 2e6, "request.rerun_hours" },
        { offsetof(tco_waste_request, retention_days), 2e5, "request.retention_days" },
        { offsetof(tco_waste_request, orphan_days), 2e5, "request.orphan_days" },
        { offsetof(tco_waste_request, orphan_days), -1, "request.orphan_days" },
    };
    for (size_t i = 0; i < sizeof above / sizeof above[0]; i++) {
        tco_waste_request_init(&q);
        memcpy((char *)&q + above[i].offset, &above[i].value, sizeof(double));
        assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, &err), TCO_E_RANGE);
        assert_string_equal(err.param_name, above[i].name);
    }
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, NULL, NULL, &err), TCO_E_NULL);
    assert_non_null(strstr(err.message, "tags"));
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, NULL, s.pairs, s.tags, NULL, &err), TCO_E_NULL);
    /* a stride that is not a tco_record's */
    s.r[0].size = sizeof(tco_record) + 4;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, NULL, &err), TCO_E_SIZE);
    assert_string_equal(err.param_name, "records[0].size");
    s.r[0].size = sizeof(tco_record);
    /* windows outside 1970 to 9999 */
    double start = s.r[2].start, end = s.r[2].end;
    s.r[2].start = -1;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, NULL, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "records[2].end");
    s.r[2].start = start;
    s.r[2].end = 1e12; /* year 33,658 */
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, NULL, &err), TCO_E_RANGE);
    s.r[2].end = end;
    /* a tag pair naming an id the table does not hold */
    uint32_t kept = s.pair[2 * s.r[4].first_tag + 1];
    s.pair[2 * s.r[4].first_tag + 1] = 9999;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, NULL, &err), TCO_E_INDEX);
    assert_string_equal(err.param_name, "records[4].first_tag");
    assert_non_null(strstr(err.message, "names id 9999"));
    s.pair[2 * s.r[4].first_tag + 1] = kept;
    assert_ptr_equal(f, (tco_findings *)&s);
    /* the part form: NULL arguments */
    assert_int_equal(tco_find_waste_part(NULL, a, s.r, s.n, s.pair, s.pairs, s.tags, NULL, sc.t, sc.w, sc.p, &err),
                     TCO_E_NULL);
    assert_int_equal(tco_find_waste_part(&f, NULL, s.r, s.n, s.pair, s.pairs, s.tags, NULL, sc.t, sc.w, sc.p, &err),
                     TCO_E_NULL);
    assert_non_null(strstr(err.message, "whole"));
    assert_int_equal(tco_find_waste_part(&f, a, s.r, s.n, s.pair, s.pairs, NULL, NULL, sc.t, sc.w, sc.p, &err),
                     TCO_E_NULL);
    assert_ptr_equal(f, (tco_findings *)&s);

    /* the findings' accessors */
    f = NULL;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, NULL, &err), TCO_OK);
    tco_finding x;
    memset(&x, 0x5a, sizeof x);
    x.size = sizeof x;
    assert_int_equal(tco_findings_at(NULL, f, 0, &err), TCO_E_NULL);
    assert_int_equal(tco_findings_at(&x, NULL, 0, &err), TCO_E_NULL);
    x.size = (size_t)1 << 40;
    assert_int_equal(tco_findings_at(&x, f, 0, &err), TCO_E_SIZE);
    assert_true(tco_findings_total(NULL) == 0);
    assert_true(tco_findings_total(f) > 0);
    tco_findings_free(f);
    tco_attribution_free(a);
    set_free(&s);
    scen_free(&sc);
}

/* The request's defaults are doc/model.md's table under "tco_waste_request_init
 * sets the defaults": idle below 5% for an hour, over-sized below half,
 * no longest run time, a rerun within a day, 30 days kept, orphaned after
 * two weeks. */
static void test_request_defaults(void **state)
{
    (void)state;
    tco_waste_request q;
    tco_waste_request_init(&q);
    assert_true(q.size == sizeof q);
    assert_true(q.idle_utilisation == 0.05 && q.idle_hours == 1 && q.oversized_utilisation == 0.5);
    assert_true(q.max_runtime_hours == 0 && q.rerun_hours == 24 && q.retention_days == 30 && q.orphan_days == 14);
}

static void test_names(void **state)
{
    (void)state;
    const char *names[] = { NULL,       "idle_capacity", "idle_held", "oversized", "overrun",
                            "rerun",    "retained",      "duplicate", "orphaned" };
    for (int32_t k = 1; k <= 8; k++) {
        assert_string_equal(tco_finding_kind_name(k), names[k]);
        assert_non_null(tco_finding_action(k));
        assert_true(strlen(tco_finding_action(k)) > 20);
    }
    assert_null(tco_finding_kind_name(0));
    assert_null(tco_finding_kind_name(9));
    assert_null(tco_finding_action(-1));
    assert_null(tco_finding_action(9));
    assert_int_equal(tco_findings_count(NULL), 0);
    tco_findings_free(NULL);
}

/* The month's corners, each worked out by hand: runs that start together,
 * a failure outside the period, deadlines that are no time, repeated or
 * later than the limit, storage that is no copy, copies by fingerprint and
 * by name, records without tags, and findings of equal cost (in record
 * order). max_runtime_hours = 8, retention_days = 5 (120 h of the 240). */
static void corners(set *s)
{
    memset(s, 0, sizeof *s);
    assert_int_equal(tco_tags_new(&s->tags, NULL), TCO_OK);
    id_of(s, "team");
    add(s, 0, 10, 4, -1, TCO_JOB_FAILED, 0, "team=a job_name=j user=u");           /* 0 */
    add(s, 12, 14, 4, -1, TCO_JOB_COMPLETED, 0, "team=a job_name=j user=u");       /* 1 */
    add(s, 12, 13, 4, -1, TCO_JOB_COMPLETED, 0, "team=a job_name=j user=u");       /* 2 */
    add(s, -30, -20, 4, -1, TCO_JOB_FAILED, 0, "team=b job_name=k user=u");        /* 3 */
    add(s, -10, 5, 4, -1, TCO_JOB_COMPLETED, 0, "team=b job_name=k user=u");       /* 4 */
    add(s, 20, 27, 2, -1, TCO_JOB_COMPLETED, 0, "team=c deadline=soon");           /* 5 */
    add(s, 30, 40, 2, -1, TCO_JOB_COMPLETED, 0, "team=c deadline=2026-01-02T15:00:00Z"); /* 6 */
    add(s, 11, 11.5, 0, -1, TCO_JOB_COMPLETED, 0, "team=a job_name=j user=u");     /* 7 */
    add(s, 0, 240, 0, -1, TCO_JOB_COMPLETED, 10, "team=d kind=model name=m");      /* 8 */
    add(s, 0, 240, 0, -1, TCO_JOB_COMPLETED, 10, "team=d kind=dataset fingerprint=f"); /* 9 */
    add(s, 0, 240, 0, -1, TCO_JOB_COMPLETED, 10, "team=d kind=dataset name=f");    /* 10 */
    add(s, 0, 240, 0, -1, TCO_JOB_COMPLETED, 30, "team=d kind=dataset name=f");    /* 11 */
    add(s, 24, 240, 0, -1, TCO_JOB_COMPLETED, 10, "team=d kind=checkpoint fingerprint=f"); /* 12 */
    add(s, 0, 240, 0, -1, TCO_JOB_COMPLETED, 10, "team=d kind=checkpoint fingerprint=f");  /* 13 */
    add(s, 0, 240, 0, -1, TCO_JOB_COMPLETED, 10, "team=d kind=dataset");           /* 14 */
    add(s, 100, 101, 1, -1, TCO_JOB_COMPLETED, 0, "");                             /* 15 */
    add(s, 60, 70, 2, -1, TCO_JOB_COMPLETED, 0,
        "team=c deadline=2026-01-03T14:00:00Z deadline=2026-01-03T18:00:00Z");     /* 16 */
    /* copies by fingerprint g with a copy named g between them, of the
     * same size to the MB (0): told apart by how they are known */
    add(s, 0, 240, 0, -1, TCO_JOB_COMPLETED, 10, "team=d kind=checkpoint fingerprint=g");  /* 17 */
    add(s, 24, 240, 0, -1, TCO_JOB_COMPLETED, 0.0004, "team=d kind=dataset name=g");      /* 18 */
    add(s, 48, 240, 0, -1, TCO_JOB_COMPLETED, 10, "team=d kind=checkpoint fingerprint=g"); /* 19 */
    /* 11 keeps a third of its 30 GB warm, 12 half its 10 GB cold */
    s->r[11].storage_gb_hours[TCO_TIER_HOT] = 20 * 240.0;
    s->r[11].storage_gb_hours[TCO_TIER_WARM] = 10 * 240.0;
    s->r[12].storage_gb_hours[TCO_TIER_HOT] = 5 * 216.0;
    s->r[12].storage_gb_hours[TCO_TIER_COLD] = 5 * 216.0;
    /* a failure with 100 GB sent to the internet, run again exactly
     * rerun_hours (24) after it ended */
    add(s, 200, 201, 1, -1, TCO_JOB_FAILED, 0, "team=e job_name=r user=u");          /* 20 */
    s->r[20].traffic_gb[2] = 100;
    add(s, 225, 226, 1, -1, TCO_JOB_COMPLETED, 0, "team=e job_name=r user=u");       /* 21 */
    /* u's run of another name between 0's failure and its rerun */
    add(s, 11, 11.5, 1, -1, TCO_JOB_COMPLETED, 0, "team=a job_name=other user=u");   /* 22 */
}

static void test_corners(void **state)
{
    (void)state;
    scen sc;
    set s;
    scen_make(&sc);
    corners(&s);
    tco_attribution *a = attribute(&s, &sc);
    tco_waste_request q;
    tco_waste_request_init(&q);
    q.max_runtime_hours = 8;
    q.retention_days = 5;
    tco_findings *f = NULL;
    tco_error err = TCO_ERROR_INIT;
    if (tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, &err))
        fail_msg("%s", err.message);
    /* Held in the period: 40 (0) + 8 (1) + 4 (2) + 20 (4, its last 5 h) +
     * 14 (5) + 20 (6) + 1 (15) + 20 (16) + 1 (20) + 1 (21) + 0.5 (22) =
     * 129.5 of 3840 accelerator-hours. */
    struct {
        int32_t kind;
        uint32_t record, other;
        double cost, since_h, until_h, accel_h, gb;
    } want[] = {
        /* 3710.5 idle hours x 2 */
        { TCO_FINDING_IDLE_CAPACITY, UINT32_MAX, UINT32_MAX, 7421, 0, 240, 3710.5, 0 },
        /* 0 failed and ran again at 12 h as 1 and 2: 1, the first record of
         * the two that started first (7 holds no accelerators: no run; 22,
         * between them, has another name);
         * its 40 h x 2 (its overrun past 8 h, 16, is less) */
        { TCO_FINDING_RERUN, 0, 1, 80, 0, 10, 40, 0 },
        /* 4 started at -10 h: past 8 h from -2 h, all its 5 h in the period,
         * 4 x 5 x 2 (3, the failure before it, lies outside the period) */
        { TCO_FINDING_OVERRUN, 4, UINT32_MAX, 40, 0, 5, 20, 0 },
        /* 16: its first deadline, 62 h, not its second: 2 x 8 h x 2 */
        { TCO_FINDING_OVERRUN, 16, UINT32_MAX, 32, 62, 70, 16, 0 },
        /* 20: failed, run again as 21 at the last moment allowed; its hour,
         * 1 x 2, and its traffic, 100 GB x 0.09 */
        { TCO_FINDING_RERUN, 20, 21, 2 + 9, 200, 201, 1, 0 },
        /* 6: the limit, 38 h, comes before its deadline, 39 h: 2 x 2 x 2 */
        { TCO_FINDING_OVERRUN, 6, UINT32_MAX, 8, 38, 40, 4, 0 },
        /* 11: named as 10 but of another size, no copy: kept 120 h past
         * retention, 30 GB x 120 h x 0.001 */
        { TCO_FINDING_RETAINED, 11, UINT32_MAX, 3.6, 120, 240, 0, 30 },
        /* 13: started with 9, the earlier record: a copy of 9 for 240 h,
         * 10 x 240 x 0.001 */
        { TCO_FINDING_DUPLICATE, 13, 9, 2.4, 0, 240, 0, 10 },
        /* 12: a copy of 9 from 24 h, 10 x 216 x 0.001 */
        { TCO_FINDING_DUPLICATE, 12, 9, 2.16, 24, 240, 0, 10 },
        /* 19: a copy of 17 from 48 h, 10 x 192 x 0.001 (18 between them is
         * named g, no copy of either) */
        { TCO_FINDING_DUPLICATE, 19, 17, 1.92, 48, 240, 0, 10 },
        /* 9, 10 (named f, as 9's fingerprint: no copy of it), 14 (no name,
         * no fingerprint) and 17: 10 x 120 x 0.001 each, in record order */
        { TCO_FINDING_RETAINED, 9, UINT32_MAX, 1.2, 120, 240, 0, 10 },
        { TCO_FINDING_RETAINED, 10, UINT32_MAX, 1.2, 120, 240, 0, 10 },
        { TCO_FINDING_RETAINED, 14, UINT32_MAX, 1.2, 120, 240, 0, 10 },
        { TCO_FINDING_RETAINED, 17, UINT32_MAX, 1.2, 120, 240, 0, 10 },
        /* 18: 0.0004 GB for the 96 h past 144 h: 0.0004 x 96 x 0.001 */
        { TCO_FINDING_RETAINED, 18, UINT32_MAX, 3.84e-5, 144, 240, 0, 0.0004 },
    };
    /* Not found: 5 (its deadline "soon" is no time; 7 h is within 8), 8
     * (a model is no checkpoint nor dataset), 1, 2, 15 (no tags). */
    size_t n = sizeof want / sizeof want[0];
    assert_int_equal(tco_findings_count(f), n);
    for (size_t i = 0; i < n; i++) {
        tco_finding x = at(f, i);
        if (x.kind != want[i].kind || x.record != want[i].record || x.other != want[i].other)
            fail_msg("finding %zu: %s of record %u (other %u), want %s of %u (other %u)", i,
                     tco_finding_kind_name(x.kind), (unsigned)x.record, (unsigned)x.other,
                     tco_finding_kind_name(want[i].kind), (unsigned)want[i].record, (unsigned)want[i].other);
        near(x.cost, want[i].cost, 1e-9 * want[i].cost);
        near(x.since, T0 + want[i].since_h * H, 1e-6);
        near(x.until, T0 + want[i].until_h * H, 1e-6);
        near(x.accelerator_hours, want[i].accel_h, 1e-9);
        near(x.gb, want[i].gb, 1e-9);
    }
    double total = tco_findings_total(f);
    tco_findings_free(f);

    /* Records of a longer stride (a newer caller's struct): the same. */
    struct wide {
        tco_record r;
        double more;
    } wide[32];
    for (size_t i = 0; i < s.n; i++) {
        wide[i].r = s.r[i];
        wide[i].r.size = sizeof wide[0];
    }
    assert_int_equal(tco_find_waste(&f, a, &wide[0].r, s.n, s.pair, s.pairs, s.tags, &q, &err), TCO_OK);
    assert_int_equal(tco_findings_count(f), n);
    assert_true(tco_findings_total(f) == total);
    tco_findings_free(f);
    /* ... up to INPUT_MAX (1024 bytes) ... */
    static struct {
        tco_record r;
        char more[1024 - sizeof(tco_record)];
    } widest[32];
    for (size_t i = 0; i < s.n; i++) {
        widest[i].r = s.r[i];
        widest[i].r.size = 1024;
    }
    assert_int_equal(tco_find_waste(&f, a, &widest[0].r, s.n, s.pair, s.pairs, s.tags, &q, &err), TCO_OK);
    assert_int_equal(tco_findings_count(f), n);
    assert_true(tco_findings_total(f) == total);
    tco_findings_free(f);
    /* ... but not below a tco_record, nor one past it, a multiple of 8 */
    f = (tco_findings *)&s;
    s.r[0].size = 8;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, &err), TCO_E_SIZE);
    f = (tco_findings *)&s;
    s.r[0].size = 1032;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, &err), TCO_E_SIZE);
    assert_string_equal(err.param_name, "records[0].size");
    s.r[0].size = sizeof s.r[0];
    /* a tag pair whose key, or value, is the first id past the table */
    uint32_t past = (uint32_t)tco_tags_count(s.tags);
    char names[64];
    snprintf(names, sizeof names, "names id %u: the tags table holds %u", (unsigned)past, (unsigned)past);
    for (int k = 0; k < 2; k++) {
        uint32_t kept = s.pair[2 * s.r[6].first_tag + k];
        s.pair[2 * s.r[6].first_tag + k] = past;
        assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, &err), TCO_E_INDEX);
        assert_string_equal(err.param_name, "records[6].first_tag");
        assert_non_null(strstr(err.message, names));
        s.pair[2 * s.r[6].first_tag + k] = kept;
    }
    assert_ptr_equal(f, (tco_findings *)&s);
    /* Storage the records give as infinite: its size unknown, 0 GB (its
     * cost is the attribution's, 3.6, as before). */
    s.r[11].storage_gb_hours[TCO_TIER_WARM] = INFINITY;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, &err), TCO_OK);
    tco_finding x = at(f, 6);
    assert_int_equal(x.record, 11);
    near(x.cost, 3.6, 1e-9);
    assert_true(x.gb == 0);
    tco_findings_free(f);

    tco_attribution_free(a);
    set_free(&s);
    scen_free(&sc);
}

/* The cluster all held, 16 accelerators for the 240 h: no idle capacity
 * to find, and nothing else. */
static void test_full(void **state)
{
    (void)state;
    scen sc;
    set s;
    scen_make(&sc);
    memset(&s, 0, sizeof s);
    assert_int_equal(tco_tags_new(&s.tags, NULL), TCO_OK);
    id_of(&s, "team");
    tco_waste_request_init(NULL); /* nothing to set, no harm */
    add(&s, 0, 240, 16, -1, TCO_JOB_COMPLETED, 0, "team=a");
    tco_attribution *a = attribute(&s, &sc);
    tco_findings *f = NULL;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, NULL, NULL), TCO_OK);
    assert_int_equal(tco_findings_count(f), 0);
    assert_true(tco_findings_total(f) == 0);
    tco_findings_free(f);
    tco_attribution_free(a);
    set_free(&s);
    scen_free(&sc);
}

/* The part form refuses records of a group the whole does not hold
 * (naming it, "(none)" for a key the record lacks) and a whole priced
 * with other inputs. The whole: the month, settled from one part, by
 * team and user. */
static void test_part_refusals(void **state)
{
    (void)state;
    scen sc;
    set s;
    scen_make(&sc);
    month(&s);
    uint32_t user = id_of(&s, "user");
    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = T0;
    q.period_end = T0 + 240 * H;
    q.by_key[0] = 0;
    q.by_key[1] = user;
    q.by_count = 2;
    q.idle_rule = TCO_SPREAD_EVEN;
    q.shared_rule = TCO_SPREAD_EVEN;
    tco_attribution_part *part = NULL;
    tco_attribution *whole = NULL;
    tco_error err = TCO_ERROR_INIT;
    if (tco_attribute_part(&part, s.r, s.n, s.pair, s.pairs, s.tags, &q, sc.t, sc.w, sc.p, &err) ||
        tco_attribute_parts(&whole, part, sc.t, sc.w, sc.p, &err))
        fail_msg("%s", err.message);
    tco_findings *f = NULL;
    assert_int_equal(tco_find_waste_part(&f, whole, s.r, s.n, s.pair, s.pairs, s.tags, NULL, sc.t, sc.w, sc.p, &err),
                     TCO_OK);
    tco_findings_free(f);
    f = (tco_findings *)&s;

    /* a record of ana's without a team, a group the whole does not hold */
    set odd = s;
    add(&odd, 0, 1, 1, -1, TCO_JOB_COMPLETED, 0, "user=ana");
    assert_int_equal(tco_find_waste_part(&f, whole, odd.r, odd.n, odd.pair, odd.pairs, odd.tags, NULL, sc.t, sc.w,
                                         sc.p, &err),
                     TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "records");
    assert_non_null(strstr(err.message, "a group ((none), ana) the whole attribution does not"));

    /* the same records priced at another rate */
    scen other;
    scen_defaults(&other);
    tco_topology_free(other.t);
    tco_workload_free(other.w);
    assert_int_equal(tco_topology_clone(&other.t, sc.t, NULL), TCO_OK);
    assert_int_equal(tco_workload_clone(&other.w, sc.w, NULL), TCO_OK);
    tco_pricing_free(other.p);
    assert_int_equal(tco_pricing_clone(&other.p, sc.p, NULL), TCO_OK);
    SP(&other, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 3);
    scen_freeze(&other);
    assert_int_equal(tco_find_waste_part(&f, whole, s.r, s.n, s.pair, s.pairs, s.tags, NULL, other.t, other.w,
                                         other.p, &err),
                     TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "whole");
    assert_non_null(strstr(err.message, "priced with other inputs"));
    assert_ptr_equal(f, (tco_findings *)&s);

    scen_free(&other);
    tco_attribution_free(whole);
    tco_attribution_part_free(part);
    set_free(&s);
    scen_free(&sc);
}

/* Findings of equal cost: a record's two in the order of their kinds,
 * its accelerators' first; two records' in record order. Hot storage at 730.5 a GB-month is 1 a GB-hour
 * exactly: one accelerator for 240 h (480) past its deadline at 120 h
 * overran by half, 240; its 2 GB (480 GB-hours, 480) kept past 5 days,
 * half its window too: 240. */
static void test_equal_costs_of_one_record(void **state)
{
    (void)state;
    scen sc;
    set s;
    scen_defaults(&sc);
    ST(&sc, TCO_P_ACCELERATORS, 16);
    ST(&sc, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(&sc, TCO_P_OWNED_SHARE, 0);
    ST(&sc, TCO_P_RESERVED_SHARE, 0);
    ST(&sc, TCO_P_SPOT_SHARE, 0);
    SW(&sc, TCO_P_JOB_ACCELERATORS, 0);
    scen_no_shared_services(&sc);
    SP(&sc, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, RATE);
    SP(&sc, TCO_P_STORAGE_HOT_PER_GB_MONTH, 730.5);
    scen_freeze(&sc);
    memset(&s, 0, sizeof s);
    assert_int_equal(tco_tags_new(&s.tags, NULL), TCO_OK);
    id_of(&s, "team");
    add(&s, 0, 240, 1, -1, TCO_JOB_COMPLETED, 2, "team=a kind=dataset deadline=2026-01-06T00:00:00Z");
    tco_attribution *a = attribute(&s, &sc);
    tco_waste_request q;
    tco_waste_request_init(&q);
    q.retention_days = 5;
    tco_findings *f = NULL;
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, NULL), TCO_OK);
    assert_int_equal(tco_findings_count(f), 3); /* and the idle capacity, first */
    tco_finding x = at(f, 1), y = at(f, 2);
    assert_int_equal(x.kind, TCO_FINDING_OVERRUN);
    assert_int_equal(y.kind, TCO_FINDING_RETAINED);
    assert_true(x.cost == 240 && y.cost == 240); /* the premise: equal to the bit */
    tco_findings_free(f);
    tco_attribution_free(a);

    /* Equal costs of two records come in record order, whatever their
     * kinds: the same two findings, the storage's on the first record. */
    set_free(&s);
    memset(&s, 0, sizeof s);
    assert_int_equal(tco_tags_new(&s.tags, NULL), TCO_OK);
    id_of(&s, "team");
    add(&s, 0, 240, 0, -1, TCO_JOB_COMPLETED, 2, "team=a kind=dataset");
    add(&s, 0, 240, 1, -1, TCO_JOB_COMPLETED, 0, "team=a deadline=2026-01-06T00:00:00Z");
    a = attribute(&s, &sc);
    assert_int_equal(tco_find_waste(&f, a, s.r, s.n, s.pair, s.pairs, s.tags, &q, NULL), TCO_OK);
    assert_int_equal(tco_findings_count(f), 3);
    x = at(f, 1), y = at(f, 2);
    assert_true(x.record == 0 && x.kind == TCO_FINDING_RETAINED);
    assert_true(y.record == 1 && y.kind == TCO_FINDING_OVERRUN);
    assert_true(x.cost == 240 && y.cost == 240);
    tco_findings_free(f);
    tco_attribution_free(a);
    set_free(&s);
    scen_free(&sc);
}

/* A thousand groups, one record each, 0.2 h of one accelerator apiece:
 * 200 of the 3840 accelerator-hours held, 3640 idle x 2 = 7280; the part
 * form of the same records, settled from one part, finds nothing (the
 * idle capacity is the whole's). Each group's place in the bill is kept
 * for every one of them. */
static void test_many_groups(void **state)
{
    (void)state;
    enum { N = 1000 };
    scen sc;
    scen_make(&sc);
    tco_tags *tags;
    assert_int_equal(tco_tags_new(&tags, NULL), TCO_OK);
    uint32_t team;
    assert_int_equal(tco_tags_intern(tags, "team", 4, &team, NULL), TCO_OK);
    tco_record *r = calloc(N, sizeof *r);
    uint32_t *pair = calloc(2 * N, sizeof *pair);
    assert_non_null(r);
    assert_non_null(pair);
    for (uint32_t i = 0; i < N; i++) {
        char name[16];
        int len = snprintf(name, sizeof name, "t%u", (unsigned)i);
        r[i].size = sizeof r[i];
        r[i].start = T0 + i * 0.2 * H;
        r[i].end = r[i].start + 0.2 * H;
        r[i].accelerators = 1;
        r[i].utilisation = -1;
        r[i].price_class = TCO_CLASS_ON_DEMAND;
        r[i].first_tag = i;
        r[i].tag_count = 1;
        pair[2 * i] = team;
        assert_int_equal(tco_tags_intern(tags, name, (size_t)len, &pair[2 * i + 1], NULL), TCO_OK);
    }
    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = T0;
    q.period_end = T0 + 240 * H;
    q.by_key[0] = team;
    q.by_count = 1;
    q.idle_rule = TCO_SPREAD_USAGE;
    q.shared_rule = TCO_SPREAD_USAGE;
    tco_attribution *a = NULL, *whole = NULL;
    tco_attribution_part *part = NULL;
    tco_error err = TCO_ERROR_INIT;
    if (tco_attribute(&a, r, N, pair, N, tags, &q, sc.t, sc.w, sc.p, &err) ||
        tco_attribute_part(&part, r, N, pair, N, tags, &q, sc.t, sc.w, sc.p, &err) ||
        tco_attribute_parts(&whole, part, sc.t, sc.w, sc.p, &err))
        fail_msg("%s", err.message);
    tco_findings *f = NULL;
    assert_int_equal(tco_find_waste(&f, a, r, N, pair, N, tags, NULL, &err), TCO_OK);
    assert_int_equal(tco_findings_count(f), 1);
    near(at(f, 0).cost, 7280, 1e-9 * 7280);
    tco_findings_free(f);
    assert_int_equal(tco_find_waste_part(&f, whole, r, N, pair, N, tags, NULL, sc.t, sc.w, sc.p, &err), TCO_OK);
    assert_int_equal(tco_findings_count(f), 0);
    tco_findings_free(f);
    tco_attribution_free(a);
    tco_attribution_free(whole);
    tco_attribution_part_free(part);
    free(r);
    free(pair);
    tco_tags_free(tags);
    scen_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_month),
        cmocka_unit_test(test_thresholds),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_request_defaults),
        cmocka_unit_test(test_errors_more),
        cmocka_unit_test(test_corners),
        cmocka_unit_test(test_full),
        cmocka_unit_test(test_part_refusals),
        cmocka_unit_test(test_equal_costs_of_one_record),
        cmocka_unit_test(test_many_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
