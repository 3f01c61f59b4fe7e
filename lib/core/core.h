/* The foundation: what every room above may call (doc/architecture.md).
 * Errors, the parameter table and its checks, the handles, the accelerator
 * catalogue, the fabric a topology implies, fingerprints, and the derived
 * inputs several computations share. Nothing here includes a header of a
 * room above. Not installed.
 *
 * Internal names that are not static carry the prefix tco__, so that a
 * static libtco.a exports nothing outside the tco_ namespace. */
#ifndef TCO_CORE_H
#define TCO_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "tco.h"

#if defined(__GNUC__)
#define TCO__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TCO__PRINTF(f, a)
#endif

/* ---- errors (status.c) ------------------------------------------------- */

/* The one way a tco_error is filled (when given and large enough): code,
 * the parameter's key (0 for none) and a name (a parameter's, a struct
 * field's such as "job.size", or ""), and the message. Returns code. */
int tco__fail_v(tco_error *err, int code, int32_t key, const char *name, const char *fmt, va_list ap);
/* A failure that names no parameter. */
int tco__fail(tco_error *err, int code, const char *fmt, ...) TCO__PRINTF(3, 4);
/* A failure about a key that is no parameter's: the key, no name. */
int tco__fail_key(tco_error *err, int code, int32_t key, const char *fmt, ...) TCO__PRINTF(4, 5);
/* why again, its code, parameter and name kept, under a new message (an
 * inner failure told with its context: "option 2: ..."). */
int tco__refail(tco_error *err, const tco_error *why, const char *fmt, ...) TCO__PRINTF(3, 4);
/* A failure that names a struct field or an unknown key: key 0, name. */
int tco__fail_named(tco_error *err, int code, const char *name, const char *fmt, ...) TCO__PRINTF(4, 5);

/* ---- the parameter table (params.def, params.c) ------------------------ */

/* Compile-time index of every parameter in the table: IX_ACCELERATORS... */
enum {
#define P(KEY, H, T, C, name, unit, def, lo, hi, deftext, desc) IX_##KEY,
#include "core/params.def"
#undef P
    IX_COUNT
};

/* Named values of CHOICE parameters. */
typedef enum {
    CHOICES_NONE,
    CHOICES_ACCELERATOR,
    CHOICES_COOLING,
    CHOICES_PRECISION,
    CHOICES_ATTENTION,
    CHOICES_RECOMPUTE,
    CHOICES_FLOPS_BASIS,
    CHOICES_FAILURE_MODEL
} choices_id;

/* The values of the named choices: their index in params.c's lists. */
enum { COOLING_AIR = 0, COOLING_LIQUID = 1 };
enum { PRECISION_BF16 = 0, PRECISION_FP8 = 1 };
enum { ATTENTION_CAUSAL = 0, ATTENTION_FULL = 1 };
enum { RECOMPUTE_NONE = 0, RECOMPUTE_SELECTIVE = 1, RECOMPUTE_FULL = 2 };
enum { BASIS_MODEL = 0, BASIS_HARDWARE = 1 };
enum { FAILURES_PER_PART = 0, FAILURES_BY_JOB_SIZE = 1 };

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

extern const param_row tco__params[IX_COUNT];

/* A failure about the parameter of table index ix: its key and name go
 * into err with the message. */
int tco__fail_param(tco_error *err, int code, int ix, const char *fmt, ...) TCO__PRINTF(4, 5);
/* Table index of a key, or -1. */
int tco__param_index(int32_t key);
/* Checks one value against its row; fills err on failure. */
int tco__param_check(const param_row *row, double value, tco_error *err);
size_t tco__choice_count(choices_id c);
int tco__choice_at(choices_id c, size_t i, const char **name, double *value);
/* The value of a choice name, or -1 when there is none. */
int tco__choice_find(choices_id c, const char *name, double *value);
/* "air, liquid": the names of c, into buf. */
const char *tco__choice_list(choices_id c, char *buf, size_t cap);
/* The name of a choice value, or NULL. */
const char *tco__choice_name(choices_id c, double value);

/* Where s[0..n) stops being well-formed UTF-8 (RFC 3629), or n (utf8.c). */
size_t tco__utf8_invalid_at(const unsigned char *s, size_t n);

/* ---- the accelerator catalogue (catalogue.c) --------------------------- */

/* The row of a checked accelerator_model id: the catalogue's, or custom. */
const tco_accelerator *tco__catalogue_find(int32_t id);
/* The accelerator choices in tco_accelerator_at's order ("custom" first):
 * how many, and row i. */
