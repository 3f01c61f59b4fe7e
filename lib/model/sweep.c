/* Parameter sweeps: many variations of one scenario in one call, so that a
 * binding prices a whole array of values without a call per value. */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

int tco_estimate_sweep(tco_estimate *out, size_t out_size, int32_t *status, size_t n, const int32_t *keys,
                       size_t nkeys, const double *values, const tco_topology *topology,
                       const tco_workload *workload, const tco_pricing *pricing, tco_error *err)
{
    int rc;
    if (!out || !status || (nkeys && (!keys || !values)))
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL",
                         !out ? "out" : !status ? "status" : !keys ? "keys" : "values");
    if ((rc = tco__stride_check(out_size, ESTIMATE_V1_SIZE, "out_size", "tco_estimate", err)))
        return rc;
    if ((rc = tco__frozen_inputs(topology, workload, pricing, err)))
        return rc;
    for (size_t j = 0; j < nkeys; j++) {
        int ix = tco__param_index(keys[j]);
        if (ix < 0)
            return tco__fail_key(err, TCO_E_UNKNOWN_PARAM, keys[j], "keys[%zu] = %d is no parameter's key", j,
                                 (int)keys[j]);
        if (tco__params[ix].type == TCO_TYPE_TEXT)
            return tco__fail_param(err, TCO_E_TYPE, ix, "keys[%zu] is %s, a text: a sweep sets numbers", j,
                                   tco__params[ix].name);
    }

    /* Private copies of the three handles, changed and restored per
     * variation, and the keys' rows, looked up once. */
    tco_obj *copy = malloc(3 * sizeof *copy + nkeys * sizeof(int));
    if (!copy)
        return tco__fail(err, TCO_E_NOMEM, "no memory for a copy of the scenario");
    int *ixs = (int *)(copy + 3);
    for (size_t j = 0; j < nkeys; j++)
        ixs[j] = tco__param_index(keys[j]);
    copy[0] = topology->o;
    copy[1] = workload->o;
    copy[2] = pricing->o;
    int noted = 0; /* err tells the first failure; status says which it was */
    /* Filled by a failure only, and told only for the first one, which
     * finds it as set here: set once, not zeroed again each variation. */
    tco_error local = TCO_ERROR_INIT;
    for (size_t i = 0; i < n; i++) {
        tco_estimate *e = (tco_estimate *)((char *)out + i * out_size);
        int touched[3] = { 0, 0, 0 };
        rc = TCO_OK;
        for (size_t j = 0; j < nkeys && rc == TCO_OK; j++) {
            int ix = ixs[j];
            const param_row *r = &tco__params[ix];
            if ((rc = tco__param_check(r, values[i * nkeys + j], &local)) == TCO_OK) {
                copy[r->handle - 1].v[ix] = values[i * nkeys + j];
                touched[r->handle - 1] = 1;
            }
        }
        for (int h = 0; h < 3 && rc == TCO_OK; h++)
            if (touched[h])
                rc = tco__obj_prepare(&copy[h], &local);
        e->size = out_size;
        /* This version's struct is written straight; another size through a
         * copy. */
        tco_estimate full, *into = out_size == sizeof full ? e : &full;
        if (rc == TCO_OK)
            rc = tco__estimate(into, &copy[0], &copy[1], &copy[2], &local);
        if (rc == TCO_OK) {
            into->scenario_fingerprint = 0; /* the copies' are stale */
            if (into != e)
                sized_fill(e, &full, sizeof full);
        } else {
            memset(e, 0, out_size);
            e->size = out_size;
            if (!noted && err && err->size >= ERROR_V1_SIZE) {
                size_t size = err->size;
                *err = local;
                err->size = size;
                noted = 1;
            }
        }
        status[i] = rc;
        const tco_obj *given[3] = { &topology->o, &workload->o, &pricing->o };
        for (size_t j = 0; j < nkeys; j++) { /* back to the scenario as given */
            int ix = ixs[j];
            int h = tco__params[ix].handle - 1;
            copy[h].v[ix] = given[h]->v[ix];
        }
        for (int h = 0; h < 3; h++)
            if (touched[h])
                copy[h].d = given[h]->d;
    }
    free(copy);
    return TCO_OK;
}
