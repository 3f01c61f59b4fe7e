/* The bad-input catalogue (tests/catalogue/requests.json, README.md there)
 * against the C API: for every entry point that takes a request struct, a
 * valid request with each field set to each bad class in turn must fail
 * with the catalogue's status, name the field in err.param_name and the
 * message, and leave every output as it was (a sentinel pattern, compared
 * byte for byte); likewise the scalar arguments, Monte Carlo's inputs,
 * the FOCUS request's texts, the CSV and sacct readers' rows, a sweep's
 * variations and a comparison's options. Then, per entry,
 * the classes every struct and handle shares: request and output sizes of
 * 0, below version 1, past the documented upper bound (doc/api.md) and
 * SIZE_MAX, a non-zero tail, a NULL request, handles of the wrong kind,
 * unfrozen or NULL. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

typedef enum cat_type { CAT_REAL, CAT_INT32, CAT_UINT32 } cat_type;

typedef struct cat_case {
    const char *entry, *cls, *name;
    size_t offset;
    int type; /* a cat_type */
    double real;
    int64_t whole;
    int code;
} cat_case;

typedef struct cat_text {
    const char *what, *text;
    size_t len;
    const char *param;
    int code;
    int line;  /* the bad row's line (the rest valid); 0: the whole text is bad */
    int sacct; /* 1: Slurm accounting, 0: CSV */
} cat_text;

typedef struct cat_sweep {
    const char *param, *cls; /* the class's value is made from the parameter's bounds */
    int code;
} cat_sweep;

typedef struct cat_compare {
    int k; /* the case: its rows set option cat_compare_option together */
    const char *name, *text;
    double value;
    const char *param;
    int code;
} cat_compare;

typedef struct cat_focus {
    const char *cls, *name;
    size_t offset;
    const char *text;
    int code;
} cat_focus;

typedef struct cat_set {
    const char *what;
    size_t offset;
    double value;
    int code;
} cat_set;

typedef struct cat_param {
    const char *handle, *name;
    double value;
} cat_param;

#include "catalogue.h"

#define N_CASES (sizeof cat_cases / sizeof cat_cases[0])
#define SENTINEL 0xA5
#define INPUT_MAX 1024 /* doc/api.md: the largest size an input struct may declare */

/* The scenario of the catalogue, its records priced, frozen. */
typedef struct ctx {
    scen s;
    tco_records *rs;
    tco_attribution *a;
    tco_pools *pools;
} ctx;

/* A request big enough for any size class, aligned as the structs are. */
typedef union req {
    tco_attribution_request attribution;
    tco_waste_request waste;
    tco_lifetime_request lifetime;
    tco_serve_request serving;
    tco_pipeline_request pipeline;
    tco_saving saving;
    tco_target target;
    tco_scaling_law law;
    tco_job job;
    tco_stage stage;
    double align;
    unsigned char bytes[INPUT_MAX + 64];
} req;

/* Every output a call may write, filled with SENTINEL; before compares it
 * with the state before the call. */
static unsigned char outbuf[65536], before[sizeof outbuf];

/* When set, the size the first output struct declares (the output size
 * classes). */
static int out_size_set;
static size_t out_size;

static void *out_at(size_t offset, size_t size)
{
    void *p = outbuf + offset;
    if (offset == 0 && size && out_size_set)
        size = out_size;
    memcpy(p, &size, sizeof size);
    return p;
}

static void outputs_reset(void)
{
    memset(outbuf, SENTINEL, sizeof outbuf);
}

/* Group setup cannot assert: a failure prints why and fails the group. */
static int setup_failed(const char *what, const tco_error *err)
{
    fprintf(stderr, "setup: %s: %s\n", what, err->message);
    return -1;
}

static int set_param(ctx *c, const cat_param *q, tco_error *err)
{
    int32_t key;
    int rc = tco_param_find(&key, q->name, err);
    if (rc)
        return rc;
    return !strcmp(q->handle, "topology")   ? tco_topology_set(c->s.t, key, q->value, err)
           : !strcmp(q->handle, "workload") ? tco_workload_set(c->s.w, key, q->value, err)
                                            : tco_pricing_set(c->s.p, key, q->value, err);
}

static int attribution_request(tco_attribution_request *q, const ctx *c, tco_error *err)
{
    memset(q, 0, sizeof *q);
    q->size = sizeof *q;
    q->period_start = cat_period[0];
    q->period_end = cat_period[1];
    q->by_count = 1;
    q->idle_rule = TCO_SPREAD_USAGE;
    q->shared_rule = TCO_SPREAD_USAGE;
    return tco_tags_find(tco_records_tags(c->rs), cat_by, strlen(cat_by), &q->by_key[0], err);
}

