/* The rates a computation charges: the pricing table's, or, where it leaves
 * one at its stand-in -1, the list price of the topology's accelerator
 * (catalogue.c; doc/model.md, "List prices"). Each handle's freeze keeps
 * its part (the topology its accelerator's list prices, the pricing table
 * its rates and which stand in), and each computation picks between them,
 * since the pricing table does not know the accelerator: changing
 * accelerator_model never keeps the old model's price. A class without a
 * list price is not offered: a computation that uses it fails naming the
 * rate, one that only weighs it as an option (spot in the capacity split,
 * the classes sizing tries) leaves it out. */
#include <string.h>

#include "core/core.h"

/* The rate of each tco_price_class (capex for owned). */
static const int class_rate[4] = { IX_ON_DEMAND_PER_ACCEL_HOUR, IX_RESERVED_PER_ACCEL_HOUR, IX_SPOT_PER_ACCEL_HOUR,
                                   IX_CAPEX_PER_ACCELERATOR };

static double list_price(const tco_accelerator *acc, int cls)
{
    switch (cls) {
    case TCO_CLASS_ON_DEMAND: return acc->on_demand_per_accel_hour;
    case TCO_CLASS_RESERVED: return acc->reserved_per_accel_hour;
    case TCO_CLASS_SPOT: return acc->spot_per_accel_hour;
    default: return acc->capex_per_accelerator;
    }
}

int tco__rates_order(const rates *r, tco_error *err)
{
    if (r->reserved > r->on_demand)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_RESERVED_PER_ACCEL_HOUR,
                               "reserved_per_accel_hour = %g is above on_demand_per_accel_hour = %g: allowed 0 to %g",
                               r->reserved, r->on_demand, r->on_demand);
    if (r->spot > r->on_demand)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_SPOT_PER_ACCEL_HOUR,
                               "spot_per_accel_hour = %g is above on_demand_per_accel_hour = %g: allowed 0 to %g",
                               r->spot, r->on_demand, r->on_demand);
    return TCO_OK;
}

void tco__list_prices(derived *d, const tco_accelerator *acc)
{
    unsigned unlisted = 0;
    for (int c = 0; c < 4; c++) {
        d->list[c] = list_price(acc, c);
        if (!(d->list[c] > 0))
            unlisted |= 1u << c;
    }
    d->unlisted = unlisted;
}

void tco__table_rates(derived *d, const tco_obj *p, int listed)
{
    unsigned stand_in = 0;
    for (int c = 0; c < 4; c++) {
        d->rate[c] = p->v[class_rate[c]];
        if (d->rate[c] == LIST_PRICE) {
            d->rate[c] = 0;
            stand_in |= 1u << c;
        }
    }
    d->from_list = listed ? stand_in : 0;
    d->unpriced = listed ? 0 : stand_in;
}

/* The rates of the pricing table whose derived figures are in pd for the
 * accelerator whose list prices are in td. */
static void resolve(rates *out, const derived *td, const derived *pd)
{
    unsigned l = pd->from_list;
#define PICK(c) (l >> c & 1 ? td->list[c] : pd->rate[c])
    rates r = { PICK(TCO_CLASS_ON_DEMAND), PICK(TCO_CLASS_RESERVED), PICK(TCO_CLASS_SPOT), PICK(TCO_CLASS_OWNED),
                (l & td->unlisted) | pd->unpriced };
#undef PICK
    *out = r;
}

void tco__rates(rates *out, const tco_obj *t, const tco_obj *p)
{
    resolve(out, &t->d, &p->d);
}

unsigned tco__mix_classes(const tco_obj *t)
{
    double o = t->v[IX_OWNED_SHARE], rs = t->v[IX_RESERVED_SHARE], sp = t->v[IX_SPOT_SHARE];
    unsigned used = o > 0 ? 1u << TCO_CLASS_OWNED : 0;
    if (o < 1)
        used |= (rs + sp < 1 ? 1u << TCO_CLASS_ON_DEMAND : 0) | (rs > 0 ? 1u << TCO_CLASS_RESERVED : 0) |
                (sp > 0 ? 1u << TCO_CLASS_SPOT : 0);
    return used;
}

