/* Monte Carlo: the counter-based generator against values worked out
 * independently, draws the same in chunks as in one call, each
 * distribution's statistics against the analytic ones, cuts respected, bad
 * inputs refused by index, summaries and rank correlations against hand-
 * worked values, and whole runs the same on 1, 2 and 3 threads and the same
 * as the public pieces (draw, sweep, summarise, rank) put together. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

#define N_STAT 100000

static tco_uncertain U(int32_t key, int32_t dist, double a, double b, double c, double lo, double hi)
{
    tco_uncertain u;
    memset(&u, 0, sizeof u);
    u.size = sizeof u;
    u.key = key;
    u.distribution = dist;
    u.a = a;
    u.b = b;
    u.c = c;
    u.lo = lo;
    u.hi = hi;
    return u;
}

static void defaults(scen *s)
{
    scen_defaults(s);
}

static tco_summary summarise(const double *x, size_t n, size_t stride)
{
    tco_summary s = { .size = sizeof s };
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_summarise(&s, x, n, stride, &err);
    if (rc)
        print_error("summarise: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    return s;
}

/* ---- the generator ----------------------------------------------------- */

/* The first three samples of five inputs, seed 42, worked out in Python
 * (3.11, statistics.NormalDist for AS241) from doc/model.md's definition:
 *
 *   G = 0x9E3779B97F4A7C15; M = 2**64 - 1
 *   def mix(z):
 *       z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
 *       z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
 *       return z ^ (z >> 31)
 *   key = mix((mix(seed) + (j + 1) * G) & M)
 *   u = ((mix((key + (i + 1) * G) & M) >> 12) + 0.5) * 2.0 ** -52
 *   j 0: uniform(0, 1)          u
 *   j 1: normal(100, 1)         NormalDist(100, 1).inv_cdf(u)
 *   j 2: lognormal(0.1, 0.3)    0.1 * exp(0.3 * NormalDist().inv_cdf(u))
 *   j 3: triangular(5, 15, 60)  5 + sqrt(u * (55 * 10)) if u < 10 / 55
 *                               else 60 - sqrt((1 - u) * (55 * 45))
 *   j 4: uniform(1, 20.99), int round(1 + u * 19.99)
 *
 * Each cut (the parameter's bounds) holds all the probability to the bit
 * (F(lo) = 0 and F(hi) = 1 in doubles), so u enters the inverse CDF as is. */
static const double first_values[3][5] = {
    { 0.33437656621120204, 99.74712020103563, 0.08674144576788688, 50.75873890759479, 14.0 },
    { 0.8362901824612591, 101.23597676513137, 0.17295478461451746, 18.50641263807605, 10.0 },
    { 0.9258649126909574, 101.1139820656902, 0.12762135987266207, 16.08725766629484, 17.0 },
};

static void five_inputs(tco_uncertain in[5])
{
    in[0] = U(TCO_P_OWNED_SHARE, TCO_DIST_UNIFORM, 0, 1, 0, 0, 0);
    in[1] = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_NORMAL, 100, 1, 0, 0, 0);
    in[2] = U(TCO_P_ELECTRICITY_PER_KWH, TCO_DIST_LOGNORMAL, 0.1, 0.3, 0, 0, 0);
    in[3] = U(TCO_P_RESTART_MINUTES, TCO_DIST_TRIANGULAR, 5, 15, 60, 0, 0);
    in[4] = U(TCO_P_CHECKPOINT_RETENTION, TCO_DIST_UNIFORM, 1, 20.99, 0, 0, 0);
}

static void test_generator_first_values(void **state)
{
    (void)state;
    tco_uncertain in[5];
    five_inputs(in);
    double v[3 * 5];
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_monte_carlo_draw(v, in, 5, 42, 0, 3, &err), TCO_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++)
            if (v[i * 5 + j] != first_values[i][j]) {
                print_error("sample %d input %d = %.17g, expected %.17g\n", i, j, v[i * 5 + j], first_values[i][j]);
                fail();
            }
    /* another seed, other values */
    double other[3 * 5];
    assert_int_equal(tco_monte_carlo_draw(other, in, 5, 43, 0, 3, NULL), TCO_OK);
    for (int x = 0; x < 15; x++)
        if (x % 5 != 4) /* rounded values may meet */
            assert_true(other[x] != v[x]);
}

static void test_chunks_equal_one_call(void **state)
{
    (void)state;
    tco_uncertain in[5];
    five_inputs(in);
    enum { N = 1000 };
    double *all = malloc(N * 5 * sizeof *all), *parts = malloc(N * 5 * sizeof *parts);
    assert_non_null(all);
    assert_non_null(parts);
    assert_int_equal(tco_monte_carlo_draw(all, in, 5, 7, 0, N, NULL), TCO_OK);
    /* chunks of 1, 6, 293 and the rest */
    size_t bounds[] = { 0, 1, 7, 300, N };
    for (int c = 0; c < 4; c++)
        assert_int_equal(tco_monte_carlo_draw(parts + bounds[c] * 5, in, 5, 7, bounds[c], bounds[c + 1] - bounds[c],
                                              NULL),
                         TCO_OK);
    assert_memory_equal(all, parts, N * 5 * sizeof *all);
    /* one sample far along, alone and as the last of a chunk */
    double one[5], chunk[3 * 5];
    const uint64_t far = UINT64_C(5000000000000);
    assert_int_equal(tco_monte_carlo_draw(one, in, 5, 7, far, 1, NULL), TCO_OK);
    assert_int_equal(tco_monte_carlo_draw(chunk, in, 5, 7, far - 2, 3, NULL), TCO_OK);
    assert_memory_equal(one, chunk + 10, sizeof one);
    /* an input's values do not depend on the inputs after it */
    double two[N * 2];
    assert_int_equal(tco_monte_carlo_draw(two, in, 2, 7, 0, N, NULL), TCO_OK);
    for (int i = 0; i < N; i++) {
        assert_true(two[i * 2] == all[i * 5]);
        assert_true(two[i * 2 + 1] == all[i * 5 + 1]);
    }
    /* the last sample index is allowed; one past it is not */
    assert_int_equal(tco_monte_carlo_draw(one, in, 5, 7, UINT64_MAX, 1, NULL), TCO_OK);
    assert_int_equal(tco_monte_carlo_draw(chunk, in, 5, 7, UINT64_MAX, 2, NULL), TCO_E_RANGE);
    /* no samples, or samples of no inputs, need no buffer */
    assert_int_equal(tco_monte_carlo_draw(NULL, in, 5, 7, 0, 0, NULL), TCO_OK);
    assert_int_equal(tco_monte_carlo_draw(NULL, in, 0, 7, 0, 5, NULL), TCO_OK);
    /* count x n_inputs = SIZE_MAX values fit in size_t: what refuses
     * SIZE_MAX samples of one input from index 2 is the last index, 2^64 - 1 */
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_monte_carlo_draw(one, in, 1, 7, 2, SIZE_MAX, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "passes the last sample index"));
    assert_int_equal(tco_monte_carlo_draw(one, in, 2, 7, 0, SIZE_MAX / 2 + 1, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "do not fit in memory"));
    free(all);
    free(parts);
}

/* ---- distributions ----------------------------------------------------- */

static const double pct[5] = { 5, 10, 50, 90, 95 };
/* the standard normal quantiles of 0.05, 0.10, 0.5, 0.90, 0.95 */
static const double zq[5] = { -1.6448536269514722, -1.2815515655446004, 0, 1.2815515655446004, 1.6448536269514722 };

static double phi(double z)
{
    return exp(-z * z / 2) / sqrt(2 * 3.14159265358979323846);
}

static double cdf(double z)
{
    return 0.5 * erfc(-z / sqrt(2));
}

/* What a distribution is, analytically: mean, sd, kurtosis, and for each
 * percentile its quantile and the density there. */
typedef struct analytic {
    double mean, sd, kurtosis;
    double q[5], f[5];
} analytic;

/* Draws N_STAT values of one input and checks them against the analytic
 * figures, each within 5 standard errors: the mean's is sd / sqrt(n), a
 * percentile's sqrt(p (1 - p) / n) / f(q), the sd's sd sqrt((kurtosis - 1)
 * / (4 n)) (the large-sample variances; Kendall and Stuart, vol. 1, 10.5
 * and 10.10). The seed is fixed, so a pass is not luck that can run out:
 * 5 standard errors are wide enough for any correct generator (a miss has
 * probability below 1e-6 per figure) and narrow enough to catch a wrong
 * formula (a tail or a spread off by a few percent). */
