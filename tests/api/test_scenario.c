/* Scenario files and identity: canonical CBOR out, checked CBOR in,
 * fingerprints and the field table, through the public API.
 *
 * The canonical form is checked by a decoder written here, independent of
 * the library and of libcbor; hostile input is built byte by byte. Every
 * rejected load must return an error with a message, leave *out alone and
 * free what it allocated (the sanitizer and valgrind runs see leaks). */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <tco.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* memmem, which C99 lacks. */
static const void *find(const void *hay, size_t n, const void *needle, size_t m)
{
    const uint8_t *h = hay;
    for (size_t i = 0; m <= n && i <= n - m; i++)
        if (memcmp(h + i, needle, m) == 0)
            return h + i;
    return NULL;
}

/* ==== a small CBOR writer for building input by hand ===================== */

typedef struct cb {
    uint8_t b[65536];
    size_t n;
} cb;

static void cb_byte(cb *c, uint8_t x)
{
    assert_true(c->n < sizeof c->b);
    c->b[c->n++] = x;
}

static void cb_bytes(cb *c, const void *p, size_t n)
{
    assert_true(n <= sizeof c->b - c->n);
    memcpy(c->b + c->n, p, n);
    c->n += n;
}

/* A head with the argument in `width` bytes (0: shortest). */
static void cb_head_w(cb *c, int major, uint64_t v, int width)
{
    if (width == 0)
        width = v < 24 ? -1 : v <= 0xff ? 1 : v <= 0xffff ? 2 : v <= 0xffffffffu ? 4 : 8;
    if (width < 0) {
        cb_byte(c, (uint8_t)(major << 5 | v));
        return;
    }
    cb_byte(c, (uint8_t)(major << 5 | (width == 1 ? 24 : width == 2 ? 25 : width == 4 ? 26 : 27)));
    for (int i = width - 1; i >= 0; i--)
        cb_byte(c, (uint8_t)(v >> (8 * i)));
}

static void cb_head(cb *c, int major, uint64_t v) { cb_head_w(c, major, v, 0); }
static void cb_map(cb *c, uint64_t n) { cb_head(c, 5, n); }
static void cb_uint(cb *c, uint64_t v) { cb_head(c, 0, v); }

static void cb_text(cb *c, const char *s)
{
    cb_head(c, 3, strlen(s));
    cb_bytes(c, s, strlen(s));
}

static void cb_f64(cb *c, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    cb_head_w(c, 7, u, 8);
}

static void cb_f32(cb *c, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    cb_head_w(c, 7, u, 4);
}

static void cb_f16(cb *c, uint16_t bits) { cb_head_w(c, 7, bits, 2); }

/* ==== an independent checker of the canonical form ======================= */

static double half_value(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

/* Whether some binary16 holds d exactly (by brute force over all 65536). */
static int is_half(double d)
{
    for (uint32_t h = 0; h < 0x10000; h++) {
        double v = half_value((uint16_t)h);
        if (v == d && signbit(v) == signbit(d))
            return 1;
    }
    return 0;
}

typedef struct canon {
    const uint8_t *p;
    size_t n, pos;
    char why[200];
} canon;

static int bad(canon *k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->why, sizeof k->why, fmt, ap);
    va_end(ap);
    return -1;
}

/* Checks the item at k->pos and everything in it; on success k->pos is
 * past it. If out is given, a float item's value lands there. */
static int canon_item(canon *k, double *out)
{
    if (k->pos >= k->n)
        return bad(k, "truncated at %zu", k->pos);
    size_t at = k->pos;
    uint8_t ib = k->p[k->pos++];
    int major = ib >> 5, ai = ib & 31;
    uint64_t arg = 0;
    if (ai < 24) {
        arg = (uint64_t)ai;
    } else if (ai <= 27) {
        size_t w = (size_t)1 << (ai - 24);
        if (w > k->n - k->pos)
            return bad(k, "truncated head at %zu", at);
        for (size_t i = 0; i < w; i++)
            arg = arg << 8 | k->p[k->pos++];
        static const uint64_t least[] = { 24, 0x100, 0x10000, 0x100000000ULL };
        if (major != 7 && arg < least[ai - 24])
            return bad(k, "argument %llu at byte %zu is not in its shortest form", (unsigned long long)arg, at);
    } else {
        return bad(k, "indefinite length or reserved head 0x%02x at byte %zu", ib, at);
    }
    switch (major) {
    case 0:
    case 1:
        return 0;
    case 2:
    case 3:
        if (arg > k->n - k->pos)
            return bad(k, "string at %zu runs past the end", at);
        k->pos += arg;
        return 0;
    case 4:
        for (uint64_t i = 0; i < arg; i++)
            if (canon_item(k, NULL))
                return -1;
        return 0;
    case 5: {
        size_t prev = 0, prev_len = 0;
        for (uint64_t i = 0; i < arg; i++) {
            size_t key = k->pos;
            if (canon_item(k, NULL))
                return -1;
            size_t len = k->pos - key;
            if (i > 0) {
                size_t m = len < prev_len ? len : prev_len;
                int c = memcmp(k->p + prev, k->p + key, m);
                if (c > 0 || (c == 0 && prev_len >= len))
                    return bad(k, "map key at byte %zu is not after the one at %zu", key, prev);
            }
            prev = key;
            prev_len = len;
            if (canon_item(k, NULL))
                return -1;
        }
        return 0;
    }
    case 6:
        return bad(k, "tag at byte %zu", at);
    default: {
        double d;
        if (ai == 25) {
            d = half_value((uint16_t)arg);
        } else if (ai == 26) {
            uint32_t u = (uint32_t)arg;
            float f;
            memcpy(&f, &u, sizeof f);
            d = f;
            if (isnan(d) || is_half(d))
                return bad(k, "float32 %g at byte %zu fits a binary16", d, at);
        } else if (ai == 27) {
            memcpy(&d, &arg, sizeof d);
            if (isnan(d) || (fabs(d) <= FLT_MAX && (double)(float)d == d))
                return bad(k, "float64 %g at byte %zu fits a binary32", d, at);
        } else if (ai >= 20 && ai <= 23) {
            return 0; /* false, true, null, undefined */
        } else {
            return bad(k, "simple value %d at byte %zu", ai, at);
        }
        if (isnan(d) && !(ai == 25 && arg == 0x7e00))
            return bad(k, "NaN at byte %zu is not 0xf97e00", at);
        if (out)
            *out = d;
        return 0;
    }
    }
}

static void assert_canonical(const uint8_t *p, size_t n)
{
    canon k = { p, n, 0, "" };
    int rc = canon_item(&k, NULL);
    if (rc == 0 && k.pos != n)
        rc = bad(&k, "%zu bytes after the item", n - k.pos);
    if (rc != 0) {
        print_error("not canonical: %s\n", k.why);
        fail();
    }
}

