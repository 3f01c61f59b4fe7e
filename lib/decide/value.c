/* Value per cost (doc/model.md, "Value per cost"): the parametric loss of
 * compute-optimal scaling studies, L(N, D) = E + A / N^alpha + B / D^beta
 * (Hoffmann et al. 2022, eq. 2), the loss bought per unit of money between
 * two priced runs, and the (N, D) of least loss within a budget under the
 * full estimate.
 *
 * The search works on a private variant of the scenario. At a fixed N the
 * total rises with the tokens (more work, more held hours, more failures,
 * a larger dataset) and is close to affine in them, so the most tokens a
 * budget buys are a root of total(tokens) - budget, found by Brent's
 * zeroin between the fewest tokens and the most, in a handful of
 * estimates. The loss along that edge, f(log N), falls while the model
 * term shrinks faster than the shrinking token count raises the data term,
 * then rises: it is minimised by Brent's localmin over log N. The upper
 * end of log N is first cut to the largest model that still runs within
 * the budget (bisection: below it every model runs on the fewest tokens),
 * so f is finite wherever localmin looks. */
#include <math.h>
#include <string.h>

#include "decide/decide.h"

/* New in 1.1: the first version of each struct is the whole struct. */
#define LAW_V1_SIZE V1_SIZE(tco_scaling_law, beta)
#define LOSS_V1_SIZE V1_SIZE(tco_loss, tokens)
#define GAIN_V1_SIZE V1_SIZE(tco_loss_gain, flops_ratio_defined)
#define OPTIMUM_V1_SIZE V1_SIZE(tco_optimum, train_flops)

#define E_MAX 100.0      /* nats per token; ln of any real vocabulary is far below */
#define COEF_MAX 1e15
#define EXPONENT_MAX 2.0 /* published exponents are 0.07 to 0.4 */

#define LOGN_TOL 1e-7    /* absolute, in ln N: the loss is flat to 1e-14 there */
#define TOKENS_REL 1e-9  /* relative, of the tokens the budget buys */
#define EDGE_REL 1e-6    /* relative, of the largest model that runs within the budget */

/* ---- the law ------------------------------------------------------------ */

static const tco_scaling_law published[] = {
    /* Hoffmann et al. 2022, section 3.3 and appendix D.2 (approach 3). */
    { sizeof(tco_scaling_law), TCO_FIT_HOFFMANN_2022, 1.69, 406.4, 0.34, 410.7, 0.28 },
    /* Besiroglu et al. 2024, table 1: the same data, refitted. */
    { sizeof(tco_scaling_law), TCO_FIT_BESIROGLU_2024, 1.8172, 482.01, 0.3478, 2085.43, 0.3658 },
};

int tco_scaling_law_init(tco_scaling_law *law, int32_t fit, tco_error *err)
{
    if (!law)
        return tco__fail(err, TCO_E_NULL, "law must not be NULL");
    if (fit != TCO_FIT_HOFFMANN_2022 && fit != TCO_FIT_BESIROGLU_2024)
        return tco__fail_named(err, TCO_E_RANGE, "fit",
                               "fit = %d is no published tco_scaling_fit: allowed %d (Hoffmann 2022) or %d (Besiroglu 2024)",
                               (int)fit, TCO_FIT_HOFFMANN_2022, TCO_FIT_BESIROGLU_2024);
    *law = published[fit - 1];
    return TCO_OK;
}

static int check_constant(double v, const char *name, double lo, int lo_open, double hi, tco_error *err)
{
    if (!isfinite(v))
        return tco__fail_named(err, TCO_E_NOT_FINITE, name, "%s must be a finite number, not %g", name, v);
    if ((lo_open ? !(v > lo) : !(v >= lo)) || v > hi)
        return tco__fail_named(err, TCO_E_RANGE, name, "%s = %g is out of range: allowed %s%g to %g", name, v,
                               lo_open ? "above " : "", lo, hi);
    return TCO_OK;
}

/* The law to use (NULL: Hoffmann's), checked: a law that passes gives a
 * finite loss of at least e >= 0 for any N, D >= 1. */
