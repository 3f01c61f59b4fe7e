/* tco lifetime: the scenario's cluster over its life (tco_lifetime_compute,
 * doc/model.md section 18), year by year, as a table, JSON or CSV. The
 * request's fields are the options' names; the discount rate defaults to
 * the pricing table's cost_of_capital. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tco_cmd.h"

enum { YEARS_MAX = 50 };

/* A number option: the library checks its range; "" or "5y" is usage. */
static int number_of(const char *text, const char *option, double *v)
{
    return number_text(text, v) ? 0 : usage("%s takes a number, in decimal as a double holds it", option);
}

static int whole_of(const char *text, const char *option, int32_t *v)
{
    double d;
    int rc = number_of(text, option, &d);
    if (rc)
        return rc;
    if (d != floor(d) || d < -1e6 || d > 1e6)
        return usage("%s takes a whole number", option);
    *v = (int32_t)d;
    return 0;
}

static int request_of(const cmd_args *a, const scenario *s, tco_lifetime_request *q)
{
    tco_lifetime_request_init(q);
    scenario_get(s, TCO_HANDLE_PRICING, TCO_P_COST_OF_CAPITAL, &q->discount_rate);
    int rc = 0;
    if (a->years)
        rc = whole_of(a->years, "--years", &q->years);
    if (!rc && a->refresh_year)
        rc = whole_of(a->refresh_year, "--refresh-year", &q->refresh_year);
    if (!rc && a->utilisation)
        rc = number_of(a->utilisation, "--utilisation", &q->utilisation);
    if (!rc && a->discount_rate)
        rc = number_of(a->discount_rate, "--discount-rate", &q->discount_rate);
    return rc;
}

static const char *category(int k)
{
    return tco_category_name(k);
}

static void lifetime_table(FILE *f, const char *label, const char *currency, const tco_lifetime *l,
                           const tco_lifetime_year *y)
{
    char b[8][40];
    fprintf(f, "libtco %s: %s over %d years\n\n", tco_version_string(), label, (int)l->years);
    fprintf(f, "  %4s %6s %16s %16s %16s %16s %16s %16s\n", "year", "used", "cost", "fixed", "unused", "capex",
            "running", "present value");
    for (int i = 0; i < l->years; i++)
        fprintf(f, "  %4d %5.0f%% %16s %16s %16s %16s %16s %16s%s\n", (int)y[i].year, 100 * y[i].utilisation,
                money(b[0], sizeof b[0], y[i].total), money(b[1], sizeof b[1], y[i].fixed_total),
                money(b[2], sizeof b[2], y[i].unused_owned + y[i].unused_commitment),
                money(b[3], sizeof b[3], y[i].capex), money(b[4], sizeof b[4], y[i].running - y[i].salvage),
                money(b[5], sizeof b[5], y[i].present_value), y[i].refreshed ? "  refreshed" : "");
    fprintf(f, "  %4s %6s %16s %16s %16s %16s %16s %16s\n\n", "life", "", money(b[0], sizeof b[0], l->total),
            money(b[1], sizeof b[1], l->fixed_total), money(b[2], sizeof b[2], l->unused_owned + l->unused_commitment),
            money(b[3], sizeof b[3], l->capex), money(b[4], sizeof b[4], l->running - l->salvage),
            money(b[5], sizeof b[5], l->npv));
    fprintf(f, "net present value %s %s; %.4f per effective accelerator-hour (levelised %.4f)\n",
            money(b[0], sizeof b[0], l->npv), currency, l->cost_per_effective_accelerator_hour,
            l->levelised_cost_per_effective_accelerator_hour);
    fprintf(f, "unused: owned capacity %s, reserved commitment %s (%.0f accelerator-hours)\n\n",
            money(b[0], sizeof b[0], l->unused_owned), money(b[1], sizeof b[1], l->unused_commitment),
            l->unused_commitment_hours);
    fprintf(f, "  %-10s %16s %16s %16s\n", "category", "life", "fixed", "variable");
    for (int k = 0; k < (int)tco_category_count(); k++)
        if (l->cost[k] != 0)
            fprintf(f, "  %-10s %16s %16s %16s\n", category(k), money(b[0], sizeof b[0], l->cost[k]),
                    money(b[1], sizeof b[1], l->fixed[k]), money(b[2], sizeof b[2], l->cost[k] - l->fixed[k]));
}

/* A year's or the life's figures as JSON members. */
static void json_figures(FILE *f, const double *cost, const double *fixed)
{
    const char *what[2] = { "cost", "fixed" };
    const double *v[2] = { cost, fixed };
    for (int j = 0; j < 2; j++) {
        fprintf(f, ", \"%s\": {", what[j]);
        for (int k = 0; k < (int)tco_category_count(); k++) {
            fputs(k ? ", " : "", f);
            json_str(f, category(k));
            fputs(": ", f);
            json_num(f, v[j][k]);
        }
        fputc('}', f);
    }
}

