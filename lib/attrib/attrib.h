/* Attribution: the bill of a period split among the records' groups, to
 * the cent (doc/model.md, section 16). What the rooms above (the FOCUS
 * export, the waste finder) may read: the handle's groups, with their
 * amounts before and after rounding, and each record's part of the bill.
 * Not installed. */
#ifndef TCO_ATTRIB_H
#define TCO_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

#include "attrib/exact.h"
#include "core/core.h"

/* The categories an attribution fills: this version's tco_category values. */
#define TCO__ATTRIB_CATS (TCO_CAT_WASTE + 1)

/* What a group adds up exactly as its records come (exact.h), in the
 * order of its double fields: held by class, used, storage, traffic,
 * storage GB-hours, traffic GB. */
enum { TCO__SUM_HELD = 0, TCO__SUM_USED = 4, TCO__SUM_STORAGE, TCO__SUM_TRAFFIC, TCO__SUM_STORAGE_GBH,
       TCO__SUM_TRAFFIC_GB, TCO__SUMS };

/* One group: a value of by_key[0], or a pair. Amounts in cur are before
 * rounding; cents after. */
typedef struct tco__attrib_group {
    uint32_t value[2];                 /* tag value ids; TCO_TAG_NONE: no such tag (value[1] with by_count 1) */
    uint64_t records;                  /* its records in the period */
    double held[4];                    /* accelerator-hours inside the period, by tco_price_class */
    double used_h;                     /* of those, used (utilisation known, else held) */
    double storage, traffic;           /* cur: its records' storage and traffic, clipped to the period */
    double storage_gbh, traffic_gb;    /* the same in GB-hours (every tier) and GB (every kind) */
    double usage;                      /* cur: its accelerator time priced, the USAGE weight */
    double idle_share, shared_share;   /* of the bill's idle and shared amounts, 0 to 1 */
    double amount;                     /* cur: direct + idle + shared, added by category */
    int64_t total, direct, idle, shared; /* cents: direct + idle + shared = total */
    int64_t cents[TCO__ATTRIB_CATS];   /* cents by category; sums to total */
    tco__exact sum[TCO__SUMS];         /* the exact sums the doubles above are read from */
} tco__attrib_group;

/* What the pass over the records adds up besides the groups: exact, so
 * that parts of the records passed apart merge into the whole's. */
typedef struct tco__attrib_totals {
    tco__exact held, used, clipped;    /* accelerator-hours */
    uint64_t records, outside, overlapping;
    unsigned classes;                  /* bits: the price classes of the records in the period */
} tco__attrib_totals;

/* A record's part of the bill, in the order the records were given. Its
 * direct cost by category is its accelerator time at its class's rates,
 * its storage and its traffic. */
typedef struct tco__attrib_record {
    uint32_t group;                    /* index into group[], or TCO__ATTRIB_OUTSIDE */
    uint8_t price_class;               /* the record's tco_price_class */
    uint8_t flags;                     /* TCO__ATTRIB_OVERLAPPING */
    double held_h, used_h;             /* accelerator-hours inside the period */
    double accel;                      /* cur: its accelerator time, every category */
    double storage, traffic;           /* cur: its storage and traffic, clipped to the period */
} tco__attrib_record;

#define TCO__ATTRIB_OUTSIDE UINT32_MAX /* wholly outside the period: in no group */
#define TCO__ATTRIB_OVERLAPPING 1u     /* its window overlaps another of the same job_id */

struct tco_attribution {
    tco_bill bill;                     /* this version's, complete */
    uint64_t scenario;                 /* the inputs' fingerprint (tco_scenario_fingerprint) */
    tco_tags *texts;                   /* settled from parts: its own texts, which the group values
                                        * and the request's ids name; else NULL (the caller's) */
    tco_attribution_request request;   /* as given, size set to this version's */
    tco__attrib_group *group;          /* in the order the records first name them */
    size_t groups;
    uint32_t *order;                   /* the bill's order (total descending, ties by value ids):
                                        * group i of tco_attribution_group_at is group[order[i]] */
    tco__attrib_record *record;        /* one per record given */
    size_t records;
    /* cur per accelerator-hour by category: of a record by its price
     * class, and of idle capacity (the cluster's own blend). */
    double rate[4][TCO__ATTRIB_CATS];
    double idle_rate[TCO__ATTRIB_CATS];
    rates rates;                       /* the pricing table's, list prices resolved */
    /* idle_rate by the class of the cluster's capacity it would be held
     * under (its shares of owned, reserved, spot and on-demand): the
     * columns add up to idle_rate. */
    double idle_class[4][TCO__ATTRIB_CATS];
    double idle_mix[4];                /* those shares, by tco_price_class: they add up to 1 */
    double idle_hours;                 /* capacity no record held in the period */
    double events_per_hour;            /* cur per hour of the period: event-driven staff (tco__hardware) */
    char currency[TCO_TEXT_MAX];       /* the pricing table's */
    /* cur by category: the period's idle capacity and shared services,
     * before they are spread; a group's part is its idle_share and
     * shared_share of them. */
    double idle[TCO__ATTRIB_CATS], shared[TCO__ATTRIB_CATS];
};