static int law_of(tco_scaling_law *out, const tco_scaling_law *law, tco_error *err)
{
    if (!law) {
        *out = published[0];
        return TCO_OK;
    }
    if (law->size < LAW_V1_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, "law.size",
                               "law.size = %zu is below %zu: set it to sizeof(tco_scaling_law)", law->size,
                               (size_t)LAW_V1_SIZE);
    int rc = input_size_check(law, law->size, sizeof *law, "law", err);
    if (rc)
        return rc;
    if (law->fit < TCO_FIT_CUSTOM || law->fit > TCO_FIT_BESIROGLU_2024)
        return tco__fail_named(err, TCO_E_RANGE, "law.fit",
                               "law.fit = %d is no tco_scaling_fit: allowed 0 (custom) to %d", (int)law->fit,
                               TCO_FIT_BESIROGLU_2024);
    if ((rc = check_constant(law->e, "law.e", 0, 0, E_MAX, err)) ||
        (rc = check_constant(law->a, "law.a", 0, 0, COEF_MAX, err)) ||
        (rc = check_constant(law->alpha, "law.alpha", 0, 1, EXPONENT_MAX, err)) ||
        (rc = check_constant(law->b, "law.b", 0, 0, COEF_MAX, err)) ||
        (rc = check_constant(law->beta, "law.beta", 0, 1, EXPONENT_MAX, err)))
        return rc;
    *out = *law;
    return TCO_OK;
}

static void loss_terms(tco_loss *l, const tco_scaling_law *law, double n, double d)
{
    memset(l, 0, sizeof *l);
    l->size = sizeof *l;
    l->irreducible = law->e;
    l->params_term = law->a * pow(n, -law->alpha);
    l->data_term = law->b * pow(d, -law->beta);
    l->loss = l->irreducible + l->params_term + l->data_term;
    l->params = n;
    l->tokens = d;
}

static double loss_of(const tco_scaling_law *law, double n, double d)
{
    return law->e + law->a * pow(n, -law->alpha) + law->b * pow(d, -law->beta);
}

static int check_amount(double v, const char *name, tco_error *err)
{
    if (!isfinite(v))
        return tco__fail_named(err, TCO_E_NOT_FINITE, name, "%s must be a finite number, not %g", name, v);
    if (!(v >= 1))
        return tco__fail_named(err, TCO_E_RANGE, name, "%s = %g is out of range: allowed 1 or more", name, v);
    return TCO_OK;
}

int tco_loss_at(tco_loss *out, const tco_scaling_law *law, double params, double tokens, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < LOSS_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_loss", out->size, LOSS_V1_SIZE);
    tco_scaling_law l;
    int rc = law_of(&l, law, err);
    if (rc || (rc = check_amount(params, "params", err)) || (rc = check_amount(tokens, "tokens", err)))
        return rc;
    tco_loss r;
    loss_terms(&r, &l, params, tokens);
    sized_fill(out, &r, sizeof r);
    return TCO_OK;
}

/* N and D of a workload's run (doc/model.md): the active parameters, and
 * every token trained. */
static double params_of(const tco_obj *w)
{
    return w->v[IX_PARAMS_ACTIVE] > 0 ? w->v[IX_PARAMS_ACTIVE] : w->v[IX_PARAMS_TOTAL];
}

static double tokens_of(const tco_obj *w)
{
    return w->v[IX_TOKENS] * w->v[IX_EPOCHS];
}

int tco_loss_predict(tco_loss *out, const tco_scaling_law *law, const tco_workload *w, tco_error *err)
{
    if (!out || !w)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : "workload");
    if (out->size < LOSS_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_loss", out->size, LOSS_V1_SIZE);
    int rc = tco__kind_check(&w->o, TCO_HANDLE_WORKLOAD, err);
    if (rc)
        return rc;
    if (!w->o.frozen)
        return tco__fail(err, TCO_E_NOT_FROZEN, "the workload must be frozen first");
    tco_scaling_law l;
    if ((rc = law_of(&l, law, err)))
        return rc;
    /* the table's bounds keep both at least 1 */
    tco_loss r;
    loss_terms(&r, &l, params_of(&w->o), tokens_of(&w->o));
    sized_fill(out, &r, sizeof r);
    return TCO_OK;
}

/* ---- loss per cost ------------------------------------------------------ */

static int priced(tco_estimate *e, const char *which, const tco_topology *t, const tco_workload *w,
                  const tco_pricing *p, tco_error *err)
{
    tco_error why = TCO_ERROR_INIT;
    int rc = tco__frozen_inputs(t, w, p, &why);
    if (rc == TCO_OK)
        rc = tco__estimate(e, &t->o, &w->o, &p->o, &why);
    return rc ? tco__refail(err, &why, "run %s: %s", which, why.message) : TCO_OK;
}

