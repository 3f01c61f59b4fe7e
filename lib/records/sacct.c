/* Slurm accounting as
 *   sacct --parsable2 --noheader \
 *     --format=JobID,JobName,Account,User,Partition,State,Start,End,ElapsedRaw,AllocTRES
 * prints it: one job allocation, or one of its steps, a line, fields
 * separated by '|' (doc/records.md, "Slurm accounting"). An allocation
 * line becomes a record; its steps (123.batch, 123.0...) ran inside that
 * allocation, on its GPUs, and are skipped so that nothing is counted
 * twice. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "records/reader.h"

enum { F_JOBID, F_JOBNAME, F_ACCOUNT, F_USER, F_PARTITION, F_STATE, F_START, F_END, F_ELAPSED, F_TRES, FIELDS };
static const char *const field_names[FIELDS] = { "JobID", "JobName", "Account", "User", "Partition",
                                                 "State", "Start", "End", "ElapsedRaw", "AllocTRES" };

/* Tag keys, in the order a record's tags come; the account is also the
 * project, the key attribution groups by. */
enum { K_JOB_ID, K_JOB_NAME, K_ACCOUNT, K_PROJECT, K_USER, K_PARTITION, KEYS };
static const char *const key_names[KEYS] = { "job_id", "job_name", "account", "project", "user", "partition" };
/* The field each key's value comes from. */
static const int key_field[KEYS] = { F_JOBID, F_JOBNAME, F_ACCOUNT, F_ACCOUNT, F_USER, F_PARTITION };

/* Slurm's job states (sacct(1), "JOB STATE CODES", and the base states of
 * job_state_codes) as tco_job_state. A job ended by the system before it
 * finished (time limit, memory, a node, preemption, requeue) failed: its
 * work since the last checkpoint is lost, as after a fault. A job still
 * holding its allocation (suspended, completing, ...) is running. */
static const struct {
    const char *name;
    int32_t state;
} states[] = {
    { "COMPLETED", TCO_JOB_COMPLETED },     { "FAILED", TCO_JOB_FAILED },
    { "TIMEOUT", TCO_JOB_FAILED },          { "OUT_OF_MEMORY", TCO_JOB_FAILED },
    { "NODE_FAIL", TCO_JOB_FAILED },        { "BOOT_FAIL", TCO_JOB_FAILED },
    { "DEADLINE", TCO_JOB_FAILED },         { "PREEMPTED", TCO_JOB_FAILED },
    { "REQUEUED", TCO_JOB_FAILED },         { "REQUEUE_FED", TCO_JOB_FAILED },
    { "REQUEUE_HOLD", TCO_JOB_FAILED },     { "SPECIAL_EXIT", TCO_JOB_FAILED },
    { "CANCELLED", TCO_JOB_CANCELLED },     { "REVOKED", TCO_JOB_CANCELLED },
    { "RUNNING", TCO_JOB_RUNNING },         { "SUSPENDED", TCO_JOB_RUNNING },
    { "COMPLETING", TCO_JOB_RUNNING },      { "CONFIGURING", TCO_JOB_RUNNING },
    { "RESIZING", TCO_JOB_RUNNING },        { "STOPPED", TCO_JOB_RUNNING },
    { "SIGNALING", TCO_JOB_RUNNING },       { "STAGE_OUT", TCO_JOB_RUNNING },
};

typedef struct span {
    const char *p;
    size_t n;
} span;

typedef struct reader {
    tco_records *rs;
    uint32_t flags;
    tco_error *err;
    uint32_t key[KEYS];
    int seen;                       /* a line came before: no header past it */
    span job;                       /* JobID of the last allocation line, in the text */
    int job_valid;
} reader;

static int is(span s, const char *word)
{
    size_t n = strlen(word);
    return s.n == n && memcmp(s.p, word, n) == 0;
}

