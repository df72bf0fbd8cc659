/*
 * Self-consistency (spec R1.4-18, self_check.h). The encode check asks whether a codec writes
 * the canonical bytes; this check asks whether it can read what it writes, which no
 * declaration excuses: Android's encoder writes a four-element error envelope that its own
 * decoder rejects (D29), and with `error-stacktrace` undeclared every vector that showed it
 * was n/a. It costs one request only where it can tell something new: when the encoder wrote
 * the canonical bytes and the decode check already read them back to the value, that decode
 * is this check's answer (a codec decodes the same bytes the same way), and it is not sent
 * again. The checks are sent after every other check of the runner (session.c), so the
 * encode answers they need are in and the pipeline never waits on one vector.
 */
#define _POSIX_C_SOURCE 200809L
#include "self_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "results.h"
#include "shape.h"
#include "smct_hex.h"
#include "vectors.h"
#include "verdict.h"

/* Expected texts longer than this are made only for a failure (verdict.c's late texts). */
#define EAGER_TEXT ((size_t)64u << 10)

void smcj_self_expect(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v)
{
    smc_entry_t e = v->entry;
    /* a MUST for every codec: no missing feature or profile makes a refusal clean here */
    free(c->lacks);
    c->lacks = NULL;
    c->lacks_core = false;
    c->skip_is_clean = false;
    c->robustness = false;
    /* a rejection of its own bytes is required; a decoder may stop between depth 64 and 128
     * (R15.1-1, R15.1-2), so reading back a value that deep is held to the tier of the
     * vector's own decode (and another value always is: smcj_self_verdict) */
    c->tier = smcj_vector_has_feature(v, "depth-limit") ? v->mode_tier[0] : SMCJ_TIER_REQUIRED;
    /* what the host lost on the way out it cannot have on the way back: integers by value if
     * either direction has one integer type (or writes every integer as int64), maps as
     * multisets if either direction's maps do not keep order */
    c->cmp.ints_by_value = !smcj_declares(r, e, 0, "int64-distinct") ||
                           !smcj_declares(r, e, 1, "int64-distinct") || r->decl[e].pigeon_int64;
    c->cmp.unordered_maps =
        !smcj_declares(r, e, 0, "map-order") || !smcj_declares(r, e, 1, "map-order");
}

/* Hex characters of own bytes kept in this judge run (never given back: a budget of the run,
 * so a runner that writes long wrong bytes for every value costs the judge a bounded amount;
 * the judge is single-threaded). */
static size_t g_held;

void smcj_self_note_encode(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp)
{
    const smct_json_t *h = smct_json_get(resp, "hex");
    if ((c->outcome == SMCJ_OUT_FAIL && c->reason == SMCJ_REASON_PROTOCOL_ERROR) || !h ||
        h->type != SMCT_JSON_STRING) {
        return; /* no bytes (P.3 null), or not hex: nothing of its own to read back */
    }
    c->wrote_bytes = true;
    free(c->own_hex);
    c->own_hex = NULL;
    if (h->str.len != strlen(v->canonical_hex) ||
        memcmp(h->str.ptr, v->canonical_hex, h->str.len) != 0) {
        /* held until the self check is sent, after every other check: bounded, or a runner
         * answering every encode with a long wrong value makes the judge hold them all */
        c->own_too_long = h->str.len > SMCJ_SELF_MAX_HEX ||
                          h->str.len > SMCJ_SELF_MAX_HELD - g_held; /* the run's budget */
        c->own_hex = c->own_too_long ? NULL : smcj_strndup(h->str.ptr, h->str.len);
        g_held += c->own_hex ? h->str.len : 0;
    }
}

/* The encode check and the aligned flutter-mode decode check of the self check's vector. */
static void twins(smcj_runner_t *r, size_t ci, smcj_check_t **enc, smcj_check_t **dec)
{
    size_t vi = r->checks[ci].vector, b = ci;
    while (b > 0 && r->checks[b - 1].vector == vi) {
        b--;
    }
    *enc = *dec = NULL;
    for (size_t k = b; k < r->n_checks && r->checks[k].vector == vi; k++) {
        smcj_check_t *c = &r->checks[k];
        if (c->kind == SMCJ_CHECK_ENCODE) {
            *enc = c;
        } else if (c->kind == SMCJ_CHECK_DECODE && !c->placed && !c->strict) {
            *dec = c;
        }
    }
}

