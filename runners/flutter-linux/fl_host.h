/**
 * @file fl_host.h
 * @brief The `glib` host vocabulary of spec §17.7: host values ↔ FlValue, built and read with
 *        the engine's own fl_value_* functions (never with libsmc).
 *
 * host_encode names an FL_VALUE_TYPE_* for every node; smc_fl_host_build makes exactly that
 * FlValue. host_decode describes a decoded FlValue by fl_value_get_type of every node;
 * smc_fl_host_describe writes that description. Host values come from vectors and are
 * shallow, and a description is only asked of host_decode vectors, so both recurse, with a
 * depth bound that answers "skipped" rather than overflow the stack.
 */
#ifndef SMC_FL_HOST_H
#define SMC_FL_HOST_H

#include <stddef.h>

#include "fl_api.h"
#include "fl_values.h"
#include "smc_runner_codec.h"

/** {"glib", NULL}: for the codec's `host_vocabularies`. */
extern const char *const smc_fl_glib_vocabulary[];

/**
 * Build the FlValue the `glib` host value `hv` names (a new reference in `*out`). SKIP with
 * `why` when a type name is not of the vocabulary, a literal does not fit its type, or the
 * engine lacks the type (FL_VALUE_TYPE_FLOAT32_LIST before it had one).
 */
smc_fl_conv_t smc_fl_host_build(const smc_fl_api_t *api, const smc_runner_host_value_t *hv,
                                smc_fl_value_t **out, char *why, size_t why_size);

/**
 * Describe the FlValue `v` as a `glib` host value allocated from `arena`: each node's type is
 * the spelling of its fl_value_get_type, its literal the value as spec §17.1 writes it. SKIP
 * for a type the vocabulary has no name for (FL_VALUE_TYPE_CUSTOM).
 */
smc_fl_conv_t smc_fl_host_describe(const smc_fl_api_t *api, smc_fl_value_t *v, smc_arena_t *arena,
                                   smc_runner_host_value_t **out, char *why, size_t why_size);

#endif /* SMC_FL_HOST_H */
