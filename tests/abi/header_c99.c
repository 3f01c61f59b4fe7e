/*
 * The public header alone, as strict C99 sees it.
 *
 * Built with -std=c99 -pedantic -Werror -Wall -Wextra. <tco.h> comes first
 * and needs nothing before it. The compile-time checks pin every enum value
 * of the header (values are permanent: a change here is an ABI break), the
 * constants and the layout rules of the size-prefixed structs; the run-time
 * checks call the library through the header: versions agree, every status
 * has its name, every pinned parameter key is in the table under the name
 * the key spells, TCO_ERROR_INIT works and a scenario of defaults prices.
 * New enum values are added to the lists below; none is ever changed.
 */
#include <tco.h>
#include <tco.h> /* the include guard makes a second inclusion harmless */

#include <stdio.h>
#include <string.h>

/* C99 has no _Static_assert: a negative array size stops the build. */
#define HC_JOIN_(a, b) a##b
#define HC_JOIN(a, b) HC_JOIN_(a, b)
#define HC_STATIC_CHECK(cond) typedef char HC_JOIN(hc_static_check_, __LINE__)[(cond) ? 1 : -1]

/* ---- the pinned enum values (generated once from the 1.0 header) ----- */

/* enum tco_status */
#define STATUSES(X) \
    X(TCO_OK, 0) \
    X(TCO_E_NULL, -1) \
    X(TCO_E_RANGE, -2) \
    X(TCO_E_NOT_FINITE, -3) \
    X(TCO_E_INCONSISTENT, -4) \
    X(TCO_E_FROZEN, -5) \
    X(TCO_E_NOT_FROZEN, -6) \
    X(TCO_E_UNKNOWN_PARAM, -7) \
    X(TCO_E_WRONG_HANDLE, -8) \
    X(TCO_E_TYPE, -9) \
    X(TCO_E_NOMEM, -10) \
    X(TCO_E_SIZE, -11) \
    X(TCO_E_INDEX, -12)

/* enum tco_handle_kind */
#define HANDLE_KINDS(X) \
    X(TCO_HANDLE_TOPOLOGY, 1) \
    X(TCO_HANDLE_WORKLOAD, 2) \
    X(TCO_HANDLE_PRICING, 3)

/* enum tco_param_type */
#define PARAM_TYPES(X) \
    X(TCO_TYPE_REAL, 1) \
    X(TCO_TYPE_INT, 2) \
    X(TCO_TYPE_BOOL, 3) \
    X(TCO_TYPE_CHOICE, 4) \
    X(TCO_TYPE_TEXT, 5)

