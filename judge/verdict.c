/*
 * Verdicts on protocol-valid responses (runners/PROTOCOL.md P.3, P.5). Values are compared
 * exactly, float bits and map order included, except for runners whose maps do not keep
 * order (no map-order capability), whose maps compare as multisets. Errors compare by class
 * (spec/errors.md §14.1), and by offset only for runners that declare error-offsets, since
 * platform codecs rarely expose one. Everything a runner said is kept as printable text for
 * the reports, cut to a bound: a runner's output is never trusted to be small or UTF-8.
 */
#define _POSIX_C_SOURCE 200809L
#include "verdict.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "smct_notation.h"
#include "smct_hex.h"

/* Depth guard for the multiset comparison (it recurses, unlike the exact one); the JSON
 * reader's nesting limit for responses keeps real input below it. */
#define UNORDERED_MAX_DEPTH 4096

static bool bytes_eq(smc_bytes_t a, smc_bytes_t b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* Equality with maps as multisets of entries (P.5), for runners without map-order. Quadratic
 * per map, which is fine for vector-sized maps. */
static bool value_eq_unordered(const smc_value_t *a, const smc_value_t *b, int depth)
{
    if (!a || !b) {
        return a == b;
    }
    if (depth > UNORDERED_MAX_DEPTH) {
        return false;
    }
    if (a->type != b->type) {
        return false;
    }
    switch (a->type) {
    case SMC_TYPE_LIST:
        if (a->list.count != b->list.count) {
            return false;
        }
        for (size_t i = 0; i < a->list.count; i++) {
            if (!value_eq_unordered(&a->list.items[i], &b->list.items[i], depth + 1)) {
                return false;
            }
        }
        return true;
    case SMC_TYPE_MAP: {
        size_t n = a->map.count;
        if (n != b->map.count) {
            return false;
        }
        bool *used = smcj_calloc(n ? n : 1, sizeof(bool));
        bool ok = used != NULL; /* out of memory is recorded: no verdict is kept */
        for (size_t i = 0; i < n && ok; i++) {
            bool found = false;
            for (size_t j = 0; j < n && !found; j++) {
                if (!used[j] &&
                    value_eq_unordered(&a->map.entries[2 * i], &b->map.entries[2 * j], depth + 1) &&
                    value_eq_unordered(&a->map.entries[2 * i + 1], &b->map.entries[2 * j + 1],
                                       depth + 1)) {
                    used[j] = found = true;
                }
            }
            ok = found;
        }
        free(used);
        return ok;
    }
    case SMC_TYPE_CUSTOM:
        return a->custom_tag == b->custom_tag &&
               value_eq_unordered(a->custom.payload, b->custom.payload, depth + 1);
    case SMC_TYPE_NULL:
    case SMC_TYPE_BOOL:
    case SMC_TYPE_I32:
    case SMC_TYPE_I64:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_F64:
    case SMC_TYPE_STR:
    case SMC_TYPE_U8S:
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        break;
    }
    return smc_value_equal(a, b); /* scalars and typed lists: exact, float bits included */
}

bool smcj_doc_equal(const smct_doc_t *a, const smct_doc_t *b, bool ordered)
{
    if (ordered) {
        return smct_doc_equal(a, b);
    }
    if (a->entry != b->entry) {
        return false;
    }
    switch (a->entry) {
    case SMC_ENTRY_MESSAGE:
        return value_eq_unordered(a->value, b->value, 0);
    case SMC_ENTRY_CALL:
        return bytes_eq(a->call.name, b->call.name) &&
               value_eq_unordered(a->call.args, b->call.args, 0);
    case SMC_ENTRY_ENVELOPE: {
        const smc_envelope_t *x = &a->envelope, *y = &b->envelope;
        if (x->is_error != y->is_error) {
            return false;
        }
        if (!x->is_error) {
            return value_eq_unordered(x->result, y->result, 0);
        }
        return bytes_eq(x->code, y->code) && x->has_message == y->has_message &&
               (!x->has_message || bytes_eq(x->message, y->message)) &&
               x->stacktrace_state == y->stacktrace_state &&
               (x->stacktrace_state != SMC_STACKTRACE_STRING ||
                bytes_eq(x->stacktrace, y->stacktrace)) &&
               value_eq_unordered(x->details, y->details, 0);
    }
    }
    return false;
}

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
 * spec §1.1: on a check whose tier is implementation-defined, the first alternative of the
 * vector's notes whose outcome is this error (`cls`, offset when the runner reports them) or
 * this decoded value. Sets c->alt and names it in c->detail; the check stays failed (its
 * vector then differs, named).
 */
static void note_alternative(smcj_check_t *c, const smcj_vector_t *v, int k)
{
    c->alt = k;
    char *d = smcj_asprintf("%s; behaves like %s: %s", c->detail ? c->detail : "", v->alts[k].who,
                            v->alts[k].behaviour);
    free(c->detail);
    c->detail = d;
}

static void match_alt_error(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v,
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
        bool cls_ok = !a->cls || (cls->str.len == strlen(a->cls) &&
                                  memcmp(cls->str.ptr, a->cls, cls->str.len) == 0);
        bool off_ok = !a->has_offset || !r->opt_error_offsets || (have_off && o == a->offset);
        if (cls_ok && off_ok) {
            note_alternative(c, v, (int)k);
            return;
        }
    }
}

