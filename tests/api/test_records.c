/* Usage records (doc/records.md): the tags table, the Slurm and CSV
 * readers rule by rule with small inline files, the line and reason of
 * every refused row, strict mode, and running out of memory cleanly. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <tco.h>

/* The allocator that fails on request (tests/support/alloc_count.h). */
#include "alloc_count.h"


/* ---- helpers ------------------------------------------------------------ */

typedef int (*reader_fn)(tco_records **, const char *, size_t, uint32_t, tco_error *);

static tco_records *read_ok(reader_fn read, const char *text)
{
    tco_records *r = NULL;
    tco_error err = TCO_ERROR_INIT;
    int rc = read(&r, text, strlen(text), 0, &err);
    if (rc != TCO_OK)
        print_error("read failed: %s %s\n", tco_status_name(rc), err.message);
    assert_int_equal(rc, TCO_OK);
    assert_non_null(r);
    return r;
}

#define CSV(text) read_ok(tco_records_read_csv, text)
#define SACCT(text) read_ok(tco_records_read_sacct, text)

static const tco_record *rec(const tco_records *r, size_t i)
{
    assert_true(i < tco_records_count(r));
    const tco_record *d = tco_records_data(r);
    assert_int_equal(d[i].size, sizeof(tco_record));
    return &d[i];
}

/* The value of record i's tag `key`, or NULL when it has none. */
static const char *tag_of(const tco_records *r, size_t i, const char *key)
{
    const tco_record *x = rec(r, i);
    size_t pairs;
    const uint32_t *p = tco_records_tag_pairs(r, &pairs);
    const tco_tags *t = tco_records_tags(r);
    assert_true(x->first_tag + x->tag_count <= pairs);
    for (uint32_t k = 0; k < x->tag_count; k++) {
        const char *kt = tco_tags_text(t, p[2 * (x->first_tag + k)]);
        assert_non_null(kt);
        if (strcmp(kt, key) == 0)
            return tco_tags_text(t, p[2 * (x->first_tag + k) + 1]);
    }
    return NULL;
}

static void assert_ascii(const char *s)
{
    for (; *s; s++)
        assert_true(*s >= 0x20 && *s <= 0x7e);
}

/* Refused row i is at `line` and its reason holds `needle`. */
static void assert_bad(const tco_records *r, size_t i, uint64_t line, const char *needle)
{
    uint64_t got;
    const char *why = NULL;
    assert_int_equal(tco_records_bad_at(r, i, &got, &why, NULL), TCO_OK);
    assert_non_null(why);
    if (got != line || !strstr(why, needle))
        print_error("refused row %zu: line %llu, \"%s\"; expected line %llu and \"%s\"\n", i,
                    (unsigned long long)got, why, (unsigned long long)line, needle);
    assert_int_equal(got, line);
    assert_non_null(strstr(why, needle));
    assert_ascii(why);
}

/* A text holding one bad row refuses it at `line` with `needle`, and in
 * strict mode fails with `code`, naming the line and `field`. */
static void refused_once(reader_fn read, const char *text, uint64_t line, int code, const char *field,
                         const char *needle)
{
    tco_records *r = read_ok(read, text);
    assert_int_equal(tco_records_bad_count(r), 1);
    assert_bad(r, 0, line, needle);
    tco_records_free(r);

    tco_records *s = (tco_records *)&line; /* a failed read leaves *out alone */
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(read(&s, text, strlen(text), TCO_READ_STRICT, &err), code);
    assert_ptr_equal(s, (tco_records *)&line);
    assert_int_equal(err.code, code);
    char at[32];
    snprintf(at, sizeof at, "line %llu: ", (unsigned long long)line);
    if (strncmp(err.message, at, strlen(at)) != 0 || !strstr(err.message, needle))
        print_error("strict: \"%s\"; expected \"%s...%s\"\n", err.message, at, needle);
    assert_int_equal(strncmp(err.message, at, strlen(at)), 0);
    assert_non_null(strstr(err.message, needle));
    assert_string_equal(err.param_name, field);
    assert_ascii(err.message);
}

/* ---- tags --------------------------------------------------------------- */

static void test_tags_dense_ids_in_first_seen_order(void **state)
{
    (void)state;
    tco_tags *t;
    uint32_t id;
    assert_int_equal(tco_tags_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_tags_count(t), 0);
    const char *texts[] = { "project", "alice", "", "project=a", "al", "alicf" };
    for (uint32_t i = 0; i < 6; i++) {
        assert_int_equal(tco_tags_intern(t, texts[i], strlen(texts[i]), &id, NULL), TCO_OK);
        assert_int_equal(id, i);
    }
    /* Again: the same ids, nothing added. */
    for (uint32_t i = 0; i < 6; i++) {
        assert_int_equal(tco_tags_intern(t, texts[i], strlen(texts[i]), &id, NULL), TCO_OK);
        assert_int_equal(id, i);
        assert_int_equal(tco_tags_find(t, texts[i], strlen(texts[i]), &id, NULL), TCO_OK);
        assert_int_equal(id, i);
        assert_string_equal(tco_tags_text(t, i), texts[i]);
    }
    assert_int_equal(tco_tags_count(t), 6);
    /* The length counts, not a NUL: "alice" cut to 2 bytes is "al". */
    assert_int_equal(tco_tags_find(t, "alice", 2, &id, NULL), TCO_OK);
    assert_int_equal(id, 4);
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_tags_find(t, "bob", 3, &id, &err), TCO_E_INDEX);
    assert_non_null(strstr(err.message, "\"bob\""));
    assert_null(tco_tags_text(t, 6));
    assert_null(tco_tags_text(NULL, 0));
    assert_int_equal(tco_tags_count(NULL), 0);
    tco_tags_free(t);
    tco_tags_free(NULL);
}

static void test_tags_many_texts_and_stable_pointers(void **state)
{
    (void)state;
    tco_tags *t;
    assert_int_equal(tco_tags_new(&t, NULL), TCO_OK);
    enum { N = 100000 };
    char buf[64];
    uint32_t id;
    assert_int_equal(tco_tags_intern(t, "first", 5, &id, NULL), TCO_OK);
    const char *first = tco_tags_text(t, id);
    for (uint32_t i = 0; i < N; i++) {
        int n = snprintf(buf, sizeof buf, "job_%u", i * 2654435761u);
        assert_int_equal(tco_tags_intern(t, buf, (size_t)n, &id, NULL), TCO_OK);
        assert_int_equal(id, i + 1);
    }
    assert_int_equal(tco_tags_count(t), N + 1);
    /* Texts never move: the first pointer still reads "first". */
    assert_ptr_equal(tco_tags_text(t, 0), first);
    assert_string_equal(first, "first");
    for (uint32_t i = 0; i < N; i++) {
        int n = snprintf(buf, sizeof buf, "job_%u", i * 2654435761u);
        assert_int_equal(tco_tags_find(t, buf, (size_t)n, &id, NULL), TCO_OK);
        assert_int_equal(id, i + 1);
        assert_string_equal(tco_tags_text(t, id), buf);
    }
    tco_tags_free(t);
}

static void test_tags_limits(void **state)
{
    (void)state;
    tco_tags *t;
    tco_error err = TCO_ERROR_INIT;
    uint32_t id = 99;
    assert_int_equal(tco_tags_new(&t, NULL), TCO_OK);
    char big[TCO_TAG_MAX + 2];
    memset(big, 'x', sizeof big);
    assert_int_equal(tco_tags_intern(t, big, TCO_TAG_MAX, &id, NULL), TCO_OK);
    assert_int_equal(strlen(tco_tags_text(t, id)), TCO_TAG_MAX);
    assert_int_equal(tco_tags_intern(t, big, TCO_TAG_MAX + 1, &id, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "257 bytes"));
    assert_int_equal(tco_tags_intern(t, "a\0b", 3, &id, &err), TCO_E_RANGE);
    assert_non_null(strstr(err.message, "NUL"));
    assert_non_null(strstr(err.message, "\\x00")); /* shown escaped */
    const char *not_utf8[] = { "\xff", "\xc0\x80", "\xed\xa0\x80", "ab\xe2\x82", "\xf4\x90\x80\x80" };
    for (size_t i = 0; i < sizeof not_utf8 / sizeof not_utf8[0]; i++) {
        assert_int_equal(tco_tags_intern(t, not_utf8[i], strlen(not_utf8[i]), &id, &err), TCO_E_RANGE);
        assert_non_null(strstr(err.message, "not UTF-8"));
        assert_ascii(err.message);
    }
    assert_int_equal(tco_tags_count(t), 1); /* a refused text adds nothing */
    assert_int_equal(tco_tags_intern(t, "caf\xc3\xa9", 5, &id, NULL), TCO_OK);
    assert_int_equal(id, 1);
    assert_int_equal(tco_tags_intern(NULL, "a", 1, &id, &err), TCO_E_NULL);
    assert_int_equal(tco_tags_intern(t, NULL, 1, &id, &err), TCO_E_NULL);
    assert_int_equal(tco_tags_intern(t, "a", 1, NULL, &err), TCO_E_NULL);
    assert_int_equal(tco_tags_find(t, NULL, 1, &id, &err), TCO_E_NULL);
    assert_int_equal(tco_tags_new(NULL, &err), TCO_E_NULL);
    tco_tags_free(t);
}

