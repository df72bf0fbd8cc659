/*
 * The decisions a vector records beyond its bytes and value (spec/vectors.md V.2): which
 * requirements it tests and their tier per decoder mode (`requirements`, `by_mode`), the
 * other (class, offset) a reject may give under a permitted order of checks
 * (`error.alternatives`), and the behaviours of an implementation-defined vector
 * (`notes.alternatives`, with the outcome each would give). The verdicts name them, so a
 * codec that made another permitted choice is told which one it made.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "smct_notation.h"
#include "vector_fields.h"

char **smcj_loader_id_list(smcj_loader_t *L, const smct_json_t *arr, const char *what, size_t *n)
{
    *n = 0;
    if (!arr || arr->type != SMCT_JSON_ARRAY || arr->array.count == 0) {
        smcj_loader_problem(L, "`%s` must be a non-empty array of requirement ids", what);
        return NULL;
    }
    char **out = smcj_calloc(arr->array.count, sizeof(char *));
    for (size_t i = 0; out && i < arr->array.count; i++) {
        const smct_json_t *r = &arr->array.items[i];
        if (!smcj_json_is_string(r) || !smcj_json_no_nul(r) || r->str.len < 4 ||
            r->str.ptr[0] != 'R') {
            smcj_loader_problem(L, "`%s` holds something that is not a requirement id", what);
            continue;
        }
        char *id = smcj_json_strdup(r);
        if (!id) {
            break; /* out of memory (recorded) */
        }
        out[(*n)++] = id;
    }
    return out;
}

void smcj_vector_load_requirements(smcj_loader_t *L, smcj_vector_t *v, const smct_json_t *jv)
{
    const smct_json_t *reqs = smct_json_get(jv, "requirements");
    if (reqs) {
        v->requirements = smcj_loader_id_list(L, reqs, "requirements", &v->n_requirements);
    }
    const smct_json_t *by = smct_json_get(jv, "by_mode");
    if (!by) {
        return;
    }
    if (by->type != SMCT_JSON_OBJECT) {
        smcj_loader_problem(L, "`by_mode` must be an object keyed by decoder mode");
        return;
    }
    static const char *const modes[] = {"flutter", "strict"};
    for (size_t i = 0; i < by->object.count; i++) {
        const smct_json_member_t *m = &by->object.members[i];
        size_t mode = 0;
        while (mode < 2 && !(m->key.len == strlen(modes[mode]) &&
                             memcmp(m->key.ptr, modes[mode], m->key.len) == 0)) {
            mode++;
        }
        const smct_json_t *t = smct_json_get(&m->value, "tier");
        if (mode == 2 || m->value.type != SMCT_JSON_OBJECT || !smcj_json_is_string(t) ||
            !smcj_json_no_nul(t)) {
            smcj_loader_problem(
                L, "`by_mode` entries are \"flutter\"/\"strict\": {\"requirements\": [...], "
                   "\"tier\": T}");
            continue;
        }
        char *name = smcj_json_strdup(t);
        if (name && !smcj_tier_of_name(name, &v->mode_tier[mode])) {
            smcj_loader_problem(L, "by_mode.%s: unknown tier \"%s\"", modes[mode], name);
        }
        free(name);
        size_t n;
        char **ids = smcj_loader_id_list(L, smct_json_get(&m->value, "requirements"),
                                         "by_mode requirements", &n);
        smcj_free_strs(ids, n);
    }
}

void smcj_vector_load_order_alts(smcj_loader_t *L, smcj_vector_t *v, const smct_json_t *arr)
{
    if (arr->type != SMCT_JSON_ARRAY) {
        smcj_loader_problem(L, "error.alternatives must be an array");
        return;
    }
    v->order_alts = smcj_calloc(arr->array.count ? arr->array.count : 1, sizeof(smcj_order_alt_t));
    for (size_t i = 0; v->order_alts && i < arr->array.count; i++) {
        const smct_json_t *a = &arr->array.items[i];
        const smct_json_t *cls = smct_json_get(a, "class");
        const smct_json_t *order = smct_json_get(a, "order");
        const smct_json_t *modes = smct_json_get(a, "modes");
        uint64_t off;
        if (a->type != SMCT_JSON_OBJECT || !smcj_json_is_string(cls) || !smcj_json_no_nul(cls) ||
            !smcj_json_is_string(order) || !smcj_json_no_nul(order) ||
            !smct_json_get_u64(smct_json_get(a, "offset"), &off)) {
            smcj_loader_problem(L, "error.alternatives[%zu] needs `class`, `offset` and `order`",
                                i);
            continue;
        }
        smcj_order_alt_t *o = &v->order_alts[v->n_order_alts];
        o->cls = smcj_json_strdup(cls);
        if (!smcj_is_error_class(o->cls)) {
            smcj_loader_problem(L, "error.alternatives[%zu].class is not a decoder error class", i);
        }
        o->offset = off;
        o->order = smcj_json_strdup(order);
        o->modes[0] = v->rejects_flutter;
        o->modes[1] = v->rejects_strict;
        if (modes) {
            o->modes[0] = o->modes[1] = false;
            for (size_t k = 0; modes->type == SMCT_JSON_ARRAY && k < modes->array.count; k++) {
                o->modes[0] = o->modes[0] || smct_json_is_str(&modes->array.items[k], "flutter");
                o->modes[1] = o->modes[1] || smct_json_is_str(&modes->array.items[k], "strict");
            }
        }
        v->n_order_alts++;
    }
}

