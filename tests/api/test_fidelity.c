/* Black-box tests of a run as published runs report it (tco.h only): the
 * model's shape, attention as papers count it, model against hardware
 * FLOPs, utilisation or accelerator-hours as the input, memory per
 * accelerator, the layout's MFU ceiling, and reliability switched off for
 * a what-if. Each expectation is re-derived here from the formula of
 * doc/model.md and the values set; nothing is computed by the library and
 * compared with itself.
 *
 * Sources:
 * - N = 12 L d^2 for a standard block: J. Kaplan et al., "Scaling Laws for
 *   Neural Language Models", 2020, section 2.1.
 * - Attention 12 L H Q T per token, full: A. Chowdhery et al., "PaLM",
 *   2022, appendix B; causal masking counts half of it.
 * - Recomputation: a full recompute is one more forward pass, 8 N instead
 *   of 6 N per token (D. Narayanan et al., "Efficient Large-Scale Language
 *   Model Training on GPU Clusters Using Megatron-LM", SC 2021, eq. 3:
 *   96 B s l h^2 against 72); selective recomputation repeats the
 *   attention core's forward (V. Korthikanti et al., "Reducing Activation
 *   Recomputation in Large Transformer Models", 2022, section 5).
 * - Activations per layer s b h (34 + 5 a s / h) / t with tensor and
 *   sequence parallelism: Korthikanti et al. 2022, table 2.
 * - ZeRO stages: S. Rajbhandari et al., "ZeRO", SC 2020, section 5.
 * - 1F1B bubble (p - 1) / (m + p - 1): Narayanan et al. 2021, section 2.2.
 */
#include "support.h"

/* A 1,024-H100 cluster and a dense model whose every input the hand
 * calculations use is set: 8 x 128 nodes, TP 8 x PP 4 (dp 32), 2T tokens,
 * batches of 4M tokens, blocking checkpoints at the hot tier's 100 GB/s. */
static void base(scen *s)
{
    scen_defaults(s);
    assert_int_equal(tco_topology_set_text(s->t, TCO_P_ACCELERATOR_MODEL, "H100-SXM", NULL), TCO_OK);
    ST(s, TCO_P_ACCELERATORS, 1024);
    ST(s, TCO_P_ACCELERATORS_PER_NODE, 8);
    ST(s, TCO_P_NICS_PER_NODE, 8);
    ST(s, TCO_P_NIC_GBPS, 400);
    ST(s, TCO_P_OVERSUBSCRIPTION, 1);
    ST(s, TCO_P_INTRA_NODE_GBPS, 450);
    ST(s, TCO_P_STORAGE_HOT_GBPS, 100);
    ST(s, TCO_P_ACCELERATOR_MTBF_HOURS, 80000);
    ST(s, TCO_P_NODE_MTBF_HOURS, 17500);
    ST(s, TCO_P_RESTART_MINUTES, 15);
    SW(s, TCO_P_PARAMS_TOTAL, 70e9);
    SW(s, TCO_P_TOKENS, 2e12);
    SW(s, TCO_P_SEQ_LEN, 4096);
    SW(s, TCO_P_BATCH_TOKENS, 4194304);
    SW(s, TCO_P_MFU, 0.4);
    SW(s, TCO_P_TENSOR_PARALLEL, 8);
    SW(s, TCO_P_PIPELINE_PARALLEL, 4);
    SW(s, TCO_P_CHECKPOINT_ASYNC, 0);
    SW(s, TCO_P_DATA_STALL_SHARE, 0.02);
    SW(s, TCO_P_BYTES_PER_TOKEN, 4);
}

static void set_choice(scen *s, int32_t key, const char *name)
{
    assert_int_equal(tco_workload_set_text(s->w, key, name, NULL), TCO_OK);
}

/* ---- the shape and the attention term --------------------------------- */

/* Only the parameter count given (7B): no 70B shape survives. Without
 * layers the attention term is left out and the flag says so: 6 N D =
 * 6 x 7e9 x 2e12 = 8.4e22. With layers but no width, the width follows
 * from N = 12 L d^2: d = sqrt(7e9 / (12 x 32)) = 4,269.6 (Llama 2 7B has
 * 4,096: within 4.3%). */
