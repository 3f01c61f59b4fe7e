/* tco report: a scenario priced (tco_estimate_compute) as a table, JSON,
 * CSV or the library's canonical CBOR. Every format walks the library's
 * field table (tco_estimate_field_at), so a field added there shows here
 * without a change. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tco_cmd.h"

/* The keys of a nested field: category or waste names. */
static const char *named(int32_t type, size_t i)
{
    return type == TCO_FIELD_CATEGORIES ? tco_category_name((int32_t)i) : tco_waste_name((int32_t)i);
}

static size_t named_count(int32_t type)
{
    return type == TCO_FIELD_CATEGORIES ? tco_category_count() : tco_waste_count();
}

/* The four rates the estimate charged and where each comes from: the
 * pricing table, or the accelerator's list price its -1 stands for. */
static void rates_table(FILE *f, const scenario *s)
{
    static const int32_t keys[] = { TCO_P_ON_DEMAND_PER_ACCEL_HOUR, TCO_P_RESERVED_PER_ACCEL_HOUR,
                                    TCO_P_SPOT_PER_ACCEL_HOUR, TCO_P_CAPEX_PER_ACCELERATOR };
    const char *model = "";
    tco_topology_get_text(s->t, TCO_P_ACCELERATOR_MODEL, &model, NULL);
    fprintf(f, "\n  %-36s %24s  %s\n", "rate", "charged", "from");
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        tco_param_info in = { .size = sizeof in };
        double given = 0, r = 0;
        char v[40];
        tco_param_info_get(&in, keys[i], NULL);
        tco_pricing_get(s->p, keys[i], &given, NULL);
        int listed = given < in.min_value, ok = tco_rate(&r, keys[i], s->t, s->p, NULL) == TCO_OK;
        snprintf(v, sizeof v, ok ? "%.10g" : "none", r);
        fprintf(f, "  %-36s %24s  %s%s\n", in.name, v, listed ? model : "the pricing table",
                listed ? (ok ? "'s list price" : " has no list price") : "");
    }
}

static void report_table(FILE *f, const tco_estimate *e, const char *path, const scenario *s)
{
    char a[40], b[40];
    fprintf(f, "libtco %s: %s\nscenario fingerprint %016llx\n\n", tco_version_string(), scenario_label(path),
            (unsigned long long)e->scenario_fingerprint);
    char c3[40];
    fprintf(f, "  %-12s %18s %7s %18s\n", "category", "cost", "share", "of it fixed");
    for (size_t c = 0; c < tco_category_count(); c++)
        fprintf(f, "  %-12s %18s %6.1f%% %18s\n", tco_category_name((int32_t)c), money(a, sizeof a, e->cost[c]),
                e->total > 0 ? 100 * e->cost[c] / e->total : 0.0, money(c3, sizeof c3, e->fixed[c]));
    fprintf(f, "  %-12s %18s %7s %18s\n\n", "total", money(a, sizeof a, e->total), "",
            money(c3, sizeof c3, e->fixed_total));
    fprintf(f, "  %-12s %18s\n", "waste", "cost");
    for (size_t k = 0; k < tco_waste_count(); k++)
        fprintf(f, "  %-12s %18s\n", tco_waste_name((int32_t)k), money(a, sizeof a, e->waste[k]));
    fputc('\n', f);
    fprintf(f, "  %-36s %24s  %-8s %s\n", "field", "value", "unit", "description");
    for (size_t i = 0; i < tco_estimate_field_count(); i++) {
        tco_field_info fi = { .size = sizeof fi };
        tco_estimate_field_at(&fi, i, NULL); /* i below the count: cannot fail */
        if (fi.type == TCO_FIELD_CATEGORIES || fi.type == TCO_FIELD_WASTES)
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
    fputs("\n  assumed or given\n", f);
    for (int bit = 0; bit < 64; bit++)
        if ((e->flags >> bit & 1) && tco_estimate_flag_name((uint64_t)1 << bit))
            fprintf(f, "  %-36s %s\n", tco_estimate_flag_name((uint64_t)1 << bit),
                    tco_estimate_flag_description((uint64_t)1 << bit));
    rates_table(f, s);
}

/* The same keys and nesting as the CBOR result, between the schema and
 * currency and the unit of every field; the fingerprint in hexadecimal. */
static void report_json(FILE *f, const tco_estimate *e, const char *currency)
{
    char buf[64];
    json_report_head(f, "libtco-report");
    fputs(",\n  \"currency\": ", f);
    json_str(f, currency);
    for (size_t i = 0; i < tco_estimate_field_count(); i++) {
        tco_field_info fi = { .size = sizeof fi };
        tco_estimate_field_at(&fi, i, NULL); /* i below the count: cannot fail */
        const char *at = (const char *)e + fi.offset;
        fprintf(f, ",\n  \"%s\": ", fi.name);
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
            if (strcmp(fi.name, "scenario_fingerprint") == 0)
                json_str(f, fingerprint_text(buf, sizeof buf, u));
            else
                fprintf(f, "%llu", (unsigned long long)u);
        } else {
            double d;
            memcpy(&d, at, sizeof d);
            json_num(f, d);
        }
    }
    fputs(",\n  \"units\": {", f);
    for (size_t i = 0; i < tco_estimate_field_count(); i++) {
        tco_field_info fi = { .size = sizeof fi };
        tco_estimate_field_at(&fi, i, NULL); /* i below the count: cannot fail */
        fprintf(f, "%s\n    \"%s\": ", i ? "," : "", fi.name);
        json_str(f, unit_text(buf, sizeof buf, fi.unit, currency));
    }
    fputs("\n  }\n}\n", f);
}