static int setup(void **state)
{
    static ctx c;
    tco_error err = TCO_ERROR_INIT;
    if (tco_topology_new(&c.s.t, &err) || tco_workload_new(&c.s.w, &err) || tco_pricing_new(&c.s.p, &err))
        return setup_failed("new", &err);
    for (size_t i = 0; i < sizeof cat_params / sizeof cat_params[0]; i++)
        if (set_param(&c, &cat_params[i], &err))
            return setup_failed(cat_params[i].name, &err);
    if (tco_topology_freeze(c.s.t, &err) || tco_workload_freeze(c.s.w, &err) || tco_pricing_freeze(c.s.p, &err))
        return setup_failed("freeze", &err);
    if (tco_records_read_csv(&c.rs, cat_records_csv, strlen(cat_records_csv), TCO_READ_STRICT, &err))
        return setup_failed("records", &err);
    tco_attribution_request q;
    if (attribution_request(&q, &c, &err))
        return setup_failed("by", &err);
    size_t pairs;
    const uint32_t *tp = tco_records_tag_pairs(c.rs, &pairs);
    if (tco_attribute(&c.a, tco_records_data(c.rs), tco_records_count(c.rs), tp, pairs, tco_records_tags(c.rs), &q,
                      c.s.t, c.s.w, c.s.p, &err))
        return setup_failed("attribute", &err);
    if (tco_pools_new(&c.pools, &err) || tco_pools_add(c.pools, &cat_pool, NULL, &err) ||
        tco_pools_freeze(c.pools, &err))
        return setup_failed("pools", &err);
    *state = &c;
    return 0;
}

static int teardown(void **state)
{
    ctx *c = *state;
    tco_pools_free(c->pools);
    tco_attribution_free(c->a);
    tco_records_free(c->rs);
    scen_free(&c->s);
    return 0;
}

/* ---- the entry points: a valid request, and the call ---------------------- */

/* The handles a call is given (swapped or unfrozen by the shared classes). */
typedef struct args {
    const tco_topology *t;
    const tco_workload *w;
    const tco_pricing *p;
} args;

typedef struct entry {
    const char *name;
    void (*init)(req *q, const ctx *c);
    /* The call: outputs in outbuf (sizes set), snapshot taken, then called. */
    int (*call)(const ctx *c, const void *q, args h, tco_error *err);
    int null_refused; /* 1: a NULL request is TCO_E_NULL (else: the defaults) */
    int handles;      /* the handles it reads: H_T | H_W | H_P */
} entry;

enum { H_T = 1, H_W = 2, H_P = 4, H_ALL = 7 };

static void snapshot(void)
{
    memcpy(before, outbuf, sizeof outbuf);
}

static void init_waste(req *q, const ctx *c)
{
    (void)c;
    tco_waste_request_init(&q->waste);
}

static int call_waste(const ctx *c, const void *q, args h, tco_error *err)
{
    (void)h;
    tco_findings **out = out_at(0, 0);
    memset(out, SENTINEL, sizeof *out);
    snapshot();
    size_t pairs;
    const uint32_t *tp = tco_records_tag_pairs(c->rs, &pairs);
    int rc = tco_find_waste(out, c->a, tco_records_data(c->rs), tco_records_count(c->rs), tp, pairs,
                            tco_records_tags(c->rs), q, err);
    if (rc == TCO_OK)
        tco_findings_free(*out);
    return rc;
}

static void init_attribution(req *q, const ctx *c)
{
    assert_int_equal(attribution_request(&q->attribution, c, NULL), TCO_OK);
}

static int call_attribute(const ctx *c, const void *q, args h, tco_error *err)
{
    tco_attribution **out = out_at(0, 0);
    memset(out, SENTINEL, sizeof *out);
    snapshot();
    size_t pairs;
    const uint32_t *tp = tco_records_tag_pairs(c->rs, &pairs);
    int rc = tco_attribute(out, tco_records_data(c->rs), tco_records_count(c->rs), tp, pairs, tco_records_tags(c->rs),
                           q, h.t, h.w, h.p, err);
    if (rc == TCO_OK)
        tco_attribution_free(*out);
    return rc;
}

static int call_attribute_part(const ctx *c, const void *q, args h, tco_error *err)
{
    tco_attribution_part **out = out_at(0, 0);
    memset(out, SENTINEL, sizeof *out);
    snapshot();
    size_t pairs;
    const uint32_t *tp = tco_records_tag_pairs(c->rs, &pairs);
    int rc = tco_attribute_part(out, tco_records_data(c->rs), tco_records_count(c->rs), tp, pairs,
                                tco_records_tags(c->rs), q, h.t, h.w, h.p, err);
    if (rc == TCO_OK)
        tco_attribution_part_free(*out);
    return rc;
}

static void init_lifetime(req *q, const ctx *c)
{
    (void)c;
    tco_lifetime_request_init(&q->lifetime);
}

static int call_lifetime(const ctx *c, const void *q, args h, tco_error *err)
{
    (void)c;
    tco_lifetime *out = out_at(0, sizeof(tco_lifetime));
    enum { YEARS = 8 }; /* room for the default request's 5 */
    tco_lifetime_year *years = out_at(4096, sizeof(tco_lifetime_year));
    for (int i = 1; i < YEARS; i++)
        memcpy((char *)years + i * sizeof *years, years, sizeof(size_t));
    snapshot();
    return tco_lifetime_compute(out, years, sizeof *years, YEARS, q, h.t, h.w, h.p, err);
}

static void init_serving(req *q, const ctx *c)
{
    (void)c;
    tco_serve_request_init(&q->serving);
    q->serving.rate = cat_rate;
    q->serving.n = sizeof cat_rate / sizeof cat_rate[0];
}

static int call_serving(const ctx *c, const void *q, args h, tco_error *err)
{
    (void)c;
    tco_serving *out = out_at(0, sizeof(tco_serving));
    tco_split *split = out_at(4096, sizeof(tco_split));
    double *needed = out_at(8192, 0);
    snapshot();
    return tco_serving_compute(out, split, needed, sizeof cat_rate / sizeof cat_rate[0], q, h.t, h.w, h.p, err);
}