/* enum tco_param */
#define PARAMS(X) \
    X(TCO_P_ACCELERATORS, 1000) \
    X(TCO_P_ACCELERATORS_PER_NODE, 1001) \
    X(TCO_P_ACCELERATOR_MODEL, 1002) \
    X(TCO_P_ACCELERATOR_PEAK_FLOPS, 1003) \
    X(TCO_P_ACCELERATOR_MEMORY_BYTES, 1004) \
    X(TCO_P_ACCELERATOR_TDP_WATTS, 1005) \
    X(TCO_P_NODE_OVERHEAD_WATTS, 1006) \
    X(TCO_P_NICS_PER_NODE, 1007) \
    X(TCO_P_NIC_GBPS, 1008) \
    X(TCO_P_SWITCH_RADIX, 1009) \
    X(TCO_P_OVERSUBSCRIPTION, 1010) \
    X(TCO_P_STORAGE_HOT_TB, 1011) \
    X(TCO_P_STORAGE_HOT_GBPS, 1012) \
    X(TCO_P_STORAGE_WARM_TB, 1013) \
    X(TCO_P_STORAGE_COLD_TB, 1014) \
    X(TCO_P_PUE, 1015) \
    X(TCO_P_COOLING, 1016) \
    X(TCO_P_SITES, 1017) \
    X(TCO_P_ACCELERATOR_MTBF_HOURS, 1018) \
    X(TCO_P_NODE_MTBF_HOURS, 1019) \
    X(TCO_P_RESTART_MINUTES, 1020) \
    X(TCO_P_HOST_COPY_GBPS, 1021) \
    X(TCO_P_OWNED_SHARE, 1022) \
    X(TCO_P_RESERVED_SHARE, 1023) \
    X(TCO_P_SPOT_SHARE, 1024) \
    X(TCO_P_PARAMS_TOTAL, 2000) \
    X(TCO_P_PARAMS_ACTIVE, 2001) \
    X(TCO_P_LAYERS, 2002) \
    X(TCO_P_HIDDEN_SIZE, 2003) \
    X(TCO_P_SEQ_LEN, 2004) \
    X(TCO_P_TOKENS, 2005) \
    X(TCO_P_EPOCHS, 2006) \
    X(TCO_P_TOTAL_FLOPS, 2007) \
    X(TCO_P_PRECISION, 2008) \
    X(TCO_P_MFU, 2009) \
    X(TCO_P_JOB_ACCELERATORS, 2010) \
    X(TCO_P_TENSOR_PARALLEL, 2011) \
    X(TCO_P_PIPELINE_PARALLEL, 2012) \
    X(TCO_P_DATA_PARALLEL, 2013) \
    X(TCO_P_BATCH_TOKENS, 2014) \
    X(TCO_P_GRADIENT_BYTES, 2015) \
    X(TCO_P_DATASET_BYTES, 2016) \
    X(TCO_P_BYTES_PER_TOKEN, 2017) \
    X(TCO_P_DATA_STALL_SHARE, 2018) \
    X(TCO_P_CHECKPOINT_BYTES, 2019) \
    X(TCO_P_CHECKPOINT_BYTES_PER_PARAM, 2020) \
    X(TCO_P_CHECKPOINT_INTERVAL_HOURS, 2021) \
    X(TCO_P_CHECKPOINT_RETENTION, 2022) \
    X(TCO_P_CHECKPOINT_WRITE_GBPS, 2023) \
    X(TCO_P_CHECKPOINT_ASYNC, 2024) \
    X(TCO_P_POWER_DRAW_SHARE, 2025) \
    X(TCO_P_LOG_BYTES_PER_ACCEL_HOUR, 2026) \
    X(TCO_P_METRICS_PER_ACCELERATOR, 2027) \
    X(TCO_P_METRICS_INTERVAL_SECONDS, 2028) \
    X(TCO_P_METRIC_SAMPLE_BYTES, 2029) \
    X(TCO_P_LOG_RETENTION_DAYS, 2030) \
    X(TCO_P_RUNS, 2031) \
    X(TCO_P_RETRY_SHARE, 2032) \
    X(TCO_P_QUEUE_WAIT_HOURS, 2033) \
    X(TCO_P_DATABASE_INSTANCES, 2034) \
    X(TCO_P_DATABASE_GB, 2035) \
    X(TCO_P_EGRESS_INTERNET_GB, 2036) \
    X(TCO_P_EGRESS_CROSS_REGION_GB, 2037) \
    X(TCO_P_EGRESS_IN_REGION_GB, 2038) \
    X(TCO_P_INTERRUPTIBLE_SHARE, 2039) \
    X(TCO_P_CHECKPOINT_STALL_SECONDS, 2040) \
    X(TCO_P_COMM_WINDOW_SHARE, 2041) \
    X(TCO_P_LIFECYCLE_HORIZON_DAYS, 2042) \
    X(TCO_P_DATASET_HOT_DAYS, 2043) \
    X(TCO_P_DATASET_WARM_DAYS, 2044) \
    X(TCO_P_DATASET_COLD_DAYS, 2045) \
    X(TCO_P_CHECKPOINT_WARM_RETENTION, 2046) \
    X(TCO_P_CHECKPOINT_COLD_RETENTION, 2047) \
    X(TCO_P_LOG_HOT_DAYS, 2048) \
    X(TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 3000) \
    X(TCO_P_RESERVED_PER_ACCEL_HOUR, 3001) \
    X(TCO_P_SPOT_PER_ACCEL_HOUR, 3002) \
    X(TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR, 3003) \
    X(TCO_P_CAPEX_PER_ACCELERATOR, 3004) \
    X(TCO_P_CAPEX_PER_SERVER, 3005) \
    X(TCO_P_DEPRECIATION_YEARS, 3006) \
    X(TCO_P_RESIDUAL_SHARE, 3007) \
    X(TCO_P_COST_OF_CAPITAL, 3008) \
    X(TCO_P_MAINTENANCE_SHARE_PER_YEAR, 3009) \
    X(TCO_P_ELECTRICITY_PER_KWH, 3010) \
    X(TCO_P_COOLING_AIR_CAPEX_PER_KW, 3011) \
    X(TCO_P_COOLING_LIQUID_CAPEX_PER_KW, 3012) \
    X(TCO_P_SWITCH_PRICE, 3013) \
    X(TCO_P_OPTIC_PRICE, 3014) \
    X(TCO_P_CABLE_PRICE, 3015) \
    X(TCO_P_EGRESS_INTERNET_PER_GB, 3016) \
    X(TCO_P_EGRESS_CROSS_REGION_PER_GB, 3017) \
    X(TCO_P_EGRESS_IN_REGION_PER_GB, 3018) \
    X(TCO_P_STORAGE_HOT_PER_GB_MONTH, 3019) \
    X(TCO_P_STORAGE_WARM_PER_GB_MONTH, 3020) \
    X(TCO_P_STORAGE_COLD_PER_GB_MONTH, 3021) \
    X(TCO_P_STORAGE_HOT_PER_GBPS_MONTH, 3022) \
    X(TCO_P_DATABASE_PER_INSTANCE_MONTH, 3023) \
    X(TCO_P_DATABASE_PER_GB_MONTH, 3024) \
    X(TCO_P_LOG_INGEST_PER_GB, 3025) \
    X(TCO_P_LOG_RETAINED_PER_GB_MONTH, 3026) \
    X(TCO_P_METRICS_PER_MILLION_SAMPLES, 3027) \
    X(TCO_P_SECURITY_PER_NODE_MONTH, 3028) \
    X(TCO_P_SECURITY_FIXED_PER_MONTH, 3029) \
    X(TCO_P_PLATFORM_PER_NODE_MONTH, 3030) \
    X(TCO_P_STAFF_PER_FTE_YEAR, 3031) \
    X(TCO_P_NODES_PER_FTE, 3032) \
    X(TCO_P_MIN_FTE, 3033) \
    X(TCO_P_MIGRATION_COST, 3034) \
    X(TCO_P_LEARNING_FTE_MONTHS, 3035) \
    X(TCO_P_RISK_PREMIUM_SHARE, 3036) \
    X(TCO_P_CURRENCY, 3037) \
    X(TCO_P_PRICE_DATE, 3038) \
    X(TCO_P_PRICE_SOURCE, 3039) \
    X(TCO_P_BUDGET_AMOUNT, 3040) \
    X(TCO_P_BUDGET_PERIOD_DAYS, 3041) \
    X(TCO_P_BUDGET_WARNING_SHARE, 3042) \
    X(TCO_P_BUDGET_CRITICAL_SHARE, 3043) \
    X(TCO_P_BUDGET_GROWTH_ALERT_SHARE, 3044)

