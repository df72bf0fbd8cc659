/*
 * The diagnosis's search (diag_search.h): every catalogue entry alone, in each part it can
 * live in; then a beam search over sets of up to SMCJ_MAX_CAUSES of them, scored by the
 * failing checks a set explains (some subset of it reproduces them); the best set whose
 * every member earns its place is named, then the coincidences out.
 *
 * Why not greedy: with three bugs on, the largest one alone reproduces few failures (the
 * other two change most answers it would give) and is contradicted by checks the runner
 * passed only because another bug masks it; a greedy choice names the other two and leaves
 * the largest unexplained. Scoring whole sets sees the interaction.
 */
#define _POSIX_C_SOURCE 200809L
#include "diag_search.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* A member is refused when, among the checks the runner passed, adding it to the others
 * fails more than 1/CONSISTENCY as many as it adds explained failures... */
#define CONSISTENCY 20u
/* A cause is dropped as a coincidence when the failures it reproduces look like PRECISION
 * times as many that no cause reproduces. */
#define PRECISION 4u
/* ... and, when alone it does not reproduce most of the failures it predicts, unless it
 * explains at least 1/MIN_SHARE of all failing checks. */
#define MIN_SHARE 20u
/* Sets kept at each size of the beam. */
#define BEAM 6u
/* Singles a set is extended with: those that change most answers, at most this many. */
#define EXTEND 16u
/* Extenders (most changing first) each single that changes no failing answer alone is
 * tried beside, for the bugs that only show through another. */
#define PROBED 3u
/* Sets weighed for the final choice (each weighing replays the passing checks). */
#define MAX_WEIGHED 64u

static void bit_set(uint64_t *b, size_t i)
{
    b[i / 64] |= (uint64_t)1 << (i % 64);
}

static size_t count_bits(const uint64_t *a, size_t words)
{
    size_t n = 0;
    for (size_t w = 0; w < words; w++) {
        n += (size_t)__builtin_popcountll(a[w]);
    }
    return n;
}

static uint64_t *new_bits(smcj_search_t *s, size_t words)
{
    uint64_t *b = smcj_calloc(words ? words : 1, sizeof *b);
    s->failed = s->failed || b == NULL;
    return b;
}

static uint64_t *new_set(smcj_search_t *s)
{
    return new_bits(s, s->words);
}

static bool same_bugs(smcm_bugs_t a, smcm_bugs_t b)
{
    return a.decoder == b.decoder && a.encoder == b.encoder;
}

static size_t n_bugs_of(smcm_bugs_t b)
{
    return (size_t)__builtin_popcountll(b.decoder | b.encoder);
}

/* Whether `bugs` touch a check of this kind at all. */
static bool relevant(smcm_bugs_t bugs, smcj_check_kind_t kind)
{
    return (bugs.decoder && smcj_check_decodes(kind)) || (bugs.encoder && smcj_check_encodes(kind));
}

/* Whether `bugs` reproduce failing check f; *pred: would they pass it; *wild: reproduced
 * only through an error of any class. */
static bool reproduces(smcj_search_t *s, smcm_bugs_t bugs, const smcj_fcheck_t *f,
                       smcj_pred_t *pred, bool *wild, bool *changed)
{
    const smcj_check_t *c = &s->r->checks[f->check];
    const smcj_vector_t *v = &s->vs->v[f->vector];
    smcj_replay_t p;
    smc_arena_reset(&s->scratch);
    smcj_replay(c, v, s->r, bugs, &s->scratch, &p);
    s->replays++;
    *pred = smcj_replay_verdict(&p, c, v, s->r, &s->scratch);
    /* a fault matched by its kind is exact; one matched by a crash that names no known kind
     * is not, as an error of any class is not */
    *wild = p.has_dec && p.dec.kind == SMCM_ERROR && !p.dec.error_class &&
            (p.dec.fault == SMCM_FAULT_NONE || f->answer.fault == SMCM_FAULT_NONE);
    if (changed) { /* against the answer of a codec with no bug */
        *changed = !smcj_replay_same(&p, &s->ref[f - s->f]);
    }
    return smcj_replay_matches(&p, c, v, s->r, &f->answer);
}

/* Which failing checks (of `only`, or all) candidate c reproduces, which it answers other
 * than the reference does, and how many it predicts to fail. */
