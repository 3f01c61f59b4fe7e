/* Serving: one replica against hand-worked values (doc/model.md,
 * "Serving"), the fleet a series needs and its split against
 * tco_capacity_split, a published latency as a floor the roofline must
 * stay under, the latency and memory bounds, every bad input, and the two
 * monotonicities (more rate never needs fewer accelerators; a looser
 * target never needs more). */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

/* A custom accelerator of round figures: 1e15 FLOP/s, 100 GB, 2e12 B/s
 * (the request's), 8 a node; a 10B dense model of 40 layers, width 4096,
 * 32 heads of 128, 8 KV heads, in BF16; reserved 2.5, on demand 4, no
 * interruptible demand. */
static void hand_scen(scen *s)
{
    scen_defaults(s);
    assert_int_equal(tco_topology_set_text(s->t, TCO_P_ACCELERATOR_MODEL, "custom", NULL), TCO_OK);
    ST(s, TCO_P_ACCELERATOR_PEAK_FLOPS, 1e15);
    ST(s, TCO_P_ACCELERATOR_MEMORY_BYTES, 100e9);
    ST(s, TCO_P_ACCELERATOR_TDP_WATTS, 700);
    SW(s, TCO_P_PARAMS_TOTAL, 10e9);
    SW(s, TCO_P_PARAMS_ACTIVE, 0);
    SW(s, TCO_P_LAYERS, 40);
    SW(s, TCO_P_HIDDEN_SIZE, 4096);
    SW(s, TCO_P_HEADS, 32);
    SW(s, TCO_P_KV_HEADS, 8);
    SW(s, TCO_P_INTERRUPTIBLE_SHARE, 0);
    SP(s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5);
    SP(s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4);
    SP(s, TCO_P_SPOT_PER_ACCEL_HOUR, 2);
    scen_freeze(s);
}

/* 1,000 prompt and 200 output tokens a request, 50 ms per output token,
 * half the peak FLOP/s and all the bandwidth, one replica of 1. */
static void hand_request(tco_serve_request *q, const double *rate, size_t n)
{
    tco_serve_request_init(q);
    q->rate = rate;
    q->n = n;
    q->interval_seconds = 3600;
    q->prompt_tokens = 1000;
    q->output_tokens = 200;
    q->time_per_output_token = 0.05;
    q->flops_share = 0.5;
    q->bandwidth_share = 1;
    q->memory_bandwidth_bytes_per_s = 2e12;
    q->tensor_parallel = 1;
}

static int serve(tco_serving *out, tco_split *split, double *needed, size_t n_needed, const tco_serve_request *q,
                 const scen *s, tco_error *err)
{
    return tco_serving_compute(out, split, needed, n_needed, q, s->t, s->w, s->p, err);
}

static void test_defaults(void **state)
{
    (void)state;
    tco_serve_request q;
    memset(&q, 0x5a, sizeof q);
    tco_serve_request_init(&q);
    assert_true(q.size == sizeof q && q.rate == NULL && q.n == 0 && q.interval_seconds == 60);
    assert_true(q.rate_unit == TCO_SERVE_REQUESTS_PER_SECOND && q.tensor_parallel == 0);
    assert_true(q.prompt_tokens == 1024 && q.output_tokens == 256 && q.time_per_output_token == 0.1);
    assert_true(q.time_to_first_token == 0 && q.flops_share == 0.5 && q.bandwidth_share == 0.7);
    assert_true(q.memory_share == 0.9 && q.max_batch == 256 && q.memory_bandwidth_bytes_per_s == 0);
    assert_true(q.queue_percentile == 0 && q.tensor_parallel_allreduce == 0 && q.experts == 0);
    assert_true(q.experts_per_token == 0);
    tco_serve_request_init(NULL); /* accepted, does nothing */
    assert_string_equal(tco_serve_limit_name(TCO_SERVE_LIMIT_LATENCY), "latency");
    assert_string_equal(tco_serve_limit_name(TCO_SERVE_LIMIT_MEMORY), "memory");
    assert_string_equal(tco_serve_limit_name(TCO_SERVE_LIMIT_MAX_BATCH), "max_batch");
    assert_null(tco_serve_limit_name(3));
    assert_null(tco_serve_limit_name(-1));
}

/* The catalogue's bandwidths, from the datasheets (doc/model.md). */
static void test_catalogue_bandwidth(void **state)
{
    (void)state;
    const double want[] = { 0, 2039e9, 3350e9, 4800e9, 8000e9, 5300e9 };
    assert_int_equal(tco_accelerator_count(), 6);
    for (size_t i = 0; i < 6; i++) {
        tco_accelerator a = { .size = sizeof a };
        assert_int_equal(tco_accelerator_at(&a, i, NULL), TCO_OK);
        assert_true(a.memory_bandwidth_bytes_per_s == want[i]);
    }
    /* a caller of the first 1.1 layout gets it without the new field */
    struct {
        tco_accelerator a;
        double guard;
    } small;
    memset(&small, 0x5a, sizeof small);
    small.a.size = offsetof(tco_accelerator, memory_bandwidth_bytes_per_s);
    assert_int_equal(tco_accelerator_at(&small.a, 2, NULL), TCO_OK);
    unsigned char pattern[sizeof(double)];
    memset(pattern, 0x5a, sizeof pattern);
    assert_memory_equal(&small.a.memory_bandwidth_bytes_per_s, pattern, sizeof pattern);
}

/* One replica, worked by hand from doc/model.md's formulas:
 *   weights W = 10e9 x 2 B = 2e10 B; KV per token 2 x 40 x 8 x 128 x 2 B
 *   = 163,840 B; mean context 1000 + 200 / 2 = 1,100, at the end 1,200.
 *   a = W / 2e12 = 0.01 s; b = 163,840 x 1,100 / 2e12 = 9.0112e-5 s;
 *   c = (2 x 10e9 + 2 x 40 x 4096 x 1,100) / 5e14 = 4.0720896e-5 s;
 *   prefill = (2 x 10e9 x 1,000 + 2 x 40 x 4096 x 1,000^2 / 2) / 5e14
 *   = 0.04032768 s; d = prefill / 200 = 2.016384e-4 s.
 *   Latency: (0.05 - a) / (b + d) = 137.10, 0.05 / (c + d) = 206.3: 137.
 *   Memory: (100e9 x 0.9 - W) / (163,840 x 1,200) = 356.03: 356.
 *   TPOT(137) = 0.01 + 137 x (b + d) = 0.0499698048 s; the step without
 *   the prefills 0.01 + 137 b = 0.02234534 s; 137 / TPOT = 2,741.6557
 *   tokens/s, / 200 = 13.708278 requests/s; TPOT(1) = 0.0102917504 s. */
