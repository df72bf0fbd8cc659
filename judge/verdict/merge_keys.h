/**
 * @file merge_keys.h
 * @brief Keys a host cannot keep apart (spec §7.3, decision of vectors 0.3): for a host
 *        without `int64-distinct`, `i32 1` and `i64 1` are one host value, so two keys that
 *        differ only in width are duplicates for it, and R7.3-2 lets its map keep the first
 *        or the last value (an implementation-defined difference, not a failure).
 */
#ifndef SMCJ_MERGE_KEYS_H
#define SMCJ_MERGE_KEYS_H

#include <stdbool.h>

#include "compare.h"

/**
 * A copy of `in` in `arena` whose maps hold one entry per key equal under `how`: the first
 * such key, with its first value or (`keep_last`) its last one. False when out of memory.
 */
bool smcj_doc_merge_keys(const smct_doc_t *in, smcj_cmp_t how, bool keep_last, smc_arena_t *arena,
                         smct_doc_t *out);

/**
 * True if `got` is the vector value `want` with the keys `how` merges kept once, first or
 * last value: what a host map without the distinction gives (R7.3-2). `arena` is scratch.
 */
bool smcj_is_host_merge(const smct_doc_t *want, const smct_doc_t *got, smcj_cmp_t how,
                        smc_arena_t *arena);

#endif /* SMCJ_MERGE_KEYS_H */