/* ==== helpers ============================================================ */

typedef struct scen {
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
} scen;

static void scen_new(scen *s)
{
    assert_int_equal(tco_topology_new(&s->t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&s->w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&s->p, NULL), TCO_OK);
}

static void scen_free(scen *s)
{
    tco_topology_free(s->t);
    tco_workload_free(s->w);
    tco_pricing_free(s->p);
    memset(s, 0, sizeof *s);
}

static void scen_freeze(scen *s)
{
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_topology_freeze(s->t, &err);
    if (rc == TCO_OK)
        rc = tco_workload_freeze(s->w, &err);
    if (rc == TCO_OK)
        rc = tco_pricing_freeze(s->p, &err);
    if (rc)
        print_error("freeze: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
}

static size_t save_scen(uint8_t *buf, size_t cap, const scen *s)
{
    size_t len = 0;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_scenario_save_cbor(buf, cap, &len, s->t, s->w, s->p, &err);
    if (rc)
        print_error("save: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    return len;
}

static tco_estimate estimate_of(const scen *s)
{
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_estimate_compute(&e, s->t, s->w, s->p, &err);
    if (rc)
        print_error("estimate: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    return e;
}

/* A scenario map: format, version, and the given sections (raw bytes). */
static void cb_scenario_head(cb *c, uint64_t extra_entries, uint64_t version)
{
    cb_map(c, 2 + extra_entries);
    cb_text(c, "format");
    cb_text(c, "libtco-scenario");
    cb_text(c, "version");
    cb_uint(c, version);
}

typedef struct outcome {
    int rc;
    tco_error err;
} outcome;

#define SENTINEL ((void *)0x5a5a)

/* Loads c as kind (0: scenario); on failure checks *out was left alone and
 * the detail is filled. Frees anything loaded. */
static outcome try_load(int kind, const uint8_t *p, size_t n)
{
    outcome o;
    tco_error init = TCO_ERROR_INIT;
    o.err = init;
    if (kind == TCO_HANDLE_TOPOLOGY) {
        tco_topology *t = SENTINEL;
        o.rc = tco_topology_load_cbor(&t, p, n, &o.err);
        if (o.rc == TCO_OK)
            tco_topology_free(t);
        else
            assert_ptr_equal(t, SENTINEL);
    } else if (kind == TCO_HANDLE_WORKLOAD) {
        tco_workload *w = SENTINEL;
        o.rc = tco_workload_load_cbor(&w, p, n, &o.err);
        if (o.rc == TCO_OK)
            tco_workload_free(w);
        else
            assert_ptr_equal(w, SENTINEL);
    } else if (kind == TCO_HANDLE_PRICING) {
        tco_pricing *pr = SENTINEL;
        o.rc = tco_pricing_load_cbor(&pr, p, n, &o.err);
        if (o.rc == TCO_OK)
            tco_pricing_free(pr);
        else
            assert_ptr_equal(pr, SENTINEL);
    } else {
        tco_topology *t = SENTINEL;
        tco_workload *w = SENTINEL;
        tco_pricing *pr = SENTINEL;
        o.rc = tco_scenario_load_cbor(&t, &w, &pr, p, n, &o.err);
        if (o.rc == TCO_OK) {
            tco_topology_free(t);
            tco_workload_free(w);
            tco_pricing_free(pr);
        } else {
            assert_ptr_equal(t, SENTINEL);
            assert_ptr_equal(w, SENTINEL);
            assert_ptr_equal(pr, SENTINEL);
        }
    }
    if (o.rc != TCO_OK) {
        assert_int_equal(o.err.code, o.rc);
        assert_true(o.err.message[0] != '\0');
        assert_non_null(memchr(o.err.message, '\0', sizeof o.err.message));
        assert_non_null(memchr(o.err.param_name, '\0', sizeof o.err.param_name));
    }
    return o;
}

/* Expects a failure with code, and message containing want (if given). */
#define expect_error(kind, c, code, want) expect_error_at((kind), (c)->b, (c)->n, (code), (want), __LINE__)

static outcome expect_error_at(int kind, const uint8_t *p, size_t n, int code, const char *want, int line)
{
    outcome o = try_load(kind, p, n);
    if (o.rc != code || (want && !strstr(o.err.message, want))) {
        print_error("line %d: got %s \"%s\", expected %s with \"%s\"\n", line, tco_status_name(o.rc),
                    o.err.message, tco_status_name(code), want ? want : "");
        fail();
    }
    return o;
}

/* ==== round trips and the canonical form ================================= */

static void test_default_round_trip(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    static uint8_t a[16384], b[16384];
    size_t na = save_scen(a, sizeof a, &s);
    assert_canonical(a, na);

    scen l;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_scenario_load_cbor(&l.t, &l.w, &l.p, a, na, &err), TCO_OK);
    assert_false(tco_topology_is_frozen(l.t));
    size_t nb = save_scen(b, sizeof b, &l);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);

    /* Every parameter is in the file, with its value. */
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        assert_int_equal(tco_param_info_at(&in, i, NULL), TCO_OK);
        assert_non_null(find(a, na, in.name, strlen(in.name)));
    }
    scen_free(&s);
    scen_free(&l);
}

/* Each handle alone: load(save(h)) saves to the same bytes, and a value
 * set on every parameter survives. */
