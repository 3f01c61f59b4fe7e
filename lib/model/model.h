/* The model: a training run and its cost. What the rooms above (capacity,
 * sched, io) may call: the reliability formulas, the run derived from a
 * scenario, the estimate, and the estimate's field table. Not installed. */
#ifndef TCO_MODEL_H
#define TCO_MODEL_H

#include "core/core.h"

/* ---- failures and checkpoints (reliability.c); all times in hours ------ */

double tco__system_mtbf(double accelerators, double accel_mtbf, double nodes, double node_mtbf,
                        double extra_rate_per_hour);
double tco__young_interval(double delta, double mtbf);
double tco__daly_interval(double delta, double mtbf);
double tco__daly_wall_time(double work, double tau, double delta, double restart, double mtbf);

/* ---- the run (run.c) --------------------------------------------------- */

/* What a scenario's run is, before any price: the derivation step that the
 * estimate and the capacity functions share. Hours unless named. */
typedef struct train_run {
    double N, per_node, n;            /* cluster's and job's accelerators */
    double nodes, job_nodes, model_parallel;
    double peak, tdp, memory;         /* FLOP/s, W, B per accelerator */
    double ckpt, tokens;              /* B per checkpoint; tokens per run */
    double hot_need, hot_cap;         /* B on the hot tier: needed, provisioned (0: as needed) */
    double flops, compute_h, stall, work_h;
    double spot_rate, mtbf;           /* reclaims per hour; the job's MTBF */
    double delta, restart, tau, wall; /* checkpoint pause, restart, interval, wall time */
    double ckpt_h, failures, retry_h, runs, held;
    double billed, useful;            /* accelerator-hours held, and useful */
    double waste_h[TCO_WASTE_SLOTS];  /* accelerator-hours of each waste */
} train_run;

/* Derives the run of frozen (or prepared) handles, or fails naming the
 * input that makes it impossible. */
int tco__run_derive(train_run *r, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err);

/* ---- the estimate (estimate.c, fields.c) ------------------------------- */

/* The whole estimate into this version's struct; out is written only on
 * success. */
int tco__estimate(tco_estimate *out, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err);

/* The fields of tco_estimate, in struct order. */
typedef struct field_row {
    const char *name, *unit, *description;
    int32_t type; /* a tco_field_type */
    size_t offset;
} field_row;
#define FIELDS_MAX 256
extern const field_row tco__fields[];
extern const size_t tco__field_rows;

#endif