static int is_nocase(span s, const char *word)
{
    size_t n = strlen(word);
    if (s.n != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char a = s.p[i], b = word[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z')
            b = (char)(b - 'A' + 'a');
        if (a != b)
            return 0;
    }
    return 1;
}

/* Start and End of a job that has not started or not ended. */
static int unknown(span s)
{
    return is(s, "Unknown") || is(s, "None");
}

static int refuse(reader *r, uint64_t line, int code, int field, const char *fmt, ...) TCO__PRINTF(5, 6);
static int refuse(reader *r, uint64_t line, int code, int field, const char *fmt, ...)
{
    char reason[TCO__REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return tco__refuse(r->rs, r->flags, line, code, field < 0 ? "" : field_names[field], reason, r->err);
}

/* The state of a job that started, from "COMPLETED" or "CANCELLED by 1000"
 * (the uid that cancelled it); -1 if unknown. */
static int32_t state_of(span s)
{
    const char *sp = memchr(s.p, ' ', s.n);
    span word = { s.p, sp ? (size_t)(sp - s.p) : s.n };
    if (sp && (s.n - word.n < 4 || memcmp(sp, " by ", 4) != 0))
        return -1;
    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
        if (is(word, states[i].name))
            return states[i].state;
    return -1;
}

/* The GPUs of an AllocTRES list ("billing=8,cpu=8,gres/gpu=2,mem=64G,node=1"):
 * gres/gpu=N, or when only typed counts are listed, the sum of
 * gres/gpu:TYPE=N; 0 when there is neither (a CPU job). Other entries
 * (gres/gpumem, gres/mps, gres/shard...) are no whole GPUs and only their
 * form is checked. Returns NULL or what is wrong, with the entry. */
static const char *tres_gpus(span t, double *gpus, span *entry)
{
    double untyped = -1, typed = 0;
    *gpus = 0;
    if (t.n == 0)
        return NULL;
    for (size_t i = 0;;) {
        const char *comma = memchr(t.p + i, ',', t.n - i);
        size_t end = comma ? (size_t)(comma - t.p) : t.n;
        span e = { t.p + i, end - i };
        *entry = e;
        const char *eq = memchr(e.p, '=', e.n);
        if (!eq || eq == e.p)
            return "is not name=count";
        span name = { e.p, (size_t)(eq - e.p) }, value = { eq + 1, e.n - name.n - 1 };
        int whole = is(name, "gres/gpu");
        int typed_one = name.n > 9 && memcmp(name.p, "gres/gpu:", 9) == 0;
        if (whole || typed_one) {
            double v;
            if (tco__parse_count(value.p, value.n, &v))
                return "has no whole number of GPUs";
            if (whole && untyped >= 0)
                return "repeats gres/gpu";
            if (whole)
                untyped = v;
            else
                typed += v;
        }
        if (!comma)
            break;
        i = end + 1;
    }
    *gpus = untyped >= 0 ? untyped : typed;
    return NULL;
}

/* The first line may be sacct's header (when run without --noheader): it
 * must then name the fields this reader expects, in its order. */
static int header(reader *r, uint64_t line, const span *f, size_t nf)
{
    for (int i = 0; i < FIELDS; i++) {
        if (i >= (int)nf || !is_nocase(f[i], field_names[i])) {
            char shown[TCO__SHOW_MAX];
            tco__show(shown, sizeof shown, i < (int)nf ? f[i].p : "", i < (int)nf ? f[i].n : 0);
            return tco__fail_named(r->err, TCO_E_TYPE, field_names[i],
                                   "line %llu: the header names %s as field %d where %s belongs: run sacct with --parsable2 --format=JobID,JobName,Account,User,Partition,State,Start,End,ElapsedRaw,AllocTRES",
                                   (unsigned long long)line, shown, i + 1, field_names[i]);
        }
    }
    if (nf > FIELDS)
        return tco__fail_named(r->err, TCO_E_TYPE, "",
                               "line %llu: the header names %zu fields, %d expected: run sacct with --parsable2 --format=JobID,JobName,Account,User,Partition,State,Start,End,ElapsedRaw,AllocTRES",
                               (unsigned long long)line, nf, FIELDS);
    return TCO_OK;
}

/* A time field: Start or End. */
static int time_field(reader *r, uint64_t line, int field, span s, double *t, int *rc)
{
    int p = tco__parse_time(s.p, s.n, 0, t);
    if (p == PARSE_OK)
        return 1;
    char shown[TCO__SHOW_MAX];
    tco__show(shown, sizeof shown, s.p, s.n);
    if (p == PARSE_RANGE)
        *rc = refuse(r, line, TCO_E_RANGE, field, "%s = %s is outside 1970 to 9999", field_names[field], shown);
    else
        *rc = refuse(r, line, TCO_E_TYPE, field,
                     "%s = %s is not a time: allowed YYYY-MM-DDTHH:MM:SS (read as UTC), Unknown or None",
                     field_names[field], shown);
    return 0;
}

/* The fields of a line that is an allocation and started. */
static int job_line(reader *r, uint64_t line, const span *f, double gpus, double start)
{
    char a[TCO__SHOW_MAX], b[TCO__SHOW_MAX];
    int32_t state = state_of(f[F_STATE]);
    if (state < 0) {
        tco__show(a, sizeof a, f[F_STATE].p, f[F_STATE].n);
        if (is(f[F_STATE], "PENDING")) {
            tco__show(b, sizeof b, f[F_START].p, f[F_START].n);
            return refuse(r, line, TCO_E_RANGE, F_STATE, "State = %s, but Start = %s: a pending job has not started", a, b);
        }
        return refuse(r, line, TCO_E_RANGE, F_STATE,
                      "State = %s is not a Slurm job state: allowed COMPLETED, FAILED, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, BOOT_FAIL, DEADLINE, PREEMPTED, CANCELLED, RUNNING... (doc/records.md)",
                      a);
    }
    double elapsed = -1, end;
    if (f[F_ELAPSED].n && tco__parse_count(f[F_ELAPSED].p, f[F_ELAPSED].n, &elapsed)) {
        tco__show(a, sizeof a, f[F_ELAPSED].p, f[F_ELAPSED].n);
        return refuse(r, line, TCO_E_TYPE, F_ELAPSED, "ElapsedRaw = %s is not a whole number of seconds", a);
    }
    int rc = TCO_OK;
    if (unknown(f[F_END])) {
        /* Still running: sacct's ElapsedRaw runs to the moment it printed. */
        tco__show(a, sizeof a, f[F_END].p, f[F_END].n);
        if (elapsed < 0)
            return refuse(r, line, TCO_E_TYPE, F_ELAPSED,
                          "End = %s and ElapsedRaw is empty: a job without an end is read from Start to Start + ElapsedRaw",
                          a);
        end = start + elapsed;
        if (end > TCO__TIME_MAX)
            return refuse(r, line, TCO_E_RANGE, F_ELAPSED, "ElapsedRaw = %.0f runs past 9999", elapsed);
    } else if (!time_field(r, line, F_END, f[F_END], &end, &rc)) {
        return rc;
    } else if (end < start) {
        tco__show(a, sizeof a, f[F_END].p, f[F_END].n);
        tco__show(b, sizeof b, f[F_START].p, f[F_START].n);
        return refuse(r, line, TCO_E_RANGE, F_END, "End = %s is before Start = %s", a, b);
    }

    uint32_t pairs[2 * KEYS];
    size_t n = 0;
    for (int k = 0; k < KEYS; k++) {
        span v = f[key_field[k]];
        size_t at;
        const char *problem = tco__tag_problem(v.p, v.n, &at);
        if (problem) {
            tco__show(a, sizeof a, v.p, v.n);
            return refuse(r, line, TCO_E_RANGE, key_field[k],
                          "%s = %s %s (byte %zu): tags are at most %d bytes of UTF-8 without control characters",
                          field_names[key_field[k]], a, problem, at, TCO_TAG_MAX);
        }
    }
    for (int k = 0; k < KEYS; k++) {
        span v = f[key_field[k]];
        if (v.n == 0)
            continue; /* no account, no name: no tag */
        uint32_t id;
        if (k == K_PROJECT) {
            id = pairs[2 * n - 1]; /* the account's value, just interned */
        } else if ((rc = tco__tags_intern_hashed(r->rs->tags, v.p, v.n, tco__tags_hash(v.p, v.n), &id, r->err))) {
            return rc;
        }
        pairs[2 * n] = r->key[k];
        pairs[2 * n + 1] = id;
        n++;
    }
    tco_record rec;
    memset(&rec, 0, sizeof rec);
    rec.start = start;
    rec.end = end;
    rec.accelerators = gpus;
    rec.utilisation = -1;
    rec.price_class = TCO_CLASS_OWNED;
    rec.state = state;
    return tco__records_append(r->rs, &rec, pairs, n, r->err);
}

static int read_line(reader *r, uint64_t line, const char *s, size_t n)
{
    span f[FIELDS];
    size_t nf = 0;
    for (size_t a = 0;;) {
        const char *bar = memchr(s + a, '|', n - a);
        size_t e = bar ? (size_t)(bar - s) : n;
        if (nf < FIELDS)
            f[nf] = (span){ s + a, e - a };
        nf++;
        if (!bar)
            break;
        a = e + 1;
    }
    int first = !r->seen;
    r->seen = 1;
    if (first && is_nocase(f[0], field_names[F_JOBID]))
        return header(r, line, f, nf);

    char a[TCO__SHOW_MAX], b[TCO__SHOW_MAX];
    span id = f[F_JOBID];
    const char *dot = memchr(id.p, '.', id.n);
    if (!dot) {
        r->job = id; /* even when refused below (too long a tag, say): its steps follow it */
        r->job_valid = 1;
    } else if (r->job_valid && (size_t)(dot - id.p) == r->job.n && memcmp(id.p, r->job.p, r->job.n) == 0) {
        return TCO_OK; /* a step of the allocation above, whatever its other fields: its GPUs are counted there */
    }
    if (nf != FIELDS)
        return refuse(r, line, TCO_E_TYPE, -1,
                      "the line has %zu fields separated by '|', %d expected (JobID|JobName|Account|User|Partition|State|Start|End|ElapsedRaw|AllocTRES): a '|' in a job name splits it",
                      nf, FIELDS);
    if (id.n == 0)
        return refuse(r, line, TCO_E_TYPE, F_JOBID, "JobID is empty");
    if (dot) {
        size_t job = (size_t)(dot - id.p);
        tco__show(a, sizeof a, id.p, id.n);
        tco__show(b, sizeof b, id.p, job);
        return refuse(r, line, TCO_E_TYPE, F_JOBID,
                      "JobID = %s is a job step, but the line before its job's steps is not the allocation line of job %s, which holds its GPUs",
                      a, b);
    }

    double gpus;
    span entry;
    const char *why = tres_gpus(f[F_TRES], &gpus, &entry);
    if (why) {
        tco__show(a, sizeof a, f[F_TRES].p, f[F_TRES].n);
        tco__show(b, sizeof b, entry.p, entry.n);
        return refuse(r, line, TCO_E_TYPE, F_TRES, "AllocTRES = %s: entry %s %s", a, b, why);
    }
    double most = tco__params[IX_ACCELERATORS].hi;
    if (gpus > most) {
        tco__show(a, sizeof a, f[F_TRES].p, f[F_TRES].n);
        return refuse(r, line, TCO_E_RANGE, F_TRES, "AllocTRES = %s holds %.0f GPUs: allowed at most %g", a, gpus,
                      most);
    }
    if (unknown(f[F_START])) {
        if (gpus == 0)
            return TCO_OK; /* never started and holds nothing (pending): no use yet */
        tco__show(a, sizeof a, f[F_START].p, f[F_START].n);
        return refuse(r, line, TCO_E_RANGE, F_START,
                      "Start = %s, but AllocTRES holds %.0f GPUs: a job that holds GPUs has started", a, gpus);
    }
    double start;
    int rc = TCO_OK;
    if (!time_field(r, line, F_START, f[F_START], &start, &rc))
        return rc;
    return job_line(r, line, f, gpus, start);
}

int tco_records_read_sacct(tco_records **out, const char *text, size_t len, uint32_t flags, tco_error *err)
{
    int rc = tco__read_args(out, text, flags, err);
    if (rc)
        return rc;
    reader r;
    memset(&r, 0, sizeof r);
    r.flags = flags;
    r.err = err;
    if ((rc = tco__records_new(&r.rs, err)))
        return rc;
    for (int k = 0; k < KEYS && rc == TCO_OK; k++)
        rc = tco_tags_intern(r.rs->tags, key_names[k], strlen(key_names[k]), &r.key[k], err);
    uint64_t line = 0;
    for (size_t i = 0; i < len && rc == TCO_OK;) {
        const char *s = text + i;
        const char *nl = memchr(s, '\n', len - i);
        size_t n = nl ? (size_t)(nl - s) : len - i;
        i += n + (nl != NULL);
        line++;
        if (n && s[n - 1] == '\r')
            n--;
        if (n)
            rc = read_line(&r, line, s, n); /* blank lines hold nothing */
    }
    if (rc) {
        tco_records_free(r.rs);
        return rc;
    }
    *out = r.rs;
    return TCO_OK;
}
