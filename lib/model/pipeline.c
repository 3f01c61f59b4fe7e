/* The data pipeline of a scenario (doc/model.md, section 23): pulling,
 * preparing, storing and reading the training data, each a cost line, and
 * the data stall a cache and prefetching imply, for the request's values
 * in place of the workload's and pricing table's parameters of the same
 * names, which the estimate itself prices (estimate.c, run.c). */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "model/model.h"

#define REQUEST_V1_SIZE V1_SIZE(tco_pipeline_request, storage_months)
#define PIPELINE_V1_SIZE V1_SIZE(tco_pipeline, estimate_data_stall_share)
#define MIB 1048576.0

void tco_pipeline_request_init(tco_pipeline_request *q)
{
    if (!q)
        return;
    memset(q, 0, sizeof *q);
    q->size = sizeof *q;
    q->dedup_kept_share = 1;
    q->compression_ratio = 1;
    q->prefetch_depth = 2;    /* PyTorch DataLoader's prefetch_factor default */
    q->object_bytes = 16 * MIB; /* the byte-range size AWS's S3 performance guidelines suggest */
}

/* The request's fields, checked in struct order: the first wrong one is named. */
static const struct field {
    const char *name, *unit;
    size_t offset;
    double lo, hi;
    int open_lo, whole;
} fields[] = {
#define F(m, lo, hi, open_lo, whole, unit) \
    { "pipeline." #m, unit, offsetof(tco_pipeline_request, m), lo, hi, open_lo, whole }
    F(raw_bytes, 0, 1e19, 0, 0, "B (0: the workload's dataset)"),
    F(preprocess_cpu_node_hours_per_tb, 0, 1e6, 0, 0, "node-h/TB"),
    F(cpu_node_hour_price, 0, 1e4, 0, 0, "cur/node-h"),
    F(dedup_kept_share, 0, 1, 1, 0, ""),
    F(compression_ratio, 0, 1, 1, 0, ""),
    F(cache_hit_rate, 0, 1, 0, 0, ""),
    F(prefetch_depth, 0, 1e4, 0, 1, "batches"),
    F(request_price_per_1000, 0, 1e3, 0, 0, "cur per 1,000 requests"),
    F(object_bytes, 1, 1e12, 0, 0, "B"),
    F(internet_ingress_per_gb, 0, 1e3, 0, 0, "cur/GB"),
    F(nat_per_gb, 0, 1e3, 0, 0, "cur/GB"),
    F(storage_months, 0, 1200, 0, 0, "months (0: the estimate's held months)"),
#undef F
};

static int request_check(const tco_pipeline_request *q, tco_error *err)
{
    if (q->size < REQUEST_V1_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, "pipeline.size",
                               "pipeline.size = %zu is below %zu: set it with tco_pipeline_request_init", q->size,
                               REQUEST_V1_SIZE);
    int rc = input_size_check(q, q->size, sizeof *q, "pipeline", err);
    if (rc)
        return rc;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const struct field *f = &fields[i];
        double x;
        memcpy(&x, (const char *)q + f->offset, sizeof x);
        if (!isfinite(x))
            return tco__fail_named(err, TCO_E_NOT_FINITE, f->name, "%s must be a finite number, not %g", f->name, x);
        if (!(f->open_lo ? x > f->lo : x >= f->lo) || !(x <= f->hi) || (f->whole && x != floor(x)))
            return tco__fail_named(err, TCO_E_RANGE, f->name, "%s = %g is out of range: allowed %s%s%g to %g%s%s",
                                   f->name, x, f->whole ? "a whole number " : "", f->open_lo ? "above " : "from ",
                                   f->lo, f->hi, *f->unit ? " " : "", f->unit);
    }
    return TCO_OK;
}

