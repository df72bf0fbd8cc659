/*
 * Request planning (runners/PROTOCOL.md P.5): which checks each selected vector gets, and the
 * request line of each (P.2). A check the runner cannot express (an entry point or feature it
 * did not declare in its handshake, P.1) is planned anyway and marked not applicable with the
 * reason, so the reports say why it was not run: n/a is never a silent pass.
 */
#define _POSIX_C_SOURCE 200809L
#include "plan.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "vectors.h"

bool smcj_caps_have(char *const *caps, size_t n, const char *word)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(caps[i], word) == 0) {
            return true;
        }
    }
    return false;
}

/* Features of `v` missing from `caps` (ignoring `except`), as "a, b"; NULL if none. */
static char *missing_features(const smcj_vector_t *v, char *const *caps, size_t n,
                              const char *except)
{
    smct_buf_t b = {0};
    for (size_t i = 0; i < v->n_features; i++) {
        if (except && strcmp(v->features[i], except) == 0) {
            continue;
        }
        if (!smcj_caps_have(caps, n, v->features[i])) {
            smct_buf_printf(&b, "%s%s", b.len ? ", " : "", v->features[i]);
        }
    }
    if (!smcj_buf_ok(&b) || b.len == 0) { /* failed: out of memory is recorded */
        smct_buf_free(&b);
        return NULL;
    }
    return smcj_buf_take(&b);
}

/* As missing_features, for decoding by a host without ordered maps (P.5: map-order is then
 * not needed, maps compare as multisets). */
static char *missing_features_but_map_order(const smcj_vector_t *v, char *const *caps, size_t n,
                                            const char *except)
{
    smct_buf_t b = {0};
    for (size_t i = 0; i < v->n_features; i++) {
        if ((except && strcmp(v->features[i], except) == 0) ||
            strcmp(v->features[i], "map-order") == 0) {
            continue;
        }
        if (!smcj_caps_have(caps, n, v->features[i])) {
            smct_buf_printf(&b, "%s%s", b.len ? ", " : "", v->features[i]);
        }
    }
    if (!smcj_buf_ok(&b) || b.len == 0) { /* failed: out of memory is recorded */
        smct_buf_free(&b);
        return NULL;
    }
    return smcj_buf_take(&b);
}

/* Checks are appended vector by vector, in vector order: results.c finds a vector's checks
 * by binary search on that order. */
typedef struct planner {
    smcj_runner_t *r;
    size_t cap;
} planner_t;

/* V.2: a decode check has the tier of its mode's rules (by_mode); encode and round trip,
 * which have no decoder mode, the vector's. */
static smcj_tier_t check_tier(const smcj_vector_t *v, smcj_check_kind_t kind, bool strict)
{
    if (kind == SMCJ_CHECK_ENCODE || kind == SMCJ_CHECK_ROUNDTRIP) {
        return v->tier;
    }
    return v->mode_tier[strict ? 1 : 0];
}