static smcj_self_step_t decided(smcj_check_t *c, smcj_outcome_t outcome, char *detail)
{
    c->outcome = outcome;
    free(c->detail);
    c->detail = detail;
    return SMCJ_SELF_DECIDED;
}

smcj_self_step_t smcj_self_prepare(smcj_runner_t *r, size_t ci)
{
    smcj_check_t *c = &r->checks[ci];
    if (c->own_hex) {
        return SMCJ_SELF_SEND; /* sent before a restart: the bytes are its own now */
    }
    smcj_check_t *enc, *dec;
    twins(r, ci, &enc, &dec);
    if (enc && (enc->outcome == SMCJ_OUT_PENDING || (dec && dec->outcome == SMCJ_OUT_PENDING))) {
        return SMCJ_SELF_WAIT;
    }
    if (!enc || !enc->wrote_bytes) {
        const char *why = !enc                          ? "there is no encode check"
                          : enc->outcome == SMCJ_OUT_NA ? "its encode check is not applicable"
                          : smcj_reason_is_harness(enc->reason)
                              ? "its encode check failed without an answer"
                              : "its encoder wrote no bytes for it (refused, skipped or no "
                                "message)";
        return decided(c, SMCJ_OUT_NA,
                       smcj_asprintf("nothing of its own to read back: %s (spec R1.4-18)", why));
    }
    if (enc->own_too_long) {
        return decided(
            c, SMCJ_OUT_NA,
            smcj_asprintf("its own bytes are not the canonical ones, and the judge keeps "
                          "no more than %u bytes of them for one check and %u for a "
                          "run, to send back (spec R1.4-18)",
                          (unsigned)(SMCJ_SELF_MAX_HEX / 2), (unsigned)(SMCJ_SELF_MAX_HELD / 2)));
    }
    if (!enc->own_hex && dec && dec->outcome == SMCJ_OUT_PASS) {
        c->self_by_decode = true;
        return decided(c, SMCJ_OUT_PASS,
                       smcj_strdup("it wrote the canonical bytes, which its decode check read "
                                   "back to the value (spec R1.4-18)"));
    }
    /* The canonical bytes, which the decode check read and failed on at the required tier
     * (a crash, a hang, another value, a required rejection): that failure stands, and the
     * same request again could only cost another restart. Sent are the canonical bytes whose
     * rejection a declaration or a tier excused there (a clean refusal, a listed behaviour). */
    if (!enc->own_hex && dec && dec->outcome == SMCJ_OUT_FAIL &&
        (smcj_check_tier(dec) == SMCJ_TIER_REQUIRED ||
         (dec->reason != SMCJ_REASON_UNEXPECTED_ERROR &&
          dec->reason != SMCJ_REASON_UNCLASSIFIED))) {
        return decided(c, SMCJ_OUT_NA,
                       smcj_asprintf("it wrote the canonical bytes, and its decode check of them "
                                     "failed (%s), which stands (spec R1.4-18)",
                                     smcj_reason_name(dec->reason)));
    }
    /* the bytes move to this check: held once, and only until it is answered */
    c->own_hex = enc->own_hex;
    enc->own_hex = NULL;
    return SMCJ_SELF_SEND;
}

void smcj_self_request_line(smct_buf_t *b, unsigned long long seq, const smcj_vector_t *v,
                            const smcj_check_t *c)
{
    /* a P.2 request line: protocol text, byte-exact as plan.c's; own_hex is the runner's
     * answer, checked as lower-case hex before it was kept (verdict.c) */
    smct_buf_printf(b,
                    "{\"seq\":%llu,\"op\":\"decode\",\"entry\":\"%s\",\"hex\":\"%s\","
                    "\"mode\":\"flutter\"}",
                    seq, smct_entry_name(v->entry), c->own_hex ? c->own_hex : v->canonical_hex);
}

