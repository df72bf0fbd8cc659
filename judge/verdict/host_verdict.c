/*
 * The verdict of a host check (spec §17, runners/PROTOCOL.md P.5). Encode from host: the
 * bytes must be the vector's (Pigeon's int64 convention and unpinned map orders as for any
 * encode check), or a refusal where the spec refuses the value; a refusal elsewhere, or
 * bytes for a refused value, fails. Decode to host: the runner's host value must equal the
 * vector's, type names included, node by node; maps compare as multisets of entries for a
 * runner whose decoded maps keep no order; a type the vector lists as an alternative of the
 * table's (`host_alternatives`, spec §17.1) counts as that type. A runner lacking a feature the
 * value needs may refuse cleanly (R1.4-13, `unsupported`); any other answer is a failure, named a
 * silent loss.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "host_absent.h"
#include "smct_hex.h"
#include "smct_json_writer.h"
#include "host_vectors.h"
#include "verdict.h"

/* Host values nest no deeper than this in any vector; a deeper answer is not one of them. */
#define HOST_MAX_DEPTH 64

static int cmp_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The normal form of a host value: {"type":T,"value":X} with the keys in that order, the
 * literal as compact JSON; with `unordered`, the [key, value] pairs of every map sorted by
 * their normal form. Written through the JSON writer (smct_json_writer.h), never pasted: the
 * form is compared as text and shown in every report. False if it is not a host value (or out
 * of memory).
 */
static bool normalize(const smct_json_t *j, const smct_json_t *alts, bool unordered, int depth,
                      smct_jw_t *w);

/* spec §17.1: with `alts` ({type: [alternatives]} of the vector, or NULL), a type that is an
 * alternative of a table type is written as that type. */
static void write_type(smct_jw_t *w, const smct_json_t *t, const smct_json_t *alts)
{
    for (size_t i = 0; alts && alts->type == SMCT_JSON_OBJECT && i < alts->object.count; i++) {
        const smct_json_t *names = &alts->object.members[i].value;
        for (size_t k = 0; names->type == SMCT_JSON_ARRAY && k < names->array.count; k++) {
            const smct_json_t *n = &names->array.items[k];
            if (n->type == SMCT_JSON_STRING && n->str.len == t->str.len &&
                memcmp(n->str.ptr, t->str.ptr, t->str.len) == 0) {
                smct_jw_str_n(w, alts->object.members[i].key.ptr, alts->object.members[i].key.len);
                return;
            }
        }
    }
    smct_jw_str_n(w, t->str.ptr, t->str.len);
}

/* A JSON literal (no host value inside) as one value of w: smct_json_write's compact text. */
static void write_literal(smct_jw_t *w, const smct_json_t *x)
{
    smct_buf_t b = {0};
    smct_json_write(&b, x);
    if (smcj_buf_ok(&b)) {
        smct_jw_json(w, b.data, b.len);
    }
    smct_buf_free(&b);
}

/* One element of a host value's array literal, as a JSON value of its own (the parts are
 * sorted as text before they are written). */
static char *normalize_part(const smct_json_t *e, bool pair, const smct_json_t *alts,
                            bool unordered, int depth)
{
    smct_buf_t b = {0};
    smct_jw_t w;
    smct_jw_init(&w, &b);
    bool ok = true;
    if (pair) {
        smct_jw_array(&w);
        ok = normalize(&e->array.items[0], alts, unordered, depth + 1, &w);
        ok = ok && normalize(&e->array.items[1], alts, unordered, depth + 1, &w);
        smct_jw_end_array(&w);
    } else if (e->type == SMCT_JSON_OBJECT) {
        ok = normalize(e, alts, unordered, depth + 1, &w);
    } else if (e->type == SMCT_JSON_ARRAY) {
        ok = false; /* arrays hold literals, host values or pairs */
    } else {
        write_literal(&w, e);
    }
    if (!ok || !smct_jw_ok(&w)) {
        smct_buf_free(&b);
        return NULL;
    }
    return smcj_buf_take(&b);
}

static bool normalize_literal(const smct_json_t *x, const smct_json_t *alts, bool unordered,
                              int depth, smct_jw_t *w)
{
    if (x->type != SMCT_JSON_ARRAY) {
        write_literal(w, x);
        return true;
    }
    bool pairs = x->array.count > 0;
    for (size_t i = 0; i < x->array.count; i++) {
        const smct_json_t *e = &x->array.items[i];
        pairs = pairs && e->type == SMCT_JSON_ARRAY && e->array.count == 2;
    }
    char **parts = smcj_calloc(x->array.count ? x->array.count : 1, sizeof *parts);
    if (!parts) {
        return false;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < x->array.count; i++) {
        parts[i] = normalize_part(&x->array.items[i], pairs, alts, unordered, depth);
        ok = parts[i] != NULL;
    }
    if (ok && pairs && unordered) {
        qsort(parts, x->array.count, sizeof *parts, cmp_text);
    }
    smct_jw_array(w);
    for (size_t i = 0; i < x->array.count; i++) {
        if (ok) {
            smct_jw_json(w, parts[i], strlen(parts[i])); /* a writer's own output */
        }
        free(parts[i]);
    }
    smct_jw_end_array(w);
    free(parts);
    return ok;
}

