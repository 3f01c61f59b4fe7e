/* tco: scenario files and cost reports from the command line (doc/tco.md).
 *
 *   tco report [FILE] [--format table|json|csv|cbor] [-o OUT]
 *   tco convert IN OUT [--from json|cbor] [--to json|cbor]
 *   tco fingerprint [FILE]
 *   tco params [--format table|json|csv|markdown]
 *
 * Scenario files are CBOR (the library reads and writes them) or JSON with
 * the same keys and nesting (read here with jansson, only in this command,
 * by setting each parameter through the public API; written here). Without
 * a file, the built-in scenario: new handles hold the defaults.
 *
 * Exit status: 0 success; 1 the scenario was rejected or cannot be priced;
 * 2 wrong usage; 3 a file could not be read or written. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <tco.h>

enum { EXIT_REJECTED = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

#define FORMAT_NAME "libtco-scenario"
#define MAX_FILE_BYTES (64u << 20) /* far above any scenario */

static const char *const handle_names[] = { "", "topology", "workload", "pricing" };

static void say(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void say(const char *fmt, ...)
{
    va_list ap;
    fputs("tco: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ==== files ============================================================== */

/* Reads all of path ("-": standard input) into a new buffer. */
static int read_all(const char *path, unsigned char **data, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        say("%s: cannot open: %s", path, strerror(errno));
        return EXIT_IO;
    }
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        if (cap >= MAX_FILE_BYTES) {
            say("%s: larger than %u MiB: not a scenario", path, MAX_FILE_BYTES >> 20);
            free(buf);
            if (f != stdin)
                fclose(f);
            return EXIT_REJECTED;
        }
        unsigned char *bigger = realloc(buf, cap * 2);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    int bad = !buf || ferror(f);
    if (f != stdin)
        fclose(f);
    if (bad) {
        say("%s: cannot read: %s", path, buf ? strerror(errno) : "out of memory");
        free(buf);
        return EXIT_IO;
    }
    *data = buf;
    *len = n;
    return 0;
}

static int write_all(const char *path, const void *data, size_t len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    if (!f) {
        say("%s: cannot create: %s", path, strerror(errno));
        return EXIT_IO;
    }
    int bad = fwrite(data, 1, len, f) != len;
    bad |= f == stdout ? fflush(f) != 0 : fclose(f) != 0;
    if (bad) {
        say("%s: cannot write: %s", path, strerror(errno));
        return EXIT_IO;
    }
    return 0;
}

static const char *extension(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* "json" or "cbor" from --from/--to, the extension, or (input only) the
 * first byte: JSON starts with '{' after white space. */
static const char *file_format(const char *given, const char *path, const unsigned char *data, size_t len)
{
    if (given)
        return given;
    const char *ext = extension(path);
    if (strcmp(ext, "json") == 0 || strcmp(ext, "cbor") == 0)
        return ext;
    for (size_t i = 0; data && i < len; i++)
        if (!strchr(" \t\r\n", data[i]))
            return data[i] == '{' ? "json" : "cbor";
    return data ? "cbor" : NULL;
}

/* ==== the scenario ======================================================= */

typedef struct scenario {
    tco_topology *t;
    tco_workload *w;
    tco_pricing *p;
} scenario;

static void scenario_free(scenario *s)
{
    tco_topology_free(s->t);
    tco_workload_free(s->w);
    tco_pricing_free(s->p);
    s->t = NULL;
    s->w = NULL;
    s->p = NULL;
}

static int h_set(scenario *s, int32_t kind, int32_t key, double v, tco_error *err)
{
    return kind == TCO_HANDLE_TOPOLOGY   ? tco_topology_set(s->t, key, v, err)
           : kind == TCO_HANDLE_WORKLOAD ? tco_workload_set(s->w, key, v, err)
                                         : tco_pricing_set(s->p, key, v, err);
}

static int h_set_text(scenario *s, int32_t kind, int32_t key, const char *v, tco_error *err)
{
    return kind == TCO_HANDLE_TOPOLOGY   ? tco_topology_set_text(s->t, key, v, err)
           : kind == TCO_HANDLE_WORKLOAD ? tco_workload_set_text(s->w, key, v, err)
                                         : tco_pricing_set_text(s->p, key, v, err);
}

static int h_get(const scenario *s, int32_t kind, int32_t key, double *v)
{
    return kind == TCO_HANDLE_TOPOLOGY   ? tco_topology_get(s->t, key, v, NULL)
           : kind == TCO_HANDLE_WORKLOAD ? tco_workload_get(s->w, key, v, NULL)
                                         : tco_pricing_get(s->p, key, v, NULL);
}

static int h_get_text(const scenario *s, int32_t kind, int32_t key, const char **v)
{
    return kind == TCO_HANDLE_TOPOLOGY   ? tco_topology_get_text(s->t, key, v, NULL)
           : kind == TCO_HANDLE_WORKLOAD ? tco_workload_get_text(s->w, key, v, NULL)
                                         : tco_pricing_get_text(s->p, key, v, NULL);
}

static int scenario_new(scenario *s)
{
    tco_error err = TCO_ERROR_INIT;
    if (tco_topology_new(&s->t, &err) || tco_workload_new(&s->w, &err) || tco_pricing_new(&s->p, &err)) {
        say("%s", err.message);
        scenario_free(s);
        return EXIT_REJECTED;
    }
    return 0;
}

/* "accelerator_model: allowed custom, A100-SXM-80GB, ..." */
static void choice_list(char *buf, size_t cap, int32_t key, size_t count)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t c = 0; c < count; c++) {
        const char *name;
        double value;
        if (tco_param_choice_at(&name, &value, key, c, NULL) != TCO_OK)
            break;
        int n = snprintf(buf + used, cap - used, "%s%s", c ? ", " : "", name);
        if (n < 0 || (size_t)n >= cap - used)
            break;
        used += (size_t)n;
    }
}

static const char *json_kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

/* One section of a JSON scenario, through the public API: the library
 * checks every value as for any caller. */
static int json_section(scenario *s, int32_t kind, json_t *obj, const char *path, const char *note)
{
    const char *section = handle_names[kind];
    if (!json_is_object(obj)) {
        say("%s: %s: a %s is an object of parameter names to values, not %s%s", path, section, section,
            json_kind(obj), note);
        return EXIT_REJECTED;
    }
    const char *name;
    json_t *v;
    json_object_foreach(obj, name, v) {
        tco_error err = TCO_ERROR_INIT;
        tco_param_info info = { .size = sizeof info };
        int32_t key;
        if (tco_param_find(&key, name, &err) != TCO_OK || tco_param_info_get(&info, key, &err) != TCO_OK) {
            say("%s: %s: unknown key \"%s\": no %s parameter has that name (tco params lists them)%s", path,
                section, name, section, note);
            return EXIT_REJECTED;
        }
        if (info.handle != kind) {
            say("%s: %s: %s belongs to the %s, not the %s%s", path, section, name, handle_names[info.handle],
                section, note);
            return EXIT_REJECTED;
        }
        int rc;
        if (info.type == TCO_TYPE_TEXT || info.type == TCO_TYPE_CHOICE) {
            if (!json_is_string(v)) {
                char list[512] = "";
                if (info.type == TCO_TYPE_CHOICE)
                    choice_list(list, sizeof list, key, info.choice_count);
                say("%s: %s.%s is %s (%s): write it as a string, not %s%s%s%s", path, section, name,
                    info.type == TCO_TYPE_CHOICE ? "a choice" : "a text", info.description, json_kind(v),
                    list[0] ? "; allowed " : "", list, note);
                return EXIT_REJECTED;
            }
            rc = h_set_text(s, kind, key, json_string_value(v), &err);
        } else if (json_is_number(v)) {
            rc = h_set(s, kind, key, json_number_value(v), &err);
        } else if (json_is_boolean(v) && info.type == TCO_TYPE_BOOL) {
            rc = h_set(s, kind, key, json_is_true(v) ? 1 : 0, &err);
        } else {
            say("%s: %s.%s is a number (%s%s%s): found %s%s", path, section, name, info.description,
                info.unit[0] ? ", " : "", info.unit, json_kind(v), note);
            return EXIT_REJECTED;
        }
        if (rc != TCO_OK) {
            say("%s: %s: %s%s", path, section, err.message, note);
            return EXIT_REJECTED;
        }
    }
    return 0;
}

static int load_json(scenario *s, const unsigned char *data, size_t len, const char *path)
{
    json_error_t jerr;
    json_t *root = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        say("%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column, jerr.text);
        return EXIT_REJECTED;
    }
    int rc = EXIT_REJECTED;
    char note[128] = "";
    json_t *format = json_object_get(root, "format"), *version = json_object_get(root, "version");
    if (!json_is_object(root)) {
        say("%s: not a libtco scenario: a scenario is an object (format, version, topology, workload, pricing), not %s",
            path, json_kind(root));
        goto out;
    }
    if (json_is_integer(version) && json_integer_value(version) > TCO_FORMAT_VERSION)
        snprintf(note, sizeof note, " (the file is format version %lld; this library reads 1 to %d)",
                 (long long)json_integer_value(version), TCO_FORMAT_VERSION);
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
        int32_t kind = strcmp(key, "topology") == 0   ? TCO_HANDLE_TOPOLOGY
                       : strcmp(key, "workload") == 0 ? TCO_HANDLE_WORKLOAD
                       : strcmp(key, "pricing") == 0  ? TCO_HANDLE_PRICING
                                                      : 0;
        if (kind) {
            if ((rc = json_section(s, kind, v, path, note)) != 0)
                goto out;
            rc = EXIT_REJECTED;
        } else if (strcmp(key, "format") == 0) {
            if (!json_is_string(v) || strcmp(json_string_value(v), FORMAT_NAME) != 0) {
                say("%s: not a libtco scenario: format is %s%s%s, not \"" FORMAT_NAME "\"", path,
                    json_is_string(v) ? "\"" : json_kind(v), json_is_string(v) ? json_string_value(v) : "",
                    json_is_string(v) ? "\"" : "");
                goto out;
            }
        } else if (strcmp(key, "version") == 0) {
            if (!json_is_integer(v)) {
                say("%s: version is %s: it is a whole number from 1%s", path, json_kind(v), note);
                goto out;
            }
            if (json_integer_value(v) < 1) {
                say("%s: version %lld does not exist: versions start at 1", path,
                    (long long)json_integer_value(v));
                goto out;
            }
        } else {
            say("%s: unknown scenario key \"%s\": allowed format, version, topology, workload, pricing%s", path,
                key, note);
            goto out;
        }
    }
    if (!format) {
        say("%s: not a libtco scenario: the object has no \"format\" key (\"" FORMAT_NAME "\")", path);
        goto out;
    }
    if (!version) {
        say("%s: the scenario has no \"version\" key", path);
        goto out;
    }
    if (json_integer_value(version) > TCO_FORMAT_VERSION) {
        say("%s: the scenario is format version %lld: this libtco (%s) reads versions 1 to %d; upgrade libtco",
            path, (long long)json_integer_value(version), tco_version_string(), TCO_FORMAT_VERSION);
        goto out;
    }
    rc = 0;
out:
    json_decref(root);
    return rc;
}

