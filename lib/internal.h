/* Declarations shared by the library's own files; not installed. */
#ifndef TCO_INTERNAL_H
#define TCO_INTERNAL_H

#include <stddef.h>
#include <string.h>

#include "tco.h"

/* Compile-time index of every parameter in the table: IX_ACCELERATORS... */
enum {
#define P(KEY, H, T, C, name, unit, def, lo, hi, deftext, desc) IX_##KEY,
#include "params.def"
#undef P
    IX_COUNT
};

/* Named values of CHOICE parameters. */
typedef enum { CHOICES_NONE, CHOICES_ACCELERATOR, CHOICES_COOLING, CHOICES_PRECISION } choices_id;

enum { COOLING_AIR = 0, COOLING_LIQUID = 1 };
enum { PRECISION_BF16 = 0, PRECISION_FP8 = 1 };

typedef struct param_row {
    int32_t key;
    int32_t handle;
    int32_t type;
    choices_id choices;
    const char *name;
    const char *unit;
    double def, lo, hi;
    const char *deftext;
    const char *description;
} param_row;

extern const param_row tco_params[IX_COUNT];

/* Table index of a key, or -1. */
int param_index(int32_t key);
/* Checks one value against its row; fills err on failure. */
int param_check(const param_row *row, double value, tco_error *err);
size_t choice_count(choices_id c);
int choice_at(choices_id c, size_t i, const char **name, double *value);
/* The value of a choice name, or -1 when there is none. */
int choice_find(choices_id c, const char *name, double *value);
/* "air, liquid": the names of c, into buf. */
const char *choice_list(choices_id c, char *buf, size_t cap);
/* The name of a choice value, or NULL. */
const char *choice_name(choices_id c, double value);

/* The state behind every handle. v[] is indexed by IX_*, for all handles;
 * a handle uses only its own rows. */
typedef struct tco_obj {
    int32_t kind;
    int frozen;
    double v[IX_COUNT];
    char text[IX_COUNT][TCO_TEXT_MAX];
    uint64_t fingerprint; /* of the canonical CBOR, set by freeze (fingerprint.c) */
} tco_obj;

struct tco_topology { tco_obj o; };
struct tco_workload { tco_obj o; };
struct tco_pricing { tco_obj o; };

/* Time, as doc/model.md counts it. */
#define HOURS_PER_YEAR 8766.0 /* 365.25 days */
#define HOURS_PER_MONTH (HOURS_PER_YEAR / 12)
#define DAYS_PER_MONTH (365.25 / 12)

/* What several computations derive from the inputs, written once so that
 * the estimate, the capacity split and the lifecycle agree. */
static inline double job_accelerators(const tco_obj *t, const tco_obj *w)
{
    return w->v[IX_JOB_ACCELERATORS] > 0 ? w->v[IX_JOB_ACCELERATORS] : t->v[IX_ACCELERATORS];
}

static inline double checkpoint_size(const tco_obj *w) /* B */
{
    return w->v[IX_CHECKPOINT_BYTES] > 0 ? w->v[IX_CHECKPOINT_BYTES]
                                         : w->v[IX_PARAMS_TOTAL] * w->v[IX_CHECKPOINT_BYTES_PER_PARAM];
}

static inline double dataset_size(const tco_obj *w) /* B */
{
    return w->v[IX_DATASET_BYTES] > 0 ? w->v[IX_DATASET_BYTES] : w->v[IX_TOKENS] * w->v[IX_BYTES_PER_TOKEN];
}

/* Writing one checkpoint at the workload's rate, or the hot tier's. */
static inline double checkpoint_write_hours(const tco_obj *t, const tco_obj *w)
{
    double gbps = w->v[IX_CHECKPOINT_WRITE_GBPS] > 0 ? w->v[IX_CHECKPOINT_WRITE_GBPS] : t->v[IX_STORAGE_HOT_GBPS];
    return checkpoint_size(w) / (gbps * 1e9) / 3600;
}

