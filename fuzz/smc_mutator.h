/*
 * Structure-aware mutator for the fuzz targets (fuzz/README.md): parse the input as the
 * format sees it (an option byte, then values back to back), change the structure (sizes and
 * their forms, tags, padding and alignment, nesting, counts, payload edge cases) and write
 * the tree back, with padding recomputed from the message offset so that most results stay
 * well-formed enough to reach deep code. One core (this file's functions), two front ends:
 * LLVMFuzzerCustomMutator (mutator_libfuzzer.c) and AFL++'s custom mutator API
 * (mutator_afl.c, a shared library loaded with AFL_CUSTOM_MUTATOR_LIBRARY).
 *
 * Inputs need not be valid: the parse is lenient (an unknown tag or a cut value ends the
 * parse and the rest is kept as raw bytes), so any input gives some tree.
 */
#ifndef SMC_FUZZ_MUTATOR_H
#define SMC_FUZZ_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/**
 * Mutate data[0..size) in place into at most max_size bytes, deterministically from `seed`.
 * Returns the new size, or 0 when this input offers nothing to mutate (the caller then uses
 * its engine's own mutation). Never reads or writes outside data[0..max_size).
 */
size_t smc_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/**
 * Parse data[0..size) and write it back without any mutation into out[0..cap). For a
 * canonical input (an option byte and canonical values) the result is the same bytes: the
 * self-test's check that the parse and the writer agree. Returns the length, 0 if it does
 * not fit.
 */
size_t smc_mutator_roundtrip(const uint8_t *data, size_t size, uint8_t *out, size_t cap);

#endif /* SMC_FUZZ_MUTATOR_H */
