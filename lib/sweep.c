/* Parameter sweeps: many variations of one scenario in one call, so that a
 * binding prices a whole array of values without a call per value. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int tco_estimate_sweep(tco_estimate *out, size_t out_size, int32_t *status, size_t n, const int32_t *keys,
                       size_t nkeys, const double *values, const tco_topology *topology,
                       const tco_workload *workload, const tco_pricing *pricing, tco_error *err)
{
    int rc;
    if (!out || !status || (nkeys && (!keys || !values)))
        return tco_fail(err, TCO_E_NULL, 0, "%s must not be NULL",
                        !out ? "out" : !status ? "status" : !keys ? "keys" : "values");
    if (out_size < ESTIMATE_V1_SIZE)
        return tco_fail(err, TCO_E_SIZE, 0, "out_size = %zu is below %zu: give sizeof(tco_estimate)", out_size,
                        ESTIMATE_V1_SIZE);
    if ((rc = frozen_inputs(topology, workload, pricing, err)))
        return rc;
    for (size_t j = 0; j < nkeys; j++) {
        int ix = param_index(keys[j]);
        if (ix < 0)
            return tco_fail(err, TCO_E_UNKNOWN_PARAM, keys[j], "keys[%zu] = %d is no parameter's key", j,
                            (int)keys[j]);
        if (tco_params[ix].type == TCO_TYPE_TEXT)
            return tco_fail(err, TCO_E_TYPE, keys[j], "keys[%zu] is %s, a text: a sweep sets numbers", j,
                            tco_params[ix].name);
    }

    /* Private copies of the three handles, changed and restored per variation. */
    tco_obj *copy = malloc(3 * sizeof *copy);
    if (!copy)
        return tco_fail(err, TCO_E_NOMEM, 0, "no memory for a copy of the scenario");
    copy[0] = topology->o;
    copy[1] = workload->o;
    copy[2] = pricing->o;
    int (*const check[3])(const tco_obj *, tco_error *) = { topology_check, workload_check, pricing_check };
    int noted = 0; /* err tells the first failure; status says which it was */
    for (size_t i = 0; i < n; i++) {
        tco_estimate *e = (tco_estimate *)((char *)out + i * out_size);
        tco_error local = TCO_ERROR_INIT;
        int touched[3] = { 0, 0, 0 };
        rc = TCO_OK;
        for (size_t j = 0; j < nkeys && rc == TCO_OK; j++) {
            int ix = param_index(keys[j]);
            const param_row *r = &tco_params[ix];
            if ((rc = param_check(r, values[i * nkeys + j], &local)) == TCO_OK) {
                copy[r->handle - 1].v[ix] = values[i * nkeys + j];
                touched[r->handle - 1] = 1;
            }
        }
        for (int h = 0; h < 3 && rc == TCO_OK; h++)
            if (touched[h])
                rc = check[h](&copy[h], &local);
        e->size = out_size;
        if (rc == TCO_OK)
            rc = tco_estimate_compute(e, (const tco_topology *)&copy[0], (const tco_workload *)&copy[1],
                                      (const tco_pricing *)&copy[2], &local);
        if (rc == TCO_OK) {
            e->scenario_fingerprint = 0; /* the copies' are stale */
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
        for (size_t j = 0; j < nkeys; j++) { /* back to the scenario as given */
            int ix = param_index(keys[j]);
            int h = tco_params[ix].handle - 1;
            copy[h].v[ix] = (h == 0 ? &topology->o : h == 1 ? &workload->o : &pricing->o)->v[ix];
        }
    }
    free(copy);
    return TCO_OK;
}