static bool evaluate(smcj_search_t *s, smcj_cand_t *c, const uint64_t *only)
{
    c->repro = new_set(s);
    c->exact = new_set(s);
    c->touch = only ? NULL : new_set(s);
    c->fails = only ? NULL : new_set(s);
    if (!c->repro || !c->exact || (!only && (!c->touch || !c->fails))) {
        return false;
    }
    size_t last_vector = SIZE_MAX; /* f is in check order: a vector's checks are together */
    for (size_t k = 0; k < s->nf; k++) {
        const smcj_check_t *chk = &s->r->checks[s->f[k].check];
        /* a self-consistency check of the canonical bytes is their decode (diag_replay.h);
         * it is not used to contradict a cause: the decode check of those bytes is */
        bool self = c->bugs.decoder && smcj_self_replayable(chk);
        if ((only && !smcj_bit(only, k)) || !(relevant(c->bugs, chk->kind) || self)) {
            continue;
        }
        smcj_pred_t pred;
        bool wild, changed = false;
        bool hit = reproduces(s, c->bugs, &s->f[k], &pred, &wild, c->touch ? &changed : NULL);
        if (hit) {
            bit_set(c->repro, k);
            c->n_repro++;
            c->n_exact += !wild;
            if (!wild) {
                bit_set(c->exact, k);
            }
        }
        if (c->touch && (hit || changed || pred != SMCJ_PRED_PASS)) {
            bit_set(c->touch, k);
        }
        c->affects += pred == SMCJ_PRED_FAIL;
        if (c->fails && pred == SMCJ_PRED_FAIL) {
            bit_set(c->fails, k);
        }
        if (!only && (hit || pred == SMCJ_PRED_FAIL) && s->f[k].vector != last_vector) {
            last_vector = s->f[k].vector;
            c->alone++;
        }
    }
    return true;
}

/* The passing checks a codec with candidate c's bugs would fail (counted once, kept). */
static size_t contradictions(smcj_search_t *s, smcj_cand_t *c)
{
    if (c->contra || s->failed) {
        return c->n_contra;
    }
    c->contra = new_bits(s, s->check_words);
    for (size_t i = 0; c->contra && i < s->r->n_checks; i++) {
        const smcj_check_t *chk = &s->r->checks[i];
        if (chk->outcome != SMCJ_OUT_PASS || !s->vs->v[chk->vector].selected ||
            !relevant(c->bugs, chk->kind) || smcj_replay_too_big(&s->vs->v[chk->vector])) {
            continue;
        }
        smcj_replay_t p;
        smc_arena_reset(&s->scratch);
        smcj_replay(chk, &s->vs->v[chk->vector], s->r, c->bugs, &s->scratch, &p);
        s->replays++;
        if (smcj_replay_verdict(&p, chk, &s->vs->v[chk->vector], s->r, &s->scratch) ==
            SMCJ_PRED_FAIL) {
            bit_set(c->contra, i);
            c->n_contra++;
        }
    }
    return c->n_contra;
}

/* The answer of a codec with no bug to each failing check, kept (what a single changes). */
static void add_reference(smcj_search_t *s)
{
    s->ref = smcj_calloc(s->nf + 1, sizeof *s->ref);
    s->failed = s->failed || !s->ref;
    smcm_bugs_t none = {0, 0};
    for (size_t k = 0; s->ref && k < s->nf; k++) {
        smcj_replay(&s->r->checks[s->f[k].check], &s->vs->v[s->f[k].vector], s->r, none, &s->refs,
                    &s->ref[k]);
        s->replays++;
    }
}

/* Every catalogue entry alone, in each part it can live in. */
static void add_singles(smcj_search_t *s)
{
    add_reference(s);
    static const unsigned parts[] = {SMCM_DEC, SMCM_ENC, SMCM_BOTH};
    for (unsigned b = 0; b < SMCM_BUG_COUNT && !s->failed; b++) {
        const smcm_entry_t *e = smcm_entry((smcm_bug_t)b);
        for (size_t p = 0; p < 3 && !smcm_is_control(e) && !s->failed; p++) {
            if ((e->parts & parts[p]) != parts[p]) {
                continue;
            }
            if (!smcj_grow((void **)&s->pool, &s->cap_pool, s->n_pool + 1, sizeof *s->pool)) {
                s->failed = true;
                return;
            }
            smcj_cand_t *c = &s->pool[s->n_pool++];
            memset(c, 0, sizeof *c);
            c->bugs.decoder = (parts[p] & SMCM_DEC) ? SMCM_BIT(b) : 0;
            c->bugs.encoder = (parts[p] & SMCM_ENC) ? SMCM_BIT(b) : 0;
            evaluate(s, c, NULL);
        }
    }
    s->n_singles = s->n_pool;
}

