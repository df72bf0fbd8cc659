/* Vector files: loading and shape validation (spec/vectors.md V.1, V.2, V.3). */
#define _POSIX_C_SOURCE 200809L
#include "vectors.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

#include "smct_json.h"
#include "smct_notation.h"

static const char *const k_kinds[] = {"message",     "pigeon_request",   "pigeon_reply",
                                      "method_call", "success_envelope", "error_envelope",
                                      "envelope"};
static const smct_entry_t k_kind_entry[] = {
    SMCT_ENTRY_MESSAGE,  SMCT_ENTRY_MESSAGE,  SMCT_ENTRY_MESSAGE, SMCT_ENTRY_CALL,
    SMCT_ENTRY_ENVELOPE, SMCT_ENTRY_ENVELOPE, SMCT_ENTRY_ENVELOPE};
/* Decoder error classes (spec/errors.md §14.1); a reject vector names one of these. */
static const char *const k_decode_classes[] = {"truncated",   "trailing_bytes", "unknown_tag",
                                               "bad_utf8",    "depth_limit",    "not_canonical",
                                               "bad_envelope"};
static const char *const k_vector_keys[] = {
    "id",   "description", "section",  "tier",   "requirements", "by_mode",
    "kind", "since",       "features", "value",  "canonical",    "accepted",
    "hex",  "error",       "focus",    "origin", "notes"};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

bool smcj_section_matches(const char *section, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(section, prefix, n) == 0 && (section[n] == '\0' || section[n] == '.');
}

bool smcj_vector_has_feature(const smcj_vector_t *v, const char *f)
{
    for (size_t i = 0; i < v->n_features; i++) {
        if (strcmp(v->features[i], f) == 0) {
            return true;
        }
    }
    return false;
}

size_t smcj_vectors_find(const smcj_vectors_t *vs, const char *id)
{
    for (size_t i = 0; i < vs->count; i++) {
        if (strcmp(vs->v[i].id, id) == 0) {
            return i;
        }
    }
    return SIZE_MAX;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* FNV-1a, so every runner and every rerun gets the same shift for one vector. */
static unsigned shift_of(const char *id)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)id; *p; p++) {
        h = (h ^ *p) * 16777619u;
    }
    return 1u + h % 7u;
}

typedef struct loader {
    smcj_buf_t *errors;
    const char *file;
    const char *id;
    size_t n_errors;
    smcj_vectors_t *vs;
} loader_t;

/* V.4: consumers ignore fields they do not know; the judge names each one once. */
static void unknown_field(loader_t *L, const char *where, const char *key, size_t len)
{
    char *name = smcj_xasprintf("%s%.*s", where, (int)len, key);
    for (size_t i = 0; i < L->vs->n_unknown_fields; i++) {
        if (strcmp(L->vs->unknown_fields[i], name) == 0) {
            free(name);
            return;
        }
    }
    L->vs->unknown_fields =
        smcj_xrealloc(L->vs->unknown_fields, (L->vs->n_unknown_fields + 1) * sizeof(char *));
    L->vs->unknown_fields[L->vs->n_unknown_fields++] = name;
}

static bool known_key(const smct_json_member_t *m, const char *const *keys, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (m->key.len == strlen(keys[k]) && memcmp(m->key.ptr, keys[k], m->key.len) == 0) {
            return true;
        }
    }
    return false;
}

