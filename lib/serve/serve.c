/* Serving: the accelerators a request or token rate series needs at a
 * latency target, the fixed/elastic split of that fleet and its cost per
 * million tokens (doc/model.md, "Serving").
 *
 * A replica is worked out once per call (a few tensor-parallel sizes at
 * most); the series is then read twice, once to select the split's
 * baseline (capacity/series.c, the split's only allocation) and once to
 * sum it, and written a third time into the caller's array when given.
 * Each point's accelerators, tp x ceil(rate / throughput), grow with the
 * rate, so the baseline selected among the rates maps to the one
 * tco_capacity_split selects among the accelerators: no series of
 * accelerators is ever built here. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capacity/capacity.h"
#include "model/model.h"

#define T(k) (t->v[IX_##k])
#define W(k) (w->v[IX_##k])

#define REQUEST_V1_SIZE sizeof(tco_serve_request)
#define SERVING_V1_SIZE sizeof(tco_serving)
#define TP_MAX 4096
#define EXACT_MAX 9007199254740992.0 /* 2^53: the largest count every double below holds exactly */

void tco_serve_request_init(tco_serve_request *q)
{
    if (!q)
        return;
    memset(q, 0, sizeof *q);
    q->size = sizeof *q;
    q->interval_seconds = 60;
    q->rate_unit = TCO_SERVE_REQUESTS_PER_SECOND;
    q->tensor_parallel = 0;
    q->prompt_tokens = 1024;
    q->output_tokens = 256;
    q->time_per_output_token = 0.1; /* 10 tokens/s per user, faster than one reads */
    q->time_to_first_token = 0;
    q->flops_share = 0.5;
    q->bandwidth_share = 0.7;
    q->memory_share = 0.9;  /* vLLM's gpu_memory_utilization default */
    q->max_batch = 256;     /* vLLM's max_num_seqs default */
    q->memory_bandwidth_bytes_per_s = 0;
}

const char *tco_serve_limit_name(int32_t limit)
{
    static const char *const names[] = { "latency", "memory", "max_batch" };
    return limit >= 0 && limit < (int32_t)(sizeof names / sizeof names[0]) ? names[limit] : NULL;
}

/* ---- the request ------------------------------------------------------- */

/* name = v within [lo, hi] (lo excluded when open), or the failure. */
static int real_check(double v, const char *name, double lo, int open, double hi, const char *unit,
                      tco_error *err)
{
    if (!isfinite(v))
        return tco__fail_named(err, TCO_E_NOT_FINITE, name, "%s = %g must be finite", name, v);
    if (open ? !(v > lo && v <= hi) : !(v >= lo && v <= hi))
        return tco__fail_named(err, TCO_E_RANGE, name, "%s = %g: allowed %s%g to %g%s", name, v,
                               open ? "above " : "", lo, hi, unit);
    return TCO_OK;
}

/* 0 (none) or within [lo, hi], whole when asked. */
static int optional_check(double v, const char *name, double lo, double hi, int whole, const char *unit,
                          tco_error *err)
{
    if (!isfinite(v))
        return tco__fail_named(err, TCO_E_NOT_FINITE, name, "%s = %g must be finite", name, v);
    if (v != 0 && (!(v >= lo && v <= hi) || (whole && v != floor(v))))
        return tco__fail_named(err, TCO_E_RANGE, name, "%s = %g: allowed 0 (none) or %s%g to %g%s", name, v,
                               whole ? "a whole number " : "", lo, hi, unit);
    return TCO_OK;
}