static void check_distribution(const tco_uncertain *in, const analytic *want, const char *what)
{
    double *x = malloc(N_STAT * sizeof *x);
    assert_non_null(x);
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_monte_carlo_draw(x, in, 1, 2024, 0, N_STAT, &err);
    if (rc)
        print_error("%s: %s\n", what, err.message);
    assert_int_equal(rc, TCO_OK);
    tco_summary s = summarise(x, N_STAT, 1);
    double n = N_STAT;
    double se_mean = want->sd / sqrt(n), se_sd = want->sd * sqrt((want->kurtosis - 1) / (4 * n));
    if (fabs(s.mean - want->mean) > 5 * se_mean || fabs(s.sd - want->sd) > 5 * se_sd) {
        print_error("%s: mean %.6g (want %.6g +- %.3g), sd %.6g (want %.6g +- %.3g)\n", what, s.mean, want->mean,
                    5 * se_mean, s.sd, want->sd, 5 * se_sd);
        fail();
    }
    const double got[5] = { s.p5, s.p10, s.p50, s.p90, s.p95 };
    for (int k = 0; k < 5; k++) {
        double p = pct[k] / 100, se = sqrt(p * (1 - p) / n) / want->f[k];
        if (fabs(got[k] - want->q[k]) > 5 * se) {
            print_error("%s: p%g = %.6g, want %.6g +- %.3g\n", what, pct[k], got[k], want->q[k], 5 * se);
            fail();
        }
    }
    free(x);
}

static void test_uniform(void **state)
{
    (void)state;
    double a = 2000, b = 5000;
    tco_uncertain in = U(TCO_P_NODE_OVERHEAD_WATTS, TCO_DIST_UNIFORM, a, b, 0, 0, 0);
    analytic want = { (a + b) / 2, (b - a) / sqrt(12), 1.8, { 0 }, { 0 } };
    for (int k = 0; k < 5; k++) {
        want.q[k] = a + pct[k] / 100 * (b - a);
        want.f[k] = 1 / (b - a);
    }
    check_distribution(&in, &want, "uniform(2000, 5000)");
}

static void test_triangular(void **state)
{
    (void)state;
    double a = 5, m = 15, c = 60; /* low, mode, high */
    tco_uncertain in = U(TCO_P_RESTART_MINUTES, TCO_DIST_TRIANGULAR, a, m, c, 0, 0);
    analytic want = { (a + m + c) / 3, sqrt((a * a + m * m + c * c - a * m - a * c - m * c) / 18), 2.4, { 0 }, { 0 } };
    double fm = (m - a) / (c - a);
    for (int k = 0; k < 5; k++) {
        double p = pct[k] / 100;
        double q = p < fm ? a + sqrt(p * (c - a) * (m - a)) : c - sqrt((1 - p) * (c - a) * (c - m));
        want.q[k] = q;
        want.f[k] = q < m ? 2 * (q - a) / ((c - a) * (m - a)) : 2 * (c - q) / ((c - a) * (c - m));
    }
    check_distribution(&in, &want, "triangular(5, 15, 60)");
}

static void test_normal(void **state)
{
    (void)state;
    double mu = 50, sd = 5;
    tco_uncertain in = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_NORMAL, mu, sd, 0, 0, 0);
    analytic want = { mu, sd, 3, { 0 }, { 0 } };
    for (int k = 0; k < 5; k++) {
        want.q[k] = mu + sd * zq[k];
        want.f[k] = phi(zq[k]) / sd;
    }
    check_distribution(&in, &want, "normal(50, 5)");
}

static void test_lognormal(void **state)
{
    (void)state;
    double med = 0.1, s = 0.5, s2 = s * s;
    tco_uncertain in = U(TCO_P_ELECTRICITY_PER_KWH, TCO_DIST_LOGNORMAL, med, s, 0, 0, 0);
    analytic want = { med * exp(s2 / 2), med * sqrt((exp(s2) - 1) * exp(s2)),
                      exp(4 * s2) + 2 * exp(3 * s2) + 3 * exp(2 * s2) - 3, { 0 }, { 0 } };
    for (int k = 0; k < 5; k++) {
        want.q[k] = med * exp(s * zq[k]);
        want.f[k] = phi(zq[k]) / (want.q[k] * s);
    }
    check_distribution(&in, &want, "lognormal(0.1, 0.5)");
}

/* ---- cuts and rounding ------------------------------------------------- */

/* The mean and sd of a normal(mu, sd) cut to [lo, hi]. */
static void cut_normal(double *mean, double *sd, double mu, double s, double lo, double hi)
{
    double a = (lo - mu) / s, b = (hi - mu) / s;
    double z = a > 0 ? 0.5 * erfc(a / sqrt(2)) - 0.5 * erfc(b / sqrt(2)) : cdf(b) - cdf(a);
    double d = (phi(a) - phi(b)) / z;
    *mean = mu + s * d;
    *sd = s * sqrt(1 + (a * phi(a) - b * phi(b)) / z - d * d);
}

/* Every value within [lo, hi], and the mean within 5 standard errors of
 * the cut distribution's. */
static void check_cut(const tco_uncertain *in, double lo, double hi, double mean, double sd, int whole, const char *what)
{
    double *x = malloc(N_STAT * sizeof *x);
    assert_non_null(x);
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_monte_carlo_draw(x, in, 1, 99, 0, N_STAT, &err);
    if (rc)
        print_error("%s: %s\n", what, err.message);
    assert_int_equal(rc, TCO_OK);
    for (int i = 0; i < N_STAT; i++) {
        if (!(x[i] >= lo && x[i] <= hi) || (whole && x[i] != floor(x[i]))) {
            print_error("%s: sample %d = %.17g, outside %g to %g%s\n", what, i, x[i], lo, hi, whole ? " or not whole" : "");
            fail();
        }
    }
    if (sd > 0) {
        tco_summary s = summarise(x, N_STAT, 1);
        if (fabs(s.mean - mean) > 5 * sd / sqrt(N_STAT)) {
            print_error("%s: mean %.8g, want %.8g +- %.3g\n", what, s.mean, mean, 5 * sd / sqrt(N_STAT));
            fail();
        }
    }
    free(x);
}

static void test_cuts(void **state)
{
    (void)state;
    double mean, sd;
    /* around the centre: symmetric, so the mean stays */
    tco_uncertain in = U(TCO_P_MFU, TCO_DIST_NORMAL, 0.4, 0.2, 0, 0.3, 0.5);
    cut_normal(&mean, &sd, 0.4, 0.2, 0.3, 0.5);
    check_cut(&in, 0.3, 0.5, mean, sd, 0, "normal(0.4, 0.2) in [0.3, 0.5]");
    /* wholly in the upper tail, 4 to 10 sd out: drawn from the tail's
     * probabilities (1 - F would have lost every digit) */
    in = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_NORMAL, 10, 1, 0, 14, 20);
    cut_normal(&mean, &sd, 10, 1, 14, 20);
    assert_true(mean > 14.2 && mean < 14.25);
    check_cut(&in, 14, 20, mean, sd, 0, "normal(10, 1) in [14, 20]");
    in = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_NORMAL, 10, 1, 0, 20, 30); /* F(20) = 1 - 7.6e-24 */
    cut_normal(&mean, &sd, 10, 1, 20, 30);
    check_cut(&in, 20, 30, mean, sd, 0, "normal(10, 1) in [20, 30]");
    /* and in the lower tail */
    in = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_NORMAL, 100, 1, 0, 80, 95);
    cut_normal(&mean, &sd, 100, 1, 80, 95);
    check_cut(&in, 80, 95, mean, sd, 0, "normal(100, 1) in [80, 95]");
    /* no cut given: the parameter's bounds (mfu: 0.001 to 1) */
    in = U(TCO_P_MFU, TCO_DIST_NORMAL, 0.5, 0.5, 0, 0, 0);
    check_cut(&in, 0.001, 1, 0, 0, 0, "normal(0.5, 0.5) in mfu's bounds");
    /* lognormal cut in log space: log x is normal(0, 1) cut to [log 2, log 3] */
    in = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_LOGNORMAL, 1, 1, 0, 2, 3);
    check_cut(&in, 2, 3, 0, 0, 0, "lognormal(1, 1) in [2, 3]");
    /* uniform and triangular: the support's part within the cut */
    in = U(TCO_P_MFU, TCO_DIST_UNIFORM, 0.2, 0.6, 0, 0.5, 0.9);
    check_cut(&in, 0.5, 0.6, 0.55, 0.1 / sqrt(12), 0, "uniform(0.2, 0.6) in [0.5, 0.9]");
    in = U(TCO_P_MFU, TCO_DIST_TRIANGULAR, 0.2, 0.3, 0.6, 0.35, 0.45);
    check_cut(&in, 0.35, 0.45, 0, 0, 0, "triangular(0.2, 0.3, 0.6) in [0.35, 0.45]");
    /* a cut below the mode: triangular(1, 2, 3) has density x - 1 up to 2
     * and 3 - x above; on [1.5, 3] its mass is 1 - 0.5^2 / 2 = 0.875, the
     * first moment (2/3 + 7/6) / 0.875 = 2.0952381, the second
     * (1.1927083 + 2.75) / 0.875 = 4.5059524: sd sqrt(4.5059524 -
     * 2.0952381^2) = 0.34048452 */
    in = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_TRIANGULAR, 1, 2, 3, 1.5, 3);
    check_cut(&in, 1.5, 3, 2.0952381, 0.34048452, 0, "triangular(1, 2, 3) in [1.5, 3]");
    /* the mode at the low end: density falling from 1 to 3, mean (1 + 1 +
     * 3) / 3 = 5/3, sd sqrt((1 + 1 + 9 - 1 - 3 - 3) / 18) = sqrt(2) / 3 */
    in = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_TRIANGULAR, 1, 1, 3, 0, 0);
    check_cut(&in, 1, 3, 5.0 / 3, sqrt(2) / 3, 0, "triangular(1, 1, 3)");
    /* an int parameter: whole numbers within its bounds (checkpoint_retention: 1 up) */
    in = U(TCO_P_CHECKPOINT_RETENTION, TCO_DIST_NORMAL, 5, 3, 0, 0, 0);
    check_cut(&in, 1, 1e6, 0, 0, 1, "normal(5, 3), int");
    in = U(TCO_P_CHECKPOINT_RETENTION, TCO_DIST_UNIFORM, 0, 100, 0, 2.5, 7.5);
    check_cut(&in, 3, 7, 0, 0, 1, "uniform(0, 100) in [2.5, 7.5], int");
    /* draws at the cut's edge itself: 7.5 would round to 8, past it */
    in = U(TCO_P_CHECKPOINT_RETENTION, TCO_DIST_NORMAL, 7.5, 1e-12, 0, 2.5, 7.5);
    check_cut(&in, 3, 7, 0, 0, 1, "normal(7.5, 1e-12) in [2.5, 7.5], int");
    /* a cut a few ulps of probability wide, where the quantile's rounding
     * alone would step outside it */
    in = U(TCO_P_MFU, TCO_DIST_NORMAL, 0.5, 1e6, 0, 0.3, 0.300000001);
    check_cut(&in, 0.3, 0.300000001, 0, 0, 0, "normal(0.5, 1e6) in [0.3, 0.300000001]");
}

