/* A cluster over its life (doc/model.md, section 18): each year's cost by
 * category, fixed and variable, the capacity nobody used and the reserved
 * hours paid for nothing, the cash (purchases, running costs, what the
 * hardware is worth at the end) and its net present value.
 *
 * The prices are the estimate's (model/estimate.c's tco__hardware: the
 * annuities of the owned IT, fabric, cooling plant and facility, the IT
 * draw, the rental rates) applied to a year of the whole cluster instead
 * of one run's hours; the workload only says how much of a used hour is
 * effective (its goodput). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"

#define T(k) (t->v[IX_##k])
#define W(k) (w->v[IX_##k])
#define P(k) (p->v[IX_##k])

enum { CATS = TCO_CAT_WASTE + 1, YEARS_MAX = 50 };
#define REQUEST_V1_SIZE sizeof(tco_lifetime_request)
#define YEAR_V1_SIZE sizeof(tco_lifetime_year)
#define LIFETIME_V1_SIZE sizeof(tco_lifetime)

void tco_lifetime_request_init(tco_lifetime_request *q)
{
    if (!q)
        return;
    memset(q, 0, sizeof *q);
    q->size = sizeof *q;
    q->years = 5;
    q->refresh_year = 0;
    q->utilisation = 0.7;
    q->discount_rate = tco__params[IX_COST_OF_CAPITAL].def;
}

/* ---- the request ---------------------------------------------------------- */

static int share_check(double u, const char *name, tco_error *err)
{
    if (!isfinite(u))
        return tco__fail_named(err, TCO_E_NOT_FINITE, name, "%s = %g must be finite", name, u);
    if (!(u >= 0 && u <= 1))
        return tco__fail_named(err, TCO_E_RANGE, name, "%s = %g: allowed 0 to 1, a share of the hours", name, u);
    return TCO_OK;
}

static int request_check(const tco_lifetime_request *q, tco_error *err)
{
    if (q->size < REQUEST_V1_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, "lifetime_request.size",
                               "lifetime_request.size = %zu is below %zu: set it with tco_lifetime_request_init",
                               q->size, REQUEST_V1_SIZE);
    int rc = input_size_check(q, q->size, sizeof *q, "lifetime_request", err);
    if (rc)
        return rc;
    if (q->years < 1 || q->years > YEARS_MAX)
        return tco__fail_named(err, TCO_E_RANGE, "request.years", "request.years = %d: allowed 1 to %d",
                               (int)q->years, YEARS_MAX);
    if (q->refresh_year < 0 || q->refresh_year >= q->years)
        return tco__fail_named(err, TCO_E_RANGE, "request.refresh_year",
                               "request.refresh_year = %d: allowed 0 (none) or 1 to %d (after that many of the %d "
                               "years, never before the start nor at the end)",
                               (int)q->refresh_year, (int)q->years - 1, (int)q->years);
    if (!isfinite(q->discount_rate))
        return tco__fail_named(err, TCO_E_NOT_FINITE, "request.discount_rate", "request.discount_rate = %g must be finite",
                               q->discount_rate);
    if (!(q->discount_rate > -1 && q->discount_rate <= 10))
        return tco__fail_named(err, TCO_E_RANGE, "request.discount_rate",
                               "request.discount_rate = %g per year: allowed above -1 (-100%%) up to 10", q->discount_rate);
    if (!q->utilisation_by_year)
        return share_check(q->utilisation, "request.utilisation", err);
    char name[TCO_ERROR_PARAM_NAME_MAX];
    for (int32_t y = 0; y < q->years; y++) {
        snprintf(name, sizeof name, "request.utilisation_by_year[%d]", (int)y);
        if ((rc = share_check(q->utilisation_by_year[y], name, err)))
            return rc;
    }
    return TCO_OK;
}

/* ---- one year ---------------------------------------------------------------- */

/* What a year of the cluster costs besides its use: everything the
 * handles fix, worked out once. */
typedef struct plan {
    double N, H, capacity;           /* accelerators, hours a year, accelerator-hours a year */
    double o, r, s;                  /* owned share; reserved and spot shares of the rest */
    double fixed[CATS];              /* cur a year, whatever the use */
    double od, spot, reserved;       /* cur per accelerator-hour */
    double power_h, cooling_h;       /* cur per used accelerator-hour whose energy is paid apart */
    int rented_energy;               /* 1: rented hours pay their energy too (rental_includes_power 0) */
    double log_h;                    /* cur per used accelerator-hour: logs ingested and kept */
    double owned_fixed;              /* cur a year: the owned capacity's fixed cost (IT, plant, facility, fabric) */
    double colocation;               /* of it, the colocation paid (the rest are annuities) */
    double risk;                     /* risk_premium_share */
    double one_off;                  /* migration and learning, the first year */
    double goodput;                  /* effective share of a used accelerator-hour */
    /* Cash: prices of what is bought, and the yearly maintenance. */
    double it_price, plant_price, maintenance, it_life, it_residual, plant_life, plant_residual;
    double fabric_price, fabric_residual; /* of it_price, the fabric's */
} plan;

