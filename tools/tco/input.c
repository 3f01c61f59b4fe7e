/* Reading a scenario file (doc/format.md) into the library's handles.
 *
 * CBOR is the library's own format: tco_scenario_load_cbor reads it. JSON,
 * for people who write scenarios by hand, has the same keys and nesting; it
 * is read here with jansson (the command's dependency, never the
 * library's) and set one parameter at a time through the public API, so the
 * library checks every value as for any caller. Without a file, the
 * built-in scenario: new handles hold the defaults. Either way the handles
 * are frozen, which checks each handle's values together. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "tco_cmd.h"

#define MAX_FILE_BYTES (64u << 20) /* far above any scenario */

/* ==== files ============================================================== */

int read_file(const char *path, size_t max_bytes, unsigned char **data, size_t *len)
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
        if (cap >= max_bytes) {
            say("%s: larger than %zu MiB", path, max_bytes >> 20);
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

static const char *extension(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) ? dot + 1 : "";
}

/* JSON starts with '{' after white space; anything else is taken for CBOR. */
const char *file_format(const char *given, const char *path, const unsigned char *data, size_t len)
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

/* ==== the handles ======================================================== */

void scenario_free(scenario *s)
{
    tco_topology_free(s->t);
    tco_workload_free(s->w);
    tco_pricing_free(s->p);
    s->t = NULL;
    s->w = NULL;
    s->p = NULL;
}

