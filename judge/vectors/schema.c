/*
 * A validator for the JSON Schema 2020-12 keywords vectors/schema.json uses (schema.h).
 * The schema is data: a vector file is checked against it as written, so a new feature word,
 * error class or field in the schema is enforced by the judge with no code to change, and a
 * keyword this file does not implement stops the judge at start instead of being skipped.
 *
 * Every keyword is evaluated, and every violation reported, except inside the applicators
 * that must try a subschema to decide (anyOf, oneOf, not, if): those run "silently", stop at
 * the first violation and keep its message for the report. Patterns are POSIX extended
 * regular expressions (the schema's patterns are written in the common subset of ECMA-262
 * and ERE), matched by glibc's DFA in time linear in the string. Nothing recurses on the
 * depth of the document: only on the depth of the schema, which is fixed. A value is walked
 * once per reporting anyOf/oneOf above it (check_of), so a file costs time in its size.
 */
#define _POSIX_C_SOURCE 200809L
#include "schema.h"

#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"

#define MAX_PATH            64 /* the schema nests objects about 8 deep */
#define MAX_DEPTH           64 /* subschemas followed at once */
#define MAX_PAIRWISE_UNIQUE 2000u

typedef struct pattern {
    const smct_json_t *node; /* the "pattern" value in the schema tree */
    regex_t re;
    bool hex_pairs; /* HEX_PAIRS: matched by a loop (below), not by regexec */
} pattern_t;

/* The protocol's hex strings (runners/protocol.schema.json) carry whole messages, 128 M
 * characters for a 64 MiB value: glibc's regexec takes ~40 ns a character on this group, a
 * quarter of a minute of the judge's CPU for one answer (judge_hostile_value_64mb). This one
 * pattern is checked by a loop that means exactly the same. */
#define HEX_PAIRS "^([0-9a-f][0-9a-f])*$"
/* the same pattern as vectors/schema.json spells it (a vector's canonical hex is as long) */
#define HEX_PAIRS_COUNTED "^([0-9a-f]{2})*$"

static bool is_hex_pairs(const smct_str_t *s)
{
    if (s->len % 2 != 0) {
        return false;
    }
    for (size_t i = 0; i < s->len; i++) {
        char ch = s->ptr[i];
        if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) {
            return false;
        }
    }
    return true;
}

struct smcj_schema {
    const char *name; /* the schema's file, for messages: "vectors/schema.json" */
    smc_arena_t arena;
    smct_json_t *root;
    pattern_t *patterns;
    size_t n_patterns;
};

/* Annotations: no effect on validity. */
static const char *const k_annotations[] = {"$schema",  "$id",     "title",    "description",
                                            "$comment", "default", "examples", "$defs"};
/* The assertions and applicators implemented below. */
static const char *const k_keywords[] = {"type",
                                         "enum",
                                         "const",
                                         "pattern",
                                         "minLength",
                                         "minItems",
                                         "uniqueItems",
                                         "items",
                                         "prefixItems",
                                         "minimum",
                                         "required",
                                         "properties",
                                         "additionalProperties",
                                         "$ref",
                                         "allOf",
                                         "anyOf",
                                         "oneOf",
                                         "not",
                                         "if",
                                         "then",
                                         "else"};

static bool in_words(const smct_str_t *k, const char *const *words, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (k->len == strlen(words[i]) && memcmp(k->ptr, words[i], k->len) == 0) {
            return true;
        }
    }
    return false;
}

