/* Scenario files and results out: canonical CBOR (doc/format.md). A
 * handle's bytes come from the foundation's encoder (core/encode.c), the
 * same that fingerprints hash; a result is written by a counting writer,
 * keyed by the estimate's field table. */
#include <string.h>

#include <cbor.h>

#include "core/encode.h"
#include "model/model.h"

const char *tco_scenario_format_name(void)
{
    return FORMAT_NAME;
}

/* The scenario map, its keys in canonical order: format, pricing, version,
 * topology, workload (shorter first, then bytewise). */
static uint8_t *raw_scenario(uint8_t *p, const tco_obj *t, const tco_obj *w, const tco_obj *pr)
{
    p += cbor_encode_map_start(5, p, 9);
    p = tco__cbor_text(p, "format");
    p = tco__cbor_text(p, FORMAT_NAME);
    p = tco__cbor_obj(tco__cbor_text(p, tco_handle_kind_name(TCO_HANDLE_PRICING)), pr);
    p = tco__cbor_text(p, "version");
    p += cbor_encode_uint(TCO_FORMAT_VERSION, p, 9);
    p = tco__cbor_obj(tco__cbor_text(p, tco_handle_kind_name(TCO_HANDLE_TOPOLOGY)), t);
    return tco__cbor_obj(tco__cbor_text(p, tco_handle_kind_name(TCO_HANDLE_WORKLOAD)), w);
}

/* Encodes straight into buf when it has room for any encoding (bound);
 * else into scratch first, so that a short buffer receives nothing. */
static int save_raw(uint8_t *buf, size_t cap, size_t *len, const tco_obj *t, const tco_obj *w,
                    const tco_obj *p, tco_error *err)
{
    if (!len)
        return tco__fail(err, TCO_E_NULL, "len must not be NULL");
    int scenario = w != NULL;
    size_t bound = scenario ? SCENARIO_BOUND : tco__cbor_orders[t->kind].bound;
    if (buf && cap >= bound) {
        *len = (size_t)((scenario ? raw_scenario(buf, t, w, p) : tco__cbor_obj(buf, t)) - buf);
        return TCO_OK;
    }
    uint8_t tmp[SCENARIO_BOUND];
    size_t n = (size_t)((scenario ? raw_scenario(tmp, t, w, p) : tco__cbor_obj(tmp, t)) - tmp);
    *len = n;
    if (!buf)
        return TCO_OK;
    if (n > cap)
        return tco__fail(err, TCO_E_SIZE, "the %s takes %zu bytes of CBOR: the buffer has %zu",
                         scenario ? "scenario" : tco_handle_kind_name(t->kind), n, cap);
    memcpy(buf, tmp, n);
    return TCO_OK;
}

/* A handle of another kind passed through a cast is refused: saved, it
 * would make a file of the wrong kind, or a scenario of swapped parts. */
#define SAVE_API(type, KIND)                                                                \
    int tco_##type##_save_cbor(uint8_t *buf, size_t cap, size_t *len, const tco_##type *h,  \
                               tco_error *err)                                              \
    {                                                                                       \
        if (!h)                                                                             \
            return tco__fail(err, TCO_E_NULL, #type " must not be NULL");                 \
        int rc = tco__kind_check(&h->o, TCO_HANDLE_##KIND, err);                            \
        return rc ? rc : save_raw(buf, cap, len, &h->o, NULL, NULL, err);                   \
    }

SAVE_API(topology, TOPOLOGY)
SAVE_API(workload, WORKLOAD)
SAVE_API(pricing, PRICING)

int tco_scenario_save_cbor(uint8_t *buf, size_t cap, size_t *len, const tco_topology *t,
                           const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    if (!t || !w || !p)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL",
                         tco_handle_kind_name(!t ? TCO_HANDLE_TOPOLOGY : !w ? TCO_HANDLE_WORKLOAD : TCO_HANDLE_PRICING));
    int rc = tco__kind_check(&t->o, TCO_HANDLE_TOPOLOGY, err);
    if (rc || (rc = tco__kind_check(&w->o, TCO_HANDLE_WORKLOAD, err)) ||
        (rc = tco__kind_check(&p->o, TCO_HANDLE_PRICING, err)))
        return rc;
    return save_raw(buf, cap, len, &t->o, &w->o, &p->o, err);
}

/* ---- results: a counting writer (they are not on any hot path) ---- */

/* Only counts when buf is NULL; writes only once a count found that the
 * whole fits in cap. */
typedef struct wr {
    uint8_t *buf;
    size_t len;
} wr;

static void put(wr *w, const void *p, size_t n)
{
    if (w->buf)
        memcpy(w->buf + w->len, p, n);
    w->len += n;
}

static void put_uint(wr *w, uint64_t u)
{
    unsigned char t[9];
    put(w, t, cbor_encode_uint(u, t, sizeof t));
}

static void put_map(wr *w, size_t n)
{
    unsigned char t[9];
    put(w, t, cbor_encode_map_start(n, t, sizeof t));
}

static void put_cstr(wr *w, const char *s)
{
    unsigned char t[9];
    size_t n = strlen(s);
    put(w, t, cbor_encode_string_start(n, t, sizeof t));
    put(w, s, n);
}

static void put_float(wr *w, double d)
{
    uint8_t t[9];
    put(w, t, (size_t)(tco__cbor_float(t, d) - t));
}

static int canonical_cmp(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na != nb)
        return na < nb ? -1 : 1;
    return memcmp(a, b, na);
}

