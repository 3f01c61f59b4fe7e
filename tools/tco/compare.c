/* tco compare: scenarios side by side, each against the first
 * (tco_compare), as a table, JSON, CSV (a column per scenario) or a
 * Markdown table for a pull-request comment. One row table below drives
 * every format, so the four always show the same fields. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tco_cmd.h"

enum { AMOUNT, DIFFERENCE, SHARE, COUNT, FLAG, FINGERPRINT };
/* Where a row stands in the table: a blank line before it; the costs by
 * category after it. */
enum { GAP = 1, THEN_CATEGORIES = 2 };

typedef struct row {
    const char *name;  /* the key in JSON and CSV: tco_option's field */
    const char *unit;  /* "cur" is the currency */
    const char *label; /* in the table and in Markdown */
    int kind, layout;
    size_t offset;
} row;

#define ROW(field, unit, label, kind, layout) { #field, unit, label, kind, layout, offsetof(tco_option, field) }

/* The fields of tco_option in struct order, cost[] and difference[] apart. */
static const row rows[] = {
    ROW(total, "cur", "total", AMOUNT, 0),
    ROW(total_difference, "cur", "total against the first", DIFFERENCE, 0),
    ROW(cost_per_run, "cur/run", "per run", AMOUNT, 0),
    ROW(cost_per_million_tokens, "cur/Mtoken", "per million tokens", AMOUNT, 0),
    ROW(cost_per_effective_accelerator_hour, "cur/accel-h", "per effective accelerator-hour", AMOUNT, 0),
    ROW(cost_per_pflop_day, "cur/PFLOP-day", "per PFLOP-day", AMOUNT, THEN_CATEGORIES),
    ROW(one_off, "cur", "one-off: migration, learning", AMOUNT, GAP),
    ROW(recurring_per_run, "cur/run", "recurring per run", AMOUNT, 0),
    ROW(saving_per_run, "cur/run", "saving per run", DIFFERENCE, 0),
    ROW(saving_per_month, "cur/month", "saving per month", DIFFERENCE, 0),
    ROW(pays_back, "1", "pays back", FLAG, 0),
    ROW(cheaper, "1", "cheaper per million tokens", FLAG, 0),
    ROW(payback_runs, "runs", "payback in runs", COUNT, 0),
    ROW(payback_months, "months", "payback in months", COUNT, 0),
    ROW(breakeven_utilisation, "1", "break-even utilisation", SHARE, 0),
    ROW(breakeven_rate, "cur/accel-h", "break-even rental rate", AMOUNT, 0),
    ROW(scenario_fingerprint, "", "scenario fingerprint", FINGERPRINT, GAP),
};
#define ROWS (sizeof rows / sizeof rows[0])

static double real_at(const tco_option *o, const row *r)
{
    double d;
    memcpy(&d, (const char *)o + r->offset, sizeof d);
    return d;
}

static int32_t flag_at(const tco_option *o, const row *r)
{
    int32_t v;
    memcpy(&v, (const char *)o + r->offset, sizeof v);
    return v;
}

static uint64_t fingerprint_at(const tco_option *o, const row *r)
{
    uint64_t v;
    memcpy(&v, (const char *)o + r->offset, sizeof v);
    return v;
}

/* An amount as people read it: whole units with separators from 1,000 up,
 * two decimals from 1, four significant digits below. */
static const char *amount(char *buf, size_t cap, double v)
{
    double a = v < 0 ? -v : v;
    if (v == 0)
        return "0";
    if (a >= 1000)
        return money(buf, cap, v);
    snprintf(buf, cap, a >= 1 ? "%.2f" : "%.4g", v);
    return buf;
}

/* A difference: signed, 0 for none. */
static const char *signed_amount(char *buf, size_t cap, double v)
{
    if (v == 0)
        return "0";
    char tmp[48];
    amount(tmp, sizeof tmp, v);
    snprintf(buf, cap, "%s%s", v > 0 ? "+" : "", tmp);
    return buf;
}

/* A cell of the table and of Markdown; the baseline has no comparison. */
static const char *cell(char *buf, size_t cap, const tco_option *o, size_t i, const row *r)
{
    if (i == 0 && (r->kind == DIFFERENCE || r->kind == FLAG || r->kind == COUNT))
        return "-";
    switch (r->kind) {
    case AMOUNT: return amount(buf, cap, real_at(o, r));
    case DIFFERENCE: return signed_amount(buf, cap, real_at(o, r));
    case SHARE: snprintf(buf, cap, "%.1f%%", 100 * real_at(o, r)); return buf;
    case COUNT:
        if (!o->pays_back)
            return "never";
        snprintf(buf, cap, "%.2f", real_at(o, r));
        return buf;
    case FLAG: return flag_at(o, r) ? "yes" : "no";
    default: snprintf(buf, cap, "%016llx", (unsigned long long)fingerprint_at(o, r)); return buf;
    }
}