/* field,value,unit: the schema and currency first, the nested maps as
 * cost.compute, waste.idle, ...; units for a reader, the fingerprint in
 * hexadecimal. */
static void report_csv(FILE *f, const tco_estimate *e, const char *currency)
{
    char buf[32], unit[64];
    fprintf(f, "field,value,unit\nschema,libtco-report,\nschema_version,%d,\ncurrency,", REPORT_SCHEMA_VERSION);
    csv_str(f, currency);
    fputs(",\n", f);
    for (size_t i = 0; i < tco_estimate_field_count(); i++) {
        tco_field_info fi = { .size = sizeof fi };
        tco_estimate_field_at(&fi, i, NULL); /* i below the count: cannot fail */
        const char *at = (const char *)e + fi.offset;
        unit_text(unit, sizeof unit, fi.unit, currency);
        if (fi.type == TCO_FIELD_CATEGORIES || fi.type == TCO_FIELD_WASTES) {
            const double *v = (const double *)(const void *)at;
            for (size_t k = 0; k < named_count(fi.type); k++)
                fprintf(f, "%s.%s,%s,%s\n", fi.name, named(fi.type, k), num(buf, sizeof buf, v[k]), unit);
        } else if (fi.type == TCO_FIELD_UINT64) {
            uint64_t u;
            memcpy(&u, at, sizeof u);
            if (strcmp(fi.name, "scenario_fingerprint") == 0)
                fprintf(f, "%s,%s,%s\n", fi.name, fingerprint_text(buf, sizeof buf, u), unit);
            else
                fprintf(f, "%s,%llu,%s\n", fi.name, (unsigned long long)u, unit);
        } else {
            double d;
            memcpy(&d, at, sizeof d);
            fprintf(f, "%s,%s,%s\n", fi.name, num(buf, sizeof buf, d), unit);
        }
    }
}

/* Prometheus text exposition: a gauge per number of the field table,
 * tco_<field> (the nested maps as tco_cost{category=...},
 * tco_waste{kind=...}, tco_fixed{category=...}), each labelled with the
 * scenario, its fingerprint and the currency, for a textfile collector. */
static void report_prometheus(FILE *f, const tco_estimate *e, const char *path, const char *currency)
{
    char fp[32], buf[32], name[96], help[400], unit[64];
    fingerprint_text(fp, sizeof fp, e->scenario_fingerprint);
    for (size_t i = 0; i < tco_estimate_field_count(); i++) {
        tco_field_info fi = { .size = sizeof fi };
        tco_estimate_field_at(&fi, i, NULL); /* i below the count: cannot fail */
        if (fi.type == TCO_FIELD_UINT64)
            continue; /* the fingerprint is a label; the flag bits are no gauge */
        snprintf(name, sizeof name, "tco_%s", fi.name);
        snprintf(help, sizeof help, "%s (%s)", fi.description, unit_text(unit, sizeof unit, fi.unit, currency));
        prom_family(f, name, help);
        const double *v = (const double *)(const void *)((const char *)e + fi.offset);
        int nested = fi.type == TCO_FIELD_CATEGORIES || fi.type == TCO_FIELD_WASTES;
        for (size_t k = 0; k < (nested ? named_count(fi.type) : 1); k++) {
            fprintf(f, "%s{", name);
            prom_label(f, "scenario", scenario_label(path), 1);
            prom_label(f, "fingerprint", fp, 0);
            prom_label(f, "currency", currency, 0);
            if (nested)
                prom_label(f, fi.type == TCO_FIELD_CATEGORIES ? "category" : "kind", named(fi.type, k), 0);
            fprintf(f, "} %s\n", num(buf, sizeof buf, v[k]));
        }
    }
}

static int save_estimate(uint8_t *buf, size_t cap, size_t *len, const void *e, tco_error *err)
{
    return tco_estimate_save_cbor(buf, cap, len, e, err);
}

int cmd_report(const cmd_args *a)
{
    const char *format = a->format ? a->format : "table", *out = a->output ? a->output : "-";
    /* Refused before pricing: nothing is read only to be thrown away. */
    if (strcmp(format, "cbor") == 0 && binary_to_terminal(out))
        return EXIT_USAGE;
    scenario s;
    int rc = scenario_load(&s, a->pos[0], a);
    if (rc)
        return rc;
    tco_estimate e;
    memset(&e, 0, sizeof e);
    e.size = sizeof e;
    tco_error err = TCO_ERROR_INIT;
    if (tco_estimate_compute(&e, s.t, s.w, s.p, &err) != TCO_OK) {
        say("%s: %s", scenario_label(a->pos[0]), err.message);
        scenario_free(&s);
        return EXIT_REJECTED;
    }
    if (strcmp(format, "cbor") == 0) {
        scenario_free(&s);
        return write_cbor(out, save_estimate, &e);
    }
    FILE *f = open_text(out);
    if (!f) {
        scenario_free(&s);
        return EXIT_IO;
    }
    const char *currency = "";
    tco_pricing_get_text(s.p, TCO_P_CURRENCY, &currency, NULL);
    if (strcmp(format, "json") == 0)
        report_json(f, &e, currency);
    else if (strcmp(format, "csv") == 0)
        report_csv(f, &e, currency);
    else if (strcmp(format, "prometheus") == 0)
        report_prometheus(f, &e, a->pos[0], currency);
    else
        report_table(f, &e, a->pos[0], &s);
    scenario_free(&s);
    return close_text(f, out);
}
