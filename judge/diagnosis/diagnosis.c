/*
 * Diagnosis (see diagnosis.h): collect each runner's failing checks and what differs in
 * them, let the search (diag_search.h) choose the catalogued bugs that reproduce them, and
 * turn its choice into causes per entry and groups of what is left.
 */
#define _POSIX_C_SOURCE 200809L
#include "diagnosis.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "compare.h"
#include "diag_accidental.h"
#include "diag_bytes.h"
#include "diag_search.h"
#include "diag_values.h"
#include "results.h"

/* A vector the diagnosis looks at: it failed a wire check, or only its placement check. An
 * implementation-defined vector decoded as a listed implementation does (notes.alternatives:
 * CPP keeping the first of duplicate keys) is no failure to explain: the behaviour is a
 * permitted one, and the differs block already names whose it is; a catalogue entry that
 * reproduces it is never named as a cause (spec R1.4-19). */
static bool failing_vector(const smcj_runner_t *r, size_t vi)
{
    const smcj_result_t *res = &r->results[vi];
    return res->status != SMCJ_ST_NONE && !(res->status == SMCJ_ST_DIFFERS && res->alt >= 0) &&
           (res->outcome == SMCJ_OUT_FAIL || res->placement_check != SIZE_MAX);
}

/* A failure no replay can give: a timeout, a protocol error, exhausted resources, a judge
 * error (the judge could not judge it). A crash is replayed by its kind (diag_faults.h). */
static bool not_replayable(smcj_reason_t reason)
{
    return smcj_reason_is_harness(reason) && reason != SMCJ_REASON_CRASH;
}

/* ---- what differs, and the groups of what is left ---- */

/* The grouping key of a description: numbers blanked, and value paths ("$[2].v") too, so one
 * bug's failures at different offsets and depths fall in one group. NULL when out of memory. */
static char *group_key(const char *s)
{
    char *out = smcj_strdup(s), *w = out;
    for (const char *p = s; out && *p; p++) {
        if (*p == '$') {
            *w++ = '$';
            while (p[1] && p[1] != ':' && p[1] != ' ') {
                p++;
            }
        } else if (*p >= '0' && *p <= '9') {
            if (w == out || w[-1] != '#') {
                *w++ = '#';
            }
        } else {
            *w++ = *p;
        }
    }
    if (out) {
        *w = '\0';
    }
    return out;
}

/* What differs in failing check ci, as shown (NULL when out of memory). */
static char *signature(const smcj_diagnosis_t *d, const smcj_runner_t *r, size_t ci)
{
    const smcj_check_t *c = &r->checks[ci];
    char label[64];
    smcj_check_label(c, label, sizeof label);
    if (not_replayable(c->reason)) {
        return smcj_asprintf("%s: %s (not replayable)", label, smcj_reason_name(c->reason));
    }
    const char *why = d->what_differs[ci] ? d->what_differs[ci] : smcj_or_empty(c->detail);
    return smcj_asprintf("%s: %s: %s", label, smcj_reason_name(c->reason), why);
}

/* Interned group keys: keys[i], n of them, at most cap. */
typedef struct key_table {
    char **keys;
    size_t n, cap;
} key_table_t;

/* The index of key `k` (taken: freed when already there); SIZE_MAX when out of memory. */
static size_t intern(key_table_t *t, char *k)
{
    if (!k) {
        return SIZE_MAX;
    }
    for (size_t i = 0; i < t->n; i++) {
        if (strcmp(t->keys[i], k) == 0) {
            free(k);
            return i;
        }
    }
    if (!smcj_grow((void **)&t->keys, &t->cap, t->n + 1, sizeof *t->keys)) {
        free(k);
        return SIZE_MAX;
    }
    t->keys[t->n] = k;
    return t->n++;
}