/* The single candidate of exactly these bugs (one entry), or SIZE_MAX. */
static size_t single_of(const smcj_search_t *s, smcm_bugs_t want)
{
    for (size_t i = 0; i < s->n_singles; i++) {
        if (same_bugs(s->pool[i].bugs, want)) {
            return i;
        }
    }
    return SIZE_MAX;
}

/* The entry of each bug in a set, split out: the singles it is made of (SIZE_MAX: none). */
static size_t members_of(const smcj_search_t *s, smcm_bugs_t bugs, size_t *out)
{
    size_t n = 0;
    for (unsigned b = 0; b < SMCM_BUG_COUNT; b++) {
        smcm_bugs_t one = {bugs.decoder & SMCM_BIT(b), bugs.encoder & SMCM_BIT(b)};
        if (one.decoder || one.encoder) {
            out[n++] = single_of(s, one);
        }
    }
    return n;
}

/*
 * The candidate of exactly these bugs, evaluated on first use. A set of several is replayed
 * on the failing checks none of its members reproduces alone; `quick`, only on those some
 * member alone answers other than the reference does (a cheaper estimate for ranking the
 * beam: two bugs also change answers together where neither does alone, as two paddings
 * do). Either way what it reproduces does not depend on how the search reached it.
 */
static size_t cand_of(smcj_search_t *s, smcm_bugs_t bugs, bool quick)
{
    for (size_t i = 0; i < s->n_pool; i++) {
        if (same_bugs(s->pool[i].bugs, bugs) && (quick || !s->pool[i].quick)) {
            return i;
        }
    }
    size_t m[SMCM_BUG_COUNT];
    size_t n = members_of(s, bugs, m);
    uint64_t *only = new_set(s);
    if (!only || !smcj_grow((void **)&s->pool, &s->cap_pool, s->n_pool + 1, sizeof *s->pool)) {
        free(only);
        s->failed = true;
        return SIZE_MAX;
    }
    for (size_t w = 0; w < s->words; w++) {
        only[w] = quick ? 0 : ~(uint64_t)0;
    }
    for (size_t j = 0; quick && j < n; j++) {
        for (size_t w = 0; w < s->words; w++) {
            only[w] |= s->pool[m[j]].touch[w];
        }
    }
    for (size_t j = 0; j < n; j++) {
        for (size_t w = 0; w < s->words; w++) {
            only[w] &= ~s->pool[m[j]].repro[w];
        }
    }
    smcj_cand_t *c = &s->pool[s->n_pool++];
    memset(c, 0, sizeof *c);
    c->bugs = bugs;
    c->quick = quick && n > 1;
    evaluate(s, c, only);
    free(only);
    return s->failed ? SIZE_MAX : s->n_pool - 1;
}

/* The failing checks some non-empty subset of a set reproduces (`exact`: reproduces without
 * a wildcard), into `out`; their count. */
static size_t subsets_union(smcj_search_t *s, smcm_bugs_t bugs, bool exact, uint64_t *out)
{
    size_t m[SMCM_BUG_COUNT];
    size_t n = members_of(s, bugs, m);
    memset(out, 0, (s->words ? s->words : 1) * sizeof *out);
    for (unsigned mask = 1; mask < (1u << n) && !s->failed; mask++) {
        smcm_bugs_t sub = {0, 0};
        for (size_t j = 0; j < n; j++) {
            if ((mask >> j) & 1u) {
                sub.decoder |= s->pool[m[j]].bugs.decoder;
                sub.encoder |= s->pool[m[j]].bugs.encoder;
            }
        }
        size_t c = cand_of(s, sub, false);
        const uint64_t *bits = c == SIZE_MAX ? NULL : exact ? s->pool[c].exact : s->pool[c].repro;
        for (size_t w = 0; bits && w < s->words; w++) {
            out[w] |= bits[w];
        }
    }
    return count_bits(out, s->words);
}

/* The failing checks a set explains. */
static size_t cover_of(smcj_search_t *s, smcm_bugs_t bugs, uint64_t *out)
{
    return subsets_union(s, bugs, false, out);
}

/* Of them, those it reproduces exactly: what breaks a tie between sets that explain as many. */
static size_t exact_of(smcj_search_t *s, smcm_bugs_t bugs, uint64_t *out)
{
    return subsets_union(s, bugs, true, out);
}

/* A set in the beam. */
typedef struct bset {
    smcm_bugs_t bugs;
    size_t score; /* failing checks it explains */
    size_t exact; /* of them, those it reproduces exactly (0 while only estimated) */
} bset_t;

/* Which of two sets ranks first: more explained, then more of them exactly (a crash of a kind
 * no table knows, a "some error", matches loosely: an entry whose fault is the kind the
 * runner names is the better explanation of the same failures), then fewer bugs, then
 * catalogue order (decoder before encoder), so the ranking is the same whatever the order of
 * the checks. */
