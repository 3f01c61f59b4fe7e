/* tco diff: what changed between two scenarios, and what it does to every
 * cost line, as a table, JSON, or markdown for a pull-request comment. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tco_cmd.h"

/* One input that differs: its parameter and both values as text. */
typedef struct change {
    tco_param_info in;
    char a[TCO_TEXT_MAX + 32], b[TCO_TEXT_MAX + 32];
} change;

/* A parameter's value as the files write it: a number in its shortest
 * form, a text or a choice by name. */
static void value_text(char *buf, size_t cap, const scenario *s, const tco_param_info *in)
{
    if (in->type == TCO_TYPE_TEXT || in->type == TCO_TYPE_CHOICE) {
        const char *t = "";
        scenario_get_text(s, in->handle, in->key, &t);
        snprintf(buf, cap, "%s", t);
    } else {
        double v = 0;
        scenario_get(s, in->handle, in->key, &v);
        num(buf, cap, v);
    }
}

/* The lines a report compares: each category, then the totals and unit
 * costs that decide. */
typedef struct line {
    const char *name, *unit;
    double a, b;
} line;

static size_t lines_of(line *l, const tco_estimate *a, const tco_estimate *b)
{
    size_t n = 0;
    for (size_t c = 0; c < tco_category_count(); c++)
        l[n++] = (line){ tco_category_name((int32_t)c), "cur", a->cost[c], b->cost[c] };
    l[n++] = (line){ "total", "cur", a->total, b->total };
    l[n++] = (line){ "cost_per_million_tokens", "cur/Mtoken", a->cost_per_million_tokens, b->cost_per_million_tokens };
    l[n++] = (line){ "cost_per_effective_accelerator_hour", "cur/accel-h", a->cost_per_effective_accelerator_hour,
                     b->cost_per_effective_accelerator_hour };
    l[n++] = (line){ "wall_hours", "h", a->wall_hours, b->wall_hours };
    return n;
}

/* "+12.3%", or "new" from nothing, or "" for no change. */
static const char *share_text(char *buf, size_t cap, double a, double b)
{
    if (a == b)
        snprintf(buf, cap, "%s", "");
    else if (a == 0)
        snprintf(buf, cap, "%s", "new");
    else
        snprintf(buf, cap, "%+.1f%%", 100 * (b - a) / fabs(a));
    return buf;
}

typedef struct view {
    const char *pa, *pb, *currency;
    const change *ch;
    size_t nch;
    const line *l;
    size_t nl;
} view;

/* For people: money in whole units with separators, anything else to four
 * digits; a change with its sign. */
static const char *amount(char *buf, size_t cap, const line *l, double v, int sign)
{
    if (strcmp(l->unit, "cur") != 0) {
        snprintf(buf, cap, sign && v != 0 ? "%+.4g" : "%.4g", v);
        return buf;
    }
    char m[48];
    snprintf(buf, cap, "%s%s", sign && v > 0 ? "+" : "", money(m, sizeof m, v));
    return buf;
}

static void diff_table(FILE *f, const view *v)
{
    char x[64], y[64], d[64], s[32], u[64];
    fprintf(f, "tco diff: %s -> %s\n\n", v->pa, v->pb);
    if (!v->nch)
        fputs("  inputs: the same\n", f);
    else
        fprintf(f, "  %-36s %-9s %22s %22s\n", "input", "handle", "from", "to");
    for (size_t i = 0; i < v->nch; i++)
        fprintf(f, "  %-36s %-9s %22s %22s\n", v->ch[i].in.name, tco_handle_kind_name(v->ch[i].in.handle),
                v->ch[i].a, v->ch[i].b);
    fprintf(f, "\n  %-36s %18s %18s %18s %9s  %s\n", "line", "from", "to", "change", "", "unit");
    for (size_t i = 0; i < v->nl; i++) {
        const line *l = &v->l[i];
        fprintf(f, "  %-36s %18s %18s %18s %9s  %s\n", l->name, amount(x, sizeof x, l, l->a, 0),
                amount(y, sizeof y, l, l->b, 0), amount(d, sizeof d, l, l->b - l->a, 1),
                share_text(s, sizeof s, l->a, l->b),
                unit_text(u, sizeof u, l->unit, v->currency));
    }
}

/* For a pull-request comment: the headline, then the lines that moved and
 * the inputs that moved them (as Infracost's comments are read). */
