/* Brent's zeroin (Brent 1973, "Algorithms for Minimization without
 * Derivatives", chapter 4): the root of a function that rises through 0,
 * by inverse quadratic interpolation, secants and bisection, in a bracket
 * that always holds it. Sizing (its mfu) and value per cost (the tokens a
 * budget buys) search with it. */
#include <float.h>
#include <math.h>

#include "decide/decide.h"

/* One end: where, g there, and the caller's slot holding its point. */
typedef struct end {
    double x, g;
    int slot;
} end;

int tco__zeroin(tco__zeroin_fn *fn, void *ctx, double xa, double ga, double xb, double gb, double rel)
{
    end a = { xa, ga, 0 }, b = { xb, gb, 1 }, c = a;
    double d = b.x - a.x, e = d;
    for (;;) {
        if ((b.g > 0) == (c.g > 0)) { /* keep b and c on either side */
            c = a;
            d = e = b.x - a.x;
        }
        if (fabs(c.g) < fabs(b.g)) { /* b the best so far */
            a = b;
            b = c;
            c = a;
        }
        double tol = 2 * DBL_EPSILON * fabs(b.x) + 0.5 * rel * fabs(b.x);
        double xm = 0.5 * (c.x - b.x);
        if (fabs(xm) <= tol || b.g == 0)
            break;
        if (fabs(e) >= tol && fabs(a.g) > fabs(b.g) && isfinite(a.g) && isfinite(c.g)) {
            double p, q, r, ratio = b.g / a.g;
            if (a.x == c.x) { /* secant */
                p = 2 * xm * ratio;
                q = 1 - ratio;
            } else { /* inverse quadratic interpolation */
                q = a.g / c.g;
                r = b.g / c.g;
                p = ratio * (2 * xm * q * (q - r) - (b.x - a.x) * (r - 1));
                q = (q - 1) * (r - 1) * (ratio - 1);
            }
            if (p > 0)
                q = -q;
            else
                p = -p;
            if (2 * p < fmin(3 * xm * q - fabs(tol * q), fabs(e * q))) {
                e = d;
                d = p / q;
            } else {
                d = e = xm;
            }
        } else {
            d = e = xm; /* bisection: interpolation would not help, or a side was refused */
        }
        a = b;
        b.x += fabs(d) > tol ? d : xm > 0 ? tol : -tol;
        b.slot = 3 - a.slot - c.slot; /* b and c hold two slots: the third is free */
        b.g = fn(ctx, &b.x, b.slot);
    }
    return b.g <= 0 ? b.slot : c.slot;
}
