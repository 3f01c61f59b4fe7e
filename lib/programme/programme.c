/* A programme of stages (doc/model.md, section 21): each stage priced as
 * tco_estimate_compute prices it, placed on a time line over one cluster,
 * charged its share of the cluster's hours while stages overlap, and the
 * versions each keeps stored to the programme's end. A data pipeline
 * stage is priced by tco_data_pipeline_compute and a serving stage by
 * tco_serving_compute, each called once, in pass one: neither holds the
 * cluster's accelerators (section 21, "The data pipeline and serving").
 *
 * Two passes, as tco_compare: the first derives every run and lays out the
 * time line (everything that can fail), the second derives the runs again
 * (a pure function of frozen handles), prices them and writes. Working
 * memory is on the stack, bounded by TCO_STAGES_MAX: nothing allocates
 * but a serving stage's split (the selection of its baseline). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"

#define P(k) (p->v[IX_##k])

/* New in 1.1; the first versions end where the second's appended members start. */
#define STAGE_V1_SIZE offsetof(tco_stage, pipeline) /* sizeof the first version */
#define RESULT_V1_SIZE V1_SIZE(tco_stage_result, store_gb)
#define PROGRAMME_V1_SIZE V1_SIZE(tco_programme, store_growth_gb_per_month)
#define VERSIONS_MAX 1000000
#define CPU_NODES_MAX 1e6
#define TIER_DAYS_MAX 36500.0 /* a hundred years */
#define LABEL_MAX (TCO__SHOW_MAX + 32) /* "stages[255] (" the name ")" */

static const char *const kind_names[] = {
    NULL, "pretraining", "context_extension", "supervised_fine_tuning", "preference_tuning",
    "evaluation", "sweep", "ablation", "data_pipeline", "serving",
};
enum { KINDS = sizeof kind_names / sizeof kind_names[0] };

const char *tco_stage_kind_name(int32_t kind)
{
    return kind >= 1 && kind < KINDS ? kind_names[kind] : NULL;
}

/* What the time line needs of a stage; hours. */
typedef struct slot {
    double start, end, length; /* length = end - start */
    double held;               /* the estimate's held hours, its runs one after another */
    double accelerators;       /* held while it runs */
    double concurrent, waves;
    double share_lost;         /* hours x (1 - its share of the accelerators held), while it overlaps */
    /* A data pipeline or a serving stage: what its call priced. */
    double cost[3];            /* compute, storage and network lines charged in the stage, cur */
    double gb;                 /* a pipeline's prepared data */
    double kept_months;        /* its request's storage_months: 0, kept to the programme's end */
    double warm_after, cold_after; /* hours after its end the stored data moves tier; 0: never */
    double tokens;             /* served, prompt and output */
    double per_million;        /* the serving's cost per million tokens */
    double node_hours, fleet_peak, fleet_hours;
} slot;

static const tco_stage *stage_at(const tco_stage *stages, size_t stride, size_t i)
{
    return (const tco_stage *)(const void *)((const char *)stages + i * stride);
}

/* Stage i as this version knows it: the members a first-version caller
 * did not have are zero. */
static tco_stage stage_read(const tco_stage *stages, size_t stride, size_t i)
{
    tco_stage s;
    memset(&s, 0, sizeof s);
    memcpy(&s, stage_at(stages, stride, i), stride < sizeof s ? stride : sizeof s);
    return s;
}

static int sweeps(int32_t kind)
{
    return kind == TCO_STAGE_SWEEP || kind == TCO_STAGE_ABLATION;
}

/* A data pipeline or a serving stage: priced by its own call, off the cluster. */
static int off_cluster(int32_t kind)
{
    return kind == TCO_STAGE_DATA_PIPELINE || kind == TCO_STAGE_SERVING;
}

/* "stages[2] (\"sft\")" or "stages[2]": how messages name a stage. */
static const char *label(char *buf, size_t cap, const tco_stage *s, size_t i)
{
    if (!s->name || !s->name[0]) {
        snprintf(buf, cap, "stages[%zu]", i);
        return buf;
    }
    char shown[TCO__SHOW_MAX];
    tco__show(shown, sizeof shown, s->name, strlen(s->name));
    snprintf(buf, cap, "stages[%zu] (%s)", i, shown);
    return buf;
}

