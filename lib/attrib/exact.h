/* Exact sums of non-negative doubles (doc/model.md, section 16): a fixed
 * point of 192 bits, 2^-64 its unit, so that adding is exact, and the sum
 * of many amounts is the same in whatever order they come and however
 * they are split into parts added up later. Each amount is cut to the unit
 * on the way in (below 5.4e-20 of a unit of anything, far under a cent);
 * only amounts below 2^62 are taken, so that 2^64 of them cannot
 * overflow. Not installed. */
#ifndef TCO_EXACT_H
#define TCO_EXACT_H

#include <stdint.h>
#include <string.h>

/* The largest amount an exact sum takes (exclusive). */
#define TCO__EXACT_MAX 4611686018427387904.0 /* 2^62 */

typedef struct tco__exact {
    uint64_t w[3]; /* w[0]: the fraction, in 2^-64; w[1] + 2^64 w[2]: the whole part */
} tco__exact;

/* Adds v, 0 <= v < TCO__EXACT_MAX (the caller checks). */
static inline void tco__exact_add(tco__exact *s, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int e = (int)(bits >> 52 & 0x7ff);
    uint64_t m = (bits & 0xfffffffffffffu) | (e ? 0x10000000000000u : 0);
    /* v = m 2^(e - 1075) (subnormals: e taken as 1), i.e. m 2^(e - 1011) units */
    int shift = (e ? e : 1) - 1011;
    uint64_t lo, hi;
    if (shift >= 64) {
        lo = 0, hi = m << (shift - 64);
    } else if (shift > 0) {
        lo = m << shift, hi = m >> (64 - shift);
    } else {
        lo = shift > -64 ? m >> -shift : 0, hi = 0;
    }
    uint64_t w0 = s->w[0] + lo, c0 = w0 < lo;
    uint64_t w1 = s->w[1] + hi, c1 = w1 < hi;
    w1 += c0;
    c1 |= w1 < c0;
    s->w[0] = w0;
    s->w[1] = w1;
    s->w[2] += c1;
}

/* Adds b to a; 0 when the sum does not fit (a unchanged). */
static inline int tco__exact_merge(tco__exact *a, const tco__exact *b)
{
    tco__exact s;
    uint64_t c = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t x = a->w[i] + b->w[i], c1 = x < b->w[i];
        s.w[i] = x + c;
        c = c1 | (s.w[i] < c);
    }
    if (c)
        return 0;
    *a = s;
    return 1;
}

/* The sum as a double: a function of the exact value alone. */
static inline double tco__exact_value(const tco__exact *s)
{
    return (double)s->w[2] * 0x1p64 + (double)s->w[1] + (double)s->w[0] * 0x1p-64;
}

#endif