static void match_alt_value(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v,
                            const smct_doc_t *got)
{
    if (c->tier != SMCJ_TIER_IMPLDEF) {
        return;
    }
    for (size_t k = 0; k < v->n_alts; k++) {
        if (v->alts[k].kind == SMCJ_ALT_VALUE &&
            smcj_doc_equal(&v->alts[k].value, got, r->map_order)) {
            note_alternative(c, v, (int)k);
            return;
        }
    }
}

/* An error as the reports print it: "class @ offset — message", the message cut to a bound. */
static char *error_text(const char *cls, const smct_json_t *off, const smct_json_t *msg)
{
    smct_buf_t b = {0};
    smct_buf_puts(&b, cls);
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

/* The check wants the vector's value; a runner error or a value that is not notation fails.
 * The notation is read strictly (N.4): a runner may not be vague about what it decoded. */
static void expect_value(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v,
                         const smct_json_t *resp, const char *status, smc_arena_t *arena)
{
    c->expected = smcj_strdup(v->value_text);
    if (strcmp(status, "error") == 0) {
        const smct_json_t *cls = smct_json_get(resp, "class");
        smct_buf_t cs = {0};
        smcj_buf_excerpt(&cs, cls->str.ptr, cls->str.len, 100); /* validated by smcj_verdict */
        c->actual = error_text(smcj_buf_text(&cs), smct_json_get(resp, "offset"),
                               smct_json_get(resp, "message"));
        fail(c, SMCJ_REASON_UNEXPECTED_ERROR,
             smcj_asprintf("expected a value, runner reported error %s", smcj_buf_text(&cs)));
        smct_buf_free(&cs);
        match_alt_error(c, r, v, cls, smct_json_get(resp, "offset"));
        return;
    }
    const smct_json_t *jv = smct_json_get(resp, "value");
    if (!jv) {
        fail(c, SMCJ_REASON_PROTOCOL_ERROR,
             smcj_strdup("an \"ok\" decode response has no \"value\" (P.3)"));
        return;
    }
    c->actual = json_text(jv);
    smct_doc_t got;
    smct_error_t e;
    smct_status_t st = smct_notation_read(jv, v->entry, arena, &got, &e);
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem(); /* not the runner's fault: no verdict */
        return;
    }
    if (st != SMCT_OK) {
        fail(c, SMCJ_REASON_PROTOCOL_ERROR,
             smcj_asprintf("\"value\" is not valid %s notation: %s", smct_entry_name(v->entry),
                           e.message ? e.message : "?"));
        return;
    }
    if (!smcj_doc_equal(&v->value, &got, r->map_order)) {
        fail(c, SMCJ_REASON_WRONG_VALUE,
             smcj_strdup(r->map_order ? "decoded value differs"
                                      : "decoded value differs (maps compared as multisets)"));
        match_alt_value(c, r, v, &got);
        return;
    }
    c->outcome = SMCJ_OUT_PASS;
}

static bool class_is(const smct_json_t *cls, const char *want)
{
    return cls->str.len == strlen(want) && memcmp(cls->str.ptr, want, cls->str.len) == 0;
}

