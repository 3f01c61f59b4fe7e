/* Peak against average bandwidth of a run: checkpoint bursts on storage,
 * the gradient exchange on the network (doc/model.md, section 8). */
#include <math.h>

#include "capacity/capacity.h"
#include "model/model.h"

#define T(k) (t->o.v[IX_##k])
#define W(k) (w->o.v[IX_##k])

int tco_bandwidth_compute(tco_bandwidth *out, const tco_topology *t, const tco_workload *w,
                          const tco_pricing *p, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < BANDWIDTH_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_bandwidth", out->size, BANDWIDTH_V1_SIZE);
    train_run r; /* the run's times, from checked inputs */
    int rc = tco__frozen_inputs(t, w, p, err);
    if (rc || (rc = tco__run_derive(&r, &t->o, &w->o, &p->o, err)))
        return rc;
    tco_bandwidth b = { .size = sizeof b };
    double compute_s = r.compute_h * 3600;
    b.storage_read_gbps = r.tokens * W(BYTES_PER_TOKEN) / compute_s / 1e9;
    b.storage_write_gbps = r.ckpt / (r.tau * 3600) / 1e9;
    b.checkpoint_burst_gbps = r.ckpt / W(CHECKPOINT_STALL_SECONDS) / 1e9;
    b.storage_peak_to_average = (b.storage_read_gbps + b.checkpoint_burst_gbps) /
                                (b.storage_read_gbps + b.storage_write_gbps);
    b.storage_hot_gbps = T(STORAGE_HOT_GBPS);
    b.checkpoint_stall_seconds = r.ckpt / (T(STORAGE_HOT_GBPS) * 1e9);

    /* Ring all-reduce of each model shard's gradients over the data-parallel
     * group: 2 (dp - 1) / dp of the shard per accelerator per step
     * (Patarasuk and Yuan 2009). */
    double model_parallel = W(TENSOR_PARALLEL) * W(PIPELINE_PARALLEL);
    double dp = r.n / model_parallel;
    double shard = W(PARAMS_TOTAL) * W(GRADIENT_BYTES) / model_parallel;
    b.step_seconds = compute_s / (r.tokens / W(BATCH_TOKENS));
    b.network_bytes_per_step = 2 * (dp - 1) / dp * shard;
    b.network_average_gbps = b.network_bytes_per_step * 8 / b.step_seconds / 1e9;
    b.network_burst_gbps = b.network_average_gbps / W(COMM_WINDOW_SHARE);
    b.network_capacity_gbps = T(NICS_PER_NODE) * T(NIC_GBPS) / T(ACCELERATORS_PER_NODE);
    b.network_burst_utilisation = b.network_capacity_gbps > 0 ? b.network_burst_gbps / b.network_capacity_gbps
                                                              : 0;
    sized_fill(out, &b, sizeof b);
    return TCO_OK;
}
