/*
 * Verdicts on protocol-valid responses (runners/PROTOCOL.md P.3, P.5). What each check
 * expects was fixed when it was planned (expect.c, from the runner's declaration, spec §1.4):
 * how values compare (exactly, maps as multisets, integers by value), which bytes an encoder
 * must write, which lacked features make a clean rejection acceptable, and whether a nesting
 * vector is held to R1.4-8 only. Errors compare by class (spec/errors.md §14.1) for runners
 * with error classes, and by offset only for runners that declare error-offsets. Everything a
 * runner said is kept as printable text for the reports, cut to a bound: a runner's output is
 * never trusted to be small or UTF-8.
 */
#define _POSIX_C_SOURCE 200809L
#include "host_vectors.h"
#include "verdict.h"

#include "protocol_check.h"
#include "self_check.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "merge_keys.h"
#include "shape.h"
#include "vectors.h"
#include "smct_hex.h"
#include "smct_notation.h"

/* Expected and actual texts longer than this are made only for a check that fails: a 64 MiB
 * value must not be copied twice more for each check that passes. */
#define EAGER_TEXT ((size_t)64u << 10)

/* The deepest value a runner prints; a deeper one must come as a summary (P.3). */
#define PRINTABLE_DEPTH 500u

static char *json_text(const smct_json_t *j)
{
    smct_buf_t b = {0};
    smct_json_write(&b, j);
    return smcj_buf_take(&b);
}

static void fail(smcj_check_t *c, smcj_reason_t reason, char *detail)
{
    c->outcome = SMCJ_OUT_FAIL;
    c->reason = reason;
    free(c->detail);
    c->detail = detail;
}

/*
 * spec R1.4-13: the runner lacks a feature the check needs and rejected (or skipped) cleanly:
 * `unsupported` for a core feature, n/a for a profile, never a pass and never a failure.
 */
static void clean(smcj_check_t *c, const char *what)
{
    c->outcome = c->lacks_core ? SMCJ_OUT_UNSUPPORTED : SMCJ_OUT_NA;
    c->clean_refusal = true;
    c->reason = SMCJ_REASON_NONE;
    free(c->detail);
    c->detail = c->lacks
                    ? smcj_asprintf("%s; the runner lacks %s (spec R1.4-13: a clean rejection)",
                                    what, c->lacks)
                    : smcj_asprintf("%s; the runner's host cannot hold this value", what);
}

/*
 * The detail of another value where the runner lacks a feature: a silent loss, which breaks
 * R1.4-13 (a MUST on every vector, so the check is gated whatever the vector's tier; the
 * report never calls a loss informational).
 */
static char *loss(smcj_check_t *c, const char *what)
{
    c->silent_loss = c->lacks != NULL;
    return c->lacks
               ? smcj_asprintf(
                     "%s: a silent loss (the runner lacks %s, so it must reject or skip, R1.4-13)",
                     what, c->lacks)
               : smcj_strdup(what);
}

/*
 * spec §1.1: on a check whose tier is implementation-defined, the first alternative of the
 * vector's notes whose outcome is this error (`cls`, NULL for none, offset when the runner
 * reports them) or this decoded value. Sets c->alt and names it in c->detail; the check stays
 * failed (its vector then differs, named).
 */
static void note_alternative(smcj_check_t *c, const smcj_vector_t *v, int k)
{
    c->alt = k;
    char *d = smcj_asprintf("%s; behaves like %s: %s", c->detail ? c->detail : "", v->alts[k].who,
                            v->alts[k].behaviour);
    free(c->detail);
    c->detail = d;
}

/*
 * spec §7.3 (decision of vectors 0.3): keys that differ only in what the runner's host cannot
 * hold (integer width, without int64-distinct) are duplicates for it, and keeping one of them
 * with the first or the last value is R7.3-2, implementation-defined: the check differs,
 * named, instead of failing R7.3-3.
 */
static bool match_host_duplicates(smcj_check_t *c, const smcj_vector_t *v, const smct_doc_t *got,
                                  smc_arena_t *arena)
{
    if (c->alt >= 0 || !c->cmp.ints_by_value || !smcj_doc_has_merged_keys(&v->value, c->cmp) ||
        !smcj_is_host_merge(&v->value, got, c->cmp, arena)) {
        return false;
    }
    c->tier = SMCJ_TIER_IMPLDEF;
    c->host_merge = true; /* a behaviour R7.3-2 permits, whether or not the notes list it */
    char *d = smcj_asprintf("%s; keys equal by value are one key for a host with one integer "
                            "type: duplicates, first or last value kept (spec §7.3, R7.3-2)",
                            c->detail ? c->detail : "");
    free(c->detail);
    c->detail = d;
    return true;
}

