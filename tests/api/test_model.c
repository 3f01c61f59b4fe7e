/* Black-box tests of the cost model through the public API (tco.h only):
 * every formula of tco_estimate_compute against hand-worked arithmetic.
 *
 * How the expectations are made: each test sets the parameters it relies
 * on explicitly (so a change of default does not silently change what is
 * tested), then re-derives the expected figures here, step by step, from the
 * documented formulas and the parameter values. Nothing is computed by a
 * library function and then compared with itself. Key numbers are also
 * written out in the comments (worked with a calculator / Python).
 *
 * Sources of the formulas:
 * - Training FLOPs 6 N D: J. Kaplan et al., "Scaling Laws for Neural
 *   Language Models", 2020, section 2.1 (C ~ 6 N per token, forward and
 *   backward). Attention term 12 L h s per token (forward + backward):
 *   A. Chowdhery et al., "PaLM: Scaling Language Modeling with Pathways",
 *   2022, appendix B (model FLOPs = 6N + 12 L H Q T per token).
 * - Peak FLOP/s: NVIDIA H100 SXM datasheet (989 TFLOP/s dense BF16, 1,979
 *   dense FP8); NVIDIA A100 datasheet (312 dense BF16, no FP8).
 * - Checkpoint interval and expected wall time: J. W. Young, CACM 17(9),
 *   1974; J. T. Daly, Future Generation Computer Systems 22(3), 2006.
 * - Capital recovery factor i / (1 - (1 + i)^-n) and the present value of a
 *   residual S / (1 + i)^n: the standard capital-recovery annuity of any
 *   engineering-economics text (e.g. Newnan et al., "Engineering Economic
 *   Analysis").
 */
#include "support.h"

/* ---- helpers ---------------------------------------------------------- */

#define HOURS_PER_YEAR 8766.0 /* 365.25 x 24: the library's documented year */
#define HOURS_PER_MONTH (HOURS_PER_YEAR / 12)

/* The built-in scenario with every figure the hand calculations use set
 * explicitly: a 70B dense model (80 layers, width 8,192, 4,096 context,
 * full attention counted as PaLM counts it, blocking checkpoints) on 2T
 * tokens, on 1,024 H100 in 128 nodes of 8, TP 8 x PP 4, rented on demand
 * at 4.0/h. The library's own defaults give no shape (layers 0), count
 * causal attention and checkpoint asynchronously: test_fidelity.c tests
 * those. */
static void scen_new(scen *s)
{
    scen_defaults(s);
    assert_int_equal(tco_topology_set_text(s->t, TCO_P_ACCELERATOR_MODEL, "H100-SXM", NULL), TCO_OK);
    ST(s, TCO_P_ACCELERATORS, 1024);
    ST(s, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(s, TCO_P_NODE_OVERHEAD_WATTS, 3000);
    ST(s, TCO_P_NICS_PER_NODE, 8);
    ST(s, TCO_P_NIC_GBPS, 400);
    ST(s, TCO_P_SWITCH_RADIX, 64);
    ST(s, TCO_P_OVERSUBSCRIPTION, 1);
    ST(s, TCO_P_STORAGE_HOT_TB, 0);
    ST(s, TCO_P_STORAGE_HOT_GBPS, 100);
    ST(s, TCO_P_PUE, 1.2);
    ST(s, TCO_P_SITES, 1);
    ST(s, TCO_P_ACCELERATOR_MTBF_HOURS, 80000);
    ST(s, TCO_P_NODE_MTBF_HOURS, 17500);
    ST(s, TCO_P_RESTART_MINUTES, 15);
    ST(s, TCO_P_HOST_COPY_GBPS, 25);
    ST(s, TCO_P_OWNED_SHARE, 0);
    ST(s, TCO_P_RESERVED_SHARE, 0);
    ST(s, TCO_P_SPOT_SHARE, 0);
    SW(s, TCO_P_PARAMS_TOTAL, 70e9);
    SW(s, TCO_P_PARAMS_ACTIVE, 0);
    SW(s, TCO_P_LAYERS, 80);
    SW(s, TCO_P_HIDDEN_SIZE, 8192);
    SW(s, TCO_P_SEQ_LEN, 4096);
    assert_int_equal(tco_workload_set_text(s->w, TCO_P_ATTENTION, "full", NULL), TCO_OK);
    SW(s, TCO_P_TOKENS, 2e12);
    SW(s, TCO_P_EPOCHS, 1);
    SW(s, TCO_P_TOTAL_FLOPS, 0);
    assert_int_equal(tco_workload_set_text(s->w, TCO_P_PRECISION, "bf16", NULL), TCO_OK);
    SW(s, TCO_P_MFU, 0.4);
    SW(s, TCO_P_JOB_ACCELERATORS, 0);
    SW(s, TCO_P_TENSOR_PARALLEL, 8);
    SW(s, TCO_P_PIPELINE_PARALLEL, 4);
    SW(s, TCO_P_DATA_PARALLEL, 0);
    SW(s, TCO_P_BATCH_TOKENS, 4194304);
    SW(s, TCO_P_GRADIENT_BYTES, 2);
    SW(s, TCO_P_DATASET_BYTES, 0);
    SW(s, TCO_P_BYTES_PER_TOKEN, 4);
    SW(s, TCO_P_DATA_STALL_SHARE, 0.02);
    SW(s, TCO_P_CHECKPOINT_BYTES, 0);
    SW(s, TCO_P_CHECKPOINT_BYTES_PER_PARAM, 14);
    SW(s, TCO_P_CHECKPOINT_INTERVAL_HOURS, 0);
    SW(s, TCO_P_CHECKPOINT_RETENTION, 10);
    SW(s, TCO_P_CHECKPOINT_WRITE_GBPS, 0);
    SW(s, TCO_P_CHECKPOINT_ASYNC, 0);
    SW(s, TCO_P_POWER_DRAW_SHARE, 0.8);
    SW(s, TCO_P_RUNS, 1);
    SW(s, TCO_P_RETRY_SHARE, 0);
    SW(s, TCO_P_QUEUE_WAIT_HOURS, 0);
    SP(s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4.0);
    SP(s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(s, TCO_P_SPOT_PER_ACCEL_HOUR, 2.0);
    SP(s, TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR, 0.01);
    SP(s, TCO_P_CAPEX_PER_ACCELERATOR, 25000);
    SP(s, TCO_P_CAPEX_PER_SERVER, 100000);
    SP(s, TCO_P_DEPRECIATION_YEARS, 4);
    SP(s, TCO_P_RESIDUAL_SHARE, 0.1);
    SP(s, TCO_P_COST_OF_CAPITAL, 0.08);
    SP(s, TCO_P_MAINTENANCE_SHARE_PER_YEAR, 0.03);
    SP(s, TCO_P_ELECTRICITY_PER_KWH, 0.10);
    SP(s, TCO_P_COOLING_AIR_CAPEX_PER_KW, 1500);
    SP(s, TCO_P_COOLING_LIQUID_CAPEX_PER_KW, 3000);
    SP(s, TCO_P_STAFF_PER_FTE_YEAR, 200000);
    SP(s, TCO_P_NODES_PER_FTE, 100);
    SP(s, TCO_P_MIN_FTE, 2);
    SP(s, TCO_P_MIGRATION_COST, 0);
    SP(s, TCO_P_LEARNING_FTE_MONTHS, 0);
    SP(s, TCO_P_RISK_PREMIUM_SHARE, 0);
}

/* An estimate that must fail with `code` naming `param`, leaving the output
 * byte for byte as it was (filled with a sentinel first). */
static void expect_error(scen *s, int code, int32_t param, const char *name)
{
    scen_freeze(s);
    tco_estimate out, before;
    memset(&out, 0x5A, sizeof out);
    out.size = sizeof out;
    memcpy(&before, &out, sizeof out);
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_estimate_compute(&out, s->t, s->w, s->p, &err);
    if (rc != code)
        print_error("expected %s on %s, got %s (%s)\n", tco_status_name(code), name, tco_status_name(rc),
                    err.message);
    assert_int_equal(rc, code);
    assert_int_equal(err.code, code);
    assert_int_equal(err.param, param);
    assert_string_equal(err.param_name, name);
    assert_true(strlen(err.message) > 0);
    assert_memory_equal(&out, &before, sizeof out);
}

/* A "never finishes" error: TCO_E_INCONSISTENT naming the failure rate or
 * the restart time, the output untouched. */
/* ---- the formulas, re-typed from their sources ------------------------ */

static double daly_tau(double delta, double m)
{
    if (delta >= 2 * m)
        return m;
    double r = delta / (2 * m);
    return sqrt(2 * delta * m) * (1 + sqrt(r) / 3 + r / 9) - delta;
}

static double daly_wall(double work, double tau, double delta, double restart, double m)
{
    return m * exp(restart / m) * expm1((tau + delta) / m) * work / tau;
}

/* Yearly cost of hardware bought for `price`: capital recovery of the price
 * less the discounted residual, plus maintenance. */
static double annuity(double price, double residual_share, double i, double years, double maint)
{
    double residual_pv = residual_share * price / pow(1 + i, years);
    double crf = i > 0 ? i / (1 - pow(1 + i, -years)) : 1 / years;
    return (price - residual_pv) * crf + maint * price;
}

/* The time chain of section 1 and 2 for the base scenario's figures. */
typedef struct chain {
    double flops, compute_h, stall, work_h, mtbf, delta, tau, wall, ckpt_h;
} chain;

static chain base_chain(double job, double peak)
{
    chain c;
    double job_nodes = ceil(job / 8);
    /* 2e12 tokens x (6 x 70e9 + 12 x 80 x 8192 x 4096) = 9.0442450944e23 */
    c.flops = 2e12 * (6 * 70e9 + 12.0 * 80 * 8192 * 4096);
    c.compute_h = c.flops / (job * peak * 0.4) / 3600;
    /* 8e12 B over 620 h is 3.6 MB/s, far below 100 GB/s: the 2% floor */
    c.stall = 0.02;
    c.work_h = c.compute_h / (1 - c.stall);
    c.mtbf = 1 / (job / 80000 + job_nodes / 17500);
    c.delta = 70e9 * 14 / 100e9 / 3600; /* 980 GB at 100 GB/s: 9.8 s */
    c.tau = daly_tau(c.delta, c.mtbf);
    c.wall = daly_wall(c.work_h, c.tau, c.delta, 0.25, c.mtbf);
    c.ckpt_h = c.work_h / c.tau * c.delta;
    return c;
}

/* ---- 1. training FLOPs and hours -------------------------------------- */

/* 6 N D + 12 L h s D (Kaplan 2020; PaLM appendix B):
 * 2e12 x (4.2e11 + 12 x 80 x 8192 x 4096 = 3.221225472e10)
 * = 2e12 x 4.5221225472e11 = 9.0442450944e23 FLOPs. */
static void test_flops_dense(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    tco_estimate e = scen_run(&s);
    assert_rel(e.train_flops, 9.0442450944e23, 1e-15);
    assert_rel(e.tokens, 2e12, 0);
    scen_free(&s);

    /* Epochs multiply the tokens: 2.5 passes over 2e12 tokens. */
    scen_new(&s);
    SW(&s, TCO_P_EPOCHS, 2.5);
    e = scen_run(&s);
    assert_rel(e.tokens, 5e12, 1e-15);
    assert_rel(e.train_flops, 5e12 * 4.5221225472e11, 1e-15);
    scen_free(&s);

    /* No attention term with layers = 0: 6 N D = 6 x 70e9 x 2e12 = 8.4e23. */
    scen_new(&s);
    SW(&s, TCO_P_LAYERS, 0);
    e = scen_run(&s);
    assert_rel(e.train_flops, 8.4e23, 1e-15);
    scen_free(&s);

    /* The attention term is linear in the context: s = 8,192 doubles it:
     * 2e12 x (4.2e11 + 6.442450944e10) = 9.6884901888e23. */
    scen_new(&s);
    SW(&s, TCO_P_SEQ_LEN, 8192);
    e = scen_run(&s);
    assert_rel(e.train_flops, 9.6884901888e23, 1e-15);
    scen_free(&s);
}

/* total_flops overrides the parameter count: 1e24 FLOPs whatever the
 * model; compute hours = 1e24 / (1024 x 989e12 x 0.4) / 3600 = 685.7112 h. */
static void test_total_flops_override(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_TOTAL_FLOPS, 1e24);
    SW(&s, TCO_P_PARAMS_TOTAL, 1e12); /* would be 1.2e25 by 6 N D */
    SW(&s, TCO_P_ZERO_STAGE, 3);      /* 1e12 x 16 B over 1,024 accelerators: fits */
    tco_estimate e = scen_run(&s);
    assert_rel(e.train_flops, 1e24, 0);
    assert_rel(e.compute_hours, 1e24 / (1024 * 989e12 * 0.4) / 3600, 1e-14);
    assert_rel(e.compute_hours, 685.711226266712, 1e-12);
    /* but the checkpoint still follows params_total x 14 B */
    assert_rel(e.checkpoint_bytes, 1.4e13, 1e-15);
    scen_free(&s);
}

/* Mixture of experts: FLOPs use the active parameters, checkpoints all of
 * them. 1e12 total, 1e11 active, no attention: 6 x 1e11 x 2e12 = 1.2e24;
 * checkpoint 1e12 x 14 = 1.4e13 B. */
static void test_moe_active_params(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_PARAMS_TOTAL, 1e12);
    SW(&s, TCO_P_PARAMS_ACTIVE, 1e11);
    SW(&s, TCO_P_ZERO_STAGE, 3);
    SW(&s, TCO_P_LAYERS, 0);
    tco_estimate e = scen_run(&s);
    assert_rel(e.train_flops, 1.2e24, 1e-15);
    assert_rel(e.checkpoint_bytes, 1.4e13, 1e-15);
    scen_free(&s);

    /* With attention (80 x 8192 x 4096): 2e12 x (6e11 + 3.221225472e10). */
    scen_new(&s);
    SW(&s, TCO_P_PARAMS_TOTAL, 1e12);
    SW(&s, TCO_P_PARAMS_ACTIVE, 1e11);
    SW(&s, TCO_P_ZERO_STAGE, 3);
    e = scen_run(&s);
    assert_rel(e.train_flops, 2e12 * 6.3221225472e11, 1e-15);
    scen_free(&s);

    /* params_active above params_total is refused at freeze. */
    scen_new(&s);
    SW(&s, TCO_P_PARAMS_TOTAL, 1e10);
    SW(&s, TCO_P_PARAMS_ACTIVE, 2e10);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_workload_freeze(s.w, &err), TCO_E_INCONSISTENT);
    assert_int_equal(err.param, TCO_P_PARAMS_ACTIVE);
    scen_free(&s);
}

