/*
 * One interface over the three entry points (message spec §9, method call spec §10,
 * envelope spec §11), so that every property is written once and checked for all three.
 */
#ifndef SMC_FUZZ_ENTRY_H
#define SMC_FUZZ_ENTRY_H

#include "fuzz_helpers.h"

/** What one entry point decodes to. */
typedef union fuzz_result {
    smc_value_t *value;     /* FUZZ_ENTRY_MESSAGE */
    smc_method_call_t call; /* FUZZ_ENTRY_CALL */
    smc_envelope_t env;     /* FUZZ_ENTRY_ENVELOPE */
} fuzz_result_t;

/** Decode with the entry point `e` (smc_decode, smc_decode_method_call, smc_decode_envelope). */
smc_status_t fuzz_entry_decode(fuzz_entry_t e, const uint8_t *data, size_t len,
                               const smc_decode_opts_t *opts, smc_arena_t *arena,
                               fuzz_result_t *out, smc_error_t *err);

/** Encode a decoded result with the matching encoder into buf[0..cap). */
smc_status_t fuzz_entry_encode(fuzz_entry_t e, const fuzz_result_t *r, uint8_t *buf, size_t cap,
                               size_t *written_or_needed, smc_error_t *err);

/** Exact equality of two results (values by smc_value_equal, strings bytewise). */
bool fuzz_entry_equal(fuzz_entry_t e, const fuzz_result_t *a, const fuzz_result_t *b);

/** True when any value of the result holds a largeInt (which no encoder writes, spec §4.4). */
bool fuzz_entry_has_largeint(fuzz_entry_t e, const fuzz_result_t *r);

/** Nesting depth of the result's value (spec §15.1). */
size_t fuzz_entry_depth(fuzz_entry_t e, const fuzz_result_t *r);

/**
 * Assert the result is internally consistent: every tree passes fuzz_check_tree, every text
 * field is well-formed UTF-8, and, when `lo` is non-NULL (alias mode), every view lies in
 * [lo, hi).
 */
void fuzz_entry_check(fuzz_entry_t e, const fuzz_result_t *r, const uint8_t *lo, const uint8_t *hi);

/** Entry name for messages ("message", "call", "envelope"). */
const char *fuzz_entry_name(fuzz_entry_t e);

#endif /* SMC_FUZZ_ENTRY_H */