static void init_pipeline(req *q, const ctx *c)
{
    (void)c;
    tco_pipeline_request_init(&q->pipeline);
}

static int call_pipeline(const ctx *c, const void *q, args h, tco_error *err)
{
    (void)c;
    tco_pipeline *out = out_at(0, sizeof(tco_pipeline));
    snapshot();
    return tco_data_pipeline_compute(out, q, h.t, h.w, h.p, err);
}

static void init_tradeoffs(req *q, const ctx *c)
{
    (void)c;
    tco_saving_init(&q->saving);
}

static int call_tradeoffs(const ctx *c, const void *q, args h, tco_error *err)
{
    (void)c;
    enum { CAP = 8 };
    tco_tradeoff *out = out_at(0, sizeof(tco_tradeoff));
    for (int i = 1; i < CAP; i++)
        memcpy((char *)out + i * sizeof *out, out, sizeof(size_t));
    size_t *n = out_at(CAP * sizeof *out, 0);
    snapshot();
    /* An array's rows are out_size bytes apart: the output size class is that argument. */
    return tco_tradeoffs(out, out_size_set ? out_size : sizeof *out, CAP, n, q, h.t, h.w, h.p, err);
}

/* One saving weighed: the same side inputs, one kind at its suggested cut. */
static void init_tradeoff(req *q, const ctx *c)
{
    tco_saving_init(&q->saving);
    int32_t key;
    double days;
    assert_int_equal(tco_param_find(&key, "log_retention_days", NULL), TCO_OK);
    assert_int_equal(tco_workload_get(c->s.w, key, &days, NULL), TCO_OK);
    q->saving.kind = TCO_SAVING_LOG_RETENTION;
    q->saving.value = days / 2;
}

static int call_tradeoff(const ctx *c, const void *q, args h, tco_error *err)
{
    (void)c;
    tco_tradeoff *out = out_at(0, sizeof(tco_tradeoff));
    snapshot();
    return tco_tradeoff_compute(out, q, h.t, h.w, h.p, err);
}

static void init_sizing(req *q, const ctx *c)
{
    (void)c;
    memset(&q->target, 0, sizeof q->target);
    q->target.size = sizeof q->target;
    q->target.solve = TCO_SOLVE_ACCELERATORS;
    q->target.deadline_days = cat_sizing_deadline_days;
}

static int call_sizing(const ctx *c, const void *q, args h, tco_error *err)
{
    (void)c;
    tco_sizing *out = out_at(0, sizeof(tco_sizing));
    snapshot();
    return tco_size(out, q, h.t, h.w, h.p, err);
}

static void init_law(req *q, const ctx *c)
{
    (void)c;
    assert_int_equal(tco_scaling_law_init(&q->law, TCO_FIT_HOFFMANN_2022, NULL), TCO_OK);
}

static int call_loss_at(const ctx *c, const void *q, args h, tco_error *err)
{
    (void)c, (void)h;
    tco_loss *out = out_at(0, sizeof(tco_loss));
    snapshot();
    return tco_loss_at(out, q, 7e10, 1.4e12, err);
}

/* The compute-optimal run reads the same law, and the handles. */
static int call_optimal(const ctx *c, const void *q, args h, tco_error *err)
{
    (void)c;
    tco_optimum *out = out_at(0, sizeof(tco_optimum));
    tco_estimate *e = out_at(4096, sizeof(tco_estimate));
    snapshot();
    return tco_compute_optimal(out, e, q, 1e8, h.t, h.w, h.p, err);
}

static void init_job(req *q, const ctx *c)
{
    (void)c;
    q->job = cat_job;
}

/* The job on the one pool, whole. */
static int call_placement(const ctx *c, const void *q, args h, tco_error *err)
{
    tco_price *out = out_at(0, sizeof(tco_price));
    tco_placement pl = { .size = sizeof pl, .parts = 1, .pool = { 0 }, .accelerators = { cat_job.accelerators } };
    snapshot();
    return tco_placement_price(out, c->pools, h.t, h.p, q, &pl, err);
}

/* A programme of one stage, the scenario's workload pretrained. */
static void init_stage(req *q, const ctx *c)
{
    memset(&q->stage, 0, sizeof q->stage);
    q->stage.size = sizeof q->stage;
    q->stage.kind = TCO_STAGE_PRETRAINING;
    q->stage.after = TCO_STAGE_START;
    q->stage.workload = c->s.w;
}

static int call_programme(const ctx *c, const void *q, args h, tco_error *err)
{
    (void)c;
    tco_programme *out = out_at(0, sizeof(tco_programme));
    tco_stage_result *results = out_at(4096, sizeof(tco_stage_result));
    snapshot();
    return tco_programme_compute(out, results, sizeof *results, q, 1, h.t, h.p, err);
}

