/*
 * libtco: what an AI training run or cluster really costs.
 *
 * This header is the API reference. Conventions, followed by every function:
 *
 * - Three opaque handles describe a scenario: a cluster topology, a workload
 *   profile and a pricing table. Create one with tco_<handle>_new (it holds
 *   the built-in defaults), change parameters with tco_<handle>_set, then
 *   tco_<handle>_freeze it. A frozen handle is immutable and may be shared by
 *   any number of threads; every computation takes frozen, const handles.
 *   No handle keeps another alive: free them in any order.
 * - Every scalar input is a parameter of one table inside the library, with
 *   a key (enum tco_param), a name, a unit, a default, bounds and a one-line
 *   description: see tco_param_count and tco_param_info_at.
 * - Functions return TCO_OK (0) or a negative tco_status. An optional,
 *   caller-owned tco_error receives the code, the parameter concerned and a
 *   message naming the input and its allowed range. There is no global or
 *   thread-local error state. A call that fails changes nothing.
 * - Output structs start with a size field the caller sets to sizeof(the
 *   struct) as it knows it; the library fills as far as that size reaches,
 *   so structs can grow without breaking compiled callers.
 * - Enum values are explicit and never reused; new ones are only added.
 *
 * The ABI promise, the error model and the threading rules are written out
 * in doc/api.md; every formula is in doc/model.md.
 */
#ifndef TCO_H
#define TCO_H

#include <stddef.h>
#include <stdint.h>

#include "tco_version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && !defined(TCO_STATIC)
#  ifdef TCO_BUILDING
#    define TCO_API __declspec(dllexport)
#  else
#    define TCO_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define TCO_API __attribute__((visibility("default")))
#else
#  define TCO_API
#endif

/* ------------------------------------------------------------------------
 * Version
 * ------------------------------------------------------------------------ */

/* TCO_VERSION_NUMBER of the library actually loaded: compare it with the
 * TCO_VERSION_NUMBER the caller was compiled against. */
TCO_API uint32_t tco_version_number(void);
/* "MAJOR.MINOR.PATCH" of the library actually loaded. */
TCO_API const char *tco_version_string(void);

/* ------------------------------------------------------------------------
 * Status codes and error detail
 * ------------------------------------------------------------------------ */

typedef enum tco_status {
    TCO_OK = 0,
    TCO_E_NULL = -1,          /* a required pointer argument is NULL */
    TCO_E_RANGE = -2,         /* a value is outside its allowed range */
    TCO_E_NOT_FINITE = -3,    /* a value is NaN or infinite */
    TCO_E_INCONSISTENT = -4,  /* values are each valid but not together */
    TCO_E_FROZEN = -5,        /* the handle is frozen and cannot change */
    TCO_E_NOT_FROZEN = -6,    /* a computation was given an unfrozen handle */
    TCO_E_UNKNOWN_PARAM = -7, /* no parameter has that key or name */
    TCO_E_WRONG_HANDLE = -8,  /* the parameter belongs to another handle */
    TCO_E_TYPE = -9,          /* wrong kind of value (text for a number...) */
    TCO_E_NOMEM = -10,        /* memory could not be allocated */
    TCO_E_SIZE = -11,         /* a size field is smaller than version 1's */
    TCO_E_INDEX = -12         /* an index is past the end of a list */
} tco_status;

/* A static, human-readable sentence for a status ("value out of range"). */
TCO_API const char *tco_status_message(int status);
/* The status' name as spelt in this header ("TCO_E_RANGE"). */
TCO_API const char *tco_status_name(int status);

#define TCO_ERROR_PARAM_NAME_MAX 64
#define TCO_ERROR_MESSAGE_MAX 256

/* Caller-owned error detail. Set size (TCO_ERROR_INIT does) and pass it to
 * any function; on failure it is filled, on success it is left alone. */
typedef struct tco_error {
    size_t size;                                 /* sizeof(tco_error) */
    int32_t code;                                /* a tco_status */
    int32_t param;                               /* tco_param key, or 0 */
    char param_name[TCO_ERROR_PARAM_NAME_MAX];   /* "" when no parameter */
    char message[TCO_ERROR_MESSAGE_MAX];         /* names input and range */
} tco_error;

#define TCO_ERROR_INIT { sizeof(tco_error), 0, 0, "", "" }

/* ------------------------------------------------------------------------
 * Parameters: one table, three handles
 * ------------------------------------------------------------------------ */

typedef enum tco_handle_kind {
    TCO_HANDLE_TOPOLOGY = 1,
    TCO_HANDLE_WORKLOAD = 2,
    TCO_HANDLE_PRICING = 3
} tco_handle_kind;

typedef enum tco_param_type {
    TCO_TYPE_REAL = 1,    /* any finite value within bounds */
    TCO_TYPE_INT = 2,     /* a whole number within bounds */
    TCO_TYPE_BOOL = 3,    /* 0 or 1 */
    TCO_TYPE_CHOICE = 4,  /* one of a list of named values (set by name
                             with tco_<handle>_set_text, or by value) */
    TCO_TYPE_TEXT = 5     /* a short text (TCO_TEXT_MAX bytes with NUL) */
} tco_param_type;

#define TCO_TEXT_MAX 64

/* "topology", "workload", "pricing": the name a handle kind has in files,
 * messages and the bindings; NULL if unknown. Since 1.1. */
TCO_API const char *tco_handle_kind_name(int32_t kind);
/* "real", "int", "bool", "choice", "text"; NULL if unknown. Since 1.1. */
TCO_API const char *tco_param_type_name(int32_t type);

/* Parameter keys, grouped by handle in thousands. Values are permanent.
 * Names, units, defaults and bounds are in the library's table: ask
 * tco_param_info (doc/parameters.md is generated from it). */
typedef enum tco_param {
    /* cluster topology */
    TCO_P_ACCELERATORS = 1000,
    TCO_P_ACCELERATORS_PER_NODE = 1001,
    TCO_P_ACCELERATOR_MODEL = 1002,
    TCO_P_ACCELERATOR_PEAK_FLOPS = 1003,
    TCO_P_ACCELERATOR_MEMORY_BYTES = 1004,
    TCO_P_ACCELERATOR_TDP_WATTS = 1005,
    TCO_P_NODE_OVERHEAD_WATTS = 1006,
    TCO_P_NICS_PER_NODE = 1007,
    TCO_P_NIC_GBPS = 1008,
    TCO_P_SWITCH_RADIX = 1009,
    TCO_P_OVERSUBSCRIPTION = 1010,
    TCO_P_STORAGE_HOT_TB = 1011,
    TCO_P_STORAGE_HOT_GBPS = 1012,
    TCO_P_STORAGE_WARM_TB = 1013,
    TCO_P_STORAGE_COLD_TB = 1014,
    TCO_P_PUE = 1015,
    TCO_P_COOLING = 1016,
    TCO_P_SITES = 1017,
    TCO_P_ACCELERATOR_MTBF_HOURS = 1018,
    TCO_P_NODE_MTBF_HOURS = 1019,
    TCO_P_RESTART_MINUTES = 1020,
    TCO_P_HOST_COPY_GBPS = 1021,
    TCO_P_OWNED_SHARE = 1022,
    TCO_P_RESERVED_SHARE = 1023,
    TCO_P_SPOT_SHARE = 1024,
    TCO_P_RACK_SPAN_SLOWDOWN = 1025,
    TCO_P_ZONE_SPAN_SLOWDOWN = 1026,
    TCO_P_REGION_SPAN_SLOWDOWN = 1027,
    TCO_P_INTRA_NODE_GBPS = 1028,            /* since 1.1 */
    TCO_P_STORAGE_HOT_IOPS = 1029,           /* since 1.1: the data pipeline */

    /* workload profile */
    TCO_P_PARAMS_TOTAL = 2000,
    TCO_P_PARAMS_ACTIVE = 2001,
    TCO_P_LAYERS = 2002,
    TCO_P_HIDDEN_SIZE = 2003,
    TCO_P_SEQ_LEN = 2004,
    TCO_P_TOKENS = 2005,
    TCO_P_EPOCHS = 2006,
    TCO_P_TOTAL_FLOPS = 2007,
    TCO_P_PRECISION = 2008,
    TCO_P_MFU = 2009,
    TCO_P_JOB_ACCELERATORS = 2010,
    TCO_P_TENSOR_PARALLEL = 2011,
    TCO_P_PIPELINE_PARALLEL = 2012,
    TCO_P_DATA_PARALLEL = 2013,
    TCO_P_BATCH_TOKENS = 2014,
    TCO_P_GRADIENT_BYTES = 2015,
    TCO_P_DATASET_BYTES = 2016,
    TCO_P_BYTES_PER_TOKEN = 2017,
    TCO_P_DATA_STALL_SHARE = 2018,
    TCO_P_CHECKPOINT_BYTES = 2019,
    TCO_P_CHECKPOINT_BYTES_PER_PARAM = 2020,
    TCO_P_CHECKPOINT_INTERVAL_HOURS = 2021,
    TCO_P_CHECKPOINT_RETENTION = 2022,
    TCO_P_CHECKPOINT_WRITE_GBPS = 2023,
    TCO_P_CHECKPOINT_ASYNC = 2024,
    TCO_P_POWER_DRAW_SHARE = 2025,
    TCO_P_LOG_BYTES_PER_ACCEL_HOUR = 2026,
    TCO_P_METRICS_PER_ACCELERATOR = 2027,
    TCO_P_METRICS_INTERVAL_SECONDS = 2028,
    TCO_P_METRIC_SAMPLE_BYTES = 2029,
    TCO_P_LOG_RETENTION_DAYS = 2030,
    TCO_P_RUNS = 2031,
    TCO_P_RETRY_SHARE = 2032,
    TCO_P_QUEUE_WAIT_HOURS = 2033,
    TCO_P_DATABASE_INSTANCES = 2034,
    TCO_P_DATABASE_GB = 2035,
    TCO_P_EGRESS_INTERNET_GB = 2036,
    TCO_P_EGRESS_CROSS_REGION_GB = 2037,
    TCO_P_EGRESS_IN_REGION_GB = 2038,
    TCO_P_INTERRUPTIBLE_SHARE = 2039,
    TCO_P_CHECKPOINT_STALL_SECONDS = 2040,
    TCO_P_COMM_WINDOW_SHARE = 2041,
    TCO_P_LIFECYCLE_HORIZON_DAYS = 2042,
    TCO_P_DATASET_HOT_DAYS = 2043,
    TCO_P_DATASET_WARM_DAYS = 2044,
    TCO_P_DATASET_COLD_DAYS = 2045,
    TCO_P_CHECKPOINT_WARM_RETENTION = 2046,
    TCO_P_CHECKPOINT_COLD_RETENTION = 2047,
    TCO_P_LOG_HOT_DAYS = 2048,
    /* since 1.1: the run as published runs report it */
    TCO_P_ATTENTION = 2049,
    TCO_P_HEADS = 2050,
    TCO_P_KV_HEADS = 2051,
    TCO_P_ATTENTION_WIDTH = 2052,
    TCO_P_RECOMPUTE = 2053,
    TCO_P_HFU = 2054,
    TCO_P_ACHIEVED_FLOPS_PER_ACCELERATOR = 2055,
    TCO_P_ACHIEVED_FLOPS_BASIS = 2056,
    TCO_P_RUN_ACCELERATOR_HOURS = 2057,
    TCO_P_ZERO_STAGE = 2058,
    TCO_P_MICRO_BATCH_SEQUENCES = 2059,
    TCO_P_COUNT_FAILURES = 2060,
    TCO_P_COUNT_RESTARTS = 2061,
    TCO_P_COUNT_CHECKPOINTS = 2062,
    TCO_P_FAILURE_MODEL = 2063,
    TCO_P_EXPERT_PARALLEL = 2064,
    /* since 1.1: the data pipeline */
    TCO_P_RAW_DATA_BYTES = 2065,
    TCO_P_PREPROCESS_CPU_NODE_HOURS_PER_TB = 2066,
    TCO_P_DATA_KEPT_SHARE = 2067,
    TCO_P_DATA_COMPRESSION_RATIO = 2068,
    TCO_P_DATA_CACHE_HIT_RATE = 2069,
    TCO_P_DATA_PREFETCH_DEPTH = 2070,
    TCO_P_DATA_OBJECT_BYTES = 2071,

    /* pricing table */
    TCO_P_ON_DEMAND_PER_ACCEL_HOUR = 3000,
    TCO_P_RESERVED_PER_ACCEL_HOUR = 3001,
    TCO_P_SPOT_PER_ACCEL_HOUR = 3002,
    TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR = 3003,
    TCO_P_CAPEX_PER_ACCELERATOR = 3004,
    TCO_P_CAPEX_PER_SERVER = 3005,
    TCO_P_DEPRECIATION_YEARS = 3006,
    TCO_P_RESIDUAL_SHARE = 3007,
    TCO_P_COST_OF_CAPITAL = 3008,
    TCO_P_MAINTENANCE_SHARE_PER_YEAR = 3009,
    TCO_P_ELECTRICITY_PER_KWH = 3010,
    TCO_P_COOLING_AIR_CAPEX_PER_KW = 3011,
    TCO_P_COOLING_LIQUID_CAPEX_PER_KW = 3012,
    TCO_P_SWITCH_PRICE = 3013,
    TCO_P_OPTIC_PRICE = 3014,
    TCO_P_CABLE_PRICE = 3015,
    TCO_P_EGRESS_INTERNET_PER_GB = 3016,
    TCO_P_EGRESS_CROSS_REGION_PER_GB = 3017,
    TCO_P_EGRESS_IN_REGION_PER_GB = 3018,
    TCO_P_STORAGE_HOT_PER_GB_MONTH = 3019,
    TCO_P_STORAGE_WARM_PER_GB_MONTH = 3020,
    TCO_P_STORAGE_COLD_PER_GB_MONTH = 3021,
    TCO_P_STORAGE_HOT_PER_GBPS_MONTH = 3022,
    TCO_P_DATABASE_PER_INSTANCE_MONTH = 3023,
    TCO_P_DATABASE_PER_GB_MONTH = 3024,
    TCO_P_LOG_INGEST_PER_GB = 3025,
    TCO_P_LOG_RETAINED_PER_GB_MONTH = 3026,
    TCO_P_METRICS_PER_MILLION_SAMPLES = 3027,
    TCO_P_SECURITY_PER_NODE_MONTH = 3028,
    TCO_P_SECURITY_FIXED_PER_MONTH = 3029,
    TCO_P_PLATFORM_PER_NODE_MONTH = 3030,
    TCO_P_STAFF_PER_FTE_YEAR = 3031,
    TCO_P_NODES_PER_FTE = 3032,
    TCO_P_MIN_FTE = 3033,
    TCO_P_MIGRATION_COST = 3034,
    TCO_P_LEARNING_FTE_MONTHS = 3035,
    TCO_P_RISK_PREMIUM_SHARE = 3036,
    TCO_P_CURRENCY = 3037,
    TCO_P_PRICE_DATE = 3038,
    TCO_P_PRICE_SOURCE = 3039,
    TCO_P_BUDGET_AMOUNT = 3040,
    TCO_P_BUDGET_PERIOD_DAYS = 3041,
    TCO_P_BUDGET_WARNING_SHARE = 3042,
    TCO_P_BUDGET_CRITICAL_SHARE = 3043,
    TCO_P_BUDGET_GROWTH_ALERT_SHARE = 3044,
    /* since 1.1: the facility apart from the IT (doc/model.md, section 18) */
    TCO_P_FACILITY_CAPEX_PER_KW = 3045,
    TCO_P_FACILITY_LIFE_YEARS = 3046,
    TCO_P_FACILITY_RESIDUAL_SHARE = 3047,
    TCO_P_COLOCATION_PER_KW_MONTH = 3048,
    /* since 1.1: staff and spares by events, indirect costs from their drivers */
    TCO_P_STAFF_HOURS_PER_FAILURE = 3049,
    TCO_P_STAFF_HOURS_PER_NODE_DEPLOYED = 3050,
    TCO_P_UPGRADES_PER_YEAR = 3051,
    TCO_P_STAFF_HOURS_PER_NODE_UPGRADE = 3052,
    TCO_P_AUTOMATION_SHARE = 3053,
    TCO_P_STAFF_HOURS_PER_FTE_YEAR = 3054,
    TCO_P_SPARE_PARTS_PER_FAILURE = 3055,
    TCO_P_MIGRATION_DATA_TB = 3056,
    TCO_P_MIGRATION_ENGINEER_MONTHS = 3057,
    TCO_P_MIGRATION_PARALLEL_MONTHS = 3058,
    TCO_P_MIGRATION_PARALLEL_COST_PER_MONTH = 3059,
    TCO_P_LEARNING_RAMP_WEEKS = 3060,
    TCO_P_LEARNING_OUTPUT_LOSS = 3061,
    TCO_P_RISK_PROBABILITY = 3062,
    TCO_P_RISK_IMPACT = 3063,
    TCO_P_INDIRECT_SPREAD_RUNS = 3064,
    TCO_P_RENTAL_INCLUDES_POWER = 3065,
    TCO_P_FABRIC_RESIDUAL_SHARE = 3066,
    TCO_P_CPU_NODE_HOUR_PRICE = 3067,       /* since 1.1: the data pipeline's prices */
    TCO_P_STORAGE_REQUEST_PER_1000 = 3068,
    TCO_P_INTERNET_INGRESS_PER_GB = 3069,
    TCO_P_NAT_PER_GB = 3070
} tco_param;

