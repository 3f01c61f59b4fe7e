/* Uncertainty bands by seeded Monte Carlo (doc/model.md, section 15): a
 * counter-based generator, four distributions drawn by inverse CDF within
 * their cut, summaries (mean, sd, numpy's linear percentiles), Spearman's
 * rank correlation, and the whole run on POSIX threads. Every draw is a
 * pure function of (seed, sample, input), and every later step reads only
 * the buffer of samples, so the result is the same on any thread count. */
#define _POSIX_C_SOURCE 200809L
#if defined(__linux__)
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE */
#endif
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capacity/capacity.h"
#include "decide/decide.h"

/* New in 1.1: the first version of each is the whole struct. */
#define UNCERTAIN_V1_SIZE V1_SIZE(tco_uncertain, hi)
#define SUMMARY_V1_SIZE V1_SIZE(tco_summary, p95)
#define MAX_THREADS 256

/* ---- the generator ----------------------------------------------------- */

/* SplitMix64 (Steele, Lea and Flood, OOPSLA 2014; Vigna's reference code):
 * its increment and its output function, a bijection of 64-bit words. */
#define GOLDEN UINT64_C(0x9E3779B97F4A7C15)

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Input j's stream: key_j = mix64(mix64(seed) + (j + 1) G), so that nearby
 * seeds give unrelated keys. Sample i of it: mix64(key_j + (i + 1) G), the
 * i-th output of a SplitMix64 started at key_j, worked out from i alone. */
static uint64_t stream_key(uint64_t seed, size_t j)
{
    return mix64(mix64(seed) + ((uint64_t)j + 1) * GOLDEN);
}

/* The top 52 bits and a half: 2^-53 to 1 - 2^-53, never 0 or 1, and
 * symmetric (1 - u is exact and is another possible u). */
static double unit(uint64_t bits)
{
    return ((double)(bits >> 12) + 0.5) * 0x1p-52;
}

/* ---- the normal distribution ------------------------------------------- */

#define SQRT2 1.41421356237309504880

/* P(Z <= z) and P(Z > z), each accurate in its own tail. */
static double normal_cdf(double z)
{
    return 0.5 * erfc(-z / SQRT2);
}

static double normal_upper(double z)
{
    return 0.5 * erfc(z / SQRT2);
}

/* The standard normal quantile: Wichura's AS241 (PPND16; Applied
 * Statistics 37(3), 477-484, 1988), about 1e-16 relative, from rational
 * functions, a log and a square root only. Written in the operation order
 * of CPython's statistics.NormalDist.inv_cdf, which implements the same
 * algorithm, so that the two agree to the bit. 0 and 1 give -inf and +inf
 * (a draw's cut then clamps them). */
