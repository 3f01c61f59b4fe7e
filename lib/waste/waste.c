/* The waste in the records an attribution priced (doc/model.md, section
 * 17): idle and over-sized accelerators, overruns, failed runs run again,
 * checkpoints and datasets kept too long or twice, storage a finished
 * project left behind, and the cluster's idle capacity.
 *
 * Every cost is the attribution's own price of the record within the
 * period (its accelerator time, its storage), times the share of it that
 * was wasted: the findings and the bill never disagree on a price. A
 * record is the subject of one finding on its accelerator time and one on
 * its storage at most, the costliest of each, so that no money is counted
 * twice. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib/attrib.h"
#include "records/records.h"

#define REQUEST_V1_SIZE sizeof(tco_waste_request)
#define FINDING_V1_SIZE sizeof(tco_finding)
#define NONE UINT32_MAX
#define DAY 86400.0

struct tco_findings {
    tco_finding *f;
    size_t count;
    double total;
};

/* ---- names and actions (one table) -------------------------------------- */

static const struct {
    const char *name, *action;
} kinds[] = {
    [TCO_FINDING_IDLE_CAPACITY] = { "idle_capacity",
                                  "Fill the idle hours with queued or low-priority work, or shrink the reserved or owned "
                                  "capacity to the demand that is really there." },
    [TCO_FINDING_IDLE_HELD] = { "idle_held",
                              "Release idle allocations: set an idle timeout that ends or reclaims jobs whose "
                              "accelerators sit unused." },
    [TCO_FINDING_OVERSIZED] = { "oversized",
                              "Right-size the request to what the job uses, or fix what starves it (data loading, "
                              "communication) before asking for more accelerators." },
    [TCO_FINDING_OVERRUN] = { "overrun",
                            "Enforce a time limit and stop runs that go on past their deadline; check why they "
                            "overran before they run again." },
    [TCO_FINDING_RERUN] = { "rerun",
                          "Checkpoint more often and resume from the last checkpoint; fix the cause of the failure "
                          "before resubmitting." },
    [TCO_FINDING_RETAINED] = { "retained",
                             "Apply the retention policy: delete or move to the cold tier the checkpoints and "
                             "datasets past it, keeping the milestones." },
    [TCO_FINDING_DUPLICATE] = { "duplicate",
                              "Deduplicate: keep one copy, referenced by its fingerprint, and delete the others." },
    [TCO_FINDING_ORPHANED] = { "orphaned",
                             "Archive or delete what a finished project left behind; make data ownership and an "
                             "expiry part of closing a project." },
};

const char *tco_finding_kind_name(int32_t kind)
{
    return kind >= TCO_FINDING_IDLE_CAPACITY && kind <= TCO_FINDING_ORPHANED ? kinds[kind].name : NULL;
}

const char *tco_finding_action(int32_t kind)
{
    return kind >= TCO_FINDING_IDLE_CAPACITY && kind <= TCO_FINDING_ORPHANED ? kinds[kind].action : NULL;
}

void tco_waste_request_init(tco_waste_request *q)
{
    if (!q)
        return;
    memset(q, 0, sizeof *q);
    q->size = sizeof *q;
    q->idle_utilisation = 0.05;
    q->idle_hours = 1;
    q->oversized_utilisation = 0.5;
    q->max_runtime_hours = 0;
    q->rerun_hours = 24;
    q->retention_days = 30;
    q->orphan_days = 14;
}

/* ---- the request ---------------------------------------------------------- */

