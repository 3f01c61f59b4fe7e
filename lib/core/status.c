/* Status codes, error detail and version: the library's only fixed texts. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

static const struct {
    int code;
    const char *name;
    const char *message;
} statuses[] = {
    { TCO_OK, "TCO_OK", "success" },
    { TCO_E_NULL, "TCO_E_NULL", "a required pointer is NULL" },
    { TCO_E_RANGE, "TCO_E_RANGE", "a value is outside its allowed range" },
    { TCO_E_NOT_FINITE, "TCO_E_NOT_FINITE", "a value is NaN or infinite" },
    { TCO_E_INCONSISTENT, "TCO_E_INCONSISTENT", "values are valid alone but not together" },
    { TCO_E_FROZEN, "TCO_E_FROZEN", "the handle is frozen and cannot change" },
    { TCO_E_NOT_FROZEN, "TCO_E_NOT_FROZEN", "the handle must be frozen first" },
    { TCO_E_UNKNOWN_PARAM, "TCO_E_UNKNOWN_PARAM", "no parameter has that key or name" },
    { TCO_E_WRONG_HANDLE, "TCO_E_WRONG_HANDLE", "the parameter belongs to another handle" },
    { TCO_E_TYPE, "TCO_E_TYPE", "the value is of the wrong kind" },
    { TCO_E_NOMEM, "TCO_E_NOMEM", "out of memory" },
    { TCO_E_SIZE, "TCO_E_SIZE", "a struct's size field is too small" },
    { TCO_E_INDEX, "TCO_E_INDEX", "an index is past the end of a list" },
};

const char *tco_status_name(int status)
{
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
        if (statuses[i].code == status)
            return statuses[i].name;
    return "TCO_E_UNKNOWN";
}

const char *tco_status_message(int status)
{
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
        if (statuses[i].code == status)
            return statuses[i].message;
    return "unknown status";
}

int tco__fail_v(tco_error *err, int code, int32_t key, const char *name, const char *fmt, va_list ap)
{
    if (!err || err->size < ERROR_V1_SIZE)
        return code;
    err->code = code;
    err->param = key;
    snprintf(err->param_name, sizeof err->param_name, "%s", name);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return code;
}

int tco__fail(tco_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tco__fail_v(err, code, 0, "", fmt, ap);
    va_end(ap);
    return code;
}

int tco__fail_key(tco_error *err, int code, int32_t key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tco__fail_v(err, code, key, "", fmt, ap);
    va_end(ap);
    return code;
}

int tco__refail(tco_error *err, const tco_error *why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tco__fail_v(err, why->code, why->param, why->param_name, fmt, ap);
    va_end(ap);
    return why->code;
}

int tco__fail_named(tco_error *err, int code, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tco__fail_v(err, code, 0, name, fmt, ap);
    va_end(ap);
    return code;
}

int tco__input_tail_check(const void *s, size_t size, size_t known, const char *name, tco_error *err)
{
    if (size <= known || (size <= INPUT_MAX_SIZE && tail_is_zero(s, size, known)))
        return TCO_OK;
    char field[TCO_ERROR_PARAM_NAME_MAX];
    snprintf(field, sizeof field, "%s.size", name);
    if (size > INPUT_MAX_SIZE)
        return tco__fail_named(err, TCO_E_SIZE, field, "%s = %zu is past %d: set it to sizeof(tco_%s)", field,
                               size, INPUT_MAX_SIZE, name);
    return tco__fail_named(err, TCO_E_SIZE, field,
                           "%s = %zu, and bytes past the %zu this libtco reads are set: a newer field it cannot honour (upgrade libtco, or leave them zero)",
                           field, size, known);
}

uint32_t tco_version_number(void)
{
    return TCO_VERSION_NUMBER;
}

const char *tco_version_string(void)
{
    return TCO_VERSION_STRING;
}

int tco__output_size_fail(tco_error *err, const char *name, size_t size, size_t v1)
{
    return tco__fail(err, TCO_E_SIZE, "%s.size = %zu: set it to sizeof(%s), from %zu to %d", name, size, name, v1,
                     OUTPUT_MAX_SIZE);
}

int tco__stride_check(size_t size, size_t v1, const char *field, const char *type, tco_error *err)
{
    if (size < v1 || size > OUTPUT_MAX_SIZE || size % 8 != 0)
        return tco__fail_named(err, TCO_E_SIZE, field,
                               "%s = %zu: give sizeof(%s), from %zu to %d and a multiple of 8", field, size, type, v1,
                               OUTPUT_MAX_SIZE);
    return TCO_OK;
}