static int by_rank(const void *pa, const void *pb)
{
    const bset_t *a = pa, *b = pb;
    if (a->score != b->score) {
        return a->score < b->score ? 1 : -1;
    }
    if (a->exact != b->exact) {
        return a->exact < b->exact ? 1 : -1;
    }
    size_t na = n_bugs_of(a->bugs), nb = n_bugs_of(b->bugs);
    if (na != nb) {
        return na < nb ? -1 : 1;
    }
    smcm_set_t ua = a->bugs.decoder | a->bugs.encoder, ub = b->bugs.decoder | b->bugs.encoder;
    if (ua != ub) {
        smcm_set_t low = (ua ^ ub) & (~(ua ^ ub) + 1); /* the lowest entry in one only */
        return (ua & low) ? -1 : 1;
    }
    if (a->bugs.decoder != b->bugs.decoder) {
        return a->bugs.decoder > b->bugs.decoder ? -1 : 1;
    }
    return 0;
}

static bool push_set(bset_t **v, size_t *n, size_t *cap, smcm_bugs_t bugs, size_t score,
                     size_t exact)
{
    for (size_t i = 0; i < *n; i++) {
        if (same_bugs((*v)[i].bugs, bugs)) {
            return true;
        }
    }
    if (!smcj_grow((void **)v, cap, *n + 1, sizeof **v)) {
        return false;
    }
    (*v)[*n].bugs = bugs;
    (*v)[*n].score = score;
    (*v)[*n].exact = exact;
    (*n)++;
    return true;
}

/* How much a single changes: what it reproduces, then whether it predicts any failure. */
static size_t weight(const smcj_cand_t *c)
{
    return c->n_repro * 2 + (c->affects ? 1 : 0);
}

/* The singles sets are extended with: those changing some failing answer, most changed
 * first (catalogue order on ties); at most EXTEND. */
static size_t extenders(const smcj_search_t *s, size_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n_singles; i++) {
        const smcj_cand_t *c = &s->pool[i];
        if (count_bits(c->touch, s->words) == 0) {
            continue;
        }
        size_t j = n < EXTEND ? n++ : EXTEND; /* insertion into the sorted prefix */
        while (j > 0 && weight(&s->pool[out[j - 1]]) < weight(c)) {
            if (j < EXTEND) {
                out[j] = out[j - 1];
            }
            j--;
        }
        if (j < EXTEND) {
            out[j] = i;
        }
    }
    return n;
}

/*
 * The singles left out of the extenders (they change few failing answers alone, or none)
 * that reproduce failures beside one of the PROBED singles that change most: a bug that
 * mostly shows through another (trailing bytes ignored where a padding bug leaves bytes
 * behind; the padding bug alone then reports trailing bytes on checks the runner passed).
 * Each is tried in a pair with each probed single, on the checks that single changes and
 * does not reproduce; those whose pair reproduces something are appended to ext.
 */
static size_t add_partners(smcj_search_t *s, size_t *ext, size_t n_ext)
{
    size_t probed = n_ext < PROBED ? n_ext : PROBED, n = n_ext;
    for (size_t i = 0; i < s->n_singles && !s->failed; i++) {
        bool listed = false;
        for (size_t j = 0; j < n_ext && !listed; j++) {
            listed = ext[j] == i;
        }
        if (listed) {
            continue;
        }
        for (size_t j = 0; j < probed && !s->failed; j++) {
            smcm_bugs_t xb = s->pool[i].bugs, pb = s->pool[ext[j]].bugs;
            if ((xb.decoder | xb.encoder) & (pb.decoder | pb.encoder)) {
                continue;
            }
            smcm_bugs_t b = {xb.decoder | pb.decoder, xb.encoder | pb.encoder};
            size_t c = cand_of(s, b, true);
            if (c != SIZE_MAX && s->pool[c].n_repro > 0) {
                ext[n++] = i;
                break;
            }
        }
    }
    return n;
}

/*
 * The singles still left out that reproduce, exactly, a failing check no listed single
 * reproduces: a small bug beside a large one whose relatives fill the EXTEND slots (a null
 * written as no bytes beside a padding bug, issue 28), appended to ext.
 */
