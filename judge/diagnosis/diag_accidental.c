/*
 * Accidental passes (diag_accidental.h): the features a runner refuses, and whether a passed
 * check's rejection is explained by one of them rather than by the reason the vector names.
 */
#include "diag_accidental.h"

#include <stdlib.h>
#include <string.h>

/* Where in a container an element sits. */
enum { ROLE_ITEM, ROLE_KEY, ROLE_VALUE, ROLE_PAYLOAD, ROLE_COUNT };

/* Sixteen type slots: the wire types numbered by tag (0..14) and custom values. */
#define TYPE_SLOTS 16u

static unsigned slot_of(smc_type_t t)
{
    return t == SMC_TYPE_CUSTOM ? TYPE_SLOTS - 1 : ((unsigned)t & (TYPE_SLOTS - 1));
}

static smcj_features_t feature(unsigned role, const smc_value_t *v)
{
    return (smcj_features_t)1 << (role * TYPE_SLOTS + slot_of(v->type));
}

/* The features of a value tree. Iterative: a vector may nest 100,000 levels deep. */
static smcj_features_t features_of(const smc_value_t *root, smc_arena_t *scratch)
{
    smcj_features_t out = 0;
    size_t cap = 64, n = 0;
    const smc_value_t **stack = smc_arena_alloc(scratch, cap * sizeof *stack);
    if (!stack || !root) {
        return 0;
    }
    stack[n++] = root;
    while (n > 0) {
        const smc_value_t *v = stack[--n];
        size_t kids = 0;
        if (v->type == SMC_TYPE_LIST) {
            kids = v->list.count;
        } else if (v->type == SMC_TYPE_MAP) {
            kids = 2 * v->map.count;
        } else if (v->type == SMC_TYPE_CUSTOM) {
            kids = v->custom.payload ? 1 : 0;
        }
        if (n + kids > cap) {
            size_t ncap = 2 * (n + kids);
            const smc_value_t **grown = smc_arena_alloc(scratch, ncap * sizeof *grown);
            if (!grown) {
                return out; /* what was seen so far: fewer features, fewer excuses */
            }
            memcpy(grown, stack, n * sizeof *stack);
            stack = grown;
            cap = ncap;
        }
        for (size_t i = 0; i < kids; i++) {
            const smc_value_t *k;
            unsigned role;
            if (v->type == SMC_TYPE_LIST) {
                k = &v->list.items[i];
                role = ROLE_ITEM;
            } else if (v->type == SMC_TYPE_MAP) {
                k = &v->map.entries[i];
                role = (i % 2 == 0) ? ROLE_KEY : ROLE_VALUE;
            } else {
                k = v->custom.payload;
                role = ROLE_PAYLOAD;
            }
            out |= feature(role, k);
            stack[n++] = k;
        }
    }
    return out;
}

/* The features of an item of any entry: the message, the call's arguments, the envelope's
 * result or details. */
static smcj_features_t doc_features(const smct_doc_t *d, smc_arena_t *scratch)
{
    switch (d->entry) {
    case SMC_ENTRY_MESSAGE:
        return features_of(d->value, scratch);
    case SMC_ENTRY_CALL:
        return features_of(d->call.args, scratch);
    case SMC_ENTRY_ENVELOPE:
        return features_of(d->envelope.is_error ? d->envelope.details : d->envelope.result,
                           scratch);
    default:
        return 0;
    }
}

bool smcj_vector_has_features(const smcj_vector_t *v)
{
    if (!v->is_valid || !v->has_value) {
        return false;
    }
    smc_arena_t scratch;
    smc_arena_init_allocator(&scratch, NULL);
    bool out = doc_features(&v->value, &scratch) != 0;
    smc_arena_free(&scratch);
    return out;
}

/* Whether check c of a valid vector is the runner's decode of it: refused (an error that is no
 * crash or timeout), decoded (a pass or a wrong value), or neither (says nothing). */