static int request_check(const tco_serve_request *q, tco_error *err)
{
    if (q->size < REQUEST_V1_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, "serve_request.size",
                               "serve_request.size = %zu is below %zu: set it with tco_serve_request_init", q->size,
                               REQUEST_V1_SIZE);
    int rc = input_size_check(q, q->size, sizeof *q, "serve_request", err);
    if (rc || (rc = tco__series_given(q->rate, q->n, "request.rate", err)))
        return rc;
    /* the interval in hours within what the split takes */
    if ((rc = real_check(q->interval_seconds, "request.interval_seconds", TCO__INTERVAL_MIN * 3600, 0,
                         TCO__INTERVAL_MAX * 3600, " s", err)))
        return rc;
    if (q->rate_unit != TCO_SERVE_REQUESTS_PER_SECOND && q->rate_unit != TCO_SERVE_OUTPUT_TOKENS_PER_SECOND)
        return tco__fail_named(err, TCO_E_RANGE, "request.rate_unit",
                               "request.rate_unit = %d: allowed 0 (requests per second) or 1 (output tokens per second)",
                               (int)q->rate_unit);
    if (q->tensor_parallel < 0 || q->tensor_parallel > TP_MAX)
        return tco__fail_named(err, TCO_E_RANGE, "request.tensor_parallel",
                               "request.tensor_parallel = %d: allowed 0 (the least that fits) or 1 to %d",
                               (int)q->tensor_parallel, TP_MAX);
    if ((rc = real_check(q->prompt_tokens, "request.prompt_tokens", 0, 0, 1e7, " tokens per request", err)) ||
        (rc = real_check(q->output_tokens, "request.output_tokens", 1, 0, 1e7, " tokens per request", err)) ||
        (rc = real_check(q->time_per_output_token, "request.time_per_output_token", 0, 1, 3600, " s", err)) ||
        (rc = optional_check(q->time_to_first_token, "request.time_to_first_token", 1e-9, 86400, 0, " s", err)) ||
        (rc = real_check(q->flops_share, "request.flops_share", 0, 1, 1, " of peak FLOP/s", err)) ||
        (rc = real_check(q->bandwidth_share, "request.bandwidth_share", 0, 1, 1, " of peak bandwidth", err)) ||
        (rc = real_check(q->memory_share, "request.memory_share", 0, 1, 1, " of memory", err)) ||
        (rc = optional_check(q->max_batch, "request.max_batch", 1, 1e7, 1, " sequences", err)) ||
        (rc = optional_check(q->memory_bandwidth_bytes_per_s, "request.memory_bandwidth_bytes_per_s", 1e6, 1e15, 0,
                             " B/s", err)))
        return rc;
    return TCO_OK;
}

/* ---- one replica --------------------------------------------------------- */

/* The model and one accelerator, from the handles and the request. */
typedef struct served {
    double params, active;     /* held in memory; computed per token */
    double weights, kv;        /* B of the weights; B of K and V per token */
    double attn;               /* 2 x layers x attention width: attention FLOPs per token per token of context */
    double peak, bw, memory;   /* per accelerator: FLOP/s, B/s, B */
    double in, out;            /* tokens per request */
    double ctx_mean, ctx_max;  /* tokens of context a decode step reads on average; a request's at its end */
    const char *name;          /* the accelerator's */
} served;

static int served_of(served *m, const tco_obj *t, const tco_obj *w, const tco_serve_request *q, tco_error *err)
{
    memset(m, 0, sizeof *m);
    accel_figures fig; /* the figures a training run reads */
    int rc = tco__accel_figures(&fig, t, w, err);
    if (rc)
        return rc;
    const tco_accelerator *acc = fig.acc;
    m->peak = fig.peak;
    m->memory = fig.memory;
    m->bw = q->memory_bandwidth_bytes_per_s > 0 ? q->memory_bandwidth_bytes_per_s : acc->memory_bandwidth_bytes_per_s;
    if (m->bw <= 0)
        return tco__fail_named(err, TCO_E_INCONSISTENT, "request.memory_bandwidth_bytes_per_s",
                               "request.memory_bandwidth_bytes_per_s = 0, but %s has no catalogue bandwidth: allowed "
                               "1e+06 to 1e+15 B/s",
                               acc->id == TCO_ACCEL_CUSTOM ? "accelerator_model = custom" : acc->name);
    if (W(LAYERS) == 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_LAYERS,
                               "layers = 0: serving needs the model's shape to size its KV cache: allowed 1 to 10000 "
                               "(with hidden_size, heads and kv_heads where known)");
    m->params = W(PARAMS_TOTAL);
    m->active = W(PARAMS_ACTIVE) > 0 ? W(PARAMS_ACTIVE) : W(PARAMS_TOTAL);
    uint64_t flags = 0;
    shape sh;
    tco__shape_of(&sh, w, m->active, &flags);
    double bytes = W(PRECISION) == PRECISION_FP8 ? 1 : 2; /* per weight and per cached value, at the precision */
    m->weights = m->params * bytes;
    /* K and V, kv_heads heads of hidden / heads values each, every layer */
    m->kv = 2 * sh.layers * sh.kv_heads * (sh.hidden / sh.heads) * bytes;
    m->attn = 2 * sh.layers * sh.width;
    m->in = q->prompt_tokens;
    m->out = q->output_tokens;
    m->ctx_mean = m->in + m->out / 2;
    m->ctx_max = m->in + m->out;
    m->name = acc->id == TCO_ACCEL_CUSTOM ? "custom accelerators" : acc->name;
    return TCO_OK;
}