void smcj_vector_load_notes(smcj_vectors_t *vs, smcj_loader_t *L, smcj_vector_t *v,
                            const smct_json_t *notes)
{
    const smct_json_t *alts = notes ? smct_json_get(notes, "alternatives") : NULL;
    if (!alts) {
        return;
    }
    if (alts->type != SMCT_JSON_ARRAY) {
        smcj_loader_problem(L, "notes.alternatives must be an array");
        return;
    }
    v->alts = smcj_calloc(alts->array.count ? alts->array.count : 1, sizeof(smcj_alternative_t));
    for (size_t i = 0; v->alts && i < alts->array.count; i++) {
        const smct_json_t *a = &alts->array.items[i];
        const smct_json_t *beh = smct_json_get(a, "behaviour");
        const smct_json_t *who = smct_json_get(a, "who");
        if (a->type != SMCT_JSON_OBJECT || !smcj_json_is_string(beh) || !smcj_json_no_nul(beh) ||
            !who || who->type != SMCT_JSON_ARRAY) {
            smcj_loader_problem(L, "notes.alternatives[%zu] needs `behaviour` and `who`", i);
            continue;
        }
        smcj_alternative_t *out = &v->alts[v->n_alts];
        out->behaviour = smcj_json_strdup(beh);
        smct_buf_t w = {0};
        for (size_t k = 0; k < who->array.count; k++) {
            const smct_json_t *n = &who->array.items[k];
            if (smcj_json_is_string(n) && smcj_json_no_nul(n)) {
                smct_buf_printf(&w, "%s%.*s", w.len ? ", " : "", (int)n->str.len, n->str.ptr);
            }
        }
        out->who = !smcj_buf_ok(&w) ? NULL /* recorded */
                   : w.len          ? smcj_buf_take(&w)
                                    : smcj_strdup("(nobody named)");
        smct_buf_free(&w);
        const smct_json_t *oc = smct_json_get(a, "outcome");
        if (oc) {
            const smct_json_t *val = smct_json_get(oc, "value");
            const smct_json_t *err = smct_json_get(oc, "error");
            smct_error_t e;
            smct_status_t st = SMCT_OK;
            if (oc->type == SMCT_JSON_OBJECT && val && !err) {
                st = smct_notation_read(val, v->entry, &vs->arena, &out->value, &e);
                if (st == SMCT_ERR_NOMEM) {
                    smcj_nomem();
                } else if (st != SMCT_OK) {
                    smcj_loader_problem(
                        L, "notes.alternatives[%zu].outcome.value is not %s notation: %s", i,
                        smct_entry_name(v->entry), e.message ? e.message : "?");
                } else {
                    smct_buf_t b = {0};
                    smct_json_write(&b, val);
                    out->value_text = smcj_buf_take(&b);
                    out->kind = SMCJ_ALT_VALUE;
                }
            } else if (oc->type == SMCT_JSON_OBJECT && err && !val &&
                       err->type == SMCT_JSON_OBJECT) {
                const smct_json_t *cls = smct_json_get(err, "class");
                const smct_json_t *off = smct_json_get(err, "offset");
                out->kind = SMCJ_ALT_ERROR;
                if (cls) {
                    if (!smcj_json_is_string(cls) || !smcj_json_no_nul(cls)) {
                        smcj_loader_problem(
                            L, "notes.alternatives[%zu].outcome.error.class is not a string", i);
                    } else {
                        out->cls = smcj_json_strdup(cls);
                    }
                }
                if (off) {
                    out->has_offset = smct_json_get_u64(off, &out->offset);
                    if (!out->has_offset) {
                        smcj_loader_problem(
                            L, "notes.alternatives[%zu].outcome.error.offset is not an offset", i);
                    }
                }
            } else {
                smcj_loader_problem(
                    L, "notes.alternatives[%zu].outcome is {\"value\": V} or {\"error\": {...}}",
                    i);
            }
        }
        v->n_alts++;
    }
}