static void test_replica_hand_worked(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    const double rate[] = { 100 };
    tco_serve_request q;
    hand_request(&q, rate, 1);
    tco_serving r = { .size = sizeof r };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.tensor_parallel == 1 && r.batch == 137 && r.batch_limit == TCO_SERVE_LIMIT_LATENCY);
    assert_true(r.max_batch_memory == 356);
    assert_true(r.weight_bytes == 2e10 && r.kv_bytes_per_token == 163840);
    assert_true(r.memory_bandwidth_bytes_per_s == 2e12 && r.peak_flops == 1e15);
    assert_rel(r.prefill_seconds, 0.04032768, 1e-14);
    assert_rel(r.step_seconds, 0.01 + 137 * 9.0112e-5, 1e-14);
    assert_rel(r.time_per_output_token, 0.0499698048, 1e-14);
    assert_rel(r.min_time_per_output_token, 0.0102917504, 1e-14);
    assert_rel(r.replica_output_tokens_per_second, 2741.6556968419454, 1e-13);
    assert_rel(r.replica_requests_per_second, 13.708278484209726, 1e-13);
    assert_rel(r.output_tokens_per_accelerator_second, 2741.6556968419454, 1e-13);
    /* 100 / 13.708 = 7.29: 8 accelerators for the hour */
    assert_true(r.peak_accelerators == 8 && r.mean_accelerators == 8 && r.accelerator_hours == 8);
    assert_true(r.hours == 1 && r.requests == 360000 && r.output_tokens == 72e6 && r.prompt_tokens == 360e6);

    /* One more sequence would miss the target: the batch is the largest. */
    q.time_per_output_token = 0.0499698048 * (1 - 1e-12);
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.batch == 136);
    /* A loose target: memory bounds the batch (356), then max_batch. */
    q.time_per_output_token = 10;
    q.max_batch = 0;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.batch == 356 && r.batch_limit == TCO_SERVE_LIMIT_MEMORY);
    q.max_batch = 300;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.batch == 300 && r.batch_limit == TCO_SERVE_LIMIT_MAX_BATCH);
    /* Compute-bound: at a twentieth of the FLOP/s (5e13) and no prompt,
     * b = 163,840 x 100 / 2e12 = 8.192e-6 s and c = (2e10 + 327,680 x
     * 100) / 5e13 = 4.0065536e-4 s; the FLOPs side allows 0.05 / c =
     * 124.8, the bytes side (0.05 - 0.01) / b = 4,883: 124, where the
     * step is 124 c = 0.049681264640 s, above 0.01 + 124 b. */
    q.time_per_output_token = 0.05;
    q.max_batch = 256;
    q.flops_share = 0.05;
    q.prompt_tokens = 0;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.batch == 124 && r.batch_limit == TCO_SERVE_LIMIT_LATENCY && r.prefill_seconds == 0);
    assert_rel(r.step_seconds, 124 * 4.0065536e-4, 1e-14);
    assert_rel(r.time_per_output_token, 124 * 4.0065536e-4, 1e-14);
    scen_free(&s);
}

/* Tensor-parallel all-reduces (doc/model.md, section 20), by hand: a
 * replica of 2 on the hand accelerator, 450 GB/s inside the node (the
 * topology's intra_node_gbps default). One token's all-reduces move
 * 2 x 40 layers x 4,096 x 2 B = 655,360 B, of which a ring of 2 sends
 * 2 (2 - 1) / 2 = 1 times through each link: g = 655,360 / 450e9 =
 * 1.4563556e-6 s a token. F' = 1e15, B' = 4e12: a = 0.005, b = 4.5056e-5,
 * c = 2.0360448e-5; prefill 0.02016384 + 1,000 g = 0.021620196 s, d =
 * 1.0810098e-4. At 30 ms: (0.03 - a) / (b + d + g) = 161.69: 161, TPOT
 * 0.005 + 161 (b + d + g) = 0.029892747 s, of which 161 g = 2.3447324e-4
 * s of all-reduce; without them 171. */
static void test_allreduce_hand_worked(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    const double rate[] = { 10 };
    tco_serve_request q;
    hand_request(&q, rate, 1);
    q.tensor_parallel = 2;
    q.time_per_output_token = 0.03;
    tco_serving r = { .size = sizeof r }, off = { .size = sizeof off };
    assert_int_equal(serve(&off, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_true(off.batch == 171 && off.allreduce_seconds == 0);
    q.tensor_parallel_allreduce = 1;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_true(r.batch == 161 && r.batch_limit == TCO_SERVE_LIMIT_LATENCY);
    assert_rel(r.prefill_seconds, 0.02016384 + 1000 * 655360 / 450e9, 1e-14);
    assert_rel(r.allreduce_seconds, 161 * 655360 / 450e9, 1e-14);
    assert_rel(r.step_seconds, 0.005 + 161 * (4.5056e-5 + 655360 / 450e9), 1e-14);
    assert_rel(r.time_per_output_token, 0.029892746666666664, 1e-13);
    assert_true(r.utilisation == 1 && r.queue_wait_seconds == 0 && r.experts_read == 0);
    assert_true(r.weight_bytes_read == 2e10);
    /* 162 allowed is not 162 reached: TPOT(162) = 0.005 + 162 (b + d + g)
     * = 0.030047 s is past the target */
    q.max_batch = 162;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_true(r.batch == 161 && r.batch_limit == TCO_SERVE_LIMIT_LATENCY);
    q.max_batch = 256;
    /* one accelerator has nothing to all-reduce: as without */
    q.tensor_parallel = 1;
    q.time_per_output_token = 0.05;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_true(r.batch == 137 && r.allreduce_seconds == 0);
    assert_rel(r.time_per_output_token, 0.0499698048, 1e-14);
    /* a replica past the node has no intra-node ring */
    q.tensor_parallel = 16;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "request.tensor_parallel_allreduce");
    scen_free(&s);
}

/* Mixture of experts by hand: 10B parameters, 0.7B active, 64 routed
 * experts, 2 a token. An expert is (10e9 - 0.7e9) / 62 = 0.15e9
 * parameters (0.3e9 B), the shared rest 0.7e9 - 2 x 0.15e9 = 0.4e9 (0.8e9
 * B). At batch 1 a step reads 0.8e9 + 2 x 0.3e9 = 1.4e9 B: 0.7 ms at 2e12
 * B/s, where every expert would take 10 ms. The prompt of 1,000 tokens
 * reaches 64 (1 - (31/32)^1000) = 64 - 1.0e-12 experts: its read floor,
 * 0.01 s, is above its FLOPs (3.13 ms). At 20 ms the batch is 77 (71 if
 * every expert were read), where 64 (1 - (31/32)^77) = 58.447583 experts
 * are read, 0.8e9 + 58.447583 x 0.3e9 = 1.8334275e10 B. */
static void test_experts_hand_worked(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    tco_workload_free(s.w);
    assert_int_equal(tco_workload_new(&s.w, NULL), TCO_OK);
    SW(&s, TCO_P_PARAMS_TOTAL, 10e9);
    SW(&s, TCO_P_PARAMS_ACTIVE, 0.7e9);
    SW(&s, TCO_P_LAYERS, 40);
    SW(&s, TCO_P_HIDDEN_SIZE, 4096);
    SW(&s, TCO_P_HEADS, 32);
    SW(&s, TCO_P_KV_HEADS, 8);
    SW(&s, TCO_P_INTERRUPTIBLE_SHARE, 0);
    assert_int_equal(tco_workload_freeze(s.w, NULL), TCO_OK);
    const double rate[] = { 10 };
    tco_serve_request q;
    hand_request(&q, rate, 1);
    q.time_per_output_token = 0.02;
    tco_serving r = { .size = sizeof r };
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_true(r.batch == 71 && r.experts_read == 0 && r.weight_bytes_read == 2e10);
    q.experts = 64;
    q.experts_per_token = 2;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_true(r.batch == 77 && r.batch_limit == TCO_SERVE_LIMIT_LATENCY);
    assert_rel(r.experts_read, 58.44758308504198, 1e-13);
    assert_rel(r.weight_bytes_read, 18334274925.512592, 1e-13);
    assert_rel(r.prefill_seconds, 0.01, 1e-11);
    assert_rel(r.min_time_per_output_token, 0.0007 + 9.0112e-5 + 0.01 / 200, 1e-11);
    assert_rel(r.time_per_output_token, 0.019955761462756235, 1e-12);
    assert_true(r.weight_bytes == 2e10); /* memory still holds every expert */
    /* 77 allowed and reached: the search climbs from below (the first
     * guess reads every expert) to max_batch itself */
    q.max_batch = 77;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_true(r.batch == 77 && r.batch_limit == TCO_SERVE_LIMIT_MAX_BATCH);
    /* one token reaches exactly k experts: the step reads params_active */
    q.max_batch = 1;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_rel(r.experts_read, 2, 1e-14);
    assert_rel(r.weight_bytes_read, 0.7e9 * 2, 1e-14);
    assert_rel(r.step_seconds, 0.0007 + 9.0112e-5, 1e-12);
    q.max_batch = 256;
    /* params_active must leave the shared weights at least k / E */
    q.experts_per_token = 5; /* 0.7e9 < 5 / 64 x 10e9 */
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "request.experts");
    scen_free(&s);
}