static void test_job_state_names(void **state)
{
    (void)state;
    assert_string_equal(tco_job_state_name(TCO_JOB_COMPLETED), "completed");
    assert_string_equal(tco_job_state_name(TCO_JOB_FAILED), "failed");
    assert_string_equal(tco_job_state_name(TCO_JOB_CANCELLED), "cancelled");
    assert_string_equal(tco_job_state_name(TCO_JOB_RUNNING), "running");
    assert_null(tco_job_state_name(4));
    assert_null(tco_job_state_name(-1));
    /* and the attribution's spread rules, which the bindings and the
     * command read by these names */
    assert_string_equal(tco_spread_name(TCO_SPREAD_USAGE), "usage");
    assert_string_equal(tco_spread_name(TCO_SPREAD_EVEN), "even");
    assert_string_equal(tco_spread_name(TCO_SPREAD_OWNER), "owner");
    assert_null(tco_spread_name(0));
    assert_null(tco_spread_name(4));
}

/* ---- Slurm accounting --------------------------------------------------- */

/* A day on a small cluster, as sacct printed it (TZ=UTC): a training run
 * with its batch, extern and srun steps, a cancelled evaluation, an array
 * task that ran out of time, a heterogeneous job, a run still going, a CPU
 * job, a pending job and one typed-only GPU job. */
static const char *const day =
    "4242|llama-70b|ml-research|alice|gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T02:00:00|7200|billing=128,cpu=128,gres/gpu=8,mem=1000G,node=1\n"
    "4242.batch|batch|ml-research||gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T02:00:00|7200|cpu=128,gres/gpu=8,mem=1000G,node=1\n"
    "4242.extern|extern|ml-research||gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T02:00:00|7200|billing=128,cpu=128,gres/gpu=8,mem=1000G,node=1\n"
    "4242.0|python|ml-research||gpu|COMPLETED|2026-11-01T00:00:05|2026-11-01T01:59:58|7193|cpu=128,gres/gpu=8,mem=1000G,node=1\n"
    "4243|eval|ml-research|bob|gpu|CANCELLED by 1001|2026-11-01T03:00:00|2026-11-01T03:30:00|1800|billing=16,cpu=16,gres/gpu=2,gres/gpu:h100=2,mem=128G,node=1\n"
    "4244_7|sweep|vision|carol|gpu|TIMEOUT|2026-11-01T04:00:00|2026-11-01T08:00:00|14400|cpu=8,gres/gpu=1,mem=64G,node=1\n"
    "4244_7.batch|batch|vision||gpu|CANCELLED|2026-11-01T04:00:00|2026-11-01T08:00:01|14401|cpu=8,gres/gpu=1,mem=64G,node=1\n"
    "4245+0|het|vision|carol|gpu|OUT_OF_MEMORY|2026-11-01T05:00:00|2026-11-01T05:10:00|600|cpu=4,gres/gpu=4,node=1\n"
    "4245+1|het|vision|carol|cpu|OUT_OF_MEMORY|2026-11-01T05:00:00|2026-11-01T05:10:00|600|cpu=64,mem=256G,node=2\n"
    "4246|pretrain|ml-research|alice|gpu|RUNNING|2026-11-01T20:00:00|Unknown|3600|billing=512,cpu=512,gres/gpu=32,node=4\n"
    "4246.batch|batch|ml-research||gpu|RUNNING|2026-11-01T20:00:00|Unknown|3600|cpu=128,gres/gpu=8,node=1\n"
    "4247|etl||dave|cpu|COMPLETED|2026-11-01T06:00:00|2026-11-01T07:00:00|3600|billing=32,cpu=32,mem=128G,node=1\n"
    "4248|queued|ml-research|alice|gpu|PENDING|Unknown|Unknown|0|\n"
    "4249|mixed|ml-research|bob|gpu|NODE_FAIL|2026-11-01T09:00:00|2026-11-01T09:45:00|2700|cpu=16,gres/gpu:a100=2,gres/gpu:h100=4,node=2\n"
    "4250|bumped|ml-research|bob|gpu|PREEMPTED|2026-11-01T10:00:00|2026-11-01T10:20:00|1200|gres/gpu=2\n";

static void test_sacct_day(void **state)
{
    (void)state;
    tco_records *r = SACCT(day);
    assert_int_equal(tco_records_bad_count(r), 0);
    assert_int_equal(tco_records_count(r), 9); /* steps and the pending job are no records */

    /* 8 GPUs from 00:00 to 02:00: 16 accelerator-hours held. */
    const tco_record *a = rec(r, 0);
    assert_true(a->start == 1793491200.0); /* 2026-11-01T00:00:00Z */
    assert_true(a->end == 1793491200.0 + 7200);
    assert_true(a->accelerators == 8);
    assert_true((a->end - a->start) / 3600 * a->accelerators == 16);
    assert_true(a->utilisation == -1);
    assert_int_equal(a->price_class, TCO_CLASS_OWNED);
    assert_int_equal(a->state, TCO_JOB_COMPLETED);
    for (int i = 0; i < 3; i++)
        assert_true(a->storage_gb_hours[i] == 0 && a->traffic_gb[i] == 0);
    assert_int_equal(a->tag_count, 6);
    assert_string_equal(tag_of(r, 0, "job_id"), "4242");
    assert_string_equal(tag_of(r, 0, "job_name"), "llama-70b");
    assert_string_equal(tag_of(r, 0, "account"), "ml-research");
    assert_string_equal(tag_of(r, 0, "project"), "ml-research");
    assert_string_equal(tag_of(r, 0, "user"), "alice");
    assert_string_equal(tag_of(r, 0, "partition"), "gpu");

    /* Typed and untyped counts of the same GPUs are not added. */
    assert_true(rec(r, 1)->accelerators == 2);
    assert_int_equal(rec(r, 1)->state, TCO_JOB_CANCELLED);
    assert_string_equal(tag_of(r, 2, "job_id"), "4244_7");
    assert_int_equal(rec(r, 2)->state, TCO_JOB_FAILED);
    assert_true(rec(r, 2)->end - rec(r, 2)->start == 4 * 3600);
    /* Each component of a heterogeneous job is a record. */
    assert_string_equal(tag_of(r, 3, "job_id"), "4245+0");
    assert_true(rec(r, 3)->accelerators == 4);
    assert_int_equal(rec(r, 3)->state, TCO_JOB_FAILED);
    assert_true(rec(r, 4)->accelerators == 0);
    assert_string_equal(tag_of(r, 4, "partition"), "cpu");
    /* Still running: Start + ElapsedRaw. */
    assert_int_equal(rec(r, 5)->state, TCO_JOB_RUNNING);
    assert_true(rec(r, 5)->accelerators == 32);
    assert_true(rec(r, 5)->end - rec(r, 5)->start == 3600);
    /* A CPU job holds no accelerators; no account: no account or project tag. */
    assert_true(rec(r, 6)->accelerators == 0);
    assert_null(tag_of(r, 6, "account"));
    assert_null(tag_of(r, 6, "project"));
    assert_string_equal(tag_of(r, 6, "user"), "dave");
    assert_int_equal(rec(r, 6)->tag_count, 4);
    /* Typed counts only: their sum. */
    assert_true(rec(r, 7)->accelerators == 6);
    assert_int_equal(rec(r, 7)->state, TCO_JOB_FAILED);
    assert_int_equal(rec(r, 8)->state, TCO_JOB_FAILED);

    /* The keys come first, in a fixed order; equal values share an id. */
    const tco_tags *t = tco_records_tags(r);
    const char *keys[] = { "job_id", "job_name", "account", "project", "user", "partition" };
    for (uint32_t k = 0; k < 6; k++)
        assert_string_equal(tco_tags_text(t, k), keys[k]);
    size_t pairs;
    const uint32_t *p = tco_records_tag_pairs(r, &pairs);
    assert_int_equal(p[2 * 2 + 1], p[2 * 3 + 1]); /* account and project: one text */
    uint32_t alice;
    assert_int_equal(tco_tags_find(t, "alice", 5, &alice, NULL), TCO_OK);
    assert_int_equal(p[2 * (rec(r, 0)->first_tag + 4) + 1], alice);
    assert_int_equal(p[2 * (rec(r, 5)->first_tag + 4) + 1], alice);
    /* Pairs are laid out record after record. */
    size_t next = 0;
    for (size_t i = 0; i < tco_records_count(r); i++) {
        assert_int_equal(rec(r, i)->first_tag, next);
        next += rec(r, i)->tag_count;
    }
    assert_int_equal(next, pairs);
    tco_records_free(r);

    /* Strict mode reads the same day. */
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_records_read_sacct(&r, day, strlen(day), TCO_READ_STRICT, &err), TCO_OK);
    assert_int_equal(tco_records_count(r), 9);
    tco_records_free(r);
}