static bool add_to_group(smcj_diagnosis_t *d, size_t *cap, char *text, size_t vi)
{
    char *key = text ? group_key(text) : NULL;
    if (!key) {
        free(text);
        return false;
    }
    size_t g = 0;
    while (g < d->n_groups && strcmp(d->groups[g].key, key) != 0) {
        g++;
    }
    if (g == d->n_groups) {
        if (!smcj_grow((void **)&d->groups, cap, d->n_groups + 1, sizeof *d->groups)) {
            free(key);
            free(text);
            return false;
        }
        memset(&d->groups[g], 0, sizeof d->groups[g]);
        d->groups[g].key = key;
        d->groups[g].text = text;
        d->n_groups++;
    } else {
        free(key);
        free(text);
    }
    smcj_diag_group_t *grp = &d->groups[g];
    if (!smcj_grow((void **)&grp->vectors, &grp->cap, grp->n_vectors + 1, sizeof *grp->vectors)) {
        return false;
    }
    grp->vectors[grp->n_vectors++] = vi;
    return true;
}

static int by_size(const void *pa, const void *pb)
{
    const smcj_diag_group_t *a = pa, *b = pb;
    if (a->n_vectors != b->n_vectors) {
        return a->n_vectors < b->n_vectors ? 1 : -1;
    }
    return strcmp(a->key, b->key);
}

/* A failing self-consistency check (R1.4-18) of a vector whose encode check failed: it
 * decoded the bytes that encode wrote, which no replay has, so it is explained (or not) by
 * what explains the encode. */
static bool follows_encode(const smcj_runner_t *r, size_t cb, size_t ce, size_t ci)
{
    if (r->checks[ci].kind != SMCJ_CHECK_SELF) {
        return false;
    }
    for (size_t k = cb; k < ce; k++) {
        if (r->checks[k].kind == SMCJ_CHECK_ENCODE && r->checks[k].outcome == SMCJ_OUT_FAIL) {
            return true;
        }
    }
    return false;
}

/* Unexplained vectors (a failing check no chosen cause reproduces), grouped; counts. */
static bool build_groups(smcj_diagnosis_t *d, const smcj_runner_t *r, const smcj_vectors_t *vs,
                         const smcj_fcheck_t *f, size_t nf, const uint64_t *explained)
{
    size_t k = 0, cap = 0; /* f is in check order */
    for (size_t vi = 0; vi < vs->count; vi++) {
        d->group_of[vi] = SIZE_MAX;
        if (!failing_vector(r, vi)) {
            continue;
        }
        size_t cb, ce, first_unexplained = SIZE_MAX;
        bool harness = false;
        smcj_checks_of(r, vi, &cb, &ce);
        for (size_t ci = cb; ci < ce; ci++) {
            if (r->checks[ci].outcome != SMCJ_OUT_FAIL || follows_encode(r, cb, ce, ci)) {
                continue;
            }
            while (k < nf && f[k].check < ci) {
                k++;
            }
            bool reproduced = k < nf && f[k].check == ci && smcj_bit(explained, k);
            harness = harness || not_replayable(r->checks[ci].reason);
            first_unexplained =
                (!reproduced && first_unexplained == SIZE_MAX) ? ci : first_unexplained;
        }
        d->harness += harness;
        d->failing += !harness;
        smcj_status_t st = r->results[vi].status;
        d->ungated += !harness && smcj_status_info(st)->outside != NULL;
        d->explained += !harness && first_unexplained == SIZE_MAX;
        if (first_unexplained != SIZE_MAX &&
            !add_to_group(d, &cap, signature(d, r, first_unexplained), vi)) {
            return false;
        }
    }
    if (d->n_groups > 1) {
        qsort(d->groups, d->n_groups, sizeof *d->groups, by_size);
    }
    for (size_t g = 0; g < d->n_groups; g++) {
        for (size_t i = 0; i < d->groups[g].n_vectors; i++) {
            d->group_of[d->groups[g].vectors[i]] = g;
        }
    }
    return true;
}

/* ---- causes ---- */

static smcj_cause_t *cause_for(smcj_diagnosis_t *d, unsigned b)
{
    for (size_t ci = 0; ci < d->n_causes; ci++) {
        if (d->causes[ci].bug == (smcm_bug_t)b) {
            return &d->causes[ci];
        }
    }
    smcj_cause_t *c = &d->causes[d->n_causes++]; /* room for every entry was made */
    memset(c, 0, sizeof *c);
    c->bug = (smcm_bug_t)b;
    return c;
}