static size_t add_uniques(smcj_search_t *s, size_t *ext, size_t n_ext)
{
    uint64_t *seen = new_set(s);
    size_t n = n_ext;
    for (size_t j = 0; seen && j < n_ext; j++) {
        for (size_t w = 0; w < s->words; w++) {
            seen[w] |= s->pool[ext[j]].repro[w];
        }
    }
    for (size_t i = 0; seen && i < s->n_singles; i++) {
        bool listed = false;
        for (size_t j = 0; j < n && !listed; j++) {
            listed = ext[j] == i;
        }
        const smcj_cand_t *c = &s->pool[i];
        bool unique = false;
        for (size_t w = 0; !listed && w < s->words && !unique; w++) {
            unique = (c->exact[w] & ~seen[w]) != 0;
        }
        if (unique) {
            ext[n++] = i;
        }
    }
    s->failed = s->failed || !seen;
    free(seen);
    return n;
}

/* Whether a set may explain a failing check its part without the newest member does not:
 * only where one of its members changes the answer alone (the quick estimate's reach). */
static bool may_gain(const smcj_search_t *s, smcm_bugs_t bugs, const uint64_t *parent)
{
    size_t m[SMCM_BUG_COUNT];
    size_t n = members_of(s, bugs, m);
    for (size_t w = 0; w < s->words; w++) {
        uint64_t t = 0;
        for (size_t j = 0; j < n; j++) {
            t |= s->pool[m[j]].touch[w];
        }
        if (t & ~parent[w]) {
            return true;
        }
    }
    return false;
}

/* The beam: every single, then each kept set with each extender, BEAM kept per size; every
 * set seen is a contender, ranked. */
static bset_t *beam(smcj_search_t *s, uint64_t *cov, size_t *n_out)
{
    bset_t *all = NULL, *level = NULL, *next = NULL;
    size_t n_all = 0, cap_all = 0, n_level = 0, cap_level = 0, n_next = 0, cap_next = 0;
    size_t ext[EXTEND + 3 * SMCM_BUG_COUNT];
    size_t n_ext = extenders(s, ext);
    n_ext = add_partners(s, ext, n_ext);
    n_ext = add_uniques(s, ext, n_ext);
    for (size_t i = 0; i < n_ext && !s->failed; i++) {
        const smcj_cand_t *c = &s->pool[ext[i]];
        s->failed = !push_set(&level, &n_level, &cap_level, c->bugs, c->n_repro, c->n_exact);
        /* every single is a contender, not only the BEAM best: when the sets of the entries
         * that change most answers are all refused (padding entries agreeing with a runner
         * that rejects for its own reasons), a smaller bug alone may still be the answer */
        s->failed = s->failed || !push_set(&all, &n_all, &cap_all, c->bugs, c->n_repro, c->n_exact);
    }
    uint64_t *parent = new_set(s);
    for (unsigned size = 1; size <= SMCJ_MAX_CAUSES && n_level && parent && !s->failed; size++) {
        /* ranked by the quick estimate, the best BEAM scored exactly and ranked again */
        smcj_sort(level, n_level, sizeof *level, by_rank);
        n_level = n_level < BEAM ? n_level : BEAM;
        for (size_t i = 0; i < n_level && !s->failed; i++) {
            level[i].score = cover_of(s, level[i].bugs, cov);
            level[i].exact = exact_of(s, level[i].bugs, cov);
        }
        smcj_sort(level, n_level, sizeof *level, by_rank);
        for (size_t i = 0; i < n_level && !s->failed; i++) {
            s->failed =
                !push_set(&all, &n_all, &cap_all, level[i].bugs, level[i].score, level[i].exact);
        }
        n_next = 0;
        for (size_t i = 0; i < n_level && size < SMCJ_MAX_CAUSES && !s->failed; i++) {
            if (level[i].score == s->nf) {
                continue; /* it explains everything: a bug more adds nothing */
            }
            cover_of(s, level[i].bugs, parent);
            for (size_t e = 0; e < n_ext && !s->failed; e++) {
                smcm_bugs_t xb = s->pool[ext[e]].bugs; /* (cand_of may move the pool) */
                smcm_set_t have = level[i].bugs.decoder | level[i].bugs.encoder;
                if (have & (xb.decoder | xb.encoder)) {
                    continue; /* one entry lives in one place per codec */
                }
                smcm_bugs_t b = {level[i].bugs.decoder | xb.decoder,
                                 level[i].bugs.encoder | xb.encoder};
                if (!may_gain(s, b, parent)) {
                    continue;
                }
                size_t c = cand_of(s, b, true);
                for (size_t w = 0; c != SIZE_MAX && w < s->words; w++) {
                    cov[w] = parent[w] | s->pool[ext[e]].repro[w] | s->pool[c].repro[w];
                }
                size_t score = c == SIZE_MAX ? 0 : count_bits(cov, s->words);
                if (score > level[i].score) { /* a member that adds nothing is no cause */
                    s->failed = !push_set(&next, &n_next, &cap_next, b, score, 0);
                }
            }
        }
        bset_t *t = level;
        level = next;
        next = t;
        size_t tc = cap_level;
        cap_level = cap_next;
        cap_next = tc;
        n_level = n_next;
    }
    s->failed = s->failed || !parent;
    free(parent);
    free(level);
    free(next);
    if (n_all > 1) {
        smcj_sort(all, n_all, sizeof *all, by_rank);
    }
    *n_out = n_all;
    return all;
}

