/* Canonical CBOR of a handle (RFC 8949 section 4.2.1, core deterministic
 * encoding): definite lengths; integers, lengths and floats in their
 * shortest form; map keys in the order of their encoded bytes (cbor_order.c
 * is generated from the parameter table in that order); every parameter
 * written. A foundation service: freeze fingerprints these bytes, and the
 * file writer (io/write.c) saves them. */
#include <float.h>
#include <math.h>
#include <string.h>

#include <cbor.h>

#include "core/encode.h"

const cbor_order tco__cbor_orders[4] = {
    { NULL, 0, 0 },
    { tco__cbor_order_topology, CBOR_ORDER_TOPOLOGY_COUNT, CBOR_ORDER_TOPOLOGY_BOUND },
    { tco__cbor_order_workload, CBOR_ORDER_WORKLOAD_COUNT, CBOR_ORDER_WORKLOAD_BOUND },
    { tco__cbor_order_pricing, CBOR_ORDER_PRICING_COUNT, CBOR_ORDER_PRICING_BOUND },
};

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

/* The shortest of binary16, binary32 and binary64 that holds d exactly;
 * NaN as 0xf97e00 (RFC 8949 section 4.2.2). At most 9 bytes. */
uint8_t *tco__cbor_float(uint8_t *p, double d)
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

/* INT and BOOL values are whole, 0 to 2^53: the setters keep them within
 * the table's bounds, which tests/internal/test_table.c holds there. */
static uint8_t *raw_int(uint8_t *p, double v)
{
    return p + cbor_encode_uint((uint64_t)v, p, 9);
}

uint8_t *tco__cbor_text(uint8_t *p, const char *s)
{
    size_t n = strlen(s);
    p += cbor_encode_string_start(n, p, 9);
    copy(p, (const uint8_t *)s, n);
    return p + n;
}

uint8_t *tco__cbor_obj(uint8_t *p, const tco_obj *o)
{
    const cbor_key *k = tco__cbor_orders[o->kind].keys;
    size_t n = tco__cbor_orders[o->kind].count;
    p += cbor_encode_map_start(n, p, 9);
    for (size_t i = 0; i < n; i++, k++) {
        double v = o->v[k->ix];
        copy(p, (const uint8_t *)k->enc, (size_t)k->head + k->len);
        p += k->head + k->len;
        switch (k->type) {
        case TCO_TYPE_REAL:
            p = tco__cbor_float(p, v == 0 ? 0.0 : v); /* -0 is 0: one value, one encoding */
            break;
        case TCO_TYPE_INT:
        case TCO_TYPE_BOOL:
            p = raw_int(p, v);
            break;
        case TCO_TYPE_CHOICE: {
            const char *name = tco__choice_name(tco__params[k->ix].choices, v);
            p = tco__cbor_text(p, name ? name : "");
            break;
        }
        default:
            p = tco__cbor_text(p, o->text[k->ix]);
            break;
        }
    }
    return p;
}

size_t tco__obj_encode(const tco_obj *o, uint8_t *buf, size_t cap)
{
    if (cap >= tco__cbor_orders[o->kind].bound)
        return (size_t)(tco__cbor_obj(buf, o) - buf);
    uint8_t tmp[CBOR_ORDER_BOUND];
    size_t n = (size_t)(tco__cbor_obj(tmp, o) - tmp);
    if (n > cap)
        return 0;
    memcpy(buf, tmp, n);
    return n;
}
