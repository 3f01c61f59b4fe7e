/* The cost of a training scenario, category by category (doc/model.md,
 * sections 1 to 4), and the checks that make its inputs consistent. */
#include <math.h>
#include <string.h>

#include "internal.h"

#define T(k) (t->v[IX_##k])
#define W(k) (w->v[IX_##k])
#define P(k) (p->v[IX_##k])

/* ---- checks of one handle, run by freeze ------------------------------ */

int topology_check(const tco_obj *t, tco_error *err)
{
    if (fmod(T(ACCELERATORS), T(ACCELERATORS_PER_NODE)) != 0)
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_ACCELERATORS,
                        "accelerators = %g is not a whole number of nodes of accelerators_per_node = %g",
                        T(ACCELERATORS), T(ACCELERATORS_PER_NODE));
    if (T(ACCELERATOR_MODEL) == TCO_ACCEL_CUSTOM) {
        if (T(ACCELERATOR_PEAK_FLOPS) <= 0)
            return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_ACCELERATOR_PEAK_FLOPS,
                            "accelerator_model is custom: accelerator_peak_flops must be above 0 FLOP/s");
        if (T(ACCELERATOR_TDP_WATTS) <= 0)
            return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_ACCELERATOR_TDP_WATTS,
                            "accelerator_model is custom: accelerator_tdp_watts must be above 0 W");
    }
    if (fmod(T(SWITCH_RADIX), 2) != 0)
        return tco_fail(err, TCO_E_RANGE, TCO_P_SWITCH_RADIX,
                        "switch_radix = %g must be even (half the ports face down)", T(SWITCH_RADIX));
    if (T(RESERVED_SHARE) + T(SPOT_SHARE) > 1)
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_SPOT_SHARE,
                        "reserved_share = %g plus spot_share = %g exceed 1: they are shares of the rented accelerators",
                        T(RESERVED_SHARE), T(SPOT_SHARE));
    fabric f;
    double nodes = T(ACCELERATORS) / T(ACCELERATORS_PER_NODE);
    return fabric_size(&f, nodes * T(NICS_PER_NODE), T(SWITCH_RADIX), T(OVERSUBSCRIPTION), err);
}

int workload_check(const tco_obj *w, tco_error *err)
{
    if (W(PARAMS_ACTIVE) > W(PARAMS_TOTAL))
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_PARAMS_ACTIVE,
                        "params_active = %g exceeds params_total = %g", W(PARAMS_ACTIVE), W(PARAMS_TOTAL));
    double model_parallel = W(TENSOR_PARALLEL) * W(PIPELINE_PARALLEL);
    if (W(JOB_ACCELERATORS) > 0 && fmod(W(JOB_ACCELERATORS), model_parallel) != 0)
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_JOB_ACCELERATORS,
                        "job_accelerators = %g is not a multiple of tensor_parallel x pipeline_parallel = %g",
                        W(JOB_ACCELERATORS), model_parallel);
    if (W(JOB_ACCELERATORS) > 0 && W(DATA_PARALLEL) > 0 &&
        W(DATA_PARALLEL) * model_parallel != W(JOB_ACCELERATORS))
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_DATA_PARALLEL,
                        "data_parallel = %g x tensor_parallel x pipeline_parallel = %g is not job_accelerators = %g",
                        W(DATA_PARALLEL), W(DATA_PARALLEL) * model_parallel, W(JOB_ACCELERATORS));
    return TCO_OK;
}