/* ---- the normal quantile ----------------------------------------------- */

/* AS241 against the quantile worked out by mpmath 1.3.0 (mp.dps = 800),
 * at samples whose u is chosen. SplitMix64's output function is a
 * bijection (each xorshift and each odd multiply inverts), so the sample
 * whose u is (K + 0.5) 2^-52 is found from K (test_generator_first_values'
 * mix, G and key, seed 42, input 0):
 *
 *   def unxs(z, s):
 *       x = z
 *       for _ in range(64 // s + 1): x = z ^ (x >> s)
 *       return x
 *   def unmix(z):
 *       z = (unxs(z, 31) * pow(0x94D049BB133111EB, -1, 2**64)) & M
 *       z = (unxs(z, 27) * pow(0xBF58476D1CE4E5B9, -1, 2**64)) & M
 *       return unxs(z, 30)
 *   i = ((unmix(K << 12) - key) * pow(G, -1, 2**64) - 1) & M
 *
 * normal(40, 1) on queue_wait_hours, no cut: F(0) = Phi(-40) and
 * 1 - F(1e6) are 0 in doubles, so v = u, and x = 40 + sqrt(2) erfinv(2u -
 * 1). Cut to [30, 37] or [36, 37.5] with mean 0 (upper-tail
 * probabilities): v = Q(hi) + u (Q(lo) - Q(hi)), Q(z) = erfc(z / sqrt 2)
 * / 2, and x = Q^-1(v) by mpmath.findroot on log Q. v there is 1e-198 to
 * 5e-300, AS241's third rational function far out (r - 5 up to 21). */
typedef struct quantile_case {
    double a, lo, hi;
    uint64_t i;
    double want;
} quantile_case;

static void test_normal_quantile(void **state)
{
    (void)state;
    static const quantile_case cases[] = {
        { 40, 0, 0, UINT64_C(13750102350606424051), 40.31863936396437 },  /* u = 0.625 + 2^-53: |q| <= 0.425 */
        { 40, 0, 0, UINT64_C(6853688796071681281), 36.51289589588569 },   /* u = 2^-12 + 2^-53: r = 2.9 */
        { 40, 0, 0, UINT64_C(6216238028104022184), 43.48710410411431 },   /* its mirror, 1 - u */
        { 40, 0, 0, UINT64_C(10246590107470714610), 32.75867165218963 },  /* u = 1000.5 x 2^-52: r = 5.4 */
        { 40, 0, 0, UINT64_C(10259897666101597838), 47.24132834781037 },  /* its mirror */
        { 40, 0, 0, UINT64_C(3833755840450290682), 31.790463848398613 },  /* u = 2^-53, the least */
        { 40, 0, 0, UINT64_C(10976034154471772894), 48.209536151601384 }, /* u = 1 - 2^-53, the most */
        { 0, 30, 37, UINT64_C(3833755840450290682), 31.19928480317169 },  /* v = 5.4e-214 */
        { 0, 30, 37, UINT64_C(16324050306033562732), 30.02307046782731 }, /* u = 0.5 + 2^-53: v = 2.5e-198 */
        { 0, 36, 37.5, UINT64_C(3833755840450290682), 37.005656052677274 }, /* v = 4.6e-300 */
        { 0, 36, 37.5, UINT64_C(16324050306033562732), 36.01923413573306 }, /* v = 2.1e-284 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const quantile_case *q = &cases[c];
        tco_uncertain in = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_NORMAL, q->a, 1, 0, q->lo, q->hi);
        double x;
        tco_error err = TCO_ERROR_INIT;
        assert_int_equal(tco_monte_carlo_draw(&x, &in, 1, 42, q->i, 1, &err), TCO_OK);
        /* AS241 is good to about 1e-16 of z: an ulp of x, and one for its rounding */
        if (!(fabs(x - q->want) <= 2 * DBL_EPSILON * q->want)) {
            print_error("case %zu: x = %.17g, mpmath %.17g\n", c, x, q->want);
            fail();
        }
    }

    /* The central branch's edge, |q| = |p - 0.5| <= 0.425, met exactly:
     * p = 0.5 - 0.425 = 0.07500000000000001 in doubles, which is v = u x
     * 0.5 for u = (2K + 1) 2^-53, K = 675539944105574, on a cut of
     * upper-tail probabilities holding half the mass: normal(-1e-300, 1)
     * on queue_wait_hours, Q(0 + 1e-300) = 0.5 and Q(1e6) = 0. x = -z,
     * and z = -1.4395314709384557 is Python 3.11's
     * statistics.NormalDist().inv_cdf(p), the same AS241 in the same
     * operation order (the tail's function gives an ulp less). */
    tco_uncertain edge = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_NORMAL, -1e-300, 1, 0, 0, 0);
    double z;
    assert_int_equal(tco_monte_carlo_draw(&z, &edge, 1, 42, UINT64_C(13940561380257623334), 1, NULL), TCO_OK);
    assert_true(z == 1.4395314709384557);

    /* The ends of the CDF, at u = 1 - 2^-53 and u = 2^-53. normal(40, 1)
     * cut to [40, 60]: F(40) = erfc(0) / 2 = 0.5 and F(60) = 1 exactly, so
     * v = 0.5 + (1 - 2^-53) x 0.5 = 1 - 2^-54, half-way to 1, rounds to
     * even: 1. Cut to [1, 2.4]: F(1) = Phi(-39) is 0 in doubles and
     * F(2.4) = Phi(-37.6) = 1.07e-309, so v = 2^-53 x 1.07e-309 rounds to
     * 0. The quantiles there are +inf and -inf: the cut's ends. */
    tco_uncertain in = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_NORMAL, 40, 1, 0, 40, 60);
    double x;
    assert_int_equal(tco_monte_carlo_draw(&x, &in, 1, 42, UINT64_C(10976034154471772894), 1, NULL), TCO_OK);
    assert_true(x == 60);
    in = U(TCO_P_QUEUE_WAIT_HOURS, TCO_DIST_NORMAL, 40, 1, 0, 1, 2.4);
    assert_int_equal(tco_monte_carlo_draw(&x, &in, 1, 42, UINT64_C(3833755840450290682), 1, NULL), TCO_OK);
    assert_true(x == 1);
}

/* ---- bad inputs -------------------------------------------------------- */

/* inputs[1] set to bad after a good inputs[0]: refused with code, naming
 * inputs[1] and the key, and nothing written. */
static void refused(tco_uncertain bad, int code, int32_t key, const char *what)
{
    tco_uncertain in[2] = { U(TCO_P_MFU, TCO_DIST_UNIFORM, 0.3, 0.5, 0, 0, 0), bad };
    double v[2 * 4];
    for (int i = 0; i < 8; i++)
        v[i] = -7;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_monte_carlo_draw(v, in, 2, 1, 0, 4, &err);
    if (rc != code || err.param != key || !strstr(err.message, "inputs[1]")) {
        print_error("%s: %s (%d, param %d): %s\n", what, tco_status_name(rc), rc, (int)err.param, err.message);
        fail();
    }
    for (int i = 0; i < 8; i++)
        assert_true(v[i] == -7);
}

