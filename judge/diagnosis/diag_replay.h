/**
 * @file diag_replay.h
 * @brief Replay one check of a runner through the variant codec with chosen bugs on, and
 *        compare: does the variant give the runner's answer, and would it pass the check?
 *
 * The replay is the request the judge sent (runners/PROTOCOL.md P.2: the same bytes, mode,
 * entry and `shift`), answered by mutants/ instead of the runner. Answers are compared as
 * the verdict compares them (verdict.c, with what expect.c set from the runner's declaration):
 * values as the check compares them (maps as multisets, integers by value), error classes
 * where the runner has them, offsets where it declares error-offsets and the check has one,
 * bytes exactly except where the variant's bytes are uninitialised.
 */
#ifndef SMCJ_DIAG_REPLAY_H
#define SMCJ_DIAG_REPLAY_H

#include <stdbool.h>

#include "model.h"
#include "smcm_codec.h"

/** What a runner answered to one failing check, parsed back from the check's record. */
typedef struct smcj_answer {
    bool usable;          /* false: nothing to compare (a harness failure, an unparsable value) */
    smcm_kind_t kind;     /* SMCM_VALUE, SMCM_ERROR or SMCM_BYTES */
    smct_doc_t doc;       /* SMCM_VALUE, unless `summary` */
    bool summary;         /* SMCM_VALUE answered as its P.3 summary (a value too large to print): */
    smct_summary_t shape; /* what a variant's value must summarise to */
    const char *cls;      /* SMCM_ERROR (borrowed from the check) */
    bool has_offset;
    uint64_t offset;
    const uint8_t *bytes; /* SMCM_BYTES (borrowed from the check) */
    size_t len;
    /* SMCM_ERROR that is no documented rejection (P.3 `crash`, `rejected`, a process that
     * died): `fault` is what its kind names (diag_faults.h), SMCM_FAULT_NONE when it names
     * nothing known, which any fault of a replay matches */
    bool undocumented;
    bool crash; /* a crash (of the process, or the runner's `crash` answer) */
    smcm_fault_t fault;
} smcj_answer_t;

/** A replay's prediction for one check. */
typedef enum smcj_pred {
    SMCJ_PRED_PASS = 0, /* a codec with these bugs passes the check */
    SMCJ_PRED_FAIL,     /* ... fails it */
    SMCJ_PRED_UNKNOWN   /* cannot tell (not modelled, a wildcard answer) */
} smcj_pred_t;

/** The variant's answers to one replayed check (decode and, for round trips, encode). */
typedef struct smcj_replay {
    smcm_answer_t dec; /* decode checks and the decode half of a round trip */
    smcm_answer_t enc; /* encode checks and the encode half of a round trip */
    bool has_dec, has_enc;
} smcj_replay_t;

/** The largest input the diagnosis replays (issue 26): a vector whose input, or any of its
 * accepted forms, is larger is not replayed, failing or passing (one failing 20 MB vector
 * took 842 MB and 15 s of replays), and the reports count it as not replayed. */
#define SMCJ_REPLAY_MAX_INPUT ((size_t)1 << 20)

/** Whether vector v is over SMCJ_REPLAY_MAX_INPUT. */
bool smcj_replay_too_big(const smcj_vector_t *v);

/** Parse the runner's answer recorded in failing check `c`; strings are borrowed. */
void smcj_answer_of(const smcj_check_t *c, const smcj_vector_t *v, smc_arena_t *arena,
                    smcj_answer_t *out);

/** Replay check `c` (of vector `v`, runner `r`) with `bugs` on; memory from `arena`. */
void smcj_replay(const smcj_check_t *c, const smcj_vector_t *v, const smcj_runner_t *r,
                 smcm_bugs_t bugs, smc_arena_t *arena, smcj_replay_t *out);

/** True if the replay gives exactly the runner's answer `a` (the check's failure, reproduced). */
bool smcj_replay_matches(const smcj_replay_t *p, const smcj_check_t *c, const smcj_vector_t *v,
                         const smcj_runner_t *r, const smcj_answer_t *a);

/** Whether a codec answering as the replay does would pass check `c` (the verdict's rules). */
smcj_pred_t smcj_replay_verdict(const smcj_replay_t *p, const smcj_check_t *c,
                                const smcj_vector_t *v, const smcj_runner_t *r, smc_arena_t *arena);

/** True if two replays of one check gave the same answers (bytes, value, class and offset). */
bool smcj_replay_same(const smcj_replay_t *a, const smcj_replay_t *b);

/** True if checks of this kind send a decode request (or the decode half of a round trip). */
bool smcj_check_decodes(smcj_check_kind_t k);

/** True for a self-consistency check (spec R1.4-18) that decoded the vector's canonical bytes
 * (the codec's encoder wrote them): it is replayed as a decode of those bytes. One that
 * decoded other bytes of the runner's is not (a replay does not have them). */
bool smcj_self_replayable(const smcj_check_t *c);
/** True if checks of this kind send an encode request (or the encode half of a round trip). */
bool smcj_check_encodes(smcj_check_kind_t k);

#endif /* SMCJ_DIAG_REPLAY_H */