static void diff_markdown(FILE *f, const view *v)
{
    char x[64], y[64], d[64], s[32], u[64];
    const line *total = NULL;
    for (size_t i = 0; i < v->nl; i++)
        if (strcmp(v->l[i].name, "total") == 0)
            total = &v->l[i];
    fprintf(f, "### tco diff: `%s` → `%s`\n\n", v->pa, v->pb);
    if (total->a == total->b)
        fprintf(f, "**Total: %s %s, no change**\n\n", amount(x, sizeof x, total, total->a, 0), v->currency);
    else
        fprintf(f, "**Total: %s → %s %s (%s, %s)**\n\n", amount(x, sizeof x, total, total->a, 0),
                amount(y, sizeof y, total, total->b, 0), v->currency, amount(d, sizeof d, total, total->b - total->a, 1),
                share_text(s, sizeof s, total->a, total->b));
    int header = 0;
    for (size_t i = 0; i < v->nl; i++) {
        const line *l = &v->l[i];
        if (l->a == l->b)
            continue;
        if (!header++)
            fputs("| line | from | to | change | |\n|---|---:|---:|---:|---:|\n", f);
        fprintf(f, "| %s (%s) | %s | %s | %s | %s |\n", l->name, unit_text(u, sizeof u, l->unit, v->currency),
                amount(x, sizeof x, l, l->a, 0), amount(y, sizeof y, l, l->b, 0),
                amount(d, sizeof d, l, l->b - l->a, 1), share_text(s, sizeof s, l->a, l->b));
    }
    if (header)
        fputc('\n', f);
    if (!v->nch) {
        fputs("The inputs are the same.\n", f);
        return;
    }
    fputs("<details><summary>Inputs that changed</summary>\n\n| input | handle | from | to |\n|---|---|---:|---:|\n",
          f);
    for (size_t i = 0; i < v->nch; i++)
        fprintf(f, "| `%s` | %s | %s | %s |\n", v->ch[i].in.name, tco_handle_kind_name(v->ch[i].in.handle),
                v->ch[i].a, v->ch[i].b);
    fputs("\n</details>\n", f);
}

static void diff_json(FILE *f, const view *v)
{
    char u[64];
    json_report_head(f, "libtco-diff");
    const char *head[][2] = { { "from", v->pa }, { "to", v->pb }, { "currency", v->currency } };
    for (size_t i = 0; i < 3; i++) {
        fprintf(f, ",\n  \"%s\": ", head[i][0]);
        json_str(f, head[i][1]);
    }
    fputs(",\n  \"inputs\": [", f);
    for (size_t i = 0; i < v->nch; i++) {
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_str(f, v->ch[i].in.name);
        json_str_field(f, "handle", tco_handle_kind_name(v->ch[i].in.handle));
        json_str_field(f, "from", v->ch[i].a);
        json_str_field(f, "to", v->ch[i].b);
        fputc('}', f);
    }
    fputs("\n  ],\n  \"lines\": [", f);
    for (size_t i = 0; i < v->nl; i++) {
        const line *l = &v->l[i];
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_str(f, l->name);
        json_num_field(f, "from", l->a);
        json_num_field(f, "to", l->b);
        json_num_field(f, "change", l->b - l->a);
        json_str_field(f, "unit", unit_text(u, sizeof u, l->unit, v->currency));
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
}

static int priced(tco_estimate *e, const scenario *s, const char *path)
{
    memset(e, 0, sizeof *e);
    e->size = sizeof *e;
    tco_error err = TCO_ERROR_INIT;
    if (tco_estimate_compute(e, s->t, s->w, s->p, &err) != TCO_OK) {
        say("%s: %s", path, err.message);
        return EXIT_REJECTED;
    }
    return 0;
}

static int diff_run(const cmd_args *a, scenario s[2], change *ch)
{
    tco_estimate e[2];
    int rc;
    for (int i = 0; i < 2; i++)
        if ((rc = scenario_load(&s[i], a->pos[i], a)) != 0 || (rc = priced(&e[i], &s[i], a->pos[i])) != 0)
            return rc;
    const char *ca = "", *cb = "";
    scenario_get_text(&s[0], TCO_HANDLE_PRICING, TCO_P_CURRENCY, &ca);
    scenario_get_text(&s[1], TCO_HANDLE_PRICING, TCO_P_CURRENCY, &cb);
    if (strcmp(ca, cb) != 0) {
        say("%s is priced in %s, %s in %s: a diff needs one currency (the library never converts)", a->pos[1], cb,
            a->pos[0], ca);
        return EXIT_REJECTED;
    }
    size_t nch = 0;
    for (size_t i = 0; i < tco_param_count(); i++) {
        change *c = &ch[nch];
        c->in.size = sizeof c->in;
        tco_param_info_at(&c->in, i, NULL); /* i below the count: cannot fail */
        value_text(c->a, sizeof c->a, &s[0], &c->in);
        value_text(c->b, sizeof c->b, &s[1], &c->in);
        nch += strcmp(c->a, c->b) != 0;
    }
    line l[64];
    view v = { a->pos[0], a->pos[1], ca, ch, nch, l, lines_of(l, &e[0], &e[1]) };
    const char *format = a->format ? a->format : "table", *out = a->output ? a->output : "-";
    FILE *f = open_text(out);
    if (!f)
        return EXIT_IO;
    if (strcmp(format, "json") == 0)
        diff_json(f, &v);
    else if (strcmp(format, "markdown") == 0)
        diff_markdown(f, &v);
    else
        diff_table(f, &v);
    return close_text(f, out);
}

int cmd_diff(const cmd_args *a)
{
    scenario s[2];
    memset(s, 0, sizeof s);
    change *ch = calloc(tco_param_count(), sizeof *ch);
    int rc = EXIT_IO;
    if (!ch)
        say("out of memory");
    else
        rc = diff_run(a, s, ch);
    scenario_free(&s[0]);
    scenario_free(&s[1]);
    free(ch);
    return rc;
}
