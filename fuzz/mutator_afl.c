/*
 * AFL++ front end of the structure-aware mutator (smc_mutator.h): a shared library for
 * AFL_CUSTOM_MUTATOR_LIBRARY (fuzz/afl.sh sets it). AFL++ mixes its own mutations with these
 * unless AFL_CUSTOM_MUTATOR_ONLY is set.
 */
#include <stdlib.h>
#include <string.h>

#include "smc_mutator.h"

/* Mutants stay within the size the campaigns run with (afl.sh -G, libFuzzer -max_len): a
 * few kilobytes reach every path, and big inputs only slow the runs down. */
#define MAX_MUTANT 4096u

typedef struct state {
    unsigned int seed;
    uint8_t *buf;
    size_t cap;
} state_t;

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
const char *afl_custom_describe(void *data, size_t max_description_len);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    state_t *s = calloc(1, sizeof *s);
    if (s != NULL) {
        s->seed = seed;
    }
    return s;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
    state_t *s = data;
    (void)add_buf;
    (void)add_buf_size;
    if (max_size > MAX_MUTANT) {
        max_size = MAX_MUTANT;
    }
    if (max_size > s->cap) {
        uint8_t *p = realloc(s->buf, max_size);
        if (p == NULL) {
            *out_buf = buf;
            return buf_size;
        }
        s->buf = p;
        s->cap = max_size;
    }
    size_t n = buf_size < max_size ? buf_size : max_size;
    memcpy(s->buf, buf, n);
    s->seed = s->seed * 1103515245u + 12345u;
    size_t m = smc_mutate(s->buf, n, max_size, s->seed);
    if (m == 0 && n > 0) {
        s->buf[s->seed % n] ^= (uint8_t)(1u << (s->seed >> 8) % 8); /* nothing to change: a bit */
        m = n;
    }
    *out_buf = s->buf;
    return m;
}

const char *afl_custom_describe(void *data, size_t max_description_len)
{
    (void)data;
    return max_description_len >= 8 ? "smc-tree" : "smc";
}

void afl_custom_deinit(void *data)
{
    state_t *s = data;
    if (s != NULL) {
        free(s->buf);
        free(s);
    }
}
