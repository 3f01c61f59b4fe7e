/* Attribution in parts (doc/spark.md): shares of the records passed
 * apart, merged by their groups' texts, and settled into the bill
 * tco_attribute gives for all of them at once.
 *
 * A part keeps what the pass adds up (exactly: exact.h) by the texts of
 * the groups' values, so that the tags tables of different shares never
 * need to agree on ids. Merging adds the sums; settling orders the groups
 * by their texts, as tco_attribute does, and spreads and rounds once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib/attrib.h"
#include "records/records.h"

#define MAGIC "TCOPART\001" /* the bytes' first eight: the format and its version */
#define MAGIC_LEN 8

void tco_attribution_part_free(tco_attribution_part *part)
{
    if (!part)
        return;
    tco_tags_free(part->texts);
    free(part->group);
    free(part);
}

const tco_tags *tco_attribution_part_tags(const tco_attribution_part *part)
{
    return part ? part->texts : NULL;
}

const char *tco_attribution_part_key(const tco_attribution_part *part, size_t k)
{
    return part && k < part->request.by_count ? tco_tags_text(part->texts, part->request.by_key[k]) : NULL;
}

const tco_tags *tco_attribution_tags(const tco_attribution *a)
{
    return a ? a->texts : NULL;
}

/* The id in into of text id of from (TCO_TAG_NONE stays), interned. */
static int text_into(tco_tags *into, const tco_tags *from, uint32_t id, uint32_t *out, tco_error *err)
{
    if (id == TCO_TAG_NONE) {
        *out = TCO_TAG_NONE;
        return TCO_OK;
    }
    const char *s = tco_tags_text(from, id);
    return tco_tags_intern(into, s, strlen(s), out, err);
}

/* A copy of a tags table, the same ids. */
static int tags_copy(tco_tags **out, const tco_tags *from, tco_error *err)
{
    tco_tags *copy = NULL;
    int rc = tco_tags_new(&copy, err);
    uint32_t id;
    for (uint32_t i = 0; !rc && i < tco__attrib_tag_count(from); i++)
        rc = text_into(copy, from, i, &id, err);
    if (rc) {
        tco_tags_free(copy);
        return rc;
    }
    *out = copy;
    return TCO_OK;
}

static int owner_rule(const tco_attribution_request *q)
{
    return q->idle_rule == TCO_SPREAD_OWNER || q->shared_rule == TCO_SPREAD_OWNER;
}

/* ---- a part of records ------------------------------------------------ */

int tco_attribute_part(tco_attribution_part **out, const tco_record *records, size_t n, const uint32_t *tag_pairs,
                       size_t n_pairs, const tco_tags *tags, const tco_attribution_request *request,
                       const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    if (!out || !tags || !request)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : !tags ? "tags" : "request");
    int rc = tco__attrib_request_check(request, tco__attrib_tag_count(tags), err);
    if (rc)
        return rc;
    tco_attribution *a = calloc(1, sizeof *a);
    tco_attribution_part *part = calloc(1, sizeof *part);
    if (!a || !part) {
        rc = tco__fail(err, TCO_E_NOMEM, "no memory for the attribution of %zu records", n);
        goto done;
    }
    if ((rc = tco__attrib_pass(a, &part->totals, records, n, tag_pairs, n_pairs, tags, request, t, w, p, err)) ||
        (rc = tco_tags_new(&part->texts, err)))
        goto done;
    /* The keys and the owner first, then the groups' values, as texts. */
    tco_attribution_request *q = &part->request;
    *q = a->request;
    q->progress = NULL;
    q->progress_user = NULL;
    if (!owner_rule(q))
        q->owner_value = TCO_TAG_NONE;
    if (q->by_count == 1)
        q->by_key[1] = TCO_TAG_NONE;
    for (uint32_t k = 0; !rc && k < 2; k++)
        rc = k < q->by_count ? text_into(part->texts, tags, q->by_key[k], &q->by_key[k], err) : TCO_OK;
    if (!rc)
        rc = text_into(part->texts, tags, q->owner_value, &q->owner_value, err);
    for (size_t g = 0; !rc && g < a->groups; g++)
        for (int k = 0; !rc && k < 2; k++)
            rc = text_into(part->texts, tags, a->group[g].value[k], &a->group[g].value[k], err);
    if (rc)
        goto done;
    part->scenario = a->scenario;
    part->group = a->group;
    part->groups = a->groups;
    a->group = NULL;
    *out = part;
    part = NULL;
