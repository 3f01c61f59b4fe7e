/* The bill of a period split among the records' groups, to the cent
 * (doc/model.md, section 16).
 *
 * One pass over the records checks each, clips it to the period, prices
 * it and adds it to its group (one hash table on the group's value ids);
 * the windows of records that carry a job_id are then sorted by job and
 * start to find those of one job that overlap. Idle capacity and the
 * shared services are priced for the period and spread by the request's
 * rules; the bill's total is rounded to cents and split by the largest
 * remainder over the groups and, inside each group, over its categories.
 * Every amount is computed in double precision and added up exactly
 * (exact.h), and the groups are put in the order of their texts before
 * anything is spread: the bill is the same whatever order the records
 * come in, and however they are split into parts passed apart and merged
 * (part.c). Only the split is in integers. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib/attrib.h"
#include "model/model.h"
#include "records/records.h"

#define T(k) (t->v[IX_##k])
#define W(k) (w->v[IX_##k])
#define P(k) (p->v[IX_##k])

enum { CATS = TCO__ATTRIB_CATS, CLASSES = 4 };

/* The key the records readers file a job's id under. */
#define JOB_KEY "job_id"
/* Times the records readers accept: 1970 to the end of 9999, in seconds. */
#define TIME_MAX 253402300800.0
/* Whole cents stay exact in a double up to 2^53; int64 holds them. */
#define CENTS_MAX 9007199254740992.0

/* tco_record and tco_attribution_request are new in 1.1: their first
 * versions are the whole structs. */
#define RECORD_V1_SIZE sizeof(tco_record)
#define REQUEST_V1_SIZE V1_SIZE(tco_attribution_request, owner_value)
/* How many records between two calls of a request's progress. */
#define PROGRESS_STEP 65536

static const char *const spread_names[] = { NULL, "usage", "even", "owner" };

const char *tco_spread_name(int32_t spread)
{
    return spread >= TCO_SPREAD_USAGE && spread <= TCO_SPREAD_OWNER ? spread_names[spread] : NULL;
}

/* ---- prices per accelerator-hour -------------------------------------- */

/* cur per accelerator-hour by category, of each price class and of idle
 * capacity, as the estimate prices the hardware (doc/model.md, section 3). */
int tco__attrib_rates(tco_attribution *a, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err)
{
    hardware hw;
    int rc = tco__cluster_hardware(&hw, t, w, p, err); /* no training shape: only the rates can fail */
    if (rc)
        return rc;
    double N = T(ACCELERATORS);

    memset(a->rate, 0, sizeof a->rate);
    memset(a->idle_rate, 0, sizeof a->idle_rate);
    a->rate[TCO_CLASS_ON_DEMAND][TCO_CAT_COMPUTE] = hw.rates.on_demand;
    a->rate[TCO_CLASS_RESERVED][TCO_CAT_COMPUTE] = hw.rates.reserved;
    a->rate[TCO_CLASS_SPOT][TCO_CAT_COMPUTE] = hw.rates.spot;
    /* Rates that exclude power (colocation, bare metal): rented hours pay
     * the energy of their draw and its cooling too. */
    double rented_kw = hw.rented_energy ? hw.it_kw / N : 0;
    for (int c = TCO_CLASS_ON_DEMAND; c <= TCO_CLASS_SPOT; c++) {
        a->rate[c][TCO_CAT_POWER] = rented_kw * P(ELECTRICITY_PER_KWH);
        a->rate[c][TCO_CAT_COOLING] = rented_kw * (T(PUE) - 1) * P(ELECTRICITY_PER_KWH);
    }
    /* An owned accelerator-hour: what a rental rate includes, each in the
     * estimate's category: the annuity, the IT energy of the average draw,
     * the cooling energy and plant, the fabric (plant and fabric shared
     * over every accelerator of the cluster). */
    double *owned = a->rate[TCO_CLASS_OWNED], kw = hw.it_kw / N, kwh_price = P(ELECTRICITY_PER_KWH);
    owned[TCO_CAT_COMPUTE] = hw.owned_per_year / HOURS_PER_YEAR + hw.spares_per_hour / N;
    owned[TCO_CAT_POWER] = kw * kwh_price + hw.facility_per_year / N / HOURS_PER_YEAR;
    owned[TCO_CAT_COOLING] = kw * (T(PUE) - 1) * kwh_price + hw.plant_per_year / N / HOURS_PER_YEAR;
    owned[TCO_CAT_NETWORK] = hw.fabric_per_year / N / HOURS_PER_YEAR;

    /* Idle capacity at the cluster's own mix: the estimate's waste (the
     * compute, power and cooling of an hour), its fabric in network; by
     * class, the shares of the estimate's rental blend (tco__hardware). */
    double o = T(OWNED_SHARE), rs = T(RESERVED_SHARE), sp = T(SPOT_SHARE);
    memset(a->idle_class, 0, sizeof a->idle_class);
    a->idle_mix[TCO_CLASS_ON_DEMAND] = (1 - o) * (1 - rs - sp);
    a->idle_mix[TCO_CLASS_RESERVED] = (1 - o) * rs;
    a->idle_mix[TCO_CLASS_SPOT] = (1 - o) * sp;
    a->idle_mix[TCO_CLASS_OWNED] = o;
    a->idle_class[TCO_CLASS_ON_DEMAND][TCO_CAT_WASTE] = a->idle_mix[TCO_CLASS_ON_DEMAND] * hw.rates.on_demand;
    a->idle_class[TCO_CLASS_RESERVED][TCO_CAT_WASTE] = a->idle_mix[TCO_CLASS_RESERVED] * hw.rates.reserved;
    a->idle_class[TCO_CLASS_SPOT][TCO_CAT_WASTE] = a->idle_mix[TCO_CLASS_SPOT] * hw.rates.spot;
    a->idle_class[TCO_CLASS_OWNED][TCO_CAT_WASTE] =
        o * (owned[TCO_CAT_COMPUTE] + owned[TCO_CAT_POWER] + owned[TCO_CAT_COOLING]);
    for (int c = TCO_CLASS_ON_DEMAND; c <= TCO_CLASS_SPOT; c++) /* their energy, when paid apart */
        a->idle_class[c][TCO_CAT_WASTE] += a->idle_mix[c] * (a->rate[c][TCO_CAT_POWER] + a->rate[c][TCO_CAT_COOLING]);
    a->idle_class[TCO_CLASS_OWNED][TCO_CAT_NETWORK] = o * owned[TCO_CAT_NETWORK];
    a->idle_rate[TCO_CAT_WASTE] = 0;
    for (int c = 0; c < CLASSES; c++)
        a->idle_rate[TCO_CAT_WASTE] += a->idle_class[c][TCO_CAT_WASTE];
    a->idle_rate[TCO_CAT_NETWORK] = a->idle_class[TCO_CLASS_OWNED][TCO_CAT_NETWORK];
    snprintf(a->currency, sizeof a->currency, "%s", p->text[IX_CURRENCY]);
    a->events_per_hour = hw.events_per_hour;
    a->rates = hw.rates;
    return TCO_OK;
}