/* Everything the table says of one parameter. The strings are static. */
typedef struct tco_param_info {
    size_t size;              /* sizeof(tco_param_info) */
    int32_t key;              /* a tco_param */
    int32_t handle;           /* a tco_handle_kind */
    int32_t type;             /* a tco_param_type */
    const char *name;         /* "accelerators": lower case, unique */
    const char *unit;         /* "h", "W", "cur/kWh" (cur: the currency) */
    const char *description;  /* one line */
    double default_value;     /* for TEXT: 0 (see default_text); below min_value: a
                               * stand-in the setters also take, which default_text
                               * names ("the accelerator's list price") */
    double min_value;         /* inclusive bounds */
    double max_value;
    size_t choice_count;      /* CHOICE: how many named values */
    const char *default_text; /* TEXT and CHOICE: the default as text; a stand-in's meaning */
} tco_param_info;

/* How many parameters the table holds; iterate with tco_param_info_at. */
TCO_API size_t tco_param_count(void);
TCO_API int tco_param_info_at(tco_param_info *out, size_t index, tco_error *err);
TCO_API int tco_param_info_get(tco_param_info *out, int32_t key, tco_error *err);
/* Looks a parameter up by its name ("mfu"); *key receives its key. */
TCO_API int tco_param_find(int32_t *key, const char *name, tco_error *err);
/* The index-th named value of a CHOICE parameter: its name and value. */
TCO_API int tco_param_choice_at(const char **name, double *value, int32_t key,
                                size_t index, tco_error *err);

/* ------------------------------------------------------------------------
 * Accelerator catalogue (public datasheet figures; doc/model.md cites them)
 * ------------------------------------------------------------------------ */

typedef enum tco_accelerator_id {
    TCO_ACCEL_CUSTOM = 0, /* figures come from the accelerator_* parameters */
    TCO_ACCEL_A100_SXM_80GB = 1,
    TCO_ACCEL_H100_SXM = 2,
    TCO_ACCEL_H200_SXM = 3,
    TCO_ACCEL_B200 = 4,
    TCO_ACCEL_MI300X = 5
} tco_accelerator_id;

typedef struct tco_accelerator {
    size_t size;               /* sizeof(tco_accelerator) */
    int32_t id;                /* a tco_accelerator_id */
    const char *name;          /* the accelerator_model choice name */
    const char *vendor;
    double bf16_flops;         /* dense BF16 peak, FLOP/s */
    double fp8_flops;          /* dense FP8 peak, FLOP/s; 0 if unsupported */
    double memory_bytes;       /* on-package memory, bytes */
    double tdp_watts;          /* board power, W */
    const char *source;        /* the datasheet the figures come from */
    /* since 1.1: list prices in USD, what a pricing table's rate left at
     * -1 (its default) stands for; 0 where none is published. */
    double on_demand_per_accel_hour; /* USD per accelerator-hour */
    double reserved_per_accel_hour;  /* USD per accelerator-hour, a term paid in full */
    double spot_per_accel_hour;      /* USD per accelerator-hour */
    double capex_per_accelerator;    /* USD, one accelerator */
    const char *price_source;        /* where and when the prices were published */
    /* since 1.1 */
    double memory_bandwidth_bytes_per_s; /* peak memory (HBM) bandwidth, B/s; 0 for custom */
} tco_accelerator;

TCO_API size_t tco_accelerator_count(void);
TCO_API int tco_accelerator_at(tco_accelerator *out, size_t index, tco_error *err);

/* ------------------------------------------------------------------------
 * Handles
 * ------------------------------------------------------------------------ */

typedef struct tco_topology tco_topology;
typedef struct tco_workload tco_workload;
typedef struct tco_pricing tco_pricing;

/* new: a handle holding every default. clone: an unfrozen copy of src.
 * free: accepts NULL. set: a number (or a CHOICE's value). set_text: a TEXT,
 * or a CHOICE by name. get / get_text: the value as set; a get_text string
 * lives as long as the handle. freeze: checks the values together and makes
 * the handle immutable (freezing twice is fine). */
TCO_API int tco_topology_new(tco_topology **out, tco_error *err);
TCO_API int tco_topology_clone(tco_topology **out, const tco_topology *src, tco_error *err);
TCO_API void tco_topology_free(tco_topology *t);
TCO_API int tco_topology_set(tco_topology *t, int32_t key, double value, tco_error *err);
TCO_API int tco_topology_set_text(tco_topology *t, int32_t key, const char *text, tco_error *err);
TCO_API int tco_topology_get(const tco_topology *t, int32_t key, double *value, tco_error *err);
TCO_API int tco_topology_get_text(const tco_topology *t, int32_t key, const char **text, tco_error *err);
TCO_API int tco_topology_freeze(tco_topology *t, tco_error *err);
TCO_API int tco_topology_is_frozen(const tco_topology *t);

TCO_API int tco_workload_new(tco_workload **out, tco_error *err);
TCO_API int tco_workload_clone(tco_workload **out, const tco_workload *src, tco_error *err);
TCO_API void tco_workload_free(tco_workload *w);
TCO_API int tco_workload_set(tco_workload *w, int32_t key, double value, tco_error *err);
TCO_API int tco_workload_set_text(tco_workload *w, int32_t key, const char *text, tco_error *err);
TCO_API int tco_workload_get(const tco_workload *w, int32_t key, double *value, tco_error *err);
TCO_API int tco_workload_get_text(const tco_workload *w, int32_t key, const char **text, tco_error *err);
TCO_API int tco_workload_freeze(tco_workload *w, tco_error *err);
TCO_API int tco_workload_is_frozen(const tco_workload *w);

TCO_API int tco_pricing_new(tco_pricing **out, tco_error *err);
TCO_API int tco_pricing_clone(tco_pricing **out, const tco_pricing *src, tco_error *err);
TCO_API void tco_pricing_free(tco_pricing *p);
TCO_API int tco_pricing_set(tco_pricing *p, int32_t key, double value, tco_error *err);
TCO_API int tco_pricing_set_text(tco_pricing *p, int32_t key, const char *text, tco_error *err);
TCO_API int tco_pricing_get(const tco_pricing *p, int32_t key, double *value, tco_error *err);
TCO_API int tco_pricing_get_text(const tco_pricing *p, int32_t key, const char **text, tco_error *err);

TCO_API int tco_pricing_freeze(tco_pricing *p, tco_error *err);
TCO_API int tco_pricing_is_frozen(const tco_pricing *p);

/* The rate a computation charges for key (on_demand_per_accel_hour,
 * reserved_per_accel_hour, spot_per_accel_hour or capex_per_accelerator):
 * the pricing table's, or the list price of the topology's accelerator
 * that its -1 stands for; TCO_E_INCONSISTENT, naming the key, when there
 * is none (in the table's currency). Since 1.1. */
TCO_API int tco_rate(double *out, int32_t key, const tco_topology *topology, const tco_pricing *pricing,
                     tco_error *err);

/* ------------------------------------------------------------------------
 * Cost categories and waste kinds (append-only)
 * ------------------------------------------------------------------------ */

typedef enum tco_category {
    TCO_CAT_COMPUTE = 0,
    TCO_CAT_POWER = 1,
    TCO_CAT_COOLING = 2,
    TCO_CAT_NETWORK = 3,
    TCO_CAT_STORAGE = 4,
    TCO_CAT_DATABASE = 5,
    TCO_CAT_LOGGING = 6,   /* logging and monitoring */
    TCO_CAT_SECURITY = 7,
    TCO_CAT_PLATFORM = 8,
    TCO_CAT_STAFF = 9,
    TCO_CAT_INDIRECT = 10, /* migration, learning, risk */
    TCO_CAT_WASTE = 11
} tco_category;

typedef enum tco_waste {
    TCO_WASTE_IDLE = 0,        /* accelerators held with nothing to run */
    TCO_WASTE_FAILURES = 1,    /* lost work and restarts after failures */
    TCO_WASTE_DATA_STALLS = 2, /* accelerators waiting for input data */
    TCO_WASTE_CHECKPOINTS = 3, /* training paused while checkpoints write */
    TCO_WASTE_RETRIES = 4      /* runs abandoned and run again */
} tco_waste;

/* Room reserved in tco_estimate; the counts below say how many are used. */
#define TCO_CATEGORY_SLOTS 32
#define TCO_WASTE_SLOTS 16

TCO_API size_t tco_category_count(void);
TCO_API const char *tco_category_name(int32_t category);        /* "compute"; NULL if unknown */
TCO_API const char *tco_category_description(int32_t category); /* one line; NULL if unknown */
TCO_API size_t tco_waste_count(void);
TCO_API const char *tco_waste_name(int32_t waste);              /* "idle"; NULL if unknown */

/* ------------------------------------------------------------------------
 * The estimate of one training scenario (doc/model.md, sections 1 to 4)
 * ------------------------------------------------------------------------ */

/* All amounts are in the pricing table's currency; times in hours unless
 * named otherwise. "Run" is one run of the workload; "held" counts every
 * run plus the queue wait, i.e. the time the cluster is paid for. */
typedef struct tco_estimate {
    size_t size;                          /* sizeof(tco_estimate) */

    double total;                         /* exactly the sum of cost[] */
    double cost[TCO_CATEGORY_SLOTS];      /* by tco_category */
    double waste[TCO_WASTE_SLOTS];        /* by tco_waste; sums to cost[WASTE] */

    /* training time */
    double train_flops;                   /* FLOP per run */
    double tokens;                        /* tokens per run (tokens x epochs) */
    double job_accelerators;
    double cluster_accelerators;
    double cluster_nodes;
    double peak_flops;                    /* per accelerator, FLOP/s, at the precision */
    double accelerator_memory_bytes;      /* per accelerator */
    double model_state_bytes;             /* per accelerator: weights, gradients and optimizer
                                             state over tensor x pipeline, unsharded */
    double compute_hours;                 /* per run, at MFU, no interruptions */
    double wall_hours;                    /* per run, with stalls, checkpoints, failures */
    double held_hours;                    /* runs x (wall + retries) + queue wait */
    double accelerator_hours;             /* billed: cluster accelerators x held hours */
    double effective_accelerator_hours;   /* useful: job accelerators x compute hours x runs */
    double goodput;                       /* compute_hours / wall_hours */

    /* reliability and checkpoints */
    double system_mtbf_hours;             /* of the job's accelerators and nodes */
    double checkpoint_bytes;
    double checkpoint_write_hours;        /* time training pauses per checkpoint */
    double checkpoint_interval_hours;     /* the interval used */
    double young_interval_hours;          /* Young 1974 */
    double daly_interval_hours;           /* Daly 2006 */
    double expected_failures;             /* per run */
    double lost_work_hours;               /* per run */
    double restart_hours;                 /* per run */
    double checkpoint_overhead_hours;     /* per run */
    double data_stall_hours;              /* per run */
    double data_stall_share;              /* effective share of working time */

    /* network fabric */
    double fabric_tiers;
    double fabric_switches;
    double fabric_links;
    double fabric_optics;
    double fabric_capex;
    double fabric_bisection_tbps;         /* endpoints x NIC speed / (2 x oversubscription) */
    double inter_site_bytes;              /* gradient traffic between sites, all runs */

    /* power */
    double it_power_kw;                   /* average IT draw of the cluster */
    double facility_power_kw;             /* it_power_kw x PUE */
    double energy_kwh;                    /* facility energy over held hours */

    /* unit economics */
    double cost_per_accelerator_hour;     /* total / accelerator_hours */
    double cost_per_effective_accelerator_hour;
    double cost_per_million_tokens;
    double cost_per_pflop_day;            /* per 1e15 FLOP/s x 86400 s of useful work */
    double cost_per_run;                  /* total / runs: what one job costs */

    /* identity of the inputs (tco_scenario_fingerprint) */
    uint64_t scenario_fingerprint;

    /* since 1.1: FLOPs as papers count them, memory and the layout */
    double model_flops_per_token;         /* 6 x active + attention: what MFU counts */
    double hardware_flops_per_token;      /* with recomputation: what the run executes */
    double attention_term_layers;         /* layers of the attention term; 0: left out */
    double attention_term_width;          /* its width per layer; 0: left out */
    double achieved_mfu;                  /* model FLOPs utilisation achieved */
    double achieved_hfu;                  /* hardware FLOPs utilisation achieved */
    double model_flops_per_accelerator;   /* model FLOP/s per accelerator while computing */
    double sharded_state_bytes;           /* per accelerator: model state with ZeRO sharding */
    double activation_bytes;              /* per accelerator, at the recomputation chosen */
    double memory_used_bytes;             /* sharded_state_bytes + activation_bytes */
    double pipeline_bubble_share;         /* of a step, 1F1B schedule */
    double comm_exposed_share;            /* of a step at peak: tensor-parallel and data-parallel
                                             communication not hidden behind compute */
    double mfu_ceiling;                   /* the MFU the layout allows at peak FLOP/s */
    uint64_t flags;                       /* tco_estimate_flag bits: which input won, what was
                                             assumed */
    /* since 1.1: fixed against variable, across the whole bill */
    double fixed[TCO_CATEGORY_SLOTS];     /* of cost[], by tco_category: paid whether the cluster works
                                             or not (doc/model.md, section 3); the rest follows use */
    double fixed_total;                   /* sum of fixed; total - fixed_total is variable */
    /* since 1.1: the data pipeline (doc/model.md, section 23), each line
       inside cost[] */
    double data_stored_bytes;             /* the dataset after deduplication and compression, kept once */
    double data_read_requests;            /* read requests reaching storage, all runs (the cache's misses) */
    double preprocess_cost;               /* in cost[TCO_CAT_COMPUTE]: CPU node-hours preparing the raw data */
    double data_ingress_cost;             /* in cost[TCO_CAT_NETWORK]: internet ingress and NAT of the raw data */
    double storage_request_cost;          /* in cost[TCO_CAT_STORAGE]: the read requests */
} tco_estimate;

/* What the estimate assumed or which input set a figure, as bits of
 * tco_estimate.flags (since 1.1). Named by tco_estimate_flag_name. */