int tco_loss_per_cost(tco_loss_gain *out, const tco_scaling_law *law, const tco_topology *ta,
                      const tco_workload *wa, const tco_pricing *pa, const tco_topology *tb,
                      const tco_workload *wb, const tco_pricing *pb, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < GAIN_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_loss_gain", out->size, GAIN_V1_SIZE);
    tco_scaling_law l;
    int rc = law_of(&l, law, err);
    tco_estimate ea, eb;
    if (rc || (rc = priced(&ea, "a", ta, wa, pa, err)) || (rc = priced(&eb, "b", tb, wb, pb, err)))
        return rc;
    const char *ca = pa->o.text[IX_CURRENCY], *cb = pb->o.text[IX_CURRENCY];
    if (strcmp(ca, cb) != 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_CURRENCY,
                               "run b is priced in %s, run a in %s: compare runs in one currency", cb, ca);

    tco_loss_gain r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    r.loss_a = loss_of(&l, params_of(&wa->o), tokens_of(&wa->o));
    r.loss_b = loss_of(&l, params_of(&wb->o), tokens_of(&wb->o));
    r.total_a = ea.total;
    r.total_b = eb.total;
    r.flops_a = ea.train_flops * wa->o.v[IX_RUNS];
    r.flops_b = eb.train_flops * wb->o.v[IX_RUNS];
    r.loss_reduction = r.loss_a - r.loss_b;
    r.extra_cost = r.total_b - r.total_a;
    /* Equal totals (or FLOPs) have no ratio: 0, and the flag says so,
     * rather than an infinity or a NaN. */
    r.cost_ratio_defined = r.extra_cost != 0;
    r.loss_per_cost = r.cost_ratio_defined ? r.loss_reduction / r.extra_cost : 0;
    double extra_flops = r.flops_b - r.flops_a;
    r.flops_ratio_defined = extra_flops != 0;
    r.loss_per_exaflop = r.flops_ratio_defined ? r.loss_reduction / (extra_flops / 1e18) : 0;
    if (!isfinite(r.loss_per_cost))
        r.loss_per_cost = 0, r.cost_ratio_defined = 0; /* a difference of a few cents on 1e300 */
    if (!isfinite(r.loss_per_exaflop))
        r.loss_per_exaflop = 0, r.flops_ratio_defined = 0;
    sized_fill(out, &r, sizeof r);
    return TCO_OK;
}

/* ---- the compute-optimal search ---------------------------------------- */

typedef struct search {
    variant v;
    tco_scaling_law law;
    double budget;
    double share;          /* params_active / params_total (1: dense) */
    double epochs;
    double tok_lo, tok_hi; /* the tokens parameter's bounds (per epoch) */
    double n_lo, n_hi;     /* N's */
    int evals;
} search;

/* The variant's workload at N = n and `tokens` per epoch, priced: TCO_OK
 * and *total, or why not. Refusals are expected: no message. */
static int total_at(search *s, double n, double tokens, double *total, tco_estimate *e, tco_error *err)
{
    tco_obj *w = &s->v.h[1];
    n = fmin(fmax(n, s->n_lo), s->n_hi); /* exp(log(n)) may pass a bound by an ulp */
    double total_params = s->share < 1 ? n / s->share : n;
    int rc = tco__param_check(&tco__params[IX_PARAMS_TOTAL], total_params, err);
    if (rc == TCO_OK && s->share < 1)
        rc = tco__param_check(&tco__params[IX_PARAMS_ACTIVE], n, err);
    if (rc == TCO_OK)
        rc = tco__param_check(&tco__params[IX_TOKENS], tokens, err);
    if (rc)
        return rc;
    w->v[IX_PARAMS_TOTAL] = total_params;
    if (s->share < 1)
        w->v[IX_PARAMS_ACTIVE] = n;
    w->v[IX_TOKENS] = tokens;
    tco_estimate local;
    if (!e)
        e = &local;
    rc = tco__obj_prepare(w, err);
    if (rc == TCO_OK)
        rc = tco__variant_estimate(e, &s->v, err);
    s->evals++;
    if (rc == TCO_OK)
        *total = e->total;
    return rc;
}

/* total - budget at tokens (HUGE_VAL when the run is refused: more
 * tokens than the run can take count as over the budget). */
static double excess(search *s, double n, double tokens)
{
    double total;
    return total_at(s, n, tokens, &total, NULL, NULL) == TCO_OK ? total - s->budget : HUGE_VAL;
}

/* What tokens_within's search prices: model n, and the tokens of
 * zeroin's three slots. */
typedef struct edge_at {
    search *s;
    double n;
    double tokens[3];
} edge_at;

static double excess_at(void *ctx, double *tokens, int slot)
{
    edge_at *q = ctx;
    q->tokens[slot] = *tokens;
    return excess(q->s, q->n, *tokens);
}