/* The scenario in path (NULL: the built-in one), frozen. */
static int load(scenario *s, const char *path, const char *from)
{
    memset(s, 0, sizeof *s);
    unsigned char *data = NULL;
    size_t len = 0;
    int rc = path ? read_all(path, &data, &len) : 0;
    if (rc)
        return rc;
    const char *fmt = path ? file_format(from, path, data, len) : "";
    tco_error err = TCO_ERROR_INIT;
    if (!path) {
        rc = scenario_new(s);
        path = "the built-in scenario";
    } else if (strcmp(fmt, "json") == 0) {
        rc = scenario_new(s);
        if (rc == 0 && (rc = load_json(s, data, len, path)) != 0)
            scenario_free(s);
    } else if (tco_scenario_load_cbor(&s->t, &s->w, &s->p, data, len, &err) != TCO_OK) {
        say("%s: %s", path, err.message);
        rc = EXIT_REJECTED;
    }
    free(data);
    if (rc)
        return rc;
    if (tco_topology_freeze(s->t, &err) || tco_workload_freeze(s->w, &err) || tco_pricing_freeze(s->p, &err)) {
        say("%s: %s", path, err.message);
        scenario_free(s);
        return EXIT_REJECTED;
    }
    return 0;
}

/* ==== writing text ======================================================= */

