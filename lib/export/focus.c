/* An attribution as FinOps FOCUS 1.2 cost and usage rows, in CSV
 * (doc/focus.md).
 *
 * Each group's cents of a category are split by the largest remainder
 * over the charges that make them up (its accelerator time by price
 * class, storage, traffic, idle capacity by class, shared services), so
 * the rows add up to the group's cents and the bill exactly. Numbers are
 * written without printf's locale: money from integer cents, quantities
 * and unit prices with a '.' whatever LC_NUMERIC says. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib/attrib.h"
#include "records/records.h"

enum { CATS = TCO__ATTRIB_CATS, CLASSES = 4 };
#define REQUEST_V1_SIZE sizeof(tco_focus_request)

/* ---- one table of what each category and charge becomes ---------------- */

/* FOCUS ServiceCategory and ServiceSubcategory of a category (its
 * ServiceName is the category's own name). */
static const struct {
    const char *category, *subcategory;
} service[CATS] = {
    [TCO_CAT_COMPUTE] = { "AI and Machine Learning", "Machine Learning" },
    [TCO_CAT_POWER] = { "Other", "Other (Other)" },
    [TCO_CAT_COOLING] = { "Other", "Other (Other)" },
    [TCO_CAT_NETWORK] = { "Networking", "Network Infrastructure" },
    [TCO_CAT_STORAGE] = { "Storage", "File Storage" },
    [TCO_CAT_DATABASE] = { "Databases", "Other (Databases)" },
    [TCO_CAT_LOGGING] = { "Management and Governance", "Observability" },
    [TCO_CAT_SECURITY] = { "Security", "Other (Security)" },
    [TCO_CAT_PLATFORM] = { "Management and Governance", "Other (Management and Governance)" },
    [TCO_CAT_STAFF] = { "Other", "Other (Other)" },
    [TCO_CAT_INDIRECT] = { "Other", "Other (Other)" },
    [TCO_CAT_WASTE] = { "AI and Machine Learning", "Machine Learning" },
};

/* FOCUS PricingCategory of a price class. */
static const char *const pricing_category[CLASSES] = {
    [TCO_CLASS_ON_DEMAND] = "Standard", [TCO_CLASS_RESERVED] = "Committed",
    [TCO_CLASS_SPOT] = "Dynamic", [TCO_CLASS_OWNED] = "Other",
};

/* The charges a group's category is made of. */
enum charge { DIRECT, STORAGE, TRAFFIC, IDLE, SHARED };
static const char *const charge_name[] = { "direct", "storage", "traffic", "idle", "shared" };

typedef struct line {
    enum charge charge;
    int cls;         /* a tco_price_class for DIRECT and IDLE; else -1 */
    double amount;   /* cur */
    double quantity; /* in unit */
    const char *unit;
} line;

#define ACCEL_HOURS "Accelerator-Hours"

/* ---- text --------------------------------------------------------------- */

typedef struct out {
    char *p;
    size_t n, cap;
    int nomem;
    int fields; /* written on the current row: the first has no comma before it */
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->nomem)
        return;
    if (o->n + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->n + n + 1)
            cap *= 2;
        char *p = realloc(o->p, cap);
        if (!p) {
            o->nomem = 1;
            return;
        }
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->n, s, n);
    o->n += n;
    o->p[o->n] = '\0';
}

static void puts_(out *o, const char *s)
{
    put(o, s, strlen(s));
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void field(out *o, const char *s)
{
    if (o->fields++)
        put(o, ",", 1);
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        puts_(o, s);
        return;
    }
    put(o, "\"", 1);
    for (const char *q = s; *q; q++) {
        if (*q == '"')
            put(o, "\"", 1); /* a quote is written twice */
        put(o, q, 1);
    }
    put(o, "\"", 1);
}

/* Cents as a decimal with two places: 1234 -> "12.34". Never negative:
 * every amount of a bill is at least 0, and so every cent of its split. */
static const char *money(char *buf, size_t cap, int64_t c)
{
    snprintf(buf, cap, "%lld.%02d", (long long)(c / 100), (int)(c % 100));
    return buf;
}

/* A decimal with up to places digits after the point, at least one, and
 * a '.' whatever the locale. */