static void test_bad_inputs_refused(void **state)
{
    (void)state;
    refused(U(12345, TCO_DIST_UNIFORM, 0, 1, 0, 0, 0), TCO_E_UNKNOWN_PARAM, 12345, "unknown key");
    refused(U(TCO_P_COOLING, TCO_DIST_UNIFORM, 0, 1, 0, 0, 0), TCO_E_TYPE, TCO_P_COOLING, "choice");
    refused(U(TCO_P_CHECKPOINT_ASYNC, TCO_DIST_UNIFORM, 0, 1, 0, 0, 0), TCO_E_TYPE, TCO_P_CHECKPOINT_ASYNC, "bool");
    refused(U(TCO_P_CURRENCY, TCO_DIST_UNIFORM, 0, 1, 0, 0, 0), TCO_E_TYPE, TCO_P_CURRENCY, "text");
    refused(U(TCO_P_MFU, TCO_DIST_UNIFORM, 0.1, 0.2, 0, 0, 0), TCO_E_INCONSISTENT, TCO_P_MFU, "twice");
    refused(U(TCO_P_PUE, 0, 1, 2, 0, 0, 0), TCO_E_RANGE, TCO_P_PUE, "distribution 0");
    refused(U(TCO_P_PUE, 5, 1, 2, 0, 0, 0), TCO_E_RANGE, TCO_P_PUE, "distribution 5");
    refused(U(TCO_P_PUE, TCO_DIST_UNIFORM, 2, 2, 0, 0, 0), TCO_E_RANGE, TCO_P_PUE, "uniform b = a");
    refused(U(TCO_P_PUE, TCO_DIST_UNIFORM, 2, 1.5, 0, 0, 0), TCO_E_RANGE, TCO_P_PUE, "uniform b < a");
    refused(U(TCO_P_PUE, TCO_DIST_TRIANGULAR, 1.5, 1.2, 2, 0, 0), TCO_E_RANGE, TCO_P_PUE, "mode below low");
    refused(U(TCO_P_PUE, TCO_DIST_TRIANGULAR, 1.2, 2.5, 2, 0, 0), TCO_E_RANGE, TCO_P_PUE, "mode above high");
    refused(U(TCO_P_PUE, TCO_DIST_TRIANGULAR, 1.5, 1.5, 1.5, 0, 0), TCO_E_RANGE, TCO_P_PUE, "triangular a = c");
    refused(U(TCO_P_PUE, TCO_DIST_NORMAL, 1.5, 0, 0, 0, 0), TCO_E_RANGE, TCO_P_PUE, "sd 0");
    refused(U(TCO_P_PUE, TCO_DIST_NORMAL, 1.5, -0.1, 0, 0, 0), TCO_E_RANGE, TCO_P_PUE, "sd < 0");
    refused(U(TCO_P_PUE, TCO_DIST_LOGNORMAL, 0, 0.1, 0, 0, 0), TCO_E_RANGE, TCO_P_PUE, "median 0");
    refused(U(TCO_P_PUE, TCO_DIST_LOGNORMAL, 1.5, 0, 0, 0, 0), TCO_E_RANGE, TCO_P_PUE, "sigma 0");
    refused(U(TCO_P_PUE, TCO_DIST_NORMAL, NAN, 0.1, 0, 0, 0), TCO_E_NOT_FINITE, TCO_P_PUE, "NaN mean");
    refused(U(TCO_P_PUE, TCO_DIST_NORMAL, 1.5, 0.1, 0, 1.2, INFINITY), TCO_E_NOT_FINITE, TCO_P_PUE, "infinite hi");
    refused(U(TCO_P_PUE, TCO_DIST_NORMAL, 1.5, 0.1, 0, 1.6, 1.4), TCO_E_RANGE, TCO_P_PUE, "lo > hi");
    refused(U(TCO_P_PUE, TCO_DIST_NORMAL, 1.5, 0.1, 0, 0.5, 2), TCO_E_RANGE, TCO_P_PUE, "lo below pue's bound 1");
    refused(U(TCO_P_PUE, TCO_DIST_NORMAL, 1.5, 0.1, 0, 1.2, 3.5), TCO_E_RANGE, TCO_P_PUE, "hi above pue's bound 3");
    refused(U(TCO_P_PUE, TCO_DIST_UNIFORM, 1.2, 1.4, 0, 1.5, 2), TCO_E_INCONSISTENT, TCO_P_PUE, "cut misses uniform");
    refused(U(TCO_P_PUE, TCO_DIST_TRIANGULAR, 1.2, 1.3, 1.4, 1.5, 2), TCO_E_INCONSISTENT, TCO_P_PUE,
            "cut misses triangular");
    refused(U(TCO_P_PUE, TCO_DIST_NORMAL, 1.1, 1e-3, 0, 2, 3), TCO_E_INCONSISTENT, TCO_P_PUE,
            "cut 900 sd out: no probability in doubles");
    refused(U(TCO_P_CHECKPOINT_RETENTION, TCO_DIST_UNIFORM, 2.2, 2.8, 0, 0, 0), TCO_E_INCONSISTENT,
            TCO_P_CHECKPOINT_RETENTION, "int without a whole number");
    /* a struct too small, or with a newer field set */
    tco_uncertain small = U(TCO_P_PUE, TCO_DIST_UNIFORM, 1.1, 1.2, 0, 0, 0);
    small.size = 8;
    refused(small, TCO_E_SIZE, 0, "size 8");
    tco_uncertain wide[2][2];
    memset(wide, 0, sizeof wide);
    wide[0][0] = U(TCO_P_MFU, TCO_DIST_UNIFORM, 0.3, 0.5, 0, 0, 0);
    wide[1][0] = U(TCO_P_PUE, TCO_DIST_UNIFORM, 1.1, 1.2, 0, 0, 0);
    wide[0][0].size = wide[1][0].size = sizeof wide[0]; /* a newer header's larger struct */
    double two[2];
    assert_int_equal(tco_monte_carlo_draw(two, &wide[0][0], 2, 1, 0, 1, NULL), TCO_OK);
    assert_true(two[1] >= 1.1 && two[1] <= 1.2); /* stepped by inputs[0].size */
    wide[1][1].a = 1; /* a field this version does not know, set */
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_monte_carlo_draw(two, &wide[0][0], 2, 1, 0, 1, &err), TCO_E_SIZE);
    assert_non_null(strstr(err.message, "inputs[1]"));
    /* arguments */
    tco_uncertain in = U(TCO_P_PUE, TCO_DIST_UNIFORM, 1.1, 1.2, 0, 0, 0);
    double v[4];
    assert_int_equal(tco_monte_carlo_draw(NULL, &in, 1, 1, 0, 4, NULL), TCO_E_NULL);
    assert_int_equal(tco_monte_carlo_draw(v, NULL, 1, 1, 0, 4, NULL), TCO_E_NULL);
    assert_int_equal(tco_monte_carlo_draw(v, &in, 1, 1, 0, 0, NULL), TCO_OK); /* nothing asked */
    in.size = 4096;
    assert_int_equal(tco_monte_carlo_draw(v, &in, 1, 1, 0, 4, NULL), TCO_E_SIZE);
    {
        /* the largest size an input struct may declare, 1 KiB, its tail zero */
        union {
            tco_uncertain u;
            unsigned char b[1024];
        } at_max;
        memset(&at_max, 0, sizeof at_max);
        at_max.u = U(TCO_P_PUE, TCO_DIST_UNIFORM, 1.1, 1.2, 0, 0, 0);
        at_max.u.size = 1024;
        assert_int_equal(tco_monte_carlo_draw(v, &at_max.u, 1, 1, 0, 4, &err), TCO_OK);
        assert_true(v[0] >= 1.1 && v[0] <= 1.2);
        at_max.u.size = 1032;
        assert_int_equal(tco_monte_carlo_draw(v, &at_max.u, 1, 1, 0, 4, &err), TCO_E_SIZE);
    }
    in.size = sizeof in + 4; /* the array's stride: whole doubles only */
    assert_int_equal(tco_monte_carlo_draw(v, &in, 1, 1, 0, 4, &err), TCO_E_SIZE);
    assert_non_null(strstr(err.message, "a multiple of 8"));
    /* a later element larger than the stride inputs[0] gives */
    wide[1][1].a = 0;
    wide[1][0].size = sizeof wide[0] + 8;
    assert_int_equal(tco_monte_carlo_draw(two, &wide[0][0], 2, 1, 0, 1, &err), TCO_E_SIZE);
    assert_non_null(strstr(err.message, "inputs[1].size"));
    /* every figure of a distribution must be finite: b, c (the triangular's
     * high), lo and hi each refused alone, naming the input and parameter */
    v[0] = -1;
    for (int k = 0; k < 4; k++) {
        in = U(TCO_P_PUE, TCO_DIST_TRIANGULAR, 1.1, 1.2, 1.3, 0, 0);
        double *field[4] = { &in.b, &in.c, &in.lo, &in.hi };
        *field[k] = k == 0 ? NAN : INFINITY;
        assert_int_equal(tco_monte_carlo_draw(v, &in, 1, 1, 0, 1, &err), TCO_E_NOT_FINITE);
        assert_int_equal(err.param, TCO_P_PUE);
        assert_non_null(strstr(err.message, "inputs[0] (pue, triangular): a, b, c, lo and hi must be finite"));
    }
    /* more inputs than parameters repeat one; more values than memory */
    tco_uncertain many[2] = { U(TCO_P_PUE, TCO_DIST_UNIFORM, 1.1, 1.2, 0, 0, 0),
                              U(TCO_P_MFU, TCO_DIST_UNIFORM, 0.3, 0.5, 0, 0, 0) };
    assert_int_equal(tco_monte_carlo_draw(v, many, tco_param_count() + 1, 1, 0, 1, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "each uncertain once at most"));
    /* as many inputs as parameters pass that count, and are refused for
     * the first repeat */
    size_t count = tco_param_count();
    tco_uncertain *all = malloc(count * sizeof *all);
    assert_non_null(all);
    for (size_t j = 0; j < count; j++)
        all[j] = many[0];
    assert_int_equal(tco_monte_carlo_draw(v, all, count, 1, 0, 1, &err), TCO_E_INCONSISTENT);
    assert_non_null(strstr(err.message, "inputs[0] and inputs[1] both make pue uncertain"));
    free(all);
    assert_int_equal(tco_monte_carlo_draw(v, many, 2, 1, 0, SIZE_MAX / 2 + 1, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "do not fit in memory"));
    assert_true(v[0] == -1);
}

