/* Log and metrics governance: what monitoring the cluster costs per month
 * at one sampling interval and retention against another (doc/model.md,
 * section 10). */
#include "capacity/capacity.h"

#define T(k) (t->o.v[IX_##k])
#define W(k) (w->o.v[IX_##k])
#define P(k) (p->o.v[IX_##k])

typedef struct {
    double samples, stored_gb, cost;
} monitoring;

/* One month of the whole cluster, steady state: everything ingested in a
 * month, and what is kept at any time (a month's worth per month kept). */
static monitoring per_month(const tco_topology *t, const tco_workload *w, const tco_pricing *p,
                            double interval_s, double retention_days)
{
    monitoring m;
    double accelerators = T(ACCELERATORS);
    double log_gb = W(LOG_BYTES_PER_ACCEL_HOUR) * accelerators * HOURS_PER_MONTH / 1e9;
    m.samples = accelerators * W(METRICS_PER_ACCELERATOR) * HOURS_PER_MONTH * 3600 / interval_s;
    double sample_gb = m.samples * W(METRIC_SAMPLE_BYTES) / 1e9;
    m.stored_gb = (log_gb + sample_gb) * retention_days / DAYS_PER_MONTH;
    m.cost = log_gb * P(LOG_INGEST_PER_GB) + m.samples / 1e6 * P(METRICS_PER_MILLION_SAMPLES) +
             m.stored_gb * P(LOG_RETAINED_PER_GB_MONTH);
    return m;
}

int tco_logging_compare(tco_logging *out, double interval_seconds, double retention_days,
                        const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    int rc;
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < LOGGING_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_logging", out->size, LOGGING_V1_SIZE);
    if ((rc = tco__frozen_inputs(t, w, p, err)))
        return rc;
    /* The proposal obeys the same bounds as the workload's own settings. */
    if ((rc = tco__param_check(&tco__params[IX_METRICS_INTERVAL_SECONDS], interval_seconds, err)) ||
        (rc = tco__param_check(&tco__params[IX_LOG_RETENTION_DAYS], retention_days, err)))
        return rc;
    monitoring now = per_month(t, w, p, W(METRICS_INTERVAL_SECONDS), W(LOG_RETENTION_DAYS));
    monitoring then = per_month(t, w, p, interval_seconds, retention_days);
    tco_logging l = { .size = sizeof l };
    l.samples_per_month = now.samples;
    l.stored_gb = now.stored_gb;
    l.cost_per_month = now.cost;
    l.proposed_samples_per_month = then.samples;
    l.proposed_stored_gb = then.stored_gb;
    l.proposed_cost_per_month = then.cost;
    l.savings_per_month = now.cost - then.cost;
    l.savings_share = now.cost > 0 ? l.savings_per_month / now.cost : 0;
    sized_fill(out, &l, sizeof l);
    return TCO_OK;
}