/* The shortest decimal that reads back as exactly v. */
static const char *num(char *buf, size_t cap, double v)
{
    if (isnan(v))
        return "nan";
    if (isinf(v))
        return v > 0 ? "inf" : "-inf";
    int prec = 1;
    for (; prec < 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* Plain digits rather than 3e+03 below a billion. */
    double a = fabs(v);
    if (a >= 1 && a < 1e9) {
        int digits = (int)floor(log10(a)) + 1;
        if (digits > prec)
            prec = digits;
    }
    snprintf(buf, cap, "%.*g", prec, v);
    return buf;
}

/* JSON has no NaN or infinity: null. */
static void json_num(FILE *f, double v)
{
    char buf[32];
    fputs(isfinite(v) ? num(buf, sizeof buf, v) : "null", f);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The JSON form of a scenario: the same keys and nesting as the CBOR, in
 * the parameter table's order. */
static void write_scenario_json(FILE *f, const scenario *s)
{
    fprintf(f, "{\n  \"format\": \"" FORMAT_NAME "\",\n  \"version\": %d", TCO_FORMAT_VERSION);
    int32_t section = 0;
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        if (tco_param_info_at(&in, i, NULL) != TCO_OK)
            continue;
        if (in.handle != section) {
            fprintf(f, "%s,\n  \"%s\": {\n", section ? "\n  }" : "", handle_names[in.handle]);
            section = in.handle;
        } else {
            fputs(",\n", f);
        }
        fprintf(f, "    \"%s\": ", in.name);
        double v = 0;
        const char *text = "";
        if (in.type == TCO_TYPE_TEXT || in.type == TCO_TYPE_CHOICE) {
            h_get_text(s, in.handle, in.key, &text);
            json_str(f, text ? text : "");
        } else {
            h_get(s, in.handle, in.key, &v);
            if (in.type == TCO_TYPE_REAL)
                json_num(f, v);
            else
                fprintf(f, "%.0f", v);
        }
    }
    fputs(section ? "\n  }\n}\n" : "\n}\n", f);
}

/* ==== commands =========================================================== */

static const char usage_text[] =
    "usage: tco COMMAND [ARGS]\n"
    "\n"
    "  tco report [FILE] [--format table|json|csv|cbor] [-o OUT]\n"
    "      price the scenario in FILE (the built-in one without FILE)\n"
    "  tco convert IN OUT [--from json|cbor] [--to json|cbor]\n"
    "      rewrite a scenario: JSON to canonical CBOR, CBOR to JSON (by extension,\n"
    "      or --from/--to; \"-\" is standard input or output)\n"
    "  tco fingerprint [FILE]\n"
    "      print the scenario's fingerprint and those of its three handles\n"
    "  tco params [--format table|json|csv|markdown]\n"
    "      list every parameter with its unit, default and allowed values\n"
    "  tco --help | --version\n"
    "\n"
    "FILE is a scenario in CBOR or JSON (doc/format.md). Exit status: 0 success,\n"
    "1 the scenario was rejected or cannot be priced, 2 wrong usage, 3 a file could\n"
    "not be read or written.\n";

static int usage(const char *fmt, const char *arg)
{
    if (fmt) {
        fputs("tco: ", stderr);
        fprintf(stderr, fmt, arg);
        fputc('\n', stderr);
    }
    fputs(usage_text, stderr);
    return EXIT_USAGE;
}

typedef struct opts {
    const char *pos[3]; /* positional arguments */
    int npos;
    const char *format, *from, *to, *output;
} opts;

static int one_of(const char *v, const char *const *allowed)
{
    for (; *allowed; allowed++)
        if (strcmp(v, *allowed) == 0)
            return 1;
    return 0;
}

/* Options may come before or after the positional arguments. */
static int parse(opts *o, int argc, char **argv, int max_pos, const char *const *formats)
{
    static const char *const files[] = { "json", "cbor", NULL };
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = strcmp(a, "--format") == 0 || strcmp(a, "-f") == 0 ? &o->format
                            : strcmp(a, "--from") == 0                        ? &o->from
                            : strcmp(a, "--to") == 0                          ? &o->to
                            : strcmp(a, "--output") == 0 || strcmp(a, "-o") == 0 ? &o->output
                                                                               : NULL;
        if (slot) {
            if (i + 1 >= argc)
                return usage("%s needs a value", a);
            *slot = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage("unknown option %s", a);
        } else if (o->npos < max_pos) {
            o->pos[o->npos++] = a;
        } else {
            return usage("unexpected argument %s", a);
        }
    }
    if (o->format && (!formats || !one_of(o->format, formats)))
        return usage("--format %s is not offered here", o->format);
    if ((o->from && !one_of(o->from, files)) || (o->to && !one_of(o->to, files)))
        return usage("--from and --to take json or cbor, not %s", o->from && !one_of(o->from, files) ? o->from : o->to);
    return 0;
}

