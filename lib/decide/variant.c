/* Variants of a scenario: the copy that sensitivity, sizing and Monte Carlo
 * change and price, one parameter at a time. */
#include "decide/decide.h"

void tco__variant_init(variant *v, const tco_topology *t, const tco_workload *w, const tco_pricing *p)
{
    v->given[0] = &t->o;
    v->given[1] = &w->o;
    v->given[2] = &p->o;
    for (int h = 0; h < 3; h++)
        v->h[h] = *v->given[h];
}

int tco__variant_set(variant *v, int ix, double value, tco_error *err)
{
    const param_row *r = &tco__params[ix];
    int rc = tco__param_check(r, value, err);
    if (rc)
        return rc;
    tco_obj *o = &v->h[r->handle - 1];
    o->v[ix] = value;
    return tco__obj_prepare(o, err);
}

void tco__variant_reset(variant *v, int ix)
{
    int h = tco__params[ix].handle - 1;
    v->h[h].v[ix] = v->given[h]->v[ix];
    /* derive again for the values the handle now holds: they were accepted
     * before, so this cannot fail */
    (void)tco__obj_prepare(&v->h[h], NULL);
}

int tco__variant_estimate(tco_estimate *e, const variant *v, tco_error *err)
{
    int rc = tco__estimate(e, &v->h[0], &v->h[1], &v->h[2], err);
    if (rc == TCO_OK)
        e->scenario_fingerprint = 0; /* the copies' are not the variant's */
    return rc;
}