static void test_shape_follows_size(void **state)
{
    (void)state;
    scen s;
    base(&s);
    SW(&s, TCO_P_PARAMS_TOTAL, 7e9);
    tco_estimate e = scen_run(&s);
    assert_rel(e.train_flops, 8.4e22, 1e-15);
    assert_rel(e.model_flops_per_token, 4.2e10, 1e-15);
    assert_true(e.flags & TCO_FLAG_ATTENTION_OMITTED);
    assert_false(e.flags & TCO_FLAG_HIDDEN_DERIVED);
    assert_true(e.attention_term_layers == 0 && e.attention_term_width == 0 && e.activation_bytes == 0);
    scen_free(&s);

    base(&s);
    SW(&s, TCO_P_PARAMS_TOTAL, 7e9);
    SW(&s, TCO_P_LAYERS, 32);
    e = scen_run(&s);
    double d = sqrt(7e9 / (12.0 * 32));
    assert_rel(d, 4269.6, 1e-4);
    assert_rel(e.attention_term_width, d, 1e-15);
    assert_true(e.flags & TCO_FLAG_HIDDEN_DERIVED);
    assert_false(e.flags & TCO_FLAG_ATTENTION_OMITTED);
    /* causal by default: half of 12 L d s */
    assert_rel(e.model_flops_per_token, 6 * 7e9 + 6.0 * 32 * d * 4096, 1e-14);
    scen_free(&s);
}

/* Causal attention counts half of PaLM's full term; a given attention
 * width (multi-head latent attention) replaces the hidden size in it.
 * Llama 2 70B's shape: 80 x 8,192 at 4,096: full 12 x 80 x 8192 x 4096 =
 * 3.221225472e10 per token, causal 1.610612736e10. DeepSeek-V3-like
 * latent attention: 61 layers, width 7,168, attention width 24,576. */
static void test_attention_as_counted(void **state)
{
    (void)state;
    scen s;
    base(&s);
    SW(&s, TCO_P_LAYERS, 80);
    SW(&s, TCO_P_HIDDEN_SIZE, 8192);
    tco_estimate causal = scen_run(&s);
    scen_free(&s);
    base(&s);
    SW(&s, TCO_P_LAYERS, 80);
    SW(&s, TCO_P_HIDDEN_SIZE, 8192);
    set_choice(&s, TCO_P_ATTENTION, "full");
    tco_estimate full = scen_run(&s);
    scen_free(&s);
    assert_rel(full.model_flops_per_token, 4.2e11 + 3.221225472e10, 1e-15);
    assert_rel(causal.model_flops_per_token, 4.2e11 + 1.610612736e10, 1e-15);
    assert_rel(full.train_flops, 2e12 * (4.2e11 + 3.221225472e10), 1e-15);

    base(&s);
    SW(&s, TCO_P_PARAMS_TOTAL, 671e9);
    SW(&s, TCO_P_PARAMS_ACTIVE, 37e9);
    SW(&s, TCO_P_ZERO_STAGE, 3);
    SW(&s, TCO_P_LAYERS, 61);
    SW(&s, TCO_P_HIDDEN_SIZE, 7168);
    SW(&s, TCO_P_HEADS, 128);
    SW(&s, TCO_P_ATTENTION_WIDTH, 24576);
    SW(&s, TCO_P_PIPELINE_PARALLEL, 1);
    SW(&s, TCO_P_TENSOR_PARALLEL, 8);
    tco_estimate mla = scen_run(&s);
    assert_rel(mla.attention_term_width, 24576, 0);
    /* active parameters for FLOPs, total for the checkpoint */
    assert_rel(mla.model_flops_per_token, 6 * 37e9 + 6.0 * 61 * 24576 * 4096, 1e-15);
    assert_rel(mla.checkpoint_bytes, 671e9 * 14, 1e-15);
    scen_free(&s);
}

/* ---- model and hardware FLOPs ----------------------------------------- */

/* No attention term (layers 0), so per token: none 6 N, selective 6 N
 * (nothing to recompute), full 8 N: the Megatron-LM count. With the
 * attention term (80 x 8192, causal: A = 1.610612736e10): selective adds
 * A/3, full 2 N + A/3. The time follows from mfu with model FLOPs, so the
 * hardware utilisation is mfu x hardware / model. */
