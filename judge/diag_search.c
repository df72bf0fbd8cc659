/*
 * The diagnosis's search (diag_search.h): every catalogue entry alone, in each part it can
 * live in; greedily the candidate that reproduces most still-unexplained failing checks, if
 * it is a cause and not a coincidence; each chosen single brings its pairs in; at the end
 * all chosen bugs at once, then the coincidences out.
 */
#define _POSIX_C_SOURCE 200809L
#include "diag_search.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* A candidate is rejected when, among the checks the runner passed, a codec with it would
 * fail more than 1/CONSISTENCY as many as it reproduces... */
#define CONSISTENCY 20u
/* A cause is dropped as a coincidence when the failures it reproduces look like PRECISION
 * times as many that no cause reproduces. */
#define PRECISION 4u
/* ... and, when it does not reproduce most of the failures it predicts, unless it
 * reproduces at least 1/MIN_SHARE of all failing checks. */
#define MIN_SHARE 20u
/* Pairs are tried with the singles that change most answers, at most this many (every
 * catalogue entry in each part fits: each costs one replay per unexplained check). */
#define PAIR_CANDIDATES 128u
/* Pairs are tried for at most this many chosen singles. */
#define MAX_PAIRS 6u

static void bit_set(uint64_t *b, size_t i)
{
    b[i / 64] |= (uint64_t)1 << (i % 64);
}

static size_t count_and_not(const uint64_t *a, const uint64_t *not_b, size_t words)
{
    size_t n = 0;
    for (size_t w = 0; w < words; w++) {
        n += (size_t)__builtin_popcountll(a[w] & ~(not_b ? not_b[w] : 0));
    }
    return n;
}

static uint64_t *new_set(smcj_search_t *s)
{
    uint64_t *b = smcj_calloc(s->words ? s->words : 1, sizeof *b);
    s->failed = s->failed || b == NULL;
    return b;
}

/* Whether `bugs` reproduce failing check f; *pred: would they pass it; *wild: reproduced
 * only through an error of any class. */
static bool reproduces(smcj_search_t *s, smcm_bugs_t bugs, const smcj_fcheck_t *f,
                       smcj_pred_t *pred, bool *wild)
{
    const smcj_check_t *c = &s->r->checks[f->check];
    const smcj_vector_t *v = &s->vs->v[f->vector];
    smcj_replay_t p;
    smc_arena_reset(&s->scratch);
    smcj_replay(c, v, s->r, bugs, &s->scratch, &p);
    s->replays++;
    *pred = smcj_replay_verdict(&p, c, v, s->r, &s->scratch);
    *wild = p.has_dec && p.dec.kind == SMCM_ERROR && !p.dec.error_class;
    return smcj_replay_matches(&p, c, v, s->r, &f->answer);
}

/* Which failing checks (of `only`, or all) candidate c reproduces, and how many it predicts
 * to fail. */
static bool evaluate(smcj_search_t *s, smcj_cand_t *c, const uint64_t *only)
{
    c->repro = new_set(s);
    if (!c->repro) {
        return false;
    }
    for (size_t k = 0; k < s->nf; k++) {
        const smcj_check_t *chk = &s->r->checks[s->f[k].check];
        bool relevant = (c->bugs.decoder && smcj_check_decodes(chk->kind)) ||
                        (c->bugs.encoder && smcj_check_encodes(chk->kind));
        if ((only && !smcj_bit(only, k)) || !relevant) {
            continue;
        }
        smcj_pred_t pred;
        bool wild;
        if (reproduces(s, c->bugs, &s->f[k], &pred, &wild)) {
            bit_set(c->repro, k);
            c->n_repro++;
            c->n_exact += !wild;
        }
        c->affects += pred == SMCJ_PRED_FAIL;
    }
    return true;
}

