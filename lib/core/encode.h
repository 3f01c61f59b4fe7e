/* Canonical CBOR: the encoding of a handle that fingerprints hash and
 * files hold, and the pieces the file writer and reader (io/) build on.
 * Not installed. */
#ifndef TCO_ENCODE_H
#define TCO_ENCODE_H

#include <stdint.h>

#include "core/cbor_order.h"
#include "core/core.h"

/* A scenario file's "format" value (doc/format.md): the one place it is
 * spelt, behind tco_scenario_format_name. */
#define FORMAT_NAME "libtco-scenario"

/* Each handle kind's keys in canonical order, how many, and the most bytes
 * its encoding takes; indexed by tco_handle_kind (row 0 is empty). */
typedef struct cbor_order {
    const cbor_key *keys;
    size_t count, bound;
} cbor_order;
extern const cbor_order tco__cbor_orders[4];

/* The most bytes a scenario's encoding takes: three handles and its head. */
#define SCENARIO_BOUND (CBOR_ORDER_TOPOLOGY_BOUND + CBOR_ORDER_WORKLOAD_BOUND + CBOR_ORDER_PRICING_BOUND + 64)

/* Into a buffer known to be large enough, each returning the end: a
 * handle (at most its order's bound), a text (9 bytes of head and the
 * text), the shortest exact float (at most 9 bytes). */
uint8_t *tco__cbor_obj(uint8_t *p, const tco_obj *o);
uint8_t *tco__cbor_text(uint8_t *p, const char *s);
uint8_t *tco__cbor_float(uint8_t *p, double d);

/* A handle's canonical CBOR into buf; returns its length, or 0 when cap is
 * short. CBOR_ORDER_BOUND bytes always suffice. */
size_t tco__obj_encode(const tco_obj *o, uint8_t *buf, size_t cap);

#endif