/* Fills err (when given and large enough) and returns code. */
int tco_fail(tco_error *err, int code, int32_t key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Size-prefixed structs: the size of each as version 1 shipped it. A caller
 * may pass any size from this up; the library fills what both know. */
#define V1_SIZE(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))
#define ERROR_V1_SIZE V1_SIZE(tco_error, message)
#define PARAM_INFO_V1_SIZE V1_SIZE(tco_param_info, default_text)
#define ACCELERATOR_V1_SIZE V1_SIZE(tco_accelerator, source)
#define ESTIMATE_V1_SIZE V1_SIZE(tco_estimate, scenario_fingerprint)
#define DEMAND_STATS_V1_SIZE V1_SIZE(tco_demand_stats, accelerator_hours)
#define SPLIT_V1_SIZE V1_SIZE(tco_split, savings_vs_peak)
#define BANDWIDTH_V1_SIZE V1_SIZE(tco_bandwidth, network_burst_utilisation)
#define LIFECYCLE_V1_SIZE V1_SIZE(tco_lifecycle, restart_window_hours)
#define LOGGING_V1_SIZE V1_SIZE(tco_logging, savings_share)
#define BUDGET_V1_SIZE V1_SIZE(tco_budget, abnormal_growth)

/* Copies src (this version's struct, size field first) into out, whose size
 * field the caller set: as far as both reach, zeros past what this version
 * knows, and the caller's size kept. */
static inline void sized_fill(void *out, const void *src, size_t src_size)
{
    size_t size;
    memcpy(&size, out, sizeof size);
    memcpy(out, src, size < src_size ? size : src_size);
    if (size > src_size)
        memset((char *)out + src_size, 0, size - src_size);
    memcpy(out, &size, sizeof size);
}

/* Catalogue lookup by id; NULL if unknown. */
const tco_accelerator *catalogue_find(int32_t id);

/* Fat-tree fabric (fabric.c). */
typedef struct fabric {
    double tiers, switches, links, optics;
} fabric;
/* Sizes a folded-Clos fabric for `endpoints` ports; returns TCO_OK or a
 * failure naming the parameter to change. */
int fabric_size(fabric *f, double endpoints, double radix, double oversubscription,
                tco_error *err);

/* Reliability (reliability.c); all times in hours. */
double system_mtbf(double accelerators, double accel_mtbf, double nodes, double node_mtbf,
                   double extra_rate_per_hour);
double young_interval(double delta, double mtbf);
double daly_interval(double delta, double mtbf);
double daly_wall_time(double work, double tau, double delta, double restart, double mtbf);

/* Inputs of the capacity functions (capacity.c): a series of finite values
 * of 0 or more, and a positive finite scalar; both name the argument. */
int series_check(const double *x, size_t n, const char *name, tco_error *err);
int positive_check(double v, const char *name, tco_error *err);
/* Neumaier's compensated sum of n values of 0 or more. */
double compensated_sum(const double *x, size_t n);
/* Non-NULL, frozen handles, or err filled naming the first that is not. */
int frozen_inputs(const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err);

/* Scenario files and identity (cbor.c, fingerprint.c, fields.c). */
/* The canonical CBOR of a handle into buf; returns its length, or 0 when
 * cap is short. CBOR_ORDER_BOUND (cbor_order.h) bytes always suffice. */
size_t obj_encode(const tco_obj *o, uint8_t *buf, size_t cap);
/* XXH3-64 of obj_encode's bytes; and of three such, as a scenario's. */
uint64_t obj_fingerprint(const tco_obj *o);
uint64_t fingerprint_combine(uint64_t topology, uint64_t workload, uint64_t pricing);
/* The fields of tco_estimate, in struct order (fields.c). */
typedef struct field_row {
    const char *name, *unit, *description;
    int32_t type; /* a tco_field_type */
    size_t offset;
} field_row;
#define FIELDS_MAX 256
extern const field_row tco_fields[];
extern const size_t tco_field_rows;

/* Cross-checks of a frozen handle (estimate.c reuses them per handle). */
int topology_check(const tco_obj *o, tco_error *err);
int workload_check(const tco_obj *o, tco_error *err);
int pricing_check(const tco_obj *o, tco_error *err);

/* Pools of capacity (pools.c), read by placement pricing (placement.c).
 * The hot row is what pricing reads, worked out when the pool is added. */
typedef struct pool_hot {
    double rate;          /* cur per accelerator-hour */
    double spot_rate;     /* reclaims per node-hour; 0 unless spot */
    double inv_per_node;  /* 1 / accelerators_per_node */
    int32_t per_node;     /* accelerators per node */
    int32_t free;         /* free accelerators */
    int32_t rack, zone, region;
    int32_t spot;         /* 1 for a spot pool */
} pool_hot;

struct tco_pools {
    int frozen;
    int32_t count, cap;
    tco_pool *pool;       /* as added (this version's struct) */
    pool_hot *hot;        /* the same pools, as pricing reads them */
};

#endif