/* Passing checks a codec with `bugs` would fail, stopping once there are more than `limit`. */
static size_t contradictions(smcj_search_t *s, smcm_bugs_t bugs, size_t limit)
{
    size_t n = 0;
    for (size_t i = 0; i < s->r->n_checks && n <= limit; i++) {
        const smcj_check_t *c = &s->r->checks[i];
        if (c->outcome != SMCJ_OUT_PASS || !s->vs->v[c->vector].selected) {
            continue;
        }
        if (!(bugs.decoder && smcj_check_decodes(c->kind)) &&
            !(bugs.encoder && smcj_check_encodes(c->kind))) {
            continue;
        }
        smcj_replay_t p;
        smc_arena_reset(&s->scratch);
        smcj_replay(c, &s->vs->v[c->vector], s->r, bugs, &s->scratch, &p);
        s->replays++;
        n += smcj_replay_verdict(&p, c, &s->vs->v[c->vector], s->r, &s->scratch) == SMCJ_PRED_FAIL;
    }
    return n;
}

/*
 * Whether a candidate is a cause, not a coincidence: it reproduces some failure exactly (not
 * only through an error of any class) unless it reproduces half of them; either at least
 * half of the failures it predicts are exactly the runner's, or it reproduces a good share
 * of all failing checks (with several bugs on, a true cause's predicted failures are often
 * masked by another bug's, so a low ratio alone does not rule it out); and among the checks
 * the runner passed it would fail at most 1/CONSISTENCY as many as it reproduces. An error
 * class and offset are easy to hit by chance (a truncation is always at the input length):
 * this keeps a bug outside the catalogue from being pinned on the nearest entry. Padding one
 * byte off is a bug no entry has, yet each padding entry agrees with it on hundreds of
 * vectors (where the two paddings happen to be equal) and disagrees on a few hundred passed
 * checks: hence 1/20, not 1/4 (model_runner.py's pad-*-plus-one faults).
 */
static bool is_cause(smcj_search_t *s, smcj_cand_t *c)
{
    if (c->n_exact == 0 && 2 * c->n_repro < s->nf) {
        return false; /* "some error" matches any error: alone it is no evidence */
    }
    bool exact = 2 * c->n_repro >= c->affects;
    bool broad = c->n_repro * MIN_SHARE >= s->nf;
    if (!exact && !broad) {
        return false;
    }
    c->contradicted = contradictions(s, c->bugs, c->n_repro / CONSISTENCY);
    return c->contradicted * CONSISTENCY <= c->n_repro;
}

static size_t n_bugs(const smcj_cand_t *c)
{
    return (size_t)__builtin_popcountll(c->bugs.decoder) +
           (size_t)__builtin_popcountll(c->bugs.encoder);
}

/* Which of two candidates to weigh first: more newly explained checks; then the one whose
 * predicted failures are more often exactly the runner's (a coincidence reproduces few of
 * the failures it predicts); then fewer bugs (one codec part before both). */
static bool better(const smcj_cand_t *a, size_t na, const smcj_cand_t *b, size_t nb)
{
    if (na != nb) {
        return na > nb;
    }
    unsigned long long ea = (unsigned long long)a->n_repro * (b->affects ? b->affects : 1);
    unsigned long long eb = (unsigned long long)b->n_repro * (a->affects ? a->affects : 1);
    if (ea != eb) {
        return ea > eb;
    }
    return n_bugs(a) < n_bugs(b);
}

static size_t add_cand(smcj_search_t *s, smcm_bugs_t bugs, const uint64_t *only)
{
    if (!smcj_grow((void **)&s->pool, &s->cap_pool, s->n_pool + 1, sizeof *s->pool)) {
        s->failed = true;
        return SIZE_MAX;
    }
    smcj_cand_t *c = &s->pool[s->n_pool];
    memset(c, 0, sizeof *c);
    c->bugs = bugs;
    s->n_pool++;
    if (!evaluate(s, c, only)) {
        return SIZE_MAX;
    }
    return s->n_pool - 1;
}

static void choose(smcj_search_t *s, size_t c)
{
    if (!smcj_grow((void **)&s->found, &s->cap_found, s->n_found + 1, sizeof *s->found)) {
        s->failed = true;
        return;
    }
    s->found[s->n_found++] = c;
    for (size_t w = 0; w < s->words; w++) {
        s->explained[w] |= s->pool[c].repro[w];
    }
}