/* enum tco_accelerator_id */
#define ACCELERATORS(X) \
    X(TCO_ACCEL_CUSTOM, 0) \
    X(TCO_ACCEL_A100_SXM_80GB, 1) \
    X(TCO_ACCEL_H100_SXM, 2) \
    X(TCO_ACCEL_H200_SXM, 3) \
    X(TCO_ACCEL_B200, 4) \
    X(TCO_ACCEL_MI300X, 5)

/* enum tco_category */
#define CATEGORIES(X) \
    X(TCO_CAT_COMPUTE, 0) \
    X(TCO_CAT_POWER, 1) \
    X(TCO_CAT_COOLING, 2) \
    X(TCO_CAT_NETWORK, 3) \
    X(TCO_CAT_STORAGE, 4) \
    X(TCO_CAT_DATABASE, 5) \
    X(TCO_CAT_LOGGING, 6) \
    X(TCO_CAT_SECURITY, 7) \
    X(TCO_CAT_PLATFORM, 8) \
    X(TCO_CAT_STAFF, 9) \
    X(TCO_CAT_INDIRECT, 10) \
    X(TCO_CAT_WASTE, 11)

/* enum tco_waste */
#define WASTES(X) \
    X(TCO_WASTE_IDLE, 0) \
    X(TCO_WASTE_FAILURES, 1) \
    X(TCO_WASTE_DATA_STALLS, 2) \
    X(TCO_WASTE_CHECKPOINTS, 3) \
    X(TCO_WASTE_RETRIES, 4)