static void test_sacct_states(void **state)
{
    (void)state;
    static const struct {
        const char *slurm;
        int32_t state;
    } map[] = {
        { "COMPLETED", TCO_JOB_COMPLETED }, { "FAILED", TCO_JOB_FAILED },     { "TIMEOUT", TCO_JOB_FAILED },
        { "OUT_OF_MEMORY", TCO_JOB_FAILED }, { "NODE_FAIL", TCO_JOB_FAILED }, { "BOOT_FAIL", TCO_JOB_FAILED },
        { "DEADLINE", TCO_JOB_FAILED },     { "PREEMPTED", TCO_JOB_FAILED },  { "REQUEUED", TCO_JOB_FAILED },
        { "CANCELLED", TCO_JOB_CANCELLED }, { "CANCELLED by 0", TCO_JOB_CANCELLED },
        { "RUNNING", TCO_JOB_RUNNING },     { "SUSPENDED", TCO_JOB_RUNNING }, { "COMPLETING", TCO_JOB_RUNNING },
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "1|j|a|u|p|%s|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1", map[i].slurm);
        tco_records *r = SACCT(text);
        assert_int_equal(tco_records_count(r), 1);
        assert_int_equal(rec(r, 0)->state, map[i].state);
        tco_records_free(r);
    }
}

static void test_sacct_lines_and_layout(void **state)
{
    (void)state;
    /* CRLF, blank lines, no final newline; the header sacct prints without
     * --noheader; an empty text. */
    const char *text = "JobID|JobName|Account|User|Partition|State|Start|End|ElapsedRaw|AllocTRES\r\n"
                       "\r\n"
                       "\n"
                       "7|a|p|u|gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T00:30:00|1800|gres/gpu=2\r\n"
                       "8|b|p|u|gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=bad";
    tco_records *r = SACCT(text);
    assert_int_equal(tco_records_count(r), 1);
    assert_string_equal(tag_of(r, 0, "job_name"), "a");
    assert_int_equal(tco_records_bad_count(r), 1);
    assert_bad(r, 0, 5, "AllocTRES");
    tco_records_free(r);

    r = SACCT("");
    assert_int_equal(tco_records_count(r), 0);
    assert_int_equal(tco_records_bad_count(r), 0);
    assert_null(tco_records_data(r));
    tco_records_free(r);

    /* A header of other fields is another format: refused whole. */
    const char *other = "JobID|JobName|State\n1|a|COMPLETED\n";
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_records_read_sacct(&r, other, strlen(other), 0, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "line 1:"));
    assert_non_null(strstr(err.message, "--format=JobID,JobName,Account"));
    assert_string_equal(err.param_name, "Account");
}

static void test_sacct_bad_rows(void **state)
{
    (void)state;
    const reader_fn s = tco_records_read_sacct;
    const char *ok = "1|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1\n";
    char text[2048];
#define ONE(bad, code, field, needle)                          \
    do {                                                        \
        snprintf(text, sizeof text, "%s%s\n%s", ok, bad, ok);   \
        refused_once(s, text, 2, code, field, needle);          \
    } while (0)
    ONE("2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600", TCO_E_TYPE, "",
        "has 9 fields separated by '|', 10 expected");
    ONE("2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1|x", TCO_E_TYPE, "",
        "has 11 fields");
    ONE("2|j|a|u|p|COMPLETED|2026-11-01 00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1", TCO_E_TYPE, "Start",
        "Start = \"2026-11-01 00:00:00\" is not a time");
    ONE("2|j|a|u|p|COMPLETED|2026-02-30T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1", TCO_E_TYPE, "Start",
        "is not a time");
    ONE("2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T25:00:00|3600|gres/gpu=1", TCO_E_TYPE, "End",
        "End = \"2026-11-01T25:00:00\" is not a time");
    ONE("2|j|a|u|p|COMPLETED|1969-12-31T23:59:59|2026-11-01T01:00:00|3600|gres/gpu=1", TCO_E_RANGE, "Start",
        "outside 1970 to 9999");
    ONE("2|j|a|u|p|COMPLETED|2026-11-01T02:00:00|2026-11-01T01:00:00|3600|gres/gpu=1", TCO_E_RANGE, "End",
        "End = \"2026-11-01T01:00:00\" is before Start = \"2026-11-01T02:00:00\"");
    ONE("2|j|a|u|p|DONE|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1", TCO_E_RANGE, "State",
        "State = \"DONE\" is not a Slurm job state");
    ONE("2|j|a|u|p|CANCELLED+|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1", TCO_E_RANGE, "State",
        "\"CANCELLED+\"");
    ONE("2|j|a|u|p|PENDING|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|", TCO_E_RANGE, "State",
        "a pending job has not started");
    ONE("2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|cpu=8,gres/gpu=x", TCO_E_TYPE,
        "AllocTRES", "entry \"gres/gpu=x\" has no whole number of GPUs");
    ONE("2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|cpu=8,gres/gpu:a100=-1", TCO_E_TYPE,
        "AllocTRES", "no whole number of GPUs");
    ONE("2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|cpu", TCO_E_TYPE, "AllocTRES",
        "entry \"cpu\" is not name=count");
    ONE("2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|cpu=8,,node=1", TCO_E_TYPE,
        "AllocTRES", "entry \"\" is not name=count");
    ONE("2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=2,gres/gpu=2", TCO_E_TYPE,
        "AllocTRES", "repeats gres/gpu");
    ONE("2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=20000000", TCO_E_RANGE,
        "AllocTRES", "holds 20000000 GPUs");
    ONE("2|j|a|u|p|CANCELLED|Unknown|2026-11-01T01:00:00|0|gres/gpu=4", TCO_E_RANGE, "Start",
        "a job that holds GPUs has started");
    ONE("2|j|a|u|p|RUNNING|2026-11-01T00:00:00|Unknown||gres/gpu=4", TCO_E_TYPE, "ElapsedRaw",
        "ElapsedRaw is empty");
    ONE("2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|1h|gres/gpu=1", TCO_E_TYPE, "ElapsedRaw",
        "ElapsedRaw = \"1h\" is not a whole number");
    ONE("|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1", TCO_E_TYPE, "JobID",
        "JobID is empty");
    ONE("99.0|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1", TCO_E_TYPE, "JobID",
        "JobID = \"99.0\" is a job step");
    ONE("2|j|a|u\xff|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1", TCO_E_RANGE, "User",
        "User = \"u\\xff\" is not UTF-8 (byte 1)");
    ONE("2|j\tk|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=q", TCO_E_TYPE,
        "AllocTRES", "gres/gpu=q");
#undef ONE
    /* A job name past TCO_TAG_MAX bytes. */
    char name[TCO_TAG_MAX + 2];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    snprintf(text, sizeof text, "%s2|%s|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1\n", ok,
             name);
    refused_once(s, text, 2, TCO_E_RANGE, "JobName", "is too long");

    /* A tag holds no control character, a tab neither (it would reach a
     * terminal or a cell raw); in a reason it is shown escaped. */
    const char *tab = "3|a\tb|p|u|gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1\n";
    refused_once(s, tab, 1, TCO_E_RANGE, "JobName", "JobName = \"a\\x09b\" holds a control character (byte 1)");
}