/*
 * The error the vector names, or (reject checks) one of error.alternatives for this mode,
 * which passes too: the outcome of a permitted order of checks (errors.md §14.2.1).
 */
static void expect_error(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v,
                         const smct_json_t *resp, const char *status, const char *want_class,
                         bool has_offset, uint64_t want_offset, bool use_order_alts,
                         smc_arena_t *arena)
{
    bool offsets = has_offset && r->opt_error_offsets;
    if (offsets) {
        c->expected = smcj_asprintf("%s @ %llu", want_class, (unsigned long long)want_offset);
    } else {
        c->expected = smcj_asprintf("%s", want_class);
    }
    if (strcmp(status, "ok") == 0) {
        const smct_json_t *jv = smct_json_get(resp, "value");
        c->actual = jv ? json_text(jv) : smcj_strdup("(ok, no value)");
        fail(c, SMCJ_REASON_UNEXPECTED_SUCCESS,
             smcj_asprintf("expected error %s, runner decoded a value", want_class));
        smct_doc_t got;
        smct_error_t e;
        smct_status_t st = jv ? smct_notation_read(jv, v->entry, arena, &got, &e) : SMCT_OK;
        if (st == SMCT_ERR_NOMEM) {
            smcj_nomem();
        } else if (jv && st == SMCT_OK) {
            match_alt_value(c, r, v, &got);
        }
        return;
    }
    const smct_json_t *cls = smct_json_get(resp, "class"); /* validated by smcj_verdict */
    const smct_json_t *off = smct_json_get(resp, "offset");
    smct_buf_t shown = {0};
    smcj_buf_excerpt(&shown, cls->str.ptr, cls->str.len, 100);
    c->actual = error_text(smcj_buf_text(&shown), off, smct_json_get(resp, "message"));
    uint64_t got = 0;
    bool have_off = smct_json_get_u64(off, &got);
    if (class_is(cls, want_class) && (!offsets || (have_off && got == want_offset))) {
        smct_buf_free(&shown);
        c->outcome = SMCJ_OUT_PASS;
        return;
    }
    for (size_t k = 0; use_order_alts && k < v->n_order_alts; k++) {
        const smcj_order_alt_t *a = &v->order_alts[k];
        if (a->modes[c->strict ? 1 : 0] && class_is(cls, a->cls) &&
            (!offsets || (have_off && got == a->offset))) {
            smct_buf_free(&shown);
            c->order_alt = (int)k;
            c->outcome = SMCJ_OUT_PASS;
            return;
        }
    }
    if (!class_is(cls, want_class)) {
        fail(c, SMCJ_REASON_WRONG_CLASS,
             smcj_asprintf("expected class %s, got %s", want_class, smcj_buf_text(&shown)));
    } else if (!have_off) {
        fail(c, SMCJ_REASON_WRONG_OFFSET,
             smcj_asprintf("runner declares error-offsets but gave no offset (expected %llu)",
                           (unsigned long long)want_offset));
    } else {
        fail(c, SMCJ_REASON_WRONG_OFFSET,
             smcj_asprintf("expected offset %llu, got %llu", (unsigned long long)want_offset,
                           (unsigned long long)got));
    }
    smct_buf_free(&shown);
    match_alt_error(c, r, v, cls, off);
}

/* The check wants the canonical bytes (spec §13) in resp["hex"]; true if they matched. On a
 * mismatch both byte strings are kept for the reports' hex diff. */
static bool expect_bytes(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp)
{
    const smct_json_t *h = smct_json_get(resp, "hex");
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
    if (len != v->canonical_len || (len && memcmp(bytes, v->canonical, len) != 0)) {
        size_t first = 0;
        while (first < len && first < v->canonical_len && bytes[first] == v->canonical[first]) {
            first++;
        }
        free(c->expected);
        free(c->actual);
        c->expected = smcj_strdup(v->canonical_hex);
        c->actual = smcj_strndup(h->str.ptr, h->str.len);
        c->exp_bytes = smcj_malloc(v->canonical_len + 1);
        if (c->exp_bytes && v->canonical_len) {
            memcpy(c->exp_bytes, v->canonical, v->canonical_len);
        }
        c->exp_len = v->canonical_len;
        c->act_bytes = bytes;
        c->act_len = len;
        fail(c, SMCJ_REASON_WRONG_BYTES,
             smcj_asprintf("bytes differ at offset %zu (expected %zu bytes, got %zu)", first,
                           v->canonical_len, len));
        return false;
    }
    free(bytes);
    return true;
}

