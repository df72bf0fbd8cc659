/*
 * The fields of a host-type vector (spec §17, vector_fields.h): a vocabulary (`host`) and a
 * host value (`host_value`, {"type": T, "value": X}), for a decode-to-host vector the other
 * host values allowed, and for an encode-from-host vector a refusal (`error.class`
 * not_encodable) where it has no bytes. Its check and verdict are the verdict room's
 * (verdict/host_vectors.c, host_verdict.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "vector_fields.h"

#include <string.h>

#include "host_absent.h"
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
        smcj_host_types_load(v, hv); /* for P.1 hosts_without (host_absent.c) */
    }
    const smct_json_t *alts = smct_json_get(jv, "host_alternatives");
    if (alts && v->host_decode && alts->type == SMCT_JSON_OBJECT) {
        smct_buf_t b = {0};
        smct_json_write(&b, alts); /* the shape is the schema's, checked when loading */
        v->host_alternatives = smcj_buf_take(&b);
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
