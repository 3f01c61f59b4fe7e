/* Black-box tests of scenario files read and written (lib/io, doc/format.md)
 * beside test_scenario.c: what the quiet scan for a file's version skips
 * and never enters, negative integers, the handles freed when a load
 * fails late, the bounds of an estimate's size, and the arguments of the
 * loaders and savers. Files are written byte by byte (RFC 8949 heads:
 * major type in the top three bits, a length below 24 in the low five). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <tco.h>

#include "alloc_count.h"

typedef struct cb {
    uint8_t b[256];
    size_t n;
} cb;

static void put(cb *c, int byte)
{
    assert_true(c->n < sizeof c->b);
    c->b[c->n++] = (uint8_t)byte;
}

/* A text string shorter than 24 bytes: head 0x60 + length. */
static void text(cb *c, const char *s)
{
    size_t n = strlen(s);
    assert_true(n < 24);
    put(c, 0x60 + (int)n);
    for (size_t i = 0; i < n; i++)
        put(c, s[i]);
}

static tco_error load_fails(const cb *c, int code)
{
    tco_topology *t = NULL;
    tco_workload *w = NULL;
    tco_pricing *p = NULL;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_scenario_load_cbor(&t, &w, &p, c->b, c->n, &err);
    if (rc != code)
        fail_msg("got %s \"%s\", want %s", tco_status_name(rc), err.message, tco_status_name(code));
    assert_null(t);
    return err;
}

/* An error in a file says when the file is newer than the library: the
 * version is found after values of every kind, skipped whole. */
static void test_version_after_containers(void **state)
{
    (void)state;
    static const uint8_t values[][8] = {
        { 0x83, 0x01, 0x02, 0x03 },             /* [1, 2, 3] */
        { 0xa2, 0x61, 'a', 0x01, 0x61, 'b', 0x02 }, /* {"a": 1, "b": 2} */
        { 0xc0, 0x82, 0x01, 0x02 },             /* tag 0 of [1, 2] */
    };
    static const size_t len[] = { 4, 7, 4 };
    for (size_t i = 0; i < 3; i++) {
        cb c = { .n = 0 };
        put(&c, 0xa2); /* {"x": value, "version": 2} */
        text(&c, "x");
        for (size_t k = 0; k < len[i]; k++)
            put(&c, values[i][k]);
        text(&c, "version");
        put(&c, 0x02);
        tco_error err = load_fails(&c, TCO_E_UNKNOWN_PARAM);
        if (!strstr(err.message, "unknown scenario key \"x\"") || !strstr(err.message, "(the file is format version 2;"))
            fail_msg("value %zu: \"%s\"", i, err.message);
    }
}

/* ... but the scan never reads a version out of a value it cannot skip:
 * an indefinite-length item (here a text whose chunks would read as
 * "version": 2), an array declaring 2^64 - 1 items (which would wrap the
 * count of items pending), a file that is not a map. */
static void test_version_never_from_inside(void **state)
{
    (void)state;
    cb c = { .n = 0 };
    put(&c, 0xa2);
    text(&c, "x");
    put(&c, 0x7f); /* an indefinite-length text... */
    text(&c, "version");
    put(&c, 0x02);
    put(&c, 0xff);
    tco_error err = load_fails(&c, TCO_E_UNKNOWN_PARAM);
    assert_non_null(strstr(err.message, "unknown scenario key \"x\""));
    assert_null(strstr(err.message, "format version"));

    c.n = 0;
    put(&c, 0xa2);
    text(&c, "x");
    put(&c, 0x82);  /* [ */
    put(&c, 0x9b);  /*   an array of 2^64 - 1 items: 8 bytes of length */
    for (int k = 0; k < 8; k++)
        put(&c, 0xff);
    text(&c, "version"); /* which would be read as the next key */
    put(&c, 0x02);
    put(&c, 0x00);
    err = load_fails(&c, TCO_E_UNKNOWN_PARAM);
    assert_null(strstr(err.message, "format version"));

    c.n = 0; /* {"x": 1}, then "version": 2 past the map's one entry */
    put(&c, 0xa1);
    text(&c, "x");
    put(&c, 0x01);
    text(&c, "version");
    put(&c, 0x02);
    err = load_fails(&c, TCO_E_UNKNOWN_PARAM);
    assert_null(strstr(err.message, "format version"));

    c.n = 0;
    put(&c, 0x82); /* ["version", 2] */
    text(&c, "version");
    put(&c, 0x02);
    err = load_fails(&c, TCO_E_TYPE);
    assert_non_null(strstr(err.message, "a scenario is a map"));
    assert_non_null(strstr(err.message, "not an array"));
    assert_null(strstr(err.message, "format version"));
}

/* A negative integer n is stored as -1 - n's head value (RFC 8949, major
 * type 1): 0x24 is -5, refused for accelerators (1 to 1e7) as -5; 0x20
 * is -1. */
