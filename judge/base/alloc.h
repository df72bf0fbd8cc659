/**
 * @file alloc.h
 * @brief Allocation in the judge, and out of memory as a sticky state of the run.
 *
 * The judge never exits from inside its library: runner processes are alive for most of a
 * run, and only the code that started them can kill and reap them. So an allocation that
 * fails returns NULL and records "out of memory" (first failure wins, like an interrupt);
 * every caller survives the NULL, the phases of a run check smcj_out_of_memory() and stop,
 * the sessions kill and reap every runner, and smc_judge_main() returns 2 with one message
 * and no report (a verdict computed from partial data would be worse than none).
 *
 * Failures of notation calls (smct_* returning SMCT_ERR_NOMEM, an smct_buf_t whose flag is
 * set) are recorded through smcj_nomem(), smcj_buf_ok(), smcj_buf_text() and smcj_buf_take().
 */
#ifndef SMCJ_ALLOC_H
#define SMCJ_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "smct_buf.h"

/** malloc, calloc and string copies: NULL (and out of memory recorded) on failure. */
void *smcj_malloc(size_t n);
void *smcj_calloc(size_t count, size_t size);
char *smcj_strdup(const char *s);
char *smcj_strndup(const char *s, size_t n);
/** printf into a new heap string; NULL on failure. */
char *smcj_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * Make the heap array `*p` (room for `*cap` elements of `elem` bytes) hold `need` elements
 * (smct_grow_array). False, with the array unchanged and out of memory recorded, on failure.
 */
bool smcj_grow(void **p, size_t *cap, size_t need, size_t elem);

/** qsort(base, n, size, cmp), in place and without allocating (a heapsort; not stable). */
void smcj_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/** Free `n` heap strings and the array holding them (NULL entries and a NULL array are fine). */
void smcj_free_strs(char **a, size_t n);

/** Record out of memory found elsewhere (an smct_* call returned SMCT_ERR_NOMEM). */
void smcj_nomem(void);

/** True once anything in this run ran out of memory. */
bool smcj_out_of_memory(void);

/** Forget a previous run's out-of-memory state (at the start of smc_judge_main). */
void smcj_alloc_reset(void);

/** smct_buf_ok(b), recording out of memory when the buffer had failed. */
bool smcj_buf_ok(const smct_buf_t *b);

/** The buffer's text ("" when empty), recording out of memory when it had failed. */
const char *smcj_buf_text(const smct_buf_t *b);

/** smct_buf_steal(b), recording out of memory when it gives NULL. */
char *smcj_buf_take(smct_buf_t *b);

/** Append all of `src` to `dst`; a failed `src` fails `dst` too, so nothing partial is kept. */
void smcj_buf_append_buf(smct_buf_t *dst, const smct_buf_t *src);

/** `s`, or "" for NULL: for printing strings that an allocation failure may have left NULL. */
static inline const char *smcj_or_empty(const char *s)
{
    return s ? s : "";
}

#endif /* SMCJ_ALLOC_H */
