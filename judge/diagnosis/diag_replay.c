/* Replaying checks through the bug catalogue's variant codec (see diag_replay.h). */
#define _POSIX_C_SOURCE 200809L
#include "diag_replay.h"

#include <string.h>

#include "alloc.h"
#include "compare.h"
#include "diag_faults.h"
#include "results.h"
#include "shape.h"
#include "smcm_host.h"
#include "smct_json.h"
#include "smct_notation.h"

/* Host-type checks (spec §17) map wire types to a host's types, which the catalogue's
 * variant codec models only as far as its host-encode bugs need (smcm_host.h), and a
 * self-consistency check (R1.4-18) decodes bytes the runner wrote, which a replay does not
 * have. An encode from host is replayed as the variant encoder's bytes of the vector's wire
 * value (or its refusal), with the host facts of f32-four-bytes, uint64s-as-ints and
 * largeint-written (issue 28); a decode to host as the decode of its canonical bytes where the
 * runner rejected them (pad-from-remaining's host's `trailing_bytes`), or, where it passed,
 * predicted from the value the replay decodes (host_decode_verdict); a self-consistency check of
 * the canonical bytes as their decode (smcj_self_replayable). No other is replayed, so no cause is
 * credited with, or contradicted by, one of them. */
static bool is_host_check(smcj_check_kind_t k)
{
    return k == SMCJ_CHECK_HOST_ENCODE || k == SMCJ_CHECK_HOST_DECODE || k == SMCJ_CHECK_SELF;
}

bool smcj_check_decodes(smcj_check_kind_t k)
{
    return k != SMCJ_CHECK_ENCODE && k != SMCJ_CHECK_HANDSHAKE &&
           (!is_host_check(k) || k == SMCJ_CHECK_HOST_DECODE);
}

bool smcj_self_replayable(const smcj_check_t *c)
{
    return c->kind == SMCJ_CHECK_SELF && !c->own_hex;
}

bool smcj_check_encodes(smcj_check_kind_t k)
{
    return k == SMCJ_CHECK_ENCODE || k == SMCJ_CHECK_ROUNDTRIP || k == SMCJ_CHECK_HOST_ENCODE;
}

bool smcj_replay_too_big(const smcj_vector_t *v)
{
    bool big = v->canonical_len > SMCJ_REPLAY_MAX_INPUT || v->len > SMCJ_REPLAY_MAX_INPUT;
    for (size_t i = 0; i < v->n_accepted && !big; i++) {
        big = v->accepted[i].len > SMCJ_REPLAY_MAX_INPUT;
    }
    return big;
}

/* The bytes the runner wrote, as an answer. P.3 no bytes (no
 * message at all, D24) is compared as the variant's empty message: the variant writes at least
 * a tag for every message it encodes, except null-encodes-empty's top-level null. */
static bool answer_bytes(const smcj_check_t *c, smcj_answer_t *out)
{
    if (!c->act_bytes && c->act_len) {
        return false;
    }
    out->kind = SMCM_BYTES;
    out->bytes = c->act_bytes;
    out->len = c->act_len;
    return true;
}