/* The members that belong to one kind: its request given on that kind
 * only, cpu_nodes on a data pipeline only; versions kept by a kind that
 * checkpoints. */
static int kind_members_check(const tco_stage *s, size_t i, tco_error *err)
{
    char name[TCO_ERROR_PARAM_NAME_MAX], who[LABEL_MAX];
    const char *kind = tco_stage_kind_name(s->kind);
    int pipe = s->kind == TCO_STAGE_DATA_PIPELINE, serve = s->kind == TCO_STAGE_SERVING;
    if (pipe != (s->pipeline != NULL) || serve != (s->serving != NULL)) {
        int missing = pipe ? !s->pipeline : serve ? !s->serving : 0;
        const char *member = (pipe || (!serve && s->pipeline)) ? "pipeline" : "serving";
        snprintf(name, sizeof name, "stages[%zu].%s", i, member);
        if (missing)
            return tco__fail_named(err, TCO_E_NULL, name, "%s is a %s stage: %s must not be NULL (its request)",
                                   label(who, sizeof who, s, i), kind, name);
        return tco__fail_named(err, TCO_E_INCONSISTENT, name,
                               "%s is a %s stage: %s is given, but only a %s stage reads one (leave it NULL)",
                               label(who, sizeof who, s, i), kind, name,
                               tco_stage_kind_name(s->pipeline ? TCO_STAGE_DATA_PIPELINE : TCO_STAGE_SERVING));
    }
    double c = s->cpu_nodes;
    if (pipe ? !(c >= 1 && c <= CPU_NODES_MAX && c == floor(c)) : c != 0) {
        snprintf(name, sizeof name, "stages[%zu].cpu_nodes", i); /* only now: messages are slow to print */
        if (!isfinite(c))
            return tco__fail_named(err, TCO_E_NOT_FINITE, name, "%s must be a finite number, not %g", name, c);
        if (pipe)
            return tco__fail_named(err, TCO_E_RANGE, name,
                                   "%s = %g is out of range: allowed a whole number 1 to %g (the CPU nodes the "
                                   "preprocessing runs on)", name, c, CPU_NODES_MAX);
        return tco__fail_named(err, TCO_E_RANGE, name, "%s = %g: allowed 0 only, for a %s stage (a data pipeline "
                               "stage runs on CPU nodes)", name, c, kind);
    }
    static const char *const tier[2] = { "warm_after_days", "cold_after_days" };
    const double days[2] = { s->warm_after_days, s->cold_after_days };
    for (int k = 0; k < 2; k++) {
        double d = days[k];
        if (d == 0)
            continue;
        snprintf(name, sizeof name, "stages[%zu].%s", i, tier[k]);
        if (!isfinite(d))
            return tco__fail_named(err, TCO_E_NOT_FINITE, name, "%s must be a finite number, not %g", name, d);
        if (serve)
            return tco__fail_named(err, TCO_E_RANGE, name, "%s = %g: allowed 0 only, for a serving stage (it "
                                   "leaves nothing in the store)", name, d);
        if (!(d > 0 && d <= TIER_DAYS_MAX))
            return tco__fail_named(err, TCO_E_RANGE, name, "%s = %g is out of range: allowed 0 (never) or above 0 "
                                   "to %g days", name, d, TIER_DAYS_MAX);
        if (k == 1 && days[0] > 0 && !(d > days[0]))
            return tco__fail_named(err, TCO_E_RANGE, name, "%s = %g: allowed above warm_after_days, %g (the cold "
                                   "tier comes after the warm one), or 0", name, d, days[0]);
    }
    if (off_cluster(s->kind) && s->versions_kept != 0) {
        snprintf(name, sizeof name, "stages[%zu].versions_kept", i);
        return tco__fail_named(err, TCO_E_RANGE, name, "%s = %d: allowed 0 only, for a %s stage (it writes no "
                               "checkpoints%s)", name, (int)s->versions_kept, kind,
                               pipe ? "; its prepared data joins the store" : "");
    }
    return TCO_OK;
}