/* One struct per enum: a member per value, of size -1 if the value moved. */
#define HC_PIN(name, value) char pin_##name[(name == (value)) ? 1 : -1];
struct hc_pinned_statuses { STATUSES(HC_PIN) };
struct hc_pinned_handle_kinds { HANDLE_KINDS(HC_PIN) };
struct hc_pinned_param_types { PARAM_TYPES(HC_PIN) };
struct hc_pinned_params { PARAMS(HC_PIN) };
struct hc_pinned_accelerators { ACCELERATORS(HC_PIN) };
struct hc_pinned_categories { CATEGORIES(HC_PIN) };
struct hc_pinned_wastes { WASTES(HC_PIN) };

/* capacity: enums of the lifecycle and the budget */
#define CAPACITY_ENUMS(X) \
    X(TCO_DATA_DATASET, 0) \
    X(TCO_DATA_CHECKPOINTS, 1) \
    X(TCO_DATA_LOGS, 2) \
    X(TCO_TIER_HOT, 0) \
    X(TCO_TIER_WARM, 1) \
    X(TCO_TIER_COLD, 2) \
    X(TCO_BUDGET_OK, 0) \
    X(TCO_BUDGET_WARNING, 1) \
    X(TCO_BUDGET_CRITICAL, 2) \
    X(TCO_BUDGET_EXHAUSTED, 3)
struct hc_pinned_capacity { CAPACITY_ENUMS(HC_PIN) };

/* scenario files and identity: the format version and the field types */
#define SCENARIO_ENUMS(X) \
    X(TCO_FIELD_DOUBLE, 1) \
    X(TCO_FIELD_UINT64, 2) \
    X(TCO_FIELD_CATEGORIES, 3) \
    X(TCO_FIELD_WASTES, 4)
struct hc_pinned_scenario { SCENARIO_ENUMS(HC_PIN) };
HC_STATIC_CHECK(TCO_FORMAT_VERSION == 1);
HC_STATIC_CHECK(offsetof(tco_field_info, size) == 0 && sizeof(((tco_field_info *)0)->size) == sizeof(size_t));
HC_STATIC_CHECK(sizeof(((tco_estimate *)0)->scenario_fingerprint) == 8);

/* Enums are int-sized: bindings (cffi, cgo) rely on it. */
HC_STATIC_CHECK(sizeof(tco_status) == sizeof(int));
HC_STATIC_CHECK(sizeof(tco_param) == sizeof(int));
HC_STATIC_CHECK(sizeof(tco_category) == sizeof(int));

/* ---- constants ------------------------------------------------------- */

HC_STATIC_CHECK(TCO_VERSION_MAJOR == 1);
HC_STATIC_CHECK(TCO_VERSION_NUMBER ==
                TCO_VERSION_MAJOR * 10000 + TCO_VERSION_MINOR * 100 + TCO_VERSION_PATCH);
HC_STATIC_CHECK(TCO_ERROR_PARAM_NAME_MAX == 64);
HC_STATIC_CHECK(TCO_ERROR_MESSAGE_MAX == 256);
HC_STATIC_CHECK(TCO_TEXT_MAX == 64);
HC_STATIC_CHECK(TCO_CATEGORY_SLOTS == 32);
HC_STATIC_CHECK(TCO_WASTE_SLOTS == 16);
HC_STATIC_CHECK(TCO_CAT_WASTE < TCO_CATEGORY_SLOTS);
HC_STATIC_CHECK(TCO_WASTE_RETRIES < TCO_WASTE_SLOTS);

/* ---- layout rules of the size-prefixed structs ------------------------ */

#define HC_SIZE_FIRST(type) \
    HC_STATIC_CHECK(offsetof(type, size) == 0 && sizeof(((type *)0)->size) == sizeof(size_t))
HC_SIZE_FIRST(tco_error);
HC_SIZE_FIRST(tco_param_info);
HC_SIZE_FIRST(tco_accelerator);
HC_SIZE_FIRST(tco_estimate);
HC_SIZE_FIRST(tco_demand_stats);
HC_SIZE_FIRST(tco_split);
HC_SIZE_FIRST(tco_bandwidth);
HC_SIZE_FIRST(tco_lifecycle);
HC_SIZE_FIRST(tco_logging);
HC_SIZE_FIRST(tco_budget);