void smcj_answer_of(const smcj_check_t *c, const smcj_vector_t *v, smc_arena_t *arena,
                    smcj_answer_t *out)
{
    memset(out, 0, sizeof *out);
    bool crash = c->reason == SMCJ_REASON_CRASH; /* replayed by kind (diag_faults.h) */
    if (c->outcome != SMCJ_OUT_FAIL || (smcj_reason_is_harness(c->reason) && !crash) ||
        c->kind == SMCJ_CHECK_HANDSHAKE ||
        (c->kind == SMCJ_CHECK_SELF && !smcj_self_replayable(c)) || c->answer_cut) {
        return; /* answer_cut: only a part of the answer is kept (kept_value.h) */
    }
    switch (c->reason) {
    case SMCJ_REASON_WRONG_VALUE:
    case SMCJ_REASON_UNEXPECTED_SUCCESS: {
        smct_error_t e;
        if (c->kind == SMCJ_CHECK_HOST_DECODE) {
            return; /* a host value: types a replay does not model */
        }
        if (c->kind == SMCJ_CHECK_HOST_ENCODE) {
            /* bytes where the spec refuses the host value (host_verdict.c keeps them) */
            if (!answer_bytes(c, out)) {
                return;
            }
            break;
        }
        if (c->act_summary) { /* P.3: a value too large to print, compared by its summary */
            out->kind = SMCM_VALUE;
            out->summary = true;
            out->shape = c->act_shape;
            break;
        }
        if (!c->actual || smct_notation_parse(c->actual, strlen(c->actual), v->entry, arena,
                                              &out->doc, &e) != SMCT_OK) {
            return;
        }
        out->kind = SMCM_VALUE;
        break;
    }
    case SMCJ_REASON_WRONG_BYTES:
        if (!answer_bytes(c, out)) {
            return;
        }
        break;
    case SMCJ_REASON_WRONG_CLASS:
    case SMCJ_REASON_WRONG_OFFSET:
    case SMCJ_REASON_UNEXPECTED_ERROR:
        /* a rejection; without a class when the runner has no error-classes, or answered
         * not_implemented (P.3) */
        out->kind = SMCM_ERROR;
        out->cls = c->act_class;
        out->has_offset = c->act_has_offset;
        out->offset = c->act_offset;
        out->undocumented = c->unclassified;
        out->fault = c->unclassified ? smcj_fault_of_kind(c->act_kind) : SMCM_FAULT_NONE;
        break;
    case SMCJ_REASON_UNCLASSIFIED: /* rejected as it must be, not as the codec documents */
    case SMCJ_REASON_CRASH:
        out->kind = SMCM_ERROR;
        out->undocumented = true;
        out->crash = crash;
        out->fault = smcj_fault_of_kind(c->act_kind);
        break;
    case SMCJ_REASON_NONE:
    case SMCJ_REASON_RESOURCE:
    case SMCJ_REASON_TIMEOUT:
    case SMCJ_REASON_PROTOCOL_ERROR:
    case SMCJ_REASON_JUDGE_ERROR:
    case SMCJ_REASON_COUNT:
        return;
    }
    out->usable = true;
}

/* The bytes a decode check sends (P.5). */
static void request_bytes(const smcj_check_t *c, const smcj_vector_t *v, const uint8_t **p,
                          size_t *n)
{
    switch (c->kind) {
    case SMCJ_CHECK_ACCEPT:
    case SMCJ_CHECK_ACCEPT_STRICT:
        *p = v->accepted[c->index].bytes;
        *n = v->accepted[c->index].len;
        return;
    case SMCJ_CHECK_REJECT:
    case SMCJ_CHECK_LENIENT:
        *p = v->bytes;
        *n = v->len;
        return;
    case SMCJ_CHECK_DECODE:
    case SMCJ_CHECK_DECODE_STRICT:
    case SMCJ_CHECK_ROUNDTRIP:
    case SMCJ_CHECK_ENCODE:
    case SMCJ_CHECK_HANDSHAKE:
    case SMCJ_CHECK_HOST_ENCODE:
    case SMCJ_CHECK_HOST_DECODE:
    case SMCJ_CHECK_SELF:
        break;
    }
    *p = v->canonical;
    *n = v->canonical_len;
}

/* An encode from host: the host value as the variant's host side hands it to the encoder
 * (smcm_host.h), the wire value with the integers the check expects (host_vectors.c). */
static void replay_host_encode(const smcj_check_t *c, const smcj_vector_t *v, smcm_bugs_t bugs,
                               smc_arena_t *arena, smcj_replay_t *out)
{
    out->has_enc = true;
    out->enc.kind = SMCM_UNKNOWN;
    out->enc.why = "host value not modelled";
    smct_json_t *host;
    smct_error_t e;
    if (!v->host || !v->host_value ||
        smct_json_parse(v->host_value, strlen(v->host_value), NULL, arena, &host, &e) != SMCT_OK) {
        return;
    }
    smct_doc_t held;
    if (v->host_refused || !v->has_value) {
        smcm_host_encode(bugs.encoder, v->host, host, NULL, arena, &out->enc);
    } else if (smcj_doc_retype(&v->value, c->width, arena, &held)) {
        smcm_host_encode(bugs.encoder, v->host, host, &held, arena, &out->enc);
    }
}

