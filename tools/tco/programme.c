/* tco programme: a programme of stages on one cluster (tco_programme_compute,
 * doc/model.md section 21): each stage on the time line with what it holds
 * and pays (the data pipeline and serving among them), then the
 * programme's total, the store of the versions kept, the makespan and the
 * cluster's use; as a table, JSON or CSV. input.c
 * reads the file (doc/format.md, "Programmes"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tco_cmd.h"

/* The figures of a stage, by the names the JSON and the CSV give them. */
#define STAGE_FIGURES(X)                                                                                           \
    X(estimate_total) X(cluster_share) X(total) X(share) X(start_hours) X(end_hours) X(accelerators) X(runs)       \
    X(concurrent_runs) X(waves) X(cost_per_run) X(effective_accelerator_hours)                                     \
    X(cost_per_effective_accelerator_hour) X(cost_per_million_tokens) X(store_gb) X(tokens) X(cpu_node_hours)      \
    X(fleet_peak_accelerators) X(fleet_accelerator_hours)

#define PROGRAMME_FIGURES(X)                                                                                       \
    X(total) X(stages_total) X(storage_lifecycle) X(makespan_hours) X(makespan_months) X(cluster_accelerators)     \
    X(peak_accelerators) X(accelerator_hours) X(utilisation) X(runs) X(cost_per_experiment) X(store_gb)            \
    X(store_growth_gb_per_month) X(cluster_hours) X(pipeline_total) X(serving_total) X(served_tokens)             \
    X(cost_per_million_tokens_served)

/* The name of the stage a stage starts after, or NULL: the start. */
static const char *after_name(const programme_file *pf, const tco_stage_result *r)
{
    return r->after == TCO_STAGE_START ? NULL : pf->names[r->after];
}

/* ["a", "b"]: the further stages stage i waits for, by name, as JSON. */
static void also_after_json(FILE *f, const programme_file *pf, size_t i)
{
    fputc('[', f);
    for (size_t k = 0; k < pf->stages[i].n_also_after; k++) {
        fputs(k ? ", " : "", f);
        json_str(f, pf->names[pf->stages[i].also_after[k]]);
    }
    fputc(']', f);
}