/* Walk the schema: every keyword known, every pattern compiled, every $ref local. */
static bool prepare(smcj_schema_t *s, const smct_json_t *node, int depth, char *err,
                    size_t err_size)
{
    if (depth > MAX_DEPTH) {
        snprintf(err, err_size, "%s nests too deep", s->name);
        return false;
    }
    if (node->type == SMCT_JSON_ARRAY) {
        for (size_t i = 0; i < node->array.count; i++) {
            if (!prepare(s, &node->array.items[i], depth + 1, err, err_size)) {
                return false;
            }
        }
        return true;
    }
    if (node->type != SMCT_JSON_OBJECT) {
        return true;
    }
    for (size_t i = 0; i < node->object.count; i++) {
        const smct_json_member_t *m = &node->object.members[i];
        bool known = in_words(&m->key, k_keywords, sizeof k_keywords / sizeof k_keywords[0]);
        bool annotation =
            in_words(&m->key, k_annotations, sizeof k_annotations / sizeof k_annotations[0]);
        if (!known && !annotation) {
            snprintf(err, err_size,
                     "%s uses the keyword `%.*s`, which this judge "
                     "does not implement",
                     s->name, (int)m->key.len, m->key.ptr);
            return false;
        }
        const smct_json_t *v = &m->value;
        if (m->key.len == 7 && memcmp(m->key.ptr, "pattern", 7) == 0 &&
            v->type == SMCT_JSON_STRING) {
            size_t cap = s->n_patterns;
            if (!smcj_grow((void **)&s->patterns, &cap, s->n_patterns + 1, sizeof *s->patterns)) {
                return false;
            }
            pattern_t *p = &s->patterns[s->n_patterns];
            int rc = regcomp(&p->re, v->str.ptr, REG_EXTENDED | REG_NOSUB);
            if (rc == REG_ESPACE) {
                smcj_nomem(); /* regcomp's own allocation failed */
                return false;
            }
            if (rc != 0) {
                snprintf(err, err_size, "%s: pattern %s is not a regular expression", s->name,
                         v->str.ptr);
                return false;
            }
            p->node = v;
            p->hex_pairs =
                strcmp(v->str.ptr, HEX_PAIRS) == 0 || strcmp(v->str.ptr, HEX_PAIRS_COUNTED) == 0;
            s->n_patterns++;
            continue;
        }
        if (m->key.len == 4 && memcmp(m->key.ptr, "$ref", 4) == 0 &&
            (v->type != SMCT_JSON_STRING || strncmp(v->str.ptr, "#/$defs/", 8) != 0)) {
            snprintf(err, err_size,
                     "%s: only local $refs (#/$defs/NAME) are "
                     "implemented",
                     s->name);
            return false;
        }
        /* the values of these are data, not schemas */
        bool data =
            in_words(&m->key, (const char *const[]){"enum", "const", "required"}, 3) || annotation;
        bool is_props = m->key.len == 10 && memcmp(m->key.ptr, "properties", 10) == 0;
        bool is_defs = m->key.len == 5 && memcmp(m->key.ptr, "$defs", 5) == 0;
        if (is_props || is_defs) {
            for (size_t k = 0; v->type == SMCT_JSON_OBJECT && k < v->object.count; k++) {
                if (!prepare(s, &v->object.members[k].value, depth + 1, err, err_size)) {
                    return false;
                }
            }
        } else if (!data && !prepare(s, v, depth + 1, err, err_size)) {
            return false;
        }
    }
    return true;
}

smcj_schema_t *smcj_schema_compile(const char *text, size_t len, const char *name, char *err,
                                   size_t err_size)
{
    smcj_schema_t *s = smcj_calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    s->name = name;
    smc_arena_init_allocator(&s->arena, NULL);
    smct_error_t e;
    smct_status_t st = smct_json_parse(text, len, NULL, &s->arena, &s->root, &e);
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem();
        snprintf(err, err_size, "out of memory");
    } else if (st != SMCT_OK || s->root->type != SMCT_JSON_OBJECT) {
        snprintf(err, err_size, "%s is not a JSON object (%s)", s->name,
                 e.message ? e.message : "?");
    } else if (prepare(s, s->root, 0, err, err_size)) {
        return s;
    } else if (smcj_out_of_memory()) {
        snprintf(err, err_size, "out of memory");
    }
    smcj_schema_free(s);
    return NULL;
}

smcj_schema_t *smcj_schema_load(char *err, size_t err_size)
{
    return smcj_schema_compile((const char *)smcj_schema_text, smcj_schema_text_len,
                               "vectors/schema.json", err, err_size);
}

void smcj_schema_free(smcj_schema_t *s)
{
    if (!s) {
        return;
    }
    for (size_t i = 0; i < s->n_patterns; i++) {
        regfree(&s->patterns[i].re);
    }
    free(s->patterns);
    smc_arena_free(&s->arena);
    free(s);
}

/* ---- validation ---- */

typedef struct vctx {
    const smcj_schema_t *S;
    const smcj_schema_sink_t *sink;
    bool silent;       /* trying a subschema: stop at the first violation, keep its message */
    bool failed;       /* silent: a violation was found */
    smct_buf_t first;  /* silent: its message */
    size_t errors;     /* reported */
    const char *where; /* the $defs name last followed, for messages: "feature" */
    smcj_path_seg_t path[MAX_PATH];
    size_t depth_path;
    int depth;
} vctx_t;