void smcj_replay(const smcj_check_t *c, const smcj_vector_t *v, const smcj_runner_t *r,
                 smcm_bugs_t bugs, smc_arena_t *arena, smcj_replay_t *out)
{
    memset(out, 0, sizeof *out);
    if (c->kind == SMCJ_CHECK_HOST_ENCODE) {
        replay_host_encode(c, v, bugs, arena, out);
        return;
    }
    if (c->kind == SMCJ_CHECK_ENCODE) {
        /* the value as the runner's host holds it: integers of the one width it has (expect.c) */
        smct_doc_t held;
        if (!smcj_doc_retype(&v->value, c->width, arena, &held)) {
            out->enc.kind = SMCM_UNKNOWN; /* out of memory, recorded */
        } else {
            smcm_encode(bugs.encoder, &held, arena, &out->enc);
        }
        out->has_enc = true;
        return;
    }
    const uint8_t *p;
    size_t n;
    request_bytes(c, v, &p, &n);
    /* the address the runner's codec saw: 1..7 past an aligned one for the placement check
     * (the judge sends the vector's `shift`, spec §3.3), aligned for every other */
    unsigned address = (c->placed && r->decl[v->entry].shift) ? v->shift : 0;
    smcm_decode(bugs.decoder, v->entry, p, n, c->strict, address, arena, &out->dec);
    out->has_dec = true;
    if (c->kind == SMCJ_CHECK_ROUNDTRIP && out->dec.kind == SMCM_VALUE) {
        /* P.2: the host value is encoded again, with the integers the host holds */
        smct_doc_t held;
        if (!smcj_doc_retype(&out->dec.doc, c->width, arena, &held)) {
            out->enc.kind = SMCM_UNKNOWN; /* out of memory, recorded */
        } else {
            smcm_encode(bugs.encoder, &held, arena, &out->enc);
        }
        out->has_enc = true;
    }
}

/* Values compare as the check compares them (expect.c: maps as multisets, integers by value). */
static bool same_value(const smcm_answer_t *x, const smct_doc_t *doc, const smcj_check_t *c)
{
    return x->kind == SMCM_VALUE && smcj_doc_equal_as(&x->doc, doc, c->cmp);
}

/* The runner's answer against a variant's value: by the summary where the runner answered one
 * (P.3, a value too deep or too long to print), as the check compares it otherwise. */
static bool same_answer_value(const smcm_answer_t *x, const smcj_answer_t *a, const smcj_check_t *c)
{
    if (!a->summary) {
        return same_value(x, &a->doc, c);
    }
    smcj_shape_t s;
    return x->kind == SMCM_VALUE && smcj_shape_of_doc(&x->doc, &s) && s.depth == a->shape.depth &&
           s.values == a->shape.values && s.bytes == a->shape.bytes;
}

/* An error answer against the runner's: the class where the runner has error classes (a
 * variant's NULL class is any class) and, where it reports offsets and the variant knows one,
 * the offset. Without error-classes any rejection is the same answer (spec R1.4-14). */
static bool same_error(const smcm_answer_t *x, const smcj_answer_t *a, const smcj_decl_t *d)
{
    if (x->kind != SMCM_ERROR) {
        return false;
    }
    if (x->fault != SMCM_FAULT_NONE) {
        /* a failure the codec does not document (a crash, or a rejection the host survives)
         * of the kind the runner's answer names, or any where it names none known */
        return a->undocumented && (a->fault == SMCM_FAULT_NONE || a->fault == x->fault);
    }
    if (a->undocumented) {
        /* a crash is never a rejection; an unclassified rejection (P.3 `rejected`, whatever
         * the runner declares) is a host's exception, not the codec's documented error: only
         * an error of a class the bug does not determine is one */
        return !a->crash && !x->error_class;
    }
    if (!d->error_classes || !x->error_class) {
        return true;
    }
    if (!a->cls || strcmp(x->error_class, a->cls) != 0) {
        return false;
    }
    /* a variant's missing offset is unknown (a host exception); the runner's is an answer */
    return !d->error_offsets || !x->has_offset || (a->has_offset && x->offset == a->offset);
}