/* Compute hours = FLOPs / (n x peak x MFU) / 3600 with the H100's dense
 * BF16 peak of 989e12 FLOP/s (NVIDIA H100 datasheet):
 * 9.0442450944e23 / (1024 x 989e12 x 0.4) / 3600 = 620.17403943 h.
 * Half the accelerators in the job: twice the hours. */
static void test_compute_hours_bf16(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    tco_estimate e = scen_run(&s);
    assert_rel(e.peak_flops, 989e12, 0);
    assert_rel(e.compute_hours, 9.0442450944e23 / (1024 * 989e12 * 0.4) / 3600, 1e-14);
    assert_rel(e.compute_hours, 620.174039433771, 1e-12);
    assert_rel(e.job_accelerators, 1024, 0);
    assert_rel(e.cluster_accelerators, 1024, 0);
    assert_rel(e.cluster_nodes, 128, 0);
    scen_free(&s);

    scen_new(&s);
    SW(&s, TCO_P_JOB_ACCELERATORS, 512);
    e = scen_run(&s);
    assert_rel(e.compute_hours, 2 * 620.174039433771, 1e-12);
    assert_rel(e.job_accelerators, 512, 0);
    scen_free(&s);

    /* MFU 0.5 instead of 0.4: hours x 0.8. */
    scen_new(&s);
    SW(&s, TCO_P_MFU, 0.5);
    e = scen_run(&s);
    assert_rel(e.compute_hours, 0.8 * 620.174039433771, 1e-12);
    scen_free(&s);
}

/* FP8 takes the H100's dense FP8 peak, 1,979e12 FLOP/s:
 * 9.0442450944e23 / (1024 x 1979e12 x 0.4) / 3600 = 309.93033098 h. */
static void test_fp8(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    assert_int_equal(tco_workload_set_text(s.w, TCO_P_PRECISION, "fp8", NULL), TCO_OK);
    tco_estimate e = scen_run(&s);
    assert_rel(e.peak_flops, 1979e12, 0);
    assert_rel(e.compute_hours, 309.93033097524, 1e-12);
    scen_free(&s);

    /* A100 has no FP8 (A100 datasheet: BF16 312 TFLOP/s dense, no FP8). */
    scen_new(&s);
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_ACCELERATOR_MODEL, "A100-SXM-80GB", NULL), TCO_OK);
    assert_int_equal(tco_workload_set_text(s.w, TCO_P_PRECISION, "fp8", NULL), TCO_OK);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_PRECISION, "precision");
    scen_free(&s);

    /* A100 in BF16: 312e12 FLOP/s; hours 989/312 times the H100's. */
    scen_new(&s);
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_ACCELERATOR_MODEL, "A100-SXM-80GB", NULL), TCO_OK);
    e = scen_run(&s);
    assert_rel(e.peak_flops, 312e12, 0);
    assert_rel(e.compute_hours, 9.0442450944e23 / (1024 * 312e12 * 0.4) / 3600, 1e-14);
    scen_free(&s);

    /* An explicit peak overrides the catalogue, whatever the precision. */
    scen_new(&s);
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_ACCELERATOR_MODEL, "A100-SXM-80GB", NULL), TCO_OK);
    assert_int_equal(tco_workload_set_text(s.w, TCO_P_PRECISION, "fp8", NULL), TCO_OK);
    ST(&s, TCO_P_ACCELERATOR_PEAK_FLOPS, 624e12);
    e = scen_run(&s);
    assert_rel(e.peak_flops, 624e12, 0);
    scen_free(&s);
}

/* ---- 2. goodput: failures and checkpoints ----------------------------- */

/* The whole time chain of the base scenario, by hand:
 *   M     = 1 / (1024/80000 + 128/17500) = 49.715909091 h
 *   delta = 70e9 x 14 B / 100 GB/s = 9.8 s = 0.0027222 h
 *   Young = sqrt(2 delta M) = 0.52026484 h
 *   Daly  = Young x (1 + sqrt(r)/3 + r/9) - delta, r = delta/2M
 *         = 0.51845161 h
 *   work  = 620.17403943 / (1 - 0.02) = 632.83065248 h
 *   wall  = M e^(R/M) (e^((tau+delta)/M) - 1) work / tau, R = 0.25 h
 *         = 642.72340317 h; goodput 620.174/642.723 = 0.96491591. */