static double inv_normal(double p)
{
    if (!(p > 0))
        return -INFINITY;
    if (!(p < 1))
        return INFINITY;
    double q = p - 0.5, r, num, den;
    if (fabs(q) <= 0.425) {
        r = 0.180625 - q * q;
        num = (((((((2.5090809287301226727e+3 * r + 3.3430575583588128105e+4) * r + 6.7265770927008700853e+4) * r +
                   4.5921953931549871457e+4) * r + 1.3731693765509461125e+4) * r + 1.9715909503065514427e+3) * r +
                 1.3314166789178437745e+2) * r + 3.3871328727963666080e+0) * q;
        den = (((((((5.2264952788528545610e+3 * r + 2.8729085735721942674e+4) * r + 3.9307895800092710610e+4) * r +
                   2.1213794301586595867e+4) * r + 5.3941960214247511077e+3) * r + 6.8718700749205790830e+2) * r +
                 4.2313330701600911252e+1) * r + 1.0);
        return num / den;
    }
    r = q <= 0 ? p : 1 - p;
    r = sqrt(-log(r));
    if (r <= 5.0) {
        r = r - 1.6;
        num = (((((((7.7454501427834140764e-4 * r + 2.2723844989269184583e-2) * r + 2.4178072517745061177e-1) * r +
                   1.2704582524523683826e+0) * r + 3.6478483247632046050e+0) * r + 5.7694972214606914055e+0) * r +
                 4.6303378461565452959e+0) * r + 1.4234371107496835773e+0);
        den = (((((((1.0507500716444168432e-9 * r + 5.4759380849953449460e-4) * r + 1.5198666563616457197e-2) * r +
                   1.4810397642748007459e-1) * r + 6.8976733498510000455e-1) * r + 1.6763848301838038494e+0) * r +
                 2.0531916266377588219e+0) * r + 1.0);
    } else {
        r = r - 5.0;
        num = (((((((2.0103343992922881327e-7 * r + 2.7115555687434875782e-5) * r + 1.2426609473880784386e-3) * r +
                   2.6532189526576123093e-2) * r + 2.9656057182850489123e-1) * r + 1.7848265399172913358e+0) * r +
                 5.4637849111641143699e+0) * r + 6.6579046435011037772e+0);
        den = (((((((2.0442631033899397856e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
                   7.8686913114561325910e-4) * r + 1.4875361290850614853e-2) * r + 1.3692988092273580531e-1) * r +
                 5.9983220655588793769e-1) * r + 1.0);
    }
    double x = num / den;
    return q < 0 ? -x : x;
}

/* ---- distributions ----------------------------------------------------- */

/* An uncertain input, checked and ready to draw: u goes to v = f0 + u mass,
 * a probability within the cut, then through the inverse CDF. */
typedef struct dist {
    int ix;                /* the parameter's table index */
    int32_t kind;          /* a tco_distribution */
    int whole;             /* INT parameter: rounded */
    int upper;             /* normal, lognormal: v is an upper-tail probability */
    double a, b, c;
    double lo, hi;         /* the cut within the support and the bounds */
    double wlo, whi;       /* whole: ceil(lo), floor(hi) */
    double f0, mass;       /* CDF at lo, and between lo and hi */
    double fm, left, right; /* triangular: F(mode), (c - a)(b - a), (c - a)(c - b) */
    uint64_t key;
} dist;

/* Of a kind dist_prepare has checked. */
static const char *dist_name(int32_t kind)
{
    static const char *const names[] = { "", "uniform", "triangular", "normal", "lognormal" };
    return names[kind];
}

static double triangular_cdf(const dist *d, double x)
{
    if (x <= d->a)
        return 0;
    if (x < d->b)
        return (x - d->a) * (x - d->a) / d->left;
    if (x < d->c)
        return 1 - (d->c - x) * (d->c - x) / d->right;
    return 1;
}

static double draw_one(const dist *d, uint64_t i)
{
    double v = d->f0 + unit(mix64(d->key + (i + 1) * GOLDEN)) * d->mass, x, z;
    switch (d->kind) {
    case TCO_DIST_UNIFORM:
        x = d->a + v * (d->b - d->a);
        break;
    case TCO_DIST_TRIANGULAR:
        x = v < d->fm ? d->a + sqrt(v * d->left) : d->c - sqrt((1 - v) * d->right);
        break;
    case TCO_DIST_NORMAL:
        z = inv_normal(v);
        x = d->a + (d->upper ? -z : z) * d->b;
        break;
    default: /* lognormal */
        z = inv_normal(v);
        x = d->a * exp((d->upper ? -z : z) * d->b);
        break;
    }
    /* rounding can step past the cut by an ulp, and v past the CDF's range */
    x = x < d->lo ? d->lo : x > d->hi ? d->hi : x;
    if (d->whole) {
        x = round(x);
        x = x < d->wlo ? d->wlo : x > d->whi ? d->whi : x;
    }
    return x;
}

/* Checks input j (read at in, the array stepped by stride) and prepares
 * its draw; every failure names inputs[j]. */
static int dist_prepare(dist *d, const tco_uncertain *in, size_t j, size_t stride, const dist *earlier,
                        uint64_t seed, tco_error *err)
{
    if (in->size < UNCERTAIN_V1_SIZE || in->size > stride ||
        !tail_is_zero(in, in->size, sizeof *in))
        return tco__fail_named(err, TCO_E_SIZE, "uncertain.size",
                               "inputs[%zu].size = %zu: allowed %zu up to inputs[0].size = %zu, with any bytes past "
                               "the %zu this libtco reads zero",
                               j, in->size, (size_t)UNCERTAIN_V1_SIZE, stride, sizeof *in);
    int ix = tco__param_index(in->key);
    if (ix < 0)
        return tco__fail_key(err, TCO_E_UNKNOWN_PARAM, in->key, "inputs[%zu].key = %d is no parameter's key", j,
                             (int)in->key);
    const param_row *r = &tco__params[ix];
    if (r->type != TCO_TYPE_REAL && r->type != TCO_TYPE_INT)
        return tco__fail_param(err, TCO_E_TYPE, ix, "inputs[%zu]: %s is a %s parameter: only real and int ones can be uncertain",
                               j, r->name, tco_param_type_name(r->type));
    for (size_t e = 0; e < j; e++)
        if (earlier[e].ix == ix)
            return tco__fail_param(err, TCO_E_INCONSISTENT, ix, "inputs[%zu] and inputs[%zu] both make %s uncertain", e,
                                   j, r->name);
    int32_t kind = in->distribution;
    if (kind < TCO_DIST_UNIFORM || kind > TCO_DIST_LOGNORMAL)
        return tco__fail_param(err, TCO_E_RANGE, ix, "inputs[%zu].distribution = %d is no tco_distribution: allowed 1 to 4",
                               j, (int)kind);
    double a = in->a, b = in->b, c = kind == TCO_DIST_TRIANGULAR ? in->c : 0;
    if (!isfinite(a) || !isfinite(b) || !isfinite(c) || !isfinite(in->lo) || !isfinite(in->hi))
        return tco__fail_param(err, TCO_E_NOT_FINITE, ix, "inputs[%zu] (%s, %s): a, b%s, lo and hi must be finite", j,
                               r->name, dist_name(kind), kind == TCO_DIST_TRIANGULAR ? ", c" : "");
    memset(d, 0, sizeof *d);
    d->ix = ix;
    d->kind = kind;
    d->whole = r->type == TCO_TYPE_INT;
    d->a = a;
    d->b = b;
    d->c = c;
    d->key = stream_key(seed, j);

    /* the cut: [lo, hi] as given, within the parameter's bounds */
    double lo = in->lo, hi = in->hi;
    if (lo == 0 && hi == 0) {
        lo = r->lo;
        hi = r->hi;
    } else if (!(lo < hi) || lo < r->lo || hi > r->hi)
        return tco__fail_param(err, TCO_E_RANGE, ix,
                               "inputs[%zu] (%s): lo = %g, hi = %g: allowed lo < hi within %g to %g (both 0: those bounds)",
                               j, r->name, lo, hi, r->lo, r->hi);

    /* the distribution's own parameters, then the cut within its support */
    switch (kind) {
    case TCO_DIST_UNIFORM:
        if (!(b > a))
            return tco__fail_param(err, TCO_E_RANGE, ix, "inputs[%zu] (%s, uniform): needs high b = %g above low a = %g",
                                   j, r->name, b, a);
        lo = MAX(lo, a);
        hi = MIN(hi, b);
        break;
    case TCO_DIST_TRIANGULAR:
        if (!(a <= b && b <= c && a < c))
            return tco__fail_param(err, TCO_E_RANGE, ix,
                                   "inputs[%zu] (%s, triangular): needs low a <= mode b <= high c and a < c, not %g, %g, %g",
                                   j, r->name, a, b, c);
        lo = MAX(lo, a);
        hi = MIN(hi, c);
        break;
    case TCO_DIST_NORMAL:
        if (!(b > 0))
            return tco__fail_param(err, TCO_E_RANGE, ix,
                                   "inputs[%zu] (%s, normal): the standard deviation b = %g must be above 0", j,
                                   r->name, b);
        break;
    default:
        if (!(a > 0 && b > 0))
            return tco__fail_param(err, TCO_E_RANGE, ix,
                                   "inputs[%zu] (%s, lognormal): the median a = %g and sigma b = %g must be above 0", j,
                                   r->name, a, b);
        lo = MAX(lo, 0);
        break;
    }
    if (!(lo < hi))
        return tco__fail_param(err, TCO_E_INCONSISTENT, ix,
                               "inputs[%zu] (%s, %s): the cut leaves nothing of the distribution (from %g to %g)", j,
                               r->name, dist_name(kind), lo, hi);
    d->lo = lo;
    d->hi = hi;
    if (d->whole) {
        d->wlo = ceil(lo);
        d->whi = floor(hi);
        if (d->wlo > d->whi)
            return tco__fail_param(err, TCO_E_INCONSISTENT, ix,
                                   "inputs[%zu] (%s, %s): no whole number lies from %g to %g, and %s is a whole number",
                                   j, r->name, dist_name(kind), lo, hi, r->name);
    }

    /* where the cut lies on the CDF */
    double zl, zh;
    switch (kind) {
    case TCO_DIST_UNIFORM:
        d->f0 = (lo - a) / (b - a);
        d->mass = (hi - lo) / (b - a);
        break;
    case TCO_DIST_TRIANGULAR:
        d->fm = (b - a) / (c - a);
        d->left = (c - a) * (b - a);
        d->right = (c - a) * (c - b);
        d->f0 = triangular_cdf(d, lo);
        d->mass = triangular_cdf(d, hi) - d->f0;
        break;
    default:
        if (kind == TCO_DIST_NORMAL) {
            zl = (lo - a) / b;
            zh = (hi - a) / b;
        } else {
            zl = lo > 0 ? (log(lo) - log(a)) / b : -INFINITY;
            zh = (log(hi) - log(a)) / b;
        }
        /* a cut wholly above the centre is drawn from upper-tail
         * probabilities, which keep their precision there */
        d->upper = zl > 0;
        d->f0 = d->upper ? normal_upper(zh) : normal_cdf(zl);
        d->mass = d->upper ? normal_upper(zl) - d->f0 : normal_cdf(zh) - d->f0;
        break;
    }
    if (!(d->mass > 0))
        return tco__fail_param(err, TCO_E_INCONSISTENT, ix,
                               "inputs[%zu] (%s, %s): the cut from %g to %g holds no probability of the distribution",
                               j, r->name, dist_name(kind), lo, hi);
    return TCO_OK;
}

/* Every input checked into d[0..n). */
static int inputs_prepare(dist *d, const tco_uncertain *inputs, size_t n, uint64_t seed, tco_error *err)
{
    if (n == 0)
        return TCO_OK;
    if (!inputs)
        return tco__fail(err, TCO_E_NULL, "inputs must not be NULL when n_inputs = %zu", n);
    /* a parameter is uncertain once at most: more inputs than parameters
     * repeat one (and the checked inputs fit on the stack) */
    if (n > IX_COUNT)
        return tco__fail(err, TCO_E_RANGE, "n_inputs = %zu: there are %d parameters, each uncertain once at most", n,
                         (int)IX_COUNT);
    /* stepped by the size the caller's header gives a tco_uncertain, so
     * that the array stays readable when the struct grows */
    size_t stride = inputs[0].size;
    if (stride < UNCERTAIN_V1_SIZE || stride > INPUT_MAX_SIZE || stride % sizeof(double) != 0)
        return tco__fail_named(err, TCO_E_SIZE, "uncertain.size",
                               "inputs[0].size = %zu must be sizeof(tco_uncertain): %zu to %d, a multiple of %zu",
                               stride, (size_t)UNCERTAIN_V1_SIZE, INPUT_MAX_SIZE, sizeof(double));
    for (size_t j = 0; j < n; j++) {
        const tco_uncertain *in = (const tco_uncertain *)((const char *)inputs + j * stride);
        int rc = dist_prepare(&d[j], in, j, stride, d, seed, err);
        if (rc)
            return rc;
    }
    return TCO_OK;
}

int tco_monte_carlo_draw(double *values, const tco_uncertain *inputs, size_t n_inputs, uint64_t seed, uint64_t first,
                         size_t count, tco_error *err)
{
    dist d[IX_COUNT];
    int rc = inputs_prepare(d, inputs, n_inputs, seed, err);
    if (rc)
        return rc;
    if (count > 0 && n_inputs > 0 && !values)
        return tco__fail(err, TCO_E_NULL, "values must not be NULL");
    if (n_inputs > 0 && count > SIZE_MAX / n_inputs)
        return tco__fail(err, TCO_E_RANGE, "count = %zu x n_inputs = %zu values do not fit in memory", count, n_inputs);
    if (count > 0 && first > UINT64_MAX - (count - 1))
        return tco__fail(err, TCO_E_RANGE, "first = %" PRIu64 " + count = %zu passes the last sample index, 2^64 - 1",
                         first, count);
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < n_inputs; j++)
            values[i * n_inputs + j] = draw_one(&d[j], first + i);
    return TCO_OK;
}

/* ---- summaries --------------------------------------------------------- */

static const double summary_percentiles[5] = { 5, 10, 50, 90, 95 };

/* The order statistics at the sorted, distinct positions pos[0..m) of
 * a[left..right], each in place: the middle one first, then each side
 * within its part, so that every selection works on a shrinking range. */
static void select_positions(double *a, ptrdiff_t left, ptrdiff_t right, const size_t *pos, size_t m)
{
    if (m == 0)
        return;
    size_t mid = m / 2;
    ptrdiff_t k = (ptrdiff_t)pos[mid];
    tco__select_kth(a, left, right, k);
    select_positions(a, left, k - 1, pos, mid);
    select_positions(a, k + 1, right, pos + mid + 1, m - mid - 1);
}

#define BUCKETS 4096

/* The order statistics at the sorted, distinct positions pos[0..m) of
 * a[0..n), whose least and greatest values are lo < hi, into val[]; a is
 * permuted. Values are counted into BUCKETS equal slices of [lo, hi] (the
 * slice is a monotone function of the value, so slices are ordered); the
 * values of the slices that hold a wanted position are moved to the front,
 * and each position is selected among them alone. Two passes and a
 * selection among about m n / BUCKETS values, instead of m selections
 * among n; a skewed series only brings more values to the front. */
static void order_statistics(double *val, double *a, size_t n, double lo, double hi, const size_t *pos, size_t m)
{
    /* A span too narrow to divide is one slice. One past DBL_MAX makes
     * the scale 0 and x - lo infinite for the largest values: inf x 0 is
     * NaN, which goes to the last slice, still in order. */
    double scale = BUCKETS / (hi - lo);
    if (!(scale < DBL_MAX))
        scale = 0;
    size_t count[BUCKETS];
    memset(count, 0, sizeof count);
#define SLICE(x) ((x - lo) * scale < BUCKETS ? (size_t)((x - lo) * scale) : BUCKETS - 1)
    for (size_t i = 0; i < n; i++)
        count[SLICE(a[i])]++;
    /* the slice of each position, and its rank among the wanted slices' values */
    unsigned char wanted[BUCKETS];
    memset(wanted, 0, sizeof wanted);
    size_t sub[10] = { 0 }, below = 0, b = 0, taken = 0, last = BUCKETS;
    for (size_t p = 0; p < m; p++) {
        for (; below + count[b] <= pos[p]; b++)
            below += count[b];
        if (b != last) { /* a new wanted slice: the values before it that are wanted too */
            taken += last == BUCKETS ? 0 : count[last];
            last = b;
        }
        wanted[b] = 1;
        sub[p] = taken + (pos[p] - below);
    }
    size_t front = 0;
    for (size_t i = 0; i < n; i++)
        if (wanted[SLICE(a[i])]) {
            double t = a[front];
            a[front++] = a[i];
            a[i] = t;
        }
#undef SLICE
    select_positions(a, 0, (ptrdiff_t)front - 1, sub, m);
    for (size_t p = 0; p < m; p++)
        val[p] = a[sub[p]];
}

/* The summary of a[0..n), n >= 1, which it permutes. Returns n, or the
 * index of the first value that is NaN or infinite (then s is not set). */
static size_t summary_of(tco_summary *s, double *a, size_t n)
{
    ksum k = { { 0 }, { 0 } };
    double lo = a[0], hi = a[0];
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        double x = a[i];
        bad |= !(x >= -DBL_MAX && x <= DBL_MAX);
        ksum_add_signed(&k, (int)(i & 3), x);
        lo = MIN(lo, x);
        hi = MAX(hi, x);
    }
    if (bad)
        for (size_t i = 0;; i++)
            if (!isfinite(a[i]))
                return i;
    memset(s, 0, sizeof *s);
    s->size = sizeof *s;
    s->min = lo;
    s->max = hi;
    if (lo == hi) { /* a constant: exactly its value, and no spread */
        s->mean = s->p5 = s->p10 = s->p50 = s->p90 = s->p95 = lo;
        return n;
    }
    /* Values past 2^400 are summed scaled by 2^-600, a power of two and
     * so exact, or their sum and the squares of their deviations could
     * pass DBL_MAX; below it the scale is 1 and changes no bit. */
    double scale = 1;
    if (MAX(-lo, hi) > 0x1p400) {
        scale = 0x1p-600;
        memset(&k, 0, sizeof k);
        for (size_t i = 0; i < n; i++)
            ksum_add_signed(&k, (int)(i & 3), a[i] * scale);
    }
    double mean = ksum_total(&k) / (double)n / scale;
    s->mean = mean = MAX(lo, MIN(hi, mean)); /* never past the values by rounding */
    ksum q = { { 0 }, { 0 } };
    for (size_t i = 0; i < n; i++) {
        double d = a[i] * scale - mean * scale;
        ksum_add(&q, (int)(i & 3), d * d);
    }
    s->sd = n > 1 ? sqrt(ksum_total(&q) / (double)(n - 1)) / scale : 0;

    /* the order statistics the percentiles need, at sorted and distinct
     * positions (two percentiles may share one: 90 and 95 of 11 values) */
    size_t want[10], pos[10], m = 0;
    double w[5], val[10];
    for (int p = 0; p < 5; p++)
        percentile_position(summary_percentiles[p], n, &want[2 * p], &want[2 * p + 1], &w[p]);
    /* want is below_5, above_5, below_10, ...: each below at least the
     * last below and above = below + 1 (or below, at the end), so a
     * position is past the last kept or one of the last two kept */
    for (int i = 0; i < 10; i++)
        if (m == 0 || want[i] > pos[m - 1])
            pos[m++] = want[i];
    order_statistics(val, a, n, lo, hi, pos, m);
    double at[10]; /* the value at each wanted position */
    for (int i = 0; i < 10; i++)
        for (size_t j = 0; j < m; j++)
            if (pos[j] == want[i])
                at[i] = val[j];
    double *out[5] = { &s->p5, &s->p10, &s->p50, &s->p90, &s->p95 };
    for (int p = 0; p < 5; p++)
        *out[p] = percentile_between(at[2 * p], at[2 * p + 1], w[p]);
    return n;
}