static bool normalize(const smct_json_t *j, const smct_json_t *alts, bool unordered, int depth,
                      smct_jw_t *w)
{
    const smct_json_t *t = smct_json_get(j, "type");
    const smct_json_t *x = smct_json_get(j, "value");
    if (depth > HOST_MAX_DEPTH || j->type != SMCT_JSON_OBJECT || j->object.count != 2 || !t ||
        t->type != SMCT_JSON_STRING || !x) {
        return false;
    }
    smct_jw_object(w);
    smct_jw_key(w, "type");
    write_type(w, t, alts);
    smct_jw_key(w, "value");
    bool ok = normalize_literal(x, alts, unordered, depth, w);
    smct_jw_end_object(w);
    return ok; /* a refusal of the writer is seen where the value is complete (smct_jw_ok) */
}

/* The normal form of host value j into out (emptied first); false when it is none. */
static bool normal_form(const smct_json_t *j, const smct_json_t *alts, bool unordered,
                        smct_buf_t *out)
{
    smct_jw_t w;
    smct_jw_init(&w, out);
    return normalize(j, alts, unordered, 0, &w) && smct_jw_ok(&w) && smcj_buf_ok(out);
}

/* The vector's own host_value has no normal form: the loader checks its top shape only
 * ({"type": T, "value": X}), so a literal nested past HOST_MAX_DEPTH or holding an array of
 * arrays that are not pairs gets here. Never silent: out of memory is the judge's exit 2
 * (smcj_nomem), anything else fails the check as judge_error, never a pending check that
 * the reports would show as n/a: a reason of its own, not the runner's protocol_error, so
 * the reports put the fault where it is (the vector's or the judge's), and the gate fails at
 * every tier as for a harness failure (smcj_reason_is_harness). */
static void expected_unusable(smcj_check_t *c, const smcj_vector_t *v)
{
    if (smcj_out_of_memory()) {
        smcj_nomem();
        return;
    }
    smcj_check_fail(c, SMCJ_REASON_JUDGE_ERROR,
                    smcj_asprintf("judge error, not the codec's: the vector's host_value could "
                                  "not be compared (it has no normal form: nested deeper than "
                                  "%d or not a host value inside, spec §17.1); vector %s",
                                  HOST_MAX_DEPTH, v->id));
}

static void expect_host_value(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                              smc_arena_t *arena)
{
    const smct_json_t *got = smct_json_get(resp, "host_value");
    smct_json_t *want = NULL;
    smct_error_t e;
    if (smct_json_parse(v->host_value, strlen(v->host_value), NULL, arena, &want, &e) != SMCT_OK) {
        smcj_nomem(); /* the loader parsed and wrote this text: only memory can fail */
        return;
    }
    smct_buf_t a = {0}, b = {0};
    bool unordered = c->cmp.unordered_maps;
    if (!normal_form(want, NULL, unordered, &b)) {
        smct_buf_free(&b);
        expected_unusable(c, v);
        return;
    }
    c->expected = smcj_buf_take(&b);
    smct_json_t *alts = NULL;
    if (v->host_alternatives && smct_json_parse(v->host_alternatives, strlen(v->host_alternatives),
                                                NULL, arena, &alts, &e) != SMCT_OK) {
        smcj_nomem();
        return;
    }
    if (!got || !normal_form(got, alts, unordered, &a)) {
        smct_buf_free(&a);
        if (got) {
            smct_json_write(&a, got);
            c->actual = smcj_buf_take(&a);
        }
        smcj_check_fail(c, SMCJ_REASON_PROTOCOL_ERROR,
                        smcj_strdup("an \"ok\" host_decode answer needs \"host_value\" "
                                    "{\"type\": T, \"value\": X}, nested no deeper than 64 "
                                    "(P.3)"));
        return;
    }
    c->actual = smcj_buf_take(&a);
    if (c->expected && c->actual && strcmp(c->expected, c->actual) == 0) {
        c->outcome = SMCJ_OUT_PASS;
        return;
    }
    char *what = smcj_asprintf("the decoded host value is not the %s table's (spec §17): "
                               "types or values differ%s",
                               v->host, unordered ? " (maps compared as multisets)" : "");
    smcj_check_fail(c, SMCJ_REASON_WRONG_VALUE, what ? smcj_check_loss(c, what) : NULL);
    free(what);
}

