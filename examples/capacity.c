/* tco-capacity: a year of bursty demand at one-minute resolution, and how
 * much of it to reserve. Prints the optimal baseline, the fixed and elastic
 * split, the savings, the peaks, and what log sampling and retention cost. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <tco.h>

#define MINUTES_PER_YEAR 525600
#define PI 3.14159265358979323846

static void die(const char *what, const tco_error *err)
{
    fprintf(stderr, "tco-capacity: %s: %s (%s)\n", what, err->message, tco_status_name(err->code));
    exit(1);
}

/* A small deterministic generator (xorshift64*), so every run prints the
 * same report. */
static double uniform(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (double)((*s * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

/* Accelerators wanted each minute: a steady base of pretraining, a daily
 * wave of experiments, and bursts of sweeps (a few days each, a few times a
 * month) that double the load. */
static void bursty_year(double *demand)
{
    uint64_t seed = 20261130;
    double burst = 0;
    for (int m = 0; m < MINUTES_PER_YEAR; m++) {
        double day = m / 1440.0;
        if (burst > 0)
            burst -= 1;
        else if (uniform(&seed) < 1.0 / (9 * 1440)) /* a burst every ~9 days */
            burst = 1440 * (1 + 3 * uniform(&seed));
        double wave = 128 * (1 + sin(2 * PI * day - PI / 2)) / 2;
        double noise = 32 * (uniform(&seed) - 0.5);
        demand[m] = floor(fmax(0, 512 + wave + noise + (burst > 0 ? 512 : 0)));
    }
}

int main(void)
{
    double *demand = malloc(MINUTES_PER_YEAR * sizeof *demand);
    if (!demand)
        return 1;
    bursty_year(demand);

    tco_error err = TCO_ERROR_INIT;
    tco_topology *t = NULL;
    tco_workload *w = NULL;
    tco_pricing *p = NULL;
    if (tco_topology_new(&t, &err) || tco_topology_freeze(t, &err) || tco_workload_new(&w, &err) ||
        tco_workload_set(w, TCO_P_METRICS_INTERVAL_SECONDS, 5, &err) || tco_workload_freeze(w, &err) ||
        tco_pricing_new(&p, &err) || tco_pricing_freeze(p, &err))
        die("building the scenario", &err);

    double hour = 1.0 / 60;
    tco_demand_stats st = { .size = sizeof st };
    tco_split best = { .size = sizeof best }, peak = { .size = sizeof peak };
    if (tco_demand_stats_compute(&st, demand, MINUTES_PER_YEAR, hour, &err) ||
        tco_capacity_split(&best, demand, MINUTES_PER_YEAR, hour, t, w, p, &err) ||
        tco_capacity_split_at(&peak, st.peak, demand, MINUTES_PER_YEAR, hour, t, w, p, &err))
        die("splitting the demand", &err);
    static const double pct[] = { 50, 90, 99 };
    double q[3], above[2], thresholds[2] = { 768, 1024 }, unmet1;
    if (tco_demand_percentiles(q, pct, 3, demand, MINUTES_PER_YEAR, &err) ||
        tco_demand_time_above(above, thresholds, 2, demand, MINUTES_PER_YEAR, hour, &err) ||
        tco_capacity_for_unmet(&unmet1, 0.01, demand, MINUTES_PER_YEAR, hour, &err))
        die("describing the demand", &err);

    printf("libtco %s: a year of bursty demand, one point a minute\n\n", tco_version_string());
    printf("  demand     peak %.0f, mean %.1f (peak/average %.2f); median %.0f, p90 %.0f, p99 %.0f\n",
           st.peak, st.mean, st.peak_to_average, q[0], q[1], q[2]);
    printf("             above %.0f for %.0f h, above %.0f for %.0f h of %.0f\n", thresholds[0], above[0],
           thresholds[1], above[1], st.hours);
    printf("             %.0f accelerators leave 1%% of the accelerator-hours unserved\n\n", unmet1);

    printf("  reserve    %.0f accelerators (demand exceeds them %.1f%% of the time;\n", best.baseline,
           100 * best.exceedance);
    printf("             the optimum lets it exceed them reserved/elastic rate = %.1f%%)\n",
           100 * best.target_exceedance);
    printf("             used %.1f%% of the time they are paid for\n", 100 * best.reserved_utilisation);
    printf("  elastic    %.0f accelerator-hours on demand, %.0f on spot (+%.2f%% for interruptions)\n\n",
           best.on_demand_accelerator_hours, best.spot_accelerator_hours, 100 * best.spot_overhead_share);

    printf("  %-28s %14s %14s %14s\n", "", "fixed", "elastic", "total");
    printf("  %-28s %14.0f %14.0f %14.0f\n", "optimal baseline", best.fixed_cost, best.elastic_cost,
           best.total_cost);
    printf("  %-28s %14.0f %14.0f %14.0f\n", "reserve for the peak", peak.fixed_cost, peak.elastic_cost,
           peak.total_cost);
    printf("  %-28s %14s %14.0f %14.0f\n\n", "all on demand", "", best.all_on_demand_cost,
           best.all_on_demand_cost);
    printf("  savings    %.0f (%.1f%%) against all on demand, %.0f (%.1f%%) against reserving the peak\n\n",
           best.savings_vs_on_demand, 100 * best.savings_vs_on_demand / best.all_on_demand_cost,
           best.savings_vs_peak, 100 * best.savings_vs_peak / best.reserve_peak_cost);

    tco_logging logs = { .size = sizeof logs };
    if (tco_logging_compare(&logs, 30, 30, t, w, p, &err))
        die("pricing the monitoring", &err);
    printf("  monitoring the cluster: %.0f a month at 5 s sampling; %.0f at 30 s with 30-day retention\n",
           logs.cost_per_month, logs.proposed_cost_per_month);
    printf("             (%.0f%% less)\n", 100 * logs.savings_share);

    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    free(demand);
    return 0;
}
