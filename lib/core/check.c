/* What freeze checks of one handle's values together, and what it derives
 * from them for every computation to read (doc/model.md; doc/api.md,
 * "Freeze"). A sweep runs the same on its changed copies. */
#include <math.h>
#include <string.h>

#include "core/core.h"

#define T(k) (t->v[IX_##k])
#define W(k) (w->v[IX_##k])
#define P(k) (p->v[IX_##k])

static int topology_check(tco_obj *t, tco_error *err)
{
    if (fmod(T(ACCELERATORS), T(ACCELERATORS_PER_NODE)) != 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_ACCELERATORS,
                               "accelerators = %g is not a whole number of nodes of accelerators_per_node = %g",
                               T(ACCELERATORS), T(ACCELERATORS_PER_NODE));
    if (T(ACCELERATOR_MODEL) == TCO_ACCEL_CUSTOM) {
        if (T(ACCELERATOR_PEAK_FLOPS) <= 0)
            return tco__fail_param(err, TCO_E_INCONSISTENT, IX_ACCELERATOR_PEAK_FLOPS,
                                   "accelerator_model is custom: accelerator_peak_flops must be above 0 FLOP/s");
        if (T(ACCELERATOR_TDP_WATTS) <= 0)
            return tco__fail_param(err, TCO_E_INCONSISTENT, IX_ACCELERATOR_TDP_WATTS,
                                   "accelerator_model is custom: accelerator_tdp_watts must be above 0 W");
    }
    if (fmod(T(SWITCH_RADIX), 2) != 0)
        return tco__fail_param(err, TCO_E_RANGE, IX_SWITCH_RADIX,
                               "switch_radix = %g must be even (half the ports face down)", T(SWITCH_RADIX));
    if (T(RESERVED_SHARE) + T(SPOT_SHARE) > 1)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_SPOT_SHARE,
                               "reserved_share = %g plus spot_share = %g exceed 1: they are shares of the rented accelerators",
                               T(RESERVED_SHARE), T(SPOT_SHARE));
    /* Derived once here: every computation reads them from the frozen
     * handle, the fabric sized once. */
    derived *d = &t->d;
    const tco_accelerator *acc = tco__catalogue_find((int32_t)T(ACCELERATOR_MODEL));
    d->acc = acc;
    tco__list_prices(d, acc);
    d->nodes = T(ACCELERATORS) / T(ACCELERATORS_PER_NODE);
    d->tdp = T(ACCELERATOR_TDP_WATTS) > 0 ? T(ACCELERATOR_TDP_WATTS) : acc->tdp_watts;
    d->peak[PRECISION_BF16] = T(ACCELERATOR_PEAK_FLOPS) > 0 ? T(ACCELERATOR_PEAK_FLOPS) : acc->bf16_flops;
    d->peak[PRECISION_FP8] = T(ACCELERATOR_PEAK_FLOPS) > 0 ? T(ACCELERATOR_PEAK_FLOPS) : acc->fp8_flops;
    d->memory = T(ACCELERATOR_MEMORY_BYTES) > 0 ? T(ACCELERATOR_MEMORY_BYTES) : acc->memory_bytes;
    d->cluster_failures = T(ACCELERATORS) / T(ACCELERATOR_MTBF_HOURS) + d->nodes / T(NODE_MTBF_HOURS);
    d->nic = T(NICS_PER_NODE) * T(NIC_GBPS) * 1e9 / 8 / T(ACCELERATORS_PER_NODE) / T(OVERSUBSCRIPTION);
    d->bisection_tbps = d->nodes * T(NICS_PER_NODE) * T(NIC_GBPS) / 1000 / (2 * T(OVERSUBSCRIPTION));
    d->restart_h = T(RESTART_MINUTES) / 60;
    d->classes = tco__mix_classes(t);
    /* Reciprocals, so that a computation multiplies by them. */
    d->accel_failure_rate = 1 / T(ACCELERATOR_MTBF_HOURS);
    d->node_failure_rate = 1 / T(NODE_MTBF_HOURS);
    d->node_share = 1 / T(ACCELERATORS_PER_NODE);
    d->nic_seconds_per_byte = d->nic > 0 ? 1 / d->nic : 0;
    return tco__fabric_size(&d->fabric, d->nodes * T(NICS_PER_NODE), T(SWITCH_RADIX), T(OVERSUBSCRIPTION), err);
}

