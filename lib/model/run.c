/* The run a scenario describes, derived once from the three handles: who
 * runs, how long it computes, stalls, checkpoints, fails and restarts, and
 * what every held accelerator-hour went to (doc/model.md, sections 1 and
 * 2). The estimate prices it; the capacity functions read its times. */
#include <math.h>
#include <string.h>

#include "model/model.h"

#define T(k) (t->v[IX_##k])
#define W(k) (w->v[IX_##k])
#define P(k) (p->v[IX_##k])

/* The input that set a utilisation found impossible. */
static int hfu_input(uint64_t flags)
{
    return flags & TCO_FLAG_TIME_FROM_RUN_ACCELERATOR_HOURS ? IX_RUN_ACCELERATOR_HOURS
           : flags & TCO_FLAG_TIME_FROM_ACHIEVED_FLOPS  ? IX_ACHIEVED_FLOPS_PER_ACCELERATOR
           : flags & TCO_FLAG_TIME_FROM_HFU             ? IX_HFU
                                                        : IX_MFU;
}

double tco__checkpoint_pause(const tco_obj *t, const tco_obj *w, double job_nodes)
{
    return W(CHECKPOINT_ASYNC) ? w->d.ckpt / (job_nodes * T(HOST_COPY_GBPS) * 3.6e12)
                               : checkpoint_write_hours(t, w);
}

/* The interval given, else `optimum`, never less than one write when
 * asynchronous. */
static double interval_or(const tco_obj *t, const tco_obj *w, double optimum)
{
    double tau = W(CHECKPOINT_INTERVAL_HOURS) > 0 ? W(CHECKPOINT_INTERVAL_HOURS) : optimum;
    if (W(CHECKPOINT_ASYNC))
        tau = larger(tau, checkpoint_write_hours(t, w)); /* the next one waits for the last write */
    return tau;
}

double tco__checkpoint_interval(const tco_obj *t, const tco_obj *w, double pause, double mtbf)
{
    /* An infinite MTBF needs no checkpoint before the end: one, there. */
    return interval_or(t, w, isfinite(mtbf) ? tco__daly_interval(pause, mtbf) : 0);
}

/* Memory per accelerator (model state with ZeRO sharding, Rajbhandari et
 * al. 2020; activations, Korthikanti et al. 2022) and the MFU ceiling of
 * the layout: the pipeline bubble of a 1F1B schedule (Narayanan et al.
 * 2021) and the communication not hidden behind compute. doc/model.md,
 * "Memory" and "The layout's ceiling". */
