/**
 * @file fl_values.h
 * @brief FlValue ↔ the kit's value tree (smc_value_t), without recursion on the deep side.
 *
 * A decoded FlValue can nest as deep as the engine's own recursion survived (D22), so it is
 * converted with a heap stack: the runner never crashes where the codec did not.
 */
#ifndef SMC_FL_VALUES_H
#define SMC_FL_VALUES_H

#include <stdbool.h>
#include <stddef.h>

#include "fl_api.h"
#include "smc/smc.h"

/** What a conversion ended in. */
typedef enum smc_fl_conv {
    SMC_FL_CONV_OK = 0,
    SMC_FL_CONV_SKIP = 1, /**< the host cannot hold the value: `why` says what */
    SMC_FL_CONV_NOMEM = 2 /**< the runner ran out of memory */
} smc_fl_conv_t;

/**
 * Copy the FlValue `v` into `arena` as an smc_value_t tree (every payload copied). Strings
 * are read as FlValue holds them, NUL-terminated. A custom value's payload is the FlValue the
 * runner's codec subclass stored (fl_pigeon_codec.h).
 */
smc_fl_conv_t smc_fl_to_smc(const smc_fl_api_t *api, smc_fl_value_t *v, smc_arena_t *arena,
                            smc_value_t **out, char *why, size_t why_size);

/**
 * Build the FlValue for `v` (a new reference in `*out`, NULL-safe for `v` == NULL: null).
 * Skips what FlValue cannot hold: largeInt (no FlValue type), custom values when the engine
 * has no FL_VALUE_TYPE_CUSTOM, Float32List before the engine had it, and two keys that
 * FlValue's map takes as the same key (it would keep one; PROTOCOL.md P.6).
 */
smc_fl_conv_t smc_fl_from_smc(const smc_fl_api_t *api, const smc_value_t *v, smc_fl_value_t **out,
                              char *why, size_t why_size);

#endif /* SMC_FL_VALUES_H */
