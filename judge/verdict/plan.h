/**
 * @file plan.h
 * @brief Which requests a runner gets for each vector (runners/PROTOCOL.md P.5), which are
 *        not applicable and why (P.1 capabilities), and the text of each request (P.2).
 */
#ifndef SMCJ_PLAN_H
#define SMCJ_PLAN_H

#include <stdint.h>

#include "alloc.h"
#include "escape.h"
#include "model.h"

/** Build runner->checks for every selected vector, after a successful handshake. */
void smcj_plan(smcj_runner_t *r, const smcj_vectors_t *vs);

/** The diagnosis probes (diag_probes.h): one flutter-mode decode check per vector marked
 *  `probe`, built like a verdict's decode check. */
void smcj_plan_probes(smcj_runner_t *r, const smcj_vectors_t *vs);

/** One placeholder check per selected vector, failed with `reason` (a handshake that failed). */
void smcj_plan_all_failed(smcj_runner_t *r, const smcj_vectors_t *vs, smcj_reason_t reason,
                          const char *detail);

/** Append the request line (without newline) for check `c` with sequence number `seq`. */
void smcj_request_line(smct_buf_t *b, uint64_t seq, const smcj_runner_t *r,
                       const smcj_vectors_t *vs, const smcj_check_t *c);

#endif /* SMCJ_PLAN_H */