static void test_time_chain(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    tco_estimate e = scen_run(&s);
    chain c = base_chain(1024, 989e12);
    assert_rel(e.system_mtbf_hours, c.mtbf, 1e-14);
    assert_rel(e.system_mtbf_hours, 49.7159090909091, 1e-12);
    assert_rel(e.checkpoint_bytes, 9.8e11, 1e-15);
    assert_rel(e.checkpoint_write_hours, 9.8 / 3600, 1e-14);
    assert_rel(e.young_interval_hours, sqrt(2 * c.delta * c.mtbf), 1e-14);
    assert_rel(e.young_interval_hours, 0.520264841259243, 1e-12);
    assert_rel(e.daly_interval_hours, c.tau, 1e-13);
    assert_rel(e.daly_interval_hours, 0.518451609077229, 1e-12);
    assert_rel(e.checkpoint_interval_hours, c.tau, 1e-13);
    assert_rel(e.data_stall_share, 0.02, 1e-15);
    assert_rel(e.data_stall_hours, c.work_h - c.compute_h, 1e-12);
    assert_rel(e.wall_hours, c.wall, 1e-12);
    assert_rel(e.wall_hours, 642.723403173542, 1e-11);
    assert_rel(e.goodput, c.compute_h / c.wall, 1e-12);
    assert_rel(e.goodput, 0.964915913084182, 1e-11);
    assert_rel(e.expected_failures, c.wall / c.mtbf, 1e-12);
    assert_rel(e.checkpoint_overhead_hours, c.ckpt_h, 1e-12);
    /* The parts add up to the wall time. */
    assert_rel(e.compute_hours + e.data_stall_hours + e.checkpoint_overhead_hours + e.lost_work_hours +
                   e.restart_hours,
               e.wall_hours, 1e-12);
    scen_free(&s);

    /* A fixed interval replaces Daly's: 2 h; the wall time follows. */
    scen_new(&s);
    SW(&s, TCO_P_CHECKPOINT_INTERVAL_HOURS, 2);
    e = scen_run(&s);
    assert_rel(e.checkpoint_interval_hours, 2, 0);
    assert_rel(e.daly_interval_hours, c.tau, 1e-13); /* still reported */
    assert_rel(e.wall_hours, daly_wall(c.work_h, 2, c.delta, 0.25, c.mtbf), 1e-12);
    assert_true(e.wall_hours > c.wall); /* Daly's interval was better */
    scen_free(&s);
}

/* How the failure time splits between lost work and restarts. In Daly's
 * complete model (2006) a restart of length R can itself be interrupted:
 * per segment of tau + delta there are e^((tau+delta)/M) - 1 failures
 * while working, each losing on average M - (tau+delta)/(e^((tau+delta)/M)
 * - 1) of work and then needing M (e^(R/M) - 1) to get a restart through.
 * Summed over work/tau segments this gives exactly Daly's wall time, so
 *   restart = (work/tau) (e^((tau+delta)/M) - 1) M (e^(R/M) - 1)
 *   lost    = (work/tau) [M (e^((tau+delta)/M) - 1) - (tau + delta)]
 * Counting a full R for each of the wall/M failures (first-order) is only
 * right for R << M; with R comparable to M it exceeds the failure time and
 * leaves a negative lost work. Scenario: M ~ 1 h (1,024 accelerators of
 * 1,024 h, nodes that never fail), R = 1 h. */
static void test_failure_split(void **state)
{
    (void)state;
    static const double restart_minutes[] = { 15, 60 };
    for (size_t i = 0; i < 2; i++) {
        scen s;
        scen_new(&s);
        ST(&s, TCO_P_ACCELERATOR_MTBF_HOURS, 1024);
        ST(&s, TCO_P_NODE_MTBF_HOURS, 1e9);
        ST(&s, TCO_P_RESTART_MINUTES, restart_minutes[i]);
        tco_estimate e = scen_run(&s);
        double m = 1 / (1024 / 1024.0 + 128 / 1e9), r = restart_minutes[i] / 60;
        double delta = 9.8 / 3600, tau = daly_tau(delta, m);
        double work = 620.174039433771 / 0.98;
        double segs = work / tau, fails_in_work = expm1((tau + delta) / m);
        assert_rel(e.system_mtbf_hours, m, 1e-14);
        assert_rel(e.wall_hours, daly_wall(work, tau, delta, r, m), 1e-12);
        assert_rel(e.restart_hours, segs * fails_in_work * m * expm1(r / m), 1e-9);
        assert_rel(e.lost_work_hours, segs * (m * fails_in_work - (tau + delta)), 1e-9);
        assert_true(e.lost_work_hours >= 0);
        scen_free(&s);
    }
}

/* Asynchronous checkpoints pause training only to copy the state to host
 * memory: 980 GB over 128 nodes x 25 GB/s = 0.30625 s, against 9.8 s
 * blocking. The interval is Daly's for that pause, but at least the time
 * the write to storage takes (9.8 s). */
static void test_checkpoint_async(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_CHECKPOINT_ASYNC, 1);
    tco_estimate e = scen_run(&s);
    chain c = base_chain(1024, 989e12);
    double delta = 9.8e11 / (128 * 25e9) / 3600; /* 8.5069e-5 h */
    double tau = fmax(daly_tau(delta, c.mtbf), 9.8 / 3600);
    assert_rel(e.checkpoint_write_hours, delta, 1e-14);
    assert_rel(e.checkpoint_write_hours, 0.30625 / 3600, 1e-14);
    assert_rel(e.checkpoint_interval_hours, tau, 1e-13);
    assert_rel(e.checkpoint_interval_hours, 0.091913995096769, 1e-11);
    assert_rel(e.checkpoint_overhead_hours, c.work_h / tau * delta, 1e-12);
    assert_rel(e.wall_hours, daly_wall(c.work_h, tau, delta, 0.25, c.mtbf), 1e-12);
    assert_rel(e.wall_hours, 637.198944537583, 1e-11);
    assert_true(e.wall_hours < c.wall);
    assert_true(e.checkpoint_overhead_hours < c.ckpt_h);
    scen_free(&s);

    /* A slow writer (0.1 GB/s: 9,800 s per checkpoint) bounds the
     * interval from below: tau = 9800 s = 2.7222 h. */
    scen_new(&s);
    SW(&s, TCO_P_CHECKPOINT_ASYNC, 1);
    SW(&s, TCO_P_CHECKPOINT_WRITE_GBPS, 0.1);
    e = scen_run(&s);
    assert_rel(e.checkpoint_write_hours, delta, 1e-14);
    assert_rel(e.checkpoint_interval_hours, 9800.0 / 3600, 1e-14);
    scen_free(&s);
}

/* Data stalls: when the hot tier cannot feed tokens x bytes_per_token in
 * the compute time, the accelerators wait for it. 2e12 tokens x 10 kB =
 * 2e16 B at 1 GB/s takes 2e7 s = 5,555.56 h: that is the working time,
 * and the stall share 1 - 1e9 / (2e16 / (620.174 x 3600)) = 0.88836867. */
static void test_data_stalls(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_BYTES_PER_TOKEN, 1e4);
    ST(&s, TCO_P_STORAGE_HOT_GBPS, 1);
    tco_estimate e = scen_run(&s);
    double compute_h = 620.174039433771;
    double read_rate = 2e12 * 1e4 / (compute_h * 3600);
    double stall = 1 - 1e9 / read_rate;
    assert_rel(e.data_stall_share, stall, 1e-12);
    assert_rel(e.data_stall_share, 0.888368672901921, 1e-11);
    assert_rel(e.compute_hours + e.data_stall_hours, 2e16 / 1e9 / 3600, 1e-12);
    /* stalls are waste, priced at the on-demand rate */
    assert_rel(e.waste[TCO_WASTE_DATA_STALLS], 1024 * e.data_stall_hours * 4.0, 1e-12);
    scen_free(&s);

    /* Fast enough storage: the floor data_stall_share applies. */
    scen_new(&s);
    SW(&s, TCO_P_DATA_STALL_SHARE, 0.1);
    e = scen_run(&s);
    assert_rel(e.data_stall_share, 0.1, 1e-15);
    assert_rel(e.data_stall_hours, 620.174039433771 / 0.9 - 620.174039433771, 1e-11);
    scen_free(&s);
}

/* ---- accelerator-hours, waste and runs -------------------------------- */

/* Billed accelerator-hours are the cluster's accelerators times the held
 * hours; useful ones the job's accelerators times the compute hours. */
static void test_accelerator_hours(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    tco_estimate e = scen_run(&s);
    chain c = base_chain(1024, 989e12);
    assert_rel(e.held_hours, c.wall, 1e-12);
    assert_rel(e.accelerator_hours, 1024 * c.wall, 1e-12);
    assert_rel(e.accelerator_hours, e.cluster_accelerators * e.held_hours, 1e-15);
    assert_rel(e.effective_accelerator_hours, 1024 * c.compute_h, 1e-12);
    scen_free(&s);
}

/* Idle waste: a 512-accelerator job on a 1,024 cluster leaves 512 idle for
 * the whole wall time. Job: 64 nodes, M = 1/(512/80000 + 64/17500) =
 * 99.431818 h, compute 1,240.348 h, wall 1,278.2831377 h; idle waste at
 * the on-demand 4.0/h = 512 x 1,278.2831377 x 4 = 2,617,923.866. */
static void test_idle_waste(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_JOB_ACCELERATORS, 512);
    tco_estimate e = scen_run(&s);
    chain c = base_chain(512, 989e12);
    assert_rel(e.system_mtbf_hours, 99.4318181818182, 1e-12);
    assert_rel(e.wall_hours, c.wall, 1e-12);
    assert_rel(e.waste[TCO_WASTE_IDLE], 512 * c.wall * 4.0, 1e-12);
    assert_rel(e.waste[TCO_WASTE_IDLE], 2617923.86599298, 1e-11);
    assert_rel(e.accelerator_hours, 1024 * c.wall, 1e-12);
    assert_rel(e.effective_accelerator_hours, 512 * c.compute_h, 1e-12);
    scen_free(&s);

    /* The whole cluster in the job and no queue: no idle waste at all. */
    scen_new(&s);
    e = scen_run(&s);
    c = base_chain(1024, 989e12);
    assert_true(e.waste[TCO_WASTE_IDLE] == 0);
    assert_true(e.waste[TCO_WASTE_RETRIES] == 0);
    /* the other kinds, by hand, at 4.0/h for 1,024 accelerators */
    assert_rel(e.waste[TCO_WASTE_CHECKPOINTS], 1024 * c.ckpt_h * 4.0, 1e-12);
    assert_rel(e.waste[TCO_WASTE_DATA_STALLS], 1024 * (c.work_h - c.compute_h) * 4.0, 1e-12);
    assert_rel(e.waste[TCO_WASTE_FAILURES], 1024 * (c.wall - c.work_h - c.ckpt_h) * 4.0, 1e-12);
    scen_free(&s);
}