/* cur by category of the shared services over the period (the estimate's
 * formulas for the period's months), and of logging the held hours. */
static void shared_of(double *shared, double hours, double held, double events_per_hour, const tco_obj *t,
                      const tco_obj *w, const tco_obj *p)
{
    memset(shared, 0, CATS * sizeof *shared);
    double months = hours / HOURS_PER_MONTH, nodes = T(ACCELERATORS) / T(ACCELERATORS_PER_NODE);
    shared[TCO_CAT_PLATFORM] = months * nodes * P(PLATFORM_PER_NODE_MONTH);
    shared[TCO_CAT_SECURITY] = months * (nodes * P(SECURITY_PER_NODE_MONTH) + P(SECURITY_FIXED_PER_MONTH));
    double fte = fmax(P(MIN_FTE), nodes / P(NODES_PER_FTE));
    shared[TCO_CAT_STAFF] = fte * P(STAFF_PER_FTE_YEAR) * hours / HOURS_PER_YEAR + events_per_hour * hours;
    shared[TCO_CAT_DATABASE] = months * (W(DATABASE_INSTANCES) * P(DATABASE_PER_INSTANCE_MONTH) +
                                         W(DATABASE_GB) * P(DATABASE_PER_GB_MONTH));
    /* Logs and metrics of the held accelerator-hours, ingested then kept. */
    double kept_months = W(LOG_RETENTION_DAYS) / DAYS_PER_MONTH;
    double log_gb = W(LOG_BYTES_PER_ACCEL_HOUR) * held / 1e9;
    double samples = W(METRICS_PER_ACCELERATOR) * held * 3600 / W(METRICS_INTERVAL_SECONDS);
    double sample_gb = samples * W(METRIC_SAMPLE_BYTES) / 1e9;
    shared[TCO_CAT_LOGGING] = log_gb * P(LOG_INGEST_PER_GB) + samples / 1e6 * P(METRICS_PER_MILLION_SAMPLES) +
                              (log_gb + sample_gb) * kept_months * P(LOG_RETAINED_PER_GB_MONTH);
}

/* ---- the largest remainder ---------------------------------------------- */

/* Remainders largest first; at equal remainders an amount of exactly zero
 * after every other, then the lower index. */
static int remainder_order(const void *x, const void *y)
{
    const tco__remainder *a = x, *b = y;
    if (a->r != b->r)
        return a->r > b->r ? -1 : 1;
    if (a->zero != b->zero)
        return a->zero - b->zero;
    return (a->i > b->i) - (a->i < b->i);
}

/* Reorders v[0 .. n) so that the k first in remainder_order come first,
 * in any order: Hoare's partition and selection, the middle as pivot. */
static void select_first(tco__remainder *v, size_t n, size_t k)
{
    if (k == 0 || k >= n)
        return;
    size_t t = k - 1, lo = 0, hi = n; /* v[t] is to be where a sort would put it */
    while (hi - lo > 1) {
        tco__remainder pivot = v[lo + (hi - lo - 1) / 2];
        size_t i = lo, j = hi - 1;
        for (;;) {
            while (remainder_order(&v[i], &pivot) < 0)
                i++;
            while (remainder_order(&v[j], &pivot) > 0)
                j--;
            if (i >= j)
                break;
            tco__remainder s = v[i];
            v[i] = v[j];
            v[j] = s;
            i++;
            j--;
        }
        /* everything in [lo, j] comes before everything in (j, hi) */
        if (t <= j)
            hi = j + 1;
        else
            lo = j + 1;
    }
}

void tco__largest_remainder(int64_t *out, size_t out_step, const double *q, size_t step, size_t n, int64_t total,
                            tco__remainder *order)
{
    if (n == 0)
        return;
    int64_t floors = 0;
    for (size_t i = 0; i < n; i++) {
        double v = q[i * step], f = floor(v);
        out[i * out_step] = (int64_t)f;
        floors += (int64_t)f;
        order[i] = (tco__remainder){ v - f, i, v == 0 };
    }
    /* Amounts that add up to total leave 0 to n cents; any other count
     * (amounts that do not add up) goes round every amount first. */
    int64_t d = total - floors, each = d / (int64_t)n, rest = d % (int64_t)n;
    if (rest < 0)
        rest += (int64_t)n, each -= 1;
    if (each)
        for (size_t i = 0; i < n; i++)
            out[i * out_step] += each;
    if (rest == 0)
        return;
    /* The rest first in the order: a strict order (indices differ), so
     * which they are does not depend on how they are found. Categories
     * by insertion, groups by selection (linear, where a sort is not). */
    if (n <= 16) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = i; j > 0 && remainder_order(&order[j - 1], &order[j]) > 0; j--) {
                tco__remainder s = order[j];
                order[j] = order[j - 1];
                order[j - 1] = s;
            }
    } else {
        select_first(order, n, (size_t)rest);
    }
    for (int64_t j = 0; j < rest; j++)
        out[order[j].i * out_step] += 1;
}

/* ---- groups: one hash table ------------------------------------------- */

typedef tco__attrib_table table;

static uint64_t key_of(const tco__attrib_group *g)
{
    return (uint64_t)g->value[0] << 32 | g->value[1]; /* its order is the value ids' */
}

static size_t slot_of(uint64_t key, size_t mask)
{
    return (size_t)((key * 0x9e3779b97f4a7c15u) >> 32) & mask;
}

int tco__attrib_table_grow(table *tb, tco_error *err)
{
    size_t slots = tb->slot ? 2 * (tb->mask + 1) : 1024;
    while (slots < 2 * tb->count) /* a table made of groups already there (part.c) */
        slots *= 2;
    uint32_t *s = calloc(slots, sizeof *s);
    if (!s)
        return tco__fail(err, TCO_E_NOMEM, "no memory for a table of %zu groups", slots / 2);
    for (size_t g = 0; g < tb->count; g++) {
        size_t i = slot_of(key_of(&tb->g[g]), slots - 1);
        while (s[i])
            i = (i + 1) & (slots - 1);
        s[i] = (uint32_t)g + 1;
    }
    free(tb->slot);
    tb->slot = s;
    tb->mask = slots - 1;
    return TCO_OK;
}