static void summary_write(tco_summary *out, size_t out_size, size_t i, tco_summary *s)
{
    char *at = (char *)out + i * out_size;
    s->size = out_size;
    memcpy(at, s, sizeof *s); /* memcpy: out_size need not keep the struct aligned */
    if (out_size > sizeof *s)
        memset(at + sizeof *s, 0, out_size - sizeof *s);
}

int tco_summarise(tco_summary *out, const double *values, size_t n, size_t stride, tco_error *err)
{
    if (!out || !values)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", out ? "values" : "out");
    if (out->size < SUMMARY_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_summary", out->size, SUMMARY_V1_SIZE);
    if (n == 0)
        return tco__fail(err, TCO_E_RANGE, "n = 0: give at least one value");
    if (stride == 0)
        return tco__fail(err, TCO_E_RANGE, "stride = 0: allowed 1 or more (values[i * stride])");
    if (n > SIZE_MAX / stride || n > SIZE_MAX / sizeof(double))
        return tco__fail(err, TCO_E_RANGE, "n = %zu values of stride %zu do not fit in memory", n, stride);
    double *a = malloc(n * sizeof *a); /* selection works on a copy */
    if (!a)
        return tco__fail(err, TCO_E_NOMEM, "no memory for a copy of %zu values", n);
    for (size_t i = 0; i < n; i++)
        a[i] = values[i * stride];
    tco_summary s;
    size_t bad = summary_of(&s, a, n);
    free(a);
    if (bad < n)
        return tco__fail(err, TCO_E_NOT_FINITE, "value %zu (values[%zu]) = %g: every value must be finite", bad,
                         bad * stride, values[bad * stride]);
    if (!isfinite(s.sd)) /* e.g. -DBL_MAX and DBL_MAX: every other figure lies within the values */
        return tco__fail(err, TCO_E_RANGE,
                         "values: their standard deviation passes %g; allowed values whose spread stays below it",
                         DBL_MAX);
    size_t size = out->size;
    summary_write(out, size, 0, &s);
    return TCO_OK;
}

/* ---- Spearman's rank correlation --------------------------------------- */

/* Ranks by an LSD radix sort of the values' bits, 11 at a time: a double
 * maps to an unsigned key in the same order (negative: all bits flipped;
 * otherwise the sign bit set), so equal values get equal keys and sit
 * together. Linear in n, and a pass where every key has the same digit is
 * skipped. */
#define RADIX_BITS 11
#define RADIX (1 << RADIX_BITS)
#define DIGITS 6 /* 6 x 11 >= 64 */

typedef struct rank_space {
    uint64_t *key, *key2;
    size_t *idx, *idx2;
    size_t *hist; /* DIGITS x RADIX */
} rank_space;

static void space_free(rank_space *w)
{
    free(w->key);
    free(w->key2);
    free(w->idx);
    free(w->idx2);
    free(w->hist);
}

static int space_alloc(rank_space *w, size_t n)
{
    w->key = malloc(n * sizeof *w->key);
    w->key2 = malloc(n * sizeof *w->key2);
    w->idx = malloc(n * sizeof *w->idx);
    w->idx2 = malloc(n * sizeof *w->idx2);
    w->hist = malloc(DIGITS * RADIX * sizeof *w->hist);
    if (w->key && w->key2 && w->idx && w->idx2 && w->hist)
        return 1;
    space_free(w);
    memset(w, 0, sizeof *w);
    return 0;
}

/* rank[i]: the 1-based rank of x[i * stride] among the n, ties given the
 * average of the ranks they span. The values are finite. */
static void ranks_of(double *rank, const double *x, size_t stride, size_t n, rank_space *w)
{
    uint64_t *key = w->key, *key2 = w->key2;
    size_t *idx = w->idx, *idx2 = w->idx2, *hist = w->hist;
    memset(hist, 0, DIGITS * RADIX * sizeof *hist);
    for (size_t i = 0; i < n; i++) {
        double v = x[i * stride];
        uint64_t b;
        v = v == 0 ? 0.0 : v; /* -0 and +0 are one value */
        memcpy(&b, &v, sizeof b);
        b = b >> 63 ? ~b : b | UINT64_C(1) << 63;
        key[i] = b;
        idx[i] = i;
        for (int d = 0; d < DIGITS; d++)
            hist[d * RADIX + ((b >> (d * RADIX_BITS)) & (RADIX - 1))]++;
    }
    for (int d = 0; d < DIGITS; d++) {
        size_t *h = hist + d * RADIX;
        int shift = d * RADIX_BITS;
        if (h[(key[0] >> shift) & (RADIX - 1)] == n)
            continue;
        for (size_t r = 0, sum = 0; r < RADIX; r++) {
            size_t count = h[r];
            h[r] = sum;
            sum += count;
        }
        for (size_t i = 0; i < n; i++) {
            size_t at = h[(key[i] >> shift) & (RADIX - 1)]++;
            key2[at] = key[i];
            idx2[at] = idx[i];
        }
        uint64_t *tk = key;
        key = key2;
        key2 = tk;
        size_t *ti = idx;
        idx = idx2;
        idx2 = ti;
    }
    for (size_t s = 0, e; s < n; s = e) {
        for (e = s + 1; e < n && key[e] == key[s]; e++)
            ;
        double r = (double)(s + e + 1) / 2; /* the mean of ranks s + 1 .. e */
        for (size_t t = s; t < e; t++)
            rank[idx[t]] = r;
    }
}

/* Pearson's correlation of two rankings of n: 0 when either has no spread
 * (every value tied), where the coefficient is undefined. */
static double rank_pearson(const double *rx, const double *ry, size_t n)
{
    double m = ((double)n + 1) / 2; /* the mean rank, ties or not */
    ksum xy = { { 0 }, { 0 } }, xx = { { 0 }, { 0 } }, yy = { { 0 }, { 0 } };
    for (size_t i = 0; i < n; i++) {
        double dx = rx[i] - m, dy = ry[i] - m; /* multiples of 1/2: exact */
        ksum_add_signed(&xy, (int)(i & 3), dx * dy);
        ksum_add(&xx, (int)(i & 3), dx * dx);
        ksum_add(&yy, (int)(i & 3), dy * dy);
    }
    double sxx = ksum_total(&xx), syy = ksum_total(&yy);
    if (!(sxx > 0 && syy > 0))
        return 0;
    double r = ksum_total(&xy) / sqrt(sxx * syy);
    return MAX(-1, MIN(1, r));
}

/* The index of the first non-finite x[i * stride], or n. */
static size_t first_not_finite(const double *x, size_t stride, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) /* branch-free: a filter, the search below decides */
        bad |= !(x[i * stride] >= -DBL_MAX && x[i * stride] <= DBL_MAX);
    if (!bad)
        return n;
    size_t i = 0;
    while (i < n && isfinite(x[i * stride]))
        i++;
    return i;
}

