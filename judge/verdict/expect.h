/**
 * @file expect.h
 * @brief What a runner's declaration makes the judge expect of one check (spec §1.4
 *        "Features and profiles", runners/PROTOCOL.md P.5). Every vector is sent; a missing
 *        feature changes the expectation, never whether the check runs:
 *        - a core or profile feature it needs: a clean rejection or skip is `unsupported`
 *          (core) or n/a (profile), another value a silent loss;
 *        - host features: values compared as multisets (map-order) or by integer value
 *          (int64-distinct), expected bytes by R4.2-4 or Pigeon's R12.3-1, canonical for some
 *          order of the map entries; a host that cannot build a value may skip its encode;
 *        - depth-limit: the nesting vectors are held to R1.4-8 only (robustness).
 */
#ifndef SMCJ_EXPECT_H
#define SMCJ_EXPECT_H

#include "model.h"

/** Fill c's expectation fields (lacks, cmp, width, ...) for runner `r` and vector `v`. */
void smcj_expect(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v);

/** spec R1.4-13 for a host-type check (spec §17), which goes one way: the core and profile
 *  features of `v` the runner does not declare for `direction` (0 decode, 1 encode) into
 *  c->lacks (and c->lacks_core). How results compare is the host check's own business. */
void smcj_expect_lacks(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v,
                       int direction);

/** True if the runner declared `word` for the direction (0 decode, 1 encode) at `entry`. */
bool smcj_declares(const smcj_runner_t *r, smc_entry_t entry, int direction, const char *word);

#endif /* SMCJ_EXPECT_H */