static int stage_check(const tco_stage *raw, const tco_stage *s, size_t i, size_t stride, tco_error *err)
{
    char name[TCO_ERROR_PARAM_NAME_MAX];
    if (s->size != stride) {
        snprintf(name, sizeof name, "stages[%zu].size", i);
        return tco__fail_named(err, TCO_E_SIZE, name, "%s = %zu: every stage has the size of stages[0], %zu", name,
                               s->size, stride);
    }
    if (stride > sizeof *s) { /* a newer caller's: its tail must be zero */
        snprintf(name, sizeof name, "stages[%zu]", i);
        int rc = tco__input_tail_check(raw, stride, sizeof *s, name, err);
        if (rc)
            return rc;
    }
    if (!tco_stage_kind_name(s->kind)) {
        snprintf(name, sizeof name, "stages[%zu].kind", i);
        return tco__fail_named(err, TCO_E_RANGE, name,
                               "%s = %d: allowed %d (TCO_STAGE_PRETRAINING) to %d (TCO_STAGE_SERVING)", name,
                               (int)s->kind, 1, KINDS - 1);
    }
    if (!(s->after == TCO_STAGE_START || (s->after >= 0 && (size_t)s->after < i))) {
        snprintf(name, sizeof name, "stages[%zu].after", i);
        if (i == 0)
            return tco__fail_named(err, TCO_E_RANGE, name, "%s = %d: allowed -1 (the programme's start) only, for the first stage",
                                   name, (int)s->after);
        return tco__fail_named(err, TCO_E_RANGE, name,
                               "%s = %d: allowed -1 (the programme's start) or an earlier stage, 0 to %zu", name,
                               (int)s->after, i - 1);
    }
    if (s->n_also_after > TCO_STAGES_MAX || (s->n_also_after && !s->also_after) ||
        (s->also_after && !s->n_also_after)) {
        snprintf(name, sizeof name, "stages[%zu].n_also_after", i);
        return tco__fail_named(err, s->n_also_after > TCO_STAGES_MAX ? TCO_E_RANGE : TCO_E_NULL, name,
                               "%s = %zu with also_after %s: give both (0 to %d earlier stages) or neither (NULL, 0)",
                               name, s->n_also_after, s->also_after ? "given" : "NULL", TCO_STAGES_MAX);
    }
    for (size_t k = 0; k < s->n_also_after; k++)
        if (!(s->also_after[k] >= 0 && (size_t)s->also_after[k] < i)) {
            snprintf(name, sizeof name, "stages[%zu].also_after[%zu]", i, k);
            if (i == 0)
                return tco__fail_named(err, TCO_E_RANGE, name, "%s = %d: the first stage has no earlier stage to "
                                       "start after", name, (int)s->also_after[k]);
            return tco__fail_named(err, TCO_E_RANGE, name, "%s = %d: allowed an earlier stage, 0 to %zu", name,
                                   (int)s->also_after[k], i - 1);
        }
    if (s->versions_kept < 0 || s->versions_kept > VERSIONS_MAX) {
        snprintf(name, sizeof name, "stages[%zu].versions_kept", i);
        return tco__fail_named(err, TCO_E_RANGE, name, "%s = %d: allowed 0 to %d checkpoints kept", name,
                               (int)s->versions_kept, VERSIONS_MAX);
    }
    if (!s->workload) {
        snprintf(name, sizeof name, "stages[%zu].workload", i);
        return tco__fail_named(err, TCO_E_NULL, name, "%s must not be NULL", name);
    }
    return kind_members_check(s, i, err);
}

/* A frozen handle of its kind, named as the caller knows it. */
static int handle_check(const tco_obj *o, int32_t kind, const char *name, tco_error *err)
{
    if (!o)
        return tco__fail_named(err, TCO_E_NULL, name, "%s must not be NULL", name);
    tco_error why = TCO_ERROR_INIT;
    if (tco__kind_check(o, kind, &why))
        return tco__refail(err, &why, "%s: %s", name, why.message);
    if (!o->frozen)
        return tco__fail_named(err, TCO_E_NOT_FROZEN, name, "%s must be frozen first", name);
    return TCO_OK;
}

/* A stage's request refused: its field named within the stage,
 * "request.rate" as "stages[3].serving.rate", "pipeline.nat_per_gb" as
 * "stages[0].pipeline.nat_per_gb"; a parameter keeps its own name. */
