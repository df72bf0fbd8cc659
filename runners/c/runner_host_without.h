/**
 * @file runner_host_without.h
 * @brief The host types a codec's API cannot take or give (spec §17.1, runners/PROTOCOL.md P.1
 *        `hosts_without`): stated in the hello, and a host value holding one skipped before it
 *        reaches the codec's hook.
 */
#ifndef SMC_RUNNER_HOST_WITHOUT_H
#define SMC_RUNNER_HOST_WITHOUT_H

#include "smc_runner_codec.h"
#include "smct_json_writer.h"

/** Write the member `"hosts_without": {...}` for the codec's `host_types_without` of the
 *  vocabularies its hook speaks; nothing when it states none. */
void smc_runner_write_hosts_without(smct_jw_t *w, const smc_runner_codec_t *codec);

/** The first type of `hv` (of `vocabulary`) the codec states its API lacks, or NULL. */
const char *smc_runner_stated_absent(const smc_runner_codec_t *codec, const char *vocabulary,
                                     const smc_runner_host_value_t *hv);

#endif /* SMC_RUNNER_HOST_WITHOUT_H */
