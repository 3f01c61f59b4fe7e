/* Scenario files in (doc/format.md): libcbor's streaming decoder, one item
 * at a time, straight into a new handle. No tree is built, nothing is
 * allocated but the handles, a huge declared length costs nothing, and the
 * parser never recurses (the deepest valid file is two maps deep; any
 * other container where a value belongs is refused without being entered).
 * Keys may come in any order and numbers in any width; everything else is
 * checked as the setters check it, and the error names the key. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cbor.h>

#include "core/encode.h"

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
    int32_t section;    /* the handle kind whose section is being read, or 0 */
    int scenario;       /* reading a scenario: errors mention a newer version */
    int version_known;
    uint64_t version;
} rd;

static uint64_t scan_version(const uint8_t *buf, size_t len);

/* Fills err: the message prefixed with the section, and followed by the
 * file's version when it is newer than this library reads. It names the
 * parameter of table index ix, or (ix < 0) `name` when given. */
static int failf(rd *r, int code, int ix, const char *name, const char *fmt, ...) TCO__PRINTF(5, 6);

static int failf(rd *r, int code, int ix, const char *name, const char *fmt, ...)
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
    char where[32] = "";
    if (r->section)
        snprintf(where, sizeof where, "%s: ", tco_handle_kind_name(r->section));
    char newer[96] = "";
    if (r->scenario && r->version > TCO_FORMAT_VERSION)
        snprintf(newer, sizeof newer, " (the file is format version %llu; this library reads 1 to %d)",
                 (unsigned long long)r->version, TCO_FORMAT_VERSION);
    if (ix >= 0)
        return tco__fail_param(r->err, code, ix, "%s%s%s", where, msg, newer);
    return tco__fail_named(r->err, code, name ? name : "", "%s%s%s", where, msg, newer);
}

/* Decodes the next item head. */
static int next(rd *r, item *it)
{
    it->at = r->pos;
    if (r->pos >= r->len)
        return failf(r, TCO_E_TYPE, -1, NULL, "truncated: the data ends at byte %zu, where an item should begin",
                     r->pos);
    struct cbor_decoder_result res = cbor_stream_decode(r->buf + r->pos, r->len - r->pos, &callbacks, it);
    if (res.status == CBOR_DECODER_FINISHED && res.read > 0) {
        r->pos += res.read;
        return TCO_OK;
    }
    if (res.status == CBOR_DECODER_NEDATA)
        return failf(r, TCO_E_TYPE, -1, NULL, "truncated: the item at byte %zu runs past the end of the data (%zu bytes)",
                     r->pos, r->len);
    return failf(r, TCO_E_TYPE, -1, NULL, "not well-formed CBOR at byte %zu (initial byte 0x%02x)", r->pos,
                 r->buf[r->pos]);
}

/* A map head with room for its entries (each at least two bytes). */
static int map_head(rd *r, const item *it)
{
    if (it->u > (r->len - r->pos) / 2)
        return failf(r, TCO_E_TYPE, -1, NULL, "truncated: the map at byte %zu declares %llu entries but %zu byte%s",
                     it->at, (unsigned long long)it->u, r->len - r->pos, tco__bytes_follow(r->len - r->pos));
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
    rd r = { buf, len, 0, NULL, 0, 0, 1, 0 };
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

/* The table index of a name among one handle's parameters, or -1. Keys
 * mostly come in canonical order: *hint, the place after the last key
 * found, is tried first, then bisection. */
static int find_name(int32_t kind, const uint8_t *s, size_t n, size_t *hint)
{
    const cbor_key *keys = tco__cbor_orders[kind].keys;
    size_t count = tco__cbor_orders[kind].count, lo = 0, hi = count;
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
            return failf(r, TCO_E_WRONG_HANDLE, ix, NULL, "%s belongs to the %s, not the %s",
                         tco__params[ix].name, tco_handle_kind_name(other), tco_handle_kind_name(kind));
    }
    return failf(r, TCO_E_UNKNOWN_PARAM, -1, name, "unknown key \"%s\": no %s parameter has that name", name,
                 tco_handle_kind_name(kind));
}