void tco__shape_of(shape *s, const tco_obj *w, double active, uint64_t *flags)
{
    memset(s, 0, sizeof *s);
    if (W(LAYERS) == 0) {
        *flags |= TCO_FLAG_ATTENTION_OMITTED;
        return;
    }
    s->layers = W(LAYERS);
    /* Kaplan et al. 2020, section 2.1: N = 12 x layers x width^2 (the
     * attention and feed-forward weights of a standard block). */
    s->hidden = W(HIDDEN_SIZE) > 0 ? W(HIDDEN_SIZE) : sqrt(active / (12 * s->layers));
    if (W(HIDDEN_SIZE) == 0)
        *flags |= TCO_FLAG_HIDDEN_DERIVED;
    s->width = W(ATTENTION_WIDTH) > 0 ? W(ATTENTION_WIDTH) : s->hidden;
    s->heads = W(HEADS) > 0 ? W(HEADS) : s->hidden / 128;
    s->kv_heads = W(KV_HEADS) > 0 ? W(KV_HEADS) : s->heads;
}

/* The FLOPs of a run (doc/model.md, section 1). The attention term needs
 * the model's shape; the FLOPs per token as papers count them (model) and
 * as the run executes them (hardware, with recomputation). */
static void flops_of(derived *d, const tco_obj *w)
{
    uint64_t flags = 0;
    double active = W(PARAMS_ACTIVE) > 0 ? W(PARAMS_ACTIVE) : W(PARAMS_TOTAL);
    tco__shape_of(&d->shape, w, active, &flags);
    double attn = 12 * d->shape.layers * d->shape.width * W(SEQ_LEN) * (W(ATTENTION) == ATTENTION_CAUSAL ? 0.5 : 1);
    double model_fpt = 6 * active + attn;
    double extra = W(RECOMPUTE) == RECOMPUTE_FULL ? 2 * active + attn / 3
                   : W(RECOMPUTE) == RECOMPUTE_SELECTIVE ? attn / 3 : 0;
    double hw_fpt = model_fpt + extra;
    double flops = d->tokens * model_fpt;
    if (W(TOTAL_FLOPS) > 0) {
        flops = W(TOTAL_FLOPS);
        flags |= TCO_FLAG_FLOPS_GIVEN;
    }
    d->active = active;
    d->model_fpt = model_fpt;
    d->hw_fpt = hw_fpt;
    d->flops = flops;
    d->hw_flops = flops * (hw_fpt / model_fpt);
    d->flags = flags;
}

/* What the parallel layout's memory and step take of the workload alone
 * (model/run.c, layout_of: doc/model.md, "Memory" and "The layout's
 * ceiling"): the parameters one accelerator holds, the experts (all but
 * the active ones) split over expert parallelism and everything over
 * tensor x pipeline; the activations of one micro-batch per layer with
 * tensor and sequence parallelism (Korthikanti et al. 2022; grouped-query
 * attention keeps kv/heads of K and V), of which the first pipeline stage
 * holds pp micro-batches of its layers; the FLOPs of one step. */
static void layout_inputs(derived *d, const tco_obj *w)
{
    double tp = W(TENSOR_PARALLEL), pp = W(PIPELINE_PARALLEL), mp = tp * pp;
    d->params_share = (d->active + (W(PARAMS_TOTAL) - d->active) / W(EXPERT_PARALLEL)) / mp;
    const shape *sh = &d->shape;
    double s = W(SEQ_LEN), b = W(MICRO_BATCH_SEQUENCES), h = sh->hidden;
    d->stage_layers = 0;
    d->activations = 0;
    if (sh->layers > 0) {
        double per_token = W(RECOMPUTE) == RECOMPUTE_FULL ? 2 * h
                           : (30 + 4 * sh->kv_heads / sh->heads) * h +
                                 (W(RECOMPUTE) == RECOMPUTE_NONE ? 5 * sh->heads * s : 0);
        d->stage_layers = ceil(sh->layers / pp);
        d->activations = s * b * per_token / tp * d->stage_layers * pp;
    }
    d->step_flops = d->flops / d->steps;
    d->step_hw_flops = d->hw_flops / d->steps;
}