typedef struct replica {
    double tp;
    double a, b, c, d;   /* s: weights read; per sequence: KV read, compute, prefills' stall */
    double prefill;      /* s: one prompt */
    double bmem;         /* sequences the memory holds (below 1: not even one) */
    double tpot1;        /* s per output token at batch 1 */
} replica;

/* Time per output token at batch B: the decode step (roofline: the
 * weights and the batch's KV cache read, or its FLOPs, whichever is
 * slower) plus the prefills of the requests that replace the batch's
 * finished ones, B / output_tokens of a prompt per step. */
static double step_at(const replica *r, double B)
{
    return MAX(r->a + r->b * B, r->c * B);
}

static double tpot_at(const replica *r, double B)
{
    return step_at(r, B) + r->d * B;
}

static void replica_at(replica *r, const served *m, const tco_serve_request *q, double tp)
{
    double flops = tp * m->peak * q->flops_share, bw = tp * m->bw * q->bandwidth_share;
    r->tp = tp;
    r->a = m->weights / bw;
    r->b = m->kv * m->ctx_mean / bw;
    r->c = (2 * m->active + m->attn * m->ctx_mean) / flops;
    /* a causal prompt of L tokens: 2 P L, and attention over L^2 / 2 pairs */
    r->prefill = m->in > 0 ? MAX((2 * m->active * m->in + m->attn * m->in * m->in / 2) / flops, r->a) : 0;
    r->d = r->prefill / m->out;
    r->bmem = floor((tp * m->memory * q->memory_share - m->weights) / (m->kv * m->ctx_max));
    r->tpot1 = tpot_at(r, 1);
}

static int replica_fits(const replica *r, const tco_serve_request *q)
{
    return r->bmem >= 1 && r->tpot1 <= q->time_per_output_token &&
           (q->time_to_first_token == 0 || r->prefill <= q->time_to_first_token);
}

/* Why a replica of r->tp cannot serve: the first bound it misses. */
static int replica_fail(const replica *r, const served *m, const tco_serve_request *q, int whole_node,
                        tco_error *err)
{
    const char *of = whole_node ? " (a whole node)" : "";
    if (r->bmem < 1) {
        double need = m->weights + m->kv * m->ctx_max;
        double least = ceil(need / (m->memory * q->memory_share));
        return tco__fail_named(err, TCO_E_INCONSISTENT, "request.tensor_parallel",
                               "the weights (%g B) and one request's KV cache (%g B) do not fit in %g %s%s at "
                               "memory_share %g: allowed request.tensor_parallel of at least %g",
                               m->weights, m->kv * m->ctx_max, r->tp, m->name, of, q->memory_share, least);
    }
    if (r->tpot1 > q->time_per_output_token)
        return tco__fail_named(err, TCO_E_INCONSISTENT, "request.time_per_output_token",
                               "request.time_per_output_token = %g s is below the %.6g s a replica of %g %s%s "
                               "reaches at batch 1: allowed %.6g s or more (or a larger request.tensor_parallel)",
                               q->time_per_output_token, r->tpot1, r->tp, m->name, of, r->tpot1);
    return tco__fail_named(err, TCO_E_INCONSISTENT, "request.time_to_first_token",
                           "request.time_to_first_token = %g s is below the %.6g s a prompt of %g tokens takes on a "
                           "replica of %g %s%s: allowed %.6g s or more (or a larger request.tensor_parallel)",
                           q->time_to_first_token, r->prefill, m->in, r->tp, m->name, of, r->prefill);
}

/* The replica the request asks for, or the least power of two up to a
 * node whose memory holds the weights and one request. Memory alone
 * chooses: a looser latency target then never changes the replica, and
 * so never needs more accelerators. */