static bool class_is(const smct_json_t *cls, const char *want)
{
    return cls && cls->type == SMCT_JSON_STRING && cls->str.len == strlen(want) &&
           memcmp(cls->str.ptr, want, cls->str.len) == 0;
}

static void match_alt_error(smcj_check_t *c, const smcj_decl_t *d, const smcj_vector_t *v,
                            const smct_json_t *cls, const smct_json_t *off)
{
    if (c->tier != SMCJ_TIER_IMPLDEF) {
        return;
    }
    uint64_t o = 0;
    bool have_off = smct_json_get_u64(off, &o);
    for (size_t k = 0; k < v->n_alts; k++) {
        const smcj_alternative_t *a = &v->alts[k];
        if (a->kind != SMCJ_ALT_ERROR) {
            continue;
        }
        bool cls_ok = !a->cls || !d->error_classes || class_is(cls, a->cls);
        bool off_ok = !a->has_offset || !d->error_offsets || (have_off && o == a->offset);
        if (cls_ok && off_ok) {
            note_alternative(c, v, (int)k);
            return;
        }
    }
}

static bool match_alt_value(smcj_check_t *c, const smcj_vector_t *v, const smct_doc_t *got)
{
    if (c->tier != SMCJ_TIER_IMPLDEF) {
        return false;
    }
    for (size_t k = 0; k < v->n_alts; k++) {
        if (v->alts[k].kind == SMCJ_ALT_VALUE &&
            smcj_doc_equal_as(&v->alts[k].value, got, c->cmp)) {
            note_alternative(c, v, (int)k);
            return true;
        }
    }
    return false;
}

/* An error as the reports print it: "class @ offset — message", the message cut to a bound;
 * "(no class)" for a runner whose codec has none, "not implemented" for that answer. */
static char *error_text(const smct_json_t *resp)
{
    const smct_json_t *cls = smct_json_get(resp, "class");
    const smct_json_t *off = smct_json_get(resp, "offset");
    const smct_json_t *msg = smct_json_get(resp, "message");
    smct_buf_t b = {0};
    const smct_json_t *kind = smct_json_get(resp, "kind");
    if (smct_json_is_str(smct_json_get(resp, "status"), "not_implemented")) {
        smct_buf_puts(&b, "not implemented");
    } else if (smct_json_is_str(smct_json_get(resp, "status"), "rejected") && kind &&
               kind->type == SMCT_JSON_STRING) {
        smct_buf_puts(&b, "unclassified rejection ");
        smcj_buf_excerpt(&b, kind->str.ptr, kind->str.len, 100);
    } else if (cls && cls->type == SMCT_JSON_STRING) {
        smcj_buf_excerpt(&b, cls->str.ptr, cls->str.len, 100);
    } else {
        smct_buf_puts(&b, "(no class)");
    }
    uint64_t o;
    if (smct_json_get_u64(off, &o)) {
        smct_buf_printf(&b, " @ %llu", (unsigned long long)o);
    } else {
        smct_buf_puts(&b, " @ (no offset)");
    }
    if (msg && msg->type == SMCT_JSON_STRING) {
        smct_buf_puts(&b, " — ");
        smcj_buf_excerpt(&b, msg->str.ptr, msg->str.len, 300);
    }
    return smcj_buf_take(&b);
}

/* P.3: `rejected` is a rejection without a class (an unclassified one, spec R1.4-15) */
static bool is_rejection(const char *status)
{
    return strcmp(status, "error") == 0 || strcmp(status, "not_implemented") == 0 ||
           strcmp(status, "rejected") == 0;
}

/* P.3 `summary`: depth, values and bytes, each a non-negative integer; false otherwise. */
static bool read_summary(const smct_json_t *j, smcj_shape_t *out)
{
    return j && j->type == SMCT_JSON_OBJECT &&
           smct_json_get_u64(smct_json_get(j, "depth"), &out->depth) &&
           smct_json_get_u64(smct_json_get(j, "values"), &out->values) &&
           smct_json_get_u64(smct_json_get(j, "bytes"), &out->bytes);
}

static bool shape_eq(const smcj_shape_t *a, const smcj_shape_t *b)
{
    return a->depth == b->depth && a->values == b->values && a->bytes == b->bytes;
}

static char *shape_text(const smcj_shape_t *s)
{
    return smcj_asprintf("a value nested %llu deep, of %llu values and %llu bytes",
                         (unsigned long long)s->depth, (unsigned long long)s->values,
                         (unsigned long long)s->bytes);
}

