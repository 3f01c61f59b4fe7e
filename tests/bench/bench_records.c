/* Benchmark: the usage-record readers. Targets: 1,000,000 lines of Slurm
 * accounting read in under a second, and 1,000,000 CSV rows. Every line is
 * a record with a job id of its own (the worst case for the tags table),
 * among 400 users, 60 accounts and 2,000 job names. Prints the median of
 * ROUNDS reads of each, and the same-run baseline of one memchr pass
 * counting the lines of the same text, with the ratios. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tco.h>

#include "bench.h"

#define LINES 1000000
#define ROUNDS 7

static volatile size_t sink;

static const char *const states[] = { "COMPLETED", "COMPLETED", "COMPLETED", "FAILED", "CANCELLED by 1001",
                                      "TIMEOUT", "RUNNING", "OUT_OF_MEMORY" };
static const char *const classes[] = { "owned", "on_demand", "reserved", "spot" };
static const char *const csv_states[] = { "completed", "completed", "failed", "cancelled", "running" };

/* 2026-11-01T00:00:00Z plus s seconds, as YYYY-MM-DDTHH:MM:SS (November
 * and December 2026 only: the generator never goes further). */
static int stamp(char *out, long s)
{
    long day = s / 86400, sec = s % 86400;
    int month = day < 30 ? 11 : 12, dom = (int)(day < 30 ? day + 1 : day - 29);
    return sprintf(out, "2026-%02d-%02dT%02ld:%02ld:%02ld", month, dom, sec / 3600, sec / 60 % 60, sec % 60);
}

static char *sacct_text(size_t *len)
{
    size_t cap = (size_t)LINES * 200;
    char *t = malloc(cap), a[32], b[32];
    if (!t)
        return NULL;
    size_t n = 0;
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (long i = 0; i < LINES; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        long start = (long)(x % (40L * 86400)), dur = (long)(x >> 24) % 86400;
        int running = (x >> 40) % 8 == 6;
        stamp(a, start);
        stamp(b, start + dur);
        unsigned gpus = 1u << ((x >> 44) % 4);
        n += (size_t)sprintf(t + n, "%ld|train-%u|acct-%u|user%u|%s|%s|%s|%s|%ld|billing=%u,cpu=%u,%s=%u,mem=%uG,node=1\n",
                             1000000 + i, (unsigned)(x >> 8) % 2000, (unsigned)(x >> 20) % 60,
                             (unsigned)(x >> 30) % 400, (x >> 50) % 4 ? "gpu" : "gpu-large", states[(x >> 40) % 8],
                             a, running ? "Unknown" : b, dur, 16 * gpus, 16 * gpus,
                             (x >> 52) % 2 ? "gres/gpu" : "gres/gpu:h100", gpus, 128 * gpus);
    }
    *len = n;
    return t;
}

static char *csv_text(size_t *len)
{
    size_t cap = (size_t)LINES * 220;
    char *t = malloc(cap), a[32], b[32];
    if (!t)
        return NULL;
    size_t n = (size_t)sprintf(t, "start,end,accelerators,utilisation,price_class,state,storage_hot_gb_hours,"
                                  "traffic_internet_gb,tag.project,tag.user,tag.job\n");
    uint64_t x = 0x2545f4914f6cdd1du;
    for (long i = 0; i < LINES; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        long start = (long)(x % (40L * 86400)), dur = (long)(x >> 24) % 86400;
        stamp(a, start);
        stamp(b, start + dur);
        n += (size_t)sprintf(t + n, "%sZ,%sZ,%u,0.%02u,%s,%s,%u.5,%u,\"proj-%u\",user%u,job-%ld\n", a, b,
                             1u << ((x >> 44) % 4), (unsigned)(x >> 8) % 100, classes[(x >> 12) % 4],
                             csv_states[(x >> 40) % 5], (unsigned)(x >> 16) % 5000, (unsigned)(x >> 36) % 90,
                             (unsigned)(x >> 20) % 60, (unsigned)(x >> 30) % 400, 1000000 + i);
    }
    *len = n;
    return t;
}

/* The baseline: one pass over the text that finds every line. */
static size_t count_lines(const char *t, size_t n)
{
    size_t lines = 0;
    for (const char *p = t, *end = t + n; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        lines++;
    return lines;
}

static int bench(const char *name, const char *text, size_t len,
                 int (*read)(tco_records **, const char *, size_t, uint32_t, tco_error *))
{
    double read_s[ROUNDS], scan_s[ROUNDS];
    tco_error err = TCO_ERROR_INIT;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        sink += count_lines(text, len);
        double t1 = now();
        tco_records *rs;
        if (read(&rs, text, len, TCO_READ_STRICT, &err)) {
            fprintf(stderr, "bench_records: %s: %s\n", name, err.message);
            return 1;
        }
        if (tco_records_count(rs) != LINES) {
            fprintf(stderr, "bench_records: %s: %zu records of %d lines\n", name, tco_records_count(rs), LINES);
            return 1;
        }
        sink += tco_records_count(rs);
        tco_records_free(rs);
        double t2 = now();
        scan_s[r] = t1 - t0;
        read_s[r] = t2 - t1;
    }
    double rd = median(read_s, ROUNDS), sc = median(scan_s, ROUNDS);
    printf("%-6s %d lines, %.1f MB: read and free %.3f s (%.0f ns a line, %.0f MB/s); "
           "baseline memchr line count %.4f s; ratio %.0fx\n",
           name, LINES, len / 1e6, rd, rd / LINES * 1e9, len / 1e6 / rd, sc, rd / sc);
    return 0;
}

int main(void)
{
    size_t slen, clen;
    char *s = sacct_text(&slen), *c = csv_text(&clen);
    if (!s || !c) {
        fprintf(stderr, "bench_records: no memory for the texts\n");
        return 1;
    }
    printf("records readers, median of %d rounds (target: sacct under 1 s)\n", ROUNDS);
    int rc = bench("sacct", s, slen, tco_records_read_sacct) || bench("csv", c, clen, tco_records_read_csv);
    free(s);
    free(c);
    return rc;
}