/* Bytes against bytes; the variant's uninitialised padding matches anything. */
static bool same_bytes(const smcm_answer_t *x, const uint8_t *bytes, size_t len)
{
    if (x->kind != SMCM_BYTES || x->len != len) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        if (x->bytes[i] != bytes[i] && !(x->wild && x->wild[i])) {
            return false;
        }
    }
    return true;
}

bool smcj_replay_matches(const smcj_replay_t *p, const smcj_check_t *c, const smcj_vector_t *v,
                         const smcj_runner_t *r, const smcj_answer_t *a)
{
    if (!a->usable) {
        return false;
    }
    const smcj_decl_t *d = &r->decl[v->entry];
    if (c->kind == SMCJ_CHECK_ENCODE || c->kind == SMCJ_CHECK_HOST_ENCODE) {
        return a->kind == SMCM_BYTES ? same_bytes(&p->enc, a->bytes, a->len)
                                     : same_error(&p->enc, a, d);
    }
    if (c->kind != SMCJ_CHECK_ROUNDTRIP) {
        return a->kind == SMCM_VALUE ? same_answer_value(&p->dec, a, c) : same_error(&p->dec, a, d);
    }
    switch (a->kind) {
    case SMCM_VALUE:
        return same_answer_value(&p->dec, a, c);
    case SMCM_BYTES:
        return same_value(&p->dec, &v->value, c) && p->has_enc &&
               same_bytes(&p->enc, a->bytes, a->len);
    case SMCM_ERROR:
        return same_error(&p->dec, a, d) || (p->has_enc && same_error(&p->enc, a, d));
    case SMCM_UNKNOWN:
        break;
    }
    return false;
}

/* A replay's failure that is no rejection fails every check (R1.4-8 for a crash, R1.4-15 for
 * an unclassified rejection); one the host's resources decide predicts nothing. */
static bool faulted(const smcm_answer_t *x, smcj_pred_t *pred)
{
    if (x->kind != SMCM_ERROR || x->fault == SMCM_FAULT_NONE) {
        return false;
    }
    *pred = x->fault_maybe ? SMCJ_PRED_UNKNOWN : SMCJ_PRED_FAIL;
    return true;
}

/* A value is expected; a rejection where the runner lacks a feature the vector needs is a
 * clean one (spec R1.4-13): not a failure. */

static smcj_pred_t expect_value(const smcm_answer_t *x, const smcj_check_t *c,
                                const smcj_vector_t *v)
{
    smcj_pred_t fp;
    if (x->kind == SMCM_UNKNOWN) {
        return SMCJ_PRED_UNKNOWN;
    }
    if (faulted(x, &fp)) {
        return fp;
    }
    if (x->kind == SMCM_ERROR && c->lacks) {
        return SMCJ_PRED_PASS;
    }
    return same_value(x, &v->value, c) ? SMCJ_PRED_PASS : SMCJ_PRED_FAIL;
}

static bool same_class_at(const smcm_answer_t *x, const char *cls, bool has_offset, uint64_t offset,
                          const smcj_decl_t *d)
{
    if (strcmp(x->error_class, cls) != 0) {
        return false;
    }
    return !(has_offset && d->error_offsets) || (x->has_offset && x->offset == offset);
}

/* An error is expected: the class (and offset) the vector names, or, with `alts`, one of its
 * error.alternatives for the check's mode (a permitted order, errors.md §14.2.1). Without
 * error classes any rejection passes (R1.4-14), and so does one where the runner lacks a
 * feature (R1.4-13); a nesting vector held to R1.4-8 only passes on any rejection. */
