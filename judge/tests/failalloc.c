/*
 * Allocation-failure injection for the judge's out-of-memory test (test_judge.py
 * out_of_memory). Linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc into
 * smc-judge-failalloc, it sees every allocation the judge, notation and libsmc make (they are
 * static libraries of that executable; libc's own allocations are not wrapped) and fails the
 * Nth (SMCJ_FAIL_ALLOC=N), only that one: later allocations succeed, so the code that handles
 * the failure runs for real instead of dying in the next one (style rule 13b). At exit it
 * prints how many allocations the run made, and whether the Nth came (the count can vary by
 * one or two between runs: how a runner's output is split into reads is up to the kernel).
 *
 * The __wrap_ and __real_ names are the linker's, not ours: they are what --wrap asks for.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t n);

static unsigned long g_count;
static unsigned long g_fail_at;
static int g_ready;

static int fail_this_one(void)
{
    if (!g_ready) {
        const char *at = getenv("SMCJ_FAIL_ALLOC"); /* getenv does not allocate */
        g_fail_at = at ? strtoul(at, NULL, 10) : 0;
        g_ready = 1;
    }
    return ++g_count == g_fail_at;
}

void *__wrap_malloc(size_t n)
{
    return fail_this_one() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t count, size_t size)
{
    return fail_this_one() ? NULL : __real_calloc(count, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    return fail_this_one() ? NULL : __real_realloc(p, n);
}

__attribute__((destructor)) static void report_count(void)
{
    if (g_fail_at > 0 && g_count >= g_fail_at) {
        fprintf(stderr, "failalloc: %lu allocations, number %lu failed\n", g_count, g_fail_at);
    } else {
        fprintf(stderr, "failalloc: %lu allocations, none failed\n", g_count);
    }
}
