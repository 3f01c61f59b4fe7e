/* The cost of a training scenario, category by category (doc/model.md,
 * sections 1 to 4), from the run that model/run.c derives. */
#include <string.h>

#include "model/model.h"

#define T(k) (t->v[IX_##k])
#define W(k) (w->v[IX_##k])
#define P(k) (p->v[IX_##k])

/* ---- money over time -------------------------------------------------- */

/* Yearly cost of owning hardware bought for `price`, by the annuity the
 * pricing table's freeze derived (core/check.c): the price less the
 * discounted residual repaid over the life, plus maintenance. */
static double owned_per_year(const annuity *a, double price, double residual_share)
{
    return (price - price * residual_share * a->discount) * a->crf + price * a->maintenance;
}

/* ---- the hardware ----------------------------------------------------- */

void tco__hardware(hardware *h, const train_run *r, const tco_obj *t, const tco_obj *w, const tco_obj *p)
{
    const annuity owned = p->d.it;
    const rates *rate = &r->rates;
    h->rates = *rate;
    h->rental_rate = T(RESERVED_SHARE) * rate->reserved + T(SPOT_SHARE) * rate->spot +
                     (1 - T(RESERVED_SHARE) - T(SPOT_SHARE)) * rate->on_demand;
    /* Event-driven operations (doc/model.md, section 3): an hour of it at an
     * engineer's rate; deploying an owned node is paid with its purchase. */
    double automated = 1 - P(AUTOMATION_SHARE);
    h->staff_hour = p->d.staff_hour; /* staff_per_fte_year / staff_hours_per_fte_year */
    double deploy = automated * P(STAFF_HOURS_PER_NODE_DEPLOYED) * h->staff_hour;
    h->accel_price = rate->capex + (P(CAPEX_PER_SERVER) + deploy) * t->d.node_share;
    h->owned_per_year = owned_per_year(&owned, h->accel_price, P(RESIDUAL_SHARE));
    h->it_kw = (r->N * r->tdp * W(POWER_DRAW_SHARE) + r->nodes * T(NODE_OVERHEAD_WATTS)) * 1e-3;
    h->plant_kw = (r->N * r->tdp + r->nodes * T(NODE_OVERHEAD_WATTS)) * 1e-3; /* sized for full load */
    double cooling_price = T(COOLING) == COOLING_LIQUID ? P(COOLING_LIQUID_CAPEX_PER_KW)
                                                        : P(COOLING_AIR_CAPEX_PER_KW);
    /* The plant and the facility over the facility's life, with its
     * residual; colocation instead of (or beside) a facility of one's own. */
    const annuity building = p->d.building;
    h->plant_capex = h->plant_kw * cooling_price;
    h->plant_per_year = owned_per_year(&building, h->plant_capex, P(FACILITY_RESIDUAL_SHARE));
    h->facility_capex = h->plant_kw * P(FACILITY_CAPEX_PER_KW);
    h->facility_per_year = owned_per_year(&building, h->facility_capex, P(FACILITY_RESIDUAL_SHARE)) +
                           12 * h->plant_kw * P(COLOCATION_PER_KW_MONTH);
    const fabric *f = &t->d.fabric; /* sized at freeze */
    h->fabric_capex = f->switches * P(SWITCH_PRICE) + f->optics * P(OPTIC_PRICE) + f->links * P(CABLE_PRICE);
    h->fabric_per_year = owned_per_year(&owned, h->fabric_capex, P(FABRIC_RESIDUAL_SHARE));

    /* Failures of the whole cluster, handled by staff and, on owned
     * hardware, by spare parts; upgrades of every node. */
    h->failures_per_hour = W(COUNT_FAILURES) != 0 ? t->d.cluster_failures : 0; /* counted at freeze */
    h->events_per_hour = automated * h->staff_hour *
                         (h->failures_per_hour * P(STAFF_HOURS_PER_FAILURE) +
                          P(UPGRADES_PER_YEAR) * r->nodes * P(STAFF_HOURS_PER_NODE_UPGRADE) * YEARS_PER_HOUR);
    h->spares_per_hour = T(OWNED_SHARE) * h->failures_per_hour * P(SPARE_PARTS_PER_FAILURE);
    h->rented_energy = P(RENTAL_INCLUDES_POWER) == 0;
    h->energy_share = h->rented_energy ? 1 : T(OWNED_SHARE);
}