/* A share of the records passed (part.c): the groups by their texts and
 * the totals, to be merged with the other shares' and settled. */
struct tco_attribution_part {
    uint64_t scenario;                 /* the inputs' fingerprint */
    tco_attribution_request request;   /* by_key and owner_value name texts; no progress */
    tco_tags *texts;                   /* owned: the keys, the owner and the groups' values */
    tco__attrib_group *group;          /* values name texts; only the sums and records are set */
    size_t groups;
    tco__attrib_totals totals;
};

/* The groups, filled as the records come: an array found through open
 * addressing on the value ids (attribute.c). Zeroed, with last =
 * UINT32_MAX, then grown once before the first group. */
typedef struct tco__attrib_table {
    tco__attrib_group *g;
    size_t count, cap;
    uint32_t *slot; /* group index + 1; 0: empty */
    size_t mask;    /* slots - 1, a power of two at least twice the groups */
    uint64_t last_key;
    uint32_t last;  /* the group of last_key: records of one group often come together */
} tco__attrib_table;

/* Doubles the slots (or more, to at least twice the groups) and files
 * every group again. */
int tco__attrib_table_grow(tco__attrib_table *tb, tco_error *err);
/* The group of key (value[0] << 32 | value[1]), added (zeroed) if new;
 * UINT32_MAX when memory ran out. */
uint32_t tco__attrib_table_group(tco__attrib_table *tb, uint64_t key, tco_error *err);

/* a's prices per accelerator-hour (rate, idle_rate, idle_class...) and
 * currency, from the inputs (attribute.c). */
int tco__attrib_rates(tco_attribution *a, const tco_obj *t, const tco_obj *w, const tco_obj *p, tco_error *err);

/* The tags a table holds, as the ids' bound. */
static inline uint32_t tco__attrib_tag_count(const tco_tags *tags)
{
    size_t n = tco_tags_count(tags);
    return n >= UINT32_MAX ? UINT32_MAX - 1 : (uint32_t)n;
}

/* Checks the arguments of a request that need no record (attribute.c). */
int tco__attrib_request_check(const tco_attribution_request *q, uint32_t tags, tco_error *err);

/* The pass over records (attribute.c): a's groups (in the order of their
 * texts) and records, and the totals, priced at t, w and p; a->request
 * set from request, which the caller has checked (a by_key of
 * TCO_TAG_NONE: a key no record has). The part-building and
 * waste-finding calls share it. */
int tco__attrib_pass(tco_attribution *a, tco__attrib_totals *sum, const tco_record *records, size_t n,
                     const uint32_t *tag_pairs, size_t n_pairs, const tco_tags *tags,
                     const tco_attribution_request *request, const tco_topology *t, const tco_workload *w,
                     const tco_pricing *p, tco_error *err);
/* Settles a passed attribution, its groups in the order of their texts:
 * idle capacity and the shared services, spread by the request's rules,
 * the cents and the bill. */
int tco__attrib_settle(tco_attribution *a, const tco__attrib_totals *sum, const tco_topology *t,
                       const tco_workload *w, const tco_pricing *p, tco_error *err);
/* Orders groups by their values' texts (byte order; TCO_TAG_NONE first),
 * the first value then the second: the order every split and tie
 * follows, whatever order the records came in. remap (n entries, or
 * NULL) receives each group's new index. */
int tco__attrib_sort_groups(tco__attrib_group *g, size_t n, const tco_tags *texts, uint32_t *remap,
                            tco_error *err);
/* A group (its values' texts in texts) against the two texts given (NULL:
 * TCO_TAG_NONE), in the order tco__attrib_sort_groups puts groups. */
int tco__attrib_group_cmp(const tco__attrib_group *g, const tco_tags *texts, const char *const text[2]);
/* A group's double fields from its exact sums. */
void tco__attrib_group_read(tco__attrib_group *g);

/* A group's direct cost by category (cur, before rounding). */
void tco__attrib_group_direct(const struct tco_attribution *a, const tco__attrib_group *g,
                              double direct[TCO__ATTRIB_CATS]);

/* Splits total (cents) over the amounts q[0 .. n) (cents, any sign;
 * element i at q[i * step]) by the largest-remainder rule of
 * doc/model.md, section 16, into out[i * out_step]: floor(q[i]), then one
 * cent more for the largest remainders, an exact zero after every other
 * amount of equal remainder, ties to the lower index. sum(out) == total
 * always. order is scratch of n entries. */
typedef struct tco__remainder {
    double r;
    size_t i;
    int zero;
} tco__remainder;
void tco__largest_remainder(int64_t *out, size_t out_step, const double *q, size_t step, size_t n, int64_t total,
                            tco__remainder *order);

#endif