static int layout_of(layout *l, uint64_t *flags, const tco_obj *t, const tco_obj *w, const shape *sh, double n,
                     double per_node, double mp, double peak, double memory, tco_error *err)
{
    memset(l, 0, sizeof *l);
    double tp = W(TENSOR_PARALLEL), pp = W(PIPELINE_PARALLEL), dp = n / mp, per_dp = mp / n, zero = W(ZERO_STAGE);
    double ep = W(EXPERT_PARALLEL);
    if (!divides(ep, dp))
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_EXPERT_PARALLEL,
                               "expert_parallel = %g does not divide the %g data-parallel groups it splits the experts over",
                               ep, dp);
    /* The parameters one accelerator holds, sharded by ZeRO; the activations
     * and the step's FLOPs, as the workload's freeze found them
     * (core/check.c). */
    double total = w->d.params_share;
    double weights = 2, grads = W(GRADIENT_BYTES), optimizer = larger(0, W(CHECKPOINT_BYTES_PER_PARAM) - 2);
    l->state = total * ((zero >= 3 ? weights * per_dp : weights) + (zero >= 2 ? grads * per_dp : grads) +
                        (zero >= 1 ? optimizer * per_dp : optimizer));

    l->activations = w->d.activations;
    /* The state is a fact of the model and the sharding: past the memory,
     * the layout cannot run. Activations depend on schedule details the
     * model approximates: past it, a flag. A memory of 0 is unknown. */
    if (memory > 0 && l->state > memory) {
        int ix = zero < 3 ? IX_ZERO_STAGE : IX_TENSOR_PARALLEL;
        return tco__fail_param(err, TCO_E_INCONSISTENT, ix,
                               "the model does not fit: %g B of model state per accelerator (params_total = %g over tensor_parallel x pipeline_parallel = %g, zero_stage = %g) exceed its %g B",
                               l->state, W(PARAMS_TOTAL), mp, zero, memory);
    }
    if (memory > 0 && l->state + l->activations > memory)
        *flags |= TCO_FLAG_ACTIVATIONS_EXCEED_MEMORY;

    /* The step at peak FLOP/s, stretched by the bubble, plus what the
     * tensor-parallel and data-parallel exchanges do not hide. */
    double s = W(SEQ_LEN), b = W(MICRO_BATCH_SEQUENCES), h = sh->hidden;
    double per_peak = 1 / (n * peak);              /* s per FLOP of the job at peak */
    double ideal = w->d.step_hw_flops * per_peak; /* s per step */
    /* Micro-batches per pipeline and step, and their reciprocal. */
    double micro = s > 0 ? w->d.micro_batches * per_dp : 0, per_micro = s > 0 ? w->d.per_micro_batches * dp : 0;
    if (s > 0 && W(BATCH_TOKENS) < s * b * dp) /* micro < 1, exactly */
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_MICRO_BATCH_SEQUENCES,
                               "batch_tokens = %g holds %g sequences of seq_len = %g: fewer than one micro-batch of micro_batch_sequences = %g for each of the %g data-parallel groups",
                               W(BATCH_TOKENS), W(BATCH_TOKENS) / s, s, b, dp);
    l->bubble = micro > 0 ? (pp - 1) / (micro + pp - 1) : 0;
    double nic = t->d.nic; /* B/s */
    /* Without NICs (nics_per_node 0) the exchange runs over an interconnect
     * the model does not time: none counted. */
    double tp_link = tp <= per_node ? T(INTRA_NODE_GBPS) * 1e9 : nic;
    /* Four all-reduces of the layer's activations per micro-batch (two
     * more to recompute a layer), each moving 2 (tp - 1) / tp of them. */
    double exchanges = W(RECOMPUTE) == RECOMPUTE_FULL ? 6 : 4;
    double tp_s = tp > 1 && sh->layers > 0 && tp_link > 0
                      ? micro * w->d.stage_layers * exchanges * 2 * (tp - 1) / tp * s * b * h * 2 / tp_link
                      : 0;
    /* The gradients' ring all-reduce over the data-parallel group, hidden
     * behind the backward pass (two thirds of the step's compute). */
    double dp_s = dp > 1 && nic > 0 ? 2 * (1 - per_dp) * total * grads * t->d.nic_seconds_per_byte : 0;
    double dp_exposed = larger(0, dp_s - ideal * (2.0 / 3));
    /* ideal / (1 - bubble): 1 - bubble is micro / (micro + pp - 1). */
    double step = ideal * (1 + (pp - 1) * per_micro) + tp_s + dp_exposed, per_step = 1 / step;
    l->comm_exposed = (tp_s + dp_exposed) * per_step;
    l->mfu_ceiling = w->d.step_flops * per_peak * per_step;
    return TCO_OK;
}

int tco__accel_figures(accel_figures *a, const tco_obj *t, const tco_obj *w, tco_error *err)
{
    /* The topology's freeze picked them for either precision. */
    a->acc = t->d.acc;
    a->peak = t->d.peak[W(PRECISION) == PRECISION_FP8 ? PRECISION_FP8 : PRECISION_BF16];
    a->memory = t->d.memory;
    if (a->peak <= 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_PRECISION,
                               "precision = fp8, but %s has no FP8 peak: use bf16 or set accelerator_peak_flops",
                               a->acc->name);
    return TCO_OK;
}

