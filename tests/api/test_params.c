/* Every parameter through the public API: introspection, bounds, kinds of
 * value, and that a rejected call changes nothing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <tco.h>

/* One handle of each kind, addressed by tco_handle_kind. */
typedef struct {
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
} handles;

static int set(handles *h, int32_t kind, int32_t key, double v, tco_error *err)
{
    return kind == TCO_HANDLE_TOPOLOGY   ? tco_topology_set(h->t, key, v, err)
           : kind == TCO_HANDLE_WORKLOAD ? tco_workload_set(h->w, key, v, err)
                                         : tco_pricing_set(h->p, key, v, err);
}

static int get(handles *h, int32_t kind, int32_t key, double *v)
{
    return kind == TCO_HANDLE_TOPOLOGY   ? tco_topology_get(h->t, key, v, NULL)
           : kind == TCO_HANDLE_WORKLOAD ? tco_workload_get(h->w, key, v, NULL)
                                         : tco_pricing_get(h->p, key, v, NULL);
}

static int set_text(handles *h, int32_t kind, int32_t key, const char *s, tco_error *err)
{
    return kind == TCO_HANDLE_TOPOLOGY   ? tco_topology_set_text(h->t, key, s, err)
           : kind == TCO_HANDLE_WORKLOAD ? tco_workload_set_text(h->w, key, s, err)
                                         : tco_pricing_set_text(h->p, key, s, err);
}

static int get_text(handles *h, int32_t kind, int32_t key, const char **s)
{
    return kind == TCO_HANDLE_TOPOLOGY   ? tco_topology_get_text(h->t, key, s, NULL)
           : kind == TCO_HANDLE_WORKLOAD ? tco_workload_get_text(h->w, key, s, NULL)
                                         : tco_pricing_get_text(h->p, key, s, NULL);
}

static int setup(void **state)
{
    static handles h;
    if (tco_topology_new(&h.t, NULL) || tco_workload_new(&h.w, NULL) || tco_pricing_new(&h.p, NULL))
        return -1;
    *state = &h;
    return 0;
}

static int teardown(void **state)
{
    handles *h = *state;
    tco_topology_free(h->t);
    tco_workload_free(h->w);
    tco_pricing_free(h->p);
    return 0;
}

/* A rejected value: the expected code, the parameter named, and the value
 * left as it was. */
static void expect_rejected(handles *h, const tco_param_info *in, double v, int code)
{
    tco_error err = TCO_ERROR_INIT;
    double before, after;
    assert_int_equal(get(h, in->handle, in->key, &before), TCO_OK);
    assert_int_equal(set(h, in->handle, in->key, v, &err), code);
    assert_int_equal(err.code, code);
    assert_int_equal(err.param, in->key);
    assert_string_equal(err.param_name, in->name);
    assert_non_null(strstr(err.message, in->name));
    assert_int_equal(get(h, in->handle, in->key, &after), TCO_OK);
    assert_memory_equal(&before, &after, sizeof before);
}

static void test_every_numeric_parameter_bounds(void **state)
{
    handles *h = *state;
    size_t checked = 0;
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        assert_int_equal(tco_param_info_at(&in, i, NULL), TCO_OK);
        if (in.type == TCO_TYPE_TEXT || in.type == TCO_TYPE_CHOICE)
            continue;
        double v;
        /* The default is what a new handle holds. */
        assert_int_equal(get(h, in.handle, in.key, &v), TCO_OK);
        assert_true(v == in.default_value);
        /* Both bounds are allowed... */
        assert_int_equal(set(h, in.handle, in.key, in.min_value, NULL), TCO_OK);
        assert_int_equal(set(h, in.handle, in.key, in.max_value, NULL), TCO_OK);
        assert_int_equal(get(h, in.handle, in.key, &v), TCO_OK);
        assert_true(v == in.max_value);
        /* ...the nearest values past them are not, and the message says so. */
        tco_error err = TCO_ERROR_INIT;
        set(h, in.handle, in.key, nextafter(in.min_value, -INFINITY), &err);
        assert_int_equal(err.code, TCO_E_RANGE);
        assert_int_equal(err.param, in.key);
        expect_rejected(h, &in, nextafter(in.max_value, INFINITY), TCO_E_RANGE);
        expect_rejected(h, &in, in.min_value - 1.5, TCO_E_RANGE);
        /* A default below the range is a stand-in the setters take back
         * (the rates' -1, the accelerator's list price), named by its text. */
        if (in.default_value < in.min_value) {
            assert_true(in.default_text && in.default_text[0] != '\0');
            expect_rejected(h, &in, in.default_value / 2, TCO_E_RANGE);
            assert_int_equal(set(h, in.handle, in.key, in.default_value, NULL), TCO_OK);
        }
        expect_rejected(h, &in, NAN, TCO_E_NOT_FINITE);
        expect_rejected(h, &in, INFINITY, TCO_E_NOT_FINITE);
        expect_rejected(h, &in, -INFINITY, TCO_E_NOT_FINITE);
        if (in.type != TCO_TYPE_REAL)
            expect_rejected(h, &in, in.min_value + 0.5, TCO_E_RANGE);
        /* A text is the wrong kind of value for a number. */
        err = (tco_error)TCO_ERROR_INIT;
        assert_int_equal(set_text(h, in.handle, in.key, "1", &err), TCO_E_TYPE);
        assert_int_equal(set(h, in.handle, in.key, in.default_value, NULL), TCO_OK);
        checked++;
    }
    assert_true(checked > 90);
}

