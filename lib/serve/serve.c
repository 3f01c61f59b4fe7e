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
 * accelerators is ever built here. The opt-in queue, all-reduces and
 * experts change the replica and its throughput, never that pass. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capacity/capacity.h"
#include "model/model.h"

#define T(k) (t->v[IX_##k])
#define W(k) (w->v[IX_##k])

#define REQUEST_V1_SIZE V1_SIZE(tco_serve_request, memory_bandwidth_bytes_per_s)
#define SERVING_V1_SIZE V1_SIZE(tco_serving, cost_per_million_tokens)
#define TP_MAX 4096
#define EXACT_MAX 9007199254740992.0 /* 2^53: the largest count every double below holds exactly */
#define EXPERTS_MAX 1e6

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

/* The caller's request, of any size from the first version's, into this
 * version's struct (fields it does not know: 0, as before them), checked. */
static int request_check(tco_serve_request *q, const tco_serve_request *given, tco_error *err)
{
    if (given->size < REQUEST_V1_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, "serve_request.size",
                               "serve_request.size = %zu is below %zu: set it with tco_serve_request_init",
                               given->size, REQUEST_V1_SIZE);
    int rc = input_size_check(given, given->size, sizeof *q, "serve_request", err);
    if (rc)
        return rc;
    memset(q, 0, sizeof *q);
    memcpy(q, given, MIN(given->size, sizeof *q));
    if ((rc = tco__series_given(q->rate, q->n, "request.rate", err)))
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
    if (!isfinite(q->queue_percentile))
        return tco__fail_named(err, TCO_E_NOT_FINITE, "request.queue_percentile",
                               "request.queue_percentile = %g must be finite", q->queue_percentile);
    if (!(q->queue_percentile >= 0 && q->queue_percentile < 1))
        return tco__fail_named(err, TCO_E_RANGE, "request.queue_percentile",
                               "request.queue_percentile = %g: allowed 0 (no queueing) or above 0 and below 1",
                               q->queue_percentile);
    if (q->queue_percentile > 0 && q->time_to_first_token == 0)
        return tco__fail_named(err, TCO_E_INCONSISTENT, "request.time_to_first_token",
                               "request.time_to_first_token = 0, but request.queue_percentile = %g needs the target "
                               "the wait counts against: allowed 1e-09 to 86400 s",
                               q->queue_percentile);
    if (q->tensor_parallel_allreduce != 0 && q->tensor_parallel_allreduce != 1)
        return tco__fail_named(err, TCO_E_RANGE, "request.tensor_parallel_allreduce",
                               "request.tensor_parallel_allreduce = %d: allowed 0 (none) or 1 (ring all-reduces)",
                               (int)q->tensor_parallel_allreduce);
    if ((rc = optional_check(q->experts, "request.experts", 2, EXPERTS_MAX, 1, " routed experts per layer", err)))
        return rc;
    double k = q->experts_per_token;
    if (!isfinite(k))
        return tco__fail_named(err, TCO_E_NOT_FINITE, "request.experts_per_token",
                               "request.experts_per_token = %g must be finite", k);
    if (q->experts == 0 ? k != 0 : !(k >= 1 && k < q->experts && k == floor(k)))
        return q->experts == 0
                   ? tco__fail_named(err, TCO_E_RANGE, "request.experts_per_token",
                                     "request.experts_per_token = %g: allowed 0 without request.experts", k)
                   : tco__fail_named(err, TCO_E_RANGE, "request.experts_per_token",
                                     "request.experts_per_token = %g: allowed a whole number 1 to %g (below "
                                     "request.experts)",
                                     k, q->experts - 1);
    return TCO_OK;
}

/* ---- one replica --------------------------------------------------------- */

