/* Where the run's data lives under the workload's retention policy
 * (doc/model.md, section 9): GB-hours of the dataset, the checkpoints and
 * the logs on each tier over a horizon from the run's start. The estimate
 * charges the dataset's and the checkpoints' (section 3, storage); the
 * capacity room's lifecycle prices all three against keeping them hot. */
#include "model/model.h"

#define W(k) (w->v[IX_##k])

/* Hours of [from, to) inside [0, horizon). */
static double overlap(double from, double to, double horizon)
{
    return larger(0, smaller(to, horizon) - larger(from, 0));
}

/* Integral over t in [0, run) of min(t + x, horizon): t + x until
 * t = u = horizon - x (within [0, run]), horizon after. */
static double capped(double run, double x, double horizon)
{
    double u = larger(0, smaller(run, horizon - x));
    return u * x + u * u / 2 + (run - u) * horizon;
}

/* Data written at a steady rate over [0, run): the hours one GB written per
 * hour spends between `from` and `to` hours after it is written, cut at the
 * horizon. Integral of overlap(t + from, t + to) dt. */
static double written_at_rate(double run, double from, double to, double horizon)
{
    return capped(run, to, horizon) - capped(run, from, horizon);
}

/* Checkpoints written one every `every` hours during the run (n(t) =
 * t / every, `total` in all), then kept as they are until the horizon: what
 * every tier shares. */
typedef struct written_ckpts {
    double every, total;
    double end;   /* min(run, horizon) */
    double ramp;  /* end^2 / (2 every): the integral of n(t) up to end */
    double after; /* max(0, horizon - run): hours kept after the run */
} written_ckpts;

static written_ckpts written_ckpts_of(double every, double total, double run, double horizon)
{
    double end = smaller(run, horizon);
    written_ckpts c = { every, total, end, end * end / (2 * every), larger(0, horizon - run) };
    return c;
}

/* Checkpoint-hours of a tier holding at most `keep` of them. Integral of
 * min(n(t), keep). */
static double checkpoint_hours(double keep, const written_ckpts *c)
{
    double full = keep * c->every; /* the tier fills at `full` */
    double during = c->end <= full ? c->ramp : keep * full / 2 + keep * (c->end - full);
    return during + smaller(c->total, keep) * c->after;
}

void tco__storage_data_gb_hours(storage_use *s, const train_run *r, const tco_obj *w, double horizon)
{
    double run = r->wall;
    /* The dataset: hot for the run at least, then warm, then cold. */
    double dataset_gb = w->d.dataset_gb;
    double hot_end = larger(W(DATASET_HOT_DAYS) * 24, run);
    double warm_end = hot_end + W(DATASET_WARM_DAYS) * 24;
    double cold_end = warm_end + W(DATASET_COLD_DAYS) * 24;
    s->gb_h[TCO_DATA_DATASET][TCO_TIER_HOT] = dataset_gb * overlap(0, hot_end, horizon);
    s->gb_h[TCO_DATA_DATASET][TCO_TIER_WARM] = dataset_gb * overlap(hot_end, warm_end, horizon);
    s->gb_h[TCO_DATA_DATASET][TCO_TIER_COLD] = dataset_gb * overlap(warm_end, cold_end, horizon);

    /* Checkpoints: the newest on hot, the next ones on warm, then cold.
     * One written at the end of each interval worked. */
    double ckpt_gb = w->d.ckpt_gb;
    double written = r->segments;
    written_ckpts c = written_ckpts_of(run / written, written, run, horizon);
    double hot = W(CHECKPOINT_RETENTION), warm = hot + W(CHECKPOINT_WARM_RETENTION);
    double cold = warm + W(CHECKPOINT_COLD_RETENTION);
    double up_to_hot = checkpoint_hours(hot, &c);
    double up_to_warm = checkpoint_hours(warm, &c);
    double up_to_cold = checkpoint_hours(cold, &c);
    s->gb_h[TCO_DATA_CHECKPOINTS][TCO_TIER_HOT] = ckpt_gb * up_to_hot;
    s->gb_h[TCO_DATA_CHECKPOINTS][TCO_TIER_WARM] = ckpt_gb * (up_to_warm - up_to_hot);
    s->gb_h[TCO_DATA_CHECKPOINTS][TCO_TIER_COLD] = ckpt_gb * (up_to_cold - up_to_warm);
    s->written = written;
}

void tco__storage_gb_hours(storage_use *s, const train_run *r, const tco_obj *w, double horizon)
{
    tco__storage_data_gb_hours(s, r, w, horizon);
    double run = r->wall, written = s->written;
    written_ckpts c = written_ckpts_of(run / written, written, run, horizon);
    s->keep_hot[TCO_DATA_DATASET] = w->d.dataset_gb * horizon;
    s->keep_hot[TCO_DATA_CHECKPOINTS] = w->d.ckpt_gb * checkpoint_hours(written, &c);

    /* Logs and metric samples, written while the run goes: searchable for
     * log_hot_days, then warm until log_retention_days, then deleted. */
    double gb_per_hour = (W(LOG_BYTES_PER_ACCEL_HOUR) * r->N +
                          r->N * W(METRICS_PER_ACCELERATOR) * 3600 / W(METRICS_INTERVAL_SECONDS) *
                              W(METRIC_SAMPLE_BYTES)) / 1e9;
    double kept = W(LOG_RETENTION_DAYS) * 24, searchable = smaller(W(LOG_HOT_DAYS) * 24, kept);
    s->gb_h[TCO_DATA_LOGS][TCO_TIER_HOT] = gb_per_hour * written_at_rate(run, 0, searchable, horizon);
    s->gb_h[TCO_DATA_LOGS][TCO_TIER_WARM] = gb_per_hour * written_at_rate(run, searchable, kept, horizon);
    s->gb_h[TCO_DATA_LOGS][TCO_TIER_COLD] = 0;
    s->keep_hot[TCO_DATA_LOGS] = gb_per_hour * written_at_rate(run, 0, horizon, horizon);
}