static void test_negative_integers(void **state)
{
    (void)state;
    const uint8_t file[] = { 0xa1, 0x6c, 'a', 'c', 'c', 'e', 'l', 'e', 'r', 'a', 't', 'o', 'r', 's', 0x24 };
    tco_topology *t = NULL;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_topology_load_cbor(&t, file, sizeof file, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "accelerators");
    assert_non_null(strstr(err.message, "-5"));
    assert_null(t);
    /* on_demand_per_accel_hour = -1 is its default: the list price */
    const uint8_t rate[] = { 0xa1, 0x78, 24, 'o', 'n', '_', 'd', 'e', 'm', 'a', 'n', 'd', '_', 'p', 'e', 'r', '_',
                             'a', 'c', 'c', 'e', 'l', '_', 'h', 'o', 'u', 'r', 0x20 };
    tco_pricing *p = NULL;
    assert_int_equal(tco_pricing_load_cbor(&p, rate, sizeof rate, &err), TCO_OK);
    double v = 0;
    assert_int_equal(tco_pricing_get(p, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, &v, NULL), TCO_OK);
    assert_true(v == -1);
    tco_pricing_free(p);
}

/* Text values: empty is a text; DEL (0x7f) is a control character, as the
 * setter has it. */
static void test_text_values(void **state)
{
    (void)state;
    const uint8_t empty[] = { 0xa1, 0x6c, 'p', 'r', 'i', 'c', 'e', '_', 's', 'o', 'u', 'r', 'c', 'e', 0x60 };
    tco_pricing *p = NULL;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_pricing_load_cbor(&p, empty, sizeof empty, &err), TCO_OK);
    const char *got = NULL;
    assert_int_equal(tco_pricing_get_text(p, TCO_P_PRICE_SOURCE, &got, NULL), TCO_OK);
    assert_string_equal(got, "");
    tco_pricing_free(p);
    const uint8_t del[] = { 0xa1, 0x6c, 'p', 'r', 'i', 'c', 'e', '_', 's', 'o', 'u', 'r', 'c', 'e', 0x62, 'a', 0x7f };
    p = NULL;
    assert_int_equal(tco_pricing_load_cbor(&p, del, sizeof del, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "price_source");
    assert_non_null(strstr(err.message, "control character (byte 1)"));
    assert_null(p);
}

/* A scenario refused at its end (no "version" key) after its three
 * handles were made frees them all. */
static void test_late_failure_frees(void **state)
{
    (void)state;
    if (!alloc_counting())
        skip();
    cb c = { .n = 0 };
    put(&c, 0xa1);
    text(&c, "format");
    text(&c, "libtco-scenario");
    long before = alloc_live;
    tco_error err = load_fails(&c, TCO_E_TYPE);
    assert_non_null(strstr(err.message, "no \"version\" key"));
    assert_int_equal(alloc_live, before);
}

/* An estimate's size may be up to 65,536 bytes (a newer caller's struct,
 * read as far as this library knows it), not one more. */
static void test_estimate_sizes(void **state)
{
    (void)state;
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    assert_int_equal(tco_topology_freeze(t, NULL), TCO_OK);
    assert_int_equal(tco_workload_freeze(w, NULL), TCO_OK);
    assert_int_equal(tco_pricing_freeze(p, NULL), TCO_OK);
    static union {
        tco_estimate e;
        unsigned char b[65536];
    } big;
    big.e.size = sizeof big.e;
    assert_int_equal(tco_estimate_compute(&big.e, t, w, p, NULL), TCO_OK);
    static uint8_t a[16384], b[16384];
    size_t na = 0, nb = 0;
    assert_int_equal(tco_estimate_save_cbor(a, sizeof a, &na, &big.e, NULL), TCO_OK);
    big.e.size = 65536;
    assert_int_equal(tco_estimate_save_cbor(b, sizeof b, &nb, &big.e, NULL), TCO_OK);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    big.e.size = 65537;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_estimate_save_cbor(b, sizeof b, &nb, &big.e, &err), TCO_E_SIZE);

    /* The savers refuse a handle of another kind in a scenario. */
    size_t len;
    assert_int_equal(tco_scenario_save_cbor(NULL, 0, &len, t, (const tco_workload *)p, p, &err), TCO_E_TYPE);
    assert_string_equal(err.message, "the workload given is a pricing handle");
    tco_topology_free(t);
    tco_workload_free(w);
    tco_pricing_free(p);
}

