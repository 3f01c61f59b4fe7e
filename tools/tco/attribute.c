/* tco attribute: usage records (Slurm accounting or CSV, doc/records.md)
 * and the bill of a period split among the groups of one tag key or a pair
 * (tco_attribute, doc/model.md section 16), as a table, JSON or CSV. Money
 * is printed from the library's integer cents, so every format adds up to
 * the bill exactly. tco waste reads and prices the records the same way,
 * then hands the attribution to waste.c. */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tco_cmd.h"

#define MAX_RECORDS_BYTES ((size_t)1 << 34) /* 16 GiB: far above a year of a large cluster's jobs */

/* ==== reading the options ================================================ */

/* Days since 1970-01-01 of a date of the proleptic Gregorian calendar. */
static long days_from_civil(long y, unsigned m, unsigned d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long)doe - 719468;
}

/* A time of --period: YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS with an optional Z
 * (UTC either way), or epoch seconds. Returns 0 when it is none of these. */
static int time_of(const char *text, double *t)
{
    int y, mo, d, h = 0, mi = 0, s = 0, n = 0;
    char *end;
    if (sscanf(text, "%4d-%2d-%2d%n", &y, &mo, &d, &n) == 3 && n == 10) {
        const char *rest = text + 10;
        int m = 0;
        if (*rest == 'T' && (sscanf(rest, "T%2d:%2d:%2d%n", &h, &mi, &s, &m) != 3 || m != 9))
            return 0;
        rest += m;
        if (*rest == 'Z')
            rest++;
        static const int mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
        int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        if (*rest || y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] - (mo == 2 && !leap) || h < 0 ||
            h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59)
            return 0;
        *t = (double)days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + s;
        return 1;
    }
    *t = strtod(text, &end);
    return end != text && *end == '\0' && isfinite(*t);
}

/* A rule by the library's name (tco_spread_name). */
static int rule_of(const char *name, const char *option, int32_t *rule)
{
    *rule = TCO_SPREAD_USAGE;
    if (!name)
        return 0;
    for (int32_t r = TCO_SPREAD_USAGE; tco_spread_name(r); r++)
        if (strcmp(name, tco_spread_name(r)) == 0)
            return *rule = r, 0;
    say("%s takes usage, even or owner, not %s", option, name);
    return usage(NULL, NULL);
}

/* The records' format: --records, else a .csv extension, else a '|' in the
 * first line (sacct --parsable2), else CSV. */
static int is_sacct(const char *given, const char *path, const unsigned char *data, size_t len)
{
    if (given)
        return strcmp(given, "sacct") == 0;
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".csv") == 0)
        return 0;
    const unsigned char *eol = memchr(data, '\n', len);
    return memchr(data, '|', eol ? (size_t)(eol - data) : len) != NULL;
}

/* ==== the attribution ==================================================== */

typedef usage_job job;

/* Whether some record has a tag of key id k. */
static int has_key(const tco_records *rs, uint32_t k)
{
    size_t n;
    const uint32_t *pairs = tco_records_tag_pairs(rs, &n);
    for (size_t i = 0; i < n; i++)
        if (pairs[2 * i] == k)
            return 1;
    return 0;
}

/* The keys the records have, ", " between them, for a message. */
static const char *key_list(char *buf, size_t cap, const tco_records *rs)
{
    const tco_tags *tags = tco_records_tags(rs);
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t k = 0; k < tco_tags_count(tags) && used < cap; k++)
        if (has_key(rs, k))
            used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? ", " : "", tco_tags_text(tags, k));
    return buf[0] ? buf : "none";
}

static int request_of(const cmd_args *a, const job *j, tco_attribution_request *q)
{
    const tco_tags *tags = tco_records_tags(j->rs);
    char list[512], shown[256];
    for (uint32_t k = 0; k < j->nkeys; k++)
        if (tco_tags_find(tags, j->keys[k], strlen(j->keys[k]), &q->by_key[k], NULL) != TCO_OK ||
            !has_key(j->rs, q->by_key[k])) {
            say("%s: --by %s: no record has that tag key; they have: %s", j->path,
                shown_text(shown, sizeof shown, j->keys[k]), key_list(list, sizeof list, j->rs));
            return EXIT_REJECTED;
        }
    q->by_count = j->nkeys;
    int rc = rule_of(a->idle_rule, "--idle-rule", &q->idle_rule);
    if (rc || (rc = rule_of(a->shared_rule, "--shared-rule", &q->shared_rule)) != 0)
        return rc;
    q->owner_value = TCO_TAG_NONE;
    if (a->owner && tco_tags_find(tags, a->owner, strlen(a->owner), &q->owner_value, NULL) != TCO_OK) {
        say("%s: --owner %s: no record has that tag value", j->path, shown_text(shown, sizeof shown, a->owner));
        return EXIT_REJECTED;
    }
    q->period_start = j->period[0];
    q->period_end = j->period[1];
    return 0;
}

