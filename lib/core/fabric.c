/* Folded-Clos ("fat-tree") fabric sizing from the endpoint count and the
 * switch radix (Al-Fares, Loukissas and Vahdat, SIGCOMM 2008), with
 * oversubscription at the leaf. doc/model.md, "Network fabric". */
#include <math.h>

#include "core/core.h"

#define MAX_TIERS 16

int tco__fabric_size(fabric *f, double endpoints, double k, double oversub, tco_error *err)
{
    f->tiers = f->switches = f->links = f->optics = 0;
    if (endpoints <= 0)
        return TCO_OK;
    if (endpoints <= k) { /* one switch, every port facing down */
        f->tiers = 1;
        f->switches = 1;
        f->links = endpoints;
        f->optics = 2 * endpoints;
        return TCO_OK;
    }
    double down = floor(k * oversub / (1 + oversub)); /* leaf ports facing endpoints */
    double up = k - down;
    /* Endpoints a t-tier tree reaches: down x k x (k/2)^(t-2). */
    double tiers = 2, reach = down * k;
    while (endpoints > reach) {
        if (++tiers > MAX_TIERS)
            return tco__fail_param(err, TCO_E_INCONSISTENT, IX_SWITCH_RADIX,
                                   "switch_radix = %g cannot connect %g endpoints in %d tiers: raise switch_radix",
                                   k, endpoints, MAX_TIERS);
        reach *= k / 2;
    }
    double leaves = ceil(endpoints / down);
    double uplinks = leaves * up; /* carried unchanged through every upper tier */
    f->tiers = tiers;
    f->switches = leaves + (tiers - 2) * ceil(uplinks / (k / 2)) + ceil(uplinks / k);
    f->links = endpoints + (tiers - 1) * uplinks;
    f->optics = 2 * f->links;
    return TCO_OK;
}