static void test_sacct_steps(void **state)
{
    (void)state;
    /* Steps after their allocation are skipped, even when it was refused
     * (the refusal covers its GPUs) or their own line is malformed (a '|'
     * in a step name); a step of another job is refused. */
    const char *text = "10|a|p|u|gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=x\n"
                       "10.batch|batch|p||gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=4\n"
                       "10.0|a|p||gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=4\n"
                       "11|b|p|u|gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=4\n"
                       "10.1|a|p||gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=4\n"
                       "11.0|b|p||gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=4\n"
                       "11.1|b|c|d||p||gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=4\n";
    tco_records *r = SACCT(text);
    assert_int_equal(tco_records_count(r), 1);
    assert_string_equal(tag_of(r, 0, "job_id"), "11");
    assert_int_equal(tco_records_bad_count(r), 2);
    assert_bad(r, 0, 1, "AllocTRES");
    assert_bad(r, 1, 5, "JobID = \"10.1\" is a job step");
    tco_records_free(r);

    /* A JobID too long to be a tag: its line is refused, its steps skipped
     * as any refused allocation's are (one refusal, not one a step). */
    char id[TCO_TAG_MAX + 10], lines[2048];
    memset(id, '7', sizeof id - 1);
    id[sizeof id - 1] = '\0';
    snprintf(lines, sizeof lines,
             "%s|a|p|u|gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=4\n"
             "%s.batch|batch|p||gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=4\n"
             "%s.0|a|p||gpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=4\n",
             id, id, id);
    r = SACCT(lines);
    assert_int_equal(tco_records_count(r), 0);
    assert_int_equal(tco_records_bad_count(r), 1);
    assert_bad(r, 0, 1, "is too long");
    tco_records_free(r);
}

/* ---- CSV ---------------------------------------------------------------- */

static void test_csv_every_column(void **state)
{
    (void)state;
    const char *text =
        "start,end,accelerators,utilisation,price_class,state,storage_hot_gb_hours,storage_warm_gb_hours,"
        "storage_cold_gb_hours,traffic_in_region_gb,traffic_cross_region_gb,traffic_internet_gb,tag.project,tag.team\n"
        "2026-11-01T00:00:00Z,2026-11-01T02:00:00Z,8,0.75,spot,failed,100,200.5,3e3,1,2,0.25,llama,nlp\n"
        "1793491200,1793494800.5,0.5,,,,,,,,,,,\n"
        "2026-11-01T01:00:00+01:00,2026-11-01T00:30:00.25Z,1,1,reserved,running,0,0,0,0,0,0,llama,\n";
    tco_records *r = CSV(text);
    assert_int_equal(tco_records_bad_count(r), 0);
    assert_int_equal(tco_records_count(r), 3);
    const tco_record *a = rec(r, 0);
    assert_true(a->start == 1793491200.0 && a->end == 1793491200.0 + 7200);
    assert_true((a->end - a->start) / 3600 * a->accelerators == 16);
    assert_true(a->utilisation == 0.75);
    assert_int_equal(a->price_class, TCO_CLASS_SPOT);
    assert_int_equal(a->state, TCO_JOB_FAILED);
    assert_true(a->storage_gb_hours[TCO_TIER_HOT] == 100 && a->storage_gb_hours[TCO_TIER_WARM] == 200.5 &&
                a->storage_gb_hours[TCO_TIER_COLD] == 3000);
    assert_true(a->traffic_gb[0] == 1 && a->traffic_gb[1] == 2 && a->traffic_gb[2] == 0.25);
    assert_string_equal(tag_of(r, 0, "project"), "llama");
    assert_string_equal(tag_of(r, 0, "team"), "nlp");
    /* Empty optional fields: the defaults; empty tags: no tag. */
    const tco_record *b = rec(r, 1);
    assert_true(b->start == 1793491200.0 && b->end == 1793494800.5);
    assert_true(b->accelerators == 0.5 && b->utilisation == -1);
    assert_int_equal(b->price_class, TCO_CLASS_OWNED);
    assert_int_equal(b->state, TCO_JOB_COMPLETED);
    for (int i = 0; i < 3; i++)
        assert_true(b->storage_gb_hours[i] == 0 && b->traffic_gb[i] == 0);
    assert_int_equal(b->tag_count, 0);
    /* An offset: 01:00+01:00 is 00:00Z; fractions of a second. */
    const tco_record *c = rec(r, 2);
    assert_true(c->start == 1793491200.0 && c->end == 1793491200.0 + 1800.25);
    assert_int_equal(c->price_class, TCO_CLASS_RESERVED);
    assert_int_equal(c->state, TCO_JOB_RUNNING);
    assert_int_equal(c->tag_count, 1);
    /* Every field at its largest: 23:59:59 at +23:59 is 00:00:59Z of the
     * same day, 00:00:00 at -23:59 is 23:59:00Z. */
    tco_records *edge = CSV("start,end,accelerators\n2026-11-01T23:59:59+23:59,2026-11-01T00:00:00-23:59,1\n");
    assert_true(rec(edge, 0)->start == 1793491200.0 + 59 && rec(edge, 0)->end == 1793491200.0 + 86340);
    tco_records_free(edge);
    /* Keys in header order, then values as they come. */
    const tco_tags *t = tco_records_tags(r);
    assert_string_equal(tco_tags_text(t, 0), "project");
    assert_string_equal(tco_tags_text(t, 1), "team");
    assert_string_equal(tco_tags_text(t, 2), "llama");
    assert_string_equal(tco_tags_text(t, 3), "nlp");
    assert_int_equal(tco_tags_count(t), 4);
    tco_records_free(r);
}

static void test_csv_minimal_and_order(void **state)
{
    (void)state;
    /* Columns in any order; only the three required. */
    tco_records *r = CSV("accelerators,end,start\n4,1793494800,1793491200\n");
    assert_int_equal(tco_records_count(r), 1);
    assert_true(rec(r, 0)->accelerators == 4 && rec(r, 0)->end - rec(r, 0)->start == 3600);
    tco_records_free(r);
    /* A header alone: no records. A byte order mark is skipped. */
    r = CSV("\xef\xbb\xbfstart,end,accelerators\r\n");
    assert_int_equal(tco_records_count(r), 0);
    tco_records_free(r);
}

static void test_csv_quoting(void **state)
{
    (void)state;
    const char *text = "\"start\",end,accelerators,tag.note,\"tag.a,b\"\r\n"
                       "\"1793491200\",1793494800,\"8\",\"one, two\",\"say \"\"hi\"\"\"\r\n"
                       "1793491200,1793494800,1,\"two\r\nlines\",\"\"\r\n"
                       "\r\n"
                       "1793491200,1793494800,x,,\n"
                       "1793491200,1793494800,1,\"\"\"\",q\n";
    tco_records *r = CSV(text);
    assert_int_equal(tco_records_count(r), 2);
    assert_true(rec(r, 0)->accelerators == 8);
    assert_string_equal(tag_of(r, 0, "note"), "one, two");
    assert_string_equal(tag_of(r, 0, "a,b"), "say \"hi\"");
    assert_string_equal(tag_of(r, 1, "note"), "\"");
    /* A field of two lines is read whole, but a tag holds no control
     * character (a line break neither); the row after it is on line 6. */
    assert_int_equal(tco_records_bad_count(r), 2);
    assert_bad(r, 0, 3, "tag.note = \"two\\x0d\\x0alines\" holds a control character (byte 3)");
    assert_bad(r, 1, 6, "accelerators = \"x\" is not a number");
    tco_records_free(r);

    const reader_fn c = tco_records_read_csv;
    refused_once(c, "start,end,accelerators\n1,2,3\"\n", 2, TCO_E_TYPE, "", "quote inside an unquoted field");
    refused_once(c, "start,end,accelerators\n1,2,\"3\"x\n", 2, TCO_E_TYPE, "", "text after a closing quote");
    refused_once(c, "start,end,accelerators\n1,2,3\n4,5,\"6\n7,8,9\n", 3, TCO_E_TYPE, "", "not closed");
    /* A tag value may be TCO_TAG_MAX bytes once unquoted: 2 x TCO_TAG_MAX
     * quotes inside a quoted field are TCO_TAG_MAX of them. */
    char text2[1024];
    char value[2 * TCO_TAG_MAX + 1];
    memset(value, '"', 2 * TCO_TAG_MAX);
    value[2 * TCO_TAG_MAX] = '\0';
    snprintf(text2, sizeof text2, "start,end,accelerators,tag.q\n1,2,3,\"%s\"\n", value);
    r = CSV(text2);
    assert_int_equal(tco_records_count(r), 1);
    assert_int_equal(strlen(tag_of(r, 0, "q")), TCO_TAG_MAX);
    tco_records_free(r);
    snprintf(text2, sizeof text2, "start,end,accelerators,tag.q\n1,2,3,\"%sx\"\n", value);
    refused_once(c, text2, 2, TCO_E_RANGE, "tag.q", "is too long");
}