int tco__run_derive(train_run *r, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err)
{
    /* Who runs: the cluster, the job, the accelerator. */
    double N = T(ACCELERATORS), per_node = T(ACCELERATORS_PER_NODE);
    double n = job_accelerators(t, w);
    double nodes = t->d.nodes, job_nodes = ceil(n / per_node);
    double model_parallel = W(TENSOR_PARALLEL) * W(PIPELINE_PARALLEL);
    if (n > N)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_JOB_ACCELERATORS,
                               "job_accelerators = %g exceeds the cluster's accelerators = %g", n, N);
    if (!divides(model_parallel, n))
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_TENSOR_PARALLEL,
                               "tensor_parallel x pipeline_parallel = %g does not divide the job's %g accelerators",
                               model_parallel, n);
    double dp = n / model_parallel;
    if (W(DATA_PARALLEL) > 0 && W(DATA_PARALLEL) != dp)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_DATA_PARALLEL,
                               "data_parallel = %g, but the job's %g accelerators over tensor x pipeline = %g give %g",
                               W(DATA_PARALLEL), n, model_parallel, dp);
    if (T(SITES) > dp)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_SITES,
                               "sites = %g exceeds the %g data-parallel groups that could be spread over them",
                               T(SITES), dp);
    accel_figures fig;
    int rc = tco__accel_figures(&fig, t, w, err);
    if (rc)
        return rc;
    double peak = fig.peak, memory = fig.memory;
    double tdp = t->d.tdp;
    rates rate;
    tco__rates(&rate, t, p);
    rc = tco__rates_need(&rate, t->d.classes, t, p, err);
    if (rc)
        return rc;

    /* Storage the run needs on the hot tier. */
    double ckpt = w->d.ckpt, tokens = w->d.tokens, dataset = w->d.dataset;
    double hot_need = dataset + W(CHECKPOINT_RETENTION) * ckpt;
    double hot_cap = T(STORAGE_HOT_TB) * 1e12;
    if (hot_cap > 0 && ckpt > hot_cap)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_CHECKPOINT_BYTES,
                               "one checkpoint of %g B exceeds storage_hot_tb = %g TB", ckpt, T(STORAGE_HOT_TB));
    if (hot_cap > 0 && hot_need > hot_cap)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_STORAGE_HOT_TB,
                               "storage_hot_tb = %g TB cannot hold the dataset (%g B) and checkpoint_retention = %g checkpoints of %g B: allowed at least %g TB",
                               T(STORAGE_HOT_TB), dataset, W(CHECKPOINT_RETENTION), ckpt, hot_need / 1e12);

    /* 1. Training time, from the FLOPs the workload's freeze counted
     * (core/check.c). */
    uint64_t flags = w->d.flags;
    const shape *sh = &w->d.shape;
    double model_fpt = w->d.model_fpt, hw_fpt = w->d.hw_fpt, flops = w->d.flops, hw_flops = w->d.hw_flops;

    /* 2. Goodput: failures and checkpoints (Young 1974, Daly 2006). They
     * depend on the job, not on how long it computes. */
    double spot_nodes = job_nodes * (1 - T(OWNED_SHARE)) * T(SPOT_SHARE);
    double spot_rate = spot_nodes * P(SPOT_INTERRUPTIONS_PER_NODE_HOUR);
    /* Failure rates add (tco__system_mtbf); the rate multiplies below
     * where the MTBF would divide. */
    double failure_rate = W(FAILURE_MODEL) == FAILURES_BY_JOB_SIZE
                              ? 1 / tco__job_size_mtbf(n) + spot_rate
                              : n * t->d.accel_failure_rate + job_nodes * t->d.node_failure_rate + spot_rate;
    double mtbf = 1 / failure_rate;
    flags |= W(FAILURE_MODEL) == FAILURES_BY_JOB_SIZE ? TCO_FLAG_FAILURES_BY_JOB_SIZE : 0;
    int failing = W(COUNT_FAILURES) != 0;
    flags |= failing ? 0 : TCO_FLAG_FAILURES_OFF;
    flags |= W(COUNT_RESTARTS) ? 0 : TCO_FLAG_RESTARTS_OFF;
    flags |= W(COUNT_CHECKPOINTS) ? 0 : TCO_FLAG_CHECKPOINTS_OFF;
    double delta = tco__checkpoint_pause(t, w, job_nodes);
    double pause = W(COUNT_CHECKPOINTS) ? delta : 0; /* what a checkpoint costs the run */
    double restart = W(COUNT_RESTARTS) ? t->d.restart_h : 0;
    /* Daly's optimum, which the estimate reports even when the interval is
     * given or failures are off; none needed without failures. */
    double young = tco__young_interval(delta, mtbf);
    double daly = tco__daly_from_young(delta, mtbf, failure_rate, young);
    double tau = interval_or(t, w, failing && isfinite(mtbf) ? daly : 0);
    /* wall = work x per_work + fixed: Daly's expected wall time is linear
     * in the work; without failures, pauses only (one checkpoint at the
     * end when none is needed before). A segment sees e^((tau+pause)/M) - 1
     * failures; a restart, e^(R/M) - 1 (one expm1 for both of its terms). */
    double per_work, fixed = 0, per_segment = failing ? expm1((tau + pause) * failure_rate) : 0;
    double per_restart = failing ? expm1(restart * failure_rate) : 0, per_tau = tau > 0 ? 1 / tau : 0;
    if (failing)
        per_work = mtbf * (1 + per_restart) * per_segment * per_tau;
    else if (tau > 0)
        per_work = (tau + pause) * per_tau;
    else
        per_work = 1, fixed = pause;

    /* The compute time: from the first input given of accelerator_hours,
     * achieved FLOP/s, hfu and mfu. */
    double compute_h, work_h, stall;
    double bw = T(STORAGE_HOT_GBPS) * 1e9 * 3600;           /* B per hour */
    /* The bytes a run reads from storage: compressed, less the cache's hits
     * (doc/model.md, section 23). */
    double data = w->d.read_bytes;
    /* A tier that serves at most storage_hot_iops requests a second takes
     * at least requests / IOPS to read them, whatever its bandwidth. */
    double iops_h = T(STORAGE_HOT_IOPS) > 0 ? w->d.requests / (T(STORAGE_HOT_IOPS) * 3600) : 0;
    double floor_share = W(DATA_STALL_SHARE);
    /* The utilisation given, if one set the time, and whether it counts
     * hardware FLOPs. */
    double given = 0;
    int on_hardware = 0;
    if (W(RUN_ACCELERATOR_HOURS) > 0) {
        flags |= TCO_FLAG_TIME_FROM_RUN_ACCELERATOR_HOURS;
        work_h = (W(RUN_ACCELERATOR_HOURS) / n - fixed) / per_work;
        if (!(work_h * bw >= data)) /* also a negative work */
            return tco__fail_param(err, TCO_E_INCONSISTENT, IX_RUN_ACCELERATOR_HOURS,
                                   "run_accelerator_hours = %g leaves %g h of work per run on %g accelerators, but reading the data from the hot tier alone takes %g h (storage_hot_gbps = %g)",
                                   W(RUN_ACCELERATOR_HOURS), work_h, n, data / bw, T(STORAGE_HOT_GBPS));
        if (!(work_h >= iops_h))
            return tco__fail_param(err, TCO_E_INCONSISTENT, IX_RUN_ACCELERATOR_HOURS,
                                   "run_accelerator_hours = %g leaves %g h of work per run on %g accelerators, but reading the data's requests from the hot tier alone takes %g h (storage_hot_iops = %g)",
                                   W(RUN_ACCELERATOR_HOURS), work_h, n, iops_h, T(STORAGE_HOT_IOPS));
        stall = floor_share;
        compute_h = work_h * (1 - stall);
    } else {
        if (W(ACHIEVED_FLOPS_PER_ACCELERATOR) > 0) {
            flags |= TCO_FLAG_TIME_FROM_ACHIEVED_FLOPS;
            on_hardware = W(ACHIEVED_FLOPS_BASIS) == BASIS_HARDWARE;
            given = W(ACHIEVED_FLOPS_PER_ACCELERATOR) / peak;
            compute_h = (on_hardware ? hw_flops : flops) / (n * W(ACHIEVED_FLOPS_PER_ACCELERATOR) * 3600);
        } else if (W(HFU) > 0) {
            flags |= TCO_FLAG_TIME_FROM_HFU;
            given = W(HFU), on_hardware = 1;
            compute_h = hw_flops / (n * peak * W(HFU) * 3600);
        } else {
            flags |= TCO_FLAG_TIME_FROM_MFU;
            given = W(MFU);
            compute_h = flops / (n * peak * W(MFU) * 3600);
        }
        /* Data stalls: the floor given, or what reading from the hot tier
         * imposes: with a prefetch the reads overlap the compute and the
         * work lasts at least as long as reading the data; without one
         * every step waits for its batch, so the two times add. Taken as
         * times, not as 1 - bandwidth / read rate, which loses every
         * digit when the bandwidth is far below the rate. */
        double floored = compute_h * w->d.work_per_compute, reading = data / bw;
        if (iops_h > reading)
            reading = iops_h;
        if (W(DATA_PREFETCH_DEPTH) == 0)
            reading += compute_h;
        work_h = reading > floored ? reading : floored;
        stall = reading > floored ? 1 - compute_h / work_h : floor_share;
    }
    flags |= stall > floor_share ? TCO_FLAG_STALL_BANDWIDTH : floor_share > 0 ? TCO_FLAG_STALL_FLOOR : 0;
    /* The utilisations. One given is the run's own: recomputed from the
     * time it set, it could round past 1 and refuse hfu = 1. */
    double per_peak_run = 1 / (n * peak * compute_h * 3600); /* 1 / the FLOPs of compute_h at peak */
    double mfu = flops * per_peak_run, hfu = hw_flops * per_peak_run;
    if (given > 0 && on_hardware)
        hfu = given, mfu = given * (flops / hw_flops);
    else if (given > 0)
        mfu = given, hfu = given * (hw_flops / flops);
    if (!(hfu <= 1))
        return tco__fail_param(err, TCO_E_INCONSISTENT, hfu_input(flags),
                               "the run would compute at %g of the accelerators' peak (hardware FLOPs %g in %g h on %g accelerators of %g FLOP/s): allowed at most 1",
                               hfu, hw_flops, compute_h, n, peak);
    double segments = tau > 0 ? work_h * per_tau : 1; /* without a checkpoint needed, one at the end */
    if (!failing && tau == 0)
        tau = work_h;

    double wall = work_h * per_work + fixed;
    if (!isfinite(wall) || wall > 1e12) {
        /* Name the input that matters most: the restart, or the largest rate. */
        double accel_rate = n / T(ACCELERATOR_MTBF_HOURS), node_rate = job_nodes / T(NODE_MTBF_HOURS);
        int ix = restart > tau + delta                      ? IX_RESTART_MINUTES
                 : spot_rate > larger(accel_rate, node_rate) ? IX_SPOT_INTERRUPTIONS_PER_NODE_HOUR
                 : W(FAILURE_MODEL) == FAILURES_BY_JOB_SIZE ? IX_FAILURE_MODEL
                 : node_rate > accel_rate                  ? IX_NODE_MTBF_HOURS
                                                           : IX_ACCELERATOR_MTBF_HOURS;
        return tco__fail_param(err, TCO_E_INCONSISTENT, ix,
                               "the run never finishes: the job fails every %g h on average, against %g h to checkpoint and %g h to restart",
                               mtbf, delta, restart);
    }
    double ckpt_h = segments * pause;
    /* Daly's model, split: work_h/tau segments see e^((tau+pause)/M) - 1
     * failures each, and a restart may fail too, so each costs M (e^(R/M) - 1). */
    double restart_h = failing ? segments * per_segment * mtbf * per_restart : 0;
    /* What is left of the wall time: never below 0, where rounding leaves
     * a residue of the last bits of a wall time with few failures. */
    double lost_h = failing ? larger(0, wall - work_h - ckpt_h - restart_h) : 0;
    double failures = failing ? wall * failure_rate : 0;
    double retry_h = wall * w->d.retry_factor;
    double runs = W(RUNS);
    double held = runs * (wall + retry_h) + W(QUEUE_WAIT_HOURS);

    /* Memory per accelerator and what the layout allows. */
    layout lay;
    rc = layout_of(&lay, &flags, t, w, sh, n, per_node, model_parallel, peak, memory, err);
    if (rc)
        return rc;
    if (mfu > lay.mfu_ceiling)
        flags |= TCO_FLAG_MFU_ABOVE_CEILING;

    /* Accelerator-hours: every billed hour is useful or one kind of waste. */
    double billed = N * held, useful = n * compute_h * runs;
    double waste_h[WASTES];
    waste_h[TCO_WASTE_IDLE] = (N - n) * runs * (wall + retry_h) + N * W(QUEUE_WAIT_HOURS);
    waste_h[TCO_WASTE_FAILURES] = n * runs * (restart_h + lost_h);
    waste_h[TCO_WASTE_DATA_STALLS] = n * runs * (work_h - compute_h);
    waste_h[TCO_WASTE_CHECKPOINTS] = n * runs * ckpt_h;
    waste_h[TCO_WASTE_RETRIES] = n * runs * retry_h;

    r->N = N;
    r->per_node = per_node;
    r->n = n;
    r->nodes = nodes;
    r->job_nodes = job_nodes;
    r->model_parallel = model_parallel;
    r->peak = peak;
    r->tdp = tdp;
    r->memory = memory;
    r->rates = rate;
    r->ckpt = ckpt;
    r->tokens = tokens;
    r->hot_need = hot_need;
    r->hot_cap = hot_cap;
    r->flops = flops;
    r->hw_flops = hw_flops;
    r->model_fpt = model_fpt;
    r->hw_fpt = hw_fpt;
    r->attention_layers = sh->layers;
    r->attention_width = sh->width;
    r->lay = lay;
    r->mfu = mfu;
    r->hfu = hfu;
    r->restart_h = restart_h;
    r->lost_h = lost_h;
    r->flags = flags;
    r->compute_h = compute_h;
    r->stall = stall;
    r->work_h = work_h;
    r->spot_rate = spot_rate;
    r->mtbf = mtbf;
    r->delta = delta;
    r->restart = restart;
    r->tau = tau;
    r->segments = segments;
    r->daly = daly;
    r->young = young;
    r->wall = wall;
    r->ckpt_h = ckpt_h;
    r->failures = failures;
    r->retry_h = retry_h;
    r->runs = runs;
    r->held = held;
    r->billed = billed;
    r->useful = useful;
    memcpy(r->waste_h, waste_h, sizeof waste_h);
    return TCO_OK;
}
