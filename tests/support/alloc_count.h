/* Counts heap allocations made by the whole process, the library included:
 * the executable's malloc family interposes on everyone's. glibc only.
 * Sanitizers and valgrind bring their own allocator, which the counter does
 * not see: alloc_counting() says whether it works in this process. */
#ifndef TCO_ALLOC_COUNT_H
#define TCO_ALLOC_COUNT_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static size_t allocations;

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

void *malloc(size_t n)
{
    allocations++;
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    allocations++;
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    allocations++;
    return __libc_realloc(p, n);
}

void free(void *p)
{
    __libc_free(p);
}
#endif

#endif