typedef enum tco_estimate_flag {
    TCO_FLAG_HIDDEN_DERIVED = 1 << 0,          /* hidden_size from params and layers (N = 12 L d^2) */
    TCO_FLAG_ATTENTION_OMITTED = 1 << 1,       /* layers not given: no attention term, no activations */
    TCO_FLAG_FLOPS_GIVEN = 1 << 2,             /* total_flops replaced the formula */
    TCO_FLAG_TIME_FROM_MFU = 1 << 3,           /* compute time from mfu */
    TCO_FLAG_TIME_FROM_HFU = 1 << 4,           /* from hfu: mfu was not used */
    TCO_FLAG_TIME_FROM_ACHIEVED_FLOPS = 1 << 5,/* from achieved_flops_per_accelerator */
    TCO_FLAG_TIME_FROM_RUN_ACCELERATOR_HOURS = 1 << 6, /* from run_accelerator_hours: mfu derived */
    TCO_FLAG_STALL_FLOOR = 1 << 7,             /* data_stall_share set the stalls */
    TCO_FLAG_STALL_BANDWIDTH = 1 << 8,         /* reading from the hot tier set them (its bandwidth, the cache's misses, the prefetch) */
    TCO_FLAG_MFU_ABOVE_CEILING = 1 << 9,       /* the MFU used exceeds mfu_ceiling */
    TCO_FLAG_FAILURES_BY_JOB_SIZE = 1 << 10,   /* the job's MTBF from the job-size table */
    TCO_FLAG_FAILURES_OFF = 1 << 11,           /* count_failures = 0 */
    TCO_FLAG_RESTARTS_OFF = 1 << 12,           /* count_restarts = 0 */
    TCO_FLAG_CHECKPOINTS_OFF = 1 << 13,        /* count_checkpoints = 0 */
    TCO_FLAG_ACTIVATIONS_EXCEED_MEMORY = 1 << 14 /* state + activations above the memory */
} tco_estimate_flag;

/* "hidden_derived" for TCO_FLAG_HIDDEN_DERIVED, and a one-line
 * description; NULL for a value that is not one flag this library knows.
 * Since 1.1. */
TCO_API const char *tco_estimate_flag_name(uint64_t flag);
TCO_API const char *tco_estimate_flag_description(uint64_t flag);

/* Prices the scenario. All three handles must be frozen. On failure *out
 * is left untouched. Allocates nothing; safe from any number of threads. */
TCO_API int tco_estimate_compute(tco_estimate *out, const tco_topology *topology,
                                 const tco_workload *workload, const tco_pricing *pricing,
                                 tco_error *err);

/* Prices n variations of a scenario in one call (a parameter sweep).
 * Variation i is the three handles with keys[j] set to values[i * nkeys + j]
 * (keys of any handle). out holds n structs of out_size bytes each
 * (sizeof(tco_estimate) as the caller knows it); status[i] is variation i's
 * code: a variation whose values are out of range or inconsistent gets its
 * code and a zeroed estimate, and the rest are still priced; err tells the
 * first such failure (status says which). Sweep results carry no
 * fingerprint (it is 0).
 * Returns an error only for arguments that make the whole sweep unusable. */
TCO_API int tco_estimate_sweep(tco_estimate *out, size_t out_size, int32_t *status, size_t n,
                               const int32_t *keys, size_t nkeys, const double *values,
                               const tco_topology *topology, const tco_workload *workload,
                               const tco_pricing *pricing, tco_error *err);

/* What each field of tco_estimate is: its name (the key in files and in
 * the bindings), unit and place in the struct, so that no binding or file
 * format keeps its own list. Arrays (cost, waste) are one field each,
 * indexed by tco_category or tco_waste. */
typedef enum tco_field_type {
    TCO_FIELD_DOUBLE = 1,
    TCO_FIELD_UINT64 = 2,
    TCO_FIELD_CATEGORIES = 3, /* double[TCO_CATEGORY_SLOTS], tco_category_count() used */
    TCO_FIELD_WASTES = 4      /* double[TCO_WASTE_SLOTS], tco_waste_count() used */
} tco_field_type;

typedef struct tco_field_info {
    size_t size;             /* sizeof(tco_field_info) */
    const char *name;        /* "wall_hours" */
    const char *unit;        /* "h", "cur", "FLOP"... ("1" for counts and shares) */
    const char *description; /* one line */
    int32_t type;            /* a tco_field_type */
    size_t offset;           /* offsetof(tco_estimate, field) */
} tco_field_info;

TCO_API size_t tco_estimate_field_count(void);
TCO_API int tco_estimate_field_at(tco_field_info *out, size_t index, tco_error *err);

/* ------------------------------------------------------------------------
 * Capacity: demand series, fixed vs elastic, peaks, storage, logs, budgets
 * (doc/model.md, sections 6 to 11)
 *
 * A demand series is a plain array of accelerators wanted, one value per
 * interval of interval_hours; it is read, never copied or kept, except
 * where a function says it needs a sorted or partitioned copy.
 * ------------------------------------------------------------------------ */

/* Peak and average of a series, summed with compensated (Neumaier)
 * summation. */
typedef struct tco_demand_stats {
    size_t size;                  /* sizeof(tco_demand_stats) */
    double points;
    double hours;                 /* points x interval_hours */
    double peak;
    double minimum;
    double mean;
    double peak_to_average;       /* peak / mean; 0 when the mean is 0 */
    double accelerator_hours;     /* sum of demand x interval_hours */
} tco_demand_stats;

TCO_API int tco_demand_stats_compute(tco_demand_stats *out, const double *demand, size_t n,
                                     double interval_hours, tco_error *err);
/* out[i]: the percentiles[i]-th percentile (0 to 100, linear interpolation
 * between order statistics, as numpy's default). Sorts a copy. */
TCO_API int tco_demand_percentiles(double *out, const double *percentiles, size_t count,
                                   const double *demand, size_t n, tco_error *err);
/* hours[i]: time demand is strictly above thresholds[i]. */
TCO_API int tco_demand_time_above(double *hours, const double *thresholds, size_t count,
                                  const double *demand, size_t n, double interval_hours,
                                  tco_error *err);
/* The least capacity that leaves at most max_unmet_share of the demand's
 * accelerator-hours unserved. Sorts a copy. */
TCO_API int tco_capacity_for_unmet(double *capacity, double max_unmet_share, const double *demand,
                                   size_t n, double interval_hours, tco_error *err);

/* Fixed (reserved) vs elastic (on-demand and spot) capacity for a series. */
typedef struct tco_split {
    size_t size;                      /* sizeof(tco_split) */
    double baseline;                  /* reserved accelerators */
    double exceedance;                /* share of time demand is above the baseline */
    double target_exceedance;         /* reserved rate / elastic rate: the optimum's */
    double hours;
    double demand_accelerator_hours;
    double reserved_accelerator_hours;  /* baseline x hours: paid whether used or not */
    double reserved_used_hours;         /* demand served by the baseline */
    double reserved_utilisation;        /* used / reserved; 0 with no baseline */
    double on_demand_accelerator_hours;
    double spot_accelerator_hours;      /* interruptible demand above the baseline, if spot pays */
    double spot_overhead_share;         /* extra run time of work on spot (rework, restarts) */
    double elastic_rate;                /* cur per accelerator-hour of demand above the baseline */
    double fixed_cost;
    double elastic_cost;                /* on_demand_cost + spot_cost */
    double on_demand_cost;
    double spot_cost;                   /* including its overhead */
    double total_cost;                  /* fixed_cost + elastic_cost */
    double all_on_demand_cost;          /* every demand hour on demand */
    double reserve_peak_cost;           /* the peak reserved for the whole series */
    double savings_vs_on_demand;        /* all_on_demand_cost - total_cost */
    double savings_vs_peak;             /* reserve_peak_cost - total_cost */
} tco_split;

/* The baseline that minimises total cost: the demand quantile that demand
 * exceeds for reserved rate / elastic rate of the time. Rates from the
 * pricing table; interruptible_share of the workload goes to spot where its
 * rate with the overhead of interruptions (topology: restart and checkpoint
 * figures) beats on demand. Selection on a copy, linear time. */
TCO_API int tco_capacity_split(tco_split *out, const double *demand, size_t n, double interval_hours,
                               const tco_topology *t, const tco_workload *w, const tco_pricing *p,
                               tco_error *err);
/* The same split for a baseline the caller chooses. Reads the series only. */
TCO_API int tco_capacity_split_at(tco_split *out, double baseline, const double *demand, size_t n,
                                  double interval_hours, const tco_topology *t,
                                  const tco_workload *w, const tco_pricing *p, tco_error *err);

/* Peak against average bandwidth of one training run: checkpoint bursts on
 * storage, the gradient exchange on the network. */
typedef struct tco_bandwidth {
    size_t size;                      /* sizeof(tco_bandwidth) */
    double storage_read_gbps;         /* average data read rate, GB/s */
    double storage_write_gbps;        /* average checkpoint write rate, GB/s */
    double checkpoint_burst_gbps;     /* needed to write a checkpoint within checkpoint_stall_seconds */
    double storage_peak_to_average;   /* (read + burst) / (read + write) */
    double storage_hot_gbps;          /* what the hot tier gives */
    double checkpoint_stall_seconds;  /* the pause at the hot tier's bandwidth */
    double step_seconds;              /* one optimizer step at MFU */
    double network_bytes_per_step;    /* gradient exchange per accelerator per step */
    double network_average_gbps;      /* per accelerator, Gbit/s, spread over the step */
    double network_burst_gbps;        /* per accelerator, within comm_window_share of the step */
    double network_capacity_gbps;     /* per accelerator: NICs x speed / accelerators per node */
    double network_burst_utilisation; /* burst / capacity: above 1, communication is exposed */
} tco_bandwidth;

TCO_API int tco_bandwidth_compute(tco_bandwidth *out, const tco_topology *t, const tco_workload *w,
                                  const tco_pricing *p, tco_error *err);

/* Hot, warm and cold placement of the dataset, checkpoints and logs under
 * the workload's retention policy, against keeping everything hot, over
 * lifecycle_horizon_days. GB-months by class and tier. */
typedef enum tco_data_class {
    TCO_DATA_DATASET = 0,
    TCO_DATA_CHECKPOINTS = 1,
    TCO_DATA_LOGS = 2
} tco_data_class;

typedef enum tco_tier {
    TCO_TIER_HOT = 0,
    TCO_TIER_WARM = 1,
    TCO_TIER_COLD = 2
} tco_tier;

/* "dataset", "checkpoints", "logs"; "hot", "warm", "cold"; NULL if unknown. */
TCO_API const char *tco_data_class_name(int32_t data_class);
TCO_API const char *tco_tier_name(int32_t tier);

typedef struct tco_lifecycle {
    size_t size;                      /* sizeof(tco_lifecycle) */
    double horizon_days;
    double gb_months[3][3];           /* [tco_data_class][tco_tier] under the policy */
    double cost[3][3];                /* the same, priced */
    double policy_cost;               /* sum of cost */
    double keep_hot_cost;             /* everything on the hot tier until the horizon */
    double savings;                   /* keep_hot_cost - policy_cost */
    double checkpoints_written;       /* per run */
    double restart_window_hot_hours;  /* how far back a restart from the hot tier goes */
    double restart_window_hours;      /* how far back any kept checkpoint goes */
} tco_lifecycle;

TCO_API int tco_lifecycle_compute(tco_lifecycle *out, const tco_topology *t, const tco_workload *w,
                                  const tco_pricing *p, tco_error *err);

/* Monitoring of the whole cluster per month of operation, at the workload's
 * sampling interval and retention and at the ones proposed (the seeds'
 * example: 5 s to 30 s, 30 days, is one call). */
typedef struct tco_logging {
    size_t size;                      /* sizeof(tco_logging) */
    double samples_per_month;         /* at the workload's interval */
    double stored_gb;                 /* logs and samples kept, steady state */
    double cost_per_month;            /* ingestion and retention */
    double proposed_samples_per_month;
    double proposed_stored_gb;
    double proposed_cost_per_month;
    double savings_per_month;         /* cost_per_month - proposed_cost_per_month */
    double savings_share;             /* savings / cost_per_month */
} tco_logging;

TCO_API int tco_logging_compare(tco_logging *out, double interval_seconds, double retention_days,
                                const tco_topology *t, const tco_workload *w, const tco_pricing *p,
                                tco_error *err);

/* Spending against the pricing table's budget lines. */
typedef enum tco_budget_status {
    TCO_BUDGET_OK = 0,
    TCO_BUDGET_WARNING = 1,
    TCO_BUDGET_CRITICAL = 2,
    TCO_BUDGET_EXHAUSTED = 3
} tco_budget_status;

/* "ok", "warning", "critical", "exhausted"; NULL if unknown. */
TCO_API const char *tco_budget_status_name(int32_t status);

typedef struct tco_budget {
    size_t size;                      /* sizeof(tco_budget) */
    double spent;
    double elapsed_days;
    double burn_rate_per_day;         /* over the last 7 days (or all, if fewer) */
    double projected_spend;           /* at the period's end, at that burn rate */
    double days_to_exhaustion;        /* from now, at that burn rate (see exhaustion_defined) */
    double growth;                    /* against the previous period to the same day (see growth_defined) */
    int32_t status;                   /* a tco_budget_status, of what is spent */
    int32_t projected_status;         /* the same for the projected spend */
    int32_t abnormal_growth;          /* 1: growth above budget_growth_alert_share (spending from
                                         nothing included) */
    /* Since 1.1. */
    int32_t exhaustion_defined;       /* 1: days_to_exhaustion is a number of days (0 once all is
                                         spent); 0: it never runs out at this burn rate */
    int32_t growth_defined;           /* 1: growth is the ratio; 0: no previous period, or one that
                                         had spent nothing by this day */
} tco_budget;

/* spend[i]: what interval i of the current period cost (interval_days long);
 * previous (may be NULL) the same for the previous period. Where a figure
 * has no value its flag is 0, and the figure is 0 for a caller whose size
 * reaches growth_defined; a caller whose size ends before the flags (1.0's
 * struct) gets 1.0's figures: days_to_exhaustion INFINITY with no burn,
 * growth INFINITY after a previous period that spent nothing, 0 without
 * one. */
TCO_API int tco_budget_compute(tco_budget *out, const double *spend, size_t n, double interval_days,
                               const double *previous, size_t n_previous, const tco_pricing *p,
                               tco_error *err);

/* ------------------------------------------------------------------------
 * Scenario files and identity (doc/format.md)
 * ------------------------------------------------------------------------ */

/* The scenario file format version this library writes; it reads this and
 * every earlier one. */
#define TCO_FORMAT_VERSION 1

/* "libtco-scenario": the value of a scenario file's "format" key, in CBOR
 * and in JSON. Since 1.1. */
TCO_API const char *tco_scenario_format_name(void);

/* Canonical CBOR (RFC 8949, deterministic encoding): maps keyed by the
 * parameter names, every parameter present, keys in a fixed order, so equal
 * inputs give equal bytes.
 * save: writes into buf (cap bytes) and sets *len to the encoded size. With
 * buf NULL it only sets *len; with cap too small it writes nothing, sets
 * *len and returns TCO_E_SIZE.
 * load: *out receives a new unfrozen handle. Keys the file lacks keep their
 * defaults (files from earlier versions load); a key this version does not
 * know, a duplicate key, a wrong type or a value out of range is an error
 * that names the key. Nothing is allocated on failure. */
TCO_API int tco_topology_save_cbor(uint8_t *buf, size_t cap, size_t *len, const tco_topology *t,
                                   tco_error *err);
TCO_API int tco_workload_save_cbor(uint8_t *buf, size_t cap, size_t *len, const tco_workload *w,
                                   tco_error *err);
TCO_API int tco_pricing_save_cbor(uint8_t *buf, size_t cap, size_t *len, const tco_pricing *p,
                                  tco_error *err);
TCO_API int tco_topology_load_cbor(tco_topology **out, const uint8_t *buf, size_t len, tco_error *err);
TCO_API int tco_workload_load_cbor(tco_workload **out, const uint8_t *buf, size_t len, tco_error *err);
TCO_API int tco_pricing_load_cbor(tco_pricing **out, const uint8_t *buf, size_t len, tco_error *err);

/* A whole scenario: the three handles and the format version in one map. */
TCO_API int tco_scenario_save_cbor(uint8_t *buf, size_t cap, size_t *len, const tco_topology *t,
                                   const tco_workload *w, const tco_pricing *p, tco_error *err);
