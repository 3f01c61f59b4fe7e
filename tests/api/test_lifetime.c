/* Black-box tests of tco_lifetime_compute (tco.h only): a cluster over its
 * life (doc/model.md, section 18).
 *
 * Two hand-worked clusters of 8 accelerators, every shared service priced
 * at zero so that each figure is the hardware's alone: three years of a
 * reserved term used half the time (the unused half is the unused
 * commitment), and five years of owned hardware with a facility of its own,
 * refreshed after its four-year life. Every expected figure is written out
 * here from the definitions. */
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

#define H 8766.0 /* the library's year, in hours */

static double annuity(double price, double residual_share, double i, double years, double maint)
{
    double crf = i > 0 ? i / (1 - pow(1 + i, -years)) : 1 / years;
    return (price - price * residual_share * pow(1 + i, -years)) * crf + maint * price;
}

static void near(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want) + 1e-9))
        fail_msg("got %.17g, want %.17g (relative %g)", got, want, rel);
}

/* 8 accelerators in one node; nothing but the hardware costs anything. */
static void scen_make(scen *s)
{
    scen_defaults(s);
    ST(s, TCO_P_ACCELERATORS, 8);
    ST(s, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(s, TCO_P_ACCELERATOR_TDP_WATTS, 700);
    ST(s, TCO_P_NODE_OVERHEAD_WATTS, 3000);
    ST(s, TCO_P_PUE, 1.2);
    SW(s, TCO_P_JOB_ACCELERATORS, 8);
    SW(s, TCO_P_PARAMS_TOTAL, 7e9); /* a run that fits: its goodput makes used hours effective */
    SW(s, TCO_P_PARAMS_ACTIVE, 7e9);
    SW(s, TCO_P_TENSOR_PARALLEL, 8);
    SW(s, TCO_P_PIPELINE_PARALLEL, 1);
    SW(s, TCO_P_POWER_DRAW_SHARE, 0.8);
    scen_no_shared_services(s);
    SP(s, TCO_P_STORAGE_HOT_PER_GBPS_MONTH, 0);
    SP(s, TCO_P_SWITCH_PRICE, 0);
    SP(s, TCO_P_OPTIC_PRICE, 0);
    SP(s, TCO_P_CABLE_PRICE, 0);
    SP(s, TCO_P_COOLING_AIR_CAPEX_PER_KW, 0);
    SP(s, TCO_P_ELECTRICITY_PER_KWH, 0.10);
}

static tco_lifetime life_of(const scen *s, const tco_lifetime_request *q, tco_lifetime_year *years, size_t n)
{
    tco_lifetime life;
    memset(&life, 0, sizeof life);
    life.size = sizeof life;
    tco_error err = TCO_ERROR_INIT;
    if (tco_lifetime_compute(&life, years, sizeof *years, n, q, s->t, s->w, s->p, &err))
        fail_msg("%s", err.message);
    return life;
}

static double goodput(const scen *s)
{
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    assert_int_equal(tco_estimate_compute(&e, s->t, s->w, s->p, NULL), TCO_OK);
    return e.effective_accelerator_hours / e.accelerator_hours;
}

/* Three years rented on a reserved term at 2.50, used half the time. */
static void test_reserved_term(void **state)
{
    (void)state;
    scen s;
    scen_make(&s);
    ST(&s, TCO_P_OWNED_SHARE, 0);
    ST(&s, TCO_P_RESERVED_SHARE, 1);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    scen_freeze(&s);
    tco_lifetime_request q;
    tco_lifetime_request_init(&q);
    q.years = 3;
    q.utilisation = 0.5;
    q.discount_rate = 0.10;
    tco_lifetime_year y[3];
    tco_lifetime life = life_of(&s, &q, y, 3);
    /* The term is paid in full: 8 x 8,766 = 70,128 hours x 2.50 = 175,320 a
     * year, all fixed; half of it, 35,064 hours = 87,660, unused. */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(y[i].year, i + 1);
        near(y[i].capacity_accelerator_hours, 8 * H, 1e-15);
        near(y[i].used_accelerator_hours, 4 * H, 1e-15);
        near(y[i].cost[TCO_CAT_COMPUTE], 175320, 1e-14);
        near(y[i].fixed[TCO_CAT_COMPUTE], 175320, 1e-14);
        near(y[i].total, 175320, 1e-14);
        near(y[i].unused_commitment_hours, 35064, 1e-14);
        near(y[i].unused_commitment, 87660, 1e-14);
        near(y[i].unused_owned, 0, 0);
        near(y[i].capex, 0, 0);
        near(y[i].running, 175320, 1e-14);
    }
    /* Paid at the end of each year, discounted at 10%. */
    near(life.npv, 175320 * (1 / 1.1 + 1 / 1.21 + 1 / 1.331), 1e-13);
    near(life.total, 3 * 175320, 1e-14);
    near(life.unused_commitment, 3 * 87660, 1e-14);
    double g = goodput(&s);
    near(life.effective_accelerator_hours, 3 * 4 * H * g, 1e-13);
    near(life.cost_per_effective_accelerator_hour, 3 * 175320 / (3 * 4 * H * g), 1e-13);
    near(life.levelised_cost_per_effective_accelerator_hour,
         life.npv / (4 * H * g * (1 / 1.1 + 1 / 1.21 + 1 / 1.331)), 1e-13);

    /* Above the reserved capacity nothing is left to rent by the hour: a
     * term of half the cluster, the rest on demand at 4.00, used 80%: the
     * term 35,064 h x 2.5 = 87,660 fixed, fully used; 56,102.4 - 35,064 =
     * 21,038.4 h on demand x 4 = 84,153.6 variable. */
    scen_free(&s);
    scen_make(&s);
    ST(&s, TCO_P_OWNED_SHARE, 0);
    ST(&s, TCO_P_RESERVED_SHARE, 0.5);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    scen_freeze(&s);
    q.years = 1;
    q.utilisation = 0.8;
    life_of(&s, &q, y, 1);
    near(y[0].fixed[TCO_CAT_COMPUTE], 87660, 1e-14);
    near(y[0].cost[TCO_CAT_COMPUTE], 87660 + 84153.6, 1e-14);
    near(y[0].unused_commitment, 0, 0);
    scen_free(&s);
}

