/**
 * @file runner_host.h
 * @brief The `c` host vocabulary of spec §17.8 (runners/PROTOCOL.md P.2 `host_encode`,
 *        `host_decode`): a host value `{"type": "SMC_TYPE_I32", "value": "5"}` names the
 *        smc_type_t of each node of the smc_value_t tree the kit hands the codec, so the
 *        host value and the value notation map one to one.
 */
#ifndef SMC_RUNNER_HOST_H
#define SMC_RUNNER_HOST_H

#include <stdbool.h>

#include "smct_buf.h"
#include "smct_json.h"

/** Append the value notation of host value `hv`; false if it is not a `c` host value. */
bool smc_runner_host_to_notation(const smct_json_t *hv, smct_buf_t *out);

/** Append the host value of notation value `nv` (a decoded item); false if it has none. */
bool smc_runner_notation_to_host(const smct_json_t *nv, smct_buf_t *out);

#endif /* SMC_RUNNER_HOST_H */