int tco__rates_need(const rates *r, unsigned classes, const tco_obj *t, const tco_obj *p, tco_error *err)
{
    /* Reserved and spot, where used, at most on demand (a list price may
     * be above a rate the table gives). */
    rates used = { r->on_demand, classes >> TCO_CLASS_RESERVED & 1 ? r->reserved : 0,
                   classes >> TCO_CLASS_SPOT & 1 ? r->spot : 0, 0, 0 };
    unsigned lacking = r->missing & classes;
    if (!lacking)
        return tco__rates_order(&used, err);
    int c = 0;
    while (!(lacking >> c & 1))
        c++;
    const param_row *row = &tco__params[class_rate[c]];
    const tco_accelerator *acc = tco__catalogue_find((int32_t)t->v[IX_ACCELERATOR_MODEL]);
    if (strcmp(p->text[IX_CURRENCY], LIST_CURRENCY) != 0 && list_price(acc, c) > 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, class_rate[c],
                               "%s = -1 asks for the accelerator's list price, in " LIST_CURRENCY
                               ", but currency = %s: set the rate in %s",
                               row->name, p->text[IX_CURRENCY], p->text[IX_CURRENCY]);
    return tco__fail_param(err, TCO_E_INCONSISTENT, class_rate[c],
                           "%s = -1 asks for the accelerator's list price, but %s has none: set it, 0 or more",
                           row->name, acc->id == TCO_ACCEL_CUSTOM ? "accelerator_model = custom" : acc->name);
}

/* The class whose rate parameter is ix, or -1. */
static int class_of(int ix)
{
    for (int c = 0; c < 4; c++)
        if (class_rate[c] == ix)
            return c;
    return -1;
}

/* Class c's resolved rate. */
static double rate_in(const rates *r, int c)
{
    const double by_class[4] = { r->on_demand, r->reserved, r->spot, r->capex };
    return by_class[c];
}

double tco__rate_value(const rates *r, int ix, double v)
{
    int c = class_of(ix);
    return v == LIST_PRICE && c >= 0 ? rate_in(r, c) : v;
}

int tco_rate(double *out, int32_t key, const tco_topology *topology, const tco_pricing *pricing, tco_error *err)
{
    if (!out || !topology || !pricing)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : !topology ? "topology" : "pricing");
    int rc;
    if ((rc = tco__kind_check(&topology->o, TCO_HANDLE_TOPOLOGY, err)) ||
        (rc = tco__kind_check(&pricing->o, TCO_HANDLE_PRICING, err)))
        return rc;
    int ix = tco__param_index(key), cls = ix < 0 ? -1 : class_of(ix);
    if (cls < 0)
        return tco__fail(err, TCO_E_RANGE,
                         "key %d is not a rate: allowed on_demand_per_accel_hour, reserved_per_accel_hour, "
                         "spot_per_accel_hour, capex_per_accelerator",
                         (int)key);
    /* The handles may not be frozen: the accelerator and the currency as
     * they are now. */
    const tco_obj *t = &topology->o, *p = &pricing->o;
    derived d; /* the parts of both that a freeze would derive */
    tco__list_prices(&d, tco__catalogue_find((int32_t)t->v[IX_ACCELERATOR_MODEL]));
    tco__table_rates(&d, p, strcmp(p->text[IX_CURRENCY], LIST_CURRENCY) == 0);
    rates r;
    resolve(&r, &d, &d);
    if ((rc = tco__rates_need(&r, 1u << cls, &topology->o, &pricing->o, err)))
        return rc;
    *out = rate_in(&r, cls);
    return TCO_OK;
}
