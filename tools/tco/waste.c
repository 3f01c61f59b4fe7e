/* tco waste: the findings of tco_find_waste (doc/model.md, section 17) in
 * the records attribute.c read and priced, largest first, as a table, JSON
 * or CSV; each with its record's tags, since when, its cost in the period
 * and per day, and what to do about it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tco_cmd.h"

/* --threshold NAME=VALUE: the names are tco_waste_request's fields. */
static const field_name thresholds[] = {
    FIELD_NAME(tco_waste_request, idle_utilisation),      FIELD_NAME(tco_waste_request, idle_hours),
    FIELD_NAME(tco_waste_request, oversized_utilisation), FIELD_NAME(tco_waste_request, max_runtime_hours),
    FIELD_NAME(tco_waste_request, rerun_hours),           FIELD_NAME(tco_waste_request, retention_days),
    FIELD_NAME(tco_waste_request, orphan_days),
};

static int request_of(const cmd_args *a, tco_waste_request *q)
{
    tco_waste_request_init(q);
    for (int i = 0; i < a->nthresholds; i++) {
        const char *value;
        int k = field_of(a->thresholds[i], thresholds, sizeof thresholds / sizeof thresholds[0], &value);
        double v;
        if (k < 0 || !number_text(value, &v))
            return usage("--threshold takes NAME=VALUE, NAME one of idle_utilisation, idle_hours, "
                         "oversized_utilisation, max_runtime_hours, rerun_hours, retention_days, orphan_days; not %s",
                         a->thresholds[i]);
        *(double *)((char *)q + thresholds[k].offset) = v;
    }
    return 0;
}

/* The text of record i's tag of key, or NULL. */
static const char *tag_of(const usage_job *j, uint32_t i, const char *key)
{
    const tco_tags *tags = tco_records_tags(j->rs);
    uint32_t k;
    if (i == UINT32_MAX || tco_tags_find(tags, key, strlen(key), &k, NULL) != TCO_OK)
        return NULL;
    const tco_record *r = tco_records_data(j->rs);
    r = (const tco_record *)((const char *)r + (size_t)i * r[0].size);
    size_t n;
    const uint32_t *p = tco_records_tag_pairs(j->rs, &n);
    for (uint32_t t = 0; t < r->tag_count; t++)
        if (p[2 * ((size_t)r->first_tag + t)] == k)
            return tco_tags_text(tags, p[2 * ((size_t)r->first_tag + t) + 1]);
    return NULL;
}

/* What names the record in a table: its job id, else its name, else its
 * job name, else its index. */
static const char *record_label(char *buf, size_t cap, const usage_job *j, uint32_t i)
{
    if (i == UINT32_MAX)
        return "(cluster)";
    static const char *const keys[] = { "job_id", "name", "job_name" };
    for (size_t k = 0; k < 3; k++) {
        const char *v = tag_of(j, i, keys[k]);
        if (v)
            return v;
    }
    snprintf(buf, cap, "record %u", (unsigned)i);
    return buf;
}

static const char *group_label(const usage_job *j, const tco_finding *f)
{
    if (f->group == UINT32_MAX)
        return "(all)";
    tco_group g = { .size = sizeof g };
    if (tco_attribution_group_at(&g, j->a, f->group, NULL) != TCO_OK)
        return "";
    const char *v = usage_value(j, g.value[0]);
    return v ? v : "(none)";
}

static void waste_table(FILE *f, const usage_job *j, const tco_findings *w)
{
    char t0[32], t1[32], c[3][40], label[32];
    fprintf(f, "libtco %s: waste in %s priced by %s, %s to %s\n", tco_version_string(), j->path, j->label,
            iso_time(t0, sizeof t0, j->period[0]), iso_time(t1, sizeof t1, j->period[1]));
    fprintf(f, "%zu findings, %s %s in the period\n\n", tco_findings_count(w),
            money_cents(c[0], sizeof c[0], llround(tco_findings_total(w) * 100)), j->currency);
    fprintf(f, "  %-14s %-20s %-24s %-20s %9s %14s %12s\n", "finding", j->keys[0], "what", "since", "days", "cost",
            "per day");
    int seen[TCO_FINDING_ORPHANED + 1] = { 0 };
    tco_finding x = { .size = sizeof x };
    for (size_t i = 0; i < tco_findings_count(w); i++) {
        tco_findings_at(&x, w, i, NULL);
        seen[x.kind] = 1;
        fprintf(f, "  %-14s %-20s %-24s %-20s %9.2f %14s %12s\n", tco_finding_kind_name(x.kind), group_label(j, &x),
                record_label(label, sizeof label, j, x.record), iso_time(t0, sizeof t0, x.since),
                (x.until - x.since) / 86400, money_cents(c[1], sizeof c[1], llround(x.cost * 100)),
                money_cents(c[2], sizeof c[2], llround(x.per_day * 100)));
    }
    fputs("\nwhat to do:\n", f);
    for (int32_t k = TCO_FINDING_IDLE_CAPACITY; k <= TCO_FINDING_ORPHANED; k++)
        if (seen[k])
            fprintf(f, "  %-14s %s\n", tco_finding_kind_name(k), tco_finding_action(k));
}