/* Queueing (M/M/c; Gross et al. 2008, section 2.3), by hand. With
 * max_batch 1 a replica is one slot (M/M/1), held S = 200 x TPOT(1) =
 * 200 x 0.0102917504 = 2.05835008 s; with time_to_first_token = prefill
 * + S the wait may be t = S, and P(W > t) = rho e^(-(1 - rho) t / S) =
 * rho e^(rho - 1). At the median (q = 0.5) rho e^(rho - 1) = 0.5: rho =
 * W(e / 2) = 0.68507694 (Lambert's W). A replica then takes 0.68507694 /
 * S = 0.33282820 requests/s, and 1 request/s needs ceil(3.0046) = 4
 * replicas, where full load takes ceil(2.058) = 3. With max_batch 2
 * (M/M/2): C = 2 rho^2 / (1 + rho), and at q = 0.9, t = S:
 * 2 rho^2 / (1 + rho) e^(-2 (1 - rho)) = 0.1. */
static void test_queue_hand_worked(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    const double rate[] = { 1 };
    tco_serve_request q;
    hand_request(&q, rate, 1);
    q.max_batch = 1;
    tco_serving r = { .size = sizeof r };
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_true(r.batch == 1 && r.peak_accelerators == 3 && r.utilisation == 1);
    double S = 200 * 0.0102917504;
    q.queue_percentile = 0.5;
    q.time_to_first_token = 0.04032768 + S;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_rel(r.utilisation, 0.6850769421545939, 1e-12);
    assert_rel(r.utilisation * exp(r.utilisation - 1), 0.5, 1e-12);
    assert_rel(r.queue_wait_seconds, S, 1e-9);
    assert_true(r.peak_accelerators == 4);
    assert_rel(r.replica_requests_per_second, 1 / S, 1e-13); /* full load, as before */

    q.max_batch = 2;
    q.queue_percentile = 0.9;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_true(r.batch == 2);
    q.time_to_first_token = r.prefill_seconds + 200 * r.time_per_output_token; /* t = S at this TPOT */
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    double rho = r.utilisation;
    assert_rel(2 * rho * rho / (1 + rho) * exp(-2 * (1 - rho)), 0.1, 1e-12);
    assert_rel(rho, 0.46278948217644333, 1e-12);

    /* A higher percentile, or less time to wait, never needs fewer
     * accelerators; the default batch (137 slots) runs near full load. */
    q.max_batch = 256;
    q.time_to_first_token = 1;
    double last = 0, last_load = 1;
    const double pct[] = { 0.5, 0.9, 0.99, 0.999 };
    const double big[] = { 1000 };
    q.rate = big;
    for (int i = 0; i < 4; i++) {
        q.queue_percentile = pct[i];
        assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
        assert_true(r.peak_accelerators >= last && r.utilisation < last_load && r.utilisation > 0.8);
        assert_true(r.queue_wait_seconds <= 1 - r.prefill_seconds);
        last = r.peak_accelerators;
        last_load = r.utilisation;
    }
    scen_free(&s);
}

/* The load at the bound itself, and to the last bit. With max_batch 1
 * (M/M/1) a request waits whenever the slot is busy, so P(W > 0) =
 * C(1, rho) = rho (Erlang B's one step: B = rho / (1 + rho), C = B / (1 -
 * rho (1 - B)) = rho). With time_to_first_token = prefill the wait may
 * take t = 0 s. At q = 0.5 the highest load with rho <= 0.5 is 0.5
 * itself, where the bound holds with equality (and the formula gives 0.5
 * exactly in doubles); the wait there is 0. At q = 0.99999 the load is
 * about 1e-5, and "to the last bit" means the next double up breaks the
 * bound, each side evaluated by the formula above. */
static double mm1_wait_beyond_0(double rho)
{
    double b = rho / (1 + rho);
    return b / (1 - rho * (1 - b));
}

static void test_queue_at_the_bound(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    const double rate[] = { 1 };
    tco_serve_request q;
    hand_request(&q, rate, 1);
    q.max_batch = 1;
    tco_serving r = { .size = sizeof r };
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    q.time_to_first_token = r.prefill_seconds;
    q.queue_percentile = 0.5;
    assert_true(mm1_wait_beyond_0(0.5) == 0.5);
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_true(r.utilisation == 0.5 && r.queue_wait_seconds == 0);
    q.queue_percentile = 0.99999;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    double rho = r.utilisation, beyond = 1 - 0.99999;
    assert_rel(rho, 1e-5, 1e-9);
    assert_true(mm1_wait_beyond_0(rho) <= beyond && mm1_wait_beyond_0(nextafter(rho, 1)) > beyond);
    scen_free(&s);
}