static const char *decimal(char *buf, size_t cap, double v, int places)
{
    snprintf(buf, cap, "%.*f", places, v);
    char *point = NULL;
    for (char *q = buf; *q; q++)
        if (!(*q >= '0' && *q <= '9') && *q != '-')
            *q = '.', point = q;
    if (!point)
        return buf;
    char *end = buf + strlen(buf) - 1;
    while (end > point + 1 && *end == '0')
        *end-- = '\0';
    if (strcmp(buf, "-0.0") == 0)
        strcpy(buf, "0.0");
    return buf;
}

/* Days since 1970-01-01 to a date (Hinnant's civil_from_days), for days
 * from 1970 on (times before it are refused): z below is never negative,
 * so the era is a plain quotient. */
static void civil(int64_t z, int *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = z / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int)(yoe + era * 400 + (*m <= 2));
}

/* UTC seconds as YYYY-MM-DDTHH:MM:SSZ (with milliseconds when not whole). */
static const char *iso(char *buf, size_t cap, double t)
{
    double whole = floor(t);
    int64_t s = (int64_t)whole, day = s / 86400, sec = s % 86400;
    int y;
    unsigned m, d;
    civil(day, &y, &m, &d);
    int ms = (int)floor((t - whole) * 1000);
    if (ms)
        snprintf(buf, cap, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", y, m, d, (int)(sec / 3600), (int)(sec / 60 % 60),
                 (int)(sec % 60), ms);
    else
        snprintf(buf, cap, "%04d-%02u-%02uT%02d:%02d:%02dZ", y, m, d, (int)(sec / 3600), (int)(sec / 60 % 60),
                 (int)(sec % 60));
    return buf;
}

/* A JSON string's body: quotes, backslashes and control bytes escaped. */
static void json_text(out *o, const char *s)
{
    put(o, "\"", 1);
    for (const char *q = s; *q; q++) {
        unsigned char c = (unsigned char)*q;
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            put(o, e, 2);
        } else if (c < 0x20) {
            char e[7];
            snprintf(e, sizeof e, "\\u%04x", c);
            put(o, e, 6);
        } else {
            put(o, q, 1);
        }
    }
    put(o, "\"", 1);
}

/* ---- the request ---------------------------------------------------------- */

typedef struct names {
    const char *account, *account_name, *provider, *invoice, *region, *region_name;
    char invoice_buf[TCO_TAG_MAX + 16];
} names;

static int text_check(const char *text, const char *field, tco_error *err)
{
    if (!text)
        return TCO_OK;
    size_t n = strlen(text), at;
    const char *problem = tco__tag_problem(text, n, &at);
    if (problem)
        return tco__fail_named(err, TCO_E_RANGE, field,
                               "%s %s (at byte %zu): allowed up to %d bytes of UTF-8 without control characters",
                               field, problem, at, TCO_TAG_MAX);
    return TCO_OK;
}

static int names_of(names *nm, const tco_focus_request *q, double period_start, tco_error *err)
{
    static const tco_focus_request none = { sizeof none, NULL, NULL, NULL, NULL, NULL, NULL };
    if (!q)
        q = &none;
    if (q->size < REQUEST_V1_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, "focus_request.size",
                               "focus_request.size = %zu is below %zu: set it to sizeof(tco_focus_request)", q->size,
                               REQUEST_V1_SIZE);
    int rc = input_size_check(q, q->size, sizeof *q, "focus_request", err);
    const struct {
        const char *v, *name;
    } f[] = { { q->billing_account_id, "request.billing_account_id" },
              { q->billing_account_name, "request.billing_account_name" },
              { q->provider_name, "request.provider_name" },
              { q->invoice_id, "request.invoice_id" },
              { q->region_id, "request.region_id" },
              { q->region_name, "request.region_name" } };
    for (size_t i = 0; !rc && i < sizeof f / sizeof f[0]; i++)
        rc = text_check(f[i].v, f[i].name, err);
    if (rc)
        return rc;
    nm->account = q->billing_account_id ? q->billing_account_id : "libtco";
    nm->account_name = q->billing_account_name ? q->billing_account_name : nm->account;
    nm->provider = q->provider_name ? q->provider_name : nm->account_name;
    nm->region = q->region_id;
    nm->region_name = q->region_name ? q->region_name : q->region_id;
    if (q->invoice_id) {
        nm->invoice = q->invoice_id;
    } else {
        int y;
        unsigned m, d;
        civil((int64_t)floor(period_start / 86400), &y, &m, &d);
        snprintf(nm->invoice_buf, sizeof nm->invoice_buf, "%s-%04d-%02u", nm->account, y, m);
        nm->invoice = nm->invoice_buf;
    }
    return TCO_OK;
}