/* The set without entry b. */
static smcm_bugs_t without(smcm_bugs_t bugs, unsigned b)
{
    smcm_bugs_t out = {bugs.decoder & ~SMCM_BIT(b), bugs.encoder & ~SMCM_BIT(b)};
    return out;
}

/* The passing checks set `bugs` fails (empty set: none), into out; their count. */
static size_t contra_of(smcj_search_t *s, smcm_bugs_t bugs, uint64_t *out)
{
    memset(out, 0, (s->check_words ? s->check_words : 1) * sizeof *out);
    if (!bugs.decoder && !bugs.encoder) {
        return 0;
    }
    size_t c = cand_of(s, bugs, false);
    if (c == SIZE_MAX) {
        return 0;
    }
    size_t n = contradictions(s, &s->pool[c]);
    if (s->pool[c].contra) {
        memcpy(out, s->pool[c].contra, s->check_words * sizeof *out);
    }
    return n;
}

/*
 * Of the passing checks in `contra` (bits over r->checks) that a codec with `bugs` fails, the
 * accidental passes (diag_accidental.h): the runner rejected the input for another reason it
 * shows on valid vectors, so the pass is no evidence against the bugs. Into out (may be
 * NULL); their count.
 */
static size_t accidental_of(smcj_search_t *s, smcm_bugs_t bugs, const uint64_t *contra,
                            uint64_t *out)
{
    size_t n = 0;
    for (size_t w = 0; w < s->check_words && s->refused; w++) {
        for (uint64_t m = contra[w]; m; m &= m - 1) {
            size_t i = w * 64 + (size_t)__builtin_ctzll(m);
            const smcj_check_t *chk = &s->r->checks[i];
            const smcj_vector_t *v = &s->vs->v[chk->vector];
            smcj_replay_t p;
            smc_arena_reset(&s->scratch);
            smcj_replay(chk, v, s->r, bugs, &s->scratch, &p);
            s->replays++;
            if (smcj_accidental_pass(chk, v, s->r, &p, s->refused)) {
                n++;
                if (out) {
                    bit_set(out, i);
                }
            }
        }
    }
    return n;
}

/* Whether some subset of `bugs` holding entry b reproduces a failure exactly (not only
 * through an error of any class): alone, or where it only shows through another member. */
static bool exact_with(smcj_search_t *s, smcm_bugs_t bugs, unsigned b)
{
    size_t m[SMCM_BUG_COUNT];
    size_t n = members_of(s, bugs, m);
    for (unsigned mask = 1; mask < (1u << n) && !s->failed; mask++) {
        smcm_bugs_t sub = {0, 0};
        for (size_t j = 0; j < n; j++) {
            if ((mask >> j) & 1u) {
                sub.decoder |= s->pool[m[j]].bugs.decoder;
                sub.encoder |= s->pool[m[j]].bugs.encoder;
            }
        }
        if (!((sub.decoder | sub.encoder) & SMCM_BIT(b))) {
            continue;
        }
        size_t c = cand_of(s, sub, false);
        if (c != SIZE_MAX && s->pool[c].n_exact > 0) {
            return true;
        }
    }
    return false;
}

/*
 * Whether every member of a set earns its place, each weighed against the others: it
 * explains failures the others do not; it reproduces some failure exactly (not only through
 * an error of any class), alone or with other members, unless it reproduces half of them; alone it
 * reproduces at least half of the failures it predicts, or it explains a good share of all failing
 * checks (with several bugs on, a true cause's predicted failures are often masked by another
 * bug's); and adding it to the others fails at most 1/CONSISTENCY as many of the checks the runner
 * passed as it adds explained failures. A passed check that the member alone would fail but the set
 * passes (another named bug masks it: an accidental pass) is no evidence against it. Padding
 * one byte off is a bug no entry has, yet each padding entry agrees with it on hundreds of
 * vectors and disagrees on a few hundred passed checks: hence 1/20 (model_runner.py's
 * pad-*-plus-one faults).
 */
