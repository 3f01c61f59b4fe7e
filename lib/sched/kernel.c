/* The chunk kernel of placement pricing for one lane width: not compiled
 * on its own but included by placement.c once for each width, with LANES
 * (1, 2 or 4) and W(name), the name with the width's suffix, defined
 * first (a source, not a header: it holds the bodies, not declarations).
 * One body, so that every width does the same IEEE operations in the same
 * order in each lane and gives the same bits: the single form runs one
 * lane, the batch two (SSE2, any x86-64) or four (AVX2, where the
 * processor has it).
 *
 * group() checks a group of LANES placements and prices them: each lane
 * loads its parts' pool rows, the checks are folded into a mask and the
 * figures worked out without a branch but for the rare exponential past
 * its series (doc/model.md, 5). */

#define vd W(vd)
#define vm W(vm)
#define vi W(vi)
#define vu W(vu)
#define figures W(figures)
#define vsel W(vsel)
#define vroot W(vroot)
#define any W(any)
#define anyi W(anyi)
#define vseli W(vseli)
#define vload W(vload)
#define vloadi W(vloadi)
#define narrow W(narrow)
#define to_d W(to_d)
#define to_i W(to_i)
#define expm1_small W(expm1_small)
#define exp_lanes W(exp_lanes)
#define exp_beyond W(exp_beyond)
#define group W(group)
#define price_parts W(price_parts)
#define price_range W(price_range)

/* Lanes of doubles, of whole numbers, and masks, all ones or zero a lane
 * (IS(c) of a comparison). One lane is plain scalars: gcc keeps a vector
 * of one double's mask in a general register, a move away from the
 * double, and such moves lengthened the single form's chain. */
#if LANES == 1
typedef double vd;
typedef int64_t vm; /* a double comparison's mask */
typedef int32_t vi; /* whole numbers; an int comparison's mask */
typedef uint32_t vu;
#define IS(c) (-(c))
#define LANE(v, l) (v)
#else
typedef double vd __attribute__((vector_size(8 * LANES)));
typedef long long vm __attribute__((vector_size(8 * LANES)));
typedef int32_t vi __attribute__((vector_size(4 * LANES)));
typedef uint32_t vu __attribute__((vector_size(4 * LANES)));
#define IS(c) (c)
#define LANE(v, l) ((v)[l])
#endif

HOT vd vsel(vm m, vd a, vd b) /* m ? a : b, lane by lane */
{
#if LANES == 1
    return m ? a : b;
#else
    return (vd)(((vm)a & m) | ((vm)b & ~m));
#endif
}

/* The square root, correctly rounded as IEEE 754 requires of sqrt(): the
 * same bits as sqrt(), in one instruction where sqrt() is a call into libm
 * (it may have to set errno). */
HOT vd vroot(vd x)
{
#if defined(__SSE2__) && LANES == 1
    return _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd(x)));
#elif defined(__SSE2__) && LANES == 2
    return (vd)_mm_sqrt_pd((__m128d)x);
#elif defined(__SSE2__) && LANES == 4 /* compiled for AVX2 */
    return (vd)_mm256_sqrt_pd((__m256d)x);
#else
    for (int l = 0; l < LANES; l++)
        LANE(x, l) = sqrt(LANE(x, l));
    return x;
#endif
}

HOT int any(vm m) /* some lane set */
{
#if LANES == 4 /* compiled for AVX2 */
    return !_mm256_testz_si256((__m256i)m, (__m256i)m);
#elif LANES == 2 && defined(__SSE2__)
    return _mm_movemask_pd((__m128d)m) != 0;
#else
    int64_t o = 0;
    for (int l = 0; l < LANES; l++)
        o |= LANE(m, l);
    return o != 0;
#endif
}

HOT int anyi(vi m)
{
#if LANES == 4
    return !_mm_testz_si128((__m128i)m, (__m128i)m);
#else
    int32_t o = 0;
    for (int l = 0; l < LANES; l++)
        o |= LANE(m, l);
    return o != 0;
#endif
}

HOT vi vseli(vi m, vi a, vi b)
{
    return (a & m) | (b & ~m);
}

HOT vd vload(const double *p)
{
    vd v;
    memcpy(&v, p, sizeof v);
    return v;
}

HOT vi vloadi(const int32_t *p)
{
    vi v;
    memcpy(&v, p, sizeof v);
    return v;
}

HOT vi narrow(vm m) /* a double comparison's mask as an int one */
{
#if LANES == 1
    return (vi)m;
#else
    return __builtin_convertvector(m, vi);
#endif
}