HC_STATIC_CHECK(sizeof(((tco_error *)0)->code) == 4);
HC_STATIC_CHECK(sizeof(((tco_error *)0)->param) == 4);
HC_STATIC_CHECK(sizeof(((tco_error *)0)->param_name) == TCO_ERROR_PARAM_NAME_MAX);
HC_STATIC_CHECK(sizeof(((tco_error *)0)->message) == TCO_ERROR_MESSAGE_MAX);
HC_STATIC_CHECK(sizeof(tco_error) >= offsetof(tco_error, message) + TCO_ERROR_MESSAGE_MAX);
HC_STATIC_CHECK(sizeof(tco_error) < 1024);
HC_STATIC_CHECK(offsetof(tco_error, code) < offsetof(tco_error, param));
HC_STATIC_CHECK(offsetof(tco_error, param_name) < offsetof(tco_error, message));

HC_STATIC_CHECK(sizeof(((tco_estimate *)0)->cost) == TCO_CATEGORY_SLOTS * sizeof(double));
HC_STATIC_CHECK(sizeof(((tco_estimate *)0)->waste) == TCO_WASTE_SLOTS * sizeof(double));
HC_STATIC_CHECK(offsetof(tco_estimate, total) < offsetof(tco_estimate, cost));
HC_STATIC_CHECK(offsetof(tco_estimate, cost) < offsetof(tco_estimate, waste));
HC_STATIC_CHECK(sizeof(tco_estimate) % sizeof(double) == 0);

/* ---- placement pricing (issue 5): price classes, the parts limit, the
 * span slowdown keys and the size-prefixed structs of the hot path ----- */
#define PLACEMENT_ENUMS(X) \
    X(TCO_CLASS_ON_DEMAND, 0) \
    X(TCO_CLASS_RESERVED, 1) \
    X(TCO_CLASS_SPOT, 2) \
    X(TCO_CLASS_OWNED, 3) \
    X(TCO_P_RACK_SPAN_SLOWDOWN, 1025) \
    X(TCO_P_ZONE_SPAN_SLOWDOWN, 1026) \
    X(TCO_P_REGION_SPAN_SLOWDOWN, 1027)
struct hc_pinned_placement { PLACEMENT_ENUMS(HC_PIN) };
HC_STATIC_CHECK(sizeof(tco_price_class) == sizeof(int));
HC_STATIC_CHECK(TCO_PLACEMENT_MAX_PARTS == 8);
HC_SIZE_FIRST(tco_pool);
HC_SIZE_FIRST(tco_job);
HC_SIZE_FIRST(tco_placement);
HC_SIZE_FIRST(tco_price);
HC_SIZE_FIRST(tco_placement_batch);
HC_STATIC_CHECK(sizeof(((tco_placement *)0)->pool) == TCO_PLACEMENT_MAX_PARTS * sizeof(int32_t));
HC_STATIC_CHECK(sizeof(((tco_placement *)0)->accelerators) == TCO_PLACEMENT_MAX_PARTS * sizeof(int32_t));
/* tco_price: the cost, then its figures, nine doubles in a row */
HC_STATIC_CHECK(offsetof(tco_price, delay) - offsetof(tco_price, cost) == 8 * sizeof(double));
HC_STATIC_CHECK(offsetof(tco_price, cost) < offsetof(tco_price, completion_hours));
HC_STATIC_CHECK(offsetof(tco_price, interruptions) < offsetof(tco_price, stranded));

/* ---- run-time checks through the library ----------------------------- */

static int failures;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            failures++;                                                                  \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
        }                                                                                \
    } while (0)

static void check_status(int code, const char *name)
{
    const char *got = tco_status_name(code);
    const char *msg = tco_status_message(code);
    if (!got || strcmp(got, name) != 0) {
        failures++;
        fprintf(stderr, "tco_status_name(%d) is \"%s\", expected \"%s\"\n", code,
                got ? got : "(null)", name);
    }
    if (!msg || !msg[0]) {
        failures++;
        fprintf(stderr, "tco_status_message(%d) is empty\n", code);
    }
}

