/* libFuzzer target for one loader: FUZZ_KIND is 1 (topology), 2 (workload),
 * 3 (pricing) or 0 (scenario). Besides the sanitizers' checks, it checks:
 * a refusal comes with a status, a message and *out untouched; an accepted
 * input saves to canonical bytes that load again and save to the very same
 * bytes; freezing and fingerprinting what loaded never crash.
 * Built with -Dfuzz=true and clang (tests/fuzz/README.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tco.h>

#ifndef FUZZ_KIND
#error "FUZZ_KIND must be defined"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t once[65536], twice[65536];

static void check(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "fuzz_load: %s\n", what);
        abort();
    }
}

static void refused(int rc, const tco_error *err)
{
    check(rc < 0, "a refusal returns a negative status");
    check(err->code == rc, "the detail carries the status");
    check(err->message[0] != '\0', "a refusal has a message");
    check(memchr(err->message, '\0', sizeof err->message) != NULL, "the message is terminated");
    check(memchr(err->param_name, '\0', sizeof err->param_name) != NULL, "the name is terminated");
}

#if FUZZ_KIND == 0
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tco_topology *t = NULL, *t2;
    tco_workload *w = NULL, *w2;
    tco_pricing *p = NULL, *p2;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_scenario_load_cbor(&t, &w, &p, data, size, &err);
    if (rc != TCO_OK) {
        refused(rc, &err);
        check(!t && !w && !p, "a refused load leaves the handles alone");
        return 0;
    }
    size_t n1, n2;
    check(tco_scenario_save_cbor(once, sizeof once, &n1, t, w, p, &err) == TCO_OK, "save");
    check(tco_scenario_load_cbor(&t2, &w2, &p2, once, n1, &err) == TCO_OK, "what saved loads");
    check(tco_scenario_save_cbor(twice, sizeof twice, &n2, t2, w2, p2, &err) == TCO_OK, "save again");
    check(n1 == n2 && memcmp(once, twice, n1) == 0, "load then save is the identity");
    uint64_t a, b;
    tco_scenario_fingerprint(&a, t, w, p, NULL);
    if (tco_topology_freeze(t, NULL) == TCO_OK && tco_workload_freeze(w, NULL) == TCO_OK &&
        tco_pricing_freeze(p, NULL) == TCO_OK) {
        tco_scenario_fingerprint(&b, t, w, p, NULL);
        check(a == b, "the stored fingerprint is the computed one");
        tco_estimate e;
        memset(&e, 0, sizeof e);
        e.size = sizeof e;
        if (tco_estimate_compute(&e, t, w, p, &err) == TCO_OK) {
            check(e.scenario_fingerprint == a, "the estimate carries the fingerprint");
            check(tco_estimate_save_cbor(once, sizeof once, &n1, &e, &err) == TCO_OK, "save the result");
        }
    }
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    tco_topology_free(t2);
    tco_workload_free(w2);
    tco_pricing_free(p2);
    return 0;
}
#else
#if FUZZ_KIND == 1
#define H tco_topology
#define F(verb) tco_topology_##verb
#elif FUZZ_KIND == 2
#define H tco_workload
#define F(verb) tco_workload_##verb
#else
#define H tco_pricing
#define F(verb) tco_pricing_##verb
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    H *h = NULL, *h2;
    tco_error err = TCO_ERROR_INIT;
    int rc = F(load_cbor)(&h, data, size, &err);
    if (rc != TCO_OK) {
        refused(rc, &err);
        check(h == NULL, "a refused load leaves *out alone");
        return 0;
    }
    size_t n1, n2;
    check(F(save_cbor)(once, sizeof once, &n1, h, &err) == TCO_OK, "save");
    check(F(load_cbor)(&h2, once, n1, &err) == TCO_OK, "what saved loads");
    check(F(save_cbor)(twice, sizeof twice, &n2, h2, &err) == TCO_OK, "save again");
    check(n1 == n2 && memcmp(once, twice, n1) == 0, "load then save is the identity");
    uint64_t a, b;
    F(fingerprint)(&a, h, NULL);
    if (F(freeze)(h, NULL) == TCO_OK) {
        F(fingerprint)(&b, h, NULL);
        check(a == b, "the stored fingerprint is the computed one");
    }
    F(free)(h);
    F(free)(h2);
    return 0;
}
#endif