static void problem(loader_t *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(loader_t *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    smcj_buf_printf(L->errors, "%s: %s%s", L->file, L->id ? L->id : "", L->id ? ": " : "");
    smcj_buf_vprintf(L->errors, fmt, ap);
    smcj_buf_putc(L->errors, '\n');
    va_end(ap);
    L->n_errors++;
}

static char *dup_json_str(const smct_json_t *j)
{
    return smcj_xstrndup(j->str.ptr, j->str.len);
}

static bool is_string(const smct_json_t *j)
{
    return j && j->type == SMCT_JSON_STRING;
}

static bool no_nul(const smct_json_t *j)
{
    return memchr(j->str.ptr, '\0', j->str.len) == NULL;
}

/* A required string field without NUL; NULL (after a problem) if absent or malformed. */
static char *req_str(loader_t *L, const smct_json_t *obj, const char *key)
{
    const smct_json_t *j = smct_json_get(obj, key);
    if (!is_string(j) || !no_nul(j)) {
        problem(L, "field `%s` missing or not a string", key);
        return NULL;
    }
    return dup_json_str(j);
}

static bool parse_hex_field(loader_t *L, const smct_json_t *j, const char *what, char **hex,
                            uint8_t **bytes, size_t *len)
{
    if (!is_string(j) || !smcj_hex_decode(j->str.ptr, j->str.len, bytes, len)) {
        problem(L, "`%s` is not lower-case hex with an even number of digits", what);
        return false;
    }
    *hex = dup_json_str(j);
    return true;
}

static bool id_shape_ok(const char *id, char *section_out, size_t section_size)
{
    /* sNN.M-slug (V.2); slug words are [a-z0-9]+ joined by single dashes. */
    const char *p = id;
    if (p[0] != 's' || !(p[1] >= '0' && p[1] <= '9') || !(p[2] >= '0' && p[2] <= '9') ||
        p[3] != '.') {
        return false;
    }
    p += 4;
    const char *minor = p;
    while (*p >= '0' && *p <= '9') {
        p++;
    }
    if (p == minor || *p != '-') {
        return false;
    }
    int major = (id[1] - '0') * 10 + (id[2] - '0');
    snprintf(section_out, section_size, "%d.%.*s", major, (int)(p - minor), minor);
    p++;
    bool word = false;
    for (; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) {
            word = true;
        } else if (*p == '-' && word) {
            word = false;
        } else {
            return false;
        }
    }
    return word;
}

static bool tier_of_name(const char *name, smcj_tier_t *out)
{
    static const smcj_tier_t all[] = {SMCJ_TIER_REQUIRED, SMCJ_TIER_RECOMMENDED, SMCJ_TIER_IMPLDEF};
    for (size_t i = 0; i < COUNT_OF(all); i++) {
        if (strcmp(name, smcj_tier_name(all[i])) == 0) {
            *out = all[i];
            return true;
        }
    }
    return false;
}

/* An array of requirement ids ("R5.3-2"); NULL after a problem. */
static char **id_list(loader_t *L, const smct_json_t *arr, const char *what, size_t *n)
{
    *n = 0;
    if (!arr || arr->type != SMCT_JSON_ARRAY || arr->array.count == 0) {
        problem(L, "`%s` must be a non-empty array of requirement ids", what);
        return NULL;
    }
    char **out = smcj_xcalloc(arr->array.count, sizeof(char *));
    for (size_t i = 0; i < arr->array.count; i++) {
        const smct_json_t *r = &arr->array.items[i];
        if (!is_string(r) || !no_nul(r) || r->str.len < 4 || r->str.ptr[0] != 'R') {
            problem(L, "`%s` holds something that is not a requirement id", what);
            continue;
        }
        out[(*n)++] = dup_json_str(r);
    }
    return out;
}

/* V.2 `requirements` and `by_mode` (tiers per decoder mode). */
static void load_requirements(loader_t *L, smcj_vector_t *v, const smct_json_t *jv)
{
    const smct_json_t *reqs = smct_json_get(jv, "requirements");
    if (reqs) {
        v->requirements = id_list(L, reqs, "requirements", &v->n_requirements);
    }
    const smct_json_t *by = smct_json_get(jv, "by_mode");
    if (!by) {
        return;
    }
    if (by->type != SMCT_JSON_OBJECT) {
        problem(L, "`by_mode` must be an object keyed by decoder mode");
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
        if (mode == 2 || m->value.type != SMCT_JSON_OBJECT || !is_string(t) || !no_nul(t)) {
            problem(L, "`by_mode` entries are \"flutter\"/\"strict\": {\"requirements\": [...], "
                       "\"tier\": T}");
            continue;
        }
        char *name = dup_json_str(t);
        if (!tier_of_name(name, &v->mode_tier[mode])) {
            problem(L, "by_mode.%s: unknown tier \"%s\"", modes[mode], name);
        }
        free(name);
        size_t n;
        char **ids =
            id_list(L, smct_json_get(&m->value, "requirements"), "by_mode requirements", &n);
        for (size_t k = 0; k < n; k++) {
            free(ids[k]);
        }
        free(ids);
    }
}