/* The fabric is sold at its own residual: 8 NICs on one radix-64 switch,
 * 8 links with an optic at each end (30,000 + 16 x 800 + 8 x 100 =
 * 43,600), written off over four years, is worth 20% of its price after
 * them rather than the nodes' 10%; its annuity falls by the discounted
 * difference, as the estimate's does. */
static void test_fabric_salvage(void **state)
{
    (void)state;
    double salvage[2], fabric[2];
    for (int k = 0; k < 2; k++) {
        scen s;
        scen_make(&s);
        ST(&s, TCO_P_OWNED_SHARE, 1);
        SP(&s, TCO_P_CAPEX_PER_ACCELERATOR, 25000);
        SP(&s, TCO_P_SWITCH_PRICE, 30000);
        SP(&s, TCO_P_OPTIC_PRICE, 800);
        SP(&s, TCO_P_CABLE_PRICE, 100);
        SP(&s, TCO_P_RESIDUAL_SHARE, 0.1);
        SP(&s, TCO_P_FABRIC_RESIDUAL_SHARE, k ? 0.2 : 0.1);
        scen_freeze(&s);
        tco_lifetime_request q;
        tco_lifetime_request_init(&q);
        q.years = 4;
        tco_lifetime_year y[4];
        life_of(&s, &q, y, 4);
        salvage[k] = y[3].salvage;
        fabric[k] = y[0].fixed[TCO_CAT_NETWORK];
        /* no refresh: the IT, 8 x (25,000 + the server's 100,000 / 8) +
         * 43,600, bought once, at the start */
        near(y[0].capex, 343600, 1e-15);
        for (int i = 0; i < 4; i++) {
            assert_int_equal(y[i].refreshed, 0);
            if (i)
                near(y[i].capex, 0, 0);
        }
        tco_estimate e = { .size = sizeof e };
        assert_int_equal(tco_estimate_compute(&e, s.t, s.w, s.p, NULL), TCO_OK);
        assert_rel(e.fabric_capex, 43600, 1e-15);
        scen_free(&s);
    }
    near(salvage[1] - salvage[0], 0.1 * 43600, 1e-12);
    /* worth 10% of the nodes' 300,000 and 10% or 20% of the fabric's 43,600
     * after the four years (no plant is priced) */
    near(salvage[0], 30000 + 4360, 1e-12);
    near(salvage[1], 30000 + 8720, 1e-12);
    near(fabric[0] - fabric[1], 0.1 * 43600 * pow(1.08, -4) * 0.08 / (1 - pow(1.08, -4)), 1e-12);
}