void smcj_path_text(smct_buf_t *b, const smcj_path_seg_t *path, size_t from, size_t n)
{
    for (size_t i = from; i < n; i++) {
        if (path[i].key) {
            if (i > from) {
                smct_buf_putc(b, '.');
            }
            smcj_buf_excerpt(b, path[i].key, path[i].key_len, 60);
        } else {
            smct_buf_printf(b, "[%zu]", path[i].index);
        }
    }
}

/* A value as a message shows it: a string quoted and made safe, a number as written. */
static void show(smct_buf_t *b, const smct_json_t *v)
{
    switch (v->type) {
    case SMCT_JSON_STRING:
        smct_buf_putc(b, '"');
        smcj_buf_excerpt(b, v->str.ptr, v->str.len, 60);
        smct_buf_putc(b, '"');
        return;
    case SMCT_JSON_NUMBER:
        smcj_buf_excerpt(b, v->number.ptr, v->number.len, 40);
        return;
    case SMCT_JSON_NULL:
        smct_buf_puts(b, "null");
        return;
    case SMCT_JSON_TRUE:
        smct_buf_puts(b, "true");
        return;
    case SMCT_JSON_FALSE:
        smct_buf_puts(b, "false");
        return;
    case SMCT_JSON_ARRAY:
        smct_buf_puts(b, "an array");
        return;
    case SMCT_JSON_OBJECT:
        smct_buf_puts(b, "an object");
        return;
    }
}