int tco_rank_correlation(double *out, const double *x, size_t x_stride, const double *y, size_t y_stride, size_t n,
                         tco_error *err)
{
    if (!out || !x || !y)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !out ? "out" : !x ? "x" : "y");
    if (n == 0)
        return tco__fail(err, TCO_E_RANGE, "n = 0: give at least one pair");
    if (x_stride == 0 || y_stride == 0)
        return tco__fail(err, TCO_E_RANGE, "%s = 0: allowed 1 or more", x_stride == 0 ? "x_stride" : "y_stride");
    if (n > SIZE_MAX / x_stride || n > SIZE_MAX / y_stride || n > SIZE_MAX / 2 / sizeof(uint64_t))
        return tco__fail(err, TCO_E_RANGE, "n = %zu pairs do not fit in memory", n);
    size_t bx = first_not_finite(x, x_stride, n), by = first_not_finite(y, y_stride, n);
    if (bx < n || by < n) {
        int is_x = bx <= by;
        size_t i = is_x ? bx : by, stride = is_x ? x_stride : y_stride;
        return tco__fail(err, TCO_E_NOT_FINITE, "pair %zu: %s[%zu] = %g must be finite", i, is_x ? "x" : "y",
                         i * stride, (is_x ? x : y)[i * stride]);
    }
    rank_space w;
    double *rx = malloc(n * sizeof *rx), *ry = malloc(n * sizeof *ry);
    if (!rx || !ry || !space_alloc(&w, n)) {
        free(rx);
        free(ry);
        return tco__fail(err, TCO_E_NOMEM, "no memory to rank %zu pairs", n);
    }
    ranks_of(rx, x, x_stride, n, &w);
    ranks_of(ry, y, y_stride, n, &w);
    *out = rank_pearson(rx, ry, n);
    space_free(&w);
    free(rx);
    free(ry);
    return TCO_OK;
}