/* Called once the run is derived: its rates were checked, so the
 * cluster's hardware cannot fail. */
static void plan_of(plan *pl, const tco_obj *t, const tco_obj *w, const tco_obj *p, double goodput)
{
    memset(pl, 0, sizeof *pl);
    hardware hw;
    (void)tco__cluster_hardware(&hw, t, w, p, NULL);
    double N = T(ACCELERATORS), nodes = N / T(ACCELERATORS_PER_NODE), o = T(OWNED_SHARE);
    pl->N = N;
    pl->H = HOURS_PER_YEAR;
    pl->capacity = N * HOURS_PER_YEAR;
    pl->o = o;
    pl->r = T(RESERVED_SHARE);
    pl->s = T(SPOT_SHARE);
    pl->od = hw.rates.on_demand;
    pl->spot = hw.rates.spot;
    pl->reserved = hw.rates.reserved;
    double kw = hw.it_kw / N, kwh = P(ELECTRICITY_PER_KWH);
    pl->power_h = kw * kwh;
    pl->cooling_h = kw * (T(PUE) - 1) * kwh;
    pl->rented_energy = hw.rented_energy;

    /* Fixed: the owned share's annuities, the reserved term in full, the
     * provisioned storage, and the shared services of a year. */
    double *f = pl->fixed;
    f[TCO_CAT_COMPUTE] = o * N * hw.owned_per_year + (1 - o) * pl->r * pl->capacity * pl->reserved;
    f[TCO_CAT_POWER] = o * hw.facility_per_year;
    f[TCO_CAT_COOLING] = o * hw.plant_per_year;
    f[TCO_CAT_NETWORK] = o * hw.fabric_per_year;
    f[TCO_CAT_STORAGE] = 12 * (T(STORAGE_HOT_TB) * 1e3 * P(STORAGE_HOT_PER_GB_MONTH) +
                               T(STORAGE_HOT_GBPS) * P(STORAGE_HOT_PER_GBPS_MONTH) +
                               T(STORAGE_WARM_TB) * 1e3 * P(STORAGE_WARM_PER_GB_MONTH) +
                               T(STORAGE_COLD_TB) * 1e3 * P(STORAGE_COLD_PER_GB_MONTH));
    f[TCO_CAT_DATABASE] = 12 * (W(DATABASE_INSTANCES) * P(DATABASE_PER_INSTANCE_MONTH) +
                                W(DATABASE_GB) * P(DATABASE_PER_GB_MONTH));
    /* Metrics are sampled from every accelerator all year; logs follow use. */
    double kept_months = W(LOG_RETENTION_DAYS) / DAYS_PER_MONTH;
    double samples = N * W(METRICS_PER_ACCELERATOR) * HOURS_PER_YEAR * 3600 / W(METRICS_INTERVAL_SECONDS);
    f[TCO_CAT_LOGGING] = samples / 1e6 * P(METRICS_PER_MILLION_SAMPLES) +
                         samples * W(METRIC_SAMPLE_BYTES) / 1e9 * kept_months * P(LOG_RETAINED_PER_GB_MONTH);
    pl->log_h = W(LOG_BYTES_PER_ACCEL_HOUR) / 1e9 * (P(LOG_INGEST_PER_GB) + kept_months * P(LOG_RETAINED_PER_GB_MONTH));
    f[TCO_CAT_SECURITY] = 12 * (nodes * P(SECURITY_PER_NODE_MONTH) + P(SECURITY_FIXED_PER_MONTH));
    f[TCO_CAT_PLATFORM] = 12 * nodes * P(PLATFORM_PER_NODE_MONTH);
    f[TCO_CAT_STAFF] = fmax(P(MIN_FTE), nodes / P(NODES_PER_FTE)) * P(STAFF_PER_FTE_YEAR) +
                       hw.events_per_hour * HOURS_PER_YEAR;
    f[TCO_CAT_COMPUTE] += hw.spares_per_hour * HOURS_PER_YEAR; /* failures happen whatever the use */
    pl->owned_fixed = o * (N * hw.owned_per_year + hw.facility_per_year + hw.plant_per_year + hw.fabric_per_year);
    pl->colocation = o * 12 * hw.plant_kw * P(COLOCATION_PER_KW_MONTH);
    pl->risk = P(RISK_PREMIUM_SHARE);
    pl->one_off = tco__one_off(t, p, &hw, HUGE_VAL); /* a life carries all of it, in its first year */
    pl->goodput = goodput;

    /* Cash: the owned share's purchases. The IT (accelerators, servers,
     * fabric) lives depreciation_years; the plant and facility their own. */
    pl->it_price = o * (N * hw.accel_price + hw.fabric_capex);
    pl->plant_price = o * (hw.plant_capex + hw.facility_capex);
    pl->maintenance = P(MAINTENANCE_SHARE_PER_YEAR);
    pl->it_life = P(DEPRECIATION_YEARS);
    pl->it_residual = P(RESIDUAL_SHARE);
    pl->fabric_price = o * hw.fabric_capex;
    pl->fabric_residual = P(FABRIC_RESIDUAL_SHARE);
    pl->plant_life = P(FACILITY_LIFE_YEARS) > 0 ? P(FACILITY_LIFE_YEARS) : P(DEPRECIATION_YEARS);
    pl->plant_residual = P(FACILITY_RESIDUAL_SHARE);
}