static bool admissible(smcj_search_t *s, const bset_t *set, uint64_t *cov, uint64_t *ca,
                       uint64_t *cb)
{
    contra_of(s, set->bugs, ca);
    smcm_set_t u = set->bugs.decoder | set->bugs.encoder;
    for (unsigned b = 0; b < SMCM_BUG_COUNT && !s->failed; b++) {
        if (!(u & SMCM_BIT(b))) {
            continue;
        }
        smcm_bugs_t rest = without(set->bugs, b);
        size_t gain = set->score - cover_of(s, rest, cov);
        smcm_bugs_t one = {set->bugs.decoder & SMCM_BIT(b), set->bugs.encoder & SMCM_BIT(b)};
        const smcj_cand_t *alone = &s->pool[single_of(s, one)];
        if (gain == 0 || (2 * alone->n_repro < s->nf && !exact_with(s, set->bugs, b))) {
            return false;
        }
        /* the failures it predicts that the others explain (a size read as negative before
         * the allocation that would fail) are masked by them: no evidence against it */
        size_t affects = alone->affects;
        if (alone->fails) {
            affects = 0;
            for (size_t w = 0; w < s->words; w++) {
                affects += (size_t)__builtin_popcountll(alone->fails[w] & ~cov[w]);
            }
        }
        if (2 * alone->n_repro < affects && gain * MIN_SHARE < s->nf) {
            return false;
        }
        contra_of(s, rest, cb);
        size_t added = 0;
        for (size_t w = 0; w < s->check_words; w++) {
            cb[w] = ca[w] & ~cb[w];
            added += (size_t)__builtin_popcountll(cb[w]);
        }
        /* an accidental pass contradicts nothing: the runner's other fault explains it */
        if (added * CONSISTENCY > gain) {
            added -= accidental_of(s, set->bugs, cb, NULL);
        }
        if (added * CONSISTENCY > gain) {
            return false;
        }
    }
    return !s->failed;
}

/* The candidates made only of chosen bugs that reproduce something: fewest bugs first. */
static void collect_found(smcj_search_t *s)
{
    s->n_found = 0;
    memset(s->explained, 0, (s->words ? s->words : 1) * sizeof *s->explained);
    smcm_set_t u = s->chosen.decoder | s->chosen.encoder;
    for (size_t size = 1; size <= SMCJ_MAX_CAUSES && u; size++) {
        for (size_t i = 0; i < s->n_pool; i++) {
            const smcj_cand_t *c = &s->pool[i];
            bool inside = (c->bugs.decoder & ~s->chosen.decoder) == 0 &&
                          (c->bugs.encoder & ~s->chosen.encoder) == 0;
            if (!inside || n_bugs_of(c->bugs) != size || c->n_repro == 0) {
                continue;
            }
            if (!smcj_grow((void **)&s->found, &s->cap_found, s->n_found + 1, sizeof *s->found)) {
                s->failed = true;
                return;
            }
            s->found[s->n_found++] = i;
            for (size_t w = 0; w < s->words; w++) {
                s->explained[w] |= c->repro[w];
            }
        }
    }
}

/* Make every subset of the chosen set evaluated, so each failing check is credited to the
 * smallest set that reproduces it. */
static void choose(smcj_search_t *s, smcm_bugs_t bugs, uint64_t *cov)
{
    s->chosen = bugs;
    cover_of(s, bugs, cov);
    collect_found(s);
}

/*
 * A chosen entry all of whose failures look like (share a group with) at least PRECISION
 * times as many failures no cause reproduces is dropped: one bug outside the catalogue
 * explains them better than an entry that happens to give the same answer on a few (an
 * offset off by one everywhere, and an entry that is off by one on four vectors).
 */
static void drop_coincidences(smcj_search_t *s, const size_t *keys, size_t n_keys, uint64_t *cov)
{
    size_t *unexpl = smcj_calloc(n_keys + 1, sizeof *unexpl),
           *mine = smcj_calloc(n_keys + 1, sizeof *mine);
    uint64_t *others = new_set(s);
    for (bool changed = unexpl && mine && others; changed && s->n_found;) {
        changed = false;
        memset(unexpl, 0, (n_keys + 1) * sizeof *unexpl);
        for (size_t k = 0; k < s->nf; k++) {
            unexpl[keys[k]] += !smcj_bit(s->explained, k);
        }
        smcm_set_t u = s->chosen.decoder | s->chosen.encoder;
        for (unsigned b = SMCM_BUG_COUNT; b-- > 0 && !changed;) {
            if (!(u & SMCM_BIT(b))) {
                continue;
            }
            cover_of(s, without(s->chosen, b), others);
            memset(mine, 0, (n_keys + 1) * sizeof *mine);
            for (size_t k = 0; k < s->nf; k++) {
                mine[keys[k]] += smcj_bit(s->explained, k) && !smcj_bit(others, k);
            }
            bool coincidence = true;
            for (size_t g = 0; g < n_keys && coincidence; g++) {
                coincidence = mine[g] == 0 || unexpl[g] >= PRECISION * mine[g];
            }
            if (coincidence) {
                choose(s, without(s->chosen, b), cov);
                changed = true;
            }
        }
    }
    s->failed = s->failed || !unexpl || !mine || !others;
    free(unexpl);
    free(mine);
    free(others);
}

