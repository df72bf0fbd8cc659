/**
 * @file diag_values.h
 * @brief Where a runner's decoded value first differs from the vector's: "at $[1]: expected
 *        f64, got i32", "at $.result: list of 3 entries, got 2". Paths are those of
 *        spec/vectors.md's `focus`. Used to describe and group failures no catalogued bug
 *        explains.
 */
#ifndef SMCJ_DIAG_VALUES_H
#define SMCJ_DIAG_VALUES_H

#include "smct_doc.h"

/** A new string (free it) naming the first difference, or NULL if the items are equal. */
char *smcj_value_diff(const smct_doc_t *expected, const smct_doc_t *actual);

#endif /* SMCJ_DIAG_VALUES_H */