static int workload_check(tco_obj *w, tco_error *err)
{
    if (W(PARAMS_ACTIVE) > W(PARAMS_TOTAL))
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_PARAMS_ACTIVE,
                               "params_active = %g exceeds params_total = %g", W(PARAMS_ACTIVE), W(PARAMS_TOTAL));
    double model_parallel = W(TENSOR_PARALLEL) * W(PIPELINE_PARALLEL);
    if (W(JOB_ACCELERATORS) > 0 && fmod(W(JOB_ACCELERATORS), model_parallel) != 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_JOB_ACCELERATORS,
                               "job_accelerators = %g is not a multiple of tensor_parallel x pipeline_parallel = %g",
                               W(JOB_ACCELERATORS), model_parallel);
    if (W(JOB_ACCELERATORS) > 0 && W(DATA_PARALLEL) > 0 &&
        W(DATA_PARALLEL) * model_parallel != W(JOB_ACCELERATORS))
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_DATA_PARALLEL,
                               "data_parallel = %g x tensor_parallel x pipeline_parallel = %g is not job_accelerators = %g",
                               W(DATA_PARALLEL), W(DATA_PARALLEL) * model_parallel, W(JOB_ACCELERATORS));
    if (W(KV_HEADS) > 0 && W(HEADS) > 0 && fmod(W(HEADS), W(KV_HEADS)) != 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_KV_HEADS,
                               "kv_heads = %g does not divide heads = %g: each key/value head serves a whole group of query heads",
                               W(KV_HEADS), W(HEADS));
    if (W(HEADS) > 0 && fmod(W(HEADS), W(TENSOR_PARALLEL)) != 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_TENSOR_PARALLEL,
                               "tensor_parallel = %g does not divide heads = %g: tensor parallelism splits the heads",
                               W(TENSOR_PARALLEL), W(HEADS));
    if (W(EXPERT_PARALLEL) > 1 && W(PARAMS_ACTIVE) == 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_EXPERT_PARALLEL,
                               "expert_parallel = %g, but params_active = 0: a dense model has no experts to split",
                               W(EXPERT_PARALLEL));
    if (W(LAYERS) > 0 && W(LAYERS) < W(PIPELINE_PARALLEL))
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_PIPELINE_PARALLEL,
                               "pipeline_parallel = %g exceeds layers = %g: every pipeline stage holds a layer at least",
                               W(PIPELINE_PARALLEL), W(LAYERS));
    w->d.ckpt = checkpoint_size(w);
    w->d.dataset = dataset_size(w);
    w->d.ckpt_gb = w->d.ckpt / 1e9;
    w->d.dataset_gb = w->d.dataset / 1e9;
    w->d.tokens = W(TOKENS) * W(EPOCHS);
    w->d.steps = w->d.tokens / W(BATCH_TOKENS);
    w->d.raw_data = W(RAW_DATA_BYTES) > 0 ? W(RAW_DATA_BYTES) : dataset_raw_size(w);
    w->d.read_bytes = w->d.tokens * W(BYTES_PER_TOKEN) * W(DATA_COMPRESSION_RATIO) * (1 - W(DATA_CACHE_HIT_RATE));
    flops_of(&w->d, w);
    layout_inputs(&w->d, w);
    w->d.model_state = W(PARAMS_TOTAL) * (W(CHECKPOINT_BYTES_PER_PARAM) + W(GRADIENT_BYTES)) / model_parallel;
    w->d.log_kept_months = W(LOG_RETENTION_DAYS) / DAYS_PER_MONTH;
    w->d.requests = w->d.read_bytes / W(DATA_OBJECT_BYTES);
    w->d.retry_factor = W(RETRY_SHARE) / (1 - W(RETRY_SHARE));
    w->d.work_per_compute = 1 / (1 - W(DATA_STALL_SHARE));
    w->d.samples_per_accel_hour = W(METRICS_PER_ACCELERATOR) * 3600 / W(METRICS_INTERVAL_SECONDS);
    double sequences = W(SEQ_LEN) * W(MICRO_BATCH_SEQUENCES);
    w->d.micro_batches = sequences > 0 ? W(BATCH_TOKENS) / sequences : 0;
    w->d.per_micro_batches = sequences > 0 ? sequences / W(BATCH_TOKENS) : 0;
    w->d.per_run = 1 / W(RUNS);
    w->d.per_million_tokens = 1e6 / (w->d.tokens * W(RUNS));
    w->d.per_pflop_day = 1e15 * 86400 / (w->d.flops * W(RUNS));
    return TCO_OK;
}