/* Whether any option's cost in category c differs from the first's. */
static int category_differs(const tco_option *o, size_t n, size_t c)
{
    for (size_t i = 1; i < n; i++)
        if (o[i].difference[c] != 0)
            return 1;
    return 0;
}

typedef struct view {
    const tco_option *o;
    size_t n;
    const char *const *label; /* the scenario files, as given */
    const char *currency;
} view;

static void compare_table(FILE *f, const view *v)
{
    char buf[64];
    int width = 18;
    for (size_t i = 0; i < v->n; i++) {
        int len = (int)strlen(v->label[i]);
        width = len > width ? len : width;
    }
    fprintf(f, "libtco %s: %zu scenarios against the first, in %s\n\n", tco_version_string(), v->n, v->currency);
    fprintf(f, "  %-32s", "");
    for (size_t i = 0; i < v->n; i++)
        fprintf(f, " %*s", width, v->label[i]);
    fputc('\n', f);
    for (size_t k = 0; k < ROWS; k++) {
        const row *r = &rows[k];
        if (r->layout & GAP)
            fputc('\n', f);
        fprintf(f, "  %-32s", r->label);
        for (size_t i = 0; i < v->n; i++)
            fprintf(f, " %*s", width, cell(buf, sizeof buf, &v->o[i], i, r));
        fputc('\n', f);
        if (r->layout & THEN_CATEGORIES) {
            fprintf(f, "\n  %s\n", "by category: the first's cost, the others' difference");
            for (size_t c = 0; c < tco_category_count(); c++) {
                fprintf(f, "    %-30s", tco_category_name((int32_t)c));
                for (size_t i = 0; i < v->n; i++)
                    fprintf(f, " %*s", width,
                            i == 0 ? amount(buf, sizeof buf, v->o[i].cost[c])
                                   : signed_amount(buf, sizeof buf, v->o[i].difference[c]));
                fputc('\n', f);
            }
        }
    }
}

/* A table for a pull-request comment: the headline figures, then only the
 * categories that differ. */
static void compare_markdown(FILE *f, const view *v)
{
    char buf[64];
    fputs("| |", f);
    for (size_t i = 0; i < v->n; i++)
        fprintf(f, " %s%s%s |", i ? "" : "**", v->label[i], i ? "" : "** (baseline)");
    fputs("\n|---|", f);
    for (size_t i = 0; i < v->n; i++)
        fputs("---:|", f);
    fputc('\n', f);
    for (size_t k = 0; k < ROWS; k++) {
        const row *r = &rows[k];
        if (r->kind == FINGERPRINT)
            continue;
        if (strncmp(r->unit, "cur", 3) == 0) /* "per run (USD)": the label says per what */
            fprintf(f, "| %s (%s) |", r->label, v->currency);
        else
            fprintf(f, "| %s |", r->label);
        for (size_t i = 0; i < v->n; i++)
            fprintf(f, " %s |", cell(buf, sizeof buf, &v->o[i], i, r));
        fputc('\n', f);
        if (r->layout & THEN_CATEGORIES)
            for (size_t c = 0; c < tco_category_count(); c++) {
                if (!category_differs(v->o, v->n, c))
                    continue;
                fprintf(f, "| %s against the first (%s) |", tco_category_name((int32_t)c), v->currency);
                for (size_t i = 0; i < v->n; i++)
                    fprintf(f, " %s |", i == 0 ? "-" : signed_amount(buf, sizeof buf, v->o[i].difference[c]));
                fputc('\n', f);
            }
    }
}

static void json_categories(FILE *f, const char *key, const double *v)
{
    fprintf(f, ",\n      \"%s\": {", key);
    for (size_t c = 0; c < tco_category_count(); c++) {
        fprintf(f, "%s\n        ", c ? "," : "");
        json_str(f, tco_category_name((int32_t)c));
        fputs(": ", f);
        json_num(f, v[c]);
    }
    fputs("\n      }", f);
}

static void compare_json(FILE *f, const view *v)
{
    char hex[32];
    json_report_head(f, "libtco-compare");
    fputs(",\n  \"currency\": ", f);
    json_str(f, v->currency);
    fputs(",\n  \"options\": [", f);
    for (size_t i = 0; i < v->n; i++) {
        const tco_option *o = &v->o[i];
        fprintf(f, "%s\n    {\n      \"scenario\": ", i ? "," : "");
        json_str(f, v->label[i]);
        for (size_t k = 0; k < ROWS; k++) {
            const row *r = &rows[k];
            fprintf(f, ",\n      \"%s\": ", r->name);
            if (r->kind == FLAG)
                fputs(flag_at(o, r) ? "true" : "false", f);
            else if (r->kind == FINGERPRINT)
                json_str(f, fingerprint_text(hex, sizeof hex, fingerprint_at(o, r)));
            else
                json_num(f, real_at(o, r));
            if (r->offset == offsetof(tco_option, total)) {
                json_categories(f, "cost", o->cost);
                json_categories(f, "difference", o->difference);
            }
        }
        fputs("\n    }", f);
    }
    fputs("\n  ]\n}\n", f);
}

