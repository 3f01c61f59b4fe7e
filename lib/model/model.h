/* The model: a training run and its cost. What the rooms above (capacity,
 * sched, io) may call: the reliability formulas, the run derived from a
 * scenario, the estimate, and the estimate's field table. Not installed. */
#ifndef TCO_MODEL_H
#define TCO_MODEL_H

#include "core/core.h"

/* Reciprocals of the units the estimate converts between, so that it
 * multiplies rather than divides (a division costs as much as several
 * multiplications and they queue behind one another). */
#define YEARS_PER_HOUR (1 / HOURS_PER_YEAR)
#define MONTHS_PER_HOUR (1 / HOURS_PER_MONTH)

/* The larger and the smaller of two numbers that the checks leave finite
 * (never NaN): one comparison, which compiles to maxsd and minsd. Where
 * an operand can still be NaN, max_of and min_of (core.h) keep C99's
 * rule. */
static inline double larger(double a, double b)
{
    return a > b ? a : b;
}

static inline double smaller(double a, double b)
{
    return a < b ? a : b;
}

/* The estimate is built with every call inside it inlined where the
 * compiler offers that (flatten: gcc does, with the link-time optimisation
 * of the shared library across files), so that the run, the hardware and
 * the storage it derives stay in registers instead of passing through
 * structs in memory; another compiler, or one that declines, builds plain
 * calls. Inlining moves no result: the same operations round the same
 * way, and no contraction crosses a statement (gcc in ISO C mode
 * contracts none, clang only within one expression). */
#if defined(__has_attribute)
#if __has_attribute(flatten)
#define TCO__FLATTEN __attribute__((flatten))
#endif
#endif
#ifndef TCO__FLATTEN
#define TCO__FLATTEN
#endif

/* ---- failures and checkpoints (reliability.c); all times in hours ------ */

double tco__system_mtbf(double accelerators, double accel_mtbf, double nodes, double node_mtbf,
                        double extra_rate_per_hour);
double tco__young_interval(double delta, double mtbf);
double tco__daly_interval(double delta, double mtbf); /* a finite MTBF */
/* Daly's interval from the failure rate (1 / mtbf) and Young's interval. */
double tco__daly_from_young(double delta, double mtbf, double rate, double young);
double tco__daly_wall_time(double work, double tau, double delta, double restart, double mtbf);
/* The MTBF of a job of n accelerators from published job failure rates
 * (h): failure_model = by_job_size. */
double tco__job_size_mtbf(double n);

/* ---- the run (run.c) --------------------------------------------------- */

/* The accelerator a run uses (run.c): its catalogue entry, its dense peak
 * at the workload's precision and its memory, the topology's overrides
 * first; an FP8 run on an accelerator without an FP8 peak fails naming
 * precision. Training and serving read the same figures. */
typedef struct accel_figures {
    const tco_accelerator *acc;
    double peak;   /* FLOP/s */
    double memory; /* B */
} accel_figures;
int tco__accel_figures(accel_figures *a, const tco_obj *t, const tco_obj *w, tco_error *err);

/* What the parallel layout implies per accelerator and per step. */
typedef struct layout {
    double state, activations; /* B per accelerator */
    double bubble;             /* share of a step, 1F1B */
    double comm_exposed;       /* share of a step at peak */
    double mfu_ceiling;
} layout;

/* The categories and wastes there are: tco_category_count(),
 * tco_waste_count(). */
enum { CATEGORIES = TCO_CAT_WASTE + 1, WASTES = TCO_WASTE_RETRIES + 1 };

/* What a scenario's run is, before any price: the derivation step that the
 * estimate and the capacity functions share. Hours unless named. */
typedef struct train_run {
    double N, per_node, n;            /* cluster's and job's accelerators */
    double nodes, job_nodes, model_parallel;
    double peak, tdp, memory;         /* FLOP/s, W, B per accelerator */
    rates rates;                      /* the pricing table's, list prices resolved */
    double ckpt, tokens;              /* B per checkpoint; tokens per run */
    double hot_need, hot_cap;         /* B on the hot tier: needed, provisioned (0: as needed) */
    double flops, hw_flops;           /* model and hardware FLOPs per run */
    double model_fpt, hw_fpt;         /* FLOPs per token: model, hardware */
    double attention_layers, attention_width; /* the shape the attention term used */
    layout lay;
    double mfu, hfu;                  /* the utilisations achieved */
    double compute_h, stall, work_h;
    double spot_rate, mtbf;           /* reclaims per hour; the job's MTBF */
    double delta, restart, tau, wall; /* checkpoint pause, restart, interval, wall time */
    double segments;                  /* work_h / tau: the intervals worked, a checkpoint each */
    double daly, young;               /* Daly's and Young's optimum intervals for delta and the MTBF */
    double ckpt_h, failures, restart_h, lost_h, retry_h, runs, held;
    double billed, useful;            /* accelerator-hours held, and useful */
    double waste_h[WASTES];           /* accelerator-hours of each waste */
    uint64_t flags;                   /* tco_estimate_flag bits */
} train_run;