int pricing_check(const tco_obj *p, tco_error *err)
{
    if (P(RESERVED_PER_ACCEL_HOUR) > P(ON_DEMAND_PER_ACCEL_HOUR))
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_RESERVED_PER_ACCEL_HOUR,
                        "reserved_per_accel_hour = %g is above on_demand_per_accel_hour = %g: allowed 0 to %g",
                        P(RESERVED_PER_ACCEL_HOUR), P(ON_DEMAND_PER_ACCEL_HOUR), P(ON_DEMAND_PER_ACCEL_HOUR));
    if (P(SPOT_PER_ACCEL_HOUR) > P(ON_DEMAND_PER_ACCEL_HOUR))
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_SPOT_PER_ACCEL_HOUR,
                        "spot_per_accel_hour = %g is above on_demand_per_accel_hour = %g: allowed 0 to %g",
                        P(SPOT_PER_ACCEL_HOUR), P(ON_DEMAND_PER_ACCEL_HOUR), P(ON_DEMAND_PER_ACCEL_HOUR));
    if (P(BUDGET_CRITICAL_SHARE) < P(BUDGET_WARNING_SHARE))
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_BUDGET_CRITICAL_SHARE,
                        "budget_critical_share = %g is below budget_warning_share = %g: allowed %g to 1",
                        P(BUDGET_CRITICAL_SHARE), P(BUDGET_WARNING_SHARE), P(BUDGET_WARNING_SHARE));
    return TCO_OK;
}

/* ---- money over time -------------------------------------------------- */

/* Yearly cost of owning hardware bought for `price`: the annuity that repays
 * the price less the discounted residual over the depreciation years at the
 * cost of capital (capital recovery factor), plus maintenance. */
typedef struct {
    double crf;         /* i / (1 - (1 + i)^-n), or 1 / n at i = 0 */
    double discount;    /* (1 + i)^-n */
    double maintenance; /* share of the price per year */
} annuity;

static annuity annuity_of(const tco_obj *p)
{
    double i = P(COST_OF_CAPITAL), n = P(DEPRECIATION_YEARS), growth = n * log1p(i);
    annuity a = { i > 0 ? i / -expm1(-growth) : 1 / n, exp(-growth), P(MAINTENANCE_SHARE_PER_YEAR) };
    return a;
}

static double owned_per_year(const annuity *a, double price, double residual_share)
{
    return (price - price * residual_share * a->discount) * a->crf + price * a->maintenance;
}

/* ---- the estimate ----------------------------------------------------- */

int frozen_inputs(const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    const tco_obj *h[3] = { t ? &t->o : NULL, w ? &w->o : NULL, p ? &p->o : NULL };
    static const char *const names[3] = { "topology", "workload", "pricing" };
    for (int i = 0; i < 3; i++) {
        if (!h[i])
            return tco_fail(err, TCO_E_NULL, 0, "%s must not be NULL", names[i]);
        if (!h[i]->frozen)
            return tco_fail(err, TCO_E_NOT_FROZEN, 0, "the %s must be frozen first", names[i]);
    }
    return TCO_OK;
}

