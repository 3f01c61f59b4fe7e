/* Interned texts (doc/records.md, "Tags"): each text is stored once, named
 * by a dense id in first-seen order, and found by XXH3-64 of its bytes in
 * an open-addressing table (linear probing, at most half full). Equal
 * hashes of different texts are told apart by their bytes. Texts live in
 * blocks that never move, so a pointer from tco_tags_text stays valid for
 * as long as the table lives, however many texts come after it.
 * xxHash is compiled in (XXH_INLINE_ALL), as in core/fingerprint.c. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdlib.h>
#include <string.h>

#include "records/reader.h"
#include "records/records.h"

/* Ids are uint32_t and slots hold id + 1: stay well below both limits. */
#define TAGS_MAX 0x7fffffffu
#define BLOCK_MIN 4096
#define BLOCK_MAX (1u << 20)

typedef struct entry {
    uint64_t hash;
    const char *text; /* NUL-terminated, in a block */
    uint32_t len;
} entry;

/* A slot holds id + 1 (0: empty) and the hash's high half, so that most
 * misses are told without reading the entry. */
typedef struct slot {
    uint32_t id1;
    uint32_t hi;
} slot;

typedef struct block {
    struct block *prev;
    size_t used, cap;
    char bytes[];
} block;

struct tco_tags {
    entry *entry;
    size_t count, entry_cap;
    slot *slot;
    size_t slot_cap; /* a power of two, or 0 */
    block *last;     /* the block being filled; older ones behind it */
};

uint64_t tco__tags_hash(const char *text, size_t len)
{
    return XXH3_64bits(text, len);
}

const char *tco__tag_problem(const char *text, size_t len, size_t *at)
{
    if (len > TCO_TAG_MAX) {
        *at = len;
        return "is too long";
    }
    for (size_t i = 0; i < len; i++) /* a control byte would reach a terminal or a CSV cell raw */
        if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f) {
            *at = i;
            return text[i] ? "holds a control character" : "holds a NUL byte";
        }
    size_t bad = tco__utf8_invalid_at((const unsigned char *)text, len);
    if (bad < len) {
        *at = bad;
        return "is not UTF-8";
    }
    return NULL;
}

int tco_tags_new(tco_tags **out, tco_error *err)
{
    if (!out)
        return tco__fail(err, TCO_E_NULL, "out must not be NULL");
    tco_tags *t = calloc(1, sizeof *t);
    if (!t)
        return tco__fail(err, TCO_E_NOMEM, "no memory for a tags table");
    *out = t;
    return TCO_OK;
}

void tco_tags_free(tco_tags *tags)
{
    if (!tags)
        return;
    for (block *b = tags->last; b;) {
        block *prev = b->prev;
        free(b);
        b = prev;
    }
    free(tags->entry);
    free(tags->slot);
    free(tags);
}

size_t tco_tags_count(const tco_tags *tags)
{
    return tags ? tags->count : 0;
}

size_t tco__tags_slots(const tco_tags *tags)
{
    return tags ? tags->slot_cap : 0;
}

const char *tco_tags_text(const tco_tags *tags, uint32_t id)
{
    return tags && id < tags->count ? tags->entry[id].text : NULL;
}

/* The slot of text, or of the empty slot where it would go. */
static size_t probe(const tco_tags *t, const char *text, size_t len, uint64_t hash)
{
    size_t mask = t->slot_cap - 1, i = (size_t)hash & mask;
    uint32_t hi = (uint32_t)(hash >> 32);
    for (;; i = (i + 1) & mask) {
        const slot *s = &t->slot[i];
        if (s->id1 == 0)
            return i;
        if (s->hi == hi) {
            const entry *e = &t->entry[s->id1 - 1];
            if (e->hash == hash && e->len == len && memcmp(e->text, text, len) == 0)
                return i;
        }
    }
}

int tco__tags_find_hashed(const tco_tags *tags, const char *text, size_t len, uint64_t hash, uint32_t *id)
{
    if (tags->slot_cap == 0)
        return TCO_E_INDEX;
    const slot *s = &tags->slot[probe(tags, text, len, hash)];
    if (s->id1 == 0)
        return TCO_E_INDEX;
    *id = s->id1 - 1;
    return TCO_OK;
}

/* Doubles the slots (from 64) and files every entry again by its stored
 * hash; on failure the old table stays. */