/* The model and one accelerator, from the handles and the request. */
typedef struct served {
    double params, active;     /* held in memory; computed per token */
    double weights, kv;        /* B of the weights; B of K and V per token */
    double shared, expert;     /* MoE: B read whatever the routing; B of one routed expert over all layers */
    double keep;               /* MoE: 1 - k / E, the chance a token passes an expert by */
    double allreduce;          /* B one token's all-reduces move per layer pass: 2 x layers x hidden x bytes */
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
    if (m->bw <= 0) /* every catalogue row has one (test_catalogue_bandwidth): custom */
        return tco__fail_named(err, TCO_E_INCONSISTENT, "request.memory_bandwidth_bytes_per_s",
                               "request.memory_bandwidth_bytes_per_s = 0, but accelerator_model = custom has no "
                               "catalogue bandwidth: allowed 1e+06 to 1e+15 B/s");
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
    m->allreduce = 2 * sh.layers * sh.hidden * bytes;
    if (q->experts > 0) {
        /* total = shared + E x expert, active = shared + k x expert */
        double E = q->experts, k = q->experts_per_token;
        double expert = (m->params - m->active) / (E - k), shared = m->active - k * expert;
        if (!(W(PARAMS_ACTIVE) > 0 && W(PARAMS_ACTIVE) < W(PARAMS_TOTAL)) || !(shared >= 0))
            return tco__fail_named(err, TCO_E_INCONSISTENT, "request.experts",
                                   "request.experts = %g with experts_per_token = %g needs params_active (%g) above 0, "
                                   "below params_total (%g) and at least experts_per_token / experts of it",
                                   E, k, W(PARAMS_ACTIVE), W(PARAMS_TOTAL));
        m->shared = shared * bytes;
        m->expert = expert * bytes;
        m->keep = 1 - k / E;
    }
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
    double g;            /* s per token: its all-reduces (0 without) */
    double as, ae, E, lk;/* MoE (E > 0): s to read the shared weights, one expert; log(1 - k / E) */
    double prefill;      /* s: one prompt */
    double bmem;         /* sequences the memory holds (below 1: not even one) */
    double tpot1;        /* s per output token at batch 1 */
} replica;

/* Time to read the weights T tokens route to: all of them, or the shared
 * ones and the E (1 - (1 - k/E)^T) distinct experts uniform routing
 * reaches. */
static double weights_at(const replica *r, double T)
{
    return r->E > 0 ? r->as - r->ae * r->E * expm1(T * r->lk) : r->a;
}

/* Time per output token at batch B: the decode step (roofline: the
 * weights and the batch's KV cache read, or its FLOPs, whichever is
 * slower; then its all-reduces) plus the prefills of the requests that
 * replace the batch's finished ones, B / output_tokens of a prompt per
 * step. */
static double step_at(const replica *r, double B)
{
    return MAX(weights_at(r, B) + r->b * B, r->c * B) + r->g * B;
}

static double tpot_at(const replica *r, double B)
{
    return step_at(r, B) + r->d * B;
}

static void replica_at(replica *r, const served *m, const tco_serve_request *q, double tp, double link)
{
    double flops = tp * m->peak * q->flops_share, bw = tp * m->bw * q->bandwidth_share;
    r->tp = tp;
    r->a = m->weights / bw;
    r->b = m->kv * m->ctx_mean / bw;
    r->c = (2 * m->active + m->attn * m->ctx_mean) / flops;
    /* a ring all-reduce moves 2 (p - 1) / p of the data through each link */
    r->g = link > 0 ? 2 * (tp - 1) / tp * m->allreduce / link : 0;
    r->E = q->experts;
    if (r->E > 0) {
        r->as = m->shared / bw;
        r->ae = m->expert / bw;
        r->lk = log(m->keep);
    }
    /* a causal prompt of L tokens: 2 P L, and attention over L^2 / 2 pairs */
    r->prefill = m->in > 0 ? MAX((2 * m->active * m->in + m->attn * m->in * m->in / 2) / flops, weights_at(r, m->in)) +
                                 r->g * m->in
                           : 0;
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
            replica_at(r, m, q, tp, 0);
            if (r->bmem >= 1)
                break;
            if (tp * 2 > node) {
                whole_node = 1;
                break;
            }
        }
    if (q->tensor_parallel_allreduce && tp > node)
        return tco__fail_named(err, TCO_E_INCONSISTENT, "request.tensor_parallel_allreduce",
                               "request.tensor_parallel_allreduce = 1 prices the link inside a node, but a replica of "
                               "%g spans nodes of %g: allowed request.tensor_parallel up to %g with it",
                               tp, node, node);
    replica_at(r, m, q, tp, q->tensor_parallel_allreduce ? T(INTRA_NODE_GBPS) * 1e9 : 0);
    return replica_fits(r, q) ? TCO_OK : replica_fail(r, m, q, whole_node, err);
}

/* The largest batch within the latency target, the memory and max_batch;
 * at least 1 (replica_fits). */
