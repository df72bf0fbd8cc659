/*
 * Allocation for the judge (alloc.h). The judge builds many small strings (details, excerpts,
 * expected and actual texts); these helpers keep each call site to one line, and turn every
 * failure into one sticky state instead of an exit that would leave runners behind.
 */
#define _POSIX_C_SOURCE 200809L
#include "alloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* One judge run per process (smc_judge_main), single-threaded, like the interrupt flag. */
static bool g_out_of_memory;

void smcj_nomem(void)
{
    g_out_of_memory = true;
}

bool smcj_out_of_memory(void)
{
    return g_out_of_memory;
}

void smcj_alloc_reset(void)
{
    g_out_of_memory = false;
}

static void *checked(void *p)
{
    if (p == NULL) {
        smcj_nomem();
    }
    return p;
}

void *smcj_malloc(size_t n)
{
    return checked(malloc(n ? n : 1));
}

void *smcj_calloc(size_t count, size_t size)
{
    return checked(calloc(count ? count : 1, size ? size : 1));
}

char *smcj_strdup(const char *s)
{
    return smcj_strndup(s, strlen(s));
}

char *smcj_strndup(const char *s, size_t n)
{
    char *p = n < SIZE_MAX ? smcj_malloc(n + 1) : checked(NULL);
    if (p != NULL) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *smcj_asprintf(const char *fmt, ...)
{
    smct_buf_t b = {0};
    va_list ap;
    va_start(ap, fmt);
    smct_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    return smcj_buf_take(&b);
}

bool smcj_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (!smct_grow_array(p, cap, need, elem)) {
        smcj_nomem();
        return false;
    }
    return true;
}

void smcj_free_strs(char **a, size_t n)
{
    for (size_t i = 0; a != NULL && i < n; i++) {
        free(a[i]);
    }
    free(a);
}

bool smcj_buf_ok(const smct_buf_t *b)
{
    if (!smct_buf_ok(b)) {
        smcj_nomem();
        return false;
    }
    return true;
}

const char *smcj_buf_text(const smct_buf_t *b)
{
    smcj_buf_ok(b);
    return smct_buf_cstr(b);
}

char *smcj_buf_take(smct_buf_t *b)
{
    return checked(smct_buf_steal(b));
}

void smcj_buf_append_buf(smct_buf_t *dst, const smct_buf_t *src)
{
    if (!smct_buf_ok(src)) {
        dst->failed = true;
        return;
    }
    smct_buf_append(dst, src->data, src->len);
}

/* Heapsort: in place, O(n log n), and no hidden allocation (glibc's qsort mallocs a buffer
 * for large arrays and falls back silently when that fails, which would hide a failure from
 * the allocation-failure tests). */
static void swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
    for (size_t i = 0; i < size; i++) {
        unsigned char t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

static void sift_down(unsigned char *base, size_t root, size_t n, size_t size,
                      int (*cmp)(const void *, const void *))
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) {
            return;
        }
        if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size) < 0) {
            child++;
        }
        if (cmp(base + root * size, base + child * size) >= 0) {
            return;
        }
        swap_bytes(base + root * size, base + child * size, size);
        root = child;
    }
}

void smcj_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    unsigned char *b = base;
    for (size_t i = n / 2; i-- > 0;) {
        sift_down(b, i, n, size, cmp);
    }
    for (size_t end = n; end-- > 1;) {
        swap_bytes(b, b + end * size, size);
        sift_down(b, 0, end, size, cmp);
    }
}
