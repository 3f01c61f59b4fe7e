/* White-box: the tags table under forced hash collisions, its load factor,
 * and the readers' number, time and display helpers against independent
 * references (strtod, hand-worked dates). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "records/reader.h"
#include "records/records.h"

/* Texts of one hash are told apart by their bytes, however many share it. */
static void test_equal_hashes_different_texts(void **state)
{
    (void)state;
    tco_tags *t;
    assert_int_equal(tco_tags_new(&t, NULL), TCO_OK);
    enum { N = 300 };
    char buf[32];
    uint32_t id;
    for (uint32_t i = 0; i < N; i++) {
        int n = snprintf(buf, sizeof buf, "text-%u", i);
        assert_int_equal(tco__tags_intern_hashed(t, buf, (size_t)n, 42, &id, NULL), TCO_OK);
        assert_int_equal(id, i);
    }
    assert_int_equal(tco_tags_count(t), N);
    for (uint32_t i = 0; i < N; i++) {
        int n = snprintf(buf, sizeof buf, "text-%u", i);
        assert_int_equal(tco__tags_find_hashed(t, buf, (size_t)n, 42, &id), TCO_OK);
        assert_int_equal(id, i);
        /* Interning again finds it: no second copy. */
        assert_int_equal(tco__tags_intern_hashed(t, buf, (size_t)n, 42, &id, NULL), TCO_OK);
        assert_int_equal(id, i);
        assert_string_equal(tco_tags_text(t, i), buf);
    }
    assert_int_equal(tco_tags_count(t), N);
    /* Same hash, other bytes (a prefix, one byte off, longer): not there. */
    assert_int_equal(tco__tags_find_hashed(t, "text-1", 5, 42, &id), TCO_E_INDEX);
    assert_int_equal(tco__tags_find_hashed(t, "text-x", 6, 42, &id), TCO_E_INDEX);
    assert_int_equal(tco__tags_find_hashed(t, "text-10000", 10, 42, &id), TCO_E_INDEX);
    /* Same bytes, another hash: the hash is part of the key. */
    assert_int_equal(tco__tags_find_hashed(t, "text-7", 6, 43, &id), TCO_E_INDEX);
    assert_int_equal(tco_tags_count(t), N);
    tco_tags_free(t);
}

/* Hashes equal in the low bits (one start slot) but not the high half,
 * and equal in the high half but not the low bits. */
static void test_shared_slots_and_high_halves(void **state)
{
    (void)state;
    tco_tags *t;
    assert_int_equal(tco_tags_new(&t, NULL), TCO_OK);
    uint32_t id;
    char buf[32];
    for (uint32_t i = 0; i < 200; i++) {
        int n = snprintf(buf, sizeof buf, "s%u", i);
        uint64_t h = i % 2 ? (uint64_t)i << 32 | 7 : (uint64_t)0xabcdef << 32 | (uint64_t)(i * 64);
        assert_int_equal(tco__tags_intern_hashed(t, buf, (size_t)n, h, &id, NULL), TCO_OK);
        assert_int_equal(id, i);
    }
    for (uint32_t i = 0; i < 200; i++) {
        int n = snprintf(buf, sizeof buf, "s%u", i);
        uint64_t h = i % 2 ? (uint64_t)i << 32 | 7 : (uint64_t)0xabcdef << 32 | (uint64_t)(i * 64);
        assert_int_equal(tco__tags_find_hashed(t, buf, (size_t)n, h, &id), TCO_OK);
        assert_int_equal(id, i);
    }
    tco_tags_free(t);
}

/* At most half the slots are used, so that a probe always meets an empty
 * one; the public functions file a text under XXH3. */
static void test_load_factor_and_public_hash(void **state)
{
    (void)state;
    tco_tags *t;
    assert_int_equal(tco_tags_new(&t, NULL), TCO_OK);
    assert_int_equal(tco__tags_slots(t), 0);
    char buf[32];
    uint32_t id;
    for (uint32_t i = 0; i < 5000; i++) {
        int n = snprintf(buf, sizeof buf, "%u", i);
        assert_int_equal(tco_tags_intern(t, buf, (size_t)n, &id, NULL), TCO_OK);
        size_t slots = tco__tags_slots(t);
        assert_true(slots >= 2 * tco_tags_count(t));
        assert_int_equal(slots & (slots - 1), 0);
        assert_int_equal(tco__tags_find_hashed(t, buf, (size_t)n, tco__tags_hash(buf, (size_t)n), &id), TCO_OK);
        assert_int_equal(id, i);
    }
    /* XXH3-64 of "" and "abc", seed 0 (xxHash's published values). */
    assert_true(tco__tags_hash("", 0) == UINT64_C(0x2d06800538d394c2));
    assert_true(tco__tags_hash("abc", 3) == UINT64_C(0x78af5f94892f3950));
    tco_tags_free(t);
}

