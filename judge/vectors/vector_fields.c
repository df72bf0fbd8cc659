/*
 * One vector object of a vector file (spec/vectors.md V.2, V.3) to an smcj_vector_t. Every
 * shape rule is checked and every violation reported (file, id, what), not just the first:
 * whoever edits a case file sees all its mistakes in one run. A vector with any problem keeps
 * its id, so a duplicate is still found, but it never runs. The recorded decisions
 * (requirements, tiers per mode, alternatives) are vector_decisions.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include "vector_fields.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smct_notation.h"
#include "smct_vocab.h"
#include "smct_hex.h"
#include "vectors.h"

static const char *const k_kinds[] = {"message",     "pigeon_request",   "pigeon_reply",
                                      "method_call", "success_envelope", "error_envelope",
                                      "envelope",    "host_encode",      "host_decode"};
static const smc_entry_t k_kind_entry[] = {
    SMC_ENTRY_MESSAGE,  SMC_ENTRY_MESSAGE,  SMC_ENTRY_MESSAGE, SMC_ENTRY_CALL,   SMC_ENTRY_ENVELOPE,
    SMC_ENTRY_ENVELOPE, SMC_ENTRY_ENVELOPE, SMC_ENTRY_MESSAGE, SMC_ENTRY_MESSAGE};
/* Decoder error classes (spec/errors.md §14.1, vectors/schema.json): a reject vector names
 * one of these. */
static const char *const k_decode_classes[] = {SMCT_ERROR_CLASS_LIST(SMCT_VOCAB_ITEM)};
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

bool smcj_is_error_class(const char *cls)
{
    for (size_t k = 0; cls && k < COUNT_OF(k_decode_classes); k++) {
        if (strcmp(k_decode_classes[k], cls) == 0) {
            return true;
        }
    }
    return false;
}

/* V.4: consumers ignore fields they do not know; the judge names each one once. */
void smcj_loader_unknown_field(smcj_loader_t *L, const char *where, const char *key, size_t len)
{
    char *name = smcj_asprintf("%s%.*s", where, (int)len, key);
    if (!name) {
        return; /* out of memory (recorded) */
    }
    for (size_t i = 0; i < L->vs->n_unknown_fields; i++) {
        if (strcmp(L->vs->unknown_fields[i], name) == 0) {
            free(name);
            return;
        }
    }
    if (L->vs->n_unknown_fields == SMCJ_MAX_UNKNOWN_FIELDS) {
        free(name); /* a file with a million made-up fields names the first ones, not all */
        name = smcj_strdup("(and more)");
        if (!name) {
            return;
        }
    } else if (L->vs->n_unknown_fields > SMCJ_MAX_UNKNOWN_FIELDS) {
        free(name);
        return;
    }
    size_t cap = L->vs->n_unknown_fields;
    if (!smcj_grow((void **)&L->vs->unknown_fields, &cap, L->vs->n_unknown_fields + 1,
                   sizeof(char *))) {
        free(name);
        return;
    }
    L->vs->unknown_fields[L->vs->n_unknown_fields++] = name;
}

void smcj_loader_problem(smcj_loader_t *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    /* file names and ids are what the directory and the file say: shown safe (escape.h) */
    smcj_buf_excerpt_cstr(L->errors, L->file, 200);
    smct_buf_puts(L->errors, ": ");
    if (L->id) {
        smcj_buf_excerpt_cstr(L->errors, L->id, 200);
        smct_buf_puts(L->errors, ": ");
    }
    smct_buf_vprintf(L->errors, fmt, ap);
    smct_buf_putc(L->errors, '\n');
    va_end(ap);
    L->n_errors++;
}

char *smcj_json_strdup(const smct_json_t *j)
{
    return smcj_strndup(j->str.ptr, j->str.len);
}

bool smcj_json_is_string(const smct_json_t *j)
{
    return j && j->type == SMCT_JSON_STRING;
}

bool smcj_json_no_nul(const smct_json_t *j)
{
    return memchr(j->str.ptr, '\0', j->str.len) == NULL;
}

/* A required string field without NUL; NULL (after a problem) if absent or malformed. */
static char *req_str(smcj_loader_t *L, const smct_json_t *obj, const char *key)
{
    const smct_json_t *j = smct_json_get(obj, key);
    if (!smcj_json_is_string(j) || !smcj_json_no_nul(j)) {
        smcj_loader_problem(L, "field `%s` missing or not a string", key);
        return NULL;
    }
    return smcj_json_strdup(j);
}

