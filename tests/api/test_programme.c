/* Black-box tests of tco_programme_compute (tco.h only): a programme of
 * stages on one cluster (doc/model.md, section 21).
 *
 * The figures that are the estimate's (each stage's total, cost by
 * category, held hours, checkpoint size, effective hours, tokens) are read
 * here through tco_estimate_compute on the same handles; everything the
 * programme adds (the time line, the waves, the shares of the cluster's
 * hours, the store and its lifecycle, the totals) is worked out below from
 * section 21's definitions, in comments, and compared. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc_count.h"
#include "support.h"

#define HOURS_PER_MONTH (8766.0 / 12) /* the library's month */
#define HOT 0.02                      /* cur per GB-month, set below */
#define CKPT 1e12                     /* B per checkpoint, set below */

typedef struct fixture {
    tco_topology *t;
    tco_pricing *p;
    tco_workload *w[4];
} fixture;

/* 16 accelerators in 2 nodes of 8; hot storage at HOT. */
static void cluster(fixture *f)
{
    memset(f, 0, sizeof *f);
    assert_int_equal(tco_topology_new(&f->t, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(f->t, TCO_P_ACCELERATORS, 16, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(f->t, TCO_P_ACCELERATORS_PER_NODE, 8, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(f->t, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&f->p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(f->p, TCO_P_STORAGE_HOT_PER_GB_MONTH, HOT, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(f->p, NULL), TCO_OK);
}

/* A 1e9-parameter model trained on `job` accelerators for `flops`, `runs`
 * times; one checkpoint is CKPT bytes. */
static tco_workload *workload(double job, double flops, double runs)
{
    tco_workload *w;
    assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_workload_set(w, TCO_P_JOB_ACCELERATORS, job, &err) ||
             tco_workload_set(w, TCO_P_PARAMS_TOTAL, 1e9, &err) || tco_workload_set(w, TCO_P_PARAMS_ACTIVE, 1e9, &err) ||
             tco_workload_set(w, TCO_P_TENSOR_PARALLEL, 4, &err) ||
             tco_workload_set(w, TCO_P_PIPELINE_PARALLEL, 1, &err) ||
             tco_workload_set(w, TCO_P_TOTAL_FLOPS, flops, &err) || tco_workload_set(w, TCO_P_RUNS, runs, &err) ||
             tco_workload_set(w, TCO_P_CHECKPOINT_BYTES, CKPT, &err) || tco_workload_freeze(w, &err);
    if (rc)
        fail_msg("workload: %s", err.message);
    return w;
}

static void fixture_free(fixture *f)
{
    tco_topology_free(f->t);
    tco_pricing_free(f->p);
    for (int i = 0; i < 4; i++)
        tco_workload_free(f->w[i]);
}

static tco_estimate estimate(const fixture *f, const tco_workload *w)
{
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    assert_int_equal(tco_estimate_compute(&e, f->t, w, f->p, NULL), TCO_OK);
    return e;
}

static tco_stage stage(int32_t kind, const char *name, const tco_workload *w, int32_t after, int32_t kept)
{
    tco_stage s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    s.kind = kind;
    s.name = name;
    s.workload = w;
    s.after = after;
    s.versions_kept = kept;
    return s;
}

static tco_programme run(const fixture *f, const tco_stage *st, size_t n, tco_stage_result *res)
{
    tco_programme g;
    memset(&g, 0, sizeof g);
    g.size = sizeof g;
    for (size_t i = 0; i < n; i++) {
        memset(&res[i], 0, sizeof res[i]);
        res[i].size = sizeof res[i];
    }
    tco_error err = TCO_ERROR_INIT;
    if (tco_programme_compute(&g, res, sizeof *res, st, n, f->t, f->p, &err))
        fail_msg("programme: %s", err.message);
    return g;
}

/* The identities of section 21, whatever the programme: total is exactly
 * stages_total + storage_lifecycle, stages_total exactly the stages'
 * totals added in order, each stage's total exactly its cost[] added, the
 * programme's cost[] the stages' with the lifecycle in storage. */
static void identities(const tco_programme *g, const tco_stage_result *res, size_t n)
{
    double stages = 0, cost[TCO_CATEGORY_SLOTS] = { 0 };
    for (size_t i = 0; i < n; i++) {
        double sum = 0;
        for (size_t c = 0; c < tco_category_count(); c++) {
            sum += res[i].cost[c];
            cost[c] += res[i].cost[c];
        }
        assert_true(res[i].total == sum);
        assert_rel(res[i].share, res[i].total / g->total, 1e-15);
        stages += res[i].total;
    }
    assert_true(g->stages_total == stages);
    assert_true(g->total == g->stages_total + g->storage_lifecycle);
    cost[TCO_CAT_STORAGE] += g->storage_lifecycle;
    for (size_t c = 0; c < tco_category_count(); c++) {
        assert_rel(g->cost[c], cost[c], 1e-15);
        assert_rel(g->share[c], g->cost[c] / g->total, 1e-15);
    }
}

/* Two stages one after the other: pretraining on the whole cluster (16),
 * fine-tuning on half of it (8) after it; pretraining keeps 3 versions.
 * Each stage is alone on the cluster, so each pays its estimate exactly
 * (cluster_share 1). Time line: A [0, HA), B [HA, HA + HB). Store: 3 x
 * 1e12 B = 3000 GB, kept from HA to the end, HB hours: lifecycle = 3000 x
 * HB / 730.5 x 0.02; growth 3000 GB over (HA + HB) / 730.5 months.
 * Utilisation (16 HA + 8 HB) / (16 (HA + HB)). */
static void test_sequential(void **state)
{
    (void)state;
    fixture f;
    cluster(&f);
    f.w[0] = workload(16, 1e21, 1);
    f.w[1] = workload(8, 2e20, 1);
    tco_estimate a = estimate(&f, f.w[0]), b = estimate(&f, f.w[1]);
    tco_stage st[2] = { stage(TCO_STAGE_PRETRAINING, "pretrain", f.w[0], TCO_STAGE_START, 3),
                        stage(TCO_STAGE_SUPERVISED_FINE_TUNING, "sft", f.w[1], 0, 1) };
    tco_stage_result res[2];
    tco_programme g = run(&f, st, 2, res);
    identities(&g, res, 2);

    double HA = a.held_hours, HB = b.held_hours;
    assert_true(res[0].cluster_share == 1 && res[1].cluster_share == 1);
    assert_true(res[0].total == a.total && res[1].total == b.total);
    assert_true(res[0].estimate_total == a.total);
    for (size_t c = 0; c < tco_category_count(); c++)
        assert_true(res[1].cost[c] == b.cost[c]);
    assert_true(res[0].start_hours == 0 && res[0].end_hours == HA);
    assert_true(res[1].start_hours == HA);
    assert_rel(res[1].end_hours, HA + HB, 1e-15);
    assert_true(res[0].accelerators == 16 && res[1].accelerators == 8);
    assert_true(res[0].kind == TCO_STAGE_PRETRAINING && res[1].after == 0);
    assert_rel(res[0].store_gb, 3 * CKPT / 1e9, 1e-15);
    assert_rel(res[1].store_gb, 1000, 1e-15);
    assert_rel(res[0].cost_per_run, a.total, 1e-15);
    assert_rel(res[0].cost_per_effective_accelerator_hour, a.cost_per_effective_accelerator_hour, 1e-15);
    assert_rel(res[1].cost_per_million_tokens, b.cost_per_million_tokens, 1e-15);
    assert_rel(g.storage_lifecycle, 3000 * HB / HOURS_PER_MONTH * HOT, 1e-14);
    assert_rel(g.total, a.total + b.total + 3000 * HB / HOURS_PER_MONTH * HOT, 1e-15);
    assert_rel(g.makespan_hours, HA + HB, 1e-15);
    assert_rel(g.makespan_months, (HA + HB) / HOURS_PER_MONTH, 1e-15);
    assert_rel(g.store_gb, 4000, 1e-15);
    assert_rel(g.store_growth_gb_per_month, 4000 / ((HA + HB) / HOURS_PER_MONTH), 1e-14);
    assert_true(g.peak_accelerators == 16 && g.cluster_accelerators == 16);
    assert_rel(g.utilisation, (16 * HA + 8 * HB) / (16 * (HA + HB)), 1e-14);
    assert_true(g.runs == 2 && g.stages == 2);
    assert_rel(g.cost_per_experiment, g.total / 2, 1e-15);
    assert_true(g.cost[TCO_CAT_STORAGE] > a.cost[TCO_CAT_STORAGE] + b.cost[TCO_CAT_STORAGE]);
    fixture_free(&f);
}

/* Three stages, two at once: A (8 accelerators) and B (8) both from the
 * start, C (8) after A. The durations make HA < HA + HC < HB, so that
 * [0, HA): A and B share the cluster, 8 of 16 each: each pays half;
 * [HA, HA + HC): C and B, half each;
 * [HA + HC, HB): B alone, all of it.
 * Shares: A = (HA - HA/2) / HA = 1/2, C = 1/2,
 * B = (HB - HA/2 - HC/2) / HB. The programme's makespan is HB. */
static void test_parallel(void **state)
{
    (void)state;
    fixture f;
    cluster(&f);
    f.w[0] = workload(8, 2e20, 1);
    f.w[1] = workload(8, 1e21, 1);
    f.w[2] = workload(8, 3e20, 1);
    tco_estimate a = estimate(&f, f.w[0]), b = estimate(&f, f.w[1]), c = estimate(&f, f.w[2]);
    double HA = a.held_hours, HB = b.held_hours, HC = c.held_hours;
    assert_true(HA + HC < HB); /* the case worked above */
    tco_stage st[3] = { stage(TCO_STAGE_CONTEXT_EXTENSION, "a", f.w[0], TCO_STAGE_START, 0),
                        stage(TCO_STAGE_PREFERENCE_TUNING, "b", f.w[1], TCO_STAGE_START, 2),
                        stage(TCO_STAGE_EVALUATION, "c", f.w[2], 0, 0) };
    tco_stage_result res[3];
    tco_programme g = run(&f, st, 3, res);
    identities(&g, res, 3);
    assert_rel(res[0].cluster_share, 0.5, 1e-15);
    assert_rel(res[2].cluster_share, 0.5, 1e-14);
    assert_rel(res[1].cluster_share, (HB - HA / 2 - HC / 2) / HB, 1e-14);
    assert_rel(res[0].total, a.total / 2, 1e-15);
    assert_rel(res[1].cost[TCO_CAT_COMPUTE], b.cost[TCO_CAT_COMPUTE] * (HB - HA / 2 - HC / 2) / HB, 1e-14);
    assert_true(res[1].start_hours == 0 && res[2].start_hours == HA);
    assert_true(g.makespan_hours == HB);
    assert_true(g.peak_accelerators == 16);
    assert_rel(g.utilisation, (8 * HA + 8 * HB + 8 * HC) / (16 * HB), 1e-14);
    /* B keeps 2 versions to its own end, the programme's: nothing to store after. */
    assert_true(g.storage_lifecycle == 0);
    assert_rel(g.store_gb, 2000, 1e-15);
    assert_rel(g.total, a.total / 2 + b.total * (HB - HA / 2 - HC / 2) / HB + c.total / 2, 1e-14);
    fixture_free(&f);
}

/* A sweep of 5 runs of 4 accelerators on 16: 4 side by side (16 / 4), so
 * 2 waves (5 / 4 rounded up); it holds 16 accelerators for 2 runs' time,
 * 2 x H / 5 (no queue wait), and alone on the cluster pays 2/5 of its
 * estimate, which bills the cluster for 5 runs one after another. After a
 * pretraining of 8 from the start, an ablation of the same 5 runs starting
 * with it finds 8 free: 2 side by side, 3 waves, 3 x H / 5 hours. */
static void test_sweep_waves(void **state)
{
    (void)state;
    fixture f;
    cluster(&f);
    f.w[0] = workload(4, 1e20, 5);
    f.w[1] = workload(8, 1e21, 1);
    tco_estimate s = estimate(&f, f.w[0]), pre = estimate(&f, f.w[1]);
    double H = s.held_hours;
    tco_stage one[1] = { stage(TCO_STAGE_SWEEP, "lr sweep", f.w[0], TCO_STAGE_START, 0) };
    tco_stage_result res[2];
    tco_programme g = run(&f, one, 1, res);
    identities(&g, res, 1);
    assert_true(res[0].concurrent_runs == 4 && res[0].waves == 2 && res[0].accelerators == 16);
    assert_rel(res[0].end_hours, 2 * H / 5, 1e-14);
    assert_rel(res[0].cluster_share, 0.4, 1e-14);
    assert_rel(res[0].total, 0.4 * s.total, 1e-14);
    assert_rel(res[0].cost_per_run, 0.4 * s.total / 5, 1e-14);
    assert_rel(g.cost_per_experiment, 0.4 * s.total / 5, 1e-14);
    assert_rel(g.utilisation, 1, 1e-14);

    /* The same runs as an evaluation: one after another, the estimate. */
    one[0].kind = TCO_STAGE_EVALUATION;
    g = run(&f, one, 1, res);
    assert_true(res[0].concurrent_runs == 1 && res[0].waves == 5 && res[0].total == s.total);

    double HP = pre.held_hours;
    assert_true(HP > 3 * H / 5); /* the ablation runs within the pretraining */
    tco_stage two[2] = { stage(TCO_STAGE_PRETRAINING, "pre", f.w[1], TCO_STAGE_START, 0),
                         stage(TCO_STAGE_ABLATION, "abl", f.w[0], TCO_STAGE_START, 0) };
    g = run(&f, two, 2, res);
    identities(&g, res, 2);
    assert_true(res[1].concurrent_runs == 2 && res[1].waves == 3 && res[1].accelerators == 8);
    assert_rel(res[1].end_hours, 3 * H / 5, 1e-14);
    /* Both hold 8 while the ablation runs: it pays half of its hours. */
    assert_rel(res[1].cluster_share, (3 * H / 5) / 2 / H, 1e-14);
    assert_rel(res[0].cluster_share, (HP - 3 * H / 5 / 2) / HP, 1e-14);
    fixture_free(&f);
}

/* Every bad input is refused with its code, names the input, and leaves
 * the outputs as they were. */
static void refused(const fixture *f, const tco_stage *st, size_t n, int code, const char *name, const char *text)
{
    tco_programme g;
    memset(&g, 0xab, sizeof g);
    g.size = sizeof g;
    tco_stage_result res[4];
    memset(res, 0xcd, sizeof res);
    for (int i = 0; i < 4; i++)
        res[i].size = sizeof res[i];
    tco_programme g0 = g;
    tco_stage_result r0[4];
    memcpy(r0, res, sizeof res);
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_programme_compute(&g, res, sizeof res[0], st, n, f ? f->t : NULL, f ? f->p : NULL, &err);
    if (rc != code)
        fail_msg("got %s (%s), want %s", tco_status_name(rc), err.message, tco_status_name(code));
    if (name && strcmp(err.param_name, name) != 0)
        fail_msg("param_name %s, want %s (%s)", err.param_name, name, err.message);
    if (text && !strstr(err.message, text))
        fail_msg("message \"%s\" lacks \"%s\"", err.message, text);
    assert_memory_equal(&g, &g0, sizeof g);
    assert_memory_equal(res, r0, sizeof res);
}

static void test_errors(void **state)
{
    (void)state;
    fixture f;
    cluster(&f);
    f.w[0] = workload(16, 1e21, 1);
    f.w[1] = workload(32, 1e21, 1); /* larger than the cluster */
    f.w[2] = workload(4, 1e20, 5);
    assert_int_equal(tco_workload_new(&f.w[3], NULL), TCO_OK); /* never frozen */
    tco_stage st[3] = { stage(TCO_STAGE_PRETRAINING, "pre", f.w[0], TCO_STAGE_START, 1),
                        stage(TCO_STAGE_SUPERVISED_FINE_TUNING, "sft", f.w[0], 0, 1),
                        stage(TCO_STAGE_EVALUATION, "eval", f.w[2], 1, 0) };

    /* A stage that needs more accelerators than the cluster has. */
    st[1].workload = f.w[1];
    refused(&f, st, 3, TCO_E_INCONSISTENT, "job_accelerators", "stages[1] (\"sft\") needs 32 accelerators");
    /* Two stages at once beyond the cluster: both named, and the hour. */
    st[1].workload = f.w[0];
    st[1].after = TCO_STAGE_START;
    refused(&f, st, 3, TCO_E_INCONSISTENT, "", "stages[1] (\"sft\") and stages[0] (\"pre\") hold 32 accelerators at hour 0");
    /* A sweep finds no accelerator free: one run at a time still overflows. */
    tco_stage sw[2] = { stage(TCO_STAGE_PRETRAINING, NULL, f.w[0], TCO_STAGE_START, 0),
                        stage(TCO_STAGE_SWEEP, NULL, f.w[2], TCO_STAGE_START, 0) };
    refused(&f, sw, 2, TCO_E_INCONSISTENT, "", "stages[1] and stages[0] hold 20 accelerators");
    /* after: forward, itself, below -1. */
    st[1].after = 2;
    refused(&f, st, 3, TCO_E_RANGE, "stages[1].after", "allowed -1 (the programme's start) or an earlier stage, 0 to 0");
    st[1].after = 1;
    refused(&f, st, 3, TCO_E_RANGE, "stages[1].after", NULL);
    st[1].after = -2;
    refused(&f, st, 3, TCO_E_RANGE, "stages[1].after", NULL);
    st[1].after = 0;
    st[0].after = 0;
    refused(&f, st, 3, TCO_E_RANGE, "stages[0].after", "the first stage");
    st[0].after = TCO_STAGE_START;
    /* kind and versions. */
    st[2].kind = 0;
    refused(&f, st, 3, TCO_E_RANGE, "stages[2].kind", "allowed 1");
    st[2].kind = 10;
    refused(&f, st, 3, TCO_E_RANGE, "stages[2].kind", "to 9 (TCO_STAGE_SERVING)");
    st[2].kind = TCO_STAGE_EVALUATION;
    st[2].versions_kept = -1;
    refused(&f, st, 3, TCO_E_RANGE, "stages[2].versions_kept", "allowed 0 to 1000000");
    st[2].versions_kept = 0;
    /* Handles: NULL, unfrozen, of the wrong kind. */
    refused(NULL, st, 3, TCO_E_NULL, "topology", NULL);
    st[2].workload = NULL;
    refused(&f, st, 3, TCO_E_NULL, "stages[2].workload", NULL);
    st[2].workload = f.w[3];
    refused(&f, st, 3, TCO_E_NOT_FROZEN, "stages[2].workload", NULL);
    st[2].workload = (const tco_workload *)(const void *)f.p;
    refused(&f, st, 3, TCO_E_TYPE, "", "stages[2].workload: the workload given is a pricing handle");
    st[2].workload = f.w[2];
    fixture g = f;
    g.t = (tco_topology *)(void *)f.p;
    refused(&g, st, 3, TCO_E_TYPE, "", "topology: the topology given is a pricing handle");
    g = f;
    g.p = NULL;
    refused(&g, st, 3, TCO_E_NULL, "pricing", NULL);
    /* Counts and sizes. */
    refused(&f, st, 0, TCO_E_RANGE, "n", "allowed 1 to 256");
    refused(&f, st, 257, TCO_E_RANGE, "n", NULL);
    st[1].size = sizeof st[1] + 8; /* not the stride of the array */
    refused(&f, st, 3, TCO_E_SIZE, "stages[1].size", NULL);
    st[1].size = sizeof st[1];
    st[0].size = 8;
    refused(&f, st, 3, TCO_E_SIZE, "stages[0].size", NULL);
    st[0].size = sizeof st[0] + 4; /* not a multiple of 8 */
    refused(&f, st, 1, TCO_E_SIZE, "stages[0].size", "a multiple of 8");
    st[0].size = 1032; /* past the 1 KiB bound on an input struct */
    refused(&f, st, 1, TCO_E_SIZE, "stages[0].size", "stages[0].size = 1032");
    st[0].size = sizeof st[0];
    /* A stage the estimate refuses, named as the stage (its label without
     * a name) and the parameter the estimate names: 1e12 parameters' state
     * (16 B each, 1.6e13 B over 16 accelerators, tensor 4, ZeRO 1) does
     * not fit 80 GB. */
    tco_workload *huge;
    assert_int_equal(tco_workload_new(&huge, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(huge, TCO_P_JOB_ACCELERATORS, 16, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(huge, TCO_P_PARAMS_TOTAL, 1e12, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(huge, TCO_P_TENSOR_PARALLEL, 4, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(huge, TCO_P_PIPELINE_PARALLEL, 1, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(huge, NULL), TCO_OK);
    tco_stage alone[1] = { stage(TCO_STAGE_PRETRAINING, "", huge, TCO_STAGE_START, 0) };
    refused(&f, alone, 1, TCO_E_INCONSISTENT, "zero_stage", "stages[0]: ");
    tco_workload_free(huge);
    /* A newer caller's field this library cannot read. */
    struct { tco_stage s; double extra; } big[1];
    memset(big, 0, sizeof big);
    big[0].s = st[0];
    big[0].s.size = sizeof big[0];
    assert_int_equal(tco_programme_compute(&(tco_programme){ .size = sizeof(tco_programme) }, NULL, 0, &big[0].s, 1,
                                           f.t, f.p, NULL),
                     TCO_OK);
    big[0].extra = 1;
    refused(&f, &big[0].s, 1, TCO_E_SIZE, "stages[0].size", NULL);
    /* At the 1 KiB bound itself (core.h's INPUT_MAX_SIZE) the size is
     * allowed: a zero tail is read, a set one named as set, not as past. */
    struct { tco_stage s; unsigned char tail[1024 - sizeof(tco_stage)]; } edge[1];
    memset(edge, 0, sizeof edge);
    edge[0].s = st[0];
    edge[0].s.size = sizeof edge[0];
    assert_int_equal(sizeof edge[0], 1024);
    assert_int_equal(tco_programme_compute(&(tco_programme){ .size = sizeof(tco_programme) }, NULL, 0, &edge[0].s, 1,
                                           f.t, f.p, NULL),
                     TCO_OK);
    edge[0].tail[sizeof edge[0].tail - 1] = 1;
    refused(&f, &edge[0].s, 1, TCO_E_SIZE, "stages[0].size", "stages[0].size = 1024, and bytes past");

    tco_error err = TCO_ERROR_INIT;
    tco_programme out = { .size = 8 };
    assert_int_equal(tco_programme_compute(&out, NULL, 0, st, 3, f.t, f.p, &err), TCO_E_SIZE);
    assert_non_null(strstr(err.message, "tco_programme.size = 8"));
    out.size = 70000;
    assert_int_equal(tco_programme_compute(&out, NULL, 0, st, 3, f.t, f.p, &err), TCO_E_SIZE);
    /* 64 KiB itself is the largest size allowed: filled, the rest zeroed */
    unsigned char *most = malloc(65536);
    assert_non_null(most);
    memset(most, 0xee, 65536);
    size_t size_max = 65536;
    memcpy(most, &size_max, sizeof size_max);
    assert_int_equal(tco_programme_compute((tco_programme *)(void *)most, NULL, 0, st, 3, f.t, f.p, &err), TCO_OK);
    assert_true(most[65535] == 0 && most[sizeof(tco_programme)] == 0);
    free(most);
    out.size = sizeof out;
    tco_stage_result res[3];
    assert_int_equal(tco_programme_compute(&out, res, 12, st, 3, f.t, f.p, &err), TCO_E_SIZE);
    assert_string_equal(err.param_name, "result_size");
    assert_int_equal(tco_programme_compute(&out, res, sizeof res[0] + 4, st, 3, f.t, f.p, &err), TCO_E_SIZE);
    assert_int_equal(tco_programme_compute(&out, res, 0, st, 3, f.t, f.p, &err), TCO_E_SIZE);
    assert_int_equal(tco_programme_compute(&out, NULL, sizeof res[0], st, 3, f.t, f.p, &err), TCO_E_NULL);
    assert_int_equal(tco_programme_compute(NULL, NULL, 0, st, 3, f.t, f.p, &err), TCO_E_NULL);
    assert_int_equal(tco_programme_compute(&out, NULL, 0, NULL, 3, f.t, f.p, &err), TCO_E_NULL);
    fixture_free(&f);
}

/* Results larger than this version's struct: zeros past it; smaller ones
 * are refused; the programme as an older, shorter struct. */
static void test_sizes_and_names(void **state)
{
    (void)state;
    fixture f;
    cluster(&f);
    f.w[0] = workload(16, 1e21, 1);
    tco_stage st[1] = { stage(TCO_STAGE_PRETRAINING, "pre", f.w[0], TCO_STAGE_START, 1) };
    struct { tco_stage_result r; double more[3]; } big[1];
    memset(big, 0xee, sizeof big);
    tco_programme g = { .size = sizeof g };
    assert_int_equal(tco_programme_compute(&g, &big[0].r, sizeof big[0], st, 1, f.t, f.p, NULL), TCO_OK);
    assert_true(big[0].r.size == sizeof big[0]);
    assert_true(big[0].more[0] == 0 && big[0].more[2] == 0);
    assert_true(big[0].r.total > 0);
    assert_string_equal(tco_stage_kind_name(TCO_STAGE_PRETRAINING), "pretraining");
    assert_string_equal(tco_stage_kind_name(TCO_STAGE_SUPERVISED_FINE_TUNING), "supervised_fine_tuning");
    assert_string_equal(tco_stage_kind_name(TCO_STAGE_ABLATION), "ablation");
    assert_string_equal(tco_stage_kind_name(TCO_STAGE_DATA_PIPELINE), "data_pipeline");
    assert_string_equal(tco_stage_kind_name(TCO_STAGE_SERVING), "serving");
    assert_null(tco_stage_kind_name(0));
    assert_null(tco_stage_kind_name(10));

    /* A caller of the first version: stages of 40 bytes (no request
     * members) and results of the first version's size, never written
     * past. */
    assert_int_equal(offsetof(tco_stage, pipeline), 40);
    struct { unsigned char b[40]; } old[1];
    memcpy(old, st, 40);
    size_t v1 = offsetof(tco_stage, pipeline);
    memcpy(old[0].b, &v1, sizeof v1);
    size_t r1 = offsetof(tco_stage_result, tokens);
    unsigned char rbuf[sizeof(tco_stage_result) + 8];
    memset(rbuf, 0xee, sizeof rbuf);
    tco_programme g1 = { .size = offsetof(tco_programme, cluster_hours) };
    assert_int_equal(tco_programme_compute(&g1, (tco_stage_result *)(void *)rbuf, r1, (const tco_stage *)(void *)old, 1,
                                           f.t, f.p, NULL),
                     TCO_OK);
    assert_true(rbuf[r1] == 0xee && g1.size == offsetof(tco_programme, cluster_hours));
    tco_stage_result r0;
    memcpy(&r0, rbuf, r1);
    assert_true(r0.total == big[0].r.total && g1.total == g.total);
    fixture_free(&f);
}

/* The data pipeline and serving as stages (doc/model.md, section 21, "The
 * data pipeline and serving"). 16 H100 on demand at 4 and reserved at
 * 2.5 a hour. The pipeline pulls 2 PB of raw data and prepares it on 50
 * CPU nodes at 10 node-h/TB, 2 a node-hour; deduplication keeps half,
 * compression 0.8 of that; 0.045 a GB of NAT; 0.0004 per 1,000 reads of
 * 16 MiB:
 *   node-hours = 2000 TB x 10 = 20,000, so it lasts 20,000 / 50 = 400 h;
 *   preprocessing 20,000 x 2 = 40,000 (compute); NAT 2e6 GB x 0.045 = 90,000
 *   (network); prepared 2e15 x 0.5 x 0.8 = 8e14 B = 800,000 GB; the
 *   pretraining's tokens read at 4 B each, compressed 0.8, one run:
 *   tokens x 3.2 / 16 MiB / 1000 x 0.0004 (storage; section 23).
 * Pretraining (16 accelerators, 3 versions of 1e12 B) follows it:
 * [400, 400 + HA); serving follows that for a month of 730.5 h at one
 * request a second, [400 + HA, 400 + HA + 730.5): its total is
 * tco_serving_compute's, in compute, apart from the cluster.
 * Store: the 800,000 GB from hour 400 to the end, the 3,000 GB from
 * 400 + HA: lifecycle = (800,000 x (HA + 730.5) + 3,000 x 730.5) / 730.5 x 0.02.
 * The cluster is held HA of the makespan: utilisation 1. */
static void story_scen(fixture *f)
{
    cluster(f);
    tco_pricing_free(f->p);
    assert_int_equal(tco_pricing_new(&f->p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(f->p, TCO_P_STORAGE_HOT_PER_GB_MONTH, HOT, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(f->p, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, 4, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(f->p, TCO_P_RESERVED_PER_ACCEL_HOUR, 2.5, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(f->p, NULL), TCO_OK);
    f->w[0] = workload(16, 1e21, 1);
    assert_int_equal(tco_workload_clone(&f->w[1], f->w[0], NULL), TCO_OK); /* the model served: its shape */
    assert_int_equal(tco_workload_set(f->w[1], TCO_P_LAYERS, 24, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(f->w[1], TCO_P_INTERRUPTIBLE_SHARE, 0, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(f->w[1], NULL), TCO_OK);
}

static void story_requests(tco_pipeline_request *pq, tco_serve_request *sq, const double *rate)
{
    tco_pipeline_request_init(pq);
    pq->raw_bytes = 2e15;
    pq->preprocess_cpu_node_hours_per_tb = 10;
    pq->cpu_node_hour_price = 2;
    pq->dedup_kept_share = 0.5;
    pq->compression_ratio = 0.8;
    pq->nat_per_gb = 0.045;
    pq->request_price_per_1000 = 0.0004;
    tco_serve_request_init(sq);
    sq->rate = rate;
    sq->n = 1;
    sq->interval_seconds = HOURS_PER_MONTH * 3600; /* one constant rate for a month */
}

static void story_stages(tco_stage st[3], const fixture *f, const tco_pipeline_request *pq,
                         const tco_serve_request *sq)
{
    st[0] = stage(TCO_STAGE_DATA_PIPELINE, "web data", f->w[0], TCO_STAGE_START, 0);
    st[0].pipeline = pq;
    st[0].cpu_nodes = 50;
    st[1] = stage(TCO_STAGE_PRETRAINING, "pretrain", f->w[0], 0, 3);
    st[2] = stage(TCO_STAGE_SERVING, "serve", f->w[1], 1, 0);
    st[2].serving = sq;
}

static void test_pipeline_and_serving(void **state)
{
    (void)state;
    fixture f;
    story_scen(&f);
    const double rate[1] = { 1 };
    tco_pipeline_request pq;
    tco_serve_request sq;
    story_requests(&pq, &sq, rate);
    tco_stage st[3];
    story_stages(st, &f, &pq, &sq);
    tco_estimate a = estimate(&f, f.w[0]);
    tco_serving sv = { .size = sizeof sv };
    assert_int_equal(tco_serving_compute(&sv, NULL, NULL, 0, &sq, f.t, f.w[1], f.p, NULL), TCO_OK);
    tco_stage_result res[3];
    tco_programme g = run(&f, st, 3, res);
    identities(&g, res, 3);

    double HA = a.held_hours, reads = a.tokens * 4 * 0.8 / 16777216.0 / 1000 * 0.0004;
    /* The pipeline: 400 h on CPU nodes, its lines in compute, storage, network. */
    assert_true(res[0].kind == TCO_STAGE_DATA_PIPELINE && res[0].start_hours == 0);
    assert_rel(res[0].end_hours, 400, 1e-15);
    assert_rel(res[0].cpu_node_hours, 20000, 1e-15);
    assert_rel(res[0].cost[TCO_CAT_COMPUTE], 40000, 1e-15);
    assert_rel(res[0].cost[TCO_CAT_NETWORK], 90000, 1e-15);
    assert_rel(res[0].cost[TCO_CAT_STORAGE], reads, 1e-14);
    assert_rel(res[0].total, 130000 + reads, 1e-15);
    assert_rel(res[0].store_gb, 800000, 1e-15);
    assert_true(res[0].accelerators == 0 && res[0].runs == 0 && res[0].cluster_share == 1);
    /* Pretraining starts when the data is ready, alone on the cluster: its estimate. */
    assert_true(res[1].start_hours == res[0].end_hours && res[1].total == a.total);
    assert_rel(res[1].tokens, a.tokens, 1e-15);
    /* Serving: a month after the pretraining, priced as tco_serving_compute prices it. */
    assert_true(res[2].start_hours == res[1].end_hours);
    assert_rel(res[2].end_hours - res[2].start_hours, HOURS_PER_MONTH, 1e-12);
    assert_true(res[2].total == sv.total_cost && res[2].cost[TCO_CAT_COMPUTE] == sv.total_cost);
    assert_true(res[2].cost_per_million_tokens == sv.cost_per_million_tokens);
    assert_true(res[2].tokens == sv.prompt_tokens + sv.output_tokens);
    assert_rel(res[2].tokens, HOURS_PER_MONTH * 3600 * (1024 + 256), 1e-12); /* the request's defaults */
    assert_true(res[2].fleet_peak_accelerators == sv.peak_accelerators && res[2].accelerators == 0);
    assert_true(res[2].fleet_accelerator_hours == sv.accelerator_hours);
    /* The programme. */
    double M = 400 + HA + HOURS_PER_MONTH;
    assert_rel(g.makespan_hours, M, 1e-15);
    assert_rel(g.cluster_hours, HA, 1e-12);
    assert_rel(g.utilisation, 1, 1e-12);
    assert_true(g.peak_accelerators == 16);
    assert_rel(g.storage_lifecycle, (800000 * (HA + HOURS_PER_MONTH) + 3000 * HOURS_PER_MONTH) / HOURS_PER_MONTH * HOT,
               1e-12);
    assert_rel(g.store_gb, 803000, 1e-15);
    assert_true(g.pipeline_total == res[0].total && g.serving_total == res[2].total);
    assert_true(g.served_tokens == res[2].tokens);
    assert_rel(g.cost_per_million_tokens_served, sv.cost_per_million_tokens, 1e-14);
    assert_true(g.runs == 1);
    assert_rel(g.cost_per_experiment, g.total - sv.total_cost, 1e-15);
    assert_rel(g.total, 130000 + reads + a.total + sv.total_cost + g.storage_lifecycle, 1e-15);

    /* A request keeping the prepared data 2 months: stored that long, not at the end. */
    pq.storage_months = 2;
    g = run(&f, st, 3, res);
    assert_rel(g.storage_lifecycle, 800000 * 2 * HOT + 3000 * HOURS_PER_MONTH / HOURS_PER_MONTH * HOT, 1e-12);
    assert_rel(g.store_gb, 800000 * (400 + 2 * HOURS_PER_MONTH >= M) + 3000, 1e-15);
    fixture_free(&f);
}

/* A pipeline or serving stage with its request missing, a request on
 * another kind, CPU nodes out of range, versions kept, a request's bad
 * field: each refused naming the stage and the field, nothing written. */
static void test_story_errors(void **state)
{
    (void)state;
    fixture f;
    story_scen(&f);
    const double rate[1] = { 1 };
    tco_pipeline_request pq;
    tco_serve_request sq;
    story_requests(&pq, &sq, rate);
    tco_stage st[3];
    story_stages(st, &f, &pq, &sq);

    st[0].pipeline = NULL;
    refused(&f, st, 3, TCO_E_NULL, "stages[0].pipeline", "stages[0] (\"web data\") is a data_pipeline stage");
    st[0].pipeline = &pq;
    st[2].serving = NULL;
    refused(&f, st, 3, TCO_E_NULL, "stages[2].serving", "stages[2].serving must not be NULL");
    st[2].serving = &sq;
    st[1].pipeline = &pq;
    refused(&f, st, 3, TCO_E_INCONSISTENT, "stages[1].pipeline", "only a data_pipeline stage reads one");
    st[1].pipeline = NULL;
    st[1].serving = &sq;
    refused(&f, st, 3, TCO_E_INCONSISTENT, "stages[1].serving", "only a serving stage reads one");
    st[1].serving = NULL;
    const double bad_nodes[] = { 0, 1.5, 2e6, -1 };
    for (size_t k = 0; k < 4; k++) {
        st[0].cpu_nodes = bad_nodes[k];
        refused(&f, st, 3, TCO_E_RANGE, "stages[0].cpu_nodes", "allowed a whole number 1 to 1e+06");
    }
    st[0].cpu_nodes = NAN;
    refused(&f, st, 3, TCO_E_NOT_FINITE, "stages[0].cpu_nodes", NULL);
    st[0].cpu_nodes = 50;
    st[1].cpu_nodes = 4;
    refused(&f, st, 3, TCO_E_RANGE, "stages[1].cpu_nodes", "allowed 0 only");
    st[1].cpu_nodes = 0;
    st[2].versions_kept = 1;
    refused(&f, st, 3, TCO_E_RANGE, "stages[2].versions_kept", "allowed 0 only, for a serving stage");
    st[2].versions_kept = 0;
    st[0].versions_kept = 2;
    refused(&f, st, 3, TCO_E_RANGE, "stages[0].versions_kept",
            "= 2: allowed 0 only, for a data_pipeline stage (it writes no checkpoints; its prepared data joins the store)");
    st[0].versions_kept = 0;
    pq.dedup_kept_share = 2;
    refused(&f, st, 3, TCO_E_RANGE, "stages[0].pipeline.dedup_kept_share",
            "stages[0] (\"web data\"), its pipeline request: pipeline.dedup_kept_share = 2 is out of range");
    pq.dedup_kept_share = 0.5;
    sq.time_per_output_token = 0;
    refused(&f, st, 3, TCO_E_RANGE, "stages[2].serving.time_per_output_token", "stages[2] (\"serve\"), its serving request");
    sq.time_per_output_token = 1e-6; /* below what one replica reaches */
    refused(&f, st, 3, TCO_E_INCONSISTENT, "stages[2].serving.time_per_output_token", NULL);
    sq.time_per_output_token = 0.1;
    st[2].cold_after_days = 30;
    refused(&f, st, 3, TCO_E_RANGE, "stages[2].cold_after_days", "allowed 0 only, for a serving stage");
    st[2].cold_after_days = 0;
    /* The served model's shape is a parameter: named as the workload names it. */
    st[2].workload = f.w[0];
    refused(&f, st, 3, TCO_E_INCONSISTENT, "layers", "stages[2] (\"serve\"), its serving request");
    fixture_free(&f);
}

/* A stage that waits for several: A (8, the longer) and B (8) from the
 * start, C (16) after B and also after A starts at max(HA, HB) = HA, when
 * both have ended (with after = B alone it would start at HB and find A's
 * 8 still held: 24 > 16). */
static void test_also_after(void **state)
{
    (void)state;
    fixture f;
    cluster(&f);
    f.w[0] = workload(8, 1e21, 1);
    f.w[1] = workload(8, 2e20, 1);
    f.w[2] = workload(16, 2e20, 1);
    double HA = estimate(&f, f.w[0]).held_hours, HB = estimate(&f, f.w[1]).held_hours;
    assert_true(HA > HB);
    const int32_t also[2] = { 0, 0 }; /* a stage named twice is waited for once */
    tco_stage st[3] = { stage(TCO_STAGE_PRETRAINING, "a", f.w[0], TCO_STAGE_START, 0),
                        stage(TCO_STAGE_SWEEP, "b", f.w[1], TCO_STAGE_START, 0),
                        stage(TCO_STAGE_SUPERVISED_FINE_TUNING, "c", f.w[2], 1, 0) };
    refused(&f, st, 3, TCO_E_INCONSISTENT, "", "stages[2] (\"c\") and stages[0] (\"a\") hold 24 accelerators");
    st[2].also_after = also;
    st[2].n_also_after = 2;
    tco_stage_result res[3];
    tco_programme g = run(&f, st, 3, res);
    identities(&g, res, 3);
    assert_true(res[2].start_hours == HA && res[2].after == 1);
    /* Bad lists: an index not earlier, a count without the array, an array without a count. */
    const int32_t later[1] = { 2 };
    st[2].also_after = later;
    st[2].n_also_after = 1;
    refused(&f, st, 3, TCO_E_RANGE, "stages[2].also_after[0]", "allowed an earlier stage, 0 to 1");
    const int32_t before_start[1] = { -1 };
    st[2].also_after = before_start;
    refused(&f, st, 3, TCO_E_RANGE, "stages[2].also_after[0]", "stages[2].also_after[0] = -1: allowed an earlier stage");
    st[2].also_after = NULL;
    refused(&f, st, 3, TCO_E_NULL, "stages[2].n_also_after", "give both");
    st[2].also_after = also;
    st[2].n_also_after = 0;
    refused(&f, st, 3, TCO_E_NULL, "stages[2].n_also_after", NULL);
    st[2].n_also_after = TCO_STAGES_MAX + 1;
    refused(&f, st, 3, TCO_E_RANGE, "stages[2].n_also_after", NULL);
    st[0].also_after = also;
    st[0].n_also_after = 1;
    st[2].n_also_after = 2;
    refused(&f, st, 3, TCO_E_RANGE, "stages[0].also_after[0]", "the first stage");
    fixture_free(&f);
}

/* The store down the tiers: test_sequential's 3 versions of 1,000 GB,
 * kept HB hours after the pretraining, with hot 0.02, warm 0.01 and cold
 * 0.004 a GB-month. Warm after d days (24 d < HB): 3000 x (24 d x 0.02 +
 * (HB - 24 d) x 0.01) / 730.5; cold after 2 d as well: the last HB - 48 d
 * hours at 0.004; cold after d alone: hot, then cold. */
static void test_tiers(void **state)
{
    (void)state;
    fixture f;
    cluster(&f);
    tco_pricing_free(f.p);
    assert_int_equal(tco_pricing_new(&f.p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(f.p, TCO_P_STORAGE_HOT_PER_GB_MONTH, 0.02, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(f.p, TCO_P_STORAGE_WARM_PER_GB_MONTH, 0.01, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(f.p, TCO_P_STORAGE_COLD_PER_GB_MONTH, 0.004, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(f.p, NULL), TCO_OK);
    f.w[0] = workload(16, 1e21, 1);
    f.w[1] = workload(8, 2e21, 1);
    double HB = estimate(&f, f.w[1]).held_hours, d = floor(HB / 24 / 4);
    assert_true(d >= 1 && 48 * d < HB);
    tco_stage st[2] = { stage(TCO_STAGE_PRETRAINING, "pretrain", f.w[0], TCO_STAGE_START, 3),
                        stage(TCO_STAGE_SUPERVISED_FINE_TUNING, "sft", f.w[1], 0, 0) };
    tco_stage_result res[2];
    st[0].warm_after_days = d;
    tco_programme g = run(&f, st, 2, res);
    assert_rel(g.storage_lifecycle, 3000 * (24 * d * 0.02 + (HB - 24 * d) * 0.01) / HOURS_PER_MONTH, 1e-12);
    st[0].cold_after_days = 2 * d;
    g = run(&f, st, 2, res);
    assert_rel(g.storage_lifecycle, 3000 * (24 * d * 0.02 + 24 * d * 0.01 + (HB - 48 * d) * 0.004) / HOURS_PER_MONTH,
               1e-12);
    identities(&g, res, 2);
    st[0].warm_after_days = 0;
    st[0].cold_after_days = d;
    g = run(&f, st, 2, res);
    assert_rel(g.storage_lifecycle, 3000 * (24 * d * 0.02 + (HB - 24 * d) * 0.004) / HOURS_PER_MONTH, 1e-12);
    /* Past the programme's end it never moves: all hot, as without tiers. */
    st[0].cold_after_days = 36500;
    g = run(&f, st, 2, res);
    assert_rel(g.storage_lifecycle, 3000 * HB * 0.02 / HOURS_PER_MONTH, 1e-12);
    /* Refused: cold before warm, out of range, not finite, on a serving stage. */
    st[0].warm_after_days = 2 * d;
    st[0].cold_after_days = d;
    refused(&f, st, 2, TCO_E_RANGE, "stages[0].cold_after_days", "allowed above warm_after_days");
    st[0].cold_after_days = 0;
    st[0].warm_after_days = -1;
    refused(&f, st, 2, TCO_E_RANGE, "stages[0].warm_after_days", "allowed 0 (never) or above 0 to 36500 days");
    st[0].warm_after_days = 36501;
    refused(&f, st, 2, TCO_E_RANGE, "stages[0].warm_after_days", NULL);
    st[0].warm_after_days = NAN;
    refused(&f, st, 2, TCO_E_NOT_FINITE, "stages[0].warm_after_days", NULL);
    fixture_free(&f);
}

/* A programme that costs nothing: one data pipeline of 1e12 B, 10 CPU
 * node-hours per TB on 1 node (10 h), every price 0 (as
 * tco_pipeline_request_init leaves them: CPU node-hours, requests,
 * ingress, NAT) on a pricing whose hot tier is free, so its 1,000 GB
 * (nothing deduplicated or compressed) cost 0 to keep. Total 0: the
 * shares are 0 (section 21), not 0 / 0. */
static void test_zero_total(void **state)
{
    (void)state;
    fixture f;
    cluster(&f);
    tco_pricing_free(f.p);
    assert_int_equal(tco_pricing_new(&f.p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(f.p, TCO_P_STORAGE_HOT_PER_GB_MONTH, 0, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(f.p, NULL), TCO_OK);
    f.w[0] = workload(16, 1e21, 1);
    tco_pipeline_request pq;
    tco_pipeline_request_init(&pq);
    pq.raw_bytes = 1e12;
    pq.preprocess_cpu_node_hours_per_tb = 10;
    tco_stage st = stage(TCO_STAGE_DATA_PIPELINE, "free data", f.w[0], TCO_STAGE_START, 0);
    st.pipeline = &pq;
    st.cpu_nodes = 1;
    tco_stage_result res;
    tco_programme g = run(&f, &st, 1, &res);
    assert_true(g.total == 0 && res.total == 0 && res.share == 0);
    for (size_t c = 0; c < tco_category_count(); c++)
        assert_true(g.share[c] == 0);
    assert_true(g.makespan_hours == 10 && g.store_gb == 1000);
    assert_rel(g.store_growth_gb_per_month, 1000 / (10 / HOURS_PER_MONTH), 1e-15);
    /* No preprocessing: the pipeline takes no time, M = 0, and the growth
     * and utilisation over it are 0 (section 21), not x / 0; its 1,000 GB
     * are stored all the same. */
    pq.preprocess_cpu_node_hours_per_tb = 0;
    g = run(&f, &st, 1, &res);
    assert_true(g.makespan_hours == 0 && g.cluster_hours == 0 && g.total == 0);
    assert_true(g.store_gb == 1000 && g.store_growth_gb_per_month == 0 && g.utilisation == 0);
    fixture_free(&f);
}

/* Two stages at once beyond the cluster, after a data pipeline that holds
 * none of it: the message names the other stage holding accelerators,
 * not the pipeline that runs beside them. */
static void test_overflow_names_a_holder(void **state)
{
    (void)state;
    fixture f;
    cluster(&f);
    f.w[0] = workload(16, 1e21, 1);
    tco_pipeline_request pq;
    tco_pipeline_request_init(&pq);
    pq.raw_bytes = 1e12;
    pq.preprocess_cpu_node_hours_per_tb = 10;
    tco_stage st[3] = { stage(TCO_STAGE_DATA_PIPELINE, "data", f.w[0], TCO_STAGE_START, 0),
                        stage(TCO_STAGE_PRETRAINING, "pre", f.w[0], TCO_STAGE_START, 0),
                        stage(TCO_STAGE_SUPERVISED_FINE_TUNING, "sft", f.w[0], TCO_STAGE_START, 0) };
    st[0].pipeline = &pq;
    st[0].cpu_nodes = 1;
    refused(&f, st, 3, TCO_E_INCONSISTENT, "", "stages[2] (\"sft\") and stages[1] (\"pre\") hold 32 accelerators at hour 0");
    fixture_free(&f);
}

/* TCO_STAGES_MAX stages, the most allowed, one after the other: each alone
 * on the cluster pays its estimate, and the programme their sum. */
static void test_most_stages(void **state)
{
    (void)state;
    fixture f;
    cluster(&f);
    f.w[0] = workload(8, 1e19, 1);
    static tco_stage st[TCO_STAGES_MAX];
    static tco_stage_result res[TCO_STAGES_MAX];
    for (int i = 0; i < TCO_STAGES_MAX; i++)
        st[i] = stage(TCO_STAGE_SUPERVISED_FINE_TUNING, NULL, f.w[0], i ? i - 1 : TCO_STAGE_START, 0);
    tco_programme g = run(&f, st, TCO_STAGES_MAX, res);
    tco_estimate e = estimate(&f, f.w[0]);
    assert_true(g.stages == TCO_STAGES_MAX && res[TCO_STAGES_MAX - 1].total == e.total);
    assert_rel(g.total, TCO_STAGES_MAX * e.total, 1e-12);
    fixture_free(&f);
}

/* Twenty stages, parallel and sequential, allocate nothing. */
static void test_no_allocation(void **state)
{
    (void)state;
    fixture f;
    cluster(&f);
    f.w[0] = workload(8, 1e20, 1);
    f.w[1] = workload(4, 1e19, 6);
    tco_stage st[20];
    for (int i = 0; i < 20; i++)
        st[i] = stage(i % 2 ? TCO_STAGE_SWEEP : TCO_STAGE_SUPERVISED_FINE_TUNING, NULL, f.w[i % 2],
                      i < 2 ? TCO_STAGE_START : i - 2, i % 3);
    tco_stage_result res[20];
    tco_programme g = { .size = sizeof g };
    for (int i = 0; i < 20; i++)
        res[i].size = sizeof res[i];
    size_t before = allocations;
    assert_int_equal(tco_programme_compute(&g, res, sizeof res[0], st, 20, f.t, f.p, NULL), TCO_OK);
    st[5].after = 7; /* and on failure */
    assert_int_equal(tco_programme_compute(&g, res, sizeof res[0], st, 20, f.t, f.p, NULL), TCO_E_RANGE);
    if (alloc_counting())
        assert_int_equal(allocations, before);
    st[5].after = 3;
    assert_int_equal(tco_programme_compute(&g, res, sizeof res[0], st, 20, f.t, f.p, NULL), TCO_OK);
    identities(&g, res, 20);
    assert_true(g.peak_accelerators <= 16);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequential),  cmocka_unit_test(test_parallel),
        cmocka_unit_test(test_sweep_waves), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_sizes_and_names), cmocka_unit_test(test_no_allocation),
        cmocka_unit_test(test_pipeline_and_serving), cmocka_unit_test(test_story_errors),
        cmocka_unit_test(test_also_after), cmocka_unit_test(test_tiers),
        cmocka_unit_test(test_zero_total),
        cmocka_unit_test(test_overflow_names_a_holder),
        cmocka_unit_test(test_most_stages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
