/* Scenario files: canonical CBOR out, checked CBOR in (doc/format.md).
 *
 * Out: RFC 8949 section 4.2.1, core deterministic encoding. Definite
 * lengths; integers, lengths and floats in their shortest form; map keys in
 * the order of their encoded bytes (cbor_order.c is generated from the
 * parameter table in that order). Every parameter is written.
 *
 * In: libcbor's streaming decoder, one item at a time, straight into a new
 * handle: no tree is built, nothing is allocated but the handles, a huge
 * declared length costs nothing, and the parser never recurses (the deepest
 * valid file is two maps deep; any other container where a value belongs is
 * refused without being entered). Keys may come in any order and numbers in
 * any width; everything else is checked as the setters check it, and the
 * error names the key. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <cbor.h>

#include "cbor_order.h"
#include "internal.h"

#define FORMAT_NAME "libtco-scenario"

const char *tco_scenario_format_name(void)
{
    return FORMAT_NAME;
}

static const char *const kind_names[] = { "", "topology", "workload", "pricing" };

static const struct {
    const cbor_key *keys;
    size_t count;
} orders[] = {
    { NULL, 0 },
    { cbor_order_topology, CBOR_ORDER_TOPOLOGY_COUNT },
    { cbor_order_workload, CBOR_ORDER_WORKLOAD_COUNT },
    { cbor_order_pricing, CBOR_ORDER_PRICING_COUNT },
};

/* ==== writing ============================================================ */

/* Copies n bytes with fixed-size, overlapping moves when n is small: keys
 * and values are 1 to 40 bytes, and a variable memcpy of that size costs
 * more than the rest of the encoder. */
static void copy(uint8_t *d, const uint8_t *s, size_t n)
{
    if (n >= 16 && n <= 32) {
        memcpy(d, s, 16);
        memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8 && n < 16) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4 && n < 8) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n < 4) {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    } else {
        memcpy(d, s, n);
    }
}

/* The binary16 bits of d if a binary16 holds d exactly, else -1. Bits, not
 * libm: this runs for every REAL of every handle at each freeze. (libcbor's
 * cbor_encode_half truncates half subnormals: not used.) */
static long half_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    long sign = (long)(b >> 63) << 15;
    int e = (int)(b >> 52 & 0x7ff) - 1023;
    uint64_t m = b & 0xfffffffffffffULL;
    if (e == 1024) /* infinities and NaN */
        return m ? 0x7e00 : sign | 0x7c00;
    if (e == -1023) /* zero, or a double subnormal: no half holds one */
        return m ? -1 : sign;
    if (e >= -14 && e <= 15) /* a normal half: 10 bits of mantissa */
        return m & ((1ULL << 42) - 1) ? -1 : sign | (long)(e + 15) << 10 | (long)(m >> 42);
    if (e >= -24 && e < -14) { /* a subnormal half: d = f 2^-24, f < 1024 */
        uint64_t f = m | 1ULL << 52;
        int shift = 28 - e;
        return f & ((1ULL << shift) - 1) ? -1 : sign | (long)(f >> shift);
    }
    return -1;
}

/* ---- raw: into a buffer known to be large enough ---- */

/* The shortest of binary16, binary32 and binary64 that holds d exactly;
 * NaN as 0xf97e00 (RFC 8949 section 4.2.2). At most 9 bytes. */
static uint8_t *raw_float(uint8_t *p, double d)
{
    long h = half_bits(d);
    if (h >= 0) {
        p[0] = 0xf9;
        p[1] = (uint8_t)(h >> 8);
        p[2] = (uint8_t)h;
        return p + 3;
    }
    if (fabs(d) <= FLT_MAX && (double)(float)d == d)
        return p + cbor_encode_single((float)d, p, 5);
    return p + cbor_encode_double(d, p, 9);
}

/* INT and BOOL values are whole (the setters see to it). */
static uint8_t *raw_int(uint8_t *p, double v)
{
    if (v != floor(v) || v >= 0x1p64 || v < -0x1p63)
        return raw_float(p, v); /* cannot happen to a checked value */
    if (v >= 0)
        return p + cbor_encode_uint((uint64_t)v, p, 9);
    return p + cbor_encode_negint((uint64_t)(-(v + 1)), p, 9);
}