/* Every catalogue entry alone, in each part it can live in. */
static void add_singles(smcj_search_t *s)
{
    static const unsigned parts[] = {SMCM_DEC, SMCM_ENC, SMCM_BOTH};
    for (unsigned b = 0; b < SMCM_BUG_COUNT && !s->failed; b++) {
        const smcm_entry_t *e = smcm_entry((smcm_bug_t)b);
        for (size_t p = 0; p < 3 && !smcm_is_control(e) && !s->failed; p++) {
            if ((e->parts & parts[p]) == parts[p]) {
                smcm_bugs_t bugs = {(parts[p] & SMCM_DEC) ? SMCM_BIT(b) : 0,
                                    (parts[p] & SMCM_ENC) ? SMCM_BIT(b) : 0};
                add_cand(s, bugs, NULL);
            }
        }
    }
    s->n_singles = s->n_pool;
}

/* What is still unexplained, as a set (NULL when out of memory). */
static uint64_t *unexplained(smcj_search_t *s)
{
    uint64_t *left = new_set(s);
    for (size_t w = 0; left && w < s->words; w++) {
        left[w] = ~s->explained[w];
    }
    return left;
}

/* Bugs that only together give some answers: the chosen single `c` with each of the singles
 * that change most answers, weighed on what is still unexplained. */
static void add_pairs(smcj_search_t *s, size_t c)
{
    size_t *top = smcj_calloc(s->n_singles + 1, sizeof *top), n_top = 0;
    uint64_t *left = unexplained(s);
    if (!top || !left) {
        s->failed = true;
        free(top);
        free(left);
        return;
    }
    for (size_t i = 0; i < s->n_singles; i++) {
        if (s->pool[i].affects && i != c) {
            top[n_top++] = i; /* insertion sort by affects, most first */
            for (size_t j = n_top - 1;
                 j > 0 && s->pool[top[j - 1]].affects < s->pool[top[j]].affects; j--) {
                size_t t = top[j];
                top[j] = top[j - 1];
                top[j - 1] = t;
            }
        }
    }
    for (size_t t = 0; t < n_top && t < PAIR_CANDIDATES && !s->failed; t++) {
        smcm_bugs_t b = {s->pool[c].bugs.decoder | s->pool[top[t]].bugs.decoder,
                         s->pool[c].bugs.encoder | s->pool[top[t]].bugs.encoder};
        if (b.decoder != s->pool[c].bugs.decoder || b.encoder != s->pool[c].bugs.encoder) {
            add_cand(s, b, left);
        }
    }
    free(left);
    free(top);
}

/* Greedy: the candidate reproducing most of what is still unexplained, if it is a cause;
 * each chosen single brings its pairs in. */
static void greedy(smcj_search_t *s)
{
    while (!s->failed) {
        size_t best = SIZE_MAX, best_n = 0;
        for (size_t i = 0; i < s->n_pool; i++) {
            size_t m =
                s->pool[i].rejected ? 0 : count_and_not(s->pool[i].repro, s->explained, s->words);
            if (m && (best == SIZE_MAX || better(&s->pool[i], m, &s->pool[best], best_n))) {
                best = i;
                best_n = m;
            }
        }
        if (best == SIZE_MAX) {
            return;
        }
        s->pool[best].rejected = true;
        if (!is_cause(s, &s->pool[best])) {
            continue;
        }
        choose(s, best);
        if (best < s->n_singles && s->n_pairs_tried < MAX_PAIRS) {
            s->n_pairs_tried++;
            add_pairs(s, best);
        }
    }
}

/* Three or more bugs together: every chosen one at once, on what is left. */
static void all_together(smcj_search_t *s)
{
    if (s->failed || s->n_found < 2 || count_and_not(s->explained, NULL, s->words) == s->nf) {
        return;
    }
    smcm_bugs_t all = {0, 0};
    for (size_t i = 0; i < s->n_found; i++) {
        all.decoder |= s->pool[s->found[i]].bugs.decoder;
        all.encoder |= s->pool[s->found[i]].bugs.encoder;
    }
    uint64_t *left = unexplained(s);
    size_t c = left ? add_cand(s, all, left) : SIZE_MAX;
    free(left);
    if (c != SIZE_MAX && s->pool[c].n_repro && is_cause(s, &s->pool[c])) {
        choose(s, c);
    }
}