/* ix[0..n) = 0..n-1 sorted by name(i) in canonical key order. */
static void sort_canonical(unsigned short *ix, size_t n, const char *(*name)(size_t))
{
    for (size_t i = 0; i < n; i++) {
        unsigned short x = (unsigned short)i;
        size_t j = i;
        for (; j > 0 && canonical_cmp(name(ix[j - 1]), name(x)) > 0; j--)
            ix[j] = ix[j - 1];
        ix[j] = x;
    }
}

static const char *field_name(size_t i)
{
    return tco__fields[i].name;
}

static const char *category_name(size_t i)
{
    return tco_category_name((int32_t)i);
}

static const char *waste_name(size_t i)
{
    return tco_waste_name((int32_t)i);
}

static void put_named(wr *w, const double *v, size_t n, const char *(*name)(size_t))
{
    unsigned short ix[TCO_CATEGORY_SLOTS > TCO_WASTE_SLOTS ? TCO_CATEGORY_SLOTS : TCO_WASTE_SLOTS];
    sort_canonical(ix, n, name);
    put_map(w, n);
    for (size_t i = 0; i < n; i++) {
        put_cstr(w, name(ix[i]));
        put_float(w, v[ix[i]]);
    }
}

static void put_estimate(wr *w, const tco_estimate *e)
{
    unsigned short ix[FIELDS_MAX];
    sort_canonical(ix, tco__field_rows, field_name);
    put_map(w, tco__field_rows);
    for (size_t i = 0; i < tco__field_rows; i++) {
        const field_row *f = &tco__fields[ix[i]];
        const char *at = (const char *)e + f->offset;
        put_cstr(w, f->name);
        switch (f->type) {
        case TCO_FIELD_CATEGORIES:
            put_named(w, e->cost, tco_category_count(), category_name);
            break;
        case TCO_FIELD_WASTES:
            put_named(w, e->waste, tco_waste_count(), waste_name);
            break;
        case TCO_FIELD_UINT64: {
            uint64_t u;
            memcpy(&u, at, sizeof u);
            put_uint(w, u);
            break;
        }
        default: {
            double d;
            memcpy(&d, at, sizeof d);
            put_float(w, d);
            break;
        }
        }
    }
}

int tco_estimate_save_cbor(uint8_t *buf, size_t cap, size_t *len, const tco_estimate *e, tco_error *err)
{
    if (!e || !len)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", e ? "len" : "estimate");
    if (e->size < ESTIMATE_V1_SIZE || e->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_estimate", e->size, ESTIMATE_V1_SIZE);
    /* Read only as far as the caller's struct reaches; the rest is 0. */
    tco_estimate copy_of;
    memset(&copy_of, 0, sizeof copy_of);
    memcpy(&copy_of, e, e->size < sizeof copy_of ? e->size : sizeof copy_of);
    wr w = { NULL, 0 };
    put_estimate(&w, &copy_of); /* the size first: a short buffer gets nothing */
    *len = w.len;
    if (!buf)
        return TCO_OK;
    if (w.len > cap)
        return tco__fail(err, TCO_E_SIZE, "the estimate takes %zu bytes of CBOR: the buffer has %zu", w.len, cap);
    wr out = { buf, 0 };
    put_estimate(&out, &copy_of);
    return TCO_OK;
}