static void test_tag_problem(void **state)
{
    (void)state;
    size_t at = 99;
    char big[TCO_TAG_MAX + 1];
    memset(big, 'a', sizeof big);
    assert_null(tco__tag_problem(big, TCO_TAG_MAX, &at));
    assert_non_null(tco__tag_problem(big, TCO_TAG_MAX + 1, &at));
    assert_int_equal(at, TCO_TAG_MAX + 1);
    assert_non_null(tco__tag_problem("ab\0", 3, &at));
    assert_int_equal(at, 2);
    assert_non_null(tco__tag_problem("ab\x80", 3, &at));
    assert_int_equal(at, 2);
    assert_null(tco__tag_problem("", 0, &at));
}

/* What strtod reads, bit for bit: short numbers (Clinger's fast path) and
 * long ones, with exponents far past 22. */
static void test_numbers_against_strtod(void **state)
{
    (void)state;
    uint64_t x = 88172645463325252u;
    char buf[64];
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int digits = 1 + (int)(x % 15), point = (int)((x >> 8) % (digits + 1)), e = (int)((x >> 16) % 45) - 22;
        uint64_t m = (x >> 20) % 1000000000000000u;
        char d[32];
        snprintf(d, sizeof d, "%015llu", (unsigned long long)m);
        const char *s = d + 15 - digits;
        int n = snprintf(buf, sizeof buf, "%.*s.%se%d", point, s, s + point, e);
        double got = -1;
        int rc = tco__parse_number(buf, (size_t)n, &got);
        assert_int_equal(rc, PARSE_OK);
        double want = strtod(buf, NULL);
        if (got != want)
            print_error("%s read as %.17g, strtod %.17g\n", buf, got, want);
        assert_true(got == want);
    }
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int e = (int)(x % 600) - 330; /* 22 digits x 10^e stays finite */
        int n = snprintf(buf, sizeof buf, "%llu%03llue%d", (unsigned long long)(x >> 1),
                         (unsigned long long)(x % 1000), e);
        double got;
        assert_int_equal(tco__parse_number(buf, (size_t)n, &got), PARSE_OK);
        double want = strtod(buf, NULL);
        if (got != want)
            print_error("%s read as %.17g, strtod %.17g\n", buf, got, want);
        assert_true(got == want);
    }
    /* Texts too long for strtod's copy go through long double: a large
     * and a small power, each within an ulp of strtod (the spare bits of
     * an x87 or quad long double absorb the scaling). */
    char huge[600], tiny[600];
    memset(huge, '0', sizeof huge);
    huge[0] = '7', huge[31] = '.', huge[sizeof huge - 1] = '\0'; /* 7e30, 598 characters */
    memset(tiny, '0', sizeof tiny);
    tiny[0] = '0', tiny[1] = '.', tiny[40] = '3', tiny[sizeof tiny - 1] = '\0'; /* 3e-39 */
    const char *longs[] = { huge, tiny };
    for (int i = 0; i < 2; i++) {
        double got, want = strtod(longs[i], NULL);
        assert_int_equal(tco__parse_number(longs[i], strlen(longs[i]), &got), PARSE_OK);
        assert_true(fabs(got - want) <= want * 0x1p-52);
    }
    double v;
    assert_int_equal(tco__parse_number("1e309", 5, &v), PARSE_RANGE);
    assert_int_equal(tco__parse_number("-1e309", 6, &v), PARSE_RANGE);
    assert_int_equal(tco__parse_number("1e99999999999", 13, &v), PARSE_RANGE);
    assert_int_equal(tco__parse_number("1e-99999999999", 14, &v), PARSE_OK);
    assert_true(v == 0);
    assert_int_equal(tco__parse_number("12", 1, &v), PARSE_OK); /* only the n bytes given */
    assert_true(v == 1);
    assert_int_equal(tco__parse_number("1e", 1, &v), PARSE_OK); /* an exponent past them is not read */
    assert_true(v == 1);
    /* zero with any exponent is zero, even one past the largest double's */
    assert_int_equal(tco__parse_number("0e500", 5, &v), PARSE_OK);
    assert_true(v == 0);
    assert_int_equal(tco__parse_count("123456789012345", 15, &v), PARSE_OK);
    assert_true(v == 123456789012345.0);
    assert_int_equal(tco__parse_count("1234567890123456", 16, &v), PARSE_RANGE);
    assert_int_equal(tco__parse_count("", 0, &v), PARSE_SYNTAX);
    assert_int_equal(tco__parse_count("+1", 2, &v), PARSE_SYNTAX);
    assert_int_equal(tco__parse_count("1.0", 3, &v), PARSE_SYNTAX);
}

