/**
 * @file xfail.h
 * @brief Expected-failure lists with protobuf's semantics: a listed vector that fails is an
 *        expected failure; one that passes is an unexpected pass and fails the run; an entry
 *        that matches no vector fails the run too, so a list can never go stale.
 *
 * File format: one entry per line, `vector-id  # reason`; blank lines and lines starting
 * with `#` are comments. An entry may be an fnmatch glob (`s06.*-offset*`), which must match
 * at least one vector and at most SMCJ_XFAIL_MAX_EXPANSION, so one line cannot silently
 * excuse a whole section. A line `feature:WORD  # reason` excuses the runner's verdict
 * `unsupported: WORD` (a core feature it lacks, spec §1.4); it is stale, and fails the run,
 * when the runner does not lack WORD.
 */
#ifndef SMCJ_XFAIL_H
#define SMCJ_XFAIL_H

#include <stdbool.h>

#include "alloc.h"
#include "escape.h"
#include "model.h"

#define SMCJ_XFAIL_MAX_EXPANSION 1000u

/** The prefix of a line that names a core feature the codec lacks (spec §1.4). */
#define SMCJ_XFAIL_FEATURE "feature:"

/** Parse `path`; false with a message (unreadable file, empty pattern). */
bool smcj_xfail_load(smcj_xfail_t *x, const char *path, char *err, size_t err_size);

/**
 * Count the vectors each entry matches (all loaded vectors, not only the selected ones).
 * False with a message if a glob expands to more than SMCJ_XFAIL_MAX_EXPANSION ids.
 */
bool smcj_xfail_expand(smcj_xfail_t *x, const smcj_vectors_t *vs, char *err, size_t err_size);

/** The `feature:WORD` entry for `word`, or NULL. */
smcj_xfail_entry_t *smcj_xfail_feature(smcj_xfail_t *x, const char *word);

/** The entry that lists `id` (exact entries first, then globs), or NULL. */
const smcj_xfail_entry_t *smcj_xfail_lookup(const smcj_xfail_t *x, const char *id);

/**
 * The corrected list for runner `r`, appended to `b`: every vector that now fails (statuses
 * FAIL and XFAIL, and DIFFERS when `include_differs`), each with its old reason when the old
 * list had one, else a TODO with the failure kind.
 */
void smcj_xfail_format(smct_buf_t *b, const smcj_runner_t *r, const smcj_vectors_t *vs,
                       bool include_differs);

void smcj_xfail_free(smcj_xfail_t *x);

#endif /* SMCJ_XFAIL_H */
