/* An allocation that fails on request, for the command's tests: preloaded
 * (LD_PRELOAD), it makes malloc, calloc and realloc return NULL on the
 * TCO_FAIL_ALLOC-th call of the process (counting from 1, errno ENOMEM), every other call
 * going to the C library's own; with TCO_FAIL_ALLOC=0 none fails and the
 * count is written to standard error at exit ("allocations: N"), so a test
 * can try every N. glibc's __libc_* entry points, not dlsym, which itself
 * allocates. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);

static long fail_at = -1;
static long count;

__attribute__((constructor)) static void armed(void)
{
    const char *s = getenv("TCO_FAIL_ALLOC");
    fail_at = s ? atol(s) : -1;
}

__attribute__((destructor)) static void counted(void)
{
    if (fail_at == 0) {
        char buf[64];
        int n = snprintf(buf, sizeof buf, "allocations: %ld\n", count);
        if (write(STDERR_FILENO, buf, (size_t)n) < 0)
            return;
    }
}

/* as the C library's would: NULL with errno ENOMEM */
static int fails(void)
{
    if (fail_at < 0 || ++count != fail_at)
        return 0;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n)
{
    return fails() ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    return fails() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    return fails() ? NULL : __libc_realloc(p, n);
}