static bool is_rejection(const char *status)
{
    return strcmp(status, "error") == 0 || strcmp(status, "not_implemented") == 0 ||
           strcmp(status, "rejected") == 0;
}

/* True if `got` is what the reference reads in the codec's own (non-canonical) bytes: the
 * codec read back what it wrote, and the encode check fails the bytes themselves. */
static bool reads_as_written(const smcj_check_t *c, const smcj_vector_t *v, const smct_doc_t *got,
                             smc_arena_t *arena)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (!c->own_hex ||
        smct_hex_decode_strict_new(c->own_hex, strlen(c->own_hex), &bytes, &len, NULL) != SMCT_OK) {
        return false;
    }
    smc_decode_opts_t deepest = {SMC_MODE_FLUTTER, SMC_MAX_DEPTH_LIMIT};
    smct_doc_t want;
    bool same = smct_doc_decode(bytes, len, v->entry, &deepest, arena, &want, NULL) == SMC_OK &&
                smcj_doc_equal_as(&want, got, c->cmp);
    free(bytes);
    return same;
}

void smcj_self_verdict(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                       const char *status, smc_arena_t *arena)
{
    const char *whose = c->own_hex ? "the bytes its encoder wrote for this value (not the "
                                     "canonical ones: the encode check shows them)"
                                   : "the canonical bytes its encoder wrote for this value";
    if (strlen(v->value_text) <= EAGER_TEXT) {
        c->expected = smcj_strdup(v->value_text);
    }
    if (is_rejection(status)) {
        c->actual = smcj_error_text(resp);
        smcj_check_fail(c, SMCJ_REASON_UNEXPECTED_ERROR,
                        smcj_asprintf("it cannot read what it writes: its decoder rejected %s "
                                      "(spec R1.4-18)",
                                      whose));
        return;
    }
    smct_doc_t got;
    smcj_shape_t shape, want;
    int kind = smcj_read_decoded(c, v, resp, arena, &got, &shape);
    if (kind == 0) {
        return;
    }
    bool same = kind == 1 ? smcj_doc_equal_as(&v->value, &got, c->cmp) ||
                                reads_as_written(c, v, &got, arena)
                          : smcj_shape_of_doc(&v->value, &want) && want.depth == shape.depth &&
                                want.values == shape.values && want.bytes == shape.bytes;
    if (same) {
        c->outcome = SMCJ_OUT_PASS;
        free(c->own_hex); /* a failure keeps them, for its replay line */
        c->own_hex = NULL;
        return;
    }
    /* reading is not in doubt, the value is: the rules broken are those of the vector's
     * decode (a BOM kept or dropped, R5.1-3, stays implementation-defined) */
    c->tier = v->mode_tier[0];
    smcj_check_fail(c, SMCJ_REASON_WRONG_VALUE,
                    smcj_asprintf("it reads back another value than it was given, from %s "
                                  "(spec R1.4-18, at the tier of the vector's decode)",
                                  whose));
}

void smcj_self_count(smcj_runner_t *r)
{
    r->n_self_checked = r->n_self_sent = r->n_self_failed = 0;
    for (size_t k = 0; k < r->n_checks; k++) {
        const smcj_check_t *c = &r->checks[k];
        if (c->kind != SMCJ_CHECK_SELF || c->outcome == SMCJ_OUT_NA ||
            c->outcome == SMCJ_OUT_PENDING) {
            continue;
        }
        r->n_self_checked++;
        r->n_self_sent += !c->self_by_decode;
        r->n_self_failed += c->outcome == SMCJ_OUT_FAIL;
    }
}

void smcj_self_note(const smcj_runner_t *r, void (*emit)(void *ctx, const char *note), void *ctx)
{
    if (r->n_self_checked == 0) {
        return;
    }
    char line[400];
    snprintf(line, sizeof line,
             "self-consistency (spec R1.4-18): %zu value vector%s read back from the codec's own "
             "bytes (%zu decoded again; the others were the canonical bytes its decode check "
             "read); %zu it cannot read back",
             r->n_self_checked, r->n_self_checked == 1 ? "" : "s", r->n_self_sent,
             r->n_self_failed);
    emit(ctx, line);
}
