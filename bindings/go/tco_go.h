/* C helpers of the Go binding: one call per handle kind instead of three,
 * and the placement batch built on the C stack (a Go-allocated struct may not
 * hold Go pointers when passed to C). Included by every file of the package
 * that calls C; nothing here is exported by libtco. */
#ifndef TCO_GO_H
#define TCO_GO_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tco.h>

/* The compile-time version check: this package is written against the 1.x
 * ABI. A tco.h of another major version stops the build here. */
#if !defined(TCO_VERSION_MAJOR) || TCO_VERSION_MAJOR != 1
#error "libtco.dev/tco needs libtco 1.x: the tco.h found by pkg-config has another major version"
#endif
typedef char tcogo_major_is_1[TCO_VERSION_MAJOR == 1 ? 1 : -1];

/* The Go constants spell the header's enum values as numbers (so that go
 * doc shows them); these check, at build time, that they are the header's.
 * The values are pinned forever by the ABI promise. */
#define TCOGO_SAME(name, value) typedef char tcogo_same_##name[(name) == (value) ? 1 : -1]
TCOGO_SAME(TCO_DATA_DATASET, 0);
TCOGO_SAME(TCO_DATA_CHECKPOINTS, 1);
TCOGO_SAME(TCO_DATA_LOGS, 2);
TCOGO_SAME(TCO_TIER_HOT, 0);
TCOGO_SAME(TCO_TIER_WARM, 1);
TCOGO_SAME(TCO_TIER_COLD, 2);
TCOGO_SAME(TCO_BUDGET_OK, 0);
TCOGO_SAME(TCO_BUDGET_WARNING, 1);
TCOGO_SAME(TCO_BUDGET_CRITICAL, 2);
TCOGO_SAME(TCO_BUDGET_EXHAUSTED, 3);
TCOGO_SAME(TCO_OK, 0);
TCOGO_SAME(TCO_E_NULL, -1);
TCOGO_SAME(TCO_E_RANGE, -2);
TCOGO_SAME(TCO_E_NOT_FINITE, -3);
TCOGO_SAME(TCO_E_INCONSISTENT, -4);
TCOGO_SAME(TCO_E_FROZEN, -5);
TCOGO_SAME(TCO_E_NOT_FROZEN, -6);
TCOGO_SAME(TCO_E_UNKNOWN_PARAM, -7);
TCOGO_SAME(TCO_E_WRONG_HANDLE, -8);
TCOGO_SAME(TCO_E_TYPE, -9);
TCOGO_SAME(TCO_E_NOMEM, -10);
TCOGO_SAME(TCO_E_SIZE, -11);
TCOGO_SAME(TCO_E_INDEX, -12);
TCOGO_SAME(TCO_FIELD_DOUBLE, 1);
TCOGO_SAME(TCO_FIELD_UINT64, 2);
TCOGO_SAME(TCO_FIELD_CATEGORIES, 3);
TCOGO_SAME(TCO_FIELD_WASTES, 4);
TCOGO_SAME(TCO_HANDLE_TOPOLOGY, 1);
TCOGO_SAME(TCO_HANDLE_WORKLOAD, 2);
TCOGO_SAME(TCO_HANDLE_PRICING, 3);
TCOGO_SAME(TCO_TYPE_REAL, 1);
TCOGO_SAME(TCO_TYPE_INT, 2);
TCOGO_SAME(TCO_TYPE_BOOL, 3);
TCOGO_SAME(TCO_TYPE_CHOICE, 4);
TCOGO_SAME(TCO_TYPE_TEXT, 5);
TCOGO_SAME(TCO_PLACEMENT_MAX_PARTS, 8);
TCOGO_SAME(TCO_CLASS_ON_DEMAND, 0);
TCOGO_SAME(TCO_CLASS_RESERVED, 1);
TCOGO_SAME(TCO_CLASS_SPOT, 2);
TCOGO_SAME(TCO_CLASS_OWNED, 3);
TCOGO_SAME(TCO_SOLVE_ACCELERATORS, 1);
TCOGO_SAME(TCO_SOLVE_MFU, 2);
TCOGO_SAME(TCO_DIST_UNIFORM, 1);
TCOGO_SAME(TCO_DIST_TRIANGULAR, 2);
TCOGO_SAME(TCO_DIST_NORMAL, 3);
TCOGO_SAME(TCO_DIST_LOGNORMAL, 4);
TCOGO_SAME(TCO_JOB_COMPLETED, 0);
TCOGO_SAME(TCO_JOB_FAILED, 1);
TCOGO_SAME(TCO_JOB_CANCELLED, 2);
TCOGO_SAME(TCO_JOB_RUNNING, 3);
TCOGO_SAME(TCO_FIT_CUSTOM, 0);
TCOGO_SAME(TCO_FIT_HOFFMANN_2022, 1);
TCOGO_SAME(TCO_FIT_BESIROGLU_2024, 2);
TCOGO_SAME(TCO_SAVING_METRICS_INTERVAL, 1);
TCOGO_SAME(TCO_SAVING_LOG_RETENTION, 2);
TCOGO_SAME(TCO_SAVING_CHECKPOINT_RETENTION, 3);
TCOGO_SAME(TCO_SAVING_CHECKPOINT_INTERVAL, 4);
TCOGO_SAME(TCO_SAVING_FEWER_REPLICAS, 5);
TCOGO_SAME(TCO_SAVING_MORE_SPOT, 6);
TCOGO_SAME(TCO_VERDICT_WORTH_IT, 1);
TCOGO_SAME(TCO_VERDICT_FLAGGED, 2);
TCOGO_SAME(TCO_VERDICT_NO_SAVING, 3);
TCOGO_SAME(TCO_STAGE_PRETRAINING, 1);
TCOGO_SAME(TCO_STAGE_CONTEXT_EXTENSION, 2);
TCOGO_SAME(TCO_STAGE_SUPERVISED_FINE_TUNING, 3);
TCOGO_SAME(TCO_STAGE_PREFERENCE_TUNING, 4);
TCOGO_SAME(TCO_STAGE_EVALUATION, 5);
TCOGO_SAME(TCO_STAGE_SWEEP, 6);
TCOGO_SAME(TCO_STAGE_ABLATION, 7);
TCOGO_SAME(TCO_STAGE_START, -1);
TCOGO_SAME(TCO_OPTIMUM_INTERIOR, 0);
TCOGO_SAME(TCO_OPTIMUM_PARAMS_MIN, 1);
TCOGO_SAME(TCO_OPTIMUM_PARAMS_MAX, 2);
TCOGO_SAME(TCO_OPTIMUM_TOKENS_MAX, 3);
TCOGO_SAME(TCO_OPTIMUM_LARGEST_MODEL, 4);