/* The fleet over a series and its split: hourly rates 100, 27, 13, 0 and
 * 200 requests/s at 13.708278 a replica need 8, 2, 1, 0 and 15
 * accelerators. Target exceedance 2.5 / 4 = 0.625: floor(0.625 x 5) = 3
 * points above the baseline, the 2nd smallest, 1. Fixed 1 x 5 h x 2.5 =
 * 12.5; above it 7 + 1 + 0 + 0 + 14 = 22 accelerator-hours at 4 = 88;
 * total 100.5. Served: 340 x 3,600 = 1,224,000 requests, 244.8e6 output
 * and 1,224e6 prompt tokens: 100.5 / 244.8 = 0.41053922 per million
 * output tokens, 100.5 / 1,468.8 = 0.06842320 per million tokens. */
static void test_fleet_hand_worked(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    const double rate[] = { 100, 27, 13, 0, 200 };
    tco_serve_request q;
    hand_request(&q, rate, 5);
    tco_serving r = { .size = sizeof r };
    tco_split sp = { .size = sizeof sp };
    double needed[6] = { -1, -1, -1, -1, -1, -7 };
    assert_int_equal(serve(&r, &sp, needed, 6, &q, &s, NULL), TCO_OK);
    const double want[] = { 8, 2, 1, 0, 15 };
    assert_memory_equal(needed, want, sizeof want);
    assert_true(needed[5] == -7); /* past n: untouched */
    assert_true(r.peak_accelerators == 15 && r.mean_accelerators == 26.0 / 5 && r.accelerator_hours == 26);
    assert_true(r.fixed_accelerators == 1 && r.fixed_cost == 12.5 && r.elastic_cost == 88 && r.total_cost == 100.5);
    assert_true(r.requests == 1224000 && r.output_tokens == 244.8e6 && r.prompt_tokens == 1224e6);
    assert_rel(r.cost_per_million_output_tokens, 100.5 / 244.8, 1e-15);
    assert_rel(r.cost_per_million_tokens, 100.5 / 1468.8, 1e-15);
    assert_rel(r.reserved_utilisation, 4.0 / 5, 1e-15);

    /* The split is tco_capacity_split's of the accelerators, to the bit. */
    tco_split direct = { .size = sizeof direct };
    assert_int_equal(tco_capacity_split(&direct, needed, 5, 1, s.t, s.w, s.p, NULL), TCO_OK);
    assert_memory_equal(&sp, &direct, sizeof sp);

    /* The same traffic as output tokens per second: the same fleet. */
    double tokens[5];
    for (int i = 0; i < 5; i++)
        tokens[i] = rate[i] * 200;
    tco_serving r2 = { .size = sizeof r2 };
    q.rate = tokens;
    q.rate_unit = TCO_SERVE_OUTPUT_TOKENS_PER_SECOND;
    double needed2[5];
    assert_int_equal(serve(&r2, NULL, needed2, 5, &q, &s, NULL), TCO_OK);
    assert_memory_equal(needed2, want, sizeof want);
    assert_true(r2.total_cost == 100.5 && r2.requests == 1224000 && r2.output_tokens == 244.8e6);

    /* All zero: no accelerators, no cost, and 0 per million, not NaN. */
    const double zero[] = { 0, 0, 0 };
    q.rate = zero;
    q.n = 3;
    q.rate_unit = TCO_SERVE_REQUESTS_PER_SECOND;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, NULL), TCO_OK);
    assert_true(r.peak_accelerators == 0 && r.total_cost == 0 && r.cost_per_million_output_tokens == 0);
    assert_true(r.cost_per_million_tokens == 0 && r.batch == 137);
    scen_free(&s);
}

/* A 70B BF16 model on H100 80GB (catalogue: 3.35 TB/s): 140 GB of
 * weights need two accelerators (2 x 72 GB usable); the 4 GB left hold
 * floor(4e9 / (2 x 80 x 8 x 128 x 2 B x 1,280)) = 9 requests of 1,024 +
 * 256 tokens (Llama 2 70B's shape, Touvron et al. 2023b). */