/* Runs and queue wait: held = runs x wall + queue; everything billed by
 * the hour follows, and the queue is idle time of the whole cluster.
 * 3 runs and 100 h of queue: held = 3 x 642.7234 + 100 = 2,028.1702 h. */
static void test_runs_and_queue(void **state)
{
    (void)state;
    chain c = base_chain(1024, 989e12);
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_RUNS, 3);
    SW(&s, TCO_P_QUEUE_WAIT_HOURS, 100);
    tco_estimate e = scen_run(&s);
    double held = 3 * c.wall + 100;
    assert_rel(e.wall_hours, c.wall, 1e-12); /* per run */
    assert_rel(e.held_hours, held, 1e-12);
    assert_rel(e.accelerator_hours, 1024 * held, 1e-12);
    assert_rel(e.effective_accelerator_hours, 3 * 1024 * c.compute_h, 1e-12);
    assert_rel(e.waste[TCO_WASTE_IDLE], 1024 * 100 * 4.0, 1e-12);
    assert_rel(e.cost[TCO_CAT_COMPUTE], 3 * 1024 * c.compute_h * 4.0, 1e-12);
    /* monthly items: months = held / 730.5 */
    double months = held / HOURS_PER_MONTH;
    assert_rel(e.cost[TCO_CAT_PLATFORM], months * 128 * 150, 1e-12);
    assert_rel(e.cost[TCO_CAT_SECURITY], months * (128 * 30 + 5000), 1e-12);
    assert_rel(e.cost[TCO_CAT_DATABASE], months * (2 * 500 + 500 * 0.115), 1e-12);
    scen_free(&s);

    /* Retries: 20% of held time on abandoned runs: retry = wall x 0.2/0.8. */
    scen_new(&s);
    SW(&s, TCO_P_RETRY_SHARE, 0.2);
    e = scen_run(&s);
    assert_rel(e.held_hours, c.wall * 1.25, 1e-12);
    assert_rel(e.waste[TCO_WASTE_RETRIES], 1024 * c.wall * 0.25 * 4.0, 1e-12);
    assert_rel(e.waste[TCO_WASTE_RETRIES] / (e.accelerator_hours * 4.0), 0.2, 1e-12);
    scen_free(&s);
}

/* ---- 3. cost per category --------------------------------------------- */

/* Rented hardware: power and cooling are in the rent. The cluster still
 * draws (1024 x 700 W x 0.8 + 128 x 3000 W) / 1000 = 957.44 kW. */
static void test_rented_no_power_cooling(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    tco_estimate e = scen_run(&s);
    assert_true(e.cost[TCO_CAT_POWER] == 0);
    assert_true(e.cost[TCO_CAT_COOLING] == 0);
    assert_true(e.cost[TCO_CAT_NETWORK] == 0); /* no owned fabric, no egress */
    assert_rel(e.it_power_kw, 957.44, 1e-14);
    assert_rel(e.facility_power_kw, 957.44 * 1.2, 1e-14);
    assert_rel(e.energy_kwh, 957.44 * 1.2 * e.held_hours, 1e-14);
    /* compute: the useful accelerator-hours at 4.0/h */
    chain c = base_chain(1024, 989e12);
    assert_rel(e.cost[TCO_CAT_COMPUTE], 1024 * c.compute_h * 4.0, 1e-12);
    assert_rel(e.cost[TCO_CAT_COMPUTE] + e.cost[TCO_CAT_WASTE], 1024 * c.wall * 4.0, 1e-12);
    scen_free(&s);
}

/* Owned hardware: the price of one accelerator slot is
 * P = 25,000 + 100,000 / 8 = 37,500; at i = 8% over n = 4 years with a 10%
 * residual and 3% maintenance:
 *   CRF      = 0.08 / (1 - 1.08^-4) = 0.30192080
 *   residual = 3,750 / 1.08^4 = 2,756.36
 *   yearly   = (37,500 - 2,756.36) x 0.30192080 + 1,125 = 11,614.8272
 * per hour 11,614.8272 / 8,766; compute = that x useful accelerator-hours
 * (billed x useful/billed). */
static void test_owned_annuity(void **state)
{
    (void)state;
    double yearly = annuity(37500, 0.1, 0.08, 4, 0.03);
    assert_rel(yearly, 11614.8271503238, 1e-12);
    chain c = base_chain(1024, 989e12);
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 1);
    tco_estimate e = scen_run(&s);
    double useful = 1024 * c.compute_h, billed = 1024 * c.wall;
    assert_rel(e.cost[TCO_CAT_COMPUTE], yearly / HOURS_PER_YEAR * billed * (useful / billed), 1e-12);

    /* Power: IT kW x held hours x price, the useful share in POWER. */
    double it_kw = (1024 * 700 * 0.8 + 128 * 3000.0) / 1000;
    double power_all = it_kw * c.wall * 0.10;
    assert_rel(e.cost[TCO_CAT_POWER], power_all * useful / billed, 1e-12);

    /* Cooling: the PUE overhead energy plus the plant (sized at full load:
     * (1024 x 700 + 128 x 3000)/1000 = 1,100.8 kW at 1,500/kW, no residual,
     * same capital cost and maintenance). */
    double plant = annuity(1100.8 * 1500, 0, 0.08, 4, 0.03);
    double cooling_all = it_kw * c.wall * (1.2 - 1) * 0.10 + plant * c.wall / HOURS_PER_YEAR;
    assert_rel(e.cost[TCO_CAT_COOLING], cooling_all * useful / billed, 1e-12);

    /* What is not useful is waste: compute + power + cooling + waste is
     * the whole hourly cost of the hardware. */
    assert_rel(e.cost[TCO_CAT_COMPUTE] + e.cost[TCO_CAT_POWER] + e.cost[TCO_CAT_COOLING] +
                   e.cost[TCO_CAT_WASTE],
               yearly / HOURS_PER_YEAR * billed + power_all + cooling_all, 1e-12);

    /* Owned fabric: 1,024 endpoints on radix 64 = 2 tiers (32 leaves, 16
     * spines: 48 switches), 2,048 links, 4,096 optics: 48 x 30,000 + 4,096
     * x 800 + 2,048 x 100 = 4,921,600; no residual. */
    assert_rel(e.fabric_tiers, 2, 0);
    assert_rel(e.fabric_switches, 48, 0);
    assert_rel(e.fabric_links, 2048, 0);
    assert_rel(e.fabric_optics, 4096, 0);
    assert_rel(e.fabric_capex, 4921600, 1e-15);
    assert_rel(e.fabric_bisection_tbps, 1024 * 400 / 1000.0 / 2, 1e-15);
    assert_rel(e.cost[TCO_CAT_NETWORK], annuity(4921600, 0, 0.08, 4, 0.03) * c.wall / HOURS_PER_YEAR,
               1e-12);
    scen_free(&s);

    /* Resold at 20% after its 4 years, the fabric costs the annuity of its
     * price less the discounted 984,320. */
    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 1);
    SP(&s, TCO_P_FABRIC_RESIDUAL_SHARE, 0.2);
    e = scen_run(&s);
    assert_rel(e.cost[TCO_CAT_NETWORK], annuity(4921600, 0.2, 0.08, 4, 0.03) * c.wall / HOURS_PER_YEAR,
               1e-12);
    scen_free(&s);

    /* Liquid cooling prices the plant at 3,000/kW. */
    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 1);
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_COOLING, "liquid", NULL), TCO_OK);
    e = scen_run(&s);
    plant = annuity(1100.8 * 3000, 0, 0.08, 4, 0.03);
    cooling_all = it_kw * c.wall * 0.2 * 0.10 + plant * c.wall / HOURS_PER_YEAR;
    assert_rel(e.cost[TCO_CAT_COOLING], cooling_all * useful / billed, 1e-12);
    scen_free(&s);
}

/* The facility apart from the IT (doc/model.md, section 18): power
 * distribution, UPS and generators at 2,000 per kW of IT plant and the
 * cooling plant, both over the facility's 15 years with a 10% residual;
 * colocation at 150 per kW-month beside them. All in the power and cooling
 * categories, of the owned share only. */
static void test_facility(void **state)
{
    (void)state;
    chain c = base_chain(1024, 989e12);
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 0.5);
    SP(&s, TCO_P_FACILITY_CAPEX_PER_KW, 2000);
    SP(&s, TCO_P_FACILITY_LIFE_YEARS, 15);
    SP(&s, TCO_P_FACILITY_RESIDUAL_SHARE, 0.1);
    SP(&s, TCO_P_COLOCATION_PER_KW_MONTH, 150);
    tco_estimate e = scen_run(&s);
    double useful = 1024 * c.compute_h, billed = 1024 * c.wall;
    double it_kw = (1024 * 700 * 0.8 + 128 * 3000.0) / 1000, plant_kw = 1100.8;
    /* 1,100.8 kW x 2,000 = 2,201,600 over 15 years at 8% with 10% back,
     * 3% maintenance; 1,100.8 x 150 x 12 = 1,981,440 a year of colocation. */
    double facility = annuity(plant_kw * 2000, 0.1, 0.08, 15, 0.03) + plant_kw * 150 * 12;
    double power_all = 0.5 * (it_kw * c.wall * 0.10 + facility * c.wall / HOURS_PER_YEAR);
    assert_rel(e.cost[TCO_CAT_POWER], power_all * useful / billed, 1e-12);
    double plant = annuity(plant_kw * 1500, 0.1, 0.08, 15, 0.03);
    double cooling_all = 0.5 * (it_kw * c.wall * 0.2 * 0.10 + plant * c.wall / HOURS_PER_YEAR);
    assert_rel(e.cost[TCO_CAT_COOLING], cooling_all * useful / billed, 1e-12);
    scen_free(&s);

    /* The building never dies before the IT it holds. */
    tco_pricing *p;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_FACILITY_LIFE_YEARS, 3, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(p, &err), TCO_E_INCONSISTENT);
    assert_int_equal(err.param, TCO_P_FACILITY_LIFE_YEARS);
    assert_non_null(strstr(err.message, "depreciation_years = 4"));
    /* a building of the IT's own life is allowed: it does not die before */
    assert_int_equal(tco_pricing_set(p, TCO_P_FACILITY_LIFE_YEARS, 4, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(p, &err), TCO_OK);
    tco_pricing_free(p);
}