static void test_choices_by_name_and_value(void **state)
{
    handles *h = *state;
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        assert_int_equal(tco_param_info_at(&in, i, NULL), TCO_OK);
        if (in.type != TCO_TYPE_CHOICE)
            continue;
        assert_true(in.choice_count >= 2);
        const char *text;
        assert_int_equal(get_text(h, in.handle, in.key, &text), TCO_OK);
        assert_string_equal(text, in.default_text);
        for (size_t c = 0; c < in.choice_count; c++) {
            const char *name;
            double value, v;
            assert_int_equal(tco_param_choice_at(&name, &value, in.key, c, NULL), TCO_OK);
            assert_int_equal(set_text(h, in.handle, in.key, name, NULL), TCO_OK);
            assert_int_equal(get(h, in.handle, in.key, &v), TCO_OK);
            assert_true(v == value);
            assert_int_equal(set(h, in.handle, in.key, value, NULL), TCO_OK);
            assert_int_equal(get_text(h, in.handle, in.key, &text), TCO_OK);
            assert_string_equal(text, name);
        }
        const char *name;
        double value;
        tco_error err = TCO_ERROR_INIT;
        assert_int_equal(tco_param_choice_at(&name, &value, in.key, in.choice_count, &err), TCO_E_INDEX);
        /* An unknown name is rejected and lists the allowed ones. */
        err = (tco_error)TCO_ERROR_INIT;
        assert_int_equal(set_text(h, in.handle, in.key, "no-such-thing", &err), TCO_E_RANGE);
        assert_int_equal(err.param, in.key);
        assert_non_null(strstr(err.message, in.default_text));
        expect_rejected(h, &in, 12345, TCO_E_RANGE);
        expect_rejected(h, &in, NAN, TCO_E_NOT_FINITE);
        assert_int_equal(set(h, in.handle, in.key, in.default_value, NULL), TCO_OK);
    }
}

static void test_texts(void **state)
{
    handles *h = *state;
    const char *s;
    assert_int_equal(tco_pricing_get_text(h->p, TCO_P_CURRENCY, &s, NULL), TCO_OK);
    assert_string_equal(s, "USD");
    assert_int_equal(tco_pricing_set_text(h->p, TCO_P_CURRENCY, "EUR", NULL), TCO_OK);
    assert_int_equal(tco_pricing_get_text(h->p, TCO_P_CURRENCY, &s, NULL), TCO_OK);
    assert_string_equal(s, "EUR");

    char longer[TCO_TEXT_MAX + 1];
    memset(longer, 'x', TCO_TEXT_MAX);
    longer[TCO_TEXT_MAX] = '\0';
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_pricing_set_text(h->p, TCO_P_CURRENCY, longer, &err), TCO_E_RANGE);
    assert_string_equal(err.param_name, "currency");
    assert_int_equal(tco_pricing_get_text(h->p, TCO_P_CURRENCY, &s, NULL), TCO_OK);
    assert_string_equal(s, "EUR");
    longer[TCO_TEXT_MAX - 1] = '\0'; /* the longest that fits */
    assert_int_equal(tco_pricing_set_text(h->p, TCO_P_CURRENCY, longer, NULL), TCO_OK);

    /* Texts are UTF-8: files save them as CBOR text strings. */
    static const char *const not_utf8[] = { "\xff", "a\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80" };
    for (size_t i = 0; i < sizeof not_utf8 / sizeof not_utf8[0]; i++) {
        err = (tco_error)TCO_ERROR_INIT;
        assert_int_equal(tco_pricing_set_text(h->p, TCO_P_PRICE_SOURCE, not_utf8[i], &err), TCO_E_RANGE);
        assert_non_null(strstr(err.message, "UTF-8"));
    }
    assert_int_equal(tco_pricing_set_text(h->p, TCO_P_PRICE_SOURCE, "prix \xc3\xa0 jour \xe2\x82\xac \xf0\x9f\x98\x80", NULL),
                     TCO_OK);

    err = (tco_error)TCO_ERROR_INIT;
    assert_int_equal(tco_pricing_set(h->p, TCO_P_CURRENCY, 1, &err), TCO_E_TYPE);
    double v;
    assert_int_equal(tco_pricing_get(h->p, TCO_P_CURRENCY, &v, NULL), TCO_E_TYPE);
    assert_int_equal(tco_pricing_get_text(h->p, TCO_P_MFU, &s, NULL), TCO_E_WRONG_HANDLE);
    assert_int_equal(tco_pricing_get_text(h->p, TCO_P_MIN_FTE, &s, NULL), TCO_E_TYPE);
    assert_int_equal(tco_pricing_set_text(h->p, TCO_P_CURRENCY, "USD", NULL), TCO_OK);
}

