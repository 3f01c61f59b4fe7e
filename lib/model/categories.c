/* Names of the cost categories and waste kinds, indexed by their enums. */
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