/* A new pending check; NULL when the array cannot grow (out of memory recorded). */
static smcj_check_t *add(planner_t *P, const smcj_vectors_t *vs, smcj_check_kind_t kind,
                         size_t vector, size_t index, bool strict)
{
    smcj_runner_t *r = P->r;
    if (r->n_checks == P->cap) {
        size_t cap = P->cap ? P->cap * 2 : 1024;
        if (!smcj_grow((void **)&r->checks, &P->cap, cap, sizeof *r->checks)) {
            return NULL; /* out of memory (recorded) */
        }
    }
    smcj_check_t *c = &r->checks[r->n_checks++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->vector = vector;
    c->index = index;
    c->strict = strict;
    c->tier = vs ? check_tier(&vs->v[vector], kind, strict) : SMCJ_TIER_REQUIRED;
    c->order_alt = -1;
    c->alt = -1;
    c->outcome = SMCJ_OUT_PENDING;
    return c;
}

static void not_applicable(smcj_check_t *c, char *why)
{
    c->outcome = SMCJ_OUT_NA;
    c->detail = why;
}

/* Add a check, n/a with reason `na` unless `na` is NULL; false when out of memory. */
static bool plan_check(planner_t *P, const smcj_vectors_t *vs, smcj_check_kind_t kind,
                       size_t vector, size_t index, bool strict, char *na)
{
    smcj_check_t *c = add(P, vs, kind, vector, index, strict);
    if (!c) {
        free(na);
        return false;
    }
    if (na) {
        not_applicable(c, na);
    }
    return true;
}

/* Why a decode check is n/a (a missing entry point, strict mode or feature), or NULL when it
 * is applicable. `except` is a feature this check does not need. */
static char *decode_na(const smcj_runner_t *r, const smcj_vector_t *v, bool strict,
                       const char *except)
{
    if (!r->entry_ok[v->entry]) {
        return smcj_asprintf("runner lacks the %s entry point", smct_entry_name(v->entry));
    }
    if (strict && !smcj_caps_have(r->decode_caps, r->n_decode_caps, "strict-mode")) {
        return smcj_strdup("runner has no strict mode (decode capability strict-mode)");
    }
    char *m = missing_features(v, r->decode_caps, r->n_decode_caps, except);
    if (m && strcmp(m, "map-order") == 0) {
        /* P.5: without map-order, decoded maps compare as multisets; decoding stays applicable */
        free(m);
        m = NULL;
    } else if (m && !smcj_caps_have(r->decode_caps, r->n_decode_caps, "map-order")) {
        free(m);
        m = missing_features_but_map_order(v, r->decode_caps, r->n_decode_caps, except);
    }
    if (m) {
        char *s = smcj_asprintf("decode capabilities lack: %s", m);
        free(m);
        return s;
    }
    return NULL;
}

/* Why an encode check is n/a, or NULL. */
static char *encode_na(const smcj_runner_t *r, const smcj_vector_t *v)
{
    if (!r->entry_ok[v->entry]) {
        return smcj_asprintf("runner lacks the %s entry point", smct_entry_name(v->entry));
    }
    char *m = missing_features(v, r->encode_caps, r->n_encode_caps, NULL);
    if (m) {
        char *s = smcj_asprintf("encode capabilities lack: %s", m);
        free(m);
        return s;
    }
    /* P.5: a host with unordered maps cannot reproduce the canonical order. */
    if (!r->map_order && smcj_vector_has_feature(v, "map-order")) {
        return smcj_strdup("runner's maps are unordered (no map-order in decode capabilities)");
    }
    return NULL;
}

/*
 * spec §3.3 placement: the vector's flutter-mode decode once more, with the input at
 * v->shift (1..7) bytes past an 8-aligned address. Every other check runs aligned.
 */
static bool plan_placement(planner_t *P, const smcj_vectors_t *vs, size_t i)
{
    const smcj_vector_t *v = &vs->v[i];
    smcj_check_kind_t kind;
    if (v->is_valid) {
        kind = SMCJ_CHECK_DECODE;
    } else if (v->is_reject && v->rejects_flutter) {
        kind = SMCJ_CHECK_REJECT;
    } else if (v->is_reject && v->has_value) {
        kind = SMCJ_CHECK_LENIENT;
    } else {
        return true;
    }
    smcj_check_t *c = add(P, vs, kind, i, 0, false);
    if (!c) {
        return false;
    }
    c->placed = true;
    char *why = decode_na(P->r, v, false, kind == SMCJ_CHECK_LENIENT ? "strict-mode" : NULL);
    if (why) {
        not_applicable(c, why);
    } else if (!P->r->opt_shift) {
        not_applicable(
            c, smcj_strdup("runner does not declare the shift option (P.1): placement not tested"));
    }
    return true;
}

/* A roundtrip needs both directions: the reasons of either, joined. */
static char *roundtrip_na(const smcj_runner_t *r, const smcj_vector_t *v)
{
    char *dw = decode_na(r, v, false, NULL);
    char *ew = encode_na(r, v);
    char *both = NULL;
    if (dw || ew) {
        both = smcj_asprintf("%s%s%s", dw ? dw : "", dw && ew ? "; " : "", ew ? ew : "");
    }
    free(dw);
    free(ew);
    return both;
}

/* The wire-level checks of vector i (P.5), each at an aligned address; false when out of
 * memory. */
static bool plan_vector(planner_t *P, const smcj_vectors_t *vs, size_t i)
{
    const smcj_runner_t *r = P->r;
    const smcj_vector_t *v = &vs->v[i];
    bool ok = true;
    if (v->is_valid) {
        ok = plan_check(P, vs, SMCJ_CHECK_DECODE, i, 0, false, decode_na(r, v, false, NULL)) &&
             plan_check(P, vs, SMCJ_CHECK_DECODE_STRICT, i, 0, true, decode_na(r, v, true, NULL)) &&
             plan_check(P, vs, SMCJ_CHECK_ENCODE, i, 0, false, encode_na(r, v)) &&
             plan_check(P, vs, SMCJ_CHECK_ROUNDTRIP, i, 0, false, roundtrip_na(r, v));
        for (size_t k = 0; ok && k < v->n_accepted; k++) {
            ok = plan_check(P, vs, SMCJ_CHECK_ACCEPT, i, k, false, decode_na(r, v, false, NULL)) &&
                 plan_check(P, vs, SMCJ_CHECK_ACCEPT_STRICT, i, k, true,
                            decode_na(r, v, true, NULL));
        }
    } else if (v->is_reject) {
        if (v->rejects_flutter) {
            ok = plan_check(P, vs, SMCJ_CHECK_REJECT, i, 0, false, decode_na(r, v, false, NULL));
        } else if (v->has_value) {
            /* V.2: in the modes that do not reject it, it decodes to `value`. The
             * strict-mode feature is about the strict check, not this one. */
            ok = plan_check(P, vs, SMCJ_CHECK_LENIENT, i, 0, false,
                            decode_na(r, v, false, "strict-mode"));
        }
        if (ok && v->rejects_strict) {
            ok = plan_check(P, vs, SMCJ_CHECK_REJECT, i, 0, true, decode_na(r, v, true, NULL));
        }
    }
    return ok;
}

void smcj_plan(smcj_runner_t *r, const smcj_vectors_t *vs)
{
    planner_t P = {r, 0};
    for (size_t i = 0; i < vs->count; i++) {
        const smcj_vector_t *v = &vs->v[i];
        if (!v->selected) {
            continue;
        }
        if (!plan_vector(&P, vs, i) || !plan_placement(&P, vs, i)) {
            return; /* out of memory */
        }
    }
}

void smcj_plan_all_failed(smcj_runner_t *r, const smcj_vectors_t *vs, smcj_reason_t reason,
                          const char *detail)
{
    planner_t P = {r, 0};
    for (size_t i = 0; i < vs->count; i++) {
        if (vs->v[i].selected) {
            smcj_check_t *c = add(&P, vs, SMCJ_CHECK_HANDSHAKE, i, 0, false);
            if (!c) {
                return; /* out of memory */
            }
            c->outcome = SMCJ_OUT_FAIL;
            c->reason = reason;
            c->detail = smcj_strdup(detail);
        }
    }
}

static const char *entry_word(smc_entry_t e)
{
    return smct_entry_name(e);
}

/* P.2: the request for check `c`. Decode requests carry `shift` (the vector's fixed 1..7)
 * when the runner declared it, so alignment bugs by address show up the same way each run. */
void smcj_request_line(smct_buf_t *b, uint64_t seq, const smcj_runner_t *r,
                       const smcj_vectors_t *vs, const smcj_check_t *c)
{
    const smcj_vector_t *v = &vs->v[c->vector];
    const char *hex = NULL;
    switch (c->kind) {
    case SMCJ_CHECK_DECODE:
    case SMCJ_CHECK_DECODE_STRICT:
    case SMCJ_CHECK_ROUNDTRIP:
        hex = v->canonical_hex;
        break;
    case SMCJ_CHECK_ACCEPT:
    case SMCJ_CHECK_ACCEPT_STRICT:
        hex = v->accepted[c->index].hex;
        break;
    case SMCJ_CHECK_REJECT:
    case SMCJ_CHECK_LENIENT:
        hex = v->hex;
        break;
    case SMCJ_CHECK_ENCODE:
    case SMCJ_CHECK_HANDSHAKE:
        break;
    }
    if (c->kind == SMCJ_CHECK_HANDSHAKE) {
        smcj_hello_line(b);
        return;
    }
    if (c->kind == SMCJ_CHECK_ENCODE) {
        smct_buf_printf(b, "{\"seq\":%llu,\"op\":\"encode\",\"entry\":\"%s\",\"value\":%s}",
                        (unsigned long long)seq, entry_word(v->entry), v->value_text);
        return;
    }
    const char *op = c->kind == SMCJ_CHECK_ROUNDTRIP ? "roundtrip" : "decode";
    smct_buf_printf(
        b, "{\"seq\":%llu,\"op\":\"%s\",\"entry\":\"%s\",\"hex\":\"%s\",\"mode\":\"%s\"",
        (unsigned long long)seq, op, entry_word(v->entry), hex, c->strict ? "strict" : "flutter");
    if (c->placed && r->opt_shift) {
        smct_buf_printf(b, ",\"shift\":%u",
                        v->shift); /* spec §3.3 placement; wire checks are aligned */
    }
    smct_buf_putc(b, '}');
}

void smcj_hello_line(smct_buf_t *b)
{
    smct_buf_puts(b, "{\"seq\":0,\"op\":\"hello\",\"protocol\":1}");
}
