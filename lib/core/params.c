/* The parameter table and everything that reads it directly. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

const param_row tco__params[IX_COUNT] = {
#define P(KEY, H, T, C, name, unit, def, lo, hi, deftext, desc) \
    { TCO_P_##KEY, TCO_HANDLE_##H, TCO_TYPE_##T, CHOICES_##C, name, unit, def, lo, hi, deftext, desc },
#include "core/params.def"
#undef P
};

int tco__fail_param(tco_error *err, int code, int ix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tco__fail_v(err, code, tco__params[ix].key, tco__params[ix].name, fmt, ap);
    va_end(ap);
    return code;
}

int tco__param_index(int32_t key)
{
    /* Keys are sorted within the table (a test checks it): bisect. */
    int lo = 0, hi = IX_COUNT - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (tco__params[mid].key == key)
            return mid;
        if (tco__params[mid].key < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* The named choices other than the catalogue's, indexed by choices_id;
 * a name's value is its index (core.h's enums). */
static const struct {
    const char *const *names;
    size_t count;
} lists[] = {
#define LIST(...) { (const char *const[]){ __VA_ARGS__ }, sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *) }
    [CHOICES_COOLING] = LIST("air", "liquid"),
    [CHOICES_PRECISION] = LIST("bf16", "fp8"),
    [CHOICES_ATTENTION] = LIST("causal", "full"),
    [CHOICES_RECOMPUTE] = LIST("none", "selective", "full"),
    [CHOICES_FLOPS_BASIS] = LIST("model", "hardware"),
    [CHOICES_FAILURE_MODEL] = LIST("per_part", "by_job_size"),
#undef LIST
};
typedef char lists_cover[sizeof lists / sizeof lists[0] == CHOICES_FAILURE_MODEL + 1 ? 1 : -1];

size_t tco__choice_count(choices_id c)
{
    if (c == CHOICES_ACCELERATOR)
        return tco__catalogue_count();
    return lists[c].count; /* none for CHOICES_NONE: a zero entry */
}

int tco__choice_at(choices_id c, size_t i, const char **name, double *value)
{
    if (i >= tco__choice_count(c))
        return -1;
    if (c == CHOICES_ACCELERATOR) {
        const tco_accelerator *a = tco__catalogue_row(i);
        *name = a->name;
        *value = a->id;
    } else {
        *name = lists[c].names[i];
        *value = (double)i;
    }
    return 0;
}

int tco__choice_find(choices_id c, const char *name, double *value)
{
    const char *n;
    double v;
    for (size_t i = 0; tco__choice_at(c, i, &n, &v) == 0; i++)
        if (strcmp(n, name) == 0) {
            *value = v;
            return 0;
        }
    return -1;
}

const char *tco__choice_name(choices_id c, double value)
{
    const char *n;
    double v;
    for (size_t i = 0; tco__choice_at(c, i, &n, &v) == 0; i++)
        if (v == value)
            return n;
    return NULL;
}

/* "air, liquid" into buf, for messages. */
const char *tco__choice_list(choices_id c, char *buf, size_t cap)
{
    const char *n;
    double v;
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; tco__choice_at(c, i, &n, &v) == 0 && used < cap; i++) {
        int w = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", n);
        if (w < 0 || (size_t)w >= cap - used)
            break;
        used += (size_t)w;
    }
    return buf;
}

/* v as short as %g writes it, or with every digit when %g would print it
 * as one of the two numbers it is set against ("mfu = 1.0000001 is out of
 * range: allowed 0.001 to 1", not "mfu = 1 ... to 1"). */
static const char *number_apart(char *buf, size_t cap, double v, double a, double b)
{
    char x[32], y[32];
    snprintf(buf, cap, "%g", v);
    snprintf(x, sizeof x, "%g", a);
    snprintf(y, sizeof y, "%g", b);
    if (strcmp(buf, x) == 0 || strcmp(buf, y) == 0)
        snprintf(buf, cap, "%.17g", v);
    return buf;
}

