/* tco-report: prices the built-in scenario (the parameter table's defaults:
 * a 70B-parameter model on 2T tokens on 1,024 H100) rented on demand and
 * owned, and prints the two side by side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tco.h>

static void die(const char *what, const tco_error *err)
{
    fprintf(stderr, "tco-report: %s: %s (%s)\n", what, err->message, tco_status_name(err->code));
    exit(1);
}

/* 1234567.8 -> "1,234,568" */
static const char *money(double v, char *buf, size_t cap)
{
    char digits[64];
    snprintf(digits, sizeof digits, "%.0f", v < 0 ? -v : v);
    size_t n = strlen(digits), j = 0;
    if (v < 0 && j + 1 < cap)
        buf[j++] = '-';
    for (size_t i = 0; i < n && j + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[j++] = ',';
        buf[j++] = digits[i];
    }
    buf[j] = '\0';
    return buf;
}

int main(void)
{
    tco_error err = TCO_ERROR_INIT;
    tco_topology *rented = NULL, *owned = NULL;
    tco_workload *work = NULL;
    tco_pricing *prices = NULL;
    if (tco_topology_new(&rented, &err) || tco_topology_freeze(rented, &err) ||
        tco_topology_clone(&owned, rented, &err) ||
        tco_topology_set(owned, TCO_P_OWNED_SHARE, 1, &err) || tco_topology_freeze(owned, &err) ||
        tco_workload_new(&work, &err) || tco_workload_freeze(work, &err) ||
        tco_pricing_new(&prices, &err) || tco_pricing_freeze(prices, &err))
        die("building the scenario", &err);

    tco_estimate r = { .size = sizeof r }, o = { .size = sizeof o };
    if (tco_estimate_compute(&r, rented, work, prices, &err))
        die("pricing it rented", &err);
    if (tco_estimate_compute(&o, owned, work, prices, &err))
        die("pricing it owned", &err);

    const char *model, *currency, *date, *source;
    double params, tokens, mfu, od, capex, years, kwh;
    tco_topology_get_text(rented, TCO_P_ACCELERATOR_MODEL, &model, NULL);
    tco_workload_get(work, TCO_P_PARAMS_TOTAL, &params, NULL);
    tco_workload_get(work, TCO_P_TOKENS, &tokens, NULL);
    tco_workload_get(work, TCO_P_MFU, &mfu, NULL);
    tco_pricing_get_text(prices, TCO_P_CURRENCY, &currency, NULL);
    tco_pricing_get_text(prices, TCO_P_PRICE_DATE, &date, NULL);
    tco_pricing_get_text(prices, TCO_P_PRICE_SOURCE, &source, NULL);
    /* the rates charged: the table's, or the accelerator's list prices */
    if (tco_rate(&od, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, rented, prices, &err) != TCO_OK ||
        tco_rate(&capex, TCO_P_CAPEX_PER_ACCELERATOR, rented, prices, &err) != TCO_OK)
        die("the rates", &err);
    tco_pricing_get(prices, TCO_P_DEPRECIATION_YEARS, &years, NULL);
    tco_pricing_get(prices, TCO_P_ELECTRICITY_PER_KWH, &kwh, NULL);

    char a[32], b[32];
    printf("libtco %s: what one training run costs\n\n", tco_version_string());
    printf("  %.0fB-parameter model, %.1fT tokens, %.0f x %s in %.0f nodes, MFU %.0f%%\n",
           params / 1e9, tokens / 1e12, r.cluster_accelerators, model, r.cluster_nodes, mfu * 100);
    printf("  prices in %s as of %s (%s)\n\n", currency, date, source);

    printf("  %-10s %15s %7s   %15s %7s\n", "category", "rented", "share", "owned", "share");
    printf("  %-10s %15s %7s   %15s %7s\n", "", "(on demand)", "", "(capex)", "");
    for (size_t c = 0; c < tco_category_count(); c++)
        printf("  %-10s %15s %6.1f%%   %15s %6.1f%%\n", tco_category_name((int32_t)c),
               money(r.cost[c], a, sizeof a), 100 * r.cost[c] / r.total,
               money(o.cost[c], b, sizeof b), 100 * o.cost[c] / o.total);
    printf("  %-10s %15s %7s   %15s\n\n", "total", money(r.total, a, sizeof a), "",
           money(o.total, b, sizeof b));

    printf("  waste, by kind:");
    for (size_t k = 0; k < tco_waste_count(); k++)
        printf("%s %s %s", k ? "," : "", tco_waste_name((int32_t)k), money(r.waste[k], a, sizeof a));
    printf(" (rented)\n\n");

    printf("  training\n");
    printf("    %.3g FLOP: %.1f days at MFU, %.1f days on the wall clock\n", r.train_flops,
           r.compute_hours / 24, r.wall_hours / 24);
    printf("    goodput %.1f%%; %s accelerator-hours billed, %s effective\n", 100 * r.goodput,
           money(r.accelerator_hours, a, sizeof a), money(r.effective_accelerator_hours, b, sizeof b));
    printf("    MFU %.1f%%, HFU %.1f%% (%.0f TFLOP/s of model FLOPs per accelerator); the layout allows MFU %.1f%%\n",
           100 * r.achieved_mfu, 100 * r.achieved_hfu, r.model_flops_per_accelerator / 1e12, 100 * r.mfu_ceiling);
    printf("    memory per accelerator: %.1f GB of model state, %.1f GB of activations, of %.0f GB\n",
           r.sharded_state_bytes / 1e9, r.activation_bytes / 1e9, r.accelerator_memory_bytes / 1e9);
    printf("  reliability\n");
    printf("    a failure every %.1f h; %.0f expected, costing %.0f h of lost work and %.0f h of restarts\n",
           r.system_mtbf_hours, r.expected_failures, r.lost_work_hours, r.restart_hours);
    printf("    checkpoint of %.0f GB pausing training %.1f s, every %.2f h (Daly; Young says %.2f h)\n",
           r.checkpoint_bytes / 1e9, r.checkpoint_write_hours * 3600, r.checkpoint_interval_hours,
           r.young_interval_hours);
    printf("  cluster\n");
    printf("    fabric of %.0f tiers: %.0f switches, %.0f links, %.0f optics (%s %s)\n", r.fabric_tiers,
           r.fabric_switches, r.fabric_links, r.fabric_optics, money(r.fabric_capex, a, sizeof a),
           currency);
    printf("    %.0f kW IT, %.0f kW at the meter, %s MWh over the run\n", r.it_power_kw,
           r.facility_power_kw, money(r.energy_kwh / 1000, a, sizeof a));
    printf("  unit costs (rented / owned)\n");
    printf("    per accelerator-hour, fully loaded  %8.2f / %8.2f\n", r.cost_per_accelerator_hour,
           o.cost_per_accelerator_hour);
    printf("    per effective accelerator-hour      %8.2f / %8.2f\n",
           r.cost_per_effective_accelerator_hour, o.cost_per_effective_accelerator_hour);
    printf("    per million tokens                  %8.2f / %8.2f\n", r.cost_per_million_tokens,
           o.cost_per_million_tokens);
    printf("    per PFLOP-day of useful work        %8.2f / %8.2f\n", r.cost_per_pflop_day,
           o.cost_per_pflop_day);
    printf("  assumptions\n");
    printf("    rented at %.2f %s per accelerator-hour on demand, power, cooling and fabric included;\n",
           od, currency);
    printf("    owned at %s %s per accelerator over %.0f years, electricity %.2f %s/kWh.\n",
           money(capex, a, sizeof a), currency, years, kwh, currency);
    for (int bit = 0; bit < 64; bit++) /* what the estimate itself assumed or was given */
        if ((r.flags >> bit & 1) && tco_estimate_flag_description((uint64_t)1 << bit))
            printf("    %s.\n", tco_estimate_flag_description((uint64_t)1 << bit));
    printf("    Every input and its default: doc/parameters.md. Every formula: doc/model.md.\n");

    tco_topology_free(rented);
    tco_topology_free(owned);
    tco_workload_free(work);
    tco_pricing_free(prices);
    return 0;
}