static void test_handles_round_trip(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    /* Move every number off its default (to its upper bound, or the middle). */
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        assert_int_equal(tco_param_info_at(&in, i, NULL), TCO_OK);
        if (in.type == TCO_TYPE_REAL || in.type == TCO_TYPE_INT) {
            double v = in.type == TCO_TYPE_INT ? in.min_value + floor((in.max_value - in.min_value) / 3)
                                               : in.min_value + (in.max_value - in.min_value) / 3;
            int rc = in.handle == TCO_HANDLE_TOPOLOGY   ? tco_topology_set(s.t, in.key, v, NULL)
                     : in.handle == TCO_HANDLE_WORKLOAD ? tco_workload_set(s.w, in.key, v, NULL)
                                                        : tco_pricing_set(s.p, in.key, v, NULL);
            assert_int_equal(rc, TCO_OK);
        }
    }
    assert_int_equal(tco_pricing_set_text(s.p, TCO_P_CURRENCY, "EUR", NULL), TCO_OK);
    assert_int_equal(tco_pricing_set_text(s.p, TCO_P_PRICE_SOURCE, "caf\xc3\xa9 \"quote\" \\ \xe2\x82\xac", NULL), TCO_OK);
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_COOLING, "liquid", NULL), TCO_OK);

    static uint8_t a[8192], b[8192];
    size_t na, nb;
    tco_error err = TCO_ERROR_INIT;

    tco_topology *t2;
    assert_int_equal(tco_topology_save_cbor(a, sizeof a, &na, s.t, &err), TCO_OK);
    assert_canonical(a, na);
    assert_int_equal(tco_topology_load_cbor(&t2, a, na, &err), TCO_OK);
    assert_int_equal(tco_topology_save_cbor(b, sizeof b, &nb, t2, &err), TCO_OK);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    const char *text;
    assert_int_equal(tco_topology_get_text(t2, TCO_P_COOLING, &text, NULL), TCO_OK);
    assert_string_equal(text, "liquid");
    tco_topology_free(t2);

    tco_workload *w2;
    assert_int_equal(tco_workload_save_cbor(a, sizeof a, &na, s.w, &err), TCO_OK);
    assert_canonical(a, na);
    assert_int_equal(tco_workload_load_cbor(&w2, a, na, &err), TCO_OK);
    assert_int_equal(tco_workload_save_cbor(b, sizeof b, &nb, w2, &err), TCO_OK);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        tco_param_info_at(&in, i, NULL);
        double x, y;
        if (in.handle == TCO_HANDLE_WORKLOAD && in.type != TCO_TYPE_TEXT) {
            assert_int_equal(tco_workload_get(s.w, in.key, &x, NULL), TCO_OK);
            assert_int_equal(tco_workload_get(w2, in.key, &y, NULL), TCO_OK);
            assert_true(memcmp(&x, &y, sizeof x) == 0); /* bit for bit */
        }
    }
    tco_workload_free(w2);

    tco_pricing *p2;
    assert_int_equal(tco_pricing_save_cbor(a, sizeof a, &na, s.p, &err), TCO_OK);
    assert_canonical(a, na);
    assert_int_equal(tco_pricing_load_cbor(&p2, a, na, &err), TCO_OK);
    assert_int_equal(tco_pricing_save_cbor(b, sizeof b, &nb, p2, &err), TCO_OK);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    assert_int_equal(tco_pricing_get_text(p2, TCO_P_PRICE_SOURCE, &text, NULL), TCO_OK);
    assert_string_equal(text, "caf\xc3\xa9 \"quote\" \\ \xe2\x82\xac");
    tco_pricing_free(p2);
    scen_free(&s);
}

/* The header's buffer contract: NULL sizes, short writes nothing, exact fits. */
static void test_save_buffer_contract(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    size_t need = 0, len = 0;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_scenario_save_cbor(NULL, 0, &need, s.t, s.w, s.p, &err), TCO_OK);
    assert_true(need > 1000);

    uint8_t *buf = malloc(need + 16);
    assert_non_null(buf);
    memset(buf, 0xee, need + 16);
    assert_int_equal(tco_scenario_save_cbor(buf, need - 1, &len, s.t, s.w, s.p, &err), TCO_E_SIZE);
    assert_int_equal(err.code, TCO_E_SIZE);
    assert_int_equal(len, need);
    for (size_t i = 0; i < need + 16; i++)
        assert_int_equal(buf[i], 0xee); /* nothing written */
    len = 0;
    assert_int_equal(tco_scenario_save_cbor(buf, need, &len, s.t, s.w, s.p, &err), TCO_OK);
    assert_int_equal(len, need);
    assert_int_equal(buf[need], 0xee);
    assert_canonical(buf, len);

    /* The same through each handle, and the estimate. */
    assert_int_equal(tco_topology_save_cbor(NULL, 0, &need, s.t, &err), TCO_OK);
    assert_int_equal(tco_topology_save_cbor(buf, need - 1, &len, s.t, &err), TCO_E_SIZE);
    assert_int_equal(tco_topology_save_cbor(buf, need, &len, s.t, &err), TCO_OK);
    assert_int_equal(len, need);

    scen_freeze(&s);
    tco_estimate e = estimate_of(&s);
    assert_int_equal(tco_estimate_save_cbor(NULL, 0, &need, &e, &err), TCO_OK);
    memset(buf, 0xee, 16);
    assert_int_equal(tco_estimate_save_cbor(buf, 16, &len, &e, &err), TCO_E_SIZE);
    assert_int_equal(buf[0], 0xee);
    free(buf);

    /* NULL arguments. */
    assert_int_equal(tco_scenario_save_cbor(NULL, 0, NULL, s.t, s.w, s.p, &err), TCO_E_NULL);
    assert_int_equal(tco_scenario_save_cbor(NULL, 0, &len, s.t, NULL, s.p, &err), TCO_E_NULL);
    assert_int_equal(tco_topology_save_cbor(NULL, 0, &len, NULL, &err), TCO_E_NULL);
    assert_int_equal(tco_estimate_save_cbor(NULL, 0, &len, NULL, &err), TCO_E_NULL);
    tco_estimate small;
    memset(&small, 0, sizeof small);
    small.size = 8;
    assert_int_equal(tco_estimate_save_cbor(NULL, 0, &len, &small, &err), TCO_E_SIZE);
    scen_free(&s);
}

/* Floats in the shortest width that holds them exactly, through a result
 * (no bounds on its fields), read back bit for bit. */
static void test_float_widths(void **state)
{
    (void)state;
    static const double values[] = {
        0.0, -0.0, 1.0, 1.5, -2.0, 65504.0, 65505.0, 0x1p-14, 0x1p-24, 3 * 0x1p-24, 0x1p-25,
        1000000.5, 0.1, 1.0 / 3, 1e300, -1e-300, FLT_MAX, (double)FLT_MIN / 4, 16777217.0,
        0x1.ffcp15, 4.9e-324, INFINITY, -INFINITY,
    };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        tco_estimate e;
        memset(&e, 0, sizeof e);
        e.size = sizeof e;
        e.wall_hours = values[i];
        e.cost[3] = -values[i];
        uint8_t buf[4096];
        size_t len;
        assert_int_equal(tco_estimate_save_cbor(buf, sizeof buf, &len, &e, NULL), TCO_OK);
        assert_canonical(buf, len);
        /* Find "wall_hours" and decode the float after it. */
        const uint8_t *key = find(buf, len, "\x6awall_hours", 11);
        assert_non_null(key);
        canon k = { buf, len, (size_t)(key + 11 - buf), "" };
        double got = NAN;
        assert_int_equal(canon_item(&k, &got), 0);
        assert_true(memcmp(&got, &values[i], sizeof got) == 0);
    }
    /* NaN is 0xf97e00. */
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    e.goodput = NAN;
    uint8_t buf[4096];
    size_t len;
    assert_int_equal(tco_estimate_save_cbor(buf, sizeof buf, &len, &e, NULL), TCO_OK);
    assert_non_null(find(buf, len, "\x67goodput\xf9\x7e\x00", 11));
    assert_canonical(buf, len);
}

