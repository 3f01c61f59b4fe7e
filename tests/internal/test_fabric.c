/* White-box tests of tco__fabric_size() (lib/core/fabric.c): folded-Clos ("fat-tree")
 * sizing against hand-worked counts.
 *
 * Source: M. Al-Fares, A. Loukissas, A. Vahdat, "A Scalable, Commodity Data
 * Center Network Architecture", SIGCOMM 2008, the fat-tree topology they
 * describe (and their figure of the k = 4 tree): a k-ary fat tree
 * built from k-port switches has k pods of k/2 edge and k/2 aggregation
 * switches plus (k/2)^2 core switches, i.e. 5k^2/4 switches, and connects
 * k^3/4 hosts. Every level carries k^3/4 links (hosts-edge, edge-aggregation,
 * aggregation-core), 3k^3/4 links in all. For k = 4: 16 hosts, 20 switches,
 * 48 links; for k = 48: 27,648 hosts, 2,880 switches.
 *
 * Tier boundaries (non-blocking): one switch serves up to k endpoints; a
 * two-tier leaf-spine of k leaves (k/2 down, k/2 up) and k/2 spines serves
 * k^2/2; three tiers serve k^3/4 (Al-Fares). Each further tier multiplies
 * the reach by k/2 (the library's generalisation, up to 16 tiers).
 *
 * Expected values below are written out by hand from those counts; none is
 * computed by calling the library. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/core.h"

static fabric sized(double endpoints, double k, double oversub)
{
    fabric f;
    tco_error err = TCO_ERROR_INIT;
    memset(&f, 0xA5, sizeof f);
    int rc = tco__fabric_size(&f, endpoints, k, oversub, &err);
    if (rc != TCO_OK)
        print_error("tco__fabric_size(%g, %g, %g): %s\n", endpoints, k, oversub, err.message);
    assert_int_equal(rc, TCO_OK);
    assert_int_equal(err.code, 0); /* success leaves err alone */
    return f;
}

static void assert_fabric(fabric f, double tiers, double switches, double links)
{
    assert_true(f.tiers == tiers);
    assert_true(f.switches == switches);
    assert_true(f.links == links);
    assert_true(f.optics == 2 * links); /* two transceivers per link */
}

/* Al-Fares 2008, the k = 4 fat tree they draw: k = 4 gives 16 hosts, 4 pods of
 * 2 edge + 2 aggregation switches (16) and (4/2)^2 = 4 cores: 20 switches.
 * Links: 16 host-edge + 4 pods x 2 x 2 edge-aggregation (16) + 16
 * aggregation-core = 48. */
static void test_al_fares_k4(void **state)
{
    (void)state;
    fabric f = sized(16, 4, 1);
    assert_fabric(f, 3, 20, 48);
}

/* Al-Fares 2008: a fat tree of 48-port GigE switches connects 27,648 hosts
 * (48^3/4) with 5 x 48^2 / 4 = 2,880 switches. Links:
 * 3 x 48^3 / 4 = 82,944. */
static void test_al_fares_k48(void **state)
{
    (void)state;
    fabric f = sized(27648, 48, 1);
    assert_fabric(f, 3, 2880, 82944);
}

/* The identities hosts = k^3/4, switches = 5k^2/4, links = 3k^3/4 for every
 * even radix the table allows, spelled out for a few (k, hosts, switches,
 * links) rows computed by hand. */