TCO_API int tco_scenario_load_cbor(tco_topology **t, tco_workload **w, tco_pricing **p,
                                   const uint8_t *buf, size_t len, tco_error *err);

/* A result, as a map keyed by the tco_estimate_field_at names. */
TCO_API int tco_estimate_save_cbor(uint8_t *buf, size_t cap, size_t *len, const tco_estimate *e,
                                   tco_error *err);

/* Fingerprints: XXH3-64 of the canonical encoding, the same on every
 * platform and in every binding. A scenario's combines its three handles'
 * (doc/format.md says how). */
TCO_API int tco_topology_fingerprint(uint64_t *out, const tco_topology *t, tco_error *err);
TCO_API int tco_workload_fingerprint(uint64_t *out, const tco_workload *w, tco_error *err);
TCO_API int tco_pricing_fingerprint(uint64_t *out, const tco_pricing *p, tco_error *err);
TCO_API int tco_scenario_fingerprint(uint64_t *out, const tco_topology *t, const tco_workload *w,
                                     const tco_pricing *p, tco_error *err);

/* ------------------------------------------------------------------------
 * Placement pricing: the scheduler's hot path (doc/scheduling.md)
 * ------------------------------------------------------------------------ */

typedef enum tco_price_class {
    TCO_CLASS_ON_DEMAND = 0,
    TCO_CLASS_RESERVED = 1,
    TCO_CLASS_SPOT = 2,
    TCO_CLASS_OWNED = 3
} tco_price_class;

/* One pool of capacity: a zone, a rack group, a reserved block, a market.
 * rack, zone and region are locality ids of the caller's choosing: pools
 * with equal ids share that rack (switch group), zone or region. */
typedef struct tco_pool {
    size_t size;                        /* sizeof(tco_pool) */
    int32_t price_class;                /* a tco_price_class */
    int32_t accelerators_per_node;
    int32_t free_accelerators;
    int32_t rack;
    int32_t zone;
    int32_t region;
    double rate_per_accel_hour;         /* cur per accelerator-hour */
    double interruptions_per_node_hour; /* reclaim rate of a spot node; else 0 */
} tco_pool;

/* "on_demand", "reserved", "spot", "owned"; NULL if unknown. */
TCO_API const char *tco_price_class_name(int32_t price_class);

/* Pools: built with add (ids 0, 1, 2... in the order added), then frozen. */
typedef struct tco_pools tco_pools;

TCO_API int tco_pools_new(tco_pools **out, tco_error *err);
TCO_API void tco_pools_free(tco_pools *pools);
/* add: *id (id may be NULL) receives the new pool's id. */
TCO_API int tco_pools_add(tco_pools *pools, const tco_pool *pool, int32_t *id, tco_error *err);
TCO_API int tco_pools_freeze(tco_pools *pools, tco_error *err);
TCO_API size_t tco_pools_count(const tco_pools *pools);
TCO_API int tco_pools_get(tco_pool *out, const tco_pools *pools, int32_t id, tco_error *err);

/* A job waiting to be placed. */
typedef struct tco_job {
    size_t size;                      /* sizeof(tco_job) */
    int32_t accelerators;
    int32_t interruptible;            /* 1: may run on spot pools */
    double duration_hours;            /* expected at full locality, uninterrupted */
    double comm_share;                /* 0 to 1: how communication-bound it is */
    double checkpoint_bytes;          /* what a restart goes back to */
    double traffic_gb_per_accel_hour; /* data each accelerator exchanges */
    double delay_cost_per_hour;       /* what a later start costs, per hour */
} tco_job;

#define TCO_PLACEMENT_MAX_PARTS 8

/* One candidate placement of a job: accelerators from up to
 * TCO_PLACEMENT_MAX_PARTS pools, the racks, zones and regions it spans
 * (0: counted from the pools' ids), and when it starts. */
typedef struct tco_placement {
    size_t size;                      /* sizeof(tco_placement) */
    int32_t parts;
    int32_t pool[TCO_PLACEMENT_MAX_PARTS];
    int32_t accelerators[TCO_PLACEMENT_MAX_PARTS];
    int32_t racks;
    int32_t zones;
    int32_t regions;
    double start_hours;               /* from now */
} tco_placement;

/* The expected cost of a placement and its parts; cost is their sum, added
 * in the order compute, slowdown, traffic, delay, interruptions, stranded. */
typedef struct tco_price {
    size_t size;                      /* sizeof(tco_price) */
    double cost;
    double completion_hours;          /* start + run_hours */
    double run_hours;                 /* with slowdown and interruptions */
    double compute;                   /* the pools' rates over the full-locality duration */
    double slowdown;                  /* the same rates over the extra time spanning costs */
    double traffic;                   /* cross-zone and cross-region transfer */
    double interruptions;             /* expected rework and restarts */
    double stranded;                  /* accelerators left idle on partly used nodes */
    double delay;                     /* delay_cost_per_hour x start_hours */
} tco_price;

/* Prices one placement. The topology gives the span slowdowns, restart time
 * and checkpoint bandwidth; the pricing table the transfer prices. Every
 * handle frozen. Allocates nothing, takes no lock. */
TCO_API int tco_placement_price(tco_price *out, const tco_pools *pools, const tco_topology *t,
                                const tco_pricing *p, const tco_job *job,
                                const tco_placement *placement, tco_error *err);

/* Many placements as plain arrays (struct of arrays). Placement i is job
 * jobs[job[i]]; its parts are pool[i * max_parts + j] with accelerators[...]
 * (a part of 0 accelerators ends the list); racks, zones, regions and
 * start_hours may be NULL. jobs[] is stepped by jobs[0].size, so callers
 * built against any version of tco_job read alike. */
typedef struct tco_placement_batch {
    size_t size;                      /* sizeof(tco_placement_batch) */
    size_t count;
    size_t max_parts;                 /* 1 to TCO_PLACEMENT_MAX_PARTS */
    const int32_t *job;
    const int32_t *pool;
    const int32_t *accelerators;
    const int32_t *racks;
    const int32_t *zones;
    const int32_t *regions;
    const double *start_hours;
} tco_placement_batch;

/* Fills cost[i], completion_hours[i] and status[i] for every placement,
 * exactly as tco_placement_price would; a placement that cannot be priced
 * gets its status code and NaN figures, and the rest are still priced.
 * Returns an error only for arguments that make the whole batch unusable. */
TCO_API int tco_placement_price_batch(double *cost, double *completion_hours, int32_t *status,
                                      const tco_pools *pools, const tco_topology *t,
                                      const tco_pricing *p, const tco_job *jobs, size_t job_count,
                                      const tco_placement_batch *batch, tco_error *err);

/* tco_placement_price_batch on `threads` threads (0: one per online core;
 * at most 256, and at most one per 16,384 placements), each pricing its
 * own share of the placements: every figure and status is the same, bit
 * for bit, as the single-threaded batch's for any thread count (since
 * 1.1). The threads are started and joined within the call; a thread that
 * cannot be started leaves its share to the calling thread. */
TCO_API int tco_placement_price_batch_mt(double *cost, double *completion_hours, int32_t *status,
                                         const tco_pools *pools, const tco_topology *t,
                                         const tco_pricing *p, const tco_job *jobs, size_t job_count,
                                         const tco_placement_batch *batch, int32_t threads, tco_error *err);

/* ------------------------------------------------------------------------
 * Decisions: which option, how much, what the answer hangs on (since 1.1;
 * doc/model.md, sections 12 to 15)
 * ------------------------------------------------------------------------ */

/* Option i of a comparison, against option 0 (the baseline). Amounts in the
 * pricing tables' currency, which every option must share. */
typedef struct tco_option {
    size_t size;                              /* sizeof(tco_option) */
    double total;                             /* cur, all runs */
    double cost[TCO_CATEGORY_SLOTS];          /* by tco_category */
    double difference[TCO_CATEGORY_SLOTS];    /* cost - the baseline's cost, by category */
    double total_difference;                  /* total - the baseline's total */
    double cost_per_run;                      /* cur per run */
    double cost_per_million_tokens;           /* cur per million tokens trained */
    double cost_per_effective_accelerator_hour; /* cur per useful accelerator-hour */
    double cost_per_pflop_day;                /* cur per PFLOP-day of useful work */
    double one_off;                           /* cur: migration and learning, paid once */
    double recurring_per_run;                 /* cur: cost_per_run without the one-off share */
    double saving_per_run;                    /* the baseline's recurring_per_run - this one's */
    double saving_per_month;                  /* saving_per_run x this option's runs per held month */
    int32_t pays_back;                        /* 1: the saving repays one_off - the baseline's one_off */
    int32_t cheaper;                          /* 1: less per million tokens than the baseline */
    double payback_runs;                      /* runs until it does (0 when it never does) */
    double payback_months;                    /* months until it does (0 when it never does) */
    double breakeven_utilisation;             /* share of a year's hours at which owning this option's
                                                 accelerators costs what renting them does */
    double breakeven_rate;                    /* cur per accelerator-hour: the rental rate at which
                                                 renting this run's hours costs what owning them does */
    uint64_t scenario_fingerprint;
} tco_option;

/* Prices n options (n >= 1), option i being topologies[i], workloads[i]
 * and pricings[i], all frozen, each as tco_estimate_compute prices it, and
 * compares each with option 0, the baseline (doc/model.md, section 12).
 * out holds n structs of out_size bytes, out_size at least
 * sizeof(tco_option); each size field is set to out_size. one_off is
 * migration and learning; the risk premium recurs. breakeven_utilisation
 * is 0 when renting never costs more than owning (the rate is at most the
 * energy of an hour used), and may exceed 1 (owning never pays). Options in
 * different currencies fail with TCO_E_INCONSISTENT naming TCO_P_CURRENCY
 * and both codes; an option that cannot be priced fails with its
 * estimate's error, its index first ("option 2: ..."). On failure out is
 * untouched. Allocates nothing; safe from any number of threads. */
TCO_API int tco_compare(tco_option *out, size_t out_size, size_t n, const tco_topology *const *topologies,
                        const tco_workload *const *workloads, const tco_pricing *const *pricings,
                        tco_error *err);

/* What inverse sizing solves for. */
typedef enum tco_solve {
    TCO_SOLVE_ACCELERATORS = 1, /* the job's accelerators, the workload's mfu as given */
    TCO_SOLVE_MFU = 2           /* the mfu, on the workload's job as given */
} tco_solve;

/* What a run must meet: a deadline, a budget, or both (0: not given). */
typedef struct tco_target {
    size_t size;                 /* sizeof(tco_target) */
    int32_t solve;               /* a tco_solve */
    double deadline_days;        /* wall-clock days of one run; 0: none */
    double budget;               /* cur, all runs (tco_estimate.total); 0: none */
    double max_accelerators;     /* the largest job; 0: the topology's accelerators. Above them the
                                    cluster grows with the job (and is paid for); below, it stays */
    double tolerance;            /* relative, of the mfu solve: 1e-14 to 0.1; 0: 1e-9 */
} tco_target;

typedef struct tco_sizing {
    size_t size;                 /* sizeof(tco_sizing) */
    int32_t feasible;            /* 1: the deadline and the budget given are met */
    int32_t price_class;         /* with deadline and budget: the cheapest tco_price_class meeting
                                    both, or when none does the class of the closest run; else -1 */
    int32_t iterations;          /* estimates the search priced */
    double accelerators;         /* the job's accelerators: the fewest meeting the deadline (and the
                                    budget), the fastest run the budget allows, or the job as given
                                    when solving for mfu */
    double mfu;                  /* the least mfu meeting the target; else the workload's (what the
                                    run achieves when hfu or another input sets the time) */
    double wall_days;            /* of one run, at the solution (or the closest achievable) */
    double total;                /* cur, at the solution (or the closest achievable) */
    double closest_wall_days;    /* when infeasible: the shortest run within the limits; else 0 */
    double closest_total;        /* when infeasible: the cheapest run within the limits; else 0 */
} tco_sizing;

/* Sizes the job to a deadline, a budget or both (doc/model.md, section
 * 13), on private copies of the handles. Accelerators are solved on the
 * grid of whole nodes that tensor x pipeline x expert parallel divides
 * (data_parallel follows from the size), by bisection where wall time
 * and total are monotone, never by a blind loop; with both targets, for
 * each price class the pricing table has (the topology's shares set to
 * it). The mfu is solved on the job as given by Brent's method within
 * target->tolerance, up to 1 or where hfu reaches 1. An infeasible target
 * is not an error: feasible = 0 with the closest achievable. The scenario
 * as given must price. Allocates nothing. */
TCO_API int tco_size(tco_sizing *out, const tco_target *target, const tco_topology *t, const tco_workload *w,
                     const tco_pricing *p, tco_error *err);

/* One parameter swung down and up (a row of a tornado). */
typedef struct tco_swing {
    size_t size;                 /* sizeof(tco_swing) */
    int32_t key;                 /* the tco_param */
    int32_t status;              /* TCO_OK, or why a swing could not be priced (then 0 below) */
    int32_t clipped;             /* 1: a swing was cut at the parameter's bound */
    double low_value, high_value;   /* the values swung to */
    double low_total, high_total;   /* the total at each */
    double low_unit, high_unit;     /* cost per effective accelerator-hour at each */
    double spread;               /* |high_total - low_total|: what the ranking sorts by */
} tco_swing;

/* The tornado (doc/model.md, section 14). Swings every REAL and INT
 * parameter of the three handles, one at a time, from its value v to
 * v x (1 - share) and v x (1 + share), share in (0, 1] (0: 0.1), and ranks
 * them by spread, largest first, equal spreads in table order
 * (tco_param_info_at's). A parameter at 0 has no relative swing and stays
 * (0 mostly means "not given" or "none"): spread 0. A
 * swing past a bound stops at it (clipped = 1); an INT swing is rounded to
 * the nearest whole number, and one that rounds back to v moves nothing.
 * A swing the handles or the estimate refuse gives its row that status
 * and zeros below it (spread 0); the other rows are still priced, and
 * the call succeeds with err left alone. out has room for cap rows of
 * out_size bytes (sizeof(tco_swing)); the first min(cap, *n) are filled,
 * *n receiving how many REAL and INT parameters the table holds (out may
 * be NULL when cap is 0). Fails, writing nothing, on a NULL out or n, a
 * small out_size, a share out of range, unfrozen handles, or a scenario
 * that does not price as given. Allocates nothing; about 44 KB of stack. */
TCO_API int tco_sensitivity(tco_swing *out, size_t out_size, size_t cap, size_t *n, double share,
                            const tco_topology *t, const tco_workload *w, const tco_pricing *p,
                            tco_error *err);

typedef enum tco_distribution {
    TCO_DIST_UNIFORM = 1,    /* a = low, b = high */
    TCO_DIST_TRIANGULAR = 2, /* a = low, b = mode, c = high */
    TCO_DIST_NORMAL = 3,     /* a = mean, b = standard deviation */
    TCO_DIST_LOGNORMAL = 4   /* a = median, b = sigma of the log */
} tco_distribution;

/* An uncertain input: a parameter and its distribution, cut to [lo, hi]
 * (both 0: the parameter's bounds; else lo < hi within them). Nothing is
 * drawn again: u is mapped into [F(lo), F(hi)] of the distribution's CDF
 * F before its inverse, so every draw lies in the cut (doc/model.md,
 * section 15). The cut must hold some of the distribution; c is read for
 * the triangular only. */
typedef struct tco_uncertain {
    size_t size;                 /* sizeof(tco_uncertain) */
    int32_t key;                 /* a REAL or INT tco_param (INT draws are rounded) */
    int32_t distribution;        /* a tco_distribution */
    double a, b, c;
    double lo, hi;
} tco_uncertain;

/* The inputs of Monte Carlo samples first .. first + count - 1 into
 * values[(i - first) * n_inputs + j]. Sample i of input j is a pure
 * function of (seed, i, j) (a counter-based generator, doc/model.md
 * section 15): the same on every machine, in one call or in chunks, on any
 * number of threads. The values suit tco_estimate_sweep with the inputs'
 * keys. inputs[] is stepped by inputs[0].size; each input is checked (a
 * REAL or INT parameter, uncertain once at most; a known distribution
 * with possible parameters; a cut within the bounds), a failure naming
 * inputs[j] and its parameter. Allocates nothing. */