static void test_recomputation(void **state)
{
    (void)state;
    const char *modes[] = { "none", "selective", "full" };
    double plain[] = { 4.2e11, 4.2e11, 5.6e11 };
    double a = 1.610612736e10;
    double shaped[] = { 4.2e11 + a, 4.2e11 + a + a / 3, 5.6e11 + a + a / 3 };
    for (int m = 0; m < 3; m++) {
        scen s;
        base(&s);
        set_choice(&s, TCO_P_RECOMPUTE, modes[m]);
        tco_estimate e = scen_run(&s);
        assert_rel(e.hardware_flops_per_token, plain[m], 1e-15);
        assert_rel(e.achieved_mfu, 0.4, 1e-14);
        assert_rel(e.achieved_hfu, 0.4 * plain[m] / 4.2e11, 1e-14);
        scen_free(&s);

        base(&s);
        SW(&s, TCO_P_LAYERS, 80);
        SW(&s, TCO_P_HIDDEN_SIZE, 8192);
        set_choice(&s, TCO_P_RECOMPUTE, modes[m]);
        e = scen_run(&s);
        assert_rel(e.model_flops_per_token, 4.2e11 + a, 1e-15);
        assert_rel(e.hardware_flops_per_token, shaped[m], 1e-15);
        /* the time is that of mfu on model FLOPs, whatever the mode */
        assert_rel(e.compute_hours, 2e12 * (4.2e11 + a) / (1024 * 989e12 * 0.4) / 3600, 1e-14);
        assert_true(e.flags & TCO_FLAG_TIME_FROM_MFU);
        scen_free(&s);
    }
}

/* hfu sets the time with hardware FLOPs, and mfu is then derived: full
 * recomputation without attention at HFU 0.52 is MFU 0.52 x 6/8 = 0.39.
 * A published achieved FLOP/s per accelerator, as model or hardware
 * FLOPs: 400 TFLOP/s of model FLOPs is MFU 400/989. */
static void test_utilisation_inputs(void **state)
{
    (void)state;
    scen s;
    base(&s);
    set_choice(&s, TCO_P_RECOMPUTE, "full");
    SW(&s, TCO_P_HFU, 0.52);
    tco_estimate e = scen_run(&s);
    assert_rel(e.compute_hours, 2e12 * 5.6e11 / (1024 * 989e12 * 0.52) / 3600, 1e-14);
    assert_rel(e.achieved_hfu, 0.52, 1e-14);
    assert_rel(e.achieved_mfu, 0.39, 1e-14);
    assert_true(e.flags & TCO_FLAG_TIME_FROM_HFU);
    assert_false(e.flags & TCO_FLAG_TIME_FROM_MFU);
    scen_free(&s);

    base(&s);
    SW(&s, TCO_P_ACHIEVED_FLOPS_PER_ACCELERATOR, 400e12);
    e = scen_run(&s);
    assert_rel(e.compute_hours, 8.4e23 / (1024 * 400e12) / 3600, 1e-14);
    assert_rel(e.achieved_mfu, 400.0 / 989, 1e-14);
    assert_rel(e.model_flops_per_accelerator, 400e12, 1e-14);
    assert_true(e.flags & TCO_FLAG_TIME_FROM_ACHIEVED_FLOPS);
    scen_free(&s);

    base(&s);
    set_choice(&s, TCO_P_RECOMPUTE, "full");
    SW(&s, TCO_P_ACHIEVED_FLOPS_PER_ACCELERATOR, 400e12);
    set_choice(&s, TCO_P_ACHIEVED_FLOPS_BASIS, "hardware");
    e = scen_run(&s);
    assert_rel(e.achieved_hfu, 400.0 / 989, 1e-14);
    assert_rel(e.achieved_mfu, 400.0 / 989 * 6 / 8, 1e-14);
    scen_free(&s);

    /* above the peak: an error naming the input */
    base(&s);
    SW(&s, TCO_P_ACHIEVED_FLOPS_PER_ACCELERATOR, 1200e12);
    scen_refused(&s, TCO_E_INCONSISTENT, TCO_P_ACHIEVED_FLOPS_PER_ACCELERATOR);
    scen_free(&s);
}

