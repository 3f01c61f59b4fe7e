/* Names of the cost categories, waste kinds and estimate flags, indexed by
 * their enums. */
#include "model/model.h"

static const struct {
    const char *name;
    const char *description;
} categories[] = {
    [TCO_CAT_COMPUTE] = { "compute", "accelerators and servers doing useful work: rent, or depreciation and capital" },
    [TCO_CAT_POWER] = { "power", "electricity of the IT load of owned hardware doing useful work" },
    [TCO_CAT_COOLING] = { "cooling", "cooling energy (PUE) and cooling plant of owned hardware doing useful work" },
    [TCO_CAT_NETWORK] = { "network", "owned fabric (switches, optics, cables) and data transfer" },
    [TCO_CAT_STORAGE] = { "storage", "hot, warm and cold tiers: dataset and checkpoints" },
    [TCO_CAT_DATABASE] = { "database", "metadata and experiment tracking" },
    [TCO_CAT_LOGGING] = { "logging", "logging and monitoring: logs and metric samples, ingested and kept" },
    [TCO_CAT_SECURITY] = { "security", "identity, access control, encryption and audit" },
    [TCO_CAT_PLATFORM] = { "platform", "scheduler, container and MLOps software" },
    [TCO_CAT_STAFF] = { "staff", "operations engineers" },
    [TCO_CAT_INDIRECT] = { "indirect", "migration, learning and risk premium" },
    [TCO_CAT_WASTE] = { "waste", "accelerator time that trained nothing: idle, failures, stalls, checkpoints, retries" },
};

static const char *const wastes[] = {
    [TCO_WASTE_IDLE] = "idle",
    [TCO_WASTE_FAILURES] = "failures",
    [TCO_WASTE_DATA_STALLS] = "data_stalls",
    [TCO_WASTE_CHECKPOINTS] = "checkpoints",
    [TCO_WASTE_RETRIES] = "retries",
};

#define N_CATEGORIES (sizeof categories / sizeof categories[0])
#define N_WASTES (sizeof wastes / sizeof wastes[0])

size_t tco_category_count(void)
{
    return N_CATEGORIES;
}

const char *tco_category_name(int32_t c)
{
    return c >= 0 && (size_t)c < N_CATEGORIES ? categories[c].name : NULL;
}

const char *tco_category_description(int32_t c)
{
    return c >= 0 && (size_t)c < N_CATEGORIES ? categories[c].description : NULL;
}

size_t tco_waste_count(void)
{
    return N_WASTES;
}

const char *tco_waste_name(int32_t k)
{
    return k >= 0 && (size_t)k < N_WASTES ? wastes[k] : NULL;
}

/* The bits of tco_estimate.flags, in bit order. */
static const struct {
    const char *name, *description;
} flags[] = {
    { "hidden_derived", "hidden_size derived from the parameters and layers (N = 12 L d^2)" },
    { "attention_omitted", "layers not given: no attention term, activations not counted" },
    { "flops_given", "total_flops replaced the FLOPs formula" },
    { "time_from_mfu", "the compute time follows from mfu" },
    { "time_from_hfu", "the compute time follows from hfu; mfu was not used" },
    { "time_from_achieved_flops", "the compute time follows from achieved_flops_per_accelerator; mfu was not used" },
    { "time_from_run_accelerator_hours", "the compute time follows from run_accelerator_hours; mfu was not used" },
    { "stall_floor", "data_stall_share set the data stalls" },
    { "stall_bandwidth", "reading from the hot tier set the data stalls: its bandwidth, the cache's misses, the prefetch" },
    { "mfu_above_ceiling", "the MFU used exceeds what the parallel layout allows (mfu_ceiling)" },
    { "failures_by_job_size", "the job's MTBF comes from published failure rates by job size" },
    { "failures_off", "count_failures = 0: failures left out" },
    { "restarts_off", "count_restarts = 0: restarts take no time" },
    { "checkpoints_off", "count_checkpoints = 0: checkpoints pause nothing" },
    { "activations_exceed_memory", "model state and activations exceed the accelerator's memory: more recomputation or parallelism needed" },
};

/* The index of a single known bit, or -1. */
static int flag_index(uint64_t flag)
{
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (flag == (uint64_t)1 << i)
            return (int)i;
    return -1;
}

const char *tco_estimate_flag_name(uint64_t flag)
{
    int i = flag_index(flag);
    return i < 0 ? NULL : flags[i].name;
}

const char *tco_estimate_flag_description(uint64_t flag)
{
    int i = flag_index(flag);
    return i < 0 ? NULL : flags[i].description;
}