/* ---- summaries --------------------------------------------------------- */

static void test_summarise_hand_worked(void **state)
{
    (void)state;
    /* 1 2 3 4 10: mean 4, sd sqrt(50 / 4); numpy's linear percentiles at
     * (n - 1) p / 100 = 0.2, 0.4, 2, 3.6, 3.8: 1.2, 1.4, 3, 4 + 6 x 0.6,
     * 4 + 6 x 0.8 (numpy.percentile gives the same to an ulp) */
    const double x[5] = { 10, 3, 1, 4, 2 };
    tco_summary s = summarise(x, 5, 1);
    assert_true(s.size == sizeof s);
    assert_rel(s.mean, 4, 1e-15);
    assert_rel(s.sd, sqrt(12.5), 1e-15);
    assert_true(s.min == 1 && s.max == 10);
    assert_rel(s.p5, 1.2, 1e-15);
    assert_rel(s.p10, 1.4, 1e-15);
    assert_true(s.p50 == 3);
    assert_rel(s.p90, 7.6, 1e-15);
    assert_rel(s.p95, 8.8, 1e-15);

    /* signed values, every other one of an array (stride 2): sorted
     * -4 -1.25 0.5 2 2 3.5 7 11; positions 0.35, 0.7, 3.5, 6.3, 6.65:
     * -4 + 2.75 x 0.35, -4 + 2.75 x 0.7, 2, 7 + 4 x 0.3, 7 + 4 x 0.65;
     * mean 20.75 / 8, sd from numpy (ddof = 1) */
    const double y[16] = { 3.5, 99, -1.25, 99, 7, 99, 0.5, 99, 2, 99, 2, 99, -4, 99, 11, 99 };
    s = summarise(y, 8, 2);
    assert_rel(s.mean, 2.59375, 1e-15);
    assert_rel(s.sd, 4.694102492946412, 1e-14);
    assert_true(s.min == -4 && s.max == 11);
    assert_rel(s.p5, -3.0375, 1e-14);
    assert_rel(s.p10, -2.075, 1e-14);
    assert_true(s.p50 == 2);
    assert_rel(s.p90, 8.2, 1e-15);
    assert_rel(s.p95, 9.6, 1e-15);

    /* one value: all of it, no spread */
    s = summarise(&x[1], 1, 1);
    assert_true(s.mean == 3 && s.sd == 0 && s.min == 3 && s.max == 3 && s.p5 == 3 && s.p95 == 3);
    /* a constant: exactly its value (a sum of 0.1s would not be) */
    double c[1000];
    for (int i = 0; i < 1000; i++)
        c[i] = 0.1;
    s = summarise(c, 1000, 1);
    assert_true(s.mean == 0.1 && s.sd == 0 && s.p50 == 0.1);
}

static void test_summarise_matches_demand_percentiles(void **state)
{
    (void)state;
    /* one formula: the same bits as tco_demand_percentiles, which sorts */
    enum { N = 10007 };
    double *x = malloc(N * sizeof *x);
    assert_non_null(x);
    uint64_t z = 12345;
    for (int i = 0; i < N; i++) {
        z = z * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        x[i] = (double)(z >> 11) * 0x1p-53 * 1000;
    }
    tco_summary s = summarise(x, N, 1);
    const double p[5] = { 5, 10, 50, 90, 95 };
    double want[5];
    assert_int_equal(tco_demand_percentiles(want, p, 5, x, N, NULL), TCO_OK);
    assert_true(s.p5 == want[0] && s.p10 == want[1] && s.p50 == want[2] && s.p90 == want[3] && s.p95 == want[4]);
    free(x);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Percentiles against a sort, on shapes that strain a selection: ties,
 * outliers, signs, spans of a few ulps or of the whole double range. */
static void test_summarise_against_sort(void **state)
{
    (void)state;
    enum { N = 50000 };
    double *x = malloc(N * sizeof *x), *a = malloc(N * sizeof *a);
    assert_non_null(x);
    assert_non_null(a);
    const size_t sizes[] = { 2, 3, 4, 11, 4097, N };
    for (int shape = 0; shape < 6; shape++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            size_t n = sizes[z];
            for (size_t i = 0; i < n; i++) {
                double u = (double)((i * 2654435761u) % 1000003) / 1000003;
                switch (shape) {
                case 0: x[i] = (double)((i * 7) % 13); break;                 /* 13 values, tied */
                case 1: x[i] = exp(8 * u) + (i == n / 3 ? 1e300 : 0); break;  /* skewed, one outlier */
                case 2: x[i] = i % 5 == 0 ? -0.0 : sin((double)i) * 1e3; break; /* signs, -0 and +0 */
                case 3: x[i] = 1 + (double)(i % 4) * 0x1p-52; break;           /* four values an ulp apart */
                case 4: x[i] = i % 2 ? 1e308 * u : -1e308 * u; break;         /* a span past DBL_MAX */
                default: x[i] = u < 0.98 ? u : 1e6 * u; break;                 /* a heavy tail */
                }
            }
            tco_summary s = summarise(x, n, 1);
            memcpy(a, x, n * sizeof *a);
            qsort(a, n, sizeof *a, by_value);
            const double p[5] = { 5, 10, 50, 90, 95 }, got[5] = { s.p5, s.p10, s.p50, s.p90, s.p95 };
            for (int k = 0; k < 5; k++) {
                double pos = p[k] / 100 * (double)(n - 1);
                size_t f = (size_t)floor(pos), g = f + 1 < n ? f + 1 : f;
                double want = a[f] + (a[g] - a[f]) * (pos - (double)f);
                if (!(got[k] == want)) {
                    print_error("shape %d, n %zu: p%g = %.17g, sorted %.17g\n", shape, n, p[k], got[k], want);
                    fail();
                }
            }
            assert_true(s.min == a[0] && s.max == a[n - 1]);
        }
    free(x);
    free(a);
}

/* Values near DBL_MAX: every figure the summary gives is finite and right,
 * or the call is refused (issue 16's silent wrong number: the plain sums
 * gave sd = NaN and p50 = inf). Worked by hand with M = DBL_MAX:
 * - {M, 0}: mean M/2, sd = sqrt(2 (M/2)^2 / 1) = M/sqrt(2), p50 = M/2,
 *   p5 = 0.05 M (numpy's linear method, 5% of the way);
 * - {-0.6 M, 0.6 M}: a span of 1.2 M past DBL_MAX; mean 0,
 *   sd = 0.6 M sqrt(2), p5 = -0.6 M x 0.95 + 0.6 M x 0.05 = -0.54 M;
 * - {M, M/2}: a sum past DBL_MAX, mean 0.75 M, sd = sqrt(2 (M/4)^2) = M/(2 sqrt(2));
 * - {M, -M}: sd = M sqrt(2), past DBL_MAX: refused, nothing written. */
static void test_summarise_near_dbl_max(void **state)
{
    (void)state;
    const double M = DBL_MAX, rel = 4e-16;
    const double a[2] = { M, 0 }, b[2] = { -0.6 * M, 0.6 * M }, c[2] = { M, M / 2 };
    tco_summary s = summarise(a, 2, 1);
    assert_true(s.mean == M / 2 && s.p50 == M / 2);
    assert_true(fabs(s.sd / (M / sqrt(2)) - 1) < rel && fabs(s.p5 / (0.05 * M) - 1) < rel);
    s = summarise(b, 2, 1);
    assert_true(s.mean == 0 && s.min == b[0] && s.max == b[1]);
    assert_true(fabs(s.sd / (0.6 * M * sqrt(2)) - 1) < rel);
    assert_true(fabs(s.p5 / (-0.54 * M) - 1) < rel && fabs(s.p95 / (0.54 * M) - 1) < rel && s.p50 == 0);
    s = summarise(c, 2, 1);
    assert_true(fabs(s.mean / (0.75 * M) - 1) < rel && fabs(s.sd / (M / (2 * sqrt(2))) - 1) < rel);
    /* the halves are for spans past DBL_MAX only: halving a subnormal is
     * not exact. With u = 2^-1074, {u, 7u}: p10 = u + 6u x 0.1 = 1.6u,
     * rounded to 2u; in halves it would be 2 (0 + 4u x 0.1 -> 0) = 0 */
    const double u = 0x1p-1074, e[2] = { u, 7 * u };
    s = summarise(e, 2, 1);
    assert_true(s.p10 == 2 * u);
    const double d[2] = { M, -M };
    s.mean = -1;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_summarise(&s, d, 2, 1, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "standard deviation passes"));
    assert_true(s.mean == -1);
}