static annuity annuity_over(const tco_obj *p, double n)
{
    double i = P(COST_OF_CAPITAL), growth = n * log1p(i);
    annuity a = { i > 0 ? i / -expm1(-growth) : 1 / n, exp(-growth), P(MAINTENANCE_SHARE_PER_YEAR) };
    return a;
}

static int pricing_check(tco_obj *p, tco_error *err)
{
    /* Reserved and spot at most on demand where the table gives both; a
     * stand-in is judged once the accelerator is known (rates.c). */
    if (P(ON_DEMAND_PER_ACCEL_HOUR) != LIST_PRICE) {
        rates r = { P(ON_DEMAND_PER_ACCEL_HOUR), fmax(0, P(RESERVED_PER_ACCEL_HOUR)), fmax(0, P(SPOT_PER_ACCEL_HOUR)), 0, 0 };
        int rc = tco__rates_order(&r, err);
        if (rc)
            return rc;
    }
    /* The building and its plant outlive the IT they hold, never the other
     * way round. */
    if (P(FACILITY_LIFE_YEARS) > 0 && P(FACILITY_LIFE_YEARS) < P(DEPRECIATION_YEARS))
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_FACILITY_LIFE_YEARS,
                               "facility_life_years = %g is below depreciation_years = %g, the IT's life: allowed 0 "
                               "(the IT's) or %g to 60",
                               P(FACILITY_LIFE_YEARS), P(DEPRECIATION_YEARS), P(DEPRECIATION_YEARS));
    if (P(BUDGET_CRITICAL_SHARE) < P(BUDGET_WARNING_SHARE))
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_BUDGET_CRITICAL_SHARE,
                               "budget_critical_share = %g is below budget_warning_share = %g: allowed %g to 1",
                               P(BUDGET_CRITICAL_SHARE), P(BUDGET_WARNING_SHARE), P(BUDGET_WARNING_SHARE));
    /* Derived once here: every estimate reads them from the frozen table.
     * The facility lives its own years, or the IT's when not given. */
    p->d.it = annuity_over(p, P(DEPRECIATION_YEARS));
    p->d.building = annuity_over(p, P(FACILITY_LIFE_YEARS) > 0 ? P(FACILITY_LIFE_YEARS) : P(DEPRECIATION_YEARS));
    p->d.staff_hour = P(STAFF_PER_FTE_YEAR) / P(STAFF_HOURS_PER_FTE_YEAR);
    /* The pricing table's one-offs (model/estimate.c, tco__one_off). */
    p->d.migration = P(MIGRATION_COST) + P(MIGRATION_DATA_TB) * 1e3 * P(EGRESS_INTERNET_PER_GB) +
                     P(MIGRATION_ENGINEER_MONTHS) * P(STAFF_PER_FTE_YEAR) / 12 +
                     P(MIGRATION_PARALLEL_MONTHS) * P(MIGRATION_PARALLEL_COST_PER_MONTH);
    p->d.learning_staff = P(LEARNING_FTE_MONTHS) * P(STAFF_PER_FTE_YEAR) / 12;
    p->d.listed = strcmp(p->text[IX_CURRENCY], LIST_CURRENCY) == 0;
    tco__table_rates(&p->d, p, p->d.listed);
    p->d.fte_per_node = 1 / P(NODES_PER_FTE);
    return TCO_OK;
}

int tco__obj_prepare(tco_obj *o, tco_error *err)
{
    switch (o->kind) {
    case TCO_HANDLE_TOPOLOGY: return topology_check(o, err);
    case TCO_HANDLE_WORKLOAD: return workload_check(o, err);
    default: return pricing_check(o, err);
    }
}
