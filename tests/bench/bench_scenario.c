/* Benchmark: scenario files and fingerprints. Targets: loading and
 * freezing a full scenario under 20 microseconds, saving one under 20
 * microseconds, a scenario's fingerprint under 2 microseconds. Prints the
 * median of 15 rounds of each, and the same-run baseline of copying the
 * scenario's encoded bytes (memcpy), with the ratios. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tco.h>

#include "bench.h"

#define ROUNDS 15

static int fail(const char *what, const tco_error *err)
{
    fprintf(stderr, "bench_scenario: %s: %s\n", what, err->message);
    return 1;
}

static volatile uint64_t sink;

int main(void)
{
    tco_error err = TCO_ERROR_INIT;
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    /* A full scenario, off the defaults in every handle. */
    if (tco_topology_new(&t, &err) || tco_topology_set(t, TCO_P_ACCELERATORS, 4096, &err) ||
        tco_topology_set_text(t, TCO_P_ACCELERATOR_MODEL, "B200", &err) || tco_workload_new(&w, &err) ||
        tco_workload_set(w, TCO_P_TOKENS, 15e12, &err) || tco_workload_set(w, TCO_P_MFU, 0.37, &err) ||
        tco_pricing_new(&p, &err) || tco_pricing_set_text(p, TCO_P_CURRENCY, "EUR", &err))
        return fail("building the scenario", &err);
    static uint8_t bytes[65536], out[65536], copy[65536];
    size_t len, out_len;
    if (tco_scenario_save_cbor(bytes, sizeof bytes, &len, t, w, p, &err))
        return fail("saving", &err);

    double load_ns[ROUNDS], save_ns[ROUNDS], fp_ns[ROUNDS], fp_frozen_ns[ROUNDS], copy_ns[ROUNDS];
    enum { LOADS = 2000, SAVES = 5000, FPS = 5000, COPIES = 50000 };
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        for (int i = 0; i < LOADS; i++) {
            tco_topology *lt;
            tco_workload *lw;
            tco_pricing *lp;
            if (tco_scenario_load_cbor(&lt, &lw, &lp, bytes, len, &err) || tco_topology_freeze(lt, &err) ||
                tco_workload_freeze(lw, &err) || tco_pricing_freeze(lp, &err))
                return fail("loading", &err);
            uint64_t fp;
            tco_scenario_fingerprint(&fp, lt, lw, lp, NULL);
            sink += fp;
            tco_topology_free(lt);
            tco_workload_free(lw);
            tco_pricing_free(lp);
        }
        double t1 = now();
        for (int i = 0; i < SAVES; i++) {
            if (tco_scenario_save_cbor(out, sizeof out, &out_len, t, w, p, &err))
                return fail("saving", &err);
            sink += out[i % out_len];
        }
        double t2 = now();
        for (int i = 0; i < FPS; i++) {
            uint64_t fp;
            tco_scenario_fingerprint(&fp, t, w, p, NULL); /* unfrozen: encodes and hashes all three */
            sink += fp;
        }
        double t3 = now();
        for (int i = 0; i < COPIES; i++) {
            memcpy(copy, bytes, len);
            copy[i % len] ^= 1; /* keep the copy alive */
            sink += copy[(i * 7) % len];
        }
        double t4 = now();
        load_ns[r] = (t1 - t0) / LOADS * 1e9;
        save_ns[r] = (t2 - t1) / SAVES * 1e9;
        fp_ns[r] = (t3 - t2) / FPS * 1e9;
        copy_ns[r] = (t4 - t3) / COPIES * 1e9;
    }
    /* Frozen handles keep their fingerprints: the scenario's only combines. */
    if (tco_topology_freeze(t, &err) || tco_workload_freeze(w, &err) || tco_pricing_freeze(p, &err))
        return fail("freezing", &err);
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        for (int i = 0; i < 100000; i++) {
            uint64_t fp;
            tco_scenario_fingerprint(&fp, t, w, p, NULL);
            sink += fp;
        }
        fp_frozen_ns[r] = (now() - t0) / 100000 * 1e9;
    }
    double load = median(load_ns, ROUNDS), save = median(save_ns, ROUNDS), fp = median(fp_ns, ROUNDS),
           fpf = median(fp_frozen_ns, ROUNDS), cp = median(copy_ns, ROUNDS);
    printf("scenario: %zu bytes of CBOR (%d rounds; medians)\n", len, ROUNDS);
    printf("load + freeze: %8.0f ns, target 20000 ns: %.2fx of target; %6.0fx the baseline\n", load,
           load / 20000, load / cp);
    printf("save:          %8.0f ns, target 20000 ns: %.2fx of target; %6.0fx the baseline\n", save,
           save / 20000, save / cp);
    printf("fingerprint:   %8.0f ns unfrozen (encode and hash all three), target 2000 ns: %.2fx of target; %.0fx the baseline\n",
           fp, fp / 2000, fp / cp);
    printf("fingerprint:   %8.1f ns frozen (the stored three, combined): %.3fx of target\n", fpf, fpf / 2000);
    printf("baseline:      %8.1f ns to memcpy the %zu encoded bytes\n", cp, len);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    return 0;
}
