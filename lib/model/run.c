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

int tco__run_derive(train_run *r, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err)
{
    /* Who runs: the cluster, the job, the accelerator. */
    double N = T(ACCELERATORS), per_node = T(ACCELERATORS_PER_NODE);
    double n = job_accelerators(t, w);
    double nodes = N / per_node, job_nodes = ceil(n / per_node);
    double model_parallel = W(TENSOR_PARALLEL) * W(PIPELINE_PARALLEL);
    if (n > N)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_JOB_ACCELERATORS,
                               "job_accelerators = %g exceeds the cluster's accelerators = %g", n, N);
    if (fmod(n, model_parallel) != 0)
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
    const tco_accelerator *acc = tco__catalogue_find((int32_t)T(ACCELERATOR_MODEL));
    int fp8 = W(PRECISION) == PRECISION_FP8;
    double peak = T(ACCELERATOR_PEAK_FLOPS) > 0 ? T(ACCELERATOR_PEAK_FLOPS)
                                                 : fp8 ? acc->fp8_flops : acc->bf16_flops;
    if (peak <= 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_PRECISION,
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
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_CHECKPOINT_BYTES,
                               "one checkpoint of %g B exceeds storage_hot_tb = %g TB", ckpt, T(STORAGE_HOT_TB));
    if (hot_cap > 0 && hot_need > hot_cap)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_STORAGE_HOT_TB,
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
    double mtbf = tco__system_mtbf(n, T(ACCELERATOR_MTBF_HOURS), job_nodes, T(NODE_MTBF_HOURS), spot_rate);
    double write_h = checkpoint_write_hours(t, w);
    double delta = W(CHECKPOINT_ASYNC) ? ckpt / (job_nodes * T(HOST_COPY_GBPS) * 1e9) / 3600 : write_h;
    double restart = T(RESTART_MINUTES) / 60;
    double tau = W(CHECKPOINT_INTERVAL_HOURS) > 0 ? W(CHECKPOINT_INTERVAL_HOURS) : tco__daly_interval(delta, mtbf);
    if (W(CHECKPOINT_ASYNC))
        tau = fmax(tau, write_h); /* the next checkpoint waits for the last write */
    double wall = tco__daly_wall_time(work_h, tau, delta, restart, mtbf);
    if (!isfinite(wall) || wall > 1e12) {
        /* Name the input that matters most: the restart, or the largest rate. */
        double accel_rate = n / T(ACCELERATOR_MTBF_HOURS), node_rate = job_nodes / T(NODE_MTBF_HOURS);
        int ix = restart > tau + delta                      ? IX_RESTART_MINUTES
                 : spot_rate > fmax(accel_rate, node_rate) ? IX_SPOT_INTERRUPTIONS_PER_NODE_HOUR
                 : node_rate > accel_rate                  ? IX_NODE_MTBF_HOURS
                                                           : IX_ACCELERATOR_MTBF_HOURS;
        return tco__fail_param(err, TCO_E_INCONSISTENT, ix,
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

    r->N = N;
    r->per_node = per_node;
    r->n = n;
    r->nodes = nodes;
    r->job_nodes = job_nodes;
    r->model_parallel = model_parallel;
    r->peak = peak;
    r->tdp = tdp;
    r->memory = memory;
    r->ckpt = ckpt;
    r->tokens = tokens;
    r->hot_need = hot_need;
    r->hot_cap = hot_cap;
    r->flops = flops;
    r->compute_h = compute_h;
    r->stall = stall;
    r->work_h = work_h;
    r->spot_rate = spot_rate;
    r->mtbf = mtbf;
    r->delta = delta;
    r->restart = restart;
    r->tau = tau;
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