static void test_csv_header_errors(void **state)
{
    (void)state;
    tco_records *r = NULL;
    tco_error err = TCO_ERROR_INIT;
    const struct {
        const char *text;
        int code;
        const char *name, *needle;
    } cases[] = {
        { "", TCO_E_TYPE, "", "no header row" },
        { "\n\r\n", TCO_E_TYPE, "", "no header row" },
        { "start,end,accelerators,gpus\n", TCO_E_UNKNOWN_PARAM, "gpus", "column gpus is not a records column" },
        { "start,end,accelerators,Start\n", TCO_E_UNKNOWN_PARAM, "Start", "column Start" },
        { "start,end,accelerators,tag.\n", TCO_E_UNKNOWN_PARAM, "tag.", "column tag." },
        { "start,end,accelerators, state\n", TCO_E_UNKNOWN_PARAM, "\" state\"", "column \" state\"" },
        { "start,end\n", TCO_E_TYPE, "accelerators", "no accelerators column" },
        { "end,accelerators\n", TCO_E_TYPE, "start", "no start column" },
        { "start,end,accelerators,end\n", TCO_E_TYPE, "end", "column end appears twice" },
        { "start,end,accelerators,tag.x,tag.y,tag.x\n", TCO_E_TYPE, "tag.x", "column tag.x appears twice" },
        { "start,,end,accelerators\n", TCO_E_TYPE, "", "column 2 of the header has no name" },
        { "\nstart,end,accel\"erators\n", TCO_E_TYPE, "", "line 2: the header row has a quote inside" },
        { "start,end,accelerators,tag.\xff\n", TCO_E_RANGE, "\"tag.\\xff\"", "is not UTF-8" },
        /* a name of 40 bytes (TCO__SHOW_BYTES) is named as written; of 41,
         * quoted and cut after 40 */
        { "start,end,accelerators,abcdefghijabcdefghijabcdefghijabcdefghij\n", TCO_E_UNKNOWN_PARAM,
          "abcdefghijabcdefghijabcdefghijabcdefghij", "column abcdefghijabcdefghijabcdefghijabcdefghij is not" },
        { "start,end,accelerators,abcdefghijabcdefghijabcdefghijabcdefghijk\n", TCO_E_UNKNOWN_PARAM,
          "\"abcdefghijabcdefghijabcdefghijabcdefghij...\"", "column \"abcdefghijabcdefghijabcdefghijabcdefghij...\"" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = tco_records_read_csv(&r, cases[i].text, strlen(cases[i].text), 0, &err);
        if (rc != cases[i].code || !strstr(err.message, cases[i].needle) || strcmp(err.param_name, cases[i].name))
            print_error("case %zu: %s \"%s\" [%s]\n", i, tco_status_name(rc), err.message, err.param_name);
        assert_int_equal(rc, cases[i].code);
        assert_non_null(strstr(err.message, cases[i].needle));
        assert_string_equal(err.param_name, cases[i].name);
        assert_ascii(err.message);
        assert_null(r);
    }
}

static void test_csv_bad_rows(void **state)
{
    (void)state;
    const reader_fn c = tco_records_read_csv;
    const char *head = "start,end,accelerators,utilisation,price_class,state,storage_hot_gb_hours,tag.user\n";
    const char *ok = "2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,0.5,on_demand,completed,1,alice\n";
    char text[2048];
#define ONE(bad, code, field, needle)                                   \
    do {                                                                 \
        snprintf(text, sizeof text, "%s%s%s\n%s", head, ok, bad, ok);    \
        refused_once(c, text, 3, code, field, needle);                   \
    } while (0)
    ONE("2026-11-01T02:00:00Z,2026-11-01T01:00:00Z,8,0.5,spot,completed,1,a", TCO_E_RANGE, "end",
        "end = 1793494800 is before start = 1793498400");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,-8,0.5,spot,completed,1,a", TCO_E_RANGE, "accelerators",
        "accelerators = \"-8\" is out of range: allowed 0 to 1e+07");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,1e999,0.5,spot,completed,1,a", TCO_E_RANGE, "accelerators",
        "too large to be a finite number");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,inf,0.5,spot,completed,1,a", TCO_E_TYPE, "accelerators",
        "\"inf\" is not a number");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,nan,0.5,spot,completed,1,a", TCO_E_TYPE, "accelerators",
        "\"nan\" is not a number");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z, 8,0.5,spot,completed,1,a", TCO_E_TYPE, "accelerators",
        "\" 8\" is not a number");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,0x10,0.5,spot,completed,1,a", TCO_E_TYPE, "accelerators",
        "not a number");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,1.5,spot,completed,1,a", TCO_E_RANGE, "utilisation",
        "utilisation = \"1.5\" is out of range: allowed 0 to 1 (empty when unknown)");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,-1,spot,completed,1,a", TCO_E_RANGE, "utilisation",
        "utilisation = \"-1\"");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,0.5,cheap,completed,1,a", TCO_E_RANGE, "price_class",
        "price_class = \"cheap\" is not a price class: allowed on_demand, reserved, spot, owned");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,0.5,Spot,completed,1,a", TCO_E_RANGE, "price_class",
        "\"Spot\"");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,0.5,spot,done,1,a", TCO_E_RANGE, "state",
        "state = \"done\" is not a job state: allowed completed, failed, cancelled, running");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,0.5,spot,completed,-1,a", TCO_E_RANGE,
        "storage_hot_gb_hours", "storage_hot_gb_hours = \"-1\" is negative");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,0.5,spot,completed,1GB,a", TCO_E_TYPE,
        "storage_hot_gb_hours", "\"1GB\" is not a number");
    ONE("2026-11-01T00:00:00,2026-11-01T01:00:00Z,8,0.5,spot,completed,1,a", TCO_E_TYPE, "start",
        "start = \"2026-11-01T00:00:00\" is not a time");
    ONE("2026-13-01T00:00:00Z,2026-11-01T01:00:00Z,8,0.5,spot,completed,1,a", TCO_E_TYPE, "start",
        "is not a time");
    /* each field one past its largest (23:59:59, offsets to 23:59) */
    ONE("2026-11-01T24:00:00Z,2026-11-02T01:00:00Z,8,0.5,spot,completed,1,a", TCO_E_TYPE, "start", "is not a time");
    ONE("2026-11-01T00:60:00Z,2026-11-02T01:00:00Z,8,0.5,spot,completed,1,a", TCO_E_TYPE, "start", "is not a time");
    ONE("2026-11-01T00:00:60Z,2026-11-02T01:00:00Z,8,0.5,spot,completed,1,a", TCO_E_TYPE, "start", "is not a time");
    ONE("2026-11-01T00:00:00+24:00,2026-11-02T01:00:00Z,8,0.5,spot,completed,1,a", TCO_E_TYPE, "start",
        "is not a time");
    ONE("2026-11-01T00:00:00+00:60,2026-11-02T01:00:00Z,8,0.5,spot,completed,1,a", TCO_E_TYPE, "start",
        "is not a time");
    ONE("2026-11-01T00:00:00Z,-5,8,0.5,spot,completed,1,a", TCO_E_RANGE, "end", "end = \"-5\" is outside 1970 to 9999");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,,0.5,spot,completed,1,a", TCO_E_TYPE, "accelerators",
        "accelerators is empty");
    ONE(",2026-11-01T01:00:00Z,8,0.5,spot,completed,1,a", TCO_E_TYPE, "start", "start is empty");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,0.5,spot,completed,1", TCO_E_TYPE, "",
        "the row has 7 fields, the header 8");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,0.5,spot,completed,1,a,b", TCO_E_TYPE, "",
        "the row has 9 fields");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,0.5,spot,completed,1,\x01\x7f\xc3", TCO_E_RANGE, "tag.user",
        "tag.user = \"\\x01\\x7f\\xc3\" holds a control character (byte 0)");
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,8,0.5,spot,completed,1,a\x7f", TCO_E_RANGE, "tag.user",
        "tag.user = \"a\\x7f\" holds a control character (byte 1)");
    /* The first problem of a row is the one reported. */
    ONE("2026-11-01T00:00:00Z,2026-11-01T01:00:00Z,-8,9,spot,completed,1,a", TCO_E_RANGE, "accelerators",
        "accelerators");