static void test_summarise_refuses(void **state)
{
    (void)state;
    const double x[6] = { 1, 2, 3, NAN, 5, INFINITY };
    tco_summary s = { .size = sizeof s };
    s.mean = -1;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_summarise(&s, x, 6, 1, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "value 3 (values[3])"));
    assert_int_equal(tco_summarise(&s, x + 1, 3, 2, &err), TCO_E_NOT_FINITE); /* 2, NaN, inf */
    assert_non_null(strstr(err.message, "value 1 (values[2])"));
    assert_int_equal(tco_summarise(&s, x + 4, 2, 1, &err), TCO_E_NOT_FINITE); /* 5, inf: no NaN */
    assert_non_null(strstr(err.message, "value 1 (values[1])"));
    assert_int_equal(tco_summarise(&s, x, 3, 0, NULL), TCO_E_RANGE);
    assert_int_equal(tco_summarise(&s, x, 0, 1, NULL), TCO_E_RANGE);
    assert_int_equal(tco_summarise(&s, NULL, 3, 1, NULL), TCO_E_NULL);
    assert_int_equal(tco_summarise(NULL, x, 3, 1, NULL), TCO_E_NULL);
    assert_true(s.mean == -1); /* a failed call writes nothing */
    /* the largest finite values are finite: a constant, exactly */
    const double edge[2] = { DBL_MAX, -DBL_MAX };
    for (int e = 0; e < 2; e++) {
        assert_int_equal(tco_summarise(&s, &edge[e], 1, 1, &err), TCO_OK);
        assert_true(s.min == edge[e] && s.max == edge[e] && s.mean == edge[e] && s.sd == 0);
        assert_true(s.p5 == edge[e] && s.p50 == edge[e] && s.p95 == edge[e]);
    }
    s.mean = -1;
    /* n x stride past the address space, and n copies past it, refused
     * before any value is read */
    assert_int_equal(tco_summarise(&s, x, 4, SIZE_MAX / 2, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "n = 4 values of stride"));
    assert_int_equal(tco_summarise(&s, x, SIZE_MAX / 4, 1, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "do not fit in memory"));
    s.size = 8;
    assert_int_equal(tco_summarise(&s, x, 3, 1, NULL), TCO_E_SIZE);
    s.size = 65537; /* past the 64 KiB bound on an output struct */
    assert_int_equal(tco_summarise(&s, x, 3, 1, NULL), TCO_E_SIZE);
    /* 1, 3, 5 (every other value) are fine */
    s = summarise(x, 3, 2);
    assert_true(s.mean == 3 && s.p50 == 3);
}

/* ---- rank correlation -------------------------------------------------- */

static double rho(const double *x, size_t xs, const double *y, size_t ys, size_t n)
{
    double r = 99;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_rank_correlation(&r, x, xs, y, ys, n, &err);
    if (rc)
        print_error("rank correlation: %s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    return r;
}

static void test_rank_correlation_hand_worked(void **state)
{
    (void)state;
    /* ranks 1 2.5 2.5 4 5 and 1 2 3.5 3.5 5, mean 3: deviations -2 -.5 -.5
     * 1 2 and -2 -1 .5 .5 2; sum of products 8.75, of squares 9.5 and 9.5 */
    const double x[5] = { 1, 2, 2, 3, 4 }, y[5] = { 10, 20, 30, 30, 50 };
    assert_rel(rho(x, 1, y, 1, 5), 8.75 / 9.5, 1e-15);
    /* any increasing function: 1 exactly; decreasing: -1 */
    double a[50], b[50], c[50];
    for (int i = 0; i < 50; i++) {
        a[i] = (i * 37) % 50 - 20.5;
        b[i] = a[i] * a[i] * a[i];
        c[i] = exp(-a[i]);
    }
    assert_true(rho(a, 1, b, 1, 50) == 1);
    assert_true(rho(a, 1, c, 1, 50) == -1);
    /* strided, and -0 tied with +0: x = 0 -0 1, y = 1 2 3: ranks 1.5 1.5 3 */
    const double xs[6] = { 0, 9, -0.0, 9, 1, 9 }, ys[3] = { 1, 2, 3 };
    assert_rel(rho(xs, 2, ys, 1, 3), 1.5 / sqrt(1.5 * 2), 1e-15);
    /* what the stride steps over is never read, NaN or not; the largest
     * finite values of either sign are values like any other */
    const double gaps[6] = { 0, NAN, -0.0, INFINITY, 1, NAN };
    assert_rel(rho(gaps, 2, ys, 1, 3), 1.5 / sqrt(1.5 * 2), 1e-15);
    /* and an infinity of either sign where the stride lands is refused */
    for (int sign = -1; sign <= 1; sign += 2) {
        const double inf_at[6] = { 0, 9, sign * INFINITY, 9, 1, 9 };
        double r = 99;
        tco_error err = TCO_ERROR_INIT;
        assert_int_equal(tco_rank_correlation(&r, inf_at, 2, ys, 1, 3, &err), TCO_E_NOT_FINITE);
        assert_non_null(strstr(err.message, sign < 0 ? "pair 1: x[2] = -inf" : "pair 1: x[2] = inf"));
        assert_true(r == 99);
    }
    const double ends[3] = { -DBL_MAX, 0, DBL_MAX };
    assert_true(rho(ends, 1, ys, 1, 3) == 1);
    assert_true(rho(ys, 1, ends, 1, 3) == 1);
    /* no spread: 0 (undefined, reported as no association) */
    const double flat[4] = { 7, 7, 7, 7 }, any[4] = { 1, 4, 2, 3 };
    assert_true(rho(flat, 1, any, 1, 4) == 0);
    assert_true(rho(any, 1, any, 1, 1) == 0);
    /* refusals */
    double r = 5;
    const double bad[3] = { 1, NAN, 2 };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_rank_correlation(&r, any, 1, bad, 1, 3, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "y[1]"));
    assert_int_equal(tco_rank_correlation(&r, any, 1, any, 1, 0, NULL), TCO_E_RANGE);
    assert_int_equal(tco_rank_correlation(&r, any, 0, any, 1, 4, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "x_stride = 0"));
    assert_int_equal(tco_rank_correlation(&r, any, 1, any, 0, 4, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "y_stride = 0"));
    assert_int_equal(tco_rank_correlation(NULL, any, 1, any, 1, 4, NULL), TCO_E_NULL);
    /* each refusal names what it refuses: the NULL array, the zero stride,
     * the first value not finite (x's before y's), pairs past memory */
    assert_int_equal(tco_rank_correlation(&r, NULL, 1, any, 1, 4, &err), TCO_E_NULL);
    assert_non_null(strstr(err.message, "x must not be NULL"));
    assert_int_equal(tco_rank_correlation(&r, any, 1, NULL, 1, 4, &err), TCO_E_NULL);
    assert_non_null(strstr(err.message, "y must not be NULL"));
    assert_int_equal(tco_rank_correlation(&r, any, 1, any, 0, 4, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "y_stride = 0"));
    const double inf_x[3] = { 1, 2, INFINITY };
    assert_int_equal(tco_rank_correlation(&r, inf_x, 1, bad, 1, 3, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "pair 1: y[1]"));
    assert_int_equal(tco_rank_correlation(&r, bad, 1, inf_x, 1, 3, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "pair 1: x[1]"));
    assert_int_equal(tco_rank_correlation(&r, any, SIZE_MAX / 2, any, 1, 4, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "do not fit in memory"));
    assert_int_equal(tco_rank_correlation(&r, any, 1, any, SIZE_MAX / 2, 4, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "n = 4 pairs do not fit in memory"));
    /* the two keys a pair is ranked by: 16 bytes, so SIZE_MAX / 16 + 1
     * pairs are past the address space, refused before any value is read
     * (x[1] is NaN: a read would stop there) */
    const double nan_x[2] = { 1, NAN };
    assert_int_equal(tco_rank_correlation(&r, nan_x, 1, any, 1, SIZE_MAX / 2 / sizeof(uint64_t) + 1, &err),
                     TCO_E_RANGE);
    assert_non_null(strstr(err.message, "pairs do not fit in memory"));
    assert_true(r == 5);
}

/* ---- whole runs -------------------------------------------------------- */

/* Three uncertain inputs of three handles, two of them cut. */
static void three_inputs(tco_uncertain in[3])
{
    in[0] = U(TCO_P_MFU, TCO_DIST_TRIANGULAR, 0.3, 0.4, 0.55, 0, 0);
    in[1] = U(TCO_P_ELECTRICITY_PER_KWH, TCO_DIST_LOGNORMAL, 0.1, 0.3, 0, 0, 0.5);
    in[2] = U(TCO_P_ON_DEMAND_PER_ACCEL_HOUR, TCO_DIST_NORMAL, 4, 0.5, 0, 3, 5);
}

static size_t series(void)
{
    size_t n = tco_monte_carlo_series();
    assert_true(n > 0 && n < 1000);
    return n;
}