/* The most tokens per epoch (within the table's bounds) that model n can
 * train within the budget, or 0 when even the fewest cannot: zeroin on
 * g(x) = total(x) - budget, rising in x. Returns the end of the last
 * bracket within the budget. */
static double tokens_within(search *s, double n)
{
    double a = s->tok_lo, ga = excess(s, n, a);
    if (!(ga <= 0))
        return 0;
    double b = s->tok_hi, gb = excess(s, n, b);
    if (gb <= 0)
        return b;
    edge_at q = { s, n, { a, b } };
    return q.tokens[tco__zeroin(excess_at, &q, a, ga, b, gb, TOKENS_REL)];
}

/* The loss on the budget's edge at ln N = x; *tok the tokens per epoch. */
static double edge_loss(search *s, double x, double *tok)
{
    double n = exp(x);
    *tok = tokens_within(s, n);
    return *tok > 0 ? loss_of(&s->law, n, *tok * s->epochs) : HUGE_VAL;
}

/* The least of f(x) = edge_loss over [a, b]: Brent 1973, chapter 5
 * (localmin), golden-section steps where a parabola would not help. f is
 * finite on [a, b]. Returns x; *fx its loss, *tok its tokens. */
static double least_loss(search *s, double a, double b, double *fx_out, double *tok_out)
{
    const double golden = 0.5 * (3 - sqrt(5.0));
    double x = a + golden * (b - a), w = x, v = x, tx;
    double fx = edge_loss(s, x, &tx), fw = fx, fv = fx;
    double d = 0, e = 0;
    for (;;) {
        double m = 0.5 * (a + b);
        double tol = LOGN_TOL, t2 = 2 * tol;
        if (fabs(x - m) <= t2 - 0.5 * (b - a))
            break;
        double p = 0, q = 0, r = 0;
        if (fabs(e) > tol) { /* fit a parabola */
            r = (x - w) * (fx - fv);
            q = (x - v) * (fx - fw);
            p = (x - v) * q - (x - w) * r;
            q = 2 * (q - r);
            if (q > 0)
                p = -p;
            else
                q = -q;
            r = e;
            e = d;
        }
        if (fabs(p) < fabs(0.5 * q * r) && p > q * (a - x) && p < q * (b - x)) {
            d = p / q; /* the parabola's step */
            double u = x + d;
            if (u - a < t2 || b - u < t2)
                d = x < m ? tol : -tol;
        } else {
            e = (x < m ? b : a) - x; /* golden section */
            d = golden * e;
        }
        double u = x + (fabs(d) >= tol ? d : d > 0 ? tol : -tol), tu;
        double fu = edge_loss(s, u, &tu);
        if (fu <= fx) {
            if (u < x)
                b = x;
            else
                a = x;
            v = w, fv = fw;
            w = x, fw = fx;
            x = u, fx = fu, tx = tu;
        } else {
            if (u < x)
                a = u;
            else
                b = u;
            if (fu <= fw || w == x) {
                v = w, fv = fw;
                w = u, fw = fu;
            } else if (fu <= fv || v == x || v == w) {
                v = u, fv = fu;
            }
        }
    }
    *fx_out = fx;
    *tok_out = tx;
    return x;
}

static int check_budget(double budget, tco_error *err)
{
    if (!isfinite(budget))
        return tco__fail_named(err, TCO_E_NOT_FINITE, "budget", "budget must be a finite number, not %g", budget);
    if (!(budget > 0))
        return tco__fail_named(err, TCO_E_RANGE, "budget", "budget = %g is out of range: allowed above 0 (cur, all runs)",
                               budget);
    return TCO_OK;
}