static void lifetime_json(FILE *f, const char *label, const char *currency, const tco_lifetime *l,
                          const tco_lifetime_year *y)
{
    json_report_head(f, "libtco-lifetime");
    fputs(",\n  \"scenario\": ", f);
    json_str(f, label);
    fputs(",\n  \"currency\": ", f);
    json_str(f, currency);
    const struct { const char *name; double v; } life[] = {
        { "total", l->total }, { "fixed_total", l->fixed_total }, { "npv", l->npv }, { "capex", l->capex },
        { "running", l->running }, { "salvage", l->salvage }, { "unused_owned", l->unused_owned },
        { "unused_commitment", l->unused_commitment }, { "unused_commitment_hours", l->unused_commitment_hours },
        { "capacity_accelerator_hours", l->capacity_accelerator_hours },
        { "used_accelerator_hours", l->used_accelerator_hours },
        { "effective_accelerator_hours", l->effective_accelerator_hours },
        { "cost_per_effective_accelerator_hour", l->cost_per_effective_accelerator_hour },
        { "levelised_cost_per_effective_accelerator_hour", l->levelised_cost_per_effective_accelerator_hour } };
    fprintf(f, ",\n  \"life\": {\"years\": %d", (int)l->years);
    for (size_t i = 0; i < sizeof life / sizeof *life; i++) {
        json_num_field(f, life[i].name, life[i].v);
    }
    json_figures(f, l->cost, l->fixed);
    fputs("},\n  \"years\": [", f);
    for (int i = 0; i < l->years; i++) {
        const tco_lifetime_year *x = &y[i];
        const struct { const char *name; double v; } row[] = {
            { "utilisation", x->utilisation }, { "total", x->total }, { "fixed_total", x->fixed_total },
            { "unused_owned", x->unused_owned }, { "unused_commitment", x->unused_commitment },
            { "unused_commitment_hours", x->unused_commitment_hours }, { "capex", x->capex },
            { "running", x->running }, { "salvage", x->salvage }, { "present_value", x->present_value },
            { "used_accelerator_hours", x->used_accelerator_hours },
            { "effective_accelerator_hours", x->effective_accelerator_hours } };
        fprintf(f, "%s\n    {\"year\": %d, \"refreshed\": %s", i ? "," : "", (int)x->year,
                x->refreshed ? "true" : "false");
        for (size_t j = 0; j < sizeof row / sizeof *row; j++) {
            json_num_field(f, row[j].name, row[j].v);
        }
        json_figures(f, x->cost, x->fixed);
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
}

static void lifetime_csv(FILE *f, const tco_lifetime *l, const tco_lifetime_year *y, const char *currency)
{
    fputs("year,refreshed,utilisation,total,fixed_total,unused_owned,unused_commitment,capex,running,salvage,"
          "present_value",
          f);
    for (int k = 0; k < (int)tco_category_count(); k++)
        fprintf(f, ",%s,%s_fixed", category(k), category(k));
    fputs(",currency\n", f);
    char b[16][32];
    for (int i = 0; i < l->years; i++) {
        const tco_lifetime_year *x = &y[i];
        fprintf(f, "%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s", (int)x->year, (int)x->refreshed,
                num(b[0], sizeof b[0], x->utilisation), num(b[1], sizeof b[1], x->total),
                num(b[2], sizeof b[2], x->fixed_total), num(b[3], sizeof b[3], x->unused_owned),
                num(b[4], sizeof b[4], x->unused_commitment), num(b[5], sizeof b[5], x->capex),
                num(b[6], sizeof b[6], x->running), num(b[7], sizeof b[7], x->salvage),
                num(b[8], sizeof b[8], x->present_value));
        for (int k = 0; k < (int)tco_category_count(); k++)
            fprintf(f, ",%s,%s", num(b[0], sizeof b[0], x->cost[k]), num(b[1], sizeof b[1], x->fixed[k]));
        fputc(',', f);
        csv_str(f, currency);
        fputc('\n', f);
    }
}

int cmd_lifetime(const cmd_args *a)
{
    scenario s;
    int rc = scenario_load(&s, a->pos[0], a);
    if (rc)
        return rc;
    tco_lifetime_request q;
    if ((rc = request_of(a, &s, &q)) != 0) {
        scenario_free(&s);
        return rc;
    }
    tco_lifetime life = { .size = sizeof life };
    tco_lifetime_year years[YEARS_MAX];
    tco_error err = TCO_ERROR_INIT;
    const char *label = scenario_label(a->pos[0]);
    if (tco_lifetime_compute(&life, years, sizeof years[0], YEARS_MAX, &q, s.t, s.w, s.p, &err) != TCO_OK) {
        say("%s: %s", label, err.message);
        scenario_free(&s);
        return EXIT_REJECTED;
    }
    const char *currency = "";
    scenario_get_text(&s, TCO_HANDLE_PRICING, TCO_P_CURRENCY, &currency);
    const char *format = a->format ? a->format : "table", *out = a->output ? a->output : "-";
    FILE *f = open_text(out);
    if (!f) {
        scenario_free(&s);
        return EXIT_IO;
    }
    if (strcmp(format, "json") == 0)
        lifetime_json(f, label, currency, &life, years);
    else if (strcmp(format, "csv") == 0)
        lifetime_csv(f, &life, years, currency);
    else
        lifetime_table(f, label, currency, &life, years);
    scenario_free(&s);
    return close_text(f, out);
}