static void decode_evidence(const smcj_check_t *c, bool *refused, bool *decoded)
{
    *refused = c->outcome == SMCJ_OUT_FAIL &&
               (c->reason == SMCJ_REASON_UNEXPECTED_ERROR || c->reason == SMCJ_REASON_UNCLASSIFIED);
    *decoded = c->outcome == SMCJ_OUT_PASS ||
               (c->outcome == SMCJ_OUT_FAIL && c->reason == SMCJ_REASON_WRONG_VALUE);
}

/* One list of decode checks (the verdicts' of selected vectors, or the probes' of vectors
 * outside the selection, diag_probes.h): the features of each rejected vector into *rej
 * (grown), the union of decoded ones into *accepted. */
static bool scan_checks(const smcj_check_t *checks, size_t n, bool probes, const smcj_vectors_t *vs,
                        smcj_features_t **rej, size_t *n_rej, size_t *cap_rej,
                        smcj_features_t *accepted, smc_arena_t *scratch)
{
    for (size_t i = 0; i < n; i++) {
        const smcj_check_t *c = &checks[i];
        const smcj_vector_t *v = &vs->v[c->vector];
        if ((c->kind != SMCJ_CHECK_DECODE && c->kind != SMCJ_CHECK_DECODE_STRICT) || !v->is_valid ||
            !v->has_value || (!probes && !v->selected)) {
            continue;
        }
        bool refused, decoded;
        decode_evidence(c, &refused, &decoded);
        if (!refused && !decoded) {
            continue;
        }
        smc_arena_reset(scratch);
        smcj_features_t f = doc_features(&v->value, scratch);
        if (decoded) {
            *accepted |= f;
        } else if (f) {
            if (*n_rej == *cap_rej) {
                size_t ncap = *cap_rej ? 2 * *cap_rej : 64;
                smcj_features_t *g = realloc(*rej, ncap * sizeof *g);
                if (!g) {
                    return false;
                }
                *rej = g;
                *cap_rej = ncap;
            }
            (*rej)[(*n_rej)++] = f;
        }
    }
    return true;
}

smcj_features_t smcj_refused_features(const smcj_runner_t *r, const smcj_vectors_t *vs)
{
    smcj_features_t accepted = 0, out = 0;
    smcj_features_t *rej = NULL;
    size_t n_rej = 0, cap_rej = 0;
    smc_arena_t scratch;
    smc_arena_init_allocator(&scratch, NULL);
    bool ok =
        scan_checks(r->checks, r->n_checks, false, vs, &rej, &n_rej, &cap_rej, &accepted,
                    &scratch) &&
        scan_checks(r->probes, r->n_probes, true, vs, &rej, &n_rej, &cap_rej, &accepted, &scratch);
    smc_arena_free(&scratch);
    if (!ok) {
        free(rej);
        return 0; /* out of memory: no feature refused, no pass excused */
    }
    smcj_features_t candidates = 0;
    for (size_t i = 0; i < n_rej; i++) {
        candidates |= rej[i];
    }
    candidates &= ~accepted;
    /* issue 28: a feature counts as refused only where a rejected vector holds it and no other
     * candidate; one that only ever sits beside another (a custom value as a map value, in
     * maps whose keys are not strings) may be no fault at all */
    for (size_t i = 0; i < n_rej; i++) {
        smcj_features_t f = rej[i] & candidates;
        if (f && (f & (f - 1)) == 0) {
            out |= f;
        }
    }
    free(rej);
    return out;
}

bool smcj_accidental_pass(const smcj_check_t *c, const smcj_vector_t *v, const smcj_runner_t *r,
                          const smcj_replay_t *p, smcj_features_t refused)
{
    if (!refused || c->kind != SMCJ_CHECK_REJECT || c->outcome != SMCJ_OUT_PASS ||
        r->decl[v->entry].error_classes) {
        return false;
    }
    if (c->act_class && v->err_class && strcmp(c->act_class, v->err_class) == 0) {
        return false; /* rejected for the reason the vector names, as far as it says */
    }
    if (!p->has_dec || p->dec.kind != SMCM_VALUE) {
        return false;
    }
    smc_arena_t scratch;
    smc_arena_init_allocator(&scratch, NULL);
    bool out = (doc_features(&p->dec.doc, &scratch) & refused) != 0;
    smc_arena_free(&scratch);
    return out;
}
