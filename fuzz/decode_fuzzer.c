/*
 * decode_fuzzer: Any bytes through smc_decode (spec §9) in flutter and strict mode: statuses and
 * offsets obey spec/errors.md, an arena of smc_decode_bound(len) bytes never runs out, nothing
 * leaks, both modes and both SMC_ALIAS_INPUT settings agree, and the depth limit holds at N and
 * N-1. See fuzz_properties.h for the full list. Input: one option byte (fuzz_helpers.h), then the
 * bytes to decode.
 */
#include "fuzz_properties.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_entry(FUZZ_ENTRY_MESSAGE, data, size, false);
}