static uint8_t *raw_text(uint8_t *p, const char *s)
{
    size_t n = strlen(s);
    p += cbor_encode_string_start(n, p, 9);
    copy(p, (const uint8_t *)s, n);
    return p + n;
}

/* A handle: at most its CBOR_ORDER_<H>_BOUND bytes. */
static uint8_t *raw_obj(uint8_t *p, const tco_obj *o)
{
    const cbor_key *k = orders[o->kind].keys;
    size_t n = orders[o->kind].count;
    p += cbor_encode_map_start(n, p, 9);
    for (size_t i = 0; i < n; i++, k++) {
        double v = o->v[k->ix];
        copy(p, (const uint8_t *)k->enc, (size_t)k->head + k->len);
        p += k->head + k->len;
        switch (k->type) {
        case TCO_TYPE_REAL:
            p = raw_float(p, v == 0 ? 0.0 : v); /* -0 is 0: one value, one encoding */
            break;
        case TCO_TYPE_INT:
        case TCO_TYPE_BOOL:
            p = raw_int(p, v);
            break;
        case TCO_TYPE_CHOICE: {
            const char *name = choice_name(tco_params[k->ix].choices, v);
            p = raw_text(p, name ? name : "");
            break;
        }
        default:
            p = raw_text(p, o->text[k->ix]);
            break;
        }
    }
    return p;
}

static const size_t bounds[] = { 0, CBOR_ORDER_TOPOLOGY_BOUND, CBOR_ORDER_WORKLOAD_BOUND,
                                 CBOR_ORDER_PRICING_BOUND };

#define SCENARIO_BOUND (CBOR_ORDER_TOPOLOGY_BOUND + CBOR_ORDER_WORKLOAD_BOUND + CBOR_ORDER_PRICING_BOUND + 64)

size_t obj_encode(const tco_obj *o, uint8_t *buf, size_t cap)
{
    if (cap >= bounds[o->kind])
        return (size_t)(raw_obj(buf, o) - buf);
    uint8_t tmp[CBOR_ORDER_BOUND];
    size_t n = (size_t)(raw_obj(tmp, o) - tmp);
    if (n > cap)
        return 0;
    memcpy(buf, tmp, n);
    return n;
}

/* The scenario map, its keys in canonical order: format, pricing, version,
 * topology, workload (shorter first, then bytewise). */
static uint8_t *raw_scenario(uint8_t *p, const tco_obj *t, const tco_obj *w, const tco_obj *pr)
{
    static const uint8_t format[] = "\xa5\x66" "format\x6f" "libtco-scenario\x67" "pricing";
    static const uint8_t version[] = "\x67" "version";
    memcpy(p, format, sizeof format - 1);
    p = raw_obj(p + sizeof format - 1, pr);
    memcpy(p, version, sizeof version - 1);
    p += sizeof version - 1;
    p += cbor_encode_uint(TCO_FORMAT_VERSION, p, 9);
    p += cbor_encode_string_start(8, p, 9);
    memcpy(p, "topology", 8);
    p = raw_obj(p + 8, t);
    p += cbor_encode_string_start(8, p, 9);
    memcpy(p, "workload", 8);
    return raw_obj(p + 8, w);
}

/* Encodes straight into buf when it has room for any encoding (bound);
 * else into scratch first, so that a short buffer receives nothing. */
static int save_raw(uint8_t *buf, size_t cap, size_t *len, const tco_obj *t, const tco_obj *w,
                    const tco_obj *p, tco_error *err)
{
    if (!len)
        return tco_fail(err, TCO_E_NULL, 0, "len must not be NULL");
    int scenario = w != NULL;
    size_t bound = scenario ? SCENARIO_BOUND : bounds[t->kind];
    if (buf && cap >= bound) {
        *len = (size_t)((scenario ? raw_scenario(buf, t, w, p) : raw_obj(buf, t)) - buf);
        return TCO_OK;
    }
    uint8_t tmp[SCENARIO_BOUND];
    size_t n = (size_t)((scenario ? raw_scenario(tmp, t, w, p) : raw_obj(tmp, t)) - tmp);
    *len = n;
    if (!buf)
        return TCO_OK;
    if (n > cap)
        return tco_fail(err, TCO_E_SIZE, 0, "the %s takes %zu bytes of CBOR: the buffer has %zu",
                        scenario ? "scenario" : kind_names[t->kind], n, cap);
    memcpy(buf, tmp, n);
    return TCO_OK;
}

