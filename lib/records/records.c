/* The set of records a reader fills (doc/records.md): growing arrays of
 * records, of their tag pairs and of the rows refused, with the tags
 * table, all owned together and freed at once. */
#include <stdlib.h>
#include <string.h>

#include "records/records.h"

static const char *const state_names[] = { "completed", "failed", "cancelled", "running" };

const char *tco_job_state_name(int32_t state)
{
    return state >= 0 && state < (int32_t)(sizeof state_names / sizeof state_names[0]) ? state_names[state] : NULL;
}

int tco__records_new(tco_records **out, tco_error *err)
{
    tco_records *rs = calloc(1, sizeof *rs);
    if (!rs)
        return tco__fail(err, TCO_E_NOMEM, "no memory for a set of records");
    int rc = tco_tags_new(&rs->tags, err);
    if (rc) {
        free(rs);
        return rc;
    }
    *out = rs;
    return TCO_OK;
}

void tco_records_free(tco_records *records)
{
    if (!records)
        return;
    free(records->rec);
    free(records->pair);
    free(records->bad);
    free(records->reasons);
    tco_tags_free(records->tags);
    free(records);
}

/* Room for `more` elements of `size` bytes past *count in *p, doubling
 * (from `first`); on failure *p stays as it was. */
static int room(void **p, size_t *cap, size_t count, size_t more, size_t size, size_t first, const char *what,
                tco_error *err)
{
    if (more <= *cap - count)
        return TCO_OK;
    size_t c = *cap ? *cap : first;
    while (c - count < more) {
        if (c > (size_t)-1 / 2 / size)
            return tco__fail(err, TCO_E_NOMEM, "no memory for more %s", what);
        c *= 2;
    }
    void *q = realloc(*p, c * size);
    if (!q)
        return tco__fail(err, TCO_E_NOMEM, "no memory for %zu %s", c, what);
    *p = q;
    *cap = c;
    return TCO_OK;
}

int tco__records_append(tco_records *rs, const tco_record *rec, const uint32_t *pairs, size_t n, tco_error *err)
{
    /* first_tag and tag_count are uint32_t. */
    if (n > UINT32_MAX - rs->pairs)
        return tco__fail(err, TCO_E_RANGE, "the records hold %zu tag pairs already: allowed at most %lu",
                         rs->pairs, (unsigned long)UINT32_MAX);
    void *p = rs->rec;
    int rc = room(&p, &rs->cap, rs->count, 1, sizeof *rs->rec, 1024, "records", err);
    rs->rec = p;
    if (rc)
        return rc;
    p = rs->pair;
    rc = room(&p, &rs->pair_cap, 2 * rs->pairs, 2 * n, sizeof *rs->pair, 4096, "tag pairs", err);
    rs->pair = p;
    if (rc)
        return rc;
    if (n)
        memcpy(rs->pair + 2 * rs->pairs, pairs, 2 * n * sizeof *pairs);
    tco_record *r = &rs->rec[rs->count++];
    *r = *rec;
    r->size = sizeof *r;
    r->first_tag = (uint32_t)rs->pairs;
    r->tag_count = (uint32_t)n;
    rs->pairs += n;
    return TCO_OK;
}

int tco__records_bad(tco_records *rs, uint64_t line, const char *reason, tco_error *err)
{
    size_t len = strlen(reason) + 1;
    void *p = rs->bad;
    int rc = room(&p, &rs->bad_cap, rs->bad_count, 1, sizeof *rs->bad, 16, "refused rows", err);
    rs->bad = p;
    if (rc)
        return rc;
    p = rs->reasons;
    rc = room(&p, &rs->reasons_cap, rs->reasons_len, len, 1, 1024, "bytes of reasons", err);
    rs->reasons = p;
    if (rc)
        return rc;
    memcpy(rs->reasons + rs->reasons_len, reason, len);
    rs->bad[rs->bad_count++] = (bad_row){ line, rs->reasons_len };
    rs->reasons_len += len;
    return TCO_OK;
}

size_t tco_records_count(const tco_records *records)
{
    return records ? records->count : 0;
}

const tco_record *tco_records_data(const tco_records *records)
{
    return records && records->count ? records->rec : NULL;
}

const uint32_t *tco_records_tag_pairs(const tco_records *records, size_t *pairs)
{
    if (pairs)
        *pairs = records ? records->pairs : 0;
    return records && records->pairs ? records->pair : NULL;
}

const tco_tags *tco_records_tags(const tco_records *records)
{
    return records ? records->tags : NULL;
}

size_t tco_records_bad_count(const tco_records *records)
{
    return records ? records->bad_count : 0;
}

int tco_records_bad_at(const tco_records *records, size_t i, uint64_t *line, const char **reason, tco_error *err)
{
    if (!records)
        return tco__fail(err, TCO_E_NULL, "records must not be NULL");
    if (i >= records->bad_count)
        return tco__fail(err, TCO_E_INDEX, "refused row %zu is past the end: there are %zu", i,
                         records->bad_count);
    if (line)
        *line = records->bad[i].line;
    if (reason)
        *reason = records->reasons + records->bad[i].at;
    return TCO_OK;
}