int tco_compute_optimal(tco_optimum *out, tco_estimate *estimate, const tco_scaling_law *law, double budget,
                        const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (out->size < OPTIMUM_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_optimum", out->size, OPTIMUM_V1_SIZE);
    if (estimate && (estimate->size < ESTIMATE_V1_SIZE || estimate->size > OUTPUT_MAX_SIZE))
        return tco__output_size_fail(err, "tco_estimate", estimate->size, ESTIMATE_V1_SIZE);
    search s;
    int rc = law_of(&s.law, law, err);
    if (rc || (rc = check_budget(budget, err)) || (rc = tco__frozen_inputs(t, w, p, err)))
        return rc;
    const tco_obj *wo = &w->o;
    /* N and D must set the run's FLOPs and its time for the search to
     * trade one against the other. */
    if (wo->v[IX_TOTAL_FLOPS] > 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_TOTAL_FLOPS,
                               "total_flops = %g fixes the run's FLOPs, whatever the model size and tokens: set it to 0 to search them",
                               wo->v[IX_TOTAL_FLOPS]);
    if (wo->v[IX_RUN_ACCELERATOR_HOURS] > 0)
        return tco__fail_param(err, TCO_E_INCONSISTENT, IX_RUN_ACCELERATOR_HOURS,
                               "run_accelerator_hours = %g fixes the run's time, whatever the model size and tokens: set it to 0 to search them",
                               wo->v[IX_RUN_ACCELERATOR_HOURS]);

    tco__variant_init(&s.v, t, w, p);
    s.budget = budget;
    s.share = wo->v[IX_PARAMS_ACTIVE] > 0 ? wo->v[IX_PARAMS_ACTIVE] / wo->v[IX_PARAMS_TOTAL] : 1;
    s.epochs = wo->v[IX_EPOCHS];
    s.tok_lo = tco__params[IX_TOKENS].lo;
    s.tok_hi = tco__params[IX_TOKENS].hi;
    s.evals = 0;
    /* N's range: params_total's bounds, and params_active's lower one. */
    double n_lo = tco__params[IX_PARAMS_TOTAL].lo * s.share, n_hi = tco__params[IX_PARAMS_TOTAL].hi * s.share;
    if (s.share < 1)
        n_lo = fmax(n_lo, fmax(tco__params[IX_PARAMS_ACTIVE].lo, 1));
    s.n_lo = n_lo;
    s.n_hi = n_hi;

    /* The smallest run: if it is over the budget, nothing is within it. */
    double least;
    tco_error why = TCO_ERROR_INIT;
    if ((rc = total_at(&s, n_lo, s.tok_lo, &least, NULL, &why)))
        return tco__refail(err, &why, "the smallest run (%g parameters, %g tokens) cannot be priced: %s", n_lo,
                           s.tok_lo * s.epochs, why.message);
    if (least > budget)
        return tco__fail_named(err, TCO_E_INCONSISTENT, "budget",
                               "budget = %g is below the smallest run's total of %g (%g parameters, %g tokens): allowed at least %g",
                               budget, least, n_lo, s.tok_lo * s.epochs, least);

    /* The largest model that runs within the budget on the fewest tokens,
     * by bisection on ln N: models run and fit the budget up to it. */
    double lo = log(n_lo), hi = log(n_hi);
    int edge = excess(&s, n_hi, s.tok_lo) > 0;
    if (edge) {
        double a = lo, b = hi;
        while (b - a > EDGE_REL) {
            double m = 0.5 * (a + b);
            if (excess(&s, exp(m), s.tok_lo) <= 0)
                a = m;
            else
                b = m;
        }
        hi = a;
    }

    double fx = HUGE_VAL, tok = 0, x = hi > lo ? least_loss(&s, lo, hi, &fx, &tok) : lo;
    if (!(hi > lo))
        fx = edge_loss(&s, x, &tok);
    /* The ends themselves: localmin stops within its tolerance of them. */
    double t_end, f_end = edge_loss(&s, lo, &t_end);
    if (f_end < fx)
        x = lo, fx = f_end, tok = t_end;
    if (hi > lo && (f_end = edge_loss(&s, hi, &t_end)) < fx)
        x = hi, fx = f_end, tok = t_end;

    tco_optimum r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    double n = fmin(fmax(exp(x), n_lo), n_hi);
    tco_estimate e;
    if ((rc = total_at(&s, n, tok, &r.total, &e, NULL))) /* priced within the budget before: cannot fail */
        return tco__fail(err, rc, "the optimum (%g parameters, %g tokens) could not be priced again", n, tok);
    r.evaluations = s.evals;
    r.params = n;
    r.params_total = s.v.h[1].v[IX_PARAMS_TOTAL];
    r.tokens = tok * s.epochs;
    r.tokens_per_param = r.tokens / n;
    r.loss = fx;
    r.train_flops = e.train_flops;
    double rel = 1e-6;
    r.limit = x - log(n_lo) <= rel          ? TCO_OPTIMUM_PARAMS_MIN
              : log(n_hi) - x <= rel        ? TCO_OPTIMUM_PARAMS_MAX
              : tok >= s.tok_hi * (1 - rel) ? TCO_OPTIMUM_TOKENS_MAX
              : edge && hi - x <= rel       ? TCO_OPTIMUM_LARGEST_MODEL
                                            : TCO_OPTIMUM_INTERIOR;
    sized_fill(out, &r, sizeof r);
    if (estimate)
        sized_fill(estimate, &e, sizeof e);
    return TCO_OK;
}