/* A REAL parameter of 1.5 is a binary16 in the file; 1000000.5 a binary32. */
static void test_real_encoding_bytes(void **state)
{
    (void)state;
    tco_topology *t;
    uint8_t buf[4096];
    size_t len;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_PUE, 1.5, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_STORAGE_HOT_TB, 1000000.5, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_ACCELERATORS, 4096, NULL), TCO_OK);
    assert_int_equal(tco_topology_save_cbor(buf, sizeof buf, &len, t, NULL), TCO_OK);
    assert_non_null(find(buf, len, "\x63pue\xf9\x3e\x00", 7));
    assert_int_equal(tco_topology_set(t, TCO_P_OWNED_SHARE, -0.0, NULL), TCO_OK);
    assert_int_equal(tco_topology_save_cbor(buf, sizeof buf, &len, t, NULL), TCO_OK);
    assert_non_null(find(buf, len, "\x6bowned_share\xf9\x00\x00", 15)); /* -0 is written as 0 */
    assert_non_null(find(buf, len, "\x6estorage_hot_tb\xfa\x49\x74\x24\x08", 20));
    assert_non_null(find(buf, len, "\x6c" "accelerators\x19\x10\x00", 16)); /* INT: an integer */
    tco_topology_free(t);
}

/* What the loader accepts beyond the canonical form: any key order, any
 * integer or float width, integers for REAL, whole floats for INT, booleans
 * for BOOL; missing keys keep their defaults. */
static void test_lenient_input(void **state)
{
    (void)state;
    cb c = { .n = 0 };
    cb_map(&c, 6);
    cb_text(&c, "tokens");
    cb_uint(&c, 15000000000000ULL); /* integer for a REAL */
    cb_text(&c, "mfu");
    cb_f64(&c, 0.5); /* float64 for something a half holds */
    cb_text(&c, "layers");
    cb_f32(&c, 96.0f); /* whole float for an INT */
    cb_text(&c, "checkpoint_async");
    cb_byte(&c, 0xf5); /* true for a BOOL */
    cb_text(&c, "seq_len");
    cb_head_w(&c, 0, 8192, 8); /* integer in 8 bytes */
    cb_text(&c, "precision");
    cb_text(&c, "fp8");
    tco_workload *w;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_workload_load_cbor(&w, c.b, c.n, &err), TCO_OK);
    double v;
    tco_workload_get(w, TCO_P_TOKENS, &v, NULL);
    assert_true(v == 15e12);
    tco_workload_get(w, TCO_P_MFU, &v, NULL);
    assert_true(v == 0.5);
    tco_workload_get(w, TCO_P_LAYERS, &v, NULL);
    assert_true(v == 96);
    tco_workload_get(w, TCO_P_CHECKPOINT_ASYNC, &v, NULL);
    assert_true(v == 1);
    tco_workload_get(w, TCO_P_SEQ_LEN, &v, NULL);
    assert_true(v == 8192);
    const char *text;
    tco_workload_get_text(w, TCO_P_PRECISION, &text, NULL);
    assert_string_equal(text, "fp8");
    /* Everything else holds its default. */
    tco_param_info in = { .size = sizeof in };
    tco_param_info_get(&in, TCO_P_BATCH_TOKENS, NULL);
    tco_workload_get(w, TCO_P_BATCH_TOKENS, &v, NULL);
    assert_true(v == in.default_value);

    /* Saved again, it is canonical. */
    uint8_t buf[4096];
    size_t len;
    assert_int_equal(tco_workload_save_cbor(buf, sizeof buf, &len, w, NULL), TCO_OK);
    assert_canonical(buf, len);
    tco_workload_free(w);

    /* An empty map is the defaults; a scenario of format and version too. */
    uint8_t empty = 0xa0;
    tco_pricing *p, *d;
    assert_int_equal(tco_pricing_load_cbor(&p, &empty, 1, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&d, NULL), TCO_OK);
    uint64_t fp, fd;
    tco_pricing_fingerprint(&fp, p, NULL);
    tco_pricing_fingerprint(&fd, d, NULL);
    assert_true(fp == fd);
    tco_pricing_free(p);
    tco_pricing_free(d);

    cb s = { .n = 0 };
    cb_scenario_head(&s, 0, 1);
    scen l, def;
    assert_int_equal(tco_scenario_load_cbor(&l.t, &l.w, &l.p, s.b, s.n, &err), TCO_OK);
    scen_new(&def);
    uint64_t a, b;
    tco_scenario_fingerprint(&a, l.t, l.w, l.p, NULL);
    tco_scenario_fingerprint(&b, def.t, def.w, def.p, NULL);
    assert_true(a == b);
    scen_free(&l);
    scen_free(&def);
}

/* ==== hostile input ====================================================== */

/* Every prefix of a valid file is refused, as truncated. */
static void test_truncated(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    static uint8_t buf[16384];
    size_t n = save_scen(buf, sizeof buf, &s);
    for (size_t cut = 0; cut < n; cut++) {
        outcome o = try_load(0, buf, cut);
        assert_int_equal(o.rc, TCO_E_TYPE);
        if (cut > 0 && !strstr(o.err.message, "truncated")) {
            print_error("cut at %zu: \"%s\"\n", cut, o.err.message);
            fail();
        }
    }
    uint8_t h[4096];
    size_t hn;
    assert_int_equal(tco_topology_save_cbor(h, sizeof h, &hn, s.t, NULL), TCO_OK);
    for (size_t cut = 0; cut < hn; cut++)
        assert_int_equal(try_load(TCO_HANDLE_TOPOLOGY, h, cut).rc, TCO_E_TYPE);
    /* Trailing bytes are refused too. */
    buf[n] = 0x00;
    cb c = { .n = 0 };
    cb_bytes(&c, buf, n + 1);
    expect_error(0, &c, TCO_E_TYPE, "1 byte follows the end");
    scen_free(&s);
}