done:
    tco_attribution_free(a);
    tco_attribution_part_free(part);
    return rc;
}

/* ---- merging ---------------------------------------------------------- */

/* Whether two texts (ids of their tables, TCO_TAG_NONE) are the same. */
static int same_text(const tco_tags *ta, uint32_t a, const tco_tags *tb, uint32_t b)
{
    if (a == TCO_TAG_NONE || b == TCO_TAG_NONE)
        return a == b;
    return strcmp(tco_tags_text(ta, a), tco_tags_text(tb, b)) == 0;
}

/* Whether two parts can be added: the same inputs and the same request. */
static int mergeable(const tco_attribution_part *a, const tco_attribution_part *b, const char *name, tco_error *err)
{
    const tco_attribution_request *p = &a->request, *q = &b->request;
    if (a->scenario != b->scenario)
        return tco__fail_named(err, TCO_E_INCONSISTENT, name,
                               "%s was priced with other inputs (scenario fingerprint %016llx, not %016llx)", name,
                               (unsigned long long)b->scenario, (unsigned long long)a->scenario);
    if (p->period_start != q->period_start || p->period_end != q->period_end)
        return tco__fail_named(err, TCO_E_INCONSISTENT, name, "%s is of the period %.17g to %.17g s, not %.17g to %.17g s",
                               name, q->period_start, q->period_end, p->period_start, p->period_end);
    int keys = p->by_count == q->by_count;
    for (uint32_t k = 0; keys && k < p->by_count; k++)
        keys = same_text(a->texts, p->by_key[k], b->texts, q->by_key[k]);
    if (!keys)
        return tco__fail_named(err, TCO_E_INCONSISTENT, name, "%s groups by other keys", name);
    if (p->idle_rule != q->idle_rule || p->shared_rule != q->shared_rule ||
        !same_text(a->texts, p->owner_value, b->texts, q->owner_value))
        return tco__fail_named(err, TCO_E_INCONSISTENT, name, "%s spreads by other rules or to another owner", name);
    return TCO_OK;
}

static int sums_add(tco__exact *into, const tco__exact *from, int n, const char *what, tco_error *err)
{
    for (int k = 0; k < n; k++)
        if (!tco__exact_merge(&into[k], &from[k]))
            return tco__fail(err, TCO_E_RANGE, "the parts' %s add up past what an exact sum holds", what);
    return TCO_OK;
}

/* Adds from's groups and totals to m (a copy of into being built). */
static int merge_into(tco_attribution_part *m, tco__attrib_table *tb, const tco_attribution_part *from,
                      tco_error *err)
{
    tco__attrib_totals *s = &m->totals;
    const tco__attrib_totals *f = &from->totals;
    int rc = sums_add(&s->held, &f->held, 1, "held hours", err);
    if (!rc)
        rc = sums_add(&s->used, &f->used, 1, "used hours", err);
    if (!rc)
        rc = sums_add(&s->clipped, &f->clipped, 1, "clipped hours", err);
    if (rc)
        return rc;
    s->records += f->records;
    s->outside += f->outside;
    s->overlapping += f->overlapping;
    s->classes |= f->classes;
    for (size_t i = 0; i < from->groups; i++) {
        const tco__attrib_group *x = &from->group[i];
        uint32_t v[2];
        for (int k = 0; k < 2; k++)
            if ((rc = text_into(m->texts, from->texts, x->value[k], &v[k], err)))
                return rc;
        uint32_t gi = tco__attrib_table_group(tb, (uint64_t)v[0] << 32 | v[1], err);
        if (gi == UINT32_MAX)
            return TCO_E_NOMEM;
        tco__attrib_group *g = &tb->g[gi];
        if ((rc = sums_add(g->sum, x->sum, TCO__SUMS, "amounts", err)))
            return rc;
        g->records += x->records;
    }
    return TCO_OK;
}

/* Files groups[0 .. n) in a new table (which owns them then). */
static int table_of(tco__attrib_table *tb, tco__attrib_group *groups, size_t n, tco_error *err)
{
    memset(tb, 0, sizeof *tb);
    tb->last = UINT32_MAX;
    tb->g = groups;
    tb->count = tb->cap = n;
    return tco__attrib_table_grow(tb, err);
}

