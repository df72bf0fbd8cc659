/*
 * Helpers shared by the smc_notation unit tests: run a function on a thread with a small stack
 * (proves that deep inputs are handled without recursion), and hex helpers.
 */
#ifndef SMCT_TEST_UTIL_H
#define SMCT_TEST_UTIL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smc/smc_value.h"

/* 256 KiB: enough for any non-recursive code (even under ASan), far too little for one
 * C stack frame per nesting level at the depths the tests use (≥ 100,000). */
#define SMALL_STACK_BYTES ((size_t)256u * 1024u)

typedef void (*small_stack_fn)(void *ctx);

typedef struct small_stack_call {
    small_stack_fn fn;
    void *ctx;
} small_stack_call_t;

static inline void *small_stack_trampoline(void *p)
{
    small_stack_call_t *c = p;
    c->fn(c->ctx);
    return NULL;
}

/* Run fn(ctx) on a new thread whose stack is SMALL_STACK_BYTES; false if it cannot start. */
static inline bool run_on_small_stack(small_stack_fn fn, void *ctx)
{
    pthread_attr_t attr;
    pthread_t t;
    small_stack_call_t call = {fn, ctx};
    if (pthread_attr_init(&attr) != 0) {
        return false;
    }
    if (pthread_attr_setstacksize(&attr, SMALL_STACK_BYTES) != 0) {
        pthread_attr_destroy(&attr);
        return false;
    }
    int rc = pthread_create(&t, &attr, small_stack_trampoline, &call);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        return false;
    }
    return pthread_join(t, NULL) == 0;
}

/* cmocka fixture of the tools tests: one malloc-backed arena per test, freed after it. */
typedef struct fixture {
    smc_arena_t arena;
} fixture_t;

static inline int setup(void **state)
{
    fixture_t *f = malloc(sizeof *f);
    if (f == NULL) {
        return -1;
    }
    smc_arena_init_allocator(&f->arena, NULL);
    *state = f;
    return 0;
}

static inline int teardown(void **state)
{
    fixture_t *f = *state;
    smc_arena_free(&f->arena);
    free(f);
    return 0;
}

#endif /* SMCT_TEST_UTIL_H */
