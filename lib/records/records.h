/* Usage records (doc/records.md): the interned tag texts and the set of
 * records a reader fills. What the rooms above (attribution, the waste
 * finder) may call: they read the set's arrays directly, add records of
 * their own with tco__records_append and read times as the readers do
 * (the waste finder's deadline tags). Not installed. */
#ifndef TCO_RECORDS_H
#define TCO_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* ---- interned texts (tags.c) ------------------------------------------- */

/* XXH3-64 of text[0 .. len): the hash a text is filed under. */
uint64_t tco__tags_hash(const char *text, size_t len);
/* NULL when text[0 .. len) may be interned (at most TCO_TAG_MAX bytes of
 * UTF-8 without control characters, NUL included), else what is wrong
 * ("is not UTF-8"...), with *at the offending byte (len itself for a text
 * too long). */
const char *tco__tag_problem(const char *text, size_t len, size_t *at);
/* Intern and find with the hash given rather than computed: the public
 * functions call them with tco__tags_hash; white-box tests force
 * collisions through them. The text is not checked (tco__tag_problem). */
int tco__tags_intern_hashed(tco_tags *tags, const char *text, size_t len, uint64_t hash, uint32_t *id,
                            tco_error *err);
/* TCO_OK with *id, or TCO_E_INDEX (err not filled: a miss is not an error
 * to the readers). */
int tco__tags_find_hashed(const tco_tags *tags, const char *text, size_t len, uint64_t hash, uint32_t *id);
/* How many slots the open-addressing table has (a power of two, or 0). */
size_t tco__tags_slots(const tco_tags *tags);

/* ---- the set of records (records.c) ------------------------------------ */

typedef struct bad_row {
    uint64_t line;    /* 1-based */
    size_t at;        /* its reason: offset into reasons */
} bad_row;

struct tco_records {
    tco_record *rec;  /* count of them, this version's struct */
    size_t count, cap;
    uint32_t *pair;   /* 2 x pairs ids: key, value, key, value... */
    size_t pairs, pair_cap;
    tco_tags *tags;   /* owned: every id in pair is one of its */
    bad_row *bad;
    size_t bad_count, bad_cap;
    char *reasons;    /* NUL-terminated reasons, one after another */
    size_t reasons_len, reasons_cap;
};

/* An empty set with an empty tags table. */
int tco__records_new(tco_records **out, tco_error *err);
/* Appends *rec (this version's struct; size, first_tag and tag_count are
 * set here) with n tag pairs (2 x n ids of rs->tags, key then value). */
int tco__records_append(tco_records *rs, const tco_record *rec, const uint32_t *pairs, size_t n, tco_error *err);
/* Appends a refused row: its line and reason (copied). */
int tco__records_bad(tco_records *rs, uint64_t line, const char *reason, tco_error *err);

/* ---- times (reader.c) ------------------------------------------------ */

/* Times, in seconds since 1970-01-01T00:00:00 UTC, from 1970 to the end of
 * 9999: TIME_MAX is 9999-12-31T23:59:59. */
#define TCO__TIME_MAX 253402300799.0
/* YYYY-MM-DDTHH:MM:SS with a real date and time of day (no leap second).
 * With zone, it must go on with an optional fraction (.digits) and Z or an
 * offset +HH:MM / -HH:MM; without, nothing may follow (read as UTC).
 * PARSE_RANGE for a time outside 1970 to 9999. */
int tco__parse_time(const char *s, size_t n, int zone, double *out);

#endif
