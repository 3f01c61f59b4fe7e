/* Published training runs reproduced through the public API, each within a
 * stated tolerance and with its source. The model is only right if it lands
 * near what was actually spent.
 *
 * What "reproduce" means here: the published FLOPs, accelerator count and
 * MFU go in; the accelerator-hours (or FLOPs, or MTBF) come out and are
 * compared with the published figure. Published GPU-hour totals include
 * failures, restarts, checkpoints and stalls, which the library models from
 * its reliability defaults; they also include things it does not model
 * (evaluation pauses, repeated steps after loss spikes, MFU changing through
 * the run), hence the tolerances. */
#include "support.h"

static void assert_between(double got, double lo, double hi)
{
    if (!(got >= lo && got <= hi))
        print_error("%.10g is not within [%.10g, %.10g]\n", got, lo, hi);
    assert_true(got >= lo && got <= hi);
}

static void scen_new(scen *s, const char *accelerator)
{
    assert_int_equal(tco_topology_new(&s->t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&s->w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&s->p, NULL), TCO_OK);
    assert_int_equal(tco_topology_set_text(s->t, TCO_P_ACCELERATOR_MODEL, accelerator, NULL), TCO_OK);
    /* reliability as the library's defaults (Llama 3's failure rates):
     * set explicitly so these tests say what they assume */
    ST(s, TCO_P_ACCELERATOR_MTBF_HOURS, 80000);
    ST(s, TCO_P_NODE_MTBF_HOURS, 17500);
    ST(s, TCO_P_RESTART_MINUTES, 15);
    SW(s, TCO_P_DATA_STALL_SHARE, 0.02);
    SW(s, TCO_P_CHECKPOINT_BYTES_PER_PARAM, 14);
}

/* ---- Llama 3.1 405B --------------------------------------------------- */

/* Sources:
 * - Meta, Llama 3.1 model card (July 2024), "Training Energy Use": 30.84M
 *   GPU-hours of H100-80GB (700 W TDP) for the 405B model's pretraining.
 * - A. Grattafiori, A. Dubey et al., "The Llama 3 Herd of Models", 2024:
 *   3.8e25 training FLOPs; 15.6T tokens; 16,384 H100 in 2,048 nodes; 4D
 *   parallelism with TP 8 and PP 16 (section 3.3.2); BF16 MFU 38-43%
 *   (Table 4); storage sustaining 2 TB/s (section 3.3.1); 126 layers, width
 *   16,384, 8K context (Table 3).
 * Setting MFU 0.40, the middle of the published range. Tolerance 15%: the
 * MFU range alone spans 24.8M (43%) to 28.1M (38%) compute-only GPU-hours,
 * i.e. +-6%, and the published total also holds overheads the model only
 * approximates (restart times, planned interruptions, the long-context and
 * annealing phases). */
