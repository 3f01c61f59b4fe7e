/* The parameter table itself: the invariants everything else relies on. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/core.h"

/* The key's spelling in tco.h, straight from the table's rows. */
static const char *const key_spelling[IX_COUNT] = {
#define P(KEY, H, T, C, name, unit, def, lo, hi, deftext, desc) #KEY,
#include "core/params.def"
#undef P
};

static void test_name_is_key_in_lower_case(void **state)
{
    (void)state;
    for (int i = 0; i < IX_COUNT; i++) {
        const char *name = tco__params[i].name, *key = key_spelling[i];
        assert_int_equal(strlen(name), strlen(key));
        for (size_t j = 0; key[j]; j++)
            assert_int_equal(name[j], tolower((unsigned char)key[j]));
    }
}

static void test_keys_sorted_unique_and_grouped_by_handle(void **state)
{
    (void)state;
    for (int i = 0; i < IX_COUNT; i++) {
        assert_int_equal(tco__params[i].key / 1000, tco__params[i].handle);
        if (i > 0)
            assert_true(tco__params[i - 1].key < tco__params[i].key); /* tco__param_index bisects */
        assert_int_equal(tco__param_index(tco__params[i].key), i);
    }
    assert_int_equal(tco__param_index(999), -1);
    assert_int_equal(tco__param_index(4000), -1);
}

static void test_names_unique(void **state)
{
    (void)state;
    for (int i = 0; i < IX_COUNT; i++)
        for (int j = i + 1; j < IX_COUNT; j++)
            assert_string_not_equal(tco__params[i].name, tco__params[j].name);
}

static void test_defaults_valid(void **state)
{
    (void)state;
    for (int i = 0; i < IX_COUNT; i++) {
        const param_row *r = &tco__params[i];
        assert_true(r->description[0] != '\0');
        if (r->type == TCO_TYPE_TEXT) {
            assert_true(strlen(r->deftext) < TCO_TEXT_MAX);
            continue;
        }
        assert_true(r->lo <= r->hi);
        assert_int_equal(tco__param_check(r, r->def, NULL), TCO_OK);
        if (r->type == TCO_TYPE_CHOICE)
            assert_string_equal(tco__choice_name(r->choices, r->def), r->deftext);
        else if (r->def < r->lo) /* a stand-in: its text says for what */
            assert_true(r->deftext[0] != '\0' && r->def == LIST_PRICE);
        else
            assert_string_equal(r->deftext, "");
    }
}

/* The encoder writes INT and BOOL values as CBOR unsigned integers
 * (core/encode.c): the setters keep them whole and within the row's
 * bounds, so the bounds must be 0 to 2^53. */
static void test_whole_numbers_unsigned(void **state)
{
    (void)state;
    for (int i = 0; i < IX_COUNT; i++) {
        const param_row *r = &tco__params[i];
        if (r->type == TCO_TYPE_INT || r->type == TCO_TYPE_BOOL) {
            assert_true(r->lo >= 0 && r->def >= r->lo);
            assert_true(r->hi <= 0x1p53);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_name_is_key_in_lower_case),
        cmocka_unit_test(test_keys_sorted_unique_and_grouped_by_handle),
        cmocka_unit_test(test_names_unique),
        cmocka_unit_test(test_defaults_valid),
        cmocka_unit_test(test_whole_numbers_unsigned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