size_t tco__catalogue_count(void);
const tco_accelerator *tco__catalogue_row(size_t i);

/* ---- the fabric a topology implies (fabric.c) -------------------------- */

typedef struct fabric {
    double tiers, switches, links, optics;
} fabric;
/* Sizes a folded-Clos fabric for `endpoints` ports; returns TCO_OK or a
 * failure naming the parameter to change. */
int tco__fabric_size(fabric *f, double endpoints, double radix, double oversubscription, tco_error *err);

/* ---- handles (handle.c, check.c) ---------------------------------------- */

typedef struct tco_obj tco_obj;
/* The model's shape, as far as the attention term, the activations and a
 * served model's KV cache need it: nothing when layers is not given (the
 * term is left out, TCO_FLAG_ATTENTION_OMITTED in flags). What is not
 * given is derived: hidden from params_active and layers (flagged
 * TCO_FLAG_HIDDEN_DERIVED), heads as hidden / 128, kv_heads as heads.
 * A workload's freeze derives its own (derived.shape). */
typedef struct shape {
    double layers, hidden, width, heads, kv_heads;
} shape;
void tco__shape_of(shape *s, const tco_obj *w, double active, uint64_t *flags);

/* The state behind every handle. v[] is indexed by IX_*, for all handles;
 * a handle uses only its own rows. */
/* What owning costs a year per unit of price (doc/model.md, section 3):
 * the capital recovery factor of the cost of capital i over n years, the
 * discount of the residual, and maintenance. */
typedef struct annuity {
    double crf;         /* i / (1 - (1 + i)^-n), or 1 / n at i = 0 */
    double discount;    /* (1 + i)^-n */
    double maintenance; /* share of the price per year */
} annuity;

/* What one handle alone implies, derived at freeze so that no computation
 * derives it again; each handle fills its own part. */
typedef struct derived {
    /* a topology's */
    fabric fabric;               /* sized once */
    const tco_accelerator *acc;  /* its catalogue entry */
    double nodes;                /* accelerators / accelerators_per_node */
    double tdp;                  /* W per accelerator, the override first */
    double peak[2], memory;      /* FLOP/s by precision (bf16, fp8) and B, the overrides first */
    double cluster_failures;     /* per hour: accelerators / their MTBF + nodes / theirs */
    double nic;                  /* B/s of NIC per accelerator, after oversubscription */
    double bisection_tbps;       /* of the fabric */
    double restart_h;            /* restart_minutes in hours */
    unsigned classes;            /* the price classes its mix uses (tco__mix_classes) */
    double accel_failure_rate, node_failure_rate; /* per hour of one: 1 / accelerator_mtbf_hours, node's */
    double node_share;           /* an accelerator's of its node: 1 / accelerators_per_node */
    double nic_seconds_per_byte; /* 1 / nic, 0 without NICs */
    double list[4];              /* the accelerator's list prices by tco_price_class (tco__list_prices) */
    unsigned unlisted;           /* the classes it has no list price for */
    /* a workload's */
    double ckpt, dataset;        /* B: checkpoint_size, dataset_size */
    double ckpt_gb, dataset_gb;  /* the same in GB, as storage is priced */
    double tokens, steps;        /* per run: tokens x epochs, and optimizer steps of batch_tokens */
    double raw_data;             /* B pulled and prepared once: raw_data_bytes, or dataset_raw_size */
    double read_bytes;           /* B a run reads from storage: compressed, the cache's misses */
    shape shape;                 /* tco__shape_of */
    double active;               /* params_active, or params_total for a dense model */
    double model_fpt, hw_fpt;    /* FLOPs per token: as papers count them, as the run executes them */
    double flops, hw_flops;      /* per run: model and hardware FLOPs */
    double step_flops, step_hw_flops; /* the same per step */
    double params_share;         /* parameters one accelerator holds, before ZeRO sharding */
    double stage_layers;         /* layers per pipeline stage */
    double activations;          /* B per accelerator of the first stage (0 without layers) */
    double model_state;          /* B per accelerator without ZeRO: params_total x (checkpoint and gradient
                                  * bytes per parameter) / (tensor x pipeline) */
    double log_kept_months;      /* log_retention_days in months */
    uint64_t flags;              /* the tco_estimate_flag bits these set */
    double requests;             /* storage read requests of a run: read_bytes / data_object_bytes */
    double retry_factor;         /* hours retried per hour run: retry_share / (1 - retry_share) */
    double work_per_compute;     /* at the stall floor: 1 / (1 - data_stall_share) */
    double samples_per_accel_hour; /* metrics_per_accelerator x 3600 / metrics_interval_seconds */
    double micro_batches, per_micro_batches; /* batch_tokens / (seq_len x micro_batch_sequences), its
                                  * reciprocal (0 without seq_len): micro-batches a step, all pipelines */
    double per_run, per_million_tokens, per_pflop_day; /* 1 / runs, 1e6 / (tokens x runs), 86400 x 1e15 /
                                  * (FLOPs x runs): what a total multiplies into its cost per each */
    /* a pricing table's */
    annuity it, building;        /* over the IT's life and the facility's */
    double staff_hour;           /* cur per hour of an engineer's year */
    double migration;            /* cur, paid once: the move, its data, its engineers, the parallel run */
    double learning_staff;       /* cur, paid once: the engineers' months of learning */
    int listed;                  /* currency is LIST_CURRENCY: list prices may stand in */
    double fte_per_node;         /* 1 / nodes_per_fte */
    double rate[4];              /* its rates by tco_price_class, 0 for a stand-in (tco__table_rates) */
    unsigned from_list;          /* the classes left at the stand-in that take the list price */
    unsigned unpriced;           /* those left at it without one: currency is not LIST_CURRENCY */
} derived;