static smcj_pred_t expect_error(const smcm_answer_t *x, const smcj_check_t *c,
                                const smcj_vector_t *v, const smcj_decl_t *d, const char *cls,
                                bool has_offset, uint64_t offset, bool alts)
{
    smcj_pred_t fp;
    if (x->kind == SMCM_UNKNOWN) {
        return SMCJ_PRED_UNKNOWN;
    }
    if (faulted(x, &fp)) {
        return fp;
    }
    if (x->kind != SMCM_ERROR) {
        /* a value a decoder without depth-limit returns may be the input's own (verdict.c) */
        return c->robustness ? SMCJ_PRED_UNKNOWN : SMCJ_PRED_FAIL;
    }
    if (c->robustness || !d->error_classes) {
        return SMCJ_PRED_PASS;
    }
    if (!x->error_class) {
        return SMCJ_PRED_UNKNOWN;
    }
    if (same_class_at(x, cls, has_offset, offset, d)) {
        return SMCJ_PRED_PASS;
    }
    for (size_t k = 0; alts && k < v->n_order_alts; k++) {
        const smcj_order_alt_t *a = &v->order_alts[k];
        if (a->modes[c->strict ? 1 : 0] && same_class_at(x, a->cls, true, a->offset, d)) {
            return SMCJ_PRED_PASS;
        }
    }
    return c->lacks ? SMCJ_PRED_PASS : SMCJ_PRED_FAIL;
}

/* Bytes are expected: those the check expects (expect.c: the vector's canonical bytes, or its
 * value with integers of the host's width, in some order of the map entries for a host
 * without ordered maps). A refusal where the runner lacks a feature is a clean one. */
static smcj_pred_t expect_bytes(const smcm_answer_t *x, const smcj_check_t *c,
                                const smcj_vector_t *v, smc_arena_t *arena)
{
    if (x->kind == SMCM_UNKNOWN) {
        return SMCJ_PRED_UNKNOWN;
    }
    if (x->kind != SMCM_BYTES) {
        return x->kind == SMCM_ERROR && c->lacks ? SMCJ_PRED_PASS : SMCJ_PRED_FAIL;
    }
    for (size_t i = 0; x->wild && i < x->len; i++) {
        if (x->wild[i]) {
            return SMCJ_PRED_UNKNOWN; /* uninitialised memory may hold the right bytes */
        }
    }
    if (c->width == SMCJ_INTS_BY_TYPE && !c->any_order) {
        return same_bytes(x, v->canonical, v->canonical_len) ? SMCJ_PRED_PASS : SMCJ_PRED_FAIL;
    }
    smct_doc_t doc;
    smct_buf_t want = {0};
    if (!smcj_doc_retype(&v->value, c->width, arena, &doc) ||
        smct_doc_encode(&doc, &want, NULL) != SMC_OK || !smcj_buf_ok(&want)) {
        smct_buf_free(&want);
        return SMCJ_PRED_UNKNOWN;
    }
    bool same = same_bytes(x, (const uint8_t *)want.data, want.len);
    smct_buf_free(&want);
    smcj_cmp_t exact = {false, false};
    return same || (c->any_order &&
                    smcj_canonical_in_some_order(&doc, x->bytes, x->len, exact, arena))
               ? SMCJ_PRED_PASS
               : SMCJ_PRED_FAIL;
}

/* A decode to host: a rejection fails it (but where the runner lacks a feature, R1.4-13),
 * the vector's value passes it (the host value is then the reference's), and another value
 * is a host value the replay cannot tell. */
static smcj_pred_t host_decode_verdict(const smcm_answer_t *x, const smcj_check_t *c,
                                       const smcj_vector_t *v)
{
    smcj_pred_t p = expect_value(x, c, v);
    return p == SMCJ_PRED_FAIL && x->kind == SMCM_VALUE ? SMCJ_PRED_UNKNOWN : p;
}

/* An encode from host the spec refuses (not_encodable, spec §17): the variant's refusal
 * passes it (of that class, where the runner has error classes), bytes fail it. */