static double batch_of(const replica *r, const tco_serve_request *q, int32_t *limit)
{
    double target = q->time_per_output_token;
    /* both sides of the roofline within the target, then the exact test */
    /* (with experts, a reads them all: a batch below the one sought) */
    double B = floor(MIN((target - r->a) / (r->b + r->d + r->g), target / (r->c + r->d + r->g)));
    double cap = r->bmem;
    if (q->max_batch > 0)
        cap = MIN(cap, q->max_batch);
    if (B < cap) {
        B = MAX(B, 1);
        while (B > 1 && tpot_at(r, B) > target)
            B--;
        /* up by doubling steps, then halving them: TPOT grows with B */
        double step = 1;
        for (; B + step <= cap && tpot_at(r, B + step) <= target; step *= 2)
            B += step;
        for (; step >= 1; step /= 2)
            if (B + step <= cap && tpot_at(r, B + step) <= target)
                B += step;
    }
    if (B >= cap) {
        *limit = q->max_batch > 0 && q->max_batch < r->bmem ? TCO_SERVE_LIMIT_MAX_BATCH : TCO_SERVE_LIMIT_MEMORY;
        return cap;
    }
    *limit = TCO_SERVE_LIMIT_LATENCY;
    return B;
}

/* ---- queueing for a batch slot (M/M/c) ------------------------------------ */

/* Erlang C: the chance an arrival waits at c servers offered A < c
 * erlangs, from Erlang B's recursion B_k = A B_{k-1} / (k + A B_{k-1}),
 * which stays within [0, 1] at any c (Gross et al. 2008, section 2.3). */
static double erlang_c(double c, double A)
{
    double bk = 1;
    for (double k = 1; k <= c; k++)
        bk = A * bk / (k + A * bk);
    return bk / (1 - A / c * (1 - bk));
}

/* P(wait > t) at c slots of mean hold S, load rho: C e^(-c (1 - rho) t / S). */
static double wait_beyond(double c, double S, double rho, double t)
{
    return erlang_c(c, c * rho) * exp(-c * (1 - rho) * t / S);
}

/* The highest load rho of c slots held S seconds each at which a share
 * `within` of the requests waits t seconds or less, by bisection to the
 * last bit (the chance of a longer wait grows with rho, from 0 to 1);
 * *wait: that share's wait at rho. It ends when the midpoint rounds to an
 * end, some 53 steps past rho's binary exponent: 64 at most above 2^-11,
 * 1,075 at most at all (the least positive double is 2^-1074). */
static double slot_load(double *wait, double c, double S, double t, double within)
{
    double lo = 0, hi = 1, beyond = 1 - within;
    for (;;) {
        double mid = (lo + hi) / 2;
        if (mid == lo || mid == hi)
            break;
        if (wait_beyond(c, S, mid, t) <= beyond)
            lo = mid;
        else
            hi = mid;
    }
    double C = erlang_c(c, c * lo);
    *wait = C > beyond ? log(C / beyond) * S / (c * (1 - lo)) : 0;
    return lo;
}

/* ---- the fleet ------------------------------------------------------------ */

int tco_serving_compute(tco_serving *out, tco_split *split, double *needed, size_t n_needed,
                        const tco_serve_request *given, const tco_topology *topology, const tco_workload *workload,
                        const tco_pricing *pricing, tco_error *err)
{
    int rc;
    tco_serve_request req, *q = &req;
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < SERVING_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_serving", out->size, SERVING_V1_SIZE);
    if (split && (split->size < SPLIT_V1_SIZE || split->size > OUTPUT_MAX_SIZE))
        return tco__output_size_fail(err, "tco_split", split->size, SPLIT_V1_SIZE);
    if (!given)
        return tco__fail(err, TCO_E_NULL, "request must not be NULL");
    if ((rc = tco__frozen_inputs(topology, workload, pricing, err)) || (rc = request_check(q, given, err)))
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
    double tp = r.tp, load = 1, wait = 0;
    if (q->queue_percentile > 0) {
        /* each replica's slots a queue of their own: a slot is held for
         * the request's decode, output_tokens x TPOT */
        load = slot_load(&wait, batch, m.out * tpot, q->time_to_first_token - r.prefill, q->queue_percentile);
        mu *= load;
    }

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
            return tco__series_fail(x, n, "request.rate", err);
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
    s.utilisation = load;
    s.queue_wait_seconds = wait;
    s.allreduce_seconds = r.g * batch;
    s.experts_read = q->experts > 0 ? -q->experts * expm1(batch * r.lk) : 0;
    s.weight_bytes_read = q->experts > 0 ? m.shared + m.expert * s.experts_read : m.weights;
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