/* A utilisation at its bound, 1 (the parameter table's top), is the
 * run's own: the estimate reports it exactly and never refuses it as past
 * the peak, whatever the cluster, although a time derived from it and the
 * utilisation derived back from that time can round past 1 (the check
 * once recomputed it so, and refused hfu = 1 on about one cluster size in
 * six). mfu = 1 without recomputation is hfu = 1 too (hardware FLOPs are
 * the model's); 989 TFLOP/s achieved of the H100's 989 is hfu 1. */
static void test_utilisation_at_its_bound(void **state)
{
    (void)state;
    for (int k = 1; k <= 200; k++) {
        for (int input = 0; input < 3; input++) {
            scen s;
            base(&s);
            ST(&s, TCO_P_ACCELERATORS, 32 * k);
            SW(&s, TCO_P_PARAMS_TOTAL, 70e9 + 1e8 * k);
            if (input == 0)
                SW(&s, TCO_P_HFU, 1);
            else if (input == 1)
                SW(&s, TCO_P_MFU, 1);
            else {
                SW(&s, TCO_P_ACHIEVED_FLOPS_PER_ACCELERATOR, 989e12);
                set_choice(&s, TCO_P_ACHIEVED_FLOPS_BASIS, "hardware");
            }
            tco_estimate e = scen_run(&s);
            assert_true(e.achieved_hfu == 1 && e.achieved_mfu == 1);
            scen_free(&s);
        }
    }
}

/* Accelerator-hours as the input: a run priced from mfu 0.4 gives n x
 * wall accelerator-hours; priced from those hours instead, it gives back
 * mfu 0.4, the same wall time and the same failures, and the flag says
 * the hours won over mfu. */
static void test_accelerator_hours_input(void **state)
{
    (void)state;
    scen s;
    base(&s);
    tco_estimate from_mfu = scen_run(&s);
    scen_free(&s);
    double hours = from_mfu.job_accelerators * from_mfu.wall_hours;
    base(&s);
    SW(&s, TCO_P_RUN_ACCELERATOR_HOURS, hours);
    SW(&s, TCO_P_MFU, 0.9); /* not used: the hours win */
    tco_estimate from_hours = scen_run(&s);
    assert_rel(from_hours.achieved_mfu, 0.4, 1e-12);
    assert_rel(from_hours.wall_hours, from_mfu.wall_hours, 1e-12);
    assert_rel(from_hours.compute_hours, from_mfu.compute_hours, 1e-12);
    assert_rel(from_hours.expected_failures, from_mfu.expected_failures, 1e-12);
    assert_true(from_hours.flags & TCO_FLAG_TIME_FROM_RUN_ACCELERATOR_HOURS);
    assert_false(from_hours.flags & TCO_FLAG_TIME_FROM_MFU);
    scen_free(&s);

    /* hours too few for the peak, or for the hot tier: errors naming them */
    base(&s);
    SW(&s, TCO_P_RUN_ACCELERATOR_HOURS, hours * 0.3); /* MFU 1.3 */
    scen_refused(&s, TCO_E_INCONSISTENT, TCO_P_RUN_ACCELERATOR_HOURS);
    scen_free(&s);
    base(&s);
    ST(&s, TCO_P_STORAGE_HOT_GBPS, 0.01); /* 8e12 B at 10 MB/s: 222 h */
    SW(&s, TCO_P_RUN_ACCELERATOR_HOURS, 1024 * 100.0);
    tco_error err = scen_refused(&s, TCO_E_INCONSISTENT, TCO_P_RUN_ACCELERATOR_HOURS);
    assert_non_null(strstr(err.message, "storage_hot_gbps"));
    scen_free(&s);
}

/* ---- memory and the layout -------------------------------------------- */