HOT vd to_d(vi v)
{
#if LANES == 1
    return (vd)v;
#else
    return __builtin_convertvector(v, vd);
#endif
}

HOT vi to_i(vd v) /* truncated */
{
#if LANES == 1
    return (vi)v;
#else
    return __builtin_convertvector(v, vi);
#endif
}

/* e^v - 1 for 0 <= v <= 0.5: the series to v^14 / 14!, whose remainder is
 * below 5e-17 of the sum, evaluated in Estrin's scheme (short chains of
 * dependent operations). */
HOT vd expm1_small(vd v)
{
    vd v2 = v * v, v4 = v2 * v2, v8 = v4 * v4;
    vd q0 = 1.0 / 2 + v * (1.0 / 6), q1 = 1.0 / 24 + v * (1.0 / 120), q2 = 1.0 / 720 + v * (1.0 / 5040);
    vd q3 = 1.0 / 40320 + v * (1.0 / 362880), q4 = 1.0 / 3628800 + v * (1.0 / 39916800);
    vd q5 = 1.0 / 479001600 + v * (1.0 / 6227020800);
    vd r0 = q0 + q1 * v2, r1 = q2 + q3 * v2, r2 = q4 + q5 * v2 + v4 * (1.0 / 87178291200);
    return v + v2 * (r0 + r1 * v4 + r2 * v8);
}

/* e^v - minus in the lanes whose v is beyond the series, v > 0.5: libm's,
 * one lane at a time; the other lanes keep e. Rare: Daly's v passes 0.5
 * with a checkpoint pause near an eighth of the MTBF, or a run without
 * checkpoints past half of it; r with a restart past half of it. */
COLD static vd exp_lanes(vd e, vd v, double minus)
{
    for (int l = 0; l < LANES; l++)
        if (LANE(v, l) > 0.5)
            LANE(e, l) = exp(LANE(v, l)) - minus;
    return e;
}

/* e^r in the lanes where r > 1/64, beyond the short series er holds: the
 * longer series to 0.5, libm's exp past it. Taken where a restart is more
 * than a 64th of the MTBF (spot pools that reclaim often, say). */
COLD static vd exp_beyond(vd er, vd r)
{
    return exp_lanes(vsel(IS(r <= 1.0 / 64), er, 1.0 + expm1_small(r)), r, 0);
}

/* A group's figures, lane by lane: cur, but run and completion, h. */
typedef struct figures {
    vd compute, slowdown, traffic, delay, interruptions, stranded, run, completion, cost;
} figures;

/* Checks and prices the group at *s (doc/model.md, 5): lane l is the
 * placement whose inputs are at index l of each of s's arrays. `loop`,
 * the number of parts to add, is max_parts in the batch (a constant
 * there: the compiler unrolls the loop and keeps the parts in registers),
 * where a part of 0 accelerators ends a placement's parts, and the
 * placement's parts in the single form (one lane), whose parts the caller
 * has checked. Returns the mask of the lanes that failed a check, whose
 * figures nobody may read (one lane that failed is not priced); the
 * caller asks prepare_fault why.
 *
 * The spans, traffic, delay and rate of interruptions, then Daly's
 * expected wall time at Daly's interval and what follows from it. Daly's
 * formulas are taken in units of the MTBF M = 1/lambda: with x = delta /
 * 2M, tau / M = u and (tau + delta) / M = v below are Daly's interval and
 * wall time divided through by M, which leaves no division on the way to
 * the exponentials. A lane that never finishes (a wall time beyond
 * NEVER_HOURS, or NaN) has that run. */
