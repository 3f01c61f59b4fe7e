/* Benchmark of tco_programme_compute. Target: a programme of 20 stages
 * under 20 us (issue: a programme of stages), allocation-free.
 *
 * The baseline, measured in the same run, is one tco_estimate_compute on
 * the pretraining's handles: a programme derives each stage's run twice
 * (once to lay out the time line, once to price it), so 20 stages cost
 * about 40 estimates plus the time line. The stages alternate between
 * fine-tunes one after another and sweeps of 6 runs alongside them. The
 * same 20 are priced again as a whole story: the first a data pipeline
 * (one tco_data_pipeline_compute, an estimate and its lines) that the
 * second stage follows, the last a serving stage (one tco_serving_compute)
 * over a day of SERVED hourly rates. Each figure is the median of ROUNDS
 * rounds of CALLS calls. Exits 1 only when a call fails. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <string.h>

#include <tco.h>
#include "bench.h"

#define ROUNDS 9
#define CALLS 2000
#define STAGES 20
#define SERVED 24

int main(void)
{
    tco_topology *t;
    tco_workload *a, *b, *m;
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_pricing_new(&p, NULL) ||
        tco_pricing_freeze(p, NULL) || tco_workload_new(&a, NULL) ||
        tco_workload_set(a, TCO_P_JOB_ACCELERATORS, 512, NULL) || tco_workload_freeze(a, NULL) ||
        tco_workload_new(&b, NULL) || tco_workload_set(b, TCO_P_JOB_ACCELERATORS, 64, NULL) ||
        tco_workload_set(b, TCO_P_TOKENS, 1e10, NULL) || tco_workload_set(b, TCO_P_RUNS, 6, NULL) ||
        tco_workload_freeze(b, NULL) || tco_workload_clone(&m, a, NULL) ||
        tco_workload_set(m, TCO_P_LAYERS, 80, NULL) || tco_workload_freeze(m, NULL))
        return 1;
    tco_stage st[STAGES];
    memset(st, 0, sizeof st);
    for (int i = 0; i < STAGES; i++) {
        st[i].size = sizeof st[i];
        st[i].kind = i == 0 ? TCO_STAGE_PRETRAINING : i % 2 ? TCO_STAGE_SWEEP : TCO_STAGE_SUPERVISED_FINE_TUNING;
        st[i].workload = i % 2 ? b : a;
        st[i].after = i < 2 ? TCO_STAGE_START : i - 2;
        st[i].versions_kept = i % 2 ? 0 : 2;
    }
    tco_stage story[STAGES];
    memcpy(story, st, sizeof st);
    tco_pipeline_request pq;
    tco_pipeline_request_init(&pq);
    pq.preprocess_cpu_node_hours_per_tb = 2;
    pq.cpu_node_hour_price = 1;
    double rate[SERVED];
    for (int i = 0; i < SERVED; i++)
        rate[i] = 2 + (i % 12);
    tco_serve_request sq;
    tco_serve_request_init(&sq);
    sq.rate = rate;
    sq.n = SERVED;
    sq.interval_seconds = 3600;
    story[0].kind = TCO_STAGE_DATA_PIPELINE;
    story[0].pipeline = &pq;
    story[0].cpu_nodes = 8;
    story[0].versions_kept = 0;
    story[1].after = 0; /* the first sweep reads the prepared data */
    story[STAGES - 1].kind = TCO_STAGE_SERVING;
    story[STAGES - 1].serving = &sq;
    story[STAGES - 1].workload = m; /* the model served: its shape */
    tco_stage_result res[STAGES];
    tco_programme g = { .size = sizeof g };
    tco_estimate e = { .size = sizeof e };
    tco_error err = TCO_ERROR_INIT;
    if (tco_programme_compute(&g, res, sizeof res[0], st, STAGES, t, p, &err) ||
        tco_programme_compute(&g, res, sizeof res[0], story, STAGES, t, p, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    double base[ROUNDS], prog[ROUNDS], whole[ROUNDS], sink = 0;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        for (int i = 0; i < CALLS; i++) {
            if (tco_estimate_compute(&e, t, a, p, NULL))
                return 1;
            sink += e.total;
        }
        base[r] = (now() - t0) / CALLS;
        t0 = now();
        for (int i = 0; i < CALLS; i++) {
            if (tco_programme_compute(&g, res, sizeof res[0], st, STAGES, t, p, NULL))
                return 1;
            sink += g.total;
        }
        prog[r] = (now() - t0) / CALLS;
        t0 = now();
        for (int i = 0; i < CALLS; i++) {
            if (tco_programme_compute(&g, res, sizeof res[0], story, STAGES, t, p, NULL))
                return 1;
            sink += g.total;
        }
        whole[r] = (now() - t0) / CALLS;
    }
    double bm = median(base, ROUNDS), pm = median(prog, ROUNDS), wm = median(whole, ROUNDS);
    printf("programme of stages, median of %d rounds of %d calls (checksum %.6g)\n", ROUNDS, CALLS, sink);
    printf("  baseline tco_estimate_compute     %8.3f us\n", bm * 1e6);
    printf("  tco_programme_compute, %d stages  %8.3f us   %5.1f x baseline   target < 20 us\n", STAGES, pm * 1e6,
           pm / bm);
    printf("  the same with a data pipeline and a serving stage (%d hourly rates)\n"
           "                                    %8.3f us   %5.1f x baseline   target < 20 us\n",
           SERVED, wm * 1e6, wm / bm);
    tco_topology_free(t);
    tco_workload_free(a);
    tco_workload_free(b);
    tco_workload_free(m);
    tco_pricing_free(p);
    return 0;
}