static int request_fail(tco_error *err, const tco_error *why, const tco_stage *s, size_t i, const char *member)
{
    char who[LABEL_MAX], name[TCO_ERROR_PARAM_NAME_MAX + 16];
    label(who, sizeof who, s, i);
    if (why->param || !why->param_name[0])
        return tco__refail(err, why, "%s, its %s request: %s", who, member, why->message);
    const char *dot = strchr(why->param_name, '.');
    snprintf(name, sizeof name, "stages[%zu].%s%s", i, member, dot ? dot : "");
    if (strlen(name) >= TCO_ERROR_PARAM_NAME_MAX) /* past the error's room: the field alone */
        snprintf(name, sizeof name, "%s", why->param_name);
    return tco__fail_named(err, why->code, name, "%s, its %s request: %s", who, member, why->message);
}

/* Pass one of a data pipeline or a serving stage: its call, once. */
static int off_cluster_price(slot *x, const tco_stage *s, size_t i, const tco_topology *topology,
                             const tco_pricing *pricing, tco_error *err)
{
    tco_error why = TCO_ERROR_INIT;
    if (s->kind == TCO_STAGE_DATA_PIPELINE) {
        tco_pipeline q = { .size = sizeof q };
        if (tco_data_pipeline_compute(&q, s->pipeline, topology, s->workload, pricing, &why))
            return request_fail(err, &why, s, i, "pipeline");
        x->length = q.preprocess_node_hours / s->cpu_nodes;
        x->cost[0] = q.preprocess_cost;
        x->cost[1] = q.request_cost; /* its storage line is the store's, in the lifecycle */
        x->cost[2] = q.ingress_cost + q.nat_cost;
        x->gb = q.storage_gb;
        x->kept_months = s->pipeline->storage_months > 0 ? q.storage_months : 0;
        x->node_hours = q.preprocess_node_hours;
    } else {
        tco_serving q = { .size = sizeof q };
        if (tco_serving_compute(&q, NULL, NULL, 0, s->serving, topology, s->workload, pricing, &why))
            return request_fail(err, &why, s, i, "serving");
        x->length = q.hours;
        x->cost[0] = q.total_cost;
        x->tokens = q.prompt_tokens + q.output_tokens;
        x->per_million = q.cost_per_million_tokens;
        x->fleet_peak = q.peak_accelerators;
        x->fleet_hours = q.accelerator_hours;
    }
    return TCO_OK;
}

/* Accelerators held at hour x by stages [0, upto) other than `except`. */
static double held_at(const slot *sl, size_t upto, size_t except, double x)
{
    double a = 0;
    for (size_t j = 0; j < upto; j++)
        if (j != except && sl[j].start <= x && x < sl[j].end)
            a += sl[j].accelerators;
    return a;
}