/* Fixed against variable (doc/model.md, section 3): half owned, and of the
 * rented half a half reserved at 2.50, the rest on demand. Fixed: the owned
 * annuity and the reserved term for every billed hour, the plant, the
 * fabric, the standing team, platform, security and database; variable:
 * the hours on demand, energy, logs. Waste is fixed in the hardware's
 * proportion. */
static void test_fixed(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 0.5);
    ST(&s, TCO_P_RESERVED_SHARE, 0.5);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    tco_estimate e = scen_run(&s);
    double billed = e.accelerator_hours, useful = e.effective_accelerator_hours;
    double yearly = annuity(37500, 0.1, 0.08, 4, 0.03);
    double fixed_rate = 0.5 * 0.5 * 2.5 + 0.5 * yearly / HOURS_PER_YEAR;
    double rate = fixed_rate + 0.5 * 0.5 * 4;
    assert_rel(e.fixed[TCO_CAT_COMPUTE], billed * fixed_rate * useful / billed, 1e-12);
    assert_rel(e.cost[TCO_CAT_COMPUTE], billed * rate * useful / billed, 1e-12);
    assert_rel(e.fixed[TCO_CAT_NETWORK], 0.5 * annuity(4921600, 0, 0.08, 4, 0.03) * e.held_hours / HOURS_PER_YEAR,
               1e-12);
    const int whole[] = { TCO_CAT_DATABASE, TCO_CAT_SECURITY, TCO_CAT_PLATFORM, TCO_CAT_STAFF };
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        assert_rel(e.fixed[whole[i]], e.cost[whole[i]], 1e-15);
    /* Energy follows use: power is variable with no facility. */
    assert_rel(e.fixed[TCO_CAT_POWER], 0, 0);
    double sum = 0;
    for (int k = 0; k < TCO_CATEGORY_SLOTS; k++) {
        assert_true(e.fixed[k] >= 0 && e.fixed[k] <= e.cost[k] * (1 + 1e-15));
        sum += e.fixed[k];
    }
    assert_rel(e.fixed_total, sum, 1e-15);
    assert_true(e.fixed_total < e.total);
    scen_free(&s);
}

/* Rental rates that exclude power (colocation, bare metal): a rented
 * cluster then pays its IT energy and the PUE overhead's, like an owned
 * one, but no plant. */
static void test_rental_without_power(void **state)
{
    (void)state;
    chain c = base_chain(1024, 989e12);
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 0);
    SP(&s, TCO_P_RENTAL_INCLUDES_POWER, 0);
    tco_estimate e = scen_run(&s);
    double useful = 1024 * c.compute_h, billed = 1024 * c.wall;
    double it_kw = (1024 * 700 * 0.8 + 128 * 3000.0) / 1000;
    assert_rel(e.cost[TCO_CAT_POWER], it_kw * c.wall * 0.10 * useful / billed, 1e-12);
    assert_rel(e.cost[TCO_CAT_COOLING], it_kw * c.wall * 0.2 * 0.10 * useful / billed, 1e-12);
    assert_rel(e.fixed[TCO_CAT_COOLING], 0, 0);
    scen_free(&s);
}

/* A hot tier far slower than the run reads: the work lasts exactly as long
 * as reading the data, data / bandwidth, to the last bits (it was taken as
 * compute / (1 - (1 - bandwidth / read rate)), which loses the digits the
 * ratio does not have). */
static void test_stall_bound_by_reading(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_STORAGE_HOT_GBPS, 0.01);
    SW(&s, TCO_P_BYTES_PER_TOKEN, 1e5);
    tco_estimate e = scen_run(&s);
    double reading = 2e12 * 1e5 / (0.01 * 1e9 * 3600); /* 5.56e6 h to read 2e17 B at 10 MB/s */
    assert_rel(e.compute_hours + e.data_stall_hours, reading, 1e-15);
    assert_rel(e.data_stall_share, 1 - e.compute_hours / reading, 1e-15);
    assert_true(e.flags & TCO_FLAG_STALL_BANDWIDTH);
    scen_free(&s);
}

/* Staff and spares by events (doc/model.md, section 3): the cluster's
 * 1,024 accelerators failing once in 50,000 h each and its 128 nodes once
 * in 25,000 h fail 1,024/50,000 + 128/25,000 = 0.0256 times an hour; each
 * takes 4 h to handle; four upgrades a year take half an hour a node;
 * automation removes a quarter. At 180,000 a year over 1,800 h an hour of
 * it costs 100. Spares: 2,000 per failure of the owned half. Doubling the
 * failures doubles their share of both. */
static void test_events(void **state)
{
    (void)state;
    double lambda = 1024 / 50000.0 + 128 / 25000.0;
    double upgrades_h = 4 * 128 * 0.5 / HOURS_PER_YEAR; /* hours a held hour */
    double fte = 128 / 100.0;                           /* nodes_per_fte 100, above min_fte 0.5 */
    double staff[2], spares_gap[2];
    for (int doubled = 0; doubled < 2; doubled++) {
        double mtbf = doubled ? 0.5 : 1;
        tco_estimate e[2];
        for (int with = 0; with < 2; with++) {
            scen s;
            scen_new(&s);
            ST(&s, TCO_P_OWNED_SHARE, 0.5);
            ST(&s, TCO_P_ACCELERATOR_MTBF_HOURS, 50000 * mtbf);
            ST(&s, TCO_P_NODE_MTBF_HOURS, 25000 * mtbf);
            SP(&s, TCO_P_STAFF_PER_FTE_YEAR, 180000);
            SP(&s, TCO_P_NODES_PER_FTE, 100);
            SP(&s, TCO_P_MIN_FTE, 0.5);
            SP(&s, TCO_P_STAFF_HOURS_PER_FAILURE, 4);
            SP(&s, TCO_P_UPGRADES_PER_YEAR, 4);
            SP(&s, TCO_P_STAFF_HOURS_PER_NODE_UPGRADE, 0.5);
            SP(&s, TCO_P_AUTOMATION_SHARE, 0.25);
            SP(&s, TCO_P_SPARE_PARTS_PER_FAILURE, with ? 2000 : 0);
            e[with] = scen_run(&s);
            scen_free(&s);
        }
        double held = e[1].held_hours, events = 0.75 * 100 * (lambda / mtbf * 4 + upgrades_h);
        assert_rel(e[1].cost[TCO_CAT_STAFF], (fte * 180000 / HOURS_PER_YEAR + events) * held, 1e-12);
        staff[doubled] = e[1].cost[TCO_CAT_STAFF] / held;
        spares_gap[doubled] = (e[1].cost[TCO_CAT_COMPUTE] - e[0].cost[TCO_CAT_COMPUTE]) / held;
        assert_rel(spares_gap[doubled], 0.5 * lambda / mtbf * 2000, 1e-9);
    }
    /* Per held hour: the failures' part of staff and spares doubles. */
    assert_rel(staff[1] - staff[0], 0.75 * 100 * lambda * 4, 1e-9);
    assert_rel(spares_gap[1], 2 * spares_gap[0], 1e-12);
}

/* Indirect costs from their drivers, spread over four runs (doc/model.md,
 * section 3): 100 TB moved at 0.09 per GB = 9,000; 6 engineer-months at
 * 180,000 a year = 90,000; 3 months of the old system at 50,000 = 150,000;
 * 4 weeks of learning losing a quarter of the output of 1,024 accelerators
 * rented at 4.00 an hour = 4 x 168 x 0.25 x 4,096 = 688,128; a 10% chance
 * of losing 1,000,000 = 100,000. 1,037,128 in all, a quarter on one run. */
static void test_indirect_derived(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 0);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SP(&s, TCO_P_STAFF_PER_FTE_YEAR, 180000);
    SP(&s, TCO_P_EGRESS_INTERNET_PER_GB, 0.09);
    SP(&s, TCO_P_MIGRATION_DATA_TB, 100);
    SP(&s, TCO_P_MIGRATION_ENGINEER_MONTHS, 6);
    SP(&s, TCO_P_MIGRATION_PARALLEL_MONTHS, 3);
    SP(&s, TCO_P_MIGRATION_PARALLEL_COST_PER_MONTH, 50000);
    SP(&s, TCO_P_LEARNING_RAMP_WEEKS, 4);
    SP(&s, TCO_P_LEARNING_OUTPUT_LOSS, 0.25);
    SP(&s, TCO_P_RISK_PROBABILITY, 0.1);
    SP(&s, TCO_P_RISK_IMPACT, 1e6);
    SP(&s, TCO_P_INDIRECT_SPREAD_RUNS, 4);
    SW(&s, TCO_P_RUNS, 1);
    tco_estimate e = scen_run(&s);
    assert_rel(e.cost[TCO_CAT_INDIRECT], 1037128 / 4.0, 1e-12);
    scen_free(&s);
    /* Spread over fewer runs than the estimate holds: all of it. */
    scen_new(&s);
    SP(&s, TCO_P_MIGRATION_DATA_TB, 100);
    SP(&s, TCO_P_EGRESS_INTERNET_PER_GB, 0.09);
    SP(&s, TCO_P_INDIRECT_SPREAD_RUNS, 2);
    SW(&s, TCO_P_RUNS, 3);
    e = scen_run(&s);
    assert_rel(e.cost[TCO_CAT_INDIRECT], 9000, 1e-12);
    scen_free(&s);
    /* All owned: the output lost while learning is priced at the owned
     * cluster's hour, none of it at the rental rate (1 - owned_share = 0). */
    double indirect[2];
    for (int k = 0; k < 2; k++) {
        scen_new(&s);
        ST(&s, TCO_P_OWNED_SHARE, 1);
        SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4 * (k + 1));
        SP(&s, TCO_P_LEARNING_RAMP_WEEKS, 4);
        SP(&s, TCO_P_LEARNING_OUTPUT_LOSS, 0.25);
        e = scen_run(&s);
        indirect[k] = e.cost[TCO_CAT_INDIRECT];
        scen_free(&s);
    }
    assert_true(indirect[0] > 0 && indirect[0] == indirect[1]);
}