/* ---- the series: every scalar of tco_estimate -------------------------- */

/* Static names for the slots of the by-category fields (cost, fixed) and
 * of waste, in enum order; the field table names the rest. tests/api/test_montecarlo.c checks them against
 * tco_category_name and tco_waste_name. */
static const char *const cost_series[] = {
    "cost.compute",  "cost.power",    "cost.cooling",  "cost.network",  "cost.storage",  "cost.database",
    "cost.logging",  "cost.security", "cost.platform", "cost.staff",    "cost.indirect", "cost.waste",
};
static const char *const fixed_series[] = {
    "fixed.compute",  "fixed.power",    "fixed.cooling",  "fixed.network",  "fixed.storage",  "fixed.database",
    "fixed.logging",  "fixed.security", "fixed.platform", "fixed.staff",    "fixed.indirect", "fixed.waste",
};
static const char *const waste_series[] = {
    "waste.idle", "waste.failures", "waste.data_stalls", "waste.checkpoints", "waste.retries",
};
typedef char cost_series_cover[sizeof cost_series / sizeof cost_series[0] == TCO_CAT_WASTE + 1 ? 1 : -1];
typedef char fixed_series_cover[sizeof fixed_series / sizeof fixed_series[0] == TCO_CAT_WASTE + 1 ? 1 : -1];
typedef char waste_series_cover[sizeof waste_series / sizeof waste_series[0] == TCO_WASTE_RETRIES + 1 ? 1 : -1];

