/* Black-box tests of attribution in parts (tco.h only; doc/spark.md):
 * records split into shares, each attributed apart, saved, loaded and
 * merged in a random order and grouping, then settled, give the bill
 * tco_attribute gives for all the records at once, every cent of it, and
 * the same waste; so does the same set of records in another order. The
 * records are CSV text read by the library's reader, so every share has a
 * tags table of its own (other ids for the same texts), as it has on
 * another machine. Then every way a part can be refused. */
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

#define T0 1767225600.0 /* 2026-01-01T00:00:00Z */
#define ROWS 600
#define PROJECTS 9

static void scen_make_at(scen *s, double on_demand)
{
    scen_defaults(s);
    ST(s, TCO_P_ACCELERATORS, 2048);
    ST(s, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(s, TCO_P_OWNED_SHARE, 0.5);
    ST(s, TCO_P_RESERVED_SHARE, 0.25);
    ST(s, TCO_P_SPOT_SHARE, 0);
    SW(s, TCO_P_JOB_ACCELERATORS, 0);
    SP(s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, on_demand);
    SP(s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.1);
    SP(s, TCO_P_SPOT_PER_ACCEL_HOUR, 1.3);
    SP(s, TCO_P_CAPEX_PER_ACCELERATOR, 25000);
    scen_freeze(s);
}

static void scen_make(scen *s)
{
    scen_make_at(s, 3.7);
}

/* xorshift64*: the rows are the same on every run. */
static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void)
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return rng * 2685821657736338717u;
}
static double unit(void) { return (double)(next() >> 11) * 0x1p-53; }

static const char *const classes[] = { "on_demand", "reserved", "spot", "owned" };
static const char *const states[] = { "completed", "failed", "cancelled", "running" };

/* One CSV row; the project decides the share, and the names, users,
 * fingerprints and jobs a row relates to others by are its project's. */
typedef struct row {
    int project;
    char text[512];
} row;

static void make_rows(row *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int p = (int)(next() % PROJECTS), team = (int)(next() % 5);
        double start = T0 + unit() * 30 * 86400, hours = unit() < 0.1 ? 0 : unit() * 200;
        int storage = unit() < 0.4;
        char tags[200];
        /* skewed: most rows are of team 0; some have no team (the NONE group) */
        int no_team = unit() < 0.08;
        snprintf(tags, sizeof tags, "%s%d,p%d,job%d_%d,run%d_%d,u%d,%s,ds%d_%d,fp%d_%d", no_team ? "" : "team",
                 no_team ? 0 : (unit() < 0.6 ? 0 : team), p, p, (int)(next() % 40), p, (int)(next() % 6),
                 (int)(next() % 3), storage ? (unit() < 0.5 ? "checkpoint" : "dataset") : "", p,
                 (int)(next() % 4), p, (int)(next() % 3));
        if (no_team) /* no tag at all: the empty value */
            memmove(tags, tags + 1, strlen(tags));
        double util = unit() < 0.3 ? -1 : unit();
        char u[32] = "";
        if (util >= 0)
            snprintf(u, sizeof u, "%.4f", util);
        snprintf(r[i].text, sizeof r[i].text, "%.3f,%.3f,%.2f,%s,%s,%s,%.1f,%.1f,%.2f,%s\n", start,
                 start + hours * 3600, (double)(1 + next() % 16) * (unit() < 0.1 ? 0.5 : 1), u,
                 classes[next() % 4], states[next() % 4], storage ? unit() * 5e5 : 0, storage ? unit() * 1e5 : 0,
                 unit() * 1e3, tags);
        r[i].project = p;
    }
}

static const char HEADER[] =
    "start,end,accelerators,utilisation,price_class,state,storage_hot_gb_hours,storage_warm_gb_hours,"
    "traffic_internet_gb,tag.team,tag.project,tag.job_id,tag.job_name,tag.user,tag.kind,tag.name,tag.fingerprint\n";