const char *scenario_label(const char *path)
{
    return path ? path : "the built-in scenario";
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

int scenario_get(const scenario *s, int32_t kind, int32_t key, double *v)
{
    return kind == TCO_HANDLE_TOPOLOGY   ? tco_topology_get(s->t, key, v, NULL)
           : kind == TCO_HANDLE_WORKLOAD ? tco_workload_get(s->w, key, v, NULL)
                                         : tco_pricing_get(s->p, key, v, NULL);
}

int scenario_get_text(const scenario *s, int32_t kind, int32_t key, const char **v)
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

/* ==== JSON =============================================================== */

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

/* Whether v, which is there, is of type t: json_is_object() and its kin
 * test for NULL too, a test no input reaches where the value exists. */
static int is(const json_t *v, json_type t)
{
    return json_typeof(v) == t;
}

static int is_number(const json_t *v)
{
    return is(v, JSON_INTEGER) || is(v, JSON_REAL);
}

/* Every member of an object: jansson's json_object_foreach without its
 * test of a value that an iterator always gives. */
#define EACH_MEMBER(obj, key, v)                                                                                  \
    for (void *it_ = json_object_iter(obj);                                                                       \
         it_ ? ((key) = json_object_iter_key(it_), (v) = json_object_iter_value(it_), 1) : 0;                      \
         it_ = json_object_iter_next(obj, it_))

/* The handle kind a top-level key names (the library's names), else 0. */
static int32_t section_kind(const char *key)
{
    for (int32_t kind = TCO_HANDLE_TOPOLOGY; kind <= TCO_HANDLE_PRICING; kind++)
        if (strcmp(key, tco_handle_kind_name(kind)) == 0)
            return kind;
    return 0;
}

/* "format, version, topology, workload, pricing": what a scenario holds. */
static const char *scenario_keys(char *buf, size_t cap)
{
    snprintf(buf, cap, "format, version, %s, %s, %s", tco_handle_kind_name(TCO_HANDLE_TOPOLOGY),
             tco_handle_kind_name(TCO_HANDLE_WORKLOAD), tco_handle_kind_name(TCO_HANDLE_PRICING));
    return buf;
}

/* One section of a JSON scenario, through the public API: the library
 * checks every value as for any caller. note is said after every message
 * (a newer format version explains an unknown key). */
static int json_section(scenario *s, int32_t kind, json_t *obj, const char *path, const char *note)
{
    const char *section = tco_handle_kind_name(kind);
    if (!is(obj, JSON_OBJECT)) {
        say("%s: %s: a %s is an object of parameter names to values, not %s%s", path, section, section,
            json_kind(obj), note);
        return EXIT_REJECTED;
    }
    const char *name;
    json_t *v;
    EACH_MEMBER(obj, name, v) {
        tco_error err = TCO_ERROR_INIT;
        tco_param_info info = { .size = sizeof info };
        int32_t key;
        if (tco_param_find(&key, name, &err) != TCO_OK) {
            char shown[256];
            say("%s: %s: unknown key \"%s\": no %s parameter has that name (tco params lists them)%s", path,
                section, shown_text(shown, sizeof shown, name), section, note);
            return EXIT_REJECTED;
        }
        tco_param_info_get(&info, key, NULL); /* a key find gave: cannot fail */
        if (info.handle != kind) {
            say("%s: %s: %s belongs to the %s, not the %s%s", path, section, name,
                tco_handle_kind_name(info.handle), section, note);
            return EXIT_REJECTED;
        }
        int rc;
        if (info.type == TCO_TYPE_TEXT || info.type == TCO_TYPE_CHOICE) {
            if (!is(v, JSON_STRING)) {
                char list[512] = "";
                if (info.type == TCO_TYPE_CHOICE)
                    param_choices(list, sizeof list, key, info.choice_count, 0);
                say("%s: %s.%s is %s (%s): write it as a string, not %s%s%s%s", path, section, name,
                    info.type == TCO_TYPE_CHOICE ? "a choice" : "a text", info.description, json_kind(v),
                    list[0] ? "; allowed " : "", list, note);
                return EXIT_REJECTED;
            }
            rc = h_set_text(s, kind, key, json_string_value(v), &err);
        } else if (is_number(v)) {
            /* A whole number past 2^53 does not fit a double as written:
             * refused, never rounded in silence. */
            json_int_t i = is(v, JSON_INTEGER) ? json_integer_value(v) : 0;
            if (i > ((json_int_t)1 << 53) || i < -((json_int_t)1 << 53)) {
                say("%s: %s.%s = %lld does not fit a double exactly (it would be rounded): allowed whole numbers "
                    "up to 2^53, or write it as a real such as %.17g%s",
                    path, section, name, (long long)i, (double)i, note);
                return EXIT_REJECTED;
            }
            rc = h_set(s, kind, key, json_number_value(v), &err);
        } else if ((is(v, JSON_TRUE) || is(v, JSON_FALSE)) && info.type == TCO_TYPE_BOOL) {
            rc = h_set(s, kind, key, is(v, JSON_TRUE), &err);
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

/* jansson does not recover from an allocation that fails: it reports
 * some as syntax errors ("string or '}' expected"), returns a text cut
 * short for others, and for one fails an assertion on a corrupted heap.
 * Its allocations go through here, and the first that fails ends the
 * command, saying so (no output file is open while a scenario is read). */
static void *json_alloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        say("out of memory while reading a JSON scenario (%zu bytes more were needed)", n);
        exit(EXIT_IO);
    }
    return p;
}

enum { MAX_DIGITS = 800 }; /* a double's exact expansion has at most 767 */

/* The significant digits of the number written at s (n bytes: sign,
 * digits, point, exponent), leading zeros dropped, into d; their count,
 * or -1 when there are more than cap. */
static int significant_digits(char *d, int cap, const char *s, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
        if (s[i] < '0' || s[i] > '9' || (k == 0 && s[i] == '0'))
            continue;
        if (k == cap)
            return -1;
        d[k++] = s[i];
    }
    while (k > 0 && d[k - 1] == '0') /* 1.50 says no more than 1.5 */
        k--;
    return k;
}

/* 1 when x, which the number written at s (n bytes) reads as, gives its
 * digits back: up to DBL_DIG digits always do, unless the number fell
 * below the normal range (1e-400 reads as 0). */
static int fits_as_written(const char *s, size_t n, double x)
{
    char written[MAX_DIGITS], back[MAX_DIGITS], back_text[MAX_DIGITS + 16];
    int k = significant_digits(written, MAX_DIGITS, s, n);
    if (k < 0)
        return 0;
    if (k <= DBL_DIG && (k == 0 || fabs(x) >= DBL_MIN))
        return 1;
    snprintf(back_text, sizeof back_text, "%.*e", k - 1, x);
    return significant_digits(back, MAX_DIGITS, back_text, strlen(back_text)) == k &&
           memcmp(written, back, (size_t)k) == 0;
}

int number_text(const char *text, double *v)
{
    size_t n = strspn(text, "+-.0123456789eE"); /* no hexadecimal, white space, inf or nan */
    char *end;
    *v = strtod(text, &end);
    return n > 0 && text[n] == '\0' && end == text + n && isfinite(*v) && fits_as_written(text, n, *v);
}

/* A real number whose digits the double it reads as does not give back is
 * refused, never rounded in silence: 0.1 reads back as 0.1, but
 * 0.30000000000000000001 would be 0.3 and 1.00000000000000011 lost its
 * last digits. The text is valid JSON (jansson read it first), so a number
 * is a run of [-+.0-9eE] outside a string, a string ends in a quote and a
 * number in a delimiter before the text's closing bracket. Whole numbers
 * are jansson's integers, checked against 2^53 where they are set. */
static int exact_reals(const unsigned char *data, size_t len, const char *path)
{
    const char *s = (const char *)data;
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\n') {
            line++;
            line_start = i + 1;
        } else if (s[i] == '"') {
            for (i++; s[i] != '"'; i++)
                i += s[i] == '\\';
        } else if (s[i] == '-' || (s[i] >= '0' && s[i] <= '9')) {
            size_t j = i;
            int real = 0;
            while (memchr("+-.0123456789eE", s[j], 15)) {
                real |= s[j] == '.' || s[j] == 'e' || s[j] == 'E';
                j++;
            }
            char text[MAX_DIGITS + 8], written[MAX_DIGITS];
            int n = real ? significant_digits(written, MAX_DIGITS, s + i, j - i) : 0;
            snprintf(text, sizeof text, "%.*s", (int)(j - i), s + i);
            double x = n > 0 ? strtod(text, NULL) : 0;
            if (n > 0 && !fits_as_written(s + i, j - i, x)) {
                char back_text[32];
                int p = 1; /* the shortest text that reads as x (17 digits always do) */
                while (p < 17 && (snprintf(back_text, sizeof back_text, "%.*g", p, x), strtod(back_text, NULL) != x))
                    p++;
                say("%s:%d:%zu: the number %s does not fit a double as written: it reads as %.*g (%s); "
                    "write that instead", path, line, i - line_start + 1, text, p,
                    x, x == 0 ? "it is below the smallest double, 4.9e-324" : "its last digits are lost");
                return EXIT_REJECTED;
            } else if (n < 0) {
                say("%s:%d:%zu: a number of more than %d digits: a double keeps at most 17", path, line,
                    i - line_start + 1, MAX_DIGITS);
                return EXIT_REJECTED;
            }
            i = j - 1;
        }
    }
    return 0;
}