/* Pass one: the run and the place on the time line of every stage. */
static int time_line(slot *sl, const tco_stage *stages, size_t stride, size_t n, const tco_topology *topology,
                     const tco_pricing *pricing, tco_error *err)
{
    const tco_obj *t = &topology->o, *p = &pricing->o;
    double N = t->v[IX_ACCELERATORS];
    char who[LABEL_MAX], other[LABEL_MAX];
    tco_error why = TCO_ERROR_INIT;
    train_run r;
    int rc;
    memset(sl, 0, n * sizeof *sl);
    for (size_t i = 0; i < n; i++) {
        tco_stage st = stage_read(stages, stride, i);
        const tco_stage *s = &st;
        const tco_obj *w = &s->workload->o;
        slot *x = &sl[i];
        x->start = s->after == TCO_STAGE_START ? 0 : sl[s->after].end;
        x->warm_after = s->warm_after_days * 24;
        x->cold_after = s->cold_after_days * 24;
        for (size_t k = 0; k < s->n_also_after; k++)
            x->start = fmax(x->start, sl[s->also_after[k]].end);
        if (off_cluster(s->kind)) {
            if ((rc = off_cluster_price(x, s, i, topology, pricing, err)))
                return rc;
            x->end = x->start + x->length;
            continue;
        }
        double need = job_accelerators(t, w);
        if (need > N)
            return tco__fail_param(err, TCO_E_INCONSISTENT, IX_JOB_ACCELERATORS,
                                   "%s needs %g accelerators, the cluster has %g: allowed 1 to %g",
                                   label(who, sizeof who, s, i), need, N, N);
        if (tco__run_derive(&r, t, w, p, &why))
            return tco__refail(err, &why, "%s: %s", label(who, sizeof who, s, i), why.message);
        x->held = r.held;
        double per_run = r.wall + r.retry_h, queue = w->v[IX_QUEUE_WAIT_HOURS];
        x->concurrent = 1;
        if (sweeps(s->kind) && r.runs > 1) {
            /* Side by side, as many runs as the accelerators the earlier
             * stages leave free at its start hold, at least one. */
            double k = floor((N - held_at(sl, i, i, x->start)) / r.n);
            x->concurrent = fmin(fmax(k, 1), r.runs);
        }
        x->waves = ceil(r.runs / x->concurrent);
        x->length = x->concurrent == 1 ? r.held : queue + x->waves * per_run;
        x->end = x->start + x->length;
        x->accelerators = x->concurrent * r.n;
    }
    /* The most held at once is held at some stage's start; the last stage
     * found is named first, with the first other holding accelerators. */
    for (size_t i = n; i-- > 0;) {
        double at = sl[i].start, others = held_at(sl, n, i, at);
        if (others + sl[i].accelerators > N) {
            size_t j = 0;
            while (j == i || !(sl[j].accelerators > 0 && sl[j].start <= at && at < sl[j].end))
                j++;
            tco_stage a = stage_read(stages, stride, i), b = stage_read(stages, stride, j);
            return tco__fail(err, TCO_E_INCONSISTENT,
                             "%s and %s hold %g accelerators at hour %g, the cluster has %g: allowed up to %g at "
                             "once (start one after the other)",
                             label(who, sizeof who, &a, i), label(other, sizeof other, &b, j),
                             others + sl[i].accelerators, at, N, N);
        }
    }
    return TCO_OK;
}

/* While stages overlap, each pays the cluster's hours in proportion to the
 * accelerators it holds: share_lost is what a stage does not pay of its
 * length (0 when it never overlaps, so that a stage alone pays its
 * estimate exactly). Stages that hold none (a data pipeline, serving)
 * take no share. Returns the hours in which no stage holds the cluster. */
static double shares(slot *sl, size_t n)
{
    double cut[2 * TCO_STAGES_MAX];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        cut[m++] = sl[i].start;
        cut[m++] = sl[i].end;
    }
    for (size_t i = 1; i < m; i++) /* insertion sort: a few dozen values */
        for (size_t j = i; j > 0 && cut[j - 1] > cut[j]; j--) {
            double v = cut[j];
            cut[j] = cut[j - 1];
            cut[j - 1] = v;
        }
    double idle = 0;
    for (size_t c = 0; c + 1 < m; c++) {
        double a = cut[c], b = cut[c + 1]; /* b >= a: a segment of length 0 adds 0 */
        double all = 0;
        size_t active = 0;
        for (size_t j = 0; j < n; j++)
            if (sl[j].accelerators > 0 && sl[j].start <= a && a < sl[j].end) {
                all += sl[j].accelerators;
                active++;
            }
        if (active == 0)
            idle += b - a;
        if (active < 2)
            continue;
        for (size_t j = 0; j < n; j++)
            if (sl[j].accelerators > 0 && sl[j].start <= a && a < sl[j].end)
                sl[j].share_lost += (b - a) * (1 - sl[j].accelerators / all);
    }
    return idle;
}

/* gb stored for h hours from a stage's end: hot, then warm and cold from
 * the stage's warm_after and cold_after hours (0: never). */
static double stored_cost(const slot *x, double gb, double h, const tco_obj *p)
{
    double hot = P(STORAGE_HOT_PER_GB_MONTH);
    if (x->warm_after == 0 && x->cold_after == 0)
        return x->kept_months > 0 ? gb * x->kept_months * hot : gb * h / HOURS_PER_MONTH * hot;
    double to_warm = x->warm_after > 0 ? x->warm_after : INFINITY;
    double to_cold = x->cold_after > 0 ? x->cold_after : INFINITY;
    double hot_h = fmin(h, fmin(to_warm, to_cold));
    double warm_h = to_warm < h ? fmin(h, to_cold) - to_warm : 0;
    double cold_h = to_cold < h ? h - to_cold : 0;
    return gb * (hot_h * hot + warm_h * P(STORAGE_WARM_PER_GB_MONTH) + cold_h * P(STORAGE_COLD_PER_GB_MONTH)) /
           HOURS_PER_MONTH;
}