static void test_introspection(void **state)
{
    (void)state;
    tco_param_info in = { .size = sizeof in };
    int32_t key = 0;
    assert_int_equal(tco_param_find(&key, "mfu", NULL), TCO_OK);
    assert_int_equal(key, TCO_P_MFU);
    assert_int_equal(tco_param_info_get(&in, TCO_P_MFU, NULL), TCO_OK);
    assert_string_equal(in.name, "mfu");
    assert_int_equal(in.handle, TCO_HANDLE_WORKLOAD);
    assert_true(in.max_value == 1); /* MFU above 1 is impossible */

    /* Every listed parameter can be found by name and by key. */
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info a = { .size = sizeof a }, b = { .size = sizeof b };
        assert_int_equal(tco_param_info_at(&a, i, NULL), TCO_OK);
        assert_int_equal(tco_param_find(&key, a.name, NULL), TCO_OK);
        assert_int_equal(key, a.key);
        assert_int_equal(tco_param_info_get(&b, key, NULL), TCO_OK);
        assert_string_equal(a.name, b.name);
        assert_non_null(a.unit);
        assert_true(strlen(a.description) > 5);
    }

    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_param_find(&key, "mfuu", &err), TCO_E_UNKNOWN_PARAM);
    assert_non_null(strstr(err.message, "mfuu"));
    assert_int_equal(tco_param_info_get(&in, 4242, NULL), TCO_E_UNKNOWN_PARAM);
    assert_int_equal(tco_param_info_at(&in, tco_param_count(), NULL), TCO_E_INDEX);
    in.size = sizeof in - 1;
    assert_int_equal(tco_param_info_at(&in, 0, NULL), TCO_E_SIZE);
    assert_int_equal(tco_param_info_at(NULL, 0, NULL), TCO_E_NULL);
    assert_int_equal(tco_param_find(NULL, "mfu", NULL), TCO_E_NULL);
    assert_int_equal(tco_param_find(&key, NULL, NULL), TCO_E_NULL);
    const char *name;
    double value;
    assert_int_equal(tco_param_choice_at(&name, &value, TCO_P_MFU, 0, NULL), TCO_E_TYPE);
    assert_int_equal(tco_param_choice_at(NULL, &value, TCO_P_COOLING, 0, NULL), TCO_E_NULL);
    assert_int_equal(tco_param_choice_at(&name, NULL, TCO_P_COOLING, 0, &err), TCO_E_NULL);
    assert_string_equal(err.message, "value must not be NULL");
    assert_int_equal(tco_param_choice_at(&name, &value, 4242, 0, &err), TCO_E_UNKNOWN_PARAM);
    assert_string_equal(err.message, "no parameter has key 4242");
    assert_int_equal(tco_param_info_get(NULL, TCO_P_MFU, &err), TCO_E_NULL);
    assert_string_equal(err.message, "out must not be NULL");
    in.size = 65537; /* past the 64 KiB bound on an output struct */
    assert_int_equal(tco_param_info_get(&in, TCO_P_MFU, NULL), TCO_E_SIZE);
}

/* The names clients show and write (files, messages, bindings) come from
 * the library, so none of them keeps its own copy. */
