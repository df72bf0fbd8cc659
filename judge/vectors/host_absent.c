/*
 * Host types a codec's API cannot take or give (spec §17.1, runners/PROTOCOL.md P.1
 * `hosts_without`). The runner states them once, in its hello, so the statement is seen before
 * any vector and cannot be made for one failing vector alone. Which types may be stated is the
 * protocol schema's list per vocabulary (core types are not in it, so a hello stating one was
 * refused before this file reads it). A host vector whose value holds a stated type is still
 * sent: any answer but a value makes it n/a with the statement as its reason, and a value
 * contradicts the statement, a protocol error.
 */
#define _POSIX_C_SOURCE 200809L
#include "host_absent.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"

/* Host values nest no deeper than this in any vector (host_verdict.c's bound too). */
#define ABSENT_MAX_DEPTH 64

static bool add_pair(smcj_runner_t *r, const char *host, const char *type)
{
    size_t cap = r->n_without;
    size_t cap2 = r->n_without;
    if (!smcj_grow((void **)&r->without_host, &cap, r->n_without + 1, sizeof(char *)) ||
        !smcj_grow((void **)&r->without_type, &cap2, r->n_without + 1, sizeof(char *))) {
        return false;
    }
    r->without_host[r->n_without] = smcj_strdup(host);
    r->without_type[r->n_without] = smcj_strdup(type);
    if (!r->without_host[r->n_without] || !r->without_type[r->n_without]) {
        free(r->without_host[r->n_without]);
        free(r->without_type[r->n_without]);
        return false;
    }
    r->n_without++;
    return true;
}

void smcj_host_absent_take(smcj_runner_t *r, const smct_json_t *without, smct_buf_t *note)
{
    for (size_t i = 0; without && without->type == SMCT_JSON_OBJECT && i < without->object.count;
         i++) {
        const smct_str_t *key = &without->object.members[i].key;
        const smct_json_t *types = &without->object.members[i].value;
        char *host = smcj_strndup(key->ptr, key->len);
        if (!host) {
            return;
        }
        if (!smcj_caps_have(r->hosts, r->n_hosts, host)) { /* P.1 hosts */
            /* a statement about a vocabulary whose vectors are n/a anyway: said, and ignored */
            smct_buf_printf(note, "%shosts_without \"", note->len ? "; " : "");
            smcj_buf_excerpt(note, key->ptr, key->len, 60);
            smct_buf_puts(note, "\" ignored: not a vocabulary it speaks (P.1 hosts)");
            free(host);
            continue;
        }
        for (size_t k = 0; types->type == SMCT_JSON_ARRAY && k < types->array.count; k++) {
            const smct_json_t *t = &types->array.items[k];
            /* the schema made every item a string of the vocabulary's list */
            char *name = t->type == SMCT_JSON_STRING ? smcj_strndup(t->str.ptr, t->str.len) : NULL;
            bool ok = !name || smcj_host_states_absent(r, host, name) || add_pair(r, host, name);
            free(name);
            if (!ok) {
                break; /* out of memory, recorded */
            }
        }
        free(host);
    }
}

bool smcj_host_states_absent(const smcj_runner_t *r, const char *host, const char *type)
{
    for (size_t i = 0; host && type && i < r->n_without; i++) {
        if (strcmp(r->without_host[i], host) == 0 && strcmp(r->without_type[i], type) == 0) {
            return true;
        }
    }
    return false;
}

static bool have(char *const *names, size_t n, const char *s, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0) {
            return true;
        }
    }
    return false;
}

/* Adds the type names of host value `hv` (and of every host value nested in its literal) to
 * v->host_types, each once. */
static void collect(smcj_vector_t *v, const smct_json_t *hv, int depth)
{
    const smct_json_t *t = smct_json_get(hv, "type");
    const smct_json_t *x = smct_json_get(hv, "value");
    if (depth > ABSENT_MAX_DEPTH || !t || t->type != SMCT_JSON_STRING) {
        return;
    }
    if (!have(v->host_types, v->n_host_types, t->str.ptr, t->str.len)) {
        size_t cap = v->n_host_types;
        if (!smcj_grow((void **)&v->host_types, &cap, v->n_host_types + 1, sizeof(char *))) {
            return;
        }
        v->host_types[v->n_host_types] = smcj_strndup(t->str.ptr, t->str.len);
        v->n_host_types += v->host_types[v->n_host_types] != NULL;
    }
    for (size_t i = 0; x && x->type == SMCT_JSON_ARRAY && i < x->array.count; i++) {
        const smct_json_t *e = &x->array.items[i];
        if (e->type == SMCT_JSON_OBJECT) {
            collect(v, e, depth + 1);
        }
        for (size_t k = 0; e->type == SMCT_JSON_ARRAY && k < e->array.count; k++) {
            if (e->array.items[k].type == SMCT_JSON_OBJECT) {
                collect(v, &e->array.items[k], depth + 1); /* a map's [key, value] pair */
            }
        }
    }
}

void smcj_host_types_load(smcj_vector_t *v, const smct_json_t *hv)
{
    collect(v, hv, 0);
}

const char *smcj_host_absent_of(const smcj_runner_t *r, const smcj_vector_t *v)
{
    for (size_t i = 0; i < v->n_host_types; i++) {
        if (smcj_host_states_absent(r, v->host, v->host_types[i])) {
            return v->host_types[i];
        }
    }
    return NULL;
}

/* The first node of answer `hv` whose type the runner states absent; NULL if none. */
static const smct_json_t *absent_node(const smcj_runner_t *r, const char *host,
                                      const smct_json_t *hv, int depth)
{
    const smct_json_t *t = smct_json_get(hv, "type");
    const smct_json_t *x = smct_json_get(hv, "value");
    if (depth > ABSENT_MAX_DEPTH || !t || t->type != SMCT_JSON_STRING) {
        return NULL;
    }
    char *name = smcj_strndup(t->str.ptr, t->str.len);
    bool absent = name && smcj_host_states_absent(r, host, name);
    free(name);
    if (absent) {
        return t;
    }
    for (size_t i = 0; x && x->type == SMCT_JSON_ARRAY && i < x->array.count; i++) {
        const smct_json_t *e = &x->array.items[i];
        const smct_json_t *found =
            e->type == SMCT_JSON_OBJECT ? absent_node(r, host, e, depth + 1) : NULL;
        for (size_t k = 0; !found && e->type == SMCT_JSON_ARRAY && k < e->array.count; k++) {
            if (e->array.items[k].type == SMCT_JSON_OBJECT) {
                found = absent_node(r, host, &e->array.items[k], depth + 1);
            }
        }
        if (found) {
            return found;
        }
    }
    return NULL;
}

char *smcj_host_absent_answer(const smcj_runner_t *r, const smcj_vector_t *v,
                              const smct_json_t *host_value)
{
    const smct_json_t *t = r->n_without ? absent_node(r, v->host, host_value, 0) : NULL;
    if (!t) {
        return NULL;
    }
    smct_buf_t b = {0};
    smct_buf_puts(&b, "the runner states its API has no ");
    smcj_buf_excerpt(&b, t->str.ptr, t->str.len, 60);
    smct_buf_puts(&b, " (P.1 hosts_without), yet decoded into one: its statement is not true");
    return smcj_buf_take(&b);
}

char *smcj_host_absent_reason(const char *type)
{
    return smcj_asprintf("runner states its API has no %s (P.1 hosts_without; spec §17.1)", type);
}
