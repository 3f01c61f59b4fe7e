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
    TCO_P_PRICE_SOURCE = 3039
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
    double default_value;     /* for TEXT: 0 (see default_text) */
    double min_value;         /* inclusive bounds */
    double max_value;
    size_t choice_count;      /* CHOICE: how many named values */
    const char *default_text; /* TEXT and CHOICE: the default as text */
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
} tco_estimate;

/* Prices the scenario. All three handles must be frozen. On failure *out
 * is left untouched. Allocates nothing; safe from any number of threads. */
TCO_API int tco_estimate_compute(tco_estimate *out, const tco_topology *topology,
                                 const tco_workload *workload, const tco_pricing *pricing,
                                 tco_error *err);

#ifdef __cplusplus
}
#endif

#endif /* TCO_H */