static smcj_pred_t host_refusal_verdict(const smcm_answer_t *x, const smcj_decl_t *d)
{
    switch (x->kind) {
    case SMCM_ERROR:
        return !d->error_classes || !x->error_class || strcmp(x->error_class, "not_encodable") == 0
                   ? SMCJ_PRED_PASS
                   : SMCJ_PRED_FAIL;
    case SMCM_BYTES:
        return SMCJ_PRED_FAIL;
    case SMCM_VALUE:
    case SMCM_UNKNOWN:
        break;
    }
    return SMCJ_PRED_UNKNOWN;
}

smcj_pred_t smcj_replay_verdict(const smcj_replay_t *p, const smcj_check_t *c,
                                const smcj_vector_t *v, const smcj_runner_t *r, smc_arena_t *arena)
{
    const smcj_decl_t *d = &r->decl[v->entry];
    switch (c->kind) {
    case SMCJ_CHECK_DECODE:
    case SMCJ_CHECK_DECODE_STRICT:
    case SMCJ_CHECK_ACCEPT:
    case SMCJ_CHECK_LENIENT:
        return expect_value(&p->dec, c, v);
    case SMCJ_CHECK_ACCEPT_STRICT: {
        const char *cls = v->accepted[c->index].strict_class;
        return cls ? expect_error(&p->dec, c, v, d, cls, false, 0, false)
                   : expect_value(&p->dec, c, v);
    }
    case SMCJ_CHECK_REJECT:
        return expect_error(&p->dec, c, v, d, v->err_class, true, v->err_offset, true);
    case SMCJ_CHECK_ENCODE:
        return expect_bytes(&p->enc, c, v, arena);
    case SMCJ_CHECK_ROUNDTRIP: {
        smcj_pred_t dp = expect_value(&p->dec, c, v);
        return dp != SMCJ_PRED_PASS || p->dec.kind != SMCM_VALUE
                   ? dp
                   : expect_bytes(&p->enc, c, v, arena);
    }
    case SMCJ_CHECK_SELF: /* the decode of its canonical bytes, or not modelled */
        return smcj_self_replayable(c) ? expect_value(&p->dec, c, v) : SMCJ_PRED_UNKNOWN;
    case SMCJ_CHECK_HOST_DECODE:
        return v->has_value ? host_decode_verdict(&p->dec, c, v) : SMCJ_PRED_UNKNOWN;
    case SMCJ_CHECK_HOST_ENCODE:
        return v->host_refused ? host_refusal_verdict(&p->enc, d)
                               : expect_bytes(&p->enc, c, v, arena);
    case SMCJ_CHECK_HANDSHAKE:
        break;
    }
    return SMCJ_PRED_UNKNOWN;
}

/* Two variant answers are the same answer (a wildcard only equals a wildcard). */
static bool same_answer(const smcm_answer_t *a, const smcm_answer_t *b)
{
    if (a->kind != b->kind) {
        return false;
    }
    switch (a->kind) {
    case SMCM_VALUE:
        return smct_doc_equal(&a->doc, &b->doc);
    case SMCM_ERROR:
        return a->fault == b->fault && a->fault_maybe == b->fault_maybe &&
               (a->error_class == b->error_class ||
                (a->error_class && b->error_class &&
                 strcmp(a->error_class, b->error_class) == 0)) &&
               a->has_offset == b->has_offset && (!a->has_offset || a->offset == b->offset);
    case SMCM_BYTES:
        return a->len == b->len && (a->len == 0 || memcmp(a->bytes, b->bytes, a->len) == 0);
    case SMCM_UNKNOWN:
        break;
    }
    return true;
}

bool smcj_replay_same(const smcj_replay_t *a, const smcj_replay_t *b)
{
    return a->has_dec == b->has_dec && a->has_enc == b->has_enc &&
           (!a->has_dec || same_answer(&a->dec, &b->dec)) &&
           (!a->has_enc || same_answer(&a->enc, &b->enc));
}