/* The JSON text parsed, duplicates refused, reals checked for lost digits;
 * NULL said as what is wrong with *rc the exit status. */
static json_t *parse_json(const unsigned char *data, size_t len, const char *path, int *rc)
{
    json_error_t jerr;
    json_set_alloc_funcs(json_alloc, free);
    json_t *root = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        if (json_error_code(&jerr) == json_error_out_of_memory) { /* not the text's fault: say so */
            say("%s: out of memory while reading the JSON", path);
            *rc = EXIT_IO;
            return NULL;
        }
        char shown[256];
        say("%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column, shown_text(shown, sizeof shown, jerr.text));
        *rc = EXIT_REJECTED;
    } else if ((*rc = exact_reals(data, len, path)) != 0) {
        json_decref(root);
        root = NULL;
    }
    return root;
}

/* The scenario's keys of root into s. extra: one more top-level key the
 * caller reads itself (a programme's "stages"), or NULL. */
static int scenario_json(scenario *s, json_t *root, const char *path, const char *extra)
{
    int rc = EXIT_REJECTED;
    const char *format_name = tco_scenario_format_name();
    char note[128] = "", keys[96];
    json_t *format = json_object_get(root, "format"), *version = json_object_get(root, "version");
    if (!is(root, JSON_OBJECT)) {
        say("%s: not a libtco scenario: a scenario is an object (%s), not %s", path,
            scenario_keys(keys, sizeof keys), json_kind(root));
        goto out;
    }
    if (json_is_integer(version) && json_integer_value(version) > TCO_FORMAT_VERSION)
        snprintf(note, sizeof note, " (the file is format version %lld; this library reads 1 to %d)",
                 (long long)json_integer_value(version), TCO_FORMAT_VERSION);
    const char *key;
    json_t *v;
    EACH_MEMBER(root, key, v) {
        int32_t kind = section_kind(key);
        if (kind) {
            if ((rc = json_section(s, kind, v, path, note)) != 0)
                goto out;
            rc = EXIT_REJECTED;
        } else if (strcmp(key, "format") == 0) {
            if (!is(v, JSON_STRING) || strcmp(json_string_value(v), format_name) != 0) {
                char shown[256], quoted[262];
                if (is(v, JSON_STRING))
                    snprintf(quoted, sizeof quoted, "\"%s\"", shown_text(shown, sizeof shown, json_string_value(v)));
                say("%s: not a libtco scenario: format is %s, not \"%s\"", path,
                    is(v, JSON_STRING) ? quoted : json_kind(v), format_name);
                goto out;
            }
        } else if (strcmp(key, "version") == 0) {
            if (!is(v, JSON_INTEGER)) {
                say("%s: version is %s: it is a whole number from 1%s", path, json_kind(v), note);
                goto out;
            }
            if (json_integer_value(v) < 1) {
                say("%s: version %lld does not exist: versions start at 1", path,
                    (long long)json_integer_value(v));
                goto out;
            }
        } else if (!extra || strcmp(key, extra) != 0) {
            char shown[256];
            say("%s: unknown %s key \"%s\": allowed %s%s%s%s", path, extra ? "programme" : "scenario",
                shown_text(shown, sizeof shown, key), scenario_keys(keys, sizeof keys), extra ? ", " : "",
                extra ? extra : "", note);
            goto out;
        }
    }
    if (!format) {
        say("%s: not a libtco scenario: the object has no \"format\" key (\"%s\")", path, format_name);
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
    return rc;
}

static int load_json(scenario *s, const unsigned char *data, size_t len, const char *path)
{
    int rc = 0;
    json_t *root = parse_json(data, len, path, &rc);
    if (!root)
        return rc;
    rc = scenario_json(s, root, path, NULL);
    json_decref(root);
    return rc;
}

/* ==== a scenario, from any source ======================================== */

static int scenario_freeze(scenario *s, const char *label)
{
    tco_error err = TCO_ERROR_INIT;
    if (tco_topology_freeze(s->t, &err) || tco_workload_freeze(s->w, &err) || tco_pricing_freeze(s->p, &err)) {
        say("%s: %s", label, err.message);
        scenario_free(s);
        return EXIT_REJECTED;
    }
    return 0;
}

int scenario_from_json(scenario *s, const unsigned char *data, size_t len, const char *label)
{
    memset(s, 0, sizeof *s);
    int rc = scenario_new(s);
    if (rc == 0 && (rc = load_json(s, data, len, label)) != 0)
        scenario_free(s);
    return rc ? rc : scenario_freeze(s, label);
}

/* Edits between two strings, for "did you mean" (Levenshtein; names are
 * short, so a row of 64 is enough, and longer names are never close). */
static size_t distance(const char *a, const char *b)
{
    size_t n = strlen(b), row[65];
    if (n > 64 || strlen(a) > 64)
        return SIZE_MAX;
    for (size_t j = 0; j <= n; j++)
        row[j] = j;
    for (size_t i = 1; a[i - 1]; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= n; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            best = up + 1 < best ? up + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            row[j] = best;
            diag = up;
        }
    }
    return row[n];
}