/* The decoded item of an ok answer: 1 a value (in `got`), 2 a summary (in `shape`), 0 when
 * the answer is not one (the check has failed with protocol_error). */
static int read_decoded(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                        smc_arena_t *arena, smct_doc_t *got, smcj_shape_t *shape)
{
    const smct_json_t *jv = smct_json_get(resp, "value");
    const smct_json_t *js = smct_json_get(resp, "summary");
    if (!jv && js) {
        if (!read_summary(js, shape)) {
            fail(c, SMCJ_REASON_PROTOCOL_ERROR,
                 smcj_strdup("\"summary\" needs non-negative integers \"depth\", \"values\", "
                             "\"bytes\" (P.3)"));
            return 0;
        }
        c->actual = json_text(js);
        return 2;
    }
    if (!jv) {
        fail(c, SMCJ_REASON_PROTOCOL_ERROR,
             smcj_strdup("an \"ok\" decode response has no \"value\" (P.3)"));
        return 0;
    }
    if (jv->end - jv->offset <= EAGER_TEXT) {
        c->actual = json_text(jv); /* larger: only on failure (smcj_verdict) */
    }
    smct_error_t e;
    smct_status_t st = smct_notation_read(jv, v->entry, arena, got, &e);
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem(); /* not the runner's fault: no verdict */
        return 0;
    }
    if (st != SMCT_OK) {
        fail(c, SMCJ_REASON_PROTOCOL_ERROR,
             smcj_asprintf("\"value\" is not valid %s notation: %s", smct_entry_name(v->entry),
                           e.message ? e.message : "?"));
        return 0;
    }
    return 1;
}

/* The notation length above which a runner answers with a summary (P.3). */
#define PRINTABLE_LINE ((size_t)16 << 20)

/*
 * P.3: a value deeper than 500 levels or longer than 16 MiB in notation comes as its summary,
 * and is then compared by it (depth, values, bytes): a 20 MB byte array passes this way (its
 * bytes are compared byte for byte by the round trip). A summary of a value that must be
 * printed is a protocol error.
 */
static void summary_of_value(smcj_check_t *c, const smcj_vector_t *v, const smcj_shape_t *got)
{
    smcj_shape_t want;
    if (!smcj_shape_of_doc(&v->value, &want)) {
        return; /* out of memory (recorded): no verdict */
    }
    if (want.depth <= PRINTABLE_DEPTH && strlen(v->value_text) <= PRINTABLE_LINE) {
        fail(c, SMCJ_REASON_PROTOCOL_ERROR,
             smcj_strdup(
                 "a summary for a value that must be printed (P.3: only deeper than 500 levels, or "
                 "longer than 16 MiB)"));
        return;
    }
    if (!shape_eq(&want, got)) {
        free(c->expected);
        c->expected = shape_text(&want);
        c->act_summary = true;
        c->act_shape = *got;
        fail(c, SMCJ_REASON_WRONG_VALUE,
             smcj_strdup("the summary of the decoded value differs from the vector's value's"));
        return;
    }
    c->outcome = SMCJ_OUT_PASS;
}

/* The check wants the vector's value; a rejection, another value or a value that is not
 * notation fails, unless the runner lacks a feature the value needs and rejected cleanly. */
static void expect_value(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                         const char *status, const smcj_decl_t *d, smc_arena_t *arena)
{
    if (strlen(v->value_text) <= EAGER_TEXT) {
        c->expected = smcj_strdup(v->value_text); /* larger: only on failure (smcj_verdict) */
    }
    if (is_rejection(status)) {
        c->actual = error_text(resp);
        if (c->lacks) {
            clean(c, "rejected");
            return;
        }
        fail(c, SMCJ_REASON_UNEXPECTED_ERROR,
             smcj_asprintf("expected a value, runner reported %s", status));
        match_alt_error(c, d, v, smct_json_get(resp, "class"), smct_json_get(resp, "offset"));
        return;
    }
    smct_doc_t got;
    smcj_shape_t shape;
    int kind = read_decoded(c, v, resp, arena, &got, &shape);
    if (kind == 0) {
        return;
    }
    if (kind == 2) {
        summary_of_value(c, v, &shape);
        return;
    }
    if (!smcj_doc_equal_as(&v->value, &got, c->cmp)) {
        const char *how =
            c->cmp.unordered_maps && c->cmp.ints_by_value
                ? "decoded value differs (maps as multisets, integers by value)"
            : c->cmp.unordered_maps ? "decoded value differs (maps compared as multisets)"
            : c->cmp.ints_by_value  ? "decoded value differs (integers compared by value)"
                                    : "decoded value differs";
        /* spec §1.1: a behaviour the vector lists is informational, not a silent loss, even
         * where the runner lacks a feature (DART decodes tag 5 as a String without largeint) */
        fail(c, SMCJ_REASON_WRONG_VALUE, smcj_strdup(how));
        if (!match_alt_value(c, v, &got) && !match_host_duplicates(c, v, &got, arena)) {
            free(c->detail);
            c->detail = loss(c, how);
        }
        return;
    }
    c->outcome = SMCJ_OUT_PASS;
}

