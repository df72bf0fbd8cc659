/**
 * @file diag_search.h
 * @brief The search behind the diagnosis (diagnosis.h): which sets of catalogued bugs
 *        reproduce a runner's failing checks, chosen greedily, coincidences thrown out.
 *
 * Internal to the diagnosis. A *candidate* is a set of bugs per codec part (a single entry
 * in the decoder, the encoder or both; or a chosen one plus one more); it *reproduces* a
 * failing check when the variant codec with those bugs gives the runner's exact answer.
 */
#ifndef SMCJ_DIAG_SEARCH_H
#define SMCJ_DIAG_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag_replay.h"
#include "model.h"

/** A failing check with an answer to compare. */
typedef struct smcj_fcheck {
    size_t check;  /* index in r->checks */
    size_t vector; /* index in vs->v */
    smcj_answer_t answer;
} smcj_fcheck_t;

/** A candidate cause and what it does on the runner's checks. */
typedef struct smcj_cand {
    smcm_bugs_t bugs;
    uint64_t *repro; /* bit k: reproduces failing check k */
    size_t n_repro;
    size_t n_exact;      /* of n_repro, reproduced without a wildcard (an error of any class) */
    size_t affects;      /* failing checks on which it predicts a failure */
    size_t contradicted; /* passing checks it would fail (counted when it is weighed) */
    bool rejected;       /* chosen or rejected: never weighed again */
} smcj_cand_t;

/** The search state for one runner. */
typedef struct smcj_search {
    const smcj_runner_t *r;
    const smcj_vectors_t *vs;
    const smcj_fcheck_t *f; /* the failing checks, in check order */
    size_t nf;
    size_t words; /* of each bit set over f */
    smc_arena_t scratch;
    size_t replays;
    smcj_cand_t *pool; /* the singles first, then pairs as they are tried */
    size_t n_pool, cap_pool, n_singles, n_pairs_tried;
    size_t *found; /* chosen candidates (indices into pool), in the order chosen */
    size_t n_found, cap_found;
    uint64_t *explained;          /* bit k: some chosen candidate reproduces failing check k */
    size_t contradicted_together; /* passing checks a codec with every chosen bug would fail */
    bool failed;                  /* out of memory: stop, the run reports nothing */
} smcj_search_t;

/**
 * Search causes of the failing checks f[0..nf) of runner r: fills s->found and s->explained.
 * `keys[k]` is the group of failing check k (what differs, numbers blanked), for throwing out
 * coincidences. False when out of memory.
 */
bool smcj_search_run(smcj_search_t *s, const smcj_runner_t *r, const smcj_vectors_t *vs,
                     const smcj_fcheck_t *f, size_t nf, const size_t *keys, size_t n_keys);

/** The single candidate of bug b in the parts candidate c has it in, or NULL. */
const smcj_cand_t *smcj_search_single(const smcj_search_t *s, const smcj_cand_t *c, unsigned b);

/** Bit k of a set made by the search. */
static inline bool smcj_bit(const uint64_t *set, size_t k)
{
    return (set[k / 64] >> (k % 64)) & 1u;
}

/** Release what the search holds. */
void smcj_search_free(smcj_search_t *s);

#endif /* SMCJ_DIAG_SEARCH_H */
