/* Fingerprints: XXH3-64 (seed 0) of a handle's canonical CBOR, and of the
 * three handle fingerprints for a scenario (doc/format.md, "Fingerprints").
 * xxHash is compiled in (XXH_INLINE_ALL): nothing is linked from libxxhash
 * and no XXH symbol is exported. XXH3's output is stable since xxHash 0.8.0,
 * so fingerprints may be stored. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "core/encode.h"
#include "core/core.h"

uint64_t tco__obj_fingerprint(const tco_obj *o)
{
    uint8_t buf[CBOR_ORDER_BOUND];
    size_t n = tco__obj_encode(o, buf, sizeof buf);
    return XXH3_64bits(buf, n);
}

/* XXH3-64 of the 24 bytes topology, workload, pricing, each little-endian:
 * the same value on every platform. */
uint64_t tco__fingerprint_combine(uint64_t topology, uint64_t workload, uint64_t pricing)
{
    const uint64_t v[3] = { topology, workload, pricing };
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t *le = v; /* already in that order */
#else
    uint8_t le[24];
    for (int i = 0; i < 3; i++)
        for (int b = 0; b < 8; b++)
            le[8 * i + b] = (uint8_t)(v[i] >> (8 * b));
#endif
    return XXH3_64bits(le, 24);
}

static uint64_t of(const tco_obj *o)
{
    return o->frozen ? o->fingerprint : tco__obj_fingerprint(o);
}

/* A handle of another kind passed through a cast is refused, as by every
 * other entry point: its fingerprint would be taken for this kind's. */
#define FINGERPRINT_API(type, KIND)                                                         \
    int tco_##type##_fingerprint(uint64_t *out, const tco_##type *h, tco_error *err)        \
    {                                                                                       \
        if (!out || !h)                                                                     \
            return tco__fail(err, TCO_E_NULL, "%s must not be NULL", out ? #type : "out"); \
        int rc = tco__kind_check(&h->o, TCO_HANDLE_##KIND, err);                            \
        if (rc)                                                                             \
            return rc;                                                                      \
        *out = of(&h->o);                                                                   \
        return TCO_OK;                                                                      \
    }

FINGERPRINT_API(topology, TOPOLOGY)
FINGERPRINT_API(workload, WORKLOAD)
FINGERPRINT_API(pricing, PRICING)

int tco_scenario_fingerprint(uint64_t *out, const tco_topology *t, const tco_workload *w,
                             const tco_pricing *p, tco_error *err)
{
    if (!out || !t || !w || !p)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL",
                         !out ? "out" : !t ? "topology" : !w ? "workload" : "pricing");
    int rc = tco__kind_check(&t->o, TCO_HANDLE_TOPOLOGY, err);
    if (rc || (rc = tco__kind_check(&w->o, TCO_HANDLE_WORKLOAD, err)) ||
        (rc = tco__kind_check(&p->o, TCO_HANDLE_PRICING, err)))
        return rc;
    *out = tco__fingerprint_combine(of(&t->o), of(&w->o), of(&p->o));
    return TCO_OK;
}