/* P.3: an accepted reject vector, with what was accepted. The vector's own bombs and a summary
 * are "the bomb" (a codec that accepts one must be reportable as such, not as a harness fault). */
static void accepted(smcj_check_t *c, const smcj_vector_t *v, const char *want,
                     const smcj_shape_t *shape)
{
    bool bomb = shape != NULL || strncmp(v->section, "15", 2) == 0;
    char *s = shape ? shape_text(shape) : NULL;
    fail(c, SMCJ_REASON_UNEXPECTED_SUCCESS,
         bomb ? smcj_asprintf("accepted the bomb%s%s (expected error %s)", s ? ": " : "",
                              s ? s : "", want)
              : smcj_asprintf("expected error %s, runner decoded a value", want));
    c->accepted_bomb = bomb;
    if (shape) { /* a value too large to print: the diagnosis compares its summary */
        c->act_summary = true;
        c->act_shape = *shape;
    }
    free(s);
}

/*
 * The error the vector names, or (reject checks) one of error.alternatives for this mode,
 * which passes too: the outcome of a permitted order of checks (errors.md §14.2.1). Without
 * error classes any rejection passes (spec R1.4-14); the class is shown, not compared.
 */
static void expect_error(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                         const char *status, const smcj_decl_t *d, const char *want_class,
                         bool has_offset, uint64_t want_offset, bool use_order_alts,
                         smc_arena_t *arena)
{
    bool offsets = has_offset && d->error_offsets;
    c->expected = offsets ? smcj_asprintf("%s @ %llu", want_class, (unsigned long long)want_offset)
                          : smcj_asprintf("%s%s", want_class,
                                          d->error_classes ? "" : " (any class: no error-classes)");
    if (!is_rejection(status)) {
        smct_doc_t got;
        smcj_shape_t shape;
        int kind = read_decoded(c, v, resp, arena, &got, &shape);
        if (kind == 0) {
            return;
        }
        accepted(c, v, want_class, kind == 2 ? &shape : NULL);
        if (kind == 1) {
            match_alt_value(c, v, &got);
        }
        return;
    }
    const smct_json_t *cls = smct_json_get(resp, "class");
    const smct_json_t *off = smct_json_get(resp, "offset");
    c->actual = error_text(resp);
    if (!d->error_classes || strcmp(status, "rejected") == 0) {
        /* R1.4-14: rejecting is what is compared; an unclassified rejection has no class to
         * compare, and fails R1.4-15 instead (unclassified(), below) */
        c->outcome = SMCJ_OUT_PASS;
        return;
    }
    uint64_t got = 0;
    bool have_off = smct_json_get_u64(off, &got);
    if (class_is(cls, want_class) && (!offsets || (have_off && got == want_offset))) {
        c->outcome = SMCJ_OUT_PASS;
        return;
    }
    for (size_t k = 0; use_order_alts && k < v->n_order_alts; k++) {
        const smcj_order_alt_t *a = &v->order_alts[k];
        if (a->modes[c->strict ? 1 : 0] && class_is(cls, a->cls) &&
            (!offsets || (have_off && got == a->offset))) {
            c->order_alt = (int)k;
            c->outcome = SMCJ_OUT_PASS;
            return;
        }
    }
    if (c->lacks) {
        clean(c, "rejected with another class or offset (it met a byte it cannot read first)");
        return;
    }
    if (!cls || cls->type != SMCT_JSON_STRING) {
        fail(c, SMCJ_REASON_WRONG_CLASS,
             smcj_asprintf("expected class %s; the runner declares error-classes but gave none",
                           want_class));
    } else if (!class_is(cls, want_class)) {
        smct_buf_t shown = {0};
        smcj_buf_excerpt(&shown, cls->str.ptr, cls->str.len, 100);
        fail(c, SMCJ_REASON_WRONG_CLASS,
             smcj_asprintf("expected class %s, got %s", want_class, smcj_buf_text(&shown)));
        smct_buf_free(&shown);
    } else if (!have_off) {
        fail(c, SMCJ_REASON_WRONG_OFFSET,
             smcj_asprintf("runner declares error-offsets but gave no offset (expected %llu)",
                           (unsigned long long)want_offset));
    } else {
        fail(c, SMCJ_REASON_WRONG_OFFSET,
             smcj_asprintf("expected offset %llu, got %llu", (unsigned long long)want_offset,
                           (unsigned long long)got));
    }
    match_alt_error(c, d, v, cls, off);
}

