/**
 * @file profile.h
 * @brief The groups of spec §1.4 ("Features and profiles"): every feature word of
 *        spec/vectors.md V.3 is core (every codec MUST support it), host (MUST where the host
 *        can hold it, with a stated alternative otherwise) or part of an optional profile,
 *        and the rule that makes it so. The judge turns a runner's missing words into
 *        expectations with this table (runners/PROTOCOL.md P.5).
 */
#ifndef SMCJ_PROFILE_H
#define SMCJ_PROFILE_H

#include <stddef.h>

typedef enum smcj_group {
    SMCJ_GROUP_CORE = 0,   /* R1.4-11: missing it is an `unsupported` verdict */
    SMCJ_GROUP_HOST = 1,   /* R1.4-12: missing it changes how results are compared */
    SMCJ_GROUP_PROFILE = 2 /* optional: missing it makes the vectors that need it n/a */
} smcj_group_t;

typedef struct smcj_feature {
    const char *word; /* the V.3 word */
    smcj_group_t group;
    const char *rule; /* the spec rule that makes it so: "R6.5-1" */
} smcj_feature_t;

/** The entry for `word`, or NULL for a word spec §1.4 does not list. */
const smcj_feature_t *smcj_feature(const char *word);

/** Every entry, in spec §1.4's order; `*n` gets the count. */
const smcj_feature_t *smcj_features(size_t *n);

/** "core", "host", "profile". */
const char *smcj_group_name(smcj_group_t g);

#endif /* SMCJ_PROFILE_H */
