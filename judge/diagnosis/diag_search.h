/**
 * @file diag_search.h
 * @brief The search behind the diagnosis (diagnosis.h): the set of up to SMCJ_MAX_CAUSES
 *        catalogued bugs that reproduces most of a runner's failing checks, coincidences
 *        thrown out.
 *
 * Internal to the diagnosis. A *candidate* is a set of bugs per codec part (a single entry
 * in the decoder, the encoder or both, or several of them at once); it *reproduces* a
 * failing check when the variant codec with those bugs gives the runner's exact answer. A
 * set of singles *explains* a failing check when one of its subsets reproduces it. The
 * search is a beam search over sets (exact for sets of one and, with few singles in play,
 * of two), scored by the failing checks explained; ties go to fewer bugs, then catalogue
 * order, so the answer does not depend on the order of checks or vectors.
 */
#ifndef SMCJ_DIAG_SEARCH_H
#define SMCJ_DIAG_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag_accidental.h"
#include "diag_replay.h"
#include "model.h"

/** The most catalogue entries named together. */
#define SMCJ_MAX_CAUSES 4u

/** A failing check with an answer to compare. */
typedef struct smcj_fcheck {
    size_t check;  /* index in r->checks */
    size_t vector; /* index in vs->v */
    smcj_answer_t answer;
} smcj_fcheck_t;

/** A candidate cause and what it does on the runner's checks. */
typedef struct smcj_cand {
    smcm_bugs_t bugs;
    uint64_t *repro;  /* bit k: reproduces failing check k */
    uint64_t *exact;  /* bit k: reproduces it exactly (not only through a wildcard) */
    uint64_t *touch;  /* bit k: its answer to failing check k is not the reference's (singles) */
    uint64_t *contra; /* bit i of r->checks: a passing check it would fail (NULL: not counted) */
    size_t n_contra;
    bool quick; /* evaluated only where a member changes an answer alone (diag_search.c) */
    size_t n_repro;
    size_t n_exact;      /* of n_repro, reproduced without a wildcard (an error of any class) */
    size_t affects;      /* failing checks on which it predicts a failure */
    uint64_t *fails;     /* singles: bit k: it predicts failing check k to fail */
    size_t contradicted; /* passing checks it would fail (counted when it is weighed) */
    size_t alone;        /* singles: failing vectors it alone fails or reproduces (its size) */
} smcj_cand_t;

/** The search state for one runner. */
typedef struct smcj_search {
    const smcj_runner_t *r;
    const smcj_vectors_t *vs;
    const smcj_fcheck_t *f; /* the failing checks, in check order */
    size_t nf;
    size_t words; /* of each bit set over f */
    smc_arena_t scratch;
    smc_arena_t refs;   /* the reference's answers (ref) */
    smcj_replay_t *ref; /* per failing check: the answer of a codec with no bug */
    size_t replays;
    smcj_cand_t *pool; /* the singles first, then sets of them as they are tried */
    size_t n_pool, cap_pool, n_singles;
    size_t *found; /* candidates (indices into pool) whose bugs are all chosen, fewest bugs first */
    size_t n_found, cap_found;
    smcm_bugs_t chosen;           /* the bugs named */
    uint64_t *explained;          /* bit k: some chosen candidate reproduces failing check k */
    size_t contradicted_together; /* passing checks a codec with every chosen bug would fail */
    size_t check_words;           /* of each bit set over r->checks */
    /* per chosen entry b: the passing checks a codec with every chosen bug fails and one
     * with all but b passes (what b alone is contradicted by), and how many */
    uint64_t *marginal[SMCM_BUG_COUNT];
    size_t n_marginal[SMCM_BUG_COUNT];
    /* of those, the accidental passes (diag_accidental.h): no evidence against b */
    uint64_t *accidental[SMCM_BUG_COUNT];
    size_t n_accidental[SMCM_BUG_COUNT];
    smcj_features_t refused; /* the features the runner refuses (diag_accidental.h) */
    bool failed;             /* out of memory: stop, the run reports nothing */
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

/** The failing vectors entry b alone, in the parts `where` (SMCM_DEC, SMCM_ENC), fails or
 *  reproduces: how large a bug it is on this runner, whatever another bug masks. */
size_t smcj_search_alone(const smcj_search_t *s, unsigned b, unsigned where);

/** Bit k of a set made by the search. */
static inline bool smcj_bit(const uint64_t *set, size_t k)
{
    return (set[k / 64] >> (k % 64)) & 1u;
}

/** Release what the search holds. */
void smcj_search_free(smcj_search_t *s);

#endif /* SMCJ_DIAG_SEARCH_H */