/* Book value of what cost price, age years into a life written off
 * straight to its residual share. */
static double book(double price, double age, double life, double residual)
{
    double left = age < life ? 1 - age / life : 0;
    return price * (residual + (1 - residual) * left);
}

/* What the owned IT (the accelerators with their servers, and the fabric,
 * each at its residual) is worth age years into its life. */
static double it_book(const plan *pl, double age)
{
    return book(pl->it_price - pl->fabric_price, age, pl->it_life, pl->it_residual) +
           book(pl->fabric_price, age, pl->it_life, pl->fabric_residual);
}

/* Year y (1-based) at utilisation u into *out (this version's struct). */
static void year_of(tco_lifetime_year *out, const plan *pl, int32_t y, double u, int refreshed)
{
    memset(out, 0, sizeof *out);
    out->size = sizeof *out;
    out->year = y;
    out->refreshed = refreshed;
    out->utilisation = u;
    double C = pl->capacity, used = u * C;
    out->capacity_accelerator_hours = C;
    out->used_accelerator_hours = used;
    out->effective_accelerator_hours = used * pl->goodput;

    /* Use fills the capacity already paid for (owned and reserved, in
     * proportion) before any rented by the hour (spot and on demand, in
     * their proportion). */
    double co = pl->o * C, cr = (1 - pl->o) * pl->r * C, paid = co + cr;
    double in_paid = fmin(used, paid), uo = paid > 0 ? in_paid * co / paid : 0, ur = in_paid - uo;
    double elastic = used - in_paid, rented_rest = 1 - pl->r;
    double us = rented_rest > 0 ? elastic * pl->s / rented_rest : 0, ud = elastic - us;

    double var[CATS] = { 0 };
    var[TCO_CAT_COMPUTE] = ud * pl->od + us * pl->spot;
    double energy_h = pl->rented_energy ? used : uo; /* the hours whose energy is paid apart */
    var[TCO_CAT_POWER] = energy_h * pl->power_h;
    var[TCO_CAT_COOLING] = energy_h * pl->cooling_h;
    var[TCO_CAT_LOGGING] = used * pl->log_h;
    double fixed[CATS];
    memcpy(fixed, pl->fixed, sizeof fixed);
    if (y == 1)
        fixed[TCO_CAT_INDIRECT] += pl->one_off;
    /* The risk premium: a share of everything else, fixed and variable alike. */
    double rest_fixed = 0, rest_var = 0;
    for (int k = 0; k < CATS; k++)
        if (k != TCO_CAT_INDIRECT)
            rest_fixed += fixed[k], rest_var += var[k];
    fixed[TCO_CAT_INDIRECT] += pl->risk * rest_fixed;
    var[TCO_CAT_INDIRECT] += pl->risk * rest_var;
    for (int k = 0; k < CATS; k++) {
        out->fixed[k] = fixed[k];
        out->cost[k] = fixed[k] + var[k];
        out->total += out->cost[k];
        out->fixed_total += fixed[k];
    }
    out->unused_owned = co > 0 ? (co - uo) / co * pl->owned_fixed : 0;
    out->unused_commitment_hours = cr - ur;
    out->unused_commitment = out->unused_commitment_hours * pl->reserved;
}