#define SERIES_MAX (FIELDS_MAX + TCO_CATEGORY_SLOTS + TCO_WASTE_SLOTS)

/* The series in the field table's order, cost and waste expanded by slot:
 * their offsets into tco_estimate and names (either may be NULL). */
static size_t series_list(size_t *offset, const char **name)
{
    size_t n = 0;
    /* the typedefs above hold each list to its enum (and test_series_names to the tables) */
    size_t costs = sizeof cost_series / sizeof cost_series[0];
    size_t wastes = sizeof waste_series / sizeof waste_series[0];
    for (size_t f = 0; f < tco__field_rows; f++) {
        const field_row *r = &tco__fields[f];
        size_t slots = r->type == TCO_FIELD_DOUBLE ? 1 : r->type == TCO_FIELD_CATEGORIES ? costs
                                                     : r->type == TCO_FIELD_WASTES       ? wastes
                                                                                         : 0;
        for (size_t s = 0; s < slots; s++, n++) {
            if (offset)
                offset[n] = r->offset + s * sizeof(double);
            if (name)
                name[n] = r->type == TCO_FIELD_DOUBLE       ? r->name
                          : r->type == TCO_FIELD_WASTES       ? waste_series[s]
                          : strcmp(r->name, "fixed") == 0     ? fixed_series[s]
                                                              : cost_series[s];
        }
    }
    return n;
}

size_t tco_monte_carlo_series(void)
{
    return series_list(NULL, NULL);
}

const char *tco_monte_carlo_series_name(size_t i)
{
    const char *name[SERIES_MAX];
    size_t n = series_list(NULL, name);
    return i < n ? name[i] : NULL;
}

/* ---- the whole run ----------------------------------------------------- */

#define HUGE_PAGE ((size_t)1 << 21)

/* The buffer of a run, freed with free. A large one is aligned to 2 MiB
 * and, where Linux offers it, asked for transparent huge pages: the
 * threads then take one page fault per 2 MiB rather than per 4 KiB, which
 * at a million samples (600 MB) halves the run, the kernel serialising
 * the faults of one process. A hint only: refused, it changes nothing. */