/* Cost of capital 0: straight-line depreciation,
 * (37,500 - 3,750) / 4 + 1,125 = 9,562.5 a year. Without residual and
 * maintenance: 37,500 / 4 = 9,375. */
static void test_owned_straight_line(void **state)
{
    (void)state;
    chain c = base_chain(1024, 989e12);
    double useful = 1024 * c.compute_h;
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 1);
    SP(&s, TCO_P_COST_OF_CAPITAL, 0);
    tco_estimate e = scen_run(&s);
    assert_rel(e.cost[TCO_CAT_COMPUTE], 9562.5 / HOURS_PER_YEAR * useful, 1e-12);
    scen_free(&s);

    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 1);
    SP(&s, TCO_P_COST_OF_CAPITAL, 0);
    SP(&s, TCO_P_RESIDUAL_SHARE, 0);
    SP(&s, TCO_P_MAINTENANCE_SHARE_PER_YEAR, 0);
    e = scen_run(&s);
    assert_rel(e.cost[TCO_CAT_COMPUTE], 9375.0 / HOURS_PER_YEAR * useful, 1e-12);
    scen_free(&s);
}

/* Half owned: power is owned share x IT kW x held x price. */
static void test_power_half_owned(void **state)
{
    (void)state;
    chain c = base_chain(1024, 989e12);
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_OWNED_SHARE, 0.5);
    SP(&s, TCO_P_ELECTRICITY_PER_KWH, 0.2);
    SW(&s, TCO_P_POWER_DRAW_SHARE, 0.5);
    tco_estimate e = scen_run(&s);
    /* (1024 x 700 x 0.5 + 128 x 3000) / 1000 = 742.4 kW */
    assert_rel(e.it_power_kw, 742.4, 1e-14);
    double power_all = 0.5 * 742.4 * c.wall * 0.2;
    assert_rel(e.cost[TCO_CAT_POWER], power_all * c.compute_h / c.wall, 1e-12);
    /* compute: half at 4.0/h, half owned */
    double rate = 0.5 * 4.0 + 0.5 * annuity(37500, 0.1, 0.08, 4, 0.03) / HOURS_PER_YEAR;
    assert_rel(e.cost[TCO_CAT_COMPUTE], rate * 1024 * c.compute_h, 1e-12);
    scen_free(&s);
}

/* Rental blend: 50% reserved at 2.5, 25% spot at 2.0, 25% on demand at
 * 4.0: 1.25 + 0.5 + 1.0 = 2.75 per accelerator-hour. Spot nodes (128 x
 * 0.25 = 32) are reclaimed at 0.01/h each, which adds 0.32/h to the
 * failure rate: M = 1 / (0.0128 + 0.0073143 + 0.32) = 2.9401882 h. */
static void test_rental_blend(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_RESERVED_SHARE, 0.5);
    ST(&s, TCO_P_SPOT_SHARE, 0.25);
    tco_estimate e = scen_run(&s);
    double m = 1 / (1024 / 80000.0 + 128 / 17500.0 + 32 * 0.01);
    assert_rel(e.system_mtbf_hours, m, 1e-14);
    assert_rel(e.system_mtbf_hours, 2.94018817204301, 1e-12);
    double work = 620.174039433771 / 0.98, delta = 9.8 / 3600, tau = daly_tau(delta, m);
    double wall = daly_wall(work, tau, delta, 0.25, m);
    assert_rel(e.wall_hours, wall, 1e-12);
    assert_rel(e.cost[TCO_CAT_COMPUTE], 2.75 * e.effective_accelerator_hours, 1e-12);
    assert_rel(e.cost[TCO_CAT_COMPUTE] + e.cost[TCO_CAT_WASTE], 2.75 * 1024 * wall, 1e-12);
    scen_free(&s);

    /* All reserved: 2.5/h; failures unchanged from the base. */
    scen_new(&s);
    ST(&s, TCO_P_RESERVED_SHARE, 1);
    e = scen_run(&s);
    chain c = base_chain(1024, 989e12);
    assert_rel(e.cost[TCO_CAT_COMPUTE], 2.5 * 1024 * c.compute_h, 1e-12);
    scen_free(&s);
}

/* Staff: max(min_fte, nodes / nodes_per_fte) x cost per FTE-year x held
 * years. 128 nodes / 100 = 1.28 < 2: 2 FTE; with 10 nodes per FTE: 12.8. */
static void test_staff(void **state)
{
    (void)state;
    chain c = base_chain(1024, 989e12);
    scen s;
    scen_new(&s);
    tco_estimate e = scen_run(&s);
    assert_rel(e.cost[TCO_CAT_STAFF], 2 * 200000 * c.wall / HOURS_PER_YEAR, 1e-12);
    scen_free(&s);

    scen_new(&s);
    SP(&s, TCO_P_NODES_PER_FTE, 10);
    e = scen_run(&s);
    assert_rel(e.cost[TCO_CAT_STAFF], 12.8 * 200000 * c.wall / HOURS_PER_YEAR, 1e-12);
    scen_free(&s);
}

/* Indirect: migration + learning FTE-months x FTE-year / 12 + risk share
 * x the other categories. Risk 10% alone: a tenth of everything else, and
 * of their fixed parts its fixed part. Migration 1e6 and 6 FTE-months at
 * 200,000/y: 1e6 + 100,000, all of it fixed (paid whatever happens). */
static void test_indirect(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SP(&s, TCO_P_RISK_PREMIUM_SHARE, 0.1);
    tco_estimate e = scen_run(&s);
    double rest = 0, fixed_rest = 0;
    for (size_t k = 0; k < tco_category_count(); k++)
        if (k != TCO_CAT_INDIRECT) {
            rest += e.cost[k];
            fixed_rest += e.fixed[k];
        }
    assert_rel(e.cost[TCO_CAT_INDIRECT], 0.1 * rest, 1e-12);
    assert_rel(e.total, 1.1 * rest, 1e-12);
    assert_rel(e.fixed[TCO_CAT_INDIRECT], 0.1 * fixed_rest, 1e-12);
    assert_rel(e.fixed_total, 1.1 * fixed_rest, 1e-12);
    scen_free(&s);

    scen_new(&s);
    SP(&s, TCO_P_MIGRATION_COST, 1e6);
    SP(&s, TCO_P_LEARNING_FTE_MONTHS, 6);
    e = scen_run(&s);
    assert_rel(e.cost[TCO_CAT_INDIRECT], 1.1e6, 1e-15);
    assert_rel(e.fixed[TCO_CAT_INDIRECT], 1.1e6, 1e-15);
    scen_free(&s);
}

/* Storage, database, logging, by hand for the base scenario.
 *   storage: with no tier provisioned, the retention policy's GB-months of
 *     the dataset and the checkpoints on each tier, as the lifecycle prices
 *     them (worked by hand in tests/api/test_storage.c); a tier provisioned
 *     is paid for its size instead;
 *   logs: 10 MB per accelerator-hour billed, ingested at 0.50/GB;
 *   metrics: 100 series x 1,024 sampled every 15 s, 1.37 B each, 0.09 per
 *   million samples; both kept 30 days at 0.03/GB-month. */
/* The data pipeline's one-off costs (doc/model.md, section 23) from the
 * dataset as gathered, dataset_bytes = 2 PB, or from raw_data_bytes when
 * given (0.5 PB): 10 CPU node-hours a TB at 2 a node-hour, ingress 0.01
 * and NAT 0.045 a GB. From the dataset: 2,000 TB x 10 x 2 = 40,000 and
 * 2e6 GB x 0.055 = 110,000; from the raw bytes: 10,000 and 27,500. What
 * is stored follows the dataset alone: 2e15 x 0.5 kept x 0.8 = 8e14 B. */
static void test_data_pipeline_bytes(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_DATASET_BYTES, 2e15);
    SW(&s, TCO_P_PREPROCESS_CPU_NODE_HOURS_PER_TB, 10);
    SW(&s, TCO_P_DATA_KEPT_SHARE, 0.5);
    SW(&s, TCO_P_DATA_COMPRESSION_RATIO, 0.8);
    SP(&s, TCO_P_CPU_NODE_HOUR_PRICE, 2);
    SP(&s, TCO_P_INTERNET_INGRESS_PER_GB, 0.01);
    SP(&s, TCO_P_NAT_PER_GB, 0.045);
    tco_estimate e = scen_run(&s);
    assert_rel(e.preprocess_cost, 40000, 1e-15);
    assert_rel(e.data_ingress_cost, 110000, 1e-15);
    assert_rel(e.data_stored_bytes, 8e14, 1e-15);
    scen_free(&s);
    scen_new(&s);
    SW(&s, TCO_P_DATASET_BYTES, 2e15);
    SW(&s, TCO_P_RAW_DATA_BYTES, 5e14);
    SW(&s, TCO_P_PREPROCESS_CPU_NODE_HOURS_PER_TB, 10);
    SW(&s, TCO_P_DATA_KEPT_SHARE, 0.5);
    SW(&s, TCO_P_DATA_COMPRESSION_RATIO, 0.8);
    SP(&s, TCO_P_CPU_NODE_HOUR_PRICE, 2);
    SP(&s, TCO_P_INTERNET_INGRESS_PER_GB, 0.01);
    SP(&s, TCO_P_NAT_PER_GB, 0.045);
    e = scen_run(&s);
    assert_rel(e.preprocess_cost, 10000, 1e-15);
    assert_rel(e.data_ingress_cost, 27500, 1e-15);
    assert_rel(e.data_stored_bytes, 8e14, 1e-15);
    scen_free(&s);
}