/* 1234567.8 -> "1,234,568" */
static const char *money(char *buf, size_t cap, double v)
{
    char digits[64];
    if (!isfinite(v))
        return num(buf, cap, v);
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    size_t n = strlen(digits), j = 0;
    if (v < 0 && j + 1 < cap)
        buf[j++] = '-';
    for (size_t i = 0; i < n && j + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[j++] = ',';
        buf[j++] = digits[i];
    }
    buf[j] = '\0';
    return buf;
}

static const char *named(int32_t type, size_t i)
{
    return type == TCO_FIELD_CATEGORIES ? tco_category_name((int32_t)i) : tco_waste_name((int32_t)i);
}

static size_t named_count(int32_t type)
{
    return type == TCO_FIELD_CATEGORIES ? tco_category_count() : tco_waste_count();
}

static void report_table(FILE *f, const tco_estimate *e, const char *path)
{
    char a[40], b[40];
    fprintf(f, "libtco %s: %s\nscenario fingerprint %016llx\n\n", tco_version_string(),
            path ? path : "the built-in scenario", (unsigned long long)e->scenario_fingerprint);
    fprintf(f, "  %-12s %18s %7s\n", "category", "cost", "share");
    for (size_t c = 0; c < tco_category_count(); c++)
        fprintf(f, "  %-12s %18s %6.1f%%\n", tco_category_name((int32_t)c), money(a, sizeof a, e->cost[c]),
                e->total > 0 ? 100 * e->cost[c] / e->total : 0.0);
    fprintf(f, "  %-12s %18s\n\n", "total", money(a, sizeof a, e->total));
    fprintf(f, "  %-12s %18s\n", "waste", "cost");
    for (size_t k = 0; k < tco_waste_count(); k++)
        fprintf(f, "  %-12s %18s\n", tco_waste_name((int32_t)k), money(a, sizeof a, e->waste[k]));
    fputc('\n', f);
    fprintf(f, "  %-36s %24s  %-8s %s\n", "field", "value", "unit", "description");
    for (size_t i = 0; i < tco_estimate_field_count(); i++) {
        tco_field_info fi = { .size = sizeof fi };
        if (tco_estimate_field_at(&fi, i, NULL) != TCO_OK || fi.type == TCO_FIELD_CATEGORIES ||
            fi.type == TCO_FIELD_WASTES)
            continue;
        const char *at = (const char *)e + fi.offset;
        if (fi.type == TCO_FIELD_UINT64) {
            uint64_t u;
            memcpy(&u, at, sizeof u);
            snprintf(b, sizeof b, "%016llx", (unsigned long long)u);
        } else {
            double d;
            memcpy(&d, at, sizeof d);
            snprintf(b, sizeof b, "%.6g", d);
        }
        fprintf(f, "  %-36s %24s  %-8s %s\n", fi.name, b, fi.unit, fi.description);
    }
}