struct tco_obj {
    int32_t kind;
    int frozen;
    double v[IX_COUNT];
    char text[IX_COUNT][TCO_TEXT_MAX];
    uint64_t fingerprint; /* of the canonical CBOR (fingerprint.c) */
    derived d;            /* from the values, by tco__obj_prepare */
};

struct tco_topology { tco_obj o; };
struct tco_workload { tco_obj o; };
struct tco_pricing { tco_obj o; };

/* A new handle of kind with the table's defaults, or NULL with err filled. */
tco_obj *tco__obj_new(int32_t kind, tco_error *err);
/* Checks a handle's values together and derives what it keeps (the fabric
 * of a topology): freeze, and a sweep's changed copies, call it. */
int tco__obj_prepare(tco_obj *o, tco_error *err);
/* Non-NULL, frozen handles of their kinds, or err filled naming the first
 * that is not. */
int tco__frozen_inputs(const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err);
/* TCO_OK, or TCO_E_TYPE when o is a handle of another kind than `kind`
 * (passed through a cast). */
int tco__kind_check(const tco_obj *o, int32_t kind, tco_error *err);

/* ---- the rates a computation charges (rates.c) ------------------------- */

/* A rate or price left at this stand-in (the table's default) is the
 * accelerator's list price, which the catalogue gives in LIST_CURRENCY. */
#define LIST_PRICE (-1.0)
#define LIST_CURRENCY "USD"

typedef struct rates {
    double on_demand, reserved, spot; /* cur per accelerator-hour */
    double capex;                     /* cur per accelerator */
    unsigned missing; /* bit c: tco_price_class c (owned: capex) is a stand-in
                       * with no list price (in this currency): 0 above */
} rates;
/* The pricing table's rates for topology t's accelerator, list prices in
 * place of stand-ins (0 where there is none: see missing); of frozen (or
 * prepared) handles, from what their freeze derived: */
void tco__rates(rates *out, const tco_obj *t, const tco_obj *p);
/* a topology's list prices (acc: its accelerator), */
void tco__list_prices(derived *d, const tco_accelerator *acc);
/* a pricing table's rates (listed: in LIST_CURRENCY). */
void tco__table_rates(derived *d, const tco_obj *p, int listed);
/* Reserved and spot at most on demand: freeze checks the rates a table
 * gives, tco__rates_need those a computation uses. */
int tco__rates_order(const rates *r, tco_error *err);
/* The price classes (bits) the topology's mix of owned, reserved, spot and
 * on demand uses. */
unsigned tco__mix_classes(const tco_obj *t);
/* TCO_OK, or a failure naming the rate of the first of `classes` (bits of
 * tco_price_class) that has no list price to stand in for, or that is
 * above on demand. */
int tco__rates_need(const rates *r, unsigned classes, const tco_obj *t, const tco_obj *p, tco_error *err);
/* Parameter ix's value v, or the rate in r that v stands in for. */
double tco__rate_value(const rates *r, int ix, double v);

/* ---- fingerprints (fingerprint.c) -------------------------------------- */

/* XXH3-64 of a handle's canonical CBOR; and of three such, a scenario's. */
uint64_t tco__obj_fingerprint(const tco_obj *o);
uint64_t tco__fingerprint_combine(uint64_t topology, uint64_t workload, uint64_t pricing);

/* ---- time, sizes and derived inputs ------------------------------------ */

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