/* The parameter name nearest to name, if near enough to be a slip. */
static const char *closest_name(const char *name)
{
    const char *best = NULL;
    size_t d = SIZE_MAX;
    for (size_t i = 0; i < tco_param_count(); i++) {
        tco_param_info in = { .size = sizeof in };
        tco_param_info_at(&in, i, NULL); /* i below the count: cannot fail */
        size_t e = distance(name, in.name);
        if (e < d) {
            d = e;
            best = in.name;
        }
    }
    return d <= 1 + strlen(name) / 4 ? best : NULL;
}

/* --set NAME=VALUE on the unfrozen scenario: texts and choices as written,
 * numbers in full as strtod reads them, booleans also as true or false. */
static int scenario_set(scenario *s, const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    char name[128], shown[256];
    if (!eq || eq == assignment || (size_t)(eq - assignment) >= sizeof name) {
        say("--set takes NAME=VALUE (tco params lists the names), not %s", shown_text(shown, sizeof shown, assignment));
        return EXIT_USAGE;
    }
    memcpy(name, assignment, (size_t)(eq - assignment));
    name[eq - assignment] = '\0';
    const char *value = eq + 1;
    int32_t key;
    tco_param_info in = { .size = sizeof in };
    if (tco_param_find(&key, name, NULL) != TCO_OK) {
        const char *near = closest_name(name);
        char shown_name[256];
        say("--set %s: no parameter is named %s%s%s%s", shown_text(shown, sizeof shown, assignment),
            shown_text(shown_name, sizeof shown_name, name), near ? " (did you mean " : " (tco params lists them)",
            near ? near : "", near ? "?)" : "");
        return EXIT_USAGE;
    }
    tco_param_info_get(&in, key, NULL); /* a key find gave: cannot fail */
    tco_error err = TCO_ERROR_INIT;
    int rc;
    double v;
    if (in.type == TCO_TYPE_TEXT || in.type == TCO_TYPE_CHOICE)
        rc = h_set_text(s, in.handle, key, value, &err);
    else if (in.type == TCO_TYPE_BOOL && (strcmp(value, "true") == 0 || strcmp(value, "false") == 0))
        rc = h_set(s, in.handle, key, value[0] == 't', &err);
    else if (number_text(value, &v))
        rc = h_set(s, in.handle, key, v, &err);
    else {
        char shown_value[256];
        say("--set %s: %s is a number (%s), not %s: write it in decimal, no more digits than a double holds",
            shown_text(shown, sizeof shown, assignment), name, in.description,
            shown_text(shown_value, sizeof shown_value, value));
        return EXIT_USAGE;
    }
    if (rc != TCO_OK) {
        say("--set %s: %s", shown_text(shown, sizeof shown, assignment), err.message);
        return EXIT_REJECTED;
    }
    return 0;
}

/* Whether a scenario may have been piped or redirected in for nothing:
 * standard input is a pipe or a file with something in it (not a
 * terminal, not /dev/null), and no argument reads it. */
static int stdin_ignored(const cmd_args *a)
{
    for (int i = 0; i < a->npos; i++)
        if (strcmp(a->pos[i], "-") == 0)
            return 0;
    struct stat st;
    return fstat(STDIN_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || (S_ISREG(st.st_mode) && st.st_size > 0));
}

int scenario_load(scenario *s, const char *path, const cmd_args *a)
{
    memset(s, 0, sizeof *s);
    unsigned char *data = NULL;
    size_t len = 0;
    int rc = path ? read_file(path, MAX_FILE_BYTES, &data, &len) : 0;
    if (rc)
        return rc;
    const char *fmt = path ? file_format(a->from, path, data, len) : "";
    tco_error err = TCO_ERROR_INIT;
    if (!path) {
        /* tco report < file: say what is priced, rather than ignore the
         * file in silence. */
        if (stdin_ignored(a))
            say("no scenario FILE given: pricing the built-in scenario (standard input is not read; "
                "give - to read a scenario from it)");
        rc = scenario_new(s);
    } else if (strcmp(fmt, "json") == 0) {
        if ((rc = scenario_new(s)) == 0 && (rc = load_json(s, data, len, path)) != 0)
            scenario_free(s);
    } else if (tco_scenario_load_cbor(&s->t, &s->w, &s->p, data, len, &err) != TCO_OK) {
        say("%s: %s", path, err.message);
        rc = EXIT_REJECTED;
    }
    free(data);
    for (int i = 0; rc == 0 && i < a->nsets; i++)
        if ((rc = scenario_set(s, a->sets[i])) != 0)
            scenario_free(s);
    return rc ? rc : scenario_freeze(s, scenario_label(path));
}

/* ==== a programme: a scenario and its stages ============================ */

void programme_free(programme_file *pf)
{
    for (size_t i = 0; pf->workloads && i < pf->n; i++)
        tco_workload_free(pf->workloads[i]);
    for (size_t i = 0; pf->rates && i < pf->n; i++)
        free(pf->rates[i]);
    for (size_t i = 0; pf->also && i < pf->n; i++)
        free(pf->also[i]);
    free(pf->rates);
    free(pf->also);
    free(pf->pipelines);
    free(pf->servings);
    free(pf->workloads);
    free(pf->stages);
    free(pf->names);
    json_decref(pf->json);
    scenario_free(&pf->s);
    memset(pf, 0, sizeof *pf);
}

/* The keys a stage holds, for messages. */
static const char stage_keys[] =
    "kind, name, after, versions_kept, workload, pipeline, cpu_nodes, serving, warm_after_days, cold_after_days";

