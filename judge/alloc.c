/*
 * Allocation for the judge (alloc.h). The judge builds many small strings (details, excerpts,
 * expected/actual texts); these helpers keep each call site to one line.
 */
#define _POSIX_C_SOURCE 200809L
#include "alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smct_buf.h"

static void die_nomem(void)
{
    fputs("smc conformance: out of memory\n", stderr);
    exit(2);
}

void *smcj_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        die_nomem();
    }
    return p;
}

void *smcj_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) {
        die_nomem();
    }
    return p;
}

void *smcj_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        die_nomem();
    }
    return q;
}

char *smcj_xstrdup(const char *s)
{
    return smcj_xstrndup(s, strlen(s));
}

char *smcj_xstrndup(const char *s, size_t n)
{
    char *p = smcj_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *smcj_xasprintf(const char *fmt, ...)
{
    smct_buf_t b = {0};
    va_list ap;
    va_start(ap, fmt);
    smct_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *s = smct_buf_steal(&b);
    if (!s) {
        die_nomem();
    }
    return s;
}

void smcj_free_strs(char **a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(a[i]);
    }
    free(a);
}