/* Five years owned: the IT (8 x 37,500 = 300,000) over four years at 8%
 * with 10% back and 3% maintenance, refreshed after four; a facility of
 * 1,000 per kW of plant (8 x 700 + 3,000 W = 8.6 kW: 8,600) over ten years
 * with nothing back. Used 60%. */
static void test_owned_refreshed(void **state)
{
    (void)state;
    scen s;
    scen_make(&s);
    ST(&s, TCO_P_OWNED_SHARE, 1);
    SP(&s, TCO_P_CAPEX_PER_ACCELERATOR, 25000);
    SP(&s, TCO_P_CAPEX_PER_SERVER, 100000);
    SP(&s, TCO_P_DEPRECIATION_YEARS, 4);
    SP(&s, TCO_P_RESIDUAL_SHARE, 0.1);
    SP(&s, TCO_P_COST_OF_CAPITAL, 0.08);
    SP(&s, TCO_P_MAINTENANCE_SHARE_PER_YEAR, 0.03);
    SP(&s, TCO_P_FACILITY_CAPEX_PER_KW, 1000);
    SP(&s, TCO_P_FACILITY_LIFE_YEARS, 10);
    scen_freeze(&s);
    tco_lifetime_request q;
    tco_lifetime_request_init(&q);
    q.years = 5;
    q.refresh_year = 4;
    q.utilisation = 0.6;
    q.discount_rate = 0.08;
    tco_lifetime_year y[6];
    tco_lifetime life = life_of(&s, &q, y, 6);

    double it = 8 * annuity(37500, 0.1, 0.08, 4, 0.03); /* 8 x 11,614.83 */
    near(it, 8 * 11614.8271503238, 1e-12);
    double facility = annuity(8600, 0, 0.08, 10, 0.03);
    double used = 0.6 * 8 * H;
    double kw = (8 * 700 * 0.8 + 3000) / 1000.0 / 8; /* 0.935 kW an accelerator at 80% draw */
    double power = used * kw * 0.10, cooling = used * kw * 0.2 * 0.10;
    double total = it + facility + power + cooling;
    double running = total - it - facility + 0.03 * (300000 + 8600);
    double pv = 0;
    for (int i = 0; i < 5; i++) {
        near(y[i].cost[TCO_CAT_COMPUTE], it, 1e-13);
        near(y[i].fixed[TCO_CAT_COMPUTE], it, 1e-13);
        near(y[i].cost[TCO_CAT_POWER], facility + power, 1e-13);
        near(y[i].fixed[TCO_CAT_POWER], facility, 1e-13);
        near(y[i].cost[TCO_CAT_COOLING], cooling, 1e-13);
        near(y[i].fixed[TCO_CAT_COOLING], 0, 0);
        near(y[i].total, total, 1e-13);
        near(y[i].fixed_total, it + facility, 1e-13);
        near(y[i].unused_owned, 0.4 * (it + facility), 1e-13);
        near(y[i].running, running, 1e-12);
        assert_int_equal(y[i].refreshed, i == 4);
    }
    /* Cash: 308,600 at the start; after four years the IT again, less the
     * old at its residual: 300,000 - 30,000 = 270,000; at the end the new
     * IT is a year old, worth 300,000 x (0.1 + 0.9 x 3/4) = 232,500, the
     * facility half written off, 4,300. */
    near(y[0].capex, 308600, 1e-15);
    near(y[4].capex, 270000, 1e-15);
    near(y[4].salvage, 232500 + 4300, 1e-15);
    for (int i = 0; i < 5; i++)
        pv += y[i].capex * pow(1.08, -i) + (y[i].running - y[i].salvage) * pow(1.08, -(i + 1));
    near(life.npv, pv, 1e-13);
    near(life.npv, 308600 + 270000 / pow(1.08, 4) - 236800 / pow(1.08, 5) +
                       running * (1 - pow(1.08, -5)) / 0.08,
         1e-12);
    near(life.total, 5 * total, 1e-13);
    near(life.fixed_total, 5 * (it + facility), 1e-13);
    near(life.capex, 578600, 1e-15);
    scen_free(&s);
}

