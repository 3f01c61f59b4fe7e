/* Placement pricing: pools of capacity and what one job costs on one
 * candidate placement. Shared by the hot path (placement.c), its cold
 * error text (explain.c) and the pools (pools.c); no room above calls in.
 * Not installed. */
#ifndef TCO_SCHED_H
#define TCO_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/* Pools of capacity (pools.c). The hot row is what pricing reads, worked
 * out when the pool is added: its doubles, then its whole numbers, each
 * half 32 bytes, that the four-lane kernel loads whole and transposes
 * (kernel.c: the offsets are fixed there). */
typedef struct pool_hot {
    double rate;          /* cur per accelerator-hour */
    double spot_rate;     /* reclaims per node-hour; 0 unless spot */
    double inv_per_node;  /* 1 / accelerators_per_node */
    double unused;        /* 0 */
    int32_t per_node;     /* accelerators per node */
    int32_t free;         /* free accelerators */
    int32_t rack, zone, region;
    int32_t spot;         /* 1 for a spot pool */
    int32_t unused2[2];   /* 0 */
} pool_hot;
typedef char pool_hot_is_two_halves[offsetof(pool_hot, per_node) == 32 && offsetof(pool_hot, region) == 48 &&
                                    sizeof(pool_hot) == 64 ? 1 : -1];

struct tco_pools {
    int frozen;
    int32_t count, cap;
    tco_pool *pool;       /* as added (this version's struct) */
    pool_hot *hot;        /* the same pools, as pricing reads them */
};

#define JOB_V1_SIZE V1_SIZE(tco_job, delay_cost_per_hour)
#define PLACEMENT_V1_SIZE V1_SIZE(tco_placement, start_hours)
#define PRICE_V1_SIZE V1_SIZE(tco_price, delay)
#define BATCH_V1_SIZE V1_SIZE(tco_placement_batch, start_hours)
/* tco_job may grow, but never past INPUT_MAX_SIZE: a larger size is
 * garbage, and stepping by it would read past the caller's array. */

/* Bounds of the job's and the placement's fields (doc/scheduling.md). They
 * keep every product finite; a wall time beyond NEVER_HOURS means the job
 * cannot finish between interruptions, as in the estimate. A job's
 * accelerators and checkpoint bytes are bounded as the parameters of the
 * same names are (consts_of reads the table). */
#define MIN_HOURS 1e-6     /* durations, h */
#define MAX_HOURS 1e6      /* durations and start times, h */
#define MAX_TRAFFIC_GB 1e6 /* GB per accelerator-hour */
#define MAX_DELAY_COST 1e9 /* cur per hour */
#define NEVER_HOURS 1e12

/* What pricing needs from the topology and the pricing table, read once
 * per call (once per batch). */
typedef struct consts {
    double rack_slow, zone_slow, region_slow; /* span slowdowns, 1 */
    double accel_mtbf, node_mtbf;             /* h */
    double inv_accel_mtbf, inv_node_mtbf;     /* 1/h */
    double inv_write;                         /* h per checkpoint byte */
    double restart;                           /* h */
    double write_bytes_per_hour;              /* storage_hot_gbps x 1e9 x 3600 */
    double egress_zone, egress_region;        /* cur per GB */
    double max_checkpoint_bytes;              /* B */
    uint32_t max_accelerators;
} consts;

static inline void consts_of(consts *k, const tco_obj *t, const tco_obj *p)
{
    k->rack_slow = t->v[IX_RACK_SPAN_SLOWDOWN];
    k->zone_slow = t->v[IX_ZONE_SPAN_SLOWDOWN];
    k->region_slow = t->v[IX_REGION_SPAN_SLOWDOWN];
    k->accel_mtbf = t->v[IX_ACCELERATOR_MTBF_HOURS];
    k->node_mtbf = t->v[IX_NODE_MTBF_HOURS];
    k->restart = t->v[IX_RESTART_MINUTES] * (1.0 / 60);
    k->write_bytes_per_hour = t->v[IX_STORAGE_HOT_GBPS] * 1e9 * 3600;
    k->inv_accel_mtbf = 1 / k->accel_mtbf;
    k->inv_node_mtbf = 1 / k->node_mtbf;
    k->inv_write = 1 / k->write_bytes_per_hour;
    k->egress_zone = p->v[IX_EGRESS_IN_REGION_PER_GB];
    k->egress_region = p->v[IX_EGRESS_CROSS_REGION_PER_GB];
    k->max_accelerators = (uint32_t)tco__params[IX_ACCELERATORS].hi;
    k->max_checkpoint_bytes = tco__params[IX_CHECKPOINT_BYTES].hi;
}

/* The field a placement failed on (and the part, and the earlier part it
 * repeats), for the single form's message. */
enum {
    F_JOB_SIZE = 1,
    F_JOB_TAIL,
    F_JOB_ACCELERATORS,
    F_JOB_INTERRUPTIBLE,
    F_JOB_DURATION,
    F_JOB_COMM,
    F_JOB_CHECKPOINT,
    F_JOB_TRAFFIC,
    F_JOB_DELAY,
    F_PARTS,
    F_POOL,
    F_ACCELERATORS,
    F_FREE,
    F_SPOT,
    F_REPEAT,
    F_SUM,
    F_RACKS,
    F_ZONES,
    F_REGIONS,
    F_START,
    F_NEVER
};

typedef struct why {
    int field, part, other;
} why;


/* Turns a placement's failure (rc, and *y saying where) into err's
 * message: off the hot path, only the single form calls it. */
int tco__placement_explain(tco_error *err, int rc, const why *y, const tco_pools *s, const tco_topology *t,
                           const tco_pricing *p, const tco_job *job, const tco_placement *pl);

/* For the tests, which compare the widths of the batch's kernel bit for
 * bit: 1 prices batches on two lanes whatever the processor, 0 (the
 * default) on the widest it runs. Not for threads that are pricing. */
void tco__placement_two_lanes(int on);

#endif