/* The header's version, for HeaderVersion. */
static inline const char *tcogo_header_version(void) { return TCO_VERSION_STRING; }

static inline int tcogo_new(int kind, void **out, tco_error *e)
{
    switch (kind) {
    case TCO_HANDLE_TOPOLOGY: return tco_topology_new((tco_topology **)out, e);
    case TCO_HANDLE_WORKLOAD: return tco_workload_new((tco_workload **)out, e);
    default: return tco_pricing_new((tco_pricing **)out, e);
    }
}

static inline int tcogo_clone(int kind, void **out, const void *src, tco_error *e)
{
    switch (kind) {
    case TCO_HANDLE_TOPOLOGY: return tco_topology_clone((tco_topology **)out, src, e);
    case TCO_HANDLE_WORKLOAD: return tco_workload_clone((tco_workload **)out, src, e);
    default: return tco_pricing_clone((tco_pricing **)out, src, e);
    }
}

static inline void tcogo_free(int kind, void *h)
{
    switch (kind) {
    case TCO_HANDLE_TOPOLOGY: tco_topology_free(h); break;
    case TCO_HANDLE_WORKLOAD: tco_workload_free(h); break;
    default: tco_pricing_free(h); break;
    }
}

static inline int tcogo_set(int kind, void *h, int32_t key, double v, tco_error *e)
{
    switch (kind) {
    case TCO_HANDLE_TOPOLOGY: return tco_topology_set(h, key, v, e);
    case TCO_HANDLE_WORKLOAD: return tco_workload_set(h, key, v, e);
    default: return tco_pricing_set(h, key, v, e);
    }
}

static inline int tcogo_set_text(int kind, void *h, int32_t key, const char *text, tco_error *e)
{
    switch (kind) {
    case TCO_HANDLE_TOPOLOGY: return tco_topology_set_text(h, key, text, e);
    case TCO_HANDLE_WORKLOAD: return tco_workload_set_text(h, key, text, e);
    default: return tco_pricing_set_text(h, key, text, e);
    }
}

static inline int tcogo_get(int kind, const void *h, int32_t key, double *v, tco_error *e)
{
    switch (kind) {
    case TCO_HANDLE_TOPOLOGY: return tco_topology_get(h, key, v, e);
    case TCO_HANDLE_WORKLOAD: return tco_workload_get(h, key, v, e);
    default: return tco_pricing_get(h, key, v, e);
    }
}

/* get_text, copied into buf (TCO_TEXT_MAX bytes): a TEXT's string lives in
 * the handle, so it is copied before Go sees it. */
static inline int tcogo_get_text(int kind, const void *h, int32_t key, char *buf, tco_error *e)
{
    const char *s = NULL;
    int rc;
    switch (kind) {
    case TCO_HANDLE_TOPOLOGY: rc = tco_topology_get_text(h, key, &s, e); break;
    case TCO_HANDLE_WORKLOAD: rc = tco_workload_get_text(h, key, &s, e); break;
    default: rc = tco_pricing_get_text(h, key, &s, e); break;
    }
    buf[0] = 0;
    if (rc == TCO_OK && s) {
        strncpy(buf, s, TCO_TEXT_MAX - 1);
        buf[TCO_TEXT_MAX - 1] = 0;
    }
    return rc;
}