/* A data pipeline's request (tco_pipeline_request): its numbers by name. */
static const struct { const char *key; size_t offset; } pipeline_keys[] = {
#define K(m) { #m, offsetof(tco_pipeline_request, m) }
    K(raw_bytes), K(preprocess_cpu_node_hours_per_tb), K(cpu_node_hour_price), K(dedup_kept_share),
    K(compression_ratio), K(cache_hit_rate), K(prefetch_depth), K(request_price_per_1000), K(object_bytes),
    K(internet_ingress_per_gb), K(nat_per_gb), K(storage_months),
#undef K
};
/* A serving stage's request (tco_serve_request): its numbers by name,
 * beside rate, hours, interval_seconds, rate_unit and tensor_parallel. */
static const struct { const char *key; size_t offset; } serving_keys[] = {
#define K(m) { #m, offsetof(tco_serve_request, m) }
    K(prompt_tokens), K(output_tokens), K(time_per_output_token), K(time_to_first_token), K(flops_share),
    K(bandwidth_share), K(memory_share), K(max_batch), K(memory_bandwidth_bytes_per_s),
#undef K
};
static const char *const rate_units[] = { "requests_per_second", "output_tokens_per_second" }; /* by tco_serve_rate */

/* "a, b, c": the keys of a table, for messages. */
#define KEY_LIST(buf, table, first)                                                                                 \
    do {                                                                                                           \
        size_t used_ = (size_t)snprintf(buf, sizeof buf, "%s", first);                                             \
        for (size_t k_ = 0; k_ < sizeof table / sizeof table[0] && used_ < sizeof buf; k_++)                       \
            used_ += (size_t)snprintf(buf + used_, sizeof buf - used_, "%s%s", used_ ? ", " : "", table[k_].key);  \
    } while (0)

/* A number of a stage as a double, what naming it ("pipeline.nat_per_gb")
 * and hint saying what it is: a whole number past 2^53 is refused, never
 * rounded in silence, as a scenario's parameters are. */
static int json_double(double *x, const json_t *v, const char *label, const char *what, const char *hint)
{
    if (!is_number(v)) {
        say("%s: %s is a number%s, not %s", label, what, hint, json_kind(v));
        return EXIT_REJECTED;
    }
    json_int_t i = is(v, JSON_INTEGER) ? json_integer_value(v) : 0;
    if (i > ((json_int_t)1 << 53) || i < -((json_int_t)1 << 53)) {
        say("%s: %s = %lld does not fit a double exactly (it would be rounded): allowed whole numbers up to 2^53, "
            "or write it as a real such as %.17g", label, what, (long long)i, (double)i);
        return EXIT_REJECTED;
    }
    *x = json_number_value(v);
    return 0;
}

/* The "pipeline" object of a stage into q; label names the stage. */
static int pipeline_json(tco_pipeline_request *q, json_t *obj, const char *label)
{
    char keys[512], shown[256];
    KEY_LIST(keys, pipeline_keys, "");
    if (!is(obj, JSON_OBJECT)) {
        say("%s: pipeline is an object (%s), not %s", label, keys, json_kind(obj));
        return EXIT_REJECTED;
    }
    tco_pipeline_request_init(q);
    const char *key;
    json_t *v;
    EACH_MEMBER(obj, key, v) {
        size_t k = 0;
        while (k < sizeof pipeline_keys / sizeof pipeline_keys[0] && strcmp(pipeline_keys[k].key, key) != 0)
            k++;
        if (k == sizeof pipeline_keys / sizeof pipeline_keys[0]) {
            say("%s: pipeline: unknown key \"%s\": allowed %s", label, shown_text(shown, sizeof shown, key), keys);
            return EXIT_REJECTED;
        }
        char what[128];
        double x;
        snprintf(what, sizeof what, "pipeline.%s", key);
        if (json_double(&x, v, label, what, ""))
            return EXIT_REJECTED;
        memcpy((char *)q + pipeline_keys[k].offset, &x, sizeof x);
    }
    return 0;
}

/* The "serving" object of stage i into pf->servings[i]: "rate" a number
 * with "hours" (a constant rate), or an array with "interval_seconds"
 * (default 60); the rest as the request names them. */
