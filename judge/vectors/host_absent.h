/**
 * @file host_absent.h
 * @brief The host types a runner states its codec's API cannot take or give (spec §17.1,
 *        runners/PROTOCOL.md P.1 `hosts_without`): read from the hello (run room), recorded
 *        per vector when it is loaded, looked up by the host checks (verdict room).
 */
#ifndef SMCJ_HOST_ABSENT_H
#define SMCJ_HOST_ABSENT_H

#include <stdbool.h>

#include "model.h"
#include "smct_buf.h"
#include "smct_json.h"

/** Record the runner's `hosts_without` (schema-checked) for the vocabularies it speaks; a
 *  vocabulary it does not speak is named in `note` and ignored. */
void smcj_host_absent_take(smcj_runner_t *r, const smct_json_t *without, smct_buf_t *note);

/** True if the runner states that its API has no `type` of vocabulary `host`. */
bool smcj_host_states_absent(const smcj_runner_t *r, const char *host, const char *type);

/** Record the distinct type names of a vector's host value `hv` (v->host_types). */
void smcj_host_types_load(smcj_vector_t *v, const smct_json_t *hv);

/** A type of the vector's host value the runner states absent (the vector's string), or NULL. */
const char *smcj_host_absent_of(const smcj_runner_t *r, const smcj_vector_t *v);

/** The protocol error of an ok host_decode answer holding a type the runner states absent (a
 *  new string), or NULL when it holds none. */
char *smcj_host_absent_answer(const smcj_runner_t *r, const smcj_vector_t *v,
                              const smct_json_t *host_value);

/** The n/a reason of a check whose host value holds `type`, stated absent (a new string). */
char *smcj_host_absent_reason(const char *type);

#endif /* SMCJ_HOST_ABSENT_H */