/* ---- the rows --------------------------------------------------------------- */

static const char *const columns =
    "BillingAccountId,BillingAccountName,BillingAccountType,SubAccountId,SubAccountName,SubAccountType,"
    "InvoiceId,InvoiceIssuerName,ProviderName,PublisherName,BillingPeriodStart,BillingPeriodEnd,"
    "ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ChargeClass,ChargeFrequency,ChargeDescription,"
    "BillingCurrency,BilledCost,EffectiveCost,ListCost,ContractedCost,ListUnitPrice,ContractedUnitPrice,"
    "PricingCategory,PricingQuantity,PricingUnit,PricingCurrency,PricingCurrencyListUnitPrice,"
    "PricingCurrencyContractedUnitPrice,PricingCurrencyEffectiveCost,ConsumedQuantity,ConsumedUnit,"
    "CommitmentDiscountId,CommitmentDiscountName,CommitmentDiscountType,CommitmentDiscountCategory,"
    "CommitmentDiscountStatus,CommitmentDiscountQuantity,CommitmentDiscountUnit,CapacityReservationId,"
    "CapacityReservationStatus,RegionId,RegionName,AvailabilityZone,ResourceId,ResourceName,ResourceType,"
    "ServiceName,ServiceCategory,ServiceSubcategory,SkuId,SkuPriceId,SkuMeter,SkuPriceDetails,Tags,x_Charge\n";

/* The charges of group g's category k, in the order of the rows. */
static size_t lines_of(line *l, const tco_attribution *a, const tco__attrib_group *g, int k)
{
    size_t n = 0;
    for (int c = 0; c < CLASSES; c++)
        if (g->held[c] > 0 && a->rate[c][k] != 0)
            l[n++] = (line){ DIRECT, c, g->held[c] * a->rate[c][k], g->held[c], ACCEL_HOURS };
    if (k == TCO_CAT_STORAGE && g->storage != 0)
        l[n++] = (line){ STORAGE, -1, g->storage, g->storage_gbh, "GB-Hours" };
    if (k == TCO_CAT_NETWORK && g->traffic != 0)
        l[n++] = (line){ TRAFFIC, -1, g->traffic, g->traffic_gb, "GB" };
    double idle_h = g->idle_share * a->idle_hours;
    for (int c = 0; c < CLASSES; c++)
        if (a->idle_class[c][k] != 0 && idle_h > 0)
            l[n++] = (line){ IDLE, c, idle_h * a->idle_class[c][k], idle_h * a->idle_mix[c], ACCEL_HOURS };
    if (g->shared_share * a->shared[k] != 0)
        l[n++] = (line){ SHARED, -1, g->shared_share * a->shared[k], g->shared_share * a->bill.period_hours,
                         "Hours" };
    return n;
}

typedef struct ctx {
    const tco_attribution *a;
    const tco_tags *tags;
    const names *nm;
    char period[2][40];
    char commitment[TCO_TAG_MAX + 16];
} ctx;