void smcj_verdict(smcj_check_t *c, const smcj_runner_t *r, const smcj_vectors_t *vs,
                  const smct_json_t *resp, smc_arena_t *arena)
{
    const smcj_vector_t *v = &vs->v[c->vector];
    const smct_json_t *st = smct_json_get(resp, "status");
    const char *status = st->str.ptr;
    if (strcmp(status, "skipped") == 0) {
        const smct_json_t *why = smct_json_get(resp, "reason");
        c->outcome = SMCJ_OUT_SKIPPED;
        smct_buf_t b = {0};
        if (why && why->type == SMCT_JSON_STRING) {
            smcj_buf_excerpt(&b, why->str.ptr, why->str.len, 500);
        } else {
            smct_buf_puts(&b, "(runner gave no reason)");
        }
        c->detail = smcj_buf_take(&b);
        return;
    }
    if (strcmp(status, "error") == 0) {
        /* P.3: an error carries a class string and an optional offset (integer or null) */
        const smct_json_t *cls = smct_json_get(resp, "class");
        const smct_json_t *off = smct_json_get(resp, "offset");
        uint64_t o;
        if (!cls || cls->type != SMCT_JSON_STRING || cls->str.len == 0 ||
            memchr(cls->str.ptr, '\0', cls->str.len)) {
            fail(c, SMCJ_REASON_PROTOCOL_ERROR,
                 smcj_strdup("an \"error\" response without a string \"class\" (P.3)"));
            return;
        }
        if (off && off->type != SMCT_JSON_NULL && !smct_json_get_u64(off, &o)) {
            fail(c, SMCJ_REASON_PROTOCOL_ERROR,
                 smcj_strdup("\"offset\" is neither a non-negative 64-bit integer nor null (P.3)"));
            return;
        }
    }
    switch (c->kind) {
    case SMCJ_CHECK_DECODE:
    case SMCJ_CHECK_DECODE_STRICT:
    case SMCJ_CHECK_ACCEPT:
    case SMCJ_CHECK_LENIENT:
        expect_value(c, r, v, resp, status, arena);
        return;
    case SMCJ_CHECK_ACCEPT_STRICT: {
        const char *cls = v->accepted[c->index].strict_class;
        if (cls) {
            /* the vector gives no offset for the strict class of an accepted form */
            expect_error(c, r, v, resp, status, cls, false, 0, false, arena);
        } else {
            expect_value(c, r, v, resp, status, arena);
        }
        return;
    }
    case SMCJ_CHECK_REJECT:
        expect_error(c, r, v, resp, status, v->err_class, true, v->err_offset, true, arena);
        return;
    case SMCJ_CHECK_ENCODE:
        if (strcmp(status, "error") == 0) {
            const smct_json_t *cls = smct_json_get(resp, "class");
            smct_buf_t cs = {0};
            smcj_buf_excerpt(&cs, cls->str.ptr, cls->str.len, 100);
            c->expected = smcj_strdup(v->canonical_hex);
            c->actual = error_text(smcj_buf_text(&cs), smct_json_get(resp, "offset"),
                                   smct_json_get(resp, "message"));
            smct_buf_free(&cs);
            fail(c, SMCJ_REASON_UNEXPECTED_ERROR,
                 smcj_strdup("expected bytes, runner refused to encode"));
            return;
        }
        if (expect_bytes(c, v, resp)) {
            c->outcome = SMCJ_OUT_PASS;
        }
        return;
    case SMCJ_CHECK_ROUNDTRIP:
        expect_value(c, r, v, resp, status, arena);
        if (c->outcome != SMCJ_OUT_PASS) {
            return;
        }
        c->outcome = SMCJ_OUT_PENDING;
        if (expect_bytes(c, v, resp)) {
            c->outcome = SMCJ_OUT_PASS;
        }
        return;
    case SMCJ_CHECK_HANDSHAKE:
        break;
    }
    fail(c, SMCJ_REASON_PROTOCOL_ERROR, smcj_strdup("internal: no verdict for this check"));
}