static int serving_json(programme_file *pf, size_t i, json_t *obj, const char *label)
{
    char keys[512], shown[256];
    KEY_LIST(keys, serving_keys, "rate, hours, interval_seconds, rate_unit, tensor_parallel");
    if (!is(obj, JSON_OBJECT)) {
        say("%s: serving is an object (%s), not %s", label, keys, json_kind(obj));
        return EXIT_REJECTED;
    }
    tco_serve_request *q = &pf->servings[i];
    tco_serve_request_init(q);
    json_t *rate = json_object_get(obj, "rate"), *hours = json_object_get(obj, "hours"),
           *interval = json_object_get(obj, "interval_seconds");
    const char *key;
    json_t *v;
    EACH_MEMBER(obj, key, v) {
        size_t k = 0;
        while (k < sizeof serving_keys / sizeof serving_keys[0] && strcmp(serving_keys[k].key, key) != 0)
            k++;
        if (k < sizeof serving_keys / sizeof serving_keys[0] || !strcmp(key, "hours") ||
            !strcmp(key, "interval_seconds")) {
            char what[128];
            double x;
            snprintf(what, sizeof what, "serving.%s", key);
            if (json_double(&x, v, label, what, ""))
                return EXIT_REJECTED;
            if (k < sizeof serving_keys / sizeof serving_keys[0])
                memcpy((char *)q + serving_keys[k].offset, &x, sizeof x);
        } else if (!strcmp(key, "rate_unit")) {
            int u = -1;
            for (int r = 0; r < 2 && is(v, JSON_STRING); r++)
                if (!strcmp(json_string_value(v), rate_units[r]))
                    u = r;
            if (u < 0) {
                say("%s: serving.rate_unit is %s or %s, not %s", label, rate_units[0], rate_units[1],
                    is(v, JSON_STRING) ? shown_text(shown, sizeof shown, json_string_value(v)) : json_kind(v));
                return EXIT_REJECTED;
            }
            q->rate_unit = u;
        } else if (!strcmp(key, "tensor_parallel")) {
            /* The library words the range; past int32 it is refused here, never wrapped. */
            if (!is(v, JSON_INTEGER) || json_integer_value(v) > INT32_MAX || json_integer_value(v) < INT32_MIN) {
                say("%s: serving.tensor_parallel is a whole number (accelerators a replica; 0: the least that "
                    "holds the model), not %s", label, is(v, JSON_INTEGER) ? "one past 32 bits" : json_kind(v));
                return EXIT_REJECTED;
            }
            q->tensor_parallel = (int32_t)json_integer_value(v);
        } else if (strcmp(key, "rate")) {
            say("%s: serving: unknown key \"%s\": allowed %s", label, shown_text(shown, sizeof shown, key), keys);
            return EXIT_REJECTED;
        }
    }
    if (json_is_number(rate)) {
        if (!hours || interval) {
            say("%s: serving: a constant rate goes with \"hours\" (how long it is served)%s", label,
                interval ? ", not interval_seconds (which spaces the points of a series)" : "");
            return EXIT_REJECTED;
        }
        double h = json_number_value(hours); /* a number, as checked above */
        if (!(h >= 1e-6 && h <= 1e6)) { /* the library's interval, 0.0036 to 3.6e9 s, in hours */
            say("%s: serving.hours = %g is out of range: allowed 1e-06 to 1e+06 hours", label, h);
            return EXIT_REJECTED;
        }
        q->n = 1;
        q->interval_seconds = h * 3600;
    } else if (json_is_array(rate) && json_array_size(rate) > 0) {
        if (hours) {
            say("%s: serving: a rate series goes with interval_seconds (default 60), not \"hours\"", label);
            return EXIT_REJECTED;
        }
        q->n = json_array_size(rate);
        if (interval)
            q->interval_seconds = json_number_value(interval);
    } else {
        say("%s: serving.rate is a number (with \"hours\") or an array of numbers, one an interval, not %s", label,
            rate ? json_kind(rate) : "missing");
        return EXIT_REJECTED;
    }
    double *x = malloc(q->n * sizeof *x);
    if (!x) {
        say("%s: out of memory for a serving rate of %zu points", label, q->n);
        return EXIT_IO;
    }
    pf->rates[i] = x;
    for (size_t k = 0; k < q->n; k++) {
        json_t *r = is(rate, JSON_ARRAY) ? json_array_get(rate, k) : rate;
        char what[64];
        snprintf(what, sizeof what, "serving.rate[%zu]", k);
        if (json_double(&x[k], r, label, what, ""))
            return EXIT_REJECTED;
    }
    q->rate = x;
    return 0;
}

/* "pretraining, context_extension, ...": the library's names. */
static const char *stage_kinds(char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int32_t k = 1; tco_stage_kind_name(k) && used < cap; k++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", k > 1 ? ", " : "", tco_stage_kind_name(k));
    return buf;
}

static int32_t stage_kind(const char *name)
{
    for (int32_t k = 1; tco_stage_kind_name(k); k++)
        if (strcmp(name, tco_stage_kind_name(k)) == 0)
            return k;
    return 0;
}

/* The stages before stage i, by name, for a message. */
static const char *earlier_names(char *buf, size_t cap, const programme_file *pf, size_t i)
{
    size_t used = (size_t)snprintf(buf, cap, i ? "the stages before it: " : "it is the first stage");
    char shown[128];
    for (size_t j = 0; j < i && used < cap; j++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%s", j ? ", " : "",
                                 shown_text(shown, sizeof shown, pf->names[j]));
    return buf;
}

/* Stage i of the JSON array into pf->stages[i], its workload the
 * scenario's with the stage's keys set on a copy, frozen. label is
 * "FILE: stages[i] (name)" once the name is known, for every message. */