/*
 * A nesting vector for a runner without depth-limit (spec §1.4, §15.1): R1.4-8 only. Any
 * rejection passes; a value (or a summary) passes when it is the input's own value, which
 * the reference gives up to its deepest limit and the shape scan beyond it; another value,
 * or accepting an input that is invalid at any depth, fails.
 */
static void expect_robust(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                          const char *status, smc_arena_t *arena)
{
    c->expected =
        smcj_strdup("a value or an error, no crash, no hang (R1.4-8; no depth-limit declared, so "
                    "the class depth_limit is not compared)");
    if (is_rejection(status)) {
        c->actual = error_text(resp);
        c->outcome = SMCJ_OUT_PASS;
        return;
    }
    smct_doc_t got;
    smcj_shape_t shape;
    int kind = read_decoded(c, v, resp, arena, &got, &shape);
    if (kind == 0) {
        return;
    }
    c->accepted_bomb = true;
    smc_decode_opts_t deepest = {c->strict ? SMC_MODE_STRICT : SMC_MODE_FLUTTER,
                                 SMC_MAX_DEPTH_LIMIT};
    smct_doc_t want;
    smc_error_t err = {SMC_OK, 0};
    smc_status_t st = smct_doc_decode(v->bytes, v->len, v->entry, &deepest, arena, &want, &err);
    smcj_shape_t expected;
    if (st == SMC_OK) {
        if (kind == 1 ? smcj_doc_equal_as(&want, &got, c->cmp)
                      : smcj_shape_of_doc(&want, &expected) && shape_eq(&expected, &shape) &&
                            expected.depth > PRINTABLE_DEPTH) {
            c->outcome = SMCJ_OUT_PASS;
            return;
        }
        fail(c, SMCJ_REASON_WRONG_VALUE,
             smcj_strdup("accepted the input but decoded another value"));
        return;
    }
    const char *cls = NULL;
    uint64_t offset = 0;
    if (st == SMC_ERR_DEPTH &&
        smcj_shape_of_input(v->bytes, v->len, v->entry, &expected, &cls, &offset)) {
        if (kind == 1 && !smcj_shape_of_doc(&got, &shape)) {
            return; /* out of memory */
        }
        if (shape_eq(&expected, &shape)) {
            c->outcome = SMCJ_OUT_PASS;
            return;
        }
        char *e = shape_text(&expected), *a = shape_text(&shape);
        fail(c, SMCJ_REASON_WRONG_VALUE,
             smcj_asprintf("accepted the bomb as %s; the input holds %s", a, e));
        free(e);
        free(a);
        return;
    }
    /* invalid whatever the depth: a decoder without a limit must reject it too */
    char *e = smcj_asprintf("%s at %llu", cls ? cls : smc_status_class(st),
                            (unsigned long long)(cls ? offset : err.offset));
    accepted(c, v, e, kind == 2 ? &shape : NULL);
    free(e);
}

/* The bytes the check expects: the vector's canonical bytes, or those of its value with the
 * integers written as the runner's host writes them (R4.2-4, R12.3-1). NULL: out of memory. */
static smct_buf_t *expected_bytes(const smcj_check_t *c, const smcj_vector_t *v, smc_arena_t *arena,
                                  smct_doc_t *doc, smct_buf_t *buf)
{
    smct_buf_init(buf);
    if (!smcj_doc_retype(&v->value, c->width, arena, doc)) {
        smcj_nomem();
        return NULL;
    }
    if (c->width == SMCJ_INTS_BY_TYPE) {
        smct_buf_append(buf, v->canonical, v->canonical_len);
    } else if (smct_doc_encode(doc, buf, NULL) != SMC_OK) {
        smct_buf_free(buf);
        smct_buf_init(buf);
        smct_buf_append(buf, v->canonical, v->canonical_len); /* cannot happen for a valid vector */
    }
    return smcj_buf_ok(buf) ? buf : NULL;
}

/* The check wants the expected bytes in resp["hex"]; true if they matched (for a host without
 * ordered maps, in some order of the entries). On a mismatch both byte strings are kept for the
 * reports' hex diff. */