int tco__cluster_hardware(hardware *h, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err)
{
    /* tco__hardware reads the cluster, its nodes and the board power of a
     * run, nothing of the training. */
    train_run r;
    memset(&r, 0, sizeof r);
    r.N = T(ACCELERATORS);
    r.nodes = t->d.nodes;
    r.tdp = t->d.tdp;
    tco__rates(&r.rates, t, p);
    int rc = tco__rates_need(&r.rates, t->d.classes, t, p, err);
    if (rc)
        return rc;
    tco__hardware(h, &r, t, w, p);
    return TCO_OK;
}

double tco__one_off(const tco_obj *t, const tco_obj *p, const hardware *hw, double runs)
{
    double N = T(ACCELERATORS), o = T(OWNED_SHARE);
    /* An hour of the whole cluster: rented at its rates, owned at its
     * annuities and its share of plant, fabric and facility. */
    double cluster_hour = N * ((1 - o) * hw->rental_rate + o * hw->owned_per_year * YEARS_PER_HOUR) +
                          o * (hw->plant_per_year + hw->fabric_per_year + hw->facility_per_year) * YEARS_PER_HOUR;
    /* Migration and the engineers' learning as the table's freeze priced
     * them (core/check.c); the output lost while learning at this hour. */
    double migration = p->d.migration;
    double learning = p->d.learning_staff + P(LEARNING_RAMP_WEEKS) * 7 * 24 * P(LEARNING_OUTPUT_LOSS) * cluster_hour;
    double risk = P(RISK_PROBABILITY) * P(RISK_IMPACT);
    double spread = P(INDIRECT_SPREAD_RUNS), share = spread > 0 ? smaller(1, runs / spread) : 1;
    return (migration + learning + risk) * share;
}

/* ---- the estimate ----------------------------------------------------- */

TCO__FLATTEN int tco__estimate(tco_estimate *out, const tco_obj *t, const tco_obj *w, const tco_obj *p,
                              tco_error *err)
{
    train_run r;
    int rc = tco__run_derive(&r, t, w, p, err);
    if (rc)
        return rc;
    /* Nothing below fails: out is written only once the run is known. */
    tco__estimate_run(out, &r, t, w, p);
    return TCO_OK;
}

/* The totals below add indirect and waste after the rest. */
typedef char indirect_then_waste_last[TCO_CAT_INDIRECT == CATEGORIES - 2 && TCO_CAT_WASTE == CATEGORIES - 1 ? 1 : -1];

/* tco__estimate_run writes every field by name: a field appended to
 * tco_estimate stops the build here until it writes that one too. */
typedef char every_estimate_field_written[sizeof(tco_estimate) == offsetof(tco_estimate, storage_request_cost) + sizeof(double)
                                              ? 1
                                              : -1];

