/* Counts heap allocations made by the whole process, the library included,
 * and fails one on request: the executable's malloc family interposes on
 * everyone's. glibc only. Sanitizers and valgrind bring their own
 * allocator, which this does not see: alloc_counting() says whether it
 * works in this process. */
#ifndef TCO_ALLOC_COUNT_H
#define TCO_ALLOC_COUNT_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Unused under a sanitizer, where nothing counts: marked so. */
#define ALLOC_STATE static __attribute__((unused))
ALLOC_STATE size_t allocations;      /* every allocation asked for */
ALLOC_STATE long alloc_live;         /* blocks allocated and not freed */
ALLOC_STATE long alloc_fail_in = -1; /* the allocation this many calls on fails (0: the next); -1: none */

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
static int alloc_counting(void)
{
    return 0;
}
#else
/* Valgrind preloads its allocator into every process it runs. */
static int alloc_counting(void)
{
    const char *preload = getenv("LD_PRELOAD");
    return !(preload && strstr(preload, "vgpreload"));
}

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);

static int alloc_fails(void)
{
    allocations++;
    return alloc_fail_in >= 0 && alloc_fail_in-- == 0;
}

void *malloc(size_t n)
{
    void *p = alloc_fails() ? NULL : __libc_malloc(n);
    alloc_live += p != NULL;
    return p;
}

void *calloc(size_t n, size_t size)
{
    void *p = alloc_fails() ? NULL : __libc_calloc(n, size);
    alloc_live += p != NULL;
    return p;
}

void *realloc(void *p, size_t n)
{
    void *q = alloc_fails() ? NULL : __libc_realloc(p, n);
    alloc_live += q != NULL && p == NULL;
    return q;
}

void free(void *p)
{
    alloc_live -= p != NULL;
    __libc_free(p);
}
#endif

#endif