/* Entries of one catalogue name share its fields and classes. */
static const entry entries[] = {
    { "attribution", init_attribution, call_attribute, 1, H_ALL },
    { "attribution", init_attribution, call_attribute_part, 1, H_ALL },
    { "waste", init_waste, call_waste, 0, 0 },
    { "lifetime", init_lifetime, call_lifetime, 1, H_ALL },
    { "serving", init_serving, call_serving, 1, H_ALL },
    { "pipeline", init_pipeline, call_pipeline, 1, H_ALL },
    { "tradeoffs", init_tradeoffs, call_tradeoffs, 0, H_ALL },
    { "tradeoffs", init_tradeoff, call_tradeoff, 1, H_ALL },
    { "sizing", init_sizing, call_sizing, 1, H_ALL },
    { "job", init_job, call_placement, 1, H_T | H_P },
    { "programme", init_stage, call_programme, 1, H_T | H_P },
    { "scaling_law", init_law, call_loss_at, 0, 0 },
    { "scaling_law", init_law, call_optimal, 0, H_ALL },
};
#define N_ENTRIES (sizeof entries / sizeof entries[0])

static args handles_of(const ctx *c)
{
    args h = { c->s.t, c->s.w, c->s.p };
    return h;
}

/* A refused call: the code, the field named (when given) and nothing written. */
static void expect_refused(const ctx *c, const entry *e, const void *q, args h, int code, const char *name,
                           const char *what)
{
    tco_error err = TCO_ERROR_INIT;
    outputs_reset();
    int rc = e->call(c, q, h, &err);
    if (rc != code)
        fail_msg("%s, %s: got %s (%s), want %s", e->name, what, tco_status_name(rc), err.message,
                 tco_status_name(code));
    assert_int_equal(err.code, code);
    if (name) {
        if (strcmp(err.param_name, name) != 0 || !strstr(err.message, name))
            fail_msg("%s, %s: param_name \"%s\", message \"%s\": want %s named", e->name, what, err.param_name,
                     err.message, name);
    }
    if (memcmp(before, outbuf, sizeof outbuf) != 0)
        fail_msg("%s, %s: a refused call changed its output", e->name, what);
}

/* The valid request of every entry prices (a catalogue whose base fails
 * would pass on any code). */
static void test_valid(void **state)
{
    ctx *c = *state;
    for (size_t i = 0; i < N_ENTRIES; i++) {
        req q;
        entries[i].init(&q, c);
        tco_error err = TCO_ERROR_INIT;
        outputs_reset();
        int rc = entries[i].call(c, &q, handles_of(c), &err);
        if (rc != TCO_OK)
            fail_msg("%s: the valid request fails: %s", entries[i].name, err.message);
    }
}

/* Every field of every entry, every bad class the catalogue lists. */
static void test_fields(void **state)
{
    ctx *c = *state;
    static int checked[N_CASES]; /* every case is some entry's */
    for (size_t i = 0; i < N_ENTRIES; i++) {
        const entry *e = &entries[i];
        for (size_t k = 0; k < N_CASES; k++) {
            const cat_case *cc = &cat_cases[k];
            if (strcmp(cc->entry, e->name) != 0)
                continue;
            req q;
            e->init(&q, c);
            if (cc->type == CAT_INT32) {
                int32_t v = (int32_t)cc->whole;
                memcpy(q.bytes + cc->offset, &v, sizeof v);
            } else if (cc->type == CAT_UINT32) {
                uint32_t v = (uint32_t)cc->whole;
                memcpy(q.bytes + cc->offset, &v, sizeof v);
            } else {
                memcpy(q.bytes + cc->offset, &cc->real, sizeof cc->real);
            }
            char what[128];
            snprintf(what, sizeof what, "%s = %s", cc->name, cc->cls);
            expect_refused(c, e, &q, handles_of(c), cc->code, cc->name, what);
            checked[k] = 1;
        }
    }
    for (size_t k = 0; k < N_CASES; k++)
        if (!checked[k])
            fail_msg("%s: no C entry calls it", cat_cases[k].entry);
}

/* The request's size: 0, below version 1, past the upper bound, SIZE_MAX,
 * and this version's with a non-zero tail. */
static void test_sizes(void **state)
{
    ctx *c = *state;
    const size_t sizes[] = { 0, sizeof(size_t), INPUT_MAX + 8, SIZE_MAX };
    for (size_t i = 0; i < N_ENTRIES; i++) {
        const entry *e = &entries[i];
        req q;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            memset(&q, 0, sizeof q);
            e->init(&q, c);
            memcpy(q.bytes, &sizes[k], sizeof sizes[k]);
            char what[64];
            snprintf(what, sizeof what, "size %zu", sizes[k]);
            expect_refused(c, e, &q, handles_of(c), TCO_E_SIZE, NULL, what);
        }
        /* A newer caller's struct: this version's fields, then a field set. */
        memset(&q, 0, sizeof q);
        e->init(&q, c);
        size_t known, wide;
        memcpy(&known, q.bytes, sizeof known);
        wide = known + 8;
        memcpy(q.bytes, &wide, sizeof wide);
        q.bytes[known] = 1;
        expect_refused(c, e, &q, handles_of(c), TCO_E_SIZE, NULL, "a non-zero tail");
        /* ... and with a zero tail it is this version's request. */
        q.bytes[known] = 0;
        tco_error err = TCO_ERROR_INIT;
        outputs_reset();
        if (e->call(c, &q, handles_of(c), &err) != TCO_OK)
            fail_msg("%s: a zero tail is refused: %s", e->name, err.message);
    }
}

/* The output struct's size: 0, below version 1, past the documented upper
 * bound (OUTPUT_MAX_SIZE, 65,536, doc/api.md), SIZE_MAX, and one not a
 * multiple of 8 where outputs are arrays: refused, nothing written. */