static int stage_json(programme_file *pf, size_t i, json_t *obj, json_t *all, const char *path)
{
    char label[512], shown[256], list[512];
    snprintf(label, sizeof label, "%s: stages[%zu]", path, i);
    if (!is(obj, JSON_OBJECT)) {
        say("%s is an object (%s), not %s", label, stage_keys, json_kind(obj));
        return EXIT_REJECTED;
    }
    json_t *kind = json_object_get(obj, "kind"), *name = json_object_get(obj, "name");
    if (name && (!is(name, JSON_STRING) || json_string_value(name)[0] == '\0')) {
        say("%s: name is the stage's name, a text that is not empty, not %s", label,
            is(name, JSON_STRING) ? "\"\"" : json_kind(name));
        return EXIT_REJECTED;
    }
    if (!kind || !is(kind, JSON_STRING) || !stage_kind(json_string_value(kind))) {
        if (name)
            snprintf(label, sizeof label, "%s: stages[%zu] (%s)", path, i,
                     shown_text(shown, sizeof shown, json_string_value(name)));
        if (!kind)
            say("%s: no \"kind\": allowed %s", label, stage_kinds(list, sizeof list));
        else if (!is(kind, JSON_STRING))
            say("%s: kind is a text, not %s: allowed %s", label, json_kind(kind), stage_kinds(list, sizeof list));
        else
            say("%s: kind \"%s\" is no stage kind: allowed %s", label,
                shown_text(shown, sizeof shown, json_string_value(kind)), stage_kinds(list, sizeof list));
        return EXIT_REJECTED;
    }
    tco_stage *st = &pf->stages[i];
    st->size = sizeof *st;
    st->kind = stage_kind(json_string_value(kind));
    st->after = TCO_STAGE_START;
    /* A stage without a name is called by its kind, as the binding does. */
    pf->names[i] = name ? json_string_value(name) : tco_stage_kind_name(st->kind);
    st->name = pf->names[i];
    snprintf(label, sizeof label, "%s: stages[%zu] (%s)", path, i, shown_text(shown, sizeof shown, pf->names[i]));
    for (size_t j = 0; j < i; j++)
        if (strcmp(pf->names[j], pf->names[i]) == 0) {
            say("%s: name: stages[%zu] has that name too: \"after\" names a stage, so names are unique%s", label, j,
                name ? "" : " (a stage without a name is called by its kind)");
            return EXIT_REJECTED;
        }
    for (void *it = json_object_iter(obj); it; it = json_object_iter_next(obj, it)) {
        const char *key = json_object_iter_key(it);
        if (strcmp(key, "kind") && strcmp(key, "name") && strcmp(key, "after") && strcmp(key, "versions_kept") &&
            strcmp(key, "workload") && strcmp(key, "pipeline") && strcmp(key, "cpu_nodes") && strcmp(key, "serving") &&
            strcmp(key, "warm_after_days") && strcmp(key, "cold_after_days")) {
            say("%s: unknown key \"%s\": allowed %s", label, shown_text(shown, sizeof shown, key), stage_keys);
            return EXIT_REJECTED;
        }
    }
    json_t *after = json_object_get(obj, "after");
    if (after) {
        /* One earlier stage's name, or an array of them: the stage starts
         * when the last ends (the first is tco_stage.after, the rest
         * also_after). */
        int many = is(after, JSON_ARRAY);
        size_t m = many ? json_array_size(after) : 1;
        if (many && m > 0 && !(pf->also[i] = malloc(m * sizeof *pf->also[i]))) {
            say("%s: out of memory for %zu stages to start after", label, m);
            return EXIT_IO;
        }
        for (size_t a = 0; a < m || m == 0; a++) {
            json_t *one = many ? json_array_get(after, a) : after; /* NULL in an empty array */
            if (!json_is_string(one)) {
                say("%s: after is the name of an earlier stage, a text, or an array of such names, not %s (without "
                    "it the stage starts at the programme's start)", label, one ? json_kind(one) : "an empty array");
                return EXIT_REJECTED;
            }
            const char *target = json_string_value(one);
            int32_t found = TCO_STAGE_START;
            for (size_t j = 0; j < i && found == TCO_STAGE_START; j++)
                if (strcmp(pf->names[j], target) == 0)
                    found = (int32_t)j;
            if (found == TCO_STAGE_START) {
                /* Say whether it names a later stage or none at all. */
                int later = 0;
                for (size_t j = i; j < json_array_size(all) && !later; j++) {
                    json_t *n = json_object_get(json_array_get(all, j), "name");
                    json_t *k = json_object_get(json_array_get(all, j), "kind");
                    const char *other = json_is_string(n) ? json_string_value(n) : json_is_string(k) ? json_string_value(k) : NULL;
                    later = other && strcmp(other, target) == 0;
                }
                say("%s: after \"%s\" names no earlier stage: %s (%s)", label, shown_text(shown, sizeof shown, target),
                    later ? "it is this stage or a later one; a stage starts after one listed before it"
                          : "no stage has that name",
                    earlier_names(list, sizeof list, pf, i));
                return EXIT_REJECTED;
            }
            if (a == 0)
                st->after = found;
            else
                pf->also[i][a - 1] = found;
        }
        if (m > 1) {
            st->also_after = pf->also[i];
            st->n_also_after = m - 1;
        }
    }
    json_t *kept = json_object_get(obj, "versions_kept");
    if (kept) {
        if (!is(kept, JSON_INTEGER)) {
            say("%s: versions_kept is a whole number (checkpoints of the stage kept to the programme's end), not %s",
                label, json_kind(kept));
            return EXIT_REJECTED;
        }
        /* The library checks the range and words it; a value past int32
         * cannot reach it unchanged, so it is refused here, never wrapped. */
        json_int_t k = json_integer_value(kept);
        if (k > INT32_MAX || k < INT32_MIN) {
            say("%s: versions_kept = %lld is out of range: it does not fit a 32-bit whole number", label,
                (long long)k);
            return EXIT_REJECTED;
        }
        st->versions_kept = (int32_t)k;
    }
    /* A data pipeline's and a serving stage's request: given on that kind
     * only (the library says so too, in its words). */
    static const struct { int32_t kind; const char *key; } requests[] = {
        { TCO_STAGE_DATA_PIPELINE, "pipeline" }, { TCO_STAGE_SERVING, "serving" }
    };
    for (size_t r = 0; r < 2; r++) {
        json_t *q = json_object_get(obj, requests[r].key);
        if ((q != NULL) != (st->kind == requests[r].kind)) {
            if (q)
                say("%s: %s: only a %s stage has one, not a %s stage", label, requests[r].key,
                    tco_stage_kind_name(requests[r].kind), tco_stage_kind_name(st->kind));
            else
                say("%s: a %s stage needs \"%s\", an object of its request (doc/format.md, \"Programmes\")", label,
                    tco_stage_kind_name(st->kind), requests[r].key);
            return EXIT_REJECTED;
        }
    }
    int rc;
    json_t *pipe = json_object_get(obj, "pipeline"), *serve = json_object_get(obj, "serving");
    if (pipe) {
        if ((rc = pipeline_json(&pf->pipelines[i], pipe, label)))
            return rc;
        st->pipeline = &pf->pipelines[i];
    }
    /* Numbers the library checks and words the range of. */
    const struct { const char *key, *what; double *to; } numbers[] = {
        { "cpu_nodes", "the CPU nodes a data pipeline preprocesses on", &st->cpu_nodes },
        { "warm_after_days", "days after the stage's end what it stores moves to the warm tier", &st->warm_after_days },
        { "cold_after_days", "days after the stage's end what it stores moves to the cold tier", &st->cold_after_days },
    };
    for (size_t k = 0; k < sizeof numbers / sizeof numbers[0]; k++) {
        json_t *x = json_object_get(obj, numbers[k].key);
        char hint[128];
        snprintf(hint, sizeof hint, " (%s)", numbers[k].what);
        if (x && json_double(numbers[k].to, x, label, numbers[k].key, hint))
            return EXIT_REJECTED;
    }
    if (serve) {
        if ((rc = serving_json(pf, i, serve, label)))
            return rc;
        st->serving = &pf->servings[i];
    }
    tco_error err = TCO_ERROR_INIT;
    if (tco_workload_clone(&pf->workloads[i], pf->s.w, &err) != TCO_OK) {
        say("%s: %s", label, err.message);
        return EXIT_REJECTED;
    }
    json_t *work = json_object_get(obj, "workload");
    if (work) {
        scenario only = { NULL, pf->workloads[i], NULL };
        if ((rc = json_section(&only, TCO_HANDLE_WORKLOAD, work, label, "")))
            return rc;
    }
    if (tco_workload_freeze(pf->workloads[i], &err) != TCO_OK) {
        say("%s: workload: %s", label, err.message);
        return EXIT_REJECTED;
    }
    st->workload = pf->workloads[i];
    return 0;
}