static void test_auto_tensor_parallel(void **state)
{
    (void)state;
    scen s;
    scen_defaults(&s);
    SW(&s, TCO_P_PARAMS_TOTAL, 70e9);
    SW(&s, TCO_P_LAYERS, 80);
    SW(&s, TCO_P_HIDDEN_SIZE, 8192);
    SW(&s, TCO_P_HEADS, 64);
    SW(&s, TCO_P_KV_HEADS, 8);
    scen_freeze(&s);
    const double rate[] = { 1 };
    tco_serve_request q;
    tco_serve_request_init(&q);
    q.rate = rate;
    q.n = 1;
    tco_serving r = { .size = sizeof r };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.tensor_parallel == 2 && r.max_batch_memory == 9 && r.batch == 9);
    assert_true(r.batch_limit == TCO_SERVE_LIMIT_MEMORY && r.memory_bandwidth_bytes_per_s == 3.35e12);
    assert_true(r.weight_bytes == 140e9 && r.kv_bytes_per_token == 327680);
    /* the weights read at 2 x 3.35e12 x 0.7 B/s: 29.85 ms a step at least */
    assert_true(r.step_seconds > 140e9 / (2 * 3.35e12 * 0.7));
    /* FP8 halves the weights: one accelerator holds them */
    tco_workload *w8;
    assert_int_equal(tco_workload_clone(&w8, s.w, NULL), TCO_OK);
    assert_int_equal(tco_workload_set_text(w8, TCO_P_PRECISION, "fp8", NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(w8, NULL), TCO_OK);
    assert_int_equal(tco_serving_compute(&r, NULL, NULL, 0, &q, s.t, w8, s.p, &err), TCO_OK);
    assert_true(r.tensor_parallel == 1 && r.weight_bytes == 70e9);
    /* an A100 has no FP8 peak (A100 datasheet: BF16 312 TFLOP/s dense, no
     * FP8): serving in FP8 on it is refused naming the precision, and
     * nothing is written */
    tco_topology *a100;
    assert_int_equal(tco_topology_clone(&a100, s.t, NULL), TCO_OK);
    assert_int_equal(tco_topology_set_text(a100, TCO_P_ACCELERATOR_MODEL, "A100-SXM-80GB", NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(a100, NULL), TCO_OK);
    r.batch = -1;
    assert_int_equal(tco_serving_compute(&r, NULL, NULL, 0, &q, a100, w8, s.p, &err), TCO_E_INCONSISTENT);
    assert_int_equal(err.param, TCO_P_PRECISION);
    assert_non_null(strstr(err.message, "has no FP8 peak"));
    assert_true(r.batch == -1);
    tco_topology_free(a100);
    tco_workload_free(w8);
    scen_free(&s);
}

/* Pope et al. (2022), abstract: PaLM 540B on 64 TPU v4 chips generates at
 * 29 ms per token at low batch, with int8 weights (1 B, as FP8 here), 118
 * layers of width 18,432 with multiquery attention (48 heads, one KV
 * head). TPU v4: 275 TFLOP/s BF16, 32 GB of HBM at 1,200 GB/s (Jouppi et
 * al. 2023). The roofline at full bandwidth is the floor a real system
 * cannot beat: 540e9 B / (64 x 1.2e12 B/s) = 7.0 ms, under the published
 * 29 ms, and within the factor of about 4 that their communication and
 * overheads leave (a bytes or units slip here would fall out of it). */
static void test_published_palm(void **state)
{
    (void)state;
    scen s;
    scen_defaults(&s);
    assert_int_equal(tco_topology_set_text(s.t, TCO_P_ACCELERATOR_MODEL, "custom", NULL), TCO_OK);
    ST(&s, TCO_P_ACCELERATOR_PEAK_FLOPS, 275e12);
    ST(&s, TCO_P_ACCELERATOR_MEMORY_BYTES, 32e9);
    ST(&s, TCO_P_ACCELERATOR_TDP_WATTS, 200);
    ST(&s, TCO_P_ACCELERATORS, 1024);
    ST(&s, TCO_P_ACCELERATORS_PER_NODE, 4);
    SW(&s, TCO_P_PARAMS_TOTAL, 540e9);
    SW(&s, TCO_P_LAYERS, 118);
    SW(&s, TCO_P_HIDDEN_SIZE, 18432);
    SW(&s, TCO_P_HEADS, 48);
    SW(&s, TCO_P_KV_HEADS, 1);
    assert_int_equal(tco_workload_set_text(s.w, TCO_P_PRECISION, "fp8", NULL), TCO_OK);
    SP(&s, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 3);
    SP(&s, TCO_P_RESERVED_PER_ACCEL_HOUR, 2);
    scen_freeze(&s);
    const double rate[] = { 1 };
    tco_serve_request q;
    tco_serve_request_init(&q);
    q.rate = rate;
    q.n = 1;
    q.tensor_parallel = 64;
    q.prompt_tokens = 0; /* the generation latency alone */
    q.output_tokens = 64;
    q.bandwidth_share = 1;
    q.flops_share = 1;
    q.memory_bandwidth_bytes_per_s = 1.2e12;
    tco_serving r = { .size = sizeof r };
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.min_time_per_output_token >= 540e9 / (64 * 1.2e12));
    assert_true(r.min_time_per_output_token <= 0.029);
    assert_true(r.min_time_per_output_token >= 0.029 / 5);
    /* a 29 ms target is reachable, a 5 ms one is not */
    q.time_per_output_token = 0.005;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_INCONSISTENT);
    scen_free(&s);
}

/* A target below the replica's batch-1 time, or a prompt slower than the
 * time-to-first-token target, or weights that do not fit: refused, naming
 * the input and the least reachable; nothing written. */
static void test_latency_and_memory_bounds(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    const double rate[] = { 100 };
    tco_serve_request q;
    hand_request(&q, rate, 1);
    tco_serving r, before;
    memset(&r, 0x5a, sizeof r);
    r.size = sizeof r;
    before = r;
    double needed[1] = { -3 };
    tco_error err = TCO_ERROR_INIT;

    q.time_per_output_token = 0.01; /* below 0.0102917504 */
    assert_int_equal(serve(&r, NULL, needed, 1, &q, &s, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "request.time_per_output_token");
    assert_non_null(strstr(err.message, "0.0102918 s"));
    assert_memory_equal(&r, &before, sizeof r);
    assert_true(needed[0] == -3);
    /* exactly the least is reachable, at batch 1 */
    q.time_per_output_token = 0.0102917504;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.batch == 1);
    /* two accelerators halve the weights' read: the 10 ms target is met */
    q.time_per_output_token = 0.01;
    q.tensor_parallel = 2;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.tensor_parallel == 2 && r.time_per_output_token <= 0.01);
    /* no replica up to a node (8: a = 1.25 ms) reaches 1 ms */
    q.tensor_parallel = 0;
    q.time_per_output_token = 0.001;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "request.time_per_output_token");

    /* the prompt takes 0.04032768 s */
    q.time_per_output_token = 0.05;
    q.tensor_parallel = 1;
    q.time_to_first_token = 0.04;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "request.time_to_first_token");
    assert_non_null(strstr(err.message, "0.0403277 s"));
    q.time_to_first_token = 0.041;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    q.time_to_first_token = 0;

    /* 50B parameters (100 GB) do not fit in 90 GB: two accelerators do */
    tco_workload *big;
    assert_int_equal(tco_workload_clone(&big, s.w, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(big, TCO_P_PARAMS_TOTAL, 50e9, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(big, NULL), TCO_OK);
    memset(&r, 0x5a, sizeof r);
    r.size = sizeof r;
    assert_int_equal(tco_serving_compute(&r, NULL, NULL, 0, &q, s.t, big, s.p, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "request.tensor_parallel");
    assert_non_null(strstr(err.message, "at least 2"));
    assert_memory_equal(&r, &before, sizeof r);
    q.tensor_parallel = 0; /* the least power of two: 2 */
    q.time_per_output_token = 1;
    assert_int_equal(tco_serving_compute(&r, NULL, NULL, 0, &q, s.t, big, s.p, &err), TCO_OK);
    assert_true(r.tensor_parallel == 2);
    tco_workload_free(big);
    scen_free(&s);
}

/* Each bound met exactly, from the hand-worked replica's figures (KV of a
 * request at its end 163,840 x 1,200 = 196,608,000 B, weights 2e10 B):
 *   memory_share 0.2029: 100e9 x 0.2029 - 2e10 = 2.9e8 B holds 1.475
 *   requests, one: the least replica of its own choosing is 1 wide, at
 *   batch 1 (memory bound);
 *   memory_share 0.201: 1e8 B holds none; the least replica holding the
 *   weights and one request is ceil(2.0196608e10 / 2.01e10) = 2;
 *   a prompt of 10 and 500 output tokens at 20 ms a token: mean context
 *   260, b = 163,840 x 260 / 2e12 = 2.12992e-5 s, the prompt takes the
 *   weights' read, a = 0.01 s, so d = 0.01 / 500 = 2e-5 s; TPOT(B) = 0.01
 *   + B (b + d): 0.0199944 at 242, 0.0200357 at 243 (compute, c x B, is
 *   below it). With max_batch 243 the batch is 242, bound by latency,
 *   not the 243 allowed. */
static void test_bounds_exactly(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    const double rate[] = { 1 };
    tco_serve_request q;
    hand_request(&q, rate, 1);
    tco_serving r = { .size = sizeof r };
    tco_error err = TCO_ERROR_INIT;
    q.tensor_parallel = 0;
    q.memory_share = 0.2029;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.tensor_parallel == 1 && r.max_batch_memory == 1 && r.batch == 1);
    assert_true(r.batch_limit == TCO_SERVE_LIMIT_MEMORY);

    q.tensor_parallel = 1;
    q.memory_share = 0.201;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "request.tensor_parallel");
    const char *tail = "of at least 2";
    size_t len = strlen(err.message);
    assert_true(len > strlen(tail) && strcmp(err.message + len - strlen(tail), tail) == 0);

    hand_request(&q, rate, 1);
    q.prompt_tokens = 10;
    q.output_tokens = 500;
    q.time_per_output_token = 0.02;
    q.max_batch = 243;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.batch == 242 && r.batch_limit == TCO_SERVE_LIMIT_LATENCY);
    assert_rel(r.time_per_output_token, 0.01 + 242 * (2.12992e-5 + 2e-5), 1e-12);
    /* memory (90e9 - 2e10) / (163,840 x 510) = 837.7 holds 837 and
     * max_batch allows as many: the bound is the memory's */
    q.time_per_output_token = 1;
    q.max_batch = 837;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.batch == 837 && r.max_batch_memory == 837 && r.batch_limit == TCO_SERVE_LIMIT_MEMORY);
    q.time_per_output_token = 0.02;
    /* The same bound on the compute side: 1% of the peak, 1e13 FLOP/s, a
     * prompt of 1 token, 200 ms a token. c = (2 x 10e9 + 2 x 40 x 4,096 x
     * 251) / 1e13 = 2.008224768e-3 s a sequence, d = 0.01 / 500 = 2e-5:
     * TPOT(B) = B (c + d), 0.198766 at 98, 0.200794 at 99. */
    q.prompt_tokens = 1;
    q.flops_share = 0.01;
    q.time_per_output_token = 0.2;
    q.max_batch = 99;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.batch == 98 && r.batch_limit == TCO_SERVE_LIMIT_LATENCY);
    assert_rel(r.time_per_output_token, 98 * (2.008224768e-3 + 2e-5), 1e-12);
    /* And with the all-reduces of a replica of 2 (g = 655,360 / 450e9 =
     * 1.4563556e-6 s a token, test_allreduce_hand_worked): 2e13 FLOP/s,
     * c = 1.004112384e-3, the prompt 2e10 / 4e12 + g = 0.0050014564 s, d
     * = 1.0002913e-5; TPOT(B) = B (c + d + g) = B x 1.0155717e-3, 0.199052
     * at 196, 0.200068 at 197. */
    q.tensor_parallel = 2;
    q.tensor_parallel_allreduce = 1;
    q.max_batch = 197;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_true(r.batch == 196 && r.batch_limit == TCO_SERVE_LIMIT_LATENCY);
    assert_rel(r.time_per_output_token, 196 * (1.004112384e-3 + 0.0050014563555555556 / 500 + 655360 / 450e9), 1e-12);
    scen_free(&s);
}