/* The dataset as gathered, before deduplication and compression. */
static inline double dataset_raw_size(const tco_obj *w) /* B */
{
    return w->v[IX_DATASET_BYTES] > 0 ? w->v[IX_DATASET_BYTES] : w->v[IX_TOKENS] * w->v[IX_BYTES_PER_TOKEN];
}

/* The dataset as stored: what deduplication keeps, compressed. */
static inline double dataset_size(const tco_obj *w) /* B */
{
    return dataset_raw_size(w) * (w->v[IX_DATA_KEPT_SHARE] * w->v[IX_DATA_COMPRESSION_RATIO]);
}

/* Writing one checkpoint (its size as freeze found it) at the workload's
 * rate, or the hot tier's. */
static inline double checkpoint_write_hours(const tco_obj *t, const tco_obj *w)
{
    double gbps = w->v[IX_CHECKPOINT_WRITE_GBPS] > 0 ? w->v[IX_CHECKPOINT_WRITE_GBPS] : t->v[IX_STORAGE_HOT_GBPS];
    return w->d.ckpt / (gbps * 3.6e12); /* B / (B/s x s/h) */
}

/* fmax and fmin as C99 defines them (of a NaN and a number, the number),
 * inline: gcc calls libm's for them. */
static inline double max_of(double a, double b)
{
    return a > b || b != b ? a : b;
}

static inline double min_of(double a, double b)
{
    return a < b || b != b ? a : b;
}

/* 1 when d divides a, both whole numbers below 2^53 (as the table's bounds
 * keep its INT parameters): fmod(a, d) == 0, exactly, without its call. */
static inline int divides(double d, double a)
{
    double q = a / d;
    return q == (double)(int64_t)q && q * d == a;
}

/* ---- size-prefixed structs --------------------------------------------- */

/* The size of each as version 1 shipped it. A caller may pass any size
 * from this up; the library fills what both know. */
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

/* s[0 .. n) for a message: in double quotes, ASCII only (control bytes,
 * bytes past 0x7e, quotes and backslashes as \xHH, \" and \\), cut after
 * TCO__SHOW_BYTES bytes with "...". buf holds TCO__SHOW_MAX. */
#define TCO__SHOW_BYTES 40
#define TCO__SHOW_MAX (4 * TCO__SHOW_BYTES + 8)
void tco__show(char *buf, size_t cap, const char *s, size_t n);

/* " follows" or "s follow": "1 byte follows", "2 bytes follow" in a
 * message counting trailing bytes. */
static inline const char *tco__bytes_follow(size_t n)
{
    return n == 1 ? " follows" : "s follow";
}

/* The largest size an input struct may declare: past it the size field is
 * garbage rather than a newer version's (doc/api.md). */
#define INPUT_MAX_SIZE 1024
/* The largest size an output struct (or an output array's element) may
 * declare: a size past it is garbage, and writing it would run past the
 * caller's memory (doc/api.md). */
#define OUTPUT_MAX_SIZE 65536

/* TCO_E_SIZE for an output struct called name ("tco_estimate") whose size
 * is below this version's first, v1, or above OUTPUT_MAX_SIZE. */
int tco__output_size_fail(tco_error *err, const char *name, size_t size, size_t v1);
/* TCO_OK, or TCO_E_SIZE naming field ("out_size") for an output array's
 * element size below v1, above OUTPUT_MAX_SIZE, or not a multiple of 8
 * (the alignment of its doubles). */
int tco__stride_check(size_t size, size_t v1, const char *field, const char *type, tco_error *err);

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

/* 1 when the bytes of an input struct past the `known` this version reads
 * are all zero (or there are none), as the Linux kernel's
 * copy_struct_from_user asks: a field that a newer caller set is never
 * silently ignored. */
static inline int tail_is_zero(const void *s, size_t size, size_t known)
{
    const unsigned char *b = (const unsigned char *)s;
    unsigned char any = 0;
    for (size_t i = known; i < size; i++)
        any |= b[i];
    return any == 0;
}

/* TCO_OK, or TCO_E_SIZE naming "<name>.size" (name: "pool" for tco_pool),
 * for an input struct whose size is past INPUT_MAX_SIZE or whose unknown
 * tail is not zero. Inline for the common case: this version's struct. */
int tco__input_tail_check(const void *s, size_t size, size_t known, const char *name, tco_error *err);
static inline int input_size_check(const void *s, size_t size, size_t known, const char *name, tco_error *err)
{
    return size == known ? TCO_OK : tco__input_tail_check(s, size, known, name, err);
}

#endif