static bool expect_bytes(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                         smc_arena_t *arena)
{
    const smct_json_t *h = smct_json_get(resp, "hex");
    if (h && h->type == SMCT_JSON_NULL) {
        free(c->expected);
        c->expected = smcj_strdup(v->canonical_hex);
        free(c->actual);
        c->actual = smcj_strdup("(no bytes)");
        fail(c, SMCJ_REASON_WRONG_BYTES,
             loss(c, "the encoder produced no message at all (P.3 no bytes)"));
        return false;
    }
    if (!h || h->type != SMCT_JSON_STRING) {
        fail(c, SMCJ_REASON_PROTOCOL_ERROR,
             smcj_strdup("an \"ok\" encode response has no string \"hex\" (P.3)"));
        return false;
    }
    uint8_t *bytes;
    size_t len;
    smct_status_t st = smct_hex_decode_strict_new(h->str.ptr, h->str.len, &bytes, &len, NULL);
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem();
        return false;
    }
    if (st != SMCT_OK) {
        fail(c, SMCJ_REASON_PROTOCOL_ERROR,
             smcj_strdup("\"hex\" is not lower-case hex with an even number of digits"));
        return false;
    }
    smct_doc_t doc;
    smct_buf_t want;
    if (!expected_bytes(c, v, arena, &doc, &want)) {
        free(bytes);
        return false;
    }
    bool same = len == want.len && (len == 0 || memcmp(bytes, want.data, len) == 0);
    smcj_cmp_t exact = {false, false};
    if (same || (c->any_order && smcj_canonical_in_some_order(&doc, bytes, len, exact, arena))) {
        free(bytes);
        smct_buf_free(&want);
        return true;
    }
    size_t first = 0;
    while (first < len && first < want.len && bytes[first] == (uint8_t)want.data[first]) {
        first++;
    }
    free(c->expected);
    free(c->actual);
    c->expected = smcj_malloc(2 * want.len + 1);
    if (c->expected) {
        smct_hex_encode((const uint8_t *)want.data, want.len, c->expected);
        c->expected[2 * want.len] = '\0';
    }
    c->actual = smcj_strndup(h->str.ptr, h->str.len);
    c->exp_len = want.len;
    c->exp_bytes = (uint8_t *)smcj_buf_take(&want);
    c->act_bytes = bytes;
    c->act_len = len;
    const char *how = c->width == SMCJ_INTS_BY_VALUE ? " (integers written by value, R4.2-4)"
                      : c->width == SMCJ_INTS_INT64
                          ? " (every integer as int64, R12.3-1: pigeon-int64)"
                          : "";
    char *what = smcj_asprintf("bytes differ at offset %zu%s%s", first, how,
                               c->any_order && smcj_vector_has_feature(v, "map-order")
                                   ? ", in every order of the map entries"
                                   : "");
    fail(c, SMCJ_REASON_WRONG_BYTES, loss(c, what ? what : "bytes differ"));
    free(what);
    return false;
}

/* The answer's envelope fields before its meaning (P.3). False with a protocol_error. */
static bool well_formed(smcj_check_t *c, const smcj_runner_t *r, const smct_json_t *resp,
                        const char *status)
{
    if (strcmp(status, "rejected") == 0 || strcmp(status, "crash") == 0) {
        /* P.3: the host's name for the failure is what the reports group by */
        const smct_json_t *kind = smct_json_get(resp, "kind");
        if (!kind || kind->type != SMCT_JSON_STRING || kind->str.len == 0 ||
            memchr(kind->str.ptr, '\0', kind->str.len)) {
            if (strcmp(status, "crash") == 0) {
                return true; /* a crash fails at every tier whatever it is called */
            }
            fail(c, SMCJ_REASON_PROTOCOL_ERROR,
                 smcj_strdup("a \"rejected\" response without a non-empty string \"kind\" (P.3)"));
            return false;
        }
        c->act_kind = smcj_strndup(kind->str.ptr, kind->str.len > 100 ? 100 : kind->str.len);
        return true;
    }
    if (strcmp(status, "error") != 0) {
        return true;
    }
    const smct_json_t *cls = smct_json_get(resp, "class");
    const smct_json_t *off = smct_json_get(resp, "offset");
    uint64_t o;
    /* version 1 required a class; version 2 allows none (no error-classes, P.3) */
    bool no_class = !cls || cls->type == SMCT_JSON_NULL;
    if ((no_class && r->protocol < 2) ||
        (!no_class && (cls->type != SMCT_JSON_STRING || cls->str.len == 0 ||
                       memchr(cls->str.ptr, '\0', cls->str.len)))) {
        fail(c, SMCJ_REASON_PROTOCOL_ERROR,
             smcj_strdup(r->protocol < 2 ? "an \"error\" response without a string \"class\" (P.3)"
                                         : "an \"error\" response whose \"class\" is neither a "
                                           "string nor null (P.3)"));
        return false;
    }
    if (off && off->type != SMCT_JSON_NULL && !smct_json_get_u64(off, &o)) {
        fail(c, SMCJ_REASON_PROTOCOL_ERROR,
             smcj_strdup("\"offset\" is neither a non-negative 64-bit integer nor null (P.3)"));
        return false;
    }
    return true;
}

