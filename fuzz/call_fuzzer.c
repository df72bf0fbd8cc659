/*
 * call_fuzzer: Method calls (spec §10) through smc_decode_method_call and smc_encode_method_call:
 * the decode properties of decode_fuzzer and the round-trip properties of roundtrip_fuzzer. Input:
 * one option byte (fuzz_helpers.h), then the bytes to decode.
 */
#include "fuzz_properties.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_entry(FUZZ_ENTRY_CALL, data, size, true);
}