#undef ONE
    /* Every bad row of a file, each with its line. */
    snprintf(text, sizeof text, "%s%s%s%s%s%s", head, ok, "1,2,-3,,,,,\n", ok, "\n1,2,3,,,,,,\n", "1,2,3,,,,,\n");
    tco_records *r = CSV(text);
    assert_int_equal(tco_records_count(r), 3);
    assert_int_equal(tco_records_bad_count(r), 2);
    assert_bad(r, 0, 3, "accelerators");
    assert_bad(r, 1, 6, "9 fields");
    tco_error err = TCO_ERROR_INIT;
    const char *why = NULL;
    uint64_t line = 0;
    assert_int_equal(tco_records_bad_at(r, 2, &line, &why, &err), TCO_E_INDEX);
    assert_int_equal(tco_records_bad_at(NULL, 0, &line, &why, &err), TCO_E_NULL);
    tco_records_free(r);
}

static void test_csv_numbers(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        double value;
    } good[] = {
        { "8", 8 },       { "+8", 8 },           { "8.", 8 },           { ".5", 0.5 },      { "0.1", 0.1 },
        { "1e3", 1e3 },   { "2.5E-1", 0.25 },    { "-0", 0 },           { "007", 7 },       { "0.000000001", 1e-9 },
        { "123456789012345", 123456789012345.0 }, { "1.7976931348623157e308", 1.7976931348623157e308 },
        { "12345678901234567890", 12345678901234567890.0 }, { "4.9e-324", 4.9e-324 }, { "1e-400", 0 },
    };
    char text[256];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        snprintf(text, sizeof text, "start,end,accelerators,storage_cold_gb_hours\n0,0,0,%s\n", good[i].text);
        tco_records *r = CSV(text);
        assert_int_equal(tco_records_bad_count(r), 0);
        double got = rec(r, 0)->storage_gb_hours[TCO_TIER_COLD];
        double tol = fabs(good[i].value) * 2.3e-16; /* within an ulp */
        if (!(fabs(got - good[i].value) <= tol))
            print_error("%s read as %.17g\n", good[i].text, got);
        assert_true(fabs(got - good[i].value) <= tol);
        tco_records_free(r);
    }
    /* Up to 15 digits and exponents to 22, exactly what the compiler reads. */
    assert_true(strtod("0.1", NULL) == 0.1);
    const char *bad[] = { "", "-", "+", ".", "e3", "1e", "1e+", "1..2", "1.2.3", "--1", "1,5", "1 ", "0x1p3", "١" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "start,end,accelerators,storage_cold_gb_hours\n0,0,0,\"%s\"\n", bad[i]);
        tco_records *r = CSV(text);
        assert_int_equal(tco_records_count(r), bad[i][0] ? 0 : 1); /* empty: the default 0 */
        tco_records_free(r);
    }
}

static void test_csv_times(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        double value;
    } good[] = {
        { "1970-01-01T00:00:00Z", 0 },
        { "2000-02-29T12:34:56Z", 951827696 },
        { "2024-02-29T00:00:00Z", 1709164800 },
        { "9999-12-31T23:59:59Z", 253402300799.0 },
        { "2026-11-01T00:00:00-00:30", 1793491200.0 + 1800 },
        { "2026-11-01T00:00:00.5Z", 1793491200.5 },
        { "0", 0 },
        { "253402300799", 253402300799.0 },
        { "1793491200.25", 1793491200.25 },
    };
    char text[256];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        snprintf(text, sizeof text, "start,end,accelerators\n%s,253402300799,1\n", good[i].text);
        tco_records *r = CSV(text);
        assert_int_equal(tco_records_bad_count(r), 0);
        if (rec(r, 0)->start != good[i].value)
            print_error("%s read as %.17g\n", good[i].text, rec(r, 0)->start);
        assert_true(rec(r, 0)->start == good[i].value);
        tco_records_free(r);
    }
    const char *bad[] = {
        "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-01T24:00:00Z",
        "2026-11-01T00:60:00Z", "2026-11-01T00:00:60Z", "2026-11-01 00:00:00Z", "2026-11-1T00:00:00Z",
        "2026-11-01T00:00:00z", "2026-11-01T00:00:00+0100", "2026-11-01T00:00:00+24:00", "2026-11-01T00:00:00.Z",
        "2026-11-01T00:00:00ZZ", "1969-12-31T23:59:59Z", "253402300800", "-1", "1e20",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "start,end,accelerators\n%s,253402300799,1\n", bad[i]);
        tco_records *r = CSV(text);
        if (tco_records_count(r) != 0)
            print_error("%s was read\n", bad[i]);
        assert_int_equal(tco_records_count(r), 0);
        assert_int_equal(tco_records_bad_count(r), 1);
        tco_records_free(r);
    }
}

static void test_reader_arguments(void **state)
{
    (void)state;
    tco_records *r = NULL;
    tco_error err = TCO_ERROR_INIT;
    const reader_fn readers[] = { tco_records_read_csv, tco_records_read_sacct };
    for (int i = 0; i < 2; i++) {
        assert_int_equal(readers[i](NULL, "", 0, 0, &err), TCO_E_NULL);
        assert_int_equal(readers[i](&r, NULL, 0, 0, &err), TCO_E_NULL);
        assert_int_equal(readers[i](&r, "", 0, 2, &err), TCO_E_RANGE);
        assert_string_equal(err.param_name, "flags");
        assert_null(r);
    }
    /* The accessors accept NULL. */
    size_t pairs = 7;
    assert_int_equal(tco_records_count(NULL), 0);
    assert_null(tco_records_data(NULL));
    assert_null(tco_records_tag_pairs(NULL, &pairs));
    assert_int_equal(pairs, 0);
    assert_null(tco_records_tags(NULL));
    assert_int_equal(tco_records_bad_count(NULL), 0);
    tco_records_free(NULL);
    /* The text is read as given: len bytes, NUL or not. */
    const char *text = "1|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1\nGARBAGE";
    r = NULL;
    assert_int_equal(tco_records_read_sacct(&r, text, (size_t)(strchr(text, 'G') - text), TCO_READ_STRICT, &err), TCO_OK);
    assert_int_equal(tco_records_count(r), 1);
    tco_records_free(r);
}

/* ---- out of memory ------------------------------------------------------ */

/* Every allocation of a read failing in turn: TCO_E_NOMEM, *out untouched,
 * nothing leaked; then the read succeeds. */
static void fail_each_allocation(reader_fn read, const char *text, uint32_t flags)
{
    tco_records *want = NULL;
    assert_int_equal(read(&want, text, strlen(text), flags, NULL), TCO_OK);
    size_t want_pairs;
    const uint32_t *want_pair = tco_records_tag_pairs(want, &want_pairs);
    long k;
    for (k = 0;; k++) {
        tco_records *r = NULL;
        tco_error err = TCO_ERROR_INIT;
        long before = alloc_live;
        alloc_fail_in = k;
        int rc = read(&r, text, strlen(text), flags, &err);
        alloc_fail_in = -1;
        if (rc == TCO_OK) { /* no allocation failed: what a read without failures gives */
            assert_non_null(r);
            size_t pairs;
            const uint32_t *pair = tco_records_tag_pairs(r, &pairs);
            assert_int_equal(tco_records_count(r), tco_records_count(want));
            assert_int_equal(tco_records_bad_count(r), tco_records_bad_count(want));
            assert_int_equal(tco_tags_count(tco_records_tags(r)), tco_tags_count(tco_records_tags(want)));
            assert_int_equal(pairs, want_pairs);
            assert_memory_equal(pair, want_pair, 2 * pairs * sizeof *pair);
            tco_records_free(r);
            assert_int_equal(alloc_live, before);
            break;
        }
        assert_int_equal(rc, TCO_E_NOMEM);
        assert_int_equal(err.code, TCO_E_NOMEM);
        assert_null(r);
        assert_int_equal(alloc_live, before);
    }
    assert_true(k >= 5); /* the set, the tags, records, pairs, texts: each was made to fail */
    tco_records_free(want);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    if (!alloc_counting())
        skip();
    fail_each_allocation(tco_records_read_sacct, day, 0);
    char csv[1 << 16];
    size_t n = (size_t)snprintf(csv, sizeof csv, "start,end,accelerators,tag.user,tag.n\n");
    for (int i = 0; i < 600; i++) /* past the first capacity of every array */
        n += (size_t)snprintf(csv + n, sizeof csv - n, "0,1,2,user%d,%d\n%s", i % 7, i, i % 50 ? "" : "0,0,-1,,\n");
    fail_each_allocation(tco_records_read_csv, csv, 0);

    /* A failed intern changes nothing. */
    tco_tags *t;
    uint32_t id;
    assert_int_equal(tco_tags_new(&t, NULL), TCO_OK);
    for (int i = 0; i < 200; i++) {
        char buf[16];
        int len = snprintf(buf, sizeof buf, "t%d", i);
        for (long k = 0;; k++) {
            size_t count = tco_tags_count(t);
            alloc_fail_in = k;
            int rc = tco_tags_intern(t, buf, (size_t)len, &id, NULL);
            alloc_fail_in = -1;
            if (rc == TCO_OK)
                break;
            assert_int_equal(rc, TCO_E_NOMEM);
            assert_int_equal(tco_tags_count(t), count);
            assert_int_equal(tco_tags_find(t, buf, (size_t)len, &id, NULL), TCO_E_INDEX);
        }
        assert_int_equal(id, (uint32_t)i);
    }
    for (int i = 0; i < 200; i++) {
        char buf[16];
        int len = snprintf(buf, sizeof buf, "t%d", i);
        assert_int_equal(tco_tags_find(t, buf, (size_t)len, &id, NULL), TCO_OK);
        assert_int_equal(id, (uint32_t)i);
    }
    tco_tags_free(t);
    alloc_fail_in = 0;
    assert_int_equal(tco_tags_new(&t, NULL), TCO_E_NOMEM);
    alloc_fail_in = -1;
}

