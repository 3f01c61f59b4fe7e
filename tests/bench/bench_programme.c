/* Benchmark of tco_programme_compute. Target: a programme of 20 stages
 * under 20 us (issue: a programme of stages), allocation-free.
 *
 * The baseline, measured in the same run, is one tco_estimate_compute on
 * the pretraining's handles: a programme derives each stage's run twice
 * (once to lay out the time line, once to price it), so 20 stages cost
 * about 40 estimates plus the time line. The stages alternate between
 * fine-tunes one after another and sweeps of 6 runs alongside them. Each
 * figure is the median of ROUNDS rounds of CALLS calls. Exits 1 only when
 * a call fails. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <string.h>

#include <tco.h>
#include "bench.h"

#define ROUNDS 9
#define CALLS 2000
#define STAGES 20

int main(void)
{
    tco_topology *t;
    tco_workload *a, *b;
    tco_pricing *p;
    if (tco_topology_new(&t, NULL) || tco_topology_freeze(t, NULL) || tco_pricing_new(&p, NULL) ||
        tco_pricing_freeze(p, NULL) || tco_workload_new(&a, NULL) ||
        tco_workload_set(a, TCO_P_JOB_ACCELERATORS, 512, NULL) || tco_workload_freeze(a, NULL) ||
        tco_workload_new(&b, NULL) || tco_workload_set(b, TCO_P_JOB_ACCELERATORS, 64, NULL) ||
        tco_workload_set(b, TCO_P_TOKENS, 1e10, NULL) || tco_workload_set(b, TCO_P_RUNS, 6, NULL) ||
        tco_workload_freeze(b, NULL))
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
    tco_stage_result res[STAGES];
    tco_programme g = { .size = sizeof g };
    tco_estimate e = { .size = sizeof e };
    tco_error err = TCO_ERROR_INIT;
    if (tco_programme_compute(&g, res, sizeof res[0], st, STAGES, t, p, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    double base[ROUNDS], prog[ROUNDS], sink = 0;
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
    }
    double bm = median(base, ROUNDS), pm = median(prog, ROUNDS);
    printf("programme of stages, median of %d rounds of %d calls (checksum %.6g)\n", ROUNDS, CALLS, sink);
    printf("  baseline tco_estimate_compute     %8.3f us\n", bm * 1e6);
    printf("  tco_programme_compute, %d stages  %8.3f us   %5.1f x baseline   target < 20 us\n", STAGES, pm * 1e6,
           pm / bm);
    tco_topology_free(t);
    tco_workload_free(a);
    tco_workload_free(b);
    tco_pricing_free(p);
    return 0;
}