TCO_API int tco_monte_carlo_draw(double *values, const tco_uncertain *inputs, size_t n_inputs, uint64_t seed,
                                 uint64_t first, size_t count, tco_error *err);

/* The summary of n >= 1 values (values[i * stride], stride >= 1): the mean
 * (compensated sum), the sample standard deviation (n - 1; 0 for one
 * value), and percentiles by numpy's linear method, as
 * tco_demand_percentiles has them. A NaN or infinite value is an error
 * naming its index. Allocates a copy of the n values. */
typedef struct tco_summary {
    size_t size;                 /* sizeof(tco_summary) */
    double mean, sd, min, max;
    double p5, p10, p50, p90, p95;
} tco_summary;

TCO_API int tco_summarise(tco_summary *out, const double *values, size_t n, size_t stride, tco_error *err);

/* Spearman's rank correlation of x and y (n >= 1 pairs of finite values,
 * strided): Pearson's correlation of their ranks, tied values sharing the
 * mean of the ranks they span; 0 when every x or every y is tied, where
 * it is undefined. Allocates about 48 bytes a pair. */
TCO_API int tco_rank_correlation(double *out, const double *x, size_t x_stride, const double *y,
                                 size_t y_stride, size_t n, tco_error *err);

/* A whole Monte Carlo run: samples 0 .. samples - 1 of the inputs (as
 * tco_monte_carlo_draw draws them), each priced, on `threads` threads (0:
 * one per online core; at most 256 and at most samples), and for every
 * scalar field of tco_estimate (tco_estimate_field_at's DOUBLE fields, and
 * cost and waste by slot: "cost.compute", "waste.idle") its summary, and
 * the rank correlation of every input with the total. summaries:
 * tco_monte_carlo_series() entries of summary_size bytes, in the order of
 * tco_monte_carlo_series_name (static names; NULL past the end);
 * correlation: n_inputs entries (may be NULL when there are none). The
 * result is the same, bit for bit, for any thread count. A sample the
 * estimate refuses fails the call with that sample's code and parameter:
 * the lowest such sample, its index and the inputs' values in the message.
 * Allocates samples x (series + n_inputs + 1) doubles, and about 40 bytes
 * a sample for each thread that ranks (at most n_inputs), freed before it
 * returns; on failure (TCO_E_NOMEM too) nothing is written. */
TCO_API size_t tco_monte_carlo_series(void);
TCO_API const char *tco_monte_carlo_series_name(size_t i);
TCO_API int tco_monte_carlo(tco_summary *summaries, size_t summary_size, double *correlation,
                            const tco_uncertain *inputs, size_t n_inputs, uint64_t seed, size_t samples,
                            int32_t threads, const tco_topology *t, const tco_workload *w,
                            const tco_pricing *p, tco_error *err);

/* ------------------------------------------------------------------------
 * Value per cost: predicted loss, loss bought per unit of money, the
 * compute-optimal run under the full cost model (since 1.1; doc/model.md,
 * "Value per cost")
 * ------------------------------------------------------------------------ */

/* The published fits of the parametric loss L(N, D) = E + A / N^alpha +
 * B / D^beta. */
typedef enum tco_scaling_fit {
    TCO_FIT_CUSTOM = 0,         /* constants set by the caller */
    TCO_FIT_HOFFMANN_2022 = 1,  /* Hoffmann et al. 2022, approach 3: E 1.69, A 406.4, B 410.7,
                                   alpha 0.34, beta 0.28 */
    TCO_FIT_BESIROGLU_2024 = 2  /* Besiroglu et al. 2024, the same data refitted: E 1.8172,
                                   A 482.01, B 2085.43, alpha 0.3478, beta 0.3658 */
} tco_scaling_fit;

/* The constants of the law: N parameters, D training tokens, L in nats per
 * token. The library reads the constants; fit only records their origin.
 * Allowed: 0 <= e <= 100, 0 <= a, b <= 1e15, 0 < alpha, beta <= 2, all
 * finite (so the loss is never negative). */
typedef struct tco_scaling_law {
    size_t size;                 /* sizeof(tco_scaling_law) */
    int32_t fit;                 /* a tco_scaling_fit */
    double e;                    /* nats per token: the irreducible loss */
    double a, alpha;             /* the model-size term a / N^alpha */
    double b, beta;              /* the data term b / D^beta */
} tco_scaling_law;

/* Fills *law (size included) with the constants of a published fit
 * (TCO_FIT_HOFFMANN_2022 or TCO_FIT_BESIROGLU_2024); another value is
 * TCO_E_RANGE naming "fit", *law untouched. */
TCO_API int tco_scaling_law_init(tco_scaling_law *law, int32_t fit, tco_error *err);

/* A predicted loss and its three terms. */
typedef struct tco_loss {
    size_t size;                 /* sizeof(tco_loss) */
    double loss;                 /* nats per token: irreducible + params_term + data_term */
    double irreducible;          /* e */
    double params_term;          /* a / params^alpha */
    double data_term;            /* b / tokens^beta */
    double params;               /* N */
    double tokens;               /* D */
} tco_loss;

/* The loss of a model of `params` parameters trained on `tokens` tokens
 * (both finite, at least 1). law NULL: TCO_FIT_HOFFMANN_2022. A constant
 * out of range fails naming it ("law.alpha"). */
TCO_API int tco_loss_at(tco_loss *out, const tco_scaling_law *law, double params, double tokens,
                        tco_error *err);
/* The loss of a frozen workload's run: N = params_active (params_total
 * when 0), D = tokens x epochs (every token trained counts, repeated or
 * not). */
TCO_API int tco_loss_predict(tco_loss *out, const tco_scaling_law *law, const tco_workload *w,
                             tco_error *err);

/* Run b against run a: the loss bought per unit of money and of compute. */
typedef struct tco_loss_gain {
    size_t size;                 /* sizeof(tco_loss_gain) */
    double loss_a, loss_b;       /* nats per token */
    double total_a, total_b;     /* cur, all runs (tco_estimate.total) */
    double flops_a, flops_b;     /* FLOP, all runs (train_flops x runs) */
    double loss_reduction;       /* loss_a - loss_b, nats per token */
    double extra_cost;           /* total_b - total_a, cur */
    double loss_per_cost;        /* loss_reduction / extra_cost, nats per token per cur; 0 when the
                                    totals are equal. Negative: one run is both cheaper and better */
    double loss_per_exaflop;     /* loss_reduction / ((flops_b - flops_a) / 1e18), nats per token per
                                    EFLOP; 0 when the FLOPs are equal */
    int32_t cost_ratio_defined;  /* 1: the totals differ and loss_per_cost is the ratio */
    int32_t flops_ratio_defined; /* 1: the FLOPs differ and loss_per_exaflop is the ratio */
} tco_loss_gain;

/* Prices runs a and b as tco_estimate_compute does, predicts their losses,
 * and divides. Both pricing tables must share a currency (else
 * TCO_E_INCONSISTENT naming TCO_P_CURRENCY); a run that cannot be priced
 * fails with its estimate's error, "run a: " or "run b: " first. */
TCO_API int tco_loss_per_cost(tco_loss_gain *out, const tco_scaling_law *law, const tco_topology *ta,
                              const tco_workload *wa, const tco_pricing *pa, const tco_topology *tb,
                              const tco_workload *wb, const tco_pricing *pb, tco_error *err);

/* Where a compute-optimal run stopped against the limits of its search. */
typedef enum tco_optimum_limit {
    TCO_OPTIMUM_INTERIOR = 0,       /* inside the limits: a true optimum */
    TCO_OPTIMUM_PARAMS_MIN = 1,     /* at the smallest model the table allows */
    TCO_OPTIMUM_PARAMS_MAX = 2,     /* at the largest model the table allows */
    TCO_OPTIMUM_TOKENS_MAX = 3,     /* at the most tokens the table allows (1e17 x epochs) */
    TCO_OPTIMUM_LARGEST_MODEL = 4   /* at the largest model the budget runs at all, on next to no
                                       tokens: the law gives the data no weight (b = 0) */
} tco_optimum_limit;

/* The model size and token count that minimise the predicted loss within
 * a budget, and their run. */
typedef struct tco_optimum {
    size_t size;                 /* sizeof(tco_optimum) */
    int32_t evaluations;         /* estimates the search priced */
    int32_t limit;               /* a tco_optimum_limit */
    double params;               /* N: params_active (params_total for a dense model) */
    double params_total;         /* params_total of the run (N / the workload's active share) */
    double tokens;               /* D: tokens trained, tokens x epochs */
    double tokens_per_param;     /* D / N */
    double loss;                 /* nats per token, at (N, D) */
    double total;                /* cur, all runs: at most the budget */
    double train_flops;          /* FLOP per run */
} tco_optimum;

/* The compute-optimal run for a budget (cur, all runs: tco_estimate.total)
 * under the full cost model: the workload's run with its parameters
 * (params_total, and params_active in the same proportion) and its tokens
 * changed, everything else as given (cluster, job, layout, mfu, epochs,
 * prices). For each N the most tokens the budget buys are found by a
 * bracketed root search (the total rises with tokens); the loss is then
 * minimised over log N by Brent's method, N from params_total's bounds
 * down to the largest model that still runs within the budget. estimate
 * (may be NULL; its size set by the caller) receives the run's estimate,
 * the cost by category. A budget not finite or not positive is refused
 * naming "budget"; one below the smallest run's total is
 * TCO_E_INCONSISTENT with that total; a workload whose FLOPs or time do
 * not follow from N and D (total_flops or run_accelerator_hours set) is
 * TCO_E_INCONSISTENT naming it. Allocates nothing; about 30 KB of stack.
 * On failure nothing is written. */
TCO_API int tco_compute_optimal(tco_optimum *out, tco_estimate *estimate, const tco_scaling_law *law,
                                double budget, const tco_topology *t, const tco_workload *w,
                                const tco_pricing *p, tco_error *err);

/* ------------------------------------------------------------------------
 * Usage records: who used what, as a cluster operator has it (since 1.1;
 * doc/records.md)
 * ------------------------------------------------------------------------ */

/* Interned texts (tag keys and values): each text is stored once and named
 * by a dense id, 0, 1, 2... in the order first seen. XXH3-64 of the bytes
 * finds a text; equal hashes of different texts are told apart by their
 * bytes. Build with intern, then share read-only: find, count and text
 * change nothing and may run on any number of threads at once. */
typedef struct tco_tags tco_tags;

TCO_API int tco_tags_new(tco_tags **out, tco_error *err);
TCO_API void tco_tags_free(tco_tags *tags);
/* The id of text[0 .. len), added if it is new. Texts are UTF-8, up to
 * TCO_TAG_MAX bytes, without control characters (U+0000 to U+001F and
 * U+007F; else TCO_E_RANGE); "" is a text. A failed intern adds nothing. */
TCO_API int tco_tags_intern(tco_tags *tags, const char *text, size_t len, uint32_t *id, tco_error *err);
/* The id of a text already interned; TCO_E_INDEX when it is not. */
TCO_API int tco_tags_find(const tco_tags *tags, const char *text, size_t len, uint32_t *id, tco_error *err);
TCO_API size_t tco_tags_count(const tco_tags *tags);
/* The text of an id, or NULL past the count: NUL-terminated, and valid as
 * long as the table lives (texts never move, whatever is interned later). */
TCO_API const char *tco_tags_text(const tco_tags *tags, uint32_t id);

#define TCO_TAG_MAX 256

typedef enum tco_job_state {
    TCO_JOB_COMPLETED = 0,
    TCO_JOB_FAILED = 1,    /* ended before it finished: failed, timed out, out of memory,
                              node failure, preempted or requeued */
    TCO_JOB_CANCELLED = 2,
    TCO_JOB_RUNNING = 3    /* still running at the end of the records */
} tco_job_state;

/* "completed", "failed", "cancelled", "running"; NULL if unknown. */
TCO_API const char *tco_job_state_name(int32_t state);

/* One usage record: a window of time, the accelerators held in it and how
 * much of them was used, the price class, storage and traffic, and tags.
 * Tags are pairs (key id, value id) of a tco_tags table, kept in one array
 * beside the records: record r's are pairs first_tag .. first_tag +
 * tag_count - 1, i.e. tag_pairs[2 x k] (key) and [2 x k + 1] (value). */
typedef struct tco_record {
    size_t size;                  /* sizeof(tco_record) */
    double start, end;            /* UTC seconds since 1970-01-01 */
    double accelerators;          /* held over the window */
    double utilisation;           /* share of the held accelerator time used, 0 to 1; -1: unknown */
    int32_t price_class;          /* a tco_price_class */
    int32_t state;                /* a tco_job_state */
    double storage_gb_hours[3];   /* by tco_tier: hot, warm, cold */
    double traffic_gb[3];         /* within a region, across regions, to the internet */
    uint32_t first_tag;           /* index of its first tag pair */
    uint32_t tag_count;
} tco_record;

/* Records read from a file: the records, their tag pairs, the tags table
 * and the rows refused, owned together and freed together. Reading it
 * changes nothing: a set may be read by any number of threads at once. */
typedef struct tco_records tco_records;

/* Reading flags. */
#define TCO_READ_STRICT 1u /* a bad row fails the whole read (else it is reported and skipped):
                              TCO_E_TYPE (malformed) or TCO_E_RANGE (out of range), message
                              "line N: <reason>", param_name the field */

/* Slurm accounting, as `sacct --parsable2 --noheader --format=JobID,
 * JobName,Account,User,Partition,State,Start,End,ElapsedRaw,AllocTRES`
 * prints it (run with TZ=UTC: its times are read as UTC; job steps and
 * jobs that never started and hold no GPU are skipped), and the plain CSV
 * of doc/records.md (a header row naming the columns). doc/records.md
 * lists the fields and what each becomes. A row that cannot be a record
 * (end before start, a negative quantity, an unknown price class or state,
 * AllocTRES without a GPU count that parses) is reported with its line and
 * reason, never dropped silently; with TCO_READ_STRICT it fails the read,
 * naming them. A CSV header that is not the format's (an unknown column:
 * TCO_E_UNKNOWN_PARAM; a required one missing: TCO_E_TYPE) fails the read
 * whatever the flags. Unknown flag bits: TCO_E_RANGE. The text is len
 * bytes, need not end in a newline nor in a NUL, and is neither changed
 * nor kept. On failure *out is untouched. */
TCO_API int tco_records_read_sacct(tco_records **out, const char *text, size_t len, uint32_t flags,
                                   tco_error *err);
TCO_API int tco_records_read_csv(tco_records **out, const char *text, size_t len, uint32_t flags,
                                 tco_error *err);
TCO_API void tco_records_free(tco_records *records);
TCO_API size_t tco_records_count(const tco_records *records);
/* The records (count of them, in the order of their lines; NULL when
 * there are none), their tag pairs (*pairs of them, two ids each) and the
 * tags table (owned by the set: never free it): valid until free. The
 * records are this library's tco_record, data[0].size bytes each: a
 * program built against an older, shorter tco_record steps by that size,
 * not by its own sizeof. */
TCO_API const tco_record *tco_records_data(const tco_records *records);
TCO_API const uint32_t *tco_records_tag_pairs(const tco_records *records, size_t *pairs);
TCO_API const tco_tags *tco_records_tags(const tco_records *records);
/* Rows refused: how many, and row i's line (1-based, where the row starts)
 * and reason (printable ASCII, valid until free); TCO_E_INDEX past the
 * count. line and reason may be NULL. */
TCO_API size_t tco_records_bad_count(const tco_records *records);
TCO_API int tco_records_bad_at(const tco_records *records, size_t i, uint64_t *line, const char **reason,
                               tco_error *err);

/* ------------------------------------------------------------------------
 * Attribution: the bill of a period split among tags, to the cent (since
 * 1.1; doc/model.md, section 16)
 * ------------------------------------------------------------------------ */

/* How costs no record caused directly (idle capacity, shared services) are
 * spread over the groups. */