static void test_output_sizes(void **state)
{
    ctx *c = *state;
    const size_t sizes[] = { 0, sizeof(size_t), 65536 + 8, SIZE_MAX };
    for (size_t i = 0; i < N_ENTRIES; i++) {
        const entry *e = &entries[i];
        if (e->call == call_waste || e->call == call_attribute || e->call == call_attribute_part)
            continue; /* their output is a handle */
        req q;
        e->init(&q, c);
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            out_size_set = 1;
            out_size = sizes[k];
            char what[64];
            snprintf(what, sizeof what, "an output size of %zu", sizes[k]);
            expect_refused(c, e, &q, handles_of(c), TCO_E_SIZE, NULL, what);
        }
        out_size_set = 0;
    }
}

/* NULL requests, handles of the wrong kind, unfrozen handles. */
static void test_arguments(void **state)
{
    ctx *c = *state;
    scen open;
    scen_defaults(&open); /* the same kinds, never frozen */
    for (size_t i = 0; i < N_ENTRIES; i++) {
        const entry *e = &entries[i];
        req q;
        e->init(&q, c);
        if (e->null_refused)
            expect_refused(c, e, NULL, handles_of(c), TCO_E_NULL, NULL, "a NULL request");
        if (!e->handles)
            continue;
        args h = handles_of(c);
        h.t = (const tco_topology *)c->s.w; /* a workload passed as a topology */
        expect_refused(c, e, &q, h, TCO_E_TYPE, NULL, "a workload as the topology");
        h = handles_of(c);
        h.p = (const tco_pricing *)c->s.t;
        expect_refused(c, e, &q, h, TCO_E_TYPE, NULL, "a topology as the pricing");
        h = handles_of(c);
        h.t = open.t;
        expect_refused(c, e, &q, h, TCO_E_NOT_FROZEN, NULL, "an unfrozen topology");
        h = handles_of(c);
        h.t = NULL;
        expect_refused(c, e, &q, h, TCO_E_NULL, NULL, "a NULL topology");
        if (e->handles & H_W) {
            h = handles_of(c);
            h.w = open.w;
            expect_refused(c, e, &q, h, TCO_E_NOT_FROZEN, NULL, "an unfrozen workload");
            h = handles_of(c);
            h.w = (const tco_workload *)c->s.p;
            expect_refused(c, e, &q, h, TCO_E_TYPE, NULL, "a pricing as the workload");
        }
    }
    scen_free(&open);
}

/* A bad scalar argument: the code, the argument named, nothing written. */
static void test_arguments_scalar(void **state)
{
    ctx *c = *state;
    for (size_t i = 0; i < sizeof cat_arguments / sizeof cat_arguments[0]; i++) {
        const cat_case *a = &cat_arguments[i];
        tco_error err = TCO_ERROR_INIT;
        outputs_reset();
        int rc;
        if (!strcmp(a->entry, "sensitivity")) {
            tco_swing *out = out_at(0, sizeof(tco_swing));
            size_t *n = out_at(4096, 0);
            snapshot();
            rc = tco_sensitivity(out, sizeof *out, 1, n, a->real, c->s.t, c->s.w, c->s.p, &err);
        } else if (!strcmp(a->entry, "compute_optimal")) {
            tco_optimum *out = out_at(0, sizeof(tco_optimum));
            tco_estimate *e = out_at(4096, sizeof(tco_estimate));
            snapshot();
            rc = tco_compute_optimal(out, e, NULL, a->real, c->s.t, c->s.w, c->s.p, &err);
        } else if (!strcmp(a->entry, "capacity_split")) {
            tco_split *out = out_at(0, sizeof(tco_split));
            snapshot();
            rc = tco_capacity_split(out, cat_rate, sizeof cat_rate / sizeof cat_rate[0], a->real, c->s.t, c->s.w,
                                    c->s.p, &err);
        } else if (!strcmp(a->entry, "budget")) {
            tco_budget *out = out_at(0, sizeof(tco_budget));
            snapshot();
            rc = tco_budget_compute(out, cat_rate, sizeof cat_rate / sizeof cat_rate[0], a->real, NULL, 0, c->s.p, &err);
        } else {
            tco_loss *out = out_at(0, sizeof(tco_loss));
            snapshot();
            int params = !strcmp(a->name, "params");
            rc = tco_loss_at(out, NULL, params ? a->real : 7e10, params ? 1.4e12 : a->real, &err);
        }
        if (rc != a->code || strcmp(err.param_name, a->name) != 0 || !strstr(err.message, a->name))
            fail_msg("%s: %s = %s: got %s naming \"%s\" (%s), want %s naming it", a->entry, a->name, a->cls,
                     tco_status_name(rc), err.param_name, err.message, tco_status_name(a->code));
        if (memcmp(before, outbuf, sizeof outbuf) != 0)
            fail_msg("%s: %s = %s: a refused call changed its output", a->entry, a->name, a->cls);
    }
}

/* Monte Carlo's uncertain inputs: each case refused naming the parameter
 * and inputs[0], no value written. */