/* field,unit, then a column per scenario; cost.<category> and
 * difference.<category> rows after the total. */
/* field,unit, then a column per scenario; units name the currency. */
static void compare_csv(FILE *f, const view *v)
{
    char buf[32], unit[64];
    fputs("field,unit", f);
    for (size_t i = 0; i < v->n; i++) {
        fputc(',', f);
        csv_str(f, v->label[i]);
    }
    fputc('\n', f);
    for (size_t k = 0; k < ROWS; k++) {
        const row *r = &rows[k];
        fprintf(f, "%s,", r->name);
        csv_str(f, unit_text(unit, sizeof unit, r->unit, v->currency));
        for (size_t i = 0; i < v->n; i++) {
            if (r->kind == FLAG)
                fprintf(f, ",%d", (int)flag_at(&v->o[i], r));
            else if (r->kind == FINGERPRINT)
                fprintf(f, ",%s", fingerprint_text(buf, sizeof buf, fingerprint_at(&v->o[i], r)));
            else
                fprintf(f, ",%s", num(buf, sizeof buf, real_at(&v->o[i], r)));
        }
        fputc('\n', f);
        if (r->offset == offsetof(tco_option, total))
            for (int part = 0; part < 2; part++)
                for (size_t c = 0; c < tco_category_count(); c++) {
                    fprintf(f, "%s.%s,", part ? "difference" : "cost", tco_category_name((int32_t)c));
                    csv_str(f, v->currency);
                    for (size_t i = 0; i < v->n; i++)
                        fprintf(f, ",%s", num(buf, sizeof buf, part ? v->o[i].difference[c] : v->o[i].cost[c]));
                    fputc('\n', f);
                }
    }
}

/* Each scenario priced alone first, so that a refusal names its file as
 * tco report would; what is left for tco_compare is the scenarios together. */
static int priced_alone(const scenario *s, const char *path)
{
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    tco_error err = TCO_ERROR_INIT;
    if (tco_estimate_compute(&e, s->t, s->w, s->p, &err) != TCO_OK) {
        say("%s: %s", path, err.message);
        return EXIT_REJECTED;
    }
    return 0;
}

static int compare_run(const cmd_args *a, scenario *s, const tco_topology **t, const tco_workload **w,
                       const tco_pricing **p, tco_option *o)
{
    size_t n = (size_t)a->npos;
    int rc;
    for (size_t i = 0; i < n; i++) {
        if ((rc = scenario_load(&s[i], a->pos[i], a)) != 0 || (rc = priced_alone(&s[i], a->pos[i])) != 0)
            return rc;
        t[i] = s[i].t;
        w[i] = s[i].w;
        p[i] = s[i].p;
    }
    tco_error err = TCO_ERROR_INIT;
    if (tco_compare(o, sizeof *o, n, t, w, p, &err) != TCO_OK) {
        const char *c0 = "", *ci = "";
        scenario_get_text(&s[0], TCO_HANDLE_PRICING, TCO_P_CURRENCY, &c0);
        for (size_t i = 1; err.param == TCO_P_CURRENCY && i < n; i++) {
            scenario_get_text(&s[i], TCO_HANDLE_PRICING, TCO_P_CURRENCY, &ci);
            if (strcmp(ci, c0) != 0) {
                say("%s is priced in %s, %s in %s: compare scenarios in one currency", a->pos[i], ci, a->pos[0],
                    c0);
                return EXIT_REJECTED;
            }
        }
        say("%s", err.message);
        return EXIT_REJECTED;
    }
    const char *currency = "";
    scenario_get_text(&s[0], TCO_HANDLE_PRICING, TCO_P_CURRENCY, &currency);
    const char *format = a->format ? a->format : "table", *out = a->output ? a->output : "-";
    FILE *f = open_text(out);
    if (!f)
        return EXIT_IO;
    view v = { o, n, a->pos, currency };
    if (strcmp(format, "json") == 0)
        compare_json(f, &v);
    else if (strcmp(format, "csv") == 0)
        compare_csv(f, &v);
    else if (strcmp(format, "markdown") == 0)
        compare_markdown(f, &v);
    else
        compare_table(f, &v);
    return close_text(f, out);
}

int cmd_compare(const cmd_args *a)
{
    size_t n = (size_t)a->npos;
    scenario *s = calloc(n, sizeof *s);
    const tco_topology **t = calloc(n, sizeof *t);
    const tco_workload **w = calloc(n, sizeof *w);
    const tco_pricing **p = calloc(n, sizeof *p);
    tco_option *o = calloc(n, sizeof *o);
    int rc = EXIT_IO;
    if (!s || !t || !w || !p || !o)
        say("out of memory");
    else
        rc = compare_run(a, s, t, w, p, o);
    for (size_t i = 0; s && i < n; i++)
        scenario_free(&s[i]);
    free(s);
    free(t);
    free(w);
    free(p);
    free(o);
    return rc;
}
