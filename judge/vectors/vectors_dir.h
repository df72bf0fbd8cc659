/**
 * @file vectors_dir.h
 * @brief Which vector directory a run uses when none is given: the suite installed with the
 *        judge first, so an installed `smc conformance` judges against the vectors of its own
 *        release (docs/versioning.md), never against whatever folder it is started in.
 */
#ifndef SMCJ_VECTORS_DIR_H
#define SMCJ_VECTORS_DIR_H

#include "smct_buf.h"

/**
 * The vector directory, newly allocated. In order: `given` (--vectors), else
 * $SMC_VECTORS_DIR, else the installed share/smc/vectors reached from the executable's own
 * directory (a relocated prefix works), else a `vectors/` in the executable's directory or
 * one of its parents (a build tree inside a checkout), else ./vectors. Each candidate must
 * hold an sNN-*.json file. NULL when none does, with the places looked at appended to `tried`
 * ("a, b, c"), or when memory ran out (smcj_out_of_memory()).
 */
char *smcj_vectors_dir_find(const char *given, smct_buf_t *tried);

#endif /* SMCJ_VECTORS_DIR_H */
