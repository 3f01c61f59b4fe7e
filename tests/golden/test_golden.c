/* The golden scenarios (tests/golden): each loads, saves back to the very
 * same bytes, and prices to exactly the committed result, bit for bit. The
 * Python and Go bindings check the same files, so all three agree.
 *
 * Usage: test_golden GOLDEN_DIR. When a change is meant to move the numbers,
 * run tests/golden/regenerate.sh and commit the files with the change. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <tco.h>

static const char *dir;

typedef struct blob {
    uint8_t *p;
    size_t n;
} blob;

static blob slurp(const char *name, const char *suffix)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, suffix);
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_error("cannot open %s\n", path);
        fail();
    }
    blob b = { malloc(1 << 20), 0 };
    assert_non_null(b.p);
    b.n = fread(b.p, 1, 1 << 20, f);
    fclose(f);
    assert_true(b.n > 0 && b.n < (1 << 20));
    return b;
}

/* The name of the first field whose bytes differ, for the message. */
static void explain(const uint8_t *want, size_t nw, const uint8_t *got, size_t ng)
{
    size_t i = 0;
    while (i < nw && i < ng && want[i] == got[i])
        i++;
    size_t from = i > 40 ? i - 40 : 0;
    print_error("sizes %zu and %zu; first difference at byte %zu, after \"", nw, ng, i);
    for (size_t k = from; k < i; k++)
        print_error("%c", want[k] >= 0x20 && want[k] < 0x7f ? want[k] : '.');
    print_error("\"\nif the change is meant, run tests/golden/regenerate.sh BUILD_DIR and commit the files\n");
}

static void check(const char *name)
{
    blob in = slurp(name, ".cbor"), want = slurp(name, ".result.cbor");
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_scenario_load_cbor(&t, &w, &p, in.p, in.n, &err);
    if (rc != TCO_OK)
        print_error("%s.cbor: %s\n", name, err.message);
    assert_int_equal(rc, TCO_OK);

    /* Load then save: the same bytes. */
    uint8_t *out = malloc(in.n + 1024);
    assert_non_null(out);
    size_t len = 0;
    assert_int_equal(tco_scenario_save_cbor(out, in.n + 1024, &len, t, w, p, &err), TCO_OK);
    if (len != in.n || memcmp(out, in.p, len) != 0) {
        print_error("%s.cbor does not save back to itself (a parameter added or a default changed?)\n", name);
        explain(in.p, in.n, out, len);
        fail();
    }

    /* Priced: the committed result, bit for bit. */
    rc = tco_topology_freeze(t, &err);
    if (rc == TCO_OK)
        rc = tco_workload_freeze(w, &err);
    if (rc == TCO_OK)
        rc = tco_pricing_freeze(p, &err);
    if (rc == TCO_OK) {
        tco_estimate e;
        memset(&e, 0, sizeof e);
        e.size = sizeof e;
        rc = tco_estimate_compute(&e, t, w, p, &err);
        if (rc == TCO_OK) {
            uint64_t fp;
            assert_int_equal(tco_scenario_fingerprint(&fp, t, w, p, NULL), TCO_OK);
            assert_true(e.scenario_fingerprint == fp);
            uint8_t *res = malloc(want.n + 4096);
            assert_non_null(res);
            assert_int_equal(tco_estimate_save_cbor(res, want.n + 4096, &len, &e, &err), TCO_OK);
            if (len != want.n || memcmp(res, want.p, len) != 0) {
                print_error("%s: the result differs from %s.result.cbor\n", name, name);
                explain(want.p, want.n, res, len);
                free(res);
                fail();
            }
            free(res);
        }
    }
    if (rc != TCO_OK)
        print_error("%s: %s\n", name, err.message);
    assert_int_equal(rc, TCO_OK);
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
    free(out);
    free(in.p);
    free(want.p);
}

static void test_default(void **state) { (void)state; check("default"); }
static void test_owned(void **state) { (void)state; check("owned"); }
static void test_moe(void **state) { (void)state; check("moe"); }
static void test_multisite(void **state) { (void)state; check("multisite"); }

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s GOLDEN_DIR\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default),
        cmocka_unit_test(test_owned),
        cmocka_unit_test(test_moe),
        cmocka_unit_test(test_multisite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