static double *buffer_alloc(size_t bytes)
{
    if (bytes < 4 * HUGE_PAGE)
        return malloc(bytes);
    void *at = NULL;
    if (posix_memalign(&at, HUGE_PAGE, bytes) != 0)
        return NULL;
#if defined(MADV_HUGEPAGE)
    (void)madvise(at, bytes, MADV_HUGEPAGE);
#endif
    return at;
}

/* What every thread of a run reads. The buffer is series-major: series s
 * (then input j as series S + j) of sample i at buf[s * n + i]. */
typedef struct run_shared {
    const dist *d;
    size_t k;               /* inputs */
    const size_t *offset;
    size_t S;               /* series */
    size_t n;               /* samples */
    double *buf;
    pthread_mutex_t lock;   /* guards failed_at */
    size_t failed_at;       /* the lowest sample known to fail, or n */
} run_shared;

/* Phase 1: a contiguous range of samples, drawn, priced and stored. */
typedef struct run_chunk {
    run_shared *sh;
    variant *v;
    size_t first, end;
    int rc;
    size_t failed;          /* the sample that failed */
    tco_error err;
} run_chunk;

/* Sets the sample's values on the variant, then prepares each handle they
 * touch once: values that a handle's checks compare (reserved and on-demand
 * prices) are judged together, never against the other's old value. */
static int variant_sample(variant *v, const dist *d, const double *x, size_t k, tco_error *err)
{
    int touched[3] = { 0, 0, 0 };
    for (size_t j = 0; j < k; j++) {
        const param_row *r = &tco__params[d[j].ix];
        int rc = tco__param_check(r, x[j], err);
        if (rc)
            return rc;
        v->h[r->handle - 1].v[d[j].ix] = x[j];
        touched[r->handle - 1] = 1;
    }
    for (int h = 0; h < 3; h++)
        if (touched[h]) {
            int rc = tco__obj_prepare(&v->h[h], err);
            if (rc)
                return rc;
        }
    return TCO_OK;
}

/* A failure of sample i: its index and the inputs' values before the reason. */
static void sample_failed(run_chunk *c, size_t i, const double *x, const tco_error *why)
{
    const run_shared *sh = c->sh;
    char text[TCO_ERROR_MESSAGE_MAX];
    size_t len = (size_t)snprintf(text, sizeof text, "Monte Carlo sample %zu (", i);
    for (size_t j = 0; j < sh->k && len < sizeof text; j++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s = %g", j ? ", " : "",
                                tco__params[sh->d[j].ix].name, x[j]);
    c->rc = why->code;
    c->failed = i;
    tco__refail(&c->err, why, "%s): %s", text, why->message); /* cut at the message's length */
}

static void *run_samples(void *arg)
{
    run_chunk *c = arg;
    run_shared *sh = c->sh;
    const size_t S = sh->S, k = sh->k, n = sh->n;
    double x[IX_COUNT];
    tco_estimate e;
    for (size_t i = c->first; i < c->end; i++) {
        /* a lower sample failed already: nothing here can be the answer */
        if ((i - c->first) % 1024 == 0) {
            pthread_mutex_lock(&sh->lock);
            size_t failed_at = sh->failed_at;
            pthread_mutex_unlock(&sh->lock);
            if (failed_at < i)
                break;
        }
        for (size_t j = 0; j < k; j++)
            x[j] = draw_one(&sh->d[j], (uint64_t)i);
        tco_error why = TCO_ERROR_INIT;
        int rc = variant_sample(c->v, sh->d, x, k, &why);
        if (rc == TCO_OK)
            rc = tco__variant_estimate(&e, c->v, &why);
        if (rc) {
            sample_failed(c, i, x, &why);
            pthread_mutex_lock(&sh->lock);
            if (i < sh->failed_at)
                sh->failed_at = i;
            pthread_mutex_unlock(&sh->lock);
            break;
        }
        const char *base = (const char *)&e;
        double *at = sh->buf + i;
        for (size_t s = 0; s < S; s++)
            memcpy(at + s * n, base + sh->offset[s], sizeof(double));
        for (size_t j = 0; j < k; j++)
            at[(S + j) * n] = x[j];
    }
    return NULL;
}

/* Phase 2: summaries of series w, w + T, ...; then, for a worker with
 * rank space, the correlations of inputs w, w + C, ... with the total. */
typedef struct run_task {
    const run_shared *sh;
    size_t w, T, C;
    tco_summary *summary;   /* S of them */
    size_t *bad;            /* per series: a non-finite sample, or n */
    const double *rank_total;
    double *rank;           /* n, with space; NULL without */
    rank_space space;
    double *correlation;
} run_task;

static void *run_summaries(void *arg)
{
    run_task *t = arg;
    const run_shared *sh = t->sh;
    for (size_t s = t->w; s < sh->S; s += t->T)
        t->bad[s] = summary_of(&t->summary[s], sh->buf + s * sh->n, sh->n);
    if (t->rank)
        for (size_t j = t->w; j < sh->k; j += t->C) {
            ranks_of(t->rank, sh->buf + (sh->S + j) * sh->n, 1, sh->n, &t->space);
            t->correlation[j] = rank_pearson(t->rank, t->rank_total, sh->n);
        }
    return NULL;
}

/* Runs fn on each of count argument blocks, the first in the calling
 * thread; a block whose thread cannot start runs here afterwards. Blocks
 * are independent, so the result is the same either way. */
static void run_all(void *(*fn)(void *), void *args, size_t arg_size, size_t count)
{
    pthread_t tid[MAX_THREADS];
    int started[MAX_THREADS];
    for (size_t k = 1; k < count; k++)
        started[k] = pthread_create(&tid[k], NULL, fn, (char *)args + k * arg_size) == 0;
    fn(args);
    for (size_t k = 1; k < count; k++) {
        if (started[k])
            pthread_join(tid[k], NULL);
        else
            fn((char *)args + k * arg_size);
    }
}