static int replica_choose(replica *r, const served *m, const tco_serve_request *q, const tco_obj *t, tco_error *err)
{
    double tp = q->tensor_parallel, node = T(ACCELERATORS_PER_NODE);
    int whole_node = 0;
    if (tp == 0)
        for (tp = 1;; tp *= 2) {
            replica_at(r, m, q, tp);
            if (r->bmem >= 1)
                break;
            if (tp * 2 > node) {
                whole_node = 1;
                break;
            }
        }
    replica_at(r, m, q, tp);
    return replica_fits(r, q) ? TCO_OK : replica_fail(r, m, q, whole_node, err);
}

/* The largest batch within the latency target, the memory and max_batch;
 * at least 1 (replica_fits). */
static double batch_of(const replica *r, const tco_serve_request *q, int32_t *limit)
{
    double target = q->time_per_output_token;
    /* both sides of the roofline within the target, then the exact test */
    double B = floor(MIN((target - r->a) / (r->b + r->d), target / (r->c + r->d)));
    double cap = r->bmem;
    if (q->max_batch > 0)
        cap = MIN(cap, q->max_batch);
    if (B < cap) {
        B = MAX(B, 1);
        while (B > 1 && tpot_at(r, B) > target)
            B--;
        while (B + 1 <= cap && tpot_at(r, B + 1) <= target)
            B++;
    }
    if (B >= cap) {
        *limit = q->max_batch > 0 && q->max_batch < r->bmem ? TCO_SERVE_LIMIT_MAX_BATCH : TCO_SERVE_LIMIT_MEMORY;
        return cap;
    }
    *limit = TCO_SERVE_LIMIT_LATENCY;
    return B;
}

/* ---- the fleet ------------------------------------------------------------ */

