/* Usage records as plain CSV (doc/records.md, "CSV"): RFC 4180 fields
 * (quoted fields may hold commas, newlines and doubled quotes), a header
 * row naming the columns, one record a row. Nothing is allocated per row:
 * the buffers are sized from the header. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records/reader.h"

enum {
    C_START, C_END, C_ACCEL, C_UTIL, C_CLASS, C_STATE,
    C_HOT, C_WARM, C_COLD, C_IN_REGION, C_CROSS_REGION, C_INTERNET,
    C_KINDS,
    C_TAG = C_KINDS
};
static const char *const kind_names[C_KINDS] = {
    "start", "end", "accelerators", "utilisation", "price_class", "state",
    "storage_hot_gb_hours", "storage_warm_gb_hours", "storage_cold_gb_hours",
    "traffic_in_region_gb", "traffic_cross_region_gb", "traffic_internet_gb",
};
#define TAG_PREFIX "tag."

/* A field is unquoted into its column's slot of FIELD_CAP bytes: enough
 * for any tag value, so that a longer one is known to be too long. */
#define FIELD_CAP (TCO_TAG_MAX + 1)
/* A header cell: "tag." and a key. */
#define HEAD_CAP (sizeof TAG_PREFIX + TCO_TAG_MAX)

typedef struct column {
    int kind;
    uint32_t key;                /* a tag column's key id */
    char label[TCO__SHOW_MAX];   /* its name in reasons, ASCII-safe */
} column;

/* Where the reader is: the byte and its line. */
typedef struct cursor {
    const char *s;
    size_t n, i;
    uint64_t line;
} cursor;

enum { MORE, ROW_END };                                        /* what follows a field */
enum { Q_OK, Q_INSIDE, Q_AFTER, Q_OPEN };                      /* quoting problems */
static const char *const quote_problems[] = {
    "", "has a quote inside an unquoted field (quote the whole field and double the quote)",
    "has text after a closing quote", "has a quoted field that is not closed before the end of the text",
};

typedef struct field {
    const char *p;   /* its bytes: in the text, or unquoted into a slot */
    size_t n;        /* all its bytes (only FIELD_CAP of them kept in a slot) */
    int quoting;     /* Q_* */
} field;

typedef struct reader {
    tco_records *rs;
    uint32_t flags;
    tco_error *err;
    cursor c;
    uint64_t head_line;
    column *col;
    size_t ncols, ntags;
    char *slots;     /* ncols + 1 slots of FIELD_CAP bytes (the last for extra fields) */
    field *tagv;     /* a row's tag values, by column */
    uint32_t *pairs; /* 2 x ntags */
} reader;

/* The row being read: its record and its first problem. */
typedef struct row {
    tco_record rec;
    int code;        /* TCO_OK, or the first problem's status */
    size_t col;
    char why[TCO__REASON_MAX];
} row;