/* Bad input: an error naming the field, nothing written. */
static void test_errors(void **state)
{
    (void)state;
    scen s;
    scen_make(&s);
    scen_freeze(&s);
    tco_lifetime_request q;
    tco_lifetime life;
    memset(&life, 0x5a, sizeof life);
    life.size = sizeof life;
    tco_lifetime_year y[5];
    tco_error err = TCO_ERROR_INIT;
    struct {
        const char *field;
        int code;
    } cases[] = {
        { "request.years", TCO_E_RANGE },          { "request.refresh_year", TCO_E_RANGE },
        { "request.refresh_year", TCO_E_RANGE },   { "request.utilisation", TCO_E_RANGE },
        { "request.discount_rate", TCO_E_RANGE },  { "request.discount_rate", TCO_E_NOT_FINITE },
        { "request.utilisation_by_year[2]", TCO_E_RANGE },
    };
    double by_year[5] = { 0.5, 0.5, 1.5, 0.5, 0.5 };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tco_lifetime_request_init(&q);
        switch (i) {
        case 0: q.years = 0; break;
        case 1: q.refresh_year = -1; break;  /* before the start */
        case 2: q.refresh_year = 5; break;   /* at the end of five years */
        case 3: q.utilisation = 1.01; break;
        case 4: q.discount_rate = -1; break; /* -100% */
        case 5: q.discount_rate = NAN; break;
        case 6: q.utilisation_by_year = by_year; break;
        }
        assert_int_equal(tco_lifetime_compute(&life, y, sizeof *y, 5, &q, s.t, s.w, s.p, &err), cases[i].code);
        assert_string_equal(err.param_name, cases[i].field);
    }
    tco_lifetime_request_init(&q);
    assert_int_equal(tco_lifetime_compute(&life, y, sizeof *y, 4, &q, s.t, s.w, s.p, &err), TCO_E_SIZE);
    assert_int_equal(tco_lifetime_compute(&life, y, 12, 5, &q, s.t, s.w, s.p, &err), TCO_E_SIZE);
    assert_int_equal(tco_lifetime_compute(&life, y, 1 << 20, 5, &q, s.t, s.w, s.p, &err), TCO_E_SIZE);
    assert_int_equal(tco_lifetime_compute(&life, NULL, sizeof *y, 5, &q, s.t, s.w, s.p, &err), TCO_E_NULL);
    life.size = (size_t)1 << 40; /* a size past any struct: refused, not written past */
    assert_int_equal(tco_lifetime_compute(&life, NULL, 0, 0, &q, s.t, s.w, s.p, &err), TCO_E_SIZE);
    life.size = sizeof life;
    assert_int_equal(tco_lifetime_compute(&life, NULL, 0, 0, NULL, s.t, s.w, s.p, &err), TCO_E_NULL);
    /* Nothing was written by the refused calls. */
    unsigned char *b = (unsigned char *)&life + sizeof life.size;
    for (size_t i = 0; i < sizeof life - sizeof life.size; i++)
        assert_int_equal(b[i], 0x5a);
    /* Unfrozen handles. */
    tco_pricing *p;
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    assert_int_equal(tco_lifetime_compute(&life, NULL, 0, 0, &q, s.t, s.w, p, &err), TCO_E_NOT_FROZEN);
    tco_pricing_free(p);

    /* The summary alone, and a year by year utilisation. */
    q.years = 5;
    q.utilisation_by_year = (double[]){ 0.2, 0.4, 0.6, 0.8, 1.0 };
    assert_int_equal(tco_lifetime_compute(&life, y, sizeof *y, 5, &q, s.t, s.w, s.p, &err), TCO_OK);
    near(life.used_accelerator_hours, 3.0 * 8 * H, 1e-14);
    near(y[4].utilisation, 1.0, 0);
    scen_free(&s);
}