/*
 * A chosen cause all of whose failures look like (share a group with) at least PRECISION
 * times as many failures no cause reproduces is dropped: one bug outside the catalogue
 * explains them better than an entry that happens to give the same answer on a few (an
 * offset off by one everywhere, and an entry that is off by one on four vectors).
 */
static void drop_coincidences(smcj_search_t *s, const size_t *keys, size_t n_keys)
{
    size_t *unexpl = smcj_calloc(n_keys + 1, sizeof *unexpl),
           *mine = smcj_calloc(n_keys + 1, sizeof *mine);
    for (bool changed = unexpl && mine; changed && s->n_found;) {
        changed = false;
        memset(unexpl, 0, (n_keys + 1) * sizeof *unexpl);
        for (size_t k = 0; k < s->nf; k++) {
            unexpl[keys[k]] += !smcj_bit(s->explained, k);
        }
        for (size_t i = s->n_found; i-- > 0 && !changed;) {
            const smcj_cand_t *c = &s->pool[s->found[i]];
            memset(mine, 0, (n_keys + 1) * sizeof *mine);
            for (size_t k = 0; k < s->nf; k++) {
                mine[keys[k]] += smcj_bit(c->repro, k);
            }
            bool coincidence = true;
            for (size_t g = 0; g < n_keys && coincidence; g++) {
                coincidence = mine[g] == 0 || unexpl[g] >= PRECISION * mine[g];
            }
            if (!coincidence) {
                continue;
            }
            memmove(&s->found[i], &s->found[i + 1], (s->n_found - i - 1) * sizeof *s->found);
            s->n_found--;
            memset(s->explained, 0, (s->words ? s->words : 1) * sizeof *s->explained);
            for (size_t j = 0; j < s->n_found; j++) {
                for (size_t w = 0; w < s->words; w++) {
                    s->explained[w] |= s->pool[s->found[j]].repro[w];
                }
            }
            changed = true;
        }
    }
    s->failed = s->failed || !unexpl || !mine;
    free(unexpl);
    free(mine);
}

/* The passing checks a codec with every chosen bug at once would fail: a single's own count
 * also holds those its partners put right. */
static void together(smcj_search_t *s)
{
    smcm_bugs_t all = {0, 0};
    for (size_t i = 0; i < s->n_found; i++) {
        all.decoder |= s->pool[s->found[i]].bugs.decoder;
        all.encoder |= s->pool[s->found[i]].bugs.encoder;
    }
    s->contradicted_together = (all.decoder || all.encoder) ? contradictions(s, all, SIZE_MAX) : 0;
}

bool smcj_search_run(smcj_search_t *s, const smcj_runner_t *r, const smcj_vectors_t *vs,
                     const smcj_fcheck_t *f, size_t nf, const size_t *keys, size_t n_keys)
{
    memset(s, 0, sizeof *s);
    s->r = r;
    s->vs = vs;
    s->f = f;
    s->nf = nf;
    s->words = (nf + 63) / 64;
    smc_arena_init_allocator(&s->scratch, NULL);
    s->explained = new_set(s);
    if (nf && !s->failed) {
        add_singles(s);
        greedy(s);
        all_together(s);
        if (!s->failed) {
            drop_coincidences(s, keys, n_keys);
        }
        together(s);
    }
    return !s->failed;
}

const smcj_cand_t *smcj_search_single(const smcj_search_t *s, const smcj_cand_t *c, unsigned b)
{
    smcm_bugs_t want = {c->bugs.decoder & SMCM_BIT(b), c->bugs.encoder & SMCM_BIT(b)};
    for (size_t i = 0; i < s->n_singles; i++) {
        if (s->pool[i].bugs.decoder == want.decoder && s->pool[i].bugs.encoder == want.encoder) {
            return &s->pool[i];
        }
    }
    return NULL;
}

void smcj_search_free(smcj_search_t *s)
{
    for (size_t i = 0; i < s->n_pool; i++) {
        free(s->pool[i].repro);
    }
    free(s->pool);
    free(s->found);
    free(s->explained);
    smc_arena_free(&s->scratch);
    memset(s, 0, sizeof *s);
}