int programme_load(programme_file *pf, const char *path, const cmd_args *a)
{
    memset(pf, 0, sizeof *pf);
    unsigned char *data = NULL;
    size_t len = 0;
    int rc = read_file(path, MAX_FILE_BYTES, &data, &len);
    if (rc)
        return rc;
    const char *fmt = file_format(a->from, path, data, len);
    if (strcmp(fmt, "json") != 0) {
        say("%s: a programme is a JSON file (a scenario with \"stages\", doc/format.md), not %s", path, fmt);
        free(data);
        return EXIT_REJECTED;
    }
    json_t *root = parse_json(data, len, path, &rc);
    free(data);
    if (!root)
        return rc;
    pf->json = root;
    if ((rc = scenario_new(&pf->s)) != 0 || (rc = scenario_json(&pf->s, root, path, "stages")) != 0)
        goto fail;
    for (int i = 0; i < a->nsets; i++)
        if ((rc = scenario_set(&pf->s, a->sets[i])) != 0)
            goto fail;
    if ((rc = scenario_freeze(&pf->s, path)) != 0) /* it freed the handles */
        goto fail;
    rc = EXIT_REJECTED;
    json_t *stages = json_object_get(root, "stages");
    if (!stages) {
        say("%s: the programme has no \"stages\" key: an array of 1 to %d stages (%s)", path, TCO_STAGES_MAX,
            stage_keys);
        goto fail;
    }
    if (!is(stages, JSON_ARRAY)) {
        say("%s: stages is an array of 1 to %d stages, not %s", path, TCO_STAGES_MAX, json_kind(stages));
        goto fail;
    }
    if (json_array_size(stages) < 1 || json_array_size(stages) > TCO_STAGES_MAX) {
        say("%s: stages holds %zu stages: allowed 1 to %d", path, json_array_size(stages), TCO_STAGES_MAX);
        goto fail;
    }
    pf->n = json_array_size(stages);
    pf->stages = calloc(pf->n, sizeof *pf->stages);
    pf->workloads = calloc(pf->n, sizeof *pf->workloads);
    pf->names = calloc(pf->n, sizeof *pf->names);
    pf->pipelines = calloc(pf->n, sizeof *pf->pipelines);
    pf->servings = calloc(pf->n, sizeof *pf->servings);
    pf->rates = calloc(pf->n, sizeof *pf->rates);
    pf->also = calloc(pf->n, sizeof *pf->also);
    if (!pf->stages || !pf->workloads || !pf->names || !pf->pipelines || !pf->servings || !pf->rates || !pf->also) {
        say("%s: out of memory for %zu stages", path, pf->n);
        rc = EXIT_IO;
        goto fail;
    }
    for (size_t i = 0; i < pf->n; i++)
        if ((rc = stage_json(pf, i, json_array_get(stages, i), stages, path)) != 0)
            goto fail;
    return 0;
fail:
    programme_free(pf);
    return rc;
}