void tco__estimate_run(tco_estimate *out, const train_run *r, const tco_obj *t, const tco_obj *w,
                       const tco_obj *p)
{
    /* Every field is written below: only the waste sum and the slots that no
     * category or waste uses start at zero (not the whole struct again),
     * copied from zeros: gcc sets these sizes with rep stos, whose start
     * costs more than the stores. */
    static const double zeros[TCO_CATEGORY_SLOTS];
    tco_estimate *e = out;
    e->size = sizeof *e;
    e->cost[TCO_CAT_WASTE] = 0;
    memcpy(e->cost + CATEGORIES, zeros, sizeof e->cost - CATEGORIES * sizeof e->cost[0]);
    memcpy(e->waste + WASTES, zeros, sizeof e->waste - WASTES * sizeof e->waste[0]);
    memcpy(e->fixed + CATEGORIES, zeros, sizeof e->fixed - CATEGORIES * sizeof e->fixed[0]);

    /* 3. Cost per category. Ownership: owned share o; of the rest, reserved,
     * spot and on demand. Rental rates include power, cooling and fabric. */
    hardware hw;
    tco__hardware(&hw, r, t, w, p);
    double o = T(OWNED_SHARE), rented = 1 - o;
    double owned_hour = o * hw.owned_per_year * YEARS_PER_HOUR, held_years = r->held * YEARS_PER_HOUR;
    double rate = rented * hw.rental_rate + owned_hour;
    double compute_all = r->billed * rate;

    double it_kw = hw.it_kw;
    double it_kwh = it_kw * r->held;
    double power_fixed = o * hw.facility_per_year * held_years;
    double cooling_fixed = o * hw.plant_per_year * held_years;
    double power_all = hw.energy_share * it_kwh * P(ELECTRICITY_PER_KWH) + power_fixed;
    double cooling_all = hw.energy_share * it_kwh * (T(PUE) - 1) * P(ELECTRICITY_PER_KWH) + cooling_fixed;
    /* Fixed: what is paid for the held hours whatever they do: the owned
     * share's annuities and the reserved term; by the hour: on demand, spot
     * and energy. */
    double compute_fixed = r->billed * (rented * T(RESERVED_SHARE) * hw.rates.reserved + owned_hour);

    /* The productive share stays in compute, power and cooling; the rest is
     * waste, split by the accelerator-hours of each kind. */
    double per_billed = 1 / r->billed, useful_share = r->useful * per_billed;
    double per_hour = (compute_all + power_all + cooling_all) * per_billed;
    e->cost[TCO_CAT_COMPUTE] = compute_all * useful_share;
    e->cost[TCO_CAT_POWER] = power_all * useful_share;
    e->cost[TCO_CAT_COOLING] = cooling_all * useful_share;
    e->fixed[TCO_CAT_COMPUTE] = compute_fixed * useful_share;
    e->fixed[TCO_CAT_POWER] = power_fixed * useful_share;
    e->fixed[TCO_CAT_COOLING] = cooling_fixed * useful_share;
    for (int k = 0; k < WASTES; k++) {
        e->waste[k] = r->waste_h[k] * per_hour;
        e->cost[TCO_CAT_WASTE] += e->waste[k];
    }
    /* Waste is hours at the average price: fixed in the same proportion. */
    double fixed_all = compute_fixed + power_fixed + cooling_fixed, paid_all = compute_all + power_all + cooling_all;
    e->fixed[TCO_CAT_WASTE] = paid_all > 0 ? e->cost[TCO_CAT_WASTE] * fixed_all / paid_all : 0;

    const fabric *f = &t->d.fabric;
    double fabric_capex = hw.fabric_capex;
    /* Ring all-reduce of the gradients between sites: 2 (S-1) G per step. */
    double steps = w->d.steps * r->runs;
    double inter_site = 2 * (T(SITES) - 1) * W(PARAMS_TOTAL) * W(GRADIENT_BYTES) * steps;
    e->fixed[TCO_CAT_NETWORK] = o * hw.fabric_per_year * held_years;
    e->cost[TCO_CAT_NETWORK] = e->fixed[TCO_CAT_NETWORK] +
                              (W(EGRESS_CROSS_REGION_GB) + inter_site * 1e-9) * P(EGRESS_CROSS_REGION_PER_GB) +
                              W(EGRESS_INTERNET_GB) * P(EGRESS_INTERNET_PER_GB) +
                              W(EGRESS_IN_REGION_GB) * P(EGRESS_IN_REGION_PER_GB);

    double months = r->held * MONTHS_PER_HOUR;
    /* Storage, tier by tier: provisioned (its capacity paid for the held
     * months, fixed) or used (the retention policy's GB-hours of the
     * dataset, kept once, and of each run's checkpoints, over the lifecycle
     * horizon or the run if longer: doc/model.md, section 9), so that a
     * retention policy moves the bill. */
    storage_use use;
    tco__storage_data_gb_hours(&use, r, w, larger(W(LIFECYCLE_HORIZON_DAYS) * 24, r->wall));
    const double tier_price[3] = { P(STORAGE_HOT_PER_GB_MONTH), P(STORAGE_WARM_PER_GB_MONTH),
                                   P(STORAGE_COLD_PER_GB_MONTH) };
    const double provisioned_gb[3] = { r->hot_cap * 1e-9, T(STORAGE_WARM_TB) * 1e3, T(STORAGE_COLD_TB) * 1e3 };
    double storage_fixed = months * T(STORAGE_HOT_GBPS) * P(STORAGE_HOT_PER_GBPS_MONTH), storage_used = 0;
    for (int k = 0; k < 3; k++) {
        if (provisioned_gb[k] > 0)
            storage_fixed += months * provisioned_gb[k] * tier_price[k];
        else
            storage_used += (use.gb_h[TCO_DATA_DATASET][k] + r->runs * use.gb_h[TCO_DATA_CHECKPOINTS][k]) *
                            MONTHS_PER_HOUR * tier_price[k];
    }
    e->fixed[TCO_CAT_STORAGE] = storage_fixed;
    e->cost[TCO_CAT_STORAGE] = storage_fixed + storage_used;
    e->cost[TCO_CAT_DATABASE] = months * (W(DATABASE_INSTANCES) * P(DATABASE_PER_INSTANCE_MONTH) +
                                         W(DATABASE_GB) * P(DATABASE_PER_GB_MONTH));
    e->fixed[TCO_CAT_DATABASE] = e->cost[TCO_CAT_DATABASE];

    /* Logs and metrics: ingested, then each byte kept for the retention. */
    double kept_months = w->d.log_kept_months;
    double log_gb = W(LOG_BYTES_PER_ACCEL_HOUR) * r->billed * 1e-9;
    double samples = r->N * r->held * w->d.samples_per_accel_hour;
    double sample_gb = samples * W(METRIC_SAMPLE_BYTES) * 1e-9;
    /* Metrics are sampled from every accelerator, busy or not; logs follow work. */
    e->fixed[TCO_CAT_LOGGING] = samples * 1e-6 * P(METRICS_PER_MILLION_SAMPLES) +
                               sample_gb * kept_months * P(LOG_RETAINED_PER_GB_MONTH);
    e->cost[TCO_CAT_LOGGING] = log_gb * P(LOG_INGEST_PER_GB) + samples * 1e-6 * P(METRICS_PER_MILLION_SAMPLES) +
                              (log_gb + sample_gb) * kept_months * P(LOG_RETAINED_PER_GB_MONTH);

    e->cost[TCO_CAT_SECURITY] = months * (r->nodes * P(SECURITY_PER_NODE_MONTH) + P(SECURITY_FIXED_PER_MONTH));
    e->cost[TCO_CAT_PLATFORM] = months * r->nodes * P(PLATFORM_PER_NODE_MONTH);
    double fte = larger(P(MIN_FTE), r->nodes * p->d.fte_per_node);
    e->fixed[TCO_CAT_SECURITY] = e->cost[TCO_CAT_SECURITY];
    e->fixed[TCO_CAT_PLATFORM] = e->cost[TCO_CAT_PLATFORM];
    e->fixed[TCO_CAT_STAFF] = fte * P(STAFF_PER_FTE_YEAR) * held_years; /* the standing team */
    e->cost[TCO_CAT_STAFF] = e->fixed[TCO_CAT_STAFF] + hw.events_per_hour * r->held;
    e->cost[TCO_CAT_COMPUTE] += hw.spares_per_hour * r->held;

    /* The data pipeline (doc/model.md, section 23): the raw data pulled and
     * prepared once, on CPU nodes and through the internet's ingress and a
     * NAT; the runs' reads that reach storage, by the request. All follow
     * use. */
    double raw = w->d.raw_data;
    e->data_stored_bytes = w->d.dataset;
    e->data_read_requests = r->runs * w->d.requests;
    e->preprocess_cost = raw * 1e-12 * W(PREPROCESS_CPU_NODE_HOURS_PER_TB) * P(CPU_NODE_HOUR_PRICE);
    e->data_ingress_cost = raw * 1e-9 * (P(INTERNET_INGRESS_PER_GB) + P(NAT_PER_GB));
    e->storage_request_cost = e->data_read_requests * 1e-3 * P(STORAGE_REQUEST_PER_1000);
    e->cost[TCO_CAT_COMPUTE] += e->preprocess_cost;
    e->cost[TCO_CAT_NETWORK] += e->data_ingress_cost;
    e->cost[TCO_CAT_STORAGE] += e->storage_request_cost;

    /* One-offs are paid whatever happens; the premium is fixed as what it
     * is a share of. */
    double one_off = tco__one_off(t, p, &hw, r->runs);
    /* The totals add the categories in their order: those before the
     * indirect one as the premium did, then indirect and waste, the last. */
    double cost_before = before_indirect(e->cost), fixed_before = before_indirect(e->fixed);
    e->cost[TCO_CAT_INDIRECT] = one_off + risk_premium_of(p, cost_before, e->cost);
    e->fixed[TCO_CAT_INDIRECT] = one_off + risk_premium_of(p, fixed_before, e->fixed);
    e->total = cost_before + e->cost[TCO_CAT_INDIRECT] + e->cost[TCO_CAT_WASTE];
    e->fixed_total = fixed_before + e->fixed[TCO_CAT_INDIRECT] + e->fixed[TCO_CAT_WASTE];

    /* Everything else the report shows. */
    e->train_flops = r->flops;
    e->tokens = r->tokens;
    e->job_accelerators = r->n;
    e->cluster_accelerators = r->N;
    e->cluster_nodes = r->nodes;
    e->peak_flops = r->peak;
    e->accelerator_memory_bytes = r->memory;
    e->model_state_bytes = w->d.model_state;
    e->compute_hours = r->compute_h;
    e->wall_hours = r->wall;
    e->held_hours = r->held;
    e->accelerator_hours = r->billed;
    e->effective_accelerator_hours = r->useful;
    e->goodput = r->compute_h / r->wall;
    e->system_mtbf_hours = r->mtbf;
    e->checkpoint_bytes = r->ckpt;
    e->checkpoint_write_hours = r->delta;
    e->checkpoint_interval_hours = r->tau;
    e->young_interval_hours = r->young;
    e->daly_interval_hours = r->daly;
    e->expected_failures = r->failures;
    /* Daly's model, split: r->work_h/r->tau segments see e^((r->tau+r->delta)/M) - 1
     * r->failures each, and a r->restart may fail too, so each costs M (e^(R/M) - 1). */
    e->restart_hours = r->restart_h;
    e->lost_work_hours = r->lost_h;
    e->checkpoint_overhead_hours = r->ckpt_h;
    e->data_stall_hours = r->work_h - r->compute_h;
    e->data_stall_share = r->stall;
    e->fabric_tiers = f->tiers;
    e->fabric_switches = f->switches;
    e->fabric_links = f->links;
    e->fabric_optics = f->optics;
    e->fabric_capex = fabric_capex;
    e->fabric_bisection_tbps = t->d.bisection_tbps;
    e->inter_site_bytes = inter_site;
    e->it_power_kw = it_kw;
    e->facility_power_kw = it_kw * T(PUE);
    e->energy_kwh = it_kw * T(PUE) * r->held;
    e->cost_per_accelerator_hour = e->total * per_billed;
    e->cost_per_effective_accelerator_hour = e->total / r->useful;
    e->cost_per_million_tokens = e->total * w->d.per_million_tokens;
    e->cost_per_pflop_day = e->total * w->d.per_pflop_day;
    e->cost_per_run = e->total * w->d.per_run;
    e->scenario_fingerprint = tco__fingerprint_combine(t->fingerprint, w->fingerprint, p->fingerprint);

    e->model_flops_per_token = r->model_fpt;
    e->hardware_flops_per_token = r->hw_fpt;
    e->attention_term_layers = r->attention_layers;
    e->attention_term_width = r->attention_width;
    e->achieved_mfu = r->mfu;
    e->achieved_hfu = r->hfu;
    e->model_flops_per_accelerator = r->mfu * r->peak;
    e->sharded_state_bytes = r->lay.state;
    e->activation_bytes = r->lay.activations;
    e->memory_used_bytes = r->lay.state + r->lay.activations;
    e->pipeline_bubble_share = r->lay.bubble;
    e->comm_exposed_share = r->lay.comm_exposed;
    e->mfu_ceiling = r->lay.mfu_ceiling;
    e->flags = r->flags;
}

int tco_estimate_compute(tco_estimate *out, const tco_topology *topology, const tco_workload *workload,
                         const tco_pricing *pricing, tco_error *err)
{
    int rc;
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < ESTIMATE_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_estimate", out->size, ESTIMATE_V1_SIZE);
    if ((rc = tco__frozen_inputs(topology, workload, pricing, err)))
        return rc;
    const tco_obj *t = &topology->o, *w = &workload->o, *p = &pricing->o;
    if (out->size == sizeof *out) /* this version's struct: straight into it */
        return tco__estimate(out, t, w, p, err);
    tco_estimate e;
    if ((rc = tco__estimate(&e, t, w, p, err)))
        return rc;
    sized_fill(out, &e, sizeof e);
    return TCO_OK;
}