/* The pause one checkpoint causes (h): the whole write, or the copy to
 * host memory when asynchronous; the estimate and the spot overhead of the
 * capacity split share it. */
double tco__checkpoint_pause(const tco_obj *t, const tco_obj *w, double job_nodes);
/* The working hours between checkpoints: checkpoint_interval_hours when
 * set, else Daly's optimum for the pause and the MTBF (0 when the MTBF is
 * infinite: no checkpoint is needed before the end), and with asynchronous
 * checkpoints never less than one write. */
double tco__checkpoint_interval(const tco_obj *t, const tco_obj *w, double pause, double mtbf);

/* Derives the run of frozen (or prepared) handles, or fails naming the
 * input that makes it impossible. */
int tco__run_derive(train_run *r, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err);

/* ---- the estimate (estimate.c, fields.c) ------------------------------- */

/* What the hardware of a run costs, rented and owned, as the estimate
 * prices it (doc/model.md, section 3); the comparison's break-even figures
 * read the same numbers. Annuities are cur per year of one item. */
typedef struct hardware {
    rates rates;           /* the run's: the pricing table's, list prices resolved */
    double rental_rate;    /* cur per rented accelerator-hour: reserved, spot and on demand blended */
    double accel_price;    /* cur: one accelerator with its share of the server and its deployment */
    double owned_per_year; /* one accelerator with its share of the server */
    double it_kw;          /* average IT draw of the cluster */
    double plant_kw;       /* the cooling plant, sized for full load */
    double plant_capex;    /* cur: the cooling plant */
    double plant_per_year; /* the cluster's cooling plant, over the facility's life */
    double facility_capex; /* cur: power distribution, UPS, generators (facility_capex_per_kw x plant_kw) */
    double facility_per_year; /* their annuity over the facility's life, and colocation */
    double fabric_capex;   /* cur: the fabric freeze sized, priced */
    double fabric_per_year;
    int rented_energy;     /* 1: rental rates exclude power (rental_includes_power 0): rented hours pay
                            * their energy apart, as owned ones do */
    double energy_share;   /* of the cluster, the accelerators whose energy is paid apart */
    double staff_hour;     /* cur per hour of event-driven operations work */
    double failures_per_hour; /* of the whole cluster: its accelerators and nodes (0 with count_failures 0) */
    double events_per_hour;   /* cur per held hour of the cluster: failures handled, upgrades, automated away */
    double spares_per_hour;   /* cur per held hour: parts for the owned share's failures */
} hardware;

void tco__hardware(hardware *h, const train_run *r, const tco_obj *t, const tco_obj *w, const tco_obj *p);
/* The same for the whole cluster, without a run: what an attribution and
 * a lifetime price (no training shape is derived, so only the rates can
 * fail). */
int tco__cluster_hardware(hardware *h, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err);

/* What is paid once (cur), the one-off part of the indirect category
 * (doc/model.md, section 3): migration and learning as given and as
 * derived from their drivers, and the expected cost of the adverse event;
 * spread over indirect_spread_runs runs, of which an estimate of `runs`
 * carries its share. hw is the cluster's hardware (its hourly cost prices
 * the output lost while learning). */
double tco__one_off(const tco_obj *t, const tco_obj *p, const hardware *hw, double runs);

/* The categories before the indirect one added in their order (cost[] by
 * tco_category): the start of both the risk premium's sum and the total. */
static inline double before_indirect(const double *cost)
{
    double rest = 0;
    for (int c = 0; c < TCO_CAT_INDIRECT; c++)
        rest += cost[c];
    return rest;
}

/* The risk premium (cur): a share of every other category, waste
 * included, but not of migration and learning; `before` is
 * before_indirect(cost). */
static inline double risk_premium_of(const tco_obj *p, double before, const double *cost)
{
    return p->v[IX_RISK_PREMIUM_SHARE] * (before + cost[TCO_CAT_WASTE]);
}

static inline double risk_premium(const tco_obj *p, const double *cost)
{
    return risk_premium_of(p, before_indirect(cost), cost);
}

/* ---- where the run's data lives (storage.c) ------------------------------ */

/* GB-hours by tco_data_class and tco_tier under the workload's retention
 * policy, over `horizon` hours from the run's start; what keeping each
 * class hot to the horizon would take; the checkpoints written. */
typedef struct storage_use {
    double gb_h[3][3];
    double keep_hot[3];
    double written;
} storage_use;
void tco__storage_gb_hours(storage_use *s, const train_run *r, const tco_obj *w, double horizon);
/* Only what the estimate charges: gb_h of the dataset and the checkpoints,
 * and written. */
void tco__storage_data_gb_hours(storage_use *s, const train_run *r, const tco_obj *w, double horizon);

/* The estimate of a run tco__run_derive derived: cannot fail. */
void tco__estimate_run(tco_estimate *out, const train_run *r, const tco_obj *t, const tco_obj *w,
                       const tco_obj *p);
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