HOT vi group(figures *restrict f, const src *restrict s, int32_t loop, const pool_hot *restrict hot,
             int32_t pool_count, const consts *restrict k)
{
    vi n = vloadi(s->n), spot_ok = vloadi(s->spot_ok);
    vi ids[TCO_PLACEMENT_MAX_PARTS], rk[TCO_PLACEMENT_MAX_PARTS], zn[TCO_PLACEMENT_MAX_PARTS],
        rg[TCO_PLACEMENT_MAX_PARTS];
    vi zero = { 0 }, sum = zero, nodes = zero, nr = zero, nz = zero, ng = zero, bad = zero;
#if LANES > 1
    vi more = zero - 1, parts = zero;
#endif
    vd rate = { 0 }, idle_rate = rate, spot_rate = rate;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (int32_t j = 0; j < loop; j++) {
        vi a = vloadi(s->acc + j * s->part_step), id = vloadi(s->pool + j * s->part_step);
#if LANES == 1 /* the single form's parts, checked by the caller */
        vi active = zero - 1;
#else /* the batch's, up to the first of 0 accelerators */
        vi active = more &= IS(a != 0);
        parts -= active;
#endif
        a &= active;
        id &= active;
        /* An id that is not a pool reads pool 0 (or the pools' blank row) and fails. */
        vi known = IS((vu)id < (uint32_t)pool_count), row = id & known;
        vi rack, zone, region, per_node, free, spot;
        vd prate, pspot, inv_per_node;
#if LANES == 4 /* compiled for AVX2: each row's halves loaded whole, the four rows transposed */
        const pool_hot *h0 = &hot[row[0]], *h1 = &hot[row[1]], *h2 = &hot[row[2]], *h3 = &hot[row[3]];
        __m256d r0 = _mm256_loadu_pd(&h0->rate), r1 = _mm256_loadu_pd(&h1->rate);
        __m256d r2 = _mm256_loadu_pd(&h2->rate), r3 = _mm256_loadu_pd(&h3->rate);
        __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
        __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
        prate = (vd)_mm256_permute2f128_pd(t0, t2, 0x20);
        inv_per_node = (vd)_mm256_permute2f128_pd(t0, t2, 0x31);
        pspot = (vd)_mm256_permute2f128_pd(t1, t3, 0x20);
        __m256i q0 = _mm256_loadu_si256((const __m256i *)&h0->per_node);
        __m256i q1 = _mm256_loadu_si256((const __m256i *)&h1->per_node);
        __m256i q2 = _mm256_loadu_si256((const __m256i *)&h2->per_node);
        __m256i q3 = _mm256_loadu_si256((const __m256i *)&h3->per_node);
        __m256i u0 = _mm256_unpacklo_epi32(q0, q1), u1 = _mm256_unpackhi_epi32(q0, q1);
        __m256i u2 = _mm256_unpacklo_epi32(q2, q3), u3 = _mm256_unpackhi_epi32(q2, q3);
        __m256i v0 = _mm256_unpacklo_epi64(u0, u2), v1 = _mm256_unpackhi_epi64(u0, u2);
        __m256i v2 = _mm256_unpacklo_epi64(u1, u3), v3 = _mm256_unpackhi_epi64(u1, u3);
        per_node = (vi)_mm256_castsi256_si128(v0);
        region = (vi)_mm256_extracti128_si256(v0, 1);
        free = (vi)_mm256_castsi256_si128(v1);
        spot = (vi)_mm256_extracti128_si256(v1, 1);
        rack = (vi)_mm256_castsi256_si128(v2);
        zone = (vi)_mm256_castsi256_si128(v3);
#else
        for (int l = 0; l < LANES; l++) {
            const pool_hot *h = &hot[LANE(row, l)];
            LANE(rack, l) = h->rack;
            LANE(zone, l) = h->zone;
            LANE(region, l) = h->region;
            LANE(per_node, l) = h->per_node;
            LANE(free, l) = h->free;
            LANE(spot, l) = h->spot;
            LANE(prate, l) = h->rate;
            LANE(pspot, l) = h->spot_rate;
            LANE(inv_per_node, l) = h->inv_per_node;
        }
#endif
        bad |= ~known | (active & IS(a < 1)) | IS(a > free) | (active & IS(spot > spot_ok));
        vi new_rack = active, new_zone = active, new_region = active;
        for (int32_t i = 0; i < j; i++) {
            bad |= active & IS(ids[i] == id);
            new_rack &= IS(rk[i] != rack);
            new_zone &= IS(zn[i] != zone);
            new_region &= IS(rg[i] != region);
        }
        ids[j] = id;
        rk[j] = rack;
        zn[j] = zone;
        rg[j] = region;
        nr -= new_rack;
        nz -= new_zone;
        ng -= new_region;
        /* q = floor(a / per_node) without an integer division: (a + 0.5) /
         * per_node lies at least 0.5 / per_node >= 1/144 from any integer, and
         * the product with the rounded reciprocal is off by at most 3e-16 x
         * 1e7, so truncating it gives q exactly. */
        vd ad = to_d(a);
        vi q = to_i((ad + 0.5) * inv_per_node);
        vi r = a - q * per_node;                 /* a mod per_node */
        vi partial = IS(r > 0);
        vi used = q - partial;                   /* nodes the part occupies */
        vi left = (per_node - r) & partial;      /* idle on its last node */
        sum += a;
        nodes += used;
        rate += ad * prate;
        idle_rate += to_d(left) * prate;
        spot_rate += to_d(used) * pspot;
    }
    vd start = vload(s->start);
    bad |= IS(sum != n) | narrow(~(IS(start >= 0) & IS(start <= MAX_HOURS)));
#if LANES > 1
    bad |= IS(parts < 1);
#endif
    /* Spans counted from the pools nest by construction (a rack id lies in
     * one zone, a zone id in one region: tco_pools_freeze checks it); spans
     * given must hold the pools' and nest too. Spans counted from the pools
     * (at most 8 each) come from the table; spans given are checked, then
     * divided when the table stops. */
    vd inv_r, inv_z, inv_g;
#if LANES == 4
    inv_r = (vd)_mm256_i32gather_pd(inv_small, (__m128i)nr, 8);
    inv_z = (vd)_mm256_i32gather_pd(inv_small, (__m128i)nz, 8);
    inv_g = (vd)_mm256_i32gather_pd(inv_small, (__m128i)ng, 8);
#else
    for (int l = 0; l < LANES; l++) {
        LANE(inv_r, l) = inv_small[LANE(nr, l)];
        LANE(inv_z, l) = inv_small[LANE(nz, l)];
        LANE(inv_g, l) = inv_small[LANE(ng, l)];
    }
#endif
    vi racks = vloadi(s->racks), zones = vloadi(s->zones), regions = vloadi(s->regions);
    if (anyi(racks | zones | regions)) {
        vi R = vseli(IS(racks != 0), racks, nr), Z = vseli(IS(zones != 0), zones, nz), G = vseli(IS(regions != 0), regions, ng);
        bad |= IS(racks < 0) | IS(R < nr) | IS(R > n) | IS(zones < 0) | IS(Z < nz) | IS(Z > R) | IS(regions < 0) |
               IS(G < ng) | IS(G > Z);
        for (int l = 0; l < LANES; l++)
            if (!LANE(bad, l)) {
                LANE(inv_r, l) = inv(LANE(R, l));
                LANE(inv_z, l) = inv(LANE(Z, l));
                LANE(inv_g, l) = inv(LANE(G, l));
            }
    }
#if LANES == 1
    if (bad) /* the single form prices only what passed, on numbers that keep every operation defined */
        return bad;
#endif
    vd nd = to_d(n), D = vload(s->D), cs = vload(s->c), C = vload(s->C), X = vload(s->X), Wc = vload(s->W);
    /* Spanning: the share 1 - 1/k of evenly spread traffic that crosses
     * the boundaries of k racks, zones, regions slows the communicating
     * share. Traffic across zones within a region, and across regions. */
    vd sf = cs * (k->rack_slow * (1.0 - inv_r) + k->zone_slow * (1.0 - inv_z) + k->region_slow * (1.0 - inv_g));
    vd extra = D * sf; /* h the spans add */
    vd compute = rate * D, slowdown = rate * extra;
    vd traffic = X * nd * D * ((inv_g - inv_z) * k->egress_zone + (1.0 - inv_g) * k->egress_region);
    vd delay = Wc * start;
    /* Interruptions per hour: failures of the parts, reclaims of spot nodes. */
    vd lambda = nd * k->inv_accel_mtbf + to_d(nodes) * k->inv_node_mtbf + spot_rate;
    vd run0 = D + extra, fixed = compute + slowdown + traffic + delay;
    vd x = 0.5 * (C * k->inv_write) * lambda; /* checkpoint pause / (2 x MTBF) */
    vd g = vroot(x) * (2.0 + (2.0 / 9) * x), seg = run0 * lambda;
    /* delta >= 2M: tau = M; no checkpoint: one segment of the whole run */
    vm at_most_m = IS(x >= 1.0), some = IS(x > 0.0);
    vd u = vsel(at_most_m, (vd){ 0 } + 1.0, vsel(some, g - (4.0 / 3) * x, seg));
    vd v = vsel(at_most_m, 1.0 + 2.0 * x, vsel(some, g + (2.0 / 3) * x, seg));
    /* e^r for r <= 1/64: the series to r^7/7!, remainder below 1e-19 */
    vd r = k->restart * lambda;
    vd er = 1.0 + r * (1.0 + r * (1.0 / 2 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720 + r * (1.0 / 5040)))))));
    if (any(IS(r > 1.0 / 64)))
        er = exp_beyond(er, r);
    vd em1 = expm1_small(v);
    if (any(IS(v > 0.5)))
        em1 = exp_lanes(em1, v, 1);
    vd wall = er * (run0 / u) * em1;
    wall = vsel(IS(wall < run0), run0, wall); /* never below the run by a rounding */
    vd interruptions = rate * (wall - run0), stranded = idle_rate * wall;
    f->compute = compute;
    f->slowdown = slowdown;
    f->traffic = traffic;
    f->delay = delay;
    f->interruptions = interruptions;
    f->stranded = stranded;
    f->run = wall;
    f->completion = start + wall;
    /* cost = compute + slowdown + traffic + delay + interruptions +
     * stranded, added in that order: the parts known before the
     * interruptions first. */
    f->cost = fixed + interruptions + stranded;
    return bad;
}

