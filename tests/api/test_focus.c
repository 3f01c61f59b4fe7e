/* Black-box tests of tco_attribution_focus_csv (tco.h only): an attribution
 * as FOCUS 1.2 rows (doc/focus.md).
 *
 * A hand-worked bill of ten hours on 8 rented accelerators, half of them
 * reserved (2.5 cur/h), half on demand (4 cur/h), no shared services:
 * team a holds 4 reserved accelerators all along (40 h, 100.00), team b 2
 * on demand for 5 hours (10 h, 40.00). The 30 idle hours, at the cluster's
 * blend of 0.5 x 4 + 0.5 x 2.5 = 3.25 cur/h, are 97.50, spread by usage
 * (100 : 40). Every cent below is worked out in the comments. The export's
 * conformance to FOCUS is checked by the FinOps Foundation's validator and
 * DuckDB in the Python suite. */
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

#define T0 1793491200.0 /* 2026-11-01T00:00:00Z */
#define H 3600.0

/* hot: the hot tier's price per GB-month; < 0 leaves the default.
 * reserved: the reserved rate per accelerator-hour. */
static void scen_make_priced(scen *s, double hot, double reserved)
{
    scen_defaults(s);
    if (hot >= 0)
        SP(s, TCO_P_STORAGE_HOT_PER_GB_MONTH, hot);
    ST(s, TCO_P_ACCELERATORS, 8);
    ST(s, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(s, TCO_P_OWNED_SHARE, 0);
    ST(s, TCO_P_RESERVED_SHARE, 0.5);
    ST(s, TCO_P_SPOT_SHARE, 0);
    SW(s, TCO_P_JOB_ACCELERATORS, 0);
    scen_no_shared_services(s);
    SP(s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SP(s, TCO_P_RESERVED_PER_ACCEL_HOUR, reserved);
    SP(s, TCO_P_SPOT_PER_ACCEL_HOUR, 1);
    assert_int_equal(tco_pricing_set_text(s->p, TCO_P_CURRENCY, "EUR", NULL), TCO_OK);
    scen_freeze(s);
}

typedef struct fixture {
    scen sc;
    tco_tags *tags;
    tco_record r[2];
    uint32_t pair[4];
    tco_attribution *a;
} fixture;

static uint32_t id_of(tco_tags *tags, const char *text)
{
    uint32_t id;
    assert_int_equal(tco_tags_intern(tags, text, strlen(text), &id, NULL), TCO_OK);
    return id;
}

/* hot, hot_gbh: the hot tier's price per GB-month (< 0: the default) and
 * the GB-hours team a's record stores; b_class: team b's price class;
 * reserved: the reserved rate. */
static void make_of(fixture *f, double hot, double hot_gbh, int32_t b_class, double reserved)
{
    memset(f, 0, sizeof *f);
    scen_make_priced(&f->sc, hot, reserved);
    assert_int_equal(tco_tags_new(&f->tags, NULL), TCO_OK);
    uint32_t team = id_of(f->tags, "team");
    f->pair[0] = f->pair[2] = team;
    f->pair[1] = id_of(f->tags, "a");
    f->pair[3] = id_of(f->tags, "b, \"the second\""); /* quoted in CSV, escaped in JSON */
    for (int i = 0; i < 2; i++) {
        tco_record *r = &f->r[i];
        r->size = sizeof *r;
        r->utilisation = -1;
        r->state = TCO_JOB_COMPLETED;
        r->first_tag = (uint32_t)i;
        r->tag_count = 1;
    }
    f->r[0].start = T0, f->r[0].end = T0 + 10 * H, f->r[0].accelerators = 4, f->r[0].price_class = TCO_CLASS_RESERVED;
    f->r[1].start = T0, f->r[1].end = T0 + 5 * H, f->r[1].accelerators = 2, f->r[1].price_class = b_class;
    f->r[0].storage_gb_hours[TCO_TIER_HOT] = hot_gbh;
    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = T0;
    q.period_end = T0 + 10 * H;
    q.by_key[0] = team;
    q.by_count = 1;
    q.idle_rule = q.shared_rule = TCO_SPREAD_USAGE;
    tco_error err = TCO_ERROR_INIT;
    if (tco_attribute(&f->a, f->r, 2, f->pair, 2, f->tags, &q, f->sc.t, f->sc.w, f->sc.p, &err))
        fail_msg("%s", err.message);
}

static void make(fixture *f)
{
    make_of(f, -1, 0, TCO_CLASS_ON_DEMAND, 2.5);
}

static void unmake(fixture *f)
{
    tco_attribution_free(f->a);
    tco_tags_free(f->tags);
    scen_free(&f->sc);
}

/* ---- a small RFC 4180 reader, enough for the rows ------------------------ */

#define MAXF 64
typedef struct csv_row {
    char *f[MAXF];
    int n;
} csv_row;

/* Splits the next row of *p in place; 0 at the end. */
static int next_row(char **p, csv_row *r)
{
    char *s = *p, *w;
    if (!*s)
        return 0;
    r->n = 0;
    for (;;) {
        r->f[r->n++] = w = s;
        if (*s == '"') {
            for (s++;; s++) {
                if (*s == '"' && s[1] == '"')
                    *w++ = '"', s++;
                else if (*s == '"') {
                    s++;
                    break;
                } else
                    *w++ = *s;
            }
        } else {
            while (*s && *s != ',' && *s != '\n')
                *w++ = *s++;
        }
        char end = *s;
        *w = '\0';
        s += end != '\0';
        if (end != ',')
            break;
    }
    *p = s;
    return 1;
}

static const char *col(const csv_row *head, const csv_row *r, const char *name)
{
    for (int i = 0; i < head->n; i++)
        if (strcmp(head->f[i], name) == 0)
            return r->f[i];
    fail_msg("no column %s", name);
    return NULL;
}

static char *export(const fixture *f, const tco_focus_request *q)
{
    size_t len = 0;
    tco_error err = TCO_ERROR_INIT;
    if (tco_attribution_focus_csv(f->a, f->tags, q, NULL, 0, &len, &err))
        fail_msg("%s", err.message);
    char *text = malloc(len + 1);
    size_t again = 0;
    assert_int_equal(tco_attribution_focus_csv(f->a, f->tags, q, text, len + 1, &again, &err), TCO_OK);
    assert_int_equal(again, len);
    assert_int_equal(strlen(text), len);
    return text;
}

static void test_rows(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    char *text = export(&f, NULL), *p = text;
    csv_row head, r;
    assert_true(next_row(&p, &head));
    assert_int_equal(head.n, 58);
    struct {
        const char *team, *service, *charge, *billed, *pricing, *quantity, *list, *status, *consumed, *unit,
            *list_unit;
    } want[] = {
        /* a: 40 h x 2.5; listed at the on-demand 4: 160.00 */
        { "a", "compute", "direct", "100.00", "Committed", "40.0", "160.00", "Used", "40.0", "2.5", "4.0" },
        /* a's idle: 97.50 x 100/140 = 69.642857: 6964 of a's 16964 cents
         * (the bill, 23750, splits 16964.29 : 6785.71, b's larger
         * remainder takes the cent). 30 h x 100/140 = 21.428571 idle
         * hours, half under each class: on demand 42.857143, reserved
         * 26.785714; their remainders .71 and .57 give on demand the cent:
         * 42.86 and 26.78. The reserved half is the term's unused part,
         * listed at 10.714286 h x 4 = 42.86. */
        { "a", "waste", "idle", "42.86", "Standard", "10.714286", "42.86", "", "10.714286", "4.0", "4.0" },
        { "a", "waste", "idle", "26.78", "Committed", "10.714286", "42.86", "Unused", "", "2.5", "4.0" },
        /* b: 10 h x 4 */
        { "b, \"the second\"", "compute", "direct", "40.00", "Standard", "10.0", "40.00", "", "10.0", "4.0", "4.0" },
        /* b's idle: 2786 of its 6786 cents: on demand 17.142857, reserved
         * 10.714286; the cent to the larger remainder, .43: 17.14 and 10.72 */
        { "b, \"the second\"", "waste", "idle", "17.14", "Standard", "4.285714", "17.14", "", "4.285714", "4.0", "4.0" },
        { "b, \"the second\"", "waste", "idle", "10.72", "Committed", "4.285714", "17.14", "Unused", "", "2.5", "4.0" },
    };
    size_t n = 0;
    int64_t total = 0;
    while (next_row(&p, &r)) {
        assert_true(n < sizeof want / sizeof want[0]);
        assert_int_equal(r.n, head.n);
        assert_string_equal(col(&head, &r, "SubAccountId"), want[n].team);
        assert_string_equal(col(&head, &r, "SubAccountType"), "team");
        assert_string_equal(col(&head, &r, "ServiceName"), want[n].service);
        assert_string_equal(col(&head, &r, "x_Charge"), want[n].charge);
        assert_string_equal(col(&head, &r, "BilledCost"), want[n].billed);
        assert_string_equal(col(&head, &r, "EffectiveCost"), want[n].billed);
        assert_string_equal(col(&head, &r, "ContractedCost"), want[n].billed);
        assert_string_equal(col(&head, &r, "ListCost"), want[n].list);
        assert_string_equal(col(&head, &r, "ContractedUnitPrice"), want[n].unit); /* the rate of the class */
        assert_string_equal(col(&head, &r, "ListUnitPrice"), want[n].list_unit);
        assert_string_equal(col(&head, &r, "ChargeFrequency"), "Usage-Based");
        assert_string_equal(col(&head, &r, "PricingCategory"), want[n].pricing);
        assert_string_equal(col(&head, &r, "PricingQuantity"), want[n].quantity);
        assert_string_equal(col(&head, &r, "CommitmentDiscountStatus"), want[n].status);
        assert_string_equal(col(&head, &r, "ConsumedQuantity"), want[n].consumed);
        assert_string_equal(col(&head, &r, "BillingCurrency"), "EUR");
        if (n == 3) /* b's own time, on demand (class 0) */
            assert_string_equal(col(&head, &r, "ChargeDescription"), "compute: accelerator time (on_demand)");
        assert_string_equal(col(&head, &r, "ChargeCategory"), "Usage");
        assert_string_equal(col(&head, &r, "BillingPeriodStart"), "2026-11-01T00:00:00Z");
        assert_string_equal(col(&head, &r, "BillingPeriodEnd"), "2026-11-01T10:00:00Z");
        assert_string_equal(col(&head, &r, "InvoiceId"), "libtco-2026-11");
        const char *tags = col(&head, &r, "Tags");
        assert_string_equal(tags, n < 3 ? "{\"team\":\"a\"}" : "{\"team\":\"b, \\\"the second\\\"\"}");
        if (strcmp(want[n].status, "Unused") == 0)
            assert_string_equal(col(&head, &r, "ResourceId"), "libtco/reserved");
        total += llround(strtod(want[n].billed, NULL) * 100);
        n++;
    }
    assert_int_equal(n, sizeof want / sizeof want[0]);
    tco_bill b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    assert_int_equal(tco_attribution_bill(&b, f.a, NULL), TCO_OK);
    assert_int_equal(b.total, 23750);
    assert_int_equal(total, b.total);
    free(text);
    unmake(&f);
}

/* Who bills whom: the request's names, and the defaults they replace. */
static void test_request(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    tco_focus_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.billing_account_id = "gpu-1";
    q.billing_account_name = "GPU cluster one";
    q.invoice_id = "INV-7";
    q.region_id = "eu-west";
    char *text = export(&f, &q), *p = text;
    csv_row head, r;
    assert_true(next_row(&p, &head));
    assert_true(next_row(&p, &r));
    assert_string_equal(col(&head, &r, "BillingAccountId"), "gpu-1");
    assert_string_equal(col(&head, &r, "BillingAccountName"), "GPU cluster one");
    assert_string_equal(col(&head, &r, "ProviderName"), "GPU cluster one");
    assert_string_equal(col(&head, &r, "InvoiceIssuerName"), "GPU cluster one");
    assert_string_equal(col(&head, &r, "InvoiceId"), "INV-7");
    assert_string_equal(col(&head, &r, "RegionId"), "eu-west");
    assert_string_equal(col(&head, &r, "RegionName"), "eu-west");
    assert_string_equal(col(&head, &r, "CommitmentDiscountId"), "gpu-1/reserved");
    assert_string_equal(col(&head, &r, "ResourceId"), "gpu-1/accelerators/reserved");
    free(text);
    unmake(&f);
}

/* Storage is a row of its own, of the group that stored and of no other:
 * team a's 7,305 GB-hours at 0.1 EUR per GB-month of 730.5 hours
 * (8,766 / 12) are 1.00 EUR; team b stored nothing and has no storage row. */
static void test_storage_row(void **state)
{
    (void)state;
    fixture f;
    make_of(&f, 0.1, 7305, TCO_CLASS_ON_DEMAND, 2.5);
    char *text = export(&f, NULL), *p = text;
    csv_row head, r;
    assert_true(next_row(&p, &head));
    int rows = 0;
    while (next_row(&p, &r)) {
        if (strcmp(col(&head, &r, "x_Charge"), "storage") != 0)
            continue;
        rows++;
        assert_string_equal(col(&head, &r, "SubAccountId"), "a");
        assert_string_equal(col(&head, &r, "BilledCost"), "1.00");
        assert_string_equal(col(&head, &r, "PricingQuantity"), "7305.0");
        assert_string_equal(col(&head, &r, "PricingUnit"), "GB-Hours");
        assert_string_equal(col(&head, &r, "ResourceId"), "libtco/storage");
    }
    assert_int_equal(rows, 1);
    free(text);
    unmake(&f);
}

/* The list price of time that is not reserved is its own rate. FOCUS 1.2,
 * ListUnitPrice: "the suggested service provider-published unit price for
 * a single Pricing Unit of the associated SKU, exclusive of any
 * discounts", and ListUnitPrice x PricingQuantity MUST equal ListCost.
 * Spot time is its own SKU (compute/direct/spot) at its own published
 * rate, no discount off another: b's 2 spot accelerators x 5 h = 10 h at
 * 1 are 10.00, listed at 1 x 10 = 10.00, not at the on-demand 4 (40.00),
 * which lists only reserved time. */
static void test_spot_list_price(void **state)
{
    (void)state;
    fixture f;
    make_of(&f, -1, 0, TCO_CLASS_SPOT, 2.5);
    char *text = export(&f, NULL), *p = text;
    csv_row head, r;
    assert_true(next_row(&p, &head));
    int rows = 0;
    while (next_row(&p, &r)) {
        if (strcmp(col(&head, &r, "SkuId"), "compute/direct/spot") != 0)
            continue;
        rows++;
        assert_string_equal(col(&head, &r, "PricingCategory"), "Dynamic");
        assert_string_equal(col(&head, &r, "PricingQuantity"), "10.0");
        assert_string_equal(col(&head, &r, "BilledCost"), "10.00");
        assert_string_equal(col(&head, &r, "ContractedUnitPrice"), "1.0");
        assert_string_equal(col(&head, &r, "ListUnitPrice"), "1.0");
        assert_string_equal(col(&head, &r, "ListCost"), "10.00");
    }
    assert_int_equal(rows, 1);
    free(text);
    unmake(&f);
}

/* A commitment at the on-demand rate is no discount: listed at what it is
 * billed (FOCUS 1.2 compares ListCost with BilledCost for the savings,
 * here none), row by row, whatever cents the split gives each row. Team
 * b's record of 1 to 9 hours: idle shares of 30 to 70 hours that fall
 * between cents. */
static void test_reserved_at_list(void **state)
{
    (void)state;
    fixture f;
    make_of(&f, -1, 0, TCO_CLASS_ON_DEMAND, 4);
    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = T0;
    q.period_end = T0 + 10 * H;
    q.by_key[0] = f.pair[0];
    q.by_count = 1;
    q.idle_rule = q.shared_rule = TCO_SPREAD_USAGE;
    for (int hours = 1; hours <= 9; hours++) {
        tco_attribution_free(f.a);
        f.r[1].end = T0 + hours * H;
        assert_int_equal(tco_attribute(&f.a, f.r, 2, f.pair, 2, f.tags, &q, f.sc.t, f.sc.w, f.sc.p, NULL), TCO_OK);
        char *text = export(&f, NULL), *p = text;
        csv_row head, r;
        assert_true(next_row(&p, &head));
        while (next_row(&p, &r))
            assert_string_equal(col(&head, &r, "ListCost"), col(&head, &r, "BilledCost"));
        free(text);
    }
    unmake(&f);
}

/* A billing account id of the longest allowed, TCO_TAG_MAX bytes, is
 * written whole in the ids made from it (the commitment's, the invoice's). */
static void test_long_account(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    char id[TCO_TAG_MAX + 1], want[TCO_TAG_MAX + 16];
    memset(id, 'x', TCO_TAG_MAX);
    id[TCO_TAG_MAX] = '\0';
    tco_focus_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.billing_account_id = id;
    char *text = export(&f, &q), *p = text;
    csv_row head, r;
    assert_true(next_row(&p, &head));
    int unused = 0;
    while (next_row(&p, &r)) {
        snprintf(want, sizeof want, "%s-2026-11", id);
        assert_string_equal(col(&head, &r, "InvoiceId"), want);
        if (strcmp(col(&head, &r, "CommitmentDiscountStatus"), "Unused") != 0) {
            /* the accelerators' resource, named whole after the long id */
            char od[TCO_TAG_MAX + 40], rs[TCO_TAG_MAX + 40];
            snprintf(od, sizeof od, "%s/accelerators/on_demand", id);
            snprintf(rs, sizeof rs, "%s/accelerators/reserved", id);
            const char *rid = col(&head, &r, "ResourceId");
            assert_true(strcmp(rid, od) == 0 || strcmp(rid, rs) == 0);
            continue;
        }
        unused++;
        snprintf(want, sizeof want, "%s/reserved", id);
        assert_string_equal(col(&head, &r, "CommitmentDiscountId"), want);
        assert_string_equal(col(&head, &r, "ResourceId"), want);
    }
    assert_int_equal(unused, 2);
    free(text);
    unmake(&f);
}

/* Grouped by two keys: the sub-account is "value/value" under
 * "team/project", each value up to TCO_TAG_MAX bytes written whole, and a
 * missing value is "(none)". The period starts 90.5 s into the day: its
 * time is written to the millisecond. */
static void test_two_keys(void **state)
{
    (void)state;
    scen sc;
    scen_make_priced(&sc, -1, 2.5);
    tco_tags *tags;
    assert_int_equal(tco_tags_new(&tags, NULL), TCO_OK);
    char a[TCO_TAG_MAX + 1], b[TCO_TAG_MAX + 1], want[2 * TCO_TAG_MAX + 2];
    memset(a, 'a', TCO_TAG_MAX), a[TCO_TAG_MAX] = '\0';
    memset(b, 'b', TCO_TAG_MAX), b[TCO_TAG_MAX] = '\0';
    uint32_t team = id_of(tags, "team"), project = id_of(tags, "project");
    uint32_t pair[] = { team, id_of(tags, a), project, id_of(tags, b), team, id_of(tags, "c") };
    tco_record r[2];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 2; i++) {
        r[i].size = sizeof r[i];
        r[i].utilisation = -1;
        r[i].state = TCO_JOB_COMPLETED;
        r[i].start = T0, r[i].end = T0 + 10 * H, r[i].accelerators = 4;
        r[i].price_class = TCO_CLASS_ON_DEMAND;
    }
    r[0].first_tag = 0, r[0].tag_count = 2;
    r[1].first_tag = 2, r[1].tag_count = 1; /* no project */
    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = T0 + 90.5;
    q.period_end = T0 + 10 * H;
    q.by_key[0] = team, q.by_key[1] = project;
    q.by_count = 2;
    q.idle_rule = q.shared_rule = TCO_SPREAD_USAGE;
    fixture f;
    memset(&f, 0, sizeof f);
    f.tags = tags;
    tco_error err = TCO_ERROR_INIT;
    if (tco_attribute(&f.a, r, 2, pair, 3, tags, &q, sc.t, sc.w, sc.p, &err))
        fail_msg("%s", err.message);
    snprintf(want, sizeof want, "%s/%s", a, b);
    char *text = export(&f, NULL), *p = text;
    csv_row head, row;
    assert_true(next_row(&p, &head));
    int rows[2] = { 0, 0 };
    while (next_row(&p, &row)) {
        const char *sub = col(&head, &row, "SubAccountId");
        assert_string_equal(col(&head, &row, "SubAccountType"), "team/project");
        assert_string_equal(col(&head, &row, "BillingPeriodStart"), "2026-11-01T00:01:30.500Z");
        if (strcmp(sub, "c/(none)") == 0)
            rows[1]++;
        else {
            assert_string_equal(sub, want);
            rows[0]++;
        }
    }
    assert_true(rows[0] > 0 && rows[1] > 0);
    free(text);
    tco_attribution_free(f.a);
    tco_tags_free(tags);
    scen_free(&sc);
}

static void test_errors(void **state)
{
    (void)state;
    fixture f;
    make(&f);
    tco_error err = TCO_ERROR_INIT;
    size_t len = 0, need;
    assert_int_equal(tco_attribution_focus_csv(f.a, f.tags, NULL, NULL, 0, &need, &err), TCO_OK);
    /* Too small: TCO_E_SIZE with the length, the buffer untouched. */
    char small[16] = "untouched";
    assert_int_equal(tco_attribution_focus_csv(f.a, f.tags, NULL, small, sizeof small, &len, &err), TCO_E_SIZE);
    assert_int_equal(len, need);
    assert_string_equal(small, "untouched");
    assert_string_equal(err.param_name, "cap");
    char *exact = malloc(need);
    memset(exact, 'x', need);
    assert_int_equal(tco_attribution_focus_csv(f.a, f.tags, NULL, exact, need, &len, &err), TCO_E_SIZE); /* no NUL */
    for (size_t i = 0; i < need; i++) /* untouched too */
        assert_true(exact[i] == 'x');
    free(exact);
    assert_int_equal(tco_attribution_focus_csv(NULL, f.tags, NULL, NULL, 0, &len, &err), TCO_E_NULL);
    assert_int_equal(tco_attribution_focus_csv(f.a, NULL, NULL, NULL, 0, &len, &err), TCO_E_NULL);
    assert_int_equal(tco_attribution_focus_csv(f.a, f.tags, NULL, NULL, 0, NULL, &err), TCO_E_NULL);
    assert_int_equal(tco_attribution_focus_csv(f.a, f.tags, NULL, NULL, 8, &len, &err), TCO_E_NULL);

    tco_focus_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.provider_name = "bad\nname";
    assert_int_equal(tco_attribution_focus_csv(f.a, f.tags, &q, NULL, 0, &len, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "request.provider_name");
    q.provider_name = "\xff";
    assert_int_equal(tco_attribution_focus_csv(f.a, f.tags, &q, NULL, 0, &len, &err), TCO_E_RANGE);
    q.provider_name = NULL;
    q.size = 4;
    assert_int_equal(tco_attribution_focus_csv(f.a, f.tags, &q, NULL, 0, &len, &err), TCO_E_SIZE);

    /* A table that is not the attribution's: empty (no key), or holding
     * the key (id 0) but not the groups' values (ids 1 and 2). */
    tco_tags *other;
    assert_int_equal(tco_tags_new(&other, NULL), TCO_OK);
    assert_int_equal(tco_attribution_focus_csv(f.a, other, NULL, NULL, 0, &len, &err), TCO_E_INCONSISTENT);
    id_of(other, "team");
    assert_int_equal(tco_attribution_focus_csv(f.a, other, NULL, NULL, 0, &len, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "tags");
    assert_non_null(strstr(err.message, "tags holds 1 texts, but a group has value id"));
    /* the key and the first value (ids 0 and 1): the second value, id 2,
     * is the first id past the table */
    id_of(other, "a");
    assert_int_equal(tco_attribution_focus_csv(f.a, other, NULL, NULL, 0, &len, &err), TCO_E_INCONSISTENT);
    assert_non_null(strstr(err.message, "tags holds 2 texts, but a group has value id 2"));
    tco_tags_free(other);
    unmake(&f);
}

/* Shared services' rows: the platform at 730.5 per node-month, the one
 * node for 10 h of a 730.5 h month: 10.00, spread evenly over the two
 * teams, 5.00 each, charged as 0.5 x 10 = 5 hours of the period at 1.00
 * an hour, recurring. */
static void test_shared_rows(void **state)
{
    (void)state;
    fixture f;
    memset(&f, 0, sizeof f);
    scen_defaults(&f.sc);
    ST(&f.sc, TCO_P_ACCELERATORS, 8);
    ST(&f.sc, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(&f.sc, TCO_P_OWNED_SHARE, 0);
    SW(&f.sc, TCO_P_JOB_ACCELERATORS, 0);
    scen_no_shared_services(&f.sc);
    SP(&f.sc, TCO_P_PLATFORM_PER_NODE_MONTH, 730.5);
    scen_freeze(&f.sc);
    assert_int_equal(tco_tags_new(&f.tags, NULL), TCO_OK);
    uint32_t team = id_of(f.tags, "team");
    f.pair[0] = f.pair[2] = team;
    f.pair[1] = id_of(f.tags, "a");
    f.pair[3] = id_of(f.tags, "b");
    for (int i = 0; i < 2; i++) {
        tco_record *r = &f.r[i];
        r->size = sizeof *r;
        r->start = T0, r->end = T0 + 10 * H, r->accelerators = 4, r->utilisation = -1;
        r->state = TCO_JOB_COMPLETED, r->price_class = TCO_CLASS_ON_DEMAND;
        r->first_tag = (uint32_t)i, r->tag_count = 1;
    }
    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = T0;
    q.period_end = T0 + 10 * H;
    q.by_key[0] = team;
    q.by_count = 1;
    q.idle_rule = TCO_SPREAD_USAGE;
    q.shared_rule = TCO_SPREAD_EVEN;
    assert_int_equal(tco_attribute(&f.a, f.r, 2, f.pair, 2, f.tags, &q, f.sc.t, f.sc.w, f.sc.p, NULL), TCO_OK);
    char *text = export(&f, NULL), *p = text;
    csv_row head, r;
    assert_true(next_row(&p, &head));
    int rows = 0;
    while (next_row(&p, &r)) {
        if (strcmp(col(&head, &r, "x_Charge"), "shared") != 0)
            continue;
        rows++;
        assert_string_equal(col(&head, &r, "BilledCost"), "5.00");
        assert_string_equal(col(&head, &r, "PricingQuantity"), "5.0");
        assert_string_equal(col(&head, &r, "PricingUnit"), "Hours");
        assert_string_equal(col(&head, &r, "ContractedUnitPrice"), "1.0");
        assert_string_equal(col(&head, &r, "ChargeFrequency"), "Recurring");
    }
    assert_int_equal(rows, 2);
    free(text);
    unmake(&f);
}

/* A key interned after the values it groups: ids "a" 0, "team" 1. A table
 * of the one text "a" holds the group's value but not the key, whose id
 * is the first past it: refused, not read. */
static void test_key_past_table(void **state)
{
    (void)state;
    scen sc;
    scen_make_priced(&sc, -1, 2.5);
    tco_tags *tags, *other;
    assert_int_equal(tco_tags_new(&tags, NULL), TCO_OK);
    uint32_t a = id_of(tags, "a"), team = id_of(tags, "team"), pair[2] = { team, a };
    tco_record r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    r.start = T0, r.end = T0 + H, r.accelerators = 1, r.utilisation = -1;
    r.state = TCO_JOB_COMPLETED, r.price_class = TCO_CLASS_ON_DEMAND, r.tag_count = 1;
    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = T0;
    q.period_end = T0 + H;
    q.by_key[0] = team;
    q.by_count = 1;
    q.idle_rule = q.shared_rule = TCO_SPREAD_USAGE;
    tco_attribution *at = NULL;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_attribute(&at, &r, 1, pair, 1, tags, &q, sc.t, sc.w, sc.p, &err), TCO_OK);
    assert_int_equal(tco_tags_new(&other, NULL), TCO_OK);
    id_of(other, "a");
    size_t len = 0;
    assert_int_equal(tco_attribution_focus_csv(at, other, NULL, NULL, 0, &len, &err), TCO_E_INCONSISTENT);
    assert_non_null(strstr(err.message, "tags holds 1 texts, but the attribution groups by key id 1"));
    tco_tags_free(other);
    tco_attribution_free(at);
    tco_tags_free(tags);
    scen_free(&sc);
}

/* Dates in January and February, a leap day, and a tag value with a
 * backslash and a quote: 2028-02-28T00:00:00Z is 1,835,308,800 s after
 * 1970, 2028-03-01 48 h later (2028 is a leap year: the 29th lies
 * between); 2027-01-31 to 2027-02-02 the same 48 h. In JSON the
 * backslash is written \\ and the quote \" (RFC 8259, section 7; a tag
 * holds no control character, so none is ever escaped).
 * One record, 2 accelerators on demand for the 48 h: 96 h at 4 = 384.00,
 * and the 6 x 48 idle hours at 3.25 = 936.00 its alone: 1,320.00. */
static void dates_and_escapes(double t0, const char *start, const char *end, const char *invoice)
{
    scen sc;
    scen_make_priced(&sc, -1, 2.5);
    tco_tags *tags;
    assert_int_equal(tco_tags_new(&tags, NULL), TCO_OK);
    uint32_t pair[2] = { id_of(tags, "team"), id_of(tags, "c\\d\"e") };
    tco_record r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    r.utilisation = -1;
    r.state = TCO_JOB_COMPLETED;
    r.tag_count = 1;
    r.start = t0, r.end = t0 + 48 * H, r.accelerators = 2, r.price_class = TCO_CLASS_ON_DEMAND;
    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = t0;
    q.period_end = t0 + 48 * H;
    q.by_key[0] = pair[0];
    q.by_count = 1;
    q.idle_rule = q.shared_rule = TCO_SPREAD_USAGE;
    fixture f;
    memset(&f, 0, sizeof f);
    f.tags = tags;
    tco_error err = TCO_ERROR_INIT;
    if (tco_attribute(&f.a, &r, 1, pair, 2, tags, &q, sc.t, sc.w, sc.p, &err))
        fail_msg("%s", err.message);
    char *text = export(&f, NULL), *p = text;
    csv_row head, row;
    assert_true(next_row(&p, &head));
    int64_t total = 0;
    size_t n = 0;
    while (next_row(&p, &row)) {
        assert_string_equal(col(&head, &row, "BillingPeriodStart"), start);
        assert_string_equal(col(&head, &row, "BillingPeriodEnd"), end);
        assert_string_equal(col(&head, &row, "InvoiceId"), invoice);
        assert_string_equal(col(&head, &row, "SubAccountId"), "c\\d\"e");
        assert_string_equal(col(&head, &row, "Tags"), "{\"team\":\"c\\\\d\\\"e\"}");
        total += llround(strtod(col(&head, &row, "BilledCost"), NULL) * 100);
        n++;
    }
    assert_true(n >= 2);
    assert_int_equal(total, 132000);
    free(text);
    tco_attribution_free(f.a);
    tco_tags_free(tags);
    scen_free(&sc);
}

static void test_dates_and_escapes(void **state)
{
    (void)state;
    dates_and_escapes(1835308800.0, "2028-02-28T00:00:00Z", "2028-03-01T00:00:00Z", "libtco-2028-02");
    /* 2027-01-31T00:00:00Z is 1,801,353,600 s: January, into February */
    dates_and_escapes(1801353600.0, "2027-01-31T00:00:00Z", "2027-02-02T00:00:00Z", "libtco-2027-01");
    /* 13 h 47 min 9 s later: 1,801,353,600 + 46,800 + 2,820 + 9 s, whole
     * seconds with every field of the time of day other than 0 */
    dates_and_escapes(1801403229.0, "2027-01-31T13:47:09Z", "2027-02-02T13:47:09Z", "libtco-2027-01");
    /* 2100-02-28T00:00:00Z is 4,107,456,000 s; 2100 is no leap year (a
     * century not divisible by 400): 48 h later is March 2nd */
    dates_and_escapes(4107456000.0, "2100-02-28T00:00:00Z", "2100-03-02T00:00:00Z", "libtco-2100-02");
}

/* Two keys, a tag missing, traffic and names given. The same cluster;
 * team a (user ana) holds 4 reserved accelerators for 10 h (100.00);
 * team b, without a user tag, 2 on demand for 5 h (40.00) and sends 100 GB
 * across regions at 0.02 (2.00); a record with no tag at all, 1 on demand
 * for 1 h (4.00). The 80 - 51 = 29 idle hours at 3.25 are 94.25: the bill
 * is 240.25. The groups are "a/ana", "b/(none)" and none (no sub-account);
 * the traffic is the network's row. */
static void test_two_keys_traffic_names(void **state)
{
    (void)state;
    scen sc;
    scen_defaults(&sc);
    ST(&sc, TCO_P_ACCELERATORS, 8);
    ST(&sc, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(&sc, TCO_P_OWNED_SHARE, 0);
    ST(&sc, TCO_P_RESERVED_SHARE, 0.5);
    ST(&sc, TCO_P_SPOT_SHARE, 0);
    SW(&sc, TCO_P_JOB_ACCELERATORS, 0);
    scen_no_shared_services(&sc);
    SP(&sc, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SP(&sc, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(&sc, TCO_P_SPOT_PER_ACCEL_HOUR, 1);
    SP(&sc, TCO_P_EGRESS_CROSS_REGION_PER_GB, 0.02);
    scen_freeze(&sc);
    tco_tags *tags;
    assert_int_equal(tco_tags_new(&tags, NULL), TCO_OK);
    uint32_t team = id_of(tags, "team"), user = id_of(tags, "user");
    uint32_t pair[6] = { team, id_of(tags, "a"), user, id_of(tags, "ana"), team, id_of(tags, "b") };
    tco_record r[3];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 3; i++) {
        r[i].size = sizeof r[i];
        r[i].utilisation = -1;
        r[i].state = TCO_JOB_COMPLETED;
        r[i].start = T0;
        r[i].price_class = TCO_CLASS_ON_DEMAND;
    }
    r[0].end = T0 + 10 * H, r[0].accelerators = 4, r[0].price_class = TCO_CLASS_RESERVED, r[0].tag_count = 2;
    r[1].end = T0 + 5 * H, r[1].accelerators = 2, r[1].first_tag = 2, r[1].tag_count = 1, r[1].traffic_gb[1] = 100;
    r[2].end = T0 + 1 * H, r[2].accelerators = 1;
    tco_attribution_request q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.period_start = T0;
    q.period_end = T0 + 10 * H;
    q.by_key[0] = team;
    q.by_key[1] = user;
    q.by_count = 2;
    q.idle_rule = q.shared_rule = TCO_SPREAD_USAGE;
    tco_attribution *a = NULL;
    tco_error err = TCO_ERROR_INIT;
    if (tco_attribute(&a, r, 3, pair, 3, tags, &q, sc.t, sc.w, sc.p, &err))
        fail_msg("%s", err.message);
    fixture f = { .sc = sc, .tags = tags, .a = a };
    tco_focus_request fq;
    memset(&fq, 0, sizeof fq);
    fq.size = sizeof fq;
    fq.provider_name = "Acme GPUs";
    fq.region_id = "eu-west";
    fq.region_name = "Europe West";
    char *text = export(&f, &fq), *p = text;
    csv_row head, row;
    assert_true(next_row(&p, &head));
    int64_t total = 0;
    int network = 0, seen[3] = { 0, 0, 0 };
    while (next_row(&p, &row)) {
        const char *sub = col(&head, &row, "SubAccountId"), *tagcol = col(&head, &row, "Tags");
        assert_string_equal(col(&head, &row, "ProviderName"), "Acme GPUs");
        assert_string_equal(col(&head, &row, "RegionId"), "eu-west");
        assert_string_equal(col(&head, &row, "RegionName"), "Europe West");
        if (strcmp(sub, "a/ana") == 0) {
            seen[0]++;
            assert_string_equal(col(&head, &row, "SubAccountType"), "team/user");
            assert_string_equal(tagcol, "{\"team\":\"a\",\"user\":\"ana\"}");
        } else if (strcmp(sub, "b/(none)") == 0) {
            seen[1]++;
            assert_string_equal(tagcol, "{\"team\":\"b\"}");
            if (strcmp(col(&head, &row, "ServiceName"), "network") == 0) {
                network++;
                assert_string_equal(col(&head, &row, "BilledCost"), "2.00");
                assert_string_equal(col(&head, &row, "ResourceId"), "libtco/network");
                assert_string_equal(col(&head, &row, "ResourceName"), "network");
                assert_string_equal(col(&head, &row, "ResourceType"), "Network");
            }
        } else {
            seen[2]++;
            assert_string_equal(sub, ""); /* no sub-account: null */
            assert_string_equal(col(&head, &row, "SubAccountType"), "");
            assert_string_equal(tagcol, "{}");
        }
        total += llround(strtod(col(&head, &row, "BilledCost"), NULL) * 100);
    }
    assert_int_equal(network, 1);
    assert_true(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);
    tco_bill b;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    assert_int_equal(tco_attribution_bill(&b, a, NULL), TCO_OK);
    assert_int_equal(b.total, 24025);
    assert_int_equal(total, b.total);
    free(text);
    unmake(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_request),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_two_keys_traffic_names),
        cmocka_unit_test(test_storage_row),
        cmocka_unit_test(test_spot_list_price),
        cmocka_unit_test(test_reserved_at_list),
        cmocka_unit_test(test_key_past_table),
        cmocka_unit_test(test_shared_rows),
        cmocka_unit_test(test_long_account),
        cmocka_unit_test(test_two_keys),
        cmocka_unit_test(test_dates_and_escapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