int tco_attribution_part_merge(tco_attribution_part *into, const tco_attribution_part *from, tco_error *err)
{
    if (!into || !from)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !into ? "into" : "from");
    int rc = mergeable(into, from, "from", err);
    if (rc)
        return rc;
    /* Built aside and swapped in, so that a failure leaves into as it was. */
    tco_attribution_part m = *into;
    tco__attrib_table tb;
    memset(&tb, 0, sizeof tb);
    tco__attrib_group *g = malloc((into->groups ? into->groups : 1) * sizeof *g);
    if (!g)
        return tco__fail(err, TCO_E_NOMEM, "no memory to merge %zu groups", into->groups);
    if (into->groups) /* an empty part has no array */
        memcpy(g, into->group, into->groups * sizeof *g);
    m.texts = NULL;
    if ((rc = tags_copy(&m.texts, into->texts, err))) {
        free(g);
        return rc;
    }
    if (!(rc = table_of(&tb, g, into->groups, err)))
        rc = merge_into(&m, &tb, from, err);
    free(tb.slot);
    if (rc) {
        free(tb.g);
        tco_tags_free(m.texts);
        return rc;
    }
    m.group = tb.g;
    m.groups = tb.count;
    free(into->group);
    tco_tags_free(into->texts);
    *into = m;
    return TCO_OK;
}

/* ---- bytes ------------------------------------------------------------ */

/* Little-endian writing, which only counts when the buffer is short. */
typedef struct wr {
    uint8_t *p;
    size_t n, cap;
} wr;

static void put_u64(wr *o, uint64_t v)
{
    for (int i = 0; i < 8; i++, o->n++)
        if (o->n < o->cap)
            o->p[o->n] = (uint8_t)(v >> 8 * i);
}

static void put_u32(wr *o, uint32_t v)
{
    for (int i = 0; i < 4; i++, o->n++)
        if (o->n < o->cap)
            o->p[o->n] = (uint8_t)(v >> 8 * i);
}

static void put_f64(wr *o, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u64(o, bits);
}

static void put_bytes(wr *o, const void *s, size_t n)
{
    if (o->n + n <= o->cap)
        memcpy(o->p + o->n, s, n);
    o->n += n;
}

static void put_sums(wr *o, const tco__exact *s, int n)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 3; i++)
            put_u64(o, s[k].w[i]);
}

/* The format, field after field (doc/spark.md, "A part as bytes"). */
static void write_part(wr *o, const tco_attribution_part *part)
{
    const tco_attribution_request *q = &part->request;
    const tco__attrib_totals *s = &part->totals;
    put_bytes(o, MAGIC, MAGIC_LEN);
    put_u64(o, part->scenario);
    put_f64(o, q->period_start);
    put_f64(o, q->period_end);
    put_u32(o, q->by_count);
    put_u32(o, q->by_key[0]);
    put_u32(o, q->by_key[1]);
    put_u32(o, (uint32_t)q->idle_rule);
    put_u32(o, (uint32_t)q->shared_rule);
    put_u32(o, q->owner_value);
    put_u64(o, s->records);
    put_u64(o, s->outside);
    put_u64(o, s->overlapping);
    put_u32(o, s->classes);
    put_sums(o, &s->held, 1);
    put_sums(o, &s->used, 1);
    put_sums(o, &s->clipped, 1);
    uint32_t texts = tco__attrib_tag_count(part->texts);
    put_u32(o, texts);
    for (uint32_t i = 0; i < texts; i++) {
        const char *t = tco_tags_text(part->texts, i);
        size_t len = strlen(t);
        put_u32(o, (uint32_t)len);
        put_bytes(o, t, len);
    }
    put_u64(o, part->groups);
    for (size_t g = 0; g < part->groups; g++) {
        const tco__attrib_group *x = &part->group[g];
        put_u32(o, x->value[0]);
        put_u32(o, x->value[1]);
        put_u64(o, x->records);
        put_sums(o, x->sum, TCO__SUMS);
    }
}

int tco_attribution_part_save(uint8_t *buf, size_t cap, size_t *len, const tco_attribution_part *part,
                              tco_error *err)
{
    if (!len || !part)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !len ? "len" : "part");
    wr o = { buf, 0, buf ? cap : 0 };
    write_part(&o, part);
    *len = o.n;
    if (buf && o.n > cap)
        return tco__fail(err, TCO_E_SIZE, "the part takes %zu bytes; cap is %zu", o.n, cap);
    return TCO_OK;
}

/* Reading, which fails once at the first short field. */
typedef struct rd {
    const uint8_t *p;
    size_t n, at;
    int short_;
} rd;

static uint64_t get_u64(rd *r)
{
    uint64_t v = 0;
    if (r->n - r->at < 8) {
        r->short_ = 1;
        r->at = r->n;
        return 0;
    }
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)r->p[r->at + i] << 8 * i;
    r->at += 8;
    return v;
}