/* ---- corners ------------------------------------------------------------ */

static void test_sacct_corners(void **state)
{
    (void)state;
    const reader_fn s = tco_records_read_sacct;
    /* A first line whose JobID has as many letters as "JobID" is a job,
     * not a header; End = None reads as Unknown does: Start + ElapsedRaw;
     * entries other than whole GPUs (gres/gpumem) are not counted. */
    tco_records *r = SACCT("12345|j|a|u|p|RUNNING|2026-11-01T00:00:00|None|600|gres/gpumem=80G,gres/gpu=2\n");
    assert_int_equal(tco_records_count(r), 1);
    assert_string_equal(tag_of(r, 0, "job_id"), "12345");
    assert_true(rec(r, 0)->end == rec(r, 0)->start + 600);
    assert_true(rec(r, 0)->accelerators == 2);
    assert_int_equal(rec(r, 0)->state, TCO_JOB_RUNNING);
    tco_records_free(r);
    /* "by" must be followed by who: "CANCELLED by" alone, or another word
     * after the state, is no state */
    refused_once(s, "2|j|a|u|p|CANCELLED by|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1\n", 1,
                 TCO_E_RANGE, "State", "State = \"CANCELLED by\" is not a Slurm job state");
    refused_once(s, "2|j|a|u|p|CANCELLED at 1000|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1\n", 1,
                 TCO_E_RANGE, "State", "\"CANCELLED at 1000\"");
    refused_once(s, "2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|=4\n", 1, TCO_E_TYPE,
                 "AllocTRES", "entry \"=4\" is not name=count");
    /* still running at 9999-12-31T23:00:00 for two hours: past 9999 */
    refused_once(s, "2|j|a|u|p|RUNNING|9999-12-31T23:00:00|Unknown|7200|gres/gpu=1\n", 1, TCO_E_RANGE,
                 "ElapsedRaw", "ElapsedRaw = 7200 runs past 9999");
    /* for 3,599 s: to 9999-12-31T23:59:59, 253,402,300,799 s (test_csv_times),
     * the last second allowed */
    r = SACCT("2|j|a|u|p|RUNNING|9999-12-31T23:00:00|Unknown|3599|gres/gpu=1\n");
    assert_int_equal(tco_records_count(r), 1);
    assert_true(rec(r, 0)->end == 253402300799.0);
    tco_records_free(r);
    /* A header of too few fields, or too many. */
    tco_error err = TCO_ERROR_INIT;
    const char *few = "JobID|JobName\n";
    r = NULL;
    assert_int_equal(tco_records_read_sacct(&r, few, strlen(few), 0, &err), TCO_E_TYPE);
    assert_string_equal(err.param_name, "Account");
    assert_non_null(strstr(err.message, "line 1: the header names \"\" as field 3 where Account belongs"));
    const char *many = "jobid|jobname|account|user|partition|state|start|end|elapsedraw|alloctres|comment\n";
    assert_int_equal(tco_records_read_sacct(&r, many, strlen(many), 0, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "line 1: the header names 11 fields, 10 expected"));
    assert_null(r);
}

static void test_csv_corners(void **state)
{
    (void)state;
    const reader_fn c = tco_records_read_csv;
    /* The text may end without a newline: after a comma (an empty last
     * field), after a closing quote, after a quote and a CR, or after an
     * unquoted field and a CR (which is the line's end, not the field's). */
    const char *ends[] = { "start,end,accelerators,tag.a\n0,0,1,", "start,end,accelerators,tag.a\n0,0,1,\"x\"",
                           "start,end,accelerators,tag.a\n0,0,1,\"x\"\r", "start,end,accelerators,tag.a\n0,0,1,x\r" };
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        tco_records *r = CSV(ends[i]);
        assert_int_equal(tco_records_count(r), 1);
        assert_int_equal(tco_records_bad_count(r), 0);
        assert_true(rec(r, 0)->accelerators == 1);
        if (i == 0)
            assert_null(tag_of(r, 0, "a"));
        else
            assert_string_equal(tag_of(r, 0, "a"), "x");
        tco_records_free(r);
    }
    /* A CR not before the line's end belongs to the field. */
    refused_once(c, "start,end,accelerators\n0\r,0,1\n", 2, TCO_E_TYPE, "start", "start = \"0\\x0d\" is not a time");
    refused_once(c, "start,end,accelerators\n0,0,\"1\"\rx\n", 2, TCO_E_TYPE, "", "text after a closing quote");
    refused_once(c, "start,end,accelerators\n0,0,1\n\r", 3, TCO_E_TYPE, "", "the row has 1 fields, the header 3");
    /* Text after a closing quote stays that problem, quotes or not; of
     * two problems in a row, the first field's is told. */
    refused_once(c, "start,end,accelerators\n0,0,\"1\"x\"y\n", 2, TCO_E_TYPE, "",
                 "text after a closing quote (field 3)");
    refused_once(c, "start,end,accelerators\n0\"0,\"0\"x,1\n", 2, TCO_E_TYPE, "", "double the quote) (field 1)");
    /* TCO_TAG_MAX + 2 quotes, doubled: past the field's slot, still told
     * too long */
    char text[1024], value[2 * TCO_TAG_MAX + 5];
    memset(value, '"', 2 * TCO_TAG_MAX + 4);
    value[2 * TCO_TAG_MAX + 4] = '\0';
    snprintf(text, sizeof text, "start,end,accelerators,tag.q\n1,2,3,\"%s\"\n", value);
    refused_once(c, text, 2, TCO_E_RANGE, "tag.q", "is too long");
    /* Column names that are not plain ASCII, or longer than a message
     * shows, are shown escaped and cut. */
    const struct {
        const char *text, *name;
    } heads[] = {
        { "start,end,accelerators,a\\b\n", "\"a\\\\b\"" },
        { "start,end,accelerators,a\x7f\n", "\"a\\x7f\"" },
        { "start,end,accelerators,caf\xc3\xa9\n", "\"caf\\xc3\\xa9\"" },
        { "start,end,accelerators,abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz\n",
          "\"abcdefghijklmnopqrstuvwxyzabcdefghijklmn...\"" },
    };
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        tco_records *r = NULL;
        tco_error err = TCO_ERROR_INIT;
        assert_int_equal(tco_records_read_csv(&r, heads[i].text, strlen(heads[i].text), 0, &err), TCO_E_UNKNOWN_PARAM);
        if (strcmp(err.param_name, heads[i].name))
            print_error("named %s, want %s\n", err.param_name, heads[i].name);
        assert_string_equal(err.param_name, heads[i].name);
    }
    /* Numbers and times: a negative too small for the fast path (strtod
     * reads it, sign and all) is still negative; a year 0000 is before
     * 1970; digits after an exponent must end the field; a fraction needs
     * its zone and at most 9 digits. */
    const char *head = "start,end,accelerators,storage_hot_gb_hours\n";
    snprintf(text, sizeof text, "%s0,0,1,-1e-30\n", head);
    refused_once(c, text, 2, TCO_E_RANGE, "storage_hot_gb_hours", "\"-1e-30\" is negative");
    snprintf(text, sizeof text, "%s0,0,1,1e5x\n", head);
    refused_once(c, text, 2, TCO_E_TYPE, "storage_hot_gb_hours", "\"1e5x\" is not a number");
    snprintf(text, sizeof text, "%s0,0,1,1e+x\n", head);
    refused_once(c, text, 2, TCO_E_TYPE, "storage_hot_gb_hours", "\"1e+x\" is not a number");
    snprintf(text, sizeof text, "%s2026-11-01T00:00:00~01:00,0,1,0\n", head);
    refused_once(c, text, 2, TCO_E_TYPE, "start", "is not a time");
    snprintf(text, sizeof text, "%s0000-01-01T00:00:00Z,0,1,0\n", head);
    refused_once(c, text, 2, TCO_E_RANGE, "start", "outside 1970 to 9999");
    snprintf(text, sizeof text, "%s2026-11-01T00:00:00.5,0,1,0\n", head);
    refused_once(c, text, 2, TCO_E_TYPE, "start", "is not a time");
    snprintf(text, sizeof text, "%s2026-11-01T00:00:00.1234567890Z,0,1,0\n", head);
    refused_once(c, text, 2, TCO_E_TYPE, "start", "is not a time");
    snprintf(text, sizeof text, "%s2026-11-01T00:00:00.123456789Z,2026-11-01T00:00:01Z,1,0\n", head);
    tco_records *r = CSV(text);
    assert_true(rec(r, 0)->start == 1793491200.123456789);
    /* The accessors' optional outputs. */
    size_t pairs;
    assert_null(tco_records_tag_pairs(r, NULL));
    assert_null(tco_records_tag_pairs(r, &pairs));
    assert_int_equal(pairs, 0);
    tco_records_free(r);
    r = CSV("start,end,accelerators\n0,0,x\n");
    assert_int_equal(tco_records_bad_at(r, 0, NULL, NULL, NULL), TCO_OK);
    tco_records_free(r);
    tco_tags *t;
    uint32_t id;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_tags_new(&t, NULL), TCO_OK);
    assert_int_equal(tco_tags_find(NULL, "a", 1, &id, &err), TCO_E_NULL);
    assert_string_equal(err.message, "tags must not be NULL");
    assert_int_equal(tco_tags_find(t, "a", 1, NULL, &err), TCO_E_NULL);
    assert_string_equal(err.message, "id must not be NULL");
    assert_int_equal(tco_tags_intern(t, NULL, 1, &id, &err), TCO_E_NULL);
    assert_string_equal(err.message, "text must not be NULL");
    tco_tags_free(t);
}

