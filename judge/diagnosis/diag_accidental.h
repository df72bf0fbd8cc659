/**
 * @file diag_accidental.h
 * @brief Accidental passes (issue 28): a check the runner passed that a cause would fail, but
 *        where the runner's pass is no evidence against the cause, because it rejected the
 *        input for another reason the runner shows elsewhere.
 *
 * Internal to the diagnosis (diag_search.c). A Rust port that reads unknown tags as null and
 * keys its maps by strings passes `0d01 0f 00` (expected: unknown_tag) by rejecting the null
 * key; the catalogue's unknown-tag-as-null predicts the map {null: null} there. The pass is
 * accidental when all of these hold:
 *
 * - the check is a reject check the runner passed with a rejection that does not show the
 *   expected reason: the runner declares no `error-classes` (so no class was compared), and
 *   it sent no class or another one than the vector's;
 * - the cause decodes a value there (an answer of another kind than the runner's);
 * - that value holds a *refused feature*: an element of one type in one place of a container
 *   (a null map key, a Float64List in a list, ...) that the runner rejected in at least one
 *   valid vector it was asked to decode, and accepted in none. That rejection is the other
 *   fault, seen on inputs that must decode: it explains the pass.
 *
 * A runner that rejects an input for the expected reason, or that decodes the feature the
 * cause's value holds elsewhere, gives no accidental pass: its pass contradicts the cause.
 */
#ifndef SMCJ_DIAG_ACCIDENTAL_H
#define SMCJ_DIAG_ACCIDENTAL_H

#include <stdbool.h>
#include <stdint.h>

#include "diag_replay.h"
#include "model.h"

/** A set of features (container role × element type), one bit each. */
typedef uint64_t smcj_features_t;

/** The features runner r refuses: rejected in some valid vector's decode (a selected one or a
 *  diagnosis probe) without another such feature, and accepted in none. */
smcj_features_t smcj_refused_features(const smcj_runner_t *r, const smcj_vectors_t *vs);

/** Whether valid vector v's value holds a feature (an element of a container): what a
 *  diagnosis probe (diag_probes.h) can learn a refused feature from. */
bool smcj_vector_has_features(const smcj_vector_t *v);

/** Whether passed check c (of vector v) is an accidental pass for a cause whose replay is p,
 *  given the features the runner refuses (smcj_refused_features). */
bool smcj_accidental_pass(const smcj_check_t *c, const smcj_vector_t *v, const smcj_runner_t *r,
                          const smcj_replay_t *p, smcj_features_t refused);

#endif /* SMCJ_DIAG_ACCIDENTAL_H */
