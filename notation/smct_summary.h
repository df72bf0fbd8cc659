/**
 * @file smct_summary.h
 * @brief The depth (spec §15.1), value count and payload bytes of a value tree: the
 *        `summary` a runner answers for a value too large to print (runners/PROTOCOL.md P.3),
 *        which the judge checks against. Walked with a heap stack, never recursion: the trees
 *        are those a codec without a depth limit built, 100,000 levels deep.
 */
#ifndef SMCT_SUMMARY_H
#define SMCT_SUMMARY_H

#include <stdint.h>

#include "smct_doc.h"
#include "smct_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smct_summary {
    uint64_t depth;  /**< container depth: a top-level list, map or custom value is 1, a scalar 0 */
    uint64_t values; /**< values in the tree: itself, elements, map keys and values, payloads */
    uint64_t bytes;  /**< bytes of its strings, byte arrays, largeInt texts, typed-list elements */
} smct_summary_t;

/**
 * The summary of the value `doc` carries: a message's value, a call's arguments, an envelope's
 * result or details (a NULL value counts as one null).
 * @return SMCT_OK, or SMCT_ERR_NOMEM when the stack cannot grow (`*out` then incomplete).
 */
smct_status_t smct_summary_of(const smct_doc_t *doc, smct_summary_t *out);

#ifdef __cplusplus
}
#endif

#endif /* SMCT_SUMMARY_H */