typedef enum tco_spread {
    TCO_SPREAD_USAGE = 1, /* in proportion to each group's direct accelerator cost */
    TCO_SPREAD_EVEN = 2,  /* evenly over the groups (every group has records in the period) */
    TCO_SPREAD_OWNER = 3  /* all to the group whose by_key[0] value is owner_value (with pairs:
                           * to its groups, by their accelerator cost) */
} tco_spread;

/* "usage", "even", "owner"; NULL if unknown. Since 1.1. */
TCO_API const char *tco_spread_name(int32_t spread);

/* Records without a tag of a grouping key fall in the group whose value
 * is TCO_TAG_NONE ("(none)" in reports). With several tags of one key, a
 * record's first counts. */
#define TCO_TAG_NONE UINT32_MAX

typedef struct tco_attribution_request {
    size_t size;             /* sizeof(tco_attribution_request) */
    double period_start;     /* UTC seconds: the billing period, start included (1970 to 9999) */
    double period_end;       /* end excluded; after period_start */
    uint32_t by_key[2];      /* tag key ids (texts of the tags table) to group by; by_key[1] read with pairs only */
    uint32_t by_count;       /* 1, or 2 to group by pairs */
    int32_t idle_rule;       /* a tco_spread for idle accelerator capacity */
    int32_t shared_rule;     /* a tco_spread for platform, staff, security, database, logging */
    uint32_t owner_value;    /* with TCO_SPREAD_OWNER: the by_key[0] value that takes it (a value id,
                              * or TCO_TAG_NONE: the records without that tag) */
    /* Appended in 1.1: called on the calling thread as the records are
     * priced, with how many are done of how many (every 65,536, and at the
     * end), for a progress bar; NULL: never. */
    void (*progress)(void *user, uint64_t done, uint64_t total);
    void *progress_user;     /* passed to progress as it is */
} tco_attribution_request;

/* The bill of the period, and how it splits; money in hundredths of the
 * pricing table's currency ("cents", whatever the currency's own minor
 * unit), integers that add up exactly. The bill's cents are the sums of
 * its groups' (category by category, direct, idle and shared). A period's
 * bill has no indirect costs (migration, learning, risk premium). */
typedef struct tco_bill {
    size_t size;                        /* sizeof(tco_bill) */
    int64_t total;                      /* cents: the whole bill of the period */
    int64_t category[TCO_CATEGORY_SLOTS]; /* cents by tco_category; sums to total */
    int64_t direct;                     /* cents the records caused */
    int64_t idle;                       /* cents of capacity held by nobody (none when held >= capacity) */
    int64_t shared;                     /* cents of shared services */
    double period_hours;
    double capacity_accelerator_hours;  /* the cluster's over the period */
    double held_accelerator_hours;      /* the records', within the period (may exceed capacity) */
    double used_accelerator_hours;      /* of those, used (utilisation known, else held) */
    double clipped_accelerator_hours;   /* the records' outside the period, not billed */
    uint64_t records;                   /* records read */
    uint64_t records_outside;           /* wholly outside the period */
    uint64_t overlapping;               /* records whose window in the period overlaps another with the
                                         * same job_id tag (each is billed) */
} tco_bill;

/* One group of records (one value of by_key[0], or one pair). */
typedef struct tco_group {
    size_t size;                        /* sizeof(tco_group) */
    uint32_t value[2];                  /* tag value ids; TCO_TAG_NONE: no such tag (value[1] by one key) */
    int64_t total;                      /* cents: direct + idle + shared */
    int64_t category[TCO_CATEGORY_SLOTS]; /* cents by tco_category; sums to total */
    int64_t direct, idle, shared;       /* cents */
    double share;                       /* total / the bill's total (0 for a bill of 0) */
    double held_accelerator_hours, used_accelerator_hours;
    uint64_t records;
} tco_group;

/* The result of an attribution: the bill and its groups. */
typedef struct tco_attribution tco_attribution;

/* Splits the bill of the period among the records' groups (doc/model.md,
 * section 16): each record's direct cost by category (its accelerator
 * time in the period at its price class's rate, its storage, its traffic,
 * clipped to the period), idle capacity and shared services spread by the
 * rules, and the bill's total rounded to cents and split by the
 * largest-remainder rule so that the groups add up to the bill, and each
 * group's categories (and its direct, idle and shared) to its total,
 * exactly. records[] (fewer than UINT32_MAX) is stepped by records[0].size;
 * tag pairs are (key id, value id) of tags. Errors name what is wrong: a
 * record by index ("records[7].end": end before start, a value not
 * finite, negative or out of range, an unknown class or state, tags past
 * n_pairs or the table), the request's field (a key or owner the table
 * does not hold; a rule that cannot spread: usage with no priced
 * accelerator time in the period, no record in the period, an owner
 * without records), a bill past 2^53 cents. A failed call leaves *out
 * alone. Allocates the result (its groups and a part per record). */
TCO_API int tco_attribute(tco_attribution **out, const tco_record *records, size_t n, const uint32_t *tag_pairs,
                          size_t n_pairs, const tco_tags *tags, const tco_attribution_request *request,
                          const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err);
TCO_API void tco_attribution_free(tco_attribution *a);
TCO_API int tco_attribution_bill(tco_bill *out, const tco_attribution *a, tco_error *err);
/* The groups, largest total first (ties by the order of their values'
 * texts, bytewise, the records without the tag first: the bill never
 * depends on the order the records come in). */
TCO_API size_t tco_attribution_group_count(const tco_attribution *a);
TCO_API int tco_attribution_group_at(tco_group *out, const tco_attribution *a, size_t i, tco_error *err);

/* Attribution in parts (since 1.1; doc/spark.md): records too many for
 * one call, or spread over machines, attributed share by share and
 * merged into exactly the bill tco_attribute gives for all of them at
 * once. A part holds each group's sums by the texts of its values, not
 * its records; every amount is added up exactly (doc/model.md, section
 * 16), so parts merge in any order and any grouping to the same bill, to
 * the cent. The records of one job_id must be in one part (their
 * overlaps are found within a part). */
typedef struct tco_attribution_part tco_attribution_part;

/* A part: the pass tco_attribute makes over records (same arguments, same
 * errors), without the spread. */
TCO_API int tco_attribute_part(tco_attribution_part **out, const tco_record *records, size_t n,
                               const uint32_t *tag_pairs, size_t n_pairs, const tco_tags *tags,
                               const tco_attribution_request *request, const tco_topology *t,
                               const tco_workload *w, const tco_pricing *p, tco_error *err);
TCO_API void tco_attribution_part_free(tco_attribution_part *part);
/* Adds from into into. Both must come from the same inputs (scenario
 * fingerprint), period, keys (by text), rules and owner (by text), else
 * TCO_E_INCONSISTENT naming what differs; a sum past 2^64 of the largest
 * amounts: TCO_E_RANGE. On failure into is unchanged. */
TCO_API int tco_attribution_part_merge(tco_attribution_part *into, const tco_attribution_part *from,
                                       tco_error *err);
/* The texts a part's groups, keys and owner name: valid while it lives. */
TCO_API const tco_tags *tco_attribution_part_tags(const tco_attribution_part *part);
/* The text of the part's grouping key k (0; 1 with pairs), or NULL past
 * them: valid while the part lives. */
TCO_API const char *tco_attribution_part_key(const tco_attribution_part *part, size_t k);
/* A part as bytes to ship between processes, and back (save writes as the
 * scenario savers do: buf NULL sets *len only; cap too small writes
 * nothing and returns TCO_E_SIZE). load checks every byte: a truncated,
 * altered or inconsistent part is TCO_E_TYPE, naming what is wrong. The
 * bytes are this version's, little-endian; nothing is allocated on
 * failure. */
TCO_API int tco_attribution_part_save(uint8_t *buf, size_t cap, size_t *len, const tco_attribution_part *part,
                                      tco_error *err);
TCO_API int tco_attribution_part_load(tco_attribution_part **out, const uint8_t *buf, size_t len, tco_error *err);
/* Settles the merged parts: the attribution tco_attribute gives for all
 * their records, to the cent, without a part per record. t, w and p must
 * be the inputs the parts were priced with (TCO_E_INCONSISTENT). Its
 * group values and request name the texts of tco_attribution_tags. */
TCO_API int tco_attribute_parts(tco_attribution **out, const tco_attribution_part *part, const tco_topology *t,
                                const tco_workload *w, const tco_pricing *p, tco_error *err);
/* The texts of an attribution settled from parts (its own, valid while
 * it lives); NULL for one of tco_attribute (its values are the caller's
 * tags). */
TCO_API const tco_tags *tco_attribution_tags(const tco_attribution *a);

/* ------------------------------------------------------------------------
 * A cluster over its life: years of capacity, owned, reserved or rented
 * (since 1.1; doc/model.md, section 18)
 * ------------------------------------------------------------------------ */

/* The life to price; tco_lifetime_request_init sets the defaults. */
typedef struct tco_lifetime_request {
    size_t size;                       /* sizeof(tco_lifetime_request) */
    int32_t years;                     /* 1 to 50 (default 5) */
    int32_t refresh_year;              /* 0: none (default); 1 to years - 1: the owned IT (accelerators,
                                        * servers, fabric) is bought again after that many years */
    double utilisation;                /* 0 to 1: share of the cluster's accelerator-hours used, every
                                        * year (default 0.7) */
    double discount_rate;              /* per year, above -1 (default: the cost_of_capital default, 0.08) */
    const double *utilisation_by_year; /* NULL, or years shares 0 to 1 instead of utilisation */
} tco_lifetime_request;

TCO_API void tco_lifetime_request_init(tco_lifetime_request *request);

/* One year. Money in the currency; cost[] is the year's cost with owned
 * hardware and the facility as annuities (doc/model.md, section 18), fixed[]
 * the part of it paid whether the cluster works or not (the rest follows
 * use); capex, running and salvage are the year's cash. */
typedef struct tco_lifetime_year {
    size_t size;                          /* sizeof(tco_lifetime_year) */
    int32_t year;                         /* 1 to years */
    int32_t refreshed;                    /* 1: the owned IT was bought again at its start */
    double utilisation;
    double capacity_accelerator_hours, used_accelerator_hours, effective_accelerator_hours;
    double cost[TCO_CATEGORY_SLOTS];      /* by tco_category */
    double fixed[TCO_CATEGORY_SLOTS];     /* of cost[]: paid whatever the use */
    double total, fixed_total;            /* variable = total - fixed_total */
    double unused_owned;                  /* of the owned capacity's fixed cost, the hours nobody used */
    double unused_commitment;             /* reserved hours paid, not used, at the reserved rate */
    double unused_commitment_hours;
    double capex;                         /* bought at the year's start (less the old IT's worth when refreshed) */
    double running;                       /* paid over the year: everything but purchases */
    double salvage;                       /* what the hardware in service is worth at the end (last year only) */
    double present_value;                 /* of capex at its start, running less salvage at its end */
} tco_lifetime_year;

/* The whole life: the years added up, and what they come to. */
typedef struct tco_lifetime {
    size_t size;                          /* sizeof(tco_lifetime) */
    int32_t years;
    double cost[TCO_CATEGORY_SLOTS], fixed[TCO_CATEGORY_SLOTS];
    double total, fixed_total;
    double capacity_accelerator_hours, used_accelerator_hours, effective_accelerator_hours;
    double unused_owned, unused_commitment, unused_commitment_hours;
    double capex, running, salvage;
    double npv;                           /* net present value of the cash: capex + running - salvage */
    double cost_per_effective_accelerator_hour;           /* total / effective hours */
    double levelised_cost_per_effective_accelerator_hour; /* npv / present value of the effective hours */
} tco_lifetime;

/* Prices the cluster of the three frozen handles over request->years
 * (doc/model.md, section 18): each year's cost by category, fixed and
 * variable, the owned capacity's unused hours and the reserved term's
 * unused commitment, the cash, and the whole life with its net present
 * value and cost per effective accelerator-hour (the workload's goodput
 * makes used hours effective). years may be NULL with n_years 0;
 * otherwise it holds n_years >= request->years structs of year_size bytes
 * (sizeof(tco_lifetime_year) as the caller knows it, at most 65,536, a
 * multiple of 8), of which the first request->years are written. Errors
 * name the request's field ("request.refresh_year"); on failure nothing
 * is written. Allocates nothing. */
TCO_API int tco_lifetime_compute(tco_lifetime *out, tco_lifetime_year *years, size_t year_size, size_t n_years,
                                 const tco_lifetime_request *request, const tco_topology *topology,
                                 const tco_workload *workload, const tco_pricing *pricing, tco_error *err);

/* ------------------------------------------------------------------------
 * A programme of stages: pretraining to evaluation on one cluster, one
 * pricing table and one store (since 1.1; doc/model.md, section 21)
 * ------------------------------------------------------------------------ */

/* What a stage of the programme is (append-only). */
typedef enum tco_stage_kind {
    TCO_STAGE_PRETRAINING = 1,
    TCO_STAGE_CONTEXT_EXTENSION = 2,
    TCO_STAGE_SUPERVISED_FINE_TUNING = 3,
    TCO_STAGE_PREFERENCE_TUNING = 4,
    TCO_STAGE_EVALUATION = 5,
    TCO_STAGE_SWEEP = 6,    /* the workload's runs run side by side, in waves */
    TCO_STAGE_ABLATION = 7, /* likewise */
    TCO_STAGE_DATA_PIPELINE = 8, /* the raw data pulled and prepared on CPU nodes (tco_stage.pipeline) */
    TCO_STAGE_SERVING = 9        /* the model served by a fleet of its own (tco_stage.serving) */
} tco_stage_kind;

/* "pretraining", "context_extension", ...; NULL for a value that is no kind. */
TCO_API const char *tco_stage_kind_name(int32_t kind);

#define TCO_STAGE_START (-1) /* tco_stage.after: the stage starts at the programme's start */
#define TCO_STAGES_MAX 256   /* stages in one programme */

/* One stage: an input struct (the library reads what it knows and refuses
 * a non-zero tail it does not). Every element of the array has the size of
 * stages[0]. */
typedef struct tco_stage {
    size_t size;                   /* sizeof(tco_stage) */
    int32_t kind;                  /* a tco_stage_kind */
    int32_t after;                 /* index of an earlier stage it starts after, or TCO_STAGE_START */
    const char *name;              /* for messages; may be NULL; not kept */
    const tco_workload *workload;  /* frozen; its runs parameter is the stage's runs */
    int32_t versions_kept;         /* 0 to 1e6: checkpoints of the stage kept to the programme's end
                                    * (0 for a data pipeline or a serving stage) */
    /* Appended in the second version (the first ends at versions_kept). */
    const struct tco_pipeline_request *pipeline; /* a data pipeline stage's request, else NULL; not kept */
    double cpu_nodes;              /* a data pipeline stage's CPU nodes, whole, 1 to 1e6; else 0 */
    const struct tco_serve_request *serving;     /* a serving stage's request, else NULL; not kept */
    const int32_t *also_after;     /* NULL, or n_also_after indices of further earlier stages: the stage
                                    * starts when the last of these and of `after` ends; not kept */
    size_t n_also_after;           /* 0 to TCO_STAGES_MAX */
    double warm_after_days;        /* what the stage leaves in the store (its versions kept, a pipeline's
                                    * data) moves to the warm tier this many days after the stage's end;
                                    * 0: never (default); else above 0 to 36500 */
    double cold_after_days;        /* likewise to the cold tier; 0: never; else above warm_after_days */
} tco_stage;

/* A stage priced in its programme. Money in the currency, times in hours
 * from the programme's start. */