static void programme_table(FILE *f, const char *path, const char *currency, const programme_file *pf,
                            const tco_programme *g, const tco_stage_result *r)
{
    char b[4][40], name[64];
    fprintf(f, "libtco %s: %s, %d stages on %s accelerators\n\n", tco_version_string(), path, (int)g->stages,
            money(b[0], sizeof b[0], g->cluster_accelerators));
    fprintf(f, "  %-24s %-22s %10s %10s %12s %7s %6s %16s %6s\n", "stage", "kind", "start h", "end h", "accelerators",
            "runs", "waves", "total", "share");
    for (size_t i = 0; i < pf->n; i++)
        fprintf(f, "  %-24s %-22s %10.1f %10.1f %12.0f %7.0f %6.0f %16s %5.1f%%\n",
                shown_text(name, 25, pf->names[i]), tco_stage_kind_name(r[i].kind),
                r[i].start_hours, r[i].end_hours, r[i].accelerators, r[i].runs, r[i].waves,
                money(b[0], sizeof b[0], r[i].total), 100 * r[i].share);
    fprintf(f, "  %-24s %-22s %10s %10s %12s %7s %6s %16s\n", "stages", "", "", "", "", "", "",
            money(b[0], sizeof b[0], g->stages_total));
    fprintf(f, "  %-24s %-22s %10s %10s %12s %7s %6s %16s\n", "store", "storage lifecycle", "", "", "", "",
            "", money(b[0], sizeof b[0], g->storage_lifecycle));
    fprintf(f, "  %-24s %-22s %10s %10s %12s %7s %6s %16s %s\n\n", "total", "", "", "", "", "", "",
            money(b[0], sizeof b[0], g->total), currency);
    fprintf(f, "makespan %s hours (%.2f months), the cluster held %s of them; peak %s of %s accelerators; "
            "utilisation %.1f%%\n",
            money(b[0], sizeof b[0], g->makespan_hours), g->makespan_months, money(b[3], sizeof b[3], g->cluster_hours),
            money(b[1], sizeof b[1], g->peak_accelerators), money(b[2], sizeof b[2], g->cluster_accelerators),
            100 * g->utilisation);
    fprintf(f, "cost per experiment %s %s over %s runs%s\n", money(b[0], sizeof b[0], g->cost_per_experiment),
            currency, money(b[1], sizeof b[1], g->runs), g->serving_total > 0 ? " (serving apart)" : "");
    for (size_t i = 0; i < pf->n; i++)
        if (r[i].kind == TCO_STAGE_DATA_PIPELINE)
            fprintf(f, "%s: %s CPU node-hours, %s GB prepared into the store\n", shown_text(name, 25, pf->names[i]),
                    money(b[0], sizeof b[0], r[i].cpu_node_hours), money(b[1], sizeof b[1], r[i].store_gb));
        else if (r[i].kind == TCO_STAGE_SERVING)
            fprintf(f, "%s: %s tokens at %.4g %s per million, a fleet of up to %s accelerators rented apart\n",
                    shown_text(name, 25, pf->names[i]), money(b[0], sizeof b[0], r[i].tokens),
                    r[i].cost_per_million_tokens, currency, money(b[1], sizeof b[1], r[i].fleet_peak_accelerators));
    fprintf(f, "store %s GB at the end (versions kept, prepared data), growing %s GB per month\n\n",
            money(b[0], sizeof b[0], g->store_gb), money(b[1], sizeof b[1], g->store_growth_gb_per_month));
    fprintf(f, "  %-10s %16s %6s\n", "category", "programme", "share");
    for (int k = 0; k < (int)tco_category_count(); k++)
        if (g->cost[k] != 0)
            fprintf(f, "  %-10s %16s %5.1f%%\n", tco_category_name(k), money(b[0], sizeof b[0], g->cost[k]),
                    100 * g->share[k]);
}

/* `, "name": {"compute": ..., ...}`: the categories of v. */
static void json_categories(FILE *f, const char *name, const double *v)
{
    fprintf(f, ", \"%s\": {", name);
    for (int k = 0; k < (int)tco_category_count(); k++) {
        fputs(k ? ", " : "", f);
        json_str(f, tco_category_name(k));
        fputs(": ", f);
        json_num(f, v[k]);
    }
    fputc('}', f);
}

