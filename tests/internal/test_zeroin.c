/* White-box test of lib/decide/zeroin.c: every point Brent's zeroin
 * evaluates, and the root it returns, against Brent's own procedure
 * (Brent 1973, "Algorithms for Minimization without Derivatives", section
 * 4.6, ALGOL 60 procedure zero) run in Python by zeroin_brent.py, beside
 * this file, which prints the table below. The functions:
 *
 * - Wallis's cubic x^3 - 2x - 5 on [2, 3], the classic test of root
 *   finders (root 2.0945514815423265), at a tight and a loose tolerance;
 * - lines and cubics whose steps meet each of the method's choices:
 *   secant, inverse quadratic interpolation, a step refused for passing
 *   3/4 of the bracket or half the step before last, bisection;
 * - refused sides (inf), never interpolated through, and two sides scaled
 *   1e600 apart, where b's ratio to a underflows to 0;
 * - a staircase, whose equal values tie |g(c)| with |g(b)|;
 * - x - 0.5 on [0, 1]: one secant step to g = 0, which ends the search. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "decide/decide.h"

#define MAX_SEEN 16

typedef struct probe {
    double (*g)(double);
    int seen;
    double x[MAX_SEEN];
    double slot[3]; /* the x each slot holds */
} probe;

static double at(void *ctx, double *x, int slot)
{
    probe *p = ctx;
    assert_true(slot >= 0 && slot < 3);
    assert_true(p->seen < MAX_SEEN);
    p->x[p->seen++] = *x;
    p->slot[slot] = *x;
    return p->g(*x);
}

static double wallis(double x)
{
    return x * x * x - 2 * x - 5;
}

static double refused_from_2(double x)
{
    return x < 2 ? x - 1 : HUGE_VAL;
}

static double refused_from_2_5(double x)
{
    return x < 2.5 ? x - 1.9 : HUGE_VAL;
}

static double half(double x)
{
    return x - 0.5;
}

static double tenths(double x)
{
    return x - 0.3;
}

static double cube_tenths(double x)
{
    return x * x * x - 0.3;
}

static double cube_two(double x)
{
    return x * x * x - 2;
}

static double quarters(double x)
{
    return floor(4 * x) - 2.5;
}

static double scales_apart(double x)
{
    return x < 1 ? (x - 1) * 1e300 : (x - 1) * 1e-300;
}

typedef struct brent_case {
    double (*g)(double);
    double a, b, rel;
    int n;
    double x[MAX_SEEN]; /* the points evaluated */
    double root;
} brent_case;

static void test_against_brent(void **state)
{
    (void)state;
    static const brent_case cases[] = {
        { wallis, 2.0, 3.0, 1e-12, 6, { 2.0588235294117645, 2.0956589322913497, 2.094528891117347, 2.0945514674640098, 2.094551481542327, 2.094551481541279 }, 2.094551481541279 },
        { wallis, 2.0, 3.0, 0.001, 3, { 2.0588235294117645, 2.0956589322913497, 2.094528891117347 }, 2.094528891117347 },
        { refused_from_2, 0.0, 3.0, 1e-09, 2, { 1.5, 1.0 }, 1.0 },
        { half, 0.0, 1.0, 1e-09, 1, { 0.5 }, 0.5 },
        { tenths, -1.0, 2.0, 1e-12, 2, { 0.30000000000000027, 0.2999999999998501 }, 0.2999999999998501 },
        { cube_tenths, -1.0, 2.0, 1e-12, 12, { -0.5666666666666667, -0.32639862307347595, 0.8368006884632622, 0.30093943932389655, 0.5625341876410448, 0.7109130069621111, 0.6623815728996572, 0.6690107150138987, 0.6694333869254266, 0.6694329498065212, 0.6694329500821693, 0.6694329500825044 }, 0.6694329500821693 },
        { cube_tenths, 0.1, 1.5, 0.1, 5, { 0.22406639004149378, 0.8620331950207468, 0.516780422139025, 0.6894068085798859, 0.6549364681508913 }, 0.6549364681508913 },
        { cube_two, -1.0, 2.0, 1e-12, 9, { 0.0, 1.0, 1.5, 1.2105263157894737, 1.2633543429462637, 1.2597831201242242, 1.2599206746899139, 1.2599210498950593, 1.2599210498944287 }, 1.2599210498944287 },
        { cube_two, 1.0, 1000.0, 1e-06, 6, { 1.000000999000001, 1.3333329999951686, 1.2432433885324867, 1.258978047987752, 1.2599222101978027, 1.2599210490259987 }, 1.2599210490259987 },
        { quarters, 0.0, 3.0, 0.1, 4, { 0.625, 0.7734375, 0.69921875, 0.736328125 }, 0.736328125 },
        { refused_from_2_5, 0.0, 3.0, 1e-12, 3, { 1.5, 2.25, 1.9 }, 1.9 },
        { scales_apart, 0.0, 3.0, 1e-12, 2, { 1.5, 1.0 }, 1.0 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const brent_case *k = &cases[c];
        probe p = { k->g, 0, { 0 }, { k->a, k->b, NAN } };
        int slot = tco__zeroin(at, &p, k->a, k->g(k->a), k->b, k->g(k->b), k->rel);
        if (p.seen != k->n) {
            print_error("case %zu: %d points, Brent's procedure %d\n", c, p.seen, k->n);
            fail();
        }
        for (int i = 0; i < k->n; i++)
            if (p.x[i] != k->x[i]) {
                print_error("case %zu, point %d: %.17g, Brent's procedure %.17g\n", c, i, p.x[i], k->x[i]);
                fail();
            }
        assert_true(slot >= 0 && slot < 3);
        if (p.slot[slot] != k->root) {
            print_error("case %zu: root %.17g, Brent's procedure %.17g\n", c, p.slot[slot], k->root);
            fail();
        }
    }
    /* Wallis's root to 1e-12, on its side where g <= 0 */
    double r = cases[0].root;
    assert_true(wallis(r) <= 0 && fabs(r - 2.0945514815423265) <= 1e-12 * r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_brent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