/* P.3 `crash`: the codec failed in a way it does not document; fails at every tier. */
static void crashed(smcj_check_t *c, const smct_json_t *resp)
{
    const smct_json_t *kind = smct_json_get(resp, "kind");
    const smct_json_t *msg = smct_json_get(resp, "message");
    smct_buf_t b = {0};
    smct_buf_puts(&b, "the codec crashed (the runner's crash answer, P.3; it went on): ");
    if (kind && kind->type == SMCT_JSON_STRING) {
        smcj_buf_excerpt(&b, kind->str.ptr, kind->str.len, 100);
    } else {
        smct_buf_puts(&b, "unexpected failure");
    }
    if (msg && msg->type == SMCT_JSON_STRING) {
        smct_buf_puts(&b, ": ");
        smcj_buf_excerpt(&b, msg->str.ptr, msg->str.len, 300);
    }
    fail(c, SMCJ_REASON_CRASH, smcj_buf_take(&b));
}

static void skipped(smcj_check_t *c, const smct_json_t *resp)
{
    const smct_json_t *why = smct_json_get(resp, "reason");
    smct_buf_t b = {0};
    smct_buf_puts(&b, "skipped: ");
    if (why && why->type == SMCT_JSON_STRING) {
        smcj_buf_excerpt(&b, why->str.ptr, why->str.len, 500);
    } else {
        smct_buf_puts(&b, "(runner gave no reason)");
    }
    if (c->lacks || c->skip_is_clean) {
        clean(c, smcj_buf_text(&b)); /* R1.4-13: a skip is a clean refusal here */
        smct_buf_free(&b);
        return;
    }
    c->outcome = SMCJ_OUT_SKIPPED;
    c->detail = smcj_buf_take(&b);
}

static void verdict_of(smcj_check_t *c, const smcj_runner_t *r, const smcj_vectors_t *vs,
                       const smct_json_t *resp, smc_arena_t *arena);

/* The texts a failing check shows, where they were too long to make before its verdict. */
static void late_texts(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp)
{
    if (c->outcome != SMCJ_OUT_FAIL) {
        return;
    }
    bool wants_value = c->kind == SMCJ_CHECK_DECODE || c->kind == SMCJ_CHECK_DECODE_STRICT ||
                       c->kind == SMCJ_CHECK_ACCEPT || c->kind == SMCJ_CHECK_LENIENT ||
                       c->kind == SMCJ_CHECK_ROUNDTRIP || c->kind == SMCJ_CHECK_SELF ||
                       (c->kind == SMCJ_CHECK_ACCEPT_STRICT && !v->accepted[c->index].strict_class);
    if (!c->expected && wants_value && v->value_text) {
        c->expected = smcj_strdup(v->value_text);
    }
    const smct_json_t *jv = smct_json_get(resp, "value");
    if (!c->actual && jv) {
        c->actual = json_text(jv);
    }
}

/*
 * spec R1.4-15: an unclassified rejection where a rejection was asked for met R1.4-8 and the
 * check's own rule; it still fails the SHOULD to reject with the codec's documented error,
 * which results.c judges at the recommended tier. Anywhere else it has failed already (a
 * value or bytes were asked for) or was a clean refusal of a feature the runner lacks.
 */
static void unclassified(smcj_check_t *c)
{
    if (!c->unclassified || c->outcome != SMCJ_OUT_PASS) {
        return;
    }
    fail(c, SMCJ_REASON_UNCLASSIFIED,
         smcj_asprintf("rejected, but with %s, not the codec's documented error (an unclassified "
                       "rejection, P.3; spec R1.4-15, recommended)",
                       c->act_kind ? c->act_kind : "an undocumented failure"));
}

void smcj_verdict(smcj_check_t *c, const smcj_runner_t *r, const smcj_vectors_t *vs,
                  const smct_json_t *resp, smc_arena_t *arena)
{
    free(c->act_kind);
    c->act_kind = NULL;
    c->unclassified = false;
    verdict_of(c, r, vs, resp, arena);
    unclassified(c);
    late_texts(c, &vs->v[c->vector], resp);
}