static void test_wrong_types(void **state)
{
    (void)state;
    cb c;
    /* A text for a number. */
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "accelerators");
    cb_text(&c, "1024");
    outcome o = expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_TYPE, "accelerators is a number");
    assert_int_equal(o.err.param, TCO_P_ACCELERATORS);
    assert_string_equal(o.err.param_name, "accelerators");
    /* A number for a choice and for a text. */
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "cooling");
    cb_uint(&c, 1);
    expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_TYPE, "cooling is a choice");
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "currency");
    cb_f64(&c, 1.25);
    expect_error(TCO_HANDLE_PRICING, &c, TCO_E_TYPE, "currency is a text");
    /* Containers, null, undefined, bytes, tags, booleans where numbers belong. */
    static const uint8_t values[][3] = { { 0xa0 }, { 0x80 }, { 0xf6 }, { 0xf7 }, { 0x40 }, { 0xc1, 0x01 }, { 0xf5 } };
    static const char *const names[] = { "a map", "an array", "null", "undefined", "a byte string", "a tag", "a boolean" };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        c.n = 0;
        cb_map(&c, 1);
        cb_text(&c, "pue");
        cb_bytes(&c, values[i], values[i][0] == 0xc1 ? 2 : 1);
        char want[64];
        snprintf(want, sizeof want, "found %s", names[i]);
        expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_TYPE, want);
    }
    /* A non-text key, a non-map handle, a non-map scenario. */
    c.n = 0;
    cb_map(&c, 1);
    cb_uint(&c, 1000);
    cb_uint(&c, 1);
    expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_TYPE, "keys are parameter names");
    c.n = 0;
    cb_head(&c, 4, 0);
    expect_error(TCO_HANDLE_WORKLOAD, &c, TCO_E_TYPE, "is a map");
    expect_error(0, &c, TCO_E_TYPE, "not a libtco scenario");
    /* A scenario whose section is not a map. */
    c.n = 0;
    cb_scenario_head(&c, 1, 1);
    cb_text(&c, "topology");
    cb_uint(&c, 7);
    expect_error(0, &c, TCO_E_TYPE, "topology: a topology is a map");
    /* format and version of the wrong type or value. */
    c.n = 0;
    cb_map(&c, 2);
    cb_text(&c, "format");
    cb_text(&c, "something-else");
    cb_text(&c, "version");
    cb_uint(&c, 1);
    expect_error(0, &c, TCO_E_TYPE, "format is \"something-else\"");
    c.n = 0;
    cb_map(&c, 2);
    cb_text(&c, "format");
    cb_text(&c, "libtco-scenario");
    cb_text(&c, "version");
    cb_text(&c, "1");
    expect_error(0, &c, TCO_E_TYPE, "version is a text string");
    c.n = 0;
    cb_scenario_head(&c, 0, 0);
    expect_error(0, &c, TCO_E_RANGE, "version 0");
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "version");
    cb_uint(&c, 1);
    expect_error(0, &c, TCO_E_TYPE, "no \"format\"");
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "format");
    cb_text(&c, "libtco-scenario");
    expect_error(0, &c, TCO_E_TYPE, "no \"version\"");
}

/* Lengths far beyond the data, in every width: refused at once. */
static void test_huge_lengths(void **state)
{
    (void)state;
    static const uint64_t lengths[] = { 0xff, 0xffff, 0xffffffffu, 0x7fffffffffffffffULL, UINT64_MAX };
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        for (int major = 2; major <= 5; major++) {
            cb c = { .n = 0 };
            cb_head_w(&c, major, lengths[i], 8);
            cb_bytes(&c, "\x61" "a\x01", 3);
            for (int kind = 0; kind <= 3; kind++)
                assert_int_not_equal(try_load(kind, c.b, c.n).rc, TCO_OK);
            /* The same as a value and as a key. */
            cb v = { .n = 0 };
            cb_map(&v, 1);
            cb_text(&v, "pue");
            cb_bytes(&v, c.b, c.n);
            assert_int_equal(try_load(TCO_HANDLE_TOPOLOGY, v.b, v.n).rc, TCO_E_TYPE);
            cb k = { .n = 0 };
            cb_map(&k, 1);
            cb_bytes(&k, c.b, c.n);
            assert_int_equal(try_load(TCO_HANDLE_TOPOLOGY, k.b, k.n).rc, TCO_E_TYPE);
        }
    }
    /* A map declaring more entries than its bytes can hold. */
    cb c = { .n = 0 };
    cb_head_w(&c, 5, 1000000, 4);
    cb_text(&c, "pue");
    cb_uint(&c, 1);
    expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_TYPE, "declares 1000000 entries");
    /* the same for the scenario's own map (kind 0: tco_scenario_load_cbor) */
    c.n = 0;
    cb_head_w(&c, 5, 1000000, 4);
    cb_text(&c, "format");
    cb_uint(&c, 1);
    expect_error(0, &c, TCO_E_TYPE, "declares 1000000 entries");
    /* A huge integer for an INT, a huge negative one. */
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "accelerators");
    cb_head(&c, 0, UINT64_MAX);
    expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_RANGE, "accelerators");
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "accelerators");
    cb_head(&c, 1, UINT64_MAX);
    expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_RANGE, "accelerators");
}

/* Deep nesting: never entered (a container where a value belongs is a type
 * error), so depth costs nothing and the stack is safe. */
static void test_deep_nesting(void **state)
{
    (void)state;
    static cb c;
    for (int form = 0; form < 4; form++) {
        c.n = 0;
        if (form == 1 || form == 3) {
            cb_map(&c, 1);
            cb_text(&c, "pue");
        }
        if (form == 2) {
            cb_scenario_head(&c, 1, 1);
            cb_text(&c, "workload");
        }
        for (int d = 0; d < 20000; d++) {
            if (form == 3) {
                cb_byte(&c, 0xa1); /* nested maps */
                cb_text(&c, "k");
            } else {
                cb_byte(&c, 0x81); /* nested arrays */
            }
        }
        cb_uint(&c, 1);
        for (int kind = 0; kind <= 3; kind++)
            assert_int_not_equal(try_load(kind, c.b, c.n).rc, TCO_OK);
    }
    /* Indefinite lengths are refused. */
    static const uint8_t indef[][8] = { { 0xbf, 0xff }, { 0x9f, 0xff }, { 0x7f, 0xff }, { 0x5f, 0xff } };
    for (size_t i = 0; i < 4; i++) {
        c.n = 0;
        cb_map(&c, 1);
        cb_text(&c, "pue");
        cb_bytes(&c, indef[i], 2);
        assert_int_equal(try_load(TCO_HANDLE_TOPOLOGY, c.b, c.n).rc, TCO_E_TYPE);
        for (int kind = 0; kind <= 3; kind++)
            assert_int_equal(try_load(kind, indef[i], 2).rc, TCO_E_TYPE);
    }
}

static void test_duplicate_keys(void **state)
{
    (void)state;
    cb c = { .n = 0 };
    cb_map(&c, 2);
    cb_text(&c, "pue");
    cb_f16(&c, 0x3c00);
    cb_text(&c, "pue");
    cb_f16(&c, 0x3e00);
    outcome o = expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_INCONSISTENT, "pue appears twice");
    assert_int_equal(o.err.param, TCO_P_PUE);
    assert_string_equal(o.err.param_name, "pue");

    /* A duplicate section, and a duplicate inside a section. */
    c.n = 0;
    cb_scenario_head(&c, 2, 1);
    cb_text(&c, "pricing");
    cb_map(&c, 0);
    cb_text(&c, "pricing");
    cb_map(&c, 0);
    expect_error(0, &c, TCO_E_INCONSISTENT, "\"pricing\" appears twice");
    c.n = 0;
    cb_scenario_head(&c, 1, 1);
    cb_text(&c, "workload");
    cb_map(&c, 2);
    cb_text(&c, "mfu");
    cb_f16(&c, 0x3800);
    cb_text(&c, "mfu");
    cb_f16(&c, 0x3800);
    expect_error(0, &c, TCO_E_INCONSISTENT, "workload: mfu appears twice");
    c.n = 0;
    cb_map(&c, 3);
    cb_text(&c, "format");
    cb_text(&c, "libtco-scenario");
    cb_text(&c, "format");
    cb_text(&c, "libtco-scenario");
    cb_text(&c, "version");
    cb_uint(&c, 1);
    expect_error(0, &c, TCO_E_INCONSISTENT, "appears twice");
}

