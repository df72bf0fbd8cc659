/**
 * @file vectors.h
 * @brief Load every sNN-*.json vector file of a directory and validate its shape
 *        (spec/vectors.md V.1, V.2). A malformed file stops the run: a judge that guessed
 *        would report verdicts against expectations nobody wrote.
 */
#ifndef SMCJ_VECTORS_H
#define SMCJ_VECTORS_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc.h"
#include "escape.h"
#include "model.h"

/**
 * Load `dir`/s*.json (sorted by name). False with every problem found appended to `errors`
 * (one line each: file, vector id, what is wrong).
 */
bool smcj_vectors_load(smcj_vectors_t *vs, const char *dir, smct_buf_t *errors);

void smcj_vectors_free(smcj_vectors_t *vs);

/** Free what one vector holds (not the struct). */
void smcj_vector_free(smcj_vector_t *v);

/** Index of the vector with this id, or SIZE_MAX. */
size_t smcj_vectors_find(const smcj_vectors_t *vs, const char *id);

/** True if `section` is `prefix` or starts with `prefix` followed by '.'. */
bool smcj_section_matches(const char *section, const char *prefix);

/** True if the vector lists feature `f`. */
bool smcj_vector_has_feature(const smcj_vector_t *v, const char *f);

#endif /* SMCJ_VECTORS_H */
