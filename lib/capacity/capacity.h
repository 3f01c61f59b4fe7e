/* Capacity: demand series, the fixed/elastic split, bandwidth, storage
 * lifecycle, logging and budgets. What the rooms above may call: the
 * checks of a series and its compensated sums. Not installed. */
#ifndef TCO_CAPACITY_H
#define TCO_CAPACITY_H

#include <math.h>

#include "core/core.h"

/* A series that exists and is not empty (its values are checked apart);
 * a series of finite values of 0 or more; a positive finite scalar. Each
 * names the argument. */
int tco__series_given(const double *x, size_t n, const char *name, tco_error *err);
int tco__series_check(const double *x, size_t n, const char *name, tco_error *err);
int tco__positive_check(double v, const char *name, tco_error *err);

/* Neumaier's compensated sum of n values of 0 or more. */
double tco__compensated_sum(const double *x, size_t n);

/* Neumaier's summation of non-negative terms: the larger operand goes first,
 * so no branch. Four lanes keep the adder busy. (Comparisons rather than
 * fmax and fmin: those are library calls where NaN must be honoured.) */
typedef struct {
    double s[4], c[4];
} ksum;

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static inline void ksum_add(ksum *k, int lane, double x)
{
    double s = k->s[lane], t = s + x;
    k->c[lane] += (MAX(s, x) - t) + MIN(s, x);
    k->s[lane] = t;
}

static inline double ksum_total(const ksum *k)
{
    /* Lanes are added with the same care, then the corrections. */
    double s = 0, c = 0;
    for (int i = 0; i < 4; i++) {
        double t = s + k->s[i];
        c += fabs(s) >= fabs(k->s[i]) ? (s - t) + k->s[i] : (k->s[i] - t) + s;
        s = t;
    }
    return s + (c + k->c[0] + k->c[1] + k->c[2] + k->c[3]);
}

#endif