/* The largest bug first: the one that alone fails most of the failing vectors, though other
 * bugs change its answers (a padding bug that an inverted envelope flag and ignored trailing
 * bytes leave with fewer vectors to its name than they have); then most vectors explained. */
static int by_vectors(const void *pa, const void *pb)
{
    const smcj_cause_t *a = pa, *b = pb;
    if (a->alone != b->alone) {
        return a->alone < b->alone ? 1 : -1;
    }
    if (a->n_vectors != b->n_vectors) {
        return a->n_vectors < b->n_vectors ? 1 : -1;
    }
    if (a->checks != b->checks) {
        return a->checks < b->checks ? 1 : -1;
    }
    return (int)a->bug - (int)b->bug;
}

/*
 * One cause per chosen catalogue entry. Each explained failing check is credited to the
 * smallest chosen sets that reproduce it (s->found is fewest bugs first): to the single
 * entries that reproduce it alone, else to the members of the smallest set that does, each
 * "together with" the others of that set; never to a chosen entry it does not need.
 */
static bool build_causes(smcj_diagnosis_t *d, const smcj_search_t *s)
{
    d->causes = smcj_calloc(SMCM_BUG_COUNT, sizeof *d->causes);
    if (!d->causes) {
        return false;
    }
    for (size_t k = 0; k < s->nf; k++) {
        size_t size = 0;
        for (size_t i = 0; i < s->n_found; i++) {
            const smcj_cand_t *f = &s->pool[s->found[i]];
            size_t n = (size_t)__builtin_popcountll(f->bugs.decoder | f->bugs.encoder);
            if ((size && n > size) || !smcj_bit(f->repro, k)) {
                continue;
            }
            size = n;
            smcm_set_t members = f->bugs.decoder | f->bugs.encoder;
            for (unsigned b = 0; b < SMCM_BUG_COUNT; b++) {
                if (!(members & SMCM_BIT(b))) {
                    continue;
                }
                smcj_cause_t *c = cause_for(d, b);
                c->where |= ((f->bugs.decoder & SMCM_BIT(b)) ? SMCM_DEC : 0) |
                            ((f->bugs.encoder & SMCM_BIT(b)) ? SMCM_ENC : 0);
                c->partners |= members & ~SMCM_BIT(b);
                c->checks++;
                d->by_vector[s->f[k].vector] |= SMCM_BIT(b);
            }
        }
    }
    for (size_t ci = 0; ci < d->n_causes; ci++) {
        smcj_cause_t *c = &d->causes[ci];
        c->alone = smcj_search_alone(s, c->bug, c->where);
        c->contradicted = s->n_marginal[c->bug];
        c->contra_checks = smcj_calloc(c->contradicted + 1, sizeof *c->contra_checks);
        if (!c->contra_checks) {
            return false;
        }
        c->accidental_checks =
            smcj_calloc(s->n_accidental[c->bug] + 1, sizeof *c->accidental_checks);
        if (!c->accidental_checks) {
            return false;
        }
        for (size_t i = 0; s->marginal[c->bug] && i < s->r->n_checks; i++) {
            if (smcj_bit(s->marginal[c->bug], i)) {
                c->contra_checks[c->n_contra_checks++] = i;
            }
            if (s->accidental[c->bug] && smcj_bit(s->accidental[c->bug], i)) {
                c->accidental_checks[c->n_accidental++] = i;
            }
        }
    }
    for (size_t ci = 0; ci < d->n_causes; ci++) {
        smcj_cause_t *c = &d->causes[ci];
        for (size_t pass = 0; pass < 2; pass++) { /* count, then fill */
            for (size_t vi = 0; vi < s->vs->count; vi++) {
                if (d->by_vector[vi] & SMCM_BIT(c->bug)) {
                    if (pass == 1) {
                        c->vectors[c->n_vectors] = vi;
                    }
                    c->n_vectors++;
                }
            }
            if (pass == 0) {
                c->vectors = smcj_calloc(c->n_vectors, sizeof *c->vectors);
                c->n_vectors = 0;
                if (!c->vectors) {
                    return false;
                }
            }
        }
    }
    qsort(d->causes, d->n_causes, sizeof *d->causes, by_vectors);
    return true;
}

