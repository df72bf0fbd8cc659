/**
 * @file host_vectors.h
 * @brief Host-type vectors (spec §17; kinds host_encode and host_decode, spec/vectors.md
 *        V.2): the one check each gets, its request line (runners/PROTOCOL.md P.2
 *        `host_encode`, `host_decode`) and its verdict; their fields are loaded with the
 *        others' (vector_fields.h, smcj_host_vector_load).
 */
#ifndef SMCJ_HOST_VECTORS_H
#define SMCJ_HOST_VECTORS_H

#include <stdbool.h>

#include "model.h"
#include "smct_buf.h"
#include "smct_json.h"
#include "vector_fields.h"

/** True if the runner speaks vocabulary `host` (P.1 `hosts`). */
bool smcj_runner_speaks(const smcj_runner_t *r, const char *host);

/** What the check of a host vector expects of this runner; n/a (with the reason) when it
 *  does not speak the vector's vocabulary or lacks the message entry point. */
void smcj_host_expect(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v);

/** P.2: the request of a host check. */
void smcj_host_request_line(smct_buf_t *b, unsigned long long seq, const smcj_vector_t *v,
                            const smcj_check_t *c);

/** P.5 for a host check: `resp` is a protocol-valid "ok" or "error" answer. */
void smcj_host_verdict(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v,
                       const smct_json_t *resp, const char *status, smc_arena_t *arena);

#endif /* SMCJ_HOST_VECTORS_H */