int tco_monte_carlo(tco_summary *summaries, size_t summary_size, double *correlation, const tco_uncertain *inputs,
                    size_t n_inputs, uint64_t seed, size_t samples, int32_t threads, const tco_topology *t,
                    const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    int rc;
    if (!summaries)
        return tco__fail(err, TCO_E_NULL, "summaries must not be NULL");
    if (n_inputs > 0 && !correlation)
        return tco__fail(err, TCO_E_NULL, "correlation must not be NULL when n_inputs = %zu", n_inputs);
    if ((rc = tco__stride_check(summary_size, SUMMARY_V1_SIZE, "summary_size", "tco_summary", err)))
        return rc;
    if ((rc = tco__frozen_inputs(t, w, p, err)))
        return rc;
    dist d[IX_COUNT];
    if ((rc = inputs_prepare(d, inputs, n_inputs, seed, err)))
        return rc;
    if (samples == 0)
        return tco__fail(err, TCO_E_RANGE, "samples = 0: allowed 1 or more");
    if (threads < 0)
        return tco__fail(err, TCO_E_RANGE, "threads = %d: allowed 0 (one per core) or more", (int)threads);
    size_t T = (size_t)threads;
    if (T == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        T = cores > 0 ? (size_t)cores : 1;
    }
    T = MIN(MIN(T, (size_t)MAX_THREADS), samples);

    size_t offset[SERIES_MAX];
    const size_t S = series_list(offset, NULL), k = n_inputs, n = samples; /* series 0: the total */

    /* Everything is allocated before the first sample: the buffer, a
     * variant per thread, the ranks of the total, and rank space for up
     * to one thread per input. */
    size_t C = MIN(T, k);
    run_chunk *chunk = NULL;
    run_task *task = NULL;
    double *buf = NULL, *rank_total = NULL;
    variant *v = NULL;
    tco_summary *summary = NULL;
    size_t *bad = NULL;
    int nomem = n > SIZE_MAX / sizeof(double) / (S + k + 1);
    if (!nomem) {
        buf = buffer_alloc((S + k) * n * sizeof *buf);
        rank_total = k ? malloc(n * sizeof *rank_total) : NULL;
        v = malloc(T * sizeof *v);
        chunk = calloc(T, sizeof *chunk);
        task = calloc(T, sizeof *task);
        summary = malloc(S * sizeof *summary);
        bad = malloc(S * sizeof *bad);
        nomem = !buf || (k && !rank_total) || !v || !chunk || !task || !summary || !bad;
        for (size_t c = 0; c < C && !nomem; c++) {
            task[c].rank = malloc(n * sizeof *task[c].rank);
            nomem = !task[c].rank || !space_alloc(&task[c].space, n);
        }
    }
    rc = TCO_OK;
    if (nomem) {
        rc = tco__fail(err, TCO_E_NOMEM, "no memory for %zu samples of %zu series and %zu inputs", n, S, k);
        goto out;
    }

    /* Phase 1: samples in contiguous ranges, one per thread. */
    run_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.d = d;
    sh.k = k;
    sh.offset = offset;
    sh.S = S;
    sh.n = n;
    sh.buf = buf;
    sh.failed_at = n;
    if (pthread_mutex_init(&sh.lock, NULL) != 0) {
        rc = tco__fail(err, TCO_E_NOMEM, "no mutex for the threads of a Monte Carlo run");
        goto out;
    }
    for (size_t c = 0; c < T; c++) {
        tco__variant_init(&v[c], t, w, p);
        chunk[c].sh = &sh;
        chunk[c].v = &v[c];
        chunk[c].first = c * (n / T) + MIN(c, n % T);
        chunk[c].end = chunk[c].first + n / T + (c < n % T);
        chunk[c].err.size = sizeof chunk[c].err;
    }
    run_all(run_samples, chunk, sizeof *chunk, T);
    pthread_mutex_destroy(&sh.lock);
    /* the lowest failing sample, whichever thread met it */
    for (size_t c = 0; c < T; c++)
        if (chunk[c].rc) {
            rc = tco__refail(err, &chunk[c].err, "%s", chunk[c].err.message);
            goto out;
        }

    /* Phase 2: the total's ranks (before its summary reorders it), then the
     * summaries and the correlations, spread over the threads. */
    if (k)
        ranks_of(rank_total, buf, 1, n, &task[0].space);
    double staged[IX_COUNT];
    for (size_t c = 0; c < T; c++) {
        task[c].sh = &sh;
        task[c].w = c;
        task[c].T = T;
        task[c].C = C;
        task[c].summary = summary;
        task[c].bad = bad;
        task[c].rank_total = rank_total;
        task[c].correlation = staged; /* correlation is written once nothing can fail */
    }
    run_all(run_summaries, task, sizeof *task, T);
    const char *name[SERIES_MAX]; /* for a failure's message */
    series_list(NULL, name);
    for (size_t s = 0; s < S; s++)
        if (bad[s] < n) {
            rc = tco__fail(err, TCO_E_NOT_FINITE, "Monte Carlo sample %zu: %s = %g is not finite", bad[s], name[s],
                           buf[s * n + bad[s]]);
            goto out;
        }
    for (size_t s = 0; s < S; s++)
        if (!isfinite(summary[s].sd)) {
            rc = tco__fail(err, TCO_E_RANGE, "Monte Carlo %s: its standard deviation passes %g", name[s], DBL_MAX);
            goto out;
        }
    for (size_t s = 0; s < S; s++)
        summary_write(summaries, summary_size, s, &summary[s]);
    if (k)
        memcpy(correlation, staged, k * sizeof *correlation);

out:
    if (task)
        for (size_t c = 0; c < C; c++) {
            free(task[c].rank);
            space_free(&task[c].space);
        }
    free(task);
    free(summary);
    free(bad);
    free(chunk);
    free(v);
    free(rank_total);
    free(buf);
    return rc;
}