int tco_data_pipeline_compute(tco_pipeline *out, const tco_pipeline_request *q, const tco_topology *t,
                              const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    if (!out || !q)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "pipeline");
    if (out->size < PIPELINE_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_pipeline", out->size, PIPELINE_V1_SIZE);
    int rc;
    if ((rc = request_check(q, err)) || (rc = tco__frozen_inputs(t, w, p, err)))
        return rc;
    tco_estimate e;
    if ((rc = tco__estimate(&e, &t->o, &w->o, &p->o, err)))
        return rc;
    const double *W = w->o.v;

    tco_pipeline o;
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    /* Pulled and prepared once: the dataset the runs share. */
    o.raw_bytes = q->raw_bytes > 0 ? q->raw_bytes : dataset_raw_size(&w->o);
    o.prepared_bytes = o.raw_bytes * q->dedup_kept_share * q->compression_ratio;
    o.preprocess_node_hours = o.raw_bytes / 1e12 * q->preprocess_cpu_node_hours_per_tb;
    o.preprocess_cost = o.preprocess_node_hours * q->cpu_node_hour_price;
    o.storage_gb = o.prepared_bytes / 1e9;
    o.storage_months = q->storage_months > 0 ? q->storage_months : e.held_hours / HOURS_PER_MONTH;
    o.storage_gb_months = o.storage_gb * o.storage_months;
    o.storage_cost = o.storage_gb_months * p->o.v[IX_STORAGE_HOT_PER_GB_MONTH];
    /* Every token of every run is read, compressed (deduplication left
     * fewer to store, not fewer to train on: the tokens are the tokens
     * trained); the cache's hits never reach storage. As the estimate has
     * it. */
    o.read_bytes = e.tokens * W[IX_BYTES_PER_TOKEN] * q->compression_ratio * W[IX_RUNS];
    o.storage_read_bytes = o.read_bytes * (1 - q->cache_hit_rate);
    o.read_requests = o.storage_read_bytes / q->object_bytes;
    o.request_cost = o.read_requests / 1000 * q->request_price_per_1000;
    o.ingress_gb = o.raw_bytes / 1e9;
    o.ingress_cost = o.ingress_gb * q->internet_ingress_per_gb;
    o.nat_cost = o.ingress_gb * q->nat_per_gb;
    o.total = o.preprocess_cost + o.storage_cost + o.request_cost + o.ingress_cost + o.nat_cost;

    /* The stall: one batch per step, its misses fetched at the hot tier's
     * bandwidth; with a prefetch the fetch overlaps the step's compute,
     * without one it adds to it. No queueing: times are their means. */
    o.steps = e.tokens / W[IX_BATCH_TOKENS];
    o.batch_bytes = W[IX_BATCH_TOKENS] * W[IX_BYTES_PER_TOKEN] * q->compression_ratio;
    o.fetch_seconds = o.batch_bytes * (1 - q->cache_hit_rate) / (t->o.v[IX_STORAGE_HOT_GBPS] * 1e9);
    double iops = t->o.v[IX_STORAGE_HOT_IOPS]; /* and no faster than its requests, when it limits them */
    if (iops > 0)
        o.fetch_seconds = fmax(o.fetch_seconds, o.batch_bytes * (1 - q->cache_hit_rate) / q->object_bytes / iops);
    o.compute_seconds = e.compute_hours * 3600 / o.steps;
    o.stall_seconds = q->prefetch_depth == 0 ? o.fetch_seconds : fmax(0, o.fetch_seconds - o.compute_seconds);
    o.stall_share = o.stall_seconds > 0 ? o.stall_seconds / (o.compute_seconds + o.stall_seconds) : 0;
    o.data_stall_share_floor = W[IX_DATA_STALL_SHARE];
    o.estimate_data_stall_share = e.data_stall_share;

    /* Products of bounded finite inputs, but a guard is cheap. */
    const double f[] = { o.prepared_bytes, o.preprocess_cost, o.storage_cost, o.read_requests, o.request_cost,
                         o.ingress_cost, o.nat_cost, o.total, o.stall_seconds, o.stall_share };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!isfinite(f[i]))
            return tco__fail_named(err, TCO_E_INCONSISTENT, "pipeline.raw_bytes",
                                   "pipeline.raw_bytes = %g with this scenario gives a figure that is not finite",
                                   o.raw_bytes);
    sized_fill(out, &o, sizeof o);
    return TCO_OK;
}