#define SAVE_API(type)                                                                      \
    int tco_##type##_save_cbor(uint8_t *buf, size_t cap, size_t *len, const tco_##type *h,  \
                               tco_error *err)                                              \
    {                                                                                       \
        if (!h)                                                                             \
            return tco_fail(err, TCO_E_NULL, 0, #type " must not be NULL");                 \
        return save_raw(buf, cap, len, &h->o, NULL, NULL, err);                             \
    }

SAVE_API(topology)
SAVE_API(workload)
SAVE_API(pricing)

int tco_scenario_save_cbor(uint8_t *buf, size_t cap, size_t *len, const tco_topology *t,
                           const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    if (!t || !w || !p)
        return tco_fail(err, TCO_E_NULL, 0, "%s must not be NULL", !t ? "topology" : !w ? "workload" : "pricing");
    return save_raw(buf, cap, len, &t->o, &w->o, &p->o, err);
}

/* ---- results: a counting writer (they are not on any hot path) ---- */

/* Only counts when buf is NULL; never writes past cap. */
typedef struct wr {
    uint8_t *buf;
    size_t cap, len;
} wr;

static void put(wr *w, const void *p, size_t n)
{
    if (w->buf && w->len <= w->cap && n <= w->cap - w->len)
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
    put(w, t, (size_t)(raw_float(t, d) - t));
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
    return tco_fields[i].name;
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
    sort_canonical(ix, tco_field_rows, field_name);
    put_map(w, tco_field_rows);
    for (size_t i = 0; i < tco_field_rows; i++) {
        const field_row *f = &tco_fields[ix[i]];
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
        return tco_fail(err, TCO_E_NULL, 0, "%s must not be NULL", e ? "len" : "estimate");
    if (e->size < ESTIMATE_V1_SIZE)
        return tco_fail(err, TCO_E_SIZE, 0, "tco_estimate.size = %zu is below %zu: set it to sizeof(tco_estimate)",
                        e->size, (size_t)ESTIMATE_V1_SIZE);
    /* Read only as far as the caller's struct reaches; the rest is 0. */
    tco_estimate copy_of;
    memset(&copy_of, 0, sizeof copy_of);
    memcpy(&copy_of, e, e->size < sizeof copy_of ? e->size : sizeof copy_of);
    wr w = { NULL, 0, 0 };
    put_estimate(&w, &copy_of); /* the size first: a short buffer gets nothing */
    *len = w.len;
    if (!buf)
        return TCO_OK;
    if (w.len > cap)
        return tco_fail(err, TCO_E_SIZE, 0, "the estimate takes %zu bytes of CBOR: the buffer has %zu", w.len, cap);
    wr out = { buf, cap, 0 };
    put_estimate(&out, &copy_of);
    return TCO_OK;
}

/* ==== reading ============================================================ */

typedef enum {
    K_UINT, K_NEGINT, K_BYTES, K_TEXT, K_ARRAY, K_MAP, K_TAG, K_FLOAT, K_BOOL, K_NULL, K_UNDEF,
    K_INDEF, K_BREAK
} item_kind;

static const char *const item_names[] = {
    "an unsigned integer", "a negative integer", "a byte string", "a text string", "an array",
    "a map", "a tag", "a float", "a boolean", "null", "undefined", "an indefinite-length item",
    "a break",
};

/* One decoded item head (strings with their bytes). */
typedef struct item {
    item_kind k;
    uint64_t u; /* integers (negative: -1 - u), lengths, booleans */
    double d;   /* floats */
    const uint8_t *s;
    size_t n;   /* strings */
    size_t at;  /* byte offset of the item */
} item;

#define IT ((item *)ctx)
static void cb_uint8(void *ctx, uint8_t v) { IT->k = K_UINT; IT->u = v; }
static void cb_uint16(void *ctx, uint16_t v) { IT->k = K_UINT; IT->u = v; }
static void cb_uint32(void *ctx, uint32_t v) { IT->k = K_UINT; IT->u = v; }
static void cb_uint64(void *ctx, uint64_t v) { IT->k = K_UINT; IT->u = v; }
static void cb_negint8(void *ctx, uint8_t v) { IT->k = K_NEGINT; IT->u = v; }
static void cb_negint16(void *ctx, uint16_t v) { IT->k = K_NEGINT; IT->u = v; }
static void cb_negint32(void *ctx, uint32_t v) { IT->k = K_NEGINT; IT->u = v; }
static void cb_negint64(void *ctx, uint64_t v) { IT->k = K_NEGINT; IT->u = v; }
static void cb_bytes(void *ctx, cbor_data s, size_t n) { IT->k = K_BYTES; IT->s = s; IT->n = n; }
static void cb_text(void *ctx, cbor_data s, size_t n) { IT->k = K_TEXT; IT->s = s; IT->n = n; }
static void cb_indef(void *ctx) { IT->k = K_INDEF; }
static void cb_array(void *ctx, size_t n) { IT->k = K_ARRAY; IT->u = n; }
static void cb_map(void *ctx, size_t n) { IT->k = K_MAP; IT->u = n; }
static void cb_tag(void *ctx, uint64_t v) { IT->k = K_TAG; IT->u = v; }
static void cb_float(void *ctx, float f) { IT->k = K_FLOAT; IT->d = f; }
static void cb_double(void *ctx, double d) { IT->k = K_FLOAT; IT->d = d; }
static void cb_undef(void *ctx) { IT->k = K_UNDEF; }
static void cb_null(void *ctx) { IT->k = K_NULL; }
static void cb_bool(void *ctx, bool b) { IT->k = K_BOOL; IT->u = b; }
static void cb_break(void *ctx) { IT->k = K_BREAK; }
#undef IT

static const struct cbor_callbacks callbacks = {
    .uint8 = cb_uint8, .uint16 = cb_uint16, .uint32 = cb_uint32, .uint64 = cb_uint64,
    .negint8 = cb_negint8, .negint16 = cb_negint16, .negint32 = cb_negint32, .negint64 = cb_negint64,
    .byte_string_start = cb_indef, .byte_string = cb_bytes, .string = cb_text, .string_start = cb_indef,
    .indef_array_start = cb_indef, .array_start = cb_array, .indef_map_start = cb_indef,
    .map_start = cb_map, .tag = cb_tag, .float2 = cb_float, .float4 = cb_float, .float8 = cb_double,
    .undefined = cb_undef, .null = cb_null, .boolean = cb_bool, .indef_break = cb_break,
};

typedef struct rd {
    const uint8_t *buf;
    size_t len, pos;
    tco_error *err;
    const char *where;  /* "topology: " inside a scenario's section, else "" */
    int scenario;       /* reading a scenario: errors mention a newer version */
    int version_known;
    uint64_t version;
} rd;

static uint64_t scan_version(const uint8_t *buf, size_t len);

/* Fills err: the message prefixed with the section, and followed by the
 * file's version when it is newer than this library reads. */
static int failf(rd *r, int code, int32_t key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int failf(rd *r, int code, int32_t key, const char *fmt, ...)
{
    if (!r->err)
        return code;
    char msg[TCO_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->scenario && !r->version_known) {
        r->version = scan_version(r->buf, r->len);
        r->version_known = 1;
    }
    if (r->scenario && r->version > TCO_FORMAT_VERSION)
        return tco_fail(r->err, code, key, "%s%s (the file is format version %llu; this library reads 1 to %d)",
                        r->where, msg, (unsigned long long)r->version, TCO_FORMAT_VERSION);
    return tco_fail(r->err, code, key, "%s%s", r->where, msg);
}

/* Decodes the next item head. */
static int next(rd *r, item *it)
{
    it->at = r->pos;
    if (r->pos >= r->len)
        return failf(r, TCO_E_TYPE, 0, "truncated: the data ends at byte %zu, where an item should begin",
                     r->pos);
    struct cbor_decoder_result res = cbor_stream_decode(r->buf + r->pos, r->len - r->pos, &callbacks, it);
    if (res.status == CBOR_DECODER_FINISHED && res.read > 0) {
        r->pos += res.read;
        return TCO_OK;
    }
    if (res.status == CBOR_DECODER_NEDATA)
        return failf(r, TCO_E_TYPE, 0, "truncated: the item at byte %zu runs past the end of the data (%zu bytes)",
                     r->pos, r->len);
    return failf(r, TCO_E_TYPE, 0, "not well-formed CBOR at byte %zu (initial byte 0x%02x)", r->pos,
                 r->buf[r->pos]);
}

/* A map head with room for its entries (each at least two bytes). */
static int map_head(rd *r, const item *it)
{
    if (it->u > (r->len - r->pos) / 2)
        return failf(r, TCO_E_TYPE, 0, "truncated: the map at byte %zu declares %llu entries but %zu bytes follow",
                     it->at, (unsigned long long)it->u, r->len - r->pos);
    return TCO_OK;
}

/* Skips the contents of it (already read) without recursion. */
static int skip(rd *r, const item *it)
{
    uint64_t pending = 0;
    item x = *it;
    for (;;) {
        size_t left = r->len - r->pos;
        if (x.k == K_INDEF || x.k == K_BREAK)
            return -1;
        if (x.k == K_MAP || x.k == K_ARRAY || x.k == K_TAG) {
            uint64_t more = x.k == K_TAG ? 1 : x.u;
            if (more > left || (x.k == K_MAP && more > left / 2) || pending > left)
                return -1;
            pending += x.k == K_MAP ? 2 * more : more;
        }
        if (pending == 0)
            return TCO_OK;
        pending--;
        if (next(r, &x))
            return -1;
    }
}

/* The version of a scenario, read quietly after an error (0 when none is
 * found): errors then say when the file is newer than this library. */
static uint64_t scan_version(const uint8_t *buf, size_t len)
{
    rd r = { buf, len, 0, NULL, "", 0, 1, 0 };
    item it, key, v;
    if (next(&r, &it) || it.k != K_MAP || map_head(&r, &it))
        return 0;
    for (uint64_t i = 0; i < it.u; i++) {
        if (next(&r, &key) || next(&r, &v))
            return 0;
        if (key.k == K_TEXT && key.n == 7 && memcmp(key.s, "version", 7) == 0)
            return v.k == K_UINT ? v.u : 0;
        if (key.k != K_TEXT || skip(&r, &v))
            return 0;
    }
    return 0;
}

/* Copies s (n bytes) for a message: printable ASCII, the rest as '?'. */
static const char *printable(char *dst, size_t cap, const uint8_t *s, size_t n)
{
    size_t i = 0;
    for (; i < n && i + 1 < cap; i++)
        dst[i] = s[i] >= 0x20 && s[i] < 0x7f ? (char)s[i] : '?';
    dst[i] = '\0';
    return dst;
}

static int utf8_valid(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t extra;
        uint32_t cp, min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            extra = 1, cp = c & 0x1f, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            extra = 2, cp = c & 0x0f, min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            extra = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return 0;
        }
        if (extra > n - i - 1)
            return 0;
        for (size_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += extra + 1;
    }
    return 1;
}

/* The table index of a name among one handle's parameters, or -1. Keys
 * mostly come in canonical order: *hint, the place after the last key
 * found, is tried first, then bisection. */
static int find_name(int32_t kind, const uint8_t *s, size_t n, size_t *hint)
{
    const cbor_key *keys = orders[kind].keys;
    size_t count = orders[kind].count, lo = 0, hi = count;
    if (hint && *hint < count && keys[*hint].len == n &&
        memcmp(keys[*hint].enc + keys[*hint].head, s, n) == 0)
        return keys[(*hint)++].ix;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const cbor_key *k = &keys[mid];
        int c = k->len != n ? (k->len < n ? -1 : 1) : memcmp(k->enc + k->head, s, n);
        if (c == 0) {
            if (hint)
                *hint = mid + 1;
            return k->ix;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int unknown_key(rd *r, int32_t kind, const item *key)
{
    char name[TCO_ERROR_PARAM_NAME_MAX];
    printable(name, sizeof name, key->s, key->n);
    for (int32_t other = TCO_HANDLE_TOPOLOGY; other <= TCO_HANDLE_PRICING; other++) {
        int ix = other == kind ? -1 : find_name(other, key->s, key->n, NULL);
        if (ix >= 0)
            return failf(r, TCO_E_WRONG_HANDLE, tco_params[ix].key, "%s belongs to the %s, not the %s",
                         tco_params[ix].name, kind_names[other], kind_names[kind]);
    }
    int rc = failf(r, TCO_E_UNKNOWN_PARAM, 0, "unknown key \"%s\": no %s parameter has that name", name,
                   kind_names[kind]);
    if (r->err && r->err->size >= ERROR_V1_SIZE)
        memcpy(r->err->param_name, name, sizeof name);
    return rc;
}

static int read_value(rd *r, tco_obj *o, int ix)
{
    const param_row *row = &tco_params[ix];
    item it;
    int rc = next(r, &it);
    if (rc)
        return rc;
    if (row->type == TCO_TYPE_TEXT || row->type == TCO_TYPE_CHOICE) {
        int choice = row->type == TCO_TYPE_CHOICE;
        if (it.k != K_TEXT)
            return failf(r, TCO_E_TYPE, row->key, "%s is %s (%s): write it as a text string, not %s",
                         row->name, choice ? "a choice" : "a text", row->description, item_names[it.k]);
        char text[TCO_TEXT_MAX];
        if (it.n >= TCO_TEXT_MAX)
            return failf(r, TCO_E_RANGE, row->key, "%s is %zu bytes long: allowed 0 to %d", row->name,
                         it.n, TCO_TEXT_MAX - 1);
        if (it.n && memchr(it.s, '\0', it.n))
            return failf(r, TCO_E_RANGE, row->key, "%s holds a NUL byte", row->name);
        if (!utf8_valid(it.s, it.n))
            return failf(r, TCO_E_RANGE, row->key, "%s is not valid UTF-8", row->name);
        if (it.n)
            memcpy(text, it.s, it.n);
        text[it.n] = '\0';
        if (!choice) {
            memcpy(o->text[ix], text, it.n + 1);
            return TCO_OK;
        }
        double v;
        if (choice_find(row->choices, text, &v) != 0) {
            char list[200], shown[TCO_TEXT_MAX];
            return failf(r, TCO_E_RANGE, row->key, "%s = \"%s\" is not a choice: allowed %s", row->name,
                         printable(shown, sizeof shown, it.s, it.n),
                         choice_list(row->choices, list, sizeof list));
        }
        o->v[ix] = v;
        return TCO_OK;
    }
    double v;
    if (it.k == K_UINT)
        v = (double)it.u;
    else if (it.k == K_NEGINT)
        v = -1.0 - (double)it.u;
    else if (it.k == K_FLOAT)
        v = it.d;
    else if (it.k == K_BOOL && row->type == TCO_TYPE_BOOL)
        v = (double)it.u;
    else
        return failf(r, TCO_E_TYPE, row->key, "%s is a number (%s): found %s", row->name, row->description,
                     item_names[it.k]);
    tco_error detail = TCO_ERROR_INIT;
    if ((rc = param_check(row, v, &detail)) != TCO_OK)
        return failf(r, rc, row->key, "%s", detail.message);
    o->v[ix] = v;
    return TCO_OK;
}

/* A handle's map, into o (which holds the defaults). */
static int read_obj(rd *r, tco_obj *o)
{
    item it, key;
    int rc = next(r, &it);
    if (rc)
        return rc;
    if (it.k != K_MAP)
        return failf(r, TCO_E_TYPE, 0, "a %s is a map of parameter names to values, not %s (byte %zu)",
                     kind_names[o->kind], item_names[it.k], it.at);
    if ((rc = map_head(r, &it)))
        return rc;
    unsigned char seen[IX_COUNT];
    memset(seen, 0, sizeof seen);
    size_t hint = 0;
    for (uint64_t i = 0; i < it.u; i++) {
        if ((rc = next(r, &key)))
            return rc;
        if (key.k != K_TEXT)
            return failf(r, TCO_E_TYPE, 0, "the %s's keys are parameter names (text), not %s (byte %zu)",
                         kind_names[o->kind], item_names[key.k], key.at);
        int ix = find_name(o->kind, key.s, key.n, &hint);
        if (ix < 0)
            return unknown_key(r, o->kind, &key);
        if (seen[ix]++)
            return failf(r, TCO_E_INCONSISTENT, tco_params[ix].key, "%s appears twice (byte %zu): a key may appear once",
                         tco_params[ix].name, key.at);
        if ((rc = read_value(r, o, ix)))
            return rc;
    }
    return TCO_OK;
}

static int text_is(const item *it, const char *s)
{
    return it->k == K_TEXT && it->n == strlen(s) && memcmp(it->s, s, it->n) == 0;
}

static int read_scenario(rd *r, tco_obj *h[4])
{
    static const char *const sections[] = { "", "topology: ", "workload: ", "pricing: " };
    item it, key, v;
    int rc = next(r, &it);
    if (rc)
        return rc;
    if (it.k != K_MAP)
        return failf(r, TCO_E_TYPE, 0, "not a libtco scenario: a scenario is a map (format, version, topology, workload, pricing), not %s",
                     item_names[it.k]);
    if ((rc = map_head(r, &it)))
        return rc;
    int seen[6] = { 0 }; /* format, topology, workload, pricing, version */
    for (uint64_t i = 0; i < it.u; i++) {
        if ((rc = next(r, &key)))
            return rc;
        int which = text_is(&key, "format")     ? 0
                    : text_is(&key, "topology") ? TCO_HANDLE_TOPOLOGY
                    : text_is(&key, "workload") ? TCO_HANDLE_WORKLOAD
                    : text_is(&key, "pricing")  ? TCO_HANDLE_PRICING
                    : text_is(&key, "version")  ? 4
                                                : -1;
        if (which < 0) {
            if (key.k != K_TEXT)
                return failf(r, TCO_E_TYPE, 0, "the scenario's keys are text, not %s (byte %zu)",
                             item_names[key.k], key.at);
            char name[TCO_ERROR_PARAM_NAME_MAX];
            printable(name, sizeof name, key.s, key.n);
            rc = failf(r, TCO_E_UNKNOWN_PARAM, 0,
                       "unknown scenario key \"%s\": allowed format, version, topology, workload, pricing", name);
            if (r->err && r->err->size >= ERROR_V1_SIZE)
                memcpy(r->err->param_name, name, sizeof name);
            return rc;
        }
        if (seen[which]++)
            return failf(r, TCO_E_INCONSISTENT, 0, "the scenario key \"%.*s\" appears twice (byte %zu)",
                         (int)key.n, (const char *)key.s, key.at);
        if (which >= TCO_HANDLE_TOPOLOGY && which <= TCO_HANDLE_PRICING) {
            r->where = sections[which];
            rc = read_obj(r, h[which]);
            r->where = "";
            if (rc)
                return rc;
            continue;
        }
        if ((rc = next(r, &v)))
            return rc;
        if (which == 0 && !text_is(&v, FORMAT_NAME)) {
            char shown[40];
            if (v.k == K_TEXT)
                return failf(r, TCO_E_TYPE, 0, "not a libtco scenario: format is \"%s\", not \"" FORMAT_NAME "\"",
                             printable(shown, sizeof shown, v.s, v.n));
            return failf(r, TCO_E_TYPE, 0, "not a libtco scenario: format is %s, not \"" FORMAT_NAME "\"",
                         item_names[v.k]);
        }
        if (which == 4) {
            if (v.k != K_UINT)
                return failf(r, TCO_E_TYPE, 0, "version is %s: it is a whole number from 1", item_names[v.k]);
            if (v.u == 0)
                return failf(r, TCO_E_RANGE, 0, "version 0 does not exist: versions start at 1");
            r->version = v.u;
            r->version_known = 1;
        }
    }
    if (!seen[0])
        return failf(r, TCO_E_TYPE, 0, "not a libtco scenario: the map has no \"format\" key (\"" FORMAT_NAME "\")");
    if (!seen[4])
        return failf(r, TCO_E_TYPE, 0, "the scenario has no \"version\" key");
    if (r->version > TCO_FORMAT_VERSION) {
        r->scenario = 0; /* the message says it already */
        return failf(r, TCO_E_RANGE, 0, "the scenario is format version %llu: this library (%s) reads versions 1 to %d; upgrade libtco",
                     (unsigned long long)r->version, TCO_VERSION_STRING, TCO_FORMAT_VERSION);
    }
    return TCO_OK;
}

static int new_obj(tco_obj **o, int32_t kind, tco_error *err)
{
    int rc;
    if (kind == TCO_HANDLE_TOPOLOGY) {
        tco_topology *t = NULL;
        rc = tco_topology_new(&t, err);
        *o = t ? &t->o : NULL;
    } else if (kind == TCO_HANDLE_WORKLOAD) {
        tco_workload *w = NULL;
        rc = tco_workload_new(&w, err);
        *o = w ? &w->o : NULL;
    } else {
        tco_pricing *p = NULL;
        rc = tco_pricing_new(&p, err);
        *o = p ? &p->o : NULL;
    }
    return rc;
}

/* Handles are one block each (handle.c): free() is their _free. */
static void free_obj(tco_obj *o)
{
    if (o && o->kind == TCO_HANDLE_TOPOLOGY)
        tco_topology_free((tco_topology *)o);
    else if (o && o->kind == TCO_HANDLE_WORKLOAD)
        tco_workload_free((tco_workload *)o);
    else if (o)
        tco_pricing_free((tco_pricing *)o);
}

static int start(rd *r, const uint8_t *buf, size_t len, int scenario, tco_error *err)
{
    rd init = { buf, len, 0, err, "", scenario, 0, 0 };
    *r = init;
    if (!buf && len)
        return tco_fail(err, TCO_E_NULL, 0, "buf must not be NULL");
    if (len == 0)
        return tco_fail(err, TCO_E_TYPE, 0, "the data is empty: a %s is a CBOR map", scenario ? "scenario" : "handle");
    return TCO_OK;
}

static int finish(rd *r)
{
    if (r->pos != r->len)
        return failf(r, TCO_E_TYPE, 0, "%zu bytes follow the end of the map at byte %zu", r->len - r->pos, r->pos);
    return TCO_OK;
}

static int load_obj(tco_obj **out, int32_t kind, const uint8_t *buf, size_t len, tco_error *err)
{
    rd r;
    tco_obj *o = NULL;
    int rc = start(&r, buf, len, 0, err);
    if (rc == TCO_OK)
        rc = new_obj(&o, kind, err);
    if (rc == TCO_OK && (rc = read_obj(&r, o)) == TCO_OK)
        rc = finish(&r);
    if (rc != TCO_OK) {
        free_obj(o);
        return rc;
    }
    *out = o;
    return TCO_OK;
}

#define LOAD_API(type, KIND)                                                                  \
    int tco_##type##_load_cbor(tco_##type **out, const uint8_t *buf, size_t len, tco_error *err) \
    {                                                                                         \
        tco_obj *o;                                                                           \
        if (!out)                                                                             \
            return tco_fail(err, TCO_E_NULL, 0, "out must not be NULL");                     \
        int rc = load_obj(&o, TCO_HANDLE_##KIND, buf, len, err);                              \
        if (rc == TCO_OK)                                                                     \
            *out = (tco_##type *)o;                                                           \
        return rc;                                                                            \
    }

LOAD_API(topology, TOPOLOGY)
LOAD_API(workload, WORKLOAD)
LOAD_API(pricing, PRICING)

int tco_scenario_load_cbor(tco_topology **t, tco_workload **w, tco_pricing **p, const uint8_t *buf,
                           size_t len, tco_error *err)
{
    if (!t || !w || !p)
        return tco_fail(err, TCO_E_NULL, 0, "%s must not be NULL", !t ? "t" : !w ? "w" : "p");
    rd r;
    tco_obj *h[4] = { NULL, NULL, NULL, NULL };
    int rc = start(&r, buf, len, 1, err);
    for (int32_t k = TCO_HANDLE_TOPOLOGY; rc == TCO_OK && k <= TCO_HANDLE_PRICING; k++)
        rc = new_obj(&h[k], k, err);
    if (rc == TCO_OK && (rc = read_scenario(&r, h)) == TCO_OK)
        rc = finish(&r);
    if (rc != TCO_OK) {
        for (int k = TCO_HANDLE_TOPOLOGY; k <= TCO_HANDLE_PRICING; k++)
            free_obj(h[k]);
        return rc;
    }
    *t = (tco_topology *)h[TCO_HANDLE_TOPOLOGY];
    *w = (tco_workload *)h[TCO_HANDLE_WORKLOAD];
    *p = (tco_pricing *)h[TCO_HANDLE_PRICING];
    return TCO_OK;
}