static bool parse_hex_field(smcj_loader_t *L, const smct_json_t *j, const char *what, char **hex,
                            uint8_t **bytes, size_t *len)
{
    smct_status_t st = smcj_json_is_string(j)
                           ? smct_hex_decode_strict_new(j->str.ptr, j->str.len, bytes, len, NULL)
                           : SMCT_ERR_SYNTAX;
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem();
        return false;
    }
    if (st != SMCT_OK) {
        smcj_loader_problem(L, "`%s` is not lower-case hex with an even number of digits", what);
        return false;
    }
    *hex = smcj_json_strdup(j);
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

/* FNV-1a, so every runner and every rerun gets the same shift for one vector. */
static unsigned shift_of(const char *id)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)id; *p; p++) {
        h = (h ^ *p) * 16777619u;
    }
    return 1u + h % 7u;
}

/* id shape, description, section (matching the id), since, tier and its
 * per-mode refinements, kind. */
static void load_identity(smcj_loader_t *L, const smct_json_t *jv, smcj_vector_t *v)
{
    char id_section[32];
    if (!id_shape_ok(v->id, id_section, sizeof id_section)) {
        smcj_loader_problem(L, "id does not have the shape sNN.M-slug");
        id_section[0] = '\0';
    }
    v->description = req_str(L, jv, "description");
    v->section = req_str(L, jv, "section");
    if (v->section && id_section[0] && strcmp(v->section, id_section) != 0) {
        smcj_loader_problem(L, "section \"%s\" does not match the id (expected \"%s\")", v->section,
                            id_section);
    }
    char *since = req_str(L, jv, "since");
    free(since);
    char *tier = req_str(L, jv, "tier");
    if (tier && !smcj_tier_of_name(tier, &v->tier)) {
        smcj_loader_problem(L, "unknown tier \"%s\"", tier);
    }
    free(tier);
    v->mode_tier[0] = v->mode_tier[1] = v->tier;
    smcj_vector_load_requirements(L, v, jv);
    v->kind = req_str(L, jv, "kind");
    if (v->kind) {
        size_t k;
        for (k = 0; k < COUNT_OF(k_kinds) && strcmp(k_kinds[k], v->kind) != 0; k++) {
        }
        if (k == COUNT_OF(k_kinds)) {
            smcj_loader_problem(L, "unknown kind \"%s\"", v->kind);
        } else {
            v->entry = k_kind_entry[k];
        }
    }
}

/* V.3: the features a runner needs to express the vector, sorted and unique. */
static void load_features(smcj_loader_t *L, const smct_json_t *jv, smcj_vector_t *v)
{
    const smct_json_t *feats = smct_json_get(jv, "features");
    if (!feats || feats->type != SMCT_JSON_ARRAY) {
        smcj_loader_problem(L, "field `features` missing or not an array");
        return;
    }
    v->features = smcj_calloc(feats->array.count, sizeof(char *));
    for (size_t i = 0; v->features && i < feats->array.count; i++) {
        const smct_json_t *f = &feats->array.items[i];
        if (!smcj_json_is_string(f) || !smcj_json_no_nul(f)) {
            smcj_loader_problem(L, "a feature is not a string");
            continue;
        }
        char *word = smcj_json_strdup(f);
        if (!word) {
            return; /* out of memory */
        }
        v->features[v->n_features++] = word;
        if (v->n_features > 1 &&
            strcmp(v->features[v->n_features - 2], v->features[v->n_features - 1]) >= 0) {
            smcj_loader_problem(L, "`features` is not sorted and unique (V.2)");
        }
    }
}

/* The optional `focus` ({path, offset}), kept as the text the reports print. */
static void load_focus(smcj_loader_t *L, const smct_json_t *jv, smcj_vector_t *v)
{
    const smct_json_t *focus = smct_json_get(jv, "focus");
    if (!focus) {
        return;
    }
    const smct_json_t *path = smct_json_get(focus, "path");
    int64_t off;
    if (focus->type != SMCT_JSON_OBJECT || !smcj_json_is_string(path) || !smcj_json_no_nul(path)) {
        smcj_loader_problem(L, "`focus` must be {\"path\": ..., \"offset\": N}");
    } else if (smct_json_get_i64(smct_json_get(focus, "offset"), &off) && off >= 0) {
        v->focus =
            smcj_asprintf("%.*s at offset %lld", (int)path->str.len, path->str.ptr, (long long)off);
    } else {
        v->focus = smcj_asprintf("%.*s", (int)path->str.len, path->str.ptr);
    }
}

/* `value` in the notation of the vector's entry point, parsed into the judge's arena and
 * kept as compact text for encode requests. */
