/* The three handles: one implementation over the parameter table, and thin
 * typed entry points generated for each handle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

static const char *const kind_names[] = { "", "topology", "workload", "pricing" };

const char *tco_handle_kind_name(int32_t kind)
{
    return kind >= TCO_HANDLE_TOPOLOGY && kind <= TCO_HANDLE_PRICING ? kind_names[kind] : NULL;
}

tco_obj *tco__obj_new(int32_t kind, tco_error *err)
{
    tco_obj *o = calloc(1, sizeof *o);
    if (!o) {
        tco__fail(err, TCO_E_NOMEM, "no memory for a %s handle", kind_names[kind]);
        return NULL;
    }
    o->kind = kind;
    for (int i = 0; i < IX_COUNT; i++) {
        const param_row *r = &tco__params[i];
        o->v[i] = r->def;
        if (r->type == TCO_TYPE_TEXT)
            strncpy(o->text[i], r->deftext, TCO_TEXT_MAX - 1);
    }
    return o;
}

static int obj_new(tco_obj **out, int32_t kind, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    tco_obj *o = tco__obj_new(kind, err);
    if (!o)
        return TCO_E_NOMEM;
    *out = o;
    return TCO_OK;
}

static int obj_clone(tco_obj **out, const tco_obj *src, int32_t kind, tco_error *err)
{
    if (!out || !src)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", out ? "src" : "out");
    tco_obj *o = malloc(sizeof *o);
    if (!o)
        return tco__fail(err, TCO_E_NOMEM, "no memory for a %s handle", kind_names[kind]);
    *o = *src;
    o->frozen = 0;
    *out = o;
    return TCO_OK;
}

/* A NULL argument of a call about key: the parameter named when there is
 * one (no row was looked up yet). */
static int null_arg(tco_error *err, int32_t key, const char *what)
{
    int ix = tco__param_index(key);
    if (ix < 0)
        return tco__fail_key(err, TCO_E_NULL, key, "%s must not be NULL", what);
    return tco__fail_param(err, TCO_E_NULL, ix, "%s must not be NULL", what);
}

/* The row of key if it belongs to this handle, else NULL with err filled. */
static const param_row *own_row(const tco_obj *o, int32_t key, int *ix, tco_error *err, int *rc)
{
    int i = tco__param_index(key);
    if (i < 0) {
        *rc = tco__fail_key(err, TCO_E_UNKNOWN_PARAM, key, "no parameter has key %d", (int)key);
        return NULL;
    }
    const param_row *r = &tco__params[i];
    if (r->handle != o->kind) {
        *rc = tco__fail_param(err, TCO_E_WRONG_HANDLE, i, "%s belongs to the %s, not the %s", r->name,
                              kind_names[r->handle], kind_names[o->kind]);
        return NULL;
    }
    *ix = i;
    return r;
}

/* The row of key if this handle owns it and may still change, else NULL
 * with err filled. */
static const param_row *row_to_set(const tco_obj *o, int32_t key, int *ix, tco_error *err, int *rc)
{
    const param_row *r = own_row(o, key, ix, err, rc);
    if (r && o->frozen) {
        *rc = tco__fail_param(err, TCO_E_FROZEN, *ix, "the %s is frozen: %s cannot change (clone it to edit a copy)",
                              kind_names[o->kind], r->name);
        return NULL;
    }
    return r;
}

static int obj_set(tco_obj *o, int32_t key, double value, tco_error *err)
{
    int ix, rc;
    const param_row *r = row_to_set(o, key, &ix, err, &rc);
    if (!r)
        return rc;
    if ((rc = tco__param_check(r, value, err)) != TCO_OK)
        return rc;
    o->v[ix] = value;
    return TCO_OK;
}

static int obj_set_text(tco_obj *o, int32_t key, const char *text, tco_error *err)
{
    if (!text)
        return null_arg(err, key, "text");
    int ix, rc;
    const param_row *r = row_to_set(o, key, &ix, err, &rc);
    if (!r)
        return rc;
    if (r->type == TCO_TYPE_CHOICE) {
        double v;
        if (tco__choice_find(r->choices, text, &v) != 0) {
            char list[256], shown[TCO__SHOW_MAX]; /* never a raw byte of the caller's in a message */
            tco__show(shown, sizeof shown, text, strlen(text));
            return tco__fail_param(err, TCO_E_RANGE, ix, "%s = %s is not a choice: allowed %s", r->name, shown,
                                   tco__choice_list(r->choices, list, sizeof list));
        }
        o->v[ix] = v;
        return TCO_OK;
    }
    if (r->type != TCO_TYPE_TEXT)
        return tco__fail_param(err, TCO_E_TYPE, ix, "%s is a number (%s %s): set it with a number", r->name,
                               r->description, r->unit);
    size_t n = strlen(text);
    if (n >= TCO_TEXT_MAX)
        return tco__fail_param(err, TCO_E_RANGE, ix, "%s is %zu bytes long: allowed 0 to %d", r->name, n,
                               TCO_TEXT_MAX - 1);
    size_t bad = tco__utf8_invalid_at((const unsigned char *)text, n);
    if (bad < n)
        return tco__fail_param(err, TCO_E_RANGE, ix, "%s is not UTF-8 (byte %zu): texts are saved as CBOR text",
                               r->name, bad);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f)
            return tco__fail_param(err, TCO_E_RANGE, ix,
                                   "%s holds a control character (byte %zu): allowed printable UTF-8 text", r->name,
                                   i);
    memcpy(o->text[ix], text, n + 1);
    return TCO_OK;
}