static int run(tco_summary *sum, double *corr, const tco_uncertain *in, size_t k, uint64_t seed, size_t n,
               int32_t threads, const scen *s, tco_error *err)
{
    return tco_monte_carlo(sum, sizeof *sum, corr, in, k, seed, n, threads, s->t, s->w, s->p, err);
}

static void test_threads_bit_for_bit(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    scen_freeze(&s);
    tco_uncertain in[3];
    three_inputs(in);
    size_t S = series();
    tco_summary *one = calloc(S, sizeof *one), *many = calloc(S, sizeof *many);
    assert_non_null(one);
    assert_non_null(many);
    double c1[3], cn[3];
    tco_error err = TCO_ERROR_INIT;
    enum { N = 2999 };
    int rc = run(one, c1, in, 3, 11, N, 1, &s, &err);
    if (rc)
        print_error("%s\n", err.message);
    assert_int_equal(rc, TCO_OK);
    for (int32_t threads = 0; threads <= 3; threads++) {
        if (threads == 1)
            continue;
        memset(many, 0xA5, S * sizeof *many);
        assert_int_equal(run(many, cn, in, 3, 11, N, threads, &s, NULL), TCO_OK);
        assert_memory_equal(one, many, S * sizeof *one);
        assert_memory_equal(c1, cn, sizeof c1);
    }
    /* as many threads as samples, and more */
    tco_summary *few = calloc(S, sizeof *few), *fewer = calloc(S, sizeof *fewer);
    assert_non_null(few);
    assert_non_null(fewer);
    assert_int_equal(run(few, c1, in, 3, 11, 3, 1, &s, NULL), TCO_OK);
    assert_int_equal(run(fewer, cn, in, 3, 11, 3, 8, &s, NULL), TCO_OK);
    assert_memory_equal(few, fewer, S * sizeof *few);
    assert_memory_equal(c1, cn, sizeof c1);
    /* the summaries moved: a run is not one estimate repeated */
    assert_true(one[0].sd > 0 && one[0].p5 < one[0].p50 && one[0].p50 < one[0].p95);
    free(one);
    free(many);
    free(few);
    free(fewer);
    scen_free(&s);
}

/* The run is the public pieces put together: the draws priced by a sweep,
 * each series summarised, each input ranked against the total. */
static void test_run_is_draw_sweep_summarise(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    ST(&s, TCO_P_OWNED_SHARE, 0.5); /* electricity is paid on owned hardware */
    scen_freeze(&s);
    tco_uncertain in[3];
    three_inputs(in);
    enum { N = 257, K = 3 };
    size_t S = series();
    tco_summary *sum = calloc(S, sizeof *sum);
    double corr[K], *draws = malloc(N * K * sizeof *draws);
    tco_estimate *e = calloc(N, sizeof *e);
    int32_t status[N];
    assert_non_null(sum);
    assert_non_null(draws);
    assert_non_null(e);
    assert_int_equal(run(sum, corr, in, K, 5, N, 2, &s, NULL), TCO_OK);
    assert_int_equal(tco_monte_carlo_draw(draws, in, K, 5, 0, N, NULL), TCO_OK);
    const int32_t keys[K] = { in[0].key, in[1].key, in[2].key };
    assert_int_equal(tco_estimate_sweep(e, sizeof *e, status, N, keys, K, draws, s.t, s.w, s.p, NULL), TCO_OK);
    for (int i = 0; i < N; i++)
        assert_int_equal(status[i], TCO_OK);

    /* walk the field table as the series list does */
    size_t at = 0;
    double *col = malloc(N * sizeof *col), *total = malloc(N * sizeof *total);
    assert_non_null(col);
    assert_non_null(total);
    for (size_t f = 0; f < tco_estimate_field_count(); f++) {
        tco_field_info fi = { .size = sizeof fi };
        assert_int_equal(tco_estimate_field_at(&fi, f, NULL), TCO_OK);
        size_t slots = fi.type == TCO_FIELD_DOUBLE       ? 1
                       : fi.type == TCO_FIELD_CATEGORIES ? tco_category_count()
                       : fi.type == TCO_FIELD_WASTES     ? tco_waste_count()
                                                         : 0;
        for (size_t k = 0; k < slots; k++, at++) {
            for (int i = 0; i < N; i++)
                memcpy(&col[i], (const char *)&e[i] + fi.offset + k * sizeof(double), sizeof(double));
            tco_summary want = summarise(col, N, 1);
            if (memcmp(&want, &sum[at], sizeof want) != 0) {
                print_error("series %zu (%s): mean %.17g against %.17g\n", at, tco_monte_carlo_series_name(at),
                            sum[at].mean, want.mean);
                fail();
            }
        }
    }
    assert_int_equal(at, S);
    for (int i = 0; i < N; i++)
        total[i] = e[i].total;
    for (int j = 0; j < K; j++)
        assert_true(corr[j] == rho(draws + j, K, total, 1, N));
    /* mfu down, total up; the rental rate up, total up (electricity's
     * share is too small to show against the others in 257 samples) */
    if (!(corr[0] < -0.5 && corr[2] > 0.2 && fabs(corr[1]) < 0.3)) {
        print_error("correlations %g %g %g\n", corr[0], corr[1], corr[2]);
        fail();
    }
    free(col);
    free(total);
    free(e);
    free(draws);
    free(sum);
    scen_free(&s);
}

static void test_series_names(void **state)
{
    (void)state;
    size_t S = series(), at = 0;
    char want[128];
    for (size_t f = 0; f < tco_estimate_field_count(); f++) {
        tco_field_info fi = { .size = sizeof fi };
        assert_int_equal(tco_estimate_field_at(&fi, f, NULL), TCO_OK);
        if (fi.type == TCO_FIELD_DOUBLE)
            assert_string_equal(tco_monte_carlo_series_name(at++), fi.name);
        else if (fi.type == TCO_FIELD_CATEGORIES)
            for (size_t c = 0; c < tco_category_count(); c++) {
                snprintf(want, sizeof want, "%s.%s", fi.name, tco_category_name((int32_t)c));
                assert_string_equal(tco_monte_carlo_series_name(at++), want);
            }
        else if (fi.type == TCO_FIELD_WASTES)
            for (size_t k = 0; k < tco_waste_count(); k++) {
                snprintf(want, sizeof want, "waste.%s", tco_waste_name((int32_t)k));
                assert_string_equal(tco_monte_carlo_series_name(at++), want);
            }
    }
    assert_int_equal(at, S);
    assert_null(tco_monte_carlo_series_name(S));
    assert_string_equal(tco_monte_carlo_series_name(0), "total");
    /* names are unique, and static: the same pointer every time */
    for (size_t i = 0; i < S; i++) {
        assert_ptr_equal(tco_monte_carlo_series_name(i), tco_monte_carlo_series_name(i));
        for (size_t j = 0; j < i; j++)
            assert_true(strcmp(tco_monte_carlo_series_name(i), tco_monte_carlo_series_name(j)) != 0);
    }
}

/* With mfu alone uncertain, the total falls as mfu rises: its median is
 * the total at the median mfu drawn (exactly, for an odd count), which is
 * near the estimate at the distribution's median. */
static void test_mfu_median(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    scen_freeze(&s);
    const double m = 0.4, sigma = 0.1;
    tco_uncertain in = U(TCO_P_MFU, TCO_DIST_LOGNORMAL, m, sigma, 0, 0, 0);
    enum { N = 2001 };
    size_t S = series();
    tco_summary *sum = calloc(S, sizeof *sum);
    assert_non_null(sum);
    double corr;
    assert_int_equal(run(sum, &corr, &in, 1, 3, N, 2, &s, NULL), TCO_OK);
    assert_true(corr == -1); /* strictly decreasing: ranks exactly reversed */

    double *mfu = malloc(N * sizeof *mfu);
    assert_non_null(mfu);
    assert_int_equal(tco_monte_carlo_draw(mfu, &in, 1, 3, 0, N, NULL), TCO_OK);
    tco_summary ms = summarise(mfu, N, 1);
    const int32_t key = TCO_P_MFU;
    const double at[2] = { ms.p50, m };
    tco_estimate e[2];
    int32_t status[2];
    assert_int_equal(tco_estimate_sweep(e, sizeof e[0], status, 2, &key, 1, at, s.t, s.w, s.p, NULL), TCO_OK);
    assert_true(sum[0].p50 == e[0].total);
    /* The sample median of mfu is within 5 standard errors of 0.4:
     * sqrt(0.25 / n) / f(m), f(m) = 1 / (m sigma sqrt(2 pi)), 0.28%; the
     * total moves at most as 1 / mfu does, so by 1.4% at most. */
    double se = sqrt(0.25 / N) * m * sigma * sqrt(2 * 3.14159265358979323846);
    assert_true(fabs(ms.p50 - m) < 5 * se);
    assert_rel(sum[0].p50, e[1].total, 5 * se / m);
    free(mfu);
    free(sum);
    scen_free(&s);
}

/* A sample the estimate refuses fails the run, naming the lowest such
 * sample, whatever the threads, with the inputs' values; nothing written. */