/* ---- one runner ---- */

/* The failing checks with an answer to compare, in check order, and what differs in each
 * wrong value or wrong bytes. NULL (with *nf 0) when there are none, or out of memory. */
static smcj_fcheck_t *collect(smcj_diagnosis_t *d, const smcj_runner_t *r, const smcj_vectors_t *vs,
                              smc_arena_t *answers, smc_arena_t *scratch, size_t *nf, bool *ok)
{
    smcj_fcheck_t *f = NULL;
    size_t cap = 0;
    *nf = 0;
    *ok = true;
    size_t last_big = SIZE_MAX;
    for (size_t i = 0; i < r->n_checks && *ok; i++) {
        const smcj_check_t *c = &r->checks[i];
        if (c->outcome != SMCJ_OUT_FAIL || !vs->v[c->vector].selected ||
            !failing_vector(r, c->vector)) {
            continue;
        }
        const smcj_vector_t *v = &vs->v[c->vector];
        if (smcj_replay_too_big(v)) {
            /* never replayed; counted once per vector (its checks are consecutive) */
            d->not_replayed += c->vector != last_big;
            last_big = c->vector;
            continue;
        }
        smcj_answer_t a;
        smcj_answer_of(c, v, answers, &a);
        smct_doc_t held; /* the value with integers as the runner's host holds them (expect.c) */
        if (c->reason == SMCJ_REASON_WRONG_BYTES && c->act_bytes && !c->answer_cut &&
            v->has_value && smcj_doc_retype(&v->value, c->width, answers, &held)) {
            d->what_differs[i] = smcj_bytes_classify(&held, c->act_bytes, c->act_len);
        } else if (c->reason == SMCJ_REASON_WRONG_VALUE && a.usable && a.kind == SMCM_VALUE &&
                   !a.summary) {
            d->what_differs[i] = smcj_value_diff(&v->value, &a.doc);
        }
        if (!a.usable) {
            continue;
        }
        /* a codec with no bug on gives this answer too: what the runner declared does not
         * match its codec, and no catalogue entry may take credit for it */
        smcj_replay_t p;
        smcm_bugs_t none = {0, 0};
        smc_arena_reset(scratch);
        smcj_replay(c, v, r, none, scratch, &p);
        d->replays++;
        if (smcj_replay_matches(&p, c, v, r, &a)) {
            d->as_reference++;
            continue;
        }
        if (!smcj_grow((void **)&f, &cap, *nf + 1, sizeof *f)) {
            *ok = false;
            break;
        }
        f[*nf].check = i;
        f[*nf].vector = c->vector;
        f[*nf].answer = a;
        (*nf)++;
    }
    *ok = *ok && !smcj_out_of_memory();
    return f;
}

/* It ran, some entry it implements has no `error-classes` (where a class is compared, a pass
 * is never accidental, diag_accidental.h), and it failed a check of a selected vector. */
bool smcj_diagnosis_probes_runner(const smcj_runner_t *r, const smcj_vectors_t *vs)
{
    bool unclassed = false;
    for (size_t e = 0; e < SMC_ENTRY_COUNT; e++) {
        unclassed |= r->entry_ok[e] && !r->decl[e].error_classes;
    }
    if (r->skip_reason || !r->started || !unclassed) {
        return false;
    }
    for (size_t i = 0; i < r->n_checks; i++) {
        if (r->checks[i].outcome == SMCJ_OUT_FAIL && vs->v[r->checks[i].vector].selected) {
            return true;
        }
    }
    return false;
}

bool smcj_diagnosis_probes_vector(const smcj_vector_t *v)
{
    return !v->selected && !v->is_host && smcj_vector_has_features(v);
}