static void result_write(tco_stage_result *results, size_t result_size, size_t i, tco_stage_result *o)
{
    char *at = (char *)results + i * result_size;
    o->size = result_size;
    memcpy(at, o, result_size < sizeof *o ? result_size : sizeof *o);
    if (result_size > sizeof *o)
        memset(at + sizeof *o, 0, result_size - sizeof *o);
}

int tco_programme_compute(tco_programme *out, tco_stage_result *results, size_t result_size, const tco_stage *stages,
                          size_t n, const tco_topology *topology, const tco_pricing *pricing, tco_error *err)
{
    if (!out || !stages)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "stages");
    if (out->size < PROGRAMME_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_programme", out->size, PROGRAMME_V1_SIZE);
    if (!results != !result_size)
        return tco__fail_named(err, results ? TCO_E_SIZE : TCO_E_NULL, results ? "result_size" : "results",
                               "results and result_size: give both (n results of result_size bytes) or neither (NULL, 0)");
    int rc;
    if (results && (rc = tco__stride_check(result_size, RESULT_V1_SIZE, "result_size", "tco_stage_result", err)))
        return rc;
    if (n < 1 || n > TCO_STAGES_MAX)
        return tco__fail_named(err, TCO_E_RANGE, "n", "n = %zu stages: allowed 1 to %d", n, TCO_STAGES_MAX);
    size_t stride = stages[0].size;
    if (stride < STAGE_V1_SIZE || stride > INPUT_MAX_SIZE || stride % 8 != 0)
        return tco__fail_named(err, TCO_E_SIZE, "stages[0].size",
                               "stages[0].size = %zu: give sizeof(tco_stage), from %zu to %d and a multiple of 8", stride,
                               STAGE_V1_SIZE, INPUT_MAX_SIZE);
    if ((rc = handle_check(topology ? &topology->o : NULL, TCO_HANDLE_TOPOLOGY, "topology", err)) ||
        (rc = handle_check(pricing ? &pricing->o : NULL, TCO_HANDLE_PRICING, "pricing", err)))
        return rc;
    char name[TCO_ERROR_PARAM_NAME_MAX];
    for (size_t i = 0; i < n; i++) {
        tco_stage s = stage_read(stages, stride, i);
        if ((rc = stage_check(stage_at(stages, stride, i), &s, i, stride, err)))
            return rc;
        if (s.workload->o.kind == TCO_HANDLE_WORKLOAD && s.workload->o.frozen)
            continue;
        snprintf(name, sizeof name, "stages[%zu].workload", i); /* only now: messages are slow to print */
        return handle_check(&s.workload->o, TCO_HANDLE_WORKLOAD, name, err); /* it fails, naming why */
    }
    const tco_obj *t = &topology->o, *p = &pricing->o;

    slot sl[TCO_STAGES_MAX];
    if ((rc = time_line(sl, stages, stride, n, topology, pricing, err)))
        return rc;
    double idle = shares(sl, n);

    /* Pass two: nothing below fails. */
    tco_programme g;
    memset(&g, 0, sizeof g);
    g.size = sizeof g;
    g.stages = (int32_t)n;
    g.cluster_accelerators = t->v[IX_ACCELERATORS];
    size_t cats = tco_category_count();
    static const int32_t off_cats[3] = { TCO_CAT_COMPUTE, TCO_CAT_STORAGE, TCO_CAT_NETWORK };
    double totals[TCO_STAGES_MAX], gb[TCO_STAGES_MAX];
    train_run r;
    tco_estimate e;
    for (size_t i = 0; i < n; i++) {
        tco_stage st = stage_read(stages, stride, i);
        const tco_stage *s = &st;
        const tco_obj *w = &s->workload->o;
        const slot *x = &sl[i];
        tco_stage_result o;
        memset(&o, 0, sizeof o);
        o.kind = s->kind;
        o.after = s->after;
        o.start_hours = x->start;
        o.end_hours = x->end;
        if (off_cluster(s->kind)) {
            /* Priced by its own call in pass one, charged whole. */
            for (int c = 0; c < 3; c++) {
                o.cost[off_cats[c]] = x->cost[c];
                g.cost[off_cats[c]] += x->cost[c];
            }
            o.total = x->cost[0] + x->cost[1] + x->cost[2];
            o.estimate_total = o.total;
            o.cluster_share = 1;
            o.tokens = x->tokens;
            o.cost_per_million_tokens = x->per_million;
            o.store_gb = gb[i] = x->gb;
            o.cpu_node_hours = x->node_hours;
            o.fleet_peak_accelerators = x->fleet_peak;
            o.fleet_accelerator_hours = x->fleet_hours;
            if (s->kind == TCO_STAGE_DATA_PIPELINE)
                g.pipeline_total += o.total;
            else {
                g.serving_total += o.total;
                g.served_tokens += x->tokens;
            }
        } else {
            (void)tco__run_derive(&r, t, w, p, NULL); /* it succeeded in pass one, on the same handles */
            tco__estimate_run(&e, &r, t, w, p);
            o.estimate_total = e.total;
            o.cluster_share = (x->length - x->share_lost) / x->held;
            for (size_t c = 0; c < cats; c++) {
                o.cost[c] = e.cost[c] * o.cluster_share;
                o.total += o.cost[c];
                g.cost[c] += o.cost[c];
            }
            o.accelerators = x->accelerators;
            o.runs = r.runs;
            o.concurrent_runs = x->concurrent;
            o.waves = x->waves;
            o.cost_per_run = o.total / r.runs;
            o.effective_accelerator_hours = e.effective_accelerator_hours;
            o.cost_per_effective_accelerator_hour = o.total / e.effective_accelerator_hours;
            o.tokens = r.tokens * r.runs;
            o.cost_per_million_tokens = r.tokens > 0 ? o.total / (r.tokens * r.runs / 1e6) : 0;
            o.store_gb = gb[i] = s->versions_kept * r.ckpt / 1e9;
            g.runs += r.runs;
            g.accelerator_hours += x->accelerators * x->length;
        }
        totals[i] = o.total;
        g.stages_total += o.total;
        if (x->end > g.makespan_hours)
            g.makespan_hours = x->end;
        if (results)
            result_write(results, result_size, i, &o);
    }
    for (size_t i = 0; i < n; i++) {
        double at = sl[i].start, held = sl[i].accelerators + held_at(sl, n, i, at);
        if (held > g.peak_accelerators)
            g.peak_accelerators = held;
    }
    /* The store: versions kept from their stage's end to the programme's
     * end; a pipeline's prepared data likewise, or for the months its
     * request keeps it; hot, or moved down the tiers after the stage's
     * days. */
    double M = g.makespan_hours;
    for (size_t i = 0; i < n; i++) {
        double kept = sl[i].kept_months;
        g.storage_lifecycle += stored_cost(&sl[i], gb[i], kept > 0 ? kept * HOURS_PER_MONTH : M - sl[i].end, p);
        if (!(kept > 0) || sl[i].end + kept * HOURS_PER_MONTH >= M)
            g.store_gb += gb[i];
    }
    g.cost[TCO_CAT_STORAGE] += g.storage_lifecycle;
    g.total = g.stages_total + g.storage_lifecycle;
    for (size_t c = 0; c < cats; c++)
        g.share[c] = g.total > 0 ? g.cost[c] / g.total : 0;
    g.makespan_months = M / HOURS_PER_MONTH;
    g.cluster_hours = idle > 0 ? M - idle : M;
    g.utilisation = g.cluster_hours > 0 ? g.accelerator_hours / (g.cluster_accelerators * g.cluster_hours) : 0;
    g.cost_per_experiment = g.runs > 0 ? (g.total - g.serving_total) / g.runs : 0;
    g.store_growth_gb_per_month = M > 0 ? g.store_gb / g.makespan_months : 0;
    g.cost_per_million_tokens_served = g.served_tokens > 0 ? g.serving_total / (g.served_tokens / 1e6) : 0;
    if (results)
        for (size_t i = 0; i < n; i++) {
            double share = g.total > 0 ? totals[i] / g.total : 0;
            memcpy((char *)results + i * result_size + offsetof(tco_stage_result, share), &share, sizeof share);
        }
    sized_fill(out, &g, sizeof g);
    return TCO_OK;
}