/* A reader reads len bytes and not one more, whatever follows them: a
 * closing quote, a CR, a zone letter or a line's rest past len are not
 * read. */
static void test_len_bytes_no_more(void **state)
{
    (void)state;
    const char *text[] = {
        "start,end,accelerators,tag.a\n0,0,1,\"x\"\"",    /* past len: a second quote, as if doubled */
        "start,end,accelerators\n0,0,1\n\r\n",            /* past len: the LF that would make a blank line */
        "accelerators,end,start\n1,0,2026-11-01T00:00:00Z", /* past len: the zone */
    };
    tco_records *r = NULL;
    tco_error err = TCO_ERROR_INIT;
    assert_int_equal(tco_records_read_csv(&r, text[0], strlen(text[0]) - 1, TCO_READ_STRICT, &err), TCO_OK);
    assert_int_equal(tco_records_count(r), 1);
    assert_string_equal(tag_of(r, 0, "a"), "x");
    tco_records_free(r);
    r = NULL;
    assert_int_equal(tco_records_read_csv(&r, text[1], strlen(text[1]) - 1, 0, &err), TCO_OK);
    assert_int_equal(tco_records_count(r), 1);
    assert_int_equal(tco_records_bad_count(r), 1);
    assert_bad(r, 0, 3, "the row has 1 fields, the header 3");
    tco_records_free(r);
    r = NULL;
    assert_int_equal(tco_records_read_csv(&r, text[2], strlen(text[2]) - 1, TCO_READ_STRICT, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "line 2: start = \"2026-11-01T00:00:00\" is not a time"));
    /* a number's last digit, of its whole part or its fraction, or its
     * point, at len */
    const char *digits[] = { "start,end,accelerators\n0,0,15", "start,end,accelerators\n0,0,1.57",
                             "start,end,accelerators\n0,0,2." };
    const double want[] = { 1, 1.5, 2 };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(tco_records_read_csv(&r, digits[i], strlen(digits[i]) - 1, TCO_READ_STRICT, &err), TCO_OK);
        assert_true(rec(r, 0)->accelerators == want[i]);
        tco_records_free(r);
        r = NULL;
    }
    /* the last line of a sacct text, after others, without its newline */
    const char *sacct = "1|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=1\n"
                        "2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=2,x";
    assert_int_equal(tco_records_read_sacct(&r, sacct, strlen(sacct) - 2, TCO_READ_STRICT, &err), TCO_OK);
    assert_int_equal(tco_records_count(r), 2);
    assert_true(rec(r, 1)->accelerators == 2);
    tco_records_free(r);
    /* a CR inside a row that starts with it is no blank line */
    refused_once(tco_records_read_csv, "start,end,accelerators\n0,0,1\n\rx\n", 3, TCO_E_TYPE, "",
                 "the row has 1 fields, the header 3");
    /* the column a header's quoting problem is in */
    const char *head = "start,end,accel\"erators\n";
    assert_int_equal(tco_records_read_csv(&r, head, strlen(head), 0, &err), TCO_E_TYPE);
    assert_non_null(strstr(err.message, "(column 3)"));
}

/* The bounds of what the readers accept, each exactly: a tag key of
 * TCO_TAG_MAX bytes, 10^7 GPUs (accelerators' maximum), gres/gpu=0 as
 * the count even beside typed counts; a number too small for a double is
 * +0, not -0. */
static void test_reader_bounds(void **state)
{
    (void)state;
    char key[TCO_TAG_MAX + 1], text[1024];
    memset(key, 'k', TCO_TAG_MAX);
    key[TCO_TAG_MAX] = '\0';
    snprintf(text, sizeof text, "start,end,accelerators,tag.%s\n0,0,1,v\n", key);
    tco_records *r = CSV(text);
    assert_string_equal(tag_of(r, 0, key), "v");
    tco_records_free(r);
    r = SACCT("1|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=10000000\n"
              "2|j|a|u|p|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|3600|gres/gpu=0,gres/gpu:a100=2\n");
    assert_int_equal(tco_records_count(r), 2);
    assert_true(rec(r, 0)->accelerators == 1e7);
    assert_true(rec(r, 1)->accelerators == 0);
    tco_records_free(r);
    r = CSV("start,end,accelerators,storage_hot_gb_hours\n0,0,1,1e-330\n");
    assert_true(rec(r, 0)->storage_gb_hours[TCO_TIER_HOT] == 0);
    assert_false(signbit(rec(r, 0)->storage_gb_hours[TCO_TIER_HOT]));
    tco_records_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tags_dense_ids_in_first_seen_order),
        cmocka_unit_test(test_tags_many_texts_and_stable_pointers),
        cmocka_unit_test(test_tags_limits),
        cmocka_unit_test(test_job_state_names),
        cmocka_unit_test(test_sacct_day),
        cmocka_unit_test(test_sacct_states),
        cmocka_unit_test(test_sacct_lines_and_layout),
        cmocka_unit_test(test_sacct_bad_rows),
        cmocka_unit_test(test_sacct_steps),
        cmocka_unit_test(test_csv_every_column),
        cmocka_unit_test(test_csv_minimal_and_order),
        cmocka_unit_test(test_csv_quoting),
        cmocka_unit_test(test_csv_header_errors),
        cmocka_unit_test(test_csv_bad_rows),
        cmocka_unit_test(test_csv_numbers),
        cmocka_unit_test(test_csv_times),
        cmocka_unit_test(test_reader_arguments),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_sacct_corners),
        cmocka_unit_test(test_csv_corners),
        cmocka_unit_test(test_len_bytes_no_more),
        cmocka_unit_test(test_reader_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
