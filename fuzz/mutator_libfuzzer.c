/*
 * libFuzzer front end of the structure-aware mutator (smc_mutator.h), linked into the wire
 * targets of a libFuzzer build: half of the mutations are structural, half are libFuzzer's
 * own byte-level ones (which also run when the structural one has nothing to change).
 */
#include "smc_mutator.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    if (seed & 1u) {
        size_t n = smc_mutate(data, size, max_size, seed >> 1);
        if (n > 0) {
            return n;
        }
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