/* Model state per accelerator, 70e9 over TP 8 x PP 4 = 2.1875e9 each, at
 * 2 B of weights, 2 B of gradients and 12 B of optimizer state (14 - 2),
 * the sharded parts over dp = 32:
 *   stage 0: 16 x 2.1875e9                    = 3.5e10
 *   stage 1: (2 + 2 + 12 / 32) x 2.1875e9     = 9.5703125e9
 *   stage 2: (2 + 14 / 32) x 2.1875e9         = 5.33203125e9
 *   stage 3: 16 / 32 x 2.1875e9               = 1.09375e9
 * Activations of 80 layers of width 8,192 (64 heads, 8 kv heads) at 4,096
 * tokens, micro-batch 1, TP 8, 1F1B (20 layers x 4 micro-batches on the
 * first stage): per layer s b h (30 + 4 kv/a + [5 a s / h]) / t,
 *   selective: 4096 x 8192 x 30.5 / 8 x 80 = 1.0234e10
 *   none:      + 4096 x 64 x 5 x 4096 / 8 x 80 = +5.3687e10
 *   full:      4096 x 8192 x 2 / 8 x 80 = 6.7109e8 */
static void test_memory(void **state)
{
    (void)state;
    double per = 70e9 / 32, want[] = { 16 * per, (4 + 12.0 / 32) * per, (2 + 14.0 / 32) * per, per / 2 };
    for (int z = 0; z < 4; z++) {
        scen s;
        base(&s);
        SW(&s, TCO_P_ZERO_STAGE, z);
        tco_estimate e = scen_run(&s);
        assert_rel(e.sharded_state_bytes, want[z], 1e-15);
        assert_rel(e.model_state_bytes, 3.5e10, 1e-15); /* unsharded, as in 1.0 */
        scen_free(&s);
    }
    const char *modes[] = { "none", "selective", "full" };
    double sbh = 4096.0 * 8192, act[] = { sbh * 30.5 / 8 * 80 + 4096.0 * 64 * 5 * 4096 / 8 * 80,
                                          sbh * 30.5 / 8 * 80, sbh * 2 / 8 * 80 };
    for (int m = 0; m < 3; m++) {
        scen s;
        base(&s);
        SW(&s, TCO_P_LAYERS, 80);
        SW(&s, TCO_P_HIDDEN_SIZE, 8192);
        SW(&s, TCO_P_HEADS, 64);
        SW(&s, TCO_P_KV_HEADS, 8);
        set_choice(&s, TCO_P_RECOMPUTE, modes[m]);
        tco_estimate e = scen_run(&s);
        assert_rel(e.activation_bytes, act[m], 1e-14);
        assert_rel(e.memory_used_bytes, e.sharded_state_bytes + e.activation_bytes, 1e-15);
        /* none stores 64 GB of activations: past 80 GB with the state? */
        assert_true(!(e.flags & TCO_FLAG_ACTIVATIONS_EXCEED_MEMORY) == (e.memory_used_bytes <= 80e9));
        scen_free(&s);
    }

    /* Heads left to derive are width / 128 = 64 (kv heads as many), and
     * a micro-batch of 2 sequences doubles the activations: with no
     * recomputation, per layer 4096 x 2 x (34 x 8192 + 5 x 64 x 4096) / 8
     * = 1,627,389,952 B, x 80 layers = 130,191,196,160 B. */
    scen mb;
    base(&mb);
    SW(&mb, TCO_P_LAYERS, 80);
    SW(&mb, TCO_P_HIDDEN_SIZE, 8192);
    SW(&mb, TCO_P_MICRO_BATCH_SEQUENCES, 2);
    set_choice(&mb, TCO_P_RECOMPUTE, "none");
    tco_estimate em = scen_run(&mb);
    assert_rel(em.activation_bytes, 130191196160.0, 1e-15);
    scen_free(&mb);

    /* Without ZeRO the state is 16 x 70e9 / 32 = 3.5e10 B, within the
     * H100's 80 GB; with no recomputation the activations' 6.3922e10 B
     * bring the total to 9.8922e10 B, past it: a flag, not an error. */
    scen z0;
    base(&z0);
    SW(&z0, TCO_P_ZERO_STAGE, 0);
    SW(&z0, TCO_P_LAYERS, 80);
    SW(&z0, TCO_P_HIDDEN_SIZE, 8192);
    SW(&z0, TCO_P_HEADS, 64);
    SW(&z0, TCO_P_KV_HEADS, 8);
    set_choice(&z0, TCO_P_RECOMPUTE, "none");
    tco_estimate e0 = scen_run(&z0);
    assert_rel(e0.memory_used_bytes, 3.5e10 + act[0], 1e-14);
    assert_true(e0.sharded_state_bytes <= 80e9 && e0.flags & TCO_FLAG_ACTIVATIONS_EXCEED_MEMORY);
    scen_free(&z0);

    /* the state alone past the memory: an error naming zero_stage */
    scen s;
    base(&s);
    SW(&s, TCO_P_PARAMS_TOTAL, 400e9);
    SW(&s, TCO_P_ZERO_STAGE, 0); /* 16 x 400e9 / 32 = 200 GB */
    tco_error err = scen_refused(&s, TCO_E_INCONSISTENT, TCO_P_ZERO_STAGE);
    assert_non_null(strstr(err.message, "does not fit"));
    scen_free(&s);
}