/* What each chosen entry is contradicted by: the passing checks every chosen bug at once
 * fails and all the others without it pass. */
static void marginals(smcj_search_t *s)
{
    uint64_t *ca = new_bits(s, s->check_words), *cb = new_bits(s, s->check_words);
    smcm_set_t u = s->chosen.decoder | s->chosen.encoder;
    s->contradicted_together = (ca && u) ? contra_of(s, s->chosen, ca) : 0;
    for (unsigned b = 0; b < SMCM_BUG_COUNT && ca && cb && !s->failed; b++) {
        if (!(u & SMCM_BIT(b))) {
            continue;
        }
        contra_of(s, without(s->chosen, b), cb);
        s->marginal[b] = new_bits(s, s->check_words);
        for (size_t w = 0; s->marginal[b] && w < s->check_words; w++) {
            s->marginal[b][w] = ca[w] & ~cb[w];
            s->n_marginal[b] += (size_t)__builtin_popcountll(s->marginal[b][w]);
        }
        s->accidental[b] = new_bits(s, s->check_words);
        if (s->marginal[b] && s->accidental[b]) {
            s->n_accidental[b] = accidental_of(s, s->chosen, s->marginal[b], s->accidental[b]);
        }
    }
    free(ca);
    free(cb);
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
    s->check_words = (r->n_checks + 63) / 64;
    smc_arena_init_allocator(&s->scratch, NULL);
    smc_arena_init_allocator(&s->refs, NULL);
    s->explained = new_set(s);
    uint64_t *cov = new_set(s), *ca = new_bits(s, s->check_words),
             *cb = new_bits(s, s->check_words);
    if (nf && !s->failed) {
        s->refused = smcj_refused_features(r, vs);
        add_singles(s);
        size_t n_sets = 0;
        bset_t *sets = s->failed ? NULL : beam(s, cov, &n_sets);
        smcm_bugs_t best = {0, 0};
        for (size_t i = 0, weighed = 0; i < n_sets && weighed < MAX_WEIGHED && !s->failed;
             i++, weighed++) {
            if (admissible(s, &sets[i], cov, ca, cb)) {
                best = sets[i].bugs;
                break;
            }
        }
        free(sets);
        if (!s->failed) {
            choose(s, best, cov);
        }
        if (!s->failed) {
            drop_coincidences(s, keys, n_keys, cov);
        }
        if (!s->failed) {
            marginals(s);
        }
    }
    free(cov);
    free(ca);
    free(cb);
    return !s->failed;
}

const smcj_cand_t *smcj_search_single(const smcj_search_t *s, const smcj_cand_t *c, unsigned b)
{
    smcm_bugs_t want = {c->bugs.decoder & SMCM_BIT(b), c->bugs.encoder & SMCM_BIT(b)};
    size_t i = single_of(s, want);
    return i == SIZE_MAX ? NULL : &s->pool[i];
}

size_t smcj_search_alone(const smcj_search_t *s, unsigned b, unsigned where)
{
    smcm_bugs_t one = {(where & SMCM_DEC) ? SMCM_BIT(b) : 0, (where & SMCM_ENC) ? SMCM_BIT(b) : 0};
    size_t i = single_of(s, one);
    return i == SIZE_MAX ? 0 : s->pool[i].alone;
}

void smcj_search_free(smcj_search_t *s)
{
    for (size_t i = 0; i < s->n_pool; i++) {
        free(s->pool[i].repro);
        free(s->pool[i].exact);
        free(s->pool[i].touch);
        free(s->pool[i].fails);
        free(s->pool[i].contra);
    }
    for (unsigned b = 0; b < SMCM_BUG_COUNT; b++) {
        free(s->marginal[b]);
        free(s->accidental[b]);
    }
    free(s->pool);
    free(s->found);
    free(s->explained);
    free(s->ref);
    smc_arena_free(&s->scratch);
    smc_arena_free(&s->refs);
    memset(s, 0, sizeof *s);
}