/* Goodput over the held hours: a used accelerator-hour is effective in the
 * share the run's compute takes of the hours the cluster is held (wall
 * plus queue), not of the wall time alone (doc/model.md, lifetime). The
 * whole cluster runs the job (8 of 8), one run, 100 h of queue:
 * goodput = compute / (wall + 100). */
static void test_goodput_over_held_hours(void **state)
{
    (void)state;
    scen s;
    scen_make(&s);
    ST(&s, TCO_P_OWNED_SHARE, 0);
    ST(&s, TCO_P_RESERVED_SHARE, 1);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SW(&s, TCO_P_QUEUE_WAIT_HOURS, 100);
    scen_freeze(&s);
    tco_estimate e = { .size = sizeof e };
    assert_int_equal(tco_estimate_compute(&e, s.t, s.w, s.p, NULL), TCO_OK);
    double g = e.compute_hours / (e.wall_hours + 100);
    assert_true(g < 0.99 * e.goodput); /* the premise: the queue matters */
    tco_lifetime_request q;
    tco_lifetime_request_init(&q);
    q.years = 1;
    q.utilisation = 0.5;
    tco_lifetime_year y[1];
    tco_lifetime life = life_of(&s, &q, y, 1);
    near(life.effective_accelerator_hours, 4 * H * g, 1e-13);
    near(life.cost_per_effective_accelerator_hour, 175320 / (4 * H * g), 1e-13);
    scen_free(&s);
}

/* A year of every shared service, rented: half the cluster on a reserved
 * term at 2.50, a quarter of it on spot at 1.50, the rest on demand at
 * 4.00, used 75%; rental rates without power (rental_includes_power 0),
 * a risk premium of 5%. C = 70,128 h; the term Cr = 35,064 h is used in
 * full, and the 17,532 h beyond it are rented by the hour: spot takes
 * 0.25 / (1 - 0.5) of them, 8,766 h, on demand the other 8,766 h. */