/* The layout's ceiling, hand-worked for the base run without attention
 * (8.4e23 FLOP, selective recomputation adds nothing):
 *   steps = 2e12 / 4,194,304 = 476,837.158; ideal step = 8.4e23 / steps /
 *   (1024 x 989e12) = 1.7394 s; micro-batches per pipeline m = 4,194,304 /
 *   (4096 x 32) = 32; bubble = 3 / 35;
 *   data-parallel ring: 2 x 31/32 x 2.1875e9 x 2 B over 8 x 400 Gbit/s / 8
 *   accelerators = 50 GB/s: 0.16953 s, under 2/3 of the step: hidden;
 *   tensor-parallel exchanges need the shape: none here;
 *   ceiling = ideal / (ideal / (1 - 3/35)) = 32/35 = 0.914.
 * With oversubscription 16 the ring takes 2.7125 s, 1.5529 s of it exposed:
 * the ceiling falls to 0.503, and an mfu of 0.55 is above it.
 * With the shape, 4 exchanges per layer per micro-batch of 4096 x 8192 x
 * 2 B, ring share 2 x 7/8, at 450 GB/s, 20 layers per stage, 32 micro-batches. */
static void test_layout_ceiling(void **state)
{
    (void)state;
    double steps = 2e12 / 4194304, ideal = 8.4e23 / steps / (1024 * 989e12), bubble = 3.0 / 35;
    scen s;
    base(&s);
    tco_estimate e = scen_run(&s);
    assert_rel(e.pipeline_bubble_share, bubble, 1e-15);
    assert_rel(e.mfu_ceiling, 1 - bubble, 1e-14);
    assert_rel(e.comm_exposed_share, 0, 0);
    assert_false(e.flags & TCO_FLAG_MFU_ABOVE_CEILING);
    scen_free(&s);

    base(&s);
    ST(&s, TCO_P_OVERSUBSCRIPTION, 16);
    e = scen_run(&s);
    /* 128 nodes x 8 NICs x 400 Gbit/s / 1000 / (2 x 16) = 12.8 Tbit/s */
    assert_rel(e.fabric_bisection_tbps, 12.8, 1e-15);
    double ring = 2 * 31.0 / 32 * 2.1875e9 * 2 / (8 * 400e9 / 8 / 8 / 16), exposed = ring - ideal * 2 / 3;
    double step = ideal / (1 - bubble) + exposed;
    assert_rel(e.comm_exposed_share, exposed / step, 1e-12);
    assert_rel(e.mfu_ceiling, ideal / step, 1e-12);
    assert_rel(e.mfu_ceiling, 0.503, 1e-3);
    assert_false(e.flags & TCO_FLAG_MFU_ABOVE_CEILING);
    scen_free(&s);
    base(&s);
    ST(&s, TCO_P_OVERSUBSCRIPTION, 16);
    SW(&s, TCO_P_MFU, 0.55);
    e = scen_run(&s);
    assert_true(e.flags & TCO_FLAG_MFU_ABOVE_CEILING); /* more than the layout allows */
    scen_free(&s);

    base(&s);
    SW(&s, TCO_P_LAYERS, 80);
    SW(&s, TCO_P_HIDDEN_SIZE, 8192);
    e = scen_run(&s);
    double a = 1.610612736e10, hw = 2e12 * (4.2e11 + a + a / 3), model = 2e12 * (4.2e11 + a);
    double ideal2 = hw / steps / (1024 * 989e12);
    double tp = 32 * 20 * 4 * 2 * 7.0 / 8 * 4096 * 8192 * 2 / 450e9;
    double dp = fmax(0, 2 * 31.0 / 32 * 2.1875e9 * 2 / 50e9 - ideal2 * 2 / 3);
    double step2 = ideal2 / (1 - bubble) + tp + dp;
    assert_rel(e.mfu_ceiling, model / steps / (1024 * 989e12) / step2, 1e-12);
    assert_rel(e.comm_exposed_share, (tp + dp) / step2, 1e-12);
    scen_free(&s);

    /* fewer sequences than micro-batches: an error naming the micro-batch */
    base(&s);
    SW(&s, TCO_P_BATCH_TOKENS, 4096 * 16); /* 16 sequences for 32 groups */
    scen_refused(&s, TCO_E_INCONSISTENT, TCO_P_MICRO_BATCH_SEQUENCES);
    scen_free(&s);

    /* exactly one micro-batch each, 49 sequences for 49 groups (1,568 of
     * 2,048 accelerators over tensor x pipeline = 32): not refused, however
     * 49 x (1 / 49) rounds, and the bubble is (pp - 1) / (1 + pp - 1) = 3/4 */
    base(&s);
    ST(&s, TCO_P_ACCELERATORS, 2048);
    SW(&s, TCO_P_JOB_ACCELERATORS, 1568);
    SW(&s, TCO_P_BATCH_TOKENS, 4096 * 49);
    e = scen_run(&s);
    assert_rel(e.pipeline_bubble_share, 0.75, 1e-15);
    scen_free(&s);
}