static void test_storage_and_logging(void **state)
{
    (void)state;
    chain c = base_chain(1024, 989e12);
    scen s;
    scen_new(&s);
    tco_estimate e = scen_run(&s);
    double months = c.wall / HOURS_PER_MONTH;
    tco_lifecycle l = { .size = sizeof l };
    assert_int_equal(tco_lifecycle_compute(&l, s.t, s.w, s.p, NULL), TCO_OK);
    double policy = 0, warm_cold = 0;
    for (int k = 0; k < 3; k++) {
        policy += l.cost[TCO_DATA_DATASET][k] + l.cost[TCO_DATA_CHECKPOINTS][k];
        if (k != TCO_TIER_HOT)
            warm_cold += l.cost[TCO_DATA_DATASET][k] + l.cost[TCO_DATA_CHECKPOINTS][k];
    }
    assert_rel(e.cost[TCO_CAT_STORAGE], policy, 1e-12);
    assert_rel(e.fixed[TCO_CAT_STORAGE], 0, 0); /* used, not provisioned: it follows the data */
    double billed = 1024 * c.wall;
    double log_gb = 10e6 * billed / 1e9;
    double samples = 1024 * 100 * c.wall * 3600 / 15;
    double kept_months = 30 / (365.25 / 12);
    double want = log_gb * 0.50 + samples / 1e6 * 0.09 + (log_gb + samples * 1.37 / 1e9) * kept_months * 0.03;
    assert_rel(e.cost[TCO_CAT_LOGGING], want, 1e-12);
    scen_free(&s);

    /* A provisioned hot tier is billed for its size, 50 TB = 50,000 GB, for
     * the held months; warm and cold still as the policy uses them. */
    scen_new(&s);
    ST(&s, TCO_P_STORAGE_HOT_TB, 50);
    e = scen_run(&s);
    assert_rel(e.cost[TCO_CAT_STORAGE], months * 50000 * 0.145 + warm_cold, 1e-12);
    assert_rel(e.fixed[TCO_CAT_STORAGE], months * 50000 * 0.145, 1e-12);
    scen_free(&s);

    /* A shorter retention moves the bill: one checkpoint kept hot, none warm. */
    scen_new(&s);
    SW(&s, TCO_P_CHECKPOINT_RETENTION, 1);
    SW(&s, TCO_P_CHECKPOINT_WARM_RETENTION, 0);
    e = scen_run(&s);
    assert_true(e.cost[TCO_CAT_STORAGE] < policy);
    scen_free(&s);
}

/* Two sites: ring all-reduce of the gradients between them each step,
 * 2 (S - 1) x params x gradient bytes = 2 x 70e9 x 2 = 2.8e11 B per step,
 * 2e12 / 4,194,304 = 476,837.16 steps: 1.3351e17 B at 0.02/GB. */
static void test_inter_site_traffic(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_SITES, 2);
    tco_estimate e = scen_run(&s);
    double bytes = 2 * 1 * 70e9 * 2 * (2e12 / 4194304);
    assert_rel(e.inter_site_bytes, bytes, 1e-14);
    assert_rel(e.cost[TCO_CAT_NETWORK], bytes / 1e9 * 0.02, 1e-12);
    scen_free(&s);
}

/* ---- 4. unit economics ------------------------------------------------ */

/* Per accelerator-hour = total / billed; per effective hour = total /
 * useful; per million tokens = total / (tokens x runs / 1e6); per
 * PFLOP-day = total / (FLOPs x runs / (1e15 x 86,400)); per job = total /
 * runs. Two runs. */
static void test_unit_economics(void **state)
{
    (void)state;
    chain c = base_chain(1024, 989e12);
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_RUNS, 2);
    SP(&s, TCO_P_RISK_PREMIUM_SHARE, 0.05);
    tco_estimate e = scen_run(&s);
    double billed = 1024 * 2 * c.wall, useful = 1024 * 2 * c.compute_h;
    assert_rel(e.cost_per_accelerator_hour, e.total / billed, 1e-12);
    assert_rel(e.cost_per_effective_accelerator_hour, e.total / useful, 1e-12);
    assert_rel(e.cost_per_million_tokens, e.total / (2e12 * 2 / 1e6), 1e-14);
    assert_rel(e.cost_per_pflop_day, e.total / (9.0442450944e23 * 2 / (1e15 * 86400)), 1e-14);
    assert_rel(e.cost_per_run, e.total / 2, 1e-15); /* per job */
    /* fully loaded per hour is above the sticker price of 4.0 */
    assert_true(e.cost_per_accelerator_hour > 4.0);
    assert_true(e.cost_per_effective_accelerator_hour > e.cost_per_accelerator_hour);
    scen_free(&s);
}

/* The total is exactly the sum of the categories, and the waste kinds add
 * up to the waste category, in a spread of scenarios. */
static void test_total_is_sum(void **state)
{
    (void)state;
    for (int k = 0; k < 8; k++) {
        scen s;
        scen_new(&s);
        switch (k) {
        case 0: break;
        case 1: ST(&s, TCO_P_OWNED_SHARE, 1); break;
        case 2:
            ST(&s, TCO_P_OWNED_SHARE, 0.3);
            ST(&s, TCO_P_RESERVED_SHARE, 0.4);
            ST(&s, TCO_P_SPOT_SHARE, 0.3);
            break;
        case 3:
            SW(&s, TCO_P_JOB_ACCELERATORS, 256);
            SW(&s, TCO_P_QUEUE_WAIT_HOURS, 48);
            SW(&s, TCO_P_RETRY_SHARE, 0.1);
            break;
        case 4:
            SW(&s, TCO_P_RUNS, 7);
            SP(&s, TCO_P_RISK_PREMIUM_SHARE, 0.15);
            SP(&s, TCO_P_MIGRATION_COST, 2.5e5);
            break;
        case 5:
            SW(&s, TCO_P_BYTES_PER_TOKEN, 1e4);
            ST(&s, TCO_P_STORAGE_HOT_GBPS, 1);
            SW(&s, TCO_P_CHECKPOINT_ASYNC, 1);
            break;
        case 6:
            ST(&s, TCO_P_SITES, 4);
            ST(&s, TCO_P_OWNED_SHARE, 1);
            ST(&s, TCO_P_STORAGE_WARM_TB, 500);
            ST(&s, TCO_P_STORAGE_COLD_TB, 2000);
            SW(&s, TCO_P_EGRESS_INTERNET_GB, 1e4);
            break;
        case 7:
            SW(&s, TCO_P_TOTAL_FLOPS, 3.3e24);
            assert_int_equal(tco_workload_set_text(s.w, TCO_P_PRECISION, "fp8", NULL), TCO_OK);
            SP(&s, TCO_P_LEARNING_FTE_MONTHS, 3);
            break;
        }
        tco_estimate e = scen_run(&s); /* check_invariants does the checks */
        assert_true(e.total > 0);
        scen_free(&s);
    }
}

/* Warm and cold tiers provisioned are paid for by capacity over the held
 * months (doc/model.md, section 9): 20 TB more of warm at 0.01 per
 * GB-month adds held / 730.5 x 20,000 x 0.01 to the fixed storage, and 60
 * TB more of cold at 0.004, held / 730.5 x 60,000 x 0.004; the time, and
 * so the held hours, does not move. */
static void test_provisioned_tiers(void **state)
{
    (void)state;
    const double warm[3] = { 10, 30, 30 }, cold[3] = { 40, 40, 100 };
    tco_estimate e[3];
    for (int k = 0; k < 3; k++) {
        scen s;
        scen_new(&s);
        ST(&s, TCO_P_STORAGE_WARM_TB, warm[k]);
        ST(&s, TCO_P_STORAGE_COLD_TB, cold[k]);
        SP(&s, TCO_P_STORAGE_WARM_PER_GB_MONTH, 0.01);
        SP(&s, TCO_P_STORAGE_COLD_PER_GB_MONTH, 0.004);
        e[k] = scen_run(&s);
        scen_free(&s);
    }
    double months = e[0].held_hours / 730.5;
    assert_true(e[1].held_hours == e[0].held_hours && e[2].held_hours == e[0].held_hours);
    assert_rel(e[1].fixed[TCO_CAT_STORAGE] - e[0].fixed[TCO_CAT_STORAGE], months * 20000 * 0.01, 1e-9);
    assert_rel(e[2].fixed[TCO_CAT_STORAGE] - e[1].fixed[TCO_CAT_STORAGE], months * 60000 * 0.004, 1e-9);
}

/* ---- cross-handle errors ---------------------------------------------- */

/* Each valid alone, inconsistent together: the estimate fails with
 * TCO_E_INCONSISTENT, names the parameter to change and writes nothing. */