typedef struct tco_stage_result {
    size_t size;                          /* sizeof(tco_stage_result) */
    int32_t kind;
    int32_t after;
    double estimate_total;                /* tco_estimate_compute's total for the stage */
    double cluster_share;                 /* cost share of the estimate charged: see section 21 */
    double total;                         /* estimate_total x cluster_share: the sum of cost[] */
    double cost[TCO_CATEGORY_SLOTS];      /* the estimate's cost[] x cluster_share */
    double share;                         /* total / the programme's total */
    double start_hours, end_hours;
    double accelerators;                  /* held while it runs: job accelerators x concurrent runs */
    double runs;                          /* the workload's runs */
    double concurrent_runs;               /* runs side by side (1 unless a sweep or an ablation) */
    double waves;                         /* runs / concurrent_runs, rounded up */
    double cost_per_run;                  /* total / runs */
    double effective_accelerator_hours;   /* the estimate's */
    double cost_per_effective_accelerator_hour;
    double cost_per_million_tokens;       /* total per million tokens trained (all runs) */
    double store_gb;                      /* versions_kept x the checkpoint: what it adds to the store
                                           * (a data pipeline: its prepared data) */
    /* Appended in the second version (the first ends at store_gb). */
    double tokens;                        /* trained (all runs), or served (prompt and output) */
    double cpu_node_hours;                /* a data pipeline's preprocessing */
    double fleet_peak_accelerators;       /* a serving stage's fleet at its peak, apart from the cluster */
    double fleet_accelerator_hours;       /* that fleet's, over the serving period */
} tco_stage_result;

typedef struct tco_programme {
    size_t size;                          /* sizeof(tco_programme) */
    int32_t stages;                       /* n */
    double total;                         /* stages_total + storage_lifecycle, in that order */
    double cost[TCO_CATEGORY_SLOTS];      /* the stages' cost[] added, storage_lifecycle in storage */
    double share[TCO_CATEGORY_SLOTS];     /* cost[] / total */
    double stages_total;                  /* the stages' totals added in their order */
    double storage_lifecycle;             /* the versions kept, hot from their stage's end to the end */
    double makespan_hours, makespan_months;
    double cluster_accelerators;          /* the topology's */
    double peak_accelerators;             /* the most held at once */
    double accelerator_hours;             /* held by the stages */
    double utilisation;                   /* accelerator_hours / (cluster x cluster_hours) */
    double runs;                          /* all stages' */
    double cost_per_experiment;           /* (total - serving_total) / runs */
    double store_gb;                      /* the versions kept, at the programme's end */
    double store_growth_gb_per_month;     /* store_gb / makespan_months */
    /* Appended in the second version (the first ends at store_growth_gb_per_month). */
    double cluster_hours;                 /* of the makespan, the hours stages hold the cluster's accelerators */
    double pipeline_total;                /* the data pipeline stages' totals */
    double serving_total;                 /* the serving stages' totals */
    double served_tokens;                 /* prompt and output tokens the serving stages serve */
    double cost_per_million_tokens_served;/* serving_total / served_tokens x 1e6; 0 with none */
} tco_programme;

/* Prices a programme of n stages (1 to TCO_STAGES_MAX) on one frozen
 * topology and pricing table (doc/model.md, section 21): each stage's
 * estimate as tco_estimate_compute gives it, its place on the time line
 * (it starts when stages[after] ends, or the last of it and
 * stages[also_after[k]]; a sweep's or ablation's runs run in
 * waves of as many as the accelerators earlier stages leave free at its
 * start allow), its share of the cluster's hours while stages overlap, and
 * the store of the versions kept. results holds n structs of result_size
 * bytes (sizeof(tco_stage_result) as the caller knows it, a multiple of
 * 8, at most 65,536), or is NULL with result_size 0. Errors name the
 * stage ("stages[2].after", "stages[1] (sft): ..."); a stage whose job is
 * larger than the cluster, or stages holding more accelerators at once
 * than it has, fail with TCO_E_INCONSISTENT naming both stages and the
 * hour. A data pipeline stage is priced by tco_data_pipeline_compute on
 * its workload and request, and lasts its preprocessing node-hours over
 * cpu_nodes; its prepared data joins the store. A serving stage is priced
 * by tco_serving_compute on its workload and request, and lasts its
 * series; its fleet is rented apart from the cluster (its fixed/elastic
 * split), so neither holds the cluster's accelerators. A kind without its
 * request, or a request on another kind, is refused naming the stage; a
 * request's bad field is named within it ("stages[0].pipeline.dedup_kept_share").
 * On failure nothing is written. Allocates nothing but what a serving
 * stage's split does (the selection of its baseline). */
TCO_API int tco_programme_compute(tco_programme *out, tco_stage_result *results, size_t result_size,
                                  const tco_stage *stages, size_t n, const tco_topology *topology,
                                  const tco_pricing *pricing, tco_error *err);

/* ------------------------------------------------------------------------
 * Serving: the fleet a request or token rate series needs at a latency
 * target, split fixed vs elastic, and its cost per million tokens
 * (since 1.1; doc/model.md, "Serving")
 * ------------------------------------------------------------------------ */

/* The unit of a serving rate series. */
typedef enum tco_serve_rate {
    TCO_SERVE_REQUESTS_PER_SECOND = 0,      /* requests arriving per second */
    TCO_SERVE_OUTPUT_TOKENS_PER_SECOND = 1  /* output tokens generated per second */
} tco_serve_rate;

/* What bounds the batch a replica decodes. */
typedef enum tco_serve_limit {
    TCO_SERVE_LIMIT_LATENCY = 0,   /* time_per_output_token */
    TCO_SERVE_LIMIT_MEMORY = 1,    /* the KV cache the replica's memory holds */
    TCO_SERVE_LIMIT_MAX_BATCH = 2  /* request.max_batch */
} tco_serve_limit;

/* "latency", "memory", "max_batch"; NULL past the last. */
TCO_API const char *tco_serve_limit_name(int32_t limit);

/* The traffic and the targets; tco_serve_request_init sets the defaults.
 * The model is the workload's (params_total, params_active, layers,
 * hidden_size, heads, kv_heads, attention_width, precision), the
 * accelerator the topology's. */
typedef struct tco_serve_request {
    size_t size;                   /* sizeof(tco_serve_request) */
    const double *rate;            /* n values of 0 or more, one per interval, in rate_unit */
    size_t n;
    double interval_seconds;       /* length of one point, 0.0036 to 3.6e9 s (default 60) */
    int32_t rate_unit;             /* a tco_serve_rate (default requests per second) */
    int32_t tensor_parallel;       /* accelerators per replica, 1 to 4096; 0 (default): the least
                                    * power of two up to accelerators_per_node whose memory holds
                                    * the weights and one request */
    double prompt_tokens;          /* per request, mean, 0 to 1e7 (default 1024) */
    double output_tokens;          /* per request, mean, 1 to 1e7 (default 256) */
    double time_per_output_token;  /* s, the target: above 0, at most 3600 (default 0.1) */
    double time_to_first_token;    /* s, the target: 0 none (default), else at most 86400 */
    double flops_share;            /* achieved share of peak FLOP/s, above 0 to 1 (default 0.5) */
    double bandwidth_share;        /* achieved share of peak memory bandwidth, above 0 to 1 (default 0.7) */
    double memory_share;           /* of memory, the share weights and KV cache may use, above 0 to 1
                                    * (default 0.9) */
    double max_batch;              /* most sequences a replica decodes at once: 0 none, else a whole
                                    * number 1 to 1e7 (default 256) */
    double memory_bandwidth_bytes_per_s; /* per accelerator, B/s: 0 (default) the catalogue's; the
                                          * custom accelerator needs it; else 1e6 to 1e15 */
    /* Opt-in refinements (doc/model.md, section 20); each 0 by default, which serves as before. */
    double queue_percentile;       /* 0: replicas run at full load; else above 0, below 1: the share of
                                    * requests whose wait for a batch slot (M/M/c) plus prefill meets
                                    * time_to_first_token, which must then be set */
    int32_t tensor_parallel_allreduce; /* 1: each layer's two ring all-reduces over the topology's
                                        * intra_node_gbps add to prefill and decode (tensor_parallel
                                        * within a node); 0: none */
    double experts;                /* routed experts per MoE layer: 0, every weight read each step;
                                    * else a whole number 2 to 1e6 (uniform routing) */
    double experts_per_token;      /* routed experts a token goes to: 0 without experts, else a
                                    * whole number 1 to experts - 1 */
} tco_serve_request;

TCO_API void tco_serve_request_init(tco_serve_request *request);

/* One replica at the batch the targets allow, and the fleet over the
 * series. Money in the pricing table's currency. */
typedef struct tco_serving {
    size_t size;                            /* sizeof(tco_serving) */
    int32_t tensor_parallel;                /* accelerators per replica */
    int32_t batch_limit;                    /* a tco_serve_limit */
    double batch;                           /* sequences decoded together per replica */
    double max_batch_memory;                /* the most the replica's memory holds */
    double memory_bandwidth_bytes_per_s;    /* per accelerator, the peak used */
    double peak_flops;                      /* per accelerator, FLOP/s, at the precision */
    double weight_bytes;                    /* of the model: params_total x bytes at the precision */
    double kv_bytes_per_token;              /* K and V of one token over all layers */
    double prefill_seconds;                 /* one prompt: the least time to first token */
    double step_seconds;                    /* one decode step of the batch */
    double time_per_output_token;           /* s, at the batch, prefills' stalls included */
    double min_time_per_output_token;       /* s, at batch 1: the least the replica reaches */
    double replica_output_tokens_per_second;
    double replica_requests_per_second;
    double output_tokens_per_accelerator_second;
    double hours;                           /* n x interval */
    double requests, prompt_tokens, output_tokens; /* served over the series */
    double peak_accelerators, mean_accelerators, accelerator_hours;
    double fixed_accelerators;              /* the split's baseline (reserved) */
    double fixed_cost, elastic_cost, total_cost; /* the split's */
    double reserved_utilisation;
    double cost_per_million_output_tokens;  /* total_cost / output_tokens x 1e6; 0 with no tokens */
    double cost_per_million_tokens;         /* the same over prompt and output tokens */
    double utilisation;                     /* load of a replica, a share of its throughput: 1 without
                                             * queue_percentile */
    double queue_wait_seconds;              /* the wait for a slot at queue_percentile, at that load */
    double allreduce_seconds;               /* of one decode step of the batch (0 without) */
    double experts_read;                    /* distinct experts a decode step reads per MoE layer,
                                             * expected (0 without experts) */
    double weight_bytes_read;               /* by one decode step of the batch */
} tco_serving;

/* The accelerators request->rate needs at each point, and what the fleet
 * costs (doc/model.md, "Serving"): a replica of tensor_parallel
 * accelerators decodes the largest batch whose time per output token
 * (memory-bound roofline, prefills stalling the decodes) meets the target
 * and whose KV cache fits; each point needs tensor_parallel x ceil(rate /
 * the replica's throughput) accelerators (its utilisation x throughput
 * with queue_percentile); that series is split fixed vs
 * elastic as tco_capacity_split splits it (the workload's
 * interruptible_share, the pricing table's rates), priced per million
 * tokens served. split may be NULL, or a tco_split (its size set) that
 * gets the whole split. needed may be NULL with n_needed 0, or hold
 * n_needed >= request->n values: the accelerators of each point. Errors
 * name the request's field ("request.time_per_output_token"); a target
 * below what one replica reaches at batch 1 is TCO_E_INCONSISTENT and
 * says the least reachable. On failure nothing is written. Allocates what
 * tco_capacity_split does (the selection of the baseline), nothing else. */
TCO_API int tco_serving_compute(tco_serving *out, tco_split *split, double *needed, size_t n_needed,
                                const tco_serve_request *request, const tco_topology *topology,
                                const tco_workload *workload, const tco_pricing *pricing, tco_error *err);

/* ------------------------------------------------------------------------
 * FOCUS export: an attribution as FinOps FOCUS 1.2 cost and usage rows
 * (since 1.1; doc/focus.md)
 * ------------------------------------------------------------------------ */

/* Who the rows say bills whom. Every text is optional (NULL: the default),
 * at most TCO_TAG_MAX bytes of UTF-8 without control characters. */
typedef struct tco_focus_request {
    size_t size;                      /* sizeof(tco_focus_request) */
    const char *billing_account_id;   /* BillingAccountId (default "libtco") */
    const char *billing_account_name; /* BillingAccountName (default: the id) */
    const char *provider_name;        /* ProviderName, PublisherName, InvoiceIssuerName (default: the
                                       * account's name) */
    const char *invoice_id;           /* InvoiceId (default: the account id, "-" and the period's
                                       * YYYY-MM) */
    const char *region_id;            /* RegionId (default: none, null) */
    const char *region_name;          /* RegionName (default: the region id) */
} tco_focus_request;

/* The attribution as FOCUS 1.2 CSV (doc/focus.md lists every column and
 * what fills it): a header, then a row per group, category and kind of
 * charge (direct by price class, storage, traffic, idle capacity by the
 * class it is held under, shared services) whose BilledCost is not zero;
 * the rows' cents add up to each group's category cents, so to the bill,
 * exactly. tags is the table tco_attribute was given; request may be
 * NULL. The text (*len bytes, then a NUL) goes to buf when cap > *len;
 * with buf NULL and cap 0 only *len is set (TCO_OK); a cap too small is
 * TCO_E_SIZE with *len set and buf untouched. */
TCO_API int tco_attribution_focus_csv(const tco_attribution *a, const tco_tags *tags,
                                      const tco_focus_request *request, char *buf, size_t cap, size_t *len,
                                      tco_error *err);

/* ------------------------------------------------------------------------
 * Waste: the money in the records spent on nothing, found and priced
 * (since 1.1; doc/model.md, section 17)
 * ------------------------------------------------------------------------ */

/* What a finding is. Each names the action the seeds recommend
 * (tco_finding_action). */
typedef enum tco_finding_kind {
    TCO_FINDING_IDLE_CAPACITY = 1, /* the cluster's capacity no record held in the period */
    TCO_FINDING_IDLE_HELD = 2,     /* accelerators held, used below idle_utilisation, for idle_hours or more */
    TCO_FINDING_OVERSIZED = 3,     /* used below oversized_utilisation: more accelerators asked than used */
    TCO_FINDING_OVERRUN = 4,       /* ran past max_runtime_hours, or past its deadline tag */
    TCO_FINDING_RERUN = 5,         /* failed, then run again (same job_name and user) within rerun_hours */
    TCO_FINDING_RETAINED = 6,      /* a checkpoint or dataset kept past retention_days */
    TCO_FINDING_DUPLICATE = 7,     /* a second copy: the same fingerprint, or the same name and size */
    TCO_FINDING_ORPHANED = 8       /* storage of a project whose jobs ended orphan_days or more before */
} tco_finding_kind;

/* "idle_capacity", "idle_held", "oversized", "overrun", "rerun",
 * "retained", "duplicate", "orphaned"; NULL if unknown. */
TCO_API const char *tco_finding_kind_name(int32_t kind);
/* What to do about it, one sentence (the seeds' recommendation); NULL if
 * unknown. */
TCO_API const char *tco_finding_action(int32_t kind);

/* The thresholds; tco_waste_request_init sets the defaults of
 * doc/model.md, section 17. A threshold of 0 turns its finding off
 * (max_runtime_hours, rerun_hours, retention_days, orphan_days). */
typedef struct tco_waste_request {
    size_t size;                  /* sizeof(tco_waste_request) */
    double idle_utilisation;      /* 0 to 1: below it a record's accelerators are idle (default 0.05) */
    double idle_hours;            /* 0 to 10^6: for this long or longer (default 1) */
    double oversized_utilisation; /* idle_utilisation to 1: below it, over-sized (default 0.5) */
    double max_runtime_hours;     /* 0 to 10^6: longer runs overrun (default 0: none) */
    double rerun_hours;           /* 0 to 10^6: a failure run again within it was wasted (default 24) */
    double retention_days;        /* 0 to 10^5: checkpoints and datasets kept longer (default 30) */
    double orphan_days;           /* 0 to 10^5: storage of a project idle this long (default 14) */
} tco_waste_request;

TCO_API void tco_waste_request_init(tco_waste_request *request);

/* One finding. Money in the pricing table's currency (not rounded: a
 * finding is what could be saved, not a part of the bill), within the
 * attribution's period. */