static void load_value(smcj_vectors_t *vs, smcj_loader_t *L, const smct_json_t *value,
                       smcj_vector_t *v)
{
    smct_error_t e;
    smct_status_t st = smct_notation_read(value, v->entry, &vs->arena, &v->value, &e);
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem();
        return;
    }
    if (st != SMCT_OK) {
        smcj_loader_problem(L, "`value` is not valid %s notation: %s (JSON offset %zu)",
                            smct_entry_name(v->entry), e.message ? e.message : "?", e.offset);
        return;
    }
    smct_buf_t b = {0};
    smct_json_write(&b, value);
    v->value_text = smcj_buf_take(&b);
    v->has_value = v->value_text != NULL;
}

/* V.2 `accepted`: other encodings a decoder must take, each with what strict mode says. */
static void load_accepted(smcj_loader_t *L, const smct_json_t *acc, smcj_vector_t *v)
{
    if (acc->type != SMCT_JSON_ARRAY) {
        smcj_loader_problem(L, "`accepted` is not an array");
        return;
    }
    v->accepted = smcj_calloc(acc->array.count, sizeof(smcj_accepted_t));
    for (size_t i = 0; v->accepted && i < acc->array.count; i++) {
        const smct_json_t *a = &acc->array.items[i];
        smcj_accepted_t *out = &v->accepted[v->n_accepted];
        const smct_json_t *strict = smct_json_get(a, "strict");
        const smct_json_t *why = smct_json_get(a, "why");
        if (a->type != SMCT_JSON_OBJECT || !strict || !smcj_json_is_string(why)) {
            smcj_loader_problem(L, "accepted[%zu] needs `hex`, `why` and `strict`", i);
            continue;
        }
        if (!parse_hex_field(L, smct_json_get(a, "hex"), "accepted.hex", &out->hex, &out->bytes,
                             &out->len)) {
            continue;
        }
        out->why = smcj_json_strdup(why);
        if (smcj_json_is_string(strict) && smcj_json_no_nul(strict)) {
            out->strict_class = smcj_json_strdup(strict);
        } else if (strict->type != SMCT_JSON_NULL) {
            smcj_loader_problem(L, "accepted[%zu].strict must be a class or null", i);
        }
        v->n_accepted++;
    }
}

/* A valid vector (V.2): `value`, `canonical` and the optional `accepted`. */
static void load_valid(smcj_loader_t *L, const smct_json_t *jv, const smct_json_t *value,
                       const smct_json_t *canonical, smcj_vector_t *v)
{
    v->is_valid = true;
    if (!value) {
        smcj_loader_problem(L, "a valid vector needs `value`");
    }
    parse_hex_field(L, canonical, "canonical", &v->canonical_hex, &v->canonical, &v->canonical_len);
    const smct_json_t *acc = smct_json_get(jv, "accepted");
    if (acc) {
        load_accepted(L, acc, v);
    }
}

/* `error.modes`: "flutter" and/or "strict", each once. */
static void load_modes(smcj_loader_t *L, const smct_json_t *modes, smcj_vector_t *v)
{
    if (!modes || modes->type != SMCT_JSON_ARRAY || modes->array.count == 0) {
        smcj_loader_problem(L, "error.modes must be a non-empty array");
        return;
    }
    for (size_t i = 0; i < modes->array.count; i++) {
        if (smct_json_is_str(&modes->array.items[i], "flutter") && !v->rejects_flutter) {
            v->rejects_flutter = true;
        } else if (smct_json_is_str(&modes->array.items[i], "strict") && !v->rejects_strict) {
            v->rejects_strict = true;
        } else {
            smcj_loader_problem(L, "error.modes holds something other than \"flutter\" and "
                                   "\"strict\" once each");
        }
    }
}

/* `error` {class, offset, modes, alternatives?}: the class is one of §14.1, the offset within
 * the input. */
static void load_error(smcj_loader_t *L, const smct_json_t *error, smcj_vector_t *v)
{
    const smct_json_t *cls = smct_json_get(error, "class");
    uint64_t off = 0;
    if (smcj_json_is_string(cls)) {
        v->err_class = smcj_json_strdup(cls);
    }
    if (!smcj_is_error_class(v->err_class)) {
        smcj_loader_problem(L, "error.class is not a decoder error class of spec/errors.md §14.1");
    }
    if (!smct_json_get_u64(smct_json_get(error, "offset"), &off)) {
        smcj_loader_problem(L, "error.offset is not a non-negative integer");
    } else if (v->bytes && off > v->len) {
        smcj_loader_problem(L, "error.offset %llu is past the input (%zu bytes)",
                            (unsigned long long)off, v->len);
    }
    v->err_offset = off;
    load_modes(L, smct_json_get(error, "modes"), v);
}

