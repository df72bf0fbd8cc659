/**
 * @file verdict.h
 * @brief Judge one protocol-valid response against its vector (runners/PROTOCOL.md P.3, P.5).
 */
#ifndef SMCJ_VERDICT_H
#define SMCJ_VERDICT_H

#include "model.h"
#include "smct_json.h"

/**
 * Set c->outcome/reason/detail/expected/actual from `resp` (a parsed response object whose
 * seq matched and whose status is "ok", "error", "skipped", or for a version 2 runner
 * "crash" or "not_implemented"). `arena` is scratch space.
 */
void smcj_verdict(smcj_check_t *c, const smcj_runner_t *r, const smcj_vectors_t *vs,
                  const smct_json_t *resp, smc_arena_t *arena);

/* Shared with host_verdict.c (spec §17 checks). */

/** Fail the check with `reason`; takes `detail`. */
void smcj_check_fail(smcj_check_t *c, smcj_reason_t reason, char *detail);

/** spec R1.4-13: the runner lacks a feature the check needs (c->lacks) and refused or
 *  skipped cleanly: `unsupported` for a core feature, n/a for a profile one. */
void smcj_check_clean(smcj_check_t *c, const char *what);

/** The detail of a wrong answer, naming a silent loss when the runner lacks a feature (a
 *  new string); marks the check a silent loss, gated at every tier (R1.4-13). */
char *smcj_check_loss(smcj_check_t *c, const char *what);

/** An error answer as "class @ offset — message" (a new string). */
char *smcj_error_text(const smct_json_t *resp);

/** The encode answer's bytes against the check's expected bytes (its width, any order). */
bool smcj_expect_bytes(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                       smc_arena_t *arena);

/** The decoded item of an ok decode answer: 1 a value (in `got`), 2 a P.3 summary (in
 *  `shape`), 0 when the answer holds neither (the check has failed with protocol_error). */
int smcj_read_decoded(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                      smc_arena_t *arena, smct_doc_t *got, smct_summary_t *shape);

#endif /* SMCJ_VERDICT_H */