/* The rows picked (pick[i] set) in the order of idx[], read by the library. */
static tco_records *read_rows(const row *r, const size_t *idx, size_t n, const int *pick)
{
    size_t cap = sizeof HEADER + n * 512;
    char *csv = malloc(cap), *at = csv;
    assert_non_null(csv);
    at += sprintf(at, "%s", HEADER);
    for (size_t k = 0; k < n; k++)
        if (!pick || pick[idx[k]])
            at += sprintf(at, "%s", r[idx[k]].text);
    tco_records *out = NULL;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_records_read_csv(&out, csv, (size_t)(at - csv), TCO_READ_STRICT, &err);
    if (rc)
        print_error("%s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    free(csv);
    return out;
}

static uint32_t find(const tco_tags *tags, const char *text)
{
    uint32_t id = TCO_TAG_NONE;
    tco_tags_find(tags, text, strlen(text), &id, NULL);
    return id;
}

static tco_attribution_request request_of(const tco_tags *tags, int pairs, int32_t idle, int32_t shared)
{
    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = T0 + 2 * 86400;
    q.period_end = T0 + 25 * 86400;
    q.by_key[0] = find(tags, "team");
    q.by_key[1] = pairs ? find(tags, "project") : 0;
    q.by_count = pairs ? 2 : 1;
    q.idle_rule = idle;
    q.shared_rule = shared;
    q.owner_value = idle == TCO_SPREAD_OWNER || shared == TCO_SPREAD_OWNER ? find(tags, "team1") : TCO_TAG_NONE;
    return q;
}

static tco_attribution_part *part_of(tco_records *rs, int pairs, int32_t idle, int32_t shared, const scen *s)
{
    size_t np;
    const uint32_t *pp = tco_records_tag_pairs(rs, &np);
    const tco_tags *tags = tco_records_tags(rs);
    tco_attribution_request q = request_of(tags, pairs, idle, shared);
    tco_attribution_part *part = NULL;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_attribute_part(&part, tco_records_data(rs), tco_records_count(rs), pp, np, tags, &q, s->t, s->w,
                                s->p, &err);
    if (rc)
        print_error("%s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    return part;
}

/* Through bytes and back, as a part travels between machines. */
static tco_attribution_part *shipped(tco_attribution_part *part)
{
    size_t len = 0;
    assert_int_equal(tco_attribution_part_save(NULL, 0, &len, part, NULL), TCO_OK);
    uint8_t *buf = malloc(len);
    size_t len2 = 0;
    assert_int_equal(tco_attribution_part_save(buf, len, &len2, part, NULL), TCO_OK);
    assert_true(len2 == len);
    tco_attribution_part *back = NULL;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_attribution_part_load(&back, buf, len, &err);
    if (rc)
        print_error("%s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    /* the bytes of what was loaded are the bytes saved */
    uint8_t *again = malloc(len);
    assert_int_equal(tco_attribution_part_save(again, len, &len2, back, NULL), TCO_OK);
    assert_memory_equal(buf, again, len);
    free(buf);
    free(again);
    tco_attribution_part_free(part);
    return back;
}

static const char *text_of(const tco_tags *tags, uint32_t id)
{
    return id == TCO_TAG_NONE ? "(none)" : tco_tags_text(tags, id);
}

/* Two attributions agree to the cent: the bill and every group, in the
 * same order, their values by text. */
static void same_bill(const tco_attribution *a, const tco_tags *ta, const tco_attribution *b, const tco_tags *tb)
{
    tco_bill x = { .size = sizeof x }, y = { .size = sizeof y };
    assert_int_equal(tco_attribution_bill(&x, a, NULL), TCO_OK);
    assert_int_equal(tco_attribution_bill(&y, b, NULL), TCO_OK);
    assert_true(x.total > 0);
    assert_memory_equal(&x, &y, sizeof x); /* cents, hours (exact sums: the same bits) and counts */
    size_t n = tco_attribution_group_count(a);
    assert_int_equal(tco_attribution_group_count(b), n);
    for (size_t i = 0; i < n; i++) {
        tco_group g = { .size = sizeof g }, h = { .size = sizeof h };
        assert_int_equal(tco_attribution_group_at(&g, a, i, NULL), TCO_OK);
        assert_int_equal(tco_attribution_group_at(&h, b, i, NULL), TCO_OK);
        for (int k = 0; k < 2; k++)
            assert_string_equal(text_of(ta, g.value[k]), text_of(tb, h.value[k]));
        g.value[0] = h.value[0], g.value[1] = h.value[1];
        assert_memory_equal(&g, &h, sizeof g);
    }
}

static tco_attribution *whole_of(tco_records *rs, int pairs, int32_t idle, int32_t shared, const scen *s)
{
    size_t np;
    const uint32_t *pp = tco_records_tag_pairs(rs, &np);
    const tco_tags *tags = tco_records_tags(rs);
    tco_attribution_request q = request_of(tags, pairs, idle, shared);
    tco_attribution *a = NULL;
    assert_int_equal(tco_attribute(&a, tco_records_data(rs), tco_records_count(rs), pp, np, tags, &q, s->t, s->w,
                                   s->p, NULL),
                     TCO_OK);
    return a;
}

static void shuffle(size_t *idx, size_t n)
{
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = next() % (i + 1), t = idx[i];
        idx[i] = idx[j], idx[j] = t;
    }
}

/* ---- the bill -------------------------------------------------------------- */

static void test_parts_make_the_whole(void **state)
{
    (void)state;
    scen s;
    scen_make(&s);
    static row r[ROWS];
    size_t idx[ROWS];
    make_rows(r, ROWS);
    for (size_t i = 0; i < ROWS; i++)
        idx[i] = i;
    const int32_t rules[][2] = { { TCO_SPREAD_USAGE, TCO_SPREAD_USAGE }, { TCO_SPREAD_EVEN, TCO_SPREAD_USAGE },
                                 { TCO_SPREAD_OWNER, TCO_SPREAD_EVEN } };
    tco_records *all = read_rows(r, idx, ROWS, NULL);
    for (int pairs = 0; pairs < 2; pairs++)
        for (size_t rule = 0; rule < 3; rule++) {
            tco_attribution *whole = whole_of(all, pairs, rules[rule][0], rules[rule][1], &s);
            /* the same records in another order */
            size_t mixed[ROWS];
            memcpy(mixed, idx, sizeof idx);
            shuffle(mixed, ROWS);
            tco_records *other = read_rows(r, mixed, ROWS, NULL);
            tco_attribution *again = whole_of(other, pairs, rules[rule][0], rules[rule][1], &s);
            same_bill(whole, tco_records_tags(all), again, tco_records_tags(other));
            tco_attribution_free(again);
            tco_records_free(other);

            /* 1, 2, 3 and 9 shares by project, merged in a random order */
            const int shares[] = { 1, 2, 3, 9 };
            for (size_t k = 0; k < 4; k++) {
                int m = shares[k];
                tco_attribution_part *part[PROJECTS];
                for (int sh = 0; sh < m; sh++) {
                    int pick[ROWS];
                    for (size_t i = 0; i < ROWS; i++)
                        pick[i] = r[i].project % m == sh;
                    shuffle(mixed, ROWS);
                    tco_records *rs = read_rows(r, mixed, ROWS, pick);
                    part[sh] = shipped(part_of(rs, pairs, rules[rule][0], rules[rule][1], &s));
                    tco_records_free(rs);
                }
                /* merged as a tree: pairs of neighbours, over and over */
                for (int width = 1; width < m; width *= 2)
                    for (int i = 0; i + width < m; i += 2 * width) {
                        tco_error err = TCO_ERROR_INIT;
                        int rc = tco_attribution_part_merge(part[i], part[i + width], &err);
                        if (rc)
                            print_error("%s\n", err.message);
                        assert_int_equal(rc, TCO_OK);
                        tco_attribution_part_free(part[i + width]);
                    }
                tco_attribution *settled = NULL;
                assert_int_equal(tco_attribute_parts(&settled, part[0], s.t, s.w, s.p, NULL), TCO_OK);
                assert_true(tco_attribution_tags(settled) != NULL && tco_attribution_tags(whole) == NULL);
                same_bill(whole, tco_records_tags(all), settled, tco_attribution_tags(settled));
                tco_attribution_free(settled);
                tco_attribution_part_free(part[0]);
            }
            tco_attribution_free(whole);
        }
    tco_records_free(all);
    scen_free(&s);
}

/* ---- the waste --------------------------------------------------------- */

typedef struct found {
    tco_finding f;
    size_t record, other; /* indices of the rows */
} found;

static int found_order(const void *x, const void *y)
{
    const found *a = x, *b = y;
    if (a->f.cost != b->f.cost)
        return a->f.cost > b->f.cost ? -1 : 1;
    if (a->record != b->record)
        return a->record < b->record ? -1 : 1;
    return (a->f.kind > b->f.kind) - (a->f.kind < b->f.kind);
}

static size_t findings_of(found *out, const tco_findings *w, const size_t *row_of)
{
    size_t n = tco_findings_count(w);
    for (size_t i = 0; i < n; i++) {
        out[i].f.size = sizeof out[i].f;
        assert_int_equal(tco_findings_at(&out[i].f, w, i, NULL), TCO_OK);
        out[i].record = out[i].f.record == UINT32_MAX ? SIZE_MAX : row_of[out[i].f.record];
        out[i].other = out[i].f.other == UINT32_MAX ? SIZE_MAX : row_of[out[i].f.other];
    }
    return n;
}

static void test_waste_in_parts(void **state)
{
    (void)state;
    scen s;
    scen_make(&s);
    static row r[ROWS];
    size_t idx[ROWS];
    make_rows(r, ROWS);
    for (size_t i = 0; i < ROWS; i++)
        idx[i] = i;
    tco_records *all = read_rows(r, idx, ROWS, NULL);
    tco_attribution *whole = whole_of(all, 0, TCO_SPREAD_USAGE, TCO_SPREAD_USAGE, &s);
    size_t np;
    const uint32_t *pp = tco_records_tag_pairs(all, &np);
    tco_findings *w = NULL;
    assert_int_equal(tco_find_waste(&w, whole, tco_records_data(all), ROWS, pp, np, tco_records_tags(all), NULL, NULL),
                     TCO_OK);
    static found want[2 * ROWS + 1], got[2 * ROWS + 1];
    size_t nw = findings_of(want, w, idx);
    assert_true(nw > 20);
    tco_findings_free(w);

    /* three shares by project, each in the rows' order */
    enum { M = 3 };
    tco_attribution_part *part[M];
    tco_records *rs[M];
    size_t row_of[M][ROWS];
    for (int sh = 0; sh < M; sh++) {
        int pick[ROWS];
        size_t k = 0;
        for (size_t i = 0; i < ROWS; i++)
            if ((pick[i] = r[i].project % M == sh))
                row_of[sh][k++] = i;
        rs[sh] = read_rows(r, idx, ROWS, pick);
        part[sh] = shipped(part_of(rs[sh], 0, TCO_SPREAD_USAGE, TCO_SPREAD_USAGE, &s));
        if (sh)
            assert_int_equal(tco_attribution_part_merge(part[0], part[sh], NULL), TCO_OK);
    }
    tco_attribution *settled = NULL;
    assert_int_equal(tco_attribute_parts(&settled, part[0], s.t, s.w, s.p, NULL), TCO_OK);
    /* the idle capacity from the whole; the rest share by share */
    size_t ng = 0;
    assert_int_equal(tco_find_waste(&w, settled, NULL, 0, NULL, 0, tco_attribution_tags(settled), NULL, NULL), TCO_OK);
    ng += findings_of(got + ng, w, idx);
    assert_true(ng == 1 && got[0].f.kind == TCO_FINDING_IDLE_CAPACITY);
    tco_findings_free(w);
    for (int sh = 0; sh < M; sh++) {
        const uint32_t *sp = tco_records_tag_pairs(rs[sh], &np);
        tco_error err = TCO_ERROR_INIT;
        int rc = tco_find_waste_part(&w, settled, tco_records_data(rs[sh]), tco_records_count(rs[sh]), sp, np,
                                     tco_records_tags(rs[sh]), NULL, s.t, s.w, s.p, &err);
        if (rc)
            print_error("%s\n", err.message);
        assert_int_equal(rc, TCO_OK);
        ng += findings_of(got + ng, w, row_of[sh]);
        tco_findings_free(w);
    }
    assert_int_equal(ng, nw);
    qsort(got, ng, sizeof got[0], found_order);
    for (size_t i = 0; i < nw; i++) {
        assert_true(got[i].record == want[i].record && got[i].other == want[i].other);
        want[i].f.record = got[i].f.record, want[i].f.other = got[i].f.other;
        assert_memory_equal(&got[i].f, &want[i].f, sizeof got[i].f); /* cost, hours, group: the same bits */
    }

    /* a share whose records are not the whole's */
    row stray[1];
    strcpy(stray[0].text, "1767484800,1767494800,4,,on_demand,completed,0,0,0,nobody,p0,,,,,,\n");
    size_t zero = 0;
    tco_records *odd = read_rows(stray, &zero, 1, NULL);
    const uint32_t *op = tco_records_tag_pairs(odd, &np);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_find_waste_part(&w, settled, tco_records_data(odd), 1, op, np, tco_records_tags(odd), NULL,
                                         s.t, s.w, s.p, &err),
                     TCO_E_INCONSISTENT);
    assert_non_null(strstr(err.message, "nobody"));
    /* an attribution of tco_attribute is not one settled from parts */
    assert_int_equal(tco_find_waste_part(&w, whole, tco_records_data(odd), 1, op, np, tco_records_tags(odd), NULL,
                                         s.t, s.w, s.p, &err),
                     TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "whole");
    tco_records_free(odd);

    tco_attribution_free(settled);
    tco_attribution_free(whole);
    for (int sh = 0; sh < M; sh++) {
        tco_attribution_part_free(part[sh]);
        tco_records_free(rs[sh]);
    }
    tco_records_free(all);
    scen_free(&s);
}

/* Parts of many groups (more than a table's first slots) merge as few do. */
static void test_many_groups(void **state)
{
    (void)state;
    scen s;
    scen_make(&s);
    enum { N = 3000 };
    static row r[N];
    size_t idx[N];
    for (size_t i = 0; i < N; i++) {
        idx[i] = i;
        r[i].project = (int)(i % 2);
        snprintf(r[i].text, sizeof r[i].text, "%.0f,%.0f,2,,on_demand,completed,0,0,0,team%zu,p%d,,,,,,\n",
                 T0 + 3 * 86400 + (double)i, T0 + 4 * 86400 + (double)i, i % 2500, r[i].project);
    }
    tco_records *all = read_rows(r, idx, N, NULL);
    tco_attribution *whole = whole_of(all, 0, TCO_SPREAD_USAGE, TCO_SPREAD_EVEN, &s);
    assert_int_equal(tco_attribution_group_count(whole), 2500);
    tco_attribution_part *part[2];
    for (int sh = 0; sh < 2; sh++) {
        int pick[N];
        for (size_t i = 0; i < N; i++)
            pick[i] = r[i].project == sh;
        tco_records *rs = read_rows(r, idx, N, pick);
        part[sh] = part_of(rs, 0, TCO_SPREAD_USAGE, TCO_SPREAD_EVEN, &s);
        tco_records_free(rs);
    }
    assert_int_equal(tco_attribution_part_merge(part[0], part[1], NULL), TCO_OK);
    tco_attribution *settled = NULL;
    assert_int_equal(tco_attribute_parts(&settled, part[0], s.t, s.w, s.p, NULL), TCO_OK);
    same_bill(whole, tco_records_tags(all), settled, tco_attribution_tags(settled));
    tco_attribution_free(settled);
    tco_attribution_free(whole);
    tco_attribution_part_free(part[0]);
    tco_attribution_part_free(part[1]);
    tco_records_free(all);
    scen_free(&s);
}

/* ---- refusals ---------------------------------------------------------- */

static void test_refused(void **state)
{
    (void)state;
    scen s, other;
    scen_make(&s);
    scen_make_at(&other, 3.8);
    static row r[ROWS];
    size_t idx[ROWS];
    make_rows(r, 50);
    for (size_t i = 0; i < 50; i++)
        idx[i] = i;
    tco_records *rs = read_rows(r, idx, 50, NULL);
    tco_attribution_part *a = part_of(rs, 0, TCO_SPREAD_USAGE, TCO_SPREAD_USAGE, &s);
    tco_error err = TCO_ERROR_INIT;

    /* merging parts of other requests or inputs, which leaves into alone */
    size_t len0 = 0, len1 = 0;
    assert_int_equal(tco_attribution_part_save(NULL, 0, &len0, a, NULL), TCO_OK);
    tco_attribution_part *b = part_of(rs, 1, TCO_SPREAD_USAGE, TCO_SPREAD_USAGE, &s);
    assert_int_equal(tco_attribution_part_merge(a, b, &err), TCO_E_INCONSISTENT);
    assert_non_null(strstr(err.message, "keys"));
    tco_attribution_part_free(b);
    b = part_of(rs, 0, TCO_SPREAD_EVEN, TCO_SPREAD_USAGE, &s);
    assert_int_equal(tco_attribution_part_merge(a, b, &err), TCO_E_INCONSISTENT);
    tco_attribution_part_free(b);
    b = part_of(rs, 0, TCO_SPREAD_USAGE, TCO_SPREAD_USAGE, &other);
    assert_int_equal(tco_attribution_part_merge(a, b, &err), TCO_E_INCONSISTENT);
    assert_non_null(strstr(err.message, "other inputs"));
    tco_attribution *settled = NULL;
    assert_int_equal(tco_attribute_parts(&settled, a, other.t, other.w, other.p, &err), TCO_E_INCONSISTENT);
    assert_null(settled);
    tco_attribution_part_free(b);
    assert_int_equal(tco_attribution_part_save(NULL, 0, &len1, a, NULL), TCO_OK);
    assert_true(len1 == len0);
    assert_int_equal(tco_attribution_part_merge(NULL, a, &err), TCO_E_NULL);
    assert_string_equal(err.message, "into must not be NULL");
    assert_int_equal(tco_attribution_part_merge(a, NULL, &err), TCO_E_NULL);
    assert_string_equal(err.message, "from must not be NULL");
    /* the shared rule alone, or the owner alone, differing */
    b = part_of(rs, 0, TCO_SPREAD_USAGE, TCO_SPREAD_EVEN, &s);
    assert_int_equal(tco_attribution_part_merge(a, b, &err), TCO_E_INCONSISTENT);
    assert_non_null(strstr(err.message, "spreads by other rules or to another owner"));
    tco_attribution_part_free(b);
    {
        tco_attribution_part *owner1 = part_of(rs, 0, TCO_SPREAD_USAGE, TCO_SPREAD_OWNER, &s), *owner2 = NULL;
        tco_attribution_request q = request_of(tco_records_tags(rs), 0, TCO_SPREAD_USAGE, TCO_SPREAD_OWNER);
        q.owner_value = find(tco_records_tags(rs), "team2");
        assert_true(q.owner_value != TCO_TAG_NONE);
        size_t np;
        const uint32_t *pp = tco_records_tag_pairs(rs, &np);
        assert_int_equal(tco_attribute_part(&owner2, tco_records_data(rs), tco_records_count(rs), pp, np,
                                            tco_records_tags(rs), &q, s.t, s.w, s.p, &err),
                         TCO_OK);
        assert_int_equal(tco_attribution_part_merge(owner1, owner2, &err), TCO_E_INCONSISTENT);
        assert_non_null(strstr(err.message, "to another owner"));
        tco_attribution_part_free(owner2);
        tco_attribution_part_free(owner1);
    }
    /* NULL asks of the accessors: NULL back */
    assert_null(tco_attribution_part_tags(NULL));
    uint32_t team_id;
    assert_int_equal(tco_tags_find(tco_attribution_part_tags(a), "team", 4, &team_id, NULL), TCO_OK);
    assert_null(tco_attribution_part_key(NULL, 0));
    assert_null(tco_attribution_tags(NULL));
    assert_int_equal(tco_attribution_part_save(NULL, 0, NULL, a, &err), TCO_E_NULL);
    assert_string_equal(err.message, "len must not be NULL");
    assert_int_equal(tco_attribution_part_save(NULL, 0, &len1, NULL, &err), TCO_E_NULL);
    assert_string_equal(err.message, "part must not be NULL");
    /* each pointer a part needs, missing alone, is named */
    {
        tco_attribution_request q = request_of(tco_records_tags(rs), 0, TCO_SPREAD_USAGE, TCO_SPREAD_USAGE);
        size_t np;
        const uint32_t *pp = tco_records_tag_pairs(rs, &np);
        const tco_record *rd = tco_records_data(rs);
        size_t nr = tco_records_count(rs);
        tco_attribution_part *none = NULL;
        assert_int_equal(tco_attribute_part(NULL, rd, nr, pp, np, tco_records_tags(rs), &q, s.t, s.w, s.p, &err),
                         TCO_E_NULL);
        assert_non_null(strstr(err.message, "out must not"));
        assert_int_equal(tco_attribute_part(&none, rd, nr, pp, np, NULL, &q, s.t, s.w, s.p, &err), TCO_E_NULL);
        assert_non_null(strstr(err.message, "tags must not"));
        assert_int_equal(tco_attribute_part(&none, rd, nr, pp, np, tco_records_tags(rs), NULL, s.t, s.w, s.p, &err),
                         TCO_E_NULL);
        assert_non_null(strstr(err.message, "request must not"));
        assert_null(none);
        uint8_t one = 0;
        assert_int_equal(tco_attribution_part_load(NULL, &one, 1, &err), TCO_E_NULL);
        assert_non_null(strstr(err.message, "out must not"));
        assert_int_equal(tco_attribution_part_load(&none, NULL, 1, &err), TCO_E_NULL);
        assert_non_null(strstr(err.message, "buf must not"));
        assert_null(none);
        tco_attribution *settle = NULL;
        assert_int_equal(tco_attribute_parts(NULL, a, s.t, s.w, s.p, &err), TCO_E_NULL);
        assert_non_null(strstr(err.message, "out must not"));
        assert_int_equal(tco_attribute_parts(&settle, NULL, s.t, s.w, s.p, &err), TCO_E_NULL);
        assert_non_null(strstr(err.message, "part must not"));
        assert_int_equal(tco_attribute_parts(&settle, a, NULL, s.w, s.p, &err), TCO_E_NULL);
        assert_null(settle);
        /* its keys, and none past by_count: one key, then two (past the array) */
        assert_string_equal(tco_attribution_part_key(a, 0), "team");
        assert_null(tco_attribution_part_key(a, 1));
        tco_attribution_part *two = part_of(rs, 1, TCO_SPREAD_USAGE, TCO_SPREAD_USAGE, &s);
        assert_string_equal(tco_attribution_part_key(two, 1), "project");
        assert_null(tco_attribution_part_key(two, 2));
        tco_attribution_part_free(two);
        /* a part of another period, every other input the same */
        q.period_end += 3600;
        assert_int_equal(tco_attribute_part(&none, rd, nr, pp, np, tco_records_tags(rs), &q, s.t, s.w, s.p, &err),
                         TCO_OK);
        assert_int_equal(tco_attribution_part_merge(a, none, &err), TCO_E_INCONSISTENT);
        assert_non_null(strstr(err.message, "is of the period"));
        tco_attribution_part_free(none);
        q.period_end -= 3600;
        q.period_start -= 3600; /* the start alone */
        assert_int_equal(tco_attribute_part(&none, rd, nr, pp, np, tco_records_tags(rs), &q, s.t, s.w, s.p, &err),
                         TCO_OK);
        assert_int_equal(tco_attribution_part_merge(a, none, &err), TCO_E_INCONSISTENT);
        assert_non_null(strstr(err.message, "is of the period"));
        tco_attribution_part_free(none);
        q.period_start += 3600;
        /* a part of no records has no groups: merged into, it adds
         * nothing, and the whole settles as the part it took in */
        assert_int_equal(tco_attribute_part(&none, rd, 0, pp, np, tco_records_tags(rs), &q, s.t, s.w, s.p, &err),
                         TCO_OK);
        tco_attribution *alone = NULL, *merged = NULL;
        /* settled alone, it has no group to spread the idle hours over:
         * refused as the whole attribution of no records is */
        tco_attribution *empty = NULL;
        tco_error whole = TCO_ERROR_INIT;
        assert_int_equal(tco_attribute(&empty, rd, 0, pp, np, tco_records_tags(rs), &q, s.t, s.w, s.p, &whole),
                         TCO_E_INCONSISTENT);
        assert_int_equal(tco_attribute_parts(&empty, none, s.t, s.w, s.p, &err), TCO_E_INCONSISTENT);
        assert_null(empty);
        assert_string_equal(err.param_name, "request.idle_rule");
        assert_string_equal(err.message, whole.message);
        assert_int_equal(tco_attribute_parts(&alone, a, s.t, s.w, s.p, NULL), TCO_OK);
        assert_int_equal(tco_attribution_part_merge(none, a, &err), TCO_OK);
        assert_int_equal(tco_attribute_parts(&merged, none, s.t, s.w, s.p, NULL), TCO_OK);
        same_bill(alone, tco_attribution_tags(alone), merged, tco_attribution_tags(merged));
        tco_attribution_free(merged);
        tco_attribution_free(alone);
        tco_attribution_part_free(none);
    }

    /* bytes: short of a byte, a byte changed, a byte more */
    uint8_t *buf = malloc(len0 + 2);
    assert_int_equal(tco_attribution_part_save(buf, len0 - 1, &len1, a, &err), TCO_E_SIZE);
    assert_int_equal(tco_attribution_part_save(buf, len0, &len1, a, NULL), TCO_OK);
    tco_attribution_part *back = NULL;
    for (size_t cut = 0; cut < len0; cut += 1 + cut / 8) {
        assert_int_equal(tco_attribution_part_load(&back, buf, cut, &err), TCO_E_TYPE);
        assert_null(back);
    }
    /* no magic, or another one: named as not a part at all */
    assert_int_equal(tco_attribution_part_load(&back, buf, 3, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "not a part of this libtco's"));
    buf[0] ^= 0x5a;
    assert_int_equal(tco_attribution_part_load(&back, buf, len0, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "not a part of this libtco's"));
    buf[0] ^= 0x5a;
    buf[len0] = 0;
    assert_int_equal(tco_attribution_part_load(&back, buf, len0 + 1, &err), TCO_E_TYPE);
    assert_string_equal(err.message, "part: 1 byte follows the part"); /* len0 + 1 - len0 */
    buf[len0 + 1] = 0;
    assert_int_equal(tco_attribution_part_load(&back, buf, len0 + 2, &err), TCO_E_TYPE);
    assert_string_equal(err.message, "part: 2 bytes follow the part");
    /* every byte flipped in turn: refused, or read to a part that settles
     * to finite money (an altered amount is not detectable by itself) */
    for (size_t i = 0; i < len0; i++) {
        buf[i] ^= 0x5a;
        int rc = tco_attribution_part_load(&back, buf, len0, &err);
        if (rc == TCO_OK) {
            int sr = tco_attribute_parts(&settled, back, s.t, s.w, s.p, &err);
            if (sr == TCO_OK) {
                tco_bill bill = { .size = sizeof bill };
                assert_int_equal(tco_attribution_bill(&bill, settled, NULL), TCO_OK);
                assert_true(isfinite(bill.held_accelerator_hours) && isfinite(bill.used_accelerator_hours));
                tco_attribution_free(settled);
                settled = NULL;
            }
            tco_attribution_part_free(back);
            back = NULL;
        } else {
            assert_true(rc == TCO_E_TYPE);
            assert_null(back);
        }
        buf[i] ^= 0x5a;
    }
    /* each count check alone (doc/spark.md, "A part as bytes": records at
     * byte 56, overlapping at 72, u64; the classes' bits at 80, u32):
     * 16 sets a fifth class bit, and one overlapping record more than
     * there are records */
    uint64_t records = 0;
    for (int i = 7; i >= 0; i--)
        records = records << 8 | buf[56 + i];
    for (int field = 0; field < 2; field++) {
        uint8_t *bad = malloc(len0);
        memcpy(bad, buf, len0);
        if (field == 0)
            memcpy(bad + 80, (const uint8_t[]){ 16, 0, 0, 0 }, 4);
        else
            for (int i = 0; i < 8; i++)
                bad[72 + i] = (uint8_t)((records + 1) >> 8 * i);
        assert_int_equal(tco_attribution_part_load(&back, bad, len0, &err), TCO_E_TYPE);
        assert_string_equal(err.message, "part: price classes or overlapping records out of range");
        assert_null(back);
        free(bad);
    }
    /* the record counts against the groups' (records at byte 56, outside
     * the period at 64): one record outside more than there are, and one
     * record more than the groups hold */
    uint64_t outside = 0;
    for (int i = 7; i >= 0; i--)
        outside = outside << 8 | buf[64 + i];
    for (int field = 0; field < 2; field++) {
        uint8_t *bad = malloc(len0);
        assert_non_null(bad);
        memcpy(bad, buf, len0);
        for (int i = 0; i < 8; i++)
            bad[(field == 0 ? 64 : 56) + i] = (uint8_t)((records + 1) >> 8 * i);
        char want[128];
        snprintf(want, sizeof want, "part: %llu records, %llu outside the period, but the groups hold %llu",
                 (unsigned long long)(field == 0 ? records : records + 1),
                 (unsigned long long)(field == 0 ? records + 1 : outside), (unsigned long long)(records - outside));
        assert_int_equal(tco_attribution_part_load(&back, bad, len0, &err), TCO_E_TYPE);
        assert_string_equal(err.message, want);
        assert_null(back);
        free(bad);
    }
    free(buf);

    /* a record too large for an exact sum, named */
    tco_records *big = NULL;
    const char csv[] = "start,end,accelerators,storage_hot_gb_hours,tag.team\n"
                       "1767484800,1767494800,4,1e300,a\n";
    assert_int_equal(tco_records_read_csv(&big, csv, sizeof csv - 1, TCO_READ_STRICT, NULL), TCO_OK);
    tco_attribution_request q = request_of(tco_records_tags(big), 0, TCO_SPREAD_USAGE, TCO_SPREAD_USAGE);
    size_t np;
    const uint32_t *pp = tco_records_tag_pairs(big, &np);
    tco_attribution *whole = NULL;
    assert_int_equal(tco_attribute(&whole, tco_records_data(big), 1, pp, np, tco_records_tags(big), &q, s.t, s.w,
                                   s.p, &err),
                     TCO_E_RANGE);
    assert_string_equal(err.param_name, "records[0].storage_gb_hours");
    tco_records_free(big);

    tco_attribution_part_free(a);
    tco_records_free(rs);
    scen_free(&other);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts_make_the_whole),
        cmocka_unit_test(test_waste_in_parts),
        cmocka_unit_test(test_many_groups),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