static void set_llama3_405b(scen *s)
{
    scen_new(s, "H100-SXM");
    ST(s, TCO_P_ACCELERATORS, 16384);
    ST(s, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(s, TCO_P_STORAGE_HOT_GBPS, 2000);
    SW(s, TCO_P_PARAMS_TOTAL, 405e9);
    SW(s, TCO_P_LAYERS, 126);
    SW(s, TCO_P_HIDDEN_SIZE, 16384);
    SW(s, TCO_P_SEQ_LEN, 8192);
    SW(s, TCO_P_TOKENS, 15.6e12);
    SW(s, TCO_P_TOTAL_FLOPS, 3.8e25);
    SW(s, TCO_P_MFU, 0.40);
    SW(s, TCO_P_TENSOR_PARALLEL, 8);
    SW(s, TCO_P_PIPELINE_PARALLEL, 16);
    SW(s, TCO_P_JOB_ACCELERATORS, 0);
}

static void test_llama31_405b_gpu_hours(void **state)
{
    (void)state;
    scen s;
    set_llama3_405b(&s);
    tco_estimate e = scen_run(&s);
    /* compute-only: 3.8e25 / (989e12 x 0.40) / 3600 = 26,682,395 GPU-h */
    assert_rel(e.effective_accelerator_hours, 3.8e25 / (989e12 * 0.40) / 3600, 1e-12);
    assert_rel(e.effective_accelerator_hours, 26682395.2364903, 1e-11);
    /* billed, with failures, checkpoints and stalls: within 15% of 30.84M */
    assert_rel(e.accelerator_hours, 30.84e6, 0.15);
    /* and above the compute-only figure, as the published total must be */
    assert_true(e.accelerator_hours > e.effective_accelerator_hours);
    /* 30.84M / 16,384 = 1,882 h = 78 days of wall time; the model's wall
     * time is within the same 15% */
    assert_rel(e.held_hours, 30.84e6 / 16384, 0.15);
    scen_free(&s);
}

/* The published MFU range brackets the published GPU-hours from below:
 * even at the worst MFU (38%) compute alone is 28.09M GPU-hours < 30.84M,
 * and with the model's overheads the 38-43% range lands within 15%. */
static void test_llama31_405b_mfu_range(void **state)
{
    (void)state;
    static const double mfu[] = { 0.38, 0.43 };
    for (size_t i = 0; i < 2; i++) {
        scen s;
        set_llama3_405b(&s);
        SW(&s, TCO_P_MFU, mfu[i]);
        tco_estimate e = scen_run(&s);
        assert_true(e.effective_accelerator_hours < 30.84e6);
        assert_rel(e.accelerator_hours, 30.84e6, 0.15);
        scen_free(&s);
    }
}

/* Dubey et al. 2024, section 3.3.4 / Table 5: 419 unexpected interruptions
 * in 54 days on 16,384 GPUs / 2,048 nodes: one every 1,296 / 419 =
 * 3.0931 h. With the library's default MTBFs the job's MTBF is within 2%,
 * and so is the count over 54 days of running. Tolerance 2%: the defaults
 * are the published per-part rates rounded to 80,000 h and 17,500 h. */
static void test_llama3_interruptions(void **state)
{
    (void)state;
    scen s;
    set_llama3_405b(&s);
    tco_estimate e = scen_run(&s);
    assert_rel(e.system_mtbf_hours, 54 * 24.0 / 419, 0.02);
    assert_rel(54 * 24.0 / e.system_mtbf_hours, 419, 0.02);
    /* the expected failures over the whole run follow the same rate */
    assert_rel(e.expected_failures, e.wall_hours * 419 / (54 * 24.0), 0.02);
    scen_free(&s);
}

/* ---- Llama 2 70B ------------------------------------------------------ */

/* H. Touvron et al., "Llama 2: Open Foundation and Fine-Tuned Chat Models",
 * 2023, Table 2: 1,720,320 A100-80GB GPU-hours for the 70B model; 2T
 * tokens, 4,096 context (Table 1); 80 layers, width 8,192.
 * FLOPs by 6ND + 12 L h s D (Kaplan 2020; PaLM appendix B):
 *   2e12 x (6 x 70e9 + 12 x 80 x 8192 x 4096) = 9.0442450944e23.
 * The MFU those GPU-hours imply at the A100's 312 TFLOP/s dense BF16:
 *   9.0442450944e23 / (1,720,320 x 3600 x 312e12) = 0.46806,
 * a plausible figure for A100 training of that era (0.3 to 0.6). */
static void set_llama2_70b(scen *s, double mfu)
{
    scen_new(s, "A100-SXM-80GB");
    ST(s, TCO_P_ACCELERATORS, 2048); /* not published per model; any fits */
    ST(s, TCO_P_ACCELERATORS_PER_NODE, 8);
    SW(s, TCO_P_PARAMS_TOTAL, 70e9);
    SW(s, TCO_P_LAYERS, 80);
    SW(s, TCO_P_HIDDEN_SIZE, 8192);
    SW(s, TCO_P_SEQ_LEN, 4096);
    SW(s, TCO_P_TOKENS, 2e12);
    SW(s, TCO_P_EPOCHS, 1);
    SW(s, TCO_P_TOTAL_FLOPS, 0);
    SW(s, TCO_P_MFU, mfu);
    SW(s, TCO_P_TENSOR_PARALLEL, 8);
    SW(s, TCO_P_PIPELINE_PARALLEL, 4);
}

static void test_llama2_70b(void **state)
{
    (void)state;
    double flops = 2e12 * (6 * 70e9 + 12.0 * 80 * 8192 * 4096);
    double implied = flops / (1720320.0 * 3600 * 312e12);
    assert_rel(implied, 0.468064808455433, 1e-12);
    assert_between(implied, 0.3, 0.6);

    /* The library's FLOPs are the hand-worked 9.0442450944e23, and at the
     * implied MFU its useful GPU-hours are the published 1,720,320. */
    scen s;
    set_llama2_70b(&s, implied);
    tco_estimate e = scen_run(&s);
    assert_rel(e.train_flops, 9.0442450944e23, 1e-15);
    assert_rel(e.peak_flops, 312e12, 0);
    assert_rel(e.effective_accelerator_hours, 1720320, 1e-12);
    scen_free(&s);

    /* With the model's failures, checkpoints and stalls the published
     * GPU-hours imply a somewhat higher MFU: find it by bisection on the
     * billed accelerator-hours (which fall as MFU rises), and check it is
     * still plausible (0.3 to 0.6) and above the compute-only one. */
    double lo = 0.2, hi = 0.9;
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi);
        set_llama2_70b(&s, mid);
        e = scen_run(&s);
        if (e.accelerator_hours > 1720320)
            lo = mid;
        else
            hi = mid;
        scen_free(&s);
    }
    double mfu = 0.5 * (lo + hi);
    set_llama2_70b(&s, mfu);
    e = scen_run(&s);
    assert_rel(e.accelerator_hours, 1720320, 1e-6);
    scen_free(&s);
    assert_between(mfu, 0.3, 0.6);
    assert_true(mfu > implied);
    assert_true(mfu < implied * 1.15); /* overheads under 15% */
}