static void test_uncertain(void **state)
{
    (void)state;
    tco_uncertain in = cat_uncertain;
    assert_int_equal(tco_param_find(&in.key, cat_uncertain_param, NULL), TCO_OK);
    double values[4];
    assert_int_equal(tco_monte_carlo_draw(values, &in, 1, 0, 0, 4, NULL), TCO_OK);
    for (size_t i = 0; i < sizeof cat_uncertain_cases / sizeof cat_uncertain_cases[0]; i++) {
        const cat_set *cs = &cat_uncertain_cases[i];
        tco_uncertain bad = in;
        memcpy((char *)&bad + cs->offset, &cs->value, sizeof cs->value);
        tco_error err = TCO_ERROR_INIT;
        outputs_reset();
        double *out = out_at(0, 0);
        snapshot();
        int rc = tco_monte_carlo_draw(out, &bad, 1, 0, 0, 4, &err);
        if (rc != cs->code || strcmp(err.param_name, cat_uncertain_param) != 0 || !strstr(err.message, "inputs[0]"))
            fail_msg("%s: got %s naming \"%s\" (%s), want %s naming %s and inputs[0]", cs->what, tco_status_name(rc),
                     err.param_name, err.message, tco_status_name(cs->code), cat_uncertain_param);
        if (memcmp(before, outbuf, sizeof outbuf) != 0)
            fail_msg("%s: a refused draw wrote values", cs->what);
    }
}

/* Each bad text in each field of the FOCUS export's request: refused,
 * naming the field, nothing written (the length and the text buffer). */
static void test_focus_texts(void **state)
{
    ctx *c = *state;
    for (size_t i = 0; i < sizeof cat_focus_cases / sizeof cat_focus_cases[0]; i++) {
        const cat_focus *cf = &cat_focus_cases[i];
        tco_focus_request q = { .size = sizeof q };
        memcpy((char *)&q + cf->offset, &cf->text, sizeof cf->text);
        for (int with_buf = 0; with_buf < 2; with_buf++) {
            tco_error err = TCO_ERROR_INIT;
            outputs_reset();
            size_t *len = out_at(0, 0);
            memset(len, SENTINEL, sizeof *len);
            char *buf = (char *)outbuf + 64;
            snapshot();
            int rc = tco_attribution_focus_csv(c->a, tco_records_tags(c->rs), &q, with_buf ? buf : NULL,
                                               with_buf ? sizeof outbuf - 64 : 0, len, &err);
            if (rc != cf->code || strcmp(err.param_name, cf->name) != 0 || !strstr(err.message, cf->name))
                fail_msg("%s = %s: got %s naming \"%s\" (%s), want %s", cf->name, cf->cls, tco_status_name(rc),
                         err.param_name, err.message, tco_status_name(cf->code));
            if (memcmp(before, outbuf, sizeof outbuf) != 0)
                fail_msg("%s = %s: a refused call changed its output", cf->name, cf->cls);
        }
    }
}

/* The CSV and sacct readers: each bad text refused with its code and
 * field, the line in the message, *out untouched; a bad row without
 * TCO_READ_STRICT reported, naming the column, and skipped. */
static void test_readers(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cat_texts / sizeof cat_texts[0]; i++) {
        const cat_text *ct = &cat_texts[i];
        int (*read)(tco_records **, const char *, size_t, uint32_t, tco_error *) =
            ct->sacct ? tco_records_read_sacct : tco_records_read_csv;
        tco_error err = TCO_ERROR_INIT;
        tco_records *rs = (tco_records *)&err; /* a sentinel: must stay */
        int rc = read(&rs, ct->text, ct->len, TCO_READ_STRICT, &err);
        if (rc != ct->code || strcmp(err.param_name, ct->param) != 0 || !strstr(err.message, ct->param))
            fail_msg("%s: got %s naming \"%s\" (%s), want %s naming \"%s\"", ct->what, tco_status_name(rc),
                     err.param_name, err.message, tco_status_name(ct->code), ct->param);
        assert_ptr_equal(rs, (tco_records *)&err);
        if (!ct->line)
            continue;
        char line_text[32];
        snprintf(line_text, sizeof line_text, "line %d:", ct->line);
        if (!strstr(err.message, line_text))
            fail_msg("%s: \"%s\" does not say %s", ct->what, err.message, line_text);
        assert_int_equal(read(&rs, ct->text, ct->len, 0, NULL), TCO_OK);
        const char *reason;
        uint64_t line;
        assert_int_equal(tco_records_count(rs), 0);
        assert_int_equal(tco_records_bad_count(rs), 1);
        assert_int_equal(tco_records_bad_at(rs, 0, &line, &reason, NULL), TCO_OK);
        assert_int_equal(line, ct->line);
        if (!strstr(reason, ct->param))
            fail_msg("%s: the reason \"%s\" does not name %s", ct->what, reason, ct->param);
        tco_records_free(rs);
    }
}

/* The value of a sweep's class for a parameter of bounds lo to hi, as
 * gen_catalogue.py makes the fields' (a class that is a number is that
 * number; strtod reads nan and inf as their classes too). */
static double class_value(const char *cls, double lo, double hi)
{
    char *end;
    double v = strtod(cls, &end);
    if (end != cls && *end == '\0')
        return v;
    const struct {
        const char *cls;
        double v;
    } classes[] = { { "zero", 0 },       { "negative", -1 },  { "subnormal", 5e-324 },
                    { "huge", 1e308 },   { "-huge", -1e308 }, { "below", nextafter(lo, -INFINITY) },
                    { "above", nextafter(hi, INFINITY) },     { "fractional", floor(lo) + 1.5 } };
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (!strcmp(cls, classes[i].cls))
            return classes[i].v;
    fail_msg("unknown class %s", cls);
    return NAN;
}