static uint32_t get_u32(rd *r)
{
    uint32_t v = 0;
    if (r->n - r->at < 4) {
        r->short_ = 1;
        r->at = r->n;
        return 0;
    }
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)r->p[r->at + i] << 8 * i;
    r->at += 4;
    return v;
}

static double get_f64(rd *r)
{
    uint64_t bits = get_u64(r);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static void get_sums(rd *r, tco__exact *s, int n)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 3; i++)
            s[k].w[i] = get_u64(r);
}

/* -1, 0 or 1 as a < b, a == b, a > b. */
static int exact_cmp(const tco__exact *a, const tco__exact *b)
{
    for (int i = 2; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

#define BAD(...) tco__fail_named(err, TCO_E_TYPE, "part", __VA_ARGS__)

/* The groups and totals of a part read: ids in range, no group twice, and
 * the sums as the pass makes them (a group's used within its held; the
 * totals its groups'). */
static int part_check(const tco_attribution_part *part, tco_error *err)
{
    uint32_t texts = tco__attrib_tag_count(part->texts);
    tco__exact held = { { 0 } }, used = { { 0 } };
    uint64_t records = 0;
    for (size_t g = 0; g < part->groups; g++) {
        const tco__attrib_group *x = &part->group[g];
        for (int k = 0; k < 2; k++)
            if (x->value[k] != TCO_TAG_NONE && x->value[k] >= texts)
                return BAD("part: group %zu names text %u of %u", g, (unsigned)x->value[k], (unsigned)texts);
        tco__exact h = { { 0 } };
        int ok = 1;
        for (int c = 0; c < 4; c++)
            ok &= tco__exact_merge(&h, &x->sum[TCO__SUM_HELD + c]);
        if (!ok || exact_cmp(&x->sum[TCO__SUM_USED], &h) > 0)
            return BAD("part: group %zu uses more accelerator-hours than it holds", g);
        if (!tco__exact_merge(&held, &h) || !tco__exact_merge(&used, &x->sum[TCO__SUM_USED]) ||
            x->records > UINT64_MAX - records)
            return BAD("part: the groups' sums overflow");
        records += x->records;
    }
    const tco__attrib_totals *s = &part->totals;
    if (exact_cmp(&held, &s->held) || exact_cmp(&used, &s->used))
        return BAD("part: the totals are not the groups' sums");
    if (s->outside > s->records || records != s->records - s->outside)
        return BAD("part: %llu records, %llu outside the period, but the groups hold %llu",
                   (unsigned long long)s->records, (unsigned long long)s->outside, (unsigned long long)records);
    if (s->classes > 15 || s->overlapping > s->records)
        return BAD("part: price classes or overlapping records out of range");
    return TCO_OK;
}

int tco_attribution_part_load(tco_attribution_part **out, const uint8_t *buf, size_t len, tco_error *err)
{
    if (!out || (len && !buf))
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "buf");
    if (len < MAGIC_LEN || memcmp(buf, MAGIC, MAGIC_LEN) != 0)
        return BAD("part: these bytes are not a part of this libtco's (tco_attribution_part_save)");
    rd r = { buf, len, MAGIC_LEN, 0 };
    tco_attribution_part *part = calloc(1, sizeof *part);
    tco__attrib_table tb;
    memset(&tb, 0, sizeof tb);
    tb.last = UINT32_MAX;
    int rc = TCO_OK;
    if (!part || (rc = tco_tags_new(&part->texts, err)) || (rc = tco__attrib_table_grow(&tb, err))) {
        if (!rc)
            rc = tco__fail(err, TCO_E_NOMEM, "no memory for a part");
        goto done;
    }
    tco_attribution_request *q = &part->request;
    q->size = sizeof *q;
    part->scenario = get_u64(&r);
    q->period_start = get_f64(&r);
    q->period_end = get_f64(&r);
    q->by_count = get_u32(&r);
    q->by_key[0] = get_u32(&r);
    q->by_key[1] = get_u32(&r);
    q->idle_rule = (int32_t)get_u32(&r);
    q->shared_rule = (int32_t)get_u32(&r);
    q->owner_value = get_u32(&r);
    tco__attrib_totals *s = &part->totals;
    s->records = get_u64(&r);
    s->outside = get_u64(&r);
    s->overlapping = get_u64(&r);
    s->classes = get_u32(&r);
    get_sums(&r, &s->held, 1);
    get_sums(&r, &s->used, 1);
    get_sums(&r, &s->clipped, 1);
    uint32_t texts = get_u32(&r);
    for (uint32_t i = 0; i < texts && !r.short_; i++) {
        uint32_t n = get_u32(&r), id;
        if (r.short_ || n > len - r.at) {
            r.short_ = 1;
            break;
        }
        const char *t = (const char *)buf + r.at;
        r.at += n;
        if (tco__tags_find_hashed(part->texts, t, n, tco__tags_hash(t, n), &id) == TCO_OK)
            rc = BAD("part: text %u is there twice", (unsigned)i);
        else if (tco__tag_problem(t, n, &(size_t){ 0 }))
            rc = BAD("part: text %u is not a tag (%s)", (unsigned)i, tco__tag_problem(t, n, &(size_t){ 0 }));
        else
            rc = tco_tags_intern(part->texts, t, n, &id, err);
        if (rc)
            goto done;
    }
    uint64_t groups = r.short_ ? 0 : get_u64(&r);
    /* each group takes 16 + 24 x TCO__SUMS bytes: more than the rest holds is short */
    if (groups > (len - r.at) / (16 + 24 * TCO__SUMS))
        r.short_ = 1;
    for (uint64_t g = 0; g < groups && !r.short_; g++) {
        uint32_t v0 = get_u32(&r), v1 = get_u32(&r);
        size_t before = tb.count;
        uint32_t gi = tco__attrib_table_group(&tb, (uint64_t)v0 << 32 | v1, err);
        if (gi == UINT32_MAX) {
            rc = TCO_E_NOMEM;
            goto done;
        }
        if (tb.count == before) {
            rc = BAD("part: group %llu is there twice", (unsigned long long)g);
            goto done;
        }
        tb.g[gi].records = get_u64(&r);
        get_sums(&r, tb.g[gi].sum, TCO__SUMS);
    }
    if (r.short_) {
        rc = BAD("part: the bytes end before the part does (%zu bytes)", len);
        goto done;
    }
    if (r.at != len) {
        size_t more = len - r.at;
        rc = BAD("part: %zu byte%s the part", more, tco__bytes_follow(more));
        goto done;
    }
    part->group = tb.g;
    part->groups = tb.count;
    tb.g = NULL;
    if (tco__attrib_request_check(q, texts, NULL)) {
        rc = BAD("part: its request is not one tco_attribute takes (period, keys, rules or owner)");
        goto done;
    }
    if ((q->by_count == 1 && q->by_key[1] != TCO_TAG_NONE) || (!owner_rule(q) && q->owner_value != TCO_TAG_NONE)) {
        rc = BAD("part: its request names a key or an owner it does not use");
        goto done;
    }
    if ((rc = part_check(part, err)))
        goto done;
    *out = part;
    part = NULL;
done:
    free(tb.g);
    free(tb.slot);
    tco_attribution_part_free(part);
    return rc;
}

/* ---- settling --------------------------------------------------------- */

int tco_attribute_parts(tco_attribution **out, const tco_attribution_part *part, const tco_topology *t,
                        const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    if (!out || !part)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "part");
    int rc = tco__frozen_inputs(t, w, p, err);
    if (rc)
        return rc;
    uint64_t scenario = tco__fingerprint_combine(t->o.fingerprint, w->o.fingerprint, p->o.fingerprint);
    if (scenario != part->scenario)
        return tco__fail_named(err, TCO_E_INCONSISTENT, "part",
                               "part was priced with other inputs (scenario fingerprint %016llx, not %016llx)",
                               (unsigned long long)part->scenario, (unsigned long long)scenario);
    tco_attribution *a = calloc(1, sizeof *a);
    size_t G = part->groups;
    if (!a || !(a->group = malloc((G ? G : 1) * sizeof *a->group))) {
        rc = tco__fail(err, TCO_E_NOMEM, "no memory to settle %zu groups", G);
        goto done;
    }
    if (G)
        memcpy(a->group, part->group, G * sizeof *a->group);
    a->groups = G;
    a->request = part->request;
    a->scenario = scenario;
    if ((rc = tags_copy(&a->texts, part->texts, err)) ||
        (rc = tco__attrib_sort_groups(a->group, G, a->texts, NULL, err)) ||
        (rc = tco__attrib_rates(a, &t->o, &w->o, &p->o, err)) ||
        (rc = tco__attrib_settle(a, &part->totals, t, w, p, err)))
        goto done;
    *out = a;
    a = NULL;
done:
    tco_attribution_free(a);
    return rc;
}
