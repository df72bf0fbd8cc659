/**
 * @file runner_summary.h
 * @brief The `summary` answer of runners/PROTOCOL.md P.3: the depth (spec §15.1), value count
 *        and payload bytes of a decoded item, for a value too large to print.
 */
#ifndef SMC_RUNNER_SUMMARY_H
#define SMC_RUNNER_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "smc_runner_codec.h"

/** Deeper values are answered with their summary (P.3). */
#define SMC_RUNNER_PRINTABLE_DEPTH 500u
/** Longer response lines are answered with their summary (P.3). */
#define SMC_RUNNER_PRINTABLE_LINE ((size_t)16 << 20)

typedef struct smc_runner_summary {
    uint64_t depth;  /**< container depth, spec §15.1: a top-level list is 1, a scalar 0 */
    uint64_t values; /**< values in the tree: itself, elements, map keys and values, payloads */
    uint64_t bytes;  /**< bytes of strings, byte arrays, largeInt texts, typed-list elements */
} smc_runner_summary_t;

/**
 * Summarise the value an item carries (a message's value, a call's arguments, an envelope's
 * result or details). Walks with a heap stack, never recursion: a codec without a depth limit
 * may hand back a tree far deeper than the runner's stack. False when out of memory.
 */
bool smc_runner_summarize(const smc_runner_item_t *item, smc_runner_summary_t *out);

#endif /* SMC_RUNNER_SUMMARY_H */