/* ==== printing =========================================================== */

const char *money_cents(char *buf, size_t cap, int64_t c)
{
    char whole[32];
    money(whole, sizeof whole, (double)(c / 100)); /* whole units, exact below 2^53 */
    long frac = (long)(c % 100);
    snprintf(buf, cap, "%s%s.%02ld", c < 0 && c > -100 ? "-" : "", whole, frac < 0 ? -frac : frac);
    return buf;
}

const char *iso_time(char *buf, size_t cap, double t)
{
    time_t s = (time_t)floor(t);
    struct tm tm;
    if (!gmtime_r(&s, &tm) || !strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(buf, cap, "%.0f", t);
    return buf;
}

const char *usage_value(const job *j, uint32_t id)
{
    return id == TCO_TAG_NONE ? NULL : tco_tags_text(tco_records_tags(j->rs), id);
}

static void attribute_table(FILE *f, const job *j, const tco_bill *b)
{
    char t0[32], t1[32], c[5][40];
    fprintf(f, "libtco %s: %s priced by %s, %s to %s (%s h)\n", tco_version_string(), j->path, j->label,
            iso_time(t0, sizeof t0, j->period[0]), iso_time(t1, sizeof t1, j->period[1]), num(c[0], sizeof c[0], b->period_hours));
    fprintf(f, "bill %s %s: direct %s, idle %s, shared %s\n", money_cents(c[0], sizeof c[0], b->total), j->currency,
            money_cents(c[1], sizeof c[1], b->direct), money_cents(c[2], sizeof c[2], b->idle), money_cents(c[3], sizeof c[3], b->shared));
    fprintf(f, "accelerator-hours: capacity %.6g, held %.6g, used %.6g, outside the period %.6g\n",
            b->capacity_accelerator_hours, b->held_accelerator_hours, b->used_accelerator_hours,
            b->clipped_accelerator_hours);
    fprintf(f, "records: %llu read, %llu outside the period, %llu overlapping another of the same job, %zu rows refused\n\n",
            (unsigned long long)b->records, (unsigned long long)b->records_outside,
            (unsigned long long)b->overlapping, tco_records_bad_count(j->rs));
    char head[80];
    snprintf(head, sizeof head, "%s%s%s", j->keys[0], j->nkeys > 1 ? " / " : "", j->nkeys > 1 ? j->keys[1] : "");
    fprintf(f, "  %-32s %12s %16s %16s %16s %16s %7s\n", head, "held h", "direct", "idle", "shared", "total", "share");
    tco_group g = { .size = sizeof g };
    for (size_t i = 0; i < tco_attribution_group_count(j->a); i++) {
        tco_attribution_group_at(&g, j->a, i, NULL);
        const char *v0 = usage_value(j, g.value[0]), *v1 = usage_value(j, g.value[1]);
        snprintf(head, sizeof head, "%s%s%s", v0 ? v0 : "(none)", j->nkeys > 1 ? " / " : "",
                 j->nkeys > 1 ? (v1 ? v1 : "(none)") : "");
        fprintf(f, "  %-32s %12.6g %16s %16s %16s %16s %6.1f%%\n", head, g.held_accelerator_hours,
                money_cents(c[0], sizeof c[0], g.direct), money_cents(c[1], sizeof c[1], g.idle),
                money_cents(c[2], sizeof c[2], g.shared), money_cents(c[3], sizeof c[3], g.total), 100 * g.share);
    }
}

static void json_categories(FILE *f, const int64_t *cat)
{
    fputc('{', f);
    for (int k = 0; k < (int)tco_category_count(); k++) {
        fputs(k ? ", " : "", f);
        json_str(f, tco_category_name(k));
        fprintf(f, ": %lld", (long long)cat[k]);
    }
    fputc('}', f);
}

void usage_json_head(FILE *f, const job *j, const char *schema)
{
    json_report_head(f, schema);
    fputs(",\n  \"records\": ", f);
    json_str(f, j->path);
    fputs(",\n  \"scenario\": ", f);
    json_str(f, j->label);
    fputs(",\n  \"currency\": ", f);
    json_str(f, j->currency);
}

static void attribute_json(FILE *f, const job *j, const tco_bill *b)
{
    usage_json_head(f, j, "libtco-attribution");
    fputs(",\n  \"by\": [", f);
    for (uint32_t k = 0; k < j->nkeys; k++) {
        fputs(k ? ", " : "", f);
        json_str(f, j->keys[k]);
    }
    fputs("],\n  \"bill\": {\"period_start\": ", f);
    json_num(f, j->period[0]);
    json_num_field(f, "period_end", j->period[1]);
    fprintf(f, ", \"total_cents\": %lld, \"direct_cents\": %lld, \"idle_cents\": %lld, \"shared_cents\": %lld",
            (long long)b->total, (long long)b->direct, (long long)b->idle, (long long)b->shared);
    fputs(",\n    \"category_cents\": ", f);
    json_categories(f, b->category);
    const struct { const char *name; double v; } hours[] = {
        { "period_hours", b->period_hours }, { "capacity_accelerator_hours", b->capacity_accelerator_hours },
        { "held_accelerator_hours", b->held_accelerator_hours }, { "used_accelerator_hours", b->used_accelerator_hours },
        { "clipped_accelerator_hours", b->clipped_accelerator_hours } };
    for (size_t i = 0; i < sizeof hours / sizeof *hours; i++) {
        fprintf(f, "%s\"%s\": ", i ? ", " : ",\n    ", hours[i].name);
        json_num(f, hours[i].v);
    }
    fprintf(f, ",\n    \"records\": %llu, \"records_outside\": %llu, \"overlapping\": %llu, \"rows_refused\": %zu},\n",
            (unsigned long long)b->records, (unsigned long long)b->records_outside,
            (unsigned long long)b->overlapping, tco_records_bad_count(j->rs));
    fputs("  \"groups\": [", f);
    tco_group g = { .size = sizeof g };
    for (size_t i = 0; i < tco_attribution_group_count(j->a); i++) {
        tco_attribution_group_at(&g, j->a, i, NULL);
        fputs(i ? ",\n    {" : "\n    {", f);
        for (uint32_t k = 0; k < j->nkeys; k++) {
            const char *v = usage_value(j, g.value[k]);
            json_str(f, j->keys[k]);
            fputs(": ", f);
            v ? json_str(f, v) : (void)fputs("null", f);
            fputs(", ", f);
        }
        fprintf(f, "\"total_cents\": %lld, \"direct_cents\": %lld, \"idle_cents\": %lld, \"shared_cents\": %lld, "
                   "\"category_cents\": ",
                (long long)g.total, (long long)g.direct, (long long)g.idle, (long long)g.shared);
        json_categories(f, g.category);
        json_num_field(f, "share", g.share);
        json_num_field(f, "held_accelerator_hours", g.held_accelerator_hours);
        json_num_field(f, "used_accelerator_hours", g.used_accelerator_hours);
        fprintf(f, ", \"records\": %llu}", (unsigned long long)g.records);
    }
    fputs("\n  ]\n}\n", f);
}

static void attribute_csv(FILE *f, const job *j)
{
    for (uint32_t k = 0; k < j->nkeys; k++) {
        csv_str(f, j->keys[k]);
        fputc(',', f);
    }
    fputs("total_cents,direct_cents,idle_cents,shared_cents", f);
    for (int k = 0; k < (int)tco_category_count(); k++)
        fprintf(f, ",%s_cents", tco_category_name(k));
    fputs(",share,held_accelerator_hours,used_accelerator_hours,records,currency\n", f);
    tco_group g = { .size = sizeof g };
    char b[3][32];
    for (size_t i = 0; i < tco_attribution_group_count(j->a); i++) {
        tco_attribution_group_at(&g, j->a, i, NULL);
        for (uint32_t k = 0; k < j->nkeys; k++) {
            const char *v = usage_value(j, g.value[k]);
            if (v)
                csv_str(f, v); /* a missing tag is an empty field */
            fputc(',', f);
        }
        fprintf(f, "%lld,%lld,%lld,%lld", (long long)g.total, (long long)g.direct, (long long)g.idle,
                (long long)g.shared);
        for (int k = 0; k < (int)tco_category_count(); k++)
            fprintf(f, ",%lld", (long long)g.category[k]);
        fprintf(f, ",%s,%s,%s,%llu,", num(b[0], sizeof b[0], g.share), num(b[1], sizeof b[1], g.held_accelerator_hours),
                num(b[2], sizeof b[2], g.used_accelerator_hours), (unsigned long long)g.records);
        csv_str(f, j->currency);
        fputc('\n', f);
    }
}

/* cents as the currency's units, exactly: -1234 -> "-12.34". */
static const char *units_of_cents(char *buf, size_t cap, int64_t c)
{
    unsigned long long u = c < 0 ? 0ULL - (unsigned long long)c : (unsigned long long)c;
    snprintf(buf, cap, "%s%llu.%02llu", c < 0 ? "-" : "", u / 100, u % 100);
    return buf;
}

/* The labels every attribution gauge carries: the period and currency,
 * then (for a group) its key and value, and the second pair's. */
static void attribution_labels(FILE *f, const job *j, const tco_group *g)
{
    char t[2][32];
    prom_label(f, "period_start", iso_time(t[0], sizeof t[0], j->period[0]), 1);
    prom_label(f, "period_end", iso_time(t[1], sizeof t[1], j->period[1]), 0);
    prom_label(f, "currency", j->currency, 0);
    for (uint32_t k = 0; g && k < j->nkeys; k++) {
        const char *v = usage_value(j, g->value[k]);
        prom_label(f, k ? "by2" : "by", j->keys[k], 0);
        prom_label(f, k ? "group2" : "group", v ? v : "(none)", 0);
    }
}

/* One sample: the gauge's name, the labels of the period and the group
 * (g NULL: the bill), a category if any, the value. */
static void sample(FILE *f, const job *j, const tco_group *g, const char *name, const char *category,
                   const char *value)
{
    fprintf(f, "%s{", name);
    attribution_labels(f, j, g);
    if (category)
        prom_label(f, "category", category, 0);
    fprintf(f, "} %s\n", value);
}

/* Prometheus text exposition of the bill and each group's part, in the
 * currency's units to the cent, for a dashboard to scrape. */
static void attribute_prometheus(FILE *f, const job *j, const tco_bill *b)
{
    char v[32];
    tco_group g = { .size = sizeof g };
    size_t n = tco_attribution_group_count(j->a);
    prom_family(f, "tco_bill_total", "the bill of the period, in the currency");
    sample(f, j, NULL, "tco_bill_total", NULL, units_of_cents(v, sizeof v, b->total));
    prom_family(f, "tco_attribution_total", "a group's part of the bill of the period, in the currency");
    for (size_t i = 0; i < n && tco_attribution_group_at(&g, j->a, i, NULL) == TCO_OK; i++)
        sample(f, j, &g, "tco_attribution_total", NULL, units_of_cents(v, sizeof v, g.total));
    prom_family(f, "tco_attribution_cost", "a group's part of the bill by category, in the currency");
    for (size_t i = 0; i < n && tco_attribution_group_at(&g, j->a, i, NULL) == TCO_OK; i++)
        for (int k = 0; k < (int)tco_category_count(); k++)
            sample(f, j, &g, "tco_attribution_cost", tco_category_name(k), units_of_cents(v, sizeof v, g.category[k]));
    prom_family(f, "tco_attribution_held_accelerator_hours", "accelerator-hours a group's records held in the period");
    for (size_t i = 0; i < n && tco_attribution_group_at(&g, j->a, i, NULL) == TCO_OK; i++)
        sample(f, j, &g, "tco_attribution_held_accelerator_hours", NULL, num(v, sizeof v, g.held_accelerator_hours));
}

/* The FOCUS 1.2 rows of the library (doc/focus.md). */
/* --focus NAME=VALUE into the request: the names are its fields. */
static int focus_request_of(const cmd_args *a, tco_focus_request *q)
{
    static const field_name names[] = {
        FIELD_NAME(tco_focus_request, billing_account_id), FIELD_NAME(tco_focus_request, billing_account_name),
        FIELD_NAME(tco_focus_request, provider_name),      FIELD_NAME(tco_focus_request, invoice_id),
        FIELD_NAME(tco_focus_request, region_id),          FIELD_NAME(tco_focus_request, region_name),
    };
    memset(q, 0, sizeof *q);
    q->size = sizeof *q;
    for (int i = 0; i < a->nfocus; i++) {
        const char *value;
        int k = field_of(a->focus[i], names, sizeof names / sizeof names[0], &value);
        if (k < 0)
            return usage("--focus takes NAME=VALUE, NAME one of billing_account_id, billing_account_name, "
                         "provider_name, invoice_id, region_id, region_name; not %s",
                         a->focus[i]);
        *(const char **)((char *)q + names[k].offset) = value;
    }
    return 0;
}

static int attribute_focus(FILE *f, const cmd_args *a, const job *j)
{
    tco_error err = TCO_ERROR_INIT;
    const tco_tags *tags = tco_records_tags(j->rs);
    tco_focus_request q;
    int rc = focus_request_of(a, &q);
    if (rc)
        return rc;
    size_t len;
    if (tco_attribution_focus_csv(j->a, tags, &q, NULL, 0, &len, &err) != TCO_OK) {
        say("%s: %s", j->path, err.message);
        return EXIT_REJECTED;
    }
    char *text = malloc(len + 1);
    if (!text) {
        say("%s: out of memory for %zu bytes of FOCUS rows", j->path, len + 1);
        return EXIT_IO;
    }
    if (tco_attribution_focus_csv(j->a, tags, &q, text, len + 1, &len, &err) != TCO_OK) {
        say("%s: %s", j->path, err.message);
        free(text);
        return EXIT_REJECTED;
    }
    fwrite(text, 1, len, f);
    free(text);
    return 0;
}

static int attribute_print(const cmd_args *a, const job *j)
{
    tco_bill b = { .size = sizeof b };
    tco_attribution_bill(&b, j->a, NULL);
    const char *format = a->format ? a->format : "table", *out = a->output ? a->output : "-";
    FILE *f = open_text(out);
    if (!f)
        return EXIT_IO;
    int rc = 0;
    if (strcmp(format, "json") == 0)
        attribute_json(f, j, &b);
    else if (strcmp(format, "csv") == 0)
        attribute_csv(f, j);
    else if (strcmp(format, "focus") == 0)
        rc = attribute_focus(f, a, j);
    else if (strcmp(format, "prometheus") == 0)
        attribute_prometheus(f, j, &b);
    else
        attribute_table(f, j, &b);
    if (rc) {
        abandon_text(f, out);
        return rc;
    }
    return close_text(f, out);
}

/* ==== the command ======================================================== */

/* --by KEY or KEY,KEY into keys (pointing into buf). */
static int keys_of(const char *by, char *buf, size_t cap, job *j)
{
    if (!by)
        return usage("attribute needs --by KEY (or KEY,KEY): the tag key to group by", NULL);
    if (strlen(by) >= cap)
        return usage("--by %s is too long", by);
    strcpy(buf, by);
    char *comma = strchr(buf, ',');
    j->keys[0] = buf;
    j->nkeys = 1;
    if (comma) {
        *comma = '\0';
        j->keys[1] = comma + 1;
        j->nkeys = 2;
    }
    if (!*j->keys[0] || (comma && (!*j->keys[1] || strchr(j->keys[1], ','))))
        return usage("--by takes one tag key or two (KEY,KEY), not %s", by);
    return 0;
}

/* --period START,END, else the records' own span. */
static int period_of(const char *period, const tco_records *rs, double out[2])
{
    if (period) {
        char buf[128];
        const char *comma = strchr(period, ',');
        if (!comma || (size_t)(comma - period) >= sizeof buf)
            return usage("--period takes START,END (such as 2026-11-01,2026-12-01), not %s", period);
        memcpy(buf, period, (size_t)(comma - period));
        buf[comma - period] = '\0';
        if (!time_of(buf, &out[0]) || !time_of(comma + 1, &out[1]))
            return usage("--period: times are YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ or epoch seconds, not %s", period);
        if (!(out[1] > out[0]))
            return usage("--period %s: the end must be after the start", period);
        return 0;
    }
    const tco_record *r = tco_records_data(rs);
    size_t n = tco_records_count(rs);
    out[0] = n ? r[0].start : 0;
    out[1] = n ? r[0].end : 0;
    for (size_t i = 1; i < n; i++) {
        const tco_record *ri = (const tco_record *)((const char *)r + i * r[0].size);
        out[0] = ri->start < out[0] ? ri->start : out[0];
        out[1] = ri->end > out[1] ? ri->end : out[1];
    }
    return 0;
}

/* tco waste without --by: grouped by project, else by the first record's
 * first tag key. */
static int default_key(job *j)
{
    const tco_tags *tags = tco_records_tags(j->rs);
    size_t pairs;
    const uint32_t *p = tco_records_tag_pairs(j->rs, &pairs);
    uint32_t k;
    if (tco_tags_find(tags, "project", 7, &k, NULL) == TCO_OK && has_key(j->rs, k))
        j->keys[0] = "project";
    else if (pairs)
        j->keys[0] = tco_tags_text(tags, p[0]);
    else {
        say("%s: the records have no tags: nothing to say whose waste it is", j->path);
        return EXIT_REJECTED;
    }
    j->nkeys = 1;
    return 0;
}

static int attribute_run(const cmd_args *a, job *j, const scenario *s, int waste)
{
    tco_attribution_request q = { .size = sizeof q };
    int rc = period_of(a->period, j->rs, j->period);
    if (!rc && waste && !j->nkeys)
        rc = default_key(j);
    if (rc || (rc = request_of(a, j, &q)) != 0)
        return rc;
    tco_error err = TCO_ERROR_INIT;
    tco_attribution *at;
    size_t pairs;
    const uint32_t *p = tco_records_tag_pairs(j->rs, &pairs);
    if (tco_attribute(&at, tco_records_data(j->rs), tco_records_count(j->rs), p, pairs, tco_records_tags(j->rs), &q,
                      s->t, s->w, s->p, &err) != TCO_OK) {
        say("%s: %s", j->path, err.message);
        return EXIT_REJECTED;
    }
    j->a = at;
    j->currency = "";
    scenario_get_text(s, TCO_HANDLE_PRICING, TCO_P_CURRENCY, &j->currency);
    rc = waste ? waste_print(a, j) : attribute_print(a, j);
    tco_attribution_free(at);
    return rc;
}

/* Reads the records, prices them for the period, and prints the bill
 * (tco attribute) or the waste (tco waste). */
static int records_command(const cmd_args *a, int waste)
{
    char by[2 * TCO_TAG_MAX + 2];
    job j = { .path = a->pos[0], .label = scenario_label(a->pos[1]) };
    tco_focus_request fq; /* a misspelt --focus is told before any work */
    int rc = !a->by && waste ? 0 : keys_of(a->by, by, sizeof by, &j);
    if (rc || (!waste && (rc = focus_request_of(a, &fq)) != 0))
        return rc;
    if (a->records && strcmp(a->records, "csv") != 0 && strcmp(a->records, "sacct") != 0)
        return usage("--records takes csv or sacct, not %s", a->records);
    scenario s;
    if ((rc = scenario_load(&s, a->pos[1], a)) != 0)
        return rc;
    unsigned char *data;
    size_t len;
    if ((rc = read_file(j.path, MAX_RECORDS_BYTES, &data, &len)) != 0) {
        scenario_free(&s);
        return rc;
    }
    tco_error err = TCO_ERROR_INIT;
    tco_records *rs = NULL;
    uint32_t flags = a->strict ? TCO_READ_STRICT : 0;
    int code = is_sacct(a->records, j.path, data, len)
                   ? tco_records_read_sacct(&rs, (const char *)data, len, flags, &err)
                   : tco_records_read_csv(&rs, (const char *)data, len, flags, &err);
    free(data);
    if (code != TCO_OK) {
        say("%s: %s", j.path, err.message);
        rc = EXIT_REJECTED;
    } else {
        for (size_t i = 0; i < tco_records_bad_count(rs); i++) { /* never dropped in silence */
            uint64_t line;
            const char *reason;
            tco_records_bad_at(rs, i, &line, &reason, NULL);
            say("%s: line %llu: %s (row skipped)", j.path, (unsigned long long)line, reason);
        }
        j.rs = rs;
        rc = attribute_run(a, &j, &s, waste);
    }
    tco_records_free(rs);
    scenario_free(&s);
    return rc;
}

int cmd_attribute(const cmd_args *a)
{
    return records_command(a, 0);
}

int cmd_waste(const cmd_args *a)
{
    return records_command(a, 1);
}
