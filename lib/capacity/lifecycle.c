/* Hot, warm and cold placement of the dataset, checkpoints and logs under a
 * retention policy, priced over a horizon (doc/model.md, section 9). All
 * times in hours from the run's start; storage in GB-hours until priced. */
#include <math.h>

#include "capacity/capacity.h"
#include "model/model.h"

#define T(k) (t->o.v[IX_##k])
#define W(k) (w->o.v[IX_##k])
#define P(k) (p->o.v[IX_##k])

static const char *const class_names[] = { "dataset", "checkpoints", "logs" };
static const char *const tier_names[] = { "hot", "warm", "cold" };

const char *tco_data_class_name(int32_t c)
{
    return c >= 0 && c < 3 ? class_names[c] : NULL;
}

const char *tco_tier_name(int32_t t)
{
    return t >= 0 && t < 3 ? tier_names[t] : NULL;
}

/* Hours of [from, to) inside [0, horizon). */
static double overlap(double from, double to, double horizon)
{
    return fmax(0, fmin(to, horizon) - fmax(from, 0));
}

/* Integral over t in [0, run) of min(t + x, horizon): t + x until
 * t = u = horizon - x (within [0, run]), horizon after. */
static double capped(double run, double x, double horizon)
{
    double u = fmax(0, fmin(run, horizon - x));
    return u * x + u * u / 2 + (run - u) * horizon;
}

/* Data written at a steady rate over [0, run): the hours one GB written per
 * hour spends between `from` and `to` hours after it is written, cut at the
 * horizon. Integral of overlap(t + from, t + to) dt. */
static double written_at_rate(double run, double from, double to, double horizon)
{
    return capped(run, to, horizon) - capped(run, from, horizon);
}

/* Checkpoint-hours of a tier holding at most `keep` checkpoints, written one
 * every `every` hours during the run (n(t) = t / every, `total` in all),
 * then kept as they are until the horizon. Integral of min(n(t), keep). */
static double checkpoint_hours(double keep, double every, double run, double total, double horizon)
{
    double end = fmin(run, horizon), full = keep * every; /* the tier fills at `full` */
    double during = end <= full ? end * end / (2 * every) : keep * full / 2 + keep * (end - full);
    return during + fmin(total, keep) * fmax(0, horizon - run);
}