static void test_shared_services(void **state)
{
    (void)state;
    scen s;
    scen_make(&s);
    ST(&s, TCO_P_OWNED_SHARE, 0);
    ST(&s, TCO_P_RESERVED_SHARE, 0.5);
    ST(&s, TCO_P_SPOT_SHARE, 0.25);
    ST(&s, TCO_P_STORAGE_HOT_TB, 10);
    ST(&s, TCO_P_STORAGE_HOT_GBPS, 5);
    ST(&s, TCO_P_STORAGE_WARM_TB, 20);
    ST(&s, TCO_P_STORAGE_COLD_TB, 100);
    SW(&s, TCO_P_COUNT_FAILURES, 0); /* no failures: staff is its FTEs alone */
    SW(&s, TCO_P_DATABASE_INSTANCES, 2);
    SW(&s, TCO_P_DATABASE_GB, 100);
    SW(&s, TCO_P_METRICS_PER_ACCELERATOR, 10);
    SW(&s, TCO_P_METRICS_INTERVAL_SECONDS, 60);
    SW(&s, TCO_P_METRIC_SAMPLE_BYTES, 100);
    SW(&s, TCO_P_LOG_RETENTION_DAYS, 365.25 / 6); /* two months */
    SW(&s, TCO_P_LOG_BYTES_PER_ACCEL_HOUR, 1e9);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(&s, TCO_P_SPOT_PER_ACCEL_HOUR, 1.5);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SP(&s, TCO_P_RENTAL_INCLUDES_POWER, 0);
    SP(&s, TCO_P_STORAGE_HOT_PER_GB_MONTH, 0.02);
    SP(&s, TCO_P_STORAGE_HOT_PER_GBPS_MONTH, 100);
    SP(&s, TCO_P_STORAGE_WARM_PER_GB_MONTH, 0.01);
    SP(&s, TCO_P_STORAGE_COLD_PER_GB_MONTH, 0.001);
    SP(&s, TCO_P_DATABASE_PER_INSTANCE_MONTH, 500);
    SP(&s, TCO_P_DATABASE_PER_GB_MONTH, 0.25);
    SP(&s, TCO_P_METRICS_PER_MILLION_SAMPLES, 0.5);
    SP(&s, TCO_P_LOG_RETAINED_PER_GB_MONTH, 0.03);
    SP(&s, TCO_P_LOG_INGEST_PER_GB, 0.5);
    SP(&s, TCO_P_SECURITY_PER_NODE_MONTH, 50);
    SP(&s, TCO_P_SECURITY_FIXED_PER_MONTH, 1000);
    SP(&s, TCO_P_PLATFORM_PER_NODE_MONTH, 200);
    SP(&s, TCO_P_STAFF_PER_FTE_YEAR, 120000);
    SP(&s, TCO_P_MIN_FTE, 0.5);
    SP(&s, TCO_P_NODES_PER_FTE, 4);
    SP(&s, TCO_P_RISK_PREMIUM_SHARE, 0.05);
    scen_freeze(&s);
    tco_lifetime_request q;
    tco_lifetime_request_init(&q);
    q.years = 1;
    q.utilisation = 0.75;
    tco_lifetime_year y[1];
    tco_lifetime life = life_of(&s, &q, y, 1);
    double U = 0.75 * 8 * H; /* 52,596 h */
    /* compute: the term, 35,064 x 2.5 = 87,660 fixed; 8,766 x 4 + 8,766 x
     * 1.5 = 48,213 variable */
    near(y[0].fixed[TCO_CAT_COMPUTE], 87660, 1e-14);
    near(y[0].cost[TCO_CAT_COMPUTE], 87660 + 48213, 1e-14);
    near(y[0].unused_commitment_hours, 0, 0);
    /* power and cooling of every used hour, 0.935 kW each (the IT at 80%
     * draw over 8): 52,596 x 0.935 x 0.10 = 4,917.726, and x 0.2 (pue - 1):
     * 983.5452 */
    near(y[0].cost[TCO_CAT_POWER], U * 0.935 * 0.10, 1e-13);
    near(y[0].cost[TCO_CAT_POWER], 4917.726, 1e-13);
    near(y[0].cost[TCO_CAT_COOLING], 983.5452, 1e-13);
    near(y[0].fixed[TCO_CAT_POWER], 0, 0);
    /* storage: 12 x (10,000 GB x 0.02 + 5 GB/s x 100 + 20,000 x 0.01 +
     * 100,000 x 0.001) = 12 x 1,000 = 12,000 */
    near(y[0].cost[TCO_CAT_STORAGE], 12000, 1e-14);
    near(y[0].fixed[TCO_CAT_STORAGE], 12000, 1e-14);
    /* database: 12 x (2 x 500 + 100 x 0.25) = 12,300 */
    near(y[0].cost[TCO_CAT_DATABASE], 12300, 1e-14);
    /* logging: 8 x 10 metrics every 60 s all year, 42,076,800 samples: x
     * 0.5 a million = 21.0384, their 4.20768 GB kept two months at 0.03:
     * 0.2524608, fixed; 1 GB of logs a used hour, ingested at 0.5 and kept
     * two months: 52,596 x 0.56 = 29,453.76, variable */
    near(y[0].fixed[TCO_CAT_LOGGING], 21.0384 + 0.2524608, 1e-12);
    near(y[0].cost[TCO_CAT_LOGGING], 21.2908608 + 29453.76, 1e-13);
    /* security 12 x (1 node x 50 + 1,000) = 12,600; platform 12 x 200 =
     * 2,400; staff max(0.5, 1 / 4) FTE x 120,000 = 60,000 */
    near(y[0].cost[TCO_CAT_SECURITY], 12600, 1e-14);
    near(y[0].cost[TCO_CAT_PLATFORM], 2400, 1e-14);
    near(y[0].cost[TCO_CAT_STAFF], 60000, 1e-14);
    /* indirect: 5% of the fixed rest, 186,981.2908608, and of the variable
     * rest, 48,213 + 4,917.726 + 983.5452 + 29,453.76 = 83,568.0312 */
    near(y[0].fixed[TCO_CAT_INDIRECT], 0.05 * 186981.2908608, 1e-13);
    near(y[0].cost[TCO_CAT_INDIRECT], 0.05 * (186981.2908608 + 83568.0312), 1e-13);
    near(y[0].total, 1.05 * (186981.2908608 + 83568.0312), 1e-13);
    near(y[0].fixed_total, 1.05 * 186981.2908608, 1e-13);
    near(life.total, y[0].total, 1e-15);
    /* nothing owned: every cost is running cash */
    near(y[0].running, y[0].total, 1e-15);

    /* A year nobody used: no effective hours, so no cost per one (0, not
     * NaN); the term and the services are paid all the same. */
    q.utilisation = 0;
    life = life_of(&s, &q, y, 1);
    near(life.effective_accelerator_hours, 0, 0);
    assert_true(life.cost_per_effective_accelerator_hour == 0);
    assert_true(life.levelised_cost_per_effective_accelerator_hour == 0);
    near(y[0].unused_commitment_hours, 35064, 1e-15);
    near(y[0].fixed_total, 1.05 * 186981.2908608, 1e-13); /* metrics are sampled all the same */

    /* A workload the cluster cannot run (16 accelerators of 8): refused,
     * naming it. */
    scen_free(&s);
    scen_make(&s);
    SW(&s, TCO_P_JOB_ACCELERATORS, 16);
    scen_freeze(&s);
    tco_error err = TCO_ERROR_INIT;
    life.size = sizeof life;
    assert_int_equal(tco_lifetime_compute(&life, NULL, 0, 0, &q, s.t, s.w, s.p, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "job_accelerators");
    scen_free(&s);
}

/* The platform is paid by the node: two nodes of 8 at 200 a node-month,
 * 12 x 2 x 200 = 4,800 a year. Over 50 years, the longest horizon
 * allowed (lifetime.c's YEARS_MAX); 51 is refused. */
static void test_platform_by_node_longest_horizon(void **state)
{
    (void)state;
    scen s;
    scen_make(&s);
    ST(&s, TCO_P_ACCELERATORS, 16);
    SP(&s, TCO_P_PLATFORM_PER_NODE_MONTH, 200);
    scen_freeze(&s);
    tco_lifetime_request q;
    tco_lifetime_request_init(&q);
    q.years = 50;
    static tco_lifetime_year y[51];
    life_of(&s, &q, y, 50);
    near(y[0].cost[TCO_CAT_PLATFORM], 4800, 1e-15);
    q.years = 51;
    tco_lifetime life = { .size = sizeof life };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_lifetime_compute(&life, y, sizeof *y, 51, &q, s.t, s.w, s.p, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "request.years");
    scen_free(&s);
}

/* Colocation: the owned cluster of test_owned_refreshed in a rented hall
 * at 10 per kW of its 8.6 kW plant a month, 1,032 a year, paid as it goes:
 * the year's cost and its running cash grow by 1,032 (it is no annuity),
 * and 40% of it (the hours unused at 60%) is unused owned capacity. */
static void test_colocation(void **state)
{
    (void)state;
    tco_lifetime_year y[2][1];
    for (int k = 0; k < 2; k++) {
        scen s;
        scen_make(&s);
        ST(&s, TCO_P_OWNED_SHARE, 1);
        SP(&s, TCO_P_CAPEX_PER_ACCELERATOR, 25000);
        SP(&s, TCO_P_CAPEX_PER_SERVER, 100000);
        SP(&s, TCO_P_FACILITY_CAPEX_PER_KW, 1000);
        SP(&s, TCO_P_FACILITY_LIFE_YEARS, 10);
        SP(&s, TCO_P_COLOCATION_PER_KW_MONTH, k ? 10 : 0);
        scen_freeze(&s);
        tco_lifetime_request q;
        tco_lifetime_request_init(&q);
        q.years = 1;
        q.utilisation = 0.6;
        life_of(&s, &q, y[k], 1);
        scen_free(&s);
    }
    near(y[1][0].total - y[0][0].total, 1032, 1e-9);
    near(y[1][0].fixed[TCO_CAT_POWER] - y[0][0].fixed[TCO_CAT_POWER], 1032, 1e-9);
    near(y[1][0].running - y[0][0].running, 1032, 1e-9);
    near(y[1][0].unused_owned - y[0][0].unused_owned, 0.4 * 1032, 1e-9);
    near(y[1][0].capex, y[0][0].capex, 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reserved_term),
        cmocka_unit_test(test_owned_refreshed),
        cmocka_unit_test(test_fabric_salvage),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_goodput_over_held_hours),
        cmocka_unit_test(test_shared_services),
        cmocka_unit_test(test_colocation),
        cmocka_unit_test(test_platform_by_node_longest_horizon),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