/* spec §17.1, P.1 hosts_without: the host value holds a type the runner states its API lacks.
 * Any answer but a value (a skip, a refusal) is n/a, with the statement as the reason; a value
 * means the statement is not true, a protocol error, never a pass. */
static void stated_absent(smcj_check_t *c, const smct_json_t *resp, bool rejected)
{
    if (rejected) {
        c->outcome = SMCJ_OUT_NA;
        c->reason = SMCJ_REASON_NONE;
        free(c->detail);
        c->detail = smcj_host_absent_reason(c->host_absent);
        return;
    }
    const smct_json_t *got =
        smct_json_get(resp, c->kind == SMCJ_CHECK_HOST_DECODE ? "host_value" : "hex");
    smct_buf_t b = {0};
    if (got) {
        smct_json_write(&b, got);
    }
    c->actual = smcj_buf_take(&b);
    smcj_check_fail(c, SMCJ_REASON_PROTOCOL_ERROR,
                    smcj_asprintf("the runner states its API has no %s (P.1 hosts_without), yet "
                                  "answered %s: its statement is not true",
                                  c->host_absent,
                                  c->kind == SMCJ_CHECK_HOST_DECODE ? "a host value" : "bytes"));
}

/* The bytes an encoder wrote for a value the spec refuses, kept for the diagnosis's replay
 * (diag_replay.c: a Dart Uint64List written as a List, D44); "no bytes" is an empty answer. */
static void keep_written(smcj_check_t *c, const smct_json_t *h)
{
    if (!h || h->type != SMCT_JSON_STRING) {
        return;
    }
    uint8_t *bytes;
    size_t len;
    if (smct_hex_decode_strict_new(h->str.ptr, h->str.len, &bytes, &len, NULL) != SMCT_OK) {
        c->act_len = 1; /* not hex: no answer to compare, as act_bytes NULL with a length says */
        return;
    }
    c->act_bytes = bytes;
    c->act_len = len;
}

void smcj_host_verdict(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v,
                       const smct_json_t *resp, const char *status, smc_arena_t *arena)
{
    bool rejected = strcmp(status, "ok") != 0;
    if (c->host_absent) {
        stated_absent(c, resp, rejected);
        return;
    }
    if (c->kind == SMCJ_CHECK_HOST_DECODE) {
        if (rejected) {
            c->actual = smcj_error_text(resp);
            if (c->lacks) {
                smcj_check_clean(c, "rejected the bytes");
                return;
            }
            smcj_check_fail(c, SMCJ_REASON_UNEXPECTED_ERROR,
                            smcj_strdup("expected a host value, the decoder rejected the bytes"));
            return;
        }
        char *contradicted = smcj_host_absent_answer(r, v, smct_json_get(resp, "host_value"));
        if (contradicted) {
            smct_buf_t b = {0};
            smct_json_write(&b, smct_json_get(resp, "host_value"));
            c->actual = smcj_buf_take(&b);
            smcj_check_fail(c, SMCJ_REASON_PROTOCOL_ERROR, contradicted);
            return;
        }
        expect_host_value(c, v, resp, arena);
        return;
    }
    if (v->host_refused) {
        c->expected = smcj_strdup("not_encodable");
        if (!rejected) {
            const smct_json_t *h = smct_json_get(resp, "hex");
            smct_buf_t b = {0};
            if (h) {
                smct_json_write(&b, h);
            }
            c->actual = smcj_buf_take(&b);
            keep_written(c, h);
            smcj_check_fail(c, SMCJ_REASON_UNEXPECTED_SUCCESS,
                            smcj_asprintf("the spec refuses this %s value (not_encodable, spec "
                                          "§17), the encoder wrote it",
                                          v->host));
            return;
        }
        c->actual = smcj_error_text(resp);
        const smct_json_t *cls = smct_json_get(resp, "class");
        if (r->decl[SMC_ENTRY_MESSAGE].error_classes && !smct_json_is_str(cls, "not_encodable")) {
            smcj_check_fail(c, SMCJ_REASON_WRONG_CLASS,
                            smcj_strdup("refused, but not with not_encodable"));
            return;
        }
        c->outcome = SMCJ_OUT_PASS;
        return;
    }
    if (rejected) {
        c->expected = smcj_strdup(v->canonical_hex);
        c->actual = smcj_error_text(resp);
        if (c->lacks) {
            smcj_check_clean(c, "refused to encode the host value");
            return;
        }
        smcj_check_fail(c, SMCJ_REASON_UNEXPECTED_ERROR,
                        smcj_strdup("expected bytes, the encoder refused the host value"));
        return;
    }
    if (smcj_expect_bytes(c, v, resp, arena)) {
        c->outcome = SMCJ_OUT_PASS;
    }
}
