/* libFuzzer target for one records reader: FUZZ_FORMAT 0 is CSV
 * (tco_records_read_csv), 1 Slurm accounting (tco_records_read_sacct).
 * Besides the sanitizers' checks, it checks: a refused text comes with a
 * status and a message and leaves *out alone; every record read keeps the
 * rules (start <= end within 1970 to 9999, quantities finite and not
 * negative, utilisation -1 or 0 to 1, a known class and state, tag pairs
 * in range naming texts that find their own ids); every refused row has a
 * line within the text, in order, and a printable ASCII reason; strict
 * mode reads the very same records when no row was refused, and otherwise
 * fails naming the first refused row's line. The records read then go
 * through the rest of the chain, priced by the built-in scenario over their
 * own span: an attribution adds up to its bill, the waste finder's findings
 * are finite, sorted and add up to their total, and the FOCUS rows have
 * every column and add up to the bill to the cent.
 * Built with -Dfuzz=true and clang (tests/fuzz/README.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tco.h>

#ifndef FUZZ_FORMAT
#error "FUZZ_FORMAT must be defined"
#endif
#if FUZZ_FORMAT == 0
#define READ tco_records_read_csv
#else
#define READ tco_records_read_sacct
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "fuzz_records: %s\n", what);
        abort();
    }
}

static void refused(int rc, const tco_error *err)
{
    check(rc < 0, "a refusal returns a negative status");
    check(err->code == rc, "the detail carries the status");
    check(err->message[0] != '\0', "a refusal has a message");
    check(memchr(err->message, '\0', sizeof err->message) != NULL, "the message is terminated");
    check(memchr(err->param_name, '\0', sizeof err->param_name) != NULL, "the name is terminated");
}

static int ascii(const char *s)
{
    for (; *s; s++)
        if (*s < 0x20 || *s > 0x7e)
            return 0;
    return 1;
}

static void check_records(const tco_records *r, size_t size, const char *text)
{
    const tco_record *d = tco_records_data(r);
    size_t n = tco_records_count(r), pairs;
    const uint32_t *p = tco_records_tag_pairs(r, &pairs);
    const tco_tags *t = tco_records_tags(r);
    size_t texts = tco_tags_count(t);
    check(t != NULL, "a set has its tags table");
    check((n == 0) == (d == NULL), "records data is NULL exactly when there are none");
    for (size_t i = 0; i < n; i++) {
        const tco_record *x = &d[i];
        check(x->size == sizeof *x, "record size");
        check(x->start >= 0 && x->start <= x->end && x->end <= 253402300799.0, "start <= end in 1970 to 9999");
        check(x->accelerators >= 0 && x->accelerators <= 1e7, "accelerators in 0 to 1e7");
        check(x->utilisation == -1 || (x->utilisation >= 0 && x->utilisation <= 1), "utilisation");
        check(tco_price_class_name(x->price_class) != NULL, "a known price class");
        check(tco_job_state_name(x->state) != NULL, "a known state");
        for (int k = 0; k < 3; k++)
            check(x->storage_gb_hours[k] >= 0 && x->storage_gb_hours[k] <= 1.7976931348623157e308 &&
                      x->traffic_gb[k] >= 0 && x->traffic_gb[k] <= 1.7976931348623157e308,
                  "storage and traffic finite, not negative");
        check((size_t)x->first_tag + x->tag_count <= pairs, "tag pairs in range");
    }
    for (size_t k = 0; k < 2 * pairs; k++) {
        const char *s = tco_tags_text(t, p[k]);
        check(p[k] < texts && s != NULL, "a pair names a text of the table");
        size_t len = strlen(s);
        uint32_t id;
        check(len <= TCO_TAG_MAX, "a text within TCO_TAG_MAX");
        check(tco_tags_find(t, s, len, &id, NULL) == TCO_OK && id == p[k], "a text finds its own id");
    }
    uint64_t lines = 1, last = 0;
    for (size_t i = 0; i < size; i++)
        lines += text[i] == '\n';
    for (size_t i = 0; i < tco_records_bad_count(r); i++) {
        uint64_t line;
        const char *why;
        check(tco_records_bad_at(r, i, &line, &why, NULL) == TCO_OK, "bad_at within the count");
        check(line >= 1 && line <= lines && line > last, "refused rows in order, within the text");
        check(why[0] && ascii(why), "a printable ASCII reason");
        last = line;
    }
    check(tco_records_bad_at(r, tco_records_bad_count(r), NULL, NULL, NULL) == TCO_E_INDEX, "bad_at past the end");
}

/* The built-in scenario, frozen once. */
static tco_topology *T;
static tco_workload *W;
static tco_pricing *P;