static inline int tcogo_freeze(int kind, void *h, tco_error *e)
{
    switch (kind) {
    case TCO_HANDLE_TOPOLOGY: return tco_topology_freeze(h, e);
    case TCO_HANDLE_WORKLOAD: return tco_workload_freeze(h, e);
    default: return tco_pricing_freeze(h, e);
    }
}

static inline int tcogo_save_cbor(int kind, uint8_t *buf, size_t cap, size_t *len, const void *h, tco_error *e)
{
    switch (kind) {
    case TCO_HANDLE_TOPOLOGY: return tco_topology_save_cbor(buf, cap, len, h, e);
    case TCO_HANDLE_WORKLOAD: return tco_workload_save_cbor(buf, cap, len, h, e);
    default: return tco_pricing_save_cbor(buf, cap, len, h, e);
    }
}

static inline int tcogo_load_cbor(int kind, void **out, const uint8_t *buf, size_t len, tco_error *e)
{
    switch (kind) {
    case TCO_HANDLE_TOPOLOGY: return tco_topology_load_cbor((tco_topology **)out, buf, len, e);
    case TCO_HANDLE_WORKLOAD: return tco_workload_load_cbor((tco_workload **)out, buf, len, e);
    default: return tco_pricing_load_cbor((tco_pricing **)out, buf, len, e);
    }
}

static inline int tcogo_fingerprint(int kind, uint64_t *out, const void *h, tco_error *e)
{
    switch (kind) {
    case TCO_HANDLE_TOPOLOGY: return tco_topology_fingerprint(out, h, e);
    case TCO_HANDLE_WORKLOAD: return tco_workload_fingerprint(out, h, e);
    default: return tco_pricing_fingerprint(out, h, e);
    }
}

/* A copy of a tags table with the same ids, to intern into: a share of the
 * records may name keys or an owner that none of its records carry, and
 * the records' own table is read-only. In C so that a large table costs
 * one cgo call, not one per text. */
static inline int tcogo_tags_copy(tco_tags **out, const tco_tags *from, tco_error *e)
{
    *out = NULL;
    int rc = tco_tags_new(out, e);
    size_t n = tco_tags_count(from);
    for (size_t i = 0; rc == TCO_OK && i < n; i++) {
        const char *s = tco_tags_text(from, (uint32_t)i);
        uint32_t id = 0;
        rc = tco_tags_intern(*out, s, strlen(s), &id, e);
        if (rc == TCO_OK && id != (uint32_t)i)
            rc = TCO_E_INCONSISTENT; /* a table holds each text once, so this cannot be */
    }
    if (rc != TCO_OK && *out) {
        tco_tags_free(*out);
        *out = NULL;
    }
    return rc;
}

/* The hot calls take the handles as integers: cgo checks every pointer to
 * an incomplete struct type (the opaque handles) at run time on each call,
 * which would cost more than the rest of the call's overhead together. The
 * handles are C memory, so there is nothing for the check to find. */
static inline int tcogo_price(tco_price *out, uintptr_t pools, uintptr_t t, uintptr_t p, const tco_job *job,
                              const tco_placement *pl, tco_error *e)
{
    return tco_placement_price(out, (const tco_pools *)pools, (const tco_topology *)t, (const tco_pricing *)p,
                               job, pl, e);
}

static inline int tcogo_estimate(tco_estimate *out, uintptr_t t, uintptr_t w, uintptr_t p, tco_error *e)
{
    return tco_estimate_compute(out, (const tco_topology *)t, (const tco_workload *)w, (const tco_pricing *)p, e);
}

/* tco_placement_price_batch with the batch struct on the C stack: Go passes
 * its slices as plain arguments, which the cgo pointer rules allow. threads
 * 1: the single-threaded function; else tco_placement_price_batch_mt. */
static inline int tcogo_price_batch(double *cost, double *completion, int32_t *status, uintptr_t pools,
                                    uintptr_t t, uintptr_t p, const tco_job *jobs,
                                    size_t job_count, size_t count, size_t max_parts, const int32_t *job,
                                    const int32_t *pool, const int32_t *acc, const int32_t *racks,
                                    const int32_t *zones, const int32_t *regions, const double *start,
                                    int32_t threads, tco_error *e)
{
    tco_placement_batch b;
    b.size = sizeof b;
    b.count = count;
    b.max_parts = max_parts;
    b.job = job;
    b.pool = pool;
    b.accelerators = acc;
    b.racks = racks;
    b.zones = zones;
    b.regions = regions;
    b.start_hours = start;
    if (threads == 1)
        return tco_placement_price_batch(cost, completion, status, (const tco_pools *)pools, (const tco_topology *)t,
                                         (const tco_pricing *)p, jobs, job_count, &b, e);
    return tco_placement_price_batch_mt(cost, completion, status, (const tco_pools *)pools, (const tco_topology *)t,
                                        (const tco_pricing *)p, jobs, job_count, &b, threads, e);
}

#endif