/* V.2 error.alternatives: [{"class", "offset", "order", "modes"?}]. */
static void load_order_alts(loader_t *L, smcj_vector_t *v, const smct_json_t *arr)
{
    if (arr->type != SMCT_JSON_ARRAY) {
        problem(L, "error.alternatives must be an array");
        return;
    }
    v->order_alts = smcj_xcalloc(arr->array.count ? arr->array.count : 1, sizeof(smcj_order_alt_t));
    for (size_t i = 0; i < arr->array.count; i++) {
        const smct_json_t *a = &arr->array.items[i];
        const smct_json_t *cls = smct_json_get(a, "class");
        const smct_json_t *order = smct_json_get(a, "order");
        const smct_json_t *modes = smct_json_get(a, "modes");
        uint64_t off;
        if (a->type != SMCT_JSON_OBJECT || !is_string(cls) || !no_nul(cls) || !is_string(order) ||
            !no_nul(order) || !smct_json_get_u64(smct_json_get(a, "offset"), &off)) {
            problem(L, "error.alternatives[%zu] needs `class`, `offset` and `order`", i);
            continue;
        }
        smcj_order_alt_t *o = &v->order_alts[v->n_order_alts];
        o->cls = dup_json_str(cls);
        bool known = false;
        for (size_t k = 0; k < COUNT_OF(k_decode_classes); k++) {
            known = known || strcmp(k_decode_classes[k], o->cls) == 0;
        }
        if (!known) {
            problem(L, "error.alternatives[%zu].class is not a decoder error class", i);
        }
        o->offset = off;
        o->order = dup_json_str(order);
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

/* V.2 notes.alternatives[]: behaviour, who and the optional machine-readable outcome. */
static void load_notes(smcj_vectors_t *vs, loader_t *L, smcj_vector_t *v, const smct_json_t *notes)
{
    const smct_json_t *alts = notes ? smct_json_get(notes, "alternatives") : NULL;
    if (!alts) {
        return;
    }
    if (alts->type != SMCT_JSON_ARRAY) {
        problem(L, "notes.alternatives must be an array");
        return;
    }
    v->alts = smcj_xcalloc(alts->array.count ? alts->array.count : 1, sizeof(smcj_alternative_t));
    for (size_t i = 0; i < alts->array.count; i++) {
        const smct_json_t *a = &alts->array.items[i];
        const smct_json_t *beh = smct_json_get(a, "behaviour");
        const smct_json_t *who = smct_json_get(a, "who");
        if (a->type != SMCT_JSON_OBJECT || !is_string(beh) || !no_nul(beh) || !who ||
            who->type != SMCT_JSON_ARRAY) {
            problem(L, "notes.alternatives[%zu] needs `behaviour` and `who`", i);
            continue;
        }
        smcj_alternative_t *out = &v->alts[v->n_alts];
        out->behaviour = dup_json_str(beh);
        smcj_buf_t w = {0};
        for (size_t k = 0; k < who->array.count; k++) {
            const smct_json_t *n = &who->array.items[k];
            if (is_string(n) && no_nul(n)) {
                smcj_buf_printf(&w, "%s%.*s", w.len ? ", " : "", (int)n->str.len, n->str.ptr);
            }
        }
        out->who = w.len ? smcj_buf_steal(&w) : smcj_xstrdup("(nobody named)");
        smcj_buf_free(&w);
        const smct_json_t *oc = smct_json_get(a, "outcome");
        if (oc) {
            const smct_json_t *val = smct_json_get(oc, "value");
            const smct_json_t *err = smct_json_get(oc, "error");
            smct_error_t e;
            if (oc->type == SMCT_JSON_OBJECT && val && !err) {
                if (smct_notation_read(val, v->entry, &vs->arena, &out->value, &e) != SMCT_OK) {
                    problem(L, "notes.alternatives[%zu].outcome.value is not %s notation: %s", i,
                            smct_entry_name(v->entry), e.message ? e.message : "?");
                } else {
                    smct_buf_t b = {0};
                    smct_json_write(&b, val);
                    out->value_text = smcj_xstrndup(smct_buf_cstr(&b), b.len);
                    smct_buf_free(&b);
                    out->kind = SMCJ_ALT_VALUE;
                }
            } else if (oc->type == SMCT_JSON_OBJECT && err && !val &&
                       err->type == SMCT_JSON_OBJECT) {
                const smct_json_t *cls = smct_json_get(err, "class");
                const smct_json_t *off = smct_json_get(err, "offset");
                out->kind = SMCJ_ALT_ERROR;
                if (cls) {
                    if (!is_string(cls) || !no_nul(cls)) {
                        problem(L, "notes.alternatives[%zu].outcome.error.class is not a string",
                                i);
                    } else {
                        out->cls = dup_json_str(cls);
                    }
                }
                if (off) {
                    out->has_offset = smct_json_get_u64(off, &out->offset);
                    if (!out->has_offset) {
                        problem(L, "notes.alternatives[%zu].outcome.error.offset is not an offset",
                                i);
                    }
                }
            } else {
                problem(L,
                        "notes.alternatives[%zu].outcome is {\"value\": V} or {\"error\": {...}}",
                        i);
            }
        }
        v->n_alts++;
    }
}

static void load_vector(smcj_vectors_t *vs, loader_t *L, const smct_json_t *jv,
                        const char *file_base)
{
    smcj_vector_t v;
    memset(&v, 0, sizeof v);
    v.file = smcj_xstrdup(file_base);
    L->id = NULL;
    if (!jv || jv->type != SMCT_JSON_OBJECT) {
        problem(L, "a vector is not a JSON object");
        free(v.file);
        return;
    }
    size_t before = L->n_errors;
    v.id = req_str(L, jv, "id");
    if (!v.id) {
        free(v.file);
        return;
    }
    L->id = v.id;
    for (size_t i = 0; i < jv->object.count; i++) {
        const smct_json_member_t *m = &jv->object.members[i];
        if (!known_key(m, k_vector_keys, COUNT_OF(k_vector_keys))) {
            unknown_field(L, "", m->key.ptr, m->key.len);
        }
    }
    char id_section[32];
    if (!id_shape_ok(v.id, id_section, sizeof id_section)) {
        problem(L, "id does not have the shape sNN.M-slug");
        id_section[0] = '\0';
    }
    if (smcj_vectors_find(vs, v.id) != SIZE_MAX) {
        problem(L, "duplicate id (ids are unique across all files, V.2)");
    }
    v.description = req_str(L, jv, "description");
    v.section = req_str(L, jv, "section");
    if (v.section && id_section[0] && strcmp(v.section, id_section) != 0) {
        problem(L, "section \"%s\" does not match the id (expected \"%s\")", v.section, id_section);
    }
    char *since = req_str(L, jv, "since");
    free(since);
    char *tier = req_str(L, jv, "tier");
    if (tier && !tier_of_name(tier, &v.tier)) {
        problem(L, "unknown tier \"%s\"", tier);
    }
    free(tier);
    v.mode_tier[0] = v.mode_tier[1] = v.tier;
    load_requirements(L, &v, jv);
    v.kind = req_str(L, jv, "kind");
    if (v.kind) {
        size_t k;
        for (k = 0; k < COUNT_OF(k_kinds) && strcmp(k_kinds[k], v.kind) != 0; k++) {
        }
        if (k == COUNT_OF(k_kinds)) {
            problem(L, "unknown kind \"%s\"", v.kind);
        } else {
            v.entry = k_kind_entry[k];
        }
    }
    const smct_json_t *feats = smct_json_get(jv, "features");
    if (!feats || feats->type != SMCT_JSON_ARRAY) {
        problem(L, "field `features` missing or not an array");
    } else {
        v.features = smcj_xcalloc(feats->array.count, sizeof(char *));
        for (size_t i = 0; i < feats->array.count; i++) {
            const smct_json_t *f = &feats->array.items[i];
            if (!is_string(f) || !no_nul(f)) {
                problem(L, "a feature is not a string");
                continue;
            }
            v.features[v.n_features++] = dup_json_str(f);
            if (v.n_features > 1 &&
                strcmp(v.features[v.n_features - 2], v.features[v.n_features - 1]) >= 0) {
                problem(L, "`features` is not sorted and unique (V.2)");
            }
        }
    }
    const smct_json_t *focus = smct_json_get(jv, "focus");
    if (focus) {
        const smct_json_t *path = smct_json_get(focus, "path");
        int64_t off;
        if (focus->type != SMCT_JSON_OBJECT || !is_string(path) || !no_nul(path)) {
            problem(L, "`focus` must be {\"path\": ..., \"offset\": N}");
        } else if (smct_json_get_i64(smct_json_get(focus, "offset"), &off) && off >= 0) {
            v.focus = smcj_xasprintf("%.*s at offset %lld", (int)path->str.len, path->str.ptr,
                                     (long long)off);
        } else {
            v.focus = smcj_xasprintf("%.*s", (int)path->str.len, path->str.ptr);
        }
    }

    const smct_json_t *value = smct_json_get(jv, "value");
    const smct_json_t *canonical = smct_json_get(jv, "canonical");
    const smct_json_t *hex = smct_json_get(jv, "hex");
    const smct_json_t *error = smct_json_get(jv, "error");
    if (value) {
        smct_error_t e;
        if (smct_notation_read(value, v.entry, &vs->arena, &v.value, &e) != SMCT_OK) {
            problem(L, "`value` is not valid %s notation: %s (JSON offset %zu)",
                    smct_entry_name(v.entry), e.message ? e.message : "?", e.offset);
        } else {
            smct_buf_t b = {0};
            smct_json_write(&b, value);
            v.value_text = smcj_xstrndup(smct_buf_cstr(&b), b.len);
            smct_buf_free(&b);
            v.has_value = true;
        }
    }
    if (canonical && (hex || error)) {
        problem(L,
                "a vector is either valid (`canonical`) or a reject (`hex` + `error`), not both");
    } else if (canonical) {
        v.is_valid = true;
        if (!value) {
            problem(L, "a valid vector needs `value`");
        }
        parse_hex_field(L, canonical, "canonical", &v.canonical_hex, &v.canonical,
                        &v.canonical_len);
        const smct_json_t *acc = smct_json_get(jv, "accepted");
        if (acc && acc->type != SMCT_JSON_ARRAY) {
            problem(L, "`accepted` is not an array");
        } else if (acc) {
            v.accepted = smcj_xcalloc(acc->array.count, sizeof(smcj_accepted_t));
            for (size_t i = 0; i < acc->array.count; i++) {
                const smct_json_t *a = &acc->array.items[i];
                smcj_accepted_t *out = &v.accepted[v.n_accepted];
                const smct_json_t *strict = smct_json_get(a, "strict");
                const smct_json_t *why = smct_json_get(a, "why");
                if (a->type != SMCT_JSON_OBJECT || !strict || !is_string(why)) {
                    problem(L, "accepted[%zu] needs `hex`, `why` and `strict`", i);
                    continue;
                }
                if (!parse_hex_field(L, smct_json_get(a, "hex"), "accepted.hex", &out->hex,
                                     &out->bytes, &out->len)) {
                    continue;
                }
                out->why = dup_json_str(why);
                if (is_string(strict) && no_nul(strict)) {
                    out->strict_class = dup_json_str(strict);
                } else if (strict->type != SMCT_JSON_NULL) {
                    problem(L, "accepted[%zu].strict must be a class or null", i);
                }
                v.n_accepted++;
            }
        }
    } else if (hex || error) {
        v.is_reject = true;
        if (!hex || !error || error->type != SMCT_JSON_OBJECT) {
            problem(L, "a reject vector needs `hex` and an `error` object");
        } else {
            parse_hex_field(L, hex, "hex", &v.hex, &v.bytes, &v.len);
            const smct_json_t *cls = smct_json_get(error, "class");
            const smct_json_t *modes = smct_json_get(error, "modes");
            uint64_t off = 0;
            bool known = false;
            if (is_string(cls)) {
                v.err_class = dup_json_str(cls);
                for (size_t k = 0; k < COUNT_OF(k_decode_classes); k++) {
                    known = known || strcmp(k_decode_classes[k], v.err_class) == 0;
                }
            }
            if (!known) {
                problem(L, "error.class is not a decoder error class of spec/errors.md §14.1");
            }
            if (!smct_json_get_u64(smct_json_get(error, "offset"), &off)) {
                problem(L, "error.offset is not a non-negative integer");
            } else if (v.bytes && off > v.len) {
                problem(L, "error.offset %llu is past the input (%zu bytes)",
                        (unsigned long long)off, v.len);
            }
            v.err_offset = off;
            if (!modes || modes->type != SMCT_JSON_ARRAY || modes->array.count == 0) {
                problem(L, "error.modes must be a non-empty array");
            } else {
                for (size_t i = 0; i < modes->array.count; i++) {
                    if (smct_json_is_str(&modes->array.items[i], "flutter") && !v.rejects_flutter) {
                        v.rejects_flutter = true;
                    } else if (smct_json_is_str(&modes->array.items[i], "strict") &&
                               !v.rejects_strict) {
                        v.rejects_strict = true;
                    } else {
                        problem(L, "error.modes holds something other than \"flutter\" and "
                                   "\"strict\" once each");
                    }
                }
            }
            if (v.rejects_strict && !v.rejects_flutter && !value) {
                problem(L,
                        "a strict-only reject carries the `value` flutter mode decodes to (V.2)");
            }
            if (v.rejects_flutter && value) {
                problem(L, "a reject vector rejected in flutter mode has no `value`");
            }
            static const char *const error_keys[] = {"class", "offset", "modes", "alternatives"};
            for (size_t i = 0; i < error->object.count; i++) {
                if (!known_key(&error->object.members[i], error_keys, COUNT_OF(error_keys))) {
                    unknown_field(L, "error.", error->object.members[i].key.ptr,
                                  error->object.members[i].key.len);
                }
            }
            const smct_json_t *oalts = smct_json_get(error, "alternatives");
            if (oalts) {
                load_order_alts(L, &v, oalts);
            }
        }
    } else {
        problem(L, "neither valid (`value` + `canonical`) nor a reject (`hex` + `error`)");
    }
    bool impldef = v.tier == SMCJ_TIER_IMPLDEF || v.mode_tier[0] == SMCJ_TIER_IMPLDEF ||
                   v.mode_tier[1] == SMCJ_TIER_IMPLDEF;
    if (impldef && !smct_json_get(jv, "notes")) {
        problem(L, "an implementation-defined vector needs `notes` (V.2)");
    }
    load_notes(vs, L, &v, smct_json_get(jv, "notes"));
    v.shift = shift_of(v.id);
    if (L->n_errors != before) {
        /* keep the id so duplicates are still detected, but the vector never runs */
        v.is_valid = v.is_reject = false;
    }
    if (vs->count % 256 == 0) {
        vs->v = smcj_xrealloc(vs->v, (vs->count + 256) * sizeof *vs->v);
    }
    vs->v[vs->count++] = v;
}

static void load_file(smcj_vectors_t *vs, loader_t *L, const char *path, const char *base)
{
    L->file = base;
    L->id = NULL;
    char err[512];
    size_t len;
    char *text = smcj_read_file(path, &len, err, sizeof err);
    if (!text) {
        problem(L, "%s", err);
        return;
    }
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_json_t *root = NULL;
    smct_error_t e;
    if (smct_json_parse(text, len, NULL, &arena, &root, &e) != SMCT_OK) {
        problem(L, "not JSON: %s at byte %zu", e.message ? e.message : "?", e.offset);
    } else if (root->type != SMCT_JSON_OBJECT) {
        problem(L, "the file is not a JSON object (V.1)");
    } else {
        int64_t fv = 0;
        if (!smct_json_is_str(smct_json_get(root, "suite"), "smc-conformance")) {
            problem(L, "`suite` is not \"smc-conformance\" (V.1)");
        }
        if (!smct_json_get_i64(smct_json_get(root, "format_version"), &fv) || fv != 1) {
            problem(L, "`format_version` is not 1 (this judge reads vectors format 1, V.4)");
        }
        if (!is_string(smct_json_get(root, "section")) ||
            !is_string(smct_json_get(root, "title")) ||
            !is_string(smct_json_get(root, "spec_version"))) {
            problem(L, "`section`, `title` and `spec_version` must be strings (V.1)");
        }
        const smct_json_t *arr = smct_json_get(root, "vectors");
        if (!arr || arr->type != SMCT_JSON_ARRAY) {
            problem(L, "`vectors` missing or not an array (V.1)");
        } else {
            for (size_t i = 0; i < arr->array.count; i++) {
                load_vector(vs, L, &arr->array.items[i], base);
            }
        }
    }
    smc_arena_free(&arena);
    free(text);
}

bool smcj_vectors_load(smcj_vectors_t *vs, const char *dir, smcj_buf_t *errors)
{
    memset(vs, 0, sizeof *vs);
    smc_arena_init_allocator(&vs->arena, NULL);
    vs->dir = smcj_xstrdup(dir);
    loader_t L = {errors, dir, NULL, 0, vs};
    DIR *d = opendir(dir);
    if (!d) {
        problem(&L, "cannot open the vectors directory: %s", strerror(errno));
        return false;
    }
    struct dirent *de;
    char **names = NULL;
    size_t n = 0;
    while ((de = readdir(d)) != NULL) {
        if (fnmatch("s[0-9][0-9]-*.json", de->d_name, 0) == 0) {
            names = smcj_xrealloc(names, (n + 1) * sizeof *names);
            names[n++] = smcj_xstrdup(de->d_name);
        }
    }
    closedir(d);
    if (n == 0) {
        problem(&L, "no vector files (s*.json)");
        free(names);
        return false;
    }
    qsort(names, n, sizeof *names, cmp_str);
    vs->files = smcj_xcalloc(n, sizeof(char *));
    for (size_t i = 0; i < n; i++) {
        char *path = smcj_xasprintf("%s/%s", dir, names[i]);
        load_file(vs, &L, path, names[i]);
        vs->files[vs->n_files++] = path;
        free(names[i]);
    }
    free(names);
    if (L.n_errors == 0 && vs->count == 0) {
        L.file = dir;
        problem(&L, "the vector files hold no vectors");
    }
    return L.n_errors == 0;
}

void smcj_vectors_free(smcj_vectors_t *vs)
{
    for (size_t i = 0; i < vs->count; i++) {
        smcj_vector_t *v = &vs->v[i];
        free(v->id);
        free(v->description);
        free(v->section);
        free(v->kind);
        free(v->file);
        for (size_t k = 0; k < v->n_features; k++) {
            free(v->features[k]);
        }
        free(v->features);
        free(v->focus);
        free(v->value_text);
        free(v->canonical_hex);
        free(v->canonical);
        for (size_t k = 0; k < v->n_accepted; k++) {
            free(v->accepted[k].hex);
            free(v->accepted[k].bytes);
            free(v->accepted[k].why);
            free(v->accepted[k].strict_class);
        }
        free(v->accepted);
        free(v->hex);
        free(v->bytes);
        free(v->err_class);
        for (size_t k = 0; k < v->n_requirements; k++) {
            free(v->requirements[k]);
        }
        free(v->requirements);
        for (size_t k = 0; k < v->n_order_alts; k++) {
            free(v->order_alts[k].cls);
            free(v->order_alts[k].order);
        }
        free(v->order_alts);
        for (size_t k = 0; k < v->n_alts; k++) {
            free(v->alts[k].behaviour);
            free(v->alts[k].who);
            free(v->alts[k].value_text);
            free(v->alts[k].cls);
        }
        free(v->alts);
    }
    for (size_t i = 0; i < vs->n_unknown_fields; i++) {
        free(vs->unknown_fields[i]);
    }
    free(vs->unknown_fields);
    free(vs->v);
    for (size_t i = 0; i < vs->n_files; i++) {
        free(vs->files[i]);
    }
    free(vs->files);
    free(vs->dir);
    smc_arena_free(&vs->arena);
    memset(vs, 0, sizeof *vs);
}