static void scenario(void)
{
    if (T)
        return;
    check(tco_topology_new(&T, NULL) == TCO_OK && tco_workload_new(&W, NULL) == TCO_OK &&
              tco_pricing_new(&P, NULL) == TCO_OK,
          "the built-in scenario");
    check(tco_topology_freeze(T, NULL) == TCO_OK && tco_workload_freeze(W, NULL) == TCO_OK &&
              tco_pricing_freeze(P, NULL) == TCO_OK,
          "the built-in scenario freezes");
}

/* The cents of a FOCUS money field ("-12.34"), and the fields of a row. */
static int64_t cents_of(const char *s, size_t n)
{
    int neg = n && *s == '-';
    int64_t v = 0;
    for (size_t i = (size_t)neg; i < n; i++)
        if (s[i] != '.')
            v = v * 10 + (s[i] - '0');
    return neg ? -v : v;
}

static void check_focus(const char *text, size_t len, int64_t total)
{
    check(len > 0 && text[len - 1] == '\n', "the FOCUS rows end in a newline");
    /* The header says how many columns a row has and where BilledCost is. */
    int columns = 1, billed = -1;
    const char *eol = memchr(text, '\n', len);
    for (const char *p = text, *start = text; p <= eol; p++)
        if (*p == ',' || *p == '\n') {
            if ((size_t)(p - start) == 10 && memcmp(start, "BilledCost", 10) == 0)
                billed = columns - 1;
            columns += *p == ',';
            start = p + 1;
        }
    check(billed >= 0, "the header names BilledCost");
    int64_t sum = 0;
    size_t i = (size_t)(eol - text) + 1;
    while (i < len) {
        int field = 0, quoted = 0;
        size_t start = i;
        for (; i < len; i++) {
            char c = text[i];
            if (c == '"')
                quoted = !quoted;
            else if (!quoted && (c == ',' || c == '\n')) {
                if (field == billed)
                    sum += cents_of(text + start, i - start);
                field++;
                start = i + 1;
                if (c == '\n')
                    break;
            }
        }
        check(field == columns, "every FOCUS row has every column");
        i++;
    }
    check(sum == total, "the FOCUS rows add up to the bill to the cent");
}

/* Attributes the records over their span by their first key; then waste
 * and FOCUS. */