/* Every day from 1970 to 2400 against a day counter that adds up months. */
static void test_times_day_by_day(void **state)
{
    (void)state;
    static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    double day = 0;
    char buf[40];
    for (int y = 1970; y < 2400; y++) {
        int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        for (int m = 1; m <= 12; m++) {
            int last = mdays[m - 1] + (m == 2 && leap);
            for (int d = 1; d <= last + 1; d++) {
                snprintf(buf, sizeof buf, "%04d-%02d-%02dT23:59:59", y, m, d);
                double t;
                int rc = tco__parse_time(buf, 19, 0, &t);
                if (d > last) { /* the day after the month's last */
                    assert_int_equal(rc, PARSE_SYNTAX);
                    continue;
                }
                assert_int_equal(rc, PARSE_OK);
                assert_true(t == day * 86400 + 86399);
                day++;
            }
        }
    }
    double t;
    assert_int_equal(tco__parse_time("2026-11-01T00:00:00Z", 20, 0, &t), PARSE_SYNTAX); /* sacct: no zone */
    assert_int_equal(tco__parse_time("2026-11-01T00:00:00", 19, 1, &t), PARSE_SYNTAX);  /* CSV: a zone */
    assert_int_equal(tco__parse_time("2026-11-01T00:00:00.123456789Z", 30, 1, &t), PARSE_OK);
    assert_int_equal(tco__parse_time("2026-11-01T00:00:00.1234567890Z", 31, 1, &t), PARSE_SYNTAX);
    assert_int_equal(tco__parse_time("1970-01-01T00:30:00+01:00", 25, 1, &t), PARSE_RANGE);
    assert_int_equal(tco__parse_time("9999-12-31T23:59:59-00:01", 25, 1, &t), PARSE_RANGE);
}

/* Numbers too long to copy for strtod (past 508 bytes) with more digits
 * than a double holds (19 kept, the rest dropped after the point) are
 * scaled in long double: within an ulp of strtod's correctly rounded
 * value; and out of range when the product is past a double though
 * finite in long double. (test_numbers_against_strtod takes the loops of
 * 10^27 with one digit.) */
static void test_numbers_too_long_to_copy(void **state)
{
    (void)state;
    static char buf[640];
    int n = snprintf(buf, sizeof buf, "1234567890.123456789%0*d", 560, 0);
    double got = -1, want = strtod(buf, NULL);
    assert_int_equal(tco__parse_number(buf, (size_t)n, &got), PARSE_OK);
    assert_true(got == want || got == nextafter(want, 0) || got == nextafter(want, INFINITY));
    /* 19 digits x 10^381 */
    n = snprintf(buf, sizeof buf, "1234567890123456789%0*d.%0*d", 381, 0, 200, 0);
    double v = -1;
    assert_int_equal(tco__parse_number(buf, (size_t)n, &v), PARSE_RANGE);
    assert_true(v == -1);
}

/* Every byte of a time in turn made wrong is refused, and so is every
 * field past its range and every malformed zone; the zones that are right
 * move the time by what they say. */
static void test_times_malformed(void **state)
{
    (void)state;
    const char *good = "2026-11-01T12:34:56";
    double t0, t;
    assert_int_equal(tco__parse_time(good, 19, 0, &t0), PARSE_OK);
    assert_true(t0 == 1793491200.0 + 12 * 3600 + 34 * 60 + 56); /* 2026-11-01 is day 20,758 */
    for (int i = 0; i < 19; i++) {
        char b[20];
        memcpy(b, good, 20);
        b[i] = 'x';
        assert_int_equal(tco__parse_time(b, 19, 0, &t), PARSE_SYNTAX);
    }
    const char *past[] = { "2026-00-01T00:00:00", "2026-13-01T00:00:00", "2026-11-00T00:00:00",
                           "2026-11-31T00:00:00", "2026-11-01T24:00:00", "2026-11-01T00:60:00",
                           "2026-11-01T00:00:60" };
    for (size_t i = 0; i < sizeof past / sizeof past[0]; i++)
        assert_int_equal(tco__parse_time(past[i], 19, 0, &t), PARSE_SYNTAX);
    assert_int_equal(tco__parse_time(good, 18, 0, &t), PARSE_SYNTAX); /* too short */
    const struct {
        const char *s;
        int rc;
        double shift;
    } zones[] = {
        { "2026-11-01T12:34:56Z", PARSE_OK, 0 },
        { "2026-11-01T12:34:56+01:30", PARSE_OK, -5400 },
        { "2026-11-01T12:34:56-02:00", PARSE_OK, 7200 },
        { "2026-11-01T12:34:56.5Z", PARSE_OK, 0.5 },
        { "2026-11-01T12:34:56.Z", PARSE_SYNTAX, 0 },     /* a point without digits */
        { "2026-11-01T12:34:56+24:00", PARSE_SYNTAX, 0 }, /* hours past 23 */
        { "2026-11-01T12:34:56+01:60", PARSE_SYNTAX, 0 }, /* minutes past 59 */
        { "2026-11-01T12:34:56+01-00", PARSE_SYNTAX, 0 },
        { "2026-11-01T12:34:56+0a:00", PARSE_SYNTAX, 0 },
        { "2026-11-01T12:34:56+01:0a", PARSE_SYNTAX, 0 },
        { "2026-11-01T12:34:56+01:0", PARSE_SYNTAX, 0 },  /* cut short */
        { "2026-11-01T12:34:56ZZ", PARSE_SYNTAX, 0 },     /* more after the zone */
        { "2026-11-01T12:34:56Q", PARSE_SYNTAX, 0 },
    };
    for (size_t i = 0; i < sizeof zones / sizeof zones[0]; i++) {
        t = -1;
        int rc = tco__parse_time(zones[i].s, strlen(zones[i].s), 1, &t);
        if (rc != zones[i].rc)
            fail_msg("%s: %d, expected %d", zones[i].s, rc, zones[i].rc);
        if (rc == PARSE_OK)
            assert_true(t == t0 + zones[i].shift);
        else
            assert_true(t == -1);
    }
}