static void test_cross_handle_errors(void **state)
{
    (void)state;
    scen s;

    /* job_accelerators 2,048 on a 1,024 cluster */
    scen_new(&s);
    SW(&s, TCO_P_JOB_ACCELERATORS, 2048);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_JOB_ACCELERATORS, "job_accelerators");
    scen_free(&s);

    /* tensor 8 x pipeline 3 = 24 does not divide the cluster's 1,024 */
    scen_new(&s);
    SW(&s, TCO_P_PIPELINE_PARALLEL, 3);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_TENSOR_PARALLEL, "tensor_parallel");
    scen_free(&s);

    /* 64 sites but only 1024 / 32 = 32 data-parallel groups */
    scen_new(&s);
    ST(&s, TCO_P_SITES, 64);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_SITES, "sites");
    scen_free(&s);
    /* exactly 32 sites is fine */
    scen_new(&s);
    ST(&s, TCO_P_SITES, 32);
    (void)scen_run(&s);
    scen_free(&s);

    /* data_parallel 16, but 1,024 / 32 = 32 */
    scen_new(&s);
    SW(&s, TCO_P_DATA_PARALLEL, 16);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_DATA_PARALLEL, "data_parallel");
    scen_free(&s);

    /* one checkpoint of 980 GB on a 0.5 TB hot tier */
    scen_new(&s);
    ST(&s, TCO_P_STORAGE_HOT_TB, 0.5);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_CHECKPOINT_BYTES, "checkpoint_bytes");
    scen_free(&s);

    /* 8 TB of data + 10 x 0.98 TB of checkpoints = 17.8 TB on 17.79 TB,
     * the least that holds them named in TB */
    scen_new(&s);
    ST(&s, TCO_P_STORAGE_HOT_TB, 17.79);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_STORAGE_HOT_TB, "storage_hot_tb");
    {
        tco_estimate e = { .size = sizeof e };
        tco_error why = TCO_ERROR_INIT;
        assert_int_equal(tco_estimate_compute(&e, s.t, s.w, s.p, &why), TCO_E_INCONSISTENT);
        assert_non_null(strstr(why.message, "allowed at least 17.8 TB"));
    }
    scen_free(&s);
    scen_new(&s);
    ST(&s, TCO_P_STORAGE_HOT_TB, 17.81);
    (void)scen_run(&s);
    scen_free(&s);
    /* and fewer retained checkpoints fit: 8 + 9 x 0.98 = 16.82 TB */
    scen_new(&s);
    ST(&s, TCO_P_STORAGE_HOT_TB, 17.79);
    SW(&s, TCO_P_CHECKPOINT_RETENTION, 9);
    (void)scen_run(&s);
    scen_free(&s);

    /* Caught at freeze when the workload alone shows it: job 1,000 is not a
     * multiple of tensor x pipeline = 32. */
    scen_new(&s);
    SW(&s, TCO_P_JOB_ACCELERATORS, 1000);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_workload_freeze(s.w, &err), TCO_E_INCONSISTENT);
    assert_int_equal(err.param, TCO_P_JOB_ACCELERATORS);
    assert_string_equal(err.param_name, "job_accelerators");
    assert_false(tco_workload_is_frozen(s.w));
    scen_free(&s);
}

/* A failure rate so high the run never finishes is an error naming a
 * reliability input, never an inf or NaN in the output.
 *
 * Failures against checkpoints alone (no restart time): 1,024 accelerators
 * and 128 nodes each failing hourly give M = 1/1152 h = 3.1 s; a hot tier
 * of 0.01 GB/s makes each 980 GB checkpoint take 98,000 s = 27.2 h, so
 * e^((tau + delta)/M) = e^(~31,000): the job never gets a checkpoint
 * through. The input to change is the failure rate: accelerator_mtbf_hours.
 * (The 8 TB of data at 0.01 GB/s read in 620 h is 3.6 MB/s: no stall.) */
static void test_never_finishes(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    ST(&s, TCO_P_ACCELERATOR_MTBF_HOURS, 1);
    ST(&s, TCO_P_NODE_MTBF_HOURS, 1);
    ST(&s, TCO_P_RESTART_MINUTES, 0);
    ST(&s, TCO_P_STORAGE_HOT_GBPS, 0.01);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_ACCELERATOR_MTBF_HOURS, "accelerator_mtbf_hours");
    scen_free(&s);

    /* Where a restart (15 min, or 7 days so that e^(R/M) overflows a
     * double) outlasts checkpoint interval and write together, the error
     * names the restart time. */
    static const double restart_minutes[] = { 15, 10080 };
    for (size_t i = 0; i < 2; i++) {
        scen_new(&s);
        ST(&s, TCO_P_ACCELERATOR_MTBF_HOURS, 1);
        ST(&s, TCO_P_NODE_MTBF_HOURS, 1);
        ST(&s, TCO_P_RESTART_MINUTES, restart_minutes[i]);
        expect_error(&s, TCO_E_INCONSISTENT, TCO_P_RESTART_MINUTES, "restart_minutes");
        scen_free(&s);
    }

    /* Spot reclaims alone can do it: every spot node reclaimed 10 times an
     * hour, 128 of them: M = 1/1280 h. With no restart time the largest
     * failure rate is named: the spot reclaims, then the nodes. */
    scen_new(&s);
    ST(&s, TCO_P_SPOT_SHARE, 1);
    ST(&s, TCO_P_RESTART_MINUTES, 0);
    ST(&s, TCO_P_STORAGE_HOT_GBPS, 0.01);
    SP(&s, TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR, 10);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR,
                 "spot_interruptions_per_node_hour");
    scen_free(&s);
    scen_new(&s);
    ST(&s, TCO_P_NODE_MTBF_HOURS, 1);
    ST(&s, TCO_P_RESTART_MINUTES, 0);
    ST(&s, TCO_P_STORAGE_HOT_GBPS, 0.01);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_NODE_MTBF_HOURS, "node_mtbf_hours");
    scen_free(&s);

    /* Unreliable but finishing (M ~ 1 h, restart 15 min): every output is
     * finite (check_invariants walks all of them). */
    scen_new(&s);
    ST(&s, TCO_P_ACCELERATOR_MTBF_HOURS, 1024);
    ST(&s, TCO_P_NODE_MTBF_HOURS, 1e9);
    tco_estimate e = scen_run(&s);
    assert_true(e.goodput > 0 && e.goodput < 1);
    scen_free(&s);
}

/* Layouts the job's own size decides (the workload's job is the whole
 * cluster: 1,024 over tensor 8 x pipeline 4 = 32 data-parallel groups):
 * expert_parallel 3 (of a mixture of experts) does not divide 32;
 * data_parallel 16 is not 32; and
 * with zero_stage 3 a model of 1e13 parameters holds 1e13 x 16 B / 32 /
 * 32 = 1.56e11 B a accelerator, past the H100's 80 GB, which tensor
 * parallelism would cut further (ZeRO has nothing left to shard). */
static void test_layout_refusals(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    SW(&s, TCO_P_PARAMS_ACTIVE, 1e10); /* experts to split: a mixture */
    SW(&s, TCO_P_EXPERT_PARALLEL, 3);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_EXPERT_PARALLEL, "expert_parallel");
    scen_free(&s);
    scen_new(&s);
    SW(&s, TCO_P_DATA_PARALLEL, 16);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_DATA_PARALLEL, "data_parallel");
    scen_free(&s);
    scen_new(&s);
    SW(&s, TCO_P_PARAMS_TOTAL, 1e13);
    SW(&s, TCO_P_ZERO_STAGE, 3);
    expect_error(&s, TCO_E_INCONSISTENT, TCO_P_TENSOR_PARALLEL, "tensor_parallel");
    scen_free(&s);
    /* a custom accelerator whose memory is not given (0: unknown) is not
     * judged by it: the same model is priced, and not flagged */
    scen_new(&s);
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_ACCELERATOR_MODEL, "custom", NULL), TCO_OK);
    ST(&s, TCO_P_ACCELERATOR_PEAK_FLOPS, 989e12);
    ST(&s, TCO_P_ACCELERATOR_TDP_WATTS, 700);
    ST(&s, TCO_P_ACCELERATOR_MEMORY_BYTES, 0);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SW(&s, TCO_P_PARAMS_TOTAL, 1e13);
    SW(&s, TCO_P_ZERO_STAGE, 3);
    tco_estimate e = scen_run(&s);
    assert_true(!(e.flags & TCO_FLAG_ACTIVATIONS_EXCEED_MEMORY));
    scen_free(&s);
}

/* Unfrozen handles, NULLs and short sizes are refused, output untouched. */
static void test_argument_errors(void **state)
{
    (void)state;
    scen s;
    scen_new(&s);
    tco_estimate out, before;
    memset(&out, 0x5A, sizeof out);
    out.size = sizeof out;
    memcpy(&before, &out, sizeof out);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_estimate_compute(&out, s.t, s.w, s.p, &err), TCO_E_NOT_FROZEN);
    assert_int_equal(err.code, TCO_E_NOT_FROZEN);
    assert_memory_equal(&out, &before, sizeof out);
    scen_freeze(&s);
    assert_int_equal(tco_estimate_compute(&out, NULL, s.w, s.p, &err), TCO_E_NULL);
    assert_int_equal(tco_estimate_compute(NULL, s.t, s.w, s.p, &err), TCO_E_NULL);
    out.size = offsetof(tco_estimate, cost_per_pflop_day); /* short of version 1 */
    before.size = out.size;
    assert_int_equal(tco_estimate_compute(&out, s.t, s.w, s.p, &err), TCO_E_SIZE);
    assert_memory_equal(&out, &before, sizeof out);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flops_dense),
        cmocka_unit_test(test_total_flops_override),
        cmocka_unit_test(test_moe_active_params),
        cmocka_unit_test(test_compute_hours_bf16),
        cmocka_unit_test(test_fp8),
        cmocka_unit_test(test_time_chain),
        cmocka_unit_test(test_failure_split),
        cmocka_unit_test(test_checkpoint_async),
        cmocka_unit_test(test_data_stalls),
        cmocka_unit_test(test_accelerator_hours),
        cmocka_unit_test(test_idle_waste),
        cmocka_unit_test(test_runs_and_queue),
        cmocka_unit_test(test_rented_no_power_cooling),
        cmocka_unit_test(test_owned_annuity),
        cmocka_unit_test(test_facility),
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_rental_without_power),
        cmocka_unit_test(test_stall_bound_by_reading),
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_indirect_derived),
        cmocka_unit_test(test_owned_straight_line),
        cmocka_unit_test(test_power_half_owned),
        cmocka_unit_test(test_rental_blend),
        cmocka_unit_test(test_staff),
        cmocka_unit_test(test_indirect),
        cmocka_unit_test(test_storage_and_logging),
        cmocka_unit_test(test_data_pipeline_bytes),
        cmocka_unit_test(test_layout_refusals),
        cmocka_unit_test(test_inter_site_traffic),
        cmocka_unit_test(test_unit_economics),
        cmocka_unit_test(test_total_is_sum),
        cmocka_unit_test(test_provisioned_tiers),
        cmocka_unit_test(test_cross_handle_errors),
        cmocka_unit_test(test_never_finishes),
        cmocka_unit_test(test_argument_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