/* Record i's tags as a JSON object. */
static void json_tags(FILE *f, const usage_job *j, uint32_t i)
{
    if (i == UINT32_MAX) {
        fputs("{}", f);
        return;
    }
    const tco_record *r = tco_records_data(j->rs);
    r = (const tco_record *)((const char *)r + (size_t)i * r[0].size);
    size_t n;
    const uint32_t *p = tco_records_tag_pairs(j->rs, &n);
    const tco_tags *tags = tco_records_tags(j->rs);
    fputc('{', f);
    for (uint32_t t = 0; t < r->tag_count; t++) {
        size_t at = 2 * ((size_t)r->first_tag + t);
        fputs(t ? ", " : "", f);
        json_str(f, tco_tags_text(tags, p[at]));
        fputs(": ", f);
        json_str(f, tco_tags_text(tags, p[at + 1]));
    }
    fputc('}', f);
}

static void waste_json(FILE *f, const usage_job *j, const tco_findings *w)
{
    char t[32];
    usage_json_head(f, j, "libtco-waste");
    fputs(",\n  \"by\": ", f);
    json_str(f, j->keys[0]);
    fputs(",\n  \"period_start\": ", f);
    json_str(f, iso_time(t, sizeof t, j->period[0]));
    json_str_field(f, "period_end", iso_time(t, sizeof t, j->period[1]));
    fputs(",\n  \"total\": ", f);
    json_num(f, tco_findings_total(w));
    fputs(",\n  \"findings\": [", f);
    tco_finding x = { .size = sizeof x };
    for (size_t i = 0; i < tco_findings_count(w); i++) {
        tco_findings_at(&x, w, i, NULL);
        fputs(i ? ",\n    {\"kind\": " : "\n    {\"kind\": ", f);
        json_str(f, tco_finding_kind_name(x.kind));
        fputs(", ", f);
        json_str(f, j->keys[0]);
        fputs(": ", f);
        json_str(f, group_label(j, &x));
        fputs(", \"record\": ", f);
        x.record == UINT32_MAX ? (void)fputs("null", f) : (void)fprintf(f, "%u", (unsigned)x.record);
        fputs(", \"tags\": ", f);
        json_tags(f, j, x.record);
        fputs(", \"other\": ", f);
        x.other == UINT32_MAX ? (void)fputs("null", f) : (void)fprintf(f, "%u", (unsigned)x.other);
        json_str_field(f, "since", iso_time(t, sizeof t, x.since));
        json_str_field(f, "until", iso_time(t, sizeof t, x.until));
        json_num_field(f, "cost", x.cost);
        json_num_field(f, "per_day", x.per_day);
        json_num_field(f, "accelerator_hours", x.accelerator_hours);
        json_num_field(f, "gb", x.gb);
        json_str_field(f, "action", tco_finding_action(x.kind));
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
}

static void waste_csv(FILE *f, const usage_job *j, const tco_findings *w)
{
    fputs("kind,", f);
    csv_str(f, j->keys[0]);
    fputs(",record,job_id,name,other,since,until,cost,per_day,accelerator_hours,gb,action,currency\n", f);
    tco_finding x = { .size = sizeof x };
    char t[32], b[4][32];
    for (size_t i = 0; i < tco_findings_count(w); i++) {
        tco_findings_at(&x, w, i, NULL);
        fprintf(f, "%s,", tco_finding_kind_name(x.kind));
        csv_str(f, group_label(j, &x));
        fputc(',', f);
        if (x.record != UINT32_MAX)
            fprintf(f, "%u", (unsigned)x.record);
        const char *v[2] = { tag_of(j, x.record, "job_id"), tag_of(j, x.record, "name") };
        for (int k = 0; k < 2; k++) {
            fputc(',', f);
            if (v[k])
                csv_str(f, v[k]);
        }
        fputc(',', f);
        if (x.other != UINT32_MAX)
            fprintf(f, "%u", (unsigned)x.other);
        fprintf(f, ",%s,", iso_time(t, sizeof t, x.since));
        fprintf(f, "%s,%s,%s,%s,%s,", iso_time(t, sizeof t, x.until), num(b[0], sizeof b[0], x.cost),
                num(b[1], sizeof b[1], x.per_day), num(b[2], sizeof b[2], x.accelerator_hours),
                num(b[3], sizeof b[3], x.gb));
        csv_str(f, tco_finding_action(x.kind));
        fputc(',', f);
        csv_str(f, j->currency);
        fputc('\n', f);
    }
}

int waste_print(const cmd_args *a, const usage_job *j)
{
    tco_waste_request q;
    int rc = request_of(a, &q);
    if (rc)
        return rc;
    tco_error err = TCO_ERROR_INIT;
    tco_findings *w;
    size_t pairs;
    const uint32_t *p = tco_records_tag_pairs(j->rs, &pairs);
    if (tco_find_waste(&w, j->a, tco_records_data(j->rs), tco_records_count(j->rs), p, pairs, tco_records_tags(j->rs),
                       &q, &err) != TCO_OK) {
        say("%s: --threshold: %s", j->path, err.message);
        return EXIT_REJECTED;
    }
    const char *format = a->format ? a->format : "table", *out = a->output ? a->output : "-";
    FILE *f = open_text(out);
    if (!f) {
        tco_findings_free(w);
        return EXIT_IO;
    }
    if (strcmp(format, "json") == 0)
        waste_json(f, j, w);
    else if (strcmp(format, "csv") == 0)
        waste_csv(f, j, w);
    else
        waste_table(f, j, w);
    tco_findings_free(w);
    return close_text(f, out);
}
