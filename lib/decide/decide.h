/* Decisions: comparison, inverse sizing, sensitivity and Monte Carlo, on
 * private variants of a scenario. No room above calls in. Not installed. */
#ifndef TCO_DECIDE_H
#define TCO_DECIDE_H

#include "model/model.h"

/* A private copy of a scenario's three handles, changed parameter by
 * parameter and priced, while the caller's frozen handles stay as they are.
 * Lives on the caller's stack or heap (about 3 x 8 KB). */
typedef struct variant {
    tco_obj h[3];       /* topology, workload, pricing */
    const tco_obj *given[3];
} variant;

/* The copy of three frozen handles. */
void tco__variant_init(variant *v, const tco_topology *t, const tco_workload *w, const tco_pricing *p);
/* Sets parameter ix (of any handle) to value, checked as a setter checks it,
 * and prepares that handle again (the checks freeze runs). */
int tco__variant_set(variant *v, int ix, double value, tco_error *err);
/* Back to the given value of parameter ix, its handle derived again. */
void tco__variant_reset(variant *v, int ix);
/* The estimate of the variant as it stands (no fingerprint: 0). */
int tco__variant_estimate(tco_estimate *e, const variant *v, tco_error *err);

/* g at *x, rising with x (HUGE_VAL where x is refused), its point kept in
 * the caller's slot 0, 1 or 2; g may move *x to the point it evaluated. */
typedef double tco__zeroin_fn(void *ctx, double *x, int slot);
/* The root of g between xa (g = ga <= 0, in slot 0) and xb (g = gb > 0, in
 * slot 1), to within rel of x (zeroin.c). Returns the slot of the end of
 * the last bracket where g <= 0. */
int tco__zeroin(tco__zeroin_fn *fn, void *ctx, double xa, double ga, double xb, double gb, double rel);

#endif
