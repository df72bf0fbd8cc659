/**
 * @file compare.h
 * @brief How the judge compares a runner's answer with a vector, given what the runner's
 *        host can hold (spec §1.4, runners/PROTOCOL.md P.5): exactly; with maps as multisets
 *        of entries (no map-order); with integers by value, their width ignored (one integer
 *        type, no int64-distinct). And the bytes an encoder of such a host must write: the
 *        vector's value with its integers written as R4.2-4 (by value) or Pigeon's R12.3-1
 *        (every integer int64) says, canonical for some order of its map entries.
 */
#ifndef SMCJ_COMPARE_H
#define SMCJ_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc.h"
#include "smct_doc.h"

typedef struct smcj_cmp {
    bool unordered_maps; /* maps compare as multisets of entries */
    bool ints_by_value;  /* i32 n and i64 n are the same value */
} smcj_cmp_t;

/** Equality of two items of one entry under `how` (exact when both flags are false). */
bool smcj_doc_equal_as(const smct_doc_t *a, const smct_doc_t *b, smcj_cmp_t how);

/** Equality of two values under `how` (smcj_doc_equal_as for one value). */
bool smcj_value_equal_as(const smc_value_t *a, const smc_value_t *b, smcj_cmp_t how);

/**
 * True if a map in the value `doc` carries (message value, arguments, result, details) has two
 * keys equal under `how`: a host whose equality that is (a Dart map, where i32 1 and i64 1
 * are one int) cannot build the value to encode it.
 */
bool smcj_doc_has_merged_keys(const smct_doc_t *doc, smcj_cmp_t how);

/** How an encoder writes integers. */
typedef enum smcj_int_width {
    SMCJ_INTS_BY_TYPE = 0,  /* the value's type picks the tag (R4.2-2) */
    SMCJ_INTS_BY_VALUE = 1, /* one integer type: int32 when it fits, else int64 (R4.2-4) */
    SMCJ_INTS_INT64 = 2     /* Pigeon's convention: every integer as int64 (R12.3-1) */
} smcj_int_width_t;

/**
 * A copy of `in` in `arena` whose integers (scalars; typed lists keep their type) are of the
 * type `width` gives them; with SMCJ_INTS_BY_TYPE a plain copy. False when out of memory.
 */
bool smcj_doc_retype(const smct_doc_t *in, smcj_int_width_t width, smc_arena_t *arena,
                     smct_doc_t *out);

/**
 * True if `bytes` is the canonical encoding (spec §13) of `expected` with the entries of its
 * maps in some order: a strict decode of them equals `expected` under `how` (maps as
 * multisets), and encodes back to exactly `bytes`. `arena` is scratch space.
 */
bool smcj_canonical_in_some_order(const smct_doc_t *expected, const uint8_t *bytes, size_t len,
                                  smcj_cmp_t how, smc_arena_t *arena);

#endif /* SMCJ_COMPARE_H */