static int obj_get(const tco_obj *o, int32_t key, double *value, tco_error *err)
{
    if (!value)
        return null_arg(err, key, "value");
    int ix, rc;
    const param_row *r = own_row(o, key, &ix, err, &rc);
    if (!r)
        return rc;
    if (r->type == TCO_TYPE_TEXT)
        return tco__fail_param(err, TCO_E_TYPE, ix, "%s is a text: read it with get_text", r->name);
    *value = o->v[ix];
    return TCO_OK;
}

static int obj_get_text(const tco_obj *o, int32_t key, const char **text, tco_error *err)
{
    if (!text)
        return null_arg(err, key, "text");
    int ix, rc;
    const param_row *r = own_row(o, key, &ix, err, &rc);
    if (!r)
        return rc;
    if (r->type == TCO_TYPE_CHOICE)
        *text = tco__choice_name(r->choices, o->v[ix]);
    else if (r->type == TCO_TYPE_TEXT)
        *text = o->text[ix];
    else
        return tco__fail_param(err, TCO_E_TYPE, ix, "%s is a number: read it with get", r->name);
    return TCO_OK;
}

static int obj_freeze(tco_obj *o, tco_error *err)
{
    if (o->frozen)
        return TCO_OK;
    int rc = tco__obj_prepare(o, err);
    if (rc == TCO_OK) {
        o->fingerprint = tco__obj_fingerprint(o);
        o->frozen = 1;
    }
    return rc;
}

/* TCO_OK, or TCO_E_TYPE when a handle of another kind was passed (through
 * a cast: C cannot tell the handle types apart at run time otherwise). */
int tco__kind_check(const tco_obj *o, int32_t kind, tco_error *err)
{
    if (o->kind == kind)
        return TCO_OK;
    const char *is = o->kind >= TCO_HANDLE_TOPOLOGY && o->kind <= TCO_HANDLE_PRICING ? kind_names[o->kind] : "no";
    return tco__fail(err, TCO_E_TYPE, "the %s given is a %s handle", kind_names[kind], is);
}

/* Why handle h, the i-th of the three, is not a frozen handle of its kind. */
static int unfit_input(const tco_obj *h, int i, tco_error *err)
{
    if (!h)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", kind_names[i + 1]);
    int rc = tco__kind_check(h, i + 1, err);
    return rc ? rc : tco__fail(err, TCO_E_NOT_FROZEN, "the %s must be frozen first", kind_names[i + 1]);
}

int tco__frozen_inputs(const tco_topology *t, const tco_workload *w, const tco_pricing *p, tco_error *err)
{
    /* One test a handle, in one expression; the reason apart. */
    if (t && w && p && t->o.kind == TCO_HANDLE_TOPOLOGY && t->o.frozen && w->o.kind == TCO_HANDLE_WORKLOAD &&
        w->o.frozen && p->o.kind == TCO_HANDLE_PRICING && p->o.frozen)
        return TCO_OK;
    const tco_obj *h[3] = { t ? &t->o : NULL, w ? &w->o : NULL, p ? &p->o : NULL };
    int i = 0;
    while (h[i] && h[i]->kind == i + 1 && h[i]->frozen) /* to the first unfit one: one is */
        i++;
    return unfit_input(h[i], i, err);
}

#define HANDLE_API(type, KIND)                                                               \
    int tco_##type##_new(tco_##type **out, tco_error *err)                                   \
    {                                                                                        \
        return obj_new((tco_obj **)out, TCO_HANDLE_##KIND, err);                             \
    }                                                                                        \
    int tco_##type##_clone(tco_##type **out, const tco_##type *src, tco_error *err)          \
    {                                                                                        \
        int rc_ = src ? tco__kind_check(&src->o, TCO_HANDLE_##KIND, err) : TCO_OK;               \
        return rc_ ? rc_ : obj_clone((tco_obj **)out, src ? &src->o : NULL, TCO_HANDLE_##KIND, err); \
    }                                                                                        \
    void tco_##type##_free(tco_##type *h)                                                    \
    {                                                                                        \
        free(h);                                                                             \
    }                                                                                        \
    int tco_##type##_set(tco_##type *h, int32_t key, double value, tco_error *err)           \
    {                                                                                        \
        return h ? obj_set(&h->o, key, value, err)                                           \
                 : null_arg(err, key, #type);                                                \
    }                                                                                        \
    int tco_##type##_set_text(tco_##type *h, int32_t key, const char *text, tco_error *err)  \
    {                                                                                        \
        return h ? obj_set_text(&h->o, key, text, err)                                       \
                 : null_arg(err, key, #type);                                                \
    }                                                                                        \
    int tco_##type##_get(const tco_##type *h, int32_t key, double *value, tco_error *err)    \
    {                                                                                        \
        return h ? obj_get(&h->o, key, value, err)                                           \
                 : null_arg(err, key, #type);                                                \
    }                                                                                        \
    int tco_##type##_get_text(const tco_##type *h, int32_t key, const char **text,           \
                              tco_error *err)                                                \
    {                                                                                        \
        return h ? obj_get_text(&h->o, key, text, err)                                       \
                 : null_arg(err, key, #type);                                                \
    }                                                                                        \
    int tco_##type##_freeze(tco_##type *h, tco_error *err)                                   \
    {                                                                                        \
        if (!h)                                                                              \
            return tco__fail(err, TCO_E_NULL, #type " must not be NULL");                   \
        int rc_ = tco__kind_check(&h->o, TCO_HANDLE_##KIND, err);                                 \
        return rc_ ? rc_ : obj_freeze(&h->o, err);                                           \
    }                                                                                        \
    int tco_##type##_is_frozen(const tco_##type *h)                                          \
    {                                                                                        \
        return h && h->o.frozen;                                                             \
    }

HANDLE_API(topology, TOPOLOGY)
HANDLE_API(workload, WORKLOAD)
HANDLE_API(pricing, PRICING)