/* A reject vector (V.2): `hex` and `error`; a strict-only reject also carries the `value`
 * flutter mode decodes it to. */
static void load_reject(smcj_loader_t *L, const smct_json_t *value, const smct_json_t *hex,
                        const smct_json_t *error, smcj_vector_t *v)
{
    v->is_reject = true;
    if (!hex || !error || error->type != SMCT_JSON_OBJECT) {
        smcj_loader_problem(L, "a reject vector needs `hex` and an `error` object");
        return;
    }
    parse_hex_field(L, hex, "hex", &v->hex, &v->bytes, &v->len);
    load_error(L, error, v);
    if (v->rejects_strict && !v->rejects_flutter && !value) {
        smcj_loader_problem(
            L, "a strict-only reject carries the `value` flutter mode decodes to (V.2)");
    }
    if (v->rejects_flutter && value) {
        smcj_loader_problem(L, "a reject vector rejected in flutter mode has no `value`");
    }
    const smct_json_t *oalts = smct_json_get(error, "alternatives");
    if (oalts) {
        smcj_vector_load_order_alts(L, v, oalts);
    }
}

/* Append `v` to the set; false when out of memory (then `v` is freed). */
static bool append(smcj_vectors_t *vs, smcj_vector_t *v)
{
    size_t cap = vs->count;
    if (vs->count % 256 == 0 && !smcj_grow((void **)&vs->v, &cap, vs->count + 256, sizeof *vs->v)) {
        smcj_vector_free(v);
        return false;
    }
    vs->v[vs->count++] = *v;
    return true;
}

void smcj_vector_add_refused(smcj_vectors_t *vs, const smct_json_t *jv, const char *file_base)
{
    smcj_vector_t v;
    memset(&v, 0, sizeof v);
    const smct_json_t *id = smct_json_get(jv, "id");
    if (!smcj_json_is_string(id) || !smcj_json_no_nul(id)) {
        return; /* nothing to find a duplicate by */
    }
    v.id = smcj_json_strdup(id);
    v.file = smcj_strdup(file_base);
    if (!v.id || !v.file) {
        smcj_vector_free(&v);
        return;
    }
    append(vs, &v);
}

void smcj_vector_load(smcj_vectors_t *vs, smcj_loader_t *L, const smct_json_t *jv,
                      const char *file_base)
{
    smcj_vector_t v;
    memset(&v, 0, sizeof v);
    v.file = smcj_strdup(file_base);
    L->id = NULL;
    if (!jv || jv->type != SMCT_JSON_OBJECT) {
        smcj_loader_problem(L, "a vector is not a JSON object");
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
    load_identity(L, jv, &v);
    load_features(L, jv, &v);
    load_focus(L, jv, &v);

    const smct_json_t *value = smct_json_get(jv, "value");
    const smct_json_t *canonical = smct_json_get(jv, "canonical");
    const smct_json_t *hex = smct_json_get(jv, "hex");
    const smct_json_t *error = smct_json_get(jv, "error");
    if (v.kind && strncmp(v.kind, "host_", 5) == 0) {
        smcj_host_vector_load(L, jv, &v); /* spec §17: host, host_value, a refusal */
    }
    if (value) {
        load_value(vs, L, value, &v);
    }
    if (canonical && (hex || error)) {
        smcj_loader_problem(
            L, "a vector is either valid (`canonical`) or a reject (`hex` + `error`), not both");
    } else if (canonical) {
        load_valid(L, jv, value, canonical, &v);
    } else if (v.host_refused) {
        /* a host value the encoder must refuse: no bytes (host_vector_load.c) */
    } else if (hex || error) {
        load_reject(L, value, hex, error, &v);
    } else {
        smcj_loader_problem(L,
                            "neither valid (`value` + `canonical`) nor a reject (`hex` + `error`)");
    }
    bool impldef = v.tier == SMCJ_TIER_IMPLDEF || v.mode_tier[0] == SMCJ_TIER_IMPLDEF ||
                   v.mode_tier[1] == SMCJ_TIER_IMPLDEF;
    if (impldef && !smct_json_get(jv, "notes")) {
        smcj_loader_problem(L, "an implementation-defined vector needs `notes` (V.2)");
    }
    smcj_vector_load_notes(vs, L, &v, smct_json_get(jv, "notes"));
    v.shift = shift_of(v.id);
    if (L->n_errors != before) {
        /* keep the id so duplicates are still detected, but the vector never runs */
        v.is_valid = v.is_reject = v.is_host = false;
    }
    append(vs, &v);
}