/* ---- tco_lifetime_compute ------------------------------------------------------ */

int tco_lifetime_compute(tco_lifetime *out, tco_lifetime_year *years, size_t year_size, size_t n_years,
                         const tco_lifetime_request *request, const tco_topology *topology,
                         const tco_workload *workload, const tco_pricing *pricing, tco_error *err)
{
    if (!out || !request)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "request");
    if (out->size < LIFETIME_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_lifetime", out->size, LIFETIME_V1_SIZE);
    int rc = request_check(request, err);
    if (rc)
        return rc;
    if (n_years && !years)
        return tco__fail(err, TCO_E_NULL, "years must not be NULL when n_years = %zu", n_years);
    if (years) {
        if ((rc = tco__stride_check(year_size, YEAR_V1_SIZE, "year_size", "tco_lifetime_year", err)))
            return rc;
        if (n_years < (size_t)request->years)
            return tco__fail_named(err, TCO_E_SIZE, "n_years", "n_years = %zu: the %d years need as many", n_years,
                                   (int)request->years);
    }
    if ((rc = tco__frozen_inputs(topology, workload, pricing, err)))
        return rc;
    const tco_obj *t = &topology->o, *w = &workload->o, *p = &pricing->o;
    /* The goodput of the workload's run: what share of a used hour counts. */
    train_run run;
    if ((rc = tco__run_derive(&run, t, w, p, err)))
        return rc;
    plan pl;
    plan_of(&pl, t, w, p, run.useful / run.billed); /* billed > 0 in every run derived */

    const tco_lifetime_request *q = request;
    double d = q->discount_rate, pv_hours = 0;
    tco_lifetime life;
    memset(&life, 0, sizeof life);
    life.size = sizeof life;
    life.years = q->years;
    tco_lifetime_year yr;
    int32_t R = q->refresh_year;
    for (int32_t y = 1; y <= q->years; y++) {
        double u = q->utilisation_by_year ? q->utilisation_by_year[y - 1] : q->utilisation;
        int refreshed = R > 0 && y == R + 1 && pl.it_price > 0; /* only owned IT is bought again */
        year_of(&yr, &pl, y, u, refreshed);

        /* Cash: purchases at the start (the facility and the IT in the first
         * year; at a refresh, the IT again less what the old is worth), the
         * running costs over the year (the annuities replaced by the
         * maintenance they include), and at the end of the last year what
         * the hardware in service is worth. */
        double it_age_end = R > 0 && y > R ? y - R : y;
        if (y == 1)
            yr.capex = pl.it_price + pl.plant_price;
        if (refreshed)
            yr.capex = pl.it_price - it_book(&pl, R);
        double annuities = pl.owned_fixed - pl.colocation;
        yr.running = yr.total - annuities + pl.maintenance * (pl.it_price + pl.plant_price);
        if (y == q->years)
            yr.salvage = it_book(&pl, it_age_end) +
                         book(pl.plant_price, y, pl.plant_life, pl.plant_residual);
        double start = pow(1 + d, -(double)(y - 1)), end = pow(1 + d, -(double)y);
        yr.present_value = yr.capex * start + (yr.running - yr.salvage) * end;

        for (int k = 0; k < CATS; k++) {
            life.cost[k] += yr.cost[k];
            life.fixed[k] += yr.fixed[k];
        }
        life.total += yr.total;
        life.fixed_total += yr.fixed_total;
        life.capacity_accelerator_hours += yr.capacity_accelerator_hours;
        life.used_accelerator_hours += yr.used_accelerator_hours;
        life.effective_accelerator_hours += yr.effective_accelerator_hours;
        life.unused_owned += yr.unused_owned;
        life.unused_commitment += yr.unused_commitment;
        life.unused_commitment_hours += yr.unused_commitment_hours;
        life.capex += yr.capex;
        life.running += yr.running;
        life.salvage += yr.salvage;
        life.npv += yr.present_value;
        pv_hours += yr.effective_accelerator_hours * end;
        if (years) {
            tco_lifetime_year *dst = (tco_lifetime_year *)((char *)years + (size_t)(y - 1) * year_size);
            dst->size = year_size;
            sized_fill(dst, &yr, sizeof yr);
        }
    }
    life.cost_per_effective_accelerator_hour =
        life.effective_accelerator_hours > 0 ? life.total / life.effective_accelerator_hours : 0;
    life.levelised_cost_per_effective_accelerator_hour = pv_hours > 0 ? life.npv / pv_hours : 0;
    sized_fill(out, &life, sizeof life);
    return TCO_OK;
}