static void test_not_finite(void **state)
{
    (void)state;
    cb c;
    for (int i = 0; i < 6; i++) {
        c.n = 0;
        cb_map(&c, 1);
        cb_text(&c, "mfu");
        switch (i) {
        case 0: cb_f16(&c, 0x7e00); break;          /* NaN */
        case 1: cb_f16(&c, 0x7c00); break;          /* +inf */
        case 2: cb_f16(&c, 0xfc00); break;          /* -inf */
        case 3: cb_f32(&c, NAN); break;
        case 4: cb_f64(&c, INFINITY); break;
        default: cb_f64(&c, -NAN); break;
        }
        outcome o = expect_error(TCO_HANDLE_WORKLOAD, &c, TCO_E_NOT_FINITE, "mfu must be a finite number");
        assert_int_equal(o.err.param, TCO_P_MFU);
    }
    /* Also inside a scenario, named with its section. */
    c.n = 0;
    cb_scenario_head(&c, 1, 1);
    cb_text(&c, "pricing");
    cb_map(&c, 1);
    cb_text(&c, "on_demand_per_accel_hour");
    cb_f64(&c, INFINITY);
    expect_error(0, &c, TCO_E_NOT_FINITE, "pricing: on_demand_per_accel_hour");
}

static void test_unknown_keys(void **state)
{
    (void)state;
    cb c = { .n = 0 };
    cb_map(&c, 1);
    cb_text(&c, "acelerators");
    cb_uint(&c, 8);
    outcome o = expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_UNKNOWN_PARAM, "unknown key \"acelerators\"");
    assert_string_equal(o.err.param_name, "acelerators");
    assert_int_equal(o.err.param, 0);

    /* A key of another handle names its handle. */
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "mfu");
    cb_f16(&c, 0x3800);
    o = expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_WRONG_HANDLE, "mfu belongs to the workload, not the topology");
    assert_int_equal(o.err.param, TCO_P_MFU);

    /* A long key is cut to fit param_name; odd bytes are shown as '?'. */
    char longkey[300];
    memset(longkey, 'x', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    longkey[3] = '\n';
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, longkey);
    cb_uint(&c, 1);
    o = expect_error(TCO_HANDLE_PRICING, &c, TCO_E_UNKNOWN_PARAM, "unknown key \"xxx?xx");
    assert_int_equal(strlen(o.err.param_name), TCO_ERROR_PARAM_NAME_MAX - 1);
    assert_null(strchr(o.err.message, '\n'));

    /* An unknown scenario key. */
    c.n = 0;
    cb_scenario_head(&c, 1, 1);
    cb_text(&c, "cluster");
    cb_map(&c, 0);
    o = expect_error(0, &c, TCO_E_UNKNOWN_PARAM, "unknown scenario key \"cluster\"");
    assert_string_equal(o.err.param_name, "cluster");
}

/* A newer version: refused; its unknown keys are named, with the version. */
static void test_versions(void **state)
{
    (void)state;
    cb c = { .n = 0 };
    cb_scenario_head(&c, 0, 2);
    outcome o = expect_error(0, &c, TCO_E_RANGE, "format version 2");
    assert_non_null(strstr(o.err.message, "reads versions 1 to 1"));

    /* In canonical order pricing comes before version: the version is still found. */
    c.n = 0;
    cb_map(&c, 3);
    cb_text(&c, "format");
    cb_text(&c, "libtco-scenario");
    cb_text(&c, "pricing");
    cb_map(&c, 1);
    cb_text(&c, "carbon_per_kwh");
    cb_f16(&c, 0x3800);
    cb_text(&c, "version");
    cb_uint(&c, 2);
    o = expect_error(0, &c, TCO_E_UNKNOWN_PARAM, "pricing: unknown key \"carbon_per_kwh\"");
    assert_string_equal(o.err.param_name, "carbon_per_kwh");
    assert_non_null(strstr(o.err.message, "format version 2"));

    /* The same key in a version 1 file: no word of versions. */
    c.n = 0;
    cb_map(&c, 3);
    cb_text(&c, "format");
    cb_text(&c, "libtco-scenario");
    cb_text(&c, "pricing");
    cb_map(&c, 1);
    cb_text(&c, "carbon_per_kwh");
    cb_f16(&c, 0x3800);
    cb_text(&c, "version");
    cb_uint(&c, 1);
    o = expect_error(0, &c, TCO_E_UNKNOWN_PARAM, "carbon_per_kwh");
    assert_null(strstr(o.err.message, "version"));
}

static void test_bad_values(void **state)
{
    (void)state;
    cb c = { .n = 0 };
    cb_map(&c, 1);
    cb_text(&c, "mfu");
    cb_uint(&c, 7);
    outcome o = expect_error(TCO_HANDLE_WORKLOAD, &c, TCO_E_RANGE, "mfu = 7 is out of range");
    assert_int_equal(o.err.param, TCO_P_MFU);

    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "accelerators");
    cb_f64(&c, 1000.5);
    expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_RANGE, "whole number");

    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "accelerator_model");
    cb_text(&c, "TPU");
    expect_error(TCO_HANDLE_TOPOLOGY, &c, TCO_E_RANGE, "\"TPU\" is not a choice: allowed custom");

    char big[100];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "currency");
    cb_text(&c, big);
    expect_error(TCO_HANDLE_PRICING, &c, TCO_E_RANGE, "currency is 99 bytes long");

    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "currency");
    cb_bytes(&c, "\x63\x55\x00\x44", 4);
    expect_error(TCO_HANDLE_PRICING, &c, TCO_E_RANGE, "NUL");

    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "currency");
    cb_bytes(&c, "\x63\xc3\x28\x41", 4);
    expect_error(TCO_HANDLE_PRICING, &c, TCO_E_RANGE, "UTF-8");

    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "checkpoint_async");
    cb_uint(&c, 2);
    expect_error(TCO_HANDLE_WORKLOAD, &c, TCO_E_RANGE, "checkpoint_async");

    /* Booleans only for BOOL. */
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "runs");
    cb_byte(&c, 0xf5);
    expect_error(TCO_HANDLE_WORKLOAD, &c, TCO_E_TYPE, "runs is a number");

    /* A value the handle cannot freeze with still loads: freeze says why. */
    c.n = 0;
    cb_map(&c, 1);
    cb_text(&c, "switch_radix");
    cb_uint(&c, 63);
    tco_topology *t;
    assert_int_equal(tco_topology_load_cbor(&t, c.b, c.n, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_E_RANGE);
    tco_topology_free(t);
}