/* The table's name of a key is the key's suffix in lower case. */
static void check_param(int32_t key, const char *macro)
{
    tco_param_info info;
    tco_error err = TCO_ERROR_INIT;
    char expect[128];
    size_t i;
    int rc;

    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    rc = tco_param_info_get(&info, key, &err);
    if (rc != TCO_OK) {
        failures++;
        fprintf(stderr, "%s (%d): tco_param_info_get failed: %s: %s\n", macro, (int)key,
                tco_status_name(rc), err.message);
        return;
    }
    for (i = 0; macro[6 + i] && i + 1 < sizeof expect; i++) /* skip "TCO_P_" */
        expect[i] = (char)(macro[6 + i] >= 'A' && macro[6 + i] <= 'Z' ? macro[6 + i] - 'A' + 'a'
                                                                       : macro[6 + i]);
    expect[i] = '\0';
    if (info.key != key || info.handle != key / 1000 || !info.name || strcmp(info.name, expect) != 0) {
        failures++;
        fprintf(stderr, "%s (%d): table says key %d, handle %d, name \"%s\"; expected name \"%s\", handle %d\n",
                macro, (int)key, (int)info.key, (int)info.handle, info.name ? info.name : "(null)",
                expect, (int)(key / 1000));
    }
}

static void check_names(void)
{
    size_t i;

#define HC_STATUS(name, value) check_status(name, #name);
    STATUSES(HC_STATUS)
#define HC_PARAM(name, value) check_param(name, #name);
    PARAMS(HC_PARAM)

    CHECK(tco_category_count() >= (size_t)TCO_CAT_WASTE + 1);
    CHECK(tco_category_count() <= TCO_CATEGORY_SLOTS);
    for (i = 0; i < tco_category_count(); i++) {
        CHECK(tco_category_name((int32_t)i) != NULL);
        CHECK(tco_category_description((int32_t)i) != NULL);
    }
    CHECK(tco_category_name(-1) == NULL);
    CHECK(tco_category_name((int32_t)tco_category_count()) == NULL);

    CHECK(tco_waste_count() >= (size_t)TCO_WASTE_RETRIES + 1);
    CHECK(tco_waste_count() <= TCO_WASTE_SLOTS);
    for (i = 0; i < tco_waste_count(); i++)
        CHECK(tco_waste_name((int32_t)i) != NULL);
    CHECK(tco_waste_name((int32_t)tco_waste_count()) == NULL);
}

static void check_accelerators(void)
{
    int seen[TCO_ACCEL_MI300X + 1] = { 0 };
    size_t i;
    int id;

    for (i = 0; i < tco_accelerator_count(); i++) {
        tco_accelerator a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        CHECK(tco_accelerator_at(&a, i, NULL) == TCO_OK);
        if (a.id >= 0 && a.id <= TCO_ACCEL_MI300X)
            seen[a.id]++;
    }
    for (id = 0; id <= TCO_ACCEL_MI300X; id++)
        if (seen[id] != 1) {
            failures++;
            fprintf(stderr, "accelerator id %d appears %d times in the catalogue\n", id, seen[id]);
        }
}

static void check_error_init(void)
{
    tco_error err = TCO_ERROR_INIT;
    tco_param_info info;
    int32_t key = 0;
    int rc;

    CHECK(err.size == sizeof(tco_error));
    CHECK(err.code == 0 && err.param == 0);
    CHECK(err.param_name[0] == '\0' && err.message[0] == '\0');

    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    rc = tco_param_info_get(&info, 999999, &err);
    CHECK(rc == TCO_E_UNKNOWN_PARAM);
    CHECK(err.code == TCO_E_UNKNOWN_PARAM);
    CHECK(err.message[0] != '\0');
    CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);

    CHECK(tco_param_find(&key, "mfu", NULL) == TCO_OK);
    CHECK(key == TCO_P_MFU);
}

