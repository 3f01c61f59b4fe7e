/* tco-decide: the four questions a decision hangs on, for one 70B run on
 * 2T tokens (doc/model.md, sections 12 to 15):
 *   1. which of two clusters to rent: 1,024 H100 or 512 B200;
 *   2. when a migration pays back: moving 20 runs a year to the B200 at a
 *      one-off cost of migration and learning;
 *   3. what a 60-day deadline needs: the fewest H100, the cluster sized to
 *      the job;
 *   4. what the answer hangs on: the five inputs that move the total most,
 *      and the spread of the total when MFU and the hourly rate are
 *      uncertain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tco.h>

static void check(int rc, const char *what, const tco_error *err)
{
    if (rc == TCO_OK)
        return;
    fprintf(stderr, "tco-decide: %s: %s (%s)\n", what, err->message, tco_status_name(rc));
    exit(1);
}

typedef struct option {
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
} option;

/* An option: the accelerator, how many, its hourly rate, its one-off
 * migration cost, on the same run (a 70B model of 80 layers, 2T tokens,
 * 20 runs). */
static option option_of(const char *model, double accelerators, double rate, double migration)
{
    option o;
    tco_error err = TCO_ERROR_INIT;
    check(tco_topology_new(&o.t, &err), "topology", &err);
    check(tco_topology_set_text(o.t, TCO_P_ACCELERATOR_MODEL, model, &err), model, &err);
    check(tco_topology_set(o.t, TCO_P_ACCELERATORS, accelerators, &err), "accelerators", &err);
    check(tco_topology_freeze(o.t, &err), "topology", &err);
    check(tco_workload_new(&o.w, &err), "workload", &err);
    check(tco_workload_set(o.w, TCO_P_LAYERS, 80, &err), "layers", &err);
    check(tco_workload_set(o.w, TCO_P_HIDDEN_SIZE, 8192, &err), "hidden_size", &err);
    check(tco_workload_set(o.w, TCO_P_RUNS, 20, &err), "runs", &err);
    check(tco_workload_freeze(o.w, &err), "workload", &err);
    check(tco_pricing_new(&o.p, &err), "pricing", &err);
    check(tco_pricing_set(o.p, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, rate, &err), "rate", &err);
    check(tco_pricing_set(o.p, TCO_P_MIGRATION_COST, migration, &err), "migration", &err);
    check(tco_pricing_set(o.p, TCO_P_LEARNING_FTE_MONTHS, migration > 0 ? 6 : 0, &err), "learning", &err);
    check(tco_pricing_freeze(o.p, &err), "pricing", &err);
    return o;
}

static void option_free(option *o)
{
    tco_topology_free(o->t);
    tco_workload_free(o->w);
    tco_pricing_free(o->p);
}

int main(void)
{
    tco_error err = TCO_ERROR_INIT;
    option opt[2] = { option_of("H100-SXM", 1024, 4.0, 0), option_of("B200", 512, 8.0, 250000) };

    /* 1 and 2: the two options side by side, the B200 against the H100. */
    const tco_topology *ts[2] = { opt[0].t, opt[1].t };
    const tco_workload *ws[2] = { opt[0].w, opt[1].w };
    const tco_pricing *ps[2] = { opt[0].p, opt[1].p };
    tco_option cmp[2];
    cmp[0].size = cmp[1].size = sizeof cmp[0];
    check(tco_compare(cmp, sizeof cmp[0], 2, ts, ws, ps, &err), "compare", &err);
    printf("1. which cluster (20 runs of a 70B model on 2T tokens, rented on demand)\n");
    const char *names[2] = { "1,024 H100 at 4.00/h", "512 B200 at 8.00/h" };
    for (int i = 0; i < 2; i++)
        printf("   %-22s %12.0f total  %6.2f per million tokens  %6.2f per useful accelerator-hour\n",
               names[i], cmp[i].total, cmp[i].cost_per_million_tokens,
               cmp[i].cost_per_effective_accelerator_hour);
    printf("2. the migration to the B200 (250,000 and 6 engineer-months once)\n");
    if (cmp[1].pays_back)
        printf("   saves %.0f a run: paid back after %.1f runs, %.1f months\n", cmp[1].saving_per_run,
               cmp[1].payback_runs, cmp[1].payback_months);
    else
        printf("   never pays back: it saves %.0f a run\n", cmp[1].saving_per_run);
    printf("   owning an H100 beats renting it above %.0f%% utilisation\n",
           100 * cmp[0].breakeven_utilisation);

    /* 3: the fewest H100 for a 60-day run, the cluster sized to the job
     * (a cluster smaller than the answer is raised to it). */
    tco_target target = { sizeof target, TCO_SOLVE_ACCELERATORS, 60, 0, 4096, 0 };
    tco_sizing sized = { .size = sizeof sized };
    option small = option_of("H100-SXM", 64, 4.0, 0);
    check(tco_size(&sized, &target, small.t, small.w, small.p, &err), "size", &err);
    option_free(&small);
    printf("3. a 60-day deadline on H100\n");
    if (sized.feasible)
        printf("   needs %.0f accelerators: %.1f days a run, %.0f for the 20 runs\n", sized.accelerators,
               sized.wall_days, sized.total);
    else
        printf("   cannot be met with up to 4,096: the fastest takes %.1f days\n", sized.closest_wall_days);

    /* 4: what the total hangs on. */
    tco_swing rows[8];
    size_t n = 0;
    for (size_t i = 0; i < 8; i++)
        rows[i].size = sizeof rows[i];
    check(tco_sensitivity(rows, sizeof rows[0], 8, &n, 0.1, opt[0].t, opt[0].w, opt[0].p, &err), "sensitivity",
          &err);
    printf("4. what the H100 total hangs on (each input +-10%%)\n");
    for (size_t i = 0; i < 5 && i < n; i++) {
        tco_param_info info = { .size = sizeof info };
        check(tco_param_info_get(&info, rows[i].key, &err), "parameter", &err);
        printf("   %-32s %12.0f to %12.0f\n", info.name, rows[i].low_total, rows[i].high_total);
    }
    tco_uncertain inputs[2] = {
        { sizeof(tco_uncertain), TCO_P_MFU, TCO_DIST_TRIANGULAR, 0.30, 0.40, 0.45, 0, 0 },
        { sizeof(tco_uncertain), TCO_P_ON_DEMAND_PER_ACCEL_HOUR, TCO_DIST_UNIFORM, 3.5, 4.5, 0, 0, 0 },
    };
    size_t series = tco_monte_carlo_series();
    tco_summary *sum = calloc(series, sizeof *sum);
    double correlation[2];
    if (!sum)
        return 1;
    for (size_t i = 0; i < series; i++)
        sum[i].size = sizeof sum[i];
    check(tco_monte_carlo(sum, sizeof sum[0], correlation, inputs, 2, 42, 20000, 0, opt[0].t, opt[0].w,
                          opt[0].p, &err),
          "monte carlo", &err);
    size_t total = 0; /* the series of the total */
    while (total + 1 < series && strcmp(tco_monte_carlo_series_name(total), "total") != 0)
        total++;
    printf("   with mfu triangular 0.30-0.40-0.45 and the rate uniform 3.50-4.50 (20,000 samples):\n");
    printf("   total P10 %.0f, P50 %.0f, P90 %.0f; rank correlation with the total: mfu %.2f, rate %.2f\n",
           sum[total].p10, sum[total].p50, sum[total].p90, correlation[0], correlation[1]);

    free(sum);
    option_free(&opt[0]);
    option_free(&opt[1]);
    return 0;
}