static void test_names(void **state)
{
    (void)state;
    assert_string_equal(tco_handle_kind_name(TCO_HANDLE_TOPOLOGY), "topology");
    assert_string_equal(tco_handle_kind_name(TCO_HANDLE_WORKLOAD), "workload");
    assert_string_equal(tco_handle_kind_name(TCO_HANDLE_PRICING), "pricing");
    assert_null(tco_handle_kind_name(0));
    assert_null(tco_handle_kind_name(TCO_HANDLE_PRICING + 1));
    assert_string_equal(tco_param_type_name(TCO_TYPE_REAL), "real");
    assert_string_equal(tco_param_type_name(TCO_TYPE_INT), "int");
    assert_string_equal(tco_param_type_name(TCO_TYPE_BOOL), "bool");
    assert_string_equal(tco_param_type_name(TCO_TYPE_CHOICE), "choice");
    assert_string_equal(tco_param_type_name(TCO_TYPE_TEXT), "text");
    assert_null(tco_param_type_name(0));
    assert_null(tco_param_type_name(TCO_TYPE_TEXT + 1));
    assert_string_equal(tco_scenario_format_name(), "libtco-scenario");
}

static void test_catalogue(void **state)
{
    (void)state;
    /* The five the project promises, with their datasheet BF16 dense peaks. */
    static const struct {
        const char *name;
        double bf16;
    } want[] = { { "A100-SXM-80GB", 312e12 }, { "H100-SXM", 989e12 }, { "H200-SXM", 989e12 },
                 { "B200", 2250e12 },         { "MI300X", 1307.4e12 } };
    assert_true(tco_accelerator_count() >= 6);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int found = 0;
        for (size_t j = 0; j < tco_accelerator_count(); j++) {
            tco_accelerator a = { .size = sizeof a };
            assert_int_equal(tco_accelerator_at(&a, j, NULL), TCO_OK);
            if (strcmp(a.name, want[i].name) == 0) {
                found = 1;
                assert_true(a.bf16_flops == want[i].bf16);
                assert_true(a.memory_bytes >= 80e9 && a.tdp_watts >= 400);
                assert_true(strlen(a.source) > 10);
            }
        }
        assert_true(found);
    }
    tco_accelerator a = { .size = sizeof a };
    assert_int_equal(tco_accelerator_at(&a, tco_accelerator_count(), NULL), TCO_E_INDEX);
    a.size = 8;
    assert_int_equal(tco_accelerator_at(&a, 0, NULL), TCO_E_SIZE);
    a.size = 65537; /* past the 64 KiB bound on an output struct */
    assert_int_equal(tco_accelerator_at(&a, 0, NULL), TCO_E_SIZE);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_accelerator_at(NULL, 0, &err), TCO_E_NULL);
    assert_string_equal(err.message, "out must not be NULL");
}

/* A value refused for a bound is shown with the digits that tell it from
 * the bound: "mfu = 1.0000001 is out of range: allowed 0.001 to 1", not
 * "mfu = 1 is out of range ... to 1". */
static void test_messages_tell_the_value_apart(void **state)
{
    (void)state;
    tco_workload *w;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_workload_new(&w, NULL), TCO_OK);
    assert_int_equal(tco_workload_set(w, TCO_P_MFU, 1.0000001, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "mfu = 1.0000001"));
    assert_int_equal(tco_workload_set(w, TCO_P_MFU, 1.5, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "mfu = 1.5 is out of range"));
    assert_int_equal(tco_workload_set(w, TCO_P_LAYERS, 80.0000001, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "layers = 80.0000000999"));
    tco_workload_free(w);
    /* a bound with a unit says it; a count or a share has none */
    tco_topology *t;
    assert_int_equal(tco_topology_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_topology_set(t, TCO_P_NODE_MTBF_HOURS, 0.5, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "node_mtbf_hours = 0.5 is out of range: allowed 1 to 1e+09 h ("));
    assert_int_equal(tco_topology_set(t, TCO_P_ACCELERATORS, 0, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "accelerators = 0 is out of range: allowed 1 to 1e+07 ("));
    tco_topology_free(t);
    /* a default below the range stands in for something (params.def:
     * on_demand_per_accel_hour's -1 is the list price): the range says so */
    tco_pricing *p;
    assert_int_equal(tco_pricing_new(&p, NULL), TCO_OK);
    assert_int_equal(tco_pricing_set(p, TCO_P_ON_DEMAND_PER_ACCEL_HOUR, -0.5, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "on_demand_per_accel_hour = -0.5 is out of range: allowed -1 (the "
                                        "accelerator's list price), or 0 to 100000 cur/h ("));
    tco_pricing_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_messages_tell_the_value_apart),
        cmocka_unit_test_setup_teardown(test_every_numeric_parameter_bounds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_choices_by_name_and_value, setup, teardown),
        cmocka_unit_test_setup_teardown(test_texts, setup, teardown),
        cmocka_unit_test(test_introspection),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_catalogue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