/* ---- PaLM 540B -------------------------------------------------------- */

/* A. Chowdhery et al., "PaLM: Scaling Language Modeling with Pathways",
 * 2022: 2.56e24 training FLOPs; 6,144 TPU v4 chips (two pods of 3,072
 * chips on 768 hosts each: 4 chips a host); MFU 46.2% with self-attention
 * (appendix B) against TPU v4's 275 TFLOP/s BF16 peak; 12-way model
 * parallelism; and, in the compute-usage paragraph, "6144 TPU v4 chips for
 * 1200 hours and 3072 TPU v4 chips for 336 hours including some downtime
 * and repeated steps": 8,404,992 chip-hours.
 * TPU v4 is not in the catalogue: a custom accelerator of 275e12 FLOP/s and
 * 192 W (the TDP only matters for owned power; N. Jouppi et al., "TPU v4",
 * ISCA 2023, gives 170-192 W).
 * Implied time at 46.2% MFU: 2.56e24 / (6144 x 275e12 x 0.462) / 3600 =
 * 910.99 h, i.e. 5,597,097 chip-hours of useful work. The published 1,200 h
 * on 6,144 chips (+336 h on half) is 1.50x that: "downtime and repeated
 * steps" that the model covers only as far as failures go. So the check is
 * a bracket: the model's billed chip-hours lie between the useful 5.60M
 * and the published 8.40M, and its wall time between 911 h and the
 * published 1,200 + 336/2 = 1,368 6144-chip hours. */
static void test_palm_540b(void **state)
{
    (void)state;
    scen s;
    scen_new(&s, "custom");
    ST(&s, TCO_P_ACCELERATOR_PEAK_FLOPS, 275e12);
    ST(&s, TCO_P_ACCELERATOR_TDP_WATTS, 192);
    ST(&s, TCO_P_ACCELERATORS, 6144);
    ST(&s, TCO_P_ACCELERATORS_PER_NODE, 4);
    ST(&s, TCO_P_NICS_PER_NODE, 0); /* chips talk over ICI, not a NIC fabric */
    SW(&s, TCO_P_PARAMS_TOTAL, 540e9);
    SW(&s, TCO_P_LAYERS, 118);
    SW(&s, TCO_P_HIDDEN_SIZE, 18432);
    SW(&s, TCO_P_SEQ_LEN, 2048);
    SW(&s, TCO_P_TOKENS, 780e9);
    SW(&s, TCO_P_TOTAL_FLOPS, 2.56e24);
    SW(&s, TCO_P_MFU, 0.462);
    SW(&s, TCO_P_TENSOR_PARALLEL, 12);
    SW(&s, TCO_P_PIPELINE_PARALLEL, 1);
    tco_estimate e = scen_run(&s);
    assert_rel(e.peak_flops, 275e12, 0);
    assert_rel(e.compute_hours, 2.56e24 / (6144 * 275e12 * 0.462) / 3600, 1e-12);
    assert_rel(e.compute_hours, 910.985759470608, 1e-11);
    assert_rel(e.effective_accelerator_hours, 5597096.50618742, 1e-11);
    assert_true(6144 * 1200.0 + 3072 * 336.0 == 8404992);
    assert_between(e.accelerator_hours, 5597096.5, 8404992);
    assert_between(e.wall_hours, 910.98, 1200 + 336 / 2.0);
    assert_true(e.fabric_switches == 0);
    /* the bare 6ND estimate agrees with the published FLOPs within 2%:
     * 6 x 540e9 x 780e9 = 2.527e24 (PaLM's training-compute table lists
     * 2,527.2 zettaFLOP); the 2.56e24 quoted is close to 6ND plus the
     * attention term, checked below */
    assert_rel(6 * 540e9 * 780e9, 2.56e24, 0.02);
    scen_free(&s);

    /* Without total_flops the library's own 6ND + 12 L h s D:
     * 780e9 x (6 x 540e9 + 12 x 118 x 18432 x 2048) = 2.5688e24: within
     * 0.5% of the published 2.56e24. */
    scen_new(&s, "custom");
    ST(&s, TCO_P_ACCELERATOR_PEAK_FLOPS, 275e12);
    ST(&s, TCO_P_ACCELERATOR_TDP_WATTS, 192);
    ST(&s, TCO_P_ACCELERATORS, 6144);
    ST(&s, TCO_P_ACCELERATORS_PER_NODE, 4);
    SW(&s, TCO_P_PARAMS_TOTAL, 540e9);
    SW(&s, TCO_P_LAYERS, 118);
    SW(&s, TCO_P_HIDDEN_SIZE, 18432);
    SW(&s, TCO_P_SEQ_LEN, 2048);
    SW(&s, TCO_P_TOKENS, 780e9);
    SW(&s, TCO_P_TOTAL_FLOPS, 0);
    SW(&s, TCO_P_TENSOR_PARALLEL, 12);
    SW(&s, TCO_P_PIPELINE_PARALLEL, 1);
    e = scen_run(&s);
    assert_rel(e.train_flops, 780e9 * (6 * 540e9 + 12.0 * 118 * 18432 * 2048), 1e-14);
    assert_rel(e.train_flops, 2.56e24, 0.005);
    scen_free(&s);
}

