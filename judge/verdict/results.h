/**
 * @file results.h
 * @brief From checks to per-vector statuses, counts and the gate (tier policy, expected
 *        failures, runners that could not start).
 */
#ifndef SMCJ_RESULTS_H
#define SMCJ_RESULTS_H

#include "model.h"

/** Fill runner->results and counts, then run->gate_passed, gate_notes and exit_status. */
void smcj_results_compute(smcj_run_t *run);

/** True for failures the judge assigns itself (crash, timeout, protocol_error, resource). */
bool smcj_reason_is_harness(smcj_reason_t r);

/** spec §3.3: the tier of a placement failure with this reason (required for another value or
 *  an accepted reject and for a crash or hang, recommended for an error or an unclassified
 *  rejection; SMCJ_REASON_NONE: skipped at the shift). */
smcj_tier_t smcj_placement_tier(smcj_reason_t reason);

/** The tier a failed check is judged and labelled at: required for a crash, hang or protocol
 *  error (R1.4-8, gated at every tier), recommended for an unclassified rejection (R1.4-15),
 *  else the tier of the rules it tests. */
smcj_tier_t smcj_check_tier(const smcj_check_t *c);

/** The range of checks of vector `vi` in runner `r` (checks are grouped by vector). */
void smcj_checks_of(const smcj_runner_t *r, size_t vi, size_t *begin, size_t *end);

#endif /* SMCJ_RESULTS_H */
