/*
 * Host-type vectors (spec §17): loading their fields, planning their one check and writing
 * its request. A host vector carries a vocabulary (`host`) and a host value (`host_value`,
 * {"type": T, "value": X}); an encode-from-host vector also carries the bytes it must be
 * written as (`value` + `canonical`, loaded like any valid vector) or a refusal
 * (`error.class` not_encodable); a decode-to-host vector the bytes and the host value a
 * decoder of that language must produce. A runner that does not speak the vocabulary gets
 * the vector as n/a: a Swift runner cannot build a Kotlin `Long`, and saying so hides no
 * failure. One that speaks it but lacks a feature the value needs (a FloatArray without
 * float32list) is held to R1.4-13 like any runner: a clean refusal is `unsupported`.
 */
#define _POSIX_C_SOURCE 200809L
#include "host_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "plan.h"
#include "smct_vocab.h"

static const char *const k_hosts[] = {SMCT_HOST_VOCABULARY_LIST(SMCT_VOCAB_ITEM)};

static bool known_host(const char *h)
{
    for (size_t i = 0; h && i < sizeof k_hosts / sizeof k_hosts[0]; i++) {
        if (strcmp(k_hosts[i], h) == 0) {
            return true;
        }
    }
    return false;
}

/* {"type": T, "value": X}: the shape the protocol and the comparison rely on (the literal
 * itself is the generator's to check). */
static bool host_value_shape(const smct_json_t *hv)
{
    const smct_json_t *t = smct_json_get(hv, "type");
    return hv && hv->type == SMCT_JSON_OBJECT && hv->object.count == 2 && t &&
           t->type == SMCT_JSON_STRING && t->str.len > 0 && smct_json_get(hv, "value");
}

void smcj_host_vector_load(smcj_loader_t *L, const smct_json_t *jv, smcj_vector_t *v)
{
    v->is_host = true;
    v->host_decode = strcmp(v->kind, "host_decode") == 0;
    const smct_json_t *host = smct_json_get(jv, "host");
    if (!smcj_json_is_string(host) || !smcj_json_no_nul(host)) {
        smcj_loader_problem(L, "a host vector needs a string `host` (spec §17)");
    } else {
        v->host = smcj_json_strdup(host);
        if (v->host && !known_host(v->host)) {
            smcj_loader_problem(L, "unknown host vocabulary \"%s\" (spec §17)", v->host);
        }
    }
    const smct_json_t *hv = smct_json_get(jv, "host_value");
    if (!host_value_shape(hv)) {
        smcj_loader_problem(L, "`host_value` must be {\"type\": T, \"value\": X} (spec §17.1)");
    } else {
        smct_buf_t b = {0};
        smct_json_write(&b, hv);
        v->host_value = smcj_buf_take(&b);
    }
    const smct_json_t *order = smct_json_get(jv, "map_order");
    v->host_any_order = order && smct_json_is_str(order, "any");
    if (order && !v->host_any_order) {
        smcj_loader_problem(L, "`map_order` is \"any\" or absent");
    }
    const smct_json_t *error = smct_json_get(jv, "error");
    const smct_json_t *cls = smct_json_get(error, "class");
    if (error && !v->host_decode && !smct_json_get(jv, "canonical")) {
        if (!smct_json_is_str(cls, "not_encodable") || error->object.count != 1 ||
            smct_json_get(jv, "hex")) {
            smcj_loader_problem(L, "a refused host value has `error` {\"class\": "
                                   "\"not_encodable\"} and no bytes");
        }
        v->host_refused = true;
    } else if (error || smct_json_get(jv, "hex")) {
        smcj_loader_problem(L, "a host vector has either bytes (`canonical`) or, for "
                               "host_encode, a refusal");
    }
}

bool smcj_runner_speaks(const smcj_runner_t *r, const char *host)
{
    return host && smcj_caps_have(r->hosts, r->n_hosts, host);
}

void smcj_host_expect(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v)
{
    if (!r->entry_ok[SMC_ENTRY_MESSAGE]) {
        c->outcome = SMCJ_OUT_NA;
        c->detail = smcj_strdup("runner lacks the message entry point");
        return;
    }
    if (!smcj_runner_speaks(r, v->host)) {
        c->outcome = SMCJ_OUT_NA;
        c->detail = smcj_asprintf("runner does not speak the %s host vocabulary (P.1 hosts)",
                                  v->host ? v->host : "?");
        return;
    }
    const smcj_decl_t *d = &r->decl[SMC_ENTRY_MESSAGE];
    /* The vector's bytes already follow its vocabulary's table (by value for a Dart int);
     * only Pigeon's convention writes every integer as int64 (R12.3-1). */
    c->width = d->pigeon_int64 ? SMCJ_INTS_INT64 : SMCJ_INTS_BY_TYPE;
    c->any_order = v->host_any_order || !smcj_declares(r, SMC_ENTRY_MESSAGE, 1, "map-order");
    c->cmp.unordered_maps =
        v->host_any_order || !smcj_declares(r, SMC_ENTRY_MESSAGE, 0, "map-order");
    /* R1.4-13 as for every vector: a value needing a feature the runner lacks may be
     * refused cleanly (unsupported), never turned into another one */
    smcj_expect_lacks(c, r, v, c->kind == SMCJ_CHECK_HOST_ENCODE ? 1 : 0);
}

void smcj_host_request_line(smct_buf_t *b, unsigned long long seq, const smcj_vector_t *v,
                            const smcj_check_t *c)
{
    smct_buf_printf(b, "{\"seq\":%llu,\"op\":\"%s\",\"host\":", seq,
                    c->kind == SMCJ_CHECK_HOST_DECODE ? "host_decode" : "host_encode");
    smct_json_write_cstr(b, v->host);
    if (c->kind == SMCJ_CHECK_HOST_DECODE) {
        smct_buf_printf(b, ",\"hex\":\"%s\"}", v->canonical_hex);
    } else {
        smct_buf_printf(b, ",\"host_value\":%s}", v->host_value);
    }
}