static void row(out *o, const ctx *x, const tco__attrib_group *g, int k, const line *l, int64_t cents)
{
    const tco_attribution *a = x->a;
    const tco_attribution_request *q = &a->request;
    const char *key[2] = { tco_tags_text(x->tags, q->by_key[0]),
                           q->by_count > 1 ? tco_tags_text(x->tags, q->by_key[1]) : NULL };
    const char *value[2] = { g->value[0] != TCO_TAG_NONE ? tco_tags_text(x->tags, g->value[0]) : NULL,
                             q->by_count > 1 && g->value[1] != TCO_TAG_NONE ? tco_tags_text(x->tags, g->value[1])
                                                                            : NULL };
    char b[8][64];

    o->fields = 0;
    field(o, x->nm->account);
    field(o, x->nm->account_name);
    field(o, "Cluster");
    /* The sub-account is the group: its values and its keys. */
    char sub[2 * TCO_TAG_MAX + 4], subtype[2 * TCO_TAG_MAX + 4];
    int any = value[0] || value[1];
    snprintf(sub, sizeof sub, "%s%s%s", value[0] ? value[0] : "(none)", q->by_count > 1 ? "/" : "",
             q->by_count > 1 ? (value[1] ? value[1] : "(none)") : "");
    snprintf(subtype, sizeof subtype, "%s%s%s", key[0], q->by_count > 1 ? "/" : "", q->by_count > 1 ? key[1] : "");
    field(o, any ? sub : NULL);
    field(o, any ? sub : NULL);
    field(o, any ? subtype : NULL);
    field(o, x->nm->invoice);
    field(o, x->nm->provider);
    field(o, x->nm->provider);
    field(o, x->nm->provider);
    field(o, x->period[0]);
    field(o, x->period[1]);
    field(o, x->period[0]);
    field(o, x->period[1]);
    field(o, "Usage");
    field(o, NULL); /* ChargeClass: no correction */
    field(o, l->charge == SHARED ? "Recurring" : "Usage-Based");
    char desc[128];
    static const char *const what[] = { "accelerator time", "storage kept", "traffic", "idle capacity share",
                                        "shared services share" };
    snprintf(desc, sizeof desc, "%s: %s%s%s%s", tco_category_name(k), what[l->charge], l->cls >= 0 ? " (" : "",
             l->cls >= 0 ? tco_price_class_name(l->cls) : "", l->cls >= 0 ? ")" : "");
    field(o, desc);
    field(o, a->currency);

    /* Money: billed, effective and contracted are the row's cents; list is
     * the on-demand price of reserved accelerator time, else the same. */
    int reserved = l->cls == TCO_CLASS_RESERVED, unused = reserved && l->charge == IDLE;
    double unit = l->quantity > 0 ? l->amount / l->quantity : 0;
    double list_unit = unit;
    int64_t list = cents;
    double od = a->rate[TCO_CLASS_ON_DEMAND][TCO_CAT_COMPUTE];
    if (reserved && (k == TCO_CAT_COMPUTE || k == TCO_CAT_WASTE) && od > unit) {
        list_unit = od;
        list = llround(l->quantity * od * 100);
    }
    money(b[0], sizeof b[0], cents);
    field(o, b[0]);
    field(o, b[0]);
    field(o, money(b[1], sizeof b[1], list));
    field(o, b[0]);
    int priced = l->quantity > 0;
    field(o, priced ? decimal(b[2], sizeof b[2], list_unit, 10) : NULL);
    field(o, priced ? decimal(b[3], sizeof b[3], unit, 10) : NULL);
    field(o, l->cls >= 0 ? pricing_category[l->cls] : l->charge == SHARED ? "Other" : "Standard");
    field(o, decimal(b[4], sizeof b[4], l->quantity, 6));
    field(o, l->unit);
    field(o, a->currency);
    field(o, priced ? b[2] : NULL);
    field(o, priced ? b[3] : NULL);
    field(o, b[0]);
    field(o, unused ? NULL : b[4]); /* ConsumedQuantity: none of an unused commitment */
    field(o, unused ? NULL : l->unit);

    /* The reserved term: used by the records, unused when idle. */
    field(o, reserved ? x->commitment : NULL);
    field(o, reserved ? "Reserved accelerators" : NULL);
    field(o, reserved ? "Reserved" : NULL);
    field(o, reserved ? "Usage" : NULL);
    field(o, reserved ? (unused ? "Unused" : "Used") : NULL);
    field(o, reserved ? b[4] : NULL);
    field(o, reserved ? ACCEL_HOURS : NULL);
    field(o, NULL); /* CapacityReservationId, Status */
    field(o, NULL);
    field(o, x->nm->region);
    field(o, x->nm->region ? x->nm->region_name : NULL);
    field(o, NULL); /* AvailabilityZone */

    /* The resource: the accelerators of a class, the store, the network;
     * shared services are tied to none. */
    char rid[TCO_TAG_MAX + 40], rname[64];
    const char *rtype = NULL;
    if (l->charge == DIRECT || l->charge == IDLE) {
        snprintf(rid, sizeof rid, "%s/accelerators/%s", x->nm->account, tco_price_class_name(l->cls));
        snprintf(rname, sizeof rname, "%s accelerators", tco_price_class_name(l->cls));
        rtype = "Accelerator";
    } else if (l->charge == STORAGE || l->charge == TRAFFIC) {
        snprintf(rid, sizeof rid, "%s/%s", x->nm->account, l->charge == STORAGE ? "storage" : "network");
        snprintf(rname, sizeof rname, "%s", l->charge == STORAGE ? "storage" : "network");
        rtype = l->charge == STORAGE ? "Storage" : "Network";
    }
    field(o, unused ? x->commitment : rtype ? rid : NULL);
    field(o, rtype ? rname : NULL);
    field(o, rtype);
    field(o, tco_category_name(k));
    field(o, service[k].category);
    field(o, service[k].subcategory);
    char sku[96];
    snprintf(sku, sizeof sku, "%s/%s%s%s", tco_category_name(k), charge_name[l->charge], l->cls >= 0 ? "/" : "",
             l->cls >= 0 ? tco_price_class_name(l->cls) : "");
    field(o, sku);
    field(o, sku);
    field(o, l->unit);
    field(o, NULL); /* SkuPriceDetails */

    /* Tags: the group's values, a JSON object, in one CSV field. */
    out t = { 0 };
    put(&t, "{", 1);
    for (uint32_t i = 0, n = 0; i < q->by_count; i++)
        if (value[i]) {
            if (n++)
                put(&t, ",", 1);
            json_text(&t, key[i]);
            put(&t, ":", 1);
            json_text(&t, value[i]);
        }
    put(&t, "}", 1);
    if (t.nomem)
        o->nomem = 1;
    else
        field(o, t.p);
    free(t.p);
    field(o, charge_name[l->charge]);
    put(o, "\n", 1);
}