/* ---- GPT-3 175B ------------------------------------------------------- */

/* T. Brown et al., "Language Models are Few-Shot Learners", 2020, Table
 * D.1: GPT-3 175B, 174,600M parameters, 300B training tokens, 3.64e3
 * PF-days (3.14e23 FLOPs), counted as 6ND with attention left out
 * (appendix D explains that attention is under 10% of the compute).
 * 6 x 174.6e9 x 300e9 = 3.1428e23 FLOPs = 3,637.5 PF-days: within 0.5%
 * (the table rounds to three digits). The library's PFLOP-day unit cost
 * must then price exactly that many PF-days. */
static void test_gpt3_pf_days(void **state)
{
    (void)state;
    scen s;
    scen_new(&s, "A100-SXM-80GB");
    ST(&s, TCO_P_ACCELERATORS, 1024);
    SW(&s, TCO_P_PARAMS_TOTAL, 174.6e9);
    SW(&s, TCO_P_LAYERS, 0); /* as the paper counts */
    SW(&s, TCO_P_TOKENS, 300e9);
    SW(&s, TCO_P_TOTAL_FLOPS, 0);
    SW(&s, TCO_P_TENSOR_PARALLEL, 8);
    SW(&s, TCO_P_PIPELINE_PARALLEL, 8);
    tco_estimate e = scen_run(&s);
    assert_rel(e.train_flops, 3.1428e23, 1e-14);
    double pf_days = e.train_flops / (1e15 * 86400);
    assert_rel(pf_days, 3.64e3, 0.005);
    assert_rel(e.cost_per_pflop_day * 3637.5, e.total, 1e-12);
    scen_free(&s);

    /* With the attention term (96 layers, width 12,288, context 2,048):
     * 12 x 96 x 12288 x 2048 = 2.899e10 per token, +2.77% over 6N; still
     * under the paper's 10%. */
    scen_new(&s, "A100-SXM-80GB");
    ST(&s, TCO_P_ACCELERATORS, 1024);
    SW(&s, TCO_P_PARAMS_TOTAL, 174.6e9);
    SW(&s, TCO_P_LAYERS, 96);
    SW(&s, TCO_P_HIDDEN_SIZE, 12288);
    SW(&s, TCO_P_SEQ_LEN, 2048);
    SW(&s, TCO_P_TOKENS, 300e9);
    SW(&s, TCO_P_TOTAL_FLOPS, 0);
    SW(&s, TCO_P_TENSOR_PARALLEL, 8);
    SW(&s, TCO_P_PIPELINE_PARALLEL, 8);
    e = scen_run(&s);
    assert_rel(e.train_flops / 3.1428e23 - 1, 12.0 * 96 * 12288 * 2048 / (6 * 174.6e9), 1e-9);
    assert_true(e.train_flops / 3.1428e23 < 1.10);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_llama31_405b_gpu_hours),
        cmocka_unit_test(test_llama31_405b_mfu_range),
        cmocka_unit_test(test_llama3_interruptions),
        cmocka_unit_test(test_llama2_70b),
        cmocka_unit_test(test_palm_540b),
        cmocka_unit_test(test_gpt3_pf_days),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