static void report_json(FILE *f, const tco_estimate *e)
{
    fputs("{", f);
    for (size_t i = 0; i < tco_estimate_field_count(); i++) {
        tco_field_info fi = { .size = sizeof fi };
        if (tco_estimate_field_at(&fi, i, NULL) != TCO_OK)
            continue;
        const char *at = (const char *)e + fi.offset;
        fprintf(f, "%s\n  \"%s\": ", i ? "," : "", fi.name);
        if (fi.type == TCO_FIELD_CATEGORIES || fi.type == TCO_FIELD_WASTES) {
            const double *v = (const double *)(const void *)at;
            fputs("{", f);
            for (size_t k = 0; k < named_count(fi.type); k++) {
                fprintf(f, "%s\n    \"%s\": ", k ? "," : "", named(fi.type, k));
                json_num(f, v[k]);
            }
            fputs("\n  }", f);
        } else if (fi.type == TCO_FIELD_UINT64) {
            uint64_t u;
            memcpy(&u, at, sizeof u);
            fprintf(f, "%llu", (unsigned long long)u);
        } else {
            double d;
            memcpy(&d, at, sizeof d);
            json_num(f, d);
        }
    }
    fputs("\n}\n", f);
}

static void report_csv(FILE *f, const tco_estimate *e)
{
    char buf[32];
    fputs("field,value,unit\n", f);
    for (size_t i = 0; i < tco_estimate_field_count(); i++) {
        tco_field_info fi = { .size = sizeof fi };
        if (tco_estimate_field_at(&fi, i, NULL) != TCO_OK)
            continue;
        const char *at = (const char *)e + fi.offset;
        if (fi.type == TCO_FIELD_CATEGORIES || fi.type == TCO_FIELD_WASTES) {
            const double *v = (const double *)(const void *)at;
            for (size_t k = 0; k < named_count(fi.type); k++)
                fprintf(f, "%s.%s,%s,%s\n", fi.name, named(fi.type, k), num(buf, sizeof buf, v[k]), fi.unit);
        } else if (fi.type == TCO_FIELD_UINT64) {
            uint64_t u;
            memcpy(&u, at, sizeof u);
            fprintf(f, "%s,%llu,%s\n", fi.name, (unsigned long long)u, fi.unit);
        } else {
            double d;
            memcpy(&d, at, sizeof d);
            fprintf(f, "%s,%s,%s\n", fi.name, num(buf, sizeof buf, d), fi.unit);
        }
    }
}

