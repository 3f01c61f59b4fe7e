/* Hot, warm and cold placement of the dataset, checkpoints and logs under a
 * retention policy, priced over a horizon (doc/model.md, section 9): the
 * GB-hours are the model's (model/storage.c, which the estimate charges
 * too); this prices them against keeping everything hot. */
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

int tco_lifecycle_compute(tco_lifecycle *out, const tco_topology *t, const tco_workload *w,
                          const tco_pricing *p, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < LIFECYCLE_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_lifecycle", out->size, LIFECYCLE_V1_SIZE);
    train_run r; /* the run's times, from checked inputs */
    int rc = tco__frozen_inputs(t, w, p, err);
    if (rc || (rc = tco__run_derive(&r, &t->o, &w->o, &p->o, err)))
        return rc;
    tco_lifecycle l = { .size = sizeof l };
    double horizon = W(LIFECYCLE_HORIZON_DAYS) * 24;
    l.horizon_days = W(LIFECYCLE_HORIZON_DAYS);
    storage_use use;
    tco__storage_gb_hours(&use, &r, &w->o, horizon);
    double (*gb_h)[3] = use.gb_h, *keep_hot_gb_h = use.keep_hot, written = use.written;
    double hot = W(CHECKPOINT_RETENTION), cold = hot + W(CHECKPOINT_WARM_RETENTION) + W(CHECKPOINT_COLD_RETENTION);

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