int tco_serving_compute(tco_serving *out, tco_split *split, double *needed, size_t n_needed,
                        const tco_serve_request *q, const tco_topology *topology, const tco_workload *workload,
                        const tco_pricing *pricing, tco_error *err)
{
    int rc;
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < SERVING_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_serving", out->size, SERVING_V1_SIZE);
    if (split && (split->size < SPLIT_V1_SIZE || split->size > OUTPUT_MAX_SIZE))
        return tco__output_size_fail(err, "tco_split", split->size, SPLIT_V1_SIZE);
    if (!q)
        return tco__fail(err, TCO_E_NULL, "request must not be NULL");
    if ((rc = tco__frozen_inputs(topology, workload, pricing, err)) || (rc = request_check(q, err)))
        return rc;
    if (n_needed && !needed)
        return tco__fail(err, TCO_E_NULL, "needed must not be NULL when n_needed = %zu", n_needed);
    if (needed && n_needed < q->n)
        return tco__fail_named(err, TCO_E_SIZE, "n_needed", "n_needed = %zu: the series' %zu points need as many",
                               n_needed, q->n);
    const tco_obj *t = &topology->o, *w = &workload->o, *p = &pricing->o;

    served m;
    replica r;
    if ((rc = served_of(&m, t, w, q, err)) || (rc = replica_choose(&r, &m, q, t, err)))
        return rc;
    int32_t limit;
    double batch = batch_of(&r, q, &limit);
    double tpot = tpot_at(&r, batch);
    double tokens_s = batch / tpot, requests_s = tokens_s / m.out;
    double mu = q->rate_unit == TCO_SERVE_OUTPUT_TOKENS_PER_SECOND ? tokens_s : requests_s; /* in the series' unit */
    double tp = r.tp;

    elastic_rates er;
    if ((rc = tco__split_rates(&er, t, w, p, err)))
        return rc;
    const double *x = q->rate;
    size_t n = q->n;
    double dt = q->interval_seconds / 3600;

    /* The baseline: the split's order statistic, taken among the rates. */
    double allowed = floor(tco__split_target_exceedance(&er) * (double)n), b = 0;
    if (allowed < (double)n) {
        double kth;
        rc = tco__select_kth_in_place(&kth, x, n, n - 1 - (size_t)allowed);
        if (rc == TCO_E_NOMEM)
            return tco__fail(err, rc, "no memory to select the baseline among %zu values", n);
        if (rc)
            return tco__series_check(x, n, "request.rate", err);
        b = tp * ceil(kth / mu);
    }

    /* One pass, blocked as the split's: the accelerators of each point
     * against the baseline, and the rate served. */
    enum { BLOCK = 256 };
    ksum used = { { 0 }, { 0 } }, excess = { { 0 }, { 0 } }, all = { { 0 }, { 0 } }, served_rate = { { 0 }, { 0 } };
    size_t above = 0;
    double peak = 0;
    int bad = 0;
    for (size_t start = 0; start < n; start += BLOCK) {
        size_t end = n - start < BLOCK ? n : start + BLOCK;
        double u = 0, e = 0, s = 0, v = 0;
        for (size_t i = start; i < end; i++) {
            double xi = x[i], a = tp * ceil(xi / mu), lo = MIN(a, b);
            bad |= !(xi >= 0) | !(xi <= DBL_MAX);
            u += lo;
            e += a - lo;
            s += a;
            v += xi;
            above += a > b;
            peak = MAX(peak, a);
        }
        int lane = (int)((start / BLOCK) & 3);
        ksum_add(&used, lane, u);
        ksum_add(&excess, lane, e);
        ksum_add(&all, lane, s);
        ksum_add(&served_rate, lane, v);
    }
    if (bad)
        return tco__series_check(x, n, "request.rate", err);
    if (!(peak <= EXACT_MAX))
        return tco__fail_named(err, TCO_E_RANGE, "request.rate",
                               "request.rate peaks where it needs %g accelerators: allowed a series whose fleet stays "
                               "within %g accelerators",
                               peak, EXACT_MAX);
    split_sums sums = { ksum_total(&used), ksum_total(&excess), ksum_total(&all), peak, above };
    tco_split sp;
    if ((rc = tco__split_finish(&sp, b, &sums, n, dt, &er, "request.rate", err)))
        return rc;

    tco_serving s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    s.tensor_parallel = (int32_t)tp;
    s.batch_limit = limit;
    s.batch = batch;
    s.max_batch_memory = r.bmem;
    s.memory_bandwidth_bytes_per_s = m.bw;
    s.peak_flops = m.peak;
    s.weight_bytes = m.weights;
    s.kv_bytes_per_token = m.kv;
    s.prefill_seconds = r.prefill;
    s.step_seconds = step_at(&r, batch);
    s.time_per_output_token = tpot;
    s.min_time_per_output_token = r.tpot1;
    s.replica_output_tokens_per_second = tokens_s;
    s.replica_requests_per_second = requests_s;
    s.output_tokens_per_accelerator_second = tokens_s / tp;
    s.hours = sp.hours;
    double volume = ksum_total(&served_rate) * q->interval_seconds; /* requests or output tokens */
    s.requests = q->rate_unit == TCO_SERVE_OUTPUT_TOKENS_PER_SECOND ? volume / m.out : volume;
    s.output_tokens = q->rate_unit == TCO_SERVE_OUTPUT_TOKENS_PER_SECOND ? volume : volume * m.out;
    s.prompt_tokens = s.requests * m.in;
    s.peak_accelerators = peak;
    s.mean_accelerators = sums.all / (double)n;
    s.accelerator_hours = sp.demand_accelerator_hours;
    s.fixed_accelerators = sp.baseline;
    s.fixed_cost = sp.fixed_cost;
    s.elastic_cost = sp.elastic_cost;
    s.total_cost = sp.total_cost;
    s.reserved_utilisation = sp.reserved_utilisation;
    s.cost_per_million_output_tokens = s.output_tokens > 0 ? s.total_cost / s.output_tokens * 1e6 : 0;
    double all_tokens = s.output_tokens + s.prompt_tokens;
    s.cost_per_million_tokens = all_tokens > 0 ? s.total_cost / all_tokens * 1e6 : 0;
    if ((rc = tco__finite_result(&s.batch, (sizeof s - offsetof(tco_serving, batch)) / sizeof(double), "request.rate",
                                 err)))
        return rc;

    /* Nothing failed: the caller's memory, last. */
    if (needed)
        for (size_t i = 0; i < n; i++)
            needed[i] = tp * ceil(x[i] / mu);
    if (split)
        sized_fill(split, &sp, sizeof sp);
    sized_fill(out, &s, sizeof s);
    return TCO_OK;
}
