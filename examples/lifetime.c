/* tco-lifetime: five years of a 1,024-accelerator cluster, owned in a
 * facility of one's own against reserved in a cloud, year by year: what
 * each year costs and how much of it is fixed, the cash, the unused hours
 * and commitment, and the net present value of each (doc/model.md,
 * section 18).
 *
 * The facility (power distribution, UPS and generators at 7,000 per kW of
 * IT, cooling plant at the default 1,500 per kW, both over 15 years) is an
 * assumption of this example, not a quoted price; every other figure is
 * the library's default (doc/model.md, "Defaults"). */
#include <stdio.h>
#include <stdlib.h>

#include <tco.h>

static void die(const char *what, const tco_error *err)
{
    fprintf(stderr, "tco-lifetime: %s: %s (%s)\n", what, err->message, tco_status_name(err->code));
    exit(1);
}

/* The built-in scenario on 1,024 accelerators, owned or reserved. */
static void scenario(tco_topology **t, tco_workload **w, tco_pricing **p, int owned)
{
    tco_error err = TCO_ERROR_INIT;
    if (tco_topology_new(t, &err) || tco_topology_set(*t, TCO_P_ACCELERATORS, 1024, &err) ||
        tco_topology_set(*t, TCO_P_OWNED_SHARE, owned ? 1 : 0, &err) ||
        tco_topology_set(*t, TCO_P_RESERVED_SHARE, owned ? 0 : 1, &err) || tco_topology_freeze(*t, &err))
        die("topology", &err);
    if (tco_workload_new(w, &err) || tco_workload_freeze(*w, &err))
        die("workload", &err);
    if (tco_pricing_new(p, &err) || tco_pricing_set(*p, TCO_P_FACILITY_CAPEX_PER_KW, 7000, &err) ||
        tco_pricing_set(*p, TCO_P_FACILITY_LIFE_YEARS, 15, &err) || tco_pricing_freeze(*p, &err))
        die("pricing", &err);
}

static void lifetime(const char *name, int owned, tco_lifetime *life)
{
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    scenario(&t, &w, &p, owned);
    tco_lifetime_request q;
    tco_lifetime_request_init(&q); /* five years, 70% used, discounted at 8% */
    q.refresh_year = owned ? 4 : 0; /* the owned IT is bought again after its four years */
    tco_lifetime_year years[5];
    life->size = sizeof *life;
    tco_error err = TCO_ERROR_INIT;
    if (tco_lifetime_compute(life, years, sizeof years[0], 5, &q, t, w, p, &err))
        die(name, &err);
    printf("%s\n  year         cost        fixed   of it unused   cash start     cash end   present value\n", name);
    for (int i = 0; i < 5; i++) {
        const tco_lifetime_year *y = &years[i];
        printf("  %4d %12.0f %12.0f %14.0f %12.0f %12.0f %15.0f%s\n", (int)y->year, y->total, y->fixed_total,
               y->unused_owned + y->unused_commitment, y->capex, y->running - y->salvage, y->present_value,
               y->refreshed ? "  (refreshed)" : "");
    }
    printf("  life %12.0f %12.0f %14.0f %12.0f   NPV %15.0f\n  %.3f per effective accelerator-hour (levelised "
           "%.3f)\n\n",
           life->total, life->fixed_total, life->unused_owned + life->unused_commitment, life->capex, life->npv,
           life->cost_per_effective_accelerator_hour, life->levelised_cost_per_effective_accelerator_hour);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
}

int main(void)
{
    tco_lifetime owned, cloud;
    lifetime("owned, in a facility of its own", 1, &owned);
    lifetime("reserved in a cloud", 0, &cloud);
    printf("owning %s %.0f in present value over five years (%.1f%% of the cloud's)\n",
           owned.npv < cloud.npv ? "saves" : "costs", owned.npv < cloud.npv ? cloud.npv - owned.npv : owned.npv - cloud.npv,
           100 * owned.npv / cloud.npv);
    return 0;
}
