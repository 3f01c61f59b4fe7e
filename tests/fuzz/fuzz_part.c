/* libFuzzer target for the bytes of an attribution part
 * (tco_attribution_part_load). Besides the sanitizers' checks: a refused
 * input comes with a status and a message and leaves *out alone; an
 * accepted one saves to the very same bytes, merges with itself (or is
 * refused for a sum past what an exact sum holds, leaving it as it was),
 * and, when it settles under the built-in scenario, gives a bill whose
 * groups add up to its total and whose hours are finite.
 * Built with -Dfuzz=true and clang (tests/fuzz/README.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tco.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "fuzz_part: %s\n", what);
        abort();
    }
}

static tco_topology *t;
static tco_workload *w;
static tco_pricing *p;

static void scenario(void)
{
    if (t)
        return;
    check(tco_topology_new(&t, NULL) == TCO_OK && tco_topology_freeze(t, NULL) == TCO_OK &&
              tco_workload_new(&w, NULL) == TCO_OK && tco_workload_freeze(w, NULL) == TCO_OK &&
              tco_pricing_new(&p, NULL) == TCO_OK && tco_pricing_freeze(p, NULL) == TCO_OK,
          "the built-in scenario");
}

static uint8_t *saved(const tco_attribution_part *part, size_t *len)
{
    check(tco_attribution_part_save(NULL, 0, len, part, NULL) == TCO_OK, "a part's size");
    uint8_t *buf = malloc(*len ? *len : 1);
    size_t again = 0;
    check(buf && tco_attribution_part_save(buf, *len, &again, part, NULL) == TCO_OK && again == *len, "saved");
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scenario();
    tco_attribution_part *part = (tco_attribution_part *)&part, *self = NULL;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_attribution_part_load(&part, data, size, &err);
    if (rc != TCO_OK) {
        check(rc < 0 && err.code == rc && err.message[0], "a refusal has a status and a message");
        check(part == (tco_attribution_part *)&part, "a refusal leaves *out alone");
        return 0;
    }
    size_t len;
    uint8_t *bytes = saved(part, &len);
    check(len == size && memcmp(bytes, data, size) == 0, "an accepted part saves to its own bytes");

    check(tco_attribution_part_load(&self, data, size, NULL) == TCO_OK, "the same bytes load twice");
    rc = tco_attribution_part_merge(part, self, &err);
    if (rc != TCO_OK) {
        check(rc == TCO_E_RANGE, "a part merges with itself, or its sums overflow");
        size_t after;
        uint8_t *still = saved(part, &after);
        check(after == len && memcmp(still, bytes, len) == 0, "a refused merge leaves the part as it was");
        free(still);
    }
    tco_attribution *a = NULL;
    if (tco_attribute_parts(&a, part, t, w, p, NULL) == TCO_OK) {
        tco_bill b = { .size = sizeof b };
        check(tco_attribution_bill(&b, a, NULL) == TCO_OK, "the bill reads");
        int64_t sum = 0;
        for (size_t i = 0; i < tco_attribution_group_count(a); i++) {
            tco_group g = { .size = sizeof g };
            check(tco_attribution_group_at(&g, a, i, NULL) == TCO_OK, "a group reads");
            sum += g.total;
        }
        check(sum == b.total, "the groups add up to the bill");
        check(isfinite(b.held_accelerator_hours) && isfinite(b.used_accelerator_hours) &&
                  isfinite(b.clipped_accelerator_hours),
              "the hours are finite");
        tco_attribution_free(a);
    }
    free(bytes);
    tco_attribution_part_free(self);
    tco_attribution_part_free(part);
    return 0;
}