int tco_estimate_compute(tco_estimate *out, const tco_topology *topology, const tco_workload *workload,
                         const tco_pricing *pricing, tco_error *err)
{
    int rc;
    if (!out)
        return tco_fail(err, TCO_E_NULL, 0, "out must not be NULL");
    if (out->size < ESTIMATE_V1_SIZE)
        return tco_fail(err, TCO_E_SIZE, 0, "tco_estimate.size = %zu is below %zu: set it to sizeof(tco_estimate)",
                        out->size, ESTIMATE_V1_SIZE);
    if ((rc = frozen_inputs(topology, workload, pricing, err)))
        return rc;
    const tco_obj *t = &topology->o, *w = &workload->o, *p = &pricing->o;
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;

    /* Who runs: the cluster, the job, the accelerator. */
    double N = T(ACCELERATORS), per_node = T(ACCELERATORS_PER_NODE);
    double n = job_accelerators(t, w);
    double nodes = N / per_node, job_nodes = ceil(n / per_node);
    double model_parallel = W(TENSOR_PARALLEL) * W(PIPELINE_PARALLEL);
    if (n > N)
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_JOB_ACCELERATORS,
                        "job_accelerators = %g exceeds the cluster's accelerators = %g", n, N);
    if (fmod(n, model_parallel) != 0)
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_TENSOR_PARALLEL,
                        "tensor_parallel x pipeline_parallel = %g does not divide the job's %g accelerators",
                        model_parallel, n);
    double dp = n / model_parallel;
    if (W(DATA_PARALLEL) > 0 && W(DATA_PARALLEL) != dp)
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_DATA_PARALLEL,
                        "data_parallel = %g, but the job's %g accelerators over tensor x pipeline = %g give %g",
                        W(DATA_PARALLEL), n, model_parallel, dp);
    if (T(SITES) > dp)
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_SITES,
                        "sites = %g exceeds the %g data-parallel groups that could be spread over them",
                        T(SITES), dp);
    const tco_accelerator *acc = catalogue_find((int32_t)T(ACCELERATOR_MODEL));
    int fp8 = W(PRECISION) == PRECISION_FP8;
    double peak = T(ACCELERATOR_PEAK_FLOPS) > 0 ? T(ACCELERATOR_PEAK_FLOPS)
                                                 : fp8 ? acc->fp8_flops : acc->bf16_flops;
    if (peak <= 0)
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_PRECISION,
                        "precision = fp8, but %s has no FP8 peak: use bf16 or set accelerator_peak_flops",
                        acc->name);
    double tdp = T(ACCELERATOR_TDP_WATTS) > 0 ? T(ACCELERATOR_TDP_WATTS) : acc->tdp_watts;
    double memory = T(ACCELERATOR_MEMORY_BYTES) > 0 ? T(ACCELERATOR_MEMORY_BYTES) : acc->memory_bytes;

    /* Storage the run needs on the hot tier. */
    double ckpt = checkpoint_size(w);
    double tokens = W(TOKENS) * W(EPOCHS);
    double dataset = dataset_size(w);
    double hot_need = dataset + W(CHECKPOINT_RETENTION) * ckpt;
    double hot_cap = T(STORAGE_HOT_TB) * 1e12;
    if (hot_cap > 0 && ckpt > hot_cap)
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_CHECKPOINT_BYTES,
                        "one checkpoint of %g B exceeds storage_hot_tb = %g TB", ckpt, T(STORAGE_HOT_TB));
    if (hot_cap > 0 && hot_need > hot_cap)
        return tco_fail(err, TCO_E_INCONSISTENT, TCO_P_STORAGE_HOT_TB,
                        "storage_hot_tb = %g TB cannot hold the dataset (%g B) and checkpoint_retention = %g checkpoints of %g B: allowed at least %g TB",
                        T(STORAGE_HOT_TB), dataset, W(CHECKPOINT_RETENTION), ckpt, hot_need / 1e12);

    /* 1. Training time: FLOPs = tokens x (6 N + 12 L h s), Kaplan 2020 and
     * PaLM (Chowdhery 2022, appendix B). */
    double active = W(PARAMS_ACTIVE) > 0 ? W(PARAMS_ACTIVE) : W(PARAMS_TOTAL);
    double flops = W(TOTAL_FLOPS) > 0
                       ? W(TOTAL_FLOPS)
                       : tokens * (6 * active + 12 * W(LAYERS) * W(HIDDEN_SIZE) * W(SEQ_LEN));
    double compute_h = flops / (n * peak * W(MFU)) / 3600;

    /* Data stalls: the floor given, or what the hot tier's bandwidth imposes. */
    double read_rate = tokens * W(BYTES_PER_TOKEN) / (compute_h * 3600);
    double stall = fmax(W(DATA_STALL_SHARE), 1 - T(STORAGE_HOT_GBPS) * 1e9 / read_rate);
    double work_h = compute_h / (1 - stall);

    /* 2. Goodput: failures, checkpoints (Young 1974, Daly 2006). */
    double spot_nodes = job_nodes * (1 - T(OWNED_SHARE)) * T(SPOT_SHARE);
    double spot_rate = spot_nodes * P(SPOT_INTERRUPTIONS_PER_NODE_HOUR);
    double mtbf = system_mtbf(n, T(ACCELERATOR_MTBF_HOURS), job_nodes, T(NODE_MTBF_HOURS), spot_rate);
    double write_h = checkpoint_write_hours(t, w);
    double delta = W(CHECKPOINT_ASYNC) ? ckpt / (job_nodes * T(HOST_COPY_GBPS) * 1e9) / 3600 : write_h;
    double restart = T(RESTART_MINUTES) / 60;
    double tau = W(CHECKPOINT_INTERVAL_HOURS) > 0 ? W(CHECKPOINT_INTERVAL_HOURS) : daly_interval(delta, mtbf);
    if (W(CHECKPOINT_ASYNC))
        tau = fmax(tau, write_h); /* the next checkpoint waits for the last write */
    double wall = daly_wall_time(work_h, tau, delta, restart, mtbf);
    if (!isfinite(wall) || wall > 1e12) {
        /* Name the input that matters most: the restart, or the largest rate. */
        double accel_rate = n / T(ACCELERATOR_MTBF_HOURS), node_rate = job_nodes / T(NODE_MTBF_HOURS);
        int32_t key = restart > tau + delta                        ? TCO_P_RESTART_MINUTES
                      : spot_rate > fmax(accel_rate, node_rate)   ? TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR
                      : node_rate > accel_rate                    ? TCO_P_NODE_MTBF_HOURS
                                                                  : TCO_P_ACCELERATOR_MTBF_HOURS;
        return tco_fail(err, TCO_E_INCONSISTENT, key,
                        "the run never finishes: the job fails every %g h on average, against %g h to checkpoint and %g h to restart",
                        mtbf, delta, restart);
    }
    double ckpt_h = work_h / tau * delta;
    double failures = wall / mtbf;
    double retry_h = wall * W(RETRY_SHARE) / (1 - W(RETRY_SHARE));
    double runs = W(RUNS);
    double held = runs * (wall + retry_h) + W(QUEUE_WAIT_HOURS);

    /* Accelerator-hours: every billed hour is useful or one kind of waste. */
    double billed = N * held, useful = n * compute_h * runs;
    double waste_h[TCO_WASTE_SLOTS] = { 0 };
    waste_h[TCO_WASTE_IDLE] = (N - n) * runs * (wall + retry_h) + N * W(QUEUE_WAIT_HOURS);
    waste_h[TCO_WASTE_FAILURES] = n * runs * (wall - work_h - ckpt_h);
    waste_h[TCO_WASTE_DATA_STALLS] = n * runs * (work_h - compute_h);
    waste_h[TCO_WASTE_CHECKPOINTS] = n * runs * ckpt_h;
    waste_h[TCO_WASTE_RETRIES] = n * runs * retry_h;

    /* 3. Cost per category. Ownership: owned share o; of the rest, reserved,
     * spot and on demand. Rental rates include power, cooling and fabric. */
    double o = T(OWNED_SHARE), rented = 1 - o;
    double rate = rented * (T(RESERVED_SHARE) * P(RESERVED_PER_ACCEL_HOUR) +
                            T(SPOT_SHARE) * P(SPOT_PER_ACCEL_HOUR) +
                            (1 - T(RESERVED_SHARE) - T(SPOT_SHARE)) * P(ON_DEMAND_PER_ACCEL_HOUR));
    double accel_price = P(CAPEX_PER_ACCELERATOR) + P(CAPEX_PER_SERVER) / per_node;
    annuity owned = annuity_of(p);
    rate += o * owned_per_year(&owned, accel_price, P(RESIDUAL_SHARE)) / HOURS_PER_YEAR;
    double compute_all = billed * rate;

    double it_kw = (N * tdp * W(POWER_DRAW_SHARE) + nodes * T(NODE_OVERHEAD_WATTS)) / 1000;
    double it_kwh = it_kw * held;
    double power_all = o * it_kwh * P(ELECTRICITY_PER_KWH);
    double plant_kw = (N * tdp + nodes * T(NODE_OVERHEAD_WATTS)) / 1000; /* sized for full load */
    double cooling_price = T(COOLING) == COOLING_LIQUID ? P(COOLING_LIQUID_CAPEX_PER_KW)
                                                        : P(COOLING_AIR_CAPEX_PER_KW);
    double cooling_all = o * (it_kwh * (T(PUE) - 1) * P(ELECTRICITY_PER_KWH) +
                              owned_per_year(&owned, plant_kw * cooling_price, 0) * held / HOURS_PER_YEAR);

    /* The productive share stays in compute, power and cooling; the rest is
     * waste, split by the accelerator-hours of each kind. */
    double useful_share = useful / billed;
    double per_hour = (compute_all + power_all + cooling_all) / billed;
    e.cost[TCO_CAT_COMPUTE] = compute_all * useful_share;
    e.cost[TCO_CAT_POWER] = power_all * useful_share;
    e.cost[TCO_CAT_COOLING] = cooling_all * useful_share;
    for (int k = 0; k < TCO_WASTE_SLOTS; k++) {
        e.waste[k] = waste_h[k] * per_hour;
        e.cost[TCO_CAT_WASTE] += e.waste[k];
    }

    fabric f;
    if ((rc = fabric_size(&f, nodes * T(NICS_PER_NODE), T(SWITCH_RADIX), T(OVERSUBSCRIPTION), err)))
        return rc;
    double fabric_capex = f.switches * P(SWITCH_PRICE) + f.optics * P(OPTIC_PRICE) + f.links * P(CABLE_PRICE);
    /* Ring all-reduce of the gradients between sites: 2 (S-1) G per step. */
    double steps = tokens / W(BATCH_TOKENS) * runs;
    double inter_site = 2 * (T(SITES) - 1) * W(PARAMS_TOTAL) * W(GRADIENT_BYTES) * steps;
    e.cost[TCO_CAT_NETWORK] = o * owned_per_year(&owned, fabric_capex, 0) * held / HOURS_PER_YEAR +
                              (W(EGRESS_CROSS_REGION_GB) + inter_site / 1e9) * P(EGRESS_CROSS_REGION_PER_GB) +
                              W(EGRESS_INTERNET_GB) * P(EGRESS_INTERNET_PER_GB) +
                              W(EGRESS_IN_REGION_GB) * P(EGRESS_IN_REGION_PER_GB);

    double months = held / HOURS_PER_MONTH;
    double hot_gb = (hot_cap > 0 ? hot_cap : hot_need) / 1e9;
    e.cost[TCO_CAT_STORAGE] = months * (hot_gb * P(STORAGE_HOT_PER_GB_MONTH) +
                                        T(STORAGE_HOT_GBPS) * P(STORAGE_HOT_PER_GBPS_MONTH) +
                                        T(STORAGE_WARM_TB) * 1e3 * P(STORAGE_WARM_PER_GB_MONTH) +
                                        T(STORAGE_COLD_TB) * 1e3 * P(STORAGE_COLD_PER_GB_MONTH));
    e.cost[TCO_CAT_DATABASE] = months * (W(DATABASE_INSTANCES) * P(DATABASE_PER_INSTANCE_MONTH) +
                                         W(DATABASE_GB) * P(DATABASE_PER_GB_MONTH));

    /* Logs and metrics: ingested, then each byte kept for the retention. */
    double kept_months = W(LOG_RETENTION_DAYS) / DAYS_PER_MONTH;
    double log_gb = W(LOG_BYTES_PER_ACCEL_HOUR) * billed / 1e9;
    double samples = N * W(METRICS_PER_ACCELERATOR) * held * 3600 / W(METRICS_INTERVAL_SECONDS);
    double sample_gb = samples * W(METRIC_SAMPLE_BYTES) / 1e9;
    e.cost[TCO_CAT_LOGGING] = log_gb * P(LOG_INGEST_PER_GB) + samples / 1e6 * P(METRICS_PER_MILLION_SAMPLES) +
                              (log_gb + sample_gb) * kept_months * P(LOG_RETAINED_PER_GB_MONTH);

    e.cost[TCO_CAT_SECURITY] = months * (nodes * P(SECURITY_PER_NODE_MONTH) + P(SECURITY_FIXED_PER_MONTH));
    e.cost[TCO_CAT_PLATFORM] = months * nodes * P(PLATFORM_PER_NODE_MONTH);
    double fte = fmax(P(MIN_FTE), nodes / P(NODES_PER_FTE));
    e.cost[TCO_CAT_STAFF] = fte * P(STAFF_PER_FTE_YEAR) * held / HOURS_PER_YEAR;

    double rest = 0;
    for (int c = 0; c < TCO_CAT_INDIRECT; c++)
        rest += e.cost[c];
    rest += e.cost[TCO_CAT_WASTE];
    e.cost[TCO_CAT_INDIRECT] = P(MIGRATION_COST) + P(LEARNING_FTE_MONTHS) * P(STAFF_PER_FTE_YEAR) / 12 +
                               P(RISK_PREMIUM_SHARE) * rest;
    for (size_t c = 0; c < tco_category_count(); c++)
        e.total += e.cost[c];

    /* Everything else the report shows. */
    e.train_flops = flops;
    e.tokens = tokens;
    e.job_accelerators = n;
    e.cluster_accelerators = N;
    e.cluster_nodes = nodes;
    e.peak_flops = peak;
    e.accelerator_memory_bytes = memory;
    e.model_state_bytes = W(PARAMS_TOTAL) * (W(CHECKPOINT_BYTES_PER_PARAM) + W(GRADIENT_BYTES)) / model_parallel;
    e.compute_hours = compute_h;
    e.wall_hours = wall;
    e.held_hours = held;
    e.accelerator_hours = billed;
    e.effective_accelerator_hours = useful;
    e.goodput = compute_h / wall;
    e.system_mtbf_hours = mtbf;
    e.checkpoint_bytes = ckpt;
    e.checkpoint_write_hours = delta;
    e.checkpoint_interval_hours = tau;
    e.young_interval_hours = young_interval(delta, mtbf);
    e.daly_interval_hours = daly_interval(delta, mtbf);
    e.expected_failures = failures;
    /* Daly's model, split: work_h/tau segments see e^((tau+delta)/M) - 1
     * failures each, and a restart may fail too, so each costs M (e^(R/M) - 1). */
    e.restart_hours = work_h / tau * expm1((tau + delta) / mtbf) * mtbf * expm1(restart / mtbf);
    e.lost_work_hours = wall - work_h - ckpt_h - e.restart_hours;
    e.checkpoint_overhead_hours = ckpt_h;
    e.data_stall_hours = work_h - compute_h;
    e.data_stall_share = stall;
    e.fabric_tiers = f.tiers;
    e.fabric_switches = f.switches;
    e.fabric_links = f.links;
    e.fabric_optics = f.optics;
    e.fabric_capex = fabric_capex;
    e.fabric_bisection_tbps = nodes * T(NICS_PER_NODE) * T(NIC_GBPS) / 1000 / (2 * T(OVERSUBSCRIPTION));
    e.inter_site_bytes = inter_site;
    e.it_power_kw = it_kw;
    e.facility_power_kw = it_kw * T(PUE);
    e.energy_kwh = it_kw * T(PUE) * held;
    e.cost_per_accelerator_hour = e.total / billed;
    e.cost_per_effective_accelerator_hour = e.total / useful;
    e.cost_per_million_tokens = e.total / (tokens * runs / 1e6);
    e.cost_per_pflop_day = e.total / (flops * runs / (1e15 * 86400));
    e.cost_per_run = e.total / runs;
    e.scenario_fingerprint = fingerprint_combine(t->fingerprint, w->fingerprint, p->fingerprint);

    sized_fill(out, &e, sizeof e);
    return TCO_OK;
}