static void expect_field(tco_serve_request *q, const scen *s, int code, const char *name)
{
    tco_serving r, before;
    memset(&r, 0x5a, sizeof r);
    r.size = sizeof r;
    before = r;
    tco_error err = TCO_ERROR_INIT;
    int rc = serve(&r, NULL, NULL, 0, q, s, &err);
    if (rc != code || (name && strcmp(err.param_name, name) != 0) || !err.message[0]) {
        print_error("expected %s naming %s, got %s naming %s: %s\n", tco_status_name(code), name ? name : "-",
                    tco_status_name(rc), err.param_name, err.message);
        fail();
    }
    if (name && !strstr(err.message, name)) {
        print_error("the message does not name %s: %s\n", name, err.message);
        fail();
    }
    assert_memory_equal(&r, &before, sizeof r);
}

/* Every field of the request, out of range each way. */
static void test_bad_request_fields(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    const double rate[] = { 1, 2 };
    struct {
        size_t offset;
        const char *name;
        double bad[6];
        int codes[6];
    } cases[] = {
#define F(field) offsetof(tco_serve_request, field), "request." #field
        { F(interval_seconds), { NAN, INFINITY, -1, 0, 1e-4, 4e9 }, { -3, -3, -2, -2, -2, -2 } },
        { F(prompt_tokens), { NAN, -INFINITY, -1, 1.1e7, 1e300, -0.5 }, { -3, -3, -2, -2, -2, -2 } },
        { F(output_tokens), { NAN, INFINITY, -1, 0, 0.5, 2e7 }, { -3, -3, -2, -2, -2, -2 } },
        { F(time_per_output_token), { NAN, INFINITY, -1, 0, 3601, -0.0 }, { -3, -3, -2, -2, -2, -2 } },
        { F(time_to_first_token), { NAN, INFINITY, -1, 86401, 1e300, -1e-3 }, { -3, -3, -2, -2, -2, -2 } },
        { F(flops_share), { NAN, INFINITY, -0.5, 0, 1.01, 1e9 }, { -3, -3, -2, -2, -2, -2 } },
        { F(bandwidth_share), { NAN, INFINITY, -0.5, 0, 1.01, 1e9 }, { -3, -3, -2, -2, -2, -2 } },
        { F(memory_share), { NAN, INFINITY, -0.5, 0, 1.01, 1e9 }, { -3, -3, -2, -2, -2, -2 } },
        { F(max_batch), { NAN, INFINITY, -1, 0.5, 2.5, 1e7 + 1 }, { -3, -3, -2, -2, -2, -2 } },
        { F(memory_bandwidth_bytes_per_s), { NAN, INFINITY, -1, 10, 1e16, 1e300 }, { -3, -3, -2, -2, -2, -2 } },
#undef F
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int k = 0; k < 6; k++) {
            tco_serve_request q;
            hand_request(&q, rate, 2);
            memcpy((char *)&q + cases[c].offset, &cases[c].bad[k], sizeof(double));
            expect_field(&q, &s, cases[c].codes[k], cases[c].name);
        }
    tco_serve_request q;
    hand_request(&q, rate, 2);
    q.rate_unit = 2;
    expect_field(&q, &s, TCO_E_RANGE, "request.rate_unit");
    q.rate_unit = -1;
    expect_field(&q, &s, TCO_E_RANGE, "request.rate_unit");
    hand_request(&q, rate, 2);
    q.tensor_parallel = -1;
    expect_field(&q, &s, TCO_E_RANGE, "request.tensor_parallel");
    q.tensor_parallel = 4097;
    expect_field(&q, &s, TCO_E_RANGE, "request.tensor_parallel");
    /* the custom accelerator has no bandwidth of its own */
    hand_request(&q, rate, 2);
    q.memory_bandwidth_bytes_per_s = 0;
    expect_field(&q, &s, TCO_E_INCONSISTENT, "request.memory_bandwidth_bytes_per_s");
    /* the opt-in fields */
    const double bad_pct[] = { NAN, -0.1, 1, 2 };
    const int pct_codes[] = { TCO_E_NOT_FINITE, TCO_E_RANGE, TCO_E_RANGE, TCO_E_RANGE };
    for (int k = 0; k < 4; k++) {
        hand_request(&q, rate, 2);
        q.time_to_first_token = 1;
        q.queue_percentile = bad_pct[k];
        expect_field(&q, &s, pct_codes[k], "request.queue_percentile");
    }
    hand_request(&q, rate, 2);
    q.queue_percentile = 0.99; /* no target to wait against */
    expect_field(&q, &s, TCO_E_INCONSISTENT, "request.time_to_first_token");
    hand_request(&q, rate, 2);
    q.tensor_parallel_allreduce = 2;
    expect_field(&q, &s, TCO_E_RANGE, "request.tensor_parallel_allreduce");
    q.tensor_parallel_allreduce = -1;
    expect_field(&q, &s, TCO_E_RANGE, "request.tensor_parallel_allreduce");
    const double bad_e[] = { NAN, 1, 2.5, 2e6 };
    const int e_codes[] = { TCO_E_NOT_FINITE, TCO_E_RANGE, TCO_E_RANGE, TCO_E_RANGE };
    for (int k = 0; k < 4; k++) {
        hand_request(&q, rate, 2);
        q.experts = bad_e[k];
        q.experts_per_token = 1;
        expect_field(&q, &s, e_codes[k], "request.experts");
    }
    const double bad_k[][2] = { { 0, 1 }, { 8, 0 }, { 8, 8 }, { 8, 1.5 }, { 8, NAN } };
    for (int k = 0; k < 5; k++) {
        hand_request(&q, rate, 2);
        q.experts = bad_k[k][0];
        q.experts_per_token = bad_k[k][1];
        expect_field(&q, &s, k == 4 ? TCO_E_NOT_FINITE : TCO_E_RANGE, "request.experts_per_token");
    }
    /* a dense workload (params_active 0) has no experts to route to */
    hand_request(&q, rate, 2);
    q.experts = 8;
    q.experts_per_token = 2;
    expect_field(&q, &s, TCO_E_INCONSISTENT, "request.experts");
    scen_free(&s);
}

