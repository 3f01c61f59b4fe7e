/* Which option: each option priced as tco_estimate_compute prices it, then
 * set against the first, the baseline, by category, per unit of effective
 * output, in what is paid once against what each run costs again, and where
 * owning breaks even with renting (doc/model.md, section 12). */
#include <stdarg.h>
#include <string.h>

#include "decide/decide.h"

#define T(k) (t->v[IX_##k])
#define P(k) (p->v[IX_##k])

/* tco_option is new in 1.1: its first version is the whole struct. */
#define OPTION_V1_SIZE V1_SIZE(tco_option, scenario_fingerprint)

/* One option priced alone: what it costs, what of it is paid once, and
 * where owning its accelerators breaks even with renting them. The
 * comparison with the baseline comes after (against). */
static void option_priced(tco_option *o, double *runs_per_month, const train_run *r, const tco_obj *t,
                          const tco_obj *w, const tco_obj *p)
{
    tco_estimate e;
    tco__estimate_run(&e, r, t, w, p);
    hardware hw;
    tco__hardware(&hw, r, t, w, p);

    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->total = e.total;
    memcpy(o->cost, e.cost, sizeof o->cost);
    o->cost_per_run = e.cost_per_run;
    o->cost_per_million_tokens = e.cost_per_million_tokens;
    o->cost_per_effective_accelerator_hour = e.cost_per_effective_accelerator_hour;
    o->cost_per_pflop_day = e.cost_per_pflop_day;
    o->scenario_fingerprint = e.scenario_fingerprint;

    /* total - one_off, summed by category (the risk premium recurs with
     * what it is a share of), so that options whose recurring costs are
     * equal compare exactly equal rather than by a rounding. */
    o->one_off = tco__one_off(t, p, &hw, r->runs);
    double recurring = risk_premium(p, e.cost);
    for (size_t c = 0; c < tco_category_count(); c++)
        recurring += c == TCO_CAT_INDIRECT ? 0 : e.cost[c];
    o->recurring_per_run = recurring / r->runs;
    *runs_per_month = r->runs / (e.held_hours / HOURS_PER_MONTH);

    /* A year of one accelerator, owned, at utilisation u: its annuity and
     * its share of the cooling plant and the fabric (what rental rates
     * include), whatever the use, plus the energy of the hours used;
     * rented: the blended rate for the hours used. */
    double fixed = hw.owned_per_year + (hw.plant_per_year + hw.fabric_per_year + hw.facility_per_year) / r->N; /* cur/y */
    double energy = hw.it_kw / r->N * T(PUE) * P(ELECTRICITY_PER_KWH);      /* cur/h */
    o->breakeven_utilisation =
        hw.rental_rate > energy ? fixed / (HOURS_PER_YEAR * (hw.rental_rate - energy)) : 0;
    /* Everything owning adds to a held accelerator-hour of this run (the
     * compute, power, cooling and fabric that rental rates include). */
    o->breakeven_rate = fixed / HOURS_PER_YEAR + energy;
}

/* Option o against the baseline. Never NaN or infinite: what never pays
 * back says so with pays_back = 0 and zeros. */
static void against(tco_option *o, const tco_option *base, double runs_per_month)
{
    for (int c = 0; c < TCO_CATEGORY_SLOTS; c++)
        o->difference[c] = o->cost[c] - base->cost[c];
    o->total_difference = o->total - base->total;
    o->saving_per_run = base->recurring_per_run - o->recurring_per_run;
    o->saving_per_month = o->saving_per_run * runs_per_month;
    o->cheaper = o->cost_per_million_tokens < base->cost_per_million_tokens;
    double extra = o->one_off - base->one_off; /* what this option pays once beyond the baseline */
    o->pays_back = o->saving_per_run > 0;
    if (o->pays_back && extra > 0) {
        o->payback_runs = extra / o->saving_per_run;
        o->payback_months = extra / o->saving_per_month;
    }
}

static void option_write(tco_option *out, size_t out_size, size_t i, tco_option *o)
{
    char *at = (char *)out + i * out_size;
    o->size = out_size;
    memcpy(at, o, sizeof *o); /* memcpy: out_size need not keep the struct aligned */
    if (out_size > sizeof *o)
        memset(at + sizeof *o, 0, out_size - sizeof *o);
}

int tco_compare(tco_option *out, size_t out_size, size_t n, const tco_topology *const *topologies,
                const tco_workload *const *workloads, const tco_pricing *const *pricings, tco_error *err)
{
    if (!out || !topologies || !workloads || !pricings)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL",
                         !out ? "out" : !topologies ? "topologies" : !workloads ? "workloads" : "pricings");
    if (n == 0)
        return tco__fail(err, TCO_E_RANGE, "n = 0: give at least one option (the first is the baseline)");
    int bad = tco__stride_check(out_size, OPTION_V1_SIZE, "out_size", "tco_option", err);
    if (bad)
        return bad;

    tco_error why = TCO_ERROR_INIT;
    for (size_t i = 0; i < n; i++)
        if (tco__frozen_inputs(topologies[i], workloads[i], pricings[i], &why))
            return tco__refail(err, &why, "option %zu: %s", i, why.message);
    const char *currency = pricings[0]->o.text[IX_CURRENCY];
    for (size_t i = 1; i < n; i++) {
        const char *other = pricings[i]->o.text[IX_CURRENCY];
        if (strcmp(other, currency) != 0)
            return tco__fail_param(err, TCO_E_INCONSISTENT, IX_CURRENCY,
                                   "option %zu is priced in %s, option 0 in %s: compare options in one currency",
                                   i, other, currency);
    }

    /* Every run is derived before anything is written, so that a failure
     * leaves out as it was without a copy of n results; the second pass
     * derives them again (a pure function of the frozen handles). */
    train_run r;
    tco_option base, o;
    double runs_per_month;
    for (size_t i = 0; i < n; i++) {
        const tco_obj *t = &topologies[i]->o, *w = &workloads[i]->o, *p = &pricings[i]->o;
        if (tco__run_derive(&r, t, w, p, &why))
            return tco__refail(err, &why, "option %zu: %s", i, why.message);
        if (i == 0) {
            option_priced(&base, &runs_per_month, &r, t, w, p);
            against(&base, &base, runs_per_month);
        }
    }
    option_write(out, out_size, 0, &base);
    for (size_t i = 1; i < n; i++) {
        const tco_obj *t = &topologies[i]->o, *w = &workloads[i]->o, *p = &pricings[i]->o;
        (void)tco__run_derive(&r, t, w, p, NULL); /* it succeeded above: cannot fail now */
        option_priced(&o, &runs_per_month, &r, t, w, p);
        against(&o, &base, runs_per_month);
        option_write(out, out_size, i, &o);
    }
    return TCO_OK;
}