static int request_check(const tco_waste_request *q, tco_error *err)
{
    if (q->size < REQUEST_V1_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, "waste_request.size",
                               "waste_request.size = %zu is below %zu: set it with tco_waste_request_init", q->size,
                               REQUEST_V1_SIZE);
    int rc = input_size_check(q, q->size, sizeof *q, "waste_request", err);
    if (rc)
        return rc;
    const struct {
        const char *name;
        double v, lo, hi;
    } f[] = {
        { "request.idle_utilisation", q->idle_utilisation, 0, 1 },
        { "request.idle_hours", q->idle_hours, 0, 1e6 },
        { "request.oversized_utilisation", q->oversized_utilisation, q->idle_utilisation, 1 },
        { "request.max_runtime_hours", q->max_runtime_hours, 0, 1e6 },
        { "request.rerun_hours", q->rerun_hours, 0, 1e6 },
        { "request.retention_days", q->retention_days, 0, 1e5 },
        { "request.orphan_days", q->orphan_days, 0, 1e5 },
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        if (!isfinite(f[i].v))
            return tco__fail_named(err, TCO_E_NOT_FINITE, f[i].name, "%s = %g must be finite", f[i].name, f[i].v);
        if (!(f[i].v >= f[i].lo && f[i].v <= f[i].hi))
            return tco__fail_named(err, TCO_E_RANGE, f[i].name, "%s = %g: allowed %g to %g", f[i].name, f[i].v,
                                   f[i].lo, f[i].hi);
    }
    return TCO_OK;
}

/* ---- what the finder reads of a record ------------------------------------ */

/* The tag keys it reads, by the names of doc/records.md. */
enum { K_JOB_NAME, K_USER, K_PROJECT, K_KIND, K_NAME, K_FINGERPRINT, K_DEADLINE, KEYS };
static const char *const key_text[KEYS] = { "job_name", "user", "project", "kind", "name", "fingerprint", "deadline" };

typedef struct rec {
    double s, e;            /* the window */
    double from, to;        /* clipped to the period */
    double gb;              /* stored over the window: GB-hours / hours */
    uint32_t tag[KEYS];     /* value ids; NONE without the tag */
    int stored;             /* a checkpoint or a dataset (kind tag) */
} rec;

/* Two findings per record at most: on its accelerators, on its storage. */
typedef struct best {
    tco_finding accel, storage;
} best;

static void consider(tco_finding *b, int32_t kind, uint32_t other, double since, double until, double cost,
                     double accel_h, double gb)
{
    if (!(cost > b->cost))
        return;
    b->kind = kind;
    b->other = other;
    b->since = since;
    b->until = until;
    b->cost = cost;
    b->accelerator_hours = accel_h;
    b->gb = gb;
}

/* The part of [lo, hi) within the record's clipped window, as a share of
 * that window (0 when it is an instant). */
static double share_after(const rec *r, double lo, double *since)
{
    double a = lo > r->from ? lo : r->from;
    *since = a;
    return r->to > r->from && r->to > a ? (r->to - a) / (r->to - r->from) : 0;
}

/* ---- failed runs run again ------------------------------------------------- */

typedef struct run {
    uint32_t name, user, i;
    double s;
} run;

