/* Attribution: the bill of a period split among the records' groups, to
 * the cent (doc/model.md, section 16). What the rooms above (the FOCUS
 * export, the waste finder) may read: the handle's groups, with their
 * amounts before and after rounding, and each record's part of the bill.
 * Not installed. */
#ifndef TCO_ATTRIB_H
#define TCO_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* The categories an attribution fills: this version's tco_category values. */
#define TCO__ATTRIB_CATS (TCO_CAT_WASTE + 1)

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
} tco__attrib_group;

/* A record's part of the bill, in the order the records were given. Its
 * direct cost by category: tco__attrib_record_cost. */
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

/* Record i's direct cost by category (cur, before rounding): its
 * accelerator time at its class's rates, its storage, its traffic. */
void tco__attrib_record_cost(const struct tco_attribution *a, size_t i, double cost[TCO__ATTRIB_CATS]);
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
