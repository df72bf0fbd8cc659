/**
 * @file alloc.h
 * @brief Allocation helpers of the judge.
 *
 * Out of memory is not recoverable in the judge: the x* helpers print a message and exit
 * with status 2 (setup error) rather than produce a partial verdict.
 */
#ifndef SMCJ_ALLOC_H
#define SMCJ_ALLOC_H

#include <stddef.h>

void *smcj_xmalloc(size_t n);
void *smcj_xcalloc(size_t count, size_t size);
void *smcj_xrealloc(void *p, size_t n);
char *smcj_xstrdup(const char *s);
char *smcj_xstrndup(const char *s, size_t n);
/** printf into a new heap string. */
char *smcj_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** Free `n` heap strings and the array holding them (NULL array with n 0 is fine). */
void smcj_free_strs(char **a, size_t n);

#endif /* SMCJ_ALLOC_H */