static void chain(const tco_records *r)
{
    size_t n = tco_records_count(r), pairs;
    const tco_record *d = tco_records_data(r);
    const uint32_t *p = tco_records_tag_pairs(r, &pairs);
    if (n == 0 || pairs == 0)
        return;
    scenario();
    tco_attribution_request q = { .size = sizeof q, .by_count = 1, .idle_rule = TCO_SPREAD_USAGE,
                                  .shared_rule = TCO_SPREAD_EVEN, .by_key = { p[0], 0 } };
    q.period_start = d[0].start;
    q.period_end = d[0].end;
    for (size_t i = 1; i < n; i++) {
        q.period_start = d[i].start < q.period_start ? d[i].start : q.period_start;
        q.period_end = d[i].end > q.period_end ? d[i].end : q.period_end;
    }
    if (!(q.period_end > q.period_start))
        q.period_end = q.period_start + 3600;
    tco_attribution *a = NULL;
    tco_error err = TCO_ERROR_INIT;
    int rc = tco_attribute(&a, d, n, p, pairs, tco_records_tags(r), &q, T, W, P, &err);
    if (rc != TCO_OK) {
        refused(rc, &err);
        check(a == NULL, "a refused attribution leaves *out alone");
        return;
    }
    tco_bill b = { .size = sizeof b };
    check(tco_attribution_bill(&b, a, NULL) == TCO_OK, "the bill");
    int64_t sum = 0;
    for (size_t g = 0; g < tco_attribution_group_count(a); g++) {
        tco_group x = { .size = sizeof x };
        check(tco_attribution_group_at(&x, a, g, NULL) == TCO_OK, "a group");
        sum += x.total;
    }
    check(sum == b.total, "the groups add up to the bill");

    tco_findings *f = NULL;
    if ((rc = tco_find_waste(&f, a, d, n, p, pairs, tco_records_tags(r), NULL, &err)) == TCO_OK) {
        double total = 0, last = INFINITY;
        for (size_t i = 0; i < tco_findings_count(f); i++) {
            tco_finding x = { .size = sizeof x };
            check(tco_findings_at(&x, f, i, NULL) == TCO_OK, "a finding");
            check(isfinite(x.cost) && x.cost > 0 && x.cost <= last, "findings finite, positive, largest first");
            check(isfinite(x.per_day) && x.per_day >= 0 && x.since <= x.until, "a finding's day rate and window");
            check(tco_finding_kind_name(x.kind) != NULL, "a known kind");
            last = x.cost;
            total += x.cost;
        }
        double t = tco_findings_total(f);
        check(isfinite(t) && fabs(t - total) <= 1e-9 * fabs(t) + 1e-9, "the findings add up to their total");
        tco_findings_free(f);
    } else {
        refused(rc, &err);
    }

    size_t len = 0;
    if ((rc = tco_attribution_focus_csv(a, tco_records_tags(r), NULL, NULL, 0, &len, &err)) == TCO_OK) {
        char *text = malloc(len + 1);
        if (text && tco_attribution_focus_csv(a, tco_records_tags(r), NULL, text, len + 1, &len, &err) == TCO_OK)
            check_focus(text, len, b.total);
        free(text);
    } else {
        refused(rc, &err);
    }
    tco_attribution_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    tco_records *r = NULL, *s = NULL;
    tco_error err = TCO_ERROR_INIT;
    int rc = READ(&r, text, size, 0, &err);
    if (rc != TCO_OK) {
        refused(rc, &err);
        check(r == NULL, "a refused read leaves *out alone");
        check(rc != TCO_E_NULL && rc != TCO_E_INDEX, "a text is refused only for its header or memory");
        check(ascii(err.message), "a printable ASCII message");
        return 0;
    }
    check_records(r, size, text);
    chain(r);

    tco_error serr = TCO_ERROR_INIT;
    int src = READ(&s, text, size, TCO_READ_STRICT, &serr);
    if (tco_records_bad_count(r) == 0) {
        check(src == TCO_OK, "strict reads what holds no bad row");
        size_t n = tco_records_count(r), pa, pb;
        check(tco_records_count(s) == n, "strict reads as many records");
        check(n == 0 || memcmp(tco_records_data(r), tco_records_data(s), n * sizeof(tco_record)) == 0,
              "strict reads the same records");
        const uint32_t *a = tco_records_tag_pairs(r, &pa), *b = tco_records_tag_pairs(s, &pb);
        check(pa == pb && (pa == 0 || memcmp(a, b, 2 * pa * sizeof *a) == 0), "and the same tags");
        tco_records_free(s);
    } else if (src != TCO_E_NOMEM) {
        refused(src, &serr);
        check(s == NULL, "a failed strict read leaves *out alone");
        uint64_t line;
        const char *why;
        tco_records_bad_at(r, 0, &line, &why, NULL);
        char at[32];
        int k = snprintf(at, sizeof at, "line %llu: ", (unsigned long long)line);
        check(strncmp(serr.message, at, (size_t)k) == 0, "strict names the first refused row's line");
        check(strncmp(serr.message + k, why, strlen(serr.message + k)) == 0, "with its reason");
        check(src == TCO_E_RANGE || src == TCO_E_TYPE, "a bad row is TCO_E_RANGE or TCO_E_TYPE");
    }
    tco_records_free(r);
    return 0;
}