int tco__param_check(const param_row *r, double v, tco_error *err)
{
    if (!isfinite(v))
        return tco__fail_param(err, TCO_E_NOT_FINITE, (int)(r - tco__params), "%s must be a finite number (%s), not %g",
                               r->name, r->description, v);
    switch (r->type) {
    case TCO_TYPE_TEXT:
        return tco__fail_param(err, TCO_E_TYPE, (int)(r - tco__params), "%s is a text (%s): set it with a text, not a number",
                               r->name, r->description);
    case TCO_TYPE_CHOICE:
        if (!tco__choice_name(r->choices, v)) {
            char list[256];
            return tco__fail_param(err, TCO_E_RANGE, (int)(r - tco__params), "%s = %g names no choice: allowed %s", r->name,
                                   v, tco__choice_list(r->choices, list, sizeof list));
        }
        return TCO_OK;
    case TCO_TYPE_INT:
    case TCO_TYPE_BOOL:
        if (v != floor(v)) {
            char shown[32];
            return tco__fail_param(err, TCO_E_RANGE, (int)(r - tco__params),
                                   "%s = %s must be a whole number from %g to %g (%s)", r->name,
                                   number_apart(shown, sizeof shown, v, floor(v), floor(v)), r->lo, r->hi,
                                   r->description);
        }
        break;
    default:
        break;
    }
    if (v == r->def && v < r->lo) /* a stand-in (default_text says for what) */
        return TCO_OK;
    if (v < r->lo || v > r->hi) {
        int unit = r->unit[0] && strcmp(r->unit, "1") != 0; /* counts and shares have none */
        char shown[32];
        if (r->def < r->lo)
            return tco__fail_param(err, TCO_E_RANGE, (int)(r - tco__params),
                                   "%s = %s is out of range: allowed %g (%s), or %g to %g%s%s (%s)", r->name,
                                   number_apart(shown, sizeof shown, v, r->lo, r->hi), r->def, r->deftext, r->lo,
                                   r->hi, unit ? " " : "", unit ? r->unit : "", r->description);
        return tco__fail_param(err, TCO_E_RANGE, (int)(r - tco__params), "%s = %s is out of range: allowed %g to %g%s%s (%s)",
                               r->name, number_apart(shown, sizeof shown, v, r->lo, r->hi), r->lo, r->hi,
                               unit ? " " : "", unit ? r->unit : "", r->description);
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
    if (out->size < PARAM_INFO_V1_SIZE || out->size > OUTPUT_MAX_SIZE)
        return tco__output_size_fail(err, "tco_param_info", out->size, PARAM_INFO_V1_SIZE);
    tco_param_info in = { sizeof in,  r->key, r->handle, r->type, r->name, r->unit,
                          r->description, r->def, r->lo, r->hi, tco__choice_count(r->choices),
                          r->deftext };
    sized_fill(out, &in, sizeof in);
    return TCO_OK;
}

int tco_param_info_at(tco_param_info *out, size_t index, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    if (index >= IX_COUNT)
        return tco__fail(err, TCO_E_INDEX, "parameter index %zu is past the end: allowed 0 to %d",
                         index, IX_COUNT - 1);
    return info_fill(out, &tco__params[index], err);
}

int tco_param_info_get(tco_param_info *out, int32_t key, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    int i = tco__param_index(key);
    if (i < 0)
        return tco__fail_key(err, TCO_E_UNKNOWN_PARAM, key, "no parameter has key %d", (int)key);
    return info_fill(out, &tco__params[i], err);
}

int tco_param_find(int32_t *key, const char *name, tco_error *err)
{
    if (!key || !name)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", key ? "name" : "key");
    for (int i = 0; i < IX_COUNT; i++)
        if (strcmp(tco__params[i].name, name) == 0) {
            *key = tco__params[i].key;
            return TCO_OK;
        }
    return tco__fail(err, TCO_E_UNKNOWN_PARAM, "no parameter is named \"%.100s\"", name);
}

int tco_param_choice_at(const char **name, double *value, int32_t key, size_t index, tco_error *err)
{
    if (!name || !value)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", name ? "value" : "name");
    int i = tco__param_index(key);
    if (i < 0)
        return tco__fail_key(err, TCO_E_UNKNOWN_PARAM, key, "no parameter has key %d", (int)key);
    const param_row *r = &tco__params[i];
    if (r->type != TCO_TYPE_CHOICE)
        return tco__fail_param(err, TCO_E_TYPE, i, "%s is not a choice", r->name);
    const char *n;
    double v;
    if (tco__choice_at(r->choices, index, &n, &v) != 0)
        return tco__fail_param(err, TCO_E_INDEX, i, "%s has %zu choices: index %zu is past the end",
                               r->name, tco__choice_count(r->choices), index);
    *name = n;
    *value = v;
    return TCO_OK;
}
