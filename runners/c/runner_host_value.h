/**
 * @file runner_host_value.h
 * @brief A host value (spec §17.1) between the protocol's JSON and the smc_runner_host_value_t
 *        tree a codec's host hook takes and returns (smc_runner_codec.h).
 */
#ifndef SMC_RUNNER_HOST_VALUE_H
#define SMC_RUNNER_HOST_VALUE_H

#include <stdbool.h>

#include "smc_runner_codec.h"
#include "smct_buf.h"
#include "smct_json.h"

/** The tree of the JSON host value `json`, from `arena`; NULL if `json` is not a host value. */
smc_runner_host_value_t *smc_runner_host_value_read(const smct_json_t *json, smc_arena_t *arena);

/** Append the JSON host value of `hv`; false if the tree is malformed (a NULL type where a
 *  host value belongs, too deep). */
bool smc_runner_host_value_write(smct_buf_t *out, const smc_runner_host_value_t *hv);

#endif /* SMC_RUNNER_HOST_VALUE_H */