static void verdict_of(smcj_check_t *c, const smcj_runner_t *r, const smcj_vectors_t *vs,
                       const smct_json_t *resp, smc_arena_t *arena)
{
    const smcj_vector_t *v = &vs->v[c->vector];
    const smcj_decl_t *d = &r->decl[v->entry];
    const char *status = smct_json_get(resp, "status")->str.ptr;
    if (!well_formed(c, r, resp, status)) {
        return;
    }
    /* the whole line against runners/protocol.schema.json, after the checks above that name
     * the commonest faults in their own words */
    char *fault = smcj_protocol_fault(resp, "response", NULL);
    if (fault) {
        fail(c, SMCJ_REASON_PROTOCOL_ERROR, fault);
        return;
    }
    if (c->host_absent && strcmp(status, "crash") != 0) {
        /* P.1 hosts_without: a skip or refusal is n/a, a value contradicts the statement */
        smcj_host_verdict(c, r, v, resp, status, arena);
        return;
    }
    if (strcmp(status, "skipped") == 0) {
        skipped(c, resp);
        return;
    }
    if (strcmp(status, "crash") == 0) {
        crashed(c, resp);
        return;
    }
    c->unclassified = strcmp(status, "rejected") == 0;
    if (strcmp(status, "error") == 0) {
        /* the answer as given, for the diagnosis to replay the check against (diagnosis.h) */
        const smct_json_t *cls = smct_json_get(resp, "class");
        uint64_t o = 0;
        if (cls && cls->type == SMCT_JSON_STRING) {
            c->act_class = smcj_strndup(cls->str.ptr, cls->str.len);
        }
        c->act_has_offset = smct_json_get_u64(smct_json_get(resp, "offset"), &o);
        c->act_offset = o;
    }
    switch (c->kind) {
    case SMCJ_CHECK_DECODE:
    case SMCJ_CHECK_DECODE_STRICT:
    case SMCJ_CHECK_ACCEPT:
    case SMCJ_CHECK_LENIENT:
        expect_value(c, v, resp, status, d, arena);
        return;
    case SMCJ_CHECK_ACCEPT_STRICT: {
        const char *cls = v->accepted[c->index].strict_class;
        if (cls) {
            /* the vector gives no offset for the strict class of an accepted form */
            expect_error(c, v, resp, status, d, cls, false, 0, false, arena);
        } else {
            expect_value(c, v, resp, status, d, arena);
        }
        return;
    }
    case SMCJ_CHECK_REJECT:
        if (c->robustness) {
            expect_robust(c, v, resp, status, arena);
        } else {
            expect_error(c, v, resp, status, d, v->err_class, true, v->err_offset, true, arena);
        }
        return;
    case SMCJ_CHECK_ENCODE:
        if (is_rejection(status)) {
            c->expected = smcj_strdup(v->canonical_hex);
            c->actual = error_text(resp);
            if (c->lacks) {
                clean(c, "refused to encode");
                return;
            }
            fail(c, SMCJ_REASON_UNEXPECTED_ERROR,
                 smcj_strdup("expected bytes, runner refused to encode"));
            return;
        }
        if (expect_bytes(c, v, resp, arena)) {
            c->outcome = SMCJ_OUT_PASS;
        }
        smcj_self_note_encode(c, v, resp); /* its bytes, for the self-consistency check */
        return;
    case SMCJ_CHECK_ROUNDTRIP:
        expect_value(c, v, resp, status, d, arena);
        if (c->outcome != SMCJ_OUT_PASS) {
            return;
        }
        c->outcome = SMCJ_OUT_PENDING;
        if (expect_bytes(c, v, resp, arena)) {
            c->outcome = SMCJ_OUT_PASS;
        }
        return;
    case SMCJ_CHECK_HOST_ENCODE:
    case SMCJ_CHECK_HOST_DECODE:
        smcj_host_verdict(c, r, v, resp, status, arena);
        return;
    case SMCJ_CHECK_SELF:
        smcj_self_verdict(c, v, resp, status, arena);
        return;
    case SMCJ_CHECK_HANDSHAKE:
        break;
    }
    fail(c, SMCJ_REASON_JUDGE_ERROR, smcj_strdup("internal: no verdict for this check"));
}

void smcj_check_fail(smcj_check_t *c, smcj_reason_t reason, char *detail)
{
    fail(c, reason, detail);
}

void smcj_check_clean(smcj_check_t *c, const char *what)
{
    clean(c, what);
}

char *smcj_check_loss(smcj_check_t *c, const char *what)
{
    return loss(c, what);
}

char *smcj_error_text(const smct_json_t *resp)
{
    return error_text(resp);
}

int smcj_read_decoded(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                      smc_arena_t *arena, smct_doc_t *got, smct_summary_t *shape)
{
    return read_decoded(c, v, resp, arena, got, shape);
}

bool smcj_expect_bytes(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                       smc_arena_t *arena)
{
    return expect_bytes(c, v, resp, arena);
}