typedef struct tco_finding {
    size_t size;              /* sizeof(tco_finding) */
    int32_t kind;             /* a tco_finding_kind */
    uint32_t record;          /* the record it is about (its index); UINT32_MAX for idle capacity */
    uint32_t other;           /* the record it re-runs or copies (rerun, duplicate); else UINT32_MAX */
    uint32_t group;           /* the record's group: an index of tco_attribution_group_at; UINT32_MAX
                               * for idle capacity */
    double since, until;      /* UTC seconds: when the waste starts and ends, within the period */
    double cost;              /* cur: the waste within the period */
    double per_day;           /* cur per day while it lasts: cost / (until - since) in days */
    double accelerator_hours; /* wasted (0 for storage) */
    double gb;                /* stored (0 for accelerators) */
} tco_finding;

typedef struct tco_findings tco_findings;

/* Finds the waste in the records an attribution priced (the same records,
 * tag pairs and tags given to tco_attribute; n must be its count): each
 * record is the subject of one finding at most, the costliest that fits
 * it, so that findings add up without counting money twice; the
 * cluster's idle capacity is one finding of its own. Findings are sorted
 * by cost, largest first (ties by record). The tags it reads (job_name,
 * user, project, kind, name, fingerprint, deadline) are in doc/records.md.
 * request may be NULL for the defaults. Errors: a threshold out of range
 * (named "request.idle_hours"), n not the attribution's, a record as
 * tco_attribute would refuse it. On failure *out is untouched. */
TCO_API int tco_find_waste(tco_findings **out, const tco_attribution *a, const tco_record *records, size_t n,
                           const uint32_t *tag_pairs, size_t n_pairs, const tco_tags *tags,
                           const tco_waste_request *request, tco_error *err);
/* The waste in a share of the records of an attribution settled from
 * parts (tco_attribute_parts): the findings tco_find_waste gives for these
 * records, numbered within the share (record, other), their group the
 * index in whole, and without the idle-capacity finding (tco_find_waste
 * of whole with no records gives it). Findings that relate records
 * (reruns, copies, a project's storage left behind) are found within the
 * share: the records of one project, one job_name, one fingerprint or one
 * name must be in one share. t, w and p: whole's inputs
 * (TCO_E_INCONSISTENT); a record in no group of whole:
 * TCO_E_INCONSISTENT, naming it. Since 1.1. */
TCO_API int tco_find_waste_part(tco_findings **out, const tco_attribution *whole, const tco_record *records,
                                size_t n, const uint32_t *tag_pairs, size_t n_pairs, const tco_tags *tags,
                                const tco_waste_request *request, const tco_topology *t, const tco_workload *w,
                                const tco_pricing *p, tco_error *err);
TCO_API void tco_findings_free(tco_findings *w);
TCO_API size_t tco_findings_count(const tco_findings *w);
/* Finding i; TCO_E_INDEX past the count. */
TCO_API int tco_findings_at(tco_finding *out, const tco_findings *w, size_t i, tco_error *err);
/* The findings' cost added up (cur). */
TCO_API double tco_findings_total(const tco_findings *w);

/* ------------------------------------------------------------------------
 * What each saving costs in return (doc/model.md, section 22). Since 1.1.
 * ------------------------------------------------------------------------ */

/* An optimisation the library prices. Values are permanent. 1 to 6 cut a
 * parameter of the scenario; 7 reads a demand series and 8 an idle
 * timeout from the tco_saving, which the scenario does not hold. */
typedef enum tco_saving_kind {
    TCO_SAVING_METRICS_INTERVAL = 1,     /* coarser metric sampling: a longer metrics_interval_seconds (s) */
    TCO_SAVING_LOG_RETENTION = 2,        /* shorter log_retention_days (d) */
    TCO_SAVING_CHECKPOINT_RETENTION = 3, /* fewer checkpoint_retention checkpoints kept hot (a count) */
    TCO_SAVING_CHECKPOINT_INTERVAL = 4,  /* rarer checkpoints: a longer interval than the one used (h) */
    TCO_SAVING_FEWER_REPLICAS = 5,       /* fewer database_instances, the service's replicas (a count) */
    TCO_SAVING_MORE_SPOT = 6,            /* a larger spot_share of the rented accelerators */
    TCO_SAVING_SMALLER_BASELINE = 7,     /* fewer reserved accelerators under saving.demand (accelerators) */
    TCO_SAVING_IDLE_RECLAIM = 8          /* a shorter saving.idle_timeout_hours before idle capacity is released (h) */
} tco_saving_kind;

/* How a tradeoff comes out. */
typedef enum tco_verdict {
    TCO_VERDICT_WORTH_IT = 1,  /* it saves, and more than its side-effect costs */
    TCO_VERDICT_FLAGGED = 2,   /* it saves, but its side-effect costs more */
    TCO_VERDICT_NO_SAVING = 3  /* the estimate does not fall: no saving to weigh */
} tco_verdict;

/* One saving to weigh, and the side-effect model's inputs;
 * tco_saving_init sets kind and value to 0 and every input to its default. */
typedef struct tco_saving {
    size_t size;                          /* sizeof(tco_saving) */
    int32_t kind;                         /* a tco_saving_kind (0 for tco_tradeoffs) */
    double value;                         /* the new value, in the kind's unit, a cut from the current one
                                             (0 for tco_tradeoffs) */
    double staff_cost_per_hour;           /* cur/h of diagnosis; -1 (default): the pricing's staff_per_fte_year /
                                             staff_hours_per_fte_year; else 0 to 1e6 */
    double log_needed_share;              /* of failures, the share whose logs are looked up (default 0.5); 0 to 1 */
    double incident_age_days;             /* mean age of a failure's logs when looked up, exponential (default 7);
                                             above 0 to 36500 */
    double rediagnosis_hours;             /* staff hours added when the logs are gone (default 4); 0 to 1e4 */
    double checkpoint_corrupt_probability;/* that a kept checkpoint cannot be restored (default 0.01); 0 to 0.5 */
    double replica_availability;          /* of one replica, failing independently (default 0.99); above 0 to 1 */
    const double *demand;                 /* smaller_baseline: accelerators needed, n values of 0 or more, one
                                             per interval_hours (NULL with n 0: no series) */
    size_t n;
    double interval_hours;                /* of one demand point (default 1); 1e-6 to 1e6 */
    double baseline;                      /* smaller_baseline: the reserved accelerators now (default 0); 0 to 1e9 */
    double acquire_hours;                 /* the wait for capacity not held: an elastic accelerator above the
                                             baseline, an allocation released (default 0.25); 0 to 1e4 */
    double wait_cost_per_accelerator_hour;/* cur per accelerator-hour of work waiting; -1 (default): the
                                             estimate's waste price; else 0 to 1e6 */
    double idle_timeout_hours;            /* idle_reclaim: idle time before an allocation is released now
                                             (default 0: nothing to cut); 0 to 1e4 */
    double idle_gap_hours;                /* idle_reclaim: mean time until an idle allocation is used again,
                                             exponential (default 1); above 0 to 1e5 */
    double idle_periods;                  /* idle_reclaim: times the job's allocation falls idle over the runs;
                                             -1 (default): once a run; else 0 to 1e9 */
} tco_saving;

TCO_API void tco_saving_init(tco_saving *saving);

/* A saving and what it costs in return, in cur over the estimate's runs
 * (smaller_baseline: over the demand series, the totals the split's). */
typedef struct tco_tradeoff {
    size_t size;                          /* sizeof(tco_tradeoff) */
    int32_t kind;                         /* the tco_saving_kind */
    int32_t status;                       /* TCO_OK; in tco_tradeoffs, why the row could not be priced (then 0 below) */
    int32_t verdict;                      /* a tco_verdict */
    int32_t flagged;                      /* 1: verdict is TCO_VERDICT_FLAGGED */
    int32_t in_estimate;                  /* 1: the estimate itself prices the side-effect (failures waste);
                                             saving is then before it and net is the estimate's difference */
    double current_value, new_value;      /* in the kind's unit (the interval used, not 0 for Daly's) */
    double total_before, total_after;     /* the two estimates' totals, cur */
    double saving;                        /* cur: what the cut takes off the bill, side-effect aside */
    double side_effect;                   /* in tco_saving_side_effect_unit(kind) */
    double side_effect_accelerator_hours; /* accelerator-hours it holds idle or loses (0 for staff hours) */
    double side_effect_cost;              /* cur */
    double net;                           /* saving - side_effect_cost */
} tco_tradeoff;

/* "metrics_interval", ...; "longer failure detection: the job's accelerators
 * wait", ...; the side-effect's unit ("h", "accelerator-h", "1"). NULL for an
 * unknown kind. Static strings. */
TCO_API const char *tco_saving_name(int32_t kind);
TCO_API const char *tco_saving_side_effect(int32_t kind);
TCO_API const char *tco_saving_side_effect_unit(int32_t kind);

/* Weighs one saving (doc/model.md, section 22): the estimate of the
 * scenario as given and of a private variant with the kind's parameter at
 * saving->value give the saving; the side-effect is priced by the kind's
 * model, or read from the two estimates where they price it
 * (in_estimate). value must cut: larger than the current interval, share
 * or interval used; smaller than the current retention or count (1 at
 * least for counts, whole); for smaller_baseline 0 to below
 * saving->baseline, over saving->demand, and for idle_reclaim 0 to below
 * saving->idle_timeout_hours. Errors name the field ("saving.value",
 * "saving.log_needed_share") with its allowed range; a NULL, a size, a
 * handle not frozen or of the wrong kind, a scenario that does not price
 * as given or at the new value. On failure *out is untouched. Allocates
 * nothing; about 25 KB of stack. */
TCO_API int tco_tradeoff_compute(tco_tradeoff *out, const tco_saving *saving, const tco_topology *t,
                                 const tco_workload *w, const tco_pricing *p, tco_error *err);

/* Every kind that can cut this scenario, at suggested values: sampling
 * interval doubled, log retention halved, hot checkpoints halved (at least
 * 1), checkpoint interval doubled, spot share + 0.2 (at most what the
 * reserved share leaves), one database instance fewer; with side->demand
 * and a side->baseline above the split's optimum, that optimum; with a
 * side->idle_timeout_hours, half of it. A kind with nothing to cut
 * (retention 0, one checkpoint, one instance, no room for spot, no
 * checkpoints, no series or a baseline at its optimum, no timeout) is left
 * out. side: the side-effect inputs (NULL for the
 * defaults; kind and value 0). out has room for cap rows of out_size
 * bytes; the first min(cap, *n) are filled in kind order, *n receiving how
 * many apply. A row the estimate refuses gets its status and zeros; the
 * call still succeeds. Allocates nothing but, with a series, the
 * selection of its optimum (as tco_capacity_split). */
TCO_API int tco_tradeoffs(tco_tradeoff *out, size_t out_size, size_t cap, size_t *n, const tco_saving *side,
                          const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err);

/* ------------------------------------------------------------------------
 * The data pipeline (doc/model.md, section 23). Since 1.1.
 * ------------------------------------------------------------------------ */

/* What the pipeline that feeds a run does, and its prices; not parameters
 * of the scenario (the estimate does not read them). tco_pipeline_request_init
 * sets the defaults below; a price with no citable figure defaults to 0. */
typedef struct tco_pipeline_request {
    size_t size;                            /* sizeof(tco_pipeline_request) */
    double raw_bytes;                       /* B pulled from outside, before deduplication and compression;
                                               0 (default): the workload's dataset (dataset_bytes, or
                                               tokens x bytes_per_token) taken as raw; 0 to 1e19 */
    double preprocess_cpu_node_hours_per_tb;/* CPU node-hours per raw TB to clean, deduplicate and tokenise
                                               (default 0); 0 to 1e6 */
    double cpu_node_hour_price;             /* cur per CPU node-hour (default 0); 0 to 1e4 */
    double dedup_kept_share;                /* of the raw bytes, the share deduplication keeps (default 1);
                                               above 0 to 1 */
    double compression_ratio;               /* bytes stored per byte kept (default 1); above 0 to 1 */
    double cache_hit_rate;                  /* of the bytes read, the share the loaders' cache serves
                                               (default 0); 0 to 1 */
    double prefetch_depth;                  /* batches the loader fetches ahead, whole (default 2); 0 to 1e4 */
    double request_price_per_1000;          /* cur per 1,000 read requests to the storage tier (default 0);
                                               0 to 1e3 */
    double object_bytes;                    /* B read by one request (default 16 MiB); 1 to 1e12 */
    double internet_ingress_per_gb;         /* cur per GB pulled in from the internet (default 0); 0 to 1e3 */
    double nat_per_gb;                      /* cur per GB through a NAT gateway (default 0); 0 to 1e3 */
    double storage_months;                  /* months the prepared data is kept; 0 (default): the estimate's
                                               held months; 0 to 1200 */
} tco_pipeline_request;

TCO_API void tco_pipeline_request_init(tco_pipeline_request *request);

/* The pipeline's cost lines, each with its quantity, in cur; and the data
 * stall its cache and prefetch imply. Pulled and prepared once for all the
 * estimate's runs; read by every run. */
typedef struct tco_pipeline {
    size_t size;                      /* sizeof(tco_pipeline) */
    double raw_bytes;                 /* B pulled: the request's, or the workload's dataset */
    double prepared_bytes;            /* B stored: raw_bytes x dedup_kept_share x compression_ratio */
    double preprocess_node_hours;     /* raw_bytes / 1e12 x preprocess_cpu_node_hours_per_tb */
    double preprocess_cost;           /* preprocess_node_hours x cpu_node_hour_price */
    double storage_gb;                /* prepared_bytes / 1e9 */
    double storage_months;            /* the request's, or the estimate's held_hours / 730.5 */
    double storage_gb_months;         /* storage_gb x storage_months */
    double storage_cost;              /* storage_gb_months x storage_hot_per_gb_month */
    double read_bytes;                /* B the loaders read: prepared_bytes x epochs x runs */
    double storage_read_bytes;        /* B of them from the storage tier: read_bytes x (1 - cache_hit_rate) */
    double read_requests;             /* storage_read_bytes / object_bytes */
    double request_cost;              /* read_requests / 1000 x request_price_per_1000 */
    double ingress_gb;                /* raw_bytes / 1e9 */
    double ingress_cost;              /* ingress_gb x internet_ingress_per_gb */
    double nat_cost;                  /* ingress_gb x nat_per_gb */
    double total;                     /* preprocess + storage + request + ingress + nat costs */
    double steps;                     /* optimizer steps per run: the estimate's tokens / batch_tokens */
    double batch_bytes;               /* B one step reads: batch_tokens x bytes_per_token x compression_ratio */
    double fetch_seconds;             /* per step, from storage: batch_bytes x (1 - cache_hit_rate) /
                                         (storage_hot_gbps x 1e9) */
    double compute_seconds;           /* per step: the estimate's compute_hours x 3600 / steps */
    double stall_seconds;             /* per step: fetch_seconds with prefetch_depth 0, else
                                         max(0, fetch_seconds - compute_seconds) */
    double stall_share;               /* stall / (compute + stall): the share to feed back as data_stall_share */
    double data_stall_share_floor;    /* the workload's data_stall_share, which the estimate uses */
    double estimate_data_stall_share; /* the estimate's effective share (its floor or the bandwidth's) */
} tco_pipeline;

/* Prices the data pipeline of a scenario (doc/model.md, section 23): the
 * lines above from the request, the workload, the pricing table's
 * storage_hot_per_gb_month and the scenario's estimate (held hours,
 * tokens, compute hours). The estimate itself is not changed: it keeps its
 * own dataset and data_stall_share. Errors name the field
 * ("pipeline.dedup_kept_share") with its allowed range; a NULL, a size, a
 * handle not frozen or of the wrong kind, a scenario the estimate refuses.
 * On failure *out is untouched. Allocates nothing. */
TCO_API int tco_data_pipeline_compute(tco_pipeline *out, const tco_pipeline_request *request, const tco_topology *t,
                                      const tco_workload *w, const tco_pricing *p, tco_error *err);

#ifdef __cplusplus
}
#endif

#endif /* TCO_H */