int tco_attribution_focus_csv(const tco_attribution *a, const tco_tags *tags, const tco_focus_request *request,
                              char *buf, size_t cap, size_t *len, tco_error *err)
{
    if (!a || !tags || !len)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !a ? "a" : !tags ? "tags" : "len");
    if (cap && !buf)
        return tco__fail(err, TCO_E_NULL, "buf must not be NULL when cap = %zu", cap);
    names nm;
    int rc = names_of(&nm, request, a->request.period_start, err);
    if (rc)
        return rc;
    /* The ids the attribution names must be the table's. */
    size_t ntags = tco_tags_count(tags);
    const tco_attribution_request *q = &a->request;
    for (uint32_t k = 0; k < q->by_count; k++)
        if (q->by_key[k] >= ntags)
            return tco__fail_named(err, TCO_E_INCONSISTENT, "tags",
                                   "tags holds %zu texts, but the attribution groups by key id %u: give the table "
                                   "the attribution was made with",
                                   ntags, (unsigned)q->by_key[k]);
    for (size_t g = 0; g < a->groups; g++)
        for (uint32_t k = 0; k < q->by_count; k++)
            if (a->group[g].value[k] != TCO_TAG_NONE && a->group[g].value[k] >= ntags)
                return tco__fail_named(err, TCO_E_INCONSISTENT, "tags",
                                       "tags holds %zu texts, but a group has value id %u: give the table the "
                                       "attribution was made with",
                                       ntags, (unsigned)a->group[g].value[k]);

    ctx x = { a, tags, &nm, { "", "" }, "" };
    iso(x.period[0], sizeof x.period[0], q->period_start);
    iso(x.period[1], sizeof x.period[1], q->period_end);
    snprintf(x.commitment, sizeof x.commitment, "%s/reserved", nm.account);

    out o = { 0 };
    puts_(&o, columns);
    line l[2 * CLASSES + 3];
    double amount[2 * CLASSES + 3];
    int64_t cents[2 * CLASSES + 3];
    tco__remainder order[2 * CLASSES + 3];
    for (size_t i = 0; i < a->groups && !o.nomem; i++) {
        const tco__attrib_group *g = &a->group[a->order[i]];
        for (int k = 0; k < CATS; k++) {
            size_t n = lines_of(l, a, g, k);
            if (n == 0 && g->cents[k] == 0)
                continue;
            if (n == 0) /* cents without a charge cannot be: the amounts made them */
                l[n++] = (line){ SHARED, -1, 0, 0, "Hours" };
            for (size_t j = 0; j < n; j++)
                amount[j] = l[j].amount * 100;
            tco__largest_remainder(cents, 1, amount, 1, n, g->cents[k], order);
            for (size_t j = 0; j < n; j++)
                if (cents[j] != 0)
                    row(&o, &x, g, k, &l[j], cents[j]);
        }
    }
    if (o.nomem) {
        free(o.p);
        return tco__fail(err, TCO_E_NOMEM, "no memory for the FOCUS rows of %zu groups", a->groups);
    }
    *len = o.n;
    if (buf && cap > o.n)
        memcpy(buf, o.p, o.n + 1);
    free(o.p);
    if (cap && cap <= *len)
        return tco__fail_named(err, TCO_E_SIZE, "cap", "cap = %zu bytes: the FOCUS rows take %zu and a NUL", cap,
                               *len);
    return TCO_OK;
}