static void test_sample_failure(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    SW(&s, TCO_P_PARAMS_TOTAL, 7e9); /* fits one accelerator */
    SW(&s, TCO_P_TENSOR_PARALLEL, 1);
    SW(&s, TCO_P_PIPELINE_PARALLEL, 1);
    scen_freeze(&s);
    /* a job of 900 to 1,030 accelerators on a cluster of 1,024: about one
     * sample in twenty asks for more than the cluster has */
    tco_uncertain in[2] = { U(TCO_P_MFU, TCO_DIST_UNIFORM, 0.3, 0.5, 0, 0, 0),
                            U(TCO_P_JOB_ACCELERATORS, TCO_DIST_UNIFORM, 900, 1030, 0, 0, 0) };
    enum { N = 400 };
    double x[N * 2];
    assert_int_equal(tco_monte_carlo_draw(x, in, 2, 8, 0, N, NULL), TCO_OK);
    size_t first = N;
    for (size_t i = 0; i < N && first == N; i++)
        if (x[i * 2 + 1] > 1024)
            first = i;
    assert_true(first > 0 && first < N / 2); /* a later sample, so that thread order matters */
    char want[128];
    snprintf(want, sizeof want, "Monte Carlo sample %zu (mfu = %g, job_accelerators = %g): ", first, x[first * 2],
             x[first * 2 + 1]);

    size_t S = series();
    tco_summary *sum = calloc(S, sizeof *sum);
    assert_non_null(sum);
    char message[3][TCO_ERROR_MESSAGE_MAX];
    for (int32_t threads = 1; threads <= 3; threads++) {
        memset(sum, 0x5A, S * sizeof *sum);
        double corr[2] = { 42, 42 };
        tco_error err = TCO_ERROR_INIT;
        assert_int_equal(run(sum, corr, in, 2, 8, N, threads, &s, &err), TCO_E_INCONSISTENT);
        if (strncmp(err.message, want, strlen(want)) != 0) {
            print_error("threads %d: \"%s\", expected it to begin \"%s\"\n", (int)threads, err.message, want);
            fail();
        }
        assert_int_equal(err.param, TCO_P_JOB_ACCELERATORS);
        memcpy(message[threads - 1], err.message, sizeof err.message);
        for (size_t i = 0; i < S * sizeof *sum; i++)
            assert_int_equal(((unsigned char *)sum)[i], 0x5A);
        assert_true(corr[0] == 42 && corr[1] == 42);
    }
    assert_string_equal(message[0], message[1]);
    assert_string_equal(message[0], message[2]);

    /* Many inputs: the values named are cut where the message ends, at
     * TCO_ERROR_MESSAGE_MAX - 1 characters. The nine more are priced in
     * every sample and refused in none (each its own stream: the failing
     * sample stays the first). */
    tco_uncertain wide[11] = { in[0], in[1] };
    const int32_t more[9] = { TCO_P_QUEUE_WAIT_HOURS,      TCO_P_DATABASE_GB,       TCO_P_EGRESS_INTERNET_GB,
                              TCO_P_EGRESS_CROSS_REGION_GB, TCO_P_EGRESS_IN_REGION_GB, TCO_P_STORAGE_WARM_TB,
                              TCO_P_STORAGE_COLD_TB,        TCO_P_DATASET_BYTES,     TCO_P_METRIC_SAMPLE_BYTES };
    for (int j = 0; j < 9; j++)
        wide[2 + j] = U(more[j], TCO_DIST_UNIFORM, 1.25, 2.5, 0, 0, 0);
    snprintf(want, sizeof want, "Monte Carlo sample %zu (mfu = %g, job_accelerators = %g, queue_wait_hours = ", first,
             x[first * 2], x[first * 2 + 1]);
    double corr11[11];
    tco_error wide_err = TCO_ERROR_INIT;
    assert_int_equal(run(sum, corr11, wide, 11, 8, N, 1, &s, &wide_err), TCO_E_INCONSISTENT);
    assert_true(strncmp(wide_err.message, want, strlen(want)) == 0);
    assert_int_equal(strlen(wide_err.message), TCO_ERROR_MESSAGE_MAX - 1);

    /* A sample its handle's own checks refuse (prepared, before any
     * estimate): params_active of 6e9 to 8e9 against params_total 7e9,
     * about half the samples above it; the first is named. */
    tco_uncertain active[1] = { U(TCO_P_PARAMS_ACTIVE, TCO_DIST_UNIFORM, 6e9, 8e9, 0, 0, 0) };
    assert_int_equal(tco_monte_carlo_draw(x, active, 1, 8, 0, N, NULL), TCO_OK);
    first = 0;
    while (!(x[first] > 7e9))
        first++;
    snprintf(want, sizeof want, "Monte Carlo sample %zu (params_active = %g): params_active = %g exceeds params_total = 7e+09",
             first, x[first], x[first]);
    tco_error err = TCO_ERROR_INIT;
    double corr1[1];
    assert_int_equal(run(sum, corr1, active, 1, 8, N, 1, &s, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.message, want);
    assert_int_equal(err.param, TCO_P_PARAMS_ACTIVE);
    free(sum);
    scen_free(&s);
}

static void test_run_arguments(void **state)
{
    (void)state;
    scen s;
    defaults(&s);
    size_t S = series();
    tco_summary *sum = calloc(S, sizeof *sum);
    assert_non_null(sum);
    tco_uncertain in = U(TCO_P_MFU, TCO_DIST_UNIFORM, 0.3, 0.5, 0, 0, 0);
    double corr;
    assert_int_equal(run(sum, &corr, &in, 1, 1, 10, 1, &s, NULL), TCO_E_NOT_FROZEN);
    scen_freeze(&s);
    assert_int_equal(run(NULL, &corr, &in, 1, 1, 10, 1, &s, NULL), TCO_E_NULL);
    assert_int_equal(run(sum, NULL, &in, 1, 1, 10, 1, &s, NULL), TCO_E_NULL);
    assert_int_equal(run(sum, &corr, &in, 1, 1, 0, 1, &s, NULL), TCO_E_RANGE);
    assert_int_equal(run(sum, &corr, &in, 1, 1, 10, -1, &s, NULL), TCO_E_RANGE);
    assert_int_equal(tco_monte_carlo(sum, 8, &corr, &in, 1, 1, 10, 1, s.t, s.w, s.p, NULL), TCO_E_SIZE);
    tco_uncertain bad = U(TCO_P_MFU, TCO_DIST_UNIFORM, 0.5, 0.3, 0, 0, 0);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(run(sum, &corr, &bad, 1, 1, 10, 1, &s, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "inputs[0]"));
    /* samples whose series (each a double) cannot fit the address space:
     * no memory, said before any allocation is tried (2^61 samples of a
     * double are 2^64 bytes a series: a product that wraps to 0) */
    memset(sum, 0x5a, S * sizeof *sum);
    corr = 42;
    assert_int_equal(run(sum, &corr, &in, 1, 1, SIZE_MAX / 16, 1, &s, &err), TCO_E_NOMEM);
    assert_int_equal(run(sum, NULL, NULL, 0, 1, (size_t)1 << 61, 1, &s, &err), TCO_E_NOMEM);
    assert_true(corr == 42 && ((unsigned char *)sum)[0] == 0x5a);

    /* no input: every sample is the estimate; larger summaries are zeroed
     * past what this version fills */
    tco_estimate e = { .size = sizeof e };
    assert_int_equal(tco_estimate_compute(&e, s.t, s.w, s.p, NULL), TCO_OK);
    size_t big = sizeof(tco_summary) + 16;
    unsigned char *wide = malloc(S * big);
    assert_non_null(wide);
    memset(wide, 0xFF, S * big);
    assert_int_equal(tco_monte_carlo((tco_summary *)wide, big, NULL, NULL, 0, 1, 5, 2, s.t, s.w, s.p, NULL), TCO_OK);
    tco_summary first;
    memcpy(&first, wide, sizeof first);
    assert_true(first.size == big);
    assert_true(first.mean == e.total && first.sd == 0 && first.p5 == e.total && first.p95 == e.total);
    for (size_t b = sizeof(tco_summary); b < big; b++)
        assert_int_equal(wide[b], 0);
    memcpy(&first, wide + (S - 1) * big, sizeof first);
    assert_true(first.size == big);
    free(wide);
    free(sum);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator_first_values),
        cmocka_unit_test(test_chunks_equal_one_call),
        cmocka_unit_test(test_uniform),
        cmocka_unit_test(test_triangular),
        cmocka_unit_test(test_normal),
        cmocka_unit_test(test_lognormal),
        cmocka_unit_test(test_cuts),
        cmocka_unit_test(test_normal_quantile),
        cmocka_unit_test(test_bad_inputs_refused),
        cmocka_unit_test(test_summarise_hand_worked),
        cmocka_unit_test(test_summarise_matches_demand_percentiles),
        cmocka_unit_test(test_summarise_against_sort),
        cmocka_unit_test(test_summarise_refuses),
        cmocka_unit_test(test_rank_correlation_hand_worked),
        cmocka_unit_test(test_threads_bit_for_bit),
        cmocka_unit_test(test_run_is_draw_sweep_summarise),
        cmocka_unit_test(test_summarise_near_dbl_max),
        cmocka_unit_test(test_series_names),
        cmocka_unit_test(test_mfu_median),
        cmocka_unit_test(test_sample_failure),
        cmocka_unit_test(test_run_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
