/* The parameter table and everything that reads it directly. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

const param_row tco_params[IX_COUNT] = {
#define P(KEY, H, T, C, name, unit, def, lo, hi, deftext, desc) \
    { TCO_P_##KEY, TCO_HANDLE_##H, TCO_TYPE_##T, CHOICES_##C, name, unit, def, lo, hi, deftext, desc },
#include "params.def"
#undef P
};

int param_index(int32_t key)
{
    /* Keys are sorted within the table (a test checks it): bisect. */
    int lo = 0, hi = IX_COUNT - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (tco_params[mid].key == key)
            return mid;
        if (tco_params[mid].key < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static const char *const cooling_names[] = { "air", "liquid" };
static const char *const precision_names[] = { "bf16", "fp8" };

size_t choice_count(choices_id c)
{
    switch (c) {
    case CHOICES_ACCELERATOR: return tco_accelerator_count();
    case CHOICES_COOLING: return 2;
    case CHOICES_PRECISION: return 2;
    default: return 0;
    }
}

int choice_at(choices_id c, size_t i, const char **name, double *value)
{
    if (i >= choice_count(c))
        return -1;
    if (c == CHOICES_ACCELERATOR) {
        tco_accelerator a = { sizeof a, 0, 0, 0, 0, 0, 0, 0, 0 };
        tco_accelerator_at(&a, i, NULL);
        *name = a.name;
        *value = a.id;
    } else {
        *name = c == CHOICES_COOLING ? cooling_names[i] : precision_names[i];
        *value = (double)i;
    }
    return 0;
}

int choice_find(choices_id c, const char *name, double *value)
{
    const char *n;
    double v;
    for (size_t i = 0; choice_at(c, i, &n, &v) == 0; i++)
        if (strcmp(n, name) == 0) {
            *value = v;
            return 0;
        }
    return -1;
}

const char *choice_name(choices_id c, double value)
{
    const char *n;
    double v;
    for (size_t i = 0; choice_at(c, i, &n, &v) == 0; i++)
        if (v == value)
            return n;
    return NULL;
}

/* "air, liquid" into buf, for messages. */
const char *choice_list(choices_id c, char *buf, size_t cap)
{
    const char *n;
    double v;
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; choice_at(c, i, &n, &v) == 0 && used < cap; i++) {
        int w = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", n);
        if (w < 0 || (size_t)w >= cap - used)
            break;
        used += (size_t)w;
    }
    return buf;
}

int param_check(const param_row *r, double v, tco_error *err)
{
    if (!isfinite(v))
        return tco_fail(err, TCO_E_NOT_FINITE, r->key, "%s must be a finite number (%s), not %g",
                        r->name, r->description, v);
    switch (r->type) {
    case TCO_TYPE_TEXT:
        return tco_fail(err, TCO_E_TYPE, r->key, "%s is a text (%s): set it with a text, not a number",
                        r->name, r->description);
    case TCO_TYPE_CHOICE:
        if (!choice_name(r->choices, v)) {
            char list[256];
            return tco_fail(err, TCO_E_RANGE, r->key, "%s = %g names no choice: allowed %s", r->name,
                            v, choice_list(r->choices, list, sizeof list));
        }
        return TCO_OK;
    case TCO_TYPE_INT:
    case TCO_TYPE_BOOL:
        if (v != floor(v))
            return tco_fail(err, TCO_E_RANGE, r->key,
                            "%s = %g must be a whole number from %g to %g (%s)", r->name, v, r->lo,
                            r->hi, r->description);
        break;
    default:
        break;
    }
    if (v < r->lo || v > r->hi) {
        int unit = r->unit[0] && strcmp(r->unit, "1") != 0; /* counts and shares have none */
        return tco_fail(err, TCO_E_RANGE, r->key, "%s = %g is out of range: allowed %g to %g%s%s (%s)",
                        r->name, v, r->lo, r->hi, unit ? " " : "", unit ? r->unit : "", r->description);
    }
    return TCO_OK;
}

const char *tco_param_type_name(int32_t type)
{
    static const char *const names[] = { "", "real", "int", "bool", "choice", "text" };
    return type >= TCO_TYPE_REAL && type <= TCO_TYPE_TEXT ? names[type] : NULL;
}

size_t tco_param_count(void)
{
    return IX_COUNT;
}

static int info_fill(tco_param_info *out, const param_row *r, tco_error *err)
{
    if (out->size < PARAM_INFO_V1_SIZE)
        return tco_fail(err, TCO_E_SIZE, 0, "tco_param_info.size = %zu is below %zu: set it to sizeof(tco_param_info)",
                        out->size, PARAM_INFO_V1_SIZE);
    tco_param_info in = { sizeof in,  r->key, r->handle, r->type, r->name, r->unit,
                          r->description, r->def, r->lo, r->hi, choice_count(r->choices),
                          r->deftext };
    sized_fill(out, &in, sizeof in);
    return TCO_OK;
}

int tco_param_info_at(tco_param_info *out, size_t index, tco_error *err)
{
    if (!out)
        return tco_fail(err, TCO_E_NULL, 0, "out must not be NULL");
    if (index >= IX_COUNT)
        return tco_fail(err, TCO_E_INDEX, 0, "parameter index %zu is past the end: allowed 0 to %d",
                        index, IX_COUNT - 1);
    return info_fill(out, &tco_params[index], err);
}

int tco_param_info_get(tco_param_info *out, int32_t key, tco_error *err)
{
    if (!out)
        return tco_fail(err, TCO_E_NULL, 0, "out must not be NULL");
    int i = param_index(key);
    if (i < 0)
        return tco_fail(err, TCO_E_UNKNOWN_PARAM, key, "no parameter has key %d", (int)key);
    return info_fill(out, &tco_params[i], err);
}

int tco_param_find(int32_t *key, const char *name, tco_error *err)
{
    if (!key || !name)
        return tco_fail(err, TCO_E_NULL, 0, "%s must not be NULL", key ? "name" : "key");
    for (int i = 0; i < IX_COUNT; i++)
        if (strcmp(tco_params[i].name, name) == 0) {
            *key = tco_params[i].key;
            return TCO_OK;
        }
    return tco_fail(err, TCO_E_UNKNOWN_PARAM, 0, "no parameter is named \"%.100s\"", name);
}

int tco_param_choice_at(const char **name, double *value, int32_t key, size_t index, tco_error *err)
{
    if (!name || !value)
        return tco_fail(err, TCO_E_NULL, 0, "%s must not be NULL", name ? "value" : "name");
    int i = param_index(key);
    if (i < 0)
        return tco_fail(err, TCO_E_UNKNOWN_PARAM, key, "no parameter has key %d", (int)key);
    const param_row *r = &tco_params[i];
    if (r->type != TCO_TYPE_CHOICE)
        return tco_fail(err, TCO_E_TYPE, key, "%s is not a choice", r->name);
    const char *n;
    double v;
    if (choice_at(r->choices, index, &n, &v) != 0)
        return tco_fail(err, TCO_E_INDEX, key, "%s has %zu choices: index %zu is past the end",
                        r->name, choice_count(r->choices), index);
    *name = n;
    *value = v;
    return TCO_OK;
}