static int read_value(rd *r, tco_obj *o, int ix)
{
    const param_row *row = &tco__params[ix];
    item it;
    int rc = next(r, &it);
    if (rc)
        return rc;
    if (row->type == TCO_TYPE_TEXT || row->type == TCO_TYPE_CHOICE) {
        int choice = row->type == TCO_TYPE_CHOICE;
        if (it.k != K_TEXT)
            return failf(r, TCO_E_TYPE, ix, NULL, "%s is %s (%s): write it as a text string, not %s",
                         row->name, choice ? "a choice" : "a text", row->description, item_names[it.k]);
        char text[TCO_TEXT_MAX];
        if (it.n >= TCO_TEXT_MAX)
            return failf(r, TCO_E_RANGE, ix, NULL, "%s is %zu bytes long: allowed 0 to %d", row->name,
                         it.n, TCO_TEXT_MAX - 1);
        if (it.n && memchr(it.s, '\0', it.n))
            return failf(r, TCO_E_RANGE, ix, NULL, "%s holds a NUL byte", row->name);
        if (tco__utf8_invalid_at(it.s, it.n) < it.n)
            return failf(r, TCO_E_RANGE, ix, NULL, "%s is not valid UTF-8", row->name);
        for (size_t i = 0; i < it.n; i++) /* as the setter has it */
            if (it.s[i] < 0x20 || it.s[i] == 0x7f)
                return failf(r, TCO_E_RANGE, ix, NULL, "%s holds a control character (byte %zu)", row->name, i);
        if (it.n)
            memcpy(text, it.s, it.n);
        text[it.n] = '\0';
        if (!choice) {
            memcpy(o->text[ix], text, it.n + 1);
            return TCO_OK;
        }
        double v;
        if (tco__choice_find(row->choices, text, &v) != 0) {
            char list[200], shown[TCO_TEXT_MAX];
            return failf(r, TCO_E_RANGE, ix, NULL, "%s = \"%s\" is not a choice: allowed %s", row->name,
                         printable(shown, sizeof shown, it.s, it.n),
                         tco__choice_list(row->choices, list, sizeof list));
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
        return failf(r, TCO_E_TYPE, ix, NULL, "%s is a number (%s): found %s", row->name, row->description,
                     item_names[it.k]);
    tco_error detail = TCO_ERROR_INIT;
    if ((rc = tco__param_check(row, v, &detail)) != TCO_OK)
        return failf(r, rc, ix, NULL, "%s", detail.message);
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
        return failf(r, TCO_E_TYPE, -1, NULL, "a %s is a map of parameter names to values, not %s (byte %zu)",
                     tco_handle_kind_name(o->kind), item_names[it.k], it.at);
    if ((rc = map_head(r, &it)))
        return rc;
    unsigned char seen[IX_COUNT];
    memset(seen, 0, sizeof seen);
    size_t hint = 0;
    for (uint64_t i = 0; i < it.u; i++) {
        if ((rc = next(r, &key)))
            return rc;
        if (key.k != K_TEXT)
            return failf(r, TCO_E_TYPE, -1, NULL, "the %s's keys are parameter names (text), not %s (byte %zu)",
                         tco_handle_kind_name(o->kind), item_names[key.k], key.at);
        int ix = find_name(o->kind, key.s, key.n, &hint);
        if (ix < 0)
            return unknown_key(r, o->kind, &key);
        if (seen[ix]++)
            return failf(r, TCO_E_INCONSISTENT, ix, NULL, "%s appears twice (byte %zu): a key may appear once",
                         tco__params[ix].name, key.at);
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
    item it, key, v;
    int rc = next(r, &it);
    if (rc)
        return rc;
    if (it.k != K_MAP)
        return failf(r, TCO_E_TYPE, -1, NULL, "not a libtco scenario: a scenario is a map (format, version, topology, workload, pricing), not %s",
                     item_names[it.k]);
    if ((rc = map_head(r, &it)))
        return rc;
    int seen[6] = { 0 }; /* format, topology, workload, pricing, version */
    for (uint64_t i = 0; i < it.u; i++) {
        if ((rc = next(r, &key)))
            return rc;
        int which = text_is(&key, "format") ? 0 : text_is(&key, "version") ? 4 : -1;
        for (int32_t k = TCO_HANDLE_TOPOLOGY; which < 0 && k <= TCO_HANDLE_PRICING; k++)
            if (text_is(&key, tco_handle_kind_name(k)))
                which = k;
        if (which < 0) {
            if (key.k != K_TEXT)
                return failf(r, TCO_E_TYPE, -1, NULL, "the scenario's keys are text, not %s (byte %zu)",
                             item_names[key.k], key.at);
            char name[TCO_ERROR_PARAM_NAME_MAX];
            printable(name, sizeof name, key.s, key.n);
            return failf(r, TCO_E_UNKNOWN_PARAM, -1, name,
                         "unknown scenario key \"%s\": allowed format, version, topology, workload, pricing", name);
        }
        if (seen[which]++)
            return failf(r, TCO_E_INCONSISTENT, -1, NULL, "the scenario key \"%.*s\" appears twice (byte %zu)",
                         (int)key.n, (const char *)key.s, key.at);
        if (which >= TCO_HANDLE_TOPOLOGY && which <= TCO_HANDLE_PRICING) {
            r->section = which;
            rc = read_obj(r, h[which]);
            r->section = 0;
            if (rc)
                return rc;
            continue;
        }
        if ((rc = next(r, &v)))
            return rc;
        if (which == 0 && !text_is(&v, FORMAT_NAME)) {
            char shown[40];
            if (v.k == K_TEXT)
                return failf(r, TCO_E_TYPE, -1, NULL, "not a libtco scenario: format is \"%s\", not \"" FORMAT_NAME "\"",
                             printable(shown, sizeof shown, v.s, v.n));
            return failf(r, TCO_E_TYPE, -1, NULL, "not a libtco scenario: format is %s, not \"" FORMAT_NAME "\"",
                         item_names[v.k]);
        }
        if (which == 4) {
            if (v.k != K_UINT)
                return failf(r, TCO_E_TYPE, -1, NULL, "version is %s: it is a whole number from 1", item_names[v.k]);
            if (v.u == 0)
                return failf(r, TCO_E_RANGE, -1, NULL, "version 0 does not exist: versions start at 1");
            r->version = v.u;
            r->version_known = 1;
        }
    }
    if (!seen[0])
        return failf(r, TCO_E_TYPE, -1, NULL, "not a libtco scenario: the map has no \"format\" key (\"" FORMAT_NAME "\")");
    if (!seen[4])
        return failf(r, TCO_E_TYPE, -1, NULL, "the scenario has no \"version\" key");
    if (r->version > TCO_FORMAT_VERSION) {
        r->scenario = 0; /* the message says it already */
        return failf(r, TCO_E_RANGE, -1, NULL, "the scenario is format version %llu: this library (%s) reads versions 1 to %d; upgrade libtco",
                     (unsigned long long)r->version, TCO_VERSION_STRING, TCO_FORMAT_VERSION);
    }
    return TCO_OK;
}

static int start(rd *r, const uint8_t *buf, size_t len, int scenario, tco_error *err)
{
    rd init = { buf, len, 0, err, 0, scenario, 0, 0 };
    *r = init;
    if (!buf && len)
        return tco__fail(err, TCO_E_NULL, "buf must not be NULL");
    if (len == 0)
        return tco__fail(err, TCO_E_TYPE, "the data is empty: a %s is a CBOR map", scenario ? "scenario" : "handle");
    return TCO_OK;
}

static int finish(rd *r)
{
    if (r->pos != r->len)
        return failf(r, TCO_E_TYPE, -1, NULL, "%zu byte%s the end of the map at byte %zu", r->len - r->pos,
                     tco__bytes_follow(r->len - r->pos), r->pos);
    return TCO_OK;
}

static int load_obj(tco_obj **out, int32_t kind, const uint8_t *buf, size_t len, tco_error *err)
{
    rd r;
    tco_obj *o = NULL;
    int rc = start(&r, buf, len, 0, err);
    if (rc == TCO_OK)
        rc = (o = tco__obj_new(kind, err)) ? TCO_OK : TCO_E_NOMEM;
    if (rc == TCO_OK && (rc = read_obj(&r, o)) == TCO_OK)
        rc = finish(&r);
    if (rc != TCO_OK) {
        free(o); /* a handle is one block: free() is its _free */
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
            return tco__fail(err, TCO_E_NULL, "out must not be NULL");                     \
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
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !t ? "t" : !w ? "w" : "p");
    rd r;
    tco_obj *h[4] = { NULL, NULL, NULL, NULL };
    int rc = start(&r, buf, len, 1, err);
    for (int32_t k = TCO_HANDLE_TOPOLOGY; rc == TCO_OK && k <= TCO_HANDLE_PRICING; k++)
        rc = (h[k] = tco__obj_new(k, err)) ? TCO_OK : TCO_E_NOMEM;
    if (rc == TCO_OK && (rc = read_scenario(&r, h)) == TCO_OK)
        rc = finish(&r);
    if (rc != TCO_OK) {
        for (int k = TCO_HANDLE_TOPOLOGY; k <= TCO_HANDLE_PRICING; k++)
            free(h[k]);
        return rc;
    }
    *t = (tco_topology *)h[TCO_HANDLE_TOPOLOGY];
    *w = (tco_workload *)h[TCO_HANDLE_WORKLOAD];
    *p = (tco_pricing *)h[TCO_HANDLE_PRICING];
    return TCO_OK;
}