static void programme_json(FILE *f, const char *path, const char *currency, const programme_file *pf,
                           const tco_programme *g, const tco_stage_result *r)
{
    json_report_head(f, "libtco-programme");
    fputs(",\n  \"file\": ", f);
    json_str(f, path);
    fputs(",\n  \"currency\": ", f);
    json_str(f, currency);
    fprintf(f, ",\n  \"programme\": {\"stages\": %d", (int)g->stages);
#define FIELD(x) json_num_field(f, #x, g->x);
    PROGRAMME_FIGURES(FIELD)
#undef FIELD
    json_categories(f, "cost", g->cost);
    json_categories(f, "share", g->share);
    fputs("},\n  \"stages\": [", f);
    for (size_t i = 0; i < pf->n; i++) {
        const tco_stage_result *x = &r[i];
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_str(f, pf->names[i]);
        json_str_field(f, "kind", tco_stage_kind_name(x->kind));
        fputs(", \"after\": ", f);
        if (after_name(pf, x))
            json_str(f, after_name(pf, x));
        else
            fputs("null", f);
        fputs(", \"also_after\": ", f);
        also_after_json(f, pf, i);
        fprintf(f, ", \"versions_kept\": %d", (int)pf->stages[i].versions_kept);
#define FIELD(y) json_num_field(f, #y, x->y);
        STAGE_FIGURES(FIELD)
#undef FIELD
        json_categories(f, "cost", x->cost);
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
}

/* The same JSON array as one quoted CSV cell (its quotes doubled): names
 * may hold any character, so no separator would do. */
static void also_after_csv(FILE *f, const programme_file *pf, size_t i)
{
    fputs("\"[", f);
    for (size_t k = 0; k < pf->stages[i].n_also_after; k++) {
        fputs(k ? ", \"\"" : "\"\"", f);
        for (const char *c = pf->names[pf->stages[i].also_after[k]]; *c; c++) {
            unsigned char u = (unsigned char)*c;
            if (u == '"')
                fputs("\\\"\"", f); /* \" in JSON, its quote doubled */
            else if (u == '\\')
                fputs("\\\\", f);
            else if (u < 0x20)
                fprintf(f, "\\u%04x", u);
            else
                fputc(u, f);
        }
        fputs("\"\"", f);
    }
    fputs("]\"", f);
}

static void programme_csv(FILE *f, const char *currency, const programme_file *pf, const tco_stage_result *r)
{
    fputs("name,kind,after,also_after,versions_kept", f);
#define FIELD(x) fputs("," #x, f);
    STAGE_FIGURES(FIELD)
#undef FIELD
    for (int k = 0; k < (int)tco_category_count(); k++)
        fprintf(f, ",%s", tco_category_name(k));
    fputs(",currency\n", f);
    char b[32];
    for (size_t i = 0; i < pf->n; i++) {
        const tco_stage_result *x = &r[i];
        csv_str(f, pf->names[i]);
        fputc(',', f);
        csv_str(f, tco_stage_kind_name(x->kind));
        fputc(',', f);
        csv_str(f, after_name(pf, x) ? after_name(pf, x) : "");
        fputc(',', f);
        if (pf->stages[i].n_also_after)
            also_after_csv(f, pf, i);
        fprintf(f, ",%d", (int)pf->stages[i].versions_kept);
#define FIELD(y) fprintf(f, ",%s", num(b, sizeof b, x->y));
        STAGE_FIGURES(FIELD)
#undef FIELD
        for (int k = 0; k < (int)tco_category_count(); k++)
            fprintf(f, ",%s", num(b, sizeof b, x->cost[k]));
        fputc(',', f);
        csv_str(f, currency);
        fputc('\n', f);
    }
}

int cmd_programme(const cmd_args *a)
{
    programme_file pf;
    const char *path = a->pos[0];
    int rc = programme_load(&pf, path, a);
    if (rc)
        return rc;
    tco_programme g = { .size = sizeof g };
    tco_stage_result *results = calloc(pf.n, sizeof *results);
    if (!results) {
        say("%s: out of memory for %zu stages", path, pf.n);
        programme_free(&pf);
        return EXIT_IO;
    }
    tco_error err = TCO_ERROR_INIT;
    if (tco_programme_compute(&g, results, sizeof *results, pf.stages, pf.n, pf.s.t, pf.s.p, &err) != TCO_OK) {
        say("%s: %s", path, err.message);
        free(results);
        programme_free(&pf);
        return EXIT_REJECTED;
    }
    const char *currency = "";
    scenario_get_text(&pf.s, TCO_HANDLE_PRICING, TCO_P_CURRENCY, &currency);
    const char *format = a->format ? a->format : "table", *out = a->output ? a->output : "-";
    FILE *f = open_text(out);
    if (f) {
        if (strcmp(format, "json") == 0)
            programme_json(f, path, currency, &pf, &g, results);
        else if (strcmp(format, "csv") == 0)
            programme_csv(f, currency, &pf, results);
        else
            programme_table(f, path, currency, &pf, &g, results);
    }
    rc = f ? close_text(f, out) : EXIT_IO;
    free(results);
    programme_free(&pf);
    return rc;
}