static int handle_get(const ctx *c, const tco_param_info *in, double *v)
{
    return in->handle == TCO_HANDLE_TOPOLOGY   ? tco_topology_get(c->s.t, in->key, v, NULL)
           : in->handle == TCO_HANDLE_WORKLOAD ? tco_workload_get(c->s.w, in->key, v, NULL)
                                               : tco_pricing_get(c->s.p, in->key, v, NULL);
}

/* A sweep of two variations, the second set to the class's value: that
 * one's status the code and its estimate zeroed, the first priced, err
 * naming the parameter. */
static void test_sweep(void **state)
{
    ctx *c = *state;
    for (size_t i = 0; i < sizeof cat_sweep_cases / sizeof cat_sweep_cases[0]; i++) {
        const cat_sweep *cs = &cat_sweep_cases[i];
        tco_param_info in = { .size = sizeof in };
        int32_t key;
        double values[2];
        assert_int_equal(tco_param_find(&key, cs->param, NULL), TCO_OK);
        assert_int_equal(tco_param_info_get(&in, key, NULL), TCO_OK);
        assert_int_equal(handle_get(c, &in, &values[0]), TCO_OK);
        values[1] = class_value(cs->cls, in.min_value, in.max_value);
        tco_estimate out[2];
        int32_t status[2] = { 99, 99 };
        memset(out, SENTINEL, sizeof out);
        tco_error err = TCO_ERROR_INIT;
        int rc = tco_estimate_sweep(out, sizeof out[0], status, 2, &key, 1, values, c->s.t, c->s.w, c->s.p, &err);
        if (rc != TCO_OK || status[0] != TCO_OK || status[1] != cs->code || strcmp(err.param_name, cs->param) != 0 ||
            !strstr(err.message, cs->param))
            fail_msg("sweep %s = %s (%g): got %s, statuses %s and %s, naming \"%s\" (%s); want the second %s naming it",
                     cs->param, cs->cls, values[1], tco_status_name(rc), tco_status_name(status[0]),
                     tco_status_name(status[1]), err.param_name, err.message, tco_status_name(cs->code));
        assert_true(isfinite(out[0].total) && out[0].total > 0);
        static const unsigned char zero[sizeof(tco_estimate)];
        if (memcmp((char *)&out[1] + sizeof(size_t), zero, sizeof out[1] - sizeof(size_t)) != 0)
            fail_msg("sweep %s = %s: the refused variation's estimate is not zeroed", cs->param, cs->cls);
    }
    /* The arguments that make the whole sweep unusable: refused, nothing written. */
    int32_t mfu, currency, unknown = -1;
    assert_int_equal(tco_param_find(&mfu, "mfu", NULL), TCO_OK);
    assert_int_equal(tco_param_find(&currency, "currency", NULL), TCO_OK);
    const double values[2] = { 0.4, 0.5 };
    int32_t *status = out_at(32768, 0);
    const struct {
        const char *what;
        size_t out_size;
        int32_t *status;
        const int32_t *key;
        int code;
    } shared[] = {
        { "an out_size of 0", 0, status, &mfu, TCO_E_SIZE },
        { "an out_size below version 1", sizeof(size_t), status, &mfu, TCO_E_SIZE },
        { "an out_size past 65,536", 65536 + 8, status, &mfu, TCO_E_SIZE },
        { "an out_size of SIZE_MAX", SIZE_MAX, status, &mfu, TCO_E_SIZE },
        { "an out_size not a multiple of 8", sizeof(tco_estimate) + 4, status, &mfu, TCO_E_SIZE },
        { "a NULL status", sizeof(tco_estimate), NULL, &mfu, TCO_E_NULL },
        { "NULL keys", sizeof(tco_estimate), status, NULL, TCO_E_NULL },
        { "a key that is no parameter's", sizeof(tco_estimate), status, &unknown, TCO_E_UNKNOWN_PARAM },
        { "a text parameter", sizeof(tco_estimate), status, &currency, TCO_E_TYPE },
    };
    for (size_t k = 0; k < sizeof shared / sizeof shared[0]; k++) {
        tco_error err = TCO_ERROR_INIT;
        outputs_reset();
        snapshot();
        int rc = tco_estimate_sweep((tco_estimate *)outbuf, shared[k].out_size, shared[k].status, 2, shared[k].key, 1,
                                    values, c->s.t, c->s.w, c->s.p, &err);
        if (rc != shared[k].code || memcmp(before, outbuf, sizeof outbuf) != 0)
            fail_msg("sweep: %s: got %s (%s), want %s with nothing written", shared[k].what, tco_status_name(rc),
                     err.message, tco_status_name(shared[k].code));
    }
}

/* Option k of a comparison: the catalogue's scenario, and for k =
 * cat_compare_option the rows of case `which` set. */