uint32_t tco__attrib_table_group(table *tb, uint64_t key, tco_error *err)
{
    if (key == tb->last_key && tb->last != UINT32_MAX)
        return tb->last;
    size_t i = slot_of(key, tb->mask);
    for (; tb->slot[i]; i = (i + 1) & tb->mask)
        if (key_of(&tb->g[tb->slot[i] - 1]) == key)
            return tb->last_key = key, tb->last = tb->slot[i] - 1;
    if (tb->count == tb->cap) {
        size_t cap = tb->cap ? 2 * tb->cap : 64;
        tco__attrib_group *g = realloc(tb->g, cap * sizeof *g);
        if (!g)
            return tco__fail(err, TCO_E_NOMEM, "no memory for %zu groups", cap), UINT32_MAX;
        tb->g = g;
        tb->cap = cap;
    }
    uint32_t id = (uint32_t)tb->count++;
    tco__attrib_group *g = &tb->g[id];
    memset(g, 0, sizeof *g);
    g->value[0] = (uint32_t)(key >> 32);
    g->value[1] = (uint32_t)key;
    tb->slot[i] = id + 1;
    if (2 * tb->count > tb->mask + 1 && tco__attrib_table_grow(tb, err))
        return UINT32_MAX;
    return tb->last_key = key, tb->last = id;
}

/* ---- records ------------------------------------------------------------- */

/* Which field of record i is wrong, in the order of the struct. Off the
 * common path: only called once the combined check has failed. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int record_fault(tco_error *err, size_t i, const tco_record *r, size_t stride, size_t n_pairs)
{
    char f[TCO_ERROR_PARAM_NAME_MAX];
#define FAULT(code, field, ...) \
    (snprintf(f, sizeof f, "records[%zu]." field, i), tco__fail_named(err, code, f, __VA_ARGS__))
    if (r->size < RECORD_V1_SIZE || r->size > stride)
        return FAULT(TCO_E_SIZE, "size", "records[%zu].size = %zu must be sizeof(tco_record) = %zu, up to records[0].size = %zu",
                     i, r->size, RECORD_V1_SIZE, stride);
    if (!tail_is_zero(r, r->size, sizeof *r))
        return FAULT(TCO_E_SIZE, "size",
                     "records[%zu].size = %zu, and bytes past the %zu this libtco reads are set: a newer field it cannot honour (upgrade libtco, or leave them zero)",
                     i, r->size, sizeof *r);
    if (!isfinite(r->start))
        return FAULT(TCO_E_NOT_FINITE, "start", "records[%zu].start = %g must be finite", i, r->start);
    if (!isfinite(r->end))
        return FAULT(TCO_E_NOT_FINITE, "end", "records[%zu].end = %g must be finite", i, r->end);
    if (!(r->start >= 0 && r->start <= TIME_MAX))
        return FAULT(TCO_E_RANGE, "start", "records[%zu].start = %.17g s is outside 1970 to 9999: allowed 0 to %.0f",
                     i, r->start, TIME_MAX);
    if (!(r->end >= r->start))
        return FAULT(TCO_E_RANGE, "end", "records[%zu].end = %.17g s is before its start = %.17g s", i, r->end,
                     r->start);
    if (!(r->end <= TIME_MAX))
        return FAULT(TCO_E_RANGE, "end", "records[%zu].end = %.17g s is past 9999: allowed at most %.0f", i, r->end,
                     TIME_MAX);
    double most = tco__params[IX_ACCELERATORS].hi;
    if (!isfinite(r->accelerators))
        return FAULT(TCO_E_NOT_FINITE, "accelerators", "records[%zu].accelerators = %g must be finite", i,
                     r->accelerators);
    if (!(r->accelerators >= 0 && r->accelerators <= most))
        return FAULT(TCO_E_RANGE, "accelerators", "records[%zu].accelerators = %g: allowed 0 to %g", i,
                     r->accelerators, most);
    if (!isfinite(r->utilisation))
        return FAULT(TCO_E_NOT_FINITE, "utilisation", "records[%zu].utilisation = %g must be finite", i,
                     r->utilisation);
    if (!(r->utilisation == -1 || (r->utilisation >= 0 && r->utilisation <= 1)))
        return FAULT(TCO_E_RANGE, "utilisation", "records[%zu].utilisation = %g: allowed 0 to 1, or -1 (unknown)", i,
                     r->utilisation);
    if ((uint32_t)r->price_class >= CLASSES)
        return FAULT(TCO_E_RANGE, "price_class",
                     "records[%zu].price_class = %d is no tco_price_class: allowed 0 (on_demand) to 3 (owned)", i,
                     (int)r->price_class);
    if ((uint32_t)r->state > TCO_JOB_RUNNING)
        return FAULT(TCO_E_RANGE, "state",
                     "records[%zu].state = %d is no tco_job_state: allowed 0 (completed) to 3 (running)", i,
                     (int)r->state);
    for (int k = 0; k < 3; k++) {
        double v = r->storage_gb_hours[k];
        if (!(v >= 0 && v <= DBL_MAX)) {
            snprintf(f, sizeof f, "records[%zu].storage_gb_hours[%d]", i, k);
            return tco__fail_named(err, isfinite(v) ? TCO_E_RANGE : TCO_E_NOT_FINITE, f,
                                   "%s = %g: allowed a finite number from 0", f, v);
        }
    }
    for (int k = 0; k < 3; k++) {
        double v = r->traffic_gb[k];
        if (!(v >= 0 && v <= DBL_MAX)) {
            snprintf(f, sizeof f, "records[%zu].traffic_gb[%d]", i, k);
            return tco__fail_named(err, isfinite(v) ? TCO_E_RANGE : TCO_E_NOT_FINITE, f,
                                   "%s = %g: allowed a finite number from 0", f, v);
        }
    }
    if (r->tag_count && (uint64_t)r->first_tag + r->tag_count > n_pairs)
        return FAULT(TCO_E_INDEX, "first_tag",
                     "records[%zu] has tag pairs %u to %llu, past the %zu given", i, (unsigned)r->first_tag,
                     (unsigned long long)r->first_tag + r->tag_count - 1, n_pairs);
    return FAULT(TCO_E_RANGE, "size", "records[%zu] cannot be read", i); /* not reached */
#undef FAULT
}

#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int tag_fault(tco_error *err, size_t i, uint64_t pair, uint32_t key, uint32_t value, uint32_t tags)
{
    char f[TCO_ERROR_PARAM_NAME_MAX];
    snprintf(f, sizeof f, "records[%zu].first_tag", i);
    int bad_key = key >= tags;
    return tco__fail_named(err, TCO_E_INDEX, f, "records[%zu]'s tag pair %llu has %s id %u: the tags table holds %u",
                           i, (unsigned long long)pair, bad_key ? "key" : "value", bad_key ? key : value, tags);
}

/* ---- overlapping windows of one job ----------------------------------- */

/* A window of a record with a job_id, clipped to the period. */
typedef struct window {
    double lo, hi;
    uint32_t rec, job;
} window;

/* By start; stable (a bottom-up merge sort over runs sorted by insertion),
 * so that equal starts keep the records' order. */
