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
 * their normal form. False if it is not a host value (or out of memory).
 */
static bool normalize(const smct_json_t *j, const smct_json_t *alts, bool unordered, int depth,
                      smct_buf_t *out);

/* spec §17.1: with `alts` ({type: [alternatives]} of the vector, or NULL), a type that is an
 * alternative of a table type is written as that type. */
static void write_type(smct_buf_t *out, const smct_json_t *t, const smct_json_t *alts)
{
    for (size_t i = 0; alts && alts->type == SMCT_JSON_OBJECT && i < alts->object.count; i++) {
        const smct_json_t *names = &alts->object.members[i].value;
        for (size_t k = 0; names->type == SMCT_JSON_ARRAY && k < names->array.count; k++) {
            const smct_json_t *n = &names->array.items[k];
            if (n->type == SMCT_JSON_STRING && n->str.len == t->str.len &&
                memcmp(n->str.ptr, t->str.ptr, t->str.len) == 0) {
                smct_json_write_string(out, alts->object.members[i].key.ptr,
                                       alts->object.members[i].key.len);
                return;
            }
        }
    }
    smct_json_write(out, t);
}

static bool normalize_literal(const smct_json_t *x, const smct_json_t *alts, bool unordered,
                              int depth, smct_buf_t *out)
{
    if (x->type != SMCT_JSON_ARRAY) {
        smct_json_write(out, x);
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
        const smct_json_t *e = &x->array.items[i];
        smct_buf_t b = {0};
        if (pairs) {
            smct_buf_putc(&b, '[');
            ok = normalize(&e->array.items[0], alts, unordered, depth + 1, &b);
            smct_buf_putc(&b, ',');
            ok = ok && normalize(&e->array.items[1], alts, unordered, depth + 1, &b);
            smct_buf_putc(&b, ']');
        } else if (e->type == SMCT_JSON_OBJECT) {
            ok = normalize(e, alts, unordered, depth + 1, &b);
        } else if (e->type == SMCT_JSON_ARRAY) {
            ok = false; /* arrays hold literals, host values or pairs */
        } else {
            smct_json_write(&b, e);
        }
        parts[i] = smcj_buf_take(&b);
        ok = ok && parts[i];
    }
    if (ok && pairs && unordered) {
        qsort(parts, x->array.count, sizeof *parts, cmp_text);
    }
    smct_buf_putc(out, '[');
    for (size_t i = 0; i < x->array.count; i++) {
        if (ok) {
            smct_buf_printf(out, "%s%s", i ? "," : "", parts[i]);
        }
        free(parts[i]);
    }
    smct_buf_putc(out, ']');
    free(parts);
    return ok;
}

static bool normalize(const smct_json_t *j, const smct_json_t *alts, bool unordered, int depth,
                      smct_buf_t *out)
{
    const smct_json_t *t = smct_json_get(j, "type");
    const smct_json_t *x = smct_json_get(j, "value");
    if (depth > HOST_MAX_DEPTH || j->type != SMCT_JSON_OBJECT || j->object.count != 2 || !t ||
        t->type != SMCT_JSON_STRING || !x) {
        return false;
    }
    smct_buf_puts(out, "{\"type\":");
    write_type(out, t, alts);
    smct_buf_puts(out, ",\"value\":");
    bool ok = normalize_literal(x, alts, unordered, depth, out);
    smct_buf_putc(out, '}');
    return ok && smcj_buf_ok(out);
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
    if (!normalize(want, NULL, unordered, 0, &b)) {
        smct_buf_free(&b);
        return;
    }
    c->expected = smcj_buf_take(&b);
    smct_json_t *alts = NULL;
    if (v->host_alternatives && smct_json_parse(v->host_alternatives, strlen(v->host_alternatives),
                                                NULL, arena, &alts, &e) != SMCT_OK) {
        smcj_nomem();
        return;
    }
    if (!got || !normalize(got, alts, unordered, 0, &a)) {
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