static void check_scenario(void)
{
    tco_topology *t = NULL;
    tco_workload *w = NULL;
    tco_pricing *p = NULL;
    tco_error err = TCO_ERROR_INIT;
    tco_estimate e;
    int rc;

    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    CHECK(tco_topology_new(&t, &err) == TCO_OK);
    CHECK(tco_workload_new(&w, &err) == TCO_OK);
    CHECK(tco_pricing_new(&p, &err) == TCO_OK);
    CHECK(tco_estimate_compute(&e, t, w, p, &err) == TCO_E_NOT_FROZEN);
    CHECK(tco_topology_freeze(t, &err) == TCO_OK);
    CHECK(tco_workload_freeze(w, &err) == TCO_OK);
    CHECK(tco_pricing_freeze(p, &err) == TCO_OK);
    CHECK(tco_topology_is_frozen(t) == 1);
    rc = tco_estimate_compute(&e, t, w, p, &err);
    if (rc != TCO_OK)
        fprintf(stderr, "tco_estimate_compute: %s: %s\n", tco_status_name(rc), err.message);
    CHECK(rc == TCO_OK);
    CHECK(e.size == sizeof e);
    CHECK(e.total > 0);
    /* No handle keeps another alive: free in any order; free(NULL) is fine. */
    tco_workload_free(w);
    tco_topology_free(t);
    tco_pricing_free(p);
    tco_topology_free(NULL);
    tco_workload_free(NULL);
    tco_pricing_free(NULL);
}

/* ---- placement pricing (issue 5): the keys in the table, and one
 * placement priced alone and as a batch of one, to the same bits -------- */
static void check_placement(void)
{
    tco_pools *pools = NULL;
    tco_topology *t = NULL;
    tco_pricing *p = NULL;
    tco_pool pool;
    tco_job job;
    tco_placement pl;
    tco_placement_batch b;
    tco_price price;
    int32_t id = -1, job_index = 0, pool_id = 0, accelerators = 16;
    double cost = 0, hours = 0;
    int32_t status = 1;

#define HC_PLACEMENT_PARAM(name, value) \
    if ((value) >= 1000) \
        check_param(name, #name);
    PLACEMENT_ENUMS(HC_PLACEMENT_PARAM)
    memset(&pool, 0, sizeof pool);
    pool.size = sizeof pool;
    pool.price_class = TCO_CLASS_RESERVED;
    pool.accelerators_per_node = 8;
    pool.free_accelerators = 64;
    pool.rate_per_accel_hour = 2.5;
    memset(&job, 0, sizeof job);
    job.size = sizeof job;
    job.accelerators = 16;
    job.duration_hours = 10;
    memset(&pl, 0, sizeof pl);
    pl.size = sizeof pl;
    pl.parts = 1;
    pl.accelerators[0] = 16;
    memset(&b, 0, sizeof b);
    b.size = sizeof b;
    b.count = 1;
    b.max_parts = 1;
    b.job = &job_index;
    b.pool = &pool_id;
    b.accelerators = &accelerators;
    memset(&price, 0, sizeof price);
    price.size = sizeof price;
    CHECK(tco_pools_new(&pools, NULL) == TCO_OK);
    CHECK(tco_pools_add(pools, &pool, &id, NULL) == TCO_OK && id == 0);
    CHECK(tco_pools_freeze(pools, NULL) == TCO_OK);
    CHECK(tco_pools_count(pools) == 1);
    CHECK(tco_topology_new(&t, NULL) == TCO_OK && tco_topology_freeze(t, NULL) == TCO_OK);
    CHECK(tco_pricing_new(&p, NULL) == TCO_OK && tco_pricing_freeze(p, NULL) == TCO_OK);
    CHECK(tco_placement_price(&price, pools, t, p, &job, &pl, NULL) == TCO_OK);
    CHECK(price.compute == 16 * 2.5 * 10 && price.cost > price.compute);
    CHECK(tco_placement_price_batch(&cost, &hours, &status, pools, t, p, &job, 1, &b, NULL) == TCO_OK);
    CHECK(status == TCO_OK && memcmp(&cost, &price.cost, sizeof cost) == 0);
    CHECK(memcmp(&hours, &price.completion_hours, sizeof hours) == 0);
    tco_pools_free(pools);
    tco_topology_free(t);
    tco_pricing_free(p);
}

int main(void)
{
    check_placement();
    CHECK(tco_version_number() == TCO_VERSION_NUMBER);
    CHECK(tco_version_string() != NULL && strcmp(tco_version_string(), TCO_VERSION_STRING) == 0);
    check_names();
    check_accelerators();
    check_error_init();
    check_scenario();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("header_c99: all checks passed\n");
    return 0;
}
