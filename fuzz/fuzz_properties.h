/*
 * The properties every decode and round trip must have, written once for all three entry
 * points (house style rule 14; spec §1.4 robustness and round trip; spec §15.3 memory).
 */
#ifndef SMC_FUZZ_PROPERTIES_H
#define SMC_FUZZ_PROPERTIES_H

#include "fuzz_entry.h"

/** A decode whose result lives in a caller block of exactly smc_decode_bound(len) bytes. */
typedef struct fuzz_decoding {
    smc_status_t status;
    smc_error_t err;
    fuzz_result_t result;
    smc_arena_t arena;
    uint8_t *block;
} fuzz_decoding_t;

/**
 * Decode `data` with entry `e` and assert everything that holds for one decode:
 *  - the status and offset obey spec/errors.md (fuzz_check_decode_status);
 *  - an arena over exactly smc_decode_bound(len) bytes never runs out (no NOMEM, security
 *    model P3) and on failure is left empty with the output zeroed (P6);
 *  - a successful result is internally consistent, no deeper than the limit, and with
 *    SMC_ALIAS_INPUT its views lie inside the input;
 *  - a second decode through a growing arena with a counting allocator gives the same
 *    status, offset and result, asks the allocator for at most smc_decode_bound(len) bytes
 *    (P3; SMC_FUZZ_REPORT_RATIO=1 prints the worst total per byte at exit), and returns every
 *    block when the arena is freed;
 *  - for messages, smc_validate gives the same status and offset.
 * `effective_depth` is the depth limit the options select. Release with fuzz_decoding_release.
 */
void fuzz_decode_checked(fuzz_entry_t e, const uint8_t *data, size_t len,
                         const smc_decode_opts_t *opts, uint32_t effective_depth,
                         fuzz_decoding_t *d);

void fuzz_decoding_release(fuzz_decoding_t *d);

/**
 * All decode properties of one input under the options of its option byte, in both modes:
 * fuzz_decode_checked in flutter and strict mode, the relation between the modes, the same
 * answer with and without SMC_ALIAS_INPUT, and the depth limit at N and N-1 for a decoded
 * tree of depth N. With `roundtrip`, also the encoder properties (fuzz_check_roundtrip).
 */
void fuzz_check_input(fuzz_entry_t e, const uint8_t *data, size_t len, const fuzz_options_t *fo,
                      bool roundtrip);

/**
 * The body of a target over one entry point: split off the option byte (fuzz_helpers.h),
 * copy the rest into a block of exactly its size (so ASan sees any read past it) and run
 * fuzz_check_input. Returns 0 (the only value LLVMFuzzerTestOneInput may return).
 */
int fuzz_run_entry(fuzz_entry_t e, const uint8_t *data, size_t size, bool roundtrip);

#endif /* SMC_FUZZ_PROPERTIES_H */