/* The group key of each failing check (for throwing out coincidences). */
static size_t *check_keys(const smcj_diagnosis_t *d, const smcj_runner_t *r, const smcj_fcheck_t *f,
                          size_t nf, key_table_t *t)
{
    size_t *keys = smcj_calloc(nf + 1, sizeof *keys);
    for (size_t k = 0; keys && k < nf; k++) {
        char *text = signature(d, r, f[k].check);
        keys[k] = intern(t, text ? group_key(text) : NULL);
        free(text);
        if (keys[k] == SIZE_MAX) {
            free(keys);
            return NULL;
        }
    }
    return keys;
}

static smcj_diagnosis_t *diagnose_runner(const smcj_run_t *run, const smcj_runner_t *r)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const smcj_vectors_t *vs = run->vectors;
    smcj_diagnosis_t *d = smcj_calloc(1, sizeof *d);
    if (!d) {
        return NULL;
    }
    d->by_vector = smcj_calloc(vs->count, sizeof *d->by_vector);
    d->group_of = smcj_calloc(vs->count, sizeof *d->group_of);
    d->what_differs = smcj_calloc(r->n_checks, sizeof *d->what_differs);
    d->n_checks = d->what_differs ? r->n_checks : 0;
    smc_arena_t answers;
    smc_arena_init_allocator(&answers, NULL);
    size_t nf = 0;
    bool ok = d->by_vector && d->group_of && d->what_differs;
    smc_arena_t scratch;
    smc_arena_init_allocator(&scratch, NULL);
    smcj_fcheck_t *f = ok ? collect(d, r, vs, &answers, &scratch, &nf, &ok) : NULL;
    smc_arena_free(&scratch);
    key_table_t keys = {NULL, 0, 0};
    size_t *key = ok ? check_keys(d, r, f, nf, &keys) : NULL;
    smcj_search_t s;
    memset(&s, 0, sizeof s);
    bool searched = ok && key;
    ok = searched && smcj_search_run(&s, r, vs, f, nf, key, keys.n);
    ok = ok && build_causes(d, &s) && build_groups(d, r, vs, f, nf, s.explained);
    d->replays += s.replays;
    d->contradicted_together = s.contradicted_together;
    if (searched) {
        smcj_search_free(&s);
    }
    free(key);
    smcj_free_strs(keys.keys, keys.n);
    free(f);
    smc_arena_free(&answers);
    if (!ok) {
        smcj_nomem(); /* the run stops and reports nothing (alloc.h) */
        smcj_diagnosis_free(d);
        return NULL;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    d->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    return d;
}

void smcj_diagnose_run(smcj_run_t *run)
{
    for (size_t i = 0; i < run->n_runners && !smcj_out_of_memory(); i++) {
        smcj_runner_t *r = &run->runners[i];
        if (r->results && r->checks) {
            r->diagnosis = diagnose_runner(run, r);
        }
    }
}

void smcj_diagnosis_free(smcj_diagnosis_t *d)
{
    if (!d) {
        return;
    }
    for (size_t i = 0; d->causes && i < d->n_causes; i++) {
        free(d->causes[i].vectors);
        free(d->causes[i].contra_checks);
        free(d->causes[i].accidental_checks);
    }
    for (size_t g = 0; g < d->n_groups; g++) {
        free(d->groups[g].key);
        free(d->groups[g].text);
        free(d->groups[g].vectors);
    }
    smcj_free_strs(d->what_differs, d->n_checks);
    free(d->causes);
    free(d->groups);
    free(d->by_vector);
    free(d->group_of);
    free(d);
}

const char *smcj_cause_where(const smcj_cause_t *c)
{
    switch (c->where) {
    case SMCM_DEC:
        return "in the decoder";
    case SMCM_ENC:
        return "in the encoder";
    default:
        return "in the decoder and the encoder";
    }
}

char *smcj_cause_title(const smcj_cause_t *c)
{
    const smcm_entry_t *e = smcm_entry(c->bug);
    return smcj_asprintf("%s (%s, spec §%s) %s", e->what, e->id, e->section, smcj_cause_where(c));
}

size_t smcj_first_cause_of(const smcj_diagnosis_t *d, size_t vi)
{
    for (size_t ci = 0; d && ci < d->n_causes; ci++) {
        if (d->by_vector[vi] & SMCM_BIT(d->causes[ci].bug)) {
            return ci;
        }
    }
    return SIZE_MAX;
}