/* The series, the sizes and the handles. */
static void test_bad_series_and_sizes(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    const double ok[] = { 1, 2 }, nan_in[] = { 1, NAN, 3 }, neg[] = { 1, -2 }, inf[] = { INFINITY }, huge[] = { 1e300 };
    tco_serve_request q;
    tco_error err = TCO_ERROR_INIT;
    tco_serving r = { .size = sizeof r };

    hand_request(&q, nan_in, 3);
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "request.rate[1]"));
    hand_request(&q, neg, 2);
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "request.rate[1] = -2"));
    hand_request(&q, inf, 1);
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_NOT_FINITE);
    /* all of the demand interruptible, on spot at 1 (elastic 1.38 with
     * its overhead, below the reserved 2.5): the split reserves nothing
     * (exceedance 1), no baseline is selected, and the pass alone finds
     * the bad point */
    tco_workload *spot;
    tco_pricing *cheap;
    assert_int_equal(tco_workload_clone(&spot, s.w, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(spot, TCO_P_INTERRUPTIBLE_SHARE, 1, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(spot, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&cheap, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(cheap, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(cheap, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(cheap, TCO_P_SPOT_PER_ACCEL_HOUR, 1, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(cheap, NULL), TCO_OK);
    tco_split sp1 = { .size = sizeof sp1 };
    hand_request(&q, ok, 2);
    assert_int_equal(tco_serving_compute(&r, &sp1, NULL, 0, &q, s.t, spot, cheap, &err), TCO_OK);
    assert_true(sp1.target_exceedance == 1 && sp1.baseline == 0);
    hand_request(&q, neg, 2);
    assert_int_equal(tco_serving_compute(&r, NULL, NULL, 0, &q, s.t, spot, cheap, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "request.rate[1] = -2"));
    hand_request(&q, nan_in, 3);
    assert_int_equal(tco_serving_compute(&r, NULL, NULL, 0, &q, s.t, spot, cheap, &err), TCO_E_NOT_FINITE);
    assert_non_null(strstr(err.message, "request.rate[1]"));
    tco_workload_free(spot);
    tco_pricing_free(cheap);
    /* 1e300 requests a second need 7e298 accelerators: refused, not a number */
    hand_request(&q, huge, 1);
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "request.rate");
    hand_request(&q, NULL, 2);
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_NULL);
    hand_request(&q, ok, 0);
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "empty"));

    hand_request(&q, ok, 2);
    assert_int_equal(serve(NULL, NULL, NULL, 0, &q, &s, &err), TCO_E_NULL);
    assert_int_equal(serve(&r, NULL, NULL, 0, NULL, &s, &err), TCO_E_NULL);
    r.size = 8;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_SIZE);
    r.size = 65537;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_SIZE);
    r.size = sizeof r;
    tco_split sp = { .size = 16 };
    assert_int_equal(serve(&r, &sp, NULL, 0, &q, &s, &err), TCO_E_SIZE);
    sp.size = 65537; /* past the 64 KiB bound on an output struct */
    assert_int_equal(serve(&r, &sp, NULL, 0, &q, &s, &err), TCO_E_SIZE);
    assert_non_null(strstr(err.message, "tco_split"));
    /* the custom accelerator has no catalogue bandwidth: the request must give one */
    q.memory_bandwidth_bytes_per_s = 0;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "request.memory_bandwidth_bytes_per_s");
    assert_non_null(strstr(err.message, "accelerator_model = custom"));
    q.memory_bandwidth_bytes_per_s = 2e12;
    double needed[2];
    assert_int_equal(serve(&r, NULL, needed, 1, &q, &s, &err), TCO_E_SIZE);
    assert_string_equal(err.param_name, "n_needed");
    assert_int_equal(serve(&r, NULL, NULL, 2, &q, &s, &err), TCO_E_NULL);
    /* the request's size: too small, or a newer one with its tail set */
    q.size = 8;
    assert_int_equal(serve(&r, NULL, NULL, 0, &q, &s, &err), TCO_E_SIZE);
    assert_string_equal(err.param_name, "serve_request.size");
    struct {
        tco_serve_request q;
        double extra;
    } newer;
    memset(&newer, 0, sizeof newer);
    hand_request(&newer.q, ok, 2);
    newer.q.size = sizeof newer;
    assert_int_equal(serve(&r, NULL, NULL, 0, &newer.q, &s, &err), TCO_OK);
    newer.extra = 1;
    assert_int_equal(serve(&r, NULL, NULL, 0, &newer.q, &s, &err), TCO_E_SIZE);
    newer.q.size = 1025;
    newer.extra = 0;
    assert_int_equal(serve(&r, NULL, NULL, 0, &newer.q, &s, &err), TCO_E_SIZE);
    /* the first 1.1 request, without the opt-in fields: what lies past it
     * is not read, and it serves as the full request at their defaults */
    tco_serving full = { .size = sizeof full }, first = { .size = sizeof first };
    hand_request(&q, ok, 2);
    assert_int_equal(serve(&full, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    memset((char *)&q + offsetof(tco_serve_request, queue_percentile), 0x5a,
           sizeof q - offsetof(tco_serve_request, queue_percentile));
    q.size = offsetof(tco_serve_request, queue_percentile);
    assert_int_equal(serve(&first, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    assert_memory_equal(&full, &first, sizeof full);

    /* an older, smaller out gets what it holds */
    struct {
        tco_serving r;
        double guard;
    } old;
    memset(&old, 0x5a, sizeof old);
    hand_request(&q, ok, 2);
    old.r.size = sizeof old.r;
    assert_int_equal(serve(&old.r, NULL, NULL, 0, &q, &s, &err), TCO_OK);
    unsigned char pattern[sizeof(double)];
    memset(pattern, 0x5a, sizeof pattern);
    assert_memory_equal(&old.guard, pattern, sizeof pattern);

    /* handles: unfrozen, NULL, of the wrong kind; a model without layers */
    tco_workload *w;
    assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
    assert_int_equal(tco_serving_compute(&r, NULL, NULL, 0, &q, s.t, w, s.p, &err), TCO_E_NOT_FROZEN);
    assert_int_equal(tco_serving_compute(&r, NULL, NULL, 0, &q, s.t, NULL, s.p, &err), TCO_E_NULL);
    assert_int_equal(tco_serving_compute(&r, NULL, NULL, 0, &q, s.t, (tco_workload *)s.p, s.p, &err), TCO_E_TYPE);
    assert_int_equal(tco_workload_freeze(w, NULL), TCO_OK); /* the defaults give no layers */
    assert_int_equal(tco_serving_compute(&r, NULL, NULL, 0, &q, s.t, w, s.p, &err), TCO_E_INCONSISTENT);
    assert_string_equal(err.param_name, "layers");
    tco_workload_free(w);
    /* no price for the custom accelerator: the split's error */
    tco_pricing *p;
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(p, NULL), TCO_OK);
    assert_int_equal(tco_serving_compute(&r, NULL, NULL, 0, &q, s.t, s.w, p, &err), TCO_E_INCONSISTENT);
    tco_pricing_free(p);
    scen_free(&s);
}

/* Monotone: scaling the rate up never needs fewer accelerators at any
 * point; a looser latency target never more (the replica is fixed by
 * memory, and a larger batch is never slower per accelerator). */
static void test_monotone(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    enum { N = 500 };
    double rate[N], more[N], a[N], b[N];
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        rate[i] = (double)(x % 100000) / 100;
        more[i] = rate[i] * (1 + (double)(x % 7) / 10) + (double)(x % 3);
    }
    tco_serve_request q;
    hand_request(&q, rate, N);
    q.tensor_parallel = 0;
    tco_serving r = { .size = sizeof r }, r2 = { .size = sizeof r2 };
    int strictly = 0;
    for (double target = 0.011; target < 1; target *= 1.37) {
        q.time_per_output_token = target;
        q.rate = rate;
        assert_int_equal(serve(&r, NULL, a, N, &q, &s, NULL), TCO_OK);
        q.rate = more;
        assert_int_equal(serve(&r2, NULL, b, N, &q, &s, NULL), TCO_OK);
        for (int i = 0; i < N; i++)
            assert_true(b[i] >= a[i]);
        assert_true(r2.total_cost >= r.total_cost);
        /* looser */
        q.rate = rate;
        q.time_per_output_token = target * 1.37;
        assert_int_equal(serve(&r2, NULL, b, N, &q, &s, NULL), TCO_OK);
        for (int i = 0; i < N; i++) {
            assert_true(b[i] <= a[i]);
            strictly |= b[i] < a[i];
        }
        assert_true(r2.peak_accelerators <= r.peak_accelerators);
    }
    assert_true(strictly); /* the test means something: targets change the fleet */
    scen_free(&s);
}

/* A year of minutes: the fleet and split as tco_capacity_split gives them
 * for the accelerators, with nothing allocated but its selection. */
static void test_year_of_minutes(void **state)
{
    (void)state;
    scen s;
    hand_scen(&s);
    size_t n = 525600;
    double *rate = malloc(n * sizeof *rate), *needed = malloc(n * sizeof *needed);
    assert_non_null(rate);
    assert_non_null(needed);
    for (size_t i = 0; i < n; i++) {
        double day = (double)(i % 1440) / 1440;
        rate[i] = 50 + 40 * sin(6.283185307179586 * day) + (double)(i % 17);
    }
    tco_serve_request q;
    hand_request(&q, rate, n);
    q.interval_seconds = 60;
    tco_serving r = { .size = sizeof r };
    tco_split sp = { .size = sizeof sp }, direct = { .size = sizeof direct };
    assert_int_equal(serve(&r, &sp, needed, n, &q, &s, NULL), TCO_OK);
    assert_int_equal(tco_capacity_split(&direct, needed, n, 1.0 / 60, s.t, s.w, s.p, NULL), TCO_OK);
    assert_memory_equal(&sp, &direct, sizeof sp);
    assert_true(r.hours == 8760 && r.fixed_accelerators > 0 && r.fixed_accelerators < r.peak_accelerators);
    free(rate);
    free(needed);
    scen_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_catalogue_bandwidth),
        cmocka_unit_test(test_replica_hand_worked),
        cmocka_unit_test(test_fleet_hand_worked),
        cmocka_unit_test(test_allreduce_hand_worked),
        cmocka_unit_test(test_experts_hand_worked),
        cmocka_unit_test(test_queue_hand_worked),
        cmocka_unit_test(test_queue_at_the_bound),
        cmocka_unit_test(test_bounds_exactly),
        cmocka_unit_test(test_auto_tensor_parallel),
        cmocka_unit_test(test_published_palm),
        cmocka_unit_test(test_latency_and_memory_bounds),
        cmocka_unit_test(test_bad_request_fields),
        cmocka_unit_test(test_bad_series_and_sizes),
        cmocka_unit_test(test_monotone),
        cmocka_unit_test(test_year_of_minutes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