static void windows_sort(window *a, window *tmp, size_t n)
{
    enum { RUN = 16 };
    for (size_t b = 0; b < n; b += RUN) {
        size_t e = b + RUN < n ? b + RUN : n;
        for (size_t i = b + 1; i < e; i++) {
            window x = a[i];
            size_t j = i;
            for (; j > b && a[j - 1].lo > x.lo; j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
    }
    for (size_t width = RUN; width < n; width *= 2) {
        for (size_t b = 0; b < n; b += 2 * width) {
            size_t m = b + width < n ? b + width : n, e = b + 2 * width < n ? b + 2 * width : n;
            size_t i = b, j = m, k = b;
            while (i < m && j < e) { /* without a branch on the data: starts are random */
                size_t right = a[j].lo < a[i].lo;
                tmp[k++] = a[right ? j : i];
                j += right;
                i += 1 - right;
            }
            while (i < m)
                tmp[k++] = a[i++];
            while (j < e)
                tmp[k++] = a[j++];
        }
        memcpy(a, tmp, n * sizeof *a);
    }
}

/* Marks the records whose windows overlap another of the same job (an
 * intersection of positive length) and counts them: the m windows of
 * win[], in record order, go by job (a counting sort on the value ids),
 * then by start. Marks go in a byte per record, which stays in cache,
 * and are folded into the records after. */
static int overlaps(uint64_t *count, tco__attrib_record *rec, size_t n, const window *win, size_t m,
                    uint32_t tags, tco_error *err)
{
    *count = 0;
    if (m < 2)
        return TCO_OK;
    size_t *end = calloc((size_t)tags + 1, sizeof *end);
    window *by_job = malloc(m * sizeof *by_job);
    unsigned char *mark = calloc(n, 1);
    window *tmp = NULL;
    int rc = TCO_OK;
    if (!end || !by_job || !mark)
        goto nomem;
    for (size_t i = 0; i < m; i++)
        end[win[i].job + 1]++;
    size_t most = 0;
    for (uint32_t v = 0; v < tags; v++) {
        most = end[v + 1] > most ? end[v + 1] : most;
        end[v + 1] += end[v];
    }
    if (!(tmp = malloc(most * sizeof *tmp)))
        goto nomem;
    for (size_t i = 0; i < m; i++)
        by_job[end[win[i].job]++] = win[i];
    /* end[v] is now the end of job v's windows, end[v - 1] their start. */
    for (size_t v = 0, b = 0; v < tags; b = end[v++]) {
        window *a = by_job + b;
        size_t k = end[v] - b;
        if (k < 2)
            continue;
        int sorted = 1;
        for (size_t i = 1; i < k && sorted; i++)
            sorted = a[i - 1].lo <= a[i].lo;
        if (!sorted)
            windows_sort(a, tmp, k);
        /* A window that starts before the latest end so far overlaps the
         * window that holds that end. */
        double reach = a[0].hi;
        size_t holder = 0;
        for (size_t i = 1; i < k; i++) {
            if (a[i].lo < reach)
                mark[a[i].rec] = mark[a[holder].rec] = 1;
            if (a[i].hi > reach)
                reach = a[i].hi, holder = i;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (mark[i]) {
            rec[i].flags |= TCO__ATTRIB_OVERLAPPING;
            ++*count;
        }
    goto done;
nomem:
    rc = tco__fail(err, TCO_E_NOMEM, "no memory to compare the windows of %zu records", m);
done:
    free(end);
    free(by_job);
    free(mark);
    free(tmp);
    return rc;
}

/* ---- the spread ---------------------------------------------------------- */

static const char *rule_name(int32_t rule)
{
    return rule == TCO_SPREAD_USAGE ? "usage" : rule == TCO_SPREAD_EVEN ? "even" : "owner";
}

/* Each group's share (0 to 1) of an amount spread by rule; what is spread
 * is named by the request's field ("idle_rule") and what it is. */
static int spread(double *share, const tco__attrib_group *g, size_t n, int32_t rule, uint32_t owner,
                  const char *field, const char *what, tco_error *err)
{
    char name[TCO_ERROR_PARAM_NAME_MAX];
    snprintf(name, sizeof name, "request.%s", field);
    if (n == 0)
        return tco__fail_named(err, TCO_E_INCONSISTENT, name,
                               "request.%s = %s, but no record falls in the period: no group to spread %s over",
                               field, rule_name(rule), what);
    if (rule == TCO_SPREAD_EVEN) {
        for (size_t i = 0; i < n; i++)
            share[i] = 1.0 / (double)n;
        return TCO_OK;
    }
    /* By usage over every group, or over the owner's groups (by their
     * usage, evenly when they have none: with pairs the owner's value of
     * by_key[0] may head several). */
    int owned_only = rule == TCO_SPREAD_OWNER;
    double sum = 0;
    size_t owners = 0;
    for (size_t i = 0; i < n; i++)
        if (!owned_only || g[i].value[0] == owner) {
            sum += g[i].usage;
            owners++;
        }
    if (owned_only && owners == 0)
        return tco__fail_named(err, TCO_E_INCONSISTENT, "request.owner_value",
                               "request.owner_value = %u takes %s (request.%s = owner), but no record of the period has that value of by_key[0]",
                               (unsigned)owner, what, field);
    if (!owned_only && !(sum > 0))
        return tco__fail_named(err, TCO_E_INCONSISTENT, name,
                               "request.%s = usage, but no record of the period holds priced accelerator time: nothing to spread %s by",
                               field, what);
    for (size_t i = 0; i < n; i++) {
        int in = !owned_only || g[i].value[0] == owner;
        share[i] = !in ? 0 : sum > 0 ? g[i].usage / sum : 1.0 / (double)owners;
    }
    return TCO_OK;
}

/* ---- the request --------------------------------------------------------- */

int tco__attrib_request_check(const tco_attribution_request *q, uint32_t tags, tco_error *err)
{
    if (q->size < REQUEST_V1_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, "attribution_request.size",
                               "attribution_request.size = %zu is below %zu: set it to sizeof(tco_attribution_request)",
                               q->size, REQUEST_V1_SIZE);
    int rc = input_size_check(q, q->size, sizeof *q, "attribution_request", err);
    if (rc)
        return rc;
    double a = q->period_start, b = q->period_end;
    if (!isfinite(a) || !isfinite(b))
        return tco__fail_named(err, TCO_E_NOT_FINITE, isfinite(a) ? "request.period_end" : "request.period_start",
                               "request.%s = %g must be finite", isfinite(a) ? "period_end" : "period_start",
                               isfinite(a) ? b : a);
    if (!(a >= 0 && a < TIME_MAX))
        return tco__fail_named(err, TCO_E_RANGE, "request.period_start",
                               "request.period_start = %.17g s is outside 1970 to 9999: allowed 0 to %.0f", a,
                               TIME_MAX);
    if (!(b > a && b <= TIME_MAX))
        return tco__fail_named(err, TCO_E_RANGE, "request.period_end",
                               "request.period_end = %.17g s must be after period_start = %.17g s and at most %.0f", b,
                               a, TIME_MAX);
    if (q->by_count != 1 && q->by_count != 2)
        return tco__fail_named(err, TCO_E_RANGE, "request.by_count",
                               "request.by_count = %u: allowed 1 (one key) or 2 (pairs)", (unsigned)q->by_count);
    for (uint32_t k = 0; k < q->by_count; k++)
        if (q->by_key[k] >= tags) {
            char name[TCO_ERROR_PARAM_NAME_MAX];
            snprintf(name, sizeof name, "request.by_key[%u]", (unsigned)k);
            return tco__fail_named(err, TCO_E_INDEX, name,
                                   "request.by_key[%u] = %u is not in the tags table, which holds %u texts",
                                   (unsigned)k, (unsigned)q->by_key[k], (unsigned)tags);
        }
    const int32_t *rule[2] = { &q->idle_rule, &q->shared_rule };
    for (int k = 0; k < 2; k++)
        if (*rule[k] < TCO_SPREAD_USAGE || *rule[k] > TCO_SPREAD_OWNER) {
            const char *field = k ? "shared_rule" : "idle_rule";
            char name[TCO_ERROR_PARAM_NAME_MAX];
            snprintf(name, sizeof name, "request.%s", field);
            return tco__fail_named(err, TCO_E_RANGE, name,
                                   "request.%s = %d is no tco_spread: allowed 1 (usage), 2 (even), 3 (owner)", field,
                                   (int)*rule[k]);
        }
    int owner = q->idle_rule == TCO_SPREAD_OWNER || q->shared_rule == TCO_SPREAD_OWNER;
    if (owner && q->owner_value != TCO_TAG_NONE && q->owner_value >= tags)
        return tco__fail_named(err, TCO_E_INDEX, "request.owner_value",
                               "request.owner_value = %u is not in the tags table, which holds %u texts (TCO_TAG_NONE: the records without by_key[0])",
                               (unsigned)q->owner_value, (unsigned)tags);
    return TCO_OK;
}

/* ---- the pass over the records ------------------------------------------ */

/* Which of a record's amounts is past what an exact sum takes. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int amount_fault(tco_error *err, size_t i, double storage, double traffic, double gbh, double gb,
                        const char *currency)
{
    char f[TCO_ERROR_PARAM_NAME_MAX];
    const char *field = !(storage < TCO__EXACT_MAX) || !(gbh < TCO__EXACT_MAX) ? "storage_gb_hours" : "traffic_gb";
    snprintf(f, sizeof f, "records[%zu].%s", i, field);
    if (!(gbh < TCO__EXACT_MAX) || !(gb < TCO__EXACT_MAX))
        return tco__fail_named(err, TCO_E_RANGE, f, "%s add up to %g in the period: allowed below %.3g", f,
                               !(gbh < TCO__EXACT_MAX) ? gbh : gb, TCO__EXACT_MAX);
    return tco__fail_named(err, TCO_E_RANGE, f, "%s cost %g %s in the period: allowed below %.3g", f,
                           !(storage < TCO__EXACT_MAX) ? storage : traffic, currency, TCO__EXACT_MAX);
}

/* The pass over the records: checks, clips, prices and groups each; the
 * windows of records with a job_id go in win[0 .. *windows). */
static int records_pass(tco_attribution *a, table *tb, tco__attrib_totals *sum, window *win, size_t *windows,
                        const tco_record *records, size_t n, size_t stride, const uint32_t *tag_pairs, size_t n_pairs,
                        uint32_t tags, uint32_t job_key, const tco_obj *p, tco_error *err)
{
    const tco_attribution_request *q = &a->request;
    double ps = q->period_start, pe = q->period_end, most = tco__params[IX_ACCELERATORS].hi;
    uint32_t k0 = q->by_key[0], k1 = q->by_count == 2 ? q->by_key[1] : UINT32_MAX;
    double rate_sum[CLASSES];
    for (int c = 0; c < CLASSES; c++) {
        rate_sum[c] = 0;
        for (int k = 0; k < CATS; k++)
            rate_sum[c] += a->rate[c][k];
    }
    const double per_gbh[3] = { P(STORAGE_HOT_PER_GB_MONTH) / HOURS_PER_MONTH,
                                P(STORAGE_WARM_PER_GB_MONTH) / HOURS_PER_MONTH,
                                P(STORAGE_COLD_PER_GB_MONTH) / HOURS_PER_MONTH };
    const double per_gb[3] = { P(EGRESS_IN_REGION_PER_GB), P(EGRESS_CROSS_REGION_PER_GB),
                               P(EGRESS_INTERNET_PER_GB) };

    const char *base = (const char *)records;
    memset(sum, 0, sizeof *sum);
    *windows = 0;
    for (size_t i = 0; i < n; i++) {
        if (q->progress && i && i % PROGRESS_STEP == 0)
            q->progress(q->progress_user, i, n);
        const tco_record *r = (const tco_record *)(base + i * stride);
        if (r->size != sizeof *r &&
            (r->size < RECORD_V1_SIZE || r->size > stride || !tail_is_zero(r, r->size, sizeof *r)))
            return record_fault(err, i, r, stride, n_pairs);
        double s = r->start, e = r->end, acc = r->accelerators, u = r->utilisation;
        const double *gbh = r->storage_gb_hours, *gb = r->traffic_gb;
        /* One combined check (NaN fails every comparison); which field is
         * wrong is found only when it fails. */
        int ok = s >= 0 && e >= s && e <= TIME_MAX && acc >= 0 && acc <= most && (u == -1 || (u >= 0 && u <= 1)) &&
                 (uint32_t)r->price_class < CLASSES && (uint32_t)r->state <= TCO_JOB_RUNNING && gbh[0] >= 0 &&
                 gbh[0] <= DBL_MAX && gbh[1] >= 0 && gbh[1] <= DBL_MAX && gbh[2] >= 0 && gbh[2] <= DBL_MAX &&
                 gb[0] >= 0 && gb[0] <= DBL_MAX && gb[1] >= 0 && gb[1] <= DBL_MAX && gb[2] >= 0 &&
                 gb[2] <= DBL_MAX && (r->tag_count == 0 || (uint64_t)r->first_tag + r->tag_count <= n_pairs);
        if (!ok)
            return record_fault(err, i, r, stride, n_pairs);

        /* The grouping values and the job: the first pair of each key. */
        uint32_t v0 = TCO_TAG_NONE, v1 = TCO_TAG_NONE, job = UINT32_MAX;
        const uint32_t *tp = tag_pairs + 2 * (size_t)r->first_tag;
        for (uint32_t k = 0; k < r->tag_count; k++) {
            uint32_t key = tp[2 * k], value = tp[2 * k + 1];
            if (key >= tags || value >= tags)
                return tag_fault(err, i, (uint64_t)r->first_tag + k, key, value, tags);
            if (key == k0 && v0 == TCO_TAG_NONE)
                v0 = value;
            if (key == k1 && v1 == TCO_TAG_NONE)
                v1 = value;
            if (key == job_key && job == UINT32_MAX)
                job = value;
        }

        /* Clipped to [ps, pe): a window of positive length by the part
         * inside, an instant by whether it falls inside. */
        double from = s > ps ? s : ps, to = e < pe ? e : pe, length = e - s, inside, share;
        if (length > 0) {
            inside = to > from ? to - from : 0;
            share = inside / length;
        } else {
            inside = 0;
            share = s >= ps && s < pe;
        }
        tco__attrib_record *out = &a->record[i];
        out->price_class = (uint8_t)r->price_class;
        out->flags = 0;
        if (!(share > 0)) {
            out->group = TCO__ATTRIB_OUTSIDE;
            out->held_h = out->used_h = out->accel = out->storage = out->traffic = 0;
            sum->outside++;
            tco__exact_add(&sum->clipped, acc * length / 3600);
            continue;
        }
        double held = acc * inside / 3600, used = u >= 0 ? held * u : held;
        double storage = share * (gbh[0] * per_gbh[0] + gbh[1] * per_gbh[1] + gbh[2] * per_gbh[2]);
        double traffic = share * (gb[0] * per_gb[0] + gb[1] * per_gb[1] + gb[2] * per_gb[2]);
        double gbh_all = share * (gbh[0] + gbh[1] + gbh[2]), gb_all = share * (gb[0] + gb[1] + gb[2]);
        if (!(storage < TCO__EXACT_MAX && traffic < TCO__EXACT_MAX && gbh_all < TCO__EXACT_MAX &&
              gb_all < TCO__EXACT_MAX))
            return amount_fault(err, i, storage, traffic, gbh_all, gb_all, a->currency);
        tco__exact_add(&sum->held, held);
        tco__exact_add(&sum->used, used);
        sum->classes |= 1u << r->price_class;
        tco__exact_add(&sum->clipped, acc * (length - inside) / 3600);
        if (job != UINT32_MAX && inside > 0)
            win[(*windows)++] = (window){ from, to, (uint32_t)i, job };

        uint32_t gi = tco__attrib_table_group(tb, (uint64_t)v0 << 32 | v1, err);
        if (gi == UINT32_MAX)
            return TCO_E_NOMEM;
        tco__attrib_group *g = &tb->g[gi];
        g->records++;
        tco__exact_add(&g->sum[TCO__SUM_HELD + r->price_class], held);
        tco__exact_add(&g->sum[TCO__SUM_USED], used);
        tco__exact_add(&g->sum[TCO__SUM_STORAGE], storage);
        tco__exact_add(&g->sum[TCO__SUM_TRAFFIC], traffic);
        tco__exact_add(&g->sum[TCO__SUM_STORAGE_GBH], gbh_all);
        tco__exact_add(&g->sum[TCO__SUM_TRAFFIC_GB], gb_all);
        out->group = gi;
        out->held_h = held;
        out->used_h = used;
        out->accel = held * rate_sum[r->price_class];
        out->storage = storage;
        out->traffic = traffic;
    }
    if (q->progress)
        q->progress(q->progress_user, n, n);
    return TCO_OK;
}

void tco__attrib_group_read(tco__attrib_group *g)
{
    double *field[TCO__SUMS] = { &g->held[0], &g->held[1], &g->held[2], &g->held[3], &g->used_h,
                                 &g->storage, &g->traffic, &g->storage_gbh, &g->traffic_gb };
    for (int k = 0; k < TCO__SUMS; k++)
        *field[k] = tco__exact_value(&g->sum[k]);
}

/* ---- the order of the groups ------------------------------------------- */

static int text_order(const char *a, const char *b)
{
    return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

int tco__attrib_group_cmp(const tco__attrib_group *g, const tco_tags *texts, const char *const text[2])
{
    for (int k = 0; k < 2; k++) {
        const char *t = g->value[k] == TCO_TAG_NONE ? NULL : tco_tags_text(texts, g->value[k]);
        int c = text_order(t, text[k]);
        if (c)
            return c;
    }
    return 0;
}

/* The tables' texts are sorted once, each value by its rank among them;
 * then the groups by their pair of ranks, integers: many groups share few
 * values, and strcmp in every comparison of the groups' sort costs. */
typedef struct ranked {
    uint64_t key; /* rank of value[0] << 32 | rank of value[1]; TCO_TAG_NONE ranks 0 */
    size_t at;
} ranked;

typedef struct text_id {
    const char *text;
    uint32_t id;
} text_id;

static int text_id_order(const void *x, const void *y)
{
    return strcmp(((const text_id *)x)->text, ((const text_id *)y)->text);
}

static int ranked_order(const void *x, const void *y)
{
    uint64_t a = ((const ranked *)x)->key, b = ((const ranked *)y)->key;
    return (a > b) - (a < b);
}

int tco__attrib_sort_groups(tco__attrib_group *g, size_t n, const tco_tags *texts, uint32_t *remap, tco_error *err)
{
    if (n < 2) {
        if (n && remap)
            remap[0] = 0;
        return TCO_OK;
    }
    uint32_t most = 0; /* one past the largest value id the groups name */
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++)
            if (g[i].value[k] != TCO_TAG_NONE && g[i].value[k] >= most)
                most = g[i].value[k] + 1;
    uint32_t *rank = calloc(most ? most : 1, sizeof *rank);
    text_id *ids = malloc((most ? most : 1) * sizeof *ids);
    ranked *order = malloc(n * sizeof *order);
    tco__attrib_group *copy = malloc(n * sizeof *copy);
    int rc = TCO_OK;
    if (!rank || !ids || !order || !copy) {
        rc = tco__fail(err, TCO_E_NOMEM, "no memory to order %zu groups", n);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++)
            if (g[i].value[k] != TCO_TAG_NONE)
                rank[g[i].value[k]] = 1;
    uint32_t used = 0;
    for (uint32_t id = 0; id < most; id++)
        if (rank[id])
            ids[used++] = (text_id){ tco_tags_text(texts, id), id };
    qsort(ids, used, sizeof *ids, text_id_order);
    for (uint32_t r = 0; r < used; r++)
        rank[ids[r].id] = r + 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t r0 = g[i].value[0] == TCO_TAG_NONE ? 0 : rank[g[i].value[0]];
        uint64_t r1 = g[i].value[1] == TCO_TAG_NONE ? 0 : rank[g[i].value[1]];
        order[i] = (ranked){ r0 << 32 | r1, i };
    }
    qsort(order, n, sizeof *order, ranked_order);
    memcpy(copy, g, n * sizeof *g);
    for (size_t i = 0; i < n; i++) {
        g[i] = copy[order[i].at];
        if (remap)
            remap[order[i].at] = (uint32_t)i;
    }
done:
    free(rank);
    free(ids);
    free(order);
    free(copy);
    return rc;
}

void tco__attrib_group_direct(const tco_attribution *a, const tco__attrib_group *g, double direct[CATS])
{
    for (int k = 0; k < CATS; k++) {
        double d = 0;
        for (int c = 0; c < CLASSES; c++)
            d += g->held[c] * a->rate[c][k];
        direct[k] = d;
    }
    direct[TCO_CAT_STORAGE] += g->storage;
    direct[TCO_CAT_NETWORK] += g->traffic;
}

/* ---- cents ------------------------------------------------------------- */

/* A group's place in the bill's order: its total, then its texts' (the
 * groups' own order). */
typedef struct place {
    int64_t total;
    size_t at;
} place;

static int bill_order(const void *x, const void *y)
{
    const place *a = x, *b = y;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

/* Rounds the bill to cents and splits it: over the groups in the order of
 * their texts (which ties follow), then in each group over its
 * categories and over direct, idle and shared; then puts the groups in
 * the bill's order. */
static int cents_of(tco_attribution *a, tco_error *err)
{
    size_t n = a->groups, m = n ? n : 1;
    place *pl = malloc(m * sizeof *pl);
    double *q = malloc(m * sizeof *q);
    int64_t *c = malloc(m * sizeof *c);
    tco__remainder *order = malloc((n > CATS ? n : CATS) * sizeof *order);
    a->order = malloc(m * sizeof *a->order);
    int rc = TCO_OK;
    if (!pl || !q || !c || !order || !a->order) {
        rc = tco__fail(err, TCO_E_NOMEM, "no memory to split the bill over %zu groups", n);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        pl[i] = (place){ 0, i };

    /* Each group's amount, added by category, in cents. */
    double direct[CATS];
    for (size_t i = 0; i < n; i++) {
        tco__attrib_group *g = &a->group[i];
        tco__attrib_group_direct(a, g, direct);
        double amount = 0;
        for (int k = 0; k < CATS; k++)
            amount += direct[k] + g->idle_share * a->idle[k] + g->shared_share * a->shared[k];
        g->amount = amount;
    }
    /* Neumaier's sum of them: the total to round. */
    double sum = 0, lost = 0;
    for (size_t r = 0; r < n; r++) {
        q[r] = a->group[r].amount * 100;
        double t = sum + q[r];
        lost += fabs(sum) >= fabs(q[r]) ? (sum - t) + q[r] : (q[r] - t) + sum;
        sum = t;
    }
    double cents = sum + lost;
    if (!(fabs(cents) < CENTS_MAX)) {
        rc = tco__fail(err, TCO_E_RANGE,
                       "the period's bill comes to %g: allowed below %.0f cents, the most a double holds exactly",
                       cents / 100, CENTS_MAX);
        goto done;
    }
    tco__largest_remainder(c, 1, q, 1, n, (int64_t)llround(cents), order);
    for (size_t r = 0; r < n; r++) {
        a->group[r].total = c[r];
        pl[r].total = c[r];
    }

    double part[CATS], parts[3];
    int64_t split[3];
    for (size_t i = 0; i < n; i++) {
        tco__attrib_group *g = &a->group[i];
        tco__attrib_group_direct(a, g, direct);
        parts[0] = parts[1] = parts[2] = 0;
        for (int k = 0; k < CATS; k++) {
            double d = direct[k], idle = g->idle_share * a->idle[k], shared = g->shared_share * a->shared[k];
            part[k] = (d + idle + shared) * 100;
            parts[0] += d * 100;
            parts[1] += idle * 100;
            parts[2] += shared * 100;
        }
        tco__largest_remainder(g->cents, 1, part, 1, CATS, g->total, order);
        tco__largest_remainder(split, 1, parts, 1, 3, g->total, order);
        g->direct = split[0];
        g->idle = split[1];
        g->shared = split[2];
    }
    qsort(pl, n, sizeof *pl, bill_order);
    for (size_t i = 0; i < n; i++)
        a->order[i] = (uint32_t)pl[i].at;
done:
    free(pl);
    free(q);
    free(c);
    free(order);
    return rc;
}

/* ---- tco_attribute --------------------------------------------------------- */

void tco_attribution_free(tco_attribution *a)
{
    if (!a)
        return;
    free(a->group);
    free(a->order);
    free(a->record);
    tco_tags_free(a->texts);
    free(a);
}

int tco__attrib_pass(tco_attribution *a, tco__attrib_totals *sum, const tco_record *records, size_t n,
                     const uint32_t *tag_pairs, size_t n_pairs, const tco_tags *tags,
                     const tco_attribution_request *request, const tco_topology *t, const tco_workload *w,
                     const tco_pricing *p, tco_error *err)
{
    if (n && !records)
        return tco__fail(err, TCO_E_NULL, "records must not be NULL when n = %zu", n);
    if (n_pairs && !tag_pairs)
        return tco__fail(err, TCO_E_NULL, "tag_pairs must not be NULL when n_pairs = %zu", n_pairs);
    uint32_t ntags = tco__attrib_tag_count(tags);
    int rc = tco__frozen_inputs(t, w, p, err);
    if (rc)
        return rc;
    /* records[] is stepped by the size its first record declares, so that
     * the array stays readable when the struct grows. */
    size_t stride = n ? records[0].size : sizeof(tco_record);
    if (stride < RECORD_V1_SIZE || stride > INPUT_MAX_SIZE || stride % sizeof(double) != 0)
        return tco__fail_named(err, TCO_E_SIZE, "records[0].size",
                               "records[0].size = %zu must be sizeof(tco_record): %zu to %d, a multiple of %zu", stride,
                               RECORD_V1_SIZE, INPUT_MAX_SIZE, sizeof(double));
    if (n >= UINT32_MAX)
        return tco__fail(err, TCO_E_RANGE, "n = %zu records: allowed fewer than %u in one attribution", n,
                         (unsigned)UINT32_MAX);
    const tco_obj *to = &t->o, *wo = &w->o, *po = &p->o;

    uint32_t job_key;
    if (tco__tags_find_hashed(tags, JOB_KEY, sizeof JOB_KEY - 1, tco__tags_hash(JOB_KEY, sizeof JOB_KEY - 1),
                              &job_key) != TCO_OK)
        job_key = UINT32_MAX; /* no record has a job_id: none overlap */

    size_t m = n ? n : 1;
    table tb;
    memset(&tb, 0, sizeof tb);
    tb.last = UINT32_MAX;
    uint32_t *remap = NULL;
    /* Pages of the windows no record uses are never touched. */
    window *win = job_key != UINT32_MAX ? malloc(m * sizeof *win) : NULL;
    a->record = malloc(m * sizeof *a->record);
    if (!a->record || (job_key != UINT32_MAX && !win)) {
        rc = tco__fail(err, TCO_E_NOMEM, "no memory for the attribution of %zu records", n);
        goto done;
    }
    /* as far as the caller's version of the request reaches; zeros past it */
    memcpy(&a->request, request, request->size < sizeof a->request ? request->size : sizeof a->request);
    a->request.size = sizeof a->request;
    a->records = n;
    a->scenario = tco__fingerprint_combine(to->fingerprint, wo->fingerprint, po->fingerprint);
    if ((rc = tco__attrib_table_grow(&tb, err)) || (rc = tco__attrib_rates(a, to, wo, po, err)))
        goto done;

    size_t windows;
    if ((rc = records_pass(a, &tb, sum, win, &windows, records, n, stride, tag_pairs, n_pairs, ntags, job_key, po,
                           err)))
        goto done;
    sum->records = n;
    a->group = tb.g;
    a->groups = tb.count;
    tb.g = NULL;
    /* The groups in the order of their texts, and the records' with them. */
    if (!(remap = malloc((a->groups ? a->groups : 1) * sizeof *remap))) {
        rc = tco__fail(err, TCO_E_NOMEM, "no memory for %zu groups", a->groups);
        goto done;
    }
    if ((rc = tco__attrib_sort_groups(a->group, a->groups, tags, remap, err)))
        goto done;
    for (size_t i = 0; i < n; i++)
        if (a->record[i].group != TCO__ATTRIB_OUTSIDE)
            a->record[i].group = remap[a->record[i].group];
    rc = overlaps(&sum->overlapping, a->record, n, win, windows, ntags, err);
done:
    free(win);
    free(remap);
    free(tb.g);
    free(tb.slot);
    return rc;
}

int tco__attrib_settle(tco_attribution *a, const tco__attrib_totals *sum, const tco_topology *t,
                       const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    const tco_obj *to = &t->o, *wo = &w->o, *po = &p->o;
    int rc = tco__rates_need(&a->rates, sum->classes, to, po, err);
    if (rc)
        return rc;
    double rate_sum[CLASSES];
    for (int c = 0; c < CLASSES; c++) {
        rate_sum[c] = 0;
        for (int k = 0; k < CATS; k++)
            rate_sum[c] += a->rate[c][k];
    }
    size_t G = a->groups;
    for (size_t g = 0; g < G; g++) {
        tco__attrib_group *x = &a->group[g];
        tco__attrib_group_read(x);
        x->usage = 0;
        for (int c = 0; c < CLASSES; c++)
            x->usage += x->held[c] * rate_sum[c];
    }

    /* The period: capacity, idle and the shared services, spread. */
    const tco_attribution_request *q = &a->request;
    double held = tco__exact_value(&sum->held);
    double hours = (q->period_end - q->period_start) / 3600, capacity = to->v[IX_ACCELERATORS] * hours;
    double idle_h = capacity > held ? capacity - held : 0; /* held above capacity: no idle */
    a->idle_hours = idle_h;
    for (int k = 0; k < CATS; k++)
        a->idle[k] = idle_h * a->idle_rate[k];
    shared_of(a->shared, hours, held, a->events_per_hour, to, wo, po);
    double *share = malloc((G ? G : 1) * sizeof *share);
    if (!share)
        return tco__fail(err, TCO_E_NOMEM, "no memory for %zu groups", G);
    if ((rc = spread(share, a->group, G, q->idle_rule, q->owner_value, "idle_rule", "idle capacity", err)))
        goto done;
    for (size_t g = 0; g < G; g++)
        a->group[g].idle_share = share[g];
    if ((rc = spread(share, a->group, G, q->shared_rule, q->owner_value, "shared_rule", "the shared services", err)))
        goto done;
    for (size_t g = 0; g < G; g++)
        a->group[g].shared_share = share[g];
    if ((rc = cents_of(a, err)))
        goto done;

    /* The bill: the groups' cents added up, column by column. */
    tco_bill *b = &a->bill;
    memset(b, 0, sizeof *b);
    b->size = sizeof *b;
    for (size_t g = 0; g < G; g++) {
        const tco__attrib_group *x = &a->group[g];
        b->total += x->total;
        for (int k = 0; k < CATS; k++)
            b->category[k] += x->cents[k];
        b->direct += x->direct;
        b->idle += x->idle;
        b->shared += x->shared;
    }
    b->period_hours = hours;
    b->capacity_accelerator_hours = capacity;
    b->held_accelerator_hours = held;
    b->used_accelerator_hours = tco__exact_value(&sum->used);
    b->clipped_accelerator_hours = tco__exact_value(&sum->clipped);
    b->records = sum->records;
    b->records_outside = sum->outside;
    b->overlapping = sum->overlapping;
done:
    free(share);
    return rc;
}

int tco_attribute(tco_attribution **out, const tco_record *records, size_t n, const uint32_t *tag_pairs,
                  size_t n_pairs, const tco_tags *tags, const tco_attribution_request *request, const tco_topology *t,
                  const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    if (!out || !tags || !request)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : !tags ? "tags" : "request");
    int rc = tco__attrib_request_check(request, tco__attrib_tag_count(tags), err);
    if (rc)
        return rc;
    tco_attribution *a = calloc(1, sizeof *a);
    if (!a)
        return tco__fail(err, TCO_E_NOMEM, "no memory for the attribution of %zu records", n);
    tco__attrib_totals sum;
    rc = tco__attrib_pass(a, &sum, records, n, tag_pairs, n_pairs, tags, request, t, w, p, err);
    if (!rc)
        rc = tco__attrib_settle(a, &sum, t, w, p, err);
    if (rc) {
        tco_attribution_free(a);
        return rc;
    }
    *out = a;
    return TCO_OK;
}

/* ---- reading the result ------------------------------------------------- */

int tco_attribution_bill(tco_bill *out, const tco_attribution *a, tco_error *err)
{
    if (!out || !a)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "a");
    if (out->size < sizeof *out || out->size > OUTPUT_MAX_SIZE) /* new in 1.1: the first version is the whole struct */
        return tco__output_size_fail(err, "tco_bill", out->size, sizeof *out);
    sized_fill(out, &a->bill, sizeof a->bill);
    return TCO_OK;
}

size_t tco_attribution_group_count(const tco_attribution *a)
{
    return a ? a->groups : 0;
}

int tco_attribution_group_at(tco_group *out, const tco_attribution *a, size_t i, tco_error *err)
{
    if (!out || !a)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "a");
    if (out->size < sizeof *out || out->size > OUTPUT_MAX_SIZE) /* new in 1.1 */
        return tco__output_size_fail(err, "tco_group", out->size, sizeof *out);
    if (i >= a->groups)
        return tco__fail(err, TCO_E_INDEX, "group %zu is past the %zu groups of the attribution", i, a->groups);
    const tco__attrib_group *g = &a->group[a->order[i]];
    tco_group r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    r.value[0] = g->value[0];
    r.value[1] = g->value[1];
    r.total = g->total;
    memcpy(r.category, g->cents, sizeof g->cents);
    r.direct = g->direct;
    r.idle = g->idle;
    r.shared = g->shared;
    r.share = a->bill.total != 0 ? (double)g->total / (double)a->bill.total : 0;
    r.held_accelerator_hours = g->held[0] + g->held[1] + g->held[2] + g->held[3];
    r.used_accelerator_hours = g->used_h;
    r.records = g->records;
    sized_fill(out, &r, sizeof r);
    return TCO_OK;
}