/* Layouts that cannot be: refused at freeze, naming the input. */
static void test_layout_errors(void **state)
{
    (void)state;
    const struct {
        int32_t key_a;
        double a;
        int32_t key_b;
        double b;
        int32_t named;
    } bad[] = {
        { TCO_P_HEADS, 64, TCO_P_KV_HEADS, 12, TCO_P_KV_HEADS },        /* 12 does not divide 64 */
        { TCO_P_HEADS, 60, TCO_P_TENSOR_PARALLEL, 8, TCO_P_TENSOR_PARALLEL }, /* 8 does not divide 60 */
        { TCO_P_LAYERS, 2, TCO_P_PIPELINE_PARALLEL, 4, TCO_P_PIPELINE_PARALLEL },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tco_workload *w;
        tco_error err = TCO_ERROR_INIT;
        assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
        assert_int_equal(tco_workload_set(w, bad[i].key_a, bad[i].a, NULL), TCO_OK);
        assert_int_equal(tco_workload_set(w, bad[i].key_b, bad[i].b, NULL), TCO_OK);
        assert_int_equal(tco_workload_freeze(w, &err), TCO_E_INCONSISTENT);
        assert_int_equal(err.param, bad[i].named);
        assert_false(tco_workload_is_frozen(w));
        tco_workload_free(w);
    }
}

/* ---- reliability as a what-if ------------------------------------------ */

/* Without failures: no failures, restarts or lost work, and with no
 * interval set one checkpoint at the end: wall = work + pause (9.8 s). */
static void test_reliability_switches(void **state)
{
    (void)state;
    scen s;
    base(&s);
    tco_estimate all = scen_run(&s);
    scen_free(&s);
    double work = all.compute_hours + all.data_stall_hours, pause = 980e9 / 100e9 / 3600;

    base(&s);
    SW(&s, TCO_P_COUNT_FAILURES, 0);
    tco_estimate e = scen_run(&s);
    assert_true(e.expected_failures == 0 && e.restart_hours == 0 && e.lost_work_hours == 0);
    /* and nothing wasted on them: 0 exactly, not what rounding leaves of
     * wall - work - checkpoints (1.7e-10 here once) */
    assert_true(e.waste[TCO_WASTE_FAILURES] == 0);
    assert_rel(e.wall_hours, work + pause, 1e-14);
    assert_rel(e.checkpoint_overhead_hours, pause, 1e-14);
    assert_true(e.flags & TCO_FLAG_FAILURES_OFF);
    scen_free(&s);

    base(&s);
    SW(&s, TCO_P_COUNT_RESTARTS, 0);
    e = scen_run(&s);
    assert_true(e.restart_hours == 0);
    assert_true(e.wall_hours < all.wall_hours);
    /* Daly's wall time with R = 0 at the same interval */
    double M = all.system_mtbf_hours, tau = all.checkpoint_interval_hours;
    assert_rel(e.wall_hours, M * expm1((tau + pause) / M) * work / tau, 1e-12);
    scen_free(&s);

    base(&s);
    SW(&s, TCO_P_COUNT_CHECKPOINTS, 0);
    e = scen_run(&s);
    assert_true(e.checkpoint_overhead_hours == 0);
    assert_rel(e.checkpoint_interval_hours, tau, 1e-15); /* still where the run would checkpoint */
    assert_rel(e.wall_hours, M * exp(0.25 / M) * expm1(tau / M) * work / tau, 1e-12);
    scen_free(&s);
}