static int run_order(const void *x, const void *y)
{
    const run *a = x, *b = y;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    if (a->user != b->user)
        return a->user < b->user ? -1 : 1;
    if (a->s != b->s)
        return a->s < b->s ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* ---- copies -------------------------------------------------------------- */

typedef struct copy {
    uint32_t by_fingerprint, id; /* the fingerprint's value id, or the name's */
    int64_t mb;                  /* the size, to the MB (by name only) */
    double s;
    uint32_t i;
} copy;

static int copy_order(const void *x, const void *y)
{
    const copy *a = x, *b = y;
    if (a->by_fingerprint != b->by_fingerprint)
        return a->by_fingerprint < b->by_fingerprint ? -1 : 1;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    if (a->mb != b->mb)
        return a->mb < b->mb ? -1 : 1;
    if (a->s != b->s)
        return a->s < b->s ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static int finding_order(const void *x, const void *y)
{
    const tco_finding *a = x, *b = y;
    if (a->cost != b->cost)
        return a->cost > b->cost ? -1 : 1;
    if (a->record != b->record)
        return a->record < b->record ? -1 : 1;
    return (a->kind > b->kind) - (a->kind < b->kind);
}

/* ---- tco_find_waste ---------------------------------------------------------- */

/* Reads the records' windows and tags: what the finder relies on is
 * checked again, since the records need not be those attributed. */
static int read_records(rec *out, const tco_record *records, size_t n, size_t stride, const uint32_t *pairs,
                        size_t n_pairs, uint32_t ntags, const uint32_t key[KEYS], uint32_t checkpoint,
                        uint32_t dataset, double ps, double pe, tco_error *err)
{
    const char *base = (const char *)records;
    for (size_t i = 0; i < n; i++) {
        const tco_record *r = (const tco_record *)(base + i * stride);
        if (!(r->start >= 0 && r->end >= r->start && r->end <= TCO__TIME_MAX + 1)) {
            char f[TCO_ERROR_PARAM_NAME_MAX];
            snprintf(f, sizeof f, "records[%zu].end", i);
            return tco__fail_named(err, TCO_E_RANGE, f,
                                   "records[%zu] runs from %.17g to %.17g s: allowed a window within 1970 to 9999, "
                                   "start before end (the records attributed)",
                                   i, r->start, r->end);
        }
        if (r->tag_count && (uint64_t)r->first_tag + r->tag_count > n_pairs) {
            char f[TCO_ERROR_PARAM_NAME_MAX];
            snprintf(f, sizeof f, "records[%zu].first_tag", i);
            return tco__fail_named(err, TCO_E_INDEX, f, "records[%zu] has tag pairs past the %zu given", i, n_pairs);
        }
        rec *o = &out[i];
        o->s = r->start;
        o->e = r->end;
        o->from = r->start > ps ? r->start : ps;
        o->to = r->end < pe ? r->end : pe;
        if (o->to < o->from)
            o->to = o->from;
        double hours = (r->end - r->start) / 3600;
        double gbh = r->storage_gb_hours[0] + r->storage_gb_hours[1] + r->storage_gb_hours[2];
        o->gb = hours > 0 && isfinite(gbh) ? gbh / hours : 0;
        for (int k = 0; k < KEYS; k++)
            o->tag[k] = NONE;
        const uint32_t *tp = pairs + 2 * (size_t)r->first_tag;
        for (uint32_t t = 0; t < r->tag_count; t++) {
            uint32_t kid = tp[2 * t], vid = tp[2 * t + 1];
            if (kid >= ntags || vid >= ntags) {
                char f[TCO_ERROR_PARAM_NAME_MAX];
                snprintf(f, sizeof f, "records[%zu].first_tag", i);
                return tco__fail_named(err, TCO_E_INDEX, f, "records[%zu]'s tag pair %u names id %u: the tags table holds %u",
                                       i, (unsigned)t, (unsigned)(kid >= ntags ? kid : vid), (unsigned)ntags);
            }
            for (int k = 0; k < KEYS; k++)
                if (kid == key[k] && o->tag[k] == NONE)
                    o->tag[k] = vid;
        }
        o->stored = o->tag[K_KIND] != NONE && (o->tag[K_KIND] == checkpoint || o->tag[K_KIND] == dataset);
    }
    return TCO_OK;
}

static uint32_t find_text(const tco_tags *tags, const char *text)
{
    uint32_t id;
    return tco_tags_find(tags, text, strlen(text), &id, NULL) == TCO_OK ? id : NONE;
}

/* The findings in the records a priced. group_rank: each of a's groups'
 * place in the bill's order (NULL: a's own); with the cluster's idle
 * capacity, a's, when idle is set. */
static int find(tco_findings **out, const tco_attribution *a, const uint32_t *group_rank, int idle_finding,
                const tco_record *records, size_t n, const uint32_t *tag_pairs, size_t n_pairs, const tco_tags *tags,
                const tco_waste_request *request, tco_error *err)
{
    tco_waste_request q;
    tco_waste_request_init(&q);
    if (request) {
        int rc = request_check(request, err);
        if (rc)
            return rc;
        memcpy(&q, request, sizeof q);
    }
    if (n != a->records)
        return tco__fail_named(err, TCO_E_INCONSISTENT, "n",
                               "n = %zu records, but the attribution priced %zu: give the records it was given", n,
                               a->records);
    size_t stride = n ? records[0].size : sizeof(tco_record);
    if (stride < sizeof(tco_record) || stride > INPUT_MAX_SIZE || stride % sizeof(double) != 0)
        return tco__fail_named(err, TCO_E_SIZE, "records[0].size",
                               "records[0].size = %zu must be sizeof(tco_record): %zu to %d, a multiple of %zu", stride,
                               sizeof(tco_record), INPUT_MAX_SIZE, sizeof(double));
    uint32_t ntags = (uint32_t)tco_tags_count(tags); /* a table holds fewer than 2^31 texts */
    uint32_t key[KEYS];
    for (int k = 0; k < KEYS; k++)
        key[k] = find_text(tags, key_text[k]);
    uint32_t checkpoint = find_text(tags, "checkpoint"), dataset = find_text(tags, "dataset");

    double ps = a->request.period_start, pe = a->request.period_end;
    size_t m = n ? n : 1;
    rec *r = malloc(m * sizeof *r);
    best *b = calloc(m, sizeof *b);
    run *runs = malloc(m * sizeof *runs);
    copy *copies = malloc(m * sizeof *copies);
    double *last_end = malloc(((size_t)ntags + 1) * sizeof *last_end);
    unsigned char *running = calloc((size_t)ntags + 1, 1);
    uint32_t *rank = malloc((a->groups ? a->groups : 1) * sizeof *rank);
    tco_findings *w = calloc(1, sizeof *w);
    int rc = TCO_OK;
    if (!r || !b || !runs || !copies || !last_end || !running || !rank || !w) {
        rc = tco__fail(err, TCO_E_NOMEM, "no memory to look for waste in %zu records", n);
        goto done;
    }
    if ((rc = read_records(r, records, n, stride, tag_pairs, n_pairs, ntags, key, checkpoint, dataset, ps, pe, err)))
        goto done;
    for (size_t g = 0; g < a->groups; g++)
        if (group_rank)
            rank[g] = group_rank[g];
        else
            rank[a->order[g]] = (uint32_t)g;
    for (size_t i = 0; i < ntags; i++)
        last_end[i] = -1;

    /* One pass: the findings of one record alone, and what the others need. */
    size_t nruns = 0, ncopies = 0;
    for (size_t i = 0; i < n; i++) {
        const tco_record *x = (const tco_record *)((const char *)records + i * stride);
        const tco__attrib_record *ar = &a->record[i];
        const rec *ri = &r[i];
        b[i].accel.other = b[i].storage.other = NONE;
        if (x->accelerators > 0 && ri->tag[K_PROJECT] != NONE) {
            uint32_t p = ri->tag[K_PROJECT];
            if (x->state == TCO_JOB_RUNNING)
                running[p] = 1;
            if (x->end > last_end[p])
                last_end[p] = x->end;
        }
        if (ar->group == TCO__ATTRIB_OUTSIDE)
            continue;
        double since;
        /* Accelerators: idle or over-sized (by the utilisation measured). */
        double u = x->utilisation;
        if (ar->accel > 0 && u >= 0) {
            if (u < q.idle_utilisation && (x->end - x->start) / 3600 >= q.idle_hours)
                consider(&b[i].accel, TCO_FINDING_IDLE_HELD, NONE, ri->from, ri->to, ar->accel * (1 - u),
                         ar->held_h * (1 - u), 0);
            else if (u < q.oversized_utilisation)
                consider(&b[i].accel, TCO_FINDING_OVERSIZED, NONE, ri->from, ri->to,
                         ar->accel * (1 - u / q.oversized_utilisation), ar->held_h * (1 - u / q.oversized_utilisation),
                         0);
        }
        /* Overrun: the time past the limit or the deadline, the earlier. */
        if (ar->accel > 0) {
            double limit = INFINITY, d;
            if (q.max_runtime_hours > 0)
                limit = x->start + q.max_runtime_hours * 3600;
            uint32_t dv = ri->tag[K_DEADLINE];
            if (dv != NONE) {
                const char *text = tco_tags_text(tags, dv); /* dv < ntags (read_records) */
                if (tco__parse_time(text, strlen(text), 1, &d) == 0 && d < limit)
                    limit = d;
            }
            if (limit < x->end) {
                double sh = share_after(ri, limit, &since);
                consider(&b[i].accel, TCO_FINDING_OVERRUN, NONE, since, ri->to, ar->accel * sh, ar->held_h * sh, 0);
            }
        }
        if (ri->tag[K_JOB_NAME] != NONE && x->accelerators > 0)
            runs[nruns++] = (run){ ri->tag[K_JOB_NAME], ri->tag[K_USER], (uint32_t)i, x->start };
        /* Storage: kept past retention; candidates for copies. */
        if (ar->storage > 0 && ri->stored) {
            if (q.retention_days > 0) {
                double sh = share_after(ri, x->start + q.retention_days * DAY, &since);
                consider(&b[i].storage, TCO_FINDING_RETAINED, NONE, since, ri->to, ar->storage * sh, 0, ri->gb);
            }
            if (ri->tag[K_FINGERPRINT] != NONE)
                copies[ncopies++] = (copy){ 1, ri->tag[K_FINGERPRINT], 0, x->start, (uint32_t)i };
            else if (ri->tag[K_NAME] != NONE)
                copies[ncopies++] = (copy){ 0, ri->tag[K_NAME], llround(ri->gb * 1000), x->start, (uint32_t)i };
        }
    }

    /* Storage a finished project left: its accelerators all released. */
    if (q.orphan_days > 0)
        for (size_t i = 0; i < n; i++) {
            const tco__attrib_record *ar = &a->record[i];
            uint32_t p = r[i].tag[K_PROJECT];
            if (ar->group == TCO__ATTRIB_OUTSIDE || !(ar->storage > 0) || p == NONE || running[p] ||
                last_end[p] < 0)
                continue;
            double since, sh = share_after(&r[i], last_end[p] + q.orphan_days * DAY, &since);
            consider(&b[i].storage, TCO_FINDING_ORPHANED, NONE, since, r[i].to, ar->storage * sh, 0, r[i].gb);
        }

    /* A failure run again: the same name and user, started after it ended
     * (not beside it, as the tasks of an array are) and within rerun_hours
     * of its end. The failure's cost is the waste. */
    if (q.rerun_hours > 0 && nruns > 1) {
        qsort(runs, nruns, sizeof *runs, run_order);
        for (size_t k = 0; k + 1 < nruns; k++) {
            const run *f = &runs[k];
            const tco_record *x = (const tco_record *)((const char *)records + f->i * stride);
            const tco__attrib_record *ar = &a->record[f->i];
            if (x->state != TCO_JOB_FAILED) /* runs are records in the period */
                continue;
            double by = x->end + q.rerun_hours * 3600;
            for (size_t j = k + 1; j < nruns && runs[j].name == f->name && runs[j].user == f->user && runs[j].s <= by;
                 j++)
                if (runs[j].s >= x->end) {
                    consider(&b[f->i].accel, TCO_FINDING_RERUN, runs[j].i, r[f->i].from, r[f->i].to,
                             ar->accel + ar->traffic, ar->held_h, 0);
                    break;
                }
        }
    }

    /* Copies: every one after the first, while the first is kept too. */
    if (ncopies > 1) {
        qsort(copies, ncopies, sizeof *copies, copy_order);
        for (size_t k = 1, first = 0; k < ncopies; k++) {
            const copy *c = &copies[k], *o = &copies[first];
            if (c->by_fingerprint != o->by_fingerprint || c->id != o->id || c->mb != o->mb) {
                first = k;
                continue;
            }
            const rec *ri = &r[c->i], *ro = &r[o->i];
            double lo = ri->from > ro->from ? ri->from : ro->from, hi = ri->to < ro->to ? ri->to : ro->to;
            if (!(hi > lo)) /* past this, ri's window holds [lo, hi): no instant to divide by */
                continue;
            double sh = (hi - lo) / (ri->to - ri->from);
            consider(&b[c->i].storage, TCO_FINDING_DUPLICATE, o->i, lo, hi, a->record[c->i].storage * sh, 0, ri->gb);
        }
    }

    /* The findings: the cluster's idle capacity, then the records'. */
    size_t count = 1;
    for (size_t i = 0; i < n; i++)
        count += (b[i].accel.cost > 0) + (b[i].storage.cost > 0);
    if (!(w->f = malloc(count * sizeof *w->f))) {
        rc = tco__fail(err, TCO_E_NOMEM, "no memory for %zu findings", count);
        goto done;
    }
    double idle = 0;
    for (int k = 0; k < TCO__ATTRIB_CATS; k++)
        idle += a->idle[k];
    if (idle_finding && idle > 0) {
        const tco_bill *bill = &a->bill;
        w->f[w->count++] = (tco_finding){ .kind = TCO_FINDING_IDLE_CAPACITY, .record = NONE, .other = NONE,
                                          .group = NONE, .since = ps, .until = pe, .cost = idle,
                                          .accelerator_hours = bill->capacity_accelerator_hours -
                                                               bill->held_accelerator_hours };
    }
    for (size_t i = 0; i < n; i++) {
        tco_finding *two[2] = { &b[i].accel, &b[i].storage };
        for (int k = 0; k < 2; k++)
            if (two[k]->cost > 0) {
                tco_finding *f = &w->f[w->count++];
                *f = *two[k];
                f->record = (uint32_t)i;
                f->group = rank[a->record[i].group];
            }
    }
    for (size_t i = 0; i < w->count; i++) {
        tco_finding *f = &w->f[i];
        f->size = sizeof *f;
        f->per_day = f->until > f->since ? f->cost * DAY / (f->until - f->since) : 0;
        w->total += f->cost;
    }
    qsort(w->f, w->count, sizeof *w->f, finding_order);
    *out = w;
    w = NULL;

done:
    free(r);
    free(b);
    free(runs);
    free(copies);
    free(last_end);
    free(running);
    free(rank);
    tco_findings_free(w);
    return rc;
}

int tco_find_waste(tco_findings **out, const tco_attribution *a, const tco_record *records, size_t n,
                   const uint32_t *tag_pairs, size_t n_pairs, const tco_tags *tags, const tco_waste_request *request,
                   tco_error *err)
{
    if (!out || !a || !tags)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : !a ? "a" : "tags");
    if (n && !records)
        return tco__fail(err, TCO_E_NULL, "records must not be NULL when n = %zu", n);
    if (n_pairs && !tag_pairs)
        return tco__fail(err, TCO_E_NULL, "tag_pairs must not be NULL when n_pairs = %zu", n_pairs);
    return find(out, a, NULL, 1, records, n, tag_pairs, n_pairs, tags, request, err);
}

/* The place in whole's bill of each of a's groups, found by their texts
 * (whole's groups are in the order of theirs: a binary search). */
static int ranks_in(uint32_t *rank, const tco_attribution *a, const tco_tags *tags, const tco_attribution *whole,
                    tco_error *err)
{
    uint32_t *place = malloc((whole->groups ? whole->groups : 1) * sizeof *place);
    if (!place)
        return tco__fail(err, TCO_E_NOMEM, "no memory for %zu groups", whole->groups);
    for (size_t i = 0; i < whole->groups; i++)
        place[whole->order[i]] = (uint32_t)i;
    int rc = TCO_OK;
    for (size_t g = 0; g < a->groups && !rc; g++) {
        const char *text[2];
        for (int k = 0; k < 2; k++) {
            uint32_t id = a->group[g].value[k];
            text[k] = id == NONE ? NULL : tco_tags_text(tags, id);
        }
        size_t lo = 0, hi = whole->groups;
        int c = 1;
        while (lo < hi && c) {
            size_t mid = lo + (hi - lo) / 2;
            c = tco__attrib_group_cmp(&whole->group[mid], whole->texts, text);
            if (c < 0)
                lo = mid + 1;
            else if (c > 0)
                hi = mid;
            else
                lo = mid;
        }
        if (c)
            rc = tco__fail_named(err, TCO_E_INCONSISTENT, "records",
                                 "the records hold a group (%s, %s) the whole attribution does not: give records of "
                                 "those its parts were made of",
                                 text[0] ? text[0] : "(none)", text[1] ? text[1] : "(none)");
        else
            rank[g] = place[lo];
    }
    free(place);
    return rc;
}

int tco_find_waste_part(tco_findings **out, const tco_attribution *whole, const tco_record *records, size_t n,
                        const uint32_t *tag_pairs, size_t n_pairs, const tco_tags *tags,
                        const tco_waste_request *request, const tco_topology *t, const tco_workload *w,
                        const tco_pricing *p, tco_error *err)
{
    if (!out || !whole || !tags)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : !whole ? "whole" : "tags");
    if (!whole->texts)
        return tco__fail_named(err, TCO_E_INCONSISTENT, "whole",
                               "whole must be an attribution settled from parts (tco_attribute_parts)");
    /* The records priced as the whole's were, grouped by its keys' texts
     * (a key no record here has: TCO_TAG_NONE). */
    tco_attribution_request q = whole->request;
    for (uint32_t k = 0; k < q.by_count; k++) {
        uint32_t id = find_text(tags, tco_tags_text(whole->texts, q.by_key[k]));
        q.by_key[k] = id;
    }
    q.owner_value = NONE;
    q.idle_rule = q.shared_rule = TCO_SPREAD_EVEN;
    tco_attribution *a = calloc(1, sizeof *a);
    uint32_t *rank = NULL;
    tco__attrib_totals sum;
    int rc = TCO_OK;
    if (!a) {
        rc = tco__fail(err, TCO_E_NOMEM, "no memory for the waste of %zu records", n);
        goto done;
    }
    if ((rc = tco__attrib_pass(a, &sum, records, n, tag_pairs, n_pairs, tags, &q, t, w, p, err)))
        goto done;
    if (a->scenario != whole->scenario) {
        rc = tco__fail_named(err, TCO_E_INCONSISTENT, "whole",
                             "whole was priced with other inputs (scenario fingerprint %016llx, not %016llx)",
                             (unsigned long long)whole->scenario, (unsigned long long)a->scenario);
        goto done;
    }
    if (!(rank = malloc((a->groups ? a->groups : 1) * sizeof *rank))) {
        rc = tco__fail(err, TCO_E_NOMEM, "no memory for %zu groups", a->groups);
        goto done;
    }
    if (!(rc = ranks_in(rank, a, tags, whole, err)))
        rc = find(out, a, rank, 0, records, n, tag_pairs, n_pairs, tags, request, err);
done:
    free(rank);
    tco_attribution_free(a);
    return rc;
}

void tco_findings_free(tco_findings *w)
{
    if (!w)
        return;
    free(w->f);
    free(w);
}

size_t tco_findings_count(const tco_findings *w)
{
    return w ? w->count : 0;
}

double tco_findings_total(const tco_findings *w)
{
    return w ? w->total : 0;
}

int tco_findings_at(tco_finding *out, const tco_findings *w, size_t i, tco_error *err)
{
    if (!out || !w)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "w");
    if (out->size < FINDING_V1_SIZE || out->size > OUTPUT_MAX_SIZE) /* new in 1.1: the first version is the whole struct */
        return tco__output_size_fail(err, "tco_finding", out->size, FINDING_V1_SIZE);
    if (i >= w->count)
        return tco__fail(err, TCO_E_INDEX, "finding %zu is past the %zu findings", i, w->count);
    sized_fill(out, &w->f[i], sizeof w->f[i]);
    return TCO_OK;
}