static void test_load_arguments(void **state)
{
    (void)state;
    const uint8_t empty_map[] = { 0xa0 };
    tco_topology *t = NULL;
    tco_workload *w = NULL;
    tco_pricing *p = NULL;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_workload_load_cbor(NULL, empty_map, 1, &err), TCO_E_NULL);
    assert_int_equal(tco_pricing_load_cbor(NULL, empty_map, 1, &err), TCO_E_NULL);
    assert_int_equal(tco_scenario_load_cbor(&t, NULL, &p, empty_map, 1, &err), TCO_E_NULL);
    assert_string_equal(err.message, "w must not be NULL");
    assert_int_equal(tco_scenario_load_cbor(&t, &w, NULL, empty_map, 1, &err), TCO_E_NULL);
    assert_string_equal(err.message, "p must not be NULL");
    assert_int_equal(tco_scenario_load_cbor(NULL, &w, &p, empty_map, 1, &err), TCO_E_NULL);
    assert_string_equal(err.message, "t must not be NULL");
    assert_int_equal(tco_workload_load_cbor(&w, empty_map, 1, &err), TCO_OK);
    tco_workload_free(w);
    assert_null(t);
    assert_null(p);
    /* out of memory for the handle itself */
    if (alloc_counting()) {
        alloc_fail_in = 0;
        assert_int_equal(tco_topology_load_cbor(&t, empty_map, 1, &err), TCO_E_NOMEM);
        alloc_fail_in = -1;
        assert_null(t);
    }
}

/* Keys out of canonical order are found all the same: restart_minutes
 * after intra_node_gbps skips node_mtbf_hours, a key of its length. */
static void test_keys_out_of_order(void **state)
{
    (void)state;
    cb c = { .n = 0 };
    put(&c, 0xa2);
    text(&c, "intra_node_gbps");
    put(&c, 0x18); /* 200 */
    put(&c, 200);
    text(&c, "restart_minutes");
    put(&c, 0x07);
    tco_topology *t = NULL;
    assert_int_equal(tco_topology_load_cbor(&t, c.b, c.n, NULL), TCO_OK);
    double v = 0;
    assert_int_equal(tco_topology_get(t, TCO_P_INTRA_NODE_GBPS, &v, NULL), TCO_OK);
    assert_true(v == 200);
    assert_int_equal(tco_topology_get(t, TCO_P_RESTART_MINUTES, &v, NULL), TCO_OK);
    assert_true(v == 7);
    tco_topology_free(t);
}

/* Truncated data, told where: a value missing at the end, and a map that
 * declares more entries than its bytes could hold (two bytes each at
 * least). */
static void test_truncated(void **state)
{
    (void)state;
    const uint8_t no_value[] = { 0xa1, 0x63, 'p', 'u', 'e' };
    const uint8_t short_map[] = { 0xa3, 0x63, 'p', 'u', 'e' };
    tco_topology *t = NULL;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_topology_load_cbor(&t, no_value, sizeof no_value, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "truncated: the data ends at byte 5, where an item should begin"));
    assert_int_equal(tco_topology_load_cbor(&t, short_map, sizeof short_map, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "the map at byte 0 declares 3 entries but 4 bytes follow"));
    assert_null(t);
    /* {"pue": 1} is 6 bytes (head, text head, 3 letters, 1): two more follow it */
    const uint8_t trailing[] = { 0xa1, 0x63, 'p', 'u', 'e', 0x01, 0x00, 0x00 };
    assert_int_equal(tco_topology_load_cbor(&t, trailing, sizeof trailing, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "2 bytes follow the end of the map at byte 6"));
    assert_null(t);
    /* one byte in the singular: {"pue": 1} and one more; a map of 2
     * entries, at least 4 bytes, with one byte after its head */
    assert_int_equal(tco_topology_load_cbor(&t, trailing, 7, &err), TCO_E_TYPE);
    assert_string_equal(err.message, "1 byte follows the end of the map at byte 6");
    const uint8_t one_left[] = { 0xa2, 0x00 };
    assert_int_equal(tco_topology_load_cbor(&t, one_left, sizeof one_left, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "the map at byte 0 declares 2 entries but 1 byte follows"));
    assert_null(t);
    /* without an error struct (tco.h: err may be NULL) the same code */
    assert_int_equal(tco_topology_load_cbor(&t, no_value, sizeof no_value, NULL), TCO_E_TYPE);
    tco_workload *w = NULL;
    tco_pricing *p = NULL;
    assert_int_equal(tco_scenario_load_cbor(&t, &w, &p, short_map, sizeof short_map, NULL), TCO_E_TYPE);
    assert_null(t);
    assert_null(w);
    assert_null(p);
}

/* A key of another handle is named as that handle's, the last of the
 * three (the pricing) included. */
static void test_key_of_another_handle(void **state)
{
    (void)state;
    cb c = { .n = 0 };
    put(&c, 0xa1);
    text(&c, "electricity_per_kwh");
    put(&c, 0x01);
    tco_topology *t = NULL;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_topology_load_cbor(&t, c.b, c.n, &err), TCO_E_WRONG_HANDLE);
    assert_string_equal(err.param_name, "electricity_per_kwh");
    assert_non_null(strstr(err.message, "electricity_per_kwh belongs to the pricing, not the topology"));
    assert_null(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_after_containers),
        cmocka_unit_test(test_version_never_from_inside),
        cmocka_unit_test(test_negative_integers),
        cmocka_unit_test(test_text_values),
        cmocka_unit_test(test_late_failure_frees),
        cmocka_unit_test(test_estimate_sizes),
        cmocka_unit_test(test_load_arguments),
        cmocka_unit_test(test_keys_out_of_order),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_key_of_another_handle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
