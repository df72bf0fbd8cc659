/*
 * Request planning (runners/PROTOCOL.md P.5): which checks each selected vector gets, and the
 * request line of each (P.2). Every check is sent whatever the runner's capabilities (spec
 * §1.4): a missing feature changes what the check expects (expect.c), never whether it runs.
 * Only a request that cannot be made at all (an entry point the runner lacks, a strict-mode
 * decode without strict mode, a placement check without `shift`) is planned as not
 * applicable, with the reason, so the reports say why it was not run: n/a is never a pass.
 */
#define _POSIX_C_SOURCE 200809L
#include "plan.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "handshake.h"
#include "host_vectors.h"
#include "self_check.h"
#include "vectors.h"

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

/* Add a check with the runner's expectations (expect.c), n/a with reason `na` unless `na` is
 * NULL; NULL when out of memory. */
static smcj_check_t *plan_check(planner_t *P, const smcj_vectors_t *vs, smcj_check_kind_t kind,
                                size_t vector, size_t index, bool strict, char *na)
{
    smcj_check_t *c = add(P, vs, kind, vector, index, strict);
    if (!c) {
        free(na);
        return NULL;
    }
    smcj_expect(c, P->r, &vs->v[vector]);
    if (na) {
        not_applicable(c, na);
    }
    return c;
}

/* Why a decode check cannot be sent (a missing entry point, or strict mode), or NULL. */
static char *decode_na(const smcj_runner_t *r, const smcj_vector_t *v, bool strict)
{
    if (!r->entry_ok[v->entry]) {
        return smcj_asprintf("runner lacks the %s entry point", smct_entry_name(v->entry));
    }
    if (strict && !smcj_declares(r, v->entry, 0, "strict-mode")) {
        return smcj_strdup("runner has no strict mode (decode capability strict-mode)");
    }
    return NULL;
}

/* Why an encode or round-trip check cannot be sent, or NULL. */
static char *encode_na(const smcj_runner_t *r, const smcj_vector_t *v)
{
    if (!r->entry_ok[v->entry]) {
        return smcj_asprintf("runner lacks the %s entry point", smct_entry_name(v->entry));
    }
    return NULL;
}

/* spec R1.4-18: the codec decodes the bytes its encode check wrote (self_check.c), whatever
 * it declares; n/a only where the encode cannot be sent. */
static bool plan_self(planner_t *P, const smcj_vectors_t *vs, size_t i)
{
    smcj_check_t *c = plan_check(P, vs, SMCJ_CHECK_SELF, i, 0, false, encode_na(P->r, &vs->v[i]));
    if (c) {
        smcj_self_expect(c, P->r, &vs->v[i]);
    }
    return c != NULL;
}

/*
 * spec §3.3 placement: the vector's flutter-mode decode once more, with the input at
 * v->shift (1..7) bytes past an 8-aligned address. Every other check runs aligned.
 */
static bool plan_placement(planner_t *P, const smcj_vectors_t *vs, size_t i)
{
    const smcj_vector_t *v = &vs->v[i];
    smcj_check_kind_t kind;
    if (v->is_host) {
        return true; /* spec §17 checks host types, not placement */
    }
    if (v->is_valid) {
        kind = SMCJ_CHECK_DECODE;
    } else if (v->is_reject && v->rejects_flutter) {
        kind = SMCJ_CHECK_REJECT;
    } else if (v->is_reject && v->has_value) {
        kind = SMCJ_CHECK_LENIENT;
    } else {
        return true;
    }
    char *why = decode_na(P->r, v, false);
    if (!why && !P->r->decl[v->entry].shift) {
        why = smcj_strdup("runner does not declare the shift option (P.1): placement not tested");
    }
    smcj_check_t *c = plan_check(P, vs, kind, i, 0, false, why);
    if (c) {
        c->placed = true;
    }
    return c != NULL;
}

/* The wire-level checks of vector i (P.5), each at an aligned address; false when out of
 * memory. */
