/* tco sensitivity: the tornado of a scenario (tco_sensitivity), every
 * numeric parameter swung down and up, ranked by the spread of the total,
 * as a table, JSON or CSV. Parameter names are the library's
 * (tco_param_info_get). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tco_cmd.h"

/* What tco_sensitivity swings by when given 0 (tco.h): shown, not used. */
#define DEFAULT_SHARE 0.1

static const char *param_name(int32_t key)
{
    tco_param_info in = { .size = sizeof in };
    tco_param_info_get(&in, key, NULL); /* a key the library's tornado gave */
    return in.name;
}

/* What a swing's status says: "ok", or the status' name. */
static const char *status_text(int32_t status)
{
    return status == TCO_OK ? "ok" : tco_status_name(status);
}

/* A value swung to, as the table shows it: short, exact enough to read. */
static const char *value_text(char *buf, size_t cap, double v)
{
    snprintf(buf, cap, "%.6g", v);
    return buf;
}

typedef struct tornado {
    const tco_swing *row;
    size_t n;
    double share, total;
    const char *currency, *label;
} tornado;

static void sensitivity_table(FILE *f, const tornado *t)
{
    char lo[32], hi[32], lt[40], ht[40], sp[40];
    fprintf(f, "libtco %s: %s, every numeric parameter swung by -%g%% and +%g%%\n", tco_version_string(),
            t->label, 100 * t->share, 100 * t->share);
    fprintf(f, "total as given %s %s\n\n", money(lt, sizeof lt, t->total), t->currency);
    fprintf(f, "  %4s  %-34s %12s %12s %16s %16s %16s  %-7s %s\n", "rank", "parameter", "low", "high",
            "total at low", "total at high", "spread", "clipped", "status");
    for (size_t i = 0; i < t->n; i++) {
        const tco_swing *s = &t->row[i];
        fprintf(f, "  %4zu  %-34s %12s %12s %16s %16s %16s  %-7s %s\n", i + 1, param_name(s->key),
                value_text(lo, sizeof lo, s->low_value), value_text(hi, sizeof hi, s->high_value),
                money(lt, sizeof lt, s->low_total), money(ht, sizeof ht, s->high_total),
                money(sp, sizeof sp, s->spread), s->clipped ? "yes" : "no", status_text(s->status));
    }
}

static void sensitivity_json(FILE *f, const tornado *t)
{
    json_report_head(f, "libtco-sensitivity");
    fputs(",\n  \"scenario\": ", f);
    json_str(f, t->label);
    fputs(",\n  \"currency\": ", f);
    json_str(f, t->currency);
    fputs(",\n  \"share\": ", f);
    json_num(f, t->share);
    fputs(",\n  \"total\": ", f);
    json_num(f, t->total);
    fputs(",\n  \"swings\": [", f);
    for (size_t i = 0; i < t->n; i++) {
        const tco_swing *s = &t->row[i];
        fprintf(f, "%s\n    {\"rank\": %zu, \"parameter\": ", i ? "," : "", i + 1);
        json_str(f, param_name(s->key));
        fprintf(f, ", \"key\": %d", (int)s->key);
        json_num_field(f, "low_value", s->low_value);
        json_num_field(f, "high_value", s->high_value);
        json_num_field(f, "low_total", s->low_total);
        json_num_field(f, "high_total", s->high_total);
        json_num_field(f, "low_unit", s->low_unit);
        json_num_field(f, "high_unit", s->high_unit);
        json_num_field(f, "spread", s->spread);
        fprintf(f, ", \"clipped\": %s", s->clipped ? "true" : "false");
        json_str_field(f, "status", status_text(s->status));
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
}

static void sensitivity_csv(FILE *f, const tornado *t)
{
    char b[7][32];
    fputs("rank,parameter,low_value,high_value,low_total,high_total,low_unit,high_unit,spread,clipped,status,"
          "currency\n", f);
    for (size_t i = 0; i < t->n; i++) {
        const tco_swing *s = &t->row[i];
        fprintf(f, "%zu,%s,%s,%s,%s,%s,%s,%s,%s,%d,%s,", i + 1, param_name(s->key),
                num(b[0], sizeof b[0], s->low_value), num(b[1], sizeof b[1], s->high_value),
                num(b[2], sizeof b[2], s->low_total), num(b[3], sizeof b[3], s->high_total),
                num(b[4], sizeof b[4], s->low_unit), num(b[5], sizeof b[5], s->high_unit),
                num(b[6], sizeof b[6], s->spread), (int)s->clipped, status_text(s->status));
        csv_str(f, t->currency);
        fputc('\n', f);
    }
}

/* --share: a number (the library checks its range); "" or "0.1x" is usage. */
static int share_of(const char *text, double *share)
{
    *share = 0;
    if (text && !number_text(text, share))
        return usage("--share takes a number, in decimal as a double holds it, such as 0.1 (10%%), not %s", text);
    return 0;
}

static int sensitivity_print(const cmd_args *a, const tornado *t)
{
    const char *format = a->format ? a->format : "table", *out = a->output ? a->output : "-";
    FILE *f = open_text(out);
    if (!f)
        return EXIT_IO;
    if (strcmp(format, "json") == 0)
        sensitivity_json(f, t);
    else if (strcmp(format, "csv") == 0)
        sensitivity_csv(f, t);
    else
        sensitivity_table(f, t);
    return close_text(f, out);
}

static int sensitivity_run(const cmd_args *a, const scenario *s, double share)
{
    const char *label = scenario_label(a->pos[0]);
    tco_error err = TCO_ERROR_INIT;
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    if (tco_estimate_compute(&e, s->t, s->w, s->p, &err) != TCO_OK) {
        say("%s: %s", label, err.message);
        return EXIT_REJECTED;
    }
    /* Asked first: how many rows there are. The scenario priced, so what is
     * refused now is the share (no parameter named): wrong usage. */
    size_t n = 0;
    if (tco_sensitivity(NULL, sizeof(tco_swing), 0, &n, share, s->t, s->w, s->p, &err) != TCO_OK)
        return usage("--share: %s", err.message);
    tco_swing *rows = calloc(n, sizeof *rows); /* a row for each of the table's numbers */
    if (!rows) {
        say("out of memory");
        return EXIT_IO;
    }
    size_t got = 0;
    int rc;
    if (tco_sensitivity(rows, sizeof *rows, n, &got, share, s->t, s->w, s->p, &err) != TCO_OK) {
        say("%s: %s", label, err.message);
        rc = EXIT_REJECTED;
    } else {
        const char *currency = "";
        scenario_get_text(s, TCO_HANDLE_PRICING, TCO_P_CURRENCY, &currency);
        tornado t = { rows, got, share > 0 ? share : DEFAULT_SHARE, e.total, currency, label }; /* got == n */
        rc = sensitivity_print(a, &t);
    }
    free(rows);
    return rc;
}

int cmd_sensitivity(const cmd_args *a)
{
    double share;
    int rc = share_of(a->share, &share);
    if (rc)
        return rc;
    scenario s;
    if ((rc = scenario_load(&s, a->pos[0], a)) != 0)
        return rc;
    rc = sensitivity_run(a, &s, share);
    scenario_free(&s);
    return rc;
}