static void test_al_fares_identities(void **state)
{
    (void)state;
    static const double rows[][4] = {
        /* k    k^3/4      5k^2/4    3k^3/4 */
        { 4, 16, 20, 48 },
        { 8, 128, 80, 384 },
        { 16, 1024, 320, 3072 },
        { 24, 3456, 720, 10368 },
        { 32, 8192, 1280, 24576 },
        { 48, 27648, 2880, 82944 },
        { 64, 65536, 5120, 196608 },
        { 128, 524288, 20480, 1572864 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fabric f = sized(rows[i][1], rows[i][0], 1);
        assert_fabric(f, 3, rows[i][2], rows[i][3]);
    }
}

/* One tier: up to k endpoints on a single switch, every port facing down.
 * At the boundary (k = 64, 64 endpoints): 1 switch, 64 links. */
static void test_one_tier_boundary(void **state)
{
    (void)state;
    assert_fabric(sized(1, 64, 1), 1, 1, 1);
    assert_fabric(sized(64, 64, 1), 1, 1, 64);
    assert_fabric(sized(4, 4, 1), 1, 1, 4);
}

/* One past k: two tiers. k = 64, 65 endpoints: leaves of 32 down / 32 up,
 * ceil(65/32) = 3 leaves, 3 x 32 = 96 uplinks, spines of 64 ports:
 * ceil(96/64) = 2 spines; 5 switches; links 65 + 96 = 161.
 * k = 4, 5 endpoints: ceil(5/2) = 3 leaves, 6 uplinks, ceil(6/4) = 2
 * spines; 5 switches; links 5 + 6 = 11. */
static void test_two_tiers_just_past_one(void **state)
{
    (void)state;
    assert_fabric(sized(65, 64, 1), 2, 5, 161);
    assert_fabric(sized(5, 4, 1), 2, 5, 11);
}

/* Two tiers at their limit k^2/2: k leaves and k/2 spines, 3k/2 switches;
 * links k^2/2 (endpoints) + k x k/2 (uplinks) = k^2.
 * k = 64: 2,048 endpoints, 96 switches, 4,096 links.
 * k = 4: 8 endpoints, 6 switches, 16 links. */
static void test_two_tier_boundary(void **state)
{
    (void)state;
    assert_fabric(sized(2048, 64, 1), 2, 96, 4096);
    assert_fabric(sized(8, 4, 1), 2, 6, 16);
}

/* One past k^2/2: three tiers. k = 64, 2,049 endpoints: ceil(2049/32) = 65
 * leaves, 65 x 32 = 2,080 uplinks, aggregation switches with 32 down:
 * ceil(2080/32) = 65, cores of 64 ports: ceil(2080/64) = 33 (32.5 up);
 * 65 + 65 + 33 = 163 switches; links 2,049 + 2 x 2,080 = 6,209.
 * k = 4, 9 endpoints: 5 leaves, 10 uplinks, 5 aggregation, ceil(10/4) = 3
 * cores: 13 switches; links 9 + 20 = 29. */
static void test_three_tiers_just_past_two(void **state)
{
    (void)state;
    assert_fabric(sized(2049, 64, 1), 3, 163, 6209);
    assert_fabric(sized(9, 4, 1), 3, 13, 29);
}

/* Three tiers at k^3/4 (k = 64: 65,536 endpoints; Al-Fares: 5k^2/4 = 5,120
 * switches, 3k^3/4 = 196,608 links), and one past it: four tiers.
 * k = 64, 65,537 endpoints: ceil(65537/32) = 2,049 leaves, 65,568 uplinks,
 * two middle tiers of ceil(65568/32) = 2,049 switches each, top tier of
 * ceil(65568/64) = 1,025 (1,024.5 up): 2,049 + 2 x 2,049 + 1,025 = 7,172
 * switches; links 65,537 + 3 x 65,568 = 262,241.
 * k = 4, 17 endpoints: 9 leaves, 18 uplinks, 2 x 9 middle, ceil(18/4) = 5
 * top: 32 switches; links 17 + 54 = 71. */
static void test_three_tier_boundary_and_past(void **state)
{
    (void)state;
    assert_fabric(sized(65536, 64, 1), 3, 5120, 196608);
    assert_fabric(sized(65537, 64, 1), 4, 7172, 262241);
    assert_fabric(sized(16, 4, 1), 3, 20, 48);
    assert_fabric(sized(17, 4, 1), 4, 32, 71);
}

/* Oversubscription r at the leaf: of k ports, floor(k r / (1 + r)) face
 * down. k = 64, r = 3: floor(192/4) = 48 down, 16 up. A two-tier tree then
 * reaches 48 x 64 = 3,072 endpoints with 64 leaves, 64 x 16 = 1,024 uplinks
 * and 1,024/64 = 16 spines: 80 switches, 3,072 + 1,024 = 4,096 links.
 * With 96 endpoints: 2 leaves of 48 down (not 3 leaves of 32: that would
 * be the non-blocking count), 32 uplinks, 1 spine: 3 switches, 128 links. */
static void test_oversubscription(void **state)
{
    (void)state;
    assert_fabric(sized(96, 64, 3), 2, 3, 128);
    assert_fabric(sized(3072, 64, 3), 2, 80, 4096);
    /* One past 3,072: three tiers, reach 48 x 64 x 32 = 98,304.
     * ceil(3073/48) = 65 leaves, 1,040 uplinks, ceil(1040/32) = 33
     * aggregation, ceil(1040/64) = 17 cores: 115 switches;
     * links 3,073 + 2 x 1,040 = 5,153. */
    assert_fabric(sized(3073, 64, 3), 3, 115, 5153);
    assert_fabric(sized(98304, 64, 3), 3, 2048 + 1024 + 512, 98304 + 2 * 32768);
    /* The same 3,073 endpoints non-blocking need 3 tiers as well but more
     * switches: 97 leaves, 3,104 uplinks, 97 aggregation, 49 cores. */
    assert_fabric(sized(3073, 64, 1), 3, 97 + 97 + 49, 3073 + 2 * 3104);
    /* r = 1.5 on k = 64: floor(96/2.5) = floor(38.4) = 38 down, 26 up;
     * 38 x 64 = 2,432 endpoints in two tiers with 64 leaves, 1,664 uplinks,
     * 26 spines. */
    assert_fabric(sized(2432, 64, 1.5), 2, 64 + 26, 2432 + 1664);
    assert_fabric(sized(2433, 64, 1.5), 3, 65 + 53 + 27, 2433 + 2 * 1690);
}

/* No endpoints (a single node without a back-end fabric): nothing at all. */
static void test_zero_endpoints(void **state)
{
    (void)state;
    assert_fabric(sized(0, 64, 1), 0, 0, 0);
    assert_fabric(sized(0, 4, 16), 0, 0, 0);
}

/* Radix 4 reaches 2 x 4 x 2^(t-2) endpoints in t tiers: 16 tiers reach
 * 8 x 2^14 = 131,072. One more endpoint needs a 17th tier: an error that
 * names switch_radix (the input to raise) and leaves no half-sized fabric. */
static void test_too_many_tiers(void **state)
{
    (void)state;
    fabric f = sized(131072, 4, 1);
    assert_true(f.tiers == 16);
    /* 65,536 leaves, 131,072 uplinks, 14 middle tiers of 65,536 and a top
     * tier of 32,768 switches. */
    assert_fabric(f, 16, 65536 + 14 * 65536.0 + 32768, 131072 + 15 * 131072.0);

    static const double too_many[] = { 131073, 1e9, 1e12 };
    for (size_t i = 0; i < sizeof too_many / sizeof too_many[0]; i++) {
        tco_error err = TCO_ERROR_INIT;
        fabric g;
        int rc = tco__fabric_size(&g, too_many[i], 4, 1, &err);
        assert_int_equal(rc, TCO_E_INCONSISTENT);
        assert_int_equal(err.code, TCO_E_INCONSISTENT);
        assert_int_equal(err.param, TCO_P_SWITCH_RADIX);
        assert_string_equal(err.param_name, "switch_radix");
        assert_non_null(strstr(err.message, "switch_radix"));
    }
    /* A NULL error pointer is allowed: the status still comes back. */
    fabric h;
    assert_int_equal(tco__fabric_size(&h, 1e9, 4, 1, NULL), TCO_E_INCONSISTENT);
}

/* Bigger switches push every boundary out: 1e6 endpoints need 4 tiers of
 * radix 64 (reach 3 tiers: 65,536; 4 tiers: 2,097,152) but 3 of radix 256
 * (reach 256^3/4 = 4,194,304). */
static void test_radix_moves_boundaries(void **state)
{
    (void)state;
    assert_true(sized(1e6, 64, 1).tiers == 4);
    assert_true(sized(1e6, 256, 1).tiers == 3);
    assert_true(sized(2097152, 64, 1).tiers == 4);
    assert_true(sized(2097153, 64, 1).tiers == 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_al_fares_k4),
        cmocka_unit_test(test_al_fares_k48),
        cmocka_unit_test(test_al_fares_identities),
        cmocka_unit_test(test_one_tier_boundary),
        cmocka_unit_test(test_two_tiers_just_past_one),
        cmocka_unit_test(test_two_tier_boundary),
        cmocka_unit_test(test_three_tiers_just_past_two),
        cmocka_unit_test(test_three_tier_boundary_and_past),
        cmocka_unit_test(test_oversubscription),
        cmocka_unit_test(test_zero_endpoints),
        cmocka_unit_test(test_too_many_tiers),
        cmocka_unit_test(test_radix_moves_boundaries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