static void test_show(void **state)
{
    (void)state;
    char buf[TCO__SHOW_MAX];
    tco__show(buf, sizeof buf, "a\"b\\c\n\x01\x7f\xff", 9);
    assert_string_equal(buf, "\"a\\\"b\\\\c\\x0a\\x01\\x7f\\xff\"");
    char many[200];
    memset(many, 0xff, sizeof many);
    tco__show(buf, sizeof buf, many, sizeof many);
    assert_int_equal(strlen(buf), 1 + 4 * TCO__SHOW_BYTES + 3 + 1); /* cut, with "..." */
    assert_int_equal(strcmp(buf + strlen(buf) - 4, "...\""), 0);
    char small[8];
    tco__show(small, sizeof small, "abcdefgh", 8);
    assert_true(strlen(small) < sizeof small);
    tco__show(buf, sizeof buf, "", 0);
    assert_string_equal(buf, "\"\"");
}

/* Texts of TCO_TAG_MAX bytes past what blocks up to the largest (1 MiB)
 * hold, 4 KiB doubling to it (about 2 MiB): every text is still where it
 * was first written, and found. */
static void test_blocks_up_to_their_largest(void **state)
{
    (void)state;
    enum { N = 12000 }; /* 12,000 x 257 bytes: 3 MiB */
    static const char *at[N];
    tco_tags *t;
    assert_int_equal(tco_tags_new(&t, NULL), TCO_OK);
    assert_int_equal(tco__tags_slots(NULL), 0);
    char buf[TCO_TAG_MAX + 1];
    uint32_t id;
    for (uint32_t i = 0; i < N; i++) {
        memset(buf, 'a' + (char)(i % 26), TCO_TAG_MAX);
        snprintf(buf, sizeof buf, "%u", i);
        buf[strlen(buf)] = '-';
        assert_int_equal(tco_tags_intern(t, buf, TCO_TAG_MAX, &id, NULL), TCO_OK);
        assert_int_equal(id, i);
        at[i] = tco_tags_text(t, id);
    }
    for (uint32_t i = 0; i < N; i++) {
        memset(buf, 'a' + (char)(i % 26), TCO_TAG_MAX);
        snprintf(buf, sizeof buf, "%u", i);
        buf[strlen(buf)] = '-';
        assert_int_equal(tco_tags_find(t, buf, TCO_TAG_MAX, &id, NULL), TCO_OK);
        assert_int_equal(id, i);
        assert_ptr_equal(tco_tags_text(t, id), at[i]);
        assert_memory_equal(at[i], buf, TCO_TAG_MAX);
        assert_int_equal(at[i][TCO_TAG_MAX], '\0');
    }
    tco_tags_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equal_hashes_different_texts),
        cmocka_unit_test(test_shared_slots_and_high_halves),
        cmocka_unit_test(test_load_factor_and_public_hash),
        cmocka_unit_test(test_tag_problem),
        cmocka_unit_test(test_numbers_against_strtod),
        cmocka_unit_test(test_times_day_by_day),
        cmocka_unit_test(test_show),
        cmocka_unit_test(test_numbers_too_long_to_copy),
        cmocka_unit_test(test_times_malformed),
        cmocka_unit_test(test_blocks_up_to_their_largest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