#if LANES > 1
/* Prices placements [from, to) of a checked batch, a chunk at a time:
 * first every placement of the chunk is copied into its lane, its job
 * checked (once for consecutive placements of one job), then the chunk is
 * checked and priced a group at a time. Each placement's figures depend on
 * its inputs alone, so any split into ranges gives the same bits. */
HOT void price_parts(const batch_run *r, size_t from, size_t to, int32_t mp)
{
    const tco_placement_batch *b = r->b;
    chunk L;
    jobv jv;
    memset(&jv, 0, sizeof jv);
    int job_rc = TCO_E_INDEX;
    uint32_t last = UINT32_MAX;
    why y;
    for (size_t base = from; base < to; base += CHUNK) {
        int m = to - base < CHUNK ? (int)(to - base) : CHUNK;
        for (int c = 0; c < m; c++) {
            size_t i = base + (size_t)c;
            uint32_t j = (uint32_t)b->job[i];
#if defined(__GNUC__)
            if (i + 8 < to) { /* the job of a later placement on its way to the cache, for jobs in random order */
                uint32_t ahead = (uint32_t)b->job[i + 8];
                __builtin_prefetch(r->jobs + (ahead < r->job_count ? ahead : 0) * r->stride);
            }
#endif
            if (j != last) {
                last = j;
                job_rc = j < r->job_count
                             ? job_check(&jv, &y, (const tco_job *)(r->jobs + j * r->stride), &r->k, r->stride)
                             : TCO_E_INDEX;
                if (job_rc) /* priced on zeros, which nobody reads */
                    memset(&jv, 0, sizeof jv);
            }
            fill_lane(&L, c, b, i, mp, &jv, job_rc);
        }
        fill_spans(&L, b, base, m, base == from);
        for (int c = m; c % LANES; c++)
            copy_lane(&L, c, m - 1, mp);
        for (int c = 0; c < m; c += LANES) {
            src in = { L.n + c, L.spot_ok + c, L.pool + c, L.acc + c, L.racks + c, L.zones + c, L.regions + c,
                       L.D + c, L.c + c, L.C + c, L.X + c, L.W + c, L.start + c, CHUNK };
            figures f;
            vi bad = group(&f, &in, mp, r->hot, r->pool_count, &r->k), job_bad = vloadi(L.job_rc + c);
            vi never = narrow(~IS(f.run <= NEVER_HOURS));
            size_t i = base + (size_t)c;
            if (c + LANES <= m && !anyi(bad | job_bad | never)) {
                memcpy(r->cost + i, &f.cost, sizeof f.cost);
                memcpy(r->completion_hours + i, &f.completion, sizeof f.completion);
                memset(r->status + i, 0, sizeof(vi));
                continue;
            }
            for (int l = 0; l < LANES && c + l < m; l++) {
                int st = job_bad[l] ? job_bad[l]
                         : bad[l]   ? batch_fault(r, i + (size_t)l, mp, &L, c + l)
                         : never[l] ? TCO_E_INCONSISTENT
                                    : TCO_OK;
                r->status[i + (size_t)l] = st;
                r->cost[i + (size_t)l] = st ? NAN : f.cost[l];
                r->completion_hours[i + (size_t)l] = st ? NAN : f.completion[l];
            }
        }
    }
}

/* One copy of the loop per max_parts, each with its parts unrolled: one
 * body, specialised by the compiler for each constant. */
static void price_range(const batch_run *r, size_t from, size_t to)
{
    switch (r->b->max_parts) {
#define MAX_PARTS(n)                 \
    case n:                          \
        price_parts(r, from, to, n); \
        break
        MAX_PARTS(1); MAX_PARTS(2); MAX_PARTS(3); MAX_PARTS(4); MAX_PARTS(5); MAX_PARTS(6); MAX_PARTS(7);
#undef MAX_PARTS
    default: /* TCO_PLACEMENT_MAX_PARTS: batch_args allows no more */
        price_parts(r, from, to, TCO_PLACEMENT_MAX_PARTS);
    }
}
#endif

#undef vd
#undef vm
#undef vi
#undef vu
#undef figures
#undef vsel
#undef vroot
#undef any
#undef anyi
#undef vseli
#undef vload
#undef vloadi
#undef narrow
#undef to_d
#undef to_i
#undef IS
#undef LANE
#undef expm1_small
#undef exp_lanes
#undef exp_beyond
#undef group
#undef price_parts
#undef price_range