/* Saves through a size query, then the bytes. */
typedef int (*saver)(uint8_t *, size_t, size_t *, const void *, tco_error *);

static int save_estimate(uint8_t *buf, size_t cap, size_t *len, const void *e, tco_error *err)
{
    return tco_estimate_save_cbor(buf, cap, len, e, err);
}

static int save_scenario(uint8_t *buf, size_t cap, size_t *len, const void *s, tco_error *err)
{
    const scenario *sc = s;
    return tco_scenario_save_cbor(buf, cap, len, sc->t, sc->w, sc->p, err);
}

static int write_cbor(const char *out, saver save, const void *what)
{
    tco_error err = TCO_ERROR_INIT;
    size_t len = 0;
    if (save(NULL, 0, &len, what, &err) != TCO_OK) {
        say("%s", err.message);
        return EXIT_REJECTED;
    }
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        say("out of memory");
        return EXIT_IO;
    }
    int rc = save(buf, len, &len, what, &err);
    if (rc != TCO_OK)
        say("%s", err.message);
    rc = rc != TCO_OK ? EXIT_REJECTED : write_all(out, buf, len);
    free(buf);
    return rc;
}

static int binary_to_terminal(const char *out)
{
    if (strcmp(out, "-") == 0 && isatty(STDOUT_FILENO)) {
        say("CBOR is binary: not writing it to a terminal (give -o FILE, or redirect)");
        return 1;
    }
    return 0;
}

/* Opens out for text ("-": standard output). */
static FILE *open_text(const char *out)
{
    if (strcmp(out, "-") == 0)
        return stdout;
    FILE *f = fopen(out, "w");
    if (!f)
        say("%s: cannot create: %s", out, strerror(errno));
    return f;
}

static int close_text(FILE *f, const char *out)
{
    int bad = f == stdout ? fflush(f) != 0 : fclose(f) != 0;
    if (bad) {
        say("%s: cannot write: %s", out, strerror(errno));
        return EXIT_IO;
    }
    return 0;
}

static int cmd_report(int argc, char **argv)
{
    static const char *const formats[] = { "table", "json", "csv", "cbor", NULL };
    opts o;
    int rc = parse(&o, argc, argv, 1, formats);
    if (rc)
        return rc;
    const char *format = o.format ? o.format : "table", *out = o.output ? o.output : "-";
    if (strcmp(format, "cbor") == 0 && binary_to_terminal(out))
        return EXIT_USAGE;
    scenario s;
    if ((rc = load(&s, o.pos[0], o.from)) != 0)
        return rc;
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    tco_error err = TCO_ERROR_INIT;
    if (tco_estimate_compute(&e, s.t, s.w, s.p, &err) != TCO_OK) {
        say("%s: %s", o.pos[0] ? o.pos[0] : "the built-in scenario", err.message);
        scenario_free(&s);
        return EXIT_REJECTED;
    }
    scenario_free(&s);
    if (strcmp(format, "cbor") == 0)
        return write_cbor(out, save_estimate, &e);
    FILE *f = open_text(out);
    if (!f)
        return EXIT_IO;
    if (strcmp(format, "json") == 0)
        report_json(f, &e);
    else if (strcmp(format, "csv") == 0)
        report_csv(f, &e);
    else
        report_table(f, &e, o.pos[0]);
    return close_text(f, out);
}