/* The surrogate check of text in a file (RFC 3629, section 3: U+D800 to
 * U+DFFF are not characters): the four code points at its two edges, each
 * three bytes, as a currency. U+D7FF and U+E000 load and read back as
 * given; U+D800 (ED A0 80) and U+DFFF (ED BF BF) are refused, nothing
 * loaded. */
static void test_cbor_surrogates(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        int ok;
    } edge[] = {
        { "\xed\x9f\xbf", 1 }, /* U+D7FF, the last before */
        { "\xed\xa0\x80", 0 }, /* U+D800, the first surrogate */
        { "\xed\xbf\xbf", 0 }, /* U+DFFF, the last surrogate */
        { "\xee\x80\x80", 1 }, /* U+E000, the first after */
    };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        cb c = { .n = 0 };
        cb_map(&c, 1);
        cb_text(&c, "currency");
        cb_byte(&c, 0x63); /* a text of 3 bytes */
        cb_bytes(&c, edge[i].bytes, 3);
        if (!edge[i].ok) {
            expect_error(TCO_HANDLE_PRICING, &c, TCO_E_RANGE, "UTF-8");
            continue;
        }
        tco_pricing *p = NULL;
        assert_int_equal(tco_pricing_load_cbor(&p, c.b, c.n, NULL), TCO_OK);
        const char *text = NULL;
        assert_int_equal(tco_pricing_get_text(p, TCO_P_CURRENCY, &text, NULL), TCO_OK);
        assert_string_equal(text, edge[i].bytes);
        tco_pricing_free(p);
    }
}

static void test_null_and_empty(void **state)
{
    (void)state;
    tco_topology *t = SENTINEL;
    tco_workload *w = SENTINEL;
    tco_pricing *p = SENTINEL;
    tco_error err = TCO_ERROR_INIT;
    uint8_t m = 0xa0;
    assert_int_equal(tco_topology_load_cbor(NULL, &m, 1, &err), TCO_E_NULL);
    assert_int_equal(tco_topology_load_cbor(&t, NULL, 1, &err), TCO_E_NULL);
    assert_int_equal(tco_topology_load_cbor(&t, NULL, 0, &err), TCO_E_TYPE);
    assert_int_equal(tco_topology_load_cbor(&t, &m, 0, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "empty"));
    assert_int_equal(tco_scenario_load_cbor(&t, NULL, &p, &m, 1, &err), TCO_E_NULL);
    assert_int_equal(tco_scenario_load_cbor(&t, &w, &p, NULL, 5, &err), TCO_E_NULL);
    assert_ptr_equal(t, SENTINEL);
    assert_ptr_equal(w, SENTINEL);
    assert_ptr_equal(p, SENTINEL);
    /* An error detail too small to fill is left alone; the code still comes back. */
    tco_error tiny;
    memset(&tiny, 0, sizeof tiny);
    tiny.size = 4;
    assert_int_equal(tco_topology_load_cbor(&t, &m, 0, &tiny), TCO_E_TYPE);
    assert_int_equal(tiny.code, 0);
    assert_int_equal(tco_topology_load_cbor(&t, &m, 0, NULL), TCO_E_TYPE);
}

/* xorshift64*: the same bytes on every run. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next_random(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545f4914f6cdd1dULL;
}

/* Random bytes, and valid files with random bytes changed, inserted or
 * removed: every outcome is a success or an error with a message. */
static void test_random_bytes(void **state)
{
    (void)state;
    static uint8_t buf[8192], valid[8192];
    for (int i = 0; i < 20000; i++) {
        size_t n = (size_t)(next_random() % 64);
        for (size_t k = 0; k < n; k++)
            buf[k] = (uint8_t)next_random();
        if (i % 3 == 0 && n > 0)
            buf[0] = (uint8_t)(0xa0 | (buf[0] & 0x1f)); /* starts as a map */
        try_load((int)(i % 4), buf, n);
    }
    scen s;
    scen_new(&s);
    size_t vn = save_scen(valid, sizeof valid, &s);
    scen_free(&s);
    int accepted = 0;
    for (int i = 0; i < 3000; i++) {
        size_t n = vn;
        memcpy(buf, valid, vn);
        int edits = 1 + (int)(next_random() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)(next_random() % n);
            switch (next_random() % 3) {
            case 0:
                buf[at] = (uint8_t)next_random();
                break;
            case 1:
                if (n + 1 < sizeof buf) {
                    memmove(buf + at + 1, buf + at, n - at);
                    buf[at] = (uint8_t)next_random();
                    n++;
                }
                break;
            default:
                memmove(buf + at, buf + at + 1, n - at - 1);
                n--;
                break;
            }
        }
        accepted += try_load(0, buf, n).rc == TCO_OK;
    }
    /* Some single-byte changes keep a valid file (a digit of a value). */
    assert_true(accepted < 3000);
}

/* ==== fingerprints ======================================================= */

static void test_fingerprints(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    uint64_t before, after, stored, t, w, p, all;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_topology_fingerprint(&before, s.t, &err), TCO_OK);

    /* A handle's fingerprint is XXH3-64 of its canonical CBOR. */
    uint8_t buf[8192];
    size_t len;
    assert_int_equal(tco_topology_save_cbor(buf, sizeof buf, &len, s.t, NULL), TCO_OK);
    assert_true(before == XXH3_64bits(buf, len));

    /* Stored at freeze: the same value. */
    scen_freeze(&s);
    assert_int_equal(tco_topology_fingerprint(&stored, s.t, &err), TCO_OK);
    assert_true(stored == before);

    /* A clone edited differs; set back, it is the same again. */
    tco_topology *c;
    assert_int_equal(tco_topology_clone(&c, s.t, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(c, TCO_P_PUE, 1.3, NULL), TCO_OK);
    tco_topology_fingerprint(&after, c, NULL);
    assert_true(after != before);
    assert_int_equal(tco_topology_set(c, TCO_P_PUE, 1.2, NULL), TCO_OK);
    tco_topology_fingerprint(&after, c, NULL);
    assert_true(after == before);
    assert_int_equal(tco_topology_freeze(c, NULL), TCO_OK);
    tco_topology_fingerprint(&after, c, NULL);
    assert_true(after == before);
    tco_topology_free(c);

    /* The scenario's: XXH3-64 of the three, little-endian, in order. */
    tco_topology_fingerprint(&t, s.t, NULL);
    tco_workload_fingerprint(&w, s.w, NULL);
    tco_pricing_fingerprint(&p, s.p, NULL);
    assert_int_equal(tco_scenario_fingerprint(&all, s.t, s.w, s.p, &err), TCO_OK);
    uint8_t le[24];
    const uint64_t v[3] = { t, w, p };
    for (int i = 0; i < 24; i++)
        le[i] = (uint8_t)(v[i / 8] >> (8 * (i % 8)));
    assert_true(all == XXH3_64bits(le, sizeof le));
    assert_true(t != w && w != p && t != p);

    /* The estimate carries it. */
    tco_estimate e = estimate_of(&s);
    assert_true(e.scenario_fingerprint == all);

    /* NULL arguments. */
    assert_int_equal(tco_topology_fingerprint(NULL, s.t, &err), TCO_E_NULL);
    assert_int_equal(tco_workload_fingerprint(&w, NULL, &err), TCO_E_NULL);
    assert_int_equal(tco_pricing_fingerprint(NULL, NULL, &err), TCO_E_NULL);
    assert_int_equal(tco_scenario_fingerprint(&all, s.t, s.w, NULL, &err), TCO_E_NULL);
    scen_free(&s);
}