/* A violation at the current path: reported, or (silent) remembered as the first. */
static void violation(vctx_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(vctx_t *c, const char *fmt, ...)
{
    if (smcj_out_of_memory()) {
        c->failed = true; /* what failed may be the memory: no verdict on the file */
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    if (c->silent) {
        if (!c->failed) {
            smct_buf_vprintf(&c->first, fmt, ap);
            smcj_buf_ok(&c->first); /* records out of memory: never a silent loss */
        }
        c->failed = true;
    } else {
        smct_buf_t m = {0};
        smct_buf_vprintf(&m, fmt, ap);
        c->sink->problem(c->sink->ctx, c->path, c->depth_path, smcj_buf_text(&m));
        smcj_buf_ok(&m);
        smct_buf_free(&m);
        c->errors++;
    }
    va_end(ap);
}

/* The same, with a value shown first: "\"int32x\" is not ..." */
static void violation_v(vctx_t *c, const smct_json_t *v, const char *what)
{
    smct_buf_t m = {0};
    show(&m, v);
    smct_buf_puts(&m, what);
    violation(c, "%s", smcj_buf_text(&m));
    smcj_buf_ok(&m);
    smct_buf_free(&m);
}

/* JSON equality without allocating for scalars (the schema's const and enum values), so
 * running out of memory never looks like a violation. */
static bool same_json(const smct_json_t *a, const smct_json_t *b)
{
    if (a->type != b->type) {
        return false;
    }
    switch (a->type) {
    case SMCT_JSON_STRING:
    case SMCT_JSON_NUMBER: /* str and number share the layout of the union */
        return a->str.len == b->str.len && memcmp(a->str.ptr, b->str.ptr, a->str.len) == 0;
    case SMCT_JSON_NULL:
    case SMCT_JSON_TRUE:
    case SMCT_JSON_FALSE:
        return true;
    case SMCT_JSON_ARRAY:
    case SMCT_JSON_OBJECT:
        break;
    }
    return smct_json_equal(a, b);
}

static bool stop(const vctx_t *c)
{
    return c->silent && c->failed;
}

static bool type_is(const smct_json_t *v, const char *t)
{
    switch (v->type) {
    case SMCT_JSON_STRING:
        return strcmp(t, "string") == 0;
    case SMCT_JSON_NUMBER:
        return strcmp(t, "number") == 0 || (strcmp(t, "integer") == 0 && smct_json_is_integer(v));
    case SMCT_JSON_OBJECT:
        return strcmp(t, "object") == 0;
    case SMCT_JSON_ARRAY:
        return strcmp(t, "array") == 0;
    case SMCT_JSON_NULL:
        return strcmp(t, "null") == 0;
    case SMCT_JSON_TRUE:
    case SMCT_JSON_FALSE:
        return strcmp(t, "boolean") == 0;
    }
    return false;
}

static bool validate(vctx_t *c, const smct_json_t *v, const smct_json_t *schema);

static void push_key(vctx_t *c, const smct_str_t *k)
{
    if (c->depth_path < MAX_PATH) {
        c->path[c->depth_path] = (smcj_path_seg_t){k->ptr, k->len, 0};
    }
    c->depth_path++;
}

static void push_index(vctx_t *c, size_t i)
{
    if (c->depth_path < MAX_PATH) {
        c->path[c->depth_path] = (smcj_path_seg_t){NULL, 0, i};
    }
    c->depth_path++;
}

/* Try `schema` on `v` without reporting: true if valid; else `why` gets the first problem. */
static bool try_schema(vctx_t *c, const smct_json_t *v, const smct_json_t *schema, smct_buf_t *why)
{
    vctx_t t = *c;
    t.silent = true;
    t.failed = false;
    memset(&t.first, 0, sizeof t.first);
    bool ok = validate(&t, v, schema) && !t.failed;
    if (!ok && why) {
        if (t.depth_path > c->depth_path) {
            smcj_path_text(why, t.path, c->depth_path,
                           t.depth_path < MAX_PATH ? t.depth_path : MAX_PATH);
            smct_buf_puts(why, ": ");
        }
        smcj_buf_append_buf(why, &t.first);
    }
    smcj_buf_ok(&t.first);
    smct_buf_free(&t.first);
    return ok;
}

static int cmp_json_str(const void *pa, const void *pb)
{
    const smct_json_t *a = *(const smct_json_t *const *)pa, *b = *(const smct_json_t *const *)pb;
    size_t n = a->str.len < b->str.len ? a->str.len : b->str.len;
    int d = memcmp(a->str.ptr, b->str.ptr, n);
    return d ? d : (a->str.len > b->str.len) - (a->str.len < b->str.len);
}

/* uniqueItems: strings by sorting (a hostile array of a million strings stays fast); other
 * items pairwise, up to MAX_PAIRWISE_UNIQUE of them. */
static void check_unique(vctx_t *c, const smct_json_t *v)
{
    size_t n = v->array.count;
    bool strings = true;
    for (size_t i = 0; i < n && strings; i++) {
        strings = v->array.items[i].type == SMCT_JSON_STRING;
    }
    if (strings && n > 1) {
        const smct_json_t **p = smcj_calloc(n, sizeof *p);
        if (!p) {
            return; /* out of memory (recorded): the run stops */
        }
        for (size_t i = 0; i < n; i++) {
            p[i] = &v->array.items[i];
        }
        smcj_sort(p, n, sizeof *p, cmp_json_str);
        for (size_t i = 1; i < n; i++) {
            if (cmp_json_str(&p[i - 1], &p[i]) == 0) {
                violation_v(c, p[i], " appears twice (the items must be unique)");
                break;
            }
        }
        free(p);
        return;
    }
    if (n > MAX_PAIRWISE_UNIQUE) {
        violation(c, "has %zu items, too many to check that they are unique", n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t k = i + 1; k < n; k++) {
            if (same_json(&v->array.items[i], &v->array.items[k])) {
                violation_v(c, &v->array.items[k], " appears twice (the items must be unique)");
                return;
            }
        }
    }
}

static void check_enum(vctx_t *c, const smct_json_t *v, const smct_json_t *e)
{
    for (size_t i = 0; i < e->array.count; i++) {
        if (same_json(v, &e->array.items[i])) {
            return;
        }
    }
    smct_buf_t m = {0};
    show(&m, v);
    smct_buf_puts(&m, " is not one of ");
    for (size_t i = 0; i < e->array.count && i < 24; i++) {
        if (i) {
            smct_buf_puts(&m, ", ");
        }
        show(&m, &e->array.items[i]);
    }
    if (c->where) {
        smct_buf_printf(&m, " (%s: %s)", c->S->name, c->where); /* the schema of this check */
    }
    violation(c, "%s", smcj_buf_text(&m));
    smcj_buf_ok(&m);
    smct_buf_free(&m);
}

static size_t code_points(const smct_str_t *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->len; i++) {
        n += ((unsigned char)s->ptr[i] & 0xc0) != 0x80;
    }
    return n;
}

static const pattern_t *pattern_of(const vctx_t *c, const smct_json_t *node)
{
    for (size_t i = 0; i < c->S->n_patterns; i++) {
        if (c->S->patterns[i].node == node) {
            return &c->S->patterns[i];
        }
    }
    return NULL;
}

/* The assertions on one value's own text, number or size. */
static void check_scalar_keyword(vctx_t *c, const smct_json_t *v, const smct_str_t *k,
                                 const smct_json_t *a)
{
    if (k->len == 7 && memcmp(k->ptr, "pattern", 7) == 0 && v->type == SMCT_JSON_STRING) {
        const pattern_t *p = pattern_of(c, a);
        bool matches = p && (p->hex_pairs ? is_hex_pairs(&v->str)
                                          : !memchr(v->str.ptr, '\0', v->str.len) &&
                                                regexec(&p->re, v->str.ptr, 0, NULL, 0) == 0);
        if (p && !matches) {
            smct_buf_t m = {0};
            smct_buf_puts(&m, " does not have the form ");
            smcj_buf_safe_line(&m, a->str.ptr, a->str.len);
            violation_v(c, v, smcj_buf_text(&m));
            smcj_buf_ok(&m);
            smct_buf_free(&m);
        }
    } else if (k->len == 9 && memcmp(k->ptr, "minLength", 9) == 0 && v->type == SMCT_JSON_STRING) {
        uint64_t min;
        if (smct_json_get_u64(a, &min) && code_points(&v->str) < min) {
            violation(c, "is shorter than %llu character%s", (unsigned long long)min,
                      min == 1 ? "" : "s");
        }
    } else if (k->len == 8 && memcmp(k->ptr, "minItems", 8) == 0 && v->type == SMCT_JSON_ARRAY) {
        uint64_t min;
        if (smct_json_get_u64(a, &min) && v->array.count < min) {
            violation(c, "has %zu item%s, fewer than %llu", v->array.count,
                      v->array.count == 1 ? "" : "s", (unsigned long long)min);
        }
    } else if (k->len == 11 && memcmp(k->ptr, "uniqueItems", 11) == 0 &&
               v->type == SMCT_JSON_ARRAY && a->type == SMCT_JSON_TRUE) {
        check_unique(c, v);
    } else if (k->len == 7 && memcmp(k->ptr, "minimum", 7) == 0 && v->type == SMCT_JSON_NUMBER) {
        if (strtod(v->number.ptr, NULL) < strtod(a->number.ptr, NULL)) {
            violation(c, "is %s, below the minimum %s", v->number.ptr, a->number.ptr);
        }
    }
}

/* properties, additionalProperties, required. */
static void check_object(vctx_t *c, const smct_json_t *v, const smct_json_t *schema)
{
    const smct_json_t *props = smct_json_get(schema, "properties");
    const smct_json_t *addl = smct_json_get(schema, "additionalProperties");
    const smct_json_t *req = smct_json_get(schema, "required");
    for (size_t i = 0; req && req->type == SMCT_JSON_ARRAY && i < req->array.count; i++) {
        const smct_json_t *name = &req->array.items[i];
        if (name->type == SMCT_JSON_STRING && !smct_json_get_n(v, name->str.ptr, name->str.len)) {
            violation(c, "lacks the field `%s`", name->str.ptr);
            if (stop(c)) {
                return;
            }
        }
    }
    for (size_t i = 0; i < v->object.count && !stop(c); i++) {
        const smct_json_member_t *m = &v->object.members[i];
        const smct_json_t *ps = smct_json_get_n(props, m->key.ptr, m->key.len);
        push_key(c, &m->key);
        if (ps) {
            validate(c, &m->value, ps);
        } else if (addl && addl->type == SMCT_JSON_FALSE) {
            /* spec/vectors.md V.4: named, ignored, never an error */
            if (!c->silent && c->depth_path <= MAX_PATH) {
                c->sink->unknown(c->sink->ctx, c->path, c->depth_path);
            }
        } else if (addl && addl->type == SMCT_JSON_OBJECT) {
            validate(c, &m->value, addl);
        }
        c->depth_path--;
    }
}

static void check_array(vctx_t *c, const smct_json_t *v, const smct_json_t *schema)
{
    const smct_json_t *prefix = smct_json_get(schema, "prefixItems");
    const smct_json_t *items = smct_json_get(schema, "items");
    size_t np = prefix && prefix->type == SMCT_JSON_ARRAY ? prefix->array.count : 0;
    bool all_true = items && items->type == SMCT_JSON_TRUE;
    for (size_t i = 0; i < v->array.count && !stop(c); i++) {
        const smct_json_t *s = i < np ? &prefix->array.items[i] : items;
        if (!s || (i >= np && all_true)) {
            if (i >= np) {
                break; /* `items: true` (the notation of a value: checked by the judge) */
            }
            continue;
        }
        push_index(c, i);
        validate(c, &v->array.items[i], s);
        c->depth_path--;
    }
}

/* anyOf / oneOf: which subschemas `v` matches; a violation names each one's first problem. */
static void check_of(vctx_t *c, const smct_json_t *v, const smct_json_t *list, bool one)
{
    size_t matches = 0, first_match = 0;
    smct_buf_t why = {0};
    for (size_t i = 0; i < list->array.count; i++) {
        const smct_json_t *sub = &list->array.items[i];
        smct_buf_t w = {0};
        if (try_schema(c, v, sub, &w)) {
            if (matches++ == 0) {
                first_match = i;
            }
        } else {
            const smct_json_t *d = smct_json_get(sub, "description");
            smct_buf_printf(&why, "%s", why.len ? "; " : "");
            if (d && d->type == SMCT_JSON_STRING) {
                smct_buf_printf(&why, "as a %s: ", d->str.ptr);
            }
            smcj_buf_append_buf(&why, &w);
        }
        smcj_buf_ok(&w);
        smct_buf_free(&w);
    }
    if (matches == 0) {
        violation(c, "is none of the allowed forms (%s)", smcj_buf_text(&why));
    } else if (one && matches > 1) {
        violation(c, "matches more than one of the forms only one of which is allowed");
    } else if (!c->silent) {
        /* Again, reporting, so its unknown fields get named. Never when silent: the try above
         * was this very walk, and a silent one names nothing. Run while silent too, it made
         * each level of a nested form (a host value holds host values through two anyOf)
         * walk its subtree twice more, 4^depth in all: 14 s for a host value 12 deep. Now a
         * value is walked once per reporting anyOf above it, bounded by MAX_DEPTH. */
        validate(c, v, &list->array.items[first_match]);
    }
    smcj_buf_ok(&why);
    smct_buf_free(&why);
}

/* `not`: a form that must not match, described from its `required` lists when it has them
 * ("has `hex`"), the way the vector schema uses it. */
static void check_not(vctx_t *c, const smct_json_t *v, const smct_json_t *sub)
{
    if (!try_schema(c, v, sub, NULL)) {
        return;
    }
    smct_buf_t m = {0};
    const smct_json_t *any = smct_json_get(sub, "anyOf");
    for (size_t i = 0; any && any->type == SMCT_JSON_ARRAY && i < any->array.count; i++) {
        const smct_json_t *req = smct_json_get(&any->array.items[i], "required");
        for (size_t k = 0; req && req->type == SMCT_JSON_ARRAY && k < req->array.count; k++) {
            const smct_json_t *f = &req->array.items[k];
            if (f->type == SMCT_JSON_STRING && smct_json_get_n(v, f->str.ptr, f->str.len)) {
                smct_buf_printf(&m, "%s`%s`", m.len ? ", " : "", f->str.ptr);
            }
        }
    }
    violation(c, m.len ? "has %s, which this form must not have" : "matches a form it must not%s",
              smcj_buf_text(&m));
    smcj_buf_ok(&m);
    smct_buf_free(&m);
}

static bool validate(vctx_t *c, const smct_json_t *v, const smct_json_t *schema)
{
    if (schema->type == SMCT_JSON_TRUE) {
        return true;
    }
    if (schema->type == SMCT_JSON_FALSE) {
        violation(c, "is not allowed here");
        return false;
    }
    if (schema->type != SMCT_JSON_OBJECT || ++c->depth > MAX_DEPTH) {
        c->depth -= schema->type == SMCT_JSON_OBJECT;
        return true;
    }
    const char *where = c->where;
    size_t before = c->errors;
    const smct_json_t *type = smct_json_get(schema, "type");
    bool type_ok = !type || type->type != SMCT_JSON_STRING || type_is(v, type->str.ptr);
    for (size_t i = 0; type && type->type == SMCT_JSON_ARRAY && i < type->array.count; i++) {
        const smct_json_t *t = &type->array.items[i];
        type_ok = (i > 0 && type_ok) || (t->type == SMCT_JSON_STRING && type_is(v, t->str.ptr));
    }
    if (!type_ok && type->type == SMCT_JSON_ARRAY) {
        violation_v(c, v, " is none of the types allowed here");
        c->depth--;
        return false;
    }
    if (!type_ok) {
        smct_buf_t m = {0};
        smct_buf_printf(&m, " is a%s %s, not a%s %s",
                        v->type == SMCT_JSON_ARRAY || v->type == SMCT_JSON_OBJECT ? "n" : "",
                        smct_json_type_name(v->type), strchr("aeiou", type->str.ptr[0]) ? "n" : "",
                        type->str.ptr);
        violation_v(c, v, smcj_buf_text(&m));
        smcj_buf_ok(&m);
        smct_buf_free(&m);
        c->depth--;
        return false; /* the other keywords would only repeat it */
    }
    for (size_t i = 0; i < schema->object.count && !stop(c); i++) {
        const smct_json_member_t *m = &schema->object.members[i];
        const smct_str_t *k = &m->key;
        const smct_json_t *a = &m->value;
        if (k->len == 4 && memcmp(k->ptr, "$ref", 4) == 0) {
            const smct_json_t *defs = smct_json_get(c->S->root, "$defs");
            const smct_json_t *target = smct_json_get(defs, a->str.ptr + 8);
            c->where = a->str.ptr + 2; /* "$defs/feature" */
            if (target) {
                validate(c, v, target);
            }
            c->where = where;
        } else if (k->len == 4 && memcmp(k->ptr, "enum", 4) == 0 && a->type == SMCT_JSON_ARRAY) {
            check_enum(c, v, a);
        } else if (k->len == 5 && memcmp(k->ptr, "const", 5) == 0 && !same_json(v, a)) {
            smct_buf_t m2 = {0};
            smct_buf_puts(&m2, " is not ");
            show(&m2, a);
            violation_v(c, v, smcj_buf_text(&m2));
            smcj_buf_ok(&m2);
            smct_buf_free(&m2);
        } else if (k->len == 5 && memcmp(k->ptr, "allOf", 5) == 0 && a->type == SMCT_JSON_ARRAY) {
            for (size_t s = 0; s < a->array.count && !stop(c); s++) {
                validate(c, v, &a->array.items[s]);
            }
        } else if ((k->len == 5 && memcmp(k->ptr, "anyOf", 5) == 0) ||
                   (k->len == 5 && memcmp(k->ptr, "oneOf", 5) == 0)) {
            if (a->type == SMCT_JSON_ARRAY) {
                check_of(c, v, a, k->ptr[0] == 'o');
            }
        } else if (k->len == 3 && memcmp(k->ptr, "not", 3) == 0) {
            check_not(c, v, a);
        } else if (k->len == 2 && memcmp(k->ptr, "if", 2) == 0) {
            const smct_json_t *then = smct_json_get(schema, "then");
            const smct_json_t *els = smct_json_get(schema, "else");
            const smct_json_t *next = try_schema(c, v, a, NULL) ? then : els;
            if (next) {
                validate(c, v, next);
            }
        } else {
            check_scalar_keyword(c, v, k, a);
        }
    }
    if (!stop(c) && v->type == SMCT_JSON_OBJECT) {
        check_object(c, v, schema);
    }
    if (!stop(c) && v->type == SMCT_JSON_ARRAY) {
        check_array(c, v, schema);
    }
    c->depth--;
    return !c->failed && c->errors == before;
}

size_t smcj_schema_check_def(const smcj_schema_t *s, const smct_json_t *doc, const char *def,
                             const smcj_schema_sink_t *sink)
{
    const smct_json_t *target = smct_json_get(smct_json_get(s->root, "$defs"), def);
    if (!target) {
        sink->problem(sink->ctx, NULL, 0, "internal: the schema has no such definition");
        return 1;
    }
    vctx_t *c = smcj_calloc(1, sizeof *c);
    if (!c) {
        return 0; /* out of memory (recorded): the run stops */
    }
    c->S = s;
    c->sink = sink;
    c->where = def;
    validate(c, doc, target);
    size_t n = c->errors;
    free(c);
    return n;
}

size_t smcj_schema_check(const smcj_schema_t *s, const smct_json_t *doc,
                         const smcj_schema_sink_t *sink)
{
    vctx_t *c = smcj_calloc(1, sizeof *c);
    if (!c) {
        return 0; /* out of memory (recorded): the run stops */
    }
    c->S = s;
    c->sink = sink;
    validate(c, doc, s->root);
    size_t n = c->errors;
    free(c);
    return n;
}