/* Asynchronous checkpoints pause only the copy to host memory: 980 GB over
 * 128 nodes x 25 GB/s = 0.30625 s; the interval waits for the write. The
 * capacity split's spot overhead uses the same pause. */
static void test_async_checkpoints(void **state)
{
    (void)state;
    scen s;
    base(&s);
    SW(&s, TCO_P_CHECKPOINT_ASYNC, 1);
    ST(&s, TCO_P_HOST_COPY_GBPS, 25);
    SP(&s, TCO_P_SPOT_INTERRUPTIONS_PER_NODE_HOUR, 0.01);
    tco_estimate e = scen_run(&s);
    double pause = 980e9 / (128 * 25e9) / 3600;
    assert_rel(e.checkpoint_write_hours, pause, 1e-15);
    double M = e.system_mtbf_hours, x = pause / (2 * M);
    double daly = sqrt(2 * pause * M) * (1 + sqrt(x) / 3 + x / 9) - pause;
    assert_rel(e.checkpoint_interval_hours, fmax(daly, 980e9 / 100e9 / 3600), 1e-12);

    double demand[4] = { 100, 200, 300, 400 };
    tco_split sp = { .size = sizeof sp };
    assert_int_equal(tco_capacity_split(&sp, demand, 4, 1, s.t, s.w, s.p, NULL), TCO_OK);
    /* Daly with and without 128 nodes x 0.01 reclaims per hour, at the
     * async pause and the interval the estimate uses (never under one
     * write of 9.8 s), restart 0.25 h */
    double write = 980e9 / 100e9 / 3600;
    double plain = 1 / (1024 / 80000.0 + 128 / 17500.0), spot = 1 / (1 / plain + 1.28);
    double xs = pause / (2 * spot);
    double tau_on = fmax(sqrt(2 * pause * spot) * (1 + sqrt(xs) / 3 + xs / 9) - pause, write);
    double tau_off = fmax(daly, write);
    double on = spot * exp(0.25 / spot) * expm1((tau_on + pause) / spot) / tau_on;
    double off = plain * exp(0.25 / plain) * expm1((tau_off + pause) / plain) / tau_off;
    assert_rel(sp.spot_overhead_share, on / off - 1, 1e-9);
    scen_free(&s);
}

/* Every flag has a name and a description; nothing else has. */
static void test_flag_names(void **state)
{
    (void)state;
    for (int b = 0; b <= 14; b++) {
        assert_non_null(tco_estimate_flag_name((uint64_t)1 << b));
        assert_non_null(tco_estimate_flag_description((uint64_t)1 << b));
    }
    assert_string_equal(tco_estimate_flag_name(TCO_FLAG_TIME_FROM_RUN_ACCELERATOR_HOURS), "time_from_run_accelerator_hours");
    assert_null(tco_estimate_flag_name(0));
    assert_null(tco_estimate_flag_name(3));
    assert_null(tco_estimate_flag_name((uint64_t)1 << 15));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_follows_size),
        cmocka_unit_test(test_attention_as_counted),
        cmocka_unit_test(test_recomputation),
        cmocka_unit_test(test_utilisation_inputs),
        cmocka_unit_test(test_utilisation_at_its_bound),
        cmocka_unit_test(test_accelerator_hours_input),
        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_layout_ceiling),
        cmocka_unit_test(test_layout_errors),
        cmocka_unit_test(test_reliability_switches),
        cmocka_unit_test(test_async_checkpoints),
        cmocka_unit_test(test_flag_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