/* ==== the field table ==================================================== */

static void test_field_table(void **state)
{
    (void)state;
    size_t n = tco_estimate_field_count();
    assert_true(n > 40);
    size_t end = offsetof(tco_estimate, total);
    for (size_t i = 0; i < n; i++) {
        tco_field_info f;
        memset(&f, 0, sizeof f);
        f.size = sizeof f;
        assert_int_equal(tco_estimate_field_at(&f, i, NULL), TCO_OK);
        assert_non_null(f.name);
        assert_non_null(f.unit);
        assert_non_null(f.description);
        assert_true(f.description[0] != '\0');
        /* In struct order, with nothing left out between them. */
        if (f.offset != end) {
            print_error("field %zu (%s) is at %zu: expected %zu (a field of tco_estimate is missing from the table)\n",
                        i, f.name, f.offset, end);
            fail();
        }
        size_t size = f.type == TCO_FIELD_CATEGORIES ? TCO_CATEGORY_SLOTS * sizeof(double)
                      : f.type == TCO_FIELD_WASTES   ? TCO_WASTE_SLOTS * sizeof(double)
                      : f.type == TCO_FIELD_UINT64   ? sizeof(uint64_t)
                                                     : sizeof(double);
        assert_true(f.type >= TCO_FIELD_DOUBLE && f.type <= TCO_FIELD_WASTES);
        end = f.offset + size;
        for (size_t j = 0; j < i; j++) {
            tco_field_info g = { .size = sizeof g };
            tco_estimate_field_at(&g, j, NULL);
            assert_true(strcmp(f.name, g.name) != 0);
        }
    }
    assert_int_equal(end, sizeof(tco_estimate));

    tco_field_info f = { .size = sizeof f };
    assert_int_equal(tco_estimate_field_at(&f, 0, NULL), TCO_OK);
    assert_string_equal(f.name, "total");
    assert_int_equal(f.offset, offsetof(tco_estimate, total));
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_estimate_field_at(&f, n, &err), TCO_E_INDEX);
    assert_int_equal(tco_estimate_field_at(NULL, 0, &err), TCO_E_NULL);
    f.size = 4;
    assert_int_equal(tco_estimate_field_at(&f, 0, &err), TCO_E_SIZE);
    /* A larger struct gets the rest zeroed and its size kept. */
    struct {
        tco_field_info info;
        char more[16];
    } big;
    memset(&big, 0xff, sizeof big);
    big.info.size = sizeof big;
    assert_int_equal(tco_estimate_field_at(&big.info, 1, &err), TCO_OK);
    assert_int_equal(big.info.size, sizeof big);
    assert_string_equal(big.info.name, "cost");
    for (size_t i = 0; i < sizeof big.more; i++)
        assert_int_equal(big.more[i], 0);
}

/* The result file: a map keyed by the field names, cost and waste nested
 * and keyed by category and waste names; the same for any caller size. */
static void test_estimate_file(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    scen_freeze(&s);
    tco_estimate e = estimate_of(&s);
    static uint8_t a[8192], b[8192];
    size_t na, nb;
    assert_int_equal(tco_estimate_save_cbor(a, sizeof a, &na, &e, NULL), TCO_OK);
    assert_canonical(a, na);
    /* The top map has one entry per field. */
    size_t n = tco_estimate_field_count();
    if (n < 24)
        assert_int_equal(a[0], 0xa0 + n);
    else
        assert_true(a[0] == 0xb8 && a[1] == n);
    for (size_t i = 0; i < n; i++) {
        tco_field_info f = { .size = sizeof f };
        tco_estimate_field_at(&f, i, NULL);
        assert_non_null(find(a, na, f.name, strlen(f.name)));
    }
    for (size_t c = 0; c < tco_category_count(); c++)
        assert_non_null(find(a, na, tco_category_name((int32_t)c), strlen(tco_category_name((int32_t)c))));
    for (size_t k = 0; k < tco_waste_count(); k++)
        assert_non_null(find(a, na, tco_waste_name((int32_t)k), strlen(tco_waste_name((int32_t)k))));
    /* The first version's struct size writes the same keys, the fields it
     * lacks as zeros: the same bytes as this version's struct with them 0. */
    size_t v1_size = offsetof(tco_estimate, scenario_fingerprint) + sizeof e.scenario_fingerprint;
    tco_estimate v1 = e, zeroed = e;
    v1.size = v1_size;
    memset((char *)&zeroed + v1_size, 0, sizeof zeroed - v1_size);
    static uint8_t c[8192];
    size_t nc;
    assert_int_equal(tco_estimate_save_cbor(b, sizeof b, &nb, &v1, NULL), TCO_OK);
    assert_int_equal(tco_estimate_save_cbor(c, sizeof c, &nc, &zeroed, NULL), TCO_OK);
    assert_int_equal(nc, nb);
    assert_memory_equal(c, b, nb);
    /* Deterministic: saved twice, the same bytes. */
    assert_int_equal(tco_estimate_save_cbor(b, sizeof b, &nb, &e, NULL), TCO_OK);
    assert_memory_equal(a, b, na);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_round_trip),
        cmocka_unit_test(test_handles_round_trip),
        cmocka_unit_test(test_save_buffer_contract),
        cmocka_unit_test(test_float_widths),
        cmocka_unit_test(test_real_encoding_bytes),
        cmocka_unit_test(test_lenient_input),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_wrong_types),
        cmocka_unit_test(test_huge_lengths),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_not_finite),
        cmocka_unit_test(test_unknown_keys),
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_null_and_empty),
        cmocka_unit_test(test_cbor_surrogates),
        cmocka_unit_test(test_random_bytes),
        cmocka_unit_test(test_fingerprints),
        cmocka_unit_test(test_field_table),
        cmocka_unit_test(test_estimate_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
