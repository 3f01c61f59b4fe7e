/* The fields of tco_estimate: name, unit, description, type and place in the
 * struct. The one list that result files (io/write.c), the tco command and the
 * language bindings read, through tco_estimate_field_at. A field appended to
 * tco_estimate is appended here too; tests/api/test_scenario.c fails until it is. */
#include "model/model.h"

#define D(field, unit, description) \
    { #field, unit, description, TCO_FIELD_DOUBLE, offsetof(tco_estimate, field) }

const field_row tco__fields[] = {
    D(total, "cur", "total cost: exactly the sum of cost"),
    { "cost", "cur", "cost by category (tco_category_name)", TCO_FIELD_CATEGORIES,
      offsetof(tco_estimate, cost) },
    { "waste", "cur", "waste by kind (tco_waste_name); sums to cost.waste", TCO_FIELD_WASTES,
      offsetof(tco_estimate, waste) },

    /* training time */
    D(train_flops, "FLOP", "training compute per run"),
    D(tokens, "1", "tokens per run (tokens x epochs)"),
    D(job_accelerators, "1", "accelerators the job runs on"),
    D(cluster_accelerators, "1", "accelerators in the cluster"),
    D(cluster_nodes, "1", "nodes in the cluster"),
    D(peak_flops, "FLOP/s", "dense peak per accelerator at the workload's precision"),
    D(accelerator_memory_bytes, "B", "memory per accelerator"),
    D(model_state_bytes, "B",
      "weights, gradients and optimizer state per accelerator over tensor x pipeline, unsharded"),
    D(compute_hours, "h", "time per run at MFU, without interruptions"),
    D(wall_hours, "h", "time per run with stalls, checkpoints and failures"),
    D(held_hours, "h", "time the cluster is paid for: runs x (wall + retries) + queue wait"),
    D(accelerator_hours, "accel-h", "billed: cluster accelerators x held hours"),
    D(effective_accelerator_hours, "accel-h", "useful: job accelerators x compute hours x runs"),
    D(goodput, "1", "compute_hours / wall_hours"),

    /* reliability and checkpoints */
    D(system_mtbf_hours, "h", "mean time between failures of the job's accelerators and nodes"),
    D(checkpoint_bytes, "B", "size of one checkpoint"),
    D(checkpoint_write_hours, "h", "time training pauses per checkpoint"),
    D(checkpoint_interval_hours, "h", "checkpoint interval used"),
    D(young_interval_hours, "h", "optimal checkpoint interval after Young (1974)"),
    D(daly_interval_hours, "h", "optimal checkpoint interval after Daly (2006)"),
    D(expected_failures, "1", "failures per run"),
    D(lost_work_hours, "h", "work lost to failures per run"),
    D(restart_hours, "h", "time spent restarting per run"),
    D(checkpoint_overhead_hours, "h", "time paused for checkpoints per run"),
    D(data_stall_hours, "h", "time waiting for input data per run"),
    D(data_stall_share, "1", "effective share of working time lost to data stalls"),

    /* network fabric */
    D(fabric_tiers, "1", "switch tiers of the back-end fabric"),
    D(fabric_switches, "1", "switches of the back-end fabric"),
    D(fabric_links, "1", "links of the back-end fabric"),
    D(fabric_optics, "1", "optical transceivers of the back-end fabric"),
    D(fabric_capex, "cur", "purchase price of the back-end fabric"),
    D(fabric_bisection_tbps, "Tbit/s", "bisection bandwidth: endpoints x NIC speed / (2 x oversubscription)"),
    D(inter_site_bytes, "B", "gradient traffic between sites over all runs"),

    /* power */
    D(it_power_kw, "kW", "average IT draw of the cluster"),
    D(facility_power_kw, "kW", "it_power_kw x PUE"),
    D(energy_kwh, "kWh", "facility energy over the held hours"),

    /* unit economics */
    D(cost_per_accelerator_hour, "cur/accel-h", "total / accelerator_hours"),
    D(cost_per_effective_accelerator_hour, "cur/accel-h", "total / effective_accelerator_hours"),
    D(cost_per_million_tokens, "cur/Mtoken", "total per million tokens trained"),
    D(cost_per_pflop_day, "cur/PFLOP-day", "total per PFLOP/s-day (1e15 FLOP/s for 86400 s) of useful work"),
    D(cost_per_run, "cur/run", "total / runs: what one job costs"),

    /* identity */
    { "scenario_fingerprint", "", "tco_scenario_fingerprint of the inputs (doc/format.md)",
      TCO_FIELD_UINT64, offsetof(tco_estimate, scenario_fingerprint) },

    /* since 1.1: FLOPs as papers count them, memory and the layout */
    D(model_flops_per_token, "FLOP", "6 x active parameters + attention: the FLOPs MFU counts"),
    D(hardware_flops_per_token, "FLOP", "model FLOPs plus recomputation: what the run executes"),
    D(attention_term_layers, "1", "layers of the attention term; 0: left out (layers not given)"),
    D(attention_term_width, "1", "width per layer of the attention term; 0: left out"),
    D(achieved_mfu, "1", "model FLOPs utilisation the run achieves"),
    D(achieved_hfu, "1", "hardware FLOPs utilisation the run achieves"),
    D(model_flops_per_accelerator, "FLOP/s", "model FLOP/s per accelerator while computing"),
    D(sharded_state_bytes, "B", "model state per accelerator with ZeRO sharding over data parallelism"),
    D(activation_bytes, "B", "activations per accelerator at the recomputation chosen"),
    D(memory_used_bytes, "B", "sharded_state_bytes + activation_bytes"),
    D(pipeline_bubble_share, "1", "share of a step the 1F1B pipeline schedule idles"),
    D(comm_exposed_share, "1", "share of a step at peak spent on communication not hidden by compute"),
    D(mfu_ceiling, "1", "the MFU the parallel layout allows at peak FLOP/s"),
    { "flags", "", "tco_estimate_flag bits: which input set the time, what was assumed",
      TCO_FIELD_UINT64, offsetof(tco_estimate, flags) },

    /* fixed against variable (since 1.1) */
    { "fixed", "cur", "of cost, by category: paid whether the cluster works or not; the rest follows use",
      TCO_FIELD_CATEGORIES, offsetof(tco_estimate, fixed) },
    D(fixed_total, "cur", "sum of fixed; total - fixed_total follows use"),

    /* the data pipeline (since 1.1) */
    D(data_stored_bytes, "B", "the dataset after deduplication and compression, kept once"),
    D(data_read_requests, "1", "read requests reaching storage over all runs: the cache's misses"),
    D(preprocess_cost, "cur", "in cost[compute]: CPU node-hours preparing the raw data"),
    D(data_ingress_cost, "cur", "in cost[network]: internet ingress and NAT of the raw data pulled"),
    D(storage_request_cost, "cur", "in cost[storage]: the read requests"),
};

const size_t tco__field_rows = sizeof tco__fields / sizeof tco__fields[0];

/* The canonical encoder sorts the fields on the stack. */
typedef char fields_fit[sizeof tco__fields / sizeof tco__fields[0] <= FIELDS_MAX ? 1 : -1];

#define FIELD_INFO_V1_SIZE V1_SIZE(tco_field_info, offset)

size_t tco_estimate_field_count(void)
{
    return tco__field_rows;
}

int tco_estimate_field_at(tco_field_info *out, size_t index, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < FIELD_INFO_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_field_info", out->size, FIELD_INFO_V1_SIZE);
    if (index >= tco__field_rows)
        return tco__fail(err, TCO_E_INDEX, "field index %zu is past the end: allowed 0 to %zu", index,
                         tco__field_rows - 1);
    const field_row *f = &tco__fields[index];
    tco_field_info in = { sizeof in, f->name, f->unit, f->description, f->type, f->offset };
    sized_fill(out, &in, sizeof in);
    return TCO_OK;
}