static void count_lines(cursor *c, size_t from, size_t to)
{
    for (const char *p = c->s + from, *end = c->s + to; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        c->line++;
}

/* Copies k bytes into a slot of cap bytes at *o, counting those that do
 * not fit. */
static void put(char *slot, size_t cap, size_t *o, const char *src, size_t k)
{
    if (*o < cap)
        memcpy(slot + *o, src, k < cap - *o ? k : cap - *o);
    *o += k;
}

/* The field at the cursor; returns MORE or ROW_END. */
static int next_field(cursor *c, char *slot, size_t cap, field *f)
{
    size_t i = c->i;
    f->quoting = Q_OK;
    if (i < c->n && c->s[i] == '"') {
        size_t from = ++i, o = 0;
        int copied = 0;
        for (;;) {
            const char *q = memchr(c->s + i, '"', c->n - i);
            if (!q) {
                count_lines(c, i, c->n);
                f->p = c->s + from;
                f->n = c->n - from;
                f->quoting = Q_OPEN;
                c->i = c->n;
                return ROW_END;
            }
            size_t j = (size_t)(q - c->s);
            count_lines(c, i, j);
            if (j + 1 < c->n && c->s[j + 1] == '"') { /* "" is one quote */
                if (!copied)
                    put(slot, cap, &o, c->s + from, j + 1 - from);
                else
                    put(slot, cap, &o, c->s + i, j + 1 - i);
                copied = 1;
                i = j + 2;
                continue;
            }
            if (copied) {
                put(slot, cap, &o, c->s + i, j - i);
                f->p = slot;
                f->n = o < cap ? o : cap; /* cut: cap is past every limit a value has */
            } else {
                f->p = c->s + from;
                f->n = j - from;
            }
            i = j + 1;
            break;
        }
        if (i == c->n) {
            c->i = i;
            return ROW_END;
        }
        if (c->s[i] == ',') {
            c->i = i + 1;
            return MORE;
        }
        if (c->s[i] == '\r' && i + 1 == c->n) {
            c->i = c->n;
            return ROW_END;
        }
        if (c->s[i] == '\n' || (c->s[i] == '\r' && c->s[i + 1] == '\n')) {
            c->i = i + 1 + (c->s[i] == '\r');
            c->line++;
            return ROW_END;
        }
        f->quoting = Q_AFTER; /* read on to the end of the field, as if unquoted */
    }
    size_t j = i;
    while (j < c->n && c->s[j] != ',' && c->s[j] != '\n') {
        if (c->s[j] == '"' && f->quoting == Q_OK)
            f->quoting = Q_INSIDE;
        j++;
    }
    if (f->quoting != Q_AFTER) { /* a CR before the line's end belongs to it */
        f->p = c->s + i;
        f->n = j - i - (j > i && c->s[j - 1] == '\r' && (j == c->n || c->s[j] == '\n'));
    }
    if (j == c->n) {
        c->i = j;
        return ROW_END;
    }
    c->i = j + 1;
    if (c->s[j] == ',')
        return MORE;
    c->line++;
    return ROW_END;
}

/* Skips blank lines; 0 at the end of the text. */
static int next_row(cursor *c)
{
    while (c->i < c->n) {
        if (c->s[c->i] == '\n') {
            c->i++;
        } else if (c->s[c->i] == '\r' && c->i + 1 < c->n && c->s[c->i + 1] == '\n') {
            c->i += 2;
        } else {
            return 1;
        }
        c->line++;
    }
    return 0;
}

/* A column's name for messages: as written when plain ASCII, else shown. */
static void label_of(char *label, const char *s, size_t n)
{
    int plain = n > 0 && n <= TCO__SHOW_BYTES;
    for (size_t i = 0; plain && i < n; i++)
        plain = s[i] > 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\';
    if (plain) {
        memcpy(label, s, n);
        label[n] = '\0';
    } else {
        tco__show(label, TCO__SHOW_MAX, s, n);
    }
}

static int header_error(reader *r, int code, const char *name, const char *fmt, ...) TCO__PRINTF(4, 5);
static int header_error(reader *r, int code, const char *name, const char *fmt, ...)
{
    char why[TCO__REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return tco__fail_named(r->err, code, name, "line %llu: %s", (unsigned long long)r->head_line, why);
}

/* One header cell: a column of a known kind or a tag column. */
static int header_cell(reader *r, size_t k, const field *f, int *seen)
{
    column *col = &r->col[k];
    if (f->quoting)
        return header_error(r, TCO_E_TYPE, "", "the header row %s (column %zu)", quote_problems[f->quoting], k + 1);
    label_of(col->label, f->p, f->n < HEAD_CAP ? f->n : HEAD_CAP);
    if (f->n == 0)
        return header_error(r, TCO_E_TYPE, "", "column %zu of the header has no name", k + 1);
    size_t pre = sizeof TAG_PREFIX - 1;
    if (f->n > pre && memcmp(f->p, TAG_PREFIX, pre) == 0) {
        const char *key = f->p + pre;
        size_t n = f->n - pre, at;
        const char *problem = tco__tag_problem(key, n > TCO_TAG_MAX ? TCO_TAG_MAX + 1 : n, &at);
        if (problem)
            return header_error(r, TCO_E_RANGE, col->label,
                                "column %s: the key %s (byte %zu): tag keys are at most %d bytes of UTF-8 without "
                                "control characters",
                                col->label, problem, at, TCO_TAG_MAX);
        col->kind = C_TAG;
        int rc = tco__tags_intern_hashed(r->rs->tags, key, n, tco__tags_hash(key, n), &col->key, r->err);
        if (rc)
            return rc;
        if (col->key < r->ntags) /* keys are interned in header order: an old id is a repeat */
            return header_error(r, TCO_E_TYPE, col->label, "column %s appears twice", col->label);
        r->ntags++;
        return TCO_OK;
    }
    for (int kind = 0; kind < C_KINDS; kind++) {
        if (f->n == strlen(kind_names[kind]) && memcmp(f->p, kind_names[kind], f->n) == 0) {
            if (seen[kind])
                return header_error(r, TCO_E_TYPE, col->label, "column %s appears twice", col->label);
            seen[kind] = 1;
            col->kind = kind;
            return TCO_OK;
        }
    }
    return header_error(r, TCO_E_UNKNOWN_PARAM, col->label,
                        "column %s is not a records column: allowed start, end, accelerators, utilisation, price_class, state, storage_{hot,warm,cold}_gb_hours, traffic_{in_region,cross_region,internet}_gb and tag.<key> (doc/records.md)",
                        col->label);
}

/* The header row: counted first, so that every buffer is sized once. */
static int read_header(reader *r)
{
    cursor *c = &r->c;
    if (c->n >= 3 && memcmp(c->s, "\xef\xbb\xbf", 3) == 0)
        c->i = 3; /* a UTF-8 byte order mark, as spreadsheets write */
    if (!next_row(c))
        return tco__fail(r->err, TCO_E_TYPE,
                         "the text has no header row: a records CSV starts with a row naming its columns (start,end,accelerators,... doc/records.md)");
    cursor at = *c;
    r->head_line = c->line;
    char cell[HEAD_CAP];
    field f;
    size_t n = 1;
    while (next_field(c, cell, sizeof cell, &f) == MORE)
        n++;
    *c = at;
    r->ncols = n;
    r->col = calloc(n, sizeof *r->col);
    r->slots = malloc((n + 1) * FIELD_CAP);
    r->tagv = calloc(n, sizeof *r->tagv);
    r->pairs = malloc(2 * n * sizeof *r->pairs);
    if (!r->col || !r->slots || !r->tagv || !r->pairs)
        return tco__fail(r->err, TCO_E_NOMEM, "no memory for a CSV of %zu columns", n);
    int seen[C_KINDS] = { 0 }, rc = TCO_OK;
    for (size_t k = 0; k < n && rc == TCO_OK; k++) {
        next_field(c, cell, sizeof cell, &f);
        rc = header_cell(r, k, &f, seen);
    }
    if (rc)
        return rc;
    for (int kind = C_START; kind <= C_ACCEL; kind++)
        if (!seen[kind])
            return tco__fail_named(r->err, TCO_E_TYPE, kind_names[kind],
                                   "the header has no %s column: start, end and accelerators are required (doc/records.md)",
                                   kind_names[kind]);
    return TCO_OK;
}

static void problem(row *w, int code, size_t col, const char *fmt, ...) TCO__PRINTF(4, 5);
static void problem(row *w, int code, size_t col, const char *fmt, ...)
{
    if (w->code)
        return; /* the first problem of a row is the one reported */
    w->code = code;
    w->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->why, sizeof w->why, fmt, ap);
    va_end(ap);
}

/* A time: ISO 8601 with Z or an offset, or epoch seconds. */
static int csv_time(const field *f, double *t)
{
    if (f->n >= 5 && f->p[4] == '-')
        return tco__parse_time(f->p, f->n, 1, t);
    int rc = tco__parse_number(f->p, f->n, t);
    if (rc == PARSE_OK && (*t < 0 || *t > TCO__TIME_MAX))
        rc = PARSE_RANGE;
    return rc;
}

/* A named choice (tco_price_class_name, tco_job_state_name): its value,
 * or -1. */
static int32_t choice(const field *f, const char *(*name)(int32_t))
{
    for (int32_t v = 0; name(v); v++)
        if (strlen(name(v)) == f->n && memcmp(name(v), f->p, f->n) == 0)
            return v;
    return -1;
}

/* No bound but finiteness (storage and traffic). */
#define QUANTITY_MAX 1.7976931348623157e308

/* A quantity of at least 0 and at most `most`; empty gives `absent`. */
static void quantity(row *w, size_t k, const column *col, const field *f, double most, double absent, double *out)
{
    char shown[TCO__SHOW_MAX];
    if (f->n == 0) {
        *out = absent;
        if (absent < 0 && col->kind != C_UTIL)
            problem(w, TCO_E_TYPE, k, "%s is empty: every record needs it", col->label);
        return;
    }
    double v;
    int rc = tco__parse_number(f->p, f->n, &v);
    if (rc == PARSE_OK && v >= 0 && v <= most) {
        *out = v;
        return;
    }
    tco__show(shown, sizeof shown, f->p, f->n);
    if (rc == PARSE_SYNTAX)
        problem(w, TCO_E_TYPE, k, "%s = %s is not a number", col->label, shown);
    else if (rc == PARSE_RANGE)
        problem(w, TCO_E_RANGE, k, "%s = %s is too large to be a finite number", col->label, shown);
    else if (most < QUANTITY_MAX) /* read, but outside 0 to most */
        problem(w, TCO_E_RANGE, k, "%s = %s is out of range: allowed 0 to %g%s", col->label, shown, most,
                col->kind == C_UTIL ? " (empty when unknown)" : "");
    else
        problem(w, TCO_E_RANGE, k, "%s = %s is negative: allowed 0 or more", col->label, shown);
}

static void take(reader *r, row *w, size_t k, const field *f)
{
    const column *col = &r->col[k];
    tco_record *rec = &w->rec;
    char shown[TCO__SHOW_MAX];
    switch (col->kind) {
    case C_START:
    case C_END: {
        double *t = col->kind == C_START ? &rec->start : &rec->end;
        int rc = f->n ? csv_time(f, t) : PARSE_SYNTAX;
        if (rc == PARSE_OK)
            break;
        tco__show(shown, sizeof shown, f->p, f->n);
        if (f->n == 0)
            problem(w, TCO_E_TYPE, k, "%s is empty: every record needs it", col->label);
        else if (rc == PARSE_SYNTAX)
            problem(w, TCO_E_TYPE, k, "%s = %s is not a time: allowed YYYY-MM-DDTHH:MM:SSZ (or an offset such as +01:00 for Z) or epoch seconds",
                    col->label, shown);
        else /* PARSE_RANGE */
            problem(w, TCO_E_RANGE, k, "%s = %s is outside 1970 to 9999", col->label, shown);
        break;
    }
    case C_ACCEL:
        quantity(w, k, col, f, tco__params[IX_ACCELERATORS].hi, -1, &rec->accelerators);
        break;
    case C_UTIL:
        quantity(w, k, col, f, 1, -1, &rec->utilisation);
        break;
    case C_CLASS:
    case C_STATE: {
        int cls = col->kind == C_CLASS;
        int32_t v = f->n == 0 ? (cls ? TCO_CLASS_OWNED : TCO_JOB_COMPLETED)
                              : choice(f, cls ? tco_price_class_name : tco_job_state_name);
        if (v < 0) {
            tco__show(shown, sizeof shown, f->p, f->n);
            problem(w, TCO_E_RANGE, k, "%s = %s is not a %s: allowed %s", col->label, shown,
                    cls ? "price class" : "job state",
                    cls ? "on_demand, reserved, spot, owned" : "completed, failed, cancelled, running");
        }
        *(cls ? &rec->price_class : &rec->state) = v;
        break;
    }
    case C_HOT:
    case C_WARM:
    case C_COLD:
        quantity(w, k, col, f, QUANTITY_MAX, 0, &rec->storage_gb_hours[col->kind - C_HOT]);
        break;
    case C_IN_REGION:
    case C_CROSS_REGION:
    case C_INTERNET:
        quantity(w, k, col, f, QUANTITY_MAX, 0, &rec->traffic_gb[col->kind - C_IN_REGION]);
        break;
    default: { /* a tag */
        size_t at;
        const char *why = tco__tag_problem(f->p, f->n > TCO_TAG_MAX ? TCO_TAG_MAX + 1 : f->n, &at);
        if (why) {
            tco__show(shown, sizeof shown, f->p, f->n > FIELD_CAP ? FIELD_CAP : f->n);
            problem(w, TCO_E_RANGE, k,
                    "%s = %s %s (byte %zu): tags are at most %d bytes of UTF-8 without control characters",
                    col->label, shown, why, at, TCO_TAG_MAX);
        }
        r->tagv[k] = *f;
        break;
    }
    }
}

static int refuse(reader *r, uint64_t line, int code, const char *name, const char *fmt, ...) TCO__PRINTF(5, 6);
static int refuse(reader *r, uint64_t line, int code, const char *name, const char *fmt, ...)
{
    char why[TCO__REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return tco__refuse(r->rs, r->flags, line, code, name, why, r->err);
}

static int read_row(reader *r)
{
    uint64_t line = r->c.line;
    row w;
    memset(&w, 0, sizeof w);
    w.rec.utilisation = -1;
    w.rec.price_class = TCO_CLASS_OWNED;
    w.rec.state = TCO_JOB_COMPLETED;
    size_t nf = 0, bad_col = 0;
    int quoting = Q_OK, end;
    do {
        field f;
        size_t k = nf < r->ncols ? nf : r->ncols;
        end = next_field(&r->c, r->slots + k * FIELD_CAP, FIELD_CAP, &f);
        if (f.quoting && !quoting) {
            quoting = f.quoting;
            bad_col = nf;
        }
        if (nf < r->ncols && !quoting)
            take(r, &w, nf, &f);
        nf++;
    } while (end == MORE);

    if (quoting)
        return refuse(r, line, TCO_E_TYPE, "", "the row %s (field %zu)", quote_problems[quoting], bad_col + 1);
    if (nf != r->ncols)
        return refuse(r, line, TCO_E_TYPE, "", "the row has %zu fields, the header %zu", nf, r->ncols);
    if (w.code)
        return refuse(r, line, w.code, r->col[w.col].label, "%s", w.why);
    if (w.rec.end < w.rec.start)
        return refuse(r, line, TCO_E_RANGE, "end", "end = %.15g is before start = %.15g (seconds since 1970)",
                      w.rec.end, w.rec.start);
    size_t n = 0;
    for (size_t k = 0; k < r->ncols; k++) {
        if (r->col[k].kind != C_TAG || r->tagv[k].n == 0)
            continue; /* an empty value is no tag */
        const field *f = &r->tagv[k];
        uint32_t id;
        int rc = tco__tags_intern_hashed(r->rs->tags, f->p, f->n, tco__tags_hash(f->p, f->n), &id, r->err);
        if (rc)
            return rc;
        r->pairs[2 * n] = r->col[k].key;
        r->pairs[2 * n + 1] = id;
        n++;
    }
    return tco__records_append(r->rs, &w.rec, r->pairs, n, r->err);
}

int tco_records_read_csv(tco_records **out, const char *text, size_t len, uint32_t flags, tco_error *err)
{
    int rc = tco__read_args(out, text, flags, err);
    if (rc)
        return rc;
    reader r;
    memset(&r, 0, sizeof r);
    r.flags = flags;
    r.err = err;
    r.c = (cursor){ text, len, 0, 1 };
    if ((rc = tco__records_new(&r.rs, err)) == TCO_OK && (rc = read_header(&r)) == TCO_OK)
        while (rc == TCO_OK && next_row(&r.c))
            rc = read_row(&r);
    free(r.col);
    free(r.slots);
    free(r.tagv);
    free(r.pairs);
    if (rc) {
        tco_records_free(r.rs);
        return rc;
    }
    *out = r.rs;
    return TCO_OK;
}