static bool plan_vector(planner_t *P, const smcj_vectors_t *vs, size_t i)
{
    const smcj_runner_t *r = P->r;
    const smcj_vector_t *v = &vs->v[i];
    bool ok = true;
    if (v->is_host) {
        /* spec §17: one check, n/a for a runner that does not speak the vocabulary */
        smcj_check_t *c = add(
            P, vs, v->host_decode ? SMCJ_CHECK_HOST_DECODE : SMCJ_CHECK_HOST_ENCODE, i, 0, false);
        if (c) {
            smcj_host_expect(c, r, v);
        }
        return c != NULL;
    }
    if (v->is_valid) {
        ok = plan_check(P, vs, SMCJ_CHECK_DECODE, i, 0, false, decode_na(r, v, false)) &&
             plan_check(P, vs, SMCJ_CHECK_DECODE_STRICT, i, 0, true, decode_na(r, v, true)) &&
             plan_check(P, vs, SMCJ_CHECK_ENCODE, i, 0, false, encode_na(r, v)) &&
             plan_check(P, vs, SMCJ_CHECK_ROUNDTRIP, i, 0, false, encode_na(r, v)) &&
             plan_self(P, vs, i);
        for (size_t k = 0; ok && k < v->n_accepted; k++) {
            ok = plan_check(P, vs, SMCJ_CHECK_ACCEPT, i, k, false, decode_na(r, v, false)) &&
                 plan_check(P, vs, SMCJ_CHECK_ACCEPT_STRICT, i, k, true, decode_na(r, v, true));
        }
    } else if (v->is_reject) {
        if (v->rejects_flutter) {
            ok = plan_check(P, vs, SMCJ_CHECK_REJECT, i, 0, false, decode_na(r, v, false));
        } else if (v->has_value) {
            /* V.2: in the modes that do not reject it, it decodes to `value` */
            ok = plan_check(P, vs, SMCJ_CHECK_LENIENT, i, 0, false, decode_na(r, v, false));
        }
        if (ok && v->rejects_strict) {
            ok = plan_check(P, vs, SMCJ_CHECK_REJECT, i, 0, true, decode_na(r, v, true));
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

void smcj_plan_probes(smcj_runner_t *r, const smcj_vectors_t *vs)
{
    planner_t P = {r, 0};
    for (size_t i = 0; i < vs->count; i++) {
        const smcj_vector_t *v = &vs->v[i];
        if (v->probe &&
            !plan_check(&P, vs, SMCJ_CHECK_DECODE, i, 0, false, decode_na(r, v, false))) {
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
    case SMCJ_CHECK_HOST_ENCODE:
    case SMCJ_CHECK_HOST_DECODE:
    case SMCJ_CHECK_SELF:
        break;
    }
    if (c->kind == SMCJ_CHECK_SELF) {
        smcj_self_request_line(b, (unsigned long long)seq, v, c);
        return;
    }
    if (c->kind == SMCJ_CHECK_HOST_ENCODE || c->kind == SMCJ_CHECK_HOST_DECODE) {
        smcj_host_request_line(b, (unsigned long long)seq, v, c);
        return;
    }
    if (c->kind == SMCJ_CHECK_HANDSHAKE) {
        smcj_hello_line(b);
        return;
    }
    /* P.2 request lines are protocol text, not the JSON writer's: byte-exact (the raw replay
     * command shows them as sent), and their hex and notation, checked when the vectors
     * loaded, are appended as they are, never scanned again for escapes */
    if (c->kind == SMCJ_CHECK_ENCODE) {
        /* the value and the hex are appended, not printed: vsnprintf costs ~15 ns a character
         * (twice over, once to measure), a second of CPU for a 64 MiB value */
        smct_buf_printf(b, "{\"seq\":%llu,\"op\":\"encode\",\"entry\":\"%s\",\"value\":",
                        (unsigned long long)seq, entry_word(v->entry));
        smct_buf_puts(b, v->value_text);
        smct_buf_putc(b, '}');
        return;
    }
    const char *op = c->kind == SMCJ_CHECK_ROUNDTRIP ? "roundtrip" : "decode";
    smct_buf_printf(b, "{\"seq\":%llu,\"op\":\"%s\",\"entry\":\"%s\",\"hex\":\"",
                    (unsigned long long)seq, op, entry_word(v->entry));
    smct_buf_puts(b, hex);
    smct_buf_printf(b, "\",\"mode\":\"%s\"", c->strict ? "strict" : "flutter");
    if (c->placed && r->decl[v->entry].shift) {
        smct_buf_printf(b, ",\"shift\":%u",
                        v->shift); /* spec §3.3 placement; wire checks are aligned */
    }
    smct_buf_putc(b, '}');
}