int tco_lifecycle_compute(tco_lifecycle *out, const tco_topology *t, const tco_workload *w,
                          const tco_pricing *p, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < LIFECYCLE_V1_SIZE)
        return tco__fail(err, TCO_E_SIZE, "tco_lifecycle.size = %zu is below %zu", out->size,
                         LIFECYCLE_V1_SIZE);
    train_run r; /* the run's times, from checked inputs */
    int rc = tco__frozen_inputs(t, w, p, err);
    if (rc || (rc = tco__run_derive(&r, &t->o, &w->o, &p->o, err)))
        return rc;
    tco_lifecycle l = { .size = sizeof l };
    double horizon = W(LIFECYCLE_HORIZON_DAYS) * 24, run = r.wall;
    l.horizon_days = W(LIFECYCLE_HORIZON_DAYS);
    double gb_h[3][3] = { { 0 } }, keep_hot_gb_h[3];

    /* The dataset: hot for the run at least, then warm, then cold. */
    double dataset_gb = dataset_size(&w->o) / 1e9;
    double hot_end = fmax(W(DATASET_HOT_DAYS) * 24, run);
    double warm_end = hot_end + W(DATASET_WARM_DAYS) * 24;
    double cold_end = warm_end + W(DATASET_COLD_DAYS) * 24;
    gb_h[TCO_DATA_DATASET][TCO_TIER_HOT] = dataset_gb * overlap(0, hot_end, horizon);
    gb_h[TCO_DATA_DATASET][TCO_TIER_WARM] = dataset_gb * overlap(hot_end, warm_end, horizon);
    gb_h[TCO_DATA_DATASET][TCO_TIER_COLD] = dataset_gb * overlap(warm_end, cold_end, horizon);
    keep_hot_gb_h[TCO_DATA_DATASET] = dataset_gb * horizon;

    /* Checkpoints: the newest on hot, the next ones on warm, then cold. */
    double ckpt_gb = r.ckpt / 1e9;
    /* Written while computing and stalled: the estimate's two times, added. */
    double written = (r.compute_h + (r.work_h - r.compute_h)) / r.tau;
    double every = run / written;
    double hot = W(CHECKPOINT_RETENTION), warm = hot + W(CHECKPOINT_WARM_RETENTION);
    double cold = warm + W(CHECKPOINT_COLD_RETENTION);
    double up_to_hot = checkpoint_hours(hot, every, run, written, horizon);
    double up_to_warm = checkpoint_hours(warm, every, run, written, horizon);
    double up_to_cold = checkpoint_hours(cold, every, run, written, horizon);
    gb_h[TCO_DATA_CHECKPOINTS][TCO_TIER_HOT] = ckpt_gb * up_to_hot;
    gb_h[TCO_DATA_CHECKPOINTS][TCO_TIER_WARM] = ckpt_gb * (up_to_warm - up_to_hot);
    gb_h[TCO_DATA_CHECKPOINTS][TCO_TIER_COLD] = ckpt_gb * (up_to_cold - up_to_warm);
    keep_hot_gb_h[TCO_DATA_CHECKPOINTS] = ckpt_gb * checkpoint_hours(written, every, run, written, horizon);

    /* Logs and metric samples, written while the run goes: searchable for
     * log_hot_days, then warm until log_retention_days, then deleted. */
    double gb_per_hour = (W(LOG_BYTES_PER_ACCEL_HOUR) * r.N +
                          r.N * W(METRICS_PER_ACCELERATOR) * 3600 /
                              W(METRICS_INTERVAL_SECONDS) * W(METRIC_SAMPLE_BYTES)) / 1e9;
    double kept = W(LOG_RETENTION_DAYS) * 24, searchable = fmin(W(LOG_HOT_DAYS) * 24, kept);
    gb_h[TCO_DATA_LOGS][TCO_TIER_HOT] = gb_per_hour * written_at_rate(run, 0, searchable, horizon);
    gb_h[TCO_DATA_LOGS][TCO_TIER_WARM] = gb_per_hour * written_at_rate(run, searchable, kept, horizon);
    keep_hot_gb_h[TCO_DATA_LOGS] = gb_per_hour * written_at_rate(run, 0, horizon, horizon);

    /* Prices: logs' hot tier is the log store; the rest are storage tiers. */
    double price[3][3] = {
        { P(STORAGE_HOT_PER_GB_MONTH), P(STORAGE_WARM_PER_GB_MONTH), P(STORAGE_COLD_PER_GB_MONTH) },
        { P(STORAGE_HOT_PER_GB_MONTH), P(STORAGE_WARM_PER_GB_MONTH), P(STORAGE_COLD_PER_GB_MONTH) },
        { P(LOG_RETAINED_PER_GB_MONTH), P(STORAGE_WARM_PER_GB_MONTH), P(STORAGE_COLD_PER_GB_MONTH) },
    };
    for (int c = 0; c < 3; c++) {
        for (int k = 0; k < 3; k++) {
            l.gb_months[c][k] = gb_h[c][k] / HOURS_PER_MONTH;
            l.cost[c][k] = l.gb_months[c][k] * price[c][k];
            l.policy_cost += l.cost[c][k];
        }
        l.keep_hot_cost += keep_hot_gb_h[c] / HOURS_PER_MONTH * price[c][TCO_TIER_HOT];
    }
    l.savings = l.keep_hot_cost - l.policy_cost;
    l.checkpoints_written = written;
    l.restart_window_hot_hours = fmin(hot, written) * r.tau;
    l.restart_window_hours = fmin(cold, written) * r.tau;
    sized_fill(out, &l, sizeof l);
    return TCO_OK;
}