static void option_new(scen *s, int k, int which)
{
    scen_defaults(s);
    ctx one = { .s = *s }; /* set_param reads its handles only */
    for (size_t i = 0; i < sizeof cat_params / sizeof cat_params[0]; i++)
        assert_int_equal(set_param(&one, &cat_params[i], NULL), TCO_OK);
    for (size_t i = 0; k == cat_compare_option && i < sizeof cat_compare_cases / sizeof cat_compare_cases[0]; i++) {
        const cat_compare *cc = &cat_compare_cases[i];
        if (cc->k != which)
            continue;
        tco_param_info in = { .size = sizeof in };
        int32_t key;
        assert_int_equal(tco_param_find(&key, cc->name, NULL), TCO_OK);
        assert_int_equal(tco_param_info_get(&in, key, NULL), TCO_OK);
        const cat_param number = { tco_handle_kind_name(in.handle), cc->name, cc->value };
        int rc = !cc->text                           ? set_param(&one, &number, NULL)
                 : in.handle == TCO_HANDLE_TOPOLOGY ? tco_topology_set_text(s->t, key, cc->text, NULL)
                 : in.handle == TCO_HANDLE_WORKLOAD ? tco_workload_set_text(s->w, key, cc->text, NULL)
                                                    : tco_pricing_set_text(s->p, key, cc->text, NULL);
        assert_int_equal(rc, TCO_OK);
    }
    scen_freeze(s);
}

/* A comparison of three options, option 2 made bad: refused with the code,
 * naming the parameter and the option, nothing written; then the
 * arguments every call shares: the output size, no option, NULL arrays,
 * a handle of the wrong kind, unfrozen or NULL. */
static void test_compare(void **state)
{
    (void)state; /* each option has handles of its own */
    enum { N = 3 };
    assert_int_equal(cat_compare_option, N - 1); /* the last option is the one made bad */
    int cases = 0;
    for (size_t i = 0; i < sizeof cat_compare_cases / sizeof cat_compare_cases[0]; i++)
        cases = cat_compare_cases[i].k + 1 > cases ? cat_compare_cases[i].k + 1 : cases;
    for (int which = 0; which <= cases; which++) { /* the last: every option valid */
        scen o[N];
        const tco_topology *ts[N];
        const tco_workload *ws[N];
        const tco_pricing *ps[N];
        for (int k = 0; k < N; k++) {
            option_new(&o[k], k, which);
            ts[k] = o[k].t, ws[k] = o[k].w, ps[k] = o[k].p;
        }
        const cat_compare *cc = NULL;
        for (size_t i = 0; i < sizeof cat_compare_cases / sizeof cat_compare_cases[0] && !cc; i++)
            cc = cat_compare_cases[i].k == which ? &cat_compare_cases[i] : NULL;
        tco_error err = TCO_ERROR_INIT;
        outputs_reset();
        snapshot();
        int rc = tco_compare((tco_option *)outbuf, sizeof(tco_option), N, ts, ws, ps, &err);
        if (!cc) {
            if (rc != TCO_OK)
                fail_msg("compare: the valid options fail: %s", err.message);
            /* The arguments: each refused, nothing written. */
            const size_t sizes[] = { 0, sizeof(size_t), 65536 + 8, SIZE_MAX, sizeof(tco_option) + 4 };
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                outputs_reset();
                snapshot();
                if (tco_compare((tco_option *)outbuf, sizes[k], N, ts, ws, ps, NULL) != TCO_E_SIZE ||
                    memcmp(before, outbuf, sizeof outbuf) != 0)
                    fail_msg("compare: out_size %zu is not refused with nothing written", sizes[k]);
            }
            scen open;
            scen_defaults(&open);
            const tco_topology *bad_t[N] = { ts[0], (const tco_topology *)ws[1], ts[2] };
            const tco_topology *open_t[N] = { ts[0], open.t, ts[2] };
            const tco_topology *null_t[N] = { ts[0], NULL, ts[2] };
            const struct {
                const char *what;
                size_t n;
                const tco_topology *const *t;
                int code;
            } shared[] = {
                { "no option", 0, ts, TCO_E_RANGE },
                { "NULL topologies", N, NULL, TCO_E_NULL },
                { "a workload as option 1's topology", N, bad_t, TCO_E_TYPE },
                { "an unfrozen topology", N, open_t, TCO_E_NOT_FROZEN },
                { "a NULL topology", N, null_t, TCO_E_NULL },
            };
            for (size_t k = 0; k < sizeof shared / sizeof shared[0]; k++) {
                outputs_reset();
                snapshot();
                rc = tco_compare((tco_option *)outbuf, sizeof(tco_option), shared[k].n, shared[k].t, ws, ps, &err);
                if (rc != shared[k].code || memcmp(before, outbuf, sizeof outbuf) != 0)
                    fail_msg("compare: %s: got %s (%s), want %s with nothing written", shared[k].what,
                             tco_status_name(rc), err.message, tco_status_name(shared[k].code));
            }
            scen_free(&open);
        } else {
            char option[32];
            snprintf(option, sizeof option, "option %d", cat_compare_option);
            if (rc != cc->code || strcmp(err.param_name, cc->param) != 0 || !strstr(err.message, option))
                fail_msg("compare, %s set: got %s naming \"%s\" (%s), want %s naming %s and %s", cc->name,
                         tco_status_name(rc), err.param_name, err.message, tco_status_name(cc->code), cc->param,
                         option);
            if (memcmp(before, outbuf, sizeof outbuf) != 0)
                fail_msg("compare, %s set: a refused comparison wrote its output", cc->name);
        }
        for (int k = 0; k < N; k++)
            scen_free(&o[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_arguments_scalar),
        cmocka_unit_test(test_output_sizes),
        cmocka_unit_test(test_uncertain),
        cmocka_unit_test(test_readers),
        cmocka_unit_test(test_focus_texts),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_compare),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