static int grow_slots(tco_tags *t, tco_error *err)
{
    size_t cap = t->slot_cap ? 2 * t->slot_cap : 64;
    slot *s = calloc(cap, sizeof *s);
    if (!s)
        return tco__fail(err, TCO_E_NOMEM, "no memory for a tags table of %zu slots", cap);
    for (size_t id = 0; id < t->count; id++) {
        uint64_t h = t->entry[id].hash;
        size_t i = (size_t)h & (cap - 1);
        while (s[i].id1)
            i = (i + 1) & (cap - 1);
        s[i].id1 = (uint32_t)id + 1;
        s[i].hi = (uint32_t)(h >> 32);
    }
    free(t->slot);
    t->slot = s;
    t->slot_cap = cap;
    return TCO_OK;
}

/* Room for len + 1 bytes in the last block, or a new block twice the last
 * one's size (up to BLOCK_MAX): blocks never move. */
static char *arena_room(tco_tags *t, size_t len, tco_error *err)
{
    block *b = t->last;
    if (!b || b->cap - b->used < len + 1) {
        /* len <= TCO_TAG_MAX (tco__tag_problem): any block holds it */
        size_t cap = b ? (b->cap < BLOCK_MAX ? 2 * b->cap : BLOCK_MAX) : BLOCK_MIN;
        block *nb = malloc(sizeof *nb + cap);
        if (!nb)
            return tco__fail(err, TCO_E_NOMEM, "no memory for %zu bytes of tag texts", cap), NULL;
        nb->prev = b;
        nb->used = 0;
        nb->cap = cap;
        t->last = b = nb;
    }
    return b->bytes + b->used;
}

int tco__tags_intern_hashed(tco_tags *tags, const char *text, size_t len, uint64_t hash, uint32_t *id,
                            tco_error *err)
{
    if (tags->slot_cap && tco__tags_find_hashed(tags, text, len, hash, id) == TCO_OK)
        return TCO_OK;
    if (tags->count >= TAGS_MAX)
        return tco__fail(err, TCO_E_RANGE, "the tags table holds %zu texts already: allowed at most %u",
                         tags->count, TAGS_MAX);
    /* Everything that can fail comes first: a failed intern changes nothing
     * that a caller can see. */
    if (2 * (tags->count + 1) > tags->slot_cap) {
        int rc = grow_slots(tags, err);
        if (rc)
            return rc;
    }
    if (tags->count == tags->entry_cap) {
        size_t cap = tags->entry_cap ? 2 * tags->entry_cap : 32;
        entry *e = realloc(tags->entry, cap * sizeof *e);
        if (!e)
            return tco__fail(err, TCO_E_NOMEM, "no memory for %zu tag texts", cap);
        tags->entry = e;
        tags->entry_cap = cap;
    }
    char *room = arena_room(tags, len, err);
    if (!room)
        return TCO_E_NOMEM;
    if (len)
        memcpy(room, text, len);
    room[len] = '\0';
    tags->last->used += len + 1;

    uint32_t n = (uint32_t)tags->count;
    tags->entry[n] = (entry){ hash, room, (uint32_t)len };
    slot *s = &tags->slot[probe(tags, text, len, hash)];
    s->id1 = n + 1;
    s->hi = (uint32_t)(hash >> 32);
    tags->count++;
    *id = n;
    return TCO_OK;
}

int tco_tags_intern(tco_tags *tags, const char *text, size_t len, uint32_t *id, tco_error *err)
{
    if (!tags || !text || !id)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !tags ? "tags" : !text ? "text" : "id");
    size_t at;
    const char *problem = tco__tag_problem(text, len, &at);
    if (problem) {
        char shown[TCO__SHOW_MAX];
        tco__show(shown, sizeof shown, text, len);
        if (len > TCO_TAG_MAX)
            return tco__fail(err, TCO_E_RANGE, "tag text %s is %zu bytes long: allowed at most %d", shown, len,
                             TCO_TAG_MAX);
        return tco__fail(err, TCO_E_RANGE, "tag text %s %s (byte %zu): tags are UTF-8 without control characters",
                         shown, problem, at);
    }
    return tco__tags_intern_hashed(tags, text, len, tco__tags_hash(text, len), id, err);
}

int tco_tags_find(const tco_tags *tags, const char *text, size_t len, uint32_t *id, tco_error *err)
{
    if (!tags || !text || !id)
        return tco__fail(err, TCO_E_NULL, "%s must not be NULL", !tags ? "tags" : !text ? "text" : "id");
    if (tco__tags_find_hashed(tags, text, len, tco__tags_hash(text, len), id) == TCO_OK)
        return TCO_OK;
    char shown[TCO__SHOW_MAX];
    tco__show(shown, sizeof shown, text, len);
    return tco__fail(err, TCO_E_INDEX, "tag text %s is not in the table (%zu texts)", shown, tags->count);
}
