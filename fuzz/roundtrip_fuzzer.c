/*
 * roundtrip_fuzzer: Messages (spec §9): every decode property of decode_fuzzer, plus the encoder:
 * decode → encode → decode is a fixpoint, the encoder's output is accepted by strict mode, and
 * strict mode accepts an input exactly when it is the canonical encoding of its value (spec §1.2,
 * §13); a largeInt is never encoded (spec §4.4).
 * Input: one option byte (fuzz_helpers.h), then the bytes to decode.
 */
#include "fuzz_properties.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_run_entry(FUZZ_ENTRY_MESSAGE, data, size, true);
}