static int cmd_convert(int argc, char **argv)
{
    opts o;
    int rc = parse(&o, argc, argv, 2, NULL);
    if (rc)
        return rc;
    if (o.npos != 2)
        return usage("convert needs IN and OUT%s", "");
    const char *out = o.pos[1];
    const char *to = file_format(o.to, out, NULL, 0);
    if (!to)
        return usage("%s: say --to json or --to cbor (no .json or .cbor extension)", out);
    if (strcmp(to, "cbor") == 0 && binary_to_terminal(out))
        return EXIT_USAGE;
    scenario s;
    if ((rc = load(&s, o.pos[0], o.from)) != 0)
        return rc;
    if (strcmp(to, "cbor") == 0) {
        rc = write_cbor(out, save_scenario, &s);
    } else {
        FILE *f = open_text(out);
        rc = EXIT_IO;
        if (f) {
            write_scenario_json(f, &s);
            rc = close_text(f, out);
        }
    }
    scenario_free(&s);
    return rc;
}

static int cmd_fingerprint(int argc, char **argv)
{
    opts o;
    int rc = parse(&o, argc, argv, 1, NULL);
    if (rc)
        return rc;
    scenario s;
    if ((rc = load(&s, o.pos[0], o.from)) != 0)
        return rc;
    uint64_t all = 0, t = 0, w = 0, p = 0;
    tco_scenario_fingerprint(&all, s.t, s.w, s.p, NULL);
    tco_topology_fingerprint(&t, s.t, NULL);
    tco_workload_fingerprint(&w, s.w, NULL);
    tco_pricing_fingerprint(&p, s.p, NULL);
    scenario_free(&s);
    printf("scenario  %016llx\ntopology  %016llx\nworkload  %016llx\npricing   %016llx\n",
           (unsigned long long)all, (unsigned long long)t, (unsigned long long)w, (unsigned long long)p);
    return close_text(stdout, "-");
}

/* ---- params ---- */

static const char *const handle_titles[] = { "", "Cluster topology (tco_topology)",
                                             "Workload profile (tco_workload)",
                                             "Pricing table (tco_pricing)" };
static const char *const type_names[] = { "", "real", "int", "bool", "choice", "text" };

static const char *type_name(int32_t type)
{
    return type >= 1 && type <= 5 ? type_names[type] : "?";
}

/* The default as the page shows it: `text`, or the number. */
static const char *default_shown(char *buf, size_t cap, const tco_param_info *in, int quoted)
{
    if (in->type == TCO_TYPE_TEXT || in->type == TCO_TYPE_CHOICE)
        snprintf(buf, cap, quoted ? "`%s`" : "%s", in->default_text);
    else
        snprintf(buf, cap, "%.10g", in->default_value);
    return buf;
}

/* "0 to 1", "0 or 1", the choices, or "text, under 64 bytes". */
static const char *allowed(char *buf, size_t cap, const tco_param_info *in, int quoted)
{
    size_t used = 0;
    buf[0] = '\0';
    if (in->type == TCO_TYPE_CHOICE) {
        for (size_t c = 0; c < in->choice_count; c++) {
            const char *name;
            double value;
            tco_param_choice_at(&name, &value, in->key, c, NULL);
            int n = snprintf(buf + used, cap - used, quoted ? "%s`%s`" : "%s%s", c ? ", " : "", name);
            if (n < 0 || (size_t)n >= cap - used)
                break;
            used += (size_t)n;
        }
    } else if (in->type == TCO_TYPE_TEXT) {
        snprintf(buf, cap, "text, under %d bytes", TCO_TEXT_MAX);
    } else if (in->type == TCO_TYPE_BOOL) {
        snprintf(buf, cap, "0 or 1");
    } else {
        snprintf(buf, cap, "%.10g to %.10g%s", in->min_value, in->max_value,
                 in->type == TCO_TYPE_INT ? ", whole" : "");
    }
    return buf;
}

/* doc/parameters.md, exactly (a test compares the two). */
static void params_markdown(FILE *f)
{
    char d[96], a[512];
    fputs("# Parameters\n\n"
          "Every input of the three handles, generated from the library's one parameter table\n"
          "(`tco params --format markdown`; a test fails if this page is stale). Keys are `TCO_P_`\n"
          "followed by the name in upper case. `cur` is the pricing table's currency. The defaults\n"
          "are the built-in scenario; doc/model.md says where they come from.\n",
          f);
    int32_t handle = 0;
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        if (tco_param_info_at(&in, i, NULL) != TCO_OK)
            continue;
        if (in.handle != handle) {
            handle = in.handle;
            fprintf(f, "\n## %s\n\n", handle_titles[handle]);
            fputs("| name | key | unit | default | allowed | description |\n|---|---|---|---|---|---|\n", f);
        }
        fprintf(f, "| `%s` | %d | %s | %s | %s | %s |\n", in.name, (int)in.key, in.unit,
                default_shown(d, sizeof d, &in, 1), allowed(a, sizeof a, &in, 1), in.description);
    }
}

static int cmd_params(int argc, char **argv)
{
    static const char *const formats[] = { "table", "json", "csv", "markdown", NULL };
    opts o;
    int rc = parse(&o, argc, argv, 0, formats);
    if (rc)
        return rc;
    const char *format = o.format ? o.format : "table";
    FILE *f = stdout;
    char d[96], a[512];
    if (strcmp(format, "markdown") == 0) {
        params_markdown(f);
        return close_text(f, "-");
    }
    if (strcmp(format, "json") == 0)
        fputs("[", f);
    else if (strcmp(format, "csv") == 0)
        fputs("name,key,handle,type,unit,default,min,max,allowed,description\n", f);
    else
        fprintf(f, "%-34s %-9s %-7s %-16s %-12s %s\n", "name", "handle", "type", "unit", "default", "allowed");
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        if (tco_param_info_at(&in, i, NULL) != TCO_OK)
            continue;
        default_shown(d, sizeof d, &in, 0);
        allowed(a, sizeof a, &in, 0);
        if (strcmp(format, "json") == 0) {
            fprintf(f, "%s\n  {\"name\": \"%s\", \"key\": %d, \"handle\": \"%s\", \"type\": \"%s\", \"unit\": ",
                    i ? "," : "", in.name, (int)in.key, handle_names[in.handle], type_name(in.type));
            json_str(f, in.unit);
            fputs(", \"default\": ", f);
            if (in.type == TCO_TYPE_TEXT || in.type == TCO_TYPE_CHOICE)
                json_str(f, in.default_text);
            else
                json_num(f, in.default_value);
            if (in.type != TCO_TYPE_TEXT && in.type != TCO_TYPE_CHOICE) {
                fputs(", \"min\": ", f);
                json_num(f, in.min_value);
                fputs(", \"max\": ", f);
                json_num(f, in.max_value);
            }
            if (in.type == TCO_TYPE_CHOICE) {
                fputs(", \"choices\": [", f);
                for (size_t c = 0; c < in.choice_count; c++) {
                    const char *name;
                    double value;
                    tco_param_choice_at(&name, &value, in.key, c, NULL);
                    fputs(c ? ", " : "", f);
                    json_str(f, name);
                }
                fputs("]", f);
            }
            fputs(", \"description\": ", f);
            json_str(f, in.description);
            fputs("}", f);
        } else if (strcmp(format, "csv") == 0) {
            char lo[32], hi[32];
            int numeric = in.type != TCO_TYPE_TEXT && in.type != TCO_TYPE_CHOICE;
            fprintf(f, "%s,%d,%s,%s,", in.name, (int)in.key, handle_names[in.handle], type_name(in.type));
            csv_str(f, in.unit);
            fputc(',', f);
            csv_str(f, d);
            fprintf(f, ",%s,%s,", numeric ? num(lo, sizeof lo, in.min_value) : "",
                    numeric ? num(hi, sizeof hi, in.max_value) : "");
            csv_str(f, a);
            fputc(',', f);
            csv_str(f, in.description);
            fputc('\n', f);
        } else {
            fprintf(f, "%-34s %-9s %-7s %-16s %-12s %s\n", in.name, handle_names[in.handle], type_name(in.type),
                    in.unit, d, a);
        }
    }
    if (strcmp(format, "json") == 0)
        fputs("\n]\n", f);
    return close_text(f, "-");
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage(NULL, NULL);
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return close_text(stdout, "-");
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("tco (libtco) %s\nscenario format version %d\n", tco_version_string(), TCO_FORMAT_VERSION);
        return close_text(stdout, "-");
    }
    uint32_t v = tco_version_number();
    if (v / 10000 != TCO_VERSION_MAJOR || v < TCO_VERSION_NUMBER) {
        say("built against libtco %s, running with %s", TCO_VERSION_STRING, tco_version_string());
        return EXIT_IO;
    }
    if (strcmp(cmd, "report") == 0)
        return cmd_report(argc - 2, argv + 2);
    if (strcmp(cmd, "convert") == 0)
        return cmd_convert(argc - 2, argv + 2);
    if (strcmp(cmd, "fingerprint") == 0)
        return cmd_fingerprint(argc - 2, argv + 2);
    if (strcmp(cmd, "params") == 0)
        return cmd_params(argc - 2, argv + 2);
    return usage("unknown command %s", cmd);
}
